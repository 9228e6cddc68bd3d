// canopy_coll_send_lane: one send lane of the collective unit: it reads packets out of the
// working memory word by word and offers each word to a set of router outputs (the packet's
// mask) on VC COLL_DOWN. The link lane is one of these with an output per link (a
// broadcast goes to every child of its tree at once); the local lane one with a single
// output.
//
// Interface contract
//   - pick_i / pick_slot_i / pick_mask_i: send that slot to the outputs in the mask (never
//     empty): at once if the lane is idle, else next (it holds one descriptor while it
//     sends a packet). Only while ready_o (registered: no descriptor held).
//   - wr_* (the working memory's write stream): the lane keeps its own copy of every slot's
//     count of words written (and whether the tail is among them), so it can read a word
//     the cycle after it is written (cut-through: it starts with word 0 written and follows
//     the writer).
//   - rd_addr_o (registered) / rd_data_i: its read port; rd_data_i is the word at the
//     address of the cycle before.
//   - out_valid_o[o] / out_flit_o / out_last_o: the word offered to output o, valid until
//     o takes it with out_grant_i[o] (late in the cycle). Every output of the mask takes
//     each word once, each at its own pace; the word leaves once the last of them has, and
//     the next is offered the cycle after. The grants meet only flip-flops and one AND
//     (all outputs have taken the word), which the queue below registers.
//   - room_i[o] (registered): output o's receiver has room for a whole packet on COLL_DOWN.
//     A packet's head is offered only once every output of its mask has room, and then
//     stays offered until all have taken it: once one child has the head, every other
//     child can take the whole packet without waiting on anything downstream, so a
//     multicast never couples its outputs into a cycle of waits (docs/collectives.md). The
//     local lane ties it to 1.
//   - tail_o / tail_slot_o (registered): the slot's tail left the lane (every output of the
//     mask took it), two cycles after the last grant.
//
// A word scheduled at cycle t is read at t+1 and lands in the lane's buffer at t+2, which
// holds StoreDepth flits in a LUT RAM (canopy_grant_fifo) with each word's {slot, last,
// mask, head}; the lane schedules only while the buffer has room for everything in flight
// (a word that left is counted out the cycle after), so it never overflows.
`default_nettype none
`include "canopy_assert.svh"

