/* get.c: one-sided gets (canopy_get) between every pair of nodes, verified byte for byte.
 *
 *   canopy-run -n N --torus T get [max_bytes]
 *
 * Every PE's window holds, from its end backwards: a source area that PE fills with its
 * own pattern at the start and never changes, one slot per node where this PE's gets land,
 * a put area (a part per source node) and barrier flags. A byte a get did not write must
 * still hold the guard value the PE put there before. First the argument checks (no
 * window yet: ENOTREG; node, local range or remote range out of range: ERANGE; a closed
 * handle: ECLOSED; len 0: nothing). Then phases, flag barriers between them:
 *  1. sizes: every PE reads `len` bytes from every node, itself included, for each len of
 *     sizes[] (1 B .. max_bytes, 64 KiB by default), from an odd offset of the target's
 *     source area into its slot for that target misaligned by (me + t + r) % 8, all nine
 *     (or eight) gets in flight before one quiet; slots are byte-exact inside, guard
 *     outside.
 *  2. storm: 300 operations per PE from a seeded generator every PE can replay: small gets
 *     (1..300 B) from random targets into consecutive places of its slots, and puts
 *     (1..300 B) to random targets, all issued before one quiet (the driver holds at most
 *     CAPS_GET.slots gets toward a target and waits for the rest); then the gets' bytes,
 *     the puts every PE received and all the guards are checked.
 *  3. busy target: the last PE keeps putting (512 B puts to every node, itself included)
 *     while every other PE reads its source area with two gets of max_bytes / 8.
 *  4. refused: gets past the next PE's window (straddling its end, wholly past it, and a
 *     get of max_bytes + 100 whose second request falls past it): one quiet reports
 *     CANOPY_EREFUSED, the next CANOPY_OK; the accepted part landed, nothing else was
 *     written; the target counted exactly those three requests (ERR_GET_BOUNDS).
 *  5. raw: through canopy_raw.h, five back-to-back GETs of max_bytes / 8 to the next PE (it
 *     holds CAPS_GET.slots of them, drops the rest), one whose len is 16, one from a source
 *     outside the torus: each dropped one counts at the target (ERR_GET_DROPPED), writes
 *     nothing, the held ones complete; nothing hangs. Only even PEs attack: their driver's
 *     get accounting no longer matches the device's (it never saw those gets), so they
 *     make no more gets; the odd PEs then get from every node, attacked servers included.
 *     Needs six nodes (slots for the raw GETs); skipped on fewer.
 */
#include <string.h>

#include "canopy_packet.h"
#include "canopy_raw.h"
#include "canopy_regs.h"
#include "test_util.h"

enum { GUARD = 0xEE, PUT_PART = 8192, STORM_OPS = 300, STORM_MAX = 300, BUSY_BYTES = 512, BUSY_ROUNDS = 4 };

static int n, me;
static size_t max_bytes, slot_size, win_size;
static uint64_t flag_off, put_off, slots_off, src_off, src_size;
static uint64_t barrier_value = 1;

static uint8_t src_pattern(int node, uint64_t j)
{
    return (uint8_t)(node * 37 + j * 7 + (j >> 9) * 13 + (j >> 3));
}
static uint8_t put_pattern(int s, unsigned i, size_t j) { return (uint8_t)(s * 101 + i * 29 + j * 3 + 1); }
static uint64_t slot_of(int t) { return slots_off + (uint64_t)t * slot_size; }

static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void barrier(canopy_dev *dev, uint8_t *win) { test_flag_barrier(dev, win, flag_off, ++barrier_value); }

static struct canopy_counters counters(canopy_dev *dev)
{
    struct canopy_counters c;
    CHECK_OK(canopy_counters(dev, &c));
    return c;
}

/* One counter by one register read: canopy_counters reads some thirty, each a full
 * simulated PCIe round trip. */
static uint64_t csr(canopy_dev *dev, uint32_t off)
{
    uint64_t v;
    CHECK_OK(canopy_raw_mmio_read(dev, off, &v));
    return v;
}

