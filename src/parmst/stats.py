"""Solver statistics: initialization vs computation time, phases, rounds.

The papers time building views and transfers ("initialization") apart from
the algorithm itself ("computation"); every solver does the same through
:class:`Stats` so the bench harness can report both.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = ["Stats"]


@dataclass
class Stats:
    """What a solve measured.

    Attributes
    ----------
    init_time, compute_time : float
        Seconds spent building views or moving data, and in the algorithm.
    phases : dict[str, float]
        Seconds per named phase (kernel names, steps), in either part: key
        preparation or a matrix build is a phase of initialization, kernels
        are phases of computation.
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
    phases: dict[str, float] = field(default_factory=dict)
    rounds: int | None = None
    worklist_sizes: list[int] = field(default_factory=list)
    device: str = "cpu"
    threads: int | None = 1
    extra: dict[str, Any] = field(default_factory=dict)

    @contextmanager
    def init(self) -> Iterator[None]:
        """Time a block as initialization."""
        start = time.perf_counter()
        try:
            yield
        finally:
            self.init_time += time.perf_counter() - start

    @contextmanager
    def compute(self) -> Iterator[None]:
        """Time a block as computation."""
        start = time.perf_counter()
        try:
            yield
        finally:
            self.compute_time += time.perf_counter() - start

    @contextmanager
    def phase(self, name: str) -> Iterator[None]:
        """Time a block as one occurrence of a named phase (accumulates)."""
        start = time.perf_counter()
        try:
            yield
        finally:
            self.phases[name] = self.phases.get(name, 0.0) + time.perf_counter() - start

    @property
    def total_time(self) -> float:
        return self.init_time + self.compute_time

    def as_dict(self) -> dict[str, Any]:
        """Plain data, for JSON reports."""
        return asdict(self)
