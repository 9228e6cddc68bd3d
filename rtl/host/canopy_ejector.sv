// canopy_ejector: what the host interface does with each packet the router delivers.
//
// Interface contract
//   - ej_* / ej_credit_o: the router's local output (its tx side), buffered per VC by
//     canopy_ej_buffer (EjectCredits flits per VC, one credit returned per flit consumed),
//     which hands whole packets one at a time to canopy_ej_parser, which queues each
//     packet's header (with its window check and source index) apart from its payload.
//   - win_*, ej_base_i, ej_entries_i: the registration CSRs (static while traffic targets
//     the node). ej_head_we_i / ej_head_i: the EJ_HEAD doorbell and its value; accepted
//     only if it moves forward by at most the entries issued, else err_doorbell_o.
//   - req_* / data_*: requests to canopy_dma_writer (valid/ready) and their payload words
//     (this block's data source: the writer reads it only while working on one of this
//     block's requests, in order). done_*: every DMA completion tag; this block acts on
//     kinds DmaPutOk, DmaPutFail, DmaEntry, DmaBcast, DmaCfg*, DmaGetLast, DmaGetFail and
//     DmaGetMark and ignores the rest.
//   - ack_*: one pulse per acknowledgement owed (to canopy_ack_table), taken on the DMA
//     completion of the put (a refused put completes as a zero-length request, in order).
//   - gpush_* / gpush_ok_i: an arriving GET request offered to canopy_get_table (its
//     answer, taken or dropped, comes in the same cycle, never waited for; gpush_idx_o
//     holds the source's index from SDecide on, a cycle before the offer, as the table's
//     registered lookup requires); gmark_o: the DMA marker of a taken request has
//     completed.
//   - torus_size_i: the torus size (table indices of GET sources and GET_RESP targets).
//     get_wb_base_i: GET_WB_BASE; per-target get completion counts restart while it is 0.
//   - Event pulses (rx_flit_o, rx_pkt_o: every flit / packet delivered, ACKs included;
//     rx_put_o; ej_written_o: an entry's write completed; get_resp_o: a GET_RESP delivered;
//     get_done_o / get_failed_o: a get of this node completed (refused); err_*), and acked_add_o /
//     failed_add_o (an arriving ACK's counts, zero otherwise), for the counters.
//   - ej_full_o: the ejection ring is full (STATUS.ej_full).
//
// Per packet, one at a time: its header (from the parser's queue, taken the cycle the
// previous packet is done), a decision cycle, which for a payload inside the window (PUT,
// BCAST, GET_RESP) also offers the DMA request, then
//   PUT inside the window: DMA write of the payload to WIN_BASE + offset (words stream
//     from the payload queue into the writer), then, with NOTIFY, an ejection ring entry.
//   PUT outside the window (or no window): ERR_DMA_BOUNDS, payload discarded, with ACK_REQ
//     a zero-length DMA request whose completion owes a failed ACK, and a BOUNDS entry.
//   ACK: its counts go to PUTS_ACKED / PUTS_FAILED.
//   BCAST (a copy the router's collective unit sent this host): like a PUT without an
//     ACK (inside the window: DMA write of the payload, RX_BCASTS; outside: ERR_DMA_BOUNDS
//     and a BOUNDS entry), then the tree's completion counter (every broadcast packet
//     delivered, refused ones too, so a waiting host never hangs) is incremented and, if
//     COLL_WB_BASE is set, written to COLL_WB_BASE + 8 * tree after the payload; then,
//     with NOTIFY, an entry.
//     An empty broadcast (a barrier's result is one) has nothing to write: with its header
//     all there is of it and a counter write to follow, it goes straight to that write,
//     which then carries the broadcast's DMA kind (RX_BCASTS counts on its completion, as
//     it would on a zero-length marker's, in order after every earlier write) and saves
//     the marker's two cycles on every barrier.
//   BCAST with rflags RESULT (a reduce's result): the payload is written only if the
//     reduce did not fail and it is for this node (rflags ALL, or dst = this node); then,
//     instead of the broadcast counter, the status word of (tree, rid) at COLL_WB_BASE +
//     8 * (64 + 32 * tree + rid) := {failed (bit 63), refused for lack of accumulator
//     memory, to be re-issued (bit 62: FAILED and RETRY), results of the tree so far
//     (31..0)} (result_o pulses).
//   BCAST with SKIP_SRC at its source: counted, not written (the source learns its
//     broadcast has passed the root).
//   CONFIG: entry `tree` of the router's collective table := offset bits 31..0, through
//     the table's write port (tbl_*; CSR writes have it first: tbl_busy_i); a refusal
//     counts (err_tree_write_o); with ACK_REQ a zero-length DMA marker whose completion
//     owes an ACK, failed if refused.
//   GET (a request for this node's window): its payload word is read; if its source lies
//     inside the torus and holds fewer than the table's bound of requests here, it is
//     taken (checked against the window: outside it, or a get_len of 0 or above
//     MaxGetBytes, or a reply range past 2^40, it is taken as refused, ERR_GET_BOUNDS) and
//     a zero-length DMA marker follows (gmark_o on its completion); else it is dropped
//     (ERR_GET_DROPPED), as is a GET whose len is not 8 or 24. Never an ejection ring entry.
//   GET with len 24 (an atomic): its three payload words (request word, operand, compare)
//     are read and the request is taken or dropped like a get (refused also when get_len
//     is not 4 or 8, the offset is not a multiple of it, or amo_op is unknown); the table
//     offers it to canopy_amo_unit.
//   GET_RESP (data of this node's get): like a PUT without an ACK (inside the window:
//     the payload is written; outside: ERR_DMA_BOUNDS, nothing written); with LAST, the
//     get completes: GETS_DONE (and GETS_FAILED if FAILED or refused here) on the DMA
//     completion, and the target's completion count (per target node, kept here) is
//     incremented and written to GET_WB_BASE + 8 * (the target's linear number) after
//     the payload. A FAILED one before the last (the target's host refused a read) writes
//     nothing and counts in GETS_FAILED at once (a marker). Never an ejection ring entry.
//   anything else: an UNSUPPORTED entry.
// A DMA write the host refuses (done_err_i) completes what it carried as failed (below).
// An entry is written only while the ring has room (entries issued - EJ_HEAD <
// EJ_ENTRIES); the ejector waits for room, and with it the router's ejection. With no
// ring (EJ_ENTRIES 0) the entry is dropped and counts in ERR_EJ_NORING (for a refused put
// too, besides ERR_DMA_BOUNDS). The ejector never waits for the ACK generator.
// A packet shorter than its len is padded with zero bytes, a longer one truncated to len
// (only a faulty link can deliver either: the injection port checks every tail), and
// what it carried fails: such a packet is one a dying link cut (canopy_link_closer),
// and whatever of it is filler must never pass for the sender's data
// (docs/host-interface.md, "Packets a dying link cut"). Its second header word filler
// (the parser's hdr_bad): nothing of it is acted on; a PUT or CONFIG with ACK_REQ is
// acknowledged as failed, a GET answered FAILED, a GET_RESP fails its get, a BCAST is not
// counted and stops its tree's counter (the hosts waiting on it time out). Its tail
// where len says it is not (a payload word marked bad): the payload is written but the
// write completes as failed (data_poison_o: the DMA writer fails it), so a put's ACK says
// FAILED and a get fails; a GET or atomic is refused (answered FAILED); a broadcast is
// not counted and stops its tree's counter, a reduce result's status word says FAILED.
`default_nettype none
`include "canopy_assert.svh"

