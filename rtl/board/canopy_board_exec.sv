// canopy_board_exec: carries out the board's host commands (canopy_serial_pkg spaces) for
// two sources, the serial bridge (source 0) and the on-chip self-test (source 1): bursts
// on a node's BAR0 through its AXI4 slave, words of a node's board memory, and the board's
// own registers (identity, clock, cycle counter, dirty lines, self-test, error counters).
//
// Interface contract
//   - cmd_valid_i[s] / cmd_ready_o[s]: valid/ready per source; one command is carried out
//     at a time, the bridge's first when both wait. A command: write or read, space, node,
//     byte address and words (1..canopy_serial_pkg::MaxWords).
//   - The source's word buffer: for a write, word i is read as buf_re_o / buf_raddr_o, its
//     value on buf_rdata_i[s] the next cycle; for a read, word i is written as buf_we_o /
//     buf_waddr_o / buf_wdata_o. Both go to the source being served (busy_src_o).
//   - done_valid_o[s]: one-cycle pulse ending the source's command, with done_status_o
//     (canopy_serial_pkg St*). A command refused before it starts (bad_op, range, busy)
//     touches nothing.
//   - st_running_i: while the self-test runs, the bridge's BAR0 commands and memory writes
//     are refused (busy); its reads of memory and of board registers are served.
//   - Node AXI4 masters m_axi_*[n]: one burst at a time, INCR of 8-byte beats, ID 0; RREADY
//     and BREADY high while waiting. A slave that has not answered canopy_serial_pkg::AxiTimeout cycles after
//     the bridge started waiting ends the command with status timeout (the AXI transaction
//     is abandoned: the node's slave is then in an unknown state until reset).
//   - mem_*[n]: the board memories' host ports (canopy_board_mem).
//   - st_start_o: pulse when ST_CTRL is written with bit 0 set (ignored while running).
//   - MEM_FILL: writes the node's MEM_FILL_WORD into a range of its memory, word by word,
//     before the command ends (a zeroed or sentinel-filled host buffer in two frames, not
//     its every byte over the line).
//   - err_*_i pulses and the exec's own AXI errors are counted in the board registers.
`default_nettype none
`include "canopy_assert.svh"

