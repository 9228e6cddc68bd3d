/* coll_rules.c: the collective subnet's rules, on every node: what the routers refuse, what
 * they drop (and where they count it), subgroups, transit nodes, and a host that stops
 * draining its ejection ring.
 *
 *   coll_rules [--skip-stale]
 *
 *   1. Table writes. Illegal entries (child in an earlier dimension than the parent, child
 *      on the parent's port, ports beyond the torus, transit with groups) are refused by the
 *      router through the CSRs (CANOPY_EREFUSED, ERR_TREE_WRITE + exactly one each, the
 *      entry unchanged); tree ids >= CAPS.trees never reach the hardware (CANOPY_ERANGE);
 *      the router's own range check (TREE_SEL beyond the table, by raw MMIO) refuses and
 *      does not alias a real entry; legal but unusual entries are accepted; by CONFIG
 *      packets, a refused entry makes the sender's canopy_quiet say CANOPY_EREFUSED and
 *      counts at the target.
 *   2. Bad collective packets (raw injection) on tree 0 (root node 0): a BCAST from a host
 *      or at the root, a BCAST_REQ at a node that is not the root (ERR_COLL_DIR), a
 *      BCAST_REQ for an invalid / unimplemented tree or a group >= 8 (ERR_COLL_TREE), types
 *      on the wrong VC (ERR_BAD_TYPE): each counted once, at the node named, nowhere else;
 *      no window and no completion counter moves; a correct broadcast works after each.
 *   3. Subgroups: tree 2 with groups 0 (all), 1 (odd nodes), 2 (node 0): only the group's
 *      members receive, others' memory and counters stay untouched.
 *   4. Transit nodes: tree 3 over a few members, from each member as root: the fabric
 *      manager's table has transit nodes and pruned nodes, the routers hold it, members
 *      receive, transit and pruned nodes do not; canopy_bcast says CANOPY_EINVAL on a
 *      transit node sending and CANOPY_ENOTREE on a node outside the tree.
 *   5. A host that stops draining (node X, the last node): its full ejection ring stalls its
 *      ejector; meanwhile a broadcast on a tree without X completes, a 64 KiB broadcast on
 *      tree 0 (which contains X) does not complete anywhere, point-to-point traffic among
 *      the others still flows; once X drains, everything completes with the right data.
 *   6. (unless --skip-stale) Re-programming tree 3 so that nodes which had attached it are
 *      pruned: canopy_bcast on them must say CANOPY_ENOTREE.
 * Deterministic: fixed patterns, fixed roles, device time only.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "canopy_fm.h"
#include "canopy_raw.h"
#include "canopy_regs.h"
#include "test_util.h"

enum {
    FLAG_OFF = 0,       /* full barrier: one word per node */
    SUB_OFF = 256,      /* barrier among a subset: one word per node */
    INFO_OFF = 512,     /* case 5: X's drain time, written by X into every other node */
    IDLE_OFF = 520,     /* a word nobody writes: waiting on it with a timeout is sleeping */
    NOTE_OFF = 528,     /* case 5: node 0's notify put to X */
    RING_OFF = 1024,    /* case 5: X's own notify puts, 8 bytes each (2 KiB) */
    RAW_OFF = 4096,     /* case 2: where dropped raw packets would write */
    RAW_LEN = 64,
    DATA_OFF = 8192,                  /* broadcast data, up to 64 KiB + a guard */
    DATA2_OFF = DATA_OFF + 72 * 1024, /* a second region (case 5: the tree without X) */
};
#define WIN_BYTES ((size_t)DATA2_OFF + 72u * 1024u)
#define US 1000ull

static canopy_dev *dev;
static uint8_t *win;
static uint8_t *srcbuf;
static int me, n, nd;
static uint64_t barrier_no, sub_no;

/* ------------------------------------------------------------------ helpers */

static uint64_t now(void) { return canopy_time_ns(dev); }

static void barrier(void) { test_flag_barrier(dev, win, FLAG_OFF, ++barrier_no); }

/* A flag barrier among the nodes whose bit is set in mask (callers outside it skip it). */
static void sub_barrier(uint32_t mask)
{
    uint64_t v = ++sub_no;
    CHECK_OK(canopy_quiet(dev, TEST_TIMEOUT_NS));
    for (int d = 0; d < n; ++d)
        if (mask >> d & 1u) CHECK_OK(canopy_put(dev, d, SUB_OFF + 8u * (unsigned)me, &v, 8, 0));
    CHECK_OK(canopy_quiet(dev, TEST_TIMEOUT_NS));
    volatile uint64_t *f = (volatile uint64_t *)(win + SUB_OFF);
    for (int s = 0; s < n; ++s)
        if (mask >> s & 1u) {
            int rc = canopy_wait_u64(dev, &f[s], CANOPY_CMP_GE, v, TEST_TIMEOUT_NS);
            CHECK(rc == CANOPY_OK, "subset barrier %" PRIu64 ": no flag from node %d: %s", v, s, canopy_strerror(rc));
        }
}

/* Let device time pass until t (a wait on a word nobody writes). */
static void sleep_until(uint64_t t) { test_sleep_until(dev, (volatile uint64_t *)(win + IDLE_OFF), t); }

static uint64_t reg(uint32_t off)
{
    uint64_t v;
    CHECK_OK(canopy_raw_mmio_read(dev, off, &v));
    return v;
}

static void reg_write(uint32_t off, uint64_t v) { CHECK_OK(canopy_raw_mmio_write(dev, off, &v, 8)); }

/* Read a counter until it reaches want or timeout_ns of device time pass; returns it. */
static uint64_t poll_reg(uint32_t off, uint64_t want, uint64_t timeout_ns)
{
    uint64_t t0 = now(), v;
    while ((v = reg(off)) < want && now() - t0 < timeout_ns) {
    }
    return v;
}

static uint64_t packed(int node)
{
    unsigned c[4];
    CHECK_OK(canopy_coords(dev, node, c));
    return c[0] | c[1] << 4 | c[2] << 8 | c[3] << 12;
}

static uint32_t mk_entry(unsigned valid, unsigned root, unsigned transit, unsigned parent, unsigned children,
                         unsigned groups)
{
    uint32_t e = 0;
    e = canopy_tree_set_valid(e, valid);
    e = canopy_tree_set_root(e, root);
    e = canopy_tree_set_transit(e, transit);
    e = canopy_tree_set_parent(e, parent);
    e = canopy_tree_set_children(e, children);
    e = canopy_tree_set_groups(e, groups);
    return e;
}

struct named_entry {
    const char *what;
    uint32_t e;
};

static uint32_t tree_read(unsigned tree)
{
    uint32_t e;
    CHECK_OK(canopy_tree_read(dev, tree, &e));
    return e;
}

static uint8_t pattern(unsigned src, size_t size, unsigned round, size_t i)
{
    uint64_t x = ((uint64_t)src + 1) * 0xd1b54a32d192ed03ull + (uint64_t)size * 0x8cb92ba72f3d8dd7ull +
                 (uint64_t)round * 0xaef17502108ef2d9ull + (uint64_t)i * 0x9e3779b97f4a7c15ull;
    x ^= x >> 31;
    x *= 0xbf58476d1ce4e5b9ull;
    return (uint8_t)(x >> 56);
}

