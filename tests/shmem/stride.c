/* stride.c: the 1.4 active sets (0, k, size) that shmem_init gives a stride tree
 * (docs/shmem.md, "Trees and how their ids are allocated"), checked against a host
 * reference:
 *
 *   shmem/oshrun -n 9 --torus 3x3 build/tests/shmem/stride       (also -n 8: 2x2x2)
 *
 * For every logPE_stride k = 1 .. floor(log2(npes-1)) (on 3x3: (0,1,5), (0,2,3), (0,3,2);
 * on 2x2x2: (0,1,4), (0,2,2)):
 *  - every *_to_all the routers can do (sum, min, max of short, int, long, long long), in
 *    place and disjoint, 5 elements, and for a few multi-packet vectors (several reduce
 *    ids; the widened path for short);
 *  - broadcast32 and broadcast64 from every member as root (the root's dest untouched) and
 *    one multi-packet broadcast64;
 *  - shmem_barrier: a put to the next member before it must have arrived after it.
 * Nothing else is collective here except the library's own world barriers and one final
 * fcollect, so tests/shmem/run_stride.sh can require, from CANOPY_SHMEM_STATS=all, that no
 * barrier, broadcast or reduce ran in software; with CANOPY_SHMEM_STRIDE_TREES=0 the same
 * program (software where no other tree fits) must print the same checksum.
 */
#include <stdint.h>
#include <string.h>

#include "shmem_test.h"

#define BUF_BYTES 4096
enum top { SUM, MIN, MAX };

static long pSync[SHMEM_BCAST_SYNC_SIZE > SHMEM_REDUCE_SYNC_SIZE ? SHMEM_BCAST_SYNC_SIZE : SHMEM_REDUCE_SYNC_SIZE];
static long pWrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE * 64];
static unsigned char dbuf[BUF_BYTES], sbuf[BUF_BYTES]; /* symmetric: static data */
static long mailbox[8];
static uint64_t checksum;
static int me, npes;

static void sum_in(uint64_t v) { checksum = test_mix(checksum ^ v); }

/* Element i of PE pe for op: signed values in range for every type (sums of up to 32 PEs
 * fit a short). */
static long long ival(int op, int pe, size_t i)
{
    const long long k = (long long)i;
    return op == SUM ? (pe * 7 + k * 3) % 11 - 5 : (pe * 13 + k * 5) % 17 - 8;
}

