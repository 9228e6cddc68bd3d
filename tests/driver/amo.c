/* amo.c: remote atomics (canopy_amo) served by the targets' host interfaces.
 *
 *   canopy-run -n N --torus T amo [rounds]
 *
 * Phases, flag barriers between them:
 *  0. arguments: before the window a fetching atomic is ENOTREG; a node out of range, an
 *     offset past 2^40 or a reply range outside the window ERANGE; a size other than 4 or
 *     8, a misaligned offset or an unknown operation EINVAL; CAPS_GET.amo_ops names all
 *     seven operations.
 *  1. every operation at both sizes, uncontended: each PE initializes its own objects at
 *     the next PE (puts), does one atomic on each (a CSWAP that matches and one that does
 *     not, fetching and not), checks every old value, then the target checks every final
 *     value against a host reference; 4-byte objects next to each other change only
 *     their own 4 bytes.
 *  2. contention, counts exact: every PE does `rounds` fetch-adds of 1 on one 8-byte and
 *     one 4-byte counter at every PE (itself included), interleaved over the targets,
 *     then `rounds` / 4 increments by compare-and-swap loops and an OR of its bit and two
 *     XORs of a pattern; every counter ends at exactly n * rounds (+ n * rounds / 4), the
 *     OR word has every PE's bit, the XOR word is 0, and the values each PE fetched from
 *     PE 0's counter, gathered at PE 0, are exactly 0 .. n * rounds - 1, each once.
 *  3. order: a PE puts 4 KiB to the next PE, then adds 1 to a flag there with a
 *     non-fetching atomic, several times; the target, once the flag reaches k, finds block
 *     k complete (an atomic waits for the DMA writes that arrived before it).
 *  4. refusals: an atomic past the next PE's window: quiet reports CANOPY_EREFUSED, the
 *     next quiet CANOPY_OK, nothing written. Raw atomics (canopy_raw.h) from PE 0 to PE 1:
 *     a misaligned object, a size of 2, an unknown operation (refused: one FAILED
 *     response each, ERR_GET_BOUNDS), a GET of len 16 (dropped: ERR_GET_DROPPED); PE 1's
 *     object is unchanged and AMOS_SERVED counts only the real ones. PE 0 makes no more
 *     gets afterwards (its accounting never saw the raw ones).
 */
#include <string.h>

#include "canopy_packet.h"
#include "canopy_raw.h"
#include "canopy_regs.h"
#include "test_util.h"

enum { NCASES = 16, BLOCK = 4096, ORDER_ROUNDS = 6 };

static int n, me;
static unsigned rounds = 40;
static uint8_t *win;
static size_t win_size;
/* Window layout (offsets). */
static uint64_t flag_off, case_off, reply_off, cnt_off, fetched_off, gather_off, order_off, oflag_off, raw_off;
static uint64_t barrier_value = 1;

static void barrier(canopy_dev *dev) { test_flag_barrier(dev, win, flag_off, ++barrier_value); }

static uint64_t csr(canopy_dev *dev, uint32_t off)
{
    uint64_t v;
    CHECK_OK(canopy_raw_mmio_read(dev, off, &v));
    return v;
}

/* The cases of phase 1: one object each at the target, 8 bytes apart (4-byte cases use
 * the low half; the high half holds a guard that must survive). */
struct amo_case {
    unsigned op, size;
    uint64_t init, operand, compare;
    int fetch;
};
static struct amo_case cases[NCASES];

static uint64_t apply(const struct amo_case *c, uint64_t old)
{
    const uint64_t m = c->size == 4 ? 0xffffffffull : ~0ull;
    const uint64_t o = c->operand & m;
    switch (c->op) {
    case CANOPY_AMO_FETCH: return old;
    case CANOPY_AMO_SET: return o;
    case CANOPY_AMO_CSWAP: return old == (c->compare & m) ? o : old;
    case CANOPY_AMO_ADD: return (old + o) & m;
    case CANOPY_AMO_AND: return old & o;
    case CANOPY_AMO_OR: return old | o;
    case CANOPY_AMO_XOR: return old ^ o;
    default: return old;
    }
}

