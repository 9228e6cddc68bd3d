// pcie_host.hpp: one node's host, as the device sees it across PCIe.
//
// Plays both AXI roles a PCIe-to-AXI bridge would on a board:
//   - MMIO: the PE's posted writes and non-posted reads of BAR0 become AXI4 bursts on the
//     node's slave port, after the modeled host-to-device latency; writes are split at
//     256 bytes (one TLP of the common max payload), and a read is issued only after every
//     earlier write has been answered (PCIe: reads do not pass posted writes).
//   - DMA: the node's master port writes land in the PE's host memory (its arena) after the
//     modeled device-to-memory latency, in order; the bridge answers each burst once it has
//     taken the last beat (posted writes complete at the bridge). The master's reads (the
//     device serving gets and atomics) return their data after the modeled read round trip,
//     in order, with their ARID as RID, one beat per cycle, read from host memory as each beat is returned; a read never
//     returns before every DMA write accepted ahead of it has landed (PCIe: a read request
//     does not pass posted writes). At most kMaxReadBursts read bursts are accepted at once
//     (a bridge's read tags); ARREADY is low beyond that.
// Every handshake follows AXI: valid stays up until ready, payload stable meanwhile.
// A DMA write or read outside the PE's host memory is a device bug (an IOMMU fault on a
// board): it is dropped (a read returns zeros) and reported as a simulation error.
// Refused ranges (--dma-fault, set_fault): parts of the PE's registered DMA window (offsets
// from WIN_BASE as the host last wrote it) that the bridge refuses, as a board's IOMMU or
// bridge refuses an unmapped page: a write burst that touches one is answered
// SLVERR and none of its beats lands; a read burst that touches one returns zeros with
// SLVERR on every beat. That is the device's input to handle, not a simulation error.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

class Vcanopy_node_tile;

namespace canopy {

struct PcieTiming {
    unsigned mmio_write_cycles;  // PE store -> AW at the device
    unsigned mmio_read_cycles;   // one way; a read round trip costs twice this
    unsigned dma_write_cycles;   // W beat at the device -> visible in host memory
    unsigned bridge_b_cycles;    // last W beat -> B response
    unsigned dma_read_cycles;    // AR at the device -> first R beat (the read round trip)
    unsigned jitter_cycles = 0;  // extra delay of each MMIO write and DMA read, uniform in
                                 // [0, jitter_cycles], from a seeded splitmix64 per node
    uint64_t seed = 0;
};

class PcieHost {
public:
    using Model = Vcanopy_node_tile;
    PcieHost(Model &m, unsigned node, uint8_t *mem, uint64_t mem_bytes, uint64_t bus_base, const PcieTiming &t)
        : m_(m), node_(node), mem_(mem), mem_bytes_(mem_bytes), bus_base_(bus_base), t_(t),
          rng_(t.seed * 0x9e3779b97f4a7c15ull + node) {}

    // Queue a posted MMIO write (len a multiple of 8) at cycle `now`.
    void mmio_write(uint64_t now, uint32_t off, const uint8_t *data, uint32_t len);
    // Queue a read; read_done() tells when its value is back at the PE.
    void mmio_read(uint64_t now, uint32_t off);
    bool read_done(uint64_t now) const { return read_state_ == ReadState::Returned && now >= read_return_at_; }
    uint64_t take_read_value() { read_state_ = ReadState::Idle; return read_value_; }

    void drive(uint64_t now);   // before the clock edge
    void sample(uint64_t now);  // after the clock edge

    // Bus activity since the last take_activity() (--activity): beats that moved and beats
    // that were offered but waited, on the MMIO write channel (host to device) and the
    // DMA write and read data channels (device to host memory and back).
    struct Activity {
        uint64_t mmio_w = 0, mmio_w_wait = 0, dma_w = 0, dma_w_wait = 0, dma_r = 0;
        bool any() const { return mmio_w || mmio_w_wait || dma_w || dma_w_wait || dma_r; }
    };
    Activity take_activity() { Activity a = activity_; activity_ = {}; return a; }

    // Refuse DMA to [off, off + bytes) of the DMA window (offsets from WIN_BASE).
    void set_fault(uint64_t off, uint64_t bytes) { faults_.emplace_back(off, bytes); }
    uint64_t refused_writes() const { return refused_writes_; }  // write bursts answered SLVERR
    uint64_t refused_reads() const { return refused_reads_; }    // read bursts answered SLVERR

    bool busy() const;                   // anything in flight, either direction
    uint64_t last_activity() const { return last_activity_; }
    uint64_t writes_applied() const { return writes_applied_; }  // DMA write beats landed in host memory
    const std::vector<std::string> &errors() const { return errors_; }

private:
    struct Burst {
        bool write;
        uint32_t off;
        std::vector<uint64_t> words;
        uint64_t ready_at;
    };
    struct DmaBeat {
        uint64_t apply_at, addr, data;
        uint8_t strb;
        bool refused;      // its burst touched a refused range: it never lands
    };
    struct ReadBurst {
        uint64_t addr;     // next beat's address
        unsigned left;     // beats still to return
        uint64_t due;      // first cycle its data may return
        unsigned id;       // ARID, returned as RID
        bool refused;      // zeros with SLVERR
    };
    struct DmaAw {
        uint64_t addr;     // next beat's address
        unsigned left;     // beats still to come
        bool refused;
    };
    bool refused(uint64_t addr, unsigned beats) const;
    enum class ReadState { Idle, Queued, Issued, Returned };

    void apply_dma(uint64_t now);
    uint64_t read_mem(uint64_t addr);

    Model &m_;
    unsigned node_;
    uint8_t *mem_;
    uint64_t mem_bytes_, bus_base_;
    PcieTiming t_;

    // MMIO (host -> device)
    std::deque<Burst> mmio_q_;
    size_t aw_ahead_ = 0;  // bursts at the queue's front whose address the slave has taken
    size_t w_beat_ = 0;
    unsigned writes_unanswered_ = 0;
    ReadState read_state_ = ReadState::Idle;
    uint64_t read_value_ = 0, read_return_at_ = 0;
    bool ar_sent_ = false;

    // DMA (device -> host)
    std::deque<DmaAw> dma_aw_;
    uint64_t dma_next_addr_ = 0;
    std::deque<DmaBeat> dma_beats_;
    std::deque<std::pair<uint64_t, unsigned>> b_due_;  // (when, BRESP)
    std::vector<std::pair<uint64_t, uint64_t>> faults_;  // refused (offset, bytes)
    uint64_t refused_writes_ = 0, refused_reads_ = 0;
    uint64_t win_base_ = 0;  // WIN_BASE as the host wrote it (0: none yet)
    uint64_t last_write_apply_ = 0;     // when the newest accepted write beat lands
    std::deque<ReadBurst> reads_;

    Activity activity_;
    uint64_t jitter();  // 0 .. jitter_cycles (0 without jitter)
    uint64_t rng_;
    uint64_t last_mmio_at_ = 0;  // posted writes stay in order under jitter
    uint64_t last_activity_ = 0;
    uint64_t writes_applied_ = 0;
    std::vector<std::string> errors_;
};

}  // namespace canopy
