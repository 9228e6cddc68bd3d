// canopy_fifo: synchronous FIFO with valid/ready on both sides.
//
// Interface contract
//   - in:  a beat moves when in_valid_i && in_ready_o; in_ready_o = !full.
//   - out: out_valid_o = !empty, out_data_o is the oldest entry (combinational read, so
//          the head is visible the cycle after it was written); a beat leaves when
//          out_valid_o && out_ready_i.
//   - count_o is the occupancy, for credit and store-and-forward logic around it.
// The memory has no reset (datapath); pointers do. Depth must be a power of two so the
// pointers wrap for free.
`default_nettype none
`include "canopy_assert.svh"

module canopy_fifo #(
  parameter int unsigned Width = 0,  /// bits per entry; must be set
  parameter int unsigned Depth = 0   /// entries, a power of two >= 2; must be set
) (
  input  wire logic             clk_i,
  input  wire logic             rst_i,
  input  wire logic             in_valid_i,
  output logic                  in_ready_o,
  input  wire logic [Width-1:0] in_data_i,
  output logic                  out_valid_o,
  input  wire logic             out_ready_i,
  output logic [Width-1:0]      out_data_o,
  output logic [$clog2(Depth):0] count_o
);
  localparam int unsigned PtrW = $clog2(Depth);
  localparam logic [PtrW:0] Full = {1'b1, {PtrW{1'b0}}};  // Depth in pointer width

  `CANOPY_STATIC_ASSERT(gen_width_check, Width > 0, "Width must be set")
  `CANOPY_STATIC_ASSERT(gen_depth_check, Depth >= 2 && (Depth & (Depth - 1)) == 0,
                        "Depth must be a power of two >= 2")

  logic [Width-1:0] mem_q [Depth];
  logic [PtrW:0]    wr_ptr_q, rd_ptr_q;  // one extra bit tells full from empty

  wire logic do_write = in_valid_i && in_ready_o;
  wire logic do_read  = out_valid_o && out_ready_i;

  assign count_o     = wr_ptr_q - rd_ptr_q;
  assign in_ready_o  = count_o != Full;
  assign out_valid_o = count_o != '0;
  assign out_data_o  = mem_q[rd_ptr_q[PtrW-1:0]];

  always_ff @(posedge clk_i) begin
    if (do_write) mem_q[wr_ptr_q[PtrW-1:0]] <= in_data_i;
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      wr_ptr_q <= '0;
      rd_ptr_q <= '0;
    end else begin
      if (do_write) wr_ptr_q <= wr_ptr_q + 1'b1;
      if (do_read)  rd_ptr_q <= rd_ptr_q + 1'b1;
    end
  end

  `CANOPY_ASSERT(a_count_bound, count_o <= Full, "occupancy above Depth")
endmodule

`default_nettype wire
