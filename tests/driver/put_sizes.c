/* put_sizes.c: all-pairs puts of many sizes and alignments, verified byte for byte.
 *
 *   canopy-run -n N --torus T put_sizes [max_bytes]
 *
 * Round r uses size sizes[r] (1 B up to max_bytes, 64 KiB by default, odd sizes included)
 * and an offset misaligned by (src + dst + r) % 8. Before each round every PE fills its
 * window with a guard byte; afterwards every byte of every slot must hold the sender's
 * pattern, and every byte outside the slots must still hold the guard: a put writes
 * exactly its bytes, nothing around them.
 */
#include <stdint.h>
#include <string.h>

#include "test_util.h"

static uint8_t pattern(int s, int d, unsigned r, size_t i) { return (uint8_t)(s * 37 + d * 11 + r * 101 + i * 7 + (i >> 9)); }

int main(int argc, char **argv)
{
    const size_t sizes[] = {1, 2, 7, 8, 9, 63, 64, 255, 256, 257, 1000, 4099, 16384, 65536};
    size_t max_bytes = argc > 1 ? strtoul(argv[1], NULL, 0) : 65536;
    canopy_dev *dev = test_open();
    const int n = canopy_num_nodes(dev), me = canopy_my_node(dev);
    const size_t slot = max_bytes + 16;  /* room for the misalignment and a guard gap */
    const uint64_t flag_off = (uint64_t)n * slot;
    const size_t win_size = flag_off + 8u * (size_t)n;
    uint8_t *win;
    CHECK_OK(canopy_window(dev, win_size, (void **)&win));
    test_hello(dev, flag_off, 1);
    uint8_t *buf = malloc(max_bytes);
    CHECK(buf, "malloc");
    uint64_t barrier = 1;
    for (unsigned r = 0; r < sizeof sizes / sizeof sizes[0] && sizes[r] <= max_bytes; ++r) {
        const size_t len = sizes[r];
        memset(win, 0xEE, flag_off);
        test_flag_barrier(dev, win, flag_off, ++barrier); /* everyone has set its guards */
        for (int k = 1; k < n; ++k) {
            int d = (me + k) % n; /* start at different targets: spread the load */
            size_t mis = (size_t)(me + d + (int)r) % 8;
            for (size_t i = 0; i < len; ++i) buf[i] = pattern(me, d, r, i);
            CHECK_OK(canopy_put(dev, d, (uint64_t)me * slot + mis, buf, len, 0));
        }
        test_flag_barrier(dev, win, flag_off, ++barrier); /* everyone's puts are complete */
        for (int s = 0; s < n; ++s) {
            size_t mis = (size_t)(s + me + (int)r) % 8;
            const uint8_t *p = win + (size_t)s * slot;
            for (size_t i = 0; i < slot; ++i) {
                int inside = s != me && i >= mis && i < mis + len;
                uint8_t want = inside ? pattern(s, me, r, i - mis) : 0xEE;
                CHECK(p[i] == want, "size %zu from PE %d: byte %zu is 0x%02x, expected 0x%02x", len, s, i, p[i], want);
            }
        }
    }
    if (me == 0) printf("put_sizes: %d PEs, sizes 1..%zu bytes, all verified\n", n, max_bytes);
    free(buf);
    CHECK_OK(canopy_close(&dev));
    return 0;
}
