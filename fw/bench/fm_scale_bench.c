/* fm_scale_bench.c: the fabric manager at scale, host only (no device, no simulation).
 *
 *    build/fw/fm_scale_bench [--reps N] [--old-roots] [TORUS ...]
 *
 * Default tori: 3x3 4x4x4 8x8x8 16x16x16 16x16x16x4. For each, the trees the OpenSHMEM
 * layer builds at shmem_init (shmem/src/coll_hw.c): the world tree rooted at the centre
 * node (every node a member) and the stride trees k = 1..min(7, floor(log2(nodes-1))),
 * members node % 2^k == 0, rooted by canopy_fm_best_root, tree ids 0..T-1 of the router's
 * 16. One JSON record per torus on stdout:
 *
 *  - root_ms: choosing the stride trees' roots (canopy_fm_best_root);
 *    build_ms: root_ms plus building every table (the build without its final check);
 *    check_ms: the global checks (canopy_fm_verify of every table, and of the set: ids
 *    distinct and within the router's table); image_ms: assembling the table image,
 *    every router's entry for every tree id (router-major);
 *    shmem_init_ms: the calls shmem_init makes on every PE, as it makes them
 *    (canopy_fm_setup's build and verify of the world tree, then per stride tree
 *    canopy_fm_best_root and canopy_fm_build, which verifies);
 *    old_roots_ms (with --old-roots): the stride roots chosen as shmem_init did before
 *    canopy_fm_best_root (build from every member, deepest node by torus distance).
 *    Wall clock (CLOCK_MONOTONIC), best of --reps runs (old_roots_ms: one run); they
 *    depend on the machine and its load.
 *  - entries: routers x trees (every router's entry for every id is written, invalid ones
 *    included, as shmem_init and canopy_fm_setup do); valid_entries: those in a tree;
 *    image_bytes: 4 per entry.
 *  - Programming, counted from what libcanopy does (driver/src/coll.c, core.c):
 *    csr_*: every node writes its own router (shmem_init, canopy_fm_setup VIA_CSR): per
 *    entry TREE_SEL and TREE_ENTRY (two 8-byte MMIO writes) and a STATUS read;
 *    pkt_*: node 0 writes every router with CONFIG packets (canopy_fm_setup VIA_PACKETS):
 *    per entry a 24-byte MMIO burst into the injection ring (descriptor and the 2-flit
 *    packet) and the 8-byte INJ_TAIL doorbell canopy_tree_write_remote rings after it.
 *    *_est_cycles are COMPUTED, not measured, from the co-simulator's PCIe model at its
 *    defaults (docs/simulation.md: 250 MHz model clock; an MMIO write is posted and lands
 *    after 300 ns = 75 cycles, writes pipeline, each burst then takes 1 + words cycles of
 *    the device's BAR0 port; an MMIO read goes out once earlier writes have landed and
 *    takes 400 ns = 100 cycles each way). csr_est_cycles: per router, all routers at once
 *    (per entry the read's 2 x 100 cycles, the writes land under it), so independent of
 *    the node count. pkt_est_cycles: node 0 issuing its MMIO writes (75 + 6 cycles per
 *    CONFIG packet); the fabric's delivery and the acknowledgements canopy_quiet waits for
 *    are not in it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "canopy_fm.h"
#include "fm_internal.h"

#define ROUTER_TREES 16u /* the router's table (rtl NumTrees); shmem_init's SHMI_MAX_TREES */
#define MAX_STRIDE_LOG 7 /* shmem_init: SHMI_MAX_STRIDE_LOG */
#define MAX_TREES (1 + MAX_STRIDE_LOG)

