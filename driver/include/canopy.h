/* canopy.h: libcanopy, the user-space (kernel-bypass) driver of the canopy router.
 *
 * One API over three hardware-access backends: "sim" (the Verilator co-simulation, started
 * by sim/canopy-run), "pci" (a board: libpciaccess finds the device and maps BAR0, DMA
 * memory comes from hugepages or VFIO) and "serial" (a board reached through its serial
 * bridge, e.g. the ECP5 evaluation board's USB UART: docs/bring-up.md). Programs do not
 * choose: canopy_open picks "sim" when the launcher started them, "pci" otherwise, unless
 * told (opts.backend or CANOPY_BACKEND).
 *
 * Model. Every node owns one registered memory *window*; a put writes bytes into another
 * node's window at an offset, and a get reads bytes of another node's window into this
 * node's, both without the other node's software (one-sided: its host interface does the
 * DMA). Puts and gets are asynchronous: canopy_put returns once the data has been handed
 * to the device, canopy_get once the request has; canopy_quiet waits until every earlier
 * put is in its target's memory (acknowledged by the target) and every earlier get's data
 * is in this node's window, and reports any a target refused. Between one source and one
 * target, puts arrive in the order they were issued (fixed dimension-order routes), and a
 * get sees every put this node issued to that target before it.
 *
 * Errors are negative `enum canopy_status` values; canopy_strerror names them. No call
 * blocks without a bound: waits take a timeout, and the simulator's watchdog stops a run
 * that can make no progress. A canopy_dev is not thread-safe: use one per thread.
 */
#ifndef CANOPY_H
#define CANOPY_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum canopy_status {
    CANOPY_OK = 0,
    CANOPY_EINVAL = -1,     /* an argument is invalid (NULL, zero, misaligned, unknown) */
    CANOPY_ENODEV = -2,     /* no device found / backend unavailable */
    CANOPY_ENOMEM = -3,     /* out of DMA-able memory */
    CANOPY_ERANGE = -4,     /* node, offset or size outside what exists or is registered */
    CANOPY_ETIMEDOUT = -5,  /* a wait ran out of time */
    CANOPY_EIO = -6,        /* the device misbehaved (bad ID, lost contact) */
    CANOPY_ECLOSED = -7,    /* the handle is closed (NULL) */
    CANOPY_ENOTREG = -8,    /* memory is not inside the registered window */
    CANOPY_EBUSY = -9,      /* already done / still in use (e.g. window registered twice) */
    CANOPY_EREFUSED = -10,  /* a target refused a put or get (outside its window) */
    CANOPY_EAGAIN = -11,    /* nothing to report yet (polling) */
    CANOPY_EPERM = -12,     /* the OS refused access (device files, hugepages, pagemap) */
    CANOPY_ENOTREE = -13,   /* the tree is not set up on this node (canopy_tree_attach) */
    CANOPY_EREDUCE = -14,   /* a reduce failed: contributions disagreed (op, type, length) or repeated */
    CANOPY_ERETRY = -15,    /* a reduce was refused by a router's full reduce memory every time it was
                               re-issued (CANOPY_REDUCE_RETRIES times) */
    CANOPY_ENOPORT = -16,   /* serial: the port does not exist or cannot be opened and set up */
    CANOPY_ENOANSWER = -17, /* serial: nothing answered on the port (no board, wrong baud rate, board off) */
    CANOPY_ECHECKSUM = -18, /* serial: frames failed their checksum on every retry (a noisy or wrong line) */
    CANOPY_EDEVTIMEOUT = -19, /* serial: the board's bridge answered that a node's bus did not respond */
    CANOPY_ETREEDOWN = -20, /* the tree is down: a collective on it did not complete within the collective
                               timeout (canopy_coll_set_timeout); it is retired on this node */
    CANOPY_EUNREACH = -21,  /* the route to the node, or back, crosses a link that is down
                               (canopy_set_dead_links); nothing was sent */
};

/* A short description of a status value (never NULL). */
const char *canopy_strerror(int status);

typedef struct canopy_dev canopy_dev;

