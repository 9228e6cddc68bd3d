// canopy_coll_desc_queue: the collective unit's descriptor queue: seed 000's Work Queue
// and Dispatcher. A decided packet goes to the link lane with its set of links (the
// children it is sent to) and to the local lane if the host gets a copy; the dispatcher
// hands the link lane its packets tree by tree in allocation order, each only while every
// child it goes to holds a free slot of the tree (a credit).
//
// Interface contract
//   - dec_* (registered, from the receive scheduler): slot dec_slot_i is decided: the
//     outputs in dec_lanes_i (links 0..2n-1, local 2n) must send it. A tree's slots are
//     decided in allocation order (the receive scheduler keeps it so).
//   - link_ready_i (registered, send scheduler): the link lane takes a descriptor this
//     cycle if one is offered; once up it stays up until it is given one (the dispatcher
//     checks it when it starts a dispatch and hands over two cycles later; asserted). link_pick_o / link_pick_slot_o / link_pick_mask_o: the slot
//     given to it and the links it goes to. local_ready_i / local_pick_*: the same for the
//     local lane.
//   - link_tail_i / link_tail_slot_i, local_tail_*: (registered) that lane sent the slot's
//     tail on every output it had to.
//   - free_ptr_i[t] (registered, working memory): tree t's oldest slot {t, free_ptr_i[t]}.
//     cand_tree_i / done_o (combinational): the oldest slot of tree cand_tree_i is decided
//     and every lane that had to send it has (the working memory asks for one tree per
//     cycle, and releases the slot once its tail is written too). rel_valid_i /
//     rel_slot_i: a slot was released.
//   - slot_credit_*_i: per link, a slot of that tree at the child is free again.
//
// State. Per slot: decided, the links it goes to (mask), pending (not yet given to the
// link lane), link-busy (pending or being sent) and local-held bits. Per (link, tree): the
// credits that child holds (SlotsPerTree out of reset). A tree's next packet for the links
// is its oldest pending slot: with two pending, the one at free_ptr. It is ready when
// every link of its mask has a credit of the tree.
//
// Dispatch has two paths. Fast: a decided packet goes straight to the link lane when the
// lane can take one, nothing else is ready or being dispatched, its tree has nothing
// pending and every child has a credit (the zero-load path: no added cycle). Otherwise
// three registered steps, one packet at a time: (1) pick a ready tree round robin from
// the registered readiness, (2) read that tree's next slot and mask (one-hot AND-OR),
// (3) hand it over. The lane holds a next descriptor while it sends, so the steps are
// hidden behind the packet being sent. The local lane's descriptors wait in one queue in
// decision order (the host drains every tree through one ejection path); one for an idle
// local lane with nothing queued goes to it at once.
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

  input  wire logic                              link_ready_i,
  output logic                                   link_pick_o,
  output logic      [SlotW-1:0]                  link_pick_slot_o,
  output logic      [NumLinks-1:0]               link_pick_mask_o,
  input  wire logic                              link_tail_i,
  input  wire logic [SlotW-1:0]                  link_tail_slot_i,

  input  wire logic                              local_ready_i,
  output logic                                   local_pick_o,
  output logic      [SlotW-1:0]                  local_pick_slot_o,
  input  wire logic                              local_tail_i,
  input  wire logic [SlotW-1:0]                  local_tail_slot_i,

  input  wire logic [TreeW-1:0]                  cand_tree_i,
  output logic                                   done_o,
  input  wire logic                              rel_valid_i,
  input  wire logic [SlotW-1:0]                  rel_slot_i,

  input  wire logic [NumLinks-1:0]               slot_credit_valid_i,
  input  wire logic [NumLinks-1:0][TreeIdW-1:0]  slot_credit_tree_i
);
  localparam int unsigned LocalLane = NumLinks;
  localparam int unsigned CntW      = $clog2(SlotsPerTree + 1);

  `CANOPY_STATIC_ASSERT(gen_slots_check, SlotsPerTree == 1 || SlotsPerTree == 2, "SlotsPerTree must be 1 or 2")
  `CANOPY_STATIC_ASSERT(gen_trees_check, NumTrees >= 2 && (NumTrees & (NumTrees - 1)) == 0,
                        "NumTrees must be a power of two >= 2")

  // Bit t set when some bit below t is set in v (for a one-hot v: the bits above it), by
  // a prefix OR: a tree of ORs, no carry chain.
  function automatic logic [NumTrees-1:0] above(input logic [NumTrees-1:0] v);
    above = v << 1;
    for (int unsigned k = 1; k < NumTrees; k = k * 2) above = above | (above << k);
  endfunction
  // The lowest set bit of v, one-hot.
  function automatic logic [NumTrees-1:0] first_one(input logic [NumTrees-1:0] v);
    first_one = v & ~above(v);
  endfunction

  wire logic [TreeW-1:0]    dec_tree  = dec_slot_i[SlotW-1 -: TreeW];
  wire logic [NumLinks-1:0] dec_links = dec_lanes_i[NumLinks-1:0];
  wire logic                dec_link  = dec_valid_i && dec_links != '0;

  // ---------------------------------------------------------------- per slot
  logic [NumSlots-1:0]                decided_q, pend_q, lbusy_q, lhold_q;
  logic [NumSlots-1:0][NumLinks-1:0]  mask_q;
  logic [NumLinks-1:0][NumTrees-1:0][CntW-1:0] credit_q;

  // Per tree: its next slot for the links, that slot's mask, whether it is ready.
  logic [NumTrees-1:0]                pend_any, ready, ready_q, nptr, nptr_q;
  logic [NumTrees-1:0][NumLinks-1:0]  nmask, nmask_q, cred_nz;
  always_comb begin
    for (int unsigned t = 0; t < NumTrees; t++) begin
      logic [SlotW-1:0] s_old, s_new;
      s_old = {TreeW'(t), free_ptr_i[t]};
      s_new = {TreeW'(t), PtrW'(SlotsPerTree > 1 ? !free_ptr_i[t][0] : 1'b0)};
      pend_any[t] = pend_q[s_old] || pend_q[s_new];
      nptr[t]     = (pend_q[s_old] ? s_old[0] : s_new[0]) && SlotsPerTree > 1;
      nmask[t]    = pend_q[s_old] ? mask_q[s_old] : mask_q[s_new];
      for (int unsigned l = 0; l < NumLinks; l++) cred_nz[t][l] = credit_q[l][t] != '0;
      ready[t]    = pend_any[t] && (cred_nz[t] | ~nmask[t]) == '1;
    end
  end
  always_ff @(posedge clk_i) begin
    if (rst_i) ready_q <= '0;
    else       ready_q <= ready;
    nptr_q  <= nptr;
    nmask_q <= nmask;
  end

  // ---------------------------------------------------------------- the link lane's dispatch
  logic                s1_v_q, s2_v_q;
  logic [NumTrees-1:0] s1_oh_q, given_last_q, after_q;
  logic [SlotW-1:0]    s2_slot_q;
  logic [NumLinks-1:0] s2_mask_q;
  logic [NumTrees-1:0] s2_oh_q;

  // Step 1: a ready tree, the first after the one last picked (round robin), not the one
  // given last cycle (its readiness here is from before the give).
  wire logic [NumTrees-1:0] cand    = ready_q & ~given_last_q;
  wire logic                s1_fire = link_ready_i && !s1_v_q && !s2_v_q && cand != '0;
  wire logic [NumTrees-1:0] s1_pick = (cand & after_q) != '0 ? first_one(cand & after_q) : first_one(cand);

  // The fast path: the decided packet at once.
  logic fast;
  always_comb begin
    logic tree_pend;
    logic [NumLinks-1:0] tree_cred;
    tree_pend = 1'b0;
    tree_cred = '0;
    for (int unsigned t = 0; t < NumTrees; t++) begin
      if (dec_tree == TreeW'(t)) begin
        tree_pend = pend_any[t];
        tree_cred = cred_nz[t];
      end
    end
    fast = dec_link && link_ready_i && !s1_v_q && !s2_v_q && ready_q == '0 && !tree_pend
           && (tree_cred | ~dec_links) == '1;
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      s1_v_q       <= 1'b0;
      s2_v_q       <= 1'b0;
      given_last_q <= '0;
      after_q      <= '0;
    end else begin
      s1_v_q <= s1_fire;
      s2_v_q <= s1_v_q;
      // (a packet given by the fast path had nothing pending before: never ready here)
      given_last_q <= s2_v_q ? s2_oh_q : '0;
      // The next pick starts after this one: the trees above it.
      if (s1_v_q) after_q <= above(s1_oh_q);
    end
  end
  always_ff @(posedge clk_i) begin
    logic [SlotW-1:0]    slot;
    logic [NumLinks-1:0] m;
    if (s1_fire) s1_oh_q <= s1_pick;
    // Step 2: the picked tree's slot and mask, by one-hot AND-OR.
    slot = '0;
    m    = '0;
    for (int unsigned t = 0; t < NumTrees; t++) begin
      if (s1_oh_q[t]) begin
        slot = slot | {TreeW'(t), PtrW'(nptr_q[t])};
        m    = m | nmask_q[t];
      end
    end
    if (s1_v_q) begin
      s2_slot_q <= slot;
      s2_mask_q <= m;
      s2_oh_q   <= s1_oh_q;
    end
  end

  // Step 3 (and the fast path): hand over.
  assign link_pick_o      = s2_v_q || fast;
  assign link_pick_slot_o = s2_v_q ? s2_slot_q : dec_slot_i;
  assign link_pick_mask_o = s2_v_q ? s2_mask_q : dec_links;

  // ---------------------------------------------------------------- slot and credit state
  wire logic [NumSlots-1:0] dec_oh  = NumSlots'(dec_valid_i) << dec_slot_i;
  wire logic [NumSlots-1:0] give_oh = NumSlots'(link_pick_o) << link_pick_slot_o;
  wire logic [NumSlots-1:0] ltail_oh = NumSlots'(link_tail_i) << link_tail_slot_i;
  wire logic [NumSlots-1:0] htail_oh = NumSlots'(local_tail_i) << local_tail_slot_i;
  wire logic [NumSlots-1:0] rel_oh  = NumSlots'(rel_valid_i) << rel_slot_i;
  wire logic [TreeW-1:0]    give_tree = link_pick_slot_o[SlotW-1 -: TreeW];

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      decided_q <= '0;
      pend_q    <= '0;
      lbusy_q   <= '0;
      lhold_q   <= '0;
      for (int unsigned l = 0; l < NumLinks; l++) begin
        for (int unsigned t = 0; t < NumTrees; t++) credit_q[l][t] <= CntW'(SlotsPerTree);
      end
    end else begin
      for (int unsigned s = 0; s < NumSlots; s++) begin
        // Busy and held from the decision on, so done_o is exact in every cycle.
        if (dec_oh[s]) begin
          decided_q[s] <= 1'b1;
          pend_q[s]    <= dec_link && !fast;
          lbusy_q[s]   <= dec_link;
          lhold_q[s]   <= dec_lanes_i[LocalLane];
        end else begin
          if (give_oh[s])  pend_q[s]    <= 1'b0;
          if (ltail_oh[s]) lbusy_q[s]   <= 1'b0;
          if (htail_oh[s]) lhold_q[s]   <= 1'b0;
          if (rel_oh[s])   decided_q[s] <= 1'b0;
        end
      end
      for (int unsigned l = 0; l < NumLinks; l++) begin
        for (int unsigned t = 0; t < NumTrees; t++) begin
          logic give, back;
          give = link_pick_o && link_pick_mask_o[l] && give_tree == TreeW'(t);
          back = slot_credit_valid_i[l] && slot_credit_tree_i[l] == TreeIdW'(t);
          credit_q[l][t] <= credit_q[l][t] - CntW'(give) + CntW'(back);
        end
      end
    end
  end
  always_ff @(posedge clk_i) begin
    for (int unsigned s = 0; s < NumSlots; s++) if (dec_oh[s]) mask_q[s] <= dec_links;
  end

  // ---------------------------------------------------------------- the local lane
  localparam int unsigned LQW = SlotW + 1;   // queue pointers (a bit wider: equal means empty)
  logic [SlotW-1:0] lq_q [NumSlots];         // distributed RAM
  logic [LQW-1:0]   lq_wp_q, lq_rp_q;
  wire logic dec_local = dec_valid_i && dec_lanes_i[LocalLane];
  wire logic lq_empty  = lq_wp_q == lq_rp_q;
  wire logic lq_bypass = dec_local && lq_empty && local_ready_i;
  wire logic lq_push   = dec_local && !lq_bypass;
  wire logic lq_pop    = !lq_empty && local_ready_i;
  wire logic [SlotW-1:0] lq_front = lq_q[lq_rp_q[SlotW-1:0]];
  always_ff @(posedge clk_i) begin
    if (lq_push) lq_q[lq_wp_q[SlotW-1:0]] <= dec_slot_i;
  end
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      lq_wp_q <= '0;
      lq_rp_q <= '0;
    end else begin
      if (lq_push) lq_wp_q <= lq_wp_q + 1'b1;
      if (lq_pop)  lq_rp_q <= lq_rp_q + 1'b1;
    end
  end
  assign local_pick_o      = lq_pop || lq_bypass;
  assign local_pick_slot_o = lq_empty ? dec_slot_i : lq_front;

  // ---------------------------------------------------------------- release of the candidate
  always_comb begin
    logic [SlotW-1:0] s0;
    s0     = {cand_tree_i, free_ptr_i[cand_tree_i]};
    done_o = decided_q[s0] && !lbusy_q[s0] && !lhold_q[s0];
  end

  `CANOPY_ASSERT(a_pick_ready, !link_pick_o || link_ready_i, "a descriptor given to the link lane while it cannot take one")
  `CANOPY_ASSERT(a_ready_held, !(s1_v_q || s2_v_q) || link_ready_i, "the link lane stopped being ready during a dispatch")
  `CANOPY_ASSERT(a_one_pick, !(s2_v_q && fast), "two descriptors given to the link lane at once")
  `CANOPY_ASSERT(a_give_pending, !s2_v_q || pend_q[s2_slot_q], "the link lane was given a slot not pending")
  `CANOPY_ASSERT(a_give_oldest, !s2_v_q || !pend_q[{s2_slot_q[SlotW-1 -: TreeW], free_ptr_i[s2_slot_q[SlotW-1 -: TreeW]]}]
                                || s2_slot_q[PtrW-1:0] == free_ptr_i[s2_slot_q[SlotW-1 -: TreeW]],
                 "the link lane was given a tree's newer slot before its older one")
  `CANOPY_ASSERT(a_pick_mask, !link_pick_o || link_pick_mask_o != '0, "a link descriptor with no link")
  `CANOPY_ASSERT(a_tail_busy, !link_tail_i || (lbusy_q[link_tail_slot_i] && !pend_q[link_tail_slot_i]),
                 "the link lane sent a tail of a slot it was not given")
  `CANOPY_ASSERT(a_local_tail_held, !local_tail_i || lhold_q[local_tail_slot_i],
                 "the local lane sent a tail of a slot it did not hold")
  for (genvar l = 0; l < NumLinks; l++) begin : gen_check
    `CANOPY_ASSERT(a_credit_held, !(link_pick_o && link_pick_mask_o[l]) || credit_q[l][give_tree] != '0,
                   "the link lane was given a packet without a slot credit of a child")
    `CANOPY_ASSERT(a_credit_bound, !(slot_credit_valid_i[l] && slot_credit_tree_i[l] < TreeIdW'(NumTrees))
                                   || credit_q[l][slot_credit_tree_i[l][TreeW-1:0]] != CntW'(SlotsPerTree),
                   "a child returned a slot credit it was never given")
  end
  `CANOPY_ASSERT(a_local_room, !lq_push || (lq_wp_q - lq_rp_q) != LQW'(NumSlots), "local descriptor queue overflow")
  `CANOPY_ASSERT(a_dec_fresh, !dec_valid_i || !decided_q[dec_slot_i], "a slot decided twice")
  `CANOPY_ASSERT(a_dec_idle, !dec_valid_i || !(lbusy_q[dec_slot_i] || lhold_q[dec_slot_i]),
                 "a slot decided while a lane still has it")
endmodule

`default_nettype wire