static void fill(uint8_t *buf, unsigned src, size_t size, unsigned round)
{
    for (size_t i = 0; i < size; ++i) buf[i] = pattern(src, size, round, i);
}

static void verify(const char *what, uint64_t off, unsigned src, size_t size, unsigned round)
{
    for (size_t i = 0; i < size; ++i) {
        uint8_t want = pattern(src, size, round, i);
        CHECK(win[off + i] == want, "%s: byte %zu of %zu is 0x%02x, expected 0x%02x (source %u)", what, i, size,
              win[off + i], want, src);
    }
    for (size_t i = size; i < size + 8; ++i)
        CHECK(win[off + i] == 0, "%s: byte %zu, past the end of the %zu bytes, was written", what, i, size);
}

static void verify_zero(const char *what, uint64_t off, size_t len)
{
    for (size_t i = 0; i < len; ++i)
        CHECK(win[off + i] == 0, "%s: this node should not have received anything, but byte %zu of the region is 0x%02x",
              what, i, win[off + i]);
}

struct snap {
    uint64_t dir, tree, type, tw, rxb;
};

/* The five counters this test follows (raw reads: canopy_counters reads all of them, and
 * every CSR read costs simulated time). */
static struct snap snap(void)
{
    return (struct snap){reg(CANOPY_REG_ERR_COLL_DIR), reg(CANOPY_REG_ERR_COLL_TREE), reg(CANOPY_REG_ERR_BAD_TYPE),
                         reg(CANOPY_REG_ERR_TREE_WRITE), reg(CANOPY_REG_RX_BCASTS)};
}

static void expect_delta(const char *what, const struct snap *b, uint64_t dir, uint64_t tree, uint64_t type,
                         uint64_t tw, uint64_t rxb)
{
    struct snap a = snap();
    CHECK(a.dir - b->dir == dir && a.tree - b->tree == tree && a.type - b->type == type && a.tw - b->tw == tw &&
              a.rxb - b->rxb == rxb,
          "%s: counters moved by ERR_COLL_DIR +%" PRIu64 " ERR_COLL_TREE +%" PRIu64 " ERR_BAD_TYPE +%" PRIu64
          " ERR_TREE_WRITE +%" PRIu64 " RX_BCASTS +%" PRIu64 ", expected +%" PRIu64 " +%" PRIu64 " +%" PRIu64
          " +%" PRIu64 " +%" PRIu64,
          what, a.dir - b->dir, a.tree - b->tree, a.type - b->type, a.tw - b->tw, a.rxb - b->rxb, dir, tree, type, tw,
          rxb);
}

/* The tree's completion counter is exactly at the value `done` waited for: a handle
 * asking for one more packet is not complete. */
static void expect_counter_exact(const char *what, const struct canopy_coll *done)
{
    struct canopy_coll more = *done;
    more.pending = 1;
    more.target = done->target + 1;
    int rc = canopy_coll_test(dev, &more);
    CHECK(rc == CANOPY_EAGAIN, "%s: tree %u's completion counter went past %u (a packet counted that should not be): %s",
          what, done->tree, done->target, canopy_strerror(rc));
}

static unsigned npkts(size_t size)
{
    return (unsigned)((size + CANOPY_PKT_MAX_PAYLOAD - 1) / CANOPY_PKT_MAX_PAYLOAD);
}

/* One broadcast, called by every node: `call` says whether this node calls canopy_bcast (an
 * attached node), `receives` whether it must get the bytes. Checks data, untouched memory
 * elsewhere, RX_BCASTS and the completion counter, and that no error counter moved. */
static unsigned bcast_round;

/* Call canopy_bcast (if `call`) and wait for completion; no barrier. */
static void bcast_run(const char *what, unsigned tree, unsigned group, int src, size_t size, uint64_t off, int call,
                      int receives, unsigned round, struct canopy_coll *d)
{
    memset(d, 0, sizeof *d);
    if (!call) return;
    if (me == src) fill(srcbuf, (unsigned)src, size, round);
    struct canopy_bcast_args a = {.tree = tree, .group = group, .root = src, .offset = off, .size = size, .src = srcbuf};
    int rc = canopy_bcast(dev, &a, d);
    CHECK(rc == CANOPY_OK, "%s: canopy_bcast (tree %u group %u source %d, %zu bytes): %s", what, tree, group, src, size,
          canopy_strerror(rc));
    CHECK(d->pending == receives, "%s: canopy_bcast says this node %s, expected it %s", what,
          d->pending ? "receives" : "does not receive", receives ? "to receive" : "not to receive");
    rc = canopy_coll_wait(dev, d, TEST_TIMEOUT_NS);
    CHECK(rc == CANOPY_OK, "%s: broadcast (tree %u group %u source %d, %zu bytes) did not complete here: %s", what, tree,
          group, src, size, canopy_strerror(rc));
}

/* After a barrier that follows every node's bcast_run: the data (or untouched memory) and
 * the completion counter. */
static void bcast_after(const char *what, int src, size_t size, uint64_t off, int call, int receives, unsigned round,
                        const struct canopy_coll *d)
{
    if (receives)
        verify(what, off, (unsigned)src, size, round);
    else
        verify_zero(what, off, size + 8);
    if (call) expect_counter_exact(what, d);
}

static void bcast_check(const char *what, unsigned tree, unsigned group, int src, size_t size, uint64_t off, int call,
                        int receives)
{
    unsigned round = ++bcast_round;
    memset(win + off, 0, size + 8);
    struct snap b = snap();
    barrier();
    struct canopy_coll d;
    bcast_run(what, tree, group, src, size, off, call, receives, round, &d);
    barrier(); /* every receiver has everything: nothing of it is still coming */
    bcast_after(what, src, size, off, call, receives, round, &d);
    expect_delta(what, &b, 0, 0, 0, 0, receives ? npkts(size) : 0);
}

/* ------------------------------------------------------------------ 1. table writes */

