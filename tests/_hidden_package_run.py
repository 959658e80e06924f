"""Run the CLI commands and converters with optional packages hidden; print one JSON object.

Started by tests/test_optional.py as ``python _hidden_package_run.py HIDDEN SCRATCH [CASE...]``:
the packages of the comma-separated HIDDEN look uninstalled (``sys.modules[name] = None``),
SCRATCH holds ``g.txt`` and ``g.parquet`` (the same graph) and receives outputs. Runs the
named cases (all by default; ``needing`` names those that need a hidden package) in this
one process and reports, per case, the packages it
needs, its exit status (CLI) or exception name (converter), and its stderr lines.
"""

import contextlib
import importlib.abc
import importlib.util
import io
import json
import sys
import traceback

hidden, scratch, chosen = sys.argv[1].split(","), sys.argv[2], sys.argv[3:]


class Hide(importlib.abc.MetaPathFinder):
    """Importing a hidden package fails as if it were not installed."""

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in hidden:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)


def find_spec(name, package=None, _find_spec=importlib.util.find_spec):
    """Looking a hidden package up finds nothing (``sys.modules[name] = None`` would do the
    same, but compiled modules such as pyarrow's take that None for the module)."""
    return None if name.split(".")[0] in hidden else _find_spec(name, package)


sys.meta_path.insert(0, Hide())
importlib.util.find_spec = find_spec

import parmst  # after hiding
from parmst.cli import main

graph, ids = f"{scratch}/g.txt", f"{scratch}/f.ids"
bench = ["bench", "--graph", "rmat:scale=3,seed=1", "--solver", "kruskal/serial", "--repeat", "1",
         "--out", f"{scratch}/bench", "--no-progress"]
peers = [name for name in ("scipy", "networkx", "igraph", "networkit") if name in hidden]
# name: (packages whose absence must give one line naming their extra, argv)
COMMANDS = {
    "info": ((), ["info"]),
    "solve": ((), ["solve", graph, "--verify", "-o", ids]),
    "solve approximate": ((), ["solve", graph, "--solver", "prim-bmv/cpu", "--verify"]),
    "verify": ((), ["verify", graph, ids]),
    "generate": ((), ["generate", "rmat:scale=3,seed=1", "--output", f"{scratch}/r.txt"]),
    "warmup": ((), ["warmup", "--backend", "serial", "--quiet"]),
    "convert to parquet": (("pyarrow",), ["convert", graph, f"{scratch}/c.parquet"]),
    "solve parquet": (("pyarrow",), ["solve", f"{scratch}/g.parquet"]),
    # CSV tables of names need neither pyarrow nor pandas (parmst's own reader, NumPy's numbering)
    "solve csv": ((), ["solve", f"{scratch}/g.csv", "-o", f"{scratch}/f.csv"]),
    "solve delaunay": (("scipy",), ["solve", "--generate", "delaunay:n=20"]),
    "solve metis": (("pymetis",), ["solve", graph, "--solver", "prim-bmv/cpu", "--option",
                                   "partition=metis"]),
    "solve mpi": (("mpi4py",), ["solve", graph, "--solver", "ghs/mpi"]),
    "solve opencl": (("pyopencl",), ["solve", graph, "--solver", "ecl/opencl"]),
    "solve gpu": (("numba_cuda",), ["solve", graph, "--solver", "ecl/gpu"]),
    "emst": ((), ["emst", "--generate", "uniform-points:n=50,d=2,seed=1", "--verify", "-o",
                  f"{scratch}/l.npy"]),
    # a Parquet table's numeric columns are a point set's coordinates
    "emst parquet": (("pyarrow",), ["emst", f"{scratch}/g.parquet"]),
    "emst gpu": (("numba_cuda",), ["emst", "--generate", "uniform-points:n=50,d=2,seed=1",
                                   "--solver", "boruvka-bvh/gpu"]),
    # bench goes on without a missing peer (asked for) or matplotlib, saying what it skipped
    "bench": ((), [*bench, "--peers", ",".join(peers) or "none"]),
}
g = parmst.Graph.from_edges([0, 1], [1, 2], [1.0, 2.0])
f = parmst.minimum_spanning_forest(g, solver="kruskal/serial")
CONVERTERS = {
    "Graph.to_scipy": (("scipy",), g.to_scipy),
    "Graph.to_networkx": (("networkx",), g.to_networkx),
    "Forest.to_scipy": (("scipy",), f.to_scipy),
    "Forest.to_networkx": (("networkx",), f.to_networkx),
    "Forest.to_igraph": (("igraph",), f.to_igraph),
    "Forest.to_pandas": (("pandas",), f.to_pandas),
    "Forest.to_table": (("pyarrow",), f.to_table),
    "import parmst.scipy": (("scipy",), lambda: __import__("parmst.scipy")),
    "Graph.write parquet": (("pyarrow",), lambda: g.write(f"{scratch}/w.parquet")),
    "Graph.read parquet": (("pyarrow",), lambda: parmst.Graph.read(f"{scratch}/g.parquet")),
    "partition metis": (("pymetis",), lambda: parmst.partition(g, 2, method="metis")),
}



def selected(name: str, needs: tuple[str, ...]) -> bool:
    return (not chosen or name in chosen
            or ("needing" in chosen and any(module in hidden for module in needs)))


results = {}
for name, (needs, argv) in COMMANDS.items():
    if not selected(name, needs):
        continue
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            status = main(argv)
        except BaseException:  # noqa: BLE001 - what escapes main is what a user would see
            status, err = "escaped", io.StringIO(traceback.format_exc())
    results[name] = {"needs": needs, "status": status, "stderr": err.getvalue().splitlines()}
for name, (needs, call) in CONVERTERS.items():
    if not selected(name, needs):
        continue
    try:
        call()
        status, message = 0, ""
    except Exception as exc:  # noqa: BLE001 - the test judges the type
        status, message = type(exc).__name__, str(exc)
    results[name] = {"needs": needs, "status": status, "stderr": message.splitlines()}
print(json.dumps(results))
