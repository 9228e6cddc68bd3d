// canopy_board_core: everything a canopy board holds apart from its clock and its pins: a
// SizeX x SizeY torus of canopy nodes joined by on-chip links, a board memory per node as
// its host memory, the serial bridge that gives the host each node's BAR0 and memory, and
// the on-chip self-test. Board-independent: a board's top (canopy_board_<board>.sv) adds
// its clock generation, reset and pin names around it. This is the module `make
// sim-board` simulates.
//
// Interface contract
//   - clk_i / rst_i: the core clock (ClockHz) and a synchronous reset, active high.
//   - uart_rx_i / uart_tx_o: the host's serial line (8N1 at BaudRate), idle high; the
//     frames of spec/serial.toml. rx is synchronized here.
//   - leds_o: active high, canopy_selftest's {failing step[3:0], failed, passed, running,
//     heartbeat}.
//   - Nodes are numbered x + SizeX * y (libcanopy's order); node n's link port 2d (+) goes
//     through a one-cycle canopy_link_pipe to port 2d+1 of its + neighbour in dimension d,
//     flits forward and credits back, the boundary a SerDes PHY would carry.
// Parameters: the torus, the clock and baud rate (their ratio is the UART's cycles per
// bit, within 2%), each node's board memory, and the node parameters of the board build.
`default_nettype none
`include "canopy_assert.svh"

