"""Independent certificate that a forest is the minimum spanning forest.

:func:`verify` proves a result right without trusting any solver: it
imports nothing from :mod:`parmst.solvers`. It runs these
checks and reports every failure it finds, at most ``max_listed`` per check
with a count of the rest:

``ids``
    Edge ids are integers in ``[0, m)``, listed once each, and none has a
    NaN weight (NaN edges are absent from every forest, as with
    ``ignore_nan=True``).
``fields``
    Only for a :class:`~parmst.Forest`: its ``src``, ``dst`` and ``weight``
    arrays agree with the graph for its ids, and ``num_vertices``,
    ``num_components`` and ``total_weight`` agree with its edges.
``acyclic``
    No listed edge closes a cycle (a self-loop is a cycle of one edge).
``spanning``
    The trees of the listed edges are the graph's connected components: no
    graph edge joins two different trees.
``minimal``
    The cycle property (Shou and He, section 2.4) under the ``(weight, edge_id)``
    total order: every non-forest edge ``e = (u, v)`` has a larger key than
    every forest edge on the forest path between ``u`` and ``v``. Runs only
    when ``acyclic`` holds, since "the forest path" needs a forest.

How the path maxima are found: the forest edges, sorted by key, are
linked in a union-by-size tree that keeps, at each link, the rank of the
forest edge that made it. Two vertices became connected exactly when the
heaviest edge of their forest path was linked, and that rank is the largest
link rank on their path in the link tree, whose height is at most
``log2(n)``. So every query costs ``O(log n)`` and all queries run in parallel:
``O(n log n)`` for the sort of the forest edges plus ``O(m log n)`` for the
queries, in ``O(n)`` extra memory (binary lifting would need ``O(n log n)``).
Keys compare as ``(weight, edge_id)`` directly on the weights, which orders
int32/int64/float32/float64, negatives and ``inf`` correctly and makes
``-0.0 == +0.0``. The forest edges are radix-sorted on
:func:`parmst.order.weight_keys`, and a separate pass confirms, on the
weights themselves, that the order really is sorted.

Examples
--------
>>> import parmst
>>> g = parmst.Graph.from_edges([0, 1, 0], [1, 2, 2], [1, 1, 5])
>>> print(verify(g, [0, 1]))
verified: forest of 2 edges, 1 components, minimal
>>> print(verify(g, [0, 2]))  # doctest: +NORMALIZE_WHITESPACE
verification failed: 1 failure (forest of 2 edges, 1 trees; graph has 1 connected components)
  [minimal] edge 1 (u=1, v=2, weight 1) is lighter than forest edge 2 (weight 5) on the
  forest path between its ends: the forest is not minimal
  passed: ids, acyclic, spanning
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numba
import numpy as np

from parmst.errors import ParmstError, VerificationError
from parmst.forest import Forest, exact_sum
from parmst.graph import Graph
from parmst.order import weight_keys

__all__ = ["CHECKS", "Failure", "VerifyResult", "verify"]

CHECKS = ("ids", "fields", "acyclic", "spanning", "minimal")
"""Names of the checks, in the order they run."""


# ---------------------------------------------------------------------- kernels
@numba.njit(cache=True)
def _precedes(weight, a, b):
    """True when edge ``a``'s key ``(weight[a], a)`` is smaller than edge ``b``'s (:mod:`parmst.order`)."""
    return weight[a] < weight[b] or (weight[a] == weight[b] and a < b)


@numba.njit(cache=True)
def _first_unsorted(weight, ids):
    """Position ``i`` where ``ids[i]`` does not precede ``ids[i + 1]`` by key, or -1."""
    for i in range(len(ids) - 1):
        if not _precedes(weight, ids[i], ids[i + 1]):
            return i
    return -1


@numba.njit(cache=True)
def _find_root(parent, v):
    """Root of ``v`` with path halving (Shou and He, section 2.7, disjoint-set find)."""
    while parent[v] != v:
        parent[v] = parent[parent[v]]
        v = parent[v]
    return v


@numba.njit(cache=True)
def _radix_order(keys, ids, keys_buf, ids_buf, counts):
    """``ids`` reordered by ``keys``, stably: LSD radix sort, one byte per pass.

    Stability makes ties keep the order of ``ids``, so ascending ids come out
    in ``(weight, edge_id)`` order. Passes where every key has the same byte
    are skipped. ``counts`` holds 256 entries; the buffers match the inputs.
    All four arrays serve as scratch: the result is one of them.
    """
    n = len(keys)
    src_k, src_i, dst_k, dst_i = keys, ids, keys_buf, ids_buf
    for byte in range(keys.itemsize):
        shift = np.uint64(8 * byte)
        counts[:] = 0
        for i in range(n):
            counts[(np.uint64(src_k[i]) >> shift) & np.uint64(255)] += 1
        if counts.max() == n:
            continue
        total = 0
        for d in range(256):
            c = counts[d]
            counts[d] = total
            total += c
        for i in range(n):
            d = (np.uint64(src_k[i]) >> shift) & np.uint64(255)
            dst_k[counts[d]] = src_k[i]
            dst_i[counts[d]] = src_i[i]
            counts[d] += 1
        src_k, src_i, dst_k, dst_i = dst_k, dst_i, src_k, src_i
    return src_i


@numba.njit(cache=True)
def _climb_to_root(link_parent, v):
    """Root of ``v`` in the link tree: at most ``log2(n)`` steps by union by size."""
    while link_parent[v] != v:
        v = link_parent[v]
    return v


@numba.njit(cache=True)
def _link_forest_edges(ends_u, ends_v, size, link_parent, link_rank, closes_cycle):
    """Link the listed edges into a union-by-size tree in key order; count the links.

    ``ends_u[rank]``, ``ends_v[rank]`` are the ends of the edge of that rank.
    ``link_parent`` is never path-compressed, so the tree keeps height
    ``<= log2(n)`` and ``link_rank[r]`` is the rank (position in key order)
    of the edge that linked root ``r`` below another root. An edge whose ends
    already share a root closes a cycle (Shou and He, section 2.4) and is flagged.
    """
    links = 0
    for rank in range(len(ends_u)):
        ru = _climb_to_root(link_parent, ends_u[rank])
        rv = _climb_to_root(link_parent, ends_v[rank])
        if ru == rv:
            closes_cycle[rank] = True
            continue
        if size[ru] > size[rv]:
            ru, rv = rv, ru
        link_parent[ru] = rv
        link_rank[ru] = rank
        size[rv] += size[ru]
        links += 1
    return links


@numba.njit(cache=True, parallel=True)
def _tree_roots(link_parent, roots):
    """Root of every vertex's tree in the link tree (read-only climbs, so parallel)."""
    for v in numba.prange(len(link_parent)):
        # Start from the parent, not from v: the prange index is unsigned, and
        # unifying it with the array's signed type would make r a float.
        r = link_parent[v]
        while link_parent[r] != r:
            r = link_parent[r]
        roots[v] = r


