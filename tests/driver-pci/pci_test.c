/* pci_test.c: tests of libcanopy's "pci" backend (driver/src/hal_pci.c) that need no board.
 *
 * hal_pci.c is #included, so its static parts are tested directly: the pci_id / pci_addr
 * parsers, pagemap decoding, the contiguity check, carving regions out of a hugepage, MMIO
 * routing and bounds on a fake BAR0 in ordinary memory, waiting, and dma_alloc (its
 * no-hugepage failure when none are reserved). canopy_hal_pci_open is tested on this
 * machine's real PCI list: the default search, an id and an address that do not exist,
 * malformed strings, NULL arguments, an existing device with another id, and (when one has
 * no BAR0) an existing device that cannot be canopy. Real devices are never mapped,
 * enabled or written: the open paths exercised on them stop at reading sysfs and config
 * space. As root, the whole open path also runs against a fake board in a private mount
 * namespace (see test_fake_board). It does not reserve hugepages.
 *
 * VFIO (pci_vfio.c), without a board and without the vfio modules: the choice of path
 * from a sysfs tree the test builds (a device bound to vfio-pci with its IOMMU group, one
 * bound to another driver, one with no driver, one bound to vfio-pci with no group), the
 * errors of a missing container, of a container that is not VFIO, of a group that cannot
 * be opened, each naming what to fix, and the IOVA allocator (never 0, aligned, disjoint).
 *
 * Prints one PASS/FAIL line per check and exits non-zero if any failed.
 */
#include "../../driver/src/hal_pci.c"
#include "../../driver/src/pci_vfio.c"

#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>

static int g_failed, g_passed;

__attribute__((format(printf, 3, 4)))
static void check(int ok, const char *name, const char *fmt, ...)
{
    if (ok) {
        printf("PASS %s\n", name);
        g_passed++;
        return;
    }
    printf("FAIL %s: ", name);
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    g_failed++;
}

static const char *status_name(int st)
{
    switch (st) {
    case CANOPY_OK: return "OK";
    case CANOPY_EINVAL: return "EINVAL";
    case CANOPY_ENODEV: return "ENODEV";
    case CANOPY_ENOMEM: return "ENOMEM";
    case CANOPY_EIO: return "EIO";
    case CANOPY_EPERM: return "EPERM";
    default: return "other";
    }
}

static int contains(const char *s, const char *sub)
{
    return s != NULL && strstr(s, sub) != NULL;
}

/* ---- parsers ----------------------------------------------------------------------- */

static void test_parse_id(void)
{
    uint16_t v = 0, d = 0;
    check(pci_parse_id("1234:c0a7", &v, &d) == 0 && v == 0x1234 && d == 0xc0a7,
          "parse_id valid lower", "got %04x:%04x", v, d);
    check(pci_parse_id("ABCD:EF01", &v, &d) == 0 && v == 0xabcd && d == 0xef01,
          "parse_id valid upper", "got %04x:%04x", v, d);
    static const char *bad[] = { "",          "zz:1",      "1234",       "12345:1",
                                 "1234:c0a7x", "1234:c0a",  "123:c0a7",   " 1234:c0a7",
                                 "1234:c0a7 ", "0x12:c0a7", "1234-c0a7",  "1234::c0a7",
                                 "1234:",      ":c0a7",     "12g4:c0a7",  "1234:c0a70" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char name[64];
        snprintf(name, sizeof name, "parse_id rejects \"%s\"", bad[i]);
        check(pci_parse_id(bad[i], &v, &d) != 0, name, "accepted");
    }
    check(pci_parse_id(NULL, &v, &d) != 0, "parse_id rejects NULL", "accepted");
}

static void test_parse_addr(void)
{
    struct pci_bdf a = { 0, 0, 0, 0 };
    check(pci_parse_addr("0000:03:00.0", &a) == 0 && a.domain == 0 && a.bus == 3 && a.slot == 0 &&
              a.func == 0,
          "parse_addr 0000:03:00.0", "got %x:%x:%x.%x", a.domain, a.bus, a.slot, a.func);
    check(pci_parse_addr("0001:Af:1f.7", &a) == 0 && a.domain == 1 && a.bus == 0xaf &&
              a.slot == 0x1f && a.func == 7,
          "parse_addr 0001:Af:1f.7", "got %x:%x:%x.%x", a.domain, a.bus, a.slot, a.func);
    static const char *bad[] = { "",               "03:00.0",       "0000:03:00",
                                 "0000:3:00.0",    "0000:03:0.0",   "0000:03:20.0",
                                 "0000:03:00.8",   "0000:03:00.0x", "0000:03:00.00",
                                 "zzzz:03:00.0",   "0000-03-00.0",  " 0000:03:00.0",
                                 "000:03:00.0",    "123456789:03:00.0", "0000:03:00:0",
                                 "0000:103:00.0", "10000:e1:00.0" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char name[64];
        snprintf(name, sizeof name, "parse_addr rejects \"%s\"", bad[i]);
        check(pci_parse_addr(bad[i], &a) != 0, name, "accepted");
    }
    check(pci_parse_addr(NULL, &a) != 0, "parse_addr rejects NULL", "accepted");
}

/* ---- pagemap, contiguity, carving --------------------------------------------------- */

