// canopy_unit_vc_fifo_tb.sv: test top for the canopy_vc_fifo unit test (driven by
// vc_fifo_test.cpp).
//
// Instantiates canopy_vc_fifo once per parameter set, (CtlW, Depth) = (8, 4), (13, 16)
// and (1, 8) (config k = 0..2), sharing the clock and reset. Each config has its own slice
// of the packed ports, padded to the widest: 16 control bits, 5-bit counts, 4-bit slot
// pointers (the speculative one too, in a 5-bit field). vc_fifo_test.cpp holds the same table.
`default_nettype none

module canopy_unit_vc_fifo_tb #(
  localparam int unsigned NumCfg  = 3,
  localparam int unsigned MaxCtlW = 16,
  localparam int unsigned MaxCntW = 5,
  localparam int unsigned MaxPtrW = 4
) (
  input  wire logic                              clk_i,
  input  wire logic                              rst_i,
  input  wire logic [NumCfg-1:0]                 push_i,
  input  wire logic [NumCfg-1:0][MaxCtlW-1:0]    push_ctl_i,
  input  wire logic [NumCfg-1:0]                 stage_i,
  input  wire logic [NumCfg-1:0]                 rewind_i,
  input  wire logic [NumCfg-1:0][MaxCntW-1:0]    rewind_ptr_i,
  input  wire logic [NumCfg-1:0][MaxCtlW-1:0]    rewind_ctl_i,
  input  wire logic [NumCfg-1:0]                 pop_i,
  output logic      [NumCfg-1:0][MaxCntW-1:0]    count_o,
  output logic      [NumCfg-1:0][MaxPtrW-1:0]    wr_ptr_o,
  output logic      [NumCfg-1:0][MaxPtrW-1:0]    rd_ptr_o,
  output logic      [NumCfg-1:0][MaxCntW-1:0]    spec_ptr_o,
  output logic      [NumCfg-1:0]                 cand_o,
  output logic      [NumCfg-1:0][MaxCtlW-1:0]    cand_ctl_o,
  output logic      [NumCfg-1:0][MaxCtlW-1:0]    head_ctl_o,
  output logic      [NumCfg-1:0]                 none_out_o
);
  for (genvar k = 0; k < NumCfg; k++) begin : g_cfg
    localparam int unsigned CtlW  = (k == 0) ? 8 : (k == 1) ? 13 : 1;
    localparam int unsigned Depth = (k == 0) ? 4 : (k == 1) ? 16 : 8;
    localparam int unsigned PtrW  = $clog2(Depth);
    localparam int unsigned CntW  = PtrW + 1;

    logic [CntW-1:0] count;
    logic [PtrW-1:0] wr_ptr, rd_ptr, spec_ptr;
    logic [CtlW-1:0] cand_ctl, head_ctl;

    canopy_vc_fifo #(.CtlW(CtlW), .Depth(Depth)) u_dut (
      .clk_i,
      .rst_i,
      .push_i            (push_i[k]),
      .push_ctl_i        (push_ctl_i[k][CtlW-1:0]),
      .stage_i           (stage_i[k]),
      .rewind_i          (rewind_i[k]),
      .rewind_ptr_i      (rewind_ptr_i[k][PtrW-1:0]),
      .rewind_ctl_i      (rewind_ctl_i[k][CtlW-1:0]),
      .pop_i             (pop_i[k]),
      .count_o           (count),
      .wr_ptr_o          (wr_ptr),
      .rd_ptr_o          (rd_ptr),
      .spec_ptr_o        (spec_ptr),
      .cand_o            (cand_o[k]),
      .cand_ctl_o        (cand_ctl),
      .head_ctl_o        (head_ctl),
      .none_out_o        (none_out_o[k])
    );

    assign count_o[k]    = MaxCntW'(count);
    assign spec_ptr_o[k] = MaxCntW'(spec_ptr);
    assign wr_ptr_o[k]   = MaxPtrW'(wr_ptr);
    assign rd_ptr_o[k]   = MaxPtrW'(rd_ptr);
    assign cand_ctl_o[k] = MaxCtlW'(cand_ctl);
    assign head_ctl_o[k] = MaxCtlW'(head_ctl);
  end

  // The narrow configs' padding is driven (random) but unused.
  wire logic unused_pad = ^{push_ctl_i, rewind_ptr_i, rewind_ctl_i};
endmodule

`default_nettype wire
