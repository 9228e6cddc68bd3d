// canopy_dma_writer: AXI4 write master: byte-addressed writes of up to 256 bytes from a
// stream of payload words, split into bursts, with in-order completion.
//
// Interface contract
//   - req_*: a request, valid/ready: byte address (any alignment), byte length 0..256,
//     the payload source (req_src_i, see data_*) and an opaque tag. A zero-length request
//     writes nothing but still completes, in its turn.
//   - data_*: the payload words of the requests, in request order: 64-bit little-endian
//     words whose byte 0 is the request's first byte, ceil(len / 8) words per request
//     (unused bytes of the last one ignored), each with a poison bit (data_poison_i: the
//     word is not what its sender sent; canopy_ejector sets it on a packet a dying link
//     cut). The word is written all the same; the request completes as failed (done_err_o)
//     and nothing of it counts as delivered. data_src_o names the source the writer is
//     reading now (the req_src_i of the request whose words it needs); the caller
//     multiplexes data_valid_i / data_i from that source and routes data_ready_o (a word
//     taken this cycle) back to it. A source's words need not be there before its
//     request is accepted; the writer waits for them.
//   - done_valid_o / done_tag_o: one-cycle pulse with the tag of a completed request, in
//     request order, once the write response of its last burst has returned (at once, in
//     order, for a zero-length request). No backpressure: the caller always takes it.
//     done_err_o (with done_valid_o): a burst of the request was answered with an error
//     (BRESP SLVERR or DECERR: the bridge or the IOMMU refused the write); the bytes of
//     that burst may not have landed; or one of its payload words was poisoned.
//     err_resp_o: one pulse per burst answered with an error (BRESP only).
//   - m_axi_*: AXI4 write channels (no read channels: this block only writes). 64-bit data,
//     64-bit address, INCR bursts of at most 16 beats that never cross a 4 KiB boundary,
//     AWSIZE 8 bytes, WSTRB set only on the request's bytes, one AXI ID (0) so responses
//     return in order, at most MaxOutstanding bursts whose response is owed. W beats of a
//     burst may be offered before its AW is accepted (as AXI requires of a master).
//     BRESP is checked (done_err_o, err_resp_o); BID is not (one ID).
//
// Structure: a splitter cuts the request at the head of the queue into bursts (one per
// cycle) and pushes each burst's AW, its W description and its completion record into
// three FIFOs; the W path realigns payload words to the bus (shift by the address's byte
// offset, carrying the previous word), producing one beat per cycle into a 2-entry output
// FIFO; the B path pops completion records as responses return.
`default_nettype none
`include "canopy_assert.svh"

