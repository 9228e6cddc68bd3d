// canopy_link_tx: the sending half of a protected link (docs/link.md): frames the
// router's flits, keeps every word until the far end acknowledges its frame, and replays
// from the oldest unacknowledged frame on a NAK or when the replay timer runs out.
//
// Interface contract
//   - in_*: a flit the router sends on this port (its tx_*): taken every cycle in_valid_i
//     is high, no ready. The router sends only with a credit of the far input, and every
//     flit held here is still covered by one, so RbDepth >= the far input's credits summed
//     over its VCs means the replay buffer never overflows (asserted).
//   - ev_valid_i / ev_tree_i: a collective slot credit to send (a tree id); it rides, once,
//     in the END of a frame (an END of its own when no data flows). Up to EvDepth wait.
//   - credit_i[v]: the router's input on this port freed a slot of VC v; the count goes to
//     the far end, cumulative, in every control word.
//   - peer_valid_i: the local receiver accepted a control word (CRC good) carrying the far
//     end's peer_ack_i (its last frame received in order) and peer_nak_i (its NAK epoch:
//     a change asks for a replay). my_ack_i / my_nak_i: the local receiver's own state,
//     sent in every control word.
//   - w_*: the word on the wire this cycle (registers, and for a data word's body, last and
//     vc the replay buffer's registered read or the cut-through register).
//   - rb_used_o: words in the replay buffer (unsent or unacknowledged); the link pays the
//     router its credits only while what it may send still fits (canopy_link).
//   - replay_o, timeout_o, progress_o: one-cycle pulses: a replay started; the replay timer
//     ran out; an acknowledgement freed frames.
// Framing. A frame is closed by an END when it holds FrameWords data words, when the
// router has nothing more to send right now, or when a slot credit waits. Only one frame
// is open at a time, and at most MaxFrames - 1 are unacknowledged (the window, under half
// the sequence space: go-back-N). A STATE word goes out when the link has nothing else to
// send and the receive state or a credit count changed, or KeepAlive cycles passed without
// a control word.
// Replay. The frame table remembers each unacknowledged frame's end in the buffer, its
// data words' CRC and its slot credit, so a replay sends exactly the same frames; only
// the fields every control word refreshes (ack, nak, credit count) are new, and the END's
// CRC is finished over them as it goes out.
`default_nettype none
`include "canopy_assert.svh"

