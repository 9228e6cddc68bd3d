// canopy_reduce_engine: the router's reduce engine (seed 002): per tree, NumIds reduces in
// flight, each combining its host's contribution and every child's, element by element.
//
// Interface contract
//   - in_*: REDUCE packets (valid/ready, whole packets in order) from the collective port's
//     COLL_UP queue; in_port_i is the router input each came from. in_ready_o is high
//     from the end of the clearing after reset on: the input never waits on the output.
//   - look_idx_o / look_i: a combinational read port of the membership table.
//   - up_*: combined contributions for the parent, on COLL_UP through router port
//     up_port_o; valid until up_grant_i (late) takes the flit.
//   - res_*: at the tree's root, the result: a BCAST_REQ with rflags RESULT for the
//     collective unit's working memory (res_ready_i takes a flit), res_lanes_o with word 1
//     (the outputs that must send it), res_tree_o with every flit (its header's tree
//     field, from registers: the receive scheduler allocates the result's slot by it
//     without waiting for the queue's RAM read).
//   - Both come from the output queue, a canopy_grant_fifo (a RAM read and a 2:1 mux after
//     flip-flops): the grant and ready are only registered, never used further in their
//     own cycle.
//   - err_reduce_o: a contribution refused or disagreeing (op, dtype, len, offset, dst,
//     group or ALL differ from the reduce's first contribution; a second one from the same
//     port; an unknown op or dtype; len not a multiple of the element size): the reduce
//     still completes, with rflags FAILED. err_dir_o: a contribution not from a child's port
//     nor from a member host (dropped: it cannot be attributed). err_tree_o: tree not
//     implemented or invalid (dropped). refused_o: a reduce found no free accumulator (see
//     below). One registered pulse each.
//
// State: per (tree, id) a state word (in block RAM: which ports contributed, failed,
// refused, the fields of its first contribution, its accumulator) and an active bit (in
// flip-flops, so reset clears every reduce). Accumulators come from a pool shared by the
// trees (canopy_reduce_pool), one of them reserved for each tree. A reduce with a payload
// holds one from its first contribution until its result has been sent (a single
// contributor's too: the result is always sent from the accumulator); an empty one (a
// barrier) needs none.
// A first contribution that finds no slot is still consumed and never waits: the reduce is
// marked refused, its later contributions are consumed and dropped, and once every
// expected contribution is in, it goes on with rflags FAILED and RETRY (its members
// re-issue it; docs/collectives.md argues why this never blocks the packets that free
// slots). A failed result goes on with len 0: its payload is never written anywhere.
//
// Pipeline, one flit per cycle (flits of different packets overlap), never stalled:
//   word 0 taken; word 1 taken at cycle h: state word read (block RAM), table and active
//   bit looked up; h+1: state word registered (the previous packet's update forwarded if
//   it is the same reduce and not yet in the RAM); h+2: the verdict (checks, new state,
//   pool slot). A payload word taken at cycle a reads its accumulator word at a+2 and is
//   combined at a+4 (the ALU between registers), then written back at a+5 (a read of the
//   word written that cycle is forwarded), the completing contribution's too.
// Sending: the sender sends a completed reduce's header words and then its payload from a
// second copy of the accumulator memory, one word per cycle while the output queue
// (OutDepth words) has room, and frees the accumulator with the last word. A reduce
// that completes while the sender is idle and nothing waits is started at its verdict
// (cut-through): its header goes out while its last contribution still streams in, and
// each payload word is sent as it is written back (the sender follows the writer, taking
// the word from the write port, never passes it). Otherwise it is queued as ready once its packet's tail has been written
// back (a ready queue in block RAM, one entry per (tree, id) at most), and the sender takes
// the oldest when it is free. Only the sender waits on the output:
// on the up lane (COLL_UP credits toward the parent) or, at the root, on a working-memory
// slot of the tree. Taking input never waits on the output, so engines whose up directions
// cross (two trees over one link in opposite directions) cannot hold each other up:
// docs/collectives.md, "Reduce ... Deadlock".
`default_nettype none
`include "canopy_assert.svh"

