"""Where a ``parmst.minimum_spanning_forest`` call spends its time outside the solver.

For each float64 real-weights family at about 100 k edges (the graphs of
``parmst bench --suite real-weights-small``), the script builds a fresh
:class:`parmst.Graph` from the same arrays for every call, as a user holding
NumPy arrays does, and reports medians over ``--calls`` calls of

* ``call``: ``Graph.from_edges`` plus ``minimum_spanning_forest``, the whole call;
* ``solver``: the solver's own ``init_time + compute_time`` (``Forest.stats``);
* ``outside``: the rest, and its ``share`` of the call (issue 12's goal: under 10 %);
  ``share_msf`` is the same share of ``minimum_spanning_forest`` alone, the graph
  built beforehand;

and, timed apart over the same number of calls on fresh graphs, the pieces of
that rest: ``validate`` (``Graph.from_edges``), ``dispatch`` (``registry.select`` for
"auto", the option check, ``can_run``), ``has_nan`` (the NaN scan before dispatch),
``forest`` (``Forest.from_edge_ids``: sorting the ids) and, not part of the call,
``read`` (reading the forest's ``src``, ``dst``, ``weight`` and exact ``total_weight``,
which are gathered and summed on first read) and ``exact_sum`` (that sum alone). ``--profile`` adds a cProfile listing of the calls of one graph.

Run it as::

    PYTHONPATH=src python benchmarks/call_overhead.py --calls 150

Timings on a shared machine are noisy: quote ``/proc/loadavg`` beside them (the
script prints it).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import time

import numpy as np

import parmst
from parmst import registry
from parmst.bench.suites import load_graph
from parmst.forest import Forest, exact_sum
from parmst.stats import Stats

GRAPHS = {"road": "road:side=271,weights=float,seed=1",
          "grid2d": "grid2d:side=224,weights=float,seed=1",
          "delaunay": "delaunay:n=33334,weights=float,seed=1",
          "random-degree": "random-degree:n=25000,weights=float,seed=1"}


def _median_ms(times: list[float]) -> float:
    return 1e3 * statistics.median(times)


def measure(spec: str, calls: int, solver: str) -> dict[str, float]:
    """Medians (ms) of the whole call, the solver's time and each piece outside it."""
    base = load_graph(spec)
    arrays = (np.array(base.src), np.array(base.dst), np.array(base.weight))
    parmst.minimum_spanning_forest(parmst.Graph.from_edges(*arrays), solver)  # compile
    call, solve, inside = [], [], []
    for _ in range(calls):
        t0 = time.perf_counter()
        graph = parmst.Graph.from_edges(*arrays)
        t1 = time.perf_counter()
        forest = parmst.minimum_spanning_forest(graph, solver)
        t2 = time.perf_counter()
        call.append(t2 - t0)
        solve.append(t2 - t1)
        inside.append(forest.stats.init_time + forest.stats.compute_time)
        graph = forest = None  # freed here, outside the timed region
    outside = [c - i for c, i in zip(call, inside)]
    pieces: dict[str, list[float]] = {k: [] for k in
                                      ("validate", "has_nan", "dispatch", "forest", "read",
                                       "exact_sum")}
    for _ in range(calls):
        t0 = time.perf_counter()
        graph = parmst.Graph.from_edges(*arrays)
        t1 = time.perf_counter()
        graph.has_nan
        t2 = time.perf_counter()
        chosen = registry.select(graph) if solver == "auto" else registry.get(solver)
        chosen.can_run(graph, {})
        run = chosen.load()
        t3 = time.perf_counter()
        ids = np.asarray(run(graph, Stats(), **chosen.options))
        t4 = time.perf_counter()
        forest = Forest.from_edge_ids(graph, ids, solver=chosen.name, stats=Stats())
        t5 = time.perf_counter()
        forest.src, forest.dst, forest.total_weight
        t6 = time.perf_counter()
        exact_sum(forest.weight)
        t7 = time.perf_counter()
        graph = forest = None
        for name, seconds in (("validate", t1 - t0), ("has_nan", t2 - t1), ("dispatch", t3 - t2),
                              ("forest", t5 - t4), ("read", t6 - t5), ("exact_sum", t7 - t6)):
            pieces[name].append(seconds)
    row = {"call": _median_ms(call), "solver": _median_ms(inside),
           "outside": _median_ms(outside)}
    row["share"] = 100 * statistics.median(o / c for o, c in zip(outside, call))
    row["share_msf"] = 100 * statistics.median((s - i) / s for s, i in zip(solve, inside))
    row.update({name: _median_ms(times) for name, times in pieces.items()})
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--calls", type=int, default=150)
    parser.add_argument("--solver", default="auto")
    parser.add_argument("--only", nargs="*", default=list(GRAPHS), choices=list(GRAPHS))
    parser.add_argument("--profile", choices=list(GRAPHS),
                        help="also print a cProfile listing of the calls on this graph")
    args = parser.parse_args()
    print(f"load {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}, {args.calls} calls, "
          f"solver {args.solver}, medians in ms")
    columns = ("call", "solver", "outside", "share", "share_msf", "validate", "has_nan", "dispatch",
               "forest", "read", "exact_sum")
    print(f"{'graph':<14}" + "".join(f"{c:>10}" for c in columns))
    for name in args.only:
        row = measure(GRAPHS[name], args.calls, args.solver)
        print(f"{name:<14}" + "".join(
            f"{row[c]:>9.1f}%" if c.startswith("share") else f"{row[c]:>10.3f}" for c in columns))
    if args.profile:
        base = load_graph(GRAPHS[args.profile])
        arrays = (np.array(base.src), np.array(base.dst), np.array(base.weight))
        profile = cProfile.Profile()
        profile.enable()
        for _ in range(args.calls):
            parmst.minimum_spanning_forest(parmst.Graph.from_edges(*arrays), args.solver)
        profile.disable()
        pstats.Stats(profile).sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()
