/* barrier.c: barrier semantics. Every round, after a random delay (a random number of
 * puts and quiets, which take simulated time), every PE puts a 256-byte marker into its
 * slot on every PE and calls shmem_barrier_all; on return every slot must hold every PE's
 * marker of this round (the barrier completes earlier puts). The same with shmem_barrier
 * over an active set (its members' slots) and shmem_team_sync after a shmem_quiet on a
 * team. Random numbers: splitmix64 of (PE, round).
 *   shmem/oshrun -n 9 build/tests/shmem/barrier
 */
#include <string.h>

#include "shmem_test.h"

#define MAXPE 64
#define ROUNDS 12
static unsigned char slots[MAXPE][256];
static unsigned char scratch[1024];
static long pSync[SHMEM_BARRIER_SYNC_SIZE];
static int me, npes;

static unsigned char mark(int pe, int round, int i) { return (unsigned char)test_mix((uint64_t)pe << 32 | (uint64_t)round << 12 | (uint64_t)i); }

static void delay(int round)
{
    uint64_t r = test_mix((uint64_t)me * 7777u + (uint64_t)round);
    for (unsigned k = 0; k < r % 6; ++k) {
        shmem_putmem(scratch, scratch + 512, 256, (int)(((r >> 8) + k) % (uint64_t)npes));
        shmem_quiet();
    }
}

static void post(int round, int start, int stride, int size)
{
    unsigned char m[256];
    for (int i = 0; i < 256; ++i) m[i] = mark(me, round, i);
    for (int k = 0; k < size; ++k) shmem_putmem(slots[me], m, 256, start + k * stride);
}

static void verify(int round, int start, int stride, int size, const char *what)
{
    for (int k = 0; k < size; ++k) {
        int s = start + k * stride;
        for (int i = 0; i < 256; ++i)
            CHECK(slots[s][i] == mark(s, round, i), "%s round %d: PE %d's put not complete (byte %d)", what, round, s, i);
    }
}

int main(void)
{
    for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; ++i) pSync[i] = SHMEM_SYNC_VALUE;
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    CHECK(npes <= MAXPE, "too many PEs");
    for (int round = 1; round <= ROUNDS; ++round) {
        delay(round);
        post(round, 0, 1, npes);
        shmem_barrier_all();
        verify(round, 0, 1, npes, "shmem_barrier_all");
        shmem_barrier_all(); /* nobody posts the next round before everyone has verified */
    }
    /* Active set of the even PEs (tree with transit nodes or software) and of the first
     * half (a tree of its own). */
    const int sets[2][3] = {{0, 1, (npes + 1) / 2}, {0, 0, npes / 2}};
    for (int s = 0; s < 2; ++s) {
        const int start = sets[s][0], stride = 1 << sets[s][1], size = sets[s][2];
        if ((me - start) % stride || me / stride >= size) continue;
        for (int round = ROUNDS + 1 + 10 * s; round <= ROUNDS + 4 + 10 * s; ++round) {
            delay(round);
            post(round, start, stride, size);
            shmem_barrier(start, sets[s][1], size, pSync);
            verify(round, start, stride, size, "shmem_barrier (active set)");
            shmem_barrier(start, sets[s][1], size, pSync);
        }
    }
    shmem_barrier_all();
    shmem_team_t odd;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, npes / 2, NULL, 0, &odd) == 0, "split");
    if (odd != SHMEM_TEAM_INVALID) {
        for (int round = 50; round < 54; ++round) {
            delay(round);
            post(round, 1, 2, npes / 2);
            shmem_quiet();
            CHECK(shmem_team_sync(odd) == 0, "team_sync");
            verify(round, 1, 2, npes / 2, "shmem_quiet + shmem_team_sync");
            shmem_team_sync(odd);
        }
        shmem_team_destroy(odd);
    }
    for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; ++i) CHECK(pSync[i] == SHMEM_SYNC_VALUE, "pSync changed");
    if (me == 0) printf("barrier: %d rounds on %d PEs ok\n", ROUNDS, npes);
    shmem_finalize();
    return 0;
}