@numba.njit(cache=True, parallel=True)
def _flag_crossing_edges(src, dst, candidate, roots, crossing):
    """Flag candidate edges whose ends lie in different trees of the forest."""
    for e in numba.prange(len(src)):
        crossing[e] = candidate[e] and roots[src[e]] != roots[dst[e]]


@numba.njit(cache=True)
def _flag_missing_edges(src, dst, crossing_ids, roots, tree_parent, missing):
    """Union forest trees along crossing edges; flag each edge that merges two of them.

    The flagged edges are exactly the edges the forest lacks to span the
    graph's components: their number is (forest trees) - (graph components).
    """
    count = 0
    for k in range(len(crossing_ids)):
        e = crossing_ids[k]
        a = _find_root(tree_parent, roots[src[e]])
        b = _find_root(tree_parent, roots[dst[e]])
        if a != b:
            tree_parent[a] = b
            missing[k] = True
            count += 1
    return count


@numba.njit(cache=True)
def _connection_rank(link_parent, link_rank, u, v):
    """Rank of the heaviest forest edge on the forest path ``u .. v``, or -1 if none.

    That rank is the largest link rank on the link-tree path ``u .. v``. Ranks grow towards the root and roots hold a sentinel above every rank,
    so always climbing from the end with the smaller rank meets at the
    lowest common ancestor, and the last rank climbed is the path maximum.
    """
    heaviest = -1
    while u != v:
        if link_rank[u] < link_rank[v]:
            heaviest = link_rank[u]
            u = link_parent[u]
        elif link_parent[v] == v:
            return -1
        else:
            heaviest = link_rank[v]
            v = link_parent[v]
    return heaviest


