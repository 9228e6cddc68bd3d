#!/usr/bin/env python3
"""Generate the host-interface register map from spec/regmap.toml.

One description, four views: the RTL register decode (rtl/host/canopy_csr.sv), a package of
offsets for other RTL (rtl/host/canopy_regs_pkg.sv), the C header the driver uses
(driver/include/canopy_regs.h) and the document (docs/register-map.md).

Why a small generator of our own rather than SystemRDL/PeakRDL: the map is one flat block
of 64-bit registers with three access kinds, the decode must stay inside the SystemVerilog
subset both Verilator and our pinned Yosys accept, and the C side wants explicit
accessors rather than overlay structs. This file is the whole toolchain, with no
dependency beyond the Python standard library.

Run with --check to verify the committed copies are current (the test suite does).
"""
import argparse
import sys
import tomllib

from gen_common import ROOT, camel, emit

SPEC = ROOT / "spec" / "regmap.toml"
BANNER = "generated from spec/regmap.toml by tools/gen_regmap.py; do not edit"
ACCESS = ("ro", "rw", "wo_pulse")


def load():
    spec = tomllib.loads(SPEC.read_text())
    blk = spec["block"]
    seen = {}
    for r in spec["regs"]:
        if r["access"] not in ACCESS:
            sys.exit(f"{r['name']}: unknown access {r['access']}")
        if r.get("nonzero_flag") and r["access"] != "rw":
            sys.exit(f"{r['name']}: nonzero_flag is for rw registers")
        if r["offset"] % 8 or r["offset"] >= blk["csr_bytes"]:
            sys.exit(f"{r['name']}: offset must be 8-byte aligned inside the CSR space")
        if r["offset"] in seen:
            sys.exit(f"{r['name']}: offset taken by {seen[r['offset']]}")
        seen[r["offset"]] = r["name"]
        used = 0
        for f in r.get("fields", []):
            m = ((1 << f["width"]) - 1) << f["lsb"]
            if m & used or f["lsb"] + f["width"] > 64:
                sys.exit(f"{r['name']}.{f['name']}: overlaps or overruns")
            used |= m
    spec["regs"].sort(key=lambda r: r["offset"])
    return spec


def addr_bits(blk):
    return (blk["csr_bytes"] - 1).bit_length()


