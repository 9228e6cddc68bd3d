// grant_fifo_test.cpp: unit test of canopy_grant_fifo against a queue model.
//
// Why: the collective unit's send lanes offer every broadcast flit to the router's switch
// allocator from one; a flit lost, repeated or reordered there corrupts a broadcast, a
// bubble costs link rate, and an output that follows the late grant within its cycle
// breaks the timing the block exists for.
//
// What: a random producer (each push announced a cycle ahead on push_next_i, and only
// while the queue has room whatever the grant in between, as the send lanes' accounting
// guarantees; garbage on the data lines otherwise) and a random grant (only while a word is offered, as an allocator grants), in
// phases of different mixes. Every cycle, before the edge: out_valid_o is "a word held
// that was not granted last cycle, or, the cycle after a grant that left none, a word
// pushed now", out_data_o the oldest such word; taken_o / taken_tag_o report last cycle's
// grant and the top 8 bits of its word, out_side_o bits 7..3 of the word offered; and no
// output moves when grant_i flips within the cycle. Under back-to-back grants and pushes a
// word leaves every cycle. Fails unless the queue was seen full, empty, streaming and
// bypassing many times.
#include <deque>

#include "Vtb.h"
#include "unit_common.hpp"

namespace {

using canopy_unit::Rng;
using canopy_unit::UnitTest;

constexpr uint64_t kSeed     = 0x9a47f1f000000001ull;
constexpr uint64_t kCycles   = 40000;
constexpr uint64_t kPhase    = 150;
constexpr unsigned kDepth    = 4;
constexpr uint64_t kMinCover = 200;

struct Mix {
    unsigned push, grant;  // percent per cycle
};
constexpr Mix kMixes[] = {{100, 100}, {100, 0}, {0, 100}, {50, 50}, {90, 30}, {30, 90}};

class GrantFifoTest {
  public:
    GrantFifoTest() : t_("grant_fifo", kCycles + 16), tb_(t_.context()), rng_(kSeed) {}

    void run() {
        tb_.rst_i = 1;
        tb_.push_i = 0;
        tb_.push_next_i = 0;
        tb_.grant_i = 0;
        for (int i = 0; i < 2; i++) edge();
        tb_.rst_i = 0;
        Mix mix = kMixes[0];
        for (uint64_t c = 0; c < kCycles; c++) {
            if (c % kPhase == 0) mix = kMixes[rng_.below(sizeof kMixes / sizeof kMixes[0])];
            cycle(mix);
        }
        if (full_ < kMinCover || empty_ < kMinCover || stream_ < kMinCover || bypassed_ < kMinCover)
            t_.fail("coverage too low: full %llu, empty %llu, a word every cycle %llu, bypass %llu cycles",
                    (unsigned long long)full_, (unsigned long long)empty_, (unsigned long long)stream_,
                    (unsigned long long)bypassed_);
        t_.pass();
    }

  private:
    void edge() { clock_edge(tb_, t_); }

    unsigned long long now() const { return (unsigned long long)t_.ticks(); }

    void cycle(const Mix &mix) {
        // The word granted last cycle leaves at this edge.
        if (granted_) model_.pop_front();
        const size_t n = model_.size();
        // This cycle's push was decided last cycle (push_next_i); next cycle's now, with
        // room for it whatever this cycle's grant (the owners' accounting is as cautious).
        const bool push = push_next_;
        const uint64_t word = rng_.next();
        push_next_ = n + push < kDepth && rng_.chance(mix.push);
        tb_.push_i = push;
        tb_.push_next_i = push_next_;
        tb_.push_data_i = word;
        // Offered: the oldest word held, or (the cycle after a grant that left none) the
        // word pushed now.
        const bool bypass = granted_ && n == 0 && push;
        const bool offered = n > 0 || bypass;
        const uint64_t front = n > 0 ? model_.front() : word;
        const bool grant = offered && rng_.chance(mix.grant);

        // Outputs with grant_i at the other value first: they must not move.
        tb_.grant_i = offered && !grant;
        tb_.clk_i = 0;
        tb_.eval();
        const bool v0 = tb_.out_valid_o;
        const uint64_t d0 = tb_.out_data_o;
        const unsigned s0 = tb_.out_side_o;
        tb_.grant_i = grant;
        tb_.eval();
        if (tb_.out_valid_o != v0 || (v0 && (tb_.out_data_o != d0 || tb_.out_side_o != s0)))
            t_.fail("cycle %llu: an output follows grant_i in the same cycle", now());

        if (bool(tb_.taken_o) != granted_) t_.fail("cycle %llu: taken_o %d, expected %d", now(), tb_.taken_o, granted_);
        if (granted_ && tb_.taken_tag_o != (taken_ >> 56))
            t_.fail("cycle %llu: taken_tag_o %02x, expected %02llx", now(), tb_.taken_tag_o,
                    (unsigned long long)(taken_ >> 56));
        if (bool(tb_.out_valid_o) != offered)
            t_.fail("cycle %llu: out_valid_o %d with %zu words held (bypass %d)", now(), tb_.out_valid_o, n, bypass);
        if (offered && tb_.out_data_o != front)
            t_.fail("cycle %llu: out_data_o %016llx, expected %016llx", now(),
                    (unsigned long long)tb_.out_data_o, (unsigned long long)front);
        if (offered && tb_.out_side_o != ((front >> 3) & 0x1f))
            t_.fail("cycle %llu: out_side_o %02x, expected %02llx (bits 7..3 of the word offered)", now(),
                    tb_.out_side_o, (unsigned long long)((front >> 3) & 0x1f));
        full_ += n == kDepth;
        empty_ += n == 0;
        stream_ += push && grant && granted_;
        bypassed_ += bypass;

        granted_ = grant;
        if (grant) taken_ = front;
        tb_.clk_i = 1;
        tb_.eval();
        t_.tick();
        if (push) model_.push_back(word);
    }

    UnitTest t_;
    Vtb tb_;
    Rng rng_;
    std::deque<uint64_t> model_;   // words held, the one offered first (granted_: leaving)
    bool granted_ = false;
    bool push_next_ = false;   // the push of the next cycle, announced on push_next_i
    uint64_t taken_ = 0;
    uint64_t full_ = 0, empty_ = 0, stream_ = 0, bypassed_ = 0;
};

}  // namespace

int main() {
    GrantFifoTest test;
    test.run();
}
