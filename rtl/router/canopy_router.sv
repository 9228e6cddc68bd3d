// canopy_router: one torus router node: the point-to-point subnet and the collective unit.
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
//   - On a link port, a point-to-point head flit carries its route at the receiving router
//     (the header's la_port / la_hi fields, lookahead routing): the router writes them into
//     every such head as it buffers it (canopy_route_lookahead) and routes arriving heads
//     by them. Heads delivered to the host carry 0 there, as hosts send them.
//   - tx_* are driven by the crossbar from registers (the grants and the staged flits): one
//     multiplexer level, so a link should start with a register (canopy_link_pipe Latency
//     >= 1; any PHY does) and the host interface registers what it takes.
//   - Credits start full out of reset: LinkBufDepth per point-to-point VC and on COLL_DOWN,
//     CollBufDepth on COLL_UP, on links (the neighbour's input buffers), EjectCredits per VC
//     toward the host. The host starts with LocalBufDepth credits per VC for injection.
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
// Pipeline (docs/router.md): a flit arriving on rx_* is written into its VC buffer, and in
// the same cycle its input's stage 1 may pick it (each input picks one VC, round robin,
// into its staged register). The next cycle stage 2 (canopy_switch_alloc) gives each output
// to one staged flit (or to a collective lane) round robin; the grants and the granted
// flits are registered, and the cycle after that the crossbar (one-hot AND-OR) puts them on
// tx_*. An uncontended flit thus leaves two cycles after it arrived: one hop costs two
// cycles plus the link's own latency. Credits and VC ownership are kept per output from
// what the grants send (canopy_output_vc_state); every decision reads registers, not RAMs.
//
// The collective unit (canopy_coll_unit) hangs off the crossbar: it is output 2*NumDims+1
// (CollPort) for broadcasts arriving down a tree, broadcast requests reaching their root and
// reduce contributions. On COLL_DOWN it feeds the links from one multicast lane (a packet
// offered to every child of its tree at once, each output taking it at its own pace) and
// the local port from a lane of its own; on COLL_UP every link from its up lane. They
// compete in each output's stage 2 like any input.
`default_nettype none
`include "canopy_assert.svh"

