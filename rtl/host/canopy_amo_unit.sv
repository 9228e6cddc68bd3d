// canopy_amo_unit: does the atomics (AMOs) a node holds for other nodes and for itself: a
// read-modify-write of a 4- or 8-byte object in this node's window, in host memory, by
// DMA, answered like a get (docs/host-interface.md, "Atomics").
//
// Interface contract
//   - win_base_i: WIN_BASE (static while requests target this node; 8-byte aligned). The
//     table's atomics were checked on arrival (canopy_ejector): inside the window, offset
//     a multiple of the size (4 or 8), a known operation. Refused ones never come here (the
//     get server answers them).
//   - head_* / retire_*: canopy_get_table's serving side, for atomics only (canopy_host_if
//     offers this unit the head entry when it is an atomic that is not refused; its DMA
//     marker has completed, so every DMA write issued before the request arrived has been
//     answered). The unit takes one, does it, and retires it once its response has gone;
//     only then does it take the next. One atomic at a time: every atomic on this node's
//     memory, whoever sent it (this node's host included), reads the value the previous
//     one wrote, so they are atomic with respect to each other.
//   - m_axi_ar* / rvalid_i, rdata_i: AXI4 read address channel (one single-beat read of
//     the aligned 8-byte word holding the object, ID AxiId, so canopy_host_if routes its
//     data here) and that read's data (the caller demultiplexes R by RID; this unit is
//     always ready) with its RRESP (rresp_i): an error (SLVERR, DECERR: the host refused
//     the read) makes the atomic fail: nothing is written, the response says FAILED and
//     carries no value, err_read_o pulses.
//   - wr_* / wdata_* / wr_done_i: one request to canopy_dma_writer (valid/ready: the
//     object's address and size, then its new value as one payload word, byte 0 first),
//     and the pulse of its completion (tag kind DmaAmo: the write response returned). The
//     response and the next atomic wait for it, so the next read sees the value. FETCH,
//     and a CSWAP whose compare fails, write nothing.
//   - out_*: the response, a GET_RESP toward the router's local port, valid/ready (valid
//     is a function of the state only), on VC P2P_HI: header word 0 (flags LAST, dst = the
//     requester, src = my_coord_i, len = the size with fetch, else 0), word 1 (offset =
//     the reply offset; rflags FAILED after a refused read), then with fetch the old value
//     (a 4-byte one zero-extended; none after a refused read).
//   - served_o pulses per atomic answered, failed_o with it for one that failed; busy_o: an
//     atomic in progress.
//
// Operations (canopy_pkg::amo_op_e): FETCH, SET, CSWAP, ADD, AND, OR, XOR, on 64 bits or the
// low 32 (results taken modulo 2^32). Timing: every path starts at a register: the sum,
// the logic operations, the compare and the choice among them are one stage (the state
// SOp), from the old value, operand and compare registers into the new value register.
// Limits: an atomic takes a host read round trip plus a write and its response; atomics to
// different objects are not overlapped (docs/host-interface.md gives the figures).
`default_nettype none
`include "canopy_assert.svh"

