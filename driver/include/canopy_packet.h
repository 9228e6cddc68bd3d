/* generated from spec/packet.toml by tools/gen_packet.py; do not edit. */
/* canopy_packet.h: the packet format shared by the driver and the simulation harness. */
#ifndef CANOPY_PACKET_H
#define CANOPY_PACKET_H

#include <stdint.h>

#define CANOPY_PKT_HEADER_BYTES 16u
#define CANOPY_PKT_HEADER_WORDS 2u
#define CANOPY_PKT_MAX_PAYLOAD 256u
#define CANOPY_MAX_GET_BYTES 65536u
#define CANOPY_COORD_BITS 4u
#define CANOPY_MAX_DIMS 4u
#define CANOPY_MIN_VCS 4u

enum {
    CANOPY_VC_P2P_LO = 0, /* point-to-point, before the dateline of the current dimension */
    CANOPY_VC_P2P_HI = 1, /* point-to-point, after crossing the dateline of the current dimension */
    CANOPY_VC_COLL_UP = 2, /* collective subnet, toward the tree root (reduce contributions; at the root port, arriving broadcast requests) */
    CANOPY_VC_COLL_DOWN = 3, /* collective subnet, away from the tree root (broadcasts) */
};

enum {
    CANOPY_PKT_INVALID = 0, /* never valid; an all-zero head flit is refused */
    CANOPY_PKT_PUT = 1, /* point-to-point remote write of `len` bytes at `offset` in the destination's window */
    CANOPY_PKT_BCAST = 2, /* broadcast travelling down a tree on COLL_DOWN; each member writes the payload at `offset` in its window */
    CANOPY_PKT_BCAST_REQ = 3, /* broadcast request: sent point-to-point to the root of `tree` (dst = the root), which broadcasts it down */
    CANOPY_PKT_REDUCE = 4, /* reduce contribution travelling up a tree on COLL_UP, hop by hop; `len` bytes of `dtype` elements (0: a barrier), combined with `op` per (tree, rid); the result goes down the tree as a BCAST with rflags RESULT */
    CANOPY_PKT_CONFIG = 5, /* configuration packet (Mini Packet): point-to-point; the destination writes tree entry `tree` := `offset` bits 31..0 (ACK_REQ: acknowledged, refused entries as failed) */
    CANOPY_PKT_ACK = 6, /* acknowledgement of puts: `offset` bits 19..0 count acknowledged puts, bits 39..20 how many of them were refused */
    CANOPY_PKT_GET = 7, /* one-sided read request, point-to-point from the requester (src) to the target (dst): `get_len` bytes at `offset` in the target's window, to be written at `reply_offset` in the requester's window (both in the one payload word below, `len` = 8); the target's host interface answers with GET_RESP packets, without its software. With `len` = 24 it is an atomic (AMO): a read-modify-write of the `get_len` (4 or 8) bytes at `offset` by the target's host interface (payload: the request word, the operand, the compare value), answered by one GET_RESP */
    CANOPY_PKT_GET_RESP = 8, /* data of a GET, point-to-point from the target back to the requester: `len` bytes written at `offset` in the destination's window like a PUT; flag LAST marks the get's final response, rflag FAILED a refused get (no payload) */
};

enum {
    CANOPY_OP_SUM = 0,
    CANOPY_OP_MIN = 1,
    CANOPY_OP_MAX = 2,
};

enum {
    CANOPY_DT_I32 = 0,
    CANOPY_DT_U32 = 1,
    CANOPY_DT_I64 = 2,
    CANOPY_DT_U64 = 3,
    CANOPY_DT_F32 = 4,
    CANOPY_DT_F64 = 5,
};

enum {
    CANOPY_AMO_FETCH = 0, /* new = old (nothing is written) */
    CANOPY_AMO_SET = 1, /* new = operand (set; with amo_fetch a swap) */
    CANOPY_AMO_CSWAP = 2, /* new = operand if old == compare, else old (nothing is written) */
    CANOPY_AMO_ADD = 3, /* new = old + operand, modulo 2^(8 * size) (add, inc, fetch-add, signal add) */
    CANOPY_AMO_AND = 4, /* new = old & operand */
    CANOPY_AMO_OR = 5, /* new = old | operand */
    CANOPY_AMO_XOR = 6, /* new = old ^ operand */
};

