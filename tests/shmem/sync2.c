/* sync2.c: alltoall(s), contexts, the wait/test families and threads.
 *
 *   shmem/oshrun -n 9 build/tests/shmem/sync2
 *
 *  1. alltoall and alltoalls of every size class (1, 2, 4, 8, 16 bytes: char, short, int,
 *     long, long double) and alltoallmem / alltoallsmem, on the world team, a strided
 *     team, a negative-stride team, and the 1.4 active sets (alltoall32/64, alltoalls64),
 *     with several strides, against a host reference; dest elements between the strided
 *     ones keep their guard.
 *  2. contexts: created (every option), on teams (PEs numbered in the team), puts, gets,
 *     atomics and quiet on each, shmem_ctx_get_team, destroy; SHMEM_CTX_DEFAULT works as
 *     the plain calls; the C11 generic forms with a context.
 *  3. the wait/test families: every PE sets the words of a vector at every other PE, in a
 *     seeded order with pauses; wait_until_all/any/some (and _vector), with status masks
 *     excluding some words, return exactly the right indices; test_all/any/some, polled in
 *     a loop, make progress (the puts land while a PE only calls them); an all-excluded
 *     vector returns at once.
 *  4. threads: shmem_init_thread gives SHMEM_THREAD_MULTIPLE; four threads per PE put,
 *     get, do atomics and wait (one thread waits on a flag another thread's PE sets) at
 *     once; the counts are exact.
 */
#include <pthread.h>
#include <string.h>

#include "shmem_test.h"

#define MAXPE 64
static int me, npes;

/* ------------------------------------------------------------------ 1. alltoall */
static unsigned char a2a_src[MAXPE * 4 * 16 * 3];
static unsigned char a2a_dst[MAXPE * 4 * 16 * 3];

static unsigned char abyte(int pe, size_t i) { return (unsigned char)test_mix((uint64_t)pe * 4099u + i); }

/* A group as the tests describe it (stride may be negative). */
struct grp {
    int start, stride, size;
};
static int gmember(const struct grp *g, int pe)
{
    for (int i = 0; i < g->size; ++i)
        if (g->start + i * g->stride == pe) return i;
    return -1;
}

/* Element size sz, nelems per block, strides dst/sst: check my dest against the sources
 * every member had. */
static void a2a_check(const struct grp *g, size_t sz, size_t nelems, ptrdiff_t dst, ptrdiff_t sst, const char *what)
{
    const int mi = gmember(g, me);
    if (mi < 0) return;
    for (int j = 0; j < g->size; ++j) {
        const int pj = g->start + j * g->stride;
        for (size_t e = 0; e < nelems; ++e) {
            const size_t se = ((size_t)mi * nelems + e) * (size_t)sst; /* in j's source */
            const size_t de = ((size_t)j * nelems + e) * (size_t)dst;  /* in my dest */
            for (size_t b = 0; b < sz; ++b)
                CHECK(a2a_dst[de * sz + b] == abyte(pj, se * sz + b),
                      "%s: element %zu of block %d (from PE %d) byte %zu wrong", what, e, j, pj, b);
            if (dst > 1)
                for (size_t b = sz; b < (size_t)dst * sz && de * sz + b < sizeof a2a_dst; ++b)
                    if (e + 1 < nelems || j + 1 < g->size)
                        CHECK(a2a_dst[de * sz + b] == 0xEE, "%s: guard between strided elements overwritten", what);
        }
    }
}

static void a2a_prepare(void)
{
    for (size_t i = 0; i < sizeof a2a_src; ++i) a2a_src[i] = abyte(me, i);
    memset(a2a_dst, 0xEE, sizeof a2a_dst);
    shmem_barrier_all();
}

