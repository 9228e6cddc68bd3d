// lrg_arbiter_test.cpp: unit test of canopy_lrg_arbiter against a least-recently-granted
// model.
//
// Why: every output of the router's switch allocator (canopy_switch_alloc) is a
// canopy_lrg_arbiter; the router's freedom from starvation rests on its fairness, and its
// datapath on the grant being one-hot and requested.
//
// What: NumReq 2, 3, 7 and 9 at once (see canopy_unit_lrg_arbiter_tb.sv), random stimulus
// from a fixed seed, in phases that rotate through
//   all      every requester requests, advance every cycle;
//   all+hold every requester requests, advance_i random (a grant not used);
//   persist  requesters raise a request at random and hold it until served (as a VC with
//            a packet does), advance_i random;
//   chaos    fresh random requests every cycle, advance_i random;
//   frozen   random requests, advance_i never.
// Every cycle, for every config:
//   - grant_o is one-hot, requested, and zero only without requests; grant_idx_o names it;
//   - grant_o equals the model's: the model keeps the requesters in a priority list (out of
//     reset 0, 1, ..., N-1); the grant is the first requester in the list; on advance_i
//     the winner moves to the end of the list (least recently granted first);
//   - priority does not move without advance_i: the same requests as the cycle before,
//     with no advance in between, get the same grant (checked without the model);
//   - the winner of a used grant is the lowest priority: in the next cycle it is granted
//     only if no other requester requests (checked without the model);
//   - while a requester requests continuously, at most N-1 grants (advances) go to others
//     before it is served (N = NumReq), i.e. it waits no more than N grants;
//   - in the all-requesting phases, every N consecutive advances grant each requester
//     exactly once.
// Coverage: each config must have seen many full windows and a requester wait the full
// N-1 grants (the bound is tight, so the check is exercised at its limit).
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

// The configuration table of canopy_unit_lrg_arbiter_tb.sv, same order.
constexpr unsigned kNumCfg = 4;
constexpr unsigned kMaxReq = 9;   // request/grant padding per config
constexpr unsigned kIdxW   = 4;   // grant index padding per config
constexpr unsigned kNumReq[kNumCfg] = {2, 3, 7, 9};

constexpr uint64_t kSeed       = 0x1a6a7b17e4c0ff03ull;
constexpr uint64_t kPhases     = 100;
constexpr uint64_t kPhase      = 300;  // cycles per phase
constexpr uint64_t kMinWindows = 100;  // per config: fairness windows checked

enum class Phase { All, AllHold, Persist, Chaos, Frozen };
constexpr Phase kRotation[] = {Phase::All, Phase::Chaos, Phase::AllHold, Phase::Persist,
                               Phase::Frozen};
constexpr unsigned kRotationLen = sizeof kRotation / sizeof kRotation[0];

// Reference model: the requesters in priority order, highest first; the grant is the first
// requester in the list. -1: no request.
int model_grant(uint32_t req, const std::vector<unsigned> &order) {
    for (unsigned i : order)
        if ((req >> i) & 1u) return static_cast<int>(i);
    return -1;
}

// A used grant: the winner goes to the end of the list.
void model_advance(std::vector<unsigned> &order, unsigned winner) {
    for (size_t p = 0; p < order.size(); p++) {
        if (order[p] == winner) {
            order.erase(order.begin() + static_cast<long>(p));
            break;
        }
    }
    order.push_back(winner);
}

// One arbiter under test: model, requester state, fairness bookkeeping, coverage.
struct Lane {
    unsigned n = 0;
    std::vector<unsigned> order;  // model priority list, highest first
    int last_winner = -1;         // winner of last cycle's used grant, or -1
    uint32_t held = 0;            // persist phase: requests waiting to be served
    std::vector<int> waited;      // per requester: grants to others while requesting, or -1
    std::vector<unsigned> window; // all-requesting phases: grants per requester this window
    unsigned window_advances = 0;
    bool have_prev = false;       // last cycle: no advance, these requests, this grant
    uint32_t prev_req = 0, prev_grant = 0;
    uint64_t windows = 0;         // coverage
    int max_waited = 0;
};

