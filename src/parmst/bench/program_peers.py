"""Peers that are programs the user builds from public sources, run as subprocesses.

Each is named by an environment variable and times itself: PBBS's parallel filter-Kruskal
(``PARMST_PBBS_MST``) on a ``WeightedEdgeArray`` file, ECL-MST's CUDA binary
(``PARMST_ECL_MST``) on an ``.egr`` file, and the ParGeo EMST driver
(``PARMST_PARGEO_EMST``) on raw float64 points. Here: how each one's input is written, how
it is run and how its own timer and result are read back; :mod:`parmst.bench.peers`
registers them as :class:`~parmst.bench.peers.Peer` entries.
"""

from __future__ import annotations

import math
import os
import re
import subprocess
import tempfile
from dataclasses import dataclass

import numpy as np

from parmst.forest import exact_sum

__all__ = ["ECL_MST_PROGRAM", "PARGEO_EMST_PROGRAM", "PBBS_PROGRAM"]

PBBS_PROGRAM = "PARMST_PBBS_MST"
"""Environment variable naming the built PBBS ``MST`` binary (parallelFilterKruskal)."""


@dataclass
class _PbbsInput:
    """A graph written as a PBBS ``WeightedEdgeArray`` file, and its weights by edge id."""

    folder: tempfile.TemporaryDirectory
    weight: np.ndarray

    @property
    def path(self) -> str:
        return os.path.join(self.folder.name, "graph.wea")


# The line PBBS's time_loop prints after each timed call ("Parlay time: 0.1234").
_PBBS_TIME = re.compile(rb"^Parlay time: ([0-9.]+)$", re.MULTILINE)


def _pbbs_input(src: np.ndarray, dst: np.ndarray, weight: np.ndarray, n: int) -> _PbbsInput:
    from parmst.formats import pbbs
    from parmst.graph import Graph

    prepared = _PbbsInput(tempfile.TemporaryDirectory(prefix="parmst-pbbs-"), weight)
    pbbs.write(Graph(src, dst, weight, n), prepared.path, progress=False)
    return prepared


def _pbbs_solve(prepared: _PbbsInput, calls: int
                ) -> tuple[list[float], tuple[np.ndarray, np.ndarray]]:
    """Run PBBS's ``MST -r calls`` once: its own timer's seconds per call, and its edge ids
    with the graph's weights."""
    out = os.path.join(prepared.folder.name, "forest.txt")
    done = subprocess.run([os.environ[PBBS_PROGRAM], "-r", str(calls), "-o", out, prepared.path],
                          capture_output=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{os.environ[PBBS_PROGRAM]} exited with status {done.returncode}: "
                           f"{done.stderr.decode(errors='replace').strip()[-300:]}")
    times = [float(seconds) for seconds in _PBBS_TIME.findall(done.stdout)]
    if len(times) != calls:
        raise RuntimeError(f"expected {calls} 'Parlay time' lines from PBBS, found {len(times)}")
    # Its output: the header word "sequenceInt", then one edge id per line.
    with open(out, "rb") as f:
        header = f.readline().strip()
        ids = np.loadtxt(f, dtype=np.int64, ndmin=1)
    if header != b"sequenceInt":
        raise RuntimeError(f"PBBS's output {out} starts with {header!r}, not 'sequenceInt'")
    return times, (ids, prepared.weight)


def _pbbs_weight(result: tuple[np.ndarray, np.ndarray]) -> int | float:
    ids, weight = result
    return exact_sum(weight[ids])


ECL_MST_PROGRAM = "PARMST_ECL_MST"
"""Environment variable naming the built ECL-MST binary (benchmarks/ecl_mst_side_by_side.sh)."""

# ECL-MST's timer line: "Dev+" with filtering, "Dev-" without; its GPU computation alone.
_ECL_MST_TIME = re.compile(r"^Dev[+-]:\s*([0-9.eE+-]+) s", re.MULTILINE)


