// route_test.cpp: libcanopy's route walk (driver/src/route.c) against the unit tests'
// reference route (tests/unit/route_ref.hpp), which route_dor_test checks exhaustively
// against the router's RTL (canopy_route_dor).
//
// Why: the driver refuses a put whose route crosses a dead link (CANOPY_EUNREACH) from its
// own walk of the route; a walk that disagreed with the routers would let a put into a
// dead link (its sender then waits for an acknowledgement that cannot come) or refuse
// one that had a route.
// What: on every torus of route_dor_test's list, for every (src, dst) pair, the walk's
// hops (node, port) must be the reference's ports, taken from the nodes they lead to;
// a hop callback that stops the walk must stop it there (its value returned).
#include <cstdio>
#include <vector>

#include "route.h"
#include "route_ref.hpp"

namespace {

using canopy_unit::Coords;

struct Walk {
    std::vector<std::pair<int, unsigned>> hops;
    size_t stop_at = SIZE_MAX;  // return nonzero on this hop
};

int record(void *ctx, int node, unsigned port)
{
    auto *w = static_cast<Walk *>(ctx);
    w->hops.emplace_back(node, port);
    return w->hops.size() - 1 == w->stop_at ? 7 : 0;
}

Coords coords_of(const std::vector<unsigned> &size, int node)
{
    Coords c{};
    unsigned rest = static_cast<unsigned>(node);
    for (size_t d = 0; d < size.size(); d++) c[d] = rest % size[d], rest /= size[d];
    return c;
}

int node_of(const std::vector<unsigned> &size, const Coords &c)
{
    int n = 0;
    for (size_t d = size.size(); d-- > 0;) n = n * static_cast<int>(size[d]) + static_cast<int>(c[d]);
    return n;
}

}  // namespace

int main()
{
    const std::vector<std::vector<unsigned>> tori = {
        {2}, {3}, {4}, {5}, {2, 2}, {3, 3}, {4, 4}, {3, 4}, {2, 2, 2}, {2, 3, 4},
        {2, 2, 2, 2}, {15}, {16}, {16, 16}, {2, 3, 4, 5}, {8, 8, 8},
    };
    long pairs = 0, hops = 0;
    for (const auto &size : tori) {
        int n = 1;
        for (unsigned k : size) n *= static_cast<int>(k);
        for (int src = 0; src < n; src++)
            for (int dst = 0; dst < n; dst++) {
                Walk w;
                if (canopy_route_walk(static_cast<unsigned>(size.size()), size.data(), src, dst, record, &w) != 0) {
                    std::printf("route_test: %s %d -> %d: the walk stopped by itself\n",
                                canopy_unit::fmt_torus(size).c_str(), src, dst);
                    return 1;
                }
                const auto ref = canopy_unit::reference_route(size, coords_of(size, src), coords_of(size, dst));
                Coords at = coords_of(size, src);
                bool ok = w.hops.size() + 1 == ref.size();
                for (size_t i = 0; ok && i < w.hops.size(); i++) {
                    ok = w.hops[i].first == node_of(size, at) && w.hops[i].second == ref[i].port;
                    const unsigned d = ref[i].port / 2, k = size[d];
                    at[d] = ref[i].port % 2 == 0 ? (at[d] + 1) % k : (at[d] + k - 1) % k;
                }
                if (!ok) {
                    std::printf("route_test: %s %d -> %d: the walk is not the reference route\n",
                                canopy_unit::fmt_torus(size).c_str(), src, dst);
                    for (auto &h : w.hops) std::printf("  walked: node %d port %u\n", h.first, h.second);
                    for (size_t i = 0; i + 1 < ref.size(); i++) std::printf("  reference: port %u\n", ref[i].port);
                    return 1;
                }
                if (w.hops.size() >= 2) {  // stopped at its second hop: that hop's value, no further
                    Walk s;
                    s.stop_at = 1;
                    if (canopy_route_walk(static_cast<unsigned>(size.size()), size.data(), src, dst, record, &s) != 7 ||
                        s.hops.size() != 2) {
                        std::printf("route_test: %s %d -> %d: a stopped walk went on\n",
                                    canopy_unit::fmt_torus(size).c_str(), src, dst);
                        return 1;
                    }
                }
                pairs++;
                hops += static_cast<long>(w.hops.size());
            }
    }
    std::printf("route_test: %ld pairs on %zu tori, %ld hops, every one the routers' route\n", pairs, tori.size(), hops);
    return 0;
}
