/* hal_pci.c: the "pci" backend of libcanopy's hardware-access layer (see hal.h).
 *
 * A canopy board behind a PCIe-to-AXI bridge. libpciaccess finds the device (by bus
 * address, by vendor:device id, or by canopy's default id) and maps BAR0 through sysfs in
 * two parts: the CSR half uncached, the injection ring window write-combined. MMIO is
 * plain 64-bit loads and stores with fences. DMA memory is 2 MiB hugepages, locked, whose
 * bus address is their physical address as /proc/self/pagemap reports it.
 *
 * With the IOMMU on: a board bound to the vfio-pci driver is opened through VFIO instead
 * (pci_vfio.c, chosen automatically from the device's sysfs `driver` link): BAR0 and the
 * config space through the VFIO device, DMA memory mapped through the VFIO container
 * (VFIO_IOMMU_MAP_DMA) at I/O virtual addresses, no pagemap, no hugepages, no root beyond
 * access to /dev/vfio. The rest of this comment is about the other, sysfs path.
 *
 * Assumptions and limits (docs/bring-up.md says how to prepare a machine):
 *   - No IOMMU translation: the device is handed physical addresses, so the IOMMU must be
 *     off or in passthrough for it (or the device bound to vfio-pci: above).
 *   - Root (CAP_SYS_ADMIN): pagemap shows physical frame numbers only to it, and sysfs
 *     BAR mapping and config space writes (bus mastering) need it too.
 *   - Hugepages are reserved beforehand (vm.nr_hugepages). A DMA region is physically
 *     contiguous: one of at most 2 MiB is carved out of one hugepage (small regions share
 *     a hugepage); a larger one takes consecutive hugepages and is refused unless pagemap
 *     shows them physically contiguous.
 *   - libpciaccess keeps process-wide state: pci_system_init / pci_system_cleanup act on
 *     one global of that library, so a process holds at most one pci handle at a time.
 *     Everything of this backend lives in the handle's priv; this file has no mutable
 *     global state.
 *   - A dma_alloc failure has no errmsg channel in hal.h: its sentence is kept in the
 *     priv (err) and printed on stderr, prefixed "libcanopy: ".
 *   - Not yet run against a board: everything that needs one is untested. The tests
 *     (tests/driver-pci/) exercise the search on the real PCI list, the whole open path
 *     on a fake sysfs device, parsing, MMIO on a fake BAR, pagemap decoding, waiting and
 *     the no-hugepage path.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* MAP_HUGETLB, MADV_DONTFORK, GNU strerror_r */
#endif

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <pciaccess.h>

#include "canopy.h"
#include "canopy_regs.h"
#include "hal.h"
#include "pci_vfio.h"

/* The id a canopy board is found by when neither pci_id nor pci_addr is given. An
 * experimental placeholder (0x1234 is not canopy's vendor id): boards must be built with
 * it, or the program passes pci_id / pci_addr. See docs/bring-up.md. */
#define CANOPY_PCI_VENDOR 0x1234u
#define CANOPY_PCI_DEVICE 0xc0a7u

#define PCI_HUGE_BYTES ((size_t)2 << 20) /* the hugepage size used for DMA memory */
#define PCI_DMA_ALIGN ((size_t)4096)     /* regions are carved at this granularity */
#define PCI_CFG_COMMAND 0x04u            /* config space command register */
#define PCI_CMD_MEMORY 0x0002u           /* memory space decoding */
#define PCI_CMD_MASTER 0x0004u           /* bus mastering (the device may DMA) */

#ifndef MAP_HUGE_SHIFT
#define MAP_HUGE_SHIFT 26
#endif
#ifndef MAP_HUGE_2MB
#define MAP_HUGE_2MB (21 << MAP_HUGE_SHIFT)
#endif

#define PCI_HUGE_SYSFS "/sys/kernel/mm/hugepages/hugepages-2048kB"

struct pci_huge {          /* one hugetlb mapping: one or more consecutive hugepages */
    unsigned char *va;
    uint64_t bus;          /* bus (= physical) address of va */
    size_t len;            /* bytes mapped, a multiple of PCI_HUGE_BYTES */
    size_t used;           /* bytes already carved into regions, from the start */
};

