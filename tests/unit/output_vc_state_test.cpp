// output_vc_state_test.cpp: unit test of canopy_output_vc_state (an output's credits and
// VC ownership) against a model, with the test playing both the switch allocator and the
// receiver.
//
// Why: ready_o is what keeps a router from sending into a full neighbour buffer (credit
// flow control: an overflow loses flits), and busy_o is what keeps two packets from
// interleaving on one VC (wormhole: an interleave corrupts both); a credit that never comes
// back as availability stalls the link forever.
//
// What: (NumVcs, Credits, CollCredits) = (4, 1, 1), (4, 3, 2) and (2, 8, 8) at once (see
// canopy_unit_output_vc_state_tb.sv; CollCredits on the collective VCs 2 and 3). Each
// cycle, per config, the test plays
//   - the allocator: with some probability grants one VC whose ready_o is set (one-hot;
//     grant_last_i random when nothing is granted): on a VC its packet owns, a body flit
//     or the tail; on a free VC (busy_o low) a new head, sometimes a one-flit packet (head
//     and tail); it never grants without ready_o or a head onto an owned VC;
//   - the link: sent_i is last cycle's grant (the flit leaves the cycle after);
//   - the receiver: a flit sent enters its buffer; each cycle it frees a slot of each VC
//     holding flits with some probability and returns the credit (credit_i).
// Phases of random densities, among them stalls (the receiver frees nothing, so credits
// run out) and floods (every cycle a grant). The model: per VC the sender's credits
// (Credits or CollCredits out of reset; -1 per flit sent, +1 per credit returned) and the
// owner (a head that is not a tail takes the VC, a tail frees it). Checked every cycle,
// per VC:
//   - ready_o is set exactly when a credit is left beyond the flit sent this cycle
//     (credits - sent_i >= 1): never without one (the receiver's buffer holds at most
//     the VC's credits out of reset, checked too), and back as soon as a returned credit
//     makes one;
//   - busy_o is set exactly from the cycle after a head (not a tail) is granted up to and
//     including the cycle its tail is granted.
// No RTL assertion may fire (the credit counter's checks included).
// Coverage: per config and VC, ready_o low (credits exhausted) and restored by returned
// credits, and packets of one and of several flits.
#include <cstdint>
#include <vector>

#include "Vtb.h"
#include "canopy_packet.h"
#include "unit_common.hpp"

namespace {

using canopy_unit::Rng;
using canopy_unit::UnitTest;
using canopy_unit::get_field;
using canopy_unit::set_field;

// The configuration table of canopy_unit_output_vc_state_tb.sv, same order.
constexpr unsigned kNumCfg = 3;
constexpr unsigned kMaxVcs = 4;
constexpr unsigned kNumVcs[kNumCfg]  = {4, 4, 2};
constexpr unsigned kCredits[kNumCfg] = {1, 3, 8};
constexpr unsigned kCollCredits[kNumCfg] = {1, 2, 8};  // on the collective VCs

constexpr uint64_t kSeed     = 0x0c7ed175c0ffee05ull;
constexpr uint64_t kPhases   = 200;
constexpr uint64_t kPhase    = 300;  // cycles per phase
constexpr uint64_t kMinCover = 20;   // per config and VC

struct Vc {
    unsigned max = 0;      // the receiver's buffer: credits out of reset
    unsigned credits = 0;  // model: the sender's credits at the start of the cycle
    unsigned rx = 0;       // flits in the receiver's buffer
    bool owned = false;    // model: a packet owns the VC
    bool was_blocked = false;
    uint64_t restored = 0, single = 0, multi = 0;  // coverage
    unsigned pkt_len = 0;  // flits of the packet in progress
};

struct Lane {
    unsigned nvc = 0, credits = 0;
    std::vector<Vc> vc;
    uint32_t sent = 0;  // granted last cycle, sent this cycle
    unsigned grant_pct = 0, return_pct = 0, tail_pct = 0;
};

class OutputVcStateTest {
  public:
    OutputVcStateTest()
        : t_("output_vc_state", kPhases * kPhase + 16), tb_(t_.context()), rng_(kSeed) {
        for (unsigned k = 0; k < kNumCfg; k++) {
            lanes_[k].nvc = kNumVcs[k];
            lanes_[k].credits = kCredits[k];
            lanes_[k].vc.assign(kNumVcs[k], Vc{});
            for (unsigned c = 0; c < kNumVcs[k]; c++) {
                Vc &v = lanes_[k].vc[c];
                const bool coll = c == CANOPY_VC_COLL_UP || c == CANOPY_VC_COLL_DOWN;
                v.max = coll ? kCollCredits[k] : kCredits[k];
                v.credits = v.max;
            }
        }
    }

    void run() {
        reset();
        for (uint64_t ph = 0; ph < kPhases; ph++) {
            for (Lane &l : lanes_) {
                const unsigned kind = rng_.below(4);
                l.grant_pct = kind == 0 ? 100 : 10 + rng_.below(91);          // flood
                l.return_pct = kind == 1 ? 0 : 5 + rng_.below(96);            // stall
                l.tail_pct = rng_.below(101);
            }
            for (uint64_t c = 0; c < kPhase; c++) cycle();
        }
        for (unsigned k = 0; k < kNumCfg; k++) {
            for (unsigned c = 0; c < lanes_[k].nvc; c++) {
                const Vc &v = lanes_[k].vc[c];
                if (v.restored < kMinCover || v.single < kMinCover || v.multi < kMinCover)
                    t_.fail("Credits %u VC %u: coverage too low: %" PRIu64 " times credits "
                            "restored after running out, %" PRIu64 " one-flit and %" PRIu64
                            " longer packets", kCredits[k], c, v.restored, v.single, v.multi);
            }
        }
        t_.pass();
    }

