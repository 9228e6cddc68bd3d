/* hal.h: the hardware-access layer under libcanopy's core.
 *
 * The core (core.c) speaks to a device only through these operations; a backend provides
 * them. "sim" (hal_sim.c) turns them into requests to the co-simulation; "pci"
 * (hal_pci.c) into loads and stores on a mapped BAR0 and real DMA memory; "serial"
 * (hal_serial.c) into frames to a board's serial bridge, with the DMA memory on the board
 * and a host copy of it that the backend keeps current at every wait. Nothing above this
 * line knows which one it is talking to.
 *
 * Contract
 *   - mmio_write: len bytes (multiple of 8, at most 4096) at BAR0 offset off, issued as
 *     one posted burst in order with earlier writes (write-combined on pci, so it must be
 *     followed by a flush before a doorbell, which mmio_write does itself at its end).
 *   - mmio_read64: a non-posted 64-bit read; it also orders after all earlier writes.
 *   - dma_alloc: size bytes of zeroed memory the device can write, with its bus address,
 *     aligned to at least 4096, and a region of 2 MiB or more to 2 MiB (the hugepage
 *     size; programs rely on it for large alignments, e.g. OpenSHMEM's shmem_align).
 *     One allocation per call; freed at close.
 *   - wait: block until (*addr & mask) compared by cmp to value holds, or timeout_ns of
 *     device time passes (CANOPY_ETIMEDOUT). addr is inside a dma_alloc'd region.
 *   - wait_any: block until the device has written any of this process's DMA memory since
 *     the call, or timeout_ns of device time passes (CANOPY_ETIMEDOUT); may return early
 *     (callers check again what they wait for).
 *   - now_ns / cycles: device time (see canopy_time_ns).
 *   - node / nodes: where this process runs (sim: given by the launcher; pci: from TOPO).
 *   - map_alias: map the bytes [off, off + len) of the dma_alloc'd region r a second time,
 *     at the fixed address addr (MAP_FIXED | MAP_SHARED over whatever was there), so that
 *     the device's writes into r are seen at addr and stores at addr reach r. addr, off
 *     and len are page aligned. A backend that cannot (pci: hugepage DMA memory cannot be
 *     mapped over program pages) returns CANOPY_ENODEV and changes nothing.
 *   - job_exit: end every other process of the job this one was started with, and make
 *     `status` the job's exit status; the caller goes on and exits by itself. A backend
 *     with no notion of a job (pci: one process per board, started by hand) returns
 *     CANOPY_ENODEV and changes nothing.
 */
#ifndef CANOPY_HAL_H
#define CANOPY_HAL_H

#include <stddef.h>
#include <stdint.h>

#include "canopy.h"

struct canopy_hal;

struct canopy_dma_region {
    void *vaddr;
    uint64_t bus;
    size_t size;
};

struct canopy_hal_ops {
    const char *name;
    int (*mmio_write)(struct canopy_hal *h, uint32_t off, const void *src, size_t len);
    int (*mmio_read64)(struct canopy_hal *h, uint32_t off, uint64_t *value);
    int (*dma_alloc)(struct canopy_hal *h, size_t size, struct canopy_dma_region *out);
    int (*wait)(struct canopy_hal *h, const volatile uint64_t *addr, uint64_t mask, int cmp,
                uint64_t value, uint64_t timeout_ns);
    int (*wait_any)(struct canopy_hal *h, uint64_t timeout_ns);
    uint64_t (*now_ns)(struct canopy_hal *h);
    uint64_t (*cycles)(struct canopy_hal *h);
    int (*map_alias)(struct canopy_hal *h, const struct canopy_dma_region *r, uint64_t off, void *addr,
                     size_t len);
    int (*job_exit)(struct canopy_hal *h, int status);
    void (*close)(struct canopy_hal *h);
};

struct canopy_hal {
    const struct canopy_hal_ops *ops;
    /* Regions of 2 MiB or more that every process of the job allocates alike (the same
     * sizes in the same order) lie at addresses congruent modulo this power of two (sim:
     * set by the arena layout; pci: 2 MiB, the hugepage). */
    uint64_t congruence;
    int node;    /* -1 if the backend learns it from the device (TOPO) */
    int nodes;   /* -1 likewise */
    void *priv;  /* backend state */
};

/* Backend constructors: fill *h or return a negative canopy_status, with a sentence in
 * errmsg (if not NULL) saying what was tried, e.g. which devices were searched. */
int canopy_hal_sim_open(struct canopy_hal *h, char *errmsg, size_t errmsg_len);
int canopy_hal_pci_open(struct canopy_hal *h, const struct canopy_open_opts *opts, char *errmsg,
                        size_t errmsg_len);
int canopy_hal_serial_open(struct canopy_hal *h, const struct canopy_open_opts *opts, char *errmsg,
                           size_t errmsg_len);

#endif /* CANOPY_HAL_H */
