/* dev.h: libcanopy's internal view of an open device, shared by its source files
 * (core.c: open, window, injection, puts, events; coll.c: trees and collectives).
 * Not installed: programs see canopy_dev only as an opaque handle.
 */
#ifndef CANOPY_DEV_H
#define CANOPY_DEV_H

#include <stdint.h>
#include <string.h>

#include "canopy.h"
#include "canopy_packet.h"
#include "canopy_regs.h"
#include "hal.h"

enum {
    EJ_ENTRIES = 256,        /* ejection ring entries (power of two) */
    EJ_ENTRY_BYTES = 32,
    WB_BYTES = 64,
    DOORBELL_BATCH = 8,      /* packets written before one doorbell */
    MAX_FLITS = 255,         /* descriptor limit */
    MAX_BATCH_PKTS = 8,      /* packets in one ring entry (the descriptor allows 256) */
    MAX_ENTRY_WORDS = MAX_BATCH_PKTS * (2 + CANOPY_PKT_MAX_PAYLOAD / 8), /* words after a descriptor */
};
/* Writeback block words (docs/host-interface.md). WB_PUTS packs the acknowledged count
 * (bits 39..0) with the refused count (bits 63..40) so one read sees both consistently;
 * WB_GETS packs completed and refused gets the same way. */
enum { WB_INJ_HEAD = 0, WB_PUTS = 1, WB_PUTS_FAILED = 2, WB_RX_PUTS = 3, WB_EJ_WRITTEN = 4, WB_GETS = 5 };
#define WB_ACKED_MASK ((UINT64_C(1) << 40) - 1)
#define WB_FAILED_SHIFT 40
#define WB_FAILED_MASK ((UINT64_C(1) << 24) - 1)
/* Ejection ring entry words and statuses. */
enum { EJ_HDR0 = 0, EJ_HDR1 = 1, EJ_INFO = 2, EJ_SEQ = 3 };
#define DEFAULT_TIMEOUT_NS (10ull * 1000 * 1000 * 1000)
/* The collective completion area (COLL_WB_BASE): a counter word per tree, then a status
 * word per (tree, reduce id): {failed: bit 63, refused (re-issue it): bit 62, results of
 * the tree: bits 31..0}. */
enum { CANOPY_REDUCE_IDS = 32 };
#define COLL_STATUS_WORD(tree, rid) (CANOPY_MAX_TREES + (tree) * CANOPY_REDUCE_IDS + (rid))
#define COLL_AREA_BYTES ((CANOPY_MAX_TREES + CANOPY_MAX_TREES * CANOPY_REDUCE_IDS) * 8)

struct canopy_dev {
    struct canopy_hal hal;
    struct canopy_caps caps;
    unsigned ndims, sizes[CANOPY_MAX_DIMS], my_coords[CANOPY_MAX_DIMS];
    int node, nodes;
    uint8_t *dead_links; /* canopy_set_dead_links: per node, its ports whose link is down (NULL: none) */
    uint32_t link_gathers; /* canopy_links_gather calls: tags its messages, so an older call's never count */
    struct canopy_dma_region wb, ej, win;
    /* Injection ring, in 64-bit words, free-running counts. */
    uint32_t inj_words, inj_tail, inj_head_seen, unrung;
    int inj_auto; /* INJ_MODE.auto_commit: the ring's words commit as they are written */
    /* Puts. */
    uint64_t puts_issued, failed_seen;
    /* Gets: requests issued and refusals seen (against WB_GETS); per target, requests
     * issued, against the count the device writes into the get area (GET_WB_BASE) as
     * each completes: at most caps.get_slots may be outstanding toward one target. */
    uint64_t gets_issued, gets_failed_seen;
    struct canopy_dma_region get_area;
    uint32_t *get_issued_to;
    /* Ejection ring consumer. */
    uint64_t ej_head;
    /* Collectives: per-tree completion counters (written by the device) and what this
     * node knows of each tree it attached. */
    struct canopy_dma_region coll;
    int in_progress; /* inside canopy_coll_progress (its own waits do not recurse) */
    uint64_t coll_timeout_ns; /* canopy_coll_set_timeout (0: the default) */
    uint32_t coll_test_polls; /* canopy_coll_test calls: the clock is read every so many */
    struct coll_tree {
        int attached, root;
        int down;          /* a collective on it timed out: retired (canopy_coll_set_timeout) */
        uint32_t entry;
        uint32_t expect;   /* broadcast packets this node will have received */
        uint32_t own_expect; /* ... once its own last broadcast has come back */
        unsigned next_rid; /* reduce ids are used round robin */
        uint32_t rid_busy; /* ids with a reduce in flight (bit per id) */
        uint32_t rid_retry; /* ... of which refused, waiting to be re-issued */
        uint32_t rid_before[CANOPY_REDUCE_IDS]; /* an id's status word when it was (re-)issued */
        uint32_t issues;   /* reduces issued on the tree (retries not counted) */
        uint32_t rid_gen[CANOPY_REDUCE_IDS];      /* the id's current (or last) issue: issues then */
        uint32_t rid_done_gen[CANOPY_REDUCE_IDS]; /* the id's last completed issue ... */
        int rid_err[CANOPY_REDUCE_IDS];           /* ... and how it ended (0 or an error) */
        uint8_t rid_retries[CANOPY_REDUCE_IDS];   /* re-issues of the current issue */
        uint64_t rid_deadline[CANOPY_REDUCE_IDS]; /* device time the current issue must end by */
        /* Per id, this node's contribution as injected, kept for a re-issue (allocated on
         * first use; the device may refuse a reduce when its accumulators are full). */
        struct coll_saved { uint64_t flits[2 + CANOPY_PKT_MAX_PAYLOAD / 8]; unsigned nflits; } *saved;
        unsigned nstripe;                    /* canopy_tree_stripe: reduces spread over these */
        unsigned stripe[CANOPY_MAX_STRIPE];
    } trees[CANOPY_MAX_TREES];
};

