/* reduce.c: hardware reduce, allreduce, barrier and sync through libcanopy, checked on
 * every node against a host reference.
 *
 *   reduce [--roots all|none|N] [--quick] [--cases 123456] [--pool-trees 1..16] [--small-window] [--count K]
 *          [--one-op-per-dtype]
 *
 * (--small-window: a 24 KiB window for a board with little host memory; cases 1, 3 and 4
 * only, at most 4 nodes; see set_layout. --count K: case 1 with K elements only, at most
 * 1000 bytes of them. --one-op-per-dtype: case 1 runs each dtype once, the ops in turn
 * (SUM I32, MIN U32, MAX I64, SUM U64: every op and every dtype, not every pair), for the
 * board's serial line, where each pair costs about 20 s of simulation.)
 * (--roots: the canopy_reduce roots of case 1; none = allreduces only.)
 *
 * Trees: tree 0 rooted at node 0 (programmed through the CSRs), tree 1 rooted at node n/2
 * (CONFIG packets from node 0). Every node's contribution is a deterministic vector
 * (splitmix64 from a fixed seed, the node and the case), so every node can compute the
 * reference from all nodes' inputs. Cases:
 *   1. every op (SUM, MIN, MAX) x dtype (I32, U32, I64, U64) x root (canopy_reduce from
 *      every node, then one canopy_allreduce) x count (1, 3, 256 bytes, 256 bytes + 1
 *      element, 1000 bytes: several reduce ids). Edge values (type min and max, all ones,
 *      wrapping sums) in fixed positions. The bytes around the result stay untouched, and
 *      so do the non-root nodes' destination regions (checked after a barrier).
 *   2. 32 allreduces of 8 bytes in flight at once, mixed with broadcasts on tree 0 and
 *      tree 1; then 100 allreduces issued back to back (the driver must throttle to 32).
 *   3. canopy_barrier with random arrival delays (10 rounds, trees 0 and 1): every entry
 *      cycle precedes every exit cycle; RX_BCASTS counts each barrier's (empty) result once. canopy_sync: a broadcast issued just before it is
 *      in every window when it returns (one root at a time, then every node at once).
 *   4. Mismatched contributions (node 1 uses another op, dtype or count): every node's
 *      wait returns CANOPY_EREDUCE, nothing is written, ERR_REDUCE grows somewhere, and
 *      the next allreduce on the tree is right.
 *   5. The routers' reduce memory full from many trees at once: every node issues 32
 *      allreduces (256 bytes, every op and type) on each of --pool-trees trees (default 16,
 *      roots spread over the nodes; trees 0 and 1 are the ones set up above) before
 *      waiting for any, node 0 before the others: far more than a router's 64
 *      accumulators, so routers refuse reduces (REDUCES_REFUSED grows; not checked with 2
 *      trees or fewer, whose 32 ids fit) and libcanopy re-issues them; every result is
 *      right, every wait returns OK. Then, with the memory idle again, 32 allreduces on
 *      tree 0 are not refused at all. (With 2 or more trees this stalled the first
 *      version of the rebuilt reduce engine: docs/collectives.md, "Deadlock".)
 *   6. A stripe (canopy_tree_stripe): tree 0's reduces spread over trees 0, 2 and 3
 *      (rooted where canopy_fm_stripe_roots puts them): allreduces of 4 KiB of I64 (16
 *      chunks) and 2000 bytes of U32 (8 chunks, the last short) for every op, a reduce of
 *      4 KiB to the last node (the others' regions untouched), four 4 KiB allreduces issued
 *      before waiting (64 chunks: the library keeps 32 in flight); a tree listed twice is
 *      refused (EINVAL), an id past CAPS.trees too (ERANGE); with the stripe off, tree 0
 *      reduces alone again.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "canopy_fm.h"
#include "test_util.h"

#define MAXN 16
#define SENT 0xA5u          /* sentinel byte of regions that must stay untouched */
#define PRE_GUARD 64u       /* a result starts this far into its slot */

enum {
    FLAG_OFF = 0,
    DUMMY_OFF = 2048,                       /* a word nobody writes: timed waits */
    GATHER_OFF = 4096,                      /* barrier timings [round][node] {entry, exit} */
    CNT_OFF = 8192,                         /* case 4: err_reduce deltas and statuses */
    SLOT = 2048,
    BC_SLOT = 1024,
    STRIPE_SLOT = 4096 + 2 * PRE_GUARD,   /* case 6: 4 slots of 4 KiB and guards */
};
/* The rest of the window's layout (set_layout): */
static uint64_t res_off;      /* case 1: one slot per root, then allreduce */
static uint64_t infl_off;     /* case 2: 32 x 16 bytes */
static uint64_t bc_off;       /* case 2: broadcasts, 8 regions */
static uint64_t many_off;     /* case 2: 100 x 16 bytes */
static uint64_t sync_off;     /* case 3: MAXN regions of 1024 */
static uint64_t mis_off;      /* case 4 */
static uint64_t pool_off;     /* case 5: 16 trees x 32 x 256 bytes */
static uint64_t pool_cnt_off; /* case 5: refusal counts per node */
static uint64_t stripe_off;   /* case 6: 4 slots of STRIPE_SLOT */
static uint64_t win_bytes;

/* The default layout has room for MAXN nodes and every case (245 KiB); --small-window
 * packs cases 1, 3 and 4 for up to 4 nodes into 24 KiB (a board's small host memory: the
 * ECP5 board's 64 KiB per node, over the serial backend); cases 2 and 5 need the full one.
 * Case 4's counts end at CNT_OFF + 4 variants x MAXN x 16 bytes; its region is 576 bytes. */
static void set_layout(int small, int nodes)
{
    if (small) {
        res_off = CNT_OFF + 4 * MAXN * 16;
        sync_off = res_off + (uint64_t)(nodes + 1) * SLOT;
        mis_off = sync_off + (uint64_t)nodes * 1024;
        win_bytes = mis_off + 1024;
        infl_off = bc_off = many_off = pool_off = pool_cnt_off = stripe_off = 0;
        return;
    }
    res_off = 16384;
    infl_off = res_off + (MAXN + 1) * SLOT;
    bc_off = infl_off + 4096;
    many_off = bc_off + 8 * BC_SLOT;
    sync_off = many_off + 4096;
    mis_off = sync_off + MAXN * 1024;
    pool_off = mis_off + 4096;
    pool_cnt_off = pool_off + 16 * 32 * 256;
    stripe_off = pool_cnt_off + 4096;
    win_bytes = stripe_off + 4 * STRIPE_SLOT;
}

#define NINFL 32
#define NMANY 100
#define BARRIER_ROUNDS 10

static const char *op_name[] = {"SUM", "MIN", "MAX"};
static const char *dt_name[] = {"I32", "U32", "I64", "U64"};

static int me, n;
static canopy_dev *dev;
static uint8_t *win;

/* ------------------------------------------------------------------ reference */

static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static unsigned esize(unsigned dt) { return dt == CANOPY_DT_I32 || dt == CANOPY_DT_U32 ? 4u : 8u; }
static int is_signed(unsigned dt) { return dt == CANOPY_DT_I32 || dt == CANOPY_DT_I64; }
static uint64_t dmask(unsigned dt) { return esize(dt) == 4 ? 0xffffffffull : ~0ull; }
static uint64_t tmin(unsigned dt) { return is_signed(dt) ? (dmask(dt) >> 1) + 1 : 0; }
static uint64_t tmax(unsigned dt) { return is_signed(dt) ? dmask(dt) >> 1 : dmask(dt); }
static int64_t sext(unsigned dt, uint64_t v) { return esize(dt) == 4 ? (int64_t)(int32_t)(uint32_t)v : (int64_t)v; }

