#!/usr/bin/env python3
"""Generate the packet-format definitions from spec/packet.toml.

One description, three views: the SystemVerilog package the RTL imports by name
(canopy_pkg::...), the C header the driver and the simulation harness include, and the
bit-field document. Run with --check to verify the committed copies are current
(the test suite does); without it the files are rewritten.
"""
import argparse
import sys
import tomllib

from gen_common import ROOT, camel, emit

SPEC = ROOT / "spec" / "packet.toml"
BANNER = "generated from spec/packet.toml by tools/gen_packet.py; do not edit"


def load():
    spec = tomllib.loads(SPEC.read_text())
    fmt = spec["format"]
    words = fmt["header_bits"] // fmt["word_bits"]
    used = {w: [] for w in range(words)}
    for f in spec["fields"]:
        hi = f["lsb"] + f["width"] - 1
        if hi >= fmt["word_bits"]:
            sys.exit(f"field {f['name']} overruns word {f['word']}")
        for lo2, hi2, other in used[f["word"]]:
            if not (hi < lo2 or f["lsb"] > hi2):
                sys.exit(f"field {f['name']} overlaps {other}")
        used[f["word"]].append((f["lsb"], hi, f["name"]))
        if f.get("coords") and f["width"] != fmt["coord_bits"] * fmt["max_dims"]:
            sys.exit(f"coordinate field {f['name']} must be coord_bits*max_dims wide")
    used = 0
    for f in spec["get_request"]:
        m = ((1 << f["width"]) - 1) << f["lsb"]
        if m & used or f["lsb"] + f["width"] > fmt["word_bits"]:
            sys.exit(f"GET request field {f['name']} overlaps or overruns its word")
        used |= m
    glen = next(f for f in spec["get_request"] if f["name"] == "get_len")
    if fmt["max_get_bytes"] >= 1 << glen["width"] or fmt["max_get_bytes"] % fmt["max_payload_bytes"]:
        sys.exit("max_get_bytes must fit get_len and be a multiple of max_payload_bytes")
    aop = next(f for f in spec["get_request"] if f["name"] == "amo_op")
    if max(o["value"] for o in spec["amo_ops"]) >= 1 << aop["width"]:
        sys.exit("an AMO operation does not fit amo_op")
    return spec, fmt, words


def word_layout(spec, fmt, word):
    """Fields of one word from msb to lsb, gaps filled with reserved fields."""
    fields = sorted((f for f in spec["fields"] if f["word"] == word), key=lambda f: -f["lsb"])
    out, top, n = [], fmt["word_bits"] - 1, 0
    for f in fields:
        hi = f["lsb"] + f["width"] - 1
        if hi < top:
            out.append({"name": f"rsvd{word}_{n}", "lsb": hi + 1, "width": top - hi, "rsvd": True})
            n += 1
        out.append(f)
        top = f["lsb"] - 1
    if top >= 0:
        out.append({"name": f"rsvd{word}_{n}", "lsb": 0, "width": top + 1, "rsvd": True})
    return out


def entry_layout(spec, key="tree_entry", bits=32):
    """Fields of a `bits`-wide word (a tree entry, a GET request payload) from msb to lsb,
    gaps as reserved fields."""
    fields = sorted(spec[key], key=lambda f: -f["lsb"])
    out, top, n = [], bits - 1, 0
    for f in fields:
        hi = f["lsb"] + f["width"] - 1
        if hi < top:
            out.append({"name": f"rsvd{n}", "lsb": hi + 1, "width": top - hi, "rsvd": True})
            n += 1
        out.append(f)
        top = f["lsb"] - 1
    if top >= 0:
        out.append({"name": f"rsvd{n}", "lsb": 0, "width": top + 1, "rsvd": True})
    return out


