/* test_util.h: helpers shared by the driver-level test programs (run under canopy-run).
 *
 * Each program is an ordinary libcanopy program: every PE runs it. A failed check prints
 * the PE, the line and the reason and exits 1, which makes canopy-run fail the run.
 */
#ifndef CANOPY_TEST_UTIL_H
#define CANOPY_TEST_UTIL_H

#include <stdio.h>
#include <stdlib.h>

#include "canopy.h"

#define TEST_TIMEOUT_NS (5ull * 1000 * 1000 * 1000)

static int test_me = -1;

#define CHECK(cond, ...)                                                      \
    do {                                                                      \
        if (!(cond)) {                                                        \
            fprintf(stderr, "PE %d: %s:%d: check failed: %s: ", test_me,      \
                    __FILE__, __LINE__, #cond);                               \
            fprintf(stderr, __VA_ARGS__);                                     \
            fprintf(stderr, "\n");                                            \
            exit(1);                                                          \
        }                                                                     \
    } while (0)

#define CHECK_RC(expr, want)                                                  \
    do {                                                                      \
        int rc_ = (expr);                                                     \
        CHECK(rc_ == (want), "%s returned %d (%s), expected %d (%s)", #expr, \
              rc_, canopy_strerror(rc_), (want), canopy_strerror(want));      \
    } while (0)

#define CHECK_OK(expr) CHECK_RC(expr, CANOPY_OK)

static inline canopy_dev *test_open(void)
{
    char err[256] = "";
    struct canopy_open_opts o = {.errmsg = err, .errmsg_len = sizeof err};
    canopy_dev *dev = NULL;
    int rc = canopy_open(&dev, &o);
    CHECK(rc == CANOPY_OK, "canopy_open: %s: %s", canopy_strerror(rc), err);
    test_me = canopy_my_node(dev);
    return dev;
}

/* Say hello to every node until it accepts a put: then its window exists. flag_off is
 * where each node keeps one 8-byte word per peer. */
static inline void test_hello(canopy_dev *dev, uint64_t flag_off, uint64_t value)
{
    int n = canopy_num_nodes(dev), me = canopy_my_node(dev);
    for (int d = 0; d < n; ++d) {
        int rc, tries = 0;
        do {
            CHECK_OK(canopy_put(dev, d, flag_off + 8u * (unsigned)me, &value, 8, 0));
            rc = canopy_quiet(dev, TEST_TIMEOUT_NS);
        } while (rc == CANOPY_EREFUSED && ++tries < 100000);
        CHECK_OK(rc);
    }
}

/* A barrier of flags: every node sets its word at every node to `value`, after its own
 * puts are complete; then waits for all words to reach it. */
static inline void test_flag_barrier(canopy_dev *dev, uint8_t *win, uint64_t flag_off, uint64_t value)
{
    int n = canopy_num_nodes(dev), me = canopy_my_node(dev);
    CHECK_OK(canopy_quiet(dev, TEST_TIMEOUT_NS));
    for (int d = 0; d < n; ++d) CHECK_OK(canopy_put(dev, d, flag_off + 8u * (unsigned)me, &value, 8, 0));
    CHECK_OK(canopy_quiet(dev, TEST_TIMEOUT_NS));
    volatile uint64_t *flags = (volatile uint64_t *)(win + flag_off);
    for (int s = 0; s < n; ++s) CHECK_OK(canopy_wait_u64(dev, &flags[s], CANOPY_CMP_GE, value, TEST_TIMEOUT_NS));
}

/* Let device time pass until t (ns): waits with a timeout on `idle`, a window word nobody
 * writes (under sim the only way for a program to let simulated time pass). */
static inline void test_sleep_until(canopy_dev *dev, const volatile uint64_t *idle, uint64_t t)
{
    while (canopy_time_ns(dev) < t) {
        int rc = canopy_wait_u64(dev, idle, CANOPY_CMP_NE, 0, t - canopy_time_ns(dev));
        CHECK(rc == CANOPY_ETIMEDOUT, "sleeping: the idle word changed (%s)", canopy_strerror(rc));
    }
}

#endif
