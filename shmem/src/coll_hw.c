/* coll_hw.c: collectives in the routers, and the trees they run on.
 *
 * Trees. Tree 0 spans all PEs; shmem_init programs it (canopy_fm_setup, every node its
 * own CSR) and every PE attaches it. shmem_init also makes the stride trees, ids 1..N:
 * tree k for the 1.4 active set (0, k, size) of the PEs divisible by 2^k, pruned with
 * transit routers, group 0 = exactly those PEs; every PE writes its own router's entry,
 * so the ids are the same everywhere and held on every router (reserved_ids: never
 * allocated again). An active set equal to one uses it. A team gets its own tree when it
 * is created, any other active set at its first collective (then cached for the program's
 * life): the
 * dimension-ordered tree pruned to the group's PEs (canopy_fm_build with a member mask,
 * so the tree's member set is exactly the group, which hardware reduce needs), programmed
 * by the group's first PE with CONFIG packets (they reach any router, transit ones too),
 * then a message tells every member to attach.
 *
 * Tree ids without a global atomic. A router holds one entry per id, so an id may be used
 * by two trees only if they share no router. Each PE records the ids of the live trees it
 * is a member of (member_ids) and, conservatively, of the trees its router carries as a
 * transit node (transit_ids). A new tree takes the lowest id that nobody concerned uses,
 * found by an OR of those masks over the PEs taking part in the creation (plus
 * reserved_ids):
 *  - a team split from the world team (or a world-sized parent): every PE takes part, and
 *    every live tree has a member somewhere, so the OR of member_ids is exactly the ids in
 *    use anywhere; transit_ids is trimmed to it (stale transit marks of destroyed teams go);
 *  - a team split from a smaller team, or an active set: only those PEs take part, so the
 *    tree may only use their routers: a root is chosen (first member first) for which the
 *    pruned tree needs no router outside the parent team (for an active set: no transit
 *    node at all); otherwise the group runs its collectives in software.
 * When no id is free, or no such tree exists, the group's collectives run in software and
 * its first PE says so once on stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shmem_internal.h"

static int popcount32(uint32_t v)
{
    int n = 0;
    for (; v; v &= v - 1) ++n;
    return n;
}

static int center_node(void)
{
    int node = 0;
    for (int d = (int)shmi.torus.ndims - 1; d >= 0; --d)
        node = node * (int)shmi.torus.size[d] + (int)(shmi.torus.size[d] / 2);
    return node;
}

/* A count from the environment variable `name` (unset: `dflt`), at most `most`; `what_zero`
 * says what a small value means, for the error message. */
static int env_count(const char *name, int dflt, int most, const char *what_zero)
{
    const char *s = getenv(name);
    if (!s || !*s) return dflt < most ? dflt : most;
    char *end = NULL;
    long v = strtol(s, &end, 10);
    if (*end || v < 0) shmi_fatal("shmem_init", "%s=%s is not a count (%s)", name, s, what_zero);
    return v < most ? (int)v : most;
}

/* CANOPY_SHMEM_STRIDE_TREES: how many stride trees to make (logPE_stride 1..N); unset:
 * as many as the PE count and the tree ids allow. */
static int stride_trees_wanted(int most)
{
    return env_count("CANOPY_SHMEM_STRIDE_TREES", most, most, "0 disables the stride trees");
}

/* The world stripe: long reductions on the world team spread their chunks over this many
 * trees over every PE (the world tree and ones rooted elsewhere: canopy_tree_stripe,
 * docs/collectives.md "Striping"). CANOPY_SHMEM_STRIPE_TREES, in all; unset: 4, as the
 * PE count and half the ids left after the stride trees allow; 1 (or 0): the world tree
 * alone. */
#define SHMI_STRIPE_DEFAULT 4
static int stripe_trees_wanted(int most)
{
    return env_count("CANOPY_SHMEM_STRIPE_TREES", SHMI_STRIPE_DEFAULT, most, "1 or 0: the world tree alone");
}

/* Trees first_id .. first_id + n - 2 over every PE, rooted where canopy_fm_stripe_roots
 * spreads them from the world tree's root; the world tree's reductions striped over them
 * and itself. Every PE writes its own router's entries, as for the stride trees. */
