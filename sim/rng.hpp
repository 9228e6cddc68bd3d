// rng.hpp: the one random-number generator of every C++ test and benchmark.
//
// splitmix64: small, fast, and the same sequence on every machine and compiler, so a
// seeded run is the same run everywhere.
#pragma once

#include <cstdint>

namespace canopy {

class Rng {
  public:
    explicit Rng(uint64_t seed) : s_(seed) {}
    uint64_t next() {
        uint64_t z = (s_ += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    // Uniform in [0, n).
    unsigned below(unsigned n) { return static_cast<unsigned>(next() % n); }
    // True with probability pct percent.
    bool chance(unsigned pct) { return below(100) < pct; }
    // The low `width` bits random, the rest 0.
    uint64_t bits(unsigned width) { return width >= 64 ? next() : next() & ((uint64_t{1} << width) - 1); }

  private:
    uint64_t s_;
};

}  // namespace canopy
