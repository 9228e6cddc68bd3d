// canopy_unit_grant_head_tb.sv: test top for the canopy_grant_head unit test (driven by
// grant_head_test.cpp): one canopy_grant_head of 64-bit words, its ports brought out.
`default_nettype none

module canopy_unit_grant_head_tb (
  input  wire logic        clk_i,
  input  wire logic        rst_i,
  input  wire logic        in_valid_i,
  input  wire logic [63:0] in_data_i,
  input  wire logic        bypass_i,
  output logic             in_ready_o,
  output logic             out_valid_o,
  output logic      [63:0] out_data_o,
  input  wire logic        grant_i,
  output logic             taken_o,
  output logic      [63:0] taken_data_o
);
  canopy_grant_head #(.Width(64)) u_dut (
    .clk_i,
    .rst_i,
    .in_valid_i,
    .in_data_i,
    .bypass_i,
    .bypass_data_i (in_data_i),
    .in_ready_o,
    .out_valid_o,
    .out_data_o,
    .grant_i,
    .taken_o,
    .taken_data_o
  );
endmodule

`default_nettype wire
