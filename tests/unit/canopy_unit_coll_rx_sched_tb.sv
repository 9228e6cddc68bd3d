// canopy_unit_coll_rx_sched_tb.sv: test top for the canopy_coll_rx_sched unit test (driven
// by coll_rx_sched_test.cpp).
//
// The receive scheduler (NumDims 2: links 0..3, local port 4; 16 trees, 2 slots each, 8
// flits per VC queue) behind a membership table the test programs. The test plays the
// working memory (tree_full_i, alloc_ptr_i from alloc_o), the reduce engine (eng_*) and
// the engine's results (res_*).
`default_nettype none

module canopy_unit_coll_rx_sched_tb #(
  localparam int unsigned NumLanes = 5,
  localparam int unsigned PortW    = 3
) (
  input  wire logic                 clk_i,
  input  wire logic                 rst_i,
  input  wire logic                 tbl_we_i,
  input  wire logic [5:0]           tbl_widx_i,
  input  wire logic [31:0]          tbl_wentry_i,

  input  wire logic                 rx_valid_i,
  input  wire logic [63:0]          rx_flit_i,
  input  wire logic                 rx_last_i,
  input  wire logic [1:0]           rx_vc_i,
  input  wire logic [PortW-1:0]     rx_port_i,
  output logic      [3:0]           rx_credit_o,

  output logic                      eng_valid_o,
  output logic      [63:0]          eng_flit_o,
  output logic                      eng_last_o,
  output logic      [PortW-1:0]     eng_port_o,
  input  wire logic                 eng_ready_i,

  input  wire logic                 res_valid_i,
  input  wire logic [63:0]          res_flit_i,
  input  wire logic                 res_last_i,
  input  wire logic [NumLanes-1:0]  res_lanes_i,
  input  wire logic [5:0]           res_tree_i,
  output logic                      res_ready_o,

  input  wire logic [15:0]          tree_full_i,
  input  wire logic [15:0]          alloc_ptr_i,
  output logic                      alloc_o,
  output logic      [3:0]           alloc_tree_o,
  output logic      [PortW-1:0]     alloc_port_o,
  output logic                      alloc_credit_o,

  output logic                      wr_valid_o,
  output logic      [4:0]           wr_slot_o,
  output logic      [5:0]           wr_idx_o,
  output logic      [63:0]          wr_data_o,
  output logic                      wr_last_o,
  output logic                      dec_valid_o,
  output logic      [4:0]           dec_slot_o,
  output logic      [NumLanes-1:0]  dec_lanes_o,
  output logic                      drop_cr_valid_o,
  output logic      [PortW-1:0]     drop_cr_port_o,
  output logic      [5:0]           drop_cr_tree_o,
  output logic                      err_tree_o,
  output logic                      err_dir_o
);
  logic [5:0]              look_idx;
  canopy_pkg::tree_entry_t look, unused_r, unused_l2;
  logic                    unused_wok;
  wire logic unused = ^{unused_r, unused_l2, unused_wok};

  canopy_coll_table #(.NumDims(2), .NumTrees(16)) u_table (
    .clk_i,
    .rst_i,
    .we_i      (tbl_we_i),
    .widx_i    (tbl_widx_i),
    .wentry_i  (canopy_pkg::tree_entry_t'(tbl_wentry_i)),
    .wok_o     (unused_wok),
    .ridx_i    ('0),
    .rentry_o  (unused_r),
    .lidx_i    (look_idx),
    .lentry_o  (look),
    .l2idx_i   ('0),
    .l2entry_o (unused_l2)
  );

  canopy_coll_rx_sched #(.NumDims(2), .NumTrees(16), .SlotsPerTree(2), .RxDepth(8)) u_dut (
    .clk_i,
    .rst_i,
    .rx_valid_i,
    .rx_flit_i,
    .rx_last_i,
    .rx_vc_i,
    .rx_port_i,
    .rx_credit_o,
    .look_idx_o      (look_idx),
    .look_i          (look),
    .eng_valid_o,
    .eng_flit_o,
    .eng_last_o,
    .eng_port_o,
    .eng_ready_i,
    .res_valid_i,
    .res_flit_i,
    .res_last_i,
    .res_lanes_i,
    .res_tree_i,
    .res_ready_o,
    .tree_full_i,
    .alloc_ptr_i     (alloc_ptr_i),
    .alloc_o,
    .alloc_tree_o,
    .alloc_port_o,
    .alloc_credit_o,
    .wr_valid_o,
    .wr_slot_o,
    .wr_idx_o,
    .wr_data_o,
    .wr_last_o,
    .dec_valid_o,
    .dec_slot_o,
    .dec_lanes_o,
    .drop_cr_valid_o,
    .drop_cr_port_o,
    .drop_cr_tree_o,
    .err_tree_o,
    .err_dir_o
  );
endmodule

`default_nettype wire
