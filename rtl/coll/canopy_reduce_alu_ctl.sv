// canopy_reduce_alu_ctl: what canopy_reduce_alu does with a word, decoded from the reduce's
// op and dtype, so that the reduce engine can register it a stage ahead of the ALU and the
// ALU's path starts at its comparators and adder rather than at the decode.
//
// Interface contract (purely combinational)
//   - op_i: canopy_pkg::op_e (SUM, MIN, MAX), dtype_i: canopy_pkg::dtype_e. The integer
//     types (I32, U32: two elements per word; I64, U64: one) are reduced; any other op or
//     dtype is refused before the ALU (canopy_reduce_engine) and decodes to neither sum_o
//     nor minmax_o (the ALU then gives its a_i).
//   - sum_o: add; minmax_o: keep the lesser (min_o) or the greater of a and b per element;
//     is64_o: 64-bit elements; flip_lo_o / flip_hi_o: the low / high half's top bit is a
//     sign bit (a signed element ends there), so comparisons flip it.
`default_nettype none

module canopy_reduce_alu_ctl (
  input  wire logic [2:0] op_i,
  input  wire logic [2:0] dtype_i,
  output logic            sum_o,
  output logic            minmax_o,
  output logic            min_o,
  output logic            is64_o,
  output logic            flip_lo_o,
  output logic            flip_hi_o
);
  wire logic is64 = dtype_i == 3'(canopy_pkg::DT_I64) || dtype_i == 3'(canopy_pkg::DT_U64);
  wire logic is32 = dtype_i == 3'(canopy_pkg::DT_I32) || dtype_i == 3'(canopy_pkg::DT_U32);
  assign sum_o     = (is64 || is32) && op_i == 3'(canopy_pkg::OP_SUM);
  assign minmax_o  = (is64 || is32) && (op_i == 3'(canopy_pkg::OP_MIN) || op_i == 3'(canopy_pkg::OP_MAX));
  assign min_o     = op_i == 3'(canopy_pkg::OP_MIN);
  assign is64_o    = is64;
  assign flip_lo_o = dtype_i == 3'(canopy_pkg::DT_I32);
  assign flip_hi_o = dtype_i == 3'(canopy_pkg::DT_I32) || dtype_i == 3'(canopy_pkg::DT_I64);
endmodule

`default_nettype wire
