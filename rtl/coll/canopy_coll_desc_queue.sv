// canopy_coll_desc_queue: the collective unit's descriptor queue: seed 000's Work Queue
// and Dispatcher. A decided packet becomes one descriptor per output that must send it;
// the dispatcher hands each send lane its next descriptor, tree by tree in arrival order,
// once the child on that lane holds a free slot of the tree (a slot credit).
//
// Interface contract
//   - dec_* (registered, from the receive scheduler): slot dec_slot_i is decided: the
//     outputs in dec_lanes_i must send it. Slots of a tree are decided in any order, but a
//     lane sends a tree's slots in allocation order (free_ptr_i[t]: the tree's oldest).
//   - lane_idle_i[l] (registered, send scheduler): lane l takes a descriptor this cycle if
//     one is offered. pick_o[l] / pick_slot_o[l]: the descriptor given to lane l (the lane
//     registers it). One per lane per cycle.
//   - tail_i[l] / tail_slot_i[l] (registered): lane l has sent the tail of that slot.
//   - done_o[s]: slot s is decided and every lane has sent it (the working memory may
//     release it once its tail is written). rel_valid_i / rel_slot_i: it was released.
//   - slot_credit_*_i: per link, a slot of that tree at the child is free again. A link
//     lane starts a packet of tree t only while it holds one of SlotsPerTree credits of t.
//
// Dispatch has two paths. The fast path: a lane that is idle with nothing else ready
// takes a just-decided descriptor in the cycle it arrives, if the slot is its tree's oldest
// and the lane holds a credit. Otherwise the descriptor waits as a todo bit; each cycle a
// registered ready vector (per lane and tree: a candidate in order, and a credit) is
// computed from the state, and an idle lane picks among its ready trees round robin. The
// ready vector is a cycle old, which is safe: a lane that picks is busy for at least two
// cycles (every packet sent has two header words), by which time it is current again.
`default_nettype none
`include "canopy_assert.svh"

