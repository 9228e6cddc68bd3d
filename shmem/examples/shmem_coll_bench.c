/* shmem_coll_bench.c: OSU-style latency of OpenSHMEM collectives on canopy.
 *
 *   oshrun -n 9 --torus 3x3 shmem_coll_bench [--bench bcast|reduce|barrier|collect|alltoall]
 *                                             [--sizes 8,64,...] [--iters N]
 *
 * An ordinary SHMEM program (only shmem.h, plus shmemx_cycles() from shmemx.h for the
 * simulated clock). For each size: a warm-up call, then N timed calls, each between two
 * barriers: every PE times its own call (cycles from entering to returning), the average
 * over the N calls is taken per PE, and the record reports the slowest PE's average, as
 * the OSU collective benchmarks do. The same binary measures the hardware and the software
 * path: the library runs collectives in the routers unless CANOPY_SHMEM_HW=0, and the
 * record's `impl` says which was asked for ("hw" or "sw").
 *
 * Prints one JSON record per size on PE 0:
 *   {"bench": "shmem-bcast", "impl": "hw", "bytes": 4096, "cycles": 1234.5, "nodes": 9}
 * bytes: bcast, the message; reduce, the vector of longs (sum); collect, each PE's block
 * (fcollect); alltoall, each PE's block for each PE; barrier, 0. Every result is checked;
 * a wrong one exits nonzero. (Alltoall moves its data by puts either way; with the routers
 * its two syncs run in them.)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <shmem.h>
#include <shmemx.h>

enum bench { B_BCAST, B_REDUCE, B_BARRIER, B_COLLECT, B_ALLTOALL };
static const char *const bench_names[] = {"shmem-bcast", "shmem-reduce", "shmem-barrier", "shmem-collect",
                                          "shmem-alltoall"};

#define MAX_SIZES 32
#define MAX_BYTES (256u * 1024u)
#define MAX_COLLECT_BYTES (4u * 1024u)

struct options {
    enum bench bench;
    size_t sizes[MAX_SIZES];
    unsigned nsizes, iters;
};

static void die(const char *msg)
{
    fprintf(stderr, "shmem_coll_bench (PE %d): %s\n", shmem_my_pe(), msg);
    shmem_global_exit(1);
}

static void usage(void)
{
    fprintf(stderr, "usage: shmem_coll_bench [--bench bcast|reduce|barrier|collect|alltoall] [--sizes 8,64,...] "
                    "[--iters N]\n");
    exit(2);
}

static struct options parse(int argc, char **argv)
{
    struct options o = {.bench = B_BCAST, .iters = 0};
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) usage();
        if (!strcmp(a, "--bench")) {
            static const char *const short_names[] = {"bcast", "reduce", "barrier", "collect", "alltoall"};
            unsigned k = 0;
            while (k < 5 && strcmp(v, short_names[k])) ++k;
            if (k == 5) usage();
            o.bench = (enum bench)k;
        } else if (!strcmp(a, "--sizes")) {
            for (char *s = (char *)v, *end; *s && o.nsizes < MAX_SIZES; s = *end ? end + 1 : end)
                o.sizes[o.nsizes++] = strtoull(s, &end, 0);
        } else if (!strcmp(a, "--iters")) {
            o.iters = (unsigned)atoi(v);
        } else {
            usage();
        }
        ++i;
    }
    if (o.bench == B_BARRIER) {
        o.sizes[0] = 0, o.nsizes = 1;
    } else if (!o.nsizes) {
        static const size_t bcast[] = {8, 64, 512, 4096, 32768, 262144};
        static const size_t reduce[] = {8, 64, 256, 2048};
        static const size_t collect[] = {8, 64, 512, 4096};
        const size_t *d = o.bench == B_BCAST ? bcast : o.bench == B_REDUCE ? reduce : collect;
        o.nsizes = o.bench == B_BCAST ? 6 : 4;
        memcpy(o.sizes, d, o.nsizes * sizeof *d);
    }
    size_t limit = o.bench == B_COLLECT || o.bench == B_ALLTOALL ? MAX_COLLECT_BYTES : MAX_BYTES;
    for (unsigned k = 0; k < o.nsizes; ++k)
        if (o.bench != B_BARRIER && (o.sizes[k] == 0 || o.sizes[k] % 8 || o.sizes[k] > limit)) usage();
    return o;
}

/* One call of the collective on SHMEM_TEAM_WORLD; `round` varies the data. */
static void run_once(enum bench b, size_t bytes, char *dst, char *src, unsigned round)
{
    int me = shmem_my_pe();
    size_t n = bytes / 8;
    long *s = (long *)(void *)src;
    switch (b) {
    case B_BCAST:
        if (me == 0)
            for (size_t i = 0; i < n; ++i) s[i] = (long)(i * 7 + round);
        shmem_broadcastmem(SHMEM_TEAM_WORLD, dst, src, bytes, 0);
        break;
    case B_REDUCE:
        for (size_t i = 0; i < n; ++i) s[i] = (long)(me + i + round);
        shmem_long_sum_reduce(SHMEM_TEAM_WORLD, (long *)(void *)dst, s, n);
        break;
    case B_COLLECT:
        for (size_t i = 0; i < n; ++i) s[i] = (long)me * 1000003L + (long)(i + round);
        shmem_long_fcollect(SHMEM_TEAM_WORLD, (long *)(void *)dst, s, n);
        break;
    case B_ALLTOALL:
        for (int j = 0; j < shmem_n_pes(); ++j)
            for (size_t i = 0; i < n; ++i) s[(size_t)j * n + i] = (long)me * 1000003L + (long)j * 1009L + (long)(i + round);
        shmem_long_alltoall(SHMEM_TEAM_WORLD, (long *)(void *)dst, s, n);
        break;
    case B_BARRIER:
        shmem_barrier_all();
        break;
    }
}

