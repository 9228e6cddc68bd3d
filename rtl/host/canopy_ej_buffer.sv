// canopy_ej_buffer: the host side of the router's local output: one buffer per VC, credit
// return, and the packets handed on one at a time.
//
// Interface contract
//   - ej_* / ej_credit_o: the router's local output (its tx side). The router holds
//     EjectCredits credits per VC toward the host, so each VC gets a buffer of that depth
//     (a flit always finds room: asserted); one credit per flit taken out is returned, the
//     cycle after (registered).
//   - out_*: the delivered packets, whole and one at a time, valid/ready (out_valid_o never
//     depends on out_ready_i). Between packets the next VC is chosen round-robin among the
//     VCs holding a flit; from a head flit to its tail only that VC is served, so flits of
//     packets on different VCs, interleaved by the router, come out unmixed.
`default_nettype none
`include "canopy_assert.svh"

module canopy_ej_buffer #(
  parameter int unsigned NumVcs       = 4,   /// VCs of the router's local port
  parameter int unsigned EjectCredits = 16,  /// router credits toward the host per VC: a power of two >= 2
  parameter int unsigned FlitWidth    = 64,  /// bits per flit
  localparam int unsigned VcW = $clog2(NumVcs)
) (
  input  wire logic                 clk_i,
  input  wire logic                 rst_i,

  input  wire logic                 ej_valid_i,
  input  wire logic [FlitWidth-1:0] ej_flit_i,
  input  wire logic                 ej_last_i,
  input  wire logic [VcW-1:0]       ej_vc_i,
  output logic      [NumVcs-1:0]    ej_credit_o,

  output logic                      out_valid_o,
  input  wire logic                 out_ready_i,
  output logic      [FlitWidth-1:0] out_flit_o,
  output logic                      out_last_o
);
  `CANOPY_STATIC_ASSERT(gen_credits_check, EjectCredits >= 2 && (EjectCredits & (EjectCredits - 1)) == 0,
                        "EjectCredits must be a power of two >= 2")

  logic [NumVcs-1:0]              buf_valid, buf_ready, pop, pick;
  logic [NumVcs-1:0][FlitWidth:0] buf_data;          // {last, flit}
  logic [VcW-1:0]                 pick_idx, sel;
  logic                           locked_q;          // between a taken head and its tail
  logic [VcW-1:0]                 vc_q;

  for (genvar v = 0; v < NumVcs; v++) begin : gen_vc
    wire logic [$clog2(EjectCredits + 1):0] unused_count;
    // Heads in registers: the VC pick and the flit mux after it start from flip-flops.
    logic                   unused_buf_next_valid;  // the FIFO's peek port, not read here
    logic [FlitWidth:0]      unused_buf_next_data;
    canopy_reg_fifo #(.Width(FlitWidth + 1), .Depth(EjectCredits)) u_buf (
      .clk_i,
      .rst_i,
      .in_valid_i  (ej_valid_i && ej_vc_i == VcW'(v)),
      .in_ready_o  (buf_ready[v]),
      .in_data_i   ({ej_last_i, ej_flit_i}),
      .out_valid_o (buf_valid[v]),
      .out_ready_i (pop[v]),
      .out_data_o  (buf_data[v]),
      .count_o     (unused_count),
      .next_valid_o (unused_buf_next_valid),
      .next_data_o  (unused_buf_next_data)
    );
    `CANOPY_ASSERT(a_credit_overflow, !(ej_valid_i && ej_vc_i == VcW'(v) && !buf_ready[v]),
                   "router sent a flit without an ejection credit")
  end

  canopy_rr_arbiter #(.NumReq(NumVcs)) u_vc_pick (
    .clk_i,
    .rst_i,
    .req_i       (locked_q ? '0 : buf_valid),
    .advance_i   (!locked_q && out_valid_o && out_ready_i),
    .grant_o     (pick),
    .grant_idx_o (pick_idx)
  );
  wire logic unused_pick = ^pick;

  assign sel         = locked_q ? vc_q : pick_idx;
  assign out_valid_o = locked_q ? buf_valid[vc_q] : buf_valid != '0;
  assign out_flit_o  = buf_data[sel][FlitWidth-1:0];
  assign out_last_o  = buf_data[sel][FlitWidth];

  always_comb begin
    pop = '0;
    pop[sel] = out_valid_o && out_ready_i;
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      locked_q    <= 1'b0;
      ej_credit_o <= '0;
    end else begin
      if (out_valid_o && out_ready_i) locked_q <= !out_last_o;
      ej_credit_o <= pop;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!locked_q) vc_q <= pick_idx;
  end
endmodule

`default_nettype wire
