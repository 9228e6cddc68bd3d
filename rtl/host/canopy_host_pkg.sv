// canopy_host_pkg: definitions shared by the blocks of the host interface
// (rtl/host/canopy_host_if.sv and its children). Written by hand, not generated: nothing here is
// visible to the host except the ejection ring status codes and the sizes, which
// docs/host-interface.md defines.
//
//   - DMA tags. Every request to canopy_dma_writer carries a tag that comes back, in request
//     order, once the write response of its last burst has returned (a zero-length request
//     completes in its turn without a burst). The tag says what completed: the payload of
//     a PUT (RX_PUTS counts it, an ACK is owed), the zero-length marker of a refused PUT (a
//     failed ACK is owed), an ejection ring entry, the writeback block, the payload of a
//     broadcast, a tree's completion counter, or the marker of a CONFIG packet (applied or
//     refused; an ACK is owed if asked for); for one-sided gets (canopy_get_table,
//     canopy_get_server), the payload of a GET_RESP (the last one of its get, or another),
//     the zero-length marker of a refused last GET_RESP, and the zero-length marker of an
//     accepted GET request (once it completes, every DMA write issued before the request
//     has been answered, so the target's reads see them); and the write-back of an atomic
//     (canopy_amo_unit waits for it before its response and its next atomic).
//   - Ejection ring entry status codes and the sizes of the host-side structures.
`default_nettype none

/* verilator lint_off UNUSEDPARAM */  // a package defines more than any one block uses
package canopy_host_pkg;

  // What a DMA completion reports (the kind field of a tag).
  localparam int unsigned DmaKindBits = 4;
  localparam logic [DmaKindBits-1:0] DmaPutOk   = 4'd0;  // payload of a PUT inside the window
  localparam logic [DmaKindBits-1:0] DmaPutFail = 4'd1;  // zero-length marker of a refused PUT
  localparam logic [DmaKindBits-1:0] DmaEntry   = 4'd2;  // ejection ring entry
  localparam logic [DmaKindBits-1:0] DmaWb      = 4'd3;  // writeback block
  localparam logic [DmaKindBits-1:0] DmaBcast   = 4'd4;  // payload of a broadcast inside the window
  localparam logic [DmaKindBits-1:0] DmaCount   = 4'd5;  // a completion counter word (tree, get target)
  localparam logic [DmaKindBits-1:0] DmaCfgOk   = 4'd6;  // zero-length marker of an applied CONFIG
  localparam logic [DmaKindBits-1:0] DmaCfgFail = 4'd7;  // zero-length marker of a refused CONFIG
  localparam logic [DmaKindBits-1:0] DmaGetData = 4'd8;  // payload of a GET_RESP that is not its get's last
  localparam logic [DmaKindBits-1:0] DmaGetLast = 4'd9;  // payload (or empty marker) of a get's last GET_RESP
  localparam logic [DmaKindBits-1:0] DmaGetFail = 4'd10; // marker of a last GET_RESP that failed or was refused
  localparam logic [DmaKindBits-1:0] DmaGetMark = 4'd11; // marker of an accepted GET request
  localparam logic [DmaKindBits-1:0] DmaAmo     = 4'd12; // the new value an atomic writes back (canopy_amo_unit)
  localparam logic [DmaKindBits-1:0] DmaGetBad  = 4'd13; // marker of a FAILED GET_RESP that is not its get's last (a refused read at the target)

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
  localparam logic [7:0] EjStatusCut         = 8'd3;  // a NOTIFY put a dying link cut: it failed

  // Host-side structure sizes, in bytes, and the DMA request length field.
  localparam int unsigned EjEntryBytes = 32;
  localparam int unsigned WbBytes      = 64;
  localparam int unsigned DmaLenBits   = 9;   // 0..MaxPayloadBytes (256)

  // ACK packets: acknowledged puts (refused ones included) and the refused subset, 20 bits
  // each, in the header's offset field.
  localparam int unsigned AckCountBits = 20;

  // A GET request as the target holds it (canopy_get_table, canopy_get_server): who asked,
  // the part of the range still to be served, and where it goes. Widths as in canopy_pkg
  // (coordinates, header offset, get_len; canopy_host_if checks them) and the table index
  // of MaxNodes up to 4096. An atomic (a GET with len 24, served by canopy_amo_unit) also
  // holds its operation and operands; len is then the object's size (4 or 8).
  typedef struct packed {
    logic [15:0] src;      // the requester's coordinates (a canopy_pkg::coords_t)
    logic [11:0] idx;      // the requester's linear node number (its table entry)
    logic        fresh;    // not served at all yet: waits for its DMA marker
    logic        failed;   // refused: answered by one FAILED response, nothing read
    logic [39:0] offset;   // next byte to serve, in this node's window
    logic [39:0] reply;    // where that byte goes, in the requester's window
    logic [16:0] len;      // bytes still to serve, 1..MaxGetBytes
    logic        amo;      // an atomic (never given back: served whole by the AMO unit)
    logic        fetch;    // atomic: the response carries the old value
    logic [2:0]  aop;      // atomic: the operation (a canopy_pkg::amo_op_e, below 8)
    logic [63:0] operand;  // atomic: the operand
    logic [63:0] compare;  // atomic: the compare value (CSWAP)
  } get_entry_t;
  localparam int unsigned GetEntryBits = 16 + 12 + 1 + 1 + 40 + 40 + 17 + 1 + 1 + 3 + 64 + 64;

  // The injection window of BAR0 (canopy_regs_pkg::InjWindowOffset to BarBytes), in
  // 64-bit words.
  localparam int unsigned InjWindowWords = 4096;
endpackage
/* verilator lint_on UNUSEDPARAM */

`default_nettype wire
