/* reduce_bench.c: reduce, allreduce and barrier time on the simulated torus, software over
 * puts vs the hardware (the reduce engines in the routers).
 *
 *   sim/canopy-run -n N --torus T build/driver/examples/reduce_bench --bench B --impl IMPL
 *       [--root R] [--sizes 8,64,...] [--reps 3] [--op sum|min|max] [--dtype i32|u32|i64|u64]
 *       [--inflight 32] [--start-slack CYCLES] [--stripe T] [--hop-latency 1]
 *
 * Every PE runs it. B and IMPL:
 *   reduce     sw-binomial            binomial tree to the root: a node waits for its
 *                                     children's vectors, combines them with its own and
 *                                     sends the sum to its parent;
 *              hw                     canopy_reduce on tree 0.
 *   allreduce  sw-binomial            the binomial reduce to rank 0, then a binomial
 *                                     broadcast of the result;
 *              sw-recursive-doubling  log2 P rounds of pairwise exchange (partner r ^ 2^k);
 *                                     for P not a power of two, the usual fold: the first
 *                                     2(P - P') ranks pair up (P' the largest power of two
 *                                     <= P), the even one hands its vector to the odd one
 *                                     and gets the result back at the end;
 *              sw-ring                reduce-scatter then allgather around a ring of the P
 *                                     nodes (P - 1 steps each, 1/P of the vector per step);
 *              hw                     canopy_allreduce on tree 0.
 *   barrier    sw-dissemination       ceil(log2 P) rounds: tell node r + 2^k, wait for r - 2^k;
 *              hw                     canopy_barrier on tree 0.
 * --stripe T (hw): reduces and allreduces on tree 0 spread their 256-byte chunks over T
 * trees (canopy_tree_stripe): tree 0 and trees 1..T-1 over the same nodes, rooted where
 * canopy_fm_stripe_roots puts them (the root first); records say "trees": T.
 * --hop-latency 1 (reduce, hw, root 0): the reduce's zero-load latency per tree level. For
 * every other node v, tree 1 holds just the root and v (canopy_fm_setup with that member
 * set: the nodes between them are transit routers, whose engines pass the one contribution
 * on); an 8-byte canopy_reduce to the root from both, timed from the synchronized start to
 * the root holding the result; the root fits time = base + slope * depth(v), depth the
 * torus distance (the level v sits at), and prints "reduce-hop-latency" with the slope as
 * cycles_per_hop (the up direction, a level per hop; the host costs fall into base).
 * --inflight K (allreduce only): K allreduces of one 8-byte word back to back on every node
 * (hw: K canopy_allreduce calls, each with its own canopy_coll, then wait for all; sw: the
 * binomial allreduce K times in a row); reported as "allreduce-inflight", cycles = total / K.
 *
 * The software ranks follow a snake (boustrophedon) order of the torus coordinates,
 * rotated so that the root is rank 0 (bench_harness.c): ring neighbours are torus
 * neighbours except at the row ends. A receiver learns that data has arrived from a flag:
 * the sender puts the data, then an 8-byte flag word carrying a sequence number to the same
 * target; puts from one source to one target arrive in order, so no quiet is needed.
 * Every software implementation combines with one function (combine), for every op and
 * element type; integer sums wrap, as in the routers.
 *
 * Per size and repetition: every node writes its input (a function of the node, the
 * element index and the sequence number) and zeroes its result area; the harness's
 * synchronized start (hx_start, bench_harness.h: a dissemination barrier of flags, with a
 * quiet first, that also agrees on a start cycle T, the latest node's entry into it plus
 * the start slack; every node sleeps until T), so every node starts the collective at the
 * same cycle T; every node reads canopy_cycles() when it is done (reduce: the root holds
 * the result; allreduce: this node does; barrier: it left the barrier). The result is
 * checked against a reference computed on the host from the known inputs of all nodes (and
 * the 64 bytes after it must be untouched); a mismatch exits 1. After a second barrier
 * (hx_start_ok) each node reports its start and done cycles to node 0, which takes time =
 * the latest done that counts (reduce: the root's) - T (the earliest start: every node's),
 * and prints one JSON record per size (the median over the repetitions; with --inflight,
 * cycles, cycles_min and cycles_max are per allreduce, cycles_total the median total).
 *
 * Why the synchronized start: nodes leave a barrier with a skew (on 4x4x4 up to a few
 * hundred cycles, on 3x3 tens), and measured from the earliest node out of it the time
 * took in that skew, since the last node out started late and finished late: small
 * figures swung by about as much with any change of the barrier's timing, whatever the
 * collective itself did. --start-slack CYCLES sets the slack (default:
 * hx_start_slack_default, from the barrier's measured duration); a repetition in which
 * some node left the barrier after T is run again with twice the slack (a note on
 * stderr). The record gives start_slack (the slack in the end), start_reruns,
 * start_margin (the least, over nodes and repetitions, of T minus the cycle the node left
 * the barrier) and start_skew (the most, over nodes and repetitions, that a node's start
 * differed from T: 0 when the wake-up is exact).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_harness.h"
#include "canopy.h"
#include "canopy_packet.h"

#include "canopy_fm.h"

#define MAX_LOGP 12 /* up to 4096 nodes */
#define GUARD 64    /* bytes after the result that must stay zero */
#define MAX_INFLIGHT 32

