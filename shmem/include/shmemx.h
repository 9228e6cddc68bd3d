/* shmemx.h: canopy's extensions to OpenSHMEM (not in the specification).
 *
 * shmemx_cycles: the router clock's cycle count on this PE's node (under the simulator:
 * simulated cycles, exact and repeatable; on a board: 0). shmemx_time_ns: device time in
 * nanoseconds (simulated under the simulator, wall clock on a board). For timing
 * collectives from ordinary SHMEM programs.
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

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_SHMEMX_H */
