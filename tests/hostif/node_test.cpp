// node_test.cpp: the host interface end to end: canopy_node (NumDims 1) with a C++ host.
//
// Why: docs/host-interface.md is the contract the driver is written against. This test
// plays the driver and the host: it reads and writes BAR0 through the node's AXI4 slave
// (a C++ AXI master with random gaps and response backpressure) and provides host memory
// behind the node's AXI4 master (hostif_common.hpp's slaves: random backpressure, response
// delays, read latencies, stalls, and a log of every byte written).
//
// What (one fixed-seed run, in order; the node is at x=1 of a 2-node ring and sends every
// packet to itself, which the router loops back to its local port; the link ports stay
// idle and must stay silent):
//   1. identity: ID, BUILD (set by the build), CAPS, RINGS, TOPO, STATUS, also as a burst;
//   2. refused MMIO: unmapped reads/writes inside and outside the CSR space, a write to a
//      read-only register (ERR_CSR), and a read of the window (0, not an error);
//   3. registration with 32-bit and 64-bit writes; read back; STATUS; the first writeback;
//   4. a PUT to itself (ACK_REQ, unaligned offset) lands byte-exact in the window, RX_PUTS
//      and PUTS_ACKED count it, the writeback block follows;
//   5. 60 random PUTs (any offset and length inside the window) in batches under random
//      host-memory backpressure: window byte-exact, every ACK counted;
//   6. PUTs outside the window: ERR_DMA_BOUNDS, nothing written, a failed ACK (PUTS_FAILED)
//      only with ACK_REQ, BOUNDS ejection ring entries with the right seq;
//   7. NOTIFY entries until the ring is full (STATUS.ej_full), arrivals wait (later packets
//      too), EJ_HEAD frees room, entries wrap around the ring; EJ_HEAD doorbells beyond the
//      tail or backwards are refused (ERR_DOORBELL);
//   8. an ACK packet from the host adds its counts to PUTS_ACKED / PUTS_FAILED;
//   9. INJ_TAIL doorbells that do not move, move too far, or move back: ERR_DOORBELL;
//  10. descriptors with 0 flits or running past the tail, and a batch whose last packet
//      runs past it: ERR_INJ_DESC, INJ_HEAD jumps to the tail, and the next packet goes
//      through (ring words are written half the time as pipelined bursts, the next
//      burst's address ahead of the current one's beats; runs of equal packets often as
//      one batch descriptor);
//  11. with host memory stalled the injection ring backs up; window writes to committed
//      words are refused (ERR_INJ_WRITE) and do not corrupt the packets, free words are
//      accepted;
//  12. a packet whose len disagrees with its flits is dropped at injection (ERR_BAD_LEN),
//      also in the middle of a batch, whose other packets go through;
//  12b. INJ_MODE.auto_commit: words commit as they are written, whole, in any order (runs
//      of packets written as chunks of 1..8 words shuffled as write-combining may deliver
//      them, no doorbell), a write 128 words or more past the tail is refused
//      (ERR_INJ_WRITE), a packet written slowly is waited for (not refused), a word
//      written in part does not commit until written whole, INJ_TAIL is refused
//      (ERR_DOORBELL), a zero-flit descriptor skips only itself; back in doorbell mode, a
//      half-written packet left committed is refused (ERR_INJ_DESC) and the ring is in
//      step again;
//  13. gets served by this node to itself through the AXI4 read channels: CAPS_GET; random
//      gets (1 B .. 2 KiB, odd offsets, two in flight, the bound) under random read
//      latency and backpressure land byte-exact, GETS_DONE in the writeback block and the
//      per-target count at GET_WB_BASE follow; a put then a get of the same bytes, with
//      slow write responses, returns the put's data; refused gets (outside the window, len
//      0 or too long, a reply range past 2^40) are answered FAILED, write nothing and
//      count; with reads stalled a third request from the same source is dropped
//      (ERR_GET_DROPPED), as is a malformed GET, and the two held ones complete later;
//  14. atomics served by this node to itself (GETs with len 24; AXI reads with ID 1, data
//      routed by RID): CAPS_GET.amo_ops; random atomics (every operation, 4 and 8 bytes,
//      fetching or not, two in flight, often on the same object, under random read
//      latency and write backpressure) against a reference applied in arrival order: old
//      values at the reply offsets, new values in the window, neighbouring bytes intact;
//      a put then an atomic on the same word, with slow write responses, sees the put;
//      refused atomics (misaligned, size 2, unknown operation, outside the window) are
//      answered FAILED and write nothing; AMOS_SERVED, GETS_SERVED count;
//  15. the writeback block equals the CSRs; TX/RX counters add up; every host memory byte
//      written lies in the window, the ejection ring, the writeback block or the get
//      completion area.
//  16. packets a dying link cut, arriving on a link port as the link end's closer hands
//      them on (canopy_link_closer: filler flits, the length always off by at least one):
//      puts too short, one flit too long, and cut after the routing word; an ACK, a GET
//      and an atomic cut too; then a good put on the same VC. Each cut put is answered by
//      a failed acknowledgement on the link and not counted in RX_PUTS; the ACK's counts
//      are dropped; the GET and the atomic are answered FAILED on the link (ERR_GET_BOUNDS)
//      and the atomic's object is unchanged; the router counts all six (ERR_BAD_LEN);
//      nothing is written outside the two cut puts' own ranges; the good put lands.
#include <algorithm>
#include <functional>
#include <vector>

#include "Vtb.h"
#include "canopy_regs.h"
#include "hostif_common.hpp"

namespace {

using canopy_hostif::AxiReadMix;
using canopy_hostif::AxiReadSlave;
using canopy_hostif::AxiSlaveMix;
using canopy_hostif::AxiWriteSlave;
using canopy_hostif::HostMem;
using canopy_hostif::Rng;
using canopy_hostif::Verdict;

constexpr uint64_t kSeed = 0x0de0c0ffee000003ull;

// BAR0 (docs/register-map.md).
enum : uint16_t {
    kId = 0x000, kBuild = 0x008, kCaps = 0x010, kRings = 0x018, kTopo = 0x020, kStatus = 0x028,
    kWinBase = 0x040, kWinSize = 0x048, kEjBase = 0x050, kEjEntries = 0x058, kEjHead = 0x060,
    kWbBase = 0x068, kInjTail = 0x070, kInjHead = 0x078,
    kErrBadType = 0x100, kErrBadDst = 0x108, kErrBadLen = 0x110, kErrDmaBounds = 0x118,
    kErrInjDesc = 0x120, kErrInjWrite = 0x128, kErrDoorbell = 0x130, kErrCsr = 0x138,
    kErrEjNoring = 0x140, kInjMode = 0x0a8,
    kTxPkts = 0x180, kTxFlits = 0x188, kRxPkts = 0x190, kRxFlits = 0x198, kRxPuts = 0x1a0,
    kPutsAcked = 0x1a8, kPutsFailed = 0x1b0,
    kCapsGet = 0x030, kGetWbBase = 0x0a0, kErrGetBounds = 0x168, kErrGetDropped = 0x170,
    kGetsServed = 0x1d0, kGetResps = 0x1d8, kGetsDone = 0x1e0, kGetsFailed = 0x1e8,
    kAmosServed = 0x1f8,
    kWindow = 0x8000,
};

// The build's parameters (tests/hostif/hostif.mk) and the node's place.
constexpr uint64_t kBuildGit  = 0x1234abcd;
constexpr uint64_t kBuildDate = 20240607;
constexpr unsigned kRingWords = 2048;
constexpr uint16_t kMyCoord   = 0x0001;                               // x = 1
constexpr uint32_t kSizes     = 2u | (1u << 5) | (1u << 10) | (1u << 15); // 2 x 1 x 1 x 1

// Host memory layout.
constexpr uint64_t kHostWin   = 0x0000001234567000ull;
constexpr uint64_t kHostWinSize   = 0x2000;
constexpr uint64_t kHostRing    = 0x0000002000000000ull;
constexpr uint64_t kHostRingEntries = 4;
constexpr uint64_t kHostWb    = 0x0000003000000040ull;
constexpr uint64_t kHostGetWb = 0x0000004000000000ull;
constexpr unsigned kMyIdx     = 1;      // this node's linear number: its word of the get area
constexpr unsigned kGetBufWords = 256;  // the node's get read buffer (canopy_host_if default)

// Packet format (docs/packet-format.md).
constexpr unsigned kPut = 1, kAck = 6, kGet = 7, kGetResp = 8;
constexpr unsigned kFlagAckReq = 1, kFlagNotify = 2;
constexpr uint64_t kMask40 = (uint64_t{1} << 40) - 1;

uint64_t hdr0(unsigned ptype, unsigned flags, unsigned dst, unsigned src, unsigned len) {
    return uint64_t{ptype} | uint64_t{flags} << 4 | uint64_t{dst} << 8 | uint64_t{src} << 24 |
           uint64_t{len} << 40;
}

struct Packet {
    std::vector<uint64_t> flits;   // header + payload
    unsigned vc = 0;
};

class NodeTest {
  public:
    explicit NodeTest(uint64_t seed)
        : v_("node", 4000000, 60000), tb_(v_.context()), rng_(seed), mem_slave_(tb_, mem_, rng_, v_),
          rd_slave_(tb_, mem_, rng_, v_, kGetBufWords),
          win_ref_(kHostWinSize) {
        for (uint64_t i = 0; i < kHostWinSize; i++) win_ref_[i] = HostMem::background(kHostWin + i);
    }

