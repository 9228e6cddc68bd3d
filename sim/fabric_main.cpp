// fabric_main.cpp: `canopy-fabric`, the command-line driver of one fabric build.
//
//   canopy-fabric [--torus XxY] <scenario> [--key value ...]
//
// The model is built for a dimension count; --torus says which torus of it to simulate
// (build/sim/<torus>-.../canopy-fabric, the launcher sim/sim.mk writes, passes it first).
//
// Check scenarios (exit 0 only if everything was delivered exactly and counted right):
//   allpairs   every node sends to every other node, several payload sizes
//   uniform    uniform-random destinations at full injection rate (--flits N)
//   hotspot    a share (--hot-share) of all traffic to one node (--hot), the rest uniform
//   malformed  bad type / destination / length packets mixed with good ones
// Measurement scenarios (print one JSON record per line, exit 0):
//   latency    zero-load head latency against hop count, cycles per hop
//   saturation accepted throughput under uniform traffic, with the routing's bound
//   speed      simulated cycles per wall-clock second
//   demo       a readable summary of an all-pairs run
// Every scenario has a watchdog: a cycle limit, and a stall limit (no flit delivered for
// --stall-limit cycles while packets are outstanding means deadlock or loss).
// Every scenario takes --threads N: the routers evaluated on N threads, same results.
#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "fabric.hpp"
#include "rng.hpp"
#include "scoreboard.hpp"

using namespace canopy;

