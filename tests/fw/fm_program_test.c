/* fm_program_test.c: host-only test of fw/src/fm_program.c against a mock libcanopy.
 *
 * The mock implements the canopy.h functions fm_program.c calls over one in-process fake
 * fabric: every node's router table, the write-time rule (canopy_fm_check_entry, as the
 * router applies it), CONFIG packets that land only after a few device-time steps, and
 * optionally a router that refuses everything. canopy_fm_setup runs once per node, node 0
 * first (in packet mode node 0 writes every router). Checks: the tables the routers end
 * up with equal canopy_fm_build's, every node attaches with the right root, and the
 * failures (refusing router, CONFIG never sent, bad tree id, bad mode) are reported with
 * the node and the cause.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canopy_fm.h"

static int failures, checks;
#define CHECK(cond, ...)                                                                  \
    do {                                                                                  \
        ++checks;                                                                         \
        if (!(cond)) {                                                                    \
            ++failures;                                                                   \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);     \
            fprintf(stderr, __VA_ARGS__);                                                 \
            fprintf(stderr, "\n");                                                        \
        }                                                                                 \
    } while (0)

/* ------------------------------------------------------------------ the mock fabric */

#define MAX_NODES 64
#define MOCK_TREES 4u
#define CONFIG_DELAY 5 /* device-time steps (one per canopy_time_ns / tree_read) before a CONFIG lands */

struct canopy_dev { int node; };

static struct {
    struct canopy_fm_torus t;
    uint32_t table[MAX_NODES][MOCK_TREES];
    struct { int node; unsigned tree; uint32_t entry; uint64_t due; } pending[4 * MAX_NODES];
    unsigned npending;
    int refused_since_quiet[MAX_NODES]; /* per sender */
    int refusing_node;                  /* this router refuses every write (-1: none) */
    uint64_t now;
    int attached_root[MAX_NODES];
    unsigned remote_writes;
} fab;

static void mock_reset(const struct canopy_fm_torus *t)
{
    memset(&fab, 0, sizeof fab);
    fab.t = *t;
    fab.refusing_node = -1;
    for (int i = 0; i < MAX_NODES; ++i) fab.attached_root[i] = -1;
    for (int n = 0; n < MAX_NODES; ++n)
        for (unsigned k = 0; k < MOCK_TREES; ++k) fab.table[n][k] = 0xdead0000u; /* stale state, invalid */
}

static int router_accepts(int node, unsigned tree, uint32_t e)
{
    return node != fab.refusing_node && tree < MOCK_TREES && canopy_fm_check_entry(&fab.t, e, NULL, 0) == CANOPY_OK;
}

static void advance(void)
{
    ++fab.now;
    for (unsigned i = 0; i < fab.npending;) {
        if (fab.pending[i].due <= fab.now) {
            if (router_accepts(fab.pending[i].node, fab.pending[i].tree, fab.pending[i].entry))
                fab.table[fab.pending[i].node][fab.pending[i].tree] = fab.pending[i].entry;
            fab.pending[i] = fab.pending[--fab.npending];
        } else {
            ++i;
        }
    }
}