    void run() {
        reset();
        identity();
        refused_mmio();
        registration();
        first_put();
        random_puts();
        bounds();
        notify_and_wrap();
        host_ack();
        bad_doorbells();
        bad_descriptors();
        committed_writes();
        router_bad_len();
        auto_commit();
        gets();
        atomics();
        final_checks();
        cut_packets();
        v_.pass();
    }

  private:
    // ------------------------------------------------------------ clocking
    void reset() {
        tb_.rst_i = 1;
        tb_.my_coord_i = kMyCoord;
        tb_.torus_size_i = kSizes;
        tb_.rx_valid_i = 0;
        tb_.tx_credit_i = 0;
        idle_master();
        for (int i = 0; i < 4; i++) {
            tb_.clk_i = 0;
            tb_.eval();
            tb_.clk_i = 1;
            tb_.eval();
        }
        tb_.rst_i = 0;
    }

    void idle_master() {
        tb_.s_axi_awvalid_i = 0;
        tb_.s_axi_wvalid_i = 0;
        tb_.s_axi_bready_i = 0;
        tb_.s_axi_arvalid_i = 0;
        tb_.s_axi_rready_i = 0;
    }

    // A clock cycle in two halves, so the MMIO master can look at the settled outputs.
    void begin_cycle() {
        mem_slave_.drive();
        rd_slave_.drive();
        tb_.clk_i = 0;
        tb_.eval();
        mem_slave_.sample();
        rd_slave_.sample();
        if (tb_.tx_valid_o && !capture_tx_) v_.fail("a flit left on a link: every packet here is for this node");
        for (unsigned p = 0; p < 2; p++) {
            if (!((tb_.tx_valid_o >> p) & 1)) continue;
            const uint64_t f = uint64_t{tb_.tx_flit_o[2 * p]} | uint64_t{tb_.tx_flit_o[2 * p + 1]} << 32;
            tx_cur_[p].push_back(f);
            if ((tb_.tx_last_o >> p) & 1) {
                tx_seen_.push_back(tx_cur_[p]);
                tx_cur_[p].clear();
            }
        }
    }
    void end_cycle() {
        tb_.clk_i = 1;
        tb_.eval();
        v_.tick();
        mem_slave_.commit();
        rd_slave_.commit();
    }
    void cycle() {
        begin_cycle();
        end_cycle();
    }
    void idle(unsigned n) {
        idle_master();
        for (unsigned i = 0; i < n; i++) cycle();
    }

    void wait_for(const std::function<bool()> &done, uint64_t limit, const char *what) {
        idle_master();
        for (uint64_t i = 0; !done(); i++) {
            if (i > limit) v_.fail("timeout waiting for %s", what);
            cycle();
        }
        v_.progress();
    }

    // ------------------------------------------------------------ MMIO (AXI4 master)
    // One write burst: beats of 2^size bytes from addr (INCR), with strobes.
    void mmio_write(uint16_t addr, const std::vector<uint64_t> &data, const std::vector<uint8_t> &strb,
                    unsigned size = 3) {
        const unsigned id = rng_.below(16);
        bool aw_done = false, w_shown = false, b_done = false;
        size_t wi = 0;
        while (!b_done) {
            tb_.s_axi_awvalid_i = !aw_done;
            tb_.s_axi_awid_i    = id;
            tb_.s_axi_awaddr_i  = addr;
            tb_.s_axi_awlen_i   = data.size() - 1;
            tb_.s_axi_awsize_i  = size;
            tb_.s_axi_awburst_i = 1;
            if (!w_shown && wi < data.size() && rng_.chance(70)) w_shown = true;
            tb_.s_axi_wvalid_i = w_shown;
            tb_.s_axi_wdata_i  = wi < data.size() ? data[wi] : rng_.next();
            tb_.s_axi_wstrb_i  = wi < data.size() ? strb[wi] : 0xff;
            tb_.s_axi_wlast_i  = wi + 1 == data.size();
            tb_.s_axi_bready_i = rng_.chance(60);
            begin_cycle();
            const bool aw = tb_.s_axi_awvalid_i && tb_.s_axi_awready_o;
            const bool w  = tb_.s_axi_wvalid_i && tb_.s_axi_wready_o;
            const bool b  = tb_.s_axi_bvalid_o && tb_.s_axi_bready_i;
            if (b) {
                if (wi != data.size()) v_.fail("B before the last W beat");
                if (tb_.s_axi_bresp_o != 0) v_.fail("BRESP %u, expected OKAY", unsigned(tb_.s_axi_bresp_o));
                if (tb_.s_axi_bid_o != id) v_.fail("BID %u, expected %u", unsigned(tb_.s_axi_bid_o), id);
            }
            end_cycle();
            aw_done = aw_done || aw;
            if (w) {
                wi++;
                w_shown = false;
            }
            b_done = b;
        }
        idle_master();
    }

    std::vector<uint64_t> mmio_read(uint16_t addr, unsigned beats) {
        const unsigned id = rng_.below(16);
        bool ar_done = false;
        std::vector<uint64_t> out;
        while (out.size() < beats) {
            tb_.s_axi_arvalid_i = !ar_done;
            tb_.s_axi_arid_i    = id;
            tb_.s_axi_araddr_i  = addr;
            tb_.s_axi_arlen_i   = beats - 1;
            tb_.s_axi_arsize_i  = 3;
            tb_.s_axi_arburst_i = 1;
            tb_.s_axi_rready_i  = rng_.chance(60);
            begin_cycle();
            const bool ar = tb_.s_axi_arvalid_i && tb_.s_axi_arready_o;
            const bool r  = tb_.s_axi_rvalid_o && tb_.s_axi_rready_i;
            if (r) {
                if (tb_.s_axi_rresp_o != 0) v_.fail("RRESP %u, expected OKAY", unsigned(tb_.s_axi_rresp_o));
                if (tb_.s_axi_rid_o != id) v_.fail("RID %u, expected %u", unsigned(tb_.s_axi_rid_o), id);
                if (bool(tb_.s_axi_rlast_o) != (out.size() + 1 == beats))
                    v_.fail("RLAST %d on beat %zu of %u", int(tb_.s_axi_rlast_o), out.size() + 1, beats);
                out.push_back(tb_.s_axi_rdata_o);
            }
            end_cycle();
            ar_done = ar_done || ar;
        }
        idle_master();
        return out;
    }

    // Several write bursts as a PCIe bridge issues them: the address channel runs ahead of
    // the data channel (burst k+1's address offered while burst k's beats stream, so the
    // slave can take them back to back), beats with random gaps, responses with random
    // backpressure, each checked in order.
    void mmio_write_bursts(const std::vector<std::pair<uint16_t, std::vector<uint64_t>>> &bursts) {
        std::vector<unsigned> ids;
        for (size_t i = 0; i < bursts.size(); i++) ids.push_back(rng_.below(16));
        size_t aw_i = 0, w_i = 0, wi = 0, b_i = 0;
        bool w_shown = false;
        while (b_i < bursts.size()) {
            tb_.s_axi_awvalid_i = aw_i < bursts.size();
            if (aw_i < bursts.size()) {
                tb_.s_axi_awid_i    = ids[aw_i];
                tb_.s_axi_awaddr_i  = bursts[aw_i].first;
                tb_.s_axi_awlen_i   = bursts[aw_i].second.size() - 1;
                tb_.s_axi_awsize_i  = 3;
                tb_.s_axi_awburst_i = 1;
            }
            if (!w_shown && w_i < aw_i && rng_.chance(90)) w_shown = true;
            tb_.s_axi_wvalid_i = w_shown;
            tb_.s_axi_wdata_i  = w_shown ? bursts[w_i].second[wi] : rng_.next();
            tb_.s_axi_wstrb_i  = 0xff;
            tb_.s_axi_wlast_i  = w_shown && wi + 1 == bursts[w_i].second.size();
            tb_.s_axi_bready_i = rng_.chance(70);
            begin_cycle();
            const bool aw = tb_.s_axi_awvalid_i && tb_.s_axi_awready_o;
            const bool w  = tb_.s_axi_wvalid_i && tb_.s_axi_wready_o;
            const bool b  = tb_.s_axi_bvalid_o && tb_.s_axi_bready_i;
            if (b) {
                if (b_i >= w_i) v_.fail("B before the last W beat of its burst");
                if (tb_.s_axi_bresp_o != 0) v_.fail("BRESP %u, expected OKAY", unsigned(tb_.s_axi_bresp_o));
                if (tb_.s_axi_bid_o != ids[b_i]) v_.fail("BID %u, expected %u", unsigned(tb_.s_axi_bid_o), ids[b_i]);
            }
            end_cycle();
            aw_i += aw;
            if (w) {
                w_shown = false;
                if (++wi == bursts[w_i].second.size()) wi = 0, w_i++;
            }
            b_i += b;
        }
        idle_master();
    }

