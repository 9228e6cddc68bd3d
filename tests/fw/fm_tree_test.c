/* fm_tree_test.c: host-only unit test of the fabric manager's tree code (fw/src/fm_tree.c).
 *
 * 1. Full trees, every root of every torus in TORI: the build passes the write-time rule
 *    and the global verification, and matches an independent construction that follows
 *    seed 002's wording (the root spreads along X, every node reached spreads along the
 *    next dimension; + for floor(k/2) hops, - for ceil(k/2)-1); nnodes-1 links; every
 *    node's depth is its torus distance, the deepest is sum floor(size/2); parents reach
 *    the root; size-2 rings use only +, size-1 dimensions no port.
 * 2. Subgroups: random member sets (splitmix64, fixed seed): members non-transit with
 *    their mask, kept non-members transit, pruned nodes hold no member, every kept node has
 *    a member below it, kept links are those of the full tree.
 * 3. Refusals: hand-made corrupted tables, one per rule, refused with a message naming the
 *    right node and field; every single-bit flip of a structural field is refused; bad
 *    tori, roots and member sets are refused by the build.
 * 4. Stripe roots (canopy_fm_stripe_roots): for every torus and a few first roots and
 *    counts, with every node a member and with random member sets: the first root first,
 *    all distinct members, each next one at the largest distance from those before it (no
 *    member farther away), all members when n is their count; n = 0, more roots than
 *    members and a first root outside the members are refused.
 * 5. Trees around dead links (canopy_fm_build_avoiding): every torus, every root (a few on
 *    the large ones), every single dead link (marked at one end or the other): built, no
 *    tree link dead, every node in it, and the same table as canopy_fm_build when the
 *    plain tree does not use that link; random sets of dead links with random members,
 *    against an independent reference that walks each member's dimension-ordered path
 *    ring by ring (refused exactly when some ring blocks both ways, each node's depth the
 *    sum of the ways it takes); a cut-off root row and the root canopy_fm_best_root_avoiding
 *    then finds; bad masks refused.
 * Exit 0 = pass; every failure prints what and where.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canopy_fm.h"
#include "fm_check.h"


struct torus_case { const char *name; unsigned ndims, size[4]; };
static const struct torus_case TORI[] = {
    {"4", 1, {4, 1, 1, 1}},         {"2x2", 2, {2, 2, 1, 1}},       {"3x3", 2, {3, 3, 1, 1}},
    {"4x4", 2, {4, 4, 1, 1}},       {"2x2x2", 3, {2, 2, 2, 1}},     {"3x3x3", 3, {3, 3, 3, 1}},
    {"4x4x4", 3, {4, 4, 4, 1}},     {"2x3x4", 3, {2, 3, 4, 1}},     {"16", 1, {16, 1, 1, 1}},
    {"8x8x8", 3, {8, 8, 8, 1}},     {"2x2x2x2", 4, {2, 2, 2, 2}},
    /* unused dimensions and the extremes */
    {"1", 1, {1, 1, 1, 1}},         {"5x1x3", 3, {5, 1, 3, 1}},     {"1x2", 2, {1, 2, 1, 1}},
    {"3x2x5x2", 4, {3, 2, 5, 2}},
};
#define NTORI (sizeof TORI / sizeof TORI[0])

static struct canopy_fm_torus torus(const struct torus_case *c)
{
    struct canopy_fm_torus t = {c->ndims, {c->size[0], c->size[1], c->size[2], c->size[3]}};
    return t;
}

static int contains(const char *s, const char *sub) { return strstr(s, sub) != NULL; }

/* Independent reference: seed 002's spreading, dimension by dimension. ref_parent[n] =
 * the port toward the parent (-1 at the root), ref_depth[n] = hops from the root. */
static void reference(const struct canopy_fm_torus *t, unsigned root, int *ref_parent, unsigned *ref_depth)
{
    unsigned nn = canopy_fm_nodes(t);
    unsigned char *reached = calloc(nn, 1);
    unsigned *list = malloc(nn * sizeof *list), count = 1;
    list[0] = root;
    reached[root] = 1;
    ref_parent[root] = -1;
    ref_depth[root] = 0;
    for (unsigned d = 0; d < t->ndims; ++d) {
        unsigned k = t->size[d], before = count;
        for (unsigned i = 0; i < before; ++i) {
            unsigned dirs[2][2] = {{2 * d, k / 2}, {2 * d + 1, (k + 1) / 2 - 1}}; /* port, hops */
            for (unsigned s = 0; s < 2; ++s) {
                unsigned at = list[i];
                for (unsigned h = 0; h < dirs[s][1]; ++h) {
                    unsigned next = (unsigned)canopy_fm_neighbour(t, at, dirs[s][0]);
                    if (reached[next]) {
                        ref_parent[0] = -99; /* the spreading reached a node twice: reference broken */
                        break;
                    }
                    reached[next] = 1;
                    ref_parent[next] = (int)(dirs[s][0] ^ 1u);
                    ref_depth[next] = ref_depth[at] + 1;
                    list[count++] = next;
                    at = next;
                }
            }
        }
    }
    if (count != nn) ref_parent[0] = -98;
    free(reached);
    free(list);
}

/* Walk parents from n; returns hops to the root, or -1 if it takes more than nn steps. */
static int hops_to_root(const struct canopy_fm_torus *t, const uint32_t *e, unsigned n)
{
    unsigned nn = canopy_fm_nodes(t);
    for (int h = 0; h <= (int)nn; ++h) {
        if (!canopy_tree_get_valid(e[n])) return -1;
        if (canopy_tree_get_root(e[n])) return h;
        n = (unsigned)canopy_fm_neighbour(t, n, canopy_tree_get_parent(e[n]));
    }
    return -1;
}

