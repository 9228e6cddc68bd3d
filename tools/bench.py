#!/usr/bin/env python3
"""canopy benchmarks: run every measurement, print a table, write build/bench/results.json.

    python3 tools/bench.py [--skip-fpga] [--only BENCH] [--torus 3x3]     (BENCH e.g. board: make bitstream's record)

Each measurement is a scenario of a simulator build (`canopy-fabric <scenario>`) that
prints one JSON record per line; FPGA figures come from `make synth`'s parsed nextpnr
report; `fm-scale` is a host program (build/fw/fm_scale_bench: the fabric manager's trees
up to 16x16x16x4). Cycle counts are deterministic (seeded traffic, cycle-accurate
simulation); only `sim-speed` and `fm-scale` (wall-clock) and place-and-route figures depend
on the machine or the tools.
Benchmarks measure; they never fail on a slow number.
The last step, `model` (alone: --only model), fits the cost model (tools/cost_model.py)
to the merged records and adds its "model" records; it simulates nothing.

`--docs-only` renders the tables and plots of docs/perf.md from the records and publishes
those records as docs/perf-results.json; a later partial run on a fresh checkout starts
from that file, so only what it measures changes.
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys

import cost_model  # tools/cost_model.py, beside this file

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "build", "bench", "results.json")
# The records docs/perf.md was last rendered from, committed beside it: a partial run
# (--only, --torus) on a fresh checkout merges into these, so the tables it does not
# measure keep their published figures instead of disappearing.
PUBLISHED = os.path.join(ROOT, "docs", "perf-results.json")

# (bench, torus, scenario, extra args)
RUNS = [
    ("hop-latency", "3x3", "latency", []),
    ("hop-latency", "4x4x4", "latency", []),
    ("saturation", "3x3", "saturation", []),
    ("saturation", "4x4", "saturation", []),
    ("saturation", "4x4x4", "saturation", []),
]
# Simulation speed (wall clock): per torus, the cycles run; each build (plain, and
# profile-guided: sim/sim.mk SIM_PGO) at 1 and 2 threads, the median of SPEED_REPS runs.
SPEED_RUNS = [("3x3", 50000), ("4x4x4", 5000), ("8x8x8", 2000)]
SPEED_REPS = 3


def sh(cmd):
    return subprocess.run(cmd, shell=True, cwd=ROOT, check=True, stdout=subprocess.PIPE,
                          text=True).stdout


def fabric_records(torus, scenario, extra, config="L1"):
    binary = f"build/sim/{torus}-{config}/canopy-fabric"
    sh(f"make --no-print-directory {binary} TORUS={torus} LINK_LATENCY=1 >&2")
    out = sh(" ".join([binary, scenario] + extra))
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def speed_records(torus, cycles):
    """sim-speed of the plain and the profile-guided fabric build, 1 and 2 threads: each the
    median of SPEED_REPS runs (a wall-clock figure on a shared machine varies run to run)."""
    records = []
    for build, config in (("plain", "L1"), ("pgo", "L1-pgo")):
        for threads in (1, 2):
            runs = [fabric_records(torus, "speed", ["--cycles", str(cycles), "--threads", str(threads)], config)[0]
                    for _ in range(SPEED_REPS)]
            runs.sort(key=lambda r: r["sim_cycles_per_s"])
            r = runs[len(runs) // 2]
            r.update(build=build, runs=SPEED_REPS,
                     runs_cycles_per_s=[x["sim_cycles_per_s"] for x in runs])
            records.append(r)
    return records


def example_records(torus, example):
    """The JSON records a driver/examples program prints on the co-simulation of torus."""
    nodes = math.prod(int(k) for k in torus.split("x"))
    sh(f"make --no-print-directory build/driver/examples/{example} build/cosim/{torus}-L1/canopy-cosim "
       f"TORUS={torus} >&2")
    out = sh(f"sim/canopy-run -n {nodes} --torus {torus} build/driver/examples/{example}")
    records = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    for r in records:
        r["topology"] = torus
    return records


def model_of(launcher, torus):
    """The model a simulator's launcher runs (sim/sim.mk: `make print-model`)."""
    return sh(f"make -s --no-print-directory print-model LAUNCHER={launcher} TORUS={torus}").strip()


def build_records(torus):
    """Wall time of building each simulator for torus from clean (sim/sim.mk): the model is
    one node's tile, so the build does not grow with the torus. What is removed first is the
    launcher's directory and its model's (build/<sim|cosim>/model/..., which every torus of
    that dimension count shares): the model is what takes the time."""
    import shutil
    import time
    nodes = math.prod(int(k) for k in torus.split("x"))
    records = []
    for target, path in (("canopy-fabric", f"build/sim/{torus}-L1"), ("canopy-fabric", f"build/sim/{torus}-L1-pgo"),
                         ("canopy-cosim", f"build/cosim/{torus}-L1")):
        for d in (path, os.path.dirname(model_of(os.path.join(path, target), torus))):
            shutil.rmtree(os.path.join(ROOT, d), ignore_errors=True)
        start = time.monotonic()
        sh(f"make --no-print-directory {path}/{target} TORUS={torus} LINK_LATENCY=1 >&2")
        if path.endswith("-pgo"):
            target += "-pgo"   # the profile-guided build: instrumented build, training, final build
        records.append({"bench": "sim-build", "topology": torus, "nodes": nodes, "top": target,
                        "compile_s": round(time.monotonic() - start, 1), "jobs": 2})
    return records


def put_records(torus):
    """Host-to-host puts through libcanopy, ping-pong (driver/examples/put_bench.c)."""
    return example_records(torus, "put_bench")


def get_records(torus):
    """One-sided gets against acknowledged puts, PE 0 and its neighbour PE 1
    (driver/examples/get_bench.c): get+quiet and put+quiet per size, and a 1 MiB stream."""
    return example_records(torus, "get_bench")


def amo_records(torus):
    """Remote atomics (driver/examples/amo_bench.c): fetch-add latency to node 0 itself, a
    neighbour and the farthest node, hardware (the target's AMO unit) and software (the
    target's processor polling); contended throughput on one counter at the centre node
    (every node, blocking fetch-adds and non-blocking adds; software: the centre serves the
    others), and every node on its own neighbour."""
    return example_records(torus, "amo_bench")


BCAST_IMPLS = ["sw-binomial", "sw-scatter-allgather", "sw-chain", "hw"]
# (torus, extra bcast_bench args). On 3x3 one sw impl (default sizes 8 B..256 KiB, 3
# repetitions below 64 KiB) takes a few seconds of wall clock. On 4x4x4 one repetition per
# size: about 2-3 min per sw impl, 8 min for the whole 4x4x4 step.
# (torus, extra args, implementations, with the per-hop latency runs). On 8x8x8 (512
# nodes; each run 30-50 min of co-simulation on 2 cores) only the hardware and the
# binomial tree: the binomial is the best software at 8 bytes on every torus measured (the
# ring-based algorithms' small-message cost grows with the node count: on 4x4x4 they are
# 10x slower), and the issue's 32 KiB figure is against it.
BCAST_RUNS = [
    ("3x3", [], BCAST_IMPLS, True),
    ("4x4x4", ["--reps", "1"], BCAST_IMPLS, True),
    ("8x8x8", ["--reps", "1", "--sizes", "8,4096,32768"], ("hw", "sw-binomial"), False),
]


def bcast_binary():
    """driver/examples/bcast_bench: all implementations (driver.mk links the fabric manager)."""
    sh("make --no-print-directory build/driver/examples/bcast_bench >&2")
    return "build/driver/examples/bcast_bench"


def bcast_records(torus, extra, impls=BCAST_IMPLS, hop_latency=True):
    """Broadcast time, software over puts and the hardware (driver/examples/bcast_bench.c)."""
    nodes = 1
    for k in torus.split("x"):
        nodes *= int(k)
    prog = bcast_binary()
    sh(f"make --no-print-directory build/cosim/{torus}-L1/canopy-cosim TORUS={torus} >&2")
    records = []
    runs = [["--impl", impl] + extra for impl in impls]
    # Zero-load latency per hop of the hardware broadcast and, for scale, of the binomial.
    if hop_latency:
        runs += [["--impl", impl, "--hop-latency", "1"] for impl in ("hw", "sw-binomial")]
    for args in runs:
        out = sh(" ".join([f"sim/canopy-run -n {nodes} --torus {torus}", prog] + args))
        for line in out.splitlines():
            if line.startswith("{"):
                r = json.loads(line)
                r["topology"] = torus
                records.append(r)
    return records


