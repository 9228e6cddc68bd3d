#!/usr/bin/env python3
"""canopy benchmarks: run every measurement, print a table, write build/bench/results.json.

    python3 tools/bench.py [--skip-fpga] [--only BENCH]

Each measurement is a scenario of a simulator build (`canopy-fabric <scenario>`) that
prints one JSON record per line; FPGA figures come from `make synth`'s parsed nextpnr
report. Cycle counts are deterministic (seeded traffic, cycle-accurate simulation); only
`sim-speed` (wall-clock) and place-and-route figures depend on the machine or the tools.
Benchmarks measure; they never fail on a slow number.
"""
import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "build", "bench", "results.json")

# (bench, torus, scenario, extra args)
RUNS = [
    ("hop-latency", "3x3", "latency", []),
    ("hop-latency", "4x4x4", "latency", []),
    ("saturation", "3x3", "saturation", []),
    ("saturation", "4x4", "saturation", []),
    ("saturation", "4x4x4", "saturation", []),
    ("sim-speed", "3x3", "speed", ["--cycles", "50000"]),
    ("sim-speed", "4x4x4", "speed", ["--cycles", "5000"]),
]


def sh(cmd):
    return subprocess.run(cmd, shell=True, cwd=ROOT, check=True, stdout=subprocess.PIPE,
                          text=True).stdout


def fabric_records(torus, scenario, extra):
    binary = f"build/sim/{torus}-L1/canopy-fabric"
    sh(f"make --no-print-directory {binary} TORUS={torus} LINK_LATENCY=1 >&2")
    out = sh(" ".join([binary, scenario] + extra))
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def put_records(torus):
    """Host-to-host puts through libcanopy on the co-simulation (driver/examples/put_bench.c)."""
    nodes = 1
    for k in torus.split("x"):
        nodes *= int(k)
    sh(f"make --no-print-directory build/driver/examples/put_bench build/cosim/{torus}-L1/canopy-cosim "
       f"TORUS={torus} >&2")
    out = sh(f"sim/canopy-run -n {nodes} --torus {torus} build/driver/examples/put_bench")
    records = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    for r in records:
        r["topology"] = torus
    return records


def fpga_records():
    sh("make --no-print-directory synth >&2")
    with open(os.path.join(ROOT, "build", "synth", "report.json")) as f:
        return [json.load(f)]


def table(records):
    cols = {
        "hop-latency": ["cycles_per_hop", "base_cycles", "max_hops"],
        "saturation": ["accepted_flits_per_node_cycle", "bound", "fraction_of_bound"],
        "sim-speed": ["sim_cycles_per_s", "node_cycles_per_s"],
        "fpga-ecp5": ["fmax_mhz", "target_mhz", "luts", "ffs", "brams"],
        "put": ["bytes", "cycles", "link_bytes_per_cycle"],
    }
    lines = []
    for r in records:
        figs = ", ".join(f"{k} {r[k]}" for k in cols.get(r["bench"], []) if k in r)
        lines.append(f"{r['bench']:<12} {r['topology']:<7} {r['nodes']:>4} nodes  {figs}")
    return "\n".join(lines)


def merge(new):
    """Replace records of the benches just run, keep the others (later benches add theirs)."""
    old = []
    if os.path.exists(OUT):
        with open(OUT) as f:
            old = json.load(f)
    ran = {(r["bench"], r["topology"]) for r in new}
    return [r for r in old if (r["bench"], r["topology"]) not in ran] + new


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--skip-fpga", action="store_true", help="skip synthesis and place and route")
    ap.add_argument("--only", default="", help="run only benches whose name contains this")
    args = ap.parse_args()

    records = []
    for bench, torus, scenario, extra in RUNS:
        if args.only in bench:
            records += fabric_records(torus, scenario, extra)
    if args.only in "put":
        records += put_records("3x3")
    if not args.skip_fpga and args.only in "fpga-ecp5":
        records += fpga_records()

    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    merged = merge(records)
    with open(OUT, "w") as f:
        json.dump(merged, f, indent=1)
        f.write("\n")
    print(table(records))
    print(f"\nwrote {len(merged)} records to {os.path.relpath(OUT, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
