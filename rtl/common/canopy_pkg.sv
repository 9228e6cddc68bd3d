// generated from spec/packet.toml by tools/gen_packet.py; do not edit.
//
// canopy_pkg: the packet format shared by every RTL block. Referenced as
// canopy_pkg::name (never imported with ::*, which Yosys 0.23 rejects).
`default_nettype none

/* verilator lint_off UNUSEDPARAM */  // a package defines more than any one block uses
package canopy_pkg;

  localparam int unsigned HeaderBits      = 128;
  localparam int unsigned WordBits        = 64;
  localparam int unsigned MaxPayloadBytes = 256;
  localparam int unsigned MaxGetBytes     = 65536;
  // The largest packet in WordBits words: its header and a full payload (a collective
  // working-memory slot; a whole packet's room at a child, docs/collectives.md).
  localparam int unsigned MaxPacketWords  = HeaderBits / WordBits + MaxPayloadBytes * 8 / WordBits;
  localparam int unsigned CoordBits       = 4;
  localparam int unsigned MaxDims         = 4;

  localparam int unsigned MinVcs          = 4;

  // Virtual channel roles (see docs/router.md).
  localparam int unsigned VcP2pLo = 0;  // point-to-point, before the dateline of the current dimension
  localparam int unsigned VcP2pHi = 1;  // point-to-point, after crossing the dateline of the current dimension
  localparam int unsigned VcCollUp = 2;  // collective subnet, toward the tree root (reduce contributions; at the root port, arriving broadcast requests)
  localparam int unsigned VcCollDown = 3;  // collective subnet, away from the tree root (broadcasts)

  // Whether VC v belongs to the collective subnet (its buffers and credits are sized
  // apart from the point-to-point VCs').
  function automatic bit vc_is_coll(input int unsigned v);
    vc_is_coll = v == VcCollUp || v == VcCollDown;
  endfunction

  typedef logic [CoordBits-1:0] coord_t;
  typedef coord_t [MaxDims-1:0] coords_t;  // index d = dimension (0 = X)

  typedef enum logic [3:0] {
    PKT_INVALID = 4'd0,  // never valid; an all-zero head flit is refused
    PKT_PUT = 4'd1,  // point-to-point remote write of `len` bytes at `offset` in the destination's window
    PKT_BCAST = 4'd2,  // broadcast travelling down a tree on COLL_DOWN; each member writes the payload at `offset` in its window
    PKT_BCAST_REQ = 4'd3,  // broadcast request: sent point-to-point to the root of `tree` (dst = the root), which broadcasts it down
    PKT_REDUCE = 4'd4,  // reduce contribution travelling up a tree on COLL_UP, hop by hop; `len` bytes of `dtype` elements (0: a barrier), combined with `op` per (tree, rid); the result goes down the tree as a BCAST with rflags RESULT
    PKT_CONFIG = 4'd5,  // configuration packet (Mini Packet): point-to-point; the destination writes tree entry `tree` := `offset` bits 31..0 (ACK_REQ: acknowledged, refused entries as failed)
    PKT_ACK = 4'd6,  // acknowledgement of puts: `offset` bits 19..0 count acknowledged puts, bits 39..20 how many of them were refused
    PKT_GET = 4'd7,  // one-sided read request, point-to-point from the requester (src) to the target (dst): `get_len` bytes at `offset` in the target's window, to be written at `reply_offset` in the requester's window (both in the one payload word below, `len` = 8); the target's host interface answers with GET_RESP packets, without its software. With `len` = 24 it is an atomic (AMO): a read-modify-write of the `get_len` (4 or 8) bytes at `offset` by the target's host interface (payload: the request word, the operand, the compare value), answered by one GET_RESP
    PKT_GET_RESP = 4'd8  // data of a GET, point-to-point from the target back to the requester: `len` bytes written at `offset` in the destination's window like a PUT; flag LAST marks the get's final response, rflag FAILED a refused get (no payload)
  } pkt_type_e;

  typedef enum logic [2:0] {
    OP_SUM = 3'd0,
    OP_MIN = 3'd1,
    OP_MAX = 3'd2
  } op_e;

  typedef enum logic [2:0] {
    DT_I32 = 3'd0,
    DT_U32 = 3'd1,
    DT_I64 = 3'd2,
    DT_U64 = 3'd3,
    DT_F32 = 3'd4,
    DT_F64 = 3'd5
  } dtype_e;

  typedef enum logic [3:0] {
    AMO_FETCH = 4'd0,  // new = old (nothing is written)
    AMO_SET = 4'd1,  // new = operand (set; with amo_fetch a swap)
    AMO_CSWAP = 4'd2,  // new = operand if old == compare, else old (nothing is written)
    AMO_ADD = 4'd3,  // new = old + operand, modulo 2^(8 * size) (add, inc, fetch-add, signal add)
    AMO_AND = 4'd4,  // new = old & operand
    AMO_OR = 4'd5,  // new = old | operand
    AMO_XOR = 4'd6  // new = old ^ operand
  } amo_op_e;

  // Bits of the header's flags field.
  localparam int unsigned FlagAckReq = 0;  // PUT: the target acknowledges the put once its data is in memory
  localparam int unsigned FlagNotify = 1;  // PUT, BCAST: the target also reports the arrival in its ejection ring
  localparam int unsigned FlagSkipSrc = 2;  // BCAST_REQ/BCAST: the source node's memory is left untouched (its host interface still counts its copy)
  localparam int unsigned FlagLast = 3;  // GET_RESP: the final response of its get; the requester counts the get complete once this one is written
  // Bits of the header's rflags field.
  localparam int unsigned RflagAll = 0;  // REDUCE: the result goes to every member (allreduce, barrier); else only `dst` writes it
  localparam int unsigned RflagFailed = 1;  // result BCAST: the reduce failed (contributions disagreed or were duplicated); its payload is not written. GET_RESP (with LAST, len 0): the target refused the get
  localparam int unsigned RflagResult = 2;  // BCAST: this is the result of reduce `rid` (the host interface reports it per (tree, rid))
  localparam int unsigned RflagRetry = 3;  // REDUCE, result BCAST (with FAILED): a router on the tree had no free accumulator for the reduce and refused it (counted in REDUCES_REFUSED); every member re-issues it (libcanopy does, transparently)

  // The header as one 128-bit value: word 1 in bits [127:64], word 0 in [63:0].
  typedef struct packed {
    logic            rsvd1_0;
    logic [3:0]      rflags;  // reduce flags (table below)
    logic [7:0]      group;  // subgroup id (group mask index) within the tree
    logic [2:0]      dtype;  // reduce element type
    logic [2:0]      op;  // reduce operation
    logic [4:0]      rid;  // reduce id, 0..31 in flight per tree
    logic [39:0]     offset;  // byte offset of the payload in the target's registered memory window
    logic [3:0]      rsvd0_0;
    logic            la_hi;  // lookahead route: 1 when the packet leaves the receiving router on P2P_HI (past a dateline), 0 for P2P_LO
    logic [3:0]      la_port;  // lookahead route: the output port this packet takes at the router receiving it (2d, 2d+1: dimension d +/-; 2n: local; 2n+1: the collective unit), written by the sending router on point-to-point heads; hosts send 0, and routers deliver 0 to hosts
    logic [5:0]      tree;  // collective tree id
    logic [8:0]      len;  // payload length in bytes, 0..max_payload_bytes; fixes the packet's flit count
    coords_t         src;  // source coordinates
    coords_t         dst;  // destination coordinates; coordinates of dimensions the torus lacks must be 0
    logic [3:0]      flags;  // per-type flags (table below); unassigned bits are sent as 0
    logic [3:0]      ptype;  // packet type (table above)
  } hdr_t;

  // The collective routing table entry (one word per tree, see docs/collectives.md).
  localparam int unsigned MaxTrees   = 64;
  localparam int unsigned MaxGroups  = 8;
  localparam int unsigned TreeEntryBits = 32;
  typedef struct packed {
    logic [8:0]      rsvd0;
    logic [7:0]      groups;  // subgroups this node's host belongs to, one bit per group id
    logic [7:0]      children;  // router ports toward the children, one bit per port
    logic [3:0]      parent;  // router port toward the parent (2d: + in dimension d, 2d+1: -); ignored at the root
    logic            transit;  // this node only connects the tree: its host neither sends nor receives (groups must be 0)
    logic            root;  // this node is the tree's root (no parent)
    logic            valid;  // the entry is in use; a packet for an invalid entry is dropped and counted
  } tree_entry_t;

  // The payload word of a GET request.
  typedef struct packed {
    logic [1:0]      rsvd0;
    logic            amo_fetch;  // AMO only: the response carries the old value (a fetching AMO); else it has no payload
    logic [3:0]      amo_op;  // AMO (len 24) only: the operation (table below); an unknown one is refused
    logic [16:0]     get_len;  // bytes requested, 1..max_get_bytes; any other value is refused. AMO: the object's size, 4 or 8, and `offset` must be a multiple of it
    logic [39:0]     reply_offset;  // where the data goes: byte offset in the requester's window
  } get_req_t;
  localparam int unsigned GetReqReplyOffsetBits = 40;
  localparam int unsigned GetReqGetLenBits = 17;
  localparam int unsigned GetReqAmoOpBits = 4;
  localparam int unsigned GetReqAmoFetchBits = 1;

  // Field widths, for counters and comparisons sized like a field.
  localparam int unsigned HdrPtypeBits = 4;
  localparam int unsigned HdrFlagsBits = 4;
  localparam int unsigned HdrDstBits = 16;
  localparam int unsigned HdrSrcBits = 16;
  localparam int unsigned HdrLenBits = 9;
  localparam int unsigned HdrTreeBits = 6;
  localparam int unsigned HdrLaPortBits = 4;
  localparam int unsigned HdrLaHiBits = 1;
  localparam int unsigned HdrOffsetBits = 40;
  localparam int unsigned HdrRidBits = 5;
  localparam int unsigned HdrOpBits = 3;
  localparam int unsigned HdrDtypeBits = 3;
  localparam int unsigned HdrGroupBits = 8;
  localparam int unsigned HdrRflagsBits = 4;

endpackage
/* verilator lint_on UNUSEDPARAM */

`default_nettype wire
