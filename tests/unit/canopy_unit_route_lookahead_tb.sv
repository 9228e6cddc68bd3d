// canopy_unit_route_lookahead_tb.sv: test top for the canopy_route_lookahead unit test
// (driven by route_lookahead_test.cpp).
//
// Instantiates the (purely combinational) canopy_route_lookahead once per dimension
// count, NumDims 1..4 (config k = NumDims - 1). The inputs are shared: a config reads the
// low PortW bits of port_i and the first 2*NumDims entries of link_i, and the test drives
// only the config whose NumDims matches the torus it walks. The outputs are packed arrays
// indexed by config.
`default_nettype none

module canopy_unit_route_lookahead_tb #(
  localparam int unsigned NumCfg   = canopy_pkg::MaxDims,
  localparam int unsigned MaxLinks = 2 * canopy_pkg::MaxDims,
  localparam int unsigned MaxPortW = 4,  // $clog2(2 * 4 + 2)
  localparam int unsigned LinkW    = canopy_pkg::CoordBits + 2,
  localparam int unsigned LaW      = canopy_pkg::HdrLaPortBits
) (
  input  wire canopy_pkg::coords_t                                     my_coord_i,
  input  wire logic [canopy_pkg::MaxDims-1:0][canopy_pkg::CoordBits:0] torus_size_i,
  input  wire logic [MaxLinks-1:0][LinkW-1:0]                          link_i,
  input  wire canopy_pkg::coords_t                                     dst_i,
  input  wire logic [canopy_pkg::HdrPtypeBits-1:0]                     ptype_i,
  input  wire logic [MaxPortW-1:0]                                     port_i,
  input  wire logic                                                    hi_i,
  output logic      [NumCfg-1:0][LaW-1:0]                              la_port_o,
  output logic      [NumCfg-1:0]                                       la_hi_o
);
  for (genvar k = 0; k < NumCfg; k++) begin : g_cfg
    localparam int unsigned NumDims = k + 1;
    localparam int unsigned PortW   = $clog2(2 * NumDims + 2);

    canopy_route_lookahead #(.NumDims(NumDims)) u_dut (
      .my_coord_i,
      .torus_size_i,
      .link_i    (link_i[2*NumDims-1:0]),
      .dst_i,
      .ptype_i,
      .port_i    (port_i[PortW-1:0]),
      .hi_i,
      .la_port_o (la_port_o[k]),
      .la_hi_o   (la_hi_o[k])
    );
  end
endmodule

`default_nettype wire
