/* fm_scale_test.c: the fabric manager at the hardware's largest tori (host only, seconds).
 *
 * 1. canopy_fm_root_costs and canopy_fm_best_root against brute force (build the tree from
 *    every root, take its deepest node's torus distance and its valid entries) on small
 *    tori of 1 to 4 dimensions (odd, even, size 1 and 2, 16) and member sets: all nodes,
 *    the OpenSHMEM stride sets (node % 2^k == 0), random sets, one node, one plane.
 * 2. The largest torus the list below names (default 16x16x16x4, 16,384 nodes) through
 *    the set of trees the OpenSHMEM layer builds at shmem_init: the world tree from the
 *    centre node and the stride trees k = 1..7, each rooted by canopy_fm_best_root. Every
 *    tree is built, passes canopy_fm_verify, and passes an independent check (check_tree):
 *    walking the child ports down from the root reaches every valid node exactly once and
 *    nothing else; every child's parent port points back; every non-root's parent lists it;
 *    every node's depth is its torus distance from the root; the deepest node is at the
 *    expected depth (sum of floor(size/2) for the full tree; the farthest member, found
 *    directly, for a pruned one); members carry their groups, kept non-members are transit,
 *    every leaf is a member, every kept link is a link of the full tree from that root; the
 *    router count is the one canopy_fm_best_root predicted. For the stride sets of at most
 *    1024 members the chosen root is also checked against brute force at that size.
 * 3. The checks can fail: a tree whose X ring splits one node late (still a tree,
 *    canopy_fm_verify accepts it, two hops too deep there), a node reached twice, a node
 *    cut off, a leaf transit node, a flipped transit flag: each is refused by check_tree
 *    (and the structural ones by canopy_fm_verify).
 *
 *    build/tests/fw/fm_scale_test [TORUS ...]     e.g. 16x16x16x4 16x16x16x16
 * Exit 0 = pass; every failure prints what and where.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "canopy_fm.h"
#include "fm_check.h"
#include "fm_internal.h"


static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int parse_torus(const char *s, struct canopy_fm_torus *t)
{
    memset(t, 0, sizeof *t);
    for (const char *p = s; *p;) {
        char *end;
        unsigned long v = strtoul(p, &end, 10);
        if (end == p || t->ndims >= CANOPY_MAX_DIMS) return -1;
        t->size[t->ndims++] = (unsigned)v;
        if (*end == 'x') ++end;
        else if (*end) return -1;
        p = end;
    }
    for (unsigned d = t->ndims; d < CANOPY_MAX_DIMS; ++d) t->size[d] = 1;
    return canopy_fm_torus_check(t, NULL, 0) == CANOPY_OK ? 0 : -1;
}

/* The test's own torus distance, kept independent of canopy_fm_distance: it is the oracle. */
static unsigned distance(const struct canopy_fm_torus *t, unsigned a, unsigned b)
{
    unsigned ca[CANOPY_MAX_DIMS], cb[CANOPY_MAX_DIMS], hops = 0;
    canopy_fm_coords(t, a, ca);
    canopy_fm_coords(t, b, cb);
    for (unsigned d = 0; d < t->ndims; ++d) {
        unsigned k = t->size[d], dx = (ca[d] + k - cb[d]) % k;
        hops += dx < k - dx ? dx : k - dx;
    }
    return hops;
}

/* Brute force: build from root, deepest valid node's distance, valid entries. */
static void brute(const struct canopy_fm_torus *t, unsigned root, const uint8_t *groups, uint32_t *entries,
                  unsigned *depth, unsigned *routers)
{
    char err[512];
    int rc = canopy_fm_build_unchecked(t, (int)root, groups, entries, err, sizeof err);
    CHECK(rc == CANOPY_OK, "build from root %u: %s", root, err);
    unsigned nn = canopy_fm_nodes(t);
    *depth = 0;
    *routers = 0;
    for (unsigned n = 0; n < nn; ++n) {
        if (!canopy_tree_get_valid(entries[n])) continue;
        ++*routers;
        unsigned h = distance(t, root, n);
        if (h > *depth) *depth = h;
    }
}

