// vc_fifo_test.cpp: unit test of canopy_vc_fifo (a VC's input buffer bookkeeping with a
// speculative read position) against a model.
//
// Why: every router input hands out its VCs' flits speculatively (stage 1 assumes the
// staged flit wins) and rewinds when it loses; a candidate with the wrong control fields,
// a rewind that lands on the wrong entry or a commit of the wrong slot reorders, loses or
// duplicates flits, and a wrong count breaks the credit loop.
//
// What: (CtlW, Depth) = (8, 4), (13, 16) and (1, 8) at once (see
// canopy_unit_vc_fifo_tb.sv), random sequences from a fixed seed that obey the contract,
// in phases of random densities of push / stage / rewind / pop (some filling, some
// draining, some rewinding often). The model keeps every entry's control word by its
// absolute position and three positions, head <= spec <= tail. Each cycle, per config:
//   - push_i (random control word) only while fewer than Depth entries are held;
//   - rewind_i (while something is handed out) to the head, with rewind_ctl_i its control
//     word (the candidates after it are read from the block's own control RAM); the rewind
//     inputs are random when rewind_i is low;
//   - stage_i when an entry is at the (rewound) speculative position, or arrives there now
//     (push_i with cand_o low: handed out on arrival), and fewer than MaxOut (3, the
//     default) are handed out;
//   - pop_i when the head is handed out and not rewound (committed), or handed out now
//     (dropped: staged and popped in the same cycle).
// Checked every cycle, before the edge: count_o, wr_ptr_o, rd_ptr_o; spec_ptr_o is the
// rewound speculative position's slot; cand_o says an entry is there and
// cand_ctl_o is its control word; head_ctl_o the head's control word while an entry is
// held; none_out_o exactly when spec is at the head. No RTL assertion may fire.
// Coverage: per config, the buffer full, rewinds of one entry handed out and of more, entries
// handed out on arrival and dropped entries, many times each.
#include <cstdint>
#include <vector>

#include "Vtb.h"
#include "unit_common.hpp"

namespace {

using canopy_unit::Rng;
using canopy_unit::UnitTest;
using canopy_unit::field_mask;
using canopy_unit::get_field;
using canopy_unit::set_field;

// The configuration table of canopy_unit_vc_fifo_tb.sv, same order.
constexpr unsigned kNumCfg  = 3;
constexpr unsigned kMaxCtlW = 16;
constexpr unsigned kMaxCntW = 5;
constexpr unsigned kMaxPtrW = 4;
constexpr unsigned kCtlW[kNumCfg]  = {8, 13, 1};
constexpr unsigned kDepth[kNumCfg] = {4, 16, 8};

constexpr uint64_t kSeed     = 0x5eecf1f0c0ffee17ull;
constexpr uint64_t kPhases   = 200;
constexpr uint64_t kPhase    = 500;  // cycles per phase
constexpr uint64_t kMinCover = 50;   // per config and event
constexpr uint64_t kMaxOut = 3;      // canopy_vc_fifo's MaxOut default

struct Lane {
    unsigned ctlw = 0, depth = 0;
    uint64_t wr = 0, rd = 0, spec = 0;  // absolute positions: head <= spec <= tail
    std::vector<uint64_t> ctl;          // control word by absolute position
    unsigned push_pct = 0, stage_pct = 0, rewind_pct = 0, pop_pct = 0;
    // coverage
    uint64_t full = 0, rewinds = 0, rewinds_over = 0, on_arrival = 0, drops = 0;

    uint64_t ctl_at(uint64_t pos) const { return ctl[pos % ctl.size()]; }
};

class VcFifoTest {
  public:
    VcFifoTest() : t_("vc_fifo", kPhases * kPhase + 16), tb_(t_.context()), rng_(kSeed) {
        for (unsigned k = 0; k < kNumCfg; k++) {
            lanes_[k].ctlw = kCtlW[k];
            lanes_[k].depth = kDepth[k];
            lanes_[k].ctl.assign(4 * kDepth[k], 0);  // a ring longer than what is held
        }
    }

