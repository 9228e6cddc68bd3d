/* bench_harness.h: what the collective benchmarks (bcast_bench.c, reduce_bench.c) share.
 *
 * One PE's harness: its device, its window and three flag areas in that window, which the
 * benchmark places (off_hello: n words; off_bar: HX_BAR_BYTES; off_report: n records of 4
 * words, used at node 0). On top of them:
 *   - flags: a sender puts data, then an 8-byte flag word with a sequence number to the
 *     same target; puts from one source to one target arrive in order, so the receiver,
 *     waiting on its own window for the flag, has the data too;
 *   - hx_hello: every PE's window exists (a put into a node without one is refused);
 *   - hx_barrier / hx_barrier_max: a dissemination barrier of flags, after a quiet; each
 *     flag carries a value as well as the barrier's epoch ({value, epoch} in one 16-byte
 *     put, the epoch last), so the barrier also leaves every node with the maximum of the
 *     values the nodes entered it with (ceil(log2 n) rounds take every node's value to
 *     every node);
 *   - hx_start / hx_start_ok: the synchronized start of a timed repetition (below);
 *   - hx_ring_order: ranks in snake (boustrophedon) order of the torus coordinates,
 *     rotated so the root is rank 0: ring neighbours are torus neighbours except at row
 *     ends; also names the torus ("4x4x4");
 *   - hx_report / hx_collect: every node sends node 0 a 4-word record (3 values and the
 *     sequence number, last, so one packet carries the record and its validity).
 * Every call that fails prints "<prog>: PE <me>: <what>: <error>" and exits 1.
 *
 * The synchronized start. Nodes leave a barrier with a skew (on 4x4x4 up to a few hundred
 * cycles: the last flag of the dissemination reaches them at different times), and a
 * repetition that starts at each node's own exit from it carries that skew into its time:
 * a node that leaves late starts (and so completes) late, so small-message figures
 * measured from one node's exit swing with any unrelated change of the barrier's timing.
 * Instead, every node enters the start barrier with the cycle it entered at
 * (canopy_cycles(): in the co-simulation all nodes share one clock, as on a board with one
 * clock and one reset), the barrier gives every node the same maximum M of them, and the
 * agreed start is T = M + start_slack: every node sleeps until cycle T
 * (canopy_wait_u64 on a word nobody writes, with the remaining time as its timeout: the
 * co-simulation resumes it exactly at T) and starts there, so every node starts at the same
 * cycle and the time is measured from T. The slack must cover the barrier after the last
 * node entered it (ceil(log2 n) rounds of a flag put); a node that leaves the barrier after
 * T cannot start at T: hx_start notes it, and hx_start_ok, the barrier after the
 * repetition, tells every node; the repetition is then void, the slack doubled for every
 * node (printed on stderr by node 0), and the caller runs the repetition again. Past
 * HX_START_SLACK_MAX every node exits with a message naming --start-slack.
 */
#ifndef CANOPY_BENCH_HARNESS_H
#define CANOPY_BENCH_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include "canopy.h"

#define HX_TIMEOUT_NS (20ull * 1000 * 1000 * 1000)
#define HX_MAX_DIMS 4
#define HX_BAR_ROUNDS 32
/* The barrier's area at off_bar: two sets (by the epoch's parity) of HX_BAR_ROUNDS
 * {value, epoch} flags, then the word hx_start sleeps on (never written). Two sets: a node
 * can send its first flag of the next barrier before its target has read this one's, but
 * not of the one after (that needs the target to have left this barrier). */
#define HX_BAR_BYTES (2u * 16u * HX_BAR_ROUNDS + 8u)
#define HX_BAR_SLEEP_OFF (2u * 16u * HX_BAR_ROUNDS)
/* Start slack in cycles (--start-slack): from the last node's entry into the start
 * barrier to the agreed start; it must cover the barrier's rounds after that entry. By
 * default HX_START_SLACK_PER_ROUND per round (ceil(log2 n), at least 1): the barrier from
 * the last entry to the last exit measured 734 cycles on 3x3 (4 rounds) and 1,101 on
 * 4x4x4 (6 rounds), 183.5 per round on both (a flag put: MMIO write, injection, the
 * hops, DMA write, the wake-up), and 1,661 on 8x8x8 (9 rounds, 184.6 per round: its
 * longer rounds add a few hops at 3 cycles each). 256 a round left at least 290 cycles
 * to spare (start_margin) on 3x3, 415 on 4x4x4 and 643 on 8x8x8. Doubled on a late node
 * (hx_start_ok), up to HX_START_SLACK_MAX (far below the co-simulation's stall watchdog
 * of 2,000,000 idle cycles). */
