// canopy_coll_rx_sched: the collective unit's Rx-Queues and Receive Packet Scheduler (the
// broadcast offload unit of seed 000): takes the flits the router delivers to its
// collective port, checks them (seed 002), allocates working-memory slots, writes the
// packets into the working memory and decides, per packet, which outputs must send it
// (the descriptors). REDUCE packets go to the reduce engine instead; the engine's results
// (at a tree's root) come back as a third stream.
//
// Interface contract
//   - rx_*: one flit per cycle at most, from the router's (registered) collective output,
//     on VC COLL_UP (broadcast requests reaching their root, reduce contributions) or
//     COLL_DOWN (broadcasts from the parent); rx_port_i is the router input it came from.
//     Credit flow control: the router holds RxDepth credits per VC; rx_credit_o[v]
//     (registered) returns one each time a flit of VC v leaves this block.
//   - look_idx_o / look_i: a combinational read port of the membership table, indexed by
//     the tree field of the flit on rx_* (used for head flits only).
//   - eng_*: REDUCE packets for the reduce engine (valid/ready, whole packets in order).
//   - res_*: the engine's results (valid/ready); res_tree_i: with every flit, the tree
//     its header names (from the engine's registers: the result's slot and admission are
//     decided from it, not from the flit read out of the engine's queue RAM; asserted
//     equal at the head); res_lanes_i qualifies word 1 (the
//     outputs the result goes to, from the table: children and the local host).
//   - alloc_o (registered: the cycle after a head is taken): a slot of tree alloc_tree_o
//     was taken; it is slot {tree, alloc_ptr_i[tree]}. tree_full_i[t]: tree t has no free
//     slot (both lag a cycle behind a take: a head is not taken the cycle after one of the
//     same tree). alloc_port_o: where the packet came from; alloc_credit_o: a slot credit
//     must go back to that port when the slot is released (the packet came down a link).
//   - wr_* (registered): the write stream into the working memory, one word per cycle:
//     word wr_idx_o of slot wr_slot_o (word 0's type already turned into BCAST); wr_last_o
//     marks the packet's tail. Words past the slot's capacity (only a faulty neighbour
//     sends them) come as events the memory does not store.
//   - dec_* (registered): the descriptor of a packet: its slot and the outputs (one bit
//     per router output, the local port last) that must send it. One per accepted packet,
//     as early as possible: with the head when word 1 is already here, else with word 1.
//     A packet refused at word 1 (group out of range) is decided with no outputs.
//   - drop_cr_* (registered): a broadcast refused at its head (wrong direction) never took
//     a slot, but its sender spent a slot credit: give it back (port, tree).
//   - err_tree_o, err_dir_o (registered pulses): one per refused packet (see below).
//
// Checks, each dropping the packet whole (it never takes a slot) and pulsing an error:
//   err_tree_o: tree id not implemented or its entry invalid (at the head); group id
//               >= MaxGroups (at word 1: the packet then goes nowhere).
//   err_dir_o:  a broadcast (COLL_DOWN) not from the entry's parent port, or at the root,
//               or not of type BCAST; on COLL_UP, a packet other than REDUCE that is not a
//               BCAST_REQ at the tree's root.
// A refused head never waits for a slot. An accepted broadcast from a link always finds a
// free slot (its sender held a slot credit, asserted); a request at the root, or a
// result, waits in its queue for a free slot of its tree.
//
// Pipeline. Each flit is classified the cycle it arrives on rx_* (a head's table entry,
// the outputs of word 1), and the class is stored with it; a head's checks are made from
// its stored entry at the queue's front. Each of the two VC queues has
// its front in a register (the queue's storage fills only behind a waiting front), so a
// flit arriving at cycle t is at the front at t+1. One front per cycle is taken (round
// robin among the streams that can move), written at t+2 through the registered write
// stream. Timing: crossbar -> table read -> queue RAM on the arrival side; queue RAM ->
// checks -> can-move -> round robin -> select -> register on the write side.
`default_nettype none
`include "canopy_assert.svh"

