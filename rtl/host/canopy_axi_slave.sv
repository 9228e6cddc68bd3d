// canopy_axi_slave: the host's MMIO port (BAR0): an AXI4 slave that turns bursts into
// one word access per beat.
//
// Interface contract
//   - s_axi_*: AXI4, 64-bit data, 16-bit byte address (64 KiB BAR0). INCR bursts of any
//     length (1..256 beats) and any beat size up to 8 bytes, any WSTRB. FIXED bursts repeat
//     their address; WRAP bursts are treated as INCR (a PCIe bridge never issues them).
//     Writes: the next burst's address is accepted while the current burst's beats stream,
//     so back-to-back bursts take one beat per cycle with no gap; responses queue (up to
//     BQueueDepth + 1) and return in order. One read burst is handled at a time (the next
//     address is accepted after its last beat); reads and writes proceed independently.
//     Every response is OKAY: a refused access is counted, never signalled as a bus error.
//   - Address map: CSR space 0x0000..0x0FFF goes to canopy_csr's access port (csr_*); the
//     injection window 0x8000..0xFFFF to the injection ring (win_*: window word index
//     address[14:3]; reads of the window return 0, without error); anything else reads 0,
//     ignores writes, and pulses err_wr_o / err_rd_o (one pulse per refused beat).
//   - A write beat is forwarded, never backpressured: to the CSRs the cycle it is accepted
//     (csr_wr_o), to the injection window the cycle after (win_wr_o, registered); a beat
//     whose WSTRB is all zero accesses nothing. The CSR address is
//     the beat's 8-byte aligned address: the strobes select the bytes.
//   - A read beat issues csr_rd_o one cycle and returns csr_rd_data_i (canopy_csr's
//     registered data, which holds until the next csr_rd_o) on R the next: one beat per
//     two cycles at most, ample for MMIO reads. A read is never issued to the CSRs in the
//     same cycle as a CSR write, so canopy_csr's single err_o pulse always counts one
//     access.
//   - WLAST is not needed (the beat count comes from AWLEN); its agreement with AWLEN is
//     asserted.
`default_nettype none
`include "canopy_assert.svh"

