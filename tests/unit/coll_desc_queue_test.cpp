// coll_desc_queue_test.cpp: unit test of canopy_coll_desc_queue (work queue and
// dispatcher) against a model.
//
// Why: the dispatcher decides which packet the multicast link lane sends next and to
// which links: it must give it exactly the link packets decided, each once with its mask, a
// tree's in allocation order, and only while every child of the mask holds a slot credit of
// the tree (what keeps broadcasts of different trees independent: a tree without credits
// waits, the others go on); the local lane must get the host's copies in decision order;
// and done_o must report a slot done only once every lane it had to go to has sent it (the
// working memory releases it on that word), and then say so at once.
//
// What: NumDims 2 (links 0..3, local lane = bit 4 of dec_lanes_i), 16 trees x 2 slots. The
// test plays
//   - the receive scheduler: slots taken per tree in ring order, each decided a random
//     time later (a tree's in allocation order, trees interleaved at random), with random
//     link masks (random sets, single links, all links, empty) and a random local bit;
//   - the working memory: free_ptr_i per tree; asks done_o for a random tree every cycle
//     and, when it says done, releases that slot 0 to 2 cycles later (free_ptr_i moves and
//     rel_valid_i comes in the same cycle, as canopy_coll_wmem does);
//   - the two lanes (as canopy_coll_send_lane): each sends one packet and holds one next
//     descriptor; ready while it holds none (the link lane's ready sometimes rises late but
//     then stays until a descriptor is given, which the 3-step dispatcher relies on; the
//     local lane's also drops at random); sending takes a random time and the tails leave
//     later still, in the order given;
//   - the children: each link's slot credit for the tree comes back a random time after
//     the link lane sent the packet's tail (per link; some phases have one slow child).
// Checks against the model, every cycle:
//   - link lane: every packet with links given exactly once, with exactly its decided mask,
//     per tree in decision order, never before it is decided, only while link_ready_i, and
//     only while every link of the mask holds a credit of its tree (credits: SlotsPerTree
//     out of reset, -1 per link at a give, +1 per return; the model never returns more
//     than it was given);
//   - local lane: every packet with the local bit given exactly once, in decision order,
//     only while local_ready_i, and whenever the lane is ready and one is waiting;
//   - done_o for {cand_tree_i, free_ptr_i[cand_tree_i]} equals the model's "decided in an
//     earlier cycle, and every lane it had to go to has sent its tail in an earlier cycle",
//     in every cycle, both ways; slots are released only on done_o;
//   - fast path: a link packet decided while the link lane is ready, nothing was pending
//     for the links this cycle or the last, and every child of its mask holds a credit, is
//     given in its decision cycle (also a zero-load phase: one packet at a time, each must
//     go to the link lane and the local lane in its decision cycle);
//   - no idle dispatcher: with a tree ready (head pending, credits) in the cycle before and
//     the link lane ready, a packet is given within 3 cycles (the three steps); no
//     starvation: while a tree is ready, at most NumTrees packets of other trees are given
//     (one in flight, then round robin);
//   - in the end every slot is released, every credit back, nothing left queued; no RTL
//     assertion fires; a watchdog bounds the run.
// Traffic mixes change every 2000 cycles (load, mask shapes, lane and child speeds), and
// coverage counters make sure lanes hold next descriptors, trees wait for credits while
// others overtake them, and the shared dispatcher, the fast path and the local queue all
// carry traffic.
#include <algorithm>
#include <deque>
#include <utility>
#include <vector>

#include "Vtb.h"
#include "unit_common.hpp"

