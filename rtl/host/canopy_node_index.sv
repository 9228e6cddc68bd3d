// canopy_node_index: a node's linear number from its coordinates, for tables indexed by
// node (the get request table, the per-target get completion counters).
//
// Interface contract (purely combinational)
//   - coord_i: coordinates as in a packet header; torus_size_i: the torus size per
//     dimension (unused dimensions 1), as the router has them.
//   - idx_o: x + kx*(y + ky*(z + kz*w)), the numbering libcanopy's node ids use, truncated
//     to IdW bits; ok_o: the coordinates lie inside the torus and the number is below
//     MaxNodes, so idx_o names a table entry of its own (a corrupt header cannot alias
//     another node's entry). The same numbering as canopy_ack_table's.
`default_nettype none
`include "canopy_assert.svh"

module canopy_node_index #(
  parameter int unsigned MaxNodes = 256,  /// table entries: a power of two, 4..4096
  localparam int unsigned IdW = $clog2(MaxNodes)
) (
  input  wire canopy_pkg::coords_t                                     coord_i,
  input  wire logic [canopy_pkg::MaxDims-1:0][canopy_pkg::CoordBits:0] torus_size_i,
  output logic      [IdW-1:0]                                          idx_o,
  output logic                                                         ok_o
);
  localparam int unsigned LinW = 17;   // linear numbers up to 16^4 - 1, plus headroom

  `CANOPY_STATIC_ASSERT(gen_nodes_check, MaxNodes >= 4 && MaxNodes <= 4096
                        && (MaxNodes & (MaxNodes - 1)) == 0,
                        "MaxNodes must be a power of two, 4..4096")

  logic [LinW-1:0] lin;
  logic            in_torus;
  always_comb begin
    lin      = LinW'(coord_i[canopy_pkg::MaxDims-1]);
    in_torus = 1'b1;
    for (int d = canopy_pkg::MaxDims - 2; d >= 0; d--) begin
      lin = lin * LinW'(torus_size_i[d]) + LinW'(coord_i[d]);
    end
    for (int d = 0; d < canopy_pkg::MaxDims; d++) begin
      if ({1'b0, coord_i[d]} >= torus_size_i[d]) in_torus = 1'b0;
    end
  end

  assign idx_o = IdW'(lin);
  assign ok_o  = in_torus && lin < LinW'(MaxNodes);
endmodule

`default_nettype wire
