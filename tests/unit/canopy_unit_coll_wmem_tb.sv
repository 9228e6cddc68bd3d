// canopy_unit_coll_wmem_tb.sv: test top for the canopy_coll_wmem unit test (driven by
// coll_wmem_test.cpp): the working memory for NumDims 2 (links 0..3), 16 trees x 2 slots,
// its ports brought out.
`default_nettype none

module canopy_unit_coll_wmem_tb (
  input  wire logic        clk_i,
  input  wire logic        rst_i,
  input  wire logic        alloc_i,
  input  wire logic [3:0]  alloc_tree_i,
  input  wire logic [2:0]  alloc_port_i,
  input  wire logic        alloc_credit_i,
  output logic      [15:0] alloc_ptr_o,
  output logic      [15:0] free_ptr_o,
  output logic      [15:0] tree_full_o,
  input  wire logic        wr_valid_i,
  input  wire logic [4:0]  wr_slot_i,
  input  wire logic [5:0]  wr_idx_i,
  input  wire logic [63:0] wr_data_i,
  input  wire logic        wr_last_i,
  input  wire logic [10:0] rd0_addr_i,
  output logic      [63:0] rd0_data_o,
  input  wire logic [10:0] rd1_addr_i,
  output logic      [63:0] rd1_data_o,
  output logic      [3:0]  cand_tree_o,
  input  wire logic        done_i,
  output logic             rel_valid_o,
  output logic      [4:0]  rel_slot_o,
  input  wire logic        drop_cr_valid_i,
  input  wire logic [2:0]  drop_cr_port_i,
  input  wire logic [5:0]  drop_cr_tree_i,
  output logic      [3:0]  slot_credit_valid_o,
  output logic      [23:0] slot_credit_tree_o
);
  canopy_coll_wmem #(.NumDims(2), .NumTrees(16), .SlotsPerTree(2)) u_dut (
    .clk_i,
    .rst_i,
    .alloc_i,
    .alloc_tree_i,
    .alloc_port_i,
    .alloc_credit_i,
    .alloc_ptr_o,
    .free_ptr_o,
    .tree_full_o,
    .wr_valid_i,
    .wr_slot_i,
    .wr_idx_i,
    .wr_data_i,
    .wr_last_i,
    .rd0_addr_i,
    .rd0_data_o,
    .rd1_addr_i,
    .rd1_data_o,
    .cand_tree_o,
    .done_i,
    .rel_valid_o,
    .rel_slot_o,
    .drop_cr_valid_i,
    .drop_cr_port_i,
    .drop_cr_tree_i,
    .slot_credit_valid_o,
    .slot_credit_tree_o
  );
endmodule

`default_nettype wire
