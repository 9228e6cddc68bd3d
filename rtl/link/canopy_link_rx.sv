// canopy_link_rx: the receiving half of a protected link (docs/link.md): checks each
// frame's CRC and sequence number at its END, hands the router only frames that passed,
// once each and in order, and asks for a replay (a new NAK epoch) when one did not.
//
// Interface contract
//   - w_*: the word arriving from the wire this cycle (any bit of it may be corrupted).
//   - out_*: a flit for the router's input on this port (its rx_*), registered, at most
//     one per cycle, no ready: the router's credits guarantee room.
//   - ev_valid_o / ev_tree_o: a collective slot credit that arrived in an accepted frame
//     (registered pulse).
//   - credit_o[v]: one credit of VC v for the router's output on this port; the far end
//     reports cumulative counts, this block pays out the difference one per cycle per VC,
//     in cycles with pay_ok_i (the local replay buffer has room for them).
//   - peer_valid_o (registered pulse): a control word passed its CRC; peer_ack_o /
//     peer_nak_o are the far end's receive state it carried (for the local transmitter).
//   - my_ack_o: the last frame accepted (sequence number); my_nak_o: the NAK epoch, which
//     moves on at the first error after a frame was accepted (one request per error
//     episode; the far end's replay timer covers a lost one).
//   - crc_err_o, seq_err_o, dup_o, cred_err_o: one-cycle pulses (registered): a control word
//     or frame refused by its CRC (or a frame longer than the hold buffer, or an END lost);
//     a good frame out of sequence (a gap); a good frame already accepted (a replay's
//     duplicate, dropped without an error); a credit count beyond MaxCredit (ignored).
// Frames wait in the hold buffer until their END: data words are written as they arrive
// and become visible to the router only when the END checks out; otherwise the write
// position goes back to the last accepted frame's end.
`default_nettype none
`include "canopy_assert.svh"

