// reduce_pool_test.cpp: unit test of canopy_reduce_pool against a model.
//
// Why: the pool is what makes the reduce engine's shared accumulators safe: every tree
// keeps one in reserve, so a tree with no reduce in progress is always admitted, and the
// shared ones must never be handed out twice nor lost (docs/collectives.md).
//
// What: two pools at once (16 trees x 64 accumulators as in the router; 4 x 8, which runs
// full all the time), see canopy_unit_reduce_pool_tb.sv. Each config gets its own random
// stream of requests from a fixed seed, at least two cycles apart as the contract asks:
// ask for a random tree (admit_o and slot_o must equal the model: the tree's reserve if
// free, else a never-used shared one, else the oldest freed shared one; admitted exactly
// when the reserve or a shared one is free), take it if admitted, and give back random
// held accumulators (sometimes in the same cycle as a take). Phases favour taking (the
// pool runs full: then a tree holding its reserve must be refused and one not holding it
// admitted), giving back, or both. Every accumulator handed out must be free at that
// moment, and free_count_o must follow the model. Coverage: full pools, admissions by
// reserve while full, refusals, take and give in the same cycle.
#include <algorithm>
#include <deque>
#include <vector>

#include "Vtb.h"
#include "unit_common.hpp"

namespace {

using canopy_unit::Rng;
using canopy_unit::UnitTest;
using canopy_unit::get_field;
using canopy_unit::set_field;

constexpr unsigned kNumCfg = 2;
constexpr unsigned kTrees[kNumCfg] = {16, 4};
constexpr unsigned kSlots[kNumCfg] = {64, 8};
constexpr uint64_t kSeed = 0x9001cafe00000003ull;
constexpr unsigned kCycles = 120000;

struct Model {
    unsigned trees = 0, slots = 0;
    std::vector<bool> rsv_used, held;
    unsigned fresh = 0;
    std::deque<unsigned> freed;
    std::vector<std::pair<unsigned, unsigned>> out;  // (tree, slot) taken
    unsigned shared() const { return slots - trees; }
    bool admit(unsigned t) const { return !rsv_used[t] || fresh < shared() || !freed.empty(); }
    unsigned slot(unsigned t) const {
        if (!rsv_used[t]) return t;
        if (fresh < shared()) return trees + fresh;
        return freed.empty() ? 0 : freed.front();
    }
    unsigned free_count() const { return slots - unsigned(out.size()); }
};

class PoolTest {
  public:
    PoolTest() : t_("reduce_pool", 2 * kCycles), tb_(t_.context()), rng_(kSeed) {
        for (unsigned k = 0; k < kNumCfg; k++) {
            m_[k].trees = kTrees[k];
            m_[k].slots = kSlots[k];
            m_[k].rsv_used.assign(kTrees[k], false);
            m_[k].held.assign(kSlots[k], false);
        }
    }

    void run() {
        tb_.rst_i = 1;
        for (int i = 0; i < 3; i++) edge();
        tb_.rst_i = 0;
        unsigned mode = 0;
        for (unsigned c = 0; c < kCycles; c++) {
            if (c % 500 == 0) mode = rng_.below(3);
            tb_.clk_i = 0;
            for (unsigned k = 0; k < kNumCfg; k++) drive(k, mode);
            tb_.eval();
            for (unsigned k = 0; k < kNumCfg; k++) check(k);
            edge();
            for (unsigned k = 0; k < kNumCfg; k++) apply(k);
        }
        for (unsigned k = 0; k < kNumCfg; k++)
            if (cover_full_[k] < 100 || cover_reserve_full_[k] < 20 || cover_refused_[k] < 50 || cover_both_[k] < 50)
                t_.fail("config %u coverage: full %u, reserve admitted while full %u, refused %u, take+give %u", k,
                        cover_full_[k], cover_reserve_full_[k], cover_refused_[k], cover_both_[k]);
        t_.pass();
    }