/* A stream names one contribution vector set: (case, op, dtype, count, variant). */
static uint64_t stream_id(unsigned kase, unsigned op, unsigned dt, size_t count, unsigned variant)
{
    uint64_t s = 0xc0ffee00d15ea5e5ull ^ ((uint64_t)kase << 56) ^ ((uint64_t)op << 48) ^ ((uint64_t)dt << 40) ^
                 ((uint64_t)count << 16) ^ variant;
    return splitmix64(&s);
}

/* Node `node`'s element i of stream s (bit pattern, masked to the type's width).
 * Positions i % 16 == 1..4 are edge values for every node; others mostly random. */
static void gen_vec(uint64_t stream, int node, unsigned dt, size_t count, uint64_t *v)
{
    uint64_t s = stream ^ (0xd1b54a32d192ed03ull * (uint64_t)(node + 1)); /* fixed seed per node */
    for (size_t i = 0; i < count; ++i) {
        uint64_t r = splitmix64(&s), x;
        switch (i % 16) {
        case 1: x = tmax(dt); break;                          /* SUM of maxima wraps */
        case 2: x = tmin(dt); break;                          /* SUM of minima wraps */
        case 3: x = (node & 1) ? tmax(dt) : tmin(dt); break;  /* extremes meet */
        case 4: x = ~0ull; break;                             /* -1 / unsigned max */
        default:
            switch (r >> 59) {
            case 0: x = tmin(dt); break;
            case 1: x = tmax(dt); break;
            case 2: x = (uint64_t)(int64_t)(int8_t)(r >> 8); break; /* small, either sign */
            case 3: x = 0; break;
            default: x = r; break;
            }
        }
        v[i] = x & dmask(dt);
    }
}

static uint64_t combine(unsigned op, unsigned dt, uint64_t a, uint64_t b)
{
    int lt = is_signed(dt) ? sext(dt, a) < sext(dt, b) : a < b;
    switch (op) {
    case CANOPY_OP_SUM: return (a + b) & dmask(dt);
    case CANOPY_OP_MIN: return lt ? a : b;
    default: return lt ? b : a;
    }
}

/* ref[0..count) = op over all nodes of stream s. */
static void reference(uint64_t stream, unsigned op, unsigned dt, size_t count, uint64_t *ref, uint64_t *tmp)
{
    gen_vec(stream, 0, dt, count, ref);
    for (int k = 1; k < n; ++k) {
        gen_vec(stream, k, dt, count, tmp);
        for (size_t i = 0; i < count; ++i) ref[i] = combine(op, dt, ref[i], tmp[i]);
    }
}

static void pack(uint8_t *dst, const uint64_t *v, unsigned dt, size_t count)
{
    for (size_t i = 0; i < count; ++i) {
        if (esize(dt) == 4) {
            uint32_t w = (uint32_t)v[i];
            memcpy(dst + 4 * i, &w, 4);
        } else {
            memcpy(dst + 8 * i, &v[i], 8);
        }
    }
}

static uint64_t unpack1(const uint8_t *p, unsigned dt)
{
    if (esize(dt) == 4) {
        uint32_t w;
        memcpy(&w, p, 4);
        return w;
    }
    uint64_t w;
    memcpy(&w, p, 8);
    return w;
}

static void fmt_val(char *buf, size_t len, unsigned dt, uint64_t v)
{
    if (is_signed(dt))
        snprintf(buf, len, "0x%0*" PRIx64 " (%" PRId64 ")", (int)esize(dt) * 2, v, sext(dt, v));
    else
        snprintf(buf, len, "0x%0*" PRIx64 " (%" PRIu64 ")", (int)esize(dt) * 2, v, v);
}

/* Scratch for vectors (elements): case 1's longest is 1000 bytes of I32, case 6's 4 KiB. */
#define MAXCOUNT 512
static uint64_t vbuf[MAXCOUNT], rbuf[MAXCOUNT], tbuf[MAXCOUNT];
static uint8_t srcbuf[MAXCOUNT * 8];

/* Check count elements at window offset off against the reference of stream s; print up
 * to 4 wrong elements, then fail with a summary. what: "reduce root 3", "allreduce", ... */
static void verify_vec(uint64_t off, uint64_t stream, unsigned op, unsigned dt, size_t count, const char *what)
{
    reference(stream, op, dt, count, rbuf, tbuf);
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < count; ++i) {
        uint64_t got = unpack1(win + off + i * esize(dt), dt);
        if (got != rbuf[i]) {
            if (bad < 4) {
                char g[64], e[64];
                fmt_val(g, sizeof g, dt, got);
                fmt_val(e, sizeof e, dt, rbuf[i]);
                fprintf(stderr, "PE %d: %s op %s dtype %s count %zu: element %zu is %s, expected %s\n", me, what,
                        op_name[op], dt_name[dt], count, i, g, e);
            }
            if (!bad++) first = i;
        }
    }
    CHECK(bad == 0, "%s op %s dtype %s count %zu (window offset %" PRIu64 "): %zu of %zu elements wrong, first %zu",
          what, op_name[op], dt_name[dt], count, off, bad, count, first);
}

/* Bytes [lo, hi) of the window must still hold the sentinel. */
static void check_sentinel(uint64_t lo, uint64_t hi, const char *what)
{
    for (uint64_t b = lo; b < hi; ++b)
        CHECK(win[b] == SENT, "%s: window byte %" PRIu64 " is 0x%02x, expected untouched 0x%02x", what, b, win[b], SENT);
}

/* ------------------------------------------------------------------ helpers */

static uint64_t barrier_no;
static void flag_barrier(void) { test_flag_barrier(dev, win, FLAG_OFF, ++barrier_no); }

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint8_t pattern(unsigned root, unsigned round, size_t i)
{
    uint64_t x = (uint64_t)(root + 1) * 0x9e3779b97f4a7c15ull ^ (uint64_t)round * 0x94d049bb133111ebull ^
                 (uint64_t)(i + 1) * 0x2545f4914f6cdd1dull;
    x ^= x >> 29;
    return (uint8_t)(x ^ (x >> 17));
}

static void verify_bytes(uint64_t off, unsigned root, unsigned round, size_t size, const char *what)
{
    for (size_t i = 0; i < size; ++i) {
        uint8_t want = pattern(root, round, i);
        CHECK(win[off + i] == want, "%s: broadcast from root %u round %u size %zu: byte %zu is 0x%02x, expected 0x%02x",
              what, root, round, size, i, win[off + i], want);
    }
}

static const char *status_name(int rc) { return canopy_strerror(rc); }

static int do_reduce(int all, const struct canopy_reduce_args *a, struct canopy_coll *c)
{
    return all ? canopy_allreduce(dev, a, c) : canopy_reduce(dev, a, c);
}

/* Simulated time passes only in library calls: wait on a word nobody writes, with a
 * timeout, until the cycle counter has moved on by `cycles`. */
