/* coll_fail.c: collectives that cannot complete end cleanly (docs/collectives.md, "When a
 * collective cannot complete"), on every node of the torus.
 *
 *   coll_fail [--timeout-us N] [--dead NODE:PORT:CYCLE]
 *
 * Every node sets the collective timeout to N microseconds of device time (default 40).
 *   1. A silent member, allreduce (tree 0, root 0): node S (the last) does not take part.
 *      Every other node's canopy_coll_wait ends with CANOPY_ETREEDOWN within the timeout
 *      (and a short slack) of the call; the tree is down there (canopy_tree_down), every
 *      later call on it (allreduce, broadcast, barrier, sync, canopy_tree_attach) says
 *      CANOPY_ETREEDOWN at once, and its result area is untouched. Then S contributes
 *      late: its contribution is dropped by a router whose entry the failure made invalid
 *      (ERR_COLL_TREE counts it somewhere), S's own call ends with CANOPY_ETREEDOWN too,
 *      and no node's result area is written.
 *   2. A silent root, broadcast (tree 1, root R = the middle node): the others wait for R's
 *      broadcast, which does not come; each ends with CANOPY_ETREEDOWN within the timeout.
 *      Then R broadcasts: R's own copy comes back (its entry is still valid) and no other
 *      node's window is written.
 *   3. What is left works: the fabric manager builds a replacement tree under another
 *      index (tree 2) and 40 allreduces on it (more than the 32 reduce ids) and a
 *      broadcast give the right results; a wait shorter than the collective timeout still
 *      says CANOPY_ETIMEDOUT and leaves the collective pending (it then completes).
 *   4. (only, with --dead, under `canopy-run --link-protect --dead-link NODE:PORT:CYCLE`:
 *      the same link) A dead link in a tree: tree 3 is built before the link dies and uses
 *      it (checked); once the link ends have declared it down, an allreduce on tree 3 ends
 *      on every node with CANOPY_ETREEDOWN within the timeout, its result area untouched;
 *      then every node builds tree 4 around the dead link (canopy_fm_setup_avoiding, each
 *      node its own router) and 20 allreduces on it are right on every node. Until then no
 *      point-to-point traffic (a put whose route crosses the link would be lost: the nodes
 *      meet by device time) but canopy_links_gather, by which every node learns the map
 *      (both ends of the link, nothing else). Then every node hands the driver the dead link
 *      (canopy_set_dead_links; bad maps refused) and puts a word to every other node: the
 *      driver refuses with CANOPY_EUNREACH, at once, exactly the puts whose route out or
 *      back crosses the link (the link's own ends always among them), and gets to those
 *      nodes too; every put it let through is acknowledged (canopy_quiet) and, after a
 *      barrier on tree 4, is in its target's window, and no refused one is.
 * Deterministic: fixed roles and patterns, device time only.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "canopy_fm.h"
#include "canopy_raw.h"
#include "canopy_regs.h"
#include "test_util.h"

enum {
    FLAG_OFF = 0,      /* flag barrier: one word per node */
    INFO_OFF = 256,    /* per node: its ERR_COLL_TREE increase (case 1), at node 0 */
    IDLE_OFF = 512,    /* a word nobody writes: waiting on it with a timeout is sleeping */
    RED_OFF = 1024,    /* case 1's result area (64 bytes) */
    BC_OFF = 2048,     /* case 2's broadcast target (256 bytes) */
    GOOD_OFF = 4096,   /* case 3: results, 40 x 64 bytes */
    GOOD_BC_OFF = 8192,
    P2P_OFF = 12288,   /* case 4: a word from each node (64 x 8 bytes) */
    GATHER_OFF = 13312, /* case 4: canopy_links_gather's messages (up to 2 KiB) */
    WIN_BYTES = 16384,
};
#define ELEMS 8
#define SENTINEL 0xa5a5a5a5a5a5a5a5ull
#define US 1000ull

static canopy_dev *dev;
static uint8_t *win;
static int me, n;
static uint64_t barrier_no;

static uint64_t now(void) { return canopy_time_ns(dev); }
static void barrier(void) { test_flag_barrier(dev, win, FLAG_OFF, ++barrier_no); }

static void sleep_until(uint64_t t) { test_sleep_until(dev, (volatile uint64_t *)(win + IDLE_OFF), t); }

static uint64_t reg(uint32_t off)
{
    uint64_t v;
    CHECK_OK(canopy_raw_mmio_read(dev, off, &v));
    return v;
}

