// canopy_board_mem: board-side block RAM standing in for a node's host memory: the target
// of the node's DMA (its AXI4 master), read and written by the host through the serial
// bridge, with a record of which lines the node has written since the host last looked.
//
// Interface contract
//   - s_axi_*: AXI4 slave for the node's m_axi_* (64-bit data, INCR bursts of 8-byte
//     beats, any IDs). One write and one read burst at a time; write beats move one per
//     cycle, read beats one per two cycles. Bus address = byte offset into the memory.
//     A burst that is not INCR with 8-byte beats, or that reaches past MemBytes, is
//     refused: its beats are consumed (writes change nothing) or answered with zeros,
//     with SLVERR, and dma_err_o pulses once for it.
//   - Host port: hreq_valid_i / hreq_ready_o (valid/ready): one whole word, written
//     (hreq_write_i, hreq_wdata_i) or read, at word index hreq_addr_i; a read's word is on
//     hrsp_data_o with hrsp_valid_o the cycle after its request moved. The node's beats
//     have priority; the host waits for a free port.
//   - dirty_o[l]: line l (LineBytes bytes) was written by the node's DMA since the host last
//     cleared it; clr_valid_i clears the lines of dirty word clr_word_i (64 lines) whose
//     bit is set in clr_mask_i. A line written in the same cycle stays dirty.
//   - dirty_sum_o[i]: some line of dirty word i is set.
// Parameters: MemBytes a power of two, >= 4096 (8 byte lanes of canopy_sdp_ram: DP16KD).
`default_nettype none
`include "canopy_assert.svh"