/* The co-simulator's PCIe model at its defaults (docs/simulation.md), in model cycles. */
#define MMIO_WRITE_CYCLES 75u /* 300 ns at 250 MHz, posted */
#define MMIO_READ_CYCLES 100u /* 400 ns each way */

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int parse_torus(const char *s, struct canopy_fm_torus *t, char *err, size_t len)
{
    memset(t, 0, sizeof *t);
    for (const char *p = s; *p;) {
        char *end;
        unsigned long v = strtoul(p, &end, 10);
        if (end == p || t->ndims >= CANOPY_MAX_DIMS || v > 1000) {
            snprintf(err, len, "%s: expected sizes like 16x16x16x4 (1 to %u dimensions)", s, CANOPY_MAX_DIMS);
            return -1;
        }
        t->size[t->ndims++] = (unsigned)v;
        if (*end == 'x') ++end;
        else if (*end) {
            snprintf(err, len, "%s: expected sizes like 16x16x16x4", s);
            return -1;
        }
        p = end;
    }
    for (unsigned d = t->ndims; d < CANOPY_MAX_DIMS; ++d) t->size[d] = 1;
    return canopy_fm_torus_check(t, err, len) == CANOPY_OK ? 0 : -1;
}

struct tree {
    int root;
    unsigned k;       /* 0: the world tree; else the stride tree of 2^k */
    uint32_t *entries;
};

struct run {
    const struct canopy_fm_torus *t;
    unsigned nn, ntrees;
    uint8_t *mask;          /* scratch member mask */
    struct tree tree[MAX_TREES];
    uint32_t *image;        /* nn x ntrees, router-major */
    char err[512];
};

static void stride_mask(struct run *r, unsigned k)
{
    for (unsigned n = 0; n < r->nn; ++n) r->mask[n] = n % (1u << k) == 0;
}

static unsigned center_node(const struct canopy_fm_torus *t)
{
    unsigned n = 0;
    for (unsigned d = t->ndims; d-- > 0;) n = n * t->size[d] + t->size[d] / 2;
    return n;
}

/* The roots, then the tables (unchecked). Returns 0 or -1 with r->err. */
static int phase_roots(struct run *r)
{
    for (unsigned i = 1; i < r->ntrees; ++i) {
        stride_mask(r, r->tree[i].k);
        int root = canopy_fm_best_root(r->t, r->mask, NULL, NULL, r->err, sizeof r->err);
        if (root < 0) return -1;
        r->tree[i].root = root;
    }
    return 0;
}

static int phase_tables(struct run *r)
{
    for (unsigned i = 0; i < r->ntrees; ++i) {
        const uint8_t *g = NULL;
        if (r->tree[i].k) {
            stride_mask(r, r->tree[i].k);
            g = r->mask;
        }
        if (canopy_fm_build_unchecked(r->t, r->tree[i].root, g, r->tree[i].entries, r->err, sizeof r->err)) return -1;
    }
    return 0;
}

static int phase_check(struct run *r)
{
    uint32_t ids = 0;
    for (unsigned i = 0; i < r->ntrees; ++i) {
        /* the set: tree i has id i, which must be distinct and in the router's table */
        if (i >= ROUTER_TREES || (ids & (1u << i))) {
            snprintf(r->err, sizeof r->err, "tree id %u: not distinct or beyond the router's %u", i, ROUTER_TREES);
            return -1;
        }
        ids |= 1u << i;
        char why[480];
        if (canopy_fm_verify(r->t, r->tree[i].entries, why, sizeof why)) {
            snprintf(r->err, sizeof r->err, "tree %u: %s", i, why);
            return -1;
        }
    }
    return 0;
}

static void phase_image(struct run *r)
{
    for (unsigned n = 0; n < r->nn; ++n)
        for (unsigned i = 0; i < r->ntrees; ++i) r->image[(size_t)n * r->ntrees + i] = r->tree[i].entries[n];
}

/* What shmem_init computes on every PE, call for call. */
static int phase_shmem_init(struct run *r)
{
    if (canopy_fm_build(r->t, r->tree[0].root, NULL, r->tree[0].entries, r->err, sizeof r->err)) return -1;
    if (canopy_fm_verify(r->t, r->tree[0].entries, r->err, sizeof r->err)) return -1; /* canopy_fm_setup's */
    for (unsigned i = 1; i < r->ntrees; ++i) {
        stride_mask(r, r->tree[i].k);
        int root = canopy_fm_best_root(r->t, r->mask, NULL, NULL, r->err, sizeof r->err);
        if (root < 0) return -1;
        if (canopy_fm_build(r->t, root, r->mask, r->tree[i].entries, r->err, sizeof r->err)) return -1;
    }
    return 0;
}

