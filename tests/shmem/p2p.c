/* p2p.c: point-to-point RMA and synchronization across all pairs of PEs.
 *
 *   shmem/oshrun -n 9 build/tests/shmem/p2p
 *
 * Targets are static globals (aliased .data/.bss: initialized data keeps its initial
 * value on every PE until written) and heap blocks. For every (source, target) pair:
 * putmem, typed put of every RMA type, p, iput (strided both sides), put8..128; then
 * flags written last and waited for with shmem_TYPE_wait_until for every wait type and
 * comparison; shmem_TYPE_test. Gets (one-sided: served by the target's host interface
 * without its software): getmem, typed get and g of every RMA type, get_nbi completed by
 * quiet, get32/get128, iget, from every PE, into symmetric and into private memory.
 * Fence: blocks, each followed by a fence and a flag, many times the injection ring
 * (16 KiB) without waiting; the target checks each block when it sees its flag. Then the
 * heap: shmem_align up to 4 MiB, shmem_malloc_with_hints, calloc, realloc, the deprecated
 * names, malloc(0).
 */
#include <string.h>

#include "shmem_test.h"

#define MAXPE 64
static long initialized_global[4] = {11, 22, 33, 44}; /* .data */
static unsigned char inbox[MAXPE][64];                 /* .bss: one row per source */
static long long flags[MAXPE];
static int iflags[MAXPE];
static short sflags[MAXPE];
static uint64_t u64flags[MAXPE];
static long strided[MAXPE][16];
static int me, npes;

static unsigned char pat(int src, int dst, int i) { return (unsigned char)test_mix((uint64_t)src * 977u + (uint64_t)dst * 131u + (uint64_t)i); }

