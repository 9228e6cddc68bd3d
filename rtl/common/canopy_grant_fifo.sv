// canopy_grant_fifo: a queue in distributed RAM whose oldest word is offered to a switch
// allocator with a late grant, the words never moved out of the RAM to be offered.
//
// Interface contract
//   - push_i / push_data_i: a word enters (from flip-flops: a registered read landing).
//     Legal only while the queue holds fewer than Depth words after this cycle's pop
//     (the owner's accounting guarantees it; asserted). Never refused, so no ready.
//     push_next_i: push_i of the next cycle, a cycle early (the owner registers its push,
//     so it knows; asserted), from which out_valid_o is registered.
//   - out_valid_o / out_data_o: the word offered, the oldest held. A word offered stays
//     offered until granted. grant_i (late: it only reaches flip-flops) takes the word
//     offered this cycle; only while out_valid_o. out_valid_o is a flip-flop: the request
//     it makes starts at a register the placer can put beside the allocator.
//   - taken_o / taken_tag_o: a word was granted in the cycle before (registered), and the
//     top TagW bits of that word, for the owner's accounting (a tail sent, a slot freed).
//   - out_side_o: bits [SideLsb +: SideW] of the word offered (equal to them in
//     out_data_o), but from registers through one 2:1 mux, not through the RAM read: for
//     the fields a switch allocator decides on (a lane's target port), whose requests must
//     start as close to a register as they can.
//   - Timing: the grant is only registered (taken_o), never used further in its cycle;
//     the cycle after a grant the next word is offered, or, with none held, the word
//     pushed in that cycle at once (the one bypass); a word pushed into an otherwise empty
//     queue with no grant before it is offered the next cycle. Words are offered in order,
//     one per cycle under back-to-back grants.
// Structure: the words stay in a Depth-entry LUT RAM; the word offered is read
// asynchronously at the read pointer (or the one after it, the cycle after a grant), then
// one 2:1 mux for the bypass. A queue plus a two-register head cost three multiplexers per
// bit where this costs one: about 3 LUT4 per bit saved on a 70-bit lane.
`default_nettype none
`include "canopy_assert.svh"

