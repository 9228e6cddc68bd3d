/* bcast.c: hardware broadcast through libcanopy, checked byte for byte on every node.
 *
 *   bcast [--sizes a,b,...] [--roots all|N] [--big BYTES] [--small-window]
 *
 * --small-window: for a board whose host memory is small (the ECP5 board's 64 KiB per node,
 * over the serial backend): a 24 KiB window, two trees are enough, the large broadcast at
 * most 8 KiB (--big), the two-trees-in-flight case 600 bytes each, SKIP_SRC 500 bytes.
 *
 * Trees: tree 0 rooted at node 0 programmed through the CSRs, tree 1 rooted at the last
 * node programmed by CONFIG packets from node 0 (the fabric manager's two modes). Then:
 *   1. from every root (any node may be the source; on tree 0 a non-zero root sends its
 *      request up to node 0 first), sizes crossing the packet boundaries, on both trees;
 *   2. one large broadcast (--big, default 256 KiB) from the middle node;
 *   3. two broadcasts in flight at once on two trees with different roots;
 *   4. SKIP_SRC: the source's own window is left untouched.
 * Every payload is a pattern of (root, size, round); every node checks its whole window
 * region, including the bytes just past the end (never written).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "canopy_fm.h"
#include "test_util.h"

enum { FLAG_OFF = 0, DATA_OFF = 4096 };
/* The second data region and the window: 512 KiB regions, or 8 KiB with --small-window. */
static uint64_t region_bytes = 1u << 19;
#define DATA2_OFF (DATA_OFF + region_bytes)
#define WIN_BYTES (DATA2_OFF + region_bytes + 4096u)

static uint8_t pattern(unsigned root, size_t size, unsigned round, size_t i)
{
    uint64_t x = (uint64_t)root * 0x9e3779b97f4a7c15ull ^ (uint64_t)size * 0xbf58476d1ce4e5b9ull ^
                 (uint64_t)round * 0x94d049bb133111ebull ^ (uint64_t)i * 0x2545f4914f6cdd1dull;
    x ^= x >> 29;
    return (uint8_t)(x ^ (x >> 17));
}

static void fill(uint8_t *buf, unsigned root, size_t size, unsigned round)
{
    for (size_t i = 0; i < size; ++i) buf[i] = pattern(root, size, round, i);
}

static void verify(const uint8_t *win, uint64_t off, unsigned root, size_t size, unsigned round)
{
    for (size_t i = 0; i < size; ++i) {
        uint8_t want = pattern(root, size, round, i);
        CHECK(win[off + i] == want, "root %u size %zu round %u: byte %zu is 0x%02x, expected 0x%02x", root, size,
              round, i, win[off + i], want);
    }
}

static uint64_t barrier_no;

static void barrier(canopy_dev *dev, uint8_t *win)
{
    test_flag_barrier(dev, win, FLAG_OFF, ++barrier_no);
}

static void one_bcast(canopy_dev *dev, uint8_t *win, uint8_t *src, unsigned tree, unsigned root, size_t size,
                      unsigned round, uint64_t off)
{
    int me = canopy_my_node(dev);
    if ((unsigned)me == root) fill(src, root, size, round);
    struct canopy_bcast_args a = {.tree = tree, .group = 0, .root = (int)root, .offset = off, .size = size,
                                  .src = src, .flags = 0};
    struct canopy_coll done;
    CHECK_OK(canopy_bcast(dev, &a, &done));
    CHECK_OK(canopy_coll_wait(dev, &done, TEST_TIMEOUT_NS));
    verify(win, off, root, size, round);
    CHECK(win[off + size] == 0, "root %u size %zu: byte past the end written", root, size);
}

static void clear(uint8_t *win, uint64_t off, size_t size)
{
    memset(win + off, 0, size + 8);
}