    void csr_write(uint16_t off, uint64_t value) { mmio_write(off, {value}, {0xff}); }
    uint64_t csr(uint16_t off) { return mmio_read(off, 1)[0]; }
    void expect_csr(uint16_t off, uint64_t want, const char *what) {
        const uint64_t got = csr(off);
        if (got != want) v_.fail("%s (0x%03x) = 0x%" PRIx64 ", expected 0x%" PRIx64, what, off, got, want);
    }

    // ------------------------------------------------------------ injection ring
    // Ring words [tail_, tail_ + n) written through the window, bursts split at the ring's
    // end and at 4 KiB (an AXI burst may not cross one).
    // Half the time the chunks go as one pipelined run of bursts (mmio_write_bursts).
    void ring_write(uint32_t at, const std::vector<uint64_t> &words) {
        const bool pipelined = rng_.chance(50);
        std::vector<std::pair<uint16_t, std::vector<uint64_t>>> bursts;
        size_t i = 0;
        while (i < words.size()) {
            const unsigned idx = (at + i) % kRingWords;
            const uint16_t off = kWindow + 8 * idx;
            size_t n = std::min<size_t>(words.size() - i, kRingWords - idx);
            n = std::min<size_t>(n, (0x1000 - (off & 0xfff)) / 8);
            n = std::min<size_t>(n, 1 + rng_.below(64));   // write-combining chunks
            std::vector<uint64_t> d(words.begin() + i, words.begin() + i + n);
            if (pipelined) bursts.emplace_back(off, d);
            else mmio_write(off, d, std::vector<uint8_t>(n, 0xff));
            i += n;
        }
        if (pipelined) mmio_write_bursts(bursts);
    }

    uint32_t inj_head() { return static_cast<uint32_t>(csr(kInjHead)); }

    // The ring words of packets (counted as sent): runs of packets of one size and VC are
    // often written as a batch, one descriptor whose `more` field counts the packets after
    // the first.
    std::vector<uint64_t> entry_words(const std::vector<Packet> &pkts) {
        std::vector<uint64_t> words;
        size_t desc_at = 0;
        for (size_t k = 0; k < pkts.size(); k++) {
            const Packet &p = pkts[k];
            const bool joins = k > 0 && p.flits.size() == pkts[k - 1].flits.size() && p.vc == pkts[k - 1].vc &&
                               (words[desc_at] >> 10 & 0xff) < 255 && rng_.chance(70);
            if (joins) {
                words[desc_at] += uint64_t{1} << 10;
            } else {
                desc_at = words.size();
                words.push_back(p.flits.size() | uint64_t{p.vc} << 8);
            }
            words.insert(words.end(), p.flits.begin(), p.flits.end());
            tx_pkts_++;
            tx_flits_ += p.flits.size();
        }
        return words;
    }

    // Packets appended at the tail (waiting for room as a driver would), then one doorbell.
    void inject(const std::vector<Packet> &pkts) {
        const auto words = entry_words(pkts);
        wait_for([&] { return kRingWords - (tail_ - static_cast<uint32_t>(wb(0))) >= words.size(); },
                 200000, "injection ring room");
        ring_write(tail_, words);
        tail_ += words.size();
        csr_write(kInjTail, tail_);
    }

    Packet put(uint64_t offset, const std::vector<uint8_t> &bytes, unsigned flags) {
        Packet p;
        p.flits.push_back(hdr0(kPut, flags, kMyCoord, kMyCoord, bytes.size()));
        p.flits.push_back(offset & ((uint64_t{1} << 40) - 1));
        for (size_t w = 0; w < (bytes.size() + 7) / 8; w++) {
            uint64_t v = 0;
            for (size_t b = 0; b < 8 && 8 * w + b < bytes.size(); b++) v |= uint64_t{bytes[8 * w + b]} << (8 * b);
            p.flits.push_back(v);
        }
        return p;
    }

    std::vector<uint8_t> random_bytes(size_t n) {
        std::vector<uint8_t> b(n);
        for (auto &x : b) x = static_cast<uint8_t>(rng_.next());
        return b;
    }

    // A PUT that lands in the window: the reference copy follows it.
    Packet good_put(uint64_t offset, size_t len, unsigned flags) {
        const auto bytes = random_bytes(len);
        for (size_t i = 0; i < len; i++) win_ref_[offset + i] = bytes[i];
        rx_puts_++;
        if (flags & kFlagAckReq) acked_++;
        delivered_flits_ += 2 + (len + 7) / 8;
        delivered_puts_++;
        return put(offset, bytes, flags);
    }

    // ------------------------------------------------------------ host memory views
    uint64_t wb(unsigned word) const { return mem_.read64(kHostWb + 8 * word); }
    // Writeback word 1 packs PUTS_ACKED (bits 39..0) and PUTS_FAILED (bits 63..40).
    uint64_t wb_acked() const { return wb(1) & ((uint64_t{1} << 40) - 1); }
    uint64_t wb_failed_packed() const { return wb(1) >> 40; }

    void check_window(const char *when) {
        for (uint64_t i = 0; i < kHostWinSize; i++) {
            if (mem_.read(kHostWin + i) != win_ref_[i])
                v_.fail("%s: window byte 0x%" PRIx64 " = 0x%02x, expected 0x%02x", when, i,
                        mem_.read(kHostWin + i), win_ref_[i]);
        }
    }

    void wait_acked(uint64_t n, const char *what) {
        wait_for([&] { return wb_acked() == n; }, 300000, what);
    }

    // Ejection ring entry n (0-based, free-running) as the host sees it, against what the
    // test expects of it (ents_[n]).
    struct Entry {
        uint64_t h0, h1, status;
    };
    void expect_entry(uint64_t n) {
        const Entry &e = ents_.at(n);
        const uint64_t a = kHostRing + 32 * (n % kHostRingEntries);
        const uint64_t seq = mem_.read64(a + 24);
        if (seq != n + 1) v_.fail("ejection entry %" PRIu64 ": seq %" PRIu64 ", expected %" PRIu64, n, seq, n + 1);
        if (mem_.read64(a) != e.h0 || mem_.read64(a + 8) != e.h1)
            v_.fail("ejection entry %" PRIu64 ": header 0x%" PRIx64 " 0x%" PRIx64 ", expected 0x%" PRIx64
                    " 0x%" PRIx64, n, mem_.read64(a), mem_.read64(a + 8), e.h0, e.h1);
        if (mem_.read64(a + 16) != e.status)
            v_.fail("ejection entry %" PRIu64 ": status word 0x%" PRIx64 ", expected %" PRIu64, n,
                    mem_.read64(a + 16), e.status);
    }

    void wait_csr(uint16_t off, uint64_t want, const char *what) {
        for (unsigned i = 0; csr(off) != want; i++) {
            if (i > 2000) v_.fail("timeout waiting for %s (0x%03x) = 0x%" PRIx64 " (it is 0x%" PRIx64 ")", what, off, want, csr(off));
            idle(20);
        }
        v_.progress();
    }

    // ------------------------------------------------------------ the steps
    // ID: magic "CPNY", type 1 (router node), the register map's version (spec/regmap.toml).
    static constexpr uint64_t kIdValue = (uint64_t{CANOPY_VERSION_MAJOR} << CANOPY_ID_MAJOR_LSB) | (uint64_t{CANOPY_VERSION_MINOR} << CANOPY_ID_MINOR_LSB)
                                       | (uint64_t{1} << CANOPY_ID_TYPE_LSB) | 0x43504E59u;
    void identity() {
        v_.step("1 identity");
        expect_csr(kId, kIdValue, "ID");
        expect_csr(kBuild, (kBuildDate << 32) | kBuildGit, "BUILD");
        const uint64_t caps = uint64_t{16} | (uint64_t{32} << 8) | (uint64_t{0x07} << 16) | (uint64_t{0x0f} << 24) | (uint64_t{256} << 32) | (uint64_t{64} << 48) |
                              (uint64_t{4} << 58);
        expect_csr(kCaps, caps, "CAPS");
        const uint64_t rings = kRingWords | (uint64_t{32} << 32) | (uint64_t{64} << 48);
        expect_csr(kRings, rings, "RINGS");
        const uint64_t topo = kMyCoord | (uint64_t{kSizes} << 16) | (uint64_t{1} << 36);
        expect_csr(kTopo, topo, "TOPO");
        expect_csr(kStatus, 0, "STATUS");
        expect_csr(kInjHead, 0, "INJ_HEAD");
        const auto burst = mmio_read(kId, 4);
        if (burst[1] != ((kBuildDate << 32) | kBuildGit) || burst[2] != caps || burst[3] != rings)
            v_.fail("read burst of ID..RINGS returned other values than single reads");
        v_.progress();
    }

