// canopy_switch_alloc_formal: formal harness of the router's switch allocation
// (formal/canopy_switch_alloc.sby): canopy_switch_alloc (per-output canopy_lrg_arbiters)
// with one canopy_output_vc_state per output (credit counters, VC ownership), wired as
// canopy_router wires them.
//
// Between them, as in canopy_router: canopy_grant_vc (per output, the VC, one-hot, and
// framing of the flit granted) and the register of what each output sends the next cycle
// (sent_oh_q), which spends a credit.
//
// Free inputs, under the input contracts canopy_switch_alloc and canopy_router_input
// state (assumed):
//   - each input's request names at most one output, in one-hot and encoded form alike,
//     and the output VC it must leave on: P2P_LO/P2P_HI (bit 0 = in_hi) toward a port,
//     COLL_UP/COLL_DOWN toward the collective port;
//   - an input's body flit (not a head) requests only an output VC its own packet holds:
//     in the model below, one that input's head took and its tail has not yet freed (the
//     input keeps a packet's body on its head's output VC);
//   - the up lane names one link; the lanes' flits and framing are otherwise free;
//   - a credit comes back on (output, VC) only for a flit sent on it in an earlier cycle
//     and not yet credited (zero-delay link and receiver that frees slots at any time).
// Model: per output VC, the flits sent and not yet credited (outstanding_q), and whether a
// packet owns it and which requester (owned_q, owner_q): a flit granted that is not a tail
// takes it, a tail frees it.
// Proven (every cycle out of reset), for every output o, requester r, VC c:
//   - p_out_onehot: at most one requester granted per output;
//   - p_in_once: each input (and the up lane) granted at most one output;
//   - p_requested: only a requester is granted (an input on the output it names, a lane
//     that is valid, the up lane on its link); in_won_o / lane_grant_o / up_grant_o
//     report the grants, and an input wins only when in_elig_o says it is eligible;
//   - p_credit: a grant on (o, c) has a credit beyond the flits granted before it:
//     outstanding + the flit sent now < Credits; p_outstanding: never more than Credits
//     flits in flight (the receiver never overflows); p_count: the output's credit count
//     is Credits minus the flits in flight (credits neither lost nor invented);
//   - p_busy: busy_o of the output state is exactly "a packet owns this VC";
//   - p_head_free: an input's head is granted only onto a VC no packet owns;
//   - p_vc_kept: while a packet owns (o, c), every flit granted on (o, c) is its owner's:
//     a packet keeps its output VC from head to tail, no other flit is interleaved;
//   - every `CANOPY_ASSERT of the allocator, the arbiters, the output states and credit
//     counters.
// Induction strengthening through taps (formal/README.md): each credit counter's count
// (p_count), each arbiter's priority matrix is an order (p_arb_order, as in
// canopy_lrg_arbiter_formal), an owner is a requester that can send on that VC
// (p_owner_kind).
`default_nettype none
`include "canopy_assert.svh"