struct canopy_open_opts {
    const char *backend;   /* "sim", "pci", "serial" or NULL: CANOPY_BACKEND if set, else "sim" if
                              launched by canopy-run, else "pci" */
    const char *pci_id;    /* pci: "vvvv:dddd" vendor:device id (hex), or NULL for canopy's */
    const char *pci_addr;  /* pci: "dddd:bb:ss.f" bus address, or NULL (first match by id) */
    char *errmsg;          /* optional: on failure, a sentence saying what was tried */
    size_t errmsg_len;     /* size of errmsg */
    const char *serial_port; /* serial: the board's port (e.g. /dev/ttyUSB1), or NULL: CANOPY_SERIAL_PORT.
                                The node is CANOPY_NODE (default 0); docs/bring-up.md lists the rest */
};

/* Open the node this process runs on. opts may be NULL (all defaults). */
int canopy_open(canopy_dev **dev, const struct canopy_open_opts *opts);
/* Quiet, unregister, release, and set *dev to NULL, so a later call with the same variable
 * returns CANOPY_ECLOSED instead of touching freed memory. Closing NULL is a no-op. */
int canopy_close(canopy_dev **dev);

struct canopy_caps {
    uint32_t magic, version_major, version_minor;
    uint32_t build_git, build_date;
    uint32_t trees, reduce_ids, ops_mask, dtypes_mask;
    uint32_t max_payload, flit_bits, vcs;
    uint32_t inj_ring_words;
    uint32_t get_slots;      /* gets and atomics a node may have outstanding toward one target */
    uint32_t max_get_bytes;  /* largest get request (canopy_get splits longer ones) */
    uint32_t amo_ops;        /* atomics served: bit per CANOPY_AMO_* operation; 0 = none */
};
int canopy_caps(canopy_dev *dev, struct canopy_caps *caps);

/* This node, the node count, and a node's coordinates (X first; unused dims 0). */
int canopy_my_node(canopy_dev *dev);
int canopy_num_nodes(canopy_dev *dev);
int canopy_ndims(canopy_dev *dev);
int canopy_coords(canopy_dev *dev, int node, unsigned coords[4]);

/* Links that are down, as the fabric manager learned them from every node's LINK_DOWN
 * register (canopy_counters.link_down): dead[i] bit p marks the link out of node i's router
 * port p (2d: + in dimension d, 2d+1: -); a link is down if either end is marked. nodes
 * must be canopy_num_nodes; a bit for a port the torus lacks is refused (CANOPY_EINVAL);
 * dead = NULL forgets them all. From then on canopy_put, canopy_get and canopy_amo refuse
 * with CANOPY_EUNREACH, before sending anything, a transfer whose dimension-order route
 * (the routers' own) crosses a down link in either direction: out (the data or request)
 * or back (its acknowledgement or reply). The map is copied. */
int canopy_set_dead_links(canopy_dev *dev, const uint8_t *dead, size_t nodes);
/* 1 if the route from node src to node dst crosses no link marked down, 0 if it does
 * (a negative status for a closed handle or a node out of range). */
int canopy_route_up(canopy_dev *dev, int src, int dst);
/* Learn, with every other node, which links are down, and hand the map to
 * canopy_set_dead_links. Every node calls it (once both ends of a dead link have declared
 * it down: about 1,000 cycles after the death, docs/link.md), each within timeout_ns of
 * its neighbours. Each node's LINK_DOWN is flooded over the live one-hop routes (to a
 * neighbour whose route, out and back, is only the link between the two, whose state this
 * node's own end knows), canopy_num_nodes - 1 rounds, so every node connected to the rest
 * ends with the same map: dead[i] bit p for node i's port p, both ends of each dead link.
 * Its messages go into [scratch_off, scratch_off + canopy_links_gather_bytes) of every
 * node's window (the same offset everywhere, 8-byte aligned; keep other traffic out of it
 * until every node has returned). dead may be NULL. CANOPY_ETIMEDOUT: a live neighbour
 * did not take part within timeout_ns; CANOPY_ENOTREG: no window; CANOPY_ERANGE: the area
 * is not inside it. */
int canopy_links_gather(canopy_dev *dev, uint64_t scratch_off, uint64_t timeout_ns, uint8_t *dead);
size_t canopy_links_gather_bytes(canopy_dev *dev);

/* Allocate this node's window (DMA-able, zeroed, page aligned; a window of 2 MiB or more
 * is 2 MiB aligned) and register it with the device; remote puts land in it. Once per
 * open; *base receives its address. */