static double ns_per_cycle = 4.0;
static void calibrate(void)
{
    volatile uint64_t *dummy = (volatile uint64_t *)(win + DUMMY_OFF);
    uint64_t c0 = canopy_cycles(dev), t0 = canopy_time_ns(dev);
    CHECK_RC(canopy_wait_u64(dev, dummy, CANOPY_CMP_NE, 0, 4000), CANOPY_ETIMEDOUT);
    uint64_t c1 = canopy_cycles(dev), t1 = canopy_time_ns(dev);
    if (c1 > c0 && t1 > t0) ns_per_cycle = (double)(t1 - t0) / (double)(c1 - c0);
}

static void delay_cycles(uint64_t cycles)
{
    volatile uint64_t *dummy = (volatile uint64_t *)(win + DUMMY_OFF);
    uint64_t target = canopy_cycles(dev) + cycles, now, step = 0;
    while ((now = canopy_cycles(dev)) < target) {
        uint64_t ns = (uint64_t)((double)(target - now) * ns_per_cycle);
        if (ns < step) ns = step;
        if (ns == 0) ns = 1;
        CHECK_RC(canopy_wait_u64(dev, dummy, CANOPY_CMP_NE, 0, ns), CANOPY_ETIMEDOUT);
        if (canopy_cycles(dev) == now) step = 2 * ns; /* no progress: wait longer */
    }
}

/* ------------------------------------------------------------------ case 1 */

/* --count K (0: the lists below): case 1 with that one element count only. */
static size_t g_one_count;
/* --one-op-per-dtype: case 1's pairs (op, dtype) only where op = dtype % 3. */
static int g_one_op_per_dtype;

static unsigned case1(int roots_all, int one_root, int quick)
{
    unsigned done_ops = 0;
    char what[96];
    for (unsigned op = 0; op < 3; ++op) {
        for (unsigned dt = 0; dt < 4; ++dt) {
            if (g_one_op_per_dtype && op != dt % 3) continue;
            const size_t e = esize(dt);
            size_t counts[5] = {1, 3, 256 / e, 256 / e + 1, 1000 / e};
            size_t quick_counts[3] = {3, 256 / e, 1000 / e};
            size_t *cl = quick ? quick_counts : counts;
            unsigned ncounts = quick ? 3 : 5;
            if (g_one_count) {
                cl = &g_one_count;
                ncounts = 1;
            }
            for (unsigned ci = 0; ci < ncounts; ++ci) {
                const size_t count = cl[ci], len = count * e;
                memset(win + res_off, SENT, (size_t)(n + 1) * SLOT);
                /* r < n: canopy_reduce to root r in slot r; r == n: allreduce in slot n */
                for (int r = 0; r <= n; ++r) {
                    if (r < n && !roots_all && r != one_root) continue;
                    const int all = r == n;
                    const uint64_t stream = stream_id(1, op, dt, count, (unsigned)r);
                    const uint64_t off = res_off + (uint64_t)r * SLOT + PRE_GUARD;
                    gen_vec(stream, me, dt, count, vbuf);
                    pack(srcbuf, vbuf, dt, count);
                    struct canopy_reduce_args a = {.tree = 0, .group = 0, .root = all ? 0 : r, .op = op,
                                                   .dtype = dt, .count = count, .src = srcbuf, .dst_offset = off};
                    struct canopy_coll c;
                    if (all) snprintf(what, sizeof what, "allreduce");
                    else snprintf(what, sizeof what, "reduce root %d", r);
                    int rc = do_reduce(all, &a, &c);
                    CHECK(rc == CANOPY_OK, "%s op %s dtype %s count %zu: call returned %d (%s)", what, op_name[op],
                          dt_name[dt], count, rc, status_name(rc));
                    rc = canopy_coll_wait(dev, &c, TEST_TIMEOUT_NS);
                    CHECK(rc == CANOPY_OK, "%s op %s dtype %s count %zu: wait returned %d (%s)", what, op_name[op],
                          dt_name[dt], count, rc, status_name(rc));
                    if (all || me == r) verify_vec(off, stream, op, dt, count, what);
                    ++done_ops;
                }
                /* Every result travelled down tree 0 before the barrier's: then check the
                 * results again, the guards, and that nothing landed at non-roots. */
                CHECK_OK(canopy_barrier(dev, 0, TEST_TIMEOUT_NS));
                for (int r = 0; r <= n; ++r) {
                    const int all = r == n;
                    const uint64_t slot = res_off + (uint64_t)r * SLOT, off = slot + PRE_GUARD;
                    if (all) snprintf(what, sizeof what, "allreduce (after barrier) op %s dtype %s count %zu",
                                      op_name[op], dt_name[dt], count);
                    else snprintf(what, sizeof what, "reduce root %d (after barrier) op %s dtype %s count %zu", r,
                                  op_name[op], dt_name[dt], count);
                    if (r < n && (r != me || (!roots_all && r != one_root))) {
                        char w2[160];
                        snprintf(w2, sizeof w2, "%s: destination region of non-root node %d", what, me);
                        check_sentinel(slot, slot + SLOT, w2);
                        continue;
                    }
                    char w2[200];
                    if (all) snprintf(w2, sizeof w2, "allreduce (after barrier)");
                    else snprintf(w2, sizeof w2, "reduce root %d (after barrier)", r);
                    verify_vec(off, stream_id(1, op, dt, count, (unsigned)r), op, dt, count, w2);
                    snprintf(w2, sizeof w2, "%s: guard before the result", what);
                    check_sentinel(slot, off, w2);
                    snprintf(w2, sizeof w2, "%s: bytes past the end of the %zu-byte result", what, len);
                    check_sentinel(off + len, slot + SLOT, w2);
                }
            }
        }
    }
    return done_ops;
}

/* ------------------------------------------------------------------ case 2 */

struct bc_rec {
    unsigned tree, root, round;
    size_t size;
    uint64_t off;
    struct canopy_coll c;
};

