/* link_cut.c: a link that dies in the middle of a packet (docs/link.md, "A link that dies
 * mid-packet"). On 3x3, the link out of node 0 toward node 1 (port 0, +X) dies at cycle D
 * while node 0 streams puts across it to node 4 (route 0 -> 1 -> 4; the way back,
 * 4 -> 3 -> 0, does not use the link):
 *
 *   canopy-run -n 9 --torus 3x3 --link-protect --dead-link 0:0:D link_cut D
 *
 *  1. Every node says hello (windows exist); a flag barrier.
 *  2. Node 0 puts 4 KiB chunks to node 4's stream area until cycle D + 3000, chunk r at
 *     (r mod 4) * 4 KiB, word w of it STREAM_WORD(r, w). The packet on the link when it
 *     died is cut; node 1's link end closes it (canopy_link_closer) and it goes on, visibly
 *     malformed, to node 4, whose host interface fails it.
 *  3. Node 1, once its link end is long down: ERR_BAD_LEN has grown (the cut packet crossed
 *     its router; this is what proves a packet was cut at all), and 16 KiB of puts to node 4
 *     through the router output the cut packet held (1 -> 4, +Y, VC P2P_LO) are all
 *     acknowledged within 1 ms. Without the closer that output waits for a tail for ever.
 *  4. Node 0: LINK_DOWN says port 0, PUTS_FAILED has grown (node 4 answered the cut packet
 *     FAILED), and canopy_quiet times out: the puts the dead link swallowed are never
 *     acknowledged (the program then leaves without the closing quiet, see the end).
 *  5. Node 4, after everything has landed: every word of the stream area is a word some
 *     chunk put there, or 0 (a cut packet's filler or padding), and not more than one
 *     packet's worth of words is 0; nothing past the area was written; ERR_BAD_LEN grew.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_util.h"

enum {
    WIN_SIZE = 0x20000,
    FLAG_OFF = 0,          /* hello and barrier words, 8 bytes per node */
    IDLE_OFF = 0x800,      /* a word nobody writes (sleeping) */
    SRC_OFF = 0x1000,      /* node 0: the chunk being put; node 1: its 16 KiB */
    STREAM_OFF = 0x8000,   /* node 4: where node 0's chunks land, 4 x 4 KiB */
    STREAM_LEN = 0x4000,
    GUARD_OFF = 0xc000,    /* node 4: the 16 KiB past it, never written */
    GUARD_LEN = 0x4000,
    NODE1_OFF = 0x10000,   /* node 4: where node 1's puts land */
    CHUNK = 4096,
};
#define GUARD_WORD 0x6a6a6a6a6a6a6a6aull
#define STREAM_WORD(r, w) (0x5a00000000000000ull | (uint64_t)(r) << 24 | (uint64_t)(w))

static canopy_dev *dev;
static uint8_t *win;

static void sleep_until_cycle(uint64_t c)
{
    const volatile uint64_t *idle = (const volatile uint64_t *)(win + IDLE_OFF);
    while (canopy_cycles(dev) < c) test_sleep_until(dev, idle, canopy_time_ns(dev) + 1000);
}

static void counters(struct canopy_counters *c) { CHECK_OK(canopy_counters(dev, c)); }

/* Node 0: chunks across the link until it has been dead a while; returns how many. */
static unsigned stream(uint64_t until)
{
    uint64_t *src = (uint64_t *)(win + SRC_OFF);
    unsigned r = 0;
    for (; canopy_cycles(dev) < until; ++r) {
        const unsigned slot = r % (STREAM_LEN / CHUNK);
        for (unsigned w = 0; w < CHUNK / 8; ++w) src[w] = STREAM_WORD(r, slot * CHUNK / 8 + w);
        CHECK_OK(canopy_put(dev, 4, STREAM_OFF + (uint64_t)slot * CHUNK, src, CHUNK, 0));
    }
    return r;
}

