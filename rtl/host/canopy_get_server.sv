// canopy_get_server: answers the GET requests a node holds (canopy_get_table): reads the
// requested bytes of this node's window from host memory through the AXI4 read channels
// and sends them back to the requester as GET_RESP packets (docs/host-interface.md).
//
// Interface contract
//   - win_base_i: WIN_BASE (static while gets target this node). The table's entries were
//     checked against the window on arrival (canopy_ejector).
//   - head_* / back_* / retire_*: canopy_get_table's serving side. The server takes the
//     oldest request, serves one chunk of it (at most 256 bytes: the next max-payload part
//     of its range), then gives the remainder back to the tail of the table (so requests
//     are served a packet at a time, round robin) or retires it after its last chunk
//     (served_o pulses). A refused request (failed) is answered with one FAILED response.
//   - m_axi_ar* / m_axi_r*: AXI4 read master into host memory. 64-bit data, 64-bit
//     address, INCR bursts of at most 16 beats of 8 bytes that never cross 4 KiB, one ID
//     (0), so data returns in order. An address is issued only once the data buffer has
//     room for every beat it asks for, so m_axi_rready_o is always high: R is never
//     backpressured, and the words outstanding never exceed BufWords. Whole aligned words
//     are read; bytes outside the requested range are never sent. A chunk any of whose
//     beats came back with an error (RRESP SLVERR or DECERR: the host refused the read)
//     is answered with FAILED and no payload (its LAST flag as planned), so the requester
//     writes nothing of it and fails the get; err_read_o pulses per such beat.
//   - out_*: GET_RESP packets toward the router's local port, valid/ready (valid never
//     waits for ready), on VC P2P_HI: header word 0 (ptype GET_RESP, flags LAST on a
//     request's final response, dst = the requester, src = my_coord_i, len = the chunk),
//     word 1 (offset = where the chunk goes in the requester's window, rflags FAILED on a
//     refused request's only response), then the payload, one 64-bit word per 8 bytes
//     (bytes past len 0). A packet starts only once all its words are in the buffer, so it
//     never holds the local port (canopy_inj_mux serves a packet head to tail) waiting
//     for host memory.
//   - busy_o: a request or response in progress.
//
// Structure: a planner takes requests, reserves buffer words for a chunk and issues its
// bursts, and queues a description of the packet; the builder emits each described packet
// once all its words have arrived (in order, the AXI ID being one), shifting them into payload
// alignment through a carry word (the window offset need not be aligned); read data waits
// in a simple dual-port RAM (BufWords words), so several chunks are in flight to cover the
// host's read latency.
`default_nettype none
`include "canopy_assert.svh"

