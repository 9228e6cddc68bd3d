// board_main.cpp: canopy-board-sim, the whole board logic (rtl/board/canopy_board_core.sv:
// four nodes, links, board memories, serial bridge, self-test) in Verilator, with its UART
// attached to a pseudo-terminal, so that libcanopy's serial backend talks to it exactly as
// to a board's USB serial port.
//
//   canopy-board-sim [--pty LINK] [--selftest-only] [--max-cycles N] [--max-seconds S]
//
//   --pty LINK       create a pseudo-terminal, make LINK a symlink to its device (e.g.
//                    /dev/pts/7) and serve it: bytes the host writes are sent into the
//                    board's uart_rx pin bit by bit at the board's baud rate (CANOPY_CPB
//                    cycles per bit), bits the board sends on uart_tx are decoded and
//                    written back. Runs until SIGTERM/SIGINT or a limit.
//   --selftest-only  no pty: run until the self-test (which starts at reset) passes or fails.
//
// Prints "selftest: passed at cycle N" or "selftest: FAILED ..." when the self-test ends
// (read off the LEDs), and exits 0 unless the self-test failed, an RTL assertion fired, or a
// watchdog fired: --max-cycles (default 4e9) simulated cycles, --max-seconds (default 1800)
// of wall clock, or (with --selftest-only) the self-test still running after 5e6 cycles.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <string>

#include "Vcanopy_board_core.h"
#include "verilated.h"

#ifndef CANOPY_CPB
#error "CANOPY_CPB (UART cycles per bit) must be defined by the build"
#endif

static volatile sig_atomic_t g_stop = 0;
static void on_signal(int) { g_stop = 1; }

