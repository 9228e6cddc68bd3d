/* links.c: learning, with every other node, which links are down (canopy_links_gather).
 *
 * Each router's link ends report their own state (LINK_DOWN, canopy_counters); a node
 * knows nothing of links elsewhere. The nodes flood what they know to each other over the
 * routes that are certainly alive: to a neighbour whose dimension-order route, out and
 * back, is only the link between the two (in a ring of two, the one the route rule picks),
 * the one link whose state this node's own end knows. Every round, each node puts its map
 * to every live neighbour and ORs in what they put; after nodes - 1 rounds every node that
 * can reach the others holds every node's marks, whatever detours the dead links force.
 *
 * A message is a map (one byte per node, padded to 8) then a word {call << 32 | round + 1}
 * written last (a put's bytes land in order), into the receiver's slot for that neighbour
 * (slot p: from the neighbour through the receiver's port p, the lowest such port). A
 * receiver waits until the word reaches this round: a neighbour a round ahead has already
 * overwritten it with a superset of the map, which is as good; one from an earlier call
 * never counts.
 */
#include <stdlib.h>
#include <string.h>

#include "dev.h"
#include "route.h"

struct marked {
    const canopy_dev *dev;
    const uint8_t *dead;
};

/* A hop over a link marked at either end in the map stops the walk. */
static int hop_marked(void *ctx, int node, unsigned port)
{
    const struct marked *m = ctx;
    const int peer = canopy_route_neighbour(m->dev->sizes, node, port);
    return (m->dead[node] >> port & 1u) || (m->dead[peer] >> (port ^ 1u) & 1u);
}

static int live_both_ways(const canopy_dev *dev, const uint8_t *dead, int a, int b)
{
    struct marked m = {dev, dead};
    return !canopy_route_walk(dev->ndims, dev->sizes, a, b, hop_marked, &m) &&
           !canopy_route_walk(dev->ndims, dev->sizes, b, a, hop_marked, &m);
}

static size_t slot_bytes(const canopy_dev *dev) { return ((size_t)dev->nodes + 7) / 8 * 8 + 8; }

size_t canopy_links_gather_bytes(canopy_dev *dev)
{
    return dev ? 2 * (size_t)dev->ndims * slot_bytes(dev) : 0;
}

/* The slot of node to's area that node from writes into. */
static unsigned slot_of(const canopy_dev *dev, int to, int from)
{
    unsigned p = 0;
    while (canopy_route_neighbour(dev->sizes, to, p) != from) ++p;
    return p;
}

/* One round: send the map to every live neighbour, then take theirs. */
static int round_trip(canopy_dev *dev, uint64_t scratch_off, const int *nb, int nnb, uint8_t *map, uint64_t *msg,
                      uint64_t tag, uint64_t timeout_ns)
{
    const size_t sb = slot_bytes(dev);
    memcpy(msg, map, (size_t)dev->nodes);
    msg[sb / 8 - 1] = tag;
    int rc;
    for (int i = 0; i < nnb; ++i)
        if ((rc = canopy_put(dev, nb[i], scratch_off + slot_of(dev, nb[i], dev->node) * sb, msg, sb, 0))) return rc;
    for (int i = 0; i < nnb; ++i) {
        const uint8_t *slot = (const uint8_t *)dev->win.vaddr + scratch_off + slot_of(dev, dev->node, nb[i]) * sb;
        const volatile uint64_t *word = (const volatile uint64_t *)(slot + sb - 8);
        if ((rc = canopy_wait_u64(dev, word, CANOPY_CMP_GE, tag, timeout_ns))) return rc;
        for (int j = 0; j < dev->nodes; ++j) map[j] |= ((const volatile uint8_t *)slot)[j];
    }
    return CANOPY_OK;
}

int canopy_links_gather(canopy_dev *dev, uint64_t scratch_off, uint64_t timeout_ns, uint8_t *dead)
{
    int rc = usable(dev);
    if (rc) return rc;
    if (!dev->win.vaddr) return CANOPY_ENOTREG;
    const size_t sb = slot_bytes(dev), area = canopy_links_gather_bytes(dev);
    if (scratch_off % 8 || scratch_off > dev->win.size || area > dev->win.size - scratch_off) return CANOPY_ERANGE;
    struct canopy_counters c;
    if ((rc = canopy_counters(dev, &c))) return rc;

    uint8_t *map = calloc((size_t)dev->nodes, 1);
    uint64_t *msg = calloc(sb / 8, sizeof *msg);
    if (!map || !msg) {
        free(map);
        free(msg);
        return CANOPY_ENOMEM;
    }
    map[dev->node] = (uint8_t)c.link_down;
    /* Live neighbours, judged by this node's own link ends alone. */
    int nb[2 * CANOPY_MAX_DIMS], nnb = 0;
    for (unsigned p = 0; p < 2 * dev->ndims; ++p) {
        const int peer = canopy_route_neighbour(dev->sizes, dev->node, p);
        int seen = peer == dev->node;
        for (int i = 0; i < nnb && !seen; ++i) seen = nb[i] == peer;
        if (!seen && live_both_ways(dev, map, dev->node, peer)) nb[nnb++] = peer;
    }
    const uint64_t call = ++dev->link_gathers;
    for (int r = 0; r < dev->nodes - 1 && !rc; ++r)
        rc = round_trip(dev, scratch_off, nb, nnb, map, msg, call << 32 | (uint64_t)(r + 1), timeout_ns);
    /* No quiet: every message has landed once its receiver returns (it waits for them all),
     * and a quiet would also wait for puts a dead link swallowed before the call. */
    if (!rc) rc = canopy_set_dead_links(dev, map, (size_t)dev->nodes);
    if (!rc && dead) memcpy(dead, map, (size_t)dev->nodes);
    free(map);
    free(msg);
    return rc;
}