/* Check the result of run_once on this PE. */
static void check(enum bench b, size_t bytes, const char *dst, unsigned round)
{
    int me = shmem_my_pe(), npes = shmem_n_pes();
    size_t n = bytes / 8;
    const long *d = (const long *)(const void *)dst;
    for (size_t i = 0; b == B_BCAST && me != 0 && i < n; ++i)
        if (d[i] != (long)(i * 7 + round)) die("broadcast result differs");
    for (size_t i = 0; b == B_REDUCE && i < n; ++i)
        if (d[i] != (long)npes * (long)(i + round) + (long)npes * (npes - 1) / 2) die("sum differs");
    for (int pe = 0; b == B_COLLECT && pe < npes; ++pe)
        for (size_t i = 0; i < n; ++i)
            if (d[(size_t)pe * n + i] != (long)pe * 1000003L + (long)(i + round)) die("fcollect result differs");
    for (int pe = 0; b == B_ALLTOALL && pe < npes; ++pe)
        for (size_t i = 0; i < n; ++i)
            if (d[(size_t)pe * n + i] != (long)pe * 1000003L + (long)me * 1009L + (long)(i + round))
                die("alltoall result differs");
}

int main(int argc, char **argv)
{
    shmem_init();
    struct options o = parse(argc, argv);
    int me = shmem_my_pe(), npes = shmem_n_pes();
    const int blocks = o.bench == B_COLLECT || o.bench == B_ALLTOALL;
    size_t dst_bytes = blocks ? MAX_COLLECT_BYTES * (size_t)npes : MAX_BYTES;
    size_t src_bytes = o.bench == B_ALLTOALL ? MAX_COLLECT_BYTES * (size_t)npes : MAX_BYTES;
    char *src = shmem_malloc(src_bytes), *dst = shmem_malloc(dst_bytes);
    long *avg = shmem_malloc(sizeof *avg), *slowest = shmem_malloc(sizeof *slowest);
    if (!src || !dst || !avg || !slowest) die("shmem_malloc failed");
    const char *hw = getenv("CANOPY_SHMEM_HW");
    const char *impl = hw && !strcmp(hw, "0") ? "sw" : "hw";

    for (unsigned k = 0; k < o.nsizes; ++k) {
        size_t bytes = o.sizes[k];
        unsigned iters = o.iters ? o.iters : bytes <= 4096 ? 8 : 2;
        run_once(o.bench, bytes, dst, src, 0); /* warm-up: trees, caches */
        check(o.bench, bytes, dst, 0);
        uint64_t total = 0;
        for (unsigned it = 1; it <= iters; ++it) {
            shmem_barrier_all();
            uint64_t t0 = shmemx_cycles();
            run_once(o.bench, bytes, dst, src, it);
            total += shmemx_cycles() - t0;
            check(o.bench, bytes, dst, it);
            shmem_barrier_all(); /* nobody rewrites src/dst while a slower PE still reads */
        }
        *avg = (long)(total / iters);
        shmem_long_max_reduce(SHMEM_TEAM_WORLD, slowest, avg, 1);
        if (me == 0)
            printf("{\"bench\": \"%s\", \"impl\": \"%s\", \"bytes\": %zu, \"cycles\": %ld, \"nodes\": %d, "
                   "\"iters\": %u}\n",
                   bench_names[o.bench], impl, bytes, *slowest, npes, iters);
        fflush(stdout);
    }
    shmem_free(slowest);
    shmem_free(avg);
    shmem_free(dst);
    shmem_free(src);
    shmem_finalize();
    return 0;
}