@numba.njit(cache=True, parallel=True)
def _flag_cycle_property_violations(src, dst, weight, candidate, link_parent, link_rank,
                                    order, violates):
    """Cycle property check (Shou and He, section 2.4) under the ``(weight, edge_id)`` order.

    Flags each candidate non-loop edge inside one tree whose key is smaller
    than the key of the heaviest forest edge on the forest path between its
    ends. Edges between trees are left to the spanning check. Queries are
    independent, so they run in parallel.
    """
    for e in numba.prange(len(src)):
        violates[e] = False
        if candidate[e] and src[e] != dst[e]:
            rank = _connection_rank(link_parent, link_rank, src[e], dst[e])
            if rank >= 0:
                violates[e] = _precedes(weight, np.int64(e), order[rank])


# ---------------------------------------------------------------------- result
@dataclass(frozen=True)
class Failure:
    """One failed check: which check, and what exactly is wrong."""

    check: str
    message: str

    def __str__(self) -> str:
        return f"[{self.check}] {self.message}"


@dataclass
class VerifyResult:
    """What :func:`verify` checked and found; truthy iff every check ran and passed.

    Attributes
    ----------
    failures : list[Failure]
        Listed failures, at most ``max_listed`` per check.
    unlisted : dict[str, int]
        Per check, how many further failures were found but not listed.
    checks_run : list[str]
        Checks that ran, in order (``"fields"`` only for a Forest).
    not_checked : dict[str, str]
        Checks that could not run, with the reason.
    num_forest_edges : int
        Edge ids given (after dropping invalid and duplicate ones).
    num_trees : int or None
        Trees formed by the valid listed edges, isolated vertices included.
    num_graph_components : int or None
        Connected components of the graph (NaN edges left out).

    Examples
    --------
    >>> import parmst
    >>> g = parmst.Graph.from_edges([0, 1], [1, 2], [1.0, 2.0])
    >>> r = verify(g, [0, 1, 1])
    >>> bool(r), r.failed_checks
    (False, ['ids'])
    """

    failures: list[Failure] = field(default_factory=list)
    unlisted: dict[str, int] = field(default_factory=dict)
    checks_run: list[str] = field(default_factory=list)
    not_checked: dict[str, str] = field(default_factory=dict)
    num_forest_edges: int = 0
    num_trees: int | None = None
    num_graph_components: int | None = None

    @property
    def ok(self) -> bool:
        """Every check that applies ran, and none failed, listed or not.

        Unlisted failures count as much as listed ones, so ``max_listed=0``
        gives a result that lists nothing yet is still false for a wrong forest.
        """
        return (not self.failures and not any(self.unlisted.values()) and not self.not_checked
                and "minimal" in self.checks_run)

    def __bool__(self) -> bool:
        return self.ok

    @property
    def failed_checks(self) -> list[str]:
        """Names of the checks with at least one failure, listed or not, in check order."""
        return [c for c in CHECKS if self.count(c)]

    def count(self, check: str) -> int:
        """How many failures ``check`` found, listed or not."""
        return sum(f.check == check for f in self.failures) + self.unlisted.get(check, 0)

    def raise_if_failed(self) -> VerifyResult:
        """Raise :class:`~parmst.errors.VerificationError` unless ok; return self otherwise."""
        if not self.ok:
            raise VerificationError(self)
        return self

    def __str__(self) -> str:
        if self.ok:
            return (f"verified: forest of {self.num_forest_edges} edges, "
                    f"{self.num_trees} components, minimal")
        total = sum(self.count(c) for c in CHECKS)
        lines = [(f"verification failed: {total} failure{'s' if total != 1 else ''} "
                 f"({self._sizes()})")]
        for check in CHECKS:
            lines += [f"  {f}" for f in self.failures if f.check == check]
            if self.unlisted.get(check):
                lines.append(f"  ... and {self.unlisted[check]} more [{check}] failures")
        passed = [c for c in self.checks_run if c not in self.failed_checks]
        if passed:
            lines.append(f"  passed: {', '.join(passed)}")
        lines += [f"  not checked: {c} ({why})" for c, why in self.not_checked.items()]
        return "\n".join(lines)

    def _sizes(self) -> str:
        text = f"forest of {self.num_forest_edges} edges"
        if self.num_trees is not None:
            text += f", {self.num_trees} trees"
        if self.num_graph_components is not None:
            text += f"; graph has {self.num_graph_components} connected components"
        return text