module canopy_amo_unit #(
  parameter int unsigned NumVcs     = 4,  /// VCs of the router's local port
  parameter int unsigned AxiIdWidth = 4,  /// AXI ID bits
  parameter int unsigned AxiId      = 1,  /// ARID of this unit's reads (the get server uses 0)
  localparam int unsigned VcW  = $clog2(NumVcs),
  localparam int unsigned LenW = canopy_host_pkg::DmaLenBits
) (
  input  wire logic                          clk_i,
  input  wire logic                          rst_i,
  input  wire canopy_pkg::coords_t           my_coord_i,
  input  wire logic [63:0]                   win_base_i,

  input  wire logic                          head_valid_i,
  input  wire canopy_host_pkg::get_entry_t   head_i,
  output logic                               head_take_o,
  output logic                               retire_o,
  output logic      [11:0]                   retire_idx_o,

  output logic      [AxiIdWidth-1:0]         m_axi_arid_o,
  output logic      [63:0]                   m_axi_araddr_o,
  output logic      [7:0]                    m_axi_arlen_o,
  output logic      [2:0]                    m_axi_arsize_o,
  output logic      [1:0]                    m_axi_arburst_o,
  output logic      [3:0]                    m_axi_arcache_o,
  output logic      [2:0]                    m_axi_arprot_o,
  output logic                               m_axi_arvalid_o,
  input  wire logic                          m_axi_arready_i,
  input  wire logic                          rvalid_i,
  input  wire logic [63:0]                   rdata_i,
  input  wire logic [1:0]                    rresp_i,
  output logic                               err_read_o,

  output logic                               wr_valid_o,
  input  wire logic                          wr_ready_i,
  output logic      [63:0]                   wr_addr_o,
  output logic      [LenW-1:0]               wr_len_o,
  output logic                               wdata_valid_o,
  input  wire logic                          wdata_ready_i,
  output logic      [63:0]                   wdata_o,
  input  wire logic                          wr_done_i,

  output logic                               out_valid_o,
  input  wire logic                          out_ready_i,
  output logic      [63:0]                   out_flit_o,
  output logic                               out_last_o,
  output logic      [VcW-1:0]                out_vc_o,

  output logic                               served_o,
  output logic                               failed_o,
  output logic                               busy_o
);
  `CANOPY_STATIC_ASSERT(gen_id_check, AxiIdWidth >= 1 && AxiId >= 1 && AxiId < (1 << AxiIdWidth),
                        "AxiId must be nonzero (the get server's reads use ID 0) and fit AxiIdWidth")

  typedef enum logic [3:0] { SIdle, SAr, SR, SOp, SWr, SWd, SWait, SH0, SH1, SPay } state_e;
  state_e state_q, state_d;

  // The atomic being done (fields of its table entry), its old and new values.
  logic [15:0] src_q;
  logic [11:0] idx_q;
  logic [63:0] addr_q;      // host bus address of the object
  logic [39:0] reply_q;
  logic        wide_q, fetch_q;
  logic        bad_q;       // the host refused the read (RRESP): the atomic fails
  logic [2:0]  aop_q;
  logic [63:0] opnd_q, cmp_q, old_q, new_q;
  logic [63:0] new_d;
  logic        write_d;
  wire  logic  unused_head = ^{head_i.fresh, head_i.failed, head_i.amo, head_i.len[16:4],
                                head_i.len[2:0]};

  // ---------------------------------------------------------------- the operation
  // A 4-byte atomic works in bits 31..0: its object is there in old_q (below), its result
  // too (the sum's and the logic operations' low bits do not depend on the high ones), and
  // only those bytes are written back and returned, so the high bits are left as they come
  // (no masking logic); only the compare must ignore them.
  always_comb begin
    logic [63:0] sum;
    logic        eq;
    sum     = old_q + opnd_q;
    eq      = old_q[31:0] == cmp_q[31:0] && (!wide_q || old_q[63:32] == cmp_q[63:32]);
    new_d   = old_q;
    write_d = 1'b1;
    unique case (aop_q)
      3'(canopy_pkg::AMO_FETCH): write_d = 1'b0;
      3'(canopy_pkg::AMO_SET):   new_d = opnd_q;
      3'(canopy_pkg::AMO_CSWAP): begin
        new_d   = opnd_q;
        write_d = eq;
      end
      3'(canopy_pkg::AMO_ADD):   new_d = sum;
      3'(canopy_pkg::AMO_AND):   new_d = old_q & opnd_q;
      3'(canopy_pkg::AMO_OR):    new_d = old_q | opnd_q;
      3'(canopy_pkg::AMO_XOR):   new_d = old_q ^ opnd_q;
      default:                   write_d = 1'b0;  // refused at arrival; never here
    endcase
  end

  // ---------------------------------------------------------------- control
  always_comb begin
    state_d         = state_q;
    head_take_o     = 1'b0;
    m_axi_arvalid_o = 1'b0;
    wr_valid_o      = 1'b0;
    wdata_valid_o   = 1'b0;
    retire_o        = 1'b0;
    unique case (state_q)
      SIdle: if (head_valid_i) begin
        head_take_o = 1'b1;
        state_d     = SAr;
      end
      SAr: begin
        m_axi_arvalid_o = 1'b1;
        if (m_axi_arready_i) state_d = SR;
      end
      SR:  if (rvalid_i) state_d = SOp;
      SOp: state_d = write_d && !bad_q ? SWr : SH0;
      SWr: begin
        wr_valid_o = 1'b1;
        if (wr_ready_i) state_d = SWd;
      end
      SWd: begin
        wdata_valid_o = 1'b1;
        if (wdata_ready_i) state_d = SWait;
      end
      SWait: if (wr_done_i) state_d = SH0;
      SH0: if (out_ready_i) state_d = SH1;
      SH1: if (out_ready_i) begin
        if (fetch_q && !bad_q) begin
          state_d = SPay;
        end else begin
          retire_o = 1'b1;
          state_d  = SIdle;
        end
      end
      SPay: if (out_ready_i) begin
        retire_o = 1'b1;
        state_d  = SIdle;
      end
      default: state_d = SIdle;
    endcase
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) state_q <= SIdle;
    else       state_q <= state_d;
  end

  always_ff @(posedge clk_i) begin
    if (head_take_o) begin
      src_q   <= head_i.src;
      idx_q   <= head_i.idx;
      addr_q  <= win_base_i + 64'(head_i.offset);
      reply_q <= head_i.reply;
      wide_q  <= head_i.len[3];
      fetch_q <= head_i.fetch;
      aop_q   <= head_i.aop;
      opnd_q  <= head_i.operand;
      cmp_q   <= head_i.compare;
    end
    // A 4-byte object in the high half of its word moves to bits 31..0 (an 8-byte one is
    // aligned: addr_q[2] is 0).
    if (state_q == SR && rvalid_i) old_q <= {rdata_i[63:32], addr_q[2] ? rdata_i[63:32] : rdata_i[31:0]};
    if (state_q == SR && rvalid_i) bad_q <= rresp_i[1];
    if (state_q == SOp) new_q <= new_d;
  end

  // ---------------------------------------------------------------- outputs
  assign m_axi_arid_o    = AxiIdWidth'(AxiId);
  assign m_axi_araddr_o  = {addr_q[63:3], 3'b000};
  assign m_axi_arlen_o   = 8'd0;           // one beat
  assign m_axi_arsize_o  = 3'd3;           // 8 bytes
  assign m_axi_arburst_o = 2'b01;          // INCR
  assign m_axi_arcache_o = 4'b0011;        // normal, non-cacheable, bufferable
  assign m_axi_arprot_o  = 3'b000;

  assign wr_addr_o = addr_q;
  assign wr_len_o  = wide_q ? LenW'(8) : LenW'(4);
  assign wdata_o   = new_q;

  canopy_pkg::hdr_t h;
  always_comb begin
    h        = '0;
    h.ptype  = canopy_pkg::PKT_GET_RESP;
    h.dst    = canopy_pkg::coords_t'(src_q);
    h.src    = my_coord_i;
    h.len    = !fetch_q || bad_q ? 9'd0 : wide_q ? 9'd8 : 9'd4;
    h.offset = reply_q;
    h.flags[canopy_pkg::FlagLast] = 1'b1;
    h.rflags[canopy_pkg::RflagFailed] = bad_q;
  end

  assign out_valid_o  = state_q == SH0 || state_q == SH1 || state_q == SPay;
  assign out_flit_o   = state_q == SH0 ? h[63:0] : state_q == SH1 ? h[127:64]
                      : {wide_q ? old_q[63:32] : 32'd0, old_q[31:0]};  // payload bytes past len are 0
  assign out_last_o   = state_q == SPay || (state_q == SH1 && (!fetch_q || bad_q));
  assign out_vc_o     = VcW'(canopy_pkg::VcP2pHi);
  assign retire_idx_o = idx_q;
  assign served_o     = retire_o;
  assign failed_o     = retire_o && bad_q;
  assign err_read_o   = state_q == SR && rvalid_i && rresp_i[1];
  wire logic unused_rresp = rresp_i[0];  // OKAY / EXOKAY: both a good read
  assign busy_o       = state_q != SIdle;

  // ---------------------------------------------------------------- invariants
  `CANOPY_ASSERT(a_take_amo, !head_take_o || (head_i.amo && !head_i.failed
                 && (head_i.len == 17'd4 || head_i.len == 17'd8)),
                 "took a request that is not an accepted atomic")
  `CANOPY_ASSERT(a_aligned, state_q == SIdle || (wide_q ? addr_q[2:0] == 3'd0 : addr_q[1:0] == 2'd0),
                 "atomic object not aligned to its size")
  `CANOPY_ASSERT(a_r_expected, !rvalid_i || state_q == SR, "atomic read data without a read")
  `CANOPY_ASSERT(a_done_expected, !wr_done_i || state_q == SWait, "atomic write completion without a write")
endmodule

`default_nettype wire
