#!/usr/bin/env python3
"""shmem_demo.py: `make demo`. Runs the OpenSHMEM demonstration on a simulated 3x3 torus
twice, with the collectives in the routers and then in software, and compares them.

    python3 tools/shmem_demo.py [--torus 3x3] [--binary build/shmem/examples/shmem_demo]

The program (shmem/examples/shmem_demo.c) verifies every result on every PE and prints one
JSON record per operation; this script prints both runs, a hardware-against-software
table, and writes the plot build/demo/shmem-demo.png. It fails if either run fails.
"""
import argparse
import json
import math
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PLOT = os.path.join("build", "demo", "shmem-demo.png")


def run(cmd, env=None):
    """Run the demo under oshrun: echo its readable lines, return its JSON records."""
    p = subprocess.run(cmd, cwd=ROOT, env=env, text=True, stdout=subprocess.PIPE)
    records = []
    for line in p.stdout.splitlines():
        if line.startswith("{"):
            records.append(json.loads(line))
        else:
            print(line)
    if p.returncode != 0:
        sys.exit(f"shmem_demo: the run failed (exit {p.returncode}): {' '.join(cmd)}")
    return records


def plot(hw, sw, torus):
    subprocess.run(["tools/ensure-deps.sh", "plot"], cwd=ROOT, check=True)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    names = [r["demo"] for r in hw]
    x = range(len(names))
    fig, ax = plt.subplots(figsize=(6.4, 3.4))
    ax.bar([i - 0.2 for i in x], [r["cycles"] for r in sw], 0.4, label="software (puts)")
    ax.bar([i + 0.2 for i in x], [r["cycles"] for r in hw], 0.4, label="canopy routers")
    ax.set_xticks(list(x))
    ax.set_xticklabels(names)
    ax.set_ylabel("cycles (slowest PE)")
    ax.set_title(f"OpenSHMEM collectives on a simulated {torus} torus")
    ax.legend()
    fig.tight_layout()
    os.makedirs(os.path.dirname(os.path.join(ROOT, PLOT)), exist_ok=True)
    fig.savefig(os.path.join(ROOT, PLOT), dpi=110)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--torus", default="3x3")
    ap.add_argument("--binary", default="build/shmem/examples/shmem_demo")
    a = ap.parse_args()
    nodes = math.prod(int(k) for k in a.torus.split("x"))
    cmd = ["shmem/oshrun", "-n", str(nodes), "--torus", a.torus, a.binary]
    env = dict(os.environ, CANOPY_SHMEM_STATS="1")
    env.pop("CANOPY_SHMEM_HW", None)
    hw = run(cmd, env)
    print()
    sw = run(cmd, dict(env, CANOPY_SHMEM_HW="0"))
    by_sw = {r["demo"]: r for r in sw}
    print(f"\nhardware against software, {nodes} PEs on a {a.torus} torus (cycles of the slowest PE):\n")
    print(f"  {'operation':<10} {'bytes':>6} {'software':>9} {'routers':>9} {'speedup':>8}")
    for r in hw:
        s = by_sw[r["demo"]]
        print(f"  {r['demo']:<10} {r['bytes']:>6} {s['cycles']:>9} {r['cycles']:>9} "
              f"{s['cycles'] / r['cycles']:>7.2f}x")
    plot(hw, sw, a.torus)
    print(f"\nplot: {PLOT}")


if __name__ == "__main__":
    main()