module canopy_board_core #(
  parameter int unsigned SizeX         = 2,      /// torus size X
  parameter int unsigned SizeY         = 2,      /// torus size Y (1: a ring)
  parameter int unsigned ClockHz       = 0,      /// core clock in Hz; must be set
  parameter int unsigned BaudRate      = 0,      /// UART baud rate; must be set
  parameter int unsigned MemBytes      = 65536,  /// board memory per node (host memory stand-in)
  parameter int unsigned PollCycles    = 1000000,/// cycles a self-test poll may wait
  parameter int unsigned HeartbeatBits = 24,     /// LED heartbeat: toggles every 2^HeartbeatBits cycles
  parameter int unsigned BuildGit      = 0,      /// BUILD.git of every node
  parameter int unsigned BuildDate     = 0,      /// BUILD.date of every node
  // The node build of the board (docs/bring-up.md, "Board configuration").
  parameter int unsigned NumTrees      = 2,      /// collective trees per router
  parameter int unsigned InjRingWords  = 256,    /// injection ring words per node
  parameter int unsigned LocalBufDepth = 16,     /// router injection buffer per VC
  parameter int unsigned CollBufDepth  = 16,     /// COLL_UP buffer per link input
  parameter int unsigned EjectCredits  = 8,      /// host-side ejection buffer per VC
  localparam int unsigned NumDims  = 2,
  localparam int unsigned NumNodes = SizeX * SizeY
) (
  input  wire logic       clk_i,
  input  wire logic       rst_i,
  input  wire logic       uart_rx_i,
  output logic            uart_tx_o,
  output logic      [7:0] leds_o
);
  localparam int unsigned CyclesPerBit = (ClockHz + BaudRate / 2) / BaudRate;
  localparam int unsigned NumLinks     = 2 * NumDims;
  localparam int unsigned NumVcs       = 4;
  localparam int unsigned FlitWidth    = 64;
  localparam int unsigned VcW          = $clog2(NumVcs);
  localparam int unsigned TreeIdW      = canopy_pkg::HdrTreeBits;
  localparam int unsigned CreditW      = NumVcs + 1 + TreeIdW;
  localparam int unsigned AxiIdWidth   = 4;
  localparam int unsigned MaxNodes     = 4;      // the nodes' per-source tables (>= 4)
  localparam int unsigned BufW         = $clog2(canopy_serial_pkg::MaxWords);
  localparam int unsigned CountW       = BufW + 1;
  localparam int unsigned Lines        = MemBytes / canopy_serial_pkg::LineBytes;
  localparam int unsigned DirtyWords   = Lines / 64;
  localparam int unsigned DirtyIdxW    = DirtyWords > 1 ? $clog2(DirtyWords) : 1;
  localparam int unsigned MemWordW     = $clog2(MemBytes / 8);
  localparam int unsigned CB           = canopy_pkg::CoordBits;
  localparam int unsigned MD           = canopy_pkg::MaxDims;

  `CANOPY_STATIC_ASSERT(gen_size_check, SizeX >= 2 && SizeX <= 16 && SizeY >= 1 && SizeY <= 16 &&
                        NumNodes <= MaxNodes, "a torus of 2..4 nodes: SizeX 2..4, SizeY 1..2")
  `CANOPY_STATIC_ASSERT(gen_baud_check, BaudRate >= 1 && CyclesPerBit >= 4 &&
                        (CyclesPerBit * BaudRate > ClockHz ? CyclesPerBit * BaudRate - ClockHz
                                                           : ClockHz - CyclesPerBit * BaudRate) * 50 <= ClockHz,
                        "ClockHz / BaudRate must be >= 4 and within 2% of an integer")

  // ---------------------------------------------------------------- nodes and links
  logic [NumNodes-1:0][NumLinks-1:0]                rx_valid, rx_last, tx_valid, tx_last;
  logic [NumNodes-1:0][NumLinks-1:0][FlitWidth-1:0] rx_flit, tx_flit;
  logic [NumNodes-1:0][NumLinks-1:0][VcW-1:0]       rx_vc, tx_vc;
  logic [NumNodes-1:0][NumLinks-1:0][NumVcs-1:0]    rx_credit, tx_credit;
  logic [NumNodes-1:0][NumLinks-1:0]                rx_slot_valid, tx_slot_valid;
  logic [NumNodes-1:0][NumLinks-1:0][TreeIdW-1:0]   rx_slot_tree, tx_slot_tree;

  // exec <-> node BAR0
  logic [NumNodes-1:0][15:0] bar_awaddr, bar_araddr;
  logic [NumNodes-1:0][7:0]  bar_awlen, bar_arlen;
  logic [NumNodes-1:0]       bar_awvalid, bar_awready, bar_wvalid, bar_wready, bar_wlast;
  logic [NumNodes-1:0][63:0] bar_wdata, bar_rdata;
  logic [NumNodes-1:0][1:0]  bar_bresp, bar_rresp;
  logic [NumNodes-1:0]       bar_bvalid, bar_bready, bar_arvalid, bar_arready;
  logic [NumNodes-1:0]       bar_rlast, bar_rvalid, bar_rready;
  // exec <-> board memories
  logic [NumNodes-1:0]                 mem_req_valid, mem_req_ready, mem_rsp_valid, mem_clr_valid, mem_dma_err;
  logic                                mem_req_write;
  logic [MemWordW-1:0]                 mem_req_addr;
  logic [63:0]                         mem_req_wdata, mem_clr_mask;
  logic [NumNodes-1:0][63:0]           mem_rsp_data;
  logic [NumNodes-1:0][Lines-1:0]      mem_dirty;
  logic [NumNodes-1:0][DirtyWords-1:0] mem_dirty_sum;
  logic [DirtyIdxW-1:0]                mem_clr_word;

  for (genvar n = 0; n < NumNodes; n++) begin : gen_node
    localparam int unsigned X = n % SizeX;
    localparam int unsigned Y = n / SizeX;
    // Coordinates {.., Y, X} and sizes {1, 1, SizeY, SizeX}, in canopy_pkg::coords_t's layout.
    logic [MD*CB-1:0]      coord;  // flat: Yosys does not take packed arrays declared in generate blocks
    logic [MD*(CB+1)-1:0]  size;
    assign coord = (MD * CB)'(X) | ((MD * CB)'(Y) << CB);
    for (genvar d = 0; d < MD; d++) begin : gen_size
      assign size[(CB + 1) * d +: CB + 1] = (CB + 1)'(d == 0 ? SizeX : d == 1 ? SizeY : 1);
    end

    // The node's DMA master, to its board memory.
    logic [AxiIdWidth-1:0] awid, bid, arid, rid;
    logic [63:0] awaddr, wdata, araddr, rdata;
    logic [7:0]  awlen, arlen, wstrb;
    logic [2:0]  awsize, arsize, awprot, arprot;
    logic [1:0]  awburst, arburst, bresp, rresp;
    logic [3:0]  awcache, arcache;
    logic awvalid, awready, wlast, wvalid, wready, bvalid, bready, arvalid, arready, rlast, rvalid, rready;
    logic [AxiIdWidth-1:0] unused_bid, unused_rid;
    wire logic unused_attr = ^{awcache, arcache, awprot, arprot};

    canopy_node #(
      .NumDims       (NumDims),
      .LocalBufDepth (LocalBufDepth),
      .CollBufDepth  (CollBufDepth),
      .EjectCredits  (EjectCredits),
      .InjRingWords  (InjRingWords),
      .MaxNodes      (MaxNodes),
      .BuildGit      (BuildGit),
      .BuildDate     (BuildDate),
      .AxiIdWidth    (AxiIdWidth),
      .NumTrees      (NumTrees)
    ) u_node (
      .clk_i, .rst_i,
      .my_coord_i   (coord),
      .torus_size_i (size),
      .s_axi_awid_i ('0), .s_axi_awaddr_i (bar_awaddr[n]), .s_axi_awlen_i (bar_awlen[n]),
      .s_axi_awsize_i (3'd3), .s_axi_awburst_i (2'b01), .s_axi_awvalid_i (bar_awvalid[n]),
      .s_axi_awready_o (bar_awready[n]),
      .s_axi_wdata_i (bar_wdata[n]), .s_axi_wstrb_i (8'hFF), .s_axi_wlast_i (bar_wlast[n]),
      .s_axi_wvalid_i (bar_wvalid[n]), .s_axi_wready_o (bar_wready[n]),
      .s_axi_bid_o (unused_bid), .s_axi_bresp_o (bar_bresp[n]), .s_axi_bvalid_o (bar_bvalid[n]),
      .s_axi_bready_i (bar_bready[n]),
      .s_axi_arid_i ('0), .s_axi_araddr_i (bar_araddr[n]), .s_axi_arlen_i (bar_arlen[n]),
      .s_axi_arsize_i (3'd3), .s_axi_arburst_i (2'b01), .s_axi_arvalid_i (bar_arvalid[n]),
      .s_axi_arready_o (bar_arready[n]),
      .s_axi_rid_o (unused_rid), .s_axi_rdata_o (bar_rdata[n]), .s_axi_rresp_o (bar_rresp[n]),
      .s_axi_rlast_o (bar_rlast[n]), .s_axi_rvalid_o (bar_rvalid[n]), .s_axi_rready_i (bar_rready[n]),
      .m_axi_awid_o (awid), .m_axi_awaddr_o (awaddr), .m_axi_awlen_o (awlen), .m_axi_awsize_o (awsize),
      .m_axi_awburst_o (awburst), .m_axi_awcache_o (awcache), .m_axi_awprot_o (awprot),
      .m_axi_awvalid_o (awvalid), .m_axi_awready_i (awready),
      .m_axi_wdata_o (wdata), .m_axi_wstrb_o (wstrb), .m_axi_wlast_o (wlast), .m_axi_wvalid_o (wvalid),
      .m_axi_wready_i (wready),
      .m_axi_bid_i (bid), .m_axi_bresp_i (bresp), .m_axi_bvalid_i (bvalid), .m_axi_bready_o (bready),
      .m_axi_arid_o (arid), .m_axi_araddr_o (araddr), .m_axi_arlen_o (arlen), .m_axi_arsize_o (arsize),
      .m_axi_arburst_o (arburst), .m_axi_arcache_o (arcache), .m_axi_arprot_o (arprot),
      .m_axi_arvalid_o (arvalid), .m_axi_arready_i (arready),
      .m_axi_rid_i (rid), .m_axi_rdata_i (rdata), .m_axi_rresp_i (rresp), .m_axi_rlast_i (rlast),
      .m_axi_rvalid_i (rvalid), .m_axi_rready_o (rready),
      .rx_valid_i (rx_valid[n]), .rx_flit_i (rx_flit[n]), .rx_last_i (rx_last[n]), .rx_vc_i (rx_vc[n]),
      .rx_credit_o (rx_credit[n]),
      .tx_valid_o (tx_valid[n]), .tx_flit_o (tx_flit[n]), .tx_last_o (tx_last[n]), .tx_vc_o (tx_vc[n]),
      .tx_credit_i (tx_credit[n]),
      .rx_slot_credit_valid_o (rx_slot_valid[n]), .rx_slot_credit_tree_o (rx_slot_tree[n]),
      .tx_slot_credit_valid_i (tx_slot_valid[n]), .tx_slot_credit_tree_i (tx_slot_tree[n]),
      .link_down_i            ('0),   // on-chip links are unprotected: never down
      .link_drops_i           ('0)
    );

    canopy_board_mem #(.MemBytes (MemBytes), .AxiIdWidth (AxiIdWidth)) u_mem (
      .clk_i, .rst_i,
      .s_axi_awid_i (awid), .s_axi_awaddr_i (awaddr), .s_axi_awlen_i (awlen), .s_axi_awsize_i (awsize),
      .s_axi_awburst_i (awburst), .s_axi_awvalid_i (awvalid), .s_axi_awready_o (awready),
      .s_axi_wdata_i (wdata), .s_axi_wstrb_i (wstrb), .s_axi_wlast_i (wlast), .s_axi_wvalid_i (wvalid),
      .s_axi_wready_o (wready),
      .s_axi_bid_o (bid), .s_axi_bresp_o (bresp), .s_axi_bvalid_o (bvalid), .s_axi_bready_i (bready),
      .s_axi_arid_i (arid), .s_axi_araddr_i (araddr), .s_axi_arlen_i (arlen), .s_axi_arsize_i (arsize),
      .s_axi_arburst_i (arburst), .s_axi_arvalid_i (arvalid), .s_axi_arready_o (arready),
      .s_axi_rid_o (rid), .s_axi_rdata_o (rdata), .s_axi_rresp_o (rresp), .s_axi_rlast_o (rlast),
      .s_axi_rvalid_o (rvalid), .s_axi_rready_i (rready),
      .hreq_valid_i (mem_req_valid[n]), .hreq_ready_o (mem_req_ready[n]), .hreq_write_i (mem_req_write),
      .hreq_addr_i (mem_req_addr), .hreq_wdata_i (mem_req_wdata),
      .hrsp_valid_o (mem_rsp_valid[n]), .hrsp_data_o (mem_rsp_data[n]),
      .dirty_o (mem_dirty[n]), .dirty_sum_o (mem_dirty_sum[n]),
      .clr_valid_i (mem_clr_valid[n]), .clr_word_i (mem_clr_word), .clr_mask_i (mem_clr_mask),
      .dma_err_o (mem_dma_err[n])
    );

    // Transmit links: port p of this node to port p^1 of its neighbour in direction p.
    for (genvar p = 0; p < NumLinks; p++) begin : gen_link
      localparam int unsigned D    = p / 2;
      localparam int unsigned K    = D == 0 ? SizeX : SizeY;
      localparam int unsigned C    = D == 0 ? X : Y;
      localparam int unsigned NC   = (p % 2 == 0) ? (C + 1) % K : (C + K - 1) % K;
      localparam int unsigned Peer = D == 0 ? NC + SizeX * Y : X + SizeX * NC;
      localparam int unsigned PeerPort = p ^ 1;
      canopy_link_pipe #(.Latency (1), .FlitWidth (FlitWidth), .NumVcs (NumVcs), .CreditW (CreditW)) u_link (
        .clk_i, .rst_i,
        .in_valid_i   (tx_valid[n][p]),
        .in_flit_i    (tx_flit[n][p]),
        .in_last_i    (tx_last[n][p]),
        .in_vc_i      (tx_vc[n][p]),
        .out_valid_o  (rx_valid[Peer][PeerPort]),
        .out_flit_o   (rx_flit[Peer][PeerPort]),
        .out_last_o   (rx_last[Peer][PeerPort]),
        .out_vc_o     (rx_vc[Peer][PeerPort]),
        .credit_in_i  ({rx_slot_tree[Peer][PeerPort], rx_slot_valid[Peer][PeerPort], rx_credit[Peer][PeerPort]}),
        .credit_out_o ({tx_slot_tree[n][p], tx_slot_valid[n][p], tx_credit[n][p]})
      );
    end
  end

  // ---------------------------------------------------------------- host side
  logic       rx_valid_b, rx_ferr, tx_valid_b, tx_ready_b;
  logic [7:0] rx_byte, tx_byte;
  canopy_uart_rx #(.CyclesPerBit (CyclesPerBit)) u_uart_rx (
    .clk_i, .rst_i, .rx_i (uart_rx_i), .out_valid_o (rx_valid_b), .out_data_o (rx_byte), .frame_err_o (rx_ferr)
  );
  canopy_uart_tx #(.CyclesPerBit (CyclesPerBit)) u_uart_tx (
    .clk_i, .rst_i, .in_valid_i (tx_valid_b), .in_ready_o (tx_ready_b), .in_data_i (tx_byte), .tx_o (uart_tx_o)
  );

  logic [1:0]             cmd_valid, cmd_ready, cmd_write;
  logic [1:0][1:0]        cmd_space;
  logic [1:0][7:0]        cmd_node;
  logic [1:0][31:0]       cmd_addr;
  logic [1:0][CountW-1:0] cmd_words;
  logic [1:0][63:0]       buf_rdata;
  logic [1:0]             done_valid;
  logic                   buf_re, buf_we, busy_src, err_crc, err_frame, br_err_frame, frame_done;
  logic [BufW-1:0]        buf_raddr, buf_waddr;
  logic [63:0]            buf_wdata, st_status, st_got, st_want;
  logic [7:0]             done_status;
  logic                   st_start, st_running;

  canopy_serial_bridge #(.CyclesPerBit (CyclesPerBit)) u_bridge (
    .clk_i, .rst_i,
    .rx_valid_i (rx_valid_b), .rx_data_i (rx_byte),
    .tx_valid_o (tx_valid_b), .tx_ready_i (tx_ready_b), .tx_data_o (tx_byte),
    .cmd_valid_o (cmd_valid[0]), .cmd_ready_i (cmd_ready[0]), .cmd_write_o (cmd_write[0]),
    .cmd_space_o (cmd_space[0]), .cmd_node_o (cmd_node[0]), .cmd_addr_o (cmd_addr[0]),
    .cmd_words_o (cmd_words[0]),
    .buf_sel_i (busy_src), .buf_re_i (buf_re), .buf_raddr_i (buf_raddr), .buf_rdata_o (buf_rdata[0]),
    .buf_we_i (buf_we), .buf_waddr_i (buf_waddr), .buf_wdata_i (buf_wdata),
    .done_valid_i (done_valid[0]), .done_status_i (done_status),
    .err_crc_o (err_crc), .err_frame_o (br_err_frame), .frame_done_o (frame_done)
  );
  assign err_frame = br_err_frame || rx_ferr;

  canopy_selftest #(
    .NumNodes (NumNodes), .RingWords (InjRingWords), .PollCycles (PollCycles), .HeartbeatBits (HeartbeatBits)
  ) u_selftest (
    .clk_i, .rst_i,
    .cmd_valid_o (cmd_valid[1]), .cmd_ready_i (cmd_ready[1]), .cmd_write_o (cmd_write[1]),
    .cmd_space_o (cmd_space[1]), .cmd_node_o (cmd_node[1]), .cmd_addr_o (cmd_addr[1]),
    .cmd_words_o (cmd_words[1]), .buf_rdata_o (buf_rdata[1]),
    .buf_sel_i (busy_src), .buf_we_i (buf_we), .buf_wdata_i (buf_wdata),
    .done_valid_i (done_valid[1]), .done_status_i (done_status),
    .start_i (st_start), .running_o (st_running),
    .status_o (st_status), .got_o (st_got), .want_o (st_want), .leds_o (leds_o)
  );

  canopy_board_exec #(
    .NumNodes (NumNodes), .SizeX (SizeX), .SizeY (SizeY), .MemBytes (MemBytes), .ClockHz (ClockHz),
    .BaudRate (BaudRate)
  ) u_exec (
    .clk_i, .rst_i,
    .cmd_valid_i (cmd_valid), .cmd_ready_o (cmd_ready), .cmd_write_i (cmd_write), .cmd_space_i (cmd_space),
    .cmd_node_i (cmd_node), .cmd_addr_i (cmd_addr), .cmd_words_i (cmd_words),
    .buf_re_o (buf_re), .buf_raddr_o (buf_raddr), .buf_rdata_i (buf_rdata),
    .buf_we_o (buf_we), .buf_waddr_o (buf_waddr), .buf_wdata_o (buf_wdata), .busy_src_o (busy_src),
    .done_valid_o (done_valid), .done_status_o (done_status), .st_running_i (st_running),
    .m_axi_awaddr_o (bar_awaddr), .m_axi_awlen_o (bar_awlen), .m_axi_awvalid_o (bar_awvalid),
    .m_axi_awready_i (bar_awready), .m_axi_wdata_o (bar_wdata), .m_axi_wlast_o (bar_wlast),
    .m_axi_wvalid_o (bar_wvalid), .m_axi_wready_i (bar_wready), .m_axi_bresp_i (bar_bresp),
    .m_axi_bvalid_i (bar_bvalid), .m_axi_bready_o (bar_bready), .m_axi_araddr_o (bar_araddr),
    .m_axi_arlen_o (bar_arlen), .m_axi_arvalid_o (bar_arvalid), .m_axi_arready_i (bar_arready),
    .m_axi_rdata_i (bar_rdata), .m_axi_rresp_i (bar_rresp), .m_axi_rlast_i (bar_rlast),
    .m_axi_rvalid_i (bar_rvalid), .m_axi_rready_o (bar_rready),
    .mem_req_valid_o (mem_req_valid), .mem_req_ready_i (mem_req_ready), .mem_req_write_o (mem_req_write),
    .mem_req_addr_o (mem_req_addr), .mem_req_wdata_o (mem_req_wdata), .mem_rsp_valid_i (mem_rsp_valid),
    .mem_rsp_data_i (mem_rsp_data), .mem_dirty_i (mem_dirty), .mem_dirty_sum_i (mem_dirty_sum),
    .mem_clr_valid_o (mem_clr_valid), .mem_clr_word_o (mem_clr_word), .mem_clr_mask_o (mem_clr_mask),
    .mem_dma_err_i (mem_dma_err),
    .st_start_o (st_start), .st_status_i (st_status), .st_got_i (st_got), .st_want_i (st_want),
    .err_crc_i (err_crc), .err_frame_i (err_frame), .frame_done_i (frame_done)
  );
endmodule

`default_nettype wire
