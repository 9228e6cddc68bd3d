/* header_check.c: shmem.h compiles as user code under -std=c99, -std=c11 and -std=gnu11
 * with -pedantic -Wall -Wextra -Werror, and as C++ (shmem/shmem.mk builds it every way);
 * under C11 the type-generic macros expand to the typed routines, with or without a
 * context. Compiled only, never run.
 */
#include <shmem.h>
#include <shmemx.h>

long header_check_dest[4];

void header_check(void);
void header_check(void)
{
    static long src[4];
    static long pSync[SHMEM_BCAST_SYNC_SIZE];
    shmem_long_put(header_check_dest, src, 4, 0);
    shmem_broadcast64(header_check_dest, src, 1, 0, 0, 0, 2, pSync);
    shmem_team_t t = SHMEM_TEAM_WORLD;
    (void)shmem_team_n_pes(t);
    shmem_ctx_t ctx = SHMEM_CTX_DEFAULT;
    static uint64_t sig;
    shmem_long_atomic_add(&header_check_dest[0], 1, 0);
    (void)shmem_ctx_long_atomic_fetch_inc(ctx, &header_check_dest[0], 0);
    shmem_long_put_signal(header_check_dest, src, 1, &sig, 1, SHMEM_SIGNAL_ADD, 0);
    (void)shmem_signal_wait_until(&sig, SHMEM_CMP_GE, 1);
    static long lock;
    shmem_set_lock(&lock);
    shmem_clear_lock(&lock);
    size_t idx[4];
    (void)shmem_long_test_some(header_check_dest, 4, idx, NULL, SHMEM_CMP_EQ, 0);
    shmem_long_alltoall(SHMEM_TEAM_WORLD, header_check_dest, src, 1);
    shmem_ctx_quiet(ctx);
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
    const long *csrc = src;
    short s = 0;
    double d = 0;
    shmem_put(header_check_dest, csrc, 4, 1);
    shmem_p(&header_check_dest[0], 5L, 1);
    long g = shmem_g(csrc, 1);
    (void)g;
    shmem_wait_until(&header_check_dest[1], SHMEM_CMP_EQ, 3L);
    (void)shmem_test(&s, SHMEM_CMP_NE, (short)0);
    shmem_sum_reduce(SHMEM_TEAM_WORLD, header_check_dest, src, 4);
    shmem_max_reduce(SHMEM_TEAM_WORLD, &d, &d, 1);
    shmem_broadcast(SHMEM_TEAM_WORLD, header_check_dest, src, 4, 0);
    shmem_fcollect(SHMEM_TEAM_WORLD, header_check_dest, src, 1);
    shmem_put(ctx, header_check_dest, csrc, 4, 1);
    long old = shmem_atomic_fetch_add(&header_check_dest[0], 1L, 0);
    old += shmem_atomic_fetch_add(ctx, &header_check_dest[0], 1L, 0);
    unsigned int u = 0;
    shmem_atomic_or(&u, 1u, 0);
    shmem_atomic_fetch_inc_nbi(ctx, &old, &header_check_dest[1], 0);
    double dd = shmem_atomic_swap(&d, 2.0, 0);
    (void)dd;
    shmem_wait_until_any(header_check_dest, 4, NULL, SHMEM_CMP_NE, 0L);
    shmem_sync(SHMEM_TEAM_WORLD);
    shmem_sync(0, 0, 2, pSync);
    shmem_alltoall(SHMEM_TEAM_WORLD, header_check_dest, src, 1);
    (void)old;
#endif
    (void)shmemx_cycles();
}
