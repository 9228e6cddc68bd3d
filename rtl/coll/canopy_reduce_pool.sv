// canopy_reduce_pool: the reduce engine's accumulator pool: PoolSlots accumulators of one
// packet's payload each, shared by the trees, with one slot reserved for every tree that
// holds none (docs/collectives.md: why a full pool never blocks, and never starves a tree).
//
// Interface contract
//   - tree_i / admit_o (combinational from registered state): a reduce of tree tree_i may
//     take a slot now: the tree holds no slot here (its reserved one is always free), or
//     more slots are free than there are trees holding none.
//   - slot_o (registered): the slot the next alloc_i takes (meaningful while any is free).
//   - alloc_i: take slot_o for tree tree_i; only with admit_o (asserted).
//   - free_i / free_slot_i / free_tree_i: slot free_slot_i, taken for tree free_tree_i,
//     is free again. An alloc and a free may come in the same cycle.
//   - free_count_o, idle_trees_o (registered): slots free, trees holding none (for tests
//     and assertions).
// Invariant: free_count_o >= idle_trees_o, so every tree holding no slot finds one.
// Free slots are handed out never-used ones first, then from a queue of freed ones.
`default_nettype none
`include "canopy_assert.svh"

module canopy_reduce_pool #(
  parameter int unsigned NumTrees  = 16,  /// trees, power of two >= 2
  parameter int unsigned PoolSlots = 64,  /// accumulators, power of two > NumTrees
  localparam int unsigned TreeW  = $clog2(NumTrees),
  localparam int unsigned PSlotW = $clog2(PoolSlots),
  localparam int unsigned CntW   = $clog2(PoolSlots + 1),
  localparam int unsigned IdleW  = $clog2(NumTrees + 1)
) (
  input  wire logic              clk_i,
  input  wire logic              rst_i,
  input  wire logic [TreeW-1:0]  tree_i,
  output logic                   admit_o,
  output logic      [PSlotW-1:0] slot_o,
  input  wire logic              alloc_i,
  input  wire logic              free_i,
  input  wire logic [PSlotW-1:0] free_slot_i,
  input  wire logic [TreeW-1:0]  free_tree_i,
  output logic      [CntW-1:0]   free_count_o,
  output logic      [IdleW-1:0]  idle_trees_o
);
  `CANOPY_STATIC_ASSERT(gen_pool_check, PoolSlots > NumTrees && (PoolSlots & (PoolSlots - 1)) == 0,
                        "PoolSlots must be a power of two above NumTrees")

  logic [CntW-1:0]                fresh_q;     // slots handed out never-used so far
  logic [NumTrees-1:0][CntW-1:0]  inuse_q;     // slots each tree holds
  logic [NumTrees-1:0]            none_q;      // the tree holds none
  logic                           share_q;     // free_count > idle_trees
  logic                           fl_valid, fl_ready;
  logic [PSlotW-1:0]              fl_out;
  logic [PSlotW:0]                unused_fl_count;

  // Freed slots queue up; fresh ones first.
  wire logic fresh_left = fresh_q != CntW'(PoolSlots);
  canopy_fifo #(.Width(PSlotW), .Depth(PoolSlots)) u_free (
    .clk_i,
    .rst_i,
    .in_valid_i  (free_i),
    .in_ready_o  (fl_ready),
    .in_data_i   (free_slot_i),
    .out_valid_o (fl_valid),
    .out_ready_i (alloc_i && !fresh_left),
    .out_data_o  (fl_out),
    .count_o     (unused_fl_count)
  );
  assign slot_o  = fresh_left ? PSlotW'(fresh_q) : fl_out;
  assign admit_o = none_q[tree_i] || share_q;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      fresh_q      <= '0;
      inuse_q      <= '0;
      none_q       <= '1;
      free_count_o <= CntW'(PoolSlots);
      idle_trees_o <= IdleW'(NumTrees);
      share_q      <= 1'b1;
    end else begin
      logic [CntW-1:0]  f;
      logic [IdleW-1:0] idle;
      f    = free_count_o + CntW'(free_i) - CntW'(alloc_i);
      idle = idle_trees_o;
      for (int unsigned t = 0; t < NumTrees; t++) begin
        logic a, r;
        logic [CntW-1:0] n;
        a = alloc_i && tree_i == TreeW'(t);
        r = free_i && free_tree_i == TreeW'(t);
        n = inuse_q[t] + CntW'(a) - CntW'(r);
        inuse_q[t] <= n;
        none_q[t]  <= n == '0;
        if (none_q[t] && n != '0) idle = idle - 1'b1;
        if (!none_q[t] && n == '0) idle = idle + 1'b1;
      end
      if (alloc_i && fresh_left) fresh_q <= fresh_q + 1'b1;
      free_count_o <= f;
      idle_trees_o <= idle;
      share_q      <= {1'b0, f} > (CntW + 1)'(idle);
    end
  end

  `CANOPY_ASSERT(a_admitted, !alloc_i || admit_o, "pool slot taken without admission")
  `CANOPY_ASSERT(a_nonempty, !alloc_i || fresh_left || fl_valid, "pool slot taken from an empty pool")
  `CANOPY_ASSERT(a_free_room, !free_i || fl_ready, "pool freed more slots than it has")
  `CANOPY_ASSERT(a_free_held, !free_i || !none_q[free_tree_i], "freed a slot of a tree that holds none")
  `CANOPY_ASSERT(a_reserve, {1'b0, free_count_o} >= (CntW + 1)'(idle_trees_o),
                 "fewer free slots than trees holding none: the reservation is broken")
endmodule

`default_nettype wire
