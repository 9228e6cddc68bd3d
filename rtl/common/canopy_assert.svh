// canopy_assert.svh: the two assertion forms every canopy RTL block uses.
//
//   `CANOPY_ASSERT(label, cond, msg)  checked on every rising clk_i edge out of reset
//                                     (simulation only; Verilator needs --assert);
//   `CANOPY_STATIC_ASSERT(label, cond, msg)  checked once at elaboration, for parameter
//                                     legality; stops both simulation and synthesis.
//
// Synthesis defines SYNTHESIS, which compiles the clocked form away: assertions state
// invariants the design relies on, they are not logic.
`ifndef CANOPY_ASSERT_SVH
`define CANOPY_ASSERT_SVH

`ifdef SYNTHESIS
`define CANOPY_ASSERT(label, cond, msg)
`else
`define CANOPY_ASSERT(label, cond, msg) \
  always_ff @(posedge clk_i) begin : label \
    if (!rst_i) assert (cond) else $error("%m: %s", msg); \
  end
`endif

`define CANOPY_STATIC_ASSERT(label, cond, msg) \
  if (!(cond)) begin : label \
    $error("%m: parameter check failed: %s", msg); \
  end

`endif
