/* put_bench.c: host-to-host put latency and bandwidth, in simulated cycles.
 *
 *   sim/canopy-run -n N --torus T build/driver/examples/put_bench [peer]
 *
 * PE 0 and PE `peer` (default 1, a neighbour) ping-pong messages of 8 B .. 64 KiB: PE 0
 * puts the message, PE peer waits until its last word (which carries the round number)
 * lands, then puts it back. Puts between one pair arrive in order, so the last word
 * landing means the whole message has. Half the round trip is the one-way host-to-host
 * time, modeled PCIe crossings included (the source's MMIO writes into the injection ring,
 * the target's DMA write into memory). PE 0 prints one JSON record per size.
 * Cycle counts are exact and repeatable (the co-simulation is deterministic).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canopy.h"

#define TIMEOUT_NS (5ull * 1000 * 1000 * 1000)
#define MAX_BYTES (64u * 1024u)
#define ROUNDS 3

static void must(int rc, const char *what)
{
    if (rc != CANOPY_OK) {
        fprintf(stderr, "put_bench: %s: %s\n", what, canopy_strerror(rc));
        exit(1);
    }
}

int main(int argc, char **argv)
{
    canopy_dev *dev;
    must(canopy_open(&dev, NULL), "open");
    const int me = canopy_my_node(dev), n = canopy_num_nodes(dev);
    const int peer = argc > 1 ? atoi(argv[1]) : 1;
    if (peer <= 0 || peer >= n) {
        fprintf(stderr, "put_bench: peer must be 1..%d\n", n - 1);
        return 2;
    }
    uint8_t *win;
    must(canopy_window(dev, MAX_BYTES + 64, (void **)&win), "window");
    if (me == 0 || me == peer) {
        const int other = me == 0 ? peer : 0;
        /* Hello until the other side has a window. */
        uint64_t one = 1;
        int rc;
        do {
            must(canopy_put(dev, other, MAX_BYTES, &one, 8, 0), "hello");
            rc = canopy_quiet(dev, TIMEOUT_NS);
        } while (rc == CANOPY_EREFUSED);
        must(rc, "hello quiet");
        uint8_t *msg = calloc(1, MAX_BYTES);
        /* ns per cycle from the device's own clocks (the co-simulator's --clock-mhz). */
        const double ns_per_cycle = (double)canopy_time_ns(dev) / (double)canopy_cycles(dev);
        uint64_t token = 0;
        for (size_t bytes = 8; bytes <= MAX_BYTES; bytes *= 2) {
            uint64_t best = UINT64_MAX;
            for (int r = 0; r < ROUNDS; ++r) {
                ++token;
                volatile uint64_t *last = (volatile uint64_t *)(win + bytes - 8);
                uint64_t start = canopy_cycles(dev);
                if (me == 0) {
                    memcpy(msg + bytes - 8, &token, 8);
                    must(canopy_put(dev, other, 0, msg, bytes, 0), "ping");
                    must(canopy_wait_u64(dev, last, CANOPY_CMP_EQ, token, TIMEOUT_NS), "pong");
                    uint64_t rtt = canopy_cycles(dev) - start;
                    if (rtt < best) best = rtt;
                } else {
                    must(canopy_wait_u64(dev, last, CANOPY_CMP_EQ, token, TIMEOUT_NS), "ping");
                    memcpy(msg + bytes - 8, &token, 8);
                    must(canopy_put(dev, other, 0, msg, bytes, 0), "pong");
                }
            }
            if (me == 0) {
                double one_way = best / 2.0;
                printf("{\"bench\": \"put\", \"op\": \"put\", \"impl\": \"hw\", \"nodes\": %d, \"peer\": %d, "
                       "\"bytes\": %zu, \"cycles\": %.1f, \"link_bytes_per_cycle\": %.3f, \"ns\": %.1f}\n",
                       n, peer, bytes, one_way, bytes / one_way, one_way * ns_per_cycle);
            }
        }
        free(msg);
        must(canopy_quiet(dev, TIMEOUT_NS), "quiet");
    }
    return canopy_close(&dev) == CANOPY_OK ? 0 : 1;
}