/* Every byte of [lo, hi) of the window holds the guard. */
static void check_guard(const uint8_t *win, uint64_t lo, uint64_t hi, const char *what)
{
    for (uint64_t a = lo; a < hi; ++a) CHECK(win[a] == GUARD, "%s: byte at 0x%llx is 0x%02x, not the guard", what, (unsigned long long)a, win[a]);
}

/* The len bytes at local offset `at` came from node t's source area at remote offset `from`. */
static void check_got(const uint8_t *win, int t, uint64_t from, uint64_t at, size_t len, const char *what)
{
    for (size_t i = 0; i < len; ++i) {
        uint8_t want = src_pattern(t, from - src_off + i);
        CHECK(win[at + i] == want, "%s: get of %zu B from node %d: byte %zu is 0x%02x, expected 0x%02x", what, len, t, i,
              win[at + i], want);
    }
}

/* ------------------------------------------------------------------ 1. sizes */
static void phase_sizes(canopy_dev *dev, uint8_t *win)
{
    static const size_t sizes[] = {1, 2, 7, 8, 9, 63, 255, 256, 257, 1000, 4099, 65536};
    for (unsigned r = 0; r < sizeof sizes / sizeof sizes[0] && sizes[r] <= max_bytes; ++r) {
        const size_t len = sizes[r];
        memset(win + slots_off, GUARD, (size_t)n * slot_size);
        for (int k = 0; k < n; ++k) {
            int t = (me + k) % n; /* start at different targets: spread the load */
            uint64_t from = src_off + 1 + 2 * ((unsigned)(t + (int)r) % 4);
            uint64_t at = slot_of(t) + 8 + (unsigned)(me + t + (int)r) % 8;
            CHECK_OK(canopy_get(dev, t, from, at, len));
        }
        CHECK_OK(canopy_quiet(dev, TEST_TIMEOUT_NS));
        for (int t = 0; t < n; ++t) {
            uint64_t from = src_off + 1 + 2 * ((unsigned)(t + (int)r) % 4);
            uint64_t at = slot_of(t) + 8 + (unsigned)(me + t + (int)r) % 8;
            check_got(win, t, from, at, len, "sizes");
            check_guard(win, slot_of(t), at, "sizes: before a slot");
            check_guard(win, at + len, slot_of(t) + slot_size, "sizes: after a slot");
        }
    }
}

/* ------------------------------------------------------------------ 2. storm */
struct op {
    int put, t;
    size_t len;
    uint64_t from, at; /* get: remote source, local destination; put: remote destination */
};

/* PE s's operations, the same on every PE. */
static void storm_ops(int s, struct op *ops)
{
    uint64_t seed = 0x5702 + (uint64_t)s * 7919, get_cursor = 0;
    uint64_t *put_cursor = calloc((size_t)n, sizeof *put_cursor);
    CHECK(put_cursor, "calloc");
    for (unsigned i = 0; i < STORM_OPS; ++i) {
        struct op *o = &ops[i];
        o->put = splitmix64(&seed) % 3 == 0;
        o->t = (int)(splitmix64(&seed) % (uint64_t)n);
        o->len = 1 + splitmix64(&seed) % STORM_MAX;
        if (o->put) {
            o->at = put_off + (uint64_t)s * PUT_PART + put_cursor[o->t] + 3;
            put_cursor[o->t] += o->len + 3;
            CHECK(put_cursor[o->t] <= PUT_PART, "storm: puts overflow a put area part");
        } else {
            o->from = src_off + splitmix64(&seed) % (src_size - o->len);
            o->at = slots_off + get_cursor + 3;
            get_cursor += o->len + 3;
            CHECK(get_cursor <= (uint64_t)n * slot_size, "storm: gets overflow the slots");
        }
    }
    free(put_cursor);
}

