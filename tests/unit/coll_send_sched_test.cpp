// coll_send_sched_test.cpp: unit test of canopy_coll_send_sched (the Send Packet Scheduler:
// a multicast lane for the links, one lane for the local port) against a model.
//
// Why: the send lanes carry every broadcast packet out of the working memory. A lane that
// reads a word before it is written, skips or repeats a word, loses its held descriptor or
// withdraws a flit an output has not taken corrupts a packet downstream. The link lane
// offers each word to every link of the packet's mask at once and each link takes it at
// its own pace: a word that leaves before its last link took it, or is offered twice to
// one, loses or duplicates a flit on that link only. And a multicast head offered while one
// child has no room for the whole packet can couple a tree's links into a cycle of waits,
// so that rule (and the head staying offered once it was) is checked every cycle, with the
// room inputs driven adversarially.
//
// What: NumDims 2 (links 0..3, local output 4), 16 trees x 2 slots. The test plays
//   - the working memory: a C++ array written through the wr_* stream (one write per
//     cycle; packets of 2 to 34 words written interleaved at a random pace), both read
//     ports answering the address of the cycle before (a word read in the cycle it is
//     written reads as garbage, and the memory starts as garbage);
//   - the descriptor queue: each packet goes to a random nonempty set of the five outputs
//     (its links to the link lane with that mask, and/or the local lane), given to a lane
//     only while the lane is ready, in the order assigned, from the cycle after its word 0
//     is written; a slot is written again only after every lane it went to reported its
//     tail;
//   - the router: per-output random grants (only while offered) at rates that vary by
//     phase, so the links of one packet take its words at different paces; lane_room_i per
//     link always on, random per cycle or in runs, dropped freely while a head is offered.
// Checks:
//   - every cycle, each lane offers its flit to exactly the outputs of its packet's mask
//     that have not taken it yet (outputs outside the mask get nothing of it); the flit is
//     the next word of that packet, written and word-exact, with lane_last_o on the
//     packet's last word only (the same on all links); an offer stays, unchanged, until its
//     output takes it, and does not move with the cycle's grants, picks or writes; a word
//     is taken once by every output of its mask before the next is offered; in the end
//     every output received exactly the words of the packets whose mask held it;
//   - a link packet's head is first offered only in a cycle lane_room_i is 1 on every link
//     of its mask, and once offered stays offered (room dropped or not) until every link
//     of its mask took it; a head not withheld by room is offered within 6 cycles of its
//     pick and of the tail before it leaving (no offer lost, no hang);
//   - link_tail_o / local_tail_o with the slot exactly two cycles after the grant that took
//     a packet's tail from the last output of its mask, and only then;
//   - link_ready_o / local_ready_o low only while the lane holds a descriptor it has not
//     started (at least two packets given, the newest not offered), and high again by the
//     time the packet before it offers its tail; picks only while ready;
//   - zero load: a whole packet picked on both lanes (all four links and the local port)
//     is offered 4 cycles after the pick and leaves at one flit per cycle on every output;
//     a second packet, held behind it, follows its tail in the next cycle (no idle cycle);
//   - cut-through: a packet picked the cycle after its word 0 is written (the rest one per
//     cycle) leaves at one flit per cycle, every word offered 5 cycles after its write;
//     behind a slower writer, each later word is offered 4 cycles after its write (the
//     lane sees a word the cycle after it is written);
//   - room: a head withheld while one link of its mask has no room is offered in the very
//     cycle room returns and stays offered after room drops again; the rest of the packet
//     follows without room, the next packet's head waits for room again;
//   - every packet given is delivered; a stall detector and the watchdog end a hang.
#include <deque>
#include <vector>

#include "Vtb.h"
#include "unit_common.hpp"