    void refused_mmio() {
        v_.step("2 refused MMIO");
        if (mmio_read(0x1000, 1)[0] != 0) v_.fail("unmapped read (0x1000) not 0");
        if (mmio_read(0x7ff8, 1)[0] != 0) v_.fail("unmapped read (0x7ff8) not 0");
        if (mmio_read(0x038, 1)[0] != 0) v_.fail("unmapped CSR read (0x038) not 0");
        mmio_write(0x2000, {0x1111}, {0xff});
        mmio_write(kId, {0x2222}, {0xff});
        if (mmio_read(kWindow + 0x100, 2) != std::vector<uint64_t>{0, 0}) v_.fail("window read not 0");
        expect_csr(kId, kIdValue, "ID after a write to it");
        csr_errs_ = 5;
        expect_csr(kErrCsr, csr_errs_, "ERR_CSR");
        v_.progress();
    }

    void registration() {
        v_.step("3 registration");
        // WIN_BASE as two 32-bit writes (AWSIZE 2, byte strobes), the rest 64-bit.
        mmio_write(kWinBase, {kHostWin & 0xffffffffu}, {0x0f}, 2);
        mmio_write(kWinBase + 4, {kHostWin & ~uint64_t{0xffffffffu}}, {0xf0}, 2);
        csr_write(kWinSize, kHostWinSize);
        csr_write(kEjBase, kHostRing);
        csr_write(kEjEntries, kHostRingEntries);
        csr_write(kWbBase, kHostWb);
        expect_csr(kWinBase, kHostWin, "WIN_BASE");
        expect_csr(kWinSize, kHostWinSize, "WIN_SIZE");
        expect_csr(kEjBase, kHostRing, "EJ_BASE");
        expect_csr(kEjEntries, kHostRingEntries, "EJ_ENTRIES");
        expect_csr(kWbBase, kHostWb, "WB_BASE");
        expect_csr(kStatus, 0x7, "STATUS after registration");
        // Registering WB_BASE writes the block once (all zero).
        wait_for([&] { return mem_.writes(kHostWb) == 1 && mem_.writes(kHostWb + 63) == 1; }, 2000,
                 "the first writeback");
        for (unsigned i = 0; i < 8; i++)
            if (wb(i) != 0) v_.fail("first writeback: word %u = 0x%" PRIx64, i, wb(i));
        v_.progress();
    }

    void first_put() {
        v_.step("4 first put");
        inject({good_put(5, 37, kFlagAckReq)});
        wait_acked(1, "the first put's ACK");
        check_window("first put");
        expect_csr(kRxPuts, 1, "RX_PUTS");
        expect_csr(kPutsAcked, 1, "PUTS_ACKED");
        expect_csr(kPutsFailed, 0, "PUTS_FAILED");
        wait_for([&] { return wb(0) == tail_ && wb(3) == 1; }, 2000, "the writeback of INJ_HEAD and RX_PUTS");
        if (wb(2) != 0 || wb(4) != 0) v_.fail("writeback block: PUTS_FAILED / entries not 0");
    }

    void random_puts() {
        v_.step("5 random puts");
        static const AxiSlaveMix kMixes[] = {
            {100, 100, 100, 0, false}, {30, 30, 40, 30, false}, {70, 20, 60, 100, false}, {20, 80, 90, 5, false}};
        unsigned sent = 0;
        while (sent < 60) {
            mem_slave_.mix = kMixes[rng_.below(4)];
            std::vector<Packet> batch;
            const unsigned n = 1 + rng_.below(6);
            const bool full = rng_.chance(30);   // all full packets: written as one batch
            for (unsigned i = 0; i < n && sent < 60; i++, sent++) {
                const size_t len = full || rng_.chance(20) ? 256 : rng_.below(257);
                const uint64_t off = rng_.below(static_cast<unsigned>(kHostWinSize - len + 1));
                batch.push_back(good_put(off, len, kFlagAckReq));
            }
            inject(batch);
        }
        wait_acked(acked_, "the random puts' ACKs");
        mem_slave_.mix = AxiSlaveMix{};
        check_window("random puts");
        expect_csr(kRxPuts, rx_puts_, "RX_PUTS after random puts");
    }

    // A PUT the window refuses.
    Packet refused_put(uint64_t offset, size_t len, unsigned flags) {
        Packet p = put(offset, random_bytes(len), flags);
        delivered_flits_ += p.flits.size();
        delivered_puts_++;
        bounds_errs_++;
        if (flags & kFlagAckReq) {
            acked_++;   // PUTS_ACKED counts refused puts too; PUTS_FAILED is the subset
            failed_++;
        }
        ents_.push_back(Entry{p.flits[0], p.flits[1], 1});
        return p;
    }

    void bounds() {
        v_.step("6 puts outside the window");
        // Just past the end, with ACK_REQ: a failed ACK and a BOUNDS entry. Far outside,
        // without ACK_REQ: no ACK at all, a BOUNDS entry.
        Packet a = refused_put(kHostWinSize - 8, 16, kFlagAckReq);
        Packet b = refused_put(uint64_t{1} << 39, 8, 0);
        inject({a, b});
        wait_for([&] { return wb(2) == failed_ && wb(4) == 2; }, 100000, "the refused puts");
        expect_csr(kErrDmaBounds, bounds_errs_, "ERR_DMA_BOUNDS");
        expect_csr(kPutsFailed, failed_, "PUTS_FAILED");
        expect_csr(kPutsAcked, acked_, "PUTS_ACKED");
        expect_entry(0);
        expect_entry(1);
        check_window("refused puts");
    }

    Packet notify_put(uint64_t offset, size_t len) {
        Packet p = good_put(offset, len, kFlagAckReq | kFlagNotify);
        ents_.push_back(Entry{p.flits[0], p.flits[1], 0});
        return p;
    }

    void notify_and_wrap() {
        v_.step("7 NOTIFY and ring wrap");
        // Two NOTIFY puts fill the 4-entry ring.
        inject({notify_put(100, 8), notify_put(200, 3)});
        wait_for([&] { return wb(4) == 4 && wb_acked() == acked_; }, 100000, "two NOTIFY entries");
        expect_entry(2);
        expect_entry(3);
        expect_csr(kStatus, 0x7 | 0x10, "STATUS with the ejection ring full");
        // A fifth entry waits for room. Its data is written first (RX_PUTS counts it), and
        // everything arriving later waits behind it: a later put, and the ACK this node
        // sends itself for the put (as would ACKs from other nodes).
        inject({notify_put(300, 20)});
        wait_csr(kRxPuts, rx_puts_, "RX_PUTS of the put whose entry waits");
        inject({good_put(400, 16, kFlagAckReq)});
        idle(3000);
        expect_csr(kRxPuts, rx_puts_ - 1, "RX_PUTS with an arrival waiting for an ejection ring entry");
        if (wb(4) != 4) v_.fail("an entry was written into a full ejection ring");
        expect_entry(0);   // slot 0 still holds entry 0
        // EJ_HEAD beyond the entries issued: refused.
        csr_write(kEjHead, 100);
        doorbell_errs_++;
        expect_csr(kErrDoorbell, doorbell_errs_, "ERR_DOORBELL after EJ_HEAD beyond the tail");
        if (wb(4) != 4) v_.fail("a refused EJ_HEAD freed ejection ring entries");
        // Two entries consumed: entry 4 goes into slot 0, the queued put follows.
        csr_write(kEjHead, 2);
        wait_for([&] { return wb(4) == 5 && wb_acked() == acked_; }, 100000, "the waiting entry");
        expect_entry(4);
        expect_entry(3);
        // EJ_HEAD backwards: refused.
        csr_write(kEjHead, 1);
        doorbell_errs_++;
        // One more wraps into slot 1.
        inject({notify_put(500, 64)});
        wait_for([&] { return wb(4) == 6 && wb_acked() == acked_; }, 100000, "the sixth entry");
        expect_entry(5);
        csr_write(kEjHead, 6);
        expect_csr(kErrDoorbell, doorbell_errs_, "ERR_DOORBELL after EJ_HEAD backwards");
        expect_csr(kStatus, 0x7, "STATUS with the ejection ring drained");
        check_window("NOTIFY puts");
    }

    void host_ack() {
        v_.step("8 host ACK packet");
        Packet p;
        p.flits = {hdr0(kAck, 0, kMyCoord, kMyCoord, 0), (uint64_t{2} << 20) | 3};
        p.vc = 1;
        inject({p});
        acked_ += 3;
        failed_ += 2;
        delivered_flits_ += 2;
        host_acks_++;
        wait_for([&] { return wb_acked() == acked_ && wb(2) == failed_; }, 100000, "an ACK packet's counts");
    }

