// canopy_serial_bridge: the host's way into the board over a UART: parses request frames
// (spec/serial.toml, docs/serial-protocol.md), checks their CRC, has canopy_board_exec
// carry them out, and sends one response frame for each.
//
// Interface contract
//   - rx_valid_i / rx_data_i: received bytes (canopy_uart_rx), taken every cycle; bytes
//     that arrive while a request is being carried out or answered are dropped and counted
//     (err_frame_o): the host sends a request only once the last one is answered.
//   - tx_valid_o / tx_ready_i / tx_data_o: the response bytes (canopy_uart_tx), valid/ready.
//   - cmd_* / buf_* / done_*: the command port of canopy_board_exec (source 0) and this
//     bridge's word buffer; the exec reads write data from it and writes read data into it
//     while it serves this bridge (buf_sel_i).
//   - Before anything executes: a bad CRC is answered crc (err_crc_o), a count of more than
//     canopy_serial_pkg::MaxWords words bad_op (err_frame_o); a write repeating the last executed write's seq,
//     with no frame in between, is answered again with that write's status, not executed.
//   - A frame silent for canopy_serial_pkg::IdleBytes byte times is dropped (err_frame_o) and the parser
//     hunts for the next SYNC_REQ byte; bytes before a sync byte are skipped uncounted.
//   - frame_done_o: pulse per request executed.
// Parameters: CyclesPerBit, for the idle timeout.
`default_nettype none
`include "canopy_assert.svh"