  private:
    void edge() { clock_edge(tb_, t_); }

    // Requests at most every other cycle (the pool's contract).
    void drive(unsigned k, unsigned mode) {
        Model &m = m_[k];
        req_tree_[k] = rng_.below(m.trees);
        set_field(tb_.tree_i, 4 * k, 4, req_tree_[k]);
        take_[k] = give_[k] = false;
        if (!gap_[k]) {
            const unsigned pt = mode == 0 ? 80 : mode == 1 ? 30 : 55;
            take_[k] = rng_.chance(pt);
            give_[k] = !m.out.empty() && rng_.chance(100 - pt);
        }
        set_field(tb_.free_i, k, 1, give_[k]);
        if (give_[k]) {
            give_idx_[k] = rng_.below(unsigned(m.out.size()));
            set_field(tb_.free_slot_i, 6 * k, 6, m.out[give_idx_[k]].second);
        }
        set_field(tb_.alloc_i, k, 1, 0);
    }

    void check(unsigned k) {
        Model &m = m_[k];
        const unsigned t = req_tree_[k];
        const bool admit = get_field(tb_.admit_o, k, 1);
        if (gap_[k]) return;  // admit_o, slot_o, free_count_o are current two cycles after a take or give
        if (get_field(tb_.free_count_o, 7 * k, 7) != m.free_count())
            t_.fail("config %u: free_count_o %u, model %u", k, unsigned(get_field(tb_.free_count_o, 7 * k, 7)),
                    m.free_count());
        if (admit != m.admit(t)) t_.fail("config %u tree %u: admit_o %d, model %d", k, t, admit, m.admit(t));
        if (admit && get_field(tb_.slot_o, 6 * k, 6) != m.slot(t))
            t_.fail("config %u tree %u: slot_o %u, model %u", k, t, unsigned(get_field(tb_.slot_o, 6 * k, 6)),
                    m.slot(t));
        const bool full = m.fresh == m.shared() && m.freed.empty();
        if (full) cover_full_[k]++;
        if (!admit) cover_refused_[k]++;
        if (full && admit) cover_reserve_full_[k]++;
        if (take_[k] && admit) {
            set_field(tb_.alloc_i, k, 1, 1);
            tb_.eval();
        } else {
            take_[k] = false;
        }
        if (take_[k] && give_[k]) cover_both_[k]++;
    }

    void apply(unsigned k) {
        Model &m = m_[k];
        gap_[k] = take_[k] || give_[k];
        const unsigned take_slot = m.slot(req_tree_[k]);  // as offered this cycle (before the give)
        if (give_[k]) {
            const auto [tree, slot] = m.out[give_idx_[k]];
            m.out.erase(m.out.begin() + give_idx_[k]);
            m.held[slot] = false;
            if (slot < m.trees) m.rsv_used[slot] = false;
            else m.freed.push_back(slot);
            (void)tree;
        }
        if (take_[k]) {
            const unsigned t = req_tree_[k], s = take_slot;
            if (m.held[s]) t_.fail("config %u: accumulator %u handed out twice", k, s);
            m.held[s] = true;
            if (s < m.trees) m.rsv_used[s] = true;
            else if (m.fresh < m.shared() && s == m.trees + m.fresh) m.fresh++;
            else m.freed.pop_front();
            m.out.push_back({t, s});
        }
    }

    UnitTest t_;
    Vtb tb_;
    Rng rng_;
    Model m_[kNumCfg];
    unsigned req_tree_[kNumCfg] = {}, give_idx_[kNumCfg] = {};
    bool take_[kNumCfg] = {}, give_[kNumCfg] = {}, gap_[kNumCfg] = {};
    unsigned cover_full_[kNumCfg] = {}, cover_reserve_full_[kNumCfg] = {}, cover_refused_[kNumCfg] = {},
             cover_both_[kNumCfg] = {};
};

}  // namespace

int main() {
    PoolTest test;
    test.run();
}
