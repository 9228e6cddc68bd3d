// pcie_host.cpp: see pcie_host.hpp.
#include "pcie_host.hpp"

#include "canopy_regs.h"

#include <cstdio>
#include <cstring>

#include "Vcanopy_node_tile.h"

namespace canopy {

namespace {
constexpr unsigned kMaxBurstWords = 32;  // 256 bytes: one TLP at the usual max payload
constexpr unsigned kAxiSize8 = 3;        // AxSIZE for 8-byte beats
constexpr unsigned kAxiIncr = 1;
constexpr unsigned kAxiSlverr = 2;      // xRESP: the slave refused the access
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
    // The window's bus address, as the host registers it: refused ranges are set relative
    // to it (set_fault).
    if (off <= CANOPY_REG_WIN_BASE && off + len >= CANOPY_REG_WIN_BASE + 8)
        std::memcpy(&win_base_, data + (CANOPY_REG_WIN_BASE - off), sizeof win_base_);
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
    // MMIO toward the device's slave port. The address channel runs ahead of the data
    // channel (as a bridge's does): the next write burst's address is offered while the
    // front burst's beats stream, so the slave can take bursts back to back. A read waits
    // at the front until every write before it is answered (reads do not pass writes).
    bool aw = false, w = false, ar = false;
    if (aw_ahead_ < mmio_q_.size()) {
        const Burst &b = mmio_q_[aw_ahead_];
        if (b.write && now >= b.ready_at) {
            aw = true;
            m_.s_axi_awaddr_i = b.off;
            m_.s_axi_awlen_i = b.words.size() - 1;
            m_.s_axi_awsize_i = kAxiSize8;
            m_.s_axi_awburst_i = kAxiIncr;
        }
    }
    if (aw_ahead_ > 0) {
        const Burst &b = mmio_q_.front();
        w = true;
        m_.s_axi_wdata_i = b.words[w_beat_];
        m_.s_axi_wstrb_i = 0xff;
        m_.s_axi_wlast_i = w_beat_ + 1 == b.words.size();
    } else if (!mmio_q_.empty() && !mmio_q_.front().write && now >= mmio_q_.front().ready_at &&
               writes_unanswered_ == 0) {
        const Burst &b = mmio_q_.front();
        ar = !ar_sent_;
        m_.s_axi_araddr_i = b.off;
        m_.s_axi_arlen_i = 0;
        m_.s_axi_arsize_i = kAxiSize8;
        m_.s_axi_arburst_i = kAxiIncr;
    }
    m_.s_axi_awvalid_i = aw;
    m_.s_axi_wvalid_i = w;
    m_.s_axi_arvalid_i = ar;
    m_.s_axi_bready_i = 1;
    m_.s_axi_rready_i = 1;

    // DMA from the device's master port: always ready for an address, ready for data once
    // an address is in, responses when due.
    apply_dma(now);
    m_.m_axi_awready_i = 1;
    m_.m_axi_wready_i = !dma_aw_.empty();
    m_.m_axi_bvalid_i = !b_due_.empty() && now >= b_due_.front().first;
    m_.m_axi_bresp_i = b_due_.empty() ? 0 : b_due_.front().second;

