/* hal_serial.c: libcanopy's "serial" backend: a board reached through its serial bridge
 * (rtl/board/canopy_serial_bridge.sv; frames in spec/serial.toml, docs/serial-protocol.md),
 * e.g. the ECP5 evaluation board's FT2232H UART, or the simulated board's pseudo-terminal
 * (make sim-board).
 *
 * Device access: mmio_write / mmio_read64 become BAR0 write and read frames to this node.
 *
 * DMA memory lives on the board (each node's board memory: its DMA target), so the core's
 * host pointers point at a host copy, the *shadow*, that this backend keeps current:
 *   - every region has its shadow (what the core reads and writes) and a *synced* copy
 *     (what the board memory holds, as far as this process knows);
 *   - push: words where the shadow differs from the synced copy (the core or the program
 *     wrote them) are written to the board, before every BAR0 write (so a DMA the write
 *     starts reads current data) and at every sync;
 *   - pull: the board records which 64-byte lines each node's DMA has written (DIRTY
 *     registers); a sync reads DIRTY_SUM with the cycle counter in one frame, then the
 *     dirty words it names, clears them (write 1s), and only then reads those lines, so a
 *     line written again after the clear is seen at the next pass; it repeats until a
 *     summary reads clean, so that the device's order of writes holds (sync_once);
 *   - wait and wait_any sync until their condition holds or device time runs out. The
 *     device's writes therefore appear in host memory at the library's waits, not between
 *     them (a program polling canopy_poll in a loop must wait between polls, as hal.h's
 *     wait_any is for).
 * Device time is the board's cycle counter (CYCLES) at its clock (CLOCK register), so
 * timeouts mean the same on a board and in the slower simulation.
 *
 * Several processes (one per node, as tools/board-run starts them) share the port: each
 * transaction (request, answer, retries) holds an exclusive flock on a lock file beside
 * it, which also holds the sequence counter, so consecutive frames on the line never
 * repeat a seq (the bridge takes a repeated write seq for a retransmission).
 *
 * Errors: CANOPY_ENOPORT (the port cannot be opened or set up), CANOPY_ENOANSWER (nothing
 * answered in CANOPY_SERIAL_TIMEOUT_MS, on every retry), CANOPY_ECHECKSUM (answers came
 * but failed their CRC, or the board saw ours fail, on every retry), CANOPY_EDEVTIMEOUT
 * (the bridge gave up on a node's AXI slave), CANOPY_EBUSY (the on-chip self-test runs),
 * CANOPY_EIO (the board refused a frame as malformed, or a node's AXI slave refused it).
 * After open there is no errmsg channel: the reason is printed on stderr, prefixed
 * "libcanopy: serial:".
 *
 * Environment: CANOPY_SERIAL_PORT (if opts->serial_port is NULL), CANOPY_NODE (default
 * 0), CANOPY_SERIAL_BAUD (default 12000000), CANOPY_SERIAL_TIMEOUT_MS (per answer,
 * default 1000), CANOPY_SERIAL_RETRIES (default 3), CANOPY_SERIAL_POLL_US (the longest
 * pause between two polls that found nothing, default 1000, or longer on a slow line:
 * idle_pause; 0: none), CANOPY_SERIAL_LOCK
 * (the lock file; default /tmp/canopy-serial-<port path>.lock).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "hal.h"
#include "serial_proto.h"

enum { MAX_REGIONS = 16, BUS_START = 4096, REGION_ALIGN = 4096, QUIET_MS = 100 };

struct ser_region {
    uint8_t *shadow, *synced;
    uint64_t bus;
    size_t size;
};

struct ser_priv {
    int fd, lock_fd;
    unsigned node, nodes;
    unsigned timeout_ms, retries, poll_us_max;
    uint64_t clock_hz, mem_bytes, next_bus, cycles;
    struct ser_region reg[MAX_REGIONS];
    unsigned nreg;
    uint64_t crc_errors, no_answers; /* seen and recovered from, for diagnostics */
    uint64_t frames, bytes_out, bytes_in, syncs, empty_syncs; /* CANOPY_SERIAL_STATS=1: printed at close */
    uint64_t idle_sync_us; /* wall time the last sync that found nothing took (its share of the line) */
};

