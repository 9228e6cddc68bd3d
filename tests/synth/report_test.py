#!/usr/bin/env python3
"""tests/synth/report_test.py: synth/report.py picks the best placement of several seeds, and
synth/breakdown.py charges a netlist's cells to their blocks.

Builds the tool outputs of one configuration by hand (a netlist naming its top, Yosys
statistics, and per seed a nextpnr report), three seeds of which one was stopped by the
time limit (its report has no Fmax), runs report.py on them and checks the record: Fmax,
critical path and utilisation of the best seed, every seed's Fmax (null for the stopped
one), the seed and the options it names. Then a configuration where every seed stopped:
the record has no Fmax and says so, rather than inventing one. And a netlist whose cells
are named as after Yosys' autoname: the LUT4 sites per block (LUT4 1, CCU2C 2, DPR16X4 6),
generate indices summed. Exit 0 = pass.
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def write(path, obj):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(obj, f)


def pnr_report(mhz, luts, cell):
    return {
        "fmax": {"clk_i": {"achieved": mhz, "constraint": 125.0}},
        "utilization": {"TRELLIS_COMB": {"used": luts, "available": 83640},
                        "TRELLIS_FF": {"used": 100, "available": 83640}},
        "critical_paths": [{"path": [
            {"type": "clk-to-q", "delay": 0.3, "from": {"cell": cell}, "to": {"cell": "a"}},
            {"type": "routing", "delay": 1000.0 / mhz - 0.5, "from": {"cell": "a"}, "to": {"cell": "b"}},
            {"type": "logic", "delay": 0.2, "from": {"cell": "b"}, "to": {"cell": "end"}}]}],
    }


def config(d, seeds):
    write(os.path.join(d, "ecp5.json"), {"creator": "Yosys 0.70 (git sha1 28ba3cb92, test)", "modules": {
        "canopy_router": {"attributes": {"top": "1"}, "parameter_default_values": {"NumDims": "11"}}}})
    write(os.path.join(d, "ecp5-stat.json"), {"design": {"num_cells": 3, "num_cells_by_type": {"LUT4": 3}}})
    for n, rep in seeds.items():
        write(os.path.join(d, f"seed{n}", "nextpnr-report.json"), rep)


def record(d, seeds):
    out = os.path.join(d, "report.json")
    subprocess.run([sys.executable, "synth/report.py", "--dir", d, "--seeds", seeds,
                    "--pnr-options", "--placer-heap-timingweight 40", "--out", out],
                   cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    with open(out) as f:
        return json.load(f)


def main():
    failures = []

    def check(what, got, want):
        if got != want:
            failures.append(f"{what}: {got!r}, expected {want!r}")

    with tempfile.TemporaryDirectory() as tmp:
        d = os.path.join(tmp, "some")
        config(d, {1: pnr_report(101.5, 1000, "seed1_start"),
                   2: pnr_report(113.7, 1000, "seed2_start"),
                   3: {"fmax": {}, "stopped_after_s": 2400}})
        r = record(d, "1 2 3")
        check("fmax_mhz", r["fmax_mhz"], 113.7)
        check("seed", r["seed"], 2)
        check("fmax_by_seed", r["fmax_by_seed"], {"1": 101.5, "2": 113.7, "3": None})
        check("pnr_options", r["pnr_options"], "--seed 2 --placer-heap-timingweight 40")
        check("critical path of the best seed", (r["critical_path"] or {}).get("from_cell"), "seed2_start")
        check("timing_met", r["timing_met"], False)
        check("luts", r["luts"], 1000)
        check("num_dims", r["num_dims"], 3)

        d = os.path.join(tmp, "stopped")
        config(d, {1: {"fmax": {}, "stopped_after_s": 2400}})
        r = record(d, "1")
        check("all stopped: fmax_mhz", r["fmax_mhz"], None)
        check("all stopped: fmax_by_seed", r["fmax_by_seed"], {"1": None})
        check("all stopped: timing_met", r["timing_met"], None)

        netlist = {"modules": {"top": {"attributes": {"top": "1"}, "cells": {
            "gen_in[0].u_input.x_LUT4_Z": {"type": "LUT4"},
            "gen_in[1].u_input.y_CCU2C_S0": {"type": "CCU2C"},
            "gen_in[1].u_input.q_TRELLIS_FF_Q": {"type": "TRELLIS_FF"},
            "u_coll.u_send.gen_lane[6].u_buf.mem_q.0.1": {"type": "TRELLIS_DPR16X4"},
            "err_o_TRELLIS_FF_Q_LUT4_Z": {"type": "LUT4"},
            "u_coll.u_wmem.ram.0.0": {"type": "DP16KD"}}}}}
        path = os.path.join(tmp, "netlist.json")
        write(path, netlist)
        out = subprocess.run([sys.executable, "synth/breakdown.py", path], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout
        # "name  sites  FF  DP16KD", the name possibly with a space ("(top level)")
        rows = {r[0].strip(): r[1:] for r in (line.rsplit(None, 3) for line in out.splitlines()[1:])}
        check("breakdown: inputs", rows.get("gen_in[*].u_input"), ["3", "1", "0"])
        check("breakdown: send lanes", rows.get("u_coll.u_send"), ["6", "0", "0"])
        check("breakdown: top level", rows.get("(top level)"), ["1", "0", "0"])
        check("breakdown: working memory", rows.get("u_coll.u_wmem"), ["0", "0", "1"])
        check("breakdown: total", rows.get("total"), ["10", "1", "1"])

    for f in failures:
        print(f"FAIL {f}")
    print("synth report: " + ("ok" if not failures else f"{len(failures)} failures"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
