// canopy_link: one end of a protected link (docs/link.md): the transmitter and receiver
// of canopy_link_tx / canopy_link_rx, with the receive state each control word carries
// passed between them. It sits between a router port and the wire, and to the router it
// looks like the wire it replaces: flits and slot credits in and out, VC credits back.
//
// Interface contract
//   - Router side, as a router port sees a link (canopy_router): tx_* flits to send (no
//     ready: the router holds a credit for each), tx_credit_o[v] credits for them coming
//     back, tx_slot_* slot credits coming back; rx_* flits arriving (registered), rx_credit_i
//     the router input's freed slots, rx_slot_* slot credits to return.
//   - Wire side: w_tx_* the word sent this cycle (registered), w_rx_* the word arriving.
//   - Status pulses, one cycle each (registered): replay started, replay timer ran out,
//     frame or control word refused (CRC), frame out of sequence, duplicate frame dropped,
//     credit count out of range.
//   - up_o: the link is up (from reset); it goes down for good (until reset) when the far
//     end has been silent for DeadSilence cycles or DeadReplays replays in a row brought no
//     acknowledgement. A link that is down sends nothing, drops every flit and slot credit
//     the router gives it (drop_o: one pulse per flit) and hands the router back every
//     credit it lacks, so the router is never stuck on a dead port. close_o: a packet the
//     death cut in half was given a malformed tail (canopy_link_closer), so the router
//     behind this end is never stuck on it either.
`default_nettype none
`include "canopy_assert.svh"

