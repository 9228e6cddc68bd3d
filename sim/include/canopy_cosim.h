/* canopy_cosim.h: the shared-memory protocol between the co-simulator and PE processes.
 *
 * The co-simulator (sim/cosim_main.cpp, started by sim/canopy-run) creates one POSIX
 * shared-memory object holding a header, one control block per PE and one host-memory
 * arena per PE, then starts the PE processes with CANOPY_COSIM (the object's name) and
 * CANOPY_NODE in their environment. libcanopy's sim backend (driver/src/hal_sim.c) maps
 * it.
 *
 * Determinism. A PE runs only while the simulator waits for it. Every backend call is a
 * request: the PE fills its control block, posts `done` and blocks on `go`. The simulator
 * handles requests at a defined simulated cycle, in PE order, and resumes one PE at a
 * time; so the interleaving of PE actions and simulated time is a function of the
 * programs alone, never of the OS scheduler. PE code between calls takes no simulated
 * time. Nobody spins: both sides block on semaphores.
 *
 * Host memory. Arena i is PE i's DMA-able memory: the simulator's model of PE i's host
 * writes DMA data into it; the PE allocates from it with a bump pointer it owns. Bus
 * address of arena byte x is arena_bus_base + x (the same base for every PE: each PE has
 * its own bus, as each host has its own PCIe hierarchy).
 *
 * Alignment. arena_offset and arena_bytes are multiples of CANOPY_COSIM_ARENA_ALIGN, and
 * every PE maps the object at an address aligned to CANOPY_COSIM_MAP_ALIGN (1 GiB), so an
 * arena allocation of at least 2 MiB starts on such a boundary, as hugepage DMA memory does
 * on a board; and the same allocation in two PEs' arenas (the same offset in each: PEs
 * allocate alike) lies at addresses congruent modulo the largest power of two dividing
 * arena_bytes, up to 1 GiB (what lets OpenSHMEM's shmem_align give one symmetric offset
 * aligned on every PE, for alignments that large).
 */
#ifndef CANOPY_COSIM_H
#define CANOPY_COSIM_H

#include <semaphore.h>
#include <stdint.h>

#define CANOPY_COSIM_MAGIC 0x43534D32u /* "2MSC" */
#define CANOPY_COSIM_MAX_MMIO 4096u    /* bytes in one MMIO write request */
#define CANOPY_COSIM_ARENA_ALIGN ((uint64_t)2 << 20) /* the hugepage size: see "Alignment" */
#define CANOPY_COSIM_MAP_ALIGN ((uint64_t)1 << 30)   /* where a PE maps the object: see "Alignment" */

enum canopy_cosim_req {
    CANOPY_COSIM_REQ_NONE = 0,
    CANOPY_COSIM_REQ_MMIO_WRITE = 1, /* posted: resumes at once */
    CANOPY_COSIM_REQ_MMIO_READ = 2,  /* resumes when the read completes */
    CANOPY_COSIM_REQ_WAIT = 3,       /* resumes when the condition holds or times out */
    CANOPY_COSIM_REQ_EXIT = 4,       /* detach: the PE makes no more requests (canopy_close) */
    CANOPY_COSIM_REQ_JOB_EXIT = 5,   /* end the job with exit_status: every other PE is stopped,
                                        this one resumes detached and exits (canopy_job_exit) */
    CANOPY_COSIM_REQ_WAIT_ANY = 6,   /* resumes at the first DMA write into this PE's host memory
                                        after the request (resp_status 0), or after
                                        wait_timeout_ns (CANOPY_ETIMEDOUT) */
};

struct canopy_cosim_pe {
    /* PE -> simulator: the request. */
    uint32_t req;
    uint32_t mmio_off;
    uint32_t mmio_len;
    int32_t wait_cmp;       /* CANOPY_CMP_* */
    uint64_t wait_arena_off; /* the watched word, as an offset into this PE's arena */
    uint64_t wait_mask;
    uint64_t wait_value;
    uint64_t wait_timeout_ns;
    int32_t exit_status;    /* CANOPY_COSIM_REQ_JOB_EXIT */
    uint32_t pad0;
    /* Simulator -> PE: the response. */
    uint64_t resp_value;
    int32_t resp_status;    /* 0, or CANOPY_ETIMEDOUT for a wait */
    uint32_t pad1;
    uint64_t now_ns;
    uint64_t now_cycles;
    /* PE-owned: the arena's bump allocator. */
    uint64_t arena_used;
    sem_t go;
    sem_t done;
    uint8_t mmio_data[CANOPY_COSIM_MAX_MMIO];
} __attribute__((aligned(64)));

struct canopy_cosim_shm {
    uint32_t magic;
    uint32_t nodes;
    uint32_t ndims;
    uint32_t sizes[4];
    uint32_t clock_mhz;     /* router clock: cycles to ns */
    uint64_t arena_bytes;   /* per PE */
    uint64_t arena_bus_base;
    uint64_t arena_offset;  /* from the start of the object to arena 0 */
    struct canopy_cosim_pe pe[]; /* nodes of them */
};

#endif /* CANOPY_COSIM_H */
