// canopy_host_if: the host interface of one node (docs/host-interface.md): BAR0 registers
// and injection ring behind an AXI4 slave, ejection into host memory through an AXI4
// master's write channels, acknowledgements, the writeback block, and one-sided gets
// served from host memory through the same master's read channels.
//
// Interface contract
//   - s_axi_*: AXI4 slave, BAR0 (canopy_axi_slave): CSRs at 0x0000 (docs/register-map.md),
//     injection ring window at 0x8000. Every response OKAY; refusals are counted.
//   - m_axi_aw*/w*/b*: AXI4 write channels into host memory (canopy_dma_writer): DMA
//     window, ejection ring, writeback block, completion areas. 64-bit address and data,
//     INCR bursts of <= 16 beats never crossing 4 KiB, one ID, <= 8 bursts outstanding.
//   - m_axi_ar*/r*: AXI4 read channels from host memory: the window's bytes asked for by
//     GET requests (canopy_get_server, ID 0: same burst rules, at most GetBufWords words
//     outstanding) and the objects of atomics (canopy_amo_unit, ID 1, one single-beat read
//     at a time); R is routed by RID, RREADY always high. Read and write channels are
//     independent (AXI); a request's reads start only after every DMA write issued before
//     it has been answered.
//   - inj_* / inj_credit_i: into the router's local input (the router's rx side), under
//     the router's credits (LocalBufDepth per VC out of reset); the injector's packets on
//     their descriptor's VC, ACK and GET_RESP packets (gets' and atomics') on P2P_HI, never
//     interleaved.
//   - ej_* / ej_credit_o: the router's local output (its tx side); the router starts with
//     EjectCredits credits per VC, one returned per flit consumed.
//   - my_coord_i / torus_size_i: as for the router (static while out of reset); shown in
//     TOPO, used for ACK headers and the ACK table index.
//   - err_bad_*_i: the router's refused-packet counters, shown zero-extended in ERR_BAD_*;
//     err_coll_*_i likewise in ERR_COLL_DIR / ERR_COLL_TREE.
//   - link_down_i / link_drops_i: the link ends beside the router (outside the node): bit p,
//     the link out of port p is down; flits they dropped after a death. Shown in LINK_DOWN
//     and LINK_DROPS through one register stage (they are status, not on any fast path).
//   - tbl_*: the router's collective routing table: one write port shared by TREE_ENTRY
//     (CSR writes first) and CONFIG packets (from the ejector), and the read-back port
//     behind TREE_SEL / TREE_READ.
// FlitWidth must be 64 (ring words are flits). Counters are 64-bit and wrap (they cannot
// in practice).
//
// Blocks: canopy_axi_slave -> canopy_csr (registers) and canopy_inj_ring (ring RAM,
// doorbell, injector) -> canopy_inj_mux (with canopy_ack_table's ACK generator and
// canopy_get_server's responses) -> router; router -> canopy_ejector -> canopy_dma_writer
// (shared with canopy_writeback and canopy_amo_unit, requests arbitrated round-robin) ->
// host; GET requests from the ejector -> canopy_get_table -> canopy_get_server (gets) or
// canopy_amo_unit (atomics) -> host (reads; atomics also write) -> router. Doorbell strobes
// from canopy_csr are delayed one cycle so that the blocks see the register's new value
// with them.
`default_nettype none
`include "canopy_assert.svh"

