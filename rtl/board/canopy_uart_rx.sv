// canopy_uart_rx: the receive half of a UART: 8 data bits, no parity, 1 stop bit, LSB first.
//
// Interface contract
//   - rx_i: the line, asynchronous to clk_i (two flip-flops synchronize it here); idle high.
//   - out_valid_o / out_data_o: one-cycle pulse per byte received, at the middle of its stop
//     bit. There is no backpressure: the consumer takes every byte (it has 10 * CyclesPerBit
//     cycles before the next one).
//   - frame_err_o: one-cycle pulse instead of out_valid_o when the stop bit reads 0 (a
//     framing error or a break); the byte is dropped.
//   - A start bit is a falling edge that still reads 0 half a bit later (a shorter glitch
//     is ignored); each bit is sampled in its middle, CyclesPerBit cycles apart.
// Parameters: CyclesPerBit = core clock / baud rate, at least 4.
`default_nettype none
`include "canopy_assert.svh"

module canopy_uart_rx #(
  parameter int unsigned CyclesPerBit = 0  /// core clock cycles per bit; must be set (>= 4)
) (
  input  wire logic       clk_i,
  input  wire logic       rst_i,
  input  wire logic       rx_i,
  output logic            out_valid_o,
  output logic      [7:0] out_data_o,
  output logic            frame_err_o
);
  `CANOPY_STATIC_ASSERT(gen_div_check, CyclesPerBit >= 4, "CyclesPerBit must be set (>= 4)")
  localparam int unsigned DivW = $clog2(CyclesPerBit);

  logic [1:0]      sync_q;     // synchronizer, sync_q[1] is the line
  logic            busy_q;     // inside a frame
  logic [3:0]      bit_q;      // 0 = start bit, 1..8 data, 9 stop
  logic [DivW-1:0] div_q;      // cycles to the next sample, minus one
  logic [7:0]      data_q;
  logic            valid_q, err_q;

  assign out_valid_o = valid_q;
  assign out_data_o  = data_q;
  assign frame_err_o = err_q;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      sync_q  <= 2'b11;
      busy_q  <= 1'b0;
      bit_q   <= '0;
      div_q   <= '0;
      valid_q <= 1'b0;
      err_q   <= 1'b0;
    end else begin
      sync_q  <= {sync_q[0], rx_i};
      valid_q <= 1'b0;
      err_q   <= 1'b0;
      if (!busy_q) begin
        if (!sync_q[1]) begin          // a falling edge: sample the start bit in its middle
          busy_q <= 1'b1;
          bit_q  <= '0;
          div_q  <= DivW'(CyclesPerBit / 2 - 1);
        end
      end else if (div_q != '0) begin
        div_q <= div_q - DivW'(1);
      end else begin
        div_q <= DivW'(CyclesPerBit - 1);
        if (bit_q == 4'd0) begin
          if (sync_q[1]) busy_q <= 1'b0;  // a glitch, not a start bit
          else bit_q <= 4'd1;
        end else if (bit_q != 4'd9) begin
          data_q <= {sync_q[1], data_q[7:1]};
          bit_q  <= bit_q + 4'd1;
        end else begin
          busy_q  <= 1'b0;
          valid_q <= sync_q[1];
          err_q   <= !sync_q[1];
        end
      end
    end
  end

  `CANOPY_ASSERT(a_bit_range, bit_q <= 4'd9, "bit counter out of range")
  `CANOPY_ASSERT(a_one_pulse, !(valid_q && err_q), "a byte is either received or refused")
endmodule

`default_nettype wire
