// canopy_unit_crossbar_tb.sv: test top for the canopy_crossbar unit test (driven by
// crossbar_test.cpp).
//
// Instantiates the (purely combinational) canopy_crossbar once per parameter set,
// (NumIn, Width) = (1, 1), (2, 5), (6, 33) and (9, 64) (config k = 0..3). Each config has
// its own slice of the packed ports, padded to the widest: 9 select bits, 9 words of 64
// bits, a 64-bit output. crossbar_test.cpp holds the same table.
`default_nettype none

module canopy_unit_crossbar_tb #(
  localparam int unsigned NumCfg = 4,
  localparam int unsigned MaxIn  = 9,
  localparam int unsigned MaxW   = 64
) (
  input  wire logic [NumCfg-1:0][MaxIn-1:0]            sel_i,
  input  wire logic [NumCfg-1:0][MaxIn-1:0][MaxW-1:0]  data_i,
  output logic      [NumCfg-1:0][MaxW-1:0]             data_o
);
  for (genvar k = 0; k < NumCfg; k++) begin : g_cfg
    localparam int unsigned NumIn = (k == 0) ? 1 : (k == 1) ? 2 : (k == 2) ? 6 : 9;
    localparam int unsigned Width = (k == 0) ? 1 : (k == 1) ? 5 : (k == 2) ? 33 : 64;

    logic [NumIn-1:0][Width-1:0] data;
    logic [Width-1:0]            out;

    for (genvar i = 0; i < NumIn; i++) begin : g_in
      assign data[i] = data_i[k][i][Width-1:0];
    end

    canopy_crossbar #(.NumIn(NumIn), .Width(Width)) u_dut (
      .sel_i  (sel_i[k][NumIn-1:0]),
      .data_i (data),
      .data_o (out)
    );

    assign data_o[k] = MaxW'(out);
  end

  // A narrow config's padding is driven (random, to catch a leak into data_o) but unused.
  wire logic unused_pad = ^{sel_i, data_i};
endmodule

`default_nettype wire
