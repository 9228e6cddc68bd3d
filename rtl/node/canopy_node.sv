// canopy_node: one whole canopy node: the host interface (canopy_host_if) on the local
// port of a router (canopy_router).
//
// Interface contract
//   - s_axi_*: AXI4 slave, the host's BAR0 (64 KiB: CSRs at 0x0000, injection ring window
//     at 0x8000; see docs/host-interface.md and docs/register-map.md).
//   - m_axi_*: AXI4 master into host memory: write channels (aw/w/b) for the DMA window,
//     ejection ring, writeback block and completion areas; read channels (ar/r) for the
//     window's bytes that GET requests ask for (RREADY always high).
//   - tx_* / rx_*: the 2*NumDims link ports, with the router's names and link protocol
//     (see canopy_router), index 2d toward + in dimension d, 2d+1 toward -: the router's
//     ports without the local one. Credits start full out of reset: LinkBufDepth per
//     point-to-point VC and on COLL_DOWN, CollBufDepth on COLL_UP, on every link.
//   - rx_slot_credit_* / tx_slot_credit_*: the collective subnet's slot credits beside
//     the flit credits of each link (see canopy_router), same indexing.
//   - my_coord_i / torus_size_i: static while out of reset; sizes of unused dimensions 1.
//   - link_down_i / link_drops_i: from the link ends outside the node (rtl/link/canopy_link,
//     one per link port, same indexing): link p is down; flits dropped into dead links.
//     Shown in LINK_DOWN / LINK_DROPS; tie to 0 where the links are unprotected.
// Parameters: NumDims must be set; the others default to the router's and the host
// interface's defaults. FlitWidth must be 64 (the host interface's word).
`default_nettype none

module canopy_node #(
  parameter int unsigned NumDims       = 0,    /// torus dimensions, 1..4; must be set
  parameter int unsigned NumVcs        = 4,    /// VCs per link (2 point-to-point, 2 collective)
  parameter int unsigned FlitWidth     = 64,   /// bits per flit: 64 (the host interface's word)
  parameter int unsigned LinkBufDepth  = 64,   /// flits per VC buffer on link inputs
  parameter int unsigned CollBufDepth  = 32,   /// flits per COLL_UP buffer on link inputs (COLL_DOWN's: LinkBufDepth)
  parameter int unsigned LocalBufDepth = 32,   /// flits per VC buffer on the injection port
  parameter int unsigned EjectCredits  = 16,   /// flits per VC the host interface buffers
  parameter int unsigned InjRingWords  = 2048, /// injection ring words: a power of two, 64..4096
  parameter int unsigned MaxNodes      = 256,  /// ACK table entries: nodes of the largest torus served
  parameter int unsigned BuildGit      = 0,    /// BUILD.git: first 8 hex digits of the git commit
  parameter int unsigned BuildDate     = 0,    /// BUILD.date: decimal YYYYMMDD
  parameter int unsigned AxiIdWidth    = 4,    /// AXI ID bits, slave and master
  parameter int unsigned NumTrees      = 16,   /// collective routing table entries
  parameter int unsigned SlotsPerTree  = 2,    /// collective working-memory packets per tree
  localparam int unsigned NumLinks = 2 * NumDims,
  localparam int unsigned VcW = $clog2(NumVcs),
  localparam int unsigned TreeIdW = canopy_pkg::HdrTreeBits
) (
  input  wire logic                                                    clk_i,
  input  wire logic                                                    rst_i,
  // Plain packed bits in the layout of canopy_pkg::coords_t, so that a top (a simulator's
  // tile, a board) drives them without the package's typedef.
  input  wire logic [canopy_pkg::MaxDims-1:0][canopy_pkg::CoordBits-1:0] my_coord_i,
  input  wire logic [canopy_pkg::MaxDims-1:0][canopy_pkg::CoordBits:0] torus_size_i,

  // AXI4 slave (BAR0)
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

  // AXI4 master (host memory)
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

  // links (the router's ports 0..2*NumDims-1)
  input  wire logic [NumLinks-1:0]                 rx_valid_i,
  input  wire logic [NumLinks-1:0][FlitWidth-1:0]  rx_flit_i,
  input  wire logic [NumLinks-1:0]                 rx_last_i,
  input  wire logic [NumLinks-1:0][VcW-1:0]        rx_vc_i,
  output logic      [NumLinks-1:0][NumVcs-1:0]     rx_credit_o,
  output logic      [NumLinks-1:0]                 tx_valid_o,
  output logic      [NumLinks-1:0][FlitWidth-1:0]  tx_flit_o,
  output logic      [NumLinks-1:0]                 tx_last_o,
  output logic      [NumLinks-1:0][VcW-1:0]        tx_vc_o,
  input  wire logic [NumLinks-1:0][NumVcs-1:0]     tx_credit_i,
  output logic      [NumLinks-1:0]                 rx_slot_credit_valid_o,
  output logic      [NumLinks-1:0][TreeIdW-1:0]    rx_slot_credit_tree_o,
  input  wire logic [NumLinks-1:0]                 tx_slot_credit_valid_i,
  input  wire logic [NumLinks-1:0][TreeIdW-1:0]    tx_slot_credit_tree_i,
  input  wire logic [NumLinks-1:0]                 link_down_i,
  input  wire logic [31:0]                         link_drops_i
);
  localparam int unsigned NumPorts  = NumLinks + 1;
  localparam int unsigned LocalPort = NumLinks;

  // Router port bundles: links 0..NumLinks-1, the local port on top.
  logic [NumPorts-1:0]                 rtr_rx_valid, rtr_rx_last, rtr_tx_valid, rtr_tx_last;
  logic [NumPorts-1:0][FlitWidth-1:0]  rtr_rx_flit, rtr_tx_flit;
  logic [NumPorts-1:0][VcW-1:0]        rtr_rx_vc, rtr_tx_vc;
  logic [NumPorts-1:0][NumVcs-1:0]     rtr_rx_credit, rtr_tx_credit;
  logic [31:0]                         err_bad_type, err_bad_dst, err_bad_len;
  logic [31:0]                         err_coll_dir, err_coll_tree, err_reduce, reduces_refused;
  logic                                tbl_we, tbl_wok;
  logic [TreeIdW-1:0]                  tbl_widx, tbl_ridx;
  canopy_pkg::tree_entry_t             tbl_wentry, tbl_rentry;
  logic                                unused_local_slot_valid;
  logic [TreeIdW-1:0]                  unused_local_slot_tree;

  logic                 inj_valid, inj_last, ej_valid, ej_last;
  logic [FlitWidth-1:0] inj_flit, ej_flit;
  logic [VcW-1:0]       inj_vc, ej_vc;
  logic [NumVcs-1:0]    inj_credit, ej_credit;

  assign rtr_rx_valid  = {inj_valid, rx_valid_i};
  assign rtr_rx_flit   = {inj_flit, rx_flit_i};
  assign rtr_rx_last   = {inj_last, rx_last_i};
  assign rtr_rx_vc     = {inj_vc, rx_vc_i};
  assign rtr_tx_credit = {ej_credit, tx_credit_i};

  assign rx_credit_o = rtr_rx_credit[NumLinks-1:0];
  assign tx_valid_o  = rtr_tx_valid[NumLinks-1:0];
  assign tx_flit_o   = rtr_tx_flit[NumLinks-1:0];
  assign tx_last_o   = rtr_tx_last[NumLinks-1:0];
  assign tx_vc_o     = rtr_tx_vc[NumLinks-1:0];

  assign inj_credit = rtr_rx_credit[LocalPort];
  assign ej_valid   = rtr_tx_valid[LocalPort];
  assign ej_flit    = rtr_tx_flit[LocalPort];
  assign ej_last    = rtr_tx_last[LocalPort];
  assign ej_vc      = rtr_tx_vc[LocalPort];

  canopy_router #(
    .NumDims       (NumDims),
    .NumVcs        (NumVcs),
    .FlitWidth     (FlitWidth),
    .LinkBufDepth  (LinkBufDepth),
    .CollBufDepth  (CollBufDepth),
    .LocalBufDepth (LocalBufDepth),
    .EjectCredits  (EjectCredits),
    .NumTrees      (NumTrees),
    .SlotsPerTree  (SlotsPerTree)
  ) u_router (
    .clk_i,
    .rst_i,
    .my_coord_i,
    .torus_size_i,
    .rx_valid_i     (rtr_rx_valid),
    .rx_flit_i      (rtr_rx_flit),
    .rx_last_i      (rtr_rx_last),
    .rx_vc_i        (rtr_rx_vc),
    .rx_credit_o    (rtr_rx_credit),
    .tx_valid_o     (rtr_tx_valid),
    .tx_flit_o      (rtr_tx_flit),
    .tx_last_o      (rtr_tx_last),
    .tx_vc_o        (rtr_tx_vc),
    .tx_credit_i    (rtr_tx_credit),
    .rx_slot_credit_valid_o ({unused_local_slot_valid, rx_slot_credit_valid_o}),
    .rx_slot_credit_tree_o  ({unused_local_slot_tree, rx_slot_credit_tree_o}),
    .tx_slot_credit_valid_i ({1'b0, tx_slot_credit_valid_i}),
    .tx_slot_credit_tree_i  ({TreeIdW'(0), tx_slot_credit_tree_i}),
    .tbl_we_i       (tbl_we),
    .tbl_widx_i     (tbl_widx),
    .tbl_wentry_i   (tbl_wentry),
    .tbl_wok_o      (tbl_wok),
    .tbl_ridx_i     (tbl_ridx),
    .tbl_rentry_o   (tbl_rentry),
    .err_bad_type_o (err_bad_type),
    .err_bad_dst_o  (err_bad_dst),
    .err_bad_len_o  (err_bad_len),
    .err_coll_dir_o (err_coll_dir),
    .err_coll_tree_o(err_coll_tree),
    .err_reduce_o   (err_reduce),
    .reduces_refused_o(reduces_refused)
  );

  canopy_host_if #(
    .NumDims       (NumDims),
    .NumVcs        (NumVcs),
    .FlitWidth     (FlitWidth),
    .LocalBufDepth (LocalBufDepth),
    .EjectCredits  (EjectCredits),
    .InjRingWords  (InjRingWords),
    .MaxNodes      (MaxNodes),
    .BuildGit      (BuildGit),
    .BuildDate     (BuildDate),
    .AxiIdWidth    (AxiIdWidth),
    .NumTrees      (NumTrees)
  ) u_host_if (
    .clk_i,
    .rst_i,
    .my_coord_i,
    .torus_size_i,
    .s_axi_awid_i, .s_axi_awaddr_i, .s_axi_awlen_i, .s_axi_awsize_i, .s_axi_awburst_i,
    .s_axi_awvalid_i, .s_axi_awready_o,
    .s_axi_wdata_i, .s_axi_wstrb_i, .s_axi_wlast_i, .s_axi_wvalid_i, .s_axi_wready_o,
    .s_axi_bid_o, .s_axi_bresp_o, .s_axi_bvalid_o, .s_axi_bready_i,
    .s_axi_arid_i, .s_axi_araddr_i, .s_axi_arlen_i, .s_axi_arsize_i, .s_axi_arburst_i,
    .s_axi_arvalid_i, .s_axi_arready_o,
    .s_axi_rid_o, .s_axi_rdata_o, .s_axi_rresp_o, .s_axi_rlast_o, .s_axi_rvalid_o,
    .s_axi_rready_i,
    .m_axi_awid_o, .m_axi_awaddr_o, .m_axi_awlen_o, .m_axi_awsize_o, .m_axi_awburst_o,
    .m_axi_awcache_o, .m_axi_awprot_o, .m_axi_awvalid_o, .m_axi_awready_i,
    .m_axi_wdata_o, .m_axi_wstrb_o, .m_axi_wlast_o, .m_axi_wvalid_o, .m_axi_wready_i,
    .m_axi_bid_i, .m_axi_bresp_i, .m_axi_bvalid_i, .m_axi_bready_o,
    .m_axi_arid_o, .m_axi_araddr_o, .m_axi_arlen_o, .m_axi_arsize_o, .m_axi_arburst_o,
    .m_axi_arcache_o, .m_axi_arprot_o, .m_axi_arvalid_o, .m_axi_arready_i,
    .m_axi_rid_i, .m_axi_rdata_i, .m_axi_rresp_i, .m_axi_rlast_i, .m_axi_rvalid_i, .m_axi_rready_o,
    .inj_valid_o    (inj_valid),
    .inj_flit_o     (inj_flit),
    .inj_last_o     (inj_last),
    .inj_vc_o       (inj_vc),
    .inj_credit_i   (inj_credit),
    .ej_valid_i     (ej_valid),
    .ej_flit_i      (ej_flit),
    .ej_last_i      (ej_last),
    .ej_vc_i        (ej_vc),
    .ej_credit_o    (ej_credit),
    .err_bad_type_i (err_bad_type),
    .err_bad_dst_i  (err_bad_dst),
    .err_bad_len_i  (err_bad_len),
    .err_coll_dir_i (err_coll_dir),
    .err_coll_tree_i(err_coll_tree),
    .err_reduce_i   (err_reduce),
    .reduces_refused_i(reduces_refused),
    .link_down_i,
    .link_drops_i,
    .tbl_we_o       (tbl_we),
    .tbl_widx_o     (tbl_widx),
    .tbl_wentry_o   (tbl_wentry),
    .tbl_wok_i      (tbl_wok),
    .tbl_ridx_o     (tbl_ridx),
    .tbl_rentry_i   (tbl_rentry)
  );
endmodule

`default_nettype wire