static struct ser_priv *priv_of(struct canopy_hal *h) { return (struct ser_priv *)h->priv; }

static unsigned env_uint(const char *name, unsigned dflt)
{
    const char *s = getenv(name);
    char *end;
    if (!s || !*s) return dflt;
    unsigned long v = strtoul(s, &end, 10);
    return *end || v > UINT_MAX ? dflt : (unsigned)v;
}

static unsigned long long ms_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (unsigned long long)t.tv_sec * 1000u + (unsigned long long)t.tv_nsec / 1000000u;
}

static uint64_t us_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000u + (uint64_t)t.tv_nsec / 1000u;
}

/* ------------------------------------------------------------------ frames */
static void put_le(uint8_t *p, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; ++i) p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; ++i) v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static int write_all(int fd, const uint8_t *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w < 0 && errno == EAGAIN) {
            struct pollfd pf = {.fd = fd, .events = POLLOUT};
            poll(&pf, 1, 100);
            continue;
        }
        if (w <= 0) return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Read the answer to seq: 0 with *status (and rdata for a read answered ok), or -1 for
 * no (valid) answer before the deadline; *bad counts candidates that failed their CRC. */
static int read_answer(struct ser_priv *p, uint8_t seq, int is_read, unsigned words, uint8_t *status,
                       uint64_t *rdata, unsigned *bad)
{
    uint8_t buf[3 + 8 * SER_MAX_WORDS + 2 + 64];
    size_t have = 0;
    const unsigned long long deadline = ms_now() + p->timeout_ms;
    unsigned long long last_byte = ms_now();
    const unsigned bad_before = *bad; /* *bad counts over a transaction's attempts */
    for (;;) {
        /* Parse what we have: a sync byte, status, seq, data, CRC. */
        size_t i = 0;
        while (i < have) {
            if (buf[i] != SER_SYNC_RSP) {
                ++i;
                continue;
            }
            if (have - i < 3) break;
            const uint8_t st = buf[i + 1];
            const size_t dlen = (is_read && st == SER_ST_OK) ? 8u * words : 0;
            if (have - i < 3 + dlen + 2) break;
            const uint16_t want = ser_crc16(SER_CRC_INIT, buf + i + 1, 2 + dlen);
            const uint16_t got = (uint16_t)get_le(buf + i + 3 + dlen, 2);
            if (want != got || buf[i + 2] != seq) {
                if (want != got) ++*bad;
                ++i; /* a corrupted or stale answer: hunt on from the next byte */
                continue;
            }
            *status = st;
            for (unsigned w = 0; w < dlen / 8; ++w) rdata[w] = get_le(buf + i + 3 + 8 * w, 8);
            return 0;
        }
        if (i) {
            memmove(buf, buf + i, have - i);
            have -= i;
        }
        if (have == sizeof buf) have = 0; /* garbage only: drop it */
        const unsigned long long now = ms_now();
        if (now >= deadline) return -1;
        /* After a corrupted answer to this attempt, a line quiet for QUIET_MS has nothing
         * more to say: retransmit now rather than at the deadline. (Only this attempt's: a
         * retransmission's answer may take longer than QUIET_MS to start, and counting the
         * earlier attempts' gave up on it before it came.) */
        const int bad_now = *bad > bad_before;
        if (bad_now && now >= last_byte + QUIET_MS) return -1;
        struct pollfd pf = {.fd = p->fd, .events = POLLIN};
        int r = poll(&pf, 1, (int)((bad_now ? last_byte + QUIET_MS : deadline) - now));
        if (r < 0 && errno != EINTR) return -1;
        if (r <= 0) continue;
        ssize_t n = read(p->fd, buf + have, sizeof buf - have);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (n <= 0) return -1; /* hung up */
        have += (size_t)n;
        last_byte = ms_now();
    }
}

