// scoreboard.hpp: end-to-end checker for point-to-point traffic on the fabric.
//
// Every packet a test injects is expected exactly once, at its destination, byte for byte,
// and in injection order relative to the other packets of the same (source, destination)
// pair. Anything else (a packet at the wrong node, a corrupted or reordered one, one that
// never arrives, one that arrives twice) is a failure with a message naming the packet.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "fabric.hpp"

namespace canopy {

class Scoreboard {
public:
    explicit Scoreboard(const Topology &t) : topo_(t) {}

    // Record an injected packet as expected at its destination.
    void expect(unsigned src, unsigned dst, const Packet &p) {
        pending_[{src, dst}].push_back(&p);
        ++outstanding_;
    }

    // Check one arrival. Returns false (and records why) if it was not expected.
    bool receive(const Received &r);

    size_t outstanding() const { return outstanding_; }
    uint64_t delivered() const { return delivered_; }
    uint64_t delivered_flits() const { return delivered_flits_; }
    const std::vector<std::string> &failures() const { return failures_; }
    // Report packets still missing; returns true when nothing is missing or wrong.
    bool finish();
    // Latency samples (head ejected - head injected), cycles.
    const std::vector<uint64_t> &latencies() const { return latencies_; }

private:
    void fail(std::string why);

    const Topology &topo_;
    std::map<std::pair<unsigned, unsigned>, std::deque<const Packet *>> pending_;
    size_t outstanding_ = 0;
    uint64_t delivered_ = 0, delivered_flits_ = 0;
    std::vector<std::string> failures_;
    std::vector<uint64_t> latencies_;
};

}  // namespace canopy
