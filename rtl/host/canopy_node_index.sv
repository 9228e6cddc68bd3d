// canopy_node_index: a node's linear number from its coordinates, for tables indexed by
// node (the get request table, the per-target get completion counters, the acknowledgement
// table).
//
// Interface contract
//   - coord_i: coordinates as in a packet header; torus_size_i: the torus size per
//     dimension (unused dimensions 1), as the router has them. The torus size is
//     configuration: after it changes, idx_o is right from the MaxDims-th cycle on.
//   - idx_o: x + kx*y + kx*ky*z + kx*ky*kz*w, the numbering libcanopy's node ids use,
//     truncated to IdW bits; ok_o: the coordinates lie inside the torus and the number is
//     below MaxNodes, so idx_o names a table entry of its own (a corrupt header cannot
//     alias another node's entry); in_torus_o: the coordinates lie inside the torus (a
//     number at or above MaxNodes then means a torus larger than the table). All three
//     combinational from coord_i.
//
// Why strides in registers: the nested form x + kx*(y + ky*(z + kz*w)) chains three
// multipliers behind a header register (two DSP blocks in series on an ECP5, about 11 ns);
// with the per-dimension strides registered (they change only with the configuration), the
// products are independent and side by side, and only an adder tree follows them.
`default_nettype none
`include "canopy_assert.svh"

module canopy_node_index #(
  parameter int unsigned MaxNodes = 256,  /// table entries: a power of two, 4..4096
  localparam int unsigned IdW = $clog2(MaxNodes)
) (
  input  wire logic                                                    clk_i,
  input  wire canopy_pkg::coords_t                                     coord_i,
  input  wire logic [canopy_pkg::MaxDims-1:0][canopy_pkg::CoordBits:0] torus_size_i,
  output logic      [IdW-1:0]                                          idx_o,
  output logic                                                         ok_o,
  output logic                                                         in_torus_o
);
  localparam int unsigned Dims = canopy_pkg::MaxDims;
  localparam int unsigned LinW = 17;   // linear numbers up to 16^4 - 1, plus headroom

  `CANOPY_STATIC_ASSERT(gen_nodes_check, MaxNodes >= 4 && MaxNodes <= 4096
                        && (MaxNodes & (MaxNodes - 1)) == 0,
                        "MaxNodes must be a power of two, 4..4096")

  // stride_q[d]: the product of the sizes of the dimensions below d (stride_q[0] = 1),
  // built one multiplication per cycle from the one below.
  logic [Dims-1:0][LinW-1:0] stride_q;
  always_ff @(posedge clk_i) begin
    stride_q[0] <= LinW'(1);
    for (int unsigned d = 1; d < Dims; d++) begin
      stride_q[d] <= stride_q[d-1] * LinW'(torus_size_i[d-1]);
    end
  end

  logic [LinW-1:0] lin;
  logic            in_torus;
  always_comb begin
    lin      = '0;
    in_torus = 1'b1;
    for (int unsigned d = 0; d < Dims; d++) begin
      lin = lin + LinW'(coord_i[d]) * stride_q[d];
      if ({1'b0, coord_i[d]} >= torus_size_i[d]) in_torus = 1'b0;
    end
  end

  assign idx_o = IdW'(lin);
  assign ok_o       = in_torus && lin < LinW'(MaxNodes);
  assign in_torus_o = in_torus;
endmodule

`default_nettype wire
