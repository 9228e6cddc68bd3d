#!/usr/bin/env python3
"""canopy's cost model: cycles of hardware and software collectives on any torus.

    python3 tools/cost_model.py [--records docs/perf-results.json] [--worst N | --all]

The model. Seed 001's form, a start-up cost ts per message or per tree level plus a cost tw
per byte, over canopy's parts: a put's host-to-host cost, the first doorbell batch written
over MMIO before the device starts, the injection stream (the link's 8 bytes per cycle plus
two header flits per 256-byte packet, plus the host interface's bubbles), a software
message's flag, the router cycles per tree level down (broadcast) and up (reduce), the
reduce engine combining one contribution's flit per cycle, and a contention factor for a
host interface that injects and ejects at once. Every node of a benchmark starts at one
agreed cycle (the harness's synchronized start), so no start skew enters any time.
The hardware collectives are closed form over the dimension-ordered tree (its depth and the
root's fan-in follow from the torus, fw/src/fm_tree.c). The software algorithms of
driver/examples/bcast_bench.c and reduce_bench.c are played out message by message on the
torus (ranks in the benchmarks' snake order, hop distances from it, each host's injection
and ejection streams as queues, and in exchange rounds the messages that share a link of
their dimension-order routes): binomial broadcast and reduce, recursive doubling with its
fold, the dissemination barrier and the scatter of scatter-allgather; their rings (ring
allreduce, the allgather, the pipelined chain) are closed form over their steps.

Limits. Links shared
by messages of the binomial trees are not counted (their rounds overlap only partly). The
hardware model is of the current collective unit; records of an earlier one (docs/perf.md
says which) are fitted all the same, so they pull on the parameters.

Contract.
- fit(records) -> (params, points): the free parameters fitted to every measured point of
  the records (bench bcast, reduce, allreduce, barrier, bcast-hop-latency, put; op sum,
  dtype i64), one global set by least squares on the relative error (Huber-weighted beyond
  HUBER), never one per point.
  The router fabric's cycles per hop comes from the hop-latency records and is not fitted.
- predict(params, bench, impl, topology, nbytes) -> cycles, for a torus of 1 to 4
  dimensions of sizes 1..16 (topology "16x16x16x4") and any message size.
- model_records(records[, params]) -> "model" records: every measured point with its
  prediction and relative error, then predictions (measured_cycles None) for 16x16x16 and
  16x16x16x4 of every implementation; fit_record(params, model records) -> the one
  "model-fit" record (parameters, share of points within 10%).
- Plain Python, no third-party module: the fit is a dozen unknowns.
"""
import argparse
import functools
import json
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# ------------------------------------------------------------------ parameters
# (name, unit, meaning). ts_*: start-up costs (per message, per level), tw_*: per byte.
PARAMS = [
    ("h_link", "cycles/hop", "router fabric, zero load, per hop (the hop-latency records; not fitted)"),
    ("ts_put", "cycles", "a put, host to host: MMIO write in, injection and ejection ports, DMA write out"),
    ("tw_fill", "cycles/byte", "the first packet (256 B), written over MMIO before the device starts"),
    ("tw_inj", "cycles/byte", "injection stream, above the link's flit time (ring reads, packet bubbles)"),
    ("ts_msg", "cycles", "a software message beyond its put: the flag put behind the data"),
    ("tw_dup", "cycles/byte", "contention: extra while a host interface injects and ejects at once"),
    ("ts_hw", "cycles", "a hardware collective's host costs: request or contribution in, result out"),
    ("ts_down", "cycles/level", "router cycles per tree level down (broadcast, a reduce's result)"),
    ("tw_tree", "cycles/byte", "the hardware broadcast's stream, above the link's flit time"),
    ("ts_up", "cycles/level", "router cycles per tree level up (a contribution to its parent's engine)"),
    ("tc_comb", "cycles/flit", "reduce engine: per flit of each contribution, combined one at a time"),
]
KNOWN = "_known"  # terms with no parameter: the link's flit time of a message
NAMES = [KNOWN] + [p[0] for p in PARAMS]
INDEX = {n: i for i, n in enumerate(NAMES)}
NOT_FITTED = (KNOWN, "h_link")
FREE = [n for n in NAMES if n not in NOT_FITTED]