static void name_of(const struct canopy_fm_torus *t, char *buf, size_t len)
{
    size_t o = 0;
    for (unsigned d = 0; d < t->ndims && o < len; ++d)
        o += (size_t)snprintf(buf + o, len - o, "%s%u", d ? "x" : "", t->size[d]);
}

/* ------------------------------------------------------------------ 1. against brute force */

static void costs_vs_brute(const struct canopy_fm_torus *t, const uint8_t *groups, const char *what)
{
    unsigned nn = canopy_fm_nodes(t);
    uint8_t *depth = malloc(nn);
    uint32_t *routers = malloc(nn * sizeof *routers), *entries = malloc(nn * sizeof *entries);
    char err[512], tn[32];
    name_of(t, tn, sizeof tn);
    int rc = canopy_fm_root_costs(t, groups, depth, routers, err, sizeof err);
    CHECK(rc == CANOPY_OK, "%s, %s: root costs: %s", tn, what, err);
    int best = -1;
    unsigned best_depth = 0, best_routers = 0;
    for (unsigned r = 0; rc == CANOPY_OK && r < nn; ++r) {
        unsigned d, n;
        brute(t, r, groups, entries, &d, &n);
        CHECK(depth[r] == d, "%s, %s, root %u: depth %u, brute force %u", tn, what, r, depth[r], d);
        CHECK(routers[r] == n, "%s, %s, root %u: routers %u, brute force %u", tn, what, r, routers[r], n);
        if (groups && !groups[r]) continue;
        if (best < 0 || d < best_depth || (d == best_depth && n < best_routers)) best = (int)r, best_depth = d, best_routers = n;
    }
    unsigned bd = 0, bn = 0;
    int got = canopy_fm_best_root(t, groups, &bd, &bn, err, sizeof err);
    CHECK(got == best && bd == best_depth && bn == best_routers,
          "%s, %s: best root %d (depth %u, %u routers), brute force %d (depth %u, %u routers)%s%s", tn, what, got, bd,
          bn, best, best_depth, best_routers, got < 0 ? ": " : "", got < 0 ? err : "");
    free(depth);
    free(routers);
    free(entries);
}