#define TYPED_PUT(T, N)                                                                    \
    {                                                                                      \
        static T t_##N[MAXPE][3];                                                          \
        T v[3] = {(T)(me + 1), (T)(dst + 2), (T)3};                                        \
        shmem_##N##_put(t_##N[me], v, 3, dst);                                             \
        shmem_##N##_p(&t_##N[me][2], (T)(me * 2 + 1), dst);                                \
        shmem_barrier_all();                                                               \
        for (int s = 0; s < npes; ++s) {                                                   \
            int d = (s + shift) % npes; /* the target s wrote to */                        \
            if (d != me) continue;                                                         \
            CHECK(t_##N[s][0] == (T)(s + 1) && t_##N[s][1] == (T)(me + 2) && t_##N[s][2] == (T)(s * 2 + 1), \
                  "%s put/p from PE %d", #N, s);                                           \
        }                                                                                  \
    }

static void puts_shift(int shift)
{
    const int dst = (me + shift) % npes;
    unsigned char buf[64];
    for (int i = 0; i < 64; ++i) buf[i] = pat(me, dst, i);
    shmem_putmem(inbox[me], buf, 64, dst);
    long row[16];
    for (int i = 0; i < 16; ++i) row[i] = me * 100 + i;
    memset(strided[me], 0, sizeof strided[me]);
    shmem_barrier_all();
    /* iput: every 2nd source element to every 3rd target element. */
    shmem_long_iput(strided[me], row, 3, 2, 5, dst);
    shmem_put64(&strided[me][15], &row[1], 1, dst);
    shmem_barrier_all();
    for (int s = 0; s < npes; ++s) {
        if ((s + shift) % npes != me) continue;
        for (int i = 0; i < 64; ++i) CHECK(inbox[s][i] == pat(s, me, i), "putmem from PE %d byte %d", s, i);
        for (int k = 0; k < 5; ++k) CHECK(strided[s][3 * k] == s * 100 + 2 * k, "iput from PE %d element %d", s, k);
        CHECK(strided[s][1] == 0 || s == me, "iput wrote a gap");
        CHECK(strided[s][15] == s * 100 + 1, "put64 from PE %d", s);
    }
    SHMEMI_RMA_TYPES(TYPED_PUT)
    shmem_barrier_all();
}

static void waits(void)
{
    /* Each PE signals the next: data, then flags of four types; the receiver waits with
     * every comparison in turn, the flag values stepping so each wait has to block or not. */
    const int next = (me + 1) % npes, prev = (me + npes - 1) % npes;
    static const int cmps[] = {SHMEM_CMP_EQ, SHMEM_CMP_NE, SHMEM_CMP_GT, SHMEM_CMP_GE, SHMEM_CMP_LT, SHMEM_CMP_LE};
    for (int round = 1; round <= 6; ++round) {
        long long v = round * 10;
        shmem_longlong_p(&flags[me], v, next);
        shmem_int_p(&iflags[me], round, next);
        shmem_short_p(&sflags[me], (short)(round * 3), next);
        shmem_uint64_p(&u64flags[me], (uint64_t)round << 40, next);
        const int c = cmps[round - 1];
        /* A comparison that holds for the new value and not for the old one. */
        switch (c) {
        case SHMEM_CMP_EQ: shmem_longlong_wait_until(&flags[prev], c, v); break;
        case SHMEM_CMP_NE: shmem_longlong_wait_until(&flags[prev], c, (round - 1) * 10LL); break;
        case SHMEM_CMP_GT: shmem_longlong_wait_until(&flags[prev], c, v - 1); break;
        case SHMEM_CMP_GE: shmem_longlong_wait_until(&flags[prev], c, v); break;
        case SHMEM_CMP_LT: shmem_longlong_wait_until(&flags[prev], SHMEM_CMP_GE, v); break;
        default: shmem_longlong_wait_until(&flags[prev], SHMEM_CMP_GE, v); break;
        }
        shmem_int_wait_until(&iflags[prev], SHMEM_CMP_GE, round);
        shmem_short_wait_until(&sflags[prev], SHMEM_CMP_EQ, (short)(round * 3));
        shmem_uint64_wait_until(&u64flags[prev], SHMEM_CMP_GT, ((uint64_t)round << 40) - 1);
        CHECK(shmem_longlong_test(&flags[prev], SHMEM_CMP_EQ, v) == 1, "test EQ");
        CHECK(shmem_longlong_test(&flags[prev], SHMEM_CMP_LT, v) == 0, "test LT");
        CHECK(shmem_int_test(&iflags[prev], SHMEM_CMP_LE, round) == 1, "test LE");
        shmem_barrier_all();
    }
    shmem_wait(&initialized_global[0], 0); /* deprecated: returns at once, the value is not 0 */
}

#define TYPED_GET(T, N)                                                                    \
    {                                                                                      \
        static T g_##N[3];                                                                 \
        for (int i = 0; i < 3; ++i) g_##N[i] = (T)(me * 3 + i + 1);                       \
        shmem_barrier_all();                                                               \
        for (int src = 0; src < npes; ++src) {                                             \
            T v[3] = {0, 0, 0};                                                            \
            shmem_##N##_get(v, g_##N, 3, src);                                             \
            CHECK(v[0] == (T)(src * 3 + 1) && v[2] == (T)(src * 3 + 3), "%s get from PE %d", #N, src); \
            CHECK(shmem_##N##_g(&g_##N[1], src) == (T)(src * 3 + 2), "%s g from PE %d", #N, src); \
        }                                                                                  \
        shmem_barrier_all();                                                               \
    }

static void gets_all_pairs(void)
{
    long *heap = shmem_malloc(64 * sizeof(long));
    for (int i = 0; i < 64; ++i) heap[i] = me * 1000 + i;
    shmem_barrier_all();
    static long sym[64];
    static long nbi[MAXPE][4];
    for (int src = 0; src < npes; ++src) {
        long priv[64];
        shmem_long_get(priv, heap, 64, src);
        for (int i = 0; i < 64; ++i) CHECK(priv[i] == src * 1000 + i, "get from PE %d into private memory", src);
        shmem_getmem(sym, heap, 64 * sizeof(long), src);
        for (int i = 0; i < 64; ++i) CHECK(sym[i] == src * 1000 + i, "getmem from PE %d into a global", src);
        CHECK(shmem_long_g(&heap[7], src) == src * 1000 + 7, "g from PE %d", src);
        CHECK(shmem_long_g(&initialized_global[2], src) == 33, "g of initialized data from PE %d", src);
        long every3[8];
        shmem_long_iget(every3, heap, 1, 3, 8, src);
        for (int k = 0; k < 8; ++k) CHECK(every3[k] == src * 1000 + 3 * k, "iget from PE %d", src);
        uint32_t w32[4];
        shmem_get32(w32, heap, 4, src); /* heap[0], heap[1] as 32-bit halves */
        CHECK(((uint64_t)w32[1] << 32 | w32[0]) == (uint64_t)(src * 1000), "get32 from PE %d", src);
        shmem_get128(priv, &heap[10], 2, src);
        CHECK(priv[0] == src * 1000 + 10 && priv[3] == src * 1000 + 13, "get128 from PE %d", src);
        /* Non-blocking into a global: complete (and only then checked) after quiet. */
        shmem_long_get_nbi(nbi[src], &heap[20], 4, src);
    }
    shmem_quiet();
    for (int src = 0; src < npes; ++src)
        for (int i = 0; i < 4; ++i) CHECK(nbi[src][i] == src * 1000 + 20 + i, "get_nbi from PE %d", src);
    shmem_barrier_all();
    shmem_free(heap);
    SHMEMI_RMA_TYPES(TYPED_GET)
}

/* shmem_align: an aligned address on every PE, or NULL on every PE for an alignment past
 * what every window base has (only past the page); the block is symmetric (a put from the
 * previous PE lands in it). Then calloc, realloc (growing keeps the contents), the
 * deprecated names, and malloc(0). */
/* shmem_fence: a put to a PE issued after a fence arrives after every put to that PE
 * issued before it. canopy's fence does nothing: puts to one PE are delivered in issue
 * order (fixed routes, in-order DMA), which is what this checks, with the injection ring
 * full. Per target (one and npes/2 ahead): FENCE_ROUNDS blocks back to back, each followed
 * by a fence and its flag; puts wait for ring space behind earlier ones. The target checks
 * block r as soon as the flag says r arrived. */
#define FENCE_ROUNDS 24
#define FENCE_BYTES 8192
static long fence_flag;

static void fences(void)
{
    unsigned char *blocks = shmem_malloc(FENCE_ROUNDS * FENCE_BYTES);
    unsigned char *src = malloc(FENCE_BYTES);
    CHECK(blocks && src, "fence buffers");
    const int shifts[2] = {1, npes / 2};
    for (int k = 0; k < 2; ++k) {
        const int shift = shifts[k], dst = (me + shift) % npes, from = (me + npes - shift) % npes;
        if (k == 1 && (shift == 0 || shift == shifts[0])) break;
        fence_flag = 0;
        shmem_barrier_all();
        for (int r = 0; r < FENCE_ROUNDS; ++r) {
            for (int i = 0; i < FENCE_BYTES; ++i) src[i] = pat(me, dst, r * FENCE_BYTES + i);
            shmem_putmem(blocks + (size_t)r * FENCE_BYTES, src, FENCE_BYTES, dst);
            shmem_fence();
            shmem_long_p(&fence_flag, r + 1, dst);
        }
        for (int r = 0; r < FENCE_ROUNDS; ++r) {
            shmem_long_wait_until(&fence_flag, SHMEM_CMP_GE, r + 1);
            const unsigned char *got = blocks + (size_t)r * FENCE_BYTES;
            int bad = -1;
            for (int i = 0; i < FENCE_BYTES && bad < 0; ++i)
                if (got[i] != pat(from, me, r * FENCE_BYTES + i)) bad = i;
            CHECK(bad < 0, "fence: block %d from PE %d wrong at byte %d when its flag had arrived", r, from, bad);
        }
        shmem_barrier_all();
    }
    free(src);
    shmem_free(blocks);
}

static void heap_calls(void)
{
    const int prev = (me + npes - 1) % npes;
    /* Any power of two the PEs' windows agree on (co-simulation: arenas congruent modulo
     * 512 MiB; docs/shmem.md, "Memory"), 4 MiB included. */
    for (size_t align = 64; align <= (4u << 20); align <<= 1) {
        long *p = shmem_align(align, 100 * sizeof(long));
        CHECK(p != NULL, "shmem_align(%zu) returned NULL", align);
        CHECK((uintptr_t)p % align == 0, "shmem_align(%zu) = %p", align, (void *)p);
        shmem_long_p(&p[99], me * 10 + 1, (me + 1) % npes);
        shmem_barrier_all();
        CHECK(p[99] == prev * 10 + 1, "shmem_align(%zu) block is not symmetric", align);
        shmem_free(p);
    }
    int *z = shmem_calloc(64, sizeof(int));
    for (int i = 0; i < 64; ++i) CHECK(z[i] == 0, "shmem_calloc is not zeroed");
    for (int i = 0; i < 64; ++i) z[i] = i + me;
    z = shmem_realloc(z, 4096 * sizeof(int));
    for (int i = 0; i < 64; ++i) CHECK(z[i] == i + me, "shmem_realloc lost the contents");
    shmem_free(z);
    long *h = shmem_malloc_with_hints(64, SHMEM_MALLOC_ATOMICS_REMOTE | SHMEM_MALLOC_SIGNAL_REMOTE);
    CHECK(h && (uintptr_t)h % 64 == 0, "shmem_malloc_with_hints");
    shmem_long_p(&h[7], me, prev);
    shmem_barrier_all();
    CHECK(h[7] == (me + 1) % npes, "shmem_malloc_with_hints block is not symmetric");
    shmem_free(h);
    long *d = shmalloc(16);
    void *a = shmemalign(256, 16);
    CHECK(d && a && (uintptr_t)a % 256 == 0, "shmalloc/shmemalign");
    shfree(a);
    shfree(d);
    CHECK(shmem_malloc(0) == NULL, "shmem_malloc(0) returns NULL");
}

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    CHECK(npes <= MAXPE, "at most %d PEs", MAXPE);
    CHECK(initialized_global[1] == 22, "initialized data survived shmem_init");
    CHECK(shmem_addr_accessible(inbox, (me + 1) % npes) && shmem_addr_accessible(&initialized_global[3], 0),
          "globals are symmetric");
    long local_var = 0;
    CHECK(!shmem_addr_accessible(&local_var, 0), "a stack variable is not symmetric");
    CHECK(shmem_pe_accessible(npes - 1) && !shmem_pe_accessible(npes), "pe_accessible");
    for (int shift = 0; shift < npes; ++shift) puts_shift(shift); /* all pairs, self included */
    waits();
    gets_all_pairs();
    fences();
    heap_calls();
    if (me == 0) printf("p2p: all %d x %d pairs ok\n", npes, npes);
    shmem_finalize();
    return 0;
}