static void fill(uint64_t off, size_t bytes, uint64_t v)
{
    for (size_t i = 0; i < bytes / 8; ++i) ((volatile uint64_t *)(win + off))[i] = v;
}

static void check_untouched(uint64_t off, size_t bytes, const char *what)
{
    for (size_t i = 0; i < bytes / 8; ++i) {
        const uint64_t v = ((volatile uint64_t *)(win + off))[i];
        CHECK(v == SENTINEL, "%s: word %zu written (0x%016" PRIx64 ") after its tree went down", what, i, v);
    }
}

/* Every later call on a down tree says so at once. */
static void check_down_everywhere(unsigned tree, int root)
{
    CHECK(canopy_tree_down(dev, tree) == 1, "tree %u not down after the failure", tree);
    uint64_t src[ELEMS] = {0};
    struct canopy_coll c;
    struct canopy_reduce_args ra = {.tree = tree, .op = CANOPY_OP_SUM, .dtype = CANOPY_DT_U64, .count = ELEMS,
                                    .src = src, .dst_offset = GOOD_OFF};
    const uint64_t t0 = now();
    CHECK_RC(canopy_allreduce(dev, &ra, &c), CANOPY_ETREEDOWN);
    struct canopy_bcast_args ba = {.tree = tree, .root = root, .offset = GOOD_BC_OFF, .size = 8, .src = src};
    CHECK_RC(canopy_bcast(dev, &ba, &c), CANOPY_ETREEDOWN);
    CHECK_RC(canopy_barrier(dev, tree, TEST_TIMEOUT_NS), CANOPY_ETREEDOWN);
    CHECK_RC(canopy_sync(dev, tree, TEST_TIMEOUT_NS), CANOPY_ETREEDOWN);
    CHECK_RC(canopy_tree_attach(dev, tree, root), CANOPY_ETREEDOWN);
    CHECK(now() - t0 < 5 * US, "calls on a down tree took %" PRIu64 " ns: they must refuse at once", now() - t0);
}

/* A collective that must fail: it ends with CANOPY_ETREEDOWN no later than the timeout
 * (plus slack for the wait's last step) after it was issued at t_issue. */
static void expect_down(struct canopy_coll *c, uint64_t t_issue, uint64_t timeout_ns, const char *what)
{
    int rc = canopy_coll_wait(dev, c, TEST_TIMEOUT_NS);
    const uint64_t took = now() - t_issue;
    CHECK(rc == CANOPY_ETREEDOWN, "%s: expected CANOPY_ETREEDOWN, got %d (%s)", what, rc, canopy_strerror(rc));
    CHECK(took >= timeout_ns && took <= timeout_ns + 10 * US,
          "%s: ended %" PRIu64 " ns after it was issued, the timeout is %" PRIu64, what, took, timeout_ns);
    CHECK_RC(canopy_coll_test(dev, c), CANOPY_ETREEDOWN); /* and stays ended */
}

static void case1_silent_member(uint64_t timeout_ns)
{
    const int silent = n - 1;
    const uint64_t errs0 = reg(CANOPY_REG_ERR_COLL_TREE);
    fill(RED_OFF, 8 * ELEMS, SENTINEL);
    barrier();
    uint64_t src[ELEMS];
    for (unsigned i = 0; i < ELEMS; ++i) src[i] = (uint64_t)me * 100 + i;
    struct canopy_reduce_args a = {.tree = 0, .op = CANOPY_OP_SUM, .dtype = CANOPY_DT_U64, .count = ELEMS,
                                   .src = src, .dst_offset = RED_OFF};
    struct canopy_coll c;
    const uint64_t start = now();
    if (me != silent) {
        const uint64_t t = now();
        CHECK_OK(canopy_allreduce(dev, &a, &c));
        expect_down(&c, t, timeout_ns, "case 1, allreduce with a silent member");
        check_down_everywhere(0, 0);
    } else {
        /* Late: after every other node has given up (their deadlines and some). */
        sleep_until(start + timeout_ns + 20 * US);
        const uint64_t t = now();
        CHECK_OK(canopy_allreduce(dev, &a, &c));
        expect_down(&c, t, timeout_ns, "case 1, the late member's own allreduce");
        check_down_everywhere(0, 0);
    }
    /* The late contribution has had time to travel: nothing may have been written. */
    sleep_until(start + 3 * timeout_ns + 40 * US);
    check_untouched(RED_OFF, 8 * ELEMS, "case 1, the allreduce's result area");
    const uint64_t grew = reg(CANOPY_REG_ERR_COLL_TREE) - errs0;
    CHECK_OK(canopy_put(dev, 0, INFO_OFF + 8u * (unsigned)me, &grew, 8, 0));
    barrier();
    if (me == 0) {
        uint64_t sum = 0;
        for (int s = 0; s < n; ++s) sum += ((volatile uint64_t *)(win + INFO_OFF))[s];
        CHECK(sum >= 1, "case 1: no router counted the late contribution in ERR_COLL_TREE");
        printf("coll_fail: case 1: silent member: %d nodes ended with CANOPY_ETREEDOWN within %" PRIu64
               " ns, the late contribution dropped (ERR_COLL_TREE +%" PRIu64 " over the torus)\n",
               n, timeout_ns, sum);
    }
}

