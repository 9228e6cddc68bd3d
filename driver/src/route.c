/* route.c: the point-to-point route between two nodes, and the links known to be down.
 *
 * The routers route every put, get and atomic in dimension order (rtl/router/
 * canopy_route_dor.sv): X first, then Y, Z, W; in each ring the shorter way round, a tie
 * (exactly half way on an even ring) going + toward an even destination coordinate and -
 * toward an odd one. route_walk follows the same rule hop by hop, so the driver knows
 * which links a packet will cross without asking the device.
 *
 * The dead-link map is what the fabric manager learned (every node's LINK_DOWN register,
 * canopy_counters) and handed to canopy_set_dead_links. A link is down if either of its
 * ends is marked. A put, get or atomic whose route crosses a down link in either
 * direction (the data one way, its acknowledgement or reply the other) is refused with
 * CANOPY_EUNREACH before anything is injected: the link end would drop it and the caller
 * would wait for an acknowledgement that cannot come.
 */
#include <stdlib.h>

#include "dev.h"
#include "route.h"

static unsigned coord_of(const unsigned *sizes, int node, unsigned d)
{
    unsigned rest = (unsigned)node;
    for (unsigned e = 0; e < d; ++e) rest /= sizes[e];
    return rest % sizes[d];
}

static int node_step(const unsigned *sizes, int node, unsigned d, int plus)
{
    unsigned stride = 1;
    for (unsigned e = 0; e < d; ++e) stride *= sizes[e];
    const unsigned k = sizes[d], c = coord_of(sizes, node, d);
    const unsigned next = plus ? (c + 1) % k : (c + k - 1) % k;
    return node + (int)(next * stride) - (int)(c * stride);
}

int canopy_route_walk(unsigned ndims, const unsigned *sizes, int src, int dst,
                      int (*hop)(void *ctx, int node, unsigned port), void *ctx)
{
    int at = src;
    for (unsigned d = 0; d < ndims; ++d) {
        const unsigned k = sizes[d], want = coord_of(sizes, dst, d);
        unsigned c = coord_of(sizes, at, d);
        if (c == want) continue;
        const unsigned fwd = (want + k - c) % k; /* hops going + */
        const int plus = 2 * fwd < k || (2 * fwd == k && !(want & 1u));
        const unsigned port = 2 * d + (plus ? 0u : 1u);
        while (c != want) {
            const int rc = hop(ctx, at, port);
            if (rc) return rc;
            at = node_step(sizes, at, d, plus);
            c = coord_of(sizes, at, d);
        }
    }
    return 0;
}

int canopy_route_neighbour(const unsigned *sizes, int node, unsigned port)
{
    return node_step(sizes, node, port / 2, !(port & 1u));
}

/* A hop over a link marked down at either end stops the walk. */
static int hop_dead(void *ctx, int node, unsigned port)
{
    const canopy_dev *dev = ctx;
    const int peer = node_step(dev->sizes, node, port / 2, !(port & 1u));
    return (dev->dead_links[node] >> port & 1u) || (dev->dead_links[peer] >> (port ^ 1u) & 1u);
}

static int route_crosses_dead(const canopy_dev *dev, int src, int dst)
{
    return canopy_route_walk(dev->ndims, dev->sizes, src, dst, hop_dead, (void *)dev);
}

int canopy_route_ok(const canopy_dev *dev, int node)
{
    if (!dev->dead_links || node == dev->node) return CANOPY_OK;
    return route_crosses_dead(dev, dev->node, node) || route_crosses_dead(dev, node, dev->node) ? CANOPY_EUNREACH
                                                                                                : CANOPY_OK;
}

int canopy_set_dead_links(canopy_dev *dev, const uint8_t *dead, size_t nodes)
{
    int rc = usable(dev);
    if (rc) return rc;
    if (!dead) {
        free(dev->dead_links);
        dev->dead_links = NULL;
        return CANOPY_OK;
    }
    if (nodes != (size_t)dev->nodes) return CANOPY_EINVAL;
    const unsigned ports = 2 * dev->ndims;
    int any = 0;
    for (size_t i = 0; i < nodes; ++i) {
        if (ports < 8 && dead[i] >> ports) return CANOPY_EINVAL; /* no such port */
        any |= dead[i] != 0;
    }
    uint8_t *copy = NULL;
    if (any) {
        if (!(copy = malloc(nodes))) return CANOPY_ENOMEM;
        memcpy(copy, dead, nodes);
    }
    free(dev->dead_links);
    dev->dead_links = copy;
    return CANOPY_OK;
}

int canopy_route_up(canopy_dev *dev, int src, int dst)
{
    int rc = usable(dev);
    if (rc) return rc;
    if (src < 0 || src >= dev->nodes || dst < 0 || dst >= dev->nodes) return CANOPY_ERANGE;
    if (!dev->dead_links || src == dst) return 1;
    return !route_crosses_dead(dev, src, dst);
}
