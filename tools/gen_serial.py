#!/usr/bin/env python3
"""Generate the serial bridge's definitions from spec/serial.toml.

One description, three views: a SystemVerilog package for the bridge RTL
(rtl/board/canopy_serial_pkg.sv), a C header for libcanopy's "serial" backend
(driver/src/serial_proto.h) and the document (docs/serial-protocol.md). The CRC is
defined here once by its parameters; the RTL and C implement the same bytewise update,
and the tests check both against the value this generator computes for a fixed frame
(CRC_CHECK_VALUE: the CRC of the ASCII bytes "123456789", 0x29B1 for CCITT-FALSE).

Run with --check to verify the committed copies are current (the test suite does).
"""
import argparse
import sys
import tomllib

from gen_common import ROOT, emit

SPEC = ROOT / "spec" / "serial.toml"
BANNER = "generated from spec/serial.toml by tools/gen_serial.py; do not edit"


def crc16(data, poly, init):
    c = init
    for b in data:
        c ^= b << 8
        for _ in range(8):
            c = ((c << 1) ^ poly) & 0xFFFF if c & 0x8000 else (c << 1) & 0xFFFF
    return c


def load():
    s = tomllib.loads(SPEC.read_text())
    offs = {}
    for r in s["breg"]:
        n = r.get("count", 1)
        for i in range(n):
            o = r["offset"] + 8 * i
            if o in offs or o % 8:
                sys.exit(f"{r['name']}: offset 0x{o:x} taken or unaligned")
            offs[o] = r["name"]
    s["check"] = crc16(b"123456789", s["frame"]["crc_poly"], s["frame"]["crc_init"])
    return s


def gen_sv(s):
    f, b = s["frame"], s["board"]
    L = [f"// {BANNER}.",
         "//",
         "// canopy_serial_pkg: the serial bridge's frame format, status codes and board",
         "// register offsets (spec/serial.toml, docs/serial-protocol.md), and the CRC-16 update.",
         "`default_nettype none",
         "/* verilator lint_off UNUSEDPARAM */  // a package defines more than any one block uses",
         "package canopy_serial_pkg;",
         f"  localparam logic [7:0]  SyncReq     = 8'h{f['sync_req']:02X};",
         f"  localparam logic [7:0]  SyncRsp     = 8'h{f['sync_rsp']:02X};",
         f"  localparam int unsigned HeaderBytes = {f['header_bytes']};",
         f"  localparam int unsigned CrcBytes    = {f['crc_bytes']};",
         f"  localparam int unsigned MaxWords    = {f['max_words']};",
         f"  localparam logic [15:0] CrcInit     = 16'h{f['crc_init']:04X};",
         f"  localparam logic [15:0] CrcPoly     = 16'h{f['crc_poly']:04X};",
         f"  localparam logic [15:0] CrcCheck    = 16'h{s['check']:04X};  // CRC of \"123456789\"",
         f"  localparam int unsigned IdleBytes   = {f['idle_bytes']};",
         f"  localparam int unsigned OpWriteBit  = {s['op']['write_bit']};",
         f"  localparam int unsigned SpaceBits   = {s['op']['space_bits']};",
         f"  localparam int unsigned AxiTimeout  = {s['bridge']['axi_timeout']};",
         f"  localparam logic [31:0] BoardMagic  = 32'h{b['magic']:08X};",
         f"  localparam int unsigned BoardVersion = {b['version']};",
         f"  localparam int unsigned LineBytes   = {b['line_bytes']};"]
    for sp in s["space"]:
        L.append(f"  localparam logic [1:0]  Space{sp['name'].capitalize():<6}= 2'd{sp['code']};  // {sp['desc'][:60]}")
    for st in s["status"]:
        nm = "".join(p.capitalize() for p in st["name"].split("_"))
        L.append(f"  localparam logic [7:0]  St{nm:<9} = 8'd{st['code']};")
    for r in s["breg"]:
        nm = "".join(p.capitalize() for p in r["name"].lower().split("_"))
        L.append(f"  localparam logic [11:0] Breg{nm:<9} = 12'h{r['offset']:03X};")
        if r.get("count", 1) > 1:
            L.append(f"  localparam int unsigned Breg{nm}Count = {r['count']};")
    L += ["",
          "  // One byte into a CRC-16 (MSB first, no reflection).",
          "  function automatic logic [15:0] crc16_byte(input logic [15:0] crc, input logic [7:0] data);",
          "    logic [15:0] c;",
          "    c = crc ^ {data, 8'h00};",
          "    for (int unsigned i = 0; i < 8; i++) begin",
          "      c = c[15] ? ((c << 1) ^ CrcPoly) : (c << 1);",
          "    end",
          "    crc16_byte = c;",
          "  endfunction",
          "endpackage", "/* verilator lint_on UNUSEDPARAM */", "", "`default_nettype wire", ""]
    return "\n".join(L)


