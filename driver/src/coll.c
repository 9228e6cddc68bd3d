/* coll.c: libcanopy's collectives: the routing-table calls, broadcast, reduce,
 * allreduce, barrier and sync over the collective subnet (docs/collectives.md).
 *
 * Completion is read from memory the device writes: a counter word per tree (broadcast
 * packets and results received) and a status word per (tree, reduce id), both in the
 * COLL_WB_BASE area that core.c allocates at open.
 */
#include <stdlib.h>
#include <string.h>

#include "canopy.h"
#include "canopy_packet.h"
#include "canopy_regs.h"
#include "dev.h"

int canopy_tree_write(canopy_dev *dev, unsigned tree, uint32_t entry)
{
    int rc = usable(dev);
    if (rc) return rc;
    if (tree >= dev->caps.trees) return CANOPY_ERANGE;
    uint64_t status;
    if ((rc = csr_write(dev, CANOPY_REG_TREE_SEL, tree)) || (rc = csr_write(dev, CANOPY_REG_TREE_ENTRY, entry)) ||
        (rc = csr_read(dev, CANOPY_REG_STATUS, &status))) /* non-posted: the write has been judged */
        return rc;
    return CANOPY_FIELD(status, STATUS, TREE_REFUSED) ? CANOPY_EREFUSED : CANOPY_OK;
}

int canopy_tree_read(canopy_dev *dev, unsigned tree, uint32_t *entry)
{
    int rc = usable(dev);
    if (rc) return rc;
    if (!entry) return CANOPY_EINVAL;
    if (tree >= dev->caps.trees) return CANOPY_ERANGE;
    uint64_t v;
    if ((rc = csr_write(dev, CANOPY_REG_TREE_SEL, tree)) || (rc = csr_read(dev, CANOPY_REG_TREE_READ, &v))) return rc;
    *entry = (uint32_t)v;
    return CANOPY_OK;
}

int canopy_tree_write_remote(canopy_dev *dev, int node, unsigned tree, uint32_t entry)
{
    int rc = usable(dev);
    if (rc) return rc;
    if (node < 0 || node >= dev->nodes || tree >= dev->caps.trees) return CANOPY_ERANGE;
    uint64_t hdr[2] = {0, 0};
    canopy_hdr_set_ptype(hdr, CANOPY_PKT_CONFIG);
    canopy_hdr_set_flags(hdr, CANOPY_FLAG_ACK_REQ);
    canopy_hdr_set_dst(hdr, packed_coords(dev, node));
    canopy_hdr_set_src(hdr, packed_coords(dev, dev->node));
    canopy_hdr_set_tree(hdr, tree);
    canopy_hdr_set_offset(hdr, entry);
    if ((rc = canopy_dev_inject(dev, hdr, 2, CANOPY_VC_P2P_LO))) return rc;
    ++dev->puts_issued; /* acknowledged like a put: canopy_quiet confirms it */
    return canopy_dev_doorbell(dev);
}

int canopy_tree_attach(canopy_dev *dev, unsigned tree, int root_node)
{
    int rc = usable(dev);
    if (rc) return rc;
    if (tree >= dev->caps.trees || root_node < 0 || root_node >= dev->nodes) return CANOPY_ERANGE;
    struct coll_tree *t = &dev->trees[tree];
    if (t->down) return CANOPY_ETREEDOWN; /* retired: the routers may hold its abandoned reduces */
    if ((rc = canopy_tree_read(dev, tree, &t->entry))) return rc;
    t->attached = 0; /* until this entry says the node is in the tree */
    if (!canopy_tree_get_valid(t->entry)) return CANOPY_ENOTREE;
    t->attached = 1;
    t->root = root_node;
    t->expect = 0;
    /* The device restarted this tree's counters when the entry was written; its next
     * writes are 1 (broadcast counter) and status words counting results from 1. */
    volatile uint64_t *area = dev->coll.vaddr;
    area[tree] = 0;
    for (unsigned r = 0; r < CANOPY_REDUCE_IDS; ++r) area[COLL_STATUS_WORD(tree, r)] = 0;
    t->next_rid = 0;
    t->rid_busy = 0;
    t->rid_retry = 0;
    t->own_expect = 0;
    t->nstripe = 0; /* a stripe set names trees as they were: set it again */
    return CANOPY_OK;
}

