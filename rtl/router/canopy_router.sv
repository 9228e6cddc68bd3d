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
//   - err_*_o count refused packets (wrapping 32-bit counters), see canopy_router_input;
//     err_coll_dir_o / err_coll_tree_o collective packets dropped (see canopy_coll_unit);
//     reduces_refused_o reduces refused for lack of an accumulator (canopy_reduce_engine).
//   - slot_credit_*: the collective subnet's slot credits, one (valid, tree) per link
//     port and direction, beside the flit credits: rx_slot_credit_*_o[p] go back to the
//     neighbour on p, tx_slot_credit_*_i[p] come from it (see canopy_coll_unit). Index
//     2*NumDims (the local port) is unused: tie the input to 0.
//   - tbl_*: the collective routing table's write and read-back ports (canopy_coll_table),
//     driven by the host interface (CSR writes and CONFIG packets).
//
// The collective unit (canopy_coll_unit) hangs off the crossbar: it is output port
// 2*NumDims+1 (CollPort) for broadcasts arriving down a tree and broadcast requests
// reaching their root, and it feeds every output with a send lane of its own that
// competes in that output's switch allocation and owns VC COLL_DOWN there.
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
  parameter int unsigned NumTrees      = 16,  /// collective routing table entries
  parameter int unsigned SlotsPerTree  = 2,   /// collective working-memory packets per tree
  localparam int unsigned NumPorts = 2 * NumDims + 1,
  localparam int unsigned PortW = $clog2(NumPorts + 1),
  localparam int unsigned VcW = $clog2(NumVcs),
  localparam int unsigned TreeIdW = canopy_pkg::HdrTreeBits
) (
  input  wire logic                                                    clk_i,
  input  wire logic                                                    rst_i,
  // Plain packed bits in the layout of canopy_pkg::coords_t: Verilator's hierarchical
  // verilation (the simulators build one router and instance it) cannot emit a typedef'd port.
  input  wire logic [canopy_pkg::MaxDims-1:0][canopy_pkg::CoordBits-1:0] my_coord_i,
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

  output logic      [NumPorts-1:0]                         rx_slot_credit_valid_o,
  output logic      [NumPorts-1:0][TreeIdW-1:0]            rx_slot_credit_tree_o,
  input  wire logic [NumPorts-1:0]                         tx_slot_credit_valid_i,
  input  wire logic [NumPorts-1:0][TreeIdW-1:0]            tx_slot_credit_tree_i,

  input  wire logic                                        tbl_we_i,
  input  wire logic [TreeIdW-1:0]                          tbl_widx_i,
  // Table entries as plain bits in the layout of canopy_pkg::tree_entry_t (see my_coord_i).
  input  wire logic [canopy_pkg::TreeEntryBits-1:0]        tbl_wentry_i,
  output logic                                             tbl_wok_o,
  input  wire logic [TreeIdW-1:0]                          tbl_ridx_i,
  output logic      [canopy_pkg::TreeEntryBits-1:0]        tbl_rentry_o,

  output logic      [31:0]                                 err_bad_type_o,
  output logic      [31:0]                                 err_bad_dst_o,
  output logic      [31:0]                                 err_bad_len_o,
  output logic      [31:0]                                 err_coll_dir_o,
  output logic      [31:0]                                 err_coll_tree_o,
  output logic      [31:0]                                 err_reduce_o,
  output logic      [31:0]                                 reduces_refused_o
);
  localparam int unsigned LocalPort = 2 * NumDims;
  localparam int unsigned NumLinks  = 2 * NumDims;
  localparam int unsigned CollPort  = NumPorts;      // the collective unit's input
  localparam int unsigned NumOut    = NumPorts + 1;  // crossbar outputs
  localparam int unsigned NumReq    = NumPorts + 2;  // per output: the inputs, a lane, the up lane
  localparam int unsigned LaneReq   = NumPorts;      // the lane's requester index
  localparam int unsigned UpReq     = NumPorts + 1;  // the reduce engine's up lane
  localparam int unsigned ReqW      = $clog2(NumReq);
  localparam int unsigned CollRxDepth = 8;

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
  logic [NumOut-1:0][NumVcs-1:0] credit_ok, credit_take, credit_back, ovc_busy_q, ovc_busy_d;
  logic [NumVcs-1:0]             coll_rx_credit;
  assign credit_back = {coll_rx_credit, tx_credit_i};

  for (genvar o = 0; o < NumOut; o++) begin : gen_credit
    for (genvar v = 0; v < NumVcs; v++) begin : gen_vc
      canopy_credit_counter #(
        .Credits (o == CollPort ? CollRxDepth : o == LocalPort ? EjectCredits : LinkBufDepth)
      ) u_credits (
        .clk_i,
        .rst_i,
        .consume_i   (credit_take[o][v]),
        .return_i    (credit_back[o][v]),
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

  // Stage 2, per output: one of the inputs whose picked VC targets it, or the collective
  // unit's lane for that output (which needs only a COLL_DOWN credit: it is the only
  // sender on that VC).
  logic [NumOut-1:0][NumReq-1:0]   out_req, out_grant;  // [output][input or lane]
  logic [NumOut-1:0][ReqW-1:0]     out_grant_idx;
  logic [NumOut-1:0]               out_busy_now;
  logic [NumPorts-1:0]             lane_valid, lane_last, lane_grant;
  logic [NumPorts-1:0][FlitWidth-1:0] lane_flit;
  // The lanes indexed by output, the collective port's (none) included, as 0.
  logic [NumOut-1:0]                  lane_last_out;
  logic [NumOut-1:0][FlitWidth-1:0]   lane_flit_out;
  assign lane_last_out = {1'b0, lane_last};
  assign lane_flit_out = {{FlitWidth{1'b0}}, lane_flit};
  logic                            up_valid, up_last;
  logic [FlitWidth-1:0]            up_flit;
  logic [PortW-1:0]                up_port;
  logic [NumOut-1:0]               up_grant_o;

  for (genvar o = 0; o < NumOut; o++) begin : gen_sw_arb
    for (genvar i = 0; i < NumPorts; i++) begin : gen_req
      assign out_req[o][i] = in_wants[i] && in_port[i] == PortW'(o);
    end
    if (o < NumPorts) begin : gen_lane_req
      assign out_req[o][LaneReq] = lane_valid[o] && credit_ok[o][canopy_pkg::VcCollDown];
      assign lane_grant[o]       = out_grant[o][LaneReq];
    end else begin : gen_no_lane
      assign out_req[o][LaneReq] = 1'b0;
    end
    // The up lane needs a COLL_UP credit: it is that VC's only sender on a link.
    if (o < NumLinks) begin : gen_up_req
      assign out_req[o][UpReq] = up_valid && up_port == PortW'(o) && credit_ok[o][canopy_pkg::VcCollUp];
    end else begin : gen_no_up
      assign out_req[o][UpReq] = 1'b0;
    end
    assign up_grant_o[o] = out_grant[o][UpReq];
    canopy_rr_arbiter #(.NumReq(NumReq)) u_arb (
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
      for (int unsigned o = 0; o < NumOut; o++) in_won[i] |= out_grant[o][i];
      in_pop[i] = in_won[i] ? vc_pick[i] : '0;
    end
  end

  // ---------------------------------------------------------------- crossbar, outputs
  logic [NumOut-1:0]                tx_valid_d, tx_last_d, out_valid_q, out_last_q;
  logic [NumOut-1:0][FlitWidth-1:0] tx_flit_d, out_flit_q;
  logic [NumOut-1:0][VcW-1:0]       tx_vc_d, out_vc_q;
  logic [NumOut-1:0][PortW-1:0]     out_src_q;

  always_comb begin
    credit_take = '0;
    ovc_busy_d  = ovc_busy_q;
    for (int unsigned o = 0; o < NumOut; o++) begin
      logic [PortW-1:0] src;
      logic [VcW-1:0]   sv;
      logic             from_lane, from_up;
      src = PortW'(out_grant_idx[o]);  // meaningful when an input won
      sv  = vc_pick_idx[src];
      from_lane = o < NumPorts && out_grant[o][LaneReq];
      from_up   = out_grant[o][UpReq];
      tx_valid_d[o] = out_busy_now[o];
      tx_flit_d[o]  = from_lane ? lane_flit_out[o] : from_up ? up_flit : req_flit[src][sv];
      tx_last_d[o]  = from_lane ? lane_last_out[o] : from_up ? up_last : req_last[src][sv];
      tx_vc_d[o]    = from_lane ? VcW'(canopy_pkg::VcCollDown)
                    : from_up   ? VcW'(canopy_pkg::VcCollUp) : req_vc[src][sv];
      if (out_busy_now[o]) begin
        credit_take[o][tx_vc_d[o]] = 1'b1;
        // A head takes the output VC unless it is also the tail; a tail frees it. (The
        // lanes' packets need no VC ownership: each is its VC's only sender there.)
        if (!from_lane && !from_up) ovc_busy_d[o][tx_vc_d[o]] = !tx_last_d[o];
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      out_valid_q <= '0;
      ovc_busy_q  <= '0;
    end else begin
      out_valid_q <= tx_valid_d;
      ovc_busy_q  <= ovc_busy_d;
    end
  end

  always_ff @(posedge clk_i) begin
    out_flit_q <= tx_flit_d;
    out_last_q <= tx_last_d;
    out_vc_q   <= tx_vc_d;
    for (int unsigned o = 0; o < NumOut; o++) out_src_q[o] <= PortW'(out_grant_idx[o]);
  end

  assign tx_valid_o = out_valid_q[NumPorts-1:0];
  assign tx_flit_o  = out_flit_q[NumPorts-1:0];
  assign tx_last_o  = out_last_q[NumPorts-1:0];
  assign tx_vc_o    = out_vc_q[NumPorts-1:0];

  // ---------------------------------------------------------------- collective unit
  logic [1:0] err_dir, err_tree;
  logic       err_reduce, reduce_refused;
  wire logic unused_out_src = ^out_src_q[NumPorts-1:0];

  canopy_coll_unit #(
    .NumDims      (NumDims),
    .NumVcs       (NumVcs),
    .FlitWidth    (FlitWidth),
    .NumTrees     (NumTrees),
    .SlotsPerTree (SlotsPerTree),
    .RxDepth      (CollRxDepth)
  ) u_coll (
    .clk_i,
    .rst_i,
    .my_coord_i,
    .rx_valid_i          (out_valid_q[CollPort]),
    .rx_flit_i           (out_flit_q[CollPort]),
    .rx_last_i           (out_last_q[CollPort]),
    .rx_vc_i             (out_vc_q[CollPort]),
    .rx_port_i           (out_src_q[CollPort]),
    .rx_credit_o         (coll_rx_credit),
    .lane_valid_o        (lane_valid),
    .lane_flit_o         (lane_flit),
    .lane_last_o         (lane_last),
    .lane_grant_i        (lane_grant),
    .slot_credit_valid_o (rx_slot_credit_valid_o[NumLinks-1:0]),
    .slot_credit_tree_o  (rx_slot_credit_tree_o[NumLinks-1:0]),
    .slot_credit_valid_i (tx_slot_credit_valid_i[NumLinks-1:0]),
    .slot_credit_tree_i  (tx_slot_credit_tree_i[NumLinks-1:0]),
    .tbl_we_i,
    .tbl_widx_i,
    .tbl_wentry_i,
    .tbl_wok_o,
    .tbl_ridx_i,
    .tbl_rentry_o,
    .up_valid_o          (up_valid),
    .up_flit_o           (up_flit),
    .up_last_o           (up_last),
    .up_port_o           (up_port),
    .up_grant_i          (up_grant_o != '0),
    .err_dir_o           (err_dir),
    .err_tree_o          (err_tree),
    .err_reduce_o        (err_reduce),
    .refused_o           (reduce_refused)
  );
  assign rx_slot_credit_valid_o[LocalPort] = 1'b0;
  assign rx_slot_credit_tree_o[LocalPort]  = '0;
  wire logic unused_local_slot_credit = ^{tx_slot_credit_valid_i[LocalPort], tx_slot_credit_tree_i[LocalPort]};

  // ---------------------------------------------------------------- error counters
  function automatic logic [31:0] popcount(input logic [NumPorts-1:0] v);
    popcount = '0;
    for (int unsigned i = 0; i < NumPorts; i++) popcount += 32'(v[i]);
  endfunction

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      err_bad_type_o  <= '0;
      err_bad_dst_o   <= '0;
      err_bad_len_o   <= '0;
      err_coll_dir_o  <= '0;
      err_coll_tree_o <= '0;
      err_reduce_o    <= '0;
      reduces_refused_o <= '0;
    end else begin
      err_bad_type_o  <= err_bad_type_o + popcount(err_type);
      err_bad_dst_o   <= err_bad_dst_o + popcount(err_dst);
      err_bad_len_o   <= err_bad_len_o + popcount(err_len);
      err_coll_dir_o  <= err_coll_dir_o + 32'(err_dir[0]) + 32'(err_dir[1]);
      err_coll_tree_o <= err_coll_tree_o + 32'(err_tree[0]) + 32'(err_tree[1]);
      err_reduce_o    <= err_reduce_o + 32'(err_reduce);
      reduces_refused_o <= reduces_refused_o + 32'(reduce_refused);
    end
  end

  for (genvar o = 0; o < NumOut; o++) begin : gen_out_assert
    `CANOPY_ASSERT(a_one_input_per_output, $onehot0(out_grant[o]), "two inputs granted one output")
    if (o < NumPorts) begin : gen_lane_vc
      `CANOPY_ASSERT(a_coll_down_lane_only, !(out_busy_now[o] && !out_grant[o][LaneReq]
                                              && tx_vc_d[o] == VcW'(canopy_pkg::VcCollDown)),
                     "an input sent on COLL_DOWN, which only the collective lane may use")
      `CANOPY_ASSERT(a_coll_up_lane_only, !(out_busy_now[o] && !out_grant[o][UpReq]
                                            && tx_vc_d[o] == VcW'(canopy_pkg::VcCollUp) && o != NumPorts),
                     "an input sent on COLL_UP toward a link, which only the up lane may use")
    end
  end
endmodule

`default_nettype wire
