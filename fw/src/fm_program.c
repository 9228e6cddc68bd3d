/* fm_program.c: the fabric manager's device half. Programs one collective tree into the
 * routers through libcanopy's public API (canopy.h) only: CONFIG packets from the
 * management node (node 0) or each node's own TREE_ENTRY CSR, then waits until the
 * router holds the computed entry and attaches the tree. See docs/fabric-manager.md.
 */
#include "canopy_fm.h"
#include "fm_internal.h"

#include <stdlib.h>

/* Read-back polls: at most this many reads, and at most CANOPY_FM_TIMEOUT_NS of device
 * time; whichever ends first. */
#define FM_MAX_POLLS 1000000u


int canopy_fm_torus_of(canopy_dev *dev, struct canopy_fm_torus *t)
{
    if (!t) return CANOPY_EINVAL;
    int nd = canopy_ndims(dev);
    if (nd < 0) return nd;
    int nn = canopy_num_nodes(dev);
    if (nn < 0) return nn;
    if (nd < 1 || nd > (int)CANOPY_MAX_DIMS || nn < 1) return CANOPY_EIO;
    unsigned last[CANOPY_MAX_DIMS];
    int rc = canopy_coords(dev, nn - 1, last);
    if (rc) return rc;
    t->ndims = (unsigned)nd;
    for (unsigned d = 0; d < CANOPY_MAX_DIMS; ++d) t->size[d] = d < t->ndims ? last[d] + 1 : 1;
    if (canopy_fm_nodes(t) != (unsigned)nn) return CANOPY_EIO; /* sizes do not multiply out */
    return CANOPY_OK;
}

/* "valid 1->0, children +X->+X,-X" : the fields where `have` differs from `want`. */
static void diff_str(const struct canopy_fm_torus *t, uint32_t have, uint32_t want, char *buf, size_t len)
{
    char h[128], w[128];
    canopy_fm_entry_str(t, have, h, sizeof h);
    canopy_fm_entry_str(t, want, w, sizeof w);
    static const struct { const char *name; uint32_t (*get)(uint32_t); } f[] = {
        {"valid", canopy_tree_get_valid},       {"root", canopy_tree_get_root},
        {"transit", canopy_tree_get_transit},   {"parent", canopy_tree_get_parent},
        {"children", canopy_tree_get_children}, {"groups", canopy_tree_get_groups},
    };
    size_t o = 0;
    for (size_t i = 0; i < sizeof f / sizeof f[0] && o < len; ++i) {
        uint32_t a = f[i].get(have), b = f[i].get(want);
        if (a == b) continue;
        int k = snprintf(buf + o, len - o, "%s%s 0x%x (expected 0x%x)", o ? ", " : "", f[i].name, a, b);
        if (k < 0) break;
        o += (size_t)k;
    }
    if (o == 0) {
        int k = snprintf(buf, len, "reserved bits: 0x%08x (expected 0x%08x)", have, want);
        o = k < 0 ? len : (size_t)k;
    }
    if (o < len) snprintf(buf + o, len - o, "; holds [%s], expected [%s]", h, w);
}

int canopy_fm_setup(canopy_dev *dev, unsigned tree, int root, const uint8_t *groups, int mode, char *err,
                    size_t errlen)
{
    return canopy_fm_setup_avoiding(dev, tree, root, groups, NULL, mode, err, errlen);
}