def gen_sv(spec, fmt, words):
    L = [f"// {BANNER}.",
         "//",
         "// canopy_pkg: the packet format shared by every RTL block. Referenced as",
         "// canopy_pkg::name (never imported with ::*, which Yosys 0.23 rejects).",
         "`default_nettype none",
         "",
         "/* verilator lint_off UNUSEDPARAM */  // a package defines more than any one block uses",
         "package canopy_pkg;",
         "",
         f"  localparam int unsigned HeaderBits      = {fmt['header_bits']};",
         f"  localparam int unsigned WordBits        = {fmt['word_bits']};",
         f"  localparam int unsigned MaxPayloadBytes = {fmt['max_payload_bytes']};",
         f"  localparam int unsigned MaxGetBytes     = {fmt['max_get_bytes']};",
         "  // The largest packet in WordBits words: its header and a full payload (a collective",
         "  // working-memory slot; a whole packet's room at a child, docs/collectives.md).",
         "  localparam int unsigned MaxPacketWords  = HeaderBits / WordBits + MaxPayloadBytes * 8 / WordBits;",
         f"  localparam int unsigned CoordBits       = {fmt['coord_bits']};",
         f"  localparam int unsigned MaxDims         = {fmt['max_dims']};",
         "",
         f"  localparam int unsigned MinVcs          = {spec['link']['min_vcs']};",
         "",
         "  // Virtual channel roles (see docs/router.md).",
         *[f"  localparam int unsigned Vc{camel(v['name'])} = {v['value']};  // {v['desc']}" for v in spec["vcs"]],
         "",
         "  // Whether VC v belongs to the collective subnet (its buffers and credits are sized",
         "  // apart from the point-to-point VCs').",
         "  function automatic bit vc_is_coll(input int unsigned v);",
         "    vc_is_coll = " + " || ".join(f"v == Vc{camel(v['name'])}" for v in spec["vcs"] if v.get("collective"))
         + ";",
         "  endfunction",
         "",
         "  typedef logic [CoordBits-1:0] coord_t;",
         "  typedef coord_t [MaxDims-1:0] coords_t;  // index d = dimension (0 = X)",
         ""]
    tw = next(f["width"] for f in spec["fields"] if f["name"] == "ptype")
    aw = next(f["width"] for f in spec["get_request"] if f["name"] == "amo_op")
    for kind, key, width in (("pkt_type", "types", tw), ("op", "ops", 3), ("dtype", "dtypes", 3),
                             ("amo_op", "amo_ops", aw)):
        pre = {"pkt_type": "PKT", "op": "OP", "dtype": "DT", "amo_op": "AMO"}[kind]
        L.append(f"  typedef enum logic [{width - 1}:0] {{")
        items = spec[key]
        for i, t in enumerate(items):
            sep = "," if i + 1 < len(items) else ""
            desc = f"  // {t['desc']}" if "desc" in t else ""
            L.append(f"    {pre}_{t['name']} = {width}'d{t['value']}{sep}{desc}")
        L.append(f"  }} {kind}_e;")
        L.append("")
    L.append("  // Bits of the header's flags field.")
    for fl in spec["flags"]:
        L.append(f"  localparam int unsigned Flag{camel(fl['name'])} = {fl['bit']};  // {fl['desc']}")
    L.append("  // Bits of the header's rflags field.")
    for fl in spec["rflags"]:
        L.append(f"  localparam int unsigned Rflag{camel(fl['name'])} = {fl['bit']};  // {fl['desc']}")
    L.append("")
    L.append("  // The header as one 128-bit value: word 1 in bits [127:64], word 0 in [63:0].")
    L.append("  typedef struct packed {")
    for w in reversed(range(words)):
        for f in word_layout(spec, fmt, w):
            ty = "coords_t" if f.get("coords") else f"logic [{f['width'] - 1}:0]"
            if f["width"] == 1 and not f.get("coords"):
                ty = "logic"
            desc = "" if f.get("rsvd") else f"  // {f['desc']}"
            L.append(f"    {ty:<16} {f['name']};{desc}")
    L.append("  } hdr_t;")
    L.append("")
    coll = spec["collective"]
    L.append("  // The collective routing table entry (one word per tree, see docs/collectives.md).")
    L.append(f"  localparam int unsigned MaxTrees   = {coll['max_trees']};")
    L.append(f"  localparam int unsigned MaxGroups  = {coll['max_groups']};")
    L.append("  localparam int unsigned TreeEntryBits = 32;")
    L.append("  typedef struct packed {")
    for f in entry_layout(spec):
        ty = "logic" if f["width"] == 1 else f"logic [{f['width'] - 1}:0]"
        desc = "" if f.get("rsvd") else f"  // {f['desc']}"
        L.append(f"    {ty:<16} {f['name']};{desc}")
    L.append("  } tree_entry_t;")
    L.append("")
    L.append("  // The payload word of a GET request.")
    L.append("  typedef struct packed {")
    for f in entry_layout(spec, "get_request", fmt["word_bits"]):
        ty = "logic" if f["width"] == 1 else f"logic [{f['width'] - 1}:0]"
        desc = "" if f.get("rsvd") else f"  // {f['desc']}"
        L.append(f"    {ty:<16} {f['name']};{desc}")
    L.append("  } get_req_t;")
    for f in spec["get_request"]:
        L.append(f"  localparam int unsigned GetReq{camel(f['name'])}Bits = {f['width']};")
    L.append("")
    L.append("  // Field widths, for counters and comparisons sized like a field.")
    for f in spec["fields"]:
        L.append(f"  localparam int unsigned Hdr{camel(f['name'])}Bits = {f['width']};")
    L += ["", "endpackage", "/* verilator lint_on UNUSEDPARAM */", "", "`default_nettype wire", ""]
    return "\n".join(L)