static void case2_silent_root(uint64_t timeout_ns)
{
    const int root = n / 2;
    fill(BC_OFF, 256, SENTINEL);
    barrier();
    uint64_t data[32];
    for (unsigned i = 0; i < 32; ++i) data[i] = 0x1000 + i;
    struct canopy_bcast_args a = {.tree = 1, .root = root, .offset = BC_OFF, .size = sizeof data, .src = data};
    struct canopy_coll c;
    const uint64_t start = now();
    if (me != root) {
        const uint64_t t = now();
        CHECK_OK(canopy_bcast(dev, &a, &c));
        expect_down(&c, t, timeout_ns, "case 2, broadcast from a silent root");
        check_down_everywhere(1, root);
    } else {
        sleep_until(start + timeout_ns + 20 * US);
        CHECK_OK(canopy_bcast(dev, &a, &c));
        CHECK_OK(canopy_coll_wait(dev, &c, TEST_TIMEOUT_NS)); /* its own copy: its entry is valid */
        CHECK(!memcmp(win + BC_OFF, data, sizeof data), "case 2: the root's own copy is wrong");
    }
    sleep_until(start + 3 * timeout_ns + 40 * US);
    if (me != root) check_untouched(BC_OFF, 256, "case 2, the late broadcast's target");
    barrier();
    if (me == 0) printf("coll_fail: case 2: silent root: %d nodes ended with CANOPY_ETREEDOWN, the late broadcast "
                        "written nowhere but at its root\n", n - 1);
}

static void allreduces_right(unsigned tree, unsigned calls, const char *what);

static void case3_replacement(void)
{
    char err[256] = "";
    CHECK_OK(canopy_coll_set_timeout(dev, 0)); /* the default again */
    int rc = canopy_fm_setup(dev, 2, 1, NULL, CANOPY_FM_VIA_CSR, err, sizeof err);
    CHECK(rc == CANOPY_OK, "fm_setup tree 2: %s: %s", canopy_strerror(rc), err);
    barrier();
    enum { CALLS = 40 };
    allreduces_right(2, CALLS, "case 3");
    /* A wait shorter than the collective: ETIMEDOUT, still pending, then it completes. */
    barrier();
    uint64_t v = 0x7700 + (uint64_t)me;
    struct canopy_bcast_args b = {.tree = 2, .root = 0, .offset = GOOD_BC_OFF, .size = 8, .src = &v};
    struct canopy_coll bc;
    if (me == 0) sleep_until(now() + 20 * US); /* the others start waiting first */
    CHECK_OK(canopy_bcast(dev, &b, &bc));
    if (me != 0) {
        CHECK_RC(canopy_coll_wait(dev, &bc, 1 * US), CANOPY_ETIMEDOUT);
        CHECK(canopy_tree_down(dev, 2) == 0, "a short wait took tree 2 down");
    }
    CHECK_OK(canopy_coll_wait(dev, &bc, TEST_TIMEOUT_NS));
    CHECK(*(volatile uint64_t *)(win + GOOD_BC_OFF) == 0x7700, "case 3: broadcast value wrong");
    barrier();
    if (me == 0) printf("coll_fail: case 3: tree 2 (replacement): %d allreduces and a broadcast right\n", CALLS);
}

