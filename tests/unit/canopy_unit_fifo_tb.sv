// canopy_unit_fifo_tb.sv: test top for the FIFO unit test (driven by fifo_test.cpp):
// canopy_fifo and canopy_reg_fifo, which share an interface.
//
// Instantiates each once per parameter set of the sweep, so one Verilator build covers
// them all: config k has Depth 2, 4 or 16 ((k % 6) / 2) and Width 1 or 70 (k % 2), and is
// a canopy_fifo for k < 6, a canopy_reg_fifo (Depth behind its head) from 6. The configs
// share the clock and reset; every other port is brought out as a packed array indexed by
// config, data padded to the widest Width (70) and counts to the widest count (6 bits). fifo_test.cpp holds the same table; if the two ever disagree the test fails
// (wrong full flag or lost upper data bits), it cannot pass silently.
`default_nettype none

module canopy_unit_fifo_tb #(
  localparam int unsigned NumCfg   = 12,
  localparam int unsigned MaxWidth = 70,
  localparam int unsigned CountW   = 6   // $clog2(16 + 1) + 1
) (
  input  wire logic                              clk_i,
  input  wire logic                              rst_i,
  input  wire logic [NumCfg-1:0]                 in_valid_i,
  output logic      [NumCfg-1:0]                 in_ready_o,
  input  wire logic [NumCfg-1:0][MaxWidth-1:0]   in_data_i,
  output logic      [NumCfg-1:0]                 out_valid_o,
  input  wire logic [NumCfg-1:0]                 out_ready_i,
  output logic      [NumCfg-1:0][MaxWidth-1:0]   out_data_o,
  output logic      [NumCfg-1:0][CountW-1:0]     count_o,
  output logic      [NumCfg-1:0]                 next_valid_o,   // canopy_reg_fifo's peek port (0 for canopy_fifo)
  output logic      [NumCfg-1:0][MaxWidth-1:0]   next_data_o
);
  for (genvar k = 0; k < NumCfg; k++) begin : g_cfg
    localparam int unsigned Width = (k % 2 == 0) ? 1 : 70;
    localparam int unsigned Depth = ((k % 6) / 2 == 0) ? 2 : ((k % 6) / 2 == 1) ? 4 : 16;
    localparam bit          Reg   = k >= 6;
    localparam int unsigned CntW  = Reg ? $clog2(Depth + 1) + 1 : $clog2(Depth) + 1;

    logic [Width-1:0] out_data, next_data;
    logic [CntW-1:0]  count;

    if (Reg) begin : g_reg
      canopy_reg_fifo #(.Width(Width), .Depth(Depth)) u_dut (
        .clk_i,
        .rst_i,
        .in_valid_i  (in_valid_i[k]),
        .in_ready_o  (in_ready_o[k]),
        .in_data_i   (in_data_i[k][Width-1:0]),
        .out_valid_o (out_valid_o[k]),
        .out_ready_i (out_ready_i[k]),
        .out_data_o  (out_data),
        .count_o     (count),
        .next_valid_o (next_valid_o[k]),
        .next_data_o  (next_data)
      );
    end else begin : g_plain
      canopy_fifo #(.Width(Width), .Depth(Depth)) u_dut (
        .clk_i,
        .rst_i,
        .in_valid_i  (in_valid_i[k]),
        .in_ready_o  (in_ready_o[k]),
        .in_data_i   (in_data_i[k][Width-1:0]),
        .out_valid_o (out_valid_o[k]),
        .out_ready_i (out_ready_i[k]),
        .out_data_o  (out_data),
        .count_o     (count)
      );
      assign next_valid_o[k] = 1'b0;
      assign next_data       = '0;
    end

    assign out_data_o[k] = MaxWidth'(out_data);
    assign next_data_o[k] = MaxWidth'(next_data);
    assign count_o[k]    = CountW'(count);

    // The padding of a narrow config's input is driven (to random values) but unused.
    if (Width < MaxWidth) begin : g_pad
      wire logic unused_pad = ^in_data_i[k][MaxWidth-1:Width];
    end
  end
endmodule

`default_nettype wire
