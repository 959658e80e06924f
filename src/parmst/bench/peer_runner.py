"""The peers' worker process: runs :data:`parmst.bench.peers.PEERS` jobs within a budget.

:class:`PeerRunner` starts ``python -m parmst.bench._peer_worker`` and talks
pickles over its standard input and output; a job that overruns its time
budget is stopped with the worker, which starts again for the next job.
"""

from __future__ import annotations

import importlib
import os
import pickle
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, BinaryIO

import numpy as np

from parmst.bench.peers import PEERS

if TYPE_CHECKING:
    from typing import Self  # Python 3.11+; annotations here are never evaluated

__all__ = ["PeerOutcome", "PeerRunner", "worker_main"]


@dataclass
class PeerOutcome:
    """What a peer did on one graph: its times and weight (and, for a call that wraps a
    solve, the times of that bare solve paired with its runs; for a call with a floor, the
    floor's times on the same graph paired with its runs), or why it did not run."""

    times: list[float] = field(default_factory=list)
    prepare_time: float | None = None
    total_weight: int | float | None = None
    pair_ids: np.ndarray | None = None
    wrapped_solver: str | None = None
    wrapped_times: list[float] = field(default_factory=list)
    floor_times: list[float] = field(default_factory=list)
    skipped: str | None = None
    error: str | None = None


def _serve(jobs: BinaryIO, replies: BinaryIO) -> None:
    """Worker loop: run peer jobs sent by :class:`PeerRunner` until told to stop."""

    def reply(*message: Any) -> None:
        pickle.dump(message, replies, protocol=pickle.HIGHEST_PROTOCOL)
        replies.flush()

    while True:
        job = pickle.load(jobs)
        if job is None:
            return
        name, inputs, runs = job
        peer = PEERS[name]
        try:
            if peer.module is not None:
                importlib.import_module(peer.module)
            start = time.perf_counter()
            prepared = peer.prepare(*inputs)
            reply("prepared", time.perf_counter() - start)
            if peer.times_itself:  # one program run makes the warm-up call and the timed ones
                times, result = peer.solve(prepared, runs + 1)
                total = peer.weight_of(result)
                for elapsed in times:
                    reply("run", elapsed, total)
                if peer.pair_ids_of is not None:
                    reply("pairs", peer.pair_ids_of(result, *inputs))
            else:
                floor = None if peer.floor is None else PEERS[peer.floor]
                for run in range(runs + 1):
                    # The floor on the same graph beside each run, first on every other run,
                    # so that neither always finds the graph as the other left it in cache.
                    if floor is not None and run % 2:
                        reply("floor", _wall(floor.solve, prepared))
                    start = time.perf_counter()
                    result = peer.solve(prepared)
                    elapsed = time.perf_counter() - start
                    reply("run", elapsed, peer.weight_of(result))
                    if run == runs and peer.pair_ids_of is not None:
                        reply("pairs", peer.pair_ids_of(result, *inputs))
                    del result
                    if peer.wraps is not None:  # the bare solve, paired with this run
                        reply("wrapped", *peer.wraps(prepared))
                    if floor is not None and not run % 2:
                        reply("floor", _wall(floor.solve, prepared))
            del prepared  # a program's input file goes now, not at the next job
        except Exception as exc:  # noqa: BLE001 - reported to the parent, which decides
            reply("error", f"{type(exc).__name__}: {exc}")
        else:
            reply("done")


def _wall(solve: Callable[[Any], Any], prepared: Any) -> float:
    """Wall-clock seconds of ``solve(prepared)``, its result freed untimed."""
    start = time.perf_counter()
    result = solve(prepared)
    elapsed = time.perf_counter() - start
    del result
    return elapsed


def _forward(replies: BinaryIO, inbox: queue.Queue) -> None:
    """Parent-side reader thread: move the worker's replies into ``inbox``."""
    try:
        while True:
            inbox.put(pickle.load(replies))
    except (EOFError, OSError, pickle.UnpicklingError):
        inbox.put(None)


def _relay(lines: BinaryIO) -> None:
    """Parent-side thread: print what the worker's libraries print, above any progress bar."""
    from tqdm import tqdm

    for line in lines:
        tqdm.write(line.decode(errors="replace").rstrip("\n"), file=sys.stderr)