struct pci_priv {
    int sys_inited;              /* pci_system_init succeeded: cleanup owed */
    struct pci_device *dev;      /* the board (NULL until found) */
    void *csr_map, *win_map;     /* pci_device_map_range results (NULL: not mapped) */
    volatile uint8_t *csr;       /* BAR0 [0, CANOPY_INJ_WINDOW_OFFSET), uncached */
    volatile uint8_t *win;       /* BAR0 [CANOPY_INJ_WINDOW_OFFSET, CANOPY_BAR0_BYTES), WC */
    struct pci_huge *huge;       /* DMA memory, freed at close */
    size_t nhuge, huge_cap;
    uint64_t page_size;          /* base page size, for pagemap */
    char addr[24];               /* "dddd:bb:ss.f" of the device */
    char where[48];              /* "dddd:bb:ss.f (vvvv:dddd)", for messages */
    char err[384];               /* the last operation failure, as a sentence */
    int vfio;                    /* opened through VFIO (pci_vfio.c): vf holds the device */
    struct vfio_dev vf;
};

/* ---- messages ---------------------------------------------------------------------- */

__attribute__((format(printf, 3, 4)))
static void pci_msg(char *buf, size_t len, const char *fmt, ...)
{
    if (buf == NULL || len == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, len, fmt, ap);
    va_end(ap);
}

/* An operation's failure: kept in the priv and printed, as hal.h has no errmsg for it. */
__attribute__((format(printf, 2, 3)))
static void pci_op_msg(struct pci_priv *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err, sizeof p->err, fmt, ap);
    va_end(ap);
    fprintf(stderr, "libcanopy: %s\n", p->err);
}

static const char *pci_errstr(int e, char *buf, size_t len)
{
    return strerror_r(e, buf, len); /* GNU variant: returns the text */
}

/* An errno from libpciaccess or the OS as a canopy status. */
static int pci_errno_status(int e, int otherwise)
{
    switch (e) {
    case EPERM:
    case EACCES: return CANOPY_EPERM;
    case ENOMEM: return CANOPY_ENOMEM;
    default: return otherwise;
    }
}

/* ---- parsers ----------------------------------------------------------------------- */

/* min..max hex digits at *s into *out; advances *s. 0 on success, -1 otherwise. */
static int pci_hex_field(const char **s, unsigned min, unsigned max, uint32_t *out)
{
    uint32_t v = 0;
    unsigned n = 0;
    for (;;) {
        char c = (*s)[n];
        unsigned d;
        if (c >= '0' && c <= '9')
            d = (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            d = (unsigned)(c - 'a') + 10u;
        else if (c >= 'A' && c <= 'F')
            d = (unsigned)(c - 'A') + 10u;
        else
            break;
        if (n == max)
            return -1;
        v = (v << 4) | d;
        n++;
    }
    if (n < min)
        return -1;
    *s += n;
    *out = v;
    return 0;
}

/* "vvvv:dddd": exactly 4 hex digits each, nothing before or after. */
static int pci_parse_id(const char *s, uint16_t *vendor, uint16_t *device)
{
    uint32_t v, d;
    if (s == NULL || pci_hex_field(&s, 4, 4, &v) || *s++ != ':' || pci_hex_field(&s, 4, 4, &d) ||
        *s != '\0')
        return -1;
    *vendor = (uint16_t)v;
    *device = (uint16_t)d;
    return 0;
}

struct pci_bdf {
    uint32_t domain, bus, slot, func;
};

/* "dddd:bb:ss.f" as `lspci -D` prints it: domain 4 hex digits, bus 2, slot 2 (at most 1f),
 * function 1 (at most 7); nothing before or after. (libpciaccess lists no device in a
 * domain above ffff, such as VMD's 10000, so such addresses are refused here too.) */
static int pci_parse_addr(const char *s, struct pci_bdf *a)
{
    struct pci_bdf r;
    if (s == NULL || pci_hex_field(&s, 4, 4, &r.domain) || *s++ != ':' ||
        pci_hex_field(&s, 2, 2, &r.bus) || *s++ != ':' || pci_hex_field(&s, 2, 2, &r.slot) ||
        *s++ != '.' || pci_hex_field(&s, 1, 1, &r.func) || *s != '\0' || r.slot > 0x1f ||
        r.func > 7)
        return -1;
    *a = r;
    return 0;
}

/* ---- DMA memory: pagemap and contiguity ---------------------------------------------- */

/* The physical address of vaddr from its 64-bit /proc/self/pagemap entry: bit 63 present,
 * bits 54..0 the page frame number (read as 0 without CAP_SYS_ADMIN). */
static int pci_pagemap_phys(uint64_t entry, uint64_t vaddr, uint64_t page_size, uint64_t *phys)
{
    if (!((entry >> 63) & 1u))
        return CANOPY_ENOMEM; /* not resident */
    uint64_t pfn = entry & ((UINT64_C(1) << 55) - 1u);
    if (pfn == 0)
        return CANOPY_EPERM;
    *phys = pfn * page_size + vaddr % page_size;
    return CANOPY_OK;
}

/* Whether n pieces of step bytes each, at physical addresses phys[], form one range. */
static int pci_phys_contiguous(const uint64_t *phys, size_t n, uint64_t step)
{
    for (size_t i = 1; i < n; i++)
        if (phys[i] != phys[0] + (uint64_t)i * step)
            return 0;
    return 1;
}

/* The bus address of va (this backend assumes bus == physical: no IOMMU translation). */
static int pci_virt_to_bus(struct pci_priv *p, const void *va, uint64_t *bus)
{
    char eb[96];
    int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        pci_op_msg(p, "pci: cannot open /proc/self/pagemap to learn DMA bus addresses (%s)",
                   pci_errstr(e, eb, sizeof eb));
        return pci_errno_status(e, CANOPY_ENOMEM);
    }
    uint64_t entry = 0;
    off_t off = (off_t)(((uintptr_t)va / p->page_size) * sizeof entry);
    ssize_t n = pread(fd, &entry, sizeof entry, off);
    int e = errno;
    close(fd);
    if (n != (ssize_t)sizeof entry) {
        pci_op_msg(p, "pci: cannot read /proc/self/pagemap (%s)",
                   n < 0 ? pci_errstr(e, eb, sizeof eb) : "short read");
        return pci_errno_status(n < 0 ? e : EIO, CANOPY_ENOMEM);
    }
    int st = pci_pagemap_phys(entry, (uintptr_t)va, p->page_size, bus);
    if (st == CANOPY_EPERM)
        pci_op_msg(p, "pci: /proc/self/pagemap shows page frame 0, so DMA bus addresses are "
                      "unknown: reading physical addresses needs CAP_SYS_ADMIN (run as root)");
    else if (st != CANOPY_OK)
        pci_op_msg(p, "pci: a locked DMA page is not resident according to /proc/self/pagemap");
    return st;
}

