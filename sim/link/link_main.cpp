// link_main.cpp: canopy-link, one protected link (two canopy_link ends, the RTL) over a
// simulated wire that corrupts, drops and kills, with a scoreboard on every flit.
//
//   canopy-link [--seed N] [--flits N] [--ber X] [--burst-rate X] [--burst-len N]
//               [--drop X] [--dead-at N [--dead-dir ab|ba|both]] [--latency L] [--rate R]
//               [--drain R] [--vcs MASK]
//               [--ev-rate R] [--drain-limit N] [--min-closed N]
//
// Each end stands in for a router port: a source that sends flits of packets on the VCs in
// MASK while it holds credits (as many per VC as a router input has: 64 on the
// point-to-point VCs and COLL_DOWN, 32 on COLL_UP) and returns collective slot credits at
// --ev-rate per cycle; a sink that takes every flit the link delivers into that VC's
// buffer (overflow is a credit error) and drains one flit per cycle with probability
// --drain, returning its credit. Both directions carry traffic at once.
//
// The wire (each direction, --latency cycles) flips bits at --ber per bit, starts error
// bursts of --burst-len bits at --burst-rate per bit, drops a valid word with probability
// --drop, and from its --dead-at'th word on carries nothing (both directions, or only A to
// B or B to A with --dead-dir; sim/wire_faults.hpp); every
// bit of the word counts (body and side band, idle cycles too).
//
// The scoreboard knows every flit sent per (direction, VC): each arrival must be the next
// one, bit for bit; otherwise it is counted as lost (a later flit came first), duplicated
// (an earlier one again) or corrupted. After --flits flits per direction the sources stop
// and the link must drain within --drain-limit cycles (the watchdog): every flit
// delivered, every credit back at its source, every slot credit delivered once. With
// --dead-at the wire dies instead: both ends must declare the link down, nothing delivered
// before may be wrong, and every credit must come back to its source (the dead link hands
// back what the routers lack, so they never wait on it); "down_after" says how many
// cycles after the death each end noticed. A dead end hands on only its closer's filler
// flits (canopy_link_closer): each into a packet it had open on a VC it closes, and every
// such packet must end, one flit longer or shorter than its head's len says
// ("packets_closed", "fillers", "closer_faults", "left_open"; --min-closed N: at least N
// packets closed, so that a test of it cannot pass without a packet cut).
// Prints one JSON object; exit status 0 only if nothing was lost, duplicated, corrupted
// or left behind and no RTL assertion fired.
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

#include "Vlink.h"
#include "rng.hpp"
#include "wire_faults.hpp"
#include "verilated.h"

namespace {

constexpr int kNumVcs = 4;
constexpr int kTrees = 16;
constexpr int kWireBits = 64 + 5;  // body, valid, ctl, last, vc (2)
const int kVcCredits[kNumVcs] = {64, 64, 32, 64};

struct Options {
    uint64_t seed = 1;
    uint64_t flits = 200000;     // per direction
    canopy::FaultOptions faults;
    unsigned latency = 1;
    double rate = 1.0, drain = 1.0, ev_rate = 0.01;
    unsigned vcs = 0xF;
    std::string dead_dir = "both";  // --dead-at applies to: ab (A to B), ba, both
    uint64_t drain_limit = 200000;
    uint64_t warmup = 2000;
    uint64_t min_closed = 0;  // --min-closed: a dying run must close at least this many packets
};

struct Word {
    bool valid = false, ctl = false, last = false;
    unsigned vc = 0;
    uint64_t body = 0;
};

// One direction of the wire: a delay line with faults.
class Wire {
  public:
    Wire(const Options &o, const canopy::FaultOptions &f, uint64_t seed)
        : faults_(f, kWireBits, seed), line_(o.latency) {}

    Word carry(Word w) {
        faults_.apply(
            w.valid, [&](unsigned bit) { flip(w, bit); }, [&] { w.valid = false; });
        line_.push_back(w);
        Word out = line_.front();
        line_.pop_front();
        return out;
    }
    const canopy::WireFaults &faults() const { return faults_; }

