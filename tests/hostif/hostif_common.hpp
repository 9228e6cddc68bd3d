// hostif_common.hpp: what the host-interface tests (tests/hostif/*_test.cpp) share.
//
//   - Rng: splitmix64, the project's specified generator, so every run is the same run.
//   - Verdict: exactly one line, `PASS <name>` or `FAIL <name>: reason`, and the exit status;
//     the watchdog (a cycle limit and a no-progress limit); RTL assertions are fatal to the
//     test (the Verilator context does not abort, the test reports a FAIL line instead).
//   - HostMem: sparse byte-addressed host memory. Bytes never written read as a fixed
//     pattern of their address, and every byte write is counted, so a test can prove both
//     what was written and that nothing else was.
//   - AxiWriteSlave<Top>: the host memory's AXI4 write port as a PCIe root complex would
//     present it, with random backpressure on AW and W and random write-response delays
//     (responses in order). It checks the master's side of the protocol and canopy's
//     promises: INCR, 8-byte beats, at most 16 beats, no 4 KiB crossing, WLAST exactly at
//     the end of each burst, no empty strobes, at most 8 bursts outstanding. Top is a
//     Verilated model with canopy's m_axi_* port names (canopy_dma_writer, canopy_node).
//   - AxiReadSlave<Top>: the same host memory's AXI4 read port (the node serving gets),
//     with random ARREADY, a random read latency and random gaps between beats (in order,
//     one ID). It checks INCR, 8-byte beats, aligned addresses, at most 16 beats, no 4 KiB
//     crossing, ARID 0, and canopy's promises that RREADY is never low while data is
//     offered and that the words outstanding never exceed what the device can buffer.
#ifndef CANOPY_HOSTIF_COMMON_HPP
#define CANOPY_HOSTIF_COMMON_HPP

#include <cinttypes>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <string>
#include <unordered_map>

#include "rng.hpp"
#include "verilated.h"

namespace canopy_hostif {

// ------------------------------------------------------------------ randomness
using Rng = canopy::Rng;  // sim/rng.hpp

// ------------------------------------------------------------------ verdict, watchdog
class Verdict {
  public:
    Verdict(const char *name, uint64_t cycle_limit, uint64_t stall_limit)
        : name_(name), limit_(cycle_limit), stall_limit_(stall_limit) {
        ctx_.fatalOnError(false);
    }
    VerilatedContext *context() { return &ctx_; }
    uint64_t cycles() const { return cycles_; }

    [[noreturn]] void pass() {
        std::printf("PASS %s\n", name_.c_str());
        std::fflush(stdout);
        std::exit(0);
    }
    [[noreturn]] __attribute__((format(printf, 2, 3))) void fail(const char *fmt, ...) {
        char reason[1024];
        va_list ap;
        va_start(ap, fmt);
        std::vsnprintf(reason, sizeof reason, fmt, ap);
        va_end(ap);
        if (step_.empty()) std::printf("FAIL %s: %s\n", name_.c_str(), reason);
        else               std::printf("FAIL %s: [%s] %s\n", name_.c_str(), step_.c_str(), reason);
        std::fflush(stdout);
        std::exit(1);
    }
    // Once per clock cycle: the cycle limit, the no-progress limit, RTL assertions.
    void tick() {
        ctx_.timeInc(1);
        if (++cycles_ > limit_) fail("watchdog: more than %" PRIu64 " cycles", limit_);
        if (cycles_ - last_progress_ > stall_limit_)
            fail("watchdog: no progress for %" PRIu64 " cycles (at cycle %" PRIu64 ")",
                 stall_limit_, cycles_);
        if (ctx_.gotError()) fail("RTL assertion fired (message above) at cycle %" PRIu64, cycles_);
    }
    // The step a test is in, named in a FAIL line.
    void step(const char *what) { step_ = what; }
    // Something the test waits for happened.
    void progress() { last_progress_ = cycles_; }

  private:
    VerilatedContext ctx_;
    std::string name_, step_;
    uint64_t limit_, stall_limit_;
    uint64_t cycles_ = 0, last_progress_ = 0;
};

// ------------------------------------------------------------------ host memory
class HostMem {
  public:
    static uint8_t background(uint64_t a) {
        return static_cast<uint8_t>((a * 0x9du) ^ (a >> 8) ^ (a >> 19) ^ 0x5a);
    }
    uint8_t read(uint64_t a) const {
        auto it = bytes_.find(a);
        return it == bytes_.end() ? background(a) : it->second;
    }
    uint64_t read64(uint64_t a) const {
        uint64_t v = 0;
        for (unsigned i = 0; i < 8; i++) v |= uint64_t{read(a + i)} << (8 * i);
        return v;
    }
    void write(uint64_t a, uint8_t v) {
        bytes_[a] = v;
        writes_[a]++;
    }
    unsigned writes(uint64_t a) const {
        auto it = writes_.find(a);
        return it == writes_.end() ? 0 : it->second;
    }
    const std::unordered_map<uint64_t, unsigned> &all_writes() const { return writes_; }