/* A small number from a sysfs/procfs file, or -1. */
static long pci_read_long(const char *path)
{
    FILE *f = fopen(path, "re");
    long v = -1;
    if (f == NULL)
        return -1;
    if (fscanf(f, "%ld", &v) != 1)
        v = -1;
    fclose(f);
    return v;
}

/* Take need bytes (a multiple of PCI_DMA_ALIGN) from the free tail of m, zeroed. */
static int pci_carve(struct pci_huge *m, size_t need, size_t size, struct canopy_dma_region *out)
{
    if (m->len - m->used < need)
        return 0;
    out->vaddr = m->va + m->used;
    out->bus = m->bus + m->used;
    out->size = size;
    memset(out->vaddr, 0, need);
    m->used += need;
    return 1;
}

/* Map, lock and translate len bytes (a multiple of PCI_HUGE_BYTES) of hugepages. */
static int pci_huge_map(struct pci_priv *p, size_t len, size_t size, struct pci_huge *m)
{
    char eb[96];
    size_t pages = len / PCI_HUGE_BYTES;
    void *va = mmap(NULL, len, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | MAP_HUGE_2MB, -1, 0);
    if (va == MAP_FAILED) {
        int e = errno;
        long total = pci_read_long(PCI_HUGE_SYSFS "/nr_hugepages");
        long avail = pci_read_long(PCI_HUGE_SYSFS "/free_hugepages");
        char counts[64] = "";
        if (total >= 0 && avail >= 0)
            snprintf(counts, sizeof counts, "; %ld reserved, %ld free", total, avail);
        pci_op_msg(p,
                   "pci: cannot get %zu hugepage%s of 2 MiB for a %zu-byte DMA region (mmap "
                   "MAP_HUGETLB: %s%s); reserve them first, e.g. as root: echo 64 > "
                   "/proc/sys/vm/nr_hugepages (or " PCI_HUGE_SYSFS "/nr_hugepages if the "
                   "default hugepage size is not 2 MiB)",
                   pages, pages == 1 ? "" : "s", size, pci_errstr(e, eb, sizeof eb), counts);
        return e == EPERM || e == EACCES ? CANOPY_EPERM : CANOPY_ENOMEM;
    }
    /* A fork must not turn these pages copy-on-write under the device. */
    (void)madvise(va, len, MADV_DONTFORK);
    if (mlock(va, len) != 0) {
        int e = errno;
        munmap(va, len);
        pci_op_msg(p, "pci: cannot lock %zu bytes of DMA memory (mlock: %s); raise the "
                      "locked-memory limit (ulimit -l) or run as root",
                   len, pci_errstr(e, eb, sizeof eb));
        return pci_errno_status(e, CANOPY_ENOMEM);
    }
    memset(va, 0, len); /* fault every page in */

    uint64_t phys[64];
    uint64_t *ph = pages <= 64 ? phys : malloc(pages * sizeof *ph);
    int st = CANOPY_OK;
    if (ph == NULL) {
        pci_op_msg(p, "pci: out of memory for DMA bookkeeping");
        st = CANOPY_ENOMEM;
    }
    for (size_t i = 0; st == CANOPY_OK && i < pages; i++)
        st = pci_virt_to_bus(p, (unsigned char *)va + i * PCI_HUGE_BYTES, &ph[i]);
    if (st == CANOPY_OK && !pci_phys_contiguous(ph, pages, PCI_HUGE_BYTES)) {
        pci_op_msg(p, "pci: the %zu hugepages for a %zu-byte DMA region are not physically "
                      "contiguous; use regions of at most 2 MiB, or reserve hugepages at boot "
                      "(hugepages=N on the kernel command line) when memory is unfragmented",
                   pages, size);
        st = CANOPY_ENOMEM;
    }
    if (st == CANOPY_OK)
        *m = (struct pci_huge){ .va = va, .bus = ph[0], .len = len, .used = 0 };
    if (ph != phys)
        free(ph);
    if (st != CANOPY_OK)
        munmap(va, len);
    return st;
}