module canopy_board_exec #(
  parameter int unsigned NumNodes   = 0,   /// nodes on the board; must be set
  parameter int unsigned SizeX      = 0,   /// torus size X (ID register)
  parameter int unsigned SizeY      = 0,   /// torus size Y (ID register)
  parameter int unsigned MemBytes   = 0,   /// board memory bytes per node
  parameter int unsigned ClockHz    = 0,   /// core clock (CLOCK register)
  parameter int unsigned BaudRate   = 0,   /// UART baud rate (CLOCK register)
  localparam int unsigned NumSrc    = 2,
  localparam int unsigned BufW      = $clog2(canopy_serial_pkg::MaxWords),
  localparam int unsigned CountW    = BufW + 1,
  localparam int unsigned MemWordW  = $clog2(MemBytes / 8),
  localparam int unsigned Lines     = MemBytes / canopy_serial_pkg::LineBytes,
  localparam int unsigned DirtyWords = Lines / 64,
  localparam int unsigned DirtyIdxW = DirtyWords > 1 ? $clog2(DirtyWords) : 1
) (
  input  wire logic                   clk_i,
  input  wire logic                   rst_i,
  // commands
  input  wire logic [NumSrc-1:0]      cmd_valid_i,
  output logic      [NumSrc-1:0]      cmd_ready_o,
  input  wire logic [NumSrc-1:0]      cmd_write_i,
  input  wire logic [NumSrc-1:0][1:0] cmd_space_i,
  input  wire logic [NumSrc-1:0][7:0] cmd_node_i,
  input  wire logic [NumSrc-1:0][31:0] cmd_addr_i,
  input  wire logic [NumSrc-1:0][CountW-1:0] cmd_words_i,
  output logic                        buf_re_o,
  output logic      [BufW-1:0]        buf_raddr_o,
  input  wire logic [NumSrc-1:0][63:0] buf_rdata_i,
  output logic                        buf_we_o,
  output logic      [BufW-1:0]        buf_waddr_o,
  output logic      [63:0]            buf_wdata_o,
  output logic                        busy_src_o,
  output logic      [NumSrc-1:0]      done_valid_o,
  output logic      [7:0]             done_status_o,
  input  wire logic                   st_running_i,
  // node AXI4 masters (to each node's BAR0 slave)
  output logic [NumNodes-1:0][15:0]   m_axi_awaddr_o,
  output logic [NumNodes-1:0][7:0]    m_axi_awlen_o,
  output logic [NumNodes-1:0]         m_axi_awvalid_o,
  input  wire logic [NumNodes-1:0]    m_axi_awready_i,
  output logic [NumNodes-1:0][63:0]   m_axi_wdata_o,
  output logic [NumNodes-1:0]         m_axi_wlast_o,
  output logic [NumNodes-1:0]         m_axi_wvalid_o,
  input  wire logic [NumNodes-1:0]    m_axi_wready_i,
  input  wire logic [NumNodes-1:0][1:0] m_axi_bresp_i,
  input  wire logic [NumNodes-1:0]    m_axi_bvalid_i,
  output logic [NumNodes-1:0]         m_axi_bready_o,
  output logic [NumNodes-1:0][15:0]   m_axi_araddr_o,
  output logic [NumNodes-1:0][7:0]    m_axi_arlen_o,
  output logic [NumNodes-1:0]         m_axi_arvalid_o,
  input  wire logic [NumNodes-1:0]    m_axi_arready_i,
  input  wire logic [NumNodes-1:0][63:0] m_axi_rdata_i,
  input  wire logic [NumNodes-1:0][1:0] m_axi_rresp_i,
  input  wire logic [NumNodes-1:0]    m_axi_rlast_i,
  input  wire logic [NumNodes-1:0]    m_axi_rvalid_i,
  output logic [NumNodes-1:0]         m_axi_rready_o,
  // board memories' host ports
  output logic [NumNodes-1:0]         mem_req_valid_o,
  input  wire logic [NumNodes-1:0]    mem_req_ready_i,
  output logic                        mem_req_write_o,
  output logic [MemWordW-1:0]         mem_req_addr_o,
  output logic [63:0]                 mem_req_wdata_o,
  input  wire logic [NumNodes-1:0]    mem_rsp_valid_i,
  input  wire logic [NumNodes-1:0][63:0] mem_rsp_data_i,
  input  wire logic [NumNodes-1:0][Lines-1:0] mem_dirty_i,
  input  wire logic [NumNodes-1:0][DirtyWords-1:0] mem_dirty_sum_i,
  output logic [NumNodes-1:0]         mem_clr_valid_o,
  output logic [DirtyIdxW-1:0]        mem_clr_word_o,
  output logic [63:0]                 mem_clr_mask_o,
  input  wire logic [NumNodes-1:0]    mem_dma_err_i,
  // self-test and bridge status
  output logic                        st_start_o,
  input  wire logic [63:0]            st_status_i,
  input  wire logic [63:0]            st_got_i,
  input  wire logic [63:0]            st_want_i,
  input  wire logic                   err_crc_i,
  input  wire logic                   err_frame_i,
  input  wire logic                   frame_done_i
);
  localparam int unsigned NodeW = NumNodes > 1 ? $clog2(NumNodes) : 1;
  localparam int unsigned TmoW  = $clog2(canopy_serial_pkg::AxiTimeout) + 1;
  localparam int unsigned BregBytes = 32'h100;
  localparam int unsigned DirtyCount = canopy_serial_pkg::BregDirty0Count;
  `CANOPY_STATIC_ASSERT(gen_nodes_check, NumNodes >= 1 && NumNodes <= 255, "NumNodes must be 1..255")
  `CANOPY_STATIC_ASSERT(gen_dirty_check, DirtyWords <= DirtyCount,
                        "board memory larger than the DIRTY registers cover")

  typedef enum logic [3:0] {
    S_IDLE, S_AW, S_WREAD, S_WBEAT, S_B, S_AR, S_R, S_MREAD, S_MREQ, S_MRSP, S_BREAD, S_BOARD, S_FILL, S_DONE
  } state_e;
  state_e state_q;

  logic             src_q;         // source being served
  logic             write_q;
  logic [NodeW-1:0] node_q;
  logic [31:0]      addr_q;        // byte address of the current word
  logic [CountW-1:0] left_q;       // words still to do, including the current one
  logic [BufW-1:0]  idx_q;         // buffer index of the current word
  logic [7:0]       status_q;
  logic [31:0]      zleft_q;       // words still to fill (MEM_FILL)
  logic [NumNodes-1:0][63:0] fill_q;  // MEM_FILL_WORD per node
  logic [TmoW-1:0]  tmo_q;
  logic [63:0]      cycles_q;
  logic [31:0]      err_crc_q, err_frame_q, err_axi_q, frames_q;
  logic [NumNodes-1:0][31:0] err_dma_q;

  // ---------------------------------------------------------------- command checks
  logic             pick;          // which source starts
  logic             start;
  logic [7:0]       pre_status;    // status of the picked command before it runs
  always_comb begin
    pick = cmd_valid_i[0] ? 1'b0 : 1'b1;
    start = state_q == S_IDLE && |cmd_valid_i;
  end

  // Board registers: writable are ST_CTRL, MEM_FILL, MEM_FILL_WORD and the DIRTY words.
  function automatic logic breg_writable(input logic [11:0] a);
    breg_writable = a == canopy_serial_pkg::BregStCtrl || a == canopy_serial_pkg::BregMemFill ||
                    a == canopy_serial_pkg::BregMemFillWord ||
                    (a >= canopy_serial_pkg::BregDirty0 && a < canopy_serial_pkg::BregDirty0 + 12'(8 * DirtyWords));
  endfunction

  always_comb begin
    logic [32:0] end_byte;
    logic        w;
    logic [1:0]  sp;
    w = cmd_write_i[pick];
    sp = cmd_space_i[pick];
    end_byte = {1'b0, cmd_addr_i[pick]} + {23'd0, cmd_words_i[pick], 3'b000};
    pre_status = canopy_serial_pkg::StOk;
    if (cmd_addr_i[pick][2:0] != 3'd0 || cmd_words_i[pick] == '0 ||
        cmd_words_i[pick] > CountW'(canopy_serial_pkg::MaxWords) || sp == 2'd3 || cmd_node_i[pick] >= 8'(NumNodes)) begin
      pre_status = canopy_serial_pkg::StBadOp;
    end else if (sp == canopy_serial_pkg::SpaceBar0) begin
      // Inside BAR0's 64 KiB, and not across a 4 KiB boundary (an AXI4 burst may not).
      if (end_byte > 33'h10000 ||
          cmd_addr_i[pick][31:12] != (end_byte[31:12] - 20'(end_byte[11:0] == 12'd0)))
        pre_status = canopy_serial_pkg::StRange;
      else if (st_running_i && pick == 1'b0) pre_status = canopy_serial_pkg::StBusy;
    end else if (sp == canopy_serial_pkg::SpaceMem) begin
      if (end_byte > 33'(MemBytes)) pre_status = canopy_serial_pkg::StRange;
      else if (st_running_i && pick == 1'b0 && w) pre_status = canopy_serial_pkg::StBusy;
    end else begin
      if (end_byte > 33'(BregBytes)) pre_status = canopy_serial_pkg::StRange;
      else if (w && (cmd_words_i[pick] != CountW'(1) || !breg_writable(cmd_addr_i[pick][11:0])))
        pre_status = canopy_serial_pkg::StRange;
    end
  end

  assign cmd_ready_o = {start && pick == 1'b1, start && pick == 1'b0};

  // ---------------------------------------------------------------- board register reads
  logic [63:0] breg_rdata;
  always_comb begin
    logic [11:0] a;
    a = addr_q[11:0];
    breg_rdata = '0;
    unique case (a)
      canopy_serial_pkg::BregId:       breg_rdata = {8'(SizeY), 8'(SizeX), 8'(NumNodes), 8'(canopy_serial_pkg::BoardVersion), canopy_serial_pkg::BoardMagic};
      canopy_serial_pkg::BregClock:    breg_rdata = {32'(BaudRate), 32'(ClockHz)};
      canopy_serial_pkg::BregCycles:   breg_rdata = cycles_q;
      canopy_serial_pkg::BregDirtySum: breg_rdata = 64'(mem_dirty_sum_i[node_q]);
      canopy_serial_pkg::BregMem:      breg_rdata = {16'd0, 16'(canopy_serial_pkg::LineBytes), 32'(MemBytes)};
      canopy_serial_pkg::BregStStatus: breg_rdata = st_status_i;
      canopy_serial_pkg::BregStGot:    breg_rdata = st_got_i;
      canopy_serial_pkg::BregStWant:   breg_rdata = st_want_i;
      canopy_serial_pkg::BregErrCrc:   breg_rdata = 64'(err_crc_q);
      canopy_serial_pkg::BregErrFrame: breg_rdata = 64'(err_frame_q);
      canopy_serial_pkg::BregErrAxi:   breg_rdata = 64'(err_axi_q);
      canopy_serial_pkg::BregFrames:   breg_rdata = 64'(frames_q);
      canopy_serial_pkg::BregErrDma:   breg_rdata = 64'(err_dma_q[node_q]);
      canopy_serial_pkg::BregMemFillWord: breg_rdata = fill_q[node_q];
      default: begin
        for (int unsigned i = 0; i < DirtyWords; i++) begin
          if (a == canopy_serial_pkg::BregDirty0 + 12'(8 * i)) breg_rdata = mem_dirty_i[node_q][64*i +: 64];
        end
      end
    endcase
  end

  // ---------------------------------------------------------------- the state machine
  logic timed_out;
  assign timed_out = tmo_q == TmoW'(canopy_serial_pkg::AxiTimeout);

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      state_q <= S_IDLE;
      src_q   <= 1'b0;
      tmo_q   <= '0;
    end else begin
      unique case (state_q)
        S_IDLE: if (start) begin
          src_q    <= pick;
          write_q  <= cmd_write_i[pick];
          node_q   <= NodeW'(cmd_node_i[pick]);
          addr_q   <= cmd_addr_i[pick];
          left_q   <= cmd_words_i[pick];
          idx_q    <= '0;
          status_q <= pre_status;
          tmo_q    <= '0;
          if (pre_status != canopy_serial_pkg::StOk) state_q <= S_DONE;
          else if (cmd_space_i[pick] == canopy_serial_pkg::SpaceBar0) state_q <= cmd_write_i[pick] ? S_AW : S_AR;
          else if (cmd_space_i[pick] == canopy_serial_pkg::SpaceMem) state_q <= cmd_write_i[pick] ? S_MREAD : S_MREQ;
          else state_q <= cmd_write_i[pick] ? S_BREAD : S_BOARD;
        end
        // BAR0 write burst: address, then each word read from the buffer and sent.
        S_AW: begin
          tmo_q <= tmo_q + TmoW'(1);
          if (m_axi_awready_i[node_q]) begin state_q <= S_WREAD; tmo_q <= '0; end
          else if (timed_out) begin status_q <= canopy_serial_pkg::StTimeout; state_q <= S_DONE; end
        end
        S_WREAD: state_q <= S_WBEAT;
        S_WBEAT: begin
          tmo_q <= tmo_q + TmoW'(1);
          if (m_axi_wready_i[node_q]) begin
            tmo_q  <= '0;
            idx_q  <= idx_q + BufW'(1);
            left_q <= left_q - CountW'(1);
            state_q <= left_q == CountW'(1) ? S_B : S_WREAD;
          end else if (timed_out) begin status_q <= canopy_serial_pkg::StTimeout; state_q <= S_DONE; end
        end
        S_B: begin
          tmo_q <= tmo_q + TmoW'(1);
          if (m_axi_bvalid_i[node_q]) begin
            if (m_axi_bresp_i[node_q] != 2'b00) status_q <= canopy_serial_pkg::StAxi;
            state_q <= S_DONE;
          end else if (timed_out) begin status_q <= canopy_serial_pkg::StTimeout; state_q <= S_DONE; end
        end
        // BAR0 read burst: address, then each beat into the buffer.
        S_AR: begin
          tmo_q <= tmo_q + TmoW'(1);
          if (m_axi_arready_i[node_q]) begin state_q <= S_R; tmo_q <= '0; end
          else if (timed_out) begin status_q <= canopy_serial_pkg::StTimeout; state_q <= S_DONE; end
        end
        S_R: begin
          tmo_q <= tmo_q + TmoW'(1);
          if (m_axi_rvalid_i[node_q]) begin
            tmo_q <= '0;
            if (m_axi_rresp_i[node_q] != 2'b00) status_q <= canopy_serial_pkg::StAxi;
            idx_q  <= idx_q + BufW'(1);
            left_q <= left_q - CountW'(1);
            if (m_axi_rlast_i[node_q]) state_q <= S_DONE;
          end else if (timed_out) begin status_q <= canopy_serial_pkg::StTimeout; state_q <= S_DONE; end
        end
        // Memory: word by word.
        S_MREAD: state_q <= S_MREQ;
        S_MREQ: if (mem_req_ready_i[node_q]) begin
          if (write_q) begin
            idx_q  <= idx_q + BufW'(1);
            left_q <= left_q - CountW'(1);
            addr_q <= addr_q + 32'd8;
            state_q <= left_q == CountW'(1) ? S_DONE : S_MREAD;
          end else begin
            state_q <= S_MRSP;
          end
        end
        S_MRSP: if (mem_rsp_valid_i[node_q]) begin
          idx_q  <= idx_q + BufW'(1);
          left_q <= left_q - CountW'(1);
          addr_q <= addr_q + 32'd8;
          state_q <= left_q == CountW'(1) ? S_DONE : S_MREQ;
        end
        // Board registers: reads word by word into the buffer; a write is one word.
        S_BREAD: state_q <= S_BOARD;
        S_BOARD: begin
          idx_q  <= idx_q + BufW'(1);
          left_q <= left_q - CountW'(1);
          addr_q <= addr_q + 32'd8;
          if (write_q && addr_q[11:0] == canopy_serial_pkg::BregMemFill) begin
            // Fill a range of the node's memory with its MEM_FILL_WORD, word by word.
            addr_q  <= wword[31:0];
            zleft_q <= wword[63:32] >> 3;
            if (wword[2:0] != 3'd0 || wword[34:32] != 3'd0 ||
                {1'b0, wword[31:0]} + {1'b0, wword[63:32]} > 33'(MemBytes)) begin
              status_q <= canopy_serial_pkg::StRange;
              state_q  <= S_DONE;
            end else state_q <= wword[63:32] == 32'd0 ? S_DONE : S_FILL;
          end else if (write_q || left_q == CountW'(1)) state_q <= S_DONE;
        end
        S_FILL: if (mem_req_ready_i[node_q]) begin
          addr_q  <= addr_q + 32'd8;
          zleft_q <= zleft_q - 32'd1;
          if (zleft_q == 32'd1) state_q <= S_DONE;
        end
        S_DONE: state_q <= S_IDLE;
        default: state_q <= S_IDLE;
      endcase
    end
  end

  // The buffer word of a write is read in S_*READ; the buffer holds it on buf_rdata_i
  // while the next state uses it.
  logic [63:0] wword;
  assign wword = buf_rdata_i[src_q];

  assign busy_src_o  = src_q;
  assign buf_re_o    = state_q == S_WREAD || state_q == S_MREAD || state_q == S_BREAD;
  assign buf_raddr_o = idx_q;
  always_comb begin
    buf_we_o    = 1'b0;
    buf_waddr_o = idx_q;
    buf_wdata_o = '0;
    if (state_q == S_R && m_axi_rvalid_i[node_q]) begin
      buf_we_o    = 1'b1;
      buf_wdata_o = m_axi_rdata_i[node_q];
    end else if (state_q == S_MRSP && mem_rsp_valid_i[node_q]) begin
      buf_we_o    = 1'b1;
      buf_wdata_o = mem_rsp_data_i[node_q];
    end else if (state_q == S_BOARD && !write_q) begin
      buf_we_o    = 1'b1;
      buf_wdata_o = breg_rdata;
    end
  end

  // Node AXI4 masters.
  for (genvar n = 0; n < NumNodes; n++) begin : gen_node
    wire logic sel = node_q == NodeW'(n);
    assign m_axi_awaddr_o[n]  = addr_q[15:0];
    assign m_axi_awlen_o[n]   = 8'(left_q - CountW'(1));
    assign m_axi_awvalid_o[n] = sel && state_q == S_AW;
    assign m_axi_wdata_o[n]   = wword;
    assign m_axi_wlast_o[n]   = left_q == CountW'(1);
    assign m_axi_wvalid_o[n]  = sel && state_q == S_WBEAT;
    assign m_axi_bready_o[n]  = sel && state_q == S_B;
    assign m_axi_araddr_o[n]  = addr_q[15:0];
    assign m_axi_arlen_o[n]   = 8'(left_q - CountW'(1));
    assign m_axi_arvalid_o[n] = sel && state_q == S_AR;
    assign m_axi_rready_o[n]  = sel && state_q == S_R;
    assign mem_req_valid_o[n] = sel && (state_q == S_MREQ || state_q == S_FILL);
    assign mem_clr_valid_o[n] = sel && state_q == S_BOARD && write_q && addr_q[11:0] >= canopy_serial_pkg::BregDirty0;
  end
  assign mem_req_write_o = write_q;
  assign mem_req_addr_o  = addr_q[3 +: MemWordW];
  assign mem_req_wdata_o = state_q == S_FILL ? fill_q[node_q] : wword;
  assign mem_clr_word_o  = DirtyIdxW'((addr_q[11:0] - canopy_serial_pkg::BregDirty0) >> 3);
  assign mem_clr_mask_o  = wword;
  assign st_start_o      = state_q == S_BOARD && write_q && addr_q[11:0] == canopy_serial_pkg::BregStCtrl && wword[0] &&
                           !st_running_i;

  assign done_valid_o  = {state_q == S_DONE && src_q == 1'b1, state_q == S_DONE && src_q == 1'b0};
  assign done_status_o = status_q;

  // ---------------------------------------------------------------- counters
  logic axi_err;
  assign axi_err = state_q == S_DONE && (status_q == canopy_serial_pkg::StAxi || status_q == canopy_serial_pkg::StTimeout);
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      cycles_q    <= '0;
      err_crc_q   <= '0;
      err_frame_q <= '0;
      err_axi_q   <= '0;
      frames_q    <= '0;
      err_dma_q   <= '0;
      fill_q      <= '0;
    end else begin
      cycles_q <= cycles_q + 64'd1;
      if (err_crc_i) err_crc_q <= err_crc_q + 32'd1;
      if (err_frame_i) err_frame_q <= err_frame_q + 32'd1;
      if (axi_err) err_axi_q <= err_axi_q + 32'd1;
      if (frame_done_i) frames_q <= frames_q + 32'd1;
      for (int unsigned n = 0; n < NumNodes; n++) begin
        if (mem_dma_err_i[n]) err_dma_q[n] <= err_dma_q[n] + 32'd1;
      end
      if (state_q == S_BOARD && write_q && addr_q[11:0] == canopy_serial_pkg::BregMemFillWord)
        fill_q[node_q] <= wword;
    end
  end

  `CANOPY_ASSERT(a_idle_no_done, !(state_q == S_IDLE && |done_valid_o), "done outside a command")
  wire logic unused_addr = ^addr_q[31:16];
endmodule

`default_nettype wire