namespace {

using canopy_unit::Rng;
using canopy_unit::UnitTest;
using canopy_unit::get_field;
using canopy_unit::set_field;

constexpr uint64_t kSeed = 0xde5cde5cc0ffee42ull;
constexpr unsigned kTrees = 16, kPerTree = 2, kSlots = kTrees * kPerTree, kLinks = 4;
constexpr unsigned kLinkMask = (1u << kLinks) - 1, kLocalBit = 1u << kLinks;
constexpr unsigned kCycles = 150000, kDrain = 20000, kZeroPackets = 60, kZeroGap = 300;
constexpr uint64_t kNever = ~uint64_t{0};

struct SlotM {
    enum St { FREE, ALLOC, DECIDED } st = FREE;
    unsigned links = 0;            // the links it goes to
    bool local = false;            // the host gets a copy
    bool lsent = false, hsent = false;  // link / local lane sent its tail (in an earlier cycle)
    bool releasing = false;        // done seen, release scheduled
    uint64_t alloc_at = 0, dec_at = 0, free_at = 0;
};

// A send lane: the packet being sent (cur), a next descriptor, the tails to come.
struct LaneM {
    int cur = -1, next = -1;
    uint64_t cur_done = 0;         // cur finishes being scheduled
    uint64_t ready_at = 0;         // link lane: ready rises no earlier
    std::deque<std::pair<unsigned, uint64_t>> buf;  // scheduled: (slot, tail leaves at)
};

class DqTest {
  public:
    DqTest() : t_("coll_desc_queue", kZeroPackets * (kZeroGap + 10) + kCycles + kDrain + 1000), tb_(t_.context()),
               rng_(kSeed) {
        for (unsigned l = 0; l < kLinks; l++)
            for (unsigned t = 0; t < kTrees; t++) credit_[l][t] = kPerTree;
        for (unsigned l = 0; l < kLinks; l++) child_max_[l] = 10;
    }

    void run() {
        tb_.rst_i = 1;
        for (int i = 0; i < 3; i++) canopy_unit::clock_edge(tb_, t_);
        tb_.rst_i = 0;
        phase_zero_load();
        for (unsigned c = 0; c < kCycles; c++) {
            if (c % 2000 == 0) new_phase();
            cycle(true);
        }
        // Drain: no new slots; lanes at full speed, children back to normal.
        dec_pct_ = 100;
        ready_late_pct_ = 0;
        local_stall_pct_ = 0;
        for (unsigned l = 0; l < kLinks; l++) child_max_[l] = 10;
        for (unsigned c = 0; c < kDrain; c++) cycle(false);
        for (unsigned s = 0; s < kSlots; s++)
            if (sl_[s].st != SlotM::FREE) t_.fail("slot %u never released (state %d)", s, int(sl_[s].st));
        for (unsigned l = 0; l < kLinks; l++)
            for (unsigned t = 0; t < kTrees; t++)
                if (credit_[l][t] != kPerTree) t_.fail("link %u tree %u: %u credits after the drain", l, t, credit_[l][t]);
        for (unsigned t = 0; t < kTrees; t++)
            if (!link_q_[t].empty()) t_.fail("tree %u: link packets never given", t);
        if (!local_q_.empty()) t_.fail("local packets never given");
        if (decides_ < 5000 || waits_credit_ < 500 || overtakes_ < 500 || next_held_ < 2000 || shared_ < 2000 ||
            fast_load_ < 200 || local_queued_ < 1000 || releases_ < 5000 || max_overtaken_ < 8)
            t_.fail("coverage: %u decisions, %u cycles a tree lacked a credit, %u gives past a tree lacking one, "
                    "%u next descriptors, %u given by the dispatcher, %u by the fast path under load, %u local "
                    "queued, %u releases, a ready tree overtaken at most %u times",
                    decides_, waits_credit_, overtakes_, next_held_, shared_, fast_load_, local_queued_, releases_,
                    max_overtaken_);
        t_.pass();
    }

  private:
    // ------------------------------------------------------------ traffic
    void new_phase() {
        alloc_pct_ = 20 + rng_.below(81);
        dec_pct_ = 40 + rng_.below(61);
        mask_mode_ = rng_.below(4);
        local_pct_ = rng_.chance(20) ? 0 : rng_.chance(20) ? 100 : rng_.below(101);
        link_send_max_ = rng_.chance(30) ? 80 : 12;
        local_send_max_ = rng_.chance(30) ? 80 : 12;
        ready_late_pct_ = rng_.chance(30) ? 50 : 0;
        local_stall_pct_ = rng_.chance(30) ? 50 : 0;
        for (unsigned l = 0; l < kLinks; l++) child_max_[l] = rng_.chance(30) ? 200 : 10;
        if (rng_.chance(30)) child_max_[rng_.below(kLinks)] = 600;  // one slow child
    }