/* ------------------------------------------------------------------ the collective timeout */
int canopy_coll_set_timeout(canopy_dev *dev, uint64_t timeout_ns)
{
    int rc = usable(dev);
    if (rc) return rc;
    dev->coll_timeout_ns = timeout_ns;
    return CANOPY_OK;
}

int canopy_tree_down(canopy_dev *dev, unsigned tree)
{
    int rc = usable(dev);
    if (rc) return rc;
    if (tree >= dev->caps.trees) return CANOPY_ERANGE;
    return dev->trees[tree].down;
}

/* The device time by which a collective issued now must have completed here. */
static uint64_t coll_deadline(canopy_dev *dev)
{
    const uint64_t t = dev->coll_timeout_ns ? dev->coll_timeout_ns : CANOPY_COLL_TIMEOUT_DEFAULT_NS;
    return dev->hal.ops->now_ns(&dev->hal) + t;
}

/* Whether the device time is past a deadline. Asked only where a collective has not
 * completed: in a wait, once its slice (which ends just past the deadline) has run out,
 * and in canopy_coll_test every COLL_TEST_CLOCK_POLLS-th time (reading the clock is a
 * frame round trip on the serial backend, and programs poll the test in loops). */
#define COLL_TEST_CLOCK_POLLS 64
static int past(canopy_dev *dev, uint64_t deadline_ns)
{
    return dev->hal.ops->now_ns(&dev->hal) >= deadline_ns;
}

static void rid_finish(struct coll_tree *t, unsigned rid, int err);

/* A collective on `tree` ran out of time: take the tree down here. Its entry in this
 * node's router becomes invalid first, so the router drops whatever still arrives on it
 * (a late contribution's result, a broadcast that was held up) rather than write it into
 * the window, which the program may already use for something else. Every reduce id
 * still busy is released with CANOPY_ETREEDOWN; broadcast handles see `down`. */
static void tree_down(canopy_dev *dev, unsigned tree)
{
    struct coll_tree *t = &dev->trees[tree];
    if (t->down) return;
    t->down = 1;
    (void)canopy_tree_write(dev, tree, 0); /* an invalid entry is always accepted */
    for (unsigned r = 0; r < CANOPY_REDUCE_IDS; ++r)
        if (t->rid_busy & (1u << r)) rid_finish(t, r, CANOPY_ETREEDOWN);
}

static int tree_member(const struct coll_tree *t, unsigned group)
{
    return !canopy_tree_get_transit(t->entry) && ((canopy_tree_get_groups(t->entry) >> group) & 1u);
}

