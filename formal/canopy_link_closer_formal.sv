// canopy_link_closer_formal: formal harness of canopy_link_closer
// (formal/canopy_link_closer.sby): the closer between a receiver that hands it any flits
// and a router input (per-VC buffers of the closer's slot counts, P2P 3, COLL_UP 2,
// COLL_DOWN 3) that frees slots at will.
//
// The environment: while the link is up, a flit arrives on a VC only into a free slot (the
// far transmitter's credits guarantee it), with any body and framing (a faulty far end
// may frame against its len); the link falls at any cycle, once. The router frees a slot
// only of a VC it holds flits of, at will, before the fall and after it. Proven (bounded,
// every trace of the .sby's depth):
//   - while up, the router gets exactly what arrived;
//   - no flit ever finds the router's buffer full, fillers included;
//   - once down, only fillers (body 0), only on the VCs the closer closes, only into a
//     packet already open there;
//   - every packet a filler tail ends is as long as its head's len says plus or minus at
//     least one flit, never exactly as long (so every router and host interface sees it);
//   - bounded liveness: 12 cycles after the fall, if the router has freed a slot of every
//     VC it held flits of in every cycle since, no closed VC holds an open packet;
//   - the closer's own `CANOPY_ASSERTs.
// Covers: a packet closed by one filler (several flits missing) and one by two (exactly
// its tail missing, so it comes out one flit too long).
`default_nettype none
`include "canopy_assert.svh"

module canopy_link_closer_formal (
  input wire logic        clk_i,
  input wire logic        rst_i,
  input wire logic        in_valid_i,
  input wire logic [63:0] in_flit_i,
  input wire logic        in_last_i,
  input wire logic [1:0]  in_vc_i,
  input wire logic        fall_i,     // the link goes down now (once)
  input wire logic [3:0]  free_i      // the router frees a slot of these VCs (while up)
);
  localparam logic [3:0] Close = 4'b1011;
  function automatic int unsigned slots(input int unsigned v);
    slots = v == 2 ? 2 : 3;
  endfunction

  logic started_q = 1'b0;
  always_ff @(posedge clk_i) started_q <= 1'b1;
  always_comb if (!started_q) assume (rst_i);
  always_comb if (started_q) assume (!rst_i);

  logic [3:0][1:0] occ_q;    // flits in the router's buffer, per VC
  logic [3:0]      credit, occ_nonzero;
  logic       up_q;
  logic [4:0] down_for_q;   // cycles since the fall, saturating
  logic       drained_q;    // since the fall, the router freed a slot of every VC it held flits of
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      up_q       <= 1'b1;
      down_for_q <= '0;
      drained_q  <= 1'b1;
    end else begin
      if (fall_i) up_q <= 1'b0;
      if (!up_q && credit != occ_nonzero) drained_q <= 1'b0;
      if (!up_q && down_for_q != 5'h1f) down_for_q <= down_for_q + 1'b1;
    end
  end

  for (genvar v = 0; v < 4; v++) begin : gen_free
    assign occ_nonzero[v] = occ_q[v] != '0;
    assign credit[v]      = occ_nonzero[v] && free_i[v];
  end
  always_comb if (in_valid_i) assume (32'(occ_q[in_vc_i]) < slots(32'(in_vc_i)) || !up_q);
  // Only len (bits 48..40) and whether a body is 0 matter to the closer: the other bits are
  // held at 0 but bit 0, which keeps bodies of both kinds (a smaller problem, as strong).
  always_comb assume (in_flit_i[63:49] == '0 && in_flit_i[39:1] == '0);

  logic        out_valid, out_last, close;
  logic [63:0] out_flit;
  logic [1:0]  out_vc;
  canopy_link_closer #(.NumVcs (4), .P2pCredits (3), .CollCredits (2), .DownCredits (3)) dut (
    .clk_i,
    .rst_i,
    .up_i        (up_q),
    .in_valid_i,
    .in_flit_i,
    .in_last_i,
    .in_vc_i,
    .credit_i    (credit),
    .out_valid_o (out_valid),
    .out_flit_o  (out_flit),
    .out_last_o  (out_last),
    .out_vc_o    (out_vc),
    .close_o     (close)
  );

  // What the router has of the packet arriving on each VC: flits so far (0 between
  // packets, saturating), the flits its head's len says, and fillers so far.
  logic [3:0][6:0] got_q, want_q;
  logic [3:0][1:0] fill_q;
  wire logic [6:0] head_want = 7'd2 + 7'((32'(out_flit[48:40]) + 7) >> 3);
  for (genvar v = 0; v < 4; v++) begin : gen_track
    wire logic here = out_valid && out_vc == 2'(v);
    always_ff @(posedge clk_i) begin
      if (rst_i) begin
        occ_q[v]  <= '0;
        got_q[v]  <= '0;
        fill_q[v] <= '0;
      end else begin
        occ_q[v] <= occ_q[v] + 2'(here) - 2'(credit[v]);
        if (here) begin
          got_q[v]  <= out_last ? '0 : (got_q[v] == 7'h7f ? got_q[v] : got_q[v] + 1'b1);
          fill_q[v] <= out_last ? '0 : fill_q[v] + 2'(!up_q);
          if (got_q[v] == '0) want_q[v] <= head_want;
        end
      end
    end
    always_comb if (!rst_i) begin
      assert (32'(occ_q[v]) <= slots(v));
      if (here) assert (32'(occ_q[v]) < slots(v));
      if (here && !up_q) begin
        assert (Close[v] && got_q[v] != '0 && out_flit == '0);
        if (out_last) assert (got_q[v] + 1'b1 != want_q[v]);
      end
      if (Close[v] && drained_q && down_for_q >= 5'd12) assert (got_q[v] == '0);
    end
    if (Close[v]) begin : gen_cover
      always_comb if (!rst_i) begin
        cover (here && !up_q && out_last && fill_q[v] == 2'd0 && got_q[v] >= 7'd2);
        cover (here && !up_q && out_last && fill_q[v] == 2'd1);
      end
    end
  end

  always_comb if (!rst_i && up_q) begin
    assert (out_valid == in_valid_i);
    if (in_valid_i) assert (out_flit == in_flit_i && out_last == in_last_i && out_vc == in_vc_i);
  end
  wire logic unused = close;
endmodule

`default_nettype wire
