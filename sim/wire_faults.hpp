// wire_faults.hpp: what a simulated wire does to the words it carries (docs/link.md):
// random bit errors, error bursts, dropped words, and death.
//
// A WireFaults acts on one direction of one link, word by word, through two callbacks:
// flip(bit) inverts a bit of the word (0..bits-1; the caller's layout, side band included,
// so idle words are hit too), and drop() makes the word an idle one. It is seeded and
// deterministic: the same options and seed give the same errors in the same places.
//   - ber: each bit flips independently with this probability (gaps drawn geometrically,
//     so a low rate costs nothing per word).
//   - burst_rate / burst_len: a burst starts at a bit with this probability and covers
//     burst_len bits, possibly into the next words: its first and last bits flip, each
//     one between with probability 1/2. A burst that starts while another is still
//     running takes its place.
//   - drop: a valid word is lost whole (the receiver sees an idle cycle).
//   - dead_at: from this word on (counted from 1), nothing arrives (0: never).
#pragma once

#include <cmath>
#include <cstdint>

#include "rng.hpp"

namespace canopy {

struct FaultOptions {
    double ber = 0, burst_rate = 0, drop = 0;
    unsigned burst_len = 16;
    uint64_t dead_at = 0;
    bool any() const { return ber > 0 || burst_rate > 0 || drop > 0 || dead_at > 0; }
};

class WireFaults {
  public:
    WireFaults(const FaultOptions &o, unsigned bits, uint64_t seed)
        : o_(o), bits_(bits), rng_(seed) {
        next_flip_ = gap(o_.ber);
        next_burst_ = gap(o_.burst_rate);
    }

    // The wire dies at word w (counted from 1, as dead_at): one link of a run (--dead-link).
    void set_dead_at(uint64_t w) { o_.dead_at = w; }

    // One word on the wire. valid: whether it carries anything (a drop needs one).
    template <class Flip, class Drop>
    void apply(bool valid, Flip &&flip, Drop &&drop) {
        words_++;
        if (o_.dead_at != 0 && words_ >= o_.dead_at) {
            if (valid) drop();
            return;
        }
        bool hit = false;
        if (o_.ber > 0) {
            while (next_flip_ < bits_) {
                flip(static_cast<unsigned>(next_flip_));
                bits_flipped++;
                hit = true;
                next_flip_ += 1 + gap(o_.ber);
            }
            next_flip_ -= bits_;
        }
        if (o_.burst_rate > 0) {
            unsigned from = 0;
            while (next_burst_ < bits_) {
                burst_left_ = o_.burst_len;
                from = static_cast<unsigned>(next_burst_);
                next_burst_ += 1 + gap(o_.burst_rate);
            }
            next_burst_ -= bits_;
            for (unsigned b = from; burst_left_ > 0 && b < bits_; b++, burst_left_--) {
                if (burst_left_ == o_.burst_len || burst_left_ == 1 || (rng_.next() & 1)) {
                    flip(b);
                    bits_flipped++;
                    hit = true;
                }
            }
        }
        if (valid && o_.drop > 0 && uniform() < o_.drop) {
            drop();
            words_dropped++;
            hit = true;
        }
        words_hit += hit;
    }

    uint64_t bits_flipped = 0, words_hit = 0, words_dropped = 0;

  private:
    double uniform() { return (static_cast<double>(rng_.next() >> 11) + 0.5) / 9007199254740992.0; }
    // Bits before the next event of probability p per bit.
    uint64_t gap(double p) {
        if (p <= 0) return UINT64_MAX / 2;
        if (p >= 1) return 0;
        return static_cast<uint64_t>(std::floor(std::log(uniform()) / std::log1p(-p)));
    }

    FaultOptions o_;
    uint64_t bits_;
    Rng rng_;
    uint64_t words_ = 0, next_flip_ = 0, next_burst_ = 0;
    unsigned burst_left_ = 0;
};

}  // namespace canopy
