// fifo_test.cpp: unit test of canopy_fifo and canopy_reg_fifo against a software queue.
//
// Why: every router input buffer is a canopy_fifo (the host's ejection buffers are
// canopy_reg_fifos), and the credit scheme counts on a FIFO holding exactly its capacity
// (Depth; Depth + 1 for canopy_reg_fifo, its head included), never dropping, duplicating
// or reordering a beat, and reporting its occupancy (count_o) exactly. canopy_reg_fifo
// also promises outputs from registers: after the checks of each cycle its inputs are
// changed to random values and out_valid_o / out_data_o must not move.
//
// What: twelve parameterisations at once (both FIFOs x Depth 2, 4, 16 x Width 1, 70; see
// canopy_unit_fifo_tb.sv), each with its own random producer and consumer from a fixed
// seed. The producer obeys valid/ready (once it offers a beat it holds it, data unchanged,
// until accepted; valid never waits for ready; data is random garbage while valid is low)
// and the consumer's ready is random. Traffic mixes change every phase (filling, draining,
// streaming, blocked...) so every FIFO goes full and empty many times. Every cycle, before
// the clock edge, each FIFO's in_ready_o, out_valid_o, count_o and out_data_o are compared
// with a std::deque model. Midway a reset hits the FIFOs while they are full and must
// empty them. The run ends with a drain, and fails if coverage (full, empty, simultaneous
// push and pop) was not reached.
#include <algorithm>
#include <deque>

#include "Vtb.h"
#include "unit_common.hpp"

namespace {

using canopy_unit::Rng;
using canopy_unit::UnitTest;
using canopy_unit::get_field;
using canopy_unit::set_field;

// The configuration table of canopy_unit_fifo_tb.sv, same order.
struct Cfg {
    unsigned width, depth;  // depth: the capacity
    bool reg;               // canopy_reg_fifo (its outputs from registers)
};
constexpr unsigned kNumCfg   = 12;
constexpr unsigned kMaxWidth = 70;  // data padding per config in the test top
constexpr unsigned kCountW   = 6;   // count padding per config in the test top
constexpr Cfg kCfgs[kNumCfg] = {{1, 2, false},  {70, 2, false},  {1, 4, false},
                                {70, 4, false}, {1, 16, false},  {70, 16, false},
                                {1, 3, true},   {70, 3, true},   {1, 5, true},
                                {70, 5, true},  {1, 17, true},   {70, 17, true}};

constexpr uint64_t kSeed       = 0xf1f0c0ffee000001ull;
constexpr uint64_t kCycles     = 60000;   // random traffic
constexpr uint64_t kPhase      = 200;     // cycles per traffic mix
constexpr uint64_t kResetAt    = 30000;   // mid-run reset (a multiple of kPhase)
constexpr uint64_t kDrainLimit = 100;     // cycles a drain may take
constexpr uint64_t kMinCover   = 50;      // per config: full, empty, push+pop cycles

// A beat of up to 70 bits.
struct Data {
    uint64_t lo = 0, hi = 0;
    bool operator==(const Data &o) const { return lo == o.lo && hi == o.hi; }
};

Data random_data(Rng &rng, unsigned width) {
    Data d;
    d.lo = rng.bits(std::min(width, 64u));
    d.hi = width > 64 ? rng.bits(width - 64) : 0;
    return d;
}

// Traffic mix: chance (percent) that an idle producer offers a new beat, and that the
// consumer is ready, in a cycle.
struct Mix {
    unsigned offer, ready;
};
constexpr Mix kMixes[] = {
    {90, 10},   // filling
    {10, 90},   // draining
    {50, 50},   // balanced
    {100, 100}, // streaming: a beat in and out every cycle
    {100, 0},   // blocked consumer: stays full
    {0, 100},   // idle producer: stays empty
    {70, 60},   // slightly filling
};
constexpr unsigned kNumMixes = sizeof kMixes / sizeof kMixes[0];
constexpr Mix kBlocked = {100, 0};

// One FIFO under test: its configuration, reference model, producer state and coverage.
struct Lane {
    Cfg cfg{};
    std::deque<Data> model;  // oldest first
    bool offering = false;   // producer holds a beat (in_valid_i)
    Data offer;
    Mix mix{};
    uint64_t full_cycles = 0, empty_cycles = 0, push_pop_cycles = 0, peek_cycles = 0;
};

class FifoTest {
  public:
    FifoTest() : t_("fifo", kCycles + 3 * kDrainLimit + 16), tb_(t_.context()), rng_(kSeed) {
        for (unsigned k = 0; k < kNumCfg; k++) lanes_[k].cfg = kCfgs[k];
    }