namespace {

// ------------------------------------------------------------------ options, randomness
struct Options {
    std::map<std::string, std::string> kv;
    uint64_t num(const std::string &k, uint64_t def) const {
        auto it = kv.find(k);
        return it == kv.end() ? def : std::strtoull(it->second.c_str(), nullptr, 0);
    }
    double real(const std::string &k, double def) const {
        auto it = kv.find(k);
        return it == kv.end() ? def : std::strtod(it->second.c_str(), nullptr);
    }
    std::string str(const std::string &k, const std::string &def) const {
        auto it = kv.find(k);
        return it == kv.end() ? def : it->second;
    }
};

// --threads N: evaluate the routers on N threads (one core each); same results.
unsigned threads(const Options &o) { return static_cast<unsigned>(o.num("threads", 1)); }

// --torus XxY: the torus to simulate (the per-torus launcher build/sim/<torus>-.../canopy-fabric
// that sim/sim.mk makes passes it to the model's binary).
Topology torus(const Options &o) {
    const std::string t = o.str("torus", "");
    if (t.empty()) throw std::runtime_error("no --torus given (e.g. --torus 3x3)");
    return topology_of(t);
}

std::vector<uint8_t> random_payload(Rng &rng, size_t len) {
    std::vector<uint8_t> p(len);
    for (auto &b : p) b = static_cast<uint8_t>(rng.next());
    return p;
}

// ------------------------------------------------------------------ checked runs
// Runs the fabric until the scoreboard is empty and the injection queues are drained,
// under the watchdogs. Returns true when nothing failed.
struct Watchdog {
    uint64_t max_cycles;
    uint64_t stall_limit;
};

bool drain(Fabric &f, Scoreboard &sb, const Watchdog &wd, const std::function<void()> &each_cycle = {}) {
    uint64_t start = f.cycle();
    uint64_t last_progress = f.cycle();
    uint64_t last_delivered = sb.delivered();
    while (sb.outstanding() > 0 || f.pending_flits() > 0) {
        if (each_cycle) each_cycle();
        f.step();
        if (sb.delivered() != last_delivered) {
            last_progress = f.cycle();
            last_delivered = sb.delivered();
        }
        if (!sb.failures().empty()) return false;
        if (f.cycle() - last_progress > wd.stall_limit) {
            std::printf("WATCHDOG: no packet delivered for %" PRIu64 " cycles (%zu outstanding, "
                        "%zu flits queued): deadlock or loss\n",
                        wd.stall_limit, sb.outstanding(), f.pending_flits());
            return false;
        }
        if (f.cycle() - start > wd.max_cycles) {
            std::printf("WATCHDOG: cycle limit %" PRIu64 " reached\n", wd.max_cycles);
            return false;
        }
    }
    return true;
}

Watchdog watchdog(const Options &o) {
    return Watchdog{o.num("max-cycles", 20'000'000), o.num("stall-limit", 20'000)};
}

// The fault options of a protected-link build (--ber, --burst-rate, --burst-len, --drop,
// --fault-seed; sim/wire_faults.hpp). Without any, the links are left alone.
void set_faults(Fabric &f, const Options &o) {
    FaultOptions fo;
    fo.ber = o.real("ber", 0);
    fo.burst_rate = o.real("burst-rate", 0);
    fo.burst_len = static_cast<unsigned>(o.num("burst-len", 16));
    fo.drop = o.real("drop", 0);
    if (fo.any()) f.set_faults(fo, o.num("fault-seed", 1));
}

// With protected links, a line of what the wire did and what the links did about it.
void report_links(Fabric &f) {
    if (!CANOPY_LINK_PROTECT) return;
    const Fabric::LinkStats s = f.link_stats();
    std::printf("links: %" PRIu64 " bits flipped, %" PRIu64 " words hit, %" PRIu64 " dropped; %" PRIu64
                " flits delivered, %" PRIu64 " frames or control words refused, %" PRIu64 " replays; %" PRIu64
                " link ends down, %" PRIu64 " flits dropped by them\n",
                s.bits_flipped, s.words_hit, s.words_dropped, s.flits, s.refused, s.replays, s.down, s.dead_drops);
}

bool report(const char *name, Fabric &f, Scoreboard &sb, bool ok) {
    ok = sb.finish() && ok;
    report_links(f);
    for (auto &m : sb.failures()) std::printf("  FAIL: %s\n", m.c_str());
    std::printf("%s %s on %s: %" PRIu64 " packets, %" PRIu64 " flits in %" PRIu64 " cycles\n",
                ok ? "PASS" : "FAIL", name, f.topo().name().c_str(), sb.delivered(),
                sb.delivered_flits(), f.cycle());
    return ok;
}

bool errors_are_zero(Fabric &f) {
    bool ok = true;
    for (unsigned n = 0; n < f.topo().nodes(); ++n) {
        ErrorCounters e = f.errors(n);
        if (e.total()) {
            std::printf("  FAIL: node %u counted %u errors on good traffic\n", n, e.total());
            ok = false;
        }
    }
    return ok;
}

// ------------------------------------------------------------------ check scenarios
int scenario_allpairs(const Options &o) {
    Fabric f(torus(o), o.str("fst", ""), threads(o));
    const Topology &t = f.topo();
    set_faults(f, o);
    Scoreboard sb(t);
    f.on_receive([&](const Received &r) { sb.receive(r); });
    Rng rng(o.num("seed", 1));
    const std::vector<size_t> sizes = {0, 1, 7, 8, 9, 63, 64, 65, 255, 256};
    unsigned rounds = static_cast<unsigned>(o.num("rounds", 1));
    for (unsigned r = 0; r < rounds; ++r) {
        for (size_t len : sizes) {
            for (unsigned s = 0; s < t.nodes(); ++s) {
                for (unsigned d = 0; d < t.nodes(); ++d) {
                    if (s == d) continue;
                    const Packet &p = f.inject(s, make_put(t, s, d, random_payload(rng, len), rng.next() & 0xffffff));
                    sb.expect(s, d, p);
                }
            }
        }
    }
    bool ok = drain(f, sb, watchdog(o));
    ok = errors_are_zero(f) && ok;
    return report("allpairs", f, sb, ok) ? 0 : 1;
}

// Keeps every node's injection queue non-empty (full injection rate) until `total_flits`
// have been offered; `pick_dst` chooses each packet's destination.
bool offered_load(Fabric &f, Scoreboard &sb, Rng &rng, uint64_t total_flits, const Watchdog &wd,
                  const std::function<unsigned(unsigned)> &pick_dst) {
    const Topology &t = f.topo();
    uint64_t offered = 0;
    const size_t sizes[] = {0, 8, 24, 64, 128, 256};
    auto top_up = [&]() {
        for (unsigned s = 0; s < t.nodes() && offered < total_flits; ++s) {
            if (f.pending_flits(s) > 4) continue;
            unsigned d = pick_dst(s);
            size_t len = sizes[rng.below(6)];
            const Packet &p = f.inject(s, make_put(t, s, d, random_payload(rng, len), rng.next() & 0xffff));
            sb.expect(s, d, p);
            offered += to_flits(p).size();
        }
    };
    top_up();
    return drain(f, sb, wd, top_up);
}

int scenario_uniform(const Options &o) {
    Fabric f(torus(o), o.str("fst", ""), threads(o));
    const Topology &t = f.topo();
    set_faults(f, o);
    Scoreboard sb(t);
    f.on_receive([&](const Received &r) { sb.receive(r); });
    Rng rng(o.num("seed", 2));
    auto pick = [&](unsigned s) {
        unsigned d = rng.below(t.nodes() - 1);
        return d >= s ? d + 1 : d;
    };
    bool ok = offered_load(f, sb, rng, o.num("flits", 100'000), watchdog(o), pick);
    ok = errors_are_zero(f) && ok;
    return report("uniform", f, sb, ok) ? 0 : 1;
}

int scenario_hotspot(const Options &o) {
    Fabric f(torus(o), o.str("fst", ""), threads(o));
    const Topology &t = f.topo();
    set_faults(f, o);
    Scoreboard sb(t);
    f.on_receive([&](const Received &r) { sb.receive(r); });
    Rng rng(o.num("seed", 3));
    unsigned hot = static_cast<unsigned>(o.num("hot", 0)) % t.nodes();
    double share = o.real("hot-share", 0.5);
    auto pick = [&](unsigned s) {
        if (s != hot && (rng.next() % 1000) < share * 1000) return hot;
        unsigned d = rng.below(t.nodes() - 1);
        return d >= s ? d + 1 : d;
    };
    bool ok = offered_load(f, sb, rng, o.num("flits", 100'000), watchdog(o), pick);
    ok = errors_are_zero(f) && ok;
    return report("hotspot", f, sb, ok) ? 0 : 1;
}

// Malformed packets injected between good ones at every node. A bad header (type,
// destination, length field) must be refused where it enters: it never arrives anywhere,
// and the source counts it. A packet whose tail disagrees with its length field cannot be
// stopped by a cut-through router (the host interface refuses those before they reach the
// router: canopy_inj_ring); every router it crosses must count it once, and it must not
// disturb the packets around it. Good packets must all arrive, in order; each node's error
// counters must show exactly what crossed it.
int scenario_malformed(const Options &o) {
    constexpr uint64_t kBadHeaderTag = 0xBADBAD, kBadFramingTag = 0xF4A3ED, kFramingTree = 0x2A;
    Fabric f(torus(o), o.str("fst", ""), threads(o));
    const Topology &t = f.topo();
    Scoreboard sb(t);
    bool leaked = false;
    f.on_receive([&](const Received &r) {
        Packet got = from_flits(r.flits);
        const uint64_t tag = canopy_hdr_get_offset(got.hdr);
        if (canopy_hdr_get_tree(got.hdr) == kFramingTree) return;  // delivered, counted on the way
        if (tag == kBadHeaderTag) {
            std::printf("  FAIL: packet with a bad header delivered at node %u\n", r.node);
            leaked = true;
            return;
        }
        sb.receive(r);
    });
    Rng rng(o.num("seed", 4));
    std::vector<ErrorCounters> want(t.nodes());
    for (unsigned s = 0; s < t.nodes(); ++s) {
        unsigned d = (s + 1) % t.nodes();
        auto good = [&]() {
            const Packet &p = f.inject(s, make_put(t, s, d, random_payload(rng, 40), 0x100));
            sb.expect(s, d, p);
        };
        auto bad = [&](std::vector<uint8_t> payload) {
            return make_put(t, s, d, std::move(payload), kBadHeaderTag);
        };
        // A framing error is counted at the source and at every router after it.
        auto framing = [&](std::vector<uint8_t> payload, int flits_delta, unsigned flits) {
            Packet p = make_put(t, s, d, std::move(payload), kBadFramingTag);
            canopy_hdr_set_tree(p.hdr, kFramingTree);  // word 0: a cut-short packet may lack word 1
            p.force_flits = flits ? flits : static_cast<unsigned>(static_cast<int>(to_flits(p).size()) + flits_delta);
            f.inject(s, p);
            for (auto &hop : t.route(s, d)) ++want[hop.first].bad_len;
            ++want[d].bad_len;
        };
        good();
        Packet p = bad(random_payload(rng, 16));  // unknown type
        canopy_hdr_set_ptype(p.hdr, 0xE);
        f.inject(s, p);
        ++want[s].bad_type;
        good();
        p = bad(random_payload(rng, 16));  // reserved (not yet implemented) type
        canopy_hdr_set_ptype(p.hdr, CANOPY_PKT_REDUCE);
        f.inject(s, p);
        ++want[s].bad_type;
        p = bad(random_payload(rng, 16));  // destination coordinate beyond the torus
        canopy_hdr_set_dst(p.hdr, uint64_t{t.size[0]});
        f.inject(s, p);
        ++want[s].bad_dst;
        p = bad(random_payload(rng, 16));  // coordinate in a dimension the torus lacks
        canopy_hdr_set_dst(p.hdr, uint64_t{1} << (CANOPY_COORD_BITS * (CANOPY_MAX_DIMS - 1)));
        if (t.ndims < CANOPY_MAX_DIMS) {
            f.inject(s, p);
            ++want[s].bad_dst;
        }
        good();
        p = bad({});  // len above the maximum payload
        canopy_hdr_set_len(p.hdr, CANOPY_PKT_MAX_PAYLOAD + 8);
        p.force_flits = 3;
        f.inject(s, p);
        ++want[s].bad_len;
        good();
        framing(random_payload(rng, 64), -3, 0);               // tail earlier than len says
        good();
        framing(random_payload(rng, 64), +2, 0);               // tail later than len says
        framing(random_payload(rng, 8), 0, 1);                  // the head flit is the tail
        framing(random_payload(rng, 8), 0, 3 * CANOPY_LOCAL_BUF_DEPTH);  // far longer than any buffer
        good();
    }
    bool ok = drain(f, sb, watchdog(o));
    for (unsigned n = 0; n < t.nodes(); ++n) {
        ErrorCounters e = f.errors(n);
        if (e.bad_type != want[n].bad_type || e.bad_dst != want[n].bad_dst || e.bad_len != want[n].bad_len) {
            std::printf("  FAIL: node %u counted type/dst/len %u/%u/%u, expected %u/%u/%u\n", n, e.bad_type,
                        e.bad_dst, e.bad_len, want[n].bad_type, want[n].bad_dst, want[n].bad_len);
            ok = false;
        }
    }
    ok = !leaked && ok;
    return report("malformed", f, sb, ok) ? 0 : 1;
}

// ------------------------------------------------------------------ measurements
std::string json_head(const char *bench, const Topology &t) {
    char b[256];
    std::snprintf(b, sizeof b,
                  "{\"bench\": \"%s\", \"topology\": \"%s\", \"nodes\": %u, \"flit_bits\": %u, "
                  "\"link_latency\": %u",
                  bench, t.name().c_str(), t.nodes(), flit_bits(), link_latency());
    return b;
}

// Zero load: one packet at a time from node 0 to every node; head latency against hops.
int scenario_latency(const Options &o) {
    Fabric f(torus(o), "", threads(o));
    const Topology &t = f.topo();
    Scoreboard sb(t);
    f.on_receive([&](const Received &r) { sb.receive(r); });
    Rng rng(5);
    size_t len = o.num("bytes", 8);
    std::vector<double> xs, ys;
    for (unsigned d = 0; d < t.nodes(); ++d) {
        const Packet &p = f.inject(0, make_put(t, 0, d, random_payload(rng, len), 0));
        sb.expect(0, d, p);
        if (!drain(f, sb, watchdog(o))) return 1;
        xs.push_back(t.hops(0, d));
        ys.push_back(static_cast<double>(sb.latencies().back()));
        for (int i = 0; i < 50; ++i) f.step();  // let credits settle: truly zero load
    }
    // Least-squares line: latency = base + per_hop * hops.
    double n = static_cast<double>(xs.size());
    double mx = std::accumulate(xs.begin(), xs.end(), 0.0) / n;
    double my = std::accumulate(ys.begin(), ys.end(), 0.0) / n;
    double sxy = 0, sxx = 0;
    for (size_t i = 0; i < xs.size(); ++i) {
        sxy += (xs[i] - mx) * (ys[i] - my);
        sxx += (xs[i] - mx) * (xs[i] - mx);
    }
    double per_hop = sxx > 0 ? sxy / sxx : 0;
    double base = my - per_hop * mx;
    unsigned max_hops = static_cast<unsigned>(*std::max_element(xs.begin(), xs.end()));
    std::printf("%s, \"payload_bytes\": %zu, \"cycles_per_hop\": %.3f, \"base_cycles\": %.3f, "
                "\"max_hops\": %u, \"max_cycles\": %.0f}\n",
                json_head("hop-latency", t).c_str(), len, per_hop, base, max_hops,
                *std::max_element(ys.begin(), ys.end()));
    return 0;
}

// Bound on accepted throughput for uniform traffic under this routing: the busiest
// directed channel carries max_count of the N(N-1) source-destination routes, each node
// injecting lambda flits/cycle spread over N-1 destinations, so lambda <= (N-1)/max_count;
// injection and ejection ports cap it at 1.
double uniform_bound(const Topology &t) {
    std::map<std::pair<unsigned, unsigned>, unsigned> load;
    for (unsigned s = 0; s < t.nodes(); ++s)
        for (unsigned d = 0; d < t.nodes(); ++d)
            if (s != d)
                for (auto &ch : t.route(s, d)) ++load[ch];
    unsigned max_count = 0;
    for (auto &[ch, c] : load) max_count = std::max(max_count, c);
    return std::min(1.0, static_cast<double>(t.nodes() - 1) / max_count);
}

int scenario_saturation(const Options &o) {
    Fabric f(torus(o), "", threads(o));
    const Topology &t = f.topo();
    Rng rng(6);
    const size_t len = o.num("bytes", 64);
    const uint64_t warmup = o.num("warmup", 3000), window = o.num("window", 10000);
    uint64_t ejected_at_start = 0;
    for (uint64_t c = 0; c < warmup + window; ++c) {
        if (c == warmup) ejected_at_start = f.flits_ejected();
        for (unsigned s = 0; s < t.nodes(); ++s) {
            if (f.pending_flits(s) > o.num("backlog", 32)) continue;  // always backlogged: offered load 1
            unsigned d = rng.below(t.nodes() - 1);
            d = d >= s ? d + 1 : d;
            unsigned vc = 0;
            if (o.num("inj-vcs", 1) > 1) vc = t.route(s, d).front().second % static_cast<unsigned>(o.num("inj-vcs", 1));
            f.inject(s, make_put(t, s, d, random_payload(rng, len), 0), vc);
        }
        f.step();
    }
    double accepted = static_cast<double>(f.flits_ejected() - ejected_at_start) / (t.nodes() * window);
    double bound = uniform_bound(t);
    std::printf("%s, \"payload_bytes\": %zu, \"accepted_flits_per_node_cycle\": %.4f, \"bound\": %.4f, "
                "\"fraction_of_bound\": %.3f}\n",
                json_head("saturation", t).c_str(), len, accepted, bound, accepted / bound);
    return 0;
}

int scenario_speed(const Options &o) {
    Fabric f(torus(o), "", threads(o));
    const Topology &t = f.topo();
    Rng rng(7);
    const uint64_t cycles = o.num("cycles", 20000);
    auto start = std::chrono::steady_clock::now();
    for (uint64_t c = 0; c < cycles; ++c) {
        for (unsigned s = 0; s < t.nodes(); ++s) {
            if (f.pending_flits(s) > 8 || rng.below(4) != 0) continue;  // moderate load
            unsigned d = rng.below(t.nodes());
            f.inject(s, make_put(t, s, d, random_payload(rng, 64), 0));
        }
        f.step();
    }
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%s, \"threads\": %u, \"sim_cycles\": %" PRIu64 ", \"wall_s\": %.3f, \"sim_cycles_per_s\": %.0f, "
                "\"node_cycles_per_s\": %.0f}\n",
                json_head("sim-speed", t).c_str(), threads(o), cycles, secs, cycles / secs, cycles * t.nodes() / secs);
    return 0;
}

int scenario_demo(const Options &o) {
    Fabric f(torus(o), o.str("fst", ""), threads(o));
    const Topology &t = f.topo();
    Scoreboard sb(t);
    f.on_receive([&](const Received &r) { sb.receive(r); });
    Rng rng(8);
    const size_t len = o.num("bytes", 64);
    for (unsigned s = 0; s < t.nodes(); ++s)
        for (unsigned d = 0; d < t.nodes(); ++d)
            if (s != d) sb.expect(s, d, f.inject(s, make_put(t, s, d, random_payload(rng, len), 0)));
    bool ok = drain(f, sb, watchdog(o));
    ok = errors_are_zero(f) && ok;
    ok = sb.finish() && ok;
    auto lat = sb.latencies();
    std::sort(lat.begin(), lat.end());
    double mean = std::accumulate(lat.begin(), lat.end(), 0.0) / std::max<size_t>(lat.size(), 1);
    std::printf("\ncanopy fabric demo: %s torus, %u routers, %u-bit flits, links of %u cycle(s)\n",
                t.name().c_str(), t.nodes(), flit_bits(), link_latency());
    std::printf("  every node sent a %zu-byte remote write to every other node\n", len);
    std::printf("  %-34s %" PRIu64 " of %zu, byte-exact and in order: %s\n", "packets delivered",
                sb.delivered(), static_cast<size_t>(t.nodes() * (t.nodes() - 1)), ok ? "yes" : "NO");
    std::printf("  %-34s %" PRIu64 "\n", "flits delivered", sb.delivered_flits());
    std::printf("  %-34s %" PRIu64 "\n", "cycles until the last arrived", f.last_eject_cycle());
    std::printf("  %-34s min %" PRIu64 ", median %" PRIu64 ", mean %.1f, max %" PRIu64 "\n",
                "head latency under this load (cyc)", lat.front(), lat[lat.size() / 2], mean, lat.back());
    std::printf("  %-34s %.3f flits/node/cycle\n", "delivered throughput",
                static_cast<double>(sb.delivered_flits()) / (t.nodes() * std::max<uint64_t>(f.last_eject_cycle(), 1)));
    std::printf("  %-34s %s\n", "router error counters", ok ? "all zero" : "see above");
    for (auto &m : sb.failures()) std::printf("  FAIL: %s\n", m.c_str());
    std::printf("%s\n", ok ? "demo OK" : "demo FAILED");
    return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char **argv) {
    const std::map<std::string, std::function<int(const Options &)>> scenarios = {
        {"allpairs", scenario_allpairs},     {"uniform", scenario_uniform},
        {"hotspot", scenario_hotspot},       {"malformed", scenario_malformed},
        {"latency", scenario_latency},       {"saturation", scenario_saturation},
        {"speed", scenario_speed},           {"demo", scenario_demo},
    };
    // The launcher's leading --torus (sim/sim.mk), then the scenario and its options.
    std::string launcher_torus;
    if (argc >= 3 && std::strcmp(argv[1], "--torus") == 0) {
        launcher_torus = argv[2];
        argv[2] = argv[0];
        argv += 2;
        argc -= 2;
    }
    if (argc < 2 || !scenarios.count(argv[1])) {
        std::fprintf(stderr, "usage: %s [--torus XxY] <scenario> [--key value ...]\nscenarios:", argv[0]);
        for (auto &[name, fn] : scenarios) std::fprintf(stderr, " %s", name.c_str());
        std::fprintf(stderr, "\n");
        return 2;
    }
    Options o;
    for (int i = 2; i + 1 < argc; i += 2) {
        if (std::strncmp(argv[i], "--", 2) != 0) {
            std::fprintf(stderr, "expected --key value, got %s\n", argv[i]);
            return 2;
        }
        o.kv[argv[i] + 2] = argv[i + 1];
    }
    if (!launcher_torus.empty()) {
        if (o.kv.count("torus") && o.kv["torus"] != launcher_torus) {
            std::fprintf(stderr, "this simulator runs the %s torus (--torus %s given): use its own build "
                                 "(make sim TORUS=%s)\n",
                         launcher_torus.c_str(), o.kv["torus"].c_str(), o.kv["torus"].c_str());
            return 2;
        }
        o.kv["torus"] = launcher_torus;
    }
    try {
        return scenarios.at(argv[1])(o);
    } catch (const std::exception &e) {
        std::printf("FAIL: %s\n", e.what());
        return 1;
    }
}
