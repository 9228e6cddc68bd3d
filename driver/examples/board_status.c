/* board_status.c: canopy-board-status, the first thing to run on a board reached over its
 * serial bridge (docs/bring-up.md): what the board says about itself.
 *
 *   canopy-board-status --port /dev/ttyUSB1 [--baud 12000000] [--selftest]
 *
 * Reads the board registers (spec/serial.toml): identity and torus, clock and baud rate,
 * board memory, the on-chip self-test's status (and, if it failed, its step and the words
 * read and expected), the bridge's error counters, and each node's BAR0 ID register.
 * --selftest runs the self-test again first (ST_CTRL) and waits for it (at most 10 s).
 * Exit status: 0 if the board answered and its self-test passed, 1 otherwise (a message
 * says why: no port, no answer, bad answers, self-test failed).
 * It sends frames itself, not through libcanopy, so that it works when the nodes do not:
 * no node is touched but for the ID reads. Run it while no libcanopy program uses the port.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "canopy_regs.h"
#include "serial_proto.h"

int canopy_serial_set_baud(int fd, unsigned baud); /* libcanopy, serial_baud.c */

static int g_fd;
static uint8_t g_seq;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* One request, one answer (within 1 s, 3 tries); the status, or -1 for no valid answer. */
static int xfer(int wr, unsigned space, unsigned node, uint32_t addr, uint64_t *word)
{
    for (int attempt = 0; attempt < 3; ++attempt) {
        uint8_t f[SER_HEADER_BYTES + 8 + 2], b[3 + 8 + 2];
        size_t n = 0;
        const uint8_t seq = ++g_seq;
        f[n++] = SER_SYNC_REQ;
        f[n++] = (uint8_t)((wr ? SER_OP_WRITE : 0) | space);
        f[n++] = seq;
        f[n++] = (uint8_t)node;
        for (int i = 0; i < 4; ++i) f[n++] = (uint8_t)(addr >> (8 * i));
        f[n++] = 0;
        for (int i = 0; wr && i < 8; ++i) f[n++] = (uint8_t)(*word >> (8 * i));
        uint16_t c = ser_crc16(SER_CRC_INIT, f + 1, n - 1);
        f[n++] = (uint8_t)c;
        f[n++] = (uint8_t)(c >> 8);
        tcflush(g_fd, TCIFLUSH);
        if (write(g_fd, f, n) != (ssize_t)n) return -1;
        size_t have = 0, need = 3;
        const double end = now_s() + 1.0;
        while (have < need) {
            struct pollfd pf = {.fd = g_fd, .events = POLLIN};
            int left = (int)((end - now_s()) * 1000);
            if (left <= 0 || poll(&pf, 1, left) <= 0) break;
            if (read(g_fd, b + have, 1) != 1) continue;
            if (have == 0 && b[0] != SER_SYNC_RSP) continue;
            if (++have == 3) need = 3 + ((!wr && b[1] == SER_ST_OK) ? 8 : 0) + 2;
        }
        if (have < need) continue;
        c = ser_crc16(SER_CRC_INIT, b + 1, need - 3);
        if (b[2] != seq || b[need - 2] != (uint8_t)c || b[need - 1] != (uint8_t)(c >> 8)) continue;
        if (!wr && b[1] == SER_ST_OK) {
            *word = 0;
            for (int i = 0; i < 8; ++i) *word |= (uint64_t)b[3 + i] << (8 * i);
        }
        return b[1];
    }
    return -1;
}

static uint64_t breg(uint32_t off, unsigned node, int *ok)
{
    uint64_t v = 0;
    if (xfer(0, SER_SPACE_BOARD, node, off, &v) != (int)SER_ST_OK) *ok = 0;
    return v;
}

static const char *st_state[] = {"idle", "running", "PASSED", "FAILED"};