static void make_cases(int src)
{
    const uint64_t s = 0x1000000000000ull * (uint64_t)(src + 1);
    const unsigned ops[8] = {CANOPY_AMO_FETCH, CANOPY_AMO_SET, CANOPY_AMO_CSWAP, CANOPY_AMO_CSWAP,
                             CANOPY_AMO_ADD,   CANOPY_AMO_AND, CANOPY_AMO_OR,    CANOPY_AMO_XOR};
    for (int i = 0; i < NCASES; ++i) {
        struct amo_case *c = &cases[i];
        c->op = ops[i % 8];
        c->size = i < 8 ? 8 : 4;
        c->init = (0xF0E1D2C3B4A59687ull ^ s) + 0x111111111ull * (uint64_t)i;
        c->operand = 0x8899AABBCCDDEEFFull + 0x1234567ull * (uint64_t)(i + src);
        if (c->size == 4) c->init &= 0xffffffffull;
        /* case 2 (and 10): a CSWAP that matches; case 3 (and 11): one that does not. */
        c->compare = i % 8 == 2 ? c->init : c->init + 1;
        if (c->size == 4 && i % 8 == 2) c->compare |= 0xdead000000000000ull; /* high bits ignored */
        c->fetch = i % 4 != 1;
    }
}

static void phase_args(canopy_dev *dev)
{
    struct canopy_caps caps;
    CHECK_OK(canopy_caps(dev, &caps));
    CHECK(caps.amo_ops == 0x7f, "CAPS_GET.amo_ops 0x%x, expected 0x7f", caps.amo_ops);
    CHECK(caps.get_slots >= 1, "no get slots");
    CHECK_RC(canopy_amo(dev, 0, 0, CANOPY_AMO_ADD, 8, 1, 0, 0), CANOPY_ENOTREG);
    CHECK_RC(canopy_amo(dev, n, 0, CANOPY_AMO_ADD, 8, 1, 0, CANOPY_AMO_NO_REPLY), CANOPY_ERANGE);
    CHECK_RC(canopy_amo(dev, -1, 0, CANOPY_AMO_ADD, 8, 1, 0, CANOPY_AMO_NO_REPLY), CANOPY_ERANGE);
    CHECK_RC(canopy_amo(dev, 0, 0, CANOPY_AMO_ADD, 2, 1, 0, CANOPY_AMO_NO_REPLY), CANOPY_EINVAL);
    CHECK_RC(canopy_amo(dev, 0, 4, CANOPY_AMO_ADD, 8, 1, 0, CANOPY_AMO_NO_REPLY), CANOPY_EINVAL);
    CHECK_RC(canopy_amo(dev, 0, 2, CANOPY_AMO_ADD, 4, 1, 0, CANOPY_AMO_NO_REPLY), CANOPY_EINVAL);
    CHECK_RC(canopy_amo(dev, 0, 0, 7, 8, 1, 0, CANOPY_AMO_NO_REPLY), CANOPY_EINVAL);
    CHECK_RC(canopy_amo(dev, 0, (uint64_t)1 << 40, CANOPY_AMO_ADD, 8, 1, 0, CANOPY_AMO_NO_REPLY), CANOPY_ERANGE);
    uint64_t old = 0;
    CHECK_RC(canopy_amo_fetch(dev, 0, 0, CANOPY_AMO_ADD, 8, 1, 0, CANOPY_AMO_NO_REPLY, &old, TEST_TIMEOUT_NS),
             CANOPY_EINVAL);
    canopy_dev *closed = NULL;
    CHECK_RC(canopy_amo(closed, 0, 0, CANOPY_AMO_ADD, 8, 1, 0, CANOPY_AMO_NO_REPLY), CANOPY_ECLOSED);
    CHECK_RC(canopy_amo_wait(closed, 0, 1), CANOPY_ECLOSED);
}

