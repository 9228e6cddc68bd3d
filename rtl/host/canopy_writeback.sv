// canopy_writeback: keeps the host's 64-byte writeback block current.
//
// Interface contract
//   - wb_base_i: WB_BASE (0 = no writeback). The values watched: INJ_HEAD, PUTS_ACKED,
//     PUTS_FAILED, RX_PUTS, the ejection ring entries written, GETS_DONE and GETS_FAILED
//     (block words 0..5; words 6..7 are written as 0). Word 1 packs PUTS_ACKED (bits
//     39..0) with PUTS_FAILED (bits 63..40) in one word, and word 5 GETS_DONE with
//     GETS_FAILED likewise: an aligned 8-byte write is seen whole, so a host that sees its
//     puts (gets) complete sees their refusals in the same read (a burst's words may become
//     visible one after another).
//   - Whenever a watched value differs from what was last written (or WB_BASE has changed
//     since), and WB_BASE != 0, and no writeback is in flight, the values are latched and
//     one request goes to the DMA writer (req_*, valid/ready; tag kind DmaWb): the words
//     from the first changed one to the last (req_addr_o = WB_BASE + 8 * first, req_len_o
//     bytes), or the whole 64-byte block after WB_BASE changed. Changes during the flight
//     coalesce into the next write. At most one is in flight.
//     Why only the changed words: a stream of puts changes RX_PUTS once per 256-byte
//     packet (INJ_HEAD at the sender likewise); rewriting all 8 words each time took 8 of
//     every 40 DMA beats from the payload, where one word takes 1 of 33.
//   - data_*: this block's data source for the DMA writer: the latched words of the
//     request, in address order.
//   - done_i: the DMA completion of the writeback (the write response returned); the
//     next may then start.
`default_nettype none
`include "canopy_assert.svh"

module canopy_writeback (
  input  wire logic        clk_i,
  input  wire logic        rst_i,
  input  wire logic [63:0] wb_base_i,
  input  wire logic [63:0] inj_head_i,
  input  wire logic [63:0] puts_acked_i,
  input  wire logic [63:0] puts_failed_i,
  input  wire logic [63:0] rx_puts_i,
  input  wire logic [63:0] ej_written_i,
  input  wire logic [63:0] gets_done_i,
  input  wire logic [63:0] gets_failed_i,

  output logic             req_valid_o,
  input  wire logic        req_ready_i,
  output logic      [63:0] req_addr_o,
  output logic      [6:0]  req_len_o,     // bytes, 8..64
  output logic             data_valid_o,
  input  wire logic        data_ready_i,
  output logic      [63:0] data_o,
  input  wire logic        done_i
);
  localparam int unsigned NumVals  = 6;
  localparam int unsigned NumWords = canopy_host_pkg::WbBytes / 8;   // the block, 8 words

  typedef enum logic [1:0] { WIdle, WReq, WFlight } state_e;
  state_e state_q;

  logic [NumVals-1:0][63:0] vals, snap_q;   // current values, values last written
  logic [63:0]              base_q;         // WB_BASE they were written to
  logic [3:0]               idx_q;          // words handed to the writer
  logic [NumWords-1:0]      range_q;        // the words that had changed at the start
  logic [NumVals-1:0]       changed;
  logic                     whole;          // WB_BASE changed: write the whole block
  logic [2:0]               first, last;    // of range_q: the request's first and last word
  logic [3:0]               nwords;         // words in the request, 1..8
  logic                     loaded_q;       // out_q holds the word at word_q
  logic [2:0]               word_q;         // block word offered now
  logic [63:0]              out_q;          // that word

  assign vals  = {{gets_failed_i[23:0], gets_done_i[39:0]}, ej_written_i, rx_puts_i, puts_failed_i,
                  {puts_failed_i[23:0], puts_acked_i[39:0]}, inj_head_i};
  // 40 bits outlast any run; the failed counts are a subset of them.
  wire logic unused_high = ^{puts_acked_i[63:40], gets_done_i[63:40], gets_failed_i[63:24]};

  // The changed words are registered as they are at the start, and the request's range
  // is derived from that register afterwards: the comparisons then end at flip-flops,
  // as the start decision itself does, not in a priority encoder behind them.
  always_comb begin
    for (int unsigned i = 0; i < NumVals; i++) changed[i] = vals[i] != snap_q[i];
    whole = wb_base_i != base_q;
    first = '0;
    last  = '0;
    for (int i = NumWords - 1; i >= 0; i--) if (range_q[i]) first = 3'(i);
    for (int i = 0; i < NumWords; i++) if (range_q[i]) last = 3'(i);
    nwords = 4'(last) - 4'(first) + 4'd1;
  end

  wire logic start = state_q == WIdle && wb_base_i != '0 && (changed != '0 || whole);

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      state_q <= WIdle;
      idx_q   <= '0;
      base_q  <= '0;      // so registering WB_BASE always triggers a first write
    end else begin
      if (start) base_q <= wb_base_i;
      unique case (state_q)
        WIdle:   if (start) state_q <= WReq;
        WReq:    if (req_ready_i) state_q <= WFlight;
        WFlight: if (done_i) state_q <= WIdle;
        default: state_q <= WIdle;
      endcase
      if (start) idx_q <= '0;
      else if (data_valid_o && data_ready_i) idx_q <= idx_q + 1'b1;
    end
  end

  always_ff @(posedge clk_i) begin   // datapath, not reset
    if (start) begin
      snap_q  <= vals;
      range_q <= whole ? '1 : NumWords'(changed);
    end
  end

  // The offered word is a register, loaded in the request's first cycle (the writer reads
  // a source's words no earlier than a cycle after it accepts the request) and advanced as
  // each word is taken: the block's word select then ends at flip-flops instead of running
  // through the DMA source multiplexer into the writer's W FIFO (the node's worst path).
  function automatic logic [63:0] block_word(input logic [2:0] w);
    block_word = '0;
    for (int unsigned i = 0; i < NumVals; i++) if (32'(w) == i) block_word = snap_q[i];
  endfunction

  wire logic take = data_valid_o && data_ready_i;

  always_ff @(posedge clk_i) begin
    if (rst_i || start) begin
      loaded_q <= 1'b0;
    end else if (state_q == WReq && !loaded_q) begin
      loaded_q <= 1'b1;
    end
  end

  always_ff @(posedge clk_i) begin   // datapath, not reset
    if (state_q == WReq && !loaded_q) begin
      word_q <= first;
      out_q  <= block_word(first);
    end else if (take) begin
      word_q <= word_q + 3'd1;
      out_q  <= block_word(word_q + 3'd1);
    end
  end

  assign req_valid_o  = state_q == WReq;
  assign req_addr_o   = base_q + {58'b0, first, 3'b000};
  assign req_len_o    = {nwords, 3'b000};
  assign data_valid_o = state_q != WIdle && loaded_q && idx_q < nwords;
  assign data_o       = out_q;

  `CANOPY_ASSERT(a_range, state_q == WIdle || range_q != '0, "a writeback with no word to write")
  `CANOPY_ASSERT(a_word, !loaded_q || state_q == WIdle || word_q == first + idx_q[2:0],
                 "the offered word is not the request's next")
  `CANOPY_ASSERT(a_done_expected, !done_i || (state_q == WFlight && idx_q == nwords),
                 "writeback completion without a writeback in flight")
endmodule

`default_nettype wire
