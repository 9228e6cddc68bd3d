// credit_counter_test.cpp: unit tests of canopy_credit_counter, positive and negative.
//
// Why: the credit counters are what keep every receiver buffer from overflowing; the
// sender may send exactly as many flits as the receiver has free slots. And the router's
// invariants are only checked if assertions are live in simulation, which the negative
// test proves for these builds.
//
//   unit_test              (test `credit_counter`) Credits 1, 3 and 16 at once (see
//                          canopy_unit_credit_counter_tb.sv). Random consume/return
//                          sequences from a fixed seed, consume and return in the same
//                          cycle included, each kept legal against a count model
//                          (consume only with a credit, return only with a flit in
//                          flight). Every cycle available_o must equal (model count > 0).
//                          Traffic mixes change every phase so each counter runs dry,
//                          refills and sits full many times; coverage of those states (and
//                          of simultaneous consume and return) is checked.
//   unit_test --negative   (test `credit_counter_neg`) for each Credits value: use up every
//                          credit legally, then consume once more without one; passes only
//                          if the a_no_underflow assertion fires at exactly that clock edge
//                          (Verilator reports the error and its message, captured and
//                          checked here) and did not fire before. Likewise a credit
//                          returned to a full counter must fire a_no_overflow.
#include <unistd.h>

#include <cstring>
#include <string>

#include "Vtb.h"
#include "unit_common.hpp"

namespace {

using canopy_unit::Rng;
using canopy_unit::UnitTest;
using canopy_unit::get_field;
using canopy_unit::set_field;

// The configuration table of canopy_unit_credit_counter_tb.sv, same order.
constexpr unsigned kNumCfg = 3;
constexpr unsigned kCredits[kNumCfg] = {1, 3, 16};

constexpr uint64_t kSeed     = 0xc3ed17c0ffee0002ull;
constexpr uint64_t kCycles   = 40000;
constexpr uint64_t kPhase    = 100;  // cycles per traffic mix
constexpr uint64_t kMinCover = 20;   // per config and covered state

// Traffic mix: chance (percent) per cycle of a consume (if legal) and a return (if legal).
struct Mix {
    unsigned consume, ret;
};
constexpr Mix kMixes[] = {
    {90, 10},   // running dry
    {10, 90},   // refilling
    {50, 50},   // balanced
    {100, 100}, // both every cycle
    {100, 0},   // consume only
    {0, 100},   // return only
    {70, 70},
};
constexpr unsigned kNumMixes = sizeof kMixes / sizeof kMixes[0];

// Captures what the simulation prints (Verilator reports assertions on stdout) so the
// negative test can check the report, then echoes it.
class StdoutCapture {
  public:
    explicit StdoutCapture(UnitTest &t) : t_(t) {
        std::fflush(stdout);
        file_ = std::tmpfile();
        saved_ = dup(STDOUT_FILENO);
        if (!file_ || saved_ < 0 || dup2(fileno(file_), STDOUT_FILENO) < 0)
            t_.fail("cannot capture stdout: %s", std::strerror(errno));
    }
    std::string finish() {
        std::fflush(stdout);
        dup2(saved_, STDOUT_FILENO);
        close(saved_);
        std::string text;
        std::rewind(file_);
        char buf[512];
        size_t n;
        while ((n = std::fread(buf, 1, sizeof buf, file_)) > 0) text.append(buf, n);
        std::fclose(file_);
        // Keep Verilator's report in the test log, marked as expected.
        size_t pos = 0;
        while (pos < text.size()) {
            size_t end = text.find('\n', pos);
            if (end == std::string::npos) end = text.size();
            std::printf("  expected> %s\n", text.substr(pos, end - pos).c_str());
            pos = end + 1;
        }
        return text;
    }

  private:
    UnitTest &t_;
    std::FILE *file_ = nullptr;
    int saved_ = -1;
};

class CreditTest {
  public:
    explicit CreditTest(const char *name)
        : t_(name, 2 * kCycles), tb_(t_.context()), rng_(kSeed) {}