module canopy_switch_alloc_formal #(
  parameter int unsigned NumDims = 1,  /// torus dimensions
  parameter int unsigned Credits = 2,  /// credits per output VC (every output alike)
  localparam int unsigned NumVcs   = 4,
  localparam int unsigned NumPorts = 2 * NumDims + 1,
  localparam int unsigned NumLinks = 2 * NumDims,
  localparam int unsigned NumOut   = NumPorts + 1,
  localparam int unsigned NumReq   = NumPorts + 2,
  localparam int unsigned CollPort = NumPorts,
  localparam int unsigned LaneReq  = NumPorts,
  localparam int unsigned UpReq    = NumPorts + 1,
  localparam int unsigned PortW    = $clog2(NumOut),
  localparam int unsigned ReqW     = $clog2(NumReq),
  localparam int unsigned VcW      = $clog2(NumVcs),
  localparam int unsigned CntW     = $clog2(Credits + 1),
  localparam int unsigned OutW     = CntW + 1
) (
  input wire logic                            clk_i,
  input wire logic                            rst_i,
  input wire logic [NumPorts-1:0][NumOut-1:0] in_tgt_i,
  input wire logic [NumPorts-1:0][PortW-1:0]  in_port_i,
  input wire logic [NumPorts-1:0][VcW-1:0]    in_vc_i,
  input wire logic [NumPorts-1:0]             in_hi_i,
  input wire logic [NumPorts-1:0]             in_head_i,
  input wire logic [NumPorts-1:0]             in_last_i,
  input wire logic [NumPorts-1:0]             lane_valid_i,
  input wire logic [NumPorts-1:0]             lane_last_i,
  input wire logic                            up_valid_i,
  input wire logic                            up_last_i,
  input wire logic [NumOut-1:0]               up_tgt_i,
  input wire logic [NumOut-1:0][NumVcs-1:0]   credit_i
);
  // ---------------------------------------------------------------- the sub-assembly
  logic [NumOut-1:0][NumVcs-1:0] avail, busy, grant_oh, sent_oh_q;
  logic [NumOut-1:0]             grant_last;
  logic [NumOut-1:0][NumReq-1:0] grant;
  logic [NumOut-1:0][ReqW-1:0]   grant_idx;
  logic [NumPorts-1:0]           in_elig, in_won, lane_grant;
  logic                          up_grant;

  for (genvar o = 0; o < NumOut; o++) begin : gen_out_state
    canopy_output_vc_state #(.NumVcs(NumVcs), .Credits(Credits), .CollCredits(Credits),
                             .DownCredits(Credits)) u_state (
      .clk_i,
      .rst_i,
      .grant_i      (grant_oh[o]),
      .grant_last_i (grant_last[o]),
      .sent_i       (sent_oh_q[o]),
      .credit_i     (credit_i[o]),
      .ready_o      (avail[o]),
      .busy_o       (busy[o]),
      .down_room_o  (unused_room)
    );
    wire logic unused_room;
  end

  canopy_switch_alloc #(.NumDims(NumDims), .NumVcs(NumVcs)) dut (
    .clk_i,
    .rst_i,
    .in_tgt_i,
    .in_port_i,
    .in_hi_i,
    .in_head_i,
    .lane_valid_i,
    .up_valid_i,
    .up_tgt_i,
    .avail_i      (avail),
    .busy_i       (busy),
    .grant_o      (grant),
    .grant_idx_o  (grant_idx),
    .in_elig_o    (in_elig),
    .in_won_o     (in_won),
    .lane_grant_o (lane_grant),
    .up_grant_o   (up_grant)
  );

  // The granted flit's VC and framing per output (canopy_router's own module), and what
  // each output sends next cycle (canopy_router's register of it).
  canopy_grant_vc #(.NumDims(NumDims), .NumVcs(NumVcs)) u_grant_vc (
    .grant_i      (grant),
    .in_vc_i,
    .in_last_i,
    .lane_last_i,
    .up_last_i,
    .grant_oh_o   (grant_oh),
    .grant_last_o (grant_last)
  );
  always_ff @(posedge clk_i) begin
    if (rst_i) sent_oh_q <= '0;
    else       sent_oh_q <= grant_oh;
  end

  // Taps, driven by `connect` in the .sby: every credit counter's count_q
  // (tap_count[o][c]) and every arbiter's before_q (tap_before[o]).
  /* verilator lint_off UNDRIVEN */
  (* keep *) logic [NumOut-1:0][NumVcs-1:0][CntW-1:0]       tap_count;
  (* keep *) logic [NumOut-1:0][NumReq-1:0][NumReq-1:0]   tap_before;
  /* verilator lint_on UNDRIVEN */

  // ---------------------------------------------------------------- input contracts
  logic started_q = 1'b0;
  always_ff @(posedge clk_i) started_q <= 1'b1;
  always_comb if (!started_q) assume (rst_i);

  logic [NumOut-1:0][NumVcs-1:0]           owned_q;
  logic [NumOut-1:0][NumVcs-1:0][ReqW-1:0] owner_q;
  logic [NumOut-1:0][NumVcs-1:0][OutW-1:0] outstanding_q;

  // The output VC an input's flit must leave on (canopy_router_input's vc_of).
  function automatic logic [VcW-1:0] vc_for(input logic [PortW-1:0] port, input logic hi);
    vc_for = VcW'(port == PortW'(CollPort) ? canopy_pkg::VcCollUp : canopy_pkg::VcP2pLo) + VcW'(hi);
  endfunction

  for (genvar i = 0; i < NumPorts; i++) begin : gen_in_contract
    always_comb begin
      if (!rst_i) begin
        // (a shift, not in_tgt_i[i][in_port_i[i]]: out of range, that reads x, which the
        // solver may take as 1)
        assume (in_tgt_i[i] == '0 || in_tgt_i[i] == NumOut'(1) << in_port_i[i]);
        assume (in_tgt_i[i] == '0 || in_vc_i[i] == vc_for(in_port_i[i], in_hi_i[i]));
        // A body flit follows its head: only on an output VC this input's packet owns.
        assume (in_tgt_i[i] == '0 || in_head_i[i]
                || (owned_q[in_port_i[i]][in_vc_i[i]] && owner_q[in_port_i[i]][in_vc_i[i]] == ReqW'(i)));
      end
    end
  end
  always_comb if (!rst_i && up_valid_i) assume ($onehot(up_tgt_i[NumLinks-1:0])
                                                && up_tgt_i[NumOut-1:NumLinks] == '0);
  for (genvar o = 0; o < NumOut; o++) begin : gen_credit_contract
    for (genvar c = 0; c < NumVcs; c++) begin : gen_vc
      always_comb if (!rst_i && credit_i[o][c]) assume (outstanding_q[o][c] != '0);
    end
  end

  // ---------------------------------------------------------------- model
  logic [NumOut-1:0][ReqW-1:0] winner;  // the granted requester's index (if any)
  always_comb begin
    for (int unsigned o = 0; o < NumOut; o++) begin
      winner[o] = '0;
      for (int unsigned r = 0; r < NumReq; r++) if (grant[o][r]) winner[o] = winner[o] | ReqW'(r);
    end
  end

  always_ff @(posedge clk_i) begin
    for (int unsigned o = 0; o < NumOut; o++) begin
      for (int unsigned c = 0; c < NumVcs; c++) begin
        if (rst_i) begin
          owned_q[o][c]       <= 1'b0;
          outstanding_q[o][c] <= '0;
        end else begin
          outstanding_q[o][c] <= outstanding_q[o][c] + OutW'(sent_oh_q[o][c]) - OutW'(credit_i[o][c]);
          if (grant_oh[o][c]) begin
            owned_q[o][c] <= !grant_last[o];
            owner_q[o][c] <= winner[o];
          end
        end
      end
    end
  end

  // ---------------------------------------------------------------- properties
  // j ranks before k in a priority matrix (canopy_lrg_arbiter keeps j < k; the other half
  // is its negation), and per output how many requesters rank before each one.
  function automatic logic rb(input logic [NumReq-1:0][NumReq-1:0] m,
                              input int unsigned j, input int unsigned k);
    rb = j < k ? m[j][k] : !m[k][j];
  endfunction
  logic [NumOut-1:0][NumReq-1:0][ReqW:0] arb_ahead;
  always_comb begin
    for (int unsigned o = 0; o < NumOut; o++) begin
      for (int unsigned k = 0; k < NumReq; k++) begin
        arb_ahead[o][k] = '0;
        for (int unsigned j = 0; j < NumReq; j++)
          if (j != k && rb(tap_before[o], j, k)) arb_ahead[o][k] = arb_ahead[o][k] + 1'b1;
      end
    end
  end

  for (genvar o = 0; o < NumOut; o++) begin : gen_out
    `CANOPY_ASSERT(p_out_onehot, $onehot0(grant[o]), "two requesters granted one output")
    `CANOPY_ASSERT(p_index, grant[o] == '0 || grant[o][grant_idx[o]], "grant_idx_o is not the grant")
    for (genvar i = 0; i < NumPorts; i++) begin : gen_in
      `CANOPY_ASSERT(p_requested, !grant[o][i] || in_tgt_i[i][o], "an input granted an output it does not request")
      `CANOPY_ASSERT(p_head_free, !(grant[o][i] && in_head_i[i] && owned_q[o][in_vc_i[i]]),
                     "a head granted onto an output VC a packet owns")
    end
    if (o < NumPorts) begin : gen_lane
      `CANOPY_ASSERT(p_requested, !grant[o][LaneReq] || lane_valid_i[o], "the lane granted without a flit")
    end else begin : gen_no_lane
      `CANOPY_ASSERT(p_requested, !grant[o][LaneReq], "the collective port granted to a lane")
    end
    `CANOPY_ASSERT(p_requested_up, !grant[o][UpReq] || (up_valid_i && up_tgt_i[o]),
                   "the up lane granted an output it does not request")
    for (genvar c = 0; c < NumVcs; c++) begin : gen_vc
      `CANOPY_ASSERT(p_credit, !grant_oh[o][c] || OutW'(outstanding_q[o][c]) + OutW'(sent_oh_q[o][c]) < OutW'(Credits),
                     "a flit granted with no credit left for it")
      `CANOPY_ASSERT(p_outstanding, OutW'(outstanding_q[o][c]) + OutW'(sent_oh_q[o][c]) <= OutW'(Credits),
                     "more flits in flight than the receiver has room for")
      `CANOPY_ASSERT(p_count, (OutW+1)'(tap_count[o][c]) + (OutW+1)'(outstanding_q[o][c]) == (OutW+1)'(Credits),
                     "the credit count is not Credits minus the flits in flight")
      `CANOPY_ASSERT(p_busy, busy[o][c] == owned_q[o][c], "busy_o is not the VC's ownership")
      `CANOPY_ASSERT(p_vc_kept, !(owned_q[o][c] && grant_oh[o][c]) || grant[o][owner_q[o][c]],
                     "a flit of another requester granted on an owned output VC")
      // Who can own (o, c): the requesters that send on it.
      if ((o < NumPorts && c < 2) || (o == CollPort && c >= 2)) begin : gen_by_input
        `CANOPY_ASSERT(p_owner_kind, !owned_q[o][c] || (owner_q[o][c] < ReqW'(NumPorts)
                                                        && (o >= NumLinks || owner_q[o][c] != ReqW'(o))),
                       "an output VC owned by a requester that cannot send on it")
      end else if (o < NumPorts && c == canopy_pkg::VcCollDown) begin : gen_by_lane
        `CANOPY_ASSERT(p_owner_kind, !owned_q[o][c] || owner_q[o][c] == ReqW'(LaneReq),
                       "an output VC owned by a requester that cannot send on it")
      end else if (o < NumLinks && c == canopy_pkg::VcCollUp) begin : gen_by_up
        `CANOPY_ASSERT(p_owner_kind, !owned_q[o][c] || owner_q[o][c] == ReqW'(UpReq),
                       "an output VC owned by a requester that cannot send on it")
      end else begin : gen_unused
        `CANOPY_ASSERT(p_owner_kind, !owned_q[o][c] && outstanding_q[o][c] == '0,
                       "an output VC no requester sends on is in use")
      end
    end
    // The arbiter's priority matrix is an order (canopy_lrg_arbiter_formal's p_order): the
    // number of requesters ranked before each one differs from requester to requester.
    for (genvar j = 0; j < NumReq; j++) begin : gen_order
      for (genvar k = j + 1; k < NumReq; k++) begin : gen_pair
        `CANOPY_ASSERT(p_arb_order, arb_ahead[o][j] != arb_ahead[o][k], "an arbiter's priority matrix is not an order")
      end
    end
  end


  for (genvar i = 0; i < NumPorts; i++) begin : gen_in
    logic [NumOut-1:0] won_at;
    always_comb for (int unsigned o = 0; o < NumOut; o++) won_at[o] = grant[o][i];
    `CANOPY_ASSERT(p_in_once, $onehot0(won_at), "an input granted two outputs")
    `CANOPY_ASSERT(p_won, in_won[i] == (won_at != '0), "in_won_o is not the input's grant")
    `CANOPY_ASSERT(p_elig, !in_won[i] || in_elig[i], "an input won without being eligible")
    `CANOPY_ASSERT(p_lane_grant, lane_grant[i] == grant[i][LaneReq], "lane_grant_o is not the lane's grant")
  end
  logic [NumOut-1:0] up_at;
  always_comb for (int unsigned o = 0; o < NumOut; o++) up_at[o] = grant[o][UpReq];
  `CANOPY_ASSERT(p_in_once_up, $onehot0(up_at), "the up lane granted two outputs")
  `CANOPY_ASSERT(p_up_grant, up_grant == (up_at != '0), "up_grant_o is not the up lane's grant")

  // ---------------------------------------------------------------- reachability
  // (`*_cover` tasks)
  logic all_out;
  always_comb begin
    all_out = 1'b1;
    for (int unsigned o = 0; o < NumOut; o++) all_out = all_out && grant[o] != '0;
  end
  // Every output granted at once.
  always_comb if (!rst_i) cover (all_out);
  // Output 0's VC 0 owned by input 2 with credit to spare, input 1's head for it waits,
  // and input 2's tail is granted (a whole packet kept its VC past a competing head).
  always_comb if (!rst_i) cover (owned_q[0][0] && owner_q[0][0] == ReqW'(2) && avail[0][0]
                                 && in_tgt_i[1][0] && in_head_i[1] && !in_hi_i[1]
                                 && grant[0][2] && in_last_i[2]);
  // A head onto the collective port on COLL_DOWN after a packet freed it.
  always_comb if (!rst_i) cover (grant_oh[CollPort][canopy_pkg::VcCollDown] && in_head_i[0] && grant[CollPort][0]
                                 && outstanding_q[CollPort][canopy_pkg::VcCollDown] != '0);
  // Every credit of output 1's VC 1 in flight, and one coming back.
  always_comb if (!rst_i) cover (outstanding_q[1][1] == OutW'(Credits) && credit_i[1][1]);
  // The last credit spent by a grant while the previous flit is being sent.
  always_comb if (!rst_i) cover (grant_oh[1][1] && sent_oh_q[1][1]
                                 && OutW'(outstanding_q[1][1]) + 1'b1 == OutW'(Credits - 1));
endmodule

`default_nettype wire