int canopy_bcast(canopy_dev *dev, const struct canopy_bcast_args *a, struct canopy_coll *done)
{
    int rc = usable(dev);
    if (rc) return rc;
    if (!a || !done || a->size == 0 || (a->flags & ~CANOPY_BCAST_SKIP_SRC) || a->group >= CANOPY_MAX_GROUPS)
        return CANOPY_EINVAL;
    if (a->tree >= dev->caps.trees || a->root < 0 || a->root >= dev->nodes) return CANOPY_ERANGE;
    struct coll_tree *t = &dev->trees[a->tree];
    if (t->down) return CANOPY_ETREEDOWN;
    if (!t->attached) return CANOPY_ENOTREE;
    const uint64_t offset_limit = (uint64_t)1 << CANOPY_HDR_OFFSET_WIDTH;
    if (a->offset >= offset_limit || a->size > offset_limit - a->offset) return CANOPY_ERANGE;
    const int i_am_root = a->root == dev->node;
    /* Every member counts every packet (the source too: with SKIP_SRC its copy is counted
     * but not written), so completion at the source means "past the tree's root". */
    const int receive = tree_member(t, a->group);
    const int written = receive && !(i_am_root && (a->flags & CANOPY_BCAST_SKIP_SRC));
    if (written && (!dev->win.vaddr || a->offset + a->size > dev->win.size)) return CANOPY_ERANGE;
    if (i_am_root && !a->src) return CANOPY_EINVAL;
    if (i_am_root && canopy_tree_get_transit(t->entry)) return CANOPY_EINVAL; /* a transit host never sends */

    const size_t mp = dev->caps.max_payload;
    const uint32_t npkts = (uint32_t)((a->size + mp - 1) / mp);
    if (i_am_root) {
        const uint8_t *p = a->src;
        struct canopy_batch batch = {.vc = CANOPY_VC_P2P_LO};
        for (size_t off = 0; off < a->size;) {
            size_t chunk = a->size - off < mp ? a->size - off : mp;
            uint64_t *flits;
            if ((rc = canopy_batch_slot(dev, &batch, 2 + (unsigned)((chunk + 7) / 8), &flits))) return rc;
            canopy_hdr_set_ptype(flits, CANOPY_PKT_BCAST_REQ);
            canopy_hdr_set_flags(flits, (a->flags & CANOPY_BCAST_SKIP_SRC) ? CANOPY_FLAG_SKIP_SRC : 0);
            canopy_hdr_set_dst(flits, packed_coords(dev, t->root)); /* to the tree's root */
            canopy_hdr_set_src(flits, packed_coords(dev, dev->node));
            canopy_hdr_set_len(flits, chunk);
            canopy_hdr_set_tree(flits, a->tree);
            canopy_hdr_set_offset(flits, a->offset + off);
            canopy_hdr_set_group(flits, a->group);
            memcpy(flits + 2, p + off, chunk);
            off += chunk;
        }
        if ((rc = canopy_batch_flush(dev, &batch)) || (rc = canopy_dev_doorbell(dev))) return rc;
    }
    memset(done, 0, sizeof *done);
    done->tree = a->tree;
    done->pending = receive;
    if (receive) t->expect += npkts;
    if (i_am_root && receive) t->own_expect = t->expect;
    done->target = t->expect;
    done->deadline_ns = coll_deadline(dev);
    return CANOPY_OK;
}

static uint32_t coll_count(canopy_dev *dev, unsigned tree)
{
    return (uint32_t)((volatile uint64_t *)dev->coll.vaddr)[tree];
}

static volatile uint64_t *rid_status(canopy_dev *dev, unsigned tree, unsigned rid)
{
    return (volatile uint64_t *)dev->coll.vaddr + COLL_STATUS_WORD(tree, rid);
}

/* Re-issue a refused reduce id once every reduce this node issued on the tree before it
 * has completed (every member issued those before this one, so they complete whatever the
 * others do: no member can wait on another here). Returns 0 or an injection error. */
static int rid_poll(canopy_dev *dev, unsigned tree, unsigned rid);
static int rid_reissue(canopy_dev *dev, unsigned tree, unsigned rid)
{
    struct coll_tree *t = &dev->trees[tree];
    for (unsigned k = 0; k < CANOPY_REDUCE_IDS; ++k) {
        if (k == rid || !(t->rid_busy & (1u << k)) || (int32_t)(t->rid_gen[k] - t->rid_gen[rid]) >= 0) continue;
        if (!rid_poll(dev, tree, k)) return CANOPY_OK; /* an older one is still in flight */
    }
    t->rid_retry &= ~(1u << rid); /* rid_before: the refused result's word */
    const int outer = dev->in_progress;
    dev->in_progress = 1; /* a wait for ring space re-issues nothing meanwhile */
    int rc = canopy_dev_inject(dev, t->saved[rid].flits, t->saved[rid].nflits, CANOPY_VC_COLL_UP);
    if (!rc) rc = canopy_dev_doorbell(dev);
    dev->in_progress = outer;
    return rc;
}