static void test_full_trees(void)
{
    char err[512];
    for (size_t ti = 0; ti < NTORI; ++ti) {
        struct canopy_fm_torus t = torus(&TORI[ti]);
        const char *tn = TORI[ti].name;
        unsigned nn = canopy_fm_nodes(&t), want_depth = 0;
        for (unsigned d = 0; d < t.ndims; ++d) want_depth += t.size[d] / 2;
        uint32_t *e = malloc(nn * sizeof *e);
        int *rp = malloc(nn * sizeof *rp);
        unsigned *rd = malloc(nn * sizeof *rd);
        for (unsigned root = 0; root < nn; ++root) {
            int rc = canopy_fm_build(&t, (int)root, NULL, e, err, sizeof err);
            CHECK(rc == CANOPY_OK, "%s root %u: build: %d %s", tn, root, rc, err);
            if (rc) continue;
            rc = canopy_fm_verify(&t, e, err, sizeof err);
            CHECK(rc == CANOPY_OK, "%s root %u: verify: %s", tn, root, err);
            reference(&t, root, rp, rd);
            CHECK(rp[0] > -90, "%s root %u: the reference spreading is broken (%d)", tn, root, rp[0]);
            unsigned links = 0, max_depth = 0, roots = 0;
            for (unsigned n = 0; n < nn; ++n) {
                uint32_t x = e[n];
                char es[128];
                canopy_fm_entry_str(&t, x, es, sizeof es);
                rc = canopy_fm_check_entry(&t, x, err, sizeof err);
                CHECK(rc == CANOPY_OK, "%s root %u node %u: write-time rule: %s", tn, root, n, err);
                CHECK(canopy_tree_get_valid(x) && !canopy_tree_get_transit(x) && canopy_tree_get_groups(x) == 1,
                      "%s root %u node %u: expected a valid member with groups 1: %s", tn, root, n, es);
                CHECK((x >> 23) == 0, "%s root %u node %u: reserved bits set: 0x%08x", tn, root, n, x);
                roots += canopy_tree_get_root(x);
                CHECK(canopy_tree_get_root(x) == (n == root), "%s root %u node %u: root flag %u", tn, root, n,
                      canopy_tree_get_root(x));
                if (n == root) CHECK(canopy_tree_get_parent(x) == 0, "%s root %u: root parent field nonzero", tn, root);
                else if (rp[0] > -90)
                    CHECK((int)canopy_tree_get_parent(x) == rp[n],
                          "%s root %u node %u: parent port %u, the seed's spreading gives %d (%s)", tn, root, n,
                          canopy_tree_get_parent(x), rp[n], es);
                unsigned ch = canopy_tree_get_children(x);
                for (unsigned p = 0; p < 8; ++p) {
                    if (!(ch & (1u << p))) continue;
                    ++links;
                    CHECK(p < 2 * t.ndims && t.size[p / 2] > 1, "%s root %u node %u: child port %u", tn, root, n, p);
                    CHECK(!(p & 1u) || t.size[p / 2] != 2, "%s root %u node %u: child port %u (-) on a ring of 2",
                          tn, root, n, p);
                }
                int h = hops_to_root(&t, e, n);
                CHECK(h >= 0, "%s root %u node %u: parents do not reach the root", tn, root, n);
                /* the tree is a shortest-path tree: depth = torus distance to the root */
                unsigned c[4], r[4], dist = 0;
                canopy_fm_coords(&t, n, c);
                canopy_fm_coords(&t, root, r);
                for (unsigned d = 0; d < t.ndims; ++d) {
                    unsigned k = t.size[d], delta = (c[d] + k - r[d]) % k;
                    dist += delta <= k - delta ? delta : k - delta;
                }
                CHECK(h == (int)dist, "%s root %u node %u: depth %d, torus distance %u", tn, root, n, h, dist);
                if (rp[0] > -90) CHECK(h == (int)rd[n], "%s root %u node %u: depth %d, reference %u", tn, root, n, h, rd[n]);
                if (h > (int)max_depth) max_depth = (unsigned)h;
            }
            CHECK(roots == 1, "%s root %u: %u roots", tn, root, roots);
            CHECK(links == nn - 1, "%s root %u: %u child links, expected %u", tn, root, links, nn - 1);
            CHECK(max_depth == want_depth, "%s root %u: depth %u, expected %u", tn, root, max_depth, want_depth);
        }
        free(e);
        free(rp);
        free(rd);
    }
}

/* ------------------------------------------------------------------ subgroups */

