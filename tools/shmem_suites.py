#!/usr/bin/env python3
"""Run the public OpenSHMEM test suites, unmodified, against canopy's oshcc / oshrun.

    python3 tools/shmem_suites.py --sos DIR --uh DIR --examples DIR --osu DIR \\
        [--torus 2x2 --torus 3x3] [-j 2] [--only SUBSTRING ...] [--timeout S] [--out DIR]

Each DIR is a snapshot of one suite: a checkout, or a git directory without a work tree
(then HEAD is exported). The suites are never copied into the project; docs/shmem.md
names the commits the pass table was made with:

  --sos       openshmem-org/tests-sos     (Sandia OpenSHMEM: test/unit, test/spec-example,
                                           test/apps; test/performance as benchmarks)
  --uh        openshmem-org/tests-uh      (feature_tests/C; performance_tests as benchmarks)
  --examples  openshmem-org/openshmem-examples (c/, c/experimental/)
  --osu       an OSU micro-benchmarks copy (c/openshmem/, benchmarks)

Every C file is compiled with shmem/oshcc (the suite's include directory on the path, the
few per-file flags its own build uses), then run with shmem/oshrun on each torus (one PE
per node; the OSU point-to-point programs that demand exactly two PEs on a ring of two),
and passes when it exits 0 (or with the status its suite expects, e.g. 99 for
tests-uh's global exit test) within --timeout seconds of wall clock. Files that need
Fortran, C++, MPI or something documented as out of scope are listed as excluded, with the
reason; so are, on a torus of another size, the few programs written for particular PE
counts (PE_COUNTS). Benchmarks must compile and run to completion; the OSU ones with
small iteration counts: their collectives through their options (-i, -m), their
point-to-point programs through a constructor in a small object of ours
(build/shmem-suites/osu_small.c) that sets their iteration globals (loop, skip, ...)
before main, and the counts and sizes that are macros of osu_util.h through a header of
ours forced in ahead of each source (build/shmem-suites/osu_small.h). Their sources are
compiled as they are.

Results: a table per torus on stdout and build/shmem-suites/results-<torus>.json; logs of
every compile and run under build/shmem-suites/.
"""
import argparse
import concurrent.futures as cf
import glob
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OSHCC = os.path.join(ROOT, "shmem", "oshcc")
OSHRUN = os.path.join(ROOT, "shmem", "oshrun")

# Excluded files, by suite-relative path (or directory prefix): the reason is recorded.
EXCLUDE = {
    "sos": {
        "test/spec-example/hybrid_mpi_mapping_id.c": "needs MPI",
        "test/spec-example/hybrid_mpi_mapping_id_shmem_comm.c": "needs MPI",
        "test/unit/mt_lock.c": "not a test: part of mt_lock_test (compiled with it)",
        "test/shmemx/": "Sandia OpenSHMEM's own extensions (shmemx_*), not OpenSHMEM 1.5",
    },
    "uh": {},
    "examples": {
        "c/experimental/arrget_nb.c": "uses shmemx_request_handle_t, an extension proposal, not OpenSHMEM 1.5",
        "c/experimental/arrput_nb.c": "uses shmemx_request_handle_t, an extension proposal, not OpenSHMEM 1.5",
        "c/experimental/race.c": "uses shmemx_request_handle_t, an extension proposal, not OpenSHMEM 1.5",
        "c/experimental/race2.c": "uses shmemx_request_handle_t, an extension proposal, not OpenSHMEM 1.5",
        "c/experimental/mem_nb.c": "uses shmemx_* non-blocking extensions, not OpenSHMEM 1.5",
        "c/experimental/translate.c": "uses shmemx_* extensions, not OpenSHMEM 1.5",
    },
    "osu": {},
}

# Programs written for some PE counts only, erroneous at others (OpenSHMEM leaves a collective
# that non-members of its active set call, or a PE number >= npes, undefined): run on a torus
# whose node count they accept, listed as excluded (with the reason) on the others.
PE_COUNTS = {
    "examples": {
        "c/bcast3.c": (lambda n: n == 4, "every PE calls a broadcast on the active set of PEs 0-3"),
        "c/bcast4.c": (lambda n: n == 4, "the even PEs call a broadcast on the active set {0, 2} "
                                         "(its comment: 'expected to run with 4 PEs')"),
        "c/reduce-max.c": (lambda n: n == 4, "every PE calls a reduction on the active set of PEs 0-3"),
        "c/reduce-sum.c": (lambda n: n == 4, "every PE calls a reduction on the active set of PEs 0-3"),
        "c/dtrand.c": (lambda n: 16 % n == 0, "splits a 16-entry table into 16 / npes entries per PE, "
                                              "so other PE counts address PEs >= npes"),
    },
}