#define CANOPY_FLAG_ACK_REQ (1u << 0) /* PUT: the target acknowledges the put once its data is in memory */
#define CANOPY_FLAG_NOTIFY (1u << 1) /* PUT, BCAST: the target also reports the arrival in its ejection ring */
#define CANOPY_FLAG_SKIP_SRC (1u << 2) /* BCAST_REQ/BCAST: the source node's memory is left untouched (its host interface still counts its copy) */
#define CANOPY_FLAG_LAST (1u << 3) /* GET_RESP: the final response of its get; the requester counts the get complete once this one is written */
#define CANOPY_RFLAG_ALL (1u << 0) /* REDUCE: the result goes to every member (allreduce, barrier); else only `dst` writes it */
#define CANOPY_RFLAG_FAILED (1u << 1) /* result BCAST: the reduce failed (contributions disagreed or were duplicated); its payload is not written. GET_RESP (with LAST, len 0): the target refused the get */
#define CANOPY_RFLAG_RESULT (1u << 2) /* BCAST: this is the result of reduce `rid` (the host interface reports it per (tree, rid)) */
#define CANOPY_RFLAG_RETRY (1u << 3) /* REDUCE, result BCAST (with FAILED): a router on the tree had no free accumulator for the reduce and refused it (counted in REDUCES_REFUSED); every member re-issues it (libcanopy does, transparently) */

/* packet type (table above) */
#define CANOPY_HDR_PTYPE_WORD 0u
#define CANOPY_HDR_PTYPE_LSB 0u
#define CANOPY_HDR_PTYPE_WIDTH 4u
/* per-type flags (table below); unassigned bits are sent as 0 */
#define CANOPY_HDR_FLAGS_WORD 0u
#define CANOPY_HDR_FLAGS_LSB 4u
#define CANOPY_HDR_FLAGS_WIDTH 4u
/* destination coordinates; coordinates of dimensions the torus lacks must be 0 */
#define CANOPY_HDR_DST_WORD 0u
#define CANOPY_HDR_DST_LSB 8u
#define CANOPY_HDR_DST_WIDTH 16u
/* source coordinates */
#define CANOPY_HDR_SRC_WORD 0u
#define CANOPY_HDR_SRC_LSB 24u
#define CANOPY_HDR_SRC_WIDTH 16u
/* payload length in bytes, 0..max_payload_bytes; fixes the packet's flit count */
#define CANOPY_HDR_LEN_WORD 0u
#define CANOPY_HDR_LEN_LSB 40u
#define CANOPY_HDR_LEN_WIDTH 9u
/* collective tree id */
#define CANOPY_HDR_TREE_WORD 0u
#define CANOPY_HDR_TREE_LSB 49u
#define CANOPY_HDR_TREE_WIDTH 6u
/* lookahead route: the output port this packet takes at the router receiving it (2d, 2d+1: dimension d +/-; 2n: local; 2n+1: the collective unit), written by the sending router on point-to-point heads; hosts send 0, and routers deliver 0 to hosts */
#define CANOPY_HDR_LA_PORT_WORD 0u
#define CANOPY_HDR_LA_PORT_LSB 55u
#define CANOPY_HDR_LA_PORT_WIDTH 4u
/* lookahead route: 1 when the packet leaves the receiving router on P2P_HI (past a dateline), 0 for P2P_LO */
#define CANOPY_HDR_LA_HI_WORD 0u
#define CANOPY_HDR_LA_HI_LSB 59u
#define CANOPY_HDR_LA_HI_WIDTH 1u
/* byte offset of the payload in the target's registered memory window */
#define CANOPY_HDR_OFFSET_WORD 1u
#define CANOPY_HDR_OFFSET_LSB 0u
#define CANOPY_HDR_OFFSET_WIDTH 40u
/* reduce id, 0..31 in flight per tree */
#define CANOPY_HDR_RID_WORD 1u
#define CANOPY_HDR_RID_LSB 40u
#define CANOPY_HDR_RID_WIDTH 5u
/* reduce operation */
#define CANOPY_HDR_OP_WORD 1u
#define CANOPY_HDR_OP_LSB 45u
#define CANOPY_HDR_OP_WIDTH 3u
/* reduce element type */
#define CANOPY_HDR_DTYPE_WORD 1u
#define CANOPY_HDR_DTYPE_LSB 48u
#define CANOPY_HDR_DTYPE_WIDTH 3u
/* subgroup id (group mask index) within the tree */
#define CANOPY_HDR_GROUP_WORD 1u
#define CANOPY_HDR_GROUP_LSB 51u
#define CANOPY_HDR_GROUP_WIDTH 8u
/* reduce flags (table below) */
#define CANOPY_HDR_RFLAGS_WORD 1u
#define CANOPY_HDR_RFLAGS_LSB 59u
#define CANOPY_HDR_RFLAGS_WIDTH 4u