module canopy_coll_rx_sched #(
  parameter int unsigned NumDims      = 0,   /// torus dimensions, 1..4; must be set
  parameter int unsigned NumVcs       = 4,   /// VCs of the router
  parameter int unsigned FlitWidth    = 64,  /// must be 64
  parameter int unsigned NumTrees     = 16,  /// membership table entries, >= 2
  parameter int unsigned SlotsPerTree = 2,   /// working-memory slots per tree, power of two
  parameter int unsigned RxDepth      = 8,   /// flits per VC queue (the router's credits), power of two
  localparam int unsigned NumLinks = 2 * NumDims,
  localparam int unsigned NumLanes = NumLinks + 1,
  localparam int unsigned PortW    = $clog2(NumLanes + 1),
  localparam int unsigned VcW      = $clog2(NumVcs),
  localparam int unsigned TreeIdW  = canopy_pkg::HdrTreeBits,
  localparam int unsigned TreeW    = $clog2(NumTrees),
  localparam int unsigned PtrW     = SlotsPerTree > 1 ? $clog2(SlotsPerTree) : 1,
  localparam int unsigned SlotW    = TreeW + PtrW,
  localparam int unsigned IdxW     = 6
) (
  input  wire logic                              clk_i,
  input  wire logic                              rst_i,

  input  wire logic                              rx_valid_i,
  input  wire logic [FlitWidth-1:0]              rx_flit_i,
  input  wire logic                              rx_last_i,
  input  wire logic [VcW-1:0]                    rx_vc_i,
  input  wire logic [PortW-1:0]                  rx_port_i,
  output logic      [NumVcs-1:0]                 rx_credit_o,

  output logic      [TreeIdW-1:0]                look_idx_o,
  /* verilator lint_off UNUSEDSIGNAL */  // reserved bits
  input  wire canopy_pkg::tree_entry_t           look_i,
  /* verilator lint_on UNUSEDSIGNAL */

  output logic                                   eng_valid_o,
  output logic      [FlitWidth-1:0]              eng_flit_o,
  output logic                                   eng_last_o,
  output logic      [PortW-1:0]                  eng_port_o,
  input  wire logic                              eng_ready_i,

  input  wire logic                              res_valid_i,
  input  wire logic [FlitWidth-1:0]              res_flit_i,
  input  wire logic                              res_last_i,
  input  wire logic [NumLanes-1:0]               res_lanes_i,
  input  wire logic [TreeIdW-1:0]                res_tree_i,
  output logic                                   res_ready_o,

  input  wire logic [NumTrees-1:0]               tree_full_i,
  input  wire logic [NumTrees-1:0][PtrW-1:0]     alloc_ptr_i,
  output logic                                   alloc_o,
  output logic      [TreeW-1:0]                  alloc_tree_o,
  output logic      [PortW-1:0]                  alloc_port_o,
  output logic                                   alloc_credit_o,

  output logic                                   wr_valid_o,
  output logic      [SlotW-1:0]                  wr_slot_o,
  output logic      [IdxW-1:0]                   wr_idx_o,
  output logic      [FlitWidth-1:0]              wr_data_o,
  output logic                                   wr_last_o,

  output logic                                   dec_valid_o,
  output logic      [SlotW-1:0]                  dec_slot_o,
  output logic      [NumLanes-1:0]               dec_lanes_o,

  output logic                                   drop_cr_valid_o,
  output logic      [PortW-1:0]                  drop_cr_port_o,
  output logic      [TreeIdW-1:0]                drop_cr_tree_o,

  output logic                                   err_tree_o,
  output logic                                   err_dir_o
);
  localparam int unsigned LocalLane = NumLinks;
  localparam int unsigned SUp = 0, SDown = 1, SRes = 2;  // streams
  localparam int unsigned NumStreams = 3;

  `CANOPY_STATIC_ASSERT(gen_width_check, FlitWidth == 64, "the collective unit needs 64-bit flits")
  `CANOPY_STATIC_ASSERT(gen_trees_check, NumTrees >= 2 && (NumTrees & (NumTrees - 1)) == 0
                        && NumTrees <= canopy_pkg::MaxTrees, "NumTrees must be a power of two, 2..64")
  `CANOPY_STATIC_ASSERT(gen_groups_check, (canopy_pkg::MaxGroups & (canopy_pkg::MaxGroups - 1)) == 0,
                        "MaxGroups must be a power of two (grp_ok tests the high bits)")
  `CANOPY_STATIC_ASSERT(gen_slots_check, SlotsPerTree >= 1 && (SlotsPerTree & (SlotsPerTree - 1)) == 0,
                        "SlotsPerTree must be a power of two")

  // The class of a flit, decided as it arrives. A head's verdict (accepted, or which
  // error) needs its table entry; the entry's fields are stored with it and the verdict is
  // made at the queue's front (front_verdict), so the arrival path ends at the table read
  // rather than running on through the checks.
  typedef struct packed {
    logic                reduce;  // a flit of a REDUCE packet (COLL_UP): for the engine
    logic                head;    // word 0
    logic                w1;      // word 1
    logic                tin;     // head: the tree id is below NumTrees
    logic                tyok;    // head: the type this queue takes (COLL_DOWN: BCAST; COLL_UP: BCAST_REQ)
    logic                tvalid;  // head: its table entry: valid,
    logic                troot;   //   root,
    logic [3:0]          tparent; //   parent port
    logic                egrp;    // word 1: group id out of range
    logic [NumLanes-1:0] lanes;   // word 1: the outputs that must send the packet
  } cls_t;
  localparam int unsigned ClsW = 12 + NumLanes;  // the bits of cls_t
  localparam int unsigned EntW = ClsW + PortW + 1 + FlitWidth;  // {cls, port, last, flit}

  // ---------------------------------------------------------------- arrival: classify
  /* verilator lint_off UNUSEDSIGNAL */  // the fields used here
  canopy_pkg::hdr_t rh0, rh1;
  /* verilator lint_on UNUSEDSIGNAL */
  assign rh0 = canopy_pkg::hdr_t'({{FlitWidth{1'b0}}, rx_flit_i});  // as word 0
  assign rh1 = canopy_pkg::hdr_t'({rx_flit_i, {FlitWidth{1'b0}}});  // as word 1
  assign look_idx_o = rh0.tree;

  wire logic       a_down = rx_vc_i == VcW'(canopy_pkg::VcCollDown);
  wire logic [1:0] a_in   = {rx_valid_i && a_down, rx_valid_i && rx_vc_i == VcW'(canopy_pkg::VcCollUp)};
  wire logic       a_q    = a_down;  // queue index of the arriving flit

  logic [1:0][1:0]          apos_q;   // per queue: 0 = a head is next, 1 = word 1 next, 2 = body
  logic [1:0]               ared_q;   // per queue: the packet arriving is a REDUCE
  logic [1:0][NumLinks-1:0] achild_q; // per queue: the arriving packet's table entry
  logic [1:0][7:0]          agroups_q;
  logic [1:0]               atransit_q;

  // The arriving queue's state, selected with explicit muxes (no variable index into
  // packed arrays: Yosys would multiply the index by the element width).
  wire logic [1:0]          a_pos     = a_q ? apos_q[1] : apos_q[0];
  wire logic                a_red     = a_q ? ared_q[1] : ared_q[0];
  wire logic [NumLinks-1:0] a_child   = a_q ? achild_q[1] : achild_q[0];
  wire logic [7:0]          a_groups  = a_q ? agroups_q[1] : agroups_q[0];
  wire logic                a_transit = a_q ? atransit_q[1] : atransit_q[0];

  cls_t a_cls;
  always_comb begin
    logic grp_ok, is_reduce;
    a_cls = '0;
    // Range checks against powers of two as tests of the high bits: a `<` against a
    // constant becomes a carry chain on ECP5, and these sit on the arrival path.
    is_reduce = !a_down && rh0.ptype == canopy_pkg::PKT_REDUCE;
    grp_ok = (rh1.group >> $clog2(canopy_pkg::MaxGroups)) == '0;
    if (a_pos == 2'd0) begin
      a_cls.head    = 1'b1;
      a_cls.reduce  = is_reduce;
      a_cls.tin     = (rh0.tree >> TreeW) == '0;
      a_cls.tyok    = rh0.ptype == (a_down ? canopy_pkg::PKT_BCAST : canopy_pkg::PKT_BCAST_REQ);
      a_cls.tvalid  = look_i.valid;
      a_cls.troot   = look_i.root;
      a_cls.tparent = look_i.parent;
    end else begin
      a_cls.reduce = a_red;
      a_cls.w1     = a_pos == 2'd1;
      a_cls.egrp   = a_pos == 2'd1 && !grp_ok;
      if (a_pos == 2'd1 && grp_ok) begin
        a_cls.lanes[NumLinks-1:0] = a_child;
        a_cls.lanes[LocalLane]    = a_groups[rh1.group[2:0]] && !a_transit;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      apos_q <= '0;
      ared_q <= '0;
    end else begin
      for (int unsigned q = 0; q < 2; q++) begin
        if (a_in[q]) begin
          apos_q[q] <= rx_last_i ? 2'd0 : (apos_q[q] == 2'd0 ? 2'd1 : 2'd2);
          if (apos_q[q] == 2'd0) ared_q[q] <= a_cls.reduce;
        end
      end
    end
  end
  always_ff @(posedge clk_i) begin
    for (int unsigned q = 0; q < 2; q++) begin
      if (a_in[q] && apos_q[q] == 2'd0) begin
        achild_q[q]   <= look_i.children[NumLinks-1:0];
        agroups_q[q]  <= look_i.groups;
        atransit_q[q] <= look_i.transit;
      end
    end
  end

  wire logic [EntW-1:0] a_ent = {a_cls, rx_port_i, rx_last_i, rx_flit_i};

  // ---------------------------------------------------------------- queues
  // A flit written at cycle t is at its queue's front at t+1.
  logic [1:0]                hv_q;       // the queue's front is valid
  logic [1:0][EntW-1:0]      hd_q;       // ... and holds this
  logic [1:0]                q_pop;      // the front leaves this cycle
  logic [1:0]                q_one;      // the front is the queue's only flit
  logic [1:0]                nv_q;       // a flit waits behind the front (in the storage)
  logic [1:0][EntW-1:0]      nd_q;       // ... and holds this (the front after the next pop)

  // Each queue: a canopy_reg_fifo, whose front is a register (so the decision below, the
  // collective unit's longest path, starts at flip-flops rather than at a LUT-RAM read),
  // and a count register beside it (the "only one" flag straight from it).
  localparam int unsigned QW = $clog2(RxDepth);
  for (genvar q = 0; q < 2; q++) begin : gen_q
    logic [QW:0]                  cnt_q;
    logic                         in_ready;
    logic [$clog2(RxDepth + 1):0] unused_count;
    canopy_reg_fifo #(.Width(EntW), .Depth(RxDepth)) u_fifo (
      .clk_i,
      .rst_i,
      .in_valid_i  (a_in[q]),
      .in_ready_o  (in_ready),
      .in_data_i   (a_ent),
      .out_valid_o (hv_q[q]),
      .out_ready_i (q_pop[q]),
      .out_data_o  (hd_q[q]),
      .count_o     (unused_count),
      .next_valid_o (nv_q[q]),
      .next_data_o  (nd_q[q])
    );
    always_ff @(posedge clk_i) begin
      if (rst_i) cnt_q <= '0;
      else       cnt_q <= cnt_q + (QW + 1)'(a_in[q]) - (QW + 1)'(q_pop[q]);
    end
    assign q_one[q] = cnt_q == (QW + 1)'(1);
    `CANOPY_ASSERT(a_rx_credit, !a_in[q] || (cnt_q != (QW + 1)'(RxDepth) && in_ready),
                   "collective flit arrived without a credit")
    `CANOPY_ASSERT(a_pop_valid, !q_pop[q] || hv_q[q], "popped an empty receive queue")
    `CANOPY_ASSERT(a_count, hv_q[q] == (cnt_q != '0), "receive queue count disagrees with its front")
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

  // ---------------------------------------------------------------- the streams' fronts
  // The fronts' classes, and the class of the flit behind each front (the storage's front,
  // or the flit arriving now), as flat vectors (Yosys takes no member of an indexed array
  // of structs).
  logic [1:0]                h_reduce, h_head, h_acc, h_egrp, h_etree, h_edir, q_nx_egrp, q_nx_w1;
  logic [1:0][NumLanes-1:0]  h_lanes, q_nx_lanes;
  for (genvar q = 0; q < 2; q++) begin : gen_hcls
    /* verilator lint_off UNUSEDSIGNAL */  // the fields each view uses
    cls_t c, nc;
    /* verilator lint_on UNUSEDSIGNAL */
    assign c  = cls_t'(hd_q[q][FlitWidth+1+PortW +: ClsW]);
    assign nc = a_cls;   // the flit behind the front, when it is arriving now (q_one)
    // The head's verdict (see the checks in the header): its tree must be in the table
    // and valid; a broadcast (COLL_DOWN) must come from the entry's parent port and not
    // be at the root; a request (COLL_UP) must be at the root. (A broadcast or request
    // has at least its two header words: one that ends at its head goes nowhere, so two
    // heads taken are always two cycles apart.)
    wire logic f_last   = hd_q[q][FlitWidth];
    wire logic f_from_p = {1'b0, hd_q[q][FlitWidth+1 +: PortW]} == (PortW + 1)'(c.tparent);
    wire logic tree_ok  = c.tin && c.tvalid;
    wire logic dir_ok   = q == SDown ? c.tyok && !c.troot && f_from_p : c.tyok && c.troot;
    wire logic checked  = c.head && !c.reduce;
    assign h_reduce[q]   = c.reduce;
    assign h_head[q]     = c.head;
    assign h_acc[q]      = checked && tree_ok && dir_ok && !f_last;
    assign h_egrp[q]     = c.egrp;
    assign h_etree[q]    = checked && !tree_ok;
    assign h_edir[q]     = checked && tree_ok && !dir_ok;
    assign h_lanes[q]    = c.lanes;
    assign q_nx_egrp[q]  = nc.egrp;
    assign q_nx_w1[q]    = nc.w1;
    assign q_nx_lanes[q] = nc.lanes;
  end

  // To the engine: the COLL_UP front while it is a REDUCE packet's flit.
  assign eng_valid_o = hv_q[0] && h_reduce[0];
  assign eng_flit_o  = hd_q[0][FlitWidth-1:0];
  assign eng_last_o  = hd_q[0][FlitWidth];
  assign eng_port_o  = hd_q[0][FlitWidth+1 +: PortW];
  wire logic eng_take = eng_valid_o && eng_ready_i;

  // Per stream (requests, broadcasts, results): the packet being written.
  logic [NumStreams-1:0]            busy_q;   // past its head
  logic [NumStreams-1:0]            drop_q;   // refused: its flits are dropped
  logic [NumStreams-1:0]            dec_q;    // decided already (with its head)
  logic [NumStreams-1:0][SlotW-1:0] slot_q;
  logic [NumStreams-1:0][IdxW-1:0]  idx_q;    // the next word (saturates)
  logic [1:0]                       prio_q;   // round robin: the stream first in line
  logic [NumTrees-1:0]              undec_q;  // the tree has a slot taken but not yet decided
  logic [NumStreams-1:0]            admit_q, admit_d, pop_q;

  logic [NumStreams-1:0]                 s_valid, s_last, s_acc, s_can, g;
  logic [NumStreams-1:0][FlitWidth-1:0]  s_flit;
  logic [NumStreams-1:0][PortW-1:0]      s_port;
  logic [NumStreams-1:0][NumLanes-1:0]   s_lanes;   // word 1's outputs (late decision)
  logic [NumStreams-1:0]                 s_egrp, s_etree, s_edir;
  logic [NumStreams-1:0][TreeW-1:0]      s_tree;    // a head's tree
  logic [NumStreams-1:0][TreeIdW-1:0]    s_tree_id;
  logic [NumStreams-1:0][SlotW-1:0]      s_new_slot;
  logic [NumStreams-1:0]                 nx_valid;  // the next flit (word 1) is here already
  logic [NumStreams-1:0][NumLanes-1:0]   nx_lanes;
  logic [NumStreams-1:0]                 nx_egrp, nx_w1;

  // A request's admission, made a cycle ahead for the packet behind the one at the COLL_UP
  // front: when the front leaves as its packet's tail, the head behind it (from the
  // queue's storage) is at the front the next cycle already admitted (nx_admit_q), where
  // admit_q, made for the front itself, would keep it a cycle (a cycle per packet: a root
  // turned a stream of 34-flit requests into broadcasts at 35 cycles a packet). The same
  // conditions as admit_d, on the stored class of the flit behind the front.
  /* verilator lint_off UNUSEDSIGNAL */  // the fields used here
  cls_t             nx_cls;
  canopy_pkg::hdr_t nx_hdr;
  /* verilator lint_on UNUSEDSIGNAL */
  logic             nx_admit_d, nx_admit_q;
  logic [TreeW-1:0] nx_tree, nx_tree_q;
  wire logic unused_down_next = ^{nv_q[1], nd_q[1]};  // broadcasts from the parent need no admission
  always_comb begin
    nx_cls  = cls_t'(nd_q[0][FlitWidth+1+PortW +: ClsW]);
    nx_hdr  = canopy_pkg::hdr_t'({{FlitWidth{1'b0}}, nd_q[0][FlitWidth-1:0]});
    nx_tree = nx_hdr.tree[TreeW-1:0];
    nx_admit_d = nv_q[0] && nx_cls.head && !nx_cls.reduce && nx_cls.tin && nx_cls.tvalid
                 && nx_cls.tyok && nx_cls.troot && !nd_q[0][FlitWidth]
                 && !tree_full_i[nx_tree] && !undec_q[nx_tree] && !(alloc_o && alloc_tree_o == nx_tree);
  end

  always_comb begin
    for (int unsigned q = 0; q < 2; q++) begin
      s_valid[q]  = hv_q[q] && !h_reduce[q];
      s_flit[q]   = hd_q[q][FlitWidth-1:0];
      s_last[q]   = hd_q[q][FlitWidth];
      s_port[q]   = hd_q[q][FlitWidth+1 +: PortW];
      s_acc[q]    = h_acc[q];
      s_lanes[q]  = h_lanes[q];
      s_egrp[q]   = h_egrp[q];
      s_etree[q]  = h_etree[q];
      s_edir[q]   = h_edir[q];
      nx_valid[q] = q_one[q] && a_in[q];
      nx_lanes[q] = q_nx_lanes[q];
      nx_egrp[q]  = q_nx_egrp[q];
      nx_w1[q]    = q_nx_w1[q];
    end
    s_valid[SRes]  = res_valid_i;
    s_flit[SRes]   = res_flit_i;
    s_last[SRes]   = res_last_i;
    s_port[SRes]   = PortW'(LocalLane);
    s_acc[SRes]    = 1'b1;
    s_lanes[SRes]  = res_lanes_i;
    s_egrp[SRes]   = 1'b0;
    s_etree[SRes]  = 1'b0;
    s_edir[SRes]   = 1'b0;
    nx_valid[SRes] = 1'b0;
    nx_lanes[SRes] = '0;
    nx_egrp[SRes]  = 1'b0;
    nx_w1[SRes]    = 1'b0;
    for (int unsigned s = 0; s < NumStreams; s++) begin
      s_tree[s]     = s_tree_id[s][TreeW-1:0];
      s_new_slot[s] = {s_tree[s], alloc_ptr_i[s_tree[s]]};
      // A broadcast from the parent never waits (its slot was reserved by a credit, or it is
      // refused and needs none); a request or a result waits for a slot of its tree, and
      // for the tree's previous packet (a result and a request at the root) to be decided:
      // a tree's slots are decided in the order they are taken. That check is made a cycle
      // ahead (admit_q: registered, for the same front, and no slot taken since).
      s_can[s] = s_valid[s] && (s == SDown || busy_q[s] || !s_acc[s]
                                || ((admit_q[s] && !pop_q[s] || s == SUp && nx_admit_q) && !alloc_o));
      // (tree_full_i lags a take by two cycles: the one of last cycle, alloc_o, counts here)
      admit_d[s] = s_valid[s] && !busy_q[s] && s_acc[s] && !tree_full_i[s_tree[s]] && !undec_q[s_tree[s]]
                   && !(alloc_o && alloc_tree_o == s_tree[s]);
    end
  end
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      admit_q    <= '0;
      pop_q      <= '0;
      nx_admit_q <= 1'b0;
    end else begin
      admit_q    <= admit_d;
      pop_q      <= g;
      nx_admit_q <= nx_admit_d && q_pop[0] && hd_q[0][FlitWidth];
    end
  end
  always_ff @(posedge clk_i) nx_tree_q <= nx_tree;

  // A head's tree: the queues' from the flit (their RAM reads are the front's registers'
  // next step anyway), the results' from the engine's registers (res_tree_i).
  for (genvar s = 0; s < NumStreams; s++) begin : gen_tree
    /* verilator lint_off UNUSEDSIGNAL */  // the tree field only
    canopy_pkg::hdr_t h;
    /* verilator lint_on UNUSEDSIGNAL */
    assign h = canopy_pkg::hdr_t'({{FlitWidth{1'b0}}, s_flit[s]});
    if (s == SRes) begin : gen_res
      assign s_tree_id[s] = res_tree_i;
      `CANOPY_ASSERT(a_res_tree, !(res_valid_i && !busy_q[s]) || h.tree == res_tree_i,
                     "a result's tree differs from its header's")
    end else begin : gen_queue
      assign s_tree_id[s] = h.tree;
    end
  end

  // Round robin over the streams that can move, from prio_q.
  always_comb begin
    g = '0;
    for (int unsigned k = NumStreams; k > 0; k--) begin
      logic [2:0] c;
      c = {1'b0, prio_q} + 3'(k - 1);
      if (c >= 3'(NumStreams)) c = c - 3'(NumStreams);
      if (s_can[c[1:0]]) g = NumStreams'(1) << c[1:0];
    end
  end
  wire logic mv = g != '0;
  assign q_pop[0]    = g[SUp] || eng_take;
  assign q_pop[1]    = g[SDown];
  assign res_ready_o = g[SRes];

  // The moving flit and its stream's state, selected one-hot.
  logic                 m_head, m_last, m_acc, m_drop, m_dec, m_nxv, m_egrp, m_nx_egrp, m_nx_w1;
  logic                 m_etree, m_edir, m_down;
  logic [FlitWidth-1:0] m_flit;
  logic [PortW-1:0]     m_port;
  logic [SlotW-1:0]     m_slot, m_new_slot;
  logic [IdxW-1:0]      m_idx;
  logic [TreeW-1:0]     m_tree;
  logic [TreeIdW-1:0]   m_tree_id;
  logic [NumLanes-1:0]  m_lanes, m_nx_lanes;
  always_comb begin
    {m_head, m_last, m_acc, m_drop, m_dec, m_nxv, m_egrp, m_nx_egrp, m_nx_w1, m_etree, m_edir} = '0;
    m_flit = '0; m_port = '0; m_slot = '0; m_new_slot = '0; m_idx = '0; m_tree = '0;
    m_tree_id = '0; m_lanes = '0; m_nx_lanes = '0;
    m_down = g[SDown];
    for (int unsigned s = 0; s < NumStreams; s++) begin
      if (g[s]) begin
        m_head     = !busy_q[s];
        m_last     = s_last[s];
        m_acc      = s_acc[s];
        m_drop     = drop_q[s];
        m_dec      = dec_q[s];
        m_nxv      = nx_valid[s];
        m_egrp     = s_egrp[s];
        m_nx_egrp  = nx_egrp[s];
        m_nx_w1    = nx_w1[s];
        m_etree    = s_etree[s];
        m_edir     = s_edir[s];
        m_flit     = s_flit[s];
        m_port     = s_port[s];
        m_slot     = slot_q[s];
        m_new_slot = s_new_slot[s];
        m_idx      = idx_q[s];
        m_tree     = s_tree[s];
        m_tree_id  = s_tree_id[s];
        m_lanes    = s_lanes[s];
        m_nx_lanes = nx_lanes[s];
      end
    end
  end

  wire logic m_is_link = {1'b0, m_port} < (PortW + 1)'(NumLinks);
  // The packet is decided with its head when word 1 (or the tail) is already visible,
  // else with word 1.
  wire logic dec_early = mv && m_head && m_acc && (m_last || m_nxv);
  wire logic dec_late  = mv && !m_head && !m_drop && !m_dec && m_idx == IdxW'(1);

  wire logic m_alloc = mv && m_head && m_acc;
  always_ff @(posedge clk_i) begin
    if (rst_i) alloc_o <= 1'b0;
    else       alloc_o <= m_alloc;
  end
  always_ff @(posedge clk_i) begin
    alloc_tree_o   <= m_tree;
    alloc_port_o   <= m_port;
    alloc_credit_o <= m_down && m_is_link;
  end

  // ---------------------------------------------------------------- stream state
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      busy_q  <= '0;
      drop_q  <= '0;
      dec_q   <= '0;
      prio_q  <= '0;
      undec_q <= '0;
    end else if (mv) begin
      for (int unsigned t = 0; t < NumTrees; t++) begin
        logic set, clr;
        set = 1'b0;
        clr = 1'b0;
        for (int unsigned s = 0; s < NumStreams; s++) begin
          // taken without its word 1 in sight: decided later (with word 1)
          if (g[s] && !busy_q[s] && s_acc[s] && !s_last[s] && !nx_valid[s] && s_tree[s] == TreeW'(t)) set = 1'b1;
          if (g[s] && busy_q[s] && !drop_q[s] && !dec_q[s] && idx_q[s] == IdxW'(1)
              && slot_q[s][SlotW-1 -: TreeW] == TreeW'(t)) clr = 1'b1;
        end
        if (set) undec_q[t] <= 1'b1;
        if (clr) undec_q[t] <= 1'b0;
      end
      for (int unsigned s = 0; s < NumStreams; s++) begin
        if (g[s]) begin
          busy_q[s] <= !s_last[s];
          if (!busy_q[s]) begin
            drop_q[s] <= !s_acc[s];
            dec_q[s]  <= dec_early;
          end else if (dec_late) begin
            dec_q[s]  <= 1'b1;
          end
          prio_q <= s == NumStreams - 1 ? 2'd0 : 2'(s + 1);
        end
      end
    end
  end
  always_ff @(posedge clk_i) begin
    for (int unsigned s = 0; s < NumStreams; s++) begin
      if (g[s]) begin
        if (!busy_q[s]) begin
          slot_q[s] <= s_new_slot[s];
          idx_q[s]  <= IdxW'(1);
        end else if (idx_q[s] != '1) begin
          idx_q[s]  <= idx_q[s] + 1'b1;
        end
      end
    end
  end

  // ---------------------------------------------------------------- registered outputs
  logic [FlitWidth-1:0] wr_data_d;
  always_comb begin
    // Word 0 of every copy sent is a downward broadcast: a request or a result turns into one.
    wr_data_d = m_flit;
    if (m_head) wr_data_d[canopy_pkg::HdrPtypeBits-1:0] = canopy_pkg::PKT_BCAST;
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      wr_valid_o      <= 1'b0;
      dec_valid_o     <= 1'b0;
      drop_cr_valid_o <= 1'b0;
      err_tree_o      <= 1'b0;
      err_dir_o       <= 1'b0;
    end else begin
      wr_valid_o      <= mv && (m_head ? m_acc : !m_drop);
      dec_valid_o     <= dec_early || dec_late;
      drop_cr_valid_o <= mv && m_head && !m_acc && m_down && m_is_link;
      err_tree_o      <= mv && ((m_head && m_etree) || (dec_early && !m_last && m_nx_egrp)
                                || (dec_late && m_egrp));
      err_dir_o       <= mv && m_head && m_edir;
    end
  end
  always_ff @(posedge clk_i) begin
    wr_slot_o      <= m_head ? m_new_slot : m_slot;
    wr_idx_o       <= m_head ? '0 : m_idx;
    wr_data_o      <= wr_data_d;
    wr_last_o      <= m_last;
    dec_slot_o     <= dec_early ? m_new_slot : m_slot;
    dec_lanes_o    <= dec_early ? (m_last || m_nx_egrp ? '0 : m_nx_lanes) : (m_egrp ? '0 : m_lanes);
    drop_cr_port_o <= m_port;
    drop_cr_tree_o <= m_tree_id;
  end

  `CANOPY_ASSERT(a_vc_coll, !rx_valid_i || rx_vc_i == VcW'(canopy_pkg::VcCollUp) || a_down,
                 "a flit on a VC other than COLL_UP / COLL_DOWN reached the collective unit")
  `CANOPY_ASSERT(a_head_class, !(hv_q[0] && !h_reduce[0]) || h_head[0] == !busy_q[SUp],
                 "COLL_UP front: arrival and stream disagree on where the packet starts")
  `CANOPY_ASSERT(a_head_class_down, !hv_q[1] || h_head[1] == !busy_q[SDown],
                 "COLL_DOWN front: arrival and stream disagree on where the packet starts")
  `CANOPY_ASSERT(a_down_has_slot, !(g[SDown] && m_head && m_acc) || !tree_full_i[m_tree],
                 "a broadcast from the parent found no free slot: slot credits broken")
  `CANOPY_ASSERT(a_early_next_is_w1, !(dec_early && !m_last) || m_nx_w1,
                 "a packet decided with its head, but the flit behind it is not its word 1")
  `CANOPY_ASSERT(a_nx_admit, !nx_admit_q || (s_valid[SUp] && !busy_q[SUp] && s_acc[SUp] && s_tree[SUp] == nx_tree_q),
                 "the request admitted a cycle ahead is not the one at the front")
  `CANOPY_ASSERT(a_onehot_grant, $onehot0(g), "two streams granted the write port")
  `CANOPY_ASSERT(a_decide_in_order, !(m_alloc && !m_down) || !undec_q[m_tree],
                 "a slot taken while its tree's previous slot is undecided")
endmodule

`default_nettype wire
