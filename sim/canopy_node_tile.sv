// canopy_node_tile: one node of the co-simulation (canopy-cosim): a whole canopy_node
// (host interface and router) and the links it transmits on (canopy_tile_links).
//
// Interface contract
//   - my_coord_i / torus_size_i: as the node takes them (the co-simulator computes them).
//   - The node's AXI4 slave (BAR0) and AXI4 master (DMA writes, and the reads that serve
//     gets) with the node's own signal names; the co-simulation harness (sim/cosim/) plays
//     the PCIe side on them. It uses one AXI ID for MMIO and DMA writes; DMA reads carry
//     theirs (the get server's and the AMO unit's reads are told apart by it). Cache and
//     protection attributes are not modelled.
//   - link_o / link_i / link_credit_o / link_credit_i: as in canopy_router_tile; the
//     co-simulator copies each tile's link outputs to its peers once per cycle. All of
//     them are registers.
`default_nettype none

module canopy_node_tile #(
  parameter int unsigned NumDims       = 2,
  parameter int unsigned LinkLatency   = 1,   /// cycles each way between routers, >= 1
  parameter int unsigned LinkProtect   = 0,    /// 1: a protected link end on every link port (canopy_link)
  parameter int unsigned FlitWidth     = 64,
  parameter int unsigned NumVcs        = 4,
  parameter int unsigned LinkBufDepth  = 64,
  parameter int unsigned CollBufDepth  = 32,
  parameter int unsigned LocalBufDepth = 32,
  parameter int unsigned EjectCredits  = 16,
  parameter int unsigned BuildGit      = 0,
  parameter int unsigned BuildDate     = 0,
  parameter int unsigned MaxNodes      = 256, /// the node's per-source tables: >= the torus's nodes
  localparam int unsigned NumLinks = 2 * NumDims,
  localparam int unsigned VcW      = $clog2(NumVcs),
  localparam int unsigned TreeIdW  = canopy_pkg::HdrTreeBits,
  localparam int unsigned LinkW    = FlitWidth + VcW + 2 + LinkProtect,
  localparam int unsigned CreditW  = NumVcs + 1 + TreeIdW,
  localparam int unsigned IdW      = 4
) (
  input  wire logic                                                      clk_i,
  input  wire logic                                                      rst_i,
  input  wire logic [canopy_pkg::MaxDims-1:0][canopy_pkg::CoordBits-1:0] my_coord_i,
  input  wire logic [canopy_pkg::MaxDims-1:0][canopy_pkg::CoordBits:0]   torus_size_i,
  input  wire logic         s_axi_awvalid_i,
  output logic              s_axi_awready_o,
  input  wire logic [15:0]  s_axi_awaddr_i,
  input  wire logic [7:0]   s_axi_awlen_i,
  input  wire logic [2:0]   s_axi_awsize_i,
  input  wire logic [1:0]   s_axi_awburst_i,
  input  wire logic         s_axi_wvalid_i,
  output logic              s_axi_wready_o,
  input  wire logic [63:0]  s_axi_wdata_i,
  input  wire logic [7:0]   s_axi_wstrb_i,
  input  wire logic         s_axi_wlast_i,
  output logic              s_axi_bvalid_o,
  input  wire logic         s_axi_bready_i,
  output logic      [1:0]   s_axi_bresp_o,
  input  wire logic         s_axi_arvalid_i,
  output logic              s_axi_arready_o,
  input  wire logic [15:0]  s_axi_araddr_i,
  input  wire logic [7:0]   s_axi_arlen_i,
  input  wire logic [2:0]   s_axi_arsize_i,
  input  wire logic [1:0]   s_axi_arburst_i,
  output logic              s_axi_rvalid_o,
  input  wire logic         s_axi_rready_i,
  output logic      [63:0]  s_axi_rdata_o,
  output logic      [1:0]   s_axi_rresp_o,
  output logic              s_axi_rlast_o,
  output logic              m_axi_awvalid_o,
  input  wire logic         m_axi_awready_i,
  output logic      [63:0]  m_axi_awaddr_o,
  output logic      [7:0]   m_axi_awlen_o,
  output logic      [2:0]   m_axi_awsize_o,
  output logic      [1:0]   m_axi_awburst_o,
  output logic              m_axi_wvalid_o,
  input  wire logic         m_axi_wready_i,
  output logic      [63:0]  m_axi_wdata_o,
  output logic      [7:0]   m_axi_wstrb_o,
  output logic              m_axi_wlast_o,
  input  wire logic         m_axi_bvalid_i,
  output logic              m_axi_bready_o,
  input  wire logic [1:0]   m_axi_bresp_i,
  output logic              m_axi_arvalid_o,
  input  wire logic         m_axi_arready_i,
  output logic      [63:0]  m_axi_araddr_o,
  output logic      [7:0]   m_axi_arlen_o,
  output logic      [2:0]   m_axi_arsize_o,
  output logic      [1:0]   m_axi_arburst_o,
  output logic      [3:0]   m_axi_arid_o,
  input  wire logic         m_axi_rvalid_i,
  input  wire logic [3:0]   m_axi_rid_i,
  output logic              m_axi_rready_o,
  input  wire logic [63:0]  m_axi_rdata_i,
  input  wire logic [1:0]   m_axi_rresp_i,
  input  wire logic         m_axi_rlast_i,
  output logic      [LinkW-1:0]   link_o [NumLinks],
  input  wire logic [LinkW-1:0]   link_i [NumLinks],
  output logic      [CreditW-1:0] link_credit_o [NumLinks],
  input  wire logic [CreditW-1:0] link_credit_i [NumLinks],
  output logic      [31:0]        link_replays_o,   // protected links: replays started
  output logic      [31:0]        link_errors_o,    //   frames refused,
  output logic      [31:0]        link_flits_o,     //   flits handed to the router,
  output logic      [NumLinks-1:0]  link_down_o,      //   links down,
  output logic      [31:0]        link_drops_o      //   and flits dropped by a dead link
);
  logic [NumLinks-1:0]                rx_valid, rx_last, tx_valid, tx_last;
  logic [NumLinks-1:0][FlitWidth-1:0] rx_flit, tx_flit;
  logic [NumLinks-1:0][VcW-1:0]       rx_vc, tx_vc;
  logic [NumLinks-1:0][NumVcs-1:0]    rx_credit, tx_credit;
  logic [NumLinks-1:0]                rx_slot_valid, tx_slot_valid;
  logic [NumLinks-1:0][TreeIdW-1:0]   rx_slot_tree, tx_slot_tree;

  canopy_tile_links #(
    .NumLinks (NumLinks), .LinkLatency (LinkLatency), .FlitWidth (FlitWidth), .NumVcs (NumVcs),
    .LinkProtect (LinkProtect)
  ) u_links (
    .clk_i, .rst_i,
    .tx_valid_i (tx_valid), .tx_flit_i (tx_flit), .tx_last_i (tx_last), .tx_vc_i (tx_vc),
    .tx_credit_o (tx_credit), .tx_slot_valid_o (tx_slot_valid), .tx_slot_tree_o (tx_slot_tree),
    .link_o, .credit_i (link_credit_i),
    .link_i, .rx_valid_o (rx_valid), .rx_flit_o (rx_flit), .rx_last_o (rx_last), .rx_vc_o (rx_vc),
    .rx_credit_i (rx_credit), .rx_slot_valid_i (rx_slot_valid), .rx_slot_tree_i (rx_slot_tree),
    .link_credit_o, .link_replays_o, .link_errors_o, .link_flits_o,
    .link_down_o, .link_drops_o
  );

  wire logic [IdW-1:0] unused_bid, unused_rid, unused_awid;
  wire logic [3:0]     unused_awcache, unused_arcache;
  wire logic [2:0]     unused_awprot, unused_arprot;
  canopy_node #(
    .NumDims       (NumDims),
    .NumVcs        (NumVcs),
    .FlitWidth     (FlitWidth),
    .LinkBufDepth  (LinkBufDepth),
    .CollBufDepth  (CollBufDepth),
    .LocalBufDepth (LocalBufDepth),
    .EjectCredits  (EjectCredits),
    .BuildGit      (BuildGit),
    .BuildDate     (BuildDate),
    .MaxNodes      (MaxNodes),
    .AxiIdWidth    (IdW)
  ) u_node (
    .clk_i,
    .rst_i,
    .my_coord_i,
    .torus_size_i,
    .s_axi_awid_i    ('0),
    .s_axi_arid_i    ('0),
    .s_axi_bid_o     (unused_bid),
    .s_axi_rid_o     (unused_rid),
    .m_axi_awid_o    (unused_awid),
    .m_axi_awcache_o (unused_awcache),
    .m_axi_awprot_o  (unused_awprot),
    .m_axi_bid_i     ('0),
    .m_axi_arcache_o (unused_arcache),
    .m_axi_arprot_o  (unused_arprot),
    .s_axi_awvalid_i,
    .s_axi_awready_o,
    .s_axi_awaddr_i,
    .s_axi_awlen_i,
    .s_axi_awsize_i,
    .s_axi_awburst_i,
    .s_axi_wvalid_i,
    .s_axi_wready_o,
    .s_axi_wdata_i,
    .s_axi_wstrb_i,
    .s_axi_wlast_i,
    .s_axi_bvalid_o,
    .s_axi_bready_i,
    .s_axi_bresp_o,
    .s_axi_arvalid_i,
    .s_axi_arready_o,
    .s_axi_araddr_i,
    .s_axi_arlen_i,
    .s_axi_arsize_i,
    .s_axi_arburst_i,
    .s_axi_rvalid_o,
    .s_axi_rready_i,
    .s_axi_rdata_o,
    .s_axi_rresp_o,
    .s_axi_rlast_o,
    .m_axi_awvalid_o,
    .m_axi_awready_i,
    .m_axi_awaddr_o,
    .m_axi_awlen_o,
    .m_axi_awsize_o,
    .m_axi_awburst_o,
    .m_axi_wvalid_o,
    .m_axi_wready_i,
    .m_axi_wdata_o,
    .m_axi_wstrb_o,
    .m_axi_wlast_o,
    .m_axi_bvalid_i,
    .m_axi_bready_o,
    .m_axi_bresp_i,
    .m_axi_arvalid_o,
    .m_axi_arready_i,
    .m_axi_araddr_o,
    .m_axi_arlen_o,
    .m_axi_arsize_o,
    .m_axi_arburst_o,
    .m_axi_arid_o,
    .m_axi_rvalid_i,
    .m_axi_rid_i,
    .m_axi_rready_o,
    .m_axi_rdata_i,
    .m_axi_rresp_i,
    .m_axi_rlast_i,    .tx_valid_o      (tx_valid),
    .tx_flit_o       (tx_flit),
    .tx_last_o       (tx_last),
    .tx_vc_o         (tx_vc),
    .tx_credit_i     (tx_credit),
    .rx_valid_i      (rx_valid),
    .rx_flit_i       (rx_flit),
    .rx_last_i       (rx_last),
    .rx_vc_i         (rx_vc),
    .rx_credit_o     (rx_credit),
    .rx_slot_credit_valid_o (rx_slot_valid),
    .rx_slot_credit_tree_o  (rx_slot_tree),
    .tx_slot_credit_valid_i (tx_slot_valid),
    .tx_slot_credit_tree_i  (tx_slot_tree),
    .link_down_i            (link_down_o),
    .link_drops_i           (link_drops_o)
  );
endmodule

`default_nettype wire
