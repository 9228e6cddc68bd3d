// canopy_assert.svh: the two assertion forms every canopy RTL block uses.
//
//   `CANOPY_ASSERT(label, cond, msg)  cond holds in every cycle out of reset (rst_i low);
//                                     the block must have clk_i and rst_i;
//   `CANOPY_STATIC_ASSERT(label, cond, msg)  checked once at elaboration, for parameter
//                                     legality; stops simulation, synthesis and formal.
//
// One macro source, three uses of `CANOPY_ASSERT, chosen by what the tool defines:
//   - formal (Yosys `read_verilog -formal`, which defines FORMAL; SymbiYosys, `make formal`):
//     an immediate assertion, in a block named `label`, evaluated in every step out of
//     reset, which the solver proves (or refutes with a trace). Yosys keeps neither the
//     message nor a statement label (it does not scope labels inside generate blocks, so
//     two loop iterations would clash): a failure is named by its source line, the call
//     site (formal/run.py prints the label found there).
//   - synthesis (SYNTHESIS defined, FORMAL not; Yosys defines SYNTHESIS by default):
//     nothing. Assertions state invariants the design relies on; they are not logic.
//   - simulation (neither defined; Verilator needs --assert): checked on every rising clk_i
//     edge out of reset, reporting "<instance path>: <msg>" with $error.
// The formal and simulation forms check the same thing, cond while rst_i is low: the
// simulation form samples both just before the edge, the formal one in that same step.
`ifndef CANOPY_ASSERT_SVH
`define CANOPY_ASSERT_SVH

`ifdef FORMAL
`define CANOPY_ASSERT(label, cond, msg) \
  always @* begin : label \
    if (!rst_i) assert (cond); \
  end
`elsif SYNTHESIS
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
