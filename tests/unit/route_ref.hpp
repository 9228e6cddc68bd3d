// route_ref.hpp: the unit tests' reference for point-to-point routes (dimension order, the
// shorter way round each ring, ties split by the destination's parity, P2P_HI from the
// dateline hop to the end of the dimension), shared by route_dor_test and
// route_lookahead_test. sim/fabric.cpp's Topology::route is the same rule for the fabric
// harness; docs/router.md states it.
#pragma once

#include <array>
#include <string>
#include <vector>

namespace canopy_unit {

constexpr unsigned kRouteMaxDims = 4;
constexpr unsigned kRouteVcP2pLo = 0;  // canopy_pkg::VcP2pLo
constexpr unsigned kRouteVcP2pHi = 1;  // canopy_pkg::VcP2pHi

using Coords = std::array<unsigned, kRouteMaxDims>;

struct Hop {
    unsigned port, vc;
};

inline std::string fmt_coords(const Coords &c, unsigned nd) {
    std::string s = "(";
    for (unsigned d = 0; d < nd; d++) s += (d ? "," : "") + std::to_string(c[d]);
    return s + ")";
}

inline std::string fmt_torus(const std::vector<unsigned> &size) {
    std::string s;
    for (size_t d = 0; d < size.size(); d++) s += (d ? "x" : "") + std::to_string(size[d]);
    return s;
}

// The hops (output port, VC) of the route from `at` to dst, the last one the ejection
// (port 2*NumDims, VC P2P_LO).
inline std::vector<Hop> reference_route(const std::vector<unsigned> &size, Coords at,
                                        const Coords &dst) {
    const unsigned nd = static_cast<unsigned>(size.size());
    std::vector<Hop> hops;
    for (unsigned d = 0; d < nd; d++) {
        const unsigned k = size[d];
        const unsigned ahead = (dst[d] + k - at[d]) % k;  // hops needed going +
        if (ahead == 0) continue;
        // the shorter way; a tie goes + toward an even coordinate, - toward an odd one
        const bool plus = 2 * ahead < k || (2 * ahead == k && dst[d] % 2 == 0);
        unsigned vc = kRouteVcP2pLo;       // every dimension starts on P2P_LO
        for (unsigned n = plus ? ahead : k - ahead; n > 0; n--) {
            const bool crosses_dateline = plus ? at[d] == k - 1 : at[d] == 0;
            if (crosses_dateline) vc = kRouteVcP2pHi;
            hops.push_back({2 * d + (plus ? 0u : 1u), vc});
            at[d] = plus ? (at[d] + 1) % k : (at[d] + k - 1) % k;
        }
    }
    hops.push_back({2 * nd, kRouteVcP2pLo});
    return hops;
}

}  // namespace canopy_unit
