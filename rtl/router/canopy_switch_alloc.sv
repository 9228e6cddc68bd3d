// canopy_switch_alloc: the router's second pipeline stage: which staged flit each output
// takes this cycle.
//
// Interface contract (combinational, plus the arbiters' priority registers)
//   - Requesters of output o: every input port's staged flit (in_tgt_i[i]: its output,
//     one-hot, all zero when the input has none; in_port_i[i] the same encoded; in_hi_i[i]
//     bit 0 of its output VC; in_head_i[i]: a head), the collective unit's send lane of
//     output o (lane_valid_i[o], VC COLL_DOWN) and, on link outputs, its up lane
//     (up_valid_i, output up_tgt_i, VC COLL_UP). Requester index: input i = i, the lane =
//     NumPorts, the up lane = NumPorts+1. An input's flit leaves a port on P2P_LO/P2P_HI and
//     enters the collective port on COLL_UP/COLL_DOWN: the two VCs an output takes input
//     traffic on differ in bit 0.
//   - avail_i[o][c]: output o's VC c has a credit for a flit granted now; busy_i[o][c]: a
//     packet owns it (canopy_output_vc_state).
//   - A request is eligible when its output VC has a credit and, for an input's head flit,
//     no packet owns that VC. (A body flit can only be at the front of its VC after its head
//     took the output VC, and the collective lanes are the only senders on their VCs there,
//     so neither needs the ownership check.)
//   - grant_o[o]: one-hot over the requesters (or zero), round robin among the eligible
//     ones; priority moves past the winner whenever the output sends.
//   - in_elig_o[i] / in_won_o[i]: input i's request was eligible / granted. lane_grant_o[o],
//     up_grant_o: the lanes were granted.
// Invariants (asserted; the formal proof in formal/ covers them): at most one grant per
// output, at most one output per requester, no grant without a credit, no head granted onto
// an owned VC. A link input never targets its own port (dimension-order routes never turn
// back), so that pair is left out of the arbiter; the other turns dimension order never
// takes are constant-zero requests already (canopy_router_input's TurnOk).
`default_nettype none
`include "canopy_assert.svh"