static void check_subgroup_table(const struct canopy_fm_torus *t, const char *tn, unsigned root, const uint8_t *g,
                                 const uint32_t *e, const uint32_t *full)
{
    char err[512];
    unsigned nn = canopy_fm_nodes(t);
    int rc = canopy_fm_verify(t, e, err, sizeof err);
    CHECK(rc == CANOPY_OK, "%s root %u subgroup: verify: %s", tn, root, err);
    unsigned *below = calloc(nn, sizeof *below); /* members in each node's subtree */
    for (unsigned n = 0; n < nn; ++n) {
        uint32_t x = e[n];
        CHECK(canopy_fm_check_entry(t, x, err, sizeof err) == CANOPY_OK, "%s root %u node %u: %s", tn, root, n, err);
        if (!canopy_tree_get_valid(x)) {
            CHECK(g[n] == 0, "%s root %u node %u: member 0x%02x pruned", tn, root, n, g[n]);
            CHECK(x == 0, "%s root %u node %u: invalid entry not 0: 0x%08x", tn, root, n, x);
            continue;
        }
        CHECK(canopy_tree_get_root(x) == (n == root), "%s root %u node %u: root flag", tn, root, n);
        if (g[n]) {
            CHECK(!canopy_tree_get_transit(x) && canopy_tree_get_groups(x) == g[n],
                  "%s root %u node %u: member 0x%02x, entry transit %u groups 0x%02x", tn, root, n, g[n],
                  canopy_tree_get_transit(x), canopy_tree_get_groups(x));
            CHECK(hops_to_root(t, e, n) >= 0, "%s root %u node %u: member not connected", tn, root, n);
            for (unsigned m = n;; m = (unsigned)canopy_fm_neighbour(t, m, canopy_tree_get_parent(e[m]))) {
                ++below[m];
                if (canopy_tree_get_root(e[m]) || !canopy_tree_get_valid(e[m])) break;
            }
        } else {
            CHECK(canopy_tree_get_transit(x) && canopy_tree_get_groups(x) == 0,
                  "%s root %u node %u: non-member kept but transit %u groups 0x%02x", tn, root, n,
                  canopy_tree_get_transit(x), canopy_tree_get_groups(x));
        }
        /* the kept tree is the full tree restricted to kept nodes */
        if (n != root)
            CHECK(canopy_tree_get_parent(x) == canopy_tree_get_parent(full[n]), "%s root %u node %u: parent %u vs full %u",
                  tn, root, n, canopy_tree_get_parent(x), canopy_tree_get_parent(full[n]));
        unsigned want_ch = 0, fc = canopy_tree_get_children(full[n]);
        for (unsigned p = 0; p < 8; ++p)
            if ((fc & (1u << p)) && canopy_tree_get_valid(e[canopy_fm_neighbour(t, n, p)])) want_ch |= 1u << p;
        CHECK(canopy_tree_get_children(x) == want_ch, "%s root %u node %u: children 0x%02x, expected 0x%02x", tn, root,
              n, canopy_tree_get_children(x), want_ch);
    }
    for (unsigned n = 0; n < nn; ++n)
        if (canopy_tree_get_valid(e[n]))
            CHECK(below[n] > 0, "%s root %u node %u: kept but no member below it (not pruned)", tn, root, n);
    free(below);
}

static void test_subgroups(void)
{
    char err[512];
    for (size_t ti = 0; ti < NTORI; ++ti) {
        struct canopy_fm_torus t = torus(&TORI[ti]);
        const char *tn = TORI[ti].name;
        unsigned nn = canopy_fm_nodes(&t);
        uint32_t *e = malloc(nn * sizeof *e), *full = malloc(nn * sizeof *full);
        uint8_t *g = malloc(nn);
        unsigned trials = nn > 64 ? 40 : 4 * nn;
        for (unsigned trial = 0; trial < trials; ++trial) {
            unsigned root = (unsigned)(splitmix64() % nn);
            /* densities from "one member" to "almost all" */
            unsigned shift = (unsigned)(splitmix64() % 5); /* P(member) = 1/2^shift, shift 4 => exactly one */
            unsigned members = 0;
            for (unsigned n = 0; n < nn; ++n) {
                int in = shift == 4 ? 0 : (splitmix64() & ((1u << shift) - 1u)) == 0;
                g[n] = in ? (uint8_t)(1u | (splitmix64() & 0xfeu)) : 0;
                members += in;
            }
            if (shift == 4 || members == 0) g[splitmix64() % nn] = 1;
            int rc = canopy_fm_build(&t, (int)root, NULL, full, err, sizeof err);
            CHECK(rc == CANOPY_OK, "%s root %u: full build: %s", tn, root, err);
            rc = canopy_fm_build(&t, (int)root, g, e, err, sizeof err);
            CHECK(rc == CANOPY_OK, "%s root %u trial %u: subgroup build: %s", tn, root, trial, err);
            if (rc == CANOPY_OK) check_subgroup_table(&t, tn, root, g, e, full);
        }
        free(e);
        free(full);
        free(g);
    }
    /* A hand-checked case: 3x3 rooted at 0, one member at (2,2): path 0 -X-> 2 -Y-> 8. */
    struct canopy_fm_torus t = {2, {3, 3, 1, 1}};
    uint8_t g[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0x05};
    uint32_t e[9];
    CHECK(canopy_fm_build(&t, 0, g, e, err, sizeof err) == CANOPY_OK, "3x3 one member: %s", err);
    CHECK(canopy_tree_get_root(e[0]) && canopy_tree_get_transit(e[0]) && canopy_tree_get_children(e[0]) == 0x02,
          "3x3 one member: root entry 0x%08x", e[0]);
    CHECK(canopy_tree_get_transit(e[2]) && canopy_tree_get_parent(e[2]) == 0 && canopy_tree_get_children(e[2]) == 0x08,
          "3x3 one member: node 2 entry 0x%08x", e[2]);
    CHECK(!canopy_tree_get_transit(e[8]) && canopy_tree_get_parent(e[8]) == 2 && canopy_tree_get_groups(e[8]) == 5 &&
              canopy_tree_get_children(e[8]) == 0,
          "3x3 one member: node 8 entry 0x%08x", e[8]);
    for (unsigned n = 0; n < 9; ++n)
        if (n != 0 && n != 2 && n != 8) CHECK(e[n] == 0, "3x3 one member: node %u entry 0x%08x", n, e[n]);
}