static void case_tables(void)
{
    struct canopy_caps caps;
    CHECK_OK(canopy_caps(dev, &caps));
    CHECK(caps.trees == 16, "CAPS.trees = %u, this test expects 16", caps.trees);
    const unsigned L = 2u * (unsigned)nd;           /* link ports 0..L-1 */
    const unsigned all = (1u << L) - 1u;
    const unsigned last = 2u * ((unsigned)nd - 1u); /* + port of the last dimension */

    /* Legal entries on spare trees, one of them on tree 4, which TREE_SEL = 20 would alias. */
    const uint32_t keep15 = mk_entry(1, 0, 0, 1, 1u << 0 | (all & ~3u), 0x05); /* parent -X, children +X (=-X^1), Y.. */
    const uint32_t keep4 = mk_entry(1, 1, 0, 0, 1u << 2, 0x01);
    CHECK_RC(canopy_tree_write(dev, 15, keep15), CANOPY_OK);
    CHECK_RC(canopy_tree_write(dev, 4, keep4), CANOPY_OK);
    CHECK(tree_read(15) == keep15, "tree 15 reads 0x%08x after writing 0x%08x", tree_read(15), keep15);
    CHECK(tree_read(4) == keep4, "tree 4 reads 0x%08x after writing 0x%08x", tree_read(4), keep4);

    struct named_entry bad[16];
    unsigned nbad = 0;
    bad[nbad++] = (struct named_entry){"child on the parent's port", mk_entry(1, 0, 0, 0, 1u << 0, 1)};
    bad[nbad++] = (struct named_entry){"child in an earlier dimension (parent +Y, child +X)",
                                   mk_entry(1, 0, 0, 2, 1u << 0, 1)};
    bad[nbad++] = (struct named_entry){"child in an earlier dimension (parent -Y, child -X)",
                                   mk_entry(1, 0, 0, 3, 1u << 1, 1)};
    bad[nbad++] = (struct named_entry){"child on the parent's port (-Y)", mk_entry(1, 0, 0, 3, 1u << 3, 1)};
    if (nd >= 3)
        bad[nbad++] = (struct named_entry){"child in an earlier dimension (parent +Z, child -Y)",
                                       mk_entry(1, 0, 0, 4, 1u << 3, 1)};
    if (L < 8) {
        bad[nbad++] = (struct named_entry){"child port beyond the torus", mk_entry(1, 0, 0, 0, 1u << L, 1)};
        bad[nbad++] = (struct named_entry){"root with a child port beyond the torus", mk_entry(1, 1, 0, 0, all | 1u << L, 1)};
        bad[nbad++] = (struct named_entry){"child port 7", mk_entry(1, 0, 0, 0, 1u << 7, 1)};
    }
    bad[nbad++] = (struct named_entry){"parent port beyond the torus", mk_entry(1, 0, 0, L, 0, 1)};
    bad[nbad++] = (struct named_entry){"parent port 15", mk_entry(1, 0, 0, 15, 0, 1)};
    bad[nbad++] = (struct named_entry){"transit with groups", mk_entry(1, 0, 1, 0, 0, 1)};
    bad[nbad++] = (struct named_entry){"transit root with groups", mk_entry(1, 1, 1, 0, all, 0x80)};

    struct snap b = snap();
    for (unsigned i = 0; i < nbad; ++i) {
        int rc = canopy_tree_write(dev, 15, bad[i].e);
        CHECK(rc == CANOPY_EREFUSED, "illegal entry (%s) 0x%08x: canopy_tree_write returned %s, expected EREFUSED",
              bad[i].what, bad[i].e, canopy_strerror(rc));
        CHECK(tree_read(15) == keep15, "illegal entry (%s) 0x%08x: refused, but tree 15 now reads 0x%08x, not 0x%08x",
              bad[i].what, bad[i].e, tree_read(15), keep15);
    }
    expect_delta("illegal CSR table writes", &b, 0, 0, 0, nbad, 0);

    /* Tree ids the router does not implement: the driver refuses them before the hardware. */
    b = snap();
    CHECK_RC(canopy_tree_write(dev, 16, keep15), CANOPY_ERANGE);
    CHECK_RC(canopy_tree_write(dev, 63, keep15), CANOPY_ERANGE);
    CHECK_RC(canopy_tree_write(dev, 64, keep15), CANOPY_ERANGE);
    uint32_t dummy;
    CHECK_RC(canopy_tree_read(dev, 16, &dummy), CANOPY_ERANGE);
    expect_delta("tree ids 16/63/64 through the driver (must not reach the router)", &b, 0, 0, 0, 0, 0);

    /* The router's own range check: TREE_SEL beyond the table, by raw MMIO. 20 and 31 would
     * alias trees 4 and 15 if the index were truncated. */
    static const unsigned sels[] = {16, 20, 31, 63};
    for (unsigned i = 0; i < sizeof sels / sizeof sels[0]; ++i) {
        b = snap();
        reg_write(CANOPY_REG_TREE_SEL, sels[i]);
        reg_write(CANOPY_REG_TREE_ENTRY, keep4 ^ (1u << 16)); /* a legal entry (groups 0x03) */
        uint64_t st = reg(CANOPY_REG_STATUS);
        CHECK(CANOPY_FIELD(st, STATUS, TREE_REFUSED), "TREE_SEL=%u (beyond CAPS.trees): TREE_ENTRY write accepted "
              "(STATUS 0x%" PRIx64 ", tree_refused clear)", sels[i], st);
        uint64_t rd = reg(CANOPY_REG_TREE_READ);
        CHECK(rd == 0, "TREE_SEL=%u: TREE_READ shows 0x%" PRIx64 ", expected 0 (no such entry)", sels[i], rd);
        expect_delta("TREE_ENTRY write with TREE_SEL beyond the table", &b, 0, 0, 0, 1, 0);
        CHECK(tree_read(4) == keep4 && tree_read(15) == keep15,
              "TREE_SEL=%u write changed a real entry: tree 4 0x%08x (want 0x%08x), tree 15 0x%08x (want 0x%08x)",
              sels[i], tree_read(4), keep4, tree_read(15), keep15);
    }
    /* STATUS.tree_refused follows the last write. */
    CHECK_RC(canopy_tree_write(dev, 4, keep4), CANOPY_OK);
    CHECK(!CANOPY_FIELD(reg(CANOPY_REG_STATUS), STATUS, TREE_REFUSED), "STATUS.tree_refused still set after an accepted write");

    /* Legal but unusual entries are accepted and read back as written. */
    const struct named_entry good[] = {
        {"root with children in every direction, all groups", mk_entry(1, 1, 0, 0, all, 0xff)},
        {"root with a parent field beyond the torus (ignored at a root)", mk_entry(1, 1, 0, 15, 1u << 0, 1)},
        {"non-root, parent +last dim, only child its opposite port", mk_entry(1, 0, 0, last, 1u << (last + 1), 1)},
        {"non-root, parent -X, children +X and every later port", mk_entry(1, 0, 0, 1, all & ~2u, 0x7f)},
        {"transit, no groups, leaf", mk_entry(1, 0, 1, last + 1, 0, 0)},
        {"transit root", mk_entry(1, 1, 1, 0, all, 0)},
        {"leaf member with no groups", mk_entry(1, 0, 0, 0, 0, 0)},
    };
    b = snap();
    for (unsigned i = 0; i < sizeof good / sizeof good[0]; ++i) {
        int rc = canopy_tree_write(dev, 14, good[i].e);
        CHECK(rc == CANOPY_OK, "legal entry (%s) 0x%08x refused: %s", good[i].what, good[i].e, canopy_strerror(rc));
        CHECK(tree_read(14) == good[i].e, "legal entry (%s): wrote 0x%08x, tree 14 reads 0x%08x", good[i].what,
              good[i].e, tree_read(14));
    }
    /* valid=0 is always accepted, whatever the other bits: the tree is cleared. */
    CHECK_RC(canopy_tree_write(dev, 14, mk_entry(0, 0, 1, 15, 0xff, 0xff)), CANOPY_OK);
    CHECK(!canopy_tree_get_valid(tree_read(14)), "an entry written with valid=0 reads back valid: 0x%08x", tree_read(14));
    CHECK_RC(canopy_tree_write(dev, 14, 0), CANOPY_OK);
    CHECK(tree_read(14) == 0, "writing 0 left tree 14 = 0x%08x", tree_read(14));
    expect_delta("legal table writes", &b, 0, 0, 0, 0, 0);
    barrier();

    /* By CONFIG packets: node 0 configures node 1's router. */
    b = snap();
    const uint32_t remote_bad = mk_entry(1, 0, 0, 2, 1u << 1, 1); /* parent +Y, child -X */
    const uint32_t remote_good = mk_entry(1, 0, 1, 1, 1u << 0, 0);
    if (me == 0) {
        CHECK_RC(canopy_tree_write_remote(dev, 1, 15, remote_bad), CANOPY_OK);
        int rc = canopy_quiet(dev, TEST_TIMEOUT_NS);
        CHECK(rc == CANOPY_EREFUSED, "CONFIG packet with an illegal entry to node 1: canopy_quiet returned %s, "
              "expected EREFUSED", canopy_strerror(rc));
        CHECK_RC(canopy_tree_write_remote(dev, 1, 13, remote_good), CANOPY_OK);
        rc = canopy_quiet(dev, TEST_TIMEOUT_NS);
        CHECK(rc == CANOPY_OK, "CONFIG packet with a legal entry to node 1 (after a refused one): canopy_quiet "
              "returned %s", canopy_strerror(rc));
        CHECK_RC(canopy_tree_write_remote(dev, 1, 16, remote_good), CANOPY_ERANGE);
        CHECK_RC(canopy_tree_write_remote(dev, n, 13, remote_good), CANOPY_ERANGE);
        /* The router's range check on CONFIG: tree 20 (raw, no ACK_REQ: nothing to quiet). */
        uint64_t pkt[2] = {0, 0};
        canopy_hdr_set_ptype(pkt, CANOPY_PKT_CONFIG);
        canopy_hdr_set_dst(pkt, packed(1));
        canopy_hdr_set_src(pkt, packed(0));
        canopy_hdr_set_tree(pkt, 20);
        canopy_hdr_set_offset(pkt, keep4 ^ (1u << 16));
        CHECK_OK(canopy_raw_inject(dev, pkt, 2, CANOPY_VC_P2P_LO));
        CHECK_OK(canopy_quiet(dev, TEST_TIMEOUT_NS));
    }
    if (me == 1) {
        uint64_t v = poll_reg(CANOPY_REG_ERR_TREE_WRITE, b.tw + 2, 200 * US);
        CHECK(v == b.tw + 2, "CONFIG packets from node 0 (one illegal entry, one for tree 20): ERR_TREE_WRITE +%" PRIu64
              ", expected +2", v - b.tw);
        CHECK(tree_read(15) == keep15, "refused CONFIG entry changed tree 15: 0x%08x, expected 0x%08x", tree_read(15),
              keep15);
        CHECK(tree_read(4) == keep4, "CONFIG for tree 20 changed tree 4: 0x%08x, expected 0x%08x", tree_read(4), keep4);
        CHECK(tree_read(13) == remote_good, "legal CONFIG entry: tree 13 reads 0x%08x, expected 0x%08x", tree_read(13),
              remote_good);
    }
    barrier();
    expect_delta("CONFIG packets", &b, 0, 0, 0, me == 1 ? 2 : 0, 0);

    /* Clear the spare trees. */
    for (unsigned t = 13; t <= 15; ++t) CHECK_RC(canopy_tree_write(dev, t, 0), CANOPY_OK);
    CHECK_RC(canopy_tree_write(dev, 4, 0), CANOPY_OK);
    for (unsigned t = 0; t < 16; ++t) CHECK(tree_read(t) == 0, "tree %u not clear after case 1: 0x%08x", t, tree_read(t));
    barrier();
    if (me == 0) printf("coll_rules: 1. table writes: %u illegal entries refused, range and CONFIG checks (t=%" PRIu64 " ns)\n", nbad, now());
}