namespace {

using canopy_unit::Rng;
using canopy_unit::UnitTest;
using canopy_unit::get_field;

constexpr uint64_t kSeed = 0x5e4d5e4dc0ffee52ull;
constexpr unsigned kSlots = 32, kLinks = 4, kOuts = kLinks + 1, kWords = 34;
constexpr unsigned kCycles = 300000;
constexpr unsigned kStall = 5000;      // cycles with work pending and no flit taken: a hang
constexpr unsigned kZeroLoad = 4;      // pick to head offered, the packet written
constexpr unsigned kBackToBack = 0;    // idle cycles between two packets of a lane, zero load
constexpr unsigned kFollow = 4;        // a word's write to its offer, the lane following the writer
constexpr unsigned kHeadBound = 6;     // a head not withheld by room is offered by this many
                                       // cycles after its pick and the tail before it leaving
constexpr uint64_t kGarbage = 0xdeadbeefdeadbeefull;
const char *const kLane[2] = {"link", "local"};

enum RoomMode { kRoomOn, kRoomRandom, kRoomRuns, kRoomForced };

struct SlotM {
    bool busy = false;                   // written or being sent
    unsigned len = 0, written = 0;       // words of the packet, words written so far
    unsigned links = 0;                  // the links it goes to (the link lane's mask)
    bool local = false;                  // goes to the local port too
    unsigned lanes = 0, tails = 0;       // lanes it goes to, tails they reported
    uint64_t alloc_at = 0, free_at = 0;  // word 0's write; written again from
    uint64_t wrote_at[kWords] = {};
    uint64_t word[kWords] = {};
};
struct Pkt {
    unsigned slot = 0, mask = 0;         // mask over the lane's outputs
    uint64_t given_at = 0;
    bool head_offered = false, tail_offered = false;
};
struct LaneM {
    unsigned base = 0;                   // its first output's bit in lane_valid_o
    std::deque<unsigned> todo;           // assigned, not yet given
    std::deque<Pkt> given;               // given, in order; the front one is offered
    unsigned pos = 0, took = 0;          // the front packet's word offered, outputs that took it
    unsigned offered = 0, grant = 0;     // last cycle's offer and grants (the lane's output bits)
    uint64_t flit = 0;
    bool last = false, ready = false;
    bool withheld = false;               // last cycle its head waited for room
    uint64_t left_at = 0;                // the cycle the tail before the front packet left
    uint64_t head_lat = 0;               // pick to head offered, of the latest head
    int tail_due = -1, tail_next = -1;   // slot whose tail_o is due this cycle / the next
};

class SendTest {
  public:
    SendTest() : t_("coll_send_sched", kCycles + 100000), tb_(t_.context()), rng_(kSeed) {
        mem_.resize(2048);
        for (uint64_t &w : mem_) w = rng_.next();  // garbage, never a packet's word
        ln_[0].base = 0;
        ln_[1].base = kLinks;
    }

    void run() {
        tb_.rst_i = 1;
        for (int i = 0; i < 3; i++) canopy_unit::clock_edge(tb_, t_);
        tb_.rst_i = 0;
        for (int i = 0; i < 3; i++) canopy_unit::clock_edge(tb_, t_);
        zero_load();
        cut_through();
        room();
        for (unsigned c = 0; c < kCycles; c++) {
            if (c % 1500 == 0) new_phase();
            cycle();
        }
        quiet();
        if (!drain(5000)) t_.fail("the lanes did not drain (%zu/%zu packets given, %zu/%zu assigned)",
                                  ln_[0].given.size(), ln_[1].given.size(), ln_[0].todo.size(), ln_[1].todo.size());
        for (unsigned o = 0; o < kOuts; o++)
            if (rx_[o] != expect_[o])
                t_.fail("output %u received %llu flits, %llu expected", o, (unsigned long long)rx_[o],
                        (unsigned long long)expect_[o]);
        if (packets_[0] < 4000 || packets_[1] < 2000 || multi_ < 3000 || partial_ < 50000 || held_[0] < 100000 ||
            held_[1] < 80000 || withheld_ < 2500 || released_ < 250 || held_noroom_ < 800)
            t_.fail("coverage: %u link / %u local packets, %u to several links, %u cycles a word partly taken, "
                    "%u / %u cycles a descriptor held, %u cycles a head withheld by room, %u heads offered as room "
                    "returned, %u cycles a head held offered without room",
                    packets_[0], packets_[1], multi_, partial_, held_[0], held_[1], withheld_, released_,
                    held_noroom_);
        t_.pass();
    }