class _Recorder:
    """Collects failures per check, listing at most ``limit`` of each."""

    def __init__(self, result: VerifyResult, limit: int) -> None:
        self.result = result
        self.limit = limit

    def run(self, check: str) -> None:
        self.result.checks_run.append(check)

    def skip(self, check: str, reason: str) -> None:
        self.result.not_checked[check] = reason

    def fail(self, check: str, messages: list[str], total: int | None = None) -> None:
        """Record failures; ``messages`` may be cut short, ``total`` counts all of them."""
        total = len(messages) if total is None else total
        listed = messages[: self.limit]
        self.result.failures += [Failure(check, m) for m in listed]
        if total > len(listed):
            self.result.unlisted[check] = self.result.unlisted.get(check, 0) + total - len(listed)


# ---------------------------------------------------------------------- checks
def _describe(graph: Graph, e: int) -> str:
    u, v = int(graph.src[e]), int(graph.dst[e])
    return f"edge {e} (u={u}, v={v}, weight {graph.weight[e].item()!r})"


def _check_ids(graph: Graph, given: Any, rec: _Recorder) -> np.ndarray | None:
    """Valid, unique, non-NaN ids (sorted int64), or None when the input is unusable."""
    ids = np.asarray(given)
    rec.run("ids")
    if ids.ndim != 1:
        rec.fail("ids", [f"edge ids must be a one-dimensional array, got shape {ids.shape}"])
        return None
    if ids.size == 0:
        return np.zeros(0, dtype=np.int64)
    if ids.dtype.kind not in "iu":
        hint = " (a mask? pass numpy.flatnonzero(mask))" if ids.dtype.kind == "b" else ""
        rec.fail("ids", [f"edge ids must be integers, got dtype {ids.dtype}{hint}"])
        return None
    m = graph.num_edges
    out_of_range = (ids < 0) | (ids >= m)
    if out_of_range.any():
        bad = ids[out_of_range]
        rec.fail("ids", [f"edge id {int(i)} is out of range: the graph has {m} edges "
                         f"(ids 0..{m - 1})" for i in bad[: rec.limit]], len(bad))
    valid = (ids[~out_of_range] if out_of_range.any() else ids).astype(np.int64, copy=False)
    if not (valid[1:] > valid[:-1]).all():  # a Forest's ids come sorted: no sort needed
        valid = np.sort(valid)
        repeated = np.flatnonzero(valid[1:] == valid[:-1])
        if len(repeated):
            dup_ids, counts = np.unique(valid[repeated], return_counts=True)
            rec.fail("ids", [f"edge id {int(i)} is listed {int(c) + 1} times"
                             for i, c in zip(dup_ids[: rec.limit], counts)], len(dup_ids))
            valid = np.unique(valid)
    if graph.weight.dtype.kind == "f":
        nan = np.isnan(graph.weight[valid])
        if nan.any():
            nan_ids = valid[nan]
            rec.fail("ids", [f"edge {int(i)} has a NaN weight; NaN edges belong to no forest"
                             for i in nan_ids[: rec.limit]], len(nan_ids))
            valid = valid[~nan]
    return valid


