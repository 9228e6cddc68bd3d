// canopy_sdp_ram: simple dual-port RAM, one write port and one registered read port.
//
// Interface contract
//   - we_i: wdata_i is written at waddr_i on the clock edge.
//   - re_i: rdata_o shows the word at raddr_i from the next cycle on (held while re_i is
//     low). A read of the address written on the same edge returns the old word; a read
//     issued the cycle after a write sees it.
// The shape FPGA block RAMs (ECP5 DP16KD, Xilinx RAMB) and ASIC SRAM macros share; no
// reset on the data.
`default_nettype none

module canopy_sdp_ram #(
  parameter int unsigned Width = 0,  /// bits per word; must be set
  parameter int unsigned Depth = 0,  /// words; must be set
  localparam int unsigned AddrW = Depth > 1 ? $clog2(Depth) : 1
) (
  input  wire logic             clk_i,
  input  wire logic             we_i,
  input  wire logic [AddrW-1:0] waddr_i,
  input  wire logic [Width-1:0] wdata_i,
  input  wire logic             re_i,
  input  wire logic [AddrW-1:0] raddr_i,
  output logic      [Width-1:0] rdata_o
);
  logic [Width-1:0] mem_q [Depth];

  always_ff @(posedge clk_i) begin
    if (we_i) mem_q[waddr_i] <= wdata_i;
  end

  always_ff @(posedge clk_i) begin
    if (re_i) rdata_o <= mem_q[raddr_i];
  end
endmodule

`default_nettype wire