def pe_count_excluded(suite, rel, n):
    """The reason a program is not run with n PEs, or None."""
    ok, why = PE_COUNTS.get(suite, {}).get(rel, (None, None))
    return None if ok is None or ok(n) else f"written for other PE counts than {n}: {why}"


# Per-file build and run details the suites' own makefiles and runners give.
EXTRA = {
    # Tests whose size and loop options (their own) are set smaller than their defaults,
    # which move gigabytes: the co-simulator runs tens of thousands of cycles a second.
    "sos": {
        "test/unit/mt_lock_test.c": {"srcs": ["test/unit/mt_lock.c"]},
        "test/unit/bigput.c": {"args": ["-l", "2", "-e", "65536"]},
        "test/unit/bigget.c": {"args": ["-l", "2", "-e", "65536"]},
        "test/unit/bcast_flood.c": {"args": ["-l", "10"]},
        "test/unit/spam.c": {"args": ["-l", "50"]},
        "test/unit/lfinc.c": {"args": ["1000"]},
        "test/apps/gups.c": {"args": ["-n", "256"]},  # updates per PE (4096 by default)
        "test/apps/mandelbrot.c": {"args": ["-w", "256", "-h", "256"]},  # 2048 x 2048 by default
    },
    "uh": {
        "feature_tests/C/test_shmem_global_exit.c": {"status": 99},
    },
    "examples": {
        "c/global_exit.c": {"status": 99},  # shmem_global_exit(99), "easy to spot" (its comment)
    },
    "osu": {},
}
# Second builds of one file with other flags (suite makefile variants).
VARIANTS = {
    "sos": [("test/unit/query_thread.c", "query_thread_funneled", ["-DENABLE_THREADS"])],
}
# Programs that take arguments: pattern -> args (OSU pt2pt: memory kind).
OSU_HEAP = ["heap"]
# OSU collectives: their OpenSHMEM option string is ":hvfm:i:" (osu_util_options.h), so
# iterations and the largest size only; -x (warm-up) is refused there with exit 1.
OSU_COLL_ARGS = ["-i", "4", "-m", "4096"]
# OSU point-to-point programs that refuse any count but two PEs run on a ring of two.
OSU_TWO_PE_TORUS = "2"
# Options of every run: a small, seeded jitter in the PCIe model (sim/canopy-run
# --jitter-ns): still the same run every time, but PEs are not in perfect lockstep, which
# a few tests (atomic_nbi's swap loop) would otherwise never leave.
RUN_OPTS = ["--jitter-ns", "100", "--seed", "1"]


def log(msg):
    print(msg, flush=True)


def snapshot(path, name, out):
    """A checkout directory for the suite, and its commit (or None)."""
    path = os.path.abspath(path)
    gitdir = None
    if os.path.isdir(os.path.join(path, ".git")):
        gitdir = os.path.join(path, ".git")
    elif os.path.isfile(os.path.join(path, "HEAD")) and os.path.isdir(os.path.join(path, "objects")):
        gitdir = path
    commit = None
    if gitdir:
        r = subprocess.run(["git", "--git-dir", gitdir, "rev-parse", "HEAD"], capture_output=True, text=True)
        commit = r.stdout.strip() or None
    if gitdir == path:  # no work tree: export HEAD
        dest = os.path.join(out, "src", name)
        stamp = os.path.join(dest, ".commit")
        if not (os.path.isfile(stamp) and open(stamp).read() == commit):
            shutil.rmtree(dest, ignore_errors=True)
            os.makedirs(dest)
            a = subprocess.Popen(["git", "--git-dir", gitdir, "archive", "HEAD"], stdout=subprocess.PIPE)
            subprocess.run(["tar", "-x", "-C", dest], stdin=a.stdout, check=True)
            a.wait()
            with open(stamp, "w") as f:
                f.write(commit or "")
        return dest, commit
    return path, commit


def excluded(suite, rel):
    for k, why in EXCLUDE[suite].items():
        if rel == k or (k.endswith("/") and rel.startswith(k)):
            return why
    return None


