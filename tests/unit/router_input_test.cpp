// router_input_test.cpp: unit test of canopy_router_input's route checks: which outputs a
// packet arriving on each port of a NumDims 3 router may ask for.
//
// Why: dimension-order routing on a torus never turns back, and never turns from a
// dimension into an earlier one. The input leaves those (input, output) pairs out of its
// requests, so the allocator and crossbar lose them; a head whose lookahead port names one
// (only a faulty neighbour sends it) must then be refused and drained, not left at the
// front of its VC waiting for a grant that can never come, which would stall the VC for
// good.
//
// What: a router at (1,1,1) of a 4x4x4 torus, one canopy_router_input per port (see
// canopy_unit_router_input_tb.sv), whose requests always win. For every lookahead port
// L = 0..15 in turn, each link input p gets a two-flit PUT on P2P_LO whose header names L:
//   - L allowed from p (straight on, a later dimension, the host, or the collective port
//     for a broadcast request at its root): the destination is chosen so that this router's
//     own dimension-order route is L (the input's simulation-only assertion checks the
//     lookahead against it). Expected: no refusal, a request for exactly output L, won.
//   - L not allowed (back out of p, an earlier dimension, or no output at all): expected:
//     one bad-destination refusal, no request ever.
// Either way both flits' credits come back (the VC is free again). The local input gets a
// PUT to itself whose lookahead field holds L, which it must ignore (it routes locally).
#include <cstdint>

#include "Vtb.h"
#include "unit_common.hpp"

namespace {

using canopy_unit::UnitTest;
using canopy_unit::get_field;
using canopy_unit::set_field;

constexpr unsigned kNumCfg   = 7;   // ports 0..5 links, 6 local
constexpr unsigned kDims     = 3;
constexpr unsigned kLinks    = 2 * kDims;
constexpr unsigned kLocal    = 2 * kDims;
constexpr unsigned kColl     = 2 * kDims + 1;
constexpr unsigned kNumOut   = 2 * kDims + 2;
constexpr unsigned kNumVcs   = 4;
constexpr unsigned kPortW    = 3;
constexpr unsigned kLinkW    = 6;   // canopy_pkg::CoordBits + 2
constexpr unsigned kSize     = 4;   // ring size per dimension
constexpr unsigned kMy       = 1;   // this router's coordinate in every dimension
constexpr unsigned kPktPut   = 1;
constexpr unsigned kPktBreq  = 3;   // PKT_BCAST_REQ
constexpr unsigned kWindow   = 16;  // cycles a packet is watched for
constexpr uint64_t kMaxTicks = 10000;

// The rule under test, written from the routing's definition (docs/router.md).
bool allowed(unsigned in, unsigned out) {
    if (out >= kNumOut) return false;
    if (in >= kLinks || out >= kLinks) return true;
    if (out / 2 == in / 2) return out == (in ^ 1u);
    return out / 2 > in / 2;
}

// A destination for which dimension-order routing at (1,1,1) takes link output `out`,
// or arrives (the host, or a broadcast request's root) when `out` is not a link.
unsigned dst_for(unsigned out) {
    unsigned c[kDims] = {kMy, kMy, kMy};
    if (out < kLinks) c[out / 2] = (out % 2 == 0) ? kMy + 1 : kMy - 1;  // + or - by one hop
    unsigned dst = 0;
    for (unsigned d = 0; d < kDims; d++) dst |= c[d] << (4 * d);
    return dst;
}

uint64_t head_word(unsigned ptype, unsigned dst, unsigned la_port) {
    return static_cast<uint64_t>(ptype) | static_cast<uint64_t>(dst) << 8 |
           static_cast<uint64_t>(kMy | kMy << 4 | kMy << 8) << 24 |  // src: this node
           static_cast<uint64_t>(la_port) << 55;                      // len 0, la_hi 0
}

class RouterInputTest {
  public:
    RouterInputTest() : t_("router_input", kMaxTicks), tb_(t_.context()) {}

    void run() {
        setup();
        for (unsigned la = 0; la < 16; la++) packet_round(la);
        t_.pass();
    }

  private:
    struct Watch {
        bool ok = false;       // expected to be taken
        unsigned out = 0;      // its output if taken
        unsigned bad_dst = 0, bad_other = 0, credits = 0, req_cycles = 0, won = 0;
    };

