/* bcast_bench.c: broadcast time on the simulated torus, software over puts vs the hardware.
 *
 *   sim/canopy-run -n N --torus T build/driver/examples/bcast_bench --impl IMPL
 *       [--root R] [--sizes 8,64,...] [--reps 3] [--large-reps 1] [--seg BYTES]
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
 * pattern (a function of the size and the sequence number); a dissemination barrier of
 * flags; the root reads canopy_cycles() (the start) and the broadcast runs; every node
 * reads canopy_cycles() once all the bytes are in its window, checks every byte (and that
 * the 64 bytes after the message are untouched) and exits 1 on a mismatch. After a second
 * barrier each node reports its completion cycle to node 0, which takes the latest minus
 * the start. Node 0 prints one JSON record per size (the median over the repetitions).
 * --reps applies below 64 KiB, --large-reps from 64 KiB up: the co-simulation is
 * deterministic, so one repetition of a large size is enough.
 *
 * The hw implementation needs fw/include/canopy_fm.h and canopy_bcast in libcanopy; it is
 * compiled in only when canopy_fm.h is on the include path (-Ifw/include, and link the
 * fabric manager) and BCAST_BENCH_NO_HW is not defined. Without it, --impl hw fails.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canopy.h"

#if !defined(BCAST_BENCH_NO_HW) && defined(__has_include)
#if __has_include("canopy_fm.h")
#include "canopy_fm.h"
#define BCAST_BENCH_HW 1
#endif
#endif

#define TIMEOUT_NS (20ull * 1000 * 1000 * 1000)
#define MAX_BYTES_DEFAULT (256u * 1024u)
#define MAX_DIMS 4
#define BAR_ROUNDS 32
#define GUARD 64 /* bytes after the message that must stay zero */

enum impl { SW_BINOMIAL, SW_SCATTER_ALLGATHER, SW_CHAIN, HW };
static const char *impl_names[] = {"sw-binomial", "sw-scatter-allgather", "sw-chain", "hw"};

static int me = -1;

static void must(int rc, const char *what)
{
    if (rc != CANOPY_OK) {
        fprintf(stderr, "bcast_bench: PE %d: %s: %s\n", me, what, canopy_strerror(rc));
        exit(1);
    }
}

static void fail(const char *fmt, const char *what, long long a, long long b)
{
    fprintf(stderr, "bcast_bench: PE %d: ", me);
    fprintf(stderr, fmt, what, a, b);
    fprintf(stderr, "\n");
    exit(1);
}

/* The whole state of one PE. Window layout:
 *   [0, maxb)            A: where the broadcast lands (the root's own copy too)
 *   [maxb, 2 maxb)       B: the root's source buffer
 *   flags (8-byte words): hello[n] (node 0: one per PE; others: word 0 = go),
 *                         bar[BAR_ROUNDS], binom, scat, ag, chain, report[n][4] (node 0) */
struct bench {
    canopy_dev *dev;
    int n, root, rank;
    int *node_of;     /* rank -> node (snake order rotated to the root) */
    uint8_t *win;
    size_t maxb, seg;
    uint64_t off_b, off_hello, off_bar, off_binom, off_scat, off_ag, off_chain, off_report;
    uint64_t epoch;   /* barrier count */
};

static volatile uint64_t *word(struct bench *b, uint64_t off) { return (volatile uint64_t *)(b->win + off); }

static void put_flag(struct bench *b, int node, uint64_t off, uint64_t value)
{
    must(canopy_put(b->dev, node, off, &value, 8, 0), "flag put");
}

static void wait_ge(struct bench *b, uint64_t off, uint64_t value, const char *what)
{
    must(canopy_wait_u64(b->dev, word(b, off), CANOPY_CMP_GE, value, TIMEOUT_NS), what);
}

/* Dissemination barrier: in round k, tell node me + 2^k, wait for node me - 2^k. Earlier
 * puts are completed first (quiet), so nothing of the previous repetition is in flight. */