#define HX_START_SLACK_PER_ROUND 256u
#define HX_START_SLACK_MAX (1u << 18)
#define HX_REPORT_BYTES 32u /* one node's record at off_report */
#define HX_MAX_SIZES 64

struct harness {
    const char *prog;  /* message prefix */
    canopy_dev *dev;
    int me, n, root, rank;
    int *node_of;      /* rank -> node (hx_ring_order) */
    uint8_t *win;
    uint64_t off_hello, off_bar, off_report;
    uint64_t epoch;    /* harness barriers so far */
    /* synchronized start (hx_start) */
    uint64_t start_slack;  /* cycles from the latest entry into the start barrier to T */
    uint64_t start_at;     /* this repetition's agreed start T */
    uint64_t start_left;   /* the cycle this node left the start barrier */
    unsigned start_reruns; /* repetitions run again with a doubled slack, so far */
    char torus[64];    /* "3x3" (hx_ring_order) */
};

/* Open the device; me and n from it; root checked against n (exit 2 if out of range). */
void hx_open(struct harness *h, const char *prog, int root);
void hx_must(const struct harness *h, int rc, const char *what);
void hx_die(const struct harness *h, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));

static inline volatile uint64_t *hx_word(const struct harness *h, uint64_t off)
{
    return (volatile uint64_t *)(h->win + off);
}

void hx_put_flag(struct harness *h, int node, uint64_t off, uint64_t value);
void hx_wait_ge(struct harness *h, uint64_t off, uint64_t value, const char *what);
void hx_barrier(struct harness *h);
/* The barrier; returns the maximum over the nodes of `value`. */
uint64_t hx_barrier_max(struct harness *h, uint64_t value);
/* The default start slack for n nodes (hx_open sets h->start_slack to it). */
uint64_t hx_start_slack_default(int n);
/* Parses a --start-slack value into h->start_slack (exit 2 if it is not 1..HX_START_SLACK_MAX). */
void hx_set_start_slack(struct harness *h, const char *v);
/* Synchronized start of a repetition, instead of the barrier before it: returns the start
 * cycle, T (h->start_at) on every node unless this node left the barrier after T (then
 * the cycle it left at; hx_start_ok voids the repetition). */
uint64_t hx_start(struct harness *h);
/* Instead of the barrier after the repetition: 1 if every node started at T; else 0 on
 * every node, the slack doubled (exit 1 past HX_START_SLACK_MAX): run the repetition again. */
int hx_start_ok(struct harness *h);
void hx_hello(struct harness *h);
void hx_ring_order(struct harness *h);

/* Every node: {w0, w1, w2, seq} to node 0's record. Node 0: wait for every record of seq;
 * record s is then hx_word(h, h->off_report + HX_REPORT_BYTES * s)[0..2]. */
void hx_report(struct harness *h, uint64_t w0, uint64_t w1, uint64_t w2, uint64_t seq);
void hx_collect(struct harness *h, uint64_t seq);

/* A timed repetition's report: {done, start, T - the cycle this node left the start
 * barrier (its spare slack), seq}. */
void hx_report_timed(struct harness *h, uint64_t done, uint64_t start, uint64_t seq);
/* Node 0: the synchronized start's figures over the repetitions of one record, from the
 * collected timed reports: the least spare slack of any node (margin), the most any
 * node's start differed from T (skew: 0 when the wake-up is exact), the repetitions run
 * again since hx_start_stats_begin. hx_start_stats_print appends them to a JSON record as
 * start_slack, start_reruns, start_margin, start_skew. */
struct hx_start_stats {
    uint64_t margin, skew;
    unsigned reruns0;
};
void hx_start_stats_begin(const struct harness *h, struct hx_start_stats *st);
void hx_start_stats_add(const struct harness *h, struct hx_start_stats *st);
void hx_start_stats_print(const struct harness *h, const struct hx_start_stats *st);

/* "8,64,4096" into sizes[]; returns how many, or 0 if v is not such a list. */
size_t hx_parse_sizes(const char *v, size_t sizes[HX_MAX_SIZES]);
int hx_cmp_u64(const void *x, const void *y);
uint64_t hx_mix(uint64_t x);
static inline int hx_lowbit(int r) { return r & -r; }
static inline int hx_pow2_at_least(int n)
{
    int p = 1;
    while (p < n) p <<= 1;
    return p;
}
static inline size_t hx_clip(size_t x, size_t bytes) { return x < bytes ? x : bytes; }

#endif /* CANOPY_BENCH_HARNESS_H */