module canopy_link_tx #(
  parameter int unsigned NumVcs        = 4,    /// VCs on the link, <= 4
  parameter int unsigned FrameWords    = 24,   /// data words per frame, at most
  parameter int unsigned RbDepth       = 512,  /// replay buffer words, a power of two
  parameter int unsigned EvDepth       = 32,   /// slot credits waiting, a power of two
  parameter int unsigned ReplayTimeout = 256,  /// cycles without an acknowledgement before a replay
  parameter int unsigned KeepAlive     = 64,   /// cycles between control words, at most, when idle
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
  input  wire logic             in_valid_i,
  input  wire logic [BodyW-1:0] in_flit_i,
  input  wire logic             in_last_i,
  input  wire logic [VcW-1:0]   in_vc_i,
  input  wire logic             ev_valid_i,
  input  wire logic [TreeW-1:0] ev_tree_i,
  input  wire logic [NumVcs-1:0] credit_i,
  input  wire logic             peer_valid_i,
  input  wire logic [SeqW-1:0]  peer_ack_i,
  input  wire logic [NakW-1:0]  peer_nak_i,
  input  wire logic [SeqW-1:0]  my_ack_i,
  input  wire logic [NakW-1:0]  my_nak_i,
  output logic                  w_valid_o,
  output logic                  w_ctl_o,
  output logic                  w_last_o,
  output logic      [VcW-1:0]   w_vc_o,
  output logic      [BodyW-1:0] w_body_o,
  output logic      [$clog2(RbDepth):0] rb_used_o,
  output logic                  replay_o,
  output logic                  timeout_o,
  output logic                  progress_o
);
  localparam int unsigned RbW   = $clog2(RbDepth);
  localparam int unsigned PtrW  = RbW + 1;   // with a wrap bit
  localparam int unsigned FwW   = $clog2(FrameWords + 1);
  localparam int unsigned WordW = BodyW + 3;  // {last, vc (2 bits), body}: what the CRC covers
  localparam int unsigned TmW   = $clog2(ReplayTimeout + 1);
  localparam int unsigned KaW   = $clog2(KeepAlive + 1);
  localparam int unsigned EvW   = 1 + TreeW;

  `CANOPY_STATIC_ASSERT(gen_vcs_check, NumVcs >= 1 && NumVcs <= (1 << CvcW), "at most 4 VCs on a protected link")
  `CANOPY_STATIC_ASSERT(gen_rb_check, RbDepth >= 2 * FrameWords && (RbDepth & (RbDepth - 1)) == 0,
                        "RbDepth must be a power of two >= 2 * FrameWords")
  `CANOPY_STATIC_ASSERT(gen_frame_check, FrameWords >= 1, "FrameWords must be >= 1")
  `CANOPY_STATIC_ASSERT(gen_timeout_check, ReplayTimeout > 2 * KeepAlive,
                        "the replay timer must outlast two keep-alive periods (acks ride on them)")

  function automatic logic [WordW-1:0] word_of(input logic last, input logic [VcW-1:0] vc,
                                               input logic [BodyW-1:0] body);
    word_of = {last, CvcW'(vc), body};
  endfunction

  // ---------------------------------------------------------------- replay buffer
  logic [PtrW-1:0]  app_q, send_q, ack_q;   // next append, next to send, oldest unacknowledged
  logic             rd_en;                  // a data word goes out next cycle (read at send_q)
  logic [WordW-1:0] rd_word;
  // Cut-through: a flit arriving while every earlier word has gone out goes on the wire
  // the next cycle from a register (it is written to the buffer all the same, for a
  // replay), instead of a cycle later through the buffer's registered read.
  logic             byp;                    // the data word sent next is the one arriving now
  logic             w_byp_q;
  logic [WordW-1:0] byp_word_q;
  wire logic [WordW-1:0] w_word = w_byp_q ? byp_word_q : rd_word;  // the data word on the wire
  canopy_sdp_ram #(.Width(WordW), .Depth(RbDepth), .CollisionOld(1'b0)) u_rb (
    .clk_i,
    .we_i    (in_valid_i),
    .waddr_i (app_q[RbW-1:0]),
    .wdata_i (word_of(in_last_i, in_vc_i, in_flit_i)),
    .re_i    (rd_en),
    .raddr_i (send_q[RbW-1:0]),
    .rdata_o (rd_word)
  );

  // ---------------------------------------------------------------- slot credits waiting
  logic             ev_pend, ev_pop;
  logic [TreeW-1:0] ev_head;
  logic             ev_ready;
  logic [$clog2(EvDepth):0] ev_count;
  canopy_fifo #(.Width(TreeW), .Depth(EvDepth)) u_ev (
    .clk_i,
    .rst_i,
    .in_valid_i  (ev_valid_i),
    .in_ready_o  (ev_ready),
    .in_data_i   (ev_tree_i),
    .out_valid_o (ev_pend),
    .out_ready_i (ev_pop),
    .out_data_o  (ev_head),
    .count_o     (ev_count)
  );
  wire logic unused_ev = ^ev_count;

  // ---------------------------------------------------------------- frame table (by sequence number)
  logic [PtrW-1:0]  ft_end [1 << SeqW];   // the buffer position after the frame's last word
  logic [31:0]      ft_crc [1 << SeqW];   // CRC over its data words
  logic [EvW-1:0]   ft_ev  [1 << SeqW];   // its slot credit {valid, tree}

  // ---------------------------------------------------------------- state
  logic             open_q;               // a frame is open: data words sent, END not yet
  logic [FwW-1:0]   fw_q;                 // its data words
  logic [31:0]      crc_q;                // its CRC so far (not yet the word on the wire now)
  logic [SeqW-1:0]  nxt_q, una_q;         // next sequence number; oldest unacknowledged
  logic             rep_q;                // replaying
  logic [SeqW-1:0]  rs_q;                 // the frame being replayed
  logic             rep_req_q;            // a replay is due (NAK or timeout)
  logic [TmW-1:0]   timer_q;
  logic [NakW-1:0]  last_nak_q;           // the far end's NAK epoch last seen
  logic [KaW-1:0]   ka_q;                 // cycles since the last control word
  logic [NumVcs-1:0][CntW-1:0] cum_q, sent_cnt_q;  // credits returned, and last sent, per VC
  logic [CvcW-1:0]  cptr_q;               // credit count round robin
  logic [SeqW-1:0]  ack_sent_q;
  logic [NakW-1:0]  nak_sent_q;
  // The word on the wire: a data word from the buffer (orig: sent for the first time, so
  // its frame's CRC must take it in) or a control word.
  logic             w_valid_q, w_ctl_q, w_orig_q;
  logic [BodyW-1:0] w_cbody_q;

  wire logic [SeqW-1:0] outstanding = nxt_q - una_q;
  wire logic            win_ok      = 32'(outstanding) < canopy_link_pkg::MaxFrames - 1;
  wire logic [31:0]     crc_eff     = w_valid_q && !w_ctl_q && w_orig_q ? canopy_link_pkg::crc_word(crc_q, w_word) : crc_q;

  // The credit count a control word carries: the next VC (round robin) whose count changed,
  // or the next VC when none did (a repeat costs nothing: counts are cumulative).
  logic [CvcW-1:0] cpick;
  logic            cred_changed;
  always_comb begin
    cpick        = cptr_q;
    cred_changed = 1'b0;
    for (int unsigned k = 0; k < NumVcs; k++) begin
      logic [CvcW-1:0] v;
      v = CvcW'((32'(cptr_q) + NumVcs - 1 - k) % NumVcs);  // scanned last to first: the first wins
      if (cum_q[v] != sent_cnt_q[v]) begin
        cpick        = v;
        cred_changed = 1'b1;
      end
    end
  end
  wire logic dirty = cred_changed || my_ack_i != ack_sent_q || my_nak_i != nak_sent_q;

  // ---------------------------------------------------------------- what goes out next cycle
  typedef enum logic [2:0] {SendIdle, SendData, SendEnd, SendState, StartReplay} send_e;
  send_e            what;
  logic             end_replayed;   // the END is a replayed frame's
  logic [SeqW-1:0]  end_seq;
  logic [31:0]      end_crc;        // the CRC its fields continue
  logic [EvW-1:0]   end_ev;
  always_comb begin
    logic avail;
    avail        = send_q != app_q || in_valid_i;
    what         = SendIdle;
    end_replayed = 1'b0;
    end_seq      = nxt_q;
    end_crc      = canopy_link_pkg::CrcInit;
    end_ev       = '0;
    ev_pop       = 1'b0;
    if (rep_q) begin
      if (send_q != ft_end[rs_q]) what = SendData;
      else begin
        what         = SendEnd;
        end_replayed = 1'b1;
        end_seq      = rs_q;
        end_crc      = ft_crc[rs_q];
        end_ev       = ft_ev[rs_q];
      end
    end else begin
      if (open_q) begin
        if (32'(fw_q) == FrameWords || !avail || ev_pend) begin
          what    = SendEnd;
          end_crc = crc_eff;
          end_ev  = {ev_pend, ev_pend ? ev_head : TreeW'(0)};
          ev_pop  = ev_pend;
        end else what = SendData;
      end else if (rep_req_q && outstanding != '0) what = StartReplay;
      else if (avail && win_ok)                    what = SendData;
      else if (ev_pend && win_ok) begin
        what   = SendEnd;
        end_ev = {1'b1, ev_head};
        ev_pop = 1'b1;
      end else if (dirty || 32'(ka_q) >= KeepAlive) what = SendState;
    end
  end
  assign byp   = what == SendData && !rep_q && send_q == app_q;
  assign rd_en = what == SendData && !byp;

  // The control word's fields and body.
  canopy_link_pkg::ctl_fields_t f;
  always_comb begin
    f          = '0;
    f.is_end   = what == SendEnd;
    f.seq      = what == SendEnd ? end_seq : '0;
    f.ack      = my_ack_i;
    f.nak      = my_nak_i;
    f.cvc      = cpick;
    f.ccount   = cum_q[cpick];
    f.ev_valid = what == SendEnd && end_ev[TreeW];
    f.ev_tree  = what == SendEnd ? end_ev[TreeW-1:0] : '0;
  end
  wire logic [31:0] ctl_crc = canopy_link_pkg::crc_fields(what == SendEnd ? end_crc : canopy_link_pkg::CrcInit, f);
  wire logic sends_ctl = what == SendEnd || what == SendState;

  // ---------------------------------------------------------------- acknowledgements
  // The far end's ack names a frame in flight: frames up to it are done (not while
  // replaying: the replay reads them; the next control word acknowledges again).
  wire logic [SeqW-1:0] ack_d = peer_ack_i - una_q;
  wire logic ack_new = peer_valid_i && !rep_q && what != StartReplay && ack_d < outstanding;
  wire logic nak_new = peer_valid_i && peer_nak_i != last_nak_q;
  wire logic timer_out = outstanding != '0 && !rep_q && 32'(timer_q) >= ReplayTimeout;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      app_q      <= '0;
      send_q     <= '0;
      ack_q      <= '0;
      open_q     <= 1'b0;
      fw_q       <= '0;
      crc_q      <= canopy_link_pkg::CrcInit;
      nxt_q      <= '0;
      una_q      <= '0;
      rep_q      <= 1'b0;
      rs_q       <= '0;
      rep_req_q  <= 1'b0;
      timer_q    <= '0;
      last_nak_q <= '0;
      ka_q       <= '0;
      cum_q      <= '0;
      sent_cnt_q <= '0;
      cptr_q     <= '0;
      ack_sent_q <= '1;   // = the receiver's ack out of reset: nothing to tell
      nak_sent_q <= '0;
      w_valid_q  <= 1'b0;
      w_ctl_q    <= 1'b0;
      w_orig_q   <= 1'b0;
      w_byp_q    <= 1'b0;
    end else begin
      if (in_valid_i) app_q <= app_q + 1'b1;
      for (int unsigned v = 0; v < NumVcs; v++) cum_q[v] <= cum_q[v] + CntW'(credit_i[v]);

      crc_q <= crc_eff;
      case (what)
        SendData: begin
          send_q <= send_q + 1'b1;
          if (!rep_q) begin
            open_q <= 1'b1;
            fw_q   <= fw_q + 1'b1;
          end
        end
        SendEnd: begin
          if (end_replayed) begin
            rs_q <= rs_q + 1'b1;
            if (rs_q + 1'b1 == nxt_q) rep_q <= 1'b0;
          end else begin
            ft_end[nxt_q] <= send_q;
            ft_crc[nxt_q] <= end_crc;
            ft_ev[nxt_q]  <= end_ev;
            nxt_q  <= nxt_q + 1'b1;
            open_q <= 1'b0;
            fw_q   <= '0;
            crc_q  <= canopy_link_pkg::CrcInit;
          end
        end
        StartReplay: begin
          rep_q     <= 1'b1;
          rs_q      <= una_q;
          send_q    <= ack_q;
          rep_req_q <= 1'b0;
          timer_q   <= '0;
        end
        default: ;
      endcase
      if (what != StartReplay) begin
        if (timer_out) begin
          rep_req_q <= 1'b1;
          timer_q   <= '0;
        end else if (ack_new || outstanding == '0 || rep_q) timer_q <= '0;
        else timer_q <= timer_q + 1'b1;
        if (nak_new) rep_req_q <= 1'b1;
        else if (outstanding == '0) rep_req_q <= 1'b0;
      end
      if (nak_new) last_nak_q <= peer_nak_i;
      if (ack_new) begin
        una_q <= peer_ack_i + 1'b1;
        ack_q <= ft_end[peer_ack_i];
      end

      if (sends_ctl) begin
        ka_q              <= '0;
        sent_cnt_q[cpick] <= cum_q[cpick];
        cptr_q            <= CvcW'((32'(cpick) + 1) % NumVcs);
        ack_sent_q        <= my_ack_i;
        nak_sent_q        <= my_nak_i;
      end else if (32'(ka_q) < KeepAlive) ka_q <= ka_q + 1'b1;

      w_valid_q <= what == SendData || sends_ctl;
      w_ctl_q   <= sends_ctl;
      w_orig_q  <= what == SendData && !rep_q;
      w_byp_q   <= byp;
    end
  end
  always_ff @(posedge clk_i) begin
    w_cbody_q  <= {ctl_crc, f};
    byp_word_q <= word_of(in_last_i, in_vc_i, in_flit_i);
  end

  assign w_valid_o = w_valid_q;
  assign w_ctl_o   = w_ctl_q;
  assign w_last_o  = w_valid_q && !w_ctl_q && w_word[WordW-1];
  assign w_vc_o    = w_valid_q && !w_ctl_q ? VcW'(w_word[BodyW +: CvcW]) : '0;
  assign w_body_o  = !w_valid_q ? '0 : w_ctl_q ? w_cbody_q : w_word[BodyW-1:0];
  assign rb_used_o  = app_q - ack_q;
  assign replay_o   = what == StartReplay;
  assign progress_o = ack_new;
  assign timeout_o  = timer_out && what != StartReplay;

  // The link pays its router credits only while what they allow fits (canopy_link).
  `CANOPY_ASSERT(a_rb_room, !in_valid_i || PtrW'(app_q - ack_q) < PtrW'(RbDepth),
                 "replay buffer overflow: the router sent without a credit the link paid")
  `CANOPY_ASSERT(a_ev_room, !ev_valid_i || ev_ready, "too many slot credits waiting")
  `CANOPY_ASSERT(a_order, PtrW'(send_q - ack_q) <= PtrW'(app_q - ack_q),
                 "replay buffer pointers out of order")
  `CANOPY_ASSERT(a_window, 32'(outstanding) < canopy_link_pkg::MaxFrames, "more frames in flight than the window")
  wire logic [SeqW-1:0] rs_off = rs_q - una_q;
  `CANOPY_ASSERT(a_replay_in_window, !rep_q || rs_off < outstanding,
                 "replaying a frame outside the window")
  `CANOPY_ASSERT(a_frame_len, 32'(fw_q) <= FrameWords, "frame longer than FrameWords")
  `CANOPY_ASSERT(a_no_open_replay, !(rep_q && open_q), "replay started with a frame open")
  `CANOPY_ASSERT(a_bypass, !byp || in_valid_i, "cut through with no flit arriving")
endmodule

`default_nettype wire
