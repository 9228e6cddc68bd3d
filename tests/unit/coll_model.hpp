// coll_model.hpp: what the collective unit's unit tests (tests/unit/*coll*, *reduce*) share:
// the packet header and table entry layouts (as in canopy_pkg, spec/packet.toml) and a
// reference model of the reduce operations.
#ifndef CANOPY_COLL_MODEL_HPP
#define CANOPY_COLL_MODEL_HPP

#include <cstdint>
#include <vector>

namespace canopy_coll {

// ------------------------------------------------------------------ packet header
enum : unsigned { PKT_BCAST = 2, PKT_BCAST_REQ = 3, PKT_REDUCE = 4, PKT_PUT = 1 };
enum : unsigned { OP_SUM = 0, OP_MIN = 1, OP_MAX = 2 };
enum : unsigned { DT_I32 = 0, DT_U32 = 1, DT_I64 = 2, DT_U64 = 3 };
enum : unsigned { RF_ALL = 1, RF_FAILED = 2, RF_RESULT = 4, RF_RETRY = 8 };

struct Hdr {
    unsigned ptype = 0, flags = 0, dst = 0, src = 0, len = 0, tree = 0;
    uint64_t offset = 0;
    unsigned rid = 0, op = 0, dtype = 0, group = 0, rflags = 0;

    uint64_t w0() const {
        return uint64_t(ptype & 0xf) | uint64_t(flags & 0xf) << 4 | uint64_t(dst & 0xffff) << 8 |
               uint64_t(src & 0xffff) << 24 | uint64_t(len & 0x1ff) << 40 | uint64_t(tree & 0x3f) << 49;
    }
    uint64_t w1() const {
        return (offset & 0xffffffffffull) | uint64_t(rid & 0x1f) << 40 | uint64_t(op & 7) << 45 |
               uint64_t(dtype & 7) << 48 | uint64_t(group & 0xff) << 51 | uint64_t(rflags & 0xf) << 59;
    }
    static Hdr parse(uint64_t w0, uint64_t w1) {
        Hdr h;
        h.ptype = w0 & 0xf;
        h.flags = (w0 >> 4) & 0xf;
        h.dst = (w0 >> 8) & 0xffff;
        h.src = (w0 >> 24) & 0xffff;
        h.len = (w0 >> 40) & 0x1ff;
        h.tree = (w0 >> 49) & 0x3f;
        h.offset = w1 & 0xffffffffffull;
        h.rid = (w1 >> 40) & 0x1f;
        h.op = (w1 >> 45) & 7;
        h.dtype = (w1 >> 48) & 7;
        h.group = (w1 >> 51) & 0xff;
        h.rflags = (w1 >> 59) & 0xf;
        return h;
    }
    unsigned payload_words() const { return (len + 7) / 8; }
};

// ------------------------------------------------------------------ table entry
struct Entry {
    bool valid = false, root = false, transit = false;
    unsigned parent = 0, children = 0, groups = 0;
    uint32_t word() const {
        return uint32_t(valid) | uint32_t(root) << 1 | uint32_t(transit) << 2 | (parent & 0xf) << 3 |
               (children & 0xff) << 7 | (groups & 0xff) << 15;
    }
};

// ------------------------------------------------------------------ reduce operations
inline unsigned esize(unsigned dt) { return dt == DT_I32 || dt == DT_U32 ? 4 : 8; }

inline uint64_t alu(uint64_t a, uint64_t b, unsigned op, unsigned dt) {
    auto lane = [&](uint64_t x, uint64_t y, unsigned bits, bool sgn) -> uint64_t {
        const uint64_t m = bits == 64 ? ~0ull : (1ull << bits) - 1;
        x &= m;
        y &= m;
        bool lt;
        if (sgn) {
            const int64_t sx = bits == 64 ? int64_t(x) : int64_t(int32_t(uint32_t(x)));
            const int64_t sy = bits == 64 ? int64_t(y) : int64_t(int32_t(uint32_t(y)));
            lt = sx < sy;
        } else {
            lt = x < y;
        }
        switch (op) {
            case OP_SUM: return (x + y) & m;
            case OP_MIN: return lt ? x : y;
            case OP_MAX: return lt ? y : x;
            default: return x;
        }
    };
    switch (dt) {
        case DT_I32: return lane(a, b, 32, true) | lane(a >> 32, b >> 32, 32, true) << 32;
        case DT_U32: return lane(a, b, 32, false) | lane(a >> 32, b >> 32, 32, false) << 32;
        case DT_I64: return lane(a, b, 64, true);
        case DT_U64: return lane(a, b, 64, false);
        default: return a;
    }
}

// A packet as flits, with the router input it came from.
struct Packet {
    std::vector<uint64_t> flits;
    unsigned port = 0;
};

}  // namespace canopy_coll

#endif  // CANOPY_COLL_MODEL_HPP