static void phase_cases(canopy_dev *dev)
{
    const int t = (me + 1) % n;
    make_cases(me);
    /* My objects at t: slot me of t's case area; 4-byte cases get a guard in the high half. */
    uint64_t init[NCASES];
    for (int i = 0; i < NCASES; ++i)
        init[i] = cases[i].size == 8 ? cases[i].init : cases[i].init | (0xA5A5A5A5ull + (uint64_t)i) << 32;
    const uint64_t base = case_off + (uint64_t)me * NCASES * 8;
    CHECK_OK(canopy_put(dev, t, base, init, sizeof init, 0));
    CHECK_OK(canopy_quiet(dev, TEST_TIMEOUT_NS));
    memset(win + reply_off, 0x5c, NCASES * 8);
    for (int i = 0; i < NCASES; ++i) {
        const struct amo_case *c = &cases[i];
        CHECK_OK(canopy_amo(dev, t, base + 8u * (unsigned)i, c->op, c->size, c->operand, c->compare,
                            c->fetch ? reply_off + 8u * (unsigned)i : CANOPY_AMO_NO_REPLY));
    }
    CHECK_OK(canopy_quiet(dev, TEST_TIMEOUT_NS));
    for (int i = 0; i < NCASES; ++i) {
        const struct amo_case *c = &cases[i];
        uint64_t got;
        memcpy(&got, win + reply_off + 8u * (unsigned)i, 8);
        const uint64_t want = !c->fetch ? 0x5c5c5c5c5c5c5c5cull
                              : c->size == 8 ? c->init : (c->init | 0x5c5c5c5c00000000ull);
        CHECK(got == want, "case %d (op %u, size %u): reply 0x%016llx, expected 0x%016llx", i, c->op, c->size,
              (unsigned long long)got, (unsigned long long)want);
    }
    /* Blocking form, on case 4 (an add): the old value is case 4's new one. */
    uint64_t old = 0;
    CHECK_OK(canopy_amo_fetch(dev, t, base + 32, CANOPY_AMO_FETCH, 8, 0, 0, reply_off, &old, TEST_TIMEOUT_NS));
    CHECK(old == apply(&cases[4], cases[4].init), "fetch after add: 0x%llx", (unsigned long long)old);
    barrier(dev);
    /* As the target: the source me-1's final values. */
    const int s = (me + n - 1) % n;
    make_cases(s);
    for (int i = 0; i < NCASES; ++i) {
        const struct amo_case *c = &cases[i];
        uint64_t got;
        memcpy(&got, win + case_off + ((uint64_t)s * NCASES + (uint64_t)i) * 8, 8);
        uint64_t want = apply(c, c->init);
        if (c->size == 4) want |= (0xA5A5A5A5ull + (uint64_t)i) << 32;
        CHECK(got == want, "from PE %d, case %d (op %u, size %u): 0x%016llx, expected 0x%016llx", s, i, c->op,
              c->size, (unsigned long long)got, (unsigned long long)want);
    }
    barrier(dev);
}

/* Counter words at every PE: [0] 8-byte fetch-add, [1] 4-byte fetch-add (low half), [2]
 * cswap-incremented, [3] OR of every PE's bit, [4] XOR twice. */
