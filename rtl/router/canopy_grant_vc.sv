// canopy_grant_vc: per output, the output VC (one-hot) and framing of the flit the switch
// allocator granted this cycle, for the output's canopy_output_vc_state (which takes them at
// the end of the cycle: a credit spent, the VC owned by a head, freed by a tail).
//
// Interface contract (purely combinational)
//   - grant_i[o]: canopy_switch_alloc's grants of output o, at most one bit set; requesters
//     0..NumPorts-1 are the inputs, NumPorts the output's broadcast lane, NumPorts+1 the up
//     lane (requester layout as in canopy_switch_alloc).
//   - in_vc_i / in_last_i: each input's requesting flit's output VC and tail bit;
//     lane_last_i[o]: output o's broadcast lane flit is a tail (the lanes send on
//     COLL_DOWN; the collective port has none); up_last_i: the up lane's flit is a tail
//     (it sends on COLL_UP).
//   - grant_oh_o[o]: the VC granted on output o, one-hot, zero when nothing is granted;
//     grant_last_o[o]: that flit is a tail.
// One AND-OR per output over the requesters (the grants are one-hot), no priority chain.
// canopy_router and the allocator's formal harness (formal/canopy_switch_alloc_formal.sv)
// use this one module.
`default_nettype none

module canopy_grant_vc #(
  parameter int unsigned NumDims = 0,  /// torus dimensions, 1..4; must be set
  parameter int unsigned NumVcs  = 4,  /// virtual channels per port
  localparam int unsigned NumPorts = 2 * NumDims + 1,
  localparam int unsigned NumOut   = NumPorts + 1,
  localparam int unsigned NumReq   = NumPorts + 2,
  localparam int unsigned VcW      = $clog2(NumVcs)
) (
  input  wire logic [NumOut-1:0][NumReq-1:0] grant_i,
  input  wire logic [NumPorts-1:0][VcW-1:0]  in_vc_i,
  input  wire logic [NumPorts-1:0]           in_last_i,
  input  wire logic [NumPorts-1:0]           lane_last_i,
  input  wire logic                          up_last_i,
  output logic      [NumOut-1:0][NumVcs-1:0] grant_oh_o,
  output logic      [NumOut-1:0]             grant_last_o
);
  localparam int unsigned LaneReq = NumPorts;
  localparam int unsigned UpReq   = NumPorts + 1;

  always_comb begin
    for (int unsigned o = 0; o < NumOut; o++) begin
      logic [VcW-1:0] vc;
      logic           last;
      vc   = '0;
      last = 1'b0;
      for (int unsigned i = 0; i < NumPorts; i++) begin
        vc   = vc | ({VcW{grant_i[o][i]}} & in_vc_i[i]);
        last = last | (grant_i[o][i] & in_last_i[i]);
      end
      if (o < NumPorts) begin
        vc   = vc | ({VcW{grant_i[o][LaneReq]}} & VcW'(canopy_pkg::VcCollDown));
        last = last | (grant_i[o][LaneReq] & lane_last_i[o]);
      end
      vc   = vc | ({VcW{grant_i[o][UpReq]}} & VcW'(canopy_pkg::VcCollUp));
      last = last | (grant_i[o][UpReq] & up_last_i);
      grant_oh_o[o]   = grant_i[o] != '0 ? NumVcs'(1) << vc : '0;
      grant_last_o[o] = last;
    end
  end
endmodule

`default_nettype wire