static void test_pagemap(void)
{
    const uint64_t present = UINT64_C(1) << 63;
    uint64_t phys = 0;
    int st = pci_pagemap_phys(present | 0x1234, 0x7f0000001abcu, 4096, &phys);
    check(st == CANOPY_OK && phys == 0x1234abcu, "pagemap pfn and in-page offset",
          "st %d phys 0x%llx", st, (unsigned long long)phys);
    /* Flag bits 55..62 (soft-dirty, exclusive, uffd-wp, file/shared) are not PFN bits. */
    uint64_t flags = (UINT64_C(1) << 55) | (UINT64_C(1) << 56) | (UINT64_C(1) << 57) |
                     (UINT64_C(1) << 61);
    st = pci_pagemap_phys(present | flags | 0x42, 0x10, 4096, &phys);
    check(st == CANOPY_OK && phys == 0x42010u, "pagemap ignores flag bits 55..62",
          "st %d phys 0x%llx", st, (unsigned long long)phys);
    st = pci_pagemap_phys(present | ((UINT64_C(1) << 55) - 1), 0, 4096, &phys);
    check(st == CANOPY_OK && phys == ((UINT64_C(1) << 55) - 1) * 4096u, "pagemap 55-bit pfn",
          "st %d phys 0x%llx", st, (unsigned long long)phys);
    check(pci_pagemap_phys(0x1234, 0, 4096, &phys) == CANOPY_ENOMEM, "pagemap not present",
          "not refused");
    check(pci_pagemap_phys(present, 0, 4096, &phys) == CANOPY_EPERM,
          "pagemap pfn 0 (no CAP_SYS_ADMIN) -> EPERM", "not refused");
    check(pci_pagemap_phys(present | flags, 0, 4096, &phys) == CANOPY_EPERM,
          "pagemap pfn 0 with flags -> EPERM", "not refused");

    /* The real pagemap of this process: root sees frames, others see 0. */
    struct canopy_hal h = { .ops = &canopy_hal_pci_ops, .node = -1, .nodes = -1, .priv = NULL };
    struct pci_priv *p = pci_priv_new();
    h.priv = p;
    unsigned char *page = aligned_alloc(4096, 8192);
    memset(page, 1, 8192);
    uint64_t bus = 0;
    fflush(stdout);
    st = pci_virt_to_bus(p, page + 100, &bus);
    check((st == CANOPY_OK && bus != 0 && bus % 4096 == 100) ||
              (st == CANOPY_EPERM && contains(p->err, "CAP_SYS_ADMIN")),
          "pagemap of this process", "st %d bus 0x%llx err \"%s\"", st,
          (unsigned long long)bus, p->err);
    printf("     (this process %s physical addresses)\n",
           st == CANOPY_OK ? "can read" : "cannot read");
    free(page);
    h.ops->close(&h);
}

static void test_contiguity_and_carving(void)
{
    const uint64_t H = PCI_HUGE_BYTES;
    uint64_t a[3] = { 5 * H, 6 * H, 7 * H };
    uint64_t b[3] = { 5 * H, 7 * H, 8 * H };
    uint64_t c[2] = { 6 * H, 5 * H };
    check(pci_phys_contiguous(a, 3, H), "contiguous hugepages accepted", "refused");
    check(!pci_phys_contiguous(b, 3, H), "gap between hugepages refused", "accepted");
    check(!pci_phys_contiguous(c, 2, H), "descending hugepages refused", "accepted");
    check(pci_phys_contiguous(a, 1, H), "one hugepage is contiguous", "refused");

    unsigned char *mem = aligned_alloc(4096, PCI_HUGE_BYTES);
    memset(mem, 0xa5, PCI_HUGE_BYTES);
    struct pci_huge m = { .va = mem, .bus = 0x40000000u, .len = PCI_HUGE_BYTES, .used = 0 };
    struct canopy_dma_region r1, r2, r3, r4;
    int ok1 = pci_carve(&m, 4096, 100, &r1);
    check(ok1 && r1.vaddr == mem && r1.bus == 0x40000000u && r1.size == 100 &&
              mem[0] == 0 && mem[4095] == 0 && mem[4096] == 0xa5,
          "carve: first region at the start, zeroed, size as asked", "ok %d", ok1);
    int ok2 = pci_carve(&m, 8192, 8192, &r2);
    check(ok2 && r2.vaddr == mem + 4096 && r2.bus == 0x40001000u, "carve: next region follows",
          "ok %d bus 0x%llx", ok2, (unsigned long long)r2.bus);
    int ok3 = pci_carve(&m, PCI_HUGE_BYTES - 12288, 1, &r3);
    check(ok3 && m.used == PCI_HUGE_BYTES, "carve: fills the hugepage exactly", "ok %d", ok3);
    check(!pci_carve(&m, 4096, 1, &r4), "carve: refuses past the end", "carved");
    free(mem);
}

/* ---- MMIO on a fake BAR0 ------------------------------------------------------------ */