int main(int argc, char **argv)
{
    const char *port = NULL;
    unsigned baud = 12000000;
    int rerun = 0;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--port") && i + 1 < argc) port = argv[++i];
        else if (!strcmp(argv[i], "--baud") && i + 1 < argc) baud = (unsigned)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--selftest")) rerun = 1;
        else {
            fprintf(stderr, "usage: %s --port PORT [--baud N] [--selftest]\n", argv[0]);
            return 2;
        }
    }
    if (!port) port = getenv("CANOPY_SERIAL_PORT");
    if (!port) {
        fprintf(stderr, "canopy-board-status: no port (--port or CANOPY_SERIAL_PORT)\n");
        return 1;
    }
    g_fd = open(port, O_RDWR | O_NOCTTY);
    if (g_fd < 0) {
        fprintf(stderr, "canopy-board-status: cannot open %s: %s\n", port, strerror(errno));
        return 1;
    }
    if (canopy_serial_set_baud(g_fd, baud)) {
        fprintf(stderr, "canopy-board-status: %s is not a serial port that takes %u baud: %s\n", port, baud, strerror(errno));
        return 1;
    }
    g_seq = (uint8_t)(getpid() * 37u); /* not the backend's counter: it never runs beside us */
    int ok = 1;
    const uint64_t id = breg(SER_BREG_ID, 0, &ok);
    if (!ok) {
        fprintf(stderr, "canopy-board-status: no answer on %s at %u baud (board programmed? the right port: the FT2232H's second, usually ttyUSB1? docs/bring-up.md)\n",
                port, baud);
        return 1;
    }
    if ((uint32_t)id != SER_BOARD_MAGIC) {
        fprintf(stderr, "canopy-board-status: %s answers, but its ID 0x%016llx is not a canopy board's\n", port,
                (unsigned long long)id);
        return 1;
    }
    const unsigned nodes = (unsigned)(id >> 40 & 0xff);
    const uint64_t clk = breg(SER_BREG_CLOCK, 0, &ok), mem = breg(SER_BREG_MEM, 0, &ok);
    printf("board: canopy board v%u, %u nodes (%ux%u torus), core clock %u Hz, UART %u baud, %u bytes of memory per node\n",
           (unsigned)(id >> 32 & 0xff), nodes, (unsigned)(id >> 48 & 0xff), (unsigned)(id >> 56 & 0xff), (uint32_t)clk,
           (uint32_t)(clk >> 32), (uint32_t)mem);
    if (rerun) {
        uint64_t one = 1;
        if (xfer(1, SER_SPACE_BOARD, 0, SER_BREG_ST_CTRL, &one) != (int)SER_ST_OK) ok = 0;
        const double end = now_s() + 10.0;
        while (((breg(SER_BREG_ST_STATUS, 0, &ok) & 3) == 1) && ok && now_s() < end) {
        }
    }
    const uint64_t st = breg(SER_BREG_ST_STATUS, 0, &ok);
    printf("selftest: %s (runs %u, steps %u)\n", st_state[st & 3], (unsigned)(st >> 32 & 0xffff),
           (unsigned)(st >> 16 & 0xffff));
    if ((st & 3) == 3)
        printf("selftest: first failure at step %u (tools/gen_selftest.py's program, rtl/board/canopy_selftest_rom.sv "
               "names each step): read 0x%016llx, expected 0x%016llx\n",
               (unsigned)(st >> 16 & 0xffff), (unsigned long long)breg(SER_BREG_ST_GOT, 0, &ok),
               (unsigned long long)breg(SER_BREG_ST_WANT, 0, &ok));
    printf("bridge: %llu frames, %llu bad CRC, %llu malformed or cut off, %llu node bus errors\n",
           (unsigned long long)breg(SER_BREG_FRAMES, 0, &ok), (unsigned long long)breg(SER_BREG_ERR_CRC, 0, &ok),
           (unsigned long long)breg(SER_BREG_ERR_FRAME, 0, &ok), (unsigned long long)breg(SER_BREG_ERR_AXI, 0, &ok));
    for (unsigned n = 0; n < nodes && ok; ++n) {
        uint64_t nid = 0;
        int s = xfer(0, SER_SPACE_BAR0, n, CANOPY_REG_ID, &nid);
        printf("node %u: %s", n, s == (int)SER_ST_OK ? "" : "BAR0 not readable");
        if (s == (int)SER_ST_OK)
            printf("ID 0x%016llx (%s), DMA errors %llu", (unsigned long long)nid,
                   (uint32_t)nid == CANOPY_MAGIC ? "canopy host interface" : "NOT canopy",
                   (unsigned long long)breg(SER_BREG_ERR_DMA, n, &ok));
        printf("\n");
    }
    if (!ok) {
        fprintf(stderr, "canopy-board-status: the board stopped answering\n");
        return 1;
    }
    return (st & 3) == 2 ? 0 : 1;
}