static void barrier(struct bench *b)
{
    must(canopy_quiet(b->dev, TIMEOUT_NS), "barrier quiet");
    ++b->epoch;
    for (int k = 0, d = 1; d < b->n; ++k, d <<= 1) {
        put_flag(b, (me + d) % b->n, b->off_bar + 8u * (unsigned)k, b->epoch);
        wait_ge(b, b->off_bar + 8u * (unsigned)k, b->epoch, "barrier wait");
    }
}

/* Every PE: say hello to node 0 until its window takes the put; node 0 waits for all and
 * answers go, after which every window exists. */
static void hello(struct bench *b)
{
    if (me == 0) {
        for (int s = 1; s < b->n; ++s) wait_ge(b, b->off_hello + 8u * (unsigned)s, 1, "hello wait");
        for (int d = 1; d < b->n; ++d) put_flag(b, d, b->off_hello, 1);
        must(canopy_quiet(b->dev, TIMEOUT_NS), "go quiet");
    } else {
        int rc;
        do {
            put_flag(b, 0, b->off_hello + 8u * (unsigned)me, 1);
            rc = canopy_quiet(b->dev, TIMEOUT_NS);
        } while (rc == CANOPY_EREFUSED);
        must(rc, "hello quiet");
        wait_ge(b, b->off_hello, 1, "go wait");
    }
}

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static void pattern(uint8_t *dst, size_t bytes, uint64_t seq)
{
    for (size_t i = 0; i < bytes; i += 8) {
        uint64_t w = mix((seq << 32) ^ (bytes << 1) ^ mix(i));
        memcpy(dst + i, &w, bytes - i < 8 ? bytes - i : 8);
    }
}

static void verify(struct bench *b, size_t bytes, uint64_t seq, const char *impl)
{
    uint8_t *want = malloc(bytes ? bytes : 1);
    pattern(want, bytes, seq);
    for (size_t i = 0; i < bytes; ++i)
        if (b->win[i] != want[i]) {
            size_t bad = 0;
            for (size_t j = i; j < bytes; ++j) bad += b->win[j] != want[j];
            fprintf(stderr, "bcast_bench: PE %d: %s, %zu bytes: first wrong byte at %zu (got 0x%02x, want 0x%02x), "
                    "%zu wrong bytes in all\n", me, impl, bytes, i, b->win[i], want[i], bad);
            exit(1);
        }
    free(want);
    for (size_t i = bytes; i < bytes + GUARD && i < b->maxb; ++i)
        if (b->win[i] != 0) fail("%s: byte %lld after the message was written (0x%02llx)", impl, (long long)i, b->win[i]);
}

static int lowbit(int r) { return r & -r; }

static int pow2_at_least(int n)
{
    int p = 1;
    while (p < n) p <<= 1;
    return p;
}

/* Each returns the cycle at which this node had all the bytes. */

