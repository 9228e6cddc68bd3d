// canopy_coll_table: the collective routing table, one entry per tree (seed 002).
//
// Interface contract
//   - we_i / widx_i / wentry_i: write tree widx_i's entry. wok_o says, combinationally
//     from the same inputs, whether the write is accepted; a refused write (the entry
//     breaks a rule below, or widx_i >= NumTrees) leaves the table unchanged. The writer
//     counts refusals; this block only judges.
//   - ridx_i / rentry_o, lidx_i / lentry_o, l2idx_i / l2entry_o: three combinational read
//     ports (the CSR read-back, the collective unit's and the reduce engine's lookups); an index beyond NumTrees reads as an
//     invalid (all-zero) entry.
// Write-time rules of 002 for a valid entry: ports name links of this torus (< 2*NumDims);
// a non-root entry's children lie in dimensions after its parent's dimension, or are the
// port opposite its parent (the ring continuing away from the root), never the parent's
// port itself; a transit node belongs to no group. An invalid entry clears the tree and
// is always accepted. The global conditions (one root, consistent parent/child pairs)
// span many routers: the fabric manager checks them (fw/).
`default_nettype none
`include "canopy_assert.svh"

module canopy_coll_table #(
  parameter int unsigned NumDims  = 0,   /// torus dimensions, 1..4; must be set
  parameter int unsigned NumTrees = 16,  /// entries, 1..canopy_pkg::MaxTrees
  localparam int unsigned IdxW = canopy_pkg::HdrTreeBits
) (
  input  wire logic                      clk_i,
  input  wire logic                      rst_i,
  input  wire logic                      we_i,
  input  wire logic [IdxW-1:0]           widx_i,
  input  wire canopy_pkg::tree_entry_t   wentry_i,
  output logic                           wok_o,
  input  wire logic [IdxW-1:0]           ridx_i,
  output canopy_pkg::tree_entry_t        rentry_o,
  input  wire logic [IdxW-1:0]           lidx_i,
  output canopy_pkg::tree_entry_t        lentry_o,
  input  wire logic [IdxW-1:0]           l2idx_i,
  output canopy_pkg::tree_entry_t        l2entry_o
);
  localparam int unsigned NumLinks = 2 * NumDims;

  `CANOPY_STATIC_ASSERT(gen_trees_check, NumTrees >= 1 && NumTrees <= canopy_pkg::MaxTrees,
                        "NumTrees must be 1..canopy_pkg::MaxTrees")

  canopy_pkg::tree_entry_t table_q [NumTrees];

  // The write-time rules.
  logic rules_ok;
  always_comb begin
    logic [7:0] links;
    logic [2:0] parent_dim;
    links      = 8'((1 << NumLinks) - 1);
    parent_dim = wentry_i.parent[3:1];
    rules_ok   = 1'b1;
    if (wentry_i.valid) begin
      if ((wentry_i.children & ~links) != '0) rules_ok = 1'b0;
      if (wentry_i.transit && wentry_i.groups != '0) rules_ok = 1'b0;
      if (!wentry_i.root) begin
        if ({1'b0, wentry_i.parent} >= 5'(NumLinks)) rules_ok = 1'b0;
        for (int unsigned p = 0; p < 8; p++) begin
          if (wentry_i.children[p]) begin
            if (3'(p >> 1) <= parent_dim && 4'(p) != (wentry_i.parent ^ 4'd1)) rules_ok = 1'b0;
          end
        end
      end
    end
  end

  assign wok_o = rules_ok && {1'b0, widx_i} < (IdxW + 1)'(NumTrees);

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      for (int unsigned t = 0; t < NumTrees; t++) table_q[t] <= '0;
    end else if (we_i && wok_o) begin
      for (int unsigned t = 0; t < NumTrees; t++) begin
        if (widx_i == IdxW'(t)) table_q[t] <= wentry_i;
      end
    end
  end

  // Reads select by comparison (see canopy_router_input: no multipliers from indexing).
  always_comb begin
    rentry_o  = '0;
    lentry_o  = '0;
    l2entry_o = '0;
    for (int unsigned t = 0; t < NumTrees; t++) begin
      if (ridx_i == IdxW'(t))  rentry_o  = table_q[t];
      if (lidx_i == IdxW'(t))  lentry_o  = table_q[t];
      if (l2idx_i == IdxW'(t)) l2entry_o = table_q[t];
    end
  end

  `CANOPY_ASSERT(a_entries_legal, !(we_i && wok_o && wentry_i.valid && !wentry_i.root)
                                  || !wentry_i.children[wentry_i.parent[2:0]],
                 "accepted an entry with a child on its parent's port")
endmodule

`default_nettype wire
