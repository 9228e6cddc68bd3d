/* amo_bench.c: remote atomics, in simulated cycles: latency and contended throughput of
 * the host interface's AMO unit (canopy_amo), against a software AMO served by the
 * target's processor (polling its memory).
 *
 *   sim/canopy-run -n N --torus T build/driver/examples/amo_bench [--ops K] [--reps R]
 *
 * Records (JSON, one per line, printed by node 0; cycle counts are exact and repeatable):
 *  - "fetch-add" latency, hw: node 0 alone does a blocking 8-byte fetch-add
 *    (canopy_amo_fetch: the request's MMIO write, the target's DMA read and write of its
 *    memory, the response DMA-written at node 0 and its completion count) on an object of
 *    node 0 itself, of a neighbour, and of the farthest node; best of R.
 *  - the same, sw: the target's processor serves requests: node 0 puts a request into the
 *    target's mailbox; the target, waiting for any write into its memory, adds and puts
 *    the old value back (with the request's sequence number, after the value); node 0
 *    waits for it. (No software AMO for node 0 itself: that is a local add.)
 *  - "contended fetch-add": every node does K blocking fetch-adds on one counter at the
 *    centre node, all at once (hw; sw: every node but the centre, which serves): total
 *    operations over the cycles until the last node is done. The counter must end at
 *    exactly the number of operations (hw: every fetched value distinct too).
 *  - "contended add": the same with non-blocking adds (no old value; the driver keeps
 *    CAPS_GET.slots of them in flight per node) and one quiet.
 *  - "spread fetch-add": every node K fetch-adds at its +1 neighbour in X (no two nodes on
 *    one target): the aggregate rate when atomics do not meet.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_harness.h"
#include "canopy_packet.h"

static struct harness H;
static int ops = 64, reps = 5;
static uint64_t off_cnt, off_reply, off_req, off_sreply, off_seen, off_time;
static double ns_per_cycle;

static unsigned sizes[4] = {1, 1, 1, 1};

static void find_sizes(void)
{
    for (int x = 0; x < H.n; ++x) {
        unsigned c[4];
        hx_must(&H, canopy_coords(H.dev, x, c), "coords");
        for (int d = 0; d < 4; ++d) sizes[d] = c[d] + 1 > sizes[d] ? c[d] + 1 : sizes[d];
    }
}

static int hops(int a, int b)
{
    unsigned ca[4], cb[4];
    hx_must(&H, canopy_coords(H.dev, a, ca), "coords");
    hx_must(&H, canopy_coords(H.dev, b, cb), "coords");
    int h = 0;
    for (int d = 0; d < 4; ++d) {
        const int k = (int)sizes[d], dx = ca[d] > cb[d] ? (int)(ca[d] - cb[d]) : (int)(cb[d] - ca[d]);
        h += dx < k - dx ? dx : k - dx;
    }
    return h;
}

/* The node every other is closest to at worst (lowest number on ties). */
static int centre(void)
{
    int best = 0, bestd = 1 << 30;
    for (int c = 0; c < H.n; ++c) {
        int worst = 0;
        for (int x = 0; x < H.n; ++x) worst = hops(c, x) > worst ? hops(c, x) : worst;
        if (worst < bestd) bestd = worst, best = c;
    }
    return best;
}

/* The next node in X (wrapping), other coordinates the same. */
static int x_neighbour(int node)
{
    unsigned c[4];
    hx_must(&H, canopy_coords(H.dev, node, c), "coords");
    c[0] = (c[0] + 1) % sizes[0];
    for (int x = 0; x < H.n; ++x) {
        unsigned d[4];
        hx_must(&H, canopy_coords(H.dev, x, d), "coords");
        if (!memcmp(c, d, sizeof c)) return x;
    }
    return node;
}

static uint64_t now(void) { return canopy_cycles(H.dev); }

static void record_latency(const char *impl, int target, uint64_t cycles)
{
    printf("{\"bench\": \"amo\", \"op\": \"fetch-add\", \"impl\": \"%s\", \"nodes\": %d, \"target\": %d, "
           "\"hops\": %d, \"cycles\": %" PRIu64 ", \"ns\": %.1f}\n",
           impl, H.n, target, hops(0, target), cycles, cycles * ns_per_cycle);
}

static void record_rate(const char *op, const char *impl, int target, int pes, uint64_t nops, uint64_t cycles)
{
    printf("{\"bench\": \"amo\", \"op\": \"%s\", \"impl\": \"%s\", \"nodes\": %d, \"target\": %d, \"pes\": %d, "
           "\"ops\": %" PRIu64 ", \"cycles\": %" PRIu64 ", \"ops_per_kcycle\": %.2f, \"ns_per_op\": %.1f}\n",
           op, impl, H.n, target, pes, nops, cycles, 1000.0 * (double)nops / (double)cycles,
           cycles * ns_per_cycle / (double)nops);
}

/* ------------------------------------------------------------------ the software AMO
 * Mailbox at the server: per source a request {operand, seq}; the reply at the source:
 * {old, seq}. Written value first, sequence number last (one put: in order). */
