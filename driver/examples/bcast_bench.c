/* bcast_bench.c: broadcast time on the simulated torus, software over puts vs the hardware.
 *
 *   sim/canopy-run -n N --torus T build/driver/examples/bcast_bench --impl IMPL
 *       [--root R] [--sizes 8,64,...] [--reps 3] [--large-reps 1] [--seg BYTES]
 *       [--start-slack CYCLES] [--hop-latency 1]
 *
 * Every PE runs it. IMPL is one of
 *   sw-binomial           binomial tree of puts: log2(P) rounds, each node forwards the
 *                         whole message to its subtree peers once it has it;
 *   sw-scatter-allgather  van de Geijn: binomial scatter of P chunks, then a ring allgather
 *                         (P-1 steps, each node passes on the chunk it received last);
 *   sw-chain              pipelined chain along the ranks: the message in segments (--seg
 *                         bytes; default bytes/16 within [128, 1024]), each node forwards
 *                         a segment to the next as soon as it has it;
 *   hw                    canopy_bcast down tree 0 (the dimension-ordered tree rooted at
 *                         the root, programmed by canopy_fm_setup through the CSRs).
 * The software ranks follow a snake (boustrophedon) order of the torus coordinates,
 * rotated so that the root is rank 0: ring neighbours are torus neighbours except at the
 * row ends.
 *
 * A receiver learns that data has arrived from a flag: the sender puts the data, then an
 * 8-byte flag word carrying a sequence number to the same target. Puts from one source to
 * one target arrive in order, so the flag is seen after the data; the receiver waits on
 * its own window (canopy_wait_u64).
 *
 * Per size and repetition: every node zeroes its receive area and the root writes a fresh
 * pattern (a function of the size and the sequence number); the harness's synchronized
 * start (hx_start, bench_harness.h): a dissemination barrier of flags that also agrees on
 * a start cycle T, the latest node's entry into it plus the start slack, and every node
 * sleeps until T, so every node (the root and, for hw, every member calling
 * canopy_bcast) starts the broadcast at the same cycle T. Every node reads
 * canopy_cycles() once all the bytes are in its window, checks every byte (and that the
 * 64 bytes after the message are untouched) and exits 1 on a mismatch. After a second
 * barrier (hx_start_ok) each node reports its completion cycle to node 0, which takes the
 * latest minus T. Node 0 prints one JSON record per size (the median over the
 * repetitions). --reps applies below 64 KiB, --large-reps from 64 KiB up: the
 * co-simulation is deterministic, so one repetition of a large size is enough.
 *
 * Why the synchronized start: nodes leave a barrier with a skew (on 4x4x4 up to a few
 * hundred cycles), and measured from the root's exit the time took in the skew of the
 * other nodes (a node that leaves late reads its completion late): small-message figures
 * swung by about as much with any change of the barrier's timing. --start-slack CYCLES
 * sets the slack (default: hx_start_slack_default, from the barrier's measured duration);
 * a repetition in which some node left the barrier after T is run again with twice the
 * slack (a note on stderr). The record gives start_slack (the slack in the end),
 * start_reruns, start_margin (the least, over nodes and repetitions, of T minus the cycle
 * the node left the barrier: how much of the slack was to spare) and start_skew (the
 * most, over nodes and repetitions, that a node's start differed from T: 0 when the
 * wake-up is exact).
 *
 * The harness (hello, barrier, ring order, reports to node 0) is bench_harness.c's.
 *
 * The hw implementation needs fw/include/canopy_fm.h and canopy_bcast in libcanopy; it is
 * compiled in only when canopy_fm.h is on the include path (-Ifw/include, and link the
 * fabric manager) and BCAST_BENCH_NO_HW is not defined. Without it, --impl hw fails.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_harness.h"
#include "canopy.h"

#if !defined(BCAST_BENCH_NO_HW) && defined(__has_include)
#if __has_include("canopy_fm.h")
#include "canopy_fm.h"
#define BCAST_BENCH_HW 1
#endif
#endif

#define MAX_BYTES_DEFAULT (256u * 1024u)
#define GUARD 64 /* bytes after the message that must stay zero */

enum impl { SW_BINOMIAL, SW_SCATTER_ALLGATHER, SW_CHAIN, HW };
static const char *impl_names[] = {"sw-binomial", "sw-scatter-allgather", "sw-chain", "hw"};