/* Allreduce `calls` vectors on `tree` and check every result (values from the node and k). */
static void allreduces_right(unsigned tree, unsigned calls, const char *what)
{
    struct canopy_coll c[40];
    uint64_t src[40][ELEMS];
    CHECK(calls <= 40, "at most 40 calls");
    for (unsigned k = 0; k < calls; ++k) {
        for (unsigned i = 0; i < ELEMS; ++i) src[k][i] = (uint64_t)me * 1000 + k * 10 + i;
        struct canopy_reduce_args a = {.tree = tree, .op = CANOPY_OP_SUM, .dtype = CANOPY_DT_U64, .count = ELEMS,
                                       .src = src[k], .dst_offset = GOOD_OFF + 64u * k};
        CHECK_OK(canopy_allreduce(dev, &a, &c[k]));
    }
    for (unsigned k = 0; k < calls; ++k) CHECK_OK(canopy_coll_wait(dev, &c[k], TEST_TIMEOUT_NS));
    const uint64_t nodesum = (uint64_t)n * (uint64_t)(n - 1) / 2;
    for (unsigned k = 0; k < calls; ++k)
        for (unsigned i = 0; i < ELEMS; ++i) {
            const uint64_t got = ((volatile uint64_t *)(win + GOOD_OFF + 64u * k))[i];
            const uint64_t want = 1000 * nodesum + (uint64_t)n * (k * 10 + i);
            CHECK(got == want, "%s: allreduce %u element %u: %" PRIu64 ", expected %" PRIu64, what, k, i, got, want);
        }
}

/* Case 4's point-to-point part: returns how many of this node's puts were refused. */
static unsigned p2p_around_dead(const uint8_t *dead, unsigned dnode, unsigned dport, int peer)
{
    /* In a ring of two the ends' routes to each other may take the other link between them
     * (the tie rule picks by the destination's parity), so only a longer ring is sure to
     * route over the dead one. */
    struct canopy_fm_torus t;
    CHECK_OK(canopy_fm_torus_of(dev, &t));
    const int on_route = t.size[dport / 2] > 2;
    uint8_t bad[64] = {0};
    CHECK_RC(canopy_set_dead_links(dev, dead, (size_t)n - 1), CANOPY_EINVAL);
    bad[0] = (uint8_t)(1u << (2 * canopy_ndims(dev))); /* a port the torus lacks */
    if (canopy_ndims(dev) < 4) CHECK_RC(canopy_set_dead_links(dev, bad, (size_t)n), CANOPY_EINVAL);
    CHECK(canopy_route_up(dev, 0, n - 1) == 1, "a refused map was kept");
    CHECK_OK(canopy_set_dead_links(dev, dead, (size_t)n));
    CHECK_RC(canopy_route_up(dev, 0, n), CANOPY_ERANGE);
    CHECK(!on_route || (canopy_route_up(dev, (int)dnode, peer) == 0 && canopy_route_up(dev, peer, (int)dnode) == 0),
          "the route between the dead link's ends (%u, %d) is up", dnode, peer);
    fill(P2P_OFF, 8 * (size_t)n, SENTINEL);
    CHECK_OK(canopy_barrier(dev, 4, TEST_TIMEOUT_NS));
    unsigned refused = 0;
    for (int j = 0; j < n; ++j) {
        if (j == me) continue;
        const int up = canopy_route_up(dev, me, j) == 1 && canopy_route_up(dev, j, me) == 1;
        const uint64_t v = 0x900d000000000000ull | (uint64_t)me << 16 | (uint64_t)j;
        const uint64_t t0 = now();
        const int rc = canopy_put(dev, j, P2P_OFF + 8u * (unsigned)me, &v, 8, 0);
        CHECK(rc == (up ? CANOPY_OK : CANOPY_EUNREACH), "case 4: put %d -> %d (route %s): %d (%s)", me, j,
              up ? "up" : "over the dead link", rc, canopy_strerror(rc));
        if (!up) {
            CHECK_RC(canopy_get(dev, j, P2P_OFF, IDLE_OFF, 8), CANOPY_EUNREACH);
            CHECK(now() - t0 < 5 * US, "case 4: refusing a put took %" PRIu64 " ns", now() - t0);
            ++refused;
        }
    }
    CHECK(refused > 0 || !on_route || (me != (int)dnode && me != peer), "case 4: node %d refused no put, yet it ends the dead link",
          me);
    CHECK_OK(canopy_quiet(dev, TEST_TIMEOUT_NS)); /* every put let through was delivered */
    CHECK_OK(canopy_barrier(dev, 4, TEST_TIMEOUT_NS));
    for (int j = 0; j < n; ++j) {
        if (j == me) continue;
        const int up = canopy_route_up(dev, me, j) == 1 && canopy_route_up(dev, j, me) == 1;
        const uint64_t got = ((volatile uint64_t *)(win + P2P_OFF))[j];
        const uint64_t want = up ? (0x900d000000000000ull | (uint64_t)j << 16 | (uint64_t)me) : SENTINEL;
        CHECK(got == want, "case 4: word from node %d: 0x%016" PRIx64 ", expected 0x%016" PRIx64, j, got, want);
    }
    return refused;
}