    // ------------------------------------------------------------ positive
    void run_positive() {
        reset();
        uint64_t zero[kNumCfg] = {}, full[kNumCfg] = {}, both[kNumCfg] = {},
                 ret_zero[kNumCfg] = {};
        Mix mix[kNumCfg];
        for (uint64_t cyc = 0; cyc < kCycles; cyc++) {
            if (cyc % kPhase == 0)
                for (Mix &m : mix) m = kMixes[rng_.below(kNumMixes)];
            bool c[kNumCfg], r[kNumCfg];
            for (unsigned k = 0; k < kNumCfg; k++) {
                // Legal stimulus only: a consume needs a credit, a return needs a flit
                // in flight from an earlier cycle (the counter below Credits); so the
                // two coincide only in between (never with Credits 1).
                c[k] = count_[k] > 0 && rng_.chance(mix[k].consume);
                r[k] = count_[k] < static_cast<int>(kCredits[k]) && rng_.chance(mix[k].ret);
                set_field(tb_.consume_i, k, 1, c[k]);
                set_field(tb_.return_i, k, 1, r[k]);
            }
            tb_.clk_i = 0;
            tb_.eval();
            for (unsigned k = 0; k < kNumCfg; k++) {
                check_available(k);
                zero[k] += count_[k] == 0;
                full[k] += count_[k] == static_cast<int>(kCredits[k]);
                both[k] += c[k] && r[k];
                ret_zero[k] += r[k] && count_[k] == 0;
            }
            edge();
            for (unsigned k = 0; k < kNumCfg; k++) count_[k] += r[k] - c[k];
        }
        for (unsigned k = 0; k < kNumCfg; k++) {
            if (zero[k] < kMinCover || full[k] < kMinCover || ret_zero[k] < kMinCover ||
                (kCredits[k] > 1 && both[k] < kMinCover))
                t_.fail("Credits %u: coverage too low: empty %" PRIu64 " full %" PRIu64
                        " consume+return %" PRIu64 " return when empty %" PRIu64 " cycles",
                        kCredits[k], zero[k], full[k], both[k], ret_zero[k]);
        }
        t_.pass();
    }

    // ------------------------------------------------------------ negative
    void run_negative() {
        for (unsigned k = 0; k < kNumCfg; k++) {
            // Underflow: use every credit, then send one more.
            reset();
            for (unsigned i = 0; i < kCredits[k]; i++) {
                set_field(tb_.consume_i, k, 1, 1);
                tb_.clk_i = 0;
                tb_.eval();
                check_available(k);
                edge();  // fails the test if an assertion fires on a legal consume
                count_[k]--;
            }
            set_field(tb_.consume_i, k, 1, 1);  // illegal: no credit left
            expect_assertion(k, "a_no_underflow", "flit sent without a credit");

            // Overflow: a credit returned to a counter that holds all of them.
            reset();
            set_field(tb_.return_i, k, 1, 1);
            expect_assertion(k, "a_no_overflow", "credit returned beyond the receiver's depth");
        }
        t_.pass();
    }

  private:
    void reset() {
        tb_.consume_i = 0;
        tb_.return_i = 0;
        tb_.rst_i = 1;
        for (int i = 0; i < 2; i++) {
            tb_.clk_i = 0;
            tb_.eval();
            edge();
        }
        tb_.rst_i = 0;
        for (unsigned k = 0; k < kNumCfg; k++) count_[k] = static_cast<int>(kCredits[k]);
    }

    void edge() {
        tb_.clk_i = 1;
        tb_.eval();
        t_.tick();
    }

    void check_available(unsigned k) {
        const bool avail = get_field(tb_.available_o, k, 1);
        if (avail != (count_[k] > 0))
            t_.fail("Credits %u cycle %" PRIu64 ": available_o %d, model holds %d credits",
                    kCredits[k], t_.ticks(), avail, count_[k]);
    }

    // Clocks the illegal input now driven on config k and requires exactly the named
    // assertion of that config's counter to report it, at this edge.
    void expect_assertion(unsigned k, const char *label, const char *msg) {
        tb_.clk_i = 0;
        tb_.eval();
        t_.check_no_assertion();  // nothing fired before the violation
        StdoutCapture cap(t_);
        tb_.clk_i = 1;
        tb_.eval();
        const std::string out = cap.finish();
        const std::string where = "g_cfg[" + std::to_string(k) + "].u_dut." + label;
        if (!t_.context()->gotError())
            t_.fail("Credits %u: %s did not fire (assertion missing, or not compiled in: --assert)",
                    kCredits[k], label);
        if (out.find(where) == std::string::npos || out.find(msg) == std::string::npos)
            t_.fail("Credits %u: an error was reported, but not %s \"%s\"", kCredits[k],
                    where.c_str(), msg);
        // Expected: clear the error state and go on with a clean context.
        t_.context()->gotError(false);
        t_.context()->gotFinish(false);
        tb_.consume_i = 0;
        tb_.return_i = 0;
    }

    UnitTest t_;
    Vtb tb_;
    Rng rng_;
    int count_[kNumCfg] = {};  // model: credits held
};

}  // namespace

int main(int argc, char **argv) {
    const bool negative = argc == 2 && std::strcmp(argv[1], "--negative") == 0;
    if (argc > 2 || (argc == 2 && !negative)) {
        std::printf("FAIL credit_counter: usage: %s [--negative]\n", argv[0]);
        return 2;
    }
    CreditTest test(negative ? "credit_counter_neg" : "credit_counter");
    if (negative) test.run_negative();
    else          test.run_positive();
}
