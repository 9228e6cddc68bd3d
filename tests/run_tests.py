#!/usr/bin/env python3
"""The canopy test suite: builds what it needs, runs every test under a time limit.

    python3 tests/run_tests.py [--list] [--only SUBSTRING] [--stress] [-j JOBS]

Tests are declared in declare() below: a name, the make targets it needs built first, and
the command that runs it (exit 0 = pass). Builds run one at a time (each uses both
cores), tests two at a time beside them (-j); the summary line at the end is
'N passed, N failed'. `--stress` adds the long runs (`make stress`), which are kept out of
the default suite to keep it well under 20 minutes on two cores.
"""
import argparse
import math
import os
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def config(torus, latency=1, protect=False):
    return f"{torus}-L{latency}" + ("-prot" if protect else "")


def fabric(torus, latency=1, protect=False):
    return f"build/sim/{config(torus, latency, protect)}/canopy-fabric"


def fabric_make(torus, latency=1, protect=False):
    return f"{fabric(torus, latency, protect)} TORUS={torus} LINK_LATENCY={latency} LINK_PROTECT={int(protect)}"


def cosim_make(torus, latency=1, protect=False):
    return (f"build/cosim/{config(torus, latency, protect)}/canopy-cosim TORUS={torus} LINK_LATENCY={latency}"
            f" LINK_PROTECT={int(protect)}")


LINK = "build/link/canopy-link"


class Test:
    def __init__(self, name, cmd, build=(), timeout=600, stress=False):
        self.name, self.cmd, self.build = name, cmd, list(build)
        self.timeout, self.stress = timeout, stress


