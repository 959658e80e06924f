"""How many Numba threads a rank runs with when the caller names none.

A rank may use the cores of its affinity mask (``os.sched_getaffinity``),
which reflects the launcher's binding: ``mpiexec --bind-to core`` gives each
rank one core, ``--map-by ppr:1:socket --bind-to socket`` a socket's cores,
``--bind-to none`` every core of the host. Ranks on one host whose masks
overlap share those cores, so each takes an equal part: 16 unbound ranks on
16 cores get one thread each, 4 unbound ranks 4 each, 1 rank all 16; never
more than ``NUMBA_NUM_THREADS`` (Numba cannot start more).
"""

from __future__ import annotations

import os
from typing import Any

import numba


def _cores() -> list[int]:
    """The cores this process may run on."""
    try:
        return sorted(os.sched_getaffinity(0))
    except AttributeError:  # not Linux: every core
        return list(range(os.cpu_count() or 1))


def rank_threads(channel: Any) -> int:
    """Threads for this rank: its cores shared with the ranks of its host whose cores
    overlap its own, capped by ``NUMBA_NUM_THREADS`` (collective).

    Examples
    --------
    >>> from parmst._mpi.channel import Channel
    >>> 1 <= rank_threads(Channel()) <= numba.config.NUMBA_NUM_THREADS  # doctest: +SKIP
    True
    """
    mine = _cores()
    host = channel.comm.Split_type(channel.MPI.COMM_TYPE_SHARED)
    try:
        masks = host.allgather(mine)
    finally:
        host.Free()
    own = set(mine)
    sharing = sum(1 for mask in masks if own.intersection(mask))
    return max(1, min(len(mine) // sharing, numba.config.NUMBA_NUM_THREADS))
