// coll_rx_sched_test.cpp: unit test of canopy_coll_rx_sched (the receive queues and the
// receive packet scheduler) against a model.
//
// Why: this block decides what enters the collective unit: which packets are refused (and
// counted), which slot each accepted one takes, what is written there, and which outputs
// must send it. A mistake here is a lost, duplicated, misrouted or corrupted broadcast.
//
// What: the test top (canopy_unit_coll_rx_sched_tb.sv) puts the block (NumDims 2, 16
// trees x 2 slots) behind a membership table programmed with roots, inner nodes, a transit
// node and invalid trees. The test plays the router (one flit per cycle on COLL_UP or
// COLL_DOWN, within the 8 credits per VC the block returns), the working memory (slot
// rings per tree: tree_full_i / alloc_ptr_i follow alloc_o; slots are released in ring
// order once written and decided, at random times, giving the parent its slot credit
// back), the reduce engine (random ready) and the engine's results (random packets for
// root trees with their outputs). Broadcasts from a tree's parent are sent only with a
// slot credit, as a parent would. Stimulus: broadcasts and requests, accepted or refused
// for every reason (tree invalid or beyond the table, wrong port, at the root, of the
// wrong type, a request at a non-root, a group id >= 8, a one-flit packet), REDUCE packets,
// results; lengths 0 to 256 bytes. Checks, every cycle:
//   - every word written belongs to an accepted packet, in order, to the slot its alloc_o
//     named ({tree, ring position}), word 0 turned into a BCAST, the tail flagged;
//   - each accepted packet is decided exactly once, with the right outputs (children, the
//     local port if a member of the group; none for a bad group), no later than its word 1
//     is written (with its head when word 1 is already in sight);
//   - REDUCE packets reach the engine whole and in order; refused packets are never
//     written; err_tree_o / err_dir_o pulse once per refusal; a refused broadcast from a
//     link gives its slot credit back (drop_cr_*); every flit's credit comes back.
// A zero-load phase checks the latency: a broadcast's word 0 is written two cycles after
// it arrives, and it is decided then. Coverage: early and late decisions, requests that
// waited for a slot, every refusal reason.
#include <deque>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "Vtb.h"
#include "coll_model.hpp"
#include "unit_common.hpp"

namespace {

using canopy_unit::Rng;
using canopy_unit::UnitTest;
using namespace canopy_coll;

constexpr uint64_t kSeed  = 0x5c4ed000c0ffee21ull;
constexpr unsigned kTrees = 16;
constexpr unsigned kLocal = 4;
constexpr unsigned kVcUp = 2, kVcDown = 3;

enum Kind { ACCEPT, DROP, REDUCE };
enum Err { NONE, ETREE, EDIR };

struct InPkt {
    Packet p;
    Kind kind = DROP;
    Err err = NONE;
    unsigned tree = 0, lanes = 0;
    bool egrp = false, down = false, credit_back = false, drop_credit = false;
    // progress, once accepted
    int slot = -1;
    unsigned written = 0;
    bool decided = false, complete = false;
    uint64_t arrive = 0;
};

class RxTest {
  public:
    RxTest() : t_("coll_rx_sched", 400000), tb_(t_.context()), rng_(kSeed) {}

    void run() {
        reset();
        program();
        phase_latency();
        phase_random(60000);
        drain();
        check_end();
        t_.pass();
    }

