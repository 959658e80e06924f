"""Solver statistics: initialization vs computation time, phases, rounds.

The papers time building views and transfers ("initialization") apart from
the algorithm itself ("computation"); every solver does the same through
:class:`Stats` so the bench harness can report both.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
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
        return self._book("init_time")

    def compute(self) -> AbstractContextManager[None]:
        """Time a block as computation (its kernel compilation goes to ``compile_time``)."""
        return self._book("compute_time")

    @contextmanager
    def _book(self, attribute: str) -> Iterator[None]:
        start, compiled = _clocks()
        try:
            yield
        finally:
            run, compile_ = _split(start, compiled)
            setattr(self, attribute, getattr(self, attribute) + run)
            self.compile_time += compile_

    @contextmanager
    def phase(self, name: str) -> Iterator[None]:
        """Time a block as one occurrence of a named phase (accumulates; compilation excluded).

        Phases sit inside :meth:`init` or :meth:`compute`, which book the
        compilation, so a phase only leaves it out.
        """
        start, compiled = _clocks()
        try:
            yield
        finally:
            self.phases[name] = self.phases.get(name, 0.0) + _split(start, compiled)[0]

    @property
    def total_time(self) -> float:
        """Initialization plus computation: the warm run's time, compilation excluded."""
        return self.init_time + self.compute_time

    def as_dict(self) -> dict[str, Any]:
        """Plain data, for JSON reports."""
        return asdict(self)


def _clocks() -> tuple[float, float]:
    return time.perf_counter(), compile_seconds()


def _split(start: float, compiled: float) -> tuple[float, float]:
    """Seconds since ``start`` without the compilation since then, and that compilation."""
    compile_ = compile_seconds() - compiled
    return time.perf_counter() - start - compile_, compile_