    void bad_doorbells() {
        v_.step("9 bad INJ_TAIL");
        wait_for([&] { return wb(0) == tail_; }, 100000, "the injection ring to drain");
        csr_write(kInjTail, tail_);                   // does not move
        csr_write(kInjTail, tail_ + kRingWords + 1);  // beyond the free space
        csr_write(kInjTail, tail_ - 1);               // backwards
        doorbell_errs_ += 3;
        idle(200);
        expect_csr(kErrDoorbell, doorbell_errs_, "ERR_DOORBELL after bad INJ_TAIL");
        expect_csr(kInjHead, tail_, "INJ_HEAD after refused doorbells");
        expect_csr(kTxPkts, tx_pkts_, "TX_PKTS after refused doorbells");
        if (csr(kStatus) & 0x8) v_.fail("STATUS.inj_busy after refused doorbells");
    }

    void bad_descriptors() {
        v_.step("10 bad descriptors");
        // A zero flit count.
        ring_write(tail_, {0});
        tail_ += 1;
        csr_write(kInjTail, tail_);
        wait_csr(kErrInjDesc, 1, "ERR_INJ_DESC");
        expect_csr(kInjHead, tail_, "INJ_HEAD after a zero descriptor");
        // Ten flits announced, three committed: runs past the tail; all is discarded.
        ring_write(tail_, {10, hdr0(kPut, 0, kMyCoord, kMyCoord, 64), 0, 0});
        tail_ += 4;
        csr_write(kInjTail, tail_);
        wait_csr(kErrInjDesc, 2, "ERR_INJ_DESC");
        expect_csr(kInjHead, tail_, "INJ_HEAD after a descriptor past the tail");
        // A batch of three 5-flit packets (descriptor more = 2) with only the first two
        // committed: the third runs past the tail when the injector reaches it, and all
        // that is committed after it is discarded; the first two are delivered.
        {
            Packet a = good_put(700, 24, 0), b = good_put(740, 24, 0);
            std::vector<uint64_t> w = {5 | uint64_t{2} << 10};
            w.insert(w.end(), a.flits.begin(), a.flits.end());
            w.insert(w.end(), b.flits.begin(), b.flits.end());
            tx_pkts_ += 2;
            tx_flits_ += 10;
            ring_write(tail_, w);
            tail_ += w.size();
            csr_write(kInjTail, tail_);
            wait_csr(kErrInjDesc, 3, "ERR_INJ_DESC");
            expect_csr(kInjHead, tail_, "INJ_HEAD after a batch past the tail");
        }
        // The ring is in step again.
        inject({good_put(600, 40, kFlagAckReq)});
        wait_acked(acked_, "the put after bad descriptors");
        check_window("after bad descriptors");
    }

    void committed_writes() {
        v_.step("11 window writes to committed words");
        mem_slave_.mix.stall = true;
        std::vector<Packet> batch;
        for (int i = 0; i < 6; i++) batch.push_back(good_put(rng_.below(kHostWinSize - 256 + 1), 256, kFlagAckReq));
        inject(batch);
        // Wait until the injector stops: INJ_HEAD stable.
        uint32_t h = inj_head();
        for (int i = 0;; i++) {
            idle(300);
            const uint32_t h2 = inj_head();
            if (h2 == h) break;
            h = h2;
            if (i > 100) v_.fail("the injector never stopped with host memory stalled");
        }
        if (tail_ - h < 4) v_.fail("the injection ring did not back up (%u words committed)", tail_ - h);
        const uint64_t junk = 0xdeadbeefdeadbeefull;
        auto win = [](uint32_t word) { return static_cast<uint16_t>(kWindow + 8 * (word % kRingWords)); };
        mmio_write(win(h), {junk}, {0xff});          // the oldest committed word
        mmio_write(win(tail_ - 1), {junk}, {0xff});  // the newest
        inj_write_errs_ += 2;
        // Two free words then two committed ones, in one burst if the ring allows.
        const uint32_t from = h - 2;
        if ((from % kRingWords) + 4 <= kRingWords && (win(from) & 0xfff) <= 0x1000 - 32) {
            mmio_write(win(from), {junk, junk, junk, junk}, {0xff, 0xff, 0xff, 0xff});
        } else {
            for (uint32_t k = 0; k < 4; k++) mmio_write(win(from + k), {junk}, {0xff});
        }
        inj_write_errs_ += 2;
        mmio_write(win(tail_), {junk}, {0x3c});      // free: accepted
        expect_csr(kErrInjWrite, inj_write_errs_, "ERR_INJ_WRITE");
        if (csr(kInjHead) != h) v_.fail("INJ_HEAD moved with host memory stalled");
        mem_slave_.mix.stall = false;
        wait_acked(acked_, "the puts behind the stall");
        check_window("puts past refused window writes");
    }

    void router_bad_len() {
        v_.step("12 injected bad len");
        Packet p;
        p.flits = {hdr0(kPut, 0, kMyCoord, kMyCoord, 16), 0, 0x1234};  // len 16: 4 flits due
        inject({p});
        // The injection ring refuses it at its header (flit count against len): none of it
        // enters the router, so it is not counted as sent.
        tx_pkts_--;
        tx_flits_ -= p.flits.size();
        wait_csr(kErrBadLen, 1, "ERR_BAD_LEN");
        // In a batch, only the packet whose header disagrees is skipped: the ones before
        // and after it, framed by the same descriptor, go through.
        Packet first = good_put(800, 24, kFlagAckReq), last = good_put(840, 24, kFlagAckReq), bad;
        bad.flits = {hdr0(kPut, 0, kMyCoord, kMyCoord, 16), 0, 0x1234, 0x5678, 0x9abc};  // 5 flits, len 16
        std::vector<uint64_t> w = {5 | uint64_t{2} << 10};
        for (const Packet *q : {&first, &bad, &last}) w.insert(w.end(), q->flits.begin(), q->flits.end());
        tx_pkts_ += 2;
        tx_flits_ += 10;
        ring_write(tail_, w);
        tail_ += w.size();
        csr_write(kInjTail, tail_);
        wait_csr(kErrBadLen, 2, "ERR_BAD_LEN");
        wait_acked(acked_, "the batch around a bad header");
        check_window("a batch around a bad header");
    }

    // Words [at, at + n) written in chunks of 1..8 words, the chunks of each group of up to
    // eight (64 words, what libcanopy writes between two store fences) in random order, as
    // write-combining buffers may drain; no doorbell.
    void ring_write_unordered(uint32_t at, const std::vector<uint64_t> &words) {
        std::vector<std::pair<uint32_t, uint32_t>> chunks;  // (first word, words)
        for (uint32_t i = 0; i < words.size();) {
            const uint32_t idx = (at + i) % kRingWords;
            uint32_t n = std::min<uint32_t>(1 + rng_.below(8), static_cast<uint32_t>(words.size()) - i);
            n = std::min<uint32_t>(n, kRingWords - idx);
            chunks.emplace_back(i, n);
            i += n;
        }
        for (size_t g = 0; g < chunks.size(); g += 8) {
            const size_t end = std::min(chunks.size(), g + 8);
            for (size_t k = end - 1; k > g; k--) std::swap(chunks[k], chunks[g + rng_.below(k - g + 1)]);
        }
        for (const auto &[i, n] : chunks) {
            std::vector<uint64_t> d(words.begin() + i, words.begin() + i + n);
            mmio_write(static_cast<uint16_t>(kWindow + 8 * ((at + i) % kRingWords)), d, std::vector<uint8_t>(n, 0xff));
        }
    }

