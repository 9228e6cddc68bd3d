// canopy_reduce_pool: the reduce engine's accumulators: PoolSlots of one packet's payload
// each, NumTrees of them reserved one per tree and the rest shared by the trees
// (docs/collectives.md: why a full pool never blocks, and never starves a tree).
//
// Interface contract
//   - tree_i / admit_o (combinational from registered state): a reduce of tree tree_i may
//     take an accumulator now: its tree's reserved one is free, or a shared one is.
//     slot_o: the one it gets (its reserved one first).
//   - alloc_i: take slot_o for tree tree_i; only with admit_o (asserted).
//   - free_i / free_slot_i: accumulator free_slot_i is free again. An alloc and a free may
//     come in the same cycle.
//   - alloc_i and free_i are registered here and take effect a cycle later (an alloc comes
//     at the end of the reduce engine's verdict, a free from its sender at any time):
//     admit_o and slot_o are current again two cycles after an alloc, which is as often as
//     the engine asks (asserted); until a free is in, they only miss the freed slot.
//   - free_count_o (registered): accumulators free (for tests and assertions).
// Accumulator t < NumTrees is tree t's reserve; the shared ones are handed out never-used
// first, then from a queue of freed ones. So a tree that holds no accumulator always finds
// its reserve free: every tree can always make progress.
`default_nettype none
`include "canopy_assert.svh"

module canopy_reduce_pool #(
  parameter int unsigned NumTrees  = 16,  /// trees, power of two >= 2
  parameter int unsigned PoolSlots = 64,  /// accumulators, power of two > NumTrees
  localparam int unsigned TreeW  = $clog2(NumTrees),
  localparam int unsigned PSlotW = $clog2(PoolSlots),
  localparam int unsigned CntW   = $clog2(PoolSlots + 1)
) (
  input  wire logic              clk_i,
  input  wire logic              rst_i,
  input  wire logic [TreeW-1:0]  tree_i,
  output logic                   admit_o,
  output logic      [PSlotW-1:0] slot_o,
  input  wire logic              alloc_i,
  input  wire logic              free_i,
  input  wire logic [PSlotW-1:0] free_slot_i,
  output logic      [CntW-1:0]   free_count_o
);
  localparam int unsigned Shared = PoolSlots - NumTrees;

  `CANOPY_STATIC_ASSERT(gen_pool_check, PoolSlots > NumTrees && (PoolSlots & (PoolSlots - 1)) == 0,
                        "PoolSlots must be a power of two above NumTrees")

  logic [NumTrees-1:0] rsv_used_q;   // tree t's reserved accumulator is taken
  logic [CntW-1:0]     fresh_q;      // shared accumulators handed out never-used so far
  logic                alloc_q, free_q;
  logic [PSlotW-1:0]   alloc_slot_q, free_slot_q;
  logic                fl_valid, fl_ready;
  logic [PSlotW-1:0]   fl_out;
  logic [PSlotW:0]     unused_fl_count;

  wire logic fresh_left = fresh_q != CntW'(Shared);
  wire logic shared_ok  = fresh_left || fl_valid;
  wire logic rsv_free   = !rsv_used_q[tree_i];
  assign admit_o = rsv_free || shared_ok;
  assign slot_o  = rsv_free ? PSlotW'(tree_i) : fresh_left ? PSlotW'(NumTrees) + PSlotW'(fresh_q) : fl_out;

  // Freed shared accumulators queue up.
  wire logic free_shared = free_q && {1'b0, free_slot_q} >= (PSlotW + 1)'(NumTrees);
  wire logic take_queued = alloc_q && {1'b0, alloc_slot_q} >= (PSlotW + 1)'(NumTrees) && !fresh_left;
  canopy_fifo #(.Width(PSlotW), .Depth(PoolSlots)) u_free (
    .clk_i,
    .rst_i,
    .in_valid_i  (free_shared),
    .in_ready_o  (fl_ready),
    .in_data_i   (free_slot_q),
    .out_valid_o (fl_valid),
    .out_ready_i (take_queued),
    .out_data_o  (fl_out),
    .count_o     (unused_fl_count)
  );

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      alloc_q <= 1'b0;
      free_q  <= 1'b0;
    end else begin
      alloc_q <= alloc_i;
      free_q  <= free_i;
    end
  end
  always_ff @(posedge clk_i) begin
    alloc_slot_q <= slot_o;
    free_slot_q  <= free_slot_i;
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      rsv_used_q   <= '0;
      fresh_q      <= '0;
      free_count_o <= CntW'(PoolSlots);
    end else begin
      for (int unsigned t = 0; t < NumTrees; t++) begin
        if (alloc_q && alloc_slot_q == PSlotW'(t)) rsv_used_q[t] <= 1'b1;
        if (free_q && free_slot_q == PSlotW'(t))   rsv_used_q[t] <= 1'b0;
      end
      if (alloc_q && {1'b0, alloc_slot_q} >= (PSlotW + 1)'(NumTrees) && fresh_left) fresh_q <= fresh_q + 1'b1;
      free_count_o <= free_count_o + CntW'(free_q) - CntW'(alloc_q);
    end
  end

  // (a free not yet in the state only makes admit_o and slot_o conservative: still correct)
  `CANOPY_ASSERT(a_spacing, !(alloc_i && alloc_q), "pool asked again before its state caught up")
  `CANOPY_ASSERT(a_admitted, !alloc_i || admit_o, "pool slot taken without admission")
  `CANOPY_ASSERT(a_free_room, !free_shared || fl_ready, "pool freed more slots than it has")
  `CANOPY_ASSERT(a_free_held, !(free_q && {1'b0, free_slot_q} < (PSlotW + 1)'(NumTrees))
                              || rsv_used_q[free_slot_q[TreeW-1:0]], "freed a reserved accumulator that was not taken")
endmodule

`default_nettype wire
