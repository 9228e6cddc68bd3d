// canopy_router_tile: one node of the router-only torus simulator (canopy-fabric): a
// canopy_router and the links it transmits on (canopy_tile_links).
//
// Interface contract
//   - my_coord_i / torus_size_i: as the router takes them (the simulator computes them).
//   - The local port is brought out with the router's link protocol unchanged:
//     inj_* / inj_credit_o is the host side injecting into the router, ej_* / ej_credit_i
//     the router ejecting to the host.
//   - link_o[p] / link_credit_o[p]: what leaves on link port p (flits, after the link's
//     latency) and the credits this router returns for port p; link_i[p] / link_credit_i[p]
//     what the peer on port p sends. The simulator (sim/torus_tiles.hpp) copies each tile's
//     link_o[p] and link_credit_o[p] to port p^1 of its peer once per cycle. All of them
//     are registers.
//   - err_*_o: the router's error counters. link_replays_o / link_errors_o / link_flits_o:
//     with LinkProtect, the protected links' replays, refused frames and flits delivered
//     (canopy_tile_links).
// The collective table stays empty here (nothing writes it): the collective subnet is
// exercised through whole nodes (canopy_node_tile).
`default_nettype none

module canopy_router_tile #(
  parameter int unsigned NumDims       = 2,
  parameter int unsigned LinkLatency   = 1,   /// cycles each way between routers, >= 1
  parameter int unsigned LinkProtect   = 0,    /// 1: a protected link end on every link port (canopy_link)
  parameter int unsigned FlitWidth     = 64,
  parameter int unsigned NumVcs        = 4,
  parameter int unsigned LinkBufDepth  = 64,
  parameter int unsigned CollBufDepth  = 32,
  parameter int unsigned LocalBufDepth = 32,
  parameter int unsigned EjectCredits  = 16,
  localparam int unsigned NumLinks = 2 * NumDims,
  localparam int unsigned VcW      = $clog2(NumVcs),
  localparam int unsigned TreeIdW  = canopy_pkg::HdrTreeBits,
  localparam int unsigned LinkW    = FlitWidth + VcW + 2 + LinkProtect,
  localparam int unsigned CreditW  = NumVcs + 1 + TreeIdW
) (
  input  wire logic                                               clk_i,
  input  wire logic                                               rst_i,
  input  wire logic [canopy_pkg::MaxDims-1:0][canopy_pkg::CoordBits-1:0] my_coord_i,
  input  wire logic [canopy_pkg::MaxDims-1:0][canopy_pkg::CoordBits:0]   torus_size_i,

  input  wire logic                  inj_valid_i,
  input  wire logic [FlitWidth-1:0]  inj_flit_i,
  input  wire logic                  inj_last_i,
  input  wire logic [VcW-1:0]        inj_vc_i,
  output logic      [NumVcs-1:0]     inj_credit_o,
  output logic                       ej_valid_o,
  output logic      [FlitWidth-1:0]  ej_flit_o,
  output logic                       ej_last_o,
  output logic      [VcW-1:0]        ej_vc_o,
  input  wire logic [NumVcs-1:0]     ej_credit_i,

  output logic      [LinkW-1:0]      link_o [NumLinks],
  input  wire logic [LinkW-1:0]      link_i [NumLinks],
  output logic      [CreditW-1:0]    link_credit_o [NumLinks],
  input  wire logic [CreditW-1:0]    link_credit_i [NumLinks],

  output logic      [31:0]           link_replays_o,   // protected links: replays started
  output logic      [31:0]           link_errors_o,    //   frames refused,
  output logic      [31:0]           link_flits_o,     //   flits handed to the router,
  output logic      [NumLinks-1:0]   link_down_o,      //   links down,
  output logic      [31:0]           link_drops_o,     //   and flits dropped by a dead link
  output logic      [31:0]           err_bad_type_o,
  output logic      [31:0]           err_bad_dst_o,
  output logic      [31:0]           err_bad_len_o
);
  logic [NumLinks-1:0]                rx_valid, rx_last, tx_valid, tx_last;
  logic [NumLinks-1:0][FlitWidth-1:0] rx_flit, tx_flit;
  logic [NumLinks-1:0][VcW-1:0]       rx_vc, tx_vc;
  logic [NumLinks-1:0][NumVcs-1:0]    rx_credit, tx_credit;
  logic [NumLinks-1:0]                rx_slot_valid, tx_slot_valid;
  logic [NumLinks-1:0][TreeIdW-1:0]   rx_slot_tree, tx_slot_tree;

  canopy_tile_links #(
    .NumLinks (NumLinks), .LinkLatency (LinkLatency), .FlitWidth (FlitWidth), .NumVcs (NumVcs),
    .LinkProtect (LinkProtect)
  ) u_links (
    .clk_i, .rst_i,
    .tx_valid_i (tx_valid), .tx_flit_i (tx_flit), .tx_last_i (tx_last), .tx_vc_i (tx_vc),
    .tx_credit_o (tx_credit), .tx_slot_valid_o (tx_slot_valid), .tx_slot_tree_o (tx_slot_tree),
    .link_o, .credit_i (link_credit_i),
    .link_i, .rx_valid_o (rx_valid), .rx_flit_o (rx_flit), .rx_last_o (rx_last), .rx_vc_o (rx_vc),
    .rx_credit_i (rx_credit), .rx_slot_valid_i (rx_slot_valid), .rx_slot_tree_i (rx_slot_tree),
    .link_credit_o, .link_replays_o, .link_errors_o, .link_flits_o,
    .link_down_o, .link_drops_o
  );

  logic                    unused_local_slot_valid, unused_wok;
  logic [TreeIdW-1:0]      unused_local_slot_tree;
  canopy_pkg::tree_entry_t unused_rentry;
  logic [31:0]             unused_err_dir, unused_err_tree, unused_err_reduce, unused_refused;
  canopy_router #(
    .NumDims       (NumDims),
    .NumVcs        (NumVcs),
    .FlitWidth     (FlitWidth),
    .LinkBufDepth  (LinkBufDepth),
    .CollBufDepth  (CollBufDepth),
    .LocalBufDepth (LocalBufDepth),
    .EjectCredits  (EjectCredits)
  ) u_router (
    .clk_i,
    .rst_i,
    .my_coord_i,
    .torus_size_i,
    // Port 2*NumDims (local, the highest) is the host side; the rest are links.
    .rx_valid_i     ({inj_valid_i, rx_valid}),
    .rx_flit_i      ({inj_flit_i, rx_flit}),
    .rx_last_i      ({inj_last_i, rx_last}),
    .rx_vc_i        ({inj_vc_i, rx_vc}),
    .rx_credit_o    ({inj_credit_o, rx_credit}),
    .tx_valid_o     ({ej_valid_o, tx_valid}),
    .tx_flit_o      ({ej_flit_o, tx_flit}),
    .tx_last_o      ({ej_last_o, tx_last}),
    .tx_vc_o        ({ej_vc_o, tx_vc}),
    .tx_credit_i    ({ej_credit_i, tx_credit}),
    .rx_slot_credit_valid_o ({unused_local_slot_valid, rx_slot_valid}),
    .rx_slot_credit_tree_o  ({unused_local_slot_tree, rx_slot_tree}),
    .tx_slot_credit_valid_i ({1'b0, tx_slot_valid}),
    .tx_slot_credit_tree_i  ({TreeIdW'(0), tx_slot_tree}),
    .tbl_we_i       (1'b0),
    .tbl_widx_i     ('0),
    .tbl_wentry_i   ('0),
    .tbl_wok_o      (unused_wok),
    .tbl_ridx_i     ('0),
    .tbl_rentry_o   (unused_rentry),
    .err_bad_type_o,
    .err_bad_dst_o,
    .err_bad_len_o,
    .err_coll_dir_o (unused_err_dir),
    .err_coll_tree_o(unused_err_tree),
    .err_reduce_o   (unused_err_reduce),
    .reduces_refused_o(unused_refused)
  );
endmodule

`default_nettype wire
