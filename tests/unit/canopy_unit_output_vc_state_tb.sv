// canopy_unit_output_vc_state_tb.sv: test top for the canopy_output_vc_state unit test
// (driven by output_vc_state_test.cpp).
//
// Instantiates canopy_output_vc_state once per parameter set, (NumVcs, Credits, CollCredits)
// = (4, 1, 1), (4, 3, 2) and (2, 8, 8) (config k = 0..2), sharing the clock and reset.
// Each config has its own slice of the packed ports, padded to the widest: 4 VCs.
// output_vc_state_test.cpp holds the same table.
`default_nettype none

module canopy_unit_output_vc_state_tb #(
  localparam int unsigned NumCfg    = 3,
  localparam int unsigned MaxVcs    = 4
) (
  input  wire logic                           clk_i,
  input  wire logic                           rst_i,
  input  wire logic [NumCfg-1:0][MaxVcs-1:0]  grant_i,
  input  wire logic [NumCfg-1:0]              grant_last_i,
  input  wire logic [NumCfg-1:0][MaxVcs-1:0]  sent_i,
  input  wire logic [NumCfg-1:0][MaxVcs-1:0]  credit_i,
  output logic      [NumCfg-1:0][MaxVcs-1:0]  ready_o,
  output logic      [NumCfg-1:0][MaxVcs-1:0]  busy_o
);
  for (genvar k = 0; k < NumCfg; k++) begin : g_cfg
    localparam int unsigned NumVcs  = (k == 2) ? 2 : 4;
    localparam int unsigned Credits = (k == 0) ? 1 : (k == 1) ? 3 : 8;
    localparam int unsigned CollCredits = (k == 1) ? 2 : Credits;  // VCs 2 and 3

    logic [NumVcs-1:0] ready, busy;

    canopy_output_vc_state #(.NumVcs(NumVcs), .Credits(Credits), .CollCredits(CollCredits),
                             .DownCredits(CollCredits)) u_dut (
      .clk_i,
      .rst_i,
      .grant_i      (grant_i[k][NumVcs-1:0]),
      .grant_last_i (grant_last_i[k]),
      .sent_i       (sent_i[k][NumVcs-1:0]),
      .credit_i     (credit_i[k][NumVcs-1:0]),
      .ready_o      (ready),
      .busy_o       (busy),
      .down_room_o  (unused_room)
    );
    wire logic unused_room;

    assign ready_o[k] = MaxVcs'(ready);
    assign busy_o[k]  = MaxVcs'(busy);
  end

  // The narrow config's padding is driven (always 0) but unused.
  wire logic unused_pad = ^{grant_i, sent_i, credit_i};
endmodule

`default_nettype wire