module canopy_serial_bridge #(
  parameter int unsigned CyclesPerBit = 0,  /// core clock cycles per UART bit; must be set
  localparam int unsigned BufW   = $clog2(canopy_serial_pkg::MaxWords),
  localparam int unsigned CountW = BufW + 1
) (
  input  wire logic              clk_i,
  input  wire logic              rst_i,
  input  wire logic              rx_valid_i,
  input  wire logic [7:0]        rx_data_i,
  output logic                   tx_valid_o,
  input  wire logic              tx_ready_i,
  output logic      [7:0]        tx_data_o,
  // exec, source 0
  output logic                   cmd_valid_o,
  input  wire logic              cmd_ready_i,
  output logic                   cmd_write_o,
  output logic      [1:0]        cmd_space_o,
  output logic      [7:0]        cmd_node_o,
  output logic      [31:0]       cmd_addr_o,
  output logic      [CountW-1:0] cmd_words_o,
  input  wire logic              buf_sel_i,     // the exec is serving this bridge
  input  wire logic              buf_re_i,
  input  wire logic [BufW-1:0]   buf_raddr_i,
  output logic      [63:0]       buf_rdata_o,
  input  wire logic              buf_we_i,
  input  wire logic [BufW-1:0]   buf_waddr_i,
  input  wire logic [63:0]       buf_wdata_i,
  input  wire logic              done_valid_i,
  input  wire logic [7:0]        done_status_i,
  output logic                   err_crc_o,
  output logic                   err_frame_o,
  output logic                   frame_done_o
);
  `CANOPY_STATIC_ASSERT(gen_div_check, CyclesPerBit >= 4, "CyclesPerBit must be set")
  localparam int unsigned IdleCycles = canopy_serial_pkg::IdleBytes * 10 * CyclesPerBit;
  localparam int unsigned IdleW      = $clog2(IdleCycles + 1);

  typedef enum logic [2:0] { R_SYNC, R_HDR, R_DATA, R_CRC, R_EXEC, R_TX } state_e;
  state_e state_q;

  // ---------------------------------------------------------------- receive
  logic [7:0]       op_q, seq_q, node_q, count_q;
  logic [31:0]      addr_q;
  logic [3:0]       hdr_q;        // header bytes received after the sync byte
  logic [11:0]      data_q;       // data bytes received
  logic [63:0]      acc_q;        // the word being assembled
  logic [15:0]      crc_q, crc_rx_q;
  logic             crc_hi_q;     // the CRC's low byte has arrived
  logic [IdleW-1:0] idle_q;
  logic             is_write;
  logic [11:0]      data_bytes;   // 8 * (count + 1)
  assign is_write   = op_q[canopy_serial_pkg::OpWriteBit];
  assign data_bytes = {1'b0, count_q + 8'd1, 3'b000};

  // Buffer write from the receiver: a whole word every 8 data bytes, if inside the buffer.
  logic            rx_wr;
  logic [BufW-1:0] rx_widx;
  assign rx_wr   = state_q == R_DATA && rx_valid_i && data_q[2:0] == 3'd7 && data_q[11:3] < 9'(canopy_serial_pkg::MaxWords);
  assign rx_widx = BufW'(data_q[11:3]);

  // ---------------------------------------------------------------- execute / answer
  logic       last_valid_q, last_write_q;
  logic [7:0] last_seq_q, last_status_q;
  logic [7:0] status_q;
  logic       exec_pending_q;     // the command is with the exec
  // Response bytes: 0 sync, 1 status, 2 seq, then data, then 2 CRC bytes.
  logic [11:0] tx_idx_q, tx_total;
  logic [15:0] tx_crc_q;
  logic [63:0] tx_word;

  logic dup, crc_ok, too_long;
  assign crc_ok   = crc_rx_q == crc_q;
  assign too_long = 9'(count_q) + 9'd1 > 9'(canopy_serial_pkg::MaxWords);
  assign dup      = is_write && last_valid_q && last_write_q && seq_q == last_seq_q;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      state_q        <= R_SYNC;
      idle_q         <= '0;
      last_valid_q   <= 1'b0;
      last_write_q   <= 1'b0;
      exec_pending_q <= 1'b0;
      crc_hi_q       <= 1'b0;
    end else begin
      unique case (state_q)
        R_SYNC: if (rx_valid_i && rx_data_i == canopy_serial_pkg::SyncReq) begin
          state_q <= R_HDR;
          hdr_q   <= '0;
          crc_q   <= canopy_serial_pkg::CrcInit;
          idle_q  <= '0;
        end
        R_HDR, R_DATA, R_CRC: begin
          idle_q <= idle_q + IdleW'(1);
          if (rx_valid_i) begin
            idle_q <= '0;
            if (state_q != R_CRC) crc_q <= canopy_serial_pkg::crc16_byte(crc_q, rx_data_i);
            if (state_q == R_HDR) begin
              hdr_q <= hdr_q + 4'd1;
              unique case (hdr_q)
                4'd0: op_q   <= rx_data_i;
                4'd1: seq_q  <= rx_data_i;
                4'd2: node_q <= rx_data_i;
                4'd3: addr_q[7:0]   <= rx_data_i;
                4'd4: addr_q[15:8]  <= rx_data_i;
                4'd5: addr_q[23:16] <= rx_data_i;
                4'd6: addr_q[31:24] <= rx_data_i;
                default: count_q <= rx_data_i;
              endcase
              if (hdr_q == 4'(canopy_serial_pkg::HeaderBytes - 2)) begin
                data_q   <= '0;
                crc_hi_q <= 1'b0;
                state_q  <= op_q[canopy_serial_pkg::OpWriteBit] ? R_DATA : R_CRC;
              end
            end else if (state_q == R_DATA) begin
              acc_q  <= {rx_data_i, acc_q[63:8]};
              data_q <= data_q + 12'd1;
              if (data_q + 12'd1 == data_bytes) state_q <= R_CRC;
            end else begin
              crc_hi_q <= 1'b1;
              if (!crc_hi_q) crc_rx_q[7:0] <= rx_data_i;
              else begin
                crc_rx_q[15:8] <= rx_data_i;
                state_q <= R_EXEC;
              end
            end
          end else if (idle_q == IdleW'(IdleCycles)) begin
            state_q <= R_SYNC;
          end
        end
        R_EXEC: begin
          if (!crc_ok) begin
            status_q <= canopy_serial_pkg::StCrc;
            state_q  <= R_TX;
          end else if (too_long) begin
            status_q <= canopy_serial_pkg::StBadOp;
            state_q  <= R_TX;
          end else if (dup) begin
            status_q <= last_status_q;
            state_q  <= R_TX;
          end else if (!exec_pending_q) begin
            if (cmd_ready_i) exec_pending_q <= 1'b1;
          end else if (done_valid_i) begin
            exec_pending_q <= 1'b0;
            status_q       <= done_status_i;
            last_valid_q   <= 1'b1;
            last_write_q   <= is_write;
            last_seq_q     <= seq_q;
            last_status_q  <= done_status_i;
            state_q        <= R_TX;
          end
          tx_idx_q <= '0;
          tx_crc_q <= canopy_serial_pkg::CrcInit;
        end
        R_TX: if (tx_ready_i) begin
          tx_idx_q <= tx_idx_q + 12'd1;
          if (tx_idx_q != '0 && tx_idx_q < tx_total - 12'd2) tx_crc_q <= canopy_serial_pkg::crc16_byte(tx_crc_q, tx_data_o);
          if (tx_idx_q == tx_total - 12'd1) state_q <= R_SYNC;
        end
        default: state_q <= R_SYNC;
      endcase
    end
  end

  // Response length: 3 header bytes, the data of a read answered ok, 2 CRC bytes.
  always_comb begin
    tx_total = 12'd5;
    if (!is_write && status_q == canopy_serial_pkg::StOk) tx_total = 12'd5 + data_bytes;
  end

  // Data byte k of the response (tx_idx 3 + k) is byte k % 8 of buffer word k / 8; the
  // buffer word is read ahead (registered RAM): word w is requested while its previous
  // word's last byte goes out, or at the seq byte for word 0.
  logic [11:0] tx_k;
  logic        tx_fetch;
  logic [BufW-1:0] tx_fetch_idx;
  assign tx_k         = tx_idx_q - 12'd3;
  assign tx_fetch     = state_q == R_TX && tx_ready_i &&
                        ((tx_idx_q == 12'd2) || (tx_idx_q >= 12'd3 && tx_k[2:0] == 3'd7));
  assign tx_fetch_idx = tx_idx_q == 12'd2 ? '0 : BufW'(tx_k[11:3] + 9'd1);

  always_comb begin
    tx_data_o = 8'h00;
    if (tx_idx_q == 12'd0) tx_data_o = canopy_serial_pkg::SyncRsp;
    else if (tx_idx_q == 12'd1) tx_data_o = status_q;
    else if (tx_idx_q == 12'd2) tx_data_o = seq_q;
    else if (tx_idx_q == tx_total - 12'd2) tx_data_o = tx_crc_q[7:0];
    else if (tx_idx_q == tx_total - 12'd1) tx_data_o = tx_crc_q[15:8];
    else tx_data_o = tx_word[8 * tx_k[2:0] +: 8];
  end
  assign tx_valid_o = state_q == R_TX;

  // ---------------------------------------------------------------- buffer
  logic            ram_we, ram_re;
  logic [BufW-1:0] ram_waddr, ram_raddr;
  logic [63:0]     ram_wdata;
  always_comb begin
    ram_we    = rx_wr || (buf_sel_i == 1'b0 && buf_we_i);
    ram_waddr = rx_wr ? rx_widx : buf_waddr_i;
    ram_wdata = rx_wr ? {rx_data_i, acc_q[63:8]} : buf_wdata_i;
    ram_re    = tx_fetch || (buf_sel_i == 1'b0 && buf_re_i);
    ram_raddr = tx_fetch ? tx_fetch_idx : buf_raddr_i;
  end
  // A collision's word is never used: the receiver, the exec and the transmitter use the
  // buffer one after another.
  canopy_sdp_ram #(.Width(64), .Depth(canopy_serial_pkg::MaxWords), .CollisionOld(1'b0)) u_buf (
    .clk_i,
    .we_i    (ram_we),
    .waddr_i (ram_waddr),
    .wdata_i (ram_wdata),
    .re_i    (ram_re),
    .raddr_i (ram_raddr),
    .rdata_o (tx_word)
  );
  assign buf_rdata_o = tx_word;

  assign cmd_valid_o = state_q == R_EXEC && crc_ok && !too_long && !dup && !exec_pending_q;
  assign cmd_write_o = is_write;
  assign cmd_space_o = op_q[1:0];
  assign cmd_node_o  = node_q;
  assign cmd_addr_o  = (op_q[6:2] != '0) ? 32'h1 : addr_q;  // reserved op bits: refused as unaligned (bad_op)
  assign cmd_words_o = CountW'(count_q) + CountW'(1);

  assign err_crc_o    = state_q == R_EXEC && !crc_ok;
  assign err_frame_o  = (state_q == R_EXEC && crc_ok && too_long) ||
                        ((state_q == R_HDR || state_q == R_DATA || state_q == R_CRC) && !rx_valid_i &&
                         idle_q == IdleW'(IdleCycles)) ||
                        ((state_q == R_EXEC || state_q == R_TX) && rx_valid_i);
  assign frame_done_o = state_q == R_EXEC && exec_pending_q && done_valid_i;

  wire logic unused_acc = ^acc_q[7:0];
  `CANOPY_ASSERT(a_rx_exec_exclusive, !(rx_wr && buf_sel_i == 1'b0 && buf_we_i), "buffer written twice")
  `CANOPY_ASSERT(a_tx_exec_exclusive, !(tx_fetch && buf_sel_i == 1'b0 && buf_re_i), "buffer read twice")
endmodule

`default_nettype wire