static void alltoall_test(void)
{
    shmem_team_t strided = SHMEM_TEAM_INVALID, reversed = SHMEM_TEAM_INVALID;
    const int ssize = (npes + 1) / 2;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, ssize, NULL, 0, &strided);
    shmem_team_split_strided(SHMEM_TEAM_WORLD, npes - 1, -1, npes, NULL, 0, &reversed);
    const struct grp world = {0, 1, npes}, sg = {0, 2, ssize}, rg = {npes - 1, -1, npes};
    struct {
        shmem_team_t team;
        const struct grp *g;
        const char *name;
    } teams[3] = {{SHMEM_TEAM_WORLD, &world, "world"}, {strided, &sg, "strided"}, {reversed, &rg, "reversed"}};
    for (int k = 0; k < 3; ++k) {
        const shmem_team_t t = teams[k].team;
        const int in = gmember(teams[k].g, me) >= 0;
        a2a_prepare();
        if (in) shmem_char_alltoall(t, (char *)a2a_dst, (const char *)a2a_src, 3);
        a2a_check(teams[k].g, 1, 3, 1, 1, "char alltoall");
        a2a_prepare();
        if (in) shmem_short_alltoall(t, (short *)a2a_dst, (const short *)a2a_src, 5);
        a2a_check(teams[k].g, 2, 5, 1, 1, "short alltoall");
        a2a_prepare();
        if (in) shmem_int_alltoall(t, (int *)a2a_dst, (const int *)a2a_src, 4);
        a2a_check(teams[k].g, 4, 4, 1, 1, "int alltoall");
        a2a_prepare();
        if (in) shmem_alltoall(t, (long *)a2a_dst, (const long *)a2a_src, 2); /* C11 generic */
        a2a_check(teams[k].g, 8, 2, 1, 1, "long alltoall");
        a2a_prepare();
        if (in) shmem_longdouble_alltoall(t, (long double *)a2a_dst, (const long double *)a2a_src, 1);
        a2a_check(teams[k].g, 16, 1, 1, 1, "long double alltoall");
        a2a_prepare();
        if (in) shmem_alltoallmem(t, a2a_dst, a2a_src, 7);
        a2a_check(teams[k].g, 1, 7, 1, 1, "alltoallmem");
        a2a_prepare();
        if (in) shmem_int_alltoalls(t, (int *)a2a_dst, (const int *)a2a_src, 3, 2, 2);
        a2a_check(teams[k].g, 4, 2, 3, 2, "int alltoalls");
        a2a_prepare();
        if (in) shmem_alltoallsmem(t, a2a_dst, a2a_src, 2, 1, 3);
        a2a_check(teams[k].g, 1, 3, 2, 1, "alltoallsmem");
        a2a_prepare();
        if (in) shmem_alltoalls(t, (long *)a2a_dst, (const long *)a2a_src, 1, 3, 2); /* C11 generic */
        a2a_check(teams[k].g, 8, 2, 1, 3, "long alltoalls");
    }
    /* 1.4 active sets. */
    static long pSync[SHMEM_ALLTOALL_SYNC_SIZE];
    for (int i = 0; i < SHMEM_ALLTOALL_SYNC_SIZE; ++i) pSync[i] = SHMEM_SYNC_VALUE;
    a2a_prepare();
    shmem_alltoall64(a2a_dst, a2a_src, 2, 0, 0, npes, pSync);
    a2a_check(&world, 8, 2, 1, 1, "alltoall64");
    a2a_prepare();
    if (me % 2 == 0) shmem_alltoall32(a2a_dst, a2a_src, 3, 0, 1, ssize, pSync);
    a2a_check(&sg, 4, 3, 1, 1, "alltoall32 on (0, 1, size)");
    a2a_prepare();
    shmem_alltoalls64(a2a_dst, a2a_src, 2, 2, 2, 0, 0, npes, pSync);
    a2a_check(&world, 8, 2, 2, 2, "alltoalls64");
    for (int i = 0; i < SHMEM_ALLTOALL_SYNC_SIZE; ++i) CHECK(pSync[i] == SHMEM_SYNC_VALUE, "pSync changed");
    shmem_barrier_all();
    if (strided != SHMEM_TEAM_INVALID) shmem_team_destroy(strided);
    shmem_team_destroy(reversed);
}