static void test_mmio_fake_bar(void)
{
    uint64_t *csr = aligned_alloc(4096, CANOPY_INJ_WINDOW_OFFSET);
    uint64_t *win = aligned_alloc(4096, CANOPY_BAR0_BYTES - CANOPY_INJ_WINDOW_OFFSET);
    memset(csr, 0, CANOPY_INJ_WINDOW_OFFSET);
    memset(win, 0, CANOPY_BAR0_BYTES - CANOPY_INJ_WINDOW_OFFSET);
    struct pci_priv *p = pci_priv_new();
    p->csr = (volatile uint8_t *)csr;
    p->win = (volatile uint8_t *)win;
    struct canopy_hal h = { .ops = &canopy_hal_pci_ops, .node = -1, .nodes = -1, .priv = p };
    const struct canopy_hal_ops *o = h.ops;

    unsigned char src[64];
    for (unsigned i = 0; i < sizeof src; i++)
        src[i] = (unsigned char)(i + 1);
    uint64_t w0, w1;
    memcpy(&w0, src + 1, 8);
    memcpy(&w1, src + 9, 8);
    int st = o->mmio_write(&h, CANOPY_REG_INJ_TAIL, src + 1, 16); /* unaligned source */
    check(st == CANOPY_OK && csr[CANOPY_REG_INJ_TAIL / 8] == w0 &&
              csr[CANOPY_REG_INJ_TAIL / 8 + 1] == w1,
          "mmio_write CSR from an unaligned source", "st %d", st);
    st = o->mmio_write(&h, CANOPY_INJ_WINDOW_OFFSET + 8, src, 24);
    uint64_t x0, x2;
    memcpy(&x0, src, 8);
    memcpy(&x2, src + 16, 8);
    check(st == CANOPY_OK && win[1] == x0 && win[3] == x2 && win[0] == 0,
          "mmio_write window lands in the window mapping", "st %d", st);
    uint64_t x1;
    memcpy(&x1, src + 8, 8);
    st = o->mmio_write(&h, CANOPY_INJ_WINDOW_OFFSET - 8, src, 16);
    check(st == CANOPY_OK && csr[CANOPY_INJ_WINDOW_OFFSET / 8 - 1] == x0 && win[0] == x1,
          "mmio_write straddling CSR/window goes to both", "st %d", st);
    st = o->mmio_write(&h, CANOPY_BAR0_BYTES - 8, src, 8);
    check(st == CANOPY_OK && win[(CANOPY_BAR0_BYTES - CANOPY_INJ_WINDOW_OFFSET) / 8 - 1] == x0,
          "mmio_write last word of BAR0", "st %d", st);

    struct { uint32_t off; size_t len; const void *src; const char *name; } bad[] = {
        { CANOPY_BAR0_BYTES, 8, src, "mmio_write refuses offset = BAR0 size" },
        { CANOPY_BAR0_BYTES - 8, 16, src, "mmio_write refuses running past BAR0" },
        { 0xfffffff8u, 16, src, "mmio_write refuses offset near 2^32" },
        { 4, 8, src, "mmio_write refuses unaligned offset" },
        { 8, 12, src, "mmio_write refuses length not a multiple of 8" },
        { 8, 0, src, "mmio_write refuses length 0" },
        { 8, 8, NULL, "mmio_write refuses NULL source" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        st = o->mmio_write(&h, bad[i].off, bad[i].src, bad[i].len);
        check(st == CANOPY_EINVAL, bad[i].name, "st %d", st);
    }

    uint64_t v = 0;
    csr[CANOPY_REG_ID / 8] = 0x0100000143504e59u;
    st = o->mmio_read64(&h, CANOPY_REG_ID, &v);
    check(st == CANOPY_OK && v == 0x0100000143504e59u, "mmio_read64 CSR", "st %d v 0x%llx", st,
          (unsigned long long)v);
    st = o->mmio_read64(&h, CANOPY_INJ_WINDOW_OFFSET + 8, &v);
    check(st == CANOPY_OK && v == x0, "mmio_read64 window", "st %d", st);
    check(o->mmio_read64(&h, CANOPY_BAR0_BYTES, &v) == CANOPY_EINVAL,
          "mmio_read64 refuses offset outside BAR0", "accepted");
    check(o->mmio_read64(&h, 0x14, &v) == CANOPY_EINVAL, "mmio_read64 refuses unaligned offset",
          "accepted");
    check(o->mmio_read64(&h, 0, NULL) == CANOPY_EINVAL, "mmio_read64 refuses NULL value",
          "accepted");

    o->close(&h); /* dev is NULL: frees the priv only, the fake BAR is ours */
    check(h.priv == NULL, "close clears priv", "priv left");
    o->close(&h); /* a second close is harmless */
    free(csr);
    free(win);
}

/* ---- wait, time --------------------------------------------------------------------- */

struct setter {
    volatile uint64_t *word;
    uint64_t value;
    unsigned delay_us;
};

static void *set_later(void *arg)
{
    struct setter *s = arg;
    usleep(s->delay_us);
    __atomic_store_n(s->word, s->value, __ATOMIC_RELEASE);
    return NULL;
}

static void test_wait_and_time(void)
{
    struct pci_priv *p = pci_priv_new();
    struct canopy_hal h = { .ops = &canopy_hal_pci_ops, .node = -1, .nodes = -1, .priv = p };
    const struct canopy_hal_ops *o = h.ops;
    volatile uint64_t *word = aligned_alloc(64, 64);
    *word = 5;

    check(o->wait(&h, word, ~UINT64_C(0), CANOPY_CMP_EQ, 5, 0) == CANOPY_OK,
          "wait: already true, timeout 0", "not OK");
    uint64_t t0 = o->now_ns(&h);
    int st = o->wait(&h, word, ~UINT64_C(0), CANOPY_CMP_NE, 5, 2000000);
    uint64_t dt = o->now_ns(&h) - t0;
    check(st == CANOPY_ETIMEDOUT && dt >= 2000000 && dt < 1000000000,
          "wait: times out after the timeout", "st %d after %llu ns", st, (unsigned long long)dt);

    struct setter s = { word, 7, 5000 };
    pthread_t th;
    pthread_create(&th, NULL, set_later, &s);
    t0 = o->now_ns(&h);
    st = o->wait(&h, word, ~UINT64_C(0), CANOPY_CMP_GE, 7, 5000000000u);
    dt = o->now_ns(&h) - t0;
    pthread_join(th, NULL);
    check(st == CANOPY_OK && dt < 4000000000u, "wait: sees a later store",
          "st %d after %llu ns", st, (unsigned long long)dt);

    *word = 0xab00u | 0x12u;
    check(o->wait(&h, word, 0xff00u, CANOPY_CMP_EQ, 0xab00u, 0) == CANOPY_OK,
          "wait: applies the mask", "not OK");
    check(o->wait(&h, word, 0xff00u, CANOPY_CMP_LT, 0xab00u, 1000) == CANOPY_ETIMEDOUT,
          "wait: masked comparison false times out", "not ETIMEDOUT");
    check(o->wait(&h, word, UINT64_MAX, CANOPY_CMP_LE, UINT64_MAX, UINT64_MAX) == CANOPY_OK,
          "wait: timeout UINT64_MAX does not overflow", "not OK");
    check(o->wait(&h, word, 1, 99, 0, 0) == CANOPY_EINVAL, "wait: refuses an unknown cmp",
          "accepted");
    check(o->wait(&h, NULL, 1, CANOPY_CMP_EQ, 0, 0) == CANOPY_EINVAL, "wait: refuses NULL",
          "accepted");
    check(o->wait(&h, (const volatile uint64_t *)((uintptr_t)word + 4), 1, CANOPY_CMP_EQ, 0, 0) ==
              CANOPY_EINVAL,
          "wait: refuses a misaligned word", "accepted");

    uint64_t a = o->now_ns(&h), b = o->now_ns(&h);
    check(a > 0 && b >= a, "now_ns is monotonic", "%llu then %llu", (unsigned long long)a,
          (unsigned long long)b);
    check(o->cycles(&h) == 0, "cycles is 0 on pci", "not 0");
    check(strcmp(o->name, "pci") == 0, "ops name is \"pci\"", "name %s", o->name);
    free((void *)word);
    o->close(&h);
}

/* ---- dma_alloc ---------------------------------------------------------------------- */

static void test_dma_alloc(void)
{
    struct pci_priv *p = pci_priv_new();
    struct canopy_hal h = { .ops = &canopy_hal_pci_ops, .node = -1, .nodes = -1, .priv = p };
    const struct canopy_hal_ops *o = h.ops;
    struct canopy_dma_region r = { NULL, 0, 0 };

    check(o->dma_alloc(&h, 0, &r) == CANOPY_EINVAL, "dma_alloc refuses size 0", "accepted");
    check(o->dma_alloc(&h, 4096, NULL) == CANOPY_EINVAL, "dma_alloc refuses NULL out",
          "accepted");
    check(o->dma_alloc(&h, SIZE_MAX, &r) == CANOPY_EINVAL, "dma_alloc refuses SIZE_MAX",
          "accepted");

    long reserved = pci_read_long("/proc/sys/vm/nr_hugepages");
    long free2m = pci_read_long(PCI_HUGE_SYSFS "/free_hugepages");
    printf("     (/proc/sys/vm/nr_hugepages = %ld, free 2 MiB hugepages = %ld)\n", reserved, free2m);
    fflush(stdout);
    int st = o->dma_alloc(&h, 4096, &r);
    if (free2m == 0) {
        check(st == CANOPY_ENOMEM && contains(p->err, "/proc/sys/vm/nr_hugepages") &&
                  contains(p->err, "hugepage") && contains(p->err, "4096-byte"),
              "dma_alloc without hugepages: ENOMEM naming nr_hugepages", "st %d err \"%s\"", st,
              p->err);
        check(p->nhuge == 0, "dma_alloc failure keeps nothing", "%zu mappings", p->nhuge);
    } else {
        /* Hugepages are reserved here: the allocation must work (or need root). */
        if (st == CANOPY_OK) {
            int zero = 1;
            for (size_t i = 0; i < 4096; i++)
                zero &= ((unsigned char *)r.vaddr)[i] == 0;
            check(zero && ((uintptr_t)r.vaddr % 4096) == 0 && r.bus != 0 && r.bus % 4096 == 0 &&
                      r.size == 4096,
                  "dma_alloc from a hugepage: zeroed, aligned, bus address", "bus 0x%llx",
                  (unsigned long long)r.bus);
            struct canopy_dma_region r2;
            st = o->dma_alloc(&h, 64, &r2);
            check(st == CANOPY_OK && r2.bus == r.bus + 4096 && p->nhuge == 1,
                  "dma_alloc: small regions share the hugepage", "st %d", st);
        } else {
            check(st == CANOPY_EPERM && contains(p->err, "CAP_SYS_ADMIN"),
                  "dma_alloc with hugepages but no pagemap access: EPERM", "st %d err \"%s\"",
                  st, p->err);
        }
    }
    o->close(&h);
}

/* ---- canopy_hal_pci_open ------------------------------------------------------------ */

/* This machine's PCI devices, from sysfs: count, and whether one has vendor:device. */
static int sysfs_pci_count(void)
{
    DIR *d = opendir("/sys/bus/pci/devices");
    int n = 0;
    if (d == NULL)
        return -1;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (e->d_name[0] != '.')
            n++;
    closedir(d);
    return n;
}

static long sysfs_hex(const char *dev, const char *file)
{
    char path[256];
    snprintf(path, sizeof path, "/sys/bus/pci/devices/%s/%s", dev, file);
    FILE *f = fopen(path, "r");
    long v = -1;
    if (f == NULL)
        return -1;
    if (fscanf(f, "%lx", &v) != 1)
        v = -1;
    fclose(f);
    return v;
}

static int sysfs_has_id(unsigned vendor, unsigned device)
{
    DIR *d = opendir("/sys/bus/pci/devices");
    int found = 0;
    if (d == NULL)
        return 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (e->d_name[0] != '.' && sysfs_hex(e->d_name, "vendor") == (long)vendor &&
            sysfs_hex(e->d_name, "device") == (long)device)
            found = 1;
    closedir(d);
    return found;
}

static int sysfs_has_addr(const char *addr)
{
    char path[256];
    snprintf(path, sizeof path, "/sys/bus/pci/devices/%s", addr);
    return access(path, F_OK) == 0;
}

/* Whether the device's BAR0 line in sysfs "resource" is all zeros (no BAR0). */
static int sysfs_no_bar0(const char *addr)
{
    char path[256];
    snprintf(path, sizeof path, "/sys/bus/pci/devices/%s/resource", addr);
    FILE *f = fopen(path, "r");
    unsigned long long a = 1, b = 1, c = 1;
    if (f == NULL)
        return 0;
    int n = fscanf(f, "%llx %llx %llx", &a, &b, &c);
    fclose(f);
    return n == 3 && a == 0 && b == 0 && c == 0;
}

/* The first device (sorted) in sysfs, or "" . */
static void sysfs_first(char *out, size_t len, int want_no_bar0)
{
    struct dirent **list;
    out[0] = '\0';
    int n = scandir("/sys/bus/pci/devices", &list, NULL, alphasort);
    for (int i = 0; i < n; i++) {
        if (out[0] == '\0' && list[i]->d_name[0] != '.' &&
            (!want_no_bar0 || sysfs_no_bar0(list[i]->d_name)))
            snprintf(out, len, "%s", list[i]->d_name);
        free(list[i]);
    }
    if (n >= 0)
        free(list);
}

static int open_with(const char *id, const char *addr, char *msg, size_t len,
                     struct canopy_hal *h)
{
    struct canopy_open_opts o = { .backend = "pci", .pci_id = id, .pci_addr = addr,
                                  .errmsg = NULL, .errmsg_len = 0 };
    if (msg != NULL)
        msg[0] = '\0';
    int st = canopy_hal_pci_open(h, &o, msg, len);
    if (st == CANOPY_OK) /* a canopy board after all: do not keep it open */
        h->ops->close(h);
    return st;
}

static void test_open(void)
{
    char msg[512];
    struct canopy_hal h;
    int nsys = sysfs_pci_count();
    printf("     (sysfs lists %d PCI devices)\n", nsys);

    /* NULL h */
    msg[0] = '\0';
    int st = canopy_hal_pci_open(NULL, NULL, msg, sizeof msg);
    check(st == CANOPY_EINVAL && msg[0] != '\0', "open: NULL h -> EINVAL with a message",
          "st %d msg \"%s\"", st, msg);
    check(canopy_hal_pci_open(NULL, NULL, NULL, 0) == CANOPY_EINVAL,
          "open: NULL h, NULL errmsg -> EINVAL", "not EINVAL");

    /* Default search (opts NULL). */
    memset(&h, 0x5a, sizeof h);
    st = canopy_hal_pci_open(&h, NULL, msg, sizeof msg);
    printf("     default search: %d (%s) \"%s\"\n", st, status_name(st), msg);
    if (nsys >= 0) {
        char among[64];
        snprintf(among, sizeof among, "among %d PCI devices", nsys);
        check(st == CANOPY_ENODEV && contains(msg, "1234:c0a7") && contains(msg, among) &&
                  contains(msg, "default") && contains(msg, "pci_id or pci_addr"),
              "open: default search -> ENODEV naming the id and the device count",
              "st %d msg \"%s\"", st, msg);
    } else {
        check((st == CANOPY_ENODEV || st == CANOPY_EPERM) && contains(msg, "pci_system_init"),
              "open: no /sys/bus/pci -> ENODEV/EPERM naming pci_system_init", "st %d msg \"%s\"",
              st, msg);
    }
    check(h.ops == NULL && h.priv == NULL && h.node == -1 && h.nodes == -1,
          "open: failure leaves h empty", "ops %p priv %p", (const void *)h.ops, h.priv);

    /* Default search with opts but no errmsg; and a tiny errmsg buffer. */
    struct canopy_open_opts none = { 0 };
    st = canopy_hal_pci_open(&h, &none, NULL, 0);
    check(st == CANOPY_ENODEV || st == CANOPY_EPERM, "open: errmsg NULL accepted", "st %d", st);
    st = canopy_hal_pci_open(&h, &none, NULL, 100);
    check(st == CANOPY_ENODEV || st == CANOPY_EPERM, "open: errmsg NULL with a length accepted",
          "st %d", st);
    char tiny[8];
    st = canopy_hal_pci_open(&h, &none, tiny, sizeof tiny);
    check((st == CANOPY_ENODEV || st == CANOPY_EPERM) && strlen(tiny) == sizeof tiny - 1,
          "open: a short errmsg is truncated, terminated", "st %d len %zu", st, strlen(tiny));

    if (nsys < 0) {
        printf("     (no /sys/bus/pci: searches by id and address not run)\n");
    } else {
        /* A given id nobody has. */
        const char *absent_id = sysfs_has_id(0xfffe, 0x0001) ? "fffe:0002" : "fffe:0001";
        st = open_with(absent_id, NULL, msg, sizeof msg, &h);
        check(st == CANOPY_ENODEV && contains(msg, absent_id) && contains(msg, "given"),
              "open: absent pci_id -> ENODEV naming it", "st %d msg \"%s\"", st, msg);
        printf("     \"%s\"\n", msg);

        /* An address nobody is at. */
        const char *absent_addr = sysfs_has_addr("0000:ff:1f.7") ? "00fe:fe:1e.6" : "0000:ff:1f.7";
        st = open_with(NULL, absent_addr, msg, sizeof msg, &h);
        check(st == CANOPY_ENODEV && contains(msg, absent_addr) && contains(msg, "no device at"),
              "open: absent pci_addr -> ENODEV naming it", "st %d msg \"%s\"", st, msg);
        printf("     \"%s\"\n", msg);
        st = open_with("1234:c0a7", absent_addr, msg, sizeof msg, &h);
        check(st == CANOPY_ENODEV && contains(msg, absent_addr),
              "open: absent pci_addr with pci_id -> ENODEV naming the address",
              "st %d msg \"%s\"", st, msg);

        /* A real device, with an id it does not have: refused before probing it. */
        char first[64];
        sysfs_first(first, sizeof first, 0);
        if (first[0] != '\0' && !sysfs_has_id(0x1234, 0xc0a7)) {
            st = open_with("1234:c0a7", first, msg, sizeof msg, &h);
            check(st == CANOPY_ENODEV && contains(msg, first) && contains(msg, "not the 1234:c0a7"),
                  "open: device at pci_addr with another id -> ENODEV", "st %d msg \"%s\"", st,
                  msg);
            printf("     \"%s\"\n", msg);
        }

        /* A real device without BAR0, by address: probed (config read) and refused. */
        sysfs_first(first, sizeof first, 1);
        if (first[0] != '\0') {
            st = open_with(NULL, first, msg, sizeof msg, &h);
            check((st == CANOPY_EIO && contains(msg, "BAR0 does not exist") && contains(msg, first)) ||
                      st == CANOPY_EPERM,
                  "open: device without BAR0 -> EIO (not canopy)", "st %d msg \"%s\"", st, msg);
            printf("     \"%s\"\n", msg);
        } else {
            printf("     (no device without BAR0 here: that check not run)\n");
        }
    }

    /* Malformed strings: refused before any search. */
    static const char *bad_ids[] = { "", "zz:1", "1234", "12345:1", "1234:c0a7x" };
    for (size_t i = 0; i < sizeof bad_ids / sizeof bad_ids[0]; i++) {
        char name[80];
        snprintf(name, sizeof name, "open: malformed pci_id \"%s\" -> EINVAL", bad_ids[i]);
        st = open_with(bad_ids[i], NULL, msg, sizeof msg, &h);
        check(st == CANOPY_EINVAL && contains(msg, "malformed pci_id"), name,
              "st %d msg \"%s\"", st, msg);
    }
    static const char *bad_addrs[] = { "", "03:00.0", "0000:03:00", "0000:03:20.0",
                                       "0000:03:00.8", "0000:03:00.0 ", "0000:0g:00.0" };
    for (size_t i = 0; i < sizeof bad_addrs / sizeof bad_addrs[0]; i++) {
        char name[80];
        snprintf(name, sizeof name, "open: malformed pci_addr \"%s\" -> EINVAL", bad_addrs[i]);
        st = open_with(NULL, bad_addrs[i], msg, sizeof msg, &h);
        check(st == CANOPY_EINVAL && contains(msg, "malformed pci_addr"), name,
              "st %d msg \"%s\"", st, msg);
    }
    st = open_with("zz:1", "0000:03:00.0", NULL, 0, &h);
    check(st == CANOPY_EINVAL, "open: malformed pci_id, errmsg NULL -> EINVAL", "st %d", st);
}

/* ---- a fake board: the whole open path on a fake sysfs ------------------------------- *
 *
 * In a child process with a private mount namespace (root only), /sys/bus/pci/devices is
 * replaced by a tmpfs holding a fake canopy (config space file, "resource" text, a 64 KiB
 * regular file as resource0, hard-linked as resource0_wc, an "enable" file) and one other
 * device. libpciaccess then finds, probes and "maps" it like a board, so open, the ID
 * check, the command register, MMIO through pci_device_map_range mappings and close run
 * for real, against files. /proc/mtrr is covered by a read-only file first, so
 * libpciaccess cannot open it and never adds or deletes a real MTRR. Nothing of this is
 * visible outside the child. */

#define FAKE_ADDR "0000:42:00.0"
#define FAKE_OTHER "0000:43:00.0"
#define FAKE_BAR 0xfe000000ull
#define FAKE_ID 0x0100000143504e59ull

static int write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return -1;
    size_t n = fwrite(data, 1, len, f);
    return (fclose(f) == 0 && n == len) ? 0 : -1;
}

