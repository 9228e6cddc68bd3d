/* amo.c: OpenSHMEM atomics, locks and signals, under contention from every PE.
 *
 *   shmem/oshrun -n 9 build/tests/shmem/amo [rounds]
 *
 *  1. every standard AMO type (int .. ptrdiff_t): every PE does `rounds` fetch_inc,
 *     fetch_add(3), inc, add(5) on one counter of that type at every PE (itself included;
 *     int and long: `rounds` times at every PE; the other types once at two PEs, itself
 *     and the next: the same code with another size and conversion),
 *     blocking, _nbi (into private memory and into symmetric memory), with the default
 *     context, a created one and a team context (team PE numbers), and through the C11
 *     generic macros with and without a context: every counter ends at exactly its sum; the
 *     values PE 0's counters returned, gathered, are all distinct (no two fetch-adds saw
 *     the same value).
 *  2. compare_swap: increments by compare-and-swap loops from every PE: exact count.
 *  3. extended types (float, double, and the integers): swaps of unique values into one
 *     word at PE 0 from every PE: the old values returned plus the final one are exactly
 *     the initial value and every value swapped in, once each (a swap loses nothing);
 *     set then fetch; fetch_nbi.
 *  4. bitwise types: every PE ORs its bit, XORs a pattern twice, ANDs away a bit of the
 *     next PE's: exact final words; fetch_and/or/xor return values are consistent.
 *  5. deprecated names (finc, fadd, inc, add, cswap, swap, fetch, set, shmem_swap) on one
 *     counter: exact.
 *  6. locks: every PE takes shmem_set_lock `rounds` times, and in its critical section
 *     reads a counter at PE 0 with a get, writes it back plus one with a put and quiets:
 *     the counter ends at exactly npes * rounds (mutual exclusion); the holders, recorded
 *     in order, show no starvation (between two turns of a PE at most 2 * npes other
 *     turns); shmem_test_lock spins also get their turns; two locks at once.
 *  7. signals: every PE sends blocks to every other PE with put_signal (SET and ADD,
 *     blocking and _nbi, typed and putmem); the target waits with shmem_signal_wait_until
 *     and finds every block complete the moment its signal shows (never the signal
 *     before the data); shmem_signal_fetch agrees.
 */
#include <string.h>

#include "shmem_test.h"

#define MAXPE 64
static int me, npes;
static int rounds = 6;
static shmem_ctx_t ctx_world, ctx_team;
static shmem_team_t rev_team; /* world in reverse order: team PE i is world PE npes-1-i */

static int rev(int pe) { return npes - 1 - pe; }

/* ------------------------------------------------------------------ 1. standard types */
#define STD_COUNTERS(T, N)                                                                 \
    static T cnt_##N;                                                                      \
    static T got0_##N[MAXPE * 64];                                                         \
    static T sym_fetch_##N[MAXPE];
SHMEMI_AMO_STD_TYPES(STD_COUNTERS)