int canopy_fm_setup_avoiding(canopy_dev *dev, unsigned tree, int root, const uint8_t *groups, const uint8_t *dead,
                             int mode, char *err, size_t errlen)
{
    if (mode != CANOPY_FM_VIA_PACKETS && mode != CANOPY_FM_VIA_CSR) {
        canopy_fm_say(err, errlen, "fm setup: unknown mode %d", mode);
        return CANOPY_EINVAL;
    }
    struct canopy_fm_torus t;
    int rc = canopy_fm_torus_of(dev, &t);
    if (rc) {
        canopy_fm_say(err, errlen, "fm setup: cannot read the torus from the device: %s", canopy_strerror(rc));
        return rc;
    }
    struct canopy_caps caps;
    rc = canopy_caps(dev, &caps);
    if (rc) {
        canopy_fm_say(err, errlen, "fm setup: cannot read the device's capabilities: %s", canopy_strerror(rc));
        return rc;
    }
    if (tree >= caps.trees || tree >= CANOPY_MAX_TREES) {
        canopy_fm_say(err, errlen, "fm setup: tree %u, but the router implements trees 0..%d", tree, (int)caps.trees - 1);
        return CANOPY_ERANGE;
    }
    int me = canopy_my_node(dev);
    if (me < 0) {
        canopy_fm_say(err, errlen, "fm setup: cannot read this node's id: %s", canopy_strerror(me));
        return me;
    }
    unsigned nn = canopy_fm_nodes(&t);
    uint32_t *entries = malloc(nn * sizeof *entries);
    if (!entries) {
        canopy_fm_say(err, errlen, "fm setup: out of memory");
        return CANOPY_ENOMEM;
    }
    char why[512];
    rc = dead ? canopy_fm_build_avoiding(&t, root, groups, dead, entries, why, sizeof why)
              : canopy_fm_build(&t, root, groups, entries, why, sizeof why);
    if (rc == CANOPY_OK) rc = canopy_fm_verify(&t, entries, why, sizeof why);
    if (rc) {
        canopy_fm_say(err, errlen, "fm setup: tree %u: %s", tree, why);
        free(entries);
        return rc;
    }
    uint32_t want = entries[me];

    if (mode == CANOPY_FM_VIA_PACKETS) {
        if (me == 0) {
            for (unsigned n = 0; n < nn && rc == CANOPY_OK; ++n)
                rc = canopy_tree_write_remote(dev, (int)n, tree, entries[n]);
            if (rc) {
                canopy_fm_say(err, errlen, "fm setup: tree %u: sending the CONFIG packets failed: %s", tree, canopy_strerror(rc));
            } else {
                rc = canopy_quiet(dev, CANOPY_FM_TIMEOUT_NS);
                if (rc == CANOPY_EREFUSED) {
                    /* Find which router(s) refused: once more, one node at a time. */
                    int bad = -1;
                    for (unsigned n = 0; n < nn && bad < 0; ++n) {
                        if (canopy_tree_write_remote(dev, (int)n, tree, entries[n]) == CANOPY_OK &&
                            canopy_quiet(dev, CANOPY_FM_TIMEOUT_NS) == CANOPY_EREFUSED)
                            bad = (int)n;
                    }
                    char es[128];
                    if (bad >= 0) {
                        char ns[32];
                        canopy_fm_node_str(&t, (unsigned)bad, ns, sizeof ns);
                        canopy_fm_entry_str(&t, entries[bad], es, sizeof es);
                        canopy_fm_say(err, errlen,
                            "fm setup: tree %u: the router of %s refused its entry 0x%08x [%s] (the fabric "
                            "manager's rule accepts it: the router and fw disagree, or the tree id is not "
                            "implemented there)",
                            tree, ns, entries[bad], es);
                    } else {
                        canopy_fm_say(err, errlen,
                            "fm setup: tree %u: a router refused a CONFIG entry (not reproduced when written one "
                            "node at a time; see the ERR_TREE_WRITE counters)", tree);
                    }
                } else if (rc) {
                    canopy_fm_say(err, errlen, "fm setup: tree %u: waiting for the CONFIG packets: %s", tree, canopy_strerror(rc));
                }
            }
        }
    } else {
        rc = canopy_tree_write(dev, tree, want);
        if (rc == CANOPY_EREFUSED) {
            char es[128];
            canopy_fm_entry_str(&t, want, es, sizeof es);
            char ns[32];
            canopy_fm_node_str(&t, (unsigned)me, ns, sizeof ns);
            canopy_fm_say(err, errlen,
                "fm setup: tree %u: the router of %s refused its entry 0x%08x [%s] through the CSR (the fabric "
                "manager's rule accepts it)", tree, ns, want, es);
        } else if (rc) {
            canopy_fm_say(err, errlen, "fm setup: tree %u: node %d: writing the entry failed: %s", tree, me, canopy_strerror(rc));
        }
    }
    free(entries);
    if (rc) return rc;

    /* Wait until this router holds the entry (a CONFIG packet may still be in flight). */
    uint64_t start = canopy_time_ns(dev);
    uint32_t have = 0;
    for (unsigned i = 0;; ++i) {
        rc = canopy_tree_read(dev, tree, &have);
        if (rc) {
            canopy_fm_say(err, errlen, "fm setup: tree %u: node %d: reading the entry back failed: %s", tree, me,
                canopy_strerror(rc));
            return rc;
        }
        if (have == want) break;
        if (i + 1 >= FM_MAX_POLLS || canopy_time_ns(dev) - start > CANOPY_FM_TIMEOUT_NS) {
            char d[400], ns[32];
            diff_str(&t, have, want, d, sizeof d);
            canopy_fm_node_str(&t, (unsigned)me, ns, sizeof ns);
            canopy_fm_say(err, errlen, "fm setup: tree %u: the router of %s does not hold the computed entry after %u reads: %s",
                tree, ns, i + 1, d);
            return CANOPY_ETIMEDOUT;
        }
    }
    rc = canopy_tree_attach(dev, tree, root);
    if (!canopy_tree_get_valid(want)) /* pruned: not in the tree; attach has detached it */
        return rc == CANOPY_ENOTREE ? CANOPY_OK : rc;
    if (rc) canopy_fm_say(err, errlen, "fm setup: tree %u: node %d: attaching the tree failed: %s", tree, me, canopy_strerror(rc));
    return rc;
}