enum bench_kind { B_REDUCE, B_ALLREDUCE, B_BARRIER };
static const char *bench_names[] = {"reduce", "allreduce", "barrier"};
enum impl { SW_BINOMIAL, SW_RECURSIVE_DOUBLING, SW_RING, SW_DISSEMINATION, HW, NIMPL };
static const char *impl_names[] = {"sw-binomial", "sw-recursive-doubling", "sw-ring", "sw-dissemination", "hw"};
static const char *op_names[] = {"sum", "min", "max"};
static const char *dtype_names[] = {"i32", "u32", "i64", "u64"};

/* The whole state of one PE. Window layout:
 *   [0, maxb)                  R: the result (hw dst_offset 0; the sw accumulator)
 *   [maxb, 2 maxb)             S: this node's input
 *   [2 maxb, (3 + LOGP) maxb)  RX[0..LOGP]: receive slots (binomial child at 2^k, recursive
 *                              doubling round k, the fold's hand-over in RX[LOGP]; the
 *                              ring's reduce-scatter in RX[0], chunk k at its own offset)
 *   flags (8-byte words): hello[n] (node 0: one per PE; others: word 0 = go),
 *                         bar[HX_BAR_BYTES / 8] (harness barrier), dis[HX_BAR_ROUNDS] (the measured
 *                         dissemination barrier), red[LOGP] (binomial children), bc
 *                         (binomial broadcast), rd[LOGP] (recursive doubling rounds),
 *                         fold_pre, fold_post, rs, ag (ring), report[n][4] (node 0) */
struct bench {
    struct harness h; /* device, b->h.me, n, root, rank, ring order, window, harness flags */
    int logp;
    size_t maxb;
    unsigned op, dtype, es;
    uint64_t off_s, off_rx, off_dis, off_red, off_bc, off_rd, off_pre, off_post, off_rs, off_ag;
    uint64_t dis_epoch;
};

static uint64_t rx(const struct bench *b, int k) { return b->off_rx + (uint64_t)k * b->maxb; }

static void put(struct bench *b, int node, uint64_t off, const void *src, size_t len, const char *what)
{
    if (len) hx_must(&b->h, canopy_put(b->h.dev, node, off, src, len, 0), what);
}

/* ------------------------------------------------------------------ data */

/* dst[i] = dst[i] op src[i] for count elements of the type: the one combine function of
 * every software implementation and of the host reference. Sums wrap (done unsigned). */
#define COMBINE(T, UT)                                                                             \
    do {                                                                                           \
        for (size_t i = 0; i < count; ++i) {                                                       \
            T x, y;                                                                                \
            memcpy(&x, d + i * sizeof(T), sizeof(T));                                              \
            memcpy(&y, s + i * sizeof(T), sizeof(T));                                              \
            T z = op == CANOPY_OP_SUM ? (T)((UT)x + (UT)y) : op == CANOPY_OP_MIN ? (y < x ? y : x) \
                                                                                 : (y > x ? y : x); \
            memcpy(d + i * sizeof(T), &z, sizeof(T));                                             \
        }                                                                                          \
    } while (0)

static void combine(unsigned op, unsigned dtype, void *dst, const void *src, size_t count)
{
    uint8_t *d = dst;
    const uint8_t *s = src;
    switch (dtype) {
    case CANOPY_DT_I32: COMBINE(int32_t, uint32_t); break;
    case CANOPY_DT_U32: COMBINE(uint32_t, uint32_t); break;
    case CANOPY_DT_I64: COMBINE(int64_t, uint64_t); break;
    case CANOPY_DT_U64: COMBINE(uint64_t, uint64_t); break;
    default: fprintf(stderr, "reduce_bench: combine: unknown dtype %u\n", dtype), abort(); /* parsed: unreachable */
    }
}

/* The input of `node` for sequence number `seq`: element i is a hash of (node, i, seq),
 * its low es bytes; the full range of the type, so signed and unsigned min/max differ. */
static void input(uint8_t *dst, int node, size_t bytes, unsigned es, uint64_t seq)
{
    for (size_t i = 0; i < bytes / es; ++i) {
        uint64_t w = hx_mix(hx_mix(seq) ^ ((uint64_t)node << 40) ^ i);
        memcpy(dst + i * es, &w, es);
    }
}