  private:
    static unsigned addr(unsigned s, unsigned w) { return ((w >> 5) & 1) << 10 | s << 5 | (w & 31); }
    // Lane k's output bits of a vector over the router outputs (links 0..3, local 4).
    static unsigned lane_bits(unsigned v, unsigned k) { return k ? (v >> kLinks) & 1 : v & ((1u << kLinks) - 1); }

    // One cycle of the test: the inputs, the checks of the outputs, the clock edge, the model.
    void cycle() {
        const uint64_t now = t_.ticks();
        tb_.clk_i = 0;
        tb_.rd0_data_i = rd_next_[0];
        tb_.rd1_data_i = rd_next_[1];
        drive_room();
        tb_.lane_room_i = room_;
        tb_.link_pick_i = 0;
        tb_.local_pick_i = 0;
        tb_.wr_valid_i = 0;
        tb_.lane_grant_i = 0;
        tb_.eval();
        // --- the offers (of the last edge and this cycle's room), tails, ready
        for (unsigned k = 0; k < 2; k++) check_lane(k, now);
        const unsigned valid = tb_.lane_valid_o, lastv = tb_.lane_last_o;
        const uint64_t f0 = get_field(tb_.lane_flit_o, 0, 64), f1 = get_field(tb_.lane_flit_o, 64, 64);
        const unsigned ra[2] = {unsigned(tb_.rd0_addr_o), unsigned(tb_.rd1_addr_o)};
        // --- writes (the working memory's write stream)
        int wslot = -1;
        if (force_first_ >= 0) {
            wslot = force_first_;  // word 0 of a packet a directed test set up
            force_first_ = -1;
        } else if (rng_.chance(alloc_pct_)) {
            const unsigned s = rng_.below(kSlots);
            if (!sl_[s].busy && now >= sl_[s].free_at) {
                const unsigned lanes = 1 + rng_.below(31);
                new_packet(s, rng_.chance(30) ? kWords : 2 + rng_.below(kWords - 1), lanes & 0xf, lanes >> 4);
                wslot = int(s);
            }
        }
        if (wslot < 0 && rng_.chance(write_pct_)) {
            std::vector<unsigned> w;
            for (unsigned s = 0; s < kSlots; s++)
                if (sl_[s].busy && sl_[s].written > 0 && sl_[s].written < sl_[s].len) w.push_back(s);
            if (!w.empty()) wslot = int(w[rng_.below(unsigned(w.size()))]);
        }
        int wa = -1;
        uint64_t wv = 0;
        if (wslot >= 0) {
            SlotM &x = sl_[wslot];
            const unsigned i = x.written++;
            if (i == 0) x.alloc_at = now;
            x.wrote_at[i] = now;
            wa = int(addr(unsigned(wslot), i));
            wv = x.word[i];
            tb_.wr_valid_i = 1;
            tb_.wr_slot_i = unsigned(wslot);
            tb_.wr_idx_i = i;
            tb_.wr_last_i = x.written == x.len;
        }
        // --- picks (the descriptor queue)
        for (unsigned k = 0; k < 2; k++) pick(k, now);
        // --- grants (the outputs), only while offered
        unsigned g = 0;
        for (unsigned o = 0; o < kOuts; o++)
            if (((valid >> o) & 1) && rng_.chance(grant_pct_[o])) g |= 1u << o;
        tb_.lane_grant_i = g;
        for (unsigned k = 0; k < 2; k++) ln_[k].grant = lane_bits(g, k);
        tb_.eval();
        if (tb_.lane_valid_o != valid || tb_.lane_last_o != lastv || get_field(tb_.lane_flit_o, 0, 64) != f0 ||
            get_field(tb_.lane_flit_o, 64, 64) != f1)
            t_.fail("the offer moved with this cycle's grants, picks or writes (valid %x -> %x)", valid,
                    unsigned(tb_.lane_valid_o));
        tb_.clk_i = 1;
        tb_.eval();
        t_.tick();
        // --- the model after the edge: the reads happen before this edge's write lands
        for (unsigned p = 0; p < 2; p++) rd_next_[p] = int(ra[p]) == wa ? kGarbage : mem_[ra[p]];
        if (wa >= 0) mem_[unsigned(wa)] = wv;
        for (unsigned k = 0; k < 2; k++) take(k, now);
        last_valid_ = valid;
        const bool pending = !ln_[0].given.empty() || !ln_[1].given.empty();
        if (g != 0 || !pending) progress_at_ = now;
        else if (now - progress_at_ > kStall)
            t_.fail("hang: no flit taken for %u cycles (link lane: slot %d word %u taken by %x, valid %x, room %x; "
                    "local lane: slot %d word %u)",
                    kStall, ln_[0].given.empty() ? -1 : int(ln_[0].given.front().slot), ln_[0].pos, ln_[0].took,
                    valid, room_, ln_[1].given.empty() ? -1 : int(ln_[1].given.front().slot), ln_[1].pos);
    }

