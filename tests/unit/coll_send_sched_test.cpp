// coll_send_sched_test.cpp: unit test of canopy_coll_send_sched (the send lanes) against a
// model.
//
// Why: the send lanes carry every broadcast packet out of the working memory: a lane that
// reads a word before it is written, skips or repeats a word, loses its next descriptor,
// or drops a flit its output has not taken corrupts a packet downstream; the link lanes
// share one read port, so lanes of one tree must run in step (one read per word) to send at
// one flit per cycle each.
//
// What: NumDims 2 (link lanes 0..3, local lane 4), 16 trees x 2 slots. The test plays the
// working memory (one write per cycle, packets of 2 to 34 words written interleaved at a
// random pace; the read ports answer the address of the cycle before), the descriptor
// queue (each packet goes to a random set of lanes, given to a lane while it is ready, in
// the order the lane was assigned them, from the cycle after its word 0 is written) and
// the router's outputs (random grants, at rates that vary by phase). A slot is written again
// only after every lane it went to has sent its tail. Checks:
//   - every flit a grant takes is the next word of the packet the lane has to send, with
//     lane_last_o on the packet's last word and only there; a flit offered stays offered,
//     unchanged, until taken;
//   - tail_o / tail_slot_o two cycles after the grant that took a tail, and only then;
//   - every packet given is sent in the end;
//   - zero load: a whole packet given to all five lanes at once is offered 4 cycles later
//     on every lane and leaves at one flit per cycle on every lane (the four link lanes
//     share one read port: this needs their reads shared); a packet given as its word 0 is
//     written leaves at the writer's pace, one flit per cycle (cut-through).
#include <deque>
#include <vector>

#include "Vtb.h"
#include "unit_common.hpp"

namespace {

using canopy_unit::Rng;
using canopy_unit::UnitTest;
using canopy_unit::get_field;
using canopy_unit::set_field;

constexpr uint64_t kSeed = 0x5e4d5e4dc0ffee51ull;
constexpr unsigned kSlots = 32, kLanes = 5, kWords = 34;
constexpr unsigned kCycles = 150000;

struct SlotM {
    bool busy = false;               // written or being sent
    unsigned len = 0, written = 0;   // words of the packet, words written so far
    unsigned lanes = 0, sent = 0;    // lanes it goes to, lanes that sent its tail
    uint64_t alloc_at = 0, free_at = 0;
    uint64_t word[kWords] = {};
};
struct LaneM {
    std::deque<unsigned> todo;       // assigned, not yet given
    std::deque<unsigned> given;      // given, in order; front is being sent
    unsigned pos = 0;                // next word of given.front() to leave
    bool offered = false;            // lane_valid_o last cycle
    uint64_t flit = 0;
    bool last = false;
    bool granted = false;            // granted last cycle
    int tail_due = -1;               // slot whose tail_o is due this cycle
    int tail_next = -1;              // ... and the cycle after (tail_o comes two edges after its grant)
};

class SendTest {
  public:
    SendTest() : t_("coll_send_sched", kCycles + 200000), tb_(t_.context()), rng_(kSeed) {
        mem_.assign(2048, 0);
    }

    void run() {
        tb_.rst_i = 1;
        for (int i = 0; i < 3; i++) cycle_raw();
        tb_.rst_i = 0;
        for (int i = 0; i < 3; i++) cycle_raw();
        zero_load();
        cut_through();
        for (unsigned c = 0; c < kCycles; c++) {
            if (c % 1500 == 0) {
                alloc_pct_ = 5 + rng_.below(60);
                write_pct_ = rng_.chance(30) ? 100 : 20 + rng_.below(81);
                pick_pct_ = rng_.chance(30) ? 100 : 10 + rng_.below(91);
                for (unsigned l = 0; l < kLanes; l++) grant_pct_[l] = rng_.chance(40) ? 100 : 5 + rng_.below(96);
            }
            cycle(true);
        }
        alloc_pct_ = 0;
        write_pct_ = pick_pct_ = 100;
        for (unsigned l = 0; l < kLanes; l++) grant_pct_[l] = 100;
        for (unsigned c = 0; c < 3000; c++) cycle(true);
        for (unsigned s = 0; s < kSlots; s++)
            if (sl_[s].busy) t_.fail("slot %u never sent by every lane (%u of lanes %x)", s, sl_[s].sent, sl_[s].lanes);
        if (packets_ < 5000 || flits_ < 100000 || held_ < 3000 || behind_ < 5000)
            t_.fail("coverage: %u packets sent, %u flits, %u next descriptors given to busy lanes, %u cycles a link lane "
                    "of a shared packet was behind",
                    packets_, flits_, held_, behind_);
        t_.pass();
    }

