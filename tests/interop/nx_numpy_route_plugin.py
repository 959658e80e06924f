"""pytest plugin (``-p nx_numpy_route_plugin``): the NetworkX backend takes its NumPy route.

A small graph takes the route that loads no Numba only while no compiled kernel is
loaded (:func:`parmst._jit.compiled_pays`), and "auto" gives ``boruvka-numpy/serial``
only a process's first solve; a test run loads kernels early on (Prim's, Borůvka's),
so without this plugin it would check the compiled route alone. Loaded before
collection, it sends every call of the run down the NumPy route, and fails the run if
the route was not taken.
"""

from __future__ import annotations

from typing import Any


def route_patches(compiled: bool) -> list[tuple[Any, str, Any]]:
    """``(module, name, value)`` settings that send the backend down one route: the
    compiled kernels, or NumPy with the forest from ``boruvka-numpy/serial``."""
    from parmst.interop import _nx_algorithms, _nx_results
    from parmst.solvers import serial

    patches = [(module, "compiled_pays", lambda size: compiled)
               for module in (_nx_algorithms, _nx_results)]
    if not compiled:
        patches += [(serial, "numba_loaded", lambda: False), (serial, "solves", lambda: 0)]
    return patches


def pytest_configure(config) -> None:
    for module, name, value in route_patches(compiled=False):
        setattr(module, name, value)


def pytest_sessionfinish(session, exitstatus) -> None:
    """Fail the run unless several calls took the route: without the settings above only a
    process's first solve would, so one or none means they no longer reach it."""
    from parmst.solvers.serial.numpy_boruvka import solves

    if solves() < 2:
        session.config.get_terminal_writer().line(
            f"nx_numpy_route_plugin: {solves()} calls took the NumPy route")
        session.exitstatus = 1
