/* teams.c: OpenSHMEM 1.5 teams: split_strided, split_2d, destroy, my_pe, n_pes,
 * translate_pe, get_config, team collectives, and what happens when trees run out.
 *   shmem/oshrun -n 9 build/tests/shmem/teams
 * 1. split_2d of the world with xrange 3 (rows and columns; 8 PEs: rows 3,3,2): ranks,
 *    translation to and from the world, sums (hardware when the team has a tree) and
 *    double sums (software) on rows and columns, a broadcast per row, sync.
 * 2. A team split from a team (the even PEs of the world, then every other one of those),
 *    reduced over.
 * 3. Create and destroy a team 20 times: tree ids come back (no "no free tree").
 * 4. Twenty teams alive at once: the ones beyond the free tree ids print the message and
 *    still compute the right sums (in software).
 */
#include <string.h>

#include "shmem_test.h"

static long lsrc[4], ldst[4];
static double dsrc, ddst;
static int me, npes;

/* Sum over the team of (world PE + 1), checked, long (hardware-capable) and double. */
static void sum_check(shmem_team_t t, const char *what)
{
    const int n = shmem_team_n_pes(t);
    long want = 0;
    for (int i = 0; i < n; ++i) want += shmem_team_translate_pe(t, i, SHMEM_TEAM_WORLD) + 1;
    lsrc[0] = me + 1;
    lsrc[1] = 1;
    CHECK(shmem_long_sum_reduce(t, ldst, lsrc, 2) == 0, "reduce");
    CHECK(ldst[0] == want && ldst[1] == n, "%s: long sum %ld (expected %ld), count %ld", what, ldst[0], want, ldst[1]);
    dsrc = me + 1;
    CHECK(shmem_double_sum_reduce(t, &ddst, &dsrc, 1) == 0, "reduce");
    CHECK(ddst == (double)want, "%s: double sum %g (expected %ld)", what, ddst, want);
}

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    CHECK(shmem_team_my_pe(SHMEM_TEAM_WORLD) == me && shmem_team_n_pes(SHMEM_TEAM_WORLD) == npes, "world");
    shmem_team_config_t cfg = {.num_contexts = 3}, got = {0};
    CHECK(shmem_team_get_config(SHMEM_TEAM_WORLD, SHMEM_TEAM_NUM_CONTEXTS, &got) == 0, "get_config");

    /* 1. split_2d */
    const int xr = 3;
    shmem_team_t row, col;
    CHECK(shmem_team_split_2d(SHMEM_TEAM_WORLD, xr, &cfg, SHMEM_TEAM_NUM_CONTEXTS, &row, NULL, 0, &col) == 0, "2d");
    CHECK(row != SHMEM_TEAM_INVALID && col != SHMEM_TEAM_INVALID, "every PE gets both teams");
    const int x = me % xr, y = me / xr, rows = (npes + xr - 1) / xr;
    CHECK(shmem_team_my_pe(row) == x && shmem_team_my_pe(col) == y, "2d ranks %d %d", shmem_team_my_pe(row), shmem_team_my_pe(col));
    CHECK(shmem_team_n_pes(row) == (npes - y * xr < xr ? npes - y * xr : xr), "row size");
    CHECK(shmem_team_n_pes(col) == rows - (x >= npes - (rows - 1) * xr ? 1 : 0), "column size %d", shmem_team_n_pes(col));
    CHECK(shmem_team_translate_pe(row, 0, SHMEM_TEAM_WORLD) == y * xr, "row translate");
    CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, me, col) == y, "col translate");
    CHECK(shmem_team_translate_pe(row, 0, col) == (x == 0 ? y : -1), "row -> col translate");
    CHECK(shmem_team_get_config(row, SHMEM_TEAM_NUM_CONTEXTS, &got) == 0 && got.num_contexts == 3, "config kept");
    sum_check(row, "row");
    sum_check(col, "column");
    static long rb[8];
    long mine[8];
    for (int i = 0; i < 8; ++i) mine[i] = me * 10 + i;
    CHECK(shmem_long_broadcast(row, rb, mine, 8, 1 % shmem_team_n_pes(row)) == 0, "bcast");
    for (int i = 0; i < 8; ++i)
        CHECK(rb[i] == shmem_team_translate_pe(row, 1 % shmem_team_n_pes(row), SHMEM_TEAM_WORLD) * 10 + i, "row bcast");
    CHECK(shmem_team_sync(row) == 0 && shmem_team_sync(col) == 0, "sync");
    shmem_team_destroy(row);
    shmem_team_destroy(col);
    shmem_barrier_all();

    /* 2. A team of a team. */
    shmem_team_t even, quarter;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0, &even) == 0, "even");
    if (even != SHMEM_TEAM_INVALID) {
        CHECK(shmem_team_split_strided(even, 0, 2, (shmem_team_n_pes(even) + 1) / 2, NULL, 0, &quarter) == 0, "quarter");
        sum_check(even, "even");
        if (quarter != SHMEM_TEAM_INVALID) {
            CHECK(shmem_team_translate_pe(quarter, 1, SHMEM_TEAM_WORLD) == 4, "quarter's PE 1 is world PE 4");
            sum_check(quarter, "team of a team");
            shmem_team_destroy(quarter);
        } else {
            CHECK(me % 4 != 0, "PE %d should be in the quarter team", me);
        }
        shmem_team_destroy(even);
    }
    shmem_barrier_all();

    /* 3. Ids come back. */
    for (int k = 0; k < 20; ++k) {
        shmem_team_t t;
        CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, k % 2, 1, npes - 1, NULL, 0, &t) == 0, "split");
        if (t != SHMEM_TEAM_INVALID) {
            sum_check(t, "create/destroy loop");
            shmem_team_destroy(t);
        }
    }
    shmem_barrier_all();

    /* 4. More teams than trees. */
    enum { MANY = 20 };
    shmem_team_t many[MANY];
    for (int k = 0; k < MANY; ++k)
        CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, k % 2, 1, 2 + k % (npes - 2), NULL, 0, &many[k]) == 0, "split");
    for (int k = 0; k < MANY; ++k) {
        if (many[k] != SHMEM_TEAM_INVALID) sum_check(many[k], "one of many teams");
        shmem_barrier_all();
    }
    for (int k = 0; k < MANY; ++k)
        if (many[k] != SHMEM_TEAM_INVALID) shmem_team_destroy(many[k]);
    shmem_barrier_all();
    if (me == 0) printf("teams: ok\n");
    shmem_finalize();
    return 0;
}