    void run() {
        reset();
        for (uint64_t ph = 0; ph < kPhases; ph++) {
            for (Lane &l : lanes_) {
                l.push_pct = rng_.below(101);
                l.stage_pct = rng_.below(101);
                l.rewind_pct = rng_.chance(50) ? rng_.below(10) : rng_.below(60);
                l.pop_pct = rng_.below(101);
            }
            for (uint64_t c = 0; c < kPhase; c++) cycle();
        }
        for (unsigned k = 0; k < kNumCfg; k++) {
            const Lane &l = lanes_[k];
            if (l.full < kMinCover || l.rewinds < kMinCover || l.rewinds_over < kMinCover ||
                l.on_arrival < kMinCover || l.drops < kMinCover)
                t_.fail("Depth %u: coverage too low: %" PRIu64 " cycles full, %" PRIu64
                        " rewinds (%" PRIu64 " over), %" PRIu64 " handed out on arrival, %" PRIu64
                        " dropped", l.depth, l.full, l.rewinds, l.rewinds_over, l.on_arrival,
                        l.drops);
        }
        t_.pass();
    }

  private:
    void reset() {
        tb_.rst_i = 1;
        tb_.push_i = tb_.stage_i = tb_.rewind_i = tb_.pop_i = 0;
        for (int i = 0; i < 2; i++) {
            tb_.clk_i = 0;
            tb_.eval();
            tb_.clk_i = 1;
            tb_.eval();
            t_.tick();
        }
        tb_.rst_i = 0;
    }

    struct In {
        bool push = false, stage = false, rewind = false, pop = false;
        uint64_t push_ctl = 0, rewind_ptr = 0;
        uint64_t cur_spec = 0;
    };

    In choose(Lane &l) {
        In in;
        const uint64_t mask = field_mask(l.ctlw);
        if (l.spec > l.rd && rng_.chance(l.rewind_pct)) {
            in.rewind = true;     // to the head, as the router does
            in.rewind_ptr = l.rd;
        }
        in.cur_spec = in.rewind ? in.rewind_ptr : l.spec;
        in.push = l.wr - l.rd < l.depth && rng_.chance(l.push_pct);
        in.push_ctl = rng_.next() & mask;
        in.stage = (in.cur_spec < l.wr || in.push) && in.cur_spec - l.rd < kMaxOut &&
                   rng_.chance(l.stage_pct);
        const bool committed = l.rd < in.cur_spec;
        const bool dropped = in.stage && in.cur_spec == l.rd && l.rd < l.wr;
        in.pop = (committed || dropped) && rng_.chance(l.pop_pct);
        return in;
    }

    void drive(unsigned k, const Lane &l, const In &in) {
        const uint64_t mask = field_mask(l.ctlw);
        set_field(tb_.push_i, k, 1, in.push);
        set_field(tb_.stage_i, k, 1, in.stage);
        set_field(tb_.rewind_i, k, 1, in.rewind);
        set_field(tb_.pop_i, k, 1, in.pop);
        // The padding of control words is random: the block must not read it.
        set_field(tb_.push_ctl_i, k * kMaxCtlW, kMaxCtlW, in.push_ctl | (rng_.next() & ~mask));
        if (in.rewind) {
            set_field(tb_.rewind_ptr_i, k * kMaxCntW, kMaxCntW,
                      in.rewind_ptr % (2 * l.depth) | (rng_.next() & ~(2 * l.depth - 1)));
            set_field(tb_.rewind_ctl_i, k * kMaxCtlW, kMaxCtlW,
                      l.ctl_at(in.rewind_ptr) | (rng_.next() & ~mask));
        } else {
            set_field(tb_.rewind_ptr_i, k * kMaxCntW, kMaxCntW, rng_.next());
            set_field(tb_.rewind_ctl_i, k * kMaxCtlW, kMaxCtlW, rng_.next());
        }
    }

