// coll_table_test.cpp: unit test of canopy_coll_table (the membership table) against a
// model of the write-time rules of seed 002.
//
// Why: every collective check and every copy the collective unit sends starts from this
// table; a rule wrongly applied either lets a tree with cycles in, or refuses a legal one.
//
// What: NumDims 1..4 at once (canopy_unit_coll_table_tb.sv), 16 trees. Writes of random
// entries, most of them built to be legal (a root or a parent port, children in later
// dimensions or opposite the parent, groups unless transit) and some with one rule broken
// (a port beyond the torus, a child in an earlier dimension or on the parent's own port,
// a transit node with groups, a parent beyond the torus), invalid entries with any bits,
// and indices beyond the table. wok_o must match the model every time; an accepted write
// changes the entry, a refused one leaves it. After every write the three read ports are
// checked at random indices: the read-back port returns the entry as written (zeros if
// never written since reset), the two lookup ports return it with only the bits a valid
// entry can hold (the second: zeros for an invalid entry, and an index beyond 16 reads all
// zeros; the first: the valid bit low, its other fields undefined). A
// reset mid-run clears every entry. Coverage: accepted and refused writes of each kind.
#include <cstdint>

#include "Vtb.h"
#include "coll_model.hpp"
#include "unit_common.hpp"

namespace {

using canopy_unit::Rng;
using canopy_unit::UnitTest;
using canopy_unit::get_field;

constexpr unsigned kNumCfg = 4;
constexpr unsigned kTrees = 16;
constexpr uint64_t kSeed = 0x7ab1e000c0ffee11ull;
constexpr unsigned kWrites = 40000;

struct E {
    uint32_t w;
    bool valid() const { return w & 1; }
    bool root() const { return (w >> 1) & 1; }
    bool transit() const { return (w >> 2) & 1; }
    unsigned parent() const { return (w >> 3) & 0xf; }
    unsigned children() const { return (w >> 7) & 0xff; }
    unsigned groups() const { return (w >> 15) & 0xff; }
};

bool legal(uint32_t w, unsigned ndims) {
    const E e{w};
    if (!e.valid()) return true;
    const unsigned links = 2 * ndims;
    if (e.children() >> links) return false;
    if (e.transit() && e.groups()) return false;
    if (!e.root()) {
        if (e.parent() >= links) return false;
        for (unsigned p = 0; p < 8; p++)
            if ((e.children() >> p) & 1)
                if ((p >> 1) <= (e.parent() >> 1) && p != (e.parent() ^ 1)) return false;
    }
    return true;
}

class TableTest {
  public:
    TableTest() : t_("coll_table", 8 * kWrites), tb_(t_.context()), rng_(kSeed) {}

    void run() {
        reset();
        for (unsigned i = 0; i < kWrites; i++) {
            if (i == kWrites / 2) reset();
            write_random();
            for (unsigned r = 0; r < 3; r++) read_check();
        }
        for (unsigned k = 0; k < kNumCfg; k++)
            if (acc_[k] < 1000 || ref_[k] < 1000)
                t_.fail("NumDims %u coverage: %u accepted, %u refused", k + 1, acc_[k], ref_[k]);
        t_.pass();
    }

  private:
    void edge() {
        tb_.clk_i = 1;
        tb_.eval();
        t_.tick();
        tb_.clk_i = 0;
        tb_.eval();
    }
    void reset() {
        tb_.rst_i = 1;
        tb_.we_i = 0;
        edge();
        edge();
        tb_.rst_i = 0;
        for (unsigned k = 0; k < kNumCfg; k++)
            for (unsigned t = 0; t < kTrees; t++) written_[k][t] = false, ent_[k][t] = 0;
    }

