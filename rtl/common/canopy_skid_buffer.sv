// canopy_skid_buffer: a register slice for a valid/ready stream that keeps full throughput:
// both directions leave from flip-flops, so the logic before it and the logic after it
// never share a cycle.
//
// Interface contract
//   - in_valid_i / in_data_i / in_ready_o: the upstream side; a word moves when valid and
//     ready are both high. in_ready_o is a register (no path from out_ready_i).
//   - out_valid_o / out_data_o / out_ready_i: the downstream side, both outputs registers;
//     out_valid_o never depends on out_ready_i, and a word offered stays until taken.
//   - Words leave in the order they came, one cycle after they came at the earliest; one
//     word per cycle in steady state.
// Structure: the output register and one skid register behind it, which catches the word
// upstream sent in the cycle the output stalled (upstream saw ready from the cycle before).
`default_nettype none
`include "canopy_assert.svh"

module canopy_skid_buffer #(
  parameter int unsigned Width = 64  /// bits per word
) (
  input  wire logic             clk_i,
  input  wire logic             rst_i,
  input  wire logic             in_valid_i,
  input  wire logic [Width-1:0] in_data_i,
  output logic                  in_ready_o,
  output logic                  out_valid_o,
  output logic      [Width-1:0] out_data_o,
  input  wire logic             out_ready_i
);
  logic             skid_v_q;
  logic [Width-1:0] skid_q;

  assign in_ready_o = !skid_v_q;
  wire logic in_fire   = in_valid_i && in_ready_o;
  // The output register is free for a new word: empty, or its word taken now.
  wire logic out_free  = !out_valid_o || out_ready_i;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      out_valid_o <= 1'b0;
      skid_v_q    <= 1'b0;
    end else if (out_free) begin
      out_valid_o <= skid_v_q || in_fire;
      skid_v_q    <= 1'b0;
    end else if (in_fire) begin
      skid_v_q    <= 1'b1;
    end
  end
  always_ff @(posedge clk_i) begin
    if (out_free) out_data_o <= skid_v_q ? skid_q : in_data_i;
    if (!out_free && in_fire) skid_q <= in_data_i;
  end

  `CANOPY_ASSERT(a_skid_only_when_stalled, !skid_v_q || out_valid_o, "skid register full with the output empty")
endmodule

`default_nettype wire