static void part_costs(void)
{
    static const char *const tori[] = {"1", "2", "4", "5", "16", "2x2", "3x3", "4x4", "1x2", "16x3", "2x2x2",
                                       "3x3x3", "4x4x4", "2x3x4", "5x1x3", "7x5x3", "8x8x8", "2x2x2x2",
                                       "3x2x5x2", "4x4x4x4", "6x1x4x3", "16x16"};
    for (size_t i = 0; i < sizeof tori / sizeof tori[0]; ++i) {
        struct canopy_fm_torus t;
        if (parse_torus(tori[i], &t)) {
            CHECK(0, "bad torus %s in the list", tori[i]);
            continue;
        }
        unsigned nn = canopy_fm_nodes(&t);
        uint8_t *g = malloc(nn);
        costs_vs_brute(&t, NULL, "every node");
        for (unsigned k = 1; (1u << k) < nn; ++k) {
            for (unsigned n = 0; n < nn; ++n) g[n] = n % (1u << k) == 0;
            char what[32];
            snprintf(what, sizeof what, "stride 2^%u", k);
            costs_vs_brute(&t, g, what);
        }
        for (unsigned rep = 0; rep < 4; ++rep) {
            unsigned any = 0, density = 1u + rep * 3u; /* about 1/1, 1/4, 1/7, 1/10 */
            for (unsigned n = 0; n < nn; ++n) {
                uint64_t r = splitmix64();
                g[n] = r % density == 0 ? (uint8_t)(1u | ((r >> 16) & 0xfeu)) : 0;
                any |= g[n];
            }
            if (!any) g[splitmix64() % nn] = 1;
            costs_vs_brute(&t, g, "random members");
        }
        memset(g, 0, nn);
        g[splitmix64() % nn] = 3;
        costs_vs_brute(&t, g, "one member");
        unsigned c[CANOPY_MAX_DIMS];
        for (unsigned n = 0; n < nn; ++n) {
            canopy_fm_coords(&t, n, c);
            g[n] = c[t.ndims - 1] == t.size[t.ndims - 1] / 2;
        }
        costs_vs_brute(&t, g, "one plane");
        free(g);
    }
    /* refusals */
    struct canopy_fm_torus t;
    parse_torus("3x3", &t);
    uint8_t g[9] = {0};
    char err[256] = "";
    CHECK(canopy_fm_best_root(&t, g, NULL, NULL, err, sizeof err) == CANOPY_EINVAL && strstr(err, "no member"),
          "no member: %s", err);
    g[4] = 2;
    CHECK(canopy_fm_best_root(&t, g, NULL, NULL, err, sizeof err) == CANOPY_EINVAL && strstr(err, "bit 0"),
          "groups without bit 0: %s", err);
    t.size[1] = 17;
    CHECK(canopy_fm_root_costs(&t, NULL, NULL, NULL, err, sizeof err) == CANOPY_ERANGE, "size 17: %s", err);
    t.size[1] = 3;
    t.ndims = 5;
    CHECK(canopy_fm_best_root(&t, NULL, NULL, NULL, err, sizeof err) == CANOPY_ERANGE, "5 dimensions: %s", err);
}

/* ------------------------------------------------------------------ 2. the largest torus */

/* The independent check. full: the unpruned tree from the same root (NULL when entries is
 * that tree). Returns 0 or 1 with a reason in why. */