  private:
    // ------------------------------------------------------------ table
    void program() {
        auto E = [](bool root, unsigned parent, unsigned children, unsigned groups, bool transit) {
            Entry e;
            e.valid = true;
            e.root = root;
            e.parent = parent;
            e.children = children;
            e.groups = groups;
            e.transit = transit;
            return e;
        };
        ent_[0] = E(true, 0, 0xf, 0x01, false);
        ent_[1] = E(true, 0, 0x3, 0x03, false);
        ent_[2] = E(true, 0, 0x0, 0x01, false);
        ent_[3] = E(true, 0, 0x5, 0x00, true);
        ent_[4] = E(false, 1, 0xd, 0x01, false);
        ent_[5] = E(false, 0, 0x0, 0x01, false);
        ent_[6] = E(false, 2, 0x8, 0x81, false);
        ent_[7] = E(false, 3, 0x4, 0x00, true);
        ent_[8] = E(false, 1, 0x0, 0x02, false);
        ent_[9] = E(false, 0, 0xe, 0xff, false);
        ent_[10] = E(false, 2, 0x0, 0x01, false);
        ent_[11] = E(false, 3, 0x0, 0x01, false);
        ent_[12] = E(true, 0, 0x2, 0x10, false);
        ent_[13] = E(false, 0, 0x2, 0x01, false);
        for (unsigned t = 0; t < kTrees; t++) {
            tb_.tbl_we_i = 1;
            tb_.tbl_widx_i = t;
            tb_.tbl_wentry_i = ent_[t].word();
            cycle_raw();
        }
        tb_.tbl_we_i = 0;
        for (unsigned t = 0; t < kTrees; t++) credit_[t] = 2;
    }
    bool root(unsigned t) const { return t < kTrees && ent_[t].valid && ent_[t].root; }
    bool nonroot(unsigned t) const { return t < kTrees && ent_[t].valid && !ent_[t].root; }
    unsigned lanes_of(unsigned t, unsigned group) const {
        if (group >= 8) return 0;
        const bool member = !ent_[t].transit && ((ent_[t].groups >> (group & 7)) & 1);
        return ent_[t].children | (member ? 1u << kLocal : 0);
    }

    // ------------------------------------------------------------ packets
    InPkt make(unsigned ptype, unsigned tree, unsigned port, unsigned group, unsigned len, bool one_flit = false) {
        InPkt k;
        Hdr h;
        h.ptype = ptype;
        h.tree = tree;
        h.len = len;
        h.group = group;
        h.src = serial_ & 0xffff;
        h.dst = (serial_ >> 16) & 0xffff;
        serial_++;
        h.offset = rng_.bits(40);
        h.rid = rng_.below(32);
        k.p.port = port;
        k.p.flits = {h.w0()};
        if (!one_flit) {
            k.p.flits.push_back(h.w1());
            for (unsigned i = 0; i < h.payload_words(); i++) k.p.flits.push_back(rng_.next());
        }
        k.tree = tree;
        return k;
    }

    // A packet on COLL_DOWN: good (from the parent, with a slot credit) or bad.
    bool gen_down() {
        const unsigned r = rng_.below(100);
        unsigned t = rng_.below(kTrees);
        if (r < 70) {
            if (!nonroot(t) || credit_[t] == 0) return false;
            const unsigned group = rng_.chance(5) ? 8 + rng_.below(200) : rng_.below(8);
            InPkt k = make(PKT_BCAST, t, ent_[t].parent, group, rng_.below(257));
            k.kind = ACCEPT;
            k.down = true;
            k.credit_back = true;
            k.egrp = group >= 8;
            k.lanes = lanes_of(t, group);
            credit_[t]--;
            q_[1].push_back(k);
            return true;
        }
        InPkt k;
        if (r < 76) {  // wrong port
            if (!nonroot(t)) return false;
            k = make(PKT_BCAST, t, (ent_[t].parent + 1 + rng_.below(4)) % 5, rng_.below(8), rng_.below(257));
            k.err = EDIR;
        } else if (r < 82) {  // at a root
            if (!root(t)) return false;
            k = make(PKT_BCAST, t, rng_.below(5), 0, rng_.below(64));
            k.err = EDIR;
        } else if (r < 88) {  // wrong type
            if (!nonroot(t)) return false;
            k = make(rng_.chance(50) ? PKT_PUT : PKT_BCAST_REQ, t, ent_[t].parent, 0, rng_.below(64));
            k.err = EDIR;
        } else if (r < 95) {  // tree invalid or beyond the table
            t = rng_.chance(50) ? 14 + rng_.below(2) : 16 + rng_.below(48);
            k = make(PKT_BCAST, t, rng_.below(5), 0, rng_.below(64));
            k.err = ETREE;
        } else {  // a one-flit broadcast from the parent: goes nowhere, uncounted
            if (!nonroot(t)) return false;
            k = make(PKT_BCAST, t, ent_[t].parent, 0, 0, true);
        }
        k.kind = DROP;
        k.down = true;
        k.drop_credit = k.p.port < 4;
        q_[1].push_back(k);
        return true;
    }

