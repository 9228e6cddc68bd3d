// canopy_crossbar: one router output's switch: a one-hot AND-OR multiplexer.
//
// Interface contract (purely combinational)
//   - sel_i: one-hot (or zero) over the NumIn sources, from the output's arbiter.
//   - data_i[k]: source k's word; data_o = the selected word, zero when none is.
// One AND-OR level per source and no encoded select: the grant bits drive the gates
// directly, which is the shortest path from an arbiter into the output register.
`default_nettype none

module canopy_crossbar #(
  parameter int unsigned NumIn = 0,  /// sources; must be set
  parameter int unsigned Width = 0   /// bits per word; must be set
) (
  input  wire logic [NumIn-1:0]            sel_i,
  input  wire logic [NumIn-1:0][Width-1:0] data_i,
  output logic      [Width-1:0]            data_o
);
  always_comb begin
    data_o = '0;
    for (int unsigned k = 0; k < NumIn; k++) data_o = data_o | ({Width{sel_i[k]}} & data_i[k]);
  end
endmodule

`default_nettype wire
