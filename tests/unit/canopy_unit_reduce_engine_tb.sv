// canopy_unit_reduce_engine_tb.sv: test top for the canopy_reduce_engine unit test (driven
// by reduce_engine_test.cpp).
//
// One reduce engine (NumDims 2: links 0..3, local port 4; 16 trees; a pool of 64
// accumulators) behind a membership table (canopy_coll_table) that the test programs
// through its write port, as the host interface would. This node's coordinates are fixed
// (0x0021), so the test knows the source field of every packet the engine sends.
`default_nettype none

module canopy_unit_reduce_engine_tb #(
  localparam int unsigned NumDims  = 2,
  localparam int unsigned NumLanes = 2 * NumDims + 1,
  localparam int unsigned PortW    = $clog2(NumLanes + 1)
) (
  input  wire logic                 clk_i,
  input  wire logic                 rst_i,

  input  wire logic                 tbl_we_i,
  input  wire logic [5:0]           tbl_widx_i,
  input  wire logic [31:0]          tbl_wentry_i,
  output logic                      tbl_wok_o,

  input  wire logic                 in_valid_i,
  input  wire logic [63:0]          in_flit_i,
  input  wire logic                 in_last_i,
  input  wire logic [PortW-1:0]     in_port_i,
  output logic                      in_ready_o,

  output logic                      up_valid_o,
  output logic [63:0]               up_flit_o,
  output logic                      up_last_o,
  output logic [PortW-1:0]          up_port_o,
  input  wire logic                 up_grant_i,

  output logic                      res_valid_o,
  output logic [63:0]               res_flit_o,
  output logic                      res_last_o,
  output logic [NumLanes-1:0]       res_lanes_o,
  output logic [5:0]                res_tree_o,
  input  wire logic                 res_ready_i,

  output logic                      err_reduce_o,
  output logic                      err_dir_o,
  output logic                      err_tree_o,
  output logic                      refused_o,
  output logic [6:0]                pool_free_o
);
  logic [5:0]              look_idx;
  canopy_pkg::tree_entry_t look, unused_rentry, unused_l2entry;
  wire logic unused = ^{unused_rentry, unused_l2entry};

  canopy_coll_table #(.NumDims(NumDims), .NumTrees(16)) u_table (
    .clk_i,
    .rst_i,
    .we_i      (tbl_we_i),
    .widx_i    (tbl_widx_i),
    .wentry_i  (canopy_pkg::tree_entry_t'(tbl_wentry_i)),
    .wok_o     (tbl_wok_o),
    .ridx_i    ('0),
    .rentry_o  (unused_rentry),
    .lidx_i    (look_idx),
    .lentry_o  (look),
    .l2idx_i   ('0),
    .l2entry_o (unused_l2entry)
  );

  canopy_reduce_engine #(.NumDims(NumDims), .NumTrees(16), .PoolSlots(64)) u_dut (
    .clk_i,
    .rst_i,
    .my_coord_i  (canopy_pkg::coords_t'(16'h0021)),
    .in_valid_i,
    .in_flit_i,
    .in_last_i,
    .in_port_i,
    .in_ready_o,
    .look_idx_o  (look_idx),
    .look_i      (look),
    .up_valid_o,
    .up_flit_o,
    .up_last_o,
    .up_port_o,
    .up_grant_i,
    .res_valid_o,
    .res_flit_o,
    .res_last_o,
    .res_lanes_o,
    .res_tree_o,
    .res_ready_i,
    .err_reduce_o,
    .err_dir_o,
    .err_tree_o,
    .refused_o,
    .pool_free_o
  );
endmodule

`default_nettype wire