  private:
    std::unordered_map<uint64_t, uint8_t> bytes_;
    std::unordered_map<uint64_t, unsigned> writes_;
};

// ------------------------------------------------------------------ AXI write slave
struct AxiSlaveMix {
    unsigned aw_ready = 100, w_ready = 100, b_valid = 100;  // percent per cycle
    unsigned b_delay = 0;                                    // extra cycles, random below
    bool stall = false;                                      // refuse everything
    unsigned b_err = 0;                                      // percent of write responses SLVERR / DECERR
};

template <class Top>
class AxiWriteSlave {
  public:
    AxiWriteSlave(Top &top, HostMem &mem, Rng &rng, Verdict &v) : t_(top), mem_(mem), rng_(rng), v_(v) {}

    AxiSlaveMix mix;
    unsigned max_outstanding_seen = 0;
    uint64_t bursts = 0, beats = 0;

    // A completed burst: its byte range [lo, hi), for tests that track completion.
    struct Burst {
        uint64_t addr;
        unsigned beats;
        unsigned resp;  // the BRESP it was answered with
    };
    // Called for every write response handed to the master (in order).
    std::deque<Burst> responded;

    // Before the clock edge (inputs): ready and response signals.
    void drive() {
        t_.m_axi_awready_i = !mix.stall && rng_.chance(mix.aw_ready);
        t_.m_axi_wready_i  = !mix.stall && w_buf_.size() < 64 && rng_.chance(mix.w_ready);
        // A presented response stays until taken.
        if (!b_shown_ && !b_.empty() && b_.front().due <= now_ && !mix.stall &&
            rng_.chance(mix.b_valid)) {
            b_shown_ = true;
            b_resp_  = rng_.chance(mix.b_err) ? 2 + rng_.below(2) : 0;  // SLVERR or DECERR
        }
        t_.m_axi_bvalid_i = b_shown_;
        t_.m_axi_bid_i    = 0;
        t_.m_axi_bresp_i  = b_shown_ ? b_resp_ : 0;
    }

    // After the combinational settle, before the edge: handshakes of this cycle.
    void sample() {
        if (t_.m_axi_awvalid_o && t_.m_axi_awready_i) {
            Aw aw{t_.m_axi_awaddr_o, static_cast<unsigned>(t_.m_axi_awlen_o) + 1, 0};
            if (t_.m_axi_awburst_o != 1) v_.fail("AWBURST %u, expected INCR", unsigned(t_.m_axi_awburst_o));
            if (t_.m_axi_awsize_o != 3) v_.fail("AWSIZE %u, expected 3", unsigned(t_.m_axi_awsize_o));
            if (t_.m_axi_awid_o != 0) v_.fail("AWID %u, expected 0", unsigned(t_.m_axi_awid_o));
            if (aw.addr & 7) v_.fail("AWADDR 0x%" PRIx64 " not 8-byte aligned", aw.addr);
            if (aw.beats > 16) v_.fail("burst of %u beats", aw.beats);
            if ((aw.addr & 0xfff) + 8 * aw.beats > 0x1000)
                v_.fail("burst at 0x%" PRIx64 " of %u beats crosses 4 KiB", aw.addr, aw.beats);
            aw_.push_back(aw);
            outstanding_++;
            bursts++;
            if (outstanding_ > max_outstanding_seen) max_outstanding_seen = outstanding_;
            if (outstanding_ > 8) v_.fail("%u bursts outstanding", outstanding_);
        }
        if (t_.m_axi_wvalid_o && t_.m_axi_wready_i) {
            w_buf_.push_back(W{t_.m_axi_wdata_o, static_cast<uint8_t>(t_.m_axi_wstrb_o),
                               static_cast<bool>(t_.m_axi_wlast_o)});
            beats++;
        }
        b_taken_ = b_shown_ && t_.m_axi_bready_o;
    }

    // After the edge: apply what happened.
    void commit() {
        now_++;
        if (b_taken_) {
            responded.push_back(Burst{b_.front().addr, b_.front().beats, b_resp_});
            b_.pop_front();
            b_shown_ = false;
            outstanding_--;
        }
        // Match data beats to bursts, in order.
        while (!aw_.empty() && !w_buf_.empty()) {
            Aw &aw = aw_.front();
            const W w = w_buf_.front();
            w_buf_.pop_front();
            const uint64_t base = aw.addr + 8 * aw.done;
            if (w.strb == 0) v_.fail("W beat with no strobe at 0x%" PRIx64, base);
            for (unsigned i = 0; i < 8; i++)
                if ((w.strb >> i) & 1) mem_.write(base + i, static_cast<uint8_t>(w.data >> (8 * i)));
            aw.done++;
            const bool end = aw.done == aw.beats;
            if (w.last != end)
                v_.fail("WLAST %d on beat %u of a %u-beat burst at 0x%" PRIx64, w.last, aw.done,
                        aw.beats, aw.addr);
            if (end) {
                b_.push_back(B{aw.addr, aw.beats, now_ + (mix.b_delay ? rng_.below(mix.b_delay + 1) : 0)});
                aw_.pop_front();
            }
        }
    }

