// canopy_coll_send_sched: the collective unit's Send Packet Scheduler (seed 000): one send
// lane per router output (links 0..2n-1, local port 2n), each reading its packets out of
// the working memory word by word and offering them to its output's switch allocator on
// VC COLL_DOWN.
//
// Interface contract
//   - pick_i[l] / pick_slot_i[l] (descriptor queue): lane l is to send that slot: at once
//     if it is idle, else next (it holds one descriptor while it sends a packet). Only while
//     lane_ready_o[l] (registered: no descriptor held).
//   - wr_* (the working memory's write stream): each lane keeps its own copy of every
//     slot's count of words written (and whether the tail is among them) from it, so a lane
//     can read a word the cycle after it is written (cut-through: a lane starts with word 0
//     written and follows the writer).
//   - rd0_* (registered address): the link lanes' read port; rd1_*: the local lane's.
//     rdN_data_i is the word at the address of the cycle before.
//   - lane_valid_o / lane_flit_o / lane_last_o[l]: valid until taken; lane_grant_i[l]
//     (late in the cycle) takes the flit; the next may follow the next cycle. Each lane's
//     offer comes from a canopy_grant_fifo: a RAM read and a 2:1 mux after flip-flops, and
//     the grant is only registered (it never reaches further logic in its own cycle).
//   - tail_o[l] / tail_slot_o[l] (registered): lane l's output took the tail of that slot
//     (two cycles after the grant).
//
// The link lanes share one read port. Each cycle one lane wanting a word is chosen round
// robin (from registered wants) and its word is read; every other link lane at the same
// position (slot and word) takes the same word: children of a tree, picked together, run
// in step and cost one read per word. A lane that falls behind (its output busy) reads on
// its own until it catches up. The local lane has the second copy of the memory to itself,
// so the host's pace never splits the links' reads.
//
// Per lane: the word to schedule next, the words available (a registered view of the
// slot's write count, plus this cycle's write), and a registered want for the next cycle.
// A word scheduled at cycle t is read at t+1 and lands in the lane's buffer at t+2, which
// holds Cap = StoreDepth flits in a LUT RAM of that depth (a power of two, so no entry is
// unused: two more flits would double the RAM and measured no faster on the 3x3
// collective records); a lane schedules only while the buffer has room for everything in
// flight (a flit taken is counted out the cycle after its grant), so it never overflows.
`default_nettype none
`include "canopy_assert.svh"