static inline uint64_t canopy_hdr_field_mask(unsigned width)
{
    return width >= 64u ? ~(uint64_t)0 : (((uint64_t)1 << width) - 1u);
}

static inline uint64_t canopy_hdr_get_ptype(const uint64_t hdr[CANOPY_PKT_HEADER_WORDS])
{
    return (hdr[CANOPY_HDR_PTYPE_WORD] >> CANOPY_HDR_PTYPE_LSB) & canopy_hdr_field_mask(CANOPY_HDR_PTYPE_WIDTH);
}

static inline void canopy_hdr_set_ptype(uint64_t hdr[CANOPY_PKT_HEADER_WORDS], uint64_t v)
{
    uint64_t m = canopy_hdr_field_mask(CANOPY_HDR_PTYPE_WIDTH) << CANOPY_HDR_PTYPE_LSB;
    hdr[CANOPY_HDR_PTYPE_WORD] = (hdr[CANOPY_HDR_PTYPE_WORD] & ~m) | ((v << CANOPY_HDR_PTYPE_LSB) & m);
}

static inline uint64_t canopy_hdr_get_flags(const uint64_t hdr[CANOPY_PKT_HEADER_WORDS])
{
    return (hdr[CANOPY_HDR_FLAGS_WORD] >> CANOPY_HDR_FLAGS_LSB) & canopy_hdr_field_mask(CANOPY_HDR_FLAGS_WIDTH);
}

static inline void canopy_hdr_set_flags(uint64_t hdr[CANOPY_PKT_HEADER_WORDS], uint64_t v)
{
    uint64_t m = canopy_hdr_field_mask(CANOPY_HDR_FLAGS_WIDTH) << CANOPY_HDR_FLAGS_LSB;
    hdr[CANOPY_HDR_FLAGS_WORD] = (hdr[CANOPY_HDR_FLAGS_WORD] & ~m) | ((v << CANOPY_HDR_FLAGS_LSB) & m);
}

static inline uint64_t canopy_hdr_get_dst(const uint64_t hdr[CANOPY_PKT_HEADER_WORDS])
{
    return (hdr[CANOPY_HDR_DST_WORD] >> CANOPY_HDR_DST_LSB) & canopy_hdr_field_mask(CANOPY_HDR_DST_WIDTH);
}

static inline void canopy_hdr_set_dst(uint64_t hdr[CANOPY_PKT_HEADER_WORDS], uint64_t v)
{
    uint64_t m = canopy_hdr_field_mask(CANOPY_HDR_DST_WIDTH) << CANOPY_HDR_DST_LSB;
    hdr[CANOPY_HDR_DST_WORD] = (hdr[CANOPY_HDR_DST_WORD] & ~m) | ((v << CANOPY_HDR_DST_LSB) & m);
}

static inline uint64_t canopy_hdr_get_src(const uint64_t hdr[CANOPY_PKT_HEADER_WORDS])
{
    return (hdr[CANOPY_HDR_SRC_WORD] >> CANOPY_HDR_SRC_LSB) & canopy_hdr_field_mask(CANOPY_HDR_SRC_WIDTH);
}