    bool gen_up() {
        const unsigned r = rng_.below(100);
        unsigned t = rng_.below(kTrees);
        const unsigned port = rng_.below(5);
        InPkt k;
        if (r < 60) {
            k = make(PKT_REDUCE, rng_.below(64), port, rng_.below(300), 8 * rng_.below(33));
            k.kind = REDUCE;
        } else if (r < 85) {
            if (!root(t)) return false;
            const unsigned group = rng_.chance(5) ? 8 + rng_.below(200) : rng_.below(8);
            k = make(PKT_BCAST_REQ, t, port, group, rng_.below(257));
            k.kind = ACCEPT;
            k.egrp = group >= 8;
            k.lanes = lanes_of(t, group);
        } else if (r < 90) {
            if (!nonroot(t)) return false;
            k = make(PKT_BCAST_REQ, t, port, 0, rng_.below(64));
            k.err = EDIR;
        } else if (r < 95) {
            t = rng_.chance(50) ? 14 + rng_.below(2) : 16 + rng_.below(48);
            k = make(PKT_BCAST_REQ, t, port, 0, rng_.below(64));
            k.err = ETREE;
        } else {
            if (!root(t)) return false;
            k = make(PKT_BCAST, t, port, 0, rng_.below(64));
            k.err = EDIR;
        }
        q_[0].push_back(k);
        return true;
    }

    bool gen_res() {
        const unsigned t = rng_.below(kTrees);
        if (!root(t)) return false;
        Hdr h;
        h.ptype = PKT_BCAST_REQ;
        h.tree = t;
        h.len = rng_.chance(30) ? 0 : 8 * rng_.below(33);
        h.src = serial_ & 0xffff;
        h.dst = (serial_ >> 16) & 0xffff;
        serial_++;
        h.rflags = RF_RESULT;
        InPkt k;
        k.p.port = kLocal;
        k.p.flits = {h.w0(), h.w1()};
        for (unsigned i = 0; i < h.payload_words(); i++) k.p.flits.push_back(rng_.next());
        k.kind = ACCEPT;
        k.tree = t;
        k.lanes = rng_.bits(5);
        res_q_.push_back(k);
        return true;
    }

    // ------------------------------------------------------------ clocking
    void cycle_raw() {
        tb_.clk_i = 0;
        tb_.eval();
        tb_.clk_i = 1;
        tb_.eval();
        t_.tick();
    }
    void reset() {
        tb_.rst_i = 1;
        for (int i = 0; i < 3; i++) cycle_raw();
        tb_.rst_i = 0;
    }

    void drive_memory() {
        unsigned full = 0, ptr = 0;
        for (unsigned t = 0; t < kTrees; t++) {
            if (count_[t] == 2) full |= 1u << t;
            if (aptr_[t]) ptr |= 1u << t;
        }
        tb_.tree_full_i = full;
        tb_.alloc_ptr_i = ptr;
    }