/* ---- operations -------------------------------------------------------------------- */

static struct pci_priv *pci_priv_of(struct canopy_hal *h)
{
    return h == NULL ? NULL : (struct pci_priv *)h->priv;
}

/* Architecture fences. After MMIO stores: drain write-combining buffers, so the data is
 * on its way to the device before any later store (the caller's doorbell). Around an
 * MMIO load: order it after every earlier store and before every later access. */
static inline void pci_store_fence(void)
{
#if defined(__x86_64__)
    __builtin_ia32_sfence();
#elif defined(__aarch64__)
    __asm__ __volatile__("dsb st" ::: "memory");
#endif
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

static inline void pci_full_fence(void)
{
#if defined(__x86_64__)
    __builtin_ia32_mfence();
#elif defined(__aarch64__)
    __asm__ __volatile__("dsb sy" ::: "memory");
#endif
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

static inline void pci_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* The mapped address of BAR0 offset off (8-byte aligned, inside BAR0). */
static inline volatile uint64_t *pci_reg(struct pci_priv *p, uint32_t off)
{
    if (off < CANOPY_INJ_WINDOW_OFFSET)
        return (volatile uint64_t *)(p->csr + off);
    return (volatile uint64_t *)(p->win + (off - CANOPY_INJ_WINDOW_OFFSET));
}

static int pci_mmio_range_ok(uint32_t off, size_t len)
{
    return off % 8u == 0 && len % 8u == 0 && len > 0 && off < CANOPY_BAR0_BYTES &&
           len <= (size_t)(CANOPY_BAR0_BYTES - off);
}

static int pci_mmio_write(struct canopy_hal *h, uint32_t off, const void *src, size_t len)
{
    struct pci_priv *p = pci_priv_of(h);
    if (p == NULL || p->csr == NULL || p->win == NULL || src == NULL ||
        !pci_mmio_range_ok(off, len))
        return CANOPY_EINVAL;
    const unsigned char *s = src;
    for (size_t i = 0; i < len; i += 8) {
        uint64_t v;
        memcpy(&v, s + i, sizeof v); /* src may be unaligned */
        *pci_reg(p, off + (uint32_t)i) = v;
    }
    pci_store_fence();
    return CANOPY_OK;
}

static int pci_mmio_read64(struct canopy_hal *h, uint32_t off, uint64_t *value)
{
    struct pci_priv *p = pci_priv_of(h);
    if (p == NULL || p->csr == NULL || p->win == NULL || value == NULL ||
        !pci_mmio_range_ok(off, 8))
        return CANOPY_EINVAL;
    pci_full_fence();
    uint64_t v = *pci_reg(p, off);
    pci_full_fence();
    *value = v;
    return CANOPY_OK;
}

static int pci_dma_alloc(struct canopy_hal *h, size_t size, struct canopy_dma_region *out)
{
    struct pci_priv *p = pci_priv_of(h);
    if (p == NULL || out == NULL || size == 0 || size > SIZE_MAX - PCI_HUGE_BYTES)
        return CANOPY_EINVAL;
    if (p->vfio) {
        void *va;
        uint64_t bus;
        int st = vfio_dma_alloc(&p->vf, size, &va, &bus, p->err, sizeof p->err);
        if (st != CANOPY_OK) {
            fprintf(stderr, "libcanopy: %s\n", p->err);
            return st;
        }
        out->vaddr = va;
        out->bus = bus;
        out->size = size;
        return CANOPY_OK;
    }
    size_t need = (size + PCI_DMA_ALIGN - 1) & ~(PCI_DMA_ALIGN - 1);
    /* A region of a hugepage or more gets mappings of its own, so it starts on a
     * hugepage boundary (hal.h); smaller ones share the tails. */
    for (size_t i = 0; i < p->nhuge && need < PCI_HUGE_BYTES; i++)
        if (pci_carve(&p->huge[i], need, size, out))
            return CANOPY_OK;
    if (p->nhuge == p->huge_cap) {
        size_t cap = p->huge_cap ? 2 * p->huge_cap : 8;
        struct pci_huge *n = realloc(p->huge, cap * sizeof *n);
        if (n == NULL) {
            pci_op_msg(p, "pci: out of memory for DMA bookkeeping");
            return CANOPY_ENOMEM;
        }
        p->huge = n;
        p->huge_cap = cap;
    }
    size_t len = (need + PCI_HUGE_BYTES - 1) & ~(PCI_HUGE_BYTES - 1);
    struct pci_huge m;
    int st = pci_huge_map(p, len, size, &m);
    if (st != CANOPY_OK)
        return st;
    p->huge[p->nhuge++] = m;
    (void)pci_carve(&p->huge[p->nhuge - 1], need, size, out);
    return CANOPY_OK;
}

static uint64_t pci_now_ns(struct canopy_hal *h)
{
    (void)h;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
}

static uint64_t pci_cycles(struct canopy_hal *h)
{
    (void)h;
    return 0;
}

static int pci_wait(struct canopy_hal *h, const volatile uint64_t *addr, uint64_t mask, int cmp,
                    uint64_t value, uint64_t timeout_ns)
{
    if (addr == NULL || ((uintptr_t)addr & 7u) != 0 || cmp < CANOPY_CMP_EQ || cmp > CANOPY_CMP_LE)
        return CANOPY_EINVAL;
    uint64_t start = pci_now_ns(h);
    uint64_t deadline = timeout_ns > UINT64_MAX - start ? UINT64_MAX : start + timeout_ns;
    for (;;) {
        if (canopy_cmp_holds(*addr & mask, cmp, value)) {
            __atomic_thread_fence(__ATOMIC_ACQUIRE); /* later reads see what the DMA wrote */
            return CANOPY_OK;
        }
        if (pci_now_ns(h) >= deadline)
            return CANOPY_ETIMEDOUT;
        pci_pause();
    }
}

/* A board does not say when its DMA writes land: pause a little (at most 1 us) and let the
 * caller look again. */
static int pci_wait_any(struct canopy_hal *h, uint64_t timeout_ns)
{
    const uint64_t start = pci_now_ns(h), span = timeout_ns < 1000 ? timeout_ns : 1000;
    while (pci_now_ns(h) - start < span) pci_pause();
    return CANOPY_OK;
}

/* Release everything p holds, in reverse order of acquisition; p itself too. */
static void pci_priv_destroy(struct pci_priv *p)
{
    if (p == NULL)
        return;
    if (p->vfio)
        vfio_close(&p->vf); /* BAR0, the DMA mappings, the device, group and container */
    if (p->dev != NULL && p->win_map != NULL)
        pci_device_unmap_range(p->dev, p->win_map, CANOPY_BAR0_BYTES - CANOPY_INJ_WINDOW_OFFSET);
    if (p->dev != NULL && p->csr_map != NULL)
        pci_device_unmap_range(p->dev, p->csr_map, CANOPY_INJ_WINDOW_OFFSET);
    for (size_t i = 0; i < p->nhuge; i++) {
        munlock(p->huge[i].va, p->huge[i].len);
        munmap(p->huge[i].va, p->huge[i].len);
    }
    free(p->huge);
    if (p->sys_inited)
        pci_system_cleanup();
    free(p);
}

static void pci_close(struct canopy_hal *h)
{
    if (h == NULL)
        return;
    pci_priv_destroy(pci_priv_of(h));
    h->priv = NULL;
}

/* DMA memory here is hugepages with pinned bus addresses; mapping it over ordinary program
 * pages would need the program's data to live in hugepages. Not supported: the SHMEM layer
 * then keeps symmetric objects on its heap only. */
static int pci_map_alias(struct canopy_hal *h, const struct canopy_dma_region *r, uint64_t off, void *addr,
                         size_t len)
{
    (void)h, (void)r, (void)off, (void)addr, (void)len;
    return CANOPY_ENODEV;
}

/* A board runs one process started by hand: there is no job to end beyond this process. */
static int pci_job_exit(struct canopy_hal *h, int status)
{
    (void)h, (void)status;
    return CANOPY_ENODEV;
}

static const struct canopy_hal_ops canopy_hal_pci_ops = {
    .name = "pci",
    .mmio_write = pci_mmio_write,
    .mmio_read64 = pci_mmio_read64,
    .dma_alloc = pci_dma_alloc,
    .wait = pci_wait,
    .wait_any = pci_wait_any,
    .now_ns = pci_now_ns,
    .cycles = pci_cycles,
    .map_alias = pci_map_alias,
    .job_exit = pci_job_exit,
    .close = pci_close,
};

static struct pci_priv *pci_priv_new(void)
{
    struct pci_priv *p = calloc(1, sizeof *p);
    if (p == NULL)
        return NULL;
    long ps = sysconf(_SC_PAGESIZE);
    p->page_size = ps > 0 ? (uint64_t)ps : 4096u;
    return p;
}

/* ---- open -------------------------------------------------------------------------- */

/* Count the devices libpciaccess lists (for the "not found" sentence). */
static unsigned pci_count_devices(void)
{
    struct pci_slot_match all = { PCI_MATCH_ANY, PCI_MATCH_ANY, PCI_MATCH_ANY, PCI_MATCH_ANY, 0 };
    struct pci_device_iterator *it = pci_slot_match_iterator_create(&all);
    unsigned n = 0;
    if (it == NULL)
        return 0;
    while (pci_device_next(it) != NULL)
        n++;
    pci_iterator_destroy(it);
    return n;
}

/* Find the device (see canopy_hal_pci_open). CANOPY_OK with p->dev set, or a status. */
static int pci_find(struct pci_priv *p, const char *id_s, uint16_t vendor, uint16_t device,
                    const char *addr_s, const struct pci_bdf *addr, char *errmsg,
                    size_t errmsg_len)
{
    struct pci_device_iterator *it;
    if (addr_s != NULL) {
        struct pci_slot_match m = { addr->domain, addr->bus, addr->slot, addr->func, 0 };
        it = pci_slot_match_iterator_create(&m);
    } else {
        struct pci_id_match m = { vendor, device, PCI_MATCH_ANY, PCI_MATCH_ANY, 0, 0, 0 };
        it = pci_id_match_iterator_create(&m);
    }
    if (it == NULL) {
        pci_msg(errmsg, errmsg_len, "pci: out of memory while listing PCI devices");
        return CANOPY_ENOMEM;
    }
    struct pci_device *d = pci_device_next(it);
    pci_iterator_destroy(it);

    if (d == NULL && addr_s != NULL) {
        pci_msg(errmsg, errmsg_len,
                "pci: no device at %04x:%02x:%02x.%x among %u PCI devices (searched by bus "
                "address; `lspci -D` lists them)",
                addr->domain, addr->bus, addr->slot, addr->func, pci_count_devices());
        return CANOPY_ENODEV;
    }
    if (d == NULL) {
        pci_msg(errmsg, errmsg_len,
                "pci: no device %04x:%04x among %u PCI devices (searched by %s vendor:device "
                "id; pass pci_id or pci_addr)",
                vendor, device, pci_count_devices(),
                id_s != NULL ? "the given" : "canopy's default");
        return CANOPY_ENODEV;
    }
    if (addr_s != NULL && id_s != NULL && (d->vendor_id != vendor || d->device_id != device)) {
        pci_msg(errmsg, errmsg_len,
                "pci: the device at %04x:%02x:%02x.%x is %04x:%04x, not the %04x:%04x asked "
                "for in pci_id",
                addr->domain, addr->bus, addr->slot, addr->func, d->vendor_id, d->device_id,
                vendor, device);
        return CANOPY_ENODEV;
    }
    p->dev = d;
    snprintf(p->addr, sizeof p->addr, "%04x:%02x:%02x.%x", d->domain, d->bus, d->dev, d->func);
    snprintf(p->where, sizeof p->where, "%s (%04x:%04x)", p->addr, d->vendor_id, d->device_id);
    return CANOPY_OK;
}

/* Set bits in the device's command register; CANOPY_OK once they read back set. */
static int pci_command_set(struct pci_priv *p, uint16_t bits, const char *what, char *errmsg,
                           size_t errmsg_len)
{
    char eb[96];
    uint16_t cmd = 0;
    int e = pci_device_cfg_read_u16(p->dev, &cmd, PCI_CFG_COMMAND);
    if (e == 0 && (cmd & bits) != bits) {
        e = pci_device_cfg_write_u16(p->dev, (uint16_t)(cmd | bits), PCI_CFG_COMMAND);
        if (e == 0)
            e = pci_device_cfg_read_u16(p->dev, &cmd, PCI_CFG_COMMAND);
        if (e == 0 && (cmd & bits) != bits)
            e = EIO;
    }
    if (e != 0) {
        pci_msg(errmsg, errmsg_len,
                "pci: cannot enable %s on %s (config space: %s); run as root, or as root: "
                "setpci -s %s COMMAND=0x%x:0x%x",
                what, p->where, pci_errstr(e, eb, sizeof eb), p->addr, bits, bits);
        return pci_errno_status(e, CANOPY_EIO);
    }
    return CANOPY_OK;
}

/* Probe, check and map BAR0, check the ID register, enable bus mastering. */
static int pci_attach(struct pci_priv *p, char *errmsg, size_t errmsg_len)
{
    char eb[96];
    struct pci_device *d = p->dev;
    int e = pci_device_probe(d);
    if (e != 0) {
        pci_msg(errmsg, errmsg_len, "pci: cannot probe %s (%s)", p->where,
                pci_errstr(e, eb, sizeof eb));
        return pci_errno_status(e, CANOPY_ENODEV);
    }
    const struct pci_mem_region *bar = &d->regions[0];
    if (bar->size == 0 || bar->is_IO || bar->size < CANOPY_BAR0_BYTES) {
        pci_msg(errmsg, errmsg_len,
                "pci: %s is not a canopy board: BAR0 %s (canopy needs a memory BAR0 of at "
                "least %u bytes)",
                p->where, bar->size == 0 ? "does not exist" : bar->is_IO ? "is I/O space"
                                                                         : "is too small",
                CANOPY_BAR0_BYTES);
        return CANOPY_EIO;
    }

    /* Memory decoding on (the kernel's enable; then the bit itself, in case). */
    pci_device_enable(d);
    int st = pci_command_set(p, PCI_CMD_MEMORY, "memory decoding", errmsg, errmsg_len);
    if (st != CANOPY_OK)
        return st;

    e = pci_device_map_range(d, bar->base_addr, CANOPY_INJ_WINDOW_OFFSET,
                             PCI_DEV_MAP_FLAG_WRITABLE, &p->csr_map);
    if (e != 0) {
        p->csr_map = NULL;
        pci_msg(errmsg, errmsg_len, "pci: cannot map the CSRs of %s (BAR0, uncached: %s)",
                p->where, pci_errstr(e, eb, sizeof eb));
        return pci_errno_status(e, CANOPY_ENODEV);
    }
    e = pci_device_map_range(d, bar->base_addr + CANOPY_INJ_WINDOW_OFFSET,
                             CANOPY_BAR0_BYTES - CANOPY_INJ_WINDOW_OFFSET,
                             PCI_DEV_MAP_FLAG_WRITABLE | PCI_DEV_MAP_FLAG_WRITE_COMBINE,
                             &p->win_map);
    if (e != 0) {
        p->win_map = NULL;
        pci_msg(errmsg, errmsg_len,
                "pci: cannot map the injection window of %s (BAR0 + 0x%x, write-combined: %s)",
                p->where, CANOPY_INJ_WINDOW_OFFSET, pci_errstr(e, eb, sizeof eb));
        return pci_errno_status(e, CANOPY_ENODEV);
    }
    p->csr = p->csr_map;
    p->win = p->win_map;

    /* Is it canopy? Checked before bus mastering, so a wrong device is never let DMA. */
    pci_full_fence();
    uint64_t id = *pci_reg(p, CANOPY_REG_ID);
    pci_full_fence();
    if ((uint32_t)CANOPY_FIELD(id, ID, MAGIC) != CANOPY_MAGIC) {
        pci_msg(errmsg, errmsg_len,
                "pci: %s is not a canopy board: its ID register reads 0x%016llx, not magic "
                "0x%08x%s",
                p->where, (unsigned long long)id, CANOPY_MAGIC,
                id == UINT64_MAX ? " (all ones: the device does not answer; link down or "
                                   "memory decoding off?)"
                                 : "");
        return CANOPY_EIO;
    }
    return pci_command_set(p, PCI_CMD_MASTER, "bus mastering", errmsg, errmsg_len);
}

/* The command register through VFIO's config region (no root needed). */
static int pci_vfio_command_set(struct pci_priv *p, uint16_t bits, const char *what, char *errmsg, size_t errmsg_len)
{
    uint16_t cmd = 0;
    int e = vfio_cfg_read16(&p->vf, PCI_CFG_COMMAND, &cmd);
    if (e == 0 && (cmd & bits) != bits) {
        e = vfio_cfg_write16(&p->vf, PCI_CFG_COMMAND, (uint16_t)(cmd | bits));
        if (e == 0) e = vfio_cfg_read16(&p->vf, PCI_CFG_COMMAND, &cmd);
        if (e == 0 && (cmd & bits) != bits) e = EIO;
    }
    if (e != 0) {
        char eb[96];
        pci_msg(errmsg, errmsg_len, "pci: vfio: cannot enable %s on %s (config region: %s)", what, p->where,
                pci_errstr(e, eb, sizeof eb));
        return CANOPY_EIO;
    }
    return CANOPY_OK;
}

/* The VFIO path of pci_attach: open the device through VFIO, map BAR0 through it, check
 * the ID register, enable bus mastering. */
static int pci_attach_vfio(struct pci_priv *p, int group, char *errmsg, size_t errmsg_len)
{
    p->vfio = 1;
    int st = vfio_open(&p->vf, p->addr, group, errmsg, errmsg_len);
    if (st == CANOPY_OK) st = pci_vfio_command_set(p, PCI_CMD_MEMORY, "memory decoding", errmsg, errmsg_len);
    volatile uint8_t *bar = NULL;
    if (st == CANOPY_OK) st = vfio_map_bar0(&p->vf, CANOPY_BAR0_BYTES, &bar, errmsg, errmsg_len);
    if (st != CANOPY_OK) return st;
    p->csr = bar;
    p->win = bar + CANOPY_INJ_WINDOW_OFFSET; /* uncached: VFIO maps BARs without write-combining */
    pci_full_fence();
    uint64_t id = *pci_reg(p, CANOPY_REG_ID);
    pci_full_fence();
    if ((uint32_t)CANOPY_FIELD(id, ID, MAGIC) != CANOPY_MAGIC) {
        pci_msg(errmsg, errmsg_len, "pci: %s (vfio) is not a canopy board: its ID register reads 0x%016llx, not magic 0x%08x",
                p->where, (unsigned long long)id, CANOPY_MAGIC);
        return CANOPY_EIO;
    }
    return pci_vfio_command_set(p, PCI_CMD_MASTER, "bus mastering", errmsg, errmsg_len);
}

/* Find and map a canopy board. opts->pci_addr picks it by bus address (and, if pci_id is
 * given too, it must have that id); otherwise the first device with opts->pci_id, or
 * canopy's default id, in bus address order. */
int canopy_hal_pci_open(struct canopy_hal *h, const struct canopy_open_opts *opts, char *errmsg,
                        size_t errmsg_len)
{
    if (h == NULL) {
        pci_msg(errmsg, errmsg_len, "pci: no HAL to fill (h is NULL)");
        return CANOPY_EINVAL;
    }
    *h = (struct canopy_hal){ .ops = NULL, .node = -1, .nodes = -1, .priv = NULL };

    const char *id_s = opts != NULL ? opts->pci_id : NULL;
    const char *addr_s = opts != NULL ? opts->pci_addr : NULL;
    uint16_t vendor = CANOPY_PCI_VENDOR, device = CANOPY_PCI_DEVICE;
    struct pci_bdf addr = { 0, 0, 0, 0 };
    if (id_s != NULL && pci_parse_id(id_s, &vendor, &device) != 0) {
        pci_msg(errmsg, errmsg_len,
                "pci: malformed pci_id \"%s\" (expected vvvv:dddd, 4 hex digits each, e.g. "
                "1234:c0a7)",
                id_s);
        return CANOPY_EINVAL;
    }
    if (addr_s != NULL && pci_parse_addr(addr_s, &addr) != 0) {
        pci_msg(errmsg, errmsg_len,
                "pci: malformed pci_addr \"%s\" (expected dddd:bb:ss.f as `lspci -D` prints "
                "it, e.g. 0000:03:00.0)",
                addr_s);
        return CANOPY_EINVAL;
    }

    struct pci_priv *p = pci_priv_new();
    if (p == NULL) {
        pci_msg(errmsg, errmsg_len, "pci: out of memory");
        return CANOPY_ENOMEM;
    }
    int e = pci_system_init();
    if (e != 0) {
        char eb[96];
        pci_msg(errmsg, errmsg_len,
                "pci: cannot list PCI devices (pci_system_init: %s); is /sys/bus/pci present "
                "and readable?",
                pci_errstr(e, eb, sizeof eb));
        /* libpciaccess may leave a partial state behind on failure: clean it. */
        pci_system_cleanup();
        free(p);
        return pci_errno_status(e, CANOPY_ENODEV);
    }
    p->sys_inited = 1;

    int st = pci_find(p, id_s, vendor, device, addr_s, &addr, errmsg, errmsg_len);
    struct vfio_info vi;
    if (st == CANOPY_OK)
        st = vfio_discover(p->addr, &vi, errmsg, errmsg_len);
    if (st == CANOPY_OK)
        st = vi.bound ? pci_attach_vfio(p, vi.group, errmsg, errmsg_len) : pci_attach(p, errmsg, errmsg_len);
    if (st != CANOPY_OK) {
        pci_priv_destroy(p);
        return st;
    }
    h->ops = &canopy_hal_pci_ops;
    h->congruence = PCI_HUGE_BYTES; /* hugepages: 2 MiB aligned, nothing more promised */
    h->priv = p;
    return CANOPY_OK;
}
