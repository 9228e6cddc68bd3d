// canopy_unit_credit_counter_tb.sv: test top for the canopy_credit_counter unit tests
// (driven by credit_counter_test.cpp, positive and negative).
//
// Instantiates canopy_credit_counter once per parameter set, Credits 1, 3 and 16 (config
// k = 0, 1, 2), sharing the clock and reset, each with its own consume/return/available
// bit of the packed ports. credit_counter_test.cpp holds the same table.
`default_nettype none

module canopy_unit_credit_counter_tb #(
  localparam int unsigned NumCfg = 3
) (
  input  wire logic              clk_i,
  input  wire logic              rst_i,
  input  wire logic [NumCfg-1:0] consume_i,
  input  wire logic [NumCfg-1:0] return_i,
  output logic      [NumCfg-1:0] available_o
);
  for (genvar k = 0; k < NumCfg; k++) begin : g_cfg
    localparam int unsigned Credits = (k == 0) ? 1 : (k == 1) ? 3 : 16;

    canopy_credit_counter #(.Credits(Credits)) u_dut (
      .clk_i,
      .rst_i,
      .consume_i   (consume_i[k]),
      .return_i    (return_i[k]),
      .available_o (available_o[k]),
      .claim_i     (1'b0),
      .ready_o     (unused_ready),
      .room_o      (unused_room)
    );
    wire logic unused_ready, unused_room;
  end
endmodule

`default_nettype wire