static void phase_contention(canopy_dev *dev)
{
    uint64_t *fetched = (uint64_t *)(win + fetched_off);
    unsigned nf = 0;
    for (unsigned r = 0; r < rounds; ++r) {
        for (int k = 0; k < n; ++k) {
            const int t = (me + k) % n;
            uint64_t old;
            CHECK_OK(canopy_amo_fetch(dev, t, cnt_off, CANOPY_AMO_ADD, 8, 1, 0, reply_off, &old, TEST_TIMEOUT_NS));
            CHECK(old < (uint64_t)n * rounds, "fetched %llu from PE %d's counter", (unsigned long long)old, t);
            if (t == 0) fetched[nf++] = old;
            CHECK_OK(canopy_amo(dev, t, cnt_off + 8, CANOPY_AMO_ADD, 4, 1, 0, CANOPY_AMO_NO_REPLY));
        }
    }
    for (unsigned r = 0; r < rounds / 4; ++r) {
        const int t = (me + (int)r) % n;
        uint64_t cur = 0, old;
        for (int tries = 0;; ++tries) {
            CHECK(tries < 10000, "cswap loop at PE %d does not end", t);
            CHECK_OK(canopy_amo_fetch(dev, t, cnt_off + 16, CANOPY_AMO_CSWAP, 8, cur + 1, cur, reply_off, &old,
                                      TEST_TIMEOUT_NS));
            if (old == cur) break;
            cur = old;
        }
    }
    for (int t = 0; t < n; ++t) {
        CHECK_OK(canopy_amo(dev, t, cnt_off + 24, CANOPY_AMO_OR, 8, 1ull << me, 0, CANOPY_AMO_NO_REPLY));
        CHECK_OK(canopy_amo(dev, t, cnt_off + 32, CANOPY_AMO_XOR, 4, 0x9E3779B9u * (unsigned)(me + 1), 0,
                            CANOPY_AMO_NO_REPLY));
        CHECK_OK(canopy_amo(dev, t, cnt_off + 32, CANOPY_AMO_XOR, 4, 0x9E3779B9u * (unsigned)(me + 1), 0,
                            CANOPY_AMO_NO_REPLY));
    }
    CHECK_OK(canopy_quiet(dev, TEST_TIMEOUT_NS));
    CHECK(nf == rounds, "%u values fetched from PE 0, expected %u", nf, rounds);
    /* Gather what every PE fetched from PE 0 at PE 0. */
    CHECK_OK(canopy_put(dev, 0, gather_off + (uint64_t)me * rounds * 8, fetched, rounds * 8, 0));
    barrier(dev);
    const uint64_t *c = (const uint64_t *)(win + cnt_off);
    const uint64_t total = (uint64_t)n * rounds;
    /* Every PE's rounds/4 cswap increments went to PEs me, me+1, ...: count those aimed here. */
    uint64_t cswaps = 0;
    for (int s = 0; s < n; ++s)
        for (unsigned r = 0; r < rounds / 4; ++r) cswaps += (s + (int)r) % n == me;
    CHECK(c[0] == total, "8-byte counter %llu, expected %llu", (unsigned long long)c[0], (unsigned long long)total);
    CHECK(c[1] == total, "4-byte counter word 0x%llx, expected %llu (high half untouched)", (unsigned long long)c[1],
          (unsigned long long)total);
    CHECK(c[2] == cswaps, "cswap counter %llu, expected %llu", (unsigned long long)c[2], (unsigned long long)cswaps);
    CHECK(c[3] == (n == 64 ? ~0ull : (1ull << n) - 1), "OR word 0x%llx", (unsigned long long)c[3]);
    CHECK(c[4] == 0, "XOR word 0x%llx, expected 0", (unsigned long long)c[4]);
    if (me == 0) {
        const uint64_t *g = (const uint64_t *)(win + gather_off);
        uint8_t *seen = calloc(total, 1);
        CHECK(seen, "out of memory");
        for (uint64_t i = 0; i < total; ++i) {
            CHECK(g[i] < total, "PE %d fetched %llu", (int)(i / rounds), (unsigned long long)g[i]);
            CHECK(!seen[g[i]], "value %llu fetched twice", (unsigned long long)g[i]);
            seen[g[i]] = 1;
        }
        free(seen);
    }
    barrier(dev);
}

static uint8_t order_byte(int s, unsigned k, unsigned j) { return (uint8_t)(s * 31 + k * 7 + j * 13 + (j >> 8)); }

static void phase_order(canopy_dev *dev)
{
    const int t = (me + 1) % n, s = (me + n - 1) % n;
    uint8_t block[BLOCK];
    for (unsigned k = 1; k <= ORDER_ROUNDS; ++k) {
        for (unsigned j = 0; j < BLOCK; ++j) block[j] = order_byte(me, k, j);
        CHECK_OK(canopy_put(dev, t, order_off + (uint64_t)(k - 1) * BLOCK, block, BLOCK, 0));
        CHECK_OK(canopy_amo(dev, t, oflag_off, CANOPY_AMO_ADD, 8, 1, 0, CANOPY_AMO_NO_REPLY));
    }
    volatile uint64_t *flag = (volatile uint64_t *)(win + oflag_off);
    for (unsigned k = 1; k <= ORDER_ROUNDS; ++k) {
        CHECK_OK(canopy_wait_u64(dev, flag, CANOPY_CMP_GE, k, TEST_TIMEOUT_NS));
        for (unsigned j = 0; j < BLOCK; ++j)
            CHECK(win[order_off + (uint64_t)(k - 1) * BLOCK + j] == order_byte(s, k, j),
                  "flag at %llu but block %u byte %u not yet there", (unsigned long long)*flag, k, j);
    }
    CHECK_OK(canopy_quiet(dev, TEST_TIMEOUT_NS));
    barrier(dev);
}

