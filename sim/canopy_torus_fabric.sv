// canopy_torus_fabric: a whole torus of canopy routers, for simulation.
//
// Interface contract
//   - SizeX..SizeW give the torus (sizes of unused dimensions 1); NumDims is the number of
//     dimensions with a size >= 2, all of them first. Node n has coordinates
//     x = n % SizeX, y = (n / SizeX) % SizeY, ... (X fastest).
//   - Every node's local port is brought out as arrays indexed by node, with the router's
//     link protocol unchanged: inj_* / inj_credit_o is the host side injecting into the
//     router, ej_* / ej_credit_i the router ejecting to the host.
//   - Neighbouring routers are joined as canopy_torus_links describes, with links of
//     LinkLatency cycles.
//   - err_*_o: each node's error counters.
`default_nettype none

// The simulator build sets the shape by macros (+define+CANOPY_FABRIC_*), not by -G:
// under Verilator's --hierarchical every -G also reaches each router's separate
// verilation, where SizeX and the others do not exist.
`ifndef CANOPY_FABRIC_NDIMS
`define CANOPY_FABRIC_NDIMS 2
`endif
`ifndef CANOPY_FABRIC_SIZE_X
`define CANOPY_FABRIC_SIZE_X 3
`endif
`ifndef CANOPY_FABRIC_SIZE_Y
`define CANOPY_FABRIC_SIZE_Y 3
`endif
`ifndef CANOPY_FABRIC_SIZE_Z
`define CANOPY_FABRIC_SIZE_Z 1
`endif
`ifndef CANOPY_FABRIC_SIZE_W
`define CANOPY_FABRIC_SIZE_W 1
`endif
`ifndef CANOPY_FABRIC_LINK_LATENCY
`define CANOPY_FABRIC_LINK_LATENCY 1
`endif
`ifndef CANOPY_FABRIC_FLIT_BITS
`define CANOPY_FABRIC_FLIT_BITS 64
`endif
`ifndef CANOPY_FABRIC_NUM_VCS
`define CANOPY_FABRIC_NUM_VCS 4
`endif
`ifndef CANOPY_FABRIC_LINK_BUF
`define CANOPY_FABRIC_LINK_BUF 64
`endif
`ifndef CANOPY_FABRIC_LOCAL_BUF
`define CANOPY_FABRIC_LOCAL_BUF 32
`endif
`ifndef CANOPY_FABRIC_EJECT_BUF
`define CANOPY_FABRIC_EJECT_BUF 16
`endif

