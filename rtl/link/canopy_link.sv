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
`default_nettype none
`include "canopy_assert.svh"

module canopy_link #(
  parameter int unsigned NumVcs        = 4,    /// VCs on the link, <= 4
  parameter int unsigned FrameWords    = 24,   /// data words per frame, at most
  parameter int unsigned RbDepth       = 512,  /// replay buffer words, > InitCredits
  parameter int unsigned InitCredits   = 192,  /// the router's credits out of reset, all VCs (the far input's slots)
  parameter int unsigned HoldDepth     = 64,   /// receive hold buffer words
  parameter int unsigned MaxCredit     = 64,   /// credits per VC of the far input, at most
  parameter int unsigned ReplayTimeout = 256,  /// cycles without an acknowledgement before a replay
  parameter int unsigned KeepAlive     = 64,   /// cycles between control words, at most
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
  output logic                   cred_err_o
);
  // The router may send as many flits as it holds credits; each must find room in the
  // replay buffer, where delivered flits also wait for their acknowledgement. So credits
  // are paid to the router only while the buffer's words plus the credits the router
  // holds leave room for a full cycle's payout (one per VC).
  localparam int unsigned RbCntW = $clog2(RbDepth) + 1;
  logic [RbCntW-1:0] rb_used, held_q;
  logic              pay_ok;
  always_ff @(posedge clk_i) begin
    if (rst_i) held_q <= RbCntW'(InitCredits);
    else held_q <= held_q + RbCntW'($countones(tx_credit_o)) - RbCntW'(tx_valid_i);
  end
  assign pay_ok = 32'(rb_used) + 32'(held_q) + NumVcs <= RbDepth;
  `CANOPY_STATIC_ASSERT(gen_credit_check, InitCredits + NumVcs <= RbDepth, "RbDepth must exceed the router's credits")
  `CANOPY_STATIC_ASSERT(gen_tree_check, TreeW == canopy_pkg::HdrTreeBits,
                        "canopy_link_pkg::TreeW must be canopy_pkg::HdrTreeBits")
  `CANOPY_ASSERT(a_held, !tx_valid_i || held_q != '0, "the router sent a flit without a credit")

  logic            peer_valid;
  logic [SeqW-1:0] peer_ack, my_ack;
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
    .in_valid_i   (tx_valid_i),
    .in_flit_i    (tx_flit_i),
    .in_last_i    (tx_last_i),
    .in_vc_i      (tx_vc_i),
    .ev_valid_i   (rx_slot_valid_i),
    .ev_tree_i    (rx_slot_tree_i),
    .credit_i     (rx_credit_i),
    .peer_valid_i (peer_valid),
    .peer_ack_i   (peer_ack),
    .peer_nak_i   (peer_nak),
    .my_ack_i     (my_ack),
    .my_nak_i     (my_nak),
    .w_valid_o    (w_tx_valid_o),
    .w_ctl_o      (w_tx_ctl_o),
    .w_last_o     (w_tx_last_o),
    .w_vc_o       (w_tx_vc_o),
    .w_body_o     (w_tx_body_o),
    .rb_used_o    (rb_used),
    .replay_o,
    .timeout_o
  );

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
    .out_valid_o  (rx_valid_o),
    .out_flit_o   (rx_flit_o),
    .out_last_o   (rx_last_o),
    .out_vc_o     (rx_vc_o),
    .ev_valid_o   (tx_slot_valid_o),
    .ev_tree_o    (tx_slot_tree_o),
    .credit_o     (tx_credit_o),
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
endmodule

`default_nettype wire