module canopy_dma_writer #(
  parameter int unsigned TagWidth       = 0,  /// bits of the opaque request tag; must be set
  parameter int unsigned NumSrcs        = 2,  /// payload sources the caller multiplexes, >= 1
  parameter int unsigned AxiIdWidth     = 4,  /// AXI ID bits; every burst uses ID 0
  parameter int unsigned MaxOutstanding = 8,  /// bursts whose write response may be owed
  localparam int unsigned SrcW = NumSrcs > 1 ? $clog2(NumSrcs) : 1,
  localparam int unsigned LenW = canopy_host_pkg::DmaLenBits
) (
  input  wire logic                  clk_i,
  input  wire logic                  rst_i,

  input  wire logic                  req_valid_i,
  output logic                       req_ready_o,
  input  wire logic [63:0]           req_addr_i,
  input  wire logic [LenW-1:0]       req_len_i,
  input  wire logic [SrcW-1:0]       req_src_i,
  input  wire logic [TagWidth-1:0]   req_tag_i,

  output logic      [SrcW-1:0]       data_src_o,
  input  wire logic                  data_valid_i,
  output logic                       data_ready_o,
  input  wire logic [63:0]           data_i,
  input  wire logic                  data_poison_i,

  output logic                       done_valid_o,
  output logic      [TagWidth-1:0]   done_tag_o,
  output logic                       done_err_o,
  output logic                       err_resp_o,

  output logic      [AxiIdWidth-1:0] m_axi_awid_o,
  output logic      [63:0]           m_axi_awaddr_o,
  output logic      [7:0]            m_axi_awlen_o,
  output logic      [2:0]            m_axi_awsize_o,
  output logic      [1:0]            m_axi_awburst_o,
  output logic      [3:0]            m_axi_awcache_o,
  output logic      [2:0]            m_axi_awprot_o,
  output logic                       m_axi_awvalid_o,
  input  wire logic                  m_axi_awready_i,
  output logic      [63:0]           m_axi_wdata_o,
  output logic      [7:0]            m_axi_wstrb_o,
  output logic                       m_axi_wlast_o,
  output logic                       m_axi_wvalid_o,
  input  wire logic                  m_axi_wready_i,
  input  wire logic [AxiIdWidth-1:0] m_axi_bid_i,
  input  wire logic [1:0]            m_axi_bresp_i,
  input  wire logic                  m_axi_bvalid_i,
  output logic                       m_axi_bready_o
);
  localparam int unsigned MaxBeats = 16;
  localparam int unsigned OutW     = $clog2(MaxOutstanding + 1);
  localparam int unsigned BeatW    = $clog2(MaxBeats + 1);           // 1..16
  localparam int unsigned KW       = $clog2(canopy_pkg::MaxPayloadBytes / 8 + 2);  // 0..33
  // W records never outnumber the bursts outstanding; completion records may also hold
  // zero-length requests queued behind them.
  localparam int unsigned WDepth   = MaxOutstanding < 2 ? 2 : 1 << $clog2(MaxOutstanding);
  localparam int unsigned CDepth   = 2 * WDepth;

  `CANOPY_STATIC_ASSERT(gen_tag_check, TagWidth >= 1, "TagWidth must be set")
  `CANOPY_STATIC_ASSERT(gen_out_check, MaxOutstanding >= 1 && MaxOutstanding <= 16,
                        "MaxOutstanding must be 1..16")

  // ---------------------------------------------------------------- FIFO records
  typedef struct packed {
    logic [60:0]       addr;    // 8-byte aligned address, in words
    logic [3:0]        len;     // AWLEN
  } aw_rec_t;

  // The W path's per-request numbers (words, last beat, last byte lane) are worked out once,
  // when the request is taken, and travel in the record: the beat loop then only compares
  // registers with its counters.
  typedef struct packed {
    logic [3:0]        last_bb; // beats of this burst - 1, 0..15
    logic              first;   // first burst of its request
    logic              last;    // last burst of its request
    logic [2:0]        shift;   // request address byte offset
    logic [KW-1:0]     words;   // payload words of the request, ceil(len / 8)
    logic [KW-1:0]     last_k;  // the request's last beat, ceil((shift + len) / 8) - 1
    logic [2:0]        hi;      // byte lane of the request's last byte
    logic [SrcW-1:0]   src;
  } w_rec_t;

  typedef struct packed {
    logic                nul;   // zero-length request: completes without a response
    logic                last;  // the burst completes its request
    logic [TagWidth-1:0] tag;
  } c_rec_t;

  // ---------------------------------------------------------------- splitter
  // The splitter's address in two parts: the byte offset in the 4 KiB page, where every
  // burst's arithmetic happens, and the page number, which moves only when a burst ends
  // exactly on a page boundary. It is incremented the cycle after (sp_cross_q), so the
  // 52-bit increment hangs off registers instead of the end of the chunk arithmetic (that
  // chain, one 64-bit add, was the node's critical path: 11.6 ns).
  logic                sp_busy_q;
  logic [63:12]        sp_page_q;
  logic [11:0]         sp_off_q;
  logic                sp_cross_q;     // the last burst ended on a page boundary
  logic [LenW-1:0]     sp_rem_q;       // bytes not yet assigned to a burst
  logic                sp_first_q;
  logic [2:0]          sp_shift_q;
  logic [KW-1:0]       sp_words_q;     // the W record's request numbers (w_rec_t)
  logic [KW-1:0]       sp_last_k_q;
  logic [2:0]          sp_hi_q;
  logic [SrcW-1:0]     sp_src_q;
  logic [TagWidth-1:0] sp_tag_q;
  logic [OutW-1:0]     out_q;          // bursts whose response is owed

  logic [7:0]      to_4k;      // bytes to the next 4 KiB boundary, within the page's last 128
  logic [7:0]      to_max;     // bytes a 16-beat burst can reach from here
  logic [LenW-1:0] chunk;      // bytes of this burst
  logic [BeatW-1:0] beats;
  logic            burst_last;
  logic            aw_ready, w_ready, c_ready, aw_valid, wq_valid, c_valid;
  logic            push_burst, push_null, b_take, w_pop, c_pop;
  aw_rec_t         aw_in, aw_out;
  w_rec_t          w_in, wq;
  c_rec_t          c_in, c_out;

  wire logic [63:12] sp_page = sp_page_q + 52'(sp_cross_q);
  // A burst takes all that is left when it fits under both limits (16 beats from here, the
  // next 4 KiB boundary); otherwise it stops at the nearer limit, which is the boundary only
  // within the page's last 128 bytes. Written as two compares side by side rather than a
  // chain of minimums, so `burst_last` (the splitter's busy flag) and the beat count do not
  // wait for each other.
  always_comb begin
    logic fits_max, fits_4k, near_4k;
    to_4k    = 8'd128 - {1'b0, sp_off_q[6:0]};
    to_max   = 8'd128 - {5'd0, sp_off_q[2:0]};
    fits_max = sp_rem_q <= {1'b0, to_max};
    fits_4k  = {4'd0, sp_rem_q} + {1'b0, sp_off_q} <= 13'd4096;
    near_4k  = sp_off_q[11:7] == 5'h1f;
    burst_last = fits_max && fits_4k;
    chunk    = burst_last ? sp_rem_q : near_4k ? LenW'(to_4k) : LenW'(to_max);
    // Beats of a burst that stops at a limit: 16, or up to the boundary.
    beats    = burst_last ? BeatW'(({2'b0, sp_rem_q} + {8'd0, sp_off_q[2:0]} + (LenW + 2)'(7)) >> 3)
             : near_4k    ? BeatW'(5'd16 - {1'b0, sp_off_q[6:3]})
             :              BeatW'(16);

    aw_in.addr   = {sp_page, sp_off_q[11:3]};
    aw_in.len    = 4'(beats - 1'b1);
    w_in.last_bb = 4'(beats - 1'b1);
    w_in.first   = sp_first_q;
    w_in.last    = burst_last;
    w_in.shift   = sp_shift_q;
    w_in.words   = sp_words_q;
    w_in.last_k  = sp_last_k_q;
    w_in.hi      = sp_hi_q;
    w_in.src     = sp_src_q;
    c_in.nul     = sp_rem_q == '0;
    c_in.last    = burst_last;
    c_in.tag     = sp_tag_q;

    push_burst = sp_busy_q && sp_rem_q != '0 && aw_ready && w_ready && c_ready
                 && out_q < OutW'(MaxOutstanding);
    push_null  = sp_busy_q && sp_rem_q == '0 && c_ready;
  end

  assign req_ready_o = !sp_busy_q;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      sp_busy_q <= 1'b0;
    end else if (req_valid_i && req_ready_o) begin
      sp_busy_q <= 1'b1;
    end else if (push_null || (push_burst && burst_last)) begin
      sp_busy_q <= 1'b0;
    end
  end

  always_ff @(posedge clk_i) begin
    logic [12:0] off_next;
    off_next = {1'b0, sp_off_q} + 13'(chunk);
    if (req_valid_i && req_ready_o) begin
      sp_page_q  <= req_addr_i[63:12];
      sp_off_q   <= req_addr_i[11:0];
      sp_cross_q <= 1'b0;
      sp_rem_q   <= req_len_i;
      sp_first_q <= 1'b1;
      sp_shift_q <= req_addr_i[2:0];
      sp_words_q <= KW'((req_len_i + LenW'(7)) >> 3);
      sp_last_k_q <= KW'((({1'b0, req_len_i} + (LenW + 1)'(req_addr_i[2:0]) + (LenW + 1)'(7)) >> 3) - 1'b1);
      sp_hi_q    <= 3'(req_addr_i[2:0] + 3'(req_len_i) - 3'd1);
      sp_src_q   <= req_src_i;
      sp_tag_q   <= req_tag_i;
    end else begin
      sp_page_q  <= sp_page;
      sp_cross_q <= push_burst && off_next[12];
      if (push_burst) begin
        sp_off_q   <= off_next[11:0];
        sp_rem_q   <= sp_rem_q - chunk;
        sp_first_q <= 1'b0;
      end
    end
  end

  // The burst FIFOs. Each W record and completion record is pushed with its AW, so their
  // occupancy never exceeds the bursts outstanding (plus zero-length records).
  canopy_fifo #(.Width($bits(aw_in)), .Depth(2)) u_aw_fifo (
    .clk_i, .rst_i,
    .in_valid_i (push_burst), .in_ready_o (aw_ready), .in_data_i (aw_in),
    .out_valid_o (aw_valid), .out_ready_i (m_axi_awready_i), .out_data_o (aw_out),
    .count_o (unused_aw_count)
  );
  wire logic [1:0] unused_aw_count;

  logic                   unused_w_fifo_next_valid;  // the FIFO's peek port, not read here
  logic [$bits(w_in)-1:0] unused_w_fifo_next_data;
  canopy_reg_fifo #(.Width($bits(w_in)), .Depth(WDepth)) u_w_fifo (
    .clk_i, .rst_i,
    .in_valid_i (push_burst), .in_ready_o (w_ready), .in_data_i (w_in),
    .out_valid_o (wq_valid), .out_ready_i (w_pop), .out_data_o (wq),
    .count_o (unused_w_count),
    .next_valid_o (unused_w_fifo_next_valid),
    .next_data_o  (unused_w_fifo_next_data)
  );
  wire logic [$clog2(WDepth + 1):0] unused_w_count;

  canopy_fifo #(.Width($bits(c_in)), .Depth(CDepth)) u_c_fifo (
    .clk_i, .rst_i,
    .in_valid_i (push_burst || push_null), .in_ready_o (c_ready), .in_data_i (c_in),
    .out_valid_o (c_valid), .out_ready_i (c_pop), .out_data_o (c_out),
    .count_o (unused_c_count)
  );
  wire logic [$clog2(CDepth):0] unused_c_count;

  assign m_axi_awvalid_o = aw_valid;
  assign m_axi_awaddr_o  = {aw_out.addr, 3'b000};
  assign m_axi_awlen_o   = {4'd0, aw_out.len};
  assign m_axi_awid_o    = '0;
  assign m_axi_awsize_o  = 3'd3;        // 8 bytes
  assign m_axi_awburst_o = 2'b01;       // INCR
  assign m_axi_awcache_o = 4'b0011;     // normal, non-cacheable, bufferable
  assign m_axi_awprot_o  = 3'b000;

  // ---------------------------------------------------------------- W path
  logic [KW-1:0]    k_q;        // beat within the request
  logic [BeatW-1:0] bb_q;       // beat within the burst
  logic [63:0]      carry_q;    // previous payload word
  logic             wout_ready, beat, need_word, wlast;
  logic [63:0]      word, wdata;
  logic [7:0]       wstrb;

  always_comb begin
    logic [2:0]   lo, hi;
    need_word = k_q < wq.words;
    beat      = wq_valid && wout_ready && (!need_word || data_valid_i);
    word      = need_word ? data_i : '0;
    wdata     = 64'({word, carry_q} >> (7'd64 - {1'b0, wq.shift, 3'b000}));
    lo        = (k_q == '0) ? wq.shift : 3'd0;
    hi        = (k_q == wq.last_k) ? wq.hi : 3'd7;
    for (int unsigned j = 0; j < 8; j++) wstrb[j] = 3'(j) >= lo && 3'(j) <= hi;
    wlast     = bb_q == BeatW'(wq.last_bb);
    w_pop     = beat && wlast;
  end

  assign data_src_o   = wq.src;
  assign data_ready_o = beat && need_word;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      k_q  <= '0;
      bb_q <= '0;
    end else if (beat) begin
      k_q  <= (wlast && wq.last) ? '0 : k_q + 1'b1;
      bb_q <= wlast ? '0 : bb_q + 1'b1;
    end
  end

  always_ff @(posedge clk_i) begin
    if (beat) carry_q <= word;
  end

  // Poison: a request's poisoned words mark it, and the mark waits in a FIFO (one entry per
  // request whose beats have all gone, in request order) for its last write response.
  // Such a request has a burst outstanding until then, so WDepth entries always suffice.
  logic pois_acc_q, pois_valid, pois_head, pois_ready;
  wire logic pois_word = data_ready_o && data_poison_i;
  wire logic req_end   = beat && wlast && wq.last;
  always_ff @(posedge clk_i) begin
    if (rst_i)        pois_acc_q <= 1'b0;
    else if (req_end) pois_acc_q <= 1'b0;
    else if (pois_word) pois_acc_q <= 1'b1;
  end
  wire logic pois_pop = c_pop && !c_out.nul && c_out.last;
  canopy_fifo #(.Width(1), .Depth(WDepth)) u_pois_fifo (
    .clk_i, .rst_i,
    .in_valid_i (req_end), .in_ready_o (pois_ready), .in_data_i (pois_acc_q || pois_word),
    .out_valid_o (pois_valid), .out_ready_i (pois_pop), .out_data_o (pois_head),
    .count_o (unused_pois_count)
  );
  wire logic [$clog2(WDepth):0] unused_pois_count;

  logic        wout_valid;
  logic [72:0] wout;
  canopy_fifo #(.Width(73), .Depth(2)) u_wout_fifo (
    .clk_i, .rst_i,
    .in_valid_i (beat), .in_ready_o (wout_ready), .in_data_i ({wlast, wstrb, wdata}),
    .out_valid_o (wout_valid), .out_ready_i (m_axi_wready_i), .out_data_o (wout),
    .count_o (unused_wout_count)
  );
  wire logic [1:0] unused_wout_count;

  assign m_axi_wvalid_o = wout_valid;
  assign m_axi_wdata_o  = wout[63:0];
  assign m_axi_wstrb_o  = wout[71:64];
  assign m_axi_wlast_o  = wout[72];

  // ---------------------------------------------------------------- B path
  assign m_axi_bready_o = c_valid && !c_out.nul;
  assign b_take         = m_axi_bvalid_i && m_axi_bready_o;
  assign c_pop          = c_valid && (c_out.nul || m_axi_bvalid_i);
  assign done_valid_o   = c_pop && (c_out.nul || c_out.last);
  assign done_tag_o     = c_out.tag;

  always_ff @(posedge clk_i) begin
    if (rst_i) out_q <= '0;
    else       out_q <= out_q + OutW'(push_burst) - OutW'(b_take);
  end

  // BRESP[1] is SLVERR (2) or DECERR (3); EXOKAY (1) is for exclusive accesses, which this
  // master never makes. An error on any burst of a request marks the request (err_acc_q
  // holds it over the request's earlier bursts).
  wire logic b_err = b_take && m_axi_bresp_i[1];
  logic      err_acc_q;
  always_ff @(posedge clk_i) begin
    if (rst_i)                      err_acc_q <= 1'b0;
    else if (c_pop && !c_out.nul)   err_acc_q <= c_out.last ? 1'b0 : (err_acc_q || b_err);
  end
  assign done_err_o = !c_out.nul && (err_acc_q || b_err || (c_out.last && pois_head));
  assign err_resp_o = b_err;

  wire logic unused_b = ^{m_axi_bid_i, m_axi_bresp_i[0]};

  // ---------------------------------------------------------------- invariants
  `CANOPY_ASSERT(a_burst_len, !push_burst || (beats >= BeatW'(1) && beats <= BeatW'(MaxBeats)),
                 "burst of 0 or more than 16 beats")
  `CANOPY_ASSERT(a_burst_4k, !push_burst || 13'({sp_off_q[11:3], 3'b000}) + 13'({beats, 3'b000}) <= 13'd4096,
                 "burst crosses a 4 KiB boundary")
  `CANOPY_ASSERT(a_cross_lands, !sp_cross_q || sp_off_q == '0, "a burst crossed into a page but did not start it")
  `CANOPY_ASSERT(a_outstanding, out_q <= OutW'(MaxOutstanding), "too many bursts outstanding")
  `CANOPY_ASSERT(a_b_expected, !(m_axi_bvalid_i && out_q == '0), "write response without a burst")
  `CANOPY_ASSERT(a_err_nul, !(c_valid && c_out.nul) || !err_acc_q,
                 "a zero-length request behind a request whose error was not reported")
  `CANOPY_ASSERT(a_pois_room, !req_end || pois_ready, "a request's poison mark found no room")
  `CANOPY_ASSERT(a_pois_there, !pois_pop || pois_valid, "a request completed before its last beat went")
  `CANOPY_ASSERT(a_first_beat, !(beat && wq.first && bb_q == '0) || k_q == '0,
                 "request's first beat out of step")
  `CANOPY_ASSERT(a_beat_count, !(beat && wlast && wq.last) || k_q == wq.last_k,
                 "bursts do not add up to the request's beats")
endmodule

`default_nettype wire