static int fake_config(const char *dir, uint16_t vendor, uint16_t device, uint16_t command)
{
    unsigned char cfg[256];
    char path[512];
    memset(cfg, 0, sizeof cfg);
    cfg[0] = (unsigned char)vendor;
    cfg[1] = (unsigned char)(vendor >> 8);
    cfg[2] = (unsigned char)device;
    cfg[3] = (unsigned char)(device >> 8);
    cfg[4] = (unsigned char)command;
    cfg[5] = (unsigned char)(command >> 8);
    cfg[11] = 0x05; /* class: memory controller */
    snprintf(path, sizeof path, "%s/config", dir);
    return write_file(path, cfg, sizeof cfg);
}

/* BAR0 of size bytes with BAR flag bits flags (0 size: no BAR0). */
static int fake_resource(const char *dir, unsigned long long size, unsigned flags)
{
    char text[7 * 60 + 1], path[512];
    size_t n = 0;
    for (int i = 0; i < 7; i++) {
        unsigned long long a = (i == 0 && size) ? FAKE_BAR : 0;
        unsigned long long b = (i == 0 && size) ? FAKE_BAR + size - 1 : 0;
        unsigned long long fl = (i == 0 && size) ? 0x40000u | 0x200u | flags : 0;
        n += (size_t)snprintf(text + n, sizeof text - n, "0x%016llx 0x%016llx 0x%016llx\n", a,
                              b, fl);
    }
    snprintf(path, sizeof path, "%s/resource", dir);
    return write_file(path, text, n);
}