LINK_BYTES = 8          # bytes per flit, one flit per cycle per link
PKT_PAYLOAD = 256       # bytes of payload per packet (the driver segments)
HDR_FLITS = 2           # header flits per packet
FILL_BYTES = 256    # one packet: the ring commits its words as they land (auto-commit), so the device starts after the first

# Where the fit starts: figures from docs/perf.md, so the first critical paths the
# simulations pick are the physical ones. h_link is replaced by the hop-latency records.
START = {KNOWN: 1.0, "h_link": 3.0, "ts_put": 170, "tw_fill": 0.15, "tw_inj": 0.02, "ts_msg": 15,
         "tw_dup": 0.05, "ts_hw": 190, "ts_down": 8, "tw_tree": 0.04, "ts_up": 20,
         "tc_comb": 1.0}


class Lin:
    """A time as a linear function of the parameters: value v at the current parameters
    and coefficients c. max() of two picks the later one at the current parameters, so a
    simulation run on Lin values returns its critical path's coefficients."""
    __slots__ = ("v", "c")

    def __init__(self, v, c):
        self.v, self.c = v, c

    def __add__(self, o):
        if not isinstance(o, Lin):
            return self if o == 0 else NotImplemented
        return Lin(self.v + o.v, tuple(a + b for a, b in zip(self.c, o.c)))

    __radd__ = __add__

    def __mul__(self, k):
        return Lin(self.v * k, tuple(a * k for a in self.c))

    __rmul__ = __mul__

    def __lt__(self, o):
        return self.v < o.v

    def __gt__(self, o):
        return self.v > o.v


def wire(nbytes):
    """Cycles a message of nbytes holds a link: payload flits plus each packet's header."""
    packets = max(1, math.ceil(nbytes / PKT_PAYLOAD))
    return math.ceil(nbytes / LINK_BYTES) + HDR_FLITS * packets


class Costs:
    """Cost terms from parameter coefficients: Lin values while fitting, plain floats
    (fast enough for 16k-node predictions) once the parameters are known."""

    def __init__(self, params, linear):
        self.p, self.linear = params, linear
        self.cache = {}

    def t(self, **coef):
        v = sum(self.p[n] * k for n, k in coef.items())
        if not self.linear:
            return v
        c = [0.0] * len(NAMES)
        for n, k in coef.items():
            c[INDEX[n]] += k
        return Lin(v, tuple(c))

    def zero(self):
        return self.t()

    def memo(self, key, make):
        if key not in self.cache:
            self.cache[key] = make()
        return self.cache[key]

    def stream(self, nbytes, load=1):
        """Cycles nbytes hold a host interface's injection or ejection stream; load messages
        sharing a link of the route each get 1/load of its 8 bytes per cycle."""
        def make():
            own = self.t(_known=wire(nbytes), tw_inj=nbytes)
            return own if load <= 1 else max(own, self.t(_known=load * wire(nbytes)))
        return self.memo(("stream", nbytes, load), make)

    def put(self, nbytes, hops, load=1):
        """A put, from the sender's call to the receiver seeing its bytes."""
        return self.memo(("put", nbytes, hops, load), lambda: self.t(
            ts_put=1, h_link=hops, tw_fill=min(nbytes, FILL_BYTES)) + self.stream(nbytes, load))

    def msg(self, nbytes, hops, load=1):
        """A software message: the data put, then its flag put (no data: the flag alone)."""
        return self.memo(("msg", nbytes, hops, load), lambda: self.put(8, hops, load) if nbytes == 0
                         else self.put(nbytes, hops, load) + self.t(ts_msg=1))

    def gap(self, nbytes, load=1):
        """How long a software message holds its sender's injection stream."""
        return self.memo(("gap", nbytes, load), lambda: self.stream(nbytes, load) + self.t(ts_msg=1))

    def step(self, nbytes, hops):
        """A ring step: a message while the host also receives one (contention)."""
        return self.msg(nbytes, hops) + self.t(tw_dup=nbytes)

    def forward(self, nbytes):
        """A pipelined chain's steady state: a middle host receives and sends a segment."""
        return self.gap(nbytes) + self.t(tw_dup=nbytes)


# ------------------------------------------------------------------ the torus
def parse_torus(topology):
    dims = [int(k) for k in topology.split("x")]
    if not 1 <= len(dims) <= 4 or not all(1 <= k <= 16 for k in dims):
        raise ValueError(f"torus {topology}: 1 to 4 dimensions of sizes 1..16")
    return dims