/* ------------------------------------------------------------------ 2. dropped packets */

enum { CNT_DIR, CNT_TREE, CNT_TYPE };
struct drop {
    const char *what;
    int injector;
    unsigned ptype;
    int dst;
    unsigned tree, group, vc;
    int observer, counter;
};

static void raw_coll(const struct drop *d)
{
    uint64_t pkt[2 + RAW_LEN / 8];
    memset(pkt, 0, sizeof pkt);
    canopy_hdr_set_ptype(pkt, d->ptype);
    canopy_hdr_set_dst(pkt, packed(d->dst));
    canopy_hdr_set_src(pkt, packed(me));
    canopy_hdr_set_len(pkt, RAW_LEN);
    canopy_hdr_set_tree(pkt, d->tree);
    canopy_hdr_set_offset(pkt, RAW_OFF);
    canopy_hdr_set_group(pkt, d->group);
    for (unsigned i = 0; i < RAW_LEN / 8; ++i) pkt[2 + i] = 0xC0FFEE0000000000ull | (uint64_t)i << 8 | (uint64_t)me;
    CHECK_OK(canopy_raw_inject(dev, pkt, 2 + RAW_LEN / 8, d->vc));
}

static void case_drops(void)
{
    char err[256] = "";
    int rc = canopy_fm_setup(dev, 0, 0, NULL, CANOPY_FM_VIA_CSR, err, sizeof err);
    CHECK(rc == CANOPY_OK, "fm_setup tree 0 (root 0): %s: %s", canopy_strerror(rc), err);
    barrier();
    bcast_check("tree 0 before the bad packets", 0, 0, 0, 300, DATA_OFF, 1, 1);

    const struct drop drops[] = {
        {"(a) BCAST on COLL_DOWN from node 1's host (not the parent port)", 1, CANOPY_PKT_BCAST, 1, 0, 0,
         CANOPY_VC_COLL_DOWN, 1, CNT_DIR},
        {"(a') BCAST on COLL_DOWN from the root's host", 0, CANOPY_PKT_BCAST, 0, 0, 0, CANOPY_VC_COLL_DOWN, 0, CNT_DIR},
        {"(b) BCAST_REQ from node 2 to node 5, not tree 0's root", 2, CANOPY_PKT_BCAST_REQ, 5, 0, 0, CANOPY_VC_P2P_LO, 5,
         CNT_DIR},
        {"(b') BCAST_REQ from node 5 to itself, not tree 0's root", 5, CANOPY_PKT_BCAST_REQ, 5, 0, 0, CANOPY_VC_P2P_LO, 5,
         CNT_DIR},
        {"(c) BCAST_REQ to the root for tree 9 (entry invalid)", 3, CANOPY_PKT_BCAST_REQ, 0, 9, 0, CANOPY_VC_P2P_LO, 0,
         CNT_TREE},
        {"(c') BCAST_REQ to the root for tree 16 (not implemented)", 3, CANOPY_PKT_BCAST_REQ, 0, 16, 0,
         CANOPY_VC_P2P_LO, 0, CNT_TREE},
        {"(c'') BCAST_REQ to the root for tree 48 (not implemented, 48 mod 16 = tree 0)", 3, CANOPY_PKT_BCAST_REQ, 0,
         48, 0, CANOPY_VC_P2P_LO, 0, CNT_TREE},
        {"(d) BCAST_REQ to the root with group 8", 3, CANOPY_PKT_BCAST_REQ, 0, 0, 8, CANOPY_VC_P2P_LO, 0, CNT_TREE},
        {"(d') BCAST_REQ to the root with group 255", 1, CANOPY_PKT_BCAST_REQ, 0, 0, 255, CANOPY_VC_P2P_LO, 0,
         CNT_TREE},
        {"(e) BCAST on VC P2P_LO", 2, CANOPY_PKT_BCAST, 4, 0, 0, CANOPY_VC_P2P_LO, 2, CNT_TYPE},
        {"(f) BCAST_REQ on VC COLL_DOWN", 2, CANOPY_PKT_BCAST_REQ, 0, 0, 0, CANOPY_VC_COLL_DOWN, 2, CNT_TYPE},
        {"(g) BCAST_REQ on VC COLL_UP", 3, CANOPY_PKT_BCAST_REQ, 0, 0, 0, CANOPY_VC_COLL_UP, 3, CNT_TYPE},
        {"(h) BCAST on VC COLL_UP", 1, CANOPY_PKT_BCAST, 1, 0, 0, CANOPY_VC_COLL_UP, 1, CNT_TYPE},
    };
    static const uint32_t regs[] = {CANOPY_REG_ERR_COLL_DIR, CANOPY_REG_ERR_COLL_TREE, CANOPY_REG_ERR_BAD_TYPE};
    for (unsigned i = 0; i < sizeof drops / sizeof drops[0]; ++i) {
        const struct drop *d = &drops[i];
        const unsigned round = ++bcast_round;
        const size_t size = 300;
        char what[160];
        snprintf(what, sizeof what, "correct broadcast from node %d after %s", d->observer, d->what);
        memset(win + RAW_OFF, 0, RAW_LEN + 8);
        memset(win + DATA_OFF, 0, size + 8);
        struct snap b = snap();
        barrier();
        if (me == d->injector) raw_coll(d);
        if (me == d->observer) {
            uint64_t base = d->counter == CNT_DIR ? b.dir : d->counter == CNT_TREE ? b.tree : b.type;
            uint64_t v = poll_reg(regs[d->counter], base + 1, 200 * US);
            CHECK(v == base + 1, "%s: not counted at node %d within 200 us (counter +%" PRIu64 ")", d->what, me,
                  v - base);
        }
        /* Then a correct broadcast on tree 0, from the node that saw the drop (so it starts
         * after it): the tree still works. */
        struct canopy_coll dc;
        bcast_run(what, 0, 0, d->observer, size, DATA_OFF, 1, 1, round, &dc);
        barrier();
        int here = me == d->observer;
        expect_delta(d->what, &b, here && d->counter == CNT_DIR, here && d->counter == CNT_TREE,
                     here && d->counter == CNT_TYPE, 0, npkts(size));
        verify_zero(d->what, RAW_OFF, RAW_LEN + 8);
        bcast_after(what, d->observer, size, DATA_OFF, 1, 1, round, &dc);
    }
    /* The driver refuses a group id the hardware would drop. */
    struct canopy_bcast_args a = {.tree = 0, .group = 8, .root = 0, .offset = DATA_OFF, .size = 8, .src = srcbuf};
    struct canopy_coll dc;
    CHECK_RC(canopy_bcast(dev, &a, &dc), CANOPY_EINVAL);
    barrier();
    if (me == 0)
        printf("coll_rules: 2. %zu kinds of bad collective packets dropped and counted where seen (t=%" PRIu64 " ns)\n",
               sizeof drops / sizeof drops[0], now());
}