/* One transaction: the request, its answer, retries. Returns a canopy status. */
static int xfer(struct ser_priv *p, int write, unsigned space, unsigned node, uint32_t addr, unsigned words,
                const uint64_t *wdata, uint64_t *rdata)
{
    if (words == 0 || words > SER_MAX_WORDS) return CANOPY_EINVAL;
    uint8_t frame[SER_HEADER_BYTES + 8 * SER_MAX_WORDS + SER_CRC_BYTES];
    while (flock(p->lock_fd, LOCK_EX) != 0) {
        if (errno != EINTR) return CANOPY_ENOPORT;
    }
    /* The shared sequence counter, advanced before the frame goes out: a process that dies
     * mid-transaction leaves it advanced, so the next frame's seq differs. */
    uint8_t seq = 0;
    if (pread(p->lock_fd, &seq, 1, 0) != 1) seq = 0;
    uint8_t next = (uint8_t)(seq + 1);
    if (pwrite(p->lock_fd, &next, 1, 0) != 1) {
        /* without the shared counter a retransmission could not be told from a new write */
        flock(p->lock_fd, LOCK_UN);
        return CANOPY_ENOPORT;
    }
    size_t n = 0;
    frame[n++] = SER_SYNC_REQ;
    frame[n++] = (uint8_t)((write ? SER_OP_WRITE : 0) | space);
    frame[n++] = seq;
    frame[n++] = (uint8_t)node;
    put_le(frame + n, addr, 4);
    n += 4;
    frame[n++] = (uint8_t)(words - 1);
    if (write)
        for (unsigned w = 0; w < words; ++w, n += 8) put_le(frame + n, wdata[w], 8);
    put_le(frame + n, ser_crc16(SER_CRC_INIT, frame + 1, n - 1), 2);
    n += 2;
    /* Bytes left over from a holder that died mid-answer are not ours. */
    tcflush(p->fd, TCIFLUSH);
    int rc = CANOPY_ENOANSWER;
    unsigned bad = 0, board_crc = 0;
    for (unsigned attempt = 0; attempt <= p->retries; ++attempt) {
        uint8_t st;
        if (write_all(p->fd, frame, n)) {
            rc = CANOPY_ENOPORT;
            break;
        }
        p->frames++;
        p->bytes_out += n;
        if (read_answer(p, seq, !write, words, &st, rdata, &bad)) {
            ++p->no_answers;
            continue;
        }
        p->bytes_in += 5 + ((!write && st == SER_ST_OK) ? 8u * words : 0);
        if (st == SER_ST_CRC) { /* the board saw our frame corrupted: send it again */
            ++board_crc;
            continue;
        }
        switch (st) {
        case SER_ST_OK: rc = CANOPY_OK; break;
        case SER_ST_BUSY: rc = CANOPY_EBUSY; break;
        case SER_ST_TIMEOUT: rc = CANOPY_EDEVTIMEOUT; break;
        case SER_ST_RANGE: rc = CANOPY_ERANGE; break;
        default: rc = CANOPY_EIO; break; /* bad_op, axi, unknown */
        }
        if (rc != CANOPY_OK && rc != CANOPY_EBUSY)
            fprintf(stderr, "libcanopy: serial: the board answered status %u to a %s of %u words at 0x%x (space %u, node %u)\n",
                    st, write ? "write" : "read", words, addr, space, node);
        break;
    }
    p->crc_errors += bad + board_crc;
    if (rc == CANOPY_ENOANSWER && (bad || board_crc)) rc = CANOPY_ECHECKSUM;
    flock(p->lock_fd, LOCK_UN);
    if (rc == CANOPY_ENOANSWER || rc == CANOPY_ECHECKSUM)
        fprintf(stderr, "libcanopy: serial: %s after %u tries (%u corrupted answers, %u requests the board saw corrupted)\n",
                rc == CANOPY_ENOANSWER ? "no answer" : "checksum mismatches", p->retries + 1, bad, board_crc);
    return rc;
}

/* Reads and writes of any length, split into frames (BAR0: never across 4 KiB). */
static int xfer_long(struct ser_priv *p, int write, unsigned space, uint32_t addr, unsigned words, const uint64_t *wdata,
                     uint64_t *rdata)
{
    while (words) {
        unsigned k = words < SER_MAX_WORDS ? words : SER_MAX_WORDS;
        if (space == SER_SPACE_BAR0) {
            unsigned to_4k = (4096u - (addr & 4095u)) / 8u;
            if (k > to_4k) k = to_4k;
        }
        int rc = xfer(p, write, space, p->node, addr, k, wdata, rdata);
        if (rc) return rc;
        addr += 8u * k;
        words -= k;
        if (wdata) wdata += k;
        if (rdata) rdata += k;
    }
    return CANOPY_OK;
}