module canopy_coll_send_sched #(
  parameter int unsigned NumDims      = 0,   /// torus dimensions, 1..4; must be set
  parameter int unsigned FlitWidth    = 64,  /// must be 64
  parameter int unsigned NumTrees     = 16,  /// trees, power of two >= 2
  parameter int unsigned SlotsPerTree = 2,   /// slots per tree, power of two
  parameter int unsigned StoreDepth   = 16,  /// flits a lane holds (its buffer's depth), power of two >= 4
  localparam int unsigned NumLinks = 2 * NumDims,
  localparam int unsigned NumLanes = NumLinks + 1,
  localparam int unsigned TreeW    = $clog2(NumTrees),
  localparam int unsigned PtrW     = SlotsPerTree > 1 ? $clog2(SlotsPerTree) : 1,
  localparam int unsigned SlotW    = TreeW + PtrW,
  localparam int unsigned NumSlots = 1 << SlotW,
  localparam int unsigned IdxW     = 6,
  localparam int unsigned AddrW    = SlotW + 6
) (
  input  wire logic                              clk_i,
  input  wire logic                              rst_i,

  input  wire logic [NumLanes-1:0]               pick_i,
  input  wire logic [NumLanes-1:0][SlotW-1:0]    pick_slot_i,
  output logic      [NumLanes-1:0]               lane_ready_o,

  input  wire logic                              wr_valid_i,
  input  wire logic [SlotW-1:0]                  wr_slot_i,
  input  wire logic [IdxW-1:0]                   wr_idx_i,
  input  wire logic                              wr_last_i,

  output logic      [AddrW-1:0]                  rd0_addr_o,
  input  wire logic [FlitWidth-1:0]              rd0_data_i,
  output logic      [AddrW-1:0]                  rd1_addr_o,
  input  wire logic [FlitWidth-1:0]              rd1_data_i,

  output logic      [NumLanes-1:0]               lane_valid_o,
  output logic      [NumLanes-1:0][FlitWidth-1:0] lane_flit_o,
  output logic      [NumLanes-1:0]               lane_last_o,
  input  wire logic [NumLanes-1:0]               lane_grant_i,

  output logic      [NumLanes-1:0]               tail_o,
  output logic      [NumLanes-1:0][SlotW-1:0]    tail_slot_o
);
  localparam int unsigned LocalLane = NumLinks;
  localparam int unsigned SlotWords = canopy_pkg::HeaderBits / 64 + canopy_pkg::MaxPayloadBytes / 8;
  localparam int unsigned Cap       = StoreDepth;                 // flits a lane holds at most
  localparam int unsigned BufDepth  = 1 << $clog2(Cap);           // its buffer's RAM entries
  localparam int unsigned SumW      = $clog2(Cap + 1);
  localparam int unsigned BufW      = SlotW + 1 + FlitWidth;      // {slot, last, flit}
  localparam int unsigned LinkW     = NumLinks > 1 ? $clog2(NumLinks) : 1;

  `CANOPY_STATIC_ASSERT(gen_width_check, FlitWidth == 64, "the collective unit needs 64-bit flits")
  `CANOPY_STATIC_ASSERT(gen_store_check, StoreDepth >= 4 && (StoreDepth & (StoreDepth - 1)) == 0,
                        "StoreDepth must be a power of two >= 4")

  // The address of word i of slot s (canopy_coll_wmem's layout).
  function automatic logic [AddrW-1:0] ram_addr(input logic [SlotW-1:0] s, input logic [IdxW-1:0] i);
    ram_addr = {i[5], s, i[4:0]};
  endfunction

  // ---------------------------------------------------------------- lane state
  logic [NumLanes-1:0]            lact_q;    // sending a packet (its tail not yet scheduled)
  logic [NumLanes-1:0]            nv_q;      // a next descriptor held
  logic [NumLanes-1:0][SlotW-1:0] nslot_q;
  logic [NumLanes-1:0][SlotW-1:0] slot_q;
  logic [NumLanes-1:0][IdxW-1:0]  idx_q;     // the next word to schedule
  logic [NumLanes-1:0][IdxW-1:0]  lim_q;     // words of the slot known written
  logic [NumLanes-1:0]            cmpl_q;    // ... and the tail among them
  logic [NumLanes-1:0]            want_q;    // schedules its word idx_q this cycle if chosen
  logic [NumLanes-1:0][SumW-1:0]  sum_q;     // buffer occupancy + words scheduled, not landed
  logic [NumLanes-1:0]            t1_q, t2_q, last1_q, last2_q;
  logic [NumLanes-1:0][SlotW-1:0] slot1_q, slot2_q;

  assign lane_ready_o = ~nv_q;

  // ---------------------------------------------------------------- scheduling
  logic [NumLinks-1:0]             w;        // the chosen link lane
  logic [LinkW-1:0]                unused_w_idx;
  logic [NumLanes-1:0]             sched;    // lanes scheduling their word this cycle
  logic [NumLanes-1:0][AddrW-1:0]  addr;
  logic [NumLanes-1:0]             last_now; // the word scheduled is the tail
  canopy_rr_arbiter #(.NumReq(NumLinks)) u_rd_arb (
    .clk_i,
    .rst_i,
    .req_i       (want_q[NumLinks-1:0]),
    .advance_i   (want_q[NumLinks-1:0] != '0),
    .grant_o     (w),
    .grant_idx_o (unused_w_idx)
  );

  logic [AddrW-1:0] rd0_addr_d;
  always_comb begin
    for (int unsigned l = 0; l < NumLanes; l++) begin
      addr[l]     = ram_addr(slot_q[l], idx_q[l]);
      last_now[l] = cmpl_q[l] && IdxW'(idx_q[l] + 1'b1) == lim_q[l];
    end
    rd0_addr_d = '0;
    for (int unsigned m = 0; m < NumLinks; m++) if (w[m]) rd0_addr_d = rd0_addr_d | addr[m];
    for (int unsigned l = 0; l < NumLinks; l++) begin
      logic share;
      share = 1'b0;
      for (int unsigned m = 0; m < NumLinks; m++) begin
        if (w[m] && slot_q[l] == slot_q[m] && idx_q[l] == idx_q[m]) share = 1'b1;
      end
      sched[l] = want_q[l] && share;
    end
    sched[LocalLane] = want_q[LocalLane];
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      t1_q     <= '0;
      t2_q     <= '0;
    end else begin
      t1_q     <= sched;
      t2_q     <= t1_q;
    end
  end
  always_ff @(posedge clk_i) begin
    rd0_addr_o <= rd0_addr_d;
    rd1_addr_o <= addr[LocalLane];
    last1_q    <= last_now;
    last2_q    <= last1_q;
    slot1_q    <= slot_q;
    slot2_q    <= slot1_q;
  end

  // ---------------------------------------------------------------- lanes
  // Shared by the lanes: the word count a write leaves in its slot.
  wire logic [IdxW-1:0] wr_words = wr_idx_i < IdxW'(SlotWords) ? wr_idx_i + 1'b1 : IdxW'(SlotWords);

  for (genvar l = 0; l < NumLanes; l++) begin : gen_lane
    // Every slot's words written and tail flag, the lane's own copy (distributed RAM, one
    // write per cycle from the write stream, read asynchronously at the lane's slot). A slot
    // is only read once its word 0 is written, so the entry left by its previous packet is
    // never seen.
    logic [IdxW:0] wtab_q [NumSlots];   // {tail in, words}
    always_ff @(posedge clk_i) begin
      if (wr_valid_i) wtab_q[wr_slot_i] <= {wr_last_i, wr_words};
    end
    wire logic [IdxW:0] wtab = wtab_q[slot_q[l]];

    // The words available next cycle: this cycle's write counts already.
    wire logic            hit    = wr_valid_i && wr_slot_i == slot_q[l];
    wire logic [IdxW-1:0] lim_d  = hit ? wr_words : wtab[IdxW-1:0];
    wire logic            cmpl_d = hit ? wr_last_i : wtab[IdxW];
    wire logic [IdxW-1:0] idx1   = idx_q[l] + 1'b1;

    // A lane starts a packet when it is idle: the descriptor it holds, or one given now.
    wire logic             start      = !lact_q[l] && (nv_q[l] || pick_i[l]);
    wire logic [SlotW-1:0] start_slot = nv_q[l] ? nslot_q[l] : pick_slot_i[l];

    // The flit offered last cycle was taken (its grant, registered by the head below): it
    // leaves the buffer now.
    logic pop;

    // Wants its next word next cycle: one is written (idx never passes lim, so "below" is
    // "not equal"), the packet goes on, and the buffer has room for everything in flight.
    wire logic r0  = 32'(sum_q[l]) < Cap;       // the count unchanged
    wire logic r1  = 32'(sum_q[l]) + 1 < Cap;   // one more
    wire logic x0  = lact_q[l] && idx_q[l] != lim_d;
    wire logic x1  = lact_q[l] && !last_now[l] && idx1 != lim_d;
    logic want_d;
    always_comb begin
      // start and sched never coincide (a lane starts only when idle, wants only when active).
      if (start)         want_d = pop ? 1'b1 : r0;
      else if (sched[l]) want_d = x1 && (pop ? r0 : r1);
      else               want_d = x0 && (pop ? 1'b1 : r0);
    end

    always_ff @(posedge clk_i) begin
      if (rst_i) begin
        lact_q[l] <= 1'b0;
        want_q[l] <= 1'b0;
        sum_q[l]  <= '0;
        nv_q[l]   <= 1'b0;
      end else begin
        want_q[l] <= want_d;
        sum_q[l]  <= sum_q[l] + SumW'(sched[l]) - SumW'(pop);
        if (start)                         lact_q[l] <= 1'b1;
        else if (sched[l] && last_now[l])  lact_q[l] <= 1'b0;
        // A descriptor given to a busy lane is held as its next; started once it is idle.
        if (start && nv_q[l])              nv_q[l] <= 1'b0;
        else if (pick_i[l] && lact_q[l])   nv_q[l] <= 1'b1;
      end
    end
    always_ff @(posedge clk_i) begin
      if (pick_i[l] && lact_q[l]) nslot_q[l] <= pick_slot_i[l];
      if (start) begin
        slot_q[l] <= start_slot;
        idx_q[l]  <= '0;
        lim_q[l]  <= IdxW'(1);   // word 0 is written before any descriptor is given
        cmpl_q[l] <= 1'b0;
      end else begin
        if (sched[l]) idx_q[l] <= idx1;
        lim_q[l]  <= lim_d;
        cmpl_q[l] <= cmpl_d;
      end
    end

    // The buffer: a canopy_grant_fifo, which offers the flits to the switch allocator
    // straight from its distributed RAM and only registers the late grant. Data lands two
    // cycles after its schedule; a flit landing the cycle after a grant with nothing
    // behind it is offered at once. The scheduling accounting (sum_q < Cap) keeps what it
    // holds within Cap.
    logic            pop_tail;
    logic [SlotW:0]  taken;     // {slot, last} of the flit granted last cycle
    logic [BufW-1:0] offered;
    canopy_grant_fifo #(.Width(BufW), .Depth(BufDepth), .TagW(SlotW + 1),
                        .SideLsb(FlitWidth), .SideW(1)) u_buf (
      .clk_i,
      .rst_i,
      .push_i      (t2_q[l]),
      .push_next_i (t1_q[l]),
      .push_data_i ({slot2_q[l], last2_q[l], l == LocalLane ? rd1_data_i : rd0_data_i}),
      .out_valid_o (lane_valid_o[l]),
      .out_data_o  (offered),
      .grant_i     (lane_grant_i[l]),
      .taken_o     (pop),
      .taken_tag_o (taken),
      .out_side_o  (lane_last_o[l])       // the framing the allocator passes on, from registers
    );
    assign lane_flit_o[l] = offered[FlitWidth-1:0];
    wire logic unused_offered = ^offered[FlitWidth +: SlotW + 1];
    assign pop_tail = pop && taken[0];

    always_ff @(posedge clk_i) begin
      if (rst_i) tail_o[l] <= 1'b0;
      else       tail_o[l] <= pop_tail;
    end
    always_ff @(posedge clk_i) tail_slot_o[l] <= taken[SlotW:1];

    `CANOPY_ASSERT(a_grant_valid, !lane_grant_i[l] || lane_valid_o[l], "lane granted with nothing to send")
    `CANOPY_ASSERT(a_pick_ready, !pick_i[l] || !nv_q[l], "a lane given a descriptor while it holds one")
    `CANOPY_ASSERT(a_next_busy, !nv_q[l] || lact_q[l] || start, "a lane holds a descriptor while idle")
    `CANOPY_ASSERT(a_sched_written, !sched[l] || idx_q[l] < lim_q[l], "a lane read a word not yet written")
    `CANOPY_ASSERT(a_idx_bound, !lact_q[l] || idx_q[l] <= lim_q[l], "a lane's next word passed the words written")
    `CANOPY_ASSERT(a_sum_bound, 32'(sum_q[l]) <= Cap, "lane buffer accounting above its capacity")
    `CANOPY_ASSERT(a_lim_monotonic, start || !lact_q[l] || lim_d >= lim_q[l],
                   "the words written of a slot went down while a lane sends it")
    `CANOPY_ASSERT(a_write_in_order, !(hit && lact_q[l]) || wr_idx_i >= lim_q[l],
                   "a slot being sent was written behind the words already counted")
  end

  wire logic unused = ^unused_w_idx;
endmodule

`default_nettype wire