static void make_world_stripe(unsigned first_id, int n)
{
    int roots[CANOPY_MAX_STRIPE];
    unsigned ids[CANOPY_MAX_STRIPE];
    uint32_t *entries = malloc((size_t)shmi.npes * sizeof *entries);
    char err[256] = "";
    if (!entries) shmi_fatal("shmem_init", "out of memory");
    int rc = canopy_fm_stripe_roots(&shmi.torus, NULL, shmi.world.g.tree_root, (unsigned)n, roots, err, sizeof err);
    ids[0] = SHMI_WORLD_TREE;
    for (int k = 1; rc == CANOPY_OK && k < n; ++k) {
        ids[k] = first_id + (unsigned)k - 1;
        rc = canopy_fm_build(&shmi.torus, roots[k], NULL, entries, err, sizeof err);
        if (rc == CANOPY_OK) rc = canopy_tree_write(shmi.dev, ids[k], entries[shmi.me]);
        if (rc == CANOPY_OK) rc = canopy_tree_attach(shmi.dev, ids[k], roots[k]);
        shmi.reserved_ids |= 1u << ids[k];
        shmi.member_ids |= 1u << ids[k];
    }
    if (rc == CANOPY_OK) rc = canopy_tree_stripe(shmi.dev, SHMI_WORLD_TREE, ids, (unsigned)n);
    if (rc)
        shmi_fatal("shmem_init", "programming the world stripe of %d trees: %s%s%s (CANOPY_SHMEM_STRIPE_TREES=1 runs "
                   "on the world tree alone)", n, canopy_strerror(rc), *err ? ": " : "", err);
    shmi.nworld_stripe = n;
    free(entries);
}

/* The stride tree for logPE_stride k: members are the PEs p < npes with p % 2^k == 0
 * (the active set (0, k, size)), group 0 = exactly them so reduce and barrier work. The
 * root is the member giving the shallowest tree (ties: fewest routers, then lowest PE):
 * canopy_fm_best_root, which finds it for all members at once (building the tree from
 * every member, as this did before, took O(npes^2): 15.7 s for the 7 sets at 16,384
 * PEs, fw/README.md). A pure function of the torus, so every PE picks the same root. Transit
 * routers are fine: every PE programs its own router here, so the id is held on every
 * router. Returns the root and the member count. */
static int stride_root(int k, uint8_t *mask, int *size)
{
    const int step = 1 << k;
    memset(mask, 0, (size_t)shmi.npes);
    *size = 0;
    for (int p = 0; p < shmi.npes; p += step) mask[p] = 1, ++*size;
    char err[256];
    const int best = canopy_fm_best_root(&shmi.torus, mask, NULL, NULL, err, sizeof err);
    if (best < 0) shmi_fatal("shmem_init", "choosing the root of the stride tree for logPE_stride %d: %s", k, err);
    return best;
}