int canopy_window(canopy_dev *dev, size_t size, void **base);
size_t canopy_window_size(canopy_dev *dev);
/* A power of two M such that windows of 2 MiB or more, registered alike by every process
 * of a job (the same allocations in the same order), lie at addresses congruent modulo M
 * on every node: then one window offset gives an address aligned to any power of two up to
 * M on every node (OpenSHMEM's shmem_align). sim: up to 1 GiB (the arena layout); pci:
 * 2 MiB (hugepages). */
uint64_t canopy_window_congruence(canopy_dev *dev);

/* Write len bytes from src into node's window at offset. Any alignment, any length
 * (split into packets of at most max_payload bytes, pipelined). Returns once the data is
 * in the device's injection ring. flags: CANOPY_PUT_NOTIFY also posts an event at the
 * target (see canopy_poll). */
#define CANOPY_PUT_NOTIFY 0x1u
int canopy_put(canopy_dev *dev, int node, uint64_t offset, const void *src, size_t len,
               unsigned flags);

/* Read len bytes from node's window at remote_offset into this node's window at
 * local_offset: one-sided, the target's host interface serves it by DMA without its
 * software. Any alignment and length. Asynchronous: returns once the request is in the
 * device; canopy_quiet waits until every earlier get (and put) has completed and returns
 * CANOPY_EREFUSED if a target refused one (outside its window). */
int canopy_get(canopy_dev *dev, int node, uint64_t remote_offset, uint64_t local_offset, size_t len);

/* Remote atomics (AMOs): operation op (CANOPY_AMO_FETCH, _SET, _CSWAP, _ADD, _AND, _OR,
 * _XOR, from canopy_packet.h) on the size-byte (4 or 8) object at offset in node's window
 * (offset a multiple of size; any node, this one too). The target's host interface reads
 * the object from its host memory, writes the new value back and answers, one atomic at a
 * time: so all atomics on one node's memory, from every node (itself included), are
 * atomic with respect to each other. The old value is written at reply_offset in this
 * node's window (any alignment), or nowhere with CANOPY_AMO_NO_REPLY. compare is CSWAP's
 * (the new value is operand if the old one equals it); 4-byte atomics use the low 32 bits
 * of operand and compare. Asynchronous like canopy_get: returns once the request is in the
 * device; canopy_quiet or canopy_amo_wait completes it (atomics count against
 * caps.get_slots with gets: the call waits for a slot when it must). */
#define CANOPY_AMO_NO_REPLY UINT64_MAX
int canopy_amo(canopy_dev *dev, int node, uint64_t offset, unsigned op, unsigned size, uint64_t operand,
               uint64_t compare, uint64_t reply_offset);
/* Wait until every get and atomic this node has issued toward node has completed (its
 * data, if any, in this node's window). Refusals are reported by canopy_quiet. */
int canopy_amo_wait(canopy_dev *dev, int node, uint64_t timeout_ns);
/* An atomic that returns the old value in *old: canopy_amo with the reply at reply_offset
 * (scratch: 8 bytes of this node's window), then canopy_amo_wait, then the value read.
 * CANOPY_EREFUSED (and *old untouched) if it failed at its target (refused there, or its
 * host refused the read), or if another of this node's gets did meanwhile. */
int canopy_amo_fetch(canopy_dev *dev, int node, uint64_t offset, unsigned op, unsigned size, uint64_t operand,
                     uint64_t compare, uint64_t reply_offset, uint64_t *old, uint64_t timeout_ns);

/* Wait until every put issued so far is in its target's memory and every get issued so
 * far has its data in this node's window. Returns CANOPY_EREFUSED if any target refused
 * one since the last quiet, CANOPY_ETIMEDOUT after timeout_ns. */
int canopy_quiet(canopy_dev *dev, uint64_t timeout_ns);
/* Order: puts issued after a fence arrive after those before it. Routes are fixed, so
 * this holds per target by construction; across targets a fence is a quiet. */
int canopy_fence(canopy_dev *dev);

/* Notifications and reported errors, from the ejection ring. */
enum canopy_event_kind {
    CANOPY_EV_PUT_NOTIFY = 0,   /* a put with CANOPY_PUT_NOTIFY arrived */
    CANOPY_EV_PUT_REFUSED = 1,  /* an arriving put was outside this node's window */
    CANOPY_EV_UNSUPPORTED = 2,  /* a packet of a kind this node cannot take */
    CANOPY_EV_PUT_CUT = 3,      /* a put with CANOPY_PUT_NOTIFY arrived cut by a dying link: it
                                   failed (its sender's quiet says so), its bytes are undefined */
};
struct canopy_event {
    int kind;
    int src_node;
    uint64_t offset;
    uint32_t len;
};
/* Non-blocking: CANOPY_OK with *ev filled, or CANOPY_EAGAIN. */
int canopy_poll(canopy_dev *dev, struct canopy_event *ev);
/* Blocking with a timeout. */
int canopy_wait_event(canopy_dev *dev, struct canopy_event *ev, uint64_t timeout_ns);

