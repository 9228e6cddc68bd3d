// canopy_unit_skid_buffer_tb.sv: test top for the canopy_skid_buffer unit test (driven by
// skid_buffer_test.cpp): one canopy_skid_buffer of 64-bit words, its ports brought out.
`default_nettype none

module canopy_unit_skid_buffer_tb (
  input  wire logic        clk_i,
  input  wire logic        rst_i,
  input  wire logic        in_valid_i,
  input  wire logic [63:0] in_data_i,
  output logic             in_ready_o,
  output logic             out_valid_o,
  output logic      [63:0] out_data_o,
  input  wire logic        out_ready_i
);
  canopy_skid_buffer #(.Width(64)) u_dut (
    .clk_i,
    .rst_i,
    .in_valid_i,
    .in_data_i,
    .in_ready_o,
    .out_valid_o,
    .out_data_o,
    .out_ready_i
  );
endmodule

`default_nettype wire
