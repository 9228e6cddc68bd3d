// canopy_router_input: one router input port: per-VC buffers, packet checks, route lookup.
//
// Interface contract
//   - rx_*: flits arriving from the upstream link (or the host on the local port), at most
//     one per cycle, under credit flow control: the sender holds one credit per free slot of
//     each VC buffer, so a flit always finds room (asserted).
//   - credit_o[v]: one credit returned for VC v, registered, the cycle after a flit of VC v
//     leaves its buffer (forwarded or dropped). Several VCs may return a credit at once.
//   - req_*[v]: the flit at the front of VC v's buffer, offered to the switch allocator
//     with its output port and output VC. req_head_o marks a head flit, which needs a free
//     output VC; body flits follow on the VC their head was granted.
//   - grant_i[v]: the allocator took the offered flit of VC v this cycle.
//   - err_*_o: one-cycle pulses, one per refused packet, naming the first reason found.
//
// Checking. The head flit's routing word is checked as it arrives (type, destination,
// length field), and its route is computed then and stored beside it, which keeps route
// computation off the allocation path. A packet with a bad header is dropped whole at the
// front of the buffer and never offered to the allocator. The tail is checked against the
// length field. With StoreAndForward set (the local, injection port: the edge where
// untrusted host input enters the fabric) a packet is offered only once its fate is known,
// so a packet whose tail disagrees with its length is dropped too and no byte of it
// reaches the fabric. Link ports cut through (hop latency over buffering); a length error
// there is counted but the packet has already left, which only a faulty neighbour can
// cause, and which the link-level CRC the roadmap adds will catch.
`default_nettype none
`include "canopy_assert.svh"

