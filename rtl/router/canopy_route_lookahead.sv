// canopy_route_lookahead: the route a head flit will take at the next router (lookahead
// routing), computed when the flit is written into this router's input buffer.
//
// Interface contract (purely combinational)
//   - port_i / vc_i: the output port the packet takes here (0..2*NumDims+1, encoded) and the
//     VC it leaves on; dst_i / ptype_i: its header fields.
//   - nbr_coord_i[p]: the coordinates of the neighbour through link port p (registered
//     once from the static my_coord/torus_size, see canopy_router).
//   - la_port_o / la_hi_o: the output port and P2P VC (1 = P2P_HI) the packet takes at that
//     neighbour: dimension-order routing from the neighbour's coordinates, entering through
//     the port opposite port_i on vc_i; a broadcast request that reaches its root there
//     goes to the neighbour's collective port (2*NumDims+1). When port_i is not a link (the
//     packet leaves here to the host or the collective unit) both are 0: hosts see the
//     fields as they sent them.
// Why at the buffer write: the receiving router can then arbitrate a head in the cycle it
// arrives without computing a route first, and here the computation has a whole cycle.
`default_nettype none

module canopy_route_lookahead #(
  parameter int unsigned NumDims = 0,  /// torus dimensions, 1..4; must be set
  parameter int unsigned NumVcs  = 0,  /// VCs per link; must be set
  localparam int unsigned NumLinks = 2 * NumDims,
  localparam int unsigned PortW = $clog2(2 * NumDims + 2),
  localparam int unsigned VcW = $clog2(NumVcs)
) (
  input  wire canopy_pkg::coords_t [NumLinks-1:0]                      nbr_coord_i,
  input  wire logic [canopy_pkg::MaxDims-1:0][canopy_pkg::CoordBits:0] torus_size_i,
  input  wire canopy_pkg::coords_t                                     dst_i,
  input  wire logic [canopy_pkg::HdrPtypeBits-1:0]                     ptype_i,
  input  wire logic [PortW-1:0]                                        port_i,
  input  wire logic [VcW-1:0]                                          vc_i,
  output logic      [canopy_pkg::HdrLaPortBits-1:0]                    la_port_o,
  output logic                                                         la_hi_o
);
  localparam int unsigned DorPortW = $clog2(2 * NumDims + 1);

  canopy_pkg::coords_t nbr;
  always_comb begin
    nbr = '0;
    for (int unsigned p = 0; p < NumLinks; p++) begin
      if (port_i == PortW'(p)) nbr = nbr_coord_i[p];
    end
  end

  logic [DorPortW-1:0] port;
  logic [VcW-1:0]      vc;
  canopy_route_dor #(.NumDims(NumDims), .NumVcs(NumVcs)) u_dor (
    .my_coord_i (nbr),
    .torus_size_i,
    .dst_i,
    .in_port_i  (DorPortW'(port_i ^ PortW'(1))),
    .in_vc_i    (vc_i),
    .out_port_o (port),
    .out_vc_o   (vc)
  );

  always_comb begin
    la_port_o = canopy_pkg::HdrLaPortBits'(port);
    if (port == DorPortW'(2 * NumDims) && ptype_i == canopy_pkg::PKT_BCAST_REQ) begin
      la_port_o = canopy_pkg::HdrLaPortBits'(2 * NumDims + 1);
    end
    la_hi_o = vc == VcW'(canopy_pkg::VcP2pHi);
    if (port_i >= PortW'(NumLinks)) begin
      la_port_o = '0;
      la_hi_o   = 1'b0;
    end
  end
endmodule

`default_nettype wire