static void phase_storm(canopy_dev *dev, uint8_t *win)
{
    static struct op ops[STORM_OPS];
    uint8_t buf[STORM_MAX];
    memset(win + slots_off, GUARD, (size_t)n * slot_size);
    memset(win + put_off, GUARD, (size_t)n * PUT_PART);
    barrier(dev, win); /* every put area is guarded before anyone puts */
    storm_ops(me, ops);
    for (unsigned i = 0; i < STORM_OPS; ++i) {
        const struct op *o = &ops[i];
        if (o->put) {
            for (size_t j = 0; j < o->len; ++j) buf[j] = put_pattern(me, i, j);
            CHECK_OK(canopy_put(dev, o->t, o->at, buf, o->len, 0));
        } else {
            CHECK_OK(canopy_get(dev, o->t, o->from, o->at, o->len));
        }
    }
    CHECK_OK(canopy_quiet(dev, TEST_TIMEOUT_NS));
    barrier(dev, win); /* every put has landed */
    uint64_t got_end = slots_off;
    for (unsigned i = 0; i < STORM_OPS; ++i) {
        const struct op *o = &ops[i];
        if (o->put) continue;
        check_guard(win, got_end, o->at, "storm: between gets");
        check_got(win, o->t, o->from, o->at, o->len, "storm");
        got_end = o->at + o->len;
    }
    check_guard(win, got_end, slots_off + (uint64_t)n * slot_size, "storm: after the gets");
    for (int s = 0; s < n; ++s) {
        storm_ops(s, ops);
        uint64_t end = put_off + (uint64_t)s * PUT_PART;
        for (unsigned i = 0; i < STORM_OPS; ++i) {
            const struct op *o = &ops[i];
            if (!o->put || o->t != me) continue;
            check_guard(win, end, o->at, "storm: between puts");
            for (size_t j = 0; j < o->len; ++j)
                CHECK(win[o->at + j] == put_pattern(s, i, j), "storm: put %u from node %d: byte %zu is 0x%02x", i, s, j,
                      win[o->at + j]);
            end = o->at + o->len;
        }
        check_guard(win, end, put_off + (uint64_t)(s + 1) * PUT_PART, "storm: after the puts");
    }
}

/* ------------------------------------------------------------------ 3. busy target */
static uint8_t busy_pattern(unsigned i, size_t j) { return (uint8_t)(i * 53 + j * 5 + (j >> 7)); }

static void phase_busy(canopy_dev *dev, uint8_t *win)
{
    const int busy = n - 1;
    const unsigned nputs = (unsigned)n * 8 * BUSY_ROUNDS;
    const size_t busy_len = max_bytes / 8;
    memset(win + slots_off, GUARD, (size_t)n * slot_size);
    memset(win + put_off, GUARD, (size_t)n * PUT_PART);
    barrier(dev, win);
    if (me == busy) {
        uint8_t buf[BUSY_BYTES];
        for (unsigned i = 0; i < nputs; ++i) {
            for (size_t j = 0; j < BUSY_BYTES; ++j) buf[j] = busy_pattern(i, j);
            uint64_t at = put_off + (uint64_t)busy * PUT_PART + (i / (unsigned)n) % 8 * BUSY_BYTES;
            CHECK_OK(canopy_put(dev, (int)(i % (unsigned)n), at, buf, BUSY_BYTES, 0));
        }
    } else {
        for (int k = 0; k < 2; ++k) CHECK_OK(canopy_get(dev, busy, src_off + 3 + (unsigned)k, slot_of(k) + 8 + (unsigned)k, busy_len));
    }
    CHECK_OK(canopy_quiet(dev, TEST_TIMEOUT_NS));
    barrier(dev, win);
    if (me != busy) {
        for (int k = 0; k < 2; ++k) {
            check_got(win, busy, src_off + 3 + (unsigned)k, slot_of(k) + 8 + (unsigned)k, busy_len, "busy target");
            check_guard(win, slot_of(k), slot_of(k) + 8 + (unsigned)k, "busy target: before a slot");
            check_guard(win, slot_of(k) + 8 + (unsigned)k + busy_len, slot_of(k) + slot_size, "busy target: after a slot");
        }
    }
    /* Sub-slot k of this node's part from the busy node holds its last put there. */
    for (unsigned k = 0; k < 8; ++k) {
        unsigned last = (unsigned)me + (unsigned)n * (k + 8 * (BUSY_ROUNDS - 1));
        const uint8_t *p = win + put_off + (uint64_t)busy * PUT_PART + k * BUSY_BYTES;
        for (size_t j = 0; j < BUSY_BYTES; ++j)
            CHECK(p[j] == busy_pattern(last, j), "busy target: its put %u: byte %zu is 0x%02x", last, j, p[j]);
    }
}

