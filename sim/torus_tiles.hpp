// torus_tiles.hpp: a torus of Verilated tiles, joined in C++.
//
// Each node of a simulated torus is one Verilated model of a tile (sim/canopy_router_tile.sv
// for canopy-fabric, sim/canopy_node_tile.sv for canopy-cosim): the node and the links it
// transmits on. Every link output of a tile is a register (LinkLatency >= 1), so one cycle
// is: copy each tile's link outputs to its peers' link inputs (exchange), then clock every
// tile. A tile is evaluated twice a cycle, once per clock edge, or once when its falling
// edge needs no evaluation (fall(): the router fabric). Verilated as one model of
// the whole torus with the node as a --hierarchical block, which is how canopy's simulators
// were built before, each node was evaluated four to five times a cycle: its wrapper calls
// the node again whenever one of its inputs changes (docs/simulation.md has the numbers).
//
// Wiring: link port p is dimension p/2, + for even p and - for odd; port p of node n is
// cabled to port p^1 of its neighbour that way. On a ring of 2 both neighbours are the same
// node, joined by two links. Node n has coordinates x = n % SizeX, y = (n / SizeX) % SizeY,
// ... (X fastest); unused dimensions have size 1.
//
// Faults (set_faults): with protected links (LinkProtect), every directed link's words may
// be corrupted on their way from link_o to the peer's link_i (sim/wire_faults.hpp), each
// link with its own seeded fault stream; bit 0 of a link word is its valid bit.
//
// Threads (set_threads): within a clock edge the tiles are independent, so thread k of T
// evaluates tiles k, k + T, ...; the threads meet after every edge, waiting by spinning
// (each edge is a few microseconds of work), so use it only with a core per thread. The
// results do not depend on T. The co-simulation stays on one thread: between cycles its
// PE processes need the cores.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "verilated.h"
#include "wire_faults.hpp"

extern "C" {
#include "canopy_packet.h"  // CANOPY_MAX_DIMS, CANOPY_COORD_BITS: the header's coordinate layout
}

namespace canopy {

// The torus a simulator runs, from its --torus argument: one size per dimension, X first
// ("4", "3x3", "2x2x2", "8x8x8"). A simulator's model is built for a number of dimensions
// (and, for the co-simulation, a largest node count), not for one shape, so one build runs
// every torus of its dimension count (sim/sim.mk). Throws std::runtime_error with the reason.
struct TorusShape {
    unsigned ndims = 0;
    std::array<unsigned, CANOPY_MAX_DIMS> size{};  // 1 for unused dimensions
    unsigned nodes() const {
        unsigned n = 1;
        for (unsigned s : size) n *= s;
        return n;
    }
};

inline TorusShape parse_torus(const std::string &text, unsigned want_ndims) {
    TorusShape t;
    t.size.fill(1);
    size_t at = 0;
    while (true) {
        size_t end = text.find('x', at);
        std::string part = text.substr(at, end == std::string::npos ? std::string::npos : end - at);
        if (t.ndims == CANOPY_MAX_DIMS || part.empty() || part.size() > 3 ||
            part.find_first_not_of("0123456789") != std::string::npos)
            throw std::runtime_error("--torus " + text + ": want one size per dimension, X first (e.g. 3x3), "
                                     "at most " + std::to_string(CANOPY_MAX_DIMS) + " dimensions");
        unsigned k = static_cast<unsigned>(std::stoul(part));
        if (k < 2 || k > (1u << CANOPY_COORD_BITS))
            throw std::runtime_error("--torus " + text + ": a dimension's size must be 2.." +
                                     std::to_string(1u << CANOPY_COORD_BITS));
        t.size[t.ndims++] = k;
        if (end == std::string::npos) break;
        at = end + 1;
    }
    if (t.ndims != want_ndims)
        throw std::runtime_error("--torus " + text + " has " + std::to_string(t.ndims) +
                                 " dimension(s), but this simulator's model was built for " +
                                 std::to_string(want_ndims) + " (sim/sim.mk builds one per dimension count)");
    return t;
}

template <class Tile>
class TorusTiles {
public:
    TorusTiles(VerilatedContext *ctx, unsigned ndims, const std::array<unsigned, CANOPY_MAX_DIMS> &size)
        : ndims_(ndims), size_(size) {
        unsigned nodes = 1;
        for (unsigned s : size_) nodes *= s;
        for (unsigned n = 0; n < nodes; ++n) {
            tiles_.push_back(std::make_unique<Tile>(ctx, ("node" + std::to_string(n)).c_str()));
            Tile &t = *tiles_.back();
            t.my_coord_i = packed_coords(n);
            t.torus_size_i = packed_size();
            std::array<unsigned, 2 * CANOPY_MAX_DIMS> peers{};
            for (unsigned p = 0; p < 2 * ndims_; ++p) peers[p] = neighbour(n, p / 2, p % 2 == 0);
            peer_.push_back(peers);
        }
    }