const char *canopy_strerror(int s) { return s == 0 ? "ok" : "mock error"; }
int canopy_my_node(canopy_dev *d) { return d->node; }
int canopy_num_nodes(canopy_dev *d) { (void)d; return (int)canopy_fm_nodes(&fab.t); }
int canopy_ndims(canopy_dev *d) { (void)d; return (int)fab.t.ndims; }
int canopy_coords(canopy_dev *d, int node, unsigned coords[4])
{
    (void)d;
    canopy_fm_coords(&fab.t, (unsigned)node, coords);
    return CANOPY_OK;
}
int canopy_caps(canopy_dev *d, struct canopy_caps *c)
{
    (void)d;
    memset(c, 0, sizeof *c);
    c->trees = MOCK_TREES;
    return CANOPY_OK;
}
uint64_t canopy_time_ns(canopy_dev *d)
{
    (void)d;
    advance();
    return fab.now * 1000000ull; /* 1 ms of device time per step */
}
int canopy_tree_write(canopy_dev *d, unsigned tree, uint32_t e)
{
    if (!router_accepts(d->node, tree, e)) return CANOPY_EREFUSED;
    fab.table[d->node][tree] = e;
    return CANOPY_OK;
}
int canopy_tree_read(canopy_dev *d, unsigned tree, uint32_t *e)
{
    advance();
    *e = fab.table[d->node][tree];
    return CANOPY_OK;
}
int canopy_tree_write_remote(canopy_dev *d, int node, unsigned tree, uint32_t e)
{
    ++fab.remote_writes;
    if (!router_accepts(node, tree, e)) fab.refused_since_quiet[d->node] = 1;
    fab.pending[fab.npending].node = node;
    fab.pending[fab.npending].tree = tree;
    fab.pending[fab.npending].entry = e;
    fab.pending[fab.npending].due = fab.now + CONFIG_DELAY;
    ++fab.npending;
    return CANOPY_OK;
}
int canopy_quiet(canopy_dev *d, uint64_t timeout_ns)
{
    (void)timeout_ns;
    while (fab.npending) advance(); /* acknowledged = landed (or refused) */
    int r = fab.refused_since_quiet[d->node];
    fab.refused_since_quiet[d->node] = 0;
    return r ? CANOPY_EREFUSED : CANOPY_OK;
}
int canopy_tree_attach(canopy_dev *d, unsigned tree, int root)
{
    if (!canopy_tree_get_valid(fab.table[d->node][tree])) return CANOPY_ENOTREE; /* as libcanopy */
    fab.attached_root[d->node] = root;
    return CANOPY_OK;
}

/* ------------------------------------------------------------------ tests */

/* Run the collective call on every node (node 0 first); returns node 0's status, the
 * first failing node's message in err. */
static int setup_all(unsigned tree, int root, const uint8_t *g, int mode, int skip_node0, char *err, size_t len,
                     int *rcs)
{
    unsigned nn = canopy_fm_nodes(&fab.t);
    int first = CANOPY_OK;
    err[0] = '\0';
    for (unsigned n = skip_node0 ? 1 : 0; n < nn; ++n) {
        struct canopy_dev dev = {(int)n};
        char e[512] = "";
        int rc = canopy_fm_setup(&dev, tree, root, g, mode, e, sizeof e);
        if (rcs) rcs[n] = rc;
        if (rc && first == CANOPY_OK) {
            first = rc;
            snprintf(err, len, "%s", e);
        }
    }
    return first;
}

