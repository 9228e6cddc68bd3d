// switch_alloc_test.cpp: unit test of canopy_switch_alloc (stage 2: which staged flit each
// output takes) against a model.
//
// Why: the switch allocator is where the router's flow control is enforced (no flit
// without a credit, no head onto a VC another packet owns) and where its fairness comes
// from; two grants at one output, or one input granted twice, corrupt or duplicate flits.
//
// What: NumDims 1 and 3 at once (see canopy_unit_switch_alloc_tb.sv), random stimulus
// from a fixed seed that obeys the contract (an input's target one-hot and equal to its
// encoded port, never its own link port; the up lane targets one link), in phases that
// rotate through
//   chaos     fresh random requests, credits (avail_i) and ownership (busy_i) every cycle;
//   persist   inputs and lanes hold their request until granted, then may raise a new
//             one; credits and ownership random;
//   saturate  as persist, every VC with a credit and unowned, every requester refilled at
//             once (every output contended every cycle);
//   hotspot   as saturate, but every requester that can reach one link output asks for it
//             (the others, the down lanes of other ports, anywhere): the longest waits.
// The model computes each request's eligibility from the contract alone (the output VC:
// P2P_LO/P2P_HI by in_hi_i, COLL_UP/COLL_DOWN on the collective port; a credit; for an
// input's head, no owner; the down lane on COLL_DOWN, the up lane on COLL_UP) and per
// output a least-recently-granted priority list (out of reset 0, 1, ...; the winner goes to
// the end whenever the output grants). Every cycle, for every config and output:
//   - grant_o is one-hot or zero, granted only to an eligible requester, zero only
//     without one, and equal to the model's; grant_idx_o names it;
//   - no requester is granted two outputs (the up lane, an input);
//   - in_elig_o, in_won_o, lane_grant_o, up_grant_o agree with the requests and grants;
//   - fairness: while a request stays eligible, the output grants others at most
//     (requesters that can ever reach that output) - 1 times before it.
// Coverage: every config must have seen a request wait that full bound, and many grants
// of each requester kind.
#include <cstdint>
#include <string>
#include <vector>

#include "Vtb.h"
#include "unit_common.hpp"

namespace {

using canopy_unit::Rng;
using canopy_unit::UnitTest;
using canopy_unit::get_field;
using canopy_unit::set_field;

// The configuration table of canopy_unit_switch_alloc_tb.sv, same order.
constexpr unsigned kNumCfg   = 2;
constexpr unsigned kNumVcs   = 4;
constexpr unsigned kMaxPorts = 7;
constexpr unsigned kMaxOut   = 8;
constexpr unsigned kMaxReq   = 9;
constexpr unsigned kMaxPortW = 3;
constexpr unsigned kMaxIdxW  = 4;
constexpr unsigned kNumDims[kNumCfg] = {1, 3};
constexpr unsigned kVcCollUp = 2, kVcCollDown = 3;  // canopy_pkg

constexpr uint64_t kSeed   = 0x5a11a0c0ffee0021ull;
constexpr uint64_t kPhases = 90;
constexpr uint64_t kPhase  = 400;  // cycles per phase

enum class Phase { Chaos, Persist, Saturate, Hotspot };
constexpr Phase kRotation[] = {Phase::Chaos, Phase::Persist, Phase::Saturate, Phase::Hotspot};
constexpr unsigned kRotationLen = sizeof kRotation / sizeof kRotation[0];

struct Request {
    bool valid = false, hi = false, head = false;
    unsigned out = 0;
};

struct Lane {
    unsigned nd = 0, ports = 0, outs = 0, nreq = 0, links = 0;
    std::vector<std::vector<unsigned>> order;  // per output: LRG list, highest first
    std::vector<std::vector<int>> waited;      // per output, requester: grants to others
    std::vector<Request> in;                   // per input port
    std::vector<bool> lane;                    // per port: the down lane
    bool up = false;
    unsigned up_out = 0;
    unsigned hot = 0;                          // hotspot phase: the link output asked for
    uint32_t avail[kMaxOut] = {}, busy[kMaxOut] = {};
    // coverage
    int max_wait = 0, bound = 0;
    uint64_t in_grants = 0, lane_grants = 0, up_grants = 0;
};

class SwitchAllocTest {
  public:
    SwitchAllocTest() : t_("switch_alloc", kPhases * kPhase + 16), tb_(t_.context()), rng_(kSeed) {
        for (unsigned k = 0; k < kNumCfg; k++) {
            Lane &l = lanes_[k];
            l.nd = kNumDims[k];
            l.links = 2 * l.nd;
            l.ports = l.links + 1;
            l.outs = l.ports + 1;
            l.nreq = l.ports + 2;
            l.order.assign(l.outs, {});
            for (auto &o : l.order)
                for (unsigned r = 0; r < l.nreq; r++) o.push_back(r);
            l.waited.assign(l.outs, std::vector<int>(l.nreq, -1));
            l.in.assign(l.ports, {});
            l.lane.assign(l.ports, false);
            // The largest bound: a link output reached by every other input and both lanes.
            l.bound = static_cast<int>(reachable(l, 0)) - 1;
        }
    }

