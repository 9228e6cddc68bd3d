// fabric.hpp: C++ harness around a torus of Verilated routers (sim/canopy_router_tile.sv,
// joined by sim/torus_tiles.hpp).
//
// The harness plays every node's host side of the local port, speaking the router's
// link protocol exactly: it injects flits only while it holds a credit for their VC and
// returns an ejection credit only when its own ejection buffer frees a slot. Everything
// the harness checks (delivery, order, bytes, error counters) is observed at the model's
// ports; nothing reaches inside the RTL.
//
// Time: one call to step() is one clock cycle. Outputs are sampled after the rising
// edge, inputs for the next edge are driven before it.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "wire_faults.hpp"

extern "C" {
#include "canopy_packet.h"
}

class Vcanopy_router_tile;
class VerilatedContext;
class VerilatedFstC;

namespace canopy {

template <class Tile>
class TorusTiles;

// The torus a fabric simulates (--torus; the model is built for its dimension count).
struct Topology {
    unsigned ndims;
    std::array<unsigned, CANOPY_MAX_DIMS> size;  // 1 for unused dimensions
    unsigned nodes() const;
    std::array<unsigned, CANOPY_MAX_DIMS> coords(unsigned node) const;
    unsigned node_of(const std::array<unsigned, CANOPY_MAX_DIMS> &c) const;
    uint64_t packed_coords(unsigned node) const;  // as in the header dst/src fields
    std::string name() const;                     // "3x3", "2x2x2", "4"
    // Hops of the dimension-order route (the reference model of the router's routing).
    unsigned hops(unsigned src, unsigned dst) const;
    // Directed-channel visits of the dimension-order route: (node, port) pairs.
    std::vector<std::pair<unsigned, unsigned>> route(unsigned src, unsigned dst) const;
};

Topology topology_of(const std::string &torus);  // "3x3": throws if not this model's dimensions
unsigned flit_bits();        // FlitWidth of the model
unsigned local_buf_depth();  // injection credits per VC
unsigned eject_depth();      // ejection buffer per VC
unsigned link_latency();

using Flit = std::vector<uint64_t>;  // flit_bits()/64 words

struct Packet {
    uint64_t hdr[CANOPY_PKT_HEADER_WORDS] = {0, 0};
    std::vector<uint8_t> payload;
    // Framing override for malformed-packet tests: flits actually sent (0 = as len says).
    unsigned force_flits = 0;
    uint64_t inject_cycle = UINT64_MAX;  // set by the harness when the head flit is driven
    uint64_t tag = 0;           // caller's bookkeeping, not sent
};

Packet make_put(const Topology &t, unsigned src, unsigned dst, std::vector<uint8_t> payload,
                uint64_t offset);
std::vector<Flit> to_flits(const Packet &p);

struct Received {
    unsigned node;
    unsigned vc;
    std::vector<Flit> flits;
    uint64_t head_cycle;  // cycle the head flit left the router
    uint64_t tail_cycle;
};

struct ErrorCounters {
    uint32_t bad_type = 0, bad_dst = 0, bad_len = 0;
    uint32_t total() const { return bad_type + bad_dst + bad_len; }
};

class Fabric {
public:
    // threads: evaluate the routers on that many threads (sim/torus_tiles.hpp); the
    // results are the same for any number.
    explicit Fabric(const Topology &topo, const std::string &fst_path = "", unsigned threads = 1);
    ~Fabric();
    Fabric(const Fabric &) = delete;
    Fabric &operator=(const Fabric &) = delete;

    const Topology &topo() const { return topo_; }
    uint64_t cycle() const { return cycle_; }

    // Queue a packet at a node's injection port, on VC `vc` of the local port. The
    // returned copy stays valid for the Fabric's life; its inject_cycle is filled in when
    // the head flit enters the router.
    const Packet &inject(unsigned node, const Packet &p, unsigned vc = CANOPY_VC_P2P_LO);
    size_t pending_flits(unsigned node) const;
    size_t pending_flits() const;

    // Ejection side: a node drains at most one flit from its ejection buffer every
    // `drain_interval` cycles (1 = line rate); 0 stops draining (a host that stalls).
    void set_drain_interval(unsigned node, unsigned interval);

    void on_receive(std::function<void(const Received &)> cb) { on_receive_ = std::move(cb); }

    void step();
    // Step until pred() holds or `limit` cycles pass; returns pred().
    bool run_until(const std::function<bool()> &pred, uint64_t limit);

    ErrorCounters errors(unsigned node) const;

    // Protected links (a LINK_PROTECT=1 build; anything else throws): corrupt every link's
    // words from now on (sim/wire_faults.hpp), and what the faults and the links did.
    void set_faults(const FaultOptions &o, uint64_t seed);
    struct LinkStats {
        uint64_t bits_flipped = 0, words_hit = 0, words_dropped = 0, replays = 0, refused = 0, flits = 0;
        uint64_t down = 0, dead_drops = 0;  // links down (each end counts), flits dropped by them
    };
    LinkStats link_stats() const;
    uint64_t flits_injected() const { return flits_injected_; }
    uint64_t flits_ejected() const { return flits_ejected_; }
    uint64_t last_eject_cycle() const { return last_eject_cycle_; }

private:
    struct InjFlit {
        unsigned vc;
        bool last;
        Flit data;
    };
    struct Node {
        // One injection queue per VC, served a packet at a time, round robin among the VCs
        // with a flit and a credit, as the host interface's injection multiplexer does.
        std::vector<std::deque<InjFlit>> inj;
        std::vector<std::deque<Packet *>> inj_pkts; // head bookkeeping, per VC
        int inj_cur = -1;                           // the VC whose packet is being sent
        unsigned inj_rr = 0;
        std::vector<unsigned> inj_credits;
        std::vector<std::deque<Flit>> ej_buf;        // per VC, waiting to drain
        std::vector<Received> assembling;            // per VC
        std::vector<unsigned> ej_credit_pending;     // per VC, to return next edge
        std::vector<unsigned> ej_credit_drained;     // per VC, drained this cycle: pending from the next
        unsigned drain_interval = 1;
        unsigned drain_phase = 0;
        unsigned drain_rr = 0;
    };

    void drive_inputs();
    void sample_outputs();

    Topology topo_;
    std::unique_ptr<VerilatedContext> ctx_;
    using Tiles = TorusTiles<Vcanopy_router_tile>;
    std::unique_ptr<Tiles> tiles_;
    std::unique_ptr<VerilatedFstC> trace_;
    std::vector<Node> nodes_;
    std::deque<Packet> inj_store_;
    std::function<void(const Received &)> on_receive_;
    uint64_t cycle_ = 0;
    uint64_t flits_injected_ = 0, flits_ejected_ = 0, last_eject_cycle_ = 0;
};

// Parse a received flit sequence back into a packet (header words + payload bytes).
Packet from_flits(const std::vector<Flit> &flits);

}  // namespace canopy
