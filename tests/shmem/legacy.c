/* legacy.c: a SHMEM program as they were written before OpenSHMEM 1.2, unmodified:
 * start_pes, _my_pe/_num_pes, shmalloc/shmemalign/shfree, the _SHMEM_* constants, pSync
 * arrays set to _SHMEM_SYNC_VALUE, active-set broadcast and *_to_all reductions, a ring of
 * shmem_int_p + shmem_int_wait_until, shmem_long_wait, and no shmem_finalize: the library
 * finalizes at exit. With the argument "mixed", even PEs do call shmem_finalize and odd
 * PEs return without it (their implicit finalize must meet the explicit one).
 *
 * Built by shmem/oshcc -std=gnu99 (as such code is built elsewhere) and run by
 * tests/shmem/run_legacy.sh, which also checks that every PE's finalize ran. Prints
 * "legacy: ok" on PE 0; exits 1 on the first wrong value.
 */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 8

static long pSync[_SHMEM_BCAST_SYNC_SIZE];
static long pSyncRed[_SHMEM_REDUCE_SYNC_SIZE];
static long pWrk[N / 2 + 1 > _SHMEM_REDUCE_MIN_WRKDATA_SIZE ? N / 2 + 1 : _SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static long mine[N], total[N];
static int token;
static long ready;

static void check(int ok, const char *what, int me)
{
    if (!ok) {
        fprintf(stderr, "legacy: PE %d: %s\n", me, what);
        exit(1);
    }
}

int main(int argc, char **argv)
{
    int i, me, npes;
    start_pes(0);
    start_pes(0); /* a second start_pes is allowed and does nothing */
    me = _my_pe();
    npes = _num_pes();
    for (i = 0; i < _SHMEM_BCAST_SYNC_SIZE; i++) pSync[i] = _SHMEM_SYNC_VALUE;
    for (i = 0; i < _SHMEM_REDUCE_SYNC_SIZE; i++) pSyncRed[i] = _SHMEM_SYNC_VALUE;
    shmem_barrier_all(); /* every pSync is set before anyone uses it */

    /* Broadcast from the last PE: the others get its data, its own destination stays. */
    long *src = (long *)shmalloc(N * sizeof(long));
    long *dst = (long *)shmemalign(128, N * sizeof(long));
    check(src && dst && (unsigned long)dst % 128 == 0, "shmalloc/shmemalign", me);
    for (i = 0; i < N; i++) src[i] = 1000L * me + i, dst[i] = -1;
    shmem_barrier_all();
    shmem_broadcast64(dst, src, N, npes - 1, 0, 0, npes, pSync);
    for (i = 0; i < N; i++)
        check(dst[i] == (me == npes - 1 ? -1 : 1000L * (npes - 1) + i), "broadcast64 result", me);
    shmem_barrier_all(); /* pSync is free again only when every PE has left the call */
    for (i = 0; i < _SHMEM_BCAST_SYNC_SIZE; i++) check(pSync[i] == _SHMEM_SYNC_VALUE, "pSync restored", me);

    /* Sum and max over every PE, then over the even PEs (stride 2^1). */
    for (i = 0; i < N; i++) mine[i] = me + i;
    shmem_long_sum_to_all(total, mine, N, 0, 0, npes, pWrk, pSyncRed);
    for (i = 0; i < N; i++) check(total[i] == (long)npes * (npes - 1) / 2 + (long)npes * i, "sum_to_all", me);
    shmem_barrier_all();
    if (me % 2 == 0) {
        int evens = (npes + 1) / 2;
        shmem_long_max_to_all(total, mine, N, 0, 1, evens, pWrk, pSyncRed);
        for (i = 0; i < N; i++) check(total[i] == 2L * (evens - 1) + i, "max_to_all over the even PEs", me);
    }
    shmem_barrier_all();

    /* A token ring: PE k waits for k, then passes k + 1 to its right neighbour. */
    if (me == 0) shmem_int_p(&token, 1, 1 % npes);
    shmem_int_wait_until(&token, _SHMEM_CMP_EQ, me == 0 ? npes : me);
    if (me != 0) shmem_int_p(&token, me + 1, (me + 1) % npes);
    /* shmem_long_wait: block while the value is still the old one. */
    if (me == 0)
        for (i = 1; i < npes; i++) shmem_long_p(&ready, 7, i);
    else
        shmem_long_wait(&ready, 0);
    check(me == 0 || ready == 7, "shmem_long_wait", me);

    shfree(dst);
    shfree(src);
    if (me == 0) printf("legacy: ok (%d PEs)\n", npes);
    if (argc > 1 && !strcmp(argv[1], "mixed") && me % 2 == 0) shmem_finalize();
    return 0;
}