static int fake_bar_word(const char *dir, uint32_t off, uint64_t value)
{
    char path[512];
    snprintf(path, sizeof path, "%s/resource0", dir);
    int fd = open(path, O_WRONLY);
    if (fd < 0)
        return -1;
    ssize_t n = pwrite(fd, &value, sizeof value, off);
    close(fd);
    return n == (ssize_t)sizeof value ? 0 : -1;
}

static uint64_t fake_read(const char *dir, const char *file, uint32_t off, size_t len)
{
    char path[512];
    uint64_t v = 0;
    snprintf(path, sizeof path, "%s/%s", dir, file);
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return UINT64_MAX;
    if (pread(fd, &v, len, off) != (ssize_t)len)
        v = UINT64_MAX;
    close(fd);
    return v;
}

/* Build the fake tree under root (a tmpfs); 0 on success. */
static int fake_tree(const char *root)
{
    char dev[256], other[256], path[512], path2[512];
    snprintf(dev, sizeof dev, "%s/devices/" FAKE_ADDR, root);
    snprintf(other, sizeof other, "%s/devices/" FAKE_OTHER, root);
    snprintf(path, sizeof path, "%s/devices", root);
    if (mkdir(path, 0755) || mkdir(dev, 0755) || mkdir(other, 0755))
        return -1;
    if (fake_config(dev, 0x1234, 0xc0a7, 0) || fake_resource(dev, 0x10000, 0x0c) ||
        fake_config(other, 0x10ee, 0x7011, 0x0006) || fake_resource(other, 0, 0))
        return -1;
    snprintf(path, sizeof path, "%s/resource0", dev);
    int fd = open(path, O_RDWR | O_CREAT, 0600);
    if (fd < 0 || ftruncate(fd, 0x10000) != 0)
        return -1;
    close(fd);
    snprintf(path2, sizeof path2, "%s/resource0_wc", dev);
    if (link(path, path2) != 0 || fake_bar_word(dev, 0, FAKE_ID) != 0)
        return -1;
    snprintf(path, sizeof path, "%s/enable", dev);
    if (write_file(path, "0\n", 2))
        return -1;
    snprintf(path, sizeof path, "%s/mtrr", root);
    return write_file(path, "", 0);
}

