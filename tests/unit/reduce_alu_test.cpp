// reduce_alu_test.cpp: unit test of canopy_reduce_alu against a reference model.
//
// Why: every element of every hardware reduce goes through this block; it shares one
// adder between the 32- and 64-bit types (the carry into bit 32 cut for the former) and
// builds 64-bit compares from two 32-bit ones, which is exactly where an off-by-one in a
// sign or a carry would hide.
//
// What: every op (SUM, MIN, MAX) x dtype (I32, U32, I64, U64) on operand words drawn to
// hit the edges: 0, all ones, each type's minimum and maximum in each half, values equal
// in one half and not the other, equal words, sums that carry out of bit 31 and bit 63,
// and random words (splitmix64, fixed seed); y_o must equal the model (coll_model.hpp:
// per-element, wrapping sums, signed compares for I32/I64). Codes the engine refuses
// (op 3..7, dtype 4..7) must give a_i. Coverage: each op x dtype sees a < b, a > b and
// a == b in the element compare, and a carry out of bit 31.
#include <cstdint>
#include <vector>

#include "Vtb.h"
#include "coll_model.hpp"
#include "unit_common.hpp"

namespace {

using canopy_unit::Rng;
using canopy_unit::UnitTest;
using namespace canopy_coll;

constexpr uint64_t kSeed   = 0xa1a1a1a1c0ffee07ull;
constexpr unsigned kRandom = 200000;

class AluTest {
  public:
    AluTest() : t_("reduce_alu", 10 * kRandom), tb_(t_.context()), rng_(kSeed) {}

    void run() {
        const std::vector<uint64_t> edges = {
            0, ~0ull, 1, 0x7fffffffffffffffull, 0x8000000000000000ull, 0x000000007fffffffull,
            0x0000000080000000ull, 0x00000000ffffffffull, 0xffffffff00000000ull, 0x7fffffff7fffffffull,
            0x8000000080000000ull, 0x0000000100000000ull, 0x12345678ffffffffull, 0x1234567800000001ull};
        for (uint64_t a : edges)
            for (uint64_t b : edges)
                for (unsigned op = 0; op < 8; op++)
                    for (unsigned dt = 0; dt < 8; dt++) check(a, b, op, dt);
        for (unsigned i = 0; i < kRandom; i++) {
            uint64_t a = rng_.next(), b = rng_.next();
            const unsigned k = rng_.below(4);
            if (k == 0) b = (a & 0xffffffff00000000ull) | (b & 0xffffffffull);  // equal high halves
            if (k == 1) b = (a & 0xffffffffull) | (b & 0xffffffff00000000ull);  // equal low halves
            if (k == 2 && rng_.chance(20)) b = a;
            check(a, b, rng_.below(3), rng_.below(4));
            if (rng_.chance(5)) check(a, b, 3 + rng_.below(5), rng_.below(8));
            if (rng_.chance(5)) check(a, b, rng_.below(8), 4 + rng_.below(4));
        }
        for (unsigned op = 0; op < 3; op++)
            for (unsigned dt = 0; dt < 4; dt++)
                if (lt_[op][dt] < 50 || gt_[op][dt] < 50 || eq_[op][dt] < 20 || carry_[op][dt] < 50)
                    t_.fail("coverage op %u dtype %u: lt %u gt %u eq %u carry31 %u", op, dt, lt_[op][dt],
                            gt_[op][dt], eq_[op][dt], carry_[op][dt]);
        t_.pass();
    }

  private:
    void check(uint64_t a, uint64_t b, unsigned op, unsigned dt) {
        tb_.a_i = a;
        tb_.b_i = b;
        tb_.op_i = op;
        tb_.dtype_i = dt;
        tb_.eval();
        t_.tick();
        const bool known = op <= OP_MAX && dt <= DT_U64;
        const uint64_t want = known ? alu(a, b, op, dt) : a;
        if (tb_.y_o != want)
            t_.fail("op %u dtype %u: a %016llx b %016llx: y %016llx, expected %016llx", op, dt,
                    (unsigned long long)a, (unsigned long long)b, (unsigned long long)tb_.y_o,
                    (unsigned long long)want);
        if (!known) return;
        // Coverage on the low element.
        const bool sgn = dt == DT_I32 || dt == DT_I64;
        const unsigned bits = esize(dt) * 8;
        const uint64_t m = bits == 64 ? ~0ull : (1ull << bits) - 1;
        const uint64_t x = a & m, y = b & m;
        int64_t sx = int64_t(x), sy = int64_t(y);
        if (bits == 32) sx = int32_t(uint32_t(x)), sy = int32_t(uint32_t(y));
        const bool lt = sgn ? sx < sy : x < y;
        if (x == y) eq_[op][dt]++;
        else if (lt) lt_[op][dt]++;
        else gt_[op][dt]++;
        if (((a & 0xffffffffull) + (b & 0xffffffffull)) >> 32) carry_[op][dt]++;
    }

    UnitTest t_;
    Vtb tb_;
    Rng rng_;
    unsigned lt_[3][4] = {}, gt_[3][4] = {}, eq_[3][4] = {}, carry_[3][4] = {};
};

}  // namespace

int main() {
    AluTest test;
    test.run();
}