/* The expected result, from every node's input, combined in node order. */
static void reference(const struct bench *b, uint8_t *ref, uint8_t *tmp, size_t bytes, uint64_t seq)
{
    input(ref, 0, bytes, b->es, seq);
    for (int i = 1; i < b->h.n; ++i) {
        input(tmp, i, bytes, b->es, seq);
        combine(b->op, b->dtype, ref, tmp, bytes / b->es);
    }
}

static void check(const struct bench *b, const uint8_t *got, const uint8_t *want, size_t bytes, const char *what)
{
    for (size_t i = 0; i < bytes; i += b->es)
        if (memcmp(got + i, want + i, b->es)) {
            size_t bad = 0;
            for (size_t j = i; j < bytes; j += b->es) bad += memcmp(got + j, want + j, b->es) != 0;
            uint64_t g = 0, w = 0;
            memcpy(&g, got + i, b->es), memcpy(&w, want + i, b->es);
            hx_die(&b->h, "%s, %zu bytes: element %zu wrong (got 0x%" PRIx64 ", want 0x%" PRIx64
                   "), %zu wrong elements of %zu", what, bytes, i / b->es, g, w, bad, bytes / b->es);
        }
}

static void check_guard(const struct bench *b, size_t bytes, const char *what)
{
    for (size_t i = bytes; i < bytes + GUARD; ++i)
        if (b->h.win[i] != 0)
            hx_die(&b->h, "%s: byte %zu after the %zu-byte result was written (0x%02x)", what, i, bytes, b->h.win[i]);
}

/* ------------------------------------------------------------------ software collectives
 * Each works on the vector at window offset `roff` (R or a word of it): it starts as this
 * node's input (copied in from src), and ends as the result where the collective delivers
 * one. `seq` is unique per call and increasing. */

/* Binomial reduce to rank 0: rank r's children are r + 2^k for 2^k < hx_lowbit(r) (all k for
 * rank 0); child r + 2^k puts its vector into r's RX[k], then flag red[k]. Returns when
 * this node has sent its vector up (rank 0: holds the result). */
static void sw_binomial_reduce(struct bench *b, uint64_t roff, const uint8_t *src, size_t bytes, uint64_t seq)
{
    const int r = b->h.rank, P = b->h.n;
    uint8_t *acc = b->h.win + roff;
    memcpy(acc, src, bytes);
    const int top = r == 0 ? hx_pow2_at_least(P) : hx_lowbit(r);
    for (int k = 0, m = 1; m < top; ++k, m <<= 1) {
        if (r + m >= P) break;
        hx_wait_ge(&b->h, b->off_red + 8u * (unsigned)k, seq, "binomial reduce wait");
        combine(b->op, b->dtype, acc, b->h.win + rx(b, k), bytes / b->es);
    }
    if (r != 0) {
        const int parent = b->h.node_of[r - hx_lowbit(r)];
        int k = 0;
        while ((1 << k) != hx_lowbit(r)) ++k;
        put(b, parent, rx(b, k), acc, bytes, "binomial reduce put");
        hx_put_flag(&b->h, parent, b->off_red + 8u * (unsigned)k, seq);
    }
}