static void raw_amo(canopy_dev *dev, int node, uint64_t offset, uint64_t len_field, unsigned op, unsigned hdr_len)
{
    uint64_t f[5] = {0, 0, 0, 0, 0};
    unsigned coords[4];
    CHECK_OK(canopy_coords(dev, node, coords));
    uint64_t dst = 0, src = 0;
    unsigned mine[4];
    CHECK_OK(canopy_coords(dev, me, mine));
    for (unsigned d = 0; d < 4; ++d) dst |= (uint64_t)coords[d] << (4 * d), src |= (uint64_t)mine[d] << (4 * d);
    canopy_hdr_set_ptype(f, CANOPY_PKT_GET);
    canopy_hdr_set_dst(f, dst);
    canopy_hdr_set_src(f, src);
    canopy_hdr_set_len(f, hdr_len);
    canopy_hdr_set_offset(f, offset);
    f[2] = canopy_getreq_set_amo_fetch(
        canopy_getreq_set_amo_op(canopy_getreq_set_get_len(canopy_getreq_set_reply_offset(0, reply_off), len_field), op),
        1);
    f[3] = 0x7777777777777777ull;
    CHECK_OK(canopy_raw_inject(dev, f, 2 + hdr_len / 8, CANOPY_VC_P2P_LO));
}

static void phase_refused(canopy_dev *dev)
{
    const int t = (me + 1) % n;
    /* Past the next PE's window (every window has the same size). */
    CHECK_OK(canopy_amo(dev, t, win_size, CANOPY_AMO_ADD, 8, 1, 0, reply_off));
    CHECK_RC(canopy_amo(dev, t, win_size - 4, CANOPY_AMO_ADD, 8, 1, 0, CANOPY_AMO_NO_REPLY), CANOPY_EINVAL);
    CHECK_RC(canopy_quiet(dev, TEST_TIMEOUT_NS), CANOPY_EREFUSED);
    CHECK_OK(canopy_quiet(dev, TEST_TIMEOUT_NS));
    barrier(dev);
    if (n < 2) return;
    const uint64_t bounds0 = csr(dev, CANOPY_REG_ERR_GET_BOUNDS), dropped0 = csr(dev, CANOPY_REG_ERR_GET_DROPPED);
    const uint64_t served0 = csr(dev, CANOPY_REG_AMOS_SERVED);
    uint64_t *obj = (uint64_t *)(win + raw_off);
    if (me == 1) {
        obj[0] = 0x0123456789abcdefull;
        obj[1] = 0xfedcba9876543210ull;
    }
    barrier(dev);
    if (me == 0) {
        const uint64_t done0 = csr(dev, CANOPY_REG_GETS_DONE), failed0 = csr(dev, CANOPY_REG_GETS_FAILED);
        raw_amo(dev, 1, raw_off + 4, 8, CANOPY_AMO_ADD, 24);   /* misaligned */
        raw_amo(dev, 1, raw_off, 2, CANOPY_AMO_ADD, 24);       /* size 2 */
        raw_amo(dev, 1, raw_off, 8, 9, 24);                    /* unknown operation */
        raw_amo(dev, 1, raw_off, 8, CANOPY_AMO_ADD, 16);       /* malformed: len 16 */
        raw_amo(dev, 1, raw_off + 8, 8, CANOPY_AMO_XOR, 24);   /* a real one */
        /* Four answered (three FAILED), the malformed one never. */
        for (int i = 0; csr(dev, CANOPY_REG_GETS_DONE) < done0 + 4; ++i) {
            CHECK(i < 1000, "raw atomics not answered: GETS_DONE %llu, expected %llu",
                  (unsigned long long)csr(dev, CANOPY_REG_GETS_DONE), (unsigned long long)(done0 + 4));
            const int rc = canopy_wait_any(dev, 20000);
            CHECK(rc == CANOPY_OK || rc == CANOPY_ETIMEDOUT, "canopy_wait_any: %s", canopy_strerror(rc));
        }
        CHECK(csr(dev, CANOPY_REG_GETS_FAILED) == failed0 + 3, "GETS_FAILED %llu, expected %llu",
              (unsigned long long)csr(dev, CANOPY_REG_GETS_FAILED), (unsigned long long)(failed0 + 3));
        /* The refusals reach quiet once the writeback block has them. */
        int rc = CANOPY_OK;
        for (int i = 0; i < 100 && (rc = canopy_quiet(dev, TEST_TIMEOUT_NS)) == CANOPY_OK; ++i)
            canopy_wait_any(dev, 1000);
        CHECK_RC(rc, CANOPY_EREFUSED);
    }
    barrier(dev);
    if (me == 1) {
        CHECK(csr(dev, CANOPY_REG_ERR_GET_BOUNDS) == bounds0 + 3, "ERR_GET_BOUNDS grew by %llu, expected 3",
              (unsigned long long)(csr(dev, CANOPY_REG_ERR_GET_BOUNDS) - bounds0));
        CHECK(csr(dev, CANOPY_REG_ERR_GET_DROPPED) == dropped0 + 1, "ERR_GET_DROPPED grew by %llu, expected 1",
              (unsigned long long)(csr(dev, CANOPY_REG_ERR_GET_DROPPED) - dropped0));
        CHECK(csr(dev, CANOPY_REG_AMOS_SERVED) == served0 + 1, "AMOS_SERVED grew by %llu, expected 1",
              (unsigned long long)(csr(dev, CANOPY_REG_AMOS_SERVED) - served0));
        CHECK(obj[0] == 0x0123456789abcdefull, "refused atomics changed the object: 0x%llx",
              (unsigned long long)obj[0]);
        CHECK(obj[1] == (0xfedcba9876543210ull ^ 0x7777777777777777ull), "the real one: 0x%llx",
              (unsigned long long)obj[1]);
    }
    if (me == 0) {
        uint64_t got;
        memcpy(&got, win + reply_off, 8);
        CHECK(got == 0xfedcba9876543210ull, "raw XOR's old value 0x%llx", (unsigned long long)got);
    }
}