#define STD_TEST(T, N)                                                                     \
    {                                                                                      \
        const int full = !strcmp(#N, "int") || !strcmp(#N, "long");                       \
        const int nr = full ? rounds : 1, nk = full ? npes : 2;                            \
        cnt_##N = 0;                                                                       \
        shmem_barrier_all();                                                               \
        T priv[MAXPE];                                                                     \
        int nf = 0;                                                                        \
        T mine0[256];                                                                      \
        for (int r = 0; r < nr; ++r) {                                                     \
            for (int k = 0; k < nk; ++k) {                                                 \
                const int t = (me + k) % npes;                                             \
                T a = shmem_##N##_atomic_fetch_inc(&cnt_##N, t);                           \
                T b = shmem_ctx_##N##_atomic_fetch_add(ctx_world, &cnt_##N, (T)3, t);      \
                if (t == 0) mine0[nf++] = a, mine0[nf++] = b;                              \
                shmem_##N##_atomic_inc(&cnt_##N, t);                                       \
                shmem_ctx_##N##_atomic_add(ctx_team, &cnt_##N, (T)5, rev(t));              \
                shmem_##N##_atomic_fetch_add_nbi(&priv[t], &cnt_##N, (T)7, t);            \
                shmem_ctx_##N##_atomic_fetch_inc_nbi(ctx_world, &sym_fetch_##N[t], &cnt_##N, t); \
                shmem_quiet();                                                             \
                CHECK(priv[t] < (T)(npes * rounds * 20), #N " fetch_add_nbi returned %lld", (long long)priv[t]); \
                CHECK(sym_fetch_##N[t] < (T)(npes * rounds * 20), #N " fetch_inc_nbi returned %lld", \
                      (long long)sym_fetch_##N[t]);                                        \
            }                                                                              \
        }                                                                                  \
        /* Gather what PE 0's counter returned at PE 0 (every slot: unused ones stay 0). */ \
        memset(got0_##N, 0, sizeof got0_##N);                                              \
        shmem_barrier_all();                                                               \
        if (nf) shmem_putmem(&got0_##N[me * 2 * nr], mine0, sizeof(T) * (size_t)nf, 0);    \
        shmem_barrier_all();                                                               \
        /* Every PE's counter gets nr rounds from the nk PEs that aim at it. */            \
        const T want = (T)(nk * nr * (1 + 3 + 1 + 5 + 7 + 1));                             \
        CHECK(cnt_##N == want, #N " counter %lld, expected %lld", (long long)cnt_##N, (long long)want); \
        if (me == 0) {                                                                     \
            /* Every fetch moves the counter on: no value returned twice. */              \
            int total = 0;                                                                 \
            T vals[MAXPE * 64];                                                            \
            for (int p = 0; p < npes; ++p)                                                 \
                if ((npes - p) % npes < nk) /* PE p aims at PE 0 */                        \
                    for (int i = 0; i < 2 * nr; ++i) vals[total++] = got0_##N[p * 2 * nr + i]; \
            for (int i = 0; i < total; ++i)                                                \
                for (int j = i + 1; j < total; ++j)                                        \
                    CHECK(vals[i] != vals[j], #N ": two fetching atomics returned %lld", (long long)vals[i]); \
        }                                                                                  \
        shmem_barrier_all();                                                               \
    }

/* The same through the C11 generic macros, with and without a context. */
static long gen_cnt;
static unsigned int gen_ucnt;
static void generic_test(void)
{
    gen_cnt = 0;
    gen_ucnt = 0;
    shmem_barrier_all();
    for (int t = 0; t < npes; ++t) {
        long a = shmem_atomic_fetch_add(&gen_cnt, 2L, t);
        long b = shmem_atomic_fetch_add(ctx_world, &gen_cnt, 2L, t);
        CHECK(a >= 0 && b >= 0, "generic fetch_add");
        shmem_atomic_inc(&gen_cnt, t);
        shmem_atomic_inc(ctx_team, &gen_cnt, rev(t));
        unsigned int old = shmem_atomic_fetch_or(&gen_ucnt, 1u << (me % 32), t);
        (void)old;
        shmem_atomic_add(&gen_ucnt, 0u, t);
        long f = shmem_atomic_fetch(&gen_cnt, t);
        CHECK(f >= 0, "generic fetch");
        long cs = shmem_atomic_compare_swap(&gen_cnt, -1L, 5L, t); /* never matches */
        CHECK(cs >= 0, "generic compare_swap");
    }
    shmem_barrier_all();
    CHECK(gen_cnt == 6L * npes, "generic counter %ld, expected %ld", gen_cnt, 6L * npes);
    unsigned int bits = 0;
    for (int p = 0; p < npes; ++p) bits |= 1u << (p % 32);
    CHECK(gen_ucnt == bits, "generic OR word 0x%x, expected 0x%x", gen_ucnt, bits);
    shmem_barrier_all();
}

/* ------------------------------------------------------------------ 2. compare_swap */
static long long cs_cnt;
static void cswap_test(void)
{
    cs_cnt = 0;
    shmem_barrier_all();
    for (int r = 0; r < rounds; ++r) {
        const int t = (me + r) % npes;
        long long cur = shmem_longlong_atomic_fetch(&cs_cnt, t);
        for (int tries = 0;; ++tries) {
            CHECK(tries < 100000, "compare_swap loop does not end");
            long long old = shmem_longlong_atomic_compare_swap(&cs_cnt, cur, cur + 1, t);
            if (old == cur) break;
            cur = old;
        }
    }
    shmem_barrier_all();
    long long want = 0;
    for (int s = 0; s < npes; ++s)
        for (int r = 0; r < rounds; ++r) want += (s + r) % npes == me;
    CHECK(cs_cnt == want, "compare_swap counter %lld, expected %lld", cs_cnt, want);
    shmem_barrier_all();
}

/* ------------------------------------------------------------------ 3. extended types */
static double sw_d;
static float sw_f;
static uint32_t sw_u32;
static double olds_d[MAXPE * 64];
static uint32_t olds_u32[MAXPE * 64];
static float set_f;
static double fetched_d;

static double dval(int pe, int r) { return 1.5 + pe * 1000.0 + r * 0.25; }
static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static void ext_test(void)
{
    sw_d = -1.0;
    sw_u32 = 0xffffffffu;
    shmem_barrier_all();
    double mine[64];
    uint32_t mine_u[64];
    for (int r = 0; r < rounds; ++r) {
        mine[r] = shmem_double_atomic_swap(&sw_d, dval(me, r), 0);
        mine_u[r] = shmem_ctx_uint32_atomic_swap(ctx_team, &sw_u32, (uint32_t)(me * 1000 + r), rev(0));
    }
    shmem_putmem(&olds_d[me * rounds], mine, sizeof(double) * (size_t)rounds, 0);
    shmem_putmem(&olds_u32[me * rounds], mine_u, sizeof(uint32_t) * (size_t)rounds, 0);
    shmem_barrier_all();
    if (me == 0) {
        const int total = npes * rounds;
        double all[MAXPE * 64 + 1], want[MAXPE * 64 + 1];
        memcpy(all, olds_d, sizeof(double) * (size_t)total);
        all[total] = sw_d;
        want[0] = -1.0;
        for (int p = 0, k = 1; p < npes; ++p)
            for (int r = 0; r < rounds; ++r) want[k++] = dval(p, r);
        qsort(all, (size_t)total + 1, sizeof(double), cmp_double);
        qsort(want, (size_t)total + 1, sizeof(double), cmp_double);
        for (int i = 0; i <= total; ++i) CHECK(all[i] == want[i], "swapped doubles: %g vs %g", all[i], want[i]);
        uint32_t au[MAXPE * 64 + 1], wu[MAXPE * 64 + 1];
        memcpy(au, olds_u32, sizeof(uint32_t) * (size_t)total);
        au[total] = sw_u32;
        wu[0] = 0xffffffffu;
        for (int p = 0, k = 1; p < npes; ++p)
            for (int r = 0; r < rounds; ++r) wu[k++] = (uint32_t)(p * 1000 + r);
        qsort(au, (size_t)total + 1, sizeof(uint32_t), cmp_u32);
        qsort(wu, (size_t)total + 1, sizeof(uint32_t), cmp_u32);
        for (int i = 0; i <= total; ++i) CHECK(au[i] == wu[i], "swapped uint32: %u vs %u", au[i], wu[i]);
    }
    shmem_barrier_all();
    /* set, then fetch (blocking and _nbi into symmetric and private memory). */
    const int t = (me + 1) % npes;
    shmem_float_atomic_set(&set_f, (float)me + 0.5f, t);
    shmem_quiet();
    shmem_barrier_all();
    CHECK(set_f == (float)((me + npes - 1) % npes) + 0.5f, "set float %g", (double)set_f);
    float f = shmem_float_atomic_fetch(&set_f, t);
    CHECK(f == (float)me + 0.5f, "fetch float %g", (double)f);
    double priv = 0;
    sw_d = 42.25;
    shmem_barrier_all();
    shmem_double_atomic_fetch_nbi(&priv, &sw_d, t);
    shmem_double_atomic_fetch_nbi(&fetched_d, &sw_d, t);
    shmem_quiet();
    CHECK(priv == 42.25 && fetched_d == 42.25, "fetch_nbi double %g %g", priv, fetched_d);
    double prevd = 0;
    shmem_double_atomic_swap_nbi(&prevd, &sw_d, 7.0, t);
    shmem_quiet();
    CHECK(prevd == 42.25, "swap_nbi returned %g", prevd);
    shmem_barrier_all();
    CHECK(sw_d == 7.0, "after swap_nbi %g", sw_d);
    (void)sw_f;
    shmem_barrier_all();
}

/* ------------------------------------------------------------------ 4. bitwise */
static uint64_t bw64;
static uint32_t bw32;
static void bitwise_test(void)
{
    bw64 = 0;
    bw32 = 0xffffffffu;
    shmem_barrier_all();
    for (int t = 0; t < npes; ++t) {
        shmem_uint64_atomic_or(&bw64, 1ull << me, t);
        uint64_t x = shmem_uint64_atomic_fetch_xor(&bw64, 0xA5A5000000000000ull ^ ((uint64_t)me << 56), t);
        (void)x;
        shmem_ctx_uint64_atomic_xor(ctx_world, &bw64, 0xA5A5000000000000ull ^ ((uint64_t)me << 56), t);
        /* Clear the bit of the PE after me in bw32 (bits of PEs >= 32 wrap). */
        shmem_uint32_atomic_and(&bw32, ~(1u << ((me + 1) % npes % 32)), t);
        uint32_t o = shmem_uint32_atomic_fetch_or(&bw32, 0, t);
        (void)o;
    }
    uint64_t fa = 0;
    shmem_uint64_atomic_fetch_and_nbi(&fa, &bw64, ~0ull, (me + 1) % npes);
    shmem_quiet();
    shmem_barrier_all();
    const uint64_t all = npes == 64 ? ~0ull : (1ull << npes) - 1;
    CHECK(bw64 == all, "OR/XOR word 0x%llx, expected 0x%llx", (unsigned long long)bw64, (unsigned long long)all);
    uint32_t want32 = 0xffffffffu;
    for (int p = 0; p < npes; ++p) want32 &= ~(1u << ((p + 1) % npes % 32));
    CHECK(bw32 == want32, "AND word 0x%x, expected 0x%x", bw32, want32);
    shmem_barrier_all();
}

/* ------------------------------------------------------------------ 5. deprecated */
static int dep_i;
static long dep_l;
static void deprecated_test(void)
{
    dep_i = 0;
    dep_l = 0;
    shmem_barrier_all();
    for (int t = 0; t < npes; ++t) {
        (void)shmem_int_finc(&dep_i, t);
        (void)shmem_int_fadd(&dep_i, 2, t);
        shmem_int_inc(&dep_i, t);
        shmem_int_add(&dep_i, 3, t);
        (void)shmem_long_cswap(&dep_l, -5L, 9L, t); /* never matches */
        (void)shmem_long_fetch(&dep_l, t);
    }
    shmem_barrier_all();
    CHECK(dep_i == 7 * npes, "deprecated int counter %d, expected %d", dep_i, 7 * npes);
    CHECK(dep_l == 0, "deprecated long %ld", dep_l);
    shmem_barrier_all();
    if (me == 0) {
        long prev = shmem_swap(&dep_l, 77L, npes - 1);
        CHECK(prev == 0, "shmem_swap returned %ld", prev);
        (void)shmem_long_swap(&dep_l, 78L, npes - 1);
        shmem_long_set(&dep_l, 79L, npes - 1);
        shmem_quiet();
        CHECK(shmem_long_fetch(&dep_l, npes - 1) == 79L, "deprecated set/fetch");
    }
    shmem_barrier_all();
}

/* ------------------------------------------------------------------ 6. locks */
static long lock_a, lock_b;
static long crit, crit_b;
static int holders[MAXPE * 64];
static int ticket;
static void lock_test(void)
{
    crit = crit_b = 0;
    ticket = 0;
    shmem_barrier_all();
    for (int r = 0; r < rounds; ++r) {
        shmem_set_lock(&lock_a);
        long v;
        shmem_long_get(&v, &crit, 1, 0);
        shmem_long_p(&crit, v + 1, 0);
        const int k = shmem_int_atomic_fetch_inc(&ticket, 0);
        shmem_int_p(&holders[k], me, 0);
        shmem_quiet();
        shmem_clear_lock(&lock_a);
        /* A second lock, taken by spinning on shmem_test_lock. */
        int spins = 0;
        while (shmem_test_lock(&lock_b)) CHECK(++spins < 100000, "shmem_test_lock never succeeds");
        long w = shmem_long_g(&crit_b, npes - 1);
        shmem_long_p(&crit_b, w + 1, npes - 1);
        shmem_quiet();
        shmem_clear_lock(&lock_b);
    }
    shmem_barrier_all();
    if (me == 0) {
        CHECK(crit == (long)npes * rounds, "locked counter %ld, expected %ld (mutual exclusion)", crit,
              (long)npes * rounds);
        CHECK(ticket == npes * rounds, "tickets %d", ticket);
        int last[MAXPE];
        for (int p = 0; p < npes; ++p) last[p] = -1;
        for (int k = 0; k < ticket; ++k) {
            const int p = holders[k];
            CHECK(p >= 0 && p < npes, "holder %d", p);
            if (last[p] >= 0)
                CHECK(k - last[p] <= 2 * npes, "PE %d waited %d turns for the lock (starved)", p, k - last[p]);
            last[p] = k;
        }
    }
    if (me == npes - 1) CHECK(crit_b == (long)npes * rounds, "test_lock counter %ld", crit_b);
    shmem_barrier_all();
}

/* ------------------------------------------------------------------ 7. signals */
#define SIG_BYTES 3000
static unsigned char sig_data[MAXPE][SIG_BYTES];
static uint64_t sig_word[MAXPE];
static long sig_longs[MAXPE][64];
static uint64_t sig_add[MAXPE];

static unsigned char sbyte(int s, int r, int i) { return (unsigned char)test_mix((uint64_t)s * 7919u + (uint64_t)r * 131u + (uint64_t)i); }

static void signal_test(void)
{
    memset(sig_word, 0, sizeof sig_word);
    memset(sig_add, 0, sizeof sig_add);
    shmem_barrier_all();
    unsigned char buf[SIG_BYTES];
    long lbuf[64];
    for (int r = 1; r <= 3; ++r) {
        for (int k = 1; k < npes; ++k) {
            const int t = (me + k) % npes;
            for (int i = 0; i < SIG_BYTES; ++i) buf[i] = sbyte(me, r, i);
            if (r == 2)
                shmem_putmem_signal_nbi(sig_data[me], buf, SIG_BYTES, &sig_word[me], (uint64_t)r, SHMEM_SIGNAL_SET, t);
            else
                shmem_putmem_signal(sig_data[me], buf, SIG_BYTES, &sig_word[me], (uint64_t)r, SHMEM_SIGNAL_SET, t);
            for (int i = 0; i < 64; ++i) lbuf[i] = (long)(me * 100000 + r * 1000 + i);
            shmem_long_put_signal(sig_longs[me], lbuf, 64, &sig_add[me], 1, SHMEM_SIGNAL_ADD, t);
        }
        /* As a target: each source's block is complete when its signal shows r. */
        for (int k = 1; k < npes; ++k) {
            const int s = (me + npes - k) % npes;
            const uint64_t v = shmem_signal_wait_until(&sig_word[s], SHMEM_CMP_GE, (uint64_t)r);
            CHECK(v >= (uint64_t)r, "signal %llu", (unsigned long long)v);
            if (v == (uint64_t)r)
                for (int i = 0; i < SIG_BYTES; ++i)
                    CHECK(sig_data[s][i] == sbyte(s, r, i), "signal %d from PE %d seen before byte %d of its data", r,
                          s, i);
            shmem_uint64_wait_until(&sig_add[s], SHMEM_CMP_GE, (uint64_t)r);
            if (shmem_signal_fetch(&sig_add[s]) == (uint64_t)r)
                for (int i = 0; i < 64; ++i)
                    CHECK(sig_longs[s][i] == (long)(s * 100000 + r * 1000 + i), "ADD signal before its data");
        }
        shmem_barrier_all(); /* the next round overwrites the blocks */
    }
    for (int s = 0; s < npes; ++s)
        if (s != me) CHECK(shmem_signal_fetch(&sig_add[s]) == 3, "ADD signal from PE %d: %llu", s,
                           (unsigned long long)sig_add[s]);
    shmem_barrier_all();
}

int main(int argc, char **argv)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (argc > 1) rounds = atoi(argv[1]);
    if (rounds < 1) rounds = 1;
    if (rounds > 32) rounds = 32;
    CHECK(npes <= MAXPE, "at most %d PEs", MAXPE);
    CHECK(shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx_world) == 0, "shmem_ctx_create");
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, npes - 1, -1, npes, NULL, 0, &rev_team) == 0,
          "reverse team");
    CHECK(shmem_team_create_ctx(rev_team, SHMEM_CTX_SERIALIZED, &ctx_team) == 0, "team context");

    SHMEMI_AMO_STD_TYPES(STD_TEST)
    generic_test();
    cswap_test();
    ext_test();
    bitwise_test();
    deprecated_test();
    lock_test();
    signal_test();

    shmem_ctx_destroy(ctx_team);
    shmem_ctx_destroy(ctx_world);
    shmem_team_destroy(rev_team);
    if (me == 0) printf("amo: %d PEs, %d rounds: atomics, locks and signals verified\n", npes, rounds);
    shmem_finalize();
    return 0;
}
