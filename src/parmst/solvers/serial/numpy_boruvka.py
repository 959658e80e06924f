"""Borůvka's algorithm in NumPy alone: the small-graph route that loads no compiled kernel.

Shou and He, section 2.9 (Listing 3), with every step a whole-array NumPy
operation instead of a loop over edges. The edges are laid out once in the
``(weight, edge_id)`` order (:func:`parmst.order.stable_order_or_none`), so an
edge's position among the live edges is its rank and the lightest edge of a
component is the one of smallest position. Each round then

1. finds every component's lightest edge by a minimum scatter of positions
   (``np.minimum.at`` over both endpoints' components),
2. hooks each such component onto the component across that edge; under a
   total order the only cycles of these hooks are pairs that chose the same
   edge, and the smaller component of each pair becomes the root,
3. points every component at its root by pointer jumping (Shiloach and
   Vishkin's shortcutting), and
4. renames both ends of every live edge and drops the edges that became
   internal.

The compiled solvers are faster per edge; this one needs no Numba in the
process at all, which on a small graph saves far more than it loses
(``docs/solver-selection.md``: the "auto" rule and its measurements).
"""

from __future__ import annotations

import numpy as np

from parmst.order import stable_order_or_none
from parmst.stats import Stats

__all__ = ["solve", "solves"]

_SOLVES = [0]
"""How many times :func:`solve` has run in this process (the "auto" rule reads it: see
:func:`parmst.solvers.serial.numpy_route`)."""


def solves() -> int:
    """How many graphs this process has solved with this solver so far.

    Examples
    --------
    >>> solves() >= 0
    True
    """
    return _SOLVES[0]


def _lightest_per_component(u: np.ndarray, v: np.ndarray, n: int) -> tuple[np.ndarray,
                                                                            np.ndarray]:
    """Step 1 (Listing 3 lines 7-8): the components with a live edge and the position of each
    one's lightest edge (live edges are in rank order, so the smallest position wins)."""
    best = np.full(n, len(u), dtype=np.int64)
    position = np.arange(len(u), dtype=np.int64)
    np.minimum.at(best, u, position)
    np.minimum.at(best, v, position)
    components = np.flatnonzero(best < len(u))
    return components, best[components]


def _hook_and_jump(components: np.ndarray, lightest: np.ndarray, u: np.ndarray, v: np.ndarray,
                   n: int) -> np.ndarray:
    """Steps 2-3 (Listing 3 line 9, the unions): each component's root after this round's hooks.

    Returns ``parent`` with ``parent[c]`` the root of component ``c``.
    """
    parent = np.arange(n, dtype=np.int64)
    eu, ev = u[lightest], v[lightest]
    parent[components] = np.where(eu == components, ev, eu)
    # A pair that chose the same edge points at each other: its smaller component is the root.
    mutual = (parent[parent[components]] == components) & (components < parent[components])
    parent[components[mutual]] = components[mutual]
    while True:
        jumped = parent[parent]
        if np.array_equal(jumped, parent):
            return parent
        parent = jumped


def solve(graph, stats: Stats) -> np.ndarray:
    """Edge ids of the minimum spanning forest by vectorised Borůvka rounds.

    Examples
    --------
    >>> import parmst
    >>> g = parmst.Graph.from_edges([0, 1, 0, 2, 3], [1, 2, 2, 2, 4], [1, 1, 1, 0, 5])
    >>> sorted(solve(g, parmst.Stats()).tolist())
    [0, 1, 4]
    """
    _SOLVES[0] += 1
    n = graph.num_vertices
    with stats.compute():
        with stats.phase("sort"):
            order = stable_order_or_none(graph.weight)
            ids = np.arange(graph.num_edges, dtype=np.int64) if order is None else order
            u, v = graph.src[ids], graph.dst[ids]
            live = u != v  # self-loops never join a forest
            u, v, ids = u[live].astype(np.int64), v[live].astype(np.int64), ids[live]
        chosen: list[np.ndarray] = []
        found = 0
        rounds = 0
        with stats.phase("rounds"):
            while len(u) and found < n - 1:
                stats.worklist_sizes.append(len(u))
                rounds += 1
                components, lightest = _lightest_per_component(u, v, n)
                # Both components of a pair name the same edge; it joins the forest once.
                # (A mask, not np.unique, which imports numpy.ma: 18 ms of a first call.)
                marked = np.zeros(len(u), dtype=bool)
                marked[lightest] = True
                picked = np.flatnonzero(marked)
                chosen.append(ids[picked])
                found += len(picked)
                parent = _hook_and_jump(components, lightest, u, v, n)
                u, v = parent[u], parent[v]
                live = u != v
                u, v, ids = u[live], v[live], ids[live]
    stats.rounds = rounds
    return np.concatenate(chosen) if chosen else np.zeros(0, dtype=np.int64)