/* shmem_init's stride roots before canopy_fm_best_root: a build from every member. */
static int phase_old_roots(struct run *r, uint32_t *scratch)
{
    for (unsigned i = 1; i < r->ntrees; ++i) {
        unsigned step = 1u << r->tree[i].k;
        stride_mask(r, r->tree[i].k);
        int best = -1;
        unsigned best_depth = 0, best_nodes = 0;
        for (unsigned root = 0; root < r->nn; root += step) {
            if (canopy_fm_build(r->t, (int)root, r->mask, scratch, r->err, sizeof r->err)) return -1;
            unsigned depth = 0, nodes = 0;
            for (unsigned n = 0; n < r->nn; ++n) {
                if (!canopy_tree_get_valid(scratch[n])) continue;
                ++nodes;
                unsigned d = canopy_fm_distance(r->t, root, n);
                if (d > depth) depth = d;
            }
            if (best < 0 || depth < best_depth || (depth == best_depth && nodes < best_nodes))
                best = (int)root, best_depth = depth, best_nodes = nodes;
        }
        if (best != r->tree[i].root) {
            snprintf(r->err, sizeof r->err, "stride 2^%u: the old rule picks root %d, canopy_fm_best_root %d",
                     r->tree[i].k, best, r->tree[i].root);
            return -1;
        }
    }
    return 0;
}

