// coll_desc_queue_test.cpp: unit test of canopy_coll_desc_queue (work queue and
// dispatcher) against a model.
//
// Why: the dispatcher decides, per send lane, which packet goes next: it must give each
// lane exactly the packets it has to send, a tree's in allocation order, a link lane only
// with a slot credit of the child (what keeps broadcasts of different trees independent),
// and must report a slot done only once every lane has sent it.
//
// What: NumDims 2 (link lanes 0..3, local lane 4), 16 trees x 2 slots. The test plays the
// receive scheduler (slots taken per tree in ring order and decided in that order, with
// random output sets, empty ones included), the send lanes (each holds the packet it is
// sending and one next, as canopy_coll_send_sched does; sending takes a random time and
// the tail leaves later still), the children (a slot credit comes back a random time after
// the lane sent the packet's tail) and the working memory (it asks done_o for a random
// tree each cycle and releases a tree's oldest slot once done_o says so). Checks:
//   - a lane is given only a slot it has to send and has not been given, a tree's in
//     ring order; the local lane in decision order; only while it can take one;
//   - a link lane is given a packet of a tree only while it holds a credit of that tree;
//   - done_o is never true for a slot not decided or not yet sent by every lane it had to
//     go to; in the end every slot is released (nothing lost, nothing stuck);
//   - zero load: a decided slot goes to every link lane that has to send it (and to the
//     local lane) in the cycle it is decided.
// Traffic mixes vary (fast and slow lanes, slow children) so that lanes run out of
// credits, hold next descriptors, and the shared dispatcher serves queued trees.
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

constexpr uint64_t kSeed = 0xde5cde5cc0ffee41ull;
constexpr unsigned kTrees = 16, kSlots = 32, kLanes = 5, kLinks = 4, kLocal = 4;
constexpr unsigned kCycles = 150000;

struct SlotM {
    enum { FREE, ALLOC, DECIDED } st = FREE;
    unsigned lanes = 0, given = 0, sent = 0;
    uint64_t free_at = 0;  // may be taken again from this tick
};
struct Lane {
    int cur = -1, next = -1;
    uint64_t cur_done = 0;                  // when cur finishes being scheduled
    std::deque<std::pair<int, uint64_t>> buf;  // scheduled, tail leaves at .second
    std::deque<int> expect_local;           // local lane: decision order
};

class DqTest {
  public:
    DqTest() : t_("coll_desc_queue", kCycles + 50000), tb_(t_.context()), rng_(kSeed) {
        for (unsigned l = 0; l < kLinks; l++)
            for (unsigned t = 0; t < kTrees; t++) credit_[l][t] = 2;
    }

    void run() {
        tb_.rst_i = 1;
        for (int i = 0; i < 3; i++) edge();
        tb_.rst_i = 0;
        phase_zero_load();
        for (unsigned c = 0; c < kCycles; c++) {
            if (c % 2000 == 0) {
                dec_pct_ = 20 + rng_.below(81);
                send_max_ = rng_.chance(30) ? 80 : 12;
                child_max_ = rng_.chance(30) ? 200 : 10;
            }
            cycle(true);
        }
        for (unsigned c = 0; c < 20000; c++) cycle(false);
        for (unsigned s = 0; s < kSlots; s++)
            if (sl_[s].st != SlotM::FREE) t_.fail("slot %u never released", s);
        if (decides_ < 5000 || waits_credit_ < 500 || next_held_ < 2000 || shared_ < 2000)
            t_.fail("coverage: %u decisions, %u cycles a lane lacked a credit, %u next descriptors, %u given by the "
                    "shared dispatcher",
                    decides_, waits_credit_, next_held_, shared_);
        t_.pass();
    }

  private:
    void edge() { clock_edge(tb_, t_); }

    void phase_zero_load() {
        for (unsigned i = 0; i < 50; i++) {
            const unsigned t = rng_.below(kTrees);
            const unsigned s = 2 * t + ap_[t];
            SlotM &x = sl_[s];
            x = SlotM();
            x.st = SlotM::ALLOC;
            ap_[t] ^= 1;
            cnt_[t]++;
            pend_dec_.push_back({s, unsigned(1 + rng_.below(31))});
            zero_check_ = true;
            for (unsigned c = 0; c < 200; c++) cycle(false);
            zero_check_ = false;
        }
    }

