// canopy_vc_fifo: one virtual channel's input buffer bookkeeping: its pointers into the
// input's shared data RAM, and its entries' control fields, with the first two readable
// at once.
//
// Interface contract
//   - push_i / push_ctl_i: an entry enters at the tail (its data goes into the data RAM at
//     wr_ptr_o, by the caller). Legal only when count_o < Depth (the sender's credits
//     guarantee it; asserted).
//   - pop_i: the head entry leaves. Legal only when count_o >= 1. pop_i may come late in
//     the cycle: it only enables registers and selects their next values.
//   - count_o: entries held; wr_ptr_o / rd_ptr_o: the tail and head slots (all registers).
//   - head_ctl_o / next_ctl_o: control fields of entries 0 and 1 (meaningful when count_o
//     >= 1 / >= 2), asynchronous reads of distributed RAM at registered read pointers, so
//     they are valid early in the cycle. An entry pushed this cycle is readable from the
//     next (the caller bypasses it).
// Depth is a power of two so the pointers wrap for free.
`default_nettype none
`include "canopy_assert.svh"

module canopy_vc_fifo #(
  parameter int unsigned CtlW  = 0,  /// control bits per entry; must be set
  parameter int unsigned Depth = 0,  /// entries, a power of two >= 4; must be set
  localparam int unsigned PtrW = $clog2(Depth),
  localparam int unsigned CntW = PtrW + 1
) (
  input  wire logic             clk_i,
  input  wire logic             rst_i,
  input  wire logic             push_i,
  input  wire logic [CtlW-1:0]  push_ctl_i,
  input  wire logic             pop_i,
  output logic      [CntW-1:0]  count_o,
  output logic      [PtrW-1:0]  wr_ptr_o,
  output logic      [PtrW-1:0]  rd_ptr_o,
  output logic      [CtlW-1:0]  head_ctl_o,
  output logic      [CtlW-1:0]  next_ctl_o
);
  `CANOPY_STATIC_ASSERT(gen_depth_check, Depth >= 4 && (Depth & (Depth - 1)) == 0,
                        "Depth must be a power of two >= 4")

  logic [CtlW-1:0]  ctl_mem [Depth];
  logic [PtrW-1:0]  wr_ptr_q, rd_ptr_q, rd_next_q;  // rd_next_q = rd_ptr_q + 1, kept as a register
  logic [CntW-1:0]  count_q;

  always_ff @(posedge clk_i) begin
    if (push_i) ctl_mem[wr_ptr_q] <= push_ctl_i;
  end

  assign head_ctl_o = ctl_mem[rd_ptr_q];
  assign next_ctl_o = ctl_mem[rd_next_q];

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      wr_ptr_q  <= '0;
      rd_ptr_q  <= '0;
      rd_next_q <= PtrW'(1);
      count_q   <= '0;
    end else begin
      if (push_i) wr_ptr_q <= wr_ptr_q + 1'b1;
      if (pop_i) begin
        rd_ptr_q  <= rd_next_q;
        rd_next_q <= rd_next_q + 1'b1;
      end
      unique case ({push_i, pop_i})
        2'b10:   count_q <= count_q + 1'b1;
        2'b01:   count_q <= count_q - 1'b1;
        default: count_q <= count_q;
      endcase
    end
  end

  assign count_o  = count_q;
  assign wr_ptr_o = wr_ptr_q;
  assign rd_ptr_o = rd_ptr_q;

  // A full buffer's sender holds no credit, even in a cycle that frees a slot (the credit
  // for it goes back only the next cycle).
  `CANOPY_ASSERT(a_no_overflow, !(push_i && count_q == CntW'(Depth)),
                 "push into a full VC buffer: a flit arrived without a credit")
  `CANOPY_ASSERT(a_no_underflow, !(pop_i && count_q == '0), "pop from an empty VC buffer")
  `CANOPY_ASSERT(a_next_ptr, rd_next_q == rd_ptr_q + 1'b1, "read pointers out of step")
endmodule

`default_nettype wire
