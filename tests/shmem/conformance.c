/* conformance.c: OpenSHMEM collectives against a host reference, from the specification.
 *
 *   shmem/oshrun -n 9 build/tests/shmem/conformance          (also -n 8: 2x2x2)
 *
 * Groups: the world, a strided set (every other PE) and a partial set (a contiguous part),
 * both as 1.5 teams (split from SHMEM_TEAM_WORLD) and as 1.4 active sets. For each group:
 *  - every team reduction of the specification's tables (type x op: and/or/xor, min/max,
 *    sum/prod incl. complex), in place or with disjoint buffers (alternately), a few also
 *    with multi-packet vectors; the source must be unchanged; every 1.4 *_to_all likewise;
 *  - broadcast from every root (broadcastmem; a multi-packet one; every RMA type once), and 1.4
 *    broadcast32/64 from every root, whose root's dest must stay untouched;
 *  - collect / fcollect (every RMA type on the world; collectmem, fcollectmem; 1.4 collect32/64,
 *    fcollect32/64), with blocks of different sizes for collect;
 *  - pSync still all SHMEM_SYNC_VALUE at the end.
 * Expected values are computed on every PE from the formulas for every member's data, so
 * the same checks hold with the collectives in the routers or in software
 * (CANOPY_SHMEM_HW=0). PE 0 prints "checksum <hex>" of all results, which
 * tests/shmem/run_conformance.sh compares between the two runs.
 */
#include <complex.h>
#include <stdint.h>
#include <string.h>

#include "shmem_test.h"

#define BUF_BYTES (64 * 1024)
enum top { SUM, PROD, MIN, MAX, AND, OR, XOR };

static long pSync[SHMEM_REDUCE_SYNC_SIZE];
static long pWrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE * 64];
static unsigned char *dbuf, *sbuf; /* symmetric heap buffers */
static uint64_t checksum;
static int me, npes;

static void sum_in(uint64_t v) { checksum = test_mix(checksum ^ v); }

/* Element i contributed by PE pe for op: small values (sums, products and extremes stay in
 * every type's range, floating point stays exact), bit patterns for the bitwise ops. */
static long long ival(int op, int pe, size_t i, int sgn)
{
    const long long k = (long long)i;
    switch (op) {
    case SUM: return sgn ? (pe * 7 + k * 3) % 11 - 5 : (pe * 7 + k * 3) % 11;
    case MIN: case MAX: return sgn ? (pe * 13 + k * 5) % 17 - 8 : (pe * 13 + k * 5) % 17;
    case PROD: return (pe + k) % 5 == 0 ? 2 : ((pe + k) % 3 == 0 && sgn) ? -1 : 1;
    default: return (long long)(test_mix((uint64_t)pe * 1000003u + i) >> 1);
    }
}

/* Per type: fill, combine (the reference), compare, hash. */
#define REAL_HELPERS(T, N)                                                                 \
    static void gen_##N(T *out, int op, int pe, size_t n)                                  \
    {                                                                                      \
        const T zero = 0, minus_one = (T)-1; /* variables: no always-false warning */     \
        const int sgn = minus_one < zero;                                                  \
        for (size_t i = 0; i < n; ++i) out[i] = (T)ival(op, pe, i, sgn);                   \
    }                                                                                      \
    static uint64_t hash_##N(T x) { return (uint64_t)(long long)x; }                       \
    static int eq_##N(T a, T b) { return a == b; }
#define INT_COMB(T, N)                                                                     \
    static void comb_##N(T *a, const T *b, int op, size_t n)                               \
    {                                                                                      \
        for (size_t i = 0; i < n; ++i) switch (op) {                                       \
            case SUM: a[i] = (T)(a[i] + b[i]); break;                                      \
            case PROD: a[i] = (T)(a[i] * b[i]); break;                                     \
            case MIN: a[i] = b[i] < a[i] ? b[i] : a[i]; break;                             \
            case MAX: a[i] = b[i] > a[i] ? b[i] : a[i]; break;                             \
            case AND: a[i] = (T)(a[i] & b[i]); break;                                      \
            case OR: a[i] = (T)(a[i] | b[i]); break;                                       \
            default: a[i] = (T)(a[i] ^ b[i]); break;                                       \
            }                                                                              \
    }