def declare():
    t = [
        Test("gen-check", "python3 tools/gen_packet.py --check && python3 tools/gen_regmap.py --check && "
                          "python3 tools/gen_serial.py --check && python3 tools/gen_selftest.py --check"),
        Test("lint", "make --no-print-directory lint"),
        Test("synth-check", "make --no-print-directory synth-check", timeout=900),
        # The synthesis record: the best of several placement seeds, a stopped one recorded as such.
        Test("synth-report", "python3 tests/synth/report_test.py", timeout=60),
        # Formal proofs of the router's building blocks and the protected link
        # (formal/README.md: `make formal`), then the same proofs against seeded bugs, every
        # one of which must be caught (`make formal-mutants`): one run, so the unmodified
        # proofs, whose link BMC is most of the time, are not proved twice.
        Test("formal", "python3 formal/run.py --with-mutants", timeout=1500),
        Test("unit", "make --no-print-directory unit-tests", timeout=900),
        Test("hostif", "make --no-print-directory hostif-tests", timeout=900),
        Test("driver-pci", "make --no-print-directory pci-tests", timeout=300),
        # The board (rtl/board/: 2x2 torus, serial bridge, self-test) simulated on a pty: the
        # self-test, the serial path's refusals, put/broadcast/reduce over libcanopy's serial
        # backend (tests/board/sim_board.sh, docs/bring-up.md).
        # 471 s alone on 2026-12-06; beside the rest of the suite it ran past 900 s.
        Test("sim-board", "tests/board/sim_board.sh", ["build/board/canopy-board-sim", "board-tests-build"],
             timeout=1500),
        # The same with every reduce op for every dtype over the serial line.
        Test("stress-sim-board-full", "tests/board/sim_board.sh --full",
             ["build/board/canopy-board-sim", "board-tests-build"], timeout=1800, stress=True),
        # Fabric manager: trees, write-time rule and global checks, host only (sanitizers).
        Test("fw-tree", "build/tests/fw/fm_tree_test", ["build/tests/fw/fm_tree_test"], timeout=120),
        Test("fw-program", "build/tests/fw/fm_program_test", ["build/tests/fw/fm_program_test"], timeout=120),
        # libcanopy's route walk (what CANOPY_EUNREACH is decided from) against the reference
        # route that the unit tests hold the router's RTL to, every pair of 16 tori.
        Test("driver-route", "build/tests/driver/route_test", ["build/tests/driver/route_test"], timeout=120),
        # The hardware's largest tori: 16x16x16x4 (16,384 nodes) through the shmem_init tree set,
        # checked independently (every node once, parent/child, depths), root costs vs brute force.
        Test("fw-scale", "build/tests/fw/fm_scale_test", ["build/tests/fw/fm_scale_test"], timeout=120),
    ]
    # Every node to every other node, payload byte-exact and in order per pair.
    for torus in ("4", "2x2", "3x3", "4x4", "2x2x2"):
        t.append(Test(f"fabric-{torus}-allpairs", f"{fabric(torus)} allpairs", [fabric_make(torus)]))
        t.append(Test(f"fabric-{torus}-malformed", f"{fabric(torus)} malformed", [fabric_make(torus)]))
    # Full injection rate, >= 100k flits, scoreboarded.
    for torus in ("3x3", "4x4", "2x2x2"):
        t.append(Test(f"fabric-{torus}-uniform", f"{fabric(torus)} uniform --flits 100000",
                      [fabric_make(torus)]))
        t.append(Test(f"fabric-{torus}-hotspot", f"{fabric(torus)} hotspot --flits 100000",
                      [fabric_make(torus)]))
    # The routers evaluated on two threads (--threads 2) give exactly the cycles of one.
    t.append(Test("fabric-3x3-threads",
                  f"a=$({fabric('3x3')} latency) && b=$({fabric('3x3')} latency --threads 2) && "
                  f"c=$({fabric('3x3')} saturation --threads 2) && d=$({fabric('3x3')} saturation) && "
                  f"[ \"$a\" = \"$b\" ] && [ \"$c\" = \"$d\" ] && echo \"$b\" && echo \"$c\"",
                  [fabric_make("3x3")]))
    # Long links: credits must cover the round trip; nothing else may change.
    t.append(Test("fabric-3x3-L6-allpairs", f"{fabric('3x3', 6)} allpairs --rounds 2",
                  [fabric_make("3x3", 6)]))
    t.append(Test("fabric-3x3-L6-uniform", f"{fabric('3x3', 6)} uniform --flits 100000",
                  [fabric_make("3x3", 6)]))
    # Protected links (rtl/link/, docs/link.md). One link, both directions full, every flit
    # scoreboarded: clean, random bit errors, bursts and drops, a long wire, a slow sink,
    # slot credits; and a wire that dies: both ends must declare the link down and hand
    # their routers back every credit, with nothing delivered wrong.
    link_runs = {
        "clean": "--flits 200000 --ev-rate 0",
        "ber": "--flits 200000 --ber 1e-5 --seed 2",
        "burst-drop": "--flits 100000 --burst-rate 1e-5 --burst-len 32 --drop 1e-4 --seed 3",
        "long-wire": "--flits 100000 --latency 20 --ber 1e-5 --seed 4",
        "slow-sink": "--flits 50000 --drain 0.3 --ber 1e-4 --ev-rate 0.05 --seed 5",
        "one-vc-heavy": "--flits 100000 --vcs 1 --ber 1e-4 --seed 6",
    }
    for name, args in link_runs.items():
        t.append(Test(f"link-{name}", f"{LINK} {args}", ["link-sim"]))
    t.append(Test("link-dead-wire", f"{LINK} --flits 20000 --dead-at 5000 --drain-limit 20000 --min-closed 4", ["link-sim"]))
    # Dead one way only: the end that hears nothing goes down, falls silent, and so the
    # other end goes down too.
    t.append(Test("link-dead-one-way", f"{LINK} --flits 20000 --dead-at 5000 --dead-dir ab --drain-limit 20000 --min-closed 4",
                  ["link-sim"]))
    # The router fabric and the co-simulation with every link protected and faulty:
    # uniform traffic, all pairs, broadcasts and reduces, each byte checked end to end.
    t.append(Test("fabric-3x3-prot-uniform-ber", f"{fabric('3x3', protect=True)} uniform --flits 200000 --ber 1e-5",
                  [fabric_make("3x3", protect=True)]))
    t.append(Test("fabric-3x3-prot-allpairs-faults",
                  f"{fabric('3x3', protect=True)} allpairs --ber 1e-4 --burst-rate 1e-5 --drop 1e-4",
                  [fabric_make("3x3", protect=True)]))
    prot = "sim/canopy-run -n 9 --torus 3x3 --link-protect --ber 1e-5 --burst-rate 1e-6 --drop 1e-5"
    t.append(Test("driver-3x3-prot-bcast-faults", f"{prot} build/tests/driver/bcast",
                  ["driver-tests-build", cosim_make("3x3", protect=True)], timeout=600))
    # Every reduce case, the quick sizes and one root (575k flits, ~16k bits flipped, ~500
    # replays); `make stress` runs every size and root.
    t.append(Test("driver-3x3-prot-reduce-faults", f"{prot} build/tests/driver/reduce --quick --roots 0",
                  ["driver-tests-build", cosim_make("3x3", protect=True)], timeout=600))
    t.append(Test("stress-3x3-prot-reduce-faults-full", f"{prot} build/tests/driver/reduce",
                  ["driver-tests-build", cosim_make("3x3", protect=True)], timeout=1200, stress=True))
    # A dead link in a tree: its allreduce ends with CANOPY_ETREEDOWN everywhere within the
    # collective timeout, and a tree rebuilt around the link works (coll_fail case 4).
    t.append(Test("driver-3x3-prot-dead-link",
                  "sim/canopy-run -n 9 --torus 3x3 --link-protect --dead-link 0:1:60000 "
                  "build/tests/driver/coll_fail --dead 0:1:60000",
                  ["driver-tests-build", cosim_make("3x3", protect=True)], timeout=600))
    # A link that dies mid-packet: its end closes the cut packet, which fails where it
    # lands, and the router output it held carries traffic again (link_cut).
    t.append(Test("driver-3x3-prot-link-cut",
                  "sim/canopy-run -n 9 --torus 3x3 --link-protect --dead-link 0:0:40000 "
                  "build/tests/driver/link_cut 40000",
                  ["driver-tests-build", cosim_make("3x3", protect=True)], timeout=600))
    for cyc in (40007, 41000, 43333, 47001, 52000):  # the cut at other places of the stream
        t.append(Test(f"stress-3x3-prot-link-cut-{cyc}",
                      f"sim/canopy-run -n 9 --torus 3x3 --link-protect --dead-link 0:0:{cyc} "
                      f"build/tests/driver/link_cut {cyc}",
                      ["driver-tests-build", cosim_make("3x3", protect=True)], timeout=600, stress=True))
    # A dead link in rings of two: the gathered map, the rebuilt tree (coll_fail case 4).
    t.append(Test("stress-2x2x2-prot-dead-link",
                  "sim/canopy-run -n 8 --torus 2x2x2 --link-protect --dead-link 0:2:60000 "
                  "build/tests/driver/coll_fail --dead 0:2:60000",
                  ["driver-tests-build", cosim_make("2x2x2", protect=True)], timeout=600, stress=True))
    # Driver level: real C programs on the co-simulation, through libcanopy.
    drv = ["driver-tests-build"]
    for torus in ("3x3", "2x2x2"):
        nodes = math.prod(int(k) for k in torus.split("x"))
        run = f"sim/canopy-run -n {nodes} --torus {torus}"
        build = drv + [cosim_make(torus)]
        t.append(Test(f"driver-{torus}-put-sizes", f"{run} build/tests/driver/put_sizes", build))
        t.append(Test(f"driver-{torus}-adversarial", f"{run} build/tests/driver/adversarial", build))
        t.append(Test(f"driver-{torus}-misuse", f"{run} build/tests/driver/misuse", build))
        t.append(Test(f"driver-{torus}-rings", f"{run} build/tests/driver/rings", build))
        # One-sided gets: all pairs 1 B..64 KiB, a storm with puts, a busy target, refusals,
        # raw over-bound and malformed GETs.
        t.append(Test(f"driver-{torus}-get", f"{run} build/tests/driver/get", build, timeout=300))
        # Remote atomics in the host interface: every op and size, contention with exact
        # counts, put-then-flag order, refusals, raw malformed atomics.
        t.append(Test(f"driver-{torus}-amo", f"{run} build/tests/driver/amo", build, timeout=300))
        # DMA the host refuses (BRESP / RRESP errors): puts, gets and atomics fail cleanly,
        # counted at the target (ERR_DMA_WRITE / ERR_DMA_READ), nothing written.
        t.append(Test(f"driver-{torus}-dma-fault", f"{run} --dma-fault 1:0x10000:0x1000 build/tests/driver/dma_fault",
                      build, timeout=300))
    # Hardware broadcast from every root, 1 B to 256 KiB (fabric manager trees, both
    # programming modes), on 2D and 3D tori up to 27 nodes.
    # On the larger tori every root gets fewer sizes (4x4: one packet, a packet and a byte,
    # 16 packets, and a 64 KiB large one; 3x3x3, the longest test of the suite at 160 s: the
    # first two, and 16 KiB); `make stress` runs them at every size.
    quick = {"4x4": " --sizes 1,257,4096 --big 65536", "3x3x3": " --sizes 1,257 --big 16384"}
    for torus in ("3x3", "2x2x2", "4x4", "3x3x3"):
        nodes = math.prod(int(k) for k in torus.split("x"))
        run = f"sim/canopy-run -n {nodes} --torus {torus} build/tests/driver/bcast"
        large = torus in quick
        t.append(Test(f"driver-{torus}-bcast", run + quick.get(torus, ""),
                      drv + [cosim_make(torus)], timeout=900))
        if large:
            t.append(Test(f"stress-{torus}-bcast-all-sizes", run, drv + [cosim_make(torus)],
                          timeout=1800, stress=True))
    # Table rules, wrong-direction packets, subgroups, transit nodes, a host that stops draining.
    for torus in ("3x3", "2x2x2"):
        nodes = math.prod(int(k) for k in torus.split("x"))
        t.append(Test(f"driver-{torus}-coll-rules",
                      f"sim/canopy-run -n {nodes} --torus {torus} build/tests/driver/coll_rules",
                      drv + [cosim_make(torus)], timeout=900))
        # Reduce, allreduce, barrier, sync: every op x type x root, 32 in flight, mismatches.
        t.append(Test(f"driver-{torus}-reduce",
                      f"sim/canopy-run -n {nodes} --torus {torus} build/tests/driver/reduce",
                      drv + [cosim_make(torus)], timeout=900))
    # Collectives that cannot complete (a silent member, a silent root) end with
    # CANOPY_ETREEDOWN within the collective timeout on every waiting node, write nothing
    # late, and a replacement tree works.
    for torus in ("3x3", "2x2x2"):
        nodes = math.prod(int(k) for k in torus.split("x"))
        t.append(Test(f"driver-{torus}-coll-fail",
                      f"sim/canopy-run -n {nodes} --torus {torus} build/tests/driver/coll_fail",
                      drv + [cosim_make(torus)], timeout=600))
    # OpenSHMEM (shmem/, docs/shmem.md): conformance from the specification (hardware and,
    # on 3x3, software with identical results), point to point over all pairs, barrier
    # semantics, teams, misuse, pre-1.2 code built by oshcc.
    shm = ["shmem-tests-build"]
    for torus in ("3x3", "2x2x2"):
        nodes = math.prod(int(k) for k in torus.split("x"))
        run = f"shmem/oshrun -n {nodes} --torus {torus}"
        b = shm + [cosim_make(torus)]
        t.append(Test(f"shmem-{torus}-conformance",
                      f"tests/shmem/run_conformance.sh {nodes}" + (" --sw" if torus == "3x3" else ""), b))
        t.append(Test(f"shmem-{torus}-p2p", f"{run} build/tests/shmem/p2p", b))
        t.append(Test(f"shmem-{torus}-barrier", f"{run} build/tests/shmem/barrier", b))
        t.append(Test(f"shmem-{torus}-teams", f"{run} build/tests/shmem/teams", b))
        # Strided active sets on the stride trees of shmem_init, against a host reference,
        # all in hardware, and the same results with CANOPY_SHMEM_STRIDE_TREES=0.
        t.append(Test(f"shmem-{torus}-stride", f"tests/shmem/run_stride.sh {nodes}" + (" --sw" if torus == "3x3" else ""),
                      b + ["build/tests/shmem/stride"]))
    # Atomics of every type and form under contention, locks (mutual exclusion, no
    # starvation), signals (never before the data); alltoall(s) against a reference,
    # contexts, the wait/test families, threads: on 2x2 and 3x3.
    for torus in ("2x2", "3x3"):
        nodes = math.prod(int(k) for k in torus.split("x"))
        run = f"shmem/oshrun -n {nodes} --torus {torus}"
        b = shm + [cosim_make(torus)]
        t.append(Test(f"shmem-{torus}-amo", f"{run} build/tests/shmem/amo 3", b, timeout=900))
        t.append(Test(f"shmem-{torus}-sync2", f"{run} build/tests/shmem/sync2", b, timeout=900))
    t.append(Test("shmem-3x3-errors", "tests/shmem/run_errors.sh 9", shm + [cosim_make("3x3")]))
    t.append(Test("shmem-3x3-legacy", "tests/shmem/run_legacy.sh 9", shm + [cosim_make("3x3")]))
    # A link of the world tree dies under 200 allreduces: every PE recovers together (the
    # dead links flooded over live neighbours, a missed result handed on) and the program
    # goes on in software over the live routes (docs/shmem.md, "When a link goes down").
    t.append(Test("shmem-3x3-dead-link",
                  "CANOPY_SHMEM_COLL_TIMEOUT_US=40 shmem/oshrun -n 9 --torus 3x3 --link-protect "
                  "--dead-link 4:0:60000 build/tests/shmem/dead_link 60000",
                  shm + [cosim_make("3x3", protect=True)], timeout=600))
    # The same at other moments and on other links of the world tree: both ways a call can
    # end (no PE completed it; the PEs above the link did, and hand its result down).
    for spec in ("4:0:55000", "4:0:58321", "1:2:61000", "7:3:64007", "4:1:70001"):
        cycle = spec.rsplit(":", 1)[1]
        t.append(Test(f"stress-shmem-3x3-dead-link-{spec.replace(':', '-')}",
                      f"CANOPY_SHMEM_COLL_TIMEOUT_US=40 shmem/oshrun -n 9 --torus 3x3 --link-protect "
                      f"--dead-link {spec} build/tests/shmem/dead_link {cycle}",
                      shm + [cosim_make("3x3", protect=True)], timeout=900, stress=True))
    # The benchmark programs of `make bench`, briefly: each checks what it times.
    t.append(Test("bench-3x3-smoke", "tests/bench_smoke.sh",
                  ["build/driver/examples/bcast_bench", "build/driver/examples/reduce_bench",
                   "build/driver/examples/amo_bench",
                   "build/shmem/examples/shmem_coll_bench", cosim_make("3x3")]))
    t.append(Test("fw-setup-3x3", "sim/canopy-run -n 9 --torus 3x3 build/tests/fw/fm_setup_sim",
                  ["build/tests/fw/fm_setup_sim", cosim_make("3x3")]))
    t.append(Test("driver-3x3-demo", "sim/canopy-run -n 9 --torus 3x3 build/driver/examples/put_demo",
                  drv + [cosim_make("3x3")]))
    t.append(Test("driver-3x3-determinism",
                  "tests/driver/determinism.sh 3x3 build/driver/examples/put_demo 300",
                  drv + [cosim_make("3x3")]))
    # Stress: larger fabrics, more traffic, more seeds.
    for seed in range(1, 6):
        t.append(Test(f"stress-4x4-uniform-seed{seed}",
                      f"{fabric('4x4')} uniform --flits 1000000 --seed {seed}",
                      [fabric_make("4x4")], timeout=1800, stress=True))
    t.append(Test("stress-3x3-pgo-identical", "tests/sim/pgo_identical.sh 3x3",
                  [fabric_make("3x3"), f"build/sim/3x3-L1-pgo/canopy-fabric TORUS=3x3 LINK_LATENCY=1"],
                  timeout=1800, stress=True))
    # Long seeded fault campaigns on protected links (>= 10^7 flits each on one link).
    for seed in range(1, 5):
        t.append(Test(f"stress-link-ber-seed{seed}",
                      f"{LINK} --flits 5000000 --ber 1e-5 --burst-rate 1e-6 --drop 1e-6 --seed {seed}",
                      ["link-sim"], timeout=1800, stress=True))
        t.append(Test(f"stress-3x3-prot-uniform-seed{seed}",
                      f"{fabric('3x3', protect=True)} uniform --flits 2000000 --ber 1e-5 --burst-rate 1e-6"
                      f" --seed {seed} --fault-seed {seed}",
                      [fabric_make("3x3", protect=True)], timeout=1800, stress=True))
    t.append(Test("stress-4x4x4-uniform", f"{fabric('4x4x4')} uniform --flits 1000000",
                  [fabric_make("4x4x4")], timeout=3600, stress=True))
    t.append(Test("stress-4x4x4-hotspot", f"{fabric('4x4x4')} hotspot --flits 500000",
                  [fabric_make("4x4x4")], timeout=3600, stress=True))
    t.append(Test("stress-4x4x4-allpairs", f"{fabric('4x4x4')} allpairs",
                  [fabric_make("4x4x4")], timeout=3600, stress=True))
    return t