    void cycle() {
        tb_.clk_i = 0;
        drive_memory();
        // rx: continue the VC in progress, else start a packet of a VC with a credit.
        tb_.rx_valid_i = 0;
        int vc = -1;
        if (rng_.chance(rx_pct_)) {
            // Packets of the two VCs interleave flit by flit, as the router's switch may.
            const int first = int(rng_.below(2));
            for (int c : {first, 1 - first}) {
                if (q_[c].empty() || creds_[c] == 0) continue;
                vc = c;
                break;
            }
        }
        if (vc >= 0) {
            InPkt &k = q_[vc].front();
            if (pos_[vc] == 0) k.arrive = t_.ticks();
            if (pos_[vc] == 0 && k.kind == REDUCE) eng_exp_.push_back(k.p);  // cut through
            if (pos_[vc] == 0 && vc == 1) last_down_arrive_ = t_.ticks();
            tb_.rx_valid_i = 1;
            tb_.rx_flit_i = k.p.flits[pos_[vc]];
            tb_.rx_last_i = pos_[vc] + 1 == k.p.flits.size();
            tb_.rx_vc_i = vc == 0 ? kVcUp : kVcDown;
            tb_.rx_port_i = k.p.port;
        } else {
            tb_.rx_flit_i = rng_.next();
            tb_.rx_vc_i = rng_.below(4);
        }
        tb_.eng_ready_i = rng_.chance(eng_pct_);
        // results
        tb_.res_valid_i = !res_q_.empty();
        if (!res_q_.empty()) {
            const InPkt &k = res_q_.front();
            tb_.res_flit_i = k.p.flits[res_pos_];
            tb_.res_last_i = res_pos_ + 1 == k.p.flits.size();
            tb_.res_lanes_i = k.lanes;
            tb_.res_tree_i = k.tree;
        }
        tb_.eval();
        observe();
        tb_.clk_i = 1;
        tb_.eval();
        t_.tick();
        // after the edge: what moved
        if (vc >= 0) {
            creds_[vc]--;
            if (++pos_[vc] == q_[vc].front().p.flits.size()) {
                InPkt k = q_[vc].front();
                q_[vc].pop_front();
                pos_[vc] = 0;
                sent(k);
            }
        }
        if (res_took_) {
            if (++res_pos_ == res_q_.front().p.flits.size()) {
                sent(res_q_.front());
                res_q_.pop_front();
                res_pos_ = 0;
            }
        }
        apply_memory();
        release_random();
    }

    // A packet fully sent: track what it must cause.
    void sent(const InPkt &k) {
        if (k.kind == REDUCE) return;
        if (k.kind == DROP) {
            if (k.err == ETREE) exp_etree_++;
            if (k.err == EDIR) exp_edir_++;
            if (k.drop_credit) exp_drop_cr_[(k.p.port << 8) | k.tree]++;
            dropped_.insert(bcast_w0(k.p.flits[0]));
            return;
        }
        if (k.egrp) exp_etree_++;
        accepted_.push_back(k);
        by_w0_[bcast_w0(k.p.flits[0])] = accepted_.size() - 1;
    }
    static uint64_t bcast_w0(uint64_t w0) { return (w0 & ~0xfull) | PKT_BCAST; }

