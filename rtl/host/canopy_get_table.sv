// canopy_get_table: the GET requests a node holds for its get server, at most Slots per
// source node, so an arriving request is always taken or dropped at once and the ejection
// path never waits for the server (docs/host-interface.md, "Gets never block ejection").
//
// Interface contract
//   - push_*: an arriving request (from canopy_ejector), at most one per cycle, never
//     waited for: push_valid_i with the source's table index push_idx_i (a source inside
//     the torus and below MaxNodes) and the entry (fresh set). push_ok_o says whether it
//     is taken: the source holds fewer than Slots requests here (queued or being served).
//     A request not taken is dropped; the caller counts it. push_ok_o is a register that
//     looks up push_idx_i of the cycle before, so push_idx_i must hold its value for a
//     cycle before push_valid_i rises (asserted); the lookup folds in that cycle's pushes
//     and retires, so the answer is exact, never stale.
//   - mark_i: the DMA marker of an accepted request has completed (in acceptance order):
//     every DMA write issued before that request has been answered. A fresh entry is
//     offered only once its marker has completed, so a get reads what earlier puts wrote.
//   - head_*: the oldest request, valid/ready-like: head_valid_o (never depends on
//     head_take_i), head_o; head_take_i takes it (the caller now serves it; it still
//     counts against its source until retired).
//   - back_*: a request given back with its remainder (after one chunk was served), put
//     at the tail so every queued request gets a chunk in turn; back_ready_o is low only in
//     a cycle with an arrival (arrivals never wait). retire_* / amo_retire_*: a request is
//     answered completely (by the get server / the AMO unit, possibly in the same cycle);
//     its source may send another. The source's count goes down the cycle after.
//   - busy_o: requests held (queued, offered or being served).
// Structure: one FIFO in a simple dual-port RAM (MaxNodes * Slots entries, rounded up to a
// power of two: it can never fill, since every entry counts against its source) with a
// one-entry head register, a count per source in registers, and a count of completed
// markers not yet matched with a fresh entry. The answer to a push is registered because
// a MaxNodes-to-1 count read, the compare, the push decision and the MaxNodes-way count
// update in one cycle were the node's critical path (14.5 ns, 256 sources).
`default_nettype none
`include "canopy_assert.svh"

