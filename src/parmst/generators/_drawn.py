"""Graphs made of drawn vertex pairs, each pair kept once (R-MAT, Kronecker, random-degree).

Such a family draws ``raw_count`` edges, each a function of its position
alone: ``pair(position, *args)``, a ``numba.njit`` scalar function of integers
(:mod:`parmst.generators._counter`), then keeps every pair that is not a
self-loop once, numbered in increasing order of its pair key
``min * n + max``; the weight of edge ``id`` is
``weights_at(id, ..., m)`` of the final ``m``. So the graph is fixed by its
:class:`Drawn` recipe and any split of the positions: one process draws them
all (:func:`drawn_graph`), ``p`` ranks each draw a share, sort the pair keys
among themselves and number them with a prefix sum
(:mod:`parmst.distributed.generation`), a GPU runs one thread per position
and sorts the keys on the device (:mod:`parmst.generators.device`), and all
get the same edges, ids and weights.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numba
import numpy as np

from parmst import _memory
from parmst.errors import GraphValueError
from parmst.generators._positional import in_chunks, weights_at
from parmst.generators._sampling import distinct_pairs, make_graph
from parmst.graph import Graph

#: Bytes a drawn edge costs while its graph is built: its pair key, the sort's
#: spare copy, and the kept edge's two endpoints.
BYTES_PER_DRAWN_EDGE = 32


@numba.njit(cache=True)
def pair_key(u, v, n):
    """``min * n + max`` of the pair ``{u, v}``, or -1 for a self-loop."""
    if u == v:
        return np.int64(-1)
    return np.int64(min(u, v)) * n + max(u, v)


# Not cached: numba cannot cache a function that takes another one as an argument.
@numba.njit(nogil=True)
def _raw_keys(pair, args, lo, n, keys):
    """``keys[i]``: the pair key of raw edge ``lo + i`` (-1 for a self-loop)."""
    for i in range(keys.size):
        u, v = pair(lo + i, *args)
        keys[i] = pair_key(u, v, n)


@numba.njit(cache=True)
def _drop_loops(keys):
    """Move the keys that are not -1 to the front, in order; returns how many."""
    count = 0
    for key in keys:
        if key >= 0:
            keys[count] = key
            count += 1
    return count


@dataclass(frozen=True)
class Drawn:
    """The recipe of a graph made of drawn pairs.

    Attributes
    ----------
    family : str
        The family's name, for messages.
    num_vertices : int
    raw_count : int
        Edges drawn, self-loops and repeats included (an upper bound of ``m``).
    pair : numba dispatcher
        ``pair(position, *args) -> (u, v)``: the raw edge at a position, a
        ``numba.njit`` function of integers that GPU kernels call too.
    args : tuple
        The integers ``pair`` takes after the position.
    seed : int
    kind : str
        Weight kind (``"int"``, ``"float"`` or ``"unique"``).
    max_weight : int or None
    """

    family: str
    num_vertices: int
    raw_count: int
    pair: Callable
    args: tuple
    seed: int
    kind: str
    max_weight: int | None

    def check_memory(self, count: int) -> None:
        """GraphValueError naming the family if ``count`` drawn edges cannot be held here."""
        problem = _memory.shortfall(count, "drawn edges", BYTES_PER_DRAWN_EDGE)
        if problem is not None:
            raise GraphValueError(f"{self.family} with {self.raw_count:,} drawn edges on "
                                  f"{self.num_vertices:,} vertices {problem}")

    def keys(self, lo: int, hi: int) -> np.ndarray:
        """Pair keys of the raw edges ``lo .. hi - 1`` that are not self-loops, in position order."""
        keys = np.empty(max(hi - lo, 0), dtype=np.int64)
        if hi <= lo:
            return keys
        in_chunks(len(keys), lambda a, b: _raw_keys(self.pair, self.args, lo + a,
                                                    self.num_vertices, keys[a:b]))
        return keys[:_drop_loops(keys)]

    def weights(self, lo: int, hi: int, m: int) -> np.ndarray:
        """Weights of the edge ids ``lo .. hi - 1`` of the ``m``-edge graph."""
        return weights_at(lo, hi, m, self.seed, self.kind, self.max_weight)


def drawn_graph(recipe: Drawn) -> Graph:
    """The whole graph of ``recipe`` in one process."""
    recipe.check_memory(recipe.raw_count)
    n = recipe.num_vertices
    lo, hi = distinct_pairs(recipe.keys(0, recipe.raw_count), n)
    return make_graph(lo, hi, recipe.weights(0, len(lo), len(lo)), n)
