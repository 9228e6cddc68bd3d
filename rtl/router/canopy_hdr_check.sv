// canopy_hdr_check: legality of a packet's routing word, and its length in flits.
//
// Interface contract (purely combinational)
//   - word0_i is header word 0 (the head flit's low 64 bits); vc_i the VC it arrived on.
//   - bad_type_o: a type this router does not implement, or not on this VC (point-to-point
//     types -- PUT, ACK, CONFIG, BCAST_REQ, GET, GET_RESP -- on P2P_LO/P2P_HI, broadcasts
//     on COLL_DOWN, reduce contributions on COLL_UP);
//     bad_dst_o: a destination outside
//     the torus (a coordinate >= its dimension's size, or nonzero in a dimension the router
//     does not have); bad_len_o: len above canopy_pkg::MaxPayloadBytes.
//   - flits_o: how many flits the packet must have, header included; meaningful only when
//     bad_len_o is low. The receiver checks the tail against it.
`default_nettype none
`include "canopy_assert.svh"

module canopy_hdr_check #(
  parameter int unsigned NumDims   = 0,  /// torus dimensions, 1..4; must be set
  parameter int unsigned FlitWidth = 0, /// bits per flit: 64, 128 or 256; must be set
  parameter int unsigned NumVcs    = 4,  /// VCs per link
  localparam int unsigned VcW = $clog2(NumVcs),
  localparam int unsigned FlitBytes = FlitWidth / 8,
  localparam int unsigned HdrFlits = (canopy_pkg::HeaderBits + FlitWidth - 1) / FlitWidth,
  localparam int unsigned MaxFlits = HdrFlits + canopy_pkg::MaxPayloadBytes / FlitBytes,
  localparam int unsigned FlitsW = $clog2(MaxFlits + 1)
) (
  input  wire logic [canopy_pkg::WordBits-1:0]                         word0_i,
  input  wire logic [VcW-1:0]                                          vc_i,
  input  wire logic [canopy_pkg::MaxDims-1:0][canopy_pkg::CoordBits:0] torus_size_i,
  output logic                                                         bad_type_o,
  output logic                                                         bad_dst_o,
  output logic                                                         bad_len_o,
  output logic      [FlitsW-1:0]                                       flits_o
);
  localparam int unsigned LenW      = canopy_pkg::HdrLenBits;

  `CANOPY_STATIC_ASSERT(gen_dims_check, NumDims >= 1 && NumDims <= canopy_pkg::MaxDims,
                        "NumDims must be 1..4")
  `CANOPY_STATIC_ASSERT(gen_width_check, FlitWidth == 64 || FlitWidth == 128 || FlitWidth == 256,
                        "FlitWidth must be 64, 128 or 256")

  /* verilator lint_off UNUSEDSIGNAL */  // only the routing fields matter here
  canopy_pkg::hdr_t hdr;
  /* verilator lint_on UNUSEDSIGNAL */
  assign hdr = canopy_pkg::hdr_t'({{canopy_pkg::WordBits{1'b0}}, word0_i});

  // Types this router implements, each on its VCs. Reserved types are refused until their
  // unit exists.
  wire logic p2p_vc  = vc_i == VcW'(canopy_pkg::VcP2pLo) || vc_i == VcW'(canopy_pkg::VcP2pHi);
  wire logic p2p_ok  = hdr.ptype == canopy_pkg::PKT_PUT || hdr.ptype == canopy_pkg::PKT_ACK
                       || hdr.ptype == canopy_pkg::PKT_CONFIG || hdr.ptype == canopy_pkg::PKT_BCAST_REQ
                       || hdr.ptype == canopy_pkg::PKT_GET || hdr.ptype == canopy_pkg::PKT_GET_RESP;
  wire logic down_ok = vc_i == VcW'(canopy_pkg::VcCollDown) && hdr.ptype == canopy_pkg::PKT_BCAST;
  wire logic up_ok   = vc_i == VcW'(canopy_pkg::VcCollUp) && hdr.ptype == canopy_pkg::PKT_REDUCE;
  assign bad_type_o = !((p2p_vc && p2p_ok) || down_ok || up_ok);

  always_comb begin
    bad_dst_o = 1'b0;
    for (int unsigned d = 0; d < canopy_pkg::MaxDims; d++) begin
      if (d < NumDims) begin
        if ({1'b0, hdr.dst[d]} >= torus_size_i[d]) bad_dst_o = 1'b1;
      end else if (hdr.dst[d] != '0) begin
        bad_dst_o = 1'b1;
      end
    end
  end

  assign bad_len_o = hdr.len > LenW'(canopy_pkg::MaxPayloadBytes);

  // ceil(len / FlitBytes); only meaningful for a legal len, whose result fits FlitsW.
  wire logic [LenW:0] len_rounded = {1'b0, hdr.len} + (LenW + 1)'(FlitBytes - 1);
  assign flits_o = FlitsW'(HdrFlits) + FlitsW'(len_rounded >> $clog2(FlitBytes));
endmodule

`default_nettype wire