#define FLT_COMB(T, N)                                                                     \
    static void comb_##N(T *a, const T *b, int op, size_t n)                               \
    {                                                                                      \
        for (size_t i = 0; i < n; ++i) switch (op) {                                       \
            case SUM: a[i] = a[i] + b[i]; break;                                           \
            case PROD: a[i] = a[i] * b[i]; break;                                          \
            case MIN: a[i] = b[i] < a[i] ? b[i] : a[i]; break;                             \
            default: a[i] = b[i] > a[i] ? b[i] : a[i]; break;                              \
            }                                                                              \
    }
#define CPLX_HELPERS(T, N)                                                                 \
    static void gen_##N(T *out, int op, int pe, size_t n)                                  \
    {                                                                                      \
        for (size_t i = 0; i < n; ++i)                                                     \
            out[i] = op == PROD ? ((pe + (int)i) % 4 == 0 ? (T)I : (T)1)                  \
                                : (T)ival(SUM, pe, i, 1) + (T)(pe - (int)i) * (T)I;         \
    }                                                                                      \
    static uint64_t hash_##N(T x) { return (uint64_t)(long long)creal(x) * 31u + (uint64_t)(long long)cimag(x); } \
    static int eq_##N(T a, T b) { return a == b; }                                         \
    static void comb_##N(T *a, const T *b, int op, size_t n)                               \
    {                                                                                      \
        for (size_t i = 0; i < n; ++i) a[i] = op == PROD ? a[i] * b[i] : a[i] + b[i];      \
    }

#define INT_TYPES(X)                                                                       \
    X(char, char) X(signed char, schar) X(short, short) X(int, int) X(long, long)          \
    X(long long, longlong) X(unsigned char, uchar) X(unsigned short, ushort)               \
    X(unsigned int, uint) X(unsigned long, ulong) X(unsigned long long, ulonglong)         \
    X(int8_t, int8) X(int16_t, int16) X(int32_t, int32) X(int64_t, int64) X(uint8_t, uint8) \
    X(uint16_t, uint16) X(uint32_t, uint32) X(uint64_t, uint64) X(size_t, size)            \
    X(ptrdiff_t, ptrdiff)
#define FLT_TYPES(X) X(float, float) X(double, double) X(long double, longdouble)
INT_TYPES(REAL_HELPERS)
INT_TYPES(INT_COMB)
FLT_TYPES(REAL_HELPERS)
FLT_TYPES(FLT_COMB)
SHMEMI_COMPLEX_TYPES(CPLX_HELPERS)

/* ------------------------------------------------------------------ reductions */
struct red_case {
    const char *name;
    int op;
    size_t size;
    /* Run: team (1.5) or active set (team == NULL), check against the reference. */
    void (*run)(shmem_team_t team, const struct test_group *g, size_t count, int inplace);
};

