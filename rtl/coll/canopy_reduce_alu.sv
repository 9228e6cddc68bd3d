// canopy_reduce_alu: one 64-bit word of an element-wise reduce.
//
// Interface contract (purely combinational; the reduce engine registers both sides)
//   - a_i, b_i: two words of packed elements (little-endian, as in the payload).
//   - The operation, decoded from the reduce's op and dtype by canopy_reduce_alu_ctl (the
//     engine registers it a stage ahead): sum_i, minmax_i (min_i: the lesser, else the
//     greater), is64_i (one 64-bit element, else two 32-bit ones), flip_lo_i / flip_hi_i
//     (the low / high half ends in a sign bit). y_o = a op b per element; with neither
//     sum_i nor minmax_i (an op or dtype refused before here), y_o = a_i.
//   - SUM wraps modulo 2^bits (two's complement for the signed types); MIN/MAX compare
//     signed for I32/I64 and unsigned for U32/U64.
//
// Built for an FPGA's carry chains: one 64-bit adder whose carry into bit 32 is cut for the
// 32-bit types, and two 32-bit magnitude comparisons (each half's sign bit flipped when
// it is a signed element's top half) plus the high halves' equality for 64-bit compares.
`default_nettype none

module canopy_reduce_alu (
  input  wire logic [63:0] a_i,
  input  wire logic [63:0] b_i,
  input  wire logic        sum_i,
  input  wire logic        minmax_i,
  input  wire logic        min_i,
  input  wire logic        is64_i,
  input  wire logic        flip_lo_i,
  input  wire logic        flip_hi_i,
  output logic      [63:0] y_o
);
  // Sum: the low half's carry continues into the high half only for 64-bit elements.
  logic [32:0] sum_lo;
  logic [31:0] sum_hi;
  always_comb begin
    sum_lo = {1'b0, a_i[31:0]} + {1'b0, b_i[31:0]};
    sum_hi = a_i[63:32] + b_i[63:32] + 32'(is64_i && sum_lo[32]);
  end

  // Comparisons.
  logic lt_lo, lt_hi, eq_hi, lt64;
  always_comb begin
    lt_lo = {a_i[31] ^ flip_lo_i, a_i[30:0]} < {b_i[31] ^ flip_lo_i, b_i[30:0]};
    lt_hi = {a_i[63] ^ flip_hi_i, a_i[62:32]} < {b_i[63] ^ flip_hi_i, b_i[62:32]};
    eq_hi = a_i[63:32] == b_i[63:32];
    lt64  = lt_hi || (eq_hi && lt_lo);
  end

  always_comb begin
    logic take_a_lo, take_a_hi, lo_lt, hi_lt;
    lo_lt = is64_i ? lt64 : lt_lo;
    hi_lt = is64_i ? lt64 : lt_hi;
    // MIN keeps a when a < b; MAX keeps a unless a < b.
    take_a_lo = min_i ? lo_lt : !lo_lt;
    take_a_hi = min_i ? hi_lt : !hi_lt;
    if (sum_i) begin
      y_o = {sum_hi, sum_lo[31:0]};
    end else if (minmax_i) begin
      y_o = {take_a_hi ? a_i[63:32] : b_i[63:32], take_a_lo ? a_i[31:0] : b_i[31:0]};
    end else begin
      y_o = a_i;
    end
  end
endmodule

`default_nettype wire
