// canopy_coll_unit: the router's collective unit: the broadcast offload unit of seed 000
// on the collective subnet of seed 002, and the reduce engine. This is the thin top that
// wires the blocks (named after 000 so a reader of the seed finds them):
//
//   canopy_coll_table       Membership Table: the routing table, one entry per tree
//   canopy_coll_rx_sched    Rx-Queues and Receive Packet Scheduler: checks, slots, writes,
//                           decisions (which outputs send a packet)
//   canopy_coll_wmem        Working Memory: the packet slots, per tree, and their release
//   canopy_coll_desc_queue  Work Queue and Dispatcher: descriptors for the lanes, slot credits
//   canopy_coll_send_sched  Send Packet Scheduler: a multicast lane for the links and one for
//                           the local port (canopy_coll_send_lane)
//   canopy_reduce_engine    reduce engine (002), with canopy_reduce_pool and canopy_reduce_alu
//
// Interface contract
//   - rx_*: the router's collective port (an output of its crossbar, registered): broadcast
//     requests arrive on VC COLL_UP (sent point-to-point to this node as the tree's root)
//     and reduce contributions on COLL_UP (hop by hop), broadcasts on COLL_DOWN; rx_port_i
//     names the router input each flit came from. rx_credit_o[v] (registered): one flit of
//     VC v left its receive queue (RxDepth flits per VC).
//   - lane_valid_o[o] / lane_last_o[o] / lane_grant_i[o], o = router output (links
//     0..2n-1, local port 2n): whole packets on VC COLL_DOWN, a flit offered to output o
//     until lane_grant_i[o] takes it. lane_flit_o[0] is the flit offered to every link (one
//     multicast lane feeds them), lane_flit_o[1] the one offered to the local port. They
//     hold until taken; lane_grant_i may arrive late in the cycle (it meets only registers
//     and one AND before them), and the next flit is offered the next cycle. The router
//     grants only when the output has a COLL_DOWN credit.
//   - lane_room_i[l] (registered): link l's neighbour has room for a whole packet in its
//     COLL_DOWN buffer (the router's credit count): a packet's head is offered only with
//     room on every link it goes to (virtual cut-through, docs/collectives.md).
//   - slot credits, per link port p: slot_credit_valid_o[p] / slot_credit_tree_o[p]
//     (registered): a working-memory slot of that tree, filled by a broadcast that came in
//     through p, is free again (sent to the neighbour on p, our parent in that tree).
//     slot_credit_*_i[p]: the same from the child on p. A lane sends a packet of tree t to
//     a child only while it holds one of the child's SlotsPerTree credits for t.
//   - tbl_*: the routing table's write port (see canopy_coll_table) and read-back port.
//   - up_*: the reduce engine's contributions for the parent (whole packets on VC COLL_UP
//     through router output up_port_o; up_grant_i takes a flit, with the same timing as
//     lane_grant_i); up_valid_o, up_flit_o, up_last_o, up_port_o straight from flip-flops.
//   - err_dir_o, err_tree_o: pulses per dropped packet, [0] from the broadcast path, [1]
//     from the reduce engine; err_reduce_o: a reduce contribution refused or disagreeing.
//   - refused_o: a reduce refused for lack of a free accumulator (counted by the router in
//     REDUCES_REFUSED). Added to the port list in the FPGA rebuild; all other ports are
//     unchanged.
//
// Data path (000): receive queues (one per VC, fronts in registers) -> receive scheduler
// (checks, a slot, the outputs) -> working memory (NumTrees x SlotsPerTree slots) ->
// descriptors -> two send lanes: the link lane takes slots tree by tree in arrival order and
// offers each packet to all the links of its tree at once, reading each word once; the
// local lane has a copy of the memory of its own -> the slot is released once both lanes
// have sent it, and its credit goes back upstream. A broadcast from a link found its slot reserved by
// the credit its sender held, so it never waits in the receive queue; a request at the
// root waits there until its tree has a free slot (backpressure up to the host). A child
// that does not take its copies holds its tree's slots and stops only that tree, and only
// after SlotsPerTree packets. Lanes start a packet as soon as its word 0 is written
// (cut-through). Zero-load latency from rx to a lane's output is 6 cycles, as before.
`default_nettype none
`include "canopy_assert.svh"