    unsigned random_lanes() {
        if (rng_.chance(4)) return 0;  // nothing to send: done at once
        unsigned links = 0;
        switch (mask_mode_) {
        case 0: links = unsigned(rng_.bits(kLinks)); break;
        case 1: links = 1u << rng_.below(kLinks); break;
        case 2: links = kLinkMask; break;
        default: links = rng_.chance(50) ? 1u << rng_.below(kLinks) : unsigned(rng_.bits(kLinks)); break;
        }
        return links | (rng_.chance(local_pct_) ? kLocalBit : 0);
    }

    // Take a slot of a random tree (ring order); it is decided in a later cycle.
    void try_alloc() {
        const unsigned t = rng_.below(kTrees);
        if (cnt_[t] == kPerTree) return;
        const unsigned s = kPerTree * t + ap_[t];
        if (sl_[s].st != SlotM::FREE || sl_[s].free_at > now_) return;
        sl_[s] = SlotM();
        sl_[s].st = SlotM::ALLOC;
        sl_[s].alloc_at = now_;
        ap_[t] = (ap_[t] + 1) % kPerTree;
        cnt_[t]++;
        undecided_[t].push_back(s);
    }

    // The oldest undecided slot of a random tree with one (taken in an earlier cycle).
    int pick_decision() {
        const unsigned t0 = rng_.below(kTrees);
        for (unsigned i = 0; i < kTrees; i++) {
            const unsigned t = (t0 + i) % kTrees;
            if (!undecided_[t].empty() && sl_[undecided_[t].front()].alloc_at < now_) {
                const unsigned s = undecided_[t].front();
                undecided_[t].pop_front();
                return int(s);
            }
        }
        return -1;
    }

    void phase_zero_load() {
        zero_ = true;
        for (unsigned i = 0; i < kZeroPackets; i++) {
            const unsigned t = rng_.below(kTrees);
            if (cnt_[t] != 0) t_.fail("zero load: tree %u not drained", t);
            const unsigned s = kPerTree * t + ap_[t];
            sl_[s] = SlotM();
            sl_[s].st = SlotM::ALLOC;
            sl_[s].alloc_at = now_;
            ap_[t] = (ap_[t] + 1) % kPerTree;
            cnt_[t]++;
            zero_lanes_ = (1u + rng_.below(kLinkMask)) | (rng_.chance(50) ? kLocalBit : 0);
            undecided_[t].push_back(s);
            for (unsigned c = 0; c < kZeroGap; c++) cycle(false);
        }
        if (zero_fast_ != kZeroPackets)
            t_.fail("zero load: %u of %u packets given in their decision cycle", zero_fast_, kZeroPackets);
        zero_ = false;
    }