/* The current issue of reduce id `rid` of `tree` is over, with `err` (0 or an error). */
static void rid_finish(struct coll_tree *t, unsigned rid, int err)
{
    t->rid_busy &= ~(1u << rid);
    t->rid_retry &= ~(1u << rid);
    t->rid_done_gen[rid] = t->rid_gen[rid];
    t->rid_err[rid] = err;
}

/* Has reduce id `rid` of `tree` completed its current issue? (1 yes, 0 not yet.) A result
 * that a router refused (failed + retry) is re-issued instead, up to CANOPY_REDUCE_RETRIES
 * times, then the issue ends with CANOPY_ERETRY; the outcome is left in rid_err. Every
 * member sees the same results for the id, so every member re-issues it as often and
 * gives up on it together. */
static int rid_poll(canopy_dev *dev, unsigned tree, unsigned rid)
{
    struct coll_tree *t = &dev->trees[tree];
    const uint32_t bit = 1u << rid;
    if (!(t->rid_busy & bit)) return 1;
    if (!(t->rid_retry & bit)) {
        const uint64_t w = *rid_status(dev, tree, rid);
        if ((uint32_t)w == t->rid_before[rid]) return 0; /* no result yet */
        const int failed = (int)(w >> 63), refused = failed && ((w >> 62) & 1);
        if (!refused || t->rid_retries[rid] >= CANOPY_REDUCE_RETRIES) {
            rid_finish(t, rid, refused ? CANOPY_ERETRY : failed ? CANOPY_EREDUCE : CANOPY_OK);
            return 1;
        }
        ++t->rid_retries[rid];
        t->rid_before[rid] = (uint32_t)w;
        t->rid_retry |= bit;
    }
    const int rc = rid_reissue(dev, tree, rid);
    if (rc) rid_finish(t, rid, rc); /* the others will time out waiting for this node */
    return !(t->rid_busy & bit);
}

int canopy_coll_busy(const canopy_dev *dev)
{
    for (unsigned t = 0; t < CANOPY_MAX_TREES; ++t)
        if (dev->trees[t].rid_busy) return 1;
    return 0;
}

int canopy_coll_progress(canopy_dev *dev)
{
    if (dev->in_progress) return CANOPY_OK;
    dev->in_progress = 1;
    for (unsigned t = 0; t < CANOPY_MAX_TREES; ++t)
        for (unsigned r = 0; r < CANOPY_REDUCE_IDS && dev->trees[t].rid_busy; ++r) rid_poll(dev, t, r);
    dev->in_progress = 0;
    return CANOPY_OK;
}

/* A part's oldest id: 1 done (its error folded into c->failed), 0 not yet. */
static int part_rid_done(canopy_dev *dev, struct canopy_coll *c, const struct canopy_coll_part *p)
{
    const struct coll_tree *t = &dev->trees[p->tree];
    const unsigned rid = p->first_rid;
    if (t->rid_gen[rid] == p->first_gen) {
        if (!rid_poll(dev, p->tree, rid)) return 0;
        if (!c->failed) c->failed = t->rid_err[rid];
    } else if (t->rid_done_gen[rid] == p->first_gen && !c->failed) {
        c->failed = t->rid_err[rid]; /* completed, then reused by a later call */
    }
    return 1;
}

/* Drop a part's oldest id from the handle (done, or reused by the call itself). */
static void part_pop(struct canopy_coll_part *p)
{
    p->first_rid = (p->first_rid + 1) % CANOPY_REDUCE_IDS;
    ++p->first_gen;
    --p->nrids;
}

static int handle_ok(const struct canopy_coll *c)
{
    if (c->tree >= CANOPY_MAX_TREES || c->nparts > CANOPY_MAX_STRIPE) return 0;
    for (unsigned k = 0; k < c->nparts; ++k)
        if (c->part[k].tree >= CANOPY_MAX_TREES || c->part[k].nrids < 0 || c->part[k].nrids > CANOPY_REDUCE_IDS)
            return 0;
    return 1;
}

