// canopy_lrg_arbiter_formal: formal harness of canopy_lrg_arbiter
// (formal/canopy_lrg_arbiter.sby).
//
// req_i and advance_i are free, with the arbiter's input contract assumed: advance_i only
// with a grant (canopy_switch_alloc drives it with "any request", which is the same since
// the arbiter is work conserving). A grant is used when advance_i is high. Proven (every
// cycle out of reset):
//   - grant_o is one-hot or zero, and only to a requester;
//   - work conserving: a grant whenever there is a request;
//   - grant_idx_o is the index of the grant;
//   - no starvation, as a bounded safety property: waited_q[i] counts the grants other
//     requesters used while requester i kept requesting (cleared when i drops its request
//     or uses a grant); it never exceeds NumReq - 1, so a requester that keeps requesting
//     while grants are used is granted within NumReq grants. The covers show the bound
//     is reached, so it is tight;
//   - the arbiter's own `CANOPY_ASSERTs.
// Induction strengthening, through a tap on the priority matrix (formal/README.md): the
// "ranks before" relation is transitive (with the antisymmetry the matrix has by
// construction, a total order: there is always a first requester), and a waiting
// requester's wait plus the number of requesters ranked before it is at most NumReq - 1
// (each grant used by another requester while i waits moves one of those behind i).
`default_nettype none
`include "canopy_assert.svh"

module canopy_lrg_arbiter_formal #(
  parameter int unsigned NumReq = 4,  /// requesters, >= 2
  localparam int unsigned IdxW = $clog2(NumReq),
  localparam int unsigned CntW = $clog2(NumReq + 1) + 1
) (
  input wire logic              clk_i,
  input wire logic              rst_i,
  input wire logic [NumReq-1:0] req_i,
  input wire logic              advance_i
);
  logic [NumReq-1:0] grant_o;
  logic [IdxW-1:0]   grant_idx_o;
  canopy_lrg_arbiter #(.NumReq(NumReq)) dut (
    .clk_i, .rst_i, .req_i, .advance_i, .grant_o, .grant_idx_o
  );

  // Tap, driven by `connect` in the .sby: dut.before_q (only [j][k], j < k, is used).
  /* verilator lint_off UNDRIVEN */
  (* keep *) logic [NumReq-1:0][NumReq-1:0] tap_before;
  /* verilator lint_on UNDRIVEN */

  logic started_q = 1'b0;
  always_ff @(posedge clk_i) started_q <= 1'b1;
  always_comb if (!started_q) assume (rst_i);
  // The arbiter's input contract.
  always_comb if (!rst_i) assume (!advance_i || grant_o != '0);

  wire logic used = advance_i && grant_o != '0;

  `CANOPY_ASSERT(p_onehot0, (grant_o & (grant_o - 1'b1)) == '0, "grant not one-hot or zero")
  `CANOPY_ASSERT(p_requested, (grant_o & ~req_i) == '0, "grant without a request")
  `CANOPY_ASSERT(p_work_conserving, req_i == '0 || grant_o != '0, "requests but no grant")
  `CANOPY_ASSERT(p_index, grant_o == '0 || grant_o[grant_idx_o], "grant_idx_o is not the grant")

  // j ranks before k (the matrix keeps j < k; the other half is its negation).
  function automatic logic rb(input logic [NumReq-1:0][NumReq-1:0] m,
                              input int unsigned j, input int unsigned k);
    rb = j < k ? m[j][k] : !m[k][j];
  endfunction

  // Requesters ranked before each requester. "Ranks before" is antisymmetric by
  // construction; it is also transitive (a total order, so there is always a first
  // requester) exactly when these counts are all different (then they are 0..NumReq-1).
  logic [NumReq-1:0][CntW-1:0] ahead;
  always_comb begin
    for (int unsigned k = 0; k < NumReq; k++) begin
      ahead[k] = '0;
      for (int unsigned j = 0; j < NumReq; j++)
        if (j != k && rb(tap_before, j, k)) ahead[k] = ahead[k] + 1'b1;
    end
  end
  for (genvar j = 0; j < NumReq; j++) begin : gen_order
    for (genvar k = j + 1; k < NumReq; k++) begin : gen_pair
      `CANOPY_ASSERT(p_order, ahead[j] != ahead[k], "the priority matrix is not an order")
    end
  end

  logic [NumReq-1:0][CntW-1:0] waited_q;
  always_ff @(posedge clk_i) begin
    for (int unsigned i = 0; i < NumReq; i++) begin
      if (rst_i || !req_i[i] || (used && grant_o[i])) waited_q[i] <= '0;
      else if (used)                                  waited_q[i] <= waited_q[i] + 1'b1;
    end
  end

  for (genvar i = 0; i < NumReq; i++) begin : gen_fair
    `CANOPY_ASSERT(p_no_starvation, waited_q[i] <= CntW'(NumReq - 1),
                   "a requester waited more than NumReq - 1 grants")
    `CANOPY_ASSERT(p_wait_rank, !req_i[i] || waited_q[i] + ahead[i] <= CntW'(NumReq - 1),
                   "a waiting requester has more requesters ahead of it than its wait allows")
    // Reachability (`*_cover` tasks): requester i waits the whole NumReq - 1 grants, then
    // uses a grant.
    always_comb if (!rst_i) cover (req_i[i] && waited_q[i] == CntW'(NumReq - 1) && used && grant_o[i]);
  end
endmodule

`default_nettype wire
