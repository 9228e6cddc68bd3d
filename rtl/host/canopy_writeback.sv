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
//     one 64-byte request goes to the DMA writer (req_*, valid/ready; tag kind DmaWb).
//     Changes during the flight coalesce into the next write. At most one is in flight.
//   - data_*: this block's data source for the DMA writer: the 8 latched words, in order.
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
  output logic             data_valid_o,
  input  wire logic        data_ready_i,
  output logic      [63:0] data_o,
  input  wire logic        done_i
);
  localparam int unsigned NumVals = 6;

  typedef enum logic [1:0] { WIdle, WReq, WFlight } state_e;
  state_e state_q;

  logic [NumVals-1:0][63:0] vals, snap_q;   // current values, values last written
  logic [63:0]              base_q;         // WB_BASE they were written to
  logic [3:0]               idx_q;          // words handed to the writer

  assign vals  = {{gets_failed_i[23:0], gets_done_i[39:0]}, ej_written_i, rx_puts_i, puts_failed_i,
                  {puts_failed_i[23:0], puts_acked_i[39:0]}, inj_head_i};
  // 40 bits outlast any run; the failed counts are a subset of them.
  wire logic unused_high = ^{puts_acked_i[63:40], gets_done_i[63:40], gets_failed_i[63:24]};

  wire logic start = state_q == WIdle && wb_base_i != '0 && (vals != snap_q || wb_base_i != base_q);

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

  always_ff @(posedge clk_i) begin
    if (start) snap_q <= vals;   // datapath, not reset
  end

  assign req_valid_o  = state_q == WReq;
  assign req_addr_o   = base_q;
  // The writer reads the words only once it works on this request, so they may be offered
  // from the request on.
  assign data_valid_o = state_q != WIdle && idx_q < 4'd8;
  assign data_o       = idx_q < 4'(NumVals) ? snap_q[idx_q[2:0]] : '0;

  `CANOPY_ASSERT(a_done_expected, !done_i || (state_q == WFlight && idx_q == 4'd8),
                 "writeback completion without a writeback in flight")
endmodule

`default_nettype wire
