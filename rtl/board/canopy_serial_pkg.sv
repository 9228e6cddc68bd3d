// generated from spec/serial.toml by tools/gen_serial.py; do not edit.
//
// canopy_serial_pkg: the serial bridge's frame format, status codes and board
// register offsets (spec/serial.toml, docs/serial-protocol.md), and the CRC-16 update.
`default_nettype none
/* verilator lint_off UNUSEDPARAM */  // a package defines more than any one block uses
package canopy_serial_pkg;
  localparam logic [7:0]  SyncReq     = 8'hC5;
  localparam logic [7:0]  SyncRsp     = 8'h5C;
  localparam int unsigned HeaderBytes = 9;
  localparam int unsigned CrcBytes    = 2;
  localparam int unsigned MaxWords    = 64;
  localparam logic [15:0] CrcInit     = 16'hFFFF;
  localparam logic [15:0] CrcPoly     = 16'h1021;
  localparam logic [15:0] CrcCheck    = 16'h29B1;  // CRC of "123456789"
  localparam int unsigned IdleBytes   = 64;
  localparam int unsigned OpWriteBit  = 7;
  localparam int unsigned SpaceBits   = 2;
  localparam int unsigned AxiTimeout  = 65536;
  localparam logic [31:0] BoardMagic  = 32'h42504E43;
  localparam int unsigned BoardVersion = 1;
  localparam int unsigned LineBytes   = 64;
  localparam logic [1:0]  SpaceBar0  = 2'd0;  // the node's BAR0 through its AXI4 slave (CSRs at 0x0000, inje
  localparam logic [1:0]  SpaceMem   = 2'd1;  // the node's board memory, the host memory stand-in its DMA wr
  localparam logic [1:0]  SpaceBoard = 2'd2;  // the board's own registers (below); node selects the node of 
  localparam logic [7:0]  StOk        = 8'd0;
  localparam logic [7:0]  StCrc       = 8'd1;
  localparam logic [7:0]  StBadOp     = 8'd2;
  localparam logic [7:0]  StRange     = 8'd3;
  localparam logic [7:0]  StAxi       = 8'd4;
  localparam logic [7:0]  StTimeout   = 8'd5;
  localparam logic [7:0]  StBusy      = 8'd6;
  localparam logic [11:0] BregId        = 12'h000;
  localparam logic [11:0] BregClock     = 12'h008;
  localparam logic [11:0] BregCycles    = 12'h010;
  localparam logic [11:0] BregDirtySum  = 12'h018;
  localparam logic [11:0] BregMem       = 12'h020;
  localparam logic [11:0] BregStCtrl    = 12'h028;
  localparam logic [11:0] BregStStatus  = 12'h030;
  localparam logic [11:0] BregStGot     = 12'h038;
  localparam logic [11:0] BregStWant    = 12'h040;
  localparam logic [11:0] BregErrCrc    = 12'h048;
  localparam logic [11:0] BregErrFrame  = 12'h050;
  localparam logic [11:0] BregErrAxi    = 12'h058;
  localparam logic [11:0] BregFrames    = 12'h060;
  localparam logic [11:0] BregErrDma    = 12'h068;
  localparam logic [11:0] BregMemFill   = 12'h070;
  localparam logic [11:0] BregMemFillWord = 12'h078;
  localparam logic [11:0] BregDirty0    = 12'h080;
  localparam int unsigned BregDirty0Count = 16;

  // One byte into a CRC-16 (MSB first, no reflection).
  function automatic logic [15:0] crc16_byte(input logic [15:0] crc, input logic [7:0] data);
    logic [15:0] c;
    c = crc ^ {data, 8'h00};
    for (int unsigned i = 0; i < 8; i++) begin
      c = c[15] ? ((c << 1) ^ CrcPoly) : (c << 1);
    end
    crc16_byte = c;
  endfunction
endpackage
/* verilator lint_on UNUSEDPARAM */

`default_nettype wire
