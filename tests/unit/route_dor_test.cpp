// route_dor_test.cpp: exhaustive unit test of canopy_route_dor against a reference router.
//
// Why: routing decides deadlock freedom. Dimension order keeps the rings from depending
// on each other, and the dateline VCs keep each ring's channel dependencies from closing
// a cycle; a wrong port or a wrong VC on one hop of one pair is enough to lose either.
//
// What: for each torus below (sizes per dimension, X first; NumDims = number of
// dimensions, unused dimensions size 1 and coordinate 0) and every (src, dst) pair, the
// packet is walked hop by hop through the block: injected at src on the local port on VC
// 0 (P2P_LO), each output port taken to the neighbour it faces (port 2d: coordinate d + 1
// mod k, arriving on that neighbour's port 2d+1; port 2d+1: - 1, arriving on port 2d),
// with the VC it left on. At every hop port and VC must match the reference model,
// written from the routing rules, not from the RTL:
//   - dimensions resolved in order X, Y, Z, W; in each, the shorter way round the ring,
//     a tie (exactly half way on an even ring) going + toward an even destination
//     coordinate, - toward an odd one;
//   - the packet leaves on the local port exactly when it is at dst (ejection, on
//     P2P_LO, the block's default);
//   - VC: P2P_LO until the hop that crosses the ring's wrap-around link (between
//     coordinate k-1 and 0, either direction), P2P_HI from that hop on while the packet
//     continues in the same dimension, P2P_LO again on turning into a new dimension
//     (unless that first hop itself crosses the new ring's dateline).
// Independently of the model, every walk must end at dst after exactly the minimal
// number of hops (the sum over dimensions of the shorter distance round each ring).
// The model comparison bounds every walk; the watchdog bounds the whole run.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "Vtb.h"
#include "route_ref.hpp"
#include "unit_common.hpp"

namespace {

using canopy_unit::UnitTest;
using canopy_unit::get_field;
using canopy_unit::set_field;

constexpr unsigned kMaxDims  = canopy_unit::kRouteMaxDims;
constexpr unsigned kCoordW   = 4;  // canopy_pkg::CoordBits
constexpr unsigned kSizeW    = 5;  // CoordBits + 1, per dimension of torus_size_i
constexpr unsigned kPortW    = 4;  // out_port_o padding per config in the test top
constexpr unsigned kVcW      = 2;  // $clog2(canopy_pkg::MinVcs)
constexpr unsigned kVcP2pLo  = canopy_unit::kRouteVcP2pLo;
constexpr unsigned kVcP2pHi  = canopy_unit::kRouteVcP2pHi;
constexpr uint64_t kMaxEvals = 4000000;

// The tori of the brief, then the extremes of 4-bit coordinates.
const std::vector<std::vector<unsigned>> kTori = {
    {2}, {3}, {4}, {5},
    {2, 2}, {3, 3}, {4, 4}, {3, 4},
    {2, 2, 2}, {2, 3, 4},
    {2, 2, 2, 2},
    {15}, {16}, {16, 16}, {2, 3, 4, 5},
};

using canopy_unit::Coords;
using canopy_unit::Hop;
using canopy_unit::fmt_coords;
using canopy_unit::fmt_torus;
using canopy_unit::reference_route;

// Minimal hop count, from distances alone.
unsigned min_hops(const std::vector<unsigned> &size, const Coords &a, const Coords &b) {
    unsigned n = 0;
    for (size_t d = 0; d < size.size(); d++) {
        const unsigned k = size[d];
        const unsigned fwd = (b[d] + k - a[d]) % k, back = (a[d] + k - b[d]) % k;
        n += fwd < back ? fwd : back;
    }
    return n;
}

class RouteTest {
  public:
    RouteTest() : t_("route_dor", kMaxEvals), tb_(t_.context()) {}