static void case4_dead_link(unsigned dnode, unsigned dport, uint64_t dcycle, uint64_t timeout_ns)
{
    char err[256] = "";
    struct canopy_fm_torus t;
    CHECK_OK(canopy_fm_torus_of(dev, &t));
    CHECK(dnode < (unsigned)n && dport < 2 * t.ndims, "--dead %u:%u: no such port", dnode, dport);
    uint32_t entries[64];
    CHECK(n <= 64, "case 4: at most 64 nodes");
    CHECK_OK(canopy_fm_build(&t, 0, NULL, entries, err, sizeof err));
    const int peer = canopy_fm_neighbour(&t, dnode, dport);
    const int used = (canopy_tree_get_children(entries[dnode]) >> dport & 1u) ||
                     (canopy_tree_get_children(entries[peer]) >> (dport ^ 1u) & 1u);
    CHECK(used, "case 4: tree 3 (root 0) does not use the link out of node %u port %u: nothing to test", dnode, dport);
    int rc = canopy_fm_setup(dev, 3, 0, NULL, CANOPY_FM_VIA_CSR, err, sizeof err);
    CHECK(rc == CANOPY_OK, "fm_setup tree 3: %s: %s", canopy_strerror(rc), err);
    barrier();
    CHECK(canopy_cycles(dev) < dcycle, "case 4: the link died (cycle %" PRIu64 ") before the test was ready (%" PRIu64
          "): give a later cycle", dcycle, canopy_cycles(dev));
    struct canopy_counters cnt;
    CHECK_OK(canopy_counters(dev, &cnt));
    CHECK(cnt.link_down == 0, "case 4: LINK_DOWN 0x%" PRIx64 " before the link died", cnt.link_down);
    fill(RED_OFF, 8 * ELEMS, SENTINEL);
    /* Meet after the death, once both link ends have declared it down (~500 cycles of
     * silence): everyone sleeps to the same device time. */
    const uint64_t meet = (uint64_t)((double)now() * (double)(dcycle + 2000) / (double)canopy_cycles(dev));
    sleep_until(meet);
    uint64_t src[ELEMS];
    for (unsigned i = 0; i < ELEMS; ++i) src[i] = (uint64_t)me + i;
    struct canopy_reduce_args a = {.tree = 3, .op = CANOPY_OP_SUM, .dtype = CANOPY_DT_U64, .count = ELEMS,
                                   .src = src, .dst_offset = RED_OFF};
    struct canopy_coll c;
    const uint64_t t0 = now();
    CHECK_OK(canopy_allreduce(dev, &a, &c));
    expect_down(&c, t0, timeout_ns, "case 4, allreduce over a tree with a dead link");
    check_down_everywhere(3, 0);
    /* Each node's own CSRs name the dead link: its two ends, nothing else. */
    const uint64_t want = (me == (int)dnode ? 1ull << dport : 0) | (me == peer ? 1ull << (dport ^ 1u) : 0);
    CHECK_OK(canopy_counters(dev, &cnt));
    CHECK(cnt.link_down == want, "case 4: LINK_DOWN 0x%" PRIx64 ", expected 0x%" PRIx64, cnt.link_down, want);
    sleep_until(meet + 2 * timeout_ns + 20 * US);
    check_untouched(RED_OFF, 8 * ELEMS, "case 4, the allreduce's result area");

    /* Every node learns the dead link from the others (canopy_links_gather): both its ends,
     * nothing else; bad areas refused. */
    uint8_t dead[64] = {0}, want_map[64] = {0};
    want_map[dnode] = (uint8_t)(1u << dport);
    want_map[peer] |= (uint8_t)(1u << (dport ^ 1u));
    CHECK(canopy_links_gather_bytes(dev) <= WIN_BYTES - GATHER_OFF, "case 4: the gather needs %zu bytes",
          canopy_links_gather_bytes(dev));
    CHECK_RC(canopy_links_gather(dev, GATHER_OFF + 4, TEST_TIMEOUT_NS, dead), CANOPY_ERANGE);
    CHECK_RC(canopy_links_gather(dev, WIN_BYTES - 8, TEST_TIMEOUT_NS, dead), CANOPY_ERANGE);
    const uint64_t g0 = now();
    CHECK_OK(canopy_links_gather(dev, GATHER_OFF, TEST_TIMEOUT_NS, dead));
    const uint64_t gather_ns = now() - g0;
    for (int j = 0; j < n; ++j)
        CHECK(dead[j] == want_map[j], "case 4: the gathered map marks node %d's ports 0x%x, expected 0x%x", j, dead[j],
              want_map[j]);
    CHECK_OK(canopy_set_dead_links(dev, NULL, 0)); /* p2p_around_dead hands it over again, checking refusals */

    /* The replacement, around the link. */
    CHECK_OK(canopy_coll_set_timeout(dev, 0));
    rc = canopy_fm_setup_avoiding(dev, 4, 0, NULL, dead, CANOPY_FM_VIA_CSR, err, sizeof err);
    CHECK(rc == CANOPY_OK, "fm_setup_avoiding tree 4: %s: %s", canopy_strerror(rc), err);
    sleep_until(meet + 2 * timeout_ns + 60 * US); /* every router holds its entry by then */
    allreduces_right(4, 20, "case 4, tree 4 around the dead link");
    CHECK_OK(canopy_barrier(dev, 4, TEST_TIMEOUT_NS));
    const unsigned refused = p2p_around_dead(dead, dnode, dport, peer);
    if (me == 0)
        printf("coll_fail: case 4: link %u:%u dead at cycle %" PRIu64 ": %d nodes ended with CANOPY_ETREEDOWN within "
               "%" PRIu64 " ns; 20 allreduces right on the tree rebuilt around it; node 0 refused %u of %d puts "
               "(route over the dead link), the rest delivered; the dead-link map gathered in %" PRIu64 " ns\n",
               dnode, dport, dcycle, n, timeout_ns, refused, n - 1, gather_ns);
}