    // ------------------------------------------------------------ one cycle
    void cycle(bool fresh) {
        now_ = t_.ticks();
        tb_.clk_i = 0;

        // --- inputs: lanes' readiness
        const bool link_ready = link_.next < 0 && link_.ready_at <= now_;
        const bool local_ready = local_.next < 0 && !(local_stall_pct_ && rng_.chance(local_stall_pct_));
        tb_.link_ready_i = link_ready;
        tb_.local_ready_i = local_ready;
        unsigned fptr = 0;
        for (unsigned t = 0; t < kTrees; t++) fptr |= fp_[t] << t;
        tb_.free_ptr_i = fptr;
        // tails: each lane's oldest scheduled packet whose time has come
        const int ltail = pop_tail(link_);
        const int htail = pop_tail(local_);
        tb_.link_tail_i = ltail >= 0;
        tb_.link_tail_slot_i = ltail >= 0 ? unsigned(ltail) : unsigned(rng_.bits(5));
        tb_.local_tail_i = htail >= 0;
        tb_.local_tail_slot_i = htail >= 0 ? unsigned(htail) : unsigned(rng_.bits(5));
        // slot credits back from the children, one per link per cycle
        unsigned crv = 0;
        int crt[kLinks];
        for (unsigned l = 0; l < kLinks; l++) {
            crt[l] = -1;
            for (auto it = ret_[l].begin(); it != ret_[l].end(); ++it) {
                if (it->second <= now_) {
                    crt[l] = int(it->first);
                    ret_[l].erase(it);
                    break;
                }
            }
            if (crt[l] >= 0) {
                crv |= 1u << l;
                set_field(tb_.slot_credit_tree_i, 6 * l, 6, unsigned(crt[l]));
            } else {
                set_field(tb_.slot_credit_tree_i, 6 * l, 6, rng_.bits(6));  // don't care
            }
        }
        tb_.slot_credit_valid_i = crv;
        // release: announced in the cycle free_ptr_i has moved
        const bool rel = rel_announce_ >= 0;
        tb_.rel_valid_i = rel;
        tb_.rel_slot_i = rel ? unsigned(rel_announce_) : unsigned(rng_.bits(5));
        rel_announce_ = -1;
        // a decision
        if (fresh && rng_.chance(alloc_pct_)) try_alloc();
        int dec = -1;
        if (rng_.chance(zero_ ? 100 : dec_pct_)) dec = pick_decision();
        unsigned dec_lanes = 0;
        tb_.dec_valid_i = dec >= 0;
        if (dec >= 0) {
            dec_lanes = zero_ ? zero_lanes_ : random_lanes();
            tb_.dec_slot_i = unsigned(dec);
            tb_.dec_lanes_i = dec_lanes;
        } else {
            tb_.dec_slot_i = unsigned(rng_.bits(5));
            tb_.dec_lanes_i = unsigned(rng_.bits(5));
        }
        const unsigned cand = rng_.below(kTrees);
        tb_.cand_tree_i = cand;
        tb_.eval();

        // --- the model's state before this cycle's events (the DUT's registers)
        bool ready[kTrees];
        bool pend_now = false;
        for (unsigned t = 0; t < kTrees; t++) {
            ready[t] = false;
            if (link_q_[t].empty() || sl_[link_q_[t].front()].dec_at >= now_) continue;
            pend_now = true;
            ready[t] = has_credits(t, sl_[link_q_[t].front()].links);
            if (!ready[t]) waits_credit_++;
        }

        // --- this cycle's decision
        if (dec >= 0) {
            SlotM &x = sl_[dec];
            x.st = SlotM::DECIDED;
            x.links = dec_lanes & kLinkMask;
            x.local = (dec_lanes & kLocalBit) != 0;
            x.dec_at = now_;
            decides_++;
            if (x.links) link_q_[unsigned(dec) / kPerTree].push_back(unsigned(dec));
            if (x.local) local_q_.push_back(unsigned(dec));
        }

        // --- the link lane
        const bool lpick = tb_.link_pick_o;
        int given_tree = -1;
        if (dec >= 0 && sl_[dec].links && link_ready && !pend_now && !pend_prev_ &&
            has_credits(unsigned(dec) / kPerTree, sl_[dec].links) &&
            !(lpick && unsigned(tb_.link_pick_slot_o) == unsigned(dec)))
            t_.fail("fast path: slot %d (links %x) decided with the link lane ready, nothing pending and credits, "
                    "not given at once (tick %llu)",
                    dec, sl_[dec].links, (unsigned long long)now_);
        if (zero_ && dec >= 0) {
            if (!(lpick && unsigned(tb_.link_pick_slot_o) == unsigned(dec)))
                t_.fail("zero load: slot %d not given to the link lane in its decision cycle", dec);
            if (sl_[dec].local && !(tb_.local_pick_o && unsigned(tb_.local_pick_slot_o) == unsigned(dec)))
                t_.fail("zero load: slot %d not given to the local lane in its decision cycle", dec);
            zero_fast_++;
        }
        if (link_ready && any_ready_prev_ && deadline_ == kNever) deadline_ = now_ + 2;
        if (lpick) {
            const unsigned s = unsigned(tb_.link_pick_slot_o), t = s / kPerTree, m = unsigned(tb_.link_pick_mask_o);
            if (!link_ready) t_.fail("link lane given slot %u while not ready (tick %llu)", s, (unsigned long long)now_);
            if (link_q_[t].empty() || link_q_[t].front() != s)
                t_.fail("link lane given slot %u (state %d links %x): not tree %u's next decided link packet (%d)",
                        s, int(sl_[s].st), sl_[s].links, t, link_q_[t].empty() ? -1 : int(link_q_[t].front()));
            SlotM &x = sl_[s];
            if (m != x.links) t_.fail("link lane given slot %u with mask %x, decided for links %x", s, m, x.links);
            if (!has_credits(t, m))
                t_.fail("link lane given slot %u of tree %u (mask %x) without a credit of every child (tick %llu)", s,
                        t, m, (unsigned long long)now_);
            for (unsigned l = 0; l < kLinks; l++)
                if ((m >> l) & 1) credit_[l][t]--;
            link_q_[t].pop_front();
            given_tree = int(t);
            if (x.dec_at == now_) {
                if (!zero_) fast_load_++;
            } else {
                shared_++;
            }
            // no starvation: round robin over the ready trees
            for (unsigned u = 0; u < kTrees; u++) {
                if (u == t) {
                    overtaken_[u] = 0;
                    continue;
                }
                if (ready[u] && ++overtaken_[u] > kTrees)
                    t_.fail("tree %u ready, passed over by %u packets of other trees", u, overtaken_[u]);
                if (ready[u] && overtaken_[u] > max_overtaken_) max_overtaken_ = overtaken_[u];
                if (!ready[u] && !link_q_[u].empty() && sl_[link_q_[u].front()].dec_at < now_) overtakes_++;
            }
            deadline_ = kNever;
            accept(link_, s, link_send_max_, true);
        } else if (now_ >= deadline_) {
            t_.fail("link lane ready and a tree ready since tick %llu, nothing given by tick %llu",
                    (unsigned long long)(deadline_ - 3), (unsigned long long)now_);
        }

        // --- the local lane
        const bool hpick = tb_.local_pick_o;
        if (local_ready && !local_q_.empty() && !hpick)
            t_.fail("local lane ready, slot %u waiting for it, nothing given", local_q_.front());
        if (hpick) {
            const unsigned s = unsigned(tb_.local_pick_slot_o);
            if (!local_ready) t_.fail("local lane given slot %u while not ready", s);
            if (local_q_.empty() || local_q_.front() != s)
                t_.fail("local lane given slot %u (state %d local %d): not the next in decision order (%d)", s,
                        int(sl_[s].st), int(sl_[s].local), local_q_.empty() ? -1 : int(local_q_.front()));
            local_q_.pop_front();
            if (sl_[s].dec_at != now_) local_queued_++;
            accept(local_, s, local_send_max_, false);
        }

        // --- done_o for the candidate: exact, every cycle
        const unsigned s0 = kPerTree * cand + fp_[cand];
        const SlotM &c0 = sl_[s0];
        const bool model_done = c0.st == SlotM::DECIDED && c0.dec_at < now_ && (c0.links == 0 || c0.lsent) &&
                                (!c0.local || c0.hsent);
        if (bool(tb_.done_o) != model_done)
            t_.fail("done_o %d for tree %u slot %u, model %d (state %d links %x local %d sent %d/%d, tick %llu)",
                    int(tb_.done_o), cand, s0, int(model_done), int(c0.st), c0.links, int(c0.local), int(c0.lsent),
                    int(c0.hsent), (unsigned long long)now_);
        if (model_done && !c0.releasing && rng_.chance(80)) {
            // the working memory: free_ptr moves at the end of cycle `at`, rel_valid_i the cycle after
            const uint64_t at = std::max(now_ + rng_.below(3), last_flip_ + 1);
            last_flip_ = at;
            sl_[s0].releasing = true;
            rel_q_.push_back({s0, at});
        }

        // --- tails sent (seen by done_o from the next cycle); the children's credits come back later
        if (ltail >= 0) {
            SlotM &x = sl_[ltail];
            x.lsent = true;
            for (unsigned l = 0; l < kLinks; l++)
                if ((x.links >> l) & 1)
                    ret_[l].push_back({unsigned(ltail) / kPerTree, now_ + 1 + rng_.below(child_max_[l])});
        }
        if (htail >= 0) sl_[htail].hsent = true;
        for (unsigned l = 0; l < kLinks; l++) {
            if (crt[l] < 0) continue;
            if (credit_[l][crt[l]] >= kPerTree) t_.fail("model: link %u returned a credit of tree %d it holds", l, crt[l]);
            credit_[l][crt[l]]++;
        }
        if (rel) releases_++;

        // The dispatcher's view for the next cycle: trees ready now, but the one just given.
        any_ready_prev_ = false;
        for (unsigned t = 0; t < kTrees; t++)
            if (ready[t] && int(t) != given_tree) any_ready_prev_ = true;
        pend_prev_ = pend_now;

        // --- the edge
        tb_.clk_i = 1;
        tb_.eval();
        t_.tick();

        // the working memory's release: the ring moves now
        if (!rel_q_.empty() && rel_q_.front().second == now_) {
            const unsigned s = rel_q_.front().first, t = s / kPerTree;
            rel_q_.pop_front();
            if (s != kPerTree * t + fp_[t]) t_.fail("model: releasing slot %u, not its tree's oldest", s);
            sl_[s] = SlotM();
            sl_[s].free_at = now_ + 1;
            fp_[t] = (fp_[t] + 1) % kPerTree;
            cnt_[t]--;
            rel_announce_ = int(s);
        }
        progress(link_, link_send_max_, true);
        progress(local_, local_send_max_, false);
    }