  private:
    static unsigned addr(unsigned s, unsigned w) { return ((w >> 5) & 1) << 10 | s << 5 | (w & 31); }

    // One cycle with the inputs as they are (reset and idle cycles).
    void cycle_raw() {
        tb_.clk_i = 0;
        tb_.eval();
        tb_.clk_i = 1;
        tb_.eval();
        t_.tick();
    }

    // One cycle of the test. fresh: new packets may start.
    void cycle(bool fresh) {
        tb_.clk_i = 0;
        // --- the read ports: data for the address of the cycle before (a lane may show a
        // word arriving now)
        tb_.rd0_data_i = rd_next_[0];
        tb_.rd1_data_i = rd_next_[1];
        tb_.eval();
        const uint64_t now = t_.ticks();
        // --- the outputs of the last edge; addresses now
        for (unsigned l = 0; l < kLanes; l++) check_lane(l);
        const unsigned ra[2] = {unsigned(tb_.rd0_addr_o), unsigned(tb_.rd1_addr_o)};
        // --- writes (the working memory's write stream)
        tb_.wr_valid_i = 0;
        int wslot = -1;
        if (fresh && rng_.chance(alloc_pct_)) {
            const unsigned s = rng_.below(kSlots);
            if (!sl_[s].busy && now >= sl_[s].free_at) wslot = int(start_packet(s));
        }
        if (wslot < 0 && rng_.chance(write_pct_)) {
            std::vector<unsigned> w;
            for (unsigned s = 0; s < kSlots; s++)
                if (sl_[s].busy && sl_[s].written < sl_[s].len && sl_[s].written > 0) w.push_back(s);
            if (!w.empty()) wslot = int(w[rng_.below(unsigned(w.size()))]);
        }
        int wa = -1;
        uint64_t wv = 0;
        if (wslot >= 0) {
            SlotM &x = sl_[wslot];
            const unsigned i = x.written++;
            wa = int(addr(unsigned(wslot), i));
            wv = x.word[i];
            tb_.wr_valid_i = 1;
            tb_.wr_slot_i = unsigned(wslot);
            tb_.wr_idx_i = i;
            tb_.wr_last_i = x.written == x.len;
        }
        // --- picks (the descriptor queue)
        tb_.pick_i = 0;
        for (unsigned l = 0; l < kLanes; l++) {
            LaneM &m = ln_[l];
            if (m.todo.empty() || !((tb_.lane_ready_o >> l) & 1) || !rng_.chance(pick_pct_)) continue;
            const unsigned s = m.todo.front();
            if (now <= sl_[s].alloc_at) continue;  // from the cycle after word 0's write
            if (!m.given.empty()) held_++;
            m.todo.pop_front();
            m.given.push_back(s);
            tb_.pick_i |= 1u << l;
            set_field(tb_.pick_slot_i, 5 * l, 5, s);
        }
        // --- grants (the outputs)
        tb_.lane_grant_i = 0;
        for (unsigned l = 0; l < kLanes; l++)
            if (ln_[l].offered && rng_.chance(grant_pct_[l])) tb_.lane_grant_i |= 1u << l;
        grant_now_ = tb_.lane_grant_i;
        tb_.eval();
        tb_.clk_i = 1;
        tb_.eval();
        t_.tick();
        // --- the model after the edge: reads happen before this edge's write lands
        for (unsigned p = 0; p < 2; p++) rd_next_[p] = int(ra[p]) == wa ? 0xdeadbeefdeadbeefull : mem_[ra[p]];
        if (wa >= 0) mem_[unsigned(wa)] = wv;
        for (unsigned l = 0; l < kLanes; l++) take_flit(l);
        behind_ += lanes_behind();
    }

    unsigned start_packet(unsigned s) {
        SlotM &x = sl_[s];
        x.busy = true;
        x.len = rng_.chance(30) ? kWords : 2 + rng_.below(kWords - 1);
        x.written = 0;
        x.sent = 0;
        x.alloc_at = t_.ticks();
        for (unsigned i = 0; i < kWords; i++) x.word[i] = rng_.next();
        do x.lanes = rng_.below(1u << kLanes); while (x.lanes == 0);
        for (unsigned l = 0; l < kLanes; l++)
            if ((x.lanes >> l) & 1) ln_[l].todo.push_back(s);
        return s;
    }