/* In the child: set the namespace up; 0 on success, else a reason printed as SKIP. */
static const char *fake_setup(const char *root)
{
    if (access("/sys/bus/pci/devices", F_OK) != 0)
        return "no /sys/bus/pci/devices to cover";
    if (unshare(CLONE_NEWNS) != 0)
        return "unshare(CLONE_NEWNS) refused";
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
        return "cannot make mounts private";
    if (mount("canopy-fake-pci", root, "tmpfs", 0, "size=4m") != 0)
        return "cannot mount a tmpfs";
    if (fake_tree(root) != 0)
        return "cannot build the fake tree";
    char src[512];
    if (access("/proc/mtrr", F_OK) == 0) {
        snprintf(src, sizeof src, "%s/mtrr", root);
        if (mount(src, "/proc/mtrr", NULL, MS_BIND, NULL) != 0 ||
            mount(NULL, "/proc/mtrr", NULL, MS_REMOUNT | MS_BIND | MS_RDONLY, NULL) != 0)
            return "cannot cover /proc/mtrr";
        int fd = open("/proc/mtrr", O_WRONLY);
        if (fd >= 0) {
            close(fd);
            return "/proc/mtrr still writable";
        }
    }
    snprintf(src, sizeof src, "%s/devices", root);
    if (mount(src, "/sys/bus/pci/devices", NULL, MS_BIND, NULL) != 0)
        return "cannot cover /sys/bus/pci/devices";
    if (sysfs_pci_count() != 2 || !sysfs_has_addr(FAKE_ADDR))
        return "the fake tree is not what libpciaccess would see";
    return NULL;
}