/* ------------------------------------------------------------------ the shadow */
/* Fill `words` words of board memory from bus address `bus` with `value` (MEM_FILL): two
 * frames, whatever the length. */
static int mem_fill(struct ser_priv *p, uint64_t bus, size_t words, uint64_t value)
{
    /* The word is written every time, not cached: whatever another program left in the
     * register (serial_test writes it raw) cannot turn into a wrong fill. */
    int rc = xfer(p, 1, SER_SPACE_BOARD, p->node, SER_BREG_MEM_FILL_WORD, 1, &value, NULL);
    if (rc) return rc;
    const uint64_t z = ((uint64_t)(8 * words) << 32) | bus;
    return xfer(p, 1, SER_SPACE_BOARD, p->node, SER_BREG_MEM_FILL, 1, &z, NULL);
}

/* Runs of one repeated word at least this long go as a fill, not as their bytes (a fill's
 * two frames cost about as much line as five words written). */
enum { FILL_MIN_WORDS = 8 };

static int word_changed(const struct ser_region *g, size_t w)
{
    return memcmp(g->shadow + 8 * w, g->synced + 8 * w, 8) != 0;
}

/* Push: every word the host changed since the last sync (shadow differs from synced) is
 * written to the board; words it did not change are never written (the node's DMA may
 * have written them since). A run of changed words that repeat one value goes as a fill. */
static int push(struct ser_priv *p)
{
    for (unsigned r = 0; r < p->nreg; ++r) {
        struct ser_region *g = &p->reg[r];
        const size_t words = (g->size + 7) / 8;
        size_t w = 0;
        while (w < words) {
            if (!word_changed(g, w)) {
                ++w;
                continue;
            }
            uint64_t first;
            memcpy(&first, g->shadow + 8 * w, 8);
            size_t e = w + 1;
            while (e < words && word_changed(g, e) && memcmp(g->shadow + 8 * e, &first, 8) == 0) ++e;
            int rc;
            if (e - w >= FILL_MIN_WORDS) {
                if ((rc = mem_fill(p, g->bus + 8 * w, e - w, get_le(g->shadow + 8 * w, 8)))) return rc;
                memcpy(g->synced + 8 * w, g->shadow + 8 * w, 8 * (e - w));
                w = e;
                continue;
            }
            /* Written as they are, up to a frame, or up to the next run worth a fill. */
            e = w + 1;
            size_t same = 1;
            while (e < words && e - w < SER_MAX_WORDS && word_changed(g, e)) {
                same = memcmp(g->shadow + 8 * e, g->shadow + 8 * (e - 1), 8) == 0 ? same + 1 : 1;
                if (same >= FILL_MIN_WORDS) {
                    e -= same - 1; /* the run starts at e - same + 1: it goes as a fill next */
                    break;
                }
                ++e;
            }
            uint64_t buf[SER_MAX_WORDS];
            memcpy(buf, g->shadow + 8 * w, 8 * (e - w));
            rc = xfer(p, 1, SER_SPACE_MEM, p->node, (uint32_t)(g->bus + 8 * w), (unsigned)(e - w), buf, NULL);
            if (rc) return rc;
            memcpy(g->synced + 8 * w, buf, 8 * (e - w));
            w = e;
        }
    }
    return CANOPY_OK;
}

/* Copy board bytes [bus, bus + len) into every region they overlap. */
static void land(struct ser_priv *p, uint64_t bus, const uint8_t *src, size_t len)
{
    for (unsigned r = 0; r < p->nreg; ++r) {
        struct ser_region *g = &p->reg[r];
        uint64_t lo = bus > g->bus ? bus : g->bus;
        uint64_t hi = bus + len < g->bus + g->size ? bus + len : g->bus + g->size;
        if (lo >= hi) continue;
        memcpy(g->shadow + (lo - g->bus), src + (lo - bus), hi - lo);
        memcpy(g->synced + (lo - g->bus), src + (lo - bus), hi - lo);
    }
}

