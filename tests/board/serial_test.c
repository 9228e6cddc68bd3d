/* serial_test.c: the serial path's refusals, against the simulated board (make sim-board).
 *
 *   serial_test PORT      PORT: the simulated board's pty link (build/board/tty)
 *
 * Host side (libcanopy's serial backend, canopy_open):
 *   - a port that does not exist, and a file that is not a serial port: CANOPY_ENOPORT;
 *   - a dead port (a pseudo-terminal nobody answers on): CANOPY_ENOANSWER, in bounded time;
 *   - the real board behind a relay that corrupts one bit of every answer: CANOPY_ECHECKSUM
 *     (every retry fails); behind a relay that corrupts only the first answer: the open
 *     succeeds (the retry recovers);
 * Board side (the bridge, raw frames on PORT):
 *   - a request with a bad CRC is answered `crc` and counted (ERR_CRC); an unknown space, a
 *     node out of range, an unaligned address: `bad_op`; a read past the memory: `range`;
 *     all counted in ERR_FRAME, nothing executed;
 *   - a retransmitted write (same seq) is answered again but not executed twice;
 *   - a frame cut off in the middle is dropped after the idle timeout (ERR_FRAME) and the
 *     next frame is served;
 *   - ST_CTRL starts the self-test again; meanwhile BAR0 is refused `busy`; it passes again
 *     (ST_STATUS: passed, runs 2).
 * Every wait is bounded (answer timeouts, poll counts); the program exits 1 at the first
 * failed check.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "canopy.h"
#include "canopy_regs.h"
#include "serial_proto.h"

#define CHECK(cond, ...)                                                       \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "serial_test: %s:%d: check failed: %s: ", __FILE__, \
                    __LINE__, #cond);                                          \
            fprintf(stderr, __VA_ARGS__);                                      \
            fprintf(stderr, "\n");                                             \
            exit(1);                                                           \
        }                                                                      \
    } while (0)

static int open_with(const char *port, char *err, size_t errlen)
{
    struct canopy_open_opts o = {.backend = "serial", .serial_port = port, .errmsg = err, .errmsg_len = errlen};
    canopy_dev *dev = NULL;
    int rc = canopy_open(&dev, &o);
    if (dev) canopy_close(&dev);
    return rc;
}

static int make_pty(char *name, size_t len)
{
    int m = posix_openpt(O_RDWR | O_NOCTTY);
    if (m < 0 || grantpt(m) || unlockpt(m)) return -1;
    snprintf(name, len, "%s", ptsname(m));
    /* raw on the other side, so that nothing is echoed back */
    int s = open(name, O_RDWR | O_NOCTTY);
    struct termios t;
    if (s < 0 || tcgetattr(s, &t)) return -1;
    cfmakeraw(&t);
    tcsetattr(s, TCSANOW, &t);
    close(s);
    return m;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* ------------------------------------------------------------------ a corrupting relay */
struct relay {
    int host;          /* pty master the backend opens the other side of */
    int board;         /* the simulated board's port */
    int corrupt_all;   /* flip a bit in every answer, or only in the first */
    volatile int stop;
    int corrupted;
    int after_sync;    /* the last byte from the board was a sync byte */
};

static void *relay_main(void *arg)
{
    struct relay *r = arg;
    uint8_t buf[512];
    while (!r->stop) {
        struct pollfd pf[2] = {{.fd = r->host, .events = POLLIN}, {.fd = r->board, .events = POLLIN}};
        if (poll(pf, 2, 20) <= 0) continue;
        if (pf[0].revents & POLLIN) {
            ssize_t n = read(r->host, buf, sizeof buf);
            if (n > 0 && write(r->board, buf, (size_t)n) != n) break;
        }
        if (pf[1].revents & POLLIN) {
            ssize_t n = read(r->board, buf, sizeof buf);
            for (ssize_t i = 0; i < n; ++i) {
                /* the byte after an answer's sync byte is its status: flip its top bit
                 * (the bytes come one or a few at a time, so the sync may be in the last read) */
                if (r->after_sync && (r->corrupt_all || !r->corrupted)) {
                    buf[i] ^= 0x80;
                    ++r->corrupted;
                }
                r->after_sync = buf[i] == SER_SYNC_RSP;
            }
            if (n > 0 && write(r->host, buf, (size_t)n) != n) break;
        }
    }
    return NULL;
}

