// crossbar_test.cpp: unit test of canopy_crossbar (an output's one-hot AND-OR switch)
// against a multiplexer model.
//
// Why: every flit leaving a router output passes through a canopy_crossbar; a select that
// leaks another source's bits, or a stale word when nothing is selected, corrupts flits
// silently (the link CRC is computed after it).
//
// What: (NumIn, Width) = (1, 1), (2, 5), (6, 33) and (9, 64) at once (see
// canopy_unit_crossbar_tb.sv), combinational, evaluated once per vector:
//   walk     every one-hot select and zero, with each data bit of each source set alone
//            (walking ones) and cleared alone (walking zeros);
//   random   random words on every source (padding bits included, which must not leak)
//            and a random select: zero in one vector of eight, else one-hot.
// Every vector, for every config: data_o is the selected source's word, and all zeros when
// the select is zero.
#include <cstdint>

#include "Vtb.h"
#include "unit_common.hpp"

namespace {

using canopy_unit::Rng;
using canopy_unit::UnitTest;
using canopy_unit::field_mask;
using canopy_unit::get_field;
using canopy_unit::set_field;

// The configuration table of canopy_unit_crossbar_tb.sv, same order.
constexpr unsigned kNumCfg = 4;
constexpr unsigned kMaxIn  = 9;   // select bits / words per config
constexpr unsigned kMaxW   = 64;  // bits per word
constexpr unsigned kNumIn[kNumCfg] = {1, 2, 6, 9};
constexpr unsigned kWidth[kNumCfg] = {1, 5, 33, 64};

constexpr uint64_t kSeed    = 0xc0ffeec705bba400ull;
constexpr uint64_t kRandom  = 20000;  // random vectors
constexpr uint64_t kMaxEval = 200000;

class CrossbarTest {
  public:
    CrossbarTest() : t_("crossbar", kMaxEval), tb_(t_.context()), rng_(kSeed) {}

    void run() {
        // Walking ones and zeros: per config, per source, per bit, per select.
        for (unsigned k = 0; k < kNumCfg; k++) {
            for (unsigned src = 0; src < kNumIn[k]; src++) {
                for (unsigned b = 0; b < kWidth[k]; b++) {
                    for (int ones = 0; ones < 2; ones++) {
                        for (unsigned k2 = 0; k2 < kNumCfg; k2++)
                            for (unsigned i = 0; i < kMaxIn; i++)
                                word_[k2][i] = ones ? 0 : ~uint64_t{0};
                        word_[k][src] = ones ? uint64_t{1} << b : ~(uint64_t{1} << b);
                        for (int s = -1; s < static_cast<int>(kNumIn[k]); s++) {
                            for (unsigned k2 = 0; k2 < kNumCfg; k2++) sel_[k2] = 0;
                            sel_[k] = s < 0 ? 0 : 1u << s;
                            vector();
                        }
                    }
                }
            }
        }
        for (uint64_t v = 0; v < kRandom; v++) {
            for (unsigned k = 0; k < kNumCfg; k++) {
                for (unsigned i = 0; i < kMaxIn; i++) word_[k][i] = rng_.next();
                sel_[k] = rng_.chance(12) ? 0 : 1u << rng_.below(kNumIn[k]);
            }
            vector();
        }
        t_.pass();
    }

  private:
    // Drives sel_ / word_, evaluates, checks every config.
    void vector() {
        for (unsigned k = 0; k < kNumCfg; k++) {
            set_field(tb_.sel_i, k * kMaxIn, kMaxIn, sel_[k]);
            for (unsigned i = 0; i < kMaxIn; i++)
                set_field(tb_.data_i, (k * kMaxIn + i) * kMaxW, kMaxW, word_[k][i]);
        }
        tb_.eval();
        t_.tick();
        for (unsigned k = 0; k < kNumCfg; k++) {
            uint64_t want = 0;
            for (unsigned i = 0; i < kNumIn[k]; i++)
                if ((sel_[k] >> i) & 1u) want = word_[k][i] & field_mask(kWidth[k]);
            const uint64_t got = get_field(tb_.data_o, k * kMaxW, kMaxW);
            if (got != want)
                t_.fail("NumIn %u Width %u, vector %" PRIu64 ": select 0x%x gives 0x%016" PRIx64
                        ", expected 0x%016" PRIx64, kNumIn[k], kWidth[k], t_.ticks(), sel_[k],
                        got, want);
        }
    }

    UnitTest t_;
    Vtb tb_;
    Rng rng_;
    uint32_t sel_[kNumCfg] = {};
    uint64_t word_[kNumCfg][kMaxIn] = {};
};

}  // namespace

int main() {
    CrossbarTest test;
    test.run();
}