/* Push, then pull: read the cycle counter with the dirty summary, and the dirty lines it
 * names, until a summary reads clean. *pulled: lines were read.
 *
 * Why until clean: the device writes a collective's data before its completion word, but
 * the two may lie in different dirty words, and a summary read between their writes names
 * only the first. Every line dirtied before the last (clean) summary read has been read
 * after its last write, so a completion word the host sees comes with its data. A device
 * that never stops writing would keep this loop going: it gives up after MAX_PASSES
 * (then the caller's next sync goes on where it stopped). */
static int sync_once(struct ser_priv *p, int *pulled)
{
    enum { MAX_PASSES = 1000 };
    uint64_t v[2];
    int rc = push(p);
    if (rc) return rc;
    *pulled = 0;
    p->syncs++;
    for (unsigned pass = 0; pass < MAX_PASSES; ++pass) {
        /* CYCLES and DIRTY_SUM are adjacent: one frame. */
        if ((rc = xfer(p, 0, SER_SPACE_BOARD, p->node, SER_BREG_CYCLES, 2, NULL, v))) return rc;
        p->cycles = v[0];
        if (!v[1]) break;
        for (unsigned i = 0; i < SER_BREG_DIRTY0_COUNT && v[1]; ++i) {
            if (!(v[1] >> i & 1)) continue;
            v[1] &= ~(1ull << i);
            uint64_t d;
            if ((rc = xfer(p, 0, SER_SPACE_BOARD, p->node, SER_BREG_DIRTY0 + 8 * i, 1, NULL, &d))) return rc;
            if (!d) continue;
            if ((rc = xfer(p, 1, SER_SPACE_BOARD, p->node, SER_BREG_DIRTY0 + 8 * i, 1, &d, NULL))) return rc;
            /* Runs of dirty lines, read after the clear. */
            unsigned j = 0;
            while (j < 64) {
                if (!(d >> j & 1)) {
                    ++j;
                    continue;
                }
                unsigned e = j + 1;
                while (e < 64 && (d >> e & 1) && (e - j) * (SER_LINE_BYTES / 8) < SER_MAX_WORDS) ++e;
                const uint64_t bus = (64ull * i + j) * SER_LINE_BYTES;
                const unsigned words = (e - j) * (SER_LINE_BYTES / 8);
                uint64_t line[SER_MAX_WORDS];
                if ((rc = xfer(p, 0, SER_SPACE_MEM, p->node, (uint32_t)bus, words, NULL, line))) return rc;
                uint8_t bytes[8 * SER_MAX_WORDS];
                for (unsigned w = 0; w < words; ++w) put_le(bytes + 8 * w, line[w], 8);
                land(p, bus, bytes, 8u * words);
                j = e;
            }
            *pulled = 1;
        }
    }
    if (!*pulled) p->empty_syncs++;
    return CANOPY_OK;
}

static struct ser_region *region_of(struct ser_priv *p, const void *addr, size_t len)
{
    const uint8_t *a = addr;
    for (unsigned r = 0; r < p->nreg; ++r)
        if (a >= p->reg[r].shadow && a + len <= p->reg[r].shadow + p->reg[r].size) return &p->reg[r];
    return NULL;
}

static uint64_t ns_to_cycles(const struct ser_priv *p, uint64_t ns)
{
    const unsigned __int128 c = (unsigned __int128)ns * p->clock_hz / 1000000000u;
    return c > UINT64_MAX ? UINT64_MAX : (uint64_t)c;
}

/* ------------------------------------------------------------------ operations */
static int ser_mmio_write(struct canopy_hal *h, uint32_t off, const void *src, size_t len)
{
    struct ser_priv *p = priv_of(h);
    if (len == 0 || len % 8 || len > 4096 || off % 8) return CANOPY_EINVAL;
    int rc = push(p);
    if (rc) return rc;
    uint64_t buf[512];
    memcpy(buf, src, len);
    return xfer_long(p, 1, SER_SPACE_BAR0, off, (unsigned)(len / 8), buf, NULL);
}

static int ser_mmio_read64(struct canopy_hal *h, uint32_t off, uint64_t *value)
{
    struct ser_priv *p = priv_of(h);
    if (off % 8) return CANOPY_EINVAL;
    return xfer(p, 0, SER_SPACE_BAR0, p->node, off, 1, NULL, value);
}

