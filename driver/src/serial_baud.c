/* serial_baud.c: raw 8N1 line settings and the baud rate for the serial backend.
 *
 * Apart from hal_serial.c because speeds without a B constant (the FT2232H's 12 Mbaud)
 * need Linux's termios2 (TCSETS2 with BOTHER), whose header cannot be included beside
 * <termios.h>. On a pseudo-terminal (the simulated board) the speed is accepted and
 * ignored.
 */
#include <asm/termbits.h>
#include <sys/ioctl.h>

int canopy_serial_set_baud(int fd, unsigned baud);

int canopy_serial_set_baud(int fd, unsigned baud)
{
    struct termios2 t;
    if (ioctl(fd, TCGETS2, &t)) return -1;
    /* raw: no translation, no echo, no signals, 8 bits, no parity, 1 stop bit */
    t.c_iflag &= ~(tcflag_t)(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON | IXOFF);
    t.c_oflag &= ~(tcflag_t)OPOST;
    t.c_lflag &= ~(tcflag_t)(ECHO | ECHONL | ICANON | ISIG | IEXTEN);
    t.c_cflag &= ~(tcflag_t)(CSIZE | PARENB | CSTOPB | CRTSCTS | CBAUD);
    t.c_cflag |= CS8 | CREAD | CLOCAL | BOTHER;
    t.c_ispeed = t.c_ospeed = baud;
    t.c_cc[VMIN] = 0;
    t.c_cc[VTIME] = 0;
    return ioctl(fd, TCSETS2, &t);
}
