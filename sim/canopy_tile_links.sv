// canopy_tile_links: the links leaving one node of a simulated torus: the pipes of its
// transmit ports, as the tiles of the simulators carry them (canopy_router_tile,
// canopy_node_tile).
//
// Interface contract
//   - tx_*[p] (this node's router, link port p) leave on link_o[p] LinkLatency cycles
//     later, bundled {vc, last, flit, valid}; the simulator delivers link_o[p] to port
//     p^1 of the peer (sim/torus_tiles.hpp).
//   - credit_i[p] is what the peer's router returns for that link ({slot tree, slot valid,
//     VC credits}); it reaches this router as tx_credit_o[p] / tx_slot_*_o[p] LinkLatency
//     cycles later. Each link is one canopy_link_pipe, forward and backward, as on a cable.
//   - The receive side only changes form: link_i[p] (the peer's link_o) unbundled to this
//     router's rx_*_o[p], and this router's rx_credit_i[p] / rx_slot_*_i[p] bundled the same
//     way into link_credit_o[p] for the peer's credit_i.
//   - LinkLatency >= 1: every output is a register, which is what lets the simulator
//     evaluate the tiles one by one and copy link_o between them once per cycle.
`default_nettype none
`include "canopy_assert.svh"

module canopy_tile_links #(
  parameter int unsigned NumLinks    = 4,
  parameter int unsigned LinkLatency = 1,
  parameter int unsigned FlitWidth   = 64,
  parameter int unsigned NumVcs      = 4,
  localparam int unsigned VcW      = $clog2(NumVcs),
  localparam int unsigned TreeIdW  = canopy_pkg::HdrTreeBits,
  localparam int unsigned LinkW    = FlitWidth + VcW + 2,
  localparam int unsigned CreditW  = NumVcs + 1 + TreeIdW
) (
  input  wire logic                               clk_i,
  input  wire logic                               rst_i,
  input  wire logic [NumLinks-1:0]                tx_valid_i,
  input  wire logic [NumLinks-1:0][FlitWidth-1:0] tx_flit_i,
  input  wire logic [NumLinks-1:0]                tx_last_i,
  input  wire logic [NumLinks-1:0][VcW-1:0]       tx_vc_i,
  output logic      [NumLinks-1:0][NumVcs-1:0]    tx_credit_o,
  output logic      [NumLinks-1:0]                tx_slot_valid_o,
  output logic      [NumLinks-1:0][TreeIdW-1:0]   tx_slot_tree_o,
  output logic      [LinkW-1:0]                   link_o [NumLinks],
  input  wire logic [CreditW-1:0]                 credit_i [NumLinks],

  input  wire logic [LinkW-1:0]                   link_i [NumLinks],
  output logic      [NumLinks-1:0]                rx_valid_o,
  output logic      [NumLinks-1:0][FlitWidth-1:0] rx_flit_o,
  output logic      [NumLinks-1:0]                rx_last_o,
  output logic      [NumLinks-1:0][VcW-1:0]       rx_vc_o,
  input  wire logic [NumLinks-1:0][NumVcs-1:0]    rx_credit_i,
  input  wire logic [NumLinks-1:0]                rx_slot_valid_i,
  input  wire logic [NumLinks-1:0][TreeIdW-1:0]   rx_slot_tree_i,
  output logic      [CreditW-1:0]                 link_credit_o [NumLinks]
);
  `CANOPY_STATIC_ASSERT(gen_latency_check, LinkLatency >= 1,
                        "the tiled simulators need registered links (LinkLatency >= 1)")

  for (genvar p = 0; p < NumLinks; p++) begin : gen_link
    assign rx_valid_o[p]    = link_i[p][0];
    assign rx_flit_o[p]     = link_i[p][FlitWidth:1];
    assign rx_last_o[p]     = link_i[p][FlitWidth+1];
    assign rx_vc_o[p]       = link_i[p][LinkW-1 -: VcW];
    assign link_credit_o[p] = {rx_slot_tree_i[p], rx_slot_valid_i[p], rx_credit_i[p]};

    canopy_link_pipe #(
      .Latency   (LinkLatency),
      .FlitWidth (FlitWidth),
      .NumVcs    (NumVcs),
      .CreditW   (CreditW)
    ) u_link (
      .clk_i,
      .rst_i,
      .in_valid_i   (tx_valid_i[p]),
      .in_flit_i    (tx_flit_i[p]),
      .in_last_i    (tx_last_i[p]),
      .in_vc_i      (tx_vc_i[p]),
      .out_valid_o  (link_o[p][0]),
      .out_flit_o   (link_o[p][FlitWidth:1]),
      .out_last_o   (link_o[p][FlitWidth+1]),
      .out_vc_o     (link_o[p][LinkW-1 -: VcW]),
      .credit_in_i  (credit_i[p]),
      .credit_out_o ({tx_slot_tree_o[p], tx_slot_valid_o[p], tx_credit_o[p]})
    );
  end
endmodule

`default_nettype wire
