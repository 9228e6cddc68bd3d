/* dma_fault.c: DMA into host memory that the host refuses (the host interface checks BRESP
 * and RRESP). Run with PE 1's window range [REFUSED_OFF, REFUSED_OFF + REFUSED_LEN)
 * refused by its host's bridge:
 *
 *   canopy-run -n N --torus T --dma-fault 1:0x10000:0x1000 dma_fault
 *
 * PE 0 against PE 1 (every other PE only joins the barriers):
 *  1. puts: one into the refused range (its ACK says FAILED: canopy_quiet CANOPY_EREFUSED,
 *     the next quiet CANOPY_OK), one that crosses into it from below (its second burst is
 *     refused: EREFUSED), one beside it (OK, data exact). PE 1 finds the refused range
 *     still holding its pattern, the good put's bytes, ERR_DMA_WRITE 3 (the refused put's
 *     two 16-beat bursts, the crossing put's second) and RX_PUTS grown by as much as in a
 *     round of the good put alone.
 *  2. gets: one whose last chunk lies in the refused range, one whose first chunk does
 *     (each EREFUSED at quiet; the reply bytes of a refused chunk never written), then a
 *     good one (OK, data exact).
 *  3. atomics: a fetching add on an object in the refused range (canopy_amo_fetch
 *     EREFUSED, the object unchanged), then one beside it (OK, the old value exact).
 *     PE 1 finds ERR_DMA_READ 65: the 32 beats of each refused chunk and the atomic's one.
 *  4. the node keeps working: PE 0 and PE 1 exchange puts both ways, and the counts at
 *     PE 0 show nothing refused there (ERR_DMA_WRITE, ERR_DMA_READ 0).
 */
#include <string.h>

#include "canopy_packet.h"
#include "canopy_regs.h"
#include "test_util.h"

enum {
    WIN_SIZE = 0x20000,
    FLAG_OFF = 0,             /* barrier words, 8 bytes per PE */
    REFUSED_OFF = 0x10000,    /* as given to --dma-fault */
    REFUSED_LEN = 0x1000,
    GOOD_OFF = 0x8000,        /* puts and gets that must work */
    REPLY_OFF = 0x4000,       /* PE 0: where gets and atomics answer */
    SRC_OFF = 0x2000,         /* PE 0: data to put */
    SYNC_OFF = 0x1000,        /* one word: go (PE 1 to PE 0), done (PE 0 to PE 1) */
};

static uint8_t *win;
static uint64_t barrier_value = 1;

static void barrier(canopy_dev *dev) { test_flag_barrier(dev, win, FLAG_OFF, ++barrier_value); }

static uint8_t pattern(uint64_t off) { return (uint8_t)(off * 131u + 7u); }

static void fill(uint64_t off, size_t len, uint8_t salt)
{
    for (size_t i = 0; i < len; ++i) win[off + i] = (uint8_t)(pattern(off + i) ^ salt);
}

static int holds(uint64_t off, size_t len, uint8_t salt)
{
    for (size_t i = 0; i < len; ++i)
        if (win[off + i] != (uint8_t)(pattern(off + i) ^ salt)) return 0;
    return 1;
}

static void counters(canopy_dev *dev, struct canopy_counters *c) { CHECK_OK(canopy_counters(dev, c)); }

static void pe0_puts(canopy_dev *dev, int refused)
{
    fill(SRC_OFF, 512, 0x5a);
    if (refused) {
        CHECK_OK(canopy_put(dev, 1, REFUSED_OFF + 0x100, win + SRC_OFF, 256, 0));
        CHECK_RC(canopy_quiet(dev, TEST_TIMEOUT_NS), CANOPY_EREFUSED);
        CHECK_OK(canopy_quiet(dev, TEST_TIMEOUT_NS));
        CHECK_OK(canopy_put(dev, 1, REFUSED_OFF - 128, win + SRC_OFF, 256, 0)); /* 128 below, 128 in */
        CHECK_RC(canopy_quiet(dev, TEST_TIMEOUT_NS), CANOPY_EREFUSED);
    }
    CHECK_OK(canopy_put(dev, 1, GOOD_OFF, win + SRC_OFF, 512, 0));
    CHECK_OK(canopy_quiet(dev, TEST_TIMEOUT_NS));
}