/* CANOPY_EUNREACH if the route to node or back crosses a link known to be down (route.c). */
int canopy_route_ok(const canopy_dev *dev, int node);

/* A NULL handle is what canopy_close leaves behind. */
static inline int usable(canopy_dev *dev) { return dev ? CANOPY_OK : CANOPY_ECLOSED; }

static inline int csr_read(canopy_dev *dev, uint32_t off, uint64_t *v)
{
    return dev->hal.ops->mmio_read64(&dev->hal, off, v);
}

static inline int csr_write(canopy_dev *dev, uint32_t off, uint64_t v)
{
    return dev->hal.ops->mmio_write(&dev->hal, off, &v, sizeof v);
}

static inline volatile uint64_t *wb_word(canopy_dev *dev, unsigned i)
{
    return (volatile uint64_t *)dev->wb.vaddr + i;
}

static inline uint64_t packed_coords(const canopy_dev *dev, int node)
{
    uint64_t v = 0;
    unsigned rest = (unsigned)node;
    for (unsigned d = 0; d < CANOPY_MAX_DIMS; ++d) {
        unsigned k = d < dev->ndims ? dev->sizes[d] : 1;
        v |= (uint64_t)(rest % k) << (CANOPY_COORD_BITS * d);
        rest /= k;
    }
    return v;
}

/* Ring the INJ_TAIL doorbell for packets written but not yet announced (core.c). */
int canopy_dev_doorbell(canopy_dev *dev);
/* Write one packet of nflits flits into the injection ring for local-port VC vc; the
 * doorbell is batched (core.c). */
int canopy_dev_inject(canopy_dev *dev, const uint64_t *flits, unsigned nflits, unsigned vc);
int canopy_dev_inject_batch(canopy_dev *dev, const uint64_t *flits, unsigned nflits, unsigned npkts, unsigned vc);

/* Packets of one size and VC collected into one ring entry: canopy_batch_slot gives a
 * zeroed slot for the next packet (injecting the batch first if the packet cannot join
 * it: another size, or the batch is full); canopy_batch_flush injects what is collected. */
struct canopy_batch {
    uint64_t words[MAX_ENTRY_WORDS];
    unsigned npkts, nflits, vc;
};
int canopy_batch_slot(canopy_dev *dev, struct canopy_batch *b, unsigned nflits, uint64_t **slot);
int canopy_batch_flush(canopy_dev *dev, struct canopy_batch *b);
/* Every wait of the library (core.c): hal wait, in slices of COLL_PROGRESS_SLICE_NS while
 * reduces are in flight, re-issuing refused reduces between them. */
int canopy_dev_wait(canopy_dev *dev, const volatile uint64_t *addr, uint64_t mask, int cmp, uint64_t value,
                    uint64_t timeout_ns);
#define COLL_PROGRESS_SLICE_NS 5000ull
/* Reduces in flight on some tree (coll.c). */
int canopy_coll_busy(const canopy_dev *dev);
/* Collect the results of every tree's reduces in flight, re-issuing the refused ones whose
 * turn has come (coll.c). Returns 0: a failed re-issue ends that reduce with its error. */
int canopy_coll_progress(canopy_dev *dev);

#endif /* CANOPY_DEV_H */
