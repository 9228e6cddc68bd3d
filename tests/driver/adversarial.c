/* adversarial.c: malformed input from a host is refused, counted, and harms nothing.
 *
 *   canopy-run -n N --torus T adversarial        (N >= 2)
 *
 * PE 0 attacks PE 1; PE 1 shrinks its registered window below its allocation (through a
 * raw register write) so the bytes past the window are canaries the device must never
 * touch. Checked afterwards, on the node whose hardware sees each refusal:
 *   PE 0's router: a packet of unknown type, one addressed outside the torus, one whose
 *     length field disagrees with its flits (ERR_BAD_TYPE / ERR_BAD_DST / ERR_BAD_LEN);
 *   PE 0's host interface: a zero-flit descriptor, a doorbell past the ring
 *     (ERR_INJ_DESC / ERR_DOORBELL);
 *   PE 1's host interface: puts past and across its window end (ERR_DMA_BOUNDS), each
 *     reported to PE 1 as a PUT_REFUSED event and to PE 0 as CANOPY_EREFUSED from quiet;
 *     canaries intact; and ordinary puts still work afterwards, both ways.
 */
#include <string.h>

#include "canopy_packet.h"
#include "canopy_raw.h"
#include "canopy_regs.h"
#include "test_util.h"

enum { WIN = 8192, CANARY = 4096, FLAGS = WIN - 256 };

static void counters(canopy_dev *dev, struct canopy_counters *c) { CHECK_OK(canopy_counters(dev, c)); }

static void raw_put_header(canopy_dev *dev, uint64_t hdr[2], unsigned dst_node, unsigned len)
{
    unsigned c[4];
    CHECK_OK(canopy_coords(dev, (int)dst_node, c));
    memset(hdr, 0, 16);
    canopy_hdr_set_ptype(hdr, CANOPY_PKT_PUT);
    canopy_hdr_set_dst(hdr, c[0] | c[1] << 4 | c[2] << 8 | c[3] << 12);
    canopy_hdr_set_len(hdr, len);
}

static void attack(canopy_dev *dev, uint8_t *win)
{
    struct canopy_counters before, after;
    counters(dev, &before);
    uint64_t pkt[2 + 4] = {0};

    raw_put_header(dev, pkt, 1, 16); /* unknown type */
    canopy_hdr_set_ptype(pkt, 0xE);
    CHECK_OK(canopy_raw_inject(dev, pkt, 4, CANOPY_VC_P2P_LO));
    raw_put_header(dev, pkt, 1, 16); /* outside the torus: X coordinate = size */
    unsigned sizes_x = 0;
    for (int n = 0; n < canopy_num_nodes(dev); ++n) {
        unsigned c[4];
        canopy_coords(dev, n, c);
        if (c[0] + 1 > sizes_x) sizes_x = c[0] + 1;
    }
    canopy_hdr_set_dst(pkt, sizes_x);
    CHECK_OK(canopy_raw_inject(dev, pkt, 4, CANOPY_VC_P2P_LO));
    raw_put_header(dev, pkt, 1, 32); /* says 4 payload flits, carries 2 */
    CHECK_OK(canopy_raw_inject(dev, pkt, 4, CANOPY_VC_P2P_LO));
    CHECK_OK(canopy_raw_inject_desc(dev, 0, NULL, 0)); /* zero-flit descriptor */
    uint64_t head, bogus;
    CHECK_OK(canopy_raw_mmio_read(dev, CANOPY_REG_INJ_HEAD, &head));
    bogus = head + 1000000;
    CHECK_OK(canopy_raw_mmio_write(dev, CANOPY_REG_INJ_TAIL, &bogus, 8)); /* past the ring */

    /* Puts outside PE 1's window: wholly past it, and across its end. */
    uint64_t junk[4] = {1, 2, 3, 4};
    CHECK_OK(canopy_put(dev, 1, WIN + 64, junk, 32, 0));
    CHECK_RC(canopy_quiet(dev, TEST_TIMEOUT_NS), CANOPY_EREFUSED);
    CHECK_OK(canopy_put(dev, 1, WIN - 8, junk, 32, 0));
    CHECK_RC(canopy_quiet(dev, TEST_TIMEOUT_NS), CANOPY_EREFUSED);

    counters(dev, &after);
    CHECK(after.err_bad_type == before.err_bad_type + 1, "ERR_BAD_TYPE %llu -> %llu",
          (unsigned long long)before.err_bad_type, (unsigned long long)after.err_bad_type);
    CHECK(after.err_bad_dst == before.err_bad_dst + 1, "ERR_BAD_DST did not count");
    CHECK(after.err_bad_len == before.err_bad_len + 1, "ERR_BAD_LEN did not count");
    CHECK(after.err_inj_desc == before.err_inj_desc + 1, "ERR_INJ_DESC did not count");
    CHECK(after.err_doorbell == before.err_doorbell + 1, "ERR_DOORBELL did not count");
    CHECK(after.puts_failed == before.puts_failed + 2, "PUTS_FAILED did not count both refusals");
    (void)win;
}

static void victim(canopy_dev *dev, uint8_t *win)
{
    /* Expect two refusals, reported as events, and count them. */
    struct canopy_event ev;
    for (int k = 0; k < 2; ++k) {
        CHECK_OK(canopy_wait_event(dev, &ev, TEST_TIMEOUT_NS));
        CHECK(ev.kind == CANOPY_EV_PUT_REFUSED && ev.src_node == 0, "event kind %d from %d", ev.kind, ev.src_node);
    }
    struct canopy_counters c;
    counters(dev, &c);
    CHECK(c.err_dma_bounds == 2, "ERR_DMA_BOUNDS is %llu, expected 2", (unsigned long long)c.err_dma_bounds);
    for (size_t i = 0; i < CANARY; ++i) CHECK(win[WIN + i] == 0xCA, "canary byte %zu past the window was written", i);
    CHECK(win[WIN - 8] == 0, "the put across the window end wrote inside it");
}

int main(void)
{
    canopy_dev *dev = test_open();
    const int me = canopy_my_node(dev), n = canopy_num_nodes(dev);
    CHECK(n >= 2, "needs two nodes");
    uint8_t *win;
    CHECK_OK(canopy_window(dev, WIN + CANARY, (void **)&win));
    memset(win + WIN, 0xCA, CANARY);
    uint64_t size = WIN;
    CHECK_OK(canopy_raw_mmio_write(dev, CANOPY_REG_WIN_SIZE, &size, 8)); /* canaries beyond */
    test_hello(dev, FLAGS, 1);
    test_flag_barrier(dev, win, FLAGS, 2); /* every window is final (shrunk) */
    if (me == 0) attack(dev, win);
    if (me == 1) victim(dev, win);
    /* Still healthy: an ordinary exchange, checked. */
    test_flag_barrier(dev, win, FLAGS, 3);
    uint64_t word = 0x1234000 + (uint64_t)me, got;
    CHECK_OK(canopy_put(dev, (me + 1) % n, 0, &word, 8, 0));
    test_flag_barrier(dev, win, FLAGS, 4);
    memcpy(&got, win, 8);
    CHECK(got == 0x1234000 + (uint64_t)((me + n - 1) % n), "ordinary put after the attack: got 0x%llx",
          (unsigned long long)got);
    if (me == 0) printf("adversarial: every malformed input refused and counted; canaries intact\n");
    CHECK_OK(canopy_close(&dev));
    return 0;
}