def run(cmd, timeout):
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, shell=True, cwd=ROOT, timeout=timeout,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        return p.returncode, p.stdout, time.monotonic() - start
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        return -1, out + f"\nTIMEOUT after {timeout} s (watchdog)\n", time.monotonic() - start


def schedule(tests, jobs):
    """Run the tests on `jobs` workers while one builder makes their targets in order.

    Builds run one at a time (each uses both cores) in the order the tests first need
    them; a test starts as soon as its builds are done and a worker is free, so the
    co-simulation runs (one core each: the simulator and its PEs take turns) overlap each
    other and the builds. A failed build fails every test that needs it."""
    built, lock = {}, threading.Condition()
    order = list(dict.fromkeys(b for t in tests for b in t.build))
    pending, results = list(tests), []

    def builder():
        for b in order:
            rc, out, secs = run(f"make --no-print-directory {b}", 1800)
            with lock:
                print(f"  built {b.split()[0]} ({secs:.0f} s)" + ("" if rc == 0 else " FAILED"), flush=True)
                built[b] = (rc == 0, out)
                lock.notify_all()

    def worker():
        while True:
            with lock:
                while True:
                    if not pending:
                        return
                    t = next((t for t in pending if all(b in built for b in t.build)), None)
                    if t:
                        pending.remove(t)
                        break
                    lock.wait()
            broken = [built[b][1] for b in t.build if not built[b][0]]
            if broken:
                ok, out, secs = False, "".join(broken) + "\nbuild failed\n", 0.0
            else:
                rc, out, secs = run(t.cmd, t.timeout)
                ok = rc == 0
            with lock:
                results.append((t.name, ok))
                print(f"{'PASS' if ok else 'FAIL'} {t.name} ({secs:.1f} s)", flush=True)
                if not ok:
                    print("\n".join("    " + line for line in out.strip().splitlines()[-30:]), flush=True)

    threads = [threading.Thread(target=builder)] + [threading.Thread(target=worker) for _ in range(jobs)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return results


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--list", action="store_true", help="list the tests and exit")
    ap.add_argument("--only", default="", help="run only tests whose name contains this")
    ap.add_argument("--stress", action="store_true", help="include the long stress runs")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="tests run at once (default 2)")
    args = ap.parse_args()

    tests = [t for t in declare() if (args.stress or not t.stress) and args.only in t.name]
    if args.list:
        for t in tests:
            print(f"{t.name:32} {t.cmd}")
        return 0

    # Tools first, once: parallel make targets must not race to apt-get or pip.
    rc, out, _ = run("make --no-print-directory deps-sim deps-synth deps-formal deps-pci", 1800)
    if rc != 0:
        print(out + "\ncould not install the tools the tests need")
        print(f"0 passed, {len(tests)} failed")
        return 1
    start = time.monotonic()
    results = schedule(tests, max(1, args.jobs))
    failed = [name for name, ok in results if not ok]
    if failed:
        print("failed: " + ", ".join(failed))
    print(f"suite: {time.monotonic() - start:.0f} s wall clock, {args.jobs} at once")
    print(f"{len(results) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