    void observe() {
        for (unsigned v = 0; v < 4; v++)
            if ((tb_.rx_credit_o >> v) & 1) {
                if (v == kVcUp) creds_[0]++;
                else if (v == kVcDown) creds_[1]++;
                else t_.fail("credit returned on VC %u", v);
            }
        if (creds_[0] > 8 || creds_[1] > 8) t_.fail("more credits returned than flits sent");
        res_took_ = tb_.res_valid_i && tb_.res_ready_o;
        if (tb_.err_tree_o) got_etree_++;
        if (tb_.err_dir_o) got_edir_++;
        if (tb_.drop_cr_valid_o) got_drop_cr_[(unsigned(tb_.drop_cr_port_o) << 8) | tb_.drop_cr_tree_o]++;
        // engine stream
        if (tb_.eng_valid_o && tb_.eng_ready_i) {
            if (eng_exp_.empty()) t_.fail("a flit went to the engine unexpectedly");
            const Packet &p = eng_exp_.front();
            if (tb_.eng_flit_o != p.flits[eng_pos_] || tb_.eng_port_o != p.port ||
                tb_.eng_last_o != (eng_pos_ + 1 == p.flits.size()))
                t_.fail("engine flit %zu differs", eng_pos_);
            if (++eng_pos_ == p.flits.size()) {
                eng_exp_.pop_front();
                eng_pos_ = 0;
                engs_++;
            }
        }
        // allocation (registered: the cycle word 0 is written)
        alloc_seen_ = tb_.alloc_o;
        if (tb_.alloc_o) {
            const unsigned t = tb_.alloc_tree_o;
            if (!(tb_.wr_valid_o && tb_.wr_idx_o == 0 && tb_.wr_slot_o == 2 * t + aptr_[t]))
                t_.fail("slot of tree %u taken, but its word 0 is not written to slot %u", t, 2 * t + aptr_[t]);
            if (count_[t] == 2) t_.fail("slot taken in full tree %u", t);
            alloc_tree_ = t;
        }
        // decisions (recorded before this cycle's write, checked after it)
        int dec_slot = -1;
        if (tb_.dec_valid_o) {
            const unsigned s = tb_.dec_slot_o;
            const bool early = tb_.wr_valid_o && tb_.wr_idx_o == 0 && tb_.wr_slot_o == s;
            if (slot_pkt_[s] == -1 && !early) t_.fail("slot %u decided with nothing in it", s);
            dec_pending_[s] = {true, unsigned(tb_.dec_lanes_o), t_.ticks(), early};
            dec_slot = int(s);
        }
        // writes
        if (tb_.wr_valid_o) {
            const unsigned s = tb_.wr_slot_o, idx = tb_.wr_idx_o;
            if (idx == 0) {
                if (latency_phase_ && (t_.ticks() != last_down_arrive_ + 2 || !tb_.dec_valid_o || tb_.dec_slot_o != s))
                    lat_bad_++;
                auto it = by_w0_.find(tb_.wr_data_o);
                if (it == by_w0_.end()) {
                    if (dropped_.count(tb_.wr_data_o)) t_.fail("a refused packet was written");
                    // may be a packet still arriving (cut-through): find it among those in flight
                    pending_w0_[s] = tb_.wr_data_o;
                    slot_pkt_[s] = -2;
                } else {
                    bind(s, it->second);
                }
                if (!tb_.alloc_o) t_.fail("word 0 written without a slot taken");
            }
            write_word(s, idx);
        }
        if (dec_slot >= 0) settle(unsigned(dec_slot));
    }

    void bind(unsigned s, size_t i) {
        slot_pkt_[s] = int(i);
        InPkt &k = accepted_[i];
        if (k.slot >= 0) t_.fail("a packet written into two slots");
        k.slot = int(s);
        if (k.tree != s / 2) t_.fail("packet of tree %u in slot %u", k.tree, s);
    }

    void write_word(unsigned s, unsigned idx) {
        if (slot_pkt_[s] == -2) {  // word 0 of a packet not yet fully sent: buffer the words
            early_words_[s].push_back({idx, tb_.wr_data_o, bool(tb_.wr_last_o), t_.ticks()});
            return;
        }
        if (slot_pkt_[s] < 0) t_.fail("write into slot %u with no packet", s);
        InPkt &k = accepted_[slot_pkt_[s]];
        check_word(k, idx, tb_.wr_data_o, tb_.wr_last_o, t_.ticks());
    }

