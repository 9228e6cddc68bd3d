/* window_alias.c: canopy_window_alias, a second view of part of the registered window at
 * an address the program already uses (the SHMEM layer maps it over its .data/.bss, so
 * that ordinary global variables are remotely writable, "symmetric" objects).
 *
 * Contract: the window is registered (canopy_window); addr, len and win_offset are page
 * aligned and [win_offset, win_offset + len) lies inside the window. The current bytes at
 * addr are copied into the window first, then the window's pages replace the program's
 * pages at addr (the backend's map_alias, hal.h). Afterwards a store at addr + i and a
 * remote put at window offset win_offset + i reach the same memory. The caller must not
 * write to [addr, addr + len) from another thread during the call. Backends that cannot
 * do it (pci) return CANOPY_ENODEV with a sentence in errmsg, and leave addr untouched.
 */
#include <stdio.h>
#include <unistd.h>

#include "canopy.h"
#include "dev.h"

static void say(char *errmsg, size_t len, const char *what, const char *backend)
{
    if (errmsg && len) snprintf(errmsg, len, "canopy_window_alias: %s (backend %s)", what, backend);
}

/* The program's data pages include AddressSanitizer's redzones around globals (in the
 * sanitizer builds); they are part of the pages and must be copied too, so this copy is
 * not instrumented, and word by word through volatile so it is not turned into an
 * (intercepted) memcpy. len is a multiple of the page size. */
__attribute__((no_sanitize_address)) static void copy_pages(uint8_t *dst, const uint8_t *src, size_t len)
{
    const volatile uint64_t *s = (const volatile uint64_t *)(const void *)src;
    uint64_t *d = (uint64_t *)(void *)dst;
    for (size_t i = 0; i < len / 8; ++i) d[i] = s[i];
}

int canopy_window_alias(canopy_dev *dev, void *addr, size_t len, uint64_t win_offset, char *errmsg,
                        size_t errmsg_len)
{
    int rc = usable(dev);
    if (rc) return rc;
    if (errmsg && errmsg_len) errmsg[0] = '\0';
    const char *name = dev->hal.ops->name;
    const long page = sysconf(_SC_PAGESIZE);
    if (!dev->win.vaddr) {
        say(errmsg, errmsg_len, "no window registered", name);
        return CANOPY_ENOTREG;
    }
    if (!addr || len == 0 || page <= 0 || (uintptr_t)addr % (uintptr_t)page || len % (size_t)page ||
        win_offset % (uint64_t)page) {
        say(errmsg, errmsg_len, "address, length and offset must be nonzero and page aligned", name);
        return CANOPY_EINVAL;
    }
    if (win_offset > dev->win.size || len > dev->win.size - win_offset) {
        say(errmsg, errmsg_len, "the range does not fit in the window", name);
        return CANOPY_ERANGE;
    }
    if (!dev->hal.ops->map_alias) {
        say(errmsg, errmsg_len, "this backend cannot map window memory over program memory", name);
        return CANOPY_ENODEV;
    }
    /* Copy first: from the mapping on, addr shows the window's bytes. */
    uint8_t *w = (uint8_t *)dev->win.vaddr + win_offset;
    copy_pages(w, addr, len);
    rc = dev->hal.ops->map_alias(&dev->hal, &dev->win, win_offset, addr, len);
    if (rc == CANOPY_ENODEV)
        say(errmsg, errmsg_len, "this backend cannot map window memory over program memory (not supported)", name);
    else if (rc)
        say(errmsg, errmsg_len, "mapping the window over the program's pages failed", name);
    return rc;
}
