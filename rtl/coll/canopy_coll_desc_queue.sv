// canopy_coll_desc_queue: the collective unit's descriptor queue: seed 000's Work Queue
// and Dispatcher. A decided packet becomes one descriptor per output that must send it;
// the dispatcher hands each send lane its descriptors, tree by tree in allocation order,
// a link lane only while the child on that link holds a free slot of the tree (a credit).
//
// Interface contract
//   - dec_* (registered, from the receive scheduler): slot dec_slot_i is decided: the
//     outputs in dec_lanes_i must send it. A tree's slots are decided in allocation order
//     (the receive scheduler keeps it so).
//   - lane_ready_i[l] (registered, send scheduler): lane l takes a descriptor this cycle if
//     one is offered (it starts it, or holds it as its next). pick_o[l] / pick_slot_o[l]:
//     the descriptor given to lane l; one per lane per cycle.
//   - tail_i[l] / tail_slot_i[l] (registered): lane l's output has taken that slot's tail.
//   - free_ptr_i[t] (registered, working memory): tree t's oldest slot {t, free_ptr_i[t]}.
//     cand_tree_i / done_o (combinational): the oldest slot of tree cand_tree_i is decided
//     and every lane that had to send it has (the working memory asks for one tree per
//     cycle, and releases the slot once its tail is written too). rel_valid_i /
//     rel_slot_i: a slot was released.
//   - slot_credit_*_i: per link, a slot of that tree at the child is free again.
//
// Link lanes. Per (link, tree): how many of the tree's slots the lane still has to be
// given, how many it has been given and not finished (its tail not yet taken), the oldest
// of those (with two slots per tree the other is the next), and the credits the child
// holds. A link lane is given a packet of tree t only with one of SlotsPerTree credits of
// t: broadcasts of different trees are independent on every link.
// The local lane. Its descriptors wait in one queue in decision order (the host drains
// every tree through one ejection path, so a per-tree queue would buy nothing), with a bit
// per slot while the local lane has it to send; one for an idle lane with nothing queued
// goes to it at once.
//
// Dispatch has two paths. Fast: a decided descriptor goes straight to a link lane that can
// take one, has nothing else ready and nothing of that tree outstanding, and holds a
// credit (the zero-load path: no added cycle). Otherwise a dispatcher shared by the link
// lanes serves one lane per cycle in three registered steps: pick a lane with something
// ready (round robin), pick a tree for it (round robin from the lane's last pick), hand
// it over. A lane holds a next descriptor while it sends, so this is hidden behind the
// packet being sent. The local lane takes its queue's front whenever it can.
`default_nettype none
`include "canopy_assert.svh"

