/* bench_harness.c: the collective benchmarks' shared harness (see bench_harness.h). */
#include "bench_harness.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hx_die(const struct harness *h, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: PE %d: ", h->prog, h->me);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    exit(1);
}

void hx_must(const struct harness *h, int rc, const char *what)
{
    if (rc != CANOPY_OK) hx_die(h, "%s: %s", what, canopy_strerror(rc));
}

void hx_open(struct harness *h, const char *prog, int root)
{
    h->prog = prog;
    h->me = -1;
    hx_must(h, canopy_open(&h->dev, NULL), "open");
    h->me = canopy_my_node(h->dev);
    h->n = canopy_num_nodes(h->dev);
    h->root = root;
    h->start_slack = hx_start_slack_default(h->n);
    if (root < 0 || root >= h->n) {
        fprintf(stderr, "%s: --root must be 0..%d\n", prog, h->n - 1);
        exit(2);
    }
}

void hx_put_flag(struct harness *h, int node, uint64_t off, uint64_t value)
{
    hx_must(h, canopy_put(h->dev, node, off, &value, 8, 0), "flag put");
}

void hx_wait_ge(struct harness *h, uint64_t off, uint64_t value, const char *what)
{
    hx_must(h, canopy_wait_u64(h->dev, hx_word(h, off), CANOPY_CMP_GE, value, HX_TIMEOUT_NS), what);
}

/* In round k, tell node me + 2^k what this node knows (the maximum of the values it has
 * seen), wait for node me - 2^k's, take the larger. After round k a node has seen the
 * values of nodes me - 2^(k+1) + 1 .. me, so after ceil(log2 n) rounds every node's. */
static uint64_t dissemination(struct harness *h, uint64_t value)
{
    ++h->epoch;
    const uint64_t set = h->off_bar + 16u * HX_BAR_ROUNDS * (h->epoch & 1);
    uint64_t m = value;
    for (int k = 0, d = 1; d < h->n; ++k, d <<= 1) {
        const uint64_t off = set + 16u * (unsigned)k, flag[2] = {m, h->epoch}; /* epoch last */
        hx_must(h, canopy_put(h->dev, (h->me + d) % h->n, off, flag, sizeof flag, 0), "barrier put");
        hx_wait_ge(h, off + 8, h->epoch, "barrier wait");
        const uint64_t v = hx_word(h, off)[0];
        if (v > m) m = v;
    }
    return m;
}

/* Earlier puts are completed first (quiet), so nothing of the previous repetition is in
 * flight. */
uint64_t hx_barrier_max(struct harness *h, uint64_t value)
{
    hx_must(h, canopy_quiet(h->dev, HX_TIMEOUT_NS), "barrier quiet");
    return dissemination(h, value);
}

void hx_barrier(struct harness *h) { (void)hx_barrier_max(h, 0); }

uint64_t hx_start_slack_default(int n)
{
    int rounds = 1;
    while ((1 << rounds) < n) ++rounds;
    return HX_START_SLACK_PER_ROUND * (uint64_t)rounds;
}

void hx_set_start_slack(struct harness *h, const char *v)
{
    char *end;
    const unsigned long long s = strtoull(v, &end, 0);
    if (end == v || *end || s < 1 || s > HX_START_SLACK_MAX) {
        fprintf(stderr, "%s: --start-slack must be 1..%u cycles\n", h->prog, HX_START_SLACK_MAX);
        exit(2);
    }
    h->start_slack = s;
}

/* Sleep until cycle t: wait, with the time left as the timeout, for a word nobody writes
 * (so only the timeout ends the wait). The timeout in ns is the cycles left times the
 * device's ns per cycle, rounded down (canopy_time_ns is itself rounded down), so the wait
 * never ends after t; the loop takes what is left, if anything. */
