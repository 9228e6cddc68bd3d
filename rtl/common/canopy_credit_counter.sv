// canopy_credit_counter: sender-side credits for one virtual channel of one link.
//
// Interface contract
//   - The counter starts at Credits (the receiver's buffer depth for this VC) out of reset.
//   - consume_i: a flit was sent on this VC this cycle; legal only while available_o.
//   - return_i: the receiver freed one buffer slot (a credit came back).
//   - Both may happen in the same cycle.
//   - available_o: at least one credit (a flit may be sent now).
//   - For a pipelined sender, which decides a flit in one cycle and sends it the next:
//     claim_i says a flit was decided this cycle (it will consume next cycle; claim_i may
//     come late in the cycle, it only feeds a register), and ready_o says a flit decided
//     this cycle has a credit: one is left beyond those the flits decided earlier will
//     spend. ready_o is a register. A sender that decides and sends in one cycle ties
//     claim_i to 0 and leaves ready_o open.
//   - room_o (a register; with RoomMin > 0): at least RoomMin credits held. It is of the
//     count at the start of the cycle, so it lags what a flit claimed the cycle before will
//     spend by one: a sender that needs room for N flits beyond one it may have just
//     claimed sets RoomMin = N + 1. With RoomMin = 0 it is constant 1.
// Invariant: 0 <= count <= Credits, i.e. the sender never has more flits in flight than
// the receiver has room for, so the receiver's buffer can never overflow.
`default_nettype none
`include "canopy_assert.svh"

module canopy_credit_counter #(
  parameter int unsigned Credits = 0, /// receiver buffer depth, >= 1; must be set
  parameter int unsigned RoomMin = 0  /// credits room_o asks for, 0..Credits
) (
  input  wire logic clk_i,
  input  wire logic rst_i,
  input  wire logic consume_i,
  input  wire logic return_i,
  output logic      available_o,
  input  wire logic claim_i,
  output logic      ready_o,
  output logic      room_o
);
  localparam int unsigned CntW = $clog2(Credits + 1);
  localparam logic [CntW-1:0] Max = CntW'(Credits);

  `CANOPY_STATIC_ASSERT(gen_credits_check, Credits >= 1, "Credits must be set")
  `CANOPY_STATIC_ASSERT(gen_room_check, RoomMin <= Credits, "RoomMin must be 0..Credits")

  logic [CntW-1:0] count_q, count_d;
  // The comparisons the outputs need, kept in registers so that each output is a
  // flip-flop (a sender's allocation reads them in its critical cycle).
  logic            nonzero_q, ready_q, room_q;
  logic            one_d, two_d;

  // One adder: the count moves by -1, 0 or +1 (a consume and a return in one cycle cancel).
  assign count_d     = count_q + ((consume_i && !return_i) ? '1 : CntW'(return_i && !consume_i));
  assign one_d       = count_d != '0;
  assign two_d       = (count_d >> 1) != '0;   // >= 2, without a comparator's carry chain
  assign available_o = nonzero_q;
  assign ready_o     = ready_q;
  assign room_o      = room_q;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      count_q   <= Max;
      nonzero_q <= 1'b1;
      ready_q   <= 1'b1;
    end else begin
      count_q   <= count_d;
      nonzero_q <= one_d;
      // Next cycle the flit claimed now is sent: a credit must be left beyond it.
      ready_q   <= two_d || (one_d && !claim_i);
    end
  end

  `CANOPY_ASSERT(a_no_underflow, !(consume_i && count_q == '0), "flit sent without a credit")
  // With the count full nothing is in flight, so any returned credit is spurious, even
  // in a cycle that also consumes one.
  `CANOPY_ASSERT(a_no_overflow, !(return_i && count_q == Max),
                 "credit returned beyond the receiver's depth")
  if (RoomMin > 0) begin : gen_room
    always_ff @(posedge clk_i) begin
      if (rst_i) room_q <= 1'b1;
      else       room_q <= 32'(count_d) >= RoomMin;
    end
    `CANOPY_ASSERT(a_room_exact, room_q == (32'(count_q) >= RoomMin), "room flag disagrees with the count")
  end else begin : gen_no_room
    assign room_q = 1'b1;
  end
  `CANOPY_ASSERT(a_claim_ready, !claim_i || ready_q, "flit decided without a credit")
endmodule

`default_nettype wire