static int ser_dma_alloc(struct canopy_hal *h, size_t size, struct canopy_dma_region *out)
{
    struct ser_priv *p = priv_of(h);
    const uint64_t bus = (p->next_bus + REGION_ALIGN - 1) & ~(uint64_t)(REGION_ALIGN - 1);
    const size_t alloc = (size + REGION_ALIGN - 1) & ~(size_t)(REGION_ALIGN - 1);
    if (size == 0 || p->nreg == MAX_REGIONS || bus + size > p->mem_bytes || bus + size < bus) {
        if (size)
            fprintf(stderr, "libcanopy: serial: %zu bytes of DMA memory do not fit the board's %llu bytes per node (%llu in use)\n",
                    size, (unsigned long long)p->mem_bytes, (unsigned long long)p->next_bus);
        return CANOPY_ENOMEM;
    }
    struct ser_region *g = &p->reg[p->nreg];
    g->shadow = aligned_alloc(REGION_ALIGN, alloc);
    g->synced = calloc(1, alloc);
    if (!g->shadow || !g->synced) {
        free(g->shadow);
        free(g->synced);
        return CANOPY_ENOMEM;
    }
    memset(g->shadow, 0, alloc);
    g->bus = bus;
    g->size = size;
    /* The board memory may hold an earlier user's bytes: zero it, so the shadow, the
     * synced copy and the board agree. */
    int rc = mem_fill(p, bus, (size + 7) / 8, 0);
    if (rc) {
        free(g->shadow);
        free(g->synced);
        return rc;
    }
    ++p->nreg;
    p->next_bus = bus + size;
    out->vaddr = g->shadow;
    out->bus = bus;
    out->size = size;
    return CANOPY_OK;
}

/* Between two syncs that found nothing new, give the port to the other processes for a
 * while: they share one line, and a process that only polls would otherwise take most of
 * it from those that have work to send. The pause doubles from 50 us up to poll_us_max, or
 * up to IDLE_SHARE times what the last empty sync took if that is longer: an empty sync
 * holds the line for that long, so a waiting process then uses at most 1/(1 + IDLE_SHARE)
 * of it whatever the line's speed against the wall clock. On a board at 12 Mbaud an empty
 * sync takes tens of microseconds and poll_us_max governs; on the simulated board, whose
 * line runs some thousand times slower than a real one, the sync's own time does (with a
 * fixed 1 ms, three waiting processes kept the line from the one with work). */
enum { IDLE_SHARE = 8 };

static void idle_pause(const struct ser_priv *p, unsigned *us)
{
    if (!p->poll_us_max) return;
    uint64_t cap = (uint64_t)IDLE_SHARE * p->idle_sync_us;
    if (cap < p->poll_us_max) cap = p->poll_us_max;
    if (cap > UINT_MAX / 2) cap = UINT_MAX / 2;
    *us = *us ? 2 * *us : 50;
    if (*us > cap) *us = (unsigned)cap;
    usleep(*us);
}

/* sync_once, timed when it found nothing (idle_pause's measure of a poll's cost). */
static int sync_timed(struct ser_priv *p, int *pulled)
{
    const uint64_t t0 = us_now();
    int rc = sync_once(p, pulled);
    if (!rc && !*pulled) p->idle_sync_us = us_now() - t0;
    return rc;
}

static int ser_wait(struct canopy_hal *h, const volatile uint64_t *addr, uint64_t mask, int cmp, uint64_t value,
                    uint64_t timeout_ns)
{
    struct ser_priv *p = priv_of(h);
    if (((uintptr_t)addr & 7) || !region_of(p, (const void *)(uintptr_t)addr, 8)) return CANOPY_ENOTREG;
    if (canopy_cmp_holds(*addr & mask, cmp, value)) return CANOPY_OK;
    unsigned pause = 0;
    int pulled, rc = sync_timed(p, &pulled);
    const uint64_t start = p->cycles, limit = ns_to_cycles(p, timeout_ns);
    for (;;) {
        if (rc) return rc;
        if (canopy_cmp_holds(*addr & mask, cmp, value)) return CANOPY_OK;
        if (p->cycles - start >= limit) return CANOPY_ETIMEDOUT;
        if (!pulled) idle_pause(p, &pause);
        else pause = 0;
        rc = sync_timed(p, &pulled);
    }
}

