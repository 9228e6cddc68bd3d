// canopy_rr_arbiter_formal: formal harness of canopy_rr_arbiter
// (formal/canopy_rr_arbiter.sby).
//
// req_i and advance_i are free, with the arbiter's input contract assumed: advance_i only
// with a grant. A grant is used when advance_i is high. Proven (every cycle out of
// reset):
//   - grant_o is one-hot or zero, and only to a requester;
//   - work conserving: a grant whenever there is a request;
//   - grant_idx_o is the index of the grant;
//   - no starvation, as a bounded safety property: waited_q[i] counts the grants other
//     requesters used while requester i kept requesting (cleared when i drops its request
//     or uses a grant); it never exceeds NumReq - 1, so a requester that keeps requesting
//     while grants are used is granted within NumReq grants. The covers show the bound
//     is reached, so it is tight;
//   - the arbiter's own `CANOPY_ASSERTs.
// Induction strengthening, through a tap on the priority mask (formal/README.md): the mask
// is all ones above the last winner, and a waiting requester's wait plus its distance
// from the round-robin pointer is at most NumReq - 1.
`default_nettype none
`include "canopy_assert.svh"

module canopy_rr_arbiter_formal #(
  parameter int unsigned NumReq = 4,  /// requesters
  localparam int unsigned IdxW = NumReq > 1 ? $clog2(NumReq) : 1,
  localparam int unsigned CntW = $clog2(NumReq + 1) + 1
) (
  input wire logic              clk_i,
  input wire logic              rst_i,
  input wire logic [NumReq-1:0] req_i,
  input wire logic              advance_i
);
  logic [NumReq-1:0] grant_o;
  logic [IdxW-1:0]   grant_idx_o;
  canopy_rr_arbiter #(.NumReq(NumReq)) dut (
    .clk_i, .rst_i, .req_i, .advance_i, .grant_o, .grant_idx_o
  );

  // Tap, driven by `connect` in the .sby: dut.prio_q.
  /* verilator lint_off UNDRIVEN */
  (* keep *) logic [NumReq-1:0] tap_prio;
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

  logic [NumReq-1:0][CntW-1:0] waited_q;
  always_ff @(posedge clk_i) begin
    for (int unsigned i = 0; i < NumReq; i++) begin
      if (rst_i || !req_i[i] || (used && grant_o[i])) waited_q[i] <= '0;
      else if (used)                                  waited_q[i] <= waited_q[i] + 1'b1;
    end
  end

  // The round-robin pointer: the lowest bit of the priority mask (0 if none), where the
  // next search starts.
  logic [IdxW-1:0] ptr;
  always_comb begin
    ptr = '0;
    for (int k = NumReq - 1; k >= 0; k--) begin
      if (tap_prio[k]) ptr = IdxW'(k);
    end
  end
  `CANOPY_ASSERT(p_prio_shape, !tap_prio[0] && ((tap_prio << 1) & ~tap_prio) == '0,
                 "priority mask is not the requesters above a winner")

  for (genvar i = 0; i < NumReq; i++) begin : gen_fair
    // Requesters the pointer passes before reaching i.
    wire logic [CntW-1:0] turn_dist = CntW'(i) >= CntW'(ptr)
                                      ? CntW'(i) - CntW'(ptr)
                                      : CntW'(i) + CntW'(NumReq) - CntW'(ptr);
    `CANOPY_ASSERT(p_no_starvation, waited_q[i] <= CntW'(NumReq - 1),
                   "a requester waited more than NumReq - 1 grants")
    `CANOPY_ASSERT(p_wait_distance, !req_i[i] || waited_q[i] + turn_dist <= CntW'(NumReq - 1),
                   "a waiting requester is further from its turn than its wait allows")
    // Reachability (`*_cover` tasks): requester i waits the whole NumReq - 1 grants, then
    // uses a grant.
    always_comb if (!rst_i) cover (req_i[i] && waited_q[i] == CntW'(NumReq - 1) && used && grant_o[i]);
  end
endmodule

`default_nettype wire
