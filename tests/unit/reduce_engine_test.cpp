// reduce_engine_test.cpp: unit test of canopy_reduce_engine (with canopy_reduce_pool and
// canopy_reduce_alu) against a reference model.
//
// Why: the engine decides every reduce's result on its own: which contributions count,
// what fails, what is combined, when the reduce completes, and (new with the shared pool)
// which reduces get an accumulator. A wrong result here is a wrong allreduce everywhere.
//
// What: the test top (canopy_unit_reduce_engine_tb.sv) puts the engine (NumDims 2, 16
// trees, 64 accumulators) behind a membership table, programmed first with trees of every
// shape (roots, inner nodes, leaves, a transit node, an invalid tree). Packets go in as
// whole packets with random gaps; outputs (up lane and root results) are taken with random
// grants, under traffic mixes from free-flowing to nearly blocked (the input must never
// wait for them: the engine takes a flit every cycle it is offered one). The model processes
// the same packets in the same order with the rules of docs/collectives.md and predicts
// every output packet (header and payload, exactly), in order, and every error and
// refusal pulse. A reduce's accumulator is freed when its result has been sent, which the
// model does not time: where that could change a first contribution's admission (or which
// accumulator it takes), the test first lets every queued packet and output go through.
// Phases:
//   1. random: up to 12 reduces in flight over all trees, every op and type, lengths 0 to
//      256, contributions in random order; now and then a disagreeing field, a second
//      contribution from one port, an unknown op, a length that is no multiple of the
//      element size, a contribution that failed (or was refused) below, one from a port
//      that is no child, one for an invalid tree.
//   2. pool fill: every inner tree starts all 32 of its reduces at once (first
//      contributions only): the pool runs full, later first contributions are refused,
//      yet every tree holding no accumulator still gets one (its reserve); then every
//      reduce completes, the refused ones as FAILED + RETRY, and the pool is whole again.
//   3. back to back: one reduce id reused at once, again and again (the state word's and
//      the accumulator's write-to-read forwarding).
// Passes if every output matches, the pulse counts match, coverage was reached, and no
// RTL assertion fired.
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "Vtb.h"
#include "coll_model.hpp"
#include "unit_common.hpp"

namespace {

using canopy_unit::Rng;
using canopy_unit::UnitTest;
using namespace canopy_coll;

constexpr uint64_t kSeed    = 0x5ed0ce0000e91e01ull;
constexpr unsigned kTrees   = 16;
constexpr unsigned kIds     = 32;
constexpr unsigned kLocal   = 4;    // NumDims 2: links 0..3, local port 4
constexpr unsigned kPool    = 64;
constexpr unsigned kMyCoord = 0x0021;

struct Fields {
    unsigned op = 0, dtype = 0, len = 0, all = 0, dst = 0, group = 0;
    uint64_t offset = 0;
    bool operator!=(const Fields &o) const {
        return op != o.op || dtype != o.dtype || len != o.len || all != o.all || dst != o.dst ||
               group != o.group || offset != o.offset;
    }
};

struct RState {
    bool active = false, failed = false, retry = false, ffail = false, has_slot = false, reserve = false;
    unsigned mask = 0;
    Fields f;
    std::vector<uint64_t> acc;
};

struct OutPkt {
    bool result = false;
    unsigned port = 0, lanes = 0;
    std::vector<uint64_t> flits;
};

// A reduce being generated: the contributions still to send.
struct Plan {
    unsigned tree, rid;
    Fields f;
    std::vector<unsigned> ports;  // contributions left, in the order they will be sent
};

class EngineTest {
  public:
    EngineTest() : t_("reduce_engine", 3000000), tb_(t_.context()), rng_(kSeed) {}

