"""Solver statistics: initialization vs computation time, phases, rounds.

The papers time building views and transfers ("initialization") apart from
the algorithm itself ("computation"); every solver does the same through
:class:`Stats` so the bench harness can report both.
"""

from __future__ import annotations

import time
from contextlib import AbstractContextManager
from dataclasses import asdict, dataclass, field
from typing import Any

from parmst._jit import compile_seconds

__all__ = ["Stats"]


@dataclass
class Stats:
    """What a solve measured.

    Attributes
    ----------
    init_time, compute_time : float
        Seconds spent building views or moving data, and in the algorithm,
        not counting kernel compilation.
    compile_time : float
        Seconds spent compiling kernels (or loading them from Numba's
        cache) inside the timed blocks: the first call's one-off cost, kept
        out of ``init_time`` and ``compute_time`` so those are warm times.
    phases : dict[str, float]
        Seconds per named phase (kernel names, steps), in either part: key
        preparation or a matrix build is a phase of initialization, kernels
        are phases of computation; compilation excluded.
    rounds : int or None
        Borůvka rounds, Prim steps, filter passes: what the solver iterates.
    worklist_sizes : list[int]
        Live edges (or vertices) at the start of each round.
    device : str
        Where it ran ("cpu", "cuda:0 NVIDIA H100", ...).
    threads : int or None
        Threads or ranks used.
    extra : dict
        Solver-specific figures (memory used, filter threshold, ...).
    """

    init_time: float = 0.0
    compute_time: float = 0.0
    compile_time: float = 0.0
    phases: dict[str, float] = field(default_factory=dict)
    rounds: int | None = None
    worklist_sizes: list[int] = field(default_factory=list)
    device: str = "cpu"
    threads: int | None = 1
    extra: dict[str, Any] = field(default_factory=dict)

    def init(self) -> AbstractContextManager[None]:
        """Time a block as initialization (its kernel compilation goes to ``compile_time``)."""
        return _Timer(self, "init_time")

    def compute(self) -> AbstractContextManager[None]:
        """Time a block as computation (its kernel compilation goes to ``compile_time``)."""
        return _Timer(self, "compute_time")

    def phase(self, name: str) -> AbstractContextManager[None]:
        """Time a block as one occurrence of a named phase (accumulates; compilation excluded).

        Phases sit inside :meth:`init` or :meth:`compute`, which book the
        compilation, so a phase only leaves it out.
        """
        return _Timer(self, None, name)

    @property
    def total_time(self) -> float:
        """Initialization plus computation: the warm run's time, compilation excluded."""
        return self.init_time + self.compute_time

    def as_dict(self) -> dict[str, Any]:
        """Plain data, for JSON reports."""
        return asdict(self)


class _Timer:
    """One timed block of a :class:`Stats`: its seconds without compilation go to the
    attribute ``book`` (``"init_time"``, ``"compute_time"``; the compilation then to
    ``compile_time``) or, with ``book`` None, to the phase ``phase``.

    A plain class rather than a generator-based context manager: solvers time
    several blocks per call, and on a graph of ten thousand edges the
    generators' overhead was a measurable part of the whole solve.
    """

    __slots__ = ("_book", "_compiled", "_phase", "_start", "_stats")

    def __init__(self, stats: Stats, book: str | None, phase: str = "") -> None:
        self._stats, self._book, self._phase = stats, book, phase

    def __enter__(self) -> None:
        self._compiled = compile_seconds()
        self._start = time.perf_counter()

    def __exit__(self, *exc: object) -> None:
        elapsed = time.perf_counter() - self._start
        compile_ = compile_seconds() - self._compiled
        stats = self._stats
        if self._book is None:
            stats.phases[self._phase] = stats.phases.get(self._phase, 0.0) + elapsed - compile_
        else:
            setattr(stats, self._book, getattr(stats, self._book) + elapsed - compile_)
            stats.compile_time += compile_
