/* generated from spec/serial.toml by tools/gen_serial.py; do not edit.
 *
 * serial_proto.h: the serial bridge's frame format, status codes and board registers
 * (docs/serial-protocol.md), for libcanopy's serial backend (hal_serial.c). */
#ifndef CANOPY_SERIAL_PROTO_H
#define CANOPY_SERIAL_PROTO_H

#include <stddef.h>
#include <stdint.h>

#define SER_SYNC_REQ 0xC5u
#define SER_SYNC_RSP 0x5Cu
#define SER_HEADER_BYTES 9u
#define SER_CRC_BYTES 2u
#define SER_MAX_WORDS 64u
#define SER_CRC_INIT 0xFFFFu
#define SER_CRC_POLY 0x1021u
#define SER_CRC_CHECK 0x29B1u /* CRC of "123456789" */
#define SER_IDLE_BYTES 64u
#define SER_OP_WRITE (1u << 7)
#define SER_AXI_TIMEOUT 65536u
#define SER_BOARD_MAGIC 0x42504E43u
#define SER_BOARD_VERSION 1u
#define SER_LINE_BYTES 64u
#define SER_SPACE_BAR0 0u /* the node's BAR0 through its AXI4 slave (CSRs at 0x0000, injection ring window at 0x8000); addr is the BAR0 offset */
#define SER_SPACE_MEM 1u /* the node's board memory, the host memory stand-in its DMA writes and reads (bus address = addr) */
#define SER_SPACE_BOARD 2u /* the board's own registers (below); node selects the node of per-node registers */
#define SER_ST_OK 0u /* done; a read's data follows */
#define SER_ST_CRC 1u /* the request's checksum did not match: nothing was executed (seq is as received) */
#define SER_ST_BAD_OP 2u /* unknown op or space, node out of range, unaligned address or count too large: nothing executed */
#define SER_ST_RANGE 3u /* the address range is outside the space (memory size, board register map): nothing executed */
#define SER_ST_AXI 4u /* the node's AXI4 slave answered SLVERR or DECERR (a refused CSR access) */
#define SER_ST_TIMEOUT 5u /* the node's AXI4 slave did not answer within axi_timeout cycles (the bridge gave up) */
#define SER_ST_BUSY 6u /* the on-chip self-test is running and owns the nodes' BAR0 (board space and memory reads are still served) */
#define SER_BREG_ID 0x000u /* bits 31..0 magic 0x42504E43; 39..32 version; 47..40 nodes; 55..48 torus size X; 63..56 torus size Y */
#define SER_BREG_CLOCK 0x008u /* bits 31..0 core clock in Hz; 63..32 UART baud rate */
#define SER_BREG_CYCLES 0x010u /* free-running core clock cycles since reset (device time of the serial backend) */
#define SER_BREG_DIRTY_SUM 0x018u /* bit i: some line of dirty word i (DIRTY0 + 8 i) is set */
#define SER_BREG_MEM 0x020u /* bits 31..0 board memory bytes per node; 47..32 dirty line bytes */
#define SER_BREG_ST_CTRL 0x028u /* write bit 0 = 1: run the self-test again (refused while it runs); reads 0 */
#define SER_BREG_ST_STATUS 0x030u /* bits 1..0 state (0 idle, 1 running, 2 passed, 3 failed); 31..16 step of the first failure (or steps run); 47..32 runs completed */
#define SER_BREG_ST_GOT 0x038u /* the word the failing step read (0 for a timeout) */
#define SER_BREG_ST_WANT 0x040u /* the word the failing step expected */
#define SER_BREG_ERR_CRC 0x048u /* requests refused for a checksum mismatch */
#define SER_BREG_ERR_FRAME 0x050u /* requests refused as malformed (bad_op, range), dropped for silence, or bytes with a bad stop bit */
#define SER_BREG_ERR_AXI 0x058u /* node AXI4 errors and timeouts seen by the bridge */
#define SER_BREG_FRAMES 0x060u /* requests executed (retransmissions answered again not counted) */
#define SER_BREG_ERR_DMA 0x068u /* DMA bursts of the node that board memory refused (not INCR of 8-byte beats, or past its end) */
#define SER_BREG_MEM_FILL 0x070u /* write: fill the node's board memory from byte bits 31..0 for bits 63..32 bytes (both multiples of 8, inside the memory; else range) with the node's MEM_FILL_WORD; reads 0 */
#define SER_BREG_MEM_FILL_WORD 0x078u /* the word MEM_FILL writes (0 after reset): a host pushes a run of one repeated word, a zeroed or sentinel-filled buffer, in two frames; reads back as written */
#define SER_BREG_DIRTY0 0x080u /* dirty lines of board memory, word i bit j = line 64 i + j written by the node's DMA since cleared; write 1s to clear */
#define SER_BREG_DIRTY0_COUNT 16u

static inline uint16_t ser_crc16(uint16_t crc, const uint8_t *p, size_t n)
{
    while (n--) {
        crc ^= (uint16_t)(*p++ << 8);
        for (int i = 0; i < 8; ++i) crc = (uint16_t)(crc & 0x8000u ? ((unsigned)crc << 1) ^ SER_CRC_POLY : (unsigned)crc << 1);
    }
    return crc;
}

#endif