class ArbiterTest {
  public:
    ArbiterTest() : t_("lrg_arbiter", kPhases * kPhase + 16), tb_(t_.context()), rng_(kSeed) {
        for (unsigned k = 0; k < kNumCfg; k++) {
            lanes_[k].n = kNumReq[k];
            for (unsigned i = 0; i < kNumReq[k]; i++) lanes_[k].order.push_back(i);
            lanes_[k].waited.assign(kNumReq[k], -1);
            lanes_[k].window.assign(kNumReq[k], 0);
        }
    }

    void run() {
        reset();
        for (uint64_t ph = 0; ph < kPhases; ph++) {
            const Phase phase = kRotation[ph % kRotationLen];
            for (Lane &l : lanes_) {
                l.window.assign(l.n, 0);  // fairness windows start with the phase
                l.window_advances = 0;
                l.held = 0;
            }
            // Per phase, random densities, so some phases are sparse and some crowded.
            const unsigned density = 10 + rng_.below(80), advance = 20 + rng_.below(80);
            for (uint64_t c = 0; c < kPhase; c++) cycle(phase, density, advance);
        }
        for (unsigned k = 0; k < kNumCfg; k++) {
            const Lane &l = lanes_[k];
            if (l.windows < kMinWindows || l.max_waited != static_cast<int>(l.n) - 1)
                t_.fail("NumReq %u: coverage too low: %" PRIu64
                        " fairness windows, longest wait %d grants",
                        l.n, l.windows, l.max_waited);
        }
        t_.pass();
    }

  private:
    void reset() {
        tb_.rst_i = 1;
        tb_.req_i = 0;
        tb_.advance_i = 0;
        for (int i = 0; i < 2; i++) {
            tb_.clk_i = 0;
            tb_.eval();
            tb_.clk_i = 1;
            tb_.eval();
            t_.tick();
        }
        tb_.rst_i = 0;
    }

    uint32_t requests(Lane &l, Phase phase, unsigned density) {
        const uint32_t all = (1u << l.n) - 1;
        switch (phase) {
        case Phase::All:
        case Phase::AllHold:
            return all;
        case Phase::Persist:
            for (unsigned i = 0; i < l.n; i++)
                if (rng_.chance(density / 4)) l.held |= 1u << i;
            return l.held;
        case Phase::Chaos:
        case Phase::Frozen:
            break;
        }
        uint32_t req = 0;
        for (unsigned i = 0; i < l.n; i++)
            if (rng_.chance(density)) req |= 1u << i;
        return req;
    }

    void cycle(Phase phase, unsigned density, unsigned advance_pct) {
        uint32_t req[kNumCfg];
        int want[kNumCfg];
        bool adv[kNumCfg];
        for (unsigned k = 0; k < kNumCfg; k++) {
            Lane &l = lanes_[k];
            req[k] = requests(l, phase, density);
            want[k] = model_grant(req[k], l.order);
            // advance_i only with a grant (the block asserts that).
            adv[k] = want[k] >= 0 &&
                     (phase == Phase::All ||
                      (phase != Phase::Frozen && rng_.chance(advance_pct)));
            set_field(tb_.req_i, k * kMaxReq, kMaxReq, req[k]);
            set_field(tb_.advance_i, k, 1, adv[k]);
        }
        tb_.clk_i = 0;
        tb_.eval();
        for (unsigned k = 0; k < kNumCfg; k++) check(k, phase, req[k], want[k], adv[k]);
        tb_.clk_i = 1;
        tb_.eval();
        t_.tick();
        for (unsigned k = 0; k < kNumCfg; k++) {
            Lane &l = lanes_[k];
            l.last_winner = adv[k] ? want[k] : -1;
            if (adv[k]) {
                model_advance(l.order, static_cast<unsigned>(want[k]));
                l.held &= ~(1u << want[k]);
            }
        }
    }