/* Block until the 64-bit word at addr (inside this node's window, 8-byte aligned)
 * compares to value: cmp is one of CANOPY_CMP_*. The library waits for memory, not by
 * spinning against the simulator. */
enum { CANOPY_CMP_EQ, CANOPY_CMP_NE, CANOPY_CMP_GT, CANOPY_CMP_GE, CANOPY_CMP_LT, CANOPY_CMP_LE };
static inline int canopy_cmp_holds(uint64_t v, int cmp, uint64_t value)
{
    switch (cmp) {
    case CANOPY_CMP_EQ: return v == value;
    case CANOPY_CMP_NE: return v != value;
    case CANOPY_CMP_GT: return v > value;
    case CANOPY_CMP_GE: return v >= value;
    case CANOPY_CMP_LT: return v < value;
    case CANOPY_CMP_LE: return v <= value;
    default: return 0;
    }
}
int canopy_wait_u64(canopy_dev *dev, const volatile uint64_t *addr, int cmp, uint64_t value,
                    uint64_t timeout_ns);
/* Let the device make progress: block until it has written anything into this node's host
 * memory (window, rings, counters) since the call, or timeout_ns of device time has passed
 * (CANOPY_ETIMEDOUT). For waits on many words at once and for polling loops: the caller
 * checks again what it waits for; a return does not say that any particular word changed.
 * (Under "sim" the PE otherwise takes no simulated time between calls; under "pci" this
 * pauses for at most timeout_ns.) */
int canopy_wait_any(canopy_dev *dev, uint64_t timeout_ns);

/* End the job this process belongs to (every PE the launcher started with it) with exit
 * status `status` (0..255): the co-simulation stops every other PE at once and
 * sim/canopy-run exits with `status`. The caller must then exit without another libcanopy
 * call (OpenSHMEM's shmem_global_exit does _exit(status)). CANOPY_EINVAL for a status out
 * of range; CANOPY_ENODEV where there is no job to end (pci: one process per board,
 * started by hand), and nothing is stopped. */
int canopy_job_exit(canopy_dev *dev, int status);

/* Device time: simulated nanoseconds under "sim", wall-clock under "pci"; and the
 * router clock cycle count under "sim" (0 under "pci"). */
uint64_t canopy_time_ns(canopy_dev *dev);
uint64_t canopy_cycles(canopy_dev *dev);

/* The device's error and traffic counters (CSRs). */
struct canopy_counters {
    uint64_t err_bad_type, err_bad_dst, err_bad_len, err_dma_bounds, err_inj_desc,
        err_inj_write, err_doorbell, err_csr, err_ej_noring;
    uint64_t tx_pkts, tx_flits, rx_pkts, rx_flits, rx_puts, puts_acked, puts_failed;
    uint64_t err_tree_write, err_coll_dir, err_coll_tree, rx_bcasts;
    uint64_t err_reduce, reduces_sent, reduces_done;
    uint64_t reduces_refused; /* reduces this node's router refused (accumulators full): re-issued */
    uint64_t err_get_bounds, err_get_dropped, gets_served, get_resps, gets_done, gets_failed;
    uint64_t amos_served;
    /* DMA bursts (writes) and beats (reads) the host refused (BRESP / RRESP an error: the
     * bridge or the IOMMU); 0 on a device before 1.4, which does not check them. */
    uint64_t err_dma_write, err_dma_read;
    /* Link state (1.5): bit p, the link out of router port p (2d toward + in dimension d,
     * 2d+1 toward -) was declared down by its link end; flits the router sent into dead
     * links and lost there. Both 0 on a device before 1.5 and on unprotected links. */
    uint64_t link_down, link_drops;
};
int canopy_counters(canopy_dev *dev, struct canopy_counters *c);

/* ------------------------------------------------------------------ collectives
 * The collective subnet (docs/collectives.md). Each router holds one routing table entry
 * per tree (a 32-bit word, layout and accessors in canopy_packet.h: canopy_tree_get_*);
 * the fabric manager (fw/) computes and programs them. */