/* Binomial broadcast of rank 0's vector at roff into every node's roff. */
static void sw_binomial_bcast(struct bench *b, uint64_t roff, size_t bytes, uint64_t seq)
{
    const int r = b->h.rank, P = b->h.n;
    int mask;
    if (r == 0) {
        mask = hx_pow2_at_least(P);
    } else {
        hx_wait_ge(&b->h, b->off_bc, seq, "binomial bcast wait");
        mask = hx_lowbit(r);
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (r + mask < P) {
            const int dst = b->h.node_of[r + mask];
            put(b, dst, roff, b->h.win + roff, bytes, "binomial bcast put");
            hx_put_flag(&b->h, dst, b->off_bc, seq);
        }
}

static void sw_binomial_allreduce(struct bench *b, uint64_t roff, const uint8_t *src, size_t bytes, uint64_t seq)
{
    sw_binomial_reduce(b, roff, src, bytes, seq);
    sw_binomial_bcast(b, roff, bytes, seq);
}

/* Recursive doubling over P' = the largest power of two <= P. With E = P - P' extra
 * ranks: ranks < 2E pair up (2i, 2i+1); the even one puts its vector into the odd one's
 * RX[LOGP] (flag fold_pre), sits out, and receives the result from it (flag fold_post).
 * The others take part with new rank r/2 (r < 2E) or r - E. Round k: exchange with new
 * rank nr ^ 2^k (its vector into the partner's RX[k], flag rd[k]), combine. */
static void sw_recursive_doubling(struct bench *b, uint64_t roff, const uint8_t *src, size_t bytes, uint64_t seq)
{
    const int r = b->h.rank, P = b->h.n;
    int pp = 1;
    while (pp * 2 <= P) pp *= 2;
    const int extra = P - pp;
    uint8_t *acc = b->h.win + roff;
    memcpy(acc, src, bytes);
    int nr;
    if (r < 2 * extra) {
        if (r % 2 == 0) {
            const int odd = b->h.node_of[r + 1];
            put(b, odd, rx(b, b->logp), acc, bytes, "fold put");
            hx_put_flag(&b->h, odd, b->off_pre, seq);
            hx_wait_ge(&b->h, b->off_post, seq, "fold result wait");
            return;
        }
        hx_wait_ge(&b->h, b->off_pre, seq, "fold wait");
        combine(b->op, b->dtype, acc, b->h.win + rx(b, b->logp), bytes / b->es);
        nr = r / 2;
    } else {
        nr = r - extra;
    }
    for (int k = 0, m = 1; m < pp; ++k, m <<= 1) {
        const int pn = nr ^ m, pr = pn < extra ? 2 * pn + 1 : pn + extra, partner = b->h.node_of[pr];
        put(b, partner, rx(b, k), acc, bytes, "recursive doubling put");
        hx_put_flag(&b->h, partner, b->off_rd + 8u * (unsigned)k, seq);
        hx_wait_ge(&b->h, b->off_rd + 8u * (unsigned)k, seq, "recursive doubling wait");
        combine(b->op, b->dtype, acc, b->h.win + rx(b, k), bytes / b->es);
    }
    if (r < 2 * extra) {
        const int even = b->h.node_of[r - 1];
        put(b, even, roff, acc, bytes, "fold result put");
        hx_put_flag(&b->h, even, b->off_post, seq);
    }
}

/* Ring: chunk k = elements [k c, (k+1) c), c = ceil(count / P). Reduce-scatter step s: put
 * chunk r - s of the accumulator into the right neighbour's RX[0] (at the chunk's own
 * offset, so steps never overwrite one another), wait for chunk r - s - 1 from the left,
 * combine it in; after P - 1 steps rank r holds the whole of chunk r + 1. Allgather step
 * s: put chunk r + 1 - s into the right neighbour's result, wait for chunk r - s. Flags rs
 * and ag carry seq * P + step. (The left neighbour's allgather put of chunk r - s cannot
 * overtake this node's reduce-scatter combine of it: it depends, through the ring, on
 * this node's reduce-scatter step s.) */
static void sw_ring(struct bench *b, uint64_t roff, const uint8_t *src, size_t bytes, uint64_t seq)
{
    const int r = b->h.rank, P = b->h.n;
    const size_t count = bytes / b->es, c = (count + (size_t)P - 1) / (size_t)P;
    const int right = b->h.node_of[(r + 1) % P];
    const uint64_t base = seq * (uint64_t)P;
    uint8_t *acc = b->h.win + roff, *in = b->h.win + rx(b, 0);
    memcpy(acc, src, bytes);
    for (int s = 0; s + 1 < P; ++s) {
        const int ks = ((r - s) % P + P) % P, kr = ((r - s - 1) % P + P) % P;
        const size_t lo = hx_clip((size_t)ks * c * b->es, bytes), hi = hx_clip((size_t)(ks + 1) * c * b->es, bytes);
        put(b, right, rx(b, 0) + lo, acc + lo, hi - lo, "reduce-scatter put");
        hx_put_flag(&b->h, right, b->off_rs, base + (uint64_t)s + 1);
        hx_wait_ge(&b->h, b->off_rs, base + (uint64_t)s + 1, "reduce-scatter wait");
        const size_t rlo = hx_clip((size_t)kr * c * b->es, bytes), rhi = hx_clip((size_t)(kr + 1) * c * b->es, bytes);
        combine(b->op, b->dtype, acc + rlo, in + rlo, (rhi - rlo) / b->es);
    }
    for (int s = 0; s + 1 < P; ++s) {
        const int k = ((r + 1 - s) % P + P) % P;
        const size_t lo = hx_clip((size_t)k * c * b->es, bytes), hi = hx_clip((size_t)(k + 1) * c * b->es, bytes);
        put(b, right, roff + lo, acc + lo, hi - lo, "allgather put");
        hx_put_flag(&b->h, right, b->off_ag, base + (uint64_t)s + 1);
        hx_wait_ge(&b->h, b->off_ag, base + (uint64_t)s + 1, "allgather wait");
    }
}

/* The measured dissemination barrier (its own flags and epochs, no quiet). */
static void sw_dissemination(struct bench *b)
{
    ++b->dis_epoch;
    const int r = b->h.rank, P = b->h.n;
    for (int k = 0, d = 1; d < P; ++k, d <<= 1) {
        hx_put_flag(&b->h, b->h.node_of[(r + d) % P], b->off_dis + 8u * (unsigned)k, b->dis_epoch);
        hx_wait_ge(&b->h, b->off_dis + 8u * (unsigned)k, b->dis_epoch, "dissemination wait");
    }
}

/* ------------------------------------------------------------------ hardware */

static struct canopy_reduce_args hw_args(struct bench *b, uint64_t roff, const uint8_t *src, size_t bytes)
{
    struct canopy_reduce_args a = {.tree = 0, .group = 0, .root = b->h.root, .op = b->op, .dtype = b->dtype,
                                   .count = bytes / b->es, .src = src, .dst_offset = roff};
    return a;
}

/* ------------------------------------------------------------------ one measurement */

/* Runs the collective once (or `inflight` of them) on this node; returns its done cycle. */
static uint64_t run_once(struct bench *b, int kind, int impl, size_t bytes, int inflight, uint64_t seq0)
{
    const uint8_t *src = b->h.win + b->off_s;
    if (kind == B_BARRIER) {
        if (impl == HW) {
            hx_must(&b->h, canopy_barrier(b->h.dev, 0, HX_TIMEOUT_NS), "canopy_barrier");
        } else {
            sw_dissemination(b);
        }
        return canopy_cycles(b->h.dev);
    }
    if (inflight) {
        if (impl == HW) {
            static struct canopy_coll done[MAX_INFLIGHT];
            for (int j = 0; j < inflight; ++j) {
                struct canopy_reduce_args a = hw_args(b, 8u * (unsigned)j, src + 8u * (unsigned)j, 8);
                hx_must(&b->h, canopy_allreduce(b->h.dev, &a, &done[j]), "canopy_allreduce");
            }
            for (int j = 0; j < inflight; ++j)
                hx_must(&b->h, canopy_coll_wait(b->h.dev, &done[j], HX_TIMEOUT_NS), "canopy_coll_wait");
        } else {
            for (int j = 0; j < inflight; ++j)
                sw_binomial_allreduce(b, 8u * (unsigned)j, src + 8u * (unsigned)j, 8, seq0 + (uint64_t)j);
        }
        return canopy_cycles(b->h.dev);
    }
    if (impl == HW) {
        struct canopy_reduce_args a = hw_args(b, 0, src, bytes);
        struct canopy_coll done;
        hx_must(&b->h, (kind == B_REDUCE ? canopy_reduce : canopy_allreduce)(b->h.dev, &a, &done),
             kind == B_REDUCE ? "canopy_reduce" : "canopy_allreduce");
        hx_must(&b->h, canopy_coll_wait(b->h.dev, &done, HX_TIMEOUT_NS), "canopy_coll_wait");
    } else if (kind == B_REDUCE) {
        sw_binomial_reduce(b, 0, src, bytes, seq0);
    } else if (impl == SW_BINOMIAL) {
        sw_binomial_allreduce(b, 0, src, bytes, seq0);
    } else if (impl == SW_RECURSIVE_DOUBLING) {
        sw_recursive_doubling(b, 0, src, bytes, seq0);
    } else {
        sw_ring(b, 0, src, bytes, seq0);
    }
    return canopy_cycles(b->h.dev);
}

/* ------------------------------------------------------------------ latency per level */

/* --hop-latency: see the header. Node 0 is the root (checked by main). */
static void run_hop_latency(struct bench *b)
{
    const int n = b->h.n, me = b->h.me;
    uint8_t *groups = calloc((size_t)n, 1);
    if (!groups) hx_die(&b->h, "out of memory");
    uint8_t *src = b->h.win + b->off_s;
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    int maxh = 0, points = 0;
    struct hx_start_stats st;
    hx_start_stats_begin(&b->h, &st);
    uint64_t seq = 1u << 30;
    struct canopy_fm_torus t;
    hx_must(&b->h, canopy_fm_torus_of(b->h.dev, &t), "reading the torus");
    for (int v = 1; v < n; ++v) {
        char err[256] = "";
        memset(groups, 0, (size_t)n);
        groups[0] = groups[v] = 1;
        int rc = canopy_fm_setup(b->h.dev, 1, 0, groups, CANOPY_FM_VIA_CSR, err, sizeof err);
        if (rc != CANOPY_OK) hx_die(&b->h, "canopy_fm_setup (members 0 and %d): %s: %s", v, canopy_strerror(rc), err);
        hx_barrier(&b->h);
        uint64_t start = 0, done = 0;
        for (;; ++seq) { /* once, or again if a node started late (hx_start_ok) */
            memset(b->h.win + b->off_rx, 0, 8);
            memcpy(src, &seq, 8);
            start = hx_start(&b->h);
            if (me == 0 || me == v) {
                struct canopy_reduce_args a = {.tree = 1, .root = 0, .op = CANOPY_OP_SUM, .dtype = CANOPY_DT_I64,
                                               .count = 1, .src = src, .dst_offset = b->off_rx};
                struct canopy_coll c;
                hx_must(&b->h, canopy_reduce(b->h.dev, &a, &c), "canopy_reduce");
                hx_must(&b->h, canopy_coll_wait(b->h.dev, &c, HX_TIMEOUT_NS), "canopy_coll_wait");
            }
            done = canopy_cycles(b->h.dev);
            if (me == 0) {
                uint64_t got;
                memcpy(&got, b->h.win + b->off_rx, 8);
                if (got != 2 * seq) hx_die(&b->h, "hop latency: reduce with node %d gave %" PRIu64 ", expected %" PRIu64,
                                           v, got, 2 * seq);
            }
            if (hx_start_ok(&b->h)) break;
        }
        hx_report_timed(&b->h, done, start, seq);
        if (me == 0) {
            hx_collect(&b->h, seq);
            hx_start_stats_add(&b->h, &st);
            const int d = (int)canopy_fm_distance(&t, 0, (unsigned)v);
            const double x = d, y = (double)(done - b->h.start_at);
            if (d > maxh) maxh = d;
            sx += x, sy += y, sxx += x * x, sxy += x * y, ++points;
        }
        ++seq; /* the next node's reports must not pass for this one's */
    }
    free(groups);
    if (me != 0) return;
    const double np = points, slope = (np * sxy - sx * sy) / (np * sxx - sx * sx), base = (sy - slope * sx) / np;
    printf("{\"bench\": \"reduce-hop-latency\", \"impl\": \"hw\", \"torus\": \"%s\", \"nodes\": %d, \"root\": 0, "
           "\"bytes\": 8, \"cycles_per_hop\": %.2f, \"base_cycles\": %.1f, \"max_hops\": %d, \"points\": %d",
           b->h.torus, n, slope, base, maxh, points);
    hx_start_stats_print(&b->h, &st);
    printf("}\n");
    fflush(stdout);
}

/* ------------------------------------------------------------------ setup */

/* Trees 1..n-1 over every node, rooted where canopy_fm_stripe_roots spreads them from the
 * bench's root (tree 0's), and tree 0's reduces spread over trees 0..n-1. */
static void setup_stripe(struct bench *b, unsigned n)
{
    struct canopy_fm_torus t;
    int roots[CANOPY_MAX_STRIPE];
    unsigned ids[CANOPY_MAX_STRIPE];
    char err[256] = "";
    int rc = canopy_fm_torus_of(b->h.dev, &t);
    if (!rc) rc = canopy_fm_stripe_roots(&t, NULL, b->h.root, n, roots, err, sizeof err);
    for (unsigned k = 1; !rc && k < n; ++k)
        rc = canopy_fm_setup(b->h.dev, k, roots[k], NULL, CANOPY_FM_VIA_CSR, err, sizeof err);
    for (unsigned k = 0; k < n; ++k) ids[k] = k;
    if (!rc) rc = canopy_tree_stripe(b->h.dev, 0, ids, n);
    if (rc) hx_die(&b->h, "stripe of %u trees: %s: %s", n, canopy_strerror(rc), err);
}

static void usage(void)
{
    fprintf(stderr, "usage: reduce_bench --bench reduce|allreduce|barrier --impl IMPL [--root N] [--sizes 8,64,...] "
                    "[--reps R] [--op sum|min|max] [--dtype i32|u32|i64|u64] [--inflight K] [--start-slack CYCLES] [--stripe T] [--hop-latency 1]\n"
                    "  reduce: sw-binomial|hw; allreduce: sw-binomial|sw-recursive-doubling|sw-ring|hw; "
                    "barrier: sw-dissemination|hw\n");
    exit(2);
}

static int lookup(const char *v, const char *const *names, int n)
{
    for (int j = 0; j < n; ++j)
        if (!strcmp(v, names[j])) return j;
    usage();
    return -1;
}

int main(int argc, char **argv)
{
    int kind = -1, impl = -1, reps = 3, inflight = 0, root = 0, stripe = 1, hop_latency = 0;
    size_t sizes[HX_MAX_SIZES], nsizes = 0;
    const char *slack = NULL; /* --start-slack; NULL: the harness's default */
    struct bench b = {.op = CANOPY_OP_SUM, .dtype = CANOPY_DT_I64};
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) usage();
        ++i;
        if (!strcmp(a, "--bench")) {
            kind = lookup(v, bench_names, 3);
        } else if (!strcmp(a, "--impl")) {
            impl = lookup(v, impl_names, NIMPL);
        } else if (!strcmp(a, "--root")) {
            root = atoi(v);
        } else if (!strcmp(a, "--reps")) {
            reps = atoi(v);
        } else if (!strcmp(a, "--start-slack")) {
            slack = v;
        } else if (!strcmp(a, "--inflight")) {
            inflight = atoi(v);
        } else if (!strcmp(a, "--stripe")) {
            stripe = atoi(v);
        } else if (!strcmp(a, "--hop-latency")) {
            hop_latency = atoi(v);
        } else if (!strcmp(a, "--op")) {
            b.op = (unsigned)lookup(v, op_names, 3); /* CANOPY_OP_SUM, _MIN, _MAX = 0, 1, 2 */
        } else if (!strcmp(a, "--dtype")) {
            b.dtype = (unsigned)lookup(v, dtype_names, 4); /* CANOPY_DT_I32.._U64 = 0..3 */
        } else if (!strcmp(a, "--sizes")) {
            if (!(nsizes = hx_parse_sizes(v, sizes))) usage();
        } else {
            usage();
        }
    }
    const int ok_impl = kind == B_REDUCE      ? impl == SW_BINOMIAL || impl == HW
                        : kind == B_ALLREDUCE ? impl == SW_BINOMIAL || impl == SW_RECURSIVE_DOUBLING ||
                                                    impl == SW_RING || impl == HW
                        : kind == B_BARRIER   ? impl == SW_DISSEMINATION || impl == HW
                                              : 0;
    if (!ok_impl || reps < 1 || reps > 64 || inflight < 0 || inflight > MAX_INFLIGHT || stripe < 1 ||
        stripe > CANOPY_MAX_STRIPE || (stripe > 1 && impl != HW) ||
        (hop_latency && (kind != B_REDUCE || impl != HW || root != 0)))
        usage();
    if (inflight && (kind != B_ALLREDUCE || (impl != SW_BINOMIAL && impl != HW))) {
        fprintf(stderr, "reduce_bench: --inflight is for --bench allreduce with sw-binomial or hw\n");
        return 2;
    }
    b.es = b.dtype == CANOPY_DT_I32 || b.dtype == CANOPY_DT_U32 ? 4 : 8;
    if (kind == B_BARRIER) {
        sizes[0] = 0, nsizes = 1;
    } else if (inflight) {
        sizes[0] = 8u * (unsigned)inflight, nsizes = 1; /* the K words, side by side */
    } else if (!nsizes) {
        const size_t def[] = {8, 64, 256, 2048, 16384};
        for (size_t i = 0; i < sizeof def / sizeof def[0]; ++i) sizes[nsizes++] = def[i];
    }
    b.maxb = 8;
    for (size_t i = 0; i < nsizes; ++i) {
        if (kind != B_BARRIER && (sizes[i] == 0 || sizes[i] % b.es)) {
            fprintf(stderr, "reduce_bench: sizes must be positive multiples of the element size (%u)\n", b.es);
            return 2;
        }
        if (sizes[i] > b.maxb) b.maxb = sizes[i];
    }
    b.maxb = (b.maxb + GUARD + 63) & ~(size_t)63;

    hx_open(&b.h, "reduce_bench", root);
    if (slack) hx_set_start_slack(&b.h, slack);
    b.logp = 0;
    while ((1 << b.logp) < b.h.n) ++b.logp;
    if (b.logp > MAX_LOGP) hx_die(&b.h, "more than 2^%d nodes", MAX_LOGP);
    b.off_s = b.maxb;
    b.off_rx = 2 * b.maxb;
    b.h.off_hello = rx(&b, b.logp + 1);
    b.h.off_bar = b.h.off_hello + 8u * (unsigned)b.h.n;
    b.off_dis = b.h.off_bar + HX_BAR_BYTES;
    b.off_red = b.off_dis + 8u * HX_BAR_ROUNDS;
    b.off_bc = b.off_red + 8u * MAX_LOGP;
    b.off_rd = b.off_bc + 8;
    b.off_pre = b.off_rd + 8u * MAX_LOGP;
    b.off_post = b.off_pre + 8;
    b.off_rs = b.off_post + 8;
    b.off_ag = b.off_rs + 8;
    b.h.off_report = b.off_ag + 8;
    const size_t win_size = (b.h.off_report + HX_REPORT_BYTES * (unsigned)b.h.n + 4095) & ~(size_t)4095;
    hx_must(&b.h, canopy_window(b.h.dev, win_size, (void **)&b.h.win), "window");

    hx_ring_order(&b.h);
    hx_hello(&b.h);
    if (impl == HW) {
        char err[256] = "";
        int rc = canopy_fm_setup(b.h.dev, 0, b.h.root, NULL, CANOPY_FM_VIA_CSR, err, sizeof err);
        if (rc != CANOPY_OK) {
            hx_die(&b.h, "canopy_fm_setup: %s: %s", canopy_strerror(rc), err);
        }
        if (stripe > 1) setup_stripe(&b, (unsigned)stripe);
    }
    hx_barrier(&b.h);

    if (hop_latency) {
        run_hop_latency(&b);
        hx_must(&b.h, canopy_quiet(b.h.dev, HX_TIMEOUT_NS), "quiet");
        return canopy_close(&b.h.dev) == CANOPY_OK ? 0 : 1;
    }
    const double ns_per_cycle = (double)canopy_time_ns(b.h.dev) / (double)canopy_cycles(b.h.dev);
    uint8_t *ref = malloc(b.maxb), *tmp = malloc(b.maxb);
    const int nops = inflight ? inflight : 1;
    uint64_t seq = 0;
    char what[96];
    for (size_t si = 0; si < nsizes; ++si) {
        const size_t bytes = sizes[si];
        uint64_t cyc[64];
        struct hx_start_stats st;
        hx_start_stats_begin(&b.h, &st);
        for (int rep = 0; rep < reps;) {
            const uint64_t seq0 = seq + 1;
            seq += (uint64_t)nops;
            /* Inputs: one vector of `bytes` (inflight: K words, word j with seq0 + j). */
            if (inflight)
                for (int j = 0; j < inflight; ++j)
                    input(b.h.win + b.off_s + 8u * (unsigned)j, b.h.me, 8, b.es, seq0 + (uint64_t)j);
            else
                input(b.h.win + b.off_s, b.h.me, bytes, b.es, seq0);
            memset(b.h.win, 0, bytes + GUARD);
            memset(b.h.win + b.off_rx, 0, (size_t)(b.logp + 1) * b.maxb);
            const uint64_t start = hx_start(&b.h);
            const uint64_t t = run_once(&b, kind, impl, bytes, inflight, seq0);
            /* Check: reduce at the root, allreduce everywhere; the guard everywhere (and an
             * untouched result area at the other nodes of a hardware reduce). */
            snprintf(what, sizeof what, "%s %s %s %s", bench_names[kind], impl_names[impl], op_names[b.op],
                     dtype_names[b.dtype]);
            if (kind == B_ALLREDUCE || (kind == B_REDUCE && b.h.me == b.h.root)) {
                if (inflight) {
                    for (int j = 0; j < inflight; ++j) {
                        reference(&b, ref, tmp, 8, seq0 + (uint64_t)j);
                        check(&b, b.h.win + 8u * (unsigned)j, ref, 8, what);
                    }
                } else {
                    reference(&b, ref, tmp, bytes, seq0);
                    check(&b, b.h.win, ref, bytes, what);
                }
            } else if (kind == B_REDUCE && impl == HW) {
                memset(ref, 0, bytes);
                check(&b, b.h.win, ref, bytes, what);
            }
            if (kind != B_BARRIER) check_guard(&b, bytes, what);
            if (!hx_start_ok(&b.h)) continue; /* a node started late: again, with twice the slack */
            /* report: {done (0 if it does not count), start, spare slack, seq}; seq last,
             * same packet */
            const int counts = kind != B_REDUCE || b.h.me == b.h.root;
            hx_report_timed(&b.h, counts ? t : 0, start, seq);
            if (b.h.me == 0) {
                hx_collect(&b.h, seq);
                const uint64_t t0 = b.h.start_at; /* every node's start (start_skew: how exactly) */
                uint64_t last = 0;
                for (int s = 0; s < b.h.n; ++s) {
                    const volatile uint64_t *r = hx_word(&b.h, b.h.off_report + HX_REPORT_BYTES * (unsigned)s);
                    if (r[0] > last) last = r[0];
                }
                hx_start_stats_add(&b.h, &st);
                if (last < t0) hx_die(&b.h, "report: completion %" PRIu64 " before the start %" PRIu64, last, t0);
                cyc[rep] = last - t0;
            }
            ++rep;
        }
        if (b.h.me == 0) {
            qsort(cyc, (size_t)reps, sizeof cyc[0], hx_cmp_u64);
            const uint64_t c = cyc[reps / 2];
            const char *name = inflight ? "allreduce-inflight" : bench_names[kind];
            const uint64_t div = inflight ? (uint64_t)inflight : 1, per = (c + div / 2) / div;
            printf("{\"bench\": \"%s\", \"impl\": \"%s\", \"torus\": \"%s\", \"nodes\": %d, \"bytes\": %zu, "
                   "\"cycles\": %" PRIu64 ", \"op\": \"%s\", \"dtype\": \"%s\", \"root\": %d, \"ns\": %.1f, "
                   "\"reps\": %d, \"cycles_min\": %" PRIu64 ", \"cycles_max\": %" PRIu64,
                   name, impl_names[impl], b.h.torus, b.h.n, inflight ? (size_t)8 : bytes, per, op_names[b.op],
                   dtype_names[b.dtype], b.h.root, per * ns_per_cycle, reps, (cyc[0] + div / 2) / div,
                   (cyc[reps - 1] + div / 2) / div);
            if (inflight) printf(", \"inflight\": %d, \"cycles_total\": %" PRIu64, inflight, c);
            if (impl == HW && kind != B_BARRIER) printf(", \"trees\": %d", stripe);
            hx_start_stats_print(&b.h, &st);
            printf("}\n");
            fflush(stdout);
        }
    }
    free(ref), free(tmp);
    hx_must(&b.h, canopy_quiet(b.h.dev, HX_TIMEOUT_NS), "quiet");
    return canopy_close(&b.h.dev) == CANOPY_OK ? 0 : 1;
}
