// fabric.cpp: the torus fabric harness (see fabric.hpp for the contract).
#include "fabric.hpp"

#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "Vcanopy_router_tile.h"
#include "Vcanopy_router_tile___024root.h"  // the clock field TorusTiles::fall lowers
#include "verilated.h"
#include "torus_tiles.hpp"
#include "vl_bits.hpp"
#ifdef CANOPY_TRACE
#include "verilated_fst_c.h"
#else
// Built without waveform support (WAVES=0): a trace is never opened, so this is never used.
class VerilatedFstC {
public:
    void dump(uint64_t) {}
    void close() {}
};
#endif

#ifndef CANOPY_NDIMS
#error "build through sim/sim.mk, which passes the fabric parameters"
#endif

namespace canopy {

namespace {

constexpr unsigned kVcBits = CANOPY_NUM_VCS > 1 ? __builtin_ctz(CANOPY_NUM_VCS) : 1;
constexpr unsigned kFlitWords = CANOPY_FLIT_BITS / 64;

}  // namespace

// ------------------------------------------------------------------ topology
unsigned Topology::nodes() const {
    unsigned n = 1;
    for (unsigned s : size) n *= s;
    return n;
}

std::array<unsigned, CANOPY_MAX_DIMS> Topology::coords(unsigned node) const {
    std::array<unsigned, CANOPY_MAX_DIMS> c{};
    for (unsigned d = 0; d < CANOPY_MAX_DIMS; ++d) {
        c[d] = node % size[d];
        node /= size[d];
    }
    return c;
}

unsigned Topology::node_of(const std::array<unsigned, CANOPY_MAX_DIMS> &c) const {
    unsigned n = 0;
    for (int d = CANOPY_MAX_DIMS - 1; d >= 0; --d) n = n * size[d] + c[d];
    return n;
}

uint64_t Topology::packed_coords(unsigned node) const {
    auto c = coords(node);
    uint64_t v = 0;
    for (unsigned d = 0; d < CANOPY_MAX_DIMS; ++d) v |= uint64_t{c[d]} << (CANOPY_COORD_BITS * d);
    return v;
}

std::string Topology::name() const {
    std::string s;
    for (unsigned d = 0; d < ndims; ++d) s += (d ? "x" : "") + std::to_string(size[d]);
    return s;
}

std::vector<std::pair<unsigned, unsigned>> Topology::route(unsigned src, unsigned dst) const {
    // Mirrors rtl/router/canopy_route_dor.sv: X first, shorter way round, a tie (half way
    // round an even ring) + toward an even destination coordinate, - toward an odd one.
    std::vector<std::pair<unsigned, unsigned>> hops;
    auto cur = coords(src);
    auto want = coords(dst);
    for (unsigned d = 0; d < ndims; ++d) {
        while (cur[d] != want[d]) {
            unsigned k = size[d];
            unsigned fwd = (want[d] + k - cur[d]) % k;
            bool plus = 2 * fwd < k || (2 * fwd == k && want[d] % 2 == 0);
            hops.emplace_back(node_of(cur), 2 * d + (plus ? 0 : 1));
            cur[d] = plus ? (cur[d] + 1) % k : (cur[d] + k - 1) % k;
        }
    }
    return hops;
}

unsigned Topology::hops(unsigned src, unsigned dst) const {
    return static_cast<unsigned>(route(src, dst).size());
}

Topology topology_of(const std::string &torus) {
    const TorusShape shape = parse_torus(torus, CANOPY_NDIMS);
    return Topology{shape.ndims, shape.size};
}
unsigned flit_bits() { return CANOPY_FLIT_BITS; }
unsigned local_buf_depth() { return CANOPY_LOCAL_BUF_DEPTH; }
unsigned eject_depth() { return CANOPY_EJECT_CREDITS; }
unsigned link_latency() { return CANOPY_LINK_LATENCY; }

// ------------------------------------------------------------------ packets
Packet make_put(const Topology &t, unsigned src, unsigned dst, std::vector<uint8_t> payload,
                uint64_t offset) {
    Packet p;
    canopy_hdr_set_ptype(p.hdr, CANOPY_PKT_PUT);
    canopy_hdr_set_dst(p.hdr, t.packed_coords(dst));
    canopy_hdr_set_src(p.hdr, t.packed_coords(src));
    canopy_hdr_set_len(p.hdr, payload.size());
    canopy_hdr_set_offset(p.hdr, offset);
    p.payload = std::move(payload);
    return p;
}

std::vector<Flit> to_flits(const Packet &p) {
    const unsigned bytes_per_flit = CANOPY_FLIT_BITS / 8;
    const unsigned hdr_flits = (CANOPY_PKT_HEADER_BYTES + bytes_per_flit - 1) / bytes_per_flit;
    std::vector<Flit> flits;
    for (unsigned f = 0; f < hdr_flits; ++f) {
        Flit fl(kFlitWords, 0);
        for (unsigned w = 0; w < kFlitWords; ++w) {
            unsigned hw = f * kFlitWords + w;
            if (hw < CANOPY_PKT_HEADER_WORDS) fl[w] = p.hdr[hw];
        }
        flits.push_back(fl);
    }
    for (size_t off = 0; off < p.payload.size(); off += bytes_per_flit) {
        Flit fl(kFlitWords, 0);
        for (unsigned b = 0; b < bytes_per_flit && off + b < p.payload.size(); ++b)
            fl[b / 8] |= uint64_t{p.payload[off + b]} << (8 * (b % 8));
        flits.push_back(fl);
    }
    if (p.force_flits) {
        flits.resize(p.force_flits, Flit(kFlitWords, 0xA5A5A5A5A5A5A5A5ull));
    }
    return flits;
}

Packet from_flits(const std::vector<Flit> &flits) {
    const unsigned bytes_per_flit = CANOPY_FLIT_BITS / 8;
    const unsigned hdr_flits = (CANOPY_PKT_HEADER_BYTES + bytes_per_flit - 1) / bytes_per_flit;
    Packet p;
    for (unsigned hw = 0; hw < CANOPY_PKT_HEADER_WORDS; ++hw) {
        unsigned f = hw / kFlitWords, w = hw % kFlitWords;
        if (f < flits.size()) p.hdr[hw] = flits[f][w];
    }
    size_t len = canopy_hdr_get_len(p.hdr);
    for (size_t i = 0; i < len; ++i) {
        size_t f = hdr_flits + i / bytes_per_flit;
        unsigned b = i % bytes_per_flit;
        if (f >= flits.size()) break;
        p.payload.push_back(static_cast<uint8_t>(flits[f][b / 8] >> (8 * (b % 8))));
    }
    return p;
}

// ------------------------------------------------------------------ fabric
static_assert(TorusTiles<Vcanopy_router_tile>::kLowersClock,
              "step() lowers the clock without an eval (TorusTiles::fall): it needs the model's root "
              "header, and TorusTiles::lower_clock taught this Verilator's name for the clock's record");

Fabric::Fabric(const Topology &topo, const std::string &fst_path, unsigned threads)
    : topo_(topo), ctx_(std::make_unique<VerilatedContext>()) {
    ctx_->fatalOnError(true);
    if (!fst_path.empty()) ctx_->traceEverOn(true);
    tiles_ = std::make_unique<Tiles>(ctx_.get(), topo_.ndims, topo_.size);
    if (!fst_path.empty()) {
#ifdef CANOPY_TRACE
        trace_ = std::make_unique<VerilatedFstC>();
        for (unsigned n = 0; n < tiles_->nodes(); ++n) (*tiles_)[n].trace(trace_.get(), 99);
        trace_->open(fst_path.c_str());
#else
        throw std::runtime_error("waveforms need a build with WAVES=1");
#endif
    }
    nodes_.resize(topo_.nodes());
    for (auto &n : nodes_) {
        n.inj_credits.assign(CANOPY_NUM_VCS, CANOPY_LOCAL_BUF_DEPTH);
        n.inj.resize(CANOPY_NUM_VCS);
        n.inj_pkts.resize(CANOPY_NUM_VCS);
        n.ej_buf.resize(CANOPY_NUM_VCS);
        n.assembling.resize(CANOPY_NUM_VCS);
        n.ej_credit_pending.assign(CANOPY_NUM_VCS, 0);
        n.ej_credit_drained.assign(CANOPY_NUM_VCS, 0);
    }
    // Reset for a few cycles with all inputs idle.
    tiles_->set_reset(true);
    tiles_->eval(false);
    for (int i = 0; i < 4; ++i) {
        tiles_->exchange();
        tiles_->eval(true);
        tiles_->eval(false);
    }
    tiles_->set_reset(false);
    tiles_->eval(false);
    if (threads > 1 && trace_) throw std::runtime_error("waveforms are written from one thread: drop --threads");
    tiles_->set_threads(threads);
}

Fabric::~Fabric() {
    if (trace_) trace_->close();
    tiles_->final();
}

const Packet &Fabric::inject(unsigned node, const Packet &p, unsigned vc) {
    if (node >= nodes_.size()) throw std::out_of_range("inject: no such node");
    inj_store_.push_back(p);
    Node &n = nodes_[node];
    auto flits = to_flits(p);
    n.inj_pkts.at(vc).push_back(&inj_store_.back());
    for (size_t i = 0; i < flits.size(); ++i) {
        n.inj[vc].push_back(InjFlit{vc, i + 1 == flits.size(), std::move(flits[i])});
    }
    return inj_store_.back();
}

size_t Fabric::pending_flits(unsigned node) const {
    size_t s = 0;
    for (auto &q : nodes_[node].inj) s += q.size();
    return s;
}

size_t Fabric::pending_flits() const {
    size_t s = 0;
    for (unsigned i = 0; i < nodes_.size(); ++i) s += pending_flits(i);
    return s;
}

void Fabric::set_drain_interval(unsigned node, unsigned interval) {
    nodes_.at(node).drain_interval = interval;
}

void Fabric::set_faults(const FaultOptions &o, uint64_t seed) {
    if (!CANOPY_LINK_PROTECT) throw std::runtime_error("fault injection needs a protected-link build (LINK_PROTECT=1)");
    unsigned vc_bits = 0;
    while ((1u << vc_bits) < CANOPY_NUM_VCS) vc_bits++;
    tiles_->set_faults(o, seed, CANOPY_FLIT_BITS + vc_bits + 3);  // {ctl, vc, last, body, valid}
}

Fabric::LinkStats Fabric::link_stats() const {
    LinkStats s;
    for (const WireFaults &w : tiles_->faults()) {
        s.bits_flipped += w.bits_flipped;
        s.words_hit += w.words_hit;
        s.words_dropped += w.words_dropped;
    }
    for (unsigned n = 0; n < tiles_->nodes(); ++n) {
        s.replays += (*tiles_)[n].link_replays_o;
        s.refused += (*tiles_)[n].link_errors_o;
        s.flits += (*tiles_)[n].link_flits_o;
        s.down += static_cast<uint64_t>(__builtin_popcountll((*tiles_)[n].link_down_o));
        s.dead_drops += (*tiles_)[n].link_drops_o;
    }
    return s;
}

ErrorCounters Fabric::errors(unsigned node) const {
    ErrorCounters e;
    const Vcanopy_router_tile &t = (*tiles_)[node];
    e.bad_type = t.err_bad_type_o;
    e.bad_dst = t.err_bad_dst_o;
    e.bad_len = t.err_bad_len_o;
    return e;
}

void Fabric::drive_inputs() {
    for (unsigned i = 0; i < nodes_.size(); ++i) {
        Node &n = nodes_[i];
        Vcanopy_router_tile &t = (*tiles_)[i];
        // Injection: a packet at a time; between packets the next VC with a flit and a
        // credit, round robin. One flit a cycle, only with a credit for its VC.
        if (n.inj_cur < 0) {
            for (unsigned k = 0; k < CANOPY_NUM_VCS; ++k) {
                unsigned v = (n.inj_rr + k) % CANOPY_NUM_VCS;
                if (!n.inj[v].empty() && n.inj_credits[v] > 0) {
                    n.inj_cur = static_cast<int>(v);
                    n.inj_rr = v + 1;
                    break;
                }
            }
        }
        bool send = n.inj_cur >= 0 && n.inj_credits[static_cast<unsigned>(n.inj_cur)] > 0;
        t.inj_valid_i = send;
        if (send) {
            const unsigned v = static_cast<unsigned>(n.inj_cur);
            const InjFlit &f = n.inj[v].front();
            for (unsigned w = 0; w < kFlitWords; ++w) put_bits(t.inj_flit_i, 64 * w, 64, f.data[w]);
            t.inj_last_i = f.last;
            t.inj_vc_i = static_cast<uint8_t>(f.vc);
            --n.inj_credits[v];
            Packet *pkt = n.inj_pkts[v].front();
            if (pkt->inject_cycle == UINT64_MAX) pkt->inject_cycle = cycle_;
            if (f.last) {
                n.inj_pkts[v].pop_front();
                n.inj_cur = -1;
            }
            n.inj[v].pop_front();
            ++flits_injected_;
        }
        // Ejection credits: one per VC per cycle, for slots the host drained.
        uint64_t credits = 0;
        for (unsigned v = 0; v < CANOPY_NUM_VCS; ++v) {
            if (n.ej_credit_pending[v]) {
                credits |= uint64_t{1} << v;
                --n.ej_credit_pending[v];
            }
        }
        t.ej_credit_i = static_cast<uint8_t>(credits);
        // A slot drained in a cycle returns its credit at the earliest the next cycle, as
        // from a registered credit output in hardware.
        for (unsigned v = 0; v < CANOPY_NUM_VCS; ++v) {
            n.ej_credit_pending[v] += n.ej_credit_drained[v];
            n.ej_credit_drained[v] = 0;
        }
    }
}

void Fabric::sample_outputs() {
    for (unsigned i = 0; i < nodes_.size(); ++i) {
        Node &n = nodes_[i];
        const Vcanopy_router_tile &t = (*tiles_)[i];
        uint64_t credits = t.inj_credit_o;
        for (unsigned v = 0; v < CANOPY_NUM_VCS; ++v) {
            if ((credits >> v) & 1) ++n.inj_credits[v];
            if (n.inj_credits[v] > CANOPY_LOCAL_BUF_DEPTH) {
                throw std::runtime_error("node " + std::to_string(i) + ": injection credit overflow");
            }
        }
        if (t.ej_valid_o) {
            unsigned vc = t.ej_vc_o;
            Flit f(kFlitWords);
            for (unsigned w = 0; w < kFlitWords; ++w) f[w] = get_bits(t.ej_flit_o, 64 * w, 64);
            if (n.ej_buf[vc].size() >= CANOPY_EJECT_CREDITS) {
                throw std::runtime_error("node " + std::to_string(i) + ": router ejected without credit");
            }
            Received &r = n.assembling[vc];
            if (r.flits.empty()) {
                r.node = i;
                r.vc = vc;
                r.head_cycle = cycle_;
            }
            r.flits.push_back(f);
            n.ej_buf[vc].push_back(std::move(f));
            ++flits_ejected_;
            last_eject_cycle_ = cycle_;
            if (t.ej_last_o) {
                r.tail_cycle = cycle_;
                Received done = std::move(r);
                r = Received{};
                if (on_receive_) on_receive_(done);
            }
        }
        // The host drains one flit every drain_interval cycles, VCs in turn.
        if (n.drain_interval && ++n.drain_phase >= n.drain_interval) {
            n.drain_phase = 0;
            for (unsigned k = 0; k < CANOPY_NUM_VCS; ++k) {
                unsigned v = (n.drain_rr + k) % CANOPY_NUM_VCS;
                if (!n.ej_buf[v].empty()) {
                    n.ej_buf[v].pop_front();
                    ++n.ej_credit_drained[v];
                    n.drain_rr = v + 1;
                    break;
                }
            }
        }
    }
}

void Fabric::step() {
    drive_inputs();
    tiles_->exchange();
    tiles_->eval(true);
    ++cycle_;
    if (trace_) trace_->dump(2 * cycle_);
    sample_outputs();
    tiles_->fall();  // nothing to evaluate: see TorusTiles::fall
    if (trace_) trace_->dump(2 * cycle_ + 1);
}

bool Fabric::run_until(const std::function<bool()> &pred, uint64_t limit) {
    for (uint64_t i = 0; i < limit && !pred(); ++i) step();
    return pred();
}

}  // namespace canopy