/* ------------------------------------------------------------------ 4. refused */
static void phase_refused(canopy_dev *dev, uint8_t *win)
{
    const int t = (me + 1) % n;
    const uint64_t end = win_size; /* every window has the same size */
    const uint64_t bounds0 = csr(dev, CANOPY_REG_ERR_GET_BOUNDS), failed0 = csr(dev, CANOPY_REG_GETS_FAILED);
    memset(win + slots_off, GUARD, (size_t)n * slot_size);
    barrier(dev, win);
    CHECK_OK(canopy_get(dev, t, end - 4, slot_of(0) + 8, 16));                 /* straddles the end */
    CHECK_OK(canopy_get(dev, t, end + 1000, slot_of(1) + 8, 1));               /* wholly past it */
    CHECK_OK(canopy_get(dev, t, end - max_bytes - 50, slot_of(2), max_bytes + 100)); /* second part past it */
    CHECK_RC(canopy_quiet(dev, TEST_TIMEOUT_NS), CANOPY_EREFUSED);
    CHECK_OK(canopy_quiet(dev, TEST_TIMEOUT_NS));
    barrier(dev, win); /* everyone's refusals are counted */
    check_guard(win, slot_of(0), slot_of(2), "refused: a refused get wrote");
    check_got(win, t, end - max_bytes - 50, slot_of(2), max_bytes, "refused: the accepted part");
    check_guard(win, slot_of(2) + max_bytes, slot_of(2) + slot_size, "refused: past the accepted part");
    struct canopy_counters after = counters(dev);
    CHECK(after.err_get_bounds == bounds0 + 3, "ERR_GET_BOUNDS %llu -> %llu, expected +3", (unsigned long long)bounds0,
          (unsigned long long)after.err_get_bounds);
    CHECK(after.gets_failed == failed0 + 3, "GETS_FAILED %llu -> %llu, expected +3", (unsigned long long)failed0,
          (unsigned long long)after.gets_failed);
    CHECK(after.err_get_dropped == 0, "ERR_GET_DROPPED %llu before any raw GET", (unsigned long long)after.err_get_dropped);
    CHECK(after.gets_done >= after.gets_failed && after.gets_served > 0 && after.get_resps > after.gets_done,
          "get counters: %llu done, %llu failed, %llu served, %llu responses", (unsigned long long)after.gets_done,
          (unsigned long long)after.gets_failed, (unsigned long long)after.gets_served,
          (unsigned long long)after.get_resps);
}

/* ------------------------------------------------------------------ 5. raw */
static void raw_get(canopy_dev *dev, int t, uint64_t src_coords, uint64_t from, uint64_t at, size_t len, unsigned hdr_len)
{
    unsigned c[4];
    uint64_t pkt[4] = {0, 0, 0, 0};
    CHECK_OK(canopy_coords(dev, t, c));
    canopy_hdr_set_ptype(pkt, CANOPY_PKT_GET);
    canopy_hdr_set_dst(pkt, c[0] | c[1] << 4 | c[2] << 8 | c[3] << 12);
    canopy_hdr_set_src(pkt, src_coords);
    canopy_hdr_set_len(pkt, hdr_len);
    canopy_hdr_set_offset(pkt, from);
    pkt[2] = canopy_getreq_set_get_len(canopy_getreq_set_reply_offset(0, at), len);
    CHECK_OK(canopy_raw_inject(dev, pkt, 2 + hdr_len / 8, CANOPY_VC_P2P_LO));
}

