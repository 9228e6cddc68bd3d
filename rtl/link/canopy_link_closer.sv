// canopy_link_closer: on the receive side of a protected link, the packets a dying link
// cut in half are closed, so that the router behind it never waits for a tail that will
// not come (docs/link.md, "A link that dies mid-packet").
//
// Why: the link hands the router only whole, checked frames, but a packet (up to 34 flits)
// spans frames (24 words), so when the far end falls silent between two frames the router
// input holds a packet without its tail. Routers cut through: that packet's output VCs all
// the way to its destination stay allocated, and every later packet on those VCs waits
// for ever. The closer gives each such packet a tail made of filler flits (body 0), and
// makes the packet's length disagree with its header's len, always: it emits one filler
// flit (the tail) unless exactly one flit was missing, and then two. A router counts the
// disagreement where it crosses it (ERR_BAD_LEN) and lets the packet go; the destination's
// host interface refuses what such a packet carries (canopy_ej_parser marks it,
// canopy_ejector fails it: nothing of it is reported delivered). So a packet is either
// delivered whole and exact, or delivered visibly malformed, or lost; never wrong and
// well formed.
//
// Interface contract
//   - up_i: the link is up (canopy_link's up_q: it falls once, until reset).
//   - in_*: the receiver's flits (canopy_link_rx out_*, registered). While up they pass
//     through unchanged (a mux after flip-flops: no added cycle); from the first cycle
//     down they are dropped, so nothing the far end sent after the fillers can follow them.
//   - out_*: the router input's rx_* (one flit per cycle at most, no ready).
//   - credit_i[v]: the router input freed a slot of VC v (its rx_credit). Slots in use
//     (flits handed on minus slots freed) are tracked from reset, so a filler flit is sent
//     only into a free slot, as the far transmitter's credits guaranteed for real flits.
//   - close_o (pulse, registered): a filler tail was handed on (one per closed packet).
// VCs in CloseMask are closed; the others keep their cut packet. COLL_UP is left out on
// purpose: a reduce engine combines a contribution word by word and sends the result by
// its header's len, so a short contribution would yield a well-formed wrong result; there
// the cut packet stays, the tree's collectives time out and the tree goes down
// (docs/collectives.md). Fillers go out one every other cycle, lowest VC first.
`default_nettype none
`include "canopy_assert.svh"

