/* canopy_fm.h: the fabric manager. Computes, checks and programs the collective routing
 * tables (one 32-bit entry per node and tree, layout in canopy_packet.h) of seed 002:
 * dimension-ordered trees over a torus, pruned to a set of member nodes, with transit nodes
 * that only connect members. docs/fabric-manager.md describes the trees and the checks.
 *
 * Two halves:
 *  - fm_tree.c, pure functions (no device): build, check one entry (the router's
 *    write-time rule), verify a whole table (seed 002's global conditions), print.
 *  - fm_program.c, through libcanopy (canopy.h): program a tree into the routers, by
 *    CONFIG packets from the management node or by each node's own CSRs.
 *
 * Return values are enum canopy_status (canopy.h): CANOPY_OK, CANOPY_EINVAL for a tree or
 * entry that breaks a rule (or a bad argument), CANOPY_ERANGE for a bad torus, root or
 * tree id. Functions taking (err, errlen) write a one-line reason there on failure
 * (err may be NULL); messages name the node by index and coordinates and the field, e.g.
 * "node 4 (1,1): child port 0 (+X) leads to node 5 (2,1) whose parent is port 3 (-Y),
 * expected port 1 (-X)".
 */
#ifndef CANOPY_FM_H
#define CANOPY_FM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "canopy.h"
#include "canopy_packet.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A torus: ndims 1..4; size[d] 1..16 for d < ndims (1 = dimension unused); size[d] for
 * d >= ndims is ignored. Node n = x + X*(y + Y*(z + Z*w)), X fastest (as libcanopy). */
struct canopy_fm_torus {
    unsigned ndims;
    unsigned size[CANOPY_MAX_DIMS];
};

/* ---- topology helpers (pure) ---- */

/* CANOPY_OK if the torus is well formed, else CANOPY_ERANGE with a reason. */
int canopy_fm_torus_check(const struct canopy_fm_torus *t, char *err, size_t errlen);
/* Number of nodes (product of the sizes); 0 if the torus is not well formed. */
unsigned canopy_fm_nodes(const struct canopy_fm_torus *t);
/* Coordinates of node n (X first; unused dimensions 0). */
void canopy_fm_coords(const struct canopy_fm_torus *t, unsigned node, unsigned coords[CANOPY_MAX_DIMS]);
/* Hops between nodes a and b: the shorter way round every ring (a tree's depth of a node is
 * its distance from the root, since trees follow shortest paths). */
unsigned canopy_fm_distance(const struct canopy_fm_torus *t, unsigned a, unsigned b);
/* "node 5 (2,1)": index and coordinates (ndims of them), into buf. */
void canopy_fm_node_str(const struct canopy_fm_torus *t, unsigned node, char *buf, size_t len);
/* The node reached from `node` through router port `port` (2d: +1 in dimension d,
 * 2d+1: -1, wrapping); -1 if port >= 2*ndims or node is out of range. In a dimension of
 * size 1 both ports lead back to `node` itself. */
int canopy_fm_neighbour(const struct canopy_fm_torus *t, unsigned node, unsigned port);
/* "+X", "-Y", ... for a port; "host" for port 2*ndims; "?" beyond. */
const char *canopy_fm_port_name(const struct canopy_fm_torus *t, unsigned port);

/* ---- trees (pure) ---- */

/* Build the tables of one tree rooted at `root` into entries[0..nnodes-1].
 * groups: per node, the subgroup mask of its host (bit g = member of subgroup g; bit 0 =
 * the whole member set, so every nonzero mask must have bit 0); 0 = not a member. NULL =
 * every node is a member with mask 1. The dimension-ordered tree from root is pruned to
 * the subtrees that hold members; nodes kept only to connect members (possibly the root)
 * get transit=1, groups=0; nodes outside the tree get entry 0 (invalid). The result is
 * checked with canopy_fm_verify before it is returned. At least one member is needed. */
int canopy_fm_build(const struct canopy_fm_torus *t, int root, const uint8_t *groups,
                    uint32_t *entries, char *err, size_t errlen);

/* canopy_fm_build around links that are down. dead: per node, bit p = the link leaving it
 * through port p is down (marking either end is enough; NULL = none; a bit at a port
 * >= 2*ndims is refused). The tree stays dimension-ordered (the router's write-time rule):
 * on each ring a node hangs from the ring's entry by the way round that crosses no dead
 * link, the shorter one when both are clear, so with no dead link on a ring it is
 * canopy_fm_build's tree there, and around one a node may sit deeper than its torus
 * distance. A member that both ways round some ring cut off is refused (CANOPY_EINVAL,
 * naming it and the ring: another root may reach it, canopy_fm_best_root_avoiding). The
 * result is verified, and checked to use no dead link, before it is returned. */
int canopy_fm_build_avoiding(const struct canopy_fm_torus *t, int root, const uint8_t *groups, const uint8_t *dead,
                             uint32_t *entries, char *err, size_t errlen);
/* The member whose canopy_fm_build_avoiding tree is the shallowest (then fewer routers,
 * then the lowest node), or CANOPY_EINVAL if no member's tree reaches every member; its
 * depth and router count if not NULL. Builds from every member: O(members x nodes x the
 * largest ring) time, meant for rebuilding trees after a link has gone down, not for
 * shmem_init's every call (canopy_fm_best_root there). */
int canopy_fm_best_root_avoiding(const struct canopy_fm_torus *t, const uint8_t *groups, const uint8_t *dead,
                                 unsigned *depth, unsigned *routers, char *err, size_t errlen);

