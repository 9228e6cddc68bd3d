// canopy_unit_grant_fifo_tb.sv: test top for the canopy_grant_fifo unit test (driven by
// grant_fifo_test.cpp): one canopy_grant_fifo of 64-bit words, 4 deep (small, so that the
// test fills it often), reporting the top 8 bits of a granted word and showing bits 7..3
// of the offered one from its registers (the side field); its ports brought out.
`default_nettype none

module canopy_unit_grant_fifo_tb (
  input  wire logic        clk_i,
  input  wire logic        rst_i,
  input  wire logic        push_i,
  input  wire logic        push_next_i,
  input  wire logic [63:0] push_data_i,
  output logic             out_valid_o,
  output logic      [63:0] out_data_o,
  input  wire logic        grant_i,
  output logic             taken_o,
  output logic      [7:0]  taken_tag_o,
  output logic      [4:0]  out_side_o
);
  canopy_grant_fifo #(.Width(64), .Depth(4), .TagW(8), .SideLsb(3), .SideW(5)) u_dut (
    .clk_i,
    .rst_i,
    .push_i,
    .push_next_i,
    .push_data_i,
    .out_valid_o,
    .out_data_o,
    .grant_i,
    .taken_o,
    .taken_tag_o,
    .out_side_o
  );
endmodule

`default_nettype wire
