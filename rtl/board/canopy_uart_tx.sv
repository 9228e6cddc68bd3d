// canopy_uart_tx: the transmit half of a UART: 8 data bits, no parity, 1 stop bit, LSB first.
//
// Interface contract
//   - in_valid_i / in_ready_o / in_data_i: valid/ready; a byte moves when both are high.
//     in_ready_o is high only while the line is idle (one byte is sent at a time).
//   - tx_o: the line, high when idle; each bit lasts CyclesPerBit cycles: a start bit (0),
//     the 8 data bits, a stop bit (1). A byte takes 10 * CyclesPerBit cycles.
// Parameters: CyclesPerBit = core clock / baud rate, at least 4 (the receiver samples each
// bit in its middle); the caller rounds and checks the error (canopy_board_core).
`default_nettype none
`include "canopy_assert.svh"

module canopy_uart_tx #(
  parameter int unsigned CyclesPerBit = 0  /// core clock cycles per bit; must be set (>= 4)
) (
  input  wire logic       clk_i,
  input  wire logic       rst_i,
  input  wire logic       in_valid_i,
  output logic            in_ready_o,
  input  wire logic [7:0] in_data_i,
  output logic            tx_o
);
  `CANOPY_STATIC_ASSERT(gen_div_check, CyclesPerBit >= 4, "CyclesPerBit must be set (>= 4)")
  localparam int unsigned DivW = $clog2(CyclesPerBit);

  logic [9:0]      shift_q;   // {stop, data[7:0], start}, sent from bit 0
  logic [3:0]      bits_q;    // bits still to send, 0 = idle
  logic [DivW-1:0] div_q;     // cycles left in the current bit, minus one

  assign in_ready_o = (bits_q == '0);
  assign tx_o       = (bits_q == '0) ? 1'b1 : shift_q[0];

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      bits_q  <= '0;
      div_q   <= '0;
      shift_q <= '1;
    end else if (bits_q == '0) begin
      if (in_valid_i) begin
        shift_q <= {1'b1, in_data_i, 1'b0};
        bits_q  <= 4'd10;
        div_q   <= DivW'(CyclesPerBit - 1);
      end
    end else if (div_q == '0) begin
      shift_q <= {1'b1, shift_q[9:1]};
      bits_q  <= bits_q - 4'd1;
      div_q   <= DivW'(CyclesPerBit - 1);
    end else begin
      div_q <= div_q - DivW'(1);
    end
  end

  `CANOPY_ASSERT(a_bits_range, bits_q <= 4'd10, "bit counter out of range")
endmodule

`default_nettype wire
