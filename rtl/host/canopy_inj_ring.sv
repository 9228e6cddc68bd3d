// canopy_inj_ring: the injection ring (device RAM the host fills through the BAR0 window),
// its doorbell, and the injector that frames its packets toward the router.
//
// Interface contract
//   - win_wr_*: one window write per cycle (never backpressured), word index
//     win_wr_idx_i (ring word idx mod InjRingWords), 64-bit data, byte strobes. It reaches
//     the RAM only inside the free region, ring words [tail, head + InjRingWords) (in
//     auto-commit mode also below tail + AutoAhead, 128); else it is dropped and
//     err_inj_write_o pulses. Committed words are never overwritten.
//   - tail_we_i / tail_i: the INJ_TAIL doorbell and the value written (the producer count
//     in words, free-running, modulo 2^32). Accepted only if
//     0 < tail_i - tail <= InjRingWords - (tail - head) and auto_commit_i is 0; else
//     ignored, err_doorbell_o.
//   - auto_commit_i (INJ_MODE.auto_commit; changed only while the ring is empty): the ring
//     commits itself. A word written whole (every byte strobe) at the tail commits in the
//     cycle it arrives; one written whole up to AutoAhead words past it is marked, and the
//     tail moves over marked words, one a cycle; so words are committed as the host's
//     writes arrive, in whatever order write-combining delivers them (within AutoAhead
//     words), with no doorbell. A packet that runs past the committed words (its
//     descriptor, or a batch's next packet) is waited for until the host has written it
//     instead of being refused. A descriptor whose packet can never fit the ring (flit
//     count + 1 > InjRingWords) is still refused.
//   - out_*: the packets, valid/ready (valid never waits for ready): out_flit_o on VC
//     out_vc_o, out_last_o on each packet's final flit.
//   - head_o: INJ_HEAD, words consumed (free-running); a word counts as consumed once it
//     has been read out of the RAM (into the small output FIFO), so its slot is free.
//   - busy_o: words committed but not yet sent (STATUS.inj_busy).
//   - err_inj_desc_o: one pulse per refused descriptor (flit count 0, or the packet runs
//     past the tail) and per packet of a batch that runs past the tail when the injector
//     reaches it (in auto-commit mode: flit count 0, or more than the ring holds); the
//     injector then discards every committed word (head = tail; in auto-commit mode only
//     the descriptor word, since the words after it are the host's next entries, committed
//     as they arrive). A packet starts only
//     once all its words are committed, in either mode, so one never stalls half sent.
//   - err_inj_len_o: one pulse per packet refused because its flit count disagrees with its
//     header's length field (or the length is above canopy_pkg::MaxPayloadBytes); the
//     packet's words are skipped, nothing of it leaves. The router's inputs cut through,
//     so this is where a host's framing is checked before any flit enters the fabric.
//   - tx_flit_o / tx_pkt_o: one-cycle pulses per flit / packet handed out (TX_FLITS,
//     TX_PKTS).
// Descriptor word: bits 7..0 flit count (1..255), bits 9..8 VC, bits 17..10 `more`: how
// many further packets of the same flit count and VC follow the first, back to back
// (a batch: one descriptor for up to 256 packets), rest reserved. The flit count alone
// frames each packet; the router checks each header against it.
//
// The RAM has one write port (window) and one synchronous read port (injector), so it maps
// onto block RAM with byte enables. The injector reads a descriptor (one cycle to decide)
// and, in the same cycle it accepts it, reads the header word; the cycle after, it checks
// the header's length against the descriptor and either passes the header on and streams
// the rest at one word per cycle into a 4-entry FIFO, or skips the packet. The next packet
// of a batch starts with its header the cycle after the previous packet's last word, so a
// batch streams one word per cycle with no descriptor between its packets. Words reach the
// FIFO through one register stage, so the header check on the block RAM's late output ends
// at a flip-flop rather than in the FIFO's write logic. It reads only when the FIFO is
// sure to have room for the words in flight.
`default_nettype none
`include "canopy_assert.svh"

