// unit_common.hpp: what every canopy unit test driver (tests/unit/*_test.cpp) shares.
//
//   - Rng: splitmix64, the project's specified generator, so every run is the same run.
//   - UnitTest: the verdict (exactly one line, `PASS <name>` or `FAIL <name>: reason`, and
//     the exit status), the watchdog (a limit on clock cycles or combinational
//     evaluations), and the check that no RTL assertion has fired. The Verilator context
//     is set not to abort on an assertion failure, so a failing `CANOPY_ASSERT` becomes a
//     FAIL line (after Verilator's own message naming the assertion) instead of a core
//     dump, and the negative test can observe that an assertion fired.
//   - get_field / set_field: bit fields of packed ports. A test top
//     (tests/unit/canopy_unit_*_tb.sv) brings the ports of several parameterisations of
//     one block out as packed arrays, [config][bits]; these helpers slice them, whatever
//     C++ type Verilator chose (an integer up to 64 bits, a VlWide above).
#ifndef CANOPY_UNIT_COMMON_HPP
#define CANOPY_UNIT_COMMON_HPP

#include <cinttypes>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>

#include "rng.hpp"
#include "verilated.h"

namespace canopy_unit {

// ------------------------------------------------------------------ randomness
using Rng = canopy::Rng;  // sim/rng.hpp

// ------------------------------------------------------------------ verdict, watchdog
class UnitTest {
  public:
    // name: printed in the verdict line; limit: the watchdog's budget of ticks (clock
    // cycles, or evaluations for a combinational block).
    UnitTest(const char *name, uint64_t limit) : name_(name), limit_(limit) {
        ctx_.fatalOnError(false);  // an RTL assertion reports, then the test fails it
    }

    VerilatedContext *context() { return &ctx_; }
    const char *name() const { return name_.c_str(); }
    uint64_t ticks() const { return ticks_; }

    [[noreturn]] void pass() {
        std::printf("PASS %s\n", name_.c_str());
        std::fflush(stdout);
        std::exit(0);
    }

    [[noreturn]] __attribute__((format(printf, 2, 3))) void fail(const char *fmt, ...) {
        char reason[1024];
        va_list ap;
        va_start(ap, fmt);
        std::vsnprintf(reason, sizeof reason, fmt, ap);
        va_end(ap);
        std::printf("FAIL %s: %s\n", name_.c_str(), reason);
        std::fflush(stdout);
        std::exit(1);
    }

    // Called once per clock cycle (or evaluation): fails the test past the limit, and
    // fails it as soon as an RTL assertion has fired.
    void tick() {
        ctx_.timeInc(1);  // simulation time = ticks, in Verilator's messages
        if (++ticks_ > limit_) fail("watchdog: more than %" PRIu64 " cycles", limit_);
        check_no_assertion();
    }

    void check_no_assertion() {
        if (ctx_.gotError())
            fail("RTL assertion fired (message above) at tick %" PRIu64, ticks_);
    }

  private:
    VerilatedContext ctx_;
    std::string name_;
    uint64_t limit_;
    uint64_t ticks_ = 0;
};

// One rising clock edge of a test top whose clock is clk_i (low, evaluate, high,
// evaluate), counted by the watchdog.
template <class Tb>
void clock_edge(Tb &tb, UnitTest &t) {
    tb.clk_i = 0;
    tb.eval();
    tb.clk_i = 1;
    tb.eval();
    t.tick();
}

// ------------------------------------------------------------------ packed port fields
// Ports of up to 64 bits are C++ integers, wider ones VlWide<N> (32-bit words, LSB first).
// Fields read or written here are at most 64 bits wide.
inline uint64_t field_mask(unsigned width) {
    return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
}

template <class T, class = std::enable_if_t<std::is_integral<T>::value>>
uint64_t get_field(T port, unsigned lsb, unsigned width) {
    return (static_cast<uint64_t>(port) >> lsb) & field_mask(width);
}

template <class T, class = std::enable_if_t<std::is_integral<T>::value>>
void set_field(T &port, unsigned lsb, unsigned width, uint64_t value) {
    const uint64_t mask = field_mask(width) << lsb;
    port = static_cast<T>((static_cast<uint64_t>(port) & ~mask) | ((value << lsb) & mask));
}

template <std::size_t N>
uint64_t get_field(const VlWide<N> &port, unsigned lsb, unsigned width) {
    uint64_t v = 0;
    for (unsigned i = 0; i < width; i++) {
        const unsigned b = lsb + i;
        v |= static_cast<uint64_t>((port.at(b / 32) >> (b % 32)) & 1u) << i;
    }
    return v;
}

template <std::size_t N>
void set_field(VlWide<N> &port, unsigned lsb, unsigned width, uint64_t value) {
    for (unsigned i = 0; i < width; i++) {
        const unsigned b = lsb + i;
        const uint32_t bit = 1u << (b % 32);
        if ((value >> i) & 1u) port.at(b / 32) |= bit;
        else                   port.at(b / 32) &= ~bit;
    }
}

}  // namespace canopy_unit

#endif  // CANOPY_UNIT_COMMON_HPP
