// canopy_grant_fifo_formal: formal harness of canopy_grant_fifo (formal/canopy_grant_fifo.sby).
//
// The environment: push_next_i any value the owner may announce (a push only while the
// queue has room whatever the grant in between, as the send lanes' and the reduce
// engine's accounting guarantee), push_i that announcement a cycle later (a register
// here, as in every owner), any push_data_i, a grant only while a word is offered, reset
// in the first cycle. A model counts the words held (pushed, not yet taken: the one
// offered included); track_i picks, at any push while no word is tracked, the word to
// track: its value and the words ahead of it. Proven (every cycle out of reset):
//   - out_valid_o (a flip-flop, computed a cycle ahead) is exactly "a word held that is
//     not leaving now, or, with none, a word pushed now" (the bypass);
//   - the bypass offers the word pushed now; the tracked word, once no word is ahead of
//     it, is offered unchanged: every word is offered in order, unchanged;
//   - taken_o / taken_tag_o report last cycle's grant and the top bits of the word granted;
//   - the queue's own `CANOPY_ASSERTs (the registered offer, its flags, the side field).
// Induction strengthening: the queue's count and pointers agree with the model, and the
// tracked word sits in its RAM slot (read pointer + words ahead), read through taps.
`default_nettype none
`include "canopy_assert.svh"

module canopy_grant_fifo_formal #(
  parameter int unsigned Width = 4,  /// bits per word (data-independent: 4 is plenty)
  parameter int unsigned Depth = 4   /// words held
) (
  input wire logic             clk_i,
  input wire logic             rst_i,
  input wire logic             push_next_i,
  input wire logic [Width-1:0] push_data_i,
  input wire logic             grant_i,
  input wire logic             track_i  // track the word pushed this cycle
);
  localparam int unsigned PtrW = $clog2(Depth);
  localparam int unsigned TagW = 2;

  logic             push_q;   // the push announced last cycle: push_i now
  logic             out_valid_o, taken_o;
  logic [Width-1:0] out_data_o;
  logic [TagW-1:0]  taken_tag_o;
  /* verilator lint_off UNUSEDSIGNAL */  // checked by the queue's own a_side
  logic [1:0]       out_side_o;
  /* verilator lint_on UNUSEDSIGNAL */

  canopy_grant_fifo #(.Width(Width), .Depth(Depth), .TagW(TagW), .SideLsb(1), .SideW(2)) dut (
    .clk_i, .rst_i,
    .push_i (push_q), .push_next_i, .push_data_i,
    .out_valid_o, .out_data_o, .grant_i, .taken_o, .taken_tag_o, .out_side_o
  );

  // Taps, driven by `connect` in the .sby: dut.cnt_q, dut.rp_q, dut.wp_q and the RAM
  // words (word i is tap_mem[i*Width +: Width]).
  /* verilator lint_off UNDRIVEN */
  (* keep *) logic [PtrW:0]          tap_cnt;
  (* keep *) logic [PtrW-1:0]        tap_rp, tap_wp;
  (* keep *) logic [Depth*Width-1:0] tap_mem;
  /* verilator lint_on UNDRIVEN */

  logic started_q = 1'b0;
  always_ff @(posedge clk_i) started_q <= 1'b1;
  always_comb if (!started_q) assume (rst_i);

  // The model: words held (n_q), last cycle's grant (pop_q: that word leaves now).
  logic [PtrW:0]    n_q;
  logic             pop_q;
  /* verilator lint_off UNUSEDSIGNAL */  // its top TagW bits
  logic [Width-1:0] offered_q;   // the word offered last cycle
  /* verilator lint_on UNUSEDSIGNAL */
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      push_q <= 1'b0;
      pop_q  <= 1'b0;
      n_q    <= '0;
    end else begin
      push_q <= push_next_i;
      pop_q  <= grant_i;
      n_q    <= n_q + (PtrW + 1)'(push_q) - (PtrW + 1)'(pop_q);
    end
  end
  always_ff @(posedge clk_i) offered_q <= out_data_o;

  // The owner's side of the contract.
  always_comb if (!rst_i && push_next_i) assume (32'(n_q) + 32'(push_q) < Depth);
  always_comb if (!rst_i && grant_i) assume (out_valid_o);

  wire logic [PtrW:0] left   = n_q - (PtrW + 1)'(pop_q);   // held after this cycle's pop
  wire logic          bypass = left == '0 && pop_q && push_q;

  logic             tracking_q;
  logic [Width-1:0] tdata_q;
  logic [PtrW:0]    tpos_q;  // words held ahead of the tracked one
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      tracking_q <= 1'b0;
    end else if (!tracking_q) begin
      if (push_q && track_i) begin
        tracking_q <= 1'b1;
        tdata_q    <= push_data_i;
        tpos_q     <= left;
      end
    end else if (pop_q) begin
      if (tpos_q == '0) tracking_q <= 1'b0;  // the tracked word left
      tpos_q <= tpos_q - 1'b1;
    end
  end
  wire logic t_offered = tracking_q && tpos_q == (PtrW + 1)'(pop_q);  // none ahead after the pop

  `CANOPY_ASSERT(p_valid, out_valid_o == (left != '0 || bypass), "offer disagrees with the words held")
  `CANOPY_ASSERT(p_bound, n_q <= (PtrW + 1)'(Depth), "more words held than Depth")
  `CANOPY_ASSERT(p_bypass, !bypass || out_data_o == push_data_i, "the bypass offers another word")
  `CANOPY_ASSERT(p_tracked_offer, !t_offered || (out_valid_o && out_data_o == tdata_q),
                 "tracked word not offered, out of order or changed")
  `CANOPY_ASSERT(p_tracked_inside, !tracking_q || tpos_q < n_q, "tracked word lost")
  `CANOPY_ASSERT(p_taken, taken_o == pop_q, "taken_o is not last cycle's grant")
  `CANOPY_ASSERT(p_tag, !taken_o || taken_tag_o == offered_q[Width-1 -: TagW],
                 "taken_tag_o is not the granted word's top bits")

  // Induction strengthening.
  `CANOPY_ASSERT(p_count, tap_cnt == n_q, "the queue's count is not the words held")
  `CANOPY_ASSERT(p_ptrs, tap_wp == PtrW'(tap_rp + n_q), "pointers disagree with the words held")
  wire logic [PtrW-1:0] tslot = PtrW'(tap_rp + tpos_q);
  `CANOPY_ASSERT(p_tracked_mem, !tracking_q || tap_mem[tslot*Width +: Width] == tdata_q,
                 "tracked word changed in the RAM")

  // Reachability (`*_cover` tasks): the queue fills; a word offered by the bypass is
  // granted; the tracked word is offered and granted right after a grant (back to back).
  // A proof whose assumptions excluded these would be vacuous.
  always_comb if (!rst_i) cover (n_q == (PtrW + 1)'(Depth));
  always_comb if (!rst_i) cover (bypass && grant_i);
  always_comb if (!rst_i) cover (t_offered && grant_i && pop_q);
endmodule

`default_nettype wire
