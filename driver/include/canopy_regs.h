/* generated from spec/regmap.toml by tools/gen_regmap.py; do not edit. */
/* canopy_regs.h: BAR0 register offsets and fields of the canopy host interface. */
#ifndef CANOPY_REGS_H
#define CANOPY_REGS_H

#include <stdint.h>

#define CANOPY_CSR_BYTES 0x1000u
#define CANOPY_INJ_WINDOW_OFFSET 0x8000u
#define CANOPY_BAR0_BYTES 0x10000u
#define CANOPY_MAGIC 0x43504E59u
#define CANOPY_BLOCK_TYPE 1u
#define CANOPY_VERSION_MAJOR 1u
#define CANOPY_VERSION_MINOR 5u

/* identifies the block: magic, type and version, so a driver can tell it found canopy (ro) */
#define CANOPY_REG_ID 0x000u
#define CANOPY_ID_MAGIC_LSB 0u
#define CANOPY_ID_MAGIC_WIDTH 32u
#define CANOPY_ID_TYPE_LSB 32u
#define CANOPY_ID_TYPE_WIDTH 8u
#define CANOPY_ID_MINOR_LSB 48u
#define CANOPY_ID_MINOR_WIDTH 8u
#define CANOPY_ID_MAJOR_LSB 56u
#define CANOPY_ID_MAJOR_WIDTH 8u
/* build identity of the bitstream or simulation (ro) */
#define CANOPY_REG_BUILD 0x008u
#define CANOPY_BUILD_GIT_LSB 0u
#define CANOPY_BUILD_GIT_WIDTH 32u
#define CANOPY_BUILD_DATE_LSB 32u
#define CANOPY_BUILD_DATE_WIDTH 32u
/* capabilities of this build (ro) */
#define CANOPY_REG_CAPS 0x010u
#define CANOPY_CAPS_TREES_LSB 0u
#define CANOPY_CAPS_TREES_WIDTH 8u
#define CANOPY_CAPS_REDUCE_IDS_LSB 8u
#define CANOPY_CAPS_REDUCE_IDS_WIDTH 8u
#define CANOPY_CAPS_OPS_LSB 16u
#define CANOPY_CAPS_OPS_WIDTH 8u
#define CANOPY_CAPS_DTYPES_LSB 24u
#define CANOPY_CAPS_DTYPES_WIDTH 8u
#define CANOPY_CAPS_MAX_PAYLOAD_LSB 32u
#define CANOPY_CAPS_MAX_PAYLOAD_WIDTH 16u
#define CANOPY_CAPS_FLIT_BITS_LSB 48u
#define CANOPY_CAPS_FLIT_BITS_WIDTH 10u
#define CANOPY_CAPS_VCS_LSB 58u
#define CANOPY_CAPS_VCS_WIDTH 6u
/* sizes of the device-side rings (ro) */
#define CANOPY_REG_RINGS 0x018u
#define CANOPY_RINGS_INJ_WORDS_LSB 0u
#define CANOPY_RINGS_INJ_WORDS_WIDTH 32u
#define CANOPY_RINGS_EJ_ENTRY_BYTES_LSB 32u
#define CANOPY_RINGS_EJ_ENTRY_BYTES_WIDTH 16u
#define CANOPY_RINGS_WB_BYTES_LSB 48u
#define CANOPY_RINGS_WB_BYTES_WIDTH 16u
/* where this node sits: its coordinates and the torus size (ro) */
#define CANOPY_REG_TOPO 0x020u
#define CANOPY_TOPO_COORDS_LSB 0u
#define CANOPY_TOPO_COORDS_WIDTH 16u
#define CANOPY_TOPO_SIZES_LSB 16u
#define CANOPY_TOPO_SIZES_WIDTH 20u
#define CANOPY_TOPO_NDIMS_LSB 36u
#define CANOPY_TOPO_NDIMS_WIDTH 3u
/* live state (ro) */
#define CANOPY_REG_STATUS 0x028u
#define CANOPY_STATUS_WIN_VALID_LSB 0u
#define CANOPY_STATUS_WIN_VALID_WIDTH 1u
#define CANOPY_STATUS_EJ_VALID_LSB 1u
#define CANOPY_STATUS_EJ_VALID_WIDTH 1u
#define CANOPY_STATUS_WB_VALID_LSB 2u
#define CANOPY_STATUS_WB_VALID_WIDTH 1u
#define CANOPY_STATUS_INJ_BUSY_LSB 3u
#define CANOPY_STATUS_INJ_BUSY_WIDTH 1u
#define CANOPY_STATUS_EJ_FULL_LSB 4u
#define CANOPY_STATUS_EJ_FULL_WIDTH 1u
#define CANOPY_STATUS_TREE_REFUSED_LSB 5u
#define CANOPY_STATUS_TREE_REFUSED_WIDTH 1u
/* one-sided gets: the bound on requests this node holds per source, and the request size limit (ro) */
#define CANOPY_REG_CAPS_GET 0x030u
#define CANOPY_CAPS_GET_SLOTS_LSB 0u
#define CANOPY_CAPS_GET_SLOTS_WIDTH 8u
#define CANOPY_CAPS_GET_MAX_BYTES_LSB 8u
#define CANOPY_CAPS_GET_MAX_BYTES_WIDTH 24u
#define CANOPY_CAPS_GET_AMO_OPS_LSB 32u
#define CANOPY_CAPS_GET_AMO_OPS_WIDTH 8u
/* bus address of the host DMA window (8-byte aligned); remote writes land at WIN_BASE + offset (rw) */
#define CANOPY_REG_WIN_BASE 0x040u
/* bytes in the DMA window; 0 = no window (every arriving write is refused) (rw) */
#define CANOPY_REG_WIN_SIZE 0x048u
/* bus address of the ejection ring (entry-aligned) (rw) */
#define CANOPY_REG_EJ_BASE 0x050u
/* entries in the ejection ring, a power of two; 0 = no ring (arrivals needing one are refused) (rw) */
#define CANOPY_REG_EJ_ENTRIES 0x058u
/* host's ejection ring consumer count (free-running): entries up to here may be reused (wo_pulse) */
#define CANOPY_REG_EJ_HEAD 0x060u
/* bus address of the status writeback block (64-byte aligned); 0 = no writeback (rw) */
#define CANOPY_REG_WB_BASE 0x068u
/* doorbell: host's injection ring producer count in words (free-running) (wo_pulse) */
#define CANOPY_REG_INJ_TAIL 0x070u
/* device's injection ring consumer count in words (free-running); also written back (ro) */
#define CANOPY_REG_INJ_HEAD 0x078u
/* tree id that TREE_ENTRY writes and TREE_READ shows (rw) */
#define CANOPY_REG_TREE_SEL 0x080u
/* doorbell: write the collective routing table entry of tree TREE_SEL (bits 31..0, layout in docs/packet-format.md); a refused entry leaves the table unchanged, counts in ERR_TREE_WRITE and sets STATUS.tree_refused (wo_pulse) */
#define CANOPY_REG_TREE_ENTRY 0x088u
/* the routing table entry of tree TREE_SEL as the router holds it (ro) */
#define CANOPY_REG_TREE_READ 0x090u
/* bus address of the collective completion area (8-byte aligned); 0 = none. Word t (t < 64): broadcast packets of tree t delivered (reduce results included). Word 64 + 32 t + r: results of reduce id r of tree t delivered (bits 31..0), whether the last one failed (bit 63) and whether it failed because a router refused it for lack of accumulator memory, to be re-issued (bit 62, with bit 63) (rw) */
#define CANOPY_REG_COLL_WB_BASE 0x098u
/* bus address of the get completion area (8-byte aligned); 0 = none, and the counts restart from 0 while it is 0. Word n (n = the target's linear node number): this node's gets that node has completed (bits 31..0), written after each one's data (rw) */
#define CANOPY_REG_GET_WB_BASE 0x0A0u
/* how the injection ring's words are committed; change it only while the ring is empty (INJ_HEAD = the words written) (rw) */
#define CANOPY_REG_INJ_MODE 0x0A8u
#define CANOPY_INJ_MODE_AUTO_COMMIT_LSB 0u
#define CANOPY_INJ_MODE_AUTO_COMMIT_WIDTH 1u
/* packets refused by the router: type not implemented (ro) */
#define CANOPY_REG_ERR_BAD_TYPE 0x100u
/* packets refused by the router: destination outside the torus (ro) */
#define CANOPY_REG_ERR_BAD_DST 0x108u
/* packets refused because the length field and the flits disagree, or len is too large: this host's by the injector (nothing sent), other nodes' counted by the router where they cross it (ro) */
#define CANOPY_REG_ERR_BAD_LEN 0x110u
/* arriving writes refused: outside the registered DMA window (nothing written) (ro) */
#define CANOPY_REG_ERR_DMA_BOUNDS 0x118u
/* injection descriptors refused: zero or too many flits, or running past the tail (ro) */
#define CANOPY_REG_ERR_INJ_DESC 0x120u
/* injection window writes refused: outside the free part of the ring (never overwrites) (ro) */
#define CANOPY_REG_ERR_INJ_WRITE 0x128u
/* doorbells refused: INJ_TAIL beyond the ring or backwards, EJ_HEAD beyond the tail (ro) */
#define CANOPY_REG_ERR_DOORBELL 0x130u
/* CSR accesses refused: unmapped offset, or a write to a read-only register (ro) */
#define CANOPY_REG_ERR_CSR 0x138u
/* arrivals refused because no ejection ring is registered (ro) */
#define CANOPY_REG_ERR_EJ_NORING 0x140u
/* routing table writes refused (TREE_ENTRY or CONFIG packets): the entry breaks a table rule or names a tree not implemented (ro) */
#define CANOPY_REG_ERR_TREE_WRITE 0x148u
/* collective packets dropped by the direction checks: a broadcast not from the parent's port, a broadcast request at a node that is not the root (ro) */
#define CANOPY_REG_ERR_COLL_DIR 0x150u
/* collective packets dropped: tree not implemented or its entry invalid, group id out of range (a transit host's reduce contribution counts in ERR_COLL_DIR; its broadcasts are refused by the driver) (ro) */
#define CANOPY_REG_ERR_COLL_TREE 0x158u
/* reduce contributions refused by this router's reduce engine: operation, type or length disagreeing with the reduce's first contribution, a second contribution from the same port, an unknown operation or type, a length not a multiple of the element size, or not from a child's port or this node's host (ro) */
#define CANOPY_REG_ERR_REDUCE 0x160u
/* GET requests this node refused: outside its window (or no window, or get_len 0 or above CAPS_GET.max_bytes); atomics also when get_len is not 4 or 8, offset is not a multiple of it, or amo_op is unknown; each answered with a FAILED response (ro) */
#define CANOPY_REG_ERR_GET_BOUNDS 0x168u
/* GET requests (atomics included) this node dropped unanswered: their source already had CAPS_GET.slots requests here, the source lies outside the torus, or the request is malformed (len not 8 or 24) (ro) */
#define CANOPY_REG_ERR_GET_DROPPED 0x170u
/* DMA write bursts into host memory that the host refused (BRESP SLVERR or DECERR: the bridge or the IOMMU); what they carried did not complete: a put's ACK says FAILED, a get fails, nothing is counted as delivered (ro) */
#define CANOPY_REG_ERR_DMA_WRITE 0x178u
/* packets this node injected into the fabric (ro) */
#define CANOPY_REG_TX_PKTS 0x180u
/* flits this node injected into the fabric (ro) */
#define CANOPY_REG_TX_FLITS 0x188u
/* packets the fabric delivered to this node (ro) */
#define CANOPY_REG_RX_PKTS 0x190u
/* flits the fabric delivered to this node (ro) */
#define CANOPY_REG_RX_FLITS 0x198u
/* remote writes completed into the DMA window (ro) */
#define CANOPY_REG_RX_PUTS 0x1A0u
/* this node's puts acknowledged by their targets, refused ones included (also written back) (ro) */
#define CANOPY_REG_PUTS_ACKED 0x1A8u
/* this node's puts refused by their targets, a subset of PUTS_ACKED (also written back) (ro) */
#define CANOPY_REG_PUTS_FAILED 0x1B0u
/* broadcast packets written into the DMA window (ro) */
#define CANOPY_REG_RX_BCASTS 0x1B8u
/* reduce contributions this node's host injected (ro) */
#define CANOPY_REG_REDUCES_SENT 0x1C0u
/* reduce results delivered to this node (written, or only counted at a node that is not a plain reduce's destination) (ro) */
#define CANOPY_REG_REDUCES_DONE 0x1C8u
/* GET requests this node has answered (its last response sent), refused ones and atomics included (ro) */
#define CANOPY_REG_GETS_SERVED 0x1D0u
/* GET_RESP packets delivered to this node (ro) */
#define CANOPY_REG_GET_RESPS 0x1D8u
/* this node's gets completed (last response written), refused ones included (also written back) (ro) */
#define CANOPY_REG_GETS_DONE 0x1E0u
/* this node's gets refused by their targets (or whose last response fell outside this node's window, or whose last response's write the host refused), plus every earlier response of a get that came back FAILED (a read its target's host refused) or whose write the host refused: a get may count more than once, so this is not a subset of GETS_DONE; libcanopy looks for a change (also written back) (ro) */
#define CANOPY_REG_GETS_FAILED 0x1E8u
/* reduces this router's reduce engine refused: their first contribution found no free accumulator in the shared pool (docs/collectives.md); each still completes, its result goes down the tree with FAILED and RETRY, and libcanopy re-issues it (ro) */
#define CANOPY_REG_REDUCES_REFUSED 0x1F0u
/* atomics this node has done on its host memory (read, write back if the value changed, response sent); refused ones are not included (they count in ERR_GET_BOUNDS and GETS_SERVED), nor those whose read the host refused (ERR_DMA_READ; answered FAILED, counted in GETS_SERVED) (ro) */
#define CANOPY_REG_AMOS_SERVED 0x1F8u
/* DMA read beats from host memory that the host refused (RRESP SLVERR or DECERR): the get response they were for goes back FAILED without a payload, an atomic is answered FAILED and writes nothing (ro) */
#define CANOPY_REG_ERR_DMA_READ 0x200u
/* bit p: the link out of router port p (2d toward + in dimension d, 2d+1 toward -) is down: its protected link end declared it (replays exhausted or the partner silent, docs/link.md) and drops what the router sends into it; a link comes back only with a reset. Always 0 on unprotected links and on the board's on-chip links (ro) */
#define CANOPY_REG_LINK_DOWN 0x208u
/* flits this router sent into its dead links and their link ends dropped (a packet routed over a dead link is lost there; its sender's put or get times out) (ro) */
#define CANOPY_REG_LINK_DROPS 0x210u

