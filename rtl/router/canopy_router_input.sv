// canopy_router_input: one router input port: per-VC buffers, packet checks, routes, and
// the first pipeline stage (each input picks one of its VCs and stages that flit).
//
// Interface contract
//   - rx_*: flits arriving from the upstream link (or the host interface on the local port),
//     at most one per cycle, under credit flow control: the sender holds one credit per free
//     slot of each VC buffer, so a flit always finds room (asserted).
//   - credit_o[v]: one credit returned for VC v, registered, the cycle after a flit of VC v
//     leaves its buffer (forwarded or dropped).
//   - link_i[p]: static facts about the neighbour through link port p, for the lookahead
//     routes (see canopy_route_lookahead).
//   - req_*: the staged flit, this input's one request to stage 2: req_tgt_o is its output,
//     one-hot over the NumPorts ports and the collective port (all zero when there is no
//     request), req_port_o the same encoded; req_vc_o the output VC it must leave on,
//     req_hi_o its bit 0; req_head_o / req_last_o its framing (all registers).
//   - st_flit_o: the data of the flit that requested in the previous cycle, read from the
//     input's data RAM (block RAM, registered read): if that request was granted, this is
//     what the crossbar sends now.
//   - won_i: stage 2 granted the request this cycle (the flit leaves). elig_i: the request
//     was sendable this cycle (credit, and for a head a free output VC), whether or not it
//     won. Both come late in the cycle; here they only select next-state values.
//   - err_*_o: one-cycle pulses (registered), one per refused packet, naming the first
//     reason found.
//
// Pipeline. A flit is written into its VC buffer as it arrives. In the same cycle stage 1
// can already pick it (bypass: its VC holds nothing ahead of it), so a flit that meets no
// contention spends one cycle here and one in stage 2. Stage 1 picks among the VCs round
// robin, preferring flits whose output looks free, and stages that flit's control fields;
// the buffer entry stays until stage 2 grants it. While a staged flit is in stage 2, stage
// 1 already considers the flit behind it on the same VC (speculating that the staged one
// wins), so one VC streams a flit per cycle. A staged flit that loses arbitration but is
// still sendable stays staged (round robin serves it within a bounded number of grants);
// one that is not sendable (no credit, output VC held) gives way to a flit of another VC,
// so a blocked VC never holds up the others: the VCs stay independent, which the
// deadlock-freedom argument (docs/router.md) needs.
//
// Routes. On a link input a head's route was computed one hop ahead by the upstream router
// (lookahead: the la_port and la_hi fields of the header); collective VCs always go to the
// collective port. The local (injection) port computes the route itself (canopy_route_dor),
// in a register stage of its own before the buffer (injection costs one more cycle, hops
// do not). Either way, as a head is written into its buffer the route it will take at the
// next router is written into its header (canopy_route_lookahead). Body flits follow their
// head's route.
//
// Checking. The head flit's routing word is checked as it is written (type, destination,
// length field, and a lookahead port that dimension-order routing can take from this
// input: TurnOk). A packet with a bad header is dropped whole at the front of its buffer
// and never granted. Every input cuts through, so a tail that
// disagrees with the length field is counted but the packet has already left: on a link
// only a faulty neighbour can cause that (the link layer's CRC will catch it); on the local
// port the host interface has already refused any packet whose flit count disagrees with
// its length (canopy_inj_ring), so none arrives.
`default_nettype none
`include "canopy_assert.svh"

