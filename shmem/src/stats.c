/* stats.c: CANOPY_SHMEM_STATS. With CANOPY_SHMEM_STATS=1, PE 0 prints at shmem_finalize
 * how many calls of each collective kind ran in the routers and how many in software
 * (CANOPY_SHMEM_STATS=all: every PE prints its own). Counts are per PE and include the
 * library's own barriers (shmem_init, shmem_malloc, shmem_free, shmem_finalize). One
 * block, printed with a single write so PEs' tables do not interleave.
 */
#include <stdio.h>
#include <string.h>

#include "shmem_internal.h"
#include "shmemx.h"

void shmi_stats_print(void)
{
    if (shmi.stats_mode == 0 || (shmi.stats_mode == 1 && shmi.me != 0)) return;
    static const char *const names[K_NKINDS] = {"barrier", "sync", "broadcast", "reduce", "collect", "fcollect", "alltoall"};
    char buf[1024];
    size_t o = 0;
    o += (size_t)snprintf(buf + o, sizeof buf - o,
                          "canopy-shmem stats, PE %d of %d (CANOPY_SHMEM_HW=%d, %u trees, %d stride trees, ids in use "
                          "here 0x%x, reserved 0x%x, link ends down %d):\n"
                          "  %-10s %10s %10s\n",
                          shmi.me, shmi.npes, shmi.hw, shmi.ntrees, shmi.nstride, shmi.member_ids,
                          shmi.reserved_ids, shmi.links_down, "collective", "hardware", "software");
    for (int k = 0; k < K_NKINDS && o < sizeof buf; ++k)
        o += (size_t)snprintf(buf + o, sizeof buf - o, "  %-10s %10llu %10llu\n", names[k],
                              (unsigned long long)shmi.stats.hw[k], (unsigned long long)shmi.stats.sw[k]);
    fflush(stdout);
    fputs(buf, stdout);
    fflush(stdout);
}

/* shmemx.h: the device clocks, for timing from SHMEM programs. */
uint64_t shmemx_cycles(void)
{
    shmi_require_init("shmemx_cycles");
    return canopy_cycles(shmi.dev);
}

uint64_t shmemx_time_ns(void)
{
    shmi_require_init("shmemx_time_ns");
    return canopy_time_ns(shmi.dev);
}

int shmemx_links_down(void)
{
    shmi_require_init("shmemx_links_down");
    return shmi.links_down;
}

void shmemx_coll_counts(uint64_t *hw, uint64_t *sw)
{
    shmi_require_init("shmemx_coll_counts");
    uint64_t h = 0, s = 0;
    for (int k = 0; k < K_NKINDS; ++k) h += shmi.stats.hw[k], s += shmi.stats.sw[k];
    if (hw) *hw = h;
    if (sw) *sw = s;
}

int shmemx_pe_reachable(int pe)
{
    shmi_check_pe("shmemx_pe_reachable", pe);
    return canopy_route_up(shmi.dev, shmi.me, pe) == 1 && canopy_route_up(shmi.dev, pe, shmi.me) == 1;
}