/* ------------------------------------------------------------------ refusals */

static uint32_t entry(unsigned root, int parent, unsigned children, unsigned transit, unsigned groups)
{
    uint32_t e = canopy_tree_set_valid(0, 1);
    e = canopy_tree_set_root(e, root);
    e = canopy_tree_set_parent(e, parent < 0 ? 0 : (unsigned)parent);
    e = canopy_tree_set_children(e, children);
    e = canopy_tree_set_transit(e, transit);
    return canopy_tree_set_groups(e, groups);
}

/* The table must be refused (EINVAL), with every substring in subs (NULL-terminated). */
static void expect_refused(const struct canopy_fm_torus *t, const uint32_t *e, const char *what, const char *const *subs)
{
    char err[512] = "";
    int rc = canopy_fm_verify(t, e, err, sizeof err);
    CHECK(rc == CANOPY_EINVAL, "%s: verify returned %d (%s), expected a refusal", what, rc, err);
    for (; *subs; ++subs)
        CHECK(contains(err, *subs), "%s: message \"%s\" lacks \"%s\"", what, err, *subs);
}

#define SUBS(...) ((const char *const[]){__VA_ARGS__, NULL})

static void test_refusals(void)
{
    char err[512];
    struct canopy_fm_torus t = {2, {3, 3, 1, 1}};
    uint32_t good[9], e[9];
    CHECK(canopy_fm_build(&t, 4, NULL, good, err, sizeof err) == CANOPY_OK, "3x3 root 4: %s", err);
    const uint32_t X_P = 1u << 0, X_M = 1u << 1, Y_P = 1u << 2, Y_M = 1u << 3;
    /* the table as docs/fabric-manager.md draws it */
    CHECK(good[4] == entry(1, -1, X_P | X_M | Y_P | Y_M, 0, 1), "3x3 root 4: node 4 0x%08x", good[4]);
    CHECK(good[3] == entry(0, 0, Y_P | Y_M, 0, 1), "3x3 root 4: node 3 0x%08x", good[3]);
    CHECK(good[5] == entry(0, 1, Y_P | Y_M, 0, 1), "3x3 root 4: node 5 0x%08x", good[5]);
    CHECK(good[1] == entry(0, 2, 0, 0, 1) && good[7] == entry(0, 3, 0, 0, 1), "3x3 root 4: nodes 1, 7");

    /* two roots */
    memcpy(e, good, sizeof e);
    e[8] = canopy_tree_set_root(e[8], 1);
    expect_refused(&t, e, "two roots", SUBS("node 8 (2,2)", "root flag", "node 4 (1,1)"));
    /* no root */
    memset(e, 0, sizeof e);
    expect_refused(&t, e, "no root (empty table)", SUBS("root flag", "exactly one root"));
    {
        struct canopy_fm_torus t3 = {1, {3, 1, 1, 1}};
        uint32_t f[3];
        f[0] = f[1] = f[2] = entry(0, 1, 1u << 0, 0, 1); /* a ring of parents, legal alone */
        expect_refused(&t3, f, "no root (ring)", SUBS("root flag", "exactly one root"));
    }
    /* child pointing at a node whose parent is elsewhere (the example of the brief) */
    memcpy(e, good, sizeof e);
    e[2] = 0;
    e[5] = entry(0, 3, Y_P, 0, 1);
    expect_refused(&t, e, "child/parent mismatch",
                   SUBS("node 4 (1,1): child port 0 (+X) leads to node 5 (2,1) whose parent is port 3 (-Y), "
                        "expected port 1 (-X)"));
    /* a child link to an invalid entry */
    memcpy(e, good, sizeof e);
    e[7] = 0;
    expect_refused(&t, e, "child invalid", SUBS("node 4 (1,1): child port 2 (+Y) leads to node 7 (1,2)", "invalid"));
    /* a child link to the root: node 1 (1,0) with parent -Y and child +Y (legal alone) */
    memcpy(e, good, sizeof e);
    e[1] = entry(0, 3, Y_P, 0, 1);
    expect_refused(&t, e, "child is the root", SUBS("node 1 (1,0): child port 2 (+Y) leads to node 4 (1,1)", "root"));
    /* a parent that does not list the node as a child */
    memcpy(e, good, sizeof e);
    e[3] = canopy_tree_set_children(e[3], Y_P); /* drop node 0 (0,0) */
    expect_refused(&t, e, "parent does not list child",
                   SUBS("node 0 (0,0): parent port 2 (+Y) leads to node 3 (0,1)", "do not include port 3 (-Y)"));
    /* a parent link to an invalid entry */
    memcpy(e, good, sizeof e);
    e[3] = 0;
    e[4] = canopy_tree_set_children(e[4], X_P | Y_P | Y_M);
    expect_refused(&t, e, "parent invalid", SUBS("node 0 (0,0): parent port 2 (+Y) leads to node 3 (0,1)", "invalid"));
    /* a cycle: the ring y = 0 points at itself, detached from the root */
    memcpy(e, good, sizeof e);
    e[0] = e[1] = e[2] = entry(0, 1, X_P, 0, 1);
    e[3] = canopy_tree_set_children(e[3], Y_P);
    e[4] = canopy_tree_set_children(e[4], X_P | X_M | Y_P);
    e[5] = canopy_tree_set_children(e[5], Y_P);
    expect_refused(&t, e, "cycle", SUBS("node 0 (0,0)", "never reaches the root", "cycle", "parent port 1 (-X)"));
    /* child in an earlier dimension than the parent */
    memcpy(e, good, sizeof e);
    e[1] = entry(0, 2, X_P, 0, 1);
    expect_refused(&t, e, "child before parent dimension",
                   SUBS("node 1 (1,0): child port 0 (+X) is in dimension 0", "parent port 2 (+Y)"));
    CHECK(canopy_fm_check_entry(&t, e[1], err, sizeof err) == CANOPY_EINVAL && contains(err, "child port 0 (+X)"),
          "check_entry: earlier dimension: %s", err);
    /* child = the parent port */
    memcpy(e, good, sizeof e);
    e[1] = entry(0, 2, Y_P, 0, 1);
    expect_refused(&t, e, "child is the parent port", SUBS("node 1 (1,0): child port 2 (+Y) is the parent port"));
    /* transit with groups */
    memcpy(e, good, sizeof e);
    e[7] = canopy_tree_set_transit(e[7], 1);
    expect_refused(&t, e, "transit with groups", SUBS("node 7 (1,2): transit with groups 0x01"));
    /* ports beyond ndims */
    memcpy(e, good, sizeof e);
    e[4] = canopy_tree_set_children(e[4], canopy_tree_get_children(e[4]) | 1u << 4);
    expect_refused(&t, e, "child port beyond ndims", SUBS("node 4 (1,1): child port 4 is not a link port", "0..3"));
    memcpy(e, good, sizeof e);
    e[7] = canopy_tree_set_parent(e[7], 5);
    expect_refused(&t, e, "parent port beyond ndims", SUBS("node 7 (1,2): parent port 5 is not a link port"));
    memcpy(e, good, sizeof e);
    e[7] = canopy_tree_set_parent(e[7], 4); /* the host port is never a parent */
    expect_refused(&t, e, "parent = host port", SUBS("node 7 (1,2): parent port 4"));
    /* a port in a dimension of size 1 (a link to itself) */
    {
        struct canopy_fm_torus t1 = {2, {4, 1, 1, 1}};
        uint32_t f[4];
        CHECK(canopy_fm_build(&t1, 0, NULL, f, err, sizeof err) == CANOPY_OK, "4x1: %s", err);
        f[2] = canopy_tree_set_children(f[2], Y_P);
        expect_refused(&t1, f, "port in a size-1 dimension", SUBS("node 2 (2,0): child port 2 (+Y)", "size is 1"));
    }

    /* the write-time rule alone */
    CHECK(canopy_fm_check_entry(&t, 0xfffffffeu, err, sizeof err) == CANOPY_OK, "an invalid entry is acceptable: %s", err);
    CHECK(canopy_fm_check_entry(&t, entry(1, 15, X_P | Y_M, 0, 3), err, sizeof err) == CANOPY_OK,
          "a root's parent field is ignored: %s", err);
    CHECK(canopy_fm_check_entry(&t, entry(1, -1, 0, 1, 0), err, sizeof err) == CANOPY_OK, "transit root: %s", err);
    CHECK(canopy_fm_check_entry(&t, entry(1, -1, 1u << 4, 0, 1), err, sizeof err) == CANOPY_EINVAL,
          "a root's child beyond ndims");
    CHECK(canopy_fm_check_entry(&t, entry(0, 1, X_P | Y_P | Y_M, 0, 1), err, sizeof err) == CANOPY_OK,
          "parent -X, children +X (opposite) and Y: %s", err);
    CHECK(canopy_fm_check_entry(&t, entry(0, 3, Y_P, 0, 1), err, sizeof err) == CANOPY_OK, "parent -Y, child +Y: %s", err);
    CHECK(canopy_fm_check_entry(&t, entry(0, 3, X_M, 0, 1), err, sizeof err) == CANOPY_EINVAL, "parent -Y, child -X");
    CHECK(canopy_fm_check_entry(&t, entry(0, 1, 0, 1, 4), err, sizeof err) == CANOPY_EINVAL && contains(err, "transit"),
          "transit with groups 4: %s", err);
    {
        struct canopy_fm_torus t4 = {4, {2, 2, 2, 2}};
        CHECK(canopy_fm_check_entry(&t4, entry(0, 2, 0xf0, 0, 1), err, sizeof err) == CANOPY_OK, "4D Z,W children: %s", err);
        CHECK(canopy_fm_check_entry(&t4, entry(0, 6, 0x10, 0, 1), err, sizeof err) == CANOPY_EINVAL &&
                  contains(err, "child port 4 (+Z)") && contains(err, "parent port 6 (+W)"),
              "4D: parent +W, child +Z: %s", err);
    }

    /* builds that must be refused */
    uint8_t g[9] = {0};
    CHECK(canopy_fm_build(&t, 9, NULL, e, err, sizeof err) == CANOPY_ERANGE && contains(err, "root 9"), "root 9: %s", err);
    CHECK(canopy_fm_build(&t, -1, NULL, e, err, sizeof err) == CANOPY_ERANGE, "root -1");
    CHECK(canopy_fm_build(&t, 0, g, e, err, sizeof err) == CANOPY_EINVAL && contains(err, "no member"), "no member: %s", err);
    g[5] = 0x02;
    CHECK(canopy_fm_build(&t, 0, g, e, err, sizeof err) == CANOPY_EINVAL && contains(err, "node 5 (2,1)") &&
              contains(err, "bit 0"),
          "groups without bit 0: %s", err);
    const struct canopy_fm_torus bad[] = {{0, {1, 1, 1, 1}}, {5, {2, 2, 2, 2}}, {2, {3, 0, 1, 1}}, {1, {17, 1, 1, 1}}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        CHECK(canopy_fm_build(&bad[i], 0, NULL, e, err, sizeof err) == CANOPY_ERANGE && contains(err, "torus"),
              "bad torus %zu: %s", i, err);
        CHECK(canopy_fm_verify(&bad[i], good, err, sizeof err) == CANOPY_ERANGE, "verify, bad torus %zu", i);
        CHECK(canopy_fm_nodes(&bad[i]) == 0, "nodes of bad torus %zu", i);
    }
    CHECK(canopy_fm_neighbour(&t, 0, 4) == -1 && canopy_fm_neighbour(&t, 9, 0) == -1, "neighbour out of range");
    CHECK(canopy_fm_neighbour(&t, 0, 1) == 2 && canopy_fm_neighbour(&t, 0, 3) == 6 && canopy_fm_neighbour(&t, 8, 0) == 6,
          "neighbour wrap");
}

