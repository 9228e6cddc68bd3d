// canopy_ack_table: acknowledgements owed, counted per source node, and the generator that
// sends them as ACK packets.
//
// Interface contract
//   - inc_valid_i: one owed acknowledgement (at most one per cycle, never refused, never
//     waited for) of a put from the node at coordinates inc_src_i: completed (inc_ok_i)
//     or refused. It is counted in the table entry of the source's linear id
//     x + kx*(y + ky*(z + kz*w)) (sizes from torus_size_i), which must be below MaxNodes
//     (asserted: a torus larger than the table is a configuration error; beyond it the
//     acknowledgement is lost). An acknowledgement owed to coordinates outside the torus
//     (a corrupt source field) is dropped. Each entry counts the acknowledged puts, refused
//     ones included, and the refused subset; both saturate at 2^20-1, never wrap.
//   - out_*: ACK packets, valid/ready, 2 flits each on VC P2P_HI: header word 0 (ptype
//     ACK, dst = the source's coordinates, src = my_coord_i, len 0), word 1 (offset =
//     {refused[19:0], acknowledged[19:0]}, docs/packet-format.md). One packet per source
//     with a nonzero entry; the entry is cleared as the generator takes it, and counts
//     arriving meanwhile go into a later packet.
//   - busy_o: acknowledgements owed or being sent.
//
// Structure: the table is a simple dual-port RAM (one synchronous read, one write) of
// {coords, refused, acknowledged} plus a register bit per entry saying it is nonzero (so the
// RAM needs no reset). Operations go through a two-stage pipeline, one per cycle: stage A
// picks an increment (always first) or, when the generator is idle, a fetch of the next
// nonzero entry (round-robin) and reads the RAM; stage B forwards the previous cycle's
// write if it hit the same entry, then writes the increment back or hands the entry to the
// generator and clears it.
`default_nettype none
`include "canopy_assert.svh"