/* Extract a field: CANOPY_FIELD(value, ID, MAGIC). */
#define CANOPY_FIELD(v, reg, field) \
    (((uint64_t)(v) >> CANOPY_##reg##_##field##_LSB) & \
     ((CANOPY_##reg##_##field##_WIDTH >= 64u) ? ~(uint64_t)0 \
      : (((uint64_t)1 << CANOPY_##reg##_##field##_WIDTH) - 1u)))

/* Register names by offset, for diagnostics; NULL for an unmapped offset. */
static inline const char *canopy_reg_name(uint32_t offset)
{
    switch (offset) {
    case CANOPY_REG_ID: return "ID";
    case CANOPY_REG_BUILD: return "BUILD";
    case CANOPY_REG_CAPS: return "CAPS";
    case CANOPY_REG_RINGS: return "RINGS";
    case CANOPY_REG_TOPO: return "TOPO";
    case CANOPY_REG_STATUS: return "STATUS";
    case CANOPY_REG_CAPS_GET: return "CAPS_GET";
    case CANOPY_REG_WIN_BASE: return "WIN_BASE";
    case CANOPY_REG_WIN_SIZE: return "WIN_SIZE";
    case CANOPY_REG_EJ_BASE: return "EJ_BASE";
    case CANOPY_REG_EJ_ENTRIES: return "EJ_ENTRIES";
    case CANOPY_REG_EJ_HEAD: return "EJ_HEAD";
    case CANOPY_REG_WB_BASE: return "WB_BASE";
    case CANOPY_REG_INJ_TAIL: return "INJ_TAIL";
    case CANOPY_REG_INJ_HEAD: return "INJ_HEAD";
    case CANOPY_REG_TREE_SEL: return "TREE_SEL";
    case CANOPY_REG_TREE_ENTRY: return "TREE_ENTRY";
    case CANOPY_REG_TREE_READ: return "TREE_READ";
    case CANOPY_REG_COLL_WB_BASE: return "COLL_WB_BASE";
    case CANOPY_REG_GET_WB_BASE: return "GET_WB_BASE";
    case CANOPY_REG_INJ_MODE: return "INJ_MODE";
    case CANOPY_REG_ERR_BAD_TYPE: return "ERR_BAD_TYPE";
    case CANOPY_REG_ERR_BAD_DST: return "ERR_BAD_DST";
    case CANOPY_REG_ERR_BAD_LEN: return "ERR_BAD_LEN";
    case CANOPY_REG_ERR_DMA_BOUNDS: return "ERR_DMA_BOUNDS";
    case CANOPY_REG_ERR_INJ_DESC: return "ERR_INJ_DESC";
    case CANOPY_REG_ERR_INJ_WRITE: return "ERR_INJ_WRITE";
    case CANOPY_REG_ERR_DOORBELL: return "ERR_DOORBELL";
    case CANOPY_REG_ERR_CSR: return "ERR_CSR";
    case CANOPY_REG_ERR_EJ_NORING: return "ERR_EJ_NORING";
    case CANOPY_REG_ERR_TREE_WRITE: return "ERR_TREE_WRITE";
    case CANOPY_REG_ERR_COLL_DIR: return "ERR_COLL_DIR";
    case CANOPY_REG_ERR_COLL_TREE: return "ERR_COLL_TREE";
    case CANOPY_REG_ERR_REDUCE: return "ERR_REDUCE";
    case CANOPY_REG_ERR_GET_BOUNDS: return "ERR_GET_BOUNDS";
    case CANOPY_REG_ERR_GET_DROPPED: return "ERR_GET_DROPPED";
    case CANOPY_REG_ERR_DMA_WRITE: return "ERR_DMA_WRITE";
    case CANOPY_REG_TX_PKTS: return "TX_PKTS";
    case CANOPY_REG_TX_FLITS: return "TX_FLITS";
    case CANOPY_REG_RX_PKTS: return "RX_PKTS";
    case CANOPY_REG_RX_FLITS: return "RX_FLITS";
    case CANOPY_REG_RX_PUTS: return "RX_PUTS";
    case CANOPY_REG_PUTS_ACKED: return "PUTS_ACKED";
    case CANOPY_REG_PUTS_FAILED: return "PUTS_FAILED";
    case CANOPY_REG_RX_BCASTS: return "RX_BCASTS";
    case CANOPY_REG_REDUCES_SENT: return "REDUCES_SENT";
    case CANOPY_REG_REDUCES_DONE: return "REDUCES_DONE";
    case CANOPY_REG_GETS_SERVED: return "GETS_SERVED";
    case CANOPY_REG_GET_RESPS: return "GET_RESPS";
    case CANOPY_REG_GETS_DONE: return "GETS_DONE";
    case CANOPY_REG_GETS_FAILED: return "GETS_FAILED";
    case CANOPY_REG_REDUCES_REFUSED: return "REDUCES_REFUSED";
    case CANOPY_REG_AMOS_SERVED: return "AMOS_SERVED";
    case CANOPY_REG_ERR_DMA_READ: return "ERR_DMA_READ";
    case CANOPY_REG_LINK_DOWN: return "LINK_DOWN";
    case CANOPY_REG_LINK_DROPS: return "LINK_DROPS";
    default: return (const char *)0;
    }
}

#endif /* CANOPY_REGS_H */