def collect(suite, root):
    """(kind, rel) of every C file the suite contributes: kind 'test' or 'bench'."""
    pats = {
        "sos": [("test", "test/unit/*.c"), ("test", "test/spec-example/*.c"), ("test", "test/apps/*.c"),
                ("test", "test/shmemx/*.c"), ("bench", "test/performance/*/*.c")],
        "uh": [("test", "feature_tests/C/*.c"), ("bench", "performance_tests/micro_benchmarks/*.c")],
        "examples": [("test", "c/*.c"), ("test", "c/experimental/*.c")],
        "osu": [("bench", "c/openshmem/*.c")],
    }[suite]
    out = []
    for kind, p in pats:
        for f in sorted(glob.glob(os.path.join(root, p))):
            out.append((kind, os.path.relpath(f, root)))
    return out


def other_sources(suite, root):
    """Every non-C source the suite has (reported as excluded: Fortran, C++)."""
    out = []
    for ext, why in ((".f90", "Fortran"), (".F90", "Fortran"), (".f", "Fortran"), (".cpp", "C++"), (".cxx", "C++")):
        for f in glob.glob(os.path.join(root, "**", "*" + ext), recursive=True):
            rel = os.path.relpath(f, root)
            if suite == "uh" and not (rel.startswith("feature_tests/") or rel.startswith("performance_tests/")):
                continue
            if suite == "osu" and not rel.startswith("c/openshmem"):
                continue
            out.append((rel, "needs " + why))
    return sorted(out)


OSU_SMALL = r"""/* osu_small.c (canopy tools/shmem_suites.py): small iteration counts for the OSU
 * OpenSHMEM point-to-point benchmarks, whose counts are globals of theirs with no option:
 * set before main by a constructor; weak, so a benchmark without one is unaffected. */
extern int loop __attribute__((weak)), skip __attribute__((weak)), loop_large __attribute__((weak)),
    skip_large __attribute__((weak)), large_message_size __attribute__((weak));
__attribute__((constructor)) static void osu_small(void)
{
    if (&loop) loop = 3;
    if (&skip) skip = 1;
    if (&loop_large) loop_large = 2;
    if (&skip_large) skip_large = 0;
    if (&large_message_size) large_message_size = 1 << 30; /* never the (fixed 100) large loop */
}
"""


OSU_SMALL_H = r"""/* osu_small.h (canopy tools/shmem_suites.py): smaller compile-time counts and sizes for the
 * OSU OpenSHMEM benchmarks, forced in ahead of their sources (-include). Their message-rate
 * and atomics programs take these from macros of osu_util.h, not from options: messages up
 * to 4 MiB, 50 rounds of them as warm-up (200 MiB per pair), 500 iterations per size or
 * operation; hours in co-simulation. The suite's header comes first, so its include guard
 * keeps it from being read again; then the macros are set smaller. OSHM_LOOP_LARGE_MR stays
 * (osu_oshm_get_mr_nb sizes a memset with its own 50). */
#include "osu_util.h"
#undef MAX_MESSAGE_SIZE
#define MAX_MESSAGE_SIZE (1 << 16)
#undef OSHM_LOOP_SMALL_MR
#define OSHM_LOOP_SMALL_MR 50
#undef OSHM_LOOP_ATOMIC
#define OSHM_LOOP_ATOMIC 50
"""


def uses_openmp(path, depth=0):
    """The file, or a header of its directory it includes (two levels), uses OpenMP."""
    try:
        text = open(path, errors="replace").read()
    except OSError:
        return False
    if "omp_get_" in text or "#pragma omp" in text:
        return True
    if depth >= 2:
        return False
    d = os.path.dirname(path)
    for h in glob.glob(os.path.join(d, "*.h")):
        if os.path.basename(h) in text and uses_openmp(h, depth + 1):
            return True
    return False


def build(job):
    name, srcs, cflags, exe, logf = job
    os.makedirs(os.path.dirname(exe), exist_ok=True)
    cmd = [OSHCC, "-O2", "-w"] + cflags + srcs + ["-o", exe]
    r = subprocess.run(cmd, capture_output=True, text=True)
    with open(logf, "w") as f:
        f.write(" ".join(cmd) + "\n" + r.stdout + r.stderr)
    return name, r.returncode == 0