static inline void canopy_hdr_set_src(uint64_t hdr[CANOPY_PKT_HEADER_WORDS], uint64_t v)
{
    uint64_t m = canopy_hdr_field_mask(CANOPY_HDR_SRC_WIDTH) << CANOPY_HDR_SRC_LSB;
    hdr[CANOPY_HDR_SRC_WORD] = (hdr[CANOPY_HDR_SRC_WORD] & ~m) | ((v << CANOPY_HDR_SRC_LSB) & m);
}

static inline uint64_t canopy_hdr_get_len(const uint64_t hdr[CANOPY_PKT_HEADER_WORDS])
{
    return (hdr[CANOPY_HDR_LEN_WORD] >> CANOPY_HDR_LEN_LSB) & canopy_hdr_field_mask(CANOPY_HDR_LEN_WIDTH);
}

static inline void canopy_hdr_set_len(uint64_t hdr[CANOPY_PKT_HEADER_WORDS], uint64_t v)
{
    uint64_t m = canopy_hdr_field_mask(CANOPY_HDR_LEN_WIDTH) << CANOPY_HDR_LEN_LSB;
    hdr[CANOPY_HDR_LEN_WORD] = (hdr[CANOPY_HDR_LEN_WORD] & ~m) | ((v << CANOPY_HDR_LEN_LSB) & m);
}

static inline uint64_t canopy_hdr_get_tree(const uint64_t hdr[CANOPY_PKT_HEADER_WORDS])
{
    return (hdr[CANOPY_HDR_TREE_WORD] >> CANOPY_HDR_TREE_LSB) & canopy_hdr_field_mask(CANOPY_HDR_TREE_WIDTH);
}

static inline void canopy_hdr_set_tree(uint64_t hdr[CANOPY_PKT_HEADER_WORDS], uint64_t v)
{
    uint64_t m = canopy_hdr_field_mask(CANOPY_HDR_TREE_WIDTH) << CANOPY_HDR_TREE_LSB;
    hdr[CANOPY_HDR_TREE_WORD] = (hdr[CANOPY_HDR_TREE_WORD] & ~m) | ((v << CANOPY_HDR_TREE_LSB) & m);
}

static inline uint64_t canopy_hdr_get_la_port(const uint64_t hdr[CANOPY_PKT_HEADER_WORDS])
{
    return (hdr[CANOPY_HDR_LA_PORT_WORD] >> CANOPY_HDR_LA_PORT_LSB) & canopy_hdr_field_mask(CANOPY_HDR_LA_PORT_WIDTH);
}

static inline void canopy_hdr_set_la_port(uint64_t hdr[CANOPY_PKT_HEADER_WORDS], uint64_t v)
{
    uint64_t m = canopy_hdr_field_mask(CANOPY_HDR_LA_PORT_WIDTH) << CANOPY_HDR_LA_PORT_LSB;
    hdr[CANOPY_HDR_LA_PORT_WORD] = (hdr[CANOPY_HDR_LA_PORT_WORD] & ~m) | ((v << CANOPY_HDR_LA_PORT_LSB) & m);
}

static inline uint64_t canopy_hdr_get_la_hi(const uint64_t hdr[CANOPY_PKT_HEADER_WORDS])
{
    return (hdr[CANOPY_HDR_LA_HI_WORD] >> CANOPY_HDR_LA_HI_LSB) & canopy_hdr_field_mask(CANOPY_HDR_LA_HI_WIDTH);
}

static inline void canopy_hdr_set_la_hi(uint64_t hdr[CANOPY_PKT_HEADER_WORDS], uint64_t v)
{
    uint64_t m = canopy_hdr_field_mask(CANOPY_HDR_LA_HI_WIDTH) << CANOPY_HDR_LA_HI_LSB;
    hdr[CANOPY_HDR_LA_HI_WORD] = (hdr[CANOPY_HDR_LA_HI_WORD] & ~m) | ((v << CANOPY_HDR_LA_HI_LSB) & m);
}

