// canopy_reg_fifo: synchronous FIFO whose head is a register, with no added latency.
//
// Interface contract (as canopy_fifo, whose interface it shares)
//   - in:  a beat moves when in_valid_i && in_ready_o; in_ready_o is registered state only.
//   - out: out_valid_o and out_data_o come straight from registers (the head), so what reads
//          them starts a cycle with nothing but a clock-to-out in front of it; a beat written
//          into an empty FIFO is at the head the cycle after, as with canopy_fifo. A beat
//          leaves when out_valid_o && out_ready_i.
//   - count_o is the occupancy. Up to Depth + 1 entries fit: Depth in the memory behind the
//     head and the head itself.
//   - next_valid_o / next_data_o: the beat behind the head, when one waits in the memory
//     (what the head will be after the next pop; a beat arriving into a FIFO holding only
//     its head is not shown). A LUT-RAM read at a registered address: for a caller that
//     decides about the next beat a cycle ahead.
// Why: canopy_fifo's head is a memory read at the read pointer, so its out_valid_o is a
// pointer compare and out_data_o a LUT-RAM read, both in front of whatever picks among
// several FIFOs. Here the memory's read is addressed by a register and only feeds the head
// register, so a pop (late in its cycle) chooses between the memory word and the input beat.
`default_nettype none
`include "canopy_assert.svh"

module canopy_reg_fifo #(
  parameter int unsigned Width = 0,  /// bits per entry; must be set
  parameter int unsigned Depth = 0   /// entries behind the head, a power of two >= 2; must be set
) (
  input  wire logic             clk_i,
  input  wire logic             rst_i,
  input  wire logic             in_valid_i,
  output logic                  in_ready_o,
  input  wire logic [Width-1:0] in_data_i,
  output logic                  out_valid_o,
  input  wire logic             out_ready_i,
  output logic [Width-1:0]      out_data_o,
  output logic [$clog2(Depth + 1):0] count_o,
  output logic                  next_valid_o,
  output logic [Width-1:0]      next_data_o
);
  localparam int unsigned PtrW = $clog2(Depth);
  localparam logic [PtrW:0] Full = {1'b1, {PtrW{1'b0}}};  // Depth in pointer width

  `CANOPY_STATIC_ASSERT(gen_width_check, Width > 0, "Width must be set")
  `CANOPY_STATIC_ASSERT(gen_depth_check, Depth >= 2 && (Depth & (Depth - 1)) == 0,
                        "Depth must be a power of two >= 2")

  logic [Width-1:0] mem_q [Depth];
  logic [PtrW:0]    wr_ptr_q, rd_ptr_q;  // the entries behind the head; one extra bit for full
  logic             head_v_q;
  logic [Width-1:0] head_q;

  wire logic [PtrW:0] behind  = wr_ptr_q - rd_ptr_q;
  wire logic          mem_any = behind != '0;
  wire logic          do_in   = in_valid_i && in_ready_o;
  wire logic          do_out  = head_v_q && out_ready_i;
  // The beat goes to the head when the head is free now or frees now with nothing behind it.
  wire logic          to_head = do_in && (!head_v_q || (do_out && !mem_any));
  wire logic          to_mem  = do_in && !to_head;
  wire logic          refill  = do_out && mem_any;   // the oldest beat behind moves up

  assign in_ready_o  = behind != Full;
  assign out_valid_o = head_v_q;
  assign out_data_o  = head_q;
  assign count_o     = ($clog2(Depth + 1) + 1)'(behind) + ($clog2(Depth + 1) + 1)'(head_v_q);
  assign next_valid_o = mem_any;
  assign next_data_o  = mem_q[rd_ptr_q[PtrW-1:0]];

  always_ff @(posedge clk_i) begin
    if (to_mem) mem_q[wr_ptr_q[PtrW-1:0]] <= in_data_i;
    if (refill)       head_q <= mem_q[rd_ptr_q[PtrW-1:0]];
    else if (to_head) head_q <= in_data_i;
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      wr_ptr_q <= '0;
      rd_ptr_q <= '0;
      head_v_q <= 1'b0;
    end else begin
      if (to_mem) wr_ptr_q <= wr_ptr_q + 1'b1;
      if (refill) rd_ptr_q <= rd_ptr_q + 1'b1;
      if (do_out || to_head) head_v_q <= refill || to_head;
    end
  end

  // Beats wait behind the head only while it is held, so the order is kept.
  `CANOPY_ASSERT(a_head_then_mem, head_v_q || !mem_any, "beats behind an empty head")
  `CANOPY_ASSERT(a_count_bound, behind <= Full, "occupancy above Depth behind the head")
endmodule

`default_nettype wire