module canopy_coll_desc_queue #(
  parameter int unsigned NumDims      = 0,   /// torus dimensions, 1..4; must be set
  parameter int unsigned NumTrees     = 16,  /// trees, power of two >= 2
  parameter int unsigned SlotsPerTree = 2,   /// slots per tree, power of two
  localparam int unsigned NumLinks = 2 * NumDims,
  localparam int unsigned NumLanes = NumLinks + 1,
  localparam int unsigned TreeIdW  = canopy_pkg::HdrTreeBits,
  localparam int unsigned TreeW    = $clog2(NumTrees),
  localparam int unsigned PtrW     = SlotsPerTree > 1 ? $clog2(SlotsPerTree) : 1,
  localparam int unsigned SlotW    = TreeW + PtrW,
  localparam int unsigned NumSlots = 1 << SlotW
) (
  input  wire logic                              clk_i,
  input  wire logic                              rst_i,

  input  wire logic                              dec_valid_i,
  input  wire logic [SlotW-1:0]                  dec_slot_i,
  input  wire logic [NumLanes-1:0]               dec_lanes_i,
  input  wire logic [NumTrees-1:0][PtrW-1:0]     free_ptr_i,

  input  wire logic [NumLanes-1:0]               lane_idle_i,
  output logic      [NumLanes-1:0]               pick_o,
  output logic      [NumLanes-1:0][SlotW-1:0]    pick_slot_o,
  input  wire logic [NumLanes-1:0]               tail_i,
  input  wire logic [NumLanes-1:0][SlotW-1:0]    tail_slot_i,

  output logic      [NumSlots-1:0]               done_o,
  input  wire logic                              rel_valid_i,
  input  wire logic [SlotW-1:0]                  rel_slot_i,

  input  wire logic [NumLinks-1:0]               slot_credit_valid_i,
  input  wire logic [NumLinks-1:0][TreeIdW-1:0]  slot_credit_tree_i
);
  localparam int unsigned LocalLane = NumLinks;
  localparam int unsigned CntW = $clog2(SlotsPerTree + 1);
  localparam int unsigned CrLanes = NumLinks > 0 ? NumLinks : 1;

  logic [NumSlots-1:0]                decided_q;
  logic [NumSlots-1:0][NumLanes-1:0]  todo_q;    // not yet picked by the lane
  logic [NumSlots-1:0][NumLanes-1:0]  busy_q;    // not yet sent whole by the lane
  logic [CrLanes-1:0][NumTrees-1:0][CntW-1:0] credit_q;   // children's free slots per tree
  logic [NumLanes-1:0][NumTrees-1:0]            ready_q;  // registered candidates
  logic [NumLanes-1:0][NumTrees-1:0][PtrW-1:0]  cptr_q;   // the candidate's slot in its tree

  always_comb begin
    for (int unsigned s = 0; s < NumSlots; s++) done_o[s] = decided_q[s] && busy_q[s] == '0;
  end

  // ---------------------------------------------------------------- candidates (registered)
  // Per lane and tree: the tree's oldest slot this lane must still pick, provided every
  // older slot of the tree is decided (order is kept per tree), and a credit.
  logic [NumLanes-1:0][NumTrees-1:0]            ready_d;
  logic [NumLanes-1:0][NumTrees-1:0][PtrW-1:0]  cptr_d;
  always_comb begin
    for (int unsigned l = 0; l < NumLanes; l++) begin
      for (int unsigned t = 0; t < NumTrees; t++) begin
        logic stop, found;
        logic [PtrW-1:0] p;
        stop = 1'b0;
        found = 1'b0;
        p = free_ptr_i[t];
        cptr_d[l][t] = '0;
        for (int unsigned k = 0; k < SlotsPerTree; k++) begin
          logic [SlotW-1:0] s;
          s = {TreeW'(t), p};
          if (!stop) begin
            if (todo_q[s][l]) begin
              stop = 1'b1;
              found = 1'b1;
              cptr_d[l][t] = p;
            end else if (!decided_q[s]) begin
              stop = 1'b1;
            end
          end
          p = p + 1'b1;
        end
        ready_d[l][t] = found && (l == LocalLane || credit_q[l >= NumLinks ? 0 : l][t] != '0);
      end
    end
  end

  // ---------------------------------------------------------------- dispatch
  logic [NumLanes-1:0][NumTrees-1:0] rr_grant;
  logic [NumLanes-1:0][TreeW-1:0]    rr_idx;
  logic [NumLanes-1:0]               regular, fast;
  wire logic [TreeW-1:0] dec_tree = dec_slot_i[SlotW-1 -: TreeW];
  wire logic [PtrW-1:0]  dec_ptr  = dec_slot_i[PtrW-1:0];
  wire logic             dec_oldest = free_ptr_i[dec_tree] == dec_ptr;

  for (genvar l = 0; l < NumLanes; l++) begin : gen_lane
    canopy_rr_arbiter #(.NumReq(NumTrees)) u_arb (
      .clk_i,
      .rst_i,
      .req_i       (ready_q[l]),
      .advance_i   (regular[l]),
      .grant_o     (rr_grant[l]),
      .grant_idx_o (rr_idx[l])
    );
    wire logic any_ready = ready_q[l] != '0;
    wire logic cr_ok = l == LocalLane || credit_q[l >= NumLinks ? 0 : l][dec_tree] != '0;
    assign regular[l] = lane_idle_i[l] && any_ready;
    assign fast[l]    = lane_idle_i[l] && !any_ready && dec_valid_i && dec_lanes_i[l]
                        && dec_oldest && cr_ok;
    always_comb begin
      logic [PtrW-1:0] p;
      p = '0;
      for (int unsigned t = 0; t < NumTrees; t++) if (rr_grant[l][t]) p = p | cptr_q[l][t];
      pick_o[l]      = regular[l] || fast[l];
      pick_slot_o[l] = regular[l] ? {rr_idx[l], p} : dec_slot_i;
    end
  end

  // ---------------------------------------------------------------- state
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      decided_q <= '0;
      todo_q    <= '0;
      busy_q    <= '0;
      ready_q   <= '0;
    end else begin
      ready_q <= ready_d;
      for (int unsigned s = 0; s < NumSlots; s++) begin
        for (int unsigned l = 0; l < NumLanes; l++) begin
          if (regular[l] && pick_slot_o[l] == SlotW'(s)) todo_q[s][l] <= 1'b0;
          if (tail_i[l] && tail_slot_i[l] == SlotW'(s)) busy_q[s][l] <= 1'b0;
        end
        if (dec_valid_i && dec_slot_i == SlotW'(s)) begin
          decided_q[s] <= 1'b1;
          todo_q[s]    <= dec_lanes_i & ~fast;
          busy_q[s]    <= dec_lanes_i;
        end
        if (rel_valid_i && rel_slot_i == SlotW'(s)) decided_q[s] <= 1'b0;
      end
    end
  end
  always_ff @(posedge clk_i) cptr_q <= cptr_d;

  // Slot credits toward each child: spent by a pick, returned by the child.
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      for (int unsigned l = 0; l < CrLanes; l++) begin
        for (int unsigned t = 0; t < NumTrees; t++) credit_q[l][t] <= CntW'(SlotsPerTree);
      end
    end else begin
      for (int unsigned l = 0; l < NumLinks; l++) begin
        for (int unsigned t = 0; t < NumTrees; t++) begin
          logic take, back;
          take = pick_o[l] && pick_slot_o[l][SlotW-1 -: TreeW] == TreeW'(t);
          back = slot_credit_valid_i[l] && slot_credit_tree_i[l] == TreeIdW'(t);
          credit_q[l][t] <= credit_q[l][t] - CntW'(take) + CntW'(back);
        end
      end
    end
  end

  for (genvar l = 0; l < NumLanes; l++) begin : gen_check
    `CANOPY_ASSERT(a_pick_idle, !pick_o[l] || lane_idle_i[l], "a descriptor given to a busy lane")
    `CANOPY_ASSERT(a_pick_pending, !(regular[l]) || todo_q[pick_slot_o[l]][l],
                   "a lane picked a slot it does not have to send")
    if (l < NumLinks) begin : gen_link
      `CANOPY_ASSERT(a_credit_held, !pick_o[l] || credit_q[l][pick_slot_o[l][SlotW-1 -: TreeW]] != '0,
                     "a lane started a packet without a slot credit of the child")
      `CANOPY_ASSERT(a_credit_bound, !(slot_credit_valid_i[l] && slot_credit_tree_i[l] < TreeIdW'(NumTrees))
                                     || credit_q[l][slot_credit_tree_i[l][TreeW-1:0]] != CntW'(SlotsPerTree)
                                     || (pick_o[l] && pick_slot_o[l][SlotW-1 -: TreeW] == slot_credit_tree_i[l][TreeW-1:0]),
                     "a child returned a slot credit it was never given")
    end
  end
  `CANOPY_ASSERT(a_dec_fresh, !dec_valid_i || !decided_q[dec_slot_i], "a slot decided twice")
  `CANOPY_ASSERT(a_rel_done, !rel_valid_i || (decided_q[rel_slot_i] && busy_q[rel_slot_i] == '0),
                 "released a slot not sent by every lane")
endmodule

`default_nettype wire