static void case2(void)
{
    struct canopy_coll c[NMANY];
    struct bc_rec bc[8];
    unsigned nbc = 0;
    uint8_t bsrc[1024];
    char what[96];

    memset(win + infl_off, SENT, NINFL * 16 + 64);
    memset(win + bc_off, SENT, 8 * BC_SLOT);
    flag_barrier(); /* broadcasts may land before a slow node has cleared its regions */

    /* 32 allreduces of 8 bytes in flight, broadcasts on trees 0 and 1 among them */
    for (unsigned i = 0; i < NINFL; ++i) {
        const unsigned op = i % 3, dt = (i / 3) % 4;
        const size_t count = 8 / esize(dt);
        const uint64_t stream = stream_id(2, op, dt, count, i);
        gen_vec(stream, me, dt, count, vbuf);
        pack(srcbuf, vbuf, dt, count);
        struct canopy_reduce_args a = {.tree = 0, .op = op, .dtype = dt, .count = count, .src = srcbuf,
                                       .dst_offset = infl_off + 16u * i};
        int rc = canopy_allreduce(dev, &a, &c[i]);
        CHECK(rc == CANOPY_OK, "in-flight allreduce %u op %s dtype %s: call returned %d (%s)", i, op_name[op],
              dt_name[dt], rc, status_name(rc));
        if (i % 8 == 2 || i % 8 == 6) {
            struct bc_rec *b = &bc[nbc];
            b->tree = i % 8 == 2 ? 0 : 1;
            b->root = (unsigned)(b->tree == 0 ? (int)(i / 8 + 1) % n : (n - 1 - (int)(i / 8) + n) % n);
            b->round = 1000 + nbc;
            b->size = 200 + 100 * (size_t)nbc; /* 200..900: 1..4 packets */
            b->off = bc_off + (uint64_t)nbc * BC_SLOT;
            if ((unsigned)me == b->root)
                for (size_t k = 0; k < b->size; ++k) bsrc[k] = pattern(b->root, b->round, k);
            struct canopy_bcast_args ba = {.tree = b->tree, .root = (int)b->root, .offset = b->off, .size = b->size,
                                           .src = bsrc};
            rc = canopy_bcast(dev, &ba, &b->c);
            CHECK(rc == CANOPY_OK, "broadcast %u (tree %u root %u) among the in-flight allreduces: %d (%s)", nbc,
                  b->tree, b->root, rc, status_name(rc));
            ++nbc;
        }
    }
    /* wait in reverse order, then the broadcasts */
    for (int i = NINFL - 1; i >= 0; --i) {
        const unsigned op = (unsigned)i % 3, dt = ((unsigned)i / 3) % 4;
        int rc = canopy_coll_wait(dev, &c[i], TEST_TIMEOUT_NS);
        CHECK(rc == CANOPY_OK, "in-flight allreduce %d op %s dtype %s: wait returned %d (%s)", i, op_name[op],
              dt_name[dt], rc, status_name(rc));
    }
    for (unsigned k = 0; k < nbc; ++k) {
        int rc = canopy_coll_wait(dev, &bc[k].c, TEST_TIMEOUT_NS);
        CHECK(rc == CANOPY_OK, "broadcast %u (tree %u root %u): wait returned %d (%s)", k, bc[k].tree, bc[k].root, rc,
              status_name(rc));
    }
    for (unsigned i = 0; i < NINFL; ++i) {
        const unsigned op = i % 3, dt = (i / 3) % 4;
        const size_t count = 8 / esize(dt);
        snprintf(what, sizeof what, "in-flight allreduce %u of %u", i, NINFL);
        verify_vec(infl_off + 16u * i, stream_id(2, op, dt, count, i), op, dt, count, what);
        check_sentinel(infl_off + 16u * i + 8, infl_off + 16u * i + 16, "in-flight allreduce: 8 bytes past the end");
    }
    for (unsigned k = 0; k < nbc; ++k) {
        snprintf(what, sizeof what, "broadcast %u on tree %u among the in-flight allreduces", k, bc[k].tree);
        verify_bytes(bc[k].off, bc[k].root, bc[k].round, bc[k].size, what);
        check_sentinel(bc[k].off + bc[k].size, bc[k].off + BC_SLOT, "broadcast: bytes past the end");
    }

    /* 100 allreduces in a row: more than 32 ids, the driver must wait for earlier ones */
    memset(win + many_off, SENT, NMANY * 16 + 64);
    uint64_t c0 = canopy_cycles(dev);
    for (unsigned i = 0; i < NMANY; ++i) {
        const unsigned op = (i / 4) % 3, dt = i % 4;
        const size_t count = 8 / esize(dt);
        gen_vec(stream_id(3, op, dt, count, i), me, dt, count, vbuf);
        pack(srcbuf, vbuf, dt, count);
        struct canopy_reduce_args a = {.tree = 0, .op = op, .dtype = dt, .count = count, .src = srcbuf,
                                       .dst_offset = many_off + 16u * i};
        int rc = canopy_allreduce(dev, &a, &c[i]);
        CHECK(rc == CANOPY_OK, "allreduce %u of %u in a row, op %s dtype %s: call returned %d (%s)", i, NMANY,
              op_name[op], dt_name[dt], rc, status_name(rc));
    }
    for (unsigned i = 0; i < NMANY; ++i) {
        const unsigned op = (i / 4) % 3, dt = i % 4;
        int rc = canopy_coll_wait(dev, &c[i], TEST_TIMEOUT_NS);
        CHECK(rc == CANOPY_OK, "allreduce %u of %u in a row, op %s dtype %s: wait returned %d (%s)", i, NMANY,
              op_name[op], dt_name[dt], rc, status_name(rc));
    }
    uint64_t c1 = canopy_cycles(dev);
    for (unsigned i = 0; i < NMANY; ++i) {
        const unsigned op = (i / 4) % 3, dt = i % 4;
        const size_t count = 8 / esize(dt);
        snprintf(what, sizeof what, "allreduce %u of %u in a row", i, NMANY);
        verify_vec(many_off + 16u * i, stream_id(3, op, dt, count, i), op, dt, count, what);
        check_sentinel(many_off + 16u * i + 8, many_off + 16u * i + 16, "allreduce in a row: 8 bytes past the end");
    }
    if (me == 0)
        printf("reduce: case 2: %u allreduces in a row took %" PRIu64 " cycles (%.0f per allreduce)\n", NMANY,
               c1 - c0, (double)(c1 - c0) / NMANY);
}

/* ------------------------------------------------------------------ case 3 */

