"""A clock for Numba: what loading it, compiling kernels and loading them from the cache cost.

The first call of a kernel in a process compiles it (or loads it from
Numba's on-disk cache), which takes far longer than running it on any
graph of moderate size. :class:`parmst.Stats` reads :func:`compile_seconds`
around every timed block and books the difference as ``compile_time``
instead of ``init_time`` or ``compute_time``, so the times a solver reports
are those of a warm run whatever the state of the cache.

Numba announces every compilation (and every cache load, which happens
under the same global lock) with a ``numba:compiler_lock`` event; one
listener sums their wall time. numba-cuda kernels compile under the same
lock and are counted too.

Numba itself is not imported here: ``import parmst`` and the small-graph
route never load it (:func:`numba_loaded` tells whether anything has). An
import hook times ``import numba`` when some module first asks for it and
registers the listener right after, so that :func:`compile_seconds` counts,
from process start, the import, Numba's one-off setup on its first dispatch
(its typing registries) and every compilation and cache load.
"""

from __future__ import annotations

import importlib.abc
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

__all__ = ["SMALL_EDGES", "compile_seconds", "compiled_here", "compiled_pays", "numba_loaded",
           "on_slow_compilation"]

_KIND = "numba:compiler_lock"


class _CompileClock:
    """Sums the wall time of ``import numba`` and of the outermost compiler-lock spans (they
    nest when kernels call kernels)."""

    def __init__(self) -> None:
        self.total = 0.0
        self.spans = 0
        self._depth = 0
        self._started = 0.0
        self._watchers: list[_SlowCompileWatcher] = []

    def on_start(self, ev: Any) -> None:
        if self._depth == 0:
            self._started = time.perf_counter()
            for watcher in self._watchers:
                watcher.compiling(self.total)
        self._depth += 1

    def on_end(self, ev: Any) -> None:
        self._depth -= 1
        if self._depth == 0:
            self.total += time.perf_counter() - self._started
            self.spans += 1
            for watcher in self._watchers:
                watcher.idle()


class _SlowCompileWatcher:
    """Calls ``callback`` once, as soon as compilation since ``baseline`` has taken ``after`` s."""

    def __init__(self, callback: Callable[[], None], after: float, baseline: float) -> None:
        self._callback = callback
        self._after = after
        self._baseline = baseline
        self._timer: threading.Timer | None = None
        self._fired = False

    def compiling(self, spent: float) -> None:
        if self._fired:
            return
        remaining = self._after - (spent - self._baseline)
        self._timer = threading.Timer(max(0.0, remaining), self._fire)
        self._timer.daemon = True
        self._timer.start()

    def idle(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _fire(self) -> None:
        if not self._fired:
            self._fired = True
            self._callback()


_CLOCK = _CompileClock()


def _listen() -> None:
    """Register :data:`_CLOCK` with Numba's events (Numba is imported by now)."""
    from numba.core import event

    listener = type("_Listener", (event.Listener,), {
        "on_start": lambda self, ev: _CLOCK.on_start(ev),
        "on_end": lambda self, ev: _CLOCK.on_end(ev),
    })()
    event.register(_KIND, listener)


class _NumbaImportClock(importlib.abc.MetaPathFinder):
    """Times the import of the ``numba`` package itself and starts the listener after it.

    It finds nothing: it asks the other finders for numba's spec and wraps its
    loader, then leaves ``sys.meta_path``, so that every other import is untouched.
    """

    def find_spec(self, name: str, path: Any, target: Any = None) -> Any:
        if name != "numba":
            return None
        sys.meta_path.remove(self)
        for finder in sys.meta_path:
            spec = finder.find_spec(name, path, target) if hasattr(finder, "find_spec") else None
            if spec is not None:
                break
        else:
            return None
        if spec.loader is not None and hasattr(spec.loader, "exec_module"):
            run = spec.loader.exec_module

            def exec_module(module: Any) -> None:
                started = time.perf_counter()
                run(module)
                _CLOCK.total += time.perf_counter() - started
                _listen()

            spec.loader.exec_module = exec_module
        return spec


if "numba" in sys.modules:  # imported before parmst: only what comes from now on is counted
    _listen()
else:
    sys.meta_path.insert(0, _NumbaImportClock())


def numba_loaded() -> bool:
    """Whether Numba has compiled or loaded a kernel in this process (since parmst was
    imported), so that its one-off setup (its import, its typing registries) is paid.

    Examples
    --------
    >>> isinstance(numba_loaded(), bool)
    True
    """
    return _CLOCK.spans > 0


SMALL_EDGES = 1 << 18
"""Graphs of at most this many edges take the NumPy route (reading, checks, the solver
``boruvka-numpy/serial``, the forest's order and total) while Numba is not loaded: on the
2-core VM the route solves 2^18 random edges in about a tenth of a second, against about
half a second of CPU for loading Numba and a few cached kernels
(docs/solver-selection.md)."""


def compiled_pays(size: int) -> bool:
    """Whether work on ``size`` edges should use compiled kernels: Numba is loaded already,
    or the work is larger than :data:`SMALL_EDGES`, where loading it pays for itself.

    Examples
    --------
    >>> compiled_pays(SMALL_EDGES + 1)
    True
    """
    return size > SMALL_EDGES or numba_loaded()


def compile_seconds() -> float:
    """Seconds this process has spent importing Numba and compiling (or cache-loading) kernels
    so far.

    Examples
    --------
    >>> before = compile_seconds()
    >>> compile_seconds() >= before
    True
    """
    return _CLOCK.total


def on_slow_compilation(callback: Callable[[], None], after: float = 1.0) -> None:
    """Call ``callback`` once, from a timer thread, when compilation from now on has taken
    ``after`` seconds.

    The CLI uses it to say "compiling kernels (first run only)" while a cold
    cache is being filled, instead of appearing to hang.
    """
    _CLOCK._watchers.append(_SlowCompileWatcher(callback, after, _CLOCK.total))


def compiled_here(kernel: Any) -> bool:
    """Whether ``kernel`` (a ``cache=True`` Numba function) is compiled for this CPU, in this
    process or in Numba's on-disk cache, so that calling it costs no compilation.

    Reads the cache's index through Numba's internals (``_cache``); where that
    cannot be read (other Numba versions, ``NUMBA_DISABLE_JIT``), it answers
    True, so callers behave as if the cache were warm.

    Examples
    --------
    >>> import numba
    >>> double = numba.njit(lambda x: 2 * x)
    >>> compiled_here(double)  # never called, and no on-disk cache
    False
    >>> double(1), compiled_here(double)
    (2, True)
    """
    if getattr(kernel, "overloads", None):
        return True
    try:
        from numba.core.caching import NullCache

        if isinstance(kernel._cache, NullCache):
            return False  # no on-disk cache (cache=False) and not compiled in this process
        index = kernel._cache._cache_file._load_index()
        machine = kernel.targetctx.codegen().magic_tuple()
    except Exception:  # noqa: BLE001 - any change in Numba's internals: assume warm
        return True
    return any(key[1] == machine for key in index)