module canopy_board_mem #(
  parameter int unsigned MemBytes   = 0,   /// bytes of memory; a power of two >= 4096; must be set
  parameter int unsigned AxiIdWidth = 4,   /// AXI ID bits
  localparam int unsigned Words      = MemBytes / 8,
  localparam int unsigned WordW      = $clog2(Words),
  localparam int unsigned Lines      = MemBytes / canopy_serial_pkg::LineBytes,
  localparam int unsigned DirtyWords = Lines / 64,
  localparam int unsigned DirtyIdxW  = DirtyWords > 1 ? $clog2(DirtyWords) : 1
) (
  input  wire logic                  clk_i,
  input  wire logic                  rst_i,
  // AXI4 slave (the node's master)
  input  wire logic [AxiIdWidth-1:0] s_axi_awid_i,
  input  wire logic [63:0]           s_axi_awaddr_i,
  input  wire logic [7:0]            s_axi_awlen_i,
  input  wire logic [2:0]            s_axi_awsize_i,
  input  wire logic [1:0]            s_axi_awburst_i,
  input  wire logic                  s_axi_awvalid_i,
  output logic                       s_axi_awready_o,
  input  wire logic [63:0]           s_axi_wdata_i,
  input  wire logic [7:0]            s_axi_wstrb_i,
  input  wire logic                  s_axi_wlast_i,
  input  wire logic                  s_axi_wvalid_i,
  output logic                       s_axi_wready_o,
  output logic      [AxiIdWidth-1:0] s_axi_bid_o,
  output logic      [1:0]            s_axi_bresp_o,
  output logic                       s_axi_bvalid_o,
  input  wire logic                  s_axi_bready_i,
  input  wire logic [AxiIdWidth-1:0] s_axi_arid_i,
  input  wire logic [63:0]           s_axi_araddr_i,
  input  wire logic [7:0]            s_axi_arlen_i,
  input  wire logic [2:0]            s_axi_arsize_i,
  input  wire logic [1:0]            s_axi_arburst_i,
  input  wire logic                  s_axi_arvalid_i,
  output logic                       s_axi_arready_o,
  output logic      [AxiIdWidth-1:0] s_axi_rid_o,
  output logic      [63:0]           s_axi_rdata_o,
  output logic      [1:0]            s_axi_rresp_o,
  output logic                       s_axi_rlast_o,
  output logic                       s_axi_rvalid_o,
  input  wire logic                  s_axi_rready_i,
  // host port (the bridge)
  input  wire logic                  hreq_valid_i,
  output logic                       hreq_ready_o,
  input  wire logic                  hreq_write_i,
  input  wire logic [WordW-1:0]      hreq_addr_i,
  input  wire logic [63:0]           hreq_wdata_i,
  output logic                       hrsp_valid_o,
  output logic      [63:0]           hrsp_data_o,
  // dirty lines
  output logic      [Lines-1:0]      dirty_o,
  output logic      [DirtyWords-1:0] dirty_sum_o,
  input  wire logic                  clr_valid_i,
  input  wire logic [DirtyIdxW-1:0]  clr_word_i,
  input  wire logic [63:0]           clr_mask_i,
  output logic                       dma_err_o
);
  `CANOPY_STATIC_ASSERT(gen_size_check, MemBytes >= 4096 && (MemBytes & (MemBytes - 1)) == 0,
                        "MemBytes must be a power of two >= 4096")
  localparam logic [1:0] RespOkay   = 2'b00;
  localparam logic [1:0] RespSlverr = 2'b10;
  localparam int unsigned LineShift = $clog2(canopy_serial_pkg::LineBytes / 8);
  localparam int unsigned LineW     = $clog2(Lines);

  // A burst is served if INCR, 8-byte beats, and inside the memory.
  function automatic logic burst_ok(input logic [63:0] addr, input logic [7:0] len,
                                    input logic [2:0] size, input logic [1:0] burst);
    logic [64:0] last_byte;
    last_byte = {1'b0, addr} + {54'd0, len, 3'b111};
    burst_ok = size == 3'd3 && burst == 2'b01 && addr[2:0] == 3'd0 &&
               last_byte < 65'(MemBytes);
  endfunction

  // ---------------------------------------------------------------- write channel
  logic                  w_busy_q, w_ok_q, b_pending_q;
  logic [WordW-1:0]      w_addr_q;
  logic [AxiIdWidth-1:0] w_id_q;
  logic                  w_beat;   // a beat moves this cycle

  assign s_axi_awready_o = !w_busy_q && !b_pending_q;
  assign s_axi_wready_o  = w_busy_q;
  assign w_beat          = w_busy_q && s_axi_wvalid_i;
  assign s_axi_bvalid_o  = b_pending_q;
  assign s_axi_bid_o     = w_id_q;
  assign s_axi_bresp_o   = w_ok_q ? RespOkay : RespSlverr;

  logic aw_err, ar_err;
  assign aw_err = s_axi_awvalid_i && s_axi_awready_o &&
                  !burst_ok(s_axi_awaddr_i, s_axi_awlen_i, s_axi_awsize_i, s_axi_awburst_i);
  assign ar_err = s_axi_arvalid_i && s_axi_arready_o &&
                  !burst_ok(s_axi_araddr_i, s_axi_arlen_i, s_axi_arsize_i, s_axi_arburst_i);
  assign dma_err_o = aw_err || ar_err;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      w_busy_q    <= 1'b0;
      b_pending_q <= 1'b0;
      w_ok_q      <= 1'b0;
    end else begin
      if (s_axi_awvalid_i && s_axi_awready_o) begin
        w_busy_q <= 1'b1;
        w_ok_q   <= !aw_err;
        w_addr_q <= s_axi_awaddr_i[3 +: WordW];
        w_id_q   <= s_axi_awid_i;
      end
      if (w_beat) begin
        w_addr_q <= w_addr_q + WordW'(1);
        if (s_axi_wlast_i) begin
          w_busy_q    <= 1'b0;
          b_pending_q <= 1'b1;
        end
      end
      if (b_pending_q && s_axi_bready_i) b_pending_q <= 1'b0;
    end
  end

  // ---------------------------------------------------------------- read channel
  // One beat at a time: issue the RAM read, then hold the beat until it moves.
  logic                  r_busy_q, r_ok_q, r_issued_q, r_valid_q, r_last_q;
  logic [WordW-1:0]      r_addr_q;
  logic [7:0]            r_left_q;
  logic [AxiIdWidth-1:0] r_id_q;
  logic                  r_issue;  // the node's read uses the RAM read port this cycle
  logic [63:0]           ram_rdata, r_data_q;

  assign s_axi_arready_o = !r_busy_q;
  assign r_issue         = r_busy_q && !r_issued_q && !r_valid_q && r_ok_q;
  assign s_axi_rvalid_o  = r_valid_q;
  assign s_axi_rdata_o   = r_data_q;
  assign s_axi_rresp_o   = r_ok_q ? RespOkay : RespSlverr;
  assign s_axi_rlast_o   = r_last_q;
  assign s_axi_rid_o     = r_id_q;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      r_busy_q   <= 1'b0;
      r_issued_q <= 1'b0;
      r_valid_q  <= 1'b0;
      r_ok_q     <= 1'b0;
      r_last_q   <= 1'b0;
    end else begin
      if (s_axi_arvalid_i && s_axi_arready_o) begin
        r_busy_q <= 1'b1;
        r_ok_q   <= !ar_err;
        r_addr_q <= s_axi_araddr_i[3 +: WordW];
        r_left_q <= s_axi_arlen_i;
        r_id_q   <= s_axi_arid_i;
      end
      // A refused burst answers with zeros, without reading.
      if (r_busy_q && !r_ok_q && !r_valid_q) begin
        r_valid_q <= 1'b1;
        r_data_q  <= '0;
        r_last_q  <= r_left_q == 8'd0;
      end
      r_issued_q <= r_issue;
      if (r_issued_q) begin
        r_valid_q <= 1'b1;
        r_data_q  <= ram_rdata;
        r_last_q  <= r_left_q == 8'd0;
      end
      if (r_valid_q && s_axi_rready_i) begin
        r_valid_q <= 1'b0;
        r_addr_q  <= r_addr_q + WordW'(1);
        r_left_q  <= r_left_q - 8'd1;
        if (r_last_q) r_busy_q <= 1'b0;
      end
    end
  end

  // ---------------------------------------------------------------- host port and RAM
  // The host takes the write port when no node beat does, the read port when the node's
  // read does not issue (its beats then wait a cycle at most per host word).
  logic h_take;
  assign hreq_ready_o = hreq_write_i ? !w_beat : !r_issue;
  assign h_take       = hreq_valid_i && hreq_ready_o;

  logic             ram_we, ram_re, h_read_q;
  logic [WordW-1:0] ram_waddr, ram_raddr;
  logic [63:0]      ram_wdata;
  logic [7:0]       ram_wstrb;
  always_comb begin
    ram_we    = w_beat ? w_ok_q : (h_take && hreq_write_i);
    ram_waddr = w_beat ? w_addr_q : hreq_addr_i;
    ram_wdata = w_beat ? s_axi_wdata_i : hreq_wdata_i;
    ram_wstrb = w_beat ? s_axi_wstrb_i : 8'hFF;
    ram_re    = r_issue || (h_take && !hreq_write_i);
    ram_raddr = r_issue ? r_addr_q : hreq_addr_i;
  end

  // One RAM per byte lane (byte strobes); a collision's word is never used: the node's read
  // and write bursts are separate DMA transfers, and a host read racing a node write of
  // the same word may see either (the host re-reads a line the node marks dirty).
  for (genvar b = 0; b < 8; b++) begin : gen_lane
    canopy_sdp_ram #(.Width(8), .Depth(Words), .CollisionOld(1'b0)) u_ram (
      .clk_i,
      .we_i    (ram_we && ram_wstrb[b]),
      .waddr_i (ram_waddr),
      .wdata_i (ram_wdata[8*b +: 8]),
      .re_i    (ram_re),
      .raddr_i (ram_raddr),
      .rdata_o (ram_rdata[8*b +: 8])
    );
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) h_read_q <= 1'b0;
    else       h_read_q <= h_take && !hreq_write_i;
  end
  assign hrsp_valid_o = h_read_q;
  assign hrsp_data_o  = ram_rdata;

  // ---------------------------------------------------------------- dirty lines
  // The line a node beat writes is set, the host's mask clears its word's lines; a line
  // both set and cleared in one cycle stays set.
  logic [Lines-1:0] dirty_q, dirty_set, dirty_clr;
  always_comb begin
    dirty_set = '0;
    dirty_clr = '0;
    if (w_beat && w_ok_q) dirty_set[LineW'(w_addr_q >> LineShift)] = 1'b1;
    if (clr_valid_i) dirty_clr[64 * clr_word_i +: 64] = clr_mask_i;
  end
  always_ff @(posedge clk_i) begin
    if (rst_i) dirty_q <= '0;
    else       dirty_q <= (dirty_q & ~dirty_clr) | dirty_set;
  end
  assign dirty_o = dirty_q;
  for (genvar i = 0; i < DirtyWords; i++) begin : gen_sum
    assign dirty_sum_o[i] = |dirty_q[64*i +: 64];
  end

  `CANOPY_ASSERT(a_host_read_port, !(r_issue && h_take && !hreq_write_i), "two reads of the RAM in a cycle")
  `CANOPY_ASSERT(a_host_write_port, !(w_beat && h_take && hreq_write_i), "two writes of the RAM in a cycle")

  wire logic unused_axi = ^{s_axi_awaddr_i[63:3 + WordW], s_axi_araddr_i[63:3 + WordW]};
endmodule

`default_nettype wire