    void cycle(bool fresh) {
        const uint64_t now = t_.ticks();
        tb_.clk_i = 0;
        // --- inputs
        unsigned ready = 0;
        for (unsigned l = 0; l < kLanes; l++) ready |= unsigned(ln_[l].next < 0) << l;
        tb_.lane_ready_i = ready;
        unsigned fptr = 0;
        for (unsigned t = 0; t < kTrees; t++) fptr |= (fp_[t] & 1u) << t;
        tb_.free_ptr_i = fptr;
        // tails: the oldest scheduled packet of a lane whose time has come
        unsigned tail = 0;
        int tail_slot[kLanes];
        for (unsigned l = 0; l < kLanes; l++) {
            tail_slot[l] = -1;
            if (!ln_[l].buf.empty() && ln_[l].buf.front().second <= now) {
                tail_slot[l] = ln_[l].buf.front().first;
                ln_[l].buf.pop_front();
                tail |= 1u << l;
                set_field(tb_.tail_slot_i, 5 * l, 5, unsigned(tail_slot[l]));
            }
        }
        tb_.tail_i = tail;
        // credits back from the children
        unsigned crv = 0;
        for (unsigned l = 0; l < kLinks; l++) {
            for (auto it = ret_[l].begin(); it != ret_[l].end(); ++it) {
                if (it->second <= now) {
                    crv |= 1u << l;
                    set_field(tb_.slot_credit_tree_i, 6 * l, 6, it->first);
                    credit_[l][it->first]++;
                    ret_[l].erase(it);
                    break;
                }
            }
        }
        tb_.slot_credit_valid_i = crv;
        // release (registered by the working memory: announced the cycle after)
        tb_.rel_valid_i = rel_next_ >= 0;
        tb_.rel_slot_i = rel_next_ >= 0 ? rel_next_ : 0;
        rel_next_ = -1;
        // a decision
        tb_.dec_valid_i = 0;
        if (fresh && rng_.chance(dec_pct_)) try_alloc();
        int decided = -1;
        if (!pend_dec_.empty() && (fresh || zero_check_ || true) && rng_.chance(zero_check_ ? 100 : 70)) {
            const auto [s, lanes] = pend_dec_.front();
            pend_dec_.pop_front();
            tb_.dec_valid_i = 1;
            tb_.dec_slot_i = s;
            tb_.dec_lanes_i = lanes;
            decided = int(s);
        }
        const unsigned cand = rng_.below(kTrees);
        tb_.cand_tree_i = cand;
        tb_.eval();
        // --- checks before the edge
        if (decided >= 0) {
            SlotM &x = sl_[decided];
            x.st = SlotM::DECIDED;
            x.lanes = unsigned(tb_.dec_lanes_i);
            decides_++;
            if (x.lanes >> kLocal & 1) ln_[kLocal].expect_local.push_back(decided);
        }
        for (unsigned l = 0; l < kLanes; l++) {
            if (!((tb_.pick_o >> l) & 1)) {
                for (unsigned t = 0; t < kTrees && l < kLinks; t++)
                    if (credit_[l][t] == 0 && has_pending(l, t)) waits_credit_++;
                continue;
            }
            const unsigned s = get_field(tb_.pick_slot_o, 5 * l, 5), t = s / 2;
            if (!((ready >> l) & 1)) t_.fail("lane %u given a descriptor while it holds one", l);
            SlotM &x = sl_[s];
            if (x.st != SlotM::DECIDED || !((x.lanes >> l) & 1) || ((x.given >> l) & 1))
                t_.fail("lane %u given slot %u it does not have to send", l, s);
            if (l == kLocal) {
                if (ln_[l].expect_local.empty() || ln_[l].expect_local.front() != int(s))
                    t_.fail("local lane given slot %u out of decision order", s);
                ln_[l].expect_local.pop_front();
            } else {
                // ring order: the tree's older decided slot for this lane must be given already
                const unsigned o = 2 * t + (s & 1 ? 0 : 1);
                if (is_older(o, s) && sl_[o].st == SlotM::DECIDED && ((sl_[o].lanes >> l) & 1) && !((sl_[o].given >> l) & 1))
                    t_.fail("lane %u given slot %u before the older slot %u of its tree", l, s, o);
                if (credit_[l][t] == 0) t_.fail("lane %u given tree %u without a credit", l, t);
                credit_[l][t]--;
                if (zero_check_ && int(s) != decided) t_.fail("zero load: lane %u not given its slot at once", l);
                if (!zero_check_ && int(s) != decided) shared_++;
            }
            x.given |= 1u << l;
            Lane &ln = ln_[l];
            if (ln.cur < 0) start(ln, int(s));
            else {
                ln.next = int(s);
                next_held_++;
            }
        }
        if (zero_check_ && decided >= 0) {
            const unsigned want = sl_[decided].lanes & ((1u << kLinks) - 1) & (ready | (1u << kLocal));
            if ((tb_.pick_o & ((1u << kLinks) - 1)) != want)
                t_.fail("zero load: slot %d decided for %x, link lanes given at once %x", decided, sl_[decided].lanes,
                        unsigned(tb_.pick_o));
            if ((sl_[decided].lanes >> kLocal & 1) && !((tb_.pick_o >> kLocal) & 1))
                t_.fail("zero load: the local lane not given its slot at once");
        }
        // tails sent: the slot is sent by that lane, the child will give a credit back
        for (unsigned l = 0; l < kLanes; l++) {
            if (tail_slot[l] < 0) continue;
            SlotM &x = sl_[tail_slot[l]];
            x.sent |= 1u << l;
            if (l < kLinks) ret_[l].push_back({unsigned(tail_slot[l]) / 2, now + 1 + rng_.below(child_max_)});
        }
        // done_o: never before the model
        const unsigned s0 = 2 * cand + fp_[cand];
        const bool model_done = cnt_[cand] > 0 && sl_[s0].st == SlotM::DECIDED && (sl_[s0].sent == sl_[s0].lanes);
        if (tb_.done_o && !model_done) t_.fail("done_o for tree %u slot %u that is not done (state %d lanes %x sent %x given %x cnt %u, tick %llu)", cand, s0, int(sl_[s0].st), sl_[s0].lanes, sl_[s0].sent, sl_[s0].given, cnt_[cand], (unsigned long long)now);
        if (tb_.done_o && model_done && rng_.chance(80)) {
            // release now (the working memory): the ring moves at this edge
            sl_[s0] = SlotM();
            sl_[s0].free_at = now + 2;
            fp_[cand] ^= 1;
            cnt_[cand]--;
            rel_next_ = int(s0);
        }
        tb_.clk_i = 1;
        tb_.eval();
        t_.tick();
        // lanes: scheduling progress
        for (unsigned l = 0; l < kLanes; l++) {
            Lane &ln = ln_[l];
            if (ln.cur >= 0 && ln.cur_done <= now) {
                ln.buf.push_back({ln.cur, now + 1 + rng_.below(send_max_)});
                if (ln.buf.size() > 1 && ln.buf.back().second < ln.buf[ln.buf.size() - 2].second)
                    ln.buf.back().second = ln.buf[ln.buf.size() - 2].second;
                ln.cur = -1;
            } else if (ln.cur < 0 && ln.next >= 0) {
                start(ln, ln.next);
                ln.next = -1;
            }
        }
    }