    void run() {
        reset();
        for (uint64_t ph = 0; ph < kPhases; ph++) {
            const Phase phase = kRotation[ph % kRotationLen];
            const unsigned density = 10 + rng_.below(90), avail = 30 + rng_.below(71),
                           busy = rng_.below(60);
            for (Lane &l : lanes_) l.hot = rng_.below(l.links);
            for (uint64_t c = 0; c < kPhase; c++) cycle(phase, density, avail, busy);
        }
        for (unsigned k = 0; k < kNumCfg; k++) {
            const Lane &l = lanes_[k];
            if (l.max_wait != l.bound || l.in_grants < 1000 || l.lane_grants < 100 ||
                l.up_grants < 100)
                t_.fail("NumDims %u: coverage too low: longest wait %d grants (bound %d), %" PRIu64
                        " input, %" PRIu64 " lane, %" PRIu64 " up-lane grants", l.nd, l.max_wait,
                        l.bound, l.in_grants, l.lane_grants, l.up_grants);
        }
        t_.pass();
    }

  private:
    // Requesters that can ever request output o: inputs except o itself on a link, the
    // down lane on a port, the up lane on a link.
    static unsigned reachable(const Lane &l, unsigned o) {
        return l.ports - (o < l.links ? 1 : 0) + (o < l.ports ? 1 : 0) + (o < l.links ? 1 : 0);
    }

    void reset() {
        tb_.rst_i = 1;
        for (int i = 0; i < 2; i++) {
            tb_.clk_i = 0;
            tb_.eval();
            tb_.clk_i = 1;
            tb_.eval();
            t_.tick();
        }
        tb_.rst_i = 0;
    }

    Request random_request(const Lane &l, unsigned i, bool hotspot) {
        Request r;
        r.valid = true;
        if (hotspot && i != l.hot) r.out = l.hot;
        else do r.out = rng_.below(l.outs);
        while (i < l.links && r.out == i);  // never back out of its own link
        r.hi = rng_.chance(50);
        r.head = rng_.chance(50);
        return r;
    }

    void stimulus(Lane &l, Phase phase, unsigned density, unsigned avail, unsigned busy) {
        const bool hold = phase != Phase::Chaos;
        const bool hotspot = phase == Phase::Hotspot;
        const bool full = phase == Phase::Saturate || hotspot;
        const unsigned dens = full ? 100 : density;
        for (unsigned i = 0; i < l.ports; i++) {
            if (!(hold && l.in[i].valid))
                l.in[i] = rng_.chance(dens) ? random_request(l, i, hotspot) : Request{};
            if (!(hold && l.lane[i])) l.lane[i] = rng_.chance(dens);
        }
        if (!(hold && l.up)) {
            l.up = rng_.chance(dens);
            l.up_out = hotspot ? l.hot : rng_.below(l.links);
        }
        for (unsigned o = 0; o < kMaxOut; o++) {
            l.avail[o] = l.busy[o] = 0;
            for (unsigned c = 0; c < kNumVcs; c++) {
                if (full || rng_.chance(avail)) l.avail[o] |= 1u << c;
                if (!full && rng_.chance(busy)) l.busy[o] |= 1u << c;
            }
        }
    }