static void case3(void)
{
    /* barrier with random arrival delays */
    uint64_t s = 0xba55ull * (uint64_t)(me + 1) + 12345;
    uint64_t rec[BARRIER_ROUNDS][2];
    calibrate();
    struct canopy_counters cnt0, cnt1;
    CHECK_OK(canopy_counters(dev, &cnt0));
    for (unsigned k = 0; k < BARRIER_ROUNDS; ++k) {
        unsigned tree = k % 2;
        delay_cycles(splitmix64(&s) % 3000);
        rec[k][0] = canopy_cycles(dev);
        int rc = canopy_barrier(dev, tree, TEST_TIMEOUT_NS);
        rec[k][1] = canopy_cycles(dev);
        CHECK(rc == CANOPY_OK, "barrier round %u on tree %u: returned %d (%s)", k, tree, rc, status_name(rc));
    }
    /* A barrier's result is an empty broadcast: its status word is its only DMA write, and
     * RX_BCASTS counts it exactly once, on that write's completion (which may come a few
     * cycles after the host has seen the word: poll briefly for the last one). */
    const uint64_t t_cnt = canopy_cycles(dev);
    do CHECK_OK(canopy_counters(dev, &cnt1));
    while (cnt1.rx_bcasts < cnt0.rx_bcasts + BARRIER_ROUNDS && canopy_cycles(dev) - t_cnt < 100000);
    CHECK(cnt1.rx_bcasts == cnt0.rx_bcasts + BARRIER_ROUNDS,
          "RX_BCASTS moved by %" PRIu64 " over %u barriers: each barrier's result must count once",
          cnt1.rx_bcasts - cnt0.rx_bcasts, BARRIER_ROUNDS);
    for (unsigned k = 0; k < BARRIER_ROUNDS; ++k)
        CHECK_OK(canopy_put(dev, 0, GATHER_OFF + ((uint64_t)k * MAXN + (unsigned)me) * 16, rec[k], 16, 0));
    flag_barrier(); /* quiets first: the records are at node 0 */
    if (me == 0) {
        uint64_t lat_min = ~0ull, lat_max = 0, lat_sum = 0;
        for (unsigned k = 0; k < BARRIER_ROUNDS; ++k) {
            uint64_t max_in = 0, min_out = ~0ull;
            int who_in = -1, who_out = -1;
            for (int p = 0; p < n; ++p) {
                uint64_t t[2];
                memcpy(t, win + GATHER_OFF + ((uint64_t)k * MAXN + (unsigned)p) * 16, 16);
                CHECK(t[1] >= t[0], "barrier round %u tree %u: node %d exit cycle %" PRIu64 " < its entry %" PRIu64, k,
                      k % 2, p, t[1], t[0]);
                if (t[0] >= max_in) max_in = t[0], who_in = p;
                if (t[1] < min_out) min_out = t[1], who_out = p;
            }
            CHECK(max_in <= min_out,
                  "barrier round %u tree %u: node %d left at cycle %" PRIu64 " before node %d entered at cycle %" PRIu64,
                  k, k % 2, who_out, min_out, who_in, max_in);
            uint64_t lat = min_out - max_in;
            lat_min = lat < lat_min ? lat : lat_min;
            lat_max = lat > lat_max ? lat : lat_max;
            lat_sum += lat;
        }
        printf("reduce: case 3: %u barriers with random arrival, last entry to first exit %" PRIu64 "..%" PRIu64
               " cycles (mean %.0f)\n",
               BARRIER_ROUNDS, lat_min, lat_max, (double)lat_sum / BARRIER_ROUNDS);
    }

    /* canopy_sync: a broadcast issued just before it is everywhere when it returns */
    const size_t sz = 600; /* 3 packets */
    uint8_t bsrc[600];
    unsigned round = 2000;
    memset(win + sync_off, 0, (size_t)n * 1024);
    flag_barrier();
    for (int r = 0; r < n; ++r) {
        ++round;
        if (me == r)
            for (size_t i = 0; i < sz; ++i) bsrc[i] = pattern((unsigned)r, round, i);
        struct canopy_bcast_args ba = {.tree = 0, .root = r, .offset = sync_off + (uint64_t)r * 1024, .size = sz,
                                       .src = bsrc};
        struct canopy_coll bc;
        CHECK_OK(canopy_bcast(dev, &ba, &bc));
        int rc = canopy_sync(dev, 0, TEST_TIMEOUT_NS);
        CHECK(rc == CANOPY_OK, "sync after a broadcast from root %d: returned %d (%s)", r, rc, status_name(rc));
        verify_bytes(sync_off + (uint64_t)r * 1024, (unsigned)r, round, sz, "right after canopy_sync (tree 0)");
        CHECK(win[sync_off + (uint64_t)r * 1024 + sz] == 0, "sync: byte past the end of root %d's broadcast written",
              r);
        CHECK_OK(canopy_coll_wait(dev, &bc, TEST_TIMEOUT_NS));
    }
    /* every node broadcasts, then one sync */
    flag_barrier(); /* all have checked the regions above */
    {
        struct canopy_coll bc[MAXN];
        ++round;
        for (int r = 0; r < n; ++r) {
            if (me == r)
                for (size_t i = 0; i < sz; ++i) bsrc[i] = pattern((unsigned)r, round, i);
            struct canopy_bcast_args ba = {.tree = 0, .root = r, .offset = sync_off + (uint64_t)r * 1024,
                                           .size = sz, .src = bsrc};
            CHECK_OK(canopy_bcast(dev, &ba, &bc[r]));
        }
        int rc = canopy_sync(dev, 0, TEST_TIMEOUT_NS);
        CHECK(rc == CANOPY_OK, "sync after broadcasts from every node: returned %d (%s)", rc, status_name(rc));
        for (int r = 0; r < n; ++r)
            verify_bytes(sync_off + (uint64_t)r * 1024, (unsigned)r, round, sz,
                         "right after canopy_sync, every node a root (tree 0)");
        for (int r = 0; r < n; ++r) CHECK_OK(canopy_coll_wait(dev, &bc[r], TEST_TIMEOUT_NS));
    }
    /* the same on tree 1, root 0 */
    flag_barrier();
    {
        struct canopy_coll bc;
        ++round;
        if (me == 0)
            for (size_t i = 0; i < sz; ++i) bsrc[i] = pattern(0, round, i);
        struct canopy_bcast_args ba = {.tree = 1, .root = 0, .offset = sync_off, .size = sz, .src = bsrc};
        CHECK_OK(canopy_bcast(dev, &ba, &bc));
        int rc = canopy_sync(dev, 1, TEST_TIMEOUT_NS);
        CHECK(rc == CANOPY_OK, "sync on tree 1 after a broadcast from root 0: returned %d (%s)", rc, status_name(rc));
        verify_bytes(sync_off, 0, round, sz, "right after canopy_sync (tree 1)");
        CHECK_OK(canopy_coll_wait(dev, &bc, TEST_TIMEOUT_NS));
    }
}

/* ------------------------------------------------------------------ case 4 */

static void case4(void)
{
    static const char *variant_name[] = {"op (node 1: MAX, others: SUM)", "dtype (node 1: U32, others: I32)",
                                         "count (node 1: 5, others: 4)", "op, canopy_reduce to the last node"};
    struct canopy_counters cnt;
    CHECK_OK(canopy_counters(dev, &cnt));
    CHECK(cnt.err_reduce == 0, "ERR_REDUCE is %" PRIu64 " before any mismatched reduce", cnt.err_reduce);
    uint64_t before = cnt.err_reduce;
    for (unsigned v = 0; v < 4; ++v) {
        const int all = v != 3, root = n - 1;
        unsigned op = CANOPY_OP_SUM, dt = v == 1 ? CANOPY_DT_I32 : CANOPY_DT_I64;
        size_t count = v == 1 ? 8 : 4;
        if (me == 1) {
            if (v == 0 || v == 3) op = CANOPY_OP_MAX;
            if (v == 1) dt = CANOPY_DT_U32;
            if (v == 2) count = 5;
        }
        memset(win + mis_off, SENT, 256);
        gen_vec(stream_id(4, op, dt, count, v), me, dt, count, vbuf);
        pack(srcbuf, vbuf, dt, count);
        struct canopy_reduce_args a = {.tree = 0, .root = root, .op = op, .dtype = dt, .count = count,
                                       .src = srcbuf, .dst_offset = mis_off + PRE_GUARD};
        struct canopy_coll c;
        int rc = do_reduce(all, &a, &c);
        CHECK(rc == CANOPY_OK, "mismatch in %s: the call returned %d (%s), expected it to be issued", variant_name[v],
              rc, status_name(rc));
        rc = canopy_coll_wait(dev, &c, TEST_TIMEOUT_NS);
        if (all || me == root)
            CHECK(rc == CANOPY_EREDUCE, "mismatch in %s: %s wait returned %d (%s), expected %d (%s)",
                  variant_name[v], all ? "allreduce" : "reduce (at the root)", rc, status_name(rc), CANOPY_EREDUCE,
                  status_name(CANOPY_EREDUCE));
        else
            CHECK(rc == CANOPY_EREDUCE || rc == CANOPY_OK,
                  "mismatch in %s: reduce wait at a non-root returned %d (%s), expected %d (%s) or OK",
                  variant_name[v], rc, status_name(rc), CANOPY_EREDUCE, status_name(CANOPY_EREDUCE));
        char what[160];
        snprintf(what, sizeof what, "mismatch in %s: the failed result's region", variant_name[v]);
        check_sentinel(mis_off, mis_off + 256, what);

        /* the next allreduce on the same tree is right */
        const unsigned gop = CANOPY_OP_SUM, gdt = CANOPY_DT_I64;
        const size_t gcount = 4;
        const uint64_t gs = stream_id(4, gop, gdt, gcount, 100 + v);
        gen_vec(gs, me, gdt, gcount, vbuf);
        pack(srcbuf, vbuf, gdt, gcount);
        struct canopy_reduce_args g = {.tree = 0, .op = gop, .dtype = gdt, .count = gcount, .src = srcbuf,
                                       .dst_offset = mis_off + 512};
        memset(win + mis_off + 512, SENT, 64);
        CHECK_OK(canopy_allreduce(dev, &g, &c));
        rc = canopy_coll_wait(dev, &c, TEST_TIMEOUT_NS);
        CHECK(rc == CANOPY_OK, "allreduce after the mismatch in %s: wait returned %d (%s)", variant_name[v], rc,
              status_name(rc));
        snprintf(what, sizeof what, "allreduce after the mismatch in %s", variant_name[v]);
        verify_vec(mis_off + 512, gs, gop, gdt, gcount, what);
        check_sentinel(mis_off + 512 + 32, mis_off + 512 + 64, "allreduce after a mismatch: bytes past the end");
        check_sentinel(mis_off, mis_off + 256, what); /* still nothing from the failed one */

        /* ERR_REDUCE grew at some router: gather the deltas at node 0 */
        CHECK_OK(canopy_counters(dev, &cnt));
        uint64_t rec[2] = {cnt.err_reduce - before, (uint64_t)(int64_t)rc};
        before = cnt.err_reduce;
        CHECK_OK(canopy_put(dev, 0, CNT_OFF + ((uint64_t)v * MAXN + (unsigned)me) * 16, rec, 16, 0));
        flag_barrier();
        if (me == 0) {
            uint64_t sum = 0;
            char per[256] = "";
            size_t used = 0;
            for (int p = 0; p < n; ++p) {
                uint64_t d;
                memcpy(&d, win + CNT_OFF + ((uint64_t)v * MAXN + (unsigned)p) * 16, 8);
                sum += d;
                used += (size_t)snprintf(per + used, used < sizeof per ? sizeof per - used : 0, " %" PRIu64, d);
                if (used >= sizeof per) used = sizeof per - 1;
            }
            CHECK(sum > 0, "mismatch in %s: ERR_REDUCE grew at no router (deltas per node:%s)", variant_name[v], per);
            printf("reduce: case 4: mismatch in %s: ERR_REDUCE deltas per node:%s\n", variant_name[v], per);
        }
    }
}