    void auto_commit() {
        v_.step("12b auto-commit");
        wait_for([&] { return wb(0) == tail_; }, 100000, "the injection ring to drain");
        csr_write(kInjMode, 1);
        expect_csr(kInjMode, 1, "INJ_MODE");
        // Runs of puts written out of order, with no doorbell: every one delivered.
        for (int round = 0; round < 6; round++) {
            std::vector<Packet> pkts;
            const size_t n = 1 + rng_.below(6);
            const size_t len = rng_.chance(50) ? 256 : 8 * (1 + rng_.below(8));
            for (size_t k = 0; k < n; k++) pkts.push_back(good_put(rng_.below(kHostWinSize - len + 1), len, kFlagAckReq));
            const auto w = entry_words(pkts);
            wait_for([&] { return kRingWords - (tail_ - static_cast<uint32_t>(wb(0))) >= w.size(); }, 200000,
                     "injection ring room");
            ring_write_unordered(tail_, w);
            tail_ += w.size();
            wait_acked(acked_, "self-committed puts");
        }
        check_window("self-committed puts");
        // A doorbell is refused in this mode, and so is a write further past the tail than
        // the marks reach (128 words): it could never be committed.
        csr_write(kInjTail, tail_ + 8);
        doorbell_errs_++;
        expect_csr(kErrDoorbell, doorbell_errs_, "ERR_DOORBELL after INJ_TAIL in auto-commit mode");
        mmio_write(static_cast<uint16_t>(kWindow + 8 * ((tail_ + 128) % kRingWords)), {0x5}, {0xff});
        inj_write_errs_++;
        expect_csr(kErrInjWrite, inj_write_errs_, "ERR_INJ_WRITE after a write 128 words past the tail");
        expect_csr(kInjHead, tail_, "INJ_HEAD after a write past the marks");
        // A packet written slowly: the descriptor and header first, the payload's last word
        // in part, then whole. Nothing leaves until the whole packet is there.
        {
            Packet p = good_put(1000, 32, kFlagAckReq);
            const auto w = entry_words({p});  // 1 + 6 words
            const uint64_t pkts_before = csr(kTxPkts);
            ring_write(tail_, {w[0], w[1], w[2], w[3], w[4], w[5]});
            mmio_write(static_cast<uint16_t>(kWindow + 8 * ((tail_ + 6) % kRingWords)), {w[6]}, {0x0f});
            idle(500);
            expect_csr(kTxPkts, pkts_before, "TX_PKTS with a packet half written");
            expect_csr(kErrInjDesc, 3, "ERR_INJ_DESC with a packet half written");
            mmio_write(static_cast<uint16_t>(kWindow + 8 * ((tail_ + 6) % kRingWords)), {w[6]}, {0xff});
            tail_ += w.size();
            wait_acked(acked_, "a packet written slowly");
        }
        // A zero-flit descriptor, then a put right behind it, written first: the tail sweeps
        // on through the put as the descriptor is refused, and only the descriptor is skipped.
        {
            Packet p = good_put(1100, 16, kFlagAckReq);
            const auto w = entry_words({p});
            ring_write(tail_ + 1, w);
            mmio_write(static_cast<uint16_t>(kWindow + 8 * (tail_ % kRingWords)), {0}, {0xff});
            tail_ += 1 + w.size();
            wait_csr(kErrInjDesc, 4, "ERR_INJ_DESC after a zero descriptor (auto-commit)");
            wait_acked(acked_, "the put behind a zero descriptor");
        }
        check_window("auto-commit");
        // Back to doorbell mode with a packet half written and its first words committed:
        // refused, and the ring resynchronises at the tail.
        ring_write(tail_, {6, hdr0(kPut, 0, kMyCoord, kMyCoord, 32), 1000});
        tail_ += 3;
        idle(100);
        csr_write(kInjMode, 0);
        wait_csr(kErrInjDesc, 5, "ERR_INJ_DESC for a packet left half written");
        expect_csr(kInjHead, tail_, "INJ_HEAD after leaving auto-commit mode");
        inject({good_put(1200, 40, kFlagAckReq)});
        wait_acked(acked_, "a doorbell put after auto-commit mode");
        check_window("after auto-commit mode");
    }

    void no_ring() {
        v_.step("13 no ejection ring");
        // Unregister the ring: a NOTIFY put still writes its data; the entry is refused.
        csr_write(kEjEntries, 0);
        inject({good_put(700, 9, kFlagAckReq | kFlagNotify)});
        wait_acked(acked_, "a NOTIFY put without a ring");
        wait_csr(kErrEjNoring, 1, "ERR_EJ_NORING");
        if (wb(4) != ents_.size()) v_.fail("an entry was written with no ring registered");
        check_window("NOTIFY put without a ring");
    }

    // ------------------------------------------------------------ gets
    // A GET from this node to itself: get_len bytes at offset, answered at reply.
    Packet get_req(uint64_t offset, uint64_t reply, uint64_t len, unsigned hdr_len = 8) {
        Packet p;
        p.flits = {hdr0(kGet, 0, kMyCoord, kMyCoord, hdr_len), offset & kMask40, (reply & kMask40) | (len << 40)};
        for (unsigned w = 1; w < hdr_len / 8; w++) p.flits.push_back(0);
        delivered_flits_ += p.flits.size();
        delivered_puts_++;
        return p;
    }

    // A get the window serves: the reference copy follows it (source and reply ranges of
    // the gets in flight never overlap), and its responses are counted as delivered.
    Packet good_get(uint64_t offset, uint64_t reply, uint64_t len) {
        for (uint64_t i = 0; i < len; i++) win_ref_[reply + i] = win_ref_[offset + i];
        for (uint64_t done = 0; done < len; done += 256) {
            delivered_flits_ += 2 + (std::min<uint64_t>(256, len - done) + 7) / 8;
            delivered_puts_++;
            get_resps_++;
        }
        gets_done_++;
        gets_served_++;
        return get_req(offset, reply, len);
    }

    // A get the window refuses: one FAILED response, nothing written.
    Packet refused_get(uint64_t offset, uint64_t reply, uint64_t len) {
        delivered_flits_ += 2;
        delivered_puts_++;
        get_resps_++;
        gets_done_++;
        gets_failed_++;
        gets_served_++;
        get_bounds_++;
        return get_req(offset, reply, len);
    }

    uint64_t wb_gets_done() const { return wb(5) & kMask40; }
    uint64_t get_area() const { return mem_.read64(kHostGetWb + 8 * kMyIdx); }

    void wait_gets(const char *what) {
        wait_for([&] { return wb_gets_done() == gets_done_ && get_area() == gets_done_; }, 400000, what);
    }

    void gets() {
        v_.step("13 gets");
        expect_csr(kCapsGet, 2 | (uint64_t{65536} << 8) | (uint64_t{0x7f} << 32), "CAPS_GET");
        csr_write(kGetWbBase, kHostGetWb);
        expect_csr(kGetWbBase, kHostGetWb, "GET_WB_BASE");
        static const AxiReadMix kReadMixes[] = {
            {100, 100, 20, 0, false}, {40, 50, 100, 60, false}, {100, 30, 5, 300, false}, {20, 100, 200, 0, false}};
        static const AxiSlaveMix kWriteMixes[] = {
            {100, 100, 100, 0, false}, {30, 30, 40, 30, false}, {70, 20, 60, 100, false}};
        // Two in flight at a time (the node holds two per source): sources in the first half
        // of the window, replies in disjoint quarters of the second.
        for (unsigned round = 0; round < 14; round++) {
            rd_slave_.mix = kReadMixes[rng_.below(4)];
            mem_slave_.mix = kWriteMixes[rng_.below(3)];
            std::vector<Packet> batch;
            for (unsigned g = 0; g < 2; g++) {
                const uint64_t len = round < 2 ? 2048 : rng_.chance(25) ? 256 * (1 + rng_.below(8)) : 1 + rng_.below(2048);
                const uint64_t off = rng_.below(static_cast<unsigned>(kHostWinSize / 2 - len + 1));
                const uint64_t quarter = kHostWinSize / 2 + g * kHostWinSize / 4;
                const uint64_t reply = quarter + rng_.below(static_cast<unsigned>(kHostWinSize / 4 - len + 1));
                batch.push_back(good_get(off, reply, len));
            }
            inject(batch);
            wait_gets("random gets");
        }
        rd_slave_.mix = AxiReadMix{};
        mem_slave_.mix = AxiSlaveMix{};
        check_window("random gets");
        if (rd_slave_.max_words_seen < 64) v_.fail("never more than %u words of reads in flight", rd_slave_.max_words_seen);

        // A put and then a get of the same bytes: the get must see the put, however late
        // the put's write response comes (its reads wait for the earlier writes).
        mem_slave_.mix = AxiSlaveMix{100, 100, 100, 300, false};
        rd_slave_.mix = AxiReadMix{100, 100, 1, 0, false};
        {
            Packet p = good_put(3000, 77, kFlagAckReq);
            Packet g = good_get(3000, 7000, 77);
            inject({p, g});
            wait_acked(acked_, "the put before a get");
            wait_gets("a get after a put of the same bytes");
        }
        mem_slave_.mix = AxiSlaveMix{};
        rd_slave_.mix = AxiReadMix{};
        check_window("a get after a put");

        // Refused: past the window's end, len 0, len above 64 KiB, a reply range past 2^40.
        inject({refused_get(kHostWinSize - 8, 5000, 16), refused_get(0, 5000, 0)});
        wait_gets("refused gets");
        inject({refused_get(0, 5000, 65537), refused_get(0, kMask40 - 3, 8)});
        wait_gets("refused gets");
        if ((wb(5) >> 40) != gets_failed_) v_.fail("writeback word 5 carries %" PRIu64 " failed gets, expected %" PRIu64, wb(5) >> 40, gets_failed_);
        expect_csr(kErrGetBounds, get_bounds_, "ERR_GET_BOUNDS");
        expect_csr(kGetsFailed, gets_failed_, "GETS_FAILED");
        check_window("refused gets");

        // Over the bound: with reads stalled the server holds one request and the table one;
        // a third from the same source is dropped, as is a GET whose len is not 8.
        rd_slave_.mix.stall = true;
        {
            Packet a = good_get(8, 4200, 300), b = good_get(16, 6300, 1000);
            inject({a, b});
            wait_for([&] { return mem_.read64(kHostWb + 8 * 0) == tail_; }, 100000, "two gets taken");
            idle(500);
            Packet c = get_req(24, 5000, 8);
            Packet m = get_req(24, 5000, 8, 16);
            inject({c, m});
            get_dropped_ += 2;
            wait_csr(kErrGetDropped, get_dropped_, "ERR_GET_DROPPED");
            if (wb_gets_done() != gets_done_ - 2) v_.fail("a get completed with host memory reads stalled");
        }
        rd_slave_.mix.stall = false;
        wait_gets("the two held gets");
        check_window("gets after the drop");
        expect_csr(kGetsServed, gets_served_, "GETS_SERVED");
        expect_csr(kGetResps, get_resps_, "GET_RESPS");
        expect_csr(kGetsDone, gets_done_, "GETS_DONE");
        expect_csr(kErrGetDropped, get_dropped_, "ERR_GET_DROPPED");
        if (!rd_slave_.idle()) v_.fail("reads outstanding after every get completed");
    }