def gen_c(spec, fmt, words):
    L = [f"/* {BANNER}. */",
         "/* canopy_packet.h: the packet format shared by the driver and the simulation harness. */",
         "#ifndef CANOPY_PACKET_H",
         "#define CANOPY_PACKET_H",
         "",
         "#include <stdint.h>",
         "",
         f"#define CANOPY_PKT_HEADER_BYTES {fmt['header_bits'] // 8}u",
         f"#define CANOPY_PKT_HEADER_WORDS {words}u",
         f"#define CANOPY_PKT_MAX_PAYLOAD {fmt['max_payload_bytes']}u",
         f"#define CANOPY_MAX_GET_BYTES {fmt['max_get_bytes']}u",
         f"#define CANOPY_COORD_BITS {fmt['coord_bits']}u",
         f"#define CANOPY_MAX_DIMS {fmt['max_dims']}u",
         f"#define CANOPY_MIN_VCS {spec['link']['min_vcs']}u",
         ""]
    for key, pre in (("vcs", "CANOPY_VC_"), ("types", "CANOPY_PKT_"), ("ops", "CANOPY_OP_"), ("dtypes", "CANOPY_DT_"),
                     ("amo_ops", "CANOPY_AMO_")):
        L.append("enum {")
        for t in spec[key]:
            desc = f" /* {t['desc']} */" if "desc" in t else ""
            L.append(f"    {pre}{t['name']} = {t['value']},{desc}")
        L.append("};")
        L.append("")
    for fl in spec["flags"]:
        L.append(f"#define CANOPY_FLAG_{fl['name']} (1u << {fl['bit']}) /* {fl['desc']} */")
    for fl in spec["rflags"]:
        L.append(f"#define CANOPY_RFLAG_{fl['name']} (1u << {fl['bit']}) /* {fl['desc']} */")
    L.append("")
    for f in spec["fields"]:
        n = f["name"].upper()
        L.append(f"/* {f['desc']} */")
        L.append(f"#define CANOPY_HDR_{n}_WORD {f['word']}u")
        L.append(f"#define CANOPY_HDR_{n}_LSB {f['lsb']}u")
        L.append(f"#define CANOPY_HDR_{n}_WIDTH {f['width']}u")
    L.append("")
    L.append("static inline uint64_t canopy_hdr_field_mask(unsigned width)")
    L.append("{")
    L.append("    return width >= 64u ? ~(uint64_t)0 : (((uint64_t)1 << width) - 1u);")
    L.append("}")
    L.append("")
    for f in spec["fields"]:
        n, N = f["name"], f["name"].upper()
        L += [f"static inline uint64_t canopy_hdr_get_{n}(const uint64_t hdr[CANOPY_PKT_HEADER_WORDS])",
              "{",
              f"    return (hdr[CANOPY_HDR_{N}_WORD] >> CANOPY_HDR_{N}_LSB) & "
              f"canopy_hdr_field_mask(CANOPY_HDR_{N}_WIDTH);",
              "}",
              "",
              f"static inline void canopy_hdr_set_{n}(uint64_t hdr[CANOPY_PKT_HEADER_WORDS], uint64_t v)",
              "{",
              f"    uint64_t m = canopy_hdr_field_mask(CANOPY_HDR_{N}_WIDTH) << CANOPY_HDR_{N}_LSB;",
              f"    hdr[CANOPY_HDR_{N}_WORD] = (hdr[CANOPY_HDR_{N}_WORD] & ~m) | ((v << CANOPY_HDR_{N}_LSB) & m);",
              "}",
              ""]
    coll = spec["collective"]
    L.append("/* The collective routing table entry: one 32-bit word per tree. */")
    L.append(f"#define CANOPY_MAX_TREES {coll['max_trees']}u")
    L.append(f"#define CANOPY_MAX_GROUPS {coll['max_groups']}u")
    for f in spec["tree_entry"]:
        n, N = f["name"], f["name"].upper()
        mask = (1 << f["width"]) - 1
        L += [f"/* {f['desc']} */",
              f"#define CANOPY_TREE_{N}_LSB {f['lsb']}u",
              f"#define CANOPY_TREE_{N}_WIDTH {f['width']}u",
              f"static inline uint32_t canopy_tree_get_{n}(uint32_t e) {{ return (e >> {f['lsb']}u) & 0x{mask:x}u; }}",
              f"static inline uint32_t canopy_tree_set_{n}(uint32_t e, uint32_t v)",
              "{",
              f"    return (e & ~(0x{mask:x}u << {f['lsb']}u)) | ((v & 0x{mask:x}u) << {f['lsb']}u);",
              "}",
              ""]
    L.append("/* The payload word of a GET request. */")
    for f in spec["get_request"]:
        n, N = f["name"], f["name"].upper()
        L += [f"/* {f['desc']} */",
              f"#define CANOPY_GETREQ_{N}_LSB {f['lsb']}u",
              f"#define CANOPY_GETREQ_{N}_WIDTH {f['width']}u",
              f"static inline uint64_t canopy_getreq_get_{n}(uint64_t w)",
              "{",
              f"    return (w >> CANOPY_GETREQ_{N}_LSB) & canopy_hdr_field_mask(CANOPY_GETREQ_{N}_WIDTH);",
              "}",
              f"static inline uint64_t canopy_getreq_set_{n}(uint64_t w, uint64_t v)",
              "{",
              f"    uint64_t m = canopy_hdr_field_mask(CANOPY_GETREQ_{N}_WIDTH) << CANOPY_GETREQ_{N}_LSB;",
              f"    return (w & ~m) | ((v << CANOPY_GETREQ_{N}_LSB) & m);",
              "}",
              ""]
    L.append("/* Coordinates packed as in the dst/src fields: dimension d in bits [4d+3:4d]. */")
    L.append("static inline unsigned canopy_coord_get(uint64_t coords, unsigned dim)")
    L.append("{")
    L.append("    return (unsigned)(coords >> (CANOPY_COORD_BITS * dim)) & ((1u << CANOPY_COORD_BITS) - 1u);")
    L.append("}")
    L.append("")
    L.append("#endif /* CANOPY_PACKET_H */")
    L.append("")
    return "\n".join(L)