/* ------------------------------------------------------------------ case 5 */

#define POOL_TREES 16
#define POOL_IDS 32
#define POOL_SLOTS 64 /* a router's accumulators (docs/collectives.md) */

/* The refusal counters of every node, summed at node 0 (every node returns the sum). */
static uint64_t refusals_everywhere(unsigned round)
{
    struct canopy_counters cnt;
    CHECK_OK(canopy_counters(dev, &cnt));
    const uint64_t off = pool_cnt_off + ((uint64_t)round * MAXN + (unsigned)me) * 8;
    CHECK_OK(canopy_put(dev, 0, off, &cnt.reduces_refused, 8, 0));
    flag_barrier();
    uint64_t sum = 0;
    if (me == 0)
        for (int p = 0; p < n; ++p) {
            uint64_t d;
            memcpy(&d, win + pool_cnt_off + ((uint64_t)round * MAXN + (unsigned)p) * 8, 8);
            sum += d;
        }
    return sum;
}

static void case5(unsigned trees, unsigned ntrees)
{
    static struct canopy_coll c[POOL_TREES][POOL_IDS];
    char what[128], err[256] = "";
    CHECK(ntrees >= 1 && ntrees <= POOL_TREES && trees >= ntrees, "CAPS.trees = %u, case 5 uses %u (1..%u)", trees,
          ntrees, POOL_TREES);
    /* trees 2..15: roots spread over the nodes (0 and 1 are set up already) */
    for (unsigned t = 2; t < ntrees; ++t) {
        int rc = canopy_fm_setup(dev, t, (int)(t * 5 % (unsigned)n), NULL, CANOPY_FM_VIA_CSR, err, sizeof err);
        CHECK(rc == CANOPY_OK, "fm_setup tree %u: %s: %s", t, canopy_strerror(rc), err);
    }
    memset(win + pool_off, SENT, ntrees * POOL_IDS * 256);
    const uint64_t before = refusals_everywhere(0);

    /* every tree's 32 ids at once, trees interleaved differently on each node; node 0 first,
     * the others once it has issued all of its: every router on node 0's paths opens node
     * 0's reduces long before the others' contributions arrive (in lockstep the nodes keep
     * only a few reduces open per router and the pool never runs full) */
    if (me != 0) flag_barrier();
    for (unsigned i = 0; i < POOL_IDS; ++i) {
        for (unsigned k = 0; k < ntrees; ++k) {
            const unsigned t = (k + (unsigned)me * 3 + i) % ntrees;
            const unsigned op = (t + i) % 3, dt = (t / 3 + i) % 4;
            const size_t count = 256 / esize(dt);
            gen_vec(stream_id(5, op, dt, count, t * POOL_IDS + i), me, dt, count, vbuf);
            pack(srcbuf, vbuf, dt, count);
            struct canopy_reduce_args a = {.tree = t, .op = op, .dtype = dt, .count = count, .src = srcbuf,
                                           .dst_offset = pool_off + (t * POOL_IDS + i) * 256u};
            int rc = canopy_allreduce(dev, &a, &c[t][i]);
            CHECK(rc == CANOPY_OK, "allreduce %u on tree %u (all trees full): call returned %d (%s)", i, t, rc,
                  status_name(rc));
        }
    }
    if (me == 0) flag_barrier();
    for (unsigned t = 0; t < ntrees; ++t)
        for (unsigned i = 0; i < POOL_IDS; ++i) {
            int rc = canopy_coll_wait(dev, &c[t][i], TEST_TIMEOUT_NS);
            CHECK(rc == CANOPY_OK, "allreduce %u on tree %u (all trees full): wait returned %d (%s)", i, t, rc,
                  status_name(rc));
        }
    for (unsigned t = 0; t < ntrees; ++t)
        for (unsigned i = 0; i < POOL_IDS; ++i) {
            const unsigned op = (t + i) % 3, dt = (t / 3 + i) % 4;
            snprintf(what, sizeof what, "allreduce %u on tree %u (all trees full)", i, t);
            verify_vec(pool_off + (t * POOL_IDS + i) * 256u, stream_id(5, op, dt, 256 / esize(dt), t * POOL_IDS + i),
                       op, dt, 256 / esize(dt), what);
        }
    const uint64_t full = refusals_everywhere(1);
    if (me == 0 && ntrees * POOL_IDS <= POOL_SLOTS) {
        /* every tree's 32 reduces fit at once: nothing to refuse */
        CHECK(full == before, "%u trees x 32 allreduces at once: %" PRIu64 " refused, though they fit in %u accumulators",
              ntrees, full - before, POOL_SLOTS);
        printf("reduce: case 5: %u trees x 32 allreduces of 256 bytes at once: none refused (they fit)\n", ntrees);
    } else if (me == 0) {
        CHECK(full > before, "%u trees x 32 allreduces at once: no router refused a reduce (REDUCES_REFUSED %" PRIu64
              " before and after): the reduce memory never ran full", ntrees, before);
        printf("reduce: case 5: %u trees x 32 allreduces of 256 bytes at once: %" PRIu64
               " reduces refused and re-issued\n", ntrees, full - before);
    }

    /* the memory is whole again: one tree's 32 in flight fit without a refusal */
    for (unsigned i = 0; i < POOL_IDS; ++i) {
        const unsigned op = i % 3, dt = i % 4;
        const size_t count = 256 / esize(dt);
        gen_vec(stream_id(5, op, dt, count, 1000 + i), me, dt, count, vbuf);
        pack(srcbuf, vbuf, dt, count);
        struct canopy_reduce_args a = {.tree = 0, .op = op, .dtype = dt, .count = count, .src = srcbuf,
                                       .dst_offset = pool_off + i * 256u};
        CHECK_OK(canopy_allreduce(dev, &a, &c[0][i]));
    }
    for (unsigned i = 0; i < POOL_IDS; ++i) {
        const unsigned op = i % 3, dt = i % 4;
        int rc = canopy_coll_wait(dev, &c[0][i], TEST_TIMEOUT_NS);
        CHECK(rc == CANOPY_OK, "allreduce %u on tree 0 after: wait returned %d (%s)", i, rc, status_name(rc));
        snprintf(what, sizeof what, "allreduce %u of 32 on tree 0 (after the full memory)", i);
        verify_vec(pool_off + i * 256u, stream_id(5, op, dt, 256 / esize(dt), 1000 + i), op, dt, 256 / esize(dt),
                   what);
    }
    const uint64_t after = refusals_everywhere(2);
    if (me == 0)
        CHECK(after == full, "32 allreduces on one tree with the reduce memory idle: %" PRIu64
              " refused (a tree's 32 ids must fit)", after - full);
}