def _total_of(weights: np.ndarray) -> int | float:
    """Exact for integers; for floats NumPy's pairwise sum, compared with a tolerance."""
    if weights.dtype.kind in "iu":
        return exact_sum(weights)
    with np.errstate(invalid="ignore"):  # inf + -inf: the total is NaN, as Forest's is
        return float(np.sum(weights, dtype=np.float64))


def _totals_agree(claimed: Any, expected: float, weights: np.ndarray) -> bool:
    if isinstance(expected, int):
        return claimed == expected
    claimed = float(claimed)
    if not math.isfinite(expected):
        return claimed == expected or (math.isnan(claimed) and math.isnan(expected))
    # Pairwise summation errs by at most about log2(m) * 2**-53 * sum(|w|).
    scale = float(np.sum(np.abs(weights), dtype=np.float64))
    return math.isclose(claimed, expected, rel_tol=1e-12, abs_tol=1e-12 * scale)


def _check_fields(graph: Graph, forest: Forest, rec: _Recorder) -> None:
    """A Forest's arrays and total must describe the graph's edges with its ids."""
    rec.run("fields")
    ids = np.asarray(forest.edge_ids)
    problems = []
    if forest.num_vertices != graph.num_vertices:
        problems.append(f"the forest has {forest.num_vertices} vertices but the graph has "
                        f"{graph.num_vertices}")
    comparable = True
    for name in ("src", "dst", "weight"):
        if len(getattr(forest, name)) != len(ids):
            problems.append(f"the forest has {len(ids)} edge ids but "
                            f"{len(getattr(forest, name))} {name} entries")
            comparable = False
    if ids.ndim != 1 or ids.dtype.kind not in "iu" or ((ids < 0) | (ids >= graph.num_edges)).any():
        problems.append("edge fields not compared: some edge ids are invalid (see [ids])")
        comparable = False
    if not comparable:
        rec.fail("fields", problems)
        return
    s, d, w = graph.src[ids], graph.dst[ids], graph.weight[ids]
    same_ends = ((forest.src == s) & (forest.dst == d)) | ((forest.src == d) & (forest.dst == s))
    same_weight = forest.weight == w
    if w.dtype.kind == "f":
        same_weight |= np.isnan(w) & np.isnan(forest.weight)
    wrong_ends = np.flatnonzero(~same_ends)
    wrong_weight = np.flatnonzero(~same_weight)
    problems += [f"edge {int(ids[k])} has ends ({int(forest.src[k])}, {int(forest.dst[k])}) in "
                 f"the forest but ({int(s[k])}, {int(d[k])}) in the graph"
                 for k in wrong_ends[: rec.limit]]
    problems += [f"edge {int(ids[k])} has weight {forest.weight[k].item()!r} in the forest but "
                 f"{w[k].item()!r} in the graph" for k in wrong_weight[: rec.limit]]
    expected = _total_of(w)
    if not _totals_agree(forest.total_weight, expected, w):
        problems.append(f"total_weight is {forest.total_weight!r} but the graph's weights of the "
                        f"forest's edges sum to {expected!r}")
    unlisted = (max(0, len(wrong_ends) - rec.limit) + max(0, len(wrong_weight) - rec.limit))
    rec.fail("fields", problems, len(problems) + unlisted)


def _check_num_components(forest: Forest, num_trees: int, rec: _Recorder) -> None:
    if forest.num_components != num_trees:
        rec.fail("fields", [(f"num_components is {forest.num_components} but the forest's "
                            f"edges form {num_trees} trees")])