void shmi_hw_init(void)
{
    struct canopy_caps caps;
    shmi_check("shmem_init", "canopy_caps", canopy_caps(shmi.dev, &caps));
    shmi.ntrees = caps.trees < SHMI_MAX_TREES ? caps.trees : SHMI_MAX_TREES;
    shmi_check("shmem_init", "reading the torus", canopy_fm_torus_of(shmi.dev, &shmi.torus));
    shmi.world.g.tree = -1;
    shmi.nstride = 0;
    for (int k = 0; k <= SHMI_MAX_STRIDE_LOG; ++k) shmi.stride[k].tree = -1;
    if (!shmi.hw || shmi.npes < 2 || shmi.ntrees < 1) return;
    const int root = center_node();
    char err[512] = "";
    int rc = canopy_fm_setup(shmi.dev, SHMI_WORLD_TREE, root, NULL, CANOPY_FM_VIA_CSR, err, sizeof err);
    if (rc) shmi_fatal("shmem_init", "programming the world tree: %s", err);
    shmi.world.g.tree = SHMI_WORLD_TREE;
    shmi.world.g.tree_root = root;
    shmi.member_ids |= 1u << SHMI_WORLD_TREE;
    shmi.reserved_ids |= 1u << SHMI_WORLD_TREE;

    err[0] = '\0';
    /* Stride trees, one per logPE_stride k = 1 .. floor(log2(npes-1)) (beyond that the set
     * is PE 0 alone), at most 7 and at most half of the other ids, so teams and other
     * active sets keep at least as many. Every PE takes part in shmem_init, so ids 1..N are
     * the same everywhere without any agreement, like the world tree's; each PE writes its
     * own router's entry (a few CSR accesses). */
    int most = 0;
    while (most < SHMI_MAX_STRIDE_LOG && (1 << (most + 1)) <= shmi.npes - 1) ++most;
    if (most > ((int)shmi.ntrees - 1) / 2) most = ((int)shmi.ntrees - 1) / 2;
    shmi.nstride = stride_trees_wanted(most);
    uint8_t *mask = malloc((size_t)shmi.npes);
    uint32_t *entries = malloc((size_t)shmi.npes * sizeof *entries);
    if (!mask || !entries) shmi_fatal("shmem_init", "out of memory");
    for (int k = 1; k <= shmi.nstride; ++k) {
        int size = 0;
        const int sroot = stride_root(k, mask, &size);
        const unsigned id = (unsigned)k;
        /* canopy_fm_build verifies the table. Written through this router's own CSR, an
         * accepted write is held at once (canopy_fm_setup's read-back poll is for CONFIG
         * packets), and canopy_tree_attach reads the entry: 3 CSR writes and 2 reads. */
        rc = canopy_fm_build(&shmi.torus, sroot, mask, entries, err, sizeof err);
        if (rc == CANOPY_OK) rc = canopy_tree_write(shmi.dev, id, entries[shmi.me]);
        if (rc == CANOPY_OK) {
            rc = canopy_tree_attach(shmi.dev, id, sroot);
            if (rc == CANOPY_ENOTREE && !canopy_tree_get_valid(entries[shmi.me])) rc = CANOPY_OK; /* not in it */
        }
        /* Fatal like the world tree's: a router refusing a verified entry is a hardware
         * fault, and going on with the tree on some PEs only would split the set's path. */
        if (rc)
            shmi_fatal("shmem_init", "programming the stride tree for logPE_stride %d (root %d): %s%s%s "
                       "(CANOPY_SHMEM_STRIDE_TREES=0 runs without stride trees)", k, sroot, canopy_strerror(rc),
                       *err ? ": " : "", err);
        shmi.stride[k].tree = (int)id;
        shmi.stride[k].root = sroot;
        shmi.stride[k].size = size;
        shmi.reserved_ids |= 1u << id;
        if (shmi.me % (1 << k) == 0) shmi.member_ids |= 1u << id;
    }
    free(mask);
    free(entries);
    const unsigned next_id = (unsigned)shmi.nstride + 1;
    int stripe_most = 1 + ((int)shmi.ntrees - (int)next_id) / 2;
    if (stripe_most > shmi.npes) stripe_most = shmi.npes;
    if (stripe_most > CANOPY_MAX_STRIPE) stripe_most = CANOPY_MAX_STRIPE;
    const int nstripe = stripe_trees_wanted(stripe_most);
    shmi.nworld_stripe = 1;
    if (nstripe > 1) make_world_stripe(next_id, nstripe);
    /* Every router holds its entries and every PE has attached before the first use. */
    shmi_sw_barrier(&shmi.world.g);
}

int shmi_hw_stride_tree(struct shmi_group *g, int start, int logstride, int size)
{
    if (start != 0 || logstride < 1 || logstride > shmi.nstride || shmi.stride[logstride].tree < 0 ||
        size != shmi.stride[logstride].size)
        return 0;
    g->tree = shmi.stride[logstride].tree;
    g->tree_root = shmi.stride[logstride].root;
    return 1;
}

/* Build g's tree into entries: first member as root unless the tree then needs routers
 * outside `allowed` (NULL: any router may be used); then the other members in turn.
 * Returns the root, or -1 if no root gives such a tree. */
