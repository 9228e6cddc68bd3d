// canopy_credit_counter: sender-side credits for one virtual channel of one link.
//
// Interface contract
//   - The counter starts at Credits (the receiver's buffer depth for this VC) out of reset.
//   - consume_i: a flit was sent on this VC this cycle; legal only while available_o.
//   - return_i: the receiver freed one buffer slot (a credit came back).
//   - Both may happen in the same cycle.
//   - available_o: at least one credit (a flit may be sent now).
//   - spare_o: a credit is left beyond the one consume_i spends this cycle, for a flit
//     decided this cycle and sent the next (a pipelined sender's view).
// Invariant: 0 <= count <= Credits, i.e. the sender never has more flits in flight than
// the receiver has room for, so the receiver's buffer can never overflow.
`default_nettype none
`include "canopy_assert.svh"

module canopy_credit_counter #(
  parameter int unsigned Credits = 0  /// receiver buffer depth, >= 1; must be set
) (
  input  wire logic clk_i,
  input  wire logic rst_i,
  input  wire logic consume_i,
  input  wire logic return_i,
  output logic      available_o,
  output logic      spare_o
);
  localparam int unsigned CntW = $clog2(Credits + 1);
  localparam logic [CntW-1:0] Max = CntW'(Credits);

  `CANOPY_STATIC_ASSERT(gen_credits_check, Credits >= 1, "Credits must be set")

  logic [CntW-1:0] count_q, count_d;
  // The two comparisons the outputs need, kept in registers so that each output is one
  // LUT from flip-flops (a sender's allocation reads them in its critical cycle).
  logic            nonzero_q, two_q;

  assign count_d     = count_q - CntW'(consume_i) + CntW'(return_i);
  assign available_o = nonzero_q;
  assign spare_o     = two_q || (nonzero_q && !consume_i);

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      count_q   <= Max;
      nonzero_q <= 1'b1;
      two_q     <= Credits >= 2;
    end else begin
      count_q   <= count_d;
      nonzero_q <= count_d != '0;
      two_q     <= {1'b0, count_d} >= (CntW + 1)'(2);  // one bit wider: Credits may be 1
    end
  end

  `CANOPY_ASSERT(a_no_underflow, !(consume_i && count_q == '0), "flit sent without a credit")
  // With the count full nothing is in flight, so any returned credit is spurious, even
  // in a cycle that also consumes one.
  `CANOPY_ASSERT(a_no_overflow, !(return_i && count_q == Max),
                 "credit returned beyond the receiver's depth")
endmodule

`default_nettype wire