static uint64_t sw_seq;

static uint64_t sw_fetch_add(int server, uint64_t operand)
{
    const uint64_t seq = ++sw_seq;
    const uint64_t req[2] = {operand, seq};
    hx_must(&H, canopy_put(H.dev, server, off_req + 16u * (unsigned)H.me, req, sizeof req, 0), "sw request");
    hx_must(&H, canopy_wait_u64(H.dev, hx_word(&H, off_sreply + 8), CANOPY_CMP_EQ, seq, HX_TIMEOUT_NS), "sw reply");
    return *hx_word(&H, off_sreply);
}

/* Serve until `total` requests are done. */
static void sw_serve(uint64_t total)
{
    volatile uint64_t *seen = hx_word(&H, off_seen); /* per source: last seq served */
    volatile uint64_t *cnt = hx_word(&H, off_cnt);
    for (uint64_t done = 0; done < total;) {
        int any = 0;
        for (int s = 0; s < H.n; ++s) {
            volatile uint64_t *r = hx_word(&H, off_req + 16u * (unsigned)s);
            if (r[1] == seen[s]) continue;
            const uint64_t old = *cnt;
            *cnt = old + r[0];
            seen[s] = r[1];
            const uint64_t rep[2] = {old, r[1]};
            hx_must(&H, canopy_put(H.dev, s, off_sreply, rep, sizeof rep, 0), "sw answer");
            ++done;
            any = 1;
        }
        if (!any && done < total) {
            const int rc = canopy_wait_any(H.dev, HX_TIMEOUT_NS);
            if (rc != CANOPY_OK && rc != CANOPY_ETIMEDOUT) hx_must(&H, rc, "sw serve wait");
        }
    }
    hx_must(&H, canopy_quiet(H.dev, HX_TIMEOUT_NS), "sw serve quiet");
}

static void reset_counter(void)
{
    *hx_word(&H, off_cnt) = 0;
    memset(H.win + off_seen, 0, 8u * (unsigned)H.n);
    memset(H.win + off_req, 0, 16u * (unsigned)H.n);
    memset(H.win + off_sreply, 0, 16);
    sw_seq = 0;
    hx_barrier(&H);
}

/* ------------------------------------------------------------------ phases */
static void latency(void)
{
    int far = 0;
    for (int x = 0; x < H.n; ++x) far = hops(0, x) > hops(0, far) ? x : far;
    const int list[3] = {0, x_neighbour(0), far};
    for (int i = 0; i < 3; ++i) {
        const int t = list[i];
        if (i == 2 && (t == list[1] || t == 0)) continue;
        reset_counter();
        if (H.me == 0) {
            uint64_t best = UINT64_MAX, old;
            for (int r = 0; r < reps; ++r) {
                const uint64_t t0 = now();
                hx_must(&H, canopy_amo_fetch(H.dev, t, off_cnt, CANOPY_AMO_ADD, 8, 1, 0, off_reply, &old, HX_TIMEOUT_NS),
                        "fetch-add");
                const uint64_t c = now() - t0;
                if (old != (uint64_t)r) hx_die(&H, "fetch-add at node %d returned %" PRIu64 ", expected %d", t, old, r);
                best = c < best ? c : best;
            }
            record_latency("hw", t, best);
        }
        hx_barrier(&H);
        if (t == 0) continue;
        reset_counter();
        if (H.me == 0) {
            uint64_t best = UINT64_MAX;
            for (int r = 0; r < reps; ++r) {
                const uint64_t t0 = now();
                const uint64_t old = sw_fetch_add(t, 1);
                const uint64_t c = now() - t0;
                if (old != (uint64_t)r) hx_die(&H, "sw fetch-add at node %d returned %" PRIu64 ", expected %d", t, old, r);
                best = c < best ? c : best;
            }
            record_latency("sw", t, best);
        } else if (H.me == t) {
            sw_serve((uint64_t)reps);
        }
        hx_barrier(&H);
    }
}

/* Every node (those `in`) runs body; node 0 reports ops over the longest elapsed time. */
static void timed(const char *op, const char *impl, int target, int in, uint64_t nops_each, void (*body)(int))
{
    reset_counter();
    const uint64_t t0 = now();
    if (in) body(target);
    const uint64_t t1 = now();
    hx_must(&H, canopy_quiet(H.dev, HX_TIMEOUT_NS), "quiet");
    hx_report(&H, t0, t1, (uint64_t)in, H.epoch + 1);
    if (H.me == 0) {
        hx_collect(&H, H.epoch + 1);
        uint64_t first = UINT64_MAX, last = 0, pes = 0;
        for (int s = 0; s < H.n; ++s) {
            const volatile uint64_t *rec = hx_word(&H, H.off_report + HX_REPORT_BYTES * (unsigned)s);
            if (!rec[2]) continue;
            first = rec[0] < first ? rec[0] : first;
            last = rec[1] > last ? rec[1] : last;
            ++pes;
        }
        record_rate(op, impl, target, (int)pes, pes * nops_each, last - first);
    }
    hx_barrier(&H);
}