/* Write / read this node's own entry for `tree` through its CSRs. A write the router
 * refuses (the entry breaks a rule of docs/collectives.md) returns CANOPY_EREFUSED and
 * leaves the table unchanged. */
int canopy_tree_write(canopy_dev *dev, unsigned tree, uint32_t entry);
int canopy_tree_read(canopy_dev *dev, unsigned tree, uint32_t *entry);
/* Write node's entry with a CONFIG packet (any node may configure any router). Like a
 * put: canopy_quiet confirms it, returning CANOPY_EREFUSED if that router refused it. */
int canopy_tree_write_remote(canopy_dev *dev, int node, unsigned tree, uint32_t entry);
/* Make `tree` usable by this node's collective calls: reads this node's entry (its
 * groups and transit flag) and records which node is the tree's root. Every node calls
 * it once the tables are programmed (canopy_fm_setup does). If the entry is invalid the
 * node is not in the tree: CANOPY_ENOTREE, and the tree is detached here. */
int canopy_tree_attach(canopy_dev *dev, unsigned tree, int root_node);

/* Spread long reduces over several trees: a reduce or allreduce on `tree` sends its
 * 256-byte chunk j over trees[j % n] (each chunk is an ordinary reduce on its tree, so its
 * order of combination, and with it every result bit, is fixed by that tree). The trees
 * must span exactly the members of `tree` (typically the same member set with other roots:
 * canopy_fm_stripe_roots, canopy_fm_setup), be attached on this node, and every member must
 * set the same list; `tree` itself is usually among them. Why: a router's reduce engine
 * takes one flit a cycle, and a tree's root combines a contribution from each child and
 * its host; over trees with spread-out roots every router does its share (docs/
 * collectives.md, "Striping"). At most CANOPY_MAX_STRIPE trees; n = 0 or 1 turns it off.
 * CANOPY_ERANGE for a tree id out of range, CANOPY_ENOTREE for one not attached or not
 * holding this node as a member, CANOPY_EINVAL for a tree listed twice. */
#define CANOPY_MAX_STRIPE 16
int canopy_tree_stripe(canopy_dev *dev, unsigned tree, const unsigned *trees, unsigned n);

/* The completion of a collective call, filled by the call, tested or waited on. A reduce
 * call's ids on each tree it used: nrids consecutive ids from first_rid (wrapping at 32),
 * the tree's issues first_gen, first_gen + 1, ... (an id may be reused by a later call). */
struct canopy_coll_part {
    unsigned tree;
    int nrids;
    unsigned first_rid;
    uint32_t first_gen;
};
struct canopy_coll {
    unsigned tree;
    uint32_t target;   /* broadcasts: the tree's completion counter value that means "done" */
    int pending;       /* 0 once complete (or if nothing had to arrive here) */
    unsigned nparts;   /* reduces: the trees the call's ids are on (part[0..nparts)) */
    struct canopy_coll_part part[CANOPY_MAX_STRIPE];
    int failed;        /* a part of this call already completed with this error (0: none) */
    uint64_t deadline_ns; /* device time (canopy_time_ns) by which it must complete */
};

/* Broadcast `size` bytes from node `root`'s `src` into the window of every member of
 * (tree, group) at `offset`. Every member calls it with the same tree, group, root,
 * offset and size (src is read at the root only); any node of the tree may be the root.
 * The call returns once the root's data is in the device; `done` completes on a member
 * when all the bytes are in its window (at a root that is a member: once they have come
 * back through the tree's root; at a root outside the group: at once). With
 * CANOPY_BCAST_SKIP_SRC the root's own window is not written. Broadcasts on one tree arrive in
 * the order the tree's root serialized them. */
