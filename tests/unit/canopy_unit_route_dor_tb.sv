// canopy_unit_route_dor_tb.sv: test top for the canopy_route_dor unit test (driven by
// route_dor_test.cpp).
//
// Instantiates the (purely combinational) canopy_route_dor once per dimension count,
// NumDims 1..4 (config k = NumDims - 1), all with NumVcs = canopy_pkg::MinVcs. The inputs
// are shared: a config reads the low PortW bits of in_port_i, and the test drives only
// the config whose NumDims matches the torus it walks. The outputs are packed arrays
// indexed by config, padded to the widest port number (4 bits).
`default_nettype none

module canopy_unit_route_dor_tb #(
  localparam int unsigned NumCfg   = canopy_pkg::MaxDims,
  localparam int unsigned MaxPortW = 4,  // $clog2(2 * 4 + 1)
  localparam int unsigned VcW      = $clog2(canopy_pkg::MinVcs)
) (
  input  wire canopy_pkg::coords_t                                     my_coord_i,
  input  wire logic [canopy_pkg::MaxDims-1:0][canopy_pkg::CoordBits:0] torus_size_i,
  input  wire canopy_pkg::coords_t                                     dst_i,
  input  wire logic [MaxPortW-1:0]                                     in_port_i,
  input  wire logic [VcW-1:0]                                          in_vc_i,
  output logic      [NumCfg-1:0][MaxPortW-1:0]                         out_port_o,
  output logic      [NumCfg-1:0][VcW-1:0]                              out_vc_o
);
  for (genvar k = 0; k < NumCfg; k++) begin : g_cfg
    localparam int unsigned NumDims = k + 1;
    localparam int unsigned PortW   = $clog2(2 * NumDims + 1);

    logic [PortW-1:0] out_port;

    canopy_route_dor #(.NumDims(NumDims), .NumVcs(canopy_pkg::MinVcs)) u_dut (
      .my_coord_i,
      .torus_size_i,
      .dst_i,
      .in_port_i  (in_port_i[PortW-1:0]),
      .in_vc_i,
      .out_port_o (out_port),
      .out_vc_o   (out_vc_o[k])
    );

    assign out_port_o[k] = MaxPortW'(out_port);
  end
endmodule

`default_nettype wire