    // Checks lane l's outputs after an edge.
    void check_lane(unsigned l) {
        LaneM &m = ln_[l];
        const bool v = (tb_.lane_valid_o >> l) & 1, last = (tb_.lane_last_o >> l) & 1;
        const uint64_t f = get_field(tb_.lane_flit_o, 64 * l, 64);
        if (m.offered && !m.granted && (!v || f != m.flit || last != m.last))
            t_.fail("lane %u withdrew or changed a flit not taken", l);
        const bool tail = (tb_.tail_o >> l) & 1;
        if (tail != (m.tail_due >= 0)) t_.fail("lane %u: tail_o %d, expected %d", l, tail, m.tail_due >= 0);
        if (tail && get_field(tb_.tail_slot_o, 5 * l, 5) != unsigned(m.tail_due))
            t_.fail("lane %u: tail of slot %u, expected %d", l, unsigned(get_field(tb_.tail_slot_o, 5 * l, 5)),
                    m.tail_due);
        m.tail_due = m.tail_next;
        m.tail_next = -1;
        if (v && m.given.empty()) t_.fail("lane %u offers a flit with no packet given", l);
        m.offered = v;
        m.flit = f;
        m.last = last;
    }

    // After an edge: the flit lane l's grant took (offered before the edge).
    void take_flit(unsigned l) {
        LaneM &m = ln_[l];
        m.granted = (grant_now_ >> l) & 1;
        if (!m.granted) return;
        const unsigned s = m.given.front();
        SlotM &x = sl_[s];
        if (m.pos >= x.written) t_.fail("lane %u sent word %u of slot %u before it was written", l, m.pos, s);
        if (m.flit != x.word[m.pos])
            t_.fail("lane %u slot %u word %u: %016llx, expected %016llx", l, s, m.pos, (unsigned long long)m.flit,
                    (unsigned long long)x.word[m.pos]);
        const bool last = m.pos + 1 == x.len;
        if (m.last != last) t_.fail("lane %u slot %u word %u: last %d, expected %d", l, s, m.pos, m.last, last);
        flits_++;
        if (!last) {
            m.pos++;
            return;
        }
        m.pos = 0;
        m.given.pop_front();
        m.tail_next = int(s);
        packets_++;
        if (++x.sent == unsigned(__builtin_popcount(x.lanes))) {
            x.busy = false;
            x.free_at = t_.ticks() + rng_.below(8);
        }
    }

    // Link lanes sending the same packet at different positions (one fell behind).
    unsigned lanes_behind() const {
        for (unsigned a = 0; a < 4; a++)
            for (unsigned b = a + 1; b < 4; b++)
                if (!ln_[a].given.empty() && !ln_[b].given.empty() && ln_[a].given.front() == ln_[b].given.front() &&
                    ln_[a].pos != ln_[b].pos)
                    return 1;
        return 0;
    }

    // Waits (idle, all outputs granting) until every lane has sent everything.
    void drain() {
        const unsigned a = alloc_pct_, w = write_pct_, p = pick_pct_;
        alloc_pct_ = 0;
        write_pct_ = pick_pct_ = 100;
        for (unsigned l = 0; l < kLanes; l++) grant_pct_[l] = 100;
        for (unsigned c = 0; c < 200; c++) cycle(false);
        for (unsigned l = 0; l < kLanes; l++)
            if (!ln_[l].given.empty() || !ln_[l].todo.empty()) t_.fail("lane %u did not drain", l);
        alloc_pct_ = a;
        write_pct_ = w;
        pick_pct_ = p;
    }

