// cosim_main.cpp: `canopy-cosim`, the co-simulator behind sim/canopy-run.
//
//   canopy-cosim --torus XxY [options] -- program [args...]
//
// Builds nothing. Its model is built for a number of dimensions and a largest node count
// (sim/sim.mk), and it runs the torus --torus names (the launcher
// build/cosim/<torus>-.../canopy-cosim passes it). It creates the shared
// memory of sim/include/canopy_cosim.h, starts one PE process per node running `program`,
// and simulates the fabric of whole nodes cycle by cycle, with sim/cosim/pcie_host.* playing
// every node's PCIe side. PEs run only while the simulator waits for them (see
// canopy_cosim.h), one at a time, in node order: the same program gives the same cycle
// counts on every run, whatever the OS scheduler does.
//
// Exit status: 0 when every PE exited 0; 1 if any PE failed or crashed, the simulation saw
// an error (an RTL assertion, a bad AXI transaction, a DMA outside host memory), or a
// watchdog fired (simulated-cycle limit, a stall with every PE waiting and nothing moving,
// or a PE running too long in wall-clock time without calling the library). A PE that
// ends the job (canopy_job_exit, e.g. shmem_global_exit) stops every other PE at once, and
// the job's status is the one it gave.
#include <fcntl.h>
#include <semaphore.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "Vcanopy_node_tile.h"
#include "canopy.h"
#include "canopy_cosim.h"
#include "pcie_host.hpp"
#include "torus_tiles.hpp"
#include "verilated.h"

#ifndef CANOPY_MAX_NODES
#error "build through sim/sim.mk, which passes the fabric parameters"
#endif