static int ser_wait_any(struct canopy_hal *h, uint64_t timeout_ns)
{
    struct ser_priv *p = priv_of(h);
    unsigned pause = 0;
    int pulled, rc = sync_timed(p, &pulled);
    const uint64_t start = p->cycles, limit = ns_to_cycles(p, timeout_ns);
    for (;;) {
        if (rc) return rc;
        if (pulled) return CANOPY_OK;
        if (p->cycles - start >= limit) return CANOPY_ETIMEDOUT;
        idle_pause(p, &pause);
        rc = sync_timed(p, &pulled);
    }
}

static uint64_t ser_cycles(struct canopy_hal *h)
{
    struct ser_priv *p = priv_of(h);
    uint64_t c;
    if (xfer(p, 0, SER_SPACE_BOARD, p->node, SER_BREG_CYCLES, 1, NULL, &c) == CANOPY_OK) p->cycles = c;
    return p->cycles;
}

static uint64_t ser_now_ns(struct canopy_hal *h)
{
    struct ser_priv *p = priv_of(h);
    const uint64_t c = ser_cycles(h);
    return (uint64_t)((unsigned __int128)c * 1000000000u / p->clock_hz);
}

/* Board memory is not host memory: nothing can be mapped over program pages. */
static int ser_map_alias(struct canopy_hal *h, const struct canopy_dma_region *r, uint64_t off, void *addr,
                         size_t len)
{
    (void)h, (void)r, (void)off, (void)addr, (void)len;
    return CANOPY_ENODEV;
}

/* One process per node, started by hand or by tools/board-run: no job to end. */
static int ser_job_exit(struct canopy_hal *h, int status)
{
    (void)h, (void)status;
    return CANOPY_ENODEV;
}

static void ser_close(struct canopy_hal *h)
{
    struct ser_priv *p = priv_of(h);
    if (!p) return;
    if (getenv("CANOPY_SERIAL_STATS"))
        fprintf(stderr, "libcanopy: serial: node %u: %llu frames, %llu bytes out, %llu in, %llu syncs (%llu found nothing), %llu checksum errors, %llu unanswered\n",
                p->node, (unsigned long long)p->frames, (unsigned long long)p->bytes_out, (unsigned long long)p->bytes_in,
                (unsigned long long)p->syncs, (unsigned long long)p->empty_syncs, (unsigned long long)p->crc_errors,
                (unsigned long long)p->no_answers);
    for (unsigned r = 0; r < p->nreg; ++r) {
        free(p->reg[r].shadow);
        free(p->reg[r].synced);
    }
    close(p->fd);
    close(p->lock_fd);
    free(p);
    h->priv = NULL;
}

static const struct canopy_hal_ops serial_ops = {
    .name = "serial",
    .mmio_write = ser_mmio_write,
    .mmio_read64 = ser_mmio_read64,
    .dma_alloc = ser_dma_alloc,
    .wait = ser_wait,
    .wait_any = ser_wait_any,
    .now_ns = ser_now_ns,
    .cycles = ser_cycles,
    .map_alias = ser_map_alias,
    .job_exit = ser_job_exit,
    .close = ser_close,
};

/* The port's line settings: raw 8N1 at baud (termios2 for speeds without a B constant). */
int canopy_serial_set_baud(int fd, unsigned baud); /* serial_baud.c */

static int fail(struct ser_priv *p, int rc, char *errmsg, size_t errlen, const char *fmt, const char *a, const char *b)
{
    if (errmsg) snprintf(errmsg, errlen, fmt, a, b);
    if (p->fd >= 0) close(p->fd);
    if (p->lock_fd >= 0) close(p->lock_fd);
    free(p);
    return rc;
}