module canopy_inj_ring #(
  parameter int unsigned InjRingWords = 2048, /// ring words: a power of two, 64..4096
  parameter int unsigned NumVcs       = 4,    /// VCs of the router's local port
  localparam int unsigned VcW = $clog2(NumVcs),
  localparam int unsigned WinIdxBits = $clog2(canopy_host_pkg::InjWindowWords)
) (
  input  wire logic                  clk_i,
  input  wire logic                  rst_i,

  input  wire logic                  win_wr_i,
  input  wire logic [WinIdxBits-1:0] win_wr_idx_i,
  input  wire logic [63:0]           win_wr_data_i,
  input  wire logic [7:0]            win_wr_strb_i,

  input  wire logic                  tail_we_i,
  input  wire logic [31:0]           tail_i,
  input  wire logic                  auto_commit_i,

  output logic                       out_valid_o,
  input  wire logic                  out_ready_i,
  output logic      [63:0]           out_flit_o,
  output logic                       out_last_o,
  output logic      [VcW-1:0]        out_vc_o,

  output logic      [31:0]           head_o,
  output logic                       busy_o,
  output logic                       err_inj_write_o,
  output logic                       err_doorbell_o,
  output logic                       err_inj_desc_o,
  output logic                       err_inj_len_o,
  output logic                       tx_flit_o,
  output logic                       tx_pkt_o
);
  localparam int unsigned IdxW      = $clog2(InjRingWords);
  localparam int unsigned FifoDepth = 4;
  localparam int unsigned AutoAhead = 128;   // auto-commit: words past the tail a write may reach
  localparam logic [31:0] Words     = 32'(InjRingWords);

  `CANOPY_STATIC_ASSERT(gen_words_check, InjRingWords >= 64 && InjRingWords <= canopy_host_pkg::InjWindowWords
                        && (InjRingWords & (InjRingWords - 1)) == 0,
                        "InjRingWords must be a power of two, 64..4096")
  `CANOPY_STATIC_ASSERT(gen_vcs_check, NumVcs >= 4, "the descriptor's VC field needs 4 VCs")

  logic [31:0] head_q, head_d, tail_q, tail_d;
  // Committed words. With used <= Words < 2^CntW (asserted on the full counters) the
  // difference of the counters' low CntW bits is the whole difference: narrow carry chains
  // on the paths from head_q that end in the tail and in the RAM's write enable.
  localparam int unsigned CntW = IdxW + 1;
  wire logic [CntW-1:0] used_n = tail_q[CntW-1:0] - head_q[CntW-1:0];
  wire logic [31:0]     used   = 32'(used_n);
  wire logic [31:0]     free   = Words - used;

  // ---------------------------------------------------------------- window writes, RAM
  logic [63:0]     ram_q [InjRingWords];
  logic [63:0]     ram_rdata_q;
  logic            ram_we, ram_re;
  logic [IdxW-1:0] ram_waddr, ram_raddr;
  logic [IdxW-1:0] wr_from_tail, wr_from_head;

  assign ram_waddr    = win_wr_idx_i[IdxW-1:0];
  if (IdxW < WinIdxBits) begin : gen_alias
    wire logic unused_alias = ^win_wr_idx_i[WinIdxBits-1:IdxW];  // the window repeats the ring
  end
  assign wr_from_tail = ram_waddr - tail_q[IdxW-1:0];
  assign wr_from_head = ram_waddr - head_q[IdxW-1:0];
  // (in auto-commit mode, only as far past the tail as its marks reach)
  assign ram_we       = win_wr_i && 32'(wr_from_tail) < free && (!auto_commit_i || 32'(wr_from_tail) < AutoAhead);
  assign err_inj_write_o = win_wr_i && !ram_we;

  always_ff @(posedge clk_i) begin
    for (int unsigned b = 0; b < 8; b++) begin
      if (ram_we && win_wr_strb_i[b]) ram_q[ram_waddr][8*b +: 8] <= win_wr_data_i[8*b +: 8];
    end
  end

  always_ff @(posedge clk_i) begin
    if (ram_re) ram_rdata_q <= ram_q[ram_raddr];
  end

  // ---------------------------------------------------------------- doorbell, commits
  // 0 < tail_i - tail <= Words - used is, with tail = head + used and used <= Words,
  // used < tail_i - head <= Words: one 32-bit subtract and two CntW-bit compares, not three
  // chained 32-bit operations (that chain, head_q to tail_q, was the node's worst placed
  // path: 76.52 MHz).
  wire logic [31:0] tail_ahead = tail_i - head_q;
  wire logic        ahead_fits = tail_ahead[31:CntW] == '0 && tail_ahead[CntW-1:0] <= CntW'(Words);
  wire logic        tail_ok    = !auto_commit_i && ahead_fits && tail_ahead[CntW-1:0] > used_n;

  // Auto-commit. A whole word written at the tail commits in the cycle it arrives. One
  // written further on (the host maps the window write-combined, and a write-combining
  // buffer's words may reach the device in any order) is marked, a cycle later, in
  // marks_q, bit k for the word k places past the tail; the tail then moves over marked
  // words, one a cycle. Marks cover AutoAhead words past the tail, twice the 64 words
  // libcanopy writes between two store fences; further on, a window write is refused
  // in this mode (it could never be committed). Why a window and not a mark per ring
  // word: a bit per word with its set and clear decoders cost 7,000 LUT4 (measured).
  logic [AutoAhead-1:0] marks_q, marks_set;
  logic                 late_q;        // last cycle's write was whole and not at the tail
  logic [IdxW-1:0]      late_idx_q;
  wire logic [IdxW-1:0] tail_idx = tail_q[IdxW-1:0];
  wire logic [IdxW-1:0] late_k   = late_idx_q - tail_idx;  // its place past the tail, now
  wire logic whole   = ram_we && win_wr_strb_i == 8'hFF;
  // A whole word at the tail while the ring is not full (so inside the free region, as
  // whole is): equalities only, not ram_we's subtracts and compare, since the commit it
  // makes feeds the tail (placed, that path had been the node's worst: 86.18 MHz). With
  // used <= Words, the ring is full exactly when the tail's and the head's ring indices
  // agree and the bit above them differs.
  wire logic ring_full = (tail_q[IdxW:0] ^ head_q[IdxW:0]) == {1'b1, IdxW'(0)};
  wire logic at_tail   = win_wr_i && win_wr_strb_i == 8'hFF && ram_waddr == tail_idx && !ring_full;
  wire logic commit  = auto_commit_i && (at_tail || marks_q[0]);
  always_comb begin
    marks_set = '0;
    if (late_q && 32'(late_k) < AutoAhead) marks_set[late_k[$clog2(AutoAhead)-1:0]] = 1'b1;
  end
  always_ff @(posedge clk_i) begin
    if (rst_i || !auto_commit_i) begin
      marks_q <= '0;
      late_q  <= 1'b0;
    end else begin
      marks_q <= commit ? (marks_q | marks_set) >> 1 : (marks_q | marks_set);
      late_q  <= whole && !at_tail;
    end
  end
  always_ff @(posedge clk_i) late_idx_q <= ram_waddr;
  `CANOPY_ASSERT(a_ring_full, ring_full == (used == Words), "the narrow ring-full test disagrees with the count")
  `CANOPY_ASSERT(a_at_tail_whole, !at_tail || (whole && wr_from_tail == '0), "a write at the tail outside the free region")

  assign err_doorbell_o = tail_we_i && !tail_ok;
  assign tail_d         = (tail_we_i && tail_ok) ? tail_i : commit ? tail_q + 32'd1 : tail_q;

  // ---------------------------------------------------------------- injector
  typedef enum logic [2:0] { IIdle, IDesc, INext, IHdr, IStream } istate_e;
  istate_e       state_q, state_d;
  logic [7:0]    left_q, left_d;      // words of the packet still to read
  logic [7:0]    flits_q, flits_d;    // the descriptor's flit count
  logic [7:0]    more_q, more_d;      // packets of the batch after the current one
  // The header's length field must call for exactly flits_q flits: HdrWords + ceil(len / 8).
  // Kept as the two values len / 8 (rounded down) may take, flits - HdrWords for a length
  // that is a multiple of 8 and one less otherwise, so the check of the header word is an
  // equality behind the RAM read, not an adder and a comparator.
  logic [7:0]    want_q, want_d, want1_q, want1_d;
  logic [VcW-1:0] vc_q, vc_d;
  logic          infl_q, infl_last_q; // a packet word was read last cycle
  logic [VcW-1:0] infl_vc_q;
  logic          read_word, drop_hdr;
  logic          w2_valid_q;          // a word on its way into the FIFO
  logic [64+VcW:0] w2_data_q;

  logic                   fifo_ready, fifo_valid;
  logic [64+VcW:0]        fifo_out;
  logic [$clog2(FifoDepth + 1):0] fifo_count;

  wire logic [7:0]  desc_flits = ram_rdata_q[7:0];
  wire logic [1:0]  desc_vc    = ram_rdata_q[9:8];
  wire logic [7:0]  desc_more  = ram_rdata_q[17:10];
  // The packet, descriptor included (desc_flits + 1 words), runs past the committed words:
  // desc_flits + 1 > used, compared on 9 bits (desc_flits + 1 <= 256), not through a
  // 32-bit adder and comparator behind the RAM read.
  wire logic        desc_short = used[31:9] == '0 && {1'b0, desc_flits} >= used[8:0];
  // The next packet of a batch (flits_q words from head) runs past the committed words.
  wire logic        next_short = used[31:8] == '0 && flits_q > used[7:0];
  // A descriptor whose packet the ring can never hold (only below 256 ring words).
  wire logic        desc_never = 32'(desc_flits) >= Words;
  // After a packet's last word: the batch's next packet, or the next descriptor.
  wire istate_e     after_pkt  = more_q != '0 ? INext : IIdle;
  wire logic [2:0]  in_flight  = 3'(infl_q) + 3'(w2_valid_q);
  wire logic        fifo_room  = 32'(fifo_count) + 32'(in_flight) < FifoDepth;

  // The header word (read last cycle, in IHdr): the flits its length field calls for.
  /* verilator lint_off UNUSEDSIGNAL */
  canopy_pkg::hdr_t hdr;
  /* verilator lint_on UNUSEDSIGNAL */
  assign hdr = canopy_pkg::hdr_t'({64'b0, ram_rdata_q});
  localparam int unsigned LenW     = canopy_pkg::HdrLenBits;
  localparam int unsigned HdrWords = canopy_pkg::HeaderBits / 64;
  wire logic [7:0] len_words  = 8'(hdr.len[LenW-1:3]);      // len / 8, rounded down
  wire logic       len_whole  = hdr.len[2:0] == '0;
  wire logic       framing_ok = hdr.len <= LenW'(canopy_pkg::MaxPayloadBytes)
                                && len_words == (len_whole ? want_q : want1_q);

  always_comb begin
    state_d        = state_q;
    head_d         = head_q;
    left_d         = left_q;
    flits_d        = flits_q;
    more_d         = more_q;
    want_d         = want_q;
    want1_d        = want1_q;
    vc_d           = vc_q;
    ram_re         = 1'b0;
    ram_raddr      = head_q[IdxW-1:0];
    read_word      = 1'b0;
    drop_hdr       = 1'b0;
    err_inj_desc_o = 1'b0;
    err_inj_len_o  = 1'b0;
    unique case (state_q)
      IIdle: if (used != '0) begin
        ram_re  = 1'b1;                // the descriptor; decided next cycle
        state_d = IDesc;
      end
      IDesc: begin
        // The header word behind the descriptor is read whenever the FIFO has room, before
        // the descriptor is judged: the RAM's enable then does not wait on the RAM's own
        // late output. A word read for a refused descriptor is never used.
        ram_re    = fifo_room;
        ram_raddr = head_q[IdxW-1:0] + 1'b1;
        if (desc_flits == '0 || desc_never || (desc_short && !auto_commit_i)) begin
          // Resynchronise at the tail (the doorbell's entries end there); self-committed
          // words are the host's next entries, arriving: only the descriptor is skipped.
          err_inj_desc_o = 1'b1;
          head_d  = auto_commit_i ? head_q + 32'd1 : tail_q;
          state_d = IIdle;
        end else if (desc_short) begin
          // Auto-commit: the host is still writing the packet. The descriptor is read again
          // (the word read now is the one behind it).
          state_d = IIdle;
        end else if (fifo_room) begin
          // Take the descriptor; its header word is being read.
          read_word = 1'b1;
          head_d    = head_q + 32'd2;
          left_d    = desc_flits - 1'b1;
          flits_d   = desc_flits;
          more_d    = desc_more;
          // (wrapping below HdrWords: no 8-bit value len / 8 can take then)
          want_d    = desc_flits - 8'(HdrWords);
          want1_d   = desc_flits - 8'(HdrWords + 1);
          vc_d      = VcW'(desc_vc);
          state_d   = IHdr;
        end
      end
      INext: begin
        // The batch's next packet: as IDesc, with the descriptor's fields held and the
        // header at head.
        ram_re = fifo_room;
        if (next_short && !auto_commit_i) begin
          err_inj_desc_o = 1'b1;       // resynchronise at the tail
          head_d  = tail_q;
          state_d = IIdle;
        end else if (next_short) begin
          ;                            // auto-commit: waited for
        end else if (fifo_room) begin
          read_word = 1'b1;
          head_d    = head_q + 1'b1;
          left_d    = flits_q - 1'b1;
          more_d    = more_q - 1'b1;
          state_d   = IHdr;
        end
      end
      IHdr: begin
        ram_re = fifo_room;            // as in IDesc: ahead of the header's check
        if (!framing_ok) begin
          // The header read last cycle stays out of the FIFO; skip the rest of the packet.
          drop_hdr      = 1'b1;
          err_inj_len_o = 1'b1;
          head_d        = head_q + 32'(left_q);
          state_d       = after_pkt;
        end else if (fifo_room) begin
          read_word = 1'b1;
          head_d    = head_q + 1'b1;
          left_d    = left_q - 1'b1;
          state_d   = left_q == 8'd1 ? after_pkt : IStream;
        end else begin
          state_d   = IStream;
        end
      end
      IStream: begin
        // Read only if the FIFO can take this word and the ones in flight.
        if (fifo_room) begin
          ram_re    = 1'b1;
          read_word = 1'b1;
          head_d    = head_q + 1'b1;
          left_d    = left_q - 1'b1;
          if (left_q == 8'd1) state_d = after_pkt;
        end
      end
      default: state_d = IIdle;
    endcase
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      state_q <= IIdle;
      head_q  <= '0;
      tail_q  <= '0;
      infl_q  <= 1'b0;
      w2_valid_q <= 1'b0;
    end else begin
      state_q <= state_d;
      head_q  <= head_d;
      tail_q  <= tail_d;
      infl_q  <= read_word;
      w2_valid_q <= infl_q && !drop_hdr;
    end
  end

  always_ff @(posedge clk_i) begin
    left_q      <= left_d;
    flits_q     <= flits_d;
    more_q      <= more_d;
    want_q      <= want_d;
    want1_q     <= want1_d;
    vc_q        <= vc_d;
    // The word read this cycle ends its packet when it is the last one left (a header is
    // never the last word: a packet has at least two).
    infl_last_q <= state_q != IDesc && state_q != INext && left_q == 8'd1;
    infl_vc_q   <= vc_d;
    w2_data_q   <= {infl_vc_q, infl_last_q, ram_rdata_q};
  end

  // The length check as it was written before (an adder and a comparator), asserted equal.
  wire logic [LenW:0] len_flits = (LenW + 1)'(HdrWords) + (LenW + 1)'(({1'b0, hdr.len} + 10'd7) >> 3);
  `CANOPY_ASSERT(a_framing, state_q != IHdr || framing_ok == (hdr.len <= LenW'(canopy_pkg::MaxPayloadBytes)
                            && len_flits == (LenW + 1)'(flits_q)), "the header length check disagrees with its definition")

  logic                   unused_out_fifo_next_valid;  // the FIFO's peek port, not read here
  logic [64 + VcW:0]       unused_out_fifo_next_data;
  canopy_reg_fifo #(.Width(64 + 1 + VcW), .Depth(FifoDepth)) u_out_fifo (
    .clk_i,
    .rst_i,
    .in_valid_i  (w2_valid_q),
    .in_ready_o  (fifo_ready),
    .in_data_i   (w2_data_q),
    .out_valid_o (fifo_valid),
    .out_ready_i (out_ready_i),
    .out_data_o  (fifo_out),
    .count_o     (fifo_count),
    .next_valid_o (unused_out_fifo_next_valid),
    .next_data_o  (unused_out_fifo_next_data)
  );

  assign out_valid_o = fifo_valid;
  assign out_flit_o  = fifo_out[63:0];
  assign out_last_o  = fifo_out[64];
  assign out_vc_o    = fifo_out[64+VcW:65];

  assign tx_flit_o = out_valid_o && out_ready_i;
  assign tx_pkt_o  = out_valid_o && out_ready_i && out_last_o;
  assign head_o    = head_q;
  assign busy_o    = used != '0 || state_q != IIdle || infl_q || w2_valid_q || fifo_valid;

  // ---------------------------------------------------------------- invariants
  `CANOPY_ASSERT(a_desc_short, desc_short == (32'(desc_flits) + 32'd1 > used),
                 "the narrow descriptor-length check disagrees with the full one")
  `CANOPY_ASSERT(a_next_short, state_q != INext || next_short == (32'(flits_q) > used),
                 "the narrow batch-packet length check disagrees with the full one")
  `CANOPY_ASSERT(a_ring_bound, tail_q - head_q <= Words, "more words committed than the ring holds")
  `CANOPY_ASSERT(a_used_narrow, used == tail_q - head_q, "the narrow count of committed words disagrees")
  `CANOPY_ASSERT(a_tail_ok, tail_ok == (!auto_commit_i && tail_i - tail_q != '0 && tail_i - tail_q <= free),
                 "the doorbell check disagrees with its definition")
  `CANOPY_ASSERT(a_commit_free, !commit || free != '0, "auto-commit past the ring's free words")
  `CANOPY_ASSERT(a_no_overwrite, !ram_we || 32'(wr_from_head) >= used,
                 "window write reached a committed ring word")
  `CANOPY_ASSERT(a_read_committed, !read_word || used != '0, "injector read an uncommitted word")
  `CANOPY_ASSERT(a_fifo_room, !w2_valid_q || fifo_ready, "injector FIFO overflow")
endmodule

`default_nettype wire
