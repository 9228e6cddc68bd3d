// hdr_check_test.cpp: unit test of canopy_hdr_check against a model of the header rules.
//
// Why: the header check is what keeps a malformed packet (unimplemented type, destination
// outside the torus, over-long payload) from being routed, and its flit count is what the
// receiver checks each packet's tail against.
//
// What: NumDims 1..4 x FlitWidth 64, 128, 256 at once (see canopy_unit_hdr_check_tb.sv).
// Header word 0 is assembled from fields at the bit positions of docs/packet-format.md
// (ptype 3..0, flags 7..4, dst 23..8 with dimension d in bits 4d+3..4d, src 39..24, len
// 48..40, tree 54..49, reserved 63..55), other fields random from a fixed seed. Stimulus:
//   - every type value 0..15 on every VC 0..3;
//   - every dst value (all 16 bits) under several torus sizes, including sizes 1 in the
//     dimensions a small torus lacks and random sizes there (they must not matter);
//   - every len value 0..511;
//   - random words under random sizes (1..16 per dimension).
// For every stimulus and config the outputs must match the model:
//   bad_type_o = ptype is not a type the router implements on the VC it arrived on:
//                PUT (1), ACK (6), CONFIG (5), BCAST_REQ (3), GET (7), GET_RESP (8) on
//                P2P_LO/P2P_HI (VC 0, 1),
//                BCAST (2) on COLL_DOWN (VC 3), REDUCE (4) on COLL_UP (VC 2)
//                (docs/packet-format.md); every other value, assigned or not, is refused
//   bad_dst_o  = some dst[d] >= size[d] for d < NumDims, or dst[d] != 0 for d >= NumDims
//   bad_len_o  = len > 256
//   flits_o    = ceil(128 / FlitWidth) + ceil(len / (FlitWidth / 8))   (when len <= 256)
// Coverage: each config sees each flag both ways and every legal flit count.
#include <array>
#include <cstdint>
#include <set>
#include <vector>

#include "Vtb.h"
#include "unit_common.hpp"

namespace {

using canopy_unit::Rng;
using canopy_unit::UnitTest;
using canopy_unit::get_field;
using canopy_unit::set_field;

// The configuration table of canopy_unit_hdr_check_tb.sv.
constexpr unsigned kNumCfg = 12;
constexpr unsigned kFlitsW = 6;  // flits_o padding per config in the test top
unsigned cfg_dims(unsigned k) { return k % 4 + 1; }
unsigned cfg_flit_width(unsigned k) { return 64u << (k / 4); }

constexpr unsigned kMaxDims   = 4;
constexpr unsigned kSizeW     = 5;    // torus_size_i bits per dimension
constexpr unsigned kPktPut    = 1;
constexpr unsigned kPktAck    = 6;
constexpr unsigned kMaxLen    = 256;  // canopy_pkg::MaxPayloadBytes
constexpr unsigned kHdrBits   = 128;
constexpr uint64_t kSeed      = 0x4d2c4ec0ffee0005ull;
constexpr unsigned kRandom    = 100000;
constexpr uint64_t kMaxEvals  = 1000000;

using Sizes = std::array<unsigned, kMaxDims>;

// Torus sizes for the exhaustive destination sweep.
const std::vector<Sizes> kDstSizes = {
    {2, 2, 2, 2}, {16, 16, 16, 16}, {3, 5, 7, 16}, {16, 9, 2, 4},
    {4, 1, 1, 1}, {5, 3, 1, 1},     {7, 6, 5, 1},  {1, 1, 1, 1},
};

// Header word 0, by field.
struct Word0 {
    unsigned ptype = kPktPut, flags = 0, dst = 0, src = 0, len = 0, tree = 0, rsvd = 0;
    uint64_t pack() const {
        return static_cast<uint64_t>(ptype) | static_cast<uint64_t>(flags) << 4 |
               static_cast<uint64_t>(dst) << 8 | static_cast<uint64_t>(src) << 24 |
               static_cast<uint64_t>(len) << 40 | static_cast<uint64_t>(tree) << 49 |
               static_cast<uint64_t>(rsvd) << 55;
    }
    unsigned dst_coord(unsigned d) const { return (dst >> (4 * d)) & 0xf; }
};

Word0 random_word(Rng &rng) {
    Word0 w;
    w.ptype = static_cast<unsigned>(rng.bits(4));
    w.flags = static_cast<unsigned>(rng.bits(4));
    w.dst   = static_cast<unsigned>(rng.bits(16));
    w.src   = static_cast<unsigned>(rng.bits(16));
    w.len   = static_cast<unsigned>(rng.bits(9));
    w.tree  = static_cast<unsigned>(rng.bits(6));
    w.rsvd  = static_cast<unsigned>(rng.bits(9));
    return w;
}

// A destination legal in every config under these sizes (all coordinates 0).
Word0 legal_word(Rng &rng) {
    Word0 w = random_word(rng);
    w.ptype = kPktPut;
    w.dst = 0;
    w.len = rng.below(kMaxLen + 1);
    return w;
}

Sizes random_sizes(Rng &rng) {
    Sizes s;
    for (unsigned &v : s) v = 1 + rng.below(16);
    return s;
}

struct Expect {
    bool bad_type, bad_dst, bad_len;
    unsigned flits;
};

constexpr unsigned kPktBcast = 2, kPktBcastReq = 3, kPktReduce = 4, kPktConfig = 5, kPktGet = 7,
                   kPktGetResp = 8, kVcCollUp = 2, kVcCollDown = 3;

Expect model(unsigned nd, unsigned flit_width, const Word0 &w, const Sizes &size, unsigned vc) {
    Expect e{};
    const bool p2p = (vc == 0 || vc == 1) && (w.ptype == kPktPut || w.ptype == kPktAck ||
                                               w.ptype == kPktConfig || w.ptype == kPktBcastReq ||
                                               w.ptype == kPktGet || w.ptype == kPktGetResp);
    const bool down = vc == kVcCollDown && w.ptype == kPktBcast;
    const bool up = vc == kVcCollUp && w.ptype == kPktReduce;
    e.bad_type = !(p2p || down || up);
    e.bad_dst = false;
    for (unsigned d = 0; d < kMaxDims; d++) {
        const unsigned c = w.dst_coord(d);
        if (d < nd ? c >= size[d] : c != 0) e.bad_dst = true;
    }
    e.bad_len = w.len > kMaxLen;
    const unsigned flit_bytes = flit_width / 8;
    e.flits = (kHdrBits + flit_width - 1) / flit_width + (w.len + flit_bytes - 1) / flit_bytes;
    return e;
}

class HdrCheckTest {
  public:
    HdrCheckTest() : t_("hdr_check", kMaxEvals), tb_(t_.context()), rng_(kSeed) {}

