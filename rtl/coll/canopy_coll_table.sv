// canopy_coll_table: the collective routing table, one entry per tree (seed 002): seed
// 000's Membership Table.
//
// Interface contract
//   - we_i / widx_i / wentry_i: write tree widx_i's entry. wok_o says, combinationally
//     from the same inputs, whether the write is accepted; a refused write (the entry
//     breaks a rule below, or widx_i >= NumTrees) leaves the table unchanged. The writer
//     counts refusals; this block only judges.
//   - ridx_i / rentry_o, lidx_i / lentry_o, l2idx_i / l2entry_o: three combinational read
//     ports (the CSR read-back, the collective unit's and the reduce engine's lookups); an
//     index beyond NumTrees reads as an invalid (all-zero) entry. Except on lentry_o: its
//     valid bit is as on the others, but its other fields come straight from the RAM, so
//     they are the entry's only while it is valid (after a reset, or for an index beyond
//     the table, they can be anything). lentry_o is read on the collective unit's arrival
//     path, which uses the fields only with the valid bit; gating them with it put the
//     16-way multiplexer of the valid flip-flops in front of every field (three more LUT
//     levels, the router's longest path).
// Write-time rules of 002 for a valid entry: ports name links of this torus (< 2*NumDims);
// a non-root entry's children lie in dimensions after its parent's dimension, or are the
// port opposite its parent (the ring continuing away from the root), never the parent's
// port itself; a transit node belongs to no group. An invalid entry clears the tree and
// is always accepted. The global conditions (one root, consistent parent/child pairs)
// span many routers: the fabric manager checks them (fw/).
//
// Storage: the valid bits in flip-flops (reset clears the table), the rest in distributed
// RAM with an asynchronous read, one copy per read port (no multiplexer tree over the
// entries): the whole word for the read-back port (it reads back as written), and for the
// two lookup ports the bits a valid entry can have set (root, transit, parent, the
// children of this torus's links, groups).
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
  localparam int unsigned TW       = NumTrees > 1 ? $clog2(NumTrees) : 1;
  localparam int unsigned DataW    = 1 + 1 + 4 + NumLinks + 8;   // {groups, children, parent, transit, root}

  `CANOPY_STATIC_ASSERT(gen_trees_check, NumTrees >= 1 && NumTrees <= canopy_pkg::MaxTrees,
                        "NumTrees must be 1..canopy_pkg::MaxTrees")

  // Whether an index names an entry. For a power-of-two table a test of the high bits:
  // a `<` against a constant becomes a carry chain on ECP5, and the lookups sit on the
  // collective unit's arrival path.
  localparam bit TreesPow2 = NumTrees > 1 && (NumTrees & (NumTrees - 1)) == 0;
  function automatic logic in_table(input logic [IdxW-1:0] idx);
    in_table = TreesPow2 ? (idx >> TW) == '0 : {1'b0, idx} < (IdxW + 1)'(NumTrees);
  endfunction

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


  assign wok_o = rules_ok && in_table(widx_i);
  wire logic do_write = we_i && wok_o;

  // Valid bits (reset) and the entries' other bits (three RAM copies, written alike). An
  // invalid entry's other bits are stored as zeros, so it reads back as written.
  logic [NumTrees-1:0] valid_q, written_q;   // written_q: since reset (else it reads as zeros)
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      valid_q   <= '0;
      written_q <= '0;
    end else if (do_write) begin
      for (int unsigned t = 0; t < NumTrees; t++) begin
        if (widx_i == IdxW'(t)) begin
          valid_q[t]   <= wentry_i.valid;
          written_q[t] <= 1'b1;
        end
      end
    end
  end

  wire logic [DataW-1:0] wdata =
      {wentry_i.groups, wentry_i.children[NumLinks-1:0], wentry_i.parent, wentry_i.transit, wentry_i.root};
  logic [31:0]      word_q [NumTrees];   // the read-back copy: the entry as written
  logic [DataW-1:0] mem1_q [NumTrees];
  logic [DataW-1:0] mem2_q [NumTrees];
  always_ff @(posedge clk_i) begin
    if (do_write) begin
      word_q[TW'(widx_i)] <= 32'(wentry_i);
      mem1_q[TW'(widx_i)] <= wdata;
      mem2_q[TW'(widx_i)] <= wdata;
    end
  end

  // The entry as the 32 bits of canopy_pkg::tree_entry_t: {rsvd, groups, children,
  // parent, transit, root, valid} (plain bits: this Yosys takes no struct-valued function).
  function automatic logic [31:0] entry(input logic v, input logic [DataW-1:0] d);
    entry = v ? {9'd0, d[6 + NumLinks +: 8], 8'(d[6 +: NumLinks]), d[5:2], d[1], d[0], 1'b1} : '0;
  endfunction
  // The same with the fields ungated: meaningful only when v.
  function automatic logic [31:0] entry_raw(input logic v, input logic [DataW-1:0] d);
    entry_raw = {9'd0, d[6 + NumLinks +: 8], 8'(d[6 +: NumLinks]), d[5:2], d[1], d[0], v};
  endfunction

  // Reads: an index beyond the table reads as an invalid entry.
  wire logic r_in  = in_table(ridx_i);
  wire logic l_in  = in_table(lidx_i);
  wire logic l2_in = in_table(l2idx_i);
  assign rentry_o  = canopy_pkg::tree_entry_t'(r_in && written_q[TW'(ridx_i)] ? word_q[TW'(ridx_i)] : 32'd0);
  assign lentry_o  = canopy_pkg::tree_entry_t'(entry_raw(l_in && valid_q[TW'(lidx_i)], mem1_q[TW'(lidx_i)]));
  assign l2entry_o = canopy_pkg::tree_entry_t'(entry(l2_in && valid_q[TW'(l2idx_i)], mem2_q[TW'(l2idx_i)]));

  `CANOPY_ASSERT(a_entries_legal, !(we_i && wok_o && wentry_i.valid && !wentry_i.root)
                                  || !wentry_i.children[wentry_i.parent[2:0]],
                 "accepted an entry with a child on its parent's port")
endmodule

`default_nettype wire