/* ------------------------------------------------------------------ 2. contexts */
static long ctx_box[MAXPE];
static int ctx_cnt;
static void ctx_test(void)
{
    shmem_ctx_t c[3];
    const long opts[3] = {0, SHMEM_CTX_PRIVATE | SHMEM_CTX_NOSTORE, SHMEM_CTX_SERIALIZED};
    for (int i = 0; i < 3; ++i) CHECK(shmem_ctx_create(opts[i], &c[i]) == 0, "shmem_ctx_create(%ld)", opts[i]);
    shmem_team_t reversed, got;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, npes - 1, -1, npes, NULL, 0, &reversed);
    shmem_ctx_t tc;
    CHECK(shmem_team_create_ctx(reversed, 0, &tc) == 0, "shmem_team_create_ctx");
    CHECK(shmem_ctx_get_team(tc, &got) == 0 && got == reversed, "shmem_ctx_get_team of a team context");
    CHECK(shmem_ctx_get_team(c[0], &got) == 0 && got == SHMEM_TEAM_WORLD, "shmem_ctx_get_team of a context");
    CHECK(shmem_ctx_get_team(SHMEM_CTX_DEFAULT, &got) == 0 && got == SHMEM_TEAM_WORLD, "default context's team");
    shmem_ctx_t bad;
    CHECK(shmem_team_create_ctx(SHMEM_TEAM_INVALID, 0, &bad) != 0 && bad == SHMEM_CTX_INVALID,
          "a context of SHMEM_TEAM_INVALID");
    memset(ctx_box, 0, sizeof ctx_box);
    ctx_cnt = 0;
    shmem_barrier_all();
    const int next = (me + 1) % npes;
    for (int i = 0; i < 3; ++i) {
        shmem_ctx_long_p(c[i], &ctx_box[me], (long)(me * 10 + i), next);
        shmem_ctx_quiet(c[i]);
        long v = shmem_ctx_long_g(c[i], &ctx_box[me], next);
        CHECK(v == me * 10 + i, "context %d: got back %ld", i, v);
        shmem_ctx_int_atomic_inc(c[i], &ctx_cnt, next);
        shmem_ctx_fence(c[i]);
    }
    /* Team context: PE numbers in the reversed team. */
    shmem_ctx_int_atomic_add(tc, &ctx_cnt, 100, npes - 1 - next);
    shmem_put(tc, &ctx_box[me], &ctx_box[me], 0, npes - 1 - next); /* generic, context, zero length */
    long three[3] = {1, 2, 3};
    shmem_ctx_long_put_nbi(SHMEM_CTX_DEFAULT, ctx_box, three, 0, next);
    shmem_ctx_quiet(tc);
    shmem_ctx_quiet(SHMEM_CTX_DEFAULT);
    shmem_barrier_all();
    CHECK(ctx_cnt == 103, "context atomics: %d, expected 103", ctx_cnt);
    CHECK(ctx_box[(me + npes - 1) % npes] == (me + npes - 1) % npes * 10 + 2, "context puts");
    for (int i = 0; i < 3; ++i) shmem_ctx_destroy(c[i]);
    shmem_ctx_destroy(tc);
    shmem_ctx_destroy(SHMEM_CTX_INVALID); /* no effect */
    shmem_team_destroy(reversed);
    shmem_barrier_all();
}

/* ------------------------------------------------------------------ 3. wait / test */
#define NW 12
static long wv[NW];
static int wstat[NW];
static long cmpv[NW];

static void pause_a_little(int units)
{
    for (int i = 0; i < units; ++i) (void)shmem_long_g(&wv[0], me); /* own memory: copies, no time */
    long tmp;
    for (int i = 0; i < units; ++i) shmem_long_get(&tmp, &wv[0], 1, (me + 1) % npes); /* a round trip each */
}

static void wait_test(void)
{
    /* PE 0 is the waiter; every other PE sets the words k with k % (npes-1) == its index,
     * one at a time, with pauses between them. */
    memset(wv, 0, sizeof wv);
    shmem_barrier_all();
    if (me != 0) {
        for (int k = 0; k < NW; ++k) {
            if (k % (npes - 1) != me - 1) continue;
            pause_a_little(1 + (int)(test_mix((uint64_t)k) % 4));
            shmem_long_atomic_set(&wv[k], (long)(k + 1), 0);
            shmem_quiet();
        }
    } else {
        size_t idx[NW];
        /* Some: whatever has arrived, at least one, each index once, never an excluded one. */
        for (int k = 0; k < NW; ++k) wstat[k] = k % 5 == 4; /* excluded */
        int seen[NW] = {0}, nseen = 0, want = 0;
        for (int k = 0; k < NW; ++k) want += !wstat[k];
        while (nseen < want) {
            for (int k = 0; k < NW; ++k) wstat[k] = k % 5 == 4 || seen[k];
            size_t n = shmem_long_wait_until_some(wv, NW, idx, wstat, SHMEM_CMP_NE, 0);
            CHECK(n >= 1, "wait_until_some returned %zu", n);
            for (size_t i = 0; i < n; ++i) {
                CHECK(idx[i] < NW && !wstat[idx[i]], "wait_until_some index %zu", idx[i]);
                CHECK(wv[idx[i]] == (long)idx[i] + 1, "word %zu is %ld", idx[i], wv[idx[i]]);
                seen[idx[i]] = 1;
                ++nseen;
            }
        }
        /* All (with the excluded ones too), any, vectors. */
        shmem_long_wait_until_all(wv, NW, NULL, SHMEM_CMP_GT, 0);
        for (int k = 0; k < NW; ++k) CHECK(wv[k] == k + 1, "word %d after wait_until_all", k);
        for (int k = 0; k < NW; ++k) cmpv[k] = k + 1;
        shmem_long_wait_until_all_vector(wv, NW, NULL, SHMEM_CMP_EQ, cmpv);
        size_t a = shmem_long_wait_until_any_vector(wv, NW, wstat, SHMEM_CMP_EQ, cmpv);
        CHECK(a < NW && !wstat[a], "wait_until_any_vector %zu", a);
        CHECK(shmem_long_test_all_vector(wv, NW, NULL, SHMEM_CMP_GE, cmpv) == 1, "test_all_vector");
        CHECK(shmem_long_test_any(wv, NW, NULL, SHMEM_CMP_GT, (long)NW) == SIZE_MAX, "test_any: none");
        /* _any is fair: with every word satisfied, NW calls return every index once. */
        {
            int got[NW] = {0};
            for (int k = 0; k < NW; ++k) {
                size_t j = shmem_long_test_any(wv, NW, NULL, SHMEM_CMP_GT, 0L);
                CHECK(j < NW && !got[j], "test_any fairness: call %d returned %zu", k, j);
                got[j] = 1;
            }
        }
        CHECK(shmem_long_test_some(wv, NW, idx, NULL, SHMEM_CMP_LE, 3L) == 3, "test_some: three");
        for (int k = 0; k < NW; ++k) wstat[k] = 1;
        CHECK(shmem_long_wait_until_any(wv, NW, wstat, SHMEM_CMP_EQ, -5L) == SIZE_MAX, "all excluded: any");
        CHECK(shmem_long_wait_until_some(wv, NW, idx, wstat, SHMEM_CMP_EQ, -5L) == 0, "all excluded: some");
        shmem_long_wait_until_all(wv, NW, wstat, SHMEM_CMP_EQ, -5L); /* returns at once */
    }
    shmem_barrier_all();
    /* Tests make progress: PE 1 polls with shmem_test while PE 0 pauses, then sets. */
    static int flag;
    flag = 0;
    shmem_barrier_all();
    if (me == 0) {
        pause_a_little(3);
        shmem_int_p(&flag, 7, 1);
        shmem_quiet();
    } else if (me == 1) {
        long polls = 0;
        while (!shmem_int_test(&flag, SHMEM_CMP_EQ, 7)) CHECK(++polls < 1000000, "shmem_int_test never sees the put");
        size_t i = SIZE_MAX;
        while ((i = shmem_test_any(&flag, 1, NULL, SHMEM_CMP_EQ, 7)) == SIZE_MAX) /* C11 generic */
            CHECK(++polls < 1000000, "test_any");
        CHECK(i == 0, "test_any index %zu", i);
    }
    shmem_barrier_all();
}

