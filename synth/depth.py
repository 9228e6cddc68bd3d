#!/usr/bin/env python3
"""synth/depth.py: the deepest register-to-register paths of an ECP5 netlist, before placement.

    synth/depth.py build/synth/canopy_node-numdims3/ecp5.json [--top 25] [--min 8]

Place and route of a whole node takes a quarter of an hour and reports one critical path;
this reads the synth_ecp5 netlist that `make synth` wrote and, in seconds, ranks every
endpoint (a flip-flop's data, enable or reset; a distributed RAM's write data, address or
enable; a block RAM's inputs) by the logic levels in front of it. A level is one LUT4; the
wide-mux cells (PFUMX, L6MUX21) sit in the same slice as their LUTs and count 0.3; a carry
cell counts 1 from its LUT inputs and 0.1 along the chain; a distributed RAM's asynchronous
read counts 1, and a path from a block RAM's output starts at 1.5. On ECP5 at speed grade 8 a level costs 0.6 to 0.9 ns once routed, so a path
of L levels closes near 1000 / (0.8 L + 0.6) MHz: use it to find the structure, and nextpnr
for the number. Paths are grouped by the blocks at their two ends (generate indices folded,
as in breakdown.py), each group shown with its deepest path's cells.
"""
import argparse
import collections
import json
import re
import signal
import sys

# (cell type, input port prefix, output port prefix) -> levels; anything else through a
# combinational cell counts one level.
WEIGHT = {
    ("PFUMX", "", ""): 0.3,
    ("L6MUX21", "", ""): 0.3,
    ("CCU2C", "CIN", "COUT"): 0.1,
    ("CCU2C", "CIN", "S"): 0.2,
}
SEQUENTIAL = {"TRELLIS_FF", "DP16KD"}
# A block RAM's output comes late in the cycle (1.4 ns clock-to-out without its output
# register, against a flip-flop's 0.3): it starts its paths a level and a half down.
START = {"DP16KD": 1.5}
RAM = "TRELLIS_DPR16X4"


def weight(kind, in_port, out_port):
    for (k, ip, op), w in WEIGHT.items():
        if k == kind and in_port.startswith(ip) and out_port.startswith(op):
            return w
    return 1.0


def block_of(cell_name, depth=3):
    parts = [re.sub(r"\[\d+\]", "[*]", p) for p in cell_name.split(".")[:-1]]
    return ".".join(parts[:depth]) if parts else "(top level)"


class Netlist:
    def __init__(self, module):
        self.cells = module["cells"]
        self.driver = {}        # bit -> (cell, output port)
        for name, cell in self.cells.items():
            for port, bits in cell["connections"].items():
                if cell["port_directions"].get(port) == "output":
                    for b in bits:
                        self.driver[b] = (name, port)
        self.memo = {}          # bit -> (levels, previous bit or None, cell)

    def arrival(self, root):
        """Levels of logic in front of `root`, walking back to a register or a port."""
        stack = [root]
        while stack:
            bit = stack[-1]
            if bit in self.memo:
                stack.pop()
                continue
            drv = self.driver.get(bit)
            if drv is None or isinstance(bit, str):
                self.memo[bit] = (0.0, None, None)
                stack.pop()
                continue
            name, out_port = drv
            cell = self.cells[name]
            kind = cell["type"]
            if kind in SEQUENTIAL:
                self.memo[bit] = (START.get(kind, 0.0), None, name)
                stack.pop()
                continue
            inputs = []
            for port, bits in cell["connections"].items():
                if cell["port_directions"].get(port) != "input":
                    continue
                if kind == RAM and not port.startswith("RAD"):
                    continue        # the write side of a distributed RAM is an endpoint
                inputs += [(port, b) for b in bits]
            pending = [b for _, b in inputs if b not in self.memo and not isinstance(b, str)]
            if pending:
                stack += pending
                continue
            best = (0.0, None)
            for port, b in inputs:
                lv = self.memo[b][0] if not isinstance(b, str) else 0.0
                lv += weight(kind, port, out_port)
                if lv > best[0]:
                    best = (lv, b)
            self.memo[bit] = (best[0], best[1], name)
            stack.pop()
        return self.memo[root][0]

    def trace(self, bit):
        cells = []
        while bit is not None and bit in self.memo:
            _, prev, cell = self.memo[bit]
            if cell:
                cells.append(cell)
            bit = prev
        return list(reversed(cells))

    def endpoints(self):
        for name, cell in self.cells.items():
            kind = cell["type"]
            if kind not in SEQUENTIAL and kind != RAM:
                continue
            for port, bits in cell["connections"].items():
                if cell["port_directions"].get(port) != "input" or port.startswith(("CLK", "RAD")):
                    continue
                for b in bits:
                    if not isinstance(b, str):
                        yield name, port, b


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("netlist")
    ap.add_argument("--top", type=int, default=25, help="groups shown (default 25)")
    ap.add_argument("--min", type=float, default=0, help="only endpoints at least this deep")
    ap.add_argument("--depth", type=int, default=3, help="instance levels naming a block (default 3)")
    args = ap.parse_args()
    with open(args.netlist) as f:
        modules = json.load(f)["modules"]
    tops = [m for m, v in modules.items() if v.get("attributes", {}).get("top")]
    if len(tops) != 1:
        sys.exit("depth.py: the netlist has no single top module")
    net = Netlist(modules[tops[0]])
    groups = collections.defaultdict(lambda: [0.0, 0, None])
    histogram = collections.Counter()
    for name, port, bit in net.endpoints():
        lv = net.arrival(bit)
        histogram[int(lv)] += 1
        if lv < args.min:
            continue
        path = net.trace(bit)
        start = path[0] if path else "(port)"
        key = (block_of(start, args.depth), block_of(name, args.depth))
        g = groups[key]
        g[1] += 1
        if lv > g[0]:
            g[0], g[2] = lv, path + [f"{name}.{port}"]
    print("levels  endpoints")
    for lv in sorted(histogram, reverse=True):
        print(f"{lv:6d}  {histogram[lv]:9d}")
    print()
    for (src, dst), (lv, count, path) in sorted(groups.items(), key=lambda kv: -kv[1][0])[:args.top]:
        print(f"{lv:5.1f}  {count:6d} endpoints  {src}  ->  {dst}")
        for c in path:
            print(f"         {c}")


if __name__ == "__main__":
    main()