static inline uint64_t canopy_hdr_get_offset(const uint64_t hdr[CANOPY_PKT_HEADER_WORDS])
{
    return (hdr[CANOPY_HDR_OFFSET_WORD] >> CANOPY_HDR_OFFSET_LSB) & canopy_hdr_field_mask(CANOPY_HDR_OFFSET_WIDTH);
}

static inline void canopy_hdr_set_offset(uint64_t hdr[CANOPY_PKT_HEADER_WORDS], uint64_t v)
{
    uint64_t m = canopy_hdr_field_mask(CANOPY_HDR_OFFSET_WIDTH) << CANOPY_HDR_OFFSET_LSB;
    hdr[CANOPY_HDR_OFFSET_WORD] = (hdr[CANOPY_HDR_OFFSET_WORD] & ~m) | ((v << CANOPY_HDR_OFFSET_LSB) & m);
}

static inline uint64_t canopy_hdr_get_rid(const uint64_t hdr[CANOPY_PKT_HEADER_WORDS])
{
    return (hdr[CANOPY_HDR_RID_WORD] >> CANOPY_HDR_RID_LSB) & canopy_hdr_field_mask(CANOPY_HDR_RID_WIDTH);
}

static inline void canopy_hdr_set_rid(uint64_t hdr[CANOPY_PKT_HEADER_WORDS], uint64_t v)
{
    uint64_t m = canopy_hdr_field_mask(CANOPY_HDR_RID_WIDTH) << CANOPY_HDR_RID_LSB;
    hdr[CANOPY_HDR_RID_WORD] = (hdr[CANOPY_HDR_RID_WORD] & ~m) | ((v << CANOPY_HDR_RID_LSB) & m);
}

static inline uint64_t canopy_hdr_get_op(const uint64_t hdr[CANOPY_PKT_HEADER_WORDS])
{
    return (hdr[CANOPY_HDR_OP_WORD] >> CANOPY_HDR_OP_LSB) & canopy_hdr_field_mask(CANOPY_HDR_OP_WIDTH);
}

static inline void canopy_hdr_set_op(uint64_t hdr[CANOPY_PKT_HEADER_WORDS], uint64_t v)
{
    uint64_t m = canopy_hdr_field_mask(CANOPY_HDR_OP_WIDTH) << CANOPY_HDR_OP_LSB;
    hdr[CANOPY_HDR_OP_WORD] = (hdr[CANOPY_HDR_OP_WORD] & ~m) | ((v << CANOPY_HDR_OP_LSB) & m);
}

static inline uint64_t canopy_hdr_get_dtype(const uint64_t hdr[CANOPY_PKT_HEADER_WORDS])
{
    return (hdr[CANOPY_HDR_DTYPE_WORD] >> CANOPY_HDR_DTYPE_LSB) & canopy_hdr_field_mask(CANOPY_HDR_DTYPE_WIDTH);
}

static inline void canopy_hdr_set_dtype(uint64_t hdr[CANOPY_PKT_HEADER_WORDS], uint64_t v)
{
    uint64_t m = canopy_hdr_field_mask(CANOPY_HDR_DTYPE_WIDTH) << CANOPY_HDR_DTYPE_LSB;
    hdr[CANOPY_HDR_DTYPE_WORD] = (hdr[CANOPY_HDR_DTYPE_WORD] & ~m) | ((v << CANOPY_HDR_DTYPE_LSB) & m);
}

static inline uint64_t canopy_hdr_get_group(const uint64_t hdr[CANOPY_PKT_HEADER_WORDS])
{
    return (hdr[CANOPY_HDR_GROUP_WORD] >> CANOPY_HDR_GROUP_LSB) & canopy_hdr_field_mask(CANOPY_HDR_GROUP_WIDTH);
}

static inline void canopy_hdr_set_group(uint64_t hdr[CANOPY_PKT_HEADER_WORDS], uint64_t v)
{
    uint64_t m = canopy_hdr_field_mask(CANOPY_HDR_GROUP_WIDTH) << CANOPY_HDR_GROUP_LSB;
    hdr[CANOPY_HDR_GROUP_WORD] = (hdr[CANOPY_HDR_GROUP_WORD] & ~m) | ((v << CANOPY_HDR_GROUP_LSB) & m);
}