    void run() {
        uint64_t walks = 0, hi_hops = 0;
        for (const auto &size : kTori) {
            const unsigned nd = static_cast<unsigned>(size.size());
            Coords sz{1, 1, 1, 1};
            for (unsigned d = 0; d < nd; d++) sz[d] = size[d];
            for (unsigned d = 0; d < kMaxDims; d++)
                set_field(tb_.torus_size_i, d * kSizeW, kSizeW, sz[d]);
            const std::vector<Coords> nodes = all_nodes(sz);
            for (const Coords &src : nodes) {
                for (const Coords &dst : nodes) {
                    hi_hops += walk(size, src, dst);
                    walks++;
                }
            }
        }
        // The dateline rule must have been exercised (a sanity check of the test itself).
        if (walks == 0 || hi_hops == 0)
            t_.fail("coverage: %" PRIu64 " walks, %" PRIu64 " hops on P2P_HI", walks, hi_hops);
        t_.pass();
    }

  private:
    static std::vector<Coords> all_nodes(const Coords &sz) {
        std::vector<Coords> nodes;
        Coords c{0, 0, 0, 0};
        for (;;) {
            nodes.push_back(c);
            unsigned d = 0;
            while (d < kMaxDims && ++c[d] == sz[d]) c[d++] = 0;
            if (d == kMaxDims) return nodes;
        }
    }

    static uint64_t pack(const Coords &c) {
        uint64_t v = 0;
        for (unsigned d = 0; d < kMaxDims; d++) v |= static_cast<uint64_t>(c[d]) << (d * kCoordW);
        return v;
    }

    // Walks one packet through the block; returns the number of hops taken on P2P_HI.
    uint64_t walk(const std::vector<unsigned> &size, const Coords &src, const Coords &dst) {
        const unsigned nd = static_cast<unsigned>(size.size());
        const unsigned cfg = nd - 1;
        const unsigned local = 2 * nd;
        const std::vector<Hop> want = reference_route(size, src, dst);
        Coords here = src;
        unsigned in_port = local, in_vc = kVcP2pLo;
        uint64_t hi = 0;
        tb_.dst_i = static_cast<uint16_t>(pack(dst));
        for (size_t h = 0;; h++) {
            tb_.my_coord_i = static_cast<uint16_t>(pack(here));
            tb_.in_port_i = static_cast<uint8_t>(in_port);
            tb_.in_vc_i = static_cast<uint8_t>(in_vc);
            tb_.eval();
            t_.tick();
            const unsigned port =
                static_cast<unsigned>(get_field(tb_.out_port_o, cfg * kPortW, kPortW));
            const unsigned vc = static_cast<unsigned>(get_field(tb_.out_vc_o, cfg * kVcW, kVcW));
            // The model's route ends with the ejection, so a walk that should have ended
            // (or loops) fails here at the latest.
            if (h >= want.size() || port != want[h].port || vc != want[h].vc) {
                t_.fail("torus %s, %s -> %s, hop %zu at %s (in port %u vc %u): "
                        "got port %u vc %u, expected %s",
                        fmt_torus(size).c_str(), fmt_coords(src, nd).c_str(),
                        fmt_coords(dst, nd).c_str(), h, fmt_coords(here, nd).c_str(), in_port,
                        in_vc, port, vc,
                        h < want.size() ? ("port " + std::to_string(want[h].port) + " vc " +
                                           std::to_string(want[h].vc)).c_str()
                                        : "the walk to have ended");
            }
            if (port == local) {
                if (here != dst || h != min_hops(size, src, dst))
                    t_.fail("torus %s, %s -> %s: ejected at %s after %zu hops, minimal is %u",
                            fmt_torus(size).c_str(), fmt_coords(src, nd).c_str(),
                            fmt_coords(dst, nd).c_str(), fmt_coords(here, nd).c_str(), h,
                            min_hops(size, src, dst));
                return hi;
            }
            // Take the link: port 2d goes to +1 in dimension d and arrives on the
            // neighbour's port 2d+1; port 2d+1 goes to -1 and arrives on port 2d.
            const unsigned d = port / 2, k = size[d];
            here[d] = (port & 1u) ? (here[d] + k - 1) % k : (here[d] + 1) % k;
            in_port = port ^ 1u;
            in_vc = vc;
            hi += vc == kVcP2pHi;
        }
    }

    UnitTest t_;
    Vtb tb_;
};

}  // namespace

int main() {
    RouteTest test;
    test.run();
}
