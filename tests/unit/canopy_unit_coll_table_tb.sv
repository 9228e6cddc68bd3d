// canopy_unit_coll_table_tb.sv: test top for the canopy_coll_table unit test (driven by
// coll_table_test.cpp).
//
// Four tables sharing clock, reset, write port and read indices: config k has NumDims k + 1
// (2, 4, 6, 8 link ports) and 16 trees. Outputs are packed arrays indexed by config.
`default_nettype none

module canopy_unit_coll_table_tb #(
  localparam int unsigned NumCfg = 4
) (
  input  wire logic                    clk_i,
  input  wire logic                    rst_i,
  input  wire logic                    we_i,
  input  wire logic [5:0]              widx_i,
  input  wire logic [31:0]             wentry_i,
  output logic      [NumCfg-1:0]       wok_o,
  input  wire logic [5:0]              ridx_i,
  input  wire logic [5:0]              lidx_i,
  input  wire logic [5:0]              l2idx_i,
  output logic      [NumCfg-1:0][31:0] rentry_o,
  output logic      [NumCfg-1:0][31:0] lentry_o,
  output logic      [NumCfg-1:0][31:0] l2entry_o
);
  for (genvar k = 0; k < NumCfg; k++) begin : g_cfg
    canopy_pkg::tree_entry_t r, l, l2;
    canopy_coll_table #(.NumDims(k + 1), .NumTrees(16)) u_dut (
      .clk_i,
      .rst_i,
      .we_i,
      .widx_i,
      .wentry_i  (canopy_pkg::tree_entry_t'(wentry_i)),
      .wok_o     (wok_o[k]),
      .ridx_i,
      .rentry_o  (r),
      .lidx_i,
      .lentry_o  (l),
      .l2idx_i,
      .l2entry_o (l2)
    );
    assign rentry_o[k]  = 32'(r);
    assign lentry_o[k]  = 32'(l);
    assign l2entry_o[k] = 32'(l2);
  end
endmodule

`default_nettype wire