    void drive_room() {
        switch (room_mode_) {
        case kRoomOn: room_ = 0xf; break;
        case kRoomForced: room_ = room_force_; break;
        case kRoomRandom:
            room_ = 0;
            for (unsigned l = 0; l < kLinks; l++)
                if (rng_.chance(room_pct_)) room_ |= 1u << l;
            break;
        case kRoomRuns:
            for (unsigned l = 0; l < kLinks; l++)
                if (rng_.chance(((room_ >> l) & 1) ? room_drop_ : room_rise_)) room_ ^= 1u << l;
            break;
        }
    }

    void new_packet(unsigned s, unsigned len, unsigned links, bool local) {
        SlotM &x = sl_[s];
        x.busy = true;
        x.len = len;
        x.written = 0;
        x.links = links;
        x.local = local;
        x.lanes = (links != 0) + local;
        x.tails = 0;
        for (unsigned i = 0; i < kWords; i++) x.word[i] = rng_.next();
        if (links) ln_[0].todo.push_back(s);
        if (local) ln_[1].todo.push_back(s);
    }

    // The descriptor queue: lane k's next packet, while the lane is ready.
    void pick(unsigned k, uint64_t now) {
        LaneM &m = ln_[k];
        if (m.todo.empty() || !m.ready || !rng_.chance(pick_pct_[k])) return;
        const unsigned s = m.todo.front();
        const SlotM &x = sl_[s];
        if (x.written == 0 || now <= x.alloc_at) return;  // from the cycle after word 0's write
        Pkt p;
        p.slot = s;
        p.mask = k ? 1 : x.links;
        p.given_at = now;
        m.todo.pop_front();
        m.given.push_back(p);
        for (unsigned o = 0; o < kOuts; o++)
            if ((p.mask << m.base >> o) & 1) expect_[o] += x.len;
        if (k == 0) {
            tb_.link_pick_i = 1;
            tb_.link_pick_slot_i = s;
            tb_.link_pick_mask_i = p.mask;
        } else {
            tb_.local_pick_i = 1;
            tb_.local_pick_slot_i = s;
        }
    }