module canopy_router_input #(
  parameter int unsigned NumDims   = 0,  /// torus dimensions, 1..4; must be set
  parameter int unsigned NumVcs    = 0,  /// VCs per link; must be set
  parameter int unsigned FlitWidth = 0,  /// bits per flit; must be set
  parameter int unsigned BufDepth  = 0,  /// flits per point-to-point VC buffer, power of two; must be set
  parameter int unsigned CollBufDepth = 0, /// flits in the COLL_UP buffer, 4..BufDepth; must be set
  parameter int unsigned DownBufDepth = 0, /// flits in the COLL_DOWN buffer, 4..BufDepth; must be set
  parameter int unsigned PortIndex = 0,  /// this port's number (see canopy_route_dor)
  localparam int unsigned NumPorts = 2 * NumDims + 1,
  localparam int unsigned NumLinks = 2 * NumDims,
  localparam int unsigned NumOut = NumPorts + 1,  // outputs: the ports and the collective port
  localparam int unsigned VcW = $clog2(NumVcs),
  localparam int unsigned LinkW = canopy_pkg::CoordBits + 2
) (
  input  wire logic                                                    clk_i,
  input  wire logic                                                    rst_i,
  input  wire canopy_pkg::coords_t                                     my_coord_i,
  input  wire logic [canopy_pkg::MaxDims-1:0][canopy_pkg::CoordBits:0] torus_size_i,
  input  wire logic [NumLinks-1:0][LinkW-1:0]                          link_i,

  input  wire logic                             rx_valid_i,
  input  wire logic [FlitWidth-1:0]             rx_flit_i,
  input  wire logic                             rx_last_i,
  input  wire logic [VcW-1:0]                   rx_vc_i,
  output logic      [NumVcs-1:0]                credit_o,

  output logic      [NumOut-1:0]                req_tgt_o,
  output logic      [$clog2(NumOut)-1:0]        req_port_o,
  output logic      [VcW-1:0]                   req_vc_o,
  output logic                                  req_hi_o,
  output logic                                  req_head_o,
  output logic                                  req_last_o,
  output logic      [FlitWidth-1:0]             st_flit_o,
  input  wire logic                             won_i,
  input  wire logic                             elig_i,

  output logic                                  err_bad_type_o,
  output logic                                  err_bad_dst_o,
  output logic                                  err_bad_len_o
);
  localparam int unsigned FlitBytes = FlitWidth / 8;
  localparam int unsigned HdrFlits  = (canopy_pkg::HeaderBits + FlitWidth - 1) / FlitWidth;
  localparam int unsigned MaxFlits  = HdrFlits + canopy_pkg::MaxPayloadBytes / FlitBytes;
  localparam int unsigned FlitsW    = $clog2(MaxFlits + 1);
  localparam int unsigned PortW     = $clog2(NumOut);
  localparam int unsigned CollPort  = 2 * NumDims + 1;
  localparam int unsigned BufCntW   = $clog2(BufDepth) + 1;
  localparam bit          IsLink    = PortIndex < NumLinks;
  localparam int unsigned LaPorts   = 1 << canopy_pkg::HdrLaPortBits;

  // The outputs a packet from this input can take (bit o: output o; outputs beyond NumOut
  // never). From the local port, any. From a link of dimension d, dimension-order routing
  // allows only: straight on (the opposite port of d; never back where it came from), a
  // turn into a later dimension, the host, the collective port. Requests outside this set
  // are constant zero, so the allocator and the crossbar lose those pairs (a link output
  // of dimension 0 has two sources, not seven), and a link head whose lookahead names
  // another output is refused as a bad destination rather than left waiting for a grant
  // that cannot come.
  function automatic logic [LaPorts-1:0] turns_allowed(input int unsigned in_port);
    turns_allowed = '0;
    for (int unsigned o = 0; o < NumOut; o++) begin
      if (in_port >= NumLinks || o >= NumLinks) turns_allowed[o] = 1'b1;
      else if (o / 2 == in_port / 2)            turns_allowed[o] = o == (in_port ^ 1);
      else                                       turns_allowed[o] = o / 2 > in_port / 2;
    end
  endfunction
  localparam logic [LaPorts-1:0] TurnOk = turns_allowed(PortIndex);

  `CANOPY_STATIC_ASSERT(gen_vcs_check, NumVcs >= canopy_pkg::MinVcs && (NumVcs & (NumVcs - 1)) == 0,
                        "NumVcs must be a power of two >= canopy_pkg::MinVcs")
  `CANOPY_STATIC_ASSERT(gen_depth_check, CollBufDepth >= 4 && CollBufDepth <= BufDepth
                        && (CollBufDepth & (CollBufDepth - 1)) == 0,
                        "CollBufDepth must be a power of two, 4..BufDepth")
  `CANOPY_STATIC_ASSERT(gen_down_depth_check, DownBufDepth >= 4 && DownBufDepth <= BufDepth
                        && (DownBufDepth & (DownBufDepth - 1)) == 0,
                        "DownBufDepth must be a power of two, 4..BufDepth")
  `CANOPY_STATIC_ASSERT(gen_la_width_check, NumOut <= (1 << canopy_pkg::HdrLaPortBits),
                        "the lookahead port field must name every output")

  // The control fields kept per buffer entry: {bad, head, last, hi, output port}. `hi` is
  // bit 0 of the output VC: each output takes input traffic on two VCs that differ only
  // there (P2P_LO/P2P_HI on the ports, COLL_UP/COLL_DOWN at the collective port), so the
  // port and that bit name the VC. Arrays of entries are flat bit vectors with these field
  // positions (Yosys does not drive struct members of array elements).
  localparam int unsigned CtlPort = 0;
  localparam int unsigned CtlLast = PortW + 1;   // (hi is bit PortW)
  localparam int unsigned CtlHead = PortW + 2;
  localparam int unsigned CtlBad  = PortW + 3;
  localparam int unsigned CtlW    = PortW + 4;
  typedef struct packed {
    logic             bad;
    logic             head;
    logic             last;
    logic             hi;
    logic [PortW-1:0] port;
  } ctl_t;

  // The output VC a (port, hi) pair names.
  function automatic logic [VcW-1:0] vc_of(input logic [PortW-1:0] port, input logic hi);
    vc_of = VcW'(port == PortW'(CollPort) ? canopy_pkg::VcCollUp : canopy_pkg::VcP2pLo) + VcW'(hi);
  endfunction

  // ---------------------------------------------------------------- arrival: the route
  // What is written into the buffers: on a link the arriving flit itself, with the route
  // its header carries; on the local port the arriving flit one cycle later, with the route
  // computed here.
  logic                 a_valid, a_last;
  logic [FlitWidth-1:0] a_flit;
  logic [VcW-1:0]       a_vc;
  logic [PortW-1:0]     a_port;       // a head's output port here
  logic                 a_hi;         // and bit 0 of the VC it leaves on
  logic                 a_port_bad;   // a lookahead port no route from here takes

  /* verilator lint_off UNUSEDSIGNAL */  // the routing fields only
  canopy_pkg::hdr_t rx_hdr, a_hdr;
  /* verilator lint_on UNUSEDSIGNAL */
  assign rx_hdr = canopy_pkg::hdr_t'({{canopy_pkg::WordBits{1'b0}}, rx_flit_i[canopy_pkg::WordBits-1:0]});
  wire logic rx_coll_vc = rx_vc_i == VcW'(canopy_pkg::VcCollUp) || rx_vc_i == VcW'(canopy_pkg::VcCollDown);

  if (IsLink) begin : gen_link_route
    always_comb begin
      a_valid    = rx_valid_i;
      a_flit     = rx_flit_i;
      a_last     = rx_last_i;
      a_vc       = rx_vc_i;
      a_port     = PortW'(rx_hdr.la_port);
      a_hi       = rx_hdr.la_hi;
      a_port_bad = !rx_coll_vc && !TurnOk[rx_hdr.la_port];
      if (rx_coll_vc) begin
        a_port = PortW'(CollPort);
        a_hi   = rx_vc_i[0];              // COLL_UP stays COLL_UP, COLL_DOWN stays COLL_DOWN
      end else if (rx_hdr.la_port == canopy_pkg::HdrLaPortBits'(CollPort)) begin
        a_hi   = 1'b0;                    // a broadcast request at its root: COLL_UP
      end
    end
    wire logic unused_coords = ^{my_coord_i};
  end else begin : gen_local_route
    localparam int unsigned DorPortW = $clog2(NumPorts);
    logic [DorPortW-1:0] dor_port;
    logic [VcW-1:0]      dor_vc;
    logic [PortW-1:0]    port_d;
    logic                hi_d;
    canopy_route_dor #(.NumDims(NumDims), .NumVcs(NumVcs)) u_route (
      .my_coord_i,
      .torus_size_i,
      .dst_i      (rx_hdr.dst),
      .in_port_i  (DorPortW'(PortIndex)),
      .in_vc_i    (rx_vc_i),
      .out_port_o (dor_port),
      .out_vc_o   (dor_vc)
    );
    always_comb begin
      port_d = PortW'(dor_port);
      hi_d   = dor_vc == VcW'(canopy_pkg::VcP2pHi);
      if (rx_coll_vc) begin
        port_d = PortW'(CollPort);
        hi_d   = rx_vc_i[0];
      end else if (rx_hdr.ptype == canopy_pkg::PKT_BCAST_REQ && dor_port == DorPortW'(PortIndex)) begin
        port_d = PortW'(CollPort);
        hi_d   = 1'b0;
      end
    end
    always_ff @(posedge clk_i) begin
      if (rst_i) a_valid <= 1'b0;
      else       a_valid <= rx_valid_i;
    end
    always_ff @(posedge clk_i) begin
      a_flit <= rx_flit_i;
      a_last <= rx_last_i;
      a_vc   <= rx_vc_i;
      a_port <= port_d;
      a_hi   <= hi_d;
    end
    assign a_port_bad = 1'b0;
    wire logic unused_la = ^{rx_hdr.la_port, rx_hdr.la_hi};
  end
  assign a_hdr = canopy_pkg::hdr_t'({{canopy_pkg::WordBits{1'b0}}, a_flit[canopy_pkg::WordBits-1:0]});

  // The route at the next router, written into the head as it is buffered.
  logic [canopy_pkg::HdrLaPortBits-1:0] next_la_port;
  logic                                 next_la_hi;
  canopy_route_lookahead #(.NumDims(NumDims)) u_lookahead (
    .my_coord_i,
    .torus_size_i,
    .link_i,
    .dst_i     (a_hdr.dst),
    .ptype_i   (a_hdr.ptype),
    .port_i    (a_port),
    .hi_i      (a_hi),
    .la_port_o (next_la_port),
    .la_hi_o   (next_la_hi)
  );

  // ---------------------------------------------------------------- arrival: checks, framing
  logic              hdr_bad_type, hdr_bad_dst, hdr_bad_len;
  logic [FlitsW-1:0] hdr_flits;

  // On a link the arriving flit is checked as it is written. The local port checks it in
  // its route stage and registers the verdict with the flit: it is the same flit a cycle
  // later, and the checks then stay off the path from the route stage into stage 1.
  logic [canopy_pkg::WordBits-1:0] chk_word;
  logic [VcW-1:0]                  chk_vc;
  logic                            chk_bad_type, chk_bad_dst, chk_bad_len;
  logic [FlitsW-1:0]               chk_flits;
  assign chk_word = IsLink ? a_flit[canopy_pkg::WordBits-1:0] : rx_flit_i[canopy_pkg::WordBits-1:0];
  assign chk_vc   = IsLink ? a_vc : rx_vc_i;
  canopy_hdr_check #(.NumDims(NumDims), .FlitWidth(FlitWidth), .NumVcs(NumVcs)) u_hdr_check (
    .word0_i      (chk_word),
    .vc_i         (chk_vc),
    .torus_size_i,
    .bad_type_o   (chk_bad_type),
    .bad_dst_o    (chk_bad_dst),
    .bad_len_o    (chk_bad_len),
    .flits_o      (chk_flits)
  );
  if (IsLink) begin : gen_check_now
    always_comb begin
      hdr_bad_type = chk_bad_type;
      hdr_bad_dst  = chk_bad_dst;
      hdr_bad_len  = chk_bad_len;
      hdr_flits    = chk_flits;
    end
  end else begin : gen_check_staged
    always_ff @(posedge clk_i) begin
      hdr_bad_type <= chk_bad_type;
      hdr_bad_dst  <= chk_bad_dst;
      hdr_bad_len  <= chk_bad_len;
      hdr_flits    <= chk_flits;
    end
  end

  // A head refused for any reason (its VC's packet is then dropped whole).
  wire logic hdr_bad = hdr_bad_type || hdr_bad_dst || hdr_bad_len || a_port_bad;

  // Per-VC state of the packet being received.
  logic [NumVcs-1:0]              in_pkt_q;     // between head and tail
  logic [NumVcs-1:0][FlitsW-1:0]  left_q;       // flits its header still calls for
  logic [NumVcs-1:0]              bad_q;        // header refused
  logic [NumVcs-1:0]              decided_q;    // length error already counted
  logic [NumVcs-1:0][PortW-1:0]   cur_port_q;   // the packet's route, for its body flits
  logic [NumVcs-1:0]              cur_hi_q;

  logic              cur_head, cur_bad, cur_decided;
  logic [FlitsW-1:0] cur_left, left_after;
  logic              len_mismatch;
  ctl_t              a_ctl;
  logic [FlitWidth-1:0] a_data;   // the flit as written: a P2P head with its next route

  // The arriving VC's state, selected by comparison rather than by indexing: an index into
  // an array of 6- or 7-bit elements becomes a multiplier in synthesis.
  logic              sel_bad, sel_in_pkt, sel_decided, sel_hi;
  logic [FlitsW-1:0] sel_left;
  logic [PortW-1:0]  sel_port;
  always_comb begin
    sel_bad     = 1'b0;
    sel_in_pkt  = 1'b0;
    sel_decided = 1'b0;
    sel_hi      = 1'b0;
    sel_left    = '0;
    sel_port    = '0;
    for (int unsigned v = 0; v < NumVcs; v++) begin
      if (a_vc == VcW'(v)) begin
        sel_bad     = bad_q[v];
        sel_in_pkt  = in_pkt_q[v];
        sel_decided = decided_q[v];
        sel_hi      = cur_hi_q[v];
        sel_left    = left_q[v];
        sel_port    = cur_port_q[v];
      end
    end
  end

  /* verilator lint_off UNUSEDSIGNAL */  // word 0 only
  canopy_pkg::hdr_t a_hdr_la;   // the arriving header with the next route written in
  /* verilator lint_on UNUSEDSIGNAL */
  always_comb begin
    logic p2p_vc;
    cur_head    = !sel_in_pkt;
    cur_bad     = cur_head ? hdr_bad : sel_bad;
    cur_decided = !cur_head && sel_decided;
    // The flits still due before this one arrived (a head: the whole packet).
    cur_left    = cur_head ? hdr_flits : sel_left;
    left_after  = cur_left == '0 ? '0 : cur_left - 1'b1;
    // The tail must come with the last flit due; a flit beyond that is one too many.
    len_mismatch = !cur_bad && (a_last ? cur_left != FlitsW'(1) : cur_left <= FlitsW'(1));

    a_ctl.bad  = cur_bad;
    a_ctl.head = cur_head;
    a_ctl.last = a_last;
    a_ctl.hi   = cur_head ? a_hi : sel_hi;
    a_ctl.port = cur_head ? a_port : sel_port;

    p2p_vc = a_vc == VcW'(canopy_pkg::VcP2pLo) || a_vc == VcW'(canopy_pkg::VcP2pHi);
    a_hdr_la = a_hdr;
    a_hdr_la.la_port = next_la_port;
    a_hdr_la.la_hi   = next_la_hi;
    a_data = a_flit;
    if (cur_head && p2p_vc) a_data[canopy_pkg::WordBits-1:0] = a_hdr_la[canopy_pkg::WordBits-1:0];
  end

  // The refusal pulses, registered: counting them is off every flit's path.
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      err_bad_type_o <= 1'b0;
      err_bad_dst_o  <= 1'b0;
      err_bad_len_o  <= 1'b0;
    end else begin
      err_bad_type_o <= a_valid && cur_head && hdr_bad_type;
      err_bad_dst_o  <= a_valid && cur_head && !hdr_bad_type && (hdr_bad_dst || a_port_bad);
      err_bad_len_o  <= a_valid && ((cur_head && !hdr_bad_type && !hdr_bad_dst && !a_port_bad && hdr_bad_len)
                                    || (!cur_decided && len_mismatch));
    end
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      in_pkt_q  <= '0;
      decided_q <= '0;
    end else if (a_valid) begin
      in_pkt_q[a_vc]  <= !a_last;
      decided_q[a_vc] <= !a_last && (cur_decided || len_mismatch);
    end
  end

  always_ff @(posedge clk_i) begin
    for (int unsigned v = 0; v < NumVcs; v++) begin
      if (a_valid && a_vc == VcW'(v)) begin
        left_q[v]     <= left_after;
        bad_q[v]      <= cur_bad;
        cur_port_q[v] <= a_ctl.port;
        cur_hi_q[v]   <= a_ctl.hi;
      end
    end
  end

  // ---------------------------------------------------------------- VC buffers
  // Per VC the bookkeeping and control fields (canopy_vc_fifo); the flits themselves in one
  // data RAM per input, VC v owning slots [v*BufDepth, (v+1)*BufDepth). A collective VC
  // holds only CollBufDepth (COLL_UP) or DownBufDepth (COLL_DOWN) of them (docs/router.md,
  // "Buffers"): the collective subnet's own slot credits bound what it has in flight, so
  // COLL_UP's buffer need only cover the credit loop, and its control fields take a quarter
  // of the LUT RAM; COLL_DOWN's holds a whole packet, which the sender's multicast lane
  // waits for (virtual cut-through, docs/collectives.md). Its FIFO's
  // pointers are narrower; here every VC's slot pointers have the point-to-point width, a
  // collective VC's with zeros above its own.
  localparam int unsigned PtrW = $clog2(BufDepth);
  logic [NumVcs-1:0]                 push, pop, stage, rewind, cand_in, none_out;
  logic [NumVcs-1:0][BufCntW-1:0]    buf_count;
  logic [NumVcs-1:0][PtrW-1:0]       spec_ptr;
  logic [NumVcs-1:0][PtrW-1:0]       buf_wr, buf_rd;
  logic [NumVcs-1:0][CtlW-1:0]       buf_head, cand_ctl;

  // ---------------------------------------------------------------- stage 1 and its outcome
  // S, the staged flit, is this input's request in stage 2. Stage 1 picks the next one every
  // cycle, assuming S wins: a VC's candidate is the entry behind everything it has handed
  // out. The cycle after a request, its outcome (registered) settles it: won, the entry is
  // committed (popped, its credit returned); lost, its VC rewinds to it, so it is the
  // candidate again, and the flit of that VC staged behind it meanwhile is squashed (it
  // must not overtake). A flit that could not be sent at all (no credit, output VC held)
  // makes its VC sit out one cycle of stage 1, so a blocked VC never holds up the others:
  // the VCs stay independent, which the deadlock-freedom argument (docs/router.md) needs.
  // Nothing here waits for stage 2 within a cycle: the outcome arrives registered.
  logic                 s_valid_q, s_bad_q, s_head_q, s_last_q, s_hi_q;
  logic [VcW-1:0]       s_vc_q, s_ovc_q;
  logic [PtrW-1:0]      s_ptr_q;
  logic [CtlW-1:0]      s_ctl_q;
  logic [PortW-1:0]     s_port_q;
  logic [NumOut-1:0]    s_tgt_q;       // zero unless S is a request this cycle
  logic                 p_req_q, p_won_q, p_elig_q;
  logic [VcW-1:0]       p_vc_q;
  logic [PtrW-1:0]      p_ptr_q;
  logic [CtlW-1:0]      p_ctl_q;
  logic                 same_q;        // S is from the same VC as the previous request

  // The previous request's outcome.
  wire logic lost    = p_req_q && !p_won_q;
  wire logic squash  = lost && same_q;   // S is the flit behind a flit that lost
  wire logic s_req   = s_valid_q && !s_bad_q && !squash;

  for (genvar v = 0; v < NumVcs; v++) begin : gen_buf
    localparam bit          Coll  = canopy_pkg::vc_is_coll(v);
    localparam int unsigned Depth = v == canopy_pkg::VcCollDown ? DownBufDepth
                                  : Coll ? CollBufDepth : BufDepth;
    localparam int unsigned VPtrW = $clog2(Depth);
    // A collective VC's entries all leave through the collective port on the VC they came
    // in on (hi = bit 0 of v), so it keeps only {bad, head, last}: one column of LUT RAM
    // instead of two, and a constant route into stage 1.
    localparam int unsigned KeepW = Coll ? CtlW - CtlLast : CtlW;
    localparam logic [CtlLast-1:0] CollRoute = {1'(v % 2), PortW'(CollPort)};
    logic [VPtrW:0]   v_count;
    logic [VPtrW-1:0] v_wr, v_rd, v_spec;
    logic [KeepW-1:0] v_cand, v_head;
    assign push[v]        = a_valid && a_vc == VcW'(v);
    assign rewind[v]      = lost && p_vc_q == VcW'(v);
    canopy_vc_fifo #(.CtlW(KeepW), .Depth(Depth)) u_fifo (
      .clk_i,
      .rst_i,
      .push_i            (push[v]),
      .push_ctl_i        (KeepW'(CtlW'(a_ctl) >> (CtlW - KeepW))),
      .stage_i           (stage[v]),
      .rewind_i          (rewind[v]),
      .rewind_ptr_i      (p_ptr_q[VPtrW-1:0]),
      .rewind_ctl_i      (KeepW'(p_ctl_q >> (CtlW - KeepW))),
      .pop_i             (pop[v]),
      .count_o           (v_count),
      .wr_ptr_o          (v_wr),
      .rd_ptr_o          (v_rd),
      .spec_ptr_o        (v_spec),
      .cand_o            (cand_in[v]),
      .cand_ctl_o        (v_cand),
      .head_ctl_o        (v_head),
      .none_out_o        (none_out[v])
    );
    if (Coll) begin : gen_coll_ctl
      assign cand_ctl[v] = {v_cand, CollRoute};
      assign buf_head[v] = {v_head, CollRoute};
      `CANOPY_ASSERT(a_coll_route, !push[v] || {a_ctl.hi, a_ctl.port} == CollRoute,
                     "a collective VC's flit routed elsewhere than the collective port on its own VC")
    end else begin : gen_p2p_ctl
      assign cand_ctl[v] = v_cand;
      assign buf_head[v] = v_head;
    end
    assign buf_count[v] = BufCntW'(v_count);
    assign buf_wr[v]    = PtrW'(v_wr);
    assign buf_rd[v]    = PtrW'(v_rd);
    assign spec_ptr[v]  = PtrW'(v_spec);
  end

  assign req_tgt_o   = s_tgt_q;
  assign req_port_o  = s_port_q;
  assign req_vc_o    = s_ovc_q;
  assign req_hi_o    = s_hi_q;
  assign req_head_o  = s_head_q;
  assign req_last_o  = s_last_q;

  // The data RAM: written as flits arrive; read every cycle at S's slot, so the flit is there
  // the next cycle, when the crossbar takes it if it won. The read address is registers.
  // A flit is written into a free slot and S's slot holds a flit (a_no_collision), so the
  // word a same-cycle write and read of one slot would return is never used: the RAM has
  // no collision logic (CollisionOld = 0) on the path into the crossbar.
  canopy_sdp_ram #(.Width(FlitWidth), .Depth(NumVcs * BufDepth), .CollisionOld(1'b0)) u_data (
    .clk_i,
    .we_i    (a_valid),
    .waddr_i ({a_vc, buf_wr[a_vc]}),
    .wdata_i (a_data),
    .re_i    (1'b1),
    .raddr_i ({s_vc_q, s_ptr_q}),
    .rdata_o (st_flit_o)
  );

  // ---------------------------------------------------------------- drops at the front
  // A packet with a bad header leaves from the front of its buffer, a flit per cycle as it
  // arrives, never staged: handed out and popped at once. Nothing handed out means the
  // candidate is the head entry, so its control fields are the head's: no second read port
  // on the control RAM.
  logic [NumVcs-1:0] drain_q, drain_pop;
  always_comb begin
    for (int unsigned v = 0; v < NumVcs; v++) begin
      drain_pop[v] = cand_in[v] && none_out[v]
                     && (drain_q[v] || (cand_ctl[v][CtlHead] && cand_ctl[v][CtlBad]));
    end
  end
  // The FIFO's head port and count serve its own checks (and its unit test), not this input.
  wire logic unused_head = ^{buf_head, buf_count};

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      drain_q <= '0;
    end else begin
      for (int unsigned v = 0; v < NumVcs; v++) begin
        if (drain_pop[v]) drain_q[v] <= !cand_ctl[v][CtlLast];
      end
    end
  end

  // ---------------------------------------------------------------- stage 1: pick a VC
  // Round robin over the VCs with a candidate; stage 2 checks credits and output-VC
  // ownership exactly. (A one-cycle-old "looks sendable" hint steering this pick was tried
  // and measured worse at saturation: it starves VCs whose hint lags.) An arriving flit
  // that is its VC's candidate may be picked the cycle it arrives (its header checks are
  // too slow to wait for: a bad one is staged marked bad, never requests, and rewinds).
  logic [NumVcs-1:0]           from_rx, cand_ok, pick;
  logic [NumVcs-1:0][CtlW-1:0] cand;
  logic [VcW-1:0]              pick_idx;

  // The arriving flit's control fields as each VC would have them (a_ctl if it is of that
  // VC): from that VC's own packet state, so the bypass does not wait for the arriving
  // VC's state to be selected (a 4-way multiplexer on a_vc, which led stage 1's path).
  logic [NumVcs-1:0][CtlW-1:0] arr_ctl;
  logic [NumVcs-1:0]           arr_body_bad;   // a body flit of a refused packet
  always_comb begin
    for (int unsigned v = 0; v < NumVcs; v++) begin
      // (flat fields: Yosys drives no member of a struct declared in a loop)
      arr_ctl[v][CtlHead]            = !in_pkt_q[v];
      arr_ctl[v][CtlBad]             = in_pkt_q[v] ? bad_q[v]
                                     : hdr_bad;
      arr_ctl[v][CtlLast]            = a_last;
      arr_ctl[v][PortW]              = in_pkt_q[v] ? cur_hi_q[v] : a_hi;
      arr_ctl[v][CtlPort +: PortW]   = in_pkt_q[v] ? cur_port_q[v] : a_port;
      arr_body_bad[v]                = in_pkt_q[v] && bad_q[v];
    end
  end

  always_comb begin
    for (int unsigned v = 0; v < NumVcs; v++) begin
      logic bad, sits_out;
      from_rx[v] = !cand_in[v] && a_valid && a_vc == VcW'(v);
      cand[v]    = cand_in[v] ? cand_ctl[v] : arr_ctl[v];
      bad        = cand_in[v] ? cand[v][CtlBad] : arr_body_bad[v];
      sits_out   = lost && !p_elig_q && p_vc_q == VcW'(v);
      cand_ok[v] = (cand_in[v] || from_rx[v]) && !bad && !drain_q[v] && !sits_out;
    end
  end

  canopy_rr_arbiter #(.NumReq(NumVcs)) u_pick (
    .clk_i,
    .rst_i,
    .req_i       (cand_ok),
    .advance_i   (cand_ok != '0),
    .grant_o     (pick),
    .grant_idx_o (pick_idx)
  );
  assign stage = pick | drain_pop;

  // The picked candidate: control fields and slot by a one-hot AND-OR over the VCs; its
  // output as a one-hot vector, zero unless it is a good flit (decoded per VC before the
  // multiplexer, off the pick's path).
  logic [CtlW-1:0]    p_bits;
  logic [PtrW-1:0]    p_ptr;
  logic [NumOut-1:0]  p_tgt;
  ctl_t               p_ctl;
  wire logic          p_valid = cand_ok != '0;
  always_comb begin
    p_bits = '0;
    p_ptr  = '0;
    p_tgt  = '0;
    for (int unsigned v = 0; v < NumVcs; v++) begin
      logic [NumOut-1:0] tgt;
      for (int unsigned o = 0; o < NumOut; o++) begin
        tgt[o] = TurnOk[o] && cand[v][CtlPort +: PortW] == PortW'(o) && !cand[v][CtlBad];
      end
      p_bits = p_bits | ({CtlW{pick[v]}} & cand[v]);
      p_ptr  = p_ptr | ({PtrW{pick[v]}} & spec_ptr[v]);
      p_tgt  = p_tgt | ({NumOut{pick[v]}} & tgt);
    end
    p_ctl = ctl_t'(p_bits);
  end

  // S takes the pick every cycle. Its request is void if it is from the VC of the flit
  // staged now and that flit will rewind (it does not win: lost, or bad): decided here from
  // the late won_i, into a register. Whether the pick is from S's VC is a one-hot AND
  // (at_s: S's VC, from registers), not a comparison of the encoded pick: the void ends on
  // s_tgt_q's synchronous reset, whose setup is the longest of the flip-flop's inputs.
  logic [NumVcs-1:0] at_s;
  always_comb begin
    for (int unsigned v = 0; v < NumVcs; v++) at_s[v] = s_valid_q && s_vc_q == VcW'(v);
  end
  wire logic same_d = (pick & at_s) != '0;
  wire logic void_d = same_d && !squash && !won_i;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      s_valid_q <= 1'b0;
      s_tgt_q   <= '0;
      p_req_q   <= 1'b0;
      p_won_q   <= 1'b0;
      same_q    <= 1'b0;
    end else begin
      s_valid_q <= p_valid;
      s_tgt_q   <= void_d ? '0 : p_tgt;
      same_q    <= same_d;
      // A bad S counts as a request that lost, so its VC rewinds to it and drops it.
      p_req_q   <= s_valid_q && !squash;
      p_won_q   <= won_i;
    end
  end

  always_ff @(posedge clk_i) begin
    s_bad_q  <= p_ctl.bad;
    s_vc_q   <= pick_idx;
    s_ptr_q  <= p_ptr;
    s_ctl_q  <= p_bits;
    s_ovc_q  <= vc_of(p_ctl.port, p_ctl.hi);
    s_port_q <= p_ctl.port;
    s_hi_q   <= p_ctl.hi;
    s_head_q <= p_ctl.head;
    s_last_q <= p_ctl.last;
    p_vc_q   <= s_vc_q;
    p_ptr_q  <= s_ptr_q;
    p_ctl_q  <= s_ctl_q;
    p_elig_q <= elig_i;
  end

  // ---------------------------------------------------------------- leaving the buffers
  always_comb begin
    for (int unsigned v = 0; v < NumVcs; v++) begin
      pop[v] = drain_pop[v] || (p_req_q && p_won_q && p_vc_q == VcW'(v));
    end
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) credit_o <= '0;
    else       credit_o <= pop;
  end

`ifndef SYNTHESIS
  // The lookahead route a link head arrives with is what this router's own dimension-order
  // routing gives (checked in simulation only: the point of lookahead is not to compute it).
  if (IsLink) begin : gen_la_check
    localparam int unsigned DorPortW = $clog2(NumPorts);
    logic [DorPortW-1:0] dor_port;
    logic [VcW-1:0]      dor_vc;
    canopy_route_dor #(.NumDims(NumDims), .NumVcs(NumVcs)) u_dor_check (
      .my_coord_i,
      .torus_size_i,
      .dst_i      (rx_hdr.dst),
      .in_port_i  (DorPortW'(PortIndex)),
      .in_vc_i    (rx_vc_i),
      .out_port_o (dor_port),
      .out_vc_o   (dor_vc)
    );
    wire logic la_expected = rx_valid_i && cur_head && !rx_coll_vc && !cur_bad;
    wire logic [PortW-1:0] dor_full = (rx_hdr.ptype == canopy_pkg::PKT_BCAST_REQ && dor_port == DorPortW'(NumLinks))
                                      ? PortW'(CollPort) : PortW'(dor_port);
    wire logic unused_dor_vc = dor_vc[VcW-1];
    `CANOPY_ASSERT(a_lookahead, !la_expected || (a_port == dor_full
                                                 && (dor_full == PortW'(CollPort) || a_hi == dor_vc[0])),
                   "a head arrived with a lookahead route its router would not take")
  end
`endif

  for (genvar v = 0; v < NumVcs; v++) begin : gen_checks
    `CANOPY_ASSERT(a_drain_not_picked, !(drain_pop[v] && pick[v]), "a dropped packet's flit was picked")
    `CANOPY_ASSERT(a_commit_head, !(pop[v] && !drain_pop[v]) || p_ptr_q == buf_rd[v],
                   "committed a flit that is not its VC's head")
  end
  `CANOPY_ASSERT(a_arrival_ctl, !a_valid || arr_ctl[a_vc] == CtlW'(a_ctl),
                 "the arriving flit's per-VC control fields differ from its VC's")
  `CANOPY_ASSERT(a_no_collision, !(s_req && a_valid && a_vc == s_vc_q && buf_wr[a_vc] == s_ptr_q),
                 "a flit was written into the slot of the staged request")
  `CANOPY_ASSERT(a_won_requested, !won_i || s_tgt_q != '0, "won without a request")
  `CANOPY_ASSERT(a_won_eligible, !won_i || elig_i, "won while not eligible")
  `CANOPY_ASSERT(a_tgt_request, (s_tgt_q != '0) == s_req, "request vector disagrees with the staged flit")
endmodule

`default_nettype wire
