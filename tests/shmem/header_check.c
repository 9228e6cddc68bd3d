/* header_check.c: shmem.h compiles as user code under -std=c99 and -std=c11 with
 * -pedantic -Wall -Wextra -Werror (shmem/shmem.mk builds it both ways); under C11 the
 * type-generic macros expand to the typed routines. Compiled only, never run.
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
#endif
    (void)shmemx_cycles();
}
