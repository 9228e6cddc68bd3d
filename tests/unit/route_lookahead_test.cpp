// route_lookahead_test.cpp: exhaustive unit test of canopy_route_lookahead against a
// reference router.
//
// Why: with lookahead routing a router forwards an arriving head by the route its
// neighbour computed for it (the header's la_port / la_hi), so a wrong port or VC here is
// a wrong turn or a dateline VC lost one hop later: misrouted packets or a deadlock.
//
// What: for each torus below (sizes per dimension, X first; NumDims = number of
// dimensions, unused dimensions size 1 and coordinate 0): every torus with sizes 2..5 in
// 1, 2 and 3 dimensions, then a few with 4 dimensions and the extremes of 4-bit
// coordinates. For every (src, dst) pair the packet is walked hop by hop along the
// reference route (the same rules as route_dor_test.cpp, written from the routing rules,
// not from the RTL): dimensions in order X, Y, Z, W; in each the shorter way round the
// ring, a tie (half way on an even ring) going + toward an even destination coordinate;
// VC P2P_LO until the hop that crosses the ring's wrap-around link, P2P_HI from then on
// in that dimension, P2P_LO again on turning (unless that first hop crosses the new
// ring's dateline). At each router the block is given that router's coordinates, the
// port and VC the packet leaves on, and link_i computed here from the torus (neighbour
// coordinate, crossings) as the header comment defines it; it must answer the port and VC
// of the reference route's next hop, at the neighbour. When the neighbour is the
// destination the answer is its local port (2*NumDims) on VC 0, or for a broadcast
// request (ptype BCAST_REQ) its collective port (2*NumDims+1): that last hop is checked
// with a PUT, a BCAST_REQ and a REDUCE, every other hop with a PUT and a BCAST_REQ (which
// must not change the answer there). At the destination, and for the
// collective port, port_i is not a link and both outputs must be 0.
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
constexpr unsigned kLinkW    = 6;  // CoordBits + 2, per link of link_i
constexpr unsigned kLaW      = 4;  // canopy_pkg::HdrLaPortBits
constexpr unsigned kVcP2pLo  = canopy_unit::kRouteVcP2pLo;
constexpr unsigned kVcP2pHi  = canopy_unit::kRouteVcP2pHi;
constexpr unsigned kPtPut    = 1;  // canopy_pkg::PKT_PUT
constexpr unsigned kPtBcReq  = 3;  // canopy_pkg::PKT_BCAST_REQ
constexpr unsigned kPtReduce = 4;  // canopy_pkg::PKT_REDUCE
constexpr uint64_t kMaxEvals = 6000000;

std::vector<std::vector<unsigned>> tori() {
    std::vector<std::vector<unsigned>> t;
    for (unsigned a = 2; a <= 5; a++) {
        t.push_back({a});
        for (unsigned b = 2; b <= 5; b++) {
            t.push_back({a, b});
            for (unsigned c = 2; c <= 5; c++) t.push_back({a, b, c});
        }
    }
    for (const auto &x : std::vector<std::vector<unsigned>>{
             {2, 2, 2, 2}, {2, 3, 4, 5}, {3, 2, 2, 4}, {15}, {16}, {16, 16}, {16, 2, 3}})
        t.push_back(x);
    return t;
}

using canopy_unit::Coords;
using canopy_unit::Hop;
using canopy_unit::fmt_coords;
using canopy_unit::fmt_torus;
using canopy_unit::reference_route;

class LookaheadTest {
  public:
    LookaheadTest() : t_("route_lookahead", kMaxEvals), tb_(t_.context()) {}

