/* misuse.c: every API misuse is refused with the documented status, and nothing breaks.
 *
 *   canopy-run -n N --torus T misuse
 */
#include <string.h>

#include "canopy_raw.h"
#include "test_util.h"

int main(void)
{
    char err[256];
    struct canopy_open_opts bad = {.backend = "bogus", .errmsg = err, .errmsg_len = sizeof err};
    canopy_dev *dev = NULL;
    CHECK_RC(canopy_open(NULL, NULL), CANOPY_EINVAL);
    CHECK_RC(canopy_open(&dev, &bad), CANOPY_EINVAL);
    CHECK(dev == NULL && strstr(err, "bogus"), "errmsg: %s", err);

    dev = test_open();
    const int n = canopy_num_nodes(dev);
    uint64_t x = 7;
    uint8_t local[64];
    /* Before a window exists. */
    CHECK_RC(canopy_wait_u64(dev, (volatile uint64_t *)local, CANOPY_CMP_EQ, 0, 1000), CANOPY_ENOTREG);
    CHECK(canopy_window_size(dev) == 0, "window size before registration");
    uint8_t *win;
    CHECK_RC(canopy_window(dev, 0, (void **)&win), CANOPY_EINVAL);
    CHECK_RC(canopy_window(dev, 4096, NULL), CANOPY_EINVAL);
    CHECK_OK(canopy_window(dev, 4096, (void **)&win));
    CHECK_RC(canopy_window(dev, 4096, (void **)&win), CANOPY_EBUSY);
    /* Puts. */
    CHECK_RC(canopy_put(dev, -1, 0, &x, 8, 0), CANOPY_ERANGE);
    CHECK_RC(canopy_put(dev, n, 0, &x, 8, 0), CANOPY_ERANGE);
    CHECK_RC(canopy_put(dev, 0, 0, NULL, 8, 0), CANOPY_EINVAL);
    CHECK_RC(canopy_put(dev, 0, 0, &x, 8, 0x80), CANOPY_EINVAL);
    CHECK_RC(canopy_put(dev, 0, (uint64_t)1 << 40, &x, 8, 0), CANOPY_ERANGE);
    CHECK_RC(canopy_put(dev, 0, ((uint64_t)1 << 40) - 4, &x, 8, 0), CANOPY_ERANGE);
    CHECK_OK(canopy_put(dev, 0, 0, NULL, 0, 0)); /* nothing to write is fine */
    /* Waits and queries. */
    CHECK_RC(canopy_wait_u64(dev, (volatile uint64_t *)local, CANOPY_CMP_EQ, 0, 1000), CANOPY_ENOTREG);
    CHECK_RC(canopy_wait_u64(dev, (volatile uint64_t *)(win + 4), CANOPY_CMP_EQ, 0, 1000), CANOPY_EINVAL);
    CHECK_RC(canopy_wait_u64(dev, (volatile uint64_t *)win, 99, 0, 1000), CANOPY_EINVAL);
    CHECK_RC(canopy_wait_u64(dev, (volatile uint64_t *)win, CANOPY_CMP_EQ, 1, 1000), CANOPY_ETIMEDOUT);
    unsigned c[4];
    CHECK_RC(canopy_coords(dev, n, c), CANOPY_ERANGE);
    CHECK_RC(canopy_coords(dev, 0, NULL), CANOPY_EINVAL);
    CHECK_RC(canopy_caps(dev, NULL), CANOPY_EINVAL);
    struct canopy_event ev;
    CHECK_RC(canopy_poll(dev, &ev), CANOPY_EAGAIN);
    CHECK_RC(canopy_poll(dev, NULL), CANOPY_EINVAL);
    /* Raw calls check their own arguments. */
    CHECK_RC(canopy_raw_inject(dev, &x, 0, 0), CANOPY_EINVAL);
    CHECK_RC(canopy_raw_inject(dev, &x, 1, 99), CANOPY_EINVAL);
    CHECK_RC(canopy_raw_mmio_write(dev, 3, &x, 8), CANOPY_EINVAL);
    CHECK_RC(canopy_raw_mmio_write(dev, 0x10000, &x, 8), CANOPY_EINVAL);
    CHECK_RC(canopy_raw_mmio_read(dev, 0, NULL), CANOPY_EINVAL);
    /* The device is still fine: a put to myself arrives. */
    CHECK_OK(canopy_put(dev, canopy_my_node(dev), 8, &x, 8, 0));
    CHECK_OK(canopy_quiet(dev, TEST_TIMEOUT_NS));
    CHECK_OK(canopy_wait_u64(dev, (volatile uint64_t *)(win + 8), CANOPY_CMP_EQ, 7, TEST_TIMEOUT_NS));
    /* After close. */
    CHECK_OK(canopy_close(&dev));
    CHECK(dev == NULL, "close leaves NULL");
    CHECK_RC(canopy_put(dev, 0, 0, &x, 8, 0), CANOPY_ECLOSED);
    CHECK_RC(canopy_quiet(dev, 1000), CANOPY_ECLOSED);
    CHECK_RC(canopy_my_node(dev), CANOPY_ECLOSED);
    CHECK_OK(canopy_close(&dev));
    CHECK(strlen(canopy_strerror(-999)) > 0, "strerror of an unknown status");
    for (int s = CANOPY_OK; s >= CANOPY_EUNREACH; --s)
        CHECK(strcmp(canopy_strerror(s), canopy_strerror(-999)) != 0, "status %d has no message of its own", s);
    CHECK_RC(canopy_set_dead_links(dev, NULL, 0), CANOPY_ECLOSED);
    CHECK_RC(canopy_route_up(dev, 0, 0), CANOPY_ECLOSED);
    if (test_me == 0) printf("misuse: every misuse refused with the right status\n");
    return 0;
}