    void run() {
        reset();
        program_table();
        phase_random(4000);
        drain();
        phase_pool_fill();
        drain();
        phase_back_to_back(300);
        drain();
        if (tb_.pool_free_o != kPool) t_.fail("pool holds %u free slots at the end, not %u", tb_.pool_free_o, kPool);
        check_counts();
        if (cover_fail_ < 20 || cover_retry_in_ < 5 || cover_dir_ < 5 || cover_tree_ < 5 || refused_ < 50 ||
            cover_root_ < 100 || cover_up_ < 100 || cover_pass_ < 50 || cover_blocked_ != 0)
            t_.fail("coverage: failed %u retry-in %u dir %u tree %u refused %u root %u up %u single %u "
                    "input-blocked cycles %u",
                    cover_fail_, cover_retry_in_, cover_dir_, cover_tree_, refused_, cover_root_, cover_up_,
                    cover_pass_, cover_blocked_);
        std::printf("  %u outputs; failed %u retry-in %u dir %u tree %u refused %u root %u up %u single %u "
                    "input-blocked cycles %u, flushes %u, %llu cycles\n",
                    outs_, cover_fail_, cover_retry_in_, cover_dir_, cover_tree_, refused_, cover_root_, cover_up_,
                    cover_pass_, cover_blocked_, cover_flush_, (unsigned long long)t_.ticks());
        t_.pass();
    }

  private:
    // ------------------------------------------------------------ clocking
    void reset() {
        tb_.rst_i = 1;
        tb_.in_valid_i = 0;
        tb_.up_grant_i = 0;
        tb_.res_ready_i = 0;
        tb_.tbl_we_i = 0;
        for (int i = 0; i < 3; i++) {
            tb_.clk_i = 0;
            tb_.eval();
            tb_.clk_i = 1;
            tb_.eval();
            t_.tick();
        }
        tb_.rst_i = 0;
    }

    // One cycle: drive inputs, check and sample outputs before the edge, then clock.
    void cycle() {
        tb_.clk_i = 0;
        // Input: the next flit of the queue, with random gaps between packets' flits.
        if (!in_offered_ && !in_q_.empty() && rng_.chance(in_pct_)) in_offered_ = true;
        if (in_offered_) {
            const Packet &p = in_q_.front();
            tb_.in_valid_i = 1;
            tb_.in_flit_i = p.flits[in_pos_];
            tb_.in_last_i = in_pos_ + 1 == p.flits.size();
            tb_.in_port_i = p.port;
        } else {
            tb_.in_valid_i = 0;
            tb_.in_flit_i = rng_.next();
            tb_.in_last_i = rng_.chance(50);
            tb_.in_port_i = rng_.below(6);
        }
        tb_.up_grant_i = 0;
        tb_.res_ready_i = 0;
        tb_.eval();
        // Outputs.
        if (tb_.up_valid_o && tb_.res_valid_o) t_.fail("up and result offered at once");
        const bool grant = rng_.chance(out_pct_);
        if (tb_.up_valid_o && grant) tb_.up_grant_i = 1;
        if (tb_.res_valid_o && grant) tb_.res_ready_i = 1;
        tb_.eval();
        const bool took_in = tb_.in_valid_i && tb_.in_ready_o;
        if (tb_.in_valid_i && !tb_.in_ready_o && took_any_) cover_blocked_++;   // after the clearing
        took_any_ = took_any_ || took_in;
        if (tb_.up_grant_i) take_out(false, tb_.up_flit_o, tb_.up_last_o, tb_.up_port_o, 0);
        if (tb_.res_ready_i) {
            // res_tree_o comes with every flit of a result: its header's tree field.
            const unsigned tree = cur_.flits.empty() ? (tb_.res_flit_o >> 49) & 0x3f : res_tree_;
            if (tb_.res_tree_o != tree)
                t_.fail("cycle %llu: res_tree_o %u, the result's header names tree %u",
                        (unsigned long long)t_.ticks(), unsigned(tb_.res_tree_o), tree);
            res_tree_ = tree;
            take_out(true, tb_.res_flit_o, tb_.res_last_o, 0, tb_.res_lanes_o);
        }
        got_err_reduce_ += tb_.err_reduce_o;
        got_err_dir_ += tb_.err_dir_o;
        got_err_tree_ += tb_.err_tree_o;
        got_refused_ += tb_.refused_o;
        tb_.clk_i = 1;
        tb_.eval();
        t_.tick();
        if (took_in) {
            in_offered_ = false;
            if (++in_pos_ == in_q_.front().flits.size()) {
                in_q_.pop_front();
                in_pos_ = 0;
            }
        }
    }