/* Every single-bit flip of a structural field (valid, root, parent of a non-root,
 * children) turns a correct table into one the verification refuses; a flip of transit
 * on a member is refused too (transit with groups). */
static void test_bit_flips(void)
{
    char err[512];
    unsigned tried = 0;
    for (size_t ti = 0; ti < NTORI; ++ti) {
        struct canopy_fm_torus t = torus(&TORI[ti]);
        unsigned nn = canopy_fm_nodes(&t);
        if (nn > 64 || nn < 2) continue;
        uint32_t *e = malloc(nn * sizeof *e);
        uint8_t *g = malloc(nn);
        for (unsigned variant = 0; variant < 3; ++variant) {
            unsigned root = variant == 0 ? 0 : (unsigned)(splitmix64() % nn);
            for (unsigned n = 0; n < nn; ++n) g[n] = variant < 2 || (splitmix64() & 3) == 0 ? 1 : 0;
            if (canopy_fm_build(&t, (int)root, g, e, err, sizeof err) != CANOPY_OK) {
                g[root] = 1;
                CHECK(canopy_fm_build(&t, (int)root, g, e, err, sizeof err) == CANOPY_OK, "%s: %s", TORI[ti].name, err);
            }
            for (unsigned n = 0; n < nn; ++n) {
                for (unsigned bit = 0; bit < 15; ++bit) {
                    uint32_t keep = e[n];
                    int valid = (int)canopy_tree_get_valid(keep), is_root = (int)canopy_tree_get_root(keep);
                    if (!valid && bit != 0) continue;              /* fields of an invalid entry are ignored */
                    if (bit == 2 && canopy_tree_get_groups(keep) == 0) continue; /* transit off: groups 0 is legal */
                    if (bit >= 3 && bit <= 6 && is_root) continue; /* a root's parent is ignored */
                    e[n] ^= 1u << bit;
                    int rc = canopy_fm_verify(&t, e, err, sizeof err);
                    CHECK(rc == CANOPY_EINVAL, "%s root %u node %u: flipping bit %u (0x%08x -> 0x%08x) not refused",
                          TORI[ti].name, root, n, bit, keep, e[n]);
                    e[n] = keep;
                    ++tried;
                }
            }
            CHECK(canopy_fm_verify(&t, e, err, sizeof err) == CANOPY_OK, "%s: restored table: %s", TORI[ti].name, err);
        }
        free(e);
        free(g);
    }
    CHECK(tried > 1000, "only %u bit flips tried", tried);
}