    bool has_credits(unsigned t, unsigned links) const {
        for (unsigned l = 0; l < kLinks; l++)
            if (((links >> l) & 1) && credit_[l][t] == 0) return false;
        return true;
    }

    int pop_tail(LaneM &ln) {
        if (ln.buf.empty() || ln.buf.front().second > now_) return -1;
        const int s = int(ln.buf.front().first);
        ln.buf.pop_front();
        return s;
    }

    // A lane takes a descriptor: sends it at once if idle, else holds it next.
    void accept(LaneM &ln, unsigned s, unsigned send_max, bool link) {
        if (ln.cur < 0) {
            start(ln, int(s), send_max);
        } else {
            ln.next = int(s);
            if (link) next_held_++;
        }
    }

    void start(LaneM &ln, int s, unsigned send_max) {
        ln.cur = s;
        ln.cur_done = now_ + 2 + rng_.below(send_max);
    }

    // After the edge: the packet being sent finishes (its tail leaves later, in order), or
    // the next one starts (the lane is ready again; the link lane's ready may rise late).
    void progress(LaneM &ln, unsigned send_max, bool link) {
        if (ln.cur >= 0 && ln.cur_done <= now_) {
            uint64_t at = now_ + 1 + rng_.below(send_max);
            if (!ln.buf.empty() && at < ln.buf.back().second) at = ln.buf.back().second;
            ln.buf.push_back({unsigned(ln.cur), at});
            ln.cur = -1;
        } else if (ln.cur < 0 && ln.next >= 0) {
            start(ln, ln.next, send_max);
            ln.next = -1;
            if (link && ready_late_pct_ && rng_.chance(ready_late_pct_)) ln.ready_at = now_ + 2 + rng_.below(6);
        }
    }

