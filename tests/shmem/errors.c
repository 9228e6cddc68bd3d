/* errors.c: misuse must stop the program with a message naming the call and the value.
 *   shmem/oshrun -n 9 build/tests/shmem/errors MODE     (tests/shmem/run_errors.sh runs all)
 * MODE: badpe (put to PE n_pes), negpe (get from PE -1), badteam (a collective on
 * SHMEM_TEAM_INVALID), badroot (broadcast from a root outside the team), notsym (put to a
 * stack variable), badaset (barrier over an active set beyond the last PE), badcmp
 * (wait_until with an unknown comparison), amonotsym (an atomic on a stack variable),
 * amoalign (an atomic on a misaligned long), locknotsym (a lock on a stack variable),
 * ctxdead (a put on a destroyed context), ctxinvalid (a put on SHMEM_CTX_INVALID, after a
 * quiet and a fence on it, which do nothing), sigop (put with
 * signal and an unknown sig_op), a2astride (alltoalls with stride 0), unlocked (clearing a
 * lock nobody holds). "ok" runs the calls that must not fail: team
 * queries on SHMEM_TEAM_INVALID return -1, a bad split triplet returns nonzero.
 * "exit STATUS": the last PE calls shmem_global_exit(STATUS) while every other PE waits in
 * a barrier it never completes; the whole job must end with STATUS.
 * "silent" (with a short CANOPY_SHMEM_COLL_TIMEOUT_US): the last PE never comes to a
 * barrier; the others' tree goes down, they start the link recovery, and it stops the
 * program within its bound, naming a PE that did not join (docs/shmem.md).
 */
#include <stdlib.h>
#include <string.h>

#include "shmem_test.h"

static long target[4];
static long lock;
static long pSync[SHMEM_BARRIER_SYNC_SIZE];

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "ok";
    shmem_init();
    const int me = shmem_my_pe(), n = shmem_n_pes();
    if (!strcmp(mode, "ok")) {
        CHECK(shmem_team_my_pe(SHMEM_TEAM_INVALID) == -1 && shmem_team_n_pes(SHMEM_TEAM_INVALID) == -1, "invalid team queries");
        CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, n, SHMEM_TEAM_WORLD) == -1, "translate out of range");
        shmem_team_t t = SHMEM_TEAM_WORLD;
        CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, n, NULL, 0, &t) != 0 && t == SHMEM_TEAM_INVALID,
              "an invalid triplet is refused");
        CHECK(shmem_team_n_pes(SHMEM_TEAM_SHARED) == 1 && shmem_team_my_pe(SHMEM_TEAM_SHARED) == 0, "shared team");
        shmem_barrier_all();
        if (me == 0) printf("errors: ok\n");
    } else if (!strcmp(mode, "badpe")) {
        if (me == 1) shmem_long_p(target, 5, n);
    } else if (!strcmp(mode, "negpe")) {
        if (me == 1) (void)shmem_long_g(target, -1);
    } else if (!strcmp(mode, "badteam")) {
        shmem_long_sum_reduce(SHMEM_TEAM_INVALID, target, target + 1, 1);
    } else if (!strcmp(mode, "badroot")) {
        shmem_broadcastmem(SHMEM_TEAM_WORLD, target, target + 1, 8, n);
    } else if (!strcmp(mode, "notsym")) {
        long local = 0;
        if (me == 1) shmem_long_put(&local, target, 1, 0);
    } else if (!strcmp(mode, "badaset")) {
        shmem_barrier(1, 1, n, pSync);
    } else if (!strcmp(mode, "badcmp")) {
        shmem_long_wait_until(target, 42, 0);
    } else if (!strcmp(mode, "amonotsym")) {
        long local = 0;
        if (me == 1) (void)shmem_long_atomic_fetch_add(&local, 1, 0);
    } else if (!strcmp(mode, "amoalign")) {
        if (me == 1) shmem_long_atomic_inc((long *)((char *)target + 4), 0);
    } else if (!strcmp(mode, "locknotsym")) {
        long local = 0;
        if (me == 1) shmem_set_lock(&local);
    } else if (!strcmp(mode, "ctxdead")) {
        shmem_ctx_t c;
        CHECK(shmem_ctx_create(0, &c) == 0, "shmem_ctx_create");
        shmem_ctx_destroy(c);
        if (me == 1) shmem_ctx_long_p(c, target, 5, 0);
    } else if (!strcmp(mode, "ctxinvalid")) {
        shmem_ctx_quiet(SHMEM_CTX_INVALID); /* no effect */
        shmem_ctx_fence(SHMEM_CTX_INVALID);
        if (me == 1) shmem_ctx_long_p(SHMEM_CTX_INVALID, target, 1, 0);
    } else if (!strcmp(mode, "sigop")) {
        static uint64_t sig;
        if (me == 1) shmem_long_put_signal(target, target + 1, 1, &sig, 1, 7, 0);
    } else if (!strcmp(mode, "a2astride")) {
        static long dst[256], src[256];
        shmem_long_alltoalls(SHMEM_TEAM_WORLD, dst, src, 0, 1, 1);
    } else if (!strcmp(mode, "unlocked")) {
        if (me == 1) shmem_clear_lock(&lock);
    } else if (!strcmp(mode, "silent")) {
        if (me == n - 1) shmem_long_wait_until(&target[3], SHMEM_CMP_EQ, 42); /* nobody writes it */
        shmem_barrier_all();
    } else if (!strcmp(mode, "exit") && argc > 2) {
        if (me == n - 1) {
            printf("errors: PE %d calls shmem_global_exit(%s)\n", me, argv[2]);
            shmem_global_exit(atoi(argv[2]));
        }
        shmem_barrier_all(); /* never completes: PE n-1 does not arrive */
        printf("errors: PE %d passed a barrier PE %d never reached\n", me, n - 1);
    }
    shmem_finalize();
    return 0;
}
