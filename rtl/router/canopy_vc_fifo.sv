// canopy_vc_fifo: one virtual channel's input buffer bookkeeping: its slots in the input's
// shared data RAM, its entries' control fields, and a speculative read position.
//
// Interface contract
//   - push_i / push_ctl_i: an entry enters at the tail, slot wr_ptr_o (its data goes into
//     the data RAM there, by the caller). Legal only when count_o < Depth (the sender's
//     credits guarantee it; asserted).
//   - Entries are handed out in order from the speculative position (spec): cand_o says an
//     entry is there, cand_ctl_o its control fields, spec_ptr_o its slot (all registers,
//     or after a rewind its inputs). An entry arriving at spec (push_i, cand_o low) may be
//     handed out in the cycle it arrives (the caller has its control fields).
//     stage_i hands it out (spec moves on). At most MaxOut entries are handed out and not
//     popped (asserted): a router input holds a VC's entries in stage 1 and stage 2 only.
//     rewind_i moves spec back to rewind_ptr_i, the head entry, handed out and not
//     committed (a VC's older entries have all been settled by then), which is then the
//     candidate again with control fields rewind_ctl_i; stage_i in the same cycle hands it
//     out again.
//   - pop_i: the head entry (slot rd_ptr_o) leaves for good: a committed entry, or one
//     dropped (handed out and popped in the same cycle); the count goes down and the caller
//     returns its credit. head_ctl_o: the head's control fields (meaningful while count_o
//     >= 1).
//   - Every input of this block is early in the cycle except stage_i, which only enables
//     registers and selects their next values.
//   - none_out_o: nothing is handed out (spec is at the head), from a small count of the
//     entries handed out rather than a comparison with the head pointer: the head pointer,
//     rd_ptr_o, count_o and head_ctl_o serve this block's checks and its unit test, and
//     synthesis removes them where the caller leaves them unread.
// Invariant: head <= spec <= tail (in order, within Depth), asserted.
`default_nettype none
`include "canopy_assert.svh"