static int open_through_relay(const char *board_port, int corrupt_all, int *corrupted)
{
    char name[128], err[256] = "";
    struct relay r = {.corrupt_all = corrupt_all};
    r.host = make_pty(name, sizeof name);
    r.board = open(board_port, O_RDWR | O_NOCTTY);
    CHECK(r.host >= 0 && r.board >= 0, "relay ptys: %s", strerror(errno));
    struct termios t;
    CHECK(tcgetattr(r.board, &t) == 0, "board port");
    cfmakeraw(&t);
    tcsetattr(r.board, TCSANOW, &t);
    pthread_t th;
    CHECK(pthread_create(&th, NULL, relay_main, &r) == 0, "thread");
    int rc = open_with(name, err, sizeof err);
    r.stop = 1;
    pthread_join(th, NULL);
    close(r.host);
    close(r.board);
    *corrupted = r.corrupted;
    if (rc) printf("  (%s: %s)\n", canopy_strerror(rc), err);
    return rc;
}

/* ------------------------------------------------------------------ raw frames */
static int g_fd = -1;
static uint8_t g_seq = 0x80;

static void send_raw(const uint8_t *f, size_t n)
{
    CHECK(write(g_fd, f, n) == (ssize_t)n, "write: %s", strerror(errno));
}

static size_t build(uint8_t *f, int write, unsigned space, unsigned node, uint32_t addr, unsigned words,
                    const uint64_t *data, uint8_t seq)
{
    size_t n = 0;
    f[n++] = SER_SYNC_REQ;
    f[n++] = (uint8_t)((write ? SER_OP_WRITE : 0) | space);
    f[n++] = seq;
    f[n++] = (uint8_t)node;
    for (int i = 0; i < 4; ++i) f[n++] = (uint8_t)(addr >> (8 * i));
    f[n++] = (uint8_t)(words - 1);
    for (unsigned w = 0; write && w < words; ++w)
        for (int i = 0; i < 8; ++i) f[n++] = (uint8_t)(data[w] >> (8 * i));
    uint16_t c = ser_crc16(SER_CRC_INIT, f + 1, n - 1);
    f[n++] = (uint8_t)c;
    f[n++] = (uint8_t)(c >> 8);
    return n;
}

/* Read one answer (within timeout_ms): its status, and data for a read answered ok.
 * Returns -1 if none came. */
static int answer(uint8_t seq, int is_read, unsigned words, uint64_t *data, int timeout_ms)
{
    uint8_t b[3 + 8 * SER_MAX_WORDS + 2];
    size_t have = 0, need = 3;
    const double end = now_s() + timeout_ms / 1000.0;
    while (have < need) {
        struct pollfd pf = {.fd = g_fd, .events = POLLIN};
        int left = (int)((end - now_s()) * 1000);
        if (left <= 0 || poll(&pf, 1, left) <= 0) return -1;
        ssize_t n = read(g_fd, b + have, 1);
        if (n != 1) continue;
        if (have == 0 && b[0] != SER_SYNC_RSP) continue;
        ++have;
        if (have == 3) need = 3 + ((is_read && b[1] == SER_ST_OK) ? 8u * words : 0) + 2;
    }
    uint16_t c = ser_crc16(SER_CRC_INIT, b + 1, need - 3);
    CHECK(b[need - 2] == (uint8_t)c && b[need - 1] == (uint8_t)(c >> 8), "answer CRC");
    CHECK(b[2] == seq, "answer seq %u, expected %u", b[2], seq);
    for (unsigned w = 0; is_read && b[1] == SER_ST_OK && w < words; ++w) {
        data[w] = 0;
        for (int i = 0; i < 8; ++i) data[w] |= (uint64_t)b[3 + 8 * w + i] << (8 * i);
    }
    return b[1];
}

static int raw(int write, unsigned space, unsigned node, uint32_t addr, unsigned words, uint64_t *data)
{
    uint8_t f[SER_HEADER_BYTES + 8 * SER_MAX_WORDS + 2];
    uint8_t seq = ++g_seq;
    send_raw(f, build(f, write, space, node, addr, words, data, seq));
    return answer(seq, !write, words, data, 20000);
}

