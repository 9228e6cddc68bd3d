// canopy_ej_parser: splits each delivered packet into its header and its payload ahead of
// canopy_ejector, so that the ejector decides a packet while its payload is still arriving.
//
// Interface contract
//   - in_*: whole packets, one at a time, valid/ready (canopy_ej_buffer's output);
//     in_ready_o is a function of registers only.
//   - hdr_*: one entry per packet of two flits or more, valid/ready, out of a register:
//     its two header words, ended (the second header flit was the tail: no payload
//     follows), in_win (a nonzero window holds offset + len), and the source's table index
//     and whether it names an entry of its own (canopy_node_index); bad: the packet's
//     second header flit disagrees with its len (it is the tail and len is not 0, or it is
//     not and len is 0), so it is filler, not the sender's (canopy_link_closer).
//   - pay_*: every flit after a packet's two header flits, in order, with its tail bit,
//     valid/ready, out of a register. The consumer reads a packet's payload only after
//     taking its header and up to its tail, so the two streams stay in step. pay_bad_o: the
//     packet's tail disagrees with its len here (the tail came before word ceil(len / 8)
//     of the payload, or that word is not the tail, or the word lies past it): set on the
//     word where the disagreement shows, which is never after word ceil(len / 8), so a
//     consumer that reads len's words sees it.
//   - win_size_i, torus_size_i: configuration, static while traffic targets the node
//     (in_win and the index are computed as a header is queued).
//   - A one-flit packet cannot hold a header (only a faulty link delivers one): dropped.
// Why: the ejector used to take the two header flits, decide, then issue the DMA request
// before the first payload word moved: four cycles per packet beside the 32 of a full
// payload, against the link's 34 flits. Here the header flits are taken at link rate
// while the previous packet's payload drains, and the window check and index come from
// registers, so the ejector's per-packet work (decide with the request, then the
// payload) fits within the packet's own flit time.
`default_nettype none
`include "canopy_assert.svh"

