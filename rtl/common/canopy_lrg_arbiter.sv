// canopy_lrg_arbiter: least-recently-granted (matrix) arbiter.
//
// Interface contract
//   - grant_o is one-hot (or zero when req_i is zero) and combinational in req_i.
//   - advance_i says the grant was used this cycle; only then does priority change: the
//     winner becomes the lowest-priority requester. A grant that was not used keeps its
//     priority (as canopy_rr_arbiter).
// Fairness: a requester that keeps requesting is served within NumReq used grants (each
// used grant puts its winner behind it).
// Why a matrix: prio_q[j][k] (j ranks before k) is kept for every pair, so a grant is one
// AND-OR over the other requests with no carry or prefix chain: two or three LUT levels
// for up to nine requesters, the shallowest round-robin-fair arbiter on an FPGA. The
// matrix is antisymmetric, only j < k is stored; the state is a few dozen flip-flops.
`default_nettype none
`include "canopy_assert.svh"

module canopy_lrg_arbiter #(
  parameter int unsigned NumReq = 0, /// requesters, >= 2; must be set
  localparam int unsigned IdxW = $clog2(NumReq)
) (
  input  wire logic              clk_i,
  input  wire logic              rst_i,
  input  wire logic [NumReq-1:0] req_i,
  input  wire logic              advance_i,
  output logic      [NumReq-1:0] grant_o,
  output logic      [IdxW-1:0]   grant_idx_o
);
  `CANOPY_STATIC_ASSERT(gen_numreq_check, NumReq >= 2, "NumReq must be at least 2")

  // before_q[j][k], j < k: requester j ranks before requester k. Out of reset the lower
  // index ranks first (as canopy_rr_arbiter's first grant).
  logic [NumReq-1:0][NumReq-1:0] before_q, before_d;

  function automatic logic ranks_before(input logic [NumReq-1:0][NumReq-1:0] m,
                                        input int unsigned j, input int unsigned k);
    ranks_before = j < k ? m[j][k] : !m[k][j];
  endfunction

  always_comb begin
    for (int unsigned k = 0; k < NumReq; k++) begin
      logic beaten;
      beaten = 1'b0;
      for (int unsigned j = 0; j < NumReq; j++) begin
        if (j != k) beaten = beaten || (req_i[j] && ranks_before(before_q, j, k));
      end
      grant_o[k] = req_i[k] && !beaten;
    end
    grant_idx_o = '0;
    for (int unsigned i = 0; i < NumReq; i++) begin
      if (grant_o[i]) grant_idx_o = IdxW'(i);
    end
  end

  // The winner goes behind everyone. (A block of its own: the grant must not depend on
  // advance_i, which is usually computed from the grant.)
  always_comb begin
    before_d = before_q;
    for (int unsigned j = 0; j < NumReq; j++) begin
      for (int unsigned k = j + 1; k < NumReq; k++) begin
        if (advance_i && grant_o[j]) before_d[j][k] = 1'b0;
        if (advance_i && grant_o[k]) before_d[j][k] = 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      before_q <= '0;
      for (int unsigned j = 0; j < NumReq; j++) begin
        for (int unsigned k = j + 1; k < NumReq; k++) before_q[j][k] <= 1'b1;
      end
    end else begin
      before_q <= before_d;
    end
  end

  `CANOPY_ASSERT(a_onehot, $onehot0(grant_o), "grant is not one-hot")
  `CANOPY_ASSERT(a_grant_requested, (grant_o & ~req_i) == '0, "grant without request")
  `CANOPY_ASSERT(a_grant_some, req_i == '0 || grant_o != '0, "requests but no grant")
  `CANOPY_ASSERT(a_advance_has_grant, !advance_i || grant_o != '0, "advance without a grant")
endmodule

`default_nettype wire
