// dma_writer_test.cpp: unit test of canopy_dma_writer against a C++ AXI4 host-memory slave.
//
// Why: every byte the host interface puts into host memory (remote writes into the DMA
// window, ejection ring entries, the writeback block) goes through this block. It must
// write exactly the requested bytes at any alignment, never touch a byte outside a
// request, split bursts legally (<= 16 beats, never across 4 KiB, <= 8 outstanding) and
// report completions in request order, each only after the write response of its last
// burst.
//
// What: canopy_dma_writer (TagWidth 16, two payload sources) built as the test top. A
// fixed-seed stream of 4000 requests: each in its own 16 KiB slot (slots never overlap),
// addresses with random upper bits (64-bit addressing), offsets biased toward 4 KiB
// boundaries, lengths 0..256 biased toward the edges (0, 1, 7, 8, 9, 128, 255, 256...),
// sources picked at random; payload bytes a hash of (request, byte). The two sources
// offer their next word at random. The AXI slave (hostif_common.hpp) applies random
// backpressure and response delays, changed every phase, including phases with long
// response delays (so 8 bursts are outstanding) and full stalls. Checked every cycle:
// AXI rules (in the slave model), bursts of each request contiguous and covering exactly
// its aligned byte range, completions in order with the right tag and only after the last
// burst's response. At the end: every requested byte written exactly once with its value,
// and no other byte ever written; coverage (8 outstanding, zero-length requests, 4 KiB
// crossings, both sources) reached. Some phases answer a share of the bursts with SLVERR or
// DECERR: each completion's done_err_o must say whether any burst of its request was, and
// err_resp_o must pulse once per such burst. About one request in 30 has one payload word
// offered poisoned (data_poison_i, what the ejector marks in a packet a dying link cut):
// its bytes are still written, and its completion must say done_err_o, with no
// err_resp_o pulse for it.
#include <algorithm>
#include <vector>

#include "Vtb.h"
#include "hostif_common.hpp"

namespace {

using canopy_hostif::AxiSlaveMix;
using canopy_hostif::AxiWriteSlave;
using canopy_hostif::HostMem;
using canopy_hostif::Rng;
using canopy_hostif::Verdict;

constexpr uint64_t kSeed      = 0xd3a0c0ffee000002ull;
constexpr unsigned kRequests  = 4000;
constexpr uint64_t kSlotBytes = 0x4000;
constexpr uint64_t kPhase     = 1500;

struct Req {
    uint64_t addr;
    unsigned len, src, tag;
    uint64_t aligned_end;    // end of the last beat's 8 bytes
    bool b_complete = false; // the response of its last burst has returned
    bool b_err = false;      // a burst of it was answered with SLVERR or DECERR
    bool poisoned = false;   // one of its payload words was offered poisoned
    bool accepted = false;
};

uint8_t payload_byte(unsigned req, unsigned b) {
    uint64_t z = (uint64_t{req} << 16) ^ b ^ 0xabcdef;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    return static_cast<uint8_t>(z ^ (z >> 27));
}

class DmaWriterTest {
  public:
    explicit DmaWriterTest(uint64_t seed)
        : v_("dma_writer", 3000000, 20000), tb_(v_.context()), rng_(seed),
          slave_(tb_, mem_, rng_, v_) {}

    void run() {
        make_requests();
        reset();
        uint64_t phase_end = 0;
        while (next_done_ < kRequests) {
            if (v_.cycles() >= phase_end) {
                new_phase();
                phase_end = v_.cycles() + kPhase;
            }
            cycle();
        }
        // A few idle cycles: nothing more may happen.
        for (int i = 0; i < 50; i++) cycle();
        if (!slave_.idle() || slave_.outstanding() != 0) v_.fail("AXI activity after the last completion");
        final_checks();
        v_.pass();
    }

  private:
    void make_requests() {
        static const unsigned kEdgeLens[] = {0, 1, 2, 7, 8, 9, 15, 16, 17, 120, 127, 128, 129, 136, 255, 256};
        for (unsigned i = 0; i < kRequests; i++) {
            Req r{};
            uint64_t off;
            if (rng_.chance(45)) {
                // Straddle a 4 KiB boundary inside the slot.
                const uint64_t boundary = 0x1000 * (1 + rng_.below(2));
                off = boundary - rng_.below(264);
            } else {
                off = rng_.below(kSlotBytes - 512);
            }
            const uint64_t hi = static_cast<uint64_t>(rng_.below(1u << 20)) << 36;
            r.addr = hi + 0x10000000ull + i * kSlotBytes + off;
            r.len  = rng_.chance(25) ? kEdgeLens[rng_.below(sizeof kEdgeLens / sizeof kEdgeLens[0])]
                                     : rng_.below(257);
            r.src  = rng_.below(2);
            r.tag  = (i * 7919u) & 0xffffu;
            r.aligned_end = (r.addr + r.len + 7) & ~uint64_t{7};
            if (r.len == 0) zero_len_++;
            const unsigned words = (r.len + 7) / 8;
            const unsigned poison_at = words && rng_.chance(3) ? rng_.below(words) : words;
            r.poisoned = poison_at < words;
            if (r.len && (r.addr >> 12) != ((r.addr + r.len - 1) >> 12)) crossings_++;
            reqs_.push_back(r);
            // The payload words, in the source's order.
            for (unsigned w = 0; w < (r.len + 7) / 8; w++) {
                uint64_t word = 0;
                for (unsigned b = 0; b < 8; b++) {
                    // Bytes past len are garbage the writer must not write.
                    const uint8_t byte = 8 * w + b < r.len ? payload_byte(i, 8 * w + b)
                                                           : static_cast<uint8_t>(rng_.next());
                    word |= uint64_t{byte} << (8 * b);
                }
                src_q_[r.src].push_back({word, w == poison_at});
            }
        }
    }