/* ------------------------------------------------------------------ main */

/* ------------------------------------------------------------------ case 6 */

#define STRIPE_TREES 3

static void stripe_allreduce(unsigned op, unsigned dt, size_t count, unsigned variant, unsigned slot,
                             struct canopy_coll *c)
{
    gen_vec(stream_id(6, op, dt, count, variant), me, dt, count, vbuf);
    pack(srcbuf, vbuf, dt, count);
    struct canopy_reduce_args a = {.tree = 0, .op = op, .dtype = dt, .count = count, .src = srcbuf,
                                   .dst_offset = stripe_off + slot * STRIPE_SLOT + PRE_GUARD};
    CHECK_OK(canopy_allreduce(dev, &a, c));
}

static void case6(unsigned caps_trees)
{
    char what[128], err[256] = "";
    struct canopy_fm_torus t;
    int roots[STRIPE_TREES];
    const unsigned ids[STRIPE_TREES] = {0, 2, 3};
    CHECK_OK(canopy_fm_torus_of(dev, &t));
    int rc = canopy_fm_stripe_roots(&t, NULL, 0, STRIPE_TREES, roots, err, sizeof err);
    CHECK(rc == CANOPY_OK, "stripe roots: %s: %s", canopy_strerror(rc), err);
    CHECK(roots[0] == 0 && roots[1] != 0 && roots[2] != 0 && roots[1] != roots[2],
          "stripe roots %d %d %d: not the first and two others", roots[0], roots[1], roots[2]);
    for (unsigned k = 1; k < STRIPE_TREES; ++k) {
        rc = canopy_fm_setup(dev, ids[k], roots[k], NULL, CANOPY_FM_VIA_CSR, err, sizeof err);
        CHECK(rc == CANOPY_OK, "fm_setup tree %u: %s: %s", ids[k], canopy_strerror(rc), err);
    }
    const unsigned twice[2] = {2, 2}, past[2] = {0, caps_trees};
    CHECK(canopy_tree_stripe(dev, 0, twice, 2) == CANOPY_EINVAL, "a stripe naming tree 2 twice was not refused");
    CHECK(canopy_tree_stripe(dev, 0, past, 2) == CANOPY_ERANGE, "a stripe naming tree %u was not refused", caps_trees);
    CHECK_OK(canopy_tree_stripe(dev, 0, ids, STRIPE_TREES));
    flag_barrier();

    struct canopy_coll c[4];
    const unsigned dts[2] = {CANOPY_DT_I64, CANOPY_DT_U32};
    const size_t counts[2] = {512, 500};
    for (unsigned op = 0; op < 3; ++op) {
        for (unsigned k = 0; k < 2; ++k) {
            memset(win + stripe_off, SENT, STRIPE_SLOT);
            flag_barrier();
            stripe_allreduce(op, dts[k], counts[k], k, 0, &c[0]);
            CHECK(c[0].nparts == STRIPE_TREES, "a striped allreduce of %zu chunks used %u trees",
                  (counts[k] * esize(dts[k]) + 255) / 256, c[0].nparts);
            CHECK_OK(canopy_coll_wait(dev, &c[0], TEST_TIMEOUT_NS));
            snprintf(what, sizeof what, "striped allreduce (%u trees)", STRIPE_TREES);
            verify_vec(stripe_off + PRE_GUARD, stream_id(6, op, dts[k], counts[k], k), op, dts[k], counts[k], what);
            check_sentinel(stripe_off, stripe_off + PRE_GUARD, what);
            check_sentinel(stripe_off + PRE_GUARD + counts[k] * esize(dts[k]), stripe_off + STRIPE_SLOT, what);
            flag_barrier();
        }
    }

    /* a reduce to the last node: only its window is written */
    memset(win + stripe_off, SENT, STRIPE_SLOT);
    flag_barrier();
    gen_vec(stream_id(6, CANOPY_OP_SUM, CANOPY_DT_I64, 512, 9), me, CANOPY_DT_I64, 512, vbuf);
    pack(srcbuf, vbuf, CANOPY_DT_I64, 512);
    struct canopy_reduce_args r = {.tree = 0, .root = n - 1, .op = CANOPY_OP_SUM, .dtype = CANOPY_DT_I64, .count = 512,
                                   .src = srcbuf, .dst_offset = stripe_off + PRE_GUARD};
    CHECK_OK(canopy_reduce(dev, &r, &c[0]));
    CHECK_OK(canopy_coll_wait(dev, &c[0], TEST_TIMEOUT_NS));
    flag_barrier();
    if (me == n - 1)
        verify_vec(stripe_off + PRE_GUARD, stream_id(6, CANOPY_OP_SUM, CANOPY_DT_I64, 512, 9), CANOPY_OP_SUM,
                   CANOPY_DT_I64, 512, "striped reduce to the last node");
    else
        check_sentinel(stripe_off, stripe_off + STRIPE_SLOT, "a striped reduce's non-root window");
    flag_barrier();

    /* four at once: 64 chunks, of which the library keeps CAPS.reduce_ids in flight */
    for (unsigned i = 0; i < 4; ++i) stripe_allreduce(i % 3, CANOPY_DT_I64, 512, 10 + i, i, &c[i]);
    for (unsigned i = 0; i < 4; ++i) CHECK_OK(canopy_coll_wait(dev, &c[i], TEST_TIMEOUT_NS));
    for (unsigned i = 0; i < 4; ++i) {
        snprintf(what, sizeof what, "striped allreduce %u of 4 issued together", i);
        verify_vec(stripe_off + i * STRIPE_SLOT + PRE_GUARD, stream_id(6, i % 3, CANOPY_DT_I64, 512, 10 + i), i % 3,
                   CANOPY_DT_I64, 512, what);
    }
    flag_barrier();

    /* the stripe off: tree 0 alone again */
    CHECK_OK(canopy_tree_stripe(dev, 0, NULL, 0));
    stripe_allreduce(CANOPY_OP_MAX, CANOPY_DT_U32, 250, 20, 0, &c[0]);
    CHECK(c[0].nparts == 1 && c[0].part[0].tree == 0, "with the stripe off, an allreduce used %u trees", c[0].nparts);
    CHECK_OK(canopy_coll_wait(dev, &c[0], TEST_TIMEOUT_NS));
    verify_vec(stripe_off + PRE_GUARD, stream_id(6, CANOPY_OP_MAX, CANOPY_DT_U32, 250, 20), CANOPY_OP_MAX, CANOPY_DT_U32,
               250, "allreduce after the stripe was turned off");
}

