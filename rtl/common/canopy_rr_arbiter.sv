// canopy_rr_arbiter: fair round-robin arbiter.
//
// Interface contract
//   - grant_o is one-hot (or zero when req_i is zero) and combinational in req_i.
//   - advance_i says the grant was used this cycle; only then does priority move, to the
//     requester just after the winner. A grant that was not used (the winner lost a later
//     stage) keeps its priority, so no requester can be starved by a downstream stage that
//     keeps refusing it while others are served.
// Fairness: with priority moving past each served winner, a requester that keeps
// requesting is served within NumReq grants.
`default_nettype none
`include "canopy_assert.svh"

module canopy_rr_arbiter #(
  parameter int unsigned NumReq = 0, /// requesters, >= 1; must be set
  localparam int unsigned IdxW = NumReq > 1 ? $clog2(NumReq) : 1
) (
  input  wire logic              clk_i,
  input  wire logic              rst_i,
  input  wire logic [NumReq-1:0] req_i,
  input  wire logic              advance_i,
  output logic      [NumReq-1:0] grant_o,
  output logic      [IdxW-1:0]   grant_idx_o
);

  `CANOPY_STATIC_ASSERT(gen_numreq_check, NumReq >= 1, "NumReq must be set")

  // prio_q marks the requesters that rank before the rest this cycle: those above the
  // last winner (a thermometer mask). Requests among them win first; if none, the lowest
  // request wins. Written as plain prefix ORs, not arithmetic: on an FPGA that maps to a
  // couple of LUT levels instead of a carry chain.
  logic [NumReq-1:0] prio_q, prio_d;

  function automatic logic [NumReq-1:0] lowest_set(input logic [NumReq-1:0] v);
    logic below;
    below = 1'b0;
    for (int unsigned k = 0; k < NumReq; k++) begin
      lowest_set[k] = v[k] && !below;
      below = below || v[k];
    end
  endfunction

  wire logic [NumReq-1:0] masked = req_i & prio_q;

  always_comb begin
    grant_o = (masked != '0) ? lowest_set(masked) : lowest_set(req_i);
    grant_idx_o = '0;
    for (int unsigned i = 0; i < NumReq; i++) begin
      if (grant_o[i]) grant_idx_o = IdxW'(i);
    end
  end

  // Everything strictly above the winner ranks first next time. (A block of its own: the
  // grant must not depend on advance_i, which is usually computed from the grant.)
  always_comb begin
    logic above;
    above  = 1'b0;
    prio_d = prio_q;
    if (advance_i && grant_o != '0) begin
      for (int unsigned k = 0; k < NumReq; k++) begin
        prio_d[k] = above;
        above = above || grant_o[k];
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) prio_q <= '0;
    else       prio_q <= prio_d;
  end

  `CANOPY_ASSERT(a_onehot, $onehot0(grant_o), "grant is not one-hot")
  `CANOPY_ASSERT(a_grant_requested, (grant_o & ~req_i) == '0, "grant without request")
  `CANOPY_ASSERT(a_advance_has_grant, !advance_i || grant_o != '0, "advance without a grant")
endmodule

`default_nettype wire
