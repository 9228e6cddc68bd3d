// canopy_unit_hdr_check_tb.sv: test top for the canopy_hdr_check unit test (driven by
// hdr_check_test.cpp).
//
// Instantiates the (purely combinational) canopy_hdr_check once per parameter set:
// config k has NumDims = k % 4 + 1 and FlitWidth = 64, 128, 256 for k / 4 = 0, 1, 2.
// The inputs are shared; the outputs are packed arrays indexed by config, flits_o padded
// to the widest (6 bits). hdr_check_test.cpp holds the same table.
`default_nettype none

module canopy_unit_hdr_check_tb #(
  localparam int unsigned NumCfg  = 12,
  localparam int unsigned MaxFlitsW = 6  // FlitWidth 64: $clog2(2 + 256 / 8 + 1)
) (
  input  wire logic [canopy_pkg::WordBits-1:0]                         word0_i,
  input  wire logic [1:0]                                              vc_i,
  input  wire logic [canopy_pkg::MaxDims-1:0][canopy_pkg::CoordBits:0] torus_size_i,
  output logic      [NumCfg-1:0]                                       bad_type_o,
  output logic      [NumCfg-1:0]                                       bad_dst_o,
  output logic      [NumCfg-1:0]                                       bad_len_o,
  output logic      [NumCfg-1:0][MaxFlitsW-1:0]                        flits_o
);
  for (genvar k = 0; k < NumCfg; k++) begin : g_cfg
    localparam int unsigned NumDims   = k % 4 + 1;
    localparam int unsigned FlitWidth = 64 << (k / 4);
    localparam int unsigned FlitBytes = FlitWidth / 8;
    localparam int unsigned HdrFlits  = (canopy_pkg::HeaderBits + FlitWidth - 1) / FlitWidth;
    localparam int unsigned MaxFlits  = HdrFlits + canopy_pkg::MaxPayloadBytes / FlitBytes;
    localparam int unsigned FlitsW    = $clog2(MaxFlits + 1);

    logic [FlitsW-1:0] flits;

    canopy_hdr_check #(.NumDims(NumDims), .FlitWidth(FlitWidth), .NumVcs(4)) u_dut (
      .word0_i,
      .vc_i,
      .torus_size_i,
      .bad_type_o (bad_type_o[k]),
      .bad_dst_o  (bad_dst_o[k]),
      .bad_len_o  (bad_len_o[k]),
      .flits_o    (flits)
    );

    assign flits_o[k] = MaxFlitsW'(flits);
  end
endmodule

`default_nettype wire
