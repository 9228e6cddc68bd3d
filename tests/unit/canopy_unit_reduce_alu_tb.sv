// canopy_unit_reduce_alu_tb.sv: test top for the canopy_reduce_alu unit test (driven by
// reduce_alu_test.cpp): the (purely combinational) ALU behind its decode of op and dtype
// (canopy_reduce_alu_ctl), with their ports brought out.
`default_nettype none

module canopy_unit_reduce_alu_tb (
  input  wire logic [63:0] a_i,
  input  wire logic [63:0] b_i,
  input  wire logic [2:0]  op_i,
  input  wire logic [2:0]  dtype_i,
  output logic      [63:0] y_o
);
  logic sum, minmax, min, is64, flip_lo, flip_hi;
  canopy_reduce_alu_ctl u_ctl (
    .op_i,
    .dtype_i,
    .sum_o     (sum),
    .minmax_o  (minmax),
    .min_o     (min),
    .is64_o    (is64),
    .flip_lo_o (flip_lo),
    .flip_hi_o (flip_hi)
  );
  canopy_reduce_alu u_dut (
    .a_i,
    .b_i,
    .sum_i     (sum),
    .minmax_i  (minmax),
    .min_i     (min),
    .is64_i    (is64),
    .flip_lo_i (flip_lo),
    .flip_hi_i (flip_hi),
    .y_o
  );
endmodule

`default_nettype wire
