// canopy_router: one torus router node, point-to-point subnet.
//
// Interface contract
//   - Ports 0..2*NumDims-1 are links (dimension d: port 2d toward +, port 2d+1 toward -);
//     port 2*NumDims is the local port toward the host interface. Every port, local included,
//     speaks the same link protocol:
//       tx_valid_o/tx_flit_o/tx_last_o/tx_vc_o  a flit leaving on VC tx_vc_o, only when the
//                                              sender holds a credit for that VC;
//       tx_credit_i[v]                          the receiver freed one slot of VC v;
//       rx_* / rx_credit_o                       the mirror image for arriving flits.
//     Links are credit-based, with no ready signal, so a link may be pipelined to any
//     depth (SerDes, cable) without changing the router.
//   - Credits start full out of reset: LinkBufDepth per VC on links (the neighbour's input
//     buffer), EjectCredits per VC toward the host. The host starts with LocalBufDepth
//     credits per VC for injection.
//   - my_coord_i / torus_size_i are static while out of reset (strapped or set by the
//     fabric manager before traffic); sizes of unused dimensions must be 1.
//   - err_*_o count refused packets (wrapping 32-bit counters), see canopy_router_input.
//
// Pipeline (zero load): cycle 0 a flit is on rx_*, and its route is computed as it is
// written into its VC buffer; cycle 1 it is at the buffer front, wins VC and switch
// allocation, crosses the crossbar and is registered in the output; cycle 2 it is on
// tx_*. Two router cycles per hop plus the link's own latency.
//
// Flow control is wormhole: a packet holds its output VC from head to tail, and buffers
// need not hold whole packets. Allocation is separable and input-first: each input picks
// one of its eligible VCs round-robin, each output picks one of the inputs that chose it
// round-robin, and both move priority only when a grant is used.
`default_nettype none
`include "canopy_assert.svh"

