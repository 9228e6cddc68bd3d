// vl_bits.hpp: read and write bit fields of Verilated ports.
//
// Verilator maps a packed port to CData/SData/IData/QData (<= 64 bits) or VlWide<N>
// (32-bit words). The router fabric's harness reads and writes a flit's 64-bit words by bit
// position; these helpers do that for either representation, so the harness never depends on
// how wide a particular build's flits happen to be.
#pragma once

#include <cstdint>
#include <type_traits>

#include "verilated.h"

namespace canopy {

template <typename T, typename = std::enable_if_t<std::is_integral_v<T>>>
inline uint64_t get_bits(const T &sig, unsigned lsb, unsigned width) {
    uint64_t v = static_cast<uint64_t>(sig) >> lsb;
    return width >= 64 ? v : v & ((uint64_t{1} << width) - 1);
}

template <typename T, typename = std::enable_if_t<std::is_integral_v<T>>>
inline void put_bits(T &sig, unsigned lsb, unsigned width, uint64_t v) {
    uint64_t mask = (width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1) << lsb;
    uint64_t cur = static_cast<uint64_t>(sig);
    sig = static_cast<T>((cur & ~mask) | ((v << lsb) & mask));
}

template <std::size_t N>
inline uint64_t get_bits(const VlWide<N> &sig, unsigned lsb, unsigned width) {
    if (lsb % 32 == 0 && width == 64) {
        return static_cast<uint64_t>(sig[lsb / 32]) | (static_cast<uint64_t>(sig[lsb / 32 + 1]) << 32);
    }
    uint64_t v = 0;
    for (unsigned i = 0; i < width; ++i) {
        unsigned b = lsb + i;
        v |= static_cast<uint64_t>((sig[b / 32] >> (b % 32)) & 1u) << i;
    }
    return v;
}

template <std::size_t N>
inline void put_bits(VlWide<N> &sig, unsigned lsb, unsigned width, uint64_t v) {
    if (lsb % 32 == 0 && width == 64) {
        sig[lsb / 32] = static_cast<uint32_t>(v);
        sig[lsb / 32 + 1] = static_cast<uint32_t>(v >> 32);
        return;
    }
    for (unsigned i = 0; i < width; ++i) {
        unsigned b = lsb + i;
        uint32_t bit = (v >> i) & 1u;
        sig[b / 32] = (sig[b / 32] & ~(1u << (b % 32))) | (bit << (b % 32));
    }
}

}  // namespace canopy