static void phase_raw(canopy_dev *dev, uint8_t *win)
{
    /* Even PEs attack the next PE; the others check afterwards that every server, attacked
     * or not, still answers gets (an attacker's own accounting is off: it never calls
     * canopy_get again). */
    const int t = (me + 1) % n, attacker = me % 2 == 0, attacked = ((me + n - 1) % n) % 2 == 0;
    struct canopy_caps caps;
    CHECK_OK(canopy_caps(dev, &caps));
    CHECK(caps.get_slots >= 1 && caps.get_slots < 5, "CAPS_GET.slots %u", caps.get_slots);
    unsigned c[4], outside = 0;
    CHECK_OK(canopy_coords(dev, me, c));
    for (int k = 0; k < n; ++k) { /* one past the largest X: outside the torus */
        unsigned ck[4];
        CHECK_OK(canopy_coords(dev, k, ck));
        if (ck[0] + 1 > outside) outside = ck[0] + 1;
    }
    const uint64_t mine = c[0] | c[1] << 4 | c[2] << 8 | c[3] << 12;
    const size_t raw_len = max_bytes / 8; /* long enough to be held while the others arrive */
    const uint64_t dropped0 = csr(dev, CANOPY_REG_ERR_GET_DROPPED), bounds0 = csr(dev, CANOPY_REG_ERR_GET_BOUNDS);
    const uint64_t failed0 = csr(dev, CANOPY_REG_GETS_FAILED), done0 = csr(dev, CANOPY_REG_GETS_DONE);
    memset(win + slots_off, GUARD, (size_t)n * slot_size);
    barrier(dev, win);
    if (attacker) {
        for (int k = 0; k < 5; ++k) raw_get(dev, t, mine, src_off + (unsigned)k, slot_of(k) + 8, raw_len, 8);
        raw_get(dev, t, mine, src_off, slot_of(5) + 8, 8, 16);   /* len 16: malformed */
        raw_get(dev, t, outside, src_off, slot_of(5) + 8, 8, 8); /* source outside the torus */
        /* The held ones complete; the driver does not know them, so watch the counter. */
        for (int i = 0;; ++i) {
            uint64_t done = csr(dev, CANOPY_REG_GETS_DONE);
            if (done == done0 + caps.get_slots) break;
            CHECK(done < done0 + caps.get_slots && i < 100000, "GETS_DONE %llu, expected %llu", (unsigned long long)done,
                  (unsigned long long)(done0 + caps.get_slots));
        }
    }
    barrier(dev, win); /* every raw GET has been answered or dropped */
    if (attacker) {
        for (int k = 0; k < 5; ++k) {
            if (k < (int)caps.get_slots) {
                check_got(win, t, src_off + (unsigned)k, slot_of(k) + 8, raw_len, "raw: a held GET");
                check_guard(win, slot_of(k), slot_of(k) + 8, "raw: before a held GET");
                check_guard(win, slot_of(k) + 8 + raw_len, slot_of(k + 1), "raw: after a held GET");
            } else {
                check_guard(win, slot_of(k), slot_of(k + 1), "raw: a dropped GET wrote");
            }
        }
        check_guard(win, slot_of(5), slot_of(6), "raw: a malformed GET was answered");
    }
    const uint64_t dropped = attacked ? 5 - caps.get_slots + 2 : 0, dropped1 = csr(dev, CANOPY_REG_ERR_GET_DROPPED);
    CHECK(dropped1 == dropped0 + dropped, "ERR_GET_DROPPED %llu -> %llu, expected +%llu", (unsigned long long)dropped0,
          (unsigned long long)dropped1, (unsigned long long)dropped);
    CHECK(csr(dev, CANOPY_REG_ERR_GET_BOUNDS) == bounds0 && csr(dev, CANOPY_REG_GETS_FAILED) == failed0,
          "raw GETs counted as refused");
    if (!attacker) {
        memset(win + slots_off, GUARD, (size_t)n * slot_size);
        for (int k = 0; k < n; ++k) CHECK_OK(canopy_get(dev, k, src_off + 5, slot_of(k) + 1, 777));
        CHECK_OK(canopy_quiet(dev, TEST_TIMEOUT_NS));
        for (int k = 0; k < n; ++k) check_got(win, k, src_off + 5, slot_of(k) + 1, 777, "after the raw GETs");
    }
}