module canopy_link_rx #(
  parameter int unsigned NumVcs     = 4,    /// VCs on the link, <= 4
  parameter int unsigned FrameWords = 24,   /// the far transmitter's frame length, at most
  parameter int unsigned HoldDepth  = 64,   /// hold buffer words, a power of two >= 2 * FrameWords + 2
  parameter int unsigned MaxCredit  = 64,   /// credits of one VC the far end can owe, at most
  localparam int unsigned BodyW = canopy_link_pkg::BodyW,
  localparam int unsigned SeqW = canopy_link_pkg::SeqW,
  localparam int unsigned NakW = canopy_link_pkg::NakW,
  localparam int unsigned CntW = canopy_link_pkg::CntW,
  localparam int unsigned CvcW = canopy_link_pkg::CvcW,
  localparam int unsigned TreeW = canopy_link_pkg::TreeW,
  localparam int unsigned VcW = NumVcs > 1 ? $clog2(NumVcs) : 1
) (
  input  wire logic             clk_i,
  input  wire logic             rst_i,
  input  wire logic             w_valid_i,
  input  wire logic             w_ctl_i,
  input  wire logic             w_last_i,
  input  wire logic [VcW-1:0]   w_vc_i,
  input  wire logic [BodyW-1:0] w_body_i,
  output logic                  out_valid_o,
  output logic      [BodyW-1:0] out_flit_o,
  output logic                  out_last_o,
  output logic      [VcW-1:0]   out_vc_o,
  output logic                  ev_valid_o,
  output logic      [TreeW-1:0] ev_tree_o,
  output logic      [NumVcs-1:0] credit_o,
  input  wire logic             pay_ok_i,
  output logic                  peer_valid_o,
  output logic      [SeqW-1:0]  peer_ack_o,
  output logic      [NakW-1:0]  peer_nak_o,
  output logic      [SeqW-1:0]  my_ack_o,
  output logic      [NakW-1:0]  my_nak_o,
  output logic                  crc_err_o,
  output logic                  seq_err_o,
  output logic                  dup_o,
  output logic                  cred_err_o
);
  localparam int unsigned HoldW = $clog2(HoldDepth);
  localparam int unsigned PtrW  = HoldW + 1;
  localparam int unsigned WordW = BodyW + 3;
  localparam int unsigned OweW  = CntW + 1;

  `CANOPY_STATIC_ASSERT(gen_vcs_check, NumVcs >= 1 && NumVcs <= (1 << CvcW), "at most 4 VCs on a protected link")
  `CANOPY_STATIC_ASSERT(gen_hold_check, HoldDepth >= 2 * FrameWords + 2 && (HoldDepth & (HoldDepth - 1)) == 0,
                        "HoldDepth must be a power of two >= 2 * FrameWords + 2")
  `CANOPY_STATIC_ASSERT(gen_credit_check, MaxCredit >= 1 && MaxCredit < (1 << CntW),
                        "credits per VC must stay below the count's modulus")

  // ---------------------------------------------------------------- hold buffer
  logic [WordW-1:0] hold_q [HoldDepth];
  logic [PtrW-1:0]  hw_q, hc_q, hr_q;     // write (frame so far), accepted end, read

  wire logic is_data = w_valid_i && !w_ctl_i;
  wire logic is_ctl  = w_valid_i && w_ctl_i;
  wire logic full    = PtrW'(hw_q - hr_q) == PtrW'(HoldDepth);
  wire logic [WordW-1:0] word = {w_last_i, CvcW'(w_vc_i), w_body_i};

  // ---------------------------------------------------------------- frame check
  logic [31:0]     crc_q;     // over the data words since the last control word
  logic            bad_q;     // a data word of this frame found no room
  logic [SeqW-1:0] exp_q;     // the next frame to accept
  logic [NakW-1:0] nak_q;
  logic            nak_pend_q;  // an error since the last accepted frame (NAK sent)

  canopy_link_pkg::ctl_fields_t f;
  assign f = canopy_link_pkg::ctl_fields_t'(w_body_i[31:0]);
  wire logic [31:0]     crc_chk = canopy_link_pkg::crc_fields(f.is_end ? crc_q : canopy_link_pkg::CrcInit, f);
  wire logic            good    = is_ctl && crc_chk == w_body_i[63:32] && f.rsvd == '0;
  wire logic [SeqW-1:0] seq_d   = f.seq - exp_q;
  wire logic            pending = hw_q != hc_q;   // words of an unfinished frame
  wire logic accept  = good && f.is_end && !bad_q && f.seq == exp_q;
  wire logic dup     = good && f.is_end && !bad_q && f.seq != exp_q && 32'(seq_d) >= canopy_link_pkg::MaxFrames;
  wire logic gap     = good && f.is_end && !bad_q && f.seq != exp_q && 32'(seq_d) < canopy_link_pkg::MaxFrames;
  // Refused: a bad CRC, a frame that overflowed, a STATE word where an END was due.
  wire logic refused = is_ctl && (!good || (f.is_end && bad_q) || (!f.is_end && pending));
  wire logic error   = refused || gap;

  // ---------------------------------------------------------------- credits
  logic [NumVcs-1:0][CntW-1:0] seen_q;   // the far end's counts so far
  logic [NumVcs-1:0][OweW-1:0] owed_q;   // credits still to pay out
  wire logic [CntW-1:0] cdelta = f.ccount - seen_q[VcW'(f.cvc)];
  wire logic cred_ok  = 32'(f.cvc) < NumVcs && 32'(cdelta) <= MaxCredit;

  always_ff @(posedge clk_i) begin
    if (is_data && !full) hold_q[hw_q[HoldW-1:0]] <= word;
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      hw_q       <= '0;
      hc_q       <= '0;
      hr_q       <= '0;
      crc_q      <= canopy_link_pkg::CrcInit;
      bad_q      <= 1'b0;
      exp_q      <= '0;
      nak_q      <= '0;
      nak_pend_q <= 1'b0;
      seen_q     <= '0;
      owed_q     <= '0;
      out_valid_o  <= 1'b0;
      ev_valid_o   <= 1'b0;
      peer_valid_o <= 1'b0;
      crc_err_o    <= 1'b0;
      seq_err_o    <= 1'b0;
      dup_o        <= 1'b0;
      cred_err_o   <= 1'b0;
    end else begin
      if (is_data) begin
        if (full) bad_q <= 1'b1;
        else begin
          hw_q  <= hw_q + 1'b1;
          crc_q <= canopy_link_pkg::crc_word(crc_q, word);
        end
      end
      if (is_ctl) begin
        crc_q <= canopy_link_pkg::CrcInit;
        bad_q <= 1'b0;
        if (accept) begin
          hc_q       <= hw_q;
          exp_q      <= exp_q + 1'b1;
          nak_pend_q <= 1'b0;
        end else hw_q <= hc_q;   // nothing of an unaccepted frame stays
      end
      if (error && !nak_pend_q) begin
        nak_q      <= nak_q + 1'b1;
        nak_pend_q <= 1'b1;
      end

      for (int unsigned v = 0; v < NumVcs; v++) begin
        logic [OweW-1:0] add;
        add = good && cred_ok && f.cvc == CvcW'(v) ? OweW'(cdelta) : '0;
        owed_q[v] <= owed_q[v] + add - OweW'(credit_o[v]);
        if (good && cred_ok && f.cvc == CvcW'(v)) seen_q[v] <= f.ccount;
      end

      out_valid_o  <= hr_q != hc_q;
      if (hr_q != hc_q) hr_q <= hr_q + 1'b1;
      ev_valid_o   <= accept && f.ev_valid;
      peer_valid_o <= good;
      crc_err_o    <= refused;
      seq_err_o    <= gap;
      dup_o        <= dup;
      cred_err_o   <= good && !cred_ok;
    end
  end

  // The accepted words leave in order; the far end's state goes to the local transmitter.
  always_ff @(posedge clk_i) begin
    {out_last_o, out_vc_o, out_flit_o} <= {hold_q[hr_q[HoldW-1:0]][WordW-1], VcW'(hold_q[hr_q[HoldW-1:0]][BodyW +: CvcW]),
                                          hold_q[hr_q[HoldW-1:0]][BodyW-1:0]};
    ev_tree_o  <= f.ev_tree;
    peer_ack_o <= f.ack;
    peer_nak_o <= f.nak;
  end

  for (genvar v = 0; v < NumVcs; v++) begin : gen_credit
    assign credit_o[v] = pay_ok_i && owed_q[v] != '0;
  end
  assign my_ack_o = exp_q - 1'b1;
  assign my_nak_o = nak_q;

  `CANOPY_ASSERT(a_hold_order, PtrW'(hc_q - hr_q) <= PtrW'(hw_q - hr_q),
                 "hold buffer pointers out of order")
  `CANOPY_ASSERT(a_hold_bound, PtrW'(hw_q - hr_q) <= PtrW'(HoldDepth), "hold buffer over its depth")
endmodule

`default_nettype wire
