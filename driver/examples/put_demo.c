/* put_demo.c: every PE writes to every other PE through libcanopy, then checks what it got.
 *
 *   sim/canopy-run -n 9 --torus 3x3 build/driver/examples/put_demo [bytes]
 *
 * Each PE owns a window of N slots of `bytes` plus N flag words. Phase 1: PE s puts a
 * pattern (a function of s, d and the byte index) into slot s of every other PE d, waits
 * for all its puts to be acknowledged (canopy_quiet), then sets flag s at every d. Phase 2:
 * each PE waits for every flag and checks every slot byte for byte. PE 0 then measures a
 * ping-pong latency and a one-way bandwidth to its neighbour and prints a summary. Every
 * PE exits nonzero on any error, so canopy-run fails the run.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canopy.h"

#define TIMEOUT_NS (2ull * 1000 * 1000 * 1000)
#define BW_BYTES (64u * 1024u)

static uint8_t pattern(int src, int dst, size_t i) { return (uint8_t)(src * 31 + dst * 7 + i * 13 + (i >> 8)); }

static int check(int rc, const char *what, int me)
{
    if (rc != CANOPY_OK) {
        fprintf(stderr, "PE %d: %s: %s\n", me, what, canopy_strerror(rc));
        exit(1);
    }
    return rc;
}

int main(int argc, char **argv)
{
    size_t bytes = argc > 1 ? strtoul(argv[1], NULL, 0) : 1000;
    char err[256];
    struct canopy_open_opts opts = {.errmsg = err, .errmsg_len = sizeof err};
    canopy_dev *dev;
    int rc = canopy_open(&dev, &opts);
    if (rc) {
        fprintf(stderr, "canopy_open: %s: %s\n", canopy_strerror(rc), err);
        return 1;
    }
    const int me = canopy_my_node(dev), n = canopy_num_nodes(dev);
    const size_t flags_at = ((size_t)n * bytes + 7) & ~(size_t)7, bw_at = flags_at + 8u * (size_t)n;
    const size_t win_size = bw_at + BW_BYTES + 64;
    uint8_t *win;
    check(canopy_window(dev, win_size, (void **)&win), "window", me);
    volatile uint64_t *flags = (volatile uint64_t *)(win + flags_at);

    /* Phase 1: all-to-all puts, then flags. A put into a node that has not registered its
     * window yet is refused (and reported by quiet), so first say hello to every node
     * until it accepts: after that its window is known to exist. */
    uint64_t one = 1, two = 2;
    for (int d = 0; d < n; ++d) {
        int tries = 0;
        do {
            check(canopy_put(dev, d, flags_at + 8u * (size_t)me, &one, 8, 0), "put hello", me);
            rc = canopy_quiet(dev, TIMEOUT_NS);
        } while (rc == CANOPY_EREFUSED && ++tries < 10000);
        check(rc, "hello", me);
    }
    uint64_t t0 = canopy_cycles(dev);
    uint8_t *buf = malloc(bytes ? bytes : 1);
    for (int d = 0; d < n; ++d) {
        if (d == me) continue;
        for (size_t i = 0; i < bytes; ++i) buf[i] = pattern(me, d, i);
        check(canopy_put(dev, d, (size_t)me * bytes, buf, bytes, 0), "put", me);
    }
    check(canopy_quiet(dev, TIMEOUT_NS), "quiet", me);
    uint64_t t_all = canopy_cycles(dev) - t0;
    for (int d = 0; d < n; ++d) check(canopy_put(dev, d, flags_at + 8u * (size_t)me, &two, 8, 0), "put flag", me);

    /* Phase 2: wait for everyone, verify. */
    for (int s = 0; s < n; ++s) check(canopy_wait_u64(dev, &flags[s], CANOPY_CMP_EQ, 2, TIMEOUT_NS), "wait done", me);
    size_t bad = 0;
    for (int s = 0; s < n; ++s) {
        if (s == me) continue;
        for (size_t i = 0; i < bytes; ++i) bad += win[(size_t)s * bytes + i] != pattern(s, me, i);
    }
    if (bad) {
        fprintf(stderr, "PE %d: %zu bytes differ from what was sent\n", me, bad);
        return 1;
    }

    /* Phase 3 (PEs 0 and 1): ping-pong latency, then bandwidth 0 -> 1. */
    uint64_t rtt = 0, bw_cycles = 0;
    if (n > 1 && me <= 1) {
        const int peer = 1 - me;
        volatile uint64_t *ball = (volatile uint64_t *)(win + bw_at + BW_BYTES);
        for (uint64_t round = 1; round <= 4; ++round) {
            uint64_t start = canopy_cycles(dev);
            if (me == 0) {
                check(canopy_put(dev, peer, bw_at + BW_BYTES, &round, 8, 0), "ping", me);
                check(canopy_wait_u64(dev, ball, CANOPY_CMP_EQ, round, TIMEOUT_NS), "pong", me);
                rtt = canopy_cycles(dev) - start; /* the last round: caches of nothing, steady */
            } else {
                check(canopy_wait_u64(dev, ball, CANOPY_CMP_EQ, round, TIMEOUT_NS), "ping", me);
                check(canopy_put(dev, peer, bw_at + BW_BYTES, &round, 8, 0), "pong", me);
            }
        }
        if (me == 0) {
            uint8_t *big = calloc(1, BW_BYTES);
            uint64_t start = canopy_cycles(dev);
            check(canopy_put(dev, peer, bw_at, big, BW_BYTES, 0), "bandwidth put", me);
            check(canopy_quiet(dev, TIMEOUT_NS), "bandwidth quiet", me);
            bw_cycles = canopy_cycles(dev) - start;
            free(big);
        }
    }

    /* Nobody closes (unregistering its window) before everyone is done with it. */
    uint64_t three = 3;
    check(canopy_quiet(dev, TIMEOUT_NS), "quiet", me);
    for (int d = 0; d < n; ++d) check(canopy_put(dev, d, flags_at + 8u * (size_t)me, &three, 8, 0), "put flag", me);
    for (int s = 0; s < n; ++s) check(canopy_wait_u64(dev, &flags[s], CANOPY_CMP_EQ, 3, TIMEOUT_NS), "wait end", me);

    if (me == 0) {
        struct canopy_caps caps;
        check(canopy_caps(dev, &caps), "caps", me);
        unsigned c[4];
        canopy_coords(dev, n - 1, c);
        /* ns per cycle from the device's own clocks (the co-simulator's --clock-mhz). */
        const double ns = (double)canopy_time_ns(dev) / (double)canopy_cycles(dev);
        const double link_bytes = caps.flit_bits / 8.0;
        printf("canopy put demo: %d PEs on a simulated torus (last node at %u,%u,%u,%u)\n", n, c[0], c[1], c[2], c[3]);
        printf("  all-to-all: every PE put %zu bytes to each of the other %d PEs: verified on every PE\n", bytes,
               n - 1);
        printf("  %-40s %" PRIu64 " cycles (%.2f us at %.0f MHz)\n", "PE 0's puts complete (acknowledged)", t_all,
               t_all * ns / 1000, 1000 / ns);
        if (rtt) {
            printf("  %-40s %" PRIu64 " cycles round trip, %.0f cycles = %.0f ns one way\n",
                   "8-byte put ping-pong, PE 0 <-> PE 1", rtt, rtt / 2.0, rtt / 2.0 * ns);
            printf("  %-40s %u bytes in %" PRIu64 " cycles: %.2f bytes/cycle = %.0f%% of the %.0f-byte link, %.2f GB/s\n",
                   "one-way bandwidth, PE 0 -> PE 1", BW_BYTES, bw_cycles, (double)BW_BYTES / bw_cycles,
                   100.0 * BW_BYTES / bw_cycles / link_bytes, link_bytes, BW_BYTES / (bw_cycles * ns));
        }
        printf("  (latencies include the modeled PCIe crossings: MMIO write in, DMA write out)\n");
    }
    free(buf);
    return canopy_close(&dev) == CANOPY_OK ? 0 : 1;
}