    // Checks lane k's outputs in a cycle (before its inputs but room are set).
    void check_lane(unsigned k, uint64_t now) {
        LaneM &m = ln_[k];
        const char *n = kLane[k];
        const unsigned v = lane_bits(tb_.lane_valid_o, k), lastv = lane_bits(tb_.lane_last_o, k);
        const uint64_t f = get_field(tb_.lane_flit_o, 64 * k, 64);
        const bool last = lastv != 0;
        if (k == 0 && last && lastv != (1u << kLinks) - 1)
            t_.fail("link lane: lane_last_o %x differs between links", lastv);
        // --- the tail, two cycles after the grant that took it from the last output
        const bool tail = k ? tb_.local_tail_o : tb_.link_tail_o;
        const unsigned tslot = k ? tb_.local_tail_slot_o : tb_.link_tail_slot_o;
        if (tail != (m.tail_due >= 0))
            t_.fail("%s lane: tail_o %d, expected %d (slot %d)", n, tail, m.tail_due >= 0, m.tail_due);
        if (tail) {
            if (tslot != unsigned(m.tail_due)) t_.fail("%s lane: tail of slot %u, expected %d", n, tslot, m.tail_due);
            SlotM &x = sl_[tslot];
            if (++x.tails == x.lanes) {
                x.busy = false;
                x.free_at = now + rng_.below(8);
            }
        }
        m.tail_due = m.tail_next;
        m.tail_next = -1;
        // --- an offer stays, unchanged, until taken
        const unsigned kept = m.offered & ~m.grant;
        if (kept & ~v) t_.fail("%s lane withdrew a flit from outputs %x before they took it", n, kept & ~v);
        if (kept && (f != m.flit || last != m.last))
            t_.fail("%s lane changed a flit its outputs %x had not taken", n, kept);
        // --- the offer: the front packet's word, to the outputs of its mask that lack it
        const unsigned room = k ? 1 : room_;
        bool withheld = false;
        if (v) {
            if (m.given.empty()) t_.fail("%s lane offers a flit to outputs %x with no packet given", n, v);
            Pkt &p = m.given.front();
            const SlotM &x = sl_[p.slot];
            if (v != (p.mask & ~m.took))
                t_.fail("%s lane offers slot %u word %u to outputs %x: its mask is %x, taken by %x", n, p.slot, m.pos,
                        v, p.mask, m.took);
            if (m.pos >= x.written) t_.fail("%s lane offers slot %u word %u, not yet written", n, p.slot, m.pos);
            if (f != x.word[m.pos])
                t_.fail("%s lane slot %u word %u: %016llx, expected %016llx", n, p.slot, m.pos, (unsigned long long)f,
                        (unsigned long long)x.word[m.pos]);
            if (last != (m.pos + 1 == x.len))
                t_.fail("%s lane slot %u word %u of %u: last %d", n, p.slot, m.pos, x.len, last);
            if (m.pos == 0) {
                const bool rm = (room & p.mask) == p.mask;
                if (!p.head_offered) {
                    if (!rm)
                        t_.fail("link lane offers the head of slot %u (mask %x) with lane_room_i %x", p.slot, p.mask,
                                room);
                    p.head_offered = true;
                    m.head_lat = now - p.given_at;
                    if (m.withheld) released_++;
                } else if (!rm) {
                    held_noroom_++;
                }
            }
            if (last) p.tail_offered = true;
            if (m.took) partial_++;
        } else if (!m.given.empty() && !m.given.front().head_offered) {
            // A head not offered long after its pick and the tail before it left: only room
            // may hold it back.
            const Pkt &p = m.given.front();
            if (now >= p.given_at + kHeadBound && now >= m.left_at + kHeadBound) {
                if ((room & p.mask) == p.mask)
                    t_.fail("%s lane: the head of slot %u (mask %x) not offered %llu cycles after its pick, %llu "
                            "after the tail before it left, room %x",
                            n, p.slot, p.mask, (unsigned long long)(now - p.given_at),
                            (unsigned long long)(now - m.left_at), room);
                withheld = true;
                withheld_++;
            }
        }
        m.withheld = withheld;
        m.offered = v;
        m.flit = f;
        m.last = last;
        // --- ready: low only while a descriptor is held, not past the tail before it
        m.ready = k ? tb_.local_ready_o : tb_.link_ready_o;
        if (!m.ready) {
            held_[k]++;
            if (m.given.size() < 2) t_.fail("%s lane not ready with %zu packet(s) given", n, m.given.size());
            const Pkt &a = m.given[m.given.size() - 2], &b = m.given.back();
            if (a.tail_offered || b.head_offered)
                t_.fail("%s lane not ready though slot %u, before slot %u given last, offered its tail", n, a.slot,
                        b.slot);
        }
    }