    void run() {
        reset();
        for (uint64_t cyc = 0; cyc < kCycles; cyc++) {
            if (cyc % kPhase == 0) {
                for (Lane &l : lanes_) {
                    // The phase before the reset blocks every consumer, so the reset
                    // finds every FIFO full.
                    l.mix = (cyc + kPhase == kResetAt) ? kBlocked : kMixes[rng_.below(kNumMixes)];
                }
            }
            if (cyc == kResetAt) {
                for (unsigned k = 0; k < kNumCfg; k++) {
                    if (lanes_[k].model.size() != kCfgs[k].depth)
                        t_.fail("config %u: not full before the mid-run reset", k);
                }
                reset();
            }
            cycle(/*drain=*/false);
        }
        // Drain: no more input, consumer always ready; every FIFO must empty in time.
        for (uint64_t n = 0;; n++) {
            bool any = false;
            for (const Lane &l : lanes_) any = any || !l.model.empty();
            if (!any) break;
            if (n > kDrainLimit) t_.fail("drain did not finish in %" PRIu64 " cycles", kDrainLimit);
            cycle(/*drain=*/true);
        }
        cycle(/*drain=*/true);  // one more check of the empty state
        for (unsigned k = 0; k < kNumCfg; k++) {
            const Lane &l = lanes_[k];
            if (l.full_cycles < kMinCover || l.empty_cycles < kMinCover ||
                l.push_pop_cycles < kMinCover || (l.cfg.reg && l.peek_cycles < kMinCover))
                t_.fail("config %u (Width %u Depth %u): coverage too low: full %" PRIu64
                        " empty %" PRIu64 " push+pop %" PRIu64 " peek %" PRIu64 " cycles",
                        k, l.cfg.width, l.cfg.depth, l.full_cycles, l.empty_cycles,
                        l.push_pop_cycles, l.peek_cycles);
        }
        t_.pass();
    }

  private:
    void put_data(unsigned k, const Data &d) {
        set_field(tb_.in_data_i, k * kMaxWidth, 64, d.lo);
        set_field(tb_.in_data_i, k * kMaxWidth + 64, kMaxWidth - 64, d.hi);
    }
    Data get_data(unsigned k) {
        Data d;
        d.lo = get_field(tb_.out_data_o, k * kMaxWidth, 64);
        d.hi = get_field(tb_.out_data_o, k * kMaxWidth + 64, kMaxWidth - 64);
        return d;
    }
    Data get_next(unsigned k) {
        Data d;
        d.lo = get_field(tb_.next_data_o, k * kMaxWidth, 64);
        d.hi = get_field(tb_.next_data_o, k * kMaxWidth + 64, kMaxWidth - 64);
        return d;
    }

    // Two cycles of reset with idle inputs; the model and the producers start over.
    void reset() {
        tb_.rst_i      = 1;
        tb_.in_valid_i = 0;
        tb_.out_ready_i = 0;
        for (int i = 0; i < 2; i++) {
            tb_.clk_i = 0;
            tb_.eval();
            tb_.clk_i = 1;
            tb_.eval();
            t_.tick();
        }
        tb_.rst_i = 0;
        for (Lane &l : lanes_) {
            l.model.clear();
            l.offering = false;
        }
    }

    // canopy_reg_fifo's outputs must not follow this cycle's inputs: drive random inputs,
    // settle, compare, then put the real inputs back (before the clock edge).
    void check_registered_outputs() {
        const auto valid = tb_.in_valid_i, ready = tb_.out_ready_i;
        const auto data = tb_.in_data_i;
        bool out_valid[kNumCfg];
        Data out_data[kNumCfg];
        for (unsigned k = 0; k < kNumCfg; k++) {
            out_valid[k] = get_field(tb_.out_valid_o, k, 1);
            out_data[k]  = get_data(k);
        }
        set_field(tb_.in_valid_i, 0, kNumCfg, rng_.bits(kNumCfg));
        set_field(tb_.out_ready_i, 0, kNumCfg, rng_.bits(kNumCfg));
        for (unsigned k = 0; k < kNumCfg; k++) put_data(k, random_data(rng_, kMaxWidth));
        tb_.eval();
        for (unsigned k = 0; k < kNumCfg; k++) {
            if (!kCfgs[k].reg) continue;
            if (get_field(tb_.out_valid_o, k, 1) != out_valid[k] ||
                (out_valid[k] && !(get_data(k) == out_data[k])))
                t_.fail("config %u cycle %" PRIu64 ": an output followed this cycle's inputs",
                        k, t_.ticks());
        }
        tb_.in_valid_i  = valid;
        tb_.out_ready_i = ready;
        tb_.in_data_i   = data;
        tb_.eval();
    }