    void take_out(bool result, uint64_t flit, bool last, unsigned port, unsigned lanes) {
        if (cur_.flits.empty()) {
            cur_.result = result;
            cur_.port = port;
            cur_.lanes = lanes;
        } else if (cur_.result != result) {
            t_.fail("an output packet switched between the up lane and the result stream");
        }
        cur_.flits.push_back(flit);
        if (!last) {
            if (cur_.flits.size() > 40) t_.fail("an output packet runs past 34 flits");
            return;
        }
        if (exp_.empty()) t_.fail("unexpected output packet (header %016llx)", (unsigned long long)cur_.flits[0]);
        const OutPkt &e = exp_.front();
        std::string why;
        if (e.result != cur_.result) why = "up lane / result";
        else if (!e.result && e.port != cur_.port) why = "up port";
        else if (e.result && e.lanes != cur_.lanes) why = "result lanes";
        else if (e.flits.size() != cur_.flits.size()) why = "length";
        else
            for (size_t i = 0; i < e.flits.size() && why.empty(); i++)
                if (e.flits[i] != cur_.flits[i]) why = "flit " + std::to_string(i);
        if (!why.empty()) {
            const Hdr eh = Hdr::parse(e.flits[0], e.flits[1]);
            const Hdr gh = Hdr::parse(cur_.flits[0], cur_.flits.size() > 1 ? cur_.flits[1] : 0);
            t_.fail("output %u differs (%s): expected tree %u rid %u len %u rflags %x port %u (%zu flits), "
                    "got tree %u rid %u len %u rflags %x port %u (%zu flits); flit0 %016llx / %016llx",
                    outs_, why.c_str(), eh.tree, eh.rid, eh.len, eh.rflags, e.port, e.flits.size(), gh.tree, gh.rid,
                    gh.len, gh.rflags, cur_.port, cur_.flits.size(), (unsigned long long)e.flits[0],
                    (unsigned long long)cur_.flits[0]);
        }
        exp_.pop_front();
        cur_.flits.clear();
        outs_++;
    }

    void drain() {
        in_pct_ = 90;
        out_pct_ = 90;
        for (unsigned i = 0; i < 20000 && (!in_q_.empty() || !exp_.empty()); i++) cycle();
        for (unsigned i = 0; i < 50; i++) cycle();
        if (!in_q_.empty() || !exp_.empty() || !cur_.flits.empty())
            t_.fail("drain: %zu packets not taken, %zu outputs missing", in_q_.size(), exp_.size());
        give_pending();
        check_counts();
    }

    // Everything queued goes in and every output comes out (so every accumulator of a
    // completed reduce is free again), under the current traffic mix.
    void flush() {
        for (unsigned i = 0; i < 200000 && (!in_q_.empty() || !exp_.empty() || !cur_.flits.empty()); i++) cycle();
        for (unsigned i = 0; i < 20; i++) cycle();
        if (!in_q_.empty() || !exp_.empty() || !cur_.flits.empty())
            t_.fail("flush: %zu packets not taken, %zu outputs missing", in_q_.size(), exp_.size());
        give_pending();
    }
    void give_pending() {
        for (const auto &g : pending_) pool_.give(g.first, g.second);
        pending_.clear();
    }
    // A first contribution needing an accumulator whose admission, or whose accumulator
    // (the tree's reserve or a shared one), depends on frees not yet known to be done.
    bool ambiguous(unsigned t, unsigned rid, unsigned port, unsigned group, unsigned len) const {
        if (pending_.empty() || t >= kTrees || !ent_[t].valid || len == 0 || st_[t][rid].active) return false;
        const bool dir_ok = port == kLocal ? member(t, group) : (port < 4 && ((ent_[t].children >> port) & 1));
        if (!dir_ok) return false;
        PoolModel freed = pool_;
        for (const auto &g : pending_) freed.give(g.first, g.second);
        return freed.admit(t) != pool_.admit(t) || freed.rsv_used[t] != pool_.rsv_used[t];
    }

    void check_counts() {
        if (got_err_reduce_ != err_reduce_ || got_err_dir_ != err_dir_ || got_err_tree_ != err_tree_ ||
            got_refused_ != refused_)
            t_.fail("pulses: err_reduce %u (model %u), err_dir %u (%u), err_tree %u (%u), refused %u (%u)",
                    got_err_reduce_, err_reduce_, got_err_dir_, err_dir_, got_err_tree_, err_tree_, got_refused_,
                    refused_);
    }