static void fake_board_checks(const char *root)
{
    char dev[256], msg[512];
    snprintf(dev, sizeof dev, "%s/devices/" FAKE_ADDR, root);
    struct canopy_hal h;

    /* Found by the default id: opened, memory decoding and bus mastering on. */
    int st = canopy_hal_pci_open(&h, NULL, msg, sizeof msg);
    check(st == CANOPY_OK && h.ops == &canopy_hal_pci_ops && h.node == -1 && h.nodes == -1,
          "fake board: default search opens it", "st %d msg \"%s\"", st, msg);
    if (st != CANOPY_OK)
        return;
    struct pci_priv *p = h.priv;
    check(contains(p->where, FAKE_ADDR " (1234:c0a7)"), "fake board: device named",
          "where \"%s\"", p->where);
    check(fake_read(dev, "config", 4, 2) == 0x0006,
          "fake board: command register has memory + bus master", "command 0x%llx",
          (unsigned long long)fake_read(dev, "config", 4, 2));
    check(fake_read(dev, "enable", 0, 1) == '1', "fake board: pci_device_enable wrote enable",
          "enable 0x%llx", (unsigned long long)fake_read(dev, "enable", 0, 1));
    uint64_t v = 0;
    st = h.ops->mmio_read64(&h, CANOPY_REG_ID, &v);
    check(st == CANOPY_OK && v == FAKE_ID, "fake board: mmio_read64 ID through the mapping",
          "st %d v 0x%llx", st, (unsigned long long)v);
    uint64_t words[4] = { 0x1111, 0x2222, 0x3333, 0x4444 };
    st = h.ops->mmio_write(&h, CANOPY_REG_INJ_TAIL, words, 8);
    check(st == CANOPY_OK && fake_read(dev, "resource0", CANOPY_REG_INJ_TAIL, 8) == 0x1111,
          "fake board: CSR write reaches BAR0 + 0x70", "st %d", st);
    st = h.ops->mmio_write(&h, CANOPY_INJ_WINDOW_OFFSET + 0x40, words, sizeof words);
    check(st == CANOPY_OK &&
              fake_read(dev, "resource0", CANOPY_INJ_WINDOW_OFFSET + 0x40, 8) == 0x1111 &&
              fake_read(dev, "resource0", CANOPY_INJ_WINDOW_OFFSET + 0x58, 8) == 0x4444,
          "fake board: window write reaches BAR0 + 0x8040 (resource0_wc)", "st %d", st);
    fake_bar_word(dev, CANOPY_REG_RX_PUTS, 77);
    st = h.ops->mmio_read64(&h, CANOPY_REG_RX_PUTS, &v);
    check(st == CANOPY_OK && v == 77, "fake board: mmio_read64 sees the device's value",
          "st %d v %llu", st, (unsigned long long)v);
    h.ops->close(&h);
    check(h.priv == NULL, "fake board: closed", "priv left");

    /* By id and by address (both given, matching). */
    struct canopy_open_opts o = { .pci_id = "1234:c0a7", .pci_addr = FAKE_ADDR };
    st = canopy_hal_pci_open(&h, &o, msg, sizeof msg);
    check(st == CANOPY_OK, "fake board: found by pci_id + pci_addr", "st %d msg \"%s\"", st, msg);
    if (st == CANOPY_OK)
        h.ops->close(&h);
    st = open_with("abcd:0001", NULL, msg, sizeof msg, &h);
    check(st == CANOPY_ENODEV && contains(msg, "among 2 PCI devices"),
          "fake board: another id -> ENODEV counting 2 devices", "st %d msg \"%s\"", st, msg);
    st = open_with(NULL, FAKE_OTHER, msg, sizeof msg, &h);
    check(st == CANOPY_EIO && contains(msg, "BAR0 does not exist"),
          "fake board: the other device has no BAR0 -> EIO", "st %d msg \"%s\"", st, msg);

    /* Wrong magic: refused, and bus mastering never turned on. */
    fake_config(dev, 0x1234, 0xc0a7, 0);
    fake_bar_word(dev, 0, UINT64_MAX);
    st = open_with(NULL, NULL, msg, sizeof msg, &h);
    check(st == CANOPY_EIO && contains(msg, "all ones") && contains(msg, "0xffffffffffffffff"),
          "fake board: ID all ones -> EIO (does not answer)", "st %d msg \"%s\"", st, msg);
    check(fake_read(dev, "config", 4, 2) == 0x0002,
          "fake board: no bus mastering for a device that is not canopy", "command 0x%llx",
          (unsigned long long)fake_read(dev, "config", 4, 2));
    fake_bar_word(dev, 0, 0x0100000112345678ull);
    st = open_with(NULL, NULL, msg, sizeof msg, &h);
    check(st == CANOPY_EIO && contains(msg, "not a canopy board") && contains(msg, "0x43504e59"),
          "fake board: wrong magic -> EIO naming the magic", "st %d msg \"%s\"", st, msg);
    printf("     \"%s\"\n", msg);
    fake_bar_word(dev, 0, FAKE_ID);

    /* BAR0 too small, or I/O space. */
    fake_resource(dev, 0x8000, 0x0c);
    st = open_with(NULL, NULL, msg, sizeof msg, &h);
    check(st == CANOPY_EIO && contains(msg, "too small"), "fake board: BAR0 of 32 KiB -> EIO",
          "st %d msg \"%s\"", st, msg);
    fake_resource(dev, 0x10000, 0x01);
    st = open_with(NULL, NULL, msg, sizeof msg, &h);
    check(st == CANOPY_EIO && contains(msg, "I/O space"), "fake board: I/O BAR0 -> EIO",
          "st %d msg \"%s\"", st, msg);
    fake_resource(dev, 0x10000, 0x0c);

    /* No resource0_wc (BAR not prefetchable): the window falls back to resource0. */
    char wc[512];
    snprintf(wc, sizeof wc, "%s/resource0_wc", dev);
    unlink(wc);
    st = canopy_hal_pci_open(&h, NULL, msg, sizeof msg);
    check(st == CANOPY_OK, "fake board: opens without resource0_wc", "st %d msg \"%s\"", st, msg);
    if (st == CANOPY_OK) {
        st = h.ops->mmio_write(&h, CANOPY_BAR0_BYTES - 8, words, 8);
        check(st == CANOPY_OK && fake_read(dev, "resource0", CANOPY_BAR0_BYTES - 8, 8) == 0x1111,
              "fake board: window write via resource0", "st %d", st);
        h.ops->close(&h);
    }
}

static void test_fake_board(void)
{
    if (geteuid() != 0) {
        printf("SKIP fake board: needs root for a private mount namespace\n");
        return;
    }
    char root[] = "/tmp/canopy-pci-test-XXXXXX";
    if (mkdtemp(root) == NULL) {
        printf("SKIP fake board: mkdtemp failed\n");
        return;
    }
    int fds[2];
    if (pipe(fds) != 0) {
        rmdir(root);
        printf("SKIP fake board: pipe failed\n");
        return;
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        g_passed = g_failed = 0;
        const char *why = fake_setup(root);
        if (why != NULL)
            printf("SKIP fake board: %s (%s)\n", why, strerror(errno));
        else
            fake_board_checks(root);
        int counts[2] = { g_passed, g_failed };
        ssize_t n = write(fds[1], counts, sizeof counts);
        close(fds[1]);
        exit(n == (ssize_t)sizeof counts ? 0 : 1);
    }
    close(fds[1]);
    int counts[2] = { 0, 0 };
    ssize_t n = pid > 0 ? read(fds[0], counts, sizeof counts) : -1;
    close(fds[0]);
    int status = 0;
    if (pid > 0)
        waitpid(pid, &status, 0);
    rmdir(root);
    g_passed += counts[0];
    g_failed += counts[1];
    check(pid > 0 && n == (ssize_t)sizeof counts && WIFEXITED(status) && WEXITSTATUS(status) == 0,
          "fake board: child ran to the end", "pid %d read %zd status 0x%x", (int)pid, n, status);
}

/* ---- VFIO ---------------------------------------------------------------------------- */