def picture(spec, fmt, word):
    """An ASCII bit-field picture of one header word, msb on the left."""
    cells = []
    for f in word_layout(spec, fmt, word):
        label = "rsvd" if f.get("rsvd") else f["name"]
        hi, lo = f["lsb"] + f["width"] - 1, f["lsb"]
        bits = f"{hi}" if hi == lo else f"{hi}..{lo}"
        w = max(len(label), len(bits)) + 2
        cells.append((label.center(w), bits.center(w)))
    border = "+" + "+".join("-" * len(c[0]) for c in cells) + "+"
    return "\n".join([" " + " ".join(c[1] for c in cells), border,
                      "|" + "|".join(c[0] for c in cells) + "|", border])


def gen_md(spec, fmt, words):
    wb = fmt["word_bits"]
    L = [f"<!-- {BANNER}. -->",
         "# Packet format",
         "",
         "Every canopy packet is a 128-bit header followed by `len` payload bytes. On a link it",
         f"travels as flits of `FlitWidth` bits (64 by default): with 64-bit flits the header is two",
         "flits and the payload `ceil(len/8)` more. Each flit carries two sideband signals beside",
         "its data, `last` (the packet's tail flit) and `vc` (the virtual channel it occupies);",
         "they are link framing, not part of the header. Header words are little-endian 64-bit",
         "values: word 0 is the first flit, bit 0 its least significant bit. Payload byte `i` is",
         "byte `i % 8` (little-endian) of payload flit `i / 8`; unused bytes of the last flit are 0.",
         "",
         "Word 0 is the routing word: a router decides a point-to-point route from it alone, so the",
         "head flit is routed the cycle it arrives.",
         "",
         f"Limits: `len` at most {fmt['max_payload_bytes']} bytes; {fmt['max_dims']} dimensions of "
         f"{fmt['coord_bits']}-bit coordinates (sizes 2..{2 ** fmt['coord_bits']}).",
         ""]
    for w in range(words):
        L += [f"## Word {w}", "", "```", picture(spec, fmt, w), "```", ""]
    L += ["## Fields", "", "| field | word | bits | meaning |", "|---|---|---|---|"]
    for f in spec["fields"]:
        hi = f["lsb"] + f["width"] - 1
        L.append(f"| `{f['name']}` | {f['word']} | {hi}..{f['lsb']} | {f['desc']} |")
    L += ["", "Coordinates (`dst`, `src`): dimension d (0 = X, 1 = Y, 2 = Z, 3 = W) in bits",
          f"`[{fmt['coord_bits']}d+{fmt['coord_bits'] - 1}:{fmt['coord_bits']}d]` of the field.",
          "Reserved bits are sent as 0 and ignored on receipt.", "",
          "## Packet types", "", "| value | name | meaning |", "|---|---|---|"]
    for t in spec["types"]:
        L.append(f"| {t['value']} | `{t['name']}` | {t['desc']} |")
    L += ["", "## Flags", "", "| bit | name | meaning |", "|---|---|---|"]
    L += [f"| {fl['bit']} | `{fl['name']}` | {fl['desc']} |" for fl in spec["flags"]]
    L += ["", "## Reduce flags (`rflags`)", "", "| bit | name | meaning |", "|---|---|---|"]
    L += [f"| {fl['bit']} | `{fl['name']}` | {fl['desc']} |" for fl in spec["rflags"]]
    top = max(t["value"] for t in spec["types"])
    L += ["", f"Values {top + 1}..15 of `ptype` are unassigned. A router drops a packet whose type it does not",
          "implement and counts it (`bad type`); it is never forwarded.", "",
          "## GET request payload", "",
          "A `GET` carries one payload word (`len` = 8); its `offset` is the position in the target's",
          f"window. Requests are at most {fmt['max_get_bytes']} bytes; the target answers with",
          f"`ceil(get_len / {fmt['max_payload_bytes']})` `GET_RESP` packets in order, each with the next",
          f"{fmt['max_payload_bytes']} bytes of the range (the last one the rest) at `reply_offset` plus",
          "its position, the last one flagged `LAST`; a refused get is answered by one `GET_RESP` with",
          "`LAST`, rflag `FAILED` and no payload (docs/host-interface.md).", "",
          "| field | bits | meaning |", "|---|---|---|"]
    for f in spec["get_request"]:
        hi = f["lsb"] + f["width"] - 1
        L.append(f"| `{f['name']}` | {hi}..{f['lsb']} | {f['desc']} |")
    L += ["", "Bits not listed are reserved (sent as 0, ignored).", "",
          "## Atomics (AMO)", "",
          "An atomic is a `GET` of 4 or 8 bytes whose `len` is 24 instead of 8: the request word",
          "above (with `amo_op` and `amo_fetch`), then the operand, then the compare value (used by",
          "`CSWAP`, 0 otherwise), each a 64-bit word (a 4-byte AMO uses bits 31..0). Routers forward",
          "it as any `GET`. The target's host interface reads the object at `offset` (a multiple of",
          "`get_len`) from its host memory, writes the new value back and answers with one `GET_RESP`",
          "with `LAST`: the old value at `reply_offset` when `amo_fetch` is set, else no payload. AMOs",
          "at one target are done one at a time, so they are atomic with respect to each other",
          "(docs/host-interface.md).", "",
          "| amo_op | value | new value |", "|---|---|---|"]
    L += [f"| `{o['name']}` | {o['value']} | {o['desc']} |" for o in spec["amo_ops"]]
    L += ["",
          "## Reduce operations and element types", "",
          "| op | value |", "|---|---|"]
    L += [f"| `{o['name']}` | {o['value']} |" for o in spec["ops"]]
    L += ["", "| dtype | value |", "|---|---|"]
    L += [f"| `{d['name']}` | {d['value']} |" for d in spec["dtypes"]]
    L += ["", "## Collective routing table entry", "",
          f"One 32-bit word per tree (tree ids below {spec['collective']['max_trees']}; a router implements",
          "`NumTrees` of them, reported in `CAPS.trees`). Written through `TREE_ENTRY` or by a `CONFIG`",
          "packet, refused if it breaks the rules in `docs/collectives.md`.", "",
          "| field | bits | meaning |", "|---|---|---|"]
    for f in spec["tree_entry"]:
        hi = f["lsb"] + f["width"] - 1
        bits = f"{hi}" if hi == f["lsb"] else f"{hi}..{f['lsb']}"
        L.append(f"| `{f['name']}` | {bits} | {f['desc']} |")
    L += ["", "## Virtual channels", "", "| vc | name | use |", "|---|---|---|"]
    L += [f"| {v['value']} | `{v['name']}` | {v['desc']} |" for v in spec["vcs"]]
    L += ["", "## What a router checks", "",
          "A packet is *malformed*, dropped whole and counted in the node's error counters, when",
          "",
          "- its type is one the router does not implement (`bad type`);",
          "- a destination coordinate lies outside the torus, including a nonzero coordinate in a",
          "  dimension the torus does not have (`bad dst`);",
          f"- `len` exceeds {fmt['max_payload_bytes']}, or the tail flit (`last`) does not arrive exactly",
          "  where `len` says it must (`bad len`).",
          "",
          "Header checks happen on the head flit at every input port. The length check needs the",
          "tail: the host interface's injection ring counts a packet's flits against its length",
          "before the first flit enters the router, so a packet from a host is judged complete before",
          "any of it enters the fabric; a link input counts the flits as they pass and reports a",
          "mismatch (only a faulty neighbour can cause one). See `docs/router.md`.", ""]
    return "\n".join(L)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--check", action="store_true", help="fail if a generated file is stale")
    args = ap.parse_args()
    spec, fmt, words = load()
    outputs = {
        ROOT / "rtl" / "common" / "canopy_pkg.sv": gen_sv(spec, fmt, words),
        ROOT / "driver" / "include" / "canopy_packet.h": gen_c(spec, fmt, words),
        ROOT / "docs" / "packet-format.md": gen_md(spec, fmt, words),
    }
    emit(outputs, args.check)


if __name__ == "__main__":
    main()
