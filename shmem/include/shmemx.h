/* shmemx.h: canopy's extensions to OpenSHMEM (not in the specification).
 *
 * shmemx_cycles: the router clock's cycle count on this PE's node (under the simulator:
 * simulated cycles, exact and repeatable; on a board: 0). shmemx_time_ns: device time in
 * nanoseconds (simulated under the simulator, wall clock on a board). For timing
 * collectives from ordinary SHMEM programs.
 *
 * shmemx_links_down: how many link ends this PE knows to be down (0 until a collective's
 * tree went down and the PEs recovered, docs/shmem.md "When a link goes down"; from then
 * on every collective runs in software). shmemx_coll_counts: collective calls so far on
 * this PE that ran in the routers and in software (what CANOPY_SHMEM_STATS prints).
 * shmemx_pe_reachable: 1 if puts and gets between this PE and pe have a route (it crosses
 * no link known to be down), else 0: a put to an unreachable PE stops the program.
 */
#ifndef CANOPY_SHMEMX_H
#define CANOPY_SHMEMX_H

#include <stdint.h>

#include "shmem.h"

#ifdef __cplusplus
extern "C" {
#endif

uint64_t shmemx_cycles(void);
uint64_t shmemx_time_ns(void);
int shmemx_links_down(void);
void shmemx_coll_counts(uint64_t *hw, uint64_t *sw);
int shmemx_pe_reachable(int pe);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_SHMEMX_H */
