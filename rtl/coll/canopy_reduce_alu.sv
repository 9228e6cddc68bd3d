// canopy_reduce_alu: one 64-bit word of an element-wise reduce.
//
// Interface contract (purely combinational; the reduce engine registers both sides)
//   - a_i, b_i: two words of packed elements (little-endian, as in the payload);
//     op_i: canopy_pkg::op_e (SUM, MIN, MAX), dtype_i: canopy_pkg::dtype_e (I32, U32: two
//     elements per word; I64, U64: one). y_o = a op b per element.
//   - SUM wraps modulo 2^bits (two's complement for the signed types); MIN/MAX compare
//     signed for I32/I64 and unsigned for U32/U64. Other op/dtype codes are refused before
//     reaching here (canopy_reduce_engine); they give a_i.
//
// Built for an FPGA's carry chains: one 64-bit adder whose carry into bit 32 is cut for the
// 32-bit types, and two 32-bit magnitude comparisons (each half's sign bit flipped when
// it is a signed element's top half) plus the high halves' equality for 64-bit compares.
`default_nettype none

module canopy_reduce_alu (
  input  wire logic [63:0] a_i,
  input  wire logic [63:0] b_i,
  input  wire logic [2:0]  op_i,
  input  wire logic [2:0]  dtype_i,
  output logic      [63:0] y_o
);
  wire logic is64    = dtype_i == 3'(canopy_pkg::DT_I64) || dtype_i == 3'(canopy_pkg::DT_U64);
  wire logic is32    = dtype_i == 3'(canopy_pkg::DT_I32) || dtype_i == 3'(canopy_pkg::DT_U32);
  wire logic flip_lo = dtype_i == 3'(canopy_pkg::DT_I32);                     // lo half is a signed element
  wire logic flip_hi = flip_lo || dtype_i == 3'(canopy_pkg::DT_I64);         // hi half's top is a sign

  // Sum: the low half's carry continues into the high half only for 64-bit elements.
  logic [32:0] sum_lo;
  logic [31:0] sum_hi;
  always_comb begin
    sum_lo = {1'b0, a_i[31:0]} + {1'b0, b_i[31:0]};
    sum_hi = a_i[63:32] + b_i[63:32] + 32'(is64 && sum_lo[32]);
  end

  // Comparisons.
  logic lt_lo, lt_hi, eq_hi, lt64;
  always_comb begin
    lt_lo = {a_i[31] ^ flip_lo, a_i[30:0]} < {b_i[31] ^ flip_lo, b_i[30:0]};
    lt_hi = {a_i[63] ^ flip_hi, a_i[62:32]} < {b_i[63] ^ flip_hi, b_i[62:32]};
    eq_hi = a_i[63:32] == b_i[63:32];
    lt64  = lt_hi || (eq_hi && lt_lo);
  end

  always_comb begin
    logic take_a_lo, take_a_hi, lo_lt, hi_lt;
    lo_lt = is64 ? lt64 : lt_lo;
    hi_lt = is64 ? lt64 : lt_hi;
    // MIN keeps a when a < b; MAX keeps a unless a < b.
    take_a_lo = op_i == 3'(canopy_pkg::OP_MIN) ? lo_lt : !lo_lt;
    take_a_hi = op_i == 3'(canopy_pkg::OP_MIN) ? hi_lt : !hi_lt;
    if (!is64 && !is32) begin
      y_o = a_i;
    end else if (op_i == 3'(canopy_pkg::OP_SUM)) begin
      y_o = {sum_hi, sum_lo[31:0]};
    end else if (op_i == 3'(canopy_pkg::OP_MIN) || op_i == 3'(canopy_pkg::OP_MAX)) begin
      y_o = {take_a_hi ? a_i[63:32] : b_i[63:32], take_a_lo ? a_i[31:0] : b_i[31:0]};
    end else begin
      y_o = a_i;
    end
  end
endmodule

`default_nettype wire