    void check_word(InPkt &k, unsigned idx, uint64_t data, bool last, uint64_t when) {
        if (idx != k.written) t_.fail("slot %d: word %u written, expected %u", k.slot, idx, k.written);
        uint64_t want = k.p.flits[idx];
        if (idx == 0) want = bcast_w0(want);
        if (data != want) t_.fail("slot %d word %u: %016llx, expected %016llx", k.slot, idx, (unsigned long long)data,
                                  (unsigned long long)want);
        if (last != (idx + 1 == k.p.flits.size())) t_.fail("slot %d word %u: tail flag wrong", k.slot, idx);
        k.written++;
        if (last) k.complete = true;
        if (idx == 1) {  // decided by now (this cycle at the latest)
            auto &d = dec_pending_[k.slot];
            if (!k.decided && !(d.valid && d.when <= when)) t_.fail("slot %d: word 1 written before its decision", k.slot);
        }
    }

    // Once a slot's packet is known, apply its buffered words and its decision.
    void settle(unsigned s) {
        if (slot_pkt_[s] < 0) return;
        InPkt &k = accepted_[slot_pkt_[s]];
        auto &d = dec_pending_[s];
        if (d.valid) {
            if (k.decided) t_.fail("slot %u decided twice", s);
            if (d.lanes != k.lanes) t_.fail("slot %u (tree %u) decided for outputs %x, expected %x", s, k.tree, d.lanes, k.lanes);
            k.decided = true;
            (d.early ? early_dec_ : late_dec_)++;
            d.valid = false;
        }
    }

    // Packets whose word 0 was written before they were fully sent get bound when sent.
    void resolve() {
        for (auto &[s, w0] : pending_w0_) {
            auto it = by_w0_.find(w0);
            if (it == by_w0_.end()) continue;
            bind(s, it->second);
            InPkt &k = accepted_[it->second];
            for (auto &w : early_words_[s]) check_word(k, w.idx, w.data, w.last, w.when);
            early_words_[s].clear();
            settle(s);
        }
        for (auto it = pending_w0_.begin(); it != pending_w0_.end();)
            it = slot_pkt_[it->first] >= 0 ? pending_w0_.erase(it) : std::next(it);
    }

    void apply_memory() {
        resolve();
        if (alloc_seen_) {
            const unsigned t = alloc_tree_;
            aptr_[t] ^= 1;
            count_[t]++;
        }
    }

    // Release the oldest slot of a random tree once its packet is whole and decided.
    void release_random() {
        if (!rng_.chance(rel_pct_)) return;
        const unsigned t = rng_.below(kTrees);
        if (count_[t] == 0) return;
        const unsigned s = 2 * t + fptr_[t];
        if (slot_pkt_[s] < 0) return;
        InPkt &k = accepted_[slot_pkt_[s]];
        if (!k.complete || !k.decided) return;
        if (k.credit_back) credit_[t]++;
        fptr_[t] ^= 1;
        count_[t]--;
        slot_pkt_[s] = -1;
        done_++;
    }

    // ------------------------------------------------------------ phases
    void phase_latency() {
        latency_phase_ = true;
        rx_pct_ = 100;
        eng_pct_ = 100;
        rel_pct_ = 100;
        for (unsigned i = 0; i < 40; i++) {
            // one broadcast from a parent, into an idle block
            while (!gen_down() || q_[1].back().kind != ACCEPT) q_[1].clear();
            const size_t idx = accepted_.size();
            for (unsigned c = 0; c < 60; c++) cycle();
            if (accepted_.size() != idx + 1) t_.fail("latency phase: packet not accepted");
            const InPkt &k = accepted_[idx];
            (void)k;
        }
        if (lat_bad_) t_.fail("latency: %u packets not written and decided two cycles after arrival", lat_bad_);
        latency_phase_ = false;
    }

    void phase_random(unsigned n) {
        for (unsigned i = 0; i < n; i++) {
            if (i % 200 == 0) {
                rx_pct_ = 40 + rng_.below(61);
                eng_pct_ = 20 + rng_.below(81);
                rel_pct_ = rng_.chance(30) ? 5 : 60;
            }
            if (q_[0].size() < 3) gen_up();
            if (q_[1].size() < 3) gen_down();
            if (res_q_.size() < 2 && rng_.chance(10)) gen_res();
            cycle();
        }
    }