    // DMA reads: an address while tags are free, data of the oldest burst once due.
    m_.m_axi_arready_i = reads_.size() < kMaxReadBursts;
    const bool r = !reads_.empty() && now >= reads_.front().due;
    m_.m_axi_rvalid_i = r;
    const bool r_refused = r && reads_.front().refused;
    m_.m_axi_rdata_i = r && !r_refused ? read_mem(reads_.front().addr) : 0;
    m_.m_axi_rlast_i = r && reads_.front().left == 1;
    m_.m_axi_rid_i = r ? reads_.front().id : 0;
    m_.m_axi_rresp_i = r_refused ? kAxiSlverr : 0;
}

bool PcieHost::refused(uint64_t addr, unsigned beats) const {
    if (!win_base_) return false;  // no window registered yet
    for (const auto &[off, bytes] : faults_) {
        const uint64_t lo = win_base_ + off, hi = lo + bytes;
        if (addr < hi && addr + 8ull * beats > lo) return true;
    }
    return false;
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
    auto fire = [](const auto &valid, const auto &ready) { return valid && ready; };
    auto wait = [](const auto &valid, const auto &ready) { return valid && !ready; };
    activity_.mmio_w += fire(m_.s_axi_wvalid_i, m_.s_axi_wready_o);
    activity_.mmio_w_wait += wait(m_.s_axi_wvalid_i, m_.s_axi_wready_o);
    activity_.dma_w += fire(m_.m_axi_wvalid_o, m_.m_axi_wready_i);
    activity_.dma_w_wait += wait(m_.m_axi_wvalid_o, m_.m_axi_wready_i);
    activity_.dma_r += fire(m_.m_axi_rvalid_i, m_.m_axi_rready_o);
    // MMIO handshakes.
    if (fire(m_.s_axi_awvalid_i, m_.s_axi_awready_o)) ++aw_ahead_, last_activity_ = now;
    if (fire(m_.s_axi_wvalid_i, m_.s_axi_wready_o)) {
        last_activity_ = now;
        if (++w_beat_ == mmio_q_.front().words.size()) {
            mmio_q_.pop_front();
            --aw_ahead_;
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
            read_value_ = m_.s_axi_rdata_o;
            read_return_at_ = now + t_.mmio_read_cycles;
            read_state_ = ReadState::Returned;
            ar_sent_ = false;
            mmio_q_.pop_front();
            if (!m_.s_axi_rlast_o) errors_.push_back("single-beat BAR0 read without RLAST");
        }
    }
    // DMA handshakes.
    if (fire(m_.m_axi_awvalid_o, m_.m_axi_awready_i)) {
        last_activity_ = now;
        uint64_t addr = m_.m_axi_awaddr_o;
        unsigned beats = static_cast<unsigned>(m_.m_axi_awlen_o) + 1;
        if (m_.m_axi_awsize_o != kAxiSize8 || m_.m_axi_awburst_o != kAxiIncr)
            errors_.push_back("DMA burst is not INCR of 8-byte beats");
        if ((addr & ~uint64_t{0xfff}) != ((addr + 8 * beats - 1) & ~uint64_t{0xfff}))
            errors_.push_back("DMA burst crosses a 4 KiB boundary");
        const bool no = refused(addr & ~uint64_t{7}, beats);
        refused_writes_ += no;
        dma_aw_.push_back(DmaAw{addr & ~uint64_t{7}, beats, no});
    }
    if (fire(m_.m_axi_wvalid_o, m_.m_axi_wready_i)) {
        last_activity_ = now;
        DmaAw &aw = dma_aw_.front();
        dma_beats_.push_back(DmaBeat{now + t_.dma_write_cycles, aw.addr, m_.m_axi_wdata_o,
                                     static_cast<uint8_t>(m_.m_axi_wstrb_o), aw.refused});
        last_write_apply_ = now + t_.dma_write_cycles;
        aw.addr += 8;
        bool last = m_.m_axi_wlast_o;
        if ((--aw.left == 0) != last) errors_.push_back("DMA WLAST does not match AWLEN");
        if (aw.left == 0) {
            b_due_.emplace_back(now + t_.bridge_b_cycles, aw.refused ? kAxiSlverr : 0u);
            dma_aw_.pop_front();
        }
    }
    if (fire(m_.m_axi_bvalid_i, m_.m_axi_bready_o)) b_due_.pop_front();
    if (fire(m_.m_axi_arvalid_o, m_.m_axi_arready_i)) {
        last_activity_ = now;
        uint64_t addr = m_.m_axi_araddr_o;
        unsigned beats = static_cast<unsigned>(m_.m_axi_arlen_o) + 1;
        if (m_.m_axi_arsize_o != kAxiSize8 || m_.m_axi_arburst_o != kAxiIncr)
            errors_.push_back("DMA read burst is not INCR of 8-byte beats");
        if ((addr & 7) || (addr & ~uint64_t{0xfff}) != ((addr + 8 * beats - 1) & ~uint64_t{0xfff}))
            errors_.push_back("DMA read burst unaligned or across a 4 KiB boundary");
        // Not before the writes accepted ahead of it have landed (they are in dma_beats_).
        const bool no = refused(addr & ~uint64_t{7}, beats);
        refused_reads_ += no;
        reads_.push_back(ReadBurst{addr & ~uint64_t{7}, beats,
                                   std::max(now + t_.dma_read_cycles + jitter(), last_write_apply_ + 1),
                                   static_cast<unsigned>(m_.m_axi_arid_o), no});
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
        if (b.refused) {
            // refused by the bridge: answered SLVERR, never written
        } else if (b.addr < bus_base_ || b.addr - bus_base_ + 8 > mem_bytes_) {
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