int main(int argc, char **argv)
{
    max_bytes = argc > 1 ? strtoul(argv[1], NULL, 0) : 65536;
    canopy_dev *dev = test_open();
    n = canopy_num_nodes(dev);
    me = canopy_my_node(dev);
    CHECK(n >= 2 && max_bytes >= 1024, "needs two nodes and max_bytes >= 1024");
    slot_size = max_bytes + 64;
    src_size = max_bytes + 256;
    flag_off = 0;
    put_off = 8u * (uint64_t)n;
    slots_off = put_off + (uint64_t)n * PUT_PART;
    src_off = slots_off + (uint64_t)n * slot_size;
    win_size = (size_t)(src_off + src_size);
    uint8_t *win;
    canopy_dev *closed = NULL;
    CHECK_RC(canopy_get(closed, 0, 0, 0, 8), CANOPY_ECLOSED);
    CHECK_RC(canopy_get(dev, 0, 0, 0, 8), CANOPY_ENOTREG);
    CHECK_OK(canopy_window(dev, win_size, (void **)&win));
    CHECK_RC(canopy_get(dev, -1, 0, 0, 8), CANOPY_ERANGE);
    CHECK_RC(canopy_get(dev, n, 0, 0, 8), CANOPY_ERANGE);
    CHECK_RC(canopy_get(dev, 0, 0, win_size - 7, 8), CANOPY_ERANGE);
    CHECK_RC(canopy_get(dev, 0, 0, UINT64_MAX - 3, 8), CANOPY_ERANGE);
    CHECK_RC(canopy_get(dev, 0, (uint64_t)1 << 40, 0, 8), CANOPY_ERANGE);
    CHECK_RC(canopy_get(dev, 0, ((uint64_t)1 << 40) - 4, 0, 8), CANOPY_ERANGE);
    CHECK_OK(canopy_get(dev, 0, 0, win_size, 0));
    for (uint64_t j = 0; j < src_size; ++j) win[src_off + j] = src_pattern(me, j);
    test_hello(dev, flag_off, 1);
    barrier(dev, win); /* every source area is filled */

    uint64_t t0 = canopy_cycles(dev);
    phase_sizes(dev, win);
    uint64_t t1 = canopy_cycles(dev);
    phase_storm(dev, win);
    uint64_t t2 = canopy_cycles(dev);
    phase_busy(dev, win);
    uint64_t t3 = canopy_cycles(dev);
    phase_refused(dev, win);
    uint64_t t4 = canopy_cycles(dev);
    if (n >= 6) phase_raw(dev, win);
    barrier(dev, win);
    if (me == 0)
        printf("get: %d PEs, all pairs 1..%zu B, %d-op storm, busy target, refusals and raw GETs verified "
               "(cycles: sizes %llu, storm %llu, busy %llu, refused %llu, raw %llu)\n",
               n, max_bytes, STORM_OPS, (unsigned long long)(t1 - t0), (unsigned long long)(t2 - t1),
               (unsigned long long)(t3 - t2), (unsigned long long)(t4 - t3),
               (unsigned long long)(canopy_cycles(dev) - t4));
    CHECK_OK(canopy_close(&dev));
    return 0;
}