#define RED(T, N, OP, OPC)                                                                 \
    static void red_##N##_##OP(const struct test_group *g, int logstride, size_t count, int inplace) \
    {                                                                                      \
        T *d = (T *)(void *)dbuf, *s = inplace ? d : (T *)(void *)sbuf;                    \
        CHECK(count * sizeof(T) <= BUF_BYTES, "buffer too small");                         \
        for (size_t i = 0; i < count; ++i) s[i] = (T)ival(OPC, me, i);                     \
        if (!inplace) memset(d, 0xa5, count * sizeof(T));                                  \
        shmem_##N##_##OP##_to_all(d, s, (int)count, g->start, logstride, g->size, (T *)(void *)pWrk, pSync); \
        for (size_t i = 0; i < count; ++i) {                                               \
            T want = (T)ival(OPC, test_pe(g, 0), i);                                       \
            for (int m = 1; m < g->size; ++m) {                                            \
                const T v = (T)ival(OPC, test_pe(g, m), i);                                \
                want = OPC == SUM ? (T)(want + v) : OPC == MIN ? (v < want ? v : want) : (v > want ? v : want); \
            }                                                                              \
            CHECK(d[i] == want, "%s_%s_to_all %s %s: element %zu of %zu is %lld, expected %lld", #N, #OP, \
                  g->name, inplace ? "in place" : "disjoint", i, count, (long long)d[i], (long long)want); \
            sum_in((uint64_t)(long long)d[i]);                                             \
        }                                                                                  \
        if (!inplace)                                                                      \
            for (size_t i = 0; i < count; ++i) CHECK(s[i] == (T)ival(OPC, me, i), "%s: source changed", #N); \
    }
#define RED3(T, N) RED(T, N, sum, SUM) RED(T, N, min, MIN) RED(T, N, max, MAX)
SHMEMI_TOALL_BITWISE_TYPES(RED3)

struct red_case {
    const char *name;
    size_t size;
    void (*run)(const struct test_group *g, int logstride, size_t count, int inplace);
};
#define CASE(T, N) {#N "_sum", sizeof(T), red_##N##_sum}, {#N "_min", sizeof(T), red_##N##_min}, \
                   {#N "_max", sizeof(T), red_##N##_max},
static const struct red_case cases[] = {SHMEMI_TOALL_BITWISE_TYPES(CASE)};

static unsigned char pattern(int root, size_t size, size_t i) { return (unsigned char)test_mix(root * 7919u + size * 104729u + i); }

static void bcast(const struct test_group *g, int logstride, int root, size_t size, int bits)
{
    const int i_am_root = me == test_pe(g, root);
    for (size_t i = 0; i < size; ++i) sbuf[i] = i_am_root ? pattern(root, size, i) : 0x11;
    memset(dbuf, 0xee, size + 8);
    /* The specification lets the root write dest as soon as it calls: everyone's dest must
     * be ready first (without this the memset may land after the root's data). */
    shmem_barrier(g->start, logstride, g->size, pSync);
    if (bits == 32) shmem_broadcast32(dbuf, sbuf, size / 4, root, g->start, logstride, g->size, pSync);
    else shmem_broadcast64(dbuf, sbuf, size / 8, root, g->start, logstride, g->size, pSync);
    for (size_t i = 0; i < size; ++i) {
        const unsigned char want = i_am_root ? 0xee : pattern(root, size, i);
        CHECK(dbuf[i] == want, "broadcast%d %s root %d size %zu: byte %zu is 0x%02x, expected 0x%02x", bits, g->name,
              root, size, i, dbuf[i], want);
        sum_in(dbuf[i]);
    }
    CHECK(dbuf[size] == 0xee, "broadcast wrote past its end");
}

/* Each member puts a round number to the next member, then the barrier: the put is
 * complete (the barrier quiets first) and so visible at the target afterwards. */
static void barrier_round(const struct test_group *g, int logstride, long round)
{
    const int my = test_member(g, me), next = test_pe(g, (my + 1) % g->size);
    const int prev = test_pe(g, (my + g->size - 1) % g->size);
    const long v = round * 100 + prev;
    shmem_long_p(&mailbox[logstride], round * 100 + me, next);
    shmem_barrier(g->start, logstride, g->size, pSync);
    CHECK(mailbox[logstride] == v, "barrier %s round %ld: mailbox %ld, expected %ld", g->name, round,
          mailbox[logstride], v);
    /* Nobody overwrites the mailbox of the next round before it has been read. */
    shmem_barrier(g->start, logstride, g->size, pSync);
}

static void set_tests(const struct test_group *g, int logstride)
{
    if (test_member(g, me) < 0) return;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        cases[c].run(g, logstride, 5, (int)(c % 2));
        /* ~1.2 KB, several reduce ids (and the widened path for short), for a few. */
        if (!strcmp(cases[c].name, "long_sum") || !strcmp(cases[c].name, "short_min") ||
            !strcmp(cases[c].name, "int_max"))
            cases[c].run(g, logstride, 1200 / cases[c].size + 3, (int)!(c % 2));
    }
    for (int root = 0; root < g->size; ++root) {
        bcast(g, logstride, root, 20, 32);
        bcast(g, logstride, root, 40, 64);
    }
    bcast(g, logstride, g->size - 1, 1504, 64);
    for (long r = 1; r <= 2; ++r) barrier_round(g, logstride, r);
}

int main(void)
{
    for (size_t i = 0; i < sizeof pSync / sizeof pSync[0]; ++i) pSync[i] = SHMEM_SYNC_VALUE;
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    static char names[8][32];
    int sets = 0;
    for (int k = 1; k <= 7 && (1 << k) <= npes - 1; ++k, ++sets) {
        const int stride = 1 << k;
        const struct test_group g = {names[k], 0, stride, (npes - 1) / stride + 1};
        snprintf(names[k], sizeof names[k], "(0,%d,%d)", k, g.size);
        set_tests(&g, k);
        shmem_barrier_all();
    }
    CHECK(sets >= 1, "no strided active set for %d PEs", npes);
    for (size_t i = 0; i < sizeof pSync / sizeof pSync[0]; ++i) CHECK(pSync[i] == SHMEM_SYNC_VALUE, "pSync changed");
    static uint64_t mine, all[64];
    mine = checksum;
    shmem_uint64_fcollect(SHMEM_TEAM_WORLD, all, &mine, 1);
    if (me == 0) {
        uint64_t c = 0;
        for (int p = 0; p < npes; ++p) c = test_mix(c ^ all[p]);
        printf("%d strided active sets: ok\nchecksum %016llx\n", sets, (unsigned long long)c);
    }
    shmem_finalize();
    return 0;
}