def gen_h(s):
    f, b = s["frame"], s["board"]
    L = [f"/* {BANNER}.",
         " *",
         " * serial_proto.h: the serial bridge's frame format, status codes and board registers",
         " * (docs/serial-protocol.md), for libcanopy's serial backend (hal_serial.c). */",
         "#ifndef CANOPY_SERIAL_PROTO_H",
         "#define CANOPY_SERIAL_PROTO_H",
         "",
         "#include <stddef.h>",
         "#include <stdint.h>",
         "",
         f"#define SER_SYNC_REQ 0x{f['sync_req']:02X}u",
         f"#define SER_SYNC_RSP 0x{f['sync_rsp']:02X}u",
         f"#define SER_HEADER_BYTES {f['header_bytes']}u",
         f"#define SER_CRC_BYTES {f['crc_bytes']}u",
         f"#define SER_MAX_WORDS {f['max_words']}u",
         f"#define SER_CRC_INIT 0x{f['crc_init']:04X}u",
         f"#define SER_CRC_POLY 0x{f['crc_poly']:04X}u",
         f"#define SER_CRC_CHECK 0x{s['check']:04X}u /* CRC of \"123456789\" */",
         f"#define SER_IDLE_BYTES {f['idle_bytes']}u",
         f"#define SER_OP_WRITE (1u << {s['op']['write_bit']})",
         f"#define SER_AXI_TIMEOUT {s['bridge']['axi_timeout']}u",
         f"#define SER_BOARD_MAGIC 0x{b['magic']:08X}u",
         f"#define SER_BOARD_VERSION {b['version']}u",
         f"#define SER_LINE_BYTES {b['line_bytes']}u"]
    for sp in s["space"]:
        L.append(f"#define SER_SPACE_{sp['name'].upper()} {sp['code']}u /* {sp['desc']} */")
    for st in s["status"]:
        L.append(f"#define SER_ST_{st['name'].upper()} {st['code']}u /* {st['desc']} */")
    for r in s["breg"]:
        L.append(f"#define SER_BREG_{r['name']} 0x{r['offset']:03X}u /* {r['desc']} */")
        if r.get("count", 1) > 1:
            L.append(f"#define SER_BREG_{r['name']}_COUNT {r['count']}u")
    L += ["",
          "static inline uint16_t ser_crc16(uint16_t crc, const uint8_t *p, size_t n)",
          "{",
          "    while (n--) {",
          "        crc ^= (uint16_t)(*p++ << 8);",
          "        for (int i = 0; i < 8; ++i) crc = (uint16_t)(crc & 0x8000u ? ((unsigned)crc << 1) ^ SER_CRC_POLY : (unsigned)crc << 1);",
          "    }",
          "    return crc;",
          "}",
          "",
          "#endif", ""]
    return "\n".join(L)


def gen_md(s):
    f, b = s["frame"], s["board"]
    L = [f"<!-- {BANNER} -->",
         "# Serial bridge protocol",
         "",
         "The host link of a board without PCIe (docs/bring-up.md): libcanopy's `serial` backend",
         "(`driver/src/hal_serial.c`) talks to the board's bridge (`rtl/board/canopy_serial_bridge.sv`)",
         "over a UART, 8 data bits, no parity, 1 stop bit. Source: `spec/serial.toml`.",
         "",
         "```",
         "request:  SYNC_REQ op seq node addr[4] count [data: 8*(count+1) bytes, writes only] crc[2]",
         "response: SYNC_RSP status seq [data: 8*(count+1) bytes, reads answered ok only] crc[2]",
         "```",
         "",
         f"- `SYNC_REQ` = 0x{f['sync_req']:02X}, `SYNC_RSP` = 0x{f['sync_rsp']:02X}; multi-byte fields little-endian.",
         f"- `op`: bit {s['op']['write_bit']} = write, bits 1..0 = space; other bits 0. `count` = words - 1,"
         f" at most {f['max_words']} words. `addr` is a byte address, 8-byte aligned.",
         f"- `crc`: CRC-16/CCITT-FALSE (polynomial 0x{f['crc_poly']:04X}, initial 0x{f['crc_init']:04X}) over the"
         f" frame after the sync byte; check value 0x{s['check']:04X} for \"123456789\".",
         "- Exactly one response per request. A write whose `seq` equals the last executed write's, with no",
         "  frame between, is a retransmission: answered again with its status, not executed twice.",
         f"- A frame that stops for {f['idle_bytes']} byte times is dropped; the parser hunts for the next sync byte.",
         f"- The bridge gives a node's AXI4 slave {s['bridge']['axi_timeout']} cycles to answer (status `timeout`).",
         "",
         "| space | code | what |", "|---|---|---|"]
    for sp in s["space"]:
        L.append(f"| {sp['name']} | {sp['code']} | {sp['desc']} |")
    L += ["", "| status | code | meaning |", "|---|---|---|"]
    for st in s["status"]:
        L.append(f"| {st['name']} | {st['code']} | {st['desc']} |")
    L += ["", f"Board registers (space `board`), 64 bits each; magic 0x{b['magic']:08X}, version {b['version']}:", "",
          "| offset | register | per node | meaning |", "|---|---|---|---|"]
    for r in s["breg"]:
        n = r.get("count", 1)
        name = r["name"] + (f" .. +{n - 1}" if n > 1 else "")
        L.append(f"| 0x{r['offset']:03X} | {name} | {'yes' if r.get('per_node') else ''} | {r['desc']} |")
    L.append("")
    return "\n".join(L)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--check", action="store_true", help="fail if a generated file is stale")
    args = ap.parse_args()
    s = load()
    emit({
        ROOT / "rtl" / "board" / "canopy_serial_pkg.sv": gen_sv(s),
        ROOT / "driver" / "src" / "serial_proto.h": gen_h(s),
        ROOT / "docs" / "serial-protocol.md": gen_md(s),
    }, args.check)


if __name__ == "__main__":
    main()
