// canopy_unit_lrg_arbiter_tb.sv: test top for the canopy_lrg_arbiter unit test (driven by
// lrg_arbiter_test.cpp).
//
// Instantiates canopy_lrg_arbiter once per parameter set, NumReq 2, 3, 7 and 9 (config
// k = 0..3), sharing the clock and reset. Each config has its own slice of the packed
// ports, padded to the widest: 9 request/grant bits and a 4-bit grant index.
// lrg_arbiter_test.cpp holds the same table.
`default_nettype none

module canopy_unit_lrg_arbiter_tb #(
  localparam int unsigned NumCfg = 4,
  localparam int unsigned MaxReq = 9,
  localparam int unsigned MaxIdxW = 4
) (
  input  wire logic                            clk_i,
  input  wire logic                            rst_i,
  input  wire logic [NumCfg-1:0][MaxReq-1:0]   req_i,
  input  wire logic [NumCfg-1:0]               advance_i,
  output logic      [NumCfg-1:0][MaxReq-1:0]   grant_o,
  output logic      [NumCfg-1:0][MaxIdxW-1:0]  grant_idx_o
);
  for (genvar k = 0; k < NumCfg; k++) begin : g_cfg
    localparam int unsigned NumReq = (k == 0) ? 2 : (k == 1) ? 3 : (k == 2) ? 7 : 9;
    localparam int unsigned IdxW   = $clog2(NumReq);

    logic [NumReq-1:0] grant;
    logic [IdxW-1:0]   grant_idx;

    canopy_lrg_arbiter #(.NumReq(NumReq)) u_dut (
      .clk_i,
      .rst_i,
      .req_i       (req_i[k][NumReq-1:0]),
      .advance_i   (advance_i[k]),
      .grant_o     (grant),
      .grant_idx_o (grant_idx)
    );

    assign grant_o[k]     = MaxReq'(grant);
    assign grant_idx_o[k] = MaxIdxW'(grant_idx);

    // A narrow config's request padding is driven (always 0) but unused.
    if (NumReq < MaxReq) begin : g_pad
      wire logic unused_pad = ^req_i[k][MaxReq-1:NumReq];
    end
  end
endmodule

`default_nettype wire
