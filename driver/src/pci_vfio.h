/* pci_vfio.h: VFIO for the "pci" backend (pci_vfio.c; hal_pci.c uses it when the board is
 * bound to vfio-pci). Internal to libcanopy. */
#ifndef CANOPY_PCI_VFIO_H
#define CANOPY_PCI_VFIO_H

#include <stddef.h>
#include <stdint.h>

enum { VFIO_MAX_MAPS = 64 };

struct vfio_info {
    char driver[64]; /* the device's driver ("" if none) */
    int bound;       /* the driver is vfio-pci */
    int group;       /* its IOMMU group (when bound) */
};

struct vfio_dev {
    int container, group, device;   /* -1 when not open */
    uint64_t cfg_offset;            /* the config region's offset in the device fd */
    volatile uint8_t *bar;          /* BAR0 mapped through the device fd */
    size_t bar_len;
    uint64_t next_iova;
    struct { void *va; uint64_t iova; size_t len; } maps[VFIO_MAX_MAPS];
    unsigned nmaps;
};

/* Which driver the device at addr ("dddd:bb:ss.f") has and, if vfio-pci, its IOMMU group.
 * CANOPY_OK (info->bound says which path to take), or an error with a sentence. */
int vfio_discover(const char *addr, struct vfio_info *info, char *errmsg, size_t errlen);
/* Container, group, IOMMU, device fd. On failure the caller still calls vfio_close. */
int vfio_open(struct vfio_dev *v, const char *addr, int group, char *errmsg, size_t errlen);
int vfio_map_bar0(struct vfio_dev *v, size_t need, volatile uint8_t **bar, char *errmsg, size_t errlen);
int vfio_cfg_read16(struct vfio_dev *v, unsigned off, uint16_t *val);  /* 0 or an errno */
int vfio_cfg_write16(struct vfio_dev *v, unsigned off, uint16_t val);
uint64_t vfio_iova_next(struct vfio_dev *v, size_t len, size_t align);
/* size bytes of zeroed memory mapped for the device; *bus is its IOVA. */
int vfio_dma_alloc(struct vfio_dev *v, size_t size, void **va, uint64_t *bus, char *errmsg, size_t errlen);
void vfio_close(struct vfio_dev *v);

#endif