module canopy_coll_desc_queue #(
  parameter int unsigned NumDims      = 0,   /// torus dimensions, 1..4; must be set
  parameter int unsigned NumTrees     = 16,  /// trees, power of two >= 2
  parameter int unsigned SlotsPerTree = 2,   /// slots per tree: 1 or 2
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

  input  wire logic [NumLanes-1:0]               lane_ready_i,
  output logic      [NumLanes-1:0]               pick_o,
  output logic      [NumLanes-1:0][SlotW-1:0]    pick_slot_o,
  input  wire logic [NumLanes-1:0]               tail_i,
  input  wire logic [NumLanes-1:0][SlotW-1:0]    tail_slot_i,

  input  wire logic [TreeW-1:0]                  cand_tree_i,
  output logic                                   done_o,
  input  wire logic                              rel_valid_i,
  input  wire logic [SlotW-1:0]                  rel_slot_i,

  input  wire logic [NumLinks-1:0]               slot_credit_valid_i,
  input  wire logic [NumLinks-1:0][TreeIdW-1:0]  slot_credit_tree_i
);
  localparam int unsigned LocalLane = NumLinks;
  localparam int unsigned CntW  = $clog2(SlotsPerTree + 1);
  localparam int unsigned LinkW = NumLinks > 1 ? $clog2(NumLinks) : 1;

  `CANOPY_STATIC_ASSERT(gen_slots_check, SlotsPerTree == 1 || SlotsPerTree == 2, "SlotsPerTree must be 1 or 2")
  `CANOPY_STATIC_ASSERT(gen_trees_check, NumTrees >= 2 && (NumTrees & (NumTrees - 1)) == 0,
                        "NumTrees must be a power of two >= 2")

  wire logic [TreeW-1:0] dec_tree = dec_slot_i[SlotW-1 -: TreeW];
  wire logic [PtrW-1:0]  dec_ptr  = dec_slot_i[PtrW-1:0];

  // Shared decodes: which tree each event names.
  logic [NumTrees-1:0]               dec_oh, s2_oh;
  logic [NumLinks-1:0][NumTrees-1:0] tail_oh, back_oh;

  // ---------------------------------------------------------------- link lanes' state
  logic [NumSlots-1:0]                          decided_q;
  logic [NumLinks-1:0][NumTrees-1:0][CntW-1:0]  pend_q;   // still to be given
  logic [NumLinks-1:0][NumTrees-1:0][CntW-1:0]  given_q;  // given, tail not yet taken
  logic [NumLinks-1:0][NumTrees-1:0][PtrW-1:0]  e0_q;     // the oldest of pend + given
  logic [NumLinks-1:0][NumTrees-1:0][CntW-1:0]  credit_q; // the child's free slots of the tree
  logic [NumLinks-1:0][NumTrees-1:0]            ready, idle, fast_ok, ready_q;
  logic [NumLinks-1:0]                          any_ready_q;
  always_comb begin
    for (int unsigned l = 0; l < NumLinks; l++) begin
      for (int unsigned t = 0; t < NumTrees; t++) begin
        ready[l][t]   = pend_q[l][t] != '0 && credit_q[l][t] != '0;
        idle[l][t]    = pend_q[l][t] == '0 && given_q[l][t] == '0;
        fast_ok[l][t] = pend_q[l][t] == '0 && credit_q[l][t] != '0;
      end
    end
  end
  // The dispatcher works from a registered copy: a cycle old, so a lane given a descriptor
  // is not served again the next cycle (given_last_q).
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      ready_q     <= '0;
      any_ready_q <= '0;
    end else begin
      ready_q <= ready;
      for (int unsigned l = 0; l < NumLinks; l++) any_ready_q[l] <= ready[l] != '0;
    end
  end

  // ---------------------------------------------------------------- shared dispatcher (links)
  // Step 1: a link lane that can take a descriptor and has one ready: not one being served,
  // nor one given a descriptor last cycle (its state is a cycle behind that).
  logic [NumLinks-1:0]              needy, s1_grant, given_last_q;
  logic [LinkW-1:0]                 s1_idx;
  wire logic unused_s1_idx = ^s1_idx;   // the lanes are kept one-hot
  // The lane in step 2 / step 3, one-hot (zero when none): a lane's own bit, not a compare
  // of an index, is what keeps it out of the arbiter (the dispatcher's path starts there).
  logic [NumLinks-1:0]              s1_lane_q, s2_lane_q;
  logic [NumTrees-1:0]              s1_ready_q, s1_prio_q, s1_ptr_q;
  // Per lane, the trees after the one it was last given (round robin starts there), kept as
  // a mask so that step 1 only selects it.
  logic [NumLinks-1:0][NumTrees-1:0] after_q;
  logic [SlotW-1:0]                 s2_slot_q;
  logic                             s2_any_q;
  logic [TreeW-1:0]                 s2_tree_q;
  logic [NumLinks-1:0]              fast, s2_pick;

  always_comb begin
    for (int unsigned l = 0; l < NumLinks; l++) begin
      needy[l] = lane_ready_i[l] && any_ready_q[l] && !given_last_q[l]
                 && !s1_lane_q[l] && !s2_lane_q[l];
    end
  end
  canopy_rr_arbiter #(.NumReq(NumLinks)) u_lane_arb (
    .clk_i,
    .rst_i,
    .req_i       (needy),
    .advance_i   (needy != '0),
    .grant_o     (s1_grant),
    .grant_idx_o (s1_idx)
  );
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      s1_lane_q    <= '0;
      given_last_q <= '0;
    end else begin
      s1_lane_q    <= s1_grant;
      given_last_q <= pick_o[NumLinks-1:0];
    end
  end
  always_ff @(posedge clk_i) begin
    logic [NumTrees-1:0] r, p, a;
    r    = '0;
    p    = '0;
    a    = '0;
    for (int unsigned l = 0; l < NumLinks; l++) begin
      if (s1_grant[l]) begin
        r    = r | ready_q[l];
        a    = a | after_q[l];
        // The slot it would be given per tree: its oldest outstanding, or the other one if
        // that is already given.
        for (int unsigned t = 0; t < NumTrees; t++) p[t] = p[t] | (e0_q[l][t][0] ^ (given_q[l][t] != '0));
      end
    end
    s1_ready_q <= r;
    s1_ptr_q   <= p;
    s1_prio_q  <= a;
  end

  // Step 2: a tree for that lane, the first ready one after its last pick (round robin).
  logic [NumTrees-1:0] s2_grant;
  logic [TreeW-1:0]    s2_idx;
  always_comb begin
    logic [NumTrees-1:0] masked, cand;
    masked = s1_ready_q & s1_prio_q;
    cand   = masked != '0 ? masked : s1_ready_q;
    s2_grant = cand & (~cand + 1'b1);
    s2_idx = '0;
    for (int unsigned t = 0; t < NumTrees; t++) if (s2_grant[t]) s2_idx = TreeW'(t);
  end
  wire logic s2_ptr = (s2_grant & s1_ptr_q) != '0;
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      s2_lane_q <= '0;
      for (int unsigned l = 0; l < NumLinks; l++) begin
        for (int unsigned t = 0; t < NumTrees; t++) after_q[l][t] <= t > 0;
      end
    end else begin
      s2_lane_q <= s1_lane_q;
      for (int unsigned l = 0; l < NumLinks; l++) begin
        if (s1_lane_q[l]) begin
          for (int unsigned t = 0; t < NumTrees; t++) after_q[l][t] <= TreeW'(t) > s2_idx;
        end
      end
    end
  end
  always_ff @(posedge clk_i) begin
    s2_any_q  <= s1_ready_q != '0;
    s2_tree_q <= s2_idx;
    s2_slot_q <= {s2_idx, PtrW'(SlotsPerTree > 1 ? s2_ptr : 1'b0)};
  end

  // Step 3 (and the fast path): hand over.
  always_comb begin
    for (int unsigned t = 0; t < NumTrees; t++) begin
      dec_oh[t] = dec_valid_i && dec_tree == TreeW'(t);
      s2_oh[t]  = s2_tree_q == TreeW'(t);
    end
    for (int unsigned l = 0; l < NumLinks; l++) begin
      logic ok;
      ok = 1'b0;
      for (int unsigned t = 0; t < NumTrees; t++) begin
        tail_oh[l][t] = tail_i[l] && tail_slot_i[l][SlotW-1 -: TreeW] == TreeW'(t);
        back_oh[l][t] = slot_credit_valid_i[l] && slot_credit_tree_i[l] == TreeIdW'(t);
        if (dec_tree == TreeW'(t)) ok = fast_ok[l][t];
      end
      s2_pick[l]     = s2_lane_q[l] && lane_ready_i[l] && s2_any_q;
      fast[l]        = dec_valid_i && dec_lanes_i[l] && lane_ready_i[l] && !any_ready_q[l] && ok
                       && !s2_lane_q[l] && !s1_lane_q[l];
      pick_o[l]      = s2_pick[l] || fast[l];
      pick_slot_o[l] = s2_pick[l] ? s2_slot_q : dec_slot_i;
    end
    pick_o[LocalLane]      = lq_pop || lq_bypass;
    pick_slot_o[LocalLane] = lq_empty ? dec_slot_i : lq_front;
  end

  // ---------------------------------------------------------------- link cells
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      pend_q  <= '0;
      given_q <= '0;
      for (int unsigned l = 0; l < NumLinks; l++) begin
        for (int unsigned t = 0; t < NumTrees; t++) credit_q[l][t] <= CntW'(SlotsPerTree);
      end
    end else begin
      for (int unsigned l = 0; l < NumLinks; l++) begin
        for (int unsigned t = 0; t < NumTrees; t++) begin
          logic enq, give;
          enq  = dec_oh[t] && dec_lanes_i[l];
          give = (fast[l] && dec_oh[t]) || (s2_pick[l] && s2_oh[t]);
          pend_q[l][t]   <= pend_q[l][t] + CntW'(enq) - CntW'(give);
          given_q[l][t]  <= given_q[l][t] + CntW'(give) - CntW'(tail_oh[l][t]);
          credit_q[l][t] <= credit_q[l][t] - CntW'(give) + CntW'(back_oh[l][t]);
        end
      end
    end
  end
  always_ff @(posedge clk_i) begin
    for (int unsigned l = 0; l < NumLinks; l++) begin
      for (int unsigned t = 0; t < NumTrees; t++) begin
        if (dec_oh[t] && dec_lanes_i[l] && idle[l][t]) e0_q[l][t] <= dec_ptr;
        else if (tail_oh[l][t])                        e0_q[l][t] <= e0_q[l][t] + 1'b1;  // the other slot
      end
    end
  end

  // ---------------------------------------------------------------- the local lane
  localparam int unsigned LQW = SlotW + 1;   // queue pointers (a bit wider: equal means empty)
  logic [SlotW-1:0]    lq_q [NumSlots];      // distributed RAM
  logic [LQW-1:0]      lq_wp_q, lq_rp_q;
  logic [NumSlots-1:0] lhold_q;              // the local lane has the slot to send
  wire logic lq_empty  = lq_wp_q == lq_rp_q;
  // (a descriptor for an idle local lane with nothing queued goes straight to it)
  wire logic lq_bypass = dec_valid_i && dec_lanes_i[LocalLane] && lq_empty && lane_ready_i[LocalLane];
  wire logic lq_push   = dec_valid_i && dec_lanes_i[LocalLane] && !lq_bypass;
  wire logic lq_pop    = !lq_empty && lane_ready_i[LocalLane];
  always_ff @(posedge clk_i) begin
    if (lq_push) lq_q[lq_wp_q[SlotW-1:0]] <= dec_slot_i;
  end
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      lq_wp_q <= '0;
      lq_rp_q <= '0;
      lhold_q <= '0;
    end else begin
      if (lq_push) lq_wp_q <= lq_wp_q + 1'b1;
      if (lq_pop)  lq_rp_q <= lq_rp_q + 1'b1;
      for (int unsigned s = 0; s < NumSlots; s++) begin
        if (dec_valid_i && dec_lanes_i[LocalLane] && dec_slot_i == SlotW'(s)) lhold_q[s] <= 1'b1;
        if (tail_i[LocalLane] && tail_slot_i[LocalLane] == SlotW'(s)) lhold_q[s] <= 1'b0;
      end
    end
  end
  wire logic [SlotW-1:0] lq_front = lq_q[lq_rp_q[SlotW-1:0]];

  // ---------------------------------------------------------------- release of the candidate
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      decided_q <= '0;
    end else begin
      for (int unsigned s = 0; s < NumSlots; s++) begin
        if (dec_valid_i && dec_slot_i == SlotW'(s)) decided_q[s] <= 1'b1;
        if (rel_valid_i && rel_slot_i == SlotW'(s)) decided_q[s] <= 1'b0;
      end
    end
  end
  // Per tree, registered: a link lane still has the tree's oldest slot; and the decided
  // bits a cycle late, so both are of the same cycle (a slot decided now is not yet held by
  // its lanes in held_q: it must not look done).
  logic [NumTrees-1:0] held_q;
  logic [NumSlots-1:0] decided_r_q;
  logic [NumTrees-1:0][PtrW-1:0] fp_r_q;   // the oldest slots held_q was computed for
  always_ff @(posedge clk_i) begin
    for (int unsigned t = 0; t < NumTrees; t++) begin
      logic h;
      h = 1'b0;
      for (int unsigned l = 0; l < NumLinks; l++) begin
        if (!idle[l][t] && e0_q[l][t] == free_ptr_i[t]) h = 1'b1;
      end
      held_q[t] <= h;
    end
    decided_r_q <= decided_q;
    fp_r_q      <= free_ptr_i;
  end
  always_comb begin
    logic [SlotW-1:0] s0;
    s0     = {cand_tree_i, free_ptr_i[cand_tree_i]};
    // (decided a cycle ago and still: not a slot released and decided again since)
    done_o = decided_r_q[s0] && decided_q[s0] && !lhold_q[s0] && !held_q[cand_tree_i]
             && fp_r_q[cand_tree_i] == free_ptr_i[cand_tree_i];
  end

  for (genvar l = 0; l < NumLinks; l++) begin : gen_check
    `CANOPY_ASSERT(a_pick_ready, !pick_o[l] || lane_ready_i[l], "a descriptor given to a lane that cannot take it")
    `CANOPY_ASSERT(a_one_pick, !(s2_pick[l] && fast[l]), "two descriptors given to one lane at once")
    `CANOPY_ASSERT(a_give_pending, !s2_pick[l] || pend_q[l][s2_tree_q] != '0,
                   "a lane was given a slot it does not have to send")
    `CANOPY_ASSERT(a_credit_held, !pick_o[l] || credit_q[l][pick_slot_o[l][SlotW-1 -: TreeW]] != '0,
                   "a lane was given a packet without a slot credit of the child")
    `CANOPY_ASSERT(a_tail_oldest, !tail_i[l] || (given_q[l][tail_slot_i[l][SlotW-1 -: TreeW]] != '0
                                   && e0_q[l][tail_slot_i[l][SlotW-1 -: TreeW]] == tail_slot_i[l][PtrW-1:0]),
                   "a lane sent a tail that was not its oldest packet of the tree")
    `CANOPY_ASSERT(a_enq_room, !(dec_valid_i && dec_lanes_i[l])
                               || 32'(pend_q[l][dec_tree]) + 32'(given_q[l][dec_tree]) < SlotsPerTree,
                   "more descriptors of a tree for a lane than the tree has slots")
    `CANOPY_ASSERT(a_credit_bound, !(slot_credit_valid_i[l] && slot_credit_tree_i[l] < TreeIdW'(NumTrees))
                                   || credit_q[l][slot_credit_tree_i[l][TreeW-1:0]] != CntW'(SlotsPerTree),
                   "a child returned a slot credit it was never given")
  end
  `CANOPY_ASSERT(a_local_room, !lq_push || (lq_wp_q - lq_rp_q) != LQW'(NumSlots), "local descriptor queue overflow")
  `CANOPY_ASSERT(a_dec_fresh, !dec_valid_i || !decided_q[dec_slot_i], "a slot decided twice")
endmodule

`default_nettype wire