    // Run cycles until the input queue is short, changing traffic mixes now and then.
    void pump(size_t max_queued) {
        while (in_q_.size() > max_queued) {
            if (rng_.chance(1)) {
                static const unsigned mixes[][2] = {{90, 90}, {100, 100}, {50, 30}, {90, 5}, {20, 100}, {100, 60}};
                const auto &m = mixes[rng_.below(6)];
                in_pct_ = m[0];
                out_pct_ = m[1];
            }
            cycle();
        }
    }

    // ------------------------------------------------------------ table
    void program_table() {
        // Shapes (NumDims 2: ports 0 +X, 1 -X, 2 +Y, 3 -Y): roots, inner nodes, leaves.
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
        ent_[0] = E(true, 0, 0xf, 0x01, false);    // root, 4 children + host
        ent_[1] = E(false, 1, 0xd, 0x01, false);   // parent -X: children +X, +Y, -Y, + host
        ent_[2] = E(false, 0, 0x0, 0x01, false);   // leaf
        ent_[3] = E(false, 2, 0x8, 0x01, false);   // parent +Y: child -Y + host
        ent_[4] = E(true, 0, 0x3, 0x00, true);     // transit root, children +X -X only
        ent_[5] = E(false, 3, 0x4, 0x03, false);   // parent -Y, child +Y, host in groups 0, 1
        ent_[6] = E(true, 0, 0x1, 0x01, false);    // root, one child + host
        ent_[7] = E(false, 0, 0xe, 0x01, false);
        ent_[8] = E(true, 0, 0x0, 0x01, false);    // root alone: host only
        ent_[9] = E(false, 1, 0x5, 0x01, false);
        ent_[10] = E(true, 0, 0xc, 0x01, false);
        ent_[11] = E(false, 2, 0x8, 0x00, true);   // transit inner node, one child
        ent_[12] = E(true, 0, 0xf, 0x01, false);
        ent_[13] = E(false, 1, 0xc, 0x01, false);
        ent_[14] = E(true, 0, 0x6, 0x01, false);
        ent_[15] = Entry();                        // invalid
        for (unsigned t = 0; t < kTrees; t++) {
            tb_.tbl_we_i = 1;
            tb_.tbl_widx_i = t;
            tb_.tbl_wentry_i = ent_[t].word();
            tb_.clk_i = 0;
            tb_.eval();
            if (!tb_.tbl_wok_o) t_.fail("table entry of tree %u refused", t);
            tb_.clk_i = 1;
            tb_.eval();
            t_.tick();
        }
        tb_.tbl_we_i = 0;
    }

    bool member(unsigned t, unsigned group) const {
        return !ent_[t].transit && group < 8 && ((ent_[t].groups >> group) & 1);
    }
    unsigned expect(unsigned t) const {
        return ent_[t].children | ((!ent_[t].transit && (ent_[t].groups & 1)) ? 1u << kLocal : 0u);
    }

    // ------------------------------------------------------------ the model
    // One accumulator reserved per tree, the rest shared (canopy_reduce_pool).
    struct PoolModel {
        bool rsv_used[kTrees] = {};
        unsigned inuse[kTrees] = {};          // accumulators each tree holds
        unsigned shared_free = kPool - kTrees;
        bool admit(unsigned t) const { return !rsv_used[t] || shared_free > 0; }
        bool take(unsigned t) {               // true: the reserve
            inuse[t]++;
            if (!rsv_used[t]) return rsv_used[t] = true;
            shared_free--;
            return false;
        }
        void give(unsigned t, bool reserve) {
            inuse[t]--;
            if (reserve) rsv_used[t] = false;
            else shared_free++;
        }
        bool full() const {                   // nothing left but reserves of trees holding none
            return shared_free == 0;
        }
    } pool_;

    // Send a contribution: queue its flits and apply it to the model, predicting output.
    void contribute(unsigned tree, unsigned rid, unsigned port, const Fields &f, unsigned rflags_in,
                    const std::vector<uint64_t> &payload) {
        Hdr h;
        h.ptype = PKT_REDUCE;
        h.src = rng_.bits(16);
        h.dst = f.dst;
        h.len = f.len;
        h.tree = tree;
        h.offset = f.offset;
        h.rid = rid;
        h.op = f.op;
        h.dtype = f.dtype;
        h.group = f.group;
        h.rflags = (f.all ? RF_ALL : 0) | rflags_in;
        if (ambiguous(tree, rid, port, f.group, f.len)) {
            flush();
            cover_flush_++;
        }
        Packet p;
        p.port = port;
        p.flits = {h.w0(), h.w1()};
        for (uint64_t w : payload) p.flits.push_back(w);
        in_q_.push_back(p);
        model(h, port, payload);
    }