class PeerRunner:
    """Runs peers in one worker process, stopping any that overrun their budget.

    The worker is a fresh interpreter (``python -m parmst.bench._peer_worker``) that
    talks pickles over its standard input and output; it is started on first
    use and again after it had to be stopped. Use as a context manager, or
    call :meth:`close`.

    Examples
    --------
    >>> import numpy as np
    >>> with PeerRunner(budget=60) as runner:
    ...     out = runner.run("scipy", np.array([0, 1]), np.array([1, 2]),
    ...                      np.array([2.0, 3.0]), 3, runs=2)
    >>> len(out.times), out.total_weight
    (2, 5.0)
    """

    def __init__(self, budget: float = 30.0) -> None:
        self.budget = float(budget)
        self._process: subprocess.Popen | None = None
        self._inbox: queue.Queue = queue.Queue()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _start(self) -> None:
        self._process = subprocess.Popen([sys.executable, "-m", "parmst.bench._peer_worker"],
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE)
        self._inbox = queue.Queue()
        threading.Thread(target=_forward, args=(self._process.stdout, self._inbox),
                         daemon=True, name="parmst-bench-peer-reader").start()
        threading.Thread(target=_relay, args=(self._process.stderr,), daemon=True,
                         name="parmst-bench-peer-stderr").start()

    def _stop(self) -> None:
        if self._process is None:
            return
        self._process.kill()
        self._process.wait(timeout=30)
        self._process.stdin.close()
        self._process.stdout.close()
        self._process = None

    def close(self) -> None:
        """Ask the worker to finish, and stop it if it does not."""
        if self._process is None:
            return
        try:
            self._send(None)
            self._process.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            pass
        self._stop()

    def _send(self, job: Any) -> None:
        pickle.dump(job, self._process.stdin, protocol=pickle.HIGHEST_PROTOCOL)
        self._process.stdin.flush()

    def _receive(self, timeout: float) -> tuple | None:
        try:
            message = self._inbox.get(timeout=timeout)
        except queue.Empty:
            return None
        return message or ("error", "the peer's worker process died (out of memory?)")

    def run(self, name: str, src: np.ndarray, dst: np.ndarray, weight: np.ndarray, n: int,
            runs: int, start_timeout: float = 120.0) -> PeerOutcome:
        """Prepare peer ``name``'s graph, then time ``runs`` calls after a warm-up call.

        Preparing the graph and each call must finish within the budget;
        otherwise the worker is stopped and the outcome says so. Starting the
        worker and importing the library get ``start_timeout`` on top.
        """
        inputs = (np.asarray(src), np.asarray(dst), np.asarray(weight), int(n))
        return self._run(name, inputs, runs, start_timeout)

    def run_points(self, name: str, points: np.ndarray, min_samples: int | None, runs: int,
                   start_timeout: float = 120.0) -> PeerOutcome:
        """:meth:`run` for a point peer: its input is the points (and HDBSCAN's
        ``min_samples``); the outcome also holds the tree's pair ids where it exposes them."""
        return self._run(name, (np.asarray(points), min_samples), runs, start_timeout)

    def _run(self, name: str, inputs: tuple, runs: int, start_timeout: float) -> PeerOutcome:
        if self._process is None or self._process.poll() is not None:
            self._stop()
            self._start()
        outcome = PeerOutcome()
        try:
            self._send((name, inputs, runs))
        except OSError as exc:
            self._stop()
            outcome.error = f"could not reach the peer's worker process: {exc}"
            return outcome
        message = self._receive(self.budget + start_timeout)
        step = "building its graph"
        while message is not None and message[0] not in ("done", "error"):
            if message[0] == "prepared":
                outcome.prepare_time = message[1]
            elif message[0] == "pairs":
                outcome.pair_ids = message[1]
            elif message[0] == "wrapped":
                outcome.wrapped_solver = message[1]
                outcome.wrapped_times.append(message[2])
            elif message[0] == "floor":
                outcome.floor_times.append(message[1])
            else:
                outcome.times.append(message[1])
                outcome.total_weight = message[2]
            step = f"timed run {len(outcome.times)}" if outcome.times else "the warm-up run"
            message = self._receive(self.budget)
        if message is None:
            self._stop()
            outcome.skipped = f"exceeded the {self.budget:g} s budget ({step})"
            outcome.times, outcome.wrapped_times, outcome.floor_times = [], [], []
        elif message[0] == "error":
            if self._process.poll() is not None:
                self._stop()
            outcome.error = message[1]
        outcome.times = outcome.times[1:]  # drop the warm-up run
        outcome.wrapped_times = outcome.wrapped_times[1:]  # and the solve paired with it
        outcome.floor_times = outcome.floor_times[1:]  # and the floor paired with it
        return outcome


def worker_main() -> None:
    """Serve jobs on stdin/stdout (run by :mod:`parmst.bench._peer_worker`)."""
    # The protocol owns the real stdout; anything a library prints goes to stderr.
    replies = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    _serve(sys.stdin.buffer, replies)

