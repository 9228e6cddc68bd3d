// canopy_coll_wmem: the collective unit's Working Memory (seed 000): NumTrees x
// SlotsPerTree slots of one packet each, allocated per tree in ring order and released in
// the same order once every output has sent the packet; the release gives the parent its
// slot credit back.
//
// Interface contract
//   - alloc_i (registered by the receive scheduler): take the next slot of tree
//     alloc_tree_i, i.e. slot {tree, alloc_ptr_o[tree]}; only while !tree_full_o[tree]
//     (asserted). alloc_port_i / alloc_credit_i: the router input the packet came from and
//     whether that neighbour gets a slot credit back on release. The packet's word 0 is
//     written in the same cycle.
//   - alloc_ptr_o, free_ptr_o, tree_full_o: registered per-tree ring state (free_ptr_o[t]:
//     the tree's oldest slot while any is in use).
//   - wr_* (registered by the writer): word wr_idx_i of slot wr_slot_i, wr_last_i its tail.
//     A word at index >= SlotWords (34) is not stored (it only marks the tail).
//   - rd0_*, rd1_*: two read ports with registered data (the link lanes' and the local
//     lane's), each a copy of the memory; the address of word w of slot s is
//     {w[5], s, w[4:0]}; rdN_data_o is the word at the address of the cycle before (a read
//     every cycle). A read issued the cycle after a word's write sees it.
//   - cand_tree_o (registered) / done_i: the tree whose oldest slot may be released next,
//     and the descriptor queue's answer (decided, and every output has sent it). It is
//     released once its tail is written too: one release per cycle (round robin over the
//     trees), reported on rel_valid_o / rel_slot_o (registered).
//   - slot_credit_*_o (registered): per link port, (valid, tree): a slot of that tree,
//     filled by a packet from that port, is free again; or a refused broadcast's credit
//     (drop_cr_*_i, which takes the cycle: releases wait).
//
// Layout, no multiplier and no adder: words 0..31 of a slot (its header and the first 30
// payload words) in one RAM at {slot, w[4:0]}, words 32 and 33 in a second, small one at
// {slot, w[0]}; a read port reads both and keeps the one its address's top bit names.
// One pair of simple dual-port RAMs per read port (block RAM). A lane reads only words
// already written (a slot is released only after every lane has sent it, and a word is
// read the cycle after its write at the earliest), so the word a same-cycle write and read
// of one address would return is never used: the RAMs have no collision logic
// (canopy_sdp_ram CollisionOld = 0; in simulation such a read returns corrupted data).
`default_nettype none
`include "canopy_assert.svh"