/* Node 4: what the stream left. */
static void check_stream(void)
{
    const uint64_t *s = (const uint64_t *)(win + STREAM_OFF);
    unsigned zeros = 0;
    for (unsigned w = 0; w < STREAM_LEN / 8; ++w) {
        const uint64_t v = s[w];
        if (v == 0) {
            ++zeros;
            continue;
        }
        CHECK(v >> 56 == 0x5a && (v & 0xffffff) == w, "stream word %u: 0x%016" PRIx64 " is no chunk's", w, v);
    }
    /* A cut packet's missing words (at most 32 of its 256 bytes) are filler or padding. */
    CHECK(zeros <= 32, "%u stream words are 0: more than one packet's worth", zeros);
    const uint64_t *g = (const uint64_t *)(win + GUARD_OFF);
    for (unsigned w = 0; w < GUARD_LEN / 8; ++w)
        CHECK(g[w] == GUARD_WORD, "guard word %u written: 0x%016" PRIx64, w, g[w]);
}

int main(int argc, char **argv)
{
    CHECK(argc == 2, "usage: link_cut DEAD_CYCLE (the cycle given to --dead-link 0:0:...)");
    const uint64_t dead = strtoull(argv[1], NULL, 0);
    dev = test_open();
    const int me = canopy_my_node(dev);
    CHECK(canopy_num_nodes(dev) == 9 && canopy_ndims(dev) == 2, "run on 3x3");
    CHECK_OK(canopy_window(dev, WIN_SIZE, (void **)&win));
    memset(win, 0, WIN_SIZE);
    if (me == 4) {
        uint64_t *g = (uint64_t *)(win + GUARD_OFF);
        for (unsigned w = 0; w < GUARD_LEN / 8; ++w) g[w] = GUARD_WORD;
    }
    test_hello(dev, FLAG_OFF, 1);
    test_flag_barrier(dev, win, FLAG_OFF, 2);
    CHECK(canopy_cycles(dev) < dead - 5000, "set up at cycle %" PRIu64 ": give a later dead cycle than %" PRIu64,
          canopy_cycles(dev), dead);

    struct canopy_counters before, after;
    counters(&before);
    if (me == 0) {
        const unsigned chunks = stream(dead + 3000);
        CHECK(chunks >= 4, "only %u chunks before the link died", chunks);
        CHECK_RC(canopy_quiet(dev, 100000), CANOPY_ETIMEDOUT);
        sleep_until_cycle(dead + 20000);
        counters(&after);
        CHECK(after.link_down == 1, "LINK_DOWN 0x%" PRIx64 ", expected port 0", after.link_down);
        CHECK(after.puts_failed > before.puts_failed, "no put failed: node 4 did not refuse the cut packet");
        fprintf(stderr, "link_cut: node 0 put %u chunks; %" PRIu64 " packets failed\n", chunks,
                after.puts_failed - before.puts_failed);
        /* The dead link swallowed puts that will never be acknowledged, so canopy_close's
         * quiet could only time out: leave without it, the device released with the process. */
        fflush(stderr);
        _exit(0);
    }
    if (me == 1) {
        sleep_until_cycle(dead + 6000);
        counters(&after);
        CHECK(after.err_bad_len > before.err_bad_len, "ERR_BAD_LEN did not grow: no packet was cut (try another cycle)");
        memset(win + SRC_OFF, 0x3c, 4 * CHUNK);
        for (unsigned c = 0; c < 4; ++c)
            CHECK_OK(canopy_put(dev, 4, NODE1_OFF + (uint64_t)c * CHUNK, win + SRC_OFF, CHUNK, 0));
        CHECK_OK(canopy_quiet(dev, 1000000));
    }
    if (me == 4) {
        sleep_until_cycle(dead + 20000);
        counters(&after);
        CHECK(after.err_bad_len > before.err_bad_len, "ERR_BAD_LEN did not grow at the cut packet's destination");
        check_stream();
        for (unsigned i = 0; i < 4 * CHUNK; ++i) CHECK(win[NODE1_OFF + i] == 0x3c, "node 1's byte %u", i);
    }
    sleep_until_cycle(dead + 21000);
    CHECK_OK(canopy_close(&dev));
    return 0;
}
