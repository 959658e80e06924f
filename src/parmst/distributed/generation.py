"""Generating a graph collectively: each rank builds only its share of ``parmst.generate(spec)``.

Two ways, by what the family offers (:class:`parmst.generators.Family`):

- ``edge_range`` (families whose ``m`` is known before generating): rank
  ``r`` of ``p`` takes the ids of block ``r`` of the block rule
  (:func:`parmst.partition.block_bounds` of ``m``) and draws exactly those
  edges.
- ``drawn`` (R-MAT, Kronecker, random-degree: repeats removed, so ``m``
  depends on the draws): rank ``r`` draws block ``r`` of the raw positions
  and keeps the pair keys of its non-loop edges
  (:mod:`parmst.generators._drawn`). The ranks then sort the keys among
  themselves, as a sample sort does: every rank sends a regular sample of
  its keys to all, the sorted samples give ``p - 1`` splitters, and one
  ``Alltoallv`` sends each key to the rank of its splitter interval, so
  equal keys meet on one rank and rank order is key order. Each rank sorts
  and dedups what it received; an exclusive scan of the kept counts gives
  its first edge id, and the weights are functions of the id. The
  splitters only balance the work: any choice gives the same edges, ids
  and weights.

Either way the rank ends with a contiguous id range (a
:class:`~parmst.distributed.routing.Slice`) that is routed to the vertex
owners as after reading. A rank holds ``O(m / p)`` edges (its raw draws,
then about ``m / p`` keys), never the graph.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from parmst import _memory
from parmst._mpi.channel import grouped_by_range
from parmst.distributed.ownership import check_ownership
from parmst.distributed.routing import Slice, agree_weight_dtype
from parmst.errors import GraphValueError
from parmst.generators import FAMILIES, Family, describe
from parmst.generators._drawn import BYTES_PER_DRAWN_EDGE, Drawn
from parmst.generators._sampling import distinct_pairs
from parmst.partition import block_bounds

#: Keys each rank contributes to the splitter sample: enough that every
#: rank's share of the keys stays within a few percent of ``1 / p``.
SAMPLES_PER_RANK = 1024


def parallel_families() -> list[str]:
    """Names of the families that ranks can generate collectively."""
    return [name for name, family in FAMILIES.items()
            if family.edge_range is not None or family.drawn is not None]


def _family_of(spec: str) -> tuple[Family, dict[str, Any], int, int]:
    """The family of ``spec``, its resolved parameters, ``n`` and ``m`` (an upper bound
    for drawn families); GraphValueError if the family cannot be generated in parallel."""
    info = describe(spec)
    family = FAMILIES[info["family"]]
    if family.edge_range is None and family.drawn is None:
        raise GraphValueError(
            f"generator family {family.name!r} cannot be generated in parallel; families "
            f"that can: {', '.join(parallel_families())} (write the graph once with "
            f"`parmst generate SPEC -o FILE` and read the file in parallel instead)")
    return family, info["params"], info["n"], info["m"]


def _share(count: int, channel: Any) -> tuple[int, int]:
    """This rank's block of ``0 .. count - 1`` under the block rule."""
    lo, hi = block_bounds(count, channel.size)[channel.rank:channel.rank + 2]
    return int(lo), int(hi)


def _agree_fits(channel: Any, count: int, noun: str, bytes_each: int, family: str) -> None:
    """Every rank fails alike unless each can hold its ``count`` items (``parmst._memory``)."""
    problem = _memory.shortfall(count, noun, bytes_each)
    channel.agree(None if problem is None else GraphValueError(
        f"rank {channel.rank}: generating {family} on {channel.size} ranks {problem}; "
        f"use more ranks"))


def _splitters(channel: Any, keys: np.ndarray) -> np.ndarray:
    """``p - 1`` key splitters from a regular sample of every rank's keys (the same on all)."""
    step = max(1, len(keys) // SAMPLES_PER_RANK)
    sample = np.sort(channel.allgatherv(keys[::step][:SAMPLES_PER_RANK]))
    if len(sample) == 0:
        return np.zeros(channel.size - 1, dtype=np.int64)
    return sample[(np.arange(1, channel.size) * len(sample)) // channel.size]


def _drawn_slice(channel: Any, recipe: Drawn) -> Slice:
    """This rank's contiguous id range of the graph of ``recipe`` (collective)."""
    lo, hi = _share(recipe.raw_count, channel)
    _agree_fits(channel, hi - lo, "drawn edges", BYTES_PER_DRAWN_EDGE, recipe.family)
    keys = recipe.keys(lo, hi)
    n = recipe.num_vertices
    # Rank r takes the keys from splitter r - 1 up to splitter r; pair keys lie in 0 .. n*n - 1.
    starts = np.concatenate(([0], _splitters(channel, keys), [n * n])).astype(np.int64)
    grouped, counts = grouped_by_range(keys, starts)
    del keys
    (mine,), _ = channel.alltoallv([grouped], counts)
    del grouped
    src, dst = distinct_pairs(mine, n)
    first = channel.exscan_int(len(src))
    m = channel.allreduce_int(len(src), "sum")
    return Slice(src, dst, recipe.weights(first, first + len(src), m), first, n, m)


def _range_slice(channel: Any, family: Family, params: dict[str, Any], n: int,
                 m: int) -> Slice:
    """This rank's block of ids of a family with ``edge_range`` (collective)."""
    lo, hi = _share(m, channel)
    _agree_fits(channel, hi - lo, "edges", _memory.BYTES_PER_EDGE, family.name)
    src, dst, weight = family.edge_range(lo, hi, **params)
    return Slice(src, dst, agree_weight_dtype(channel, np.asarray(weight)), lo, n, m)


def generate_slice(channel: Any, spec: str, ownership: str) -> Slice:
    """This rank's share of ``parmst.generate(spec)`` before routing (collective).

    ``ownership`` is only checked here, with the spec, so that a bad value
    fails every rank alike.
    """
    error = None
    try:
        check_ownership(ownership)
        family, params, n, m = _family_of(spec)
        recipe = family.drawn(**params) if family.edge_range is None else None
    except (GraphValueError, ValueError, TypeError) as exc:
        error = exc
    channel.agree(error)  # raises on every rank if any failed; else all names are bound
    if recipe is not None:
        return _drawn_slice(channel, recipe)
    return _range_slice(channel, family, params, n, m)