module canopy_router #(
  parameter int unsigned NumDims       = 0,   /// torus dimensions, 1..4; must be set
  parameter int unsigned NumVcs        = 4,   /// VCs per link (2 point-to-point, 2 collective)
  parameter int unsigned FlitWidth     = 64,  /// bits per flit: 64, 128 or 256
  parameter int unsigned LinkBufDepth  = 16,  /// flits per VC buffer on link inputs
  parameter int unsigned LocalBufDepth = 64,  /// flits per VC buffer on the injection port
  parameter int unsigned EjectCredits  = 16, /// flits per VC the host side can accept
  localparam int unsigned NumPorts = 2 * NumDims + 1,
  localparam int unsigned PortW = $clog2(NumPorts),
  localparam int unsigned VcW = $clog2(NumVcs)
) (
  input  wire logic                                                    clk_i,
  input  wire logic                                                    rst_i,
  input  wire canopy_pkg::coords_t                                     my_coord_i,
  input  wire logic [canopy_pkg::MaxDims-1:0][canopy_pkg::CoordBits:0] torus_size_i,

  input  wire logic [NumPorts-1:0]                         rx_valid_i,
  input  wire logic [NumPorts-1:0][FlitWidth-1:0]          rx_flit_i,
  input  wire logic [NumPorts-1:0]                         rx_last_i,
  input  wire logic [NumPorts-1:0][VcW-1:0]                rx_vc_i,
  output logic      [NumPorts-1:0][NumVcs-1:0]             rx_credit_o,

  output logic      [NumPorts-1:0]                         tx_valid_o,
  output logic      [NumPorts-1:0][FlitWidth-1:0]          tx_flit_o,
  output logic      [NumPorts-1:0]                         tx_last_o,
  output logic      [NumPorts-1:0][VcW-1:0]                tx_vc_o,
  input  wire logic [NumPorts-1:0][NumVcs-1:0]             tx_credit_i,

  output logic      [31:0]                                 err_bad_type_o,
  output logic      [31:0]                                 err_bad_dst_o,
  output logic      [31:0]                                 err_bad_len_o
);
  localparam int unsigned LocalPort = 2 * NumDims;

  `CANOPY_STATIC_ASSERT(gen_dims_check, NumDims >= 1 && NumDims <= canopy_pkg::MaxDims,
                        "NumDims must be 1..4")

  // ---------------------------------------------------------------- input units
  logic [NumPorts-1:0][NumVcs-1:0]                req_valid, req_head, req_last, in_pop;
  logic [NumPorts-1:0][NumVcs-1:0][PortW-1:0]     req_port;
  logic [NumPorts-1:0][NumVcs-1:0][VcW-1:0]       req_vc;
  logic [NumPorts-1:0][NumVcs-1:0][FlitWidth-1:0] req_flit;
  logic [NumPorts-1:0] err_type, err_dst, err_len;

  for (genvar i = 0; i < NumPorts; i++) begin : gen_in
    canopy_router_input #(
      .NumDims         (NumDims),
      .NumVcs          (NumVcs),
      .FlitWidth       (FlitWidth),
      .BufDepth        (i == LocalPort ? LocalBufDepth : LinkBufDepth),
      .PortIndex       (i),
      .StoreAndForward (i == LocalPort)
    ) u_input (
      .clk_i,
      .rst_i,
      .my_coord_i,
      .torus_size_i,
      .rx_valid_i     (rx_valid_i[i]),
      .rx_flit_i      (rx_flit_i[i]),
      .rx_last_i      (rx_last_i[i]),
      .rx_vc_i        (rx_vc_i[i]),
      .credit_o       (rx_credit_o[i]),
      .req_valid_o    (req_valid[i]),
      .req_head_o     (req_head[i]),
      .req_port_o     (req_port[i]),
      .req_vc_o       (req_vc[i]),
      .req_flit_o     (req_flit[i]),
      .req_last_o     (req_last[i]),
      .grant_i        (in_pop[i]),
      .err_bad_type_o (err_type[i]),
      .err_bad_dst_o  (err_dst[i]),
      .err_bad_len_o  (err_len[i])
    );
  end

  // ---------------------------------------------------------------- output VC state
  logic [NumPorts-1:0][NumVcs-1:0] credit_ok, credit_take, ovc_busy_q, ovc_busy_d;

  for (genvar o = 0; o < NumPorts; o++) begin : gen_credit
    for (genvar v = 0; v < NumVcs; v++) begin : gen_vc
      canopy_credit_counter #(
        .Credits (o == LocalPort ? EjectCredits : LinkBufDepth)
      ) u_credits (
        .clk_i,
        .rst_i,
        .consume_i   (credit_take[o][v]),
        .return_i    (tx_credit_i[o][v]),
        .available_o (credit_ok[o][v])
      );
    end
  end

  // ---------------------------------------------------------------- allocation
  // Stage 1, per input: one eligible VC. Eligible: its target output VC has a credit and,
  // for a head, is not held by another packet.
  logic [NumPorts-1:0][NumVcs-1:0] eligible, vc_pick;
  logic [NumPorts-1:0][VcW-1:0]    vc_pick_idx;
  logic [NumPorts-1:0]             in_wants, in_won;
  logic [NumPorts-1:0][PortW-1:0]  in_port;

  always_comb begin
    for (int unsigned i = 0; i < NumPorts; i++) begin
      for (int unsigned v = 0; v < NumVcs; v++) begin
        eligible[i][v] = req_valid[i][v]
                         && credit_ok[req_port[i][v]][req_vc[i][v]]
                         && (!req_head[i][v] || !ovc_busy_q[req_port[i][v]][req_vc[i][v]]);
      end
    end
  end

  for (genvar i = 0; i < NumPorts; i++) begin : gen_vc_arb
    canopy_rr_arbiter #(.NumReq(NumVcs)) u_arb (
      .clk_i,
      .rst_i,
      .req_i       (eligible[i]),
      .advance_i   (in_won[i]),
      .grant_o     (vc_pick[i]),
      .grant_idx_o (vc_pick_idx[i])
    );
    assign in_wants[i] = eligible[i] != '0;
    assign in_port[i]  = req_port[i][vc_pick_idx[i]];
  end

  // Stage 2, per output: one of the inputs whose picked VC targets it.
  logic [NumPorts-1:0][NumPorts-1:0] out_req, out_grant;  // [output][input]
  logic [NumPorts-1:0][PortW-1:0]    out_grant_idx;
  logic [NumPorts-1:0]               out_busy_now;

  for (genvar o = 0; o < NumPorts; o++) begin : gen_sw_arb
    for (genvar i = 0; i < NumPorts; i++) begin : gen_req
      assign out_req[o][i] = in_wants[i] && in_port[i] == PortW'(o);
    end
    canopy_rr_arbiter #(.NumReq(NumPorts)) u_arb (
      .clk_i,
      .rst_i,
      .req_i       (out_req[o]),
      .advance_i   (out_busy_now[o]),
      .grant_o     (out_grant[o]),
      .grant_idx_o (out_grant_idx[o])
    );
    assign out_busy_now[o] = out_grant[o] != '0;
  end

  always_comb begin
    for (int unsigned i = 0; i < NumPorts; i++) begin
      in_won[i] = 1'b0;
      for (int unsigned o = 0; o < NumPorts; o++) in_won[i] |= out_grant[o][i];
      in_pop[i] = in_won[i] ? vc_pick[i] : '0;
    end
  end

  // ---------------------------------------------------------------- crossbar, outputs
  logic [NumPorts-1:0]                tx_valid_d, tx_last_d;
  logic [NumPorts-1:0][FlitWidth-1:0] tx_flit_d;
  logic [NumPorts-1:0][VcW-1:0]       tx_vc_d;

  always_comb begin
    credit_take = '0;
    ovc_busy_d  = ovc_busy_q;
    for (int unsigned o = 0; o < NumPorts; o++) begin
      logic [PortW-1:0] src;
      logic [VcW-1:0]   sv;
      src = out_grant_idx[o];
      sv  = vc_pick_idx[src];
      tx_valid_d[o] = out_busy_now[o];
      tx_flit_d[o]  = req_flit[src][sv];
      tx_last_d[o]  = req_last[src][sv];
      tx_vc_d[o]    = req_vc[src][sv];
      if (out_busy_now[o]) begin
        credit_take[o][tx_vc_d[o]] = 1'b1;
        // A head takes the output VC unless it is also the tail; a tail frees it.
        ovc_busy_d[o][tx_vc_d[o]] = !tx_last_d[o];
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      tx_valid_o <= '0;
      ovc_busy_q <= '0;
    end else begin
      tx_valid_o <= tx_valid_d;
      ovc_busy_q <= ovc_busy_d;
    end
  end

  always_ff @(posedge clk_i) begin
    tx_flit_o <= tx_flit_d;
    tx_last_o <= tx_last_d;
    tx_vc_o   <= tx_vc_d;
  end

  // ---------------------------------------------------------------- error counters
  function automatic logic [31:0] popcount(input logic [NumPorts-1:0] v);
    popcount = '0;
    for (int unsigned i = 0; i < NumPorts; i++) popcount += 32'(v[i]);
  endfunction

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      err_bad_type_o <= '0;
      err_bad_dst_o  <= '0;
      err_bad_len_o  <= '0;
    end else begin
      err_bad_type_o <= err_bad_type_o + popcount(err_type);
      err_bad_dst_o  <= err_bad_dst_o + popcount(err_dst);
      err_bad_len_o  <= err_bad_len_o + popcount(err_len);
    end
  end

  for (genvar o = 0; o < NumPorts; o++) begin : gen_out_assert
    `CANOPY_ASSERT(a_one_input_per_output, $onehot0(out_grant[o]), "two inputs granted one output")
  end
endmodule

`default_nettype wire