static uint64_t breg(unsigned node, uint32_t off)
{
    uint64_t v = 0;
    CHECK(raw(0, SER_SPACE_BOARD, node, off, 1, &v) == SER_ST_OK, "board register 0x%x", off);
    return v;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s PORT\n", argv[0]);
        return 2;
    }
    const char *port = argv[1];
    char err[256];

    /* ---- host side */
    CHECK(open_with("/nonexistent/ttyUSB9", err, sizeof err) == CANOPY_ENOPORT && strstr(err, "/nonexistent/ttyUSB9"),
          "missing port: %s", err);
    CHECK(open_with("/dev/null", err, sizeof err) == CANOPY_ENOPORT && strstr(err, "/dev/null"), "not a tty: %s", err);
    setenv("CANOPY_SERIAL_RETRIES", "1", 1);
    setenv("CANOPY_SERIAL_TIMEOUT_MS", "300", 1);
    char dead[128];
    int dead_m = make_pty(dead, sizeof dead);
    CHECK(dead_m >= 0, "pty");
    double t0 = now_s();
    int rc = open_with(dead, err, sizeof err);
    CHECK(rc == CANOPY_ENOANSWER && strstr(err, "no answer"), "dead port: %d %s", rc, err);
    CHECK(now_s() - t0 < 5.0, "dead port took %.1f s", now_s() - t0);
    close(dead_m);
    printf("serial_test: no port, not a serial port, dead port: refused with clear errors\n");

    /* The simulated board is slower than the 300 ms answer timeout allows (up to a few
     * hundred bytes at a few hundred bytes per second under load). */
    setenv("CANOPY_SERIAL_TIMEOUT_MS", "20000", 1);
    setenv("CANOPY_SERIAL_RETRIES", "2", 1);
    int corrupted = 0;
    rc = open_through_relay(port, 1, &corrupted);
    CHECK(rc == CANOPY_ECHECKSUM && corrupted == 3, "every answer corrupted: %d (%s), %d corrupted", rc,
          canopy_strerror(rc), corrupted);
    rc = open_through_relay(port, 0, &corrupted);
    CHECK(rc == CANOPY_OK && corrupted == 1, "one answer corrupted: %d (%s)", rc, canopy_strerror(rc));
    printf("serial_test: corrupted answers: refused (every retry) or recovered (one retry)\n");

    /* ---- board side, raw frames */
    g_fd = open(port, O_RDWR | O_NOCTTY);
    CHECK(g_fd >= 0, "%s: %s", port, strerror(errno));
    struct termios t;
    CHECK(tcgetattr(g_fd, &t) == 0, "tcgetattr");
    cfmakeraw(&t);
    tcsetattr(g_fd, TCSANOW, &t);
    tcflush(g_fd, TCIFLUSH);
    const uint64_t id = breg(0, SER_BREG_ID);
    CHECK((uint32_t)id == SER_BOARD_MAGIC && (id >> 40 & 0xff) == 4, "board ID 0x%016llx", (unsigned long long)id);
    const uint64_t crc0 = breg(0, SER_BREG_ERR_CRC), frame0 = breg(0, SER_BREG_ERR_FRAME);

    uint8_t f[SER_HEADER_BYTES + 8 * SER_MAX_WORDS + 2];
    uint64_t w = 0x0123456789abcdefull;
    size_t n = build(f, 1, SER_SPACE_MEM, 1, 0x100, 1, &w, ++g_seq);
    f[n - 1] ^= 0x01; /* bad CRC */
    send_raw(f, n);
    CHECK(answer(g_seq, 0, 1, NULL, 20000) == SER_ST_CRC, "bad CRC not answered crc");
    CHECK(breg(0, SER_BREG_ERR_CRC) == crc0 + 1, "ERR_CRC not counted");
    uint64_t v = 0;
    CHECK(raw(0, SER_SPACE_MEM, 1, 0x100, 1, &v) == SER_ST_OK && v != w, "a write with a bad CRC was executed");
    CHECK(raw(0, 3, 0, 0, 1, &v) == SER_ST_BAD_OP, "space 3");
    CHECK(raw(0, SER_SPACE_BAR0, 9, 0, 1, &v) == SER_ST_BAD_OP, "node 9");
    CHECK(raw(0, SER_SPACE_BAR0, 0, 4, 1, &v) == SER_ST_BAD_OP, "unaligned");
    uint64_t mem = breg(0, SER_BREG_MEM) & 0xffffffffu;
    CHECK(raw(0, SER_SPACE_MEM, 0, (uint32_t)mem - 8, 2, &v) == SER_ST_RANGE, "read past the memory");
    CHECK(raw(1, SER_SPACE_BOARD, 0, SER_BREG_CYCLES, 1, &v) == SER_ST_RANGE, "write of a read-only board register");
    CHECK(breg(0, SER_BREG_ERR_FRAME) == frame0, "bad_op/range are answered, not counted as framing errors");

    /* A retransmission is not executed twice. */
    uint64_t a = 0x1111, b2 = 0x2222;
    uint8_t s = ++g_seq;
    send_raw(f, build(f, 1, SER_SPACE_MEM, 2, 0x200, 1, &a, s));
    CHECK(answer(s, 0, 1, NULL, 20000) == SER_ST_OK, "first write");
    send_raw(f, build(f, 1, SER_SPACE_MEM, 2, 0x200, 1, &b2, s));
    CHECK(answer(s, 0, 1, NULL, 20000) == SER_ST_OK, "retransmission answered");
    CHECK(raw(0, SER_SPACE_MEM, 2, 0x200, 1, &v) == SER_ST_OK && v == a, "retransmitted write executed: 0x%llx",
          (unsigned long long)v);

    /* MEM_FILL: the node's MEM_FILL_WORD into a range, per node, nothing outside it;
     * refused (range) when unaligned or past the memory, touching nothing. */
    uint64_t pat = 0xa5a5a5a5a5a5a5a5ull, pat3 = 0x5a5a000011112222ull, fill[6];
    CHECK(raw(1, SER_SPACE_BOARD, 2, SER_BREG_MEM_FILL_WORD, 1, &pat) == SER_ST_OK, "MEM_FILL_WORD write");
    CHECK(raw(1, SER_SPACE_BOARD, 3, SER_BREG_MEM_FILL_WORD, 1, &pat3) == SER_ST_OK, "MEM_FILL_WORD node 3");
    CHECK(raw(0, SER_SPACE_BOARD, 2, SER_BREG_MEM_FILL_WORD, 1, &v) == SER_ST_OK && v == pat,
          "MEM_FILL_WORD reads back 0x%llx", (unsigned long long)v);
    CHECK(raw(1, SER_SPACE_MEM, 2, 0x400, 6, (uint64_t[6]){1, 2, 3, 4, 5, 6}) == SER_ST_OK, "fill's surroundings");
    uint64_t z = (32ull << 32) | 0x408; /* words 1..4 of the six */
    CHECK(raw(1, SER_SPACE_BOARD, 2, SER_BREG_MEM_FILL, 1, &z) == SER_ST_OK, "MEM_FILL");
    CHECK(raw(0, SER_SPACE_MEM, 2, 0x400, 6, fill) == SER_ST_OK, "read the fill back");
    CHECK(fill[0] == 1 && fill[1] == pat && fill[2] == pat && fill[3] == pat && fill[4] == pat && fill[5] == 6,
          "MEM_FILL wrote %llx %llx .. %llx %llx", (unsigned long long)fill[0], (unsigned long long)fill[1],
          (unsigned long long)fill[4], (unsigned long long)fill[5]);
    z = (8ull << 32) | 0x404;
    CHECK(raw(1, SER_SPACE_BOARD, 2, SER_BREG_MEM_FILL, 1, &z) == SER_ST_RANGE, "unaligned MEM_FILL");
    z = (16ull << 32) | (mem - 8);
    CHECK(raw(1, SER_SPACE_BOARD, 2, SER_BREG_MEM_FILL, 1, &z) == SER_ST_RANGE, "MEM_FILL past the memory");
    CHECK(raw(0, SER_SPACE_MEM, 2, 0x400, 6, fill) == SER_ST_OK && fill[0] == 1 && fill[1] == pat,
          "a refused MEM_FILL wrote");
    pat = 0;
    CHECK(raw(1, SER_SPACE_BOARD, 2, SER_BREG_MEM_FILL_WORD, 1, &pat) == SER_ST_OK, "MEM_FILL_WORD back to 0");

    /* A frame cut off: dropped after the idle timeout, then the board serves the next. */
    n = build(f, 1, SER_SPACE_MEM, 2, 0x208, 4, (uint64_t[4]){1, 2, 3, 4}, ++g_seq);
    send_raw(f, n / 2);
    CHECK(answer(g_seq, 0, 1, NULL, 3000) == -1, "a half frame was answered");
    CHECK(breg(0, SER_BREG_ERR_FRAME) == frame0 + 1, "cut-off frame not counted");

    /* The self-test on command: BAR0 is busy while it runs, and it passes again. */
    const uint64_t st0 = breg(0, SER_BREG_ST_STATUS);
    CHECK((st0 & 3) == 2, "self-test after reset: ST_STATUS 0x%llx", (unsigned long long)st0);
    uint64_t one = 1;
    CHECK(raw(1, SER_SPACE_BOARD, 0, SER_BREG_ST_CTRL, 1, &one) == SER_ST_OK, "ST_CTRL");
    CHECK(raw(0, SER_SPACE_BAR0, 0, CANOPY_REG_ID, 1, &v) == SER_ST_BUSY, "BAR0 during the self-test");
    uint64_t st = 0;
    for (int i = 0; i < 1000 && ((st = breg(0, SER_BREG_ST_STATUS)) & 3) == 1; ++i) {
    }
    CHECK((st & 3) == 2 && (st >> 32 & 0xffff) == (st0 >> 32 & 0xffff) + 1, "self-test again: ST_STATUS 0x%llx",
          (unsigned long long)st);
    CHECK(raw(0, SER_SPACE_BAR0, 0, CANOPY_REG_ID, 1, &v) == SER_ST_OK && (uint32_t)v == CANOPY_MAGIC,
          "BAR0 after the self-test");
    printf("serial_test: bridge refuses bad CRC, bad op, range, duplicates, cut-off frames; self-test reruns and passes\n");
    close(g_fd);
    return 0;
}
