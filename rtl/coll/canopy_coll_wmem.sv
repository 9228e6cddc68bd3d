// canopy_coll_wmem: the collective unit's Working Memory (seed 000): NumTrees x
// SlotsPerTree slots of one packet each, allocated per tree in ring order and released in
// the same order once every output has sent the packet; the release gives the parent its
// slot credit back.
//
// Interface contract
//   - alloc_i (combinational, from the receive scheduler): take the next slot of tree
//     alloc_tree_i, i.e. slot {tree, alloc_ptr_o[tree]}; only while !tree_full_o[tree]
//     (asserted). alloc_port_i / alloc_credit_i: the router input the packet came from and
//     whether that neighbour gets a slot credit back on release.
//   - alloc_ptr_o, free_ptr_o, tree_full_o: registered per-tree ring state (free_ptr_o[t]:
//     the tree's oldest slot while any is in use).
//   - wr_* (registered by the writer): word wr_idx_i of slot wr_slot_i; words_o / complete_o
//     (registered per slot) count the words written and say the tail is in. A word at
//     index >= SlotWords (34) is not stored (it only counts the tail).
//   - rd0_*, rd1_*: two read ports with registered data (the link lanes' and the local
//     lane's), each a copy of the memory, addressed with ram_addr() below; rdN_data_o is
//     valid the cycle after rdN_en_i and held otherwise. A read issued the cycle after a
//     word's write sees it.
//   - done_i[s]: slot s has been decided and every output has sent it (descriptor queue).
//     A tree's oldest slot is released once it is used, complete and done: one release per
//     cycle (round robin over the trees), reported on rel_valid_o / rel_slot_o (registered).
//   - slot_credit_*_o (registered): per link port, (valid, tree): a slot of that tree,
//     filled by a packet from that port, is free again; or a refused broadcast's credit
//     (drop_cr_*_i, which takes the cycle: releases wait).
//
// Layout, no multiplier: a slot's two header words at HdrBase + {slot, idx[0]}, its 32
// payload words at {slot, idx - 2}. One simple dual-port RAM per read port (block RAM).
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
  output logic      [NumSlots-1:0][IdxW-1:0]   words_o,
  output logic      [NumSlots-1:0]             complete_o,

  input  wire logic                            rd0_en_i,
  input  wire logic [AddrW-1:0]                rd0_addr_i,
  output logic      [63:0]                     rd0_data_o,
  input  wire logic                            rd1_en_i,
  input  wire logic [AddrW-1:0]                rd1_addr_i,
  output logic      [63:0]                     rd1_data_o,

  input  wire logic [NumSlots-1:0]             done_i,
  output logic                                 rel_valid_o,
  output logic      [SlotW-1:0]                rel_slot_o,

  input  wire logic                            drop_cr_valid_i,
  input  wire logic [PortW-1:0]                drop_cr_port_i,
  input  wire logic [TreeIdW-1:0]              drop_cr_tree_i,
  output logic      [NumLinks-1:0]             slot_credit_valid_o,
  output logic      [NumLinks-1:0][TreeIdW-1:0] slot_credit_tree_o
);
  localparam int unsigned SlotWords = canopy_pkg::HeaderBits / 64 + canopy_pkg::MaxPayloadBytes / 8;
  localparam int unsigned CntW      = $clog2(SlotsPerTree + 1);
  localparam int unsigned Depth     = (NumSlots << 5) + (NumSlots << 1);

  `CANOPY_STATIC_ASSERT(gen_words_check, SlotWords == 34, "the layout assumes 2 header + 32 payload words")
  `CANOPY_STATIC_ASSERT(gen_trees_check, NumTrees >= 2 && (NumTrees & (NumTrees - 1)) == 0,
                        "NumTrees must be a power of two >= 2")

  // Word idx of a slot in the RAM (also used by canopy_coll_send_sched: keep them alike).
  function automatic logic [AddrW-1:0] ram_addr(input logic [SlotW-1:0] s, input logic [IdxW-1:0] i);
    logic [4:0] p;
    p = 5'(i - IdxW'(2));
    ram_addr = i < IdxW'(2) ? {1'b1, 4'b0, s, i[0]} : {1'b0, s, p};
  endfunction

  // ---------------------------------------------------------------- RAM copies
  logic [1:0][63:0] rdata;
  wire logic wr_store = wr_valid_i && wr_idx_i < IdxW'(SlotWords);
  wire logic [AddrW-1:0] waddr = ram_addr(wr_slot_i, wr_idx_i);
  for (genvar c = 0; c < 2; c++) begin : gen_ram
    canopy_sdp_ram #(.Width(64), .Depth(Depth)) u_ram (
      .clk_i,
      .we_i    (wr_store),
      .waddr_i (waddr),
      .wdata_i (wr_data_i),
      .re_i    (c == 0 ? rd0_en_i : rd1_en_i),
      .raddr_i (c == 0 ? rd0_addr_i : rd1_addr_i),
      .rdata_o (rdata[c])
    );
  end
  assign rd0_data_o = rdata[0];
  assign rd1_data_o = rdata[1];

  // ---------------------------------------------------------------- per-slot state
  logic [NumSlots-1:0]            used_q, credit_back_q;
  logic [NumSlots-1:0][PortW-1:0] inport_q;
  logic [NumTrees-1:0][CntW-1:0]  count_q;

  // Release: registered requests (a tree's oldest slot used, complete and done), masked
  // for the tree released last cycle (its request was computed before that release).
  logic [NumTrees-1:0] rel_req_q, rel_grant, last_rel_q;
  logic [TreeW-1:0]    rel_tree;
  logic                rel;
  logic [NumTrees-1:0] rel_req_d;
  always_comb begin
    for (int unsigned t = 0; t < NumTrees; t++) begin
      logic [SlotW-1:0] s;
      s = {TreeW'(t), free_ptr_o[t]};
      rel_req_d[t] = used_q[s] && complete_o[s] && done_i[s];
    end
  end
  wire logic [NumTrees-1:0] rel_req = rel_req_q & ~last_rel_q;
  assign rel = rel_req != '0 && !drop_cr_valid_i;
  canopy_rr_arbiter #(.NumReq(NumTrees)) u_rel_arb (
    .clk_i,
    .rst_i,
    .req_i       (rel_req),
    .advance_i   (rel),
    .grant_o     (rel_grant),
    .grant_idx_o (rel_tree)
  );
  wire logic [SlotW-1:0] rel_slot = {rel_tree, free_ptr_o[rel_tree]};

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      rel_req_q  <= '0;
      last_rel_q <= '0;
    end else begin
      rel_req_q  <= rel_req_d;
      last_rel_q <= rel ? rel_grant : '0;
    end
  end

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
        r = rel && rel_grant[t];
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
        words_o[k]       <= '0;
        complete_o[k]    <= 1'b0;
        inport_q[k]      <= alloc_port_i;
        credit_back_q[k] <= alloc_credit_i;
      end else if (wr_valid_i && wr_slot_i == SlotW'(k)) begin
        if (wr_idx_i < IdxW'(SlotWords)) words_o[k] <= wr_idx_i + 1'b1;
        complete_o[k] <= wr_last_i;
      end
    end
  end

  // ---------------------------------------------------------------- slot credits
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      slot_credit_valid_o <= '0;
      rel_valid_o         <= 1'b0;
    end else begin
      for (int unsigned p = 0; p < NumLinks; p++) begin
        slot_credit_valid_o[p] <= (rel && credit_back_q[rel_slot] && inport_q[rel_slot] == PortW'(p))
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
  `CANOPY_ASSERT(a_write_used, !wr_valid_i || used_q[wr_slot_i], "write into a free slot")
  `CANOPY_ASSERT(a_release_sane, !rel || (used_q[rel_slot] && complete_o[rel_slot]),
                 "released a slot that is free or still being written")
endmodule

`default_nettype wire