    // After an edge: the grants of lane k's offer of the cycle.
    void take(unsigned k, uint64_t now) {
        LaneM &m = ln_[k];
        if (!m.grant) return;
        Pkt &p = m.given.front();  // grants only while offered: there is one
        const SlotM &x = sl_[p.slot];
        for (unsigned o = 0; o < kOuts; o++) {
            if (!((m.grant << m.base >> o) & 1)) continue;
            rx_[o]++;
            if (n_take_[o]++ == 0) first_take_[o] = now;
            last_take_[o] = now;
            const uint64_t lag = now - x.wrote_at[m.pos];
            if (m.pos == 0) {
                lag0_[o] = lag;
                continue;
            }
            if (lag < lag_min_[o]) lag_min_[o] = lag;
            if (lag > lag_max_[o]) lag_max_[o] = lag;
        }
        m.took |= m.grant;
        if (m.took != p.mask) return;
        m.took = 0;  // every output of the mask has the word: it leaves
        if (++m.pos < x.len) return;
        m.pos = 0;
        m.left_at = now;
        m.tail_next = int(p.slot);
        if (__builtin_popcount(p.mask) > 1) multi_++;
        packets_[k]++;
        m.given.pop_front();
    }

    void new_phase() {
        alloc_pct_ = 5 + rng_.below(60);
        write_pct_ = rng_.chance(30) ? 100 : 20 + rng_.below(81);
        for (unsigned k = 0; k < 2; k++) pick_pct_[k] = rng_.chance(30) ? 100 : 10 + rng_.below(91);
        for (unsigned o = 0; o < kOuts; o++)
            grant_pct_[o] = rng_.chance(40) ? 100 : rng_.chance(60) ? 50 + rng_.below(51) : 5 + rng_.below(96);
        const unsigned r = rng_.below(100);
        room_mode_ = r < 25 ? kRoomOn : r < 60 ? kRoomRandom : kRoomRuns;
        room_pct_ = 30 + rng_.below(71);
        room_drop_ = 1 + rng_.below(15);
        room_rise_ = 10 + rng_.below(51);
    }

    // No new packets; everything else at full rate, room on.
    void quiet() {
        alloc_pct_ = 0;
        write_pct_ = 100;
        pick_pct_[0] = pick_pct_[1] = 100;
        for (unsigned o = 0; o < kOuts; o++) grant_pct_[o] = 100;
        room_mode_ = kRoomOn;
    }

    bool idle() const {
        for (const LaneM &m : ln_)
            if (!m.todo.empty() || !m.given.empty()) return false;
        for (const SlotM &x : sl_)
            if (x.busy) return false;
        return true;
    }

    // Runs up to `limit` cycles until every packet is sent and its tails reported.
    bool drain(unsigned limit) {
        for (unsigned c = 0; c < limit && !idle(); c++) cycle();
        return idle();
    }

    void reset_meas() {
        for (unsigned o = 0; o < kOuts; o++) {
            n_take_[o] = 0;
            first_take_[o] = last_take_[o] = 0;
            lag_min_[o] = ~uint64_t{0};
            lag_max_[o] = 0;
        }
    }

    // Writes a packet to slot s (word 0 in the first cycle, then one word per cycle).
    void write_packet(unsigned s, unsigned len, unsigned links, bool local, unsigned cycles) {
        new_packet(s, len, links, local);
        force_first_ = int(s);
        for (unsigned c = 0; c < cycles; c++) cycle();
        if (sl_[s].written != len) t_.fail("slot %u: packet not written", s);
    }