int main(void)
{
    char err[512];
    const struct canopy_fm_torus tori[] = {{2, {3, 3, 1, 1}}, {3, {2, 2, 2, 1}}, {3, {2, 3, 4, 1}}, {1, {16, 1, 1, 1}}};
    for (size_t ti = 0; ti < sizeof tori / sizeof tori[0]; ++ti) {
        const struct canopy_fm_torus *t = &tori[ti];
        unsigned nn = canopy_fm_nodes(t);
        uint32_t want[MAX_NODES];
        uint8_t g[MAX_NODES];
        for (unsigned n = 0; n < nn; ++n) g[n] = (n % 3 == 1) ? 0x03 : 0;
        for (int mode = CANOPY_FM_VIA_PACKETS; mode <= CANOPY_FM_VIA_CSR; ++mode) {
            for (int sub = 0; sub < 2; ++sub) {
                int root = (int)(nn / 2 + (unsigned)sub) % (int)nn;
                const uint8_t *gg = sub ? g : NULL;
                mock_reset(t);
                CHECK(canopy_fm_torus_of(&(struct canopy_dev){0}, &(struct canopy_fm_torus){0}) == CANOPY_OK, "torus_of");
                struct canopy_fm_torus got;
                canopy_fm_torus_of(&(struct canopy_dev){0}, &got);
                CHECK(got.ndims == t->ndims && canopy_fm_nodes(&got) == nn && got.size[t->ndims - 1] == t->size[t->ndims - 1],
                      "torus_of: %u dims, %u nodes", got.ndims, canopy_fm_nodes(&got));
                int rc = setup_all(2, root, gg, mode, 0, err, sizeof err, NULL);
                CHECK(rc == CANOPY_OK, "torus %zu mode %d sub %d: %s", ti, mode, sub, err);
                CHECK(canopy_fm_build(t, root, gg, want, err, sizeof err) == CANOPY_OK, "build: %s", err);
                for (unsigned n = 0; n < nn; ++n) {
                    CHECK(fab.table[n][2] == want[n], "torus %zu mode %d node %u: router holds 0x%08x, expected 0x%08x",
                          ti, mode, n, fab.table[n][2], want[n]);
                    int in_tree = (int)canopy_tree_get_valid(want[n]);
                    CHECK(fab.attached_root[n] == (in_tree ? root : -1), "node %u (in tree %d) attached root %d", n,
                          in_tree, fab.attached_root[n]);
                    CHECK(fab.table[n][1] == 0xdead0000u, "node %u: another tree was touched", n);
                }
                CHECK(fab.remote_writes == (mode == CANOPY_FM_VIA_PACKETS ? nn : 0), "%u CONFIG packets for %u nodes",
                      fab.remote_writes, nn);
            }
        }
    }

    struct canopy_fm_torus t = {2, {3, 3, 1, 1}};
    int rcs[MAX_NODES];
    /* a router that refuses: packet mode names it (node 0 finds it one node at a time) */
    mock_reset(&t);
    fab.refusing_node = 5;
    int rc = setup_all(1, 4, NULL, CANOPY_FM_VIA_PACKETS, 0, err, sizeof err, rcs);
    CHECK(rcs[0] == CANOPY_EREFUSED && strstr(err, "node 5 (2,1)") && strstr(err, "refused"),
          "refusing router, packets: rc %d: %s", rcs[0], err);
    CHECK(rcs[5] == CANOPY_ETIMEDOUT, "node 5 waits in vain: rc %d", rcs[5]);
    (void)rc;
    /* ... and CSR mode reports it at node 5 */
    mock_reset(&t);
    fab.refusing_node = 5;
    setup_all(1, 4, NULL, CANOPY_FM_VIA_CSR, 0, err, sizeof err, rcs);
    CHECK(rcs[5] == CANOPY_EREFUSED && strstr(err, "node 5 (2,1)") && rcs[4] == CANOPY_OK, "refusing router, CSR: %s", err);
    /* node 0 never sends: every other node times out, naming itself and the fields */
    mock_reset(&t);
    rc = setup_all(1, 4, NULL, CANOPY_FM_VIA_PACKETS, 1, err, sizeof err, rcs);
    CHECK(rc == CANOPY_ETIMEDOUT && strstr(err, "node 1 (1,0)") && strstr(err, "valid 0x0 (expected 0x1)"),
          "no CONFIG: rc %d: %s", rc, err);
    CHECK(fab.attached_root[1] == -1, "a node that timed out attached the tree");
    /* bad arguments */
    mock_reset(&t);
    struct canopy_dev d0 = {0};
    CHECK(canopy_fm_setup(&d0, MOCK_TREES, 4, NULL, CANOPY_FM_VIA_CSR, err, sizeof err) == CANOPY_ERANGE &&
              strstr(err, "tree 4"), "tree beyond the router's: %s", err);
    CHECK(canopy_fm_setup(&d0, 0, 9, NULL, CANOPY_FM_VIA_CSR, err, sizeof err) == CANOPY_ERANGE && strstr(err, "root 9"),
          "root 9: %s", err);
    CHECK(canopy_fm_setup(&d0, 0, 4, NULL, 7, err, sizeof err) == CANOPY_EINVAL && strstr(err, "mode"), "mode 7: %s", err);
    uint8_t none[9] = {0};
    CHECK(canopy_fm_setup(&d0, 0, 4, none, CANOPY_FM_VIA_CSR, err, sizeof err) == CANOPY_EINVAL &&
              strstr(err, "no member"), "no member: %s", err);
    CHECK(fab.table[0][0] == 0xdead0000u, "a refused setup wrote the router");

    printf("fm_program_test: %d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