namespace {

using canopy::PcieHost;
using canopy::PcieTiming;
using canopy::TorusTiles;

struct Options {
    canopy::TorusShape torus;   // --torus, required
    uint64_t max_cycles = 200'000'000;
    uint64_t stall_cycles = 2'000'000;
    unsigned clock_mhz = 250;
    double mmio_write_ns = 300, mmio_read_ns = 400, dma_write_ns = 300, bridge_ns = 16, dma_read_ns = 800;
    double jitter_ns = 0;
    uint64_t seed = 1;
    uint64_t arena_mb = 512;  // per PE; address space only until used (docs/simulation.md)
    unsigned pe_wall_timeout_s = 600;
    canopy::FaultOptions faults;  // protected-link builds only (LINK_PROTECT=1)
    uint64_t fault_seed = 1;
    bool verbose = false;
    struct DmaFault { unsigned node; uint64_t off, bytes; };
    std::vector<DmaFault> dma_faults;  // --dma-fault: window ranges the host's bridge refuses
    struct DeadLink { unsigned node, port; uint64_t cycle; };
    std::vector<DeadLink> dead_links;  // --dead-link: links that die (protected-link builds)
    std::string activity_path;       // --activity: per-window bus activity, JSON lines
    uint64_t activity_window = 256;  // cycles per --activity line
    std::vector<char *> program;
};

[[noreturn]] void usage(const char *msg) {
    std::fprintf(stderr,
                 "canopy-cosim: %s\n"
                 "usage: canopy-cosim --torus XxY [--max-cycles N] [--stall-cycles N] [--clock-mhz F]\n"
                 "                    [--mmio-write-ns T] [--mmio-read-ns T] [--dma-write-ns T] [--dma-read-ns T]\n"
                 "                    [--arena-mb M] [--pe-timeout-s S] [--jitter-ns T [--seed N]] [--verbose]\n"
                 "                    [--ber X] [--burst-rate X] [--burst-len N] [--drop X] [--fault-seed N]\n"
                 "                    [--dead-link NODE:PORT:CYCLE]...\n"
                 "                    [--activity FILE [--activity-window N]] [--dma-fault NODE:OFFSET:BYTES]...\n"
                 "                    -- program [args]\n",
                 msg);
    std::exit(2);
}

Options parse(int argc, char **argv) {
    Options o;
    int i = 1;
    auto num = [&](const char *name) {
        if (i + 1 >= argc) usage((std::string("missing value for ") + name).c_str());
        char *end = nullptr;
        double v = std::strtod(argv[++i], &end);
        if (*end || v < 0) usage((std::string("bad value for ") + name).c_str());
        return v;
    };
    for (; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--") {
            for (++i; i < argc; ++i) o.program.push_back(argv[i]);
            break;
        }
        if (a == "--torus") {
            if (i + 1 >= argc) usage("missing value for --torus");
            if (o.torus.ndims) usage("--torus given twice");
            try {
                o.torus = canopy::parse_torus(argv[++i], CANOPY_NDIMS);
            } catch (const std::exception &e) {
                usage(e.what());
            }
            if (o.torus.nodes() > CANOPY_MAX_NODES)
                usage(("--torus " + std::string(argv[i]) + ": " + std::to_string(o.torus.nodes()) +
                       " nodes, but this model's per-source tables hold " + std::to_string(CANOPY_MAX_NODES) +
                       " (sim/sim.mk builds a larger one for a larger torus)").c_str());
        } else if (a == "--max-cycles") o.max_cycles = static_cast<uint64_t>(num("--max-cycles"));
        else if (a == "--stall-cycles") o.stall_cycles = static_cast<uint64_t>(num("--stall-cycles"));
        else if (a == "--clock-mhz") o.clock_mhz = static_cast<unsigned>(num("--clock-mhz"));
        else if (a == "--mmio-write-ns") o.mmio_write_ns = num("--mmio-write-ns");
        else if (a == "--mmio-read-ns") o.mmio_read_ns = num("--mmio-read-ns");
        else if (a == "--dma-write-ns") o.dma_write_ns = num("--dma-write-ns");
        else if (a == "--dma-read-ns") o.dma_read_ns = num("--dma-read-ns");
        else if (a == "--arena-mb") o.arena_mb = static_cast<uint64_t>(num("--arena-mb"));
        else if (a == "--pe-timeout-s") o.pe_wall_timeout_s = static_cast<unsigned>(num("--pe-timeout-s"));
        else if (a == "--jitter-ns") o.jitter_ns = num("--jitter-ns");
        else if (a == "--seed") o.seed = static_cast<uint64_t>(num("--seed"));
        else if (a == "--ber") o.faults.ber = num("--ber");
        else if (a == "--burst-rate") o.faults.burst_rate = num("--burst-rate");
        else if (a == "--burst-len") o.faults.burst_len = static_cast<unsigned>(num("--burst-len"));
        else if (a == "--drop") o.faults.drop = num("--drop");
        else if (a == "--fault-seed") o.fault_seed = static_cast<uint64_t>(num("--fault-seed"));
        else if (a == "--verbose") o.verbose = true;
        else if (a == "--activity") {
            if (i + 1 >= argc) usage("missing value for --activity");
            o.activity_path = argv[++i];
        } else if (a == "--activity-window") o.activity_window = static_cast<uint64_t>(num("--activity-window"));
        else if (a == "--dma-fault") {
            // NODE:OFFSET:BYTES, numbers in C notation (0x...): bytes of NODE's DMA window its
            // host's bridge refuses (SLVERR); repeatable.
            if (i + 1 >= argc) usage("missing value for --dma-fault");
            const char *v = argv[++i];
            char *end = nullptr;
            unsigned long long node = std::strtoull(v, &end, 0), off = 0, bytes = 0;
            bool ok = *end == ':';
            if (ok) off = std::strtoull(end + 1, &end, 0), ok = *end == ':';
            if (ok) bytes = std::strtoull(end + 1, &end, 0), ok = *end == '\0' && bytes > 0;
            if (!ok) usage("--dma-fault wants NODE:OFFSET:BYTES (BYTES > 0)");
            o.dma_faults.push_back({static_cast<unsigned>(node), off, bytes});
        } else if (a == "--dead-link") {
            // NODE:PORT:CYCLE: the link out of NODE's port PORT (2d: +d, 2d+1: -d) dies both
            // ways at CYCLE; repeatable.
            if (i + 1 >= argc) usage("missing value for --dead-link");
            const char *v = argv[++i];
            char *end = nullptr;
            unsigned long long node = std::strtoull(v, &end, 0), port = 0, cycle = 0;
            bool ok = *end == ':';
            if (ok) port = std::strtoull(end + 1, &end, 0), ok = *end == ':';
            if (ok) cycle = std::strtoull(end + 1, &end, 0), ok = *end == '\0';
            if (!ok) usage("--dead-link wants NODE:PORT:CYCLE");
            o.dead_links.push_back({static_cast<unsigned>(node), static_cast<unsigned>(port), cycle});
        } else usage(("unknown option " + a).c_str());
    }
    if (!o.torus.ndims) usage("no --torus given");
    if (o.program.empty()) usage("no program given");
    if (o.clock_mhz == 0) usage("--clock-mhz must be positive");
    if (o.activity_window == 0) usage("--activity-window must be positive");
    for (const auto &f : o.dma_faults)
        if (f.node >= o.torus.nodes()) usage(("--dma-fault: node " + std::to_string(f.node) + " is not in the torus").c_str());
    for (const auto &d : o.dead_links)
        if (d.node >= o.torus.nodes() || d.port >= 2 * o.torus.ndims)
            usage(("--dead-link: no port " + std::to_string(d.port) + " at node " + std::to_string(d.node)).c_str());
    if (!o.dead_links.empty() && !CANOPY_LINK_PROTECT) usage("--dead-link needs a protected-link build (canopy-run --link-protect)");
    if (o.faults.any() && !CANOPY_LINK_PROTECT) usage("fault options need a protected-link build (canopy-run --link-protect)");
    if (o.faults.ber < 0 || o.faults.ber > 0.5 || o.faults.burst_rate < 0 || o.faults.burst_rate > 0.5 ||
        o.faults.drop < 0 || o.faults.drop > 0.5 || o.faults.burst_len < 2)
        usage("fault rates must be in [0, 0.5] and --burst-len >= 2");
    o.program.push_back(nullptr);
    return o;
}