# ---------------------------------------------------------------- RTL decode
def gen_csr(spec):
    blk, regs = spec["block"], spec["regs"]
    aw = addr_bits(blk)
    L = [f"// {BANNER}.",
         "//",
         "// canopy_csr: the host interface's register file: storage for rw registers, strobes",
         "// for doorbells, and the read multiplexer over everything.",
         "//",
         "// Interface contract",
         "//   - One access port, driven by the AXI slave: wr_i with a byte address, 64-bit data",
         "//     and byte strobes; rd_i with a byte address. Reads return rd_data_o the next",
         "//     cycle (registered). Both may happen in the same cycle.",
         "//   - <reg>_i: the value the hardware shows in a read-only register.",
         "//   - <reg>_o: an rw register's stored value (reset 0), or a doorbell's last value;",
         "//     <reg>_we_o: one-cycle strobe when a doorbell is written.",
         "//   - <reg>_set_o (rw registers marked nonzero_flag): the stored value is nonzero, a",
         "//     flip-flop written with it, so a user tests one bit rather than 64 (asserted).",
         "//   - err_o: one-cycle pulse for a refused access (unmapped offset, write to a",
         "//     read-only register); the access itself is ignored and reads return 0.",
         "`default_nettype none",
         "`include \"canopy_assert.svh\"",
         "",
         "module canopy_csr (",
         "  input  wire logic        clk_i,",
         "  input  wire logic        rst_i,",
         "  input  wire logic        wr_i,",
         f"  input  wire logic [{aw - 1}:0] wr_addr_i,",
         "  input  wire logic [63:0] wr_data_i,",
         "  input  wire logic [7:0]  wr_strb_i,",
         "  input  wire logic        rd_i,",
         f"  input  wire logic [{aw - 1}:0] rd_addr_i,",
         "  output logic      [63:0] rd_data_o,",
         "  output logic             err_o,"]
    ports = []
    for r in regs:
        n = r["name"].lower()
        if r["access"] == "ro":
            ports.append(f"  input  wire logic [63:0] {n}_i")
        else:
            ports.append(f"  output logic      [63:0] {n}_o")
            if r["access"] == "wo_pulse":
                ports.append(f"  output logic             {n}_we_o")
            if r.get("nonzero_flag"):
                ports.append(f"  output logic             {n}_set_o")
    L.append(",\n".join(ports))
    L += [");",
          "  // Byte-strobe merge of a write into a stored value.",
          "  function automatic logic [63:0] merge(input logic [63:0] old, input logic [63:0] data,",
          "                                        input logic [7:0] strb);",
          "    for (int unsigned b = 0; b < 8; b++) begin",
          "      merge[8*b +: 8] = strb[b] ? data[8*b +: 8] : old[8*b +: 8];",
          "    end",
          "  endfunction",
          ""]
    L.append("  logic wr_hit, wr_ro, rd_hit;")
    for r in regs:
        if r["access"] != "ro":
            n = r["name"].lower()
            L.append(f"  logic [63:0] {n}_q;")
            if r.get("nonzero_flag"):
                L.append(f"  logic        {n}_set_q;")
    L.append("")
    L.append("  always_comb begin")
    L.append("    wr_hit = 1'b0;")
    L.append("    wr_ro  = 1'b0;")
    L.append("    unique case (wr_addr_i)")
    for r in regs:
        L.append(f"      {aw}'h{r['offset']:03X}: begin wr_hit = 1'b1; wr_ro = 1'b{int(r['access'] == 'ro')}; end")
    L.append("      default: ;")
    L.append("    endcase")
    L.append("  end")
    L.append("")
    L.append("  always_ff @(posedge clk_i) begin")
    L.append("    if (rst_i) begin")
    for r in regs:
        if r["access"] != "ro":
            L.append(f"      {r['name'].lower()}_q <= '0;")
            if r.get("nonzero_flag"):
                L.append(f"      {r['name'].lower()}_set_q <= 1'b0;")
    L.append("    end else if (wr_i) begin")
    L.append("      unique case (wr_addr_i)")
    for r in regs:
        if r["access"] != "ro":
            n = r["name"].lower()
            if r.get("nonzero_flag"):
                L.append(f"        {aw}'h{r['offset']:03X}: begin")
                L.append(f"          {n}_q     <= merge({n}_q, wr_data_i, wr_strb_i);")
                L.append(f"          {n}_set_q <= merge({n}_q, wr_data_i, wr_strb_i) != '0;")
                L.append("        end")
            else:
                L.append(f"        {aw}'h{r['offset']:03X}: {n}_q <= merge({n}_q, wr_data_i, wr_strb_i);")
    L.append("        default: ;")
    L.append("      endcase")
    L.append("    end")
    L.append("  end")
    L.append("")
    for r in regs:
        if r["access"] != "ro":
            n = r["name"].lower()
            L.append(f"  assign {n}_o = {n}_q;")
            if r["access"] == "wo_pulse":
                L.append(f"  assign {n}_we_o = wr_i && wr_addr_i == {aw}'h{r['offset']:03X} && wr_strb_i[0];")
            if r.get("nonzero_flag"):
                L.append(f"  assign {n}_set_o = {n}_set_q;")
                L.append(f"  `CANOPY_ASSERT(a_{n}_set, {n}_set_q == ({n}_q != '0), \"{r['name']}'s nonzero flag disagrees with it\")")
    L.append("")
    L.append("  logic [63:0] rd_mux;")
    L.append("  always_comb begin")
    L.append("    rd_mux = '0;")
    L.append("    rd_hit = 1'b0;")
    L.append("    unique case (rd_addr_i)")
    for r in regs:
        n = r["name"].lower()
        src = f"{n}_i" if r["access"] == "ro" else f"{n}_q"
        L.append(f"      {aw}'h{r['offset']:03X}: begin rd_mux = {src}; rd_hit = 1'b1; end")
    L.append("      default: ;")
    L.append("    endcase")
    L.append("  end")
    L.append("")
    L.append("  always_ff @(posedge clk_i) begin")
    L.append("    if (rst_i) begin")
    L.append("      rd_data_o <= '0;")
    L.append("      err_o     <= 1'b0;")
    L.append("    end else begin")
    L.append("      if (rd_i) rd_data_o <= rd_mux;")
    L.append("      err_o <= (wr_i && (!wr_hit || wr_ro)) || (rd_i && !rd_hit);")
    L.append("    end")
    L.append("  end")
    L.append("endmodule")
    L.append("")
    L.append("`default_nettype wire")
    L.append("")
    return "\n".join(L)