    // ------------------------------------------------------------ atomics
    enum : unsigned { kAFetch, kASet, kACswap, kAAdd, kAAnd, kAOr, kAXor };

    Packet amo_req(uint64_t offset, uint64_t reply, unsigned size, unsigned op, bool fetch, uint64_t operand,
                   uint64_t compare) {
        Packet p;
        p.flits = {hdr0(kGet, 0, kMyCoord, kMyCoord, 24), offset & kMask40,
                   (reply & kMask40) | (uint64_t{size} << 40) | (uint64_t{op} << 57) | (uint64_t{fetch} << 61),
                   operand, compare};
        delivered_flits_ += p.flits.size();
        delivered_puts_++;
        return p;
    }

    uint64_t ref_read(uint64_t off, unsigned size) const {
        uint64_t v = 0;
        for (unsigned i = 0; i < size; i++) v |= uint64_t{win_ref_[off + i]} << (8 * i);
        return v;
    }

    // An atomic the node does: the reference applies it now (atomics are done in arrival
    // order, one at a time).
    Packet good_amo(uint64_t offset, uint64_t reply, unsigned size, unsigned op, bool fetch, uint64_t operand,
                    uint64_t compare) {
        const uint64_t m = size == 8 ? ~uint64_t{0} : 0xffffffffull;
        const uint64_t old = ref_read(offset, size), o = operand & m;
        uint64_t nv = old;
        switch (op) {
        case kASet: nv = o; break;
        case kACswap: nv = old == (compare & m) ? o : old; break;
        case kAAdd: nv = (old + o) & m; break;
        case kAAnd: nv = old & o; break;
        case kAOr: nv = old | o; break;
        case kAXor: nv = old ^ o; break;
        default: break;
        }
        for (unsigned i = 0; i < size; i++) win_ref_[offset + i] = static_cast<uint8_t>(nv >> (8 * i));
        if (fetch)
            for (unsigned i = 0; i < size; i++) win_ref_[reply + i] = static_cast<uint8_t>(old >> (8 * i));
        delivered_flits_ += fetch ? 3 : 2;
        delivered_puts_++;
        get_resps_++;
        gets_done_++;
        gets_served_++;
        amos_served_++;
        return amo_req(offset, reply, size, op, fetch, operand, compare);
    }

    Packet refused_amo(uint64_t offset, uint64_t reply, unsigned size, unsigned op) {
        delivered_flits_ += 2;
        delivered_puts_++;
        get_resps_++;
        gets_done_++;
        gets_failed_++;
        gets_served_++;
        get_bounds_++;
        return amo_req(offset, reply, size, op, true, 0x1111, 0);
    }

    void atomics() {
        v_.step("14 atomics");
        static const AxiReadMix kReadMixes[] = {
            {100, 100, 20, 0, false}, {40, 50, 100, 60, false}, {100, 30, 5, 300, false}, {20, 100, 200, 0, false}};
        static const AxiSlaveMix kWriteMixes[] = {
            {100, 100, 100, 0, false}, {30, 30, 40, 30, false}, {70, 20, 60, 100, false}};
        const uint64_t amo_reads0 = rd_slave_.amo_reads;
        unsigned n_amos = 0;
        // Objects among 8 words at 1024.., replies (8 bytes apart, 8-aligned) at 5000...
        for (unsigned round = 0; round < 40; round++) {
            rd_slave_.mix = kReadMixes[rng_.below(4)];
            mem_slave_.mix = kWriteMixes[rng_.below(3)];
            std::vector<Packet> batch;
            for (unsigned g = 0; g < 2; g++) {
                const unsigned size = rng_.chance(50) ? 8 : 4;
                const uint64_t off = 1024 + 8 * rng_.below(8) + (size == 4 && rng_.chance(50) ? 4 : 0);
                const unsigned op = rng_.below(7);
                const uint64_t operand = (uint64_t{rng_.below(1u << 30)} << 34) ^ rng_.below(1u << 30) ^ (rng_.below(8) == 0 ? 0 : 1);
                // A CSWAP compares with the current value half of the time.
                const uint64_t compare = rng_.chance(50) ? ref_read(off, size) : operand + 1;
                const uint64_t reply = 5000 + 8 * rng_.below(64) + (rng_.chance(30) ? rng_.below(4) : 0);
                batch.push_back(good_amo(off, reply, size, op, rng_.chance(75), operand, compare));
                n_amos++;
            }
            inject(batch);
            wait_gets("random atomics");
        }
        rd_slave_.mix = AxiReadMix{};
        mem_slave_.mix = AxiSlaveMix{};
        check_window("random atomics");
        if (rd_slave_.amo_reads - amo_reads0 != n_amos)
            v_.fail("%" PRIu64 " reads with ID 1 for %u atomics", rd_slave_.amo_reads - amo_reads0, n_amos);

        // A put, then an atomic on the same word: the atomic reads the put's data, however
        // late the put's write response comes.
        mem_slave_.mix = AxiSlaveMix{100, 100, 100, 300, false};
        rd_slave_.mix = AxiReadMix{100, 100, 1, 0, false};
        {
            Packet p = good_put(1104, 8, kFlagAckReq);
            Packet a = good_amo(1104, 5600, 8, kAAdd, true, 5, 0);
            inject({p, a});
            wait_acked(acked_, "the put before an atomic");
            wait_gets("an atomic after a put of the same word");
        }
        mem_slave_.mix = AxiSlaveMix{};
        rd_slave_.mix = AxiReadMix{};
        check_window("an atomic after a put");

        // Refused: misaligned, size 2, an unknown operation, outside the window.
        inject({refused_amo(1028, 5700, 8, kAAdd), refused_amo(1024, 5700, 2, kAAdd)});
        wait_gets("refused atomics");
        inject({refused_amo(1024, 5700, 8, 9), refused_amo(kHostWinSize, 5700, 8, kASet)});
        wait_gets("refused atomics");
        check_window("refused atomics");
        expect_csr(kAmosServed, amos_served_, "AMOS_SERVED");
        expect_csr(kGetsServed, gets_served_, "GETS_SERVED");
        expect_csr(kErrGetBounds, get_bounds_, "ERR_GET_BOUNDS");
        expect_csr(kGetsFailed, gets_failed_, "GETS_FAILED");
        if (!rd_slave_.idle()) v_.fail("reads outstanding after every atomic completed");
    }