module canopy_grant_fifo #(
  parameter int unsigned Width = 64,  /// bits per word
  parameter int unsigned Depth = 16,  /// words held, a power of two >= 2
  parameter int unsigned TagW  = 1,   /// top bits of a granted word reported on taken_tag_o
  parameter int unsigned SideLsb = 0, /// lowest bit of the field out_side_o shows
  parameter int unsigned SideW   = 1, /// its width
  localparam int unsigned PtrW = $clog2(Depth)
) (
  input  wire logic             clk_i,
  input  wire logic             rst_i,
  input  wire logic             push_i,
  input  wire logic             push_next_i,
  input  wire logic [Width-1:0] push_data_i,
  output logic                  out_valid_o,
  output logic      [Width-1:0] out_data_o,
  input  wire logic             grant_i,
  output logic                  taken_o,
  output logic      [TagW-1:0]  taken_tag_o,
  output logic      [SideW-1:0] out_side_o
);
  `CANOPY_STATIC_ASSERT(gen_depth_check, Depth >= 2 && (Depth & (Depth - 1)) == 0,
                        "Depth must be a power of two >= 2")
  `CANOPY_STATIC_ASSERT(gen_tag_check, TagW >= 1 && TagW <= Width, "TagW must be 1..Width")
  `CANOPY_STATIC_ASSERT(gen_side_check, SideW >= 1 && SideLsb + SideW <= Width,
                        "the side field must lie within the word")

  logic [Width-1:0] mem_q [Depth];
  logic [PtrW-1:0]  wp_q, rp_q, rp1_q;   // rp1_q = rp_q + 1, kept as a register
  logic [PtrW:0]    cnt_q;               // words held (the one offered included)
  logic             one_q;               // cnt_q == 1 (the bypass select, no subtraction
                                         // after the grant)

  always_ff @(posedge clk_i) begin
    if (push_i) mem_q[wp_q] <= push_data_i;
  end

  // The grant of last cycle's offer, registered: that word leaves now.
  always_ff @(posedge clk_i) begin
    if (rst_i) taken_o <= 1'b0;
    else       taken_o <= grant_i;
  end
  wire logic pop = taken_o;
  wire logic [PtrW:0] left = cnt_q - (PtrW + 1)'(pop);   // held after this cycle's pop
  wire logic drained = pop && one_q;                      // left == 0 after a pop

  // The offer next cycle, from this cycle's grant (next cycle's pop), next cycle's flags
  // (held_d, one_d below) and next cycle's push: what (cnt_q != 0 && !drained) || (pop &&
  // push_i) will be then.
  logic held_d, one_d, valid_q;
  always_ff @(posedge clk_i) begin
    if (rst_i) valid_q <= 1'b0;
    else       valid_q <= (held_d && !(grant_i && one_d)) || (grant_i && push_next_i);
  end
  assign out_valid_o = valid_q;
  assign out_data_o  = drained ? push_data_i : mem_q[pop ? rp1_q : rp_q];

  // The side field of the words at rp_q and rp1_q, registered: read a cycle early at the
  // pointers' next values (the word written this cycle forwarded), so the offer's side
  // field is a mux of registers (and of push_data_i for the bypass).
  logic [SideW-1:0] side_rp_q, side_rp1_q;
  wire logic [PtrW-1:0] rp_n  = pop ? rp1_q : rp_q;
  wire logic [PtrW-1:0] rp1_n = pop ? rp1_q + 1'b1 : rp1_q;
  wire logic [SideW-1:0] push_side = push_data_i[SideLsb +: SideW];
  always_ff @(posedge clk_i) begin
    side_rp_q  <= push_i && wp_q == rp_n  ? push_side : mem_q[rp_n][SideLsb +: SideW];
    side_rp1_q <= push_i && wp_q == rp1_n ? push_side : mem_q[rp1_n][SideLsb +: SideW];
  end
  assign out_side_o = drained ? push_side : (pop ? side_rp1_q : side_rp_q);

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      wp_q  <= '0;
      rp_q  <= '0;
      rp1_q <= PtrW'(1);
      cnt_q <= '0;
      one_q <= 1'b0;
    end else begin
      if (push_i) wp_q <= wp_q + 1'b1;
      if (pop) begin
        rp_q  <= rp1_q;
        rp1_q <= rp1_q + 1'b1;
      end
      cnt_q <= left + (PtrW + 1)'(push_i);
      one_q <= one_d;
    end
  end
  assign held_d = left + (PtrW + 1)'(push_i) != '0;
  assign one_d  = left + (PtrW + 1)'(push_i) == (PtrW + 1)'(1);

  // push_next_i said, a cycle early, what push_i is now.
  logic push_said_q;
  always_ff @(posedge clk_i) begin
    if (rst_i) push_said_q <= 1'b0;
    else       push_said_q <= push_next_i;
  end

  // Every cycle, so that in a cycle after a grant it holds the word granted.
  always_ff @(posedge clk_i) taken_tag_o <= out_data_o[Width-1 -: TagW];

  `CANOPY_ASSERT(a_grant_offered, !grant_i || out_valid_o, "granted with nothing offered")
  `CANOPY_ASSERT(a_push_said, push_i == push_said_q, "push_i differs from push_next_i a cycle before")
  `CANOPY_ASSERT(a_valid, valid_q == ((cnt_q != '0 && !drained) || (pop && push_i)),
                 "the registered offer differs from the queue's state")
  `CANOPY_ASSERT(a_pop_held, !pop || cnt_q != '0, "a word taken that the queue did not hold")
  `CANOPY_ASSERT(a_room, !push_i || left < (PtrW + 1)'(Depth), "push into a full queue")
  `CANOPY_ASSERT(a_side, !out_valid_o || out_side_o == out_data_o[SideLsb +: SideW],
                 "the registered side field differs from the word offered")
  `CANOPY_ASSERT(a_flags, one_q == (cnt_q == (PtrW + 1)'(1)), "the count's flag out of step with it")
  `CANOPY_ASSERT(a_rp1, rp1_q == rp_q + 1'b1, "read pointers out of step")
endmodule

`default_nettype wire