def _egr_input(src: np.ndarray, dst: np.ndarray, weight: np.ndarray, n: int
               ) -> tempfile.TemporaryDirectory:
    from parmst import io
    from parmst.graph import Graph

    folder = tempfile.TemporaryDirectory(prefix="parmst-ecl-mst-")
    io.write(Graph(src, dst, weight, n), os.path.join(folder.name, "graph.egr"), format="egr",
             progress=False)
    return folder


def _ecl_mst_solve(folder: tempfile.TemporaryDirectory, calls: int) -> tuple[list[float], bool]:
    """Run ECL-MST ``calls`` times (a process each): its own timer's seconds, and whether
    every run's own check ("all good") passed."""
    times, all_good = [], True
    for _ in range(calls):
        # EAGER module loading keeps the kernels' loading out of ECL-MST's timer.
        done = subprocess.run([os.environ[ECL_MST_PROGRAM], os.path.join(folder.name, "graph.egr")],
                              capture_output=True, text=True, check=False,
                              env={**os.environ, "CUDA_MODULE_LOADING": "EAGER"})
        output = done.stdout + done.stderr
        found = _ECL_MST_TIME.search(done.stdout)
        if done.returncode != 0 or found is None:
            raise RuntimeError(f"ECL-MST exited with {done.returncode} and no 'Dev+:'/'Dev-:' "
                               f"time: {output[-300:]!r}")
        times.append(float(found.group(1)))
        all_good = all_good and "all good" in done.stdout
    return times, all_good


def _ecl_mst_weight(all_good: bool) -> float | None:
    return None if all_good else math.nan


PARGEO_EMST_PROGRAM = "PARMST_PARGEO_EMST"
"""Environment variable naming the ParGeo EMST driver (benchmarks/pargeo_side_by_side.sh)."""

# The driver's line per call: "pargeo-emst SECONDS s total WEIGHT edges COUNT workers P".
_PARGEO_TIME = re.compile(r"^pargeo-emst ([0-9.eE+-]+) s", re.MULTILINE)


def _pargeo_input(points: np.ndarray, min_samples: int | None
                  ) -> tuple[tempfile.TemporaryDirectory, np.ndarray]:
    """The points as the driver reads them: int64 ``n, d``, then the float64 rows."""
    points = np.ascontiguousarray(points, dtype=np.float64)
    folder = tempfile.TemporaryDirectory(prefix="parmst-pargeo-")
    with open(os.path.join(folder.name, "points.bin"), "wb") as f:
        f.write(np.array(points.shape, dtype=np.int64).tobytes())
        f.write(points.tobytes())
    return folder, points


def _pargeo_solve(prepared: tuple[tempfile.TemporaryDirectory, np.ndarray], calls: int
                  ) -> tuple[list[float], tuple[np.ndarray, np.ndarray]]:
    """Run the driver once for ``calls`` calls: its timer's seconds per call, and the last
    call's tree as index pairs (int64 rows ``u, v``) with the points."""
    folder, points = prepared
    pairs_path = os.path.join(folder.name, "pairs.bin")
    done = subprocess.run([os.environ[PARGEO_EMST_PROGRAM], os.path.join(folder.name, "points.bin"),
                           str(calls), pairs_path], capture_output=True, text=True, check=False)
    times = [float(seconds) for seconds in _PARGEO_TIME.findall(done.stdout)]
    if done.returncode != 0 or len(times) != calls:
        raise RuntimeError(f"{os.environ[PARGEO_EMST_PROGRAM]} exited with {done.returncode} after "
                           f"{len(times)} of {calls} calls: {(done.stdout + done.stderr)[-300:]!r}")
    return times, (np.fromfile(pairs_path, dtype=np.int64).reshape(-1, 2), points)


def _pargeo_weight(result: tuple[np.ndarray, np.ndarray]) -> float:
    pairs, points = result
    return exact_sum(np.sqrt(((points[pairs[:, 0]] - points[pairs[:, 1]]) ** 2).sum(axis=1)))