static inline uint64_t canopy_hdr_get_rflags(const uint64_t hdr[CANOPY_PKT_HEADER_WORDS])
{
    return (hdr[CANOPY_HDR_RFLAGS_WORD] >> CANOPY_HDR_RFLAGS_LSB) & canopy_hdr_field_mask(CANOPY_HDR_RFLAGS_WIDTH);
}

static inline void canopy_hdr_set_rflags(uint64_t hdr[CANOPY_PKT_HEADER_WORDS], uint64_t v)
{
    uint64_t m = canopy_hdr_field_mask(CANOPY_HDR_RFLAGS_WIDTH) << CANOPY_HDR_RFLAGS_LSB;
    hdr[CANOPY_HDR_RFLAGS_WORD] = (hdr[CANOPY_HDR_RFLAGS_WORD] & ~m) | ((v << CANOPY_HDR_RFLAGS_LSB) & m);
}

/* The collective routing table entry: one 32-bit word per tree. */
#define CANOPY_MAX_TREES 64u
#define CANOPY_MAX_GROUPS 8u
/* the entry is in use; a packet for an invalid entry is dropped and counted */
#define CANOPY_TREE_VALID_LSB 0u
#define CANOPY_TREE_VALID_WIDTH 1u
static inline uint32_t canopy_tree_get_valid(uint32_t e) { return (e >> 0u) & 0x1u; }
static inline uint32_t canopy_tree_set_valid(uint32_t e, uint32_t v)
{
    return (e & ~(0x1u << 0u)) | ((v & 0x1u) << 0u);
}

/* this node is the tree's root (no parent) */
#define CANOPY_TREE_ROOT_LSB 1u
#define CANOPY_TREE_ROOT_WIDTH 1u
static inline uint32_t canopy_tree_get_root(uint32_t e) { return (e >> 1u) & 0x1u; }
static inline uint32_t canopy_tree_set_root(uint32_t e, uint32_t v)
{
    return (e & ~(0x1u << 1u)) | ((v & 0x1u) << 1u);
}

/* this node only connects the tree: its host neither sends nor receives (groups must be 0) */
#define CANOPY_TREE_TRANSIT_LSB 2u
#define CANOPY_TREE_TRANSIT_WIDTH 1u
static inline uint32_t canopy_tree_get_transit(uint32_t e) { return (e >> 2u) & 0x1u; }
static inline uint32_t canopy_tree_set_transit(uint32_t e, uint32_t v)
{
    return (e & ~(0x1u << 2u)) | ((v & 0x1u) << 2u);
}

/* router port toward the parent (2d: + in dimension d, 2d+1: -); ignored at the root */
#define CANOPY_TREE_PARENT_LSB 3u
#define CANOPY_TREE_PARENT_WIDTH 4u
static inline uint32_t canopy_tree_get_parent(uint32_t e) { return (e >> 3u) & 0xfu; }
static inline uint32_t canopy_tree_set_parent(uint32_t e, uint32_t v)
{
    return (e & ~(0xfu << 3u)) | ((v & 0xfu) << 3u);
}

/* router ports toward the children, one bit per port */
#define CANOPY_TREE_CHILDREN_LSB 7u
#define CANOPY_TREE_CHILDREN_WIDTH 8u
static inline uint32_t canopy_tree_get_children(uint32_t e) { return (e >> 7u) & 0xffu; }
static inline uint32_t canopy_tree_set_children(uint32_t e, uint32_t v)
{
    return (e & ~(0xffu << 7u)) | ((v & 0xffu) << 7u);
}

/* subgroups this node's host belongs to, one bit per group id */
#define CANOPY_TREE_GROUPS_LSB 15u
#define CANOPY_TREE_GROUPS_WIDTH 8u
static inline uint32_t canopy_tree_get_groups(uint32_t e) { return (e >> 15u) & 0xffu; }
static inline uint32_t canopy_tree_set_groups(uint32_t e, uint32_t v)
{
    return (e & ~(0xffu << 15u)) | ((v & 0xffu) << 15u);
}