#define RED_BODY(T, N, OPC, CALL)                                                          \
    {                                                                                      \
        T *d = (T *)(void *)dbuf, *s = inplace ? d : (T *)(void *)sbuf;                    \
        T *ref = malloc(count * sizeof(T)), *tmp = malloc(count * sizeof(T));              \
        CHECK(ref && tmp, "malloc");                                                       \
        gen_##N(s, OPC, me, count);                                                        \
        if (!inplace) memset(d, 0xa5, count * sizeof(T));                                  \
        CALL;                                                                              \
        gen_##N(ref, OPC, test_pe(g, 0), count);                                           \
        for (int m = 1; m < g->size; ++m) {                                                \
            gen_##N(tmp, OPC, test_pe(g, m), count);                                       \
            comb_##N(ref, tmp, OPC, count);                                                \
        }                                                                                  \
        for (size_t i = 0; i < count; ++i) {                                               \
            CHECK(eq_##N(d[i], ref[i]), "%s %s/%d %s %s: element %zu of %zu wrong", #N, #OPC, OPC, g->name, \
                  inplace ? "in place" : "disjoint", i, count);                            \
            sum_in(hash_##N(d[i]));                                                        \
        }                                                                                  \
        if (!inplace) {                                                                    \
            gen_##N(tmp, OPC, me, count);                                                  \
            for (size_t i = 0; i < count; ++i) CHECK(eq_##N(s[i], tmp[i]), "%s: source changed", #N); \
        }                                                                                  \
        free(ref);                                                                         \
        free(tmp);                                                                         \
    }

#define TEAM_RED(T, N, OP, OPC)                                                            \
    static void team_##N##_##OP(shmem_team_t team, const struct test_group *g, size_t count, int inplace) \
        RED_BODY(T, N, OPC, CHECK(shmem_##N##_##OP##_reduce(team, d, s, count) == 0, "return value"))
#define TEAM_BITWISE(T, N) TEAM_RED(T, N, and, AND) TEAM_RED(T, N, or, OR) TEAM_RED(T, N, xor, XOR)
#define TEAM_MINMAX(T, N) TEAM_RED(T, N, min, MIN) TEAM_RED(T, N, max, MAX)
#define TEAM_ARITH(T, N) TEAM_RED(T, N, sum, SUM) TEAM_RED(T, N, prod, PROD)
SHMEMI_BITWISE_TYPES(TEAM_BITWISE)
SHMEMI_MINMAX_TYPES(TEAM_MINMAX)
SHMEMI_MINMAX_TYPES(TEAM_ARITH)
SHMEMI_COMPLEX_TYPES(TEAM_ARITH)

#define CASE(T, N, OP, OPC) {#N "_" #OP, OPC, sizeof(T), team_##N##_##OP},
#define CASE_BITWISE(T, N) CASE(T, N, and, AND) CASE(T, N, or, OR) CASE(T, N, xor, XOR)
#define CASE_MINMAX(T, N) CASE(T, N, min, MIN) CASE(T, N, max, MAX)
#define CASE_ARITH(T, N) CASE(T, N, sum, SUM) CASE(T, N, prod, PROD)
static const struct red_case team_cases[] = {
    SHMEMI_BITWISE_TYPES(CASE_BITWISE) SHMEMI_MINMAX_TYPES(CASE_MINMAX) SHMEMI_MINMAX_TYPES(CASE_ARITH)
    SHMEMI_COMPLEX_TYPES(CASE_ARITH)};

/* 1.4: the active set is (start, log2(stride), size) of the group. */
static int log2i(int v)
{
    int l = 0;
    while ((1 << l) < v) ++l;
    return l;
}
#define ASET_RED(T, N, OP, OPC)                                                            \
    static void aset_##N##_##OP(shmem_team_t team, const struct test_group *g, size_t count, int inplace) \
        RED_BODY(T, N, OPC, ((void)team, shmem_##N##_##OP##_to_all(d, s, (int)count, g->start, log2i(g->stride), \
                                                                    g->size, (T *)(void *)pWrk, pSync)))
#define ASET_BITWISE(T, N) ASET_RED(T, N, and, AND) ASET_RED(T, N, or, OR) ASET_RED(T, N, xor, XOR)
#define ASET_MINMAX(T, N) ASET_RED(T, N, min, MIN) ASET_RED(T, N, max, MAX)
#define ASET_ARITH(T, N) ASET_RED(T, N, sum, SUM) ASET_RED(T, N, prod, PROD)
SHMEMI_TOALL_BITWISE_TYPES(ASET_BITWISE)
SHMEMI_TOALL_MINMAX_TYPES(ASET_MINMAX)
SHMEMI_TOALL_MINMAX_TYPES(ASET_ARITH)
SHMEMI_COMPLEX_TYPES(ASET_ARITH)
#define ACASE(T, N, OP, OPC) {#N "_" #OP "_to_all", OPC, sizeof(T), aset_##N##_##OP},
#define ACASE_BITWISE(T, N) ACASE(T, N, and, AND) ACASE(T, N, or, OR) ACASE(T, N, xor, XOR)
#define ACASE_MINMAX(T, N) ACASE(T, N, min, MIN) ACASE(T, N, max, MAX)
#define ACASE_ARITH(T, N) ACASE(T, N, sum, SUM) ACASE(T, N, prod, PROD)
static const struct red_case aset_cases[] = {
    SHMEMI_TOALL_BITWISE_TYPES(ACASE_BITWISE) SHMEMI_TOALL_MINMAX_TYPES(ACASE_MINMAX)
    SHMEMI_TOALL_MINMAX_TYPES(ACASE_ARITH) SHMEMI_COMPLEX_TYPES(ACASE_ARITH)};

static void reductions(shmem_team_t team, const struct test_group *g, const struct red_case *cases, size_t ncases)
{
    for (size_t c = 0; c < ncases; ++c) {
        /* Every case once, in place and disjoint alternately; a multi-packet vector
         * (several reduce ids / channel chunks, the widened path) for a few. */
        cases[c].run(team, g, 5, c % 2);
        if (!strcmp(cases[c].name, "long_sum") || !strcmp(cases[c].name, "int_max") ||
            !strcmp(cases[c].name, "short_sum") || !strcmp(cases[c].name, "double_sum") ||
            !strcmp(cases[c].name, "long_sum_to_all") || !strcmp(cases[c].name, "short_min_to_all"))
            cases[c].run(team, g, 1100 / cases[c].size + 3, !(c % 2));
    }
}

/* ------------------------------------------------------------------ broadcast */
static unsigned char pattern(int root, size_t size, size_t i) { return (unsigned char)test_mix(root * 7919u + size * 104729u + i); }

/* The specification lets a broadcast's root, and every member of a collect, write the
 * others' dest as soon as it calls (nobody waits for the others first), so every member
 * must be done with dest (checking the last result, the memset) before the next such
 * collective starts: a sync on the group. */
static void ready(shmem_team_t team, const struct test_group *g)
{
    if (team) shmem_team_sync(team);
    else shmem_sync(g->start, log2i(g->stride), g->size, pSync);
}

static void bcast_bytes(shmem_team_t team, const struct test_group *g, int root, size_t size, int kind)
{
    const int r_pe = test_pe(g, root), i_am_root = me == r_pe;
    for (size_t i = 0; i < size; ++i) sbuf[i] = i_am_root ? pattern(root, size, i) : 0x11;
    memset(dbuf, 0xee, size + 8);
    ready(team, g);
    if (kind == 0) {
        CHECK(shmem_broadcastmem(team, dbuf, sbuf, size, root) == 0, "return");
    } else if (kind == 32) {
        shmem_broadcast32(dbuf, sbuf, size / 4, root, g->start, log2i(g->stride), g->size, pSync);
    } else {
        shmem_broadcast64(dbuf, sbuf, size / 8, root, g->start, log2i(g->stride), g->size, pSync);
    }
    const int root_untouched = kind != 0 && i_am_root; /* 1.4: not written at the root */
    for (size_t i = 0; i < size; ++i) {
        unsigned char want = root_untouched ? 0xee : pattern(root, size, i);
        CHECK(dbuf[i] == want, "broadcast%d %s root %d size %zu: byte %zu is 0x%02x, expected 0x%02x", kind, g->name,
              root, size, i, dbuf[i], want);
        sum_in(dbuf[i]);
    }
    CHECK(dbuf[size] == 0xee, "broadcast wrote past its end");
}

#define TYPED_BCAST(T, N)                                                                  \
    {                                                                                      \
        T *d = (T *)(void *)dbuf, *s = (T *)(void *)sbuf;                                  \
        const int root = g->size - 1;                                                      \
        gen_##N(s, SUM, me, 5);                                                            \
        ready(team, g);                                                                    \
        CHECK(shmem_##N##_broadcast(team, d, s, 5, root) == 0, "return");                  \
        T want[5];                                                                         \
        gen_##N(want, SUM, test_pe(g, root), 5);                                           \
        for (int i = 0; i < 5; ++i) CHECK(eq_##N(d[i], want[i]), "%s_broadcast %s element %d", #N, g->name, i); \
    }
static void typed_bcasts(shmem_team_t team, const struct test_group *g)
{
    INT_TYPES(TYPED_BCAST)
    FLT_TYPES(TYPED_BCAST)
}

/* ------------------------------------------------------------------ collect */
#define TYPED_COLLECT(T, N)                                                                \
    {                                                                                      \
        T *d = (T *)(void *)dbuf, *s = (T *)(void *)sbuf;                                  \
        const int my = test_member(g, me);                                                 \
        gen_##N(s, SUM, me, 3);                                                            \
        ready(team, g);                                                                    \
        CHECK(shmem_##N##_fcollect(team, d, s, 3) == 0, "return");                         \
        T want[3];                                                                         \
        for (int m = 0; m < g->size; ++m) {                                                \
            gen_##N(want, SUM, test_pe(g, m), 3);                                          \
            for (int i = 0; i < 3; ++i) CHECK(eq_##N(d[3 * m + i], want[i]), "%s_fcollect %s block %d", #N, g->name, m); \
        }                                                                                  \
        ready(team, g);                                                                    \
        CHECK(shmem_##N##_collect(team, d, s, (size_t)(my % 3 + 1)) == 0, "return");       \
        size_t at = 0;                                                                     \
        for (int m = 0; m < g->size; ++m) {                                                \
            gen_##N(want, SUM, test_pe(g, m), 3);                                          \
            for (int i = 0; i < m % 3 + 1; ++i, ++at)                                      \
                CHECK(eq_##N(d[at], want[i]), "%s_collect %s block %d element %d", #N, g->name, m, i); \
            sum_in(at);                                                                    \
        }                                                                                  \
    }
static void typed_collects(shmem_team_t team, const struct test_group *g)
{
    INT_TYPES(TYPED_COLLECT)
    FLT_TYPES(TYPED_COLLECT)
}

/* 1.4 collect32/64 and fcollect32/64 and the *mem forms: blocks of words. */
static void word_collects(shmem_team_t team, const struct test_group *g)
{
    const int my = test_member(g, me);
    for (int bits = 32; bits <= 64; bits += 32) {
        const size_t w = (size_t)bits / 8;
        for (int fixed = 0; fixed <= 1; ++fixed) {
            const size_t mine = fixed ? 4 : (size_t)(my % 3 + 1);
            for (size_t i = 0; i < mine * w; ++i) sbuf[i] = pattern(me, 1, i);
            memset(dbuf, 0, 1024);
            ready(team, g); /* as for broadcast: blocks land as soon as their senders call */
            if (team) {
                if (fixed) CHECK(shmem_fcollectmem(team, dbuf, sbuf, mine * w) == 0, "return");
                else CHECK(shmem_collectmem(team, dbuf, sbuf, mine * w) == 0, "return");
            } else if (bits == 32) {
                if (fixed) shmem_fcollect32(dbuf, sbuf, mine, g->start, log2i(g->stride), g->size, pSync);
                else shmem_collect32(dbuf, sbuf, mine, g->start, log2i(g->stride), g->size, pSync);
            } else {
                if (fixed) shmem_fcollect64(dbuf, sbuf, mine, g->start, log2i(g->stride), g->size, pSync);
                else shmem_collect64(dbuf, sbuf, mine, g->start, log2i(g->stride), g->size, pSync);
            }
            size_t at = 0;
            for (int m = 0; m < g->size; ++m) {
                const size_t len = (fixed ? 4 : (size_t)(m % 3 + 1)) * w;
                for (size_t i = 0; i < len; ++i, ++at)
                    CHECK(dbuf[at] == pattern(test_pe(g, m), 1, i), "%s%d %s: block %d byte %zu",
                          fixed ? "fcollect" : "collect", bits, g->name, m, i);
            }
            sum_in(at);
        }
    }
}

static void group_tests(shmem_team_t team, const struct test_group *g)
{
    if (test_member(g, me) < 0) return;
    if (team) {
        CHECK(shmem_team_n_pes(team) == g->size, "team size %d", shmem_team_n_pes(team));
        CHECK(shmem_team_my_pe(team) == test_member(g, me), "team rank");
        reductions(team, g, team_cases, sizeof team_cases / sizeof team_cases[0]);
        for (int root = 0; root < g->size; ++root) bcast_bytes(team, g, root, 13, 0);
        bcast_bytes(team, g, g->size / 2, 1500, 0);
        typed_bcasts(team, g);
        if (team == SHMEM_TEAM_WORLD) typed_collects(team, g); /* every type once, on the world */
        word_collects(team, g);
    } else {
        reductions(NULL, g, aset_cases, sizeof aset_cases / sizeof aset_cases[0]);
        for (int root = 0; root < g->size; ++root) {
            bcast_bytes(NULL, g, root, 20, 32);
            bcast_bytes(NULL, g, root, 40, 64);
        }
        bcast_bytes(NULL, g, g->size / 2, 1504, 64);
        word_collects(NULL, g);
    }
}

int main(void)
{
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; ++i) pSync[i] = SHMEM_SYNC_VALUE;
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    dbuf = shmem_malloc(BUF_BYTES);
    sbuf = shmem_malloc(BUF_BYTES);
    CHECK(dbuf && sbuf, "shmem_malloc");
    const struct test_group world = {"world", 0, 1, npes}, strided = {"strided", 0, 2, (npes + 1) / 2},
                            partial = {"partial", 1, 1, npes / 2}, apartial = {"partial", 0, 1, npes / 2};
    shmem_team_t t_strided, t_partial;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, strided.start, strided.stride, strided.size, NULL, 0,
                                   &t_strided) == 0, "split strided");
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, partial.start, partial.stride, partial.size, NULL, 0,
                                   &t_partial) == 0, "split partial");
    group_tests(SHMEM_TEAM_WORLD, &world);
    shmem_barrier_all();
    group_tests(t_strided, &strided);
    shmem_barrier_all();
    group_tests(t_partial, &partial);
    shmem_barrier_all();
    group_tests(NULL, &world);
    shmem_barrier_all();
    group_tests(NULL, &strided);
    shmem_barrier_all();
    group_tests(NULL, &apartial);
    shmem_barrier_all();
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; ++i) CHECK(pSync[i] == SHMEM_SYNC_VALUE, "pSync[%d] changed", i);
    /* Every PE's checksum, combined: the same bits in hardware and in software. */
    static uint64_t mine, all[64];
    mine = checksum;
    shmem_uint64_fcollect(SHMEM_TEAM_WORLD, all, &mine, 1);
    if (me == 0) {
        uint64_t c = 0;
        for (int p = 0; p < npes; ++p) c = test_mix(c ^ all[p]);
        printf("checksum %016llx\n", (unsigned long long)c);
    }
    if (t_strided != SHMEM_TEAM_INVALID) shmem_team_destroy(t_strided);
    if (t_partial != SHMEM_TEAM_INVALID) shmem_team_destroy(t_partial);
    shmem_free(dbuf);
    shmem_free(sbuf);
    shmem_finalize();
    return 0;
}