static int build_tree(const struct shmi_group *g, const struct shmi_group *allowed, uint32_t *entries)
{
    uint8_t *mask = calloc((size_t)shmi.npes, 1);
    if (!mask) shmi_fatal("shmem team", "out of memory");
    for (int i = 0; i < g->size; ++i) mask[shmi_group_pe(g, i)] = 1;
    int found = -1;
    for (int r = 0; r < g->size && found < 0; ++r) {
        const int root = shmi_group_pe(g, r);
        char err[256];
        if (canopy_fm_build(&shmi.torus, root, mask, entries, err, sizeof err) != CANOPY_OK) continue;
        int ok = 1;
        for (int n = 0; allowed && n < shmi.npes && ok; ++n)
            if (canopy_tree_get_valid(entries[n]) && shmi_group_index(allowed, n) < 0) ok = 0;
        if (ok) found = root;
        if (!allowed) break;
    }
    free(mask);
    return found;
}

/* Make this PE's router hold `want` for tree `id` (the CONFIG packet has been
 * acknowledged, so it normally does at once), then attach. */
static int attach(int id, int root, uint32_t want)
{
    uint32_t have = 0;
    for (int i = 0; i < 1000; ++i) {
        int rc = canopy_tree_read(shmi.dev, (unsigned)id, &have);
        if (rc) return rc;
        if (have == want) return canopy_tree_attach(shmi.dev, (unsigned)id, root);
    }
    return CANOPY_ETIMEDOUT;
}

void shmi_hw_make_trees(const struct shmi_group *over, struct shmi_group **gs, int n, const char *why)
{
    for (int i = 0; i < n; ++i) gs[i]->tree = -1;
    if (!shmi.hw || shmi.links_down || shmi.world.g.tree < 0) return;
    const int over_world = over->size == shmi.npes;
    uint32_t taken;
    if (over_world) {
        taken = shmi_sw_or32(over, shmi.member_ids);
        shmi.transit_ids &= taken;
    } else {
        taken = shmi_sw_or32(over, shmi.member_ids | shmi.transit_ids);
    }
    /* The world and stride trees are on every router for the whole program. */
    taken |= shmi.reserved_ids;
    uint32_t **entries = calloc((size_t)n, sizeof *entries);
    if (!entries) shmi_fatal("shmem team", "out of memory");
    for (int i = 0; i < n; ++i) {
        struct shmi_group *g = gs[i];
        if (g->size < 2) continue; /* nothing to combine: done locally */
        entries[i] = calloc((size_t)shmi.npes, sizeof **entries);
        if (!entries[i]) shmi_fatal("shmem team", "out of memory");
        const int root = build_tree(g, over_world ? NULL : over, entries[i]);
        if (root < 0) {
            if (g->me == 0)
                fprintf(stderr, "canopy-shmem: %s of %d PEs (start %d, stride %d): every tree for it needs routers "
                                "of PEs outside %s, its collectives run in software\n",
                        why, g->size, g->start, g->stride, over == g ? "it" : "its parent team");
            continue;
        }
        int id = -1;
        for (unsigned j = 1; j < shmi.ntrees && id < 0; ++j)
            if (!(taken & (1u << j))) id = (int)j;
        if (id < 0) {
            if (g->me == 0)
                fprintf(stderr, "canopy-shmem: %s of %d PEs (start %d, stride %d): no free tree (%d in use), its "
                                "collectives run in software\n",
                        why, g->size, g->start, g->stride, popcount32(taken));
            continue;
        }
        taken |= 1u << id;
        g->tree = id;
        g->tree_root = root;
        if (g->me >= 0) shmi.member_ids |= 1u << id;
        else if (canopy_tree_get_valid(entries[i][shmi.me])) shmi.transit_ids |= 1u << id;
    }
    /* Program and attach the trees of the groups this PE belongs to. */
    for (int i = 0; i < n; ++i) {
        struct shmi_group *g = gs[i];
        if (g->tree < 0 || g->me < 0) continue;
        int32_t status = CANOPY_OK;
        if (g->me == 0) {
            for (int node = 0; node < shmi.npes && status == CANOPY_OK; ++node)
                if (canopy_tree_get_valid(entries[i][node]))
                    status = canopy_tree_write_remote(shmi.dev, node, (unsigned)g->tree, entries[i][node]);
            if (status == CANOPY_OK) status = canopy_quiet(shmi.dev, SHMI_TIMEOUT_NS);
            for (int m = 1; m < g->size; ++m) shmi_send(shmi_group_pe(g, m), SHMI_TAG_TREE, &status, sizeof status);
        } else {
            shmi_recv(shmi_group_pe(g, 0), SHMI_TAG_TREE, &status, sizeof status);
        }
        int local = status == CANOPY_OK ? attach(g->tree, g->tree_root, entries[i][shmi.me]) : status;
        /* The OR also makes sure every member has attached before anyone uses the tree. */
        if (shmi_sw_or32(g, local != CANOPY_OK)) {
            if (g->me == 0)
                fprintf(stderr, "canopy-shmem: %s of %d PEs (start %d, stride %d): programming tree %d failed (%s), "
                                "its collectives run in software\n",
                        why, g->size, g->start, g->stride, g->tree, canopy_strerror(status ? status : local));
            shmi.member_ids &= ~(1u << g->tree);
            g->tree = -1;
        }
    }
    for (int i = 0; i < n; ++i) free(entries[i]);
    free(entries);
}

