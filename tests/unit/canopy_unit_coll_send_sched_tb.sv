// canopy_unit_coll_send_sched_tb.sv: test top for the canopy_coll_send_sched unit test
// (driven by coll_send_sched_test.cpp): the send lanes for NumDims 2 (link lanes 0..3,
// local lane 4), 16 trees x 2 slots, ports brought out as packed vectors. The test plays
// the working memory behind the two read ports.
`default_nettype none

module canopy_unit_coll_send_sched_tb (
  input  wire logic         clk_i,
  input  wire logic         rst_i,
  input  wire logic [4:0]   pick_i,
  input  wire logic [24:0]  pick_slot_i,
  output logic      [4:0]   lane_ready_o,
  input  wire logic         wr_valid_i,
  input  wire logic [4:0]   wr_slot_i,
  input  wire logic [5:0]   wr_idx_i,
  input  wire logic         wr_last_i,
  output logic      [10:0]  rd0_addr_o,
  input  wire logic [63:0]  rd0_data_i,
  output logic      [10:0]  rd1_addr_o,
  input  wire logic [63:0]  rd1_data_i,
  output logic      [4:0]   lane_valid_o,
  output logic      [319:0] lane_flit_o,
  output logic      [4:0]   lane_last_o,
  input  wire logic [4:0]   lane_grant_i,
  output logic      [4:0]   tail_o,
  output logic      [24:0]  tail_slot_o
);
  canopy_coll_send_sched #(.NumDims(2), .FlitWidth(64), .NumTrees(16), .SlotsPerTree(2)) u_dut (
    .clk_i,
    .rst_i,
    .pick_i,
    .pick_slot_i,
    .lane_ready_o,
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
    .tail_o,
    .tail_slot_o
  );
endmodule

`default_nettype wire