    void drain() {
        rx_pct_ = 100;
        eng_pct_ = 100;
        rel_pct_ = 100;
        for (unsigned i = 0; i < 20000 && (!q_[0].empty() || !q_[1].empty() || !res_q_.empty() || !eng_exp_.empty()); i++)
            cycle();
        for (unsigned i = 0; i < 200; i++) cycle();
    }

    void check_end() {
        if (!q_[0].empty() || !q_[1].empty() || !res_q_.empty()) t_.fail("packets not taken at the end");
        if (!eng_exp_.empty()) t_.fail("%zu REDUCE packets never reached the engine", eng_exp_.size());
        for (const InPkt &k : accepted_)
            if (k.slot < 0 || !k.complete || !k.decided)
                t_.fail("an accepted packet (tree %u) was not written whole and decided", k.tree);
        if (got_etree_ != exp_etree_ || got_edir_ != exp_edir_)
            t_.fail("errors: err_tree %u (expected %u), err_dir %u (expected %u)", got_etree_, exp_etree_, got_edir_,
                    exp_edir_);
        if (got_drop_cr_ != exp_drop_cr_) t_.fail("slot credits of refused broadcasts differ");
        if (creds_[0] != 8 || creds_[1] != 8) t_.fail("credits at the end: %u, %u", creds_[0], creds_[1]);
        if (early_dec_ < 200 || late_dec_ < 200 || engs_ < 300 || accepted_.size() < 1500 || exp_edir_ < 100 ||
            exp_etree_ < 100)
            t_.fail("coverage: early %u late %u decisions, %u REDUCE, %zu accepted, err_dir %u err_tree %u", early_dec_,
                    late_dec_, engs_, accepted_.size(), exp_edir_, exp_etree_);
    }

    UnitTest t_;
    Vtb tb_;
    Rng rng_;
    Entry ent_[kTrees];
    unsigned credit_[kTrees] = {}, count_[kTrees] = {}, aptr_[kTrees] = {}, fptr_[kTrees] = {};
    std::deque<InPkt> q_[2], res_q_;
    size_t pos_[2] = {0, 0}, res_pos_ = 0;
    unsigned creds_[2] = {8, 8};
    bool res_took_ = false, alloc_seen_ = false;
    unsigned alloc_tree_ = 0;
    unsigned rx_pct_ = 80, eng_pct_ = 80, rel_pct_ = 50;
    uint64_t serial_ = 1;
    std::deque<Packet> eng_exp_;
    size_t eng_pos_ = 0;
    std::vector<InPkt> accepted_;
    std::map<uint64_t, size_t> by_w0_;
    std::set<uint64_t> dropped_;
    int slot_pkt_[2 * kTrees] = {};
    std::map<unsigned, uint64_t> pending_w0_;
    struct EarlyWord {
        unsigned idx;
        uint64_t data;
        bool last;
        uint64_t when;
    };
    std::map<unsigned, std::vector<EarlyWord>> early_words_;
    struct Dec {
        bool valid = false;
        unsigned lanes = 0;
        uint64_t when = 0;
        bool early = false;
    };
    Dec dec_pending_[2 * kTrees];
    std::map<unsigned, unsigned> exp_drop_cr_, got_drop_cr_;
    unsigned exp_etree_ = 0, exp_edir_ = 0, got_etree_ = 0, got_edir_ = 0;
    bool latency_phase_ = false;
    uint64_t last_down_arrive_ = 0;
    unsigned early_dec_ = 0, late_dec_ = 0, engs_ = 0, done_ = 0, lat_bad_ = 0;

  public:
    void init_slots() {
        for (int &s : slot_pkt_) s = -1;
    }
};

}  // namespace

int main() {
    RxTest test;
    test.init_slots();
    test.run();
}
