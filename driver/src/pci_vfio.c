/* pci_vfio.c: VFIO for the "pci" backend (hal_pci.c): a canopy board with the IOMMU on.
 *
 * When the board is bound to the vfio-pci driver, hal_pci.c takes this path instead of
 * sysfs BAR mapping, pagemap and hugepages:
 *   - discovery (vfio_discover): the device's sysfs directory names its driver (the
 *     `driver` link) and its IOMMU group (the `iommu_group` link, whose last component is
 *     the group number);
 *   - the container /dev/vfio/vfio (API version, the type 1 IOMMU), the group
 *     /dev/vfio/<group> (it must be viable: every device of the group bound to vfio-pci or
 *     to no driver), VFIO_GROUP_SET_CONTAINER, VFIO_SET_IOMMU, VFIO_GROUP_GET_DEVICE_FD;
 *   - BAR0 through the device fd (VFIO_DEVICE_GET_REGION_INFO, mmap of the region), the
 *     command register through the config region (pread/pwrite), bus mastering only after
 *     the ID register showed canopy's magic (as on the sysfs path);
 *   - DMA memory: ordinary anonymous memory (a region of 2 MiB or more 2 MiB aligned, as
 *     hal.h asks), mapped for the device with VFIO_IOMMU_MAP_DMA at an I/O virtual
 *     address this file allocates (from VFIO_IOVA_BASE up, never 0); the bus address the
 *     device is given is that IOVA. VFIO pins the pages: no pagemap, no hugepages, no root,
 *     only read-write access to /dev/vfio/vfio and /dev/vfio/<group>.
 * The sysfs and /dev/vfio roots are parameters (CANOPY_SYSFS_ROOT, CANOPY_VFIO_DIR in the
 * environment, for tests that build a tree of their own; default /sys and /dev/vfio).
 * Limits: VFIO maps BAR0 uncached (no write-combining for the injection window); one
 * container per handle.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/vfio.h>

#include "canopy.h"
#include "pci_vfio.h"

#define VFIO_IOVA_BASE ((uint64_t)1 << 32) /* first IOVA handed out: never 0, far from low MMIO */
#define VFIO_ALIGN_SMALL ((size_t)4096)
#define VFIO_ALIGN_LARGE ((size_t)2 << 20)

static const char *env_or(const char *name, const char *dflt)
{
    const char *v = getenv(name);
    return v && *v ? v : dflt;
}

