// canopy_output_vc_state: one router output's VC state: the credits it holds toward the
// receiver and which VCs a packet currently owns (wormhole).
//
// Interface contract
//   - sent_i[c] / sent_last_i: a flit leaves on this output this cycle on VC c (one-hot or
//     zero, a register), and whether it is a tail. It spends a credit of its VC; a flit
//     that is not a tail leaves its VC owned by its packet, a tail frees it.
//   - credit_i[c]: the receiver freed one slot of VC c (one credit back).
//   - avail_o[c]: VC c has a credit left for a flit granted this cycle, i.e. beyond the one
//     the flit leaving now spends. busy_o[c]: VC c is owned by a packet once the flit
//     leaving now is counted, so only that packet's body flits may follow; a new head waits
//     for the tail. Both are one LUT level from registers: switch allocation reads them.
//   - head_o[c]: a flit sent on VC c now would be a head (no packet owns c before it).
// Credits start full (Credits per VC) out of reset; the count never leaves 0..Credits
// (canopy_credit_counter asserts both bounds).
`default_nettype none
`include "canopy_assert.svh"

module canopy_output_vc_state #(
  parameter int unsigned NumVcs  = 0,  /// VCs of the output; must be set
  parameter int unsigned Credits = 0   /// the receiver's buffer per VC; must be set
) (
  input  wire logic              clk_i,
  input  wire logic              rst_i,
  input  wire logic [NumVcs-1:0] sent_i,
  input  wire logic              sent_last_i,
  input  wire logic [NumVcs-1:0] credit_i,
  output logic      [NumVcs-1:0] avail_o,
  output logic      [NumVcs-1:0] busy_o,
  output logic      [NumVcs-1:0] head_o
);
  logic [NumVcs-1:0] busy_q;

  for (genvar c = 0; c < NumVcs; c++) begin : gen_vc
    wire logic sent = sent_i[c];
    canopy_credit_counter #(.Credits(Credits)) u_credits (
      .clk_i,
      .rst_i,
      .consume_i   (sent),
      .return_i    (credit_i[c]),
      .available_o (unused_available),
      .spare_o     (avail_o[c])
    );
    wire logic unused_available;
    assign busy_o[c] = sent ? !sent_last_i : busy_q[c];
    assign head_o[c] = !busy_q[c];
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) busy_q <= '0;
    else       busy_q <= busy_o;
  end

  `CANOPY_ASSERT(a_sent_onehot, $onehot0(sent_i), "two flits sent at once on one output")
endmodule

`default_nettype wire