/* 4. Stripe roots. */
static void check_stripe(const struct canopy_fm_torus *t, const char *tn, const uint8_t *g, int first, unsigned n)
{
    const unsigned nn = canopy_fm_nodes(t);
    int roots[16];
    char err[256] = "";
    int rc = canopy_fm_stripe_roots(t, g, first, n, roots, err, sizeof err);
    CHECK(rc == CANOPY_OK, "%s: %u stripe roots from %d: %d (%s)", tn, n, first, rc, err);
    if (rc) return;
    CHECK(roots[0] == first, "%s: the first stripe root is %d, not %d", tn, roots[0], first);
    for (unsigned k = 0; k < n; ++k) {
        CHECK(roots[k] >= 0 && (unsigned)roots[k] < nn && (!g || g[roots[k]]), "%s: stripe root %u = %d is no member",
              tn, k, roots[k]);
        for (unsigned i = 0; i < k; ++i) CHECK(roots[i] != roots[k], "%s: stripe roots %u and %u are both %d", tn, i, k, roots[k]);
        if (k == 0) continue;
        /* farthest first: no member lies farther from roots[0..k) than roots[k] does */
        unsigned dk = ~0u, best = 0;
        for (unsigned i = 0; i < k; ++i) {
            unsigned d = canopy_fm_distance(t, (unsigned)roots[k], (unsigned)roots[i]);
            if (d < dk) dk = d;
        }
        for (unsigned v = 0; v < nn; ++v) {
            if (g && !g[v]) continue;
            unsigned dv = ~0u;
            for (unsigned i = 0; i < k; ++i) {
                unsigned d = canopy_fm_distance(t, v, (unsigned)roots[i]);
                if (d < dv) dv = d;
            }
            if (dv > best) best = dv;
        }
        CHECK(dk == best, "%s: stripe root %u (%d) is %u hops from the others, a member is %u away", tn, k, roots[k], dk,
              best);
    }
}