static int check_tree(const struct canopy_fm_torus *t, unsigned root, const uint8_t *groups, const uint32_t *entries,
                      const uint32_t *full, unsigned want_depth, unsigned want_routers, char *why, size_t len)
{
    unsigned nn = canopy_fm_nodes(t), nports = 2 * t->ndims;
    unsigned *queue = malloc(nn * sizeof *queue), *depth = malloc(nn * sizeof *depth);
    uint8_t *seen = calloc(nn, 1);
    int bad = 0;
#define FAIL(...) do { snprintf(why, len, __VA_ARGS__); bad = 1; goto out; } while (0)
    if (!queue || !depth || !seen) FAIL("out of memory");
    for (unsigned n = 0; n < nn; ++n)
        if (canopy_tree_get_valid(entries[n]) && canopy_tree_get_root(entries[n]) && n != root)
            FAIL("node %u has the root flag, the root is %u", n, root);
    if (!canopy_tree_get_valid(entries[root]) || !canopy_tree_get_root(entries[root]))
        FAIL("the root %u's entry is not a valid root", root);
    unsigned head = 0, tail = 0, deepest = 0, valid = 0;
    queue[tail++] = root;
    seen[root] = 1;
    depth[root] = 0;
    while (head < tail) {
        unsigned v = queue[head++];
        uint32_t e = entries[v];
        unsigned ch = canopy_tree_get_children(e);
        for (unsigned p = 0; p < CANOPY_TREE_CHILDREN_WIDTH; ++p) {
            if (!(ch & (1u << p))) continue;
            if (p >= nports) FAIL("node %u: child port %u beyond the torus", v, p);
            unsigned m = (unsigned)canopy_fm_neighbour(t, v, p);
            uint32_t f = entries[m];
            if (seen[m]) FAIL("node %u reached twice (again from node %u through port %u)", m, v, p);
            if (!canopy_tree_get_valid(f) || canopy_tree_get_root(f))
                FAIL("node %u: child port %u leads to node %u, invalid or a root", v, p, m);
            if (canopy_tree_get_parent(f) != (p ^ 1u))
                FAIL("node %u: child port %u leads to node %u whose parent port is %u", v, p, m, canopy_tree_get_parent(f));
            seen[m] = 1;
            depth[m] = depth[v] + 1;
            if (depth[m] != distance(t, root, m))
                FAIL("node %u at depth %u, but %u hops from the root", m, depth[m], distance(t, root, m));
            if (depth[m] > deepest) deepest = depth[m];
            queue[tail++] = m;
        }
    }
    for (unsigned n = 0; n < nn; ++n) {
        uint32_t e = entries[n];
        unsigned g = groups ? groups[n] : 1u;
        if (!canopy_tree_get_valid(e)) {
            if (seen[n]) FAIL("node %u reached but invalid", n);
            if (g) FAIL("member node %u is not in the tree", n);
            continue;
        }
        ++valid;
        if (!seen[n]) FAIL("valid node %u is not reached from the root", n);
        if (n != root) {
            unsigned q = canopy_tree_get_parent(e);
            unsigned up = (unsigned)canopy_fm_neighbour(t, n, q);
            if (!(canopy_tree_get_children(entries[up]) & (1u << (q ^ 1u))))
                FAIL("node %u: its parent node %u does not list it as a child", n, up);
            if (full && canopy_tree_get_parent(full[n]) != q)
                FAIL("node %u: parent port %u, the full tree's is %u", n, q, canopy_tree_get_parent(full[n]));
        }
        if (g) {
            if (canopy_tree_get_transit(e) || canopy_tree_get_groups(e) != g)
                FAIL("member node %u: transit %u groups 0x%x, expected groups 0x%x", n, canopy_tree_get_transit(e),
                     canopy_tree_get_groups(e), g);
        } else {
            if (!canopy_tree_get_transit(e) || canopy_tree_get_groups(e) != 0)
                FAIL("non-member node %u: not a transit entry", n);
            if (canopy_tree_get_children(e) == 0) FAIL("transit node %u is a leaf (nothing below it to connect)", n);
        }
    }
    if (tail != valid) FAIL("%u nodes reached, %u valid entries", tail, valid);
    if (deepest != want_depth) FAIL("deepest node at %u hops, expected %u", deepest, want_depth);
    if (valid != want_routers) FAIL("%u routers in the tree, expected %u", valid, want_routers);
out:
#undef FAIL
    free(queue);
    free(depth);
    free(seen);
    return bad;
}

static unsigned center_node(const struct canopy_fm_torus *t)
{
    unsigned n = 0;
    for (unsigned d = t->ndims; d-- > 0;) n = n * t->size[d] + t->size[d] / 2;
    return n;
}