    uint32_t random_entry() {
        const unsigned nd = 1 + rng_.below(4);
        const unsigned links = 2 * nd;
        canopy_coll::Entry e;
        e.valid = !rng_.chance(10);
        e.root = rng_.chance(30);
        e.transit = rng_.chance(15);
        e.parent = rng_.below(links);
        for (unsigned p = 0; p < links; p++)
            if (rng_.chance(40) && (e.root || (p >> 1) > (e.parent >> 1) || p == (e.parent ^ 1))) e.children |= 1u << p;
        e.groups = e.transit ? 0 : rng_.bits(8);
        uint32_t w = e.word();
        switch (rng_.below(12)) {  // break one rule now and then
            case 0: w |= 1u << (7 + rng_.below(8)); break;               // a child anywhere
            case 1: w |= (rng_.bits(4)) << 3; break;                     // any parent
            case 2: w |= 4u | (rng_.bits(8) << 15); break;               // transit with groups
            case 3: w |= rng_.bits(9) << 23; break;                      // reserved bits
            case 4: w = rng_.next() & ~1u; break;                        // invalid, any bits
            default: break;
        }
        return w;
    }

    void write_random() {
        const unsigned idx = rng_.chance(5) ? kTrees + rng_.below(48) : rng_.below(kTrees);
        const uint32_t w = random_entry();
        tb_.we_i = 1;
        tb_.widx_i = idx;
        tb_.wentry_i = w;
        tb_.eval();
        for (unsigned k = 0; k < kNumCfg; k++) {
            const bool ok = idx < kTrees && legal(w, k + 1);
            if (get_field(tb_.wok_o, k, 1) != ok)
                t_.fail("NumDims %u: entry %08x at %u: wok_o %d, expected %d", k + 1, w, idx, !ok, ok);
            (ok ? acc_ : ref_)[k]++;
            if (ok) {
                ent_[k][idx] = w;
                written_[k][idx] = true;
            }
        }
        edge();
        tb_.we_i = 0;
    }

    void read_check() {
        const unsigned r = rng_.chance(5) ? kTrees + rng_.below(48) : rng_.below(kTrees);
        const unsigned l = rng_.below(kTrees + 4), l2 = rng_.below(kTrees + 4);
        tb_.ridx_i = r;
        tb_.lidx_i = l;
        tb_.l2idx_i = l2;
        tb_.eval();
        for (unsigned k = 0; k < kNumCfg; k++) {
            const uint32_t want_r = r < kTrees && written_[k][r] ? ent_[k][r] : 0;
            if (get_field(tb_.rentry_o, 32 * k, 32) != want_r)
                t_.fail("NumDims %u: read-back of %u gives %08x, expected %08x", k + 1, r,
                        unsigned(get_field(tb_.rentry_o, 32 * k, 32)), want_r);
            check_lookup(k, l, get_field(tb_.lentry_o, 32 * k, 32), "lookup", false);
            check_lookup(k, l2, get_field(tb_.l2entry_o, 32 * k, 32), "second lookup", true);
        }
        t_.tick();
    }

    // gated: an invalid entry reads all zeros; else only its valid bit is defined.
    void check_lookup(unsigned k, unsigned idx, uint64_t got, const char *what, bool gated) {
        uint32_t want = 0;
        const bool valid = idx < kTrees && written_[k][idx] && (ent_[k][idx] & 1);
        if (valid) {
            const uint32_t links = (1u << (2 * (k + 1))) - 1;
            want = ent_[k][idx] & (0x7f | (links << 7) | (0xffu << 15));  // no reserved bits
        }
        if (!valid && !gated) got &= 1;
        if (got != want)
            t_.fail("NumDims %u: %s of %u gives %08x, expected %08x", k + 1, what, idx, unsigned(got), want);
    }

    UnitTest t_;
    Vtb tb_;
    Rng rng_;
    uint32_t ent_[kNumCfg][kTrees] = {};
    bool written_[kNumCfg][kTrees] = {};
    unsigned acc_[kNumCfg] = {}, ref_[kNumCfg] = {};
};

}  // namespace

int main() {
    TableTest test;
    test.run();
}
