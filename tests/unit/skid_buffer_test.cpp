// skid_buffer_test.cpp: unit test of canopy_skid_buffer against a two-word queue.
//
// Why: the ejection buffer's output (and any stream cut into two cycles) relies on the slice
// passing every word once, in order, at a word per cycle, with both of its outputs from
// flip-flops.
//
// What: a random producer that obeys valid/ready (an offered word is held unchanged until
// taken; garbage on the data lines while not valid) and a random consumer, in phases of
// different mixes (streaming, stalled, trickling). Every cycle, before the edge: in_ready_o
// is "fewer than two words held", out_valid_o "a word held", out_data_o the oldest; and
// neither output moves when out_ready_i flips within the cycle (no combinational path).
// Fails unless the slice was seen full, empty and streaming (a word in and out in one
// cycle) many times.
#include <deque>

#include "Vtb.h"
#include "unit_common.hpp"

namespace {

using canopy_unit::Rng;
using canopy_unit::UnitTest;

constexpr uint64_t kSeed   = 0x5c1dbeef00000001ull;
constexpr uint64_t kCycles = 40000;
constexpr uint64_t kPhase  = 150;
constexpr unsigned kDepth  = 2;
constexpr uint64_t kMinCover = 200;

struct Mix {
    unsigned offer, ready;  // percent per cycle
};
constexpr Mix kMixes[] = {{100, 100}, {100, 0}, {0, 100}, {50, 50}, {90, 30}, {30, 90}};

class SkidTest {
  public:
    SkidTest() : t_("skid_buffer", kCycles + 16), tb_(t_.context()), rng_(kSeed) {}

    void run() {
        tb_.rst_i = 1;
        tb_.in_valid_i = 0;
        tb_.out_ready_i = 0;
        for (int i = 0; i < 2; i++) edge();
        tb_.rst_i = 0;
        Mix mix = kMixes[0];
        for (uint64_t c = 0; c < kCycles; c++) {
            if (c % kPhase == 0) mix = kMixes[rng_.below(sizeof kMixes / sizeof kMixes[0])];
            cycle(mix);
        }
        if (full_ < kMinCover || empty_ < kMinCover || stream_ < kMinCover)
            t_.fail("coverage too low: full %llu, empty %llu, in and out together %llu cycles",
                    (unsigned long long)full_, (unsigned long long)empty_, (unsigned long long)stream_);
        t_.pass();
    }

  private:
    void edge() {
        tb_.clk_i = 0;
        tb_.eval();
        tb_.clk_i = 1;
        tb_.eval();
        t_.tick();
    }

    void cycle(const Mix &mix) {
        if (!offering_ && rng_.chance(mix.offer)) {
            offering_ = true;
            offer_ = rng_.next();
        }
        tb_.in_valid_i = offering_;
        tb_.in_data_i = offering_ ? offer_ : rng_.next();
        const bool ready = rng_.chance(mix.ready);
        // Outputs with out_ready_i at the other value first: they must not move.
        tb_.out_ready_i = !ready;
        tb_.clk_i = 0;
        tb_.eval();
        const bool v0 = tb_.out_valid_o, r0 = tb_.in_ready_o;
        const uint64_t d0 = tb_.out_data_o;
        tb_.out_ready_i = ready;
        tb_.eval();
        if (tb_.out_valid_o != v0 || tb_.in_ready_o != r0 || (v0 && tb_.out_data_o != d0))
            t_.fail("cycle %llu: an output follows out_ready_i in the same cycle", (unsigned long long)t_.ticks());

        const size_t n = model_.size();
        if (bool(tb_.in_ready_o) != (n < kDepth))
            t_.fail("cycle %llu: in_ready_o %d with %zu words held", (unsigned long long)t_.ticks(), tb_.in_ready_o, n);
        if (bool(tb_.out_valid_o) != (n > 0))
            t_.fail("cycle %llu: out_valid_o %d with %zu words held", (unsigned long long)t_.ticks(), tb_.out_valid_o, n);
        if (n > 0 && tb_.out_data_o != model_.front())
            t_.fail("cycle %llu: out_data_o %016llx, expected %016llx", (unsigned long long)t_.ticks(),
                    (unsigned long long)tb_.out_data_o, (unsigned long long)model_.front());
        const bool push = offering_ && n < kDepth, pop = n > 0 && ready;
        full_ += n == kDepth;
        empty_ += n == 0;
        stream_ += push && pop;

        tb_.clk_i = 1;
        tb_.eval();
        t_.tick();
        if (pop) model_.pop_front();
        if (push) {
            model_.push_back(offer_);
            offering_ = false;
        }
    }

    UnitTest t_;
    Vtb tb_;
    Rng rng_;
    std::deque<uint64_t> model_;
    bool offering_ = false;
    uint64_t offer_ = 0;
    uint64_t full_ = 0, empty_ = 0, stream_ = 0;
};

}  // namespace

int main() {
    SkidTest test;
    test.run();
}
