/* dead_link.c: an OpenSHMEM program that keeps running when a link of its world tree dies
 * (docs/shmem.md, "When a link goes down").
 *
 *   CANOPY_SHMEM_COLL_TIMEOUT_US=40 shmem/oshrun -n 9 --torus 3x3 --link-protect \
 *       --dead-link 4:0:CYCLE build/tests/shmem/dead_link CYCLE
 *
 * Phase 1: 200 allreduces (long sum) over the world team, each checked; the link dies
 * under one of them (CYCLE: after shmem_init, well before the last): that call ends with
 * the right sum on every PE (in software, or, for a PE that missed a call the others
 * completed, with their result), and every PE knows the dead link's two ends. Phase 2, everything on the survivors' routes in software: allreduces of
 * long and double, a broadcast from every root, fcollect and collect, a barrier after
 * puts, a team of the even PEs with its own reduce; then the collective counts show both
 * hardware (before) and software (after). Puts between PEs whose route survives still
 * land (the barrier phase); one whose route crosses the link would stop the program with
 * CANOPY_EUNREACH (the driver test coll_fail checks that refusal).
 */
#include <inttypes.h>
#include <string.h>

#include <shmemx.h>

#include "shmem_test.h"

#define N 16
#define MAXPE 64
#define ROUNDS 200
static long src[N], dst[N];
static double dsrc[N], ddst[N];
static unsigned char bc[100];
static long fc[MAXPE * 2], cc[MAXPE * 3], mine[3];
static long slots[MAXPE];
static int me, npes;

static void allreduce_long(int round)
{
    for (int j = 0; j < N; ++j) src[j] = (long)me * 1000 + round + j;
    memset(dst, 0, sizeof dst);
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dst, src, N);
    const long pes = npes;
    for (int j = 0; j < N; ++j)
        CHECK(dst[j] == 1000 * pes * (pes - 1) / 2 + pes * (round + j), "allreduce %d element %d: %ld", round, j,
              dst[j]);
}

int main(int argc, char **argv)
{
    CHECK(argc == 2, "usage: dead_link CYCLE (the cycle the link dies at)");
    const uint64_t dies = strtoull(argv[1], NULL, 0);
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    CHECK(npes >= 4 && npes <= MAXPE, "4 to %d PEs, not %d", MAXPE, npes);
    CHECK(shmemx_cycles() < dies, "the link died (cycle %" PRIu64 ") before shmem_init returned (%" PRIu64 ")", dies,
          shmemx_cycles());
    CHECK(shmemx_links_down() == 0, "links down before the death");

    /* A fixed count (the PEs may recover in different calls: those above the link can
     * complete the call it died under), enough to outlast the death. */
    int round = 0;
    while (round < ROUNDS) allreduce_long(round++);
    CHECK(shmemx_links_down() != 0, "the link did not die within %d allreduces (cycle %" PRIu64 ")", ROUNDS,
          shmemx_cycles());
    CHECK(shmemx_links_down() == 2, "%d link ends down, expected the dead link's two", shmemx_links_down());
    uint64_t hw0, sw0;
    shmemx_coll_counts(&hw0, &sw0);
    CHECK(hw0 > 0, "nothing ran in the routers before the death");

    /* Phase 2: software over the live routes. */
    for (int k = 0; k < 5; ++k) allreduce_long(round++);
    for (int j = 0; j < N; ++j) dsrc[j] = 0.5 * me + j;
    shmem_double_sum_reduce(SHMEM_TEAM_WORLD, ddst, dsrc, N);
    for (int j = 0; j < N; ++j)
        CHECK(ddst[j] == 0.25 * npes * (npes - 1) + (double)npes * j, "double allreduce element %d: %g", j, ddst[j]);
    for (int root = 0; root < npes; ++root) {
        unsigned char want[sizeof bc];
        for (size_t i = 0; i < sizeof bc; ++i) want[i] = (unsigned char)(root * 31 + i);
        if (me == root) memcpy(bc, want, sizeof bc);
        else memset(bc, 0, sizeof bc);
        shmem_broadcastmem(SHMEM_TEAM_WORLD, bc, bc, sizeof bc, root);
        CHECK(!memcmp(bc, want, sizeof bc), "broadcast from PE %d wrong", root);
    }
    const long two[2] = {me * 10L, me * 10L + 1};
    shmem_long_fcollect(SHMEM_TEAM_WORLD, fc, two, 2);
    for (int p = 0; p < npes; ++p)
        CHECK(fc[2 * p] == p * 10L && fc[2 * p + 1] == p * 10L + 1, "fcollect block of PE %d", p);
    const size_t nmine = (size_t)(me % 3) + 1;
    for (size_t i = 0; i < nmine; ++i) mine[i] = me * 100L + (long)i;
    shmem_long_collect(SHMEM_TEAM_WORLD, cc, mine, nmine);
    for (int p = 0, at = 0; p < npes; ++p)
        for (int i = 0; i <= p % 3; ++i, ++at) CHECK(cc[at] == p * 100L + i, "collect element %d (PE %d)", at, p);
    /* Puts over the routes that survive, completed by the barrier. */
    memset(slots, 0, sizeof slots);
    shmem_barrier_all();
    for (int p = 0; p < npes; ++p) {
        if (p == me) continue;
        const long v = 7000L + me;
        /* The library refuses a put whose route crosses the dead link: ask first. */
        if (shmemx_pe_reachable(p)) shmem_long_p(&slots[me], v, p);
    }
    shmem_barrier_all();
    int got = 0;
    for (int p = 0; p < npes; ++p)
        if (p != me && shmemx_pe_reachable(p)) {
            CHECK(slots[p] == 7000L + p, "put from PE %d: %ld", p, slots[p]);
            ++got;
        } else {
            CHECK(slots[p] == 0, "slot of PE %d written (%ld)", p, slots[p]);
        }
    CHECK(got > 0, "no PE reachable");
    shmem_team_t even;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0, &even) == 0, "team split");
    if (even != SHMEM_TEAM_INVALID) {
        for (int j = 0; j < N; ++j) src[j] = me + j;
        shmem_long_max_reduce(even, dst, src, N);
        const long top = (npes - 1) / 2 * 2;
        for (int j = 0; j < N; ++j) CHECK(dst[j] == top + j, "even team max element %d: %ld", j, dst[j]);
        shmem_team_destroy(even);
    }
    uint64_t hw1, sw1;
    shmemx_coll_counts(&hw1, &sw1);
    CHECK(hw1 == hw0, "%" PRIu64 " collectives ran in the routers after the links were recovered", hw1 - hw0);
    CHECK(sw1 > sw0 + npes, "collectives after the death did not run in software");
    if (me == 0)
        printf("dead_link: %d link ends down; %" PRIu64 " collectives ran in the routers before, %" PRIu64
               " in software after, all right\n", shmemx_links_down(), hw0, sw1 - sw0);
    shmem_finalize();
    return 0;
}