/* ------------------------------------------------------------------ 3. subgroups */

static void case_groups(void)
{
    const int root = n == 9 ? 4 : 0;
    uint8_t groups[16];
    for (int i = 0; i < n; ++i) groups[i] = (uint8_t)(1u | (i & 1 ? 2u : 0u) | (i == 0 ? 4u : 0u));
    char err[256] = "";
    int rc = canopy_fm_setup(dev, 2, root, groups, CANOPY_FM_VIA_CSR, err, sizeof err);
    CHECK(rc == CANOPY_OK, "fm_setup tree 2 (root %d, groups): %s: %s", root, canopy_strerror(rc), err);
    barrier();
    uint32_t e = tree_read(2);
    CHECK(canopy_tree_get_valid(e) && !canopy_tree_get_transit(e) && canopy_tree_get_groups(e) == groups[me],
          "tree 2 entry 0x%08x: expected a valid member with groups 0x%02x", e, groups[me]);
    struct {
        const char *what;
        unsigned group;
        int src;
    } rounds[] = {
        {"group 1 (odd nodes) from the root", 1, root},
        {"group 2 (node 0 only) from the root", 2, root},
        {"group 1 (odd nodes) from node 1, through the root", 1, 1},
        {"group 2 (node 0 only) from node 0 itself", 2, 0},
        {"group 0 (everyone) from the last node", 0, n - 1},
        {"group 5 (nobody) from the root", 5, root},
    };
    for (unsigned i = 0; i < sizeof rounds / sizeof rounds[0]; ++i) {
        int receives = groups[me] >> rounds[i].group & 1u;
        bcast_check(rounds[i].what, 2, rounds[i].group, rounds[i].src, 1000, DATA_OFF, 1, receives);
    }
    if (me == 0) printf("coll_rules: 3. subgroups: only members receive (t=%" PRIu64 " ns)\n", now());
}

/* ------------------------------------------------------------------ 4. transit nodes */

static int attached3[16]; /* this node has attached tree 3 at some point (driver state) */