static void body_hw_fetch(int t)
{
    uint64_t old;
    for (int k = 0; k < ops; ++k)
        hx_must(&H, canopy_amo_fetch(H.dev, t, off_cnt, CANOPY_AMO_ADD, 8, 1, 0, off_reply, &old, HX_TIMEOUT_NS),
                "contended fetch-add");
}
static void body_hw_add(int t)
{
    for (int k = 0; k < ops; ++k)
        hx_must(&H, canopy_amo(H.dev, t, off_cnt, CANOPY_AMO_ADD, 8, 1, 0, CANOPY_AMO_NO_REPLY), "contended add");
    hx_must(&H, canopy_quiet(H.dev, HX_TIMEOUT_NS), "add quiet");
}
static void body_sw_fetch(int t)
{
    for (int k = 0; k < ops; ++k) (void)sw_fetch_add(t, 1);
}
static void body_spread(int unused)
{
    (void)unused;
    body_hw_fetch(x_neighbour(H.me));
}

static void check_counter(int target, uint64_t want, const char *what)
{
    hx_barrier(&H);
    if (H.me == target && *hx_word(&H, off_cnt) != want)
        hx_die(&H, "%s: counter %" PRIu64 ", expected %" PRIu64, what, *hx_word(&H, off_cnt), want);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--ops") && i + 1 < argc) ops = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: amo_bench [--ops K] [--reps R]\n");
            return 2;
        }
    }
    if (ops < 1 || reps < 1) return 2;
    hx_open(&H, "amo_bench", 0);
    find_sizes();
    struct canopy_caps caps;
    hx_must(&H, canopy_caps(H.dev, &caps), "caps");
    if (!caps.amo_ops) hx_die(&H, "the device serves no atomics");
    ns_per_cycle = 1.0;
    H.off_hello = 0;
    H.off_bar = 8u * (unsigned)H.n;
    H.off_report = H.off_bar + HX_BAR_BYTES;
    off_cnt = H.off_report + HX_REPORT_BYTES * (unsigned)H.n;
    off_reply = off_cnt + 64;
    off_sreply = off_reply + 64;
    off_seen = off_sreply + 64;
    off_req = off_seen + 8u * (unsigned)H.n;
    off_time = off_req + 16u * (unsigned)H.n;
    hx_must(&H, canopy_window(H.dev, (off_time + 64 + 4095) & ~(uint64_t)4095, (void **)&H.win), "window");
    hx_hello(&H);
    hx_barrier(&H);
    {
        const uint64_t c0 = canopy_cycles(H.dev), t0 = canopy_time_ns(H.dev);
        hx_barrier(&H);
        const uint64_t c1 = canopy_cycles(H.dev), t1 = canopy_time_ns(H.dev);
        ns_per_cycle = c1 > c0 ? (double)(t1 - t0) / (double)(c1 - c0) : 4.0;
    }

    latency();
    const int c = centre();
    timed("contended fetch-add", "hw", c, 1, (uint64_t)ops, body_hw_fetch);
    check_counter(c, (uint64_t)H.n * (uint64_t)ops, "contended fetch-add");
    timed("contended add", "hw", c, 1, (uint64_t)ops, body_hw_add);
    check_counter(c, (uint64_t)H.n * (uint64_t)ops, "contended add");
    /* Software: the centre serves everyone else's requests. */
    reset_counter();
    {
        const uint64_t t0 = now();
        if (H.me == c) sw_serve((uint64_t)(H.n - 1) * (uint64_t)ops);
        else body_sw_fetch(c);
        const uint64_t t1 = now();
        hx_must(&H, canopy_quiet(H.dev, HX_TIMEOUT_NS), "quiet");
        hx_report(&H, t0, t1, H.me != c, H.epoch + 1);
        if (H.me == 0) {
            hx_collect(&H, H.epoch + 1);
            uint64_t first = UINT64_MAX, last = 0;
            for (int s = 0; s < H.n; ++s) {
                const volatile uint64_t *rec = hx_word(&H, H.off_report + HX_REPORT_BYTES * (unsigned)s);
                if (!rec[2]) continue;
                first = rec[0] < first ? rec[0] : first;
                last = rec[1] > last ? rec[1] : last;
            }
            record_rate("contended fetch-add", "sw", c, H.n - 1, (uint64_t)(H.n - 1) * (uint64_t)ops, last - first);
        }
        hx_barrier(&H);
    }
    check_counter(c, (uint64_t)(H.n - 1) * (uint64_t)ops, "sw contended fetch-add");
    timed("spread fetch-add", "hw", -1, 1, (uint64_t)ops, body_spread);
    if (*hx_word(&H, off_cnt) != (uint64_t)ops)
        hx_die(&H, "spread fetch-add: counter %" PRIu64 ", expected %d", *hx_word(&H, off_cnt), ops);
    hx_barrier(&H);
    return canopy_close(&H.dev) == CANOPY_OK ? 0 : 1;
}