module canopy_coll_unit #(
  parameter int unsigned NumDims      = 0,   /// torus dimensions, 1..4; must be set
  parameter int unsigned NumVcs       = 4,   /// VCs of the router
  parameter int unsigned FlitWidth    = 64,  /// must be 64: the memory holds header words
  parameter int unsigned NumTrees     = 16,  /// routing table entries, power of two >= 2
  parameter int unsigned SlotsPerTree = 2,   /// working-memory packets per tree, power of two
  parameter int unsigned RxDepth      = 8,   /// receive queue flits per VC, power of two
  parameter int unsigned PoolSlots    = 64,  /// reduce accumulators shared by the trees
  localparam int unsigned NumLinks = 2 * NumDims,
  localparam int unsigned NumLanes = NumLinks + 1,
  localparam int unsigned PortW = $clog2(NumLanes + 1),
  localparam int unsigned VcW = $clog2(NumVcs),
  localparam int unsigned TreeIdW = canopy_pkg::HdrTreeBits
) (
  input  wire logic                                  clk_i,
  input  wire logic                                  rst_i,
  input  wire canopy_pkg::coords_t                   my_coord_i,

  input  wire logic                                  rx_valid_i,
  input  wire logic [FlitWidth-1:0]                  rx_flit_i,
  input  wire logic                                  rx_last_i,
  input  wire logic [VcW-1:0]                        rx_vc_i,
  input  wire logic [PortW-1:0]                      rx_port_i,
  output logic      [NumVcs-1:0]                     rx_credit_o,

  output logic      [NumLanes-1:0]                   lane_valid_o,
  output logic      [1:0][FlitWidth-1:0]             lane_flit_o,
  output logic      [NumLanes-1:0]                   lane_last_o,
  input  wire logic [NumLanes-1:0]                   lane_grant_i,
  input  wire logic [NumLinks-1:0]                   lane_room_i,

  output logic      [NumLinks-1:0]                   slot_credit_valid_o,
  output logic      [NumLinks-1:0][TreeIdW-1:0]      slot_credit_tree_o,
  input  wire logic [NumLinks-1:0]                   slot_credit_valid_i,
  input  wire logic [NumLinks-1:0][TreeIdW-1:0]      slot_credit_tree_i,

  input  wire logic                                  tbl_we_i,
  input  wire logic [TreeIdW-1:0]                    tbl_widx_i,
  input  wire canopy_pkg::tree_entry_t               tbl_wentry_i,
  output logic                                       tbl_wok_o,
  input  wire logic [TreeIdW-1:0]                    tbl_ridx_i,
  output canopy_pkg::tree_entry_t                    tbl_rentry_o,

  output logic                                       up_valid_o,
  output logic      [FlitWidth-1:0]                  up_flit_o,
  output logic                                       up_last_o,
  output logic      [PortW-1:0]                      up_port_o,
  input  wire logic                                  up_grant_i,

  output logic      [1:0]                            err_dir_o,
  output logic      [1:0]                            err_tree_o,
  output logic                                       err_reduce_o,
  output logic                                       refused_o
);
  localparam int unsigned TreeW    = $clog2(NumTrees);
  localparam int unsigned PtrW     = SlotsPerTree > 1 ? $clog2(SlotsPerTree) : 1;
  localparam int unsigned SlotW    = TreeW + PtrW;
  localparam int unsigned IdxW     = 6;
  localparam int unsigned AddrW    = SlotW + 6;

  `CANOPY_STATIC_ASSERT(gen_width_check, FlitWidth == 64, "the collective unit needs 64-bit flits")

  // ---------------------------------------------------------------- membership table
  logic [TreeIdW-1:0]      rx_look_idx, eng_look_idx;
  canopy_pkg::tree_entry_t rx_look, eng_look;
  canopy_coll_table #(.NumDims(NumDims), .NumTrees(NumTrees)) u_table (
    .clk_i,
    .rst_i,
    .we_i     (tbl_we_i),
    .widx_i   (tbl_widx_i),
    .wentry_i (tbl_wentry_i),
    .wok_o    (tbl_wok_o),
    .ridx_i   (tbl_ridx_i),
    .rentry_o (tbl_rentry_o),
    .lidx_i   (rx_look_idx),
    .lentry_o (rx_look),
    .l2idx_i  (eng_look_idx),
    .l2entry_o(eng_look)
  );

  // ---------------------------------------------------------------- receive scheduler
  logic                            eng_valid, eng_last, eng_ready;
  logic [FlitWidth-1:0]            eng_flit;
  logic [PortW-1:0]                eng_port;
  logic                            res_valid, res_last, res_ready;
  logic [FlitWidth-1:0]            res_flit;
  logic [NumLanes-1:0]             res_lanes;
  logic [TreeIdW-1:0]              res_tree;
  logic [NumTrees-1:0]             tree_full;
  logic [NumTrees-1:0][PtrW-1:0]   alloc_ptr, free_ptr;
  logic                            alloc, alloc_credit;
  logic [TreeW-1:0]                alloc_tree;
  logic [PortW-1:0]                alloc_port;
  logic                            wr_valid, wr_last;
  logic [SlotW-1:0]                wr_slot;
  logic [IdxW-1:0]                 wr_idx;
  logic [FlitWidth-1:0]            wr_data;
  logic                            dec_valid;
  logic [SlotW-1:0]                dec_slot;
  logic [NumLanes-1:0]             dec_lanes;
  logic                            drop_cr_valid;
  logic [PortW-1:0]                drop_cr_port;
  logic [TreeIdW-1:0]              drop_cr_tree;

  canopy_coll_rx_sched #(
    .NumDims      (NumDims),
    .NumVcs       (NumVcs),
    .FlitWidth    (FlitWidth),
    .NumTrees     (NumTrees),
    .SlotsPerTree (SlotsPerTree),
    .RxDepth      (RxDepth)
  ) u_rx (
    .clk_i,
    .rst_i,
    .rx_valid_i,
    .rx_flit_i,
    .rx_last_i,
    .rx_vc_i,
    .rx_port_i,
    .rx_credit_o,
    .look_idx_o      (rx_look_idx),
    .look_i          (rx_look),
    .eng_valid_o     (eng_valid),
    .eng_flit_o      (eng_flit),
    .eng_last_o      (eng_last),
    .eng_port_o      (eng_port),
    .eng_ready_i     (eng_ready),
    .res_valid_i     (res_valid),
    .res_flit_i      (res_flit),
    .res_last_i      (res_last),
    .res_lanes_i     (res_lanes),
    .res_tree_i      (res_tree),
    .res_ready_o     (res_ready),
    .tree_full_i     (tree_full),
    .alloc_ptr_i     (alloc_ptr),
    .alloc_o         (alloc),
    .alloc_tree_o    (alloc_tree),
    .alloc_port_o    (alloc_port),
    .alloc_credit_o  (alloc_credit),
    .wr_valid_o      (wr_valid),
    .wr_slot_o       (wr_slot),
    .wr_idx_o        (wr_idx),
    .wr_data_o       (wr_data),
    .wr_last_o       (wr_last),
    .dec_valid_o     (dec_valid),
    .dec_slot_o      (dec_slot),
    .dec_lanes_o     (dec_lanes),
    .drop_cr_valid_o (drop_cr_valid),
    .drop_cr_port_o  (drop_cr_port),
    .drop_cr_tree_o  (drop_cr_tree),
    .err_tree_o      (err_tree_o[0]),
    .err_dir_o       (err_dir_o[0])
  );

  // ---------------------------------------------------------------- reduce engine
  logic [$clog2(PoolSlots + 1)-1:0] unused_pool_free;
  canopy_reduce_engine #(
    .NumDims   (NumDims),
    .NumTrees  (NumTrees),
    .PoolSlots (PoolSlots)
  ) u_reduce (
    .clk_i,
    .rst_i,
    .my_coord_i,
    .in_valid_i   (eng_valid),
    .in_flit_i    (eng_flit),
    .in_last_i    (eng_last),
    .in_port_i    (eng_port),
    .in_ready_o   (eng_ready),
    .look_idx_o   (eng_look_idx),
    .look_i       (eng_look),
    .up_valid_o,
    .up_flit_o,
    .up_last_o,
    .up_port_o,
    .up_grant_i,
    .res_valid_o  (res_valid),
    .res_flit_o   (res_flit),
    .res_last_o   (res_last),
    .res_lanes_o  (res_lanes),
    .res_tree_o   (res_tree),
    .res_ready_i  (res_ready),
    .err_reduce_o,
    .err_dir_o    (err_dir_o[1]),
    .err_tree_o   (err_tree_o[1]),
    .refused_o,
    .pool_free_o  (unused_pool_free)
  );

  // ---------------------------------------------------------------- working memory
  logic                          done;
  logic [TreeW-1:0]              cand_tree;
  logic                          rel_valid;
  logic [AddrW-1:0]              rd0_addr, rd1_addr;
  logic [FlitWidth-1:0]          rd0_data, rd1_data;
  logic [SlotW-1:0]              rel_slot;

  canopy_coll_wmem #(
    .NumDims      (NumDims),
    .NumTrees     (NumTrees),
    .SlotsPerTree (SlotsPerTree)
  ) u_wmem (
    .clk_i,
    .rst_i,
    .alloc_i             (alloc),
    .alloc_tree_i        (alloc_tree),
    .alloc_port_i        (alloc_port),
    .alloc_credit_i      (alloc_credit),
    .alloc_ptr_o         (alloc_ptr),
    .free_ptr_o          (free_ptr),
    .tree_full_o         (tree_full),
    .wr_valid_i          (wr_valid),
    .wr_slot_i           (wr_slot),
    .wr_idx_i            (wr_idx),
    .wr_data_i           (wr_data),
    .wr_last_i           (wr_last),
    .rd0_addr_i          (rd0_addr),
    .rd0_data_o          (rd0_data),
    .rd1_addr_i          (rd1_addr),
    .rd1_data_o          (rd1_data),
    .cand_tree_o         (cand_tree),
    .done_i              (done),
    .rel_valid_o         (rel_valid),
    .rel_slot_o          (rel_slot),
    .drop_cr_valid_i     (drop_cr_valid),
    .drop_cr_port_i      (drop_cr_port),
    .drop_cr_tree_i      (drop_cr_tree),
    .slot_credit_valid_o,
    .slot_credit_tree_o
  );

  // ---------------------------------------------------------------- descriptors, send lanes
  logic                  link_ready, link_pick, link_tail, local_ready, local_pick, local_tail;
  logic [SlotW-1:0]      link_pick_slot, link_tail_slot, local_pick_slot, local_tail_slot;
  logic [NumLinks-1:0]   link_pick_mask;

  canopy_coll_desc_queue #(
    .NumDims      (NumDims),
    .NumTrees     (NumTrees),
    .SlotsPerTree (SlotsPerTree)
  ) u_desc (
    .clk_i,
    .rst_i,
    .dec_valid_i         (dec_valid),
    .dec_slot_i          (dec_slot),
    .dec_lanes_i         (dec_lanes),
    .free_ptr_i          (free_ptr),
    .link_ready_i        (link_ready),
    .link_pick_o         (link_pick),
    .link_pick_slot_o    (link_pick_slot),
    .link_pick_mask_o    (link_pick_mask),
    .link_tail_i         (link_tail),
    .link_tail_slot_i    (link_tail_slot),
    .local_ready_i       (local_ready),
    .local_pick_o        (local_pick),
    .local_pick_slot_o   (local_pick_slot),
    .local_tail_i        (local_tail),
    .local_tail_slot_i   (local_tail_slot),
    .cand_tree_i         (cand_tree),
    .done_o              (done),
    .rel_valid_i         (rel_valid),
    .rel_slot_i          (rel_slot),
    .slot_credit_valid_i,
    .slot_credit_tree_i
  );

  canopy_coll_send_sched #(
    .NumDims      (NumDims),
    .FlitWidth    (FlitWidth),
    .NumTrees     (NumTrees),
    .SlotsPerTree (SlotsPerTree)
  ) u_send (
    .clk_i,
    .rst_i,
    .link_pick_i       (link_pick),
    .link_pick_slot_i  (link_pick_slot),
    .link_pick_mask_i  (link_pick_mask),
    .link_ready_o      (link_ready),
    .local_pick_i      (local_pick),
    .local_pick_slot_i (local_pick_slot),
    .local_ready_o     (local_ready),
    .wr_valid_i   (wr_valid),
    .wr_slot_i    (wr_slot),
    .wr_idx_i     (wr_idx),
    .wr_last_i    (wr_last),
    .rd0_addr_o   (rd0_addr),
    .rd0_data_i   (rd0_data),
    .rd1_addr_o   (rd1_addr),
    .rd1_data_i   (rd1_data),
    .lane_valid_o,
    .lane_flit_o,
    .lane_last_o,
    .lane_grant_i,
    .lane_room_i,
    .link_tail_o       (link_tail),
    .link_tail_slot_o  (link_tail_slot),
    .local_tail_o      (local_tail),
    .local_tail_slot_o (local_tail_slot)
  );
endmodule

`default_nettype wire