static void part_largest(const struct canopy_fm_torus *t)
{
    unsigned nn = canopy_fm_nodes(t);
    char tn[32], err[512], why[512];
    name_of(t, tn, sizeof tn);
    uint32_t *world = malloc(nn * sizeof *world), *entries = malloc(nn * sizeof *entries),
             *full = malloc(nn * sizeof *full), *scratch = malloc(nn * sizeof *scratch);
    uint8_t *g = malloc(nn);
    double start = now_ms();

    /* The world tree from the centre, every node a member. */
    unsigned root = center_node(t), want = 0;
    for (unsigned d = 0; d < t->ndims; ++d) want += t->size[d] / 2;
    int rc = canopy_fm_build(t, (int)root, NULL, world, err, sizeof err);
    CHECK(rc == CANOPY_OK, "%s world tree: %s", tn, err);
    if (rc == CANOPY_OK) {
        CHECK(canopy_fm_verify(t, world, err, sizeof err) == CANOPY_OK, "%s world tree: verify: %s", tn, err);
        int bad = check_tree(t, root, NULL, world, NULL, want, nn, why, sizeof why);
        CHECK(!bad, "%s world tree (root %u): %s", tn, root, why);
    }

    /* The stride trees: members node % 2^k == 0, root by canopy_fm_best_root. */
    unsigned ntrees = 1;
    for (unsigned k = 1; k <= 7 && (1u << k) <= nn - 1; ++k) {
        for (unsigned n = 0; n < nn; ++n) g[n] = n % (1u << k) == 0;
        unsigned bd = 0, bn = 0;
        int r = canopy_fm_best_root(t, g, &bd, &bn, err, sizeof err);
        CHECK(r >= 0, "%s stride 2^%u: best root: %s", tn, k, err);
        if (r < 0) continue;
        ++ntrees;
        unsigned far = 0;
        for (unsigned n = 0; n < nn; n += 1u << k) {
            unsigned h = distance(t, (unsigned)r, n);
            if (h > far) far = h;
        }
        CHECK(bd == far, "%s stride 2^%u: best root %d said depth %u, farthest member at %u", tn, k, r, bd, far);
        rc = canopy_fm_build(t, r, g, entries, err, sizeof err);
        CHECK(rc == CANOPY_OK, "%s stride 2^%u: %s", tn, k, err);
        rc |= canopy_fm_build(t, r, NULL, full, err, sizeof err);
        if (rc != CANOPY_OK) continue;
        CHECK(canopy_fm_verify(t, entries, err, sizeof err) == CANOPY_OK, "%s stride 2^%u: verify: %s", tn, k, err);
        int bad = check_tree(t, (unsigned)r, g, entries, full, far, bn, why, sizeof why);
        CHECK(!bad, "%s stride 2^%u (root %d): %s", tn, k, r, why);
        /* The chosen root against brute force where that is affordable (few candidates). */
        if (nn >> k <= 1024) {
            int best = -1;
            unsigned best_d = 0, best_n = 0;
            for (unsigned c = 0; c < nn; c += 1u << k) {
                unsigned d, n;
                brute(t, c, g, scratch, &d, &n);
                if (best < 0 || d < best_d || (d == best_d && n < best_n)) best = (int)c, best_d = d, best_n = n;
            }
            CHECK(best == r && best_d == bd && best_n == bn,
                  "%s stride 2^%u: best root %d (depth %u, %u routers), brute force %d (depth %u, %u routers)", tn, k,
                  r, bd, bn, best, best_d, best_n);
        }
    }
    printf("fm_scale_test: %s (%u nodes): world tree and %u stride trees built and checked in %.0f ms\n", tn, nn,
           ntrees - 1, now_ms() - start);

    /* 3. The checks can fail. Take the world tree; X ring of the root; k = size[0]. */
    unsigned k = t->size[0];
    if (k >= 4 && rc == CANOPY_OK) {
        unsigned half = root, after, after2, before;
        for (unsigned i = 0; i < k / 2; ++i) half = (unsigned)canopy_fm_neighbour(t, half, 0); /* +X k/2 times */
        before = (unsigned)canopy_fm_neighbour(t, half, 1);
        after = (unsigned)canopy_fm_neighbour(t, half, 0);
        after2 = (unsigned)canopy_fm_neighbour(t, after, 0);
        /* (a) move the X ring's split one node on: the node after the half-way one hangs from
         * it (+X) instead of from the far side; still a tree under every rule, but that node
         * is k/2 + 1 hops down where it is k/2 - 1 hops from the root */
        memcpy(entries, world, nn * sizeof *entries);
        entries[after2] = canopy_tree_set_children(entries[after2], canopy_tree_get_children(entries[after2]) & ~2u);
        entries[after] = canopy_tree_set_parent(entries[after], 1);
        entries[half] = canopy_tree_set_children(entries[half], canopy_tree_get_children(entries[half]) | 1u);
        CHECK(canopy_fm_verify(t, entries, err, sizeof err) == CANOPY_OK, "moved split is still a tree: %s", err);
        CHECK(check_tree(t, root, NULL, entries, NULL, want, nn, why, sizeof why) && strstr(why, "hops from the root"),
              "node one hop too deep not refused: %s", why);
        /* (b) a node reached twice: the far side lists it as a child too */
        memcpy(entries, world, nn * sizeof *entries);
        entries[after] = canopy_tree_set_children(entries[after], canopy_tree_get_children(entries[after]) | 2u);
        CHECK(canopy_fm_verify(t, entries, err, sizeof err) == CANOPY_EINVAL, "extra child link accepted by verify");
        CHECK(check_tree(t, root, NULL, entries, NULL, want, nn, why, sizeof why), "extra child link not refused");
        /* (c) a node cut off: its parent forgets it */
        memcpy(entries, world, nn * sizeof *entries);
        entries[before] = canopy_tree_set_children(entries[before], canopy_tree_get_children(entries[before]) & ~1u);
        CHECK(canopy_fm_verify(t, entries, err, sizeof err) == CANOPY_EINVAL, "cut-off node accepted by verify");
        CHECK(check_tree(t, root, NULL, entries, NULL, want, nn, why, sizeof why) && strstr(why, "not"),
              "cut-off node not refused: %s", why);
        /* (d) a flipped transit flag on a member */
        memcpy(entries, world, nn * sizeof *entries);
        entries[half] = canopy_tree_set_groups(canopy_tree_set_transit(entries[half], 1), 0);
        CHECK(check_tree(t, root, NULL, entries, NULL, want, nn, why, sizeof why) && strstr(why, "member"),
              "transit member not refused: %s", why);
        /* (e) a leaf transit node hung below the pruned stride-2 tree */
        for (unsigned n = 0; n < nn; ++n) g[n] = n % 2 == 0;
        unsigned bd = 0, bn = 0;
        int r = canopy_fm_best_root(t, g, &bd, &bn, err, sizeof err);
        if (r >= 0 && canopy_fm_build(t, r, g, entries, err, sizeof err) == CANOPY_OK &&
            canopy_fm_build(t, r, NULL, full, err, sizeof err) == CANOPY_OK) {
            int added = 0;
            for (unsigned n = 0; n < nn && !added; ++n) {
                if (canopy_tree_get_valid(entries[n]) || n == (unsigned)r) continue;
                unsigned q = canopy_tree_get_parent(full[n]), up = (unsigned)canopy_fm_neighbour(t, n, q);
                if (!canopy_tree_get_valid(entries[up])) continue;
                entries[n] = canopy_tree_set_transit(canopy_tree_set_parent(canopy_tree_set_valid(0, 1), q), 1);
                entries[up] = canopy_tree_set_children(entries[up], canopy_tree_get_children(entries[up]) | 1u << (q ^ 1u));
                added = 1;
            }
            CHECK(added, "no place for a leaf transit node");
            CHECK(check_tree(t, (unsigned)r, g, entries, full, bd, bn, why, sizeof why) && strstr(why, "leaf"),
                  "leaf transit node not refused: %s", why);
        }
    }
    free(world);
    free(entries);
    free(full);
    free(scratch);
    free(g);
}

int main(int argc, char **argv)
{
    rng_state = 0x5ca1ab1e002c0ffeull;
    double start = now_ms();
    part_costs();
    printf("fm_scale_test: root costs against brute force on 22 tori in %.0f ms\n", now_ms() - start);
    const char *defaults[] = {"16x16x16x4"};
    const char **list = argc > 1 ? (const char **)(argv + 1) : defaults;
    int count = argc > 1 ? argc - 1 : 1;
    for (int i = 0; i < count; ++i) {
        struct canopy_fm_torus t;
        if (parse_torus(list[i], &t)) {
            fprintf(stderr, "fm_scale_test: %s is not a torus of 1..4 dimensions of sizes 1..16\n", list[i]);
            return 2;
        }
        part_largest(&t);
    }
    printf("fm_scale_test: %d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