# Reduce, allreduce and barrier (driver/examples/reduce_bench.c): (bench, impl, extra args).
# Integers (i64) summed. The hardware reduce and allreduce run as libcanopy runs them on a
# striped tree: their chunks spread over STRIPE trees ("trees" in the record; "{stripe}"
# below becomes stripe_trees(torus)); allreduces also at 256 KiB.
ALLREDUCE_SIZES = ["--sizes", "8,64,256,2048,16384,262144"]
REDUCE_CASES = [
    ("reduce", "sw-binomial", []),
    ("reduce", "hw", ["--stripe", "{stripe}"]),
    ("allreduce", "sw-binomial", ALLREDUCE_SIZES),
    ("allreduce", "sw-recursive-doubling", ALLREDUCE_SIZES),
    ("allreduce", "sw-ring", ALLREDUCE_SIZES),
    ("allreduce", "hw", ["--stripe", "{stripe}"] + ALLREDUCE_SIZES),
    ("barrier", "sw-dissemination", []),
    ("barrier", "hw", []),
    ("allreduce", "sw-binomial", ["--inflight", "32"]),
    ("allreduce", "hw", ["--inflight", "32"]),
    ("reduce", "hw", ["--hop-latency", "1"]),  # prints "reduce-hop-latency"
]
# What striping gives, at 16 KiB: the hardware allreduce over 1 tree and over stripes of
# several (bench "allreduce-stripe").
STRIPE_SWEEP_BYTES = 16384


def stripe_trees(torus):
    """The stripe the hardware reduces run on: one tree per node, at most libcanopy's 16."""
    return min(math.prod(int(k) for k in torus.split("x")), 16)


