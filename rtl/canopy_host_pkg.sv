// canopy_host_pkg: definitions shared by the blocks of the host interface
// (rtl/canopy_host_if.sv and its children). Written by hand, not generated: nothing here is
// visible to the host except the ejection ring status codes and the sizes, which
// docs/host-interface.md defines.
//
//   - DMA tags. Every request to canopy_dma_writer carries a tag that comes back, in request
//     order, once the write response of its last burst has returned (a zero-length request
//     completes in its turn without a burst). The tag says what completed: the payload of
//     a PUT (RX_PUTS counts it, an ACK is owed), the zero-length marker of a refused PUT (a
//     failed ACK is owed), an ejection ring entry, the writeback block, the payload of a
//     broadcast, a tree's completion counter, or the marker of a CONFIG packet (applied or
//     refused; an ACK is owed if asked for).
//   - Ejection ring entry status codes and the sizes of the host-side structures.
`default_nettype none

/* verilator lint_off UNUSEDPARAM */  // a package defines more than any one block uses
package canopy_host_pkg;

  // What a DMA completion reports (the kind field of a tag).
  localparam int unsigned DmaKindBits = 3;
  localparam logic [DmaKindBits-1:0] DmaPutOk   = 3'd0;  // payload of a PUT inside the window
  localparam logic [DmaKindBits-1:0] DmaPutFail = 3'd1;  // zero-length marker of a refused PUT
  localparam logic [DmaKindBits-1:0] DmaEntry   = 3'd2;  // ejection ring entry
  localparam logic [DmaKindBits-1:0] DmaWb      = 3'd3;  // writeback block
  localparam logic [DmaKindBits-1:0] DmaBcast   = 3'd4;  // payload of a broadcast inside the window
  localparam logic [DmaKindBits-1:0] DmaCount   = 3'd5;  // a tree's completion counter word
  localparam logic [DmaKindBits-1:0] DmaCfgOk   = 3'd6;  // zero-length marker of an applied CONFIG
  localparam logic [DmaKindBits-1:0] DmaCfgFail = 3'd7;  // zero-length marker of a refused CONFIG

  // A DMA tag: what completed, and for a PUT whether its source asked for an ACK and who
  // the source is (its coordinates, as in the packet header).
  typedef struct packed {
    logic [DmaKindBits-1:0] kind;
    logic                   ack_req;
    logic [15:0]            src;    // a canopy_pkg::coords_t
  } dma_tag_t;
  localparam int unsigned DmaTagBits = DmaKindBits + 1 + 16;

  // Ejection ring entry status (word 2, bits 7..0).
  localparam logic [7:0] EjStatusOkNotify    = 8'd0;
  localparam logic [7:0] EjStatusBounds      = 8'd1;
  localparam logic [7:0] EjStatusUnsupported = 8'd2;

  // Host-side structure sizes, in bytes, and the DMA request length field.
  localparam int unsigned EjEntryBytes = 32;
  localparam int unsigned WbBytes      = 64;
  localparam int unsigned DmaLenBits   = 9;   // 0..MaxPayloadBytes (256)

  // ACK packets: acknowledged puts (refused ones included) and the refused subset, 20 bits
  // each, in the header's offset field.
  localparam int unsigned AckCountBits = 20;

  // The injection window of BAR0 (canopy_regs_pkg::InjWindowOffset to BarBytes), in
  // 64-bit words.
  localparam int unsigned InjWindowWords = 4096;
endpackage
/* verilator lint_on UNUSEDPARAM */

`default_nettype wire
