// canopy_output_vc_state: one router output's VC state: the credits it holds toward the
// receiver and which VCs a packet currently owns (wormhole).
//
// Interface contract
//   - grant_i[c] / grant_last_i: stage 2 gives this output to a flit on VC c this cycle
//     (one-hot or zero; late in the cycle, it only feeds registers), and whether that flit
//     is a tail. The flit is sent the next cycle.
//   - sent_i[c]: a flit leaves on VC c this cycle (the one granted last cycle, a register):
//     it spends a credit.
//   - credit_i[c]: the receiver freed one slot of VC c (one credit back).
//   - ready_o[c]: a flit granted on VC c this cycle has a credit (beyond those the flits
//     granted before it will spend). busy_o[c]: a packet owns VC c (its head was granted,
//     its tail not yet), so only that packet's body flits may follow; a new head waits.
//     Both are registers: switch allocation reads them at the start of its cycle.
//   - down_room_o (a register): the receiver has room for DownRoom more flits on VC
//     COLL_DOWN beyond the one granted last cycle (canopy_credit_counter's room_o at
//     DownRoom + 1): the collective unit's link lane offers a packet's head only with
//     room for the whole packet on every output it goes to (docs/collectives.md). With
//     DownRoom = 0 it is constant 1.
// Credits start full (Credits per point-to-point VC, CollCredits on COLL_UP, DownCredits on
// COLL_DOWN) out of reset; canopy_credit_counter keeps each count within 0..its maximum and
// asserts it.
`default_nettype none
`include "canopy_assert.svh"

module canopy_output_vc_state #(
  parameter int unsigned NumVcs  = 0,  /// VCs of the output; must be set
  parameter int unsigned Credits = 0,  /// the receiver's buffer per point-to-point VC; must be set
  parameter int unsigned CollCredits = 0, /// the receiver's buffer on COLL_UP; must be set
  parameter int unsigned DownCredits = 0, /// the receiver's buffer on COLL_DOWN; must be set
  parameter int unsigned DownRoom    = 0  /// flits down_room_o asks room for (0: none)
) (
  input  wire logic              clk_i,
  input  wire logic              rst_i,
  input  wire logic [NumVcs-1:0] grant_i,
  input  wire logic              grant_last_i,
  input  wire logic [NumVcs-1:0] sent_i,
  input  wire logic [NumVcs-1:0] credit_i,
  output logic      [NumVcs-1:0] ready_o,
  output logic      [NumVcs-1:0] busy_o,
  output logic                   down_room_o
);
  function automatic int unsigned credits_of(input int unsigned c);
    credits_of = c == canopy_pkg::VcCollDown ? DownCredits
               : canopy_pkg::vc_is_coll(c) ? CollCredits : Credits;
  endfunction

  logic [NumVcs-1:0] busy_q, room;

  for (genvar c = 0; c < NumVcs; c++) begin : gen_vc
    localparam bit Down = c == canopy_pkg::VcCollDown;
    logic unused_available;
    canopy_credit_counter #(.Credits(credits_of(c)), .RoomMin(Down && DownRoom > 0 ? DownRoom + 1 : 0)) u_credits (
      .clk_i,
      .rst_i,
      .consume_i   (sent_i[c]),
      .return_i    (credit_i[c]),
      .available_o (unused_available),
      .claim_i     (grant_i[c]),
      .ready_o     (ready_o[c]),
      .room_o      (room[c])
    );
  end
  if (NumVcs > canopy_pkg::VcCollDown) begin : gen_down_room
    assign down_room_o = room[canopy_pkg::VcCollDown];
  end else begin : gen_no_down
    assign down_room_o = 1'b1;
  end
  wire logic unused_room = ^room;   // only COLL_DOWN's is read

  // A head that is not also a tail takes the VC; a tail frees it.
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      busy_q <= '0;
    end else begin
      for (int unsigned c = 0; c < NumVcs; c++) begin
        if (grant_i[c]) busy_q[c] <= !grant_last_i;
      end
    end
  end
  assign busy_o = busy_q;

  `CANOPY_ASSERT(a_grant_onehot, $onehot0(grant_i), "two flits granted one output at once")
  `CANOPY_ASSERT(a_sent_onehot, $onehot0(sent_i), "two flits sent at once on one output")
endmodule

`default_nettype wire