/* PE 1's counts around PE 0's puts, with nothing else arriving between: PE 1 counts and
 * tells PE 0 to go; PE 0 puts and tells PE 1 it is done; PE 1 counts again and lets the
 * others (held so that their next barrier's flags stay out of the count) go on. */
static void put_round(canopy_dev *dev, int refused, struct canopy_counters *delta)
{
    const int me = canopy_my_node(dev), n = canopy_num_nodes(dev);
    volatile uint64_t *sync = (volatile uint64_t *)(win + SYNC_OFF);
    const uint64_t go = (uint64_t)refused + 1;
    if (me == 1) {
        struct canopy_counters a, b;
        counters(dev, &a);
        CHECK_OK(canopy_put(dev, 0, SYNC_OFF, &go, 8, 0));
        CHECK_OK(canopy_quiet(dev, TEST_TIMEOUT_NS));
        CHECK_OK(canopy_wait_u64(dev, sync, CANOPY_CMP_EQ, go, TEST_TIMEOUT_NS));
        counters(dev, &b);
        delta->rx_puts = b.rx_puts - a.rx_puts;
        delta->err_dma_write = b.err_dma_write - a.err_dma_write;
        for (int d = 2; d < n; ++d) CHECK_OK(canopy_put(dev, d, SYNC_OFF, &go, 8, 0));
        CHECK_OK(canopy_quiet(dev, TEST_TIMEOUT_NS));
    } else if (me == 0) {
        CHECK_OK(canopy_wait_u64(dev, sync, CANOPY_CMP_EQ, go, TEST_TIMEOUT_NS));
        pe0_puts(dev, refused);
        CHECK_OK(canopy_put(dev, 1, SYNC_OFF, &go, 8, 0));
        CHECK_OK(canopy_quiet(dev, TEST_TIMEOUT_NS));
    } else {
        CHECK_OK(canopy_wait_u64(dev, sync, CANOPY_CMP_EQ, go, TEST_TIMEOUT_NS));
    }
    barrier(dev);
}

static void pe1_check_puts(const struct canopy_counters *plain, const struct canopy_counters *with)
{
    CHECK(holds(REFUSED_OFF, REFUSED_LEN, 0), "the refused range changed");
    for (size_t i = 0; i < 512; ++i)
        CHECK(win[GOOD_OFF + i] == (uint8_t)(pattern(SRC_OFF + i) ^ 0x5a), "good put byte %zu wrong", i);
    /* the refused put's two 16-beat bursts, the crossing put's second one */
    CHECK(plain->err_dma_write == 0 && with->err_dma_write == 3, "ERR_DMA_WRITE grew by %llu and %llu, expected 0, 3",
          (unsigned long long)plain->err_dma_write, (unsigned long long)with->err_dma_write);
    /* the refused and the crossing put are not counted as delivered */
    CHECK(with->rx_puts == plain->rx_puts, "RX_PUTS grew by %llu with the refused puts, %llu without",
          (unsigned long long)with->rx_puts, (unsigned long long)plain->rx_puts);
}

static void pe0_gets(canopy_dev *dev)
{
    memset(win + REPLY_OFF, 0xee, 0x1000);
    /* last chunk refused */
    CHECK_OK(canopy_get(dev, 1, REFUSED_OFF - 256, REPLY_OFF, 512));
    CHECK_RC(canopy_quiet(dev, TEST_TIMEOUT_NS), CANOPY_EREFUSED);
    for (size_t i = 256; i < 512; ++i) CHECK(win[REPLY_OFF + i] == 0xee, "refused chunk's reply byte %zu written", i);
    /* first chunk refused, last one good */
    memset(win + REPLY_OFF, 0xee, 0x1000);
    CHECK_OK(canopy_get(dev, 1, REFUSED_OFF + REFUSED_LEN - 256, REPLY_OFF, 512));
    CHECK_RC(canopy_quiet(dev, TEST_TIMEOUT_NS), CANOPY_EREFUSED);
    for (size_t i = 0; i < 256; ++i) CHECK(win[REPLY_OFF + i] == 0xee, "refused chunk's reply byte %zu written", i);
    CHECK_OK(canopy_quiet(dev, TEST_TIMEOUT_NS));
    /* a good one */
    CHECK_OK(canopy_get(dev, 1, GOOD_OFF, REPLY_OFF, 512));
    CHECK_OK(canopy_quiet(dev, TEST_TIMEOUT_NS));
    for (size_t i = 0; i < 512; ++i)
        CHECK(win[REPLY_OFF + i] == (uint8_t)(pattern(SRC_OFF + i) ^ 0x5a), "good get byte %zu wrong", i);
}