int canopy_coll_test(canopy_dev *dev, struct canopy_coll *c)
{
    int rc = usable(dev);
    if (rc) return rc;
    if (!c || !handle_ok(c)) return CANOPY_EINVAL;
    if (!c->pending) return c->failed;
    const int clock = ++dev->coll_test_polls % COLL_TEST_CLOCK_POLLS == 0;
    if (c->nparts) {
        for (unsigned k = 0; k < c->nparts; ++k) {
            struct canopy_coll_part *p = &c->part[k];
            while (p->nrids) {
                if (!part_rid_done(dev, c, p)) {
                    const struct coll_tree *t = &dev->trees[p->tree];
                    if (!clock || !past(dev, t->rid_deadline[p->first_rid])) return CANOPY_EAGAIN;
                    tree_down(dev, p->tree); /* its ids now end with CANOPY_ETREEDOWN */
                    continue;
                }
                part_pop(p);
            }
        }
    } else if ((int32_t)(coll_count(dev, c->tree) - c->target) < 0) {
        if (!dev->trees[c->tree].down && !(clock && past(dev, c->deadline_ns))) return CANOPY_EAGAIN;
        tree_down(dev, c->tree);
        c->failed = CANOPY_ETREEDOWN;
    }
    c->pending = 0;
    return c->failed;
}

/* The status word to wait on for a part's oldest id (its result changes it), or for the
 * oldest busy id of the tree if that one is refused and waits for older ones. */
static unsigned wait_rid(const struct coll_tree *t, unsigned rid)
{
    if (t->rid_retry & (1u << rid)) {
        for (unsigned k = 0; k < CANOPY_REDUCE_IDS; ++k)
            if ((t->rid_busy & ~t->rid_retry & (1u << k)) && (int32_t)(t->rid_gen[k] - t->rid_gen[rid]) < 0) rid = k;
    }
    return rid;
}

/* How long a wait for `deadline_ns` may last within the caller's `timeout_ns` (just past
 * the deadline, so that the test after it finds the deadline passed), and whether that is
 * the caller's limit rather than the deadline. */
static uint64_t wait_slice(canopy_dev *dev, uint64_t deadline_ns, uint64_t timeout_ns, int *callers)
{
    const uint64_t now = dev->hal.ops->now_ns(&dev->hal);
    const uint64_t left = deadline_ns > now ? deadline_ns - now + 1 : 1;
    *callers = timeout_ns <= left;
    return *callers ? timeout_ns : left;
}

int canopy_coll_wait(canopy_dev *dev, struct canopy_coll *c, uint64_t timeout_ns)
{
    int rc;
    while ((rc = canopy_coll_test(dev, c)) == CANOPY_EAGAIN) {
        const struct canopy_coll_part *p = NULL;
        for (unsigned k = 0; k < c->nparts && !p; ++k)
            if (c->part[k].nrids) p = &c->part[k];
        int callers;
        uint64_t slice;
        if (p) {
            const struct coll_tree *t = &dev->trees[p->tree];
            const unsigned rid = wait_rid(t, p->first_rid);
            slice = wait_slice(dev, t->rid_deadline[rid], timeout_ns, &callers);
            rc = canopy_dev_wait(dev, rid_status(dev, p->tree, rid), 0xffffffffull, CANOPY_CMP_NE,
                                    t->rid_before[rid], slice);
            if (rc == CANOPY_ETIMEDOUT && !callers && past(dev, t->rid_deadline[rid])) {
                tree_down(dev, p->tree);
                continue; /* the test now ends the call with CANOPY_ETREEDOWN */
            }
        } else {
            /* The counter only grows, from below the target (32-bit: wraps after 4G packets). */
            volatile uint64_t *w = (volatile uint64_t *)dev->coll.vaddr + c->tree;
            slice = wait_slice(dev, c->deadline_ns, timeout_ns, &callers);
            rc = canopy_dev_wait(dev, w, 0xffffffffull, CANOPY_CMP_GE, c->target, slice);
            if (rc == CANOPY_ETIMEDOUT && !callers && past(dev, c->deadline_ns)) {
                tree_down(dev, c->tree);
                continue;
            }
        }
        if (rc == CANOPY_ETIMEDOUT && !callers) continue; /* woken early: wait on */
        if (rc) return rc; /* (as before: timeout_ns bounds each wait for progress, not the whole call) */
    }
    return rc;
}