/* The whole state of one PE. Window layout:
 *   [0, maxb)            A: where the broadcast lands (the root's own copy too)
 *   [maxb, 2 maxb)       B: the root's source buffer
 *   flags (8-byte words): hello[n] and bar[HX_BAR_BYTES / 8] (the harness's), binom,
 *                         scat, ag, chain, report[n][4] (the harness's, node 0) */
struct bench {
    struct harness h; /* device, me, n, root, rank, ring order, window, harness flags */
    size_t maxb, seg;
    uint64_t off_b, off_binom, off_scat, off_ag, off_chain;
};

static void pattern(uint8_t *dst, size_t bytes, uint64_t seq)
{
    for (size_t i = 0; i < bytes; i += 8) {
        uint64_t w = hx_mix((seq << 32) ^ (bytes << 1) ^ hx_mix(i));
        memcpy(dst + i, &w, bytes - i < 8 ? bytes - i : 8);
    }
}

static void verify(struct bench *b, size_t bytes, uint64_t seq, const char *impl)
{
    uint8_t *want = malloc(bytes ? bytes : 1);
    pattern(want, bytes, seq);
    for (size_t i = 0; i < bytes; ++i)
        if (b->h.win[i] != want[i]) {
            size_t bad = 0;
            for (size_t j = i; j < bytes; ++j) bad += b->h.win[j] != want[j];
            hx_die(&b->h, "%s, %zu bytes: first wrong byte at %zu (got 0x%02x, want 0x%02x), %zu wrong bytes in all",
                   impl, bytes, i, b->h.win[i], want[i], bad);
        }
    free(want);
    for (size_t i = bytes; i < bytes + GUARD && i < b->maxb; ++i)
        if (b->h.win[i] != 0)
            hx_die(&b->h, "%s: byte %zu after the message was written (0x%02x)", impl, i, b->h.win[i]);
}

/* Each returns the cycle at which this node had all the bytes. */