module canopy_get_table #(
  parameter int unsigned MaxNodes = 256, /// sources: table index below this, a power of two 4..4096
  parameter int unsigned Slots    = 2,   /// requests held per source, 1..3
  localparam int unsigned IdW = $clog2(MaxNodes),
  localparam int unsigned EntryW = canopy_host_pkg::GetEntryBits
) (
  input  wire logic                          clk_i,
  input  wire logic                          rst_i,

  input  wire logic                          push_valid_i,
  input  wire logic [IdW-1:0]                push_idx_i,
  input  wire canopy_host_pkg::get_entry_t   push_entry_i,
  output logic                               push_ok_o,
  input  wire logic                          mark_i,

  output logic                               head_valid_o,
  output canopy_host_pkg::get_entry_t        head_o,
  input  wire logic                          head_take_i,

  input  wire logic                          back_valid_i,
  output logic                               back_ready_o,
  input  wire canopy_host_pkg::get_entry_t   back_i,
  input  wire logic                          retire_i,
  input  wire logic [IdW-1:0]                retire_idx_i,
  input  wire logic                          amo_retire_i,
  input  wire logic [IdW-1:0]                amo_retire_idx_i,

  output logic                               busy_o
);
  localparam int unsigned Depth = 1 << $clog2(MaxNodes * Slots);
  localparam int unsigned PtrW  = $clog2(Depth);
  localparam int unsigned CntW  = $clog2(Slots + 1);
  localparam int unsigned RdyW  = PtrW + 2;

  `CANOPY_STATIC_ASSERT(gen_nodes_check, MaxNodes >= 4 && MaxNodes <= 4096
                        && (MaxNodes & (MaxNodes - 1)) == 0,
                        "MaxNodes must be a power of two, 4..4096")
  `CANOPY_STATIC_ASSERT(gen_slots_check, Slots >= 1 && Slots <= 3, "Slots must be 1..3")

  // ---------------------------------------------------------------- per-source counts
  // Retirements are applied a cycle after they are signalled: they come late in the cycle
  // (the get server and the AMO unit retire a request as its last response is injected),
  // and the MaxNodes-way count update sits across the node from them. A source's count
  // then stays one cycle longer, which can refuse nothing a source may send: it learns
  // of the retirement only from the response, many cycles later.
  logic                          ret_q, aret_q;
  logic [IdW-1:0]                ret_idx_q, aret_idx_q;
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      ret_q  <= 1'b0;
      aret_q <= 1'b0;
    end else begin
      ret_q  <= retire_i;
      aret_q <= amo_retire_i;
    end
  end
  always_ff @(posedge clk_i) begin
    ret_idx_q  <= retire_idx_i;
    aret_idx_q <= amo_retire_idx_i;
  end

  logic [MaxNodes-1:0][CntW-1:0] cnt_q;
  logic [MaxNodes-1:0]           push_oh, retire_oh, aretire_oh;
  logic [IdW-1:0]                look_q;     // the index push_ok_q answers for
  logic                          push_ok_q;
  wire  logic                    push = push_valid_i && push_ok_q;

  // The looked-up source's count as it will be next cycle: this cycle's push and retires
  // of the same source included.
  logic [CntW-1:0] look_next;
  assign look_next = cnt_q[push_idx_i]
                     + CntW'(push)
                     - CntW'(ret_q && ret_idx_q == push_idx_i)
                     - CntW'(aret_q && aret_idx_q == push_idx_i);

  always_ff @(posedge clk_i) begin
    look_q    <= push_idx_i;
    push_ok_q <= look_next < CntW'(Slots);
  end
  assign push_ok_o = push_ok_q;
  // One-hot decoders rather than a comparison per entry: MaxNodes comparators would be
  // most of this block's logic.
  assign push_oh   = push ? MaxNodes'(1) << push_idx_i : '0;
  assign retire_oh  = ret_q ? MaxNodes'(1) << ret_idx_q : '0;
  assign aretire_oh = aret_q ? MaxNodes'(1) << aret_idx_q : '0;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      cnt_q <= '0;
    end else begin
      for (int unsigned i = 0; i < MaxNodes; i++) begin
        cnt_q[i] <= cnt_q[i] + CntW'(push_oh[i]) - CntW'(retire_oh[i]) - CntW'(aretire_oh[i]);
      end
    end
  end

  // ---------------------------------------------------------------- FIFO
  logic [PtrW:0]   wr_ptr_q, rd_ptr_q;
  logic            ram_we, ram_re, rd_inflight_q, head_valid_q;
  logic [EntryW-1:0] ram_wdata, ram_rdata;
  canopy_host_pkg::get_entry_t head_q;
  wire logic [PtrW:0] used = wr_ptr_q - rd_ptr_q;   // entries in the RAM

  assign back_ready_o = !push;
  assign ram_we       = push || back_valid_i;
  assign ram_wdata    = push ? EntryW'(push_entry_i) : EntryW'(back_i);
  // Refill the head register as it empties (the word read lands the next cycle).
  assign ram_re       = used != '0 && !rd_inflight_q && (!head_valid_q || head_take_i);

  // A read takes an entry pushed earlier (used != 0) and a write fills a free one, so they
  // never share a slot (a_room): no collision logic in the RAM.
  canopy_sdp_ram #(.Width(EntryW), .Depth(Depth), .CollisionOld(1'b0)) u_ram (
    .clk_i,
    .we_i    (ram_we),
    .waddr_i (wr_ptr_q[PtrW-1:0]),
    .wdata_i (ram_wdata),
    .re_i    (ram_re),
    .raddr_i (rd_ptr_q[PtrW-1:0]),
    .rdata_o (ram_rdata)
  );

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      wr_ptr_q      <= '0;
      rd_ptr_q      <= '0;
      rd_inflight_q <= 1'b0;
      head_valid_q  <= 1'b0;
    end else begin
      if (ram_we) wr_ptr_q <= wr_ptr_q + 1'b1;
      if (ram_re) rd_ptr_q <= rd_ptr_q + 1'b1;
      rd_inflight_q <= ram_re;
      if (rd_inflight_q)    head_valid_q <= 1'b1;
      else if (head_take_i) head_valid_q <= 1'b0;
    end
  end

  always_ff @(posedge clk_i) begin
    if (rd_inflight_q) head_q <= canopy_host_pkg::get_entry_t'(ram_rdata);
  end

  // ---------------------------------------------------------------- markers
  // Markers complete in acceptance order and fresh entries leave in acceptance order, so
  // the oldest fresh entry is ready exactly when more markers have completed than fresh
  // entries have left.
  logic [RdyW-1:0] ready_q, unmarked_q;
  wire  logic      take_fresh = head_take_i && head_q.fresh;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      ready_q    <= '0;
      unmarked_q <= '0;
    end else begin
      ready_q    <= ready_q + RdyW'(mark_i) - RdyW'(take_fresh);
      unmarked_q <= unmarked_q + RdyW'(push) - RdyW'(mark_i);
    end
  end

  assign head_valid_o = head_valid_q && (!head_q.fresh || ready_q != '0);
  assign head_o       = head_q;
  assign busy_o       = cnt_q != '0;

  // ---------------------------------------------------------------- invariants
  `CANOPY_ASSERT(a_look_held, !push_valid_i || push_idx_i == look_q,
                 "a get request's source index changed in the cycle it was offered")
  `CANOPY_ASSERT(a_room, !ram_we || used < (PtrW + 1)'(Depth), "get request FIFO overflow")
  `CANOPY_ASSERT(a_retire_held, !ret_q || cnt_q[ret_idx_q] != '0,
                 "retired a get request its source does not hold")
  `CANOPY_ASSERT(a_aretire_held, !aret_q || cnt_q[aret_idx_q] > CntW'(ret_q && ret_idx_q == aret_idx_q),
                 "retired an atomic its source does not hold")
  `CANOPY_ASSERT(a_take_valid, !head_take_i || head_valid_o, "took a get request that was not offered")
  `CANOPY_ASSERT(a_mark_owed, !mark_i || unmarked_q != '0, "a get marker without an accepted request")
  `CANOPY_ASSERT(a_back_stale, !back_valid_i || (!back_i.fresh && !back_i.failed && !back_i.amo && back_i.len != '0),
                 "gave back a fresh, refused, atomic or empty request")
endmodule

`default_nettype wire