    void new_phase() {
        static const AxiSlaveMix kMixes[] = {
            {100, 100, 100, 0, false},  // no backpressure
            {30, 30, 50, 20, false},    // heavy backpressure
            {10, 90, 90, 0, false},     // AW starved: W runs ahead of AW
            {90, 10, 90, 0, false},     // W starved
            {100, 100, 100, 300, false},// long responses: 8 bursts outstanding
            {60, 60, 60, 40, false},
            {0, 0, 0, 0, true},         // full stall
            {100, 100, 100, 0, false, 30},  // error responses
            {60, 60, 60, 300, false, 10},   // error responses, many outstanding
        };
        static const unsigned kDataPct[] = {100, 100, 60, 20};
        static const unsigned kReqPct[] = {100, 80, 30};
        slave_.mix = kMixes[rng_.below(sizeof kMixes / sizeof kMixes[0])];
        data_pct_  = kDataPct[rng_.below(4)];
        req_pct_   = kReqPct[rng_.below(3)];
        v_.progress();  // a stall phase is not a hang
    }

    void reset() {
        tb_.rst_i = 1;
        tb_.req_valid_i = 0;
        tb_.data_valid_i = 0;
        tb_.m_axi_awready_i = 0;
        tb_.m_axi_wready_i = 0;
        tb_.m_axi_bvalid_i = 0;
        for (int i = 0; i < 3; i++) {
            tb_.clk_i = 0;
            tb_.eval();
            tb_.clk_i = 1;
            tb_.eval();
        }
        tb_.rst_i = 0;
    }

    void cycle() {
        slave_.drive();
        // Request port: the next request, held until accepted.
        if (!offering_ && next_req_ < kRequests && rng_.chance(req_pct_)) offering_ = true;
        tb_.req_valid_i = offering_;
        if (next_req_ < kRequests) {
            const Req &r = reqs_[next_req_];
            tb_.req_addr_i = r.addr;
            tb_.req_len_i  = r.len;
            tb_.req_src_i  = r.src;
            tb_.req_tag_i  = r.tag;
        }
        tb_.clk_i = 0;
        tb_.eval();
        // Data port: the source the writer names (a registered output) offers its word.
        const unsigned src = tb_.data_src_o;
        const bool dv = !src_q_[src].empty() && rng_.chance(data_pct_);
        tb_.data_valid_i = dv;
        tb_.data_i = dv ? src_q_[src].front().word : rng_.next();
        tb_.data_poison_i = dv ? src_q_[src].front().poison : rng_.chance(50);
        tb_.eval();

        slave_.sample();
        const bool req_hs  = tb_.req_valid_i && tb_.req_ready_o;
        const bool data_hs = tb_.data_valid_i && tb_.data_ready_o;
        const bool done    = tb_.done_valid_o;
        const unsigned done_tag = tb_.done_tag_o;
        const bool done_err = tb_.done_err_o;
        err_pulses_ += tb_.err_resp_o;

        tb_.clk_i = 1;
        tb_.eval();
        v_.tick();
        slave_.commit();

        if (req_hs) {
            reqs_[next_req_].accepted = true;
            next_req_++;
            offering_ = false;
        }
        if (data_hs) {
            src_q_[src].pop_front();
            src_used_[src]++;
        }
        while (!slave_.responded.empty()) {
            account_burst(slave_.responded.front());
            slave_.responded.pop_front();
        }
        if (done) check_done(done_tag, done_err);
    }

