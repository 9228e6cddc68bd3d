// canopy_coll_unit: the router's collective unit: the broadcast offload unit of seed 000
// on the collective subnet of seed 002.
//
// Interface contract
//   - rx_*: the router's collective port (an output of its crossbar): broadcast requests
//     arrive on VC COLL_UP (sent point-to-point to this node as the tree's root), downward
//     broadcasts on VC COLL_DOWN; rx_port_i names the router input each flit came from.
//     rx_credit_o[v]: one flit of VC v left its receive queue (RxDepth flits per VC).
//   - lane_*[l]: one send lane per router output l (links 0..2n-1, local port 2n), each a
//     valid/ready source of whole packets on VC COLL_DOWN; lane_grant_i[l] takes the
//     offered flit (the router grants only when the output has a credit for COLL_DOWN).
//   - slot credits, per link port p: slot_credit_valid_o[p] / slot_credit_tree_o[p]: a
//     working-memory slot of that tree, filled by a broadcast that came in through p,
//     is free again (sent to the neighbour on p, our parent in that tree).
//     slot_credit_*_i[p]: the same from the child on p. A lane sends a packet of tree t
//     to a child only while it holds one of the child's SlotsPerTree credits for t.
//   - tbl_*: the routing table's write port (see canopy_coll_table) and read-back port.
//   - up_*: the reduce engine's contributions for the parent (valid/ready whole packets
//     on VC COLL_UP through router output up_port_o; up_grant_i takes a flit).
//   - err_dir_o, err_tree_o: pulses per dropped packet, [0] from the broadcast path, [1]
//     from the reduce engine (see below and canopy_reduce_engine); err_reduce_o: a reduce
//     contribution refused or disagreeing.
//
// COLL_UP also carries reduce contributions (hop by hop, from children and the host): a
// REDUCE packet at the head of that queue goes to the reduce engine (canopy_reduce_engine),
// whose contributions for the parent leave through the up lane and whose results (at a
// root) enter the mover as a third stream, to be broadcast down the tree like a request.
//
// Data path (000): receive queues (one per VC) -> a mover that writes each packet into a
// slot of the working memory -> per slot, one pending bit per output that must send it
// (the descriptors) -> send lanes, which pick slots tree by tree in arrival order and read
// the memory through one shared read port (lanes wanting the same word share a read) ->
// the slot is released once every lane has sent it, and its credit goes back upstream.
// Each tree owns SlotsPerTree slots. A broadcast from a link found its slot reserved by
// the credit its sender held, so it never waits in the receive queue; a request at the
// root waits there until its tree has a free slot (backpressure up to the host). A child
// that does not take its copies holds its tree's slots and stops only that tree, and only
// after SlotsPerTree packets. Lanes start a packet as soon as its header is decided
// (cut-through): word i is read once the mover has written it.
//
// Checks (002), dropping the packet whole and pulsing an error:
//   err_tree_o: tree id not implemented or its entry invalid; group id >= MaxGroups.
//   err_dir_o:  a broadcast (COLL_DOWN) not from the parent's port, or at the root; a
//               broadcast request at a node that is not the tree's root.
`default_nettype none
`include "canopy_assert.svh"

