/* fm_setup_sim.c: the fabric manager on the co-simulation, through the real libcanopy.
 * Run on every PE: sim/canopy-run -n 9 --torus 3x3 build/tests/fw/fm_setup_sim
 *
 * 1. Tree 0, every node a member, root 4, programmed by CONFIG packets from node 0; each
 *    router then holds exactly the built entry.
 * 2. Tree 1, a subgroup (every third node, plus masks) rooted at node 0, by CSRs.
 * 3. The router's write-time rule agrees with canopy_fm_check_entry: random entries
 *    (structured to hit every rule) written to this node's last tree; the router's verdict
 *    (CANOPY_OK / CANOPY_EREFUSED) must equal fw's, and a refused write must leave the
 *    entry unchanged.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canopy_fm.h"

static int me = -1;
#define CHECK(cond, ...)                                                                       \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            fprintf(stderr, "PE %d: %s:%d: check failed: %s: ", me, __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                                      \
            fprintf(stderr, "\n");                                                             \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

static uint64_t rng = 0x5eed0000fa6b1c00ull;
static uint64_t splitmix64(void)
{
    uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

int main(void)
{
    canopy_dev *dev = NULL;
    char err[512] = "";
    struct canopy_open_opts o = {.errmsg = err, .errmsg_len = sizeof err};
    int rc = canopy_open(&dev, &o);
    CHECK(rc == CANOPY_OK, "open: %s", err);
    me = canopy_my_node(dev);
    struct canopy_fm_torus t;
    CHECK(canopy_fm_torus_of(dev, &t) == CANOPY_OK, "torus_of");
    unsigned nn = canopy_fm_nodes(&t);
    struct canopy_caps caps;
    CHECK(canopy_caps(dev, &caps) == CANOPY_OK && caps.trees >= 3, "caps: %u trees", caps.trees);
    uint32_t *want = malloc(nn * sizeof *want);
    uint8_t *g = malloc(nn);
    uint32_t have;

    int root0 = (int)(nn / 2);
    rc = canopy_fm_setup(dev, 0, root0, NULL, CANOPY_FM_VIA_PACKETS, err, sizeof err);
    CHECK(rc == CANOPY_OK, "setup tree 0 by packets: %d: %s", rc, err);
    CHECK(canopy_fm_build(&t, root0, NULL, want, err, sizeof err) == CANOPY_OK, "build: %s", err);
    CHECK(canopy_tree_read(dev, 0, &have) == CANOPY_OK && have == want[me], "tree 0 holds 0x%08x, want 0x%08x", have,
          want[me]);

    for (unsigned n = 0; n < nn; ++n) g[n] = n % 3 == 2 ? (uint8_t)(1u | (n << 1)) : 0;
    rc = canopy_fm_setup(dev, 1, 0, g, CANOPY_FM_VIA_CSR, err, sizeof err);
    CHECK(rc == CANOPY_OK, "setup tree 1 by CSR: %d: %s", rc, err);
    CHECK(canopy_fm_build(&t, 0, g, want, err, sizeof err) == CANOPY_OK, "build: %s", err);
    CHECK(canopy_tree_read(dev, 1, &have) == CANOPY_OK && have == want[me], "tree 1 holds 0x%08x, want 0x%08x", have,
          want[me]);

    /* the router's rule vs fw's, on this node's last tree */
    unsigned tr = caps.trees - 1, agree = 0, refused = 0;
    uint32_t cur = 0;
    CHECK(canopy_tree_write(dev, tr, 0) == CANOPY_OK, "clear tree %u", tr);
    for (unsigned i = 0; i < 300; ++i) {
        uint64_t r = splitmix64();
        uint32_t e = canopy_tree_set_valid(0, 1);
        e = canopy_tree_set_root(e, (r & 7) == 0);
        e = canopy_tree_set_transit(e, ((r >> 3) & 7) == 0);
        e = canopy_tree_set_parent(e, (uint32_t)((r >> 6) & 15) % (((r >> 10) & 3) ? 2 * t.ndims : 16));
        e = canopy_tree_set_children(e, (uint32_t)(r >> 12) & (((r >> 20) & 3) ? (1u << (2 * t.ndims)) - 1 : 0xffu) &
                                            (uint32_t)(r >> 24));
        e = canopy_tree_set_groups(e, ((r >> 32) & 1) ? 0 : (uint32_t)(r >> 40) & 0xffu);
        if (((r >> 48) & 15) == 0) e = canopy_tree_set_valid(e, 0);
        int fw_ok = canopy_fm_check_entry(&t, e, err, sizeof err) == CANOPY_OK;
        rc = canopy_tree_write(dev, tr, e);
        CHECK(rc == (fw_ok ? CANOPY_OK : CANOPY_EREFUSED), "entry 0x%08x: router says %d, fw says %s", e, rc,
              fw_ok ? "ok" : err);
        if (fw_ok) cur = e;
        else ++refused;
        CHECK(canopy_tree_read(dev, tr, &have) == CANOPY_OK && have == cur, "after 0x%08x: holds 0x%08x, expected 0x%08x",
              e, have, cur);
        ++agree;
    }
    CHECK(refused > 30 && refused < 270, "only %u of 300 refused: the sample misses a side", refused);
    CHECK(canopy_tree_write(dev, tr, 0) == CANOPY_OK, "clear tree %u", tr);
    if (me == 0) printf("fm_setup_sim: %u nodes: trees programmed by packets and CSRs; router and fw rules agree on %u entries (%u refused)\n", nn, agree, refused);
    free(want);
    free(g);
    canopy_close(&dev);
    return 0;
}