    void start(Lane &ln, int s) {
        ln.cur = s;
        ln.cur_done = t_.ticks() + 2 + rng_.below(send_max_);
    }

    bool is_older(unsigned o, unsigned s) const {
        const unsigned t = s / 2;
        return cnt_[t] == 2 && o == 2 * t + fp_[t];
    }

    bool has_pending(unsigned l, unsigned t) const {
        for (unsigned j = 0; j < 2; j++) {
            const SlotM &x = sl_[2 * t + j];
            if (x.st == SlotM::DECIDED && ((x.lanes >> l) & 1) && !((x.given >> l) & 1)) return true;
        }
        return false;
    }

    // Take a slot of a random tree (ring order) and decide it later, in the same order.
    void try_alloc() {
        const unsigned t = rng_.below(kTrees);
        if (cnt_[t] == 2) return;
        const unsigned s = 2 * t + ap_[t];
        if (sl_[s].st != SlotM::FREE || sl_[s].free_at > t_.ticks()) return;
        sl_[s] = SlotM();
        sl_[s].st = SlotM::ALLOC;
        ap_[t] ^= 1;
        cnt_[t]++;
        pend_dec_.push_back({s, unsigned(rng_.chance(5) ? 0 : rng_.below(32))});
    }

    UnitTest t_;
    Vtb tb_;
    Rng rng_;
    SlotM sl_[kSlots];
    Lane ln_[kLanes];
    unsigned ap_[kTrees] = {}, fp_[kTrees] = {}, cnt_[kTrees] = {};
    unsigned credit_[kLinks][kTrees];
    std::vector<std::pair<unsigned, uint64_t>> ret_[kLinks];
    std::deque<std::pair<unsigned, unsigned>> pend_dec_;
    int rel_next_ = -1;
    bool zero_check_ = false;
    unsigned dec_pct_ = 50, send_max_ = 12, child_max_ = 10;
    unsigned decides_ = 0, waits_credit_ = 0, next_held_ = 0, shared_ = 0;
};

}  // namespace

int main() {
    DqTest test;
    test.run();
}