static void case_transit(void)
{
    struct canopy_fm_torus t;
    CHECK_OK(canopy_fm_torus_of(dev, &t));
    int members[3], nm = 0;
    if (n == 9) {
        members[0] = 0, members[1] = 2, members[2] = 8, nm = 3;
    } else {
        members[0] = 0, members[1] = n - 1, nm = 2;
    }
    uint8_t groups[16] = {0};
    for (int i = 0; i < nm; ++i) groups[members[i]] = 1;
    int transit_seen = 0;
    for (int ri = 0; ri < nm; ++ri) {
        const int root = members[ri];
        uint32_t entries[16];
        char err[256] = "";
        int rc = canopy_fm_build(&t, root, groups, entries, err, sizeof err);
        CHECK(rc == CANOPY_OK, "fm_build tree 3 root %d: %s: %s", root, canopy_strerror(rc), err);
        for (int k = 0; k < n; ++k) {
            uint32_t ek = entries[k];
            if (groups[k]) {
                CHECK(canopy_tree_get_valid(ek) && !canopy_tree_get_transit(ek) && canopy_tree_get_groups(ek) == 1,
                      "fm_build tree 3 root %d: member node %d has entry 0x%08x, expected a member with group 1", root,
                      k, ek);
            } else if (canopy_tree_get_valid(ek)) {
                CHECK(canopy_tree_get_transit(ek) && canopy_tree_get_groups(ek) == 0,
                      "fm_build tree 3 root %d: non-member node %d is in the tree but not transit: 0x%08x", root, k, ek);
                CHECK(canopy_tree_get_children(ek) != 0, "fm_build tree 3 root %d: transit node %d has no children "
                      "(it should have been pruned): 0x%08x", root, k, ek);
                transit_seen = 1;
            } else {
                CHECK(ek == 0, "fm_build tree 3 root %d: pruned node %d has entry 0x%08x, expected 0", root, k, ek);
            }
        }
        if (me == 0) {
            printf("coll_rules: 4. tree 3 rooted at %d, members", root);
            for (int i = 0; i < nm; ++i) printf(" %d", members[i]);
            printf(":\n");
            canopy_fm_print(&t, entries, 1, stdout);
        }
        barrier(); /* nobody still uses tree 3 as it was */
        rc = canopy_fm_setup(dev, 3, root, groups, CANOPY_FM_VIA_CSR, err, sizeof err);
        CHECK(rc == CANOPY_OK, "fm_setup tree 3 root %d: %s: %s", root, canopy_strerror(rc), err);
        CHECK(tree_read(3) == entries[me], "tree 3 root %d: the router holds 0x%08x, fm_build computed 0x%08x", root,
              tree_read(3), entries[me]);
        const int in_tree = canopy_tree_get_valid(entries[me]), transit = canopy_tree_get_transit(entries[me]);
        if (in_tree) attached3[me] = 1;
        barrier();

        /* A node that is not a member cannot send. */
        struct canopy_bcast_args a = {.tree = 3, .group = 0, .root = me, .offset = DATA_OFF, .size = 64, .src = srcbuf};
        struct canopy_coll d;
        if (transit) {
            /* Attached (its entry is valid), but a transit host neither sends nor receives:
             * canopy_bcast refuses it as an invalid argument (CANOPY_EINVAL), it does not
             * say ENOTREE because the tree is set up on this node. */
            rc = canopy_bcast(dev, &a, &d);
            CHECK(rc == CANOPY_EINVAL, "tree 3 root %d: canopy_bcast from transit node %d returned %s, expected EINVAL",
                  root, me, canopy_strerror(rc));
        } else if (!in_tree && !attached3[me]) {
            /* Never attached here: the tree is not set up on this node. */
            rc = canopy_bcast(dev, &a, &d);
            CHECK(rc == CANOPY_ENOTREE, "tree 3 root %d: canopy_bcast on node %d outside the tree returned %s, "
                  "expected ENOTREE", root, me, canopy_strerror(rc));
        }
        /* From every member, through the root; only members call and receive. */
        for (int si = 0; si < nm; ++si) {
            char what[96];
            snprintf(what, sizeof what, "tree 3 (root %d) from member %d", root, members[si]);
            bcast_check(what, 3, 0, members[si], 700, DATA_OFF, groups[me] != 0, groups[me] != 0);
        }
    }
    CHECK(transit_seen, "tree 3 over the members never had a transit node: the test does not test transit");
    if (me == 0) printf("coll_rules: 4. transit nodes connect but neither send nor receive (t=%" PRIu64 " ns)\n", now());
}

/* ------------------------------------------------------------------ 5. a stalled host */

#define STALL_NS (300 * US)  /* X drains this long after it says "go" */
#define SETTLE_NS (30 * US)  /* the tree-4 source starts this long after "go" */
#define MARGIN_NS (20 * US)  /* the others' last check of tree 0 ends this long before X drains */
#define BIG (64u * 1024u)
#define SMALL (16u * 1024u)

