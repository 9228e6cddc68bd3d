/* shmem_test.h: helpers shared by the OpenSHMEM tests (ordinary SHMEM programs, run with
 * shmem/oshrun). A failed check prints the PE, the line and the reason and exits 1, which
 * fails the whole run. Values come from fixed formulas of (PE, index, round), so every PE
 * can compute any other PE's data and the expected results (the host reference).
 */
#ifndef SHMEM_TEST_H
#define SHMEM_TEST_H

#include <stdio.h>
#include <stdlib.h>

#include <shmem.h>

#define CHECK(cond, ...)                                                                   \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "PE %d: %s:%d: check failed: %s: ", shmem_my_pe(), __FILE__,  \
                    __LINE__, #cond);                                                      \
            fprintf(stderr, __VA_ARGS__);                                                  \
            fprintf(stderr, "\n");                                                         \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

/* splitmix64 (docs/conventions.md): the tests' one generator. */
static inline uint64_t test_mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* A strided group of world PEs, as the tests describe teams and active sets. */
struct test_group {
    const char *name;
    int start, stride, size;
};
static inline int test_member(const struct test_group *g, int pe)
{
    int d = pe - g->start;
    return d >= 0 && d % g->stride == 0 && d / g->stride < g->size ? d / g->stride : -1;
}
static inline int test_pe(const struct test_group *g, int i) { return g->start + i * g->stride; }

#endif