module canopy_router_input #(
  parameter int unsigned NumDims         = 0,  /// torus dimensions, 1..4; must be set
  parameter int unsigned NumVcs          = 0,  /// VCs per link; must be set
  parameter int unsigned FlitWidth       = 0,  /// bits per flit; must be set
  parameter int unsigned BufDepth        = 0,  /// flits per VC buffer, power of two; must be set
  parameter int unsigned PortIndex       = 0,  /// this port's number (see canopy_route_dor)
  parameter bit          StoreAndForward = 1'b0, /// hold each packet until its tail is checked
  localparam int unsigned NumPorts = 2 * NumDims + 1,
  localparam int unsigned PortW = $clog2(NumPorts + 1),  // outputs: the ports and the collective port
  localparam int unsigned VcW = $clog2(NumVcs)
) (
  input  wire logic                                                    clk_i,
  input  wire logic                                                    rst_i,
  input  wire canopy_pkg::coords_t                                     my_coord_i,
  input  wire logic [canopy_pkg::MaxDims-1:0][canopy_pkg::CoordBits:0] torus_size_i,

  input  wire logic                             rx_valid_i,
  input  wire logic [FlitWidth-1:0]             rx_flit_i,
  input  wire logic                             rx_last_i,
  input  wire logic [VcW-1:0]                   rx_vc_i,
  output logic      [NumVcs-1:0]                credit_o,

  output logic      [NumVcs-1:0]                req_valid_o,
  output logic      [NumVcs-1:0]                req_head_o,
  output logic      [NumVcs-1:0][PortW-1:0]     req_port_o,
  output logic      [NumVcs-1:0][VcW-1:0]       req_vc_o,
  output logic      [NumVcs-1:0][FlitWidth-1:0] req_flit_o,
  output logic      [NumVcs-1:0]                req_last_o,
  input  wire logic [NumVcs-1:0]                grant_i,

  output logic                                  err_bad_type_o,
  output logic                                  err_bad_dst_o,
  output logic                                  err_bad_len_o
);
  localparam int unsigned FlitBytes = FlitWidth / 8;
  localparam int unsigned HdrFlits  = (canopy_pkg::HeaderBits + FlitWidth - 1) / FlitWidth;
  localparam int unsigned MaxFlits  = HdrFlits + canopy_pkg::MaxPayloadBytes / FlitBytes;
  localparam int unsigned FlitsW    = $clog2(MaxFlits + 1);
  localparam int unsigned CountW    = FlitsW + 1;  // saturates above any legal packet

  `CANOPY_STATIC_ASSERT(gen_vcs_check, NumVcs >= canopy_pkg::MinVcs && (NumVcs & (NumVcs - 1)) == 0,
                        "NumVcs must be a power of two >= canopy_pkg::MinVcs")
  `CANOPY_STATIC_ASSERT(gen_saf_depth_check, !StoreAndForward || BufDepth >= MaxFlits,
                        "a store-and-forward buffer must hold the longest packet")

  // One buffer entry: the flit, its framing, and for a head its check verdict and route.
  typedef struct packed {
    logic                 head;
    logic                 last;
    logic                 bad;
    logic [PortW-1:0]     port;
    logic [VcW-1:0]       vc;
    logic [FlitWidth-1:0] flit;
  } entry_t;

  // ---------------------------------------------------------------- write side
  logic              hdr_bad_type, hdr_bad_dst, hdr_bad_len;
  logic [FlitsW-1:0] hdr_flits;
  logic [PortW-1:0]  route_port, dor_port;
  logic [VcW-1:0]    route_vc, dor_vc;

  canopy_hdr_check #(.NumDims(NumDims), .FlitWidth(FlitWidth), .NumVcs(NumVcs)) u_hdr_check (
    .word0_i      (rx_flit_i[canopy_pkg::WordBits-1:0]),
    .vc_i         (rx_vc_i),
    .torus_size_i,
    .bad_type_o   (hdr_bad_type),
    .bad_dst_o    (hdr_bad_dst),
    .bad_len_o    (hdr_bad_len),
    .flits_o      (hdr_flits)
  );

  /* verilator lint_off UNUSEDSIGNAL */  // only the destination and type matter for the route
  canopy_pkg::hdr_t rx_hdr;
  /* verilator lint_on UNUSEDSIGNAL */
  assign rx_hdr = canopy_pkg::hdr_t'({{canopy_pkg::WordBits{1'b0}}, rx_flit_i[canopy_pkg::WordBits-1:0]});

  canopy_route_dor #(.NumDims(NumDims), .NumVcs(NumVcs)) u_route (
    .my_coord_i,
    .torus_size_i,
    .dst_i      (rx_hdr.dst),
    .in_port_i  (PortW'(PortIndex)),
    .in_vc_i    (rx_vc_i),
    .out_port_o (dor_port),
    .out_vc_o   (dor_vc)
  );

  // The collective port (CollPort, one past the local port) takes broadcasts coming down
  // a tree, reduce contributions going up, and broadcast requests that have reached their
  // root.
  localparam logic [PortW-1:0] LocalPort = PortW'(2 * NumDims);
  localparam logic [PortW-1:0] CollPort  = PortW'(2 * NumDims + 1);
  always_comb begin
    route_port = dor_port;
    route_vc   = dor_vc;
    if (rx_vc_i == VcW'(canopy_pkg::VcCollDown) || rx_vc_i == VcW'(canopy_pkg::VcCollUp)) begin
      route_port = CollPort;
      route_vc   = rx_vc_i;
    end else if (rx_hdr.ptype == canopy_pkg::PKT_BCAST_REQ && dor_port == LocalPort) begin
      route_port = CollPort;
      route_vc   = VcW'(canopy_pkg::VcCollUp);
    end
  end

  // Per-VC framing state of the packet being received.
  logic [NumVcs-1:0]              in_pkt_q;     // between head and tail
  logic [NumVcs-1:0][CountW-1:0]  count_q;      // flits received so far, saturating
  logic [NumVcs-1:0][FlitsW-1:0]  expect_q;     // flits the header promised
  logic [NumVcs-1:0]              bad_q;        // header refused
  logic [NumVcs-1:0]              decided_q;    // verdict already given (store-and-forward)

  logic [NumVcs-1:0] buf_push, buf_ready, status_push, status_bad;
  entry_t            rx_entry;

  // The packet on the arriving VC, seen with this flit included.
  logic              cur_head, cur_bad, cur_decided;
  logic [CountW-1:0] cur_count;
  logic [FlitsW-1:0] cur_expect;
  logic              too_long, len_mismatch;

  // The arriving VC's framing state, selected by comparison rather than by indexing: an
  // index into an array of 6- or 7-bit elements becomes a multiplier in synthesis.
  logic              sel_bad;
  logic [CountW-1:0] sel_count;
  logic [FlitsW-1:0] sel_expect;
  always_comb begin
    sel_bad    = 1'b0;
    sel_count  = '0;
    sel_expect = '0;
    for (int unsigned v = 0; v < NumVcs; v++) begin
      if (rx_vc_i == VcW'(v)) begin
        sel_bad    = bad_q[v];
        sel_count  = count_q[v];
        sel_expect = expect_q[v];
      end
    end
  end

  always_comb begin
    cur_head    = !in_pkt_q[rx_vc_i];
    cur_bad     = cur_head ? (hdr_bad_type || hdr_bad_dst || hdr_bad_len) : sel_bad;
    cur_expect  = cur_head ? hdr_flits : sel_expect;
    cur_count   = cur_head ? CountW'(1) : (&sel_count) ? sel_count : sel_count + 1'b1;
    cur_decided = !cur_head && decided_q[rx_vc_i];
    too_long     = !cur_bad && cur_count > {1'b0, cur_expect};
    len_mismatch = !cur_bad && (too_long || (rx_last_i && cur_count != {1'b0, cur_expect}));

    rx_entry.head = cur_head;
    rx_entry.last = rx_last_i;
    rx_entry.bad  = cur_head && cur_bad;
    rx_entry.port = route_port;
    rx_entry.vc   = route_vc;
    rx_entry.flit = rx_flit_i;
    buf_push = '0;
    buf_push[rx_vc_i] = rx_valid_i;

    // A verdict is given once per packet, as soon as it is known: at a bad head, when the
    // packet outgrows its length, or at the tail.
    status_push = '0;
    status_bad  = '0;
    if (rx_valid_i && !cur_decided && (cur_bad || len_mismatch || rx_last_i)) begin
      status_push[rx_vc_i] = 1'b1;
      status_bad[rx_vc_i]  = cur_bad || len_mismatch;
    end

    err_bad_type_o = rx_valid_i && cur_head && hdr_bad_type;
    err_bad_dst_o  = rx_valid_i && cur_head && !hdr_bad_type && hdr_bad_dst;
    err_bad_len_o  = rx_valid_i && ((cur_head && !hdr_bad_type && !hdr_bad_dst && hdr_bad_len)
                                    || (!cur_decided && len_mismatch));
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      in_pkt_q  <= '0;
      decided_q <= '0;
    end else if (rx_valid_i) begin
      in_pkt_q[rx_vc_i]  <= !rx_last_i;
      decided_q[rx_vc_i] <= !rx_last_i && (cur_decided || status_push[rx_vc_i]);
    end
  end

  always_ff @(posedge clk_i) begin
    for (int unsigned v = 0; v < NumVcs; v++) begin
      if (rx_valid_i && rx_vc_i == VcW'(v)) begin
        count_q[v]  <= cur_count;
        expect_q[v] <= cur_expect;
        bad_q[v]    <= cur_bad;
      end
    end
  end

  // ---------------------------------------------------------------- buffers, read side
  logic [NumVcs-1:0] pop, active_q, drain_q;

  for (genvar v = 0; v < NumVcs; v++) begin : gen_vc
    entry_t front;
    logic   front_valid;
    logic   verdict_known, verdict_bad, at_head, drop_head;

    canopy_fifo #(.Width($bits(rx_entry)), .Depth(BufDepth)) u_buf (
      .clk_i,
      .rst_i,
      .in_valid_i  (buf_push[v]),
      .in_ready_o  (buf_ready[v]),
      .in_data_i   (rx_entry),
      .out_valid_o (front_valid),
      .out_ready_i (pop[v]),
      .out_data_o  (front),
      .count_o     (unused_count)
    );
    wire logic [$clog2(BufDepth):0] unused_count;

    if (StoreAndForward) begin : gen_saf
      // Verdicts in packet order; the front packet may leave once its verdict is in.
      logic status_valid, status_front_bad, status_pop;
      wire logic unused_ready;
      wire logic [$clog2(BufDepth):0] unused_status_count;
      wire logic unused_entry_bad = front.bad;  // the verdict covers the header too
      canopy_fifo #(.Width(1), .Depth(BufDepth)) u_status (
        .clk_i,
        .rst_i,
        .in_valid_i  (status_push[v]),
        .in_ready_o  (unused_ready),
        .in_data_i   (status_bad[v]),
        .out_valid_o (status_valid),
        .out_ready_i (status_pop),
        .out_data_o  (status_front_bad),
        .count_o     (unused_status_count)
      );
      assign status_pop    = at_head && status_valid && (drop_head || grant_i[v]);
      assign verdict_known = status_valid;
      assign verdict_bad   = status_front_bad;
    end else begin : gen_cut_through
      wire logic unused_status = ^{status_push[v], status_bad[v]};  // verdicts not kept
      assign verdict_known    = 1'b1;
      assign verdict_bad      = front.bad;
    end

    assign at_head    = front_valid && !active_q[v] && !drain_q[v];
    assign drop_head  = at_head && verdict_known && verdict_bad;

    assign req_valid_o[v] = front_valid && !drain_q[v] && (active_q[v] || (verdict_known && !verdict_bad));
    assign req_head_o[v]  = !active_q[v];
    assign req_flit_o[v]  = front.flit;
    assign req_last_o[v]  = front.last;
    assign pop[v]         = drop_head || (drain_q[v] && front_valid) || grant_i[v];

    always_ff @(posedge clk_i) begin
      if (rst_i) begin
        active_q[v] <= 1'b0;
        drain_q[v]  <= 1'b0;
      end else if (pop[v]) begin
        active_q[v] <= grant_i[v] && !front.last;
        drain_q[v]  <= (drop_head || drain_q[v]) && !front.last;
      end
    end

    // The route is decided at the head and held for the rest of the packet.
    logic [PortW-1:0] held_port_q;
    logic [VcW-1:0]   held_vc_q;
    always_ff @(posedge clk_i) begin
      if (grant_i[v] && !active_q[v]) begin
        held_port_q <= front.port;
        held_vc_q   <= front.vc;
      end
    end
    assign req_port_o[v] = active_q[v] ? held_port_q : front.port;
    assign req_vc_o[v]   = active_q[v] ? held_vc_q : front.vc;

    `CANOPY_ASSERT(a_credit_overflow, !(buf_push[v] && !buf_ready[v]),
                   "flit arrived without a credit: VC buffer full")
    `CANOPY_ASSERT(a_grant_offered, !grant_i[v] || req_valid_o[v], "grant for a flit not offered")
    `CANOPY_ASSERT(a_framing, !(front_valid && !drain_q[v]) || (front.head == !active_q[v]),
                   "buffer front out of packet framing")
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) credit_o <= '0;
    else       credit_o <= pop;
  end
endmodule

`default_nettype wire
