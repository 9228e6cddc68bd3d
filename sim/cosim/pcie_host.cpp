// pcie_host.cpp: see pcie_host.hpp.
#include "pcie_host.hpp"

#include <cstdio>
#include <cstring>

#include "Vcanopy_node_fabric.h"
#include "vl_bits.hpp"

namespace canopy {

namespace {
constexpr unsigned kMaxBurstWords = 32;  // 256 bytes: one TLP at the usual max payload
constexpr unsigned kAxiSize8 = 3;        // AxSIZE for 8-byte beats
constexpr unsigned kAxiIncr = 1;
constexpr size_t kMaxReadBursts = 32;    // read tags of the bridge
}  // namespace

uint64_t PcieHost::jitter() {
    if (!t_.jitter_cycles) return 0;
    uint64_t z = (rng_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return (z ^ (z >> 31)) % (uint64_t{t_.jitter_cycles} + 1);
}

void PcieHost::mmio_write(uint64_t now, uint32_t off, const uint8_t *data, uint32_t len) {
    for (uint32_t done = 0; done < len; done += 8 * kMaxBurstWords) {
        uint32_t n = std::min<uint32_t>(kMaxBurstWords, (len - done) / 8);
        last_mmio_at_ = std::max(last_mmio_at_, now + t_.mmio_write_cycles + jitter());
        Burst b{true, off + done, std::vector<uint64_t>(n), last_mmio_at_};
        std::memcpy(b.words.data(), data + done, 8 * n);
        mmio_q_.push_back(std::move(b));
    }
}

void PcieHost::mmio_read(uint64_t now, uint32_t off) {
    last_mmio_at_ = std::max(last_mmio_at_, now + t_.mmio_read_cycles);
    mmio_q_.push_back(Burst{false, off, {}, last_mmio_at_});
    read_state_ = ReadState::Queued;
}

bool PcieHost::busy() const {
    return !mmio_q_.empty() || writes_unanswered_ || read_state_ != ReadState::Idle || !dma_aw_.empty() ||
           !dma_beats_.empty() || !b_due_.empty() || !reads_.empty();
}

void PcieHost::drive(uint64_t now) {
    const unsigned n = node_;
    // MMIO toward the device's slave port.
    bool aw = false, w = false, ar = false;
    if (!mmio_q_.empty() && now >= mmio_q_.front().ready_at) {
        const Burst &b = mmio_q_.front();
        if (b.write) {
            aw = !aw_sent_;
            w = aw_sent_;
            put_bits(m_.s_axi_awaddr_i, 16 * n, 16, b.off);
            put_bits(m_.s_axi_awlen_i, 8 * n, 8, b.words.size() - 1);
            put_bits(m_.s_axi_awsize_i, 3 * n, 3, kAxiSize8);
            put_bits(m_.s_axi_awburst_i, 2 * n, 2, kAxiIncr);
            if (w) {
                put_bits(m_.s_axi_wdata_i, 64 * n, 64, b.words[w_beat_]);
                put_bits(m_.s_axi_wstrb_i, 8 * n, 8, 0xff);
                put_bits(m_.s_axi_wlast_i, n, 1, w_beat_ + 1 == b.words.size());
            }
        } else if (writes_unanswered_ == 0) {
            ar = !ar_sent_;
            put_bits(m_.s_axi_araddr_i, 16 * n, 16, b.off);
            put_bits(m_.s_axi_arlen_i, 8 * n, 8, 0);
            put_bits(m_.s_axi_arsize_i, 3 * n, 3, kAxiSize8);
            put_bits(m_.s_axi_arburst_i, 2 * n, 2, kAxiIncr);
        }
    }
    put_bits(m_.s_axi_awvalid_i, n, 1, aw);
    put_bits(m_.s_axi_wvalid_i, n, 1, w);
    put_bits(m_.s_axi_arvalid_i, n, 1, ar);
    put_bits(m_.s_axi_bready_i, n, 1, 1);
    put_bits(m_.s_axi_rready_i, n, 1, 1);

    // DMA from the device's master port: always ready for an address, ready for data once
    // an address is in, responses when due.
    apply_dma(now);
    put_bits(m_.m_axi_awready_i, n, 1, 1);
    put_bits(m_.m_axi_wready_i, n, 1, !dma_aw_.empty());
    put_bits(m_.m_axi_bvalid_i, n, 1, !b_due_.empty() && now >= b_due_.front());
    put_bits(m_.m_axi_bresp_i, 2 * n, 2, 0);

    // DMA reads: an address while tags are free, data of the oldest burst once due.
    put_bits(m_.m_axi_arready_i, n, 1, reads_.size() < kMaxReadBursts);
    const bool r = !reads_.empty() && now >= reads_.front().due;
    put_bits(m_.m_axi_rvalid_i, n, 1, r);
    put_bits(m_.m_axi_rdata_i, 64 * n, 64, r ? read_mem(reads_.front().addr) : 0);
    put_bits(m_.m_axi_rlast_i, n, 1, r && reads_.front().left == 1);
    put_bits(m_.m_axi_rid_i, 4 * n, 4, r ? reads_.front().id : 0);
    put_bits(m_.m_axi_rresp_i, 2 * n, 2, 0);
}

uint64_t PcieHost::read_mem(uint64_t addr) {
    if (addr < bus_base_ || addr - bus_base_ + 8 > mem_bytes_) {
        char msg[96];
        std::snprintf(msg, sizeof msg, "DMA read of bus address 0x%llx outside host memory",
                      static_cast<unsigned long long>(addr));
        errors_.push_back(msg);
        return 0;
    }
    uint64_t v;
    std::memcpy(&v, mem_ + (addr - bus_base_), sizeof v);
    return v;
}

void PcieHost::sample(uint64_t now) {
    const unsigned n = node_;
    auto fire = [&](const auto &valid, const auto &ready) {
        return get_bits(valid, n, 1) && get_bits(ready, n, 1);
    };
    // MMIO handshakes.
    if (fire(m_.s_axi_awvalid_i, m_.s_axi_awready_o)) aw_sent_ = true, last_activity_ = now;
    if (fire(m_.s_axi_wvalid_i, m_.s_axi_wready_o)) {
        last_activity_ = now;
        if (++w_beat_ == mmio_q_.front().words.size()) {
            mmio_q_.pop_front();
            aw_sent_ = false;
            w_beat_ = 0;
            ++writes_unanswered_;
        }
    }
    if (fire(m_.s_axi_bvalid_o, m_.s_axi_bready_i)) {
        last_activity_ = now;
        if (writes_unanswered_ == 0) errors_.push_back("BAR0 write response without a write");
        else --writes_unanswered_;
    }
    if (fire(m_.s_axi_arvalid_i, m_.s_axi_arready_o)) ar_sent_ = true, last_activity_ = now;
    if (fire(m_.s_axi_rvalid_o, m_.s_axi_rready_i)) {
        last_activity_ = now;
        if (read_state_ != ReadState::Queued || !ar_sent_) {
            errors_.push_back("BAR0 read data without a read");
        } else {
            read_value_ = get_bits(m_.s_axi_rdata_o, 64 * n, 64);
            read_return_at_ = now + t_.mmio_read_cycles;
            read_state_ = ReadState::Returned;
            ar_sent_ = false;
            mmio_q_.pop_front();
            if (!get_bits(m_.s_axi_rlast_o, n, 1)) errors_.push_back("single-beat BAR0 read without RLAST");
        }
    }
    // DMA handshakes.
    if (fire(m_.m_axi_awvalid_o, m_.m_axi_awready_i)) {
        last_activity_ = now;
        uint64_t addr = get_bits(m_.m_axi_awaddr_o, 64 * n, 64);
        unsigned beats = static_cast<unsigned>(get_bits(m_.m_axi_awlen_o, 8 * n, 8)) + 1;
        if (get_bits(m_.m_axi_awsize_o, 3 * n, 3) != kAxiSize8 || get_bits(m_.m_axi_awburst_o, 2 * n, 2) != kAxiIncr)
            errors_.push_back("DMA burst is not INCR of 8-byte beats");
        if ((addr & ~uint64_t{0xfff}) != ((addr + 8 * beats - 1) & ~uint64_t{0xfff}))
            errors_.push_back("DMA burst crosses a 4 KiB boundary");
        dma_aw_.emplace_back(addr & ~uint64_t{7}, beats);
    }
    if (fire(m_.m_axi_wvalid_o, m_.m_axi_wready_i)) {
        last_activity_ = now;
        auto &[addr, left] = dma_aw_.front();
        dma_beats_.push_back(DmaBeat{now + t_.dma_write_cycles, addr, get_bits(m_.m_axi_wdata_o, 64 * n, 64),
                                     static_cast<uint8_t>(get_bits(m_.m_axi_wstrb_o, 8 * n, 8))});
        last_write_apply_ = now + t_.dma_write_cycles;
        addr += 8;
        bool last = get_bits(m_.m_axi_wlast_o, n, 1);
        if ((--left == 0) != last) errors_.push_back("DMA WLAST does not match AWLEN");
        if (left == 0) {
            dma_aw_.pop_front();
            b_due_.push_back(now + t_.bridge_b_cycles);
        }
    }
    if (fire(m_.m_axi_bvalid_i, m_.m_axi_bready_o)) b_due_.pop_front();
    if (fire(m_.m_axi_arvalid_o, m_.m_axi_arready_i)) {
        last_activity_ = now;
        uint64_t addr = get_bits(m_.m_axi_araddr_o, 64 * n, 64);
        unsigned beats = static_cast<unsigned>(get_bits(m_.m_axi_arlen_o, 8 * n, 8)) + 1;
        if (get_bits(m_.m_axi_arsize_o, 3 * n, 3) != kAxiSize8 || get_bits(m_.m_axi_arburst_o, 2 * n, 2) != kAxiIncr)
            errors_.push_back("DMA read burst is not INCR of 8-byte beats");
        if ((addr & 7) || (addr & ~uint64_t{0xfff}) != ((addr + 8 * beats - 1) & ~uint64_t{0xfff}))
            errors_.push_back("DMA read burst unaligned or across a 4 KiB boundary");
        // Not before the writes accepted ahead of it have landed (they are in dma_beats_).
        reads_.push_back(ReadBurst{addr & ~uint64_t{7}, beats,
                                   std::max(now + t_.dma_read_cycles + jitter(), last_write_apply_ + 1),
                                   static_cast<unsigned>(get_bits(m_.m_axi_arid_o, 4 * n, 4))});
    }
    if (fire(m_.m_axi_rvalid_i, m_.m_axi_rready_o)) {
        last_activity_ = now;
        ReadBurst &b = reads_.front();
        b.addr += 8;
        if (--b.left == 0) reads_.pop_front();
    }
}

void PcieHost::apply_dma(uint64_t now) {
    while (!dma_beats_.empty() && dma_beats_.front().apply_at <= now) {
        const DmaBeat &b = dma_beats_.front();
        if (b.addr < bus_base_ || b.addr - bus_base_ + 8 > mem_bytes_) {
            char msg[96];
            std::snprintf(msg, sizeof msg, "DMA write to bus address 0x%llx outside host memory",
                          static_cast<unsigned long long>(b.addr));
            errors_.push_back(msg);
        } else {
            uint8_t *p = mem_ + (b.addr - bus_base_);
            for (unsigned i = 0; i < 8; ++i)
                if ((b.strb >> i) & 1) p[i] = static_cast<uint8_t>(b.data >> (8 * i));
            ++writes_applied_;
        }
        dma_beats_.pop_front();
    }
}

}  // namespace canopy