    ~TorusTiles() { set_threads(1); }
    TorusTiles(const TorusTiles &) = delete;
    TorusTiles &operator=(const TorusTiles &) = delete;

    unsigned nodes() const { return static_cast<unsigned>(tiles_.size()); }
    Tile &operator[](unsigned n) { return *tiles_[n]; }
    const Tile &operator[](unsigned n) const { return *tiles_[n]; }

    // Each tile's link inputs from its peers' link outputs (registers: the values of the
    // last rising edge). Before every rising edge.
    void exchange() {
        for (unsigned n = 0; n < nodes(); ++n) {
            Tile &t = *tiles_[n];
            for (unsigned p = 0; p < links(); ++p) {
                const Tile &peer = *tiles_[peer_[n][p]];
                t.link_i[p] = peer.link_o[p ^ 1];
                t.link_credit_i[p] = peer.link_credit_o[p ^ 1];
                if (!faults_.empty()) {
                    auto &w = t.link_i[p];
                    faults_[n * links() + p].apply(
                        bit_of(w, 0), [&](unsigned b) { flip_bit(w, b); }, [&] { flip_bit(w, 0); });
                }
            }
        }
    }

    // Corrupt every link's words from now on; link_bits: the bits of a link word.
    void set_faults(const FaultOptions &o, uint64_t seed, unsigned link_bits) {
        faults_.clear();
        for (unsigned n = 0; n < nodes(); ++n)
            for (unsigned p = 0; p < links(); ++p)
                faults_.emplace_back(o, link_bits, seed * 1000003u + n * 2 * CANOPY_MAX_DIMS + p);
    }
    // The link out of `node`'s port `port` dies, both ways, from `cycle` on (exchange() runs
    // once a cycle, so a wire's word w is cycle w - 1). Faults on the other links as set
    // (none if set_faults was not called).
    void set_dead_link(unsigned node, unsigned port, uint64_t cycle, unsigned link_bits) {
        if (faults_.empty()) set_faults(FaultOptions{}, 1, link_bits);
        faults_[peer_[node][port] * links() + (port ^ 1)].set_dead_at(cycle + 1);  // arriving at the peer
        faults_[node * links() + port].set_dead_at(cycle + 1);                     // arriving here
    }
    const std::vector<WireFaults> &faults() const { return faults_; }

    void set_reset(bool rst) {
        for (auto &t : tiles_) t->rst_i = rst;
    }

    // Drive the clock of every tile to `clk` and evaluate it.
    void eval(bool clk) {
        if (workers_.empty()) return eval_share(0, 1, clk);
        const unsigned share = static_cast<unsigned>(workers_.size()) + 1;
        edge_clk_ = clk;
        pending_.store(share - 1, std::memory_order_relaxed);
        edge_.fetch_add(1, std::memory_order_release);
        eval_share(0, share, clk);
        while (pending_.load(std::memory_order_acquire) != 0) spin_pause();
    }

    // Lower the clock of every tile without evaluating it (the router fabric's falling
    // edge). Verilator 5 runs a model's input-dependent logic on every eval(), whatever
    // changed, so an eval at the falling edge recomputes all of it from the same inputs:
    // a tenth of the router fabric's time, for nothing, when (as in the router tile)
    // nothing is clocked on that edge, no logic reads the clock and no input changes
    // between the rising edge's eval and the next. Instead each tile records that it has
    // seen the clock low (the value its rising-edge trigger compares with), so the next
    // eval(true) detects the edge as before. Only for callers that change no input
    // between the two edges: the co-simulation drives inputs before the falling edge and
    // needs that eval. A model whose record is not found (kLowersClock false: its root
    // header not included, or another Verilator naming) is evaluated instead.
    void fall() {
        if constexpr (kLowersClock) {
            for (auto &t : tiles_) lower_clock(*t, Newest{});
        } else {
            eval(false);
        }
    }

    // Evaluate on `threads` threads from now on (the caller's and threads - 1 more).
    void set_threads(unsigned threads) {
        if (!workers_.empty()) {
            stop_.store(true, std::memory_order_relaxed);
            edge_.fetch_add(1, std::memory_order_release);
            for (auto &w : workers_) w.join();
            workers_.clear();
            stop_.store(false, std::memory_order_relaxed);
        }
        const unsigned share = threads < 1 ? 1 : (threads > nodes() ? nodes() : threads);
        // A worker counts edges from the value before it starts: it must not miss the
        // first edge if that is started before the thread runs.
        const uint64_t first = edge_.load(std::memory_order_relaxed);
        for (unsigned k = 1; k < share; ++k)
            workers_.emplace_back([this, k, share, first] { worker(k, share, first); });
    }