void shmi_hw_release(struct shmi_group *g)
{
    if (g->tree > 0) shmi.member_ids &= ~(1u << g->tree);
    g->tree = -1;
}

/* How a hardware collective ended: 1 if it is done here (rc success: its result, bytes at
 * data, is kept, fault.c; or its tree went down and another PE had completed it: the
 * recovery wrote the result at off), 0 if its tree went down and the caller must run it in
 * software. Any other failure stops. */
static int finished(const struct shmi_group *g, const char *call, const char *what, int rc, const void *data,
                    uint64_t off, size_t bytes)
{
    if (rc == CANOPY_OK) {
        shmi_hw_done(g, data, bytes);
        return 1;
    }
    if (rc != CANOPY_ETREEDOWN) shmi_check(call, what, rc);
    return shmi_links_failed(g, call, off, bytes);
}

int shmi_hw_barrier(const struct shmi_group *g)
{
    if (g->tree < 0 || shmi.links_down) return 0;
    /* canopy_barrier's empty allreduce, its wait through shmi_coll_wait (threads). */
    const struct canopy_reduce_args a = {.tree = (unsigned)g->tree, .op = CANOPY_OP_SUM, .dtype = CANOPY_DT_U64};
    struct canopy_coll c;
    int rc = canopy_allreduce(shmi.dev, &a, &c);
    if (!rc) rc = shmi_coll_wait(&c);
    return finished(g, "shmem barrier", "the barrier", rc, NULL, SHMI_NO_OFF, 0);
}

int shmi_hw_bcast(const struct shmi_group *g, uint64_t dst_off, const void *src, size_t len, int root_idx,
                  int write_root)
{
    if (g->tree < 0 || len == 0 || shmi.links_down) return 0;
    const struct canopy_bcast_args a = {
        .tree = (unsigned)g->tree, .group = 0, .root = shmi_group_pe(g, root_idx), .offset = dst_off,
        .size = len, .src = src, .flags = write_root ? 0u : CANOPY_BCAST_SKIP_SRC,
    };
    struct canopy_coll done;
    int rc = canopy_bcast(shmi.dev, &a, &done);
    if (!rc) rc = shmi_coll_wait(&done);
    const int skip = g->me == root_idx && !write_root; /* the root's dest is not written */
    return finished(g, "shmem broadcast", "the broadcast", rc, skip ? src : shmi_local(dst_off),
                    skip ? SHMI_NO_OFF : dst_off, len);
}

/* Issue a reduce and wait for it: 0 when done, 1 when its tree went down and software
 * must do it (recovered). */