module canopy_link_closer #(
  parameter int unsigned NumVcs      = 4,    /// VCs on the link
  parameter logic [3:0]  CloseMask   = 4'b1011,  /// VCs whose cut packets are closed (P2P_LO, P2P_HI, COLL_DOWN)
  parameter int unsigned P2pCredits  = 64,   /// router input slots per point-to-point VC
  parameter int unsigned CollCredits = 32,   ///   on COLL_UP
  parameter int unsigned DownCredits = 64,   ///   and on COLL_DOWN
  localparam int unsigned BodyW = canopy_link_pkg::BodyW,
  localparam int unsigned VcW = NumVcs > 1 ? $clog2(NumVcs) : 1
) (
  input  wire logic              clk_i,
  input  wire logic              rst_i,
  input  wire logic              up_i,
  input  wire logic              in_valid_i,
  input  wire logic [BodyW-1:0]  in_flit_i,
  input  wire logic              in_last_i,
  input  wire logic [VcW-1:0]    in_vc_i,
  input  wire logic [NumVcs-1:0] credit_i,
  output logic                   out_valid_o,
  output logic      [BodyW-1:0]  out_flit_o,
  output logic                   out_last_o,
  output logic      [VcW-1:0]    out_vc_o,
  output logic                   close_o
);
  // Flits of a packet: its two header words and ceil(len / 8) payload words, for any len
  // the field can hold (a faulty far end may send more than MaxPayloadBytes).
  localparam int unsigned LeftW = $clog2(2 + ((1 << canopy_pkg::HdrLenBits) + 7) / 8 + 1);
  localparam int unsigned UsedW = $clog2((P2pCredits > DownCredits ? P2pCredits : DownCredits)
                                         + CollCredits + 1);
  function automatic int unsigned slots(input int unsigned v);
    slots = v == canopy_pkg::VcCollDown ? DownCredits
          : canopy_pkg::vc_is_coll(v) ? CollCredits : P2pCredits;
  endfunction

  `CANOPY_STATIC_ASSERT(gen_vcs_check, NumVcs >= 1 && NumVcs <= 4, "at most 4 VCs on a protected link")

  // ---------------------------------------------------------------- what the router got
  logic [NumVcs-1:0]            open_q;   // a packet started and not yet ended
  logic [NumVcs-1:0][LeftW-1:0] left_q;   // its flits still due by its len (0 once overdue)
  logic [NumVcs-1:0][UsedW-1:0] used_q;   // router input slots in use

  logic             fill_q;               // a filler flit on out_* this cycle
  logic [VcW-1:0]   fill_vc_q;
  logic             fill_last_q;

  assign out_valid_o = up_i ? in_valid_i : fill_q;
  assign out_flit_o  = up_i ? in_flit_i : '0;
  assign out_last_o  = up_i ? in_last_i : fill_last_q;
  assign out_vc_o    = up_i ? in_vc_i : fill_vc_q;

  /* verilator lint_off UNUSEDSIGNAL */  // only len is read from the head
  canopy_pkg::hdr_t head;
  /* verilator lint_on UNUSEDSIGNAL */
  assign head = canopy_pkg::hdr_t'({64'd0, out_flit_o});
  wire logic [LeftW-1:0] head_flits = LeftW'(2) + LeftW'((32'(head.len) + 7) >> 3);

  for (genvar v = 0; v < NumVcs; v++) begin : gen_track
    wire logic here = out_valid_o && 32'(out_vc_o) == v;
    always_ff @(posedge clk_i) begin
      if (rst_i) begin
        open_q[v] <= 1'b0;
        left_q[v] <= '0;
        used_q[v] <= '0;
      end else begin
        used_q[v] <= used_q[v] + UsedW'(here) - UsedW'(credit_i[v]);
        if (here) begin
          open_q[v] <= !out_last_o;
          left_q[v] <= !open_q[v] ? head_flits - 1'b1 : left_q[v] - LeftW'(left_q[v] != '0);
        end
      end
    end
    `CANOPY_ASSERT(a_room, !here || 32'(used_q[v]) < slots(v), "a flit handed on without a free router slot")
    // (a flit may leave its slot in the cycle it arrives)
    `CANOPY_ASSERT(a_freed, !credit_i[v] || used_q[v] != '0 || here, "the router freed a slot it did not have")
  end

  // ---------------------------------------------------------------- closing, once down
  logic           pick;
  logic [VcW-1:0] pick_vc;
  always_comb begin
    pick    = 1'b0;
    pick_vc = '0;
    for (int v = NumVcs - 1; v >= 0; v--) begin
      if (CloseMask[v] && open_q[v] && 32'(used_q[v]) < slots(v)) begin
        pick    = 1'b1;
        pick_vc = VcW'(v);
      end
    end
  end
  // Exactly one flit missing: a filler body flit first, then (next time round) the tail,
  // so that the packet comes out one flit too long rather than exactly as long as its len.
  wire logic pick_last = left_q[pick_vc] != LeftW'(1);

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      fill_q  <= 1'b0;
      close_o <= 1'b0;
    end else begin
      fill_q  <= !up_i && !fill_q && pick;
      close_o <= !up_i && fill_q && fill_last_q;
    end
  end
  always_ff @(posedge clk_i) begin
    fill_vc_q   <= pick_vc;
    fill_last_q <= pick_last;
  end

  `CANOPY_ASSERT(a_fill_open, !(!up_i && fill_q) || open_q[fill_vc_q], "a filler for a VC with no open packet")
endmodule

`default_nettype wire