    void model(const Hdr &h, unsigned port, const std::vector<uint64_t> &pay) {
        const unsigned t = h.tree;
        const bool tree_ok = t < kTrees && ent_[t].valid;
        if (!tree_ok) {
            err_tree_++;
            cover_tree_++;
            return;
        }
        const bool dir_ok = port == kLocal ? member(t, h.group) : (port < 4 && ((ent_[t].children >> port) & 1));
        if (!dir_ok) {
            err_dir_++;
            cover_dir_++;
            return;
        }
        RState &s = st_[t][h.rid];
        const bool first = !s.active;
        const unsigned pbit = 1u << port;
        const bool dup = !first && (s.mask & pbit);
        const bool infail = h.rflags & RF_FAILED, inretry = h.rflags & RF_RETRY;
        Fields hf{h.op, h.dtype, h.len, h.rflags & RF_ALL ? 1u : 0u, h.dst, h.group, h.offset};
        const bool mism = !first && !s.ffail && !infail && s.f != hf;
        const bool bad = h.op > OP_MAX || h.dtype > DT_U64 || h.len % esize(h.dtype) != 0;
        RState n = first ? RState() : s;
        if (first || (s.ffail && !infail)) {
            n.f = hf;
            n.ffail = infail;
        }
        if (!dup) n.mask |= pbit;
        const unsigned exp = expect(t);
        const bool final = n.mask == exp;
        const bool need = first && h.len != 0;   // a single contribution's result is sent from one too
        const bool admit = pool_.admit(t);
        const bool refuse = need && !admit;
        if (need && admit) {
            n.has_slot = true;
            n.reserve = pool_.take(t);
        }
        n.failed = (!first && s.failed) || dup || bad || mism || refuse || infail;
        n.retry = (!first && s.retry) || refuse || inretry;
        const bool comb = !dup && !bad && !mism && !infail;
        if (dup || bad || mism) err_reduce_++;
        if (refuse) refused_++;
        if (inretry) cover_retry_in_++;
        // Payload.
        std::vector<uint64_t> y(pay.size());
        for (size_t i = 0; i < pay.size(); i++)
            y[i] = (!first && n.has_slot && comb) ? alu(i < n.acc.size() ? n.acc[i] : 0, pay[i], n.f.op, n.f.dtype)
                                                  : pay[i];
        if (n.has_slot && comb && !final) n.acc = y;
        if (!final) {
            n.active = true;
            s = n;
            return;
        }
        // Completes: the result (root) or the combined contribution (up).
        if (n.has_slot) pending_.push_back({t, n.reserve});   // freed once the result is sent
        if (n.failed) cover_fail_++;
        if (first) cover_pass_++;
        s = RState();
        OutPkt o;
        o.result = ent_[t].root;
        o.port = ent_[t].parent;
        o.lanes = ent_[t].children | (member(t, h.group) ? 1u << kLocal : 0u);  // the completing one's group
        Hdr r;
        r.ptype = o.result ? PKT_BCAST_REQ : PKT_REDUCE;
        r.dst = n.f.dst;
        r.src = kMyCoord;
        r.len = n.failed ? 0 : n.f.len;
        r.tree = t;
        r.offset = n.f.offset;
        r.rid = h.rid;
        r.op = n.f.op;
        r.dtype = n.f.dtype;
        r.group = n.f.group;
        r.rflags = (n.f.all ? RF_ALL : 0) | (n.failed ? RF_FAILED : 0) | (o.result ? RF_RESULT : 0) |
                   (n.failed && n.retry ? RF_RETRY : 0);
        o.flits = {r.w0(), r.w1()};
        if (!n.failed)
            for (unsigned i = 0; i < r.payload_words(); i++) o.flits.push_back(y[i]);
        (o.result ? cover_root_ : cover_up_)++;
        exp_.push_back(o);
    }

