// canopy_credit_counter_formal: formal harness of canopy_credit_counter
// (formal/canopy_credit_counter.sby): one credit loop, closed.
//
//   sender (the counter) --consume_i--> flit pipeline (LinkDelay stages) --> receiver
//   buffer (occupancy occ_q) --drain_i frees a slot--> credit pipeline (LinkDelay stages)
//   --> return_i
//
// send_i and drain_i are free, with the counter's input contract assumed: a flit is sent
// only while available_o, or, with Pipelined, decided (claim_i) only while ready_o and
// sent the cycle after. A drain with an empty buffer frees nothing. LinkDelay 0 makes both
// pipelines wires. Proven (every cycle out of reset):
//   - credit conservation: occupancy + flits in flight + credits in flight + the count
//     == Credits;
//   - bounds: 0 <= count <= Credits (the count never wraps below 0: with conservation,
//     a send without a credit would break the sum) and occupancy <= Credits, so no flit
//     ever reaches a full receiver buffer;
//   - every credit held is offered (available_o while the count is nonzero), and ready_o
//     says exactly whether one is left beyond the flit decided last cycle;
//   - the counter's own `CANOPY_ASSERTs (no send without a credit, no credit returned
//     beyond the receiver's depth).
// The count is read through a tap (formal/README.md).
`default_nettype none
`include "canopy_assert.svh"

module canopy_credit_counter_formal #(
  parameter int unsigned Credits   = 4,  /// the receiver's buffer depth
  parameter int unsigned LinkDelay = 1,  /// pipeline stages each way (0: wires)
  parameter bit          Pipelined = 0,  /// the sender decides a flit a cycle before sending it
  parameter int unsigned RoomMin   = 1   /// the credits room_o asks for
) (
  input wire logic clk_i,
  input wire logic rst_i,
  input wire logic send_i,     // the sender sends (or, pipelined, decides) a flit, under the contract
  input wire logic drain_i     // the receiver's consumer takes a flit, if there is one
);
  localparam int unsigned CntW  = $clog2(Credits + 1);
  localparam int unsigned SumW  = 16;  // the sums below cannot wrap: each term is bounded
  localparam int unsigned PipeW = LinkDelay > 0 ? LinkDelay : 1;

  logic available_o, ready_o, room_o, return_i, consume_i, claim_i, claim_q;
  canopy_credit_counter #(.Credits(Credits), .RoomMin(RoomMin)) dut (
    .clk_i, .rst_i, .consume_i, .return_i, .available_o, .claim_i, .ready_o, .room_o
  );

  // The sender: plain, it sends when it decides (only while available_o); pipelined, a
  // flit decided (claimed, only while ready_o) is sent the next cycle.
  always_ff @(posedge clk_i) begin
    if (rst_i) claim_q <= 1'b0;
    else       claim_q <= claim_i;
  end
  assign claim_i   = Pipelined && send_i;
  assign consume_i = Pipelined ? claim_q : send_i;

  // Tap, driven by `connect` in the .sby: dut.count_q.
  /* verilator lint_off UNDRIVEN */
  (* keep *) logic [CntW-1:0] tap_count;
  /* verilator lint_on UNDRIVEN */

  logic started_q = 1'b0;
  always_ff @(posedge clk_i) started_q <= 1'b1;
  always_comb if (!started_q) assume (rst_i);
  // The counter's input contract.
  always_comb if (!rst_i) assume (!send_i || (Pipelined ? ready_o : available_o));

  // The link: stage 0 is where a flit (a credit) enters, stage PipeW-1 where it leaves.
  logic [PipeW-1:0] flit_pipe_q, credit_pipe_q;
  logic             flit_arrives, credit_sent;
  if (LinkDelay == 0) begin : gen_wire
    assign flit_arrives = consume_i;
    assign return_i     = credit_sent;
    always_ff @(posedge clk_i) begin
      flit_pipe_q   <= '0;
      credit_pipe_q <= '0;
    end
  end else begin : gen_pipe
    assign flit_arrives = flit_pipe_q[PipeW-1];
    assign return_i     = credit_pipe_q[PipeW-1];
    always_ff @(posedge clk_i) begin
      if (rst_i) begin
        flit_pipe_q   <= '0;
        credit_pipe_q <= '0;
      end else begin
        flit_pipe_q   <= PipeW'({flit_pipe_q, consume_i});
        credit_pipe_q <= PipeW'({credit_pipe_q, credit_sent});
      end
    end
  end

  // The receiver's buffer: each slot freed sends a credit back.
  logic [SumW-1:0] occ_q;
  assign credit_sent = drain_i && occ_q != '0;
  always_ff @(posedge clk_i) begin
    if (rst_i) occ_q <= '0;
    else       occ_q <= occ_q + SumW'(flit_arrives) - SumW'(credit_sent);
  end

  function automatic logic [SumW-1:0] ones(input logic [PipeW-1:0] v);
    ones = '0;
    for (int unsigned k = 0; k < PipeW; k++) ones = ones + SumW'(v[k]);
  endfunction
  wire logic [SumW-1:0] in_flight = ones(flit_pipe_q) + ones(credit_pipe_q);

  `CANOPY_ASSERT(p_conservation, occ_q + in_flight + SumW'(tap_count) == SumW'(Credits),
                 "occupancy + in flight + credits != Credits")
  `CANOPY_ASSERT(p_occ_bound, occ_q <= SumW'(Credits), "receiver holds more than Credits")
  `CANOPY_ASSERT(p_count_bound, tap_count <= CntW'(Credits), "credits above Credits")
  `CANOPY_ASSERT(p_offered, tap_count == '0 || available_o, "a credit held but not offered")
  // The registered comparisons say exactly what the count says: available_o is a credit
  // now, ready_o one beyond the flit claimed last cycle (which is being sent now).
  `CANOPY_ASSERT(p_available_exact, available_o == (tap_count != '0), "available_o disagrees with the count")
  `CANOPY_ASSERT(p_ready_exact, ready_o == (tap_count > CntW'(claim_q)), "ready_o disagrees with the count")
  `CANOPY_ASSERT(p_room_exact, room_o == (32'(tap_count) >= RoomMin), "room_o disagrees with the count")
  `CANOPY_ASSERT(p_no_rx_overflow, !(flit_arrives && occ_q == SumW'(Credits)),
                 "flit arrived at a full receiver buffer")

  // Reachability (`*_cover` tasks): every credit spent with the receiver full; a credit
  // coming back to an empty counter.
  always_comb if (!rst_i) cover (tap_count == '0 && occ_q == SumW'(Credits));
  always_comb if (!rst_i) cover (return_i && tap_count == '0);
endmodule

`default_nettype wire