    void cycle() {
        In in[kNumCfg];
        for (unsigned k = 0; k < kNumCfg; k++) {
            in[k] = choose(lanes_[k]);
            drive(k, lanes_[k], in[k]);
        }
        tb_.clk_i = 0;
        tb_.eval();
        for (unsigned k = 0; k < kNumCfg; k++) check(k, in[k]);
        tb_.clk_i = 1;
        tb_.eval();
        t_.tick();
        for (unsigned k = 0; k < kNumCfg; k++) {
            Lane &l = lanes_[k];
            const In &i = in[k];
            l.full += l.wr - l.rd == l.depth;
            l.rewinds += i.rewind;
            l.rewinds_over += i.rewind && i.rewind_ptr + 1 < l.spec;
            l.on_arrival += i.stage && i.cur_spec == l.wr;
            l.drops += i.pop && i.stage && i.cur_spec == l.rd;
            if (i.push) l.ctl[l.wr++ % l.ctl.size()] = i.push_ctl;
            l.spec = i.cur_spec + (i.stage ? 1 : 0);
            if (i.pop) l.rd++;
        }
    }

    void check(unsigned k, const In &in) {
        const Lane &l = lanes_[k];
        const uint64_t cyc = t_.ticks();
        const uint64_t count = get_field(tb_.count_o, k * kMaxCntW, kMaxCntW);
        const uint64_t wr = get_field(tb_.wr_ptr_o, k * kMaxPtrW, kMaxPtrW);
        const uint64_t rd = get_field(tb_.rd_ptr_o, k * kMaxPtrW, kMaxPtrW);
        const uint64_t spec = get_field(tb_.spec_ptr_o, k * kMaxCntW, kMaxCntW);
        const bool cand = get_field(tb_.cand_o, k, 1);
        const uint64_t cand_ctl = get_field(tb_.cand_ctl_o, k * kMaxCtlW, kMaxCtlW);
        const uint64_t head_ctl = get_field(tb_.head_ctl_o, k * kMaxCtlW, kMaxCtlW);
        const bool none_out = get_field(tb_.none_out_o, k, 1);
        const bool want_cand = in.cur_spec < l.wr;
#define VF_CHECK(cond, fmt, ...)                                                              \
    do {                                                                                      \
        if (!(cond))                                                                          \
            t_.fail("Depth %u cycle %" PRIu64 " (head %" PRIu64 " spec %" PRIu64              \
                    " tail %" PRIu64 ", rewind %d to %" PRIu64 ", push %d stage %d pop %d): " \
                    fmt,                                                                      \
                    l.depth, cyc, l.rd, l.spec, l.wr, in.rewind, in.rewind_ptr, in.push,      \
                    in.stage, in.pop, __VA_ARGS__);                                           \
    } while (0)
        VF_CHECK(count == l.wr - l.rd, "count_o %" PRIu64, count);
        VF_CHECK(wr == l.wr % l.depth, "wr_ptr_o %" PRIu64, wr);
        VF_CHECK(rd == l.rd % l.depth, "rd_ptr_o %" PRIu64, rd);
        VF_CHECK(spec == in.cur_spec % l.depth, "spec_ptr_o %" PRIu64, spec);
        VF_CHECK(cand == want_cand, "cand_o %d", cand);
        VF_CHECK(!want_cand || cand_ctl == l.ctl_at(in.cur_spec),
                 "cand_ctl_o 0x%" PRIx64 ", the entry's is 0x%" PRIx64, cand_ctl,
                 l.ctl_at(in.cur_spec));
        VF_CHECK(l.wr == l.rd || head_ctl == l.ctl_at(l.rd),
                 "head_ctl_o 0x%" PRIx64 ", the head's is 0x%" PRIx64, head_ctl, l.ctl_at(l.rd));
        VF_CHECK(none_out == (in.cur_spec == l.rd), "none_out_o %d", none_out);
#undef VF_CHECK
    }

    UnitTest t_;
    Vtb tb_;
    Rng rng_;
    Lane lanes_[kNumCfg];
};

}  // namespace

int main() {
    VcFifoTest test;
    test.run();
}
