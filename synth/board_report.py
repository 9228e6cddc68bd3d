#!/usr/bin/env python3
"""synth/board_report.py: the `make bitstream` record (bench "board"), from the tools' outputs.

    synth/board_report.py --dir build/board/ecp5-evn/2x2 --board ecp5-evn --device LFE5UM5G-85F \
        --clock-hz 48000000 --baud 12000000 --seed 1 --pnr-options "..." --out report.json
    synth/board_report.py --check report.json      exit 1 unless timing is met at the core clock
    synth/board_report.py --summary report.json    a few lines

Reads, from --dir: board.json (the netlist: top and parameters), yosys-stat.json (ECP5
primitive counts), nextpnr-report.json (Fmax per clock against its constraint, device
utilisation, critical path), nextpnr.log and yosys.log (run times), canopy-<board>.bit.
The core clock is the one nextpnr derived from the PLL (the clock whose constraint is
--clock-hz); the board's oscillator clock is reported beside it. Every number comes from
those files; what they do not give is null.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report as synth_report  # noqa: E402  (synth/report.py: the shared parsers)


def core_clock(pnr, hz):
    """(name, {achieved, constraint}) of the clock constrained at hz, or (None, {})."""
    best = None
    for name, c in (pnr.get("fmax") or {}).items():
        if c.get("constraint") is not None and abs(c["constraint"] - hz / 1e6) < 0.01:
            best = (name, c)
    return best or (None, {})


def build(a):
    d = a.dir
    netlist = synth_report.load(os.path.join(d, "board.json"))
    stat = synth_report.load(os.path.join(d, "yosys-stat.json"))
    pnr = synth_report.load(os.path.join(d, "nextpnr-report.json"))
    top, params = synth_report.top_params(netlist)
    util = pnr.get("utilization", {})
    used = lambda bel: util.get(bel, {}).get("used")
    avail = lambda bel: util.get(bel, {}).get("available")
    name, clk = core_clock(pnr, a.clock_hz)
    achieved, target = clk.get("achieved"), clk.get("constraint")
    cells, _ = synth_report.cells_by_type(stat)
    bit = os.path.join(d, f"canopy-{a.board}.bit")
    sx, sy = params.get("SizeX"), params.get("SizeY")
    pnr_log = os.path.join(d, "nextpnr.log")
    return {
        "bench": "board",
        "board": a.board,
        "module": top,
        "topology": f"{sx}x{sy}" if sx and sy else None,
        "nodes": sx * sy if sx and sy else None,
        "device": a.device,
        "params": params,
        "clock_net": name,
        "target_mhz": round(target, 2) if target is not None else None,
        "fmax_mhz": round(achieved, 2) if achieved is not None else None,
        "timing_met": (achieved >= target) if achieved is not None and target else None,
        "other_clocks": {k: {kk: round(vv, 2) for kk, vv in v.items()} for k, v in (pnr.get("fmax") or {}).items()
                         if k != name},
        "baud": a.baud,
        "seed": a.seed,
        "pnr_options": a.pnr_options,
        "luts": used("TRELLIS_COMB"),
        "luts_available": avail("TRELLIS_COMB"),
        "ffs": used("TRELLIS_FF"),
        "brams": used("DP16KD"),
        "brams_available": avail("DP16KD"),
        "plls": used("EHXPLLL"),
        "dsps": used("MULT18X18D"),
        "ios": used("TRELLIS_IO"),
        "lutram": cells.get("TRELLIS_DPR16X4"),
        "utilization": {k: v for k, v in sorted(util.items()) if v.get("used")},
        "yosys_ecp5_cells": {k: v for k, v in sorted(cells.items()) if k != "$scopeinfo"},
        "critical_path": synth_report.critical_path(pnr),
        "bitstream_bytes": os.path.getsize(bit) if os.path.exists(bit) else None,
        "tool_seconds": {
            "yosys": synth_report.log_seconds(os.path.join(d, "yosys.log"), [r"End of script\..*?, time: ([0-9.]+)s"]),
            "nextpnr_place": synth_report.log_seconds(pnr_log, [r"Placement time ([0-9.]+)s", r"HeAP Placer Time: ([0-9.]+)s"]),
            "nextpnr_route": synth_report.log_seconds(pnr_log, [r"Routing complete.*?([0-9.]+)s", r"Router1 time ([0-9.]+)s"]),
        },
        "yosys": synth_report.yosys_version(netlist.get("creator", "")),
        "nextpnr": synth_report.nextpnr_version(),
    }


def summary(r):
    met = "met" if r.get("timing_met") else "NOT met"
    print(f"board {r['board']} ({r['module']}, {r['topology']} torus, {r['device']}): "
          f"core clock {r['target_mhz']} MHz, Fmax {r['fmax_mhz']} MHz ({met}), seed {r['seed']}")
    print(f"  LUT4 {r['luts']} of {r['luts_available']}, FF {r['ffs']}, DP16KD {r['brams']} of {r['brams_available']}, "
          f"EHXPLLL {r['plls']}, bitstream {r['bitstream_bytes']} bytes")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dir")
    ap.add_argument("--board")
    ap.add_argument("--device")
    ap.add_argument("--clock-hz", type=int)
    ap.add_argument("--baud", type=int)
    ap.add_argument("--seed", type=int)
    ap.add_argument("--pnr-options", default="")
    ap.add_argument("--out")
    ap.add_argument("--check")
    ap.add_argument("--summary")
    a = ap.parse_args()
    if a.summary:
        summary(synth_report.load(a.summary))
        return 0
    if a.check:
        r = synth_report.load(a.check)
        if not r.get("timing_met"):
            print(f"board_report: timing NOT met: core clock {r.get('clock_net')} reaches {r.get('fmax_mhz')} MHz "
                  f"against {r.get('target_mhz')} MHz (lower BOARD_CLOCK_HZ and the PLL dividers in rtl/board/"
                  f"{r.get('board')}.mk, or try another BOARD_SEED)", file=sys.stderr)
            return 1
        return 0
    rec = build(a)
    with open(a.out, "w") as f:
        json.dump(rec, f, indent=1)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