def stripe_sweep(torus):
    n = stripe_trees(torus)
    return sorted({1, max(2, n // 4), n} if n > 1 else {1})
REDUCE_IMPLS = ["sw-binomial", "sw-recursive-doubling", "sw-ring", "sw-dissemination", "hw"]
# (torus, extra reduce_bench args). On 3x3 the software cases (default sizes 8 B..16 KiB,
# 3 repetitions) take about half a minute in all; on 4x4x4 one repetition.
# On 8x8x8 (512 PEs, 30-60 min of co-simulation per implementation on 2 cores) only the
# allreduce, at 8 B, 4 KiB and 32 KiB, striped hardware against the two software
# algorithms with log P rounds: the ring's 2(P-1) = 1,022 steps cost about a put latency
# each, so on 512 nodes it loses to recursive doubling at every size measured (on 4x4x4 it
# already does up to 16 KiB), and would take hours to simulate.
ALLREDUCE_8X8X8_SIZES = ["--sizes", "8,4096,32768"]
REDUCE_CASES_LARGE = [
    ("allreduce", "hw", ["--stripe", "{stripe}"] + ALLREDUCE_8X8X8_SIZES),
    ("allreduce", "sw-recursive-doubling", ALLREDUCE_8X8X8_SIZES),
    ("allreduce", "sw-binomial", ALLREDUCE_8X8X8_SIZES),
]
# (torus, extra args, cases, with the striping sweep)
REDUCE_RUNS = [
    ("3x3", [], REDUCE_CASES, True),
    ("4x4x4", ["--reps", "1"], REDUCE_CASES, True),
    ("8x8x8", ["--reps", "1"], REDUCE_CASES_LARGE, False),
]


def reduce_binary():
    """driver/examples/reduce_bench (driver.mk links the fabric manager)."""
    sh("make --no-print-directory build/driver/examples/reduce_bench >&2")
    return "build/driver/examples/reduce_bench"


def reduce_records(torus, extra, cases=REDUCE_CASES, sweep=True):
    """Reduce, allreduce, barrier and 32 allreduces in flight, software over puts and the
    hardware (cases: REDUCE_CASES or a subset; sweep: the allreduce-stripe runs too)."""
    nodes = 1
    for k in torus.split("x"):
        nodes *= int(k)
    cosim = f"build/cosim/{torus}-L1/canopy-cosim"
    prog = reduce_binary()
    sh(f"make --no-print-directory {cosim} TORUS={torus} >&2")
    records = []
    runs = [(bench, impl, [a.replace("{stripe}", str(stripe_trees(torus))) for a in case_extra], bench)
            for bench, impl, case_extra in cases]
    if sweep:
        runs += [("allreduce", "hw", ["--stripe", str(t), "--sizes", str(STRIPE_SWEEP_BYTES)], "allreduce-stripe")
                 for t in stripe_sweep(torus)]
    for bench, impl, case_extra, name in runs:
        args = ["--bench", bench, "--impl", impl] + case_extra + extra  # (barrier, inflight: no sizes)
        out = sh(" ".join([f"sim/canopy-run -n {nodes} --torus {torus}", prog] + args))
        for line in out.splitlines():
            if line.startswith("{"):
                r = json.loads(line)
                r["topology"] = torus
                if r["bench"] == bench:
                    r["bench"] = name
                records.append(r)
    return records


# OpenSHMEM collectives, OSU style (shmem/examples/shmem_coll_bench.c): the same program
# with the collectives in the routers ("hw") and with CANOPY_SHMEM_HW=0 ("sw": the library's
# software algorithms over puts), on each torus. (torus, extra args).
# On 64 PEs the software algorithms are slow to simulate (a software broadcast of 256 KiB
# is 63 puts of it from the root: millions of cycles per call), so 4x4x4 runs one timed
# call per size and stops at 32 KiB (broadcast) and 512 B (collect, per PE).
SHMEM_BENCHES = ["bcast", "reduce", "barrier", "collect", "alltoall"]
SHMEM_RUNS = [
    ("3x3", {}),
    ("4x4x4", {"all": ["--iters", "1"], "bcast": ["--sizes", "8,512,4096,32768"], "collect": ["--sizes", "8,64,512"],
               "alltoall": ["--sizes", "8,64,512"]}),
]


def shmem_records(torus, extra):
    nodes = math.prod(int(k) for k in torus.split("x"))
    sh("make --no-print-directory build/shmem/examples/shmem_coll_bench >&2")
    sh(f"make --no-print-directory build/cosim/{torus}-L1/canopy-cosim TORUS={torus} >&2")
    records = []
    for bench in SHMEM_BENCHES:
        for env in ("", "CANOPY_SHMEM_HW=0 "):
            args = ["--bench", bench] + extra.get("all", []) + extra.get(bench, [])
            out = sh(f"{env}shmem/oshrun -n {nodes} --torus {torus} build/shmem/examples/shmem_coll_bench "
                     + " ".join(args))
            for line in out.splitlines():
                if line.startswith("{"):
                    r = json.loads(line)
                    r["topology"] = torus
                    records.append(r)
    return records


def shmem_docs(recs):
    """Per torus: each SHMEM collective's cycles with the routers and in software."""
    L = []
    for torus in tori_order(recs):
        rs = [r for r in recs if r["topology"] == torus]
        cyc = {(r["bench"], r["impl"], r["bytes"]): r["cycles"] for r in rs}
        L += ["", f"### OpenSHMEM collectives (`make bench`, OSU style, co-simulation, {torus}, "
              f"{rs[0]['nodes']} PEs)", "",
              "shmem/examples/shmem_coll_bench.c, an ordinary SHMEM program on SHMEM_TEAM_WORLD: per call, the "
              "slowest PE's average cycles from entering to returning (between barriers). hw: the library's "
              "default, collectives in the routers where a tree can express them; sw: CANOPY_SHMEM_HW=0, the "
              "library's software algorithms over puts. Broadcast: root 0, `shmem_broadcastmem`; reduce: "
              "`shmem_long_sum_reduce`; collect: `shmem_long_fcollect`, bytes per PE; alltoall: "
              "`shmem_long_alltoall`, bytes per PE and destination (data by puts either way: hw runs its two "
              "syncs in the routers).", "",
              "| bench | bytes | sw | hw | hw speedup |", "|---|---|---|---|---|"]
        for bench in ("shmem-bcast", "shmem-reduce", "shmem-barrier", "shmem-collect", "shmem-alltoall"):
            for n in sorted({r["bytes"] for r in rs if r["bench"] == bench}):
                sw, hw = cyc.get((bench, "sw", n)), cyc.get((bench, "hw", n))
                L.append(f"| {bench} | {n} | {sw if sw is not None else '-'} | {hw if hw is not None else '-'} | "
                         + (f"{sw / hw:.2f}x" if sw and hw else "-") + " |")
    if recs:
        L += ["", "![OpenSHMEM collectives](img/shmem.png)"]
    return L


def plot_shmem(records):
    recs = [r for r in records if r["bench"].startswith("shmem-")]
    if not recs:
        return
    subprocess.run(["tools/ensure-deps.sh", "plot"], cwd=ROOT, check=True)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    benches = [b for b in ("shmem-bcast", "shmem-reduce", "shmem-collect") if any(r["bench"] == b for r in recs)]
    fig, ax = plt.subplots(1, len(benches), figsize=(4.2 * len(benches), 3.6), squeeze=False)
    styles = ["-", "--", ":", "-."]
    for k, bench in enumerate(benches):
        for t, torus in enumerate(tori_order(recs)):
            for impl, color in (("sw", "C0"), ("hw", "C3")):
                rs = sorted((r for r in recs if r["bench"] == bench and r["topology"] == torus and r["impl"] == impl),
                            key=lambda r: r["bytes"])
                if rs:
                    ax[0][k].loglog([r["bytes"] for r in rs], [r["cycles"] for r in rs], "o" + styles[t % 4],
                                    color=color, label=f"{impl}, {torus}")
        ax[0][k].set(xlabel="bytes" + (" per PE" if bench == "shmem-collect" else ""), ylabel="cycles",
                     title=bench)
        ax[0][k].grid(True, which="both", alpha=0.3)
        ax[0][k].legend(fontsize=8)
    fig.tight_layout()
    os.makedirs(os.path.join(ROOT, "docs", "img"), exist_ok=True)
    fig.savefig(os.path.join(ROOT, "docs", "img", "shmem.png"), dpi=110)


# Protected links (rtl/link/, docs/link.md), at each bit error rate of the wire: one link
# streaming both ways (canopy-link: goodput against the raw link rate, every flit
# scoreboarded), and the 3x3 torus with every link protected: the router fabric under
# uniform traffic (its scoreboard checks every packet byte for byte) and the
# co-simulation running the driver's broadcast and reduce tests (each checks every byte it
# receives against what was sent). A run that loses, duplicates or corrupts anything stops
# the benchmark: that is a bug, not a figure.
LINK_BERS = [0, 1e-9, 1e-7, 1e-6, 1e-5]
LINK_STREAM_FLITS = 1_000_000     # per direction
LINK_FABRIC_FLITS = 1_000_000
LINK_STATS = re.compile(r"links: (\d+) bits flipped, (\d+) words hit, (\d+) dropped; (\d+) flits delivered, "
                        r"(\d+) frames or control words refused, (\d+) replays; (\d+) link ends down, "
                        r"(\d+) flits dropped by them")


def link_stats(text):
    m = LINK_STATS.search(text)
    if not m:
        raise RuntimeError(f"no link statistics in:\n{text}")
    keys = ("bits_flipped", "words_hit", "words_dropped", "link_flits", "refused", "replays", "links_down",
            "dead_link_drops")
    return dict(zip(keys, (int(g) for g in m.groups())))


def link_records():
    records = []
    sh("make --no-print-directory link-sim >&2")
    for ber in LINK_BERS:
        r = json.loads(sh(f"build/link/canopy-link --flits {LINK_STREAM_FLITS} --ber {ber} --ev-rate 0"))
        if not r["ok"]:
            raise RuntimeError(f"canopy-link at BER {ber} failed: {r}")
        records.append({"bench": "link-ber", "topology": "link", "nodes": 2, "traffic": "stream, both ways",
                        "ber": ber, "flits": r["flits"], "cycles": r["cycles"],
                        "goodput_fraction": r["goodput_fraction"],
                        "bits_flipped": r["bits_flipped"], "refused": r["crc_errors"], "replays": r["replays"],
                        "timeouts": r["timeouts"], "lost_bytes": r["lost_bytes"],
                        "duplicated_bytes": r["duplicated_bytes"], "corrupted_bytes": r["corrupted_bytes"]})
    # A wire that dies under full traffic: how long each end takes to declare the link down,
    # and what it did with the traffic that kept coming.
    r = json.loads(sh("build/link/canopy-link --flits 100000 --dead-at 20000 --drain-limit 20000"))
    if not r["ok"]:
        raise RuntimeError(f"canopy-link with a dying wire failed: {r}")
    records.append({"bench": "dead-link", "topology": "link", "nodes": 2, "traffic": "stream, both ways",
                    "dead_at_cycle": r["dead_at"] - 1, "down_after_cycles": r["down_after"],
                    "flits_dropped_by_dead_link": r["link_drops"],
                    "credits_back": r["credits_back"], "flits_delivered_before": r["flits"],
                    "duplicated_bytes": r["duplicated_bytes"], "corrupted_bytes": r["corrupted_bytes"],
                    "collective": dead_link_collective()})
    binary = "build/sim/3x3-L1-prot/canopy-fabric"
    sh(f"make --no-print-directory {binary} TORUS=3x3 LINK_LATENCY=1 LINK_PROTECT=1 >&2")
    for ber in LINK_BERS[1:]:
        p = subprocess.run(f"{binary} uniform --flits {LINK_FABRIC_FLITS} --ber {ber}", shell=True, cwd=ROOT,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        m = re.search(r"PASS uniform on 3x3: (\d+) packets, (\d+) flits in (\d+) cycles", p.stdout)
        if p.returncode != 0 or not m:
            raise RuntimeError(f"protected 3x3 uniform at BER {ber} failed:\n{p.stdout}")
        records.append({"bench": "link-ber", "topology": "3x3", "nodes": 9, "traffic": "uniform", "ber": ber,
                        "packets": int(m.group(1)), "flits": int(m.group(2)), "cycles": int(m.group(3)),
                        **link_stats(p.stdout), "lost_bytes": 0, "duplicated_bytes": 0, "corrupted_bytes": 0})
    # What protection costs without errors: zero-load hop latency and saturation on 3x3,
    # protected against plain (the same scenarios as the hop-latency and saturation rows).
    plain = "build/sim/3x3-L1/canopy-fabric"
    sh(f"make --no-print-directory {plain} TORUS=3x3 LINK_LATENCY=1 >&2")
    for scenario, key in (("latency", "cycles_per_hop"), ("saturation", "accepted_flits_per_node_cycle")):
        prot = json.loads(sh(f"{binary} {scenario}").splitlines()[-1])
        base = json.loads(sh(f"{plain} {scenario}").splitlines()[-1])
        records.append({"bench": "link-cost", "topology": "3x3", "nodes": 9, "figure": prot["bench"],
                        "payload_bytes": prot["payload_bytes"], "protected": prot[key], "plain": base[key],
                        "unit": "cycles per hop" if scenario == "latency" else "flits per node per cycle"})
    sh("make --no-print-directory driver-tests-build build/cosim/3x3-L1-prot/canopy-cosim TORUS=3x3 "
       "LINK_LATENCY=1 LINK_PROTECT=1 >&2")
    for ber in LINK_BERS[1:]:
        for test in ("bcast", "reduce"):
            p = subprocess.run(f"sim/canopy-run -n 9 --torus 3x3 --link-protect --ber {ber} "
                               f"build/tests/driver/{test}", shell=True, cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if p.returncode != 0:
                raise RuntimeError(f"protected 3x3 {test} at BER {ber} failed:\n{p.stdout}")
            stats = link_stats(p.stdout)
            records.append({"bench": "link-ber", "topology": "3x3", "nodes": 9,
                            "traffic": f"driver {test} test (tests/driver/{test}.c)", "ber": ber,
                            "flits": stats["link_flits"], **stats,
                            "lost_bytes": 0, "duplicated_bytes": 0, "corrupted_bytes": 0})
    return records


def link_docs(recs):
    if not recs:
        return []
    L = ["", "### Protected links under bit errors (`make bench`, docs/link.md)", "",
         "Every link protected (CRC-32C per frame of up to 24 flits, go-back-N replay); the wire flips "
         "each bit, side band and idle cycles included, with the given probability. Lost, duplicated "
         "and corrupted bytes are counted end to end by each run's scoreboard (the driver tests check "
         "every byte they receive and fail on any difference); `flits` is what the traffic sent (one "
         "link: both directions; uniform: injected) or, for the driver tests, what crossed the "
         "protected links; `refused` counts frames and control words the links threw away, `replays` "
         "the go-back-N replays they started.", "",
         "| traffic | torus | BER | flits | goodput (of link) | bits flipped | refused | replays | lost / dup / corrupted bytes |",
         "|---|---|---|---|---|---|---|---|---|"]
    for r in sorted(recs, key=lambda r: (r["topology"] != "link", r["traffic"], r["ber"])):
        g = f"{r['goodput_fraction']:.3f}" if "goodput_fraction" in r else "-"
        L.append(f"| {r['traffic']} | {r['topology']} | {r['ber']:g} | {r.get('flits', '-')} | {g} | "
                 f"{r['bits_flipped']} | {r['refused']} | {r['replays']} | "
                 f"{r['lost_bytes']} / {r['duplicated_bytes']} / {r['corrupted_bytes']} |")
    return L


def link_cost_docs(recs):
    if not recs:
        return []
    L = ["", "### What protection costs without errors (3x3 router fabric, docs/link.md)", "",
         "| figure | payload | protected links | plain links |", "|---|---|---|---|"]
    for r in recs:
        L.append(f"| {r['figure']} ({r['unit']}) | {r['payload_bytes']} B | {r['protected']:.3f} | {r['plain']:.3f} |")
    return L


DEAD_LINK_RUN = ("sim/canopy-run -n 9 --torus 3x3 --link-protect --dead-link 0:1:60000 "
                 "build/tests/driver/coll_fail --dead 0:1:60000")


def dead_link_collective():
    """What a collective over a dead link returns: tests/driver/coll_fail.c case 4 on the
    3x3 co-simulation (link 0:1 dies at cycle 60,000; collective timeout 40 us): its line
    says how many nodes ended with CANOPY_ETREEDOWN within the timeout, and that the tree
    rebuilt around the link worked."""
    sh("make --no-print-directory build/tests/driver/coll_fail build/cosim/3x3-L1-prot/canopy-cosim "
       "TORUS=3x3 LINK_PROTECT=1 >&2")
    out = sh(DEAD_LINK_RUN)
    m = re.search(r"coll_fail: case 4: (.*)", out)
    if not m or "coll_fail: all passed" not in out:
        raise RuntimeError(f"coll_fail --dead failed:\n{out}")
    return "3x3 co-simulation, allreduce on a tree over link 0:1: " + m.group(1)


def dead_link_docs(recs):
    if not recs:
        return []
    L = ["", "### A link that dies (`make bench`, docs/link.md)", "",
         "| traffic | dies at cycle | down after (cycles, each end) | flits dropped by the dead link | "
         "credits back at the routers | dup / corrupted bytes | collectives |", "|---|---|---|---|---|---|---|"]
    for r in recs:
        L.append(f"| {r['traffic']} | {r['dead_at_cycle']} | {', '.join(str(c) for c in r['down_after_cycles'])} | "
                 f"{r['flits_dropped_by_dead_link']} | "
                 f"{'all' if r['credits_back'] else 'NOT all'} | {r['duplicated_bytes']} / {r['corrupted_bytes']} | "
                 f"{r['collective']} |")
    return L


def fm_scale_records():
    """The fabric manager at scale, host only (fw/bench/fm_scale_bench.c): shmem_init's trees
    (world tree and stride trees) on 3x3 up to 16x16x16x4, wall-clock times of root choice,
    build and checks, the table image's entries and the MMIO programming would take (cycles
    computed from the co-simulator's PCIe model, not measured). --old-roots also times the
    stride-root search shmem_init did before canopy_fm_best_root (about 20 s at 16,384 nodes)."""
    sh("make --no-print-directory build/fw/fm_scale_bench >&2")
    out = sh("build/fw/fm_scale_bench --old-roots")
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def fm_scale_docs(recs):
    """One row per torus: times (wall clock) and the programming counts."""
    if not recs:
        return []
    recs = sorted(recs, key=lambda r: r["nodes"])
    L = ["", "### Fabric manager at scale (`make bench`, host only; fw/bench/fm_scale_bench.c)", "",
         "The trees `shmem_init` builds: the world tree from the centre node and the stride trees "
         "(k = 1..7 for 129 nodes or more; members node % 2^k == 0, root by `canopy_fm_best_root`). "
         "Milliseconds of wall clock on this machine, best of "
         f"{recs[0].get('reps', 5)} (they vary with the machine and its load): build = choosing the stride roots "
         "and building every table; checks = `canopy_fm_verify` of every table and the ids against the router's "
         f"{recs[0].get('router_trees', 16)}; shmem_init = the fabric-manager calls every PE makes at init; "
         "old roots = the stride roots found the way shmem_init did before `canopy_fm_best_root` (a build from "
         "every member; one run; the same roots). Entries = routers x trees (valid: in a tree). Programming "
         "cycles are computed from the co-simulator's PCIe model (75-cycle posted MMIO write, 100 cycles each "
         "way per read), not measured: CSR = every node its own router, all at once (two writes and a read per "
         "entry); packets = node 0 sends every CONFIG packet (two MMIO writes, 32 bytes each), host side only.", "",
         "| torus | nodes | trees | build ms | checks ms | shmem_init ms | old roots ms | entries (valid) "
         "| CSR: cycles per router | packets: MMIO bytes | packets: cycles at node 0 |",
         "|---|---|---|---|---|---|---|---|---|---|---|"]

    def ms(v):
        return "-" if v is None else f"{v:.3f}" if v < 1 else f"{v:,.1f}" if v < 1000 else f"{v:,.0f}"

    for r in recs:
        L.append(f"| {r['topology']} | {r['nodes']} | {r['trees']} | {ms(r['build_ms'])} | {ms(r['check_ms'])} | "
                 f"{ms(r['shmem_init_ms'])} | {ms(r.get('old_roots_ms'))} | {r['entries']:,} ({r['valid_entries']:,}) | "
                 f"{r['csr_est_cycles']:,} | {r['pkt_mmio_bytes']:,} | {r['pkt_est_cycles']:,} |")
    return L


def model_records(records):
    """The cost model (tools/cost_model.py) fitted to the measured records: a "model"
    record per measured point (predicted, measured, relative error), predictions for
    16x16x16 and 16x16x16x4, and one "model-fit" record (the parameters). Simulates nothing."""
    try:
        params, _ = cost_model.fit(records)
    except ValueError as e:
        print(f"cost model: {e}", file=sys.stderr)
        return []
    recs = cost_model.model_records(records, params)
    return recs + [cost_model.fit_record(params, recs)]


def model_docs(recs, fit):
    """The cost model's parameters, how well it predicts the measured points, the points it
    misses, and its predictions for 16x16x16 and 16x16x16x4."""
    if not recs or not fit:
        return []
    measured = [r for r in recs if r["measured_cycles"] is not None]
    miss = sorted((r for r in measured if abs(r["rel_error"]) > 0.10), key=lambda r: -abs(r["rel_error"]))
    ok, n = fit["within_10pct"], fit["points"]
    d = cost_model.derived(fit["params"])
    L = ["", "### Cost model (`tools/cost_model.py`, fitted to the records above)", "",
         f"Predicted against measured for every broadcast, reduce, allreduce, barrier, broadcast hop-latency "
         f"and put record above: **{ok} of {n} points ({100 * ok / n:.0f}%) within 10%** of the measurement. One set "
         "of parameters, fitted by least squares on the relative error over all the points (robust: a point more "
         "than 10% off weighs less, so one the model does not explain cannot drag the others); `h_link` is the router "
         "fabric's measured hop latency, not fitted. The model's form and where it fails are under \"Reading the "
         "numbers\" below.", "",
         "| parameter | value | unit | stands for |", "|---|---|---|---|"]
    for name, unit, what in cost_model.PARAMS:
        L.append(f"| `{name}` | {fit['params'][name]:.4g} | {unit} | {what} |")
    L += ["", f"So a put streams {d['put_bytes_per_cycle']:.2f} bytes/cycle and the hardware broadcast "
          f"{d['bcast_bytes_per_cycle']:.2f}, against the link's {cost_model.LINK_BYTES}; a host interface that also "
          f"receives streams {d['contention_factor']:.2f} times slower.", ""]
    if miss:
        L += ["Points off by more than 10%:", "", "| bench | impl | torus | bytes | predicted | measured | error |",
              "|---|---|---|---|---|---|---|"]
        for r in miss:
            hop = r["of"] == "bcast-hop-latency"  # a slope: cycles per hop
            fig = (lambda v: f"{v:.2f} cycles/hop") if hop else (lambda v: f"{v:.0f}")
            L.append(f"| {r['of']} | {r['impl']} | {r['topology']} | {r['bytes']} | {fig(r['predicted_cycles'])} | "
                     f"{fig(r['measured_cycles'])} | {100 * r['rel_error']:+.1f}% |")
        L.append("")
    L += model_prediction_table([r for r in recs if r["measured_cycles"] is None])
    L += ["", "![cost model: predicted against measured](img/model.png)"]
    return L


def model_prediction_table(preds):
    """Per collective, torus and size: the hardware, the fastest software algorithm and the
    ratio, all predicted."""
    if not preds:
        return []
    L = ["Predictions (cycles) for tori not measured; best sw = the fastest software algorithm of the benchmarks "
         "at that size:", "", "| collective | torus | nodes | bytes | hw | best sw | best sw cycles | hw speedup |",
         "|---|---|---|---|---|---|---|---|"]
    keys = []
    for r in preds:
        if (r["of"], r["topology"], r["bytes"]) not in keys:
            keys.append((r["of"], r["topology"], r["bytes"]))
    for bench, torus, n in keys:
        rs = [r for r in preds if (r["of"], r["topology"], r["bytes"]) == (bench, torus, n)]
        hw = next((r["predicted_cycles"] for r in rs if r["impl"] == "hw"), None)
        best = min(((r["predicted_cycles"], r["impl"]) for r in rs if r["impl"] != "hw"), default=None)
        L.append(f"| {bench} | {torus} | {rs[0]['nodes']} | {n} | {hw:.0f} | {best[1] if best else '-'} | "
                 + (f"{best[0]:.0f} | {best[0] / hw:.1f}x |" if best and hw else "- | - |"))
    return L


def plot_model(records):
    """Predicted against measured cycles, log-log, with the 10% band."""
    recs = [r for r in records if r["bench"] == "model" and r["measured_cycles"] is not None
            and r["of"] != "bcast-hop-latency"]  # (cycles per hop: in the table, not on this scale)
    if not recs:
        return
    subprocess.run(["tools/ensure-deps.sh", "plot"], cwd=ROOT, check=True)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(5.6, 5.0))
    for k, bench in enumerate(("put", "bcast", "reduce", "allreduce", "barrier")):
        for impl, marker in (("hw", "o"), ("sw", "^")):
            rs = [r for r in recs if r["of"] == bench and (r["impl"] == "hw") == (impl == "hw")]
            if rs:
                ax.loglog([r["measured_cycles"] for r in rs], [r["predicted_cycles"] for r in rs], marker,
                          color=f"C{k}", alpha=0.8, label=bench if bench == "put" else f"{bench}, {impl}")
    lo = min(min(r["measured_cycles"], r["predicted_cycles"]) for r in recs) / 1.5
    hi = max(max(r["measured_cycles"], r["predicted_cycles"]) for r in recs) * 1.5
    ax.plot([lo, hi], [lo, hi], "k-", lw=0.8)
    for f in (0.9, 1.1):
        ax.plot([lo, hi], [lo * f, hi * f], "k:", lw=0.8)
    ax.set(xlim=(lo, hi), ylim=(lo, hi), xlabel="measured cycles", ylabel="predicted cycles",
           title="cost model against the co-simulation (dotted: 10%)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    os.makedirs(os.path.join(ROOT, "docs", "img"), exist_ok=True)
    fig.savefig(os.path.join(ROOT, "docs", "img", "model.png"), dpi=110)


FPGA_MODULES = ("canopy_router", "canopy_node")


def fpga_records():
    """One record per synthesized module (the router alone, and the node with its host interface)."""
    # Two jobs: the placements of each module's seeds run side by side (synth/synth.mk).
    sh("make --no-print-directory -j2 synth >&2")
    records = []
    for module in FPGA_MODULES:
        with open(os.path.join(ROOT, "build", "synth", f"{module}.json")) as f:
            records.append(json.load(f))
    return records


BOARDS = ("ecp5-evn",)


def board_records():
    """One record per board: `make bitstream` (synth/board.mk), its bench "board" record:
    LUT4, DP16KD, Fmax against the board's core clock (the PLL's output)."""
    records = []
    for board in BOARDS:
        sh(f"make --no-print-directory bitstream BOARD={board} >&2")
        with open(os.path.join(ROOT, "build", "board", board, "report.json")) as f:
            records.append(json.load(f))
    return records


def table(records):
    cols = {
        "hop-latency": ["cycles_per_hop", "base_cycles", "max_hops"],
        "saturation": ["accepted_flits_per_node_cycle", "bound", "fraction_of_bound"],
        "sim-speed": ["build", "threads", "sim_cycles_per_s", "node_cycles_per_s"],
        "sim-build": ["top", "compile_s"],
        "fpga-ecp5": ["module", "fmax_mhz", "target_mhz", "luts", "ffs", "brams"],
        "board": ["board", "fmax_mhz", "target_mhz", "luts", "brams"],
        "put": ["bytes", "cycles", "link_bytes_per_cycle"],
        "get": ["op", "bytes", "cycles", "bytes_per_cycle"],
        "amo": ["op", "impl", "hops", "cycles", "ops_per_kcycle"],
        "bcast": ["impl", "bytes", "cycles", "link_bytes_per_cycle"],
        "bcast-hop-latency": ["impl", "cycles_per_hop", "base_cycles", "max_hops"],
        "reduce-hop-latency": ["impl", "cycles_per_hop", "base_cycles", "max_hops"],
        "reduce": ["impl", "bytes", "cycles"],
        "allreduce": ["impl", "bytes", "cycles"],
        "barrier": ["impl", "cycles"],
        "allreduce-inflight": ["impl", "inflight", "cycles"],
        "allreduce-stripe": ["trees", "bytes", "cycles"],
        "link-ber": ["traffic", "ber", "flits", "goodput_fraction", "replays", "lost_bytes"],
        "link-cost": ["figure", "protected", "plain", "unit"],
        "dead-link": ["dead_at_cycle", "down_after_cycles", "flits_dropped_by_dead_link", "credits_back"],
        "fm-scale": ["trees", "build_ms", "check_ms", "shmem_init_ms", "old_roots_ms", "entries", "csr_est_cycles",
                     "pkt_est_cycles"],
        "model": ["of", "impl", "bytes", "predicted_cycles", "measured_cycles", "rel_error"],
        "model-fit": ["points", "within_10pct"],
    }
    lines = []
    for r in records:
        figs = ", ".join(f"{k} {r[k]}" for k in cols.get(r["bench"], []) if k in r)
        lines.append(f"{r['bench']:<12} {r['topology']:<7} {r['nodes']:>4} nodes  {figs}")
    return "\n".join(lines)


def render_docs(records):
    """The measured tables of docs/perf.md, between its bench markers, from the records."""
    by = lambda bench: [r for r in records if r["bench"] == bench]
    L = ["", "### Router fabric (`make bench`, router-only simulation)", "",
         "| bench | torus | nodes | figure |", "|---|---|---|---|"]
    for r in by("hop-latency"):
        L.append(f"| hop latency, zero load | {r['topology']} | {r['nodes']} | **{r['cycles_per_hop']:.2f} cycles/hop** "
                 f"(+{r['base_cycles']:.1f} at the ends; links of {r['link_latency']} cycle, {r['payload_bytes']}-byte payload) |")
    for r in by("saturation"):
        L.append(f"| saturation, uniform random | {r['topology']} | {r['nodes']} | **{r['accepted_flits_per_node_cycle']:.3f}** "
                 f"flits/node/cycle accepted; bound {r['bound']:.3f}, so {100 * r['fraction_of_bound']:.0f}% of it |")
    for r in by("sim-speed"):
        threads = r.get("threads", 1)
        build = "profile-guided build" if r.get("build") == "pgo" else "plain build"
        L.append(f"| simulation speed, {build}, {threads} thread{'s' if threads > 1 else ''} | {r['topology']} | {r['nodes']} | "
                 f"{r['sim_cycles_per_s']:,.0f} cycles/s ({r['node_cycles_per_s']:,.0f} router-cycles/s; median of "
                 f"{r.get('runs', 1)} runs; wall clock, this machine) |")
    for r in by("sim-build"):
        L.append(f"| simulator build from clean (`{r['top']}`) | {r['topology']} | {r['nodes']} | "
                 f"{r['compile_s']:.0f} s (make, {r.get('jobs', 2)} jobs; wall clock, this machine) |")
    fpga = by("fpga-ecp5")
    if fpga:
        L += ["", "### FPGA: router and node on a Lattice ECP5 (`make synth`, out of context)", "",
              "| module | device | NumDims | Fmax (target) | Fmax by seed | LUT4 | FFs | DP16KD | LUT RAM (DPR16X4) | MULT18X18D | critical path |",
              "|---|---|---|---|---|---|---|---|---|---|---|"]
        for r in fpga:
            cp = r.get("critical_path") or {}
            met = "met" if r.get("timing_met") else "not met"
            seeds = ", ".join(f"{f if f is not None else 'stopped'} ({n})"
                              for n, f in (r.get("fmax_by_seed") or {}).items()) or "-"
            L.append(f"| `{r.get('module', 'canopy_router')}` | {r.get('device')} | {r.get('num_dims')} | "
                     f"**{r.get('fmax_mhz')} MHz** ({r.get('target_mhz')}, {met}) | {seeds} | {r.get('luts')} | {r.get('ffs')} | "
                     f"{r.get('brams')} | {r.get('lutram', '-')} | {r.get('dsps')} | "
                     f"{cp.get('delay_ns', '-')} ns, {cp.get('logic_segments', '-')} logic levels |")
    boards = by("board")
    if boards:
        L += ["", "### FPGA: a whole board (`make bitstream`, pins and clock constrained)", "",
              "| board | torus | device | core clock | Fmax | LUT4 | FFs | DP16KD | critical path |",
              "|---|---|---|---|---|---|---|---|---|"]
        for r in boards:
            cp = r.get("critical_path") or {}
            met = "met" if r.get("timing_met") else "not met"
            L.append(f"| {r.get('board')} | {r.get('topology')} | {r.get('device')} | {r.get('target_mhz')} MHz | "
                     f"**{r.get('fmax_mhz')} MHz** ({met}, seed {r.get('seed')}) | {r.get('luts')} of {r.get('luts_available')} | "
                     f"{r.get('ffs')} | {r.get('brams')} of {r.get('brams_available')} | "
                     f"{cp.get('delay_ns', '-')} ns, {cp.get('logic_segments', '-')} logic levels |")
    puts = sorted(by("put"), key=lambda r: r["bytes"])
    if puts:
        L += ["", f"### Host to host through libcanopy (`make bench`, co-simulation, {puts[0]['topology']}, "
              "PE 0 to PE 1)", "",
              "One-way time = half a ping-pong round trip, modeled PCIe included (300 ns MMIO write in, "
              "300 ns DMA write out, turned into cycles at the co-simulation's model clock, 250 MHz: 75 "
              "cycles each). Times are in cycles; the router's measured Fmax is in the FPGA table above.", "",
              "| bytes | cycles | link bytes/cycle | % of link |", "|---|---|---|---|"]
        for r in puts:
            L.append(f"| {r['bytes']} | {r['cycles']:.0f} | {r['link_bytes_per_cycle']:.2f} | "
                     f"{100 * r['link_bytes_per_cycle'] / 8:.0f}% |")
    L += get_docs(by("get"))
    L += amo_docs(by("amo"))
    L += bcast_docs(by("bcast"))
    hop = by("bcast-hop-latency")
    if hop:
        L += ["", "### Broadcast latency per hop (zero load, 8-byte payload)", "",
              "Completion cycle at each node, from the root's start, against its depth in the tree (= torus "
              "distance from the root), least-squares fit; `base` holds the host costs (MMIO write in, DMA "
              "write out, the wait).", "",
              "| torus | impl | cycles/hop | base cycles | max hops |", "|---|---|---|---|---|"]
        for r in sorted(hop, key=lambda r: (r["topology"], r["impl"])):
            L.append(f"| {r['topology']} | {r['impl']} | {r['cycles_per_hop']:.2f} | "
                     f"{r['base_cycles']:.0f} | {r['max_hops']} |")
    rhop = by("reduce-hop-latency")
    if rhop:
        L += ["", "### Reduce latency per tree level (zero load, 8 bytes, the up direction)", "",
              "For every other node v, a tree of just the root and v (the nodes between are transit routers); an "
              "8-byte canopy_reduce from both to the root, timed from the synchronized start to the root holding the "
              "result, against v's depth (its torus distance from the root), least-squares fit "
              "(driver/examples/reduce_bench.c --hop-latency 1); `base` holds the host costs.", "",
              "| torus | cycles/level | base cycles | max depth | points |", "|---|---|---|---|---|"]
        for r in sorted(rhop, key=lambda r: r["topology"]):
            L.append(f"| {r['topology']} | {r['cycles_per_hop']:.2f} | {r['base_cycles']:.0f} | {r['max_hops']} | "
                     f"{r['points']} |")
    L += reduce_docs([r for r in records if r["bench"] in ("reduce", "allreduce", "barrier", "allreduce-inflight",
                                                           "allreduce-stripe")])
    L += shmem_docs([r for r in records if r["bench"].startswith("shmem-")])
    L += link_docs(by("link-ber"))
    L += link_cost_docs(by("link-cost"))
    L += dead_link_docs(by("dead-link"))
    L += fm_scale_docs(by("fm-scale"))
    L += model_docs(by("model"), next(iter(by("model-fit")), None))
    return "\n".join(L) + "\n"


def get_docs(recs):
    """Get against an acknowledged put of the same size, both followed by a quiet."""
    if not recs:
        return []
    cyc = {(r["op"], r["bytes"]): r for r in recs}
    L = ["", f"### One-sided get through libcanopy (`make bench`, co-simulation, {recs[0]['topology']}, "
         f"PE 0 reads PE {recs[0]['peer']})", "",
         "canopy_get + canopy_quiet: the request's MMIO write, the target host interface's DMA read of its "
         "memory (800 ns modeled), the responses, the DMA write at PE 0 and the writeback it waits on; best of "
         "three. Against canopy_put + canopy_quiet of the same size (the put's acknowledgement comes back the "
         "same way). Stream: 1 MiB as 16 gets of 64 KiB (two in flight) and one quiet, against 1 MiB of puts "
         "(driver/examples/get_bench.c).", "",
         "| bytes | get cycles | put cycles | get / put | get bytes/cycle | get % of link |",
         "|---|---|---|---|---|---|"]
    for op_get, op_put, label in (("get+quiet", "put+quiet", None), ("get stream", "put stream", "stream")):
        for n in sorted({b for (op, b) in cyc if op == op_get}):
            g, p = cyc[(op_get, n)], cyc.get((op_put, n))
            name = f"{n} ({label})" if label else f"{n}"
            L.append(f"| {name} | {g['cycles']:.0f} | " + (f"{p['cycles']:.0f} | {g['cycles'] / p['cycles']:.2f} | "
                     if p else "- | - | ") + f"{g['bytes_per_cycle']:.2f} | {100 * g['bytes_per_cycle'] / 8:.0f}% |")
    return L


def amo_docs(recs):
    """Atomics: latency and contended throughput, hardware against software."""
    if not recs:
        return []
    L = ["", f"### Remote atomics (`make bench`, co-simulation, {recs[0]['topology']}; driver/examples/amo_bench.c)", "",
         "Hardware: the target's host interface does the read-modify-write (a DMA read of its memory, 800 ns "
         "modeled, then the write and a response), one atomic at a time per node; `canopy_amo_fetch` then also "
         "waits for the writeback block's get counts, which say whether the atomic failed (8 cycles: 406 -> 414 "
         "at node 0, 2026-12-02, since a failed atomic writes no value). Software: the target's "
         "processor polls a mailbox, adds and puts the old value back (its own work takes no simulated time "
         "here, so this is the best a dedicated polling core could do).", "",
         "| operation | impl | target (hops) | cycles | ops / 1000 cycles |", "|---|---|---|---|---|"]
    for r in recs:
        if r["op"] == "fetch-add":
            L.append(f"| fetch-add latency | {r['impl']} | {r['target']} ({r['hops']}) | {r['cycles']} | - |")
    for r in recs:
        if r["op"] != "fetch-add":
            tgt = "each its X neighbour" if r["target"] < 0 else f"node {r['target']}"
            L.append(f"| {r['op']}, {r['pes']} nodes x {r['ops'] // max(1, r['pes'])} | {r['impl']} | {tgt} | "
                     f"{r['cycles']} | {r['ops_per_kcycle']:.2f} |")
    return L


# How the collective benchmarks start a repetition (driver/examples/bench_harness.h).
START_NOTE = ("Every node starts at the same agreed cycle (the harness's synchronized start: a barrier that also "
              "gives every node the latest entry time, plus a slack; a repetition some node reached late is run "
              "again), so no node's lateness leaving a barrier is in the time.")
OLD_START_NOTE = ("Measured before the synchronized start: the clock started when the root (reduce: the first node) "
                  "left a barrier, so small sizes include the other nodes' lateness leaving it (up to a few hundred "
                  "cycles on large tori).")


def bcast_docs(recs):
    """Per torus: cycles per size and implementation, and the hardware's speedup."""
    L = []
    for torus in sorted({r["topology"] for r in recs}, key=lambda t: (len(t.split("x")), t)):
        rs = [r for r in recs if r["topology"] == torus]
        impls = [i for i in BCAST_IMPLS if any(r["impl"] == i for r in rs)]
        cyc = {(r["impl"], r["bytes"]): r["cycles"] for r in rs}
        sw = [i for i in impls if i != "hw"]
        L += ["", f"### Broadcast through libcanopy (`make bench`, co-simulation, {torus}, {rs[0]['nodes']} nodes, "
              f"root {rs[0]['root']})", ""] + [
              START_NOTE if all("start_slack" in r for r in rs) else OLD_START_NOTE,
              "Each time is from the start to the last node holding every byte, in cycles (median of the "
              "repetitions); software broadcasts are puts with flag words (driver/examples/bcast_bench.c). "
              "Speedup = the best software time / hw.", "",
              "| bytes | " + " | ".join(impls) + " | best sw | hw speedup | hw link bytes/cycle |",
              "|---" * (len(impls) + 4) + "|"]
        for n in sorted({r["bytes"] for r in rs}):
            cells = [f"{cyc[(i, n)]:.0f}" if (i, n) in cyc else "-" for i in impls]
            best = min(((cyc[(i, n)], i) for i in sw if (i, n) in cyc), default=None)
            hw = cyc.get(("hw", n))
            L.append(f"| {n} | " + " | ".join(cells) + f" | {best[1] if best else '-'} | "
                     + (f"{best[0] / hw:.2f}x" if best and hw else "-") + " | "
                     + (f"{n / hw:.2f}" if hw else "-") + " |")
        if "hw" not in impls:
            L += ["", "(hw not measured yet: canopy_bcast and the fabric manager were not built.)"]
    if recs:
        L += ["", "![broadcast time vs size](img/bcast.png)"]
    return L


def tori_order(recs):
    return sorted({r["topology"] for r in recs}, key=lambda t: (len(t.split("x")), t))


def reduce_docs(recs):
    """Per torus: reduce and allreduce cycles per size and implementation, barrier and
    allreduces in flight; hw speedup = the best software time / hw."""
    recs = [r for r in recs if r.get("op", "sum") == "sum" and r.get("dtype", "i64") == "i64"]
    L = []

    def speed(best, hw):
        return f"{best / hw:.2f}x" if best and hw else "-"

    for torus in tori_order(recs):
        rs = [r for r in recs if r["topology"] == torus]
        nodes = rs[0]["nodes"]
        L += ([] if L and L[-1] == "" else [""]) + [f"### Reduce, allreduce and barrier through libcanopy (`make bench`, co-simulation, {torus}, "
              f"{nodes} nodes, root {rs[0]['root']}, int64 sum)", "",
              START_NOTE if all("start_slack" in r for r in rs) else OLD_START_NOTE,
              "Each time is from the start to the moment the last node that matters is done "
              "(reduce: the root holds the result; allreduce: every node does; barrier: every node left it), in "
              "cycles, median of the repetitions; every result checked against a host reference. Software: puts "
              "with flag words (driver/examples/reduce_bench.c). Speedup = the best software time / hw.", ""]
        for bench in ("reduce", "allreduce"):
            br = [r for r in rs if r["bench"] == bench]
            if not br:
                continue
            impls = [i for i in REDUCE_IMPLS if any(r["impl"] == i for r in br)]
            sw = [i for i in impls if i != "hw"]
            cyc = {(r["impl"], r["bytes"]): r["cycles"] for r in br}
            L += [f"**{bench}**", "", "| bytes | " + " | ".join(impls) + " | best sw | hw speedup |",
                  "|---" * (len(impls) + 3) + "|"]
            for n in sorted({r["bytes"] for r in br}):
                cells = [f"{cyc[(i, n)]:.0f}" if (i, n) in cyc else "-" for i in impls]
                best = min(((cyc[(i, n)], i) for i in sw if (i, n) in cyc), default=None)
                L.append(f"| {n} | " + " | ".join(cells) + f" | {best[1] if best else '-'} | "
                         + speed(best[0] if best else None, cyc.get(("hw", n))) + " |")
            L.append("")
        small = [r for r in rs if r["bench"] in ("barrier", "allreduce-inflight")]
        if small:
            L += ["**barrier, and 8-byte allreduces back to back** (32 per node: hw issues all 32 before waiting, "
                  "sw runs the binomial allreduce 32 times in a row; cycles per allreduce = total / 32)", "",
                  "| bench | impl | cycles | hw speedup over this |", "|---|---|---|---|"]
            for bench in ("barrier", "allreduce-inflight"):
                br = {r["impl"]: r for r in small if r["bench"] == bench}
                hw = br.get("hw", {}).get("cycles")
                for impl in REDUCE_IMPLS:
                    if impl in br:
                        label = bench if bench == "barrier" else f"allreduce, 8 B, {br[impl]['inflight']} in flight"
                        L.append(f"| {label} | {impl} | {br[impl]['cycles']:.0f} | "
                                 + (speed(br[impl]["cycles"], hw) if impl != "hw" else "-") + " |")
            L.append("")
        stripe = sorted((r for r in rs if r["bench"] == "allreduce-stripe"), key=lambda r: r["trees"])
        if stripe:
            one = stripe[0]["cycles"] if stripe[0]["trees"] == 1 else None
            L += [f"**hw allreduce of {stripe[0]['bytes'] // 1024} KiB over a stripe of trees** (canopy_tree_stripe: "
                  "chunk j on tree j mod T, roots by canopy_fm_stripe_roots; the records above use the widest)", "",
                  "| trees | cycles | bytes/cycle | against 1 tree |", "|---|---|---|---|"]
            for r in stripe:
                L.append(f"| {r['trees']} | {r['cycles']:.0f} | {r['bytes'] / r['cycles']:.2f} | "
                         + (f"{one / r['cycles']:.2f}x" if one else "-") + " |")
            L.append("")
        if not any(r["impl"] == "hw" for r in rs):
            L += ["(hw not measured yet: the hardware reduce engines and canopy_reduce / canopy_allreduce / "
                  "canopy_barrier were not in the co-simulator and libcanopy when this ran.)", ""]
    if recs:
        L += ["![allreduce and barrier time](img/reduce.png)"]
    return L


def write_docs(records):
    path = os.path.join(ROOT, "docs", "perf.md")
    with open(path) as f:
        text = f.read()
    begin, end = "<!-- bench:begin -->", "<!-- bench:end -->"
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    with open(path, "w") as f:
        f.write(head + begin + "\n" + render_docs(records) + end + tail)
    with open(PUBLISHED, "w") as f:
        json.dump(records, f, indent=1)
        f.write("\n")


def plot_puts(records):
    puts = sorted((r for r in records if r["bench"] == "put"), key=lambda r: r["bytes"])
    if not puts:
        return
    subprocess.run(["tools/ensure-deps.sh", "plot"], cwd=ROOT, check=True)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(1, 2, figsize=(9, 3.4))
    x = [r["bytes"] for r in puts]
    ax[0].loglog(x, [r["cycles"] for r in puts], "o-")
    ax[0].set(xlabel="message bytes", ylabel="one-way cycles", title="put latency, host to host")
    ax[1].semilogx(x, [100 * r["link_bytes_per_cycle"] / 8 for r in puts], "o-")
    ax[1].set(xlabel="message bytes", ylabel="% of link rate", title="put bandwidth", ylim=(0, 100))
    for a in ax:
        a.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    os.makedirs(os.path.join(ROOT, "docs", "img"), exist_ok=True)
    fig.savefig(os.path.join(ROOT, "docs", "img", "put.png"), dpi=110)


def plot_bcast(records):
    recs = [r for r in records if r["bench"] == "bcast"]
    if not recs:
        return
    subprocess.run(["tools/ensure-deps.sh", "plot"], cwd=ROOT, check=True)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    tori = sorted({r["topology"] for r in recs}, key=lambda t: (len(t.split("x")), t))
    fig, axes = plt.subplots(1, len(tori), figsize=(4.6 * len(tori), 3.6), squeeze=False)
    for ax, torus in zip(axes[0], tori):
        for impl in BCAST_IMPLS:
            rs = sorted((r for r in recs if r["topology"] == torus and r["impl"] == impl), key=lambda r: r["bytes"])
            if rs:
                ax.loglog([r["bytes"] for r in rs], [r["cycles"] for r in rs], "o-", label=impl)
        nodes = next(r["nodes"] for r in recs if r["topology"] == torus)
        ax.set(xlabel="message bytes", ylabel="cycles to the last node", title=f"broadcast, {torus} ({nodes} nodes)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    os.makedirs(os.path.join(ROOT, "docs", "img"), exist_ok=True)
    fig.savefig(os.path.join(ROOT, "docs", "img", "bcast.png"), dpi=110)


def plot_reduce(records):
    """Allreduce time vs size (per torus and implementation), and barrier and 8-byte
    allreduce time vs node count."""
    recs = [r for r in records if r["bench"] in ("allreduce", "barrier")
            and r.get("op", "sum") == "sum" and r.get("dtype", "i64") == "i64"]
    if not recs:
        return
    subprocess.run(["tools/ensure-deps.sh", "plot"], cwd=ROOT, check=True)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker
    fig, ax = plt.subplots(1, 2, figsize=(10, 3.8))
    styles = ["-", "--", ":", "-."]
    colors = {i: f"C{k}" for k, i in enumerate(REDUCE_IMPLS)}
    for t, torus in enumerate(tori_order(recs)):
        for impl in REDUCE_IMPLS:
            rs = sorted((r for r in recs if r["bench"] == "allreduce" and r["topology"] == torus and r["impl"] == impl),
                        key=lambda r: r["bytes"])
            if rs:
                ax[0].loglog([r["bytes"] for r in rs], [r["cycles"] for r in rs], "o" + styles[t % 4],
                             color=colors[impl], label=f"{impl}, {torus}")
    ax[0].set(xlabel="vector bytes", ylabel="cycles to the last node", title="allreduce (int64 sum)")
    for bench, marker in (("barrier", "s"), ("allreduce", "o")):
        for impl in REDUCE_IMPLS:
            rs = sorted((r for r in recs if r["bench"] == bench and r["impl"] == impl
                         and (bench == "barrier" or r["bytes"] == 8)), key=lambda r: r["nodes"])
            if rs:
                ax[1].plot([r["nodes"] for r in rs], [r["cycles"] for r in rs], marker + ("-" if bench == "barrier" else "--"),
                           color=colors[impl], label=f"{bench if bench == 'barrier' else 'allreduce 8 B'}, {impl}")
    ax[1].set(xlabel="nodes", ylabel="cycles", title="barrier and 8-byte allreduce vs nodes", xscale="log", yscale="log")
    ns = sorted({r["nodes"] for r in recs})
    ax[1].xaxis.set_minor_locator(matplotlib.ticker.NullLocator())
    ax[1].set_xticks(ns, [str(n) for n in ns])
    ax[1].set_xlim(ns[0] / 1.5, ns[-1] * 1.5)
    for a in ax:
        a.grid(True, which="both", alpha=0.3)
        a.legend(fontsize=7)
    fig.tight_layout()
    os.makedirs(os.path.join(ROOT, "docs", "img"), exist_ok=True)
    fig.savefig(os.path.join(ROOT, "docs", "img", "reduce.png"), dpi=110)


# Fields the benchmark programs print that are not published: times in ns, which they
# derive from cycles at the co-simulation's model clock (250 MHz). The synthesized design
# has not closed at that clock, so a record keeps cycles; times belong only at the Fmax
# that `make synth` reports (docs/perf.md's FPGA table).
UNPUBLISHED_FIELDS = ("ns", "ns_per_op")


# Benches whose records are replaced as one set whenever any of them is produced again: the
# cost model's records are all derived from one fit, so none of an earlier fit may survive.
WHOLESALE = ("model", "model-fit")
# Benches the cost model is fitted to (hop-latency: the router fabric's cycles per hop).
MODEL_INPUTS = cost_model.MODELED + ("hop-latency",)


def merge(new, per_impl=False):
    """Replace records of the benches just run, keep the others (later benches add theirs).
    per_impl (--impl): replace only the implementations just run."""
    old = []
    for path in (OUT, PUBLISHED):
        if os.path.exists(path):
            with open(path) as f:
                old = json.load(f)
            break
    key = lambda r: (r["bench"], r["topology"], r.get("module", r.get("top"))) + ((r.get("impl"),) if per_impl else ())
    ran = {key(r) for r in new}
    whole = {r["bench"] for r in new if r["bench"] in WHOLESALE}
    merged = [{k: v for k, v in r.items() if k not in UNPUBLISHED_FIELDS}
              for r in [r for r in old if key(r) not in ran and r["bench"] not in whole] + new]
    attach_build_times(merged)
    return merged


def attach_build_times(records):
    """Each sim-speed record also says how long the co-simulator of its torus takes to
    build from clean (compile_s, from the sim-build record of that torus): the speed of a
    simulator and the wait before it can run are read together."""
    builds = {r["topology"]: r["compile_s"] for r in records
              if r["bench"] == "sim-build" and r.get("top") == "canopy-cosim"}
    for r in records:
        if r["bench"] == "sim-speed":
            r.pop("compile_s", None)
            if r["topology"] in builds:
                r["compile_s"] = builds[r["topology"]]
                r["compile_top"] = "canopy-cosim"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--skip-fpga", action="store_true", help="skip synthesis and place and route")
    ap.add_argument("--only", default="", help="run only benches whose name contains this")
    ap.add_argument("--torus", default="",
                    help="bcast, reduce, shmem: only these tori (comma separated, e.g. 3x3); default all")
    ap.add_argument("--impl", default="",
                    help="bcast: only these implementations (comma separated, e.g. hw); the "
                         "others' records are kept")
    ap.add_argument("--docs-only", action="store_true",
                    help="no runs: rewrite docs/perf.md tables and plots from results.json")
    args = ap.parse_args()
    if args.docs_only:
        merged = merge([])
        write_docs(merged)
        plot_puts(merged)
        plot_bcast(merged)
        plot_reduce(merged)
        plot_shmem(merged)
        plot_model(merged)
        return 0

    records = []
    if args.only in "sim-build":
        records += build_records("4x4x4")
    for bench, torus, scenario, extra in RUNS:
        if args.only in bench:
            records += fabric_records(torus, scenario, extra)
    if args.only in "sim-speed":
        for torus, cycles in SPEED_RUNS:
            records += speed_records(torus, cycles)
    if args.only in "put":
        records += put_records("3x3")
    if args.only in "get":
        records += get_records("3x3")
    if args.only in "amo":
        records += amo_records("3x3")
    if args.only in "bcast":
        for torus, extra, impls, hop_latency in BCAST_RUNS:
            if not args.torus or torus in args.torus.split(","):
                if args.impl:
                    impls = [i for i in impls if i in args.impl.split(",")]
                records += bcast_records(torus, extra, impls, hop_latency and not args.impl)
    if args.only in "reduce":
        for torus, extra, cases, sweep in REDUCE_RUNS:
            if not args.torus or torus in args.torus.split(","):
                records += reduce_records(torus, extra, cases, sweep)
    if args.only in "shmem":
        for torus, extra in SHMEM_RUNS:
            if not args.torus or torus in args.torus.split(","):
                records += shmem_records(torus, extra)
    if args.only in "fm-scale":
        records += fm_scale_records()
    if args.only in "link-ber":
        records += link_records()
    if not args.skip_fpga and args.only in "fpga-ecp5":
        records += fpga_records()
    if not args.skip_fpga and args.only in "board":
        records += board_records()

    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    merged = merge(records, per_impl=bool(args.impl))
    # The cost model last, from the merged records: on a full run, with --only model, and
    # whenever this run measured something it is fitted to (so it never describes old data).
    if args.only in "model" or any(r["bench"] in MODEL_INPUTS for r in records):
        records += model_records(merged)
        merged = merge(records, per_impl=bool(args.impl))
    with open(OUT, "w") as f:
        json.dump(merged, f, indent=1)
        f.write("\n")
    print(table(records))
    print(f"\nwrote {len(merged)} records to {os.path.relpath(OUT, ROOT)}")
    print("docs/perf.md tables: python3 tools/bench.py --docs-only")
    return 0


if __name__ == "__main__":
    sys.exit(main())