/* The payload word of a GET request. */
/* where the data goes: byte offset in the requester's window */
#define CANOPY_GETREQ_REPLY_OFFSET_LSB 0u
#define CANOPY_GETREQ_REPLY_OFFSET_WIDTH 40u
static inline uint64_t canopy_getreq_get_reply_offset(uint64_t w)
{
    return (w >> CANOPY_GETREQ_REPLY_OFFSET_LSB) & canopy_hdr_field_mask(CANOPY_GETREQ_REPLY_OFFSET_WIDTH);
}
static inline uint64_t canopy_getreq_set_reply_offset(uint64_t w, uint64_t v)
{
    uint64_t m = canopy_hdr_field_mask(CANOPY_GETREQ_REPLY_OFFSET_WIDTH) << CANOPY_GETREQ_REPLY_OFFSET_LSB;
    return (w & ~m) | ((v << CANOPY_GETREQ_REPLY_OFFSET_LSB) & m);
}

/* bytes requested, 1..max_get_bytes; any other value is refused. AMO: the object's size, 4 or 8, and `offset` must be a multiple of it */
#define CANOPY_GETREQ_GET_LEN_LSB 40u
#define CANOPY_GETREQ_GET_LEN_WIDTH 17u
static inline uint64_t canopy_getreq_get_get_len(uint64_t w)
{
    return (w >> CANOPY_GETREQ_GET_LEN_LSB) & canopy_hdr_field_mask(CANOPY_GETREQ_GET_LEN_WIDTH);
}
static inline uint64_t canopy_getreq_set_get_len(uint64_t w, uint64_t v)
{
    uint64_t m = canopy_hdr_field_mask(CANOPY_GETREQ_GET_LEN_WIDTH) << CANOPY_GETREQ_GET_LEN_LSB;
    return (w & ~m) | ((v << CANOPY_GETREQ_GET_LEN_LSB) & m);
}

/* AMO (len 24) only: the operation (table below); an unknown one is refused */
#define CANOPY_GETREQ_AMO_OP_LSB 57u
#define CANOPY_GETREQ_AMO_OP_WIDTH 4u
static inline uint64_t canopy_getreq_get_amo_op(uint64_t w)
{
    return (w >> CANOPY_GETREQ_AMO_OP_LSB) & canopy_hdr_field_mask(CANOPY_GETREQ_AMO_OP_WIDTH);
}
static inline uint64_t canopy_getreq_set_amo_op(uint64_t w, uint64_t v)
{
    uint64_t m = canopy_hdr_field_mask(CANOPY_GETREQ_AMO_OP_WIDTH) << CANOPY_GETREQ_AMO_OP_LSB;
    return (w & ~m) | ((v << CANOPY_GETREQ_AMO_OP_LSB) & m);
}

/* AMO only: the response carries the old value (a fetching AMO); else it has no payload */
#define CANOPY_GETREQ_AMO_FETCH_LSB 61u
#define CANOPY_GETREQ_AMO_FETCH_WIDTH 1u
static inline uint64_t canopy_getreq_get_amo_fetch(uint64_t w)
{
    return (w >> CANOPY_GETREQ_AMO_FETCH_LSB) & canopy_hdr_field_mask(CANOPY_GETREQ_AMO_FETCH_WIDTH);
}
static inline uint64_t canopy_getreq_set_amo_fetch(uint64_t w, uint64_t v)
{
    uint64_t m = canopy_hdr_field_mask(CANOPY_GETREQ_AMO_FETCH_WIDTH) << CANOPY_GETREQ_AMO_FETCH_LSB;
    return (w & ~m) | ((v << CANOPY_GETREQ_AMO_FETCH_LSB) & m);
}

/* Coordinates packed as in the dst/src fields: dimension d in bits [4d+3:4d]. */
static inline unsigned canopy_coord_get(uint64_t coords, unsigned dim)
{
    return (unsigned)(coords >> (CANOPY_COORD_BITS * dim)) & ((1u << CANOPY_COORD_BITS) - 1u);
}

#endif /* CANOPY_PACKET_H */