/* ------------------------------------------------------------------ reduces */
/* Wait until reduce id `rid` of `tree` is free (its current issue is over; re-issued first
 * if it came back refused). It is the tree's oldest id in flight, since ids go round robin. */
static int rid_wait_free(canopy_dev *dev, unsigned tree, unsigned rid)
{
    struct coll_tree *t = &dev->trees[tree];
    while (t->rid_busy & (1u << rid)) {
        if (rid_poll(dev, tree, rid)) break;
        int callers;
        const uint64_t slice = wait_slice(dev, t->rid_deadline[rid], DEFAULT_TIMEOUT_NS, &callers);
        int rc = canopy_dev_wait(dev, rid_status(dev, tree, rid), 0xffffffffull, CANOPY_CMP_NE, t->rid_before[rid],
                                 slice);
        if (rc == CANOPY_ETIMEDOUT && !callers && past(dev, t->rid_deadline[rid])) tree_down(dev, tree);
        else if (rc && !(rc == CANOPY_ETIMEDOUT && !callers)) return rc;
    }
    return t->down ? CANOPY_ETREEDOWN : CANOPY_OK;
}

/* Issue one chunk of a reduce call (`chunk` bytes at `off` of the vector) on `tree`, the
 * next id of the tree, tracked in part p of the call's handle. */
static int reduce_chunk(canopy_dev *dev, const struct canopy_reduce_args *a, int all, unsigned tree,
                        struct canopy_coll *done, struct canopy_coll_part *p, size_t off, size_t chunk)
{
    struct coll_tree *t = &dev->trees[tree];
    const unsigned rid = t->next_rid;
    /* All ids in flight: wait for this one (the oldest). It may be one of this call's own
     * (a vector longer than 32 ids on the tree) or of an earlier call. */
    int rc = rid_wait_free(dev, tree, rid);
    if (rc) return rc;
    if (p->nrids && p->first_rid == rid) { /* one of ours, done: drop it from the handle */
        if (!done->failed) done->failed = t->rid_err[rid];
        part_pop(p);
    }
    struct coll_saved *sv = &t->saved[rid];
    uint64_t *flits = sv->flits;
    memset(flits, 0, sizeof sv->flits);
    canopy_hdr_set_ptype(flits, CANOPY_PKT_REDUCE);
    canopy_hdr_set_dst(flits, all ? 0 : packed_coords(dev, a->root));
    canopy_hdr_set_src(flits, packed_coords(dev, dev->node));
    canopy_hdr_set_len(flits, chunk);
    canopy_hdr_set_tree(flits, tree);
    canopy_hdr_set_offset(flits, a->dst_offset + off);
    canopy_hdr_set_rid(flits, rid);
    canopy_hdr_set_op(flits, a->op);
    canopy_hdr_set_dtype(flits, a->dtype);
    canopy_hdr_set_group(flits, a->group);
    canopy_hdr_set_rflags(flits, all ? CANOPY_RFLAG_ALL : 0);
    if (chunk) memcpy(flits + 2, (const uint8_t *)a->src + off, chunk);
    sv->nflits = 2 + (unsigned)((chunk + 7) / 8);
    t->rid_before[rid] = (uint32_t)*rid_status(dev, tree, rid);
    t->rid_gen[rid] = ++t->issues;
    t->rid_retries[rid] = 0;
    t->rid_err[rid] = CANOPY_OK;
    t->rid_deadline[rid] = done->deadline_ns;
    t->rid_busy |= 1u << rid;
    if (!p->nrids) {
        p->first_rid = rid;
        p->first_gen = t->rid_gen[rid];
    }
    ++p->nrids; /* (a part's ids are consecutive on its tree, and so are their issues) */
    t->next_rid = (rid + 1) % CANOPY_REDUCE_IDS;
    return canopy_dev_inject(dev, flits, sv->nflits, CANOPY_VC_COLL_UP);
}