    void drive(unsigned k, const Lane &l) {
        for (unsigned i = 0; i < kMaxPorts; i++) {
            const unsigned b = k * kMaxPorts + i;
            const Request r = i < l.ports ? l.in[i] : Request{};
            set_field(tb_.in_tgt_i, b * kMaxOut, kMaxOut,
                      i >= l.ports ? rng_.bits(kMaxOut) : r.valid ? 1u << r.out : 0);
            // Without a request the encoded port is anything.
            set_field(tb_.in_port_i, b * kMaxPortW, kMaxPortW,
                      r.valid ? r.out : rng_.bits(kMaxPortW) % l.outs);
            set_field(tb_.in_hi_i, b, 1, r.valid ? r.hi : rng_.bits(1));
            set_field(tb_.in_head_i, b, 1, r.valid ? r.head : rng_.bits(1));
            set_field(tb_.lane_valid_i, b, 1, i < l.ports ? l.lane[i] : rng_.bits(1));
        }
        set_field(tb_.up_valid_i, k, 1, l.up);
        set_field(tb_.up_tgt_i, k * kMaxOut, kMaxOut, l.up ? 1u << l.up_out : rng_.bits(kMaxOut));
        for (unsigned o = 0; o < kMaxOut; o++) {
            set_field(tb_.avail_i, (k * kMaxOut + o) * kNumVcs, kNumVcs, l.avail[o]);
            set_field(tb_.busy_i, (k * kMaxOut + o) * kNumVcs, kNumVcs, l.busy[o]);
        }
    }

    // Eligible requests, from the contract: req[o] bit r.
    std::vector<uint32_t> requests(const Lane &l) {
        std::vector<uint32_t> req(l.outs, 0);
        for (unsigned i = 0; i < l.ports; i++) {
            const Request &r = l.in[i];
            if (!r.valid) continue;
            const unsigned c = (r.out == l.ports ? kVcCollUp : 0) + (r.hi ? 1 : 0);
            const bool credit = (l.avail[r.out] >> c) & 1u;
            const bool owned = (l.busy[r.out] >> c) & 1u;
            if (credit && !(r.head && owned)) req[r.out] |= 1u << i;
        }
        for (unsigned o = 0; o < l.ports; o++)
            if (l.lane[o] && ((l.avail[o] >> kVcCollDown) & 1u)) req[o] |= 1u << l.ports;
        if (l.up && ((l.avail[l.up_out] >> kVcCollUp) & 1u)) req[l.up_out] |= 1u << (l.ports + 1);
        return req;
    }

    void cycle(Phase phase, unsigned density, unsigned avail, unsigned busy) {
        std::vector<uint32_t> req[kNumCfg];
        for (unsigned k = 0; k < kNumCfg; k++) {
            stimulus(lanes_[k], phase, density, avail, busy);
            drive(k, lanes_[k]);
            req[k] = requests(lanes_[k]);
        }
        tb_.clk_i = 0;
        tb_.eval();
        for (unsigned k = 0; k < kNumCfg; k++) check(k, req[k]);
        tb_.clk_i = 1;
        tb_.eval();
        t_.tick();
    }