// ------------------------------------------------------------------ shared memory
class SharedMemory {
public:
    SharedMemory(unsigned nodes, uint64_t arena_bytes) {
        name_ = "/canopy-cosim-" + std::to_string(getpid());
        const uint64_t align = CANOPY_COSIM_ARENA_ALIGN;
        size_t header = sizeof(canopy_cosim_shm) + nodes * sizeof(canopy_cosim_pe);
        arena_offset_ = (header + align - 1) & ~(align - 1);
        arena_bytes = (arena_bytes + align - 1) & ~(align - 1);
        bytes_ = arena_offset_ + nodes * arena_bytes;
        int fd = shm_open(name_.c_str(), O_RDWR | O_CREAT | O_EXCL, 0600);
        if (fd < 0) throw std::runtime_error("shm_open " + name_ + ": " + std::strerror(errno));
        if (ftruncate(fd, static_cast<off_t>(bytes_)) != 0) {
            close(fd);
            shm_unlink(name_.c_str());
            throw std::runtime_error("ftruncate " + name_ + ": " + std::strerror(errno));
        }
        base_ = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        close(fd);
        if (base_ == MAP_FAILED) {
            shm_unlink(name_.c_str());
            throw std::runtime_error("mmap " + name_ + ": " + std::strerror(errno));
        }
        shm_ = static_cast<canopy_cosim_shm *>(base_);
        shm_->arena_offset = arena_offset_;
        shm_->arena_bytes = arena_bytes;
    }
    ~SharedMemory() {
        munmap(base_, bytes_);
        shm_unlink(name_.c_str());
    }
    canopy_cosim_shm *shm() const { return shm_; }
    uint8_t *arena(unsigned node) const { return static_cast<uint8_t *>(base_) + arena_offset_ + node * shm_->arena_bytes; }
    const std::string &name() const { return name_; }

private:
    std::string name_;
    size_t bytes_ = 0, arena_offset_ = 0;
    void *base_ = nullptr;
    canopy_cosim_shm *shm_ = nullptr;
};

// ------------------------------------------------------------------ PEs
enum class PeState { Running, BlockedRead, BlockedWait, BlockedAny, Detached, Exited };

struct Pe {
    pid_t pid = -1;
    PeState state = PeState::Running;
    uint64_t wake_ns = 0;  // wait deadline
    uint64_t writes_seen = 0;  // BlockedAny: the host's DMA write count at the request
    int exit_status = -1;  // from waitpid, once exited
};