/* The trees a reduce on `tree` sends its chunks over (its stripe, or the tree alone), each
 * checked usable by this node now; their number, or a negative error. */
static int reduce_trees(canopy_dev *dev, unsigned tree, unsigned group, unsigned *out)
{
    const struct coll_tree *t = &dev->trees[tree];
    const unsigned n = t->nstripe > 1 ? t->nstripe : 1;
    for (unsigned k = 0; k < n; ++k) {
        out[k] = n > 1 ? t->stripe[k] : tree;
        struct coll_tree *s = &dev->trees[out[k]];
        if (s->down) return CANOPY_ETREEDOWN;
        if (!s->attached) return CANOPY_ENOTREE;
        if (!tree_member(s, group)) return CANOPY_EINVAL; /* a transit host takes no part */
        if (!s->saved && !(s->saved = calloc(CANOPY_REDUCE_IDS, sizeof *s->saved))) return CANOPY_ENOMEM;
    }
    return (int)n;
}

static int reduce_common(canopy_dev *dev, const struct canopy_reduce_args *a, int all, struct canopy_coll *done)
{
    int rc = usable(dev);
    if (rc) return rc;
    if (!a || !done || a->group != 0 || a->op > CANOPY_OP_MAX || a->dtype > CANOPY_DT_U64 || (a->count && !a->src))
        return CANOPY_EINVAL;
    if (a->tree >= dev->caps.trees || (!all && (a->root < 0 || a->root >= dev->nodes))) return CANOPY_ERANGE;
    if (dev->trees[a->tree].down) return CANOPY_ETREEDOWN;
    if (!dev->trees[a->tree].attached) return CANOPY_ENOTREE;
    const size_t esize = (a->dtype == CANOPY_DT_I32 || a->dtype == CANOPY_DT_U32) ? 4 : 8;
    if (a->count > ((size_t)1 << 32) / esize) return CANOPY_ERANGE;
    const size_t bytes = a->count * esize;
    const uint64_t offset_limit = (uint64_t)1 << CANOPY_HDR_OFFSET_WIDTH;
    if (a->dst_offset >= offset_limit || bytes > offset_limit - a->dst_offset) return CANOPY_ERANGE;
    const int receive = all || a->root == dev->node;
    if (receive && bytes && (!dev->win.vaddr || a->dst_offset + bytes > dev->win.size)) return CANOPY_ERANGE;
    const size_t mp = dev->caps.max_payload; /* a multiple of every element size */
    const size_t nchunks = bytes ? (bytes + mp - 1) / mp : 1; /* an empty one: a barrier */
    unsigned trees[CANOPY_MAX_STRIPE];
    int ntrees = reduce_trees(dev, a->tree, a->group, trees);
    if (ntrees < 0) return ntrees;
    if ((size_t)ntrees > nchunks) ntrees = (int)nchunks;

    memset(done, 0, sizeof *done);
    done->tree = a->tree;
    done->pending = 1;
    done->deadline_ns = coll_deadline(dev);
    done->nparts = (unsigned)ntrees;
    for (int k = 0; k < ntrees; ++k) done->part[k].tree = trees[k];
    /* Striped: at most CAPS.reduce_ids chunks in flight from this call (the routers' reduce
     * memory holds one tree's ids for sure; more spread over the stripe would be refused
     * and re-issued): chunk j waits until every chunk before j - cap is done. */
    const size_t cap = dev->caps.reduce_ids == 0 ? 1 : dev->caps.reduce_ids < CANOPY_REDUCE_IDS ? dev->caps.reduce_ids : CANOPY_REDUCE_IDS;
    struct { unsigned part, rid; uint32_t gen; } recent[CANOPY_REDUCE_IDS];
    size_t oldest = 0;
    for (size_t j = 0; j < nchunks; ++j) {
        const size_t off = j * mp, chunk = bytes - off < mp ? bytes - off : mp;
        const unsigned k = (unsigned)(j % (size_t)ntrees);
        if (ntrees > 1) {
            for (; j - oldest >= cap; ++oldest) {
                const unsigned tr = trees[recent[oldest % cap].part], rid = recent[oldest % cap].rid;
                if (dev->trees[tr].rid_gen[rid] == recent[oldest % cap].gen && (rc = rid_wait_free(dev, tr, rid)))
                    return rc;
            }
        }
        if ((rc = reduce_chunk(dev, a, all, trees[k], done, &done->part[k], off, chunk))) return rc;
        const struct coll_tree *t = &dev->trees[trees[k]];
        const unsigned rid = (t->next_rid + CANOPY_REDUCE_IDS - 1) % CANOPY_REDUCE_IDS;
        recent[j % cap].part = k;
        recent[j % cap].rid = rid;
        recent[j % cap].gen = t->rid_gen[rid];
    }
    return canopy_dev_doorbell(dev);
}