static int bench_torus(const char *name, const struct canopy_fm_torus *t, int reps, int old_roots)
{
    struct run r;
    memset(&r, 0, sizeof r);
    r.t = t;
    r.nn = canopy_fm_nodes(t);
    unsigned nstride = 0;
    while (nstride < MAX_STRIDE_LOG && (1u << (nstride + 1)) <= r.nn - 1) ++nstride;
    if (nstride > (ROUTER_TREES - 1) / 2) nstride = (ROUTER_TREES - 1) / 2;
    r.ntrees = 1 + nstride;
    r.mask = malloc(r.nn);
    r.image = malloc((size_t)r.nn * r.ntrees * sizeof *r.image);
    uint32_t *scratch = malloc((size_t)r.nn * sizeof *scratch);
    int ok = r.mask && r.image && scratch;
    for (unsigned i = 0; i < r.ntrees; ++i) {
        r.tree[i].k = i;
        r.tree[i].root = i == 0 ? (int)center_node(t) : -1;
        r.tree[i].entries = malloc((size_t)r.nn * sizeof *r.tree[i].entries);
        ok = ok && r.tree[i].entries;
    }
    double best[5] = {1e300, 1e300, 1e300, 1e300, 1e300}, old_ms = -1;
    int rc = ok ? 0 : -1;
    if (!ok) snprintf(r.err, sizeof r.err, "out of memory");
    for (int rep = 0; rep < reps && rc == 0; ++rep) {
        double t0 = now_ms();
        rc = phase_roots(&r);
        double t1 = now_ms();
        if (!rc) rc = phase_tables(&r);
        double t2 = now_ms();
        if (!rc) rc = phase_check(&r);
        double t3 = now_ms();
        if (!rc) phase_image(&r);
        double t4 = now_ms();
        if (!rc) rc = phase_shmem_init(&r);
        double t5 = now_ms();
        double v[5] = {t1 - t0, t2 - t0, t3 - t2, t4 - t3, t5 - t4};
        for (int j = 0; j < 5; ++j)
            if (v[j] < best[j]) best[j] = v[j];
    }
    if (rc == 0 && old_roots) {
        double t0 = now_ms();
        rc = phase_old_roots(&r, scratch);
        old_ms = now_ms() - t0;
    }
    if (rc) {
        fprintf(stderr, "fm_scale_bench: %s: %s\n", name, r.err);
    } else {
        /* counts */
        uint64_t entries = (uint64_t)r.nn * r.ntrees, valid = 0;
        unsigned world_depth = 0, max_depth = 0;
        for (unsigned n = 0; n < r.nn; ++n)
            for (unsigned i = 0; i < r.ntrees; ++i) valid += canopy_tree_get_valid(r.image[(size_t)n * r.ntrees + i]);
        for (unsigned j = 0; j < t->ndims; ++j) world_depth += t->size[j] / 2; /* the full tree */
        max_depth = world_depth;
        for (unsigned i = 1; i < r.ntrees; ++i) {
            stride_mask(&r, r.tree[i].k);
            unsigned d = 0;
            canopy_fm_best_root(t, r.mask, &d, NULL, NULL, 0); /* the chosen root's depth */
            if (d > max_depth) max_depth = d;
        }
        uint64_t csr_writes = 2 * entries, csr_reads = entries, csr_bytes = 8 * csr_writes;
        uint64_t csr_cycles = (uint64_t)r.ntrees * 2 * MMIO_READ_CYCLES;
        uint64_t pkt_writes = 2 * entries, pkt_bytes = entries * (24 + 8);
        uint64_t pkt_cycles = MMIO_WRITE_CYCLES + entries * ((1 + 3) + (1 + 1));
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        char old[32] = "null";
        if (old_ms >= 0) snprintf(old, sizeof old, "%.3f", old_ms);
        printf("{\"bench\": \"fm-scale\", \"topology\": \"%s\", \"nodes\": %u, \"trees\": %u, \"router_trees\": %u, "
               "\"build_ms\": %.3f, \"root_ms\": %.3f, \"check_ms\": %.3f, \"image_ms\": %.3f, \"shmem_init_ms\": %.3f, "
               "\"old_roots_ms\": %s, \"reps\": %d, \"world_depth\": %u, \"max_depth\": %u, "
               "\"entries\": %llu, \"valid_entries\": %llu, \"image_bytes\": %llu, "
               "\"csr_mmio_writes\": %llu, \"csr_mmio_reads\": %llu, \"csr_mmio_bytes\": %llu, \"csr_est_cycles\": %llu, "
               "\"pkt_mmio_writes\": %llu, \"pkt_mmio_bytes\": %llu, \"pkt_est_cycles\": %llu, "
               "\"est\": \"computed from the co-simulator's PCIe model, not measured\", \"maxrss_kib\": %ld}\n",
               name, r.nn, r.ntrees, ROUTER_TREES, best[1], best[0], best[2], best[3], best[4],
               old, reps, world_depth,
               max_depth, (unsigned long long)entries, (unsigned long long)valid, (unsigned long long)(4 * entries),
               (unsigned long long)csr_writes, (unsigned long long)csr_reads, (unsigned long long)csr_bytes,
               (unsigned long long)csr_cycles, (unsigned long long)pkt_writes, (unsigned long long)pkt_bytes,
               (unsigned long long)pkt_cycles, ru.ru_maxrss);
        fflush(stdout);
    }
    for (unsigned i = 0; i < r.ntrees; ++i) free(r.tree[i].entries);
    free(r.mask);
    free(r.image);
    free(scratch);
    return rc ? 1 : 0;
}

int main(int argc, char **argv)
{
    static const char *const defaults[] = {"3x3", "4x4x4", "8x8x8", "16x16x16", "16x16x16x4"};
    const char *list[64];
    int count = 0, reps = 5, old_roots = 0;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
            reps = atoi(argv[++i]);
            if (reps < 1) reps = 1;
        } else if (!strcmp(argv[i], "--old-roots")) {
            old_roots = 1;
        } else if (argv[i][0] == '-' || count == 64) {
            fprintf(stderr, "usage: fm_scale_bench [--reps N] [--old-roots] [TORUS ...]   (TORUS like 16x16x16x4)\n");
            return 2;
        } else {
            list[count++] = argv[i];
        }
    }
    if (count == 0)
        for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; ++i) list[count++] = defaults[i];
    int failed = 0;
    for (int i = 0; i < count; ++i) {
        struct canopy_fm_torus t;
        char err[256];
        if (parse_torus(list[i], &t, err, sizeof err)) {
            fprintf(stderr, "fm_scale_bench: %s\n", err);
            failed = 1;
            continue;
        }
        failed |= bench_torus(list[i], &t, reps, old_roots);
    }
    return failed;
}
