// canopy_node_fabric: a torus of whole canopy nodes (host interface + router), for the
// co-simulation.
//
// Interface contract
//   - Node n sits at the coordinates canopy_torus_links gives it and is cabled the same way.
//   - Each node's AXI4 slave (BAR0) and AXI4 master (DMA writes, and the reads that serve
//     gets) are brought out as arrays indexed by node, with the node's own signal names:
//     s_axi_<ch>_i[n], m_axi_<ch>_o[n], ...
//     The co-simulation harness (sim/cosim/) plays every node's PCIe side on them.
`default_nettype none

// The co-simulation build sets the shape by macros (+define+CANOPY_FABRIC_*), not by -G:
// under Verilator's --hierarchical every -G also reaches each node's separate verilation,
// where SizeX and the others do not exist.
`ifndef CANOPY_FABRIC_NDIMS
`define CANOPY_FABRIC_NDIMS 2
`endif
`ifndef CANOPY_FABRIC_SIZE_X
`define CANOPY_FABRIC_SIZE_X 3
`endif
`ifndef CANOPY_FABRIC_SIZE_Y
`define CANOPY_FABRIC_SIZE_Y 3
`endif
`ifndef CANOPY_FABRIC_SIZE_Z
`define CANOPY_FABRIC_SIZE_Z 1
`endif
`ifndef CANOPY_FABRIC_SIZE_W
`define CANOPY_FABRIC_SIZE_W 1
`endif
`ifndef CANOPY_FABRIC_LINK_LATENCY
`define CANOPY_FABRIC_LINK_LATENCY 1
`endif
`ifndef CANOPY_FABRIC_BUILD_GIT
`define CANOPY_FABRIC_BUILD_GIT 0
`endif
`ifndef CANOPY_FABRIC_BUILD_DATE
`define CANOPY_FABRIC_BUILD_DATE 0
`endif

module canopy_node_fabric #(
  parameter int unsigned NumDims      = `CANOPY_FABRIC_NDIMS,
  parameter int unsigned SizeX        = `CANOPY_FABRIC_SIZE_X,
  parameter int unsigned SizeY        = `CANOPY_FABRIC_SIZE_Y,
  parameter int unsigned SizeZ        = `CANOPY_FABRIC_SIZE_Z,
  parameter int unsigned SizeW        = `CANOPY_FABRIC_SIZE_W,
  parameter int unsigned LinkLatency  = `CANOPY_FABRIC_LINK_LATENCY,
  parameter int unsigned FlitWidth    = 64,
  parameter int unsigned NumVcs       = 4,
  parameter int unsigned LinkBufDepth = 64,
  parameter int unsigned LocalBufDepth = 32,
  parameter int unsigned EjectCredits = 16,
  parameter int unsigned BuildGit     = `CANOPY_FABRIC_BUILD_GIT,
  parameter int unsigned BuildDate    = `CANOPY_FABRIC_BUILD_DATE,
  localparam int unsigned NumNodes = SizeX * SizeY * SizeZ * SizeW,
  localparam int unsigned NumLinks = 2 * NumDims,
  localparam int unsigned VcW      = $clog2(NumVcs)
) (
  input  wire logic                       clk_i,
  input  wire logic                       rst_i,
  // AXI4 slave per node (BAR0)
  input  wire logic [NumNodes-1:0]        s_axi_awvalid_i,
  output logic      [NumNodes-1:0]        s_axi_awready_o,
  input  wire logic [NumNodes-1:0][15:0]  s_axi_awaddr_i,
  input  wire logic [NumNodes-1:0][7:0]   s_axi_awlen_i,
  input  wire logic [NumNodes-1:0][2:0]   s_axi_awsize_i,
  input  wire logic [NumNodes-1:0][1:0]   s_axi_awburst_i,
  input  wire logic [NumNodes-1:0]        s_axi_wvalid_i,
  output logic      [NumNodes-1:0]        s_axi_wready_o,
  input  wire logic [NumNodes-1:0][63:0]  s_axi_wdata_i,
  input  wire logic [NumNodes-1:0][7:0]   s_axi_wstrb_i,
  input  wire logic [NumNodes-1:0]        s_axi_wlast_i,
  output logic      [NumNodes-1:0]        s_axi_bvalid_o,
  input  wire logic [NumNodes-1:0]        s_axi_bready_i,
  output logic      [NumNodes-1:0][1:0]   s_axi_bresp_o,
  input  wire logic [NumNodes-1:0]        s_axi_arvalid_i,
  output logic      [NumNodes-1:0]        s_axi_arready_o,
  input  wire logic [NumNodes-1:0][15:0]  s_axi_araddr_i,
  input  wire logic [NumNodes-1:0][7:0]   s_axi_arlen_i,
  input  wire logic [NumNodes-1:0][2:0]   s_axi_arsize_i,
  input  wire logic [NumNodes-1:0][1:0]   s_axi_arburst_i,
  output logic      [NumNodes-1:0]        s_axi_rvalid_o,
  input  wire logic [NumNodes-1:0]        s_axi_rready_i,
  output logic      [NumNodes-1:0][63:0]  s_axi_rdata_o,
  output logic      [NumNodes-1:0][1:0]   s_axi_rresp_o,
  output logic      [NumNodes-1:0]        s_axi_rlast_o,
  // AXI4 master per node (DMA writes into host memory, reads out of it)
  output logic      [NumNodes-1:0]        m_axi_awvalid_o,
  input  wire logic [NumNodes-1:0]        m_axi_awready_i,
  output logic      [NumNodes-1:0][63:0]  m_axi_awaddr_o,
  output logic      [NumNodes-1:0][7:0]   m_axi_awlen_o,
  output logic      [NumNodes-1:0][2:0]   m_axi_awsize_o,
  output logic      [NumNodes-1:0][1:0]   m_axi_awburst_o,
  output logic      [NumNodes-1:0]        m_axi_wvalid_o,
  input  wire logic [NumNodes-1:0]        m_axi_wready_i,
  output logic      [NumNodes-1:0][63:0]  m_axi_wdata_o,
  output logic      [NumNodes-1:0][7:0]   m_axi_wstrb_o,
  output logic      [NumNodes-1:0]        m_axi_wlast_o,
  input  wire logic [NumNodes-1:0]        m_axi_bvalid_i,
  output logic      [NumNodes-1:0]        m_axi_bready_o,
  input  wire logic [NumNodes-1:0][1:0]   m_axi_bresp_i,
  output logic      [NumNodes-1:0]        m_axi_arvalid_o,
  input  wire logic [NumNodes-1:0]        m_axi_arready_i,
  output logic      [NumNodes-1:0][63:0]  m_axi_araddr_o,
  output logic      [NumNodes-1:0][7:0]   m_axi_arlen_o,
  output logic      [NumNodes-1:0][2:0]   m_axi_arsize_o,
  output logic      [NumNodes-1:0][1:0]   m_axi_arburst_o,
  output logic      [NumNodes-1:0][3:0]   m_axi_arid_o,
  input  wire logic [NumNodes-1:0]        m_axi_rvalid_i,
  input  wire logic [NumNodes-1:0][3:0]   m_axi_rid_i,
  output logic      [NumNodes-1:0]        m_axi_rready_o,
  input  wire logic [NumNodes-1:0][63:0]  m_axi_rdata_i,
  input  wire logic [NumNodes-1:0][1:0]   m_axi_rresp_i,
  input  wire logic [NumNodes-1:0]        m_axi_rlast_i
);
  canopy_pkg::coords_t [NumNodes-1:0]                      coord;
  logic [canopy_pkg::MaxDims-1:0][canopy_pkg::CoordBits:0] torus_size;
  logic [NumNodes-1:0][NumLinks-1:0]                rx_valid, rx_last, tx_valid, tx_last;
  logic [NumNodes-1:0][NumLinks-1:0][FlitWidth-1:0] rx_flit, tx_flit;
  logic [NumNodes-1:0][NumLinks-1:0][VcW-1:0]       rx_vc, tx_vc;
  logic [NumNodes-1:0][NumLinks-1:0][NumVcs-1:0]    rx_credit, tx_credit;
  logic [NumNodes-1:0][NumLinks-1:0]                rx_slot_valid, tx_slot_valid;
  logic [NumNodes-1:0][NumLinks-1:0][canopy_pkg::HdrTreeBits-1:0] rx_slot_tree, tx_slot_tree;

  canopy_torus_links #(
    .NumDims (NumDims), .SizeX (SizeX), .SizeY (SizeY), .SizeZ (SizeZ), .SizeW (SizeW),
    .LinkLatency (LinkLatency), .FlitWidth (FlitWidth), .NumVcs (NumVcs)
  ) u_links (
    .clk_i, .rst_i, .coord_o (coord), .torus_size_o (torus_size),
    .tx_valid_i (tx_valid), .tx_flit_i (tx_flit), .tx_last_i (tx_last), .tx_vc_i (tx_vc),
    .tx_credit_o (tx_credit),
    .rx_valid_o (rx_valid), .rx_flit_o (rx_flit), .rx_last_o (rx_last), .rx_vc_o (rx_vc),
    .rx_credit_i (rx_credit),
    .rx_slot_valid_i (rx_slot_valid), .rx_slot_tree_i (rx_slot_tree),
    .tx_slot_valid_o (tx_slot_valid), .tx_slot_tree_o (tx_slot_tree)
  );

  // The harness uses one AXI ID for MMIO and DMA writes; DMA reads carry their ID (the get
  // server's and the AMO unit's reads are told apart by it). Cache and protection
  // attributes are not modelled.
  localparam int unsigned IdW = 4;

  for (genvar n = 0; n < NumNodes; n++) begin : gen_node
    wire logic [IdW-1:0] unused_bid, unused_rid, unused_awid;
    wire logic [3:0]     unused_awcache, unused_arcache;
    wire logic [2:0]     unused_awprot, unused_arprot;
    canopy_node #(
      .NumDims       (NumDims),
      .NumVcs        (NumVcs),
      .FlitWidth     (FlitWidth),
      .LinkBufDepth  (LinkBufDepth),
      .LocalBufDepth (LocalBufDepth),
      .EjectCredits  (EjectCredits),
      .BuildGit      (BuildGit),
      .BuildDate     (BuildDate),
      .AxiIdWidth    (IdW)
    ) u_node (
      .clk_i,
      .rst_i,
      .my_coord_i      (coord[n]),
      .torus_size_i    (torus_size),
      .s_axi_awid_i    ('0),
      .s_axi_arid_i    ('0),
      .s_axi_bid_o     (unused_bid),
      .s_axi_rid_o     (unused_rid),
      .m_axi_awid_o    (unused_awid),
      .m_axi_awcache_o (unused_awcache),
      .m_axi_awprot_o  (unused_awprot),
      .m_axi_bid_i     ('0),
      .m_axi_arid_o    (m_axi_arid_o[n]),
      .m_axi_arcache_o (unused_arcache),
      .m_axi_arprot_o  (unused_arprot),
      .m_axi_rid_i     (m_axi_rid_i[n]),
      .s_axi_awvalid_i (s_axi_awvalid_i[n]),
      .s_axi_awready_o (s_axi_awready_o[n]),
      .s_axi_awaddr_i  (s_axi_awaddr_i[n]),
      .s_axi_awlen_i   (s_axi_awlen_i[n]),
      .s_axi_awsize_i  (s_axi_awsize_i[n]),
      .s_axi_awburst_i (s_axi_awburst_i[n]),
      .s_axi_wvalid_i  (s_axi_wvalid_i[n]),
      .s_axi_wready_o  (s_axi_wready_o[n]),
      .s_axi_wdata_i   (s_axi_wdata_i[n]),
      .s_axi_wstrb_i   (s_axi_wstrb_i[n]),
      .s_axi_wlast_i   (s_axi_wlast_i[n]),
      .s_axi_bvalid_o  (s_axi_bvalid_o[n]),
      .s_axi_bready_i  (s_axi_bready_i[n]),
      .s_axi_bresp_o   (s_axi_bresp_o[n]),
      .s_axi_arvalid_i (s_axi_arvalid_i[n]),
      .s_axi_arready_o (s_axi_arready_o[n]),
      .s_axi_araddr_i  (s_axi_araddr_i[n]),
      .s_axi_arlen_i   (s_axi_arlen_i[n]),
      .s_axi_arsize_i  (s_axi_arsize_i[n]),
      .s_axi_arburst_i (s_axi_arburst_i[n]),
      .s_axi_rvalid_o  (s_axi_rvalid_o[n]),
      .s_axi_rready_i  (s_axi_rready_i[n]),
      .s_axi_rdata_o   (s_axi_rdata_o[n]),
      .s_axi_rresp_o   (s_axi_rresp_o[n]),
      .s_axi_rlast_o   (s_axi_rlast_o[n]),
      .m_axi_awvalid_o (m_axi_awvalid_o[n]),
      .m_axi_awready_i (m_axi_awready_i[n]),
      .m_axi_awaddr_o  (m_axi_awaddr_o[n]),
      .m_axi_awlen_o   (m_axi_awlen_o[n]),
      .m_axi_awsize_o  (m_axi_awsize_o[n]),
      .m_axi_awburst_o (m_axi_awburst_o[n]),
      .m_axi_wvalid_o  (m_axi_wvalid_o[n]),
      .m_axi_wready_i  (m_axi_wready_i[n]),
      .m_axi_wdata_o   (m_axi_wdata_o[n]),
      .m_axi_wstrb_o   (m_axi_wstrb_o[n]),
      .m_axi_wlast_o   (m_axi_wlast_o[n]),
      .m_axi_bvalid_i  (m_axi_bvalid_i[n]),
      .m_axi_bready_o  (m_axi_bready_o[n]),
      .m_axi_bresp_i   (m_axi_bresp_i[n]),
      .m_axi_arvalid_o (m_axi_arvalid_o[n]),
      .m_axi_arready_i (m_axi_arready_i[n]),
      .m_axi_araddr_o  (m_axi_araddr_o[n]),
      .m_axi_arlen_o   (m_axi_arlen_o[n]),
      .m_axi_arsize_o  (m_axi_arsize_o[n]),
      .m_axi_arburst_o (m_axi_arburst_o[n]),
      .m_axi_rvalid_i  (m_axi_rvalid_i[n]),
      .m_axi_rready_o  (m_axi_rready_o[n]),
      .m_axi_rdata_i   (m_axi_rdata_i[n]),
      .m_axi_rresp_i   (m_axi_rresp_i[n]),
      .m_axi_rlast_i   (m_axi_rlast_i[n]),
      .tx_valid_o      (tx_valid[n]),
      .tx_flit_o       (tx_flit[n]),
      .tx_last_o       (tx_last[n]),
      .tx_vc_o         (tx_vc[n]),
      .tx_credit_i     (tx_credit[n]),
      .rx_valid_i      (rx_valid[n]),
      .rx_flit_i       (rx_flit[n]),
      .rx_last_i       (rx_last[n]),
      .rx_vc_i         (rx_vc[n]),
      .rx_credit_o     (rx_credit[n]),
      .rx_slot_credit_valid_o (rx_slot_valid[n]),
      .rx_slot_credit_tree_o  (rx_slot_tree[n]),
      .tx_slot_credit_valid_i (tx_slot_valid[n]),
      .tx_slot_credit_tree_i  (tx_slot_tree[n])
    );
  end
endmodule

`default_nettype wire
