// canopy_route_dor: dimension-order route computation with dateline virtual channels.
//
// Interface contract (purely combinational)
//   - Inputs: this router's coordinates and the torus size per dimension (runtime values,
//     so one synthesized router serves any torus up to 16 per dimension), the packet's
//     destination, and the input port and VC the packet arrived on.
//   - Outputs: the output port and the point-to-point VC it leaves on.
// Port numbering (shared by every block): dimension d has port 2d (+ direction) and
// 2d+1 (- direction); port 2*NumDims is the local (host) port.
//
// Routing: resolve X first, then Y, Z, W. In each dimension take the shorter way round
// the ring; a tie (exactly half way on an even ring) goes + toward an even destination
// coordinate and - toward an odd one. The choice is fixed per source and destination (so
// packets of a pair stay in order), and the half-way traffic of an even ring is spread
// over both directions instead of loading the + links with all of it.
// Dateline: each ring's wrap-around link (between coordinate k-1 and 0) is its dateline.
// A packet travels on VC P2P_LO until it crosses the dateline of the dimension it is in,
// and on P2P_HI from then until it turns into the next dimension. Minimal routes cross a
// dateline at most once per dimension, so the channel dependencies within each ring form
// two chains, never a cycle; dimension order keeps dependencies between rings acyclic.
`default_nettype none

module canopy_route_dor #(
  parameter int unsigned NumDims = 0,  /// torus dimensions, 1..4; must be set
  parameter int unsigned NumVcs  = 0, /// VCs per link, >= canopy_pkg::MinVcs; must be set
  localparam int unsigned NumPorts = 2 * NumDims + 1,
  localparam int unsigned PortW = $clog2(NumPorts),
  localparam int unsigned VcW = $clog2(NumVcs)
) (
  input  wire canopy_pkg::coords_t                                     my_coord_i,
  input  wire logic [canopy_pkg::MaxDims-1:0][canopy_pkg::CoordBits:0] torus_size_i,
  input  wire canopy_pkg::coords_t                                     dst_i,
  input  wire logic [PortW-1:0]                                        in_port_i,
  input  wire logic [VcW-1:0]                                          in_vc_i,
  output logic      [PortW-1:0]                                        out_port_o,
  output logic      [VcW-1:0]                                          out_vc_o
);
  localparam int unsigned CW        = canopy_pkg::CoordBits;
  localparam logic [PortW-1:0] LocalPort = PortW'(2 * NumDims);

  always_comb begin
    logic done;
    logic [CW:0] fwd;      // hops going + : (dst - my) mod k
    logic        plus;
    logic        same_ring;
    logic        wraps;
    out_port_o = LocalPort;
    out_vc_o   = VcW'(canopy_pkg::VcP2pLo);
    done = 1'b0;
    for (int unsigned d = 0; d < NumDims; d++) begin
      fwd = '0;
      plus = 1'b0;
      same_ring = 1'b0;
      wraps = 1'b0;
      if (!done && dst_i[d] != my_coord_i[d]) begin
        done = 1'b1;
        fwd = (dst_i[d] > my_coord_i[d])
              ? {1'b0, dst_i[d]} - {1'b0, my_coord_i[d]}
              : {1'b0, dst_i[d]} + torus_size_i[d] - {1'b0, my_coord_i[d]};
        plus = {fwd, 1'b0} < {1'b0, torus_size_i[d]}
               || ({fwd, 1'b0} == {1'b0, torus_size_i[d]} && !dst_i[d][0]);
        out_port_o = PortW'(2 * d) + PortW'(!plus);
        same_ring = in_port_i == PortW'(2 * d) || in_port_i == PortW'(2 * d + 1);
        wraps = plus ? ({1'b0, my_coord_i[d]} == torus_size_i[d] - 1'b1)
                     : (my_coord_i[d] == '0);
        out_vc_o = ((same_ring && in_vc_i == VcW'(canopy_pkg::VcP2pHi)) || wraps)
                   ? VcW'(canopy_pkg::VcP2pHi) : VcW'(canopy_pkg::VcP2pLo);
      end
    end
  end
endmodule

`default_nettype wire
