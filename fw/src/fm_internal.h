/* fm_internal.h: what the fabric manager's two halves share, not part of its API. */
#ifndef CANOPY_FM_INTERNAL_H
#define CANOPY_FM_INTERNAL_H

#include <stddef.h>

/* Write a one-line reason into err (if err is not NULL), printf style. */
__attribute__((format(printf, 3, 4)))
void canopy_fm_say(char *err, size_t errlen, const char *fmt, ...);

#endif /* CANOPY_FM_INTERNAL_H */
