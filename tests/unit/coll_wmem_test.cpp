// coll_wmem_test.cpp: unit test of canopy_coll_wmem (the working memory) against a model.
//
// Why: the working memory holds every broadcast in flight at a router; its slot rings
// decide which slot a packet takes and when a slot may be reused, and its release is what
// gives the parent its slot credit back: a slot freed too early corrupts a packet being
// sent, one never freed stops the tree.
//
// What: 16 trees x 2 slots (NumDims 2). The test plays the receive scheduler (takes a slot
// of a random tree that has one free, never the same tree two cycles running, and writes
// its packet, 2 to 40 words, one word per cycle, packets interleaved; words past 34 are
// only counted) and the descriptor queue (answers done_i for cand_tree_o: a slot becomes
// done at a random time after its tail is written). Random reads on both ports every
// cycle. Checks every cycle:
//   - alloc_ptr_o / free_ptr_o / tree_full_o follow the model's rings;
//   - a read returns the word last written at that position (the layout {w[5], slot,
//     w[4:0]}, words 0..33), except a read of the word written in the same cycle, which is
//     undefined (and returns it inverted in simulation);
//   - each release (rel_valid_o, rel_slot_o) is the tree's oldest slot, whole and done,
//     released once, and gives a slot credit to its origin port with the tree id when its
//     packet came down a link; refused broadcasts' credits (drop_cr_*) come out the cycle
//     after, on their port, and a release never collides with one;
//   - every done slot is released in the end (no slot leaks).
#include <algorithm>
#include <deque>
#include <map>
#include <vector>

#include "Vtb.h"
#include "unit_common.hpp"

namespace {

using canopy_unit::Rng;
using canopy_unit::UnitTest;
using canopy_unit::get_field;

constexpr uint64_t kSeed = 0x3e3e3e3ec0ffee31ull;
constexpr unsigned kTrees = 16, kSlots = 32;
constexpr unsigned kCycles = 120000;

struct Slot {
    bool used = false, complete = false, done = false, credit = false;
    unsigned port = 0, words = 0, len = 0;
    uint64_t done_at = 0;
};

class WmemTest {
  public:
    WmemTest() : t_("coll_wmem", kCycles + 100000), tb_(t_.context()), rng_(kSeed) {
        mem_.assign(2048, 0);
        known_.assign(2048, false);
    }

    void run() {
        tb_.rst_i = 1;
        for (int i = 0; i < 3; i++) edge();
        tb_.rst_i = 0;
        for (unsigned c = 0; c < kCycles; c++) {
            if (c % 1000 == 0) {
                alloc_pct_ = rng_.below(101);
                done_pct_ = rng_.chance(20) ? 2 : 40;
            }
            cycle(true);
        }
        for (unsigned c = 0; c < 5000; c++) cycle(false);
        for (unsigned s = 0; s < kSlots; s++)
            if (sl_[s].used) t_.fail("slot %u never released", s);
        if (rels_ < 3000 || drops_ < 500 || credits_ < 1000 || full_seen_ < 1000)
            t_.fail("coverage: %u releases, %u refused-broadcast credits, %u release credits, %u full cycles", rels_,
                    drops_, credits_, full_seen_);
        t_.pass();
    }

  private:
    void edge() { clock_edge(tb_, t_); }

    static unsigned addr(unsigned s, unsigned w) { return ((w >> 5) & 1) << 10 | s << 5 | (w & 31); }