    void check(unsigned k, const std::vector<uint32_t> &req) {
        Lane &l = lanes_[k];
        const uint64_t cyc = t_.ticks();
        uint32_t won_inputs = 0, won_lanes = 0;
        unsigned up_wins = 0;
        for (unsigned o = 0; o < l.outs; o++) {
            const uint32_t g = static_cast<uint32_t>(
                get_field(tb_.grant_o, (k * kMaxOut + o) * kMaxReq, kMaxReq));
            const unsigned idx = static_cast<unsigned>(
                get_field(tb_.grant_idx_o, (k * kMaxOut + o) * kMaxIdxW, kMaxIdxW));
            if ((g & (g - 1)) != 0)
                t_.fail("NumDims %u cycle %" PRIu64 " output %u: grant 0x%x not one-hot (eligible "
                        "0x%x)", l.nd, cyc, o, g, req[o]);
            if ((g & ~req[o]) != 0)
                t_.fail("NumDims %u cycle %" PRIu64 " output %u: grant 0x%x to a requester not "
                        "eligible (eligible 0x%x)", l.nd, cyc, o, g, req[o]);
            if ((g == 0) != (req[o] == 0))
                t_.fail("NumDims %u cycle %" PRIu64 " output %u: grant 0x%x for eligible 0x%x",
                        l.nd, cyc, o, g, req[o]);
            if (g != 0 && (g >> idx) != 1u)
                t_.fail("NumDims %u cycle %" PRIu64 " output %u: grant_idx_o %u but grant 0x%x",
                        l.nd, cyc, o, idx, g);
            int want = -1;
            for (unsigned r : l.order[o])
                if ((req[o] >> r) & 1u) {
                    want = static_cast<int>(r);
                    break;
                }
            const uint32_t want_mask = want < 0 ? 0 : 1u << want;
            if (g != want_mask) {
                std::string ord;
                for (unsigned r : l.order[o]) ord += (ord.empty() ? "" : ",") + std::to_string(r);
                t_.fail("NumDims %u cycle %" PRIu64 " output %u: grant 0x%x, priority list [%s] "
                        "gives 0x%x (eligible 0x%x)", l.nd, cyc, o, g, ord.c_str(), want_mask,
                        req[o]);
            }
            // No requester granted twice.
            const uint32_t in_bits = g & ((1u << l.ports) - 1);
            if (won_inputs & in_bits)
                t_.fail("NumDims %u cycle %" PRIu64 ": input granted two outputs (grant 0x%x at "
                        "output %u)", l.nd, cyc, g, o);
            won_inputs |= in_bits;
            if ((g >> l.ports) & 1u) won_lanes |= 1u << o;
            up_wins += (g >> (l.ports + 1)) & 1u;
            // Fairness bookkeeping and the model's priority.
            for (unsigned r = 0; r < l.nreq; r++) {
                int &w = l.waited[o][r];
                if (w < 0) w = 0;
                if (!((req[o] >> r) & 1u)) {
                    w = -1;
                } else if (static_cast<int>(r) == want) {
                    w = -1;
                } else if (++w > static_cast<int>(reachable(l, o)) - 1) {
                    t_.fail("NumDims %u cycle %" PRIu64 " output %u: requester %u passed over %d "
                            "times while eligible", l.nd, cyc, o, r, w);
                } else if (w > l.max_wait) {
                    l.max_wait = w;
                }
            }
            if (want >= 0) {
                auto &ord = l.order[o];
                for (size_t p = 0; p < ord.size(); p++)
                    if (ord[p] == static_cast<unsigned>(want)) {
                        ord.erase(ord.begin() + static_cast<long>(p));
                        break;
                    }
                ord.push_back(static_cast<unsigned>(want));
            }
        }
        if (up_wins > 1)
            t_.fail("NumDims %u cycle %" PRIu64 ": the up lane granted %u outputs", l.nd, cyc,
                    up_wins);
        // Per-input and lane outputs.
        const uint32_t elig = static_cast<uint32_t>(get_field(tb_.in_elig_o, k * kMaxPorts, kMaxPorts));
        const uint32_t won = static_cast<uint32_t>(get_field(tb_.in_won_o, k * kMaxPorts, kMaxPorts));
        const uint32_t lg = static_cast<uint32_t>(get_field(tb_.lane_grant_o, k * kMaxPorts, kMaxPorts));
        const bool ug = get_field(tb_.up_grant_o, k, 1);
        uint32_t want_elig = 0;
        for (unsigned o = 0; o < l.outs; o++) want_elig |= req[o] & ((1u << l.ports) - 1);
        if (elig != want_elig || won != won_inputs || lg != won_lanes || ug != (up_wins == 1))
            t_.fail("NumDims %u cycle %" PRIu64 ": in_elig_o 0x%x in_won_o 0x%x lane_grant_o 0x%x "
                    "up_grant_o %d, expected 0x%x 0x%x 0x%x %d", l.nd, cyc, elig, won, lg, ug,
                    want_elig, won_inputs, won_lanes, up_wins == 1);
        // Granted requests leave.
        for (unsigned i = 0; i < l.ports; i++) {
            if ((won_inputs >> i) & 1u) l.in[i].valid = false;
            if ((won_lanes >> i) & 1u) l.lane[i] = false;
        }
        if (up_wins) l.up = false;
        l.in_grants += static_cast<uint64_t>(__builtin_popcount(won_inputs));
        l.lane_grants += static_cast<uint64_t>(__builtin_popcount(won_lanes));
        l.up_grants += up_wins;
    }

    UnitTest t_;
    Vtb tb_;
    Rng rng_;
    Lane lanes_[kNumCfg];
};

}  // namespace

int main() {
    SwitchAllocTest test;
    test.run();
}