    void run() {
        // Every type value.
        for (unsigned type = 0; type < 16; type++) {
            for (unsigned vc = 0; vc < 4; vc++) {
                for (int i = 0; i < 16; i++) {
                    Word0 w = legal_word(rng_);
                    w.ptype = type;
                    check(w, {16, 16, 16, 16}, vc);
                }
            }
        }
        // Every destination value under each set of sizes.
        for (const Sizes &size : kDstSizes) {
            for (unsigned dst = 0; dst < (1u << 16); dst++) {
                Word0 w = legal_word(rng_);
                w.dst = dst;
                check(w, size);
            }
        }
        // Every len value.
        for (unsigned len = 0; len < 512; len++) {
            for (int i = 0; i < 8; i++) {
                Word0 w = legal_word(rng_);
                w.len = len;
                check(w, random_sizes(rng_));
            }
        }
        // Random words.
        for (unsigned i = 0; i < kRandom; i++) {
            const Word0 w = random_word(rng_);
            check(w, random_sizes(rng_), static_cast<unsigned>(rng_.below(4)));
        }

        for (unsigned k = 0; k < kNumCfg; k++) {
            const unsigned fw = cfg_flit_width(k), fb = fw / 8;
            const unsigned lo = (kHdrBits + fw - 1) / fw, hi = lo + kMaxLen / fb;
            const Seen &s = seen_[k];
            if (s.flags != 0x3f || s.flits.size() != hi - lo + 1)
                t_.fail("NumDims %u FlitWidth %u: coverage too low: flag mask 0x%x, %zu of %u "
                        "flit counts", cfg_dims(k), fw, s.flags, s.flits.size(), hi - lo + 1);
        }
        t_.pass();
    }

  private:
    struct Seen {
        unsigned flags = 0;  // bit 2i: flag i seen low, bit 2i+1: seen high
        std::set<unsigned> flits;
    };

    void check(const Word0 &w, const Sizes &size, unsigned vc = 0) {
        tb_.word0_i = w.pack();
        tb_.vc_i = vc;
        for (unsigned d = 0; d < kMaxDims; d++)
            set_field(tb_.torus_size_i, d * kSizeW, kSizeW, size[d]);
        tb_.eval();
        t_.tick();
        for (unsigned k = 0; k < kNumCfg; k++) {
            const Expect e = model(cfg_dims(k), cfg_flit_width(k), w, size, vc);
            const bool bad_type = get_field(tb_.bad_type_o, k, 1);
            const bool bad_dst = get_field(tb_.bad_dst_o, k, 1);
            const bool bad_len = get_field(tb_.bad_len_o, k, 1);
            const unsigned flits =
                static_cast<unsigned>(get_field(tb_.flits_o, k * kFlitsW, kFlitsW));
            if (bad_type != e.bad_type || bad_dst != e.bad_dst || bad_len != e.bad_len ||
                (!e.bad_len && flits != e.flits))
                t_.fail("NumDims %u FlitWidth %u, word0 0x%016" PRIx64 " (type %u dst 0x%04x "
                        "len %u, vc %u), sizes %ux%ux%ux%u: got bad_type %d bad_dst %d bad_len %d "
                        "flits %u, expected %d %d %d %u",
                        cfg_dims(k), cfg_flit_width(k), w.pack(), w.ptype, w.dst, w.len, vc,
                        size[0], size[1], size[2], size[3], bad_type, bad_dst, bad_len, flits,
                        e.bad_type, e.bad_dst, e.bad_len, e.flits);
            Seen &s = seen_[k];
            s.flags |= 1u << (0 + bad_type) | 1u << (2 + bad_dst) | 1u << (4 + bad_len);
            if (!e.bad_len) s.flits.insert(flits);
        }
    }

    UnitTest t_;
    Vtb tb_;
    Rng rng_;
    Seen seen_[kNumCfg];
};

}  // namespace

int main() {
    HdrCheckTest test;
    test.run();
}