    void final_checks() {
        v_.step("15 final checks");
        no_ring();
        wait_for([&] { return wb(0) == tail_; }, 100000, "INJ_HEAD in the writeback block");
        // The writeback block shows what the CSRs show.
        idle(500);
        const uint64_t regs[4] = {csr(kInjHead), csr(kPutsAcked), csr(kPutsFailed), csr(kRxPuts)};
        const uint64_t want[4] = {tail_, acked_, failed_, rx_puts_};
        const uint64_t want_wb[4] = {tail_, acked_ | (failed_ << 40), failed_, rx_puts_};
        for (unsigned i = 0; i < 4; i++) {
            if (regs[i] != want[i]) v_.fail("register for writeback word %u = %" PRIu64 ", expected %" PRIu64, i, regs[i], want[i]);
            if (wb(i) != want_wb[i]) v_.fail("writeback word %u = %" PRIu64 ", expected %" PRIu64, i, wb(i), want_wb[i]);
        }
        if (wb_failed_packed() != failed_) v_.fail("writeback word 1 carries %" PRIu64 " refused puts, expected %" PRIu64, wb_failed_packed(), failed_);
        if (wb(4) != ents_.size()) v_.fail("writeback: %" PRIu64 " entries written, expected %zu", wb(4), ents_.size());
        if (wb(5) != (gets_done_ | (gets_failed_ << 40)))
            v_.fail("writeback word 5 = 0x%" PRIx64 ", expected %" PRIu64 " gets done, %" PRIu64 " failed", wb(5),
                    gets_done_, gets_failed_);
        for (unsigned i = 6; i < 8; i++)
            if (wb(i) != 0) v_.fail("writeback reserved word %u = 0x%" PRIx64, i, wb(i));
        // Counters.
        expect_csr(kTxPkts, tx_pkts_, "TX_PKTS");
        expect_csr(kTxFlits, tx_flits_, "TX_FLITS");
        const uint64_t rx_pkts = csr(kRxPkts), rx_flits = csr(kRxFlits);
        const uint64_t ack_pkts = rx_pkts - delivered_puts_ - host_acks_;
        if (rx_pkts < delivered_puts_ + host_acks_ + 1 || rx_flits != delivered_flits_ + 2 * ack_pkts)
            v_.fail("RX_PKTS %" PRIu64 " / RX_FLITS %" PRIu64 " do not add up (%" PRIu64 " puts, %" PRIu64
                    " flits delivered besides ACKs)", rx_pkts, rx_flits, delivered_puts_, delivered_flits_);
        expect_csr(kErrBadType, 0, "ERR_BAD_TYPE");
        expect_csr(kErrBadDst, 0, "ERR_BAD_DST");
        expect_csr(kErrBadLen, 2, "ERR_BAD_LEN");
        expect_csr(kErrDmaBounds, bounds_errs_, "ERR_DMA_BOUNDS");
        expect_csr(kErrInjDesc, 5, "ERR_INJ_DESC");
        expect_csr(kErrInjWrite, inj_write_errs_, "ERR_INJ_WRITE");
        expect_csr(kErrDoorbell, doorbell_errs_, "ERR_DOORBELL");
        expect_csr(kErrCsr, csr_errs_, "ERR_CSR");
        expect_csr(kErrEjNoring, 1, "ERR_EJ_NORING");
        // Every byte the node wrote lies in a registered structure.
        for (const auto &kv : mem_.all_writes()) {
            const uint64_t a = kv.first;
            const bool ok = (a >= kHostWin && a < kHostWin + kHostWinSize) ||
                            (a >= kHostRing && a < kHostRing + 32 * kHostRingEntries) || (a >= kHostWb && a < kHostWb + 64) ||
                            (a >= kHostGetWb + 8 * kMyIdx && a < kHostGetWb + 8 * kMyIdx + 8);
            if (!ok) v_.fail("host memory written outside the registered structures, at 0x%" PRIx64, a);
        }
        check_window("the end");
    }

    // ------------------------------------------------------------ packets a dying link cut
    // One packet into the router's link input 1 (from the neighbour at x = 0), a flit per
    // cycle on VC 0, its last flit the tail, as canopy_link_closer hands a cut one on.
    void link_send(const std::vector<uint64_t> &flits) {
        for (size_t i = 0; i < flits.size(); i++) {
            tb_.rx_valid_i = 2;
            tb_.rx_flit_i[2] = static_cast<uint32_t>(flits[i]);
            tb_.rx_flit_i[3] = static_cast<uint32_t>(flits[i] >> 32);
            tb_.rx_last_i = i + 1 == flits.size() ? 2 : 0;
            tb_.rx_vc_i = 0;
            cycle();
        }
        tb_.rx_valid_i = 0;
        tb_.rx_last_i = 0;
    }

    void cut_packets() {
        v_.step("16 packets a dying link cut");
        capture_tx_ = true;
        const uint64_t bad_len = csr(kErrBadLen), rx_puts = csr(kRxPuts), acked = csr(kPutsAcked);
        const uint64_t get_bounds = csr(kErrGetBounds), amo_obj = mem_.read64(kHostWin + 0x300);
        constexpr unsigned kNeighbour = 0;
        // Word 0 as the upstream router sends it: its lookahead port is this router's local
        // port (2 * NumDims).
        auto head = [&](unsigned ptype, unsigned flags, unsigned len) {
            return hdr0(ptype, flags, kMyCoord, kNeighbour, len) | uint64_t{2} << 55;
        };
        const uint64_t amo_req = 0x500 | uint64_t{8} << 40 | uint64_t{3} << 57 | uint64_t{1} << 61;  // fetch-add 8 B
        link_send({head(kPut, kFlagAckReq, 24), 0x100, 0x1111, 0});     // 3 words due, 1 came: too short
        link_send({head(kPut, kFlagAckReq, 16), 0x200, 0x2222, 0, 0});  // 2 due, the tail was cut: too long
        link_send({head(kPut, kFlagAckReq, 64), 0});                    // cut after word 0: its offset is filler
        link_send({head(kAck, 0, 0), 0, 0});                            // an ACK cut after word 0
        link_send({head(kGet, 0, 8), 0});                               // a GET cut after word 0
        link_send({head(kGet, 0, 24), 0x300, amo_req, 0});              // an atomic cut after its request word
        link_send({head(kPut, kFlagAckReq, 8), 0x400, 0x4444});         // a good put behind them
        // What goes back to the neighbour: ACKs (4 puts, 3 refused) and two FAILED GET_RESPs.
        uint64_t ack_count = 0, ack_failed = 0, failed_resps = 0;
        wait_for([&] {
            ack_count = ack_failed = failed_resps = 0;
            for (const auto &f : tx_seen_) {
                if (f.size() < 2 || ((f[0] >> 8) & 0xffff) != kNeighbour) v_.fail("a packet left for another node");
                const unsigned ptype = f[0] & 0xf;
                if (ptype == kAck) {
                    ack_count += f[1] & 0xfffff;
                    ack_failed += (f[1] >> 20) & 0xfffff;
                } else if (ptype == kGetResp && ((f[0] >> 4) & 8) && ((f[1] >> 59) & 2) && ((f[0] >> 40) & 0x1ff) == 0) {
                    ++failed_resps;
                } else {
                    v_.fail("packet of type %u sent to the neighbour", ptype);
                }
            }
            return ack_count == 4 && ack_failed == 3 && failed_resps == 2;
        }, 50000, "the failed ACKs and the FAILED answers of the cut packets");
        idle(200);
        expect_csr(kErrBadLen, bad_len + 6, "ERR_BAD_LEN after the cut packets");
        expect_csr(kRxPuts, rx_puts + 1, "RX_PUTS after the cut packets (the good put alone)");
        expect_csr(kPutsAcked, acked, "PUTS_ACKED after a cut ACK");
        expect_csr(kErrGetBounds, get_bounds + 2, "ERR_GET_BOUNDS after the cut GET and atomic");
        if (mem_.read64(kHostWin + 0x300) != amo_obj) v_.fail("a cut atomic changed its object");
        // The cut puts' own ranges are undefined; every other byte is as before, and the
        // good put's 8 bytes are its own.
        for (uint64_t i = 0x100; i < 0x118; i++) win_ref_[i] = mem_.read(kHostWin + i);
        for (uint64_t i = 0x200; i < 0x210; i++) win_ref_[i] = mem_.read(kHostWin + i);
        for (unsigned b = 0; b < 8; b++) win_ref_[0x400 + b] = static_cast<uint8_t>(0x4444ull >> (8 * b));
        check_window("the cut packets");
        capture_tx_ = false;
    }

    Verdict v_;
    Vtb tb_;
    Rng rng_;
    HostMem mem_;
    AxiWriteSlave<Vtb> mem_slave_;
    AxiReadSlave<Vtb> rd_slave_;
    std::vector<uint8_t> win_ref_;
    uint32_t tail_ = 0;
    std::vector<Entry> ents_;
    uint64_t rx_puts_ = 0, acked_ = 0, failed_ = 0;
    uint64_t tx_pkts_ = 0, tx_flits_ = 0, delivered_flits_ = 0, delivered_puts_ = 0, host_acks_ = 0;
    uint64_t csr_errs_ = 0, bounds_errs_ = 0, doorbell_errs_ = 0, inj_write_errs_ = 0;
    uint64_t gets_done_ = 0, gets_failed_ = 0, gets_served_ = 0, get_resps_ = 0, get_bounds_ = 0, get_dropped_ = 0;
    uint64_t amos_served_ = 0;
    bool capture_tx_ = false;                    // step 16: flits on the links are expected
    std::vector<uint64_t> tx_cur_[2];            // the packet leaving on each link now
    std::vector<std::vector<uint64_t>> tx_seen_; // packets that left
};

}  // namespace

// Optional: --seed N replaces the fixed seed (for stress runs; the suite uses the default).
int main(int argc, char **argv) {
    uint64_t seed = kSeed;
    if (argc == 3 && std::string(argv[1]) == "--seed") seed = std::strtoull(argv[2], nullptr, 0);
    NodeTest test(seed);
    test.run();
}