class Cosim {
public:
    Cosim(const Options &o)
        : o_(o), nodes_(o.torus.nodes()), mem_(nodes_, o.arena_mb << 20), ctx_(std::make_unique<VerilatedContext>()) {
        ctx_->fatalOnError(false);  // an assertion ends the run through gotError(), reported below
        tiles_ = std::make_unique<TorusTiles<Vcanopy_node_tile>>(ctx_.get(), o.torus.ndims, o.torus.size);
        const double ns_per_cycle = 1000.0 / o.clock_mhz;
        auto cyc = [&](double ns) { return static_cast<unsigned>(ns / ns_per_cycle + 0.5); };
        PcieTiming t{cyc(o.mmio_write_ns), cyc(o.mmio_read_ns), cyc(o.dma_write_ns), std::max(1u, cyc(o.bridge_ns)),
                     std::max(1u, cyc(o.dma_read_ns)), cyc(o.jitter_ns), o.seed};
        canopy_cosim_shm *s = mem_.shm();
        s->magic = CANOPY_COSIM_MAGIC;
        s->nodes = nodes_;
        s->ndims = o.torus.ndims;
        static_assert(sizeof s->sizes == sizeof o.torus.size, "the shared memory's torus sizes");
        std::memcpy(s->sizes, o.torus.size.data(), sizeof s->sizes);
        s->clock_mhz = o.clock_mhz;
        s->arena_bus_base = kArenaBusBase;
        for (unsigned n = 0; n < nodes_; ++n) {
            sem_init(&s->pe[n].go, 1, 0);
            sem_init(&s->pe[n].done, 1, 0);
            hosts_.emplace_back((*tiles_)[n], n, mem_.arena(n), s->arena_bytes, kArenaBusBase, t);
        }
        for (const auto &f : o.dma_faults) hosts_[f.node].set_fault(f.off, f.bytes);
        pes_.resize(nodes_);
        if (!o.activity_path.empty() && !(activity_ = std::fopen(o.activity_path.c_str(), "w")))
            throw std::runtime_error("cannot write " + o.activity_path + ": " + std::strerror(errno));
        unsigned vc_bits = 0;
        while ((1u << vc_bits) < CANOPY_NUM_VCS) vc_bits++;
        const unsigned link_bits = 64 + vc_bits + 3;  // {ctl, vc, last, body, valid}
        if (o.faults.any()) tiles_->set_faults(o.faults, o.fault_seed, link_bits);
        for (const auto &d : o.dead_links) tiles_->set_dead_link(d.node, d.port, d.cycle, link_bits);
    }

    ~Cosim() {
        if (activity_) std::fclose(activity_);
    }

    int run();

private:
    static constexpr uint64_t kArenaBusBase = 0x10'0000'0000ull;

    uint64_t now_ns() const { return cycle_ * 1000 / o_.clock_mhz; }
    void step();
    void start_pes();
    void wait_blocked(unsigned i);
    void resume(unsigned i);
    void handle_request(unsigned i);
    bool condition_holds(unsigned i);
    void service_pes();
    bool all_finished() const;
    std::string describe_waits() const;
    void fail(const std::string &why);
    void kill_all();
    void job_exit(unsigned i, int status);
    void report_links() const;
    void write_activity();

    Options o_;
    unsigned nodes_;  // of the torus
    SharedMemory mem_;
    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<TorusTiles<Vcanopy_node_tile>> tiles_;
    std::vector<PcieHost> hosts_;
    std::vector<Pe> pes_;
    uint64_t cycle_ = 0;
    bool failed_ = false;
    int job_exit_status_ = -1;  // >= 0 once a PE ended the job (canopy_job_exit)
    std::FILE *activity_ = nullptr;
    uint64_t activity_start_ = 0;  // first cycle of the window being counted
};

void Cosim::fail(const std::string &why) {
    if (!failed_) std::fprintf(stderr, "canopy-cosim: FAIL at cycle %" PRIu64 ": %s\n", cycle_, why.c_str());
    failed_ = true;
}

// What the wire did and what the protected links did about it (stderr, one line).
void Cosim::report_links() const {
    uint64_t flipped = 0, hit = 0, dropped = 0, replays = 0, refused = 0, flits = 0, down = 0, dead_drops = 0;
    for (const canopy::WireFaults &w : tiles_->faults()) flipped += w.bits_flipped, hit += w.words_hit, dropped += w.words_dropped;
    for (unsigned n = 0; n < nodes_; ++n) {
        const Vcanopy_node_tile &t = (*tiles_)[n];
        replays += t.link_replays_o, refused += t.link_errors_o, flits += t.link_flits_o;
        down += static_cast<uint64_t>(__builtin_popcountll(t.link_down_o)), dead_drops += t.link_drops_o;
    }
    std::fprintf(stderr, "canopy-cosim: links: %" PRIu64 " bits flipped, %" PRIu64 " words hit, %" PRIu64 " dropped; %" PRIu64
                 " flits delivered, %" PRIu64 " frames or control words refused, %" PRIu64 " replays; %" PRIu64
                 " link ends down, %" PRIu64 " flits dropped by them\n",
                 flipped, hit, dropped, flits, refused, replays, down, dead_drops);
}

