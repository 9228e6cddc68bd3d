/* fm_check.h: what the fabric manager's host-only tests share: CHECK, which counts every
 * check and prints the first 40 failures with file, line and a message, and a seeded
 * splitmix64 generator (each test sets rng_state first, so its random cases are the same
 * every run). Included by one test source each; everything is static. */
#ifndef CANOPY_FM_CHECK_H
#define CANOPY_FM_CHECK_H

#include <stdint.h>
#include <stdio.h>

static int failures, checks;

#define CHECK(cond, ...)                                                              \
    do {                                                                              \
        ++checks;                                                                     \
        if (!(cond)) {                                                                \
            if (++failures <= 40) {                                                   \
                fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
                fprintf(stderr, __VA_ARGS__);                                         \
                fprintf(stderr, "\n");                                                \
            }                                                                         \
        }                                                                             \
    } while (0)

static uint64_t rng_state;
static uint64_t splitmix64(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

#endif