def gen_pkg(spec):
    blk, regs = spec["block"], spec["regs"]
    L = [f"// {BANNER}.",
         "//",
         "// canopy_regs_pkg: register offsets and field positions of the host interface, for",
         "// RTL that composes register values (referenced as canopy_regs_pkg::Name).",
         "`default_nettype none",
         "",
         "/* verilator lint_off UNUSEDPARAM */  // a package defines more than any one block uses",
         "package canopy_regs_pkg;",
         f"  localparam int unsigned CsrAddrBits     = {addr_bits(blk)};",
         f"  localparam int unsigned CsrBytes        = 'h{blk['csr_bytes']:X};",
         f"  localparam int unsigned InjWindowOffset = 'h{blk['inj_window_offset']:X};",
         f"  localparam int unsigned BarBytes        = 'h{blk['bar_bytes']:X};",
         f"  localparam logic [31:0] Magic           = 32'h{blk['magic']:08X};",
         f"  localparam int unsigned BlockType       = {blk['block_type']};",
         f"  localparam int unsigned VersionMajor    = {blk['version_major']};",
         f"  localparam int unsigned VersionMinor    = {blk['version_minor']};",
         ""]
    for r in regs:
        L.append(f"  localparam int unsigned Reg{camel(r['name'])} = 'h{r['offset']:03X};")
        for f in r.get("fields", []):
            c = camel(r["name"]) + camel(f["name"])
            L.append(f"  localparam int unsigned {c}Lsb = {f['lsb']}, {c}Width = {f['width']};")
    L += ["endpackage", "/* verilator lint_on UNUSEDPARAM */", "", "`default_nettype wire", ""]
    return "\n".join(L)


# ---------------------------------------------------------------- C header
def gen_h(spec):
    blk, regs = spec["block"], spec["regs"]
    L = [f"/* {BANNER}. */",
         "/* canopy_regs.h: BAR0 register offsets and fields of the canopy host interface. */",
         "#ifndef CANOPY_REGS_H",
         "#define CANOPY_REGS_H",
         "",
         "#include <stdint.h>",
         "",
         f"#define CANOPY_CSR_BYTES 0x{blk['csr_bytes']:X}u",
         f"#define CANOPY_INJ_WINDOW_OFFSET 0x{blk['inj_window_offset']:X}u",
         f"#define CANOPY_BAR0_BYTES 0x{blk['bar_bytes']:X}u",
         f"#define CANOPY_MAGIC 0x{blk['magic']:08X}u",
         f"#define CANOPY_BLOCK_TYPE {blk['block_type']}u",
         f"#define CANOPY_VERSION_MAJOR {blk['version_major']}u",
         f"#define CANOPY_VERSION_MINOR {blk['version_minor']}u",
         ""]
    for r in regs:
        N = r["name"]
        L.append(f"/* {r['desc']} ({r['access']}) */")
        L.append(f"#define CANOPY_REG_{N} 0x{r['offset']:03X}u")
        for f in r.get("fields", []):
            F = f["name"].upper()
            L.append(f"#define CANOPY_{N}_{F}_LSB {f['lsb']}u")
            L.append(f"#define CANOPY_{N}_{F}_WIDTH {f['width']}u")
    L += ["",
          "/* Extract a field: CANOPY_FIELD(value, ID, MAGIC). */",
          "#define CANOPY_FIELD(v, reg, field) \\",
          "    (((uint64_t)(v) >> CANOPY_##reg##_##field##_LSB) & \\",
          "     ((CANOPY_##reg##_##field##_WIDTH >= 64u) ? ~(uint64_t)0 \\",
          "      : (((uint64_t)1 << CANOPY_##reg##_##field##_WIDTH) - 1u)))",
          "",
          "/* Register names by offset, for diagnostics; NULL for an unmapped offset. */",
          "static inline const char *canopy_reg_name(uint32_t offset)",
          "{",
          "    switch (offset) {"]
    for r in regs:
        L.append(f"    case CANOPY_REG_{r['name']}: return \"{r['name']}\";")
    L += ["    default: return (const char *)0;",
          "    }",
          "}",
          "",
          "#endif /* CANOPY_REGS_H */",
          ""]
    return "\n".join(L)


