/* bench_harness.h: what the collective benchmarks (bcast_bench.c, reduce_bench.c) share.
 *
 * One PE's harness: its device, its window and three flag areas in that window, which the
 * benchmark places (off_hello: n words; off_bar: HX_BAR_ROUNDS words; off_report: n
 * records of 4 words, used at node 0). On top of them:
 *   - flags: a sender puts data, then an 8-byte flag word with a sequence number to the
 *     same target; puts from one source to one target arrive in order, so the receiver,
 *     waiting on its own window for the flag, has the data too;
 *   - hx_hello: every PE's window exists (a put into a node without one is refused);
 *   - hx_barrier: a dissemination barrier of flags, after a quiet;
 *   - hx_ring_order: ranks in snake (boustrophedon) order of the torus coordinates,
 *     rotated so the root is rank 0: ring neighbours are torus neighbours except at row
 *     ends; also names the torus ("4x4x4");
 *   - hx_report / hx_collect: every node sends node 0 a 4-word record (3 values and the
 *     sequence number, last, so one packet carries the record and its validity).
 * Every call that fails prints "<prog>: PE <me>: <what>: <error>" and exits 1.
 */
#ifndef CANOPY_BENCH_HARNESS_H
#define CANOPY_BENCH_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include "canopy.h"

#define HX_TIMEOUT_NS (20ull * 1000 * 1000 * 1000)
#define HX_MAX_DIMS 4
#define HX_BAR_ROUNDS 32
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
void hx_hello(struct harness *h);
void hx_ring_order(struct harness *h);

/* Every node: {w0, w1, w2, seq} to node 0's record. Node 0: wait for every record of seq;
 * record s is then hx_word(h, h->off_report + HX_REPORT_BYTES * s)[0..2]. */
void hx_report(struct harness *h, uint64_t w0, uint64_t w1, uint64_t w2, uint64_t seq);
void hx_collect(struct harness *h, uint64_t seq);

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