static void mkdirs(const char *path)
{
    char b[PATH_MAX];
    snprintf(b, sizeof b, "%s", path);
    for (char *c = b + 1; *c; ++c)
        if (*c == '/') {
            *c = '\0';
            mkdir(b, 0755);
            *c = '/';
        }
    mkdir(b, 0755);
}

static void test_vfio(void)
{
    char root[] = "/tmp/canopy-vfio-test-XXXXXX";
    if (!mkdtemp(root)) {
        check(0, "vfio tree", "mkdtemp: %s", strerror(errno));
        return;
    }
    char p1[PATH_MAX], p2[PATH_MAX + 64];
    const char *devs[] = {"0000:03:00.0", "0000:04:00.0", "0000:05:00.0", "0000:06:00.0"};
    for (int i = 0; i < 4; ++i) {
        snprintf(p1, sizeof p1, "%s/sys/bus/pci/devices/%s", root, devs[i]);
        mkdirs(p1);
    }
    snprintf(p1, sizeof p1, "%s/sys/bus/pci/drivers/vfio-pci", root);
    mkdirs(p1);
    snprintf(p1, sizeof p1, "%s/sys/kernel/iommu_groups/17", root);
    mkdirs(p1);
    /* 03:00.0: vfio-pci, group 17; 04:00.0: another driver; 05:00.0: none; 06:00.0:
     * vfio-pci but no group (IOMMU off) */
    snprintf(p1, sizeof p1, "%s/sys/bus/pci/devices/%s/driver", root, devs[0]);
    int ok = symlink("../../../../bus/pci/drivers/vfio-pci", p1) == 0;
    snprintf(p1, sizeof p1, "%s/sys/bus/pci/devices/%s/iommu_group", root, devs[0]);
    ok = ok && symlink("../../../../kernel/iommu_groups/17", p1) == 0;
    snprintf(p1, sizeof p1, "%s/sys/bus/pci/devices/%s/driver", root, devs[1]);
    ok = ok && symlink("../../../../bus/pci/drivers/nvme", p1) == 0;
    snprintf(p1, sizeof p1, "%s/sys/bus/pci/devices/%s/driver", root, devs[3]);
    ok = ok && symlink("../../../../bus/pci/drivers/vfio-pci", p1) == 0;
    check(ok, "vfio tree", "symlinks: %s", strerror(errno));
    snprintf(p2, sizeof p2, "%s/sys", root);
    setenv("CANOPY_SYSFS_ROOT", p2, 1);

    struct vfio_info vi;
    char err[512] = "";
    int st = vfio_discover(devs[0], &vi, err, sizeof err);
    check(st == CANOPY_OK && vi.bound && vi.group == 17 && strcmp(vi.driver, "vfio-pci") == 0, "vfio discover bound",
          "st %s bound %d group %d driver %s: %s", status_name(st), vi.bound, vi.group, vi.driver, err);
    st = vfio_discover(devs[1], &vi, err, sizeof err);
    check(st == CANOPY_OK && !vi.bound && strcmp(vi.driver, "nvme") == 0, "vfio discover other driver",
          "st %s bound %d driver %s", status_name(st), vi.bound, vi.driver);
    st = vfio_discover(devs[2], &vi, err, sizeof err);
    check(st == CANOPY_OK && !vi.bound && vi.driver[0] == '\0', "vfio discover no driver", "st %s bound %d",
          status_name(st), vi.bound);
    st = vfio_discover(devs[3], &vi, err, sizeof err);
    check(st == CANOPY_ENODEV && contains(err, "no IOMMU group") && contains(err, "intel_iommu=on"),
          "vfio discover without IOMMU group", "st %s: %s", status_name(st), err);

    /* /dev/vfio: missing, then a container that is not VFIO, then a group that cannot be opened. */
    snprintf(p1, sizeof p1, "%s/dev-vfio", root);
    setenv("CANOPY_VFIO_DIR", p1, 1);
    struct vfio_dev v;
    st = vfio_open(&v, devs[0], 17, err, sizeof err);
    check(st == CANOPY_ENODEV && contains(err, "container") && contains(err, "vfio-pci module"), "vfio no container",
          "st %s: %s", status_name(st), err);
    vfio_close(&v);
    mkdirs(p1);
    snprintf(p2, sizeof p2, "%s/vfio", p1);
    FILE *f = fopen(p2, "w");
    if (f) fclose(f);
    st = vfio_open(&v, devs[0], 17, err, sizeof err);
    check(st == CANOPY_ENODEV && contains(err, "does not offer VFIO API"), "vfio container not VFIO", "st %s: %s",
          status_name(st), err);
    vfio_close(&v);
    check(v.container == -1 && v.group == -1 && v.device == -1, "vfio close", "fds left open");

    /* The IOVA allocator: never 0, aligned as asked, regions disjoint and in order. */
    struct vfio_dev a = {.container = -1, .group = -1, .device = -1, .next_iova = VFIO_IOVA_BASE};
    uint64_t i1 = vfio_iova_next(&a, 4096, 4096), i2 = vfio_iova_next(&a, 3u << 20, 2u << 20),
             i3 = vfio_iova_next(&a, 8192, 4096);
    check(i1 != 0 && i1 % 4096 == 0 && i2 % (2u << 20) == 0 && i2 >= i1 + 4096 && i3 >= i2 + (3u << 20),
          "vfio iova allocator", "%llx %llx %llx", (unsigned long long)i1, (unsigned long long)i2,
          (unsigned long long)i3);

    /* The real container, where this machine has one (VFIO loaded): its API version. */
    int c = open("/dev/vfio/vfio", O_RDWR);
    if (c >= 0) {
        check(ioctl(c, VFIO_GET_API_VERSION) == VFIO_API_VERSION, "vfio real container", "API version");
        close(c);
    } else {
        printf("SKIP vfio real container: /dev/vfio/vfio: %s (the vfio module is not loaded here)\n", strerror(errno));
    }
    unsetenv("CANOPY_SYSFS_ROOT");
    unsetenv("CANOPY_VFIO_DIR");
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    if (system(cmd) != 0) printf("note: could not remove %s\n", root);
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    test_parse_id();
    test_parse_addr();
    test_pagemap();
    test_contiguity_and_carving();
    test_mmio_fake_bar();
    test_wait_and_time();
    test_dma_alloc();
    test_open();
    test_fake_board();
    test_vfio();
    printf("%s pci-tests: %d passed, %d failed\n", g_failed ? "FAIL" : "PASS", g_passed, g_failed);
    return g_failed ? 1 : 0;
}