module canopy_link #(
  parameter int unsigned NumVcs        = 4,    /// VCs on the link, <= 4
  parameter int unsigned FrameWords    = 24,   /// data words per frame, at most
  parameter int unsigned RbDepth       = 512,  /// replay buffer words, > the router's credits (all VCs)
  parameter int unsigned P2pCredits    = 64,   /// the router's credits out of reset per point-to-point VC
  parameter int unsigned CollCredits   = 32,   ///   on COLL_UP (the far input's slots)
  parameter int unsigned DownCredits   = 64,   ///   and on COLL_DOWN
  parameter int unsigned HoldDepth     = 64,   /// receive hold buffer words
  parameter int unsigned ReplayTimeout = 256,  /// cycles without an acknowledgement before a replay
  parameter int unsigned KeepAlive     = 64,   /// cycles between control words, at most
  parameter int unsigned DeadSilence   = 512,  /// cycles without a good control word: the link is down
  parameter int unsigned DeadReplays   = 16,   /// replays in a row without an acknowledgement: down
  localparam int unsigned BodyW = canopy_link_pkg::BodyW,
  localparam int unsigned SeqW = canopy_link_pkg::SeqW,
  localparam int unsigned NakW = canopy_link_pkg::NakW,
  localparam int unsigned TreeW = canopy_link_pkg::TreeW,
  localparam int unsigned VcW = NumVcs > 1 ? $clog2(NumVcs) : 1
) (
  input  wire logic              clk_i,
  input  wire logic              rst_i,
  // router side
  input  wire logic              tx_valid_i,
  input  wire logic [BodyW-1:0]  tx_flit_i,
  input  wire logic              tx_last_i,
  input  wire logic [VcW-1:0]    tx_vc_i,
  output logic      [NumVcs-1:0] tx_credit_o,
  output logic                   tx_slot_valid_o,
  output logic      [TreeW-1:0]  tx_slot_tree_o,
  output logic                   rx_valid_o,
  output logic      [BodyW-1:0]  rx_flit_o,
  output logic                   rx_last_o,
  output logic      [VcW-1:0]    rx_vc_o,
  input  wire logic [NumVcs-1:0] rx_credit_i,
  input  wire logic              rx_slot_valid_i,
  input  wire logic [TreeW-1:0]  rx_slot_tree_i,
  // wire side
  output logic                   w_tx_valid_o,
  output logic                   w_tx_ctl_o,
  output logic                   w_tx_last_o,
  output logic      [VcW-1:0]    w_tx_vc_o,
  output logic      [BodyW-1:0]  w_tx_body_o,
  input  wire logic              w_rx_valid_i,
  input  wire logic              w_rx_ctl_i,
  input  wire logic              w_rx_last_i,
  input  wire logic [VcW-1:0]    w_rx_vc_i,
  input  wire logic [BodyW-1:0]  w_rx_body_i,
  // status
  output logic                   replay_o,
  output logic                   timeout_o,
  output logic                   crc_err_o,
  output logic                   seq_err_o,
  output logic                   dup_o,
  output logic                   cred_err_o,
  output logic                   up_o,
  output logic                   drop_o,
  output logic                   close_o
);
  localparam int unsigned MaxCredit = P2pCredits > CollCredits
                                      ? (P2pCredits > DownCredits ? P2pCredits : DownCredits)
                                      : (CollCredits > DownCredits ? CollCredits : DownCredits);
  localparam int unsigned VcCntW    = $clog2(MaxCredit) + 1;
  localparam int unsigned RbCntW = $clog2(RbDepth) + 1;
  function automatic int unsigned init_credits(input int unsigned v);
    init_credits = v == canopy_pkg::VcCollDown ? DownCredits
                 : canopy_pkg::vc_is_coll(v) ? CollCredits : P2pCredits;
  endfunction
  function automatic int unsigned all_credits();
    all_credits = 0;
    for (int unsigned v = 0; v < NumVcs; v++) all_credits += init_credits(v);
  endfunction
  `CANOPY_STATIC_ASSERT(gen_credit_check, all_credits() + NumVcs <= RbDepth, "RbDepth must exceed the router's credits")
  `CANOPY_STATIC_ASSERT(gen_tree_check, TreeW == canopy_pkg::HdrTreeBits,
                        "canopy_link_pkg::TreeW must be canopy_pkg::HdrTreeBits")
  `CANOPY_STATIC_ASSERT(gen_dead_check, DeadSilence > 2 * KeepAlive, "DeadSilence must outlast two keep-alive periods")

  // ---------------------------------------------------------------- credits the router holds
  // The router may send as many flits as it holds credits; each must find room in the
  // replay buffer, where delivered flits also wait for their acknowledgement. So credits
  // are paid to the router only while the buffer's words plus the credits the router
  // holds leave room for a full cycle's payout (one per VC).
  logic [NumVcs-1:0]             rx_credit, gone_credit;   // paid by the far end; back from a dead link
  logic [NumVcs-1:0][VcCntW-1:0] held_q;                   // credits the router holds, per VC
  logic [RbCntW-1:0]             rb_used, held_all;
  logic                          pay_ok, up_q;
  always_comb begin
    held_all = '0;
    for (int unsigned v = 0; v < NumVcs; v++) held_all += RbCntW'(held_q[v]);
  end
  assign pay_ok = 32'(rb_used) + 32'(held_all) + NumVcs <= RbDepth;

  // ---------------------------------------------------------------- link health
  // Down, until reset, when no control word has passed its CRC for DeadSilence cycles
  // (a live far end sends one at least every KeepAlive cycles), or DeadReplays replays in a
  // row brought no acknowledgement. A dead link takes what the router sends and drops it
  // (drop_o), and gives the router back every credit it lacks, one per VC per cycle, so
  // the router never waits on it: traffic for a dead link is refused, not queued for ever.
  localparam int unsigned SilW = $clog2(DeadSilence + 1);
  localparam int unsigned RepW = $clog2(DeadReplays + 1);
  logic [SilW-1:0] silence_q;
  logic [RepW-1:0] fails_q;
  logic            peer_valid, replay_pulse, progress;
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      up_q      <= 1'b1;
      silence_q <= '0;
      fails_q   <= '0;
    end else begin
      if (peer_valid) silence_q <= '0;
      else if (32'(silence_q) < DeadSilence) silence_q <= silence_q + 1'b1;
      if (progress) fails_q <= '0;
      else if (replay_pulse && 32'(fails_q) < DeadReplays) fails_q <= fails_q + 1'b1;
      if (32'(silence_q) >= DeadSilence || 32'(fails_q) >= DeadReplays) up_q <= 1'b0;
    end
  end
  for (genvar v = 0; v < NumVcs; v++) begin : gen_held
    assign gone_credit[v] = !up_q && 32'(held_q[v]) < init_credits(v);
    assign tx_credit_o[v] = up_q ? rx_credit[v] : gone_credit[v];
    always_ff @(posedge clk_i) begin
      if (rst_i) held_q[v] <= VcCntW'(init_credits(v));
      else held_q[v] <= held_q[v] + VcCntW'(tx_credit_o[v]) - VcCntW'(tx_valid_i && 32'(tx_vc_i) == v);
    end
    `CANOPY_ASSERT(a_held, !(tx_valid_i && 32'(tx_vc_i) == v) || held_q[v] != '0,
                   "the router sent a flit without a credit")
    `CANOPY_ASSERT(a_held_bound, 32'(held_q[v]) <= init_credits(v), "the router holds more credits than slots")
  end
  assign up_o   = up_q;
  assign drop_o = tx_valid_i && !up_q;

  logic [SeqW-1:0] peer_ack, my_ack;
  logic            w_tx_valid;
  logic             rx_valid, rx_last;   // what the receiver accepted, before the closer
  logic [BodyW-1:0] rx_flit;
  logic [VcW-1:0]   rx_vc;
  assign w_tx_valid_o = w_tx_valid && up_q;   // a dead link falls silent: the far end sees it too
  logic [NakW-1:0] peer_nak, my_nak;

  canopy_link_tx #(
    .NumVcs        (NumVcs),
    .FrameWords    (FrameWords),
    .RbDepth       (RbDepth),
    .ReplayTimeout (ReplayTimeout),
    .KeepAlive     (KeepAlive)
  ) u_tx (
    .clk_i,
    .rst_i,
    .in_valid_i   (tx_valid_i && up_q),
    .in_flit_i    (tx_flit_i),
    .in_last_i    (tx_last_i),
    .in_vc_i      (tx_vc_i),
    .ev_valid_i   (rx_slot_valid_i && up_q),
    .ev_tree_i    (rx_slot_tree_i),
    .credit_i     (rx_credit_i),
    .peer_valid_i (peer_valid),
    .peer_ack_i   (peer_ack),
    .peer_nak_i   (peer_nak),
    .my_ack_i     (my_ack),
    .my_nak_i     (my_nak),
    .w_valid_o    (w_tx_valid),
    .w_ctl_o      (w_tx_ctl_o),
    .w_last_o     (w_tx_last_o),
    .w_vc_o       (w_tx_vc_o),
    .w_body_o     (w_tx_body_o),
    .rb_used_o    (rb_used),
    .replay_o     (replay_pulse),
    .timeout_o,
    .progress_o   (progress)
  );
  assign replay_o = replay_pulse;

  canopy_link_rx #(
    .NumVcs     (NumVcs),
    .FrameWords (FrameWords),
    .HoldDepth  (HoldDepth),
    .MaxCredit  (MaxCredit)
  ) u_rx (
    .clk_i,
    .rst_i,
    .w_valid_i    (w_rx_valid_i),
    .w_ctl_i      (w_rx_ctl_i),
    .w_last_i     (w_rx_last_i),
    .w_vc_i       (w_rx_vc_i),
    .w_body_i     (w_rx_body_i),
    .out_valid_o  (rx_valid),
    .out_flit_o   (rx_flit),
    .out_last_o   (rx_last),
    .out_vc_o     (rx_vc),
    .ev_valid_o   (tx_slot_valid_o),
    .ev_tree_o    (tx_slot_tree_o),
    .credit_o     (rx_credit),
    .pay_ok_i     (pay_ok),
    .peer_valid_o (peer_valid),
    .peer_ack_o   (peer_ack),
    .peer_nak_o   (peer_nak),
    .my_ack_o     (my_ack),
    .my_nak_o     (my_nak),
    .crc_err_o,
    .seq_err_o,
    .dup_o,
    .cred_err_o
  );

  // Packets the link cut when it died get a malformed tail (canopy_link_closer).
  canopy_link_closer #(
    .NumVcs      (NumVcs),
    .P2pCredits  (P2pCredits),
    .CollCredits (CollCredits),
    .DownCredits (DownCredits)
  ) u_closer (
    .clk_i,
    .rst_i,
    .up_i        (up_q),
    .in_valid_i  (rx_valid),
    .in_flit_i   (rx_flit),
    .in_last_i   (rx_last),
    .in_vc_i     (rx_vc),
    .credit_i    (rx_credit_i),
    .out_valid_o (rx_valid_o),
    .out_flit_o  (rx_flit_o),
    .out_last_o  (rx_last_o),
    .out_vc_o    (rx_vc_o),
    .close_o
  );
endmodule

`default_nettype wire
