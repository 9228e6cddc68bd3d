// canopy_unit_coll_desc_queue_tb.sv: test top for the canopy_coll_desc_queue unit test
// (driven by coll_desc_queue_test.cpp): the descriptor queue for NumDims 2 (links 0..3:
// the multicast link lane's masks are 4 bits, dec_lanes_i bit 4 the local lane), 16 trees
// x 2 slots, its ports brought out as packed vectors.
`default_nettype none

module canopy_unit_coll_desc_queue_tb (
  input  wire logic        clk_i,
  input  wire logic        rst_i,
  input  wire logic        dec_valid_i,
  input  wire logic [4:0]  dec_slot_i,
  input  wire logic [4:0]  dec_lanes_i,
  input  wire logic [15:0] free_ptr_i,
  input  wire logic        link_ready_i,
  output logic             link_pick_o,
  output logic      [4:0]  link_pick_slot_o,
  output logic      [3:0]  link_pick_mask_o,
  input  wire logic        link_tail_i,
  input  wire logic [4:0]  link_tail_slot_i,
  input  wire logic        local_ready_i,
  output logic             local_pick_o,
  output logic      [4:0]  local_pick_slot_o,
  input  wire logic        local_tail_i,
  input  wire logic [4:0]  local_tail_slot_i,
  input  wire logic [3:0]  cand_tree_i,
  output logic             done_o,
  input  wire logic        rel_valid_i,
  input  wire logic [4:0]  rel_slot_i,
  input  wire logic [3:0]  slot_credit_valid_i,
  input  wire logic [23:0] slot_credit_tree_i
);
  canopy_coll_desc_queue #(.NumDims(2), .NumTrees(16), .SlotsPerTree(2)) u_dut (
    .clk_i,
    .rst_i,
    .dec_valid_i,
    .dec_slot_i,
    .dec_lanes_i,
    .free_ptr_i,
    .link_ready_i,
    .link_pick_o,
    .link_pick_slot_o,
    .link_pick_mask_o,
    .link_tail_i,
    .link_tail_slot_i,
    .local_ready_i,
    .local_pick_o,
    .local_pick_slot_o,
    .local_tail_i,
    .local_tail_slot_i,
    .cand_tree_i,
    .done_o,
    .rel_valid_i,
    .rel_slot_i,
    .slot_credit_valid_i,
    .slot_credit_tree_i
  );
endmodule

`default_nettype wire