static uint64_t run_binomial(struct bench *b, size_t bytes, uint64_t seq)
{
    const int r = b->h.rank, P = b->h.n;
    uint64_t t;
    int mask;
    if (r == 0) {
        memcpy(b->h.win, b->h.win + b->off_b, bytes);
        t = canopy_cycles(b->h.dev);
        mask = hx_pow2_at_least(P);
    } else {
        hx_wait_ge(&b->h, b->off_binom, seq, "binomial wait");
        t = canopy_cycles(b->h.dev);
        mask = hx_lowbit(r);
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (r + mask < P) {
            const int dst = b->h.node_of[r + mask];
            hx_must(&b->h, canopy_put(b->h.dev, dst, 0, b->h.win, bytes, 0), "binomial put");
            hx_put_flag(&b->h, dst, b->off_binom, seq);
        }
    return t;
}

static uint64_t run_scatter_allgather(struct bench *b, size_t bytes, uint64_t seq)
{
    const int r = b->h.rank, P = b->h.n;
    size_t c = (bytes + (size_t)P - 1) / (size_t)P;
    c = (c + 7) & ~(size_t)7; /* chunk k: [k c, (k+1) c) clipped to the message */
    uint64_t t = 0;
    int mask;
    /* Scatter: a node receives the chunks of its whole subtree [r, r + hx_lowbit(r)). */
    if (r == 0) {
        memcpy(b->h.win, b->h.win + b->off_b, bytes);
        t = canopy_cycles(b->h.dev);
        mask = hx_pow2_at_least(P);
    } else {
        hx_wait_ge(&b->h, b->off_scat, seq, "scatter wait");
        mask = hx_lowbit(r);
    }
    for (mask >>= 1; mask > 0; mask >>= 1) {
        const int child = r + mask;
        if (child >= P) continue;
        const int end = child + mask < P ? child + mask : P;
        const size_t lo = hx_clip((size_t)child * c, bytes), hi = hx_clip((size_t)end * c, bytes);
        const int dst = b->h.node_of[child];
        if (hi > lo) hx_must(&b->h, canopy_put(b->h.dev, dst, lo, b->h.win + lo, hi - lo, 0), "scatter put");
        hx_put_flag(&b->h, dst, b->off_scat, seq);
    }
    /* Ring allgather: in step s, pass chunk r - s to the right, receive chunk r - s - 1. */
    const int right = b->h.node_of[(r + 1) % P];
    const uint64_t base = seq * (uint64_t)P;
    for (int s = 0; s + 1 < P; ++s) {
        const int k = ((r - s) % P + P) % P;
        const size_t lo = hx_clip((size_t)k * c, bytes), hi = hx_clip((size_t)(k + 1) * c, bytes);
        if (hi > lo) hx_must(&b->h, canopy_put(b->h.dev, right, lo, b->h.win + lo, hi - lo, 0), "allgather put");
        hx_put_flag(&b->h, right, b->off_ag, base + (uint64_t)s + 1);
        hx_wait_ge(&b->h, b->off_ag, base + (uint64_t)s + 1, "allgather wait");
    }
    if (r != 0) t = canopy_cycles(b->h.dev);
    return t;
}

/* The chain's segment: --seg, or by default bytes/16 within [128, 1024] (measured on 3x3:
 * the best of 128..16384 within a few percent for 512 B .. 256 KiB; a segment costs a
 * flag put, so small segments lose on large messages). */
static size_t chain_seg(const struct bench *b, size_t bytes)
{
    if (b->seg) return b->seg;
    size_t s = (bytes / 16) & ~(size_t)7;
    return s < 128 ? 128 : s > 1024 ? 1024 : s;
}

static uint64_t run_chain(struct bench *b, size_t bytes, uint64_t seq)
{
    const int r = b->h.rank, P = b->h.n;
    const size_t seg = chain_seg(b, bytes), nseg = bytes ? (bytes + seg - 1) / seg : 1;
    const uint64_t base = seq << 24; /* nseg < 2^24 */
    const int next = r + 1 < P ? b->h.node_of[r + 1] : -1;
    uint64_t t = 0;
    if (r == 0) {
        memcpy(b->h.win, b->h.win + b->off_b, bytes);
        t = canopy_cycles(b->h.dev);
    }
    for (size_t k = 0; k < nseg; ++k) {
        const size_t lo = hx_clip(k * seg, bytes), hi = hx_clip((k + 1) * seg, bytes);
        if (r != 0) hx_wait_ge(&b->h, b->off_chain, base + k + 1, "chain wait");
        if (next >= 0) {
            if (hi > lo) hx_must(&b->h, canopy_put(b->h.dev, next, lo, b->h.win + lo, hi - lo, 0), "chain put");
            hx_put_flag(&b->h, next, b->off_chain, base + k + 1);
        }
    }
    if (r != 0) t = canopy_cycles(b->h.dev);
    return t;
}

static uint64_t run_hw(struct bench *b, size_t bytes)
{
#ifdef BCAST_BENCH_HW
    struct canopy_bcast_args a = {.tree = 0, .group = 0, .root = b->h.root, .offset = 0, .size = bytes,
                                  .src = b->h.win + b->off_b, .flags = 0};
    struct canopy_coll done;
    hx_must(&b->h, canopy_bcast(b->h.dev, &a, &done), "canopy_bcast");
    hx_must(&b->h, canopy_coll_wait(b->h.dev, &done, HX_TIMEOUT_NS), "canopy_coll_wait");
    return canopy_cycles(b->h.dev);
#else
    (void)b, (void)bytes;
    fprintf(stderr, "bcast_bench: built without the hw implementation (needs canopy_fm.h, see the header)\n");
    exit(2);
#endif
}

/* Zero-load latency per hop: one 8-byte broadcast from the root; every node reports the
 * cycle its copy completed; node 0 fits completion - start = base + slope * hops, start
 * being T, the cycle every node began at (hx_start), and hops the node's torus distance from the root
 * (its depth in the dimension-ordered tree). The host costs (injection, DMA, polling) are
 * the same at every node and fall into base. */
static void run_hop_latency(struct bench *b, int impl)
{
    uint64_t seq = 1u << 30, start, t = 0;
    struct hx_start_stats st;
    hx_start_stats_begin(&b->h, &st);
    for (;; ++seq) { /* once, or again if a node started late (hx_start_ok) */
        memset(b->h.win, 0, 64);
        if (b->h.me == b->h.root) pattern(b->h.win + b->off_b, 8, seq);
        start = hx_start(&b->h);
        switch (impl) {
        case SW_BINOMIAL: t = run_binomial(b, 8, seq); break;
        case SW_SCATTER_ALLGATHER: t = run_scatter_allgather(b, 8, seq); break;
        case SW_CHAIN: t = run_chain(b, 8, seq); break;
        default: t = run_hw(b, 8); break;
        }
        verify(b, 8, seq, impl_names[impl]);
        if (hx_start_ok(&b->h)) break;
    }
    hx_report_timed(&b->h, t, start, seq);
    if (b->h.me != 0) return;
    hx_collect(&b->h, seq);
    const uint64_t t0 = b->h.start_at; /* every node started at T (start_skew says how exactly) */
    hx_start_stats_add(&b->h, &st);
    for (int s = 0; s < b->h.n; ++s)
        if (hx_word(&b->h, b->h.off_report + HX_REPORT_BYTES * (unsigned)s)[0] < t0)
            hx_die(&b->h, "hop latency: node %d done before the root started", s);
    unsigned rc[HX_MAX_DIMS], nc[HX_MAX_DIMS], k[HX_MAX_DIMS];
    int nd = canopy_ndims(b->h.dev);
    canopy_coords(b->h.dev, b->h.n - 1, k);
    for (int d = 0; d < nd; ++d) k[d] += 1;
    canopy_coords(b->h.dev, b->h.root, rc);
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    int maxh = 0;
    for (int s = 0; s < b->h.n; ++s) {
        const uint64_t off = b->h.off_report + HX_REPORT_BYTES * (unsigned)s;
        canopy_coords(b->h.dev, s, nc);
        int h = 0;
        for (int d = 0; d < nd; ++d) {
            unsigned dist = nc[d] > rc[d] ? nc[d] - rc[d] : rc[d] - nc[d];
            h += (int)(dist < k[d] - dist ? dist : k[d] - dist);
        }
        if (h > maxh) maxh = h;
        const double x = h, y = (double)(hx_word(&b->h, off)[0] - t0);
        sx += x, sy += y, sxx += x * x, sxy += x * y;
    }
    const double n = b->h.n, slope = (n * sxy - sx * sy) / (n * sxx - sx * sx), base = (sy - slope * sx) / n;
    printf("{\"bench\": \"bcast-hop-latency\", \"impl\": \"%s\", \"torus\": \"%s\", \"nodes\": %d, "
           "\"root\": %d, \"bytes\": 8, \"cycles_per_hop\": %.2f, \"base_cycles\": %.1f, \"max_hops\": %d",
           impl_names[impl], b->h.torus, b->h.n, b->h.root, slope, base, maxh);
    hx_start_stats_print(&b->h, &st);
    printf("}\n");
    fflush(stdout);
}

static void usage(void)
{
    fprintf(stderr, "usage: bcast_bench --impl sw-binomial|sw-scatter-allgather|sw-chain|hw [--root N] "
                    "[--sizes 8,64,...] [--reps R] [--large-reps R] [--seg BYTES] [--start-slack CYCLES] "
                    "[--hop-latency 1]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    int impl = -1, reps = 3, large_reps = 1, hop_latency = 0, root = 0;
    size_t sizes[HX_MAX_SIZES], nsizes = 0, seg = 0; /* 0: chain_seg's default */
    const char *slack = NULL; /* --start-slack; NULL: the harness's default */
    struct bench b = {0};
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) usage();
        ++i;
        if (!strcmp(a, "--impl")) {
            for (int j = 0; j < 4; ++j)
                if (!strcmp(v, impl_names[j])) impl = j;
            if (impl < 0) usage();
        } else if (!strcmp(a, "--root")) {
            root = atoi(v);
        } else if (!strcmp(a, "--hop-latency")) {
            hop_latency = atoi(v);
        } else if (!strcmp(a, "--reps")) {
            reps = atoi(v);
        } else if (!strcmp(a, "--large-reps")) {
            large_reps = atoi(v);
        } else if (!strcmp(a, "--start-slack")) {
            slack = v;
        } else if (!strcmp(a, "--seg")) {
            seg = strtoull(v, NULL, 0);
        } else if (!strcmp(a, "--sizes")) {
            if (!(nsizes = hx_parse_sizes(v, sizes))) usage();
        } else {
            usage();
        }
    }
    if (impl < 0 || reps < 1 || large_reps < 1 || seg % 8) usage();
    if (!nsizes) {
        const size_t def[] = {8, 64, 512, 4096, 32768, 262144};
        for (size_t i = 0; i < sizeof def / sizeof def[0]; ++i) sizes[nsizes++] = def[i];
    }
    b.maxb = MAX_BYTES_DEFAULT;
    for (size_t i = 0; i < nsizes; ++i)
        if (sizes[i] > b.maxb) b.maxb = sizes[i];
    b.maxb = (b.maxb + GUARD + 4095) & ~(size_t)4095;
    b.seg = seg;

    hx_open(&b.h, "bcast_bench", root);
    if (slack) hx_set_start_slack(&b.h, slack);
    b.off_b = b.maxb;
    b.h.off_hello = 2 * b.maxb;
    b.h.off_bar = b.h.off_hello + 8u * (unsigned)b.h.n;
    b.off_binom = b.h.off_bar + HX_BAR_BYTES;
    b.off_scat = b.off_binom + 8;
    b.off_ag = b.off_scat + 8;
    b.off_chain = b.off_ag + 8;
    b.h.off_report = b.off_chain + 8;
    const size_t win_size = b.h.off_report + HX_REPORT_BYTES * (unsigned)b.h.n;
    hx_must(&b.h, canopy_window(b.h.dev, win_size, (void **)&b.h.win), "window");

    hx_ring_order(&b.h);
    hx_hello(&b.h);
    if (impl == HW) {
#ifdef BCAST_BENCH_HW
        char err[256] = "";
        int rc = canopy_fm_setup(b.h.dev, 0, b.h.root, NULL, CANOPY_FM_VIA_CSR, err, sizeof err);
        if (rc != CANOPY_OK) {
            hx_die(&b.h, "canopy_fm_setup: %s: %s", canopy_strerror(rc), err);
        }
#else
        run_hw(&b, 0); /* fails with a message */
#endif
    }
    hx_barrier(&b.h);

    const double ns_per_cycle = (double)canopy_time_ns(b.h.dev) / (double)canopy_cycles(b.h.dev);
    uint64_t seq = 0;
    if (hop_latency) {
        run_hop_latency(&b, impl);
        nsizes = 0;
    }
    for (size_t si = 0; si < nsizes; ++si) {
        const size_t bytes = sizes[si];
        const int nrep = bytes >= 65536 ? large_reps : reps;
        uint64_t cyc[64];
        struct hx_start_stats st;
        hx_start_stats_begin(&b.h, &st);
        for (int rep = 0; rep < nrep && rep < 64;) {
            ++seq;
            memset(b.h.win, 0, bytes + GUARD < b.maxb ? bytes + GUARD : b.maxb);
            if (b.h.me == b.h.root) pattern(b.h.win + b.off_b, bytes, seq);
            const uint64_t start = hx_start(&b.h);
            uint64_t t = 0;
            switch (impl) {
            case SW_BINOMIAL: t = run_binomial(&b, bytes, seq); break;
            case SW_SCATTER_ALLGATHER: t = run_scatter_allgather(&b, bytes, seq); break;
            case SW_CHAIN: t = run_chain(&b, bytes, seq); break;
            default: t = run_hw(&b, bytes); break;
            }
            verify(&b, bytes, seq, impl_names[impl]);
            if (!hx_start_ok(&b.h)) continue; /* a node started late: again, with twice the slack */
            /* report: {done cycle, start cycle, T - the cycle it left the start barrier, seq};
             * seq last, same packet */
            hx_report_timed(&b.h, t, start, seq);
            if (b.h.me == 0) {
                hx_collect(&b.h, seq);
                const uint64_t t0 = b.h.start_at;
                uint64_t last = 0;
                for (int s = 0; s < b.h.n; ++s) {
                    const volatile uint64_t *r = hx_word(&b.h, b.h.off_report + HX_REPORT_BYTES * (unsigned)s);
                    if (r[0] > last) last = r[0];
                }
                if (last < t0) hx_die(&b.h, "report: completion %" PRIu64 " before the start %" PRIu64, last, t0);
                hx_start_stats_add(&b.h, &st);
                cyc[rep] = last - t0;
            }
            ++rep;
        }
        if (b.h.me == 0) {
            const int m = nrep < 64 ? nrep : 64;
            qsort(cyc, (size_t)m, sizeof cyc[0], hx_cmp_u64);
            const uint64_t c = cyc[m / 2];
            printf("{\"bench\": \"bcast\", \"impl\": \"%s\", \"torus\": \"%s\", \"nodes\": %d, \"root\": %d, "
                   "\"bytes\": %zu, \"cycles\": %" PRIu64 ", \"link_bytes_per_cycle\": %.4f, \"ns\": %.1f, "
                   "\"reps\": %d, \"cycles_min\": %" PRIu64 ", \"cycles_max\": %" PRIu64,
                   impl_names[impl], b.h.torus, b.h.n, b.h.root, bytes, c, (double)bytes / (double)c,
                   c * ns_per_cycle, m, cyc[0], cyc[m - 1]);
            if (impl == SW_CHAIN) printf(", \"seg\": %zu", chain_seg(&b, bytes));
            hx_start_stats_print(&b.h, &st);
            printf("}\n");
            fflush(stdout);
        }
    }
    hx_must(&b.h, canopy_quiet(b.h.dev, HX_TIMEOUT_NS), "quiet");
    return canopy_close(&b.h.dev) == CANOPY_OK ? 0 : 1;
}
