// canopy_unit_coll_send_sched_tb.sv: test top for the canopy_coll_send_sched unit test
// (driven by coll_send_sched_test.cpp): the send scheduler for NumDims 2 (the link lane
// offering to links 0..3, the local lane to output 4), 16 trees x 2 slots, the default
// StoreDepth, ports brought out as packed vectors (lane_flit_o: the link lane's flit in
// [63:0], the local lane's in [127:64]). The test plays the working memory behind the two
// read ports.
`default_nettype none

module canopy_unit_coll_send_sched_tb (
  input  wire logic         clk_i,
  input  wire logic         rst_i,
  input  wire logic         link_pick_i,
  input  wire logic [4:0]   link_pick_slot_i,
  input  wire logic [3:0]   link_pick_mask_i,
  output logic              link_ready_o,
  input  wire logic         local_pick_i,
  input  wire logic [4:0]   local_pick_slot_i,
  output logic              local_ready_o,
  input  wire logic         wr_valid_i,
  input  wire logic [4:0]   wr_slot_i,
  input  wire logic [5:0]   wr_idx_i,
  input  wire logic         wr_last_i,
  output logic      [10:0]  rd0_addr_o,
  input  wire logic [63:0]  rd0_data_i,
  output logic      [10:0]  rd1_addr_o,
  input  wire logic [63:0]  rd1_data_i,
  output logic      [4:0]   lane_valid_o,
  output logic      [127:0] lane_flit_o,
  output logic      [4:0]   lane_last_o,
  input  wire logic [4:0]   lane_grant_i,
  input  wire logic [3:0]   lane_room_i,
  output logic              link_tail_o,
  output logic      [4:0]   link_tail_slot_o,
  output logic              local_tail_o,
  output logic      [4:0]   local_tail_slot_o
);
  canopy_coll_send_sched #(.NumDims(2), .FlitWidth(64), .NumTrees(16), .SlotsPerTree(2)) u_dut (
    .clk_i,
    .rst_i,
    .link_pick_i,
    .link_pick_slot_i,
    .link_pick_mask_i,
    .link_ready_o,
    .local_pick_i,
    .local_pick_slot_i,
    .local_ready_o,
    .wr_valid_i,
    .wr_slot_i,
    .wr_idx_i,
    .wr_last_i,
    .rd0_addr_o,
    .rd0_data_i,
    .rd1_addr_o,
    .rd1_data_i,
    .lane_valid_o,
    .lane_flit_o,
    .lane_last_o,
    .lane_grant_i,
    .lane_room_i,
    .link_tail_o,
    .link_tail_slot_o,
    .local_tail_o,
    .local_tail_slot_o
  );
endmodule

`default_nettype wire
