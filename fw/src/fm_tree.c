/* fm_tree.c: the fabric manager's pure half. Builds seed 002's dimension-ordered collective
 * trees (pruned to member nodes, with transit nodes), checks one routing table entry with
 * the router's write-time rule, verifies a whole table against the global conditions, and
 * prints tables. No device access, no global state: every node computes the same result.
 */
#include "canopy_fm.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "fm_internal.h"

#define FM_MAX_SIZE 16u

void canopy_fm_say(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || errlen == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

static unsigned dim_size(const struct canopy_fm_torus *t, unsigned d)
{
    return d < t->ndims ? t->size[d] : 1u;
}

int canopy_fm_torus_check(const struct canopy_fm_torus *t, char *err, size_t errlen)
{
    if (!t) {
        canopy_fm_say(err, errlen, "no torus given");
        return CANOPY_EINVAL;
    }
    if (t->ndims < 1 || t->ndims > CANOPY_MAX_DIMS) {
        canopy_fm_say(err, errlen, "torus: %u dimensions, expected 1..%u", t->ndims, CANOPY_MAX_DIMS);
        return CANOPY_ERANGE;
    }
    for (unsigned d = 0; d < t->ndims; ++d) {
        if (t->size[d] < 1 || t->size[d] > FM_MAX_SIZE) {
            canopy_fm_say(err, errlen, "torus: size %u in dimension %u, expected 1..%u", t->size[d], d, FM_MAX_SIZE);
            return CANOPY_ERANGE;
        }
    }
    return CANOPY_OK;
}

unsigned canopy_fm_nodes(const struct canopy_fm_torus *t)
{
    if (canopy_fm_torus_check(t, NULL, 0) != CANOPY_OK) return 0;
    unsigned n = 1;
    for (unsigned d = 0; d < t->ndims; ++d) n *= t->size[d];
    return n;
}

void canopy_fm_coords(const struct canopy_fm_torus *t, unsigned node, unsigned coords[CANOPY_MAX_DIMS])
{
    for (unsigned d = 0; d < CANOPY_MAX_DIMS; ++d) {
        unsigned k = dim_size(t, d);
        if (k == 0) k = 1; /* a malformed torus: no division by zero */
        coords[d] = node % k;
        node /= k;
    }
}

unsigned canopy_fm_distance(const struct canopy_fm_torus *t, unsigned a, unsigned b)
{
    unsigned ca[CANOPY_MAX_DIMS], cb[CANOPY_MAX_DIMS], hops = 0;
    canopy_fm_coords(t, a, ca);
    canopy_fm_coords(t, b, cb);
    for (unsigned d = 0; d < CANOPY_MAX_DIMS; ++d) {
        unsigned k = dim_size(t, d), dx = k ? (ca[d] + k - cb[d]) % k : 0;
        hops += dx < k - dx ? dx : k - dx;
    }
    return hops;
}

static unsigned node_of(const struct canopy_fm_torus *t, const unsigned coords[CANOPY_MAX_DIMS])
{
    unsigned n = 0;
    for (unsigned d = t->ndims; d-- > 0;) n = n * t->size[d] + coords[d];
    return n;
}

int canopy_fm_neighbour(const struct canopy_fm_torus *t, unsigned node, unsigned port)
{
    unsigned nn = canopy_fm_nodes(t);
    if (nn == 0 || node >= nn || port >= 2 * t->ndims) return -1;
    unsigned c[CANOPY_MAX_DIMS], d = port / 2, k = t->size[d];
    canopy_fm_coords(t, node, c);
    c[d] = (port & 1u) ? (c[d] + k - 1) % k : (c[d] + 1) % k;
    return (int)node_of(t, c);
}

const char *canopy_fm_port_name(const struct canopy_fm_torus *t, unsigned port)
{
    static const char *const names[] = {"+X", "-X", "+Y", "-Y", "+Z", "-Z", "+W", "-W"};
    unsigned nd = t ? t->ndims : CANOPY_MAX_DIMS;
    if (port < 2 * nd && port < 2 * CANOPY_MAX_DIMS) return names[port];
    if (port == 2 * nd) return "host";
    return "?";
}

/* "(1,2)" */
static const char *coord_str(const struct canopy_fm_torus *t, unsigned node, char buf[32])
{
    unsigned c[CANOPY_MAX_DIMS];
    canopy_fm_coords(t, node, c);
    size_t o = 0;
    buf[o++] = '(';
    for (unsigned d = 0; d < t->ndims; ++d) {
        if (d) buf[o++] = ',';
        if (c[d] >= 10) buf[o++] = (char)('0' + c[d] / 10);
        buf[o++] = (char)('0' + c[d] % 10);
    }
    buf[o++] = ')';
    buf[o] = '\0';
    return buf;
}

void canopy_fm_node_str(const struct canopy_fm_torus *t, unsigned node, char *buf, size_t len)
{
    char cs[32];
    canopy_fm_say(buf, len, "node %u %s", node, coord_str(t, node, cs));
}

/* ------------------------------------------------------------------ one entry */

int canopy_fm_check_entry(const struct canopy_fm_torus *t, uint32_t e, char *err, size_t errlen)
{
    int rc = canopy_fm_torus_check(t, err, errlen);
    if (rc) return rc;
    if (!canopy_tree_get_valid(e)) return CANOPY_OK;
    unsigned nports = 2 * t->ndims;
    unsigned children = canopy_tree_get_children(e);
    unsigned groups = canopy_tree_get_groups(e);
    if (canopy_tree_get_transit(e) && groups != 0) {
        canopy_fm_say(err, errlen, "transit with groups 0x%02x (a transit node's groups must be 0)", groups);
        return CANOPY_EINVAL;
    }
    for (unsigned p = nports; p < CANOPY_TREE_CHILDREN_WIDTH; ++p) {
        if (children & (1u << p)) {
            canopy_fm_say(err, errlen, "child port %u is not a link port of a %u-dimensional torus (ports 0..%u)",
                p, t->ndims, nports - 1);
            return CANOPY_EINVAL;
        }
    }
    if (canopy_tree_get_root(e)) return CANOPY_OK; /* the parent field is ignored */
    unsigned parent = canopy_tree_get_parent(e);
    if (parent >= nports) {
        canopy_fm_say(err, errlen, "parent port %u is not a link port of a %u-dimensional torus (ports 0..%u)",
            parent, t->ndims, nports - 1);
        return CANOPY_EINVAL;
    }
    for (unsigned p = 0; p < nports; ++p) {
        if (!(children & (1u << p))) continue;
        if (p == parent) {
            canopy_fm_say(err, errlen, "child port %u (%s) is the parent port", p, canopy_fm_port_name(t, p));
            return CANOPY_EINVAL;
        }
        if (p != (parent ^ 1u) && p / 2 <= parent / 2) {
            canopy_fm_say(err, errlen,
                "child port %u (%s) is in dimension %u, neither after the parent port %u (%s)'s "
                "dimension %u nor the port opposite it",
                p, canopy_fm_port_name(t, p), p / 2, parent, canopy_fm_port_name(t, parent), parent / 2);
            return CANOPY_EINVAL;
        }
    }
    return CANOPY_OK;
}

/* ------------------------------------------------------------------ whole table */

int canopy_fm_verify(const struct canopy_fm_torus *t, const uint32_t *entries, char *err, size_t errlen)
{
    int rc = canopy_fm_torus_check(t, err, errlen);
    if (rc) return rc;
    if (!entries) {
        canopy_fm_say(err, errlen, "no table given");
        return CANOPY_EINVAL;
    }
    unsigned nn = canopy_fm_nodes(t), nports = 2 * t->ndims;
    char cs[32], cs2[32], cs3[32], why[256];
    int root = -1;

    /* Each entry alone: the write-time rule, and no port in an unused dimension. */
    for (unsigned n = 0; n < nn; ++n) {
        uint32_t e = entries[n];
        if (!canopy_tree_get_valid(e)) continue;
        if (canopy_fm_check_entry(t, e, why, sizeof why) != CANOPY_OK) {
            canopy_fm_say(err, errlen, "node %u %s: %s", n, coord_str(t, n, cs), why);
            return CANOPY_EINVAL;
        }
        unsigned used = canopy_tree_get_children(e);
        for (unsigned p = 0; p < nports; ++p) {
            int is_parent = !canopy_tree_get_root(e) && canopy_tree_get_parent(e) == p;
            if ((is_parent || (used & (1u << p))) && t->size[p / 2] == 1) {
                canopy_fm_say(err, errlen, "node %u %s: %s port %u (%s) is in dimension %u, whose size is 1 (a link to itself)",
                    n, coord_str(t, n, cs), is_parent ? "parent" : "child", p, canopy_fm_port_name(t, p), p / 2);
                return CANOPY_EINVAL;
            }
        }
        if (canopy_tree_get_root(e)) {
            if (root >= 0) {
                canopy_fm_say(err, errlen, "node %u %s: root flag set, but node %d %s is a root too (exactly one root allowed)",
                    n, coord_str(t, n, cs), root, coord_str(t, (unsigned)root, cs2));
                return CANOPY_EINVAL;
            }
            root = (int)n;
        }
    }
    if (root < 0) {
        canopy_fm_say(err, errlen, "no valid entry has the root flag (exactly one root needed)");
        return CANOPY_EINVAL;
    }

    /* Links: children and parents agree pairwise. */
    for (unsigned n = 0; n < nn; ++n) {
        uint32_t e = entries[n];
        if (!canopy_tree_get_valid(e)) continue;
        unsigned children = canopy_tree_get_children(e);
        for (unsigned p = 0; p < nports; ++p) {
            if (!(children & (1u << p))) continue;
            unsigned m = (unsigned)canopy_fm_neighbour(t, n, p);
            uint32_t f = entries[m];
            const char *pre = "child port";
            if (!canopy_tree_get_valid(f)) {
                canopy_fm_say(err, errlen, "node %u %s: %s %u (%s) leads to node %u %s whose entry is invalid", n,
                    coord_str(t, n, cs), pre, p, canopy_fm_port_name(t, p), m, coord_str(t, m, cs2));
                return CANOPY_EINVAL;
            }
            if (canopy_tree_get_root(f)) {
                canopy_fm_say(err, errlen, "node %u %s: %s %u (%s) leads to node %u %s which is the root", n,
                    coord_str(t, n, cs), pre, p, canopy_fm_port_name(t, p), m, coord_str(t, m, cs2));
                return CANOPY_EINVAL;
            }
            unsigned q = canopy_tree_get_parent(f);
            if (q != (p ^ 1u)) {
                canopy_fm_say(err, errlen,
                    "node %u %s: %s %u (%s) leads to node %u %s whose parent is port %u (%s), expected port %u (%s)",
                    n, coord_str(t, n, cs), pre, p, canopy_fm_port_name(t, p), m, coord_str(t, m, cs2), q,
                    canopy_fm_port_name(t, q), p ^ 1u, canopy_fm_port_name(t, p ^ 1u));
                return CANOPY_EINVAL;
            }
        }
        if (canopy_tree_get_root(e)) continue;
        unsigned q = canopy_tree_get_parent(e);
        unsigned m = (unsigned)canopy_fm_neighbour(t, n, q);
        uint32_t f = entries[m];
        if (!canopy_tree_get_valid(f)) {
            canopy_fm_say(err, errlen, "node %u %s: parent port %u (%s) leads to node %u %s whose entry is invalid", n,
                coord_str(t, n, cs), q, canopy_fm_port_name(t, q), m, coord_str(t, m, cs2));
            return CANOPY_EINVAL;
        }
        if (!(canopy_tree_get_children(f) & (1u << (q ^ 1u)))) {
            canopy_fm_say(err, errlen,
                "node %u %s: parent port %u (%s) leads to node %u %s whose children do not include port %u (%s)",
                n, coord_str(t, n, cs), q, canopy_fm_port_name(t, q), m, coord_str(t, m, cs2), q ^ 1u,
                canopy_fm_port_name(t, q ^ 1u));
            return CANOPY_EINVAL;
        }
    }

    /* Following parents reaches the root: 0 = not seen, 1 = reaches the root, n + 2 = on
     * the path walked from node n. */
    uint32_t *mark = calloc(nn, sizeof *mark);
    if (!mark) {
        canopy_fm_say(err, errlen, "out of memory");
        return CANOPY_ENOMEM;
    }
    mark[root] = 1;
    rc = CANOPY_OK;
    for (unsigned n = 0; n < nn && rc == CANOPY_OK; ++n) {
        if (!canopy_tree_get_valid(entries[n]) || mark[n]) continue;
        unsigned m = n;
        while (mark[m] == 0) {
            mark[m] = n + 2;
            m = (unsigned)canopy_fm_neighbour(t, m, canopy_tree_get_parent(entries[m]));
        }
        if (mark[m] != 1) {
            canopy_fm_say(err, errlen,
                "node %u %s: following parent ports never reaches the root node %d %s (cycle through node %u %s, "
                "parent port %u (%s))",
                n, coord_str(t, n, cs), root, coord_str(t, (unsigned)root, cs2), m, coord_str(t, m, cs3),
                canopy_tree_get_parent(entries[m]), canopy_fm_port_name(t, canopy_tree_get_parent(entries[m])));
            rc = CANOPY_EINVAL;
            break;
        }
        for (m = n; mark[m] != 1; m = (unsigned)canopy_fm_neighbour(t, m, canopy_tree_get_parent(entries[m])))
            mark[m] = 1;
    }
    free(mark);
    return rc;
}

/* ------------------------------------------------------------------ building */

/* The port toward the root on the dimension-ordered tree: one hop toward root in the
 * highest dimension where node differs from it. On a ring of size k the root reaches
 * offsets 1..floor(k/2) going + (so their parent is -), the rest going - (parent +). */
static unsigned parent_port(const struct canopy_fm_torus *t, unsigned node, unsigned root)
{
    unsigned c[CANOPY_MAX_DIMS], r[CANOPY_MAX_DIMS];
    canopy_fm_coords(t, node, c);
    canopy_fm_coords(t, root, r);
    for (unsigned d = t->ndims; d-- > 0;) {
        if (c[d] == r[d]) continue;
        unsigned k = t->size[d], delta = (c[d] + k - r[d]) % k;
        return delta <= k / 2 ? 2 * d + 1 : 2 * d;
    }
    return 0; /* node == root: unused */
}

/* Every nonzero mask has bit 0, and there is at least one member. */
static int check_groups(const struct canopy_fm_torus *t, unsigned nn, const uint8_t *groups, char *err, size_t errlen)
{
    char cs[32];
    unsigned members = 0;
    for (unsigned n = 0; n < nn; ++n) {
        unsigned g = groups ? groups[n] : 1u;
        if (g != 0 && !(g & 1u)) {
            canopy_fm_say(err, errlen, "node %u %s: groups 0x%02x without bit 0 (group 0 is the whole member set)", n,
                coord_str(t, n, cs), g);
            return CANOPY_EINVAL;
        }
        members += g != 0;
    }
    if (members == 0) {
        canopy_fm_say(err, errlen, "no member: every node's groups mask is 0");
        return CANOPY_EINVAL;
    }
    return CANOPY_OK;
}

/* The link that leaves `node` through `port` is down: marked at either of its ends. In a
 * ring of size 2 a node's + and - ports are two links to the same neighbour, each paired
 * with the neighbour's opposite port. */
static int link_dead(const struct canopy_fm_torus *t, const uint8_t *dead, unsigned node, unsigned port)
{
    if (!dead) return 0;
    unsigned far = (unsigned)canopy_fm_neighbour(t, node, port);
    return (dead[node] >> port & 1u) || (dead[far] >> (port ^ 1u) & 1u);
}

/* From `from`, `steps` hops out of `port`, crossing no dead link. */
static int way_clear(const struct canopy_fm_torus *t, const uint8_t *dead, unsigned from, unsigned port, unsigned steps)
{
    for (unsigned i = 0; i < steps; ++i) {
        if (link_dead(t, dead, from, port)) return 0;
        from = (unsigned)canopy_fm_neighbour(t, from, port);
    }
    return 1;
}

/* parent_port with dead links: on the ring of the highest dimension d where node differs
 * from the root, the way from the ring's entry (node with the root's coordinate d) that
 * crosses no dead link, the shorter one if both are clear (then it is parent_port). Every
 * node of the ring that a way reaches takes that way too (the way to a nearer node is part
 * of it and the other way to it contains the blocked one), so the parents form a tree.
 * -1 if both ways are blocked, with *dim set to d. */
static int parent_port_avoiding(const struct canopy_fm_torus *t, unsigned node, unsigned root, const uint8_t *dead,
                                unsigned *dim)
{
    if (!dead) return (int)parent_port(t, node, root);
    unsigned c[CANOPY_MAX_DIMS], r[CANOPY_MAX_DIMS];
    canopy_fm_coords(t, node, c);
    canopy_fm_coords(t, root, r);
    for (unsigned d = t->ndims; d-- > 0;) {
        if (c[d] == r[d]) continue;
        unsigned k = t->size[d], j = (c[d] + k - r[d]) % k;
        unsigned e[CANOPY_MAX_DIMS];
        memcpy(e, c, sizeof e);
        e[d] = r[d];
        unsigned entry = node_of(t, e);
        int plus = way_clear(t, dead, entry, 2 * d, j), minus = way_clear(t, dead, entry, 2 * d + 1, k - j);
        *dim = d;
        if (plus && (j <= k / 2 || !minus)) return (int)(2 * d + 1); /* reached going +: parent is - */
        if (minus) return (int)(2 * d);
        return -1;
    }
    return 0; /* node == root: unused */
}

static int check_dead(const struct canopy_fm_torus *t, unsigned nn, const uint8_t *dead, char *err, size_t errlen)
{
    char cs[32];
    for (unsigned n = 0; dead && n < nn; ++n) {
        if (dead[n] >> (2 * t->ndims)) {
            canopy_fm_say(err, errlen, "node %u %s: dead-link mask 0x%02x names a port beyond the %u of a %u-dimensional torus",
                n, coord_str(t, n, cs), dead[n], 2 * t->ndims, t->ndims);
            return CANOPY_EINVAL;
        }
    }
    return CANOPY_OK;
}

static int build_tree(const struct canopy_fm_torus *t, int root, const uint8_t *groups, const uint8_t *dead,
                      uint32_t *entries, char *err, size_t errlen)
{
    int rc = canopy_fm_torus_check(t, err, errlen);
    if (rc) return rc;
    if (!entries) {
        canopy_fm_say(err, errlen, "no output table given");
        return CANOPY_EINVAL;
    }
    unsigned nn = canopy_fm_nodes(t);
    if (root < 0 || (unsigned)root >= nn) {
        canopy_fm_say(err, errlen, "root %d is not a node of the torus (0..%u)", root, nn - 1);
        return CANOPY_ERANGE;
    }
    rc = check_groups(t, nn, groups, err, errlen);
    if (!rc) rc = check_dead(t, nn, dead, err, errlen);
    if (rc) return rc;

    /* Keep every node on the path from a member up to the root. */
    memset(entries, 0, nn * sizeof *entries);
    unsigned r = (unsigned)root;
    entries[r] = canopy_tree_set_root(canopy_tree_set_valid(0, 1), 1);
    for (unsigned n = 0; n < nn; ++n) {
        if (groups && groups[n] == 0) continue;
        unsigned m = n;
        while (!canopy_tree_get_valid(entries[m])) {
            unsigned d = 0;
            int p = parent_port_avoiding(t, m, r, dead, &d);
            if (p < 0) {
                char cn[32], cm[32], cr[32];
                canopy_fm_say(err, errlen,
                    "node %u %s cannot reach root %u %s on a dimension-ordered tree: both ways round the %c ring "
                    "of node %u %s cross a dead link (another root may reach it)",
                    n, coord_str(t, n, cn), r, coord_str(t, r, cr), canopy_fm_port_name(t, 2 * d)[1], m,
                    coord_str(t, m, cm));
                memset(entries, 0, nn * sizeof *entries);
                return CANOPY_EINVAL;
            }
            unsigned up = (unsigned)canopy_fm_neighbour(t, m, (unsigned)p);
            /* keep the child bits an earlier walk may have set on this (not yet valid) node */
            entries[m] = canopy_tree_set_parent(canopy_tree_set_valid(entries[m], 1), (unsigned)p);
            entries[up] = canopy_tree_set_children(entries[up], canopy_tree_get_children(entries[up]) | 1u << (p ^ 1));
            m = up;
        }
    }
    /* Every walk stops at a node already in the tree, so each kept link is added once. */
    for (unsigned n = 0; n < nn; ++n) {
        uint32_t e = entries[n];
        if (!canopy_tree_get_valid(e)) continue;
        unsigned g = groups ? groups[n] : 1u;
        e = canopy_tree_set_transit(e, g == 0);
        e = canopy_tree_set_groups(e, g);
        entries[n] = e;
    }
    return CANOPY_OK;
}

int canopy_fm_build_unchecked(const struct canopy_fm_torus *t, int root, const uint8_t *groups, uint32_t *entries,
                              char *err, size_t errlen)
{
    return build_tree(t, root, groups, NULL, entries, err, errlen);
}

static int verified(const struct canopy_fm_torus *t, const uint32_t *entries, char *err, size_t errlen)
{
    char why[512];
    int rc = canopy_fm_verify(t, entries, why, sizeof why);
    if (rc) canopy_fm_say(err, errlen, "internal error: the built table fails verification: %s", why);
    return rc;
}

int canopy_fm_build(const struct canopy_fm_torus *t, int root, const uint8_t *groups, uint32_t *entries,
                    char *err, size_t errlen)
{
    int rc = build_tree(t, root, groups, NULL, entries, err, errlen);
    return rc ? rc : verified(t, entries, err, errlen);
}

int canopy_fm_build_avoiding(const struct canopy_fm_torus *t, int root, const uint8_t *groups, const uint8_t *dead,
                             uint32_t *entries, char *err, size_t errlen)
{
    int rc = build_tree(t, root, groups, dead, entries, err, errlen);
    if (rc) return rc;
    rc = verified(t, entries, err, errlen);
    if (rc) return rc;
    unsigned nn = canopy_fm_nodes(t);
    for (unsigned n = 0; dead && n < nn; ++n) {
        uint32_t e = entries[n];
        if (canopy_tree_get_valid(e) && !canopy_tree_get_root(e) && link_dead(t, dead, n, canopy_tree_get_parent(e))) {
            char cs[32];
            canopy_fm_say(err, errlen, "internal error: node %u %s hangs from the tree by a dead link", n,
                coord_str(t, n, cs));
            return CANOPY_EINVAL;
        }
    }
    return CANOPY_OK;
}

/* Hops from n up to the root of a verified table. */
static unsigned tree_depth_of(const struct canopy_fm_torus *t, const uint32_t *entries, unsigned n)
{
    unsigned h = 0;
    while (!canopy_tree_get_root(entries[n])) {
        n = (unsigned)canopy_fm_neighbour(t, n, canopy_tree_get_parent(entries[n]));
        ++h;
    }
    return h;
}

int canopy_fm_best_root_avoiding(const struct canopy_fm_torus *t, const uint8_t *groups, const uint8_t *dead,
                                 unsigned *depth_out, unsigned *routers_out, char *err, size_t errlen)
{
    int rc = canopy_fm_torus_check(t, err, errlen);
    if (rc) return rc;
    unsigned nn = canopy_fm_nodes(t);
    rc = check_groups(t, nn, groups, err, errlen);
    if (!rc) rc = check_dead(t, nn, dead, err, errlen);
    if (rc) return rc;
    uint32_t *entries = malloc(nn * sizeof *entries);
    if (!entries) return CANOPY_ENOMEM;
    int best = -1;
    unsigned best_depth = 0, best_routers = 0;
    for (unsigned r = 0; r < nn; ++r) {
        if (groups && groups[r] == 0) continue;
        if (build_tree(t, (int)r, groups, dead, entries, NULL, 0) != CANOPY_OK) continue;
        unsigned depth = 0, routers = 0;
        for (unsigned n = 0; n < nn; ++n) {
            if (!canopy_tree_get_valid(entries[n])) continue;
            ++routers;
            unsigned h = tree_depth_of(t, entries, n);
            if (h > depth) depth = h;
        }
        if (best < 0 || depth < best_depth || (depth == best_depth && routers < best_routers)) {
            best = (int)r;
            best_depth = depth;
            best_routers = routers;
        }
    }
    free(entries);
    if (best < 0) {
        canopy_fm_say(err, errlen, "no member roots a dimension-ordered tree that reaches every member without a dead link");
        return CANOPY_EINVAL;
    }
    if (depth_out) *depth_out = best_depth;
    if (routers_out) *routers_out = best_routers;
    return best;
}

/* ------------------------------------------------------------------ choosing a root */

/* Ring of size k, positions relative to the root's coordinate c: the dimension-ordered
 * tree reaches offset 1..floor(k/2) going + and the rest going -, each along the shorter
 * way (parent_port). The nodes other than c that the paths from the positions in `mask`
 * (bit y = position y) cover: offsets 1..a, with a the farthest position reached going +,
 * and b..k-1, with b the nearest position reached going -. */
static unsigned ring_cover(unsigned mask, unsigned c, unsigned k)
{
    unsigned a = 0, b = k;
    for (unsigned y = 0; y < k; ++y) {
        if (!(mask & (1u << y))) continue;
        unsigned delta = (y + k - c) % k;
        if (delta == 0) continue;
        if (delta <= k / 2) {
            if (delta > a) a = delta;
        } else if (delta < b) {
            b = delta;
        }
    }
    return a + (k - b);
}

/* Depth and router count of the pruned tree for every root at once, in O(nodes x sum of
 * the sizes) time and O(nodes) memory (building the tree from every root would take
 * O(nodes^2)).
 *
 * Depth. The tree follows shortest paths, so a node's depth is its torus distance from the
 * root, and the deepest node is a member (a transit node lies on a member's path, nearer
 * the root). depth(r) = max over members m of sum_d ring_d(r_d, m_d): computed dimension by
 * dimension, f_0(x) = 0 on members (-1 elsewhere), f_{d+1}(x) = max over x_d' of
 * f_d(x with x_d = x_d') + ring_d(x_d, x_d'); f_ndims(r) = depth(r).
 *
 * Routers. A member m climbs in the highest dimension first (parent_port): along
 * dimension ndims-1 to the root's coordinate, then ndims-2, and so on. So a node v other
 * than the root, whose highest dimension differing from the root's is J, is in the tree iff
 * some member has v's coordinates in dimensions 0..J-1 (the same "prefix") and a
 * coordinate in dimension J whose ring path to r_J passes v_J. Per prefix, that is the ring
 * cover of the set of the members' coordinates J: routers(r) = 1 + sum over J of
 * A_J(r_J), A_J(c) = sum over prefixes p of ring_cover(set_p, c, size_J), which depends on
 * one coordinate of r only. */
int canopy_fm_root_costs(const struct canopy_fm_torus *t, const uint8_t *groups, uint8_t *depth, uint32_t *routers,
                         char *err, size_t errlen)
{
    int rc = canopy_fm_torus_check(t, err, errlen);
    if (rc) return rc;
    unsigned nn = canopy_fm_nodes(t), nd = t->ndims;
    rc = check_groups(t, nn, groups, err, errlen);
    if (rc) return rc;
    unsigned stride[CANOPY_MAX_DIMS + 1];
    stride[0] = 1;
    for (unsigned d = 0; d < nd; ++d) stride[d + 1] = stride[d] * t->size[d];

    if (depth) {
        int8_t *f = malloc(nn), *g = malloc(nn);
        if (!f || !g) {
            free(f);
            free(g);
            canopy_fm_say(err, errlen, "out of memory");
            return CANOPY_ENOMEM;
        }
        for (unsigned n = 0; n < nn; ++n) f[n] = (groups && groups[n] == 0) ? -1 : 0;
        for (unsigned d = 0; d < nd; ++d) {
            unsigned k = t->size[d], s = stride[d];
            if (k == 1) continue;
            uint8_t ring[FM_MAX_SIZE][FM_MAX_SIZE]; /* ring[c][y]: hops between c and y */
            for (unsigned c = 0; c < k; ++c) {
                for (unsigned y = 0; y < k; ++y) {
                    unsigned delta = (c + k - y) % k;
                    ring[c][y] = (uint8_t)(delta < k - delta ? delta : k - delta);
                }
            }
            /* every line along d: base = index with x_d = 0 */
            for (unsigned hi = 0; hi < nn; hi += s * k) {
                for (unsigned lo = 0; lo < s; ++lo) {
                    unsigned base = hi + lo;
                    for (unsigned c = 0; c < k; ++c) {
                        int best = -1;
                        for (unsigned y = 0; y < k; ++y) {
                            int v = f[base + y * s];
                            if (v < 0) continue;
                            v += ring[c][y];
                            if (v > best) best = v;
                        }
                        g[base + c * s] = (int8_t)best; /* at most 4 x 8 = 32 */
                    }
                }
            }
            int8_t *tmp = f;
            f = g;
            g = tmp;
        }
        for (unsigned n = 0; n < nn; ++n) depth[n] = (uint8_t)f[n]; /* >= 0: there is a member */
        free(f);
        free(g);
    }

    if (routers) {
        uint16_t *set = malloc((nn > 1 ? nn : 1) * sizeof *set);
        if (!set) {
            canopy_fm_say(err, errlen, "out of memory");
            return CANOPY_ENOMEM;
        }
        uint32_t add[CANOPY_MAX_DIMS][FM_MAX_SIZE];
        memset(add, 0, sizeof add);
        for (unsigned j = 0; j < nd; ++j) {
            unsigned k = t->size[j], prefixes = stride[j];
            if (k == 1) continue;
            memset(set, 0, prefixes * sizeof *set);
            for (unsigned n = 0; n < nn; ++n)
                if (!groups || groups[n]) set[n % prefixes] |= (uint16_t)(1u << (n / prefixes % k));
            for (unsigned p = 0; p < prefixes; ++p) {
                if (!set[p]) continue;
                for (unsigned c = 0; c < k; ++c) add[j][c] += ring_cover(set[p], c, k);
            }
        }
        free(set);
        for (unsigned n = 0; n < nn; ++n) {
            uint32_t r = 1;
            for (unsigned j = 0; j < nd; ++j) r += add[j][n / stride[j] % t->size[j]];
            routers[n] = r;
        }
    }
    return CANOPY_OK;
}

int canopy_fm_best_root(const struct canopy_fm_torus *t, const uint8_t *groups, unsigned *depth_out,
                        unsigned *routers_out, char *err, size_t errlen)
{
    int rc = canopy_fm_torus_check(t, err, errlen);
    if (rc) return rc;
    unsigned nn = canopy_fm_nodes(t);
    uint8_t *depth = malloc(nn);
    uint32_t *routers = malloc(nn * sizeof *routers);
    if (!depth || !routers) {
        free(depth);
        free(routers);
        canopy_fm_say(err, errlen, "out of memory");
        return CANOPY_ENOMEM;
    }
    rc = canopy_fm_root_costs(t, groups, depth, routers, err, errlen);
    int best = -1;
    for (unsigned n = 0; rc == CANOPY_OK && n < nn; ++n) {
        if (groups && groups[n] == 0) continue;
        if (best < 0 || depth[n] < depth[best] || (depth[n] == depth[best] && routers[n] < routers[best]))
            best = (int)n;
    }
    if (rc == CANOPY_OK && best >= 0) { /* check_groups saw a member, so best >= 0 */
        if (depth_out) *depth_out = depth[best];
        if (routers_out) *routers_out = routers[best];
        rc = best;
    } else if (rc == CANOPY_OK) {
        rc = CANOPY_EINVAL;
    }
    free(depth);
    free(routers);
    return rc;
}

int canopy_fm_stripe_roots(const struct canopy_fm_torus *t, const uint8_t *groups, int first, unsigned n,
                           int *roots, char *err, size_t errlen)
{
    int rc = canopy_fm_torus_check(t, err, errlen);
    if (rc) return rc;
    const unsigned nn = canopy_fm_nodes(t);
    if (!roots || first < 0 || (unsigned)first >= nn || (groups && groups[first] == 0)) {
        canopy_fm_say(err, errlen, "stripe roots: the first root %d is not a member", first);
        return CANOPY_EINVAL;
    }
    unsigned members = 0;
    for (unsigned v = 0; v < nn; ++v) members += !groups || groups[v] != 0;
    if (n == 0 || n > members) {
        canopy_fm_say(err, errlen, "stripe roots: %u roots, but %u members", n, members);
        return CANOPY_EINVAL;
    }
    unsigned *nearest = malloc(nn * sizeof *nearest);  /* distance to the nearest root so far */
    if (!nearest) {
        canopy_fm_say(err, errlen, "out of memory");
        return CANOPY_ENOMEM;
    }
    for (unsigned v = 0; v < nn; ++v) nearest[v] = UINT32_MAX;
    roots[0] = first;
    for (unsigned k = 1; k <= n; ++k) {
        const unsigned r = (unsigned)roots[k - 1];
        int far = -1;
        for (unsigned v = 0; v < nn; ++v) {
            if (groups && groups[v] == 0) continue;
            const unsigned d = canopy_fm_distance(t, v, r);
            if (d < nearest[v]) nearest[v] = d;
            if (k < n && nearest[v] > 0 && (far < 0 || nearest[v] > nearest[far])) far = (int)v;
        }
        if (k < n) roots[k] = far;  /* a member at distance > 0 exists: fewer roots than members */
    }
    free(nearest);
    return CANOPY_OK;
}

/* ------------------------------------------------------------------ printing */

static void entry_str(const struct canopy_fm_torus *t, uint32_t e, char *buf, size_t len, int pad)
{
    if (!buf || len == 0) return;
    if (!canopy_tree_get_valid(e)) {
        canopy_fm_say(buf, len, "-");
        return;
    }
    char ch[64] = "";
    size_t o = 0;
    unsigned c = canopy_tree_get_children(e);
    for (unsigned p = 0; p < CANOPY_TREE_CHILDREN_WIDTH; ++p) {
        if (!(c & (1u << p))) continue;
        const char *nm = canopy_fm_port_name(t, p);
        if (o) ch[o++] = ',';
        if (nm[0] == '?') o += (size_t)snprintf(ch + o, sizeof ch - o, "%u", p);
        else o += (size_t)snprintf(ch + o, sizeof ch - o, "%s", nm);
    }
    char par[24];
    int w = pad ? 11 : 0;
    if (canopy_tree_get_root(e)) canopy_fm_say(par, sizeof par, pad ? "root     " : "root");
    else canopy_fm_say(par, sizeof par, "parent %s", canopy_fm_port_name(t, canopy_tree_get_parent(e)));
    if (canopy_tree_get_transit(e))
        canopy_fm_say(buf, len, "%s children %-*s transit", par, w, o ? ch : "-");
    else
        canopy_fm_say(buf, len, "%s children %-*s groups 0x%02x", par, w, o ? ch : "-", canopy_tree_get_groups(e));
}

void canopy_fm_entry_str(const struct canopy_fm_torus *t, uint32_t e, char *buf, size_t len)
{
    entry_str(t, e, buf, len, 0);
}

void canopy_fm_print(const struct canopy_fm_torus *t, const uint32_t *entries, int skip_invalid, FILE *out)
{
    unsigned nn = canopy_fm_nodes(t);
    if (!entries || !out) return;
    char cs[32], es[128];
    for (unsigned n = 0; n < nn; ++n) {
        if (skip_invalid && !canopy_tree_get_valid(entries[n])) continue;
        entry_str(t, entries[n], es, sizeof es, 1);
        fprintf(out, "node %3u %-13s %s\n", n, coord_str(t, n, cs), es);
    }
}
