// canopy_link_pkg: what both ends of a protected link agree on (docs/link.md): the words
// on the wire, the control word's fields, and the CRC.
//
// The wire carries one word per cycle: a 64-bit body and a side band {valid, ctl, last,
// vc}. A data word (ctl = 0) is one router flit (body, last, vc). A control word (ctl = 1)
// has its CRC in body[63:32] and its fields (ctl_fields_t) in body[31:0]:
//   - END closes a frame: the data words sent since the previous control word. Its CRC
//     covers every data word of the frame ({last, vc, body} each) and then its own fields,
//     so one check at the END accepts or refuses the whole frame. Frames carry sequence
//     numbers and are delivered exactly once, in order (go-back-N).
//   - STATE (not END): acknowledgement, NAK epoch and one VC's credit count, nothing else;
//     its CRC covers its fields only. Idempotent: losing one costs nothing but time.
// Every control word carries the sender's receive state (ack, nak) and one cumulative
// credit count; an END may carry one collective slot credit (a tree id), which, being in
// a sequenced frame, is delivered exactly once.
//
// CRC: CRC-32C (Castagnoli, polynomial 0x1EDC6F41), MSB first, initial value all ones,
// no final inversion. 32 bits: every burst of up to 32 bits is caught, and a random
// corruption escapes with probability 2^-32 (docs/link.md says why 32 and not 16).
`default_nettype none

package canopy_link_pkg;
  localparam int unsigned BodyW   = 64;         // bits of a wire word's body (= a flit)
  localparam int unsigned SeqW    = 5;          // frame sequence numbers, modulo 32
  localparam int unsigned NakW    = 2;          // NAK epoch: a new value asks for a replay
  localparam int unsigned CntW    = 7;          // cumulative credit counts, modulo 128
  localparam int unsigned CvcW    = 2;          // the VC a credit count is for (<= 4 VCs)
  localparam int unsigned TreeW   = 6;          // slot credit's tree id: canopy_pkg::HdrTreeBits
                                                // (Yosys cannot read one package's parameter in
                                                // another; canopy_link checks they agree)
  localparam logic [31:0] CrcPoly = 32'h1EDC6F41;
  // Read only by the link's modules: a design without a protected link (canopy_node
  // today) compiles the package and leaves them unused.
  /* verilator lint_off UNUSEDPARAM */
  localparam int unsigned MaxFrames = (1 << SeqW) / 2;  // frames in flight, at most
  localparam logic [31:0] CrcInit = 32'hFFFFFFFF;
  /* verilator lint_on UNUSEDPARAM */

  // A control word's fields (body[31:0]).
  typedef struct packed {
    logic             is_end;    // closes a frame (sequenced); otherwise a STATE word
    logic [SeqW-1:0]  seq;       // END: the frame's sequence number
    logic [SeqW-1:0]  ack;       // the sender's last frame received in order
    logic [NakW-1:0]  nak;       // the sender's NAK epoch
    logic [CvcW-1:0]  cvc;       // credit count: which VC
    logic [CntW-1:0]  ccount;    //               credits returned on it so far, modulo 128
    logic             ev_valid;  // END: the frame carries a slot credit
    logic [TreeW-1:0] ev_tree;   //      of this tree
    logic [31-1-2*SeqW-NakW-CvcW-CntW-1-TreeW:0] rsvd;  // zero
  } ctl_fields_t;

  // CRC-32C of a data word ({last, vc, body}, LSB = body bit 0), continuing from crc.
  function automatic logic [31:0] crc_word(input logic [31:0] crc, input logic [BodyW+2:0] d);
    logic [31:0] c;
    c = crc;
    for (int i = BodyW + 2; i >= 0; i--) c = {c[30:0], 1'b0} ^ ((c[31] ^ d[i]) ? CrcPoly : 32'h0);
    crc_word = c;
  endfunction

  // CRC-32C of a control word's fields, continuing from crc.
  function automatic logic [31:0] crc_fields(input logic [31:0] crc, input logic [31:0] d);
    logic [31:0] c;
    c = crc;
    for (int i = 31; i >= 0; i--) c = {c[30:0], 1'b0} ^ ((c[31] ^ d[i]) ? CrcPoly : 32'h0);
    crc_fields = c;
  endfunction
endpackage

`default_nettype wire