module canopy_axi_slave #(
  parameter int unsigned IdWidth = 4,  /// AXI ID bits (echoed in responses)
  localparam int unsigned AddrWidth = 16,
  localparam int unsigned CsrAddrBits = canopy_regs_pkg::CsrAddrBits,
  localparam int unsigned WinIdxBits = $clog2(canopy_host_pkg::InjWindowWords)
) (
  input  wire logic                   clk_i,
  input  wire logic                   rst_i,

  // AXI4 slave: write address, write data, write response
  input  wire logic [IdWidth-1:0]     s_axi_awid_i,
  input  wire logic [AddrWidth-1:0]   s_axi_awaddr_i,
  input  wire logic [7:0]             s_axi_awlen_i,
  input  wire logic [2:0]             s_axi_awsize_i,
  input  wire logic [1:0]             s_axi_awburst_i,
  input  wire logic                   s_axi_awvalid_i,
  output logic                        s_axi_awready_o,
  input  wire logic [63:0]            s_axi_wdata_i,
  input  wire logic [7:0]             s_axi_wstrb_i,
  input  wire logic                   s_axi_wlast_i,
  input  wire logic                   s_axi_wvalid_i,
  output logic                        s_axi_wready_o,
  output logic      [IdWidth-1:0]     s_axi_bid_o,
  output logic      [1:0]             s_axi_bresp_o,
  output logic                        s_axi_bvalid_o,
  input  wire logic                   s_axi_bready_i,
  // AXI4 slave: read address, read data
  input  wire logic [IdWidth-1:0]     s_axi_arid_i,
  input  wire logic [AddrWidth-1:0]   s_axi_araddr_i,
  input  wire logic [7:0]             s_axi_arlen_i,
  input  wire logic [2:0]             s_axi_arsize_i,
  input  wire logic [1:0]             s_axi_arburst_i,
  input  wire logic                   s_axi_arvalid_i,
  output logic                        s_axi_arready_o,
  output logic      [IdWidth-1:0]     s_axi_rid_o,
  output logic      [63:0]            s_axi_rdata_o,
  output logic      [1:0]             s_axi_rresp_o,
  output logic                        s_axi_rlast_o,
  output logic                        s_axi_rvalid_o,
  input  wire logic                   s_axi_rready_i,

  // canopy_csr access port
  output logic                        csr_wr_o,
  output logic      [CsrAddrBits-1:0] csr_wr_addr_o,
  output logic      [63:0]            csr_wr_data_o,
  output logic      [7:0]             csr_wr_strb_o,
  output logic                        csr_rd_o,
  output logic      [CsrAddrBits-1:0] csr_rd_addr_o,
  input  wire logic [63:0]            csr_rd_data_i,

  // injection window writes
  output logic                        win_wr_o,
  output logic      [WinIdxBits-1:0]  win_wr_idx_o,
  output logic      [63:0]            win_wr_data_o,
  output logic      [7:0]             win_wr_strb_o,

  // refused accesses (unmapped offsets), one pulse per beat
  output logic                        err_wr_o,
  output logic                        err_rd_o
);
  localparam logic [1:0] BurstFixed = 2'b00;
  localparam logic [1:0] RespOkay   = 2'b00;

  `CANOPY_STATIC_ASSERT(gen_window_check, WinIdxBits + 3 == AddrWidth - 1,
                        "the injection window must be the upper half of BAR0")

  // Address of the beat after `addr` in a burst of beats of 2^size bytes (size clamped to
  // the bus width): INCR aligns down to the beat size and steps one beat; FIXED stays.
  function automatic logic [AddrWidth-1:0] next_addr(input logic [AddrWidth-1:0] addr,
                                                     input logic [2:0] size,
                                                     input logic [1:0] burst);
    logic [AddrWidth-1:0] step;
    step = AddrWidth'(1) << ((size > 3'd3) ? 3'd3 : size);
    next_addr = (burst == BurstFixed) ? addr : (addr & ~(step - 1'b1)) + step;
  endfunction

  function automatic logic is_csr(input logic [AddrWidth-1:0] addr);
    is_csr = addr < AddrWidth'(canopy_regs_pkg::CsrBytes);
  endfunction

  function automatic logic is_win(input logic [AddrWidth-1:0] addr);
    is_win = addr[AddrWidth-1];
  endfunction

  // ---------------------------------------------------------------- write side
  // One burst is active (its beats are taken); the next burst's address waits in aw_next
  // (accepted while the active one streams), so beats of back-to-back bursts follow one
  // another without a gap. A finished burst's ID waits in a small FIFO for its response;
  // beats stop only while that FIFO is full.
  localparam int unsigned BQueueDepth = 2;  // responses waiting behind the head
  typedef struct packed {
    logic [AddrWidth-1:0] addr;
    logic [7:0]           len;
    logic [2:0]           size;
    logic [1:0]           burst;
    logic [IdWidth-1:0]   id;
  } aw_t;

  aw_t                  aw_in, aw_next_q, aw_take;
  logic [2:0]           w_size_q;
  logic [1:0]           w_burst_q;
  logic [IdWidth-1:0]   w_id_q;
  logic                 aw_next_valid_q, w_active_q;
  logic [AddrWidth-1:0] w_addr_q;
  logic [7:0]           w_left_q;      // beats left after the current one
  logic                 aw_fire, w_beat, w_done, w_free, w_any_strb;
  logic                 b_room;

  assign aw_in = {s_axi_awaddr_i, s_axi_awlen_i, s_axi_awsize_i, s_axi_awburst_i, s_axi_awid_i};  // field order

  assign s_axi_awready_o = !aw_next_valid_q;
  assign s_axi_wready_o  = w_active_q && b_room;
  assign aw_fire         = s_axi_awvalid_i && s_axi_awready_o;

  assign w_beat     = s_axi_wvalid_i && s_axi_wready_o;
  assign w_done     = w_beat && w_left_q == '0;
  assign w_free     = !w_active_q || w_done;        // the active slot takes a burst this cycle
  assign w_any_strb = s_axi_wstrb_i != '0;

  assign csr_wr_o      = w_beat && w_any_strb && is_csr(w_addr_q);
  assign csr_wr_addr_o = {w_addr_q[CsrAddrBits-1:3], 3'b000};
  assign csr_wr_data_o = s_axi_wdata_i;
  assign csr_wr_strb_o = s_axi_wstrb_i;
  // A window beat reaches the injection ring from flip-flops, a cycle after it is taken:
  // the ring's commit logic (marks, the tail) then starts at a register, not at WREADY's
  // response-queue room far across the chip (the node's worst path, 87.31 MHz placed).
  always_ff @(posedge clk_i) begin
    if (rst_i) win_wr_o <= 1'b0;
    else       win_wr_o <= w_beat && w_any_strb && is_win(w_addr_q);
  end
  always_ff @(posedge clk_i) begin
    win_wr_idx_o  <= w_addr_q[WinIdxBits+2:3];
    win_wr_data_o <= s_axi_wdata_i;
    win_wr_strb_o <= s_axi_wstrb_i;
  end
  assign err_wr_o      = w_beat && w_any_strb && !is_csr(w_addr_q) && !is_win(w_addr_q);

  // The active slot takes the waiting address first (AXI keeps write bursts in address
  // order), else the one arriving now; an address arriving while the slot is busy waits.
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      w_active_q      <= 1'b0;
      aw_next_valid_q <= 1'b0;
    end else begin
      if (w_free) w_active_q <= aw_next_valid_q || aw_fire;
      aw_next_valid_q <= w_free ? aw_next_valid_q && aw_fire : aw_next_valid_q || aw_fire;
    end
  end

  assign aw_take = aw_next_valid_q ? aw_next_q : aw_in;

  always_ff @(posedge clk_i) begin
    if (aw_fire && !(w_free && !aw_next_valid_q)) aw_next_q <= aw_in;
    if (w_free) begin
      w_addr_q  <= aw_take.addr;
      w_left_q  <= aw_take.len;
      w_size_q  <= aw_take.size;
      w_burst_q <= aw_take.burst;
      w_id_q    <= aw_take.id;
    end else if (w_beat) begin
      w_addr_q  <= next_addr(w_addr_q, w_size_q, w_burst_q);
      w_left_q  <= w_left_q - 1'b1;
    end
  end

  logic [$clog2(BQueueDepth + 1):0] b_count;
  logic                   unused_b_queue_next_valid;  // the FIFO's peek port, not read here
  logic [IdWidth-1:0] unused_b_queue_next_data;
  canopy_reg_fifo #(.Width(IdWidth), .Depth(BQueueDepth)) u_b_queue (
    .clk_i,
    .rst_i,
    .in_valid_i  (w_done),
    .in_ready_o  (b_room),
    .in_data_i   (w_id_q),
    .out_valid_o (s_axi_bvalid_o),
    .out_ready_i (s_axi_bready_i),
    .out_data_o  (s_axi_bid_o),
    .count_o     (b_count),
    .next_valid_o (unused_b_queue_next_valid),
    .next_data_o  (unused_b_queue_next_data)
  );
  wire logic unused_b_count = ^b_count;
  assign s_axi_bresp_o = RespOkay;

  // ---------------------------------------------------------------- read side
  typedef enum logic [1:0] { RIdle, RIssue, RData } rstate_e;
  rstate_e              r_state_q, r_state_d;
  logic [AddrWidth-1:0] r_addr_q, r_addr_d;
  logic [7:0]           r_left_q, r_left_d;
  logic [2:0]           r_size_q;
  logic [1:0]           r_burst_q;
  logic [IdWidth-1:0]   r_id_q;
  logic                 r_csr_q;      // the beat on R was read from the CSRs
  logic                 r_issue;

  // A read beat waits while a CSR write beat uses the access port.
  assign r_issue = r_state_q == RIssue && !csr_wr_o;

  assign csr_rd_o      = r_issue && is_csr(r_addr_q);
  assign csr_rd_addr_o = {r_addr_q[CsrAddrBits-1:3], 3'b000};
  assign err_rd_o      = r_issue && !is_csr(r_addr_q) && !is_win(r_addr_q);

  assign s_axi_arready_o = r_state_q == RIdle;
  assign s_axi_rvalid_o  = r_state_q == RData;
  assign s_axi_rdata_o   = r_csr_q ? csr_rd_data_i : '0;
  assign s_axi_rresp_o   = RespOkay;
  assign s_axi_rlast_o   = r_left_q == '0;
  assign s_axi_rid_o     = r_id_q;

  always_comb begin
    r_state_d = r_state_q;
    r_addr_d  = r_addr_q;
    r_left_d  = r_left_q;
    unique case (r_state_q)
      RIdle: if (s_axi_arvalid_i) begin
        r_state_d = RIssue;
        r_addr_d  = s_axi_araddr_i;
        r_left_d  = s_axi_arlen_i;
      end
      RIssue: if (r_issue) r_state_d = RData;
      RData: if (s_axi_rready_i) begin
        if (r_left_q == '0) begin
          r_state_d = RIdle;
        end else begin
          r_state_d = RIssue;
          r_addr_d  = next_addr(r_addr_q, r_size_q, r_burst_q);
          r_left_d  = r_left_q - 1'b1;
        end
      end
      default: r_state_d = RIdle;
    endcase
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) r_state_q <= RIdle;
    else       r_state_q <= r_state_d;
  end

  always_ff @(posedge clk_i) begin
    r_addr_q <= r_addr_d;
    r_left_q <= r_left_d;
    if (r_issue) r_csr_q <= is_csr(r_addr_q);
    if (r_state_q == RIdle && s_axi_arvalid_i) begin
      r_size_q  <= s_axi_arsize_i;
      r_burst_q <= s_axi_arburst_i;
      r_id_q    <= s_axi_arid_i;
    end
  end

  `CANOPY_ASSERT(a_wlast, !w_beat || s_axi_wlast_i == (w_left_q == '0),
                 "WLAST disagrees with AWLEN")
  `CANOPY_ASSERT(a_next_behind_active, !aw_next_valid_q || w_active_q,
                 "a write address waits while no burst is active")
  `CANOPY_ASSERT(a_csr_port_shared, !(csr_wr_o && csr_rd_o), "CSR read and write in one cycle")
endmodule

`default_nettype wire