    UnitTest t_;
    Vtb tb_;
    Rng rng_;
    uint64_t now_ = 0;

    // slots and the working memory
    SlotM sl_[kSlots];
    unsigned ap_[kTrees] = {}, fp_[kTrees] = {}, cnt_[kTrees] = {};
    std::deque<unsigned> undecided_[kTrees];
    std::deque<std::pair<unsigned, uint64_t>> rel_q_;  // (slot, free_ptr moves at the end of)
    uint64_t last_flip_ = 0;
    int rel_announce_ = -1;

    // the reference queues: per tree, link packets decided and not given; local packets
    std::deque<unsigned> link_q_[kTrees];
    std::deque<unsigned> local_q_;
    unsigned credit_[kLinks][kTrees];
    unsigned overtaken_[kTrees] = {};
    bool pend_prev_ = false, any_ready_prev_ = false;
    uint64_t deadline_ = kNever;

    // lanes and children
    LaneM link_, local_;
    std::vector<std::pair<unsigned, uint64_t>> ret_[kLinks];  // (tree, credit back at)

    // traffic
    bool zero_ = false;
    unsigned zero_lanes_ = 0, zero_fast_ = 0;
    unsigned alloc_pct_ = 50, dec_pct_ = 70, mask_mode_ = 0, local_pct_ = 50;
    unsigned link_send_max_ = 12, local_send_max_ = 12, ready_late_pct_ = 0, local_stall_pct_ = 0;
    unsigned child_max_[kLinks];

    // coverage
    unsigned decides_ = 0, waits_credit_ = 0, overtakes_ = 0, next_held_ = 0, shared_ = 0, fast_load_ = 0;
    unsigned local_queued_ = 0, releases_ = 0, max_overtaken_ = 0;
};

}  // namespace

int main() {
    DqTest test;
    test.run();
}