/* The last path component of the link at dir/name, into out; -1 (errno set) if no link. */
static int link_leaf(const char *dir, const char *name, char *out, size_t len)
{
    char path[PATH_MAX + 128], target[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    ssize_t n = readlink(path, target, sizeof target - 1);
    if (n < 0) return -1;
    target[n] = '\0';
    const char *leaf = strrchr(target, '/');
    leaf = leaf ? leaf + 1 : target;
    size_t k = strlen(leaf);
    if (k >= len) k = len - 1; /* names of drivers and groups are short; cut, never overrun */
    memcpy(out, leaf, k);
    out[k] = '\0';
    return 0;
}

int vfio_discover(const char *addr, struct vfio_info *info, char *errmsg, size_t errlen)
{
    char dev[PATH_MAX + 64];
    memset(info, 0, sizeof *info);
    snprintf(dev, sizeof dev, "%s/bus/pci/devices/%s", env_or("CANOPY_SYSFS_ROOT", "/sys"), addr);
    if (link_leaf(dev, "driver", info->driver, sizeof info->driver) != 0) info->driver[0] = '\0';
    info->bound = strcmp(info->driver, "vfio-pci") == 0;
    if (!info->bound) return CANOPY_OK; /* not ours: the sysfs path */
    char group[64];
    if (link_leaf(dev, "iommu_group", group, sizeof group) != 0) {
        snprintf(errmsg, errlen,
                 "pci: %s is bound to vfio-pci but has no IOMMU group (%s/iommu_group): is the IOMMU on "
                 "(intel_iommu=on / amd_iommu=on)?",
                 addr, dev);
        return CANOPY_ENODEV;
    }
    char *end;
    long g = strtol(group, &end, 10);
    if (*end || g < 0 || g > INT_MAX) {
        snprintf(errmsg, errlen, "pci: %s: IOMMU group \"%s\" is not a number", addr, group);
        return CANOPY_EIO;
    }
    info->group = (int)g;
    return CANOPY_OK;
}

static int errno_status(int e) { return e == EACCES || e == EPERM ? CANOPY_EPERM : CANOPY_ENODEV; }

int vfio_open(struct vfio_dev *v, const char *addr, int group, char *errmsg, size_t errlen)
{
    char path[PATH_MAX];
    const char *dir = env_or("CANOPY_VFIO_DIR", "/dev/vfio");
    memset(v, 0, sizeof *v);
    v->container = v->group = v->device = -1;
    v->next_iova = VFIO_IOVA_BASE;
    snprintf(path, sizeof path, "%s/vfio", dir);
    if ((v->container = open(path, O_RDWR | O_CLOEXEC)) < 0) {
        int e = errno;
        snprintf(errmsg, errlen, "pci: vfio: cannot open the container %s: %s (is the vfio-pci module loaded?)", path,
                 strerror(e));
        return errno_status(e);
    }
    if (ioctl(v->container, VFIO_GET_API_VERSION) != VFIO_API_VERSION ||
        ioctl(v->container, VFIO_CHECK_EXTENSION, VFIO_TYPE1_IOMMU) <= 0) {
        snprintf(errmsg, errlen, "pci: vfio: %s does not offer VFIO API %d with the type 1 IOMMU", path, VFIO_API_VERSION);
        return CANOPY_ENODEV;
    }
    snprintf(path, sizeof path, "%s/%d", dir, group);
    if ((v->group = open(path, O_RDWR | O_CLOEXEC)) < 0) {
        int e = errno;
        snprintf(errmsg, errlen,
                 "pci: vfio: %s is bound to vfio-pci, but its group %s cannot be opened: %s (give this user "
                 "read-write access to it, e.g. chown or a udev rule; no other privilege is needed)",
                 addr, path, strerror(e));
        return errno_status(e);
    }
    struct vfio_group_status st = {.argsz = sizeof st};
    if (ioctl(v->group, VFIO_GROUP_GET_STATUS, &st) != 0 || !(st.flags & VFIO_GROUP_FLAGS_VIABLE)) {
        snprintf(errmsg, errlen,
                 "pci: vfio: group %d of %s is not viable: bind every device of the group "
                 "(/sys/kernel/iommu_groups/%d/devices) to vfio-pci, or unbind it",
                 group, addr, group);
        return CANOPY_ENODEV;
    }
    if (ioctl(v->group, VFIO_GROUP_SET_CONTAINER, &v->container) != 0 ||
        ioctl(v->container, VFIO_SET_IOMMU, VFIO_TYPE1_IOMMU) != 0) {
        int e = errno;
        snprintf(errmsg, errlen, "pci: vfio: cannot attach group %d to a type 1 IOMMU container: %s", group, strerror(e));
        return errno_status(e);
    }
    if ((v->device = ioctl(v->group, VFIO_GROUP_GET_DEVICE_FD, addr)) < 0) {
        int e = errno;
        snprintf(errmsg, errlen, "pci: vfio: cannot get %s from group %d: %s", addr, group, strerror(e));
        return errno_status(e);
    }
    struct vfio_region_info cfg = {.argsz = sizeof cfg, .index = VFIO_PCI_CONFIG_REGION_INDEX};
    if (ioctl(v->device, VFIO_DEVICE_GET_REGION_INFO, &cfg) != 0) {
        snprintf(errmsg, errlen, "pci: vfio: %s has no config region", addr);
        return CANOPY_EIO;
    }
    v->cfg_offset = cfg.offset;
    return CANOPY_OK;
}

int vfio_map_bar0(struct vfio_dev *v, size_t need, volatile uint8_t **bar, char *errmsg, size_t errlen)
{
    struct vfio_region_info r = {.argsz = sizeof r, .index = VFIO_PCI_BAR0_REGION_INDEX};
    if (ioctl(v->device, VFIO_DEVICE_GET_REGION_INFO, &r) != 0 || r.size < need || !(r.flags & VFIO_REGION_INFO_FLAG_MMAP)) {
        snprintf(errmsg, errlen,
                 "pci: vfio: BAR0 is not a canopy BAR0 (%llu bytes%s; canopy needs at least %zu, mappable)",
                 (unsigned long long)r.size, (r.flags & VFIO_REGION_INFO_FLAG_MMAP) ? "" : ", not mappable", need);
        return CANOPY_EIO;
    }
    void *m = mmap(NULL, need, PROT_READ | PROT_WRITE, MAP_SHARED, v->device, (off_t)r.offset);
    if (m == MAP_FAILED) {
        int e = errno;
        snprintf(errmsg, errlen, "pci: vfio: cannot map BAR0: %s", strerror(e));
        return errno_status(e);
    }
    v->bar = m;
    v->bar_len = need;
    *bar = m;
    return CANOPY_OK;
}

int vfio_cfg_read16(struct vfio_dev *v, unsigned off, uint16_t *val)
{
    return pread(v->device, val, 2, (off_t)(v->cfg_offset + off)) == 2 ? 0 : (errno ? errno : EIO);
}

int vfio_cfg_write16(struct vfio_dev *v, unsigned off, uint16_t val)
{
    return pwrite(v->device, &val, 2, (off_t)(v->cfg_offset + off)) == 2 ? 0 : (errno ? errno : EIO);
}

/* The next IOVA for a region of len bytes aligned to align (a power of two). */
uint64_t vfio_iova_next(struct vfio_dev *v, size_t len, size_t align)
{
    uint64_t iova = (v->next_iova + align - 1) & ~(uint64_t)(align - 1);
    v->next_iova = iova + len;
    return iova;
}

int vfio_dma_alloc(struct vfio_dev *v, size_t size, void **va, uint64_t *bus, char *errmsg, size_t errlen)
{
    if (v->nmaps == VFIO_MAX_MAPS) {
        snprintf(errmsg, errlen, "pci: vfio: more than %d DMA regions", VFIO_MAX_MAPS);
        return CANOPY_ENOMEM;
    }
    const size_t align = size >= VFIO_ALIGN_LARGE ? VFIO_ALIGN_LARGE : VFIO_ALIGN_SMALL;
    const size_t len = (size + VFIO_ALIGN_SMALL - 1) & ~(VFIO_ALIGN_SMALL - 1);
    /* Over-allocate by the alignment, keep the aligned part (hal.h: 2 MiB for big regions). */
    uint8_t *raw = mmap(NULL, len + align, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) {
        snprintf(errmsg, errlen, "pci: vfio: out of memory for %zu bytes of DMA memory", size);
        return CANOPY_ENOMEM;
    }
    uint8_t *a = (uint8_t *)(((uintptr_t)raw + align - 1) & ~(uintptr_t)(align - 1));
    if (a > raw) munmap(raw, (size_t)(a - raw));
    munmap(a + len, (size_t)(raw + align - a));
    struct vfio_iommu_type1_dma_map map = {
        .argsz = sizeof map,
        .flags = VFIO_DMA_MAP_FLAG_READ | VFIO_DMA_MAP_FLAG_WRITE,
        .vaddr = (uintptr_t)a,
        .iova = vfio_iova_next(v, len, align),
        .size = len,
    };
    if (ioctl(v->container, VFIO_IOMMU_MAP_DMA, &map) != 0) {
        int e = errno;
        munmap(a, len);
        snprintf(errmsg, errlen,
                 "pci: vfio: VFIO_IOMMU_MAP_DMA of %zu bytes failed: %s (the locked-memory limit, ulimit -l, "
                 "bounds what VFIO may pin)",
                 len, strerror(e));
        return e == ENOMEM ? CANOPY_ENOMEM : errno_status(e);
    }
    v->maps[v->nmaps].va = a;
    v->maps[v->nmaps].iova = map.iova;
    v->maps[v->nmaps].len = len;
    v->nmaps++;
    *va = a; /* anonymous memory: already zero */
    *bus = map.iova;
    return CANOPY_OK;
}

void vfio_close(struct vfio_dev *v)
{
    for (unsigned i = 0; i < v->nmaps; ++i) {
        struct vfio_iommu_type1_dma_unmap un = {.argsz = sizeof un, .iova = v->maps[i].iova, .size = v->maps[i].len};
        if (v->container >= 0) ioctl(v->container, VFIO_IOMMU_UNMAP_DMA, &un);
        munmap(v->maps[i].va, v->maps[i].len);
    }
    v->nmaps = 0;
    if (v->bar) munmap((void *)v->bar, v->bar_len);
    v->bar = NULL;
    if (v->device >= 0) close(v->device);
    if (v->group >= 0) close(v->group);
    if (v->container >= 0) close(v->container);
    v->device = v->group = v->container = -1;
}