def tree_depth(dims):
    """Levels of the dimension-ordered tree below the root. fw/src/fm_tree.c covers a ring
    of k floor(k/2) hops one way and ceil(k/2)-1 the other and a node's parent is one hop
    toward the root in the highest dimension where they differ, so a node's depth is its
    torus distance from the root; the deepest is sum(floor(k/2))."""
    return sum(k // 2 for k in dims)


def root_fanin(dims):
    """Contributions the root's reduce engine combines: its host's and one per child, two
    per ring of 3 or more, one on a ring of 2. No router has more than the root."""
    return 1 + sum(2 if k >= 3 else 1 if k == 2 else 0 for k in dims)


def snake(dims):
    """Coordinates of each rank in the benchmarks' snake order (bench_harness.c: X fastest,
    every other sweep reversed), node 0, the root, at rank 0."""
    seq, length, stride = list(range(dims[0])), dims[0], dims[0]
    for k in dims[1:]:
        seq = [seq[length - 1 - j if v % 2 else j] + v * stride for v in range(k) for j in range(length)]
        length *= k
        stride *= k
    coords = []
    for lin in seq:
        c = []
        for k in dims:
            c.append(lin % k)
            lin //= k
        coords.append(tuple(c))
    return coords


def hops(dims, a, b):
    """Minimal routes: the shorter way round each ring (ties either way, same length)."""
    return sum(min(abs(x - y), k - abs(x - y)) for k, x, y in zip(dims, a, b))


def route(dims, a, b):
    """The directed links (node, port) of the route from coordinates a to b: dimension
    order, X first, the shorter way round each ring, a tie (half way round an even ring)
    going + to an even coordinate and - to an odd one (docs/router.md)."""
    cur, links = list(a), []
    for d, k in enumerate(dims):
        delta = (b[d] - cur[d]) % k
        if delta == 0:
            continue
        plus = 2 * delta < k or (2 * delta == k and b[d] % 2 == 0)
        for _ in range(delta if plus else k - delta):
            links.append((tuple(cur), 2 * d + (0 if plus else 1)))
            cur[d] = (cur[d] + (1 if plus else -1)) % k
    return links


class Torus:
    """A torus with the benchmarks' rank order; hop distances between ranks are cached
    (a 16k-node prediction asks for the same pairs round after round)."""

    def __init__(self, topology):
        self.dims = parse_torus(topology)
        self.rank = snake(self.dims)
        self.P = len(self.rank)
        self._hops, self._loads = {}, {}

    def h(self, r, s):
        key = r * self.P + s
        if key not in self._hops:
            self._hops[key] = hops(self.dims, self.rank[r], self.rank[s])
        return self._hops[key]

    def loads(self, key, pairs):
        """For each (src, dst) rank pair of a round whose messages travel at once: how many
        of them share the busiest link of its route. Cached per round (key): it does not
        depend on the size."""
        if key not in self._loads:
            routes = [route(self.dims, self.rank[s], self.rank[d]) for s, d in pairs]
            count = {}
            for links in routes:
                for link in links:
                    count[link] = count.get(link, 0) + 1
            self._loads[key] = [max((count[link] for link in links), default=1) for links in routes]
        return self._loads[key]

    def ring_hops(self):
        """Mean hops between ring neighbours (rank r to r + 1, the last back to 0): over many
        steps a ring's time follows the mean of its links, not the worst."""
        return sum(self.h(r, (r + 1) % self.P) for r in range(self.P)) / self.P


@functools.lru_cache(maxsize=None)
def torus(topology):
    return Torus(topology)


def pow2_at_least(n):
    p = 1
    while p < n:
        p *= 2
    return p


# ------------------------------------------------------------------ software algorithms
# Each plays out driver/examples/{bcast,reduce}_bench.c's schedule message by message.
# Receiving costs the processor nothing (its own work takes no simulated time in the
# co-simulation); a message waits for its sender, the sender's injection stream and the
# receiver's ejection stream.

class Hosts:
    """Per rank: t, when it reaches its next step; q, when its injection stream is free;
    e, when its ejection stream is free."""

    def __init__(self, k, tor):
        z = k.zero()
        self.k, self.tor = k, tor
        self.t, self.q, self.e = [z] * tor.P, [z] * tor.P, [z] * tor.P

    def send(self, src, dst, nbytes, duplex=False, load=1):
        """src sends nbytes to dst once it is ready and its stream is free; two messages
        reaching one host eject one after the other. duplex: every host sends and receives
        at once (an exchange round); load: messages of the round on the busiest link of
        this one's route. Returns the arrival time."""
        k = self.k
        extra = k.t(tw_dup=nbytes) if duplex else 0
        start = max(self.t[src], self.q[src])
        self.q[src] = start + k.gap(nbytes, load) + extra
        arrive = max(start + k.msg(nbytes, self.tor.h(src, dst), load) + extra, self.e[dst] + k.stream(nbytes))
        self.e[dst] = arrive
        return arrive


def binomial_bcast(k, tor, nbytes, hosts=None):
    """Rank r forwards the whole message to r + m for each m < lowbit(r), largest first.
    Returns every rank's completion time."""
    h = hosts or Hosts(k, tor)
    m = pow2_at_least(tor.P) // 2
    while m:
        for r in range(0, tor.P, 2 * m):
            if r + m < tor.P:
                h.t[r + m] = h.send(r, r + m, nbytes)
        m //= 2
    return h.t


def binomial_reduce(k, tor, nbytes):
    """Rank r waits for r + m (m < lowbit(r)), then sends its sum to r - lowbit(r).
    Returns the hosts (rank 0's time: it holds the result)."""
    h = Hosts(k, tor)
    m = 1
    while m < tor.P:
        for r in range(m, tor.P, 2 * m):
            h.t[r - m] = max(h.t[r - m], h.send(r, r - m, nbytes))
        m *= 2
    return h


def recursive_doubling(k, tor, nbytes):
    """Exchange with partner nr ^ 2^j over the largest power of two P' <= P; the first
    2(P - P') ranks fold in pairs before and get the result back after."""
    P = tor.P
    pp = pow2_at_least(P + 1) // 2
    extra = P - pp
    h = Hosts(k, tor)
    for r in range(0, 2 * extra, 2):
        h.t[r + 1] = max(h.t[r + 1], h.send(r, r + 1, nbytes))
    real = [2 * n + 1 if n < extra else n + extra for n in range(pp)]
    m = 1
    while m < pp:
        load = tor.loads(("rd", m), [(real[n], real[n ^ m]) for n in range(pp)])
        arrive = [h.send(real[n], real[n ^ m], nbytes, duplex=True, load=load[n]) for n in range(pp)]
        for n in range(pp):
            h.t[real[n ^ m]] = max(h.t[real[n ^ m]], arrive[n])
        m *= 2
    for r in range(0, 2 * extra, 2):
        h.t[r] = h.send(r + 1, r, nbytes)
    return h.t


def dissemination(k, tor):
    """Round j: tell rank r + 2^j, wait for r - 2^j (flags only)."""
    P = tor.P
    h = Hosts(k, tor)
    d = 1
    while d < P:
        load = tor.loads(("dis", d), [(r, (r + d) % P) for r in range(P)])
        arrive = [h.send(r, (r + d) % P, 0, load=load[r]) for r in range(P)]
        h.t = [max(h.t[r], arrive[(r - d) % P]) for r in range(P)]
        d *= 2
    return h.t


def scatter(k, tor, nbytes, c):
    """Binomial scatter: each rank receives the chunks (c bytes each) of its subtree."""
    h = Hosts(k, tor)
    m = pow2_at_least(tor.P) // 2
    while m:
        for r in range(0, tor.P, 2 * m):
            child = r + m
            if child < tor.P:
                end = min(child + m, tor.P)
                h.t[child] = h.send(r, child, max(0, min(end * c, nbytes) - min(child * c, nbytes)))
        m //= 2
    return h.t


def ring_steps(k, tor, steps, chunk):
    """steps ring steps of chunk bytes, each waiting for the left neighbour's: closed form
    (a 16k-node ring is too long to play out)."""
    return k.step(chunk, 1) * steps + k.t(h_link=(tor.ring_hops() - 1) * steps)


def chain_seg(nbytes):
    """bcast_bench.c's default segment: bytes/16 within [128, 1024]."""
    return min(1024, max(128, (nbytes // 16) & ~7))


def sw_bcast(k, tor, impl, nbytes):
    P = tor.P
    if impl == "sw-binomial":
        return max(binomial_bcast(k, tor, nbytes))
    if impl == "sw-scatter-allgather":
        c = (math.ceil(nbytes / P) + 7) & ~7
        return max(scatter(k, tor, nbytes, c)) + ring_steps(k, tor, P - 1, min(c, nbytes))
    if impl == "sw-chain":
        if P == 1:
            return k.zero()
        seg = chain_seg(nbytes)
        nseg = max(1, math.ceil(nbytes / seg))
        # The first segment crosses P - 1 hosts; the rest follow at the pace of a middle host.
        return k.msg(min(seg, nbytes), 1) * (P - 1) + k.forward(seg) * (nseg - 1)
    raise ValueError(f"no model for bcast {impl}")


def sw_reduce_bench(k, tor, bench, impl, nbytes):
    """reduce_bench.c's software cases, every node starting at the same cycle."""
    if bench == "reduce" and impl == "sw-binomial":
        return binomial_reduce(k, tor, nbytes).t[0]
    if bench == "allreduce" and impl == "sw-binomial":
        h = binomial_reduce(k, tor, nbytes)
        h.t = [h.t[0]] * tor.P  # the broadcast starts once rank 0 has the sum
        return max(binomial_bcast(k, tor, nbytes, h))
    if bench == "allreduce" and impl == "sw-recursive-doubling":
        return max(recursive_doubling(k, tor, nbytes))
    if bench == "allreduce" and impl == "sw-ring":
        chunk = min(nbytes, 8 * math.ceil(nbytes / 8 / tor.P))
        return ring_steps(k, tor, 2 * (tor.P - 1), chunk)
    if bench == "barrier" and impl == "sw-dissemination":
        return max(dissemination(k, tor))
    raise ValueError(f"no model for {bench} {impl}")


# ------------------------------------------------------------------ hardware
def engine_flits(nbytes, fanin):
    """Flits the busiest reduce engine (the root's) combines one at a time: every
    contribution's packets. (An earlier form took the first packet of all but the last
    contribution off, as combined while that one was on its way; the 256-byte points say
    otherwise: 3x3 reduce of 256 B 395 cycles against 225 for 8 B, the root's five
    contributions of 34 flits one after another.)"""
    return fanin * wire(nbytes)


def node_coords(dims, n):
    c = []
    for k in dims:
        c.append(n % k)
        n //= k
    return tuple(c)


def torus_distance(dims, a, b):
    return sum(min((x - y) % k, (y - x) % k) for k, x, y in zip(dims, a, b))


@functools.lru_cache(maxsize=None)
def stripe_roots(dims, n):
    """canopy_fm_stripe_roots (fw/src/fm_tree.c) over every node from node 0: each next root
    the node farthest from the roots so far, the lowest index on a tie."""
    dims = list(dims)
    nodes = [node_coords(dims, v) for v in range(math.prod(dims))]
    roots, nearest = [0], [None] * len(nodes)
    while len(roots) < n:
        far = -1
        for v, c in enumerate(nodes):
            d = torus_distance(dims, c, nodes[roots[-1]])
            nearest[v] = d if nearest[v] is None else min(nearest[v], d)
            if nearest[v] > 0 and (far < 0 or nearest[v] > nearest[far]):
                far = v
        roots.append(far)
    return tuple(roots)


def tree_children(dims, offset):
    """Children of the node at `offset` (coordinates relative to the root) in the
    dimension-ordered tree (fw/src/fm_tree.c): the ring it arrived on goes on away from the
    root, floor(k/2) hops one way and ceil(k/2)-1 the other; every later dimension starts
    its ring from it."""
    entered = max((d for d, o in enumerate(offset) if o), default=-1)
    n = 0
    for d, k in enumerate(dims):
        up, down = k // 2, (k + 1) // 2 - 1
        if d == entered:
            o = offset[d]
            n += (o <= up and o + 1 <= up) if o <= up else (k - o + 1 <= down)
        elif d > entered:
            n += (up >= 1) + (down >= 1)
    return n


@functools.lru_cache(maxsize=None)
def stripe_port_flits(dims, nbytes, trees):
    """Flits the busiest router's collective port takes for a reduce of nbytes striped over
    `trees` trees (libcanopy: chunk j on tree j mod trees): per tree, its chunks' packets from
    each child and from the host (the engine's input) and its results from the parent (all
    but at the tree's root). One flit a cycle for both: the bound of a striped reduce."""
    dims = tuple(dims)
    chunks = max(1, math.ceil(nbytes / PKT_PAYLOAD))
    share = [0] * trees
    for j in range(chunks):
        share[j % trees] += wire(min(PKT_PAYLOAD, nbytes - j * PKT_PAYLOAD))
    roots = [node_coords(dims, r) for r in stripe_roots(dims, trees)]
    worst = 0
    for v in range(math.prod(dims)):
        c = node_coords(dims, v)
        flits = 0
        for t, r in enumerate(roots):
            off = tuple((x - y) % k for k, x, y in zip(dims, c, r))
            flits += share[t] * (tree_children(dims, off) + 1 + (1 if any(off) else 0))
        worst = max(worst, flits)
    return worst


def hw_time(k, tor, bench, nbytes, trees=1):
    """The routers' collectives on tree 0 rooted at node 0, from the synchronized start; a
    reduce or allreduce striped over `trees` trees when more than one (the records' field
    "trees"): then its stream is the busiest collective port's flits (stripe_port_flits)."""
    depth, fanin = tree_depth(tor.dims), root_fanin(tor.dims)
    fill = min(nbytes, FILL_BYTES)
    if trees > 1 and bench in ("reduce", "allreduce") and nbytes > PKT_PAYLOAD:
        reduce = k.t(ts_hw=1, tw_fill=fill, ts_up=depth,
                     tc_comb=stripe_port_flits(tuple(tor.dims), nbytes, trees))
        return reduce if bench == "reduce" else reduce + k.t(ts_down=depth)
    if bench == "bcast":
        return k.t(ts_hw=1, tw_fill=fill, _known=wire(nbytes), tw_tree=nbytes, ts_down=depth)
    if bench == "bcast-hop-latency":
        return k.t(ts_down=1)
    reduce = k.t(ts_hw=1, tw_fill=fill, ts_up=depth, tc_comb=engine_flits(nbytes, fanin))
    if bench == "reduce":
        return reduce
    if bench in ("allreduce", "barrier"):
        return reduce + k.t(ts_down=depth)  # the result on its way down to the last node
    raise ValueError(f"no model for {bench} hw")


def hop_slope(k, tor, times):
    """bcast_bench's --hop-latency figure: the least-squares slope of each node's
    completion time against its torus distance from the root."""
    x = [tor.h(0, r) for r in range(tor.P)]
    n, sx, sxx = tor.P, sum(x), sum(v * v for v in x)
    slope = k.zero()
    for xi, ti in zip(x, times):
        slope = slope + ti * ((n * xi - sx) / (n * sxx - sx * sx))
    return slope


def time_of(k, tor, bench, impl, nbytes, trees=1):
    """Cycles (a Lin or a float) of one benchmark point."""
    if bench == "put":
        return k.put(nbytes, 1)  # put_bench: PE 0 to PE 1, one hop
    if impl == "hw":
        return hw_time(k, tor, bench, nbytes, trees)
    if bench == "bcast-hop-latency":
        return hop_slope(k, tor, binomial_bcast(k, tor, 8))
    if bench == "bcast":
        return sw_bcast(k, tor, impl, nbytes)
    return sw_reduce_bench(k, tor, bench, impl, nbytes)


def predict(params, bench, impl, topology, nbytes):
    return time_of(Costs(params, linear=False), torus(topology), bench, impl, nbytes)


# ------------------------------------------------------------------ fitting
MODELED = ("bcast", "reduce", "allreduce", "barrier", "bcast-hop-latency", "put")


def measured_points(records):
    """(record, measured figure) of every record the model covers: cycles, or for
    bcast-hop-latency cycles per hop."""
    out = []
    for r in records:
        if r.get("bench") not in MODELED:
            continue
        if r["bench"] in ("reduce", "allreduce", "barrier") and (r.get("op", "sum"), r.get("dtype", "i64")) != ("sum", "i64"):
            continue  # the model's engine and combine costs are of the i64 sum measured
        figure = r.get("cycles_per_hop") if r["bench"] == "bcast-hop-latency" else r.get("cycles")
        if figure:
            out.append((r, float(figure)))
    return out


def solve(rows, rhs):
    """Least squares by the normal equations, columns scaled to unit norm first so that
    cycles and cycles-per-byte columns are comparable."""
    n = len(rows[0])
    scale = [math.sqrt(sum(row[j] ** 2 for row in rows)) for j in range(n)]
    a = [[sum(row[i] * row[j] for row in rows) / (scale[i] * scale[j]) for j in range(n)]
         + [sum(row[i] * y for row, y in zip(rows, rhs)) / scale[i]] for i in range(n)]
    for col in range(n):
        piv = max(range(col, n), key=lambda i: abs(a[i][col]))
        a[col], a[piv] = a[piv], a[col]
        if abs(a[col][col]) < 1e-12:
            raise ValueError("the fit is singular: two parameters the data cannot tell apart")
        for i in range(n):
            if i != col:
                f = a[i][col] / a[col][col]
                a[i] = [x - f * y for x, y in zip(a[i], a[col])]
    return [a[i][n] / a[i][i] / scale[i] for i in range(n)]


# The fit is robust (Huber weights on the relative error): a point within HUBER of its
# prediction counts fully, one further off with weight HUBER/|error|, so a point the model
# does not explain (a measurement effect it leaves out) cannot drag every other prediction
# away from the points it does explain.
HUBER = 0.10


def fit_once(points, params):
    """One weighted least-squares step: every point's critical path at the current
    parameters, then the free parameters that minimise the sum of weighted squared relative
    errors (weights from each point's error at the current parameters, HUBER). A parameter
    the fit would drive negative (unphysical) is held at 0 and the rest refitted; one no
    point depends on (records without hardware runs, say) keeps its value."""
    k = Costs(params, linear=True)
    lins = [(time_of(k, torus(r["topology"]), r["bench"], r.get("impl", "hw"), r.get("bytes", 0), r.get("trees", 1)), m)
            for r, m in points]
    errs = [abs(lin.v - m) / m for lin, m in lins]   # lin.v: the prediction at params
    weights = [1.0 if e <= HUBER else math.sqrt(HUBER / e) for e in errs]
    used = [n for n in FREE if any(lin.c[INDEX[n]] for lin, _ in lins)]
    free = list(used)
    while True:
        rows = [[w * lin.c[INDEX[n]] / m for n in free] for w, (lin, m) in zip(weights, lins)]
        rhs = [w * (m - sum(lin.c[INDEX[n]] * params[n] for n in NOT_FITTED)) / m for w, (lin, m) in zip(weights, lins)]
        sol = dict(zip(free, solve(rows, rhs)))
        neg = [n for n in free if sol[n] < 0]
        if not neg:
            break
        free.remove(min(neg, key=lambda n: sol[n]))
    return {**params, **{n: 0.0 for n in used}, **sol}


def fit(records, iterations=30):
    """Parameters fitted to every measured point. The critical paths the simulations pick
    depend on the parameters, so the linear fit repeats until the parameters settle."""
    points = measured_points(records)
    if not points:
        raise ValueError("no measured points to fit (bcast, reduce, allreduce, barrier, put records)")
    params = dict(START)
    hop = [r["cycles_per_hop"] for r in records if r.get("bench") == "hop-latency"]
    if hop:
        params["h_link"] = sum(hop) / len(hop)
    for _ in range(iterations):
        new = fit_once(points, params)
        settled = all(abs(new[n] - params[n]) <= 1e-9 * max(1.0, abs(params[n])) for n in NAMES)
        params = new
        if settled:
            break
    return params, points


# ------------------------------------------------------------------ records
PREDICT_TORI = ("16x16x16", "16x16x16x4")
PREDICT_BYTES = (8, 4096, 32768)
IMPLS = {
    "bcast": ["hw", "sw-binomial", "sw-scatter-allgather", "sw-chain"],
    "reduce": ["hw", "sw-binomial"],
    "allreduce": ["hw", "sw-binomial", "sw-recursive-doubling", "sw-ring"],
    "barrier": ["hw", "sw-dissemination"],
}


def model_records(records, params=None):
    """"model" records: every measured point with its prediction and relative error, then
    predictions of every implementation for 16x16x16 and 16x16x16x4."""
    if params is None:
        params, points = fit(records)
    else:
        points = measured_points(records)
    k = Costs(params, linear=False)
    out = []
    for r, m in points:
        impl = r.get("impl", "hw")
        p = time_of(k, torus(r["topology"]), r["bench"], impl, r.get("bytes", 0), r.get("trees", 1))
        out.append({"bench": "model", "of": r["bench"], "impl": impl, "topology": r["topology"],
                    "nodes": r["nodes"], "bytes": r.get("bytes", 0), "predicted_cycles": round(p, 1),
                    "measured_cycles": m, "rel_error": round((p - m) / m, 4)})
    for topology in PREDICT_TORI:
        tor = torus(topology)
        for bench, impls in IMPLS.items():
            for nbytes in (0,) if bench == "barrier" else PREDICT_BYTES:
                for impl in impls:
                    out.append({"bench": "model", "of": bench, "impl": impl, "topology": topology,
                                "nodes": tor.P, "bytes": nbytes,
                                "predicted_cycles": round(time_of(k, tor, bench, impl, nbytes), 1),
                                "measured_cycles": None, "rel_error": None})
    return out


def within(recs, tol=0.10):
    """(measured points predicted within tol, measured points)."""
    measured = [r for r in recs if r["measured_cycles"] is not None]
    return sum(abs(r["rel_error"]) <= tol for r in measured), len(measured)


def fit_record(params, recs):
    """The fit itself, as one record: the parameters and how well they predict."""
    ok, n = within(recs)
    return {"bench": "model-fit", "topology": "all", "nodes": 0,
            "params": {name: round(params[name], 6) for name, _, _ in PARAMS},
            "not_fitted": ["h_link"], "points": n, "within_10pct": ok,
            "share_within_10pct": round(ok / n, 4) if n else None}


def derived(params):
    """What the per-byte parameters mean in bytes per cycle, against the link's 8."""
    flit = 1 / LINK_BYTES * (PKT_PAYLOAD / LINK_BYTES + HDR_FLITS) / (PKT_PAYLOAD / LINK_BYTES)
    put, tree = 1 / (flit + params["tw_inj"]), 1 / (flit + params["tw_tree"])
    return {"put_bytes_per_cycle": put, "bcast_bytes_per_cycle": tree,
            "contention_factor": 1 + params["tw_dup"] / (flit + params["tw_inj"])}


def describe(params):
    lines = [f"{name:<8} {params[name]:10.4f} {unit:<13} {'(measured) ' if name == 'h_link' else ''}{what}"
             for name, unit, what in PARAMS]
    d = derived(params)
    lines += [f"  -> put stream {d['put_bytes_per_cycle']:.2f} bytes/cycle, hw broadcast stream "
              f"{d['bcast_bytes_per_cycle']:.2f} (link: {LINK_BYTES}); contention factor "
              f"{d['contention_factor']:.2f} on a host interface's stream while it also receives"]
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--records", default=os.path.join(ROOT, "docs", "perf-results.json"))
    ap.add_argument("--worst", type=int, default=15, help="list this many of the worst points")
    ap.add_argument("--all", action="store_true", help="list every measured point")
    args = ap.parse_args()
    with open(args.records) as f:
        records = json.load(f)
    params, _ = fit(records)
    recs = model_records(records, params)
    print("fitted parameters (robust least squares on the relative error over every measured point):")
    print("\n".join("  " + line for line in describe(params)))
    ok, n = within(recs)
    print(f"\n{ok} of {n} measured points within 10% ({100 * ok / n:.0f}%)")
    measured = sorted((r for r in recs if r["measured_cycles"] is not None), key=lambda r: -abs(r["rel_error"]))
    print("\nevery point, worst first:" if args.all else f"\nthe {args.worst} worst points:")
    for r in measured if args.all else measured[:args.worst]:
        unit = "cycles/hop" if r["of"] == "bcast-hop-latency" else "cycles"
        print(f"  {r['of']:<17} {r['impl']:<21} {r['topology']:<6} {r['bytes']:>7} B  predicted "
              f"{r['predicted_cycles']:>9.1f}  measured {r['measured_cycles']:>9.1f} {unit:<10} "
              f"{100 * r['rel_error']:+6.1f}%")
    print("\npredictions (cycles):")
    for r in recs:
        if r["measured_cycles"] is None:
            print(f"  {r['of']:<10} {r['impl']:<21} {r['topology']:<10} {r['bytes']:>6} B  {r['predicted_cycles']:>12.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