module canopy_coll_unit #(
  parameter int unsigned NumDims      = 0,   /// torus dimensions, 1..4; must be set
  parameter int unsigned NumVcs       = 4,   /// VCs of the router
  parameter int unsigned FlitWidth    = 64,  /// must be 64: the memory holds header words
  parameter int unsigned NumTrees     = 16,  /// routing table entries
  parameter int unsigned SlotsPerTree = 2,   /// working-memory packets per tree, power of two
  parameter int unsigned RxDepth      = 8,   /// receive queue flits per VC, power of two
  localparam int unsigned NumLinks = 2 * NumDims,
  localparam int unsigned NumLanes = NumLinks + 1,
  localparam int unsigned PortW = $clog2(NumLanes + 1),
  localparam int unsigned VcW = $clog2(NumVcs),
  localparam int unsigned TreeIdW = canopy_pkg::HdrTreeBits
) (
  input  wire logic                                  clk_i,
  input  wire logic                                  rst_i,
  input  wire canopy_pkg::coords_t                   my_coord_i,

  input  wire logic                                  rx_valid_i,
  input  wire logic [FlitWidth-1:0]                  rx_flit_i,
  input  wire logic                                  rx_last_i,
  input  wire logic [VcW-1:0]                        rx_vc_i,
  input  wire logic [PortW-1:0]                      rx_port_i,
  output logic      [NumVcs-1:0]                     rx_credit_o,

  output logic      [NumLanes-1:0]                   lane_valid_o,
  output logic      [NumLanes-1:0][FlitWidth-1:0]    lane_flit_o,
  output logic      [NumLanes-1:0]                   lane_last_o,
  input  wire logic [NumLanes-1:0]                   lane_grant_i,

  output logic      [NumLinks-1:0]                   slot_credit_valid_o,
  output logic      [NumLinks-1:0][TreeIdW-1:0]      slot_credit_tree_o,
  input  wire logic [NumLinks-1:0]                   slot_credit_valid_i,
  input  wire logic [NumLinks-1:0][TreeIdW-1:0]      slot_credit_tree_i,

  input  wire logic                                  tbl_we_i,
  input  wire logic [TreeIdW-1:0]                    tbl_widx_i,
  input  wire canopy_pkg::tree_entry_t               tbl_wentry_i,
  output logic                                       tbl_wok_o,
  input  wire logic [TreeIdW-1:0]                    tbl_ridx_i,
  output canopy_pkg::tree_entry_t                    tbl_rentry_o,

  output logic                                       up_valid_o,
  output logic      [FlitWidth-1:0]                  up_flit_o,
  output logic                                       up_last_o,
  output logic      [PortW-1:0]                      up_port_o,
  input  wire logic                                  up_grant_i,

  output logic      [1:0]                            err_dir_o,
  output logic      [1:0]                            err_tree_o,
  output logic                                       err_reduce_o
);
  localparam int unsigned LocalLane = NumLinks;
  localparam int unsigned SlotWords = canopy_pkg::HeaderBits / 64 + canopy_pkg::MaxPayloadBytes / 8;
  localparam int unsigned IdxW      = $clog2(SlotWords + 1);
  localparam int unsigned NumSlots  = NumTrees * SlotsPerTree;
  localparam int unsigned SlotW     = NumSlots > 1 ? $clog2(NumSlots) : 1;
  localparam int unsigned PtrW      = SlotsPerTree > 1 ? $clog2(SlotsPerTree) : 1;
  localparam int unsigned CntW      = $clog2(SlotsPerTree + 1);
  localparam int unsigned TreeW     = NumTrees > 1 ? $clog2(NumTrees) : 1;
  localparam int unsigned AddrW     = $clog2(NumSlots * SlotWords);
  localparam int unsigned NumStreams = 3;  // 0: requests (COLL_UP), 1: broadcasts (COLL_DOWN),
                                           // 2: reduce results (from the reduce engine, at a root)
  localparam int unsigned SkidDepth = 4;

  `CANOPY_STATIC_ASSERT(gen_width_check, FlitWidth == 64, "the collective unit needs 64-bit flits")
  `CANOPY_STATIC_ASSERT(gen_slots_check, SlotsPerTree >= 1 && (SlotsPerTree & (SlotsPerTree - 1)) == 0,
                        "SlotsPerTree must be a power of two")

  function automatic logic [SlotW-1:0] slot_of(input logic [TreeW-1:0] t, input logic [PtrW-1:0] p);
    slot_of = SlotW'(t) * SlotW'(SlotsPerTree) + SlotW'(p);
  endfunction

  function automatic logic [PtrW-1:0] ptr_next(input logic [PtrW-1:0] p);
    ptr_next = (p == PtrW'(SlotsPerTree - 1)) ? '0 : p + 1'b1;
  endfunction

  // ---------------------------------------------------------------- routing table
  logic [TreeIdW-1:0]      look_idx;
  /* verilator lint_off UNUSEDSIGNAL */  // reserved bits
  canopy_pkg::tree_entry_t look;
  /* verilator lint_on UNUSEDSIGNAL */

  canopy_coll_table #(.NumDims(NumDims), .NumTrees(NumTrees)) u_table (
    .clk_i,
    .rst_i,
    .we_i     (tbl_we_i),
    .widx_i   (tbl_widx_i),
    .wentry_i (tbl_wentry_i),
    .wok_o    (tbl_wok_o),
    .ridx_i   (tbl_ridx_i),
    .rentry_o (tbl_rentry_o),
    .lidx_i   (look_idx),
    .lentry_o (look),
    .l2idx_i  (eng_look_idx),
    .l2entry_o(eng_look)
  );

  // ---------------------------------------------------------------- receive queues
  // Entries are {port, last, flit}; fronts are kept as flat arrays (Yosys takes no arrays
  // of structs on ports).
  localparam int unsigned RxEntryW = PortW + 1 + FlitWidth;
  logic [1:0][FlitWidth-1:0] q_flit;
  logic [1:0]                q_last, q_valid, q_pop;
  logic [1:0][PortW-1:0]     q_port;

  for (genvar s = 0; s < 2; s++) begin : gen_rxq
    localparam int unsigned Vc = s == 0 ? canopy_pkg::VcCollUp : canopy_pkg::VcCollDown;
    wire logic unused_ready;
    wire logic [$clog2(RxDepth):0] unused_count;
    logic [RxEntryW-1:0] q_out;
    canopy_fifo #(.Width(RxEntryW), .Depth(RxDepth)) u_q (
      .clk_i,
      .rst_i,
      .in_valid_i  (rx_valid_i && rx_vc_i == VcW'(Vc)),
      .in_ready_o  (unused_ready),
      .in_data_i   ({rx_port_i, rx_last_i, rx_flit_i}),
      .out_valid_o (q_valid[s]),
      .out_ready_i (q_pop[s]),
      .out_data_o  (q_out),
      .count_o     (unused_count)
    );
    assign q_flit[s] = q_out[FlitWidth-1:0];
    assign q_last[s] = q_out[FlitWidth];
    assign q_port[s] = q_out[FlitWidth+1 +: PortW];
    `CANOPY_ASSERT(a_rx_credit, !(rx_valid_i && rx_vc_i == VcW'(Vc)) || unused_ready,
                   "collective flit arrived without a credit")
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      rx_credit_o <= '0;
    end else begin
      rx_credit_o <= '0;
      rx_credit_o[canopy_pkg::VcCollUp]   <= q_pop[0];
      rx_credit_o[canopy_pkg::VcCollDown] <= q_pop[1];
    end
  end

  // ---------------------------------------------------------------- reduce engine
  // The COLL_UP queue carries requests (for the mover) and reduce contributions (for the
  // engine), whole packets each: a REDUCE head hands its packet to the engine.
  logic eng_own_q;                        // the queue's current packet belongs to the engine
  /* verilator lint_off UNUSEDSIGNAL */
  canopy_pkg::hdr_t q0_hdr;
  /* verilator lint_on UNUSEDSIGNAL */
  assign q0_hdr = canopy_pkg::hdr_t'({q_flit[0], q_flit[0]});
  logic q0_at_head;                       // set below: no packet of queue 0 in progress
  wire logic to_engine = eng_own_q || (q0_at_head && q0_hdr.ptype == canopy_pkg::PKT_REDUCE);

  logic                 eng_in_ready, eng_out_valid, eng_out_last, eng_out_result, eng_out_ready;
  logic                 eng_err_dir, eng_err_tree;
  logic [FlitWidth-1:0] eng_out_flit;
  logic [PortW-1:0]     eng_out_port;
  logic [TreeIdW-1:0]   eng_look_idx;
  canopy_pkg::tree_entry_t eng_look;

  canopy_reduce_engine #(.NumDims(NumDims), .NumTrees(NumTrees)) u_reduce (
    .clk_i,
    .rst_i,
    .my_coord_i,
    .in_valid_i   (q_valid[0] && to_engine),
    .in_flit_i    (q_flit[0]),
    .in_last_i    (q_last[0]),
    .in_port_i    (q_port[0]),
    .in_ready_o   (eng_in_ready),
    .look_idx_o   (eng_look_idx),
    .look_i       (eng_look),
    .out_valid_o  (eng_out_valid),
    .out_flit_o   (eng_out_flit),
    .out_last_o   (eng_out_last),
    .out_port_o   (eng_out_port),
    .out_result_o (eng_out_result),
    .out_ready_i  (eng_out_ready),
    .err_reduce_o,
    .err_dir_o    (eng_err_dir),
    .err_tree_o   (eng_err_tree)
  );
  wire logic eng_take = q_valid[0] && to_engine && eng_in_ready;

  always_ff @(posedge clk_i) begin
    if (rst_i)         eng_own_q <= 1'b0;
    else if (eng_take) eng_own_q <= !q_last[0];
  end

  // Contributions for the parent leave through the up lane; results enter the mover.
  assign up_valid_o    = eng_out_valid && !eng_out_result;
  assign up_flit_o     = eng_out_flit;
  assign up_last_o     = eng_out_last;
  assign up_port_o     = eng_out_port;

  // ---------------------------------------------------------------- mover streams
  logic [NumStreams-1:0][FlitWidth-1:0] front_flit;
  logic [NumStreams-1:0]                front_last;
  logic [NumStreams-1:0][PortW-1:0]     front_port;
  logic [NumStreams-1:0]                front_valid, front_pop;
  logic [NumStreams-1:0][TreeW-1:0]     front_tree;

  assign front_flit  = {eng_out_flit, q_flit[1], q_flit[0]};
  assign front_last  = {eng_out_last, q_last[1], q_last[0]};
  assign front_port  = {PortW'(LocalLane), q_port[1], q_port[0]};
  assign front_valid = {eng_out_valid && eng_out_result, q_valid[1], q_valid[0] && !to_engine};
  for (genvar s = 0; s < NumStreams; s++) begin : gen_front
    /* verilator lint_off UNUSEDSIGNAL */  // the tree field only
    canopy_pkg::hdr_t f_hdr;
    /* verilator lint_on UNUSEDSIGNAL */
    assign f_hdr         = canopy_pkg::hdr_t'({front_flit[s], front_flit[s]});
    assign front_tree[s] = TreeW'(f_hdr.tree);
  end
  assign q_pop[0]      = front_pop[0] || eng_take;
  assign q_pop[1]      = front_pop[1];
  assign eng_out_ready = eng_out_result ? front_pop[2] : up_grant_i;

  // ---------------------------------------------------------------- slot state
  logic [NumSlots-1:0]                used_q, decided_q, complete_q, credit_back_q;
  logic [NumSlots-1:0][IdxW-1:0]      words_q;
  logic [NumSlots-1:0][NumLanes-1:0]  todo_q, sending_q;
  logic [NumSlots-1:0][PortW-1:0]     inport_q;
  logic [NumTrees-1:0][PtrW-1:0]      alloc_ptr_q, free_ptr_q;
  logic [NumTrees-1:0][CntW-1:0]      count_q;

  // ---------------------------------------------------------------- mover
  // Per stream: the packet being written (or dropped).
  logic [NumStreams-1:0]               busy_q, drop_q;
  logic [NumStreams-1:0][SlotW-1:0]    mslot_q;
  logic [NumStreams-1:0][IdxW-1:0]     midx_q;
  logic [NumStreams-1:0][TreeIdW-1:0]  mtree_q;
  logic [1:0]                          prio_q;    // stream preferred when several can move

  logic [NumStreams-1:0] can_move;
  logic [NumStreams-1:0][TreeW-1:0] ftree;

  always_comb begin
    for (int unsigned s = 0; s < NumStreams; s++) begin
      logic slot_free;
      ftree[s] = front_tree[s];
      slot_free = 1'b1;
      for (int unsigned t = 0; t < NumTrees; t++) begin
        if (ftree[s] == TreeW'(t) && count_q[t] == CntW'(SlotsPerTree)) slot_free = 1'b0;
      end
      // A head needs its tree's next slot (or will be dropped; either way it may wait).
      can_move[s] = front_valid[s] && (busy_q[s] || slot_free);
    end
  end

  logic            mv;        // a flit moves this cycle
  logic [1:0]      ms;        // from this stream
  logic            mhead;
  always_comb begin
    // Round robin from prio_q: the first stream that can move.
    ms = prio_q;
    for (int unsigned k = NumStreams; k > 0; k--) begin
      logic [2:0] c;
      c = {1'b0, prio_q} + 3'(k - 1);
      if (c >= 3'(NumStreams)) c = c - 3'(NumStreams);
      if (can_move[c[1:0]]) ms = c[1:0];
    end
  end
  assign mv    = can_move[ms];
  assign mhead = !busy_q[ms];
  assign q0_at_head = !busy_q[0] && !eng_own_q;

  // The moving stream's front, as a flit and as header words (selected with a mux: Yosys
  // takes no member of a dynamically indexed struct array).
  logic [FlitWidth-1:0] mf_flit;
  logic                 mf_last;
  logic [PortW-1:0]     mf_port;
  /* verilator lint_off UNUSEDSIGNAL */  // the fields the unit needs
  canopy_pkg::hdr_t mh;
  /* verilator lint_on UNUSEDSIGNAL */
  assign mf_flit = ms == 2'd2 ? front_flit[2] : ms == 2'd1 ? front_flit[1] : front_flit[0];
  assign mf_last = ms == 2'd2 ? front_last[2] : ms == 2'd1 ? front_last[1] : front_last[0];
  assign mf_port = ms == 2'd2 ? front_port[2] : ms == 2'd1 ? front_port[1] : front_port[0];
  assign mh      = canopy_pkg::hdr_t'({mf_flit, mf_flit});
  assign look_idx = mhead ? mh.tree : mtree_q[ms];
  assign front_pop = mv ? (NumStreams'(1) << ms) : '0;
  wire logic ms_down = ms == 2'd1;  // the broadcast stream (from the parent)

  // The head's verdict.
  logic head_tree_ok, head_dir_ok, head_accept;
  always_comb begin
    head_tree_ok = {1'b0, mh.tree} < (TreeIdW + 1)'(NumTrees) && look.valid;
    if (!ms_down) begin
      head_dir_ok = mh.ptype == canopy_pkg::PKT_BCAST_REQ && look.root;
    end else begin
      head_dir_ok = mh.ptype == canopy_pkg::PKT_BCAST && !look.root
                    && mf_port == PortW'(look.parent);
    end
    head_accept = head_tree_ok && head_dir_ok;
  end

  // Word 1 decides the outputs: every child, and the local host if it is a member of the
  // packet's group (and not the source skipping itself).
  logic                 decide;
  logic                 group_ok;
  logic [NumLanes-1:0]  decide_lanes;
  wire logic [SlotW-1:0] new_slot = slot_of(TreeW'(mh.tree), alloc_ptr_q[TreeW'(mh.tree)]);
  always_comb begin
    decide       = mv && busy_q[ms] && !drop_q[ms] && midx_q[ms] == IdxW'(1);
    group_ok     = {1'b0, mh.group} < 9'(canopy_pkg::MaxGroups);
    decide_lanes = '0;
    decide_lanes[NumLinks-1:0] = look.children[NumLinks-1:0];
    // With SKIP_SRC the source's host still gets its copy: the host interface counts it
    // without writing it, which tells the source its broadcast has passed the root.
    decide_lanes[LocalLane] = group_ok && look.groups[mh.group[2:0]] && !look.transit;
    if (!group_ok) decide_lanes = '0;
  end

  assign err_tree_o = {eng_err_tree, (mv && mhead && !head_tree_ok) || (decide && !group_ok)};
  assign err_dir_o  = {eng_err_dir, mv && mhead && head_tree_ok && !head_dir_ok};

  // Memory write.
  logic             wm_we;
  logic [AddrW-1:0] wm_waddr;
  wire logic [SlotW-1:0] wslot = mhead ? new_slot : mslot_q[ms];
  wire logic [IdxW-1:0]  widx  = mhead ? '0 : midx_q[ms];
  assign wm_we    = mv && (mhead ? head_accept : !drop_q[ms]);
  assign wm_waddr = AddrW'(wslot) * AddrW'(SlotWords) + AddrW'(widx);

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      busy_q <= '0;
      drop_q <= '0;
      prio_q <= '0;
    end else begin
      if (mv) prio_q <= ms == 2'(NumStreams - 1) ? '0 : ms + 1'b1;
      if (mv) begin
        busy_q[ms] <= !mf_last;
        if (mhead) drop_q[ms] <= !head_accept;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (mv) begin
      if (mhead) begin
        mslot_q[ms] <= new_slot;
        mtree_q[ms] <= mh.tree;
        midx_q[ms]  <= IdxW'(1);
      end else begin
        midx_q[ms]  <= midx_q[ms] + 1'b1;
      end
    end
  end

  // ---------------------------------------------------------------- release
  // One slot per cycle: a tree's oldest slot once it is whole and every lane has sent it.
  logic [NumTrees-1:0] rel_req, rel_grant;
  logic [TreeW-1:0]    rel_tree;
  logic                rel;
  logic [SlotW-1:0]    rel_slot;
  always_comb begin
    for (int unsigned t = 0; t < NumTrees; t++) begin
      logic [SlotW-1:0] s;
      s = slot_of(TreeW'(t), free_ptr_q[t]);
      rel_req[t] = used_q[s] && complete_q[s] && decided_q[s] && todo_q[s] == '0 && sending_q[s] == '0;
    end
  end
  canopy_rr_arbiter #(.NumReq(NumTrees)) u_rel_arb (
    .clk_i,
    .rst_i,
    .req_i       (rel_req),
    .advance_i   (rel),
    .grant_o     (rel_grant),
    .grant_idx_o (rel_tree)
  );
  // A broadcast dropped at its head never took a slot, but its sender spent a credit:
  // return it the next cycle, when releases wait (drops are at least two cycles apart).
  logic                drop_cr_q;
  logic [PortW-1:0]    drop_cr_port_q;
  logic [TreeIdW-1:0]  drop_cr_tree_q;
  always_ff @(posedge clk_i) begin
    if (rst_i) drop_cr_q <= 1'b0;
    else       drop_cr_q <= mv && mhead && ms_down && !head_accept
                            && {1'b0, mf_port} < (PortW + 1)'(NumLinks);
  end
  always_ff @(posedge clk_i) begin
    drop_cr_port_q <= mf_port;
    drop_cr_tree_q <= mh.tree;
  end

  assign rel      = rel_req != '0 && !drop_cr_q;
  wire logic unused_rel_grant = ^rel_grant;
  assign rel_slot = slot_of(rel_tree, free_ptr_q[rel_tree]);

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      slot_credit_valid_o <= '0;
    end else begin
      for (int unsigned p = 0; p < NumLinks; p++) begin
        slot_credit_valid_o[p] <= (rel && credit_back_q[rel_slot] && inport_q[rel_slot] == PortW'(p))
                                  || (drop_cr_q && drop_cr_port_q == PortW'(p));
      end
    end
  end
  always_ff @(posedge clk_i) begin
    for (int unsigned p = 0; p < NumLinks; p++) begin
      slot_credit_tree_o[p] <= drop_cr_q ? drop_cr_tree_q : TreeIdW'(rel_tree);
    end
  end

  // ---------------------------------------------------------------- lanes
  // Lane state: the slot being read, the next word, and a skid queue in front of the
  // router (the memory read takes a cycle, so a lane reads ahead while it has room).
  logic [NumLanes-1:0]                 lactive_q;
  logic [NumLanes-1:0][SlotW-1:0]      lslot_q;
  logic [NumLanes-1:0][IdxW-1:0]       lidx_q;
  logic [NumLanes-1:0]                 inflight_q, inflight_last_q, inflight_head_q;
  logic [NumLanes-1:0][SlotW-1:0]      inflight_slot_q;
  logic [NumLinks-1:0][NumTrees-1:0][CntW-1:0] lcredit_q;   // children's free slots per tree

  // Candidates: per lane and tree, the oldest slot this lane still has to send, provided
  // every older slot of the tree is decided (order is kept per tree).
  logic [NumLanes-1:0][NumTrees-1:0]            cand;
  logic [NumLanes-1:0][NumTrees-1:0][SlotW-1:0] cand_slot;
  always_comb begin
    for (int unsigned l = 0; l < NumLanes; l++) begin
      for (int unsigned t = 0; t < NumTrees; t++) begin
        logic stop;
        logic [PtrW-1:0] p;
        cand[l][t] = 1'b0;
        cand_slot[l][t] = '0;
        stop = 1'b0;
        p = free_ptr_q[t];
        for (int unsigned k = 0; k < SlotsPerTree; k++) begin
          logic [SlotW-1:0] s;
          s = slot_of(TreeW'(t), p);
          if (!stop) begin
            if (!used_q[s] || !decided_q[s]) begin
              stop = 1'b1;
            end else if (todo_q[s][l]) begin
              stop = 1'b1;
              cand[l][t] = l == LocalLane || lcredit_q[l >= NumLinks ? 0 : l][t] != '0;
              cand_slot[l][t] = s;
            end
          end
          p = ptr_next(p);
        end
      end
    end
  end

  logic [NumLanes-1:0][NumTrees-1:0] pick_grant;
  logic [NumLanes-1:0][TreeW-1:0]    pick_tree;
  logic [NumLanes-1:0]               pick;
  logic [NumLanes-1:0]               tail_sent;   // a lane sent a slot's last flit
  logic [NumLanes-1:0][SlotW-1:0]    tail_slot;

  // Read ports: the link lanes share one: among those with a word to read and room for it,
  // the winner's address is read and every link lane wanting the same word takes it (lanes
  // of one tree run in step). The local lane, whose pace is the host's DMA, has a read port
  // of its own (a second copy of the memory), so it never splits the links' reads.
  logic [NumLanes-1:0]             rd_want, rd_take;
  logic [NumLinks-1:0]             rd_grant;
  logic [NumLanes-1:0][AddrW-1:0]  rd_addr;
  logic [NumLanes-1:0]             rd_last;
  logic [$clog2(NumLinks)-1:0]     rd_idx;
  logic [NumLanes-1:0][$clog2(SkidDepth):0] skid_count;
  logic [NumLanes-1:0]             skid_pop;

  for (genvar l = 0; l < NumLanes; l++) begin : gen_lane
    canopy_rr_arbiter #(.NumReq(NumTrees)) u_pick_arb (
      .clk_i,
      .rst_i,
      .req_i       (lactive_q[l] ? '0 : cand[l]),
      .advance_i   (pick[l]),
      .grant_o     (pick_grant[l]),
      .grant_idx_o (pick_tree[l])
    );
    assign pick[l] = !lactive_q[l] && cand[l] != '0;
    wire logic unused_pick_grant = ^pick_grant[l];

    wire logic [SlotW-1:0] s = lslot_q[l];
    logic [IdxW-1:0] words;
    logic complete;
    always_comb begin
      words = '0;
      complete = 1'b0;
      for (int unsigned k = 0; k < NumSlots; k++) begin
        if (s == SlotW'(k)) begin
          words = words_q[k];
          complete = complete_q[k];
        end
      end
    end
    assign rd_want[l] = lactive_q[l] && lidx_q[l] < words
                        && 32'(skid_count[l]) + 32'(inflight_q[l]) < SkidDepth - 1;
    assign rd_addr[l] = AddrW'(s) * AddrW'(SlotWords) + AddrW'(lidx_q[l]);
    assign rd_last[l] = complete && lidx_q[l] + 1'b1 == words;
  end

  canopy_rr_arbiter #(.NumReq(NumLinks)) u_rd_arb (
    .clk_i,
    .rst_i,
    .req_i       (rd_want[NumLinks-1:0]),
    .advance_i   (rd_want[NumLinks-1:0] != '0),
    .grant_o     (rd_grant),
    .grant_idx_o (rd_idx)
  );
  wire logic [AddrW-1:0] rd_addr_sel = rd_addr[rd_idx];
  always_comb begin
    for (int unsigned l = 0; l < NumLinks; l++) rd_take[l] = rd_want[l] && rd_addr[l] == rd_addr_sel;
    rd_take[LocalLane] = rd_want[LocalLane];
  end
  wire logic unused_rd_grant = ^rd_grant;

  // ---------------------------------------------------------------- working memory
  // Two copies written alike: one read by the link lanes, one by the local lane.
  logic [1:0][FlitWidth-1:0] wm_rdata, rd_head_word;
  for (genvar c = 0; c < 2; c++) begin : gen_wm
    canopy_sdp_ram #(.Width(FlitWidth), .Depth(NumSlots * SlotWords)) u_wm (
      .clk_i,
      .we_i    (wm_we),
      .waddr_i (wm_waddr),
      .wdata_i (mf_flit),
      .re_i    (c == 0 ? rd_want[NumLinks-1:0] != '0 : rd_want[LocalLane]),
      .raddr_i (c == 0 ? rd_addr_sel : rd_addr[LocalLane]),
      .rdata_o (wm_rdata[c])
    );
    // The copy sent is always a downward broadcast: at the root a request turns into one.
    always_comb begin
      rd_head_word[c] = wm_rdata[c];
      rd_head_word[c][canopy_pkg::HdrPtypeBits-1:0] = canopy_pkg::PKT_BCAST;
    end
  end

  localparam int unsigned SkidW = SlotW + 1 + FlitWidth;  // {slot, last, flit}

  for (genvar l = 0; l < NumLanes; l++) begin : gen_skid
    logic [SkidW-1:0] front_s;
    logic             unused_ready;
    canopy_fifo #(.Width(SkidW), .Depth(SkidDepth)) u_skid (
      .clk_i,
      .rst_i,
      .in_valid_i  (inflight_q[l]),
      .in_ready_o  (unused_ready),
      .in_data_i   ({inflight_slot_q[l], inflight_last_q[l],
                     inflight_head_q[l] ? rd_head_word[l == LocalLane] : wm_rdata[l == LocalLane]}),
      .out_valid_o (lane_valid_o[l]),
      .out_ready_i (skid_pop[l]),
      .out_data_o  (front_s),
      .count_o     (skid_count[l])
    );
    assign skid_pop[l]    = lane_grant_i[l];
    assign lane_flit_o[l] = front_s[FlitWidth-1:0];
    assign lane_last_o[l] = front_s[FlitWidth];

    // Lane progress.
    always_ff @(posedge clk_i) begin
      if (rst_i) begin
        lactive_q[l]  <= 1'b0;
        inflight_q[l] <= 1'b0;
      end else begin
        inflight_q[l] <= rd_take[l];
        if (pick[l]) lactive_q[l] <= 1'b1;
        else if (rd_take[l] && rd_last[l]) lactive_q[l] <= 1'b0;
      end
    end
    always_ff @(posedge clk_i) begin
      if (pick[l]) begin
        lslot_q[l] <= cand_slot[l][pick_tree[l]];
        lidx_q[l]  <= '0;
      end else if (rd_take[l]) begin
        lidx_q[l]  <= lidx_q[l] + 1'b1;
      end
      inflight_last_q[l] <= rd_last[l];
      inflight_head_q[l] <= lidx_q[l] == '0;
      inflight_slot_q[l] <= lslot_q[l];
    end

    assign tail_sent[l] = lane_grant_i[l] && front_s[FlitWidth];
    assign tail_slot[l] = front_s[FlitWidth+1 +: SlotW];

    `CANOPY_ASSERT(a_skid_room, !inflight_q[l] || unused_ready, "lane skid queue overflow")
    `CANOPY_ASSERT(a_grant_valid, !lane_grant_i[l] || lane_valid_o[l], "lane granted with nothing to send")
  end

  // Slot credits held toward each child.
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      for (int unsigned l = 0; l < NumLinks; l++) begin
        for (int unsigned t = 0; t < NumTrees; t++) lcredit_q[l][t] <= CntW'(SlotsPerTree);
      end
    end else begin
      for (int unsigned l = 0; l < NumLinks; l++) begin
        for (int unsigned t = 0; t < NumTrees; t++) begin
          logic take, back;
          take = pick[l] && pick_tree[l] == TreeW'(t);
          back = slot_credit_valid_i[l] && slot_credit_tree_i[l] == TreeIdW'(t);
          lcredit_q[l][t] <= lcredit_q[l][t] - CntW'(take) + CntW'(back);
        end
      end
    end
  end

  // ---------------------------------------------------------------- slot bookkeeping
  wire logic alloc = mv && mhead && head_accept;
  wire logic [TreeW-1:0] alloc_tree = TreeW'(mh.tree);

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      used_q      <= '0;
      alloc_ptr_q <= '0;
      free_ptr_q  <= '0;
      count_q     <= '0;
      todo_q      <= '0;
      sending_q   <= '0;
    end else begin
      for (int unsigned t = 0; t < NumTrees; t++) begin
        logic a, r;
        a = alloc && alloc_tree == TreeW'(t);
        r = rel && rel_tree == TreeW'(t);
        if (a) alloc_ptr_q[t] <= ptr_next(alloc_ptr_q[t]);
        if (r) free_ptr_q[t]  <= ptr_next(free_ptr_q[t]);
        count_q[t] <= count_q[t] + CntW'(a) - CntW'(r);
      end
      for (int unsigned k = 0; k < NumSlots; k++) begin
        for (int unsigned l = 0; l < NumLanes; l++) begin
          if (pick[l] && cand_slot[l][pick_tree[l]] == SlotW'(k)) begin
            todo_q[k][l]    <= 1'b0;
            sending_q[k][l] <= 1'b1;
          end
          if (tail_sent[l] && tail_slot[l] == SlotW'(k)) begin
            sending_q[k][l] <= 1'b0;
          end
        end
        if (decide && mslot_q[ms] == SlotW'(k)) todo_q[k] <= decide_lanes;
        if (alloc && new_slot == SlotW'(k)) used_q[k] <= 1'b1;
        if (rel && rel_slot == SlotW'(k)) used_q[k] <= 1'b0;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    for (int unsigned k = 0; k < NumSlots; k++) begin
      if (alloc && new_slot == SlotW'(k)) begin
        decided_q[k]     <= 1'b0;
        complete_q[k]    <= mf_last;
        words_q[k]       <= IdxW'(1);
        inport_q[k]      <= mf_port;
        credit_back_q[k] <= ms_down && {1'b0, mf_port} < (PortW + 1)'(NumLinks);
      end else if (mv && !mhead && !drop_q[ms] && mslot_q[ms] == SlotW'(k)) begin
        words_q[k]    <= midx_q[ms] + 1'b1;
        complete_q[k] <= mf_last;
        if (decide) decided_q[k] <= 1'b1;
      end
      // A packet that ends before its header is whole goes nowhere.
      if (alloc && new_slot == SlotW'(k) && mf_last) decided_q[k] <= 1'b1;
    end
  end

  `CANOPY_ASSERT(a_down_has_slot, !(front_valid[1] && !busy_q[1]) || can_move[1]
                                   || !(front_port[1] < PortW'(NumLinks)),
                 "a broadcast from a link found no free slot: slot credits broken")
endmodule

`default_nettype wire