module canopy_coll_send_lane #(
  parameter int unsigned NumOut       = 0,   /// outputs the lane offers to, >= 1; must be set
  parameter int unsigned FlitWidth    = 64,  /// must be 64
  parameter int unsigned NumTrees     = 16,  /// trees, power of two >= 2
  parameter int unsigned SlotsPerTree = 2,   /// slots per tree, power of two
  parameter int unsigned StoreDepth   = 16,  /// flits the lane holds, power of two >= 4
  localparam int unsigned TreeW    = $clog2(NumTrees),
  localparam int unsigned PtrW     = SlotsPerTree > 1 ? $clog2(SlotsPerTree) : 1,
  localparam int unsigned SlotW    = TreeW + PtrW,
  localparam int unsigned NumSlots = 1 << SlotW,
  localparam int unsigned IdxW     = 6,
  localparam int unsigned AddrW    = SlotW + 6
) (
  input  wire logic                    clk_i,
  input  wire logic                    rst_i,

  input  wire logic                    pick_i,
  input  wire logic [SlotW-1:0]        pick_slot_i,
  input  wire logic [NumOut-1:0]       pick_mask_i,
  output logic                         ready_o,

  input  wire logic                    wr_valid_i,
  input  wire logic [SlotW-1:0]        wr_slot_i,
  input  wire logic [IdxW-1:0]         wr_idx_i,
  input  wire logic                    wr_last_i,

  output logic      [AddrW-1:0]        rd_addr_o,
  input  wire logic [FlitWidth-1:0]    rd_data_i,

  output logic      [NumOut-1:0]       out_valid_o,
  output logic      [FlitWidth-1:0]    out_flit_o,
  output logic                         out_last_o,
  input  wire logic [NumOut-1:0]       out_grant_i,
  input  wire logic [NumOut-1:0]       room_i,

  output logic                         tail_o,
  output logic      [SlotW-1:0]        tail_slot_o
);
  localparam int unsigned SlotWords = canopy_pkg::MaxPacketWords;
  localparam int unsigned Cap       = StoreDepth;
  localparam int unsigned SumW      = $clog2(Cap + 1);
  // A buffered word: {slot, last, mask, head, flit}; the allocator's fields {last, mask,
  // head} come from registers (the queue's side field), {slot, last} back with a word that
  // left (its tag).
  localparam int unsigned SideW     = 1 + NumOut + 1;
  localparam int unsigned BufW      = SlotW + SideW + FlitWidth;

  `CANOPY_STATIC_ASSERT(gen_width_check, FlitWidth == 64, "the collective unit needs 64-bit flits")
  `CANOPY_STATIC_ASSERT(gen_out_check, NumOut >= 1, "NumOut must be set")
  `CANOPY_STATIC_ASSERT(gen_store_check, StoreDepth >= 4 && (StoreDepth & (StoreDepth - 1)) == 0,
                        "StoreDepth must be a power of two >= 4")

  // ---------------------------------------------------------------- packet state
  logic              act_q;      // sending a packet (its tail not yet scheduled)
  logic              nv_q;       // a next descriptor held
  logic [SlotW-1:0]  nslot_q, slot_q;
  logic [NumOut-1:0] nmask_q, mask_q;
  logic [IdxW-1:0]   idx_q;      // the next word to schedule
  logic [IdxW-1:0]   lim_q;      // words of the slot known written
  logic              cmpl_q;     // ... and the tail among them
  logic              want_q;     // schedules word idx_q this cycle
  logic [SumW-1:0]   sum_q;      // buffer occupancy + words scheduled, not landed
  logic              t1_q, t2_q;
  logic [SlotW-1:0]  slot1_q, slot2_q;
  logic [SideW-1:0]  side1_q, side2_q;   // {last, mask, head} of the words in flight

  assign ready_o = !nv_q;

  // Every slot's words written and tail flag (distributed RAM, one write per cycle from
  // the write stream, read at the lane's slot). A slot is only read once its word 0 is
  // written, so the entry left by its previous packet is never seen.
  wire logic [IdxW-1:0] wr_words = wr_idx_i < IdxW'(SlotWords) ? wr_idx_i + 1'b1 : IdxW'(SlotWords);
  logic [IdxW:0] wtab_q [NumSlots];   // {tail in, words}
  always_ff @(posedge clk_i) begin
    if (wr_valid_i) wtab_q[wr_slot_i] <= {wr_last_i, wr_words};
  end
  wire logic [IdxW:0] wtab = wtab_q[slot_q];

  // The words available next cycle: this cycle's write counts already.
  wire logic            hit      = wr_valid_i && wr_slot_i == slot_q;
  wire logic [IdxW-1:0] lim_d    = hit ? wr_words : wtab[IdxW-1:0];
  wire logic            cmpl_d   = hit ? wr_last_i : wtab[IdxW];
  wire logic [IdxW-1:0] idx1     = idx_q + 1'b1;
  wire logic            sched    = want_q;
  wire logic            last_now = cmpl_q && idx1 == lim_q;   // the word scheduled is the tail

  // The lane starts a packet when it is idle, or goes on to it from the cycle it schedules
  // its packet's tail (chain: word 0 of the next is scheduled the cycle after the tail, so
  // a lane that follows the writer closely loses no cycle between packets): with the
  // descriptor it holds, or one given now.
  wire logic              start      = !act_q && (nv_q || pick_i);
  wire logic              chain      = sched && last_now && (nv_q || pick_i);
  wire logic              go         = start || chain;
  wire logic [SlotW-1:0]  start_slot = nv_q ? nslot_q : pick_slot_i;
  wire logic [NumOut-1:0] start_mask = nv_q ? nmask_q : pick_mask_i;

  logic pop;   // the word offered last cycle left (registered by the queue)

  // Wants its next word next cycle: one is written (idx never passes lim, so "below" is
  // "not equal"), the packet goes on, and the buffer has room for everything in flight.
  wire logic r0 = 32'(sum_q) < Cap;       // the count unchanged
  wire logic r1 = 32'(sum_q) + 1 < Cap;   // one more
  wire logic x0 = act_q && idx_q != lim_d;
  wire logic x1 = act_q && !last_now && idx1 != lim_d;
  logic want_d;
  always_comb begin
    // start and sched never coincide (the lane starts only when idle, wants only when
    // active); a chain schedules the tail now and wants the next packet's word 0, which is
    // written before its descriptor is given.
    if (start)      want_d = pop ? 1'b1 : r0;
    else if (chain) want_d = pop ? r0 : r1;
    else if (sched) want_d = x1 && (pop ? r0 : r1);
    else            want_d = x0 && (pop ? 1'b1 : r0);
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      act_q  <= 1'b0;
      want_q <= 1'b0;
      sum_q  <= '0;
      nv_q   <= 1'b0;
      t1_q   <= 1'b0;
      t2_q   <= 1'b0;
    end else begin
      want_q <= want_d;
      sum_q  <= sum_q + SumW'(sched) - SumW'(pop);
      t1_q   <= sched;
      t2_q   <= t1_q;
      if (go)                     act_q <= 1'b1;
      else if (sched && last_now) act_q <= 1'b0;
      // A descriptor given to a busy lane is held as its next, unless the lane goes on to
      // it at once; started once the lane is idle, or from its tail's cycle.
      if (go && nv_q)                  nv_q <= 1'b0;
      else if (pick_i && act_q && !go) nv_q <= 1'b1;
    end
  end
  always_ff @(posedge clk_i) begin
    if (pick_i && act_q) begin
      nslot_q <= pick_slot_i;
      nmask_q <= pick_mask_i;
    end
    if (go) begin
      slot_q <= start_slot;
      mask_q <= start_mask;
      idx_q  <= '0;
      lim_q  <= IdxW'(1);   // word 0 is written before any descriptor is given
      cmpl_q <= 1'b0;
    end else begin
      if (sched) idx_q <= idx1;
      lim_q  <= lim_d;
      cmpl_q <= cmpl_d;
    end
    rd_addr_o <= {idx_q[5], slot_q, idx_q[4:0]};   // canopy_coll_wmem's layout
    slot1_q   <= slot_q;
    slot2_q   <= slot1_q;
    side1_q   <= {last_now, mask_q, idx_q == '0};
    side2_q   <= side1_q;
  end

  // ---------------------------------------------------------------- the buffer and its offer
  logic              avail, left_now, head, room_all;
  logic [NumOut-1:0] mask, took_q;
  logic              armed_q;    // the head offered: it stays offered until it has left
  logic [SlotW:0]    taken;      // {slot, last} of the word that left last cycle
  logic [BufW-1:0]   offered;
  canopy_grant_fifo #(.Width(BufW), .Depth(StoreDepth), .TagW(SlotW + 1),
                      .SideLsb(FlitWidth), .SideW(SideW)) u_buf (
    .clk_i,
    .rst_i,
    .push_i      (t2_q),
    .push_next_i (t1_q),
    .push_data_i ({slot2_q, side2_q, rd_data_i}),
    .out_valid_o (avail),
    .out_data_o  (offered),
    .grant_i     (left_now),
    .taken_o     (pop),
    .taken_tag_o (taken),
    .out_side_o  ({out_last_o, mask, head})
  );
  assign out_flit_o = offered[FlitWidth-1:0];
  wire logic unused_offered = ^offered[BufW-1:FlitWidth];

  assign room_all    = (room_i | ~mask) == '1;
  assign out_valid_o = {NumOut{avail && (!head || armed_q || room_all)}} & mask & ~took_q;
  // The word leaves once every output of its mask has it (the one AND on the late grants).
  assign left_now    = avail && (took_q | out_grant_i | ~mask) == '1;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      took_q  <= '0;
      armed_q <= 1'b0;
      tail_o  <= 1'b0;
    end else begin
      took_q  <= left_now ? '0 : took_q | out_grant_i;
      armed_q <= left_now ? 1'b0 : armed_q || (avail && head && room_all);
      tail_o  <= pop && taken[0];
    end
  end
  always_ff @(posedge clk_i) tail_slot_o <= taken[SlotW:1];

  `CANOPY_ASSERT(a_grant_valid, (out_grant_i & ~out_valid_o) == '0, "an output took a word not offered to it")
  `CANOPY_ASSERT(a_mask_nonempty, !avail || mask != '0, "a word offered to no output")
  `CANOPY_ASSERT(a_pick_mask, !pick_i || pick_mask_i != '0, "a descriptor with no output")
  `CANOPY_ASSERT(a_pick_ready, !pick_i || !nv_q, "the lane given a descriptor while it holds one")
  `CANOPY_ASSERT(a_next_busy, !nv_q || act_q || start, "the lane holds a descriptor while idle")
  `CANOPY_ASSERT(a_sched_written, !sched || idx_q < lim_q, "the lane read a word not yet written")
  `CANOPY_ASSERT(a_idx_bound, !act_q || idx_q <= lim_q, "the lane's next word passed the words written")
  `CANOPY_ASSERT(a_sum_bound, 32'(sum_q) <= Cap, "lane buffer accounting above its capacity")
  `CANOPY_ASSERT(a_lim_monotonic, start || !act_q || lim_d >= lim_q,
                 "the words written of a slot went down while the lane sends it")
  `CANOPY_ASSERT(a_write_in_order, !(hit && act_q) || wr_idx_i >= lim_q,
                 "a slot being sent was written behind the words already counted")
  `CANOPY_ASSERT(a_armed_head, !armed_q || (avail && head), "armed without a head offered")
endmodule

`default_nettype wire
