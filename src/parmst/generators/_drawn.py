"""Graphs made of drawn vertex pairs, each pair kept once (R-MAT, Kronecker, random-degree).

Such a family draws ``raw_count`` edges, each a function of its position
alone (:mod:`parmst.generators._positional`), then keeps every pair that is not
a self-loop once, numbered in increasing order of its pair key
``min * n + max``; the weight of edge ``id`` is
``weights_at(id, ..., m)`` of the final ``m``. So the graph is fixed by its
:class:`Drawn` recipe and any split of the positions: one process draws them
all (:func:`drawn_graph`), ``p`` ranks each draw a share, sort the pair keys
among themselves and number them with a prefix sum
(:mod:`parmst.distributed.generation`), and both get the same edges, ids and
weights.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from parmst import _memory
from parmst.errors import GraphValueError
from parmst.generators._positional import BLOCK, weights_at
from parmst.generators._sampling import distinct_pairs, loop_free_keys, make_graph
from parmst.graph import Graph

#: Bytes a drawn edge costs while its graph is built: its pair key, the sort's
#: spare copy, and the kept edge's two endpoints.
BYTES_PER_DRAWN_EDGE = 32


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
    draw : callable
        ``draw(lo, hi) -> (src, dst)``: the raw edges at positions
        ``lo .. hi - 1`` (int64), a function of the position alone.
    seed : int
    kind : str
        Weight kind (``"int"``, ``"float"`` or ``"unique"``).
    max_weight : int or None
    """

    family: str
    num_vertices: int
    raw_count: int
    draw: Callable[[int, int], tuple[np.ndarray, np.ndarray]]
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
        """Pair keys of the raw edges ``lo .. hi - 1`` that are not self-loops, in position order.

        Drawn one block of positions at a time, so only the keys of the whole
        range are ever held.
        """
        keys = np.empty(max(hi - lo, 0), dtype=np.int64)
        count, start = 0, lo
        while start < hi:
            stop = min(hi, (start // BLOCK + 1) * BLOCK)
            part = loop_free_keys(*self.draw(start, stop), self.num_vertices)
            keys[count:count + len(part)] = part
            count, start = count + len(part), stop
        return keys[:count]

    def weights(self, lo: int, hi: int, m: int) -> np.ndarray:
        """Weights of the edge ids ``lo .. hi - 1`` of the ``m``-edge graph."""
        return weights_at(lo, hi, m, self.seed, self.kind, self.max_weight)


def drawn_graph(recipe: Drawn) -> Graph:
    """The whole graph of ``recipe`` in one process."""
    recipe.check_memory(recipe.raw_count)
    n = recipe.num_vertices
    lo, hi = distinct_pairs(recipe.keys(0, recipe.raw_count), n)
    return make_graph(lo, hi, recipe.weights(0, len(lo), len(lo)), n)
