// canopy_unit_switch_alloc_tb.sv: test top for the canopy_switch_alloc unit test (driven by
// switch_alloc_test.cpp).
//
// Instantiates canopy_switch_alloc once per dimension count, NumDims 1 and 3 (config
// k = 0, 1; NumVcs 4), sharing the clock and reset. Each config has its own slice of the
// packed ports, padded to the widest (NumDims 3): 7 input ports, 8 outputs, 9 requesters,
// 3-bit port numbers, 4-bit grant indices. switch_alloc_test.cpp holds the same table.
`default_nettype none

module canopy_unit_switch_alloc_tb #(
  localparam int unsigned NumCfg   = 2,
  localparam int unsigned NumVcs   = 4,
  localparam int unsigned MaxPorts = 7,
  localparam int unsigned MaxOut   = 8,
  localparam int unsigned MaxReq   = 9,
  localparam int unsigned MaxPortW = 3,
  localparam int unsigned MaxIdxW  = 4
) (
  input  wire logic                                           clk_i,
  input  wire logic                                           rst_i,
  input  wire logic [NumCfg-1:0][MaxPorts-1:0][MaxOut-1:0]    in_tgt_i,
  input  wire logic [NumCfg-1:0][MaxPorts-1:0][MaxPortW-1:0]  in_port_i,
  input  wire logic [NumCfg-1:0][MaxPorts-1:0]                in_hi_i,
  input  wire logic [NumCfg-1:0][MaxPorts-1:0]                in_head_i,
  input  wire logic [NumCfg-1:0][MaxPorts-1:0]                lane_valid_i,
  input  wire logic [NumCfg-1:0]                              up_valid_i,
  input  wire logic [NumCfg-1:0][MaxOut-1:0]                  up_tgt_i,
  input  wire logic [NumCfg-1:0][MaxOut-1:0][NumVcs-1:0]      avail_i,
  input  wire logic [NumCfg-1:0][MaxOut-1:0][NumVcs-1:0]      busy_i,
  output logic      [NumCfg-1:0][MaxOut-1:0][MaxReq-1:0]      grant_o,
  output logic      [NumCfg-1:0][MaxOut-1:0][MaxIdxW-1:0]     grant_idx_o,
  output logic      [NumCfg-1:0][MaxPorts-1:0]                in_elig_o,
  output logic      [NumCfg-1:0][MaxPorts-1:0]                in_won_o,
  output logic      [NumCfg-1:0][MaxPorts-1:0]                lane_grant_o,
  output logic      [NumCfg-1:0]                              up_grant_o
);
  for (genvar k = 0; k < NumCfg; k++) begin : g_cfg
    localparam int unsigned NumDims  = (k == 0) ? 1 : 3;
    localparam int unsigned NumPorts = 2 * NumDims + 1;
    localparam int unsigned NumOut   = NumPorts + 1;
    localparam int unsigned NumReq   = NumPorts + 2;
    localparam int unsigned PortW    = $clog2(NumOut);
    localparam int unsigned IdxW     = $clog2(NumReq);

    logic [NumPorts-1:0][NumOut-1:0] in_tgt;
    logic [NumPorts-1:0][PortW-1:0]  in_port;
    logic [NumOut-1:0][NumVcs-1:0]   avail, busy;
    logic [NumOut-1:0][NumReq-1:0]   grant;
    logic [NumOut-1:0][IdxW-1:0]     grant_idx;
    logic [NumPorts-1:0]             in_elig, in_won, lane_grant;

    for (genvar i = 0; i < NumPorts; i++) begin : g_in
      assign in_tgt[i]  = in_tgt_i[k][i][NumOut-1:0];
      assign in_port[i] = in_port_i[k][i][PortW-1:0];
    end
    for (genvar o = 0; o < NumOut; o++) begin : g_out
      assign avail[o]          = avail_i[k][o];
      assign busy[o]           = busy_i[k][o];
      assign grant_o[k][o]     = MaxReq'(grant[o]);
      assign grant_idx_o[k][o] = MaxIdxW'(grant_idx[o]);
    end
    for (genvar o = NumOut; o < MaxOut; o++) begin : g_out_pad
      assign grant_o[k][o]     = '0;
      assign grant_idx_o[k][o] = '0;
    end

    canopy_switch_alloc #(.NumDims(NumDims), .NumVcs(NumVcs)) u_dut (
      .clk_i,
      .rst_i,
      .in_tgt_i     (in_tgt),
      .in_port_i    (in_port),
      .in_hi_i      (in_hi_i[k][NumPorts-1:0]),
      .in_head_i    (in_head_i[k][NumPorts-1:0]),
      .lane_valid_i (lane_valid_i[k][NumPorts-1:0]),
      .up_valid_i   (up_valid_i[k]),
      .up_tgt_i     (up_tgt_i[k][NumOut-1:0]),
      .avail_i      (avail),
      .busy_i       (busy),
      .grant_o      (grant),
      .grant_idx_o  (grant_idx),
      .in_elig_o    (in_elig),
      .in_won_o     (in_won),
      .lane_grant_o (lane_grant),
      .up_grant_o   (up_grant_o[k])
    );

    assign in_elig_o[k]    = MaxPorts'(in_elig);
    assign in_won_o[k]     = MaxPorts'(in_won);
    assign lane_grant_o[k] = MaxPorts'(lane_grant);
  end

  // The narrow config's padding is driven (random) but unused.
  wire logic unused_pad = ^{in_tgt_i, in_port_i, in_hi_i, in_head_i, lane_valid_i, up_tgt_i,
                            avail_i, busy_i};
endmodule

`default_nettype wire
