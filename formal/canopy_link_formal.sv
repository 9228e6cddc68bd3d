// canopy_link_formal: formal harness of one direction of a protected link
// (formal/canopy_link.sby): canopy_link_tx, a wire that loses and damages words, and
// canopy_link_rx; the far end's acknowledgements come back on an abstract channel.
//
// The environment:
//   - the sender offers flits whenever the replay buffer has room, numbered: flit i's body
//     is i (8 bits), its `last` bit is bit 1 of i and its VC bits 3:2, so the receiving
//     side can tell which flit it got (4 VCs, as on a router link; credits stay out of it); slot credits likewise, tree = their number, while fewer than EvDepth are
//     outstanding;
//   - the wire (one register, as in the simulators) may, any cycle, drop the word (an idle
//     cycle arrives instead), flip bit 0 of a data word, or flip a bit of a control word's
//     CRC field: damage a CRC always shows (a single flipped bit, or a lost word against
//     numbered flits; a solver free to choose the data could pick a rare CRC collision,
//     which is the code's strength, not the protocol's, and is measured in simulation);
//   - acknowledgements: at any cycle the harness may take a snapshot of the receiver's
//     (ack, nak), and at any cycle deliver the snapshot to the sender (so they arrive late,
//     twice, or never, as control words on a faulty wire do).
// Proven (bounded, every cycle from reset to the depth in the .sby):
//   - every flit the receiver hands on is the next one sent: none skipped, none twice, in
//     order, body and framing as sent;
//   - every slot credit likewise, exactly once and in order;
//   - the receiver's expected sequence number is inside the sender's window (between its
//     oldest unacknowledged frame and its next), and the window is never overrun;
//   - the blocks' own `CANOPY_ASSERTs (replay buffer order and room, replay inside the
//     window, frame length, hold buffer bounds).
// Covers show a flit handed on after a replay, a duplicate frame dropped, and a frame
// refused for its CRC after flits got through.
`default_nettype none
`include "canopy_assert.svh"

