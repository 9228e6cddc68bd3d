/* shmem_demo.c: the canopy demonstration, an ordinary OpenSHMEM program.
 *
 *   oshrun -n 9 --torus 3x3 shmem_demo          (make demo runs it, see tools/shmem_demo.py)
 *
 * Global arrays are the symmetric objects, as in most SHMEM codes. The program broadcasts
 * 4 KiB from the middle PE, reduces 64 longs with sum, min and max, and checks that a
 * barrier completes every PE's earlier puts; every result is verified on every PE against
 * what the inputs imply. Each operation is timed in simulated router cycles (the slowest
 * PE's time from entering the call to returning, averaged over a few calls). PE 0 prints a
 * readable line per operation and one JSON record per operation for the demo script:
 *   {"demo": "sum", "bytes": 512, "cycles": 345, "impl": "hw"}
 * The same binary runs in hardware (default) and in software (CANOPY_SHMEM_HW=0).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <shmem.h>
#include <shmemx.h>

#define BCAST_LONGS 512 /* 4 KiB */
#define REDUCE_LONGS 64
#define MAX_PES 1024
#define REPS 4

static long bcast_dst[BCAST_LONGS], bcast_src[BCAST_LONGS];
static long red_src[REDUCE_LONGS], red_dst[REDUCE_LONGS];
static long arrived[MAX_PES];
static long my_time, slowest;

static void fail(const char *what, int pe, long index, long got, long want)
{
    fprintf(stderr, "shmem_demo: PE %d: %s wrong at [%ld]: %ld, expected %ld\n", pe, what, index, got, want);
    shmem_global_exit(1);
}

/* The slowest PE's average cycles over `reps` calls (a collective: every PE calls it). */
static long slowest_of(uint64_t total, int reps)
{
    my_time = (long)(total / (uint64_t)reps);
    shmem_long_max_reduce(SHMEM_TEAM_WORLD, &slowest, &my_time, 1);
    return slowest;
}

static void report(const char *name, const char *what, size_t bytes, long cycles, const char *impl)
{
    if (shmem_my_pe() != 0) return;
    printf("  %-9s %-46s %8ld cycles\n", name, what, cycles);
    printf("{\"demo\": \"%s\", \"bytes\": %zu, \"cycles\": %ld, \"impl\": \"%s\"}\n", name, bytes, cycles, impl);
    fflush(stdout);
}

static long demo_bcast(int root)
{
    int me = shmem_my_pe();
    uint64_t total = 0;
    for (int r = 1; r <= REPS; ++r) {
        if (me == root)
            for (long i = 0; i < BCAST_LONGS; ++i) bcast_src[i] = i * 131 + r;
        shmem_barrier_all();
        uint64_t t0 = shmemx_cycles();
        shmem_broadcastmem(SHMEM_TEAM_WORLD, bcast_dst, bcast_src, sizeof bcast_dst, root);
        total += shmemx_cycles() - t0;
        for (long i = 0; me != root && i < BCAST_LONGS; ++i)
            if (bcast_dst[i] != i * 131 + r) fail("broadcast", me, i, bcast_dst[i], i * 131 + r);
    }
    return slowest_of(total, REPS);
}

/* op 0: sum, 1: min, 2: max. Inputs: PE p contributes (p * 37 + i * 11) % 101 - 50. */
static long input(int pe, long i) { return (pe * 37L + i * 11L) % 101L - 50L; }

static long demo_reduce(int op)
{
    int me = shmem_my_pe(), npes = shmem_n_pes();
    static const char *const names[] = {"sum", "min", "max"};
    uint64_t total = 0;
    for (int r = 1; r <= REPS; ++r) {
        for (long i = 0; i < REDUCE_LONGS; ++i) red_src[i] = input(me, i) * r;
        shmem_barrier_all();
        uint64_t t0 = shmemx_cycles();
        if (op == 0) shmem_long_sum_reduce(SHMEM_TEAM_WORLD, red_dst, red_src, REDUCE_LONGS);
        if (op == 1) shmem_long_min_reduce(SHMEM_TEAM_WORLD, red_dst, red_src, REDUCE_LONGS);
        if (op == 2) shmem_long_max_reduce(SHMEM_TEAM_WORLD, red_dst, red_src, REDUCE_LONGS);
        total += shmemx_cycles() - t0;
        for (long i = 0; i < REDUCE_LONGS; ++i) {
            long want = input(0, i) * r;
            for (int p = 1; p < npes; ++p) {
                long v = input(p, i) * r;
                want = op == 0 ? want + v : op == 1 ? (v < want ? v : want) : (v > want ? v : want);
            }
            if (red_dst[i] != want) fail(names[op], me, i, red_dst[i], want);
        }
    }
    return slowest_of(total, REPS);
}

/* Every PE puts its mark on every other PE, then barriers: afterwards all marks must be
 * there (the barrier completes earlier puts). Staggered starts make arrivals uneven. */
static long demo_barrier(void)
{
    int me = shmem_my_pe(), npes = shmem_n_pes();
    uint64_t total = 0;
    for (int r = 1; r <= REPS; ++r) {
        shmem_barrier_all();
        for (volatile int spin = 0; spin < (me * 7 + r) % 5 * 2000; ++spin) {
        }
        for (int p = 0; p < npes; ++p) shmem_long_p(&arrived[me], r * 1000L + me, p);
        uint64_t t0 = shmemx_cycles();
        shmem_barrier_all();
        total += shmemx_cycles() - t0;
        for (int p = 0; p < npes; ++p)
            if (arrived[p] != r * 1000L + p) fail("barrier (a put was not complete)", me, p, arrived[p], r * 1000L + p);
    }
    return slowest_of(total, REPS);
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    if (npes > MAX_PES) {
        if (me == 0) fprintf(stderr, "shmem_demo: at most %d PEs\n", MAX_PES);
        shmem_global_exit(2);
    }
    const char *hw = getenv("CANOPY_SHMEM_HW");
    const char *impl = hw && !strcmp(hw, "0") ? "sw" : "hw";
    if (me == 0)
        printf("canopy OpenSHMEM demo: %d PEs, collectives in %s\n", npes,
               !strcmp(impl, "hw") ? "the routers (where a tree can express them)" : "software (CANOPY_SHMEM_HW=0)");
    char what[64];
    int root = npes / 2;
    snprintf(what, sizeof what, "broadcast 4 KiB from PE %d, verified", root);
    long t = demo_bcast(root);
    report("broadcast", what, sizeof bcast_dst, t, impl);
    static const char *const names[] = {"sum", "min", "max"};
    for (int op = 0; op < 3; ++op) {
        snprintf(what, sizeof what, "%s of %d longs over all PEs, verified", names[op], REDUCE_LONGS);
        t = demo_reduce(op);
        report(names[op], what, sizeof red_dst, t, impl);
    }
    t = demo_barrier();
    report("barrier", "barrier_all after puts to every PE, verified", 0, t, impl);
    shmem_finalize();
    return 0;
}