    // ------------------------------------------------------------ generation
    Fields random_fields() {
        Fields f;
        f.op = rng_.below(3);
        f.dtype = rng_.below(4);
        const unsigned es = esize(f.dtype);
        const unsigned pick = rng_.below(10);
        f.len = pick == 0 ? 0 : pick == 1 ? 256 : pick == 2 ? es : es * (1 + rng_.below(256 / es));
        f.all = rng_.below(2);
        f.dst = rng_.bits(16);
        f.offset = rng_.bits(40);
        f.group = 0;
        return f;
    }

    std::vector<uint64_t> random_payload(unsigned len) {
        std::vector<uint64_t> v((len + 7) / 8);
        for (auto &w : v) {
            const unsigned k = rng_.below(8);
            w = k == 0 ? 0 : k == 1 ? ~0ull : k == 2 ? 0x8000000080000000ull : k == 3 ? 0x7fffffff7fffffffull
                                                                                      : rng_.next();
        }
        return v;
    }

    unsigned free_rid(unsigned t) {
        for (unsigned k = 0; k < 4 * kIds; k++) {
            const unsigned r = rng_.below(kIds);
            if (!st_[t][r].active && !planned_[t][r]) return r;
        }
        return kIds;
    }

    Plan new_plan(unsigned t, unsigned rid) {
        Plan p{t, rid, random_fields(), {}};
        const unsigned exp = expect(t);
        for (unsigned port = 0; port <= kLocal; port++)
            if ((exp >> port) & 1) p.ports.push_back(port);
        for (size_t i = p.ports.size(); i > 1; i--) std::swap(p.ports[i - 1], p.ports[rng_.below(i)]);
        planned_[t][rid] = true;
        return p;
    }

    // Send the plan's next contribution, sometimes disturbed.
    void step(Plan &p) {
        const unsigned port = p.ports.back();
        Fields f = p.f;
        unsigned rflags = 0;
        const unsigned k = rng_.below(100);
        if (k < 2) f.op = (f.op + 1) % 3;                               // disagrees
        else if (k < 3) f.offset ^= 8;                                  // disagrees
        else if (k < 4) f.op = 5;                                       // unknown op
        else if (k < 5 && f.len > 0 && esize(f.dtype) == 8) f.len -= 4; // not a multiple
        else if (k < 7 && port != kLocal) rflags = RF_FAILED;           // failed below
        else if (k < 8 && port != kLocal) rflags = RF_FAILED | RF_RETRY; // refused below
        if (rng_.chance(2) && p.ports.size() > 1) {
            // A second contribution from a port that already sent (not the last one).
            const unsigned before = st_[p.tree][p.rid].mask;
            for (unsigned q = 0; q <= kLocal; q++)
                if ((before >> q) & 1) {
                    contribute(p.tree, p.rid, q, p.f, 0, random_payload(p.f.len));
                    break;
                }
        }
        if (rng_.chance(1)) {
            // From a port that is not a child (dropped), or for the invalid tree.
            const unsigned exp = expect(p.tree);
            for (unsigned q = 0; q <= kLocal; q++)
                if (!((exp >> q) & 1)) {
                    contribute(p.tree, p.rid, q, p.f, 0, random_payload(p.f.len));
                    break;
                }
            contribute(15, p.rid, kLocal, p.f, 0, random_payload(p.f.len));
        }
        p.ports.pop_back();
        contribute(p.tree, p.rid, port, f, rflags, random_payload(f.len));
        if (p.ports.empty()) planned_[p.tree][p.rid] = false;
    }

    void phase_random(unsigned n_reduces) {
        std::vector<Plan> plans;
        unsigned started = 0;
        while (started < n_reduces || !plans.empty()) {
            if (started < n_reduces && plans.size() < 12 && rng_.chance(40)) {
                const unsigned t = rng_.below(15);
                const unsigned r = free_rid(t);
                if (r < kIds && expect(t) != 0) {
                    plans.push_back(new_plan(t, r));
                    started++;
                }
            }
            if (plans.empty()) continue;
            const size_t i = rng_.below(plans.size());
            step(plans[i]);
            if (plans[i].ports.empty()) plans.erase(plans.begin() + i);
            pump(8);
        }
    }

