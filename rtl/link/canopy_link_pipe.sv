// canopy_link_pipe: a link between two routers, as a fixed pipeline delay.
//
// Interface contract
//   - Forward: a flit entering on in_* leaves on out_* exactly Latency cycles later.
//   - Backward: a credit vector entering on credit_in_i leaves on credit_out_o Latency
//     cycles later (credits travel the same cable the other way). CreditW bits: the
//     per-VC flit credits and, beside them, the collective subnet's slot credits.
//   - Latency 0 is a plain wire.
// In simulation this models SerDes and cable; on a board a PHY with the same contract
// replaces it. Credits make the link's depth invisible to correctness: the router only
// needs LinkBufDepth >= 2 * Latency + 3 to keep one VC streaming at full rate
// (docs/router.md derives the round trip).
`default_nettype none

module canopy_link_pipe #(
  parameter int unsigned Latency   = 1,   /// cycles each way
  parameter int unsigned FlitWidth = 64,  /// bits per flit
  parameter int unsigned NumVcs    = 4,   /// VCs on the link
  parameter int unsigned CreditW   = NumVcs, /// bits of the backward credit word
  localparam int unsigned VcW = $clog2(NumVcs)
) (
  input  wire logic                 clk_i,
  input  wire logic                 rst_i,
  input  wire logic                 in_valid_i,
  input  wire logic [FlitWidth-1:0] in_flit_i,
  input  wire logic                 in_last_i,
  input  wire logic [VcW-1:0]       in_vc_i,
  output logic                      out_valid_o,
  output logic      [FlitWidth-1:0] out_flit_o,
  output logic                      out_last_o,
  output logic      [VcW-1:0]       out_vc_o,
  input  wire logic [CreditW-1:0]   credit_in_i,
  output logic      [CreditW-1:0]   credit_out_o
);
  // The pipeline's stages (unused at Latency 0), declared here rather than in gen_pipe:
  // Yosys does not take packed arrays declared inside a generate block.
  localparam int unsigned Stages = Latency == 0 ? 1 : Latency;
  logic [Stages-1:0]                valid_q;
  logic [Stages-1:0][FlitWidth-1:0] flit_q;
  logic [Stages-1:0]                last_q;
  logic [Stages-1:0][VcW-1:0]       vc_q;
  logic [Stages-1:0][CreditW-1:0]   credit_q;

  if (Latency == 0) begin : gen_wire
    assign out_valid_o  = in_valid_i;
    assign out_flit_o   = in_flit_i;
    assign out_last_o   = in_last_i;
    assign out_vc_o     = in_vc_i;
    assign credit_out_o = credit_in_i;
    assign valid_q  = '0;
    assign flit_q   = '0;
    assign last_q   = '0;
    assign vc_q     = '0;
    assign credit_q = '0;
    wire logic unused_clk = ^{clk_i, rst_i, valid_q, flit_q, last_q, vc_q, credit_q};
  end else begin : gen_pipe

    always_ff @(posedge clk_i) begin
      if (rst_i) begin
        valid_q  <= '0;
        credit_q <= '0;
      end else begin
        valid_q[0]  <= in_valid_i;
        credit_q[0] <= credit_in_i;
        for (int unsigned s = 1; s < Latency; s++) begin
          valid_q[s]  <= valid_q[s-1];
          credit_q[s] <= credit_q[s-1];
        end
      end
    end

    always_ff @(posedge clk_i) begin
      flit_q[0] <= in_flit_i;
      last_q[0] <= in_last_i;
      vc_q[0]   <= in_vc_i;
      for (int unsigned s = 1; s < Latency; s++) begin
        flit_q[s] <= flit_q[s-1];
        last_q[s] <= last_q[s-1];
        vc_q[s]   <= vc_q[s-1];
      end
    end

    assign out_valid_o  = valid_q[Latency-1];
    assign out_flit_o   = flit_q[Latency-1];
    assign out_last_o   = last_q[Latency-1];
    assign out_vc_o     = vc_q[Latency-1];
    assign credit_out_o = credit_q[Latency-1];
  end
endmodule

`default_nettype wire