    // Checks config k's outputs for this cycle (before the edge), then does the fairness
    // bookkeeping for the edge to come.
    void check(unsigned k, Phase phase, uint32_t req, int want, bool adv) {
        Lane &l = lanes_[k];
        const uint32_t grant = static_cast<uint32_t>(get_field(tb_.grant_o, k * kMaxReq, kMaxReq));
        const unsigned idx = static_cast<unsigned>(get_field(tb_.grant_idx_o, k * kIdxW, kIdxW));
        const uint64_t cyc = t_.ticks();

        // Model-free properties.
        if ((grant & (grant - 1)) != 0)
            t_.fail("NumReq %u cycle %" PRIu64 ": grant 0x%x not one-hot (req 0x%x)", l.n, cyc,
                    grant, req);
        if ((grant & ~req) != 0)
            t_.fail("NumReq %u cycle %" PRIu64 ": grant 0x%x not requested (req 0x%x)", l.n, cyc,
                    grant, req);
        if ((grant == 0) != (req == 0))
            t_.fail("NumReq %u cycle %" PRIu64 ": grant 0x%x for req 0x%x", l.n, cyc, grant, req);
        if (grant != 0 && (grant >> idx) != 1u)
            t_.fail("NumReq %u cycle %" PRIu64 ": grant_idx_o %u but grant 0x%x", l.n, cyc, idx,
                    grant);
        if (l.have_prev && req == l.prev_req && grant != l.prev_grant)
            t_.fail("NumReq %u cycle %" PRIu64 ": priority moved without advance_i: req 0x%x "
                    "granted 0x%x, now 0x%x", l.n, cyc, req, l.prev_grant, grant);

        // Last used grant's winner ranks last.
        if (l.last_winner >= 0 && (req & ~(1u << l.last_winner)) != 0 &&
            grant == (1u << l.last_winner))
            t_.fail("NumReq %u cycle %" PRIu64 ": requester %d granted again right after a used "
                    "grant, ahead of other requests (req 0x%x)", l.n, cyc, l.last_winner, req);

        // Least-recently-granted model.
        const uint32_t want_mask = want < 0 ? 0 : 1u << want;
        if (grant != want_mask) {
            std::string ord;
            for (unsigned i : l.order) ord += (ord.empty() ? "" : ",") + std::to_string(i);
            t_.fail("NumReq %u cycle %" PRIu64 ": grant 0x%x, priority list [%s] gives 0x%x "
                    "(req 0x%x)", l.n, cyc, grant, ord.c_str(), want_mask, req);
        }
        l.have_prev = !adv;
        l.prev_req = req;
        l.prev_grant = grant;

        // Bounded wait: grants to others while a requester keeps requesting.
        for (unsigned i = 0; i < l.n; i++) {
            if (!((req >> i) & 1u)) {
                l.waited[i] = -1;
                continue;
            }
            if (l.waited[i] < 0) l.waited[i] = 0;
            if (!adv) continue;
            if (static_cast<int>(i) == want) {
                l.waited[i] = -1;  // served
            } else if (++l.waited[i] > static_cast<int>(l.n) - 1) {
                t_.fail("NumReq %u cycle %" PRIu64 ": requester %u passed over %d times "
                        "while requesting", l.n, cyc, i, l.waited[i]);
            } else if (l.waited[i] > l.max_waited) {
                l.max_waited = l.waited[i];
            }
        }

        // All requesting: each window of N advances serves each requester once.
        if ((phase == Phase::All || phase == Phase::AllHold) && adv) {
            l.window[static_cast<unsigned>(want)]++;
            if (++l.window_advances == l.n) {
                for (unsigned i = 0; i < l.n; i++) {
                    if (l.window[i] != 1)
                        t_.fail("NumReq %u cycle %" PRIu64 ": requester %u granted %u times "
                                "in a window of %u advances", l.n, cyc, i, l.window[i], l.n);
                }
                l.window.assign(l.n, 0);
                l.window_advances = 0;
                l.windows++;
            }
        }
    }

    UnitTest t_;
    Vtb tb_;
    Rng rng_;
    Lane lanes_[kNumCfg];
};

}  // namespace

int main() {
    ArbiterTest test;
    test.run();
}