int main(int argc, char **argv)
{
    size_t sizes[32] = {1, 7, 8, 100, 256, 257, 1000, 4096};
    unsigned nsizes = 8, roots_all = 1, one_root = 0, small = 0;
    size_t big = 256 * 1024;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--sizes") && i + 1 < argc) {
            nsizes = 0;
            for (char *t = strtok(argv[++i], ","); t && nsizes < 32; t = strtok(NULL, ","))
                sizes[nsizes++] = strtoull(t, NULL, 0);
        } else if (!strcmp(argv[i], "--roots") && i + 1 < argc) {
            ++i;
            roots_all = !strcmp(argv[i], "all");
            one_root = roots_all ? 0 : (unsigned)atoi(argv[i]);
        } else if (!strcmp(argv[i], "--big") && i + 1 < argc) {
            big = strtoull(argv[++i], NULL, 0);
        } else if (!strcmp(argv[i], "--small-window")) {
            small = 1;
        } else {
            fprintf(stderr, "usage: %s [--sizes a,b,..] [--roots all|N] [--big BYTES] [--small-window]\n", argv[0]);
            return 2;
        }
    }
    if (small) {
        region_bytes = 8192;
        if (big > region_bytes - 8) big = region_bytes - 8;
    }
    for (unsigned s = 0; s < nsizes; ++s)
        if (sizes[s] > region_bytes - 8) {
            fprintf(stderr, "bcast: size %zu does not fit the %llu-byte region\n", sizes[s], (unsigned long long)region_bytes);
            return 2;
        }
    canopy_dev *dev = test_open();
    int me = canopy_my_node(dev), n = canopy_num_nodes(dev);
    uint8_t *win;
    CHECK_OK(canopy_window(dev, WIN_BYTES, (void **)&win));
    test_hello(dev, FLAG_OFF, 0);

    struct canopy_caps caps;
    CHECK_OK(canopy_caps(dev, &caps));
    const unsigned want_trees = small ? 2 : 16;
    CHECK(caps.trees >= want_trees, "CAPS.trees = %u, expected at least %u", caps.trees, want_trees);

    char err[256] = "";
    int rc = canopy_fm_setup(dev, 0, 0, NULL, CANOPY_FM_VIA_CSR, err, sizeof err);
    CHECK(rc == CANOPY_OK, "fm_setup tree 0: %s: %s", canopy_strerror(rc), err);
    rc = canopy_fm_setup(dev, 1, n - 1, NULL, CANOPY_FM_VIA_PACKETS, err, sizeof err);
    CHECK(rc == CANOPY_OK, "fm_setup tree 1: %s: %s", canopy_strerror(rc), err);
    barrier(dev, win);

    uint8_t *src = malloc(big > 65536 ? big : 65536);
    CHECK(src, "out of memory");
    unsigned round = 0;

    /* 1. every root, sizes across packet boundaries, both trees */
    for (unsigned tree = 0; tree < 2; ++tree) {
        for (unsigned r = roots_all ? 0 : one_root; r < (roots_all ? (unsigned)n : one_root + 1); ++r) {
            for (unsigned s = 0; s < nsizes; ++s) {
                clear(win, DATA_OFF, sizes[s]);
                barrier(dev, win);
                one_bcast(dev, win, src, tree, r, sizes[s], ++round, DATA_OFF);
            }
        }
    }

    /* 2. a large broadcast, pipelined over many packets */
    clear(win, DATA_OFF, big);
    barrier(dev, win);
    one_bcast(dev, win, src, 0, (unsigned)n / 2, big, ++round, DATA_OFF);

    /* 3. two trees in flight at once, different roots and regions */
    {
        size_t sz = small ? 600 : 20000;
        unsigned r0 = 1 % (unsigned)n, r1 = (unsigned)n - 2 % (unsigned)n, rd = ++round;
        uint8_t *src2 = malloc(sz);
        CHECK(src2, "out of memory");
        clear(win, DATA_OFF, sz);
        clear(win, DATA2_OFF, sz);
        barrier(dev, win);
        if ((unsigned)me == r0) fill(src, r0, sz, rd);
        if ((unsigned)me == r1) fill(src2, r1, sz, rd);
        struct canopy_bcast_args a0 = {.tree = 0, .root = (int)r0, .offset = DATA_OFF, .size = sz, .src = src};
        struct canopy_bcast_args a1 = {.tree = 1, .root = (int)r1, .offset = DATA2_OFF, .size = sz, .src = src2};
        struct canopy_coll d0, d1;
        CHECK_OK(canopy_bcast(dev, &a0, &d0));
        CHECK_OK(canopy_bcast(dev, &a1, &d1));
        CHECK_OK(canopy_coll_wait(dev, &d1, TEST_TIMEOUT_NS));
        CHECK_OK(canopy_coll_wait(dev, &d0, TEST_TIMEOUT_NS));
        verify(win, DATA_OFF, r0, sz, rd);
        verify(win, DATA2_OFF, r1, sz, rd);
        free(src2);
    }

    /* 4. SKIP_SRC: everyone but the source receives */
    {
        size_t sz = small ? 500 : 3000;
        unsigned r = (unsigned)n - 1, rd = ++round;
        clear(win, DATA_OFF, sz);
        barrier(dev, win);
        if ((unsigned)me == r) fill(src, r, sz, rd);
        struct canopy_bcast_args a = {.tree = 0, .root = (int)r, .offset = DATA_OFF, .size = sz, .src = src,
                                      .flags = CANOPY_BCAST_SKIP_SRC};
        struct canopy_coll d;
        CHECK_OK(canopy_bcast(dev, &a, &d));
        CHECK_OK(canopy_coll_wait(dev, &d, TEST_TIMEOUT_NS));
        if ((unsigned)me == r) {
            barrier(dev, win); /* everyone else has theirs: nothing can still be coming here */
            for (size_t i = 0; i < sz; ++i) CHECK(win[DATA_OFF + i] == 0, "SKIP_SRC: source's byte %zu written", i);
        } else {
            verify(win, DATA_OFF, r, sz, rd);
            barrier(dev, win);
        }
    }

    struct canopy_counters c;
    CHECK_OK(canopy_counters(dev, &c));
    CHECK(c.err_coll_dir == 0 && c.err_coll_tree == 0 && c.err_tree_write == 0 && c.err_bad_type == 0,
          "unexpected collective errors: dir %llu tree %llu table %llu type %llu", (unsigned long long)c.err_coll_dir,
          (unsigned long long)c.err_coll_tree, (unsigned long long)c.err_tree_write,
          (unsigned long long)c.err_bad_type);
    barrier(dev, win);
    free(src);
    if (me == 0) printf("bcast: %u rounds on %d nodes, all verified\n", round, n);
    CHECK_OK(canopy_close(&dev));
    return 0;
}