int main(int argc, char **argv)
{
    int roots_all = 1, one_root = 0, quick = 0, small = 0;
    unsigned pool_trees = POOL_TREES;
    const char *cases = "123456";
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--roots") && i + 1 < argc) {
            ++i;
            roots_all = !strcmp(argv[i], "all");
            one_root = roots_all ? 0 : !strcmp(argv[i], "none") ? -1 : atoi(argv[i]);
        } else if (!strcmp(argv[i], "--quick")) {
            quick = 1;
        } else if (!strcmp(argv[i], "--pool-trees") && i + 1 < argc) {
            pool_trees = (unsigned)atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--cases") && i + 1 < argc) {
            cases = argv[++i];
        } else if (!strcmp(argv[i], "--small-window")) {
            small = 1;
        } else if (!strcmp(argv[i], "--count") && i + 1 < argc) {
            g_one_count = strtoul(argv[++i], NULL, 0);
        } else if (!strcmp(argv[i], "--one-op-per-dtype")) {
            g_one_op_per_dtype = 1;
        } else {
            fprintf(stderr, "usage: %s [--roots all|none|N] [--quick] [--cases 123456] [--pool-trees 1..16] [--small-window] [--count K] [--one-op-per-dtype]\n",
                    argv[0]);
            return 2;
        }
    }
    setvbuf(stdout, NULL, _IOLBF, 0); /* progress lines survive a failing PE */
    dev = test_open();
    me = canopy_my_node(dev);
    n = canopy_num_nodes(dev);
    CHECK(n >= 2 && n <= MAXN, "this test needs 2..%d nodes, not %d", MAXN, n);
    CHECK(one_root >= -1 && one_root < n, "--roots %d: no such node", one_root);
    CHECK(!small || (n <= 4 && !strchr(cases, '2') && !strchr(cases, '5') && !strchr(cases, '6')),
          "--small-window: cases 1, 3 and 4 on at most 4 nodes only (--cases %s, %d nodes)", cases, n);
    set_layout(small, n);
    CHECK(g_one_count * 8 <= 1000, "--count %zu: at most 1000 bytes of elements (the case's slots)", g_one_count);
    CHECK_OK(canopy_window(dev, win_bytes, (void **)&win));
    test_hello(dev, FLAG_OFF, 0);

    struct canopy_caps caps;
    CHECK_OK(canopy_caps(dev, &caps));
    CHECK(caps.trees >= 2, "CAPS.trees = %u, expected at least 2", caps.trees);
    CHECK(caps.reduce_ids >= 32, "CAPS.reduce_ids = %u, expected at least 32", caps.reduce_ids);

    char err[256] = "";
    int rc = canopy_fm_setup(dev, 0, 0, NULL, CANOPY_FM_VIA_CSR, err, sizeof err);
    CHECK(rc == CANOPY_OK, "fm_setup tree 0: %s: %s", canopy_strerror(rc), err);
    rc = canopy_fm_setup(dev, 1, n / 2, NULL, CANOPY_FM_VIA_PACKETS, err, sizeof err);
    CHECK(rc == CANOPY_OK, "fm_setup tree 1: %s: %s", canopy_strerror(rc), err);
    flag_barrier();

    double t0 = wall_now();
    if (strchr(cases, '1')) {
        uint64_t c0 = canopy_cycles(dev);
        unsigned k = case1(roots_all, one_root, quick);
        if (me == 0)
            printf("reduce: case 1: %u reduces/allreduces verified, %" PRIu64 " cycles, %.1f s\n", k,
                   canopy_cycles(dev) - c0, wall_now() - t0);
        flag_barrier();
    }
    if (strchr(cases, '2')) {
        double t = wall_now();
        case2();
        if (me == 0) printf("reduce: case 2: in flight and in a row verified, %.1f s\n", wall_now() - t);
        flag_barrier();
    }
    if (strchr(cases, '3')) {
        double t = wall_now();
        case3();
        if (me == 0) printf("reduce: case 3: barriers and syncs verified, %.1f s\n", wall_now() - t);
        flag_barrier();
    }
    if (strchr(cases, '4')) {
        double t = wall_now();
        case4();
        if (me == 0) printf("reduce: case 4: mismatches flagged, %.1f s\n", wall_now() - t);
        flag_barrier();
    }
    if (strchr(cases, '5')) {
        double t = wall_now();
        case5(caps.trees, pool_trees);
        if (me == 0) printf("reduce: case 5: reduce memory full from every tree, %.1f s\n", wall_now() - t);
        flag_barrier();
    }

    if (strchr(cases, '6')) {
        double t = wall_now();
        CHECK(caps.trees >= 4, "CAPS.trees = %u: case 6 needs trees 0..3", caps.trees);
        case6(caps.trees);
        if (me == 0) printf("reduce: case 6: striped over %u trees verified, %.1f s\n", STRIPE_TREES, wall_now() - t);
        flag_barrier();
    }

    struct canopy_counters c;
    CHECK_OK(canopy_counters(dev, &c));
    CHECK(c.err_coll_dir == 0 && c.err_coll_tree == 0 && c.err_tree_write == 0 && c.err_bad_type == 0,
          "unexpected collective errors: dir %" PRIu64 " tree %" PRIu64 " table %" PRIu64 " type %" PRIu64,
          c.err_coll_dir, c.err_coll_tree, c.err_tree_write, c.err_bad_type);
    /* last, so that a wrong capability word does not hide the functional results */
    for (unsigned op = 0; op < 3; ++op)
        CHECK((caps.ops_mask >> op) & 1, "CAPS.ops_mask 0x%x lacks %s", caps.ops_mask, op_name[op]);
    for (unsigned dt = 0; dt < 4; ++dt)
        CHECK((caps.dtypes_mask >> dt) & 1, "CAPS.dtypes_mask 0x%x lacks %s", caps.dtypes_mask, dt_name[dt]);
    if (me == 0)
        printf("reduce: all verified on %d nodes in %.1f s (node 0: reduces_sent %" PRIu64 ", reduces_done %" PRIu64
               ", err_reduce %" PRIu64 ")\n",
               n, wall_now() - t0, c.reduces_sent, c.reduces_done, c.err_reduce);
    flag_barrier();
    CHECK_OK(canopy_close(&dev));
    return 0;
}