@dataclass
class _LinkTree:
    order: np.ndarray        # valid listed edge ids sorted by key; ranks index it
    link_parent: np.ndarray  # union-by-size tree, never compressed
    link_rank: np.ndarray    # rank of the edge that linked v below its parent
    roots: np.ndarray        # tree root of every vertex
    cycle_edges: np.ndarray  # listed edges that close a cycle, in key order
    num_trees: int


def _key_order(weight: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """Ascending ``ids`` sorted by key, confirmed sorted by a separate pass.

    Radix-sorts the order-preserving keys of :func:`parmst.order.weight_keys`
    (several times faster than a comparison sort here); the confirmation
    compares the weights themselves, so a wrong key mapping cannot pass.
    """
    keys = weight_keys(weight[ids])
    order = _radix_order(keys, ids.copy(), np.empty_like(keys), np.empty_like(ids),
                         np.zeros(256, dtype=np.int64))
    bad = _first_unsorted(weight, order)
    if bad >= 0:
        raise ParmstError(
            f"parmst.order.weight_keys is broken: edge {order[bad]} sorts before edge "
            f"{order[bad + 1]} but does not precede it in (weight, edge_id) order")
    return order


def _link_tree(graph: Graph, ids: np.ndarray) -> _LinkTree:
    n = graph.num_vertices
    idx = graph.index_dtype
    order = _key_order(graph.weight, ids)
    link_parent = np.arange(n, dtype=idx)
    link_rank = np.full(n, len(order), dtype=idx)  # sentinel above every rank
    size = np.ones(n, dtype=idx)
    closes_cycle = np.zeros(len(order), dtype=np.bool_)
    # Gathering the ends first keeps the scattered reads out of the serial loop.
    links = _link_forest_edges(graph.src[order], graph.dst[order], size, link_parent,
                               link_rank, closes_cycle)
    roots = np.empty(n, dtype=idx)
    _tree_roots(link_parent, roots)
    return _LinkTree(order, link_parent, link_rank, roots, order[closes_cycle], n - links)


def _check_acyclic(graph: Graph, tree: _LinkTree, rec: _Recorder) -> None:
    rec.run("acyclic")
    messages = []
    for e in tree.cycle_edges[: rec.limit].tolist():
        if graph.src[e] == graph.dst[e]:
            messages.append(f"{_describe(graph, e)} is a self-loop, a cycle of one edge")
        else:
            messages.append(f"{_describe(graph, e)} closes a cycle with listed edges of "
                            "smaller (weight, edge_id) key")
    rec.fail("acyclic", messages, len(tree.cycle_edges))


def _candidates(graph: Graph, ids: np.ndarray) -> np.ndarray:
    """Edges to test against the forest: not listed and not NaN."""
    candidate = np.ones(graph.num_edges, dtype=np.bool_)
    candidate[ids] = False
    if graph.weight.dtype.kind == "f":
        candidate &= ~np.isnan(graph.weight)
    return candidate


def _check_spanning(graph: Graph, tree: _LinkTree, candidate: np.ndarray,
                    rec: _Recorder) -> int:
    """Record missing component edges; return the graph's number of components."""
    rec.run("spanning")
    crossing = np.empty(graph.num_edges, dtype=np.bool_)
    _flag_crossing_edges(graph.src, graph.dst, candidate, tree.roots, crossing)
    crossing_ids = np.flatnonzero(crossing)
    if len(crossing_ids) == 0:
        return tree.num_trees
    tree_parent = np.arange(graph.num_vertices, dtype=graph.index_dtype)
    missing = np.zeros(len(crossing_ids), dtype=np.bool_)
    count = _flag_missing_edges(graph.src, graph.dst, crossing_ids, tree.roots, tree_parent,
                                missing)
    witnesses = crossing_ids[missing][: rec.limit].tolist()
    rec.fail("spanning", [f"graph {_describe(graph, e)} joins two different forest trees: "
                          "missing component edge" for e in witnesses], count)
    return tree.num_trees - count


def _check_minimal(graph: Graph, tree: _LinkTree, candidate: np.ndarray, rec: _Recorder) -> None:
    rec.run("minimal")
    violates = np.empty(graph.num_edges, dtype=np.bool_)
    _flag_cycle_property_violations(graph.src, graph.dst, graph.weight, candidate,
                                    tree.link_parent, tree.link_rank, tree.order, violates)
    bad = np.flatnonzero(violates)
    messages = []
    for e in bad[: rec.limit].tolist():
        rank = _connection_rank(tree.link_parent, tree.link_rank, graph.src[e], graph.dst[e])
        f = int(tree.order[rank])
        wf = graph.weight[f].item()
        if graph.weight[e] == graph.weight[f]:
            messages.append(f"{_describe(graph, e)} ties with forest edge {f} (weight {wf!r}) "
                            "on the forest path between its ends and has the smaller id: the "
                            "forest is not minimal under the (weight, edge_id) order")
        else:
            messages.append(f"{_describe(graph, e)} is lighter than forest edge {f} "
                            f"(weight {wf!r}) on the forest path between its ends: the forest "
                            "is not minimal")
    rec.fail("minimal", messages, len(bad))


# ---------------------------------------------------------------------- entry
def verify(graph: Graph, forest_or_edge_ids: Forest | Any, *,
           max_listed: int = 10) -> VerifyResult:
    """Check that a forest is the minimum spanning forest of ``graph``.

    Uses no solver code: see the module docstring for the checks and the
    method. Every check runs even after others fail (``minimal`` needs an
    acyclic edge set), so one call reports all problems found.

    Parameters
    ----------
    graph : Graph
    forest_or_edge_ids : Forest or array_like of int
        A result to check, or the edge ids of a claimed forest (any order).
    max_listed : int
        Failures listed per check; the rest are counted in ``unlisted``.

    Returns
    -------
    VerifyResult
        Truthy iff every check ran and passed.

    Raises
    ------
    TypeError
        ``graph`` is not a :class:`~parmst.Graph`.
    ParmstError
        :func:`parmst.order.weight_keys` does not preserve the weight order
        (a bug in parmst, not in the forest).

    Examples
    --------
    >>> import parmst
    >>> g = parmst.Graph.from_edges([0, 1, 2, 3], [1, 2, 0, 4], [2, 2, 1, 7], num_vertices=6)
    >>> r = verify(g, [1, 2, 3])
    >>> bool(r), r.num_trees, r.num_graph_components
    (False, 3, 3)
    >>> r.failures[0].message  # 0 and 1 tie on weight 2; the smaller id wins
    'edge 0 (u=0, v=1, weight 2) ties with forest edge 1 (weight 2) on the forest path between its ends and has the smaller id: the forest is not minimal under the (weight, edge_id) order'
    >>> verify(g, [0, 2, 3]).ok
    True
    """
    if not isinstance(graph, Graph):
        raise TypeError(f"verify needs a parmst.Graph, got {type(graph).__name__}")
    result = VerifyResult()
    rec = _Recorder(result, max(0, int(max_listed)))
    forest = forest_or_edge_ids if isinstance(forest_or_edge_ids, Forest) else None
    given = forest.edge_ids if forest is not None else forest_or_edge_ids
    ids = _check_ids(graph, given, rec)
    if forest is not None:
        _check_fields(graph, forest, rec)
    if ids is None:
        for check in ("acyclic", "spanning", "minimal"):
            rec.skip(check, "the edge ids are unusable")
        return result
    result.num_forest_edges = len(ids)
    tree = _link_tree(graph, ids)
    result.num_trees = tree.num_trees
    if forest is not None:
        _check_num_components(forest, tree.num_trees, rec)
    _check_acyclic(graph, tree, rec)
    candidate = _candidates(graph, ids)
    result.num_graph_components = _check_spanning(graph, tree, candidate, rec)
    if len(tree.cycle_edges):
        rec.skip("minimal", "the listed edges contain a cycle, so forest paths are undefined")
    else:
        _check_minimal(graph, tree, candidate, rec)
    return result