module canopy_ejector #(
  parameter int unsigned NumVcs       = 4,   /// VCs of the router's local port
  parameter int unsigned EjectCredits = 16,  /// router credits toward the host per VC: the buffer per VC, a power of two >= 2
  parameter int unsigned NumTrees     = 16,  /// completion counters, one per collective tree
  parameter int unsigned MaxNodes     = 256, /// get table / per-target count entries, a power of two 4..4096
  localparam int unsigned IdW = $clog2(MaxNodes),
  localparam int unsigned VcW = $clog2(NumVcs),
  localparam int unsigned TagW = canopy_host_pkg::DmaTagBits,
  localparam int unsigned LenW = canopy_host_pkg::DmaLenBits,
  localparam int unsigned CntW = canopy_host_pkg::AckCountBits
) (
  input  wire logic                clk_i,
  input  wire logic                rst_i,

  input  wire logic                ej_valid_i,
  input  wire logic [63:0]         ej_flit_i,
  input  wire logic                ej_last_i,
  input  wire logic [VcW-1:0]      ej_vc_i,
  output logic      [NumVcs-1:0]   ej_credit_o,

  input  wire logic [63:0]         win_base_i,
  input  wire logic [63:0]         win_size_i,
  input  wire logic [63:0]         ej_base_i,
  input  wire logic [63:0]         ej_entries_i,
  input  wire logic                ej_head_we_i,
  input  wire logic [63:0]         ej_head_i,
  input  wire logic [63:0]         coll_wb_base_i,
  input  wire logic                coll_wb_set_i,   // coll_wb_base_i != 0, a flip-flop
  input  wire canopy_pkg::coords_t my_coord_i,
  input  wire logic [canopy_pkg::MaxDims-1:0][canopy_pkg::CoordBits:0] torus_size_i,
  input  wire logic [63:0]         get_wb_base_i,
  input  wire logic                get_wb_set_i,    // get_wb_base_i != 0, a flip-flop

  output logic                     gpush_valid_o,
  output logic [IdW-1:0]           gpush_idx_o,
  output canopy_host_pkg::get_entry_t gpush_entry_o,
  input  wire logic                gpush_ok_i,
  output logic                     gmark_o,

  output logic                     tbl_we_o,
  output logic [canopy_pkg::HdrTreeBits-1:0] tbl_widx_o,
  output canopy_pkg::tree_entry_t  tbl_wentry_o,
  input  wire logic                tbl_wok_i,
  input  wire logic                tbl_busy_i,
  input  wire logic                cnt_clear_i,
  input  wire logic [canopy_pkg::HdrTreeBits-1:0] cnt_clear_idx_i,

  output logic                     req_valid_o,
  input  wire logic                req_ready_i,
  output logic      [63:0]         req_addr_o,
  output logic      [LenW-1:0]     req_len_o,
  output logic      [TagW-1:0]     req_tag_o,
  output logic                     data_valid_o,
  input  wire logic                data_ready_i,
  output logic      [63:0]         data_o,
  output logic                     data_poison_o,  // with data_o: the word is not the sender's
  input  wire logic                done_valid_i,
  input  wire logic [TagW-1:0]     done_tag_i,
  input  wire logic                done_err_i,

  output logic                     ack_valid_o,
  output logic                     ack_ok_o,
  output canopy_pkg::coords_t      ack_src_o,

  output logic                     rx_flit_o,
  output logic                     rx_pkt_o,
  output logic                     rx_put_o,
  output logic                     rx_bcast_o,
  output logic                     result_o,
  output logic                     get_resp_o,
  output logic                     get_done_o,
  output logic                     get_failed_o,
  output logic                     err_get_bounds_o,
  output logic                     err_get_dropped_o,
  output logic                     err_tree_write_o,
  output logic                     ej_written_o,
  output logic      [CntW-1:0]     acked_add_o,
  output logic      [CntW-1:0]     failed_add_o,
  output logic                     err_dma_bounds_o,
  output logic                     err_ej_noring_o,
  output logic                     err_doorbell_o,
  output logic                     ej_full_o
);
  localparam int unsigned WordsW = $clog2(canopy_pkg::MaxPayloadBytes / 8 + 1);

  // ---------------------------------------------------------------- arrivals
  logic        buf_valid, buf_ready, buf_last;
  logic [63:0] buf_flit;

  canopy_ej_buffer #(.NumVcs(NumVcs), .EjectCredits(EjectCredits), .FlitWidth(64)) u_buffer (
    .clk_i,
    .rst_i,
    .ej_valid_i,
    .ej_flit_i,
    .ej_last_i,
    .ej_vc_i,
    .ej_credit_o,
    .out_valid_o (buf_valid),
    .out_ready_i (buf_ready),
    .out_flit_o  (buf_flit),
    .out_last_o  (buf_last)
  );

  // Headers and payloads apart: front_* is the payload of the packet being worked on.
  logic           hq_valid, hq_take, hq_ended, hq_in_win, hq_src_ok, hq_bad;
  logic [63:0]    hq_hdr0, hq_hdr1;
  logic [IdW-1:0] hq_src_idx;
  logic           front_valid, front_last, front_bad, pop_front;
  logic [63:0]    front_flit;
  canopy_ej_parser #(.MaxNodes(MaxNodes)) u_parser (
    .clk_i,
    .rst_i,
    .in_valid_i    (buf_valid),
    .in_ready_o    (buf_ready),
    .in_flit_i     (buf_flit),
    .in_last_i     (buf_last),
    .win_size_i,
    .torus_size_i,
    .hdr_valid_o   (hq_valid),
    .hdr_ready_i   (hq_take),
    .hdr0_o        (hq_hdr0),
    .hdr1_o        (hq_hdr1),
    .hdr_ended_o   (hq_ended),
    .hdr_in_win_o  (hq_in_win),
    .hdr_src_idx_o (hq_src_idx),
    .hdr_src_ok_o  (hq_src_ok),
    .hdr_bad_o     (hq_bad),
    .pay_valid_o   (front_valid),
    .pay_ready_i   (pop_front),
    .pay_flit_o    (front_flit),
    .pay_last_o    (front_last),
    .pay_bad_o     (front_bad)
  );

  typedef enum logic [3:0] {
    SHdr, SDecide, SReq, SData, SDiscard, SEntry, SEntryData, SConfig, SCount,
    SCountData, SGetWord, SAmoWord, SGetPush
  } state_e;
  state_e state_q, state_d;

  // ---------------------------------------------------------------- packet state
  logic [63:0]       hdr0_q, hdr0_d, hdr1_q, hdr1_d;
  logic              ended_q, ended_d;     // the packet's tail flit has been consumed
  logic              in_win_q, in_win_d;   // a nonzero window holds offset + len (the parser's)
  logic              hbad_q, hbad_d;       // its second header word is filler (the parser's hdr_bad)
  logic              pbad_q, pbad_d;       // that, or a payload word read so far was marked bad
  logic [NumTrees-1:0] tree_bad_q;         // a broadcast of the tree was cut: its counter stops
  logic              put_ok_q, put_ok_d;   // PUT (or BCAST) inside the window
  logic              count_q, count_d;     // a completion counter write is owed
  logic              cnt_req_q, cnt_req_d; // its request was taken already, while the payload streamed
  logic              cfg_ok_q, cfg_ok_d;   // the CONFIG entry was accepted
  logic              cnt_bcast_q, cnt_bcast_d;  // the counter write stands for an empty broadcast's marker
  logic [NumTrees-1:0][31:0] tree_cnt_q;   // broadcast packets delivered, per tree
  logic [NumTrees-1:0][31:0] res_cnt_q;    // reduce results delivered, per tree
  logic [31:0]       cnt_sel, res_sel;     // the current packet's tree's counters
  logic              tbad_sel;             // and whether its broadcast counter has stopped
  logic              entry_q, entry_d;     // an ejection ring entry is owed
  logic [7:0]        status_q, status_d;
  logic [WordsW-1:0] words_q, words_d;     // payload words handed to the writer
  logic [1:0]        ent_idx_q, ent_idx_d; // entry words handed to the writer
  logic [63:0]       n_q, n_d;             // ejection ring entries issued
  logic [63:0]       head_q, head_d;       // host's consumer count (EJ_HEAD), accepted
  logic              amo_q, amo_d;         // the GET is an atomic (len 24)
  logic              aw_q, aw_d;           // atomic: its request word has been read
  logic [63:0]       areq_q, areq_d;       // the request word (a GET's or an atomic's)
  logic [63:0]       aopnd_q, aopnd_d;     // atomic: its operand
  logic [63:0]       acmp_q, acmp_d;       // atomic: its compare value

  /* verilator lint_off UNUSEDSIGNAL */  // the fields that matter here, as in canopy_router_input
  canopy_pkg::hdr_t hdr;
  /* verilator lint_on UNUSEDSIGNAL */
  assign hdr = canopy_pkg::hdr_t'({hdr1_q, hdr0_q});

  wire logic is_put  = hdr.ptype == canopy_pkg::PKT_PUT;
  wire logic is_ack  = hdr.ptype == canopy_pkg::PKT_ACK;
  wire logic is_bcast  = hdr.ptype == canopy_pkg::PKT_BCAST;
  wire logic is_result = is_bcast && hdr.rflags[canopy_pkg::RflagResult];
  wire logic res_failed = hdr.rflags[canopy_pkg::RflagFailed];
  // Refused for lack of accumulator memory at a router: the members re-issue it.
  wire logic res_retry  = res_failed && hdr.rflags[canopy_pkg::RflagRetry];
  // The source's own copy of a SKIP_SRC broadcast: counted, not written.
  wire logic skip_self = is_bcast && hdr.flags[canopy_pkg::FlagSkipSrc] && hdr.src == my_coord_i;
  // A result's payload is for this node: an allreduce, or a reduce to this node, not failed.
  wire logic res_write = !res_failed && (hdr.rflags[canopy_pkg::RflagAll] || hdr.dst == my_coord_i);
  wire logic is_config = hdr.ptype == canopy_pkg::PKT_CONFIG;
  wire logic is_get    = hdr.ptype == canopy_pkg::PKT_GET;
  wire logic is_gresp  = hdr.ptype == canopy_pkg::PKT_GET_RESP;
  wire logic g_last    = hdr.flags[canopy_pkg::FlagLast];
  wire logic g_failed  = hdr.rflags[canopy_pkg::RflagFailed] || hbad_q;

  // The packet's source as a table index (a GET's requester, a GET_RESP's target), from
  // the parser with the header.
  logic [IdW-1:0] src_idx, src_idx_d;
  logic           src_ok, src_ok_d;

  always_comb begin
    cnt_sel  = '0;
    res_sel  = '0;
    tbad_sel = 1'b0;
    for (int unsigned t = 0; t < NumTrees; t++) begin
      if (hdr.tree == canopy_pkg::HdrTreeBits'(t)) begin
        cnt_sel  = tree_cnt_q[t];
        res_sel  = res_cnt_q[t];
        tbad_sel = tree_bad_q[t];
      end
    end
  end
  wire logic ack_req = hdr.flags[canopy_pkg::FlagAckReq];
  wire logic notify  = hdr.flags[canopy_pkg::FlagNotify];
  wire logic in_win   = in_win_q && !hbad_q;
  wire logic in_win_b = hdr.len == '0 || in_win;  // an empty broadcast (a barrier's result) writes nothing
  // A payload inside the window that is written as it stands: decided and requested in
  // one cycle (SDecide offers the request SReq would).
  wire logic fast = hdr.len != '0 && in_win
                    && (is_put || (is_bcast && (!is_result || res_write) && !skip_self)
                        || (is_gresp && !g_failed));
  wire logic [WordsW-1:0] pay_words = WordsW'((hdr.len + LenW'(7)) >> 3);
  // A GET's request word (registered: read in SGetWord, or SAmoWord for an atomic) and
  // whether it is refused, offered to the get table in SGetPush. The extra cycle keeps the
  // window and range arithmetic off the path from the buffer's VC pick.
  canopy_pkg::get_req_t greq;
  assign greq = canopy_pkg::get_req_t'(areq_q);
  wire logic a_size_ok = greq.get_len == 17'd4 || greq.get_len == 17'd8;
  wire logic a_refused = !a_size_ok || (hdr.offset[2:0] & (greq.get_len[2:0] - 3'd1)) != 3'd0
                         || 32'(greq.amo_op) > 32'(canopy_pkg::AMO_XOR);
  wire logic g_refused = win_size_i == '0 || greq.get_len == '0
                         || 32'(greq.get_len) > canopy_pkg::MaxGetBytes
                         || 64'(hdr.offset) + 64'(greq.get_len) > win_size_i
                         || 41'(greq.reply_offset) + 41'(greq.get_len) > (41'd1 << canopy_pkg::HdrOffsetBits)
                         || (amo_q && a_refused) || pbad_q;
  wire logic unused_greq = ^greq;
  always_comb begin
    gpush_idx_o          = src_idx;
    gpush_entry_o.src    = hdr.src;
    gpush_entry_o.idx    = 12'(src_idx);
    gpush_entry_o.fresh  = 1'b1;
    gpush_entry_o.failed = g_refused;
    gpush_entry_o.offset = hdr.offset;
    gpush_entry_o.reply  = greq.reply_offset;
    gpush_entry_o.len    = greq.get_len;
    gpush_entry_o.amo     = amo_q;
    gpush_entry_o.fetch   = greq.amo_fetch;
    gpush_entry_o.aop     = greq.amo_op[2:0];
    gpush_entry_o.operand = aopnd_q;
    gpush_entry_o.compare = acmp_q;
  end

  // Per-target get completion counts: a RAM read as a GET_RESP is decided, written back
  // incremented the next cycle if it completes a get; a valid bit per entry stands for
  // the reset the RAM does not have.
  logic [31:0]         gcnt_rd, gcnt_next, gcnt_q;
  logic [MaxNodes-1:0] gcnt_valid_q;
  logic                gcnt_upd_q;
  logic [IdW-1:0]      gcnt_idx_q;
  canopy_sdp_ram #(.Width(32), .Depth(MaxNodes)) u_gcnt (
    .clk_i,
    .we_i    (gcnt_upd_q),
    .waddr_i (gcnt_idx_q),
    .wdata_i (gcnt_next),
    .re_i    (state_q == SDecide),
    .raddr_i (src_idx),
    .rdata_o (gcnt_rd)
  );
  assign gcnt_next = (gcnt_valid_q[gcnt_idx_q] ? gcnt_rd : '0) + 1'b1;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      gcnt_upd_q   <= 1'b0;
      gcnt_valid_q <= '0;
    end else begin
      gcnt_upd_q <= state_q == SDecide && is_gresp && g_last && src_ok;
      if (!get_wb_set_i)  gcnt_valid_q <= '0;
      else if (gcnt_upd_q)      gcnt_valid_q[gcnt_idx_q] <= 1'b1;
    end
  end
  always_ff @(posedge clk_i) begin
    gcnt_idx_q <= src_idx;
    if (gcnt_upd_q) gcnt_q <= gcnt_next;
  end

  wire logic [63:0] ring_used = n_q - head_q;
  wire logic        ring_room = ring_used < ej_entries_i;
  // The room the ring entry request waits on, a cycle old: the 64-bit subtract and compare
  // then end at a flip-flop. It never claims room that is not there: the entries issued
  // (n_q) grow only as SEntry takes one, and SEntryData follows for four cycles, while the
  // host's EJ_HEAD only ever frees entries (asserted below).
  logic             ring_room_q;

  canopy_host_pkg::dma_tag_t tag;
  // The request's payload is written: decided (SReq), or the fast case (SDecide).
  wire logic req_ok = state_q == SReq ? put_ok_q : 1'b1;
  // The owed count write has somewhere to go.
  wire logic cnt_wb_set = is_gresp ? get_wb_set_i : coll_wb_set_i;

  // Where a packet goes once its payload is consumed: its count write (its word only, if
  // the request went ahead during the payload), its ejection ring entry, or the next one.
  function automatic state_e after_payload(input logic count, input logic cnt_req, input logic entry);
    after_payload = count ? (cnt_req ? SCountData : SCount) : entry ? SEntry : SHdr;
  endfunction

  // Requests and payload words offered to the DMA writer: a function of the state only
  // (never of the ready inputs), in a block of their own.
  always_comb begin
    req_valid_o  = 1'b0;
    req_addr_o   = '0;
    req_len_o    = '0;
    tag.kind     = canopy_host_pkg::DmaEntry;
    tag.ack_req  = 1'b0;
    tag.src      = '0;
    data_valid_o = 1'b0;
    data_o       = '0;
    data_poison_o = 1'b0;
    unique case (state_q)
      SDecide, SReq: begin
        // The payload write, or the zero-length marker of a refused put or of a CONFIG.
        req_valid_o = state_q == SReq || fast;
        req_addr_o  = req_ok ? win_base_i + 64'(hdr.offset) : '0;
        req_len_o   = req_ok ? hdr.len : '0;
        tag.kind    = is_config ? (cfg_ok_q ? canopy_host_pkg::DmaCfgOk : canopy_host_pkg::DmaCfgFail)
                    : is_bcast  ? canopy_host_pkg::DmaBcast
                    : is_get    ? canopy_host_pkg::DmaGetMark
                    : is_gresp  ? (!g_last ? (req_ok ? canopy_host_pkg::DmaGetData : canopy_host_pkg::DmaGetBad)
                                   : req_ok ? canopy_host_pkg::DmaGetLast : canopy_host_pkg::DmaGetFail)
                    : req_ok    ? canopy_host_pkg::DmaPutOk : canopy_host_pkg::DmaPutFail;
        tag.ack_req = ack_req && (is_put || is_config);
        tag.src     = hdr.src;
      end
      SCount, SData: begin
        // The counter write's request: in SCount, or already while the payload streams
        // (SData: the writer queues it behind the payload's, whose words come first), so
        // that a broadcast packet costs the DMA path its payload and one word, no more
        // cycles than the link takes to deliver it. No count write without a writeback
        // area (SCount moves on without one).
        req_valid_o = (state_q == SCount || (count_q && !cnt_req_q)) && cnt_wb_set;
        req_addr_o  = is_gresp  ? get_wb_base_i + (64'(src_idx) << 3)
                    : is_result
                      ? coll_wb_base_i + ((64'(canopy_pkg::MaxTrees) + (64'(hdr.tree) << 5) + 64'(hdr.rid)) << 3)
                      : coll_wb_base_i + (64'(hdr.tree) << 3);
        req_len_o   = LenW'(8);
        tag.kind    = cnt_bcast_q ? canopy_host_pkg::DmaBcast : canopy_host_pkg::DmaCount;
        if (state_q == SData) begin
          // Past an early tail the payload is padded with zeros.
          data_valid_o  = ended_q || front_valid;
          data_o        = ended_q ? '0 : front_flit;
          data_poison_o = !ended_q && front_bad;
        end
      end
      SCountData: begin
        data_valid_o = 1'b1;
        // A cut result says FAILED; a cut broadcast leaves the counter where it was.
        data_o       = is_gresp ? 64'(gcnt_q)
                     : is_result ? {res_failed || pbad_q, res_retry && !pbad_q, 30'd0, res_sel}
                     : {32'd0, cnt_sel - 32'(pbad_q && !tbad_sel)};
      end
      SEntry: begin
        req_valid_o = ej_entries_i != '0 && ring_room_q;
        req_addr_o  = ej_base_i + ((n_q & (ej_entries_i - 1'b1)) << 5);
        req_len_o   = LenW'(canopy_host_pkg::EjEntryBytes);
      end
      SEntryData: begin
        // header word 0, header word 1, status, seq (= entries issued, this one included)
        data_valid_o = 1'b1;
        unique case (ent_idx_q)
          2'd0: data_o = hdr0_q;
          2'd1: data_o = hdr1_q;
          2'd2: data_o = {56'd0, pbad_q && status_q == canopy_host_pkg::EjStatusOkNotify
                                 ? canopy_host_pkg::EjStatusCut : status_q};
          default: data_o = n_q;
        endcase
      end
      default: ;
    endcase
  end

  // A request or word moves on the valid/ready handshake (the DMA side may be ready
  // whether or not anything is offered).
  wire logic req_take  = req_valid_o && req_ready_i;
  wire logic data_take = data_valid_o && data_ready_i;

  // Next state.
  always_comb begin
    state_d   = state_q;
    hdr0_d    = hdr0_q;
    hdr1_d    = hdr1_q;
    ended_d   = ended_q;
    in_win_d  = in_win_q;
    hbad_d    = hbad_q;
    pbad_d    = pbad_q;
    src_idx_d = src_idx;
    src_ok_d  = src_ok;
    hq_take   = 1'b0;
    put_ok_d  = put_ok_q;
    count_d   = count_q;
    cnt_req_d = cnt_req_q;
    cfg_ok_d  = cfg_ok_q;
    cnt_bcast_d = cnt_bcast_q;
    tbl_we_o  = 1'b0;
    err_tree_write_o = 1'b0;
    entry_d   = entry_q;
    status_d  = status_q;
    words_d   = words_q;
    ent_idx_d = ent_idx_q;
    n_d       = n_q;
    pop_front = 1'b0;
    amo_d     = amo_q;
    aw_d      = aw_q;
    areq_d    = areq_q;
    aopnd_d   = aopnd_q;
    acmp_d    = acmp_q;

    acked_add_o      = '0;
    failed_add_o     = '0;
    err_dma_bounds_o = 1'b0;
    err_ej_noring_o  = 1'b0;
    gpush_valid_o    = 1'b0;
    err_get_bounds_o = 1'b0;
    err_get_dropped_o = 1'b0;

    unique case (state_q)
      SHdr: ;  // the next header is taken below
      SDecide: begin
        words_d  = '0;
        amo_d    = is_get && hdr.len == 9'd24;
        aw_d     = 1'b0;
        put_ok_d = is_put ? in_win
                 : is_gresp ? !g_failed && in_win_b
                 : (is_bcast && (!is_result || res_write) && !skip_self && in_win_b);
        count_d  = is_bcast || (is_gresp && g_last && src_ok);
        cnt_req_d = 1'b0;
        cnt_bcast_d = 1'b0;
        entry_d  = 1'b0;
        status_d = canopy_host_pkg::EjStatusOkNotify;
        state_d  = SDiscard;
        if (hbad_q) begin
          // Cut by a dying link, its second header word filler: nothing of it is acted on.
          // What it stands for fails: a failed ACK, a FAILED answer, a failed get; an ACK's
          // counts and a CONFIG's entry are unknown, a BCAST is not counted (below).
          cfg_ok_d = 1'b0;
          count_d  = is_gresp && g_last && src_ok;
          if (is_get) begin
            areq_d  = '0;      // get_len 0: refused, answered FAILED
            amo_d   = 1'b0;
            state_d = SGetPush;
          end else if (((is_put || is_config) && ack_req) || is_gresp) begin
            state_d = SReq;   // a zero-length marker: the failed ACK, or the get's failure
          end
        end else if (is_put && in_win) begin
          entry_d = notify;
          state_d = SReq;
        end else if (is_put) begin
          err_dma_bounds_o = 1'b1;
          entry_d  = 1'b1;
          status_d = canopy_host_pkg::EjStatusBounds;
          if (ack_req) state_d = SReq;
        end else if ((is_result && !res_write) || skip_self) begin
          entry_d = 1'b0;  // counted (status word) but not written here
        end else if (is_bcast) begin
          entry_d = notify || !in_win_b;
          if (in_win_b) begin
            // (empty, ended with its header, a counter write to come: no marker)
            cnt_bcast_d = hdr.len == '0 && ended_q && coll_wb_set_i;
            state_d     = cnt_bcast_d ? SCount : SReq;
          end else begin
            err_dma_bounds_o = 1'b1;
            status_d = canopy_host_pkg::EjStatusBounds;
          end
        end else if (is_gresp) begin
          // Written like a put, never reported in the ring; a last one completes its get
          // (a marker if there is nothing to write).
          if (!g_failed && !in_win_b) err_dma_bounds_o = 1'b1;
          // (a FAILED one before the last: a marker, so that its get counts as failed)
          if (g_last || g_failed || (put_ok_d && hdr.len != '0)) state_d = SReq;
        end else if (is_get) begin
          if (hdr.len == 9'd8 && !ended_q) state_d = SGetWord;
          else if (hdr.len == 9'd24 && !ended_q) state_d = SAmoWord;
          else err_get_dropped_o = 1'b1;
        end else if (is_config) begin
          state_d = SConfig;
        end else if (is_ack) begin
          acked_add_o  = hdr.offset[CntW-1:0];
          failed_add_o = hdr.offset[2*CntW-1:CntW];
        end else begin
          entry_d  = 1'b1;
          status_d = canopy_host_pkg::EjStatusUnsupported;
        end
      end
      SGetWord: if (front_valid) begin
        // A GET's request word, or an atomic's compare value: registered, offered next.
        pop_front = 1'b1;
        ended_d   = front_last;
        if (amo_q) acmp_d = front_flit;
        else       areq_d = front_flit;
        state_d   = SGetPush;
      end
      SGetPush: begin
        // Taken (then a marker orders it after earlier DMA writes) or dropped, this cycle.
        gpush_valid_o = src_ok;
        if (src_ok && gpush_ok_i) begin
          err_get_bounds_o = g_refused;
          state_d = SReq;
        end else begin
          err_get_dropped_o = 1'b1;
          state_d = SDiscard;
        end
      end
      SAmoWord: if (front_valid) begin
        // An atomic's request word, then its operand; its compare value is read in SGetWord.
        pop_front = 1'b1;
        ended_d   = front_last;
        aw_d      = 1'b1;
        if (!aw_q) areq_d  = front_flit;
        else       aopnd_d = front_flit;
        if (front_last) begin
          state_d = SGetPush;  // shorter than its len (a cut packet, marked bad): refused
        end else if (aw_q) begin
          state_d = SGetWord;
        end
      end
      SConfig: if (!tbl_busy_i) begin
        tbl_we_o = 1'b1;
        cfg_ok_d = tbl_wok_i;
        err_tree_write_o = !tbl_wok_i;
        state_d  = ack_req ? SReq : SDiscard;
      end
      SReq: if (req_take) state_d = (put_ok_q && hdr.len != '0) ? SData : SDiscard;
      SData: begin
        if (req_take) cnt_req_d = 1'b1;
        if (data_take) begin
          pop_front = !ended_q;
          ended_d   = ended_q || front_last;
          words_d   = words_q + 1'b1;
          // The last payload word: with the packet's tail taken as well (a packet as long
          // as its len, the usual case), straight on as SDiscard would go, a cycle sooner.
          if (words_d == pay_words) state_d = !ended_d ? SDiscard : after_payload(count_q, cnt_req_d, entry_q);
        end
      end
      SDiscard: begin
        // Drop what is left of the packet (the payload of anything but a PUT written).
        if (!ended_q && front_valid) begin
          pop_front = 1'b1;
          ended_d   = front_last;
        end
        if (ended_d) state_d = after_payload(count_q, cnt_req_q, entry_q);
      end
      SCount: begin
        if (!(is_gresp ? get_wb_set_i : coll_wb_set_i)) state_d = entry_q ? SEntry : SHdr;
        else if (req_take) state_d = SCountData;
      end
      SCountData: if (data_take) begin
        state_d = entry_q ? SEntry : SHdr;
      end
      SEntry: begin
        if (ej_entries_i == '0) begin
          err_ej_noring_o = 1'b1;
          state_d = SHdr;
        end else if (req_take) begin
          n_d       = n_q + 1'b1;
          ent_idx_d = '0;
          state_d   = SEntryData;
        end
      end
      SEntryData: if (data_take) begin
        ent_idx_d = ent_idx_q + 1'b1;
        if (ent_idx_q == 2'd3) state_d = SHdr;
      end
      default: state_d = SHdr;
    endcase

    if (pop_front && front_bad) pbad_d = 1'b1;

    // The fast case's request taken in the decision cycle: straight to the payload.
    if (state_q == SDecide && fast && req_take) state_d = SData;

    // Done with a packet (or idle): the next header, if queued, is taken now and decided
    // in the next cycle.
    if (state_d == SHdr && hq_valid) begin
      hq_take   = 1'b1;
      hdr0_d    = hq_hdr0;
      hdr1_d    = hq_hdr1;
      ended_d   = hq_ended;
      in_win_d  = hq_in_win;
      hbad_d    = hq_bad;
      pbad_d    = hq_bad;
      src_idx_d = hq_src_idx;
      src_ok_d  = hq_src_ok;
      state_d   = SDecide;
    end
  end

  assign req_tag_o = TagW'(tag);

  // EJ_HEAD: forward by at most the entries issued.
  wire logic head_ok = ej_head_i - head_q <= ring_used;
  assign err_doorbell_o = ej_head_we_i && !head_ok;
  assign head_d         = (ej_head_we_i && head_ok) ? ej_head_i : head_q;
  assign ej_full_o      = ej_entries_i != '0 && !ring_room;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      state_q     <= SHdr;
      n_q         <= '0;
      head_q      <= '0;
      ring_room_q <= 1'b0;
    end else begin
      state_q     <= state_d;
      n_q         <= n_d;
      head_q      <= head_d;
      ring_room_q <= ring_room;
    end
  end

  // Completion counters: a broadcast packet counts as it is decided, before its payload
  // and counter writes are issued (the counter value written is the one after it). A
  // tree's counter restarts from 0 when its routing table entry is written (cnt_clear_i).
  // Reduce results count separately (per-(tree, id) status words), so a broadcast's
  // completion never depends on reduces.
  // A broadcast a dying link cut stops its tree's counter until the entry is written again:
  // counted on, the next broadcast would bring the count that the cut one's hosts wait
  // for, and they would read its data as complete. One cut at its second header word is
  // never counted; one cut later was counted as it was decided, and is taken back with
  // its counter write (the value written is the one before it).
  wire logic cut_bcast_uncount = state_q == SCountData && data_take && is_bcast && !is_result && pbad_q;
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      tree_cnt_q <= '0;
      res_cnt_q  <= '0;
      tree_bad_q <= '0;
    end else begin
      for (int unsigned t = 0; t < NumTrees; t++) begin
        if (cnt_clear_i && cnt_clear_idx_i == canopy_pkg::HdrTreeBits'(t)) begin
          tree_cnt_q[t] <= '0;
          res_cnt_q[t]  <= '0;
          tree_bad_q[t] <= 1'b0;
        end else if (hdr.tree == canopy_pkg::HdrTreeBits'(t)) begin
          if (state_q == SDecide && is_bcast && hbad_q) begin
            tree_bad_q[t] <= 1'b1;
          end else if (state_q == SDecide && is_bcast) begin
            if (is_result)          res_cnt_q[t]  <= res_cnt_q[t] + 1'b1;
            else if (!tree_bad_q[t]) tree_cnt_q[t] <= tree_cnt_q[t] + 1'b1;
          end
          if (cut_bcast_uncount) begin
            tree_bad_q[t] <= 1'b1;
            if (!tree_bad_q[t]) tree_cnt_q[t] <= tree_cnt_q[t] - 1'b1;
          end
        end
      end
    end
  end
  assign result_o = state_q == SDecide && is_result;

  assign tbl_widx_o   = hdr.tree;
  assign tbl_wentry_o = canopy_pkg::tree_entry_t'(hdr.offset[canopy_pkg::TreeEntryBits-1:0]);

  always_ff @(posedge clk_i) begin
    count_q   <= count_d;
    cnt_req_q <= cnt_req_d;
    cfg_ok_q  <= cfg_ok_d;
    cnt_bcast_q <= cnt_bcast_d;
    hdr0_q    <= hdr0_d;
    hdr1_q    <= hdr1_d;
    ended_q   <= ended_d;
    in_win_q  <= in_win_d;
    src_idx   <= src_idx_d;
    src_ok    <= src_ok_d;
    hbad_q    <= hbad_d;
    pbad_q    <= pbad_d;
    put_ok_q  <= put_ok_d;
    entry_q   <= entry_d;
    status_q  <= status_d;
    words_q   <= words_d;
    ent_idx_q <= ent_idx_d;
    amo_q     <= amo_d;
    aw_q      <= aw_d;
    areq_q    <= areq_d;
    aopnd_q   <= aopnd_d;
    acmp_q    <= acmp_d;
  end

  // ---------------------------------------------------------------- completions, events
  canopy_host_pkg::dma_tag_t done;
  assign done = canopy_host_pkg::dma_tag_t'(done_tag_i);

  // A write the host refused (done_err_i: BRESP an error) did not complete: a put's ACK
  // says FAILED and it is not counted in RX_PUTS, a broadcast not in RX_BCASTS; a get
  // response's failed write fails its get (a last one) or counts in GETS_FAILED at once
  // (an earlier one, whose get is still open: so libcanopy, which looks for a change in
  // GETS_FAILED, sees it; a get may then count there more than once). The bytes of a
  // failed burst may not have landed, so none of them is reported as delivered.
  wire logic done_ok  = done_valid_i && !done_err_i;
  assign rx_put_o     = done_ok && done.kind == canopy_host_pkg::DmaPutOk;
  assign rx_bcast_o   = done_ok && done.kind == canopy_host_pkg::DmaBcast;
  assign ej_written_o = done_valid_i && done.kind == canopy_host_pkg::DmaEntry;
  assign ack_valid_o  = done_valid_i && done.ack_req
                        && (done.kind == canopy_host_pkg::DmaPutOk
                            || done.kind == canopy_host_pkg::DmaPutFail
                            || done.kind == canopy_host_pkg::DmaCfgOk
                            || done.kind == canopy_host_pkg::DmaCfgFail);
  assign ack_ok_o     = (done.kind == canopy_host_pkg::DmaPutOk && !done_err_i) || done.kind == canopy_host_pkg::DmaCfgOk;
  assign ack_src_o    = done.src;
  assign get_resp_o   = state_q == SDecide && is_gresp;
  assign get_done_o   = done_valid_i && (done.kind == canopy_host_pkg::DmaGetLast
                                         || done.kind == canopy_host_pkg::DmaGetFail);
  assign get_failed_o = done_valid_i && (done.kind == canopy_host_pkg::DmaGetFail || done.kind == canopy_host_pkg::DmaGetBad
                                         || (done_err_i && (done.kind == canopy_host_pkg::DmaGetLast
                                                            || done.kind == canopy_host_pkg::DmaGetData)));
  assign gmark_o      = done_valid_i && done.kind == canopy_host_pkg::DmaGetMark;
  assign rx_flit_o    = ej_valid_i;
  assign rx_pkt_o     = ej_valid_i && ej_last_i;

  `CANOPY_ASSERT(a_pop_valid, !pop_front || front_valid, "popped an empty payload queue")
  `CANOPY_ASSERT(a_fast_decided, !(state_q == SDecide && fast) || (put_ok_d && req_valid_o),
                 "the decision-cycle request disagrees with the decision")
  `CANOPY_ASSERT(a_gcnt_spacing, !(gcnt_upd_q && state_q == SDecide),
                 "per-target get count read while the previous one is written")
  `CANOPY_ASSERT(a_ring_room_late, !(state_q == SEntry && ring_room_q) || ring_room,
                 "the registered ring room claimed an entry the ring has not got")
  `CANOPY_ASSERT(a_ring_bound, ej_entries_i == '0 || ring_used <= ej_entries_i,
                 "more ejection ring entries outstanding than the ring holds")
endmodule

`default_nettype wire
