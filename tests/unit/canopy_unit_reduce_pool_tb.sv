// canopy_unit_reduce_pool_tb.sv: test top for the canopy_reduce_pool unit test (driven by
// reduce_pool_test.cpp).
//
// Two pools sharing the clock and reset: config 0 as in the router (16 trees, 64
// accumulators), config 1 small (4 trees, 8 accumulators) so that it runs full often.
// Ports are packed arrays indexed by config, padded to the widest. reduce_pool_test.cpp
// holds the same table.
`default_nettype none

module canopy_unit_reduce_pool_tb #(
  localparam int unsigned NumCfg = 2
) (
  input  wire logic                   clk_i,
  input  wire logic                   rst_i,
  input  wire logic [NumCfg-1:0][3:0] tree_i,
  output logic      [NumCfg-1:0]      admit_o,
  output logic      [NumCfg-1:0][5:0] slot_o,
  input  wire logic [NumCfg-1:0]      alloc_i,
  input  wire logic [NumCfg-1:0]      free_i,
  input  wire logic [NumCfg-1:0][5:0] free_slot_i,
  output logic      [NumCfg-1:0][6:0] free_count_o
);
  for (genvar k = 0; k < NumCfg; k++) begin : g_cfg
    localparam int unsigned Trees = k == 0 ? 16 : 4;
    localparam int unsigned Slots = k == 0 ? 64 : 8;
    localparam int unsigned TW = $clog2(Trees);
    localparam int unsigned SW = $clog2(Slots);
    logic [SW-1:0]           slot;
    logic [$clog2(Slots+1)-1:0] count;
    // (config 0 uses every bit; config 1's upper bits are don't-care)
    wire logic unused = ^{tree_i[k], free_slot_i[k]};
    canopy_reduce_pool #(.NumTrees(Trees), .PoolSlots(Slots)) u_dut (
      .clk_i,
      .rst_i,
      .tree_i       (tree_i[k][TW-1:0]),
      .admit_o      (admit_o[k]),
      .slot_o       (slot),
      .alloc_i      (alloc_i[k]),
      .free_i       (free_i[k]),
      .free_slot_i  (free_slot_i[k][SW-1:0]),
      .free_count_o (count)
    );
    assign slot_o[k]       = 6'(slot);
    assign free_count_o[k] = 7'(count);
  end
endmodule

`default_nettype wire
