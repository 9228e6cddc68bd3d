// scoreboard.cpp: see scoreboard.hpp.
#include "scoreboard.hpp"

#include <cstdio>

namespace canopy {

namespace {
unsigned node_of_coords(const Topology &t, uint64_t packed) {
    std::array<unsigned, CANOPY_MAX_DIMS> c{};
    for (unsigned d = 0; d < CANOPY_MAX_DIMS; ++d) c[d] = canopy_coord_get(packed, d);
    return t.node_of(c);
}
}  // namespace

void Scoreboard::fail(std::string why) {
    if (failures_.size() < 20) failures_.push_back(std::move(why));
    else if (failures_.size() == 20) failures_.push_back("... further failures not shown");
}

bool Scoreboard::receive(const Received &r) {
    Packet got = from_flits(r.flits);
    unsigned src = node_of_coords(topo_, canopy_hdr_get_src(got.hdr));
    unsigned dst = node_of_coords(topo_, canopy_hdr_get_dst(got.hdr));
    char where[96];
    std::snprintf(where, sizeof where, "node %u got packet %u->%u (len %u) at cycle %llu", r.node,
                  src, dst, static_cast<unsigned>(canopy_hdr_get_len(got.hdr)),
                  static_cast<unsigned long long>(r.head_cycle));
    if (dst != r.node) {
        fail(std::string(where) + ": delivered to the wrong node");
        return false;
    }
    auto it = pending_.find({src, dst});
    if (it == pending_.end() || it->second.empty()) {
        fail(std::string(where) + ": not expected (duplicate or never sent)");
        return false;
    }
    const Packet &want = *it->second.front();
    std::vector<Flit> want_flits = to_flits(want);
    if (want_flits != r.flits) {
        // Tell a reordering (it matches a later packet of the pair) from corruption.
        bool later = false;
        for (const Packet *p : it->second) later |= to_flits(*p) == r.flits;
        fail(std::string(where) + (later ? ": out of order" : ": corrupted (bytes differ)"));
        return false;
    }
    latencies_.push_back(r.head_cycle - want.inject_cycle);
    it->second.pop_front();
    --outstanding_;
    ++delivered_;
    delivered_flits_ += r.flits.size();
    return true;
}

bool Scoreboard::finish() {
    unsigned shown = 0;
    for (auto &[pair, q] : pending_) {
        if (!q.empty() && shown++ < 10) {
            fail("packet " + std::to_string(pair.first) + "->" + std::to_string(pair.second) +
                 " never arrived (" + std::to_string(q.size()) + " missing on this pair)");
        }
    }
    return failures_.empty() && outstanding_ == 0;
}

}  // namespace canopy