module canopy_get_server #(
  parameter int unsigned NumVcs     = 4,    /// VCs of the router's local port
  parameter int unsigned BufWords   = 256,  /// read data buffer, 64-bit words: a power of two, 64..4096
  parameter int unsigned AxiIdWidth = 4,    /// AXI ID bits; every burst uses ID 0
  localparam int unsigned VcW = $clog2(NumVcs)
) (
  input  wire logic                          clk_i,
  input  wire logic                          rst_i,
  input  wire canopy_pkg::coords_t           my_coord_i,
  input  wire logic [63:0]                   win_base_i,

  input  wire logic                          head_valid_i,
  input  wire canopy_host_pkg::get_entry_t   head_i,
  output logic                               head_take_o,
  output logic                               back_valid_o,
  input  wire logic                          back_ready_i,
  output canopy_host_pkg::get_entry_t        back_o,
  output logic                               retire_o,
  output logic      [11:0]                   retire_idx_o,

  output logic      [AxiIdWidth-1:0]         m_axi_arid_o,
  output logic      [63:0]                   m_axi_araddr_o,
  output logic      [7:0]                    m_axi_arlen_o,
  output logic      [2:0]                    m_axi_arsize_o,
  output logic      [1:0]                    m_axi_arburst_o,
  output logic      [3:0]                    m_axi_arcache_o,
  output logic      [2:0]                    m_axi_arprot_o,
  output logic                               m_axi_arvalid_o,
  input  wire logic                          m_axi_arready_i,
  input  wire logic [AxiIdWidth-1:0]         m_axi_rid_i,
  input  wire logic [63:0]                   m_axi_rdata_i,
  input  wire logic [1:0]                    m_axi_rresp_i,
  input  wire logic                          m_axi_rlast_i,
  input  wire logic                          m_axi_rvalid_i,
  output logic                               m_axi_rready_o,

  output logic                               out_valid_o,
  input  wire logic                          out_ready_i,
  output logic      [63:0]                   out_flit_o,
  output logic                               out_last_o,
  output logic      [VcW-1:0]                out_vc_o,

  output logic                               served_o,
  output logic                               err_read_o,
  output logic                               busy_o
);
  localparam int unsigned MaxBeats  = 16;
  localparam int unsigned BPtrW     = $clog2(BufWords);
  localparam int unsigned FreeW     = BPtrW + 1;
  localparam int unsigned NW        = 6;    // words of a chunk, 0..33; payload words 0..32
  localparam int unsigned DescDepth = 8;    // chunks planned ahead of the builder
  localparam int unsigned OutDepth  = 4;
  localparam int unsigned LenW      = canopy_pkg::GetReqGetLenBits;
  localparam int unsigned MaxChunk  = canopy_pkg::MaxPayloadBytes;

  `CANOPY_STATIC_ASSERT(gen_buf_check, BufWords >= 64 && BufWords <= 4096 && (BufWords & (BufWords - 1)) == 0,
                        "BufWords must be a power of two, 64..4096")
  `CANOPY_STATIC_ASSERT(gen_pkg_check, MaxChunk == 256 && LenW == 17, "chunk arithmetic assumes 256-byte packets")

  // A planned response packet, in the order its words were requested.
  typedef struct packed {
    logic [15:0]   dst;     // the requester's coordinates
    logic [39:0]   reply;   // where the chunk goes in the requester's window
    logic [8:0]    len;     // chunk bytes, 0..256
    logic          last;    // the request's final response
    logic          failed;  // a refused request's only response
    logic [2:0]    shift;   // byte offset of the chunk in its first buffer word
    logic [NW-1:0] nwords;  // buffer words the chunk occupies, 0..33
  } desc_t;
  localparam int unsigned DescW = 16 + 40 + 9 + 1 + 1 + 3 + NW;

  // ---------------------------------------------------------------- planner
  typedef enum logic [1:0] { PIdle, PPlan, PAr, PDone } pstate_e;
  pstate_e pstate_q, pstate_d;
  canopy_host_pkg::get_entry_t cur_q;
  logic [63:0]     ar_addr_q;
  logic [NW-1:0]   ar_left_q;
  logic [FreeW-1:0] free_q;
  logic            desc_push, desc_ready, reserve, release_w;
  desc_t           desc_in;
  logic [NW-1:0]   release_n;

  // The chunk's plan, computed from the table's head as it is taken (the head is a
  // register there) and held while the request is served: its window address, its bytes,
  // the byte offset of its first word, the buffer words it takes and the bytes left after
  // it. Computed in PPlan from cur_q, this 64-bit add and the arithmetic behind it sat in
  // front of the buffer reservation and the burst sizing, one path of 12.6 ns in the node.
  logic [63:0]     addr_q;
  logic [8:0]      chunk_q;
  logic [NW-1:0]   nwords_q;
  logic [LenW-1:0] rest_q;
  always_ff @(posedge clk_i) begin
    logic [63:0] a;
    logic [8:0]  c;
    a = win_base_i + 64'(head_i.offset);
    c = head_i.len > LenW'(MaxChunk) ? 9'(MaxChunk) : 9'(head_i.len);
    if (head_take_o) begin
      addr_q   <= a;
      chunk_q  <= c;
      nwords_q <= NW'((12'(c) + 12'(a[2:0]) + 12'd7) >> 3);
      rest_q   <= head_i.len - LenW'(c);
    end
  end

  logic [8:0]      chunk;
  logic [2:0]      shift;
  logic [NW-1:0]   nwords, beats;
  logic [LenW-1:0] rest;
  logic [9:0]      to_4k;

  always_comb begin
    chunk  = chunk_q;
    shift  = addr_q[2:0];
    nwords = nwords_q;
    rest   = rest_q;
    to_4k  = 10'd512 - {1'b0, ar_addr_q[11:3]};                    // words, 1..512
    beats  = ar_left_q < NW'(MaxBeats) ? ar_left_q : NW'(MaxBeats);
    if (10'(beats) > to_4k) beats = NW'(to_4k);

    desc_in.dst    = cur_q.src;
    desc_in.reply  = cur_q.reply;
    desc_in.len    = cur_q.failed ? 9'd0 : chunk;
    desc_in.last   = cur_q.failed || rest == '0;
    desc_in.failed = cur_q.failed;
    desc_in.shift  = shift;
    desc_in.nwords = cur_q.failed ? '0 : nwords;
  end

  always_comb begin
    pstate_d        = pstate_q;
    head_take_o     = 1'b0;
    desc_push       = 1'b0;
    reserve         = 1'b0;
    m_axi_arvalid_o = 1'b0;
    back_valid_o    = 1'b0;
    retire_o        = 1'b0;
    unique case (pstate_q)
      PIdle: if (head_valid_i) begin
        head_take_o = 1'b1;
        pstate_d    = PPlan;
      end
      PPlan: if (desc_ready) begin
        if (cur_q.failed) begin
          desc_push = 1'b1;
          pstate_d  = PDone;
        end else if (free_q >= FreeW'(nwords)) begin
          desc_push = 1'b1;
          reserve   = 1'b1;
          pstate_d  = PAr;
        end
      end
      PAr: begin
        m_axi_arvalid_o = 1'b1;
        if (m_axi_arready_i && ar_left_q == beats) pstate_d = PDone;
      end
      PDone: begin
        if (cur_q.failed || rest == '0) begin
          retire_o = 1'b1;
          pstate_d = PIdle;
        end else begin
          back_valid_o = 1'b1;
          if (back_ready_i) pstate_d = PIdle;
        end
      end
      default: pstate_d = PIdle;
    endcase
  end

  always_comb begin
    back_o        = cur_q;
    back_o.fresh  = 1'b0;
    back_o.offset = cur_q.offset + 40'(chunk);
    back_o.reply  = cur_q.reply + 40'(chunk);
    back_o.len    = rest;
  end
  assign retire_idx_o = cur_q.idx;
  assign served_o     = retire_o;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      pstate_q <= PIdle;
      free_q   <= FreeW'(BufWords);
    end else begin
      pstate_q <= pstate_d;
      free_q   <= free_q - (reserve ? FreeW'(nwords) : '0) + (release_w ? FreeW'(release_n) : '0);
    end
  end

  always_ff @(posedge clk_i) begin
    if (head_take_o) cur_q <= head_i;
    if (reserve) begin
      ar_addr_q <= {addr_q[63:3], 3'b000};
      ar_left_q <= nwords;
    end else if (m_axi_arvalid_o && m_axi_arready_i) begin
      ar_addr_q <= ar_addr_q + {55'd0, beats, 3'b000};
      ar_left_q <= ar_left_q - beats;
    end
  end

  assign m_axi_arid_o    = '0;
  assign m_axi_araddr_o  = ar_addr_q;
  assign m_axi_arlen_o   = 8'(beats) - 8'd1;
  assign m_axi_arsize_o  = 3'd3;        // 8 bytes
  assign m_axi_arburst_o = 2'b01;       // INCR
  assign m_axi_arcache_o = 4'b0011;     // normal, non-cacheable, bufferable
  assign m_axi_arprot_o  = 3'b000;

  // ---------------------------------------------------------------- read data
  logic [BPtrW:0] wr_ptr_q, rd_ptr_q;
  logic           buf_re;
  logic [63:0]    buf_rdata;

  assign m_axi_rready_o = 1'b1;

  // A read takes a word that has arrived (a_read_arrived) and a write fills a free one (the
  // space is reserved before the read request goes out), so they never share a slot
  // (a_buf_collision): no collision logic in the RAM.
  canopy_sdp_ram #(.Width(64), .Depth(BufWords), .CollisionOld(1'b0)) u_buf (
    .clk_i,
    .we_i    (m_axi_rvalid_i),
    .waddr_i (wr_ptr_q[BPtrW-1:0]),
    .wdata_i (m_axi_rdata_i),
    .re_i    (buf_re),
    .raddr_i (rd_ptr_q[BPtrW-1:0]),
    .rdata_o (buf_rdata)
  );

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      wr_ptr_q <= '0;
      rd_ptr_q <= '0;
    end else begin
      if (m_axi_rvalid_i) wr_ptr_q <= wr_ptr_q + 1'b1;
      if (buf_re)         rd_ptr_q <= rd_ptr_q + 1'b1;
      else if (skip)      rd_ptr_q <= rd_ptr_q + (BPtrW + 1)'(d.nwords);
    end
  end
  wire logic [BPtrW:0] avail = wr_ptr_q - rd_ptr_q;   // words arrived, not yet read out

  // ---------------------------------------------------------------- read errors
  // Which chunks had a refused beat. Data returns in the order it was asked for (one ID),
  // chunk after chunk, so a tracker counts each chunk's words off as they arrive (its
  // word count queued when the chunk was planned, before its reads went out) and queues
  // one bit per chunk with words for the builder, which takes it with the chunk's
  // description. Both queues hold at most one entry per planned chunk (DescDepth).
  wire logic       beat_err = m_axi_rvalid_i && m_axi_rresp_i[1];
  logic            arr_valid, arr_pop, err_valid, err_pop, err_bit;
  logic [NW-1:0]   arr_n;
  logic [NW-1:0]   arr_cnt_q;
  logic            arr_err_q;
  wire logic [$clog2(DescDepth):0] unused_arr_count, unused_err_count;
  logic            arr_ready, err_ready;   // (never low: asserted)
  canopy_fifo #(.Width(NW), .Depth(DescDepth)) u_arr (
    .clk_i, .rst_i,
    .in_valid_i (desc_push && desc_in.nwords != '0), .in_ready_o (arr_ready), .in_data_i (desc_in.nwords),
    .out_valid_o (arr_valid), .out_ready_i (arr_pop), .out_data_o (arr_n),
    .count_o (unused_arr_count)
  );
  assign arr_pop = arr_valid && m_axi_rvalid_i && arr_cnt_q + 1'b1 == arr_n;
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      arr_cnt_q <= '0;
      arr_err_q <= 1'b0;
    end else if (m_axi_rvalid_i) begin
      arr_cnt_q <= arr_pop ? '0 : arr_cnt_q + 1'b1;
      arr_err_q <= arr_pop ? 1'b0 : (arr_err_q || beat_err);
    end
  end
  canopy_fifo #(.Width(1), .Depth(DescDepth)) u_err (
    .clk_i, .rst_i,
    .in_valid_i (arr_pop), .in_ready_o (err_ready), .in_data_i (arr_err_q || beat_err),
    .out_valid_o (err_valid), .out_ready_i (err_pop), .out_data_o (err_bit),
    .count_o (unused_err_count)
  );
  assign err_read_o = beat_err;

  // ---------------------------------------------------------------- packet descriptions
  logic        desc_valid, desc_pop;
  logic [DescW-1:0] desc_raw;
  desc_t       d;
  wire logic [$clog2(DescDepth):0] unused_desc_count;

  canopy_fifo #(.Width(DescW), .Depth(DescDepth)) u_desc (
    .clk_i, .rst_i,
    .in_valid_i (desc_push), .in_ready_o (desc_ready), .in_data_i (DescW'(desc_in)),
    .out_valid_o (desc_valid), .out_ready_i (desc_pop), .out_data_o (desc_raw),
    .count_o (unused_desc_count)
  );
  assign d = desc_t'(desc_raw);

  // ---------------------------------------------------------------- builder
  typedef enum logic [1:0] { BIdle, BHdr0, BHdr1, BData } bstate_e;
  bstate_e bstate_q, bstate_d;
  logic [NW-1:0] k_q, k_d;           // step within the chunk: read buffer word k (or a zero)
  logic          step, step_real, skip;
  logic          hdr_push;
  logic [64:0]   hdr_word;           // {last, flit}

  // Stage 2: the word read by last cycle's step, combined with the one before.
  logic          s2_valid_q, s2_real_q, s2_emit_q, s2_last_q;
  logic [2:0]    s2_shift_q;
  logic [3:0]    s2_nbytes_q;        // valid bytes of the last payload word, 1..8
  logic [63:0]   carry_q, s2_data, s2_word;
  logic [127:0]  s2_pair;

  logic          fo_ready, fo_push;
  logic [64:0]   fo_in, fo_out;
  logic [$clog2(OutDepth + 1):0] fo_count;
  // Room for one more word besides the one stage 2 may be pushing now.
  wire logic room = 32'(fo_count) + 32'(s2_valid_q && s2_emit_q) < OutDepth;

  // The chunk being built had a refused read (taken from u_err as it starts): it goes out
  // FAILED with no payload, and its words are skipped in the buffer.
  logic               berr_q;
  wire logic [8:0]    elen   = berr_q ? 9'd0 : d.len;
  wire logic [NW-1:0] pwords = NW'((10'(elen) + 10'd7) >> 3);

  canopy_pkg::hdr_t h;
  always_comb begin
    h        = '0;
    h.ptype  = canopy_pkg::PKT_GET_RESP;
    h.dst    = canopy_pkg::coords_t'(d.dst);
    h.src    = my_coord_i;
    h.len    = elen;
    h.offset = d.reply;
    h.flags[canopy_pkg::FlagLast]     = d.last;
    h.rflags[canopy_pkg::RflagFailed] = d.failed || berr_q;
  end

  always_comb begin
    bstate_d  = bstate_q;
    k_d       = k_q;
    step      = 1'b0;
    step_real = 1'b0;
    hdr_push  = 1'b0;
    hdr_word  = '0;
    desc_pop  = 1'b0;
    release_w = 1'b0;
    release_n = d.nwords;
    err_pop   = 1'b0;
    skip      = 1'b0;
    unique case (bstate_q)
      BIdle: if (desc_valid && avail >= (BPtrW + 1)'(d.nwords) && (d.nwords == '0 || err_valid)) begin
        err_pop  = d.nwords != '0;
        bstate_d = BHdr0;
      end
      BHdr0: if (room && !(s2_valid_q && s2_emit_q)) begin
        hdr_push = 1'b1;
        hdr_word = {1'b0, h[63:0]};
        bstate_d = BHdr1;
      end
      BHdr1: if (room) begin
        hdr_push = 1'b1;
        hdr_word = {pwords == '0, h[127:64]};
        k_d      = '0;
        if (pwords == '0) begin
          desc_pop  = 1'b1;
          skip      = berr_q;   // the refused chunk's words leave the buffer unread
          release_w = berr_q;
          bstate_d  = BIdle;
        end else begin
          bstate_d = BData;
        end
      end
      BData: begin
        // Words 0..nwords-1 come from the buffer as they arrive; a chunk whose last payload
        // word needs no next buffer word takes a zero as its step pwords.
        step_real = k_q < d.nwords;
        step      = room && (!step_real || avail != '0);
        if (step) begin
          k_d = k_q + 1'b1;
          if (k_q == pwords) begin
            desc_pop  = 1'b1;
            release_w = 1'b1;
            bstate_d  = BIdle;
          end
        end
      end
      default: bstate_d = BIdle;
    endcase
  end
  assign buf_re = step && step_real;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      bstate_q   <= BIdle;
      s2_valid_q <= 1'b0;
    end else begin
      bstate_q   <= bstate_d;
      s2_valid_q <= step;
    end
  end

  always_ff @(posedge clk_i) begin
    k_q <= k_d;
    if (bstate_q == BIdle && bstate_d == BHdr0) berr_q <= err_pop && err_bit;
    if (step) begin
      s2_real_q   <= step_real;
      s2_emit_q   <= k_q != '0;
      s2_last_q   <= k_q == pwords;
      s2_shift_q  <= d.shift;
      s2_nbytes_q <= 4'(((d.len - 1'b1) & 9'd7) + 1'b1);
    end
    if (s2_valid_q) carry_q <= s2_data;
  end

  always_comb begin
    s2_data = s2_real_q ? buf_rdata : '0;
    s2_pair = {s2_data, carry_q} >> {s2_shift_q, 3'b000};   // bits 127..64 are the next word's
    s2_word = s2_pair[63:0];
    if (s2_last_q) begin
      for (int unsigned b = 0; b < 8; b++) begin
        if (4'(b) >= s2_nbytes_q) s2_word[8*b +: 8] = 8'd0;
      end
    end
  end

  assign fo_push = hdr_push || (s2_valid_q && s2_emit_q);
  assign fo_in   = hdr_push ? hdr_word : {s2_last_q, s2_word};

  logic                   unused_out_next_valid;  // the FIFO's peek port, not read here
  logic [64:0]            unused_out_next_data;
  canopy_reg_fifo #(.Width(65), .Depth(OutDepth)) u_out (
    .clk_i, .rst_i,
    .in_valid_i (fo_push), .in_ready_o (fo_ready), .in_data_i (fo_in),
    .out_valid_o (out_valid_o), .out_ready_i (out_ready_i), .out_data_o (fo_out),
    .count_o (fo_count),
    .next_valid_o (unused_out_next_valid),
    .next_data_o  (unused_out_next_data)
  );
  assign out_flit_o = fo_out[63:0];
  assign out_last_o = fo_out[64];
  assign out_vc_o   = VcW'(canopy_pkg::VcP2pHi);
  assign busy_o     = pstate_q != PIdle || desc_valid || s2_valid_q || out_valid_o;

  // ---------------------------------------------------------------- invariants
  logic [FreeW+4:0] r_due_q;   // words asked for, not yet returned
  always_ff @(posedge clk_i) begin
    if (rst_i) r_due_q <= '0;
    else r_due_q <= r_due_q + ((m_axi_arvalid_o && m_axi_arready_i) ? (FreeW+5)'(beats) : '0)
                    - (FreeW+5)'(m_axi_rvalid_i);
  end
  wire logic unused_r = ^{m_axi_rid_i, m_axi_rresp_i[0], m_axi_rlast_i, s2_pair[127:64], arr_ready,
                          err_ready};

  `CANOPY_ASSERT(a_r_expected, !m_axi_rvalid_i || r_due_q != '0, "read data without an outstanding read")
  `CANOPY_ASSERT(a_r_tracked, !m_axi_rvalid_i || arr_valid, "read data for no planned chunk")
  `CANOPY_ASSERT(a_arr_room, !(desc_push && desc_in.nwords != '0) || arr_ready, "chunk tracker overflow")
  `CANOPY_ASSERT(a_err_room, !arr_pop || err_ready, "chunk error queue overflow")
  `CANOPY_ASSERT(a_buf_bound, 32'(avail) + 32'(free_q) <= BufWords, "read data beyond the reserved buffer words")
  `CANOPY_ASSERT(a_burst, !m_axi_arvalid_o || (beats != '0 && beats <= NW'(MaxBeats)
                 && 13'(ar_addr_q[11:0]) + 13'({beats, 3'b000}) <= 13'd4096),
                 "read burst empty, longer than 16 beats, or across 4 KiB")
  `CANOPY_ASSERT(a_out_room, !fo_push || fo_ready, "get response FIFO overflow")
  `CANOPY_ASSERT(a_one_push, !(hdr_push && s2_valid_q && s2_emit_q), "header and payload pushed at once")
  `CANOPY_ASSERT(a_read_arrived, !buf_re || avail != '0, "read a buffer word that has not arrived")
  `CANOPY_ASSERT(a_buf_collision, !(buf_re && m_axi_rvalid_i && wr_ptr_q[BPtrW-1:0] == rd_ptr_q[BPtrW-1:0]),
                 "a read-data word arrived into the buffer slot being read")
endmodule

`default_nettype wire
