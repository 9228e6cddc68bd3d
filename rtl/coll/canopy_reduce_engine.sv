// canopy_reduce_engine: the router's reduce engine (seed 002): per tree, NumIds reduces in
// flight, each combining its host's contribution and every child's, element by element.
//
// Interface contract
//   - in_*: REDUCE packets (valid/ready, whole packets in order) from the collective port's
//     COLL_UP queue; in_port_i is the router input each came from.
//   - look_idx_o / look_i: a read port of the routing table.
//   - out_*: packets leaving the engine (valid/ready): a combined contribution for the
//     parent (out_result_o = 0: send on COLL_UP through router port out_port_o), or, at
//     the root, the result (out_result_o = 1: a BCAST_REQ with rflags RESULT for the
//     collective unit, which sends it down the tree like any broadcast).
//   - err_reduce_o: a contribution refused or disagreeing (op, dtype, len, offset, dst or
//     ALL differ from the reduce's first contribution; a second one from the same port;
//     an unknown op or dtype; len not a multiple of the element size): the reduce still
//     completes, with rflags FAILED. err_dir_o: a contribution not from a child's port
//     nor from a member host (dropped: it cannot be attributed). err_tree_o: tree not
//     implemented or invalid (dropped). One pulse each.
//
// One packet at a time: header (2 words), then the payload streamed through a read-modify-
// write of the accumulator (one word per cycle: the accumulator memory's registered read
// overlaps the previous word's write). The first contribution of a reduce is stored, the
// others combined. When every expected contribution is in (the children's ports and, for
// a member host, the local port), the accumulator is sent on and the id is free again.
// Flow control needs no credits: each (tree, id) has its accumulator, every port sends one
// contribution per id, and hosts reuse an id only after its result has come back (the
// driver's limit of NumIds in flight per tree).
`default_nettype none
`include "canopy_assert.svh"