    // A whole packet picked on both lanes at once, every output always granting: offered
    // kZeroLoad cycles after the pick, one flit per cycle. Then two packets picked back to
    // back (the second held): kBackToBack idle cycles between them.
    void zero_load() {
        quiet();
        pick_pct_[0] = pick_pct_[1] = 0;
        write_packet(7, kWords, 0xf, true, 40);
        pick_pct_[0] = pick_pct_[1] = 100;
        reset_meas();
        for (unsigned c = 0; c < 60; c++) cycle();
        for (unsigned k = 0; k < 2; k++)
            if (ln_[k].head_lat != kZeroLoad)
                t_.fail("zero load, %s lane: head offered %llu cycles after the pick (%u expected)", kLane[k],
                        (unsigned long long)ln_[k].head_lat, kZeroLoad);
        for (unsigned o = 0; o < kOuts; o++)
            if (n_take_[o] != kWords || last_take_[o] - first_take_[o] != kWords - 1)
                t_.fail("zero load, output %u: %u flits over %llu cycles (%u expected)", o, n_take_[o],
                        (unsigned long long)(last_take_[o] - first_take_[o] + 1), kWords);
        if (!drain(100)) t_.fail("zero load: did not drain");

        pick_pct_[0] = pick_pct_[1] = 0;
        new_packet(8, kWords, 0xf, true);
        force_first_ = 8;
        cycle();
        write_packet(9, kWords, 0xf, true, 80);
        if (sl_[8].written != kWords) t_.fail("slot 8: packet not written");
        pick_pct_[0] = pick_pct_[1] = 100;
        reset_meas();
        for (unsigned c = 0; c < 100; c++) cycle();
        for (unsigned o = 0; o < kOuts; o++)
            if (n_take_[o] != 2 * kWords || last_take_[o] - first_take_[o] + 1 != 2 * kWords + kBackToBack)
                t_.fail("back to back, output %u: %u flits over %llu cycles (%u expected)", o, n_take_[o],
                        (unsigned long long)(last_take_[o] - first_take_[o] + 1), 2 * kWords + kBackToBack);
        if (!drain(100)) t_.fail("back to back: did not drain");
    }

    // A packet picked on both lanes the cycle after its word 0 is written: with the rest
    // written one word per cycle it follows the writer at one flit per cycle, each word
    // offered kZeroLoad + 1 cycles after its write (the pick came a cycle after word 0);
    // with the writer slower (a word every third cycle) the lane catches up and offers each
    // later word kFollow cycles after its write.
    void cut_through() {
        quiet();
        reset_meas();
        write_packet(12, kWords, 0xf, true, 90);
        for (unsigned o = 0; o < kOuts; o++)
            if (n_take_[o] != kWords || last_take_[o] - first_take_[o] != kWords - 1 || lag0_[o] != kZeroLoad + 1 ||
                lag_min_[o] != kZeroLoad + 1 || lag_max_[o] != kZeroLoad + 1)
                t_.fail("cut-through, output %u: %u flits over %llu cycles (%u expected), offered %llu (word 0), %llu "
                        "to %llu cycles after written (%u expected)",
                        o, n_take_[o], (unsigned long long)(last_take_[o] - first_take_[o] + 1), kWords,
                        (unsigned long long)lag0_[o], (unsigned long long)lag_min_[o], (unsigned long long)lag_max_[o],
                        kZeroLoad + 1);
        if (!drain(100)) t_.fail("cut-through: did not drain");

        reset_meas();
        new_packet(13, 12, 0xa, true);
        force_first_ = 13;
        for (unsigned c = 0; c < 60; c++) {
            write_pct_ = c % 3 == 2 ? 100 : 0;
            cycle();
        }
        quiet();
        for (unsigned o = 0; o < kOuts; o++) {
            const unsigned n = (o == 1 || o == 3 || o == 4) ? 12 : 0;
            if (n_take_[o] != n ||
                (n && (lag0_[o] != kZeroLoad + 1 || lag_min_[o] != kFollow || lag_max_[o] != kFollow)))
                t_.fail("cut-through behind a slow writer, output %u: %u flits (%u expected), offered %llu (word 0), "
                        "%llu to %llu cycles after written (%u, %u expected)",
                        o, n_take_[o], n, (unsigned long long)lag0_[o], (unsigned long long)lag_min_[o],
                        (unsigned long long)lag_max_[o], kZeroLoad + 1, kFollow);
        }
        if (!drain(100)) t_.fail("cut-through: did not drain");
    }