    unsigned outstanding() const { return outstanding_; }
    bool idle() const { return aw_.empty() && w_buf_.empty() && b_.empty(); }

  private:
    struct Aw {
        uint64_t addr;
        unsigned beats, done;
    };
    struct W {
        uint64_t data;
        uint8_t strb;
        bool last;
    };
    struct B {
        uint64_t addr;
        unsigned beats;
        uint64_t due;
    };
    Top &t_;
    HostMem &mem_;
    Rng &rng_;
    Verdict &v_;
    std::deque<Aw> aw_;
    std::deque<W> w_buf_;
    std::deque<B> b_;
    bool b_shown_ = false, b_taken_ = false;
    unsigned b_resp_ = 0;
    unsigned outstanding_ = 0;
    uint64_t now_ = 0;
};

// ------------------------------------------------------------------ AXI read slave
struct AxiReadMix {
    unsigned ar_ready = 100, r_valid = 100;  // percent per cycle
    unsigned latency = 20, jitter = 0;      // cycles from AR to the first beat, + random below jitter
    bool stall = false;                      // accept no address, return no data
};

template <class Top>
class AxiReadSlave {
  public:
    AxiReadSlave(Top &top, const HostMem &mem, Rng &rng, Verdict &v, unsigned max_words)
        : t_(top), mem_(mem), rng_(rng), v_(v), max_words_(max_words) {}

    AxiReadMix mix;
    uint64_t bursts = 0, beats = 0, amo_reads = 0;
    unsigned max_words_seen = 0;

    // Before the clock edge: ARREADY, and a beat of the oldest due burst (held until taken).
    void drive() {
        t_.m_axi_arready_i = !mix.stall && rng_.chance(mix.ar_ready);
        if (!r_shown_ && !q_.empty() && q_.front().due <= now_ && !mix.stall && rng_.chance(mix.r_valid))
            r_shown_ = true;
        t_.m_axi_rvalid_i = r_shown_;
        t_.m_axi_rdata_i  = r_shown_ ? mem_.read64(q_.front().addr) : 0;
        t_.m_axi_rlast_i  = r_shown_ && q_.front().left == 1;
        t_.m_axi_rresp_i  = 0;
        t_.m_axi_rid_i    = r_shown_ ? q_.front().id : 0;
    }

    // After the combinational settle, before the edge.
    void sample() {
        if (t_.m_axi_arvalid_o && t_.m_axi_arready_i) {
            const uint64_t addr = t_.m_axi_araddr_o;
            const unsigned n = static_cast<unsigned>(t_.m_axi_arlen_o) + 1;
            if (t_.m_axi_arburst_o != 1) v_.fail("ARBURST %u, expected INCR", unsigned(t_.m_axi_arburst_o));
            if (t_.m_axi_arsize_o != 3) v_.fail("ARSIZE %u, expected 3", unsigned(t_.m_axi_arsize_o));
            const unsigned id = t_.m_axi_arid_o;
            if (id > 1) v_.fail("ARID %u, expected 0 (gets) or 1 (atomics)", id);
            if (id == 1 && n != 1) v_.fail("an atomic's read of %u beats", n);
            if (id == 1) amo_reads++;
            if (addr & 7) v_.fail("ARADDR 0x%" PRIx64 " not 8-byte aligned", addr);
            if (n > 16) v_.fail("read burst of %u beats", n);
            if ((addr & 0xfff) + 8 * n > 0x1000) v_.fail("read burst at 0x%" PRIx64 " of %u beats crosses 4 KiB", addr, n);
            q_.push_back(Rd{addr, n, now_ + mix.latency + (mix.jitter ? rng_.below(mix.jitter + 1) : 0), id});
            words_ += n;
            bursts++;
            if (words_ > max_words_seen) max_words_seen = words_;
            if (words_ > max_words_) v_.fail("%u words of reads outstanding, more than the %u the device buffers", words_, max_words_);
        }
        if (r_shown_ && !t_.m_axi_rready_o) v_.fail("RREADY low while read data is offered");
        r_taken_ = r_shown_ && t_.m_axi_rready_o;
    }

    // After the edge.
    void commit() {
        now_++;
        if (r_taken_) {
            Rd &r = q_.front();
            r.addr += 8;
            beats++;
            words_--;
            if (--r.left == 0) q_.pop_front();
            r_shown_ = false;
        }
    }

    bool idle() const { return q_.empty(); }

  private:
    struct Rd {
        uint64_t addr;
        unsigned left;
        uint64_t due;
        unsigned id;   // ARID, returned as RID (data still in order)
    };
    Top &t_;
    const HostMem &mem_;
    Rng &rng_;
    Verdict &v_;
    unsigned max_words_;
    std::deque<Rd> q_;
    bool r_shown_ = false, r_taken_ = false;
    unsigned words_ = 0;
    uint64_t now_ = 0;
};

}  // namespace canopy_hostif

#endif  // CANOPY_HOSTIF_COMMON_HPP