static void test_stripe_roots(void)
{
    for (unsigned c = 0; c < NTORI; ++c) {
        const struct canopy_fm_torus t = torus(&TORI[c]);
        const unsigned nn = canopy_fm_nodes(&t);
        if (nn > 512) continue;
        for (unsigned n = 1; n <= 16 && n <= nn; n = n * 2 + 1) check_stripe(&t, TORI[c].name, NULL, 0, n);
        check_stripe(&t, TORI[c].name, NULL, (int)(nn - 1), nn < 16 ? nn : 16);
        uint8_t g[512];
        unsigned members = 0;
        int first = -1;
        for (unsigned v = 0; v < nn; ++v) {
            g[v] = (splitmix64() & 3) ? 1 : 0;
            if (g[v] && first < 0) first = (int)v;
            members += g[v];
        }
        if (first >= 0) check_stripe(&t, TORI[c].name, g, first, members < 16 ? members : 16);
        int roots[16];
        char err[256];
        CHECK(canopy_fm_stripe_roots(&t, NULL, 0, 0, roots, err, sizeof err) == CANOPY_EINVAL, "%s: 0 roots accepted",
              TORI[c].name);
        if (nn < 16)
            CHECK(canopy_fm_stripe_roots(&t, NULL, 0, nn + 1, roots, err, sizeof err) == CANOPY_EINVAL,
                  "%s: %u roots of %u nodes accepted", TORI[c].name, nn + 1, nn);
        if (first > 0) {
            g[0] = 0;
            CHECK(canopy_fm_stripe_roots(&t, g, 0, 1, roots, err, sizeof err) == CANOPY_EINVAL && contains(err, "member"),
                  "%s: a first root outside the members accepted (%s)", TORI[c].name, err);
        }
    }
}

/* ---------------------------------------------------------------- 5. dead links */

static int ref_link_dead(const struct canopy_fm_torus *t, const uint8_t *dead, unsigned n, unsigned p)
{
    unsigned m = (unsigned)canopy_fm_neighbour(t, n, p);
    return ((dead[n] >> p) & 1u) || ((dead[m] >> (p ^ 1u)) & 1u);
}

/* Reference: member n's path from the root, dimension 0 first, each ring's way the shorter
 * one if it crosses no dead link, else the other. Returns its hops, or -1 if some ring
 * blocks both ways. */
static int ref_depth_avoiding(const struct canopy_fm_torus *t, const uint8_t *dead, unsigned root, unsigned n)
{
    unsigned c[CANOPY_MAX_DIMS], at = root;
    canopy_fm_coords(t, n, c);
    int hops = 0;
    for (unsigned d = 0; d < t->ndims; ++d) {
        unsigned a[CANOPY_MAX_DIMS];
        canopy_fm_coords(t, at, a);
        unsigned k = t->size[d], j = (c[d] + k - a[d]) % k;
        if (j == 0) continue;
        int clear[2] = {1, 1};
        unsigned len[2] = {j, k - j};
        for (unsigned s = 0; s < 2; ++s) {
            unsigned x = at;
            for (unsigned h = 0; h < len[s]; ++h) {
                if (ref_link_dead(t, dead, x, 2 * d + s)) clear[s] = 0;
                x = (unsigned)canopy_fm_neighbour(t, x, 2 * d + s);
            }
        }
        unsigned way = (j <= k / 2) ? 0 : 1;
        if (!clear[way]) way ^= 1u;
        if (!clear[way]) return -1;
        hops += (int)len[way];
        for (unsigned h = 0; h < len[way]; ++h) at = (unsigned)canopy_fm_neighbour(t, at, 2 * d + way);
    }
    return hops;
}

static void check_avoiding(const struct canopy_fm_torus *t, const char *tn, unsigned root, const uint8_t *g,
                           const uint8_t *dead, const char *what)
{
    unsigned nn = canopy_fm_nodes(t);
    uint32_t *e = calloc(nn, sizeof *e);
    char err[512] = "";
    int rc = canopy_fm_build_avoiding(t, (int)root, g, dead, e, err, sizeof err);
    int want_ok = 1;
    for (unsigned n = 0; n < nn; ++n)
        if ((!g || g[n]) && ref_depth_avoiding(t, dead, root, n) < 0) want_ok = 0;
    CHECK((rc == CANOPY_OK) == want_ok, "%s root %u %s: build %d (%s), the reference says %s", tn, root, what, rc, err,
          want_ok ? "reachable" : "cut off");
    if (rc != CANOPY_OK) {
        CHECK(contains(err, "cannot reach root"), "%s root %u %s: refusal says: %s", tn, root, what, err);
        free(e);
        return;
    }
    for (unsigned n = 0; n < nn; ++n) {
        uint32_t x = e[n];
        int member = !g || g[n];
        if (member) {
            CHECK(canopy_tree_get_valid(x), "%s root %u %s: member %u not in the tree", tn, root, what, n);
            CHECK(hops_to_root(t, e, n) == ref_depth_avoiding(t, dead, root, n),
                  "%s root %u %s: node %u at depth %d, the reference %d", tn, root, what, n, hops_to_root(t, e, n),
                  ref_depth_avoiding(t, dead, root, n));
        }
        if (canopy_tree_get_valid(x) && !canopy_tree_get_root(x))
            CHECK(!ref_link_dead(t, dead, n, canopy_tree_get_parent(x)), "%s root %u %s: node %u hangs by a dead link",
                  tn, root, what, n);
    }
    free(e);
}