    // The head rule, directed: a head withheld for want of room on one link of its mask,
    // offered the cycle room returns, held offered after it drops, the rest sent without
    // room; the next packet's head waits for room again.
    void room() {
        quiet();
        room_mode_ = kRoomForced;
        room_force_ = 0xe;  // no room on link 0
        pick_pct_[0] = 0;
        for (unsigned o = 0; o < kOuts; o++) grant_pct_[o] = 0;
        write_packet(20, 6, 0x5, false, 10);
        write_packet(21, 3, 0x1, false, 5);
        pick_pct_[0] = 100;
        for (unsigned c = 0; c < 20; c++) cycle();
        if (ln_[0].given.size() != 2 || ln_[0].given.front().head_offered || last_valid_ != 0)
            t_.fail("room: with no room on link 0, %zu packets given, valid %x (2, 0 expected)", ln_[0].given.size(),
                    last_valid_);
        room_force_ = 0xf;
        cycle();
        if (last_valid_ != 0x5) t_.fail("room: valid %x in the cycle room returned (5 expected)", last_valid_);
        room_force_ = 0;
        for (unsigned c = 0; c < 5; c++) cycle();
        if (last_valid_ != 0x5) t_.fail("room: valid %x after room dropped (5 expected)", last_valid_);
        grant_pct_[0] = 100;  // link 0 takes the head, link 2 not yet
        cycle();
        grant_pct_[0] = 0;
        cycle();
        if (last_valid_ != 0x4) t_.fail("room: valid %x after link 0 took the head (4 expected)", last_valid_);
        for (unsigned o = 0; o < kOuts; o++) grant_pct_[o] = 100;
        for (unsigned c = 0; c < 20; c++) cycle();
        if (ln_[0].given.size() != 1 || ln_[0].given.front().slot != 21 || ln_[0].given.front().head_offered ||
            last_valid_ != 0)
            t_.fail("room: slot 20 not sent without room, or slot 21's head offered without it (valid %x)",
                    last_valid_);
        room_force_ = 0xe;
        for (unsigned c = 0; c < 5; c++) cycle();
        room_force_ = 0x1;
        cycle();
        if (last_valid_ != 0x1) t_.fail("room: valid %x in the cycle link 0's room returned (1 expected)", last_valid_);
        quiet();
        if (!drain(100)) t_.fail("room: did not drain");
    }

    UnitTest t_;
    Vtb tb_;
    Rng rng_;
    SlotM sl_[kSlots];
    LaneM ln_[2];
    std::vector<uint64_t> mem_;
    uint64_t rd_next_[2] = {};
    int force_first_ = -1;
    unsigned room_ = 0xf, room_force_ = 0xf, last_valid_ = 0;
    RoomMode room_mode_ = kRoomOn;
    unsigned alloc_pct_ = 0, write_pct_ = 100, pick_pct_[2] = {100, 100}, grant_pct_[kOuts] = {100, 100, 100, 100, 100};
    unsigned room_pct_ = 100, room_drop_ = 0, room_rise_ = 100;
    uint64_t progress_at_ = 0;
    uint64_t rx_[kOuts] = {}, expect_[kOuts] = {};
    unsigned n_take_[kOuts] = {};
    uint64_t first_take_[kOuts] = {}, last_take_[kOuts] = {}, lag_min_[kOuts] = {}, lag_max_[kOuts] = {},
             lag0_[kOuts] = {};
    unsigned packets_[2] = {}, held_[2] = {};
    unsigned multi_ = 0, partial_ = 0, withheld_ = 0, released_ = 0, held_noroom_ = 0;
};

}  // namespace

int main() {
    SendTest test;
    test.run();
}