    void setup() {
        tb_.my_coord_i = kMy | kMy << 4 | kMy << 8;
        for (unsigned d = 0; d < 4; d++)
            set_field(tb_.torus_size_i, 5 * d, 5, d < kDims ? kSize : 1);
        // Per link port, as canopy_router computes it: {my_cross, nbr_cross, nbr}.
        uint64_t link = 0;
        for (unsigned p = 0; p < kLinks; p++) {
            const bool plus = p % 2 == 0;
            const unsigned nbr = plus ? kMy + 1 : kMy - 1;
            const unsigned my_cross = plus ? kMy == kSize - 1 : kMy == 0;
            const unsigned nbr_cross = plus ? nbr == kSize - 1 : nbr == 0;
            link |= static_cast<uint64_t>(nbr | nbr_cross << 4 | my_cross << 5) << (kLinkW * p);
        }
        tb_.link_i = link;
        tb_.rst_i = 1;
        for (int i = 0; i < 3; i++) clock();
        tb_.rst_i = 0;
    }

    void clock() {
        tb_.clk_i = 0;
        tb_.eval();
        tb_.clk_i = 1;
        tb_.eval();
        t_.tick();
    }

    void packet_round(unsigned la) {
        Watch w[kNumCfg];
        uint64_t head[kNumCfg];
        for (unsigned k = 0; k < kNumCfg; k++) {
            const bool link = k < kLinks;
            w[k].ok  = link ? allowed(k, la) : true;
            w[k].out = link ? la : kLocal;
            unsigned dst = dst_for(w[k].ok ? w[k].out : kLocal);
            unsigned ptype = (link && w[k].ok && la == kColl) ? kPktBreq : kPktPut;
            head[k] = head_word(ptype, dst, la);
        }
        for (unsigned f = 0; f < 2 + kWindow; f++) {
            for (unsigned k = 0; k < kNumCfg; k++) {
                set_field(tb_.rx_valid_i, k, 1, f < 2);
                set_field(tb_.rx_last_i, k, 1, f == 1);
                set_field(tb_.rx_vc_i, 2 * k, 2, 0);  // P2P_LO
                set_field(tb_.rx_flit_i, 64 * k, 64, f == 0 ? head[k] : 0);
            }
            tb_.clk_i = 0;
            tb_.eval();
            observe(w);
            tb_.clk_i = 1;
            tb_.eval();
            t_.tick();
        }
        for (unsigned k = 0; k < kNumCfg; k++) verdict(k, la, w[k]);
    }

    // The outputs of the cycle about to end.
    void observe(Watch *w) {
        for (unsigned k = 0; k < kNumCfg; k++) {
            Watch &x = w[k];
            const uint64_t tgt = get_field(tb_.req_tgt_o, kNumOut * k, kNumOut);
            if (tgt != 0) {
                x.req_cycles++;
                if (!x.ok)
                    t_.fail("port %u: a request (outputs 0x%" PRIx64 ") for a refused packet", k, tgt);
                if (tgt != uint64_t{1} << x.out || get_field(tb_.req_port_o, kPortW * k, kPortW) != x.out)
                    t_.fail("port %u: request for outputs 0x%" PRIx64 " (port %" PRIu64 "), expected output %u",
                            k, tgt, get_field(tb_.req_port_o, kPortW * k, kPortW), x.out);
            }
            x.won += static_cast<unsigned>(get_field(tb_.won_o, k, 1));
            x.bad_dst += static_cast<unsigned>(get_field(tb_.err_bad_dst_o, k, 1));
            x.bad_other += static_cast<unsigned>(get_field(tb_.err_bad_type_o, k, 1) +
                                                 get_field(tb_.err_bad_len_o, k, 1));
            const uint64_t cr = get_field(tb_.credit_o, kNumVcs * k, kNumVcs);
            if (cr & ~uint64_t{1}) t_.fail("port %u: a credit returned on a VC never used (0x%" PRIx64 ")", k, cr);
            x.credits += static_cast<unsigned>(cr & 1u);
        }
    }

    void verdict(unsigned k, unsigned la, const Watch &x) {
        if (x.bad_other != 0)
            t_.fail("port %u, lookahead %u: refused for its type or length", k, la);
        if (x.ok && (x.bad_dst != 0 || x.won != 2))
            t_.fail("port %u, lookahead %u: allowed, but refused %u times and won %u of 2 flits",
                    k, la, x.bad_dst, x.won);
        if (!x.ok && (x.bad_dst != 1 || x.req_cycles != 0))
            t_.fail("port %u, lookahead %u: not allowed, but refused %u times and requested %u cycles",
                    k, la, x.bad_dst, x.req_cycles);
        if (x.credits != 2)
            t_.fail("port %u, lookahead %u: %u of 2 credits came back", k, la, x.credits);
    }

    UnitTest t_;
    Vtb tb_;
};

}  // namespace

int main(int argc, char **argv) {
    Verilated::commandArgs(argc, argv);
    RouterInputTest().run();
}