static void pe0_amos(canopy_dev *dev)
{
    uint64_t old = 0x1234;
    CHECK_RC(canopy_amo_fetch(dev, 1, REFUSED_OFF + 8, CANOPY_AMO_ADD, 8, 5, 0, REPLY_OFF, &old, TEST_TIMEOUT_NS),
             CANOPY_EREFUSED);
    CHECK(old == 0x1234, "a failed atomic gave a value");
    uint64_t want;
    memcpy(&want, win + SRC_OFF + 8, 8); /* what pe0_puts put there */
    CHECK_OK(canopy_amo_fetch(dev, 1, GOOD_OFF + 8, CANOPY_AMO_ADD, 8, 5, 0, REPLY_OFF, &old, TEST_TIMEOUT_NS));
    CHECK(old == want, "good atomic: old 0x%llx, expected 0x%llx", (unsigned long long)old, (unsigned long long)want);
    CHECK_OK(canopy_quiet(dev, TEST_TIMEOUT_NS));
}

int main(void)
{
    canopy_dev *dev = test_open();
    const int me = canopy_my_node(dev), n = canopy_num_nodes(dev);
    CHECK(n >= 2, "needs two PEs");
    CHECK_OK(canopy_window(dev, WIN_SIZE, (void **)&win));
    memset(win, 0, WIN_SIZE);
    if (me == 1) fill(REFUSED_OFF - 0x1000, 3 * REFUSED_LEN, 0);
    test_hello(dev, FLAG_OFF, 1);
    barrier(dev);

    struct canopy_counters before, plain, with;
    counters(dev, &before);
    put_round(dev, 0, &plain);
    put_round(dev, 1, &with);
    if (me == 1) pe1_check_puts(&plain, &with);
    barrier(dev);
    if (me == 0) {
        pe0_gets(dev);
        pe0_amos(dev);
    }
    barrier(dev);
    if (me == 1) {
        struct canopy_counters c;
        counters(dev, &c);
        CHECK(c.err_dma_read - before.err_dma_read == 65, "ERR_DMA_READ grew by %llu, expected 65",
              (unsigned long long)(c.err_dma_read - before.err_dma_read));
        CHECK(holds(REFUSED_OFF, REFUSED_LEN, 0), "the refused range changed");
    }
    /* 4. both ways, still working */
    if (me == 0 || me == 1) {
        fill(SRC_OFF, 256, (uint8_t)(0x30 + me));
        CHECK_OK(canopy_put(dev, 1 - me, GOOD_OFF + 0x1000, win + SRC_OFF, 256, 0));
        CHECK_OK(canopy_quiet(dev, TEST_TIMEOUT_NS));
    }
    barrier(dev);
    if (me == 0 || me == 1) {
        const uint8_t salt = (uint8_t)(0x30 + (1 - me));
        for (size_t i = 0; i < 256; ++i)
            CHECK(win[GOOD_OFF + 0x1000 + i] == (uint8_t)(pattern(SRC_OFF + i) ^ salt), "put after the faults: byte %zu", i);
    }
    if (me == 0) {
        struct canopy_counters c;
        counters(dev, &c);
        CHECK(c.err_dma_write == 0 && c.err_dma_read == 0, "PE 0 counted refusals: %llu writes, %llu reads",
              (unsigned long long)c.err_dma_write, (unsigned long long)c.err_dma_read);
    }
    barrier(dev);
    if (me == 0) printf("dma_fault: %d PEs: refused writes fail their puts and gets, refused reads their gets and atomics; counted at the target, nothing written\n", n);
    canopy_close(&dev);
    return 0;
}