module canopy_reduce_engine #(
  parameter int unsigned NumDims  = 0,   /// torus dimensions, 1..4; must be set
  parameter int unsigned NumTrees = 16,  /// routing table entries
  parameter int unsigned NumIds   = 32,  /// reduces in flight per tree (rid field: up to 32)
  localparam int unsigned NumLinks = 2 * NumDims,
  localparam int unsigned NumLanes = NumLinks + 1,
  localparam int unsigned PortW = $clog2(NumLanes + 1),
  localparam int unsigned TreeIdW = canopy_pkg::HdrTreeBits
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

  output logic                          out_valid_o,
  output logic [63:0]                   out_flit_o,
  output logic                          out_last_o,
  output logic [PortW-1:0]              out_port_o,
  output logic                          out_result_o,
  input  wire logic                     out_ready_i,

  output logic                          err_reduce_o,
  output logic                          err_dir_o,
  output logic                          err_tree_o
);
  localparam int unsigned LocalPort = NumLinks;
  localparam int unsigned WordsPerId = canopy_pkg::MaxPayloadBytes / 8;
  localparam int unsigned WordW  = $clog2(WordsPerId);
  localparam int unsigned TreeW  = NumTrees > 1 ? $clog2(NumTrees) : 1;
  localparam int unsigned RidW   = canopy_pkg::HdrRidBits;
  localparam int unsigned IdW    = TreeW + RidW;          // (tree, rid)
  localparam int unsigned NumRed = NumTrees * (1 << RidW);
  localparam int unsigned AccW   = IdW + WordW;
  localparam int unsigned LenW   = canopy_pkg::HdrLenBits;
  localparam int unsigned OutW   = 1 + PortW + 1 + 64;    // {result, port, last, flit}

  `CANOPY_STATIC_ASSERT(gen_ids_check, NumIds == (1 << canopy_pkg::HdrRidBits),
                        "NumIds must match the rid field (32)")

  // ---------------------------------------------------------------- per-reduce state
  // Kept in a memory (read in SMeta, written in SUpdate); `active` in flops so reset
  // clears every reduce.
  typedef struct packed {
    logic [NumLanes-1:0] mask;      // ports whose contribution is in
    logic                failed;
    logic [2:0]          op;
    logic [2:0]          dtype;
    logic [LenW-1:0]     len;
    logic                all;
    logic [39:0]         offset;
    logic [15:0]         dst;
    logic [7:0]          group;
  } meta_t;
  localparam int unsigned MetaW = NumLanes + 1 + 3 + 3 + LenW + 1 + 40 + 16 + 8;

  logic [NumRed-1:0] active_q;

  typedef enum logic [3:0] {
    SIdle, SHdr1, SMeta, SData, SDrain, SUpdate, SEmit0, SEmit1, SEmitData
  } state_e;
  state_e state_q;

  logic [63:0]        hdr0_q, hdr1_q;
  logic [PortW-1:0]   port_q;
  logic               ended_q;        // the packet's tail has been consumed
  meta_t              meta_q;         // the reduce's state, updated by this packet
  logic               first_q;
  logic               root_q;
  logic [NumLanes-1:0] expect_q;
  logic [WordW:0]     widx_q;         // payload words handled / emitted
  logic [WordW:0]     pay_words_q;
  logic               v_keep_q;       // a refused but attributable contribution still counts

  function automatic logic combine_q_d(input logic dup, input logic bad, input logic mismatch);
    combine_q_d = !dup && !bad && !mismatch;
  endfunction

  /* verilator lint_off UNUSEDSIGNAL */  // the fields an engine reads
  canopy_pkg::hdr_t h, hq;
  /* verilator lint_on UNUSEDSIGNAL */
  assign h  = canopy_pkg::hdr_t'({in_flit_i, hdr0_q});   // in SHdr1: word 1 arriving
  assign hq = canopy_pkg::hdr_t'({hdr1_q, hdr0_q});

  wire logic [IdW-1:0] cur_id = {hq.tree[TreeW-1:0], hq.rid};
  assign look_idx_o = hq.tree;

  // ---------------------------------------------------------------- memories
  logic [MetaW-1:0] meta_rdata;
  logic             meta_we;
  meta_t            meta_wdata;
  canopy_sdp_ram #(.Width(MetaW), .Depth(NumRed)) u_meta (
    .clk_i,
    .we_i    (meta_we),
    .waddr_i (cur_id),
    .wdata_i (MetaW'(meta_wdata)),
    .re_i    (state_q == SHdr1),
    .raddr_i ({h.tree[TreeW-1:0], h.rid}),
    .rdata_o (meta_rdata)
  );

  logic             acc_we, acc_re;
  logic [AccW-1:0]  acc_waddr, acc_raddr;
  logic [63:0]      acc_wdata, acc_rdata;
  canopy_sdp_ram #(.Width(64), .Depth(NumRed * WordsPerId)) u_acc (
    .clk_i,
    .we_i    (acc_we),
    .waddr_i (acc_waddr),
    .wdata_i (acc_wdata),
    .re_i    (acc_re),
    .raddr_i (acc_raddr),
    .rdata_o (acc_rdata)
  );

  // Read-modify-write pipeline: a payload word popped now is combined next cycle with the
  // accumulator word read now.
  logic             pv_q;
  logic [63:0]      pflit_q;
  logic [WordW-1:0] pidx_q;
  logic [63:0]      alu_y;
  canopy_reduce_alu u_alu (
    .a_i     (acc_rdata),
    .b_i     (pflit_q),
    .op_i    (meta_q.op),
    .dtype_i (meta_q.dtype),
    .y_o     (alu_y)
  );
  assign acc_we    = pv_q;
  assign acc_waddr = {cur_id, pidx_q};
  assign acc_wdata = first_q ? pflit_q : alu_y;

  // ---------------------------------------------------------------- the verdict (SMeta)
  meta_t stored;
  assign stored = meta_t'(meta_rdata);
  logic  v_tree_ok, v_dir_ok, v_first, v_dup, v_bad, v_mismatch;
  logic [NumLanes-1:0] v_expect, v_port_bit;
  meta_t v_meta;
  always_comb begin
    logic [3:0] esize;
    v_port_bit = NumLanes'(1) << port_q;
    v_tree_ok  = {1'b0, hq.tree} < (TreeIdW + 1)'(NumTrees) && look_i.valid;
    v_dir_ok   = port_q == PortW'(LocalPort)
                 ? (!look_i.transit && look_i.groups[hq.group[2:0]] && hq.group < 8'(canopy_pkg::MaxGroups))
                 : (port_q < PortW'(NumLinks) && look_i.children[3'(port_q)]);
    v_expect   = '0;
    v_expect[NumLinks-1:0] = look_i.children[NumLinks-1:0];
    v_expect[LocalPort]    = !look_i.transit && look_i.groups[hq.group[2:0]];
    v_first    = !active_q[cur_id];
    v_dup      = !v_first && (stored.mask & v_port_bit) != '0;
    esize      = (hq.dtype == canopy_pkg::DT_I32 || hq.dtype == canopy_pkg::DT_U32) ? 4'd4 : 4'd8;
    v_bad      = hq.op > canopy_pkg::OP_MAX || hq.dtype > canopy_pkg::DT_U64
                 || (hq.len & (LenW'(esize) - 1'b1)) != '0;
    // A contribution that already failed below is not compared again: the disagreement
    // was counted where the contributions met.
    v_mismatch = !v_first && !hq.rflags[canopy_pkg::RflagFailed] && (stored.op != hq.op || stored.dtype != hq.dtype || stored.len != hq.len
                              || stored.all != hq.rflags[canopy_pkg::RflagAll]
                              || stored.offset != hq.offset || stored.dst != hq.dst
                              || stored.group != hq.group);
    v_meta = v_first ? '0 : stored;
    if (v_first) begin
      v_meta.op     = hq.op;
      v_meta.dtype  = hq.dtype;
      v_meta.len    = hq.len;
      v_meta.all    = hq.rflags[canopy_pkg::RflagAll];
      v_meta.offset = hq.offset;
      v_meta.dst    = hq.dst;
      v_meta.group  = hq.group;
    end
    if (!v_dup) v_meta.mask = v_meta.mask | v_port_bit;
    v_meta.failed = v_meta.failed || v_dup || v_bad || v_mismatch || hq.rflags[canopy_pkg::RflagFailed];
  end

  // ---------------------------------------------------------------- output queue
  logic             oq_push, oq_valid;
  logic [OutW-1:0]  oq_in, oq_out;
  logic [$clog2(4):0] oq_count;
  logic             unused_oq_ready;
  canopy_fifo #(.Width(OutW), .Depth(4)) u_out (
    .clk_i,
    .rst_i,
    .in_valid_i  (oq_push),
    .in_ready_o  (unused_oq_ready),
    .in_data_i   (oq_in),
    .out_valid_o (oq_valid),
    .out_ready_i (out_ready_i),
    .out_data_o  (oq_out),
    .count_o     (oq_count)
  );
  assign out_valid_o  = oq_valid;
  assign out_flit_o   = oq_out[63:0];
  assign out_last_o   = oq_out[64];
  assign out_port_o   = oq_out[65 +: PortW];
  assign out_result_o = oq_out[OutW-1];

  // Emission reads the accumulator ahead into the queue.
  logic        ev_q, elast_q;      // a read issued last cycle, and whether it was the last word
  wire logic   oq_room = 32'(oq_count) + 32'(ev_q) < 3;
  canopy_pkg::hdr_t ohdr;          // the header sent on
  always_comb begin
    ohdr        = hq;
    ohdr.ptype  = root_q ? canopy_pkg::PKT_BCAST_REQ : canopy_pkg::PKT_REDUCE;
    ohdr.op     = meta_q.op;
    ohdr.dtype  = meta_q.dtype;
    ohdr.len    = meta_q.len;
    ohdr.offset = meta_q.offset;
    ohdr.dst    = meta_q.dst;
    ohdr.group  = meta_q.group;
    ohdr.flags  = '0;
    ohdr.src    = my_coord_i;
    ohdr.rflags = '0;
    ohdr.rflags[canopy_pkg::RflagAll]    = meta_q.all;
    ohdr.rflags[canopy_pkg::RflagFailed] = meta_q.failed;
    ohdr.rflags[canopy_pkg::RflagResult] = root_q;
  end
  wire logic [PortW-1:0] oport = PortW'(look_i.parent);

  // ---------------------------------------------------------------- control
  wire logic   emit_read = state_q == SEmitData && widx_q < pay_words_q && oq_room;

  always_comb begin
    in_ready_o = 1'b0;
    acc_re     = 1'b0;
    acc_raddr  = {cur_id, WordW'(0)};
    meta_we    = 1'b0;
    meta_wdata = meta_q;
    oq_push    = ev_q;
    oq_in      = {root_q, oport, elast_q, acc_rdata};
    unique case (state_q)
      SIdle, SHdr1, SDrain: in_ready_o = 1'b1;
      SData: begin
        in_ready_o = 1'b1;
        acc_re     = in_valid_i;
        acc_raddr  = {cur_id, widx_q[WordW-1:0]};
      end
      SUpdate: begin
        meta_we    = 1'b1;
      end
      SEmit0: begin
        oq_push = oq_room;
        oq_in   = {root_q, oport, 1'b0, 64'(ohdr)};
      end
      SEmit1: begin
        oq_push = oq_room;
        oq_in   = {root_q, oport, pay_words_q == '0, ohdr[127:64]};
      end
      SEmitData: begin
        acc_re    = emit_read;
        acc_raddr = {cur_id, widx_q[WordW-1:0]};
      end
      default: ;
    endcase
  end

  wire logic [WordW:0] len_words = (WordW + 1)'((hq.len + LenW'(7)) >> 3);

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      state_q  <= SIdle;
      active_q <= '0;
      pv_q     <= 1'b0;
      ev_q     <= 1'b0;
    end else begin
      pv_q <= 1'b0;
      ev_q <= emit_read;
      unique case (state_q)
        SIdle: if (in_valid_i) state_q <= SHdr1;
        SHdr1: if (in_valid_i) state_q <= SMeta;
        SMeta: begin
          if (!v_tree_ok || !v_dir_ok) state_q <= ended_q ? SIdle : SDrain;
          else if (combine_q_d(v_dup, v_bad, v_mismatch) && !ended_q) state_q <= SData;
          else state_q <= ended_q ? SUpdate : SDrain;
        end
        SData: if (in_valid_i) begin
          pv_q <= 1'b1;
          if (in_last_i) state_q <= SUpdate;
        end
        SDrain: if (in_valid_i && in_last_i) state_q <= (v_keep_q ? SUpdate : SIdle);
        SUpdate: begin
          active_q[cur_id] <= 1'b1;
          if (meta_q.mask == expect_q) state_q <= SEmit0;
          else state_q <= SIdle;
        end
        SEmit0: if (oq_room) state_q <= SEmit1;
        SEmit1: if (oq_room) state_q <= pay_words_q == '0 ? SIdle : SEmitData;
        SEmitData: if (emit_read && widx_q + 1'b1 == pay_words_q) state_q <= SIdle;
        default: state_q <= SIdle;
      endcase
      // An id is free again once its accumulator has been sent on.
      if ((state_q == SEmit1 && oq_room && pay_words_q == '0)
          || (state_q == SEmitData && emit_read && widx_q + 1'b1 == pay_words_q)) begin
        active_q[cur_id] <= 1'b0;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    unique case (state_q)
      SIdle: if (in_valid_i) begin
        hdr0_q  <= in_flit_i;
        port_q  <= in_port_i;
        ended_q <= in_last_i;
      end
      SHdr1: if (in_valid_i) begin
        hdr1_q  <= in_flit_i;
        ended_q <= in_last_i;
      end
      SMeta: begin
        meta_q      <= v_meta;
        first_q     <= v_first;
        root_q      <= look_i.root;
        expect_q    <= v_expect;
        v_keep_q    <= v_tree_ok && v_dir_ok;
        widx_q      <= '0;
        pay_words_q <= len_words;
      end
      SData: if (in_valid_i) widx_q <= widx_q + 1'b1;
      SUpdate: begin
        widx_q      <= '0;
        pay_words_q <= (WordW + 1)'((meta_q.len + LenW'(7)) >> 3);
      end
      SEmitData: if (emit_read) widx_q <= widx_q + 1'b1;
      default: ;
    endcase
    pflit_q <= in_flit_i;
    pidx_q  <= widx_q[WordW-1:0];
    elast_q <= widx_q + 1'b1 == pay_words_q;
  end

  assign err_tree_o   = state_q == SMeta && !v_tree_ok;
  assign err_dir_o    = state_q == SMeta && v_tree_ok && !v_dir_ok;
  assign err_reduce_o = state_q == SMeta && v_tree_ok && v_dir_ok && (v_dup || v_bad || v_mismatch);

  wire logic unused = unused_oq_ready;

  `CANOPY_ASSERT(a_no_overrun, !(state_q == SData && in_valid_i) || widx_q < pay_words_q,
                 "reduce contribution longer than its len")
endmodule

`default_nettype wire
