// canopy_unit_reduce_alu_tb.sv: test top for the canopy_reduce_alu unit test (driven by
// reduce_alu_test.cpp): the (purely combinational) ALU with its ports brought out.
`default_nettype none

module canopy_unit_reduce_alu_tb (
  input  wire logic [63:0] a_i,
  input  wire logic [63:0] b_i,
  input  wire logic [2:0]  op_i,
  input  wire logic [2:0]  dtype_i,
  output logic      [63:0] y_o
);
  canopy_reduce_alu u_dut (
    .a_i,
    .b_i,
    .op_i,
    .dtype_i,
    .y_o
  );
endmodule

`default_nettype wire
