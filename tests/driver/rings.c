/* rings.c: both rings wrap around, fill up, and lose nothing.
 *
 *   canopy-run -n N --torus T rings
 *
 * Injection ring: PE 0 streams 256 KiB to PE 1 in one call (the ring holds 16 KiB, so the
 * driver waits for space and the ring wraps many times) and verifies it arrived.
 * Ejection ring: PE 0 then sends 3 x 256 + 5 notifying puts to PE 1, which starts reading
 * events only once the data of the 256th has landed, so its 256-entry ring is full and the
 * device must hold the next arrival (not overwrite); the ring then wraps three times. PE 1
 * checks every event arrives exactly once, in order, after its data.
 */
#include <string.h>

#include "test_util.h"

enum { BIG = 256 * 1024, NOTES = 3 * 256 + 5, FLAGS = BIG + 8 * NOTES };

int main(void)
{
    canopy_dev *dev = test_open();
    const int me = canopy_my_node(dev), n = canopy_num_nodes(dev);
    CHECK(n >= 2, "needs two nodes");
    uint8_t *win;
    CHECK_OK(canopy_window(dev, FLAGS + 8u * (size_t)n, (void **)&win));
    test_hello(dev, FLAGS, 1);
    if (me == 0) {
        uint8_t *buf = malloc(BIG);
        for (size_t i = 0; i < BIG; ++i) buf[i] = (uint8_t)(i * 131 + (i >> 11));
        CHECK_OK(canopy_put(dev, 1, 0, buf, BIG, 0));
        free(buf);
    }
    test_flag_barrier(dev, win, FLAGS, 2);
    if (me == 0) {
        for (uint64_t k = 0; k < NOTES; ++k) {
            uint64_t v = k + 1;
            CHECK_OK(canopy_put(dev, 1, BIG + 8 * k, &v, 8, CANOPY_PUT_NOTIFY));
        }
    }
    if (me == 1) {
        for (size_t i = 0; i < BIG; ++i) CHECK(win[i] == (uint8_t)(i * 131 + (i >> 11)), "byte %zu", i);
        /* Do not read events until the ring must be full. */
        CHECK_OK(canopy_wait_u64(dev, (volatile uint64_t *)(win + BIG + 8 * 255), CANOPY_CMP_EQ, 256, TEST_TIMEOUT_NS));
        struct canopy_event ev;
        for (uint64_t k = 0; k < NOTES; ++k) {
            CHECK_OK(canopy_wait_event(dev, &ev, TEST_TIMEOUT_NS));
            CHECK(ev.kind == CANOPY_EV_PUT_NOTIFY && ev.src_node == 0 && ev.offset == BIG + 8 * k && ev.len == 8,
                  "event %llu: kind %d src %d offset %llu len %u", (unsigned long long)k, ev.kind, ev.src_node,
                  (unsigned long long)ev.offset, ev.len);
            uint64_t v;
            memcpy(&v, win + ev.offset, 8);
            CHECK(v == k + 1, "notified data %llu is %llu", (unsigned long long)k, (unsigned long long)v);
        }
        CHECK_RC(canopy_poll(dev, &ev), CANOPY_EAGAIN);
    }
    test_flag_barrier(dev, win, FLAGS, 3);
    if (me == 0) printf("rings: injection ring wrapped over 256 KiB, %d events through the ejection ring\n", NOTES);
    CHECK_OK(canopy_close(&dev));
    return 0;
}