module canopy_vc_fifo #(
  parameter int unsigned CtlW  = 0,  /// control bits per entry; must be set
  parameter int unsigned Depth = 0,  /// entries, a power of two >= 4; must be set
  parameter int unsigned MaxOut = 3, /// entries handed out and not popped, at most
  localparam int unsigned PtrW = $clog2(Depth),
  localparam int unsigned CntW = PtrW + 1,
  localparam int unsigned OutW = $clog2(MaxOut + 1)
) (
  input  wire logic             clk_i,
  input  wire logic             rst_i,
  input  wire logic             push_i,
  input  wire logic [CtlW-1:0]  push_ctl_i,
  input  wire logic             stage_i,
  input  wire logic             rewind_i,
  input  wire logic [PtrW-1:0]  rewind_ptr_i,
  input  wire logic [CtlW-1:0]  rewind_ctl_i,
  input  wire logic             pop_i,
  output logic      [CntW-1:0]  count_o,
  output logic      [PtrW-1:0]  wr_ptr_o,
  output logic      [PtrW-1:0]  rd_ptr_o,
  output logic      [PtrW-1:0]  spec_ptr_o,
  output logic                  cand_o,
  output logic      [CtlW-1:0]  cand_ctl_o,
  output logic      [CtlW-1:0]  head_ctl_o,
  output logic                  none_out_o    // nothing handed out: spec is at the head
);
  `CANOPY_STATIC_ASSERT(gen_depth_check, Depth >= 4 && (Depth & (Depth - 1)) == 0,
                        "Depth must be a power of two >= 4")

  logic [CtlW-1:0] ctl_mem [Depth];
  // The tail and head pointers carry a wrap bit, so that equal slots tell full from empty
  // (for count_o and the checks). The speculative pointer needs none: whether an entry is
  // at spec is cand_q, and spec is never a whole buffer behind the tail.
  logic [CntW-1:0] wr_q, rd_q;
  logic [PtrW-1:0] spec_q;
  logic            cand_q;                           // an entry sits at spec
  logic [OutW-1:0] out_q;                            // entries handed out, not popped
  logic [CtlW-1:0] cand_ctl_q;                       // the candidate's control fields

  always_ff @(posedge clk_i) begin
    if (push_i) ctl_mem[wr_q[PtrW-1:0]] <= push_ctl_i;
  end

  assign head_ctl_o = ctl_mem[rd_q[PtrW-1:0]];
  // The candidate this cycle, after a rewind (both from registers).
  logic [PtrW-1:0] cur_spec, cur_next;
  logic            cur_cand;
  logic [CtlW-1:0] cur_ctl;
  logic [OutW-1:0] cur_out;
  always_comb begin
    cur_spec = rewind_i ? rewind_ptr_i : spec_q;
    cur_next = cur_spec + 1'b1;
    cur_cand = rewind_i || cand_q;
    cur_ctl  = rewind_i ? rewind_ctl_i : cand_ctl_q;
    cur_out  = rewind_i ? '0 : out_q;   // a rewind goes back to the head
  end

  // Next candidate: handed out, the entry behind it (in the buffer, its control fields read
  // from the RAM at cur_next into the register; or arriving now; none when what was handed
  // out is the entry arriving now); kept, the same one; none yet, an arriving entry.
  wire logic [CtlW-1:0] next_ctl = ctl_mem[cur_next];
  logic            cand_d;
  logic [CtlW-1:0] cand_ctl_d;
  always_comb begin
    logic behind;      // an entry behind cur_spec already in the buffer
    behind = cur_cand && cur_next != wr_q[PtrW-1:0];
    if (stage_i) begin
      cand_d     = behind || (cur_cand && push_i);
      cand_ctl_d = behind ? next_ctl : push_ctl_i;
    end else begin
      cand_d     = cur_cand || push_i;
      cand_ctl_d = cur_cand ? cur_ctl : push_ctl_i;
    end
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      wr_q        <= '0;
      rd_q        <= '0;
      spec_q      <= '0;
      cand_q      <= 1'b0;
      out_q       <= '0;
    end else begin
      if (push_i) wr_q <= wr_q + 1'b1;
      if (pop_i)  rd_q <= rd_q + 1'b1;
      spec_q      <= stage_i ? cur_next : cur_spec;
      cand_q      <= cand_d;
      out_q       <= cur_out + OutW'(stage_i) - OutW'(pop_i);
    end
  end
  always_ff @(posedge clk_i) cand_ctl_q <= cand_ctl_d;

  assign count_o    = wr_q - rd_q;
  assign wr_ptr_o   = wr_q[PtrW-1:0];
  assign rd_ptr_o   = rd_q[PtrW-1:0];
  assign spec_ptr_o = cur_spec;
  assign cand_o     = cur_cand;
  assign cand_ctl_o = cur_ctl;
  assign none_out_o = cur_out == '0;

  // A full buffer's sender holds no credit, even in a cycle that frees a slot (the credit
  // for it goes back only the next cycle).
  `CANOPY_ASSERT(a_no_overflow, !(push_i && wr_q - rd_q == CntW'(Depth)),
                 "push into a full VC buffer: a flit arrived without a credit")
  `CANOPY_ASSERT(a_no_underflow, !(pop_i && wr_q == rd_q), "pop from an empty VC buffer")
  `CANOPY_ASSERT(a_spec_order, CntW'(out_q) <= CntW'(wr_q - rd_q), "speculative position outside the buffer")
  `CANOPY_ASSERT(a_cand_exact, cand_q == (CntW'(out_q) != CntW'(wr_q - rd_q)),
                 "candidate flag disagrees with the pointers")
  `CANOPY_ASSERT(a_stage_cand, !stage_i || cur_cand || push_i, "handed out an entry that is not there")
  `CANOPY_ASSERT(a_pop_handed, !pop_i || cur_out != '0 || stage_i, "committed an entry not handed out")
  `CANOPY_ASSERT(a_rewind_head, !rewind_i || (rewind_ptr_i == rd_q[PtrW-1:0] && out_q != '0),
                 "rewound to an entry that is not the head, or with nothing handed out")
  `CANOPY_ASSERT(a_out_exact, PtrW'(out_q) == spec_q - rd_q[PtrW-1:0], "handed-out count disagrees with the pointers")
  `CANOPY_ASSERT(a_out_bound, !stage_i || 32'(cur_out) < MaxOut, "more entries handed out than MaxOut")
endmodule

`default_nettype wire
