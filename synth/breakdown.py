#!/usr/bin/env python3
"""synth/breakdown.py: where an ECP5 netlist's LUT4 sites go, block by block.

    synth/breakdown.py build/synth/canopy_router-numdims3/ecp5.json [--depth 2]

Reads the flattened synth_ecp5 netlist that `make synth` wrote and charges each logic
cell to the block its name places it in: after `autoname`, a cell is named after a net it
drives or reads (`u_coll.u_send.gen_lane[6].u_buf.held_q_LUT4_D`), so the path before the
last dot is its instance. Instances that differ only in a generate index are summed
(`gen_in[*].u_input`), and --depth keeps that many levels of the path. A cell's weight is
the LUT4 sites nextpnr will count for it: a LUT4 1, a CCU2C carry cell 2, a TRELLIS_DPR16X4
(16x4 distributed RAM) 6 (four RAM LUTs and two of its write port); flip-flops and block
RAMs are counted beside them. Cells named after a top-level net (the module's outputs: the
crossbar's output registers, the error pulses) are "(top level)". The total is Yosys'
count; nextpnr's packed TRELLIS_COMB is a few hundred higher (pass-through LUTs).
"""
import argparse
import collections
import json
import re
import signal
import sys

SITES = {"LUT4": 1, "CCU2C": 2, "TRELLIS_DPR16X4": 6}
OTHERS = ("TRELLIS_FF", "DP16KD")


def block_of(cell_name, depth):
    parts = [re.sub(r"\[\d+\]", "[*]", p) for p in cell_name.split(".")[:-1]]
    return ".".join(parts[:depth]) if parts else "(top level)"


def breakdown(netlist, depth):
    """{block: Counter(sites=..., TRELLIS_FF=..., DP16KD=...)} of the netlist's top module."""
    tops = [m for m, v in netlist["modules"].items() if v.get("attributes", {}).get("top")]
    if len(tops) != 1:
        sys.exit("breakdown.py: the netlist has no single top module")
    blocks = collections.defaultdict(collections.Counter)
    for name, cell in netlist["modules"][tops[0]]["cells"].items():
        kind = cell["type"]
        if kind in SITES:
            blocks[block_of(name, depth)]["sites"] += SITES[kind]
        elif kind in OTHERS:
            blocks[block_of(name, depth)][kind] += 1
    return blocks


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)   # `| head` ends the listing quietly
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("netlist", help="a synth_ecp5 netlist (write_json)")
    ap.add_argument("--depth", type=int, default=2, help="levels of the instance path kept (default 2)")
    args = ap.parse_args()
    with open(args.netlist) as f:
        blocks = breakdown(json.load(f), args.depth)
    total = collections.Counter()
    print(f"{'block':44s} {'LUT4 sites':>10s} {'FF':>7s} {'DP16KD':>7s}")
    for name, c in sorted(blocks.items(), key=lambda kv: -kv[1]["sites"]):
        print(f"{name:44s} {c['sites']:10d} {c['TRELLIS_FF']:7d} {c['DP16KD']:7d}")
        total.update(c)
    print(f"{'total':44s} {total['sites']:10d} {total['TRELLIS_FF']:7d} {total['DP16KD']:7d}")


if __name__ == "__main__":
    main()