module canopy_switch_alloc #(
  parameter int unsigned NumDims = 0,  /// torus dimensions, 1..4; must be set
  parameter int unsigned NumVcs  = 4,  /// VCs per link
  localparam int unsigned NumPorts = 2 * NumDims + 1,
  localparam int unsigned NumOut = NumPorts + 1,
  localparam int unsigned NumReq = NumPorts + 2,
  localparam int unsigned PortW = $clog2(NumOut)
) (
  input  wire logic                              clk_i,
  input  wire logic                              rst_i,
  input  wire logic [NumPorts-1:0][NumOut-1:0]   in_tgt_i,
  input  wire logic [NumPorts-1:0][PortW-1:0]    in_port_i,
  input  wire logic [NumPorts-1:0]               in_hi_i,
  input  wire logic [NumPorts-1:0]               in_head_i,
  input  wire logic [NumPorts-1:0]               lane_valid_i,
  input  wire logic                              up_valid_i,
  input  wire logic [NumOut-1:0]                 up_tgt_i,
  input  wire logic [NumOut-1:0][NumVcs-1:0]     avail_i,
  input  wire logic [NumOut-1:0][NumVcs-1:0]     busy_i,
  output logic      [NumOut-1:0][NumReq-1:0]     grant_o,
  output logic      [NumOut-1:0][$clog2(NumReq)-1:0] grant_idx_o,
  output logic      [NumPorts-1:0]               in_elig_o,
  output logic      [NumPorts-1:0]               in_won_o,
  output logic      [NumPorts-1:0]               lane_grant_o,
  output logic                                   up_grant_o
);
  localparam int unsigned NumLinks = 2 * NumDims;
  localparam int unsigned LaneReq  = NumPorts;
  localparam int unsigned UpReq    = NumPorts + 1;

  `CANOPY_STATIC_ASSERT(gen_dims_check, NumDims >= 1 && NumDims <= canopy_pkg::MaxDims,
                        "NumDims must be 1..4")

  logic [NumOut-1:0][NumReq-1:0] req;

  // Per output, whether each of its two input VCs can take a head / a body flit now.
  logic [NumOut-1:0][1:0] ok_head, ok_body;
  always_comb begin
    for (int unsigned o = 0; o < NumOut; o++) begin
      for (int unsigned b = 0; b < 2; b++) begin
        logic [1:0] c;
        c = 2'(o == NumPorts ? canopy_pkg::VcCollUp : canopy_pkg::VcP2pLo) + 2'(b);
        ok_body[o][b] = avail_i[o][c];
        ok_head[o][b] = avail_i[o][c] && !busy_i[o][c];
      end
    end
  end

  always_comb begin
    req = '0;
    for (int unsigned o = 0; o < NumOut; o++) begin
      for (int unsigned i = 0; i < NumPorts; i++) begin
        if (!(i < NumLinks && i == o)) begin
          req[o][i] = in_tgt_i[i][o] && (in_head_i[i] ? ok_head[o][in_hi_i[i]] : ok_body[o][in_hi_i[i]]);
        end
      end
      if (o < NumPorts) req[o][LaneReq] = lane_valid_i[o] && avail_i[o][canopy_pkg::VcCollDown];
      if (o < NumLinks) req[o][UpReq]   = up_valid_i && up_tgt_i[o] && avail_i[o][canopy_pkg::VcCollUp];
    end
  end

  for (genvar o = 0; o < NumOut; o++) begin : gen_arb
    canopy_lrg_arbiter #(.NumReq(NumReq)) u_arb (
      .clk_i,
      .rst_i,
      .req_i       (req[o]),
      .advance_i   (req[o] != '0),
      .grant_o     (grant_o[o]),
      .grant_idx_o (grant_idx_o[o])
    );
  end

  // An input names one output (in_port_i, a register): it won if that output's arbiter
  // chose it, a multiplexer on a registered select.
  always_comb begin
    in_elig_o = '0;
    for (int unsigned i = 0; i < NumPorts; i++) begin
      in_won_o[i] = 1'b0;
      for (int unsigned o = 0; o < NumOut; o++) begin
        in_elig_o[i] = in_elig_o[i] || req[o][i];
        if (in_port_i[i] == PortW'(o)) in_won_o[i] = grant_o[o][i];
      end
    end
    up_grant_o = 1'b0;
    for (int unsigned o = 0; o < NumOut; o++) up_grant_o = up_grant_o || grant_o[o][UpReq];
    for (int unsigned o = 0; o < NumPorts; o++) lane_grant_o[o] = grant_o[o][LaneReq];
  end

  // Each input's grants across the outputs: at most one, since it names one output.
  logic [NumPorts-1:0][NumOut-1:0] won_at;
  always_comb begin
    for (int unsigned i = 0; i < NumPorts; i++) begin
      for (int unsigned o = 0; o < NumOut; o++) won_at[i][o] = grant_o[o][i];
    end
  end
  for (genvar i = 0; i < NumPorts; i++) begin : gen_in_checks
    `CANOPY_ASSERT(a_one_target, $onehot0(in_tgt_i[i]), "a request names more than one output")
    `CANOPY_ASSERT(a_port_matches, in_tgt_i[i] == '0 || in_tgt_i[i][in_port_i[i]], "encoded and one-hot outputs disagree")
    `CANOPY_ASSERT(a_won_once, $onehot0(won_at[i]), "one input granted two outputs")
  end
  for (genvar o = 0; o < NumOut; o++) begin : gen_out_checks
    `CANOPY_ASSERT(a_one_grant, $onehot0(grant_o[o]), "two requesters granted one output")
  end
  `CANOPY_ASSERT(a_up_target, !up_valid_i || $onehot(up_tgt_i[NumLinks-1:0]) && up_tgt_i[NumOut-1:NumLinks] == '0,
                 "the up lane names not one link")
endmodule

`default_nettype wire
