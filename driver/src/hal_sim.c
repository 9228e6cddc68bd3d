/* hal_sim.c: libcanopy's "sim" backend: device access through the co-simulation.
 *
 * Every operation becomes a request in this PE's control block of the shared-memory
 * object named by CANOPY_COSIM (see sim/include/canopy_cosim.h): fill the request, post
 * `done`, block on `go`, read the response. The simulator decides when the PE resumes, in
 * simulated time, which is what makes runs deterministic; the PE never spins.
 */
#include <errno.h>
#include <fcntl.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "canopy_cosim.h"
#include "hal.h"

struct sim_priv {
    struct canopy_cosim_shm *shm;
    size_t shm_bytes;
    struct canopy_cosim_pe *pe;
    uint8_t *arena;
};

static struct sim_priv *priv_of(struct canopy_hal *h) { return (struct sim_priv *)h->priv; }

/* Hand the request to the simulator and block until it resumes us. */
static void sim_call(struct sim_priv *p, uint32_t req)
{
    p->pe->req = req;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    sem_post(&p->pe->done);
    while (sem_wait(&p->pe->go) != 0 && errno == EINTR) {
    }
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

static int sim_mmio_write(struct canopy_hal *h, uint32_t off, const void *src, size_t len)
{
    struct sim_priv *p = priv_of(h);
    if (len == 0 || len % 8 || len > CANOPY_COSIM_MAX_MMIO) return CANOPY_EINVAL;
    p->pe->mmio_off = off;
    p->pe->mmio_len = (uint32_t)len;
    memcpy(p->pe->mmio_data, src, len);
    sim_call(p, CANOPY_COSIM_REQ_MMIO_WRITE);
    return CANOPY_OK;
}

static int sim_mmio_read64(struct canopy_hal *h, uint32_t off, uint64_t *value)
{
    struct sim_priv *p = priv_of(h);
    p->pe->mmio_off = off;
    p->pe->mmio_len = 8;
    sim_call(p, CANOPY_COSIM_REQ_MMIO_READ);
    *value = p->pe->resp_value;
    return CANOPY_OK;
}

static int sim_dma_alloc(struct canopy_hal *h, size_t size, struct canopy_dma_region *out)
{
    struct sim_priv *p = priv_of(h);
    /* Large regions on a hugepage boundary, as on a board (hal.h). */
    const uint64_t align = size >= CANOPY_COSIM_ARENA_ALIGN ? CANOPY_COSIM_ARENA_ALIGN : 4096;
    uint64_t start = (p->pe->arena_used + align - 1) & ~(align - 1);
    if (size == 0 || start + size > p->shm->arena_bytes || start + size < start) return CANOPY_ENOMEM;
    p->pe->arena_used = start + size;
    out->vaddr = p->arena + start;
    out->bus = p->shm->arena_bus_base + start;
    out->size = size;
    /* Zero already: the object is created empty (ftruncate) and the bump allocator never
     * hands out the same bytes twice, so no memset (which would touch every page of a
     * large, mostly unused symmetric heap). */
    return CANOPY_OK;
}

static int sim_wait(struct canopy_hal *h, const volatile uint64_t *addr, uint64_t mask, int cmp,
                    uint64_t value, uint64_t timeout_ns)
{
    struct sim_priv *p = priv_of(h);
    const uint8_t *a = (const uint8_t *)(uintptr_t)addr;
    if (a < p->arena || a + 8 > p->arena + p->shm->arena_bytes || ((uintptr_t)a & 7)) {
        return CANOPY_ENOTREG;
    }
    /* Already true: no need to involve the simulator (and no simulated time passes). */
    if (canopy_cmp_holds(*addr & mask, cmp, value)) return CANOPY_OK;
    p->pe->wait_arena_off = (uint64_t)(a - p->arena);
    p->pe->wait_mask = mask;
    p->pe->wait_cmp = cmp;
    p->pe->wait_value = value;
    p->pe->wait_timeout_ns = timeout_ns;
    sim_call(p, CANOPY_COSIM_REQ_WAIT);
    return p->pe->resp_status;
}

/* The simulator resumes the PE at the first DMA write into its host memory after the
 * request, or at the timeout. */
static int sim_wait_any(struct canopy_hal *h, uint64_t timeout_ns)
{
    struct sim_priv *p = priv_of(h);
    p->pe->wait_timeout_ns = timeout_ns;
    sim_call(p, CANOPY_COSIM_REQ_WAIT_ANY);
    return p->pe->resp_status;
}

static uint64_t sim_now_ns(struct canopy_hal *h) { return priv_of(h)->pe->now_ns; }
static uint64_t sim_cycles(struct canopy_hal *h) { return priv_of(h)->pe->now_cycles; }

/* The window is part of this PE's arena in the co-simulation's shared-memory object, so a
 * second MAP_SHARED mapping of the same object range at addr is the same memory: the
 * simulated device's DMA writes are visible at both addresses. */
static int sim_map_alias(struct canopy_hal *h, const struct canopy_dma_region *r, uint64_t off, void *addr,
                         size_t len)
{
    struct sim_priv *p = priv_of(h);
    const uint8_t *v = r->vaddr;
    const long page = sysconf(_SC_PAGESIZE);
    const uint64_t arena_off = (uint64_t)(v - p->arena) + off;
    const uint64_t file_off = (uint64_t)((const uint8_t *)p->arena - (const uint8_t *)p->shm) + arena_off;
    if (page <= 0 || len == 0 || off + len > r->size || file_off % (uint64_t)page || len % (size_t)page ||
        (uintptr_t)addr % (uintptr_t)page)
        return CANOPY_EINVAL;
    const char *name = getenv("CANOPY_COSIM");
    int fd = name ? shm_open(name, O_RDWR, 0) : -1;
    if (fd < 0) return CANOPY_ENODEV;
    void *m = mmap(addr, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, (off_t)file_off);
    close(fd);
    return m == addr ? CANOPY_OK : CANOPY_ENOMEM;
}

/* The simulator stops every other PE now and ends the run with status once this one has
 * exited; this PE is detached, as after close. */
static int sim_job_exit(struct canopy_hal *h, int status)
{
    struct sim_priv *p = priv_of(h);
    p->pe->exit_status = status;
    sim_call(p, CANOPY_COSIM_REQ_JOB_EXIT);
    return CANOPY_OK;
}

/* Detach: this PE makes no more requests; the simulator stops scheduling it. */
static void sim_close(struct canopy_hal *h)
{
    struct sim_priv *p = priv_of(h);
    if (!p) return;
    p->pe->exit_status = 0;
    sim_call(p, CANOPY_COSIM_REQ_EXIT);
    munmap(p->shm, p->shm_bytes);
    free(p);
    h->priv = NULL;
}

static const struct canopy_hal_ops sim_ops = {
    .name = "sim",
    .mmio_write = sim_mmio_write,
    .mmio_read64 = sim_mmio_read64,
    .dma_alloc = sim_dma_alloc,
    .wait = sim_wait,
    .wait_any = sim_wait_any,
    .now_ns = sim_now_ns,
    .cycles = sim_cycles,
    .map_alias = sim_map_alias,
    .job_exit = sim_job_exit,
    .close = sim_close,
};

/* Map the whole object at an address aligned to CANOPY_COSIM_MAP_ALIGN (canopy_cosim.h,
 * "Alignment"): reserve the size plus one alignment (address space only), map the object
 * over the aligned part, give back the rest. */
static void *map_aligned(int fd, size_t len)
{
    const size_t align = (size_t)CANOPY_COSIM_MAP_ALIGN;
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    len = (len + page - 1) & ~(page - 1);
    uint8_t *r = mmap(NULL, len + align, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (r == MAP_FAILED) return MAP_FAILED;
    uint8_t *a = (uint8_t *)(((uintptr_t)r + align - 1) & ~(uintptr_t)(align - 1));
    void *m = mmap(a, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0);
    if (m == MAP_FAILED) {
        munmap(r, len + align);
        return MAP_FAILED;
    }
    if (a > r) munmap(r, (size_t)(a - r));
    munmap(a + len, (size_t)(r + align - a)); /* the tail: a < r + align, so never empty */
    return m;
}

int canopy_hal_sim_open(struct canopy_hal *h, char *errmsg, size_t errmsg_len)
{
    const char *name = getenv("CANOPY_COSIM");
    const char *node_s = getenv("CANOPY_NODE");
    if (!name || !node_s) {
        if (errmsg) snprintf(errmsg, errmsg_len, "sim: not started by canopy-run (CANOPY_COSIM unset)");
        return CANOPY_ENODEV;
    }
    int fd = shm_open(name, O_RDWR, 0);
    if (fd < 0) {
        if (errmsg) snprintf(errmsg, errmsg_len, "sim: shm_open(%s): %s", name, strerror(errno));
        return CANOPY_ENODEV;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || (size_t)st.st_size < sizeof(struct canopy_cosim_shm)) {
        close(fd);
        if (errmsg) snprintf(errmsg, errmsg_len, "sim: %s is not a co-simulation object", name);
        return CANOPY_EIO;
    }
    void *m = map_aligned(fd, (size_t)st.st_size);
    close(fd);
    if (m == MAP_FAILED) {
        if (errmsg) snprintf(errmsg, errmsg_len, "sim: mmap(%s): %s", name, strerror(errno));
        return CANOPY_ENOMEM;
    }
    struct canopy_cosim_shm *shm = m;
    char *end = NULL;
    long node = strtol(node_s, &end, 10);
    if (shm->magic != CANOPY_COSIM_MAGIC || *end || node < 0 || node >= (long)shm->nodes) {
        munmap(m, (size_t)st.st_size);
        if (errmsg) snprintf(errmsg, errmsg_len, "sim: bad co-simulation object or CANOPY_NODE=%s", node_s);
        return CANOPY_EIO;
    }
    struct sim_priv *p = calloc(1, sizeof *p);
    if (!p) {
        munmap(m, (size_t)st.st_size);
        return CANOPY_ENOMEM;
    }
    p->shm = shm;
    p->shm_bytes = (size_t)st.st_size;
    p->pe = &shm->pe[node];
    p->arena = (uint8_t *)m + shm->arena_offset + (uint64_t)node * shm->arena_bytes;
    h->ops = &sim_ops;
    h->priv = p;
    /* Allocations alike in every arena: congruent modulo arena_bytes' power-of-two factor
     * (the mapping is aligned to more), at least 2 MiB. */
    uint64_t c = shm->arena_bytes & (~shm->arena_bytes + 1);
    if (c > CANOPY_COSIM_MAP_ALIGN) c = CANOPY_COSIM_MAP_ALIGN;
    h->congruence = c < CANOPY_COSIM_ARENA_ALIGN ? CANOPY_COSIM_ARENA_ALIGN : c;
    h->node = (int)node;
    h->nodes = (int)shm->nodes;
    return CANOPY_OK;
}