static void sleep_until(struct harness *h, uint64_t t)
{
    for (;;) {
        const uint64_t now = canopy_cycles(h->dev), ns = canopy_time_ns(h->dev);
        if (now >= t) return;
        if (now == 0) hx_die(h, "the synchronized start needs the device's cycle counter (canopy_cycles)");
        const uint64_t timeout = (t - now) * ns / now; /* t - now <= start_slack */
        const int rc = canopy_wait_u64(h->dev, hx_word(h, h->off_bar + HX_BAR_SLEEP_OFF), CANOPY_CMP_NE, 0, timeout);
        if (rc == CANOPY_OK) hx_die(h, "start: the word slept on was written");
        if (rc != CANOPY_ETIMEDOUT) hx_must(h, rc, "start sleep");
    }
}

uint64_t hx_start(struct harness *h)
{
    hx_must(h, canopy_quiet(h->dev, HX_TIMEOUT_NS), "start quiet");
    const uint64_t entered = canopy_cycles(h->dev);
    h->start_at = dissemination(h, entered) + h->start_slack;
    h->start_left = canopy_cycles(h->dev);
    sleep_until(h, h->start_at);
    return canopy_cycles(h->dev);
}

int hx_start_ok(struct harness *h)
{
    const uint64_t late = hx_barrier_max(h, h->start_left > h->start_at ? h->start_left - h->start_at : 0);
    if (!late) return 1;
    if (2 * h->start_slack > HX_START_SLACK_MAX)
        hx_die(h, "a node left the start barrier %" PRIu64 " cycles after the agreed start with a start slack of %"
               PRIu64 " cycles, and the slack cannot be doubled past %u: give a --start-slack that covers the barrier",
               late, h->start_slack, HX_START_SLACK_MAX);
    if (h->me == 0)
        fprintf(stderr, "%s: a node left the start barrier %" PRIu64 " cycles after the agreed start (start slack %"
                PRIu64 " cycles): repetition run again with a start slack of %" PRIu64 " (--start-slack)\n",
                h->prog, late, h->start_slack, 2 * h->start_slack);
    h->start_slack *= 2;
    ++h->start_reruns;
    return 0;
}

/* Every PE says hello to node 0 until its window takes the put; node 0 waits for all and
 * answers go (word 0 of the others' hello areas), after which every window exists. */
void hx_hello(struct harness *h)
{
    if (h->me == 0) {
        for (int s = 1; s < h->n; ++s) hx_wait_ge(h, h->off_hello + 8u * (unsigned)s, 1, "hello wait");
        for (int d = 1; d < h->n; ++d) hx_put_flag(h, d, h->off_hello, 1);
        hx_must(h, canopy_quiet(h->dev, HX_TIMEOUT_NS), "go quiet");
    } else {
        int rc;
        do {
            hx_put_flag(h, 0, h->off_hello + 8u * (unsigned)h->me, 1);
            rc = canopy_quiet(h->dev, HX_TIMEOUT_NS);
        } while (rc == CANOPY_EREFUSED);
        hx_must(h, rc, "hello quiet");
        hx_wait_ge(h, h->off_hello, 1, "go wait");
    }
}

/* Snake order: X fastest, each dimension's sweep reversed on every other step of the
 * dimension above. */