module canopy_reduce_engine #(
  parameter int unsigned NumDims   = 0,   /// torus dimensions, 1..4; must be set
  parameter int unsigned NumTrees  = 16,  /// membership table entries, power of two >= 2
  parameter int unsigned NumIds    = 32,  /// reduces in flight per tree (rid field: 32)
  parameter int unsigned PoolSlots = 64,  /// accumulators shared by the trees, power of two
  parameter int unsigned OutDepth  = 16,  /// words the output queue holds, power of two
  localparam int unsigned NumLinks = 2 * NumDims,
  localparam int unsigned NumLanes = NumLinks + 1,
  localparam int unsigned PortW    = $clog2(NumLanes + 1),
  localparam int unsigned TreeIdW  = canopy_pkg::HdrTreeBits,
  localparam int unsigned PoolCntW = $clog2(PoolSlots + 1)
) (
  input  wire logic                     clk_i,
  input  wire logic                     rst_i,
  input  wire canopy_pkg::coords_t      my_coord_i,

  input  wire logic                     in_valid_i,
  input  wire logic [63:0]              in_flit_i,
  input  wire logic                     in_last_i,
  input  wire logic [PortW-1:0]         in_port_i,
  output logic                          in_ready_o,

  output logic [TreeIdW-1:0]            look_idx_o,
  /* verilator lint_off UNUSEDSIGNAL */  // reserved bits
  input  wire canopy_pkg::tree_entry_t  look_i,
  /* verilator lint_on UNUSEDSIGNAL */

  output logic                          up_valid_o,
  output logic [63:0]                   up_flit_o,
  output logic                          up_last_o,
  output logic [PortW-1:0]              up_port_o,
  input  wire logic                     up_grant_i,

  output logic                          res_valid_o,
  output logic [63:0]                   res_flit_o,
  output logic                          res_last_o,
  output logic [NumLanes-1:0]           res_lanes_o,
  output logic [TreeIdW-1:0]            res_tree_o,
  input  wire logic                     res_ready_i,

  output logic                          err_reduce_o,
  output logic                          err_dir_o,
  output logic                          err_tree_o,
  output logic                          refused_o,
  output logic [PoolCntW-1:0]           pool_free_o
);
  localparam int unsigned LocalPort = NumLinks;
  localparam int unsigned WordsPerId = canopy_pkg::MaxPayloadBytes / 8;
  localparam int unsigned WordW  = $clog2(WordsPerId);          // payload word index
  localparam int unsigned TreeW  = $clog2(NumTrees);
  localparam int unsigned RidW   = canopy_pkg::HdrRidBits;
  localparam int unsigned IdW    = TreeW + RidW;                 // (tree, rid)
  localparam int unsigned NumRed = NumTrees * (1 << RidW);
  localparam int unsigned PSlotW = $clog2(PoolSlots);
  localparam int unsigned AccW   = PSlotW + WordW;
  localparam int unsigned LenW   = canopy_pkg::HdrLenBits;
  localparam int unsigned Cap    = OutDepth;       // words the output queue holds at most
  localparam int unsigned OutBufDepth = 1 << $clog2(Cap);  // its RAM entries
  localparam int unsigned RsvW   = $clog2(Cap + 1);
  localparam int unsigned OutW   = NumLanes + TreeIdW + 1 + PortW + 1 + 64;  // {lanes, tree, result, port, last, flit}
  localparam int unsigned SideW  = TreeIdW + 1 + PortW + 1;                   // {tree, result, port, last}

  `CANOPY_STATIC_ASSERT(gen_ids_check, NumIds == (1 << canopy_pkg::HdrRidBits),
                        "NumIds must match the rid field (32)")
  `CANOPY_STATIC_ASSERT(gen_trees_check, NumTrees >= 2 && (NumTrees & (NumTrees - 1)) == 0,
                        "NumTrees must be a power of two >= 2")
  `CANOPY_STATIC_ASSERT(gen_out_check, OutDepth >= 4 && (OutDepth & (OutDepth - 1)) == 0,
                        "OutDepth must be a power of two >= 4")
  `CANOPY_STATIC_ASSERT(gen_pool_check, PoolSlots >= NumIds + NumTrees - 1,
                        "PoolSlots must let one tree hold all its ids while every other tree keeps its reserve")

  // ---------------------------------------------------------------- the state word
  // The fields a reduce's contributions must agree on, from its first contribution.
  typedef struct packed {
    logic [2:0]      op;
    logic [2:0]      dtype;
    logic [LenW-1:0] len;
    logic            all;
    logic [39:0]     offset;
    logic [15:0]     dst;
    logic [7:0]      group;
  } fields_t;
  // The fields of a contribution's header that every contribution of a reduce must share.
  /* verilator lint_off UNUSEDSIGNAL */  // the other header fields
  function automatic fields_t fields_of(input canopy_pkg::hdr_t h);
    fields_of = {h.op, h.dtype, h.len, h.rflags[canopy_pkg::RflagAll], h.offset, h.dst, h.group};
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */
  typedef struct packed {
    logic                active;    // a reduce is in progress for this (tree, id)
    logic [NumLanes-1:0] mask;      // ports whose contribution is in
    logic                failed;
    logic                retry;     // refused here or below: the members re-issue it
    logic                ffail;     // the fields came from a failed contribution (not compared)
    logic                has_slot;  // holds an accumulator
    logic [PSlotW-1:0]   pslot;
    fields_t             f;
  } meta_t;
  localparam int unsigned FieldsW = 3 + 3 + LenW + 1 + 40 + 16 + 8;
  localparam int unsigned MetaW   = 1 + NumLanes + 4 + PSlotW + FieldsW;

  // A completed reduce waiting to be sent (the ready queue) and being sent (the sender).
  typedef struct packed {
    fields_t             f;
    logic [TreeIdW-1:0]  tree;
    logic [RidW-1:0]     rid;
    logic                failed;
    logic                retry;
    logic                root;      // a result (BCAST_REQ) into the collective unit
    logic [NumLanes-1:0] lanes;     // the result's lanes (word 1 of res_lanes_o)
    logic [PortW-1:0]    port;      // toward the parent
    logic                pay;       // the payload goes out, from the accumulator
    logic                has_slot;  // the accumulator is freed once sent
    logic [PSlotW-1:0]   pslot;
  } rent_t;
  // The same, as the ready queue stores it: a result's lanes and a contribution's parent port
  // share one field (each is used only by its kind), and pay follows from the rest: 108 bits
  // for NumDims 3, three 512 x 36 block RAMs, where the whole entry (112) would take four.
  typedef struct packed {
    fields_t             f;
    logic [TreeIdW-1:0]  tree;
    logic [RidW-1:0]     rid;
    logic                failed;
    logic                retry;
    logic                root;
    logic [NumLanes-1:0] route;     // root: lanes; else the parent port
    logic                has_slot;
    logic [PSlotW-1:0]   pslot;
  } rq_ent_t;
  localparam int unsigned RqEntW = FieldsW + TreeIdW + RidW + 3 + NumLanes + 1 + PSlotW;
  `CANOPY_STATIC_ASSERT(gen_route_check, PortW <= NumLanes, "a parent port must fit the route field")

  rent_t s_ent_q;         // the reduce being sent
  logic  s_free;          // its accumulator is freed (with its last word)
  logic  s_early_start;   // the verdict now starts the sender on its reduce (cut-through)

  // ---------------------------------------------------------------- input
  logic [1:0]        ipos_q;      // 0: word 0 next, 1: word 1 next, 2: payload
  logic [WordW:0]    ipidx_q;     // payload words taken of this packet
  logic [63:0]       hdr0_q;
  logic [PortW-1:0]  port0_q;
  logic              init_q;      // clearing the state words after reset
  logic [IdW-1:0]    init_id_q;
  // Input never waits on the output (only on the clearing after reset): see the header.
  assign in_ready_o = !init_q;
  wire logic fire  = in_valid_i && in_ready_o;
  wire logic f_w0  = fire && ipos_q == 2'd0;
  wire logic f_w1  = fire && ipos_q == 2'd1;
  wire logic f_pay = fire && ipos_q == 2'd2;

  /* verilator lint_off UNUSEDSIGNAL */  // the fields an engine reads
  canopy_pkg::hdr_t h_in;
  /* verilator lint_on UNUSEDSIGNAL */
  assign h_in = canopy_pkg::hdr_t'({in_flit_i, hdr0_q});    // as word 1 arrives
  wire logic [IdW-1:0] id_in = {h_in.tree[TreeW-1:0], h_in.rid};
  assign look_idx_o = h_in.tree;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      ipos_q <= '0;
    end else if (fire) begin
      ipos_q <= in_last_i ? 2'd0 : (ipos_q == 2'd0 ? 2'd1 : 2'd2);
    end
  end
  always_ff @(posedge clk_i) begin
    if (f_w0) begin
      hdr0_q  <= in_flit_i;
      port0_q <= in_port_i;
    end
    if (f_w1)       ipidx_q <= '0;
    else if (f_pay) ipidx_q <= ipidx_q + 1'b1;
  end

  // ---------------------------------------------------------------- state memory
  // One word per (tree, id), its active bit included. After reset the engine takes no input
  // until it has cleared every active bit (NumRed cycles, through the write port).
  logic              upd_we_q, upd_ok_q;   // written now; the last verdict's update is held
  logic [IdW-1:0]    upd_id_q;
  meta_t             upd_q;
  logic [MetaW-1:0]  meta_rdata;
  wire logic [MetaW-1:0] upd_bits   = MetaW'(upd_q);     // active is the top bit
  wire logic [MetaW-1:0] meta_wdata = {upd_bits[MetaW-1] && !init_q, upd_bits[MetaW-2:0]};
  canopy_sdp_ram #(.Width(MetaW), .Depth(NumRed)) u_meta (
    .clk_i,
    .we_i    (upd_we_q || init_q),
    .waddr_i (init_q ? init_id_q : upd_id_q),
    .wdata_i (meta_wdata),
    .re_i    (1'b1),
    .raddr_i (id_in),
    .rdata_o (meta_rdata)
  );

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      init_q    <= 1'b1;
      init_id_q <= '0;
    end else if (init_q) begin
      init_id_q <= init_id_q + 1'b1;
      if (init_id_q == IdW'(NumRed - 1)) init_q <= 1'b0;
    end
  end

  // ---------------------------------------------------------------- header stage 1 (word 1 taken)
  logic                    hp1_v_q;
  canopy_pkg::hdr_t        hp1_hdr_q;
  logic [PortW-1:0]        hp1_port_q;
  logic [IdW-1:0]          hp1_id_q;
  /* verilator lint_off UNUSEDSIGNAL */  // reserved bits
  canopy_pkg::tree_entry_t hp1_ent_q;
  /* verilator lint_on UNUSEDSIGNAL */
  always_ff @(posedge clk_i) begin
    if (rst_i) hp1_v_q <= 1'b0;
    else       hp1_v_q <= f_w1;
  end
  always_ff @(posedge clk_i) begin
    if (f_w1) begin
      hp1_hdr_q  <= h_in;
      hp1_port_q <= port0_q;
      hp1_id_q   <= id_in;
      hp1_ent_q  <= look_i;
    end
  end

  // ---------------------------------------------------------------- header stage 2: state word in
  // The previous packet's update may not be in the RAM (or the active bits) yet: forward it
  // (upd_*_q hold the last verdict's update until the next verdict).
  logic                    hp2_v_q;
  /* verilator lint_off UNUSEDSIGNAL */  // the fields the verdict reads
  canopy_pkg::hdr_t        hp2_hdr_q;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [IdW-1:0]          hp2_id_q;
  logic                    hp2_tree_ok_q, hp2_dir_ok_q, hp2_bad_q;
  logic                    hp2_root_q;
  logic [NumLanes-1:0]     hp2_expect_q, hp2_pbit_q, hp2_lanes_q;
  logic [PortW-1:0]        hp2_parent_q;
  meta_t                   hp2_meta_q;
  logic                    hp2_fdiff_q;   // its fields differ from the state's (see v_mism)
  // The reduce's state as read, or the update of the cycle before to the same id.
  meta_t                   hp1_meta;
  assign hp1_meta = (upd_ok_q && upd_id_q == hp1_id_q) ? upd_q : meta_t'(meta_rdata);
  always_ff @(posedge clk_i) begin
    if (rst_i) hp2_v_q <= 1'b0;
    else       hp2_v_q <= hp1_v_q;
  end
  always_ff @(posedge clk_i) begin
    if (hp1_v_q) begin
      logic member;
      logic [3:0] esize;
      hp2_hdr_q    <= hp1_hdr_q;
      hp2_id_q     <= hp1_id_q;
      hp2_meta_q   <= hp1_meta;
      // Compared here, as the state is read, so that the wide comparison is not on the
      // verdict's path (which loads the sender on an early start).
      hp2_fdiff_q  <= hp1_meta.f != fields_of(hp1_hdr_q);
      member        = !hp1_ent_q.transit && hp1_ent_q.groups[hp1_hdr_q.group[2:0]]
                      && (hp1_hdr_q.group >> $clog2(canopy_pkg::MaxGroups)) == '0;
      hp2_tree_ok_q <= (hp1_hdr_q.tree >> $clog2(NumTrees)) == '0 && hp1_ent_q.valid;
      hp2_dir_ok_q  <= hp1_port_q == PortW'(LocalPort)
                       ? member
                       : ({1'b0, hp1_port_q} < (PortW + 1)'(NumLinks) && hp1_ent_q.children[3'(hp1_port_q)]);
      hp2_expect_q  <= {!hp1_ent_q.transit && hp1_ent_q.groups[hp1_hdr_q.group[2:0]],
                        hp1_ent_q.children[NumLinks-1:0]};
      hp2_lanes_q   <= {member, hp1_ent_q.children[NumLinks-1:0]};
      hp2_pbit_q    <= NumLanes'(1) << hp1_port_q;
      esize          = (hp1_hdr_q.dtype == canopy_pkg::DT_I32 || hp1_hdr_q.dtype == canopy_pkg::DT_U32) ? 4'd4 : 4'd8;
      hp2_bad_q     <= hp1_hdr_q.op > canopy_pkg::OP_MAX || hp1_hdr_q.dtype > canopy_pkg::DT_U64
                       || (hp1_hdr_q.len & (LenW'(esize) - 1'b1)) != '0;
      hp2_root_q    <= hp1_ent_q.root;
      hp2_parent_q  <= PortW'(hp1_ent_q.parent);
    end
  end

  // ---------------------------------------------------------------- the verdict
  logic              pool_admit;
  logic [PSlotW-1:0] pool_slot;
  logic              v_ok, v_first, v_dup, v_mism, v_final, v_need, v_alloc, v_refuse;
  logic              v_failed, v_retry, v_comb;
  meta_t             v_meta;
  fields_t hf;   // this contribution's fields
  assign hf = fields_of(hp2_hdr_q);
  always_comb begin
    v_ok     = hp2_v_q && hp2_tree_ok_q && hp2_dir_ok_q;
    v_first  = !hp2_meta_q.active;
    v_dup    = !v_first && (hp2_meta_q.mask & hp2_pbit_q) != '0;
    // A contribution that failed below is not compared (the disagreement was counted where
    // it was found), and neither are fields that came from one.
    v_mism   = !v_first && !hp2_meta_q.ffail && !hp2_hdr_q.rflags[canopy_pkg::RflagFailed]
               && hp2_fdiff_q;
    v_meta   = v_first ? '0 : hp2_meta_q;
    if (v_first || (hp2_meta_q.ffail && !hp2_hdr_q.rflags[canopy_pkg::RflagFailed])) begin
      v_meta.f     = hf;
      v_meta.ffail = hp2_hdr_q.rflags[canopy_pkg::RflagFailed];
    end
    if (!v_dup) v_meta.mask = v_meta.mask | hp2_pbit_q;
    v_final  = v_meta.mask == hp2_expect_q;
    v_meta.active = !v_final;
    // A first contribution with a payload needs an accumulator, also when it is the last
    // one (its result is sent from the accumulator, never straight from the input).
    v_need   = v_ok && v_first && hp2_hdr_q.len != '0;
    v_alloc  = v_need && pool_admit;
    v_refuse = v_need && !pool_admit;
    if (v_alloc) begin
      v_meta.has_slot = 1'b1;
      v_meta.pslot    = pool_slot;
    end
    v_failed = hp2_meta_q.failed && !v_first || v_dup || hp2_bad_q || v_mism || v_refuse
               || hp2_hdr_q.rflags[canopy_pkg::RflagFailed];
    v_retry  = hp2_meta_q.retry && !v_first || v_refuse || hp2_hdr_q.rflags[canopy_pkg::RflagRetry];
    v_meta.failed = v_failed;
    v_meta.retry  = v_retry;
    // This contribution's payload is combined (or stored, when first).
    v_comb   = !v_dup && !hp2_bad_q && !v_mism && !hp2_hdr_q.rflags[canopy_pkg::RflagFailed];
  end

  canopy_reduce_pool #(.NumTrees(NumTrees), .PoolSlots(PoolSlots)) u_pool (
    .clk_i,
    .rst_i,
    .tree_i       (hp2_hdr_q.tree[TreeW-1:0]),
    .admit_o      (pool_admit),
    .slot_o       (pool_slot),
    .alloc_i      (v_alloc),
    .free_i       (s_free),
    .free_slot_i  (s_ent_q.pslot),
    .free_count_o (pool_free_o)
  );

  // The state update, written next cycle; the verdict for the payload.
  logic              vd_rd_q, vd_wr_q, vd_early_q;
  logic [PSlotW-1:0] vd_pslot_q;
  logic [2:0]        vd_op_q, vd_dt_q;
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      upd_we_q     <= 1'b0;
      upd_ok_q     <= 1'b0;
      err_tree_o   <= 1'b0;
      err_dir_o    <= 1'b0;
      err_reduce_o <= 1'b0;
      refused_o    <= 1'b0;
    end else begin
      upd_we_q     <= v_ok;
      if (hp2_v_q) upd_ok_q <= v_ok;
      err_tree_o   <= hp2_v_q && !hp2_tree_ok_q;
      err_dir_o    <= hp2_v_q && hp2_tree_ok_q && !hp2_dir_ok_q;
      err_reduce_o <= v_ok && (v_dup || hp2_bad_q || v_mism);
      refused_o    <= v_refuse;
    end
  end
  always_ff @(posedge clk_i) begin
    if (hp2_v_q) begin
      upd_id_q  <= hp2_id_q;
      upd_q     <= v_meta;
    end
    // The verdict holds until the next packet's: its payload words use it after it.
    // Accumulator read: combining into a held accumulator. Write: storing (first) or
    // combining, the completing contribution included (the result is sent from there).
    if (hp2_v_q) begin
      vd_op_q     <= v_meta.f.op;
      vd_dt_q     <= v_meta.f.dtype;
      vd_pslot_q  <= v_meta.pslot;
      vd_rd_q     <= v_ok && !v_first && v_meta.has_slot && v_comb;
      vd_wr_q     <= v_ok && v_meta.has_slot && v_comb;
      vd_early_q  <= s_early_start;
    end
  end

  // ---------------------------------------------------------------- payload pipeline
  // f1 (taken at a) -> f2 -> read at a+2 -> f3 -> accumulator word at a+3 -> f4 -> ALU at a+4
  // -> written back at a+5.
  logic              f1_v_q, f2_v_q, f3_v_q, f4_v_q;
  logic [63:0]       f1_d_q, f2_d_q, f3_d_q, f4_d_q;
  logic [WordW-1:0]  f1_i_q, f2_i_q, f3_i_q, f4_i_q;   // payload word index
  logic              f3_rd_q, f3_wr_q, f4_rd_q, f4_wr_q;
  logic              f3_early_q, f4_early_q, wb_early_q;   // a word of the reduce started early
  logic [2:0]        f3_op_q, f3_dt_q;
  logic              f4_sum_q, f4_minmax_q, f4_min_q, f4_is64_q, f4_flip_lo_q, f4_flip_hi_q;  // the ALU's operation
  logic [PSlotW-1:0] f3_ps_q, f4_ps_q;
  logic [63:0]       acc_rdata, acc_q, alu_y;
  logic              wb_v_q, fw_q;
  logic [AccW-1:0]   wb_addr_q;
  logic [63:0]       wb_d_q, fw_d_q;

  wire logic [AccW-1:0] rd_addr = {vd_pslot_q, f2_i_q};
  // A read of the word written back in the same cycle takes the written word instead (fw_q
  // below), so the RAM's word is never used then: no collision logic (CollisionOld = 0).
  canopy_sdp_ram #(.Width(64), .Depth(PoolSlots * WordsPerId), .CollisionOld(1'b0)) u_acc (
    .clk_i,
    .we_i    (wb_v_q),
    .waddr_i (wb_addr_q),
    .wdata_i (wb_d_q),
    .re_i    (1'b1),   // read every cycle: the word is taken only when it is wanted
    .raddr_i (rd_addr),
    .rdata_o (acc_rdata)
  );

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      {f1_v_q, f2_v_q, f3_v_q, f4_v_q, wb_v_q} <= '0;
    end else begin
      f1_v_q <= f_pay && ipidx_q < (WordW + 1)'(WordsPerId);
      f2_v_q <= f1_v_q;
      f3_v_q <= f2_v_q;
      f4_v_q <= f3_v_q;
      wb_v_q <= f4_v_q && f4_wr_q;
    end
  end
  always_ff @(posedge clk_i) begin
    f1_d_q <= in_flit_i;
    f1_i_q <= ipidx_q[WordW-1:0];
    f2_d_q <= f1_d_q;
    f2_i_q <= f1_i_q;
    f3_d_q <= f2_d_q;
    f3_i_q <= f2_i_q;
    // The packet's verdict is in vd_q from h+3 until its last payload word has passed here.
    f3_rd_q    <= vd_rd_q;
    f3_wr_q    <= vd_wr_q;
    f3_early_q <= vd_early_q;
    f3_op_q    <= vd_op_q;
    f3_dt_q    <= vd_dt_q;
    f3_ps_q    <= vd_pslot_q;
    // A read of the word written this cycle returns the old word: take the new one.
    fw_q       <= wb_v_q && wb_addr_q == rd_addr;
    fw_d_q     <= wb_d_q;
    f4_d_q <= f3_d_q;
    f4_i_q <= f3_i_q;
    {f4_rd_q, f4_wr_q, f4_early_q} <= {f3_rd_q, f3_wr_q, f3_early_q};
    {f4_sum_q, f4_minmax_q, f4_min_q, f4_is64_q, f4_flip_lo_q, f4_flip_hi_q}
            <= {f3_sum, f3_minmax, f3_min, f3_is64, f3_flip_lo, f3_flip_hi};
    f4_ps_q <= f3_ps_q;
    acc_q   <= fw_q ? fw_d_q : acc_rdata;
    wb_addr_q <= {f4_ps_q, f4_i_q};
    wb_early_q <= f4_early_q;
    wb_d_q    <= alu_y;
  end

  // The ALU's operation decoded a stage ahead (f3), so that the ALU's path (f4 to the word
  // written back) starts at its adder and comparators.
  logic f3_sum, f3_minmax, f3_min, f3_is64, f3_flip_lo, f3_flip_hi;
  canopy_reduce_alu_ctl u_alu_ctl (
    .op_i      (f3_op_q),
    .dtype_i   (f3_dt_q),
    .sum_o     (f3_sum),
    .minmax_o  (f3_minmax),
    .min_o     (f3_min),
    .is64_o    (f3_is64),
    .flip_lo_o (f3_flip_lo),
    .flip_hi_o (f3_flip_hi)
  );
  logic [63:0] alu_out;
  canopy_reduce_alu u_alu (
    .a_i       (acc_q),
    .b_i       (f4_d_q),
    .sum_i     (f4_sum_q),
    .minmax_i  (f4_minmax_q),
    .min_i     (f4_min_q),
    .is64_i    (f4_is64_q),
    .flip_lo_i (f4_flip_lo_q),
    .flip_hi_i (f4_flip_hi_q),
    .y_o       (alu_out)
  );
  // Combining into a held accumulator; else (first contribution) the payload itself.
  assign alu_y = f4_rd_q ? alu_out : f4_d_q;

  // ---------------------------------------------------------------- completed reduces
  // Every packet that reached the verdict leaves an entry in a small staging queue (its
  // verdict: emit or not, and what to send); the entry moves on when the packet's tail has
  // been written back (6 cycles after the tail was taken), so everything the sender reads
  // from the accumulator is in it. Completing ones go into the ready queue: at most one per
  // (tree, id) (an id is reused only after its result came back through every engine of the
  // tree, this one's output included), so NumRed entries never overflow; in block RAM.
  localparam int unsigned StageDepth = 8;
  wire logic tail_in = fire && in_last_i && ipos_q != 2'd0;   // the tail of a packet with word 1
  logic [5:0] tail_q;
  always_ff @(posedge clk_i) begin
    if (rst_i) tail_q <= '0;
    else       tail_q <= {tail_q[4:0], tail_in};
  end
  rent_t   v_ent;
  rq_ent_t v_rq;   // as the ready queue stores it
  always_comb begin
    v_ent.f        = v_meta.f;
    v_ent.tree     = hp2_hdr_q.tree;
    v_ent.rid      = hp2_hdr_q.rid;
    v_ent.failed   = v_failed;
    v_ent.retry    = v_retry;
    v_ent.root     = hp2_root_q;
    v_ent.lanes    = hp2_lanes_q;
    v_ent.port     = hp2_parent_q;
    v_ent.pay      = !v_failed && v_meta.f.len != '0 && v_meta.has_slot;
    v_ent.has_slot = v_meta.has_slot;
    v_ent.pslot    = v_meta.pslot;
    v_rq.f         = v_ent.f;
    v_rq.tree      = v_ent.tree;
    v_rq.rid       = v_ent.rid;
    v_rq.failed    = v_ent.failed;
    v_rq.retry     = v_ent.retry;
    v_rq.root      = v_ent.root;
    v_rq.route     = v_ent.root ? v_ent.lanes : NumLanes'(v_ent.port);
    v_rq.has_slot  = v_ent.has_slot;
    v_rq.pslot     = v_ent.pslot;
  end
  logic             sg_valid, sg_ready;
  logic [RqEntW:0]  sg_out;
  logic [$clog2(StageDepth):0] unused_sg_count;
  canopy_fifo #(.Width(RqEntW + 1), .Depth(StageDepth)) u_stage (
    .clk_i,
    .rst_i,
    .in_valid_i  (hp2_v_q),
    .in_ready_o  (sg_ready),
    .in_data_i   ({sg_fin_in, RqEntW'(v_rq)}),
    .out_valid_o (sg_valid),
    .out_ready_i (tail_q[5]),
    .out_data_o  (sg_out),
    .count_o     (unused_sg_count)
  );

  // Completed reduces in the staging queue, on their way to the ready queue.
  logic [$clog2(StageDepth):0] sg_fin_q;
  wire logic sg_fin_in = hp2_v_q && v_ok && v_final && !s_early_start;
  always_ff @(posedge clk_i) begin
    if (rst_i) sg_fin_q <= '0;
    else       sg_fin_q <= sg_fin_q + ($clog2(StageDepth) + 1)'(sg_fin_in)
                                    - ($clog2(StageDepth) + 1)'(tail_q[5] && sg_out[RqEntW]);
  end

  localparam int unsigned RqW = $clog2(NumRed);
  logic [RqW:0]     rq_wr_q, rq_rd_q;
  logic [RqEntW-1:0] rq_rdata;
  logic             s_busy_q, s_load_q;
  wire logic rq_push = tail_q[5] && sg_out[RqEntW];
  wire logic rq_pop  = !s_busy_q && !s_load_q && rq_wr_q != rq_rd_q;
  // A ring of NumRed entries (one per reduce, so it cannot overflow): a pop reads an entry
  // pushed earlier, never the slot being pushed (a_ready_collision), so the RAM needs no
  // collision logic.
  canopy_sdp_ram #(.Width(RqEntW), .Depth(NumRed), .CollisionOld(1'b0)) u_ready (
    .clk_i,
    .we_i    (rq_push),
    .waddr_i (rq_wr_q[RqW-1:0]),
    .wdata_i (sg_out[RqEntW-1:0]),
    .re_i    (rq_pop),
    .raddr_i (rq_rd_q[RqW-1:0]),
    .rdata_o (rq_rdata)
  );
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      rq_wr_q <= '0;
      rq_rd_q <= '0;
    end else begin
      if (rq_push) rq_wr_q <= rq_wr_q + 1'b1;
      if (rq_pop)  rq_rd_q <= rq_rd_q + 1'b1;
    end
  end
  `CANOPY_ASSERT(a_ready_collision, !(rq_pop && rq_push && rq_rd_q[RqW-1:0] == rq_wr_q[RqW-1:0]),
                 "the ready queue read the slot being written")

  // ---------------------------------------------------------------- the sender
  // Sends the ready queue's oldest reduce: header words 0 and 1, then its payload read from
  // the accumulator (a second copy of the accumulator memory, written with the first), one
  // word per cycle while the output queue has room; frees the accumulator with the last word.
  logic [1:0]       s_ph_q;     // 0: header word 0, 1: word 1, 2: payload
  logic [WordW:0]   s_idx_q;
  logic [RsvW-1:0]  rsv_q;      // output words reserved: queued or in flight
  logic             s_early_q;  // started at its verdict: payload words as they are written
  logic [WordW:0]   s_wcnt_q;   // its payload words written back so far
  wire logic [WordW:0] s_words = (WordW + 1)'((s_ent_q.f.len + LenW'(7)) >> 3);
  // A payload word of a reduce started early is issued once it has been written back, or
  // in the cycle it is written back: words are written back in order, so that word is
  // s_wcnt_q, and it is taken from the write port (s_byp), not read from the memory.
  wire logic s_byp     = s_early_q && s_ph_q == 2'd2 && wb_v_q && wb_early_q && s_idx_q == s_wcnt_q;
  wire logic s_written = !s_early_q || s_ph_q != 2'd2 || s_idx_q < s_wcnt_q || s_byp;
  wire logic s_issue = s_busy_q && rsv_q != RsvW'(Cap) && s_written;
  wire logic s_last  = s_ph_q == 2'd1 ? !s_ent_q.pay : s_ph_q == 2'd2 && s_idx_q + 1'b1 == s_words;
  assign s_free = s_issue && s_last && s_ent_q.has_slot;
  // Early start: the completing contribution of a good reduce, the sender idle and no
  // completed reduce waiting (so the queue's order is kept and nothing waits longer).
  assign s_early_start = v_ok && v_final && !v_failed && !s_busy_q && !s_load_q
                         && rq_wr_q == rq_rd_q && sg_fin_q == '0;
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      s_busy_q  <= 1'b0;
      s_load_q  <= 1'b0;
      s_early_q <= 1'b0;
    end else begin
      s_load_q <= rq_pop;
      if (s_load_q || s_early_start) begin
        s_busy_q  <= 1'b1;
        s_early_q <= s_early_start;
      end else if (s_issue && s_last) begin
        s_busy_q  <= 1'b0;
        s_early_q <= 1'b0;
      end
    end
  end
  // The ready queue's head as the sender takes it.
  rq_ent_t rq_head;
  rent_t   rq_ent;
  assign rq_head = rq_ent_t'(rq_rdata);
  always_comb begin
    rq_ent.f        = rq_head.f;
    rq_ent.tree     = rq_head.tree;
    rq_ent.rid      = rq_head.rid;
    rq_ent.failed   = rq_head.failed;
    rq_ent.retry    = rq_head.retry;
    rq_ent.root     = rq_head.root;
    rq_ent.lanes    = rq_head.root ? rq_head.route : '0;
    rq_ent.port     = rq_head.root ? '0 : rq_head.route[PortW-1:0];
    rq_ent.pay      = !rq_head.failed && rq_head.f.len != '0 && rq_head.has_slot;
    rq_ent.has_slot = rq_head.has_slot;
    rq_ent.pslot    = rq_head.pslot;
  end
  always_ff @(posedge clk_i) begin
    if (s_load_q || s_early_start) begin
      s_ent_q <= s_early_start ? v_ent : rq_ent;
      s_ph_q  <= 2'd0;
      s_idx_q <= '0;
    end else if (s_issue) begin
      if (s_ph_q != 2'd2) s_ph_q <= s_ph_q + 1'b1;
      else                s_idx_q <= s_idx_q + 1'b1;
    end
    if (s_early_start)            s_wcnt_q <= '0;
    else if (wb_v_q && wb_early_q) s_wcnt_q <= s_wcnt_q + 1'b1;
  end

  canopy_pkg::hdr_t ohdr;
  always_comb begin
    ohdr        = '0;
    ohdr.ptype  = s_ent_q.root ? canopy_pkg::PKT_BCAST_REQ : canopy_pkg::PKT_REDUCE;
    ohdr.dst    = s_ent_q.f.dst;
    ohdr.src    = my_coord_i;
    ohdr.len    = s_ent_q.failed ? '0 : s_ent_q.f.len;
    ohdr.tree   = s_ent_q.tree;
    ohdr.offset = s_ent_q.f.offset;
    ohdr.rid    = s_ent_q.rid;
    ohdr.op     = s_ent_q.f.op;
    ohdr.dtype  = s_ent_q.f.dtype;
    ohdr.group  = s_ent_q.f.group;
    ohdr.rflags[canopy_pkg::RflagAll]    = s_ent_q.f.all;
    ohdr.rflags[canopy_pkg::RflagFailed] = s_ent_q.failed;
    ohdr.rflags[canopy_pkg::RflagResult] = s_ent_q.root;
    ohdr.rflags[canopy_pkg::RflagRetry]  = s_ent_q.failed && s_ent_q.retry;
  end

  logic [63:0] out_rdata;
  // The sender reads a payload word only once it has been written back (a completed
  // reduce's words all are; one started early waits for each, s_written), or takes it
  // from the write port in the cycle it is written (s_byp), so the word it reads is never
  // the one being written (a_out_collision): no collision logic.
  canopy_sdp_ram #(.Width(64), .Depth(PoolSlots * WordsPerId), .CollisionOld(1'b0)) u_acc_out (
    .clk_i,
    .we_i    (wb_v_q),
    .waddr_i (wb_addr_q),
    .wdata_i (wb_d_q),
    .re_i    (1'b1),
    .raddr_i ({s_ent_q.pslot, s_idx_q[WordW-1:0]}),
    .rdata_o (out_rdata)
  );
  // The word issued, a cycle later (with the accumulator word read).
  logic                p1_v_q, p1_ram_q, p1_last_q, p1_root_q;
  logic [63:0]         p1_d_q;   // a header word, or the payload word written back (s_byp)
  logic [NumLanes-1:0] p1_lanes_q;
  logic [PortW-1:0]    p1_port_q;
  logic [TreeIdW-1:0]  p1_tree_q;
  always_ff @(posedge clk_i) begin
    if (rst_i) p1_v_q <= 1'b0;
    else       p1_v_q <= s_issue;
  end
  always_ff @(posedge clk_i) begin
    p1_ram_q   <= s_ph_q == 2'd2 && !s_byp;
    p1_last_q  <= s_last;
    p1_d_q     <= s_byp ? wb_d_q : s_ph_q == 2'd0 ? ohdr[63:0] : ohdr[127:64];
    p1_root_q  <= s_ent_q.root;
    p1_lanes_q <= s_ent_q.lanes;
    p1_port_q  <= s_ent_q.port;
    p1_tree_q  <= s_ent_q.tree;
  end

  // ---------------------------------------------------------------- output queue
  // (registered once more before the queue)
  logic            o_push, o_push_q;
  logic [OutW-1:0] o_in, o_in_q;
  assign o_push = p1_v_q;
  assign o_in   = {p1_lanes_q, p1_tree_q, p1_root_q, p1_port_q, p1_last_q, p1_ram_q ? out_rdata : p1_d_q};
  always_ff @(posedge clk_i) begin
    if (rst_i) o_push_q <= 1'b0;
    else       o_push_q <= o_push;
  end
  always_ff @(posedge clk_i) o_in_q <= o_in;

  // The queue offers the output's flit (up lane or result) straight from its RAM and only
  // registers the grant or ready (o_pop: last cycle's flit was taken).
  logic            o_valid, o_pop;
  logic [OutW-1:0] o_shown;
  logic            unused_taken;
  // {tree, result, port, last}, what the up lane's request and the result's slot are made
  // of, from registers (the queue's side field), so neither starts at a RAM read.
  logic [SideW-1:0] o_side;
  canopy_grant_fifo #(.Width(OutW), .Depth(OutBufDepth), .TagW(1), .SideLsb(64), .SideW(SideW)) u_out (
    .clk_i,
    .rst_i,
    .push_i      (o_push_q),
    .push_next_i (o_push),
    .push_data_i (o_in_q),
    .out_valid_o (o_valid),
    .out_data_o  (o_shown),
    .grant_i     (up_grant_i || res_ready_i),
    .taken_o     (o_pop),
    .taken_tag_o (unused_taken),
    .out_side_o  (o_side)
  );
  wire logic o_res = o_side[PortW + 1];
  assign up_valid_o  = o_valid && !o_res;
  assign up_flit_o   = o_shown[63:0];
  assign up_last_o   = o_side[0];
  assign up_port_o   = o_side[1 +: PortW];
  assign res_valid_o = o_valid && o_res;
  assign res_flit_o  = o_shown[63:0];
  assign res_last_o  = o_side[0];
  assign res_tree_o  = o_side[PortW + 2 +: TreeIdW];
  wire logic unused_shown_side = ^o_shown[64 +: SideW];  // taken from o_side
  assign res_lanes_o = o_shown[OutW-1 -: NumLanes];

  // ---------------------------------------------------------------- reservations
  // A word is issued only while everything issued has room in the output queue.
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      rsv_q <= '0;
    end else begin
      case ({s_issue, o_pop})
        2'b10:   rsv_q <= rsv_q + 1'b1;
        2'b01:   rsv_q <= rsv_q - 1'b1;
        default: rsv_q <= rsv_q;
      endcase
    end
  end

  `CANOPY_ASSERT(a_rsv_bound, 32'(rsv_q) <= Cap, "reduce output reservations above capacity")
  `CANOPY_ASSERT(a_pop_valid, !up_grant_i || up_valid_o, "up lane granted with nothing to send")
  `CANOPY_ASSERT(a_res_valid, !res_ready_i || res_valid_o, "result taken with nothing to take")
  `CANOPY_ASSERT(a_hdr_spacing, !(f_w1 && hp1_v_q), "two packets' word 1 in consecutive cycles")
  `CANOPY_ASSERT(a_stage_room, !hp2_v_q || sg_ready, "reduce staging queue overflow")
  `CANOPY_ASSERT(a_stage_tail, !tail_q[5] || sg_valid, "a packet's tail without its verdict")
  `CANOPY_ASSERT(a_ready_room, !rq_push || (rq_wr_q - rq_rd_q) < (RqW + 1)'(NumRed),
                 "more completed reduces waiting than (tree, id) pairs")
  `CANOPY_ASSERT(a_out_collision, !(s_issue && s_ph_q == 2'd2 && !s_byp && wb_v_q
                                    && wb_addr_q == {s_ent_q.pslot, s_idx_q[WordW-1:0]}),
                 "the sender issued the accumulator word being written back")
  `CANOPY_ASSERT(a_send_pay, !(s_busy_q && s_ent_q.pay) || s_words != '0, "a payload of no words")
  `CANOPY_ASSERT(a_fdiff, !hp2_v_q || hp2_fdiff_q == (hp2_meta_q.f != hf),
                 "the registered field comparison disagrees with the state it was made for")
  `CANOPY_ASSERT(a_early_idle, !s_early_start || !(s_busy_q || s_load_q || rq_pop),
                 "a reduce started early while the sender is busy")
  `CANOPY_ASSERT(a_early_words, !(wb_v_q && wb_early_q && s_early_q) || s_wcnt_q < s_words,
                 "more payload words written back than the reduce started early has")
  `CANOPY_ASSERT(a_early_owner, !(wb_v_q && wb_early_q) || s_early_q,
                 "a word of a reduce started early written back after its sender finished")
  `CANOPY_ASSERT(a_byp_addr, !s_byp || wb_addr_q == {s_ent_q.pslot, s_idx_q[WordW-1:0]},
                 "the word taken from the write port is not the one the sender is at")
endmodule

`default_nettype wire
