// canopy_torus_links: the cabling of a torus: every link port of every node to its peer.
//
// Interface contract
//   - Node n has coordinates x = n % SizeX, y = (n / SizeX) % SizeY, ... (X fastest);
//     SizeX..SizeW give the torus (sizes of unused dimensions 1), NumDims the number of
//     dimensions in use (all of them first).
//   - coord_o[n] / torus_size_o: node n's coordinates and the torus size, in the form the
//     router's my_coord_i / torus_size_i take.
//   - tx_* [n][p] is what node n's port p sends, rx_* [n][p] what it receives; credits
//     flow the other way (tx_credit_o to the sender, rx_credit_i from the receiver). The
//     router link protocol passes through unchanged. The collective subnet's slot credits
//     (tx_slot_* from the receiver back to the sender, rx_slot_* delivered) share the
//     credit path.
//   - Port 2d (+) of node n feeds port 2d+1 (-) of its + neighbour in dimension d, and port
//     2d+1 feeds port 2d of its - neighbour, each through a canopy_link_pipe of LinkLatency
//     cycles. On a ring of 2 both neighbours are the same node, joined by two links.
// Both simulation fabrics (routers only, and whole nodes with host interfaces) use it, so
// the torus is wired in one place.
`default_nettype none

module canopy_torus_links #(
  parameter int unsigned NumDims     = 2,
  parameter int unsigned SizeX       = 3,
  parameter int unsigned SizeY       = 3,
  parameter int unsigned SizeZ       = 1,
  parameter int unsigned SizeW       = 1,
  parameter int unsigned LinkLatency = 1,   /// cycles each way between routers
  parameter int unsigned FlitWidth   = 64,
  parameter int unsigned NumVcs      = 4,
  localparam int unsigned NumNodes = SizeX * SizeY * SizeZ * SizeW,
  localparam int unsigned NumLinks = 2 * NumDims,
  localparam int unsigned VcW      = $clog2(NumVcs),
  localparam int unsigned TreeIdW  = canopy_pkg::HdrTreeBits
) (
  input  wire logic                                               clk_i,
  input  wire logic                                               rst_i,
  output canopy_pkg::coords_t [NumNodes-1:0]                      coord_o,
  output logic [canopy_pkg::MaxDims-1:0][canopy_pkg::CoordBits:0] torus_size_o,
  input  wire logic [NumNodes-1:0][NumLinks-1:0]                  tx_valid_i,
  input  wire logic [NumNodes-1:0][NumLinks-1:0][FlitWidth-1:0]   tx_flit_i,
  input  wire logic [NumNodes-1:0][NumLinks-1:0]                  tx_last_i,
  input  wire logic [NumNodes-1:0][NumLinks-1:0][VcW-1:0]         tx_vc_i,
  output logic      [NumNodes-1:0][NumLinks-1:0][NumVcs-1:0]      tx_credit_o,
  output logic      [NumNodes-1:0][NumLinks-1:0]                  rx_valid_o,
  output logic      [NumNodes-1:0][NumLinks-1:0][FlitWidth-1:0]   rx_flit_o,
  output logic      [NumNodes-1:0][NumLinks-1:0]                  rx_last_o,
  output logic      [NumNodes-1:0][NumLinks-1:0][VcW-1:0]         rx_vc_o,
  input  wire logic [NumNodes-1:0][NumLinks-1:0][NumVcs-1:0]      rx_credit_i,
  // slot credits: [n][p] from node n's port p back toward its peer, and arriving at n's p
  input  wire logic [NumNodes-1:0][NumLinks-1:0]                  rx_slot_valid_i,
  input  wire logic [NumNodes-1:0][NumLinks-1:0][TreeIdW-1:0]     rx_slot_tree_i,
  output logic      [NumNodes-1:0][NumLinks-1:0]                  tx_slot_valid_o,
  output logic      [NumNodes-1:0][NumLinks-1:0][TreeIdW-1:0]     tx_slot_tree_o
);
  localparam int unsigned Sizes [4] = '{SizeX, SizeY, SizeZ, SizeW};
  localparam int unsigned Strides [4] = '{1, SizeX, SizeX * SizeY, SizeX * SizeY * SizeZ};

  function automatic int unsigned coord(int unsigned node, logic [1:0] d);
    coord = (node / Strides[d]) % Sizes[d];
  endfunction

  // The node one step along dimension d, + or -.
  function automatic int unsigned neighbour(int unsigned node, logic [1:0] d, bit plus);
    int unsigned c, c2;
    c  = coord(node, d);
    c2 = plus ? (c + 1) % Sizes[d] : (c + Sizes[d] - 1) % Sizes[d];
    neighbour = node - c * Strides[d] + c2 * Strides[d];
  endfunction

  for (genvar d = 0; d < canopy_pkg::MaxDims; d++) begin : gen_size
    assign torus_size_o[d] = (canopy_pkg::CoordBits + 1)'(Sizes[d]);
  end

  for (genvar n = 0; n < NumNodes; n++) begin : gen_node
    for (genvar d = 0; d < canopy_pkg::MaxDims; d++) begin : gen_coord
      assign coord_o[n][d] = canopy_pkg::CoordBits'(coord(n, 2'(d)));
    end
    for (genvar p = 0; p < NumLinks; p++) begin : gen_link
      localparam int unsigned Peer     = neighbour(n, 2'(p / 2), p % 2 == 0);
      localparam int unsigned PeerPort = p ^ 1;
      canopy_link_pipe #(
        .Latency   (LinkLatency),
        .FlitWidth (FlitWidth),
        .NumVcs    (NumVcs),
        .CreditW   (NumVcs + 1 + TreeIdW)
      ) u_link (
        .clk_i,
        .rst_i,
        .in_valid_i   (tx_valid_i[n][p]),
        .in_flit_i    (tx_flit_i[n][p]),
        .in_last_i    (tx_last_i[n][p]),
        .in_vc_i      (tx_vc_i[n][p]),
        .out_valid_o  (rx_valid_o[Peer][PeerPort]),
        .out_flit_o   (rx_flit_o[Peer][PeerPort]),
        .out_last_o   (rx_last_o[Peer][PeerPort]),
        .out_vc_o     (rx_vc_o[Peer][PeerPort]),
        .credit_in_i  ({rx_slot_tree_i[Peer][PeerPort], rx_slot_valid_i[Peer][PeerPort],
                        rx_credit_i[Peer][PeerPort]}),
        .credit_out_o ({tx_slot_tree_o[n][p], tx_slot_valid_o[n][p], tx_credit_o[n][p]})
      );
    end
  end
endmodule

`default_nettype wire