static int reduce_run(const struct shmi_group *g, const struct canopy_reduce_args *a, size_t esize)
{
    struct canopy_coll c;
    int rc = canopy_allreduce(shmi.dev, a, &c);
    if (!rc) rc = shmi_coll_wait(&c);
    if (rc == CANOPY_EREDUCE)
        shmi_fatal("shmem reduction", "the routers found contributions that disagree (did every PE pass the same "
                                      "count and type?)");
    return !finished(g, "shmem reduction", "the reduce", rc, shmi_local(a->dst_offset), a->dst_offset,
                     a->count * esize);
}

/* Widen 8/16-bit elements to 32 bits (sign- or zero-extended): sums wrap modulo 2^32,
 * so truncating back gives the sum modulo 2^8/2^16, as the narrow type's sum; min and max
 * of the widened values are those of the originals. */
static void widen(int32_t *out, const void *in, size_t n, enum shmi_class c)
{
    for (size_t i = 0; i < n; ++i) {
        switch (c) {
        case C_I8: out[i] = ((const int8_t *)in)[i]; break;
        case C_I16: out[i] = ((const int16_t *)in)[i]; break;
        case C_U8: out[i] = ((const uint8_t *)in)[i]; break;
        default: out[i] = ((const uint16_t *)in)[i]; break;
        }
    }
}

static void narrow(void *out, const int32_t *in, size_t n, size_t size)
{
    for (size_t i = 0; i < n; ++i) {
        if (size == 1) ((uint8_t *)out)[i] = (uint8_t)(uint32_t)in[i];
        else ((uint16_t *)out)[i] = (uint16_t)(uint32_t)in[i];
    }
}

int shmi_hw_allreduce(const struct shmi_group *g, uint64_t dst_off, const void *src, size_t count,
                      struct shmi_dtype t, enum shmi_op op)
{
    if (g->tree < 0 || count == 0 || shmi.links_down) return 0;
    unsigned cop;
    switch (op) {
    case OP_SUM: cop = CANOPY_OP_SUM; break;
    case OP_MIN: cop = CANOPY_OP_MIN; break;
    case OP_MAX: cop = CANOPY_OP_MAX; break;
    default: return 0; /* prod, and, or, xor: not in the reduce engines */
    }
    int dt = -1, wide = 0;
    switch (t.cls) {
    case C_I32: dt = CANOPY_DT_I32; break;
    case C_U32: dt = CANOPY_DT_U32; break;
    case C_I64: dt = CANOPY_DT_I64; break;
    case C_U64: dt = CANOPY_DT_U64; break;
    case C_I8: case C_I16: case C_U8: case C_U16: dt = CANOPY_DT_I32, wide = 1; break;
    default: return 0; /* floating point and complex: software */
    }
    struct canopy_reduce_args a = {.tree = (unsigned)g->tree, .group = 0, .root = 0, .op = cop, .dtype = (unsigned)dt};
    if (!wide) {
        a.count = count;
        a.src = src;
        a.dst_offset = dst_off;
        return !reduce_run(g, &a, t.size); /* gone down: nothing was written, software does it all */
    }
    const size_t per = SHMI_RED_BYTES / sizeof(int32_t);
    int32_t *tmp = malloc(per * sizeof *tmp);
    if (!tmp) shmi_fatal("shmem reduction", "out of memory");
    for (size_t first = 0; first < count; first += per) {
        const size_t n = count - first < per ? count - first : per;
        widen(tmp, (const uint8_t *)src + first * t.size, n, t.cls);
        a.count = n;
        a.src = tmp;
        a.dst_offset = shmi.red_off;
        if (shmi.links_down || reduce_run(g, &a, sizeof(int32_t))) {
            /* The tree went down under this chunk, or under the previous one on the PEs
             * that completed it (here the recovery handed it over): every PE does the rest
             * in software from the same chunk on (the earlier ones are in dest, which may
             * be src). */
            shmi_sw_allreduce(g, (uint8_t *)shmi_local(dst_off) + first * t.size,
                              (const uint8_t *)src + first * t.size, count - first, t, op);
            break;
        }
        narrow((uint8_t *)shmi_local(dst_off) + first * t.size, shmi_local(shmi.red_off), n, t.size);
    }
    free(tmp);
    return 1;
}