    void cycle(bool fresh) {
        tb_.clk_i = 0;
        // --- the outputs of the last edge
        check_release();
        check_credits();
        unsigned aptr = 0, fptr = 0, full = 0;
        for (unsigned t = 0; t < kTrees; t++) {
            aptr |= (ap_[t] & 1u) << t;
            fptr |= (fp_[t] & 1u) << t;
            full |= unsigned(cnt_[t] == 2) << t;
            full_seen_ += cnt_[t] == 2;
        }
        if (tb_.alloc_ptr_o != aptr || tb_.free_ptr_o != fptr || tb_.tree_full_o != full)
            t_.fail("ring state differs: alloc %04x/%04x free %04x/%04x full %04x/%04x", unsigned(tb_.alloc_ptr_o), aptr,
                    unsigned(tb_.free_ptr_o), fptr, unsigned(tb_.tree_full_o), full);
        for (unsigned p = 0; p < 2; p++) {
            if (rd_known_[p] && (p ? tb_.rd1_data_o : tb_.rd0_data_o) != rd_want_[p])
                t_.fail("read port %u: %016llx, expected %016llx", p,
                        (unsigned long long)(p ? tb_.rd1_data_o : tb_.rd0_data_o), (unsigned long long)rd_want_[p]);
        }
        // --- inputs for this cycle
        tb_.alloc_i = 0;
        tb_.wr_valid_i = 0;
        tb_.drop_cr_valid_i = 0;
        int take = -1;
        if (fresh && rng_.chance(alloc_pct_)) {
            const unsigned t = rng_.below(kTrees);
            if (cnt_[t] < 2 && int(t) != last_alloc_) take = int(t);
        }
        last_alloc_ = take;
        if (take >= 0) {
            const unsigned t = unsigned(take), s = 2 * t + ap_[t];
            Slot &x = sl_[s];
            x = Slot();
            x.used = true;
            x.credit = rng_.chance(70);
            x.port = rng_.below(5);
            x.len = rng_.chance(5) ? 35 + rng_.below(6) : 2 + rng_.below(33);
            tb_.alloc_i = 1;
            tb_.alloc_tree_i = t;
            tb_.alloc_port_i = x.port;
            tb_.alloc_credit_i = x.credit;
            write_word(s);  // word 0 in the same cycle
            writing_.push_back(s);
        } else if (!writing_.empty() && rng_.chance(80)) {
            const size_t i = rng_.below(unsigned(writing_.size()));
            write_word(writing_[i]);
        }
        writing_.erase(std::remove_if(writing_.begin(), writing_.end(), [&](unsigned s) { return sl_[s].complete; }),
                       writing_.end());
        if (fresh && rng_.chance(3)) {
            tb_.drop_cr_valid_i = 1;
            drop_port_ = rng_.below(4);
            drop_tree_ = rng_.below(64);
            tb_.drop_cr_port_i = drop_port_;
            tb_.drop_cr_tree_i = drop_tree_;
            exp_cr_.push_back({drop_port_, drop_tree_, t_.ticks() + 1});
            drops_++;
        }
        // slots become done some time after their tail
        for (auto &x : sl_)
            if (x.used && x.complete && !x.done && rng_.chance(done_pct_)) x.done = true;
        // reads
        for (unsigned p = 0; p < 2; p++) {
            const unsigned s = rng_.below(kSlots), w = rng_.below(34), a = addr(s, w);
            (p ? tb_.rd1_addr_i : tb_.rd0_addr_i) = a;
            // A read of the word being written in the same cycle is undefined (the RAMs have
            // no collision logic: canopy_sdp_ram CollisionOld = 0); the lanes never use one.
            rd_known_[p] = known_[a] && !pending_.count(a);
            rd_want_[p] = mem_[a];
        }
        tb_.eval();
        // the descriptor queue's answer for the candidate
        const unsigned ct = tb_.cand_tree_o, cs = 2 * ct + fp_[ct];
        tb_.done_i = sl_[cs].used && sl_[cs].done;
        tb_.eval();
        tb_.clk_i = 1;
        tb_.eval();
        t_.tick();
        // model: the memory and the rings after the edge
        for (auto &[a, v] : pending_) {
            mem_[a] = v;
            known_[a] = true;
        }
        pending_.clear();
        if (take >= 0) {
            ap_[take] ^= 1;
            cnt_[take]++;
        }
    }

    void write_word(unsigned s) {
        Slot &x = sl_[s];
        const uint64_t v = rng_.next();
        tb_.wr_valid_i = 1;
        tb_.wr_slot_i = s;
        tb_.wr_idx_i = x.words;
        tb_.wr_data_i = v;
        tb_.wr_last_i = x.words + 1 == x.len;
        if (x.words < 34) pending_[addr(s, x.words)] = v;
        if (++x.words == x.len) x.complete = true;
    }

    void check_release() {
        // rel_valid_o is registered: the slot was released at the last edge
        if (!tb_.rel_valid_o) return;
        const unsigned s = tb_.rel_slot_o, t = s / 2;
        Slot &x = sl_[s];
        if (!x.used || !x.complete || !x.done) t_.fail("slot %u released while not whole and done", s);
        if (s != 2 * t + fp_[t]) t_.fail("slot %u released out of ring order", s);
        if (x.credit && x.port < 4) exp_cr_.push_back({x.port, t, t_.ticks()});
        x.used = false;
        fp_[t] ^= 1;
        cnt_[t]--;
        rels_++;
    }

    void check_credits() {
        // slot credits come out registered too: a release's in the same cycle as rel_valid_o
        std::vector<std::pair<unsigned, unsigned>> got;
        for (unsigned p = 0; p < 4; p++)
            if ((tb_.slot_credit_valid_o >> p) & 1) got.push_back({p, unsigned(get_field(tb_.slot_credit_tree_o, 6 * p, 6))});
        std::vector<std::pair<unsigned, unsigned>> want;
        for (auto it = exp_cr_.begin(); it != exp_cr_.end();) {
            if (it->when == t_.ticks()) {
                want.push_back({it->port, it->tree});
                it = exp_cr_.erase(it);
            } else {
                ++it;
            }
        }
        credits_ += unsigned(got.size());
        std::sort(got.begin(), got.end());
        std::sort(want.begin(), want.end());
        if (got != want) t_.fail("slot credits at tick %llu: %zu given, %zu expected", (unsigned long long)t_.ticks(),
                                 got.size(), want.size());
    }

    struct Cr {
        unsigned port, tree;
        uint64_t when;
    };
    UnitTest t_;
    Vtb tb_;
    Rng rng_;
    Slot sl_[kSlots];
    unsigned ap_[kTrees] = {}, fp_[kTrees] = {}, cnt_[kTrees] = {};
    std::vector<uint64_t> mem_;
    std::vector<bool> known_;
    std::map<unsigned, uint64_t> pending_;
    std::vector<unsigned> writing_;
    std::deque<Cr> exp_cr_;
    bool rd_known_[2] = {};
    uint64_t rd_want_[2] = {};
    int last_alloc_ = -1;
    unsigned alloc_pct_ = 50, done_pct_ = 40, drop_port_ = 0, drop_tree_ = 0;
    unsigned rels_ = 0, drops_ = 0, credits_ = 0, full_seen_ = 0;
};

}  // namespace

int main() {
    WmemTest test;
    test.run();
}