module canopy_host_if #(
  parameter int unsigned NumDims       = 0,    /// torus dimensions of the node, 1..4; must be set
  parameter int unsigned NumVcs        = 4,    /// VCs per link (the router's)
  parameter int unsigned FlitWidth     = 64,   /// bits per flit: must be 64 here
  parameter int unsigned LocalBufDepth = 32,   /// router's injection buffer per VC (initial credits)
  parameter int unsigned EjectCredits  = 16,   /// router's credits toward the host per VC
  parameter int unsigned InjRingWords  = 2048, /// injection ring words: a power of two, 64..4096
  parameter int unsigned MaxNodes      = 256,  /// ACK table entries: nodes of the largest torus served
  parameter int unsigned BuildGit      = 0,    /// BUILD.git: first 8 hex digits of the git commit
  parameter int unsigned BuildDate     = 0,    /// BUILD.date: decimal YYYYMMDD
  parameter int unsigned AxiIdWidth    = 4,    /// AXI ID bits, slave and master
  parameter int unsigned NumTrees      = 16,   /// the router's collective trees (CAPS.trees)
  parameter int unsigned GetSlots      = 2,    /// GET requests held per source node (CAPS_GET.slots), 1..3
  parameter int unsigned GetBufWords   = 256,  /// get read data buffer, 64-bit words, a power of two 64..4096
  localparam int unsigned VcW = $clog2(NumVcs)
) (
  input  wire logic                                                    clk_i,
  input  wire logic                                                    rst_i,
  input  wire canopy_pkg::coords_t                                     my_coord_i,
  input  wire logic [canopy_pkg::MaxDims-1:0][canopy_pkg::CoordBits:0] torus_size_i,

  input  wire logic [AxiIdWidth-1:0] s_axi_awid_i,
  input  wire logic [15:0]           s_axi_awaddr_i,
  input  wire logic [7:0]            s_axi_awlen_i,
  input  wire logic [2:0]            s_axi_awsize_i,
  input  wire logic [1:0]            s_axi_awburst_i,
  input  wire logic                  s_axi_awvalid_i,
  output logic                       s_axi_awready_o,
  input  wire logic [63:0]           s_axi_wdata_i,
  input  wire logic [7:0]            s_axi_wstrb_i,
  input  wire logic                  s_axi_wlast_i,
  input  wire logic                  s_axi_wvalid_i,
  output logic                       s_axi_wready_o,
  output logic      [AxiIdWidth-1:0] s_axi_bid_o,
  output logic      [1:0]            s_axi_bresp_o,
  output logic                       s_axi_bvalid_o,
  input  wire logic                  s_axi_bready_i,
  input  wire logic [AxiIdWidth-1:0] s_axi_arid_i,
  input  wire logic [15:0]           s_axi_araddr_i,
  input  wire logic [7:0]            s_axi_arlen_i,
  input  wire logic [2:0]            s_axi_arsize_i,
  input  wire logic [1:0]            s_axi_arburst_i,
  input  wire logic                  s_axi_arvalid_i,
  output logic                       s_axi_arready_o,
  output logic      [AxiIdWidth-1:0] s_axi_rid_o,
  output logic      [63:0]           s_axi_rdata_o,
  output logic      [1:0]            s_axi_rresp_o,
  output logic                       s_axi_rlast_o,
  output logic                       s_axi_rvalid_o,
  input  wire logic                  s_axi_rready_i,

  output logic      [AxiIdWidth-1:0] m_axi_awid_o,
  output logic      [63:0]           m_axi_awaddr_o,
  output logic      [7:0]            m_axi_awlen_o,
  output logic      [2:0]            m_axi_awsize_o,
  output logic      [1:0]            m_axi_awburst_o,
  output logic      [3:0]            m_axi_awcache_o,
  output logic      [2:0]            m_axi_awprot_o,
  output logic                       m_axi_awvalid_o,
  input  wire logic                  m_axi_awready_i,
  output logic      [63:0]           m_axi_wdata_o,
  output logic      [7:0]            m_axi_wstrb_o,
  output logic                       m_axi_wlast_o,
  output logic                       m_axi_wvalid_o,
  input  wire logic                  m_axi_wready_i,
  input  wire logic [AxiIdWidth-1:0] m_axi_bid_i,
  input  wire logic [1:0]            m_axi_bresp_i,
  input  wire logic                  m_axi_bvalid_i,
  output logic                       m_axi_bready_o,
  output logic      [AxiIdWidth-1:0] m_axi_arid_o,
  output logic      [63:0]           m_axi_araddr_o,
  output logic      [7:0]            m_axi_arlen_o,
  output logic      [2:0]            m_axi_arsize_o,
  output logic      [1:0]            m_axi_arburst_o,
  output logic      [3:0]            m_axi_arcache_o,
  output logic      [2:0]            m_axi_arprot_o,
  output logic                       m_axi_arvalid_o,
  input  wire logic                  m_axi_arready_i,
  input  wire logic [AxiIdWidth-1:0] m_axi_rid_i,
  input  wire logic [63:0]           m_axi_rdata_i,
  input  wire logic [1:0]            m_axi_rresp_i,
  input  wire logic                  m_axi_rlast_i,
  input  wire logic                  m_axi_rvalid_i,
  output logic                       m_axi_rready_o,

  output logic                       inj_valid_o,
  output logic      [FlitWidth-1:0]  inj_flit_o,
  output logic                       inj_last_o,
  output logic      [VcW-1:0]        inj_vc_o,
  input  wire logic [NumVcs-1:0]     inj_credit_i,

  input  wire logic                  ej_valid_i,
  input  wire logic [FlitWidth-1:0]  ej_flit_i,
  input  wire logic                  ej_last_i,
  input  wire logic [VcW-1:0]        ej_vc_i,
  output logic      [NumVcs-1:0]     ej_credit_o,

  output logic                       tbl_we_o,
  output logic [canopy_pkg::HdrTreeBits-1:0] tbl_widx_o,
  output canopy_pkg::tree_entry_t    tbl_wentry_o,
  input  wire logic                  tbl_wok_i,
  output logic [canopy_pkg::HdrTreeBits-1:0] tbl_ridx_o,
  input  wire canopy_pkg::tree_entry_t tbl_rentry_i,

  input  wire logic [31:0]           err_bad_type_i,
  input  wire logic [31:0]           err_bad_dst_i,
  input  wire logic [31:0]           err_bad_len_i,
  input  wire logic [31:0]           err_coll_dir_i,
  input  wire logic [31:0]           err_coll_tree_i,
  input  wire logic [31:0]           err_reduce_i,
  input  wire logic [31:0]           reduces_refused_i,
  input  wire logic [2*NumDims-1:0]  link_down_i,
  input  wire logic [31:0]           link_drops_i
);
  localparam int unsigned CsrAddrBits = canopy_regs_pkg::CsrAddrBits;
  localparam int unsigned WinIdxBits  = $clog2(canopy_host_pkg::InjWindowWords);
  localparam int unsigned TagW        = canopy_host_pkg::DmaTagBits;
  localparam int unsigned LenW        = canopy_host_pkg::DmaLenBits;
  localparam int unsigned CntW        = canopy_host_pkg::AckCountBits;
  localparam int unsigned GetIdW      = $clog2(MaxNodes);

  `CANOPY_STATIC_ASSERT(gen_dims_check, NumDims >= 1 && NumDims <= canopy_pkg::MaxDims,
                        "NumDims must be 1..4")
  `CANOPY_STATIC_ASSERT(gen_flit_check, FlitWidth == 64, "the host interface needs 64-bit flits")
  `CANOPY_STATIC_ASSERT(gen_pkg_check,
                        canopy_host_pkg::DmaTagBits == canopy_host_pkg::DmaKindBits + 1 + canopy_pkg::HdrSrcBits
                        && canopy_pkg::HdrSrcBits == canopy_pkg::MaxDims * canopy_pkg::CoordBits
                        && canopy_host_pkg::InjWindowWords * 8
                           == canopy_regs_pkg::BarBytes - canopy_regs_pkg::InjWindowOffset
                        && (1 << canopy_host_pkg::DmaLenBits) > canopy_pkg::MaxPayloadBytes
                        && 2 * canopy_host_pkg::AckCountBits == canopy_pkg::HdrOffsetBits
                        && canopy_host_pkg::GetEntryBits == canopy_pkg::HdrSrcBits + 12 + 2
                           + 2 * canopy_pkg::HdrOffsetBits + canopy_pkg::GetReqGetLenBits + 2 + 3 + 128
                        && canopy_pkg::GetReqAmoOpBits == 4 && AxiIdWidth >= 1
                        && canopy_pkg::GetReqReplyOffsetBits == canopy_pkg::HdrOffsetBits
                        && MaxNodes <= 4096,
                        "canopy_host_pkg disagrees with canopy_pkg / canopy_regs_pkg")

  // ---------------------------------------------------------------- AXI slave, CSRs
  logic                   csr_wr, csr_rd, csr_err, slv_err_wr, slv_err_rd;
  logic [CsrAddrBits-1:0] csr_wr_addr, csr_rd_addr;
  logic [63:0]            csr_wr_data, csr_rd_data;
  logic [7:0]             csr_wr_strb;
  logic                   win_wr;
  logic [WinIdxBits-1:0]  win_wr_idx;
  logic [63:0]            win_wr_data;
  logic [7:0]             win_wr_strb;

  canopy_axi_slave #(.IdWidth(AxiIdWidth)) u_axi_slave (
    .clk_i,
    .rst_i,
    .s_axi_awid_i, .s_axi_awaddr_i, .s_axi_awlen_i, .s_axi_awsize_i, .s_axi_awburst_i,
    .s_axi_awvalid_i, .s_axi_awready_o,
    .s_axi_wdata_i, .s_axi_wstrb_i, .s_axi_wlast_i, .s_axi_wvalid_i, .s_axi_wready_o,
    .s_axi_bid_o, .s_axi_bresp_o, .s_axi_bvalid_o, .s_axi_bready_i,
    .s_axi_arid_i, .s_axi_araddr_i, .s_axi_arlen_i, .s_axi_arsize_i, .s_axi_arburst_i,
    .s_axi_arvalid_i, .s_axi_arready_o,
    .s_axi_rid_o, .s_axi_rdata_o, .s_axi_rresp_o, .s_axi_rlast_o, .s_axi_rvalid_o,
    .s_axi_rready_i,
    .csr_wr_o      (csr_wr),
    .csr_wr_addr_o (csr_wr_addr),
    .csr_wr_data_o (csr_wr_data),
    .csr_wr_strb_o (csr_wr_strb),
    .csr_rd_o      (csr_rd),
    .csr_rd_addr_o (csr_rd_addr),
    .csr_rd_data_i (csr_rd_data),
    .win_wr_o      (win_wr),
    .win_wr_idx_o  (win_wr_idx),
    .win_wr_data_o (win_wr_data),
    .win_wr_strb_o (win_wr_strb),
    .err_wr_o      (slv_err_wr),
    .err_rd_o      (slv_err_rd)
  );

  // Counters, in this order (index names below).
  localparam int unsigned CErrDmaBounds = 0;
  localparam int unsigned CErrInjDesc   = 1;
  localparam int unsigned CErrInjWrite  = 2;
  localparam int unsigned CErrDoorbell  = 3;
  localparam int unsigned CErrCsr       = 4;
  localparam int unsigned CErrEjNoring  = 5;
  localparam int unsigned CTxPkts       = 6;
  localparam int unsigned CTxFlits      = 7;
  localparam int unsigned CRxPkts       = 8;
  localparam int unsigned CRxFlits      = 9;
  localparam int unsigned CRxPuts       = 10;
  localparam int unsigned CPutsAcked    = 11;
  localparam int unsigned CPutsFailed   = 12;
  localparam int unsigned CEjWritten    = 13;
  localparam int unsigned CErrTreeWrite = 14;
  localparam int unsigned CRxBcasts     = 15;
  localparam int unsigned CReducesSent  = 16;
  localparam int unsigned CReducesDone  = 17;
  localparam int unsigned CErrGetBounds = 18;
  localparam int unsigned CErrGetDropped = 19;
  localparam int unsigned CGetsServed   = 20;
  localparam int unsigned CGetResps     = 21;
  localparam int unsigned CGetsDone     = 22;
  localparam int unsigned CGetsFailed   = 23;
  localparam int unsigned CAmosServed   = 24;
  localparam int unsigned CErrInjLen    = 25;  // folded into ERR_BAD_LEN with the router's count
  localparam int unsigned CErrDmaWrite  = 26;
  localparam int unsigned CErrDmaRead   = 27;
  localparam int unsigned NumCnt        = 28;
  logic [NumCnt-1:0][63:0]   cnt_q;

  logic [2*NumDims-1:0] link_down_q;
  logic [31:0]          link_drops_q;
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      link_down_q  <= '0;
      link_drops_q <= '0;
    end else begin
      link_down_q  <= link_down_i;
      link_drops_q <= link_drops_i;
    end
  end
  logic [NumCnt-1:0][CntW-1:0] cnt_inc;

  logic [63:0] reg_id, reg_build, reg_caps, reg_rings, reg_topo, reg_status, reg_caps_get;
  logic [63:0] get_wb_base, inj_mode;
  logic        get_wb_set, coll_wb_set;
  logic [63:0] win_base, win_size, ej_base, ej_entries, ej_head, wb_base, inj_tail;
  logic        ej_head_we, inj_tail_we, ej_head_we_q, inj_tail_we_q;
  logic [63:0] tree_sel, tree_entry, coll_wb_base;
  logic        tree_entry_we, tree_entry_we_q, tree_refused_q;
  logic [31:0] inj_head;
  logic        inj_busy, ej_full;

  canopy_csr u_csr (
    .clk_i,
    .rst_i,
    .wr_i             (csr_wr),
    .wr_addr_i        (csr_wr_addr),
    .wr_data_i        (csr_wr_data),
    .wr_strb_i        (csr_wr_strb),
    .rd_i             (csr_rd),
    .rd_addr_i        (csr_rd_addr),
    .rd_data_o        (csr_rd_data),
    .err_o            (csr_err),
    .id_i             (reg_id),
    .build_i          (reg_build),
    .caps_i           (reg_caps),
    .caps_get_i       (reg_caps_get),
    .get_wb_base_o    (get_wb_base),
    .get_wb_base_set_o (get_wb_set),
    .inj_mode_o       (inj_mode),
    .err_get_bounds_i (cnt_q[CErrGetBounds]),
    .err_dma_write_i  (cnt_q[CErrDmaWrite]),
    .err_dma_read_i   (cnt_q[CErrDmaRead]),
    .err_get_dropped_i(cnt_q[CErrGetDropped]),
    .gets_served_i    (cnt_q[CGetsServed]),
    .get_resps_i      (cnt_q[CGetResps]),
    .gets_done_i      (cnt_q[CGetsDone]),
    .gets_failed_i    (cnt_q[CGetsFailed]),
    .amos_served_i    (cnt_q[CAmosServed]),
    .reduces_refused_i(64'(reduces_refused_i)),
    .link_down_i      (64'(link_down_q)),
    .link_drops_i     (64'(link_drops_q)),
    .rings_i          (reg_rings),
    .topo_i           (reg_topo),
    .status_i         (reg_status),
    .win_base_o       (win_base),
    .win_size_o       (win_size),
    .ej_base_o        (ej_base),
    .ej_entries_o     (ej_entries),
    .ej_head_o        (ej_head),
    .ej_head_we_o     (ej_head_we),
    .wb_base_o        (wb_base),
    .inj_tail_o       (inj_tail),
    .inj_tail_we_o    (inj_tail_we),
    .tree_sel_o       (tree_sel),
    .tree_entry_o     (tree_entry),
    .tree_entry_we_o  (tree_entry_we),
    .tree_read_i      (64'(tbl_rentry_i)),
    .coll_wb_base_o   (coll_wb_base),
    .coll_wb_base_set_o (coll_wb_set),
    .err_tree_write_i (cnt_q[CErrTreeWrite]),
    .err_coll_dir_i   (64'(err_coll_dir_i)),
    .err_coll_tree_i  (64'(err_coll_tree_i)),
    .rx_bcasts_i      (cnt_q[CRxBcasts]),
    .err_reduce_i     (64'(err_reduce_i)),
    .reduces_sent_i   (cnt_q[CReducesSent]),
    .reduces_done_i   (cnt_q[CReducesDone]),
    .inj_head_i       (64'(inj_head)),
    .err_bad_type_i   (64'(err_bad_type_i)),
    .err_bad_dst_i    (64'(err_bad_dst_i)),
    .err_bad_len_i    (64'(err_bad_len_i) + cnt_q[CErrInjLen]),
    .err_dma_bounds_i (cnt_q[CErrDmaBounds]),
    .err_inj_desc_i   (cnt_q[CErrInjDesc]),
    .err_inj_write_i  (cnt_q[CErrInjWrite]),
    .err_doorbell_i   (cnt_q[CErrDoorbell]),
    .err_csr_i        (cnt_q[CErrCsr]),
    .err_ej_noring_i  (cnt_q[CErrEjNoring]),
    .tx_pkts_i        (cnt_q[CTxPkts]),
    .tx_flits_i       (cnt_q[CTxFlits]),
    .rx_pkts_i        (cnt_q[CRxPkts]),
    .rx_flits_i       (cnt_q[CRxFlits]),
    .rx_puts_i        (cnt_q[CRxPuts]),
    .puts_acked_i     (cnt_q[CPutsAcked]),
    .puts_failed_i    (cnt_q[CPutsFailed])
  );

  // A doorbell strobe comes with the write; the register holds the new value a cycle later.
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      ej_head_we_q    <= 1'b0;
      inj_tail_we_q   <= 1'b0;
      tree_entry_we_q <= 1'b0;
    end else begin
      ej_head_we_q    <= ej_head_we;
      inj_tail_we_q   <= inj_tail_we;
      tree_entry_we_q <= tree_entry_we;
    end
  end

  // ---------------------------------------------------------------- routing table port
  // TREE_ENTRY writes take the table's write port first; a CONFIG packet waits a cycle.
  logic                               cfg_we, ev_tree_refused_cfg;
  logic [canopy_pkg::HdrTreeBits-1:0] cfg_widx;
  canopy_pkg::tree_entry_t            cfg_wentry;
  assign tbl_we_o     = tree_entry_we_q || cfg_we;
  assign tbl_widx_o   = tree_entry_we_q ? canopy_pkg::HdrTreeBits'(tree_sel) : cfg_widx;
  assign tbl_wentry_o = tree_entry_we_q ? canopy_pkg::tree_entry_t'(tree_entry[31:0]) : cfg_wentry;
  assign tbl_ridx_o   = canopy_pkg::HdrTreeBits'(tree_sel);
  wire logic ev_tree_refused_csr = tree_entry_we_q && !tbl_wok_i;
  wire logic unused_tree_bits = ^{tree_sel[63:canopy_pkg::HdrTreeBits], tree_entry[63:32]};

  always_ff @(posedge clk_i) begin
    if (rst_i)                tree_refused_q <= 1'b0;
    else if (tree_entry_we_q) tree_refused_q <= !tbl_wok_i;
  end

  // ---------------------------------------------------------------- read-only registers
  always_comb begin
    reg_id = '0;
    reg_id[canopy_regs_pkg::IdMagicLsb +: canopy_regs_pkg::IdMagicWidth] = canopy_regs_pkg::Magic;
    reg_id[canopy_regs_pkg::IdTypeLsb  +: canopy_regs_pkg::IdTypeWidth]  = 8'(canopy_regs_pkg::BlockType);
    reg_id[canopy_regs_pkg::IdMinorLsb +: canopy_regs_pkg::IdMinorWidth] = 8'(canopy_regs_pkg::VersionMinor);
    reg_id[canopy_regs_pkg::IdMajorLsb +: canopy_regs_pkg::IdMajorWidth] = 8'(canopy_regs_pkg::VersionMajor);

    reg_build = '0;
    reg_build[canopy_regs_pkg::BuildGitLsb  +: canopy_regs_pkg::BuildGitWidth]  = 32'(BuildGit);
    reg_build[canopy_regs_pkg::BuildDateLsb +: canopy_regs_pkg::BuildDateWidth] = 32'(BuildDate);

    reg_caps = '0;
    reg_caps[canopy_regs_pkg::CapsTreesLsb      +: canopy_regs_pkg::CapsTreesWidth]      = 8'(NumTrees);
    reg_caps[canopy_regs_pkg::CapsReduceIdsLsb  +: canopy_regs_pkg::CapsReduceIdsWidth]  = 8'd32;
    reg_caps[canopy_regs_pkg::CapsOpsLsb        +: canopy_regs_pkg::CapsOpsWidth]        = 8'h07;  // SUM, MIN, MAX
    reg_caps[canopy_regs_pkg::CapsDtypesLsb     +: canopy_regs_pkg::CapsDtypesWidth]     = 8'h0f;  // I32, U32, I64, U64
    reg_caps[canopy_regs_pkg::CapsMaxPayloadLsb +: canopy_regs_pkg::CapsMaxPayloadWidth]
      = 16'(canopy_pkg::MaxPayloadBytes);
    reg_caps[canopy_regs_pkg::CapsFlitBitsLsb   +: canopy_regs_pkg::CapsFlitBitsWidth]   = 10'(FlitWidth);
    reg_caps[canopy_regs_pkg::CapsVcsLsb        +: canopy_regs_pkg::CapsVcsWidth]        = 6'(NumVcs);

    reg_caps_get = '0;
    reg_caps_get[canopy_regs_pkg::CapsGetSlotsLsb    +: canopy_regs_pkg::CapsGetSlotsWidth]    = 8'(GetSlots);
    reg_caps_get[canopy_regs_pkg::CapsGetMaxBytesLsb +: canopy_regs_pkg::CapsGetMaxBytesWidth] = 24'(canopy_pkg::MaxGetBytes);
    reg_caps_get[canopy_regs_pkg::CapsGetAmoOpsLsb   +: canopy_regs_pkg::CapsGetAmoOpsWidth]   = 8'h7f;  // FETCH..XOR

    reg_rings = '0;
    reg_rings[canopy_regs_pkg::RingsInjWordsLsb     +: canopy_regs_pkg::RingsInjWordsWidth]     = 32'(InjRingWords);
    reg_rings[canopy_regs_pkg::RingsEjEntryBytesLsb +: canopy_regs_pkg::RingsEjEntryBytesWidth]
      = 16'(canopy_host_pkg::EjEntryBytes);
    reg_rings[canopy_regs_pkg::RingsWbBytesLsb      +: canopy_regs_pkg::RingsWbBytesWidth]
      = 16'(canopy_host_pkg::WbBytes);

    reg_topo = '0;
    reg_topo[canopy_regs_pkg::TopoCoordsLsb +: canopy_regs_pkg::TopoCoordsWidth] = my_coord_i;
    reg_topo[canopy_regs_pkg::TopoSizesLsb  +: canopy_regs_pkg::TopoSizesWidth]  = torus_size_i;
    reg_topo[canopy_regs_pkg::TopoNdimsLsb  +: canopy_regs_pkg::TopoNdimsWidth]  = 3'(NumDims);

    reg_status = '0;
    reg_status[canopy_regs_pkg::StatusWinValidLsb] = win_size != '0;
    reg_status[canopy_regs_pkg::StatusEjValidLsb]  = ej_entries != '0;
    reg_status[canopy_regs_pkg::StatusWbValidLsb]  = wb_base != '0;
    reg_status[canopy_regs_pkg::StatusInjBusyLsb]  = inj_busy;
    reg_status[canopy_regs_pkg::StatusEjFullLsb]   = ej_full;
    reg_status[canopy_regs_pkg::StatusTreeRefusedLsb] = tree_refused_q;
  end

  // ---------------------------------------------------------------- injection
  logic           inj_out_valid, inj_out_ready, inj_out_last;
  logic [63:0]    inj_out_flit;
  logic [VcW-1:0] inj_out_vc;
  logic           ev_inj_write, ev_inj_doorbell, ev_inj_desc, ev_inj_len, ev_tx_flit, ev_tx_pkt;

  canopy_inj_ring #(.InjRingWords(InjRingWords), .NumVcs(NumVcs)) u_inj_ring (
    .clk_i,
    .rst_i,
    .win_wr_i        (win_wr),
    .win_wr_idx_i    (win_wr_idx),
    .win_wr_data_i   (win_wr_data),
    .win_wr_strb_i   (win_wr_strb),
    .tail_we_i       (inj_tail_we_q),
    .tail_i          (inj_tail[31:0]),
    .auto_commit_i   (inj_mode[canopy_regs_pkg::InjModeAutoCommitLsb]),
    .out_valid_o     (inj_out_valid),
    .out_ready_i     (inj_out_ready),
    .out_flit_o      (inj_out_flit),
    .out_last_o      (inj_out_last),
    .out_vc_o        (inj_out_vc),
    .head_o          (inj_head),
    .busy_o          (inj_busy),
    .err_inj_write_o (ev_inj_write),
    .err_doorbell_o  (ev_inj_doorbell),
    .err_inj_desc_o  (ev_inj_desc),
    .err_inj_len_o   (ev_inj_len),
    .tx_flit_o       (ev_tx_flit),
    .tx_pkt_o        (ev_tx_pkt)
  );
  wire logic [31:0] unused_inj_tail_hi = inj_tail[63:32];  // INJ_TAIL counts modulo 2^32
  wire logic [62:0] unused_inj_mode = inj_mode[63:1];      // bits reserved

  logic           ack_out_valid, ack_out_ready, ack_out_last, ack_busy;
  logic [63:0]    ack_out_flit;
  logic [VcW-1:0] ack_out_vc;
  logic           ack_inc_valid, ack_inc_ok;
  canopy_pkg::coords_t ack_inc_src;

  canopy_ack_table #(.MaxNodes(MaxNodes), .NumVcs(NumVcs)) u_ack_table (
    .clk_i,
    .rst_i,
    .my_coord_i,
    .torus_size_i,
    .inc_valid_i (ack_inc_valid),
    .inc_ok_i    (ack_inc_ok),
    .inc_src_i   (ack_inc_src),
    .out_valid_o (ack_out_valid),
    .out_ready_i (ack_out_ready),
    .out_flit_o  (ack_out_flit),
    .out_last_o  (ack_out_last),
    .out_vc_o    (ack_out_vc),
    .busy_o      (ack_busy)
  );
  wire logic unused_ack_busy = ack_busy;

  // ---------------------------------------------------------------- gets served here
  logic                  gpush_valid, gpush_ok, gmark, ghead_valid, ghead_take, gback_valid;
  logic                  gback_ready, gretire, gtable_busy, gserver_busy, ev_get_served;
  logic                  srv_take, amo_take, aretire, amo_busy, ev_amo_answered, ev_amo_failed;
  logic                  ev_amo_read_err, ev_get_read_err;
  logic [11:0]           aretire_idx;
  logic [GetIdW-1:0]     gpush_idx;
  logic [11:0]           gretire_idx;
  canopy_host_pkg::get_entry_t gpush_entry, ghead, gback;
  logic                  srv_out_valid, srv_out_ready, srv_out_last;
  logic [63:0]           srv_out_flit;
  logic [VcW-1:0]        srv_out_vc;

  canopy_get_table #(.MaxNodes(MaxNodes), .Slots(GetSlots)) u_get_table (
    .clk_i,
    .rst_i,
    .push_valid_i (gpush_valid),
    .push_idx_i   (gpush_idx),
    .push_entry_i (gpush_entry),
    .push_ok_o    (gpush_ok),
    .mark_i       (gmark),
    .head_valid_o (ghead_valid),
    .head_o       (ghead),
    .head_take_i  (ghead_take),
    .back_valid_i (gback_valid),
    .back_ready_o (gback_ready),
    .back_i       (gback),
    .retire_i     (gretire),
    .retire_idx_i (GetIdW'(gretire_idx)),
    .amo_retire_i     (aretire),
    .amo_retire_idx_i (GetIdW'(aretire_idx)),
    .busy_o       (gtable_busy)
  );
  wire logic unused_get_busy = ^{gtable_busy, gserver_busy, amo_busy, gretire_idx, aretire_idx};

  // The table's head goes to the AMO unit if it is an accepted atomic, else to the get
  // server (gets, and refused atomics: one FAILED response either way).
  wire logic ghead_amo = ghead.amo && !ghead.failed;
  assign ghead_take = srv_take || amo_take;

  // Read address channel: the get server (ID 0) and the AMO unit (ID 1). The first to
  // present an address holds the channel until it is accepted (AXI: a valid address stays,
  // unchanged, until ARREADY); when both ask in one cycle the AMO unit goes first (it has
  // at most one read outstanding). Read data is routed by RID.
  logic                  srv_arvalid, srv_arready, amo_arvalid, amo_arready;
  logic [AxiIdWidth-1:0] srv_arid, amo_arid;
  logic [63:0]           srv_araddr, amo_araddr;
  logic [7:0]            srv_arlen, amo_arlen;
  logic [2:0]            srv_arsize, amo_arsize, srv_arprot, amo_arprot;
  logic [1:0]            srv_arburst, amo_arburst;
  logic [3:0]            srv_arcache, amo_arcache;
  logic                  ar_hold_q, ar_hold_amo_q;
  wire  logic            ar_amo = ar_hold_q ? ar_hold_amo_q : amo_arvalid;
  assign m_axi_arvalid_o = ar_amo ? amo_arvalid : srv_arvalid;
  assign m_axi_arid_o    = ar_amo ? amo_arid    : srv_arid;
  assign m_axi_araddr_o  = ar_amo ? amo_araddr  : srv_araddr;
  assign m_axi_arlen_o   = ar_amo ? amo_arlen   : srv_arlen;
  assign m_axi_arsize_o  = ar_amo ? amo_arsize  : srv_arsize;
  assign m_axi_arburst_o = ar_amo ? amo_arburst : srv_arburst;
  assign m_axi_arcache_o = ar_amo ? amo_arcache : srv_arcache;
  assign m_axi_arprot_o  = ar_amo ? amo_arprot  : srv_arprot;
  assign srv_arready     = m_axi_arready_i && !ar_amo;
  assign amo_arready     = m_axi_arready_i && ar_amo;
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      ar_hold_q <= 1'b0;
    end else begin
      ar_hold_q     <= m_axi_arvalid_o && !m_axi_arready_i;
      ar_hold_amo_q <= ar_amo;
    end
  end
  wire logic srv_rvalid = m_axi_rvalid_i && m_axi_rid_i == AxiIdWidth'(0);
  wire logic amo_rvalid = m_axi_rvalid_i && m_axi_rid_i == AxiIdWidth'(1);
  logic srv_rready;
  assign m_axi_rready_o = 1'b1;
  wire logic unused_srv_rready = srv_rready;

  // The AMO unit's write-back: a third source of the DMA writer.
  logic            amo_wr_valid, amo_wr_ready, amo_wdata_valid, amo_wdata_ready, amo_wr_done;
  logic [63:0]     amo_wr_addr, amo_wdata;
  logic [LenW-1:0] amo_wr_len;
  logic            amo_out_valid, amo_out_ready, amo_out_last;
  logic [63:0]     amo_out_flit;
  logic [VcW-1:0]  amo_out_vc;

  canopy_amo_unit #(.NumVcs(NumVcs), .AxiIdWidth(AxiIdWidth), .AxiId(1)) u_amo (
    .clk_i,
    .rst_i,
    .my_coord_i,
    .win_base_i      (win_base),
    .head_valid_i    (ghead_valid && ghead_amo),
    .head_i          (ghead),
    .head_take_o     (amo_take),
    .retire_o        (aretire),
    .retire_idx_o    (aretire_idx),
    .m_axi_arid_o    (amo_arid),
    .m_axi_araddr_o  (amo_araddr),
    .m_axi_arlen_o   (amo_arlen),
    .m_axi_arsize_o  (amo_arsize),
    .m_axi_arburst_o (amo_arburst),
    .m_axi_arcache_o (amo_arcache),
    .m_axi_arprot_o  (amo_arprot),
    .m_axi_arvalid_o (amo_arvalid),
    .m_axi_arready_i (amo_arready),
    .rvalid_i        (amo_rvalid),
    .rdata_i         (m_axi_rdata_i),
    .rresp_i         (m_axi_rresp_i),
    .err_read_o      (ev_amo_read_err),
    .wr_valid_o      (amo_wr_valid),
    .wr_ready_i      (amo_wr_ready),
    .wr_addr_o       (amo_wr_addr),
    .wr_len_o        (amo_wr_len),
    .wdata_valid_o   (amo_wdata_valid),
    .wdata_ready_i   (amo_wdata_ready),
    .wdata_o         (amo_wdata),
    .wr_done_i       (amo_wr_done),
    .out_valid_o     (amo_out_valid),
    .out_ready_i     (amo_out_ready),
    .out_flit_o      (amo_out_flit),
    .out_last_o      (amo_out_last),
    .out_vc_o        (amo_out_vc),
    .served_o        (ev_amo_answered),
    .failed_o        (ev_amo_failed),
    .busy_o          (amo_busy)
  );

  canopy_get_server #(.NumVcs(NumVcs), .BufWords(GetBufWords), .AxiIdWidth(AxiIdWidth)) u_get_server (
    .clk_i,
    .rst_i,
    .my_coord_i,
    .win_base_i   (win_base),
    .head_valid_i (ghead_valid && !ghead_amo),
    .head_i       (ghead),
    .head_take_o  (srv_take),
    .back_valid_o (gback_valid),
    .back_ready_i (gback_ready),
    .back_o       (gback),
    .retire_o     (gretire),
    .retire_idx_o (gretire_idx),
    .m_axi_arid_o    (srv_arid),
    .m_axi_araddr_o  (srv_araddr),
    .m_axi_arlen_o   (srv_arlen),
    .m_axi_arsize_o  (srv_arsize),
    .m_axi_arburst_o (srv_arburst),
    .m_axi_arcache_o (srv_arcache),
    .m_axi_arprot_o  (srv_arprot),
    .m_axi_arvalid_o (srv_arvalid),
    .m_axi_arready_i (srv_arready),
    .m_axi_rid_i, .m_axi_rdata_i, .m_axi_rresp_i, .m_axi_rlast_i,
    .m_axi_rvalid_i  (srv_rvalid),
    .m_axi_rready_o  (srv_rready),
    .out_valid_o  (srv_out_valid),
    .out_ready_i  (srv_out_ready),
    .out_flit_o   (srv_out_flit),
    .out_last_o   (srv_out_last),
    .out_vc_o     (srv_out_vc),
    .served_o     (ev_get_served),
    .err_read_o   (ev_get_read_err),
    .busy_o       (gserver_busy)
  );

  canopy_inj_mux #(
    .NumIn     (4),
    .NumVcs    (NumVcs),
    .FlitWidth (FlitWidth),
    .Credits   (LocalBufDepth)
  ) u_inj_mux (
    .clk_i,
    .rst_i,
    .in_valid_i  ({amo_out_valid, srv_out_valid, ack_out_valid, inj_out_valid}),
    .in_ready_o  ({amo_out_ready, srv_out_ready, ack_out_ready, inj_out_ready}),
    .in_flit_i   ({amo_out_flit, srv_out_flit, ack_out_flit, inj_out_flit}),
    .in_last_i   ({amo_out_last, srv_out_last, ack_out_last, inj_out_last}),
    .in_vc_i     ({amo_out_vc, srv_out_vc, ack_out_vc, inj_out_vc}),
    .rx_valid_o  (inj_valid_o),
    .rx_flit_o   (inj_flit_o),
    .rx_last_o   (inj_last_o),
    .rx_vc_o     (inj_vc_o),
    .rx_credit_i (inj_credit_i)
  );

  // ---------------------------------------------------------------- ejection
  logic            ej_req_valid, ej_req_ready, ej_data_valid, ej_data_ready, ej_data_poison;
  logic [63:0]     ej_req_addr, ej_data;
  logic [LenW-1:0] ej_req_len;
  logic [TagW-1:0] ej_req_tag;
  logic            done_valid, done_err, ev_dma_write_err;
  logic [TagW-1:0] done_tag;
  logic            ev_rx_flit, ev_rx_pkt, ev_rx_put, ev_ej_written, ev_dma_bounds, ev_ej_noring;
  logic            ev_ej_doorbell;
  logic [CntW-1:0] acked_add, failed_add;

  logic ev_rx_bcast, ev_result, ev_get_resp, ev_get_done, ev_get_failed, ev_get_bounds, ev_get_dropped;
  canopy_ejector #(
    .NumVcs       (NumVcs),
    .EjectCredits (EjectCredits),
    .NumTrees     (NumTrees),
    .MaxNodes     (MaxNodes)
  ) u_ejector (
    .clk_i,
    .rst_i,
    .ej_valid_i,
    .ej_flit_i,
    .ej_last_i,
    .ej_vc_i,
    .ej_credit_o,
    .win_base_i       (win_base),
    .win_size_i       (win_size),
    .ej_base_i        (ej_base),
    .ej_entries_i     (ej_entries),
    .ej_head_we_i     (ej_head_we_q),
    .ej_head_i        (ej_head),
    .coll_wb_base_i   (coll_wb_base),
    .coll_wb_set_i    (coll_wb_set),
    .tbl_we_o         (cfg_we),
    .tbl_widx_o       (cfg_widx),
    .tbl_wentry_o     (cfg_wentry),
    .tbl_wok_i        (tbl_wok_i),
    .tbl_busy_i       (tree_entry_we_q),
    .cnt_clear_i      (tbl_we_o && tbl_wok_i),
    .cnt_clear_idx_i  (tbl_widx_o),
    .req_valid_o      (ej_req_valid),
    .req_ready_i      (ej_req_ready),
    .req_addr_o       (ej_req_addr),
    .req_len_o        (ej_req_len),
    .req_tag_o        (ej_req_tag),
    .data_valid_o     (ej_data_valid),
    .data_ready_i     (ej_data_ready),
    .data_o           (ej_data),
    .data_poison_o    (ej_data_poison),
    .done_valid_i     (done_valid),
    .done_tag_i       (done_tag),
    .done_err_i       (done_err),
    .ack_valid_o      (ack_inc_valid),
    .ack_ok_o         (ack_inc_ok),
    .ack_src_o        (ack_inc_src),
    .rx_flit_o        (ev_rx_flit),
    .rx_pkt_o         (ev_rx_pkt),
    .rx_put_o         (ev_rx_put),
    .rx_bcast_o       (ev_rx_bcast),
    .result_o         (ev_result),
    .my_coord_i,
    .torus_size_i,
    .get_wb_base_i    (get_wb_base),
    .get_wb_set_i     (get_wb_set),
    .gpush_valid_o    (gpush_valid),
    .gpush_idx_o      (gpush_idx),
    .gpush_entry_o    (gpush_entry),
    .gpush_ok_i       (gpush_ok),
    .gmark_o          (gmark),
    .get_resp_o       (ev_get_resp),
    .get_done_o       (ev_get_done),
    .get_failed_o     (ev_get_failed),
    .err_get_bounds_o (ev_get_bounds),
    .err_get_dropped_o(ev_get_dropped),
    .err_tree_write_o (ev_tree_refused_cfg),
    .ej_written_o     (ev_ej_written),
    .acked_add_o      (acked_add),
    .failed_add_o     (failed_add),
    .err_dma_bounds_o (ev_dma_bounds),
    .err_ej_noring_o  (ev_ej_noring),
    .err_doorbell_o   (ev_ej_doorbell),
    .ej_full_o        (ej_full)
  );

  // The ejector's requests and payload words reach the DMA writer through register slices
  // (a head register and two entries behind it each): the ejector's VC choice and packet
  // decode end at a register, and the DMA writer's source multiplexing, splitting and word
  // realignment start at one, instead of one cycle holding both (the node's critical path
  // before, 13 logic levels from an ejection buffer head to the AXI W FIFO).
  logic            ejq_req_valid, ejq_req_ready, ejq_data_valid, ejq_data_ready, ejq_data_poison;
  logic [63:0]     ejq_req_addr, ejq_data;
  logic [LenW-1:0] ejq_req_len;
  logic [TagW-1:0] ejq_req_tag;
  logic [$clog2(2 + 1):0] unused_ejq_req_count, unused_ejq_data_count;  // (Depth 2)
  logic                   unused_ej_req_slice_next_valid;  // the FIFO's peek port, not read here
  logic [63 + LenW + TagW:0] unused_ej_req_slice_next_data;
  canopy_reg_fifo #(.Width(64 + LenW + TagW), .Depth(2)) u_ej_req_slice (
    .clk_i, .rst_i,
    .in_valid_i  (ej_req_valid),
    .in_ready_o  (ej_req_ready),
    .in_data_i   ({ej_req_addr, ej_req_len, ej_req_tag}),
    .out_valid_o (ejq_req_valid),
    .out_ready_i (ejq_req_ready),
    .out_data_o  ({ejq_req_addr, ejq_req_len, ejq_req_tag}),
    .count_o     (unused_ejq_req_count),
    .next_valid_o (unused_ej_req_slice_next_valid),
    .next_data_o  (unused_ej_req_slice_next_data)
  );
  logic                   unused_ej_data_slice_next_valid;  // the FIFO's peek port, not read here
  logic [64:0]            unused_ej_data_slice_next_data;
  canopy_reg_fifo #(.Width(65), .Depth(2)) u_ej_data_slice (
    .clk_i, .rst_i,
    .in_valid_i  (ej_data_valid),
    .in_ready_o  (ej_data_ready),
    .in_data_i   ({ej_data_poison, ej_data}),
    .out_valid_o (ejq_data_valid),
    .out_ready_i (ejq_data_ready),
    .out_data_o  ({ejq_data_poison, ejq_data}),
    .count_o     (unused_ejq_data_count),
    .next_valid_o (unused_ej_data_slice_next_valid),
    .next_data_o  (unused_ej_data_slice_next_data)
  );

  // ---------------------------------------------------------------- writeback
  logic        wb_req_valid, wb_req_ready, wb_data_valid, wb_data_ready, wb_done;
  logic [63:0] wb_req_addr, wb_data;
  logic [6:0]  wb_req_len;

  canopy_writeback u_writeback (
    .clk_i,
    .rst_i,
    .wb_base_i     (wb_base),
    .inj_head_i    (64'(inj_head)),
    .puts_acked_i  (cnt_q[CPutsAcked]),
    .puts_failed_i (cnt_q[CPutsFailed]),
    .rx_puts_i     (cnt_q[CRxPuts]),
    .ej_written_i  (cnt_q[CEjWritten]),
    .gets_done_i   (cnt_q[CGetsDone]),
    .gets_failed_i (cnt_q[CGetsFailed]),
    .req_valid_o   (wb_req_valid),
    .req_ready_i   (wb_req_ready),
    .req_addr_o    (wb_req_addr),
    .req_len_o     (wb_req_len),
    .data_valid_o  (wb_data_valid),
    .data_ready_i  (wb_data_ready),
    .data_o        (wb_data),
    .done_i        (wb_done)
  );

  // ---------------------------------------------------------------- DMA writer
  // Source 0: the ejector (payloads, ring entries); source 1: the writeback block; source
  // 2: the AMO unit's write-backs.
  logic [2:0]            dma_req, dma_grant;
  logic [1:0]            dma_pick, dma_data_src;
  logic                  dma_req_valid, dma_req_ready, dma_data_valid;
  logic                  dma_data_ready;
  logic [63:0]           dma_req_addr, dma_data;
  logic [LenW-1:0]       dma_req_len;
  logic [TagW-1:0]       dma_req_tag;
  canopy_host_pkg::dma_tag_t wb_tag, amo_tag, done_dec;

  assign dma_req = {amo_wr_valid, wb_req_valid, ejq_req_valid};
  canopy_rr_arbiter #(.NumReq(3)) u_dma_arb (
    .clk_i,
    .rst_i,
    .req_i       (dma_req),
    .advance_i   (dma_req_valid && dma_req_ready),
    .grant_o     (dma_grant),
    .grant_idx_o (dma_pick)
  );

  always_comb begin
    wb_tag.kind    = canopy_host_pkg::DmaWb;
    wb_tag.ack_req = 1'b0;
    wb_tag.src     = '0;
    amo_tag.kind    = canopy_host_pkg::DmaAmo;
    amo_tag.ack_req = 1'b0;
    amo_tag.src     = '0;
  end

  assign dma_req_valid = dma_req != '0;
  assign dma_req_addr  = dma_pick == 2'd2 ? amo_wr_addr : dma_pick == 2'd1 ? wb_req_addr : ejq_req_addr;
  assign dma_req_len   = dma_pick == 2'd2 ? amo_wr_len
                       : dma_pick == 2'd1 ? LenW'(wb_req_len) : ejq_req_len;
  assign dma_req_tag   = dma_pick == 2'd2 ? TagW'(amo_tag) : dma_pick == 2'd1 ? TagW'(wb_tag) : ejq_req_tag;
  assign ejq_req_ready = dma_req_ready && dma_grant[0];
  assign wb_req_ready  = dma_req_ready && dma_grant[1];
  assign amo_wr_ready  = dma_req_ready && dma_grant[2];

  assign dma_data_valid  = dma_data_src == 2'd2 ? amo_wdata_valid
                         : dma_data_src == 2'd1 ? wb_data_valid : ejq_data_valid;
  assign dma_data        = dma_data_src == 2'd2 ? amo_wdata : dma_data_src == 2'd1 ? wb_data : ejq_data;
  assign ejq_data_ready  = dma_data_ready && dma_data_src == 2'd0;
  assign wb_data_ready   = dma_data_ready && dma_data_src == 2'd1;
  assign amo_wdata_ready = dma_data_ready && dma_data_src == 2'd2;

  canopy_dma_writer #(
    .TagWidth       (TagW),
    .NumSrcs        (3),
    .AxiIdWidth     (AxiIdWidth),
    .MaxOutstanding (8)
  ) u_dma (
    .clk_i,
    .rst_i,
    .req_valid_i  (dma_req_valid),
    .req_ready_o  (dma_req_ready),
    .req_addr_i   (dma_req_addr),
    .req_len_i    (dma_req_len),
    .req_src_i    (dma_pick),
    .req_tag_i    (dma_req_tag),
    .data_src_o   (dma_data_src),
    .data_valid_i (dma_data_valid),
    .data_ready_o (dma_data_ready),
    .data_i       (dma_data),
    .data_poison_i (dma_data_src == 2'd0 && ejq_data_poison),  // only arrivals can be cut
    .done_valid_o (done_valid),
    .done_tag_o   (done_tag),
    .done_err_o   (done_err),
    .err_resp_o   (ev_dma_write_err),
    .m_axi_awid_o, .m_axi_awaddr_o, .m_axi_awlen_o, .m_axi_awsize_o, .m_axi_awburst_o,
    .m_axi_awcache_o, .m_axi_awprot_o, .m_axi_awvalid_o, .m_axi_awready_i,
    .m_axi_wdata_o, .m_axi_wstrb_o, .m_axi_wlast_o, .m_axi_wvalid_o, .m_axi_wready_i,
    .m_axi_bid_i, .m_axi_bresp_i, .m_axi_bvalid_i, .m_axi_bready_o
  );

  assign done_dec = canopy_host_pkg::dma_tag_t'(done_tag);
  assign wb_done  = done_valid && done_dec.kind == canopy_host_pkg::DmaWb;
  assign amo_wr_done = done_valid && done_dec.kind == canopy_host_pkg::DmaAmo;
  wire logic unused_done_dec = ^{done_dec.ack_req, done_dec.src};

  // Reduce contributions leaving for the router (002's sent-reduce counter).
  logic inj_mid_q;  // inside a packet on the injection port
  always_ff @(posedge clk_i) begin
    if (rst_i)            inj_mid_q <= 1'b0;
    else if (inj_valid_o) inj_mid_q <= !inj_last_o;
  end
  /* verilator lint_off UNUSEDSIGNAL */
  canopy_pkg::hdr_t inj_hdr;
  /* verilator lint_on UNUSEDSIGNAL */
  assign inj_hdr = canopy_pkg::hdr_t'({inj_flit_o, inj_flit_o});
  wire logic ev_reduce_sent = inj_valid_o && !inj_mid_q && inj_hdr.ptype == canopy_pkg::PKT_REDUCE;

  // ---------------------------------------------------------------- counters
  always_comb begin
    cnt_inc = '0;
    cnt_inc[CErrDmaBounds] = CntW'(ev_dma_bounds);
    cnt_inc[CErrInjDesc]   = CntW'(ev_inj_desc);
    cnt_inc[CErrInjLen]    = CntW'(ev_inj_len);
    cnt_inc[CErrInjWrite]  = CntW'(ev_inj_write);
    cnt_inc[CErrDoorbell]  = CntW'(ev_inj_doorbell) + CntW'(ev_ej_doorbell);
    cnt_inc[CErrCsr]       = CntW'(csr_err) + CntW'(slv_err_wr) + CntW'(slv_err_rd);
    cnt_inc[CErrEjNoring]  = CntW'(ev_ej_noring);
    cnt_inc[CTxPkts]       = CntW'(ev_tx_pkt);
    cnt_inc[CTxFlits]      = CntW'(ev_tx_flit);
    cnt_inc[CRxPkts]       = CntW'(ev_rx_pkt);
    cnt_inc[CRxFlits]      = CntW'(ev_rx_flit);
    cnt_inc[CRxPuts]       = CntW'(ev_rx_put);
    cnt_inc[CPutsAcked]    = acked_add;
    cnt_inc[CPutsFailed]   = failed_add;
    cnt_inc[CEjWritten]    = CntW'(ev_ej_written);
    cnt_inc[CErrTreeWrite] = CntW'(ev_tree_refused_csr) + CntW'(ev_tree_refused_cfg);
    cnt_inc[CRxBcasts]     = CntW'(ev_rx_bcast);
    cnt_inc[CReducesSent]  = CntW'(ev_reduce_sent);
    cnt_inc[CReducesDone]  = CntW'(ev_result);
    cnt_inc[CErrGetBounds] = CntW'(ev_get_bounds);
    cnt_inc[CErrGetDropped] = CntW'(ev_get_dropped);
    cnt_inc[CGetsServed]   = CntW'(ev_get_served) + CntW'(ev_amo_answered);
    cnt_inc[CAmosServed]   = CntW'(ev_amo_answered && !ev_amo_failed);
    cnt_inc[CErrDmaWrite]  = CntW'(ev_dma_write_err);
    cnt_inc[CErrDmaRead]   = CntW'(ev_get_read_err) + CntW'(ev_amo_read_err);
    cnt_inc[CGetResps]     = CntW'(ev_get_resp);
    cnt_inc[CGetsDone]     = CntW'(ev_get_done);
    cnt_inc[CGetsFailed]   = CntW'(ev_get_failed);
  end

  // The increments are registered before the 64-bit adds: the events come out of deep
  // decode logic (ejector, rings, AXI), and a counter a cycle late is invisible to software.
  logic [NumCnt-1:0][CntW-1:0] cnt_inc_q;
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      cnt_inc_q <= '0;
      cnt_q     <= '0;
    end else begin
      cnt_inc_q <= cnt_inc;
      for (int unsigned k = 0; k < NumCnt; k++) cnt_q[k] <= cnt_q[k] + 64'(cnt_inc_q[k]);
    end
  end
endmodule

`default_nettype wire
