// canopy_coll_send_sched: the collective unit's Send Packet Scheduler (seed 000): two send
// lanes (canopy_coll_send_lane) reading packets out of the working memory and offering
// them on VC COLL_DOWN: the link lane to every link of a packet's mask at once (the
// children of its tree), the local lane to the local port.
//
// Interface contract
//   - link_pick_i / link_pick_slot_i / link_pick_mask_i: the link lane is to send that slot
//     to the links in the mask; only while link_ready_o. local_pick_*: the same for the
//     local lane. A lane takes one at once when idle, else holds it as its next.
//   - wr_* (the working memory's write stream): each lane follows the words written.
//   - rd0_* (registered address) is the link lane's read port, rd1_* the local lane's:
//     rdN_data_i is the word at the address of the cycle before. The local lane has its own
//     copy of the memory, so the host's pace never holds up the links.
//   - lane_valid_o[o] / lane_last_o[o], o = router output (links 0..2n-1, local 2n): a
//     flit offered to that output, valid until lane_grant_i[o] (late in the cycle) takes
//     it. lane_flit_o[0] is the flit offered to every link, lane_flit_o[1] the one to the
//     local port.
//   - lane_room_i[l] (registered): link l's receiver has room for a whole packet on
//     COLL_DOWN (the link lane offers a head only with room on all links of its mask).
//   - link_tail_o / link_tail_slot_o, local_tail_*: (registered) that lane's last output
//     took the slot's tail.
//
// One multicast lane rather than a lane per link: the children of a tree get the same
// packets in the same order, so one read of each word serves them all, and a packet's
// outputs still take it each at its own pace (docs/collectives.md, "One lane for the
// links").
`default_nettype none
`include "canopy_assert.svh"

module canopy_coll_send_sched #(
  parameter int unsigned NumDims      = 0,   /// torus dimensions, 1..4; must be set
  parameter int unsigned FlitWidth    = 64,  /// must be 64
  parameter int unsigned NumTrees     = 16,  /// trees, power of two >= 2
  parameter int unsigned SlotsPerTree = 2,   /// slots per tree, power of two
  parameter int unsigned StoreDepth   = 16,  /// flits a lane holds, power of two >= 4
  localparam int unsigned NumLinks = 2 * NumDims,
  localparam int unsigned NumLanes = NumLinks + 1,
  localparam int unsigned TreeW    = $clog2(NumTrees),
  localparam int unsigned PtrW     = SlotsPerTree > 1 ? $clog2(SlotsPerTree) : 1,
  localparam int unsigned SlotW    = TreeW + PtrW,
  localparam int unsigned IdxW     = 6,
  localparam int unsigned AddrW    = SlotW + 6
) (
  input  wire logic                              clk_i,
  input  wire logic                              rst_i,

  input  wire logic                              link_pick_i,
  input  wire logic [SlotW-1:0]                  link_pick_slot_i,
  input  wire logic [NumLinks-1:0]               link_pick_mask_i,
  output logic                                   link_ready_o,
  input  wire logic                              local_pick_i,
  input  wire logic [SlotW-1:0]                  local_pick_slot_i,
  output logic                                   local_ready_o,

  input  wire logic                              wr_valid_i,
  input  wire logic [SlotW-1:0]                  wr_slot_i,
  input  wire logic [IdxW-1:0]                   wr_idx_i,
  input  wire logic                              wr_last_i,

  output logic      [AddrW-1:0]                  rd0_addr_o,
  input  wire logic [FlitWidth-1:0]              rd0_data_i,
  output logic      [AddrW-1:0]                  rd1_addr_o,
  input  wire logic [FlitWidth-1:0]              rd1_data_i,

  output logic      [NumLanes-1:0]               lane_valid_o,
  output logic      [1:0][FlitWidth-1:0]         lane_flit_o,
  output logic      [NumLanes-1:0]               lane_last_o,
  input  wire logic [NumLanes-1:0]               lane_grant_i,
  input  wire logic [NumLinks-1:0]               lane_room_i,

  output logic                                   link_tail_o,
  output logic      [SlotW-1:0]                  link_tail_slot_o,
  output logic                                   local_tail_o,
  output logic      [SlotW-1:0]                  local_tail_slot_o
);
  localparam int unsigned LocalLane = NumLinks;

  logic link_last;
  canopy_coll_send_lane #(
    .NumOut       (NumLinks),
    .FlitWidth    (FlitWidth),
    .NumTrees     (NumTrees),
    .SlotsPerTree (SlotsPerTree),
    .StoreDepth   (StoreDepth)
  ) u_link (
    .clk_i,
    .rst_i,
    .pick_i      (link_pick_i),
    .pick_slot_i (link_pick_slot_i),
    .pick_mask_i (link_pick_mask_i),
    .ready_o     (link_ready_o),
    .wr_valid_i,
    .wr_slot_i,
    .wr_idx_i,
    .wr_last_i,
    .rd_addr_o   (rd0_addr_o),
    .rd_data_i   (rd0_data_i),
    .out_valid_o (lane_valid_o[NumLinks-1:0]),
    .out_flit_o  (lane_flit_o[0]),
    .out_last_o  (link_last),
    .out_grant_i (lane_grant_i[NumLinks-1:0]),
    .room_i      (lane_room_i),
    .tail_o      (link_tail_o),
    .tail_slot_o (link_tail_slot_o)
  );
  assign lane_last_o[NumLinks-1:0] = {NumLinks{link_last}};

  canopy_coll_send_lane #(
    .NumOut       (1),
    .FlitWidth    (FlitWidth),
    .NumTrees     (NumTrees),
    .SlotsPerTree (SlotsPerTree),
    .StoreDepth   (StoreDepth)
  ) u_local (
    .clk_i,
    .rst_i,
    .pick_i      (local_pick_i),
    .pick_slot_i (local_pick_slot_i),
    .pick_mask_i (1'b1),
    .ready_o     (local_ready_o),
    .wr_valid_i,
    .wr_slot_i,
    .wr_idx_i,
    .wr_last_i,
    .rd_addr_o   (rd1_addr_o),
    .rd_data_i   (rd1_data_i),
    .out_valid_o (lane_valid_o[LocalLane]),
    .out_flit_o  (lane_flit_o[1]),
    .out_last_o  (lane_last_o[LocalLane]),
    .out_grant_i (lane_grant_i[LocalLane]),
    .room_i      (1'b1),
    .tail_o      (local_tail_o),
    .tail_slot_o (local_tail_slot_o)
  );
endmodule

`default_nettype wire