module canopy_coll_wmem #(
  parameter int unsigned NumDims      = 0,   /// torus dimensions, 1..4; must be set
  parameter int unsigned NumTrees     = 16,  /// trees, power of two >= 2
  parameter int unsigned SlotsPerTree = 2,   /// slots per tree, power of two
  localparam int unsigned NumLinks = 2 * NumDims,
  localparam int unsigned NumLanes = NumLinks + 1,
  localparam int unsigned PortW    = $clog2(NumLanes + 1),
  localparam int unsigned TreeIdW  = canopy_pkg::HdrTreeBits,
  localparam int unsigned TreeW    = $clog2(NumTrees),
  localparam int unsigned PtrW     = SlotsPerTree > 1 ? $clog2(SlotsPerTree) : 1,
  localparam int unsigned SlotW    = TreeW + PtrW,
  localparam int unsigned NumSlots = 1 << SlotW,
  localparam int unsigned IdxW     = 6,
  localparam int unsigned AddrW    = SlotW + 6
) (
  input  wire logic                            clk_i,
  input  wire logic                            rst_i,

  input  wire logic                            alloc_i,
  input  wire logic [TreeW-1:0]                alloc_tree_i,
  input  wire logic [PortW-1:0]                alloc_port_i,
  input  wire logic                            alloc_credit_i,
  output logic      [NumTrees-1:0][PtrW-1:0]   alloc_ptr_o,
  output logic      [NumTrees-1:0][PtrW-1:0]   free_ptr_o,
  output logic      [NumTrees-1:0]             tree_full_o,

  input  wire logic                            wr_valid_i,
  input  wire logic [SlotW-1:0]                wr_slot_i,
  input  wire logic [IdxW-1:0]                 wr_idx_i,
  input  wire logic [63:0]                     wr_data_i,
  input  wire logic                            wr_last_i,

  input  wire logic [AddrW-1:0]                rd0_addr_i,
  output logic      [63:0]                     rd0_data_o,
  input  wire logic [AddrW-1:0]                rd1_addr_i,
  output logic      [63:0]                     rd1_data_o,

  output logic      [TreeW-1:0]                cand_tree_o,
  input  wire logic                            done_i,
  output logic                                 rel_valid_o,
  output logic      [SlotW-1:0]                rel_slot_o,

  input  wire logic                            drop_cr_valid_i,
  input  wire logic [PortW-1:0]                drop_cr_port_i,
  input  wire logic [TreeIdW-1:0]              drop_cr_tree_i,
  output logic      [NumLinks-1:0]             slot_credit_valid_o,
  output logic      [NumLinks-1:0][TreeIdW-1:0] slot_credit_tree_o
);
  localparam int unsigned SlotWords = canopy_pkg::MaxPacketWords;
  localparam int unsigned CntW      = $clog2(SlotsPerTree + 1);

  `CANOPY_STATIC_ASSERT(gen_words_check, SlotWords == 34, "the layout assumes 2 header + 32 payload words")
  `CANOPY_STATIC_ASSERT(gen_trees_check, NumTrees >= 2 && (NumTrees & (NumTrees - 1)) == 0,
                        "NumTrees must be a power of two >= 2")

  // ---------------------------------------------------------------- RAM copies
  wire logic wr_store = wr_valid_i && wr_idx_i < IdxW'(SlotWords);
  for (genvar c = 0; c < 2; c++) begin : gen_ram
    wire logic [AddrW-1:0] raddr = c == 0 ? rd0_addr_i : rd1_addr_i;
    logic [63:0] lo_data, hi_data;
    logic        hi_q;
    canopy_sdp_ram #(.Width(64), .Depth(NumSlots * 32), .CollisionOld(1'b0)) u_lo (
      .clk_i,
      .we_i    (wr_store && !wr_idx_i[5]),
      .waddr_i ({wr_slot_i, wr_idx_i[4:0]}),
      .wdata_i (wr_data_i),
      .re_i    (1'b1),   // read every cycle (the lanes take the word they scheduled)
      .raddr_i (raddr[SlotW+4:0]),
      .rdata_o (lo_data)
    );
    canopy_sdp_ram #(.Width(64), .Depth(NumSlots * 2), .CollisionOld(1'b0)) u_hi (
      .clk_i,
      .we_i    (wr_store && wr_idx_i[5]),
      .waddr_i ({wr_slot_i, wr_idx_i[0]}),
      .wdata_i (wr_data_i),
      .re_i    (1'b1),
      .raddr_i ({raddr[SlotW+4:5], raddr[0]}),
      .rdata_o (hi_data)
    );
    always_ff @(posedge clk_i) hi_q <= raddr[AddrW-1];
    if (c == 0) begin : gen_rd0
      assign rd0_data_o = hi_q ? hi_data : lo_data;
    end else begin : gen_rd1
      assign rd1_data_o = hi_q ? hi_data : lo_data;
    end
  end

  // ---------------------------------------------------------------- per-slot state
  logic [NumSlots-1:0]            used_q, complete_q;
  logic [PortW:0]                 orig_q [NumSlots];   // {credit back, input port}, distributed RAM
  logic [NumTrees-1:0][CntW-1:0]  count_q;

  // Release, in three registered steps: a candidate tree whose oldest slot is used and
  // complete (round robin); the descriptor queue's answer for it (done_i for cand_tree_o:
  // decided, and every output has sent it); the release, if that slot is still the tree's
  // oldest. One release per cycle at most; a refused broadcast's credit (drop_cr_*) takes
  // the cycle (the candidate is then asked again later).
  logic [NumTrees-1:0] cand_req, cand_req_q, cand_grant;
  logic [TreeW-1:0]    cand_idx, cand_q, pend_tree_q;
  logic [PtrW-1:0]     pend_ptr_q;
  logic                cand_v_q, pend_v_q;
  logic                rel;
  always_comb begin
    for (int unsigned t = 0; t < NumTrees; t++) begin
      logic u, c;
      u = 1'b0;
      c = 1'b0;
      for (int unsigned j = 0; j < SlotsPerTree; j++) begin
        if (free_ptr_o[t] == PtrW'(j)) begin
          u = used_q[t * SlotsPerTree + j];
          c = complete_q[t * SlotsPerTree + j];
        end
      end
      // (not the trees already on their way through the steps below)
      cand_req[t] = u && c && !(cand_v_q && cand_q == TreeW'(t)) && !(pend_v_q && pend_tree_q == TreeW'(t));
    end
  end
  canopy_rr_arbiter #(.NumReq(NumTrees)) u_cand_arb (
    .clk_i,
    .rst_i,
    .req_i       (cand_req_q),
    .advance_i   (cand_req_q != '0),
    .grant_o     (cand_grant),
    .grant_idx_o (cand_idx)
  );
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      cand_v_q   <= 1'b0;
      pend_v_q   <= 1'b0;
      cand_req_q <= '0;
    end else begin
      // (registered: a cycle old, so a tree may be asked twice; the last step's check that
      // the slot is still the oldest makes that harmless)
      cand_req_q <= cand_req;
      cand_v_q <= cand_req_q != '0;
      pend_v_q <= cand_v_q && done_i;
    end
  end
  always_ff @(posedge clk_i) begin
    cand_q      <= cand_idx;
    pend_tree_q <= cand_q;
    pend_ptr_q  <= free_ptr_o[cand_q];
  end
  assign cand_tree_o = cand_q;

  wire logic [TreeW-1:0] rel_tree = pend_tree_q;
  wire logic [SlotW-1:0] rel_slot = {pend_tree_q, pend_ptr_q};
  assign rel = pend_v_q && free_ptr_o[pend_tree_q] == pend_ptr_q && !drop_cr_valid_i;
  wire logic unused_cand = ^cand_grant;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      used_q      <= '0;
      alloc_ptr_o <= '0;
      free_ptr_o  <= '0;
      count_q     <= '0;
      tree_full_o <= '0;
    end else begin
      for (int unsigned t = 0; t < NumTrees; t++) begin
        logic a, r;
        logic [CntW-1:0] c;
        a = alloc_i && alloc_tree_i == TreeW'(t);
        r = rel && rel_tree == TreeW'(t);
        if (a) alloc_ptr_o[t] <= alloc_ptr_o[t] + 1'b1;
        if (r) free_ptr_o[t]  <= free_ptr_o[t] + 1'b1;
        c = count_q[t] + CntW'(a) - CntW'(r);
        count_q[t]     <= c;
        tree_full_o[t] <= c == CntW'(SlotsPerTree);
      end
      for (int unsigned k = 0; k < NumSlots; k++) begin
        if (alloc_i && {alloc_tree_i, alloc_ptr_o[alloc_tree_i]} == SlotW'(k)) used_q[k] <= 1'b1;
        if (rel && rel_slot == SlotW'(k)) used_q[k] <= 1'b0;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    for (int unsigned k = 0; k < NumSlots; k++) begin
      if (alloc_i && {alloc_tree_i, alloc_ptr_o[alloc_tree_i]} == SlotW'(k)) begin
        complete_q[k]    <= 1'b0;
      end else if (wr_valid_i && wr_slot_i == SlotW'(k)) begin
        complete_q[k] <= wr_last_i;
      end
    end
  end

  // ---------------------------------------------------------------- slot credits
  // Where each slot's packet came from: written when the slot is taken, read on release.
  wire logic [SlotW-1:0] alloc_slot = {alloc_tree_i, alloc_ptr_o[alloc_tree_i]};
  always_ff @(posedge clk_i) begin
    if (alloc_i) orig_q[alloc_slot] <= {alloc_credit_i, alloc_port_i};
  end
  wire logic [PortW:0]   rel_orig = orig_q[rel_slot];
  wire logic             rel_back = rel_orig[PortW];
  wire logic [PortW-1:0] rel_port = rel_orig[PortW-1:0];
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      slot_credit_valid_o <= '0;
      rel_valid_o         <= 1'b0;
    end else begin
      for (int unsigned p = 0; p < NumLinks; p++) begin
        slot_credit_valid_o[p] <= (rel && rel_back && rel_port == PortW'(p))
                                  || (drop_cr_valid_i && drop_cr_port_i == PortW'(p));
      end
      rel_valid_o <= rel;
    end
  end
  always_ff @(posedge clk_i) begin
    for (int unsigned p = 0; p < NumLinks; p++) begin
      slot_credit_tree_o[p] <= drop_cr_valid_i ? drop_cr_tree_i : TreeIdW'(rel_tree);
    end
    rel_slot_o <= rel_slot;
  end

  `CANOPY_ASSERT(a_alloc_free, !alloc_i || !tree_full_o[alloc_tree_i], "slot allocated in a full tree")
  `CANOPY_ASSERT(a_write_used, !wr_valid_i || used_q[wr_slot_i] || (alloc_i && alloc_slot == wr_slot_i),
                 "write into a free slot")
  `CANOPY_ASSERT(a_release_sane, !rel || (used_q[rel_slot] && complete_q[rel_slot]),
                 "released a slot that is free or still being written")
endmodule

`default_nettype wire