    // A whole packet given to all five lanes in one cycle, outputs always granting.
    void zero_load() {
        write_pct_ = 100;
        pick_pct_ = 0;
        for (unsigned l = 0; l < kLanes; l++) grant_pct_[l] = 100;
        SlotM &x = sl_[7];
        start_packet(7);
        x.len = kWords;
        x.lanes = 0x1f;
        for (unsigned l = 0; l < kLanes; l++) ln_[l].todo.assign(1, 7);
        alloc_pct_ = 0;
        // word 0 here, the rest at one per cycle
        force_write_ = 7;
        cycle_write_first();
        for (unsigned c = 0; c < 40; c++) cycle(false);
        if (x.written != kWords) t_.fail("zero load: packet not written");
        pick_pct_ = 100;
        cycle(false);  // every lane is given the packet in this cycle
        const uint64_t t0 = t_.ticks();
        std::vector<uint64_t> first(kLanes, 0), lastf(kLanes, 0);
        std::vector<unsigned> n(kLanes, 0);
        for (unsigned c = 0; c < 60; c++) {
            cycle(false);
            for (unsigned l = 0; l < kLanes; l++) {
                if (!ln_[l].granted) continue;
                if (n[l]++ == 0) first[l] = t_.ticks();
                lastf[l] = t_.ticks();
            }
        }
        for (unsigned l = 0; l < kLanes; l++) {
            // granted in the cycle offered: the first flit was offered first[l] - 1 - t0
            // cycles after the cycle of the pick
            const uint64_t lat = first[l] - t0;
            if (n[l] != kWords || lat != 4 || lastf[l] - first[l] != kWords - 1)
                t_.fail("zero load, lane %u: %u flits, first offered %llu cycles after the pick (4 expected), over %llu "
                        "cycles (%u expected)",
                        l, n[l], (unsigned long long)lat, (unsigned long long)(lastf[l] - first[l] + 1), kWords);
        }
        drain();
    }

    // A packet given to all lanes the cycle after its word 0, written one word per cycle:
    // it leaves at one flit per cycle.
    void cut_through() {
        SlotM &x = sl_[12];
        start_packet(12);
        x.len = kWords;
        x.lanes = 0x1f;
        for (unsigned l = 0; l < kLanes; l++) ln_[l].todo.assign(1, 12);
        alloc_pct_ = 0;
        write_pct_ = pick_pct_ = 100;
        force_write_ = 12;
        cycle_write_first();
        std::vector<uint64_t> first(kLanes, 0), lastf(kLanes, 0);
        std::vector<unsigned> n(kLanes, 0);
        for (unsigned c = 0; c < 80; c++) {
            cycle(false);
            for (unsigned l = 0; l < kLanes; l++) {
                if (!ln_[l].granted) continue;
                if (n[l]++ == 0) first[l] = t_.ticks();
                lastf[l] = t_.ticks();
            }
        }
        for (unsigned l = 0; l < kLanes; l++)
            if (n[l] != kWords || lastf[l] - first[l] != kWords - 1)
                t_.fail("cut-through, lane %u: %u flits over %llu cycles (%u expected)", l, n[l],
                        (unsigned long long)(lastf[l] - first[l] + 1), kWords);
        drain();
    }

    // One cycle writing word 0 of slot force_write_ (its packet already set up).
    void cycle_write_first() {
        SlotM &x = sl_[force_write_];
        x.alloc_at = t_.ticks();
        x.written = 0;
        // the slot's word 0 goes out as the only write of this cycle
        const unsigned keep = write_pct_;
        write_pct_ = 0;
        tb_.clk_i = 0;
        tb_.rd0_data_i = rd_next_[0];
        tb_.rd1_data_i = rd_next_[1];
        tb_.eval();
        for (unsigned l = 0; l < kLanes; l++) check_lane(l);
        const unsigned ra[2] = {unsigned(tb_.rd0_addr_o), unsigned(tb_.rd1_addr_o)};
        tb_.wr_valid_i = 1;
        tb_.wr_slot_i = force_write_;
        tb_.wr_idx_i = 0;
        tb_.wr_last_i = 0;
        tb_.pick_i = 0;
        tb_.lane_grant_i = 0;
        grant_now_ = 0;
        tb_.eval();
        tb_.clk_i = 1;
        tb_.eval();
        t_.tick();
        const unsigned wa = addr(force_write_, 0);
        for (unsigned p = 0; p < 2; p++) rd_next_[p] = ra[p] == wa ? 0xdeadbeefdeadbeefull : mem_[ra[p]];
        mem_[wa] = x.word[0];
        x.written = 1;
        for (unsigned l = 0; l < kLanes; l++) take_flit(l);
        write_pct_ = keep;
    }

    UnitTest t_;
    Vtb tb_;
    Rng rng_;
    SlotM sl_[kSlots];
    LaneM ln_[kLanes];
    std::vector<uint64_t> mem_;
    uint64_t rd_next_[2] = {};
    unsigned grant_now_ = 0, force_write_ = 0;
    unsigned alloc_pct_ = 0, write_pct_ = 100, pick_pct_ = 100, grant_pct_[kLanes] = {100, 100, 100, 100, 100};
    unsigned packets_ = 0, flits_ = 0, held_ = 0, behind_ = 0;
};

}  // namespace

int main() {
    SendTest test;
    test.run();
}