int main(int argc, char **argv)
{
    if (argc > 1) rounds = (unsigned)strtoul(argv[1], NULL, 0);
    if (rounds < 4) rounds = 4;
    canopy_dev *dev = test_open();
    n = canopy_num_nodes(dev);
    me = canopy_my_node(dev);
    phase_args(dev);

    flag_off = 0;
    case_off = flag_off + 8u * (unsigned)n;
    reply_off = case_off + (uint64_t)n * NCASES * 8;
    cnt_off = reply_off + NCASES * 8;
    fetched_off = cnt_off + 64;
    gather_off = fetched_off + (uint64_t)rounds * 8;
    order_off = gather_off + (uint64_t)n * rounds * 8;
    oflag_off = order_off + (uint64_t)ORDER_ROUNDS * BLOCK;
    raw_off = oflag_off + 64;
    win_size = ((raw_off + 64) + 4095) & ~(size_t)4095;
    void *base;
    CHECK_OK(canopy_window(dev, win_size, &base));
    win = base;
    test_hello(dev, flag_off, 1);
    barrier(dev);

    if (getenv("AMO_DEBUG")) fprintf(stderr, "PE %d: cases\n", me);
    phase_cases(dev);
    if (getenv("AMO_DEBUG")) fprintf(stderr, "PE %d: contention\n", me);
    phase_contention(dev);
    if (getenv("AMO_DEBUG")) fprintf(stderr, "PE %d: order\n", me);
    phase_order(dev);
    if (getenv("AMO_DEBUG")) fprintf(stderr, "PE %d: refused\n", me);
    phase_refused(dev);
    barrier(dev);
    if (me == 0) printf("amo: %d nodes, %u rounds: all checks passed\n", n, rounds);
    return canopy_close(&dev) == CANOPY_OK ? 0 : 1;
}