    // One clock cycle: drive, settle, check against the models, clock edge, update them.
    void cycle(bool drain) {
        for (unsigned k = 0; k < kNumCfg; k++) {
            Lane &l = lanes_[k];
            if (!drain && !l.offering && rng_.chance(l.mix.offer)) {
                l.offering = true;
                l.offer = random_data(rng_, l.cfg.width);
            }
            const bool valid = l.offering && !drain;
            set_field(tb_.in_valid_i, k, 1, valid);
            // While not valid the data lines carry garbage the FIFO must ignore.
            put_data(k, valid ? l.offer : random_data(rng_, kMaxWidth));
            set_field(tb_.out_ready_i, k, 1, drain || rng_.chance(l.mix.ready));
        }
        tb_.clk_i = 0;
        tb_.eval();

        bool push[kNumCfg], pop[kNumCfg];
        for (unsigned k = 0; k < kNumCfg; k++) {
            Lane &l = lanes_[k];
            const uint64_t size = l.model.size();
            const uint64_t count = get_field(tb_.count_o, k * kCountW, kCountW);
            const bool in_ready  = get_field(tb_.in_ready_o, k, 1);
            const bool out_valid = get_field(tb_.out_valid_o, k, 1);
            if (count != size)
                t_.fail("config %u cycle %" PRIu64 ": count_o %" PRIu64 ", model holds %" PRIu64,
                        k, t_.ticks(), count, size);
            if (in_ready != (size < l.cfg.depth))
                t_.fail("config %u cycle %" PRIu64 ": in_ready_o %d with %" PRIu64 " of %u held",
                        k, t_.ticks(), in_ready, size, l.cfg.depth);
            if (out_valid != (size > 0))
                t_.fail("config %u cycle %" PRIu64 ": out_valid_o %d with %" PRIu64 " held",
                        k, t_.ticks(), out_valid, size);
            if (size > 0) {
                const Data got = get_data(k), want = l.model.front();
                if (!(got == want))
                    t_.fail("config %u cycle %" PRIu64 ": out_data_o 0x%" PRIx64 ":%016" PRIx64
                            ", expected 0x%" PRIx64 ":%016" PRIx64,
                            k, t_.ticks(), got.hi, got.lo, want.hi, want.lo);
            }
            // canopy_reg_fifo's peek port: the beat behind the head, whenever one is held.
            if (l.cfg.reg) {
                const bool next_valid = get_field(tb_.next_valid_o, k, 1);
                if (next_valid != (size > 1))
                    t_.fail("config %u cycle %" PRIu64 ": next_valid_o %d with %" PRIu64 " held",
                            k, t_.ticks(), next_valid, size);
                if (size > 1 && !(get_next(k) == l.model[1]))
                    t_.fail("config %u cycle %" PRIu64 ": next_data_o is not the beat behind the head",
                            k, t_.ticks());
                l.peek_cycles += size > 1;
            }
            push[k] = get_field(tb_.in_valid_i, k, 1) && size < l.cfg.depth;
            pop[k]  = size > 0 && get_field(tb_.out_ready_i, k, 1);
            l.full_cycles += size == l.cfg.depth;
            l.empty_cycles += size == 0;
            l.push_pop_cycles += push[k] && pop[k];
        }

        check_registered_outputs();

        tb_.clk_i = 1;
        tb_.eval();
        t_.tick();

        for (unsigned k = 0; k < kNumCfg; k++) {
            Lane &l = lanes_[k];
            if (pop[k]) l.model.pop_front();
            if (push[k]) {
                l.model.push_back(l.offer);
                l.offering = false;
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
    FifoTest test;
    test.run();
}