module canopy_torus_fabric #(
  parameter int unsigned NumDims      = `CANOPY_FABRIC_NDIMS,
  parameter int unsigned SizeX        = `CANOPY_FABRIC_SIZE_X,
  parameter int unsigned SizeY        = `CANOPY_FABRIC_SIZE_Y,
  parameter int unsigned SizeZ        = `CANOPY_FABRIC_SIZE_Z,
  parameter int unsigned SizeW        = `CANOPY_FABRIC_SIZE_W,
  parameter int unsigned LinkLatency  = `CANOPY_FABRIC_LINK_LATENCY,   /// cycles each way between routers
  parameter int unsigned FlitWidth    = `CANOPY_FABRIC_FLIT_BITS,
  parameter int unsigned NumVcs       = `CANOPY_FABRIC_NUM_VCS,
  parameter int unsigned LinkBufDepth = `CANOPY_FABRIC_LINK_BUF,
  parameter int unsigned LocalBufDepth = `CANOPY_FABRIC_LOCAL_BUF,
  parameter int unsigned EjectCredits = `CANOPY_FABRIC_EJECT_BUF,
  localparam int unsigned NumNodes = SizeX * SizeY * SizeZ * SizeW,
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
  localparam int unsigned NumLinks = 2 * NumDims;

  canopy_pkg::coords_t [NumNodes-1:0]                      coord;
  logic [canopy_pkg::MaxDims-1:0][canopy_pkg::CoordBits:0] torus_size;

  // Link-side bundles, [node][link port].
  logic [NumNodes-1:0][NumLinks-1:0]                rx_valid, rx_last, tx_valid, tx_last;
  logic [NumNodes-1:0][NumLinks-1:0][FlitWidth-1:0] rx_flit, tx_flit;
  logic [NumNodes-1:0][NumLinks-1:0][VcW-1:0]       rx_vc, tx_vc;
  logic [NumNodes-1:0][NumLinks-1:0][NumVcs-1:0]    rx_credit, tx_credit;
  logic [NumNodes-1:0][NumLinks-1:0]                rx_slot_valid, tx_slot_valid;
  logic [NumNodes-1:0][NumLinks-1:0][canopy_pkg::HdrTreeBits-1:0] rx_slot_tree, tx_slot_tree;

  canopy_torus_links #(
    .NumDims (NumDims), .SizeX (SizeX), .SizeY (SizeY), .SizeZ (SizeZ), .SizeW (SizeW),
    .LinkLatency (LinkLatency), .FlitWidth (FlitWidth), .NumVcs (NumVcs)
  ) u_links (
    .clk_i, .rst_i, .coord_o (coord), .torus_size_o (torus_size),
    .tx_valid_i (tx_valid), .tx_flit_i (tx_flit), .tx_last_i (tx_last), .tx_vc_i (tx_vc),
    .tx_credit_o (tx_credit),
    .rx_valid_o (rx_valid), .rx_flit_o (rx_flit), .rx_last_o (rx_last), .rx_vc_o (rx_vc),
    .rx_credit_i (rx_credit),
    .rx_slot_valid_i (rx_slot_valid), .rx_slot_tree_i (rx_slot_tree),
    .tx_slot_valid_o (tx_slot_valid), .tx_slot_tree_o (tx_slot_tree)
  );

  // The routers' collective tables stay empty here (no host interface writes them): the
  // collective subnet is exercised through whole nodes (canopy_node_fabric).
  for (genvar n = 0; n < NumNodes; n++) begin : gen_node
    logic                    unused_local_slot_valid, unused_wok;
    logic [canopy_pkg::HdrTreeBits-1:0] unused_local_slot_tree;
    canopy_pkg::tree_entry_t unused_rentry;
    logic [31:0]             unused_err_dir, unused_err_tree, unused_err_reduce, unused_refused;
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
      .my_coord_i     (coord[n]),
      .torus_size_i   (torus_size),
      // Port 2*NumDims (local, the highest) is the host side; the rest are links.
      .rx_valid_i     ({inj_valid_i[n], rx_valid[n]}),
      .rx_flit_i      ({inj_flit_i[n], rx_flit[n]}),
      .rx_last_i      ({inj_last_i[n], rx_last[n]}),
      .rx_vc_i        ({inj_vc_i[n], rx_vc[n]}),
      .rx_credit_o    ({inj_credit_o[n], rx_credit[n]}),
      .tx_valid_o     ({ej_valid_o[n], tx_valid[n]}),
      .tx_flit_o      ({ej_flit_o[n], tx_flit[n]}),
      .tx_last_o      ({ej_last_o[n], tx_last[n]}),
      .tx_vc_o        ({ej_vc_o[n], tx_vc[n]}),
      .tx_credit_i    ({ej_credit_i[n], tx_credit[n]}),
      .rx_slot_credit_valid_o ({unused_local_slot_valid, rx_slot_valid[n]}),
      .rx_slot_credit_tree_o  ({unused_local_slot_tree, rx_slot_tree[n]}),
      .tx_slot_credit_valid_i ({1'b0, tx_slot_valid[n]}),
      .tx_slot_credit_tree_i  ({canopy_pkg::HdrTreeBits'(0), tx_slot_tree[n]}),
      .tbl_we_i       (1'b0),
      .tbl_widx_i     ('0),
      .tbl_wentry_i   ('0),
      .tbl_wok_o      (unused_wok),
      .tbl_ridx_i     ('0),
      .tbl_rentry_o   (unused_rentry),
      .err_bad_type_o (err_bad_type_o[n]),
      .err_bad_dst_o  (err_bad_dst_o[n]),
      .err_bad_len_o  (err_bad_len_o[n]),
      .err_coll_dir_o (unused_err_dir),
      .err_coll_tree_o(unused_err_tree),
      .err_reduce_o   (unused_err_reduce),
      .reduces_refused_o(unused_refused)
    );
  end
endmodule

`default_nettype wire