  private:
    static void flip(Word &w, unsigned bit) {
        if (bit < 64) w.body ^= uint64_t{1} << bit;
        else if (bit == 64) w.valid = !w.valid;
        else if (bit == 65) w.ctl = !w.ctl;
        else if (bit == 66) w.last = !w.last;
        else w.vc ^= 1u << (bit - 67);
    }
    canopy::WireFaults faults_;
    std::deque<Word> line_;
};

uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

// A flit's body: {check tag 16, direction 4, VC 4, sequence number 40}.
uint64_t flit_body(unsigned dir, unsigned vc, uint64_t seq) {
    const uint64_t low = (uint64_t{dir} << 44) | (uint64_t{vc} << 40) | (seq & 0xFFFFFFFFFFull);
    return ((mix(low) & 0xFFFF) << 48) | low;
}

// The VCs a dead link end closes (canopy_link_closer's CloseMask: P2P_LO, P2P_HI,
// COLL_DOWN) and the flits a packet's head says it has (2 header words and ceil(len / 8),
// len in bits 48..40: here whatever the source's numbered body holds there).
constexpr unsigned kCloseMask = 0xB;
uint64_t head_flits(uint64_t head) { return 2 + (((head >> 40) & 0x1FF) + 7) / 8; }

// What a sink has of the packet now arriving on a VC.
struct Framing {
    uint64_t head = 0, flits = 0;  // its first flit, flits so far (0: between packets)
};

struct Counts {
    uint64_t lost = 0, dup = 0, corrupt = 0, delivered = 0, window_delivered = 0;
};

// One end's router stand-in: its source (sending on this end) and its sink (receiving).
struct Port {
    canopy::Rng rng{0};
    // source
    int credits[kNumVcs] = {};
    uint64_t next_seq[kNumVcs] = {};
    unsigned pkt_left[kNumVcs] = {};        // flits left in the VC's current packet
    unsigned rr = 0;
    uint64_t sent = 0;
    std::deque<bool> expect_last[kNumVcs];  // the last bits of flits sent, not yet delivered
    uint64_t exp_seq[kNumVcs] = {};         // the far sink's next expected sequence number
    // sink (flits of the other direction)
    std::deque<uint64_t> buf[kNumVcs];
    Framing framing[kNumVcs];
    unsigned drain_rr = 0;
    // slot credits this end returns (they travel to the far end)
    uint64_t ev_sent[kTrees] = {}, ev_got[kTrees] = {};
};

bool parse(int argc, char **argv, Options &o) {
    for (int i = 1; i < argc; i++) {
        const std::string a = argv[i];
        auto val = [&]() -> const char * {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "canopy-link: %s needs a value\n", a.c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--seed") o.seed = std::strtoull(val(), nullptr, 0);
        else if (a == "--flits") o.flits = std::strtoull(val(), nullptr, 0);
        else if (a == "--ber") o.faults.ber = std::strtod(val(), nullptr);
        else if (a == "--burst-rate") o.faults.burst_rate = std::strtod(val(), nullptr);
        else if (a == "--burst-len") o.faults.burst_len = static_cast<unsigned>(std::strtoul(val(), nullptr, 0));
        else if (a == "--drop") o.faults.drop = std::strtod(val(), nullptr);
        else if (a == "--dead-at") o.faults.dead_at = std::strtoull(val(), nullptr, 0);
        else if (a == "--dead-dir") o.dead_dir = val();
        else if (a == "--latency") o.latency = static_cast<unsigned>(std::strtoul(val(), nullptr, 0));
        else if (a == "--rate") o.rate = std::strtod(val(), nullptr);
        else if (a == "--drain") o.drain = std::strtod(val(), nullptr);
        else if (a == "--vcs") o.vcs = static_cast<unsigned>(std::strtoul(val(), nullptr, 0));
        else if (a == "--ev-rate") o.ev_rate = std::strtod(val(), nullptr);
        else if (a == "--drain-limit") o.drain_limit = std::strtoull(val(), nullptr, 0);
        else if (a == "--min-closed") o.min_closed = std::strtoull(val(), nullptr, 0);
        else {
            std::fprintf(stderr, "canopy-link: unknown option %s\n", a.c_str());
            return false;
        }
    }
    const canopy::FaultOptions &f = o.faults;
    if (o.dead_dir != "ab" && o.dead_dir != "ba" && o.dead_dir != "both") {
        std::fprintf(stderr, "canopy-link: --dead-dir is ab, ba or both\n");
        return false;
    }
    if (o.latency < 1 || o.vcs == 0 || o.vcs > 0xF || f.burst_len < 2 || f.ber < 0 || f.ber > 0.5 ||
        f.burst_rate < 0 || f.burst_rate > 0.5 || o.rate < 0 || o.rate > 1 || o.drain <= 0 || o.drain > 1 ||
        f.drop < 0 || f.drop > 0.5) {
        std::fprintf(stderr, "canopy-link: option out of range (latency >= 1, vcs 1..15, burst-len >= 2, "
                             "ber <= 0.5, drop <= 0.5, 0 < drain <= 1, 0 <= rate <= 1)\n");
        return false;
    }
    return true;
}

bool chance(canopy::Rng &rng, double p) {
    return p >= 1 || (p > 0 && static_cast<double>(rng.next() >> 11) < p * 9007199254740992.0);
}

}  // namespace

int main(int argc, char **argv) {
    Options o;
    if (!parse(argc, argv, o)) return 2;

    VerilatedContext ctx;
    ctx.fatalOnError(false);
    Vlink end_a{&ctx, "a"}, end_b{&ctx, "b"};
    Vlink *ends[2] = {&end_a, &end_b};
    canopy::FaultOptions f_ab = o.faults, f_ba = o.faults;
    if (o.dead_dir == "ab") f_ba.dead_at = 0;
    if (o.dead_dir == "ba") f_ab.dead_at = 0;
    Wire wire_ab(o, f_ab, o.seed * 4 + 1), wire_ba(o, f_ba, o.seed * 4 + 2);
    Port ports[2];
    Counts counts[2];  // per direction, at its sink
    for (unsigned d = 0; d < 2; d++) {
        ports[d].rng = canopy::Rng(o.seed * 4 + 3 + d);
        for (int v = 0; v < kNumVcs; v++) ports[d].credits[v] = kVcCredits[v];
    }

    auto tick = [&]() {
        for (Vlink *e : ends) { e->clk_i = 0; e->eval(); }
        for (Vlink *e : ends) { e->clk_i = 1; e->eval(); }
        ctx.timeInc(1);
    };
    for (Vlink *e : ends) e->rst_i = 1;
    for (int i = 0; i < 4; i++) tick();
    for (Vlink *e : ends) e->rst_i = 0;

    uint64_t replays = 0, timeouts = 0, crc_errs = 0, seq_errs = 0, dups = 0, cred_errs = 0;
    uint64_t cycle = 0, window_start = o.warmup, window_end = 0, credit_overflows = 0;
    bool injecting = true, drained = false;
    // A wire that dies (--dead-at): the cycle each end declared its link down, the flits
    // its router sent into the dead link (dropped there), and the run's end: once both
    // ends are down the sources stop, and after kSettle more cycles every credit must be
    // back at its source (the dead link hands back what the routers lack).
    constexpr uint64_t kSettle = 300;
    const bool dying = o.faults.dead_at != 0;
    int64_t down_at[2] = {-1, -1};
    uint64_t link_drops = 0, both_down_at = 0;
    uint64_t fillers = 0, closed = 0, closer_bad = 0;  // canopy_link_closer's work, and its faults
    uint64_t close_pulses = 0;                           // its close_o: one per packet it closed
    // The injection phase's watchdog: four times what the offered rate needs.
    const uint64_t limit_cycles = static_cast<uint64_t>(4.0 * static_cast<double>(o.flits) / std::max(o.rate, 0.01)) + 100000;

    while (true) {
        // What each end shows this cycle (registered outputs).
        Word out[2];
        for (unsigned d = 0; d < 2; d++) {
            Vlink &e = *ends[d];
            out[d] = Word{e.w_tx_valid_o != 0, e.w_tx_ctl_o != 0, e.w_tx_last_o != 0,
                          static_cast<unsigned>(e.w_tx_vc_o), e.w_tx_body_o};
            replays += e.replay_o;
            timeouts += e.timeout_o;
            crc_errs += e.crc_err_o;
            seq_errs += e.seq_err_o;
            dups += e.dup_o;
            cred_errs += e.cred_err_o;
            link_drops += e.drop_o;
            close_pulses += e.close_o;
            if (!e.up_o && down_at[d] < 0) down_at[d] = static_cast<int64_t>(cycle);
        }
        const Word in_b = wire_ab.carry(out[0]);
        const Word in_a = wire_ba.carry(out[1]);
        const Word in[2] = {in_a, in_b};

        for (unsigned d = 0; d < 2; d++) {
            Vlink &e = *ends[d];
            Port &me = ports[d];        // this end: source of direction d
            Port &far = ports[1 - d];   // the far end: source of direction 1-d, whose flits arrive here
            Counts &c = counts[1 - d];

            // Sink: the flit delivered here.
            if (e.rx_valid_o) {
                const unsigned vc = static_cast<unsigned>(e.rx_vc_o) & 3u;
                const uint64_t body = e.rx_flit_o;
                const bool last = e.rx_last_o != 0;
                me.buf[vc].push_back(body);
                if (me.buf[vc].size() > static_cast<size_t>(kVcCredits[vc])) credit_overflows++;
                Framing &fr = me.framing[vc];
                if (fr.flits == 0) fr.head = body;
                fr.flits++;
                const uint64_t pkt_flits = fr.flits;
                if (last) fr.flits = 0;
                if (!e.up_o) {
                    // A dead end hands on nothing but the closer's fillers, on the VCs it
                    // closes, into packets it had open (canopy_link_closer), and each
                    // packet it closes comes out longer or shorter than its len says.
                    if (body != 0 || !((kCloseMask >> vc) & 1) || pkt_flits == 1) closer_bad++;
                    fillers++;
                    if (last && pkt_flits == head_flits(fr.head)) closer_bad++;
                    closed += last;
                } else {
                std::deque<bool> &exp_last = far.expect_last[vc];
                uint64_t &exp = far.exp_seq[vc];
                const uint64_t seq = body & 0xFFFFFFFFFFull;
                const bool ours = !exp_last.empty() && body == flit_body(1 - d, vc, exp) && last == exp_last.front();
                const bool well_formed = body == flit_body(static_cast<unsigned>((body >> 44) & 0xF),
                                                           static_cast<unsigned>((body >> 40) & 0xF), seq) &&
                                         ((body >> 44) & 0xF) == 1 - d && ((body >> 40) & 0xF) == vc;
                if (ours) {
                    exp_last.pop_front();
                    exp++;
                    c.delivered++;
                    if (injecting && cycle >= window_start) c.window_delivered++;
                } else if (well_formed && seq < exp) {
                    c.dup += 8;
                } else if (well_formed && seq > exp && seq - exp <= exp_last.size()) {
                    const uint64_t skipped = seq - exp;
                    c.lost += 8 * skipped;
                    for (uint64_t k = 0; k <= skipped; k++) exp_last.pop_front();
                    exp = seq + 1;
                    c.delivered++;
                } else {
                    c.corrupt += 8;
                    if (!exp_last.empty()) {
                        exp_last.pop_front();
                        exp++;
                    }
                }
                }
            }
            // Sink: drain one flit, return its credit (to the far source, through the link).
            e.rx_credit_i = 0;
            if (chance(me.rng, o.drain)) {
                for (unsigned k = 0; k < kNumVcs; k++) {
                    const unsigned v = (me.drain_rr + k) % kNumVcs;
                    if (!me.buf[v].empty()) {
                        me.buf[v].pop_front();
                        e.rx_credit_i = static_cast<uint8_t>(1u << v);
                        me.drain_rr = v + 1;
                        break;
                    }
                }
            }

            // Source: one flit, round robin over the VCs with traffic and a credit.
            e.tx_valid_i = 0;
            if (injecting && me.sent < o.flits && chance(me.rng, o.rate)) {
                for (unsigned k = 0; k < kNumVcs; k++) {
                    const unsigned v = (me.rr + k) % kNumVcs;
                    if (!((o.vcs >> v) & 1) || me.credits[v] == 0) continue;
                    if (me.pkt_left[v] == 0) me.pkt_left[v] = 1 + me.rng.below(34);
                    const bool last = --me.pkt_left[v] == 0;
                    e.tx_valid_i = 1;
                    e.tx_flit_i = flit_body(d, v, me.next_seq[v]++);
                    e.tx_last_i = last;
                    e.tx_vc_i = v;
                    me.expect_last[v].push_back(last);
                    me.credits[v]--;
                    me.sent++;
                    me.rr = v + 1;
                    break;
                }
            }
            // Slot credits this end returns (at most 24 on their way, as a router's trees allow).
            e.rx_slot_valid_i = 0;
            uint64_t ev_out = 0;
            for (int t = 0; t < kTrees; t++) ev_out += me.ev_sent[t] - me.ev_got[t];
            if (injecting && ev_out < 24 && chance(me.rng, o.ev_rate)) {
                const unsigned t = me.rng.below(kTrees);
                e.rx_slot_valid_i = 1;
                e.rx_slot_tree_i = t;
                me.ev_sent[t]++;
            }
            // Credits and slot credits that came back to this end's source (usable from the
            // next cycle on, as in a router's credit counter).
            for (unsigned v = 0; v < kNumVcs; v++) me.credits[v] += (e.tx_credit_o >> v) & 1;
            if (e.tx_slot_valid_o) far.ev_got[e.tx_slot_tree_o % kTrees]++;
            e.w_rx_valid_i = in[d].valid;
            e.w_rx_ctl_i = in[d].ctl;
            e.w_rx_last_i = in[d].last;
            e.w_rx_vc_i = in[d].vc & 3u;
            e.w_rx_body_i = in[d].body;
        }
        tick();
        cycle++;
        if (ctx.gotError()) break;
        if (injecting && ports[0].sent >= o.flits && ports[1].sent >= o.flits) {
            injecting = false;
            window_end = cycle;
        }
        if (injecting && cycle > limit_cycles) break;
        if (dying) {
            if (down_at[0] >= 0 && down_at[1] >= 0 && both_down_at == 0) {
                both_down_at = cycle;
                injecting = false;
            }
            if (both_down_at != 0 && cycle - both_down_at >= kSettle) break;
            if (cycle > o.faults.dead_at + o.drain_limit) break;
            continue;
        }
        if (!injecting) {
            bool done = true;
            for (unsigned d = 0; d < 2; d++) {
                for (int v = 0; v < kNumVcs; v++) {
                    done = done && ports[d].expect_last[v].empty() && ports[d].buf[v].empty() &&
                           ports[d].credits[v] == kVcCredits[v];
                }
                for (int t = 0; t < kTrees; t++) done = done && ports[d].ev_sent[t] == ports[d].ev_got[t];
            }
            if (done) {
                drained = true;
                break;
            }
            if (cycle - window_end > o.drain_limit) break;
        }
    }

    const canopy::FaultOptions &f = o.faults;
    uint64_t lost = 0, dup = 0, corrupt = 0, left = 0, ev_bad = 0;
    for (unsigned d = 0; d < 2; d++) {
        lost += counts[d].lost;
        dup += counts[d].dup;
        corrupt += counts[d].corrupt;
        for (int v = 0; v < kNumVcs; v++) left += ports[d].expect_last[v].size();
        for (int t = 0; t < kTrees; t++) ev_bad += ports[d].ev_sent[t] != ports[d].ev_got[t];
    }
    const uint64_t window = window_end > window_start ? window_end - window_start : 0;
    double goodput = 1.0;
    for (unsigned d = 0; d < 2; d++) {
        const double g = window ? static_cast<double>(counts[d].window_delivered) / static_cast<double>(window) : 0.0;
        goodput = std::min(goodput, g);
    }
    const bool assertion = ctx.gotError();
    bool credits_back = true;
    for (unsigned d = 0; d < 2; d++)
        for (int v = 0; v < kNumVcs; v++) credits_back = credits_back && ports[d].credits[v] == kVcCredits[v];
    // Dying: flits and slot credits caught in the dead link are lost, as they must be; what
    // was delivered must still be exact, and both ends must have seen the death.
    // Packets a dead end left open on a VC it closes (must be none).
    uint64_t left_open = 0;
    for (unsigned d = 0; d < 2; d++)
        for (int v = 0; v < kNumVcs; v++) left_open += ((kCloseMask >> v) & 1) && ports[d].framing[v].flits != 0;
    const bool ok = dying ? both_down_at != 0 && credits_back && !assertion && dup == 0 && corrupt == 0 &&
                                credit_overflows == 0 && closer_bad == 0 && left_open == 0 && closed >= o.min_closed &&
                                close_pulses == closed
                          : drained && !assertion && lost == 0 && dup == 0 && corrupt == 0 && left == 0 &&
                                ev_bad == 0 && credit_overflows == 0;
    const int64_t died = static_cast<int64_t>(o.faults.dead_at) - 1;  // the first cycle the wire carried nothing
    std::printf("{\"ok\": %s, \"seed\": %" PRIu64 ", \"ber\": %g, \"burst_rate\": %g, \"burst_len\": %u, "
                "\"drop\": %g, \"latency\": %u, \"cycles\": %" PRIu64 ", \"window_cycles\": %" PRIu64 ", "
                "\"flits\": %" PRIu64 ", \"goodput_fraction\": %.4f, \"bits_flipped\": %" PRIu64 ", "
                "\"words_hit\": %" PRIu64 ", \"words_dropped\": %" PRIu64 ", \"replays\": %" PRIu64 ", "
                "\"timeouts\": %" PRIu64 ", \"crc_errors\": %" PRIu64 ", \"seq_errors\": %" PRIu64 ", "
                "\"dup_frames\": %" PRIu64 ", \"credit_errors\": %" PRIu64 ", \"lost_bytes\": %" PRIu64 ", "
                "\"duplicated_bytes\": %" PRIu64 ", \"corrupted_bytes\": %" PRIu64 ", \"flits_left\": %" PRIu64 ", "
                "\"slot_credit_mismatches\": %" PRIu64 ", \"credit_overflows\": %" PRIu64 ", "
                "\"drained\": %s, \"assertion\": %s, \"dead_at\": %" PRIu64 ", \"down_after\": [%" PRId64 ", %" PRId64 "], "
                "\"link_drops\": %" PRIu64 ", \"credits_back\": %s, \"fillers\": %" PRIu64 ", "
                "\"packets_closed\": %" PRIu64 ", \"closer_faults\": %" PRIu64 ", \"left_open\": %" PRIu64 "}\n",
                ok ? "true" : "false", o.seed, f.ber, f.burst_rate, f.burst_len, f.drop, o.latency, cycle,
                window, counts[0].delivered + counts[1].delivered, goodput,
                wire_ab.faults().bits_flipped + wire_ba.faults().bits_flipped,
                wire_ab.faults().words_hit + wire_ba.faults().words_hit,
                wire_ab.faults().words_dropped + wire_ba.faults().words_dropped, replays, timeouts, crc_errs, seq_errs, dups,
                cred_errs, lost, dup, corrupt, left, ev_bad, credit_overflows, drained ? "true" : "false",
                assertion ? "true" : "false", o.faults.dead_at, down_at[0] < 0 ? -1 : down_at[0] - died,
                down_at[1] < 0 ? -1 : down_at[1] - died, link_drops, credits_back ? "true" : "false", fillers,
                closed, closer_bad, left_open);
    end_a.final();
    end_b.final();
    return ok ? 0 : 1;
}