    void final() {
        for (auto &t : tiles_) t->final();
    }

private:
    unsigned links() const { return 2 * ndims_; }

    // fall(): clk_i low, and the model's record of the clock's last value low. The field
    // is Verilator's: __Vtrigrprev__TOP__clk_i up to 5.008 or so, then
    // __Vtrigprevexpr___TOP__clk_i__0.
    struct Any {};
    struct Older : Any {};
    struct Newest : Older {};
    template <class T>
    static auto lower_clock(T &t, Newest) -> decltype(t.rootp->__Vtrigprevexpr___TOP__clk_i__0 = 0, std::true_type()) {
        t.clk_i = 0;
        t.rootp->__Vtrigprevexpr___TOP__clk_i__0 = 0;
        return {};
    }
    template <class T>
    static auto lower_clock(T &t, Older) -> decltype(t.rootp->__Vtrigrprev__TOP__clk_i = 0, std::true_type()) {
        t.clk_i = 0;
        t.rootp->__Vtrigrprev__TOP__clk_i = 0;
        return {};
    }
    template <class T>
    static std::false_type lower_clock(T &, Any) { return {}; }

public:
    static constexpr bool kLowersClock = decltype(lower_clock(std::declval<Tile &>(), Newest{}))::value;

private:
    void eval_share(unsigned first, unsigned stride, bool clk) {
        for (unsigned n = first; n < nodes(); n += stride) {
            Tile &t = *tiles_[n];
            t.clk_i = clk;
            t.eval();
        }
    }

    void worker(unsigned k, unsigned share, uint64_t seen) {
        for (;;) {
            uint64_t e;
            while ((e = edge_.load(std::memory_order_acquire)) == seen) spin_pause();
            seen = e;
            if (stop_.load(std::memory_order_relaxed)) return;
            eval_share(k, share, edge_clk_);
            pending_.fetch_sub(1, std::memory_order_acq_rel);
        }
    }

    template <std::size_t N>
    static bool bit_of(const VlWide<N> &w, unsigned b) { return (w[b / 32] >> (b % 32)) & 1u; }
    template <std::size_t N>
    static void flip_bit(VlWide<N> &w, unsigned b) { w[b / 32] ^= 1u << (b % 32); }
    template <class T>
    static bool bit_of(const T &w, unsigned b) { return (static_cast<uint64_t>(w) >> b) & 1u; }
    template <class T>
    static void flip_bit(T &w, unsigned b) { w = static_cast<T>(w ^ (T{1} << b)); }

    static void spin_pause() {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    }

    std::array<unsigned, CANOPY_MAX_DIMS> coords(unsigned node) const {
        std::array<unsigned, CANOPY_MAX_DIMS> c{};
        for (unsigned d = 0; d < CANOPY_MAX_DIMS; ++d) c[d] = node % size_[d], node /= size_[d];
        return c;
    }

    unsigned neighbour(unsigned node, unsigned d, bool plus) const {
        unsigned stride = 1;
        for (unsigned i = 0; i < d; ++i) stride *= size_[i];
        unsigned c = coords(node)[d];
        unsigned c2 = plus ? (c + 1) % size_[d] : (c + size_[d] - 1) % size_[d];
        return node - c * stride + c2 * stride;
    }

    // As the router's my_coord_i and torus_size_i take them: dimension d at bits
    // [d*CoordBits +: CoordBits], sizes one bit wider.
    uint32_t packed_coords(unsigned node) const {
        auto c = coords(node);
        uint32_t v = 0;
        for (unsigned d = 0; d < CANOPY_MAX_DIMS; ++d) v |= uint32_t{c[d]} << (CANOPY_COORD_BITS * d);
        return v;
    }
    uint32_t packed_size() const {
        uint32_t v = 0;
        for (unsigned d = 0; d < CANOPY_MAX_DIMS; ++d) v |= uint32_t{size_[d]} << ((CANOPY_COORD_BITS + 1) * d);
        return v;
    }

    unsigned ndims_;
    std::array<unsigned, CANOPY_MAX_DIMS> size_;
    std::vector<std::unique_ptr<Tile>> tiles_;
    std::vector<std::array<unsigned, 2 * CANOPY_MAX_DIMS>> peer_;
    std::vector<WireFaults> faults_;   // per (node, port): the words arriving there

    std::vector<std::thread> workers_;
    std::atomic<uint64_t> edge_{0};      // bumped to start an edge (or to stop)
    std::atomic<unsigned> pending_{0};   // workers still evaluating this edge
    std::atomic<bool> stop_{false};
    bool edge_clk_ = false;              // written before edge_ is bumped
};

}  // namespace canopy
