// canopy_inj_mux: merges packet streams (the injector's, the ACK generator's) into the
// router's local input port, under that port's per-VC credits.
//
// Interface contract
//   - in_*[i]: packet streams, valid/ready (valid never waits for ready; a flit's VC is
//     constant over its packet). in_ready_o[i] is high in the cycle flit i is taken.
//   - Arbitration is at packet boundaries: once a stream's head flit is taken, only that
//     stream is served until its tail, so packets never interleave (two streams may use
//     the same VC). A stream competes for the next packet only when its VC has a credit,
//     round-robin among those that do, so a stream blocked on one VC never holds up a
//     stream on another between packets.
//   - rx_*: toward the router's local input (registered outputs); rx_credit_i[v]: the
//     router freed one slot of its local VC v buffer. Credits start at Credits (the
//     router's LocalBufDepth) per VC, and a flit is sent only with a credit (asserted in
//     canopy_credit_counter).
`default_nettype none
`include "canopy_assert.svh"

module canopy_inj_mux #(
  parameter int unsigned NumIn     = 2,  /// packet streams merged, >= 1
  parameter int unsigned NumVcs    = 4,  /// VCs of the router's local port
  parameter int unsigned FlitWidth = 64, /// bits per flit
  parameter int unsigned Credits   = 0,  /// router injection buffer per VC (LocalBufDepth); must be set
  localparam int unsigned VcW = $clog2(NumVcs),
  localparam int unsigned InW = NumIn > 1 ? $clog2(NumIn) : 1
) (
  input  wire logic                                clk_i,
  input  wire logic                                rst_i,

  input  wire logic [NumIn-1:0]                    in_valid_i,
  output logic      [NumIn-1:0]                    in_ready_o,
  input  wire logic [NumIn-1:0][FlitWidth-1:0]     in_flit_i,
  input  wire logic [NumIn-1:0]                    in_last_i,
  input  wire logic [NumIn-1:0][VcW-1:0]           in_vc_i,

  output logic                                     rx_valid_o,
  output logic      [FlitWidth-1:0]                rx_flit_o,
  output logic                                     rx_last_o,
  output logic      [VcW-1:0]                      rx_vc_o,
  input  wire logic [NumVcs-1:0]                   rx_credit_i
);
  `CANOPY_STATIC_ASSERT(gen_credits_check, Credits >= 1, "Credits must be set")

  logic [NumVcs-1:0] credit_ok, consume;
  for (genvar v = 0; v < NumVcs; v++) begin : gen_vc
    canopy_credit_counter #(.Credits(Credits)) u_credits (
      .clk_i,
      .rst_i,
      .consume_i   (consume[v]),
      .return_i    (rx_credit_i[v]),
      .available_o (credit_ok[v]),
      .claim_i     (1'b0),
      .ready_o     (unused_ready),
      .room_o      (unused_room)
    );
    wire logic unused_ready, unused_room;
  end

  logic [NumIn-1:0] can_send, arb_req, grant;
  logic [InW-1:0]   grant_idx, sel;
  logic             locked_q, locked_d;   // between a taken head and its tail
  logic [InW-1:0]   owner_q, owner_d;
  logic             send, advance;

  always_comb begin
    for (int unsigned i = 0; i < NumIn; i++) can_send[i] = in_valid_i[i] && credit_ok[in_vc_i[i]];
    arb_req = locked_q ? '0 : can_send;
  end

  canopy_rr_arbiter #(.NumReq(NumIn)) u_arb (
    .clk_i,
    .rst_i,
    .req_i       (arb_req),
    .advance_i   (advance),
    .grant_o     (grant),
    .grant_idx_o (grant_idx)
  );
  wire logic unused_grant = ^grant;

  always_comb begin
    sel        = locked_q ? owner_q : grant_idx;
    send       = locked_q ? can_send[owner_q] : arb_req != '0;
    advance    = send && !locked_q;
    in_ready_o = '0;
    consume    = '0;
    locked_d   = locked_q;
    owner_d    = owner_q;
    if (send) begin
      in_ready_o[sel]          = 1'b1;
      consume[in_vc_i[sel]]    = 1'b1;
      locked_d                 = !in_last_i[sel];
      owner_d                  = sel;
    end
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      locked_q   <= 1'b0;
      owner_q    <= '0;
      rx_valid_o <= 1'b0;
    end else begin
      locked_q   <= locked_d;
      owner_q    <= owner_d;
      rx_valid_o <= send;
    end
  end

  always_ff @(posedge clk_i) begin
    rx_flit_o <= in_flit_i[sel];
    rx_last_o <= in_last_i[sel];
    rx_vc_o   <= in_vc_i[sel];
  end

  // A packet keeps its VC from head to tail.
  logic [VcW-1:0] pkt_vc_q;
  always_ff @(posedge clk_i) begin
    if (send) pkt_vc_q <= in_vc_i[sel];
  end
  `CANOPY_ASSERT(a_vc_constant, !(send && locked_q) || in_vc_i[sel] == pkt_vc_q,
                 "a packet changed VC mid-packet")
endmodule

`default_nettype wire
