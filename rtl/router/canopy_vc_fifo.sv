// canopy_vc_fifo: one virtual channel's input buffer, with its first two entries' control
// fields in registers.
//
// Interface contract
//   - push_i: push_data_i/push_ctl_i enter at the tail. Legal only when count_o < Depth
//     (the sender's credits guarantee it; asserted).
//   - pop_i: the head entry leaves. Legal only when count_o >= 1. pop_i may come late in
//     the cycle: it only selects between next-state values and enables registers.
//   - count_o: entries held (registered).
//   - head_ctl_o / next_ctl_o: control fields of entries 0 and 1 (registered; meaningful
//     when count_o >= 1 / >= 2). The router's first pipeline stage decides from these, so
//     no decision waits for a RAM read.
//   - head_data_o: the head entry's data, read asynchronously (distributed RAM) at the read
//     pointer register.
// Push and pop may happen in the same cycle. Depth is a power of two so the pointers wrap
// for free.
`default_nettype none
`include "canopy_assert.svh"

module canopy_vc_fifo #(
  parameter int unsigned Width = 0,  /// data bits per entry; must be set
  parameter int unsigned CtlW  = 0,  /// control bits per entry; must be set
  parameter int unsigned Depth = 0,  /// entries, a power of two >= 4; must be set
  localparam int unsigned PtrW = $clog2(Depth),
  localparam int unsigned CntW = PtrW + 1
) (
  input  wire logic             clk_i,
  input  wire logic             rst_i,
  input  wire logic             push_i,
  input  wire logic [Width-1:0] push_data_i,
  input  wire logic [CtlW-1:0]  push_ctl_i,
  input  wire logic             pop_i,
  output logic      [CntW-1:0]  count_o,
  output logic      [CtlW-1:0]  head_ctl_o,
  output logic      [CtlW-1:0]  next_ctl_o,
  output logic      [Width-1:0] head_data_o
);
  `CANOPY_STATIC_ASSERT(gen_depth_check, Depth >= 4 && (Depth & (Depth - 1)) == 0,
                        "Depth must be a power of two >= 4")

  logic [Width-1:0] data_mem [Depth];
  logic [CtlW-1:0]  ctl_mem  [Depth];
  logic [PtrW-1:0]  wr_ptr_q, rd_ptr_q;
  logic [CntW-1:0]  count_q, count_d;
  logic [CtlW-1:0]  head_q, next_q, head_d, next_d;

  always_ff @(posedge clk_i) begin
    if (push_i) begin
      data_mem[wr_ptr_q] <= push_data_i;
      ctl_mem[wr_ptr_q]  <= push_ctl_i;
    end
  end

  assign head_data_o = data_mem[rd_ptr_q];
  // Entry 2's control fields, to refill entry 1 when the head leaves.
  wire logic [CtlW-1:0] third_ctl = ctl_mem[rd_ptr_q + PtrW'(2)];

  // Next state of the two control registers. Both alternatives are formed from registers
  // and the arriving entry; the late pop only chooses between them.
  always_comb begin
    logic [CtlW-1:0] head_stay, next_stay, head_pop, next_pop;
    head_stay = (count_q >= CntW'(1)) ? head_q : push_ctl_i;
    next_stay = (count_q >= CntW'(2)) ? next_q : push_ctl_i;
    head_pop  = (count_q >= CntW'(2)) ? next_q : push_ctl_i;
    next_pop  = (count_q >= CntW'(3)) ? third_ctl : push_ctl_i;
    head_d    = pop_i ? head_pop : head_stay;
    next_d    = pop_i ? next_pop : next_stay;
    unique case ({push_i, pop_i})
      2'b10:   count_d = count_q + 1'b1;
      2'b01:   count_d = count_q - 1'b1;
      default: count_d = count_q;
    endcase
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      wr_ptr_q <= '0;
      rd_ptr_q <= '0;
      count_q  <= '0;
    end else begin
      if (push_i) wr_ptr_q <= wr_ptr_q + 1'b1;
      if (pop_i)  rd_ptr_q <= rd_ptr_q + 1'b1;
      count_q <= count_d;
    end
  end

  always_ff @(posedge clk_i) begin
    head_q <= head_d;
    next_q <= next_d;
  end

  assign count_o    = count_q;
  assign head_ctl_o = head_q;
  assign next_ctl_o = next_q;

  // A full buffer's sender holds no credit, even in a cycle that frees a slot (the credit
  // for it goes back only the next cycle).
  `CANOPY_ASSERT(a_no_overflow, !(push_i && count_q == CntW'(Depth)),
                 "push into a full VC buffer: a flit arrived without a credit")
  `CANOPY_ASSERT(a_no_underflow, !(pop_i && count_q == '0), "pop from an empty VC buffer")
endmodule

`default_nettype wire