module canopy_router #(
  parameter int unsigned NumDims       = 0,   /// torus dimensions, 1..4; must be set
  parameter int unsigned NumVcs        = 4,   /// VCs per link (2 point-to-point, 2 collective)
  parameter int unsigned FlitWidth     = 64,  /// bits per flit: 64, 128 or 256
  parameter int unsigned LinkBufDepth  = 64,  /// flits per VC buffer on link inputs
  parameter int unsigned CollBufDepth  = 32,  /// flits per COLL_UP buffer on link inputs (COLL_DOWN's: LinkBufDepth)
  parameter int unsigned LocalBufDepth = 32,  /// flits per VC buffer on the injection port
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
  // Plain packed bits in the layout of canopy_pkg::coords_t, so that a top (a simulator's
  // tile, a board) drives them without the package's typedef.
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
  localparam int unsigned LaneReq   = NumPorts;
  localparam int unsigned UpReq     = NumPorts + 1;
  localparam int unsigned ReqW      = $clog2(NumReq);
  localparam int unsigned CollRxDepth = 8;
  // A collective packet's flits at most (64-bit flits: the collective unit's width). The
  // collective unit's link lane sends a packet on COLL_DOWN only with room for all of it
  // at every child (docs/collectives.md), so a link input's COLL_DOWN buffer holds one.
  localparam int unsigned CollPacketFlits = canopy_pkg::MaxPacketWords;

  `CANOPY_STATIC_ASSERT(gen_down_room_check, LinkBufDepth > CollPacketFlits,
                        "a link input's COLL_DOWN buffer (LinkBufDepth) must hold a whole collective packet")

  `CANOPY_STATIC_ASSERT(gen_dims_check, NumDims >= 1 && NumDims <= canopy_pkg::MaxDims,
                        "NumDims must be 1..4")

  // ---------------------------------------------------------------- neighbours
  // Per link port, what the lookahead routes need to know about the neighbour through it
  // (canopy_route_lookahead): its coordinate in the port's dimension, whether going on
  // through it the same way crosses the dateline, and whether leaving here through the
  // port does. Functions of the static coordinates, registered so no path starts there.
  localparam int unsigned CW    = canopy_pkg::CoordBits;
  localparam int unsigned LinkW = CW + 2;
  logic [NumLinks-1:0][LinkW-1:0] link_q;
  always_ff @(posedge clk_i) begin
    for (int unsigned p = 0; p < NumLinks; p++) begin
      logic [CW-1:0] my, last, nbr;
      my   = my_coord_i[p / 2];
      last = CW'(torus_size_i[p / 2] - 1'b1);
      if (p % 2 == 0) begin
        nbr = my == last ? '0 : my + 1'b1;
        link_q[p] <= {my == last, nbr == last, nbr};
      end else begin
        nbr = my == '0 ? last : my - 1'b1;
        link_q[p] <= {my == '0, nbr == '0, nbr};
      end
    end
  end

  // ---------------------------------------------------------------- output VC state
  // What each output sends this cycle (the flit granted last cycle), registered with the
  // grant: credits and VC ownership follow it.
  logic [NumOut-1:0]              sent_valid_q;
  logic [NumOut-1:0][NumVcs-1:0]  sent_oh_q;      // the VC sent, one-hot, zero when nothing is
  logic [NumOut-1:0][NumVcs-1:0]  avail, busy, credit_back, grant_oh;
  logic [NumOut-1:0]              grant_last, down_room;
  logic [NumVcs-1:0]              coll_rx_credit;
  assign credit_back = {coll_rx_credit, tx_credit_i};

  for (genvar o = 0; o < NumOut; o++) begin : gen_out_state
    canopy_output_vc_state #(
      .NumVcs      (NumVcs),
      .Credits     (o == CollPort ? CollRxDepth : o == LocalPort ? EjectCredits : LinkBufDepth),
      .CollCredits (o == CollPort ? CollRxDepth : o == LocalPort ? EjectCredits : CollBufDepth),
      .DownCredits (o == CollPort ? CollRxDepth : o == LocalPort ? EjectCredits : LinkBufDepth),
      .DownRoom    (o < NumLinks ? CollPacketFlits : 0)
    ) u_state (
      .clk_i,
      .rst_i,
      .grant_i      (grant_oh[o]),
      .grant_last_i (grant_last[o]),
      .sent_i       (sent_oh_q[o]),
      .credit_i     (credit_back[o]),
      .ready_o      (avail[o]),
      .busy_o       (busy[o]),
      .down_room_o  (down_room[o])
    );
  end

  // ---------------------------------------------------------------- inputs (stage 1)
  logic [NumPorts-1:0]                 in_hi, in_head, in_last, in_won, in_elig;
  logic [NumPorts-1:0][NumOut-1:0]     in_tgt;
  logic [NumPorts-1:0][$clog2(NumOut)-1:0] in_port;
  logic [NumPorts-1:0][VcW-1:0]        in_vc;
  logic [NumPorts-1:0][FlitWidth-1:0]  in_st_flit;   // data of last cycle's requests
  logic [NumPorts-1:0]                 err_type, err_dst, err_len;

  for (genvar i = 0; i < NumPorts; i++) begin : gen_in
    canopy_router_input #(
      .NumDims   (NumDims),
      .NumVcs    (NumVcs),
      .FlitWidth (FlitWidth),
      .BufDepth  (i == LocalPort ? LocalBufDepth : LinkBufDepth),
      .CollBufDepth (i == LocalPort ? LocalBufDepth : CollBufDepth),
      .DownBufDepth (i == LocalPort ? LocalBufDepth : LinkBufDepth),
      .PortIndex (i)
    ) u_input (
      .clk_i,
      .rst_i,
      .my_coord_i,
      .torus_size_i,
      .link_i         (link_q),
      .rx_valid_i     (rx_valid_i[i]),
      .rx_flit_i      (rx_flit_i[i]),
      .rx_last_i      (rx_last_i[i]),
      .rx_vc_i        (rx_vc_i[i]),
      .credit_o       (rx_credit_o[i]),
      .req_tgt_o      (in_tgt[i]),
      .req_port_o     (in_port[i]),
      .req_vc_o       (in_vc[i]),
      .req_hi_o       (in_hi[i]),
      .req_head_o     (in_head[i]),
      .req_last_o     (in_last[i]),
      .st_flit_o      (in_st_flit[i]),
      .won_i          (in_won[i]),
      .elig_i         (in_elig[i]),
      .err_bad_type_o (err_type[i]),
      .err_bad_dst_o  (err_dst[i]),
      .err_bad_len_o  (err_len[i])
    );
  end

  // ---------------------------------------------------------------- stage 2: allocation
  logic [NumPorts-1:0]                lane_valid, lane_last, lane_grant;
  logic [1:0][FlitWidth-1:0]          lane_flit;     // the link lane's (every link), the local lane's
  logic                               up_valid, up_last, up_grant;
  logic [FlitWidth-1:0]               up_flit;
  logic [PortW-1:0]                   up_port;
  logic [NumOut-1:0]                  up_tgt;
  logic [NumOut-1:0][NumReq-1:0]      grant;
  logic [NumOut-1:0][ReqW-1:0]        grant_idx;

  always_comb begin
    up_tgt = '0;
    for (int unsigned o = 0; o < NumLinks; o++) up_tgt[o] = up_port == PortW'(o);
  end

  canopy_switch_alloc #(.NumDims(NumDims), .NumVcs(NumVcs)) u_alloc (
    .clk_i,
    .rst_i,
    .in_tgt_i     (in_tgt),
    .in_port_i    (in_port),
    .in_hi_i      (in_hi),
    .in_head_i    (in_head),
    .lane_valid_i (lane_valid),
    .up_valid_i   (up_valid),
    .up_tgt_i     (up_tgt),
    .avail_i      (avail),
    .busy_i       (busy),
    .grant_o      (grant),
    .grant_idx_o  (grant_idx),
    .in_elig_o    (in_elig),
    .in_won_o     (in_won),
    .lane_grant_o (lane_grant),
    .up_grant_o   (up_grant)
  );

  // Per output, the VC (one-hot) and framing of the flit granted this cycle: the output
  // state takes them at the end of the cycle.
  canopy_grant_vc #(.NumDims(NumDims), .NumVcs(NumVcs)) u_grant_vc (
    .grant_i      (grant),
    .in_vc_i      (in_vc),
    .in_last_i    (in_last),
    .lane_last_i  (lane_last),
    .up_last_i    (up_last),
    .grant_oh_o   (grant_oh),
    .grant_last_o (grant_last)
  );

  // The grants and per output the VC and framing of the flit it sends next cycle, all
  // registered: the crossbar and the output state run from these. The flits themselves
  // are registered where they are: an input's data RAM reads the requesting flit every
  // cycle (st_flit_o), and the lanes' flits are captured here.
  logic [NumOut-1:0][NumReq-1:0]      grant_q;
  logic [NumOut-1:0]                  sent_last_q;
  logic [1:0][FlitWidth-1:0]          lane_st_q;
  logic [FlitWidth-1:0]               up_st_q;
  logic [PortW-1:0]                   coll_src_q;  // the input the collective port's flit came from

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      grant_q      <= '0;
      sent_valid_q <= '0;
      sent_oh_q    <= '0;
    end else begin
      grant_q   <= grant;
      sent_oh_q <= grant_oh;
      for (int unsigned o = 0; o < NumOut; o++) sent_valid_q[o] <= grant[o] != '0;
    end
  end

  always_ff @(posedge clk_i) begin
    sent_last_q <= grant_last;
    lane_st_q   <= lane_flit;
    up_st_q     <= up_flit;
    coll_src_q  <= PortW'(grant_idx[CollPort]);
  end

  // ---------------------------------------------------------------- crossbar (stage 3)
  // Each output's sources: the inputs' flits, its lane, the up lane.
  logic [NumOut-1:0][NumReq-1:0][FlitWidth-1:0] xbar_src;
  logic [NumOut-1:0][FlitWidth-1:0]             out_flit;
  always_comb begin
    for (int unsigned o = 0; o < NumOut; o++) begin
      for (int unsigned i = 0; i < NumPorts; i++) xbar_src[o][i] = in_st_flit[i];
      xbar_src[o][LaneReq] = '0;
      if (o < NumLinks) xbar_src[o][LaneReq] = lane_st_q[0];
      if (o == LocalPort) xbar_src[o][LaneReq] = lane_st_q[1];
      xbar_src[o][UpReq] = up_st_q;
    end
  end
  for (genvar o = 0; o < NumOut; o++) begin : gen_xbar
    canopy_crossbar #(.NumIn(NumReq), .Width(FlitWidth)) u_xbar (
      .sel_i  (grant_q[o]),
      .data_i (xbar_src[o]),
      .data_o (out_flit[o])
    );
  end

  // The VC and framing on each output come from the output's own registers.
  logic [NumOut-1:0][VcW-1:0] out_vc;
  always_comb begin
    for (int unsigned o = 0; o < NumOut; o++) begin
      out_vc[o] = '0;
      for (int unsigned c = 0; c < NumVcs; c++) if (sent_oh_q[o][c]) out_vc[o] = VcW'(c);
    end
  end

  assign tx_valid_o = sent_valid_q[NumPorts-1:0];
  assign tx_flit_o  = out_flit[NumPorts-1:0];
  assign tx_last_o  = sent_last_q[NumPorts-1:0];
  assign tx_vc_o    = out_vc[NumPorts-1:0];

  // ---------------------------------------------------------------- collective unit
  logic [1:0] err_dir, err_tree;
  logic       err_reduce, reduce_refused;

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
    .rx_valid_i          (sent_valid_q[CollPort]),
    .rx_flit_i           (out_flit[CollPort]),
    .rx_last_i           (sent_last_q[CollPort]),
    .rx_vc_i             (out_vc[CollPort]),
    .rx_port_i           (coll_src_q),
    .rx_credit_o         (coll_rx_credit),
    .lane_valid_o        (lane_valid),
    .lane_flit_o         (lane_flit),
    .lane_last_o         (lane_last),
    .lane_grant_i        (lane_grant),
    .lane_room_i         (down_room[NumLinks-1:0]),
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
    .up_grant_i          (up_grant),
    .err_dir_o           (err_dir),
    .err_tree_o          (err_tree),
    .err_reduce_o        (err_reduce),
    .refused_o           (reduce_refused)
  );
  assign rx_slot_credit_valid_o[LocalPort] = 1'b0;
  assign rx_slot_credit_tree_o[LocalPort]  = '0;
  wire logic unused_local_slot_credit = ^{tx_slot_credit_valid_i[LocalPort], tx_slot_credit_tree_i[LocalPort]};
  wire logic unused_down_room = ^down_room[NumOut-1:NumLinks];   // the local and collective outputs ask none

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

  for (genvar o = 0; o < NumPorts; o++) begin : gen_out_assert
    `CANOPY_ASSERT(a_coll_down_lane_only, !(!grant_q[o][LaneReq] && sent_oh_q[o][canopy_pkg::VcCollDown]),
                   "an input sent on COLL_DOWN, which only the collective lane may use")
    `CANOPY_ASSERT(a_sent_vc, sent_valid_q[o] == (sent_oh_q[o] != '0), "a flit sent on no VC")
    if (o < NumLinks) begin : gen_link
      `CANOPY_ASSERT(a_coll_up_lane_only, !(!grant_q[o][UpReq] && sent_oh_q[o][canopy_pkg::VcCollUp]),
                     "an input sent on COLL_UP toward a link, which only the up lane may use")
    end
  end
endmodule

`default_nettype wire