module canopy_ej_parser #(
  parameter int unsigned MaxNodes = 256,  /// source table entries (canopy_node_index)
  parameter int unsigned PayDepth = 4,    /// payload words queued behind the head, a power of two >= 2
  localparam int unsigned IdW = $clog2(MaxNodes)
) (
  input  wire logic                clk_i,
  input  wire logic                rst_i,

  input  wire logic                in_valid_i,
  output logic                     in_ready_o,
  input  wire logic [63:0]         in_flit_i,
  input  wire logic                in_last_i,

  input  wire logic [63:0]         win_size_i,
  input  wire logic [canopy_pkg::MaxDims-1:0][canopy_pkg::CoordBits:0] torus_size_i,

  output logic                     hdr_valid_o,
  input  wire logic                hdr_ready_i,
  output logic      [63:0]         hdr0_o,
  output logic      [63:0]         hdr1_o,
  output logic                     hdr_ended_o,
  output logic                     hdr_in_win_o,
  output logic      [IdW-1:0]      hdr_src_idx_o,
  output logic                     hdr_src_ok_o,
  output logic                     hdr_bad_o,

  output logic                     pay_valid_o,
  input  wire logic                pay_ready_i,
  output logic      [63:0]         pay_flit_o,
  output logic                     pay_last_o,
  output logic                     pay_bad_o
);
  localparam int unsigned HdrW = 64 + 64 + 1 + 1 + IdW + 1 + 1;
  localparam int unsigned WordsW = $clog2(((1 << canopy_pkg::HdrLenBits) + 7) / 8 + 1);

  typedef enum logic [1:0] { PHdr0, PHdr1, PPay } state_e;
  state_e state_q, state_d;

  logic [63:0] p0_q, p1_q;   // the header words of the packet being taken
  logic        ended_q;      // its second header flit was its tail
  logic        hpend_q;      // its header is taken and not yet queued
  logic [WordsW-1:0] pidx_q; // its payload words taken so far
  logic        hq_ready, pq_ready;

  // A flit is taken in every state but the first header of a packet while the previous
  // header waits to be queued (only a run of header-only packets meets that) and a payload
  // word the queue has no room for.
  always_comb begin
    unique case (state_q)
      PHdr0:   in_ready_o = !hpend_q;
      PHdr1:   in_ready_o = 1'b1;
      default: in_ready_o = pq_ready;
    endcase
  end
  wire logic take = in_valid_i && in_ready_o;

  always_comb begin
    state_d = state_q;
    if (take) begin
      unique case (state_q)
        PHdr0:   if (!in_last_i) state_d = PHdr1;
        PHdr1:   state_d = in_last_i ? PHdr0 : PPay;
        default: if (in_last_i) state_d = PHdr0;
      endcase
    end
  end

  wire logic hpush = hpend_q && hq_ready;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      state_q <= PHdr0;
      hpend_q <= 1'b0;
    end else begin
      state_q <= state_d;
      if (take && state_q == PHdr1) hpend_q <= 1'b1;
      else if (hpush)               hpend_q <= 1'b0;
    end
  end
  always_ff @(posedge clk_i) begin
    if (take && state_q == PHdr0) p0_q <= in_flit_i;
    if (take && state_q == PHdr1) begin
      p1_q    <= in_flit_i;
      ended_q <= in_last_i;
      pidx_q  <= '0;
    end
    if (take && state_q == PPay) pidx_q <= pidx_q + 1'b1;
  end
  `CANOPY_ASSERT(a_header_kept, !(take && state_q == PHdr0 && hpend_q),
                 "a header overwritten before it was queued")

  // ---------------------------------------------------------------- the header entry
  /* verilator lint_off UNUSEDSIGNAL */  // the fields that matter here
  canopy_pkg::hdr_t hdr;
  /* verilator lint_on UNUSEDSIGNAL */
  assign hdr = canopy_pkg::hdr_t'({p1_q, p0_q});

  wire logic in_win = win_size_i != '0 && 64'(hdr.offset) + 64'(hdr.len) <= win_size_i;
  wire logic hdr_bad = ended_q ? hdr.len != '0 : hdr.len == '0;

  // The payload's framing against len (p0_q is the packet's word 0 while its payload flows).
  /* verilator lint_off UNUSEDSIGNAL */
  canopy_pkg::hdr_t cur;
  /* verilator lint_on UNUSEDSIGNAL */
  assign cur = canopy_pkg::hdr_t'({64'd0, p0_q});
  wire logic [WordsW-1:0] pay_words = WordsW'((32'(cur.len) + 7) >> 3);
  wire logic [WordsW-1:0] pidx_next = pidx_q + 1'b1;
  wire logic pay_bad = in_last_i ? pidx_next != pay_words : pidx_next >= pay_words;

  logic [IdW-1:0] src_idx;
  logic           src_ok, unused_src_in_torus;  // src_ok covers it
  canopy_node_index #(.MaxNodes(MaxNodes)) u_src_idx (
    .clk_i,
    .coord_i      (hdr.src),
    .torus_size_i,
    .idx_o        (src_idx),
    .ok_o         (src_ok),
    .in_torus_o   (unused_src_in_torus)
  );

  logic [$clog2(2 + 1):0] unused_hq_count;
  logic                   unused_hdr_q_next_valid;  // the FIFO's peek port, not read here
  logic [HdrW-1:0] unused_hdr_q_next_data;
  canopy_reg_fifo #(.Width(HdrW), .Depth(2)) u_hdr_q (
    .clk_i,
    .rst_i,
    .in_valid_i  (hpend_q),
    .in_ready_o  (hq_ready),
    .in_data_i   ({p0_q, p1_q, ended_q, in_win, src_idx, src_ok, hdr_bad}),
    .out_valid_o (hdr_valid_o),
    .out_ready_i (hdr_ready_i),
    .out_data_o  ({hdr0_o, hdr1_o, hdr_ended_o, hdr_in_win_o, hdr_src_idx_o, hdr_src_ok_o, hdr_bad_o}),
    .count_o     (unused_hq_count),
    .next_valid_o (unused_hdr_q_next_valid),
    .next_data_o  (unused_hdr_q_next_data)
  );

  // ---------------------------------------------------------------- the payload
  logic [$clog2(PayDepth + 1):0] unused_pq_count;
  logic                   unused_pay_q_next_valid;  // the FIFO's peek port, not read here
  logic [65:0]            unused_pay_q_next_data;
  canopy_reg_fifo #(.Width(66), .Depth(PayDepth)) u_pay_q (
    .clk_i,
    .rst_i,
    .in_valid_i  (take && state_q == PPay),
    .in_ready_o  (pq_ready),
    .in_data_i   ({pay_bad, in_last_i, in_flit_i}),
    .out_valid_o (pay_valid_o),
    .out_ready_i (pay_ready_i),
    .out_data_o  ({pay_bad_o, pay_last_o, pay_flit_o}),
    .count_o     (unused_pq_count),
    .next_valid_o (unused_pay_q_next_valid),
    .next_data_o  (unused_pay_q_next_data)
  );
endmodule

`default_nettype wire
