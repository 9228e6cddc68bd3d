// canopy_sdp_ram: simple dual-port RAM, one write port and one registered read port.
//
// Interface contract
//   - we_i: wdata_i is written at waddr_i on the clock edge.
//   - re_i: rdata_o shows the word at raddr_i from the next cycle on (held while re_i is
//     low). A read issued the cycle after a write sees it.
//   - A read of the address written on the same edge (a collision): with CollisionOld
//     (the default) it returns the old word. Block RAMs leave a collision between their two
//     ports undefined, so synthesis emulates "old word" with a register and a 2:1 mux per
//     bit behind the RAM (ECP5, 64 bits: 138 flip-flops and 79 LUT4, on the read data's
//     path). A user that never uses the word a collision returns sets CollisionOld = 0:
//     then the RAM is the bare block RAM, and in simulation a collision returns the old
//     word inverted, so that any use of one shows as corrupted data in the tests.
// The shape FPGA block RAMs (ECP5 DP16KD, Xilinx RAMB) and ASIC SRAM macros share; no
// reset on the data.
`default_nettype none

module canopy_sdp_ram #(
  parameter int unsigned Width = 0,     /// bits per word; must be set
  parameter int unsigned Depth = 0,     /// words; must be set
  parameter bit          CollisionOld = 1'b1,  /// a collision returns the old word (see above)
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
  if (CollisionOld) begin : gen_old
    logic [Width-1:0] mem_q [Depth];
    always_ff @(posedge clk_i) begin
      if (we_i) mem_q[waddr_i] <= wdata_i;
    end
    always_ff @(posedge clk_i) begin
      if (re_i) rdata_o <= mem_q[raddr_i];
    end
  end else begin : gen_undef
    // Yosys: no collision logic for this memory.
    (* no_rw_check *) logic [Width-1:0] mem_q [Depth];
    always_ff @(posedge clk_i) begin
      if (we_i) mem_q[waddr_i] <= wdata_i;
    end
`ifdef SYNTHESIS
    always_ff @(posedge clk_i) begin
      if (re_i) rdata_o <= mem_q[raddr_i];
    end
`else
    wire logic collide = we_i && waddr_i == raddr_i;
    always_ff @(posedge clk_i) begin
      if (re_i) rdata_o <= collide ? ~mem_q[raddr_i] : mem_q[raddr_i];
    end
`endif
  end
endmodule

`default_nettype wire