static void test_dead_links(void)
{
    rng_state = 0x0dead11c0dead11cull;
    for (unsigned ti = 0; ti < NTORI; ++ti) {
        struct canopy_fm_torus t = torus(&TORI[ti]);
        unsigned nn = canopy_fm_nodes(&t), ports = 2 * t.ndims;
        uint8_t *dead = calloc(nn, 1), *g = malloc(nn);
        uint32_t *plain = calloc(nn, sizeof *plain), *e = calloc(nn, sizeof *e);
        unsigned root_step = nn > 64 ? nn / 5 + 1 : 1;
        for (unsigned root = 0; root < nn; root += root_step) {
            canopy_fm_build(&t, (int)root, NULL, plain, NULL, 0);
            for (unsigned n = 0; n < nn; ++n) {
                for (unsigned p = 0; p < ports; ++p) {
                    if (t.size[p / 2] == 1 || (nn > 64 && splitmix64() % 16)) continue;
                    unsigned m = (unsigned)canopy_fm_neighbour(&t, n, p);
                    unsigned at = (n + p) % 2 ? m : n, port = (n + p) % 2 ? p ^ 1u : p; /* one end or the other */
                    dead[at] = (uint8_t)(1u << port);
                    char what[64];
                    snprintf(what, sizeof what, "dead link %u port %u", n, p);
                    check_avoiding(&t, TORI[ti].name, root, NULL, dead, what);
                    /* a tree that does not use the link is the plain one */
                    int used = 0;
                    for (unsigned x = 0; x < nn; ++x)
                        if (!canopy_tree_get_root(plain[x]) && ref_link_dead(&t, dead, x, canopy_tree_get_parent(plain[x])))
                            used = 1;
                    if (!used && canopy_fm_build_avoiding(&t, (int)root, NULL, dead, e, NULL, 0) == CANOPY_OK)
                        CHECK(memcmp(e, plain, nn * sizeof *e) == 0, "%s root %u %s: unused, yet the tree changed",
                              TORI[ti].name, root, what);
                    dead[at] = 0;
                }
            }
        }
        /* random dead sets and members */
        for (unsigned trial = 0; trial < (nn > 64 ? 20u : 60u) && ports; ++trial) {
            for (unsigned n = 0; n < nn; ++n) {
                dead[n] = 0;
                for (unsigned p = 0; p < ports; ++p)
                    if (t.size[p / 2] > 1 && splitmix64() % 10 == 0) dead[n] |= (uint8_t)(1u << p);
                g[n] = splitmix64() % 3 ? 1 : 0;
            }
            unsigned root = (unsigned)(splitmix64() % nn);
            g[root] = 1;
            char what[64];
            snprintf(what, sizeof what, "random dead set %u", trial);
            check_avoiding(&t, TORI[ti].name, root, g, dead, what);
        }
        free(dead);
        free(g);
        free(plain);
        free(e);
    }

    /* 4x4: both X links of node 0 down. Root 0 cannot reach its row; the best root can. */
    struct canopy_fm_torus t = {2, {4, 4, 1, 1}};
    uint8_t dead[16] = {0};
    dead[0] = 0x3; /* +X, -X */
    uint32_t e[16];
    char err[512] = "";
    CHECK(canopy_fm_build_avoiding(&t, 0, NULL, dead, e, err, sizeof err) == CANOPY_EINVAL &&
              contains(err, "node 1 (1,0) cannot reach root 0 (0,0)") && contains(err, "X ring"),
          "4x4 root 0 with its X links down: %s", err);
    unsigned depth = 0, routers = 0;
    int best = canopy_fm_best_root_avoiding(&t, NULL, dead, &depth, &routers, err, sizeof err);
    CHECK(best >= 4, "4x4 best root avoiding node 0's X links: %d (%s), expected one off row 0", best, err);
    if (best >= 0) {
        check_avoiding(&t, "4x4", (unsigned)best, NULL, dead, "node 0's X links down");
        CHECK(depth == 4 && routers == 16, "4x4 best root %d: depth %u, routers %u (expected 4, 16)", best, depth, routers);
    }
    /* bad masks */
    dead[0] = 0x10; /* port 4 on a 2-dimensional torus */
    CHECK(canopy_fm_build_avoiding(&t, 0, NULL, dead, e, err, sizeof err) == CANOPY_EINVAL && contains(err, "port beyond"),
          "a mask beyond the ports: %s", err);
    CHECK(canopy_fm_best_root_avoiding(&t, NULL, dead, NULL, NULL, err, sizeof err) == CANOPY_EINVAL,
          "best root with a bad mask: %s", err);
    /* every link down: no tree reaches two members */
    memset(dead, 0xF, sizeof dead);
    CHECK(canopy_fm_best_root_avoiding(&t, NULL, dead, NULL, NULL, err, sizeof err) == CANOPY_EINVAL &&
              contains(err, "no member roots"), "every link down: %s", err);
}

int main(int argc, char **argv)
{
    rng_state = 0x002c0ffee5eed002ull;
    if (argc > 1 && strcmp(argv[1], "--print") == 0) { /* the docs' picture */
        struct canopy_fm_torus t = {2, {3, 3, 1, 1}};
        uint32_t e[9];
        char err[256];
        if (canopy_fm_build(&t, 4, NULL, e, err, sizeof err) != CANOPY_OK) return 1;
        canopy_fm_print(&t, e, 0, stdout);
        return 0;
    }
    test_full_trees();
    test_subgroups();
    test_refusals();
    test_bit_flips();
    test_stripe_roots();
    test_dead_links();
    printf("fm_tree_test: %d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