static void case_stall(void)
{
    const int X = n - 1;
    struct canopy_fm_torus t;
    CHECK_OK(canopy_fm_torus_of(dev, &t));
    /* Tree 4: every node but X; a root whose dimension-ordered tree leaves X a pruned leaf,
     * and not node 0 (node 0's injection and its root queue are held by tree 0's requests). */
    uint8_t groups[16];
    for (int i = 0; i < n; ++i) groups[i] = i == X ? 0 : 1;
    int r4 = -1;
    uint32_t entries[16];
    char err[256] = "";
    for (int r = 1; r < n && r4 < 0; ++r) {
        if (r == X) continue;
        int rc = canopy_fm_build(&t, r, groups, entries, err, sizeof err);
        CHECK(rc == CANOPY_OK, "fm_build tree 4 root %d: %s: %s", r, canopy_strerror(rc), err);
        if (entries[X] == 0) r4 = r;
    }
    CHECK(r4 >= 0, "no root makes node %d a pruned leaf of tree 4", X);
    CHECK_OK(canopy_fm_build(&t, r4, groups, entries, err, sizeof err));
    CHECK(entries[X] == 0, "tree 4: node %d is in the tree: 0x%08x", X, entries[X]);
    int rc = canopy_fm_setup(dev, 4, r4, groups, CANOPY_FM_VIA_CSR, err, sizeof err);
    CHECK(rc == CANOPY_OK, "fm_setup tree 4 root %d: %s: %s", r4, canopy_strerror(rc), err);
    barrier();
    /* Every broadcast so far is complete here and nothing more is coming. */
    memset(win + DATA_OFF, 0, BIG + 8);
    memset(win + DATA2_OFF, 0, SMALL + 8);
    volatile uint64_t *info = (volatile uint64_t *)(win + INFO_OFF);
    const uint32_t others = ((1u << n) - 1u) & ~(1u << X) & ~1u; /* neither X nor node 0 */
    struct snap b0 = snap();
    barrier();

    if (me == X) {
        struct canopy_event ev;
        rc = canopy_poll(dev, &ev);
        CHECK(rc == CANOPY_EAGAIN, "X=%d: its ejection ring is not empty before the test (%s, kind %d from %d)", X,
              canopy_strerror(rc), ev.kind, ev.src_node);
        uint64_t t0 = now();
        for (unsigned i = 0; i < 256; ++i) {
            uint64_t v = 0x5157A11000000000ull | i;
            CHECK_OK(canopy_put(dev, X, RING_OFF + 8u * i, &v, 8, CANOPY_PUT_NOTIFY));
        }
        CHECK_OK(canopy_quiet(dev, TEST_TIMEOUT_NS));
        uint64_t t_full = now();
        /* The ring entries are written after the data: give the last one a moment. */
        while (!CANOPY_FIELD(reg(CANOPY_REG_STATUS), STATUS, EJ_FULL) && now() - t_full < 50 * US) {
        }
        CHECK(CANOPY_FIELD(reg(CANOPY_REG_STATUS), STATUS, EJ_FULL),
              "X=%d: 256 notify puts to itself, but STATUS.ej_full is not set", X);
        printf("coll_rules: 5. X=%d filled its ejection ring in %" PRIu64 " ns\n", X, now() - t0);
    }
    barrier(); /* X's ring is full; plain puts still reach X (no entry needed) */

    struct canopy_coll big = {0}, small = {0};
    struct canopy_bcast_args abig = {.tree = 0, .group = 0, .root = 0, .offset = DATA_OFF, .size = BIG, .src = srcbuf};
    struct canopy_bcast_args asmall = {.tree = 4, .group = 0, .root = r4, .offset = DATA2_OFF, .size = SMALL,
                                       .src = srcbuf + BIG};
    const unsigned rbig = ++bcast_round, rsmall = ++bcast_round;
    uint64_t drain_at;

    if (me == X) {
        /* From now on X receives nothing it needs: tell the others when it will drain. Its
         * puts are not quieted: their acknowledgements come back through the stalled
         * ejector, after the drain. */
        drain_at = now() + STALL_NS;
        for (int d = 0; d < n; ++d)
            if (d != X) CHECK_OK(canopy_put(dev, d, INFO_OFF, &drain_at, 8, 0));
        CHECK_OK(canopy_bcast(dev, &abig, &big));
        CHECK(big.pending, "X: canopy_bcast on tree 0 says X does not receive");
        rc = canopy_bcast(dev, &asmall, &small);
        CHECK(rc == CANOPY_ENOTREE, "X=%d is not in tree 4, but canopy_bcast on tree 4 returned %s, expected ENOTREE", X,
              canopy_strerror(rc));
        sleep_until(drain_at);
        uint64_t st = reg(CANOPY_REG_STATUS);
        CHECK(CANOPY_FIELD(st, STATUS, EJ_FULL), "X=%d: at its drain time STATUS.ej_full is clear (0x%" PRIx64 ")", X, st);
        rc = canopy_coll_test(dev, &big);
        CHECK(rc == CANOPY_EAGAIN, "X=%d: the 64 KiB broadcast on tree 0 completed while X's ejector was stalled: %s", X,
              canopy_strerror(rc));
        struct snap s = snap();
        printf("coll_rules: 5. X=%d drains at t=%" PRIu64 " ns; it had %" PRIu64 " of %u tree-0 packets\n", X, now(),
               s.rxb - b0.rxb, npkts(BIG));
        /* Drain: 256 own notifications, then node 0's. */
        unsigned own = 0, from0 = 0;
        for (unsigned i = 0; i < 257; ++i) {
            struct canopy_event ev;
            rc = canopy_wait_event(dev, &ev, TEST_TIMEOUT_NS);
            CHECK(rc == CANOPY_OK, "X=%d: draining, event %u of 257 missing: %s", X, i, canopy_strerror(rc));
            CHECK(ev.kind == CANOPY_EV_PUT_NOTIFY, "X=%d: event %u has kind %d, expected PUT_NOTIFY", X, i, ev.kind);
            if (ev.src_node == X) {
                CHECK(i < 256 && ev.offset == RING_OFF + 8u * i && ev.len == 8,
                      "X=%d: event %u: own put at offset %" PRIu64 " len %u, expected offset %u len 8", X, i, ev.offset,
                      ev.len, RING_OFF + 8u * i);
                ++own;
            } else {
                CHECK(ev.src_node == 0 && i == 256 && ev.offset == NOTE_OFF && ev.len == 8,
                      "X=%d: event %u from node %d offset %" PRIu64 ", expected node 0's put at %u as event 256", X, i,
                      ev.src_node, ev.offset, NOTE_OFF);
                ++from0;
            }
        }
        struct canopy_event ev;
        rc = canopy_poll(dev, &ev);
        CHECK(rc == CANOPY_EAGAIN, "X=%d: an event beyond the 257 expected: %s (kind %d from %d)", X,
              canopy_strerror(rc), ev.kind, ev.src_node);
        CHECK(own == 256 && from0 == 1, "X=%d: %u own and %u of node 0's notifications, expected 256 and 1", X, own,
              from0);
        uint64_t t_drained = now();
        rc = canopy_coll_wait(dev, &big, TEST_TIMEOUT_NS);
        CHECK(rc == CANOPY_OK, "X=%d: after draining, the 64 KiB broadcast on tree 0 did not complete: %s", X,
              canopy_strerror(rc));
        printf("coll_rules: 5. X=%d drained 257 events by t=%" PRIu64 ", tree 0 complete at t=%" PRIu64 " ns\n", X,
               t_drained, now());
        verify("64 KiB broadcast on tree 0 at X after its drain", DATA_OFF, 0, BIG, rbig);
        CHECK_OK(canopy_quiet(dev, TEST_TIMEOUT_NS));
    } else {
        rc = canopy_wait_u64(dev, &info[0], CANOPY_CMP_NE, 0, TEST_TIMEOUT_NS);
        CHECK(rc == CANOPY_OK, "no drain time from X=%d: %s", X, canopy_strerror(rc));
        drain_at = info[0];
        const uint64_t t_go = now();
        if (me == 0) {
            /* One more notification for X: its ejector now waits for ring room. */
            uint64_t v = 0xB10C;
            CHECK_OK(canopy_put(dev, X, NOTE_OFF, &v, 8, CANOPY_PUT_NOTIFY));
            CHECK_OK(canopy_bcast(dev, &asmall, &small)); /* a member of tree 4, not its source */
            fill(srcbuf, 0, BIG, rbig);
            /* 256 requests: more than the injection ring holds, so this returns only once the
             * tree moves again, after X's drain. Node 0 checks nothing meanwhile. */
            CHECK_OK(canopy_bcast(dev, &abig, &big));
            uint64_t t_ret = now();
            printf("coll_rules: 5. node 0: the 64 KiB canopy_bcast returned at t=%" PRIu64 " ns (X drains at %" PRIu64
                   ")\n", t_ret, drain_at);
            rc = canopy_coll_wait(dev, &small, TEST_TIMEOUT_NS);
            CHECK(rc == CANOPY_OK, "node 0: the broadcast on tree 4 did not complete: %s", canopy_strerror(rc));
            verify("broadcast on tree 4 (without X) at node 0", DATA2_OFF, (unsigned)r4, SMALL, rsmall);
        } else {
            CHECK_OK(canopy_bcast(dev, &abig, &big));
            CHECK(big.pending, "canopy_bcast on tree 0 says this node does not receive");
            if (me == r4) {
                sleep_until(t_go + SETTLE_NS); /* tree 0 is stalled by now */
                fill(srcbuf + BIG, (unsigned)r4, SMALL, rsmall);
            }
            CHECK_OK(canopy_bcast(dev, &asmall, &small));
            CHECK(now() + MARGIN_NS < drain_at, "timing: node %d reached the stall checks at t=%" PRIu64
                  " ns, too close to X's drain at %" PRIu64, me, now(), drain_at);
            rc = canopy_coll_wait(dev, &small, drain_at - MARGIN_NS - now());
            CHECK(rc == CANOPY_OK, "the 16 KiB broadcast on tree 4 (root %d, without X) did not complete while X=%d "
                  "was stalled (by t=%" PRIu64 " ns): %s", r4, X, now(), canopy_strerror(rc));
            const uint64_t t_small = now();
            verify("broadcast on tree 4 (without X) during X's stall", DATA2_OFF, (unsigned)r4, SMALL, rsmall);
            sub_barrier(others); /* point-to-point among the others still flows */
            const uint64_t t_sub = now();
            CHECK(t_sub + MARGIN_NS < drain_at, "timing: node %d finished the subset barrier at t=%" PRIu64
                  " ns, too close to X's drain at %" PRIu64, me, t_sub, drain_at);
            rc = canopy_coll_wait(dev, &big, drain_at - MARGIN_NS - t_sub);
            CHECK(rc == CANOPY_ETIMEDOUT, "the 64 KiB broadcast on tree 0 %s at node %d while X=%d's ejector was "
                  "stalled (t=%" PRIu64 " ns, X drains at %" PRIu64 ")", rc == CANOPY_OK ? "completed" : "failed", me,
                  X, now(), drain_at);
            struct snap s = snap();
            uint64_t got0 = s.rxb - b0.rxb - npkts(SMALL);
            CHECK(got0 < npkts(BIG), "node %d: %" PRIu64 " tree-0 packets arrived while X was stalled", me, got0);
            if (me == 1 || me == r4)
                printf("coll_rules: 5. node %d: go at t=%" PRIu64 ", tree 4 done at %" PRIu64 ", subset barrier at %" PRIu64
                       ", tree 0 still incomplete at %" PRIu64 " with %" PRIu64 "/%u packets (X drains at %" PRIu64 ")\n",
                       me, t_go, t_small, t_sub, now(), got0, npkts(BIG), drain_at);
        }
        rc = canopy_coll_wait(dev, &big, TEST_TIMEOUT_NS);
        CHECK(rc == CANOPY_OK, "the 64 KiB broadcast on tree 0 did not complete after X=%d drained: %s", X,
              canopy_strerror(rc));
        verify("64 KiB broadcast on tree 0 after X's drain", DATA_OFF, 0, BIG, rbig);
        rc = canopy_quiet(dev, TEST_TIMEOUT_NS);
        CHECK(rc == CANOPY_OK, "canopy_quiet after X's drain: %s", canopy_strerror(rc));
    }
    barrier();
    expect_counter_exact("tree 0 after the stall", &big);
    if (me != X) expect_counter_exact("tree 4 after the stall", &small);
    expect_delta("the stalled-host case", &b0, 0, 0, 0, 0, npkts(BIG) + (me == X ? 0 : npkts(SMALL)));
    info[0] = 0;
    barrier();
    if (me == 0) printf("coll_rules: 5. stalled host: isolated tree completed, tree 0 held, all complete after the drain (t=%" PRIu64 " ns)\n", now());
}

