// canopy_torus_fabric: a whole torus of canopy routers, for simulation.
//
// Interface contract
//   - SizeX..SizeW give the torus (sizes of unused dimensions 1); NumDims is the number of
//     dimensions with a size >= 2, all of them first. Node n has coordinates
//     x = n % SizeX, y = (n / SizeX) % SizeY, ... (X fastest).
//   - Every node's local port is brought out as arrays indexed by node, with the router's
//     link protocol unchanged: inj_* / inj_credit_o is the host side injecting into the
//     router, ej_* / ej_credit_i the router ejecting to the host.
//   - Neighbouring routers are joined by canopy_link_pipe instances of LinkLatency cycles:
//     node n's port 2d (+) feeds port 2d+1 (-) of its + neighbour in dimension d, and its
//     port 2d+1 feeds port 2d of its - neighbour. On a ring of 2 the two neighbours are
//     the same node, joined by two distinct links.
//   - err_*_o: each node's error counters.
`default_nettype none

module canopy_torus_fabric #(
  parameter int unsigned NumDims      = 2,
  parameter int unsigned SizeX        = 3,
  parameter int unsigned SizeY        = 3,
  parameter int unsigned SizeZ        = 1,
  parameter int unsigned SizeW        = 1,
  parameter int unsigned LinkLatency  = 1,   /// cycles each way between routers
  parameter int unsigned FlitWidth    = 64,
  parameter int unsigned NumVcs       = 4,
  parameter int unsigned LinkBufDepth = 16,
  parameter int unsigned LocalBufDepth = 64,
  parameter int unsigned EjectCredits = 16,
  localparam int unsigned NumNodes = SizeX * SizeY * SizeZ * SizeW,
  localparam int unsigned NumPorts = 2 * NumDims + 1,
  localparam int unsigned VcW      = $clog2(NumVcs)
) (
  input  wire logic                                  clk_i,
  input  wire logic                                  rst_i,

  input  wire logic [NumNodes-1:0]                   inj_valid_i,
  input  wire logic [NumNodes-1:0][FlitWidth-1:0]    inj_flit_i,
  input  wire logic [NumNodes-1:0]                   inj_last_i,
  input  wire logic [NumNodes-1:0][VcW-1:0]          inj_vc_i,
  output logic      [NumNodes-1:0][NumVcs-1:0]       inj_credit_o,

  output logic      [NumNodes-1:0]                   ej_valid_o,
  output logic      [NumNodes-1:0][FlitWidth-1:0]    ej_flit_o,
  output logic      [NumNodes-1:0]                   ej_last_o,
  output logic      [NumNodes-1:0][VcW-1:0]          ej_vc_o,
  input  wire logic [NumNodes-1:0][NumVcs-1:0]       ej_credit_i,

  output logic      [NumNodes-1:0][31:0]             err_bad_type_o,
  output logic      [NumNodes-1:0][31:0]             err_bad_dst_o,
  output logic      [NumNodes-1:0][31:0]             err_bad_len_o
);
  localparam int unsigned Local = 2 * NumDims;
  localparam int unsigned Sizes [4] = '{SizeX, SizeY, SizeZ, SizeW};
  localparam int unsigned Strides [4] = '{1, SizeX, SizeX * SizeY, SizeX * SizeY * SizeZ};

  // Router-side port bundles, [node][port].
  logic [NumNodes-1:0][NumPorts-1:0]                rx_valid, rx_last, tx_valid, tx_last;
  logic [NumNodes-1:0][NumPorts-1:0][FlitWidth-1:0] rx_flit, tx_flit;
  logic [NumNodes-1:0][NumPorts-1:0][VcW-1:0]       rx_vc, tx_vc;
  logic [NumNodes-1:0][NumPorts-1:0][NumVcs-1:0]    rx_credit, tx_credit;

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

  for (genvar n = 0; n < NumNodes; n++) begin : gen_node
    canopy_pkg::coords_t                                     my_coord;
    logic [canopy_pkg::MaxDims-1:0][canopy_pkg::CoordBits:0] torus_size;
    for (genvar d = 0; d < canopy_pkg::MaxDims; d++) begin : gen_dim
      assign my_coord[d]   = canopy_pkg::CoordBits'(coord(n, 2'(d)));
      assign torus_size[d] = (canopy_pkg::CoordBits + 1)'(Sizes[d]);
    end

    canopy_router #(
      .NumDims       (NumDims),
      .NumVcs        (NumVcs),
      .FlitWidth     (FlitWidth),
      .LinkBufDepth  (LinkBufDepth),
      .LocalBufDepth (LocalBufDepth),
      .EjectCredits  (EjectCredits)
    ) u_router (
      .clk_i,
      .rst_i,
      .my_coord_i     (my_coord),
      .torus_size_i   (torus_size),
      .rx_valid_i     (rx_valid[n]),
      .rx_flit_i      (rx_flit[n]),
      .rx_last_i      (rx_last[n]),
      .rx_vc_i        (rx_vc[n]),
      .rx_credit_o    (rx_credit[n]),
      .tx_valid_o     (tx_valid[n]),
      .tx_flit_o      (tx_flit[n]),
      .tx_last_o      (tx_last[n]),
      .tx_vc_o        (tx_vc[n]),
      .tx_credit_i    (tx_credit[n]),
      .err_bad_type_o (err_bad_type_o[n]),
      .err_bad_dst_o  (err_bad_dst_o[n]),
      .err_bad_len_o  (err_bad_len_o[n])
    );

    // Local port straight out.
    assign rx_valid[n][Local]  = inj_valid_i[n];
    assign rx_flit[n][Local]   = inj_flit_i[n];
    assign rx_last[n][Local]   = inj_last_i[n];
    assign rx_vc[n][Local]     = inj_vc_i[n];
    assign inj_credit_o[n]     = rx_credit[n][Local];
    assign ej_valid_o[n]       = tx_valid[n][Local];
    assign ej_flit_o[n]        = tx_flit[n][Local];
    assign ej_last_o[n]        = tx_last[n][Local];
    assign ej_vc_o[n]          = tx_vc[n][Local];
    assign tx_credit[n][Local] = ej_credit_i[n];

    // Outgoing links: port p of node n drives the opposite port of the neighbour it faces.
    for (genvar p = 0; p < 2 * NumDims; p++) begin : gen_link
      localparam int unsigned Peer     = neighbour(n, 2'(p / 2), p % 2 == 0);
      localparam int unsigned PeerPort = p ^ 1;
      canopy_link_pipe #(
        .Latency   (LinkLatency),
        .FlitWidth (FlitWidth),
        .NumVcs    (NumVcs)
      ) u_link (
        .clk_i,
        .rst_i,
        .in_valid_i   (tx_valid[n][p]),
        .in_flit_i    (tx_flit[n][p]),
        .in_last_i    (tx_last[n][p]),
        .in_vc_i      (tx_vc[n][p]),
        .out_valid_o  (rx_valid[Peer][PeerPort]),
        .out_flit_o   (rx_flit[Peer][PeerPort]),
        .out_last_o   (rx_last[Peer][PeerPort]),
        .out_vc_o     (rx_vc[Peer][PeerPort]),
        .credit_in_i  (rx_credit[Peer][PeerPort]),
        .credit_out_o (tx_credit[n][p])
      );
    end
  end
endmodule

`default_nettype wire