// One line per node that moved anything on its PCIe side in the window just ended: where
// a stream's time goes (which channel is busy every cycle, which one waits). It only
// reads the counts the PCIe model keeps, so the run is the same run with or without it.
void Cosim::write_activity() {
    for (unsigned n = 0; n < nodes_; ++n) {
        const PcieHost::Activity a = hosts_[n].take_activity();
        if (!a.any()) continue;
        std::fprintf(activity_,
                     "{\"cycle\": %" PRIu64 ", \"cycles\": %" PRIu64 ", \"node\": %u, \"mmio_w\": %" PRIu64
                     ", \"mmio_w_wait\": %" PRIu64 ", \"dma_w\": %" PRIu64 ", \"dma_w_wait\": %" PRIu64
                     ", \"dma_r\": %" PRIu64 "}\n",
                     activity_start_, cycle_ - activity_start_, n, a.mmio_w, a.mmio_w_wait, a.dma_w, a.dma_w_wait,
                     a.dma_r);
    }
    activity_start_ = cycle_;
}

void Cosim::step() {
    for (auto &h : hosts_) h.drive(cycle_);
    tiles_->exchange();
    tiles_->eval(false);
    for (auto &h : hosts_) h.sample(cycle_);
    tiles_->eval(true);
    ++cycle_;
    if (activity_ && cycle_ - activity_start_ == o_.activity_window) write_activity();
    if (ctx_->gotError()) fail("RTL assertion failed (see the message above)");
}

void Cosim::start_pes() {
    for (unsigned i = 0; i < nodes_; ++i) {
        pid_t pid = fork();
        if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
        if (pid == 0) {
            setenv("CANOPY_COSIM", mem_.name().c_str(), 1);
            setenv("CANOPY_NODE", std::to_string(i).c_str(), 1);
            execvp(o_.program[0], o_.program.data());
            std::fprintf(stderr, "canopy-cosim: cannot run %s: %s\n", o_.program[0], std::strerror(errno));
            _exit(127);
        }
        pes_[i].pid = pid;
    }
    // Let every PE run up to its first request, in node order.
    for (unsigned i = 0; i < nodes_; ++i) wait_blocked(i);
}