module canopy_link_formal #(
  parameter int unsigned FrameWords = 2,
  parameter int unsigned RbDepth    = 8,
  parameter int unsigned HoldDepth  = 8,
  parameter int unsigned EvDepth    = 2
) (
  input wire logic clk_i,
  input wire logic rst_i,
  input wire logic send_i,      // offer a flit this cycle (if there is room)
  input wire logic ev_i,        // offer a slot credit
  input wire logic drop_i,      // the wire loses this cycle's word
  input wire logic hit_data_i,  // the wire flips bit 0 of this cycle's data word
  input wire logic hit_crc_i,   // the wire flips a CRC bit of this cycle's control word
  input wire logic snap_i,      // snapshot the receiver's ack and nak
  input wire logic ack_i        // deliver the snapshot to the sender
);
  localparam int unsigned SeqW  = canopy_link_pkg::SeqW;
  localparam int unsigned NakW  = canopy_link_pkg::NakW;
  localparam int unsigned TreeW = canopy_link_pkg::TreeW;
  localparam int unsigned BodyW = canopy_link_pkg::BodyW;
  localparam int unsigned RbCntW = $clog2(RbDepth) + 1;

  logic started_q = 1'b0;
  always_ff @(posedge clk_i) started_q <= 1'b1;
  always_comb if (!started_q) assume (rst_i);
  always_comb if (started_q) assume (!rst_i);

  // ---------------------------------------------------------------- sender side
  logic [7:0]        sent_q, got_q;        // flits offered, flits handed on
  logic [TreeW-1:0]  ev_sent_q, ev_got_q;
  logic [RbCntW-1:0] rb_used;
  wire logic send = send_i && 32'(rb_used) < RbDepth;
  wire logic ev   = ev_i && 32'(TreeW'(ev_sent_q - ev_got_q)) < EvDepth;

  logic             w_valid, w_ctl, w_last;
  logic [1:0]       w_vc;
  logic [BodyW-1:0] w_body;
  logic             peer_valid;
  logic [SeqW-1:0]  peer_ack, rx_ack;
  logic [NakW-1:0]  peer_nak, rx_nak;
  logic             replay, timeout, progress;

  canopy_link_tx #(
    .NumVcs (4), .FrameWords (FrameWords), .RbDepth (RbDepth), .EvDepth (EvDepth),
    .ReplayTimeout (6), .KeepAlive (2)
  ) tx (
    .clk_i, .rst_i,
    .in_valid_i   (send),
    .in_flit_i    (BodyW'(sent_q)),
    .in_last_i    (sent_q[1]),
    .in_vc_i      (sent_q[3:2]),
    .ev_valid_i   (ev),
    .ev_tree_i    (ev_sent_q),
    .credit_i     (4'b0),
    .peer_valid_i (peer_valid),
    .peer_ack_i   (peer_ack),
    .peer_nak_i   (peer_nak),
    .my_ack_i     ('1),
    .my_nak_i     ('0),
    .w_valid_o    (w_valid),
    .w_ctl_o      (w_ctl),
    .w_last_o     (w_last),
    .w_vc_o       (w_vc),
    .w_body_o     (w_body),
    .rb_used_o    (rb_used),
    .replay_o     (replay),
    .timeout_o    (timeout),
    .progress_o   (progress)
  );

  // ---------------------------------------------------------------- the wire
  logic             r_valid_q, r_ctl_q, r_last_q;
  logic [1:0]       r_vc_q;
  logic [BodyW-1:0] r_body_q;
  always_ff @(posedge clk_i) begin
    if (rst_i) r_valid_q <= 1'b0;
    else r_valid_q <= w_valid && !drop_i;
    r_ctl_q  <= w_ctl;
    r_last_q <= w_last;
    r_vc_q   <= w_vc;
    r_body_q <= w_body ^ (!w_ctl && hit_data_i ? BodyW'(1) : '0)
                       ^ (w_ctl && hit_crc_i ? BodyW'(1) << 40 : '0);
  end

  // ---------------------------------------------------------------- receiver side
  logic             out_valid, out_last;
  logic [1:0]       out_vc;
  logic [BodyW-1:0] out_flit;
  logic             ev_valid;
  logic [TreeW-1:0] ev_tree;
  logic [3:0]       credit;
  logic             unused_peer_valid;
  logic [SeqW-1:0]  unused_peer_ack;
  logic [NakW-1:0]  unused_peer_nak;
  logic             crc_err, seq_err, dup, cred_err;

  canopy_link_rx #(.NumVcs (4), .FrameWords (FrameWords), .HoldDepth (HoldDepth)) rx (
    .clk_i, .rst_i,
    .w_valid_i    (r_valid_q),
    .w_ctl_i      (r_ctl_q),
    .w_last_i     (r_last_q),
    .w_vc_i       (r_vc_q),
    .w_body_i     (r_body_q),
    .out_valid_o  (out_valid),
    .out_flit_o   (out_flit),
    .out_last_o   (out_last),
    .out_vc_o     (out_vc),
    .ev_valid_o   (ev_valid),
    .ev_tree_o    (ev_tree),
    .credit_o     (credit),
    .pay_ok_i     (1'b1),
    .peer_valid_o (unused_peer_valid),
    .peer_ack_o   (unused_peer_ack),
    .peer_nak_o   (unused_peer_nak),
    .my_ack_o     (rx_ack),
    .my_nak_o     (rx_nak),
    .crc_err_o    (crc_err),
    .seq_err_o    (seq_err),
    .dup_o        (dup),
    .cred_err_o   (cred_err)
  );

  // ---------------------------------------------------------------- acknowledgements back
  logic [SeqW-1:0] snap_ack_q;
  logic [NakW-1:0] snap_nak_q;
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      snap_ack_q <= '1;
      snap_nak_q <= '0;
    end else if (snap_i) begin
      snap_ack_q <= rx_ack;
      snap_nak_q <= rx_nak;
    end
  end
  assign peer_valid = ack_i;
  assign peer_ack   = snap_ack_q;
  assign peer_nak   = snap_nak_q;

  // ---------------------------------------------------------------- counting
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      sent_q    <= '0;
      got_q     <= '0;
      ev_sent_q <= '0;
      ev_got_q  <= '0;
    end else begin
      if (send)      sent_q    <= sent_q + 1'b1;
      if (out_valid) got_q     <= got_q + 1'b1;
      if (ev)        ev_sent_q <= ev_sent_q + 1'b1;
      if (ev_valid)  ev_got_q  <= ev_got_q + 1'b1;
    end
  end

  // Taps, driven by `connect` in the .sby: the sender's window and the receiver's next.
  /* verilator lint_off UNDRIVEN */
  (* keep *) logic [SeqW-1:0] tap_una, tap_nxt, tap_exp;
  /* verilator lint_on UNDRIVEN */
  wire logic [SeqW-1:0] exp_off = tap_exp - tap_una;
  wire logic [SeqW-1:0] win     = tap_nxt - tap_una;

  `CANOPY_ASSERT(p_in_order, !out_valid || (out_flit == BodyW'(got_q) && out_last == got_q[1] && out_vc == got_q[3:2]),
                 "a flit handed on is not the next one sent")
  `CANOPY_ASSERT(p_not_ahead, 8'(sent_q - got_q) <= 8'(RbDepth), "more flits handed on than sent")
  `CANOPY_ASSERT(p_events, !ev_valid || ev_tree == ev_got_q, "a slot credit handed on is not the next one sent")
  `CANOPY_ASSERT(p_events_not_ahead, TreeW'(ev_sent_q - ev_got_q) <= TreeW'(EvDepth), "more slot credits than sent")
  `CANOPY_ASSERT(p_window, exp_off <= win, "the receiver expects a frame outside the sender's window")
  `CANOPY_ASSERT(p_no_credit, credit == '0 && !cred_err, "a credit from nowhere")

  logic replayed_q;
  always_ff @(posedge clk_i) begin
    if (rst_i) replayed_q <= 1'b0;
    else if (replay) replayed_q <= 1'b1;
  end
  always_comb begin
    if (!rst_i) begin
      c_replay_delivers: cover (replayed_q && out_valid);
      c_dup: cover (dup);
      c_crc: cover (crc_err && got_q != '0);
    end
  end
  wire logic unused_status = ^{timeout, seq_err, progress};
endmodule

`default_nettype wire