    // A write response came back: it must be the next burst of the oldest request whose
    // bytes are not all covered yet.
    void account_burst(const AxiWriteSlave<Vtb>::Burst &b) {
        while (resp_req_ < kRequests && reqs_[resp_req_].len == 0) resp_req_++;
        if (resp_req_ >= kRequests) v_.fail("write response for a burst beyond every request");
        Req &r = reqs_[resp_req_];
        if (!r.accepted) v_.fail("burst for request %u before it was accepted", resp_req_);
        if (resp_pos_ == 0) resp_pos_ = r.addr & ~uint64_t{7};
        if (b.addr != resp_pos_)
            v_.fail("request %u: burst at 0x%" PRIx64 ", expected 0x%" PRIx64, resp_req_, b.addr, resp_pos_);
        resp_pos_ += 8ull * b.beats;
        if (b.resp >= 2) {
            r.b_err = true;
            err_bursts_++;
        }
        if (resp_pos_ > r.aligned_end)
            v_.fail("request %u: burst runs past the request's last beat", resp_req_);
        if (resp_pos_ == r.aligned_end) {
            r.b_complete = true;
            resp_req_++;
            resp_pos_ = 0;
        }
    }

    void check_done(unsigned tag, bool err) {
        if (next_done_ >= kRequests) v_.fail("completion after the last request");
        const Req &r = reqs_[next_done_];
        if (tag != r.tag)
            v_.fail("completion tag 0x%x, expected 0x%x (request %u): out of order", tag, r.tag, next_done_);
        if (!r.accepted) v_.fail("request %u completed before it was accepted", next_done_);
        if (r.len != 0 && !r.b_complete)
            v_.fail("request %u completed before the response of its last burst", next_done_);
        if (err != (r.b_err || r.poisoned))
            v_.fail("request %u completed with done_err %d, but %s of its bursts was answered with an error"
                    " and it was %spoisoned", next_done_, err, r.b_err ? "one" : "none", r.poisoned ? "" : "not ");
        if (r.b_err) err_done_++;
        if (r.poisoned) poisoned_done_++;
        next_done_++;
        v_.progress();
    }

    void final_checks() {
        uint64_t expected_writes = 0;
        for (unsigned i = 0; i < kRequests; i++) {
            const Req &r = reqs_[i];
            expected_writes += r.len;
            for (unsigned b = 0; b < r.len; b++) {
                const uint64_t a = r.addr + b;
                if (mem_.writes(a) != 1)
                    v_.fail("request %u byte %u (0x%" PRIx64 ") written %u times", i, b, a, mem_.writes(a));
                if (mem_.read(a) != payload_byte(i, b))
                    v_.fail("request %u byte %u (0x%" PRIx64 "): 0x%02x, expected 0x%02x", i, b, a,
                            mem_.read(a), payload_byte(i, b));
            }
        }
        uint64_t total = 0;
        for (const auto &kv : mem_.all_writes()) total += kv.second;
        if (total != expected_writes)
            v_.fail("%" PRIu64 " byte writes, expected %" PRIu64 ": bytes outside the requests touched",
                    total, expected_writes);
        for (unsigned s = 0; s < 2; s++)
            if (!src_q_[s].empty()) v_.fail("source %u: %zu payload words never read", s, src_q_[s].size());
        if (slave_.max_outstanding_seen != 8)
            v_.fail("coverage: at most %u bursts outstanding, expected to reach 8", slave_.max_outstanding_seen);
        if (zero_len_ < 50 || crossings_ < 500 || src_used_[0] == 0 || src_used_[1] == 0)
            v_.fail("coverage: %u zero-length requests, %u 4 KiB crossings", zero_len_, crossings_);
        if (err_pulses_ != err_bursts_)
            v_.fail("err_resp_o pulsed %" PRIu64 " times for %" PRIu64 " error responses", err_pulses_, err_bursts_);
        if (poisoned_done_ < 50)
            v_.fail("coverage: %" PRIu64 " poisoned requests completed", poisoned_done_);
        if (err_bursts_ < 20 || err_done_ < 20)
            v_.fail("coverage: %" PRIu64 " error responses, %" PRIu64 " failed completions", err_bursts_, err_done_);
    }

    Verdict v_;
    Vtb tb_;
    Rng rng_;
    HostMem mem_;
    AxiWriteSlave<Vtb> slave_;
    std::vector<Req> reqs_;
    struct Word {
        uint64_t word;
        bool poison;
    };
    std::deque<Word> src_q_[2];
    uint64_t src_used_[2] = {0, 0};
    unsigned next_req_ = 0, next_done_ = 0, resp_req_ = 0;
    uint64_t resp_pos_ = 0;
    bool offering_ = false;
    unsigned data_pct_ = 100, req_pct_ = 100;
    unsigned zero_len_ = 0, crossings_ = 0;
    uint64_t err_pulses_ = 0, err_bursts_ = 0, err_done_ = 0, poisoned_done_ = 0;
};

}  // namespace

// Optional: --seed N replaces the fixed seed (for stress runs; the suite uses the default).
int main(int argc, char **argv) {
    uint64_t seed = kSeed;
    if (argc == 3 && std::string(argv[1]) == "--seed") seed = std::strtoull(argv[2], nullptr, 0);
    DmaWriterTest test(seed);
    test.run();
}
