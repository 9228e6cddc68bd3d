// canopy_route_lookahead: the route a head flit will take at the next router (lookahead
// routing), computed when the flit is written into this router's input buffer.
//
// Interface contract (purely combinational)
//   - port_i / hi_i: the output port the packet takes here (0..2*NumDims+1, encoded) and
//     whether it leaves on P2P_HI; dst_i / ptype_i: its header fields.
//   - my_coord_i, torus_size_i: this router's coordinates and the torus size (static).
//   - link_i: per link port p, facts about the neighbour through p that depend only on the
//     static coordinates (canopy_router computes and registers them once):
//       nbr_coord: the neighbour's coordinate in p's dimension;
//       nbr_cross: going on through the neighbour in p's direction crosses the dateline;
//       my_cross:  leaving this router through p crosses the dateline (a neighbour through
//                  another dimension has the same coordinate in p's dimension, so this is
//                  also the crossing for a packet that turns into p's dimension there).
//   - la_port_o / la_hi_o: the output port and P2P VC (1 = P2P_HI) the packet takes at the
//     neighbour: dimension-order routing from the neighbour's coordinates with the
//     dateline rule (canopy_route_dor); a broadcast request that reaches its root there
//     goes to the neighbour's collective port (2*NumDims+1). When port_i is not a link (the
//     packet leaves here to the host or the collective unit) both are 0: hosts see the
//     fields as they sent them.
// How: one hop along dimension d changes nothing but the coordinate in d. So at the
// neighbour the packet either goes on the same way (its destination is not yet reached in
// d) or turns into the first later dimension where it differs from this router (the same
// dimension-order decision this router would make for the later dimensions), or arrives.
`default_nettype none

module canopy_route_lookahead #(
  parameter int unsigned NumDims = 0,  /// torus dimensions, 1..4; must be set
  localparam int unsigned NumLinks = 2 * NumDims,
  localparam int unsigned PortW = $clog2(2 * NumDims + 2),
  localparam int unsigned CW = canopy_pkg::CoordBits,
  localparam int unsigned LinkW = CW + 2
) (
  input  wire canopy_pkg::coords_t                                     my_coord_i,
  input  wire logic [canopy_pkg::MaxDims-1:0][canopy_pkg::CoordBits:0] torus_size_i,
  input  wire logic [NumLinks-1:0][LinkW-1:0]                          link_i,
  input  wire canopy_pkg::coords_t                                     dst_i,
  input  wire logic [canopy_pkg::HdrPtypeBits-1:0]                     ptype_i,
  input  wire logic [PortW-1:0]                                        port_i,
  input  wire logic                                                    hi_i,
  output logic      [canopy_pkg::HdrLaPortBits-1:0]                    la_port_o,
  output logic                                                         la_hi_o
);
  // Fields of link_i[p].
  localparam int unsigned LNbr   = 0;
  localparam int unsigned LNbrX  = CW;
  localparam int unsigned LMyX   = CW + 1;

  // Per dimension, from this router: does the destination differ, and which way is
  // shorter (a tie, half way round an even ring, goes + toward an even coordinate).
  logic [NumDims-1:0] differ, plus;
  always_comb begin
    for (int unsigned d = 0; d < NumDims; d++) begin
      logic [CW:0] fwd;
      fwd = (dst_i[d] >= my_coord_i[d])
            ? {1'b0, dst_i[d]} - {1'b0, my_coord_i[d]}
            : {1'b0, dst_i[d]} + torus_size_i[d] - {1'b0, my_coord_i[d]};
      differ[d] = dst_i[d] != my_coord_i[d];
      plus[d]   = {fwd, 1'b0} < {1'b0, torus_size_i[d]}
                  || ({fwd, 1'b0} == {1'b0, torus_size_i[d]} && !dst_i[d][0]);
    end
  end

  always_comb begin
    logic [CW-1:0] nbr;
    logic          nbr_cross, is_link, onward, turned;
    logic [2:0]    dim;
    nbr       = '0;
    nbr_cross = 1'b0;
    turned    = 1'b0;
    dim       = 3'({1'b0, port_i} >> 1);
    is_link   = port_i < PortW'(NumLinks);
    for (int unsigned p = 0; p < NumLinks; p++) begin
      if (port_i == PortW'(p)) begin
        nbr       = link_i[p][LNbr +: CW];
        nbr_cross = link_i[p][LNbrX];
      end
    end
    // Onward in the same dimension: the neighbour is not yet the destination there.
    onward = 1'b0;
    for (int unsigned d = 0; d < NumDims; d++) begin
      if (dim == 3'(d)) onward = dst_i[d] != nbr;
    end
    la_port_o = canopy_pkg::HdrLaPortBits'(port_i);
    la_hi_o   = hi_i || nbr_cross;
    if (!onward) begin
      // The first later dimension where the destination differs, else arrival.
      la_port_o = canopy_pkg::HdrLaPortBits'(ptype_i == canopy_pkg::PKT_BCAST_REQ ? 2 * NumDims + 1
                                                                                   : 2 * NumDims);
      la_hi_o   = 1'b0;
      for (int unsigned d = 0; d < NumDims; d++) begin
        if (!turned && 3'(d) > dim && differ[d]) begin
          turned    = 1'b1;
          la_port_o = canopy_pkg::HdrLaPortBits'(2 * d + (plus[d] ? 0 : 1));
          la_hi_o   = link_i[2 * d + (plus[d] ? 0 : 1)][LMyX];
        end
      end
    end
    if (!is_link) begin
      la_port_o = '0;
      la_hi_o   = 1'b0;
    end
  end
endmodule

`default_nettype wire