    void phase_pool_fill() {
        // Every tree with two or more contributors starts 24 of its ids at once (first
        // contributions only, trees interleaved), each payload needing an accumulator: the
        // pool runs full and later first contributions are refused.
        std::vector<Plan> plans;
        std::vector<unsigned> inner;
        for (unsigned t = 0; t < 15; t++)
            if (__builtin_popcount(expect(t)) >= 2) inner.push_back(t);
        auto start = [&](unsigned t, unsigned r) {
            Plan p = new_plan(t, r);
            p.f.len = 8 * (1 + rng_.below(32));
            p.f.dtype = DT_U64;
            p.f.op = OP_SUM;
            const unsigned port = p.ports.back();
            p.ports.pop_back();
            contribute(t, r, port, p.f, 0, random_payload(p.f.len));
            plans.push_back(p);
            pump(4);
        };
        const unsigned refused_before = refused_;
        for (unsigned r = 0; r < 24; r++)
            for (unsigned t : inner) start(t, r);
        if (refused_ - refused_before < 100) t_.fail("pool fill: only %u refusals", refused_ - refused_before);
        if (!pool_.full()) t_.fail("pool fill: the pool did not run full");
        // One tree completes everything (it then holds no accumulator); the others take the
        // slots it freed with new reduces until the pool is full again; then the tree that
        // holds none starts reduces: the first is admitted (its reserve), not refused.
        const unsigned a = inner[0];
        for (Plan &p : plans)
            if (p.tree == a)
                while (!p.ports.empty()) step(p);
        flush();
        if (pool_.inuse[a] != 0) t_.fail("pool fill: tree %u still holds accumulators", a);
        for (unsigned r = 24; r < kIds && !pool_.full(); r++)
            for (unsigned t : inner)
                if (t != a && !pool_.full()) start(t, r);
        if (!pool_.full()) t_.fail("pool fill: could not fill the pool again");
        const unsigned refused_mid = refused_;
        for (unsigned r = 0; r < 4; r++) start(a, r);
        if (pool_.inuse[a] != 1 || refused_ != refused_mid + 3)
            t_.fail("pool fill: a tree holding no accumulator was not admitted exactly once "
                    "(holds %u, refused %u of 4)", pool_.inuse[a], refused_ - refused_mid);
        cover_reserve_++;
        // Everything completes, in random order.
        for (size_t i = plans.size(); i > 1; i--) std::swap(plans[i - 1], plans[rng_.below(i)]);
        for (Plan &p : plans) {
            while (!p.ports.empty()) step(p);
            pump(6);
        }
    }

    void phase_back_to_back(unsigned rounds) {
        for (unsigned i = 0; i < rounds; i++) {
            const unsigned t = i % 2 ? 0 : 12;
            Plan p = new_plan(t, 7);
            if (i % 3 == 0) p.f.len = 0;
            while (!p.ports.empty()) {
                const unsigned port = p.ports.back();
                p.ports.pop_back();
                contribute(p.tree, p.rid, port, p.f, 0, random_payload(p.f.len));
            }
            planned_[t][7] = false;
            pump(16);
        }
    }

    UnitTest t_;
    Vtb tb_;
    Rng rng_;
    Entry ent_[kTrees];
    RState st_[kTrees][kIds];
    bool planned_[kTrees][kIds] = {};
    std::deque<Packet> in_q_;
    size_t in_pos_ = 0;
    bool in_offered_ = false;
    unsigned in_pct_ = 90, out_pct_ = 90;
    std::deque<OutPkt> exp_;
    unsigned res_tree_ = 0;   // the tree of the result being taken
    OutPkt cur_;
    unsigned outs_ = 0;
    unsigned err_reduce_ = 0, err_dir_ = 0, err_tree_ = 0, refused_ = 0;
    unsigned got_err_reduce_ = 0, got_err_dir_ = 0, got_err_tree_ = 0, got_refused_ = 0;
    unsigned cover_fail_ = 0, cover_retry_in_ = 0, cover_dir_ = 0, cover_tree_ = 0, cover_root_ = 0, cover_up_ = 0,
             cover_pass_ = 0, cover_blocked_ = 0;
    unsigned cover_reserve_ = 0, cover_flush_ = 0;
    bool took_any_ = false;
    std::vector<std::pair<unsigned, bool>> pending_;   // (tree, reserve) of results not yet known sent
};

}  // namespace

int main() {
    EngineTest test;
    test.run();
}
