/* canopy_raw.h: below the API, for bring-up, diagnostics and adversarial tests.
 *
 * These calls bypass libcanopy's checks on purpose: a raw packet goes into the injection
 * ring exactly as given (the device and the router must refuse it if it is malformed),
 * and raw MMIO reaches any BAR0 offset. Ordinary programs never need them.
 */
#ifndef CANOPY_RAW_H
#define CANOPY_RAW_H

#include <stddef.h>
#include <stdint.h>

#include "canopy.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Inject nflits 64-bit flits (header words first) as one packet on local-port VC vc.
 * nflits 1..255; the ring framing is the only thing the library adds. */
int canopy_raw_inject(canopy_dev *dev, const uint64_t *flits, unsigned nflits, unsigned vc);
/* Put an arbitrary descriptor word followed by nwords words (0..255) into the injection
 * ring and ring the doorbell: the device must refuse a bad descriptor without losing its
 * place in the ring. */
int canopy_raw_inject_desc(canopy_dev *dev, uint64_t desc, const uint64_t *words, unsigned nwords);
/* Write len bytes (a multiple of 8) at BAR0 offset off; read the 64-bit word at off. */
int canopy_raw_mmio_write(canopy_dev *dev, uint32_t off, const void *src, size_t len);
int canopy_raw_mmio_read(canopy_dev *dev, uint32_t off, uint64_t *value);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_RAW_H */