int canopy_hal_serial_open(struct canopy_hal *h, const struct canopy_open_opts *opts, char *errmsg, size_t errlen)
{
    const char *port = opts->serial_port ? opts->serial_port : getenv("CANOPY_SERIAL_PORT");
    struct ser_priv *p = calloc(1, sizeof *p);
    if (!p) return CANOPY_ENOMEM;
    p->fd = p->lock_fd = -1;
    if (!port || !*port)
        return fail(p, CANOPY_ENOPORT, errmsg, errlen, "serial: no port given (set CANOPY_SERIAL_PORT%s%s)",
                    " or opts.serial_port, e.g. /dev/ttyUSB1", "");
    p->fd = open(port, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (p->fd < 0) return fail(p, CANOPY_ENOPORT, errmsg, errlen, "serial: cannot open %s: %s", port, strerror(errno));
    const unsigned baud = env_uint("CANOPY_SERIAL_BAUD", 12000000);
    if (canopy_serial_set_baud(p->fd, baud))
        return fail(p, CANOPY_ENOPORT, errmsg, errlen, "serial: %s is not a serial port that takes the line settings (%s)",
                    port, strerror(errno));
    /* The lock file beside the port (same for every process that names the port alike). */
    char lock[PATH_MAX + 32], real[PATH_MAX];
    const char *lk = getenv("CANOPY_SERIAL_LOCK");
    if (!lk) {
        if (!realpath(port, real)) snprintf(real, sizeof real, "%s", port);
        char *q = real;
        for (char *c = real; *c; ++c) *c = (*c == '/') ? '_' : *c;
        snprintf(lock, sizeof lock, "/tmp/canopy-serial-%s.lock", q);
        lk = lock;
    }
    p->lock_fd = open(lk, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (p->lock_fd < 0) return fail(p, CANOPY_ENOPORT, errmsg, errlen, "serial: cannot open the lock file %s: %s", lk, strerror(errno));
    p->timeout_ms = env_uint("CANOPY_SERIAL_TIMEOUT_MS", 1000);
    p->retries = env_uint("CANOPY_SERIAL_RETRIES", 3);
    p->poll_us_max = env_uint("CANOPY_SERIAL_POLL_US", 1000);
    p->node = env_uint("CANOPY_NODE", 0);
    p->next_bus = BUS_START;

    uint64_t id, clk, mem;
    int rc = xfer(p, 0, SER_SPACE_BOARD, 0, SER_BREG_ID, 1, NULL, &id);
    if (rc == CANOPY_ENOANSWER)
        return fail(p, rc, errmsg, errlen, "serial: no answer on %s (is the board programmed, and the port its UART at %s?)",
                    port, getenv("CANOPY_SERIAL_BAUD") ? getenv("CANOPY_SERIAL_BAUD") : "12000000 baud");
    if (rc) return fail(p, rc, errmsg, errlen, "serial: reading the board's ID on %s: %s", port, canopy_strerror(rc));
    if ((uint32_t)id != SER_BOARD_MAGIC || (unsigned)(id >> 32 & 0xff) != SER_BOARD_VERSION)
        return fail(p, CANOPY_EIO, errmsg, errlen, "serial: %s answers, but not as a canopy board (ID %s)", port, "mismatch");
    p->nodes = (unsigned)(id >> 40 & 0xff);
    if (p->node >= p->nodes) {
        char n[32];
        snprintf(n, sizeof n, "%u of %u", p->node, p->nodes);
        return fail(p, CANOPY_ERANGE, errmsg, errlen, "serial: CANOPY_NODE is out of range (node %s on %s)", n, port);
    }
    if ((rc = xfer(p, 0, SER_SPACE_BOARD, 0, SER_BREG_CLOCK, 1, NULL, &clk)) ||
        (rc = xfer(p, 0, SER_SPACE_BOARD, 0, SER_BREG_MEM, 1, NULL, &mem)))
        return fail(p, rc, errmsg, errlen, "serial: reading the board's registers on %s: %s", port, canopy_strerror(rc));
    p->clock_hz = (uint32_t)clk;
    p->mem_bytes = (uint32_t)mem;
    if (!p->clock_hz || p->mem_bytes <= BUS_START)
        return fail(p, CANOPY_EIO, errmsg, errlen, "serial: %s: board registers CLOCK/MEM %s", port, "are zero");
    h->ops = &serial_ops;
    h->priv = p;
    h->congruence = REGION_ALIGN; /* no region of 2 MiB fits the board memory */
    h->node = (int)p->node;
    h->nodes = (int)p->nodes;
    return CANOPY_OK;
}