int canopy_tree_stripe(canopy_dev *dev, unsigned tree, const unsigned *trees, unsigned n)
{
    int rc = usable(dev);
    if (rc) return rc;
    if (tree >= dev->caps.trees || n > CANOPY_MAX_STRIPE || (n && !trees)) return CANOPY_EINVAL;
    for (unsigned k = 0; k < n; ++k) {
        if (trees[k] >= dev->caps.trees) return CANOPY_ERANGE;
        for (unsigned i = 0; i < k; ++i)
            if (trees[i] == trees[k]) return CANOPY_EINVAL;
        const struct coll_tree *s = &dev->trees[trees[k]];
        if (!s->attached || !tree_member(s, 0)) return CANOPY_ENOTREE;
    }
    struct coll_tree *t = &dev->trees[tree];
    t->nstripe = n > 1 ? n : 0;
    for (unsigned k = 0; k < t->nstripe; ++k) t->stripe[k] = trees[k];
    return CANOPY_OK;
}

int canopy_reduce(canopy_dev *dev, const struct canopy_reduce_args *a, struct canopy_coll *done)
{
    return reduce_common(dev, a, 0, done);
}

int canopy_allreduce(canopy_dev *dev, const struct canopy_reduce_args *a, struct canopy_coll *done)
{
    return reduce_common(dev, a, 1, done);
}

int canopy_barrier(canopy_dev *dev, unsigned tree, uint64_t timeout_ns)
{
    /* An empty allreduce: its result reaches a member only once every member has sent. */
    const struct canopy_reduce_args a = {.tree = tree, .op = CANOPY_OP_SUM, .dtype = CANOPY_DT_U64};
    struct canopy_coll c;
    int rc = reduce_common(dev, &a, 1, &c);
    return rc ? rc : canopy_coll_wait(dev, &c, timeout_ns);
}

int canopy_sync(canopy_dev *dev, unsigned tree, uint64_t timeout_ns)
{
    /* 002: the first barrier's result reaches a node after every broadcast sent down the
     * tree before it; the second's cannot start before every node has left the first. */
    int rc = usable(dev);
    if (rc) return rc;
    if (tree >= dev->caps.trees) return CANOPY_ERANGE;
    struct coll_tree *t = &dev->trees[tree];
    if (t->down) return CANOPY_ETREEDOWN;
    if (!t->attached) return CANOPY_ENOTREE;
    /* Requests reach the root point to point, not with the barrier's contributions: wait
     * until this node's own broadcasts have come back (then they are in the tree's down
     * order ahead of anything the root sends later). */
    struct canopy_coll own = {.tree = tree, .target = t->own_expect, .pending = 1, .deadline_ns = coll_deadline(dev)};
    if ((rc = canopy_coll_wait(dev, &own, timeout_ns))) return rc;
    rc = canopy_barrier(dev, tree, timeout_ns);
    return rc ? rc : canopy_barrier(dev, tree, timeout_ns);
}