module canopy_ack_table #(
  parameter int unsigned MaxNodes = 256, /// table entries (nodes of the torus), a power of two, 4..4096
  parameter int unsigned NumVcs   = 4,   /// VCs of the router's local port
  localparam int unsigned VcW = $clog2(NumVcs)
) (
  input  wire logic                                                    clk_i,
  input  wire logic                                                    rst_i,
  input  wire canopy_pkg::coords_t                                     my_coord_i,
  input  wire logic [canopy_pkg::MaxDims-1:0][canopy_pkg::CoordBits:0] torus_size_i,

  input  wire logic                                                    inc_valid_i,
  input  wire logic                                                    inc_ok_i,
  input  wire canopy_pkg::coords_t                                     inc_src_i,

  output logic                                                         out_valid_o,
  input  wire logic                                                    out_ready_i,
  output logic      [63:0]                                             out_flit_o,
  output logic                                                         out_last_o,
  output logic      [VcW-1:0]                                          out_vc_o,
  output logic                                                         busy_o
);
  localparam int unsigned IdW = $clog2(MaxNodes);
  // Nonzero entries are picked by a two-level round-robin (groups, then entries within the
  // group), which keeps every arbiter at most 64 wide: a flat 256-wide one is a long
  // ripple chain (and more than Yosys's ABC9 flow can walk).
  localparam int unsigned InW = (IdW + 1) / 2;
  localparam int unsigned GrpW = IdW - InW;
  localparam int unsigned GroupSize = 1 << InW;
  localparam int unsigned NumGroups = 1 << GrpW;
  localparam int unsigned CntW = canopy_host_pkg::AckCountBits;
  localparam int unsigned EntryW = canopy_pkg::HdrSrcBits + 2 * CntW;

  `CANOPY_STATIC_ASSERT(gen_nodes_check, MaxNodes >= 4 && MaxNodes <= 4096
                        && (MaxNodes & (MaxNodes - 1)) == 0,
                        "MaxNodes must be a power of two, 4..4096")

  typedef struct packed {
    canopy_pkg::coords_t src;
    logic [CntW-1:0]     failed;
    logic [CntW-1:0]     count;
  } entry_t;

  // ---------------------------------------------------------------- event register
  logic             ev_valid_q, ev_ok_q;
  logic [IdW-1:0]   ev_id_q;
  canopy_pkg::coords_t ev_src_q;
  logic [IdW-1:0]   inc_id;
  logic             inc_id_ok, inc_in_torus;
  canopy_node_index #(.MaxNodes(MaxNodes)) u_inc_idx (
    .clk_i,
    .coord_i      (inc_src_i),
    .torus_size_i,
    .idx_o        (inc_id),
    .ok_o         (inc_id_ok),
    .in_torus_o   (inc_in_torus)
  );

  // A source outside the torus (a corrupt header) would alias another node's entry: its
  // acknowledgement is dropped (the router would refuse the ACK packet anyway).
  always_ff @(posedge clk_i) begin
    if (rst_i) ev_valid_q <= 1'b0;
    else       ev_valid_q <= inc_valid_i && inc_id_ok;
  end
  always_ff @(posedge clk_i) begin
    ev_ok_q  <= inc_ok_i;
    ev_id_q  <= inc_id;
    ev_src_q <= inc_src_i;
  end

  // ---------------------------------------------------------------- stage A
  typedef enum logic [1:0] { GIdle, GFetch, GHead, GTail } gstate_e;
  gstate_e gstate_q, gstate_d;

  logic [MaxNodes-1:0] nz_q, nz_d;      // entry is nonzero
  logic [IdW-1:0]      nz_idx;
  logic                a_inc, a_fetch;
  logic [IdW-1:0]      a_id;

  // The round-robin pick takes two registered stages (each group's choice and which groups
  // are nonzero, then the choice among groups) so that the RAM address and the fetch decision
  // start at flip-flops, not behind two levels of 16-wide arbiters and a 16-way index mux.
  // The pick is never stale in GIdle: the only clear of an nz_q bit is a fetch's stage B,
  // seen in nz_q two cycles after the fetch (cycle t + 2), and the next fetch is four cycles
  // after it at the earliest (GFetch, GHead, GTail between), with a pick that went through
  // both stages from that cycle's nz_q on. An entry that became nonzero since the pick may
  // win an arbiter in the fetch cycle instead; that arbiter then moves its priority past the
  // entry once without serving it, which delays it by at most one round (it stays nonzero
  // until fetched).
  logic [NumGroups-1:0]            grp_nz, grp_grant;
  logic [GrpW-1:0]                 grp_idx;
  logic [NumGroups-1:0][InW-1:0]   in_idx;
  logic [NumGroups-1:0][InW-1:0]   in_idx_q;
  logic [NumGroups-1:0]            grp_nz_q;
  logic [IdW-1:0]                  pick_q;
  logic                            pick_v_q;
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      grp_nz_q <= '0;
      pick_v_q <= 1'b0;
    end else begin
      grp_nz_q <= grp_nz;
      pick_v_q <= grp_nz_q != '0;
    end
  end
  always_ff @(posedge clk_i) begin
    in_idx_q <= in_idx;
    pick_q   <= nz_idx;
  end

  assign a_inc   = ev_valid_q;
  assign a_fetch = !ev_valid_q && gstate_q == GIdle && pick_v_q;
  assign a_id    = a_inc ? ev_id_q : pick_q;

  for (genvar g = 0; g < NumGroups; g++) begin : gen_group
    logic [GroupSize-1:0] in_grant;
    assign grp_nz[g] = nz_q[g*GroupSize +: GroupSize] != '0;
    canopy_rr_arbiter #(.NumReq(GroupSize)) u_pick_in (
      .clk_i,
      .rst_i,
      .req_i       (nz_q[g*GroupSize +: GroupSize]),
      .advance_i   (a_fetch && pick_q[IdW-1 -: GrpW] == GrpW'(g)),
      .grant_o     (in_grant),
      .grant_idx_o (in_idx[g])
    );
    wire logic unused_in_grant = ^in_grant;
  end

  canopy_rr_arbiter #(.NumReq(NumGroups)) u_pick_group (
    .clk_i,
    .rst_i,
    .req_i       (grp_nz_q),
    .advance_i   (a_fetch),
    .grant_o     (grp_grant),
    .grant_idx_o (grp_idx)
  );
  wire logic unused_grp_grant = ^grp_grant;
  assign nz_idx = {grp_idx, in_idx_q[grp_idx]};

  logic [EntryW-1:0] ram_q [MaxNodes];
  entry_t rdata_q;
  logic   b_valid_q, b_fetch_q, b_ok_q;
  logic   b_fwd_q, b_nz_q;     // stage B's forwarding choice, worked out in stage A
  logic [IdW-1:0] b_id_q;
  canopy_pkg::coords_t b_src_q;

  always_ff @(posedge clk_i) begin
    if (a_inc || a_fetch) rdata_q <= entry_t'(ram_q[a_id]);
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) b_valid_q <= 1'b0;
    else       b_valid_q <= a_inc || a_fetch;
  end
  // Stage B takes last cycle's result (forwarding) when stage B, one cycle ahead, is working
  // on the same entry now; otherwise the RAM word if the entry is nonzero, else zero. Both
  // choices are made here, a cycle early, so stage B starts from flip-flops, not from an
  // index compare and a 256-way pick of nz_q.
  always_ff @(posedge clk_i) begin
    b_fwd_q   <= b_valid_q && b_id_q == a_id;
    b_nz_q    <= nz_q[a_id];
    b_fetch_q <= a_fetch;
    b_ok_q    <= ev_ok_q;
    b_id_q    <= a_id;
    b_src_q   <= ev_src_q;
  end

  // ---------------------------------------------------------------- stage B
  logic   fw_valid_q;                  // last cycle's stage-B result (checked against b_fwd_q)
  logic [IdW-1:0] fw_id_q;
  entry_t fw_q, old, upd, zero, gen_q;
  logic   b_inc, b_fetch, ram_we;

  function automatic logic [CntW-1:0] sat_inc(input logic [CntW-1:0] v);
    sat_inc = (&v) ? v : v + 1'b1;
  endfunction

  always_comb begin
    zero        = '0;
    b_inc       = b_valid_q && !b_fetch_q;
    b_fetch     = b_valid_q && b_fetch_q;
    old         = b_fwd_q ? fw_q : b_nz_q ? rdata_q : zero;
    upd         = old;
    upd.src     = b_src_q;
    upd.count   = sat_inc(old.count);            // every put acknowledged
    upd.failed  = b_ok_q ? old.failed : sat_inc(old.failed);
    ram_we      = b_inc;
    nz_d        = nz_q;
    if (b_inc)   nz_d[b_id_q] = 1'b1;
    if (b_fetch) nz_d[b_id_q] = 1'b0;
  end

  always_ff @(posedge clk_i) begin
    if (ram_we) ram_q[b_id_q] <= EntryW'(upd);
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      nz_q       <= '0;
      fw_valid_q <= 1'b0;
    end else begin
      nz_q       <= nz_d;
      fw_valid_q <= b_valid_q;
    end
  end
  always_ff @(posedge clk_i) begin
    fw_id_q <= b_id_q;
    fw_q    <= b_inc ? upd : zero;
    if (b_fetch) gen_q <= old;
  end

  // ---------------------------------------------------------------- generator
  canopy_pkg::hdr_t hdr;
  always_comb begin
    hdr         = '0;
    hdr.ptype   = canopy_pkg::PKT_ACK;
    hdr.dst     = gen_q.src;
    hdr.src     = my_coord_i;
    hdr.offset  = {gen_q.failed, gen_q.count};
    gstate_d    = gstate_q;
    unique case (gstate_q)
      GIdle:  if (a_fetch) gstate_d = GFetch;
      GFetch: gstate_d = GHead;           // the entry is in gen_q from the next cycle
      GHead:  if (out_ready_i) gstate_d = GTail;
      GTail:  if (out_ready_i) gstate_d = GIdle;
      default: gstate_d = GIdle;
    endcase
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) gstate_q <= GIdle;
    else       gstate_q <= gstate_d;
  end

  assign out_valid_o = gstate_q == GHead || gstate_q == GTail;
  assign out_flit_o  = gstate_q == GTail ? hdr[127:64] : hdr[63:0];
  assign out_last_o  = gstate_q == GTail;
  assign out_vc_o    = VcW'(canopy_pkg::VcP2pHi);
  assign busy_o      = nz_q != '0 || gstate_q != GIdle || ev_valid_q || b_valid_q;

  `CANOPY_ASSERT(a_src_in_table, !(inc_valid_i && inc_in_torus) || inc_id_ok,
                 "ACK owed to a node beyond MaxNodes: the torus is larger than the table")
  `CANOPY_ASSERT(a_fetch_nonzero, !b_fetch || (old.count != '0 && old.failed <= old.count),
                 "fetched an empty ACK table entry")
  `CANOPY_ASSERT(a_fwd_early, !b_valid_q || b_fwd_q == (fw_valid_q && fw_id_q == b_id_q),
                 "stage A's forwarding choice disagrees with stage B's")
  `CANOPY_ASSERT(a_nz_early, !b_valid_q || b_fwd_q || b_nz_q == nz_q[b_id_q],
                 "stage A's nonzero bit disagrees with stage B's")
  `CANOPY_ASSERT(a_pick_nonzero, !a_fetch || nz_q[pick_q], "the registered pick went stale")
  `CANOPY_ASSERT(a_fetch_when_idle, !b_fetch || gstate_q == GFetch, "fetch without the generator")
endmodule

`default_nettype wire