/* Choosing a root without building every tree. For every node r as the root of the tree
 * canopy_fm_build would make for `groups` (NULL = every node a member with mask 1):
 * depth[r] = its depth (hops from r to the farthest member: the tree follows shortest
 * paths, so that is the largest torus distance from r to a member; at most 4 x 8 = 32)
 * and routers[r] = the number of valid entries (members and transit nodes, r included).
 * O(nodes x sum of the sizes) time and O(nodes) memory for all roots together, where
 * building each tree would be O(nodes^2) (15.7 s for shmem_init's 7 stride sets at
 * 16,384 nodes, fw/README.md). Either
 * output may be NULL. CANOPY_EINVAL / CANOPY_ERANGE as canopy_fm_build for bad groups or
 * torus, CANOPY_ENOMEM. */
int canopy_fm_root_costs(const struct canopy_fm_torus *t, const uint8_t *groups, uint8_t *depth,
                         uint32_t *routers, char *err, size_t errlen);
/* The member giving the shallowest tree, ties broken by fewer routers, then the lowest
 * node (the OpenSHMEM layer's rule for its stride trees): returns that node (>= 0) and,
 * if not NULL, its depth and router count; or a negative status as canopy_fm_root_costs.
 * A pure function of the torus and groups: every node computes the same root. */
int canopy_fm_best_root(const struct canopy_fm_torus *t, const uint8_t *groups, unsigned *depth,
                        unsigned *routers, char *err, size_t errlen);

/* Roots for a stripe of trees (canopy_tree_stripe: a long reduce spread over trees that
 * span the same members): roots[0] = first (a member), then each next root the member
 * farthest from the roots so far (the largest torus distance to the nearest of them; the
 * lowest node index on a tie), so the roots spread over the torus like a lattice and
 * every router roots about as many trees, and has about as many children over them, as
 * any other. groups as canopy_fm_build (NULL: every node). n must be 1..the member count.
 * CANOPY_OK, or CANOPY_EINVAL / CANOPY_ERANGE with a reason. A pure function: every node
 * computes the same roots. */
int canopy_fm_stripe_roots(const struct canopy_fm_torus *t, const uint8_t *groups, int first, unsigned n,
                           int *roots, char *err, size_t errlen);

/* The router's write-time rule for one entry (what canopy_tree_write and CONFIG packets
 * accept): valid=0 always passes; otherwise every port (parent unless root, children)
 * < 2*ndims; for a non-root entry each child port lies in a dimension after the parent
 * port's, or is the port opposite the parent (parent^1), and is never the parent port;
 * a root's parent field is ignored; transit => groups == 0. */
int canopy_fm_check_entry(const struct canopy_fm_torus *t, uint32_t entry, char *err, size_t errlen);

/* Seed 002's global conditions over the whole table: every valid entry passes the
 * write-time rule; no port in a dimension of size 1; exactly one root; every child port
 * leads to a valid non-root node whose parent port is the opposite port; every non-root
 * node's parent port leads to a valid node listing the opposite port as a child;
 * following parents from any valid node reaches the root. */
int canopy_fm_verify(const struct canopy_fm_torus *t, const uint32_t *entries, char *err, size_t errlen);

/* Describe one entry: "root children +X,-X,+Y groups 0x01" and the like (into buf). */
void canopy_fm_entry_str(const struct canopy_fm_torus *t, uint32_t entry, char *buf, size_t len);
/* Print a table, one line per node: "node 4 (1,1): root children ...". Invalid entries
 * are printed as "-" (or skipped if skip_invalid). */
void canopy_fm_print(const struct canopy_fm_torus *t, const uint32_t *entries, int skip_invalid, FILE *out);

/* ---- programming the routers (fm_program.c, needs libcanopy) ---- */

enum {
    CANOPY_FM_VIA_PACKETS = 1, /* node 0 writes every router with CONFIG packets */
    CANOPY_FM_VIA_CSR = 2,     /* each node writes its own router's CSR */
};

/* The torus the device is part of (canopy_ndims, canopy_num_nodes, canopy_coords). */
int canopy_fm_torus_of(canopy_dev *dev, struct canopy_fm_torus *t);

/* Collective: every node calls it with the same arguments. Every node builds and verifies
 * the same table (deterministic), the entries are written (mode), each node waits until
 * its own router holds its entry (timeout: CANOPY_FM_TIMEOUT_NS of device time), then
 * attaches the tree (canopy_tree_attach); a node pruned from the tree (invalid entry)
 * does not attach and returns CANOPY_OK. Returning on one node says nothing about the
 * other routers (except on node 0 in packet mode): synchronize before the first
 * collective on the tree. */
#define CANOPY_FM_TIMEOUT_NS (3ull * 1000 * 1000 * 1000)
int canopy_fm_setup(canopy_dev *dev, unsigned tree, int root, const uint8_t *groups, int mode,
                    char *err, size_t errlen);
/* canopy_fm_setup with the tree built around links that are down (canopy_fm_build_avoiding;
 * dead as there, the same on every node): how a tree is rebuilt, under a fresh index,
 * after a collective on it failed (docs/collectives.md, "When a collective cannot
 * complete"). In CANOPY_FM_VIA_CSR mode each node writes its own router and nothing of the
 * programming crosses a link: the mode to use while a link is down. */
int canopy_fm_setup_avoiding(canopy_dev *dev, unsigned tree, int root, const uint8_t *groups, const uint8_t *dead,
                             int mode, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_FM_H */