void hx_ring_order(struct harness *h)
{
    const int P = h->n, ndims = canopy_ndims(h->dev);
    unsigned k[HX_MAX_DIMS];
    unsigned (*co)[HX_MAX_DIMS] = calloc((size_t)P, sizeof *co);
    int *lin2node = malloc((size_t)P * sizeof(int)), *seq = malloc((size_t)P * sizeof(int)),
        *tmp = malloc((size_t)P * sizeof(int));
    h->node_of = malloc((size_t)P * sizeof(int));
    if (!co || !lin2node || !seq || !tmp || !h->node_of) hx_die(h, "ring: out of memory");
    for (int d = 0; d < HX_MAX_DIMS; ++d) k[d] = 1;
    for (int i = 0; i < P; ++i) {
        hx_must(h, canopy_coords(h->dev, i, co[i]), "coords");
        for (int d = 0; d < ndims; ++d)
            if (co[i][d] + 1 > k[d]) k[d] = co[i][d] + 1;
    }
    for (int i = 0; i < P; ++i) {
        unsigned lin = 0;
        for (int d = ndims - 1; d >= 0; --d) lin = lin * k[d] + co[i][d];
        if (lin >= (unsigned)P) hx_die(h, "ring: node %d has coordinates outside the torus", i);
        lin2node[lin] = i;
    }
    int len = (int)k[0], stride = (int)k[0];
    for (int i = 0; i < len; ++i) seq[i] = i;
    for (int d = 1; d < ndims; ++d) {
        for (int v = 0; v < (int)k[d]; ++v)
            for (int j = 0; j < len; ++j) tmp[v * len + j] = seq[v % 2 ? len - 1 - j : j] + v * stride;
        len *= (int)k[d];
        stride *= (int)k[d];
        memcpy(seq, tmp, (size_t)len * sizeof(int));
    }
    if (len != P) hx_die(h, "ring: %d positions for %d nodes", len, P);
    int rootpos = 0;
    for (int i = 0; i < P; ++i)
        if (lin2node[seq[i]] == h->root) rootpos = i;
    for (int r = 0; r < P; ++r) {
        h->node_of[r] = lin2node[seq[(rootpos + r) % P]];
        if (h->node_of[r] == h->me) h->rank = r;
    }
    h->torus[0] = '\0';
    for (int d = 0; d < ndims; ++d)
        snprintf(h->torus + strlen(h->torus), sizeof h->torus - strlen(h->torus), "%s%u", d ? "x" : "", k[d]);
    free(co), free(lin2node), free(seq), free(tmp);
}

void hx_report(struct harness *h, uint64_t w0, uint64_t w1, uint64_t w2, uint64_t seq)
{
    const uint64_t rec[4] = {w0, w1, w2, seq};
    if (h->me == 0)
        memcpy(h->win + h->off_report, rec, sizeof rec);
    else
        hx_must(h, canopy_put(h->dev, 0, h->off_report + HX_REPORT_BYTES * (unsigned)h->me, rec, sizeof rec, 0),
                "report");
}

void hx_report_timed(struct harness *h, uint64_t done, uint64_t start, uint64_t seq)
{
    hx_report(h, done, start, h->start_at - h->start_left, seq); /* hx_start_ok: not late */
}

void hx_start_stats_begin(const struct harness *h, struct hx_start_stats *st)
{
    st->margin = UINT64_MAX;
    st->skew = 0;
    st->reruns0 = h->start_reruns;
}

void hx_start_stats_add(const struct harness *h, struct hx_start_stats *st)
{
    for (int s = 0; s < h->n; ++s) {
        const volatile uint64_t *r = hx_word(h, h->off_report + HX_REPORT_BYTES * (unsigned)s);
        const uint64_t skew = r[1] > h->start_at ? r[1] - h->start_at : h->start_at - r[1];
        if (skew > st->skew) st->skew = skew;
        if (r[2] < st->margin) st->margin = r[2];
    }
}

void hx_start_stats_print(const struct harness *h, const struct hx_start_stats *st)
{
    printf(", \"start_slack\": %" PRIu64 ", \"start_reruns\": %u, \"start_margin\": %" PRIu64
           ", \"start_skew\": %" PRIu64, h->start_slack, h->start_reruns - st->reruns0, st->margin, st->skew);
}

void hx_collect(struct harness *h, uint64_t seq)
{
    for (int s = 0; s < h->n; ++s)
        hx_must(h,
                canopy_wait_u64(h->dev, hx_word(h, h->off_report + HX_REPORT_BYTES * (unsigned)s + 24),
                                CANOPY_CMP_EQ, seq, HX_TIMEOUT_NS),
                "report wait");
}

size_t hx_parse_sizes(const char *v, size_t sizes[HX_MAX_SIZES])
{
    size_t n = 0;
    for (const char *s = v; *s; ++s) {
        char *end;
        if (n == HX_MAX_SIZES) return 0;
        sizes[n++] = strtoull(s, &end, 0);
        if (end == s || (*end && *end != ',')) return 0;
        s = *end ? end : end - 1;
    }
    return n;
}

int hx_cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, c = *(const uint64_t *)y;
    return a < c ? -1 : a > c;
}

uint64_t hx_mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}
