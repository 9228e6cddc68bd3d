// canopy_fifo_formal: formal harness of canopy_fifo (formal/canopy_fifo.sby).
//
// The environment is free: any in_valid_i, in_data_i, out_ready_i in every cycle, reset
// in the first. A model counts the accepted beats; track_i picks, at any accepted write
// while no word is tracked, the word to track: its value and the number of words ahead
// of it, which each read decrements. Proven (every cycle out of reset):
//   - count_o is the occupancy, and the occupancy never exceeds Depth (count bound);
//   - in_ready_o exactly when the FIFO is not full: no write is accepted when full (no
//     overflow) and none is refused with room left;
//   - out_valid_o exactly when it is not empty: no read from an empty FIFO (no underflow);
//   - data order: the tracked word stays inside the FIFO and, once no word is ahead of it,
//     is the head, unchanged. Since the tracked word is any word, every word comes out
//     unchanged, after exactly the words written before it;
//   - the FIFO's own `CANOPY_ASSERTs.
// Induction strengthening: the tracked word sits in its memory slot (read pointer +
// words ahead), read through taps (formal/README.md).
`default_nettype none
`include "canopy_assert.svh"

module canopy_fifo_formal #(
  parameter int unsigned Width = 4,  /// bits per entry (data-independent: 4 is plenty)
  parameter int unsigned Depth = 4   /// entries
) (
  input wire logic             clk_i,
  input wire logic             rst_i,
  input wire logic             in_valid_i,
  input wire logic [Width-1:0] in_data_i,
  input wire logic             out_ready_i,
  input wire logic             track_i  // track the word written this cycle
);
  localparam int unsigned PtrW = $clog2(Depth);
  localparam logic [PtrW:0] Full = (PtrW + 1)'(Depth);

  logic             in_ready_o, out_valid_o;
  logic [Width-1:0] out_data_o;
  logic [PtrW:0]    count_o;

  canopy_fifo #(.Width(Width), .Depth(Depth)) dut (
    .clk_i, .rst_i, .in_valid_i, .in_ready_o, .in_data_i,
    .out_valid_o, .out_ready_i, .out_data_o, .count_o
  );

  // Taps, driven by `connect` in the .sby: dut.rd_ptr_q and the memory words (word i is
  // tap_mem[i*Width +: Width]).
  /* verilator lint_off UNDRIVEN */
  (* keep *) logic [PtrW:0]          tap_rd_ptr;
  (* keep *) logic [Depth*Width-1:0] tap_mem;
  /* verilator lint_on UNDRIVEN */

  logic started_q = 1'b0;
  always_ff @(posedge clk_i) started_q <= 1'b1;
  always_comb if (!started_q) assume (rst_i);

  wire logic write = in_valid_i && in_ready_o;
  wire logic read  = out_valid_o && out_ready_i;

  logic [PtrW:0] n_q;  // occupancy model
  always_ff @(posedge clk_i) begin
    if (rst_i) n_q <= '0;
    else       n_q <= n_q + (PtrW + 1)'(write) - (PtrW + 1)'(read);
  end

  logic             tracking_q;
  logic [Width-1:0] tdata_q;
  logic [PtrW:0]    tpos_q;  // words ahead of the tracked one
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      tracking_q <= 1'b0;
    end else if (!tracking_q) begin
      if (write && track_i) begin
        tracking_q <= 1'b1;
        tdata_q    <= in_data_i;
        tpos_q     <= n_q - (PtrW + 1)'(read);
      end
    end else if (read) begin
      if (tpos_q == '0) tracking_q <= 1'b0;  // the tracked word left
      tpos_q <= tpos_q - 1'b1;
    end
  end

  `CANOPY_ASSERT(p_count, count_o == n_q, "count_o is not the occupancy")
  `CANOPY_ASSERT(p_bound, n_q <= Full, "occupancy above Depth")
  `CANOPY_ASSERT(p_no_overflow, !(in_ready_o && n_q == Full), "ready while full")
  `CANOPY_ASSERT(p_ready_room, in_ready_o || n_q == Full, "not ready with room left")
  `CANOPY_ASSERT(p_no_underflow, !(out_valid_o && n_q == '0), "valid while empty")
  `CANOPY_ASSERT(p_valid_data, out_valid_o || n_q == '0, "not valid while holding data")
  `CANOPY_ASSERT(p_tracked_inside, !tracking_q || tpos_q < n_q, "tracked word lost")
  `CANOPY_ASSERT(p_tracked_data, !(tracking_q && tpos_q == '0) || out_data_o == tdata_q,
                 "tracked word out of order or changed")

  // Induction strengthening.
  wire logic [PtrW-1:0] tslot = PtrW'(tap_rd_ptr + tpos_q);
  `CANOPY_ASSERT(p_tracked_mem, !tracking_q || tap_mem[tslot*Width +: Width] == tdata_q,
                 "tracked word changed in memory")

  // Reachability (`*_cover` tasks): the FIFO fills; a tracked word has Depth - 1 words
  // ahead of it; it leaves while the FIFO is full. A proof whose assumptions excluded
  // these would be vacuous.
  always_comb if (!rst_i) cover (n_q == Full);
  always_comb if (!rst_i) cover (tracking_q && tpos_q == Full - 1'b1);
  always_comb if (!rst_i) cover (read && tracking_q && tpos_q == '0 && n_q == Full);
endmodule

`default_nettype wire
