/* get_bench.c: one-sided get latency and bandwidth, in simulated cycles.
 *
 *   sim/canopy-run -n N --torus T build/driver/examples/get_bench [peer]
 *
 * PE 0 reads from PE `peer` (default 1, a neighbour), which does nothing but keep its
 * window registered until PE 0 is done. For each size, 8 B .. 64 KiB: a get followed by a
 * quiet, the best of three (the whole round trip: MMIO write of the request, the target's
 * DMA read of its memory, the responses, PE 0's DMA write and the writeback it waits on),
 * and, for comparison, an acknowledged put of the same size followed by a quiet. Then a
 * stream: 1 MiB as 16 gets of 64 KiB, one quiet (the driver keeps two requests in flight
 * toward the peer), against 1 MiB of puts. PE 0 prints one JSON record per measurement.
 * Cycle counts are exact and repeatable (the co-simulation is deterministic).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canopy.h"

#define TIMEOUT_NS (5ull * 1000 * 1000 * 1000)
#define MAX_BYTES (64u * 1024u)
#define STREAM_GETS 16
#define ROUNDS 3

static void must(int rc, const char *what)
{
    if (rc != CANOPY_OK) {
        fprintf(stderr, "get_bench: %s: %s\n", what, canopy_strerror(rc));
        exit(1);
    }
}

static void record(const char *op, int n, int peer, size_t bytes, uint64_t cycles, double ns_per_cycle)
{
    printf("{\"bench\": \"get\", \"op\": \"%s\", \"impl\": \"hw\", \"nodes\": %d, \"peer\": %d, \"bytes\": %zu, "
           "\"cycles\": %" PRIu64 ", \"bytes_per_cycle\": %.3f, \"ns\": %.1f}\n",
           op, n, peer, bytes, cycles, (double)bytes / (double)cycles, cycles * ns_per_cycle);
}

int main(int argc, char **argv)
{
    canopy_dev *dev;
    must(canopy_open(&dev, NULL), "open");
    const int me = canopy_my_node(dev), n = canopy_num_nodes(dev);
    const int peer = argc > 1 ? atoi(argv[1]) : 1;
    if (peer <= 0 || peer >= n) {
        fprintf(stderr, "get_bench: peer must be 1..%d\n", n - 1);
        return 2;
    }
    /* [0, 64 KiB): data; then PE 0's destination for puts; then a flag. */
    const uint64_t flag = 2 * MAX_BYTES;
    uint8_t *win;
    must(canopy_window(dev, flag + 64, (void **)&win), "window");
    for (size_t i = 0; i < MAX_BYTES; ++i) win[i] = (uint8_t)(i * 7 + me);
    if (me == 0) {
        uint64_t one = 1;
        int rc;
        do { /* until the peer has a window */
            must(canopy_put(dev, peer, flag, &one, 8, 0), "hello");
            rc = canopy_quiet(dev, TIMEOUT_NS);
        } while (rc == CANOPY_EREFUSED);
        must(rc, "hello quiet");
        const double ns_per_cycle = (double)canopy_time_ns(dev) / (double)canopy_cycles(dev);
        uint8_t *src = calloc(1, MAX_BYTES);
        for (size_t bytes = 8; bytes <= MAX_BYTES; bytes *= 2) {
            uint64_t best_get = UINT64_MAX, best_put = UINT64_MAX;
            for (int r = 0; r < ROUNDS; ++r) {
                uint64_t t0 = canopy_cycles(dev);
                must(canopy_get(dev, peer, 0, MAX_BYTES, bytes), "get");
                must(canopy_quiet(dev, TIMEOUT_NS), "get quiet");
                uint64_t t1 = canopy_cycles(dev);
                must(canopy_put(dev, peer, MAX_BYTES, src, bytes, 0), "put");
                must(canopy_quiet(dev, TIMEOUT_NS), "put quiet");
                uint64_t t2 = canopy_cycles(dev);
                if (t1 - t0 < best_get) best_get = t1 - t0;
                if (t2 - t1 < best_put) best_put = t2 - t1;
            }
            for (size_t i = 0; i < bytes; ++i)
                if (win[MAX_BYTES + i] != (uint8_t)(i * 7 + peer)) {
                    fprintf(stderr, "get_bench: byte %zu of a %zu-byte get is wrong\n", i, bytes);
                    return 1;
                }
            record("get+quiet", n, peer, bytes, best_get, ns_per_cycle);
            record("put+quiet", n, peer, bytes, best_put, ns_per_cycle);
        }
        uint64_t t0 = canopy_cycles(dev);
        for (int k = 0; k < STREAM_GETS; ++k) must(canopy_get(dev, peer, 0, MAX_BYTES, MAX_BYTES), "stream get");
        must(canopy_quiet(dev, TIMEOUT_NS), "stream get quiet");
        uint64_t t1 = canopy_cycles(dev);
        for (int k = 0; k < STREAM_GETS; ++k) must(canopy_put(dev, peer, MAX_BYTES, src, MAX_BYTES, 0), "stream put");
        must(canopy_quiet(dev, TIMEOUT_NS), "stream put quiet");
        uint64_t t2 = canopy_cycles(dev);
        record("get stream", n, peer, (size_t)STREAM_GETS * MAX_BYTES, t1 - t0, ns_per_cycle);
        record("put stream", n, peer, (size_t)STREAM_GETS * MAX_BYTES, t2 - t1, ns_per_cycle);
        free(src);
        uint64_t two = 2;
        must(canopy_put(dev, peer, flag, &two, 8, 0), "done");
        must(canopy_quiet(dev, TIMEOUT_NS), "done quiet");
    } else if (me == peer) {
        must(canopy_wait_u64(dev, (volatile uint64_t *)(win + flag), CANOPY_CMP_EQ, 2, 100 * TIMEOUT_NS), "wait");
    }
    return canopy_close(&dev) == CANOPY_OK ? 0 : 1;
}
