// canopy_unit_router_input_tb.sv: test top for the canopy_router_input unit test (driven by
// router_input_test.cpp).
//
// Instantiates canopy_router_input once per port of a NumDims 3 router (PortIndex k =
// 0..6: the six links, then the local port; config k), NumVcs 4, 64-bit flits, 16-deep
// VC buffers, as canopy_router does. Every config shares the clock, reset, coordinates,
// torus size and neighbour facts, and has its own slice of the packed ports. An input's
// staged request always wins when it is eligible (won_i = elig_i && a request), so a
// packet that is taken leaves at a flit per cycle and one that is refused is drained.
`default_nettype none

module canopy_unit_router_input_tb #(
  localparam int unsigned NumCfg  = 7,
  localparam int unsigned NumDims = 3,
  localparam int unsigned NumVcs  = 4,
  localparam int unsigned NumOut  = 2 * NumDims + 2,
  localparam int unsigned PortW   = $clog2(NumOut),
  localparam int unsigned LinkW   = canopy_pkg::CoordBits + 2
) (
  input  wire logic                                                    clk_i,
  input  wire logic                                                    rst_i,
  input  wire canopy_pkg::coords_t                                     my_coord_i,
  input  wire logic [canopy_pkg::MaxDims-1:0][canopy_pkg::CoordBits:0] torus_size_i,
  input  wire logic [2*NumDims-1:0][LinkW-1:0]                         link_i,

  input  wire logic [NumCfg-1:0]                 rx_valid_i,
  input  wire logic [NumCfg-1:0][63:0]           rx_flit_i,
  input  wire logic [NumCfg-1:0]                 rx_last_i,
  input  wire logic [NumCfg-1:0][1:0]            rx_vc_i,
  output logic      [NumCfg-1:0][NumVcs-1:0]     credit_o,
  output logic      [NumCfg-1:0][NumOut-1:0]     req_tgt_o,
  output logic      [NumCfg-1:0][PortW-1:0]      req_port_o,
  output logic      [NumCfg-1:0]                 req_head_o,
  output logic      [NumCfg-1:0]                 req_last_o,
  output logic      [NumCfg-1:0]                 won_o,
  output logic      [NumCfg-1:0]                 err_bad_type_o,
  output logic      [NumCfg-1:0]                 err_bad_dst_o,
  output logic      [NumCfg-1:0]                 err_bad_len_o
);
  for (genvar k = 0; k < NumCfg; k++) begin : g_cfg
    logic            won;
    logic [1:0]      unused_vc;
    logic            unused_hi;
    logic [63:0]     unused_flit;
    logic            elig;

    assign elig     = req_tgt_o[k] != '0;
    assign won      = elig;
    assign won_o[k] = won;

    canopy_router_input #(
      .NumDims   (NumDims),
      .NumVcs    (NumVcs),
      .FlitWidth (64),
      .BufDepth  (16),
      .CollBufDepth (8),
      .DownBufDepth (8),
      .PortIndex (k)
    ) u_dut (
      .clk_i,
      .rst_i,
      .my_coord_i,
      .torus_size_i,
      .link_i,
      .rx_valid_i     (rx_valid_i[k]),
      .rx_flit_i      (rx_flit_i[k]),
      .rx_last_i      (rx_last_i[k]),
      .rx_vc_i        (rx_vc_i[k]),
      .credit_o       (credit_o[k]),
      .req_tgt_o      (req_tgt_o[k]),
      .req_port_o     (req_port_o[k]),
      .req_vc_o       (unused_vc),
      .req_hi_o       (unused_hi),
      .req_head_o     (req_head_o[k]),
      .req_last_o     (req_last_o[k]),
      .st_flit_o      (unused_flit),
      .won_i          (won),
      .elig_i         (elig),
      .err_bad_type_o (err_bad_type_o[k]),
      .err_bad_dst_o  (err_bad_dst_o[k]),
      .err_bad_len_o  (err_bad_len_o[k])
    );
    wire logic unused = ^{unused_vc, unused_hi, unused_flit};
  end
endmodule

`default_nettype wire