def run(job):
    name, exe, args, torus, status, timeout, logf = job
    n = math.prod(int(k) for k in torus.split("x"))
    cmd = [OSHRUN, "-n", str(n), "--torus", torus] + RUN_OPTS + [exe] + args
    start = time.monotonic()
    # A session of its own: on a timeout the co-simulator and every PE go, not just oshrun.
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         cwd=os.path.dirname(exe), start_new_session=True)
    try:
        out, _ = p.communicate(timeout=timeout)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
        rc = "timeout"
    secs = time.monotonic() - start
    with open(logf, "w") as f:
        f.write(" ".join(cmd) + f"\n# exit {rc} after {secs:.1f} s\n" + out)
    return name, rc == status, rc, secs


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    for s in ("sos", "uh", "examples", "osu"):
        ap.add_argument("--" + s, help=f"snapshot of the {s} suite")
    ap.add_argument("--torus", action="append", help="torus to run on (repeatable; default 2x2 and 3x3)")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--only", action="append", default=[],
                    help="only files whose path contains this (repeatable: any of them)")
    ap.add_argument("--timeout", type=int, default=600, help="wall-clock seconds per run")
    ap.add_argument("--bench-timeout", type=int, default=1800, help="wall-clock seconds per benchmark run")
    ap.add_argument("--no-bench", action="store_true", help="compile the benchmarks but do not run them")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "shmem-suites"))
    args = ap.parse_args()
    tori = args.torus or ["2x2", "3x3"]
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)

    # The libraries and co-simulators first, once.
    subprocess.run(["make", "-s", "--no-print-directory", "-C", ROOT, "build/shmem/libcanopy_shmem.a",
                    "build/fw/libcanopy_fm.a", "build/driver/libcanopy.a"], check=True)
    for t in tori + ([OSU_TWO_PE_TORUS] if args.osu else []):
        subprocess.run(["make", "-s", "--no-print-directory", "-C", ROOT, f"TORUS={t}", "LINK_LATENCY=1",
                        f"build/cosim/{t}-L1/canopy-cosim"], check=True)
    osu_small = os.path.join(out, "osu_small.c")
    with open(osu_small, "w") as f:
        f.write(OSU_SMALL)
    osu_small_h = os.path.join(out, "osu_small.h")
    with open(osu_small_h, "w") as f:
        f.write(OSU_SMALL_H)

    items, excl, commits, builds = [], [], {}, []
    for suite in ("sos", "uh", "examples", "osu"):
        path = getattr(args, suite)
        if not path:
            continue
        root, commit = snapshot(path, suite, out)
        commits[suite] = commit
        for rel, why in other_sources(suite, root):
            excl.append((suite, rel, why))
        files = collect(suite, root)
        variants = [(rel, vname, fl) for rel, vname, fl in VARIANTS.get(suite, [])]
        for kind, rel in files + [("test", v) for v in []]:
            why = excluded(suite, rel)
            if why:
                excl.append((suite, rel, why))
                continue
            entries = [(os.path.splitext(os.path.basename(rel))[0], [])]
            entries += [(vn, fl) for r, vn, fl in variants if r == rel]
            for base, vflags in entries:
                name = f"{suite}/{os.path.dirname(rel)}/{base}"
                if args.only and not any(o in name for o in args.only):
                    continue
                ex = dict(EXTRA[suite].get(rel, {}))
                if uses_openmp(os.path.join(root, rel)):  # built with it, as the suites do
                    ex["cflags"] = ex.get("cflags", []) + ["-fopenmp"]
                inc = {"sos": ["-I" + os.path.join(root, "test", "include")],
                       "osu": ["-I" + os.path.join(root, "c", "util"), "-include", osu_small_h]}.get(suite, [])
                inc = inc + ["-I" + os.path.dirname(os.path.join(root, rel))]
                srcs = [os.path.join(root, rel)] + [os.path.join(root, s) for s in ex.get("srcs", [])]
                if suite == "osu":
                    srcs += [os.path.join(root, "c", "util", "osu_util.c"),
                             os.path.join(root, "c", "util", "osu_util_pgas.c"), osu_small]
                exe = os.path.join(out, "bin", suite, os.path.dirname(rel), base)
                run_args = list(ex.get("args", []))
                if suite == "osu":
                    with open(os.path.join(root, rel), errors="replace") as f:
                        text = f.read()
                    if '"heap"' in text:
                        run_args = OSU_HEAP
                    elif "process_options" in text:
                        run_args = OSU_COLL_ARGS
                    if re.search(r"numprocs\s*!=\s*2\b", text):
                        ex["torus"] = OSU_TWO_PE_TORUS
                items.append({"suite": suite, "kind": kind, "name": name, "rel": rel, "exe": exe,
                              "args": run_args, "status": ex.get("status", 0), "torus": ex.get("torus")})
                builds.append((name, srcs, inc + ex.get("cflags", []) + vflags, exe, exe + ".build.log"))

    log(f"compiling {len(builds)} programs with shmem/oshcc ...")
    built = {}
    with cf.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        for name, ok in pool.map(build, builds):
            built[name] = ok
            if not ok:
                log(f"  COMPILE FAIL {name}")

    results = {}
    for t in tori:
        jobs = []
        n = math.prod(int(k) for k in t.split("x"))
        res = {}
        for it in items:
            why = pe_count_excluded(it["suite"], it["rel"], n)
            if why:
                res[it["name"]] = {"pass": None, "excluded": why}
                continue
            if not built[it["name"]] or (it["kind"] == "bench" and args.no_bench):
                continue
            timeout = args.bench_timeout if it["kind"] == "bench" else args.timeout
            jobs.append((it["name"], it["exe"], it["args"], it["torus"] or t, it["status"], timeout,
                         f"{it['exe']}.{t}.log"))
        log(f"running {len(jobs)} programs on {t} ...")
        with cf.ThreadPoolExecutor(max(1, args.jobs)) as pool:
            for fut in cf.as_completed([pool.submit(run, j) for j in jobs]):
                name, ok, rc, secs = fut.result()
                res[name] = {"pass": ok, "exit": rc, "secs": round(secs, 1)}
                log(f"  {'PASS' if ok else 'FAIL'} {t} {name} ({secs:.0f} s{'' if ok else f', exit {rc}'})")
        results[t] = res

    # Tables.
    summary = {"commits": commits, "tori": tori, "excluded": [{"suite": s, "file": f, "why": w} for s, f, w in excl],
               "programs": [], "table": {}}
    for it in items:
        row = {"suite": it["suite"], "kind": it["kind"], "name": it["name"], "compiled": built[it["name"]]}
        for t in tori:
            row[t] = results[t].get(it["name"])
        summary["programs"].append(row)
    log("")
    log("| suite | kind | files | excluded | compile | " + " | ".join(f"pass {t}" for t in tori) + " |")
    log("|---|---|---|---|---|" + "---|" * len(tori))
    for suite in ("sos", "uh", "examples", "osu"):
        if suite not in commits:
            continue
        for kind in ("test", "bench"):
            rows = [r for r in summary["programs"] if r["suite"] == suite and r["kind"] == kind]
            if not rows:
                continue
            nex = sum(1 for s, f, w in excl if s == suite and (kind == "test"))
            comp = sum(1 for r in rows if r["compiled"])
            cells = []
            for t in tori:
                counted = [r for r in rows if not (r[t] or {}).get("excluded")]
                ran = [r for r in counted if r[t] is not None]
                ok = sum(1 for r in ran if r[t]["pass"])
                nx = len(rows) - len(counted)
                cells.append((f"{ok}/{len(counted)} ({100.0 * ok / max(1, len(counted)):.1f}%)" if ran else "not run")
                             + (f", {nx} excluded" if nx else ""))
            summary["table"][f"{suite}/{kind}"] = {"files": len(rows), "compiled": comp,
                                                   **{t: c for t, c in zip(tori, cells)}}
            log(f"| {suite} | {kind} | {len(rows)} | {nex if kind == 'test' else '-'} | {comp}/{len(rows)} | "
                + " | ".join(cells) + " |")
    log("")
    for s, f, w in excl:
        log(f"excluded {s}/{f}: {w}")
    for t in tori:
        for r in summary["programs"]:
            if (r[t] or {}).get("excluded"):
                log(f"excluded on {t} {r['name']}: {r[t]['excluded']}")
        fails = [r["name"] for r in summary["programs"]
                 if r[t] is not None and not r[t].get("excluded") and not r[t]["pass"]]
        if fails:
            log(f"failed on {t}: " + ", ".join(fails))
        with open(os.path.join(out, f"results-{t}.json"), "w") as f:
            json.dump(summary, f, indent=1)
    log("commits: " + ", ".join(f"{k} {v}" for k, v in commits.items()))
    failed_tests = sum(1 for r in summary["programs"] for t in tori
                       if r["kind"] == "test" and (not r["compiled"]
                                                   or (r[t] and not r[t].get("excluded") and not r[t]["pass"])))
    return 1 if failed_tests else 0


if __name__ == "__main__":
    sys.exit(main())