/* ------------------------------------------------------------------ 6. re-pruned nodes */

static void case_stale(void)
{
    /* Tree 3 again, members 0 and 1 only: nodes that attached tree 3 in case 4 (members and
     * transit nodes) are now pruned. The tree is no longer set up on them. */
    uint8_t groups[16] = {0};
    groups[0] = groups[1] = 1;
    char err[256] = "";
    int rc = canopy_fm_setup(dev, 3, 0, groups, CANOPY_FM_VIA_CSR, err, sizeof err);
    CHECK(rc == CANOPY_OK, "fm_setup tree 3 (members 0, 1): %s: %s", canopy_strerror(rc), err);
    barrier();
    const int in_tree = canopy_tree_get_valid(tree_read(3));
    if (!in_tree) {
        struct canopy_bcast_args a = {.tree = 3, .group = 0, .root = 0, .offset = DATA_OFF, .size = 64, .src = srcbuf};
        struct canopy_coll d;
        rc = canopy_bcast(dev, &a, &d);
        CHECK(rc == CANOPY_ENOTREE, "node %d, pruned from tree 3 by a new fm_setup%s, router entry 0: canopy_bcast "
              "returned %s (pending %d), expected ENOTREE", me, attached3[me] ? " after having attached it" : "",
              canopy_strerror(rc), rc == CANOPY_OK ? d.pending : -1);
    }
    bcast_check("tree 3 with members 0 and 1", 3, 0, 1, 500, DATA_OFF, in_tree, groups[me] != 0);
    if (me == 0) printf("coll_rules: 6. re-pruned nodes say ENOTREE (t=%" PRIu64 " ns)\n", now());
}

/* Node 0: device time and wall-clock time at the end of a case. */
static double wall0;
static double wall_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
static void stamp(const char *what)
{
    if (me == 0) printf("coll_rules: %s done at t=%" PRIu64 " ns device time, %.1f s wall\n", what, now(), wall_s() - wall0);
}

int main(int argc, char **argv)
{
    wall0 = wall_s();
    int skip_stale = 0;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--skip-stale")) {
            skip_stale = 1;
        } else {
            fprintf(stderr, "usage: %s [--skip-stale]\n", argv[0]);
            return 2;
        }
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    dev = test_open();
    me = canopy_my_node(dev);
    n = canopy_num_nodes(dev);
    nd = canopy_ndims(dev);
    CHECK(n >= 6 && n <= 16 && nd >= 2, "needs a torus of 6..16 nodes in 2+ dimensions (3x3, 2x2x2), not %d nodes", n);
    CHECK_OK(canopy_window(dev, WIN_BYTES, (void **)&win));
    srcbuf = malloc(BIG + SMALL);
    CHECK(srcbuf, "out of memory");
    test_hello(dev, FLAG_OFF, 0);
    const uint64_t t_start = now();

    case_tables();
    stamp("case 1");
    case_drops();
    stamp("case 2");
    case_groups();
    stamp("case 3");
    case_transit();
    stamp("case 4");
    case_stall();
    stamp("case 5");
    if (!skip_stale) {
        case_stale();
        stamp("case 6");
    }

    /* The API's counters agree with the registers read directly. */
    struct canopy_counters c;
    CHECK_OK(canopy_counters(dev, &c));
    struct snap r = snap();
    CHECK(c.err_coll_dir == r.dir && c.err_coll_tree == r.tree && c.err_bad_type == r.type &&
              c.err_tree_write == r.tw && c.rx_bcasts == r.rxb,
          "canopy_counters disagrees with the registers: dir %" PRIu64 "/%" PRIu64 " tree %" PRIu64 "/%" PRIu64
          " type %" PRIu64 "/%" PRIu64 " table %" PRIu64 "/%" PRIu64 " rx_bcasts %" PRIu64 "/%" PRIu64,
          c.err_coll_dir, r.dir, c.err_coll_tree, r.tree, c.err_bad_type, r.type, c.err_tree_write, r.tw, c.rx_bcasts,
          r.rxb);
    barrier();
    if (me == 0) printf("coll_rules: all cases passed on %d nodes in %" PRIu64 " ns of device time\n", n, now() - t_start);
    free(srcbuf);
    CHECK_OK(canopy_close(&dev));
    return 0;
}