static uint64_t run_binomial(struct bench *b, size_t bytes, uint64_t seq)
{
    const int r = b->rank, P = b->n;
    uint64_t t;
    int mask;
    if (r == 0) {
        memcpy(b->win, b->win + b->off_b, bytes);
        t = canopy_cycles(b->dev);
        mask = pow2_at_least(P);
    } else {
        wait_ge(b, b->off_binom, seq, "binomial wait");
        t = canopy_cycles(b->dev);
        mask = lowbit(r);
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (r + mask < P) {
            const int dst = b->node_of[r + mask];
            must(canopy_put(b->dev, dst, 0, b->win, bytes, 0), "binomial put");
            put_flag(b, dst, b->off_binom, seq);
        }
    return t;
}

static size_t clip(size_t x, size_t bytes) { return x < bytes ? x : bytes; }

static uint64_t run_scatter_allgather(struct bench *b, size_t bytes, uint64_t seq)
{
    const int r = b->rank, P = b->n;
    size_t c = (bytes + (size_t)P - 1) / (size_t)P;
    c = (c + 7) & ~(size_t)7; /* chunk k: [k c, (k+1) c) clipped to the message */
    uint64_t t = 0;
    int mask;
    /* Scatter: a node receives the chunks of its whole subtree [r, r + lowbit(r)). */
    if (r == 0) {
        memcpy(b->win, b->win + b->off_b, bytes);
        t = canopy_cycles(b->dev);
        mask = pow2_at_least(P);
    } else {
        wait_ge(b, b->off_scat, seq, "scatter wait");
        mask = lowbit(r);
    }
    for (mask >>= 1; mask > 0; mask >>= 1) {
        const int child = r + mask;
        if (child >= P) continue;
        const int end = child + mask < P ? child + mask : P;
        const size_t lo = clip((size_t)child * c, bytes), hi = clip((size_t)end * c, bytes);
        const int dst = b->node_of[child];
        if (hi > lo) must(canopy_put(b->dev, dst, lo, b->win + lo, hi - lo, 0), "scatter put");
        put_flag(b, dst, b->off_scat, seq);
    }
    /* Ring allgather: in step s, pass chunk r - s to the right, receive chunk r - s - 1. */
    const int right = b->node_of[(r + 1) % P];
    const uint64_t base = seq * (uint64_t)P;
    for (int s = 0; s + 1 < P; ++s) {
        const int k = ((r - s) % P + P) % P;
        const size_t lo = clip((size_t)k * c, bytes), hi = clip((size_t)(k + 1) * c, bytes);
        if (hi > lo) must(canopy_put(b->dev, right, lo, b->win + lo, hi - lo, 0), "allgather put");
        put_flag(b, right, b->off_ag, base + (uint64_t)s + 1);
        wait_ge(b, b->off_ag, base + (uint64_t)s + 1, "allgather wait");
    }
    if (r != 0) t = canopy_cycles(b->dev);
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
    const int r = b->rank, P = b->n;
    const size_t seg = chain_seg(b, bytes), nseg = bytes ? (bytes + seg - 1) / seg : 1;
    const uint64_t base = seq << 24; /* nseg < 2^24 */
    const int next = r + 1 < P ? b->node_of[r + 1] : -1;
    uint64_t t = 0;
    if (r == 0) {
        memcpy(b->win, b->win + b->off_b, bytes);
        t = canopy_cycles(b->dev);
    }
    for (size_t k = 0; k < nseg; ++k) {
        const size_t lo = clip(k * seg, bytes), hi = clip((k + 1) * seg, bytes);
        if (r != 0) wait_ge(b, b->off_chain, base + k + 1, "chain wait");
        if (next >= 0) {
            if (hi > lo) must(canopy_put(b->dev, next, lo, b->win + lo, hi - lo, 0), "chain put");
            put_flag(b, next, b->off_chain, base + k + 1);
        }
    }
    if (r != 0) t = canopy_cycles(b->dev);
    return t;
}

static uint64_t run_hw(struct bench *b, size_t bytes)
{
#ifdef BCAST_BENCH_HW
    struct canopy_bcast_args a = {.tree = 0, .group = 0, .root = b->root, .offset = 0, .size = bytes,
                                  .src = b->win + b->off_b, .flags = 0};
    struct canopy_coll done;
    must(canopy_bcast(b->dev, &a, &done), "canopy_bcast");
    must(canopy_coll_wait(b->dev, &done, TIMEOUT_NS), "canopy_coll_wait");
    return canopy_cycles(b->dev);
#else
    (void)b, (void)bytes;
    fprintf(stderr, "bcast_bench: built without the hw implementation (needs canopy_fm.h, see the header)\n");
    exit(2);
#endif
}

/* Snake order of the torus: X fastest, each dimension's sweep reversed on every other
 * step of the dimension above. Returns the torus dims in k[]. */
static void ring_order(struct bench *b, unsigned k[MAX_DIMS], int *ndims)
{
    const int P = b->n;
    *ndims = canopy_ndims(b->dev);
    unsigned (*co)[MAX_DIMS] = calloc((size_t)P, sizeof *co);
    for (int d = 0; d < MAX_DIMS; ++d) k[d] = 1;
    for (int i = 0; i < P; ++i) {
        must(canopy_coords(b->dev, i, co[i]), "coords");
        for (int d = 0; d < *ndims; ++d)
            if (co[i][d] + 1 > k[d]) k[d] = co[i][d] + 1;
    }
    int *lin2node = malloc((size_t)P * sizeof(int)), *seq = malloc((size_t)P * sizeof(int)),
        *tmp = malloc((size_t)P * sizeof(int));
    for (int i = 0; i < P; ++i) {
        unsigned lin = 0;
        for (int d = *ndims - 1; d >= 0; --d) lin = lin * k[d] + co[i][d];
        if (lin >= (unsigned)P) fail("%s: node %lld has coordinates outside the torus (%lld)", "ring", i, lin);
        lin2node[lin] = i;
    }
    int len = (int)k[0], stride = (int)k[0];
    for (int i = 0; i < len; ++i) seq[i] = i;
    for (int d = 1; d < *ndims; ++d) {
        for (int v = 0; v < (int)k[d]; ++v)
            for (int j = 0; j < len; ++j) tmp[v * len + j] = seq[v % 2 ? len - 1 - j : j] + v * stride;
        len *= (int)k[d];
        stride *= (int)k[d];
        memcpy(seq, tmp, (size_t)len * sizeof(int));
    }
    if (len != P) fail("%s: %lld positions for %lld nodes", "ring", len, P);
    int rootpos = 0;
    for (int i = 0; i < P; ++i)
        if (lin2node[seq[i]] == b->root) rootpos = i;
    b->node_of = malloc((size_t)P * sizeof(int));
    for (int r = 0; r < P; ++r) {
        b->node_of[r] = lin2node[seq[(rootpos + r) % P]];
        if (b->node_of[r] == me) b->rank = r;
    }
    free(co), free(lin2node), free(seq), free(tmp);
}

/* Zero-load latency per hop: one 8-byte broadcast from the root; every node reports the
 * cycle its copy completed; node 0 fits completion = base + slope * hops, hops being the
 * node's torus distance from the root (its depth in the dimension-ordered tree). The host
 * costs (injection, DMA, polling) are the same at every node and fall into base. */
static void run_hop_latency(struct bench *b, int impl, const char *torus)
{
    const uint64_t seq = 1u << 30;
    memset(b->win, 0, 64);
    if (me == b->root) pattern(b->win + b->off_b, 8, seq);
    barrier(b);
    uint64_t t = 0;
    switch (impl) {
    case SW_BINOMIAL: t = run_binomial(b, 8, seq); break;
    case SW_SCATTER_ALLGATHER: t = run_scatter_allgather(b, 8, seq); break;
    case SW_CHAIN: t = run_chain(b, 8, seq); break;
    default: t = run_hw(b, 8); break;
    }
    verify(b, 8, seq, impl_names[impl]);
    barrier(b);
    uint64_t rep_words[4] = {t, 0, 0, seq};
    if (me == 0)
        memcpy(b->win + b->off_report, rep_words, sizeof rep_words);
    else
        must(canopy_put(b->dev, 0, b->off_report + 32u * (unsigned)me, rep_words, sizeof rep_words, 0), "report");
    if (me != 0) return;
    unsigned rc[MAX_DIMS], nc[MAX_DIMS], k[MAX_DIMS];
    int nd = canopy_ndims(b->dev);
    canopy_coords(b->dev, b->n - 1, k);
    for (int d = 0; d < nd; ++d) k[d] += 1;
    canopy_coords(b->dev, b->root, rc);
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    int maxh = 0;
    for (int s = 0; s < b->n; ++s) {
        const uint64_t off = b->off_report + 32u * (unsigned)s;
        must(canopy_wait_u64(b->dev, word(b, off + 24), CANOPY_CMP_EQ, seq, TIMEOUT_NS), "report wait");
        canopy_coords(b->dev, s, nc);
        int h = 0;
        for (int d = 0; d < nd; ++d) {
            unsigned dist = nc[d] > rc[d] ? nc[d] - rc[d] : rc[d] - nc[d];
            h += (int)(dist < k[d] - dist ? dist : k[d] - dist);
        }
        if (h > maxh) maxh = h;
        const double x = h, y = (double)word(b, off)[0];
        sx += x, sy += y, sxx += x * x, sxy += x * y;
    }
    const double n = b->n, slope = (n * sxy - sx * sy) / (n * sxx - sx * sx), base = (sy - slope * sx) / n;
    printf("{\"bench\": \"bcast-hop-latency\", \"impl\": \"%s\", \"torus\": \"%s\", \"nodes\": %d, "
           "\"root\": %d, \"bytes\": 8, \"cycles_per_hop\": %.2f, \"base_cycles\": %.1f, \"max_hops\": %d}\n",
           impl_names[impl], torus, b->n, b->root, slope, base, maxh);
    fflush(stdout);
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, c = *(const uint64_t *)y;
    return a < c ? -1 : a > c;
}

static void usage(void)
{
    fprintf(stderr, "usage: bcast_bench --impl sw-binomial|sw-scatter-allgather|sw-chain|hw [--root N] "
                    "[--sizes 8,64,...] [--reps R] [--large-reps R] [--seg BYTES]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    int impl = -1, reps = 3, large_reps = 1, hop_latency = 0;
    size_t sizes[64], nsizes = 0, seg = 0; /* 0: chain_seg's default */
    struct bench b = {.root = 0};
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) usage();
        ++i;
        if (!strcmp(a, "--impl")) {
            for (int j = 0; j < 4; ++j)
                if (!strcmp(v, impl_names[j])) impl = j;
            if (impl < 0) usage();
        } else if (!strcmp(a, "--root")) {
            b.root = atoi(v);
        } else if (!strcmp(a, "--hop-latency")) {
            hop_latency = atoi(v);
        } else if (!strcmp(a, "--reps")) {
            reps = atoi(v);
        } else if (!strcmp(a, "--large-reps")) {
            large_reps = atoi(v);
        } else if (!strcmp(a, "--seg")) {
            seg = strtoull(v, NULL, 0);
        } else if (!strcmp(a, "--sizes")) {
            for (char *s = (char *)v, *end; *s && nsizes < 64; s = *end ? end + 1 : end) {
                sizes[nsizes++] = strtoull(s, &end, 0);
                if (end == s) usage();
            }
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

    must(canopy_open(&b.dev, NULL), "open");
    me = canopy_my_node(b.dev);
    b.n = canopy_num_nodes(b.dev);
    if (b.root < 0 || b.root >= b.n) {
        fprintf(stderr, "bcast_bench: --root must be 0..%d\n", b.n - 1);
        return 2;
    }
    b.off_b = b.maxb;
    b.off_hello = 2 * b.maxb;
    b.off_bar = b.off_hello + 8u * (unsigned)b.n;
    b.off_binom = b.off_bar + 8u * BAR_ROUNDS;
    b.off_scat = b.off_binom + 8;
    b.off_ag = b.off_scat + 8;
    b.off_chain = b.off_ag + 8;
    b.off_report = b.off_chain + 8;
    const size_t win_size = b.off_report + 32u * (unsigned)b.n;
    must(canopy_window(b.dev, win_size, (void **)&b.win), "window");

    unsigned k[MAX_DIMS];
    int ndims;
    ring_order(&b, k, &ndims);
    char torus[64] = "";
    for (int d = 0; d < ndims; ++d)
        snprintf(torus + strlen(torus), sizeof torus - strlen(torus), "%s%u", d ? "x" : "", k[d]);

    hello(&b);
    if (impl == HW) {
#ifdef BCAST_BENCH_HW
        char err[256] = "";
        int rc = canopy_fm_setup(b.dev, 0, b.root, NULL, CANOPY_FM_VIA_CSR, err, sizeof err);
        if (rc != CANOPY_OK) {
            fprintf(stderr, "bcast_bench: PE %d: canopy_fm_setup: %s: %s\n", me, canopy_strerror(rc), err);
            return 1;
        }
#else
        run_hw(&b, 0); /* fails with a message */
#endif
    }
    barrier(&b);

    const double ns_per_cycle = (double)canopy_time_ns(b.dev) / (double)canopy_cycles(b.dev);
    uint64_t seq = 0;
    if (hop_latency) {
        run_hop_latency(&b, impl, torus);
        nsizes = 0;
    }
    for (size_t si = 0; si < nsizes; ++si) {
        const size_t bytes = sizes[si];
        const int nrep = bytes >= 65536 ? large_reps : reps;
        uint64_t cyc[64];
        for (int rep = 0; rep < nrep && rep < 64; ++rep) {
            ++seq;
            memset(b.win, 0, bytes + GUARD < b.maxb ? bytes + GUARD : b.maxb);
            if (me == b.root) pattern(b.win + b.off_b, bytes, seq);
            barrier(&b);
            uint64_t start = canopy_cycles(b.dev), t = 0;
            switch (impl) {
            case SW_BINOMIAL: t = run_binomial(&b, bytes, seq); break;
            case SW_SCATTER_ALLGATHER: t = run_scatter_allgather(&b, bytes, seq); break;
            case SW_CHAIN: t = run_chain(&b, bytes, seq); break;
            default: t = run_hw(&b, bytes); break;
            }
            verify(&b, bytes, seq, impl_names[impl]);
            barrier(&b);
            /* report: {done cycle, start cycle (root only), 0, seq}; seq last, same packet */
            uint64_t rep_words[4] = {t, me == b.root ? start : 0, 0, seq};
            if (me == 0)
                memcpy(b.win + b.off_report, rep_words, sizeof rep_words);
            else
                must(canopy_put(b.dev, 0, b.off_report + 32u * (unsigned)me, rep_words, sizeof rep_words, 0),
                     "report");
            if (me == 0) {
                uint64_t last = 0, t0 = 0;
                for (int s = 0; s < b.n; ++s) {
                    const uint64_t off = b.off_report + 32u * (unsigned)s;
                    must(canopy_wait_u64(b.dev, word(&b, off + 24), CANOPY_CMP_EQ, seq, TIMEOUT_NS), "report wait");
                    if (word(&b, off)[0] > last) last = word(&b, off)[0];
                    if (s == b.root) t0 = word(&b, off)[1];
                }
                if (last < t0) fail("%s: completion %lld before the start %lld", "report", (long long)last, (long long)t0);
                cyc[rep] = last - t0;
            }
        }
        if (me == 0) {
            const int m = nrep < 64 ? nrep : 64;
            qsort(cyc, (size_t)m, sizeof cyc[0], cmp_u64);
            const uint64_t c = cyc[m / 2];
            printf("{\"bench\": \"bcast\", \"impl\": \"%s\", \"torus\": \"%s\", \"nodes\": %d, \"root\": %d, "
                   "\"bytes\": %zu, \"cycles\": %" PRIu64 ", \"link_bytes_per_cycle\": %.4f, \"ns\": %.1f, "
                   "\"reps\": %d, \"cycles_min\": %" PRIu64 ", \"cycles_max\": %" PRIu64,
                   impl_names[impl], torus, b.n, b.root, bytes, c, (double)bytes / (double)c, c * ns_per_cycle, m,
                   cyc[0], cyc[m - 1]);
            if (impl == SW_CHAIN) printf(", \"seg\": %zu", chain_seg(&b, bytes));
            printf("}\n");
            fflush(stdout);
        }
    }
    must(canopy_quiet(b.dev, TIMEOUT_NS), "quiet");
    return canopy_close(&b.dev) == CANOPY_OK ? 0 : 1;
}