int main(int argc, char **argv)
{
    uint64_t timeout_us = 40, dcycle = 0;
    unsigned dnode = 0, dport = 0;
    int dead = 0;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--timeout-us") && i + 1 < argc) {
            timeout_us = strtoull(argv[++i], NULL, 0);
        } else if (!strcmp(argv[i], "--dead") && i + 1 < argc &&
                   sscanf(argv[++i], "%u:%u:%" SCNu64, &dnode, &dport, &dcycle) == 3) {
            dead = 1;
        } else {
            fprintf(stderr, "usage: %s [--timeout-us N] [--dead NODE:PORT:CYCLE]\n", argv[0]);
            return 2;
        }
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    dev = test_open();
    me = canopy_my_node(dev);
    n = canopy_num_nodes(dev);
    CHECK(n >= 4, "this test needs at least 4 nodes, not %d", n);
    CHECK_OK(canopy_window(dev, WIN_BYTES, (void **)&win));
    test_hello(dev, FLAG_OFF, 0);
    struct canopy_caps caps;
    CHECK_OK(canopy_caps(dev, &caps));
    CHECK(caps.trees >= 3, "CAPS.trees = %u, expected at least 3", caps.trees);
    CHECK_RC(canopy_coll_set_timeout(NULL, 1), CANOPY_ECLOSED);
    CHECK_RC(canopy_tree_down(dev, caps.trees), CANOPY_ERANGE);

    char err[256] = "";
    int rc = canopy_fm_setup(dev, 0, 0, NULL, CANOPY_FM_VIA_CSR, err, sizeof err);
    CHECK(rc == CANOPY_OK, "fm_setup tree 0: %s: %s", canopy_strerror(rc), err);
    rc = canopy_fm_setup(dev, 1, n / 2, NULL, CANOPY_FM_VIA_CSR, err, sizeof err);
    CHECK(rc == CANOPY_OK, "fm_setup tree 1: %s: %s", canopy_strerror(rc), err);
    barrier();
    /* A collective that completes is not touched by the timeout. */
    CHECK_OK(canopy_coll_set_timeout(dev, timeout_us * US));
    CHECK_OK(canopy_barrier(dev, 0, TEST_TIMEOUT_NS));
    CHECK(canopy_tree_down(dev, 0) == 0, "a barrier that completed took its tree down");

    if (dead) {
        case4_dead_link(dnode, dport, dcycle, timeout_us * US);
    } else {
        case1_silent_member(timeout_us * US);
        case2_silent_root(timeout_us * US);
        case3_replacement();
    }
    CHECK_OK(canopy_quiet(dev, TEST_TIMEOUT_NS));
    if (me == 0) printf("coll_fail: all passed\n");
    return canopy_close(&dev) == CANOPY_OK ? 0 : 1;
}
