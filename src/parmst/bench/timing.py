"""The clock, and which of several timed runs to report: the median (Fallin et al.) or
k-best (Sousa).

Fallin et al. (section 4) repeats every experiment 9 times and reports the median.
Sousa (section 5.1) uses the k-best scheme: 5 measurements, ``k = 3``,
5 % tolerance, "the 3 best results, that are within the 5% tolerance of each
other, are selected. The best of the 3 is then used". When the three best are
not within the tolerance the run is flagged as not converged (the best is still
reported), so a noisy measurement is visible in the report instead of hidden.
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from parmst.bench.result import Record

__all__ = ["KBEST", "MEDIAN", "Scheme", "Selection", "clocked", "finish", "pick", "select"]


@dataclass(frozen=True)
class Scheme:
    """How many runs to time and how to pick the reported one.

    Attributes
    ----------
    kind : str
        ``"median"`` or ``"kbest"``.
    runs : int
        Timed runs (the warm-up run comes on top).
    k : int
        For k-best: how many of the fastest runs must agree.
    tolerance : float
        For k-best: relative spread allowed among those ``k`` runs.
    warmup : str
        What the untimed warm-up run solves: ``"graph"``, the graph itself, or
        ``"prefix"``, its first ``WARMUP_PREFIX_EDGES`` edges (see
        :mod:`parmst.bench.solver_timing`).
    """

    kind: str = "median"
    runs: int = 9
    k: int = 3
    tolerance: float = 0.05
    warmup: str = "graph"

    def __post_init__(self) -> None:
        if self.kind not in ("median", "kbest"):
            raise ValueError(f"scheme must be 'median' or 'kbest', got {self.kind!r}")
        if self.warmup not in WARMUPS:
            raise ValueError(f"warmup must be one of {', '.join(WARMUPS)}, got {self.warmup!r}")
        if self.runs < 1:
            raise ValueError(f"need at least one timed run, got {self.runs}")
        if self.kind == "kbest" and not 1 <= self.k <= self.runs:
            raise ValueError(f"k-best needs 1 <= k <= runs, got k={self.k}, runs={self.runs}")

    def describe(self) -> str:
        """Words for report headers, e.g. ``"median of 9 runs"``."""
        if self.kind == "median":
            return f"median of {self.runs} runs"
        return (f"k-best: best of the {self.k} fastest of {self.runs} runs "
                f"(within {self.tolerance:.0%})")

    def describe_warmup(self, prefix_edges: int) -> str:
        """Words for the warm-up, e.g. ``"after a warm-up run"``."""
        if self.warmup == "graph":
            return "after a warm-up run"
        return f"after a warm-up run on the graph's first {prefix_edges:,} edges"


WARMUPS = ("graph", "prefix")
MEDIAN = Scheme("median", 9)
KBEST = Scheme("kbest", 5, 3, 0.05)


@dataclass(frozen=True)
class Selection:
    """The reported time and where it came from.

    ``index`` is the run whose time is reported (for the median of an even
    number of runs, the faster of the two middle runs); ``converged`` is False
    only for k-best when the ``k`` fastest runs spread more than the tolerance.
    """

    value: float
    index: int
    converged: bool = True


def select(times: Sequence[float], scheme: Scheme = MEDIAN) -> Selection:
    """Pick the time to report from ``times`` under ``scheme``.

    Examples
    --------
    >>> select([3.0, 1.0, 2.0]).value
    2.0
    >>> s = select([1.00, 1.03, 1.04, 2.0, 5.0], KBEST)
    >>> s.value, s.index, s.converged
    (1.0, 0, True)
    >>> select([1.0, 1.2, 1.3, 1.4, 1.5], KBEST).converged
    False
    """
    if not times:
        raise ValueError("no timed runs to select from")
    order = sorted(range(len(times)), key=lambda i: times[i])
    if scheme.kind == "median":
        return Selection(statistics.median(times), order[(len(times) - 1) // 2])
    fastest = order[: scheme.k]
    best, kth = times[fastest[0]], times[fastest[-1]]
    return Selection(best, fastest[0], kth <= best * (1 + scheme.tolerance))


def pick(values: Sequence[float], selection: Selection, scheme: Scheme) -> float:
    """The companion figure (init time, a phase) matching a selected total time.

    For the median scheme that is the median of ``values`` itself; for k-best,
    the value measured in the selected run.

    Examples
    --------
    >>> pick([5.0, 1.0, 3.0], Selection(2.0, 2), MEDIAN)
    3.0
    >>> pick([5.0, 1.0, 3.0], Selection(2.0, 2), KBEST)
    3.0
    """
    if scheme.kind == "median":
        return statistics.median(values)
    return values[selection.index]


def clocked(action: Callable[[], Any]) -> tuple[Any, float, float]:
    """``action()``, its wall-clock seconds and this process's CPU seconds (all threads).

    The garbage collector is off meanwhile, as in :mod:`timeit`.

    Examples
    --------
    >>> value, wall, cpu = clocked(lambda: sum(range(10)))
    >>> value, wall >= 0, cpu >= 0
    (45, True, True)
    """
    gc.disable()
    try:
        wall, cpu = time.perf_counter(), time.process_time()
        value = action()
        return value, time.perf_counter() - wall, time.process_time() - cpu
    finally:
        gc.enable()


def finish(record: Record, scheme: Scheme, phases: list[dict[str, float]]) -> None:
    """Fill a record's reported figures from its timed runs under ``scheme``.

    ``time`` is the selected run's (:func:`select`); init, compute, CPU time and
    each of ``phases`` (one dict per run) are the matching figures (:func:`pick`).
    """
    selection = select(record.times, scheme)
    record.time = selection.value
    record.converged = selection.converged
    if record.init_times:
        record.init_time = pick(record.init_times, selection, scheme)
        record.compute_time = pick(record.compute_times, selection, scheme)
    if record.cpu_times:
        record.cpu_time = pick(record.cpu_times, selection, scheme)
    names = sorted({name for run in phases for name in run})
    record.phases = {name: pick([run.get(name, 0.0) for run in phases], selection, scheme)
                     for name in names}