// Block until PE i posts a request (or exits); then act on it.
void Cosim::wait_blocked(unsigned i) {
    Pe &pe = pes_[i];
    canopy_cosim_pe &c = mem_.shm()->pe[i];
    auto started = std::chrono::steady_clock::now();
    for (;;) {
        timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 50'000'000;
        if (ts.tv_nsec >= 1'000'000'000) ts.tv_sec += 1, ts.tv_nsec -= 1'000'000'000;
        if (sem_timedwait(&c.done, &ts) == 0) break;
        int status;
        if (waitpid(pe.pid, &status, WNOHANG) == pe.pid) {
            pe.state = PeState::Exited;
            pe.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
            if (pe.exit_status != 0 && job_exit_status_ < 0)
                fail("PE " + std::to_string(i) + " exited with status " + std::to_string(pe.exit_status));
            return;
        }
        if (std::chrono::steady_clock::now() - started > std::chrono::seconds(o_.pe_wall_timeout_s)) {
            fail("PE " + std::to_string(i) + " ran " + std::to_string(o_.pe_wall_timeout_s) +
                 " s without calling the library (watchdog)");
            // It is still running (a loop that never calls the library): stop it here, or
            // it would outlive the run, since kill_all passes over exited PEs.
            kill(pe.pid, SIGKILL);
            waitpid(pe.pid, nullptr, 0);
            pe.state = PeState::Exited;
            return;
        }
    }
    handle_request(i);
}

void Cosim::resume(unsigned i) {
    canopy_cosim_pe &c = mem_.shm()->pe[i];
    c.now_ns = now_ns();
    c.now_cycles = cycle_;
    pes_[i].state = PeState::Running;
    sem_post(&c.go);
    wait_blocked(i);
}

void Cosim::handle_request(unsigned i) {
    canopy_cosim_pe &c = mem_.shm()->pe[i];
    Pe &pe = pes_[i];
    switch (c.req) {
    case CANOPY_COSIM_REQ_MMIO_WRITE:
        if (c.mmio_len == 0 || c.mmio_len % 8 || c.mmio_len > CANOPY_COSIM_MAX_MMIO) {
            fail("PE " + std::to_string(i) + " sent a malformed MMIO write");
            return;
        }
        hosts_[i].mmio_write(cycle_, c.mmio_off, c.mmio_data, c.mmio_len);
        resume(i);  // posted: the PE goes on at once
        return;
    case CANOPY_COSIM_REQ_MMIO_READ:
        hosts_[i].mmio_read(cycle_, c.mmio_off);
        pe.state = PeState::BlockedRead;
        return;
    case CANOPY_COSIM_REQ_WAIT:
        pe.state = PeState::BlockedWait;
        pe.wake_ns = c.wait_timeout_ns > UINT64_MAX - now_ns() ? UINT64_MAX : now_ns() + c.wait_timeout_ns;
        if (c.wait_arena_off + 8 > mem_.shm()->arena_bytes) {
            fail("PE " + std::to_string(i) + " waits outside its host memory");
            return;
        }
        if (condition_holds(i)) {
            c.resp_status = CANOPY_OK;
            resume(i);
        }
        return;
    case CANOPY_COSIM_REQ_WAIT_ANY:
        pe.state = PeState::BlockedAny;
        pe.wake_ns = c.wait_timeout_ns > UINT64_MAX - now_ns() ? UINT64_MAX : now_ns() + c.wait_timeout_ns;
        pe.writes_seen = hosts_[i].writes_applied();
        return;
    case CANOPY_COSIM_REQ_EXIT:
        pe.state = PeState::Detached;
        sem_post(&c.go);
        return;
    case CANOPY_COSIM_REQ_JOB_EXIT:
        job_exit(i, c.exit_status);
        return;
    default:
        fail("PE " + std::to_string(i) + " sent unknown request " + std::to_string(c.req));
    }
}

bool Cosim::condition_holds(unsigned i) {
    const canopy_cosim_pe &c = mem_.shm()->pe[i];
    uint64_t v;
    std::memcpy(&v, mem_.arena(i) + c.wait_arena_off, sizeof v);
    return canopy_cmp_holds(v & c.wait_mask, c.wait_cmp, c.wait_value);
}

// After each cycle: resume, in node order, every PE whose reason to block is over.
void Cosim::service_pes() {
    for (unsigned i = 0; i < nodes_ && !failed_; ++i) {
        Pe &pe = pes_[i];
        canopy_cosim_pe &c = mem_.shm()->pe[i];
        switch (pe.state) {
        case PeState::BlockedRead:
            if (hosts_[i].read_done(cycle_)) {
                c.resp_value = hosts_[i].take_read_value();
                resume(i);
            }
            break;
        case PeState::BlockedAny:
            if (hosts_[i].writes_applied() != pe.writes_seen) {
                c.resp_status = CANOPY_OK;
                resume(i);
            } else if (now_ns() >= pe.wake_ns) {
                c.resp_status = CANOPY_ETIMEDOUT;
                resume(i);
            }
            break;
        case PeState::BlockedWait:
            if (condition_holds(i)) {
                c.resp_status = CANOPY_OK;
                resume(i);
            } else if (now_ns() >= pe.wake_ns) {
                c.resp_status = CANOPY_ETIMEDOUT;
                resume(i);
            }
            break;
        default:
            break;
        }
    }
}

bool Cosim::all_finished() const {
    for (const Pe &pe : pes_)
        if (pe.state != PeState::Detached && pe.state != PeState::Exited) return false;
    return true;
}

std::string Cosim::describe_waits() const {
    std::string s;
    for (unsigned i = 0; i < nodes_; ++i) {
        const canopy_cosim_pe &c = mem_.shm()->pe[i];
        if (pes_[i].state == PeState::BlockedWait) {
            uint64_t v;
            std::memcpy(&v, mem_.arena(i) + c.wait_arena_off, sizeof v);
            char b[160];
            std::snprintf(b, sizeof b, "\n  PE %u waits for word at host offset 0x%" PRIx64 " (now %" PRIu64
                                       ") to compare %d with %" PRIu64,
                          i, c.wait_arena_off, v, c.wait_cmp, c.wait_value);
            s += b;
        } else if (pes_[i].state == PeState::BlockedAny) {
            s += "\n  PE " + std::to_string(i) + " waits for any write into its host memory";
        }
    }
    return s;
}

void Cosim::kill_all() {
    for (Pe &pe : pes_)
        if (pe.pid > 0 && pe.state != PeState::Exited) kill(pe.pid, SIGKILL);
}

// PE i ends the job: stop the others where they are (they are blocked in a request or
// running between calls; nothing of theirs is waited for), then let PE i go on detached to
// exit by itself. The run ends with `status` as its exit status.
void Cosim::job_exit(unsigned i, int status) {
    std::fprintf(stderr, "canopy-cosim: PE %u ended the job with status %d at cycle %" PRIu64 "\n", i, status, cycle_);
    job_exit_status_ = status < 0 || status > 255 ? 1 : status;
    for (unsigned j = 0; j < nodes_; ++j) {
        Pe &pe = pes_[j];
        if (j == i || pe.state == PeState::Exited) continue;
        kill(pe.pid, SIGKILL);
        waitpid(pe.pid, nullptr, 0);
        pe.state = PeState::Exited;
        pe.exit_status = 0;
    }
    pes_[i].state = PeState::Detached;
    sem_post(&mem_.shm()->pe[i].go);
}

int Cosim::run() {
    tiles_->set_reset(true);
    for (int i = 0; i < 8; ++i) step();
    tiles_->set_reset(false);
    start_pes();
    while (!failed_ && job_exit_status_ < 0 && !all_finished()) {
        step();
        for (auto &h : hosts_)
            for (auto &e : h.errors()) fail(e);
        service_pes();
        if (cycle_ >= o_.max_cycles) fail("simulated-cycle limit reached (watchdog)");
        bool moving = false;
        uint64_t last = 0;
        for (auto &h : hosts_) moving |= h.busy(), last = std::max(last, h.last_activity());
        if (!moving && cycle_ - last > o_.stall_cycles)
            fail("nothing moved for " + std::to_string(o_.stall_cycles) + " cycles with PEs waiting (stall watchdog):" +
                 describe_waits());
    }
    if (failed_) kill_all();
    if (activity_) write_activity();  // the last, partial window
    // Reap every PE: detached ones finish on their own.
    int worst = 0;
    for (unsigned i = 0; i < nodes_; ++i) {
        Pe &pe = pes_[i];
        if (pe.state != PeState::Exited) {
            int status;
            waitpid(pe.pid, &status, 0);
            pe.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
            if (pe.exit_status != 0 && !failed_ && job_exit_status_ < 0)
                fail("PE " + std::to_string(i) + " exited with status " + std::to_string(pe.exit_status));
        }
        worst = std::max(worst, pe.exit_status);
    }
    if (job_exit_status_ >= 0 && !failed_) {
        tiles_->final();
        return job_exit_status_;
    }
    tiles_->final();
    if (CANOPY_LINK_PROTECT && (o_.verbose || o_.faults.any() || !o_.dead_links.empty())) report_links();
    if (!o_.dma_faults.empty()) {
        uint64_t w = 0, r = 0;
        for (const auto &h : hosts_) w += h.refused_writes(), r += h.refused_reads();
        std::fprintf(stderr, "canopy-cosim: --dma-fault: %" PRIu64 " DMA write bursts and %" PRIu64
                     " read bursts refused (SLVERR)\n", w, r);
    }
    if (o_.verbose || failed_)
        std::fprintf(stderr, "canopy-cosim: %u PEs, %" PRIu64 " cycles (%.1f us simulated): %s\n", nodes_,
                     cycle_, now_ns() / 1000.0, failed_ ? "FAILED" : "ok");
    return failed_ || worst != 0 ? 1 : 0;
}

}  // namespace

int main(int argc, char **argv) {
    Options o = parse(argc, argv);
    try {
        Cosim sim(o);
        return sim.run();
    } catch (const std::exception &e) {
        std::fprintf(stderr, "canopy-cosim: %s\n", e.what());
        return 1;
    }
}