/* ------------------------------------------------------------------ 4. threads */
#define NTHREADS 4
static long thr_cnt;
static long thr_box[MAXPE][NTHREADS];
static int thr_flag[NTHREADS];

static void *thread_main(void *arg)
{
    const int t = (int)(intptr_t)arg;
    const int next = (me + 1) % npes, prev = (me + npes - 1) % npes;
    for (int r = 0; r < 5; ++r) {
        shmem_long_atomic_inc(&thr_cnt, (me + t + r) % npes);
        long v = (long)(me * 1000 + t * 10 + r);
        shmem_long_p(&thr_box[me][t], v, next);
        shmem_quiet();
        long back = shmem_long_g(&thr_box[me][t], next);
        CHECK(back == v, "thread %d: got back %ld, expected %ld", t, back, v);
    }
    /* Thread t waits for thread t of the previous PE to signal it. */
    shmem_int_atomic_add(&thr_flag[t], 1, next);
    shmem_int_wait_until(&thr_flag[t], SHMEM_CMP_GE, 1);
    (void)prev;
    return NULL;
}

static void thread_test(void)
{
    int level = -1;
    shmem_query_thread(&level);
    CHECK(level == SHMEM_THREAD_MULTIPLE, "thread level %d", level);
    thr_cnt = 0;
    memset(thr_flag, 0, sizeof thr_flag);
    shmem_barrier_all();
    pthread_t th[NTHREADS];
    for (int t = 0; t < NTHREADS; ++t) CHECK(pthread_create(&th[t], NULL, thread_main, (void *)(intptr_t)t) == 0, "pthread_create");
    for (int t = 0; t < NTHREADS; ++t) pthread_join(th[t], NULL);
    shmem_barrier_all();
    CHECK(thr_cnt == 5L * NTHREADS, "thread atomics: %ld, expected %d", thr_cnt, 5 * NTHREADS);
    const int prev = (me + npes - 1) % npes;
    for (int t = 0; t < NTHREADS; ++t)
        CHECK(thr_box[prev][t] == (long)(prev * 1000 + t * 10 + 4), "thread %d's puts", t);
    shmem_barrier_all();
}

int main(void)
{
    int provided = -1;
    CHECK(shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided) == 0, "shmem_init_thread");
    CHECK(provided == SHMEM_THREAD_MULTIPLE, "provided %d", provided);
    me = shmem_my_pe();
    npes = shmem_n_pes();
    CHECK(npes >= 2 && npes <= MAXPE, "2..%d PEs", MAXPE);
    alltoall_test();
    ctx_test();
    wait_test();
    thread_test();
    if (me == 0) printf("sync2: %d PEs: alltoall(s), contexts, wait/test families and threads verified\n", npes);
    shmem_finalize();
    return 0;
}
