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
//   - LinkProtect: each link port has a protected link end (rtl/link/canopy_link.sv)
//     between the router and the wire: link_o[p] / link_i[p] carry its wire words,
//     bundled {ctl, vc, last, body, valid}, credits and slot credits travel inside them,
//     and link_credit_o / credit_i are unused (zero). The simulator may corrupt link_i on
//     its way (sim/wire_faults.hpp). link_replays_o / link_errors_o / link_flits_o count,
//     over the tile's links, the replays started, the frames or control words refused and
//     the flits handed to the router; link_down_o[p]: link p is down (canopy_link up_o
//     low); link_drops_o: flits the router sent into a dead link (dropped there).
`default_nettype none
`include "canopy_assert.svh"

module canopy_tile_links #(
  parameter int unsigned NumLinks    = 4,
  parameter int unsigned LinkLatency = 1,
  parameter int unsigned FlitWidth   = 64,
  parameter int unsigned NumVcs      = 4,
  parameter int unsigned LinkProtect = 0,   // 0 or 1
  localparam int unsigned VcW      = $clog2(NumVcs),
  localparam int unsigned TreeIdW  = canopy_pkg::HdrTreeBits,
  localparam int unsigned LinkW    = FlitWidth + VcW + 2 + LinkProtect,
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
  output logic      [CreditW-1:0]                 link_credit_o [NumLinks],
  output logic      [31:0]                        link_replays_o,
  output logic      [31:0]                        link_errors_o,
  output logic      [31:0]                        link_flits_o,
  output logic      [NumLinks-1:0]                link_down_o,
  output logic      [31:0]                        link_drops_o
);
  `CANOPY_STATIC_ASSERT(gen_latency_check, LinkLatency >= 1,
                        "the tiled simulators need registered links (LinkLatency >= 1)")

  if (LinkProtect == 0) begin : gen_plain
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
    assign link_replays_o = '0;
    assign link_errors_o  = '0;
    assign link_flits_o   = '0;
    assign link_down_o    = '0;
    assign link_drops_o   = '0;
  end else begin : gen_protected
    logic [NumLinks-1:0] replay, crc_err, up, drop;
    for (genvar p = 0; p < NumLinks; p++) begin : gen_link
      logic                 w_valid, w_ctl, w_last;
      logic [VcW-1:0]       w_vc;
      logic [FlitWidth-1:0] w_body;
      logic unused_timeout, unused_seq, unused_dup, unused_cred, unused_close;
      canopy_link #(.NumVcs (NumVcs)) u_end (
        .clk_i,
        .rst_i,
        .tx_valid_i      (tx_valid_i[p]),
        .tx_flit_i       (tx_flit_i[p]),
        .tx_last_i       (tx_last_i[p]),
        .tx_vc_i         (tx_vc_i[p]),
        .tx_credit_o     (tx_credit_o[p]),
        .tx_slot_valid_o (tx_slot_valid_o[p]),
        .tx_slot_tree_o  (tx_slot_tree_o[p]),
        .rx_valid_o      (rx_valid_o[p]),
        .rx_flit_o       (rx_flit_o[p]),
        .rx_last_o       (rx_last_o[p]),
        .rx_vc_o         (rx_vc_o[p]),
        .rx_credit_i     (rx_credit_i[p]),
        .rx_slot_valid_i (rx_slot_valid_i[p]),
        .rx_slot_tree_i  (rx_slot_tree_i[p]),
        .w_tx_valid_o    (w_valid),
        .w_tx_ctl_o      (w_ctl),
        .w_tx_last_o     (w_last),
        .w_tx_vc_o       (w_vc),
        .w_tx_body_o     (w_body),
        .w_rx_valid_i    (link_i[p][0]),
        .w_rx_body_i     (link_i[p][FlitWidth:1]),
        .w_rx_last_i     (link_i[p][FlitWidth+1]),
        .w_rx_vc_i       (link_i[p][FlitWidth+2 +: VcW]),
        .w_rx_ctl_i      (link_i[p][LinkW-1]),
        .replay_o        (replay[p]),
        .timeout_o       (unused_timeout),
        .crc_err_o       (crc_err[p]),
        .seq_err_o       (unused_seq),
        .dup_o           (unused_dup),
        .cred_err_o      (unused_cred),
        .up_o            (up[p]),
        .drop_o          (drop[p]),
        .close_o         (unused_close)   // counted where it matters: ERR_BAD_LEN downstream
      );
      // The wire's remaining latency (the link end's output is a register already).
      logic unused_credit;
      canopy_link_pipe #(
        .Latency   (LinkLatency - 1),
        .FlitWidth (FlitWidth + 1),
        .NumVcs    (NumVcs),
        .CreditW   (1)
      ) u_wire (
        .clk_i,
        .rst_i,
        .in_valid_i   (w_valid),
        .in_flit_i    ({w_ctl, w_body}),
        .in_last_i    (w_last),
        .in_vc_i      (w_vc),
        .out_valid_o  (link_o[p][0]),
        .out_flit_o   ({link_o[p][LinkW-1], link_o[p][FlitWidth:1]}),
        .out_last_o   (link_o[p][FlitWidth+1]),
        .out_vc_o     (link_o[p][FlitWidth+2 +: VcW]),
        .credit_in_i  (1'b0),
        .credit_out_o (unused_credit)
      );
      assign link_credit_o[p] = '0;
      wire logic unused_credit_in = ^credit_i[p];
    end
    logic [31:0] replays_q, errors_q, flits_q, drops_q;
    always_ff @(posedge clk_i) begin
      if (rst_i) begin
        replays_q <= '0;
        errors_q  <= '0;
        flits_q   <= '0;
        drops_q   <= '0;
      end else begin
        replays_q <= replays_q + 32'($countones(replay));
        errors_q  <= errors_q + 32'($countones(crc_err));
        flits_q   <= flits_q + 32'($countones(rx_valid_o));
        drops_q   <= drops_q + 32'($countones(drop));
      end
    end
    assign link_replays_o = replays_q;
    assign link_errors_o  = errors_q;
    assign link_flits_o   = flits_q;
    assign link_down_o    = ~up;
    assign link_drops_o   = drops_q;
  end
endmodule

`default_nettype wire