static double wall_s()
{
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

// The host side of the line, one bit per CANOPY_CPB cycles each way.
struct HostUart {
    // to the board
    std::deque<uint8_t> out;
    int tx_bit = -1;          // -1 idle, 0 start, 1..8 data, 9 stop
    uint8_t tx_byte = 0;
    uint32_t tx_cnt = 0;
    // from the board
    bool rx_busy = false;
    int rx_bit = 0;
    uint32_t rx_cnt = 0;
    uint8_t rx_byte = 0;

    int line() const
    {
        if (tx_bit < 0) return 1;
        if (tx_bit == 0) return 0;
        if (tx_bit <= 8) return (tx_byte >> (tx_bit - 1)) & 1;
        return 1;
    }
    void step_tx()
    {
        if (tx_bit >= 0 && ++tx_cnt == CANOPY_CPB) {
            tx_cnt = 0;
            if (++tx_bit == 10) tx_bit = -1;
        }
        if (tx_bit < 0 && !out.empty()) {
            tx_byte = out.front();
            out.pop_front();
            tx_bit = 0;
            tx_cnt = 0;
        }
    }
    // Returns a byte received (0..255), -2 for a framing error, -1 for none.
    int step_rx(int level)
    {
        if (!rx_busy) {
            if (level == 0) {
                rx_busy = true;
                rx_bit = 0;
                rx_cnt = CANOPY_CPB / 2;
            }
            return -1;
        }
        if (rx_cnt-- != 0) return -1;
        rx_cnt = CANOPY_CPB - 1;
        if (rx_bit == 0) {
            if (level) rx_busy = false;
            else rx_bit = 1;
            return -1;
        }
        if (rx_bit <= 8) {
            rx_byte = (uint8_t)((rx_byte >> 1) | (level << 7));
            ++rx_bit;
            return -1;
        }
        rx_busy = false;
        return level ? rx_byte : -2;
    }
};

int main(int argc, char **argv)
{
    std::string pty_link;
    bool selftest_only = false;
    uint64_t max_cycles = 4000000000ull;
    double max_seconds = 1800;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--pty" && i + 1 < argc) pty_link = argv[++i];
        else if (a == "--selftest-only") selftest_only = true;
        else if (a == "--max-cycles" && i + 1 < argc) max_cycles = strtoull(argv[++i], nullptr, 0);
        else if (a == "--max-seconds" && i + 1 < argc) max_seconds = atof(argv[++i]);
        else {
            fprintf(stderr, "usage: %s [--pty LINK | --selftest-only] [--max-cycles N] [--max-seconds S]\n", argv[0]);
            return 2;
        }
    }
    if (pty_link.empty() && !selftest_only) {
        fprintf(stderr, "canopy-board-sim: give --pty LINK or --selftest-only\n");
        return 2;
    }
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    signal(SIGPIPE, SIG_IGN);

    int master = -1, slave = -1;
    if (!pty_link.empty()) {
        master = posix_openpt(O_RDWR | O_NOCTTY);
        if (master < 0 || grantpt(master) || unlockpt(master)) {
            perror("canopy-board-sim: posix_openpt");
            return 1;
        }
        const char *name = ptsname(master);
        // Hold the slave open ourselves, in raw mode: no echo of the board's answers back
        // to us, and the pty stays up between the host programs that open it.
        slave = open(name, O_RDWR | O_NOCTTY);
        termios t;
        if (slave < 0 || tcgetattr(slave, &t)) {
            perror("canopy-board-sim: slave");
            return 1;
        }
        cfmakeraw(&t);
        tcsetattr(slave, TCSANOW, &t);
        fcntl(master, F_SETFL, O_NONBLOCK);
        unlink(pty_link.c_str());
        if (symlink(name, pty_link.c_str())) {
            perror("canopy-board-sim: symlink");
            return 1;
        }
        printf("pty: %s -> %s\n", pty_link.c_str(), name);
        fflush(stdout);
    }

    Verilated::commandArgs(argc, argv);
    auto *top = new Vcanopy_board_core;
    HostUart uart;
    top->uart_rx_i = 1;
    top->rst_i = 1;
    top->clk_i = 0;
    for (int i = 0; i < 8; ++i) {
        top->clk_i = !top->clk_i;
        top->eval();
    }
    top->rst_i = 0;

    const double t0 = wall_s();
    uint64_t cyc = 0, bytes_in = 0, bytes_out = 0, ferr = 0;
    int st_done = 0, rc = 0;
    const uint32_t poll_every = 10 * CANOPY_CPB;
    while (!g_stop && !Verilated::gotError()) {
        top->clk_i = 1;
        top->eval();
        // The host's line changes on bit boundaries of its own; the board samples it.
        uart.step_tx();
        top->uart_rx_i = (uint8_t)uart.line();
        int b = uart.step_rx(top->uart_tx_o);
        top->clk_i = 0;
        top->eval();
        ++cyc;
        if (b >= 0) {
            uint8_t c = (uint8_t)b;
            ++bytes_out;
            if (master >= 0 && write(master, &c, 1) != 1) {
                /* the pty's buffer is full or nobody listens: the byte is lost, as on a line */
            }
        } else if (b == -2) {
            ++ferr;
        }
        if (master >= 0 && uart.out.empty() && cyc % poll_every == 0) {
            uint8_t buf[256];
            ssize_t n = read(master, buf, sizeof buf);
            for (ssize_t i = 0; i < n; ++i) uart.out.push_back(buf[i]);
            if (n > 0) bytes_in += (uint64_t)n;
        }
        if (!st_done) {
            const uint8_t leds = top->leds_o;
            if (leds & 0x4) {
                printf("selftest: passed at cycle %llu\n", (unsigned long long)cyc);
                st_done = 1;
            } else if (leds & 0x8) {
                printf("selftest: FAILED at step %u (cycle %llu; board register ST_STATUS has the step, ST_GOT/ST_WANT the words)\n",
                       (unsigned)(leds >> 4), (unsigned long long)cyc);
                st_done = 1;
                rc = 1;
            }
            if (st_done) {
                fflush(stdout);
                if (selftest_only) break;
            } else if (selftest_only && cyc > 5000000) {
                printf("selftest: still running after %llu cycles (watchdog)\n", (unsigned long long)cyc);
                rc = 1;
                break;
            }
        }
        if (cyc >= max_cycles) {
            fprintf(stderr, "canopy-board-sim: watchdog: %llu cycles\n", (unsigned long long)cyc);
            rc = 1;
            break;
        }
        if ((cyc & 0xFFFF) == 0 && wall_s() - t0 > max_seconds) {
            fprintf(stderr, "canopy-board-sim: watchdog: %.0f s of wall clock\n", max_seconds);
            rc = 1;
            break;
        }
    }
    if (Verilated::gotError()) rc = 1;
    const double dt = wall_s() - t0;
    printf("board-sim: %llu cycles in %.1f s (%.0f cycles/s), %llu bytes in, %llu out, %llu framing errors\n",
           (unsigned long long)cyc, dt, dt > 0 ? cyc / dt : 0.0, (unsigned long long)bytes_in,
           (unsigned long long)bytes_out, (unsigned long long)ferr);
    top->final();
    delete top;
    if (!pty_link.empty()) unlink(pty_link.c_str());
    if (slave >= 0) close(slave);
    if (master >= 0) close(master);
    return rc;
}
