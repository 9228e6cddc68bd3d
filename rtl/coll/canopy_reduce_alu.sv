// canopy_reduce_alu: one 64-bit word of an element-wise reduce.
//
// Interface contract (purely combinational)
//   - a_i, b_i: two words of packed elements (little-endian, as in the payload);
//     op_i: canopy_pkg::op_e (SUM, MIN, MAX), dtype_i: canopy_pkg::dtype_e (I32, U32: two
//     elements per word; I64, U64: one). y_o = a op b per element.
//   - SUM wraps modulo 2^bits (two's complement for the signed types); MIN/MAX compare
//     signed for I32/I64 and unsigned for U32/U64. Other op/dtype codes are refused before
//     reaching here (canopy_reduce_engine); they give a_i.
`default_nettype none

module canopy_reduce_alu (
  input  wire logic [63:0] a_i,
  input  wire logic [63:0] b_i,
  input  wire logic [2:0]  op_i,
  input  wire logic [2:0]  dtype_i,
  output logic      [63:0] y_o
);
  function automatic logic [31:0] lane32(input logic [31:0] a, input logic [31:0] b,
                                         input logic [2:0] op, input logic signed_cmp);
    logic lt;
    lt = signed_cmp ? ($signed(a) < $signed(b)) : (a < b);
    unique case (op)
      3'(canopy_pkg::OP_SUM): lane32 = a + b;
      3'(canopy_pkg::OP_MIN): lane32 = lt ? a : b;
      3'(canopy_pkg::OP_MAX): lane32 = lt ? b : a;
      default:                lane32 = a;
    endcase
  endfunction

  function automatic logic [63:0] lane64(input logic [63:0] a, input logic [63:0] b,
                                         input logic [2:0] op, input logic signed_cmp);
    logic lt;
    lt = signed_cmp ? ($signed(a) < $signed(b)) : (a < b);
    unique case (op)
      3'(canopy_pkg::OP_SUM): lane64 = a + b;
      3'(canopy_pkg::OP_MIN): lane64 = lt ? a : b;
      3'(canopy_pkg::OP_MAX): lane64 = lt ? b : a;
      default:                lane64 = a;
    endcase
  endfunction

  always_comb begin
    unique case (dtype_i)
      3'(canopy_pkg::DT_I32): y_o = {lane32(a_i[63:32], b_i[63:32], op_i, 1'b1),
                                     lane32(a_i[31:0], b_i[31:0], op_i, 1'b1)};
      3'(canopy_pkg::DT_U32): y_o = {lane32(a_i[63:32], b_i[63:32], op_i, 1'b0),
                                     lane32(a_i[31:0], b_i[31:0], op_i, 1'b0)};
      3'(canopy_pkg::DT_I64): y_o = lane64(a_i, b_i, op_i, 1'b1);
      3'(canopy_pkg::DT_U64): y_o = lane64(a_i, b_i, op_i, 1'b0);
      default:                y_o = a_i;
    endcase
  end
endmodule

`default_nettype wire
