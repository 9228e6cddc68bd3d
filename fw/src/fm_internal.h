/* fm_internal.h: what the fabric manager's two halves share, not part of its API. */
#ifndef CANOPY_FM_INTERNAL_H
#define CANOPY_FM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "canopy_fm.h"

/* Write a one-line reason into err (if err is not NULL), printf style. */
__attribute__((format(printf, 3, 4)))
void canopy_fm_say(char *err, size_t errlen, const char *fmt, ...);

/* canopy_fm_build without its final canopy_fm_verify (the benchmark times the two apart). */
int canopy_fm_build_unchecked(const struct canopy_fm_torus *t, int root, const uint8_t *groups, uint32_t *entries,
                              char *err, size_t errlen);

#endif /* CANOPY_FM_INTERNAL_H */