    void run() {
        uint64_t walks = 0, hi_la = 0, turns = 0;
        for (const auto &size : tori()) {
            const unsigned nd = static_cast<unsigned>(size.size());
            Coords sz{1, 1, 1, 1};
            for (unsigned d = 0; d < nd; d++) sz[d] = size[d];
            for (unsigned d = 0; d < kMaxDims; d++)
                set_field(tb_.torus_size_i, d * kSizeW, kSizeW, sz[d]);
            const std::vector<Coords> nodes = all_nodes(sz);
            for (const Coords &src : nodes) {
                set_here(size, src);
                for (const Coords &dst : nodes) {
                    walk(size, src, dst, hi_la, turns);
                    walks++;
                }
            }
        }
        // The dateline and turn cases must have been exercised (a check of the test itself).
        if (walks == 0 || hi_la == 0 || turns == 0)
            t_.fail("coverage: %" PRIu64 " walks, %" PRIu64 " lookaheads on P2P_HI, %" PRIu64
                    " turns", walks, hi_la, turns);
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

    // This router's coordinates, and link_i from the torus: per link port p (dimension
    // p/2, + for even p), {my_cross, nbr_cross, nbr coordinate}.
    void set_here(const std::vector<unsigned> &size, const Coords &here) {
        tb_.my_coord_i = static_cast<uint16_t>(pack(here));
        for (unsigned p = 0; p < 2 * kMaxDims; p++) {
            uint64_t f = 0;
            if (p / 2 < size.size()) {
                const unsigned k = size[p / 2], my = here[p / 2];
                unsigned nbr;
                bool my_cross, nbr_cross;
                if (p % 2 == 0) {
                    nbr = (my + 1) % k;
                    my_cross = my == k - 1;
                    nbr_cross = nbr == k - 1;
                } else {
                    nbr = (my + k - 1) % k;
                    my_cross = my == 0;
                    nbr_cross = nbr == 0;
                }
                f = nbr | (uint64_t{nbr_cross} << kCoordW) | (uint64_t{my_cross} << (kCoordW + 1));
            }
            set_field(tb_.link_i, p * kLinkW, kLinkW, f);
        }
    }

    // Evaluates config nd-1 with the given port, VC and packet type.
    Hop eval(unsigned nd, unsigned port, unsigned hi, unsigned ptype) {
        tb_.port_i = static_cast<uint8_t>(port);
        tb_.hi_i = static_cast<uint8_t>(hi);
        tb_.ptype_i = static_cast<uint8_t>(ptype);
        tb_.eval();
        t_.tick();
        const unsigned cfg = nd - 1;
        return {static_cast<unsigned>(get_field(tb_.la_port_o, cfg * kLaW, kLaW)),
                static_cast<unsigned>(get_field(tb_.la_hi_o, cfg, 1))};
    }

    void expect(const Hop &got, const Hop &want, const std::vector<unsigned> &size,
                const Coords &src, const Coords &dst, size_t h, const Coords &here,
                unsigned port, unsigned hi, unsigned ptype) {
        if (got.port == want.port && got.vc == want.vc) return;
        const unsigned nd = static_cast<unsigned>(size.size());
        t_.fail("torus %s, %s -> %s, hop %zu at %s leaving on port %u vc %u, ptype %u: "
                "lookahead port %u vc %u, expected port %u vc %u",
                fmt_torus(size).c_str(), fmt_coords(src, nd).c_str(),
                fmt_coords(dst, nd).c_str(), h, fmt_coords(here, nd).c_str(), port, hi, ptype,
                got.port, got.vc, want.port, want.vc);
    }

    // Walks one packet along the reference route, checking the lookahead at every hop.
    void walk(const std::vector<unsigned> &size, const Coords &src, const Coords &dst,
              uint64_t &hi_la, uint64_t &turns) {
        const unsigned nd = static_cast<unsigned>(size.size());
        const unsigned local = 2 * nd, coll = 2 * nd + 1;
        const std::vector<Hop> route = reference_route(size, src, dst);
        tb_.dst_i = static_cast<uint16_t>(pack(dst));
        Coords here = src;
        for (size_t h = 0; h < route.size(); h++) {
            if (h > 0) set_here(size, here);
            const Hop out = route[h];
            if (out.port == local) {
                // Not a link: both outputs 0, for the local and the collective port.
                for (unsigned port : {local, coll})
                    for (unsigned hi : {0u, 1u})
                        expect(eval(nd, port, hi, kPtBcReq), {0, 0}, size, src, dst, h, here,
                               port, hi, kPtBcReq);
                break;
            }
            const Hop next = route[h + 1];
            if (next.port == local) {
                // Arrival at the neighbour: local port, or the collective port for a
                // broadcast request to its root.
                for (unsigned pt : {kPtPut, kPtBcReq, kPtReduce})
                    expect(eval(nd, out.port, out.vc, pt), {pt == kPtBcReq ? coll : local, 0},
                           size, src, dst, h, here, out.port, out.vc, pt);
            } else {
                // The packet type matters only on arrival.
                for (unsigned pt : {kPtPut, kPtBcReq})
                    expect(eval(nd, out.port, out.vc, pt), next, size, src, dst, h, here,
                           out.port, out.vc, pt);
                hi_la += next.vc == kVcP2pHi;
                turns += next.port / 2 != out.port / 2;
            }
            const unsigned d = out.port / 2, k = size[d];
            here[d] = (out.port & 1u) ? (here[d] + k - 1) % k : (here[d] + 1) % k;
        }
        if (here != dst)
            t_.fail("torus %s, %s -> %s: reference route ends at %s", fmt_torus(size).c_str(),
                    fmt_coords(src, nd).c_str(), fmt_coords(dst, nd).c_str(),
                    fmt_coords(here, nd).c_str());
        set_here(size, src);
    }

    UnitTest t_;
    Vtb tb_;
};

}  // namespace

int main() {
    LookaheadTest test;
    test.run();
}