# ---------------------------------------------------------------- document
def gen_md(spec):
    blk, regs = spec["block"], spec["regs"]
    L = [f"<!-- {BANNER}. -->",
         "# Register map (BAR0)",
         "",
         f"BAR0 is {blk['bar_bytes'] // 1024} KiB: CSRs at offset 0 "
         f"(0x0000..0x{blk['csr_bytes'] - 1:04X}) and the injection ring window at "
         f"0x{blk['inj_window_offset']:04X}. Every register is 64 bits at an 8-byte aligned offset;",
         "32-bit accesses are allowed (byte strobes apply). Unmapped offsets read as 0, ignore",
         "writes, and count in `ERR_CSR`.",
         "",
         "Access kinds: **ro** read-only (the hardware drives it; writes are refused and counted),",
         "**rw** read-write storage, **wo_pulse** a doorbell (a write triggers an action; reads",
         "return the last value written).",
         "",
         "```",
         "BAR0",
         f"0x0000 +----------------------+",
         "       | ID, BUILD, CAPS, ... |  identification and capabilities",
         "0x0040 | WIN_*, EJ_*, WB_*    |  host memory registration",
         "0x0070 | INJ_TAIL / INJ_HEAD  |  injection ring indices",
         "0x0100 | ERR_*                |  error counters",
         "0x0180 | TX_*, RX_*, PUTS_*   |  traffic counters",
         f"0x{blk['csr_bytes']:04X} +----------------------+",
         "       |      (reserved)      |",
         f"0x{blk['inj_window_offset']:04X} +----------------------+",
         "       | injection ring window|  packets, written with write-combined bursts",
         f"0x{blk['bar_bytes']:04X} +----------------------+",
         "```",
         "",
         "| offset | name | access | meaning |",
         "|---|---|---|---|"]
    for r in regs:
        L.append(f"| 0x{r['offset']:03X} | `{r['name']}` | {r['access']} | {r['desc']} |")
    L.append("")
    for r in regs:
        if not r.get("fields"):
            continue
        L += [f"### `{r['name']}` (0x{r['offset']:03X})", "", "| bits | field | meaning |", "|---|---|---|"]
        for f in r["fields"]:
            hi = f["lsb"] + f["width"] - 1
            bits = f"{hi}" if hi == f["lsb"] else f"{hi}..{f['lsb']}"
            L.append(f"| {bits} | `{f['name']}` | {f['desc']} |")
        L.append("")
    return "\n".join(L)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--check", action="store_true", help="fail if a generated file is stale")
    args = ap.parse_args()
    spec = load()
    emit({
        ROOT / "rtl" / "host" / "canopy_csr.sv": gen_csr(spec),
        ROOT / "rtl" / "host" / "canopy_regs_pkg.sv": gen_pkg(spec),
        ROOT / "driver" / "include" / "canopy_regs.h": gen_h(spec),
        ROOT / "docs" / "register-map.md": gen_md(spec),
    }, args.check)


if __name__ == "__main__":
    main()