#define CANOPY_BCAST_SKIP_SRC 0x1u
struct canopy_bcast_args {
    unsigned tree, group;
    int root;
    uint64_t offset;
    size_t size;
    const void *src;
    unsigned flags;
};
int canopy_bcast(canopy_dev *dev, const struct canopy_bcast_args *a, struct canopy_coll *done);
/* Reduce and allreduce in the routers (seed 002): every member of the tree contributes
 * `count` elements of `dtype` (CANOPY_DT_I32, _U32, _I64, _U64) from `src`; the routers
 * combine them with `op` (CANOPY_OP_SUM, _MIN, _MAX; integer sums wrap) up the tree, and
 * the result is written at `dst_offset` in the window of node `root` (canopy_reduce) or
 * of every member (canopy_allreduce). Every member calls with the same arguments (src
 * differs). A vector of more than 256 bytes is split over consecutive reduce ids, at most
 * 32 in flight per tree (the call waits for earlier ones to finish when it must); on a
 * striped tree (canopy_tree_stripe) its chunks go round robin over the stripe's trees, at
 * most CAPS.reduce_ids of them in flight together. `done`
 * completes on every member once its part is done (the result has reached the root's or
 * this node's window); CANOPY_EREDUCE if the routers found contributions that disagreed.
 * Group must be 0 (the tree's whole member set).
 * A router whose reduce memory (accumulators shared by the trees) is full refuses a new
 * reduce rather than wait (docs/collectives.md); every member then sees it come back
 * refused and re-issues it, under the same reduce id, once its own earlier reduces on the
 * tree have completed: transparently, while `done` is tested or waited on (or while a later
 * call needs the id), at most CANOPY_REDUCE_RETRIES times; then `done` completes with
 * CANOPY_ERETRY. The call keeps a copy of this node's contribution for that. */
#define CANOPY_REDUCE_RETRIES 16
struct canopy_reduce_args {
    unsigned tree, group;
    int root;            /* canopy_reduce: the node that receives the result */
    unsigned op, dtype;
    size_t count;
    const void *src;
    uint64_t dst_offset;
};
int canopy_reduce(canopy_dev *dev, const struct canopy_reduce_args *a, struct canopy_coll *done);
int canopy_allreduce(canopy_dev *dev, const struct canopy_reduce_args *a, struct canopy_coll *done);
/* Barrier over the tree's members: an empty allreduce; returns when every member has
 * entered it. canopy_sync: waits for this node's own broadcasts to come back, then two
 * barriers, after which every broadcast any member issued (as a member of its group)
 * before the sync has reached every member (002's double synchronisation). */
int canopy_barrier(canopy_dev *dev, unsigned tree, uint64_t timeout_ns);
int canopy_sync(canopy_dev *dev, unsigned tree, uint64_t timeout_ns);

/* CANOPY_OK once complete, CANOPY_EAGAIN before. A wait that runs out of its own
 * timeout_ns returns CANOPY_ETIMEDOUT and leaves the collective pending (wait again). */
int canopy_coll_test(canopy_dev *dev, struct canopy_coll *c);
int canopy_coll_wait(canopy_dev *dev, struct canopy_coll *c, uint64_t timeout_ns);

/* The collective timeout (docs/collectives.md, "When a collective cannot complete"): a
 * broadcast, reduce, allreduce, barrier or sync that has not completed on this node
 * timeout_ns of device time after it was issued here (a dead link in its tree, a member
 * that never takes part) fails, and takes its tree down on this node: this node's entry of
 * the tree is made invalid in its router (so that nothing arriving late on the tree is
 * written here: the router drops it and counts it in ERR_COLL_TREE), every collective still
 * pending on the tree ends with CANOPY_ETREEDOWN, its reduce ids are released, and every
 * later call on the tree (canopy_tree_attach too) returns CANOPY_ETREEDOWN: the routers may
 * still hold the abandoned reduces, so the tree's index stays retired until the fabric is
 * reset; the fabric manager builds a replacement under another index. 0 restores the
 * default, CANOPY_COLL_TIMEOUT_DEFAULT_NS. Applies to collectives issued after the call. */
#define CANOPY_COLL_TIMEOUT_DEFAULT_NS (10ull * 1000 * 1000 * 1000)
int canopy_coll_set_timeout(canopy_dev *dev, uint64_t timeout_ns);
/* Whether the tree is down on this node (1), up (0), or an error (bad tree). */
int canopy_tree_down(canopy_dev *dev, unsigned tree);

/* ------------------------------------------------------------------ window alias
 * (window_alias.c) Map the window bytes [win_offset, win_offset + len) over the program's
 * memory at addr (all page aligned), after copying addr's current contents into them:
 * remote puts to those window offsets then land in the program's variables there (the
 * SHMEM layer aliases .data/.bss this way). CANOPY_ENODEV on a backend that cannot (pci);
 * errmsg (optional) receives a sentence. */
int canopy_window_alias(canopy_dev *dev, void *addr, size_t len, uint64_t win_offset, char *errmsg,
                        size_t errmsg_len);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_H */
