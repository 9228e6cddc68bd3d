// canopy_grant_head: the head of a queue offered to a switch allocator whose grant comes
// late in the cycle (from far across the chip). The grant is only registered here; the
// next cycle that register picks what is offered, between two flip-flops.
//
// Interface contract
//   - in_valid_i / in_data_i / in_ready_o: the queue behind (valid/ready). in_ready_o is
//     from flip-flops only. The word taken goes into the head registers the same edge.
//   - out_valid_o / out_data_o: the word offered, one 2:1 mux after flip-flops (its select
//     a flip-flop); a word offered stays offered until granted. grant_i (late: it only
//     reaches a flip-flop) takes the word offered this cycle; only while out_valid_o.
//   - taken_o / taken_data_o: the word granted in the cycle before (registered), for the
//     owner's accounting (a tail sent, a buffer slot free).
//   - bypass_i / bypass_data_i (from flip-flops): in_valid_i / in_data_i whenever the head
//     holds no word behind the offered one (the queue behind is empty then, so only a word
//     arriving from a register can be valid). The cycle after a grant with nothing behind,
//     that word is offered at once (the head's one bypass, through the 2:1 mux's other
//     side: out_* stay one mux level after flip-flops).
//   - Words are offered in order, one per cycle under back-to-back grants; a word taken
//     while the head is empty is offered the next cycle.
// Structure: H, the word offered last cycle, and N, the one behind it. The cycle after a
// grant H is gone and N is offered (or, with N empty, the word arriving); otherwise H again. The grant's register (taken_o)
// drives every update, so the grant itself never reaches more than one flip-flop input.
`default_nettype none
`include "canopy_assert.svh"

module canopy_grant_head #(
  parameter int unsigned Width = 64  /// bits per word
) (
  input  wire logic             clk_i,
  input  wire logic             rst_i,
  input  wire logic             in_valid_i,
  input  wire logic [Width-1:0] in_data_i,
  input  wire logic             bypass_i,
  input  wire logic [Width-1:0] bypass_data_i,
  output logic                  in_ready_o,
  output logic                  out_valid_o,
  output logic      [Width-1:0] out_data_o,
  input  wire logic             grant_i,
  output logic                  taken_o,
  output logic      [Width-1:0] taken_data_o
);
  logic             h_v_q, n_v_q;
  logic [Width-1:0] h_q, n_q;

  always_ff @(posedge clk_i) begin
    if (rst_i) taken_o <= 1'b0;
    else       taken_o <= grant_i;
  end
  wire logic pop = taken_o;   // H (offered last cycle) was granted: it leaves now

  assign out_valid_o  = pop ? (n_v_q || bypass_i) : h_v_q;
  assign out_data_o   = !pop ? h_q : n_v_q ? n_q : bypass_data_i;
  assign taken_data_o = h_q;

  // Room for a word after this cycle's pop: N free, or H leaving.
  assign in_ready_o = !n_v_q || pop;
  wire logic take = in_valid_i && in_ready_o;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      h_v_q <= 1'b0;
      n_v_q <= 1'b0;
    end else if (pop) begin
      h_v_q <= n_v_q || take;
      n_v_q <= n_v_q && take;
    end else if (!h_v_q) begin
      h_v_q <= take;
    end else if (!n_v_q) begin
      n_v_q <= take;
    end
  end
  always_ff @(posedge clk_i) begin
    if (pop) begin
      h_q <= n_v_q ? n_q : in_data_i;
      n_q <= in_data_i;
    end else if (!h_v_q) begin
      h_q <= in_data_i;
    end else if (!n_v_q) begin
      n_q <= in_data_i;
    end
  end

  `CANOPY_ASSERT(a_grant_offered, !grant_i || out_valid_o, "granted with nothing offered")
  `CANOPY_ASSERT(a_pop_held, !pop || h_v_q, "a word taken that the head did not hold")
  `CANOPY_ASSERT(a_order, !n_v_q || h_v_q, "the word behind the head held without the head")
  `CANOPY_ASSERT(a_bypass, n_v_q || bypass_i == in_valid_i, "bypass_i differs from in_valid_i with nothing behind the head")
  `CANOPY_ASSERT(a_bypass_data, n_v_q || !bypass_i || bypass_data_i == in_data_i,
                 "bypass_data_i differs from in_data_i with nothing behind the head")
endmodule

`default_nettype wire