  private:
    void reset() {
        tb_.rst_i = 1;
        tb_.grant_i = 0;
        tb_.grant_last_i = 0;
        tb_.sent_i = 0;
        tb_.credit_i = 0;
        for (int i = 0; i < 2; i++) {
            tb_.clk_i = 0;
            tb_.eval();
            tb_.clk_i = 1;
            tb_.eval();
            t_.tick();
        }
        tb_.rst_i = 0;
    }

    void cycle() {
        uint32_t credit[kNumCfg];
        for (unsigned k = 0; k < kNumCfg; k++) {
            Lane &l = lanes_[k];
            credit[k] = 0;
            for (unsigned c = 0; c < l.nvc; c++)
                if (l.vc[c].rx > 0 && rng_.chance(l.return_pct)) credit[k] |= 1u << c;
            set_field(tb_.sent_i, k * kMaxVcs, kMaxVcs, l.sent);
            set_field(tb_.credit_i, k * kMaxVcs, kMaxVcs, credit[k]);
            set_field(tb_.grant_i, k * kMaxVcs, kMaxVcs, 0);
        }
        // Outputs are registers: read them, then decide the grants from them.
        tb_.clk_i = 0;
        tb_.eval();
        uint32_t grant[kNumCfg];
        bool last[kNumCfg];
        for (unsigned k = 0; k < kNumCfg; k++) {
            check(k);
            choose(k, grant[k], last[k]);
            set_field(tb_.grant_i, k * kMaxVcs, kMaxVcs, grant[k]);
            set_field(tb_.grant_last_i, k, 1, last[k]);
        }
        tb_.eval();
        for (unsigned k = 0; k < kNumCfg; k++) check(k);  // still registers
        tb_.clk_i = 1;
        tb_.eval();
        t_.tick();
        for (unsigned k = 0; k < kNumCfg; k++) {
            Lane &l = lanes_[k];
            for (unsigned c = 0; c < l.nvc; c++) {
                Vc &v = l.vc[c];
                if ((l.sent >> c) & 1u) {
                    v.credits--;
                    v.rx++;
                }
                if ((credit[k] >> c) & 1u) {
                    v.credits++;
                    v.rx--;
                }
                if (v.rx > v.max)
                    t_.fail("Credits %u VC %u: receiver buffer of %u holds %u flits", l.credits, c,
                            v.max, v.rx);
                if ((grant[k] >> c) & 1u) {
                    v.pkt_len++;
                    v.owned = !last[k];
                    if (last[k]) {
                        (v.pkt_len == 1 ? v.single : v.multi)++;
                        v.pkt_len = 0;
                    }
                }
            }
            l.sent = grant[k];
        }
    }

    // The allocator: one VC whose ready_o is set, head only onto a free VC.
    void choose(unsigned k, uint32_t &grant, bool &last) {
        Lane &l = lanes_[k];
        const uint32_t ready = static_cast<uint32_t>(get_field(tb_.ready_o, k * kMaxVcs, kMaxVcs));
        grant = 0;
        last = rng_.chance(50);  // ignored without a grant
        if (!rng_.chance(l.grant_pct)) return;
        std::vector<unsigned> can;
        for (unsigned c = 0; c < l.nvc; c++)
            if ((ready >> c) & 1u) can.push_back(c);
        if (can.empty()) return;
        const unsigned c = can[rng_.below(static_cast<unsigned>(can.size()))];
        grant = 1u << c;
        // A body flit or tail of the owning packet, or a head (a one-flit packet sometimes).
        last = l.vc[c].owned ? rng_.chance(l.tail_pct) : rng_.chance(30);
    }

    void check(unsigned k) {
        Lane &l = lanes_[k];
        const uint64_t cyc = t_.ticks();
        const uint32_t ready = static_cast<uint32_t>(get_field(tb_.ready_o, k * kMaxVcs, kMaxVcs));
        const uint32_t busy = static_cast<uint32_t>(get_field(tb_.busy_o, k * kMaxVcs, kMaxVcs));
        for (unsigned c = 0; c < l.nvc; c++) {
            Vc &v = l.vc[c];
            const unsigned sent = (l.sent >> c) & 1u;
            const bool want_ready = v.credits >= sent + 1;
            const bool r = (ready >> c) & 1u, b = (busy >> c) & 1u;
            if (r && !want_ready)
                t_.fail("Credits %u VC %u cycle %" PRIu64 ": ready_o with no credit left (%u "
                        "credits, %u flit sent now)", l.credits, c, cyc, v.credits, sent);
            if (!r && want_ready)
                t_.fail("Credits %u VC %u cycle %" PRIu64 ": ready_o low with %u credits and %u "
                        "flit sent now%s", l.credits, c, cyc, v.credits, sent,
                        v.was_blocked ? " (credits returned, availability not restored)" : "");
            if (b != v.owned)
                t_.fail("Credits %u VC %u cycle %" PRIu64 ": busy_o %d, the VC is %s", l.credits,
                        c, cyc, b, v.owned ? "owned by a packet (head granted, tail not yet)"
                                           : "free");
            if (!want_ready) v.was_blocked = true;
            else if (v.was_blocked) {
                v.was_blocked = false;
                v.restored++;
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
    OutputVcStateTest test;
    test.run();
}
