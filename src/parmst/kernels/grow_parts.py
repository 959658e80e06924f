"""Parts grown by breadth-first search to equal edge endpoints: ``partition(method="bfs")``.

Sousa, section 4.3.2: parts that are connected and balanced in edges. Apart from
:mod:`parmst.partition`, which ``import parmst`` loads, so that Numba is loaded only
when a partition is grown.
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["grow_parts"]


@numba.njit(cache=True)
def _frontier_seed(queue, head, tail, indptr, indices, part):
    """An unassigned neighbour of the last part's unexpanded vertices (-1: none).

    Seeding the next part next to the last one keeps parts side by side, as
    on a map, instead of scattering them.
    """
    for j in range(head, tail):
        v = queue[j]
        for k in range(indptr[v], indptr[v + 1]):
            if part[indices[k]] == -1:
                return indices[k]
    return -1


@numba.njit(cache=True)
def _expand(queue, head, tail, indptr, indices, part, load, p, limit):
    """Breadth-first search from ``queue[head:tail]``: unassigned vertices found join part ``p``
    (or, with ``p == -1``, the part of the vertex that found them) until ``load[p]``, the
    part's edge endpoints, reaches ``limit``. Returns the new ``(head, tail)``."""
    while head < tail and (p == -1 or load[p] < limit):
        v = queue[head]
        head += 1
        q = part[v] if p == -1 else p
        for k in range(indptr[v], indptr[v + 1]):
            t = indices[k]
            if part[t] == -1:
                part[t] = q
                load[q] += indptr[t + 1] - indptr[t]
                queue[tail] = t
                tail += 1
    return head, tail


@numba.njit(cache=True)
def _next_free(part, lowest):
    """The lowest vertex at or after ``lowest`` without a part (``len(part)``: none)."""
    while lowest < len(part) and part[lowest] != -1:
        lowest += 1
    return lowest


@numba.njit(cache=True)
def grow_parts(indptr, indices, parts):
    """Seed 003 section 4.3.2's partition qualities: connected parts of equal edge endpoints.

    Part ``p`` grows by breadth-first search, from a vertex next to part
    ``p - 1``, until it holds its cumulative share of endpoints. A search
    enclosed before that (a small component, or a pocket between earlier
    parts) goes on from the lowest free vertex, so balance wins over
    connectivity there. The last part takes no such jumps: each free region
    it leaves joins the lightest part next to it if that stays within its
    share, else the lightest part of all.
    """
    n = len(indptr) - 1
    part = np.full(n, -1, dtype=np.int32)
    load = np.zeros(parts, dtype=np.int64)
    queue = np.empty(max(n, 1), dtype=np.int64)
    total = indptr[n]
    lowest = 0
    head = tail = 0
    for p in range(parts):
        seed = _frontier_seed(queue, head, tail, indptr, indices, part)
        limit = total * (p + 1) // parts - load[:p].sum()
        head = tail = 0
        while load[p] < limit or tail == 0:
            if seed == -1:
                lowest = _next_free(part, lowest)
                if lowest == n:
                    break
                seed = lowest
            part[seed] = p
            load[p] += indptr[seed + 1] - indptr[seed]
            queue[tail] = seed
            tail += 1
            seed = -1
            head, tail = _expand(queue, head, tail, indptr, indices, part, load, p, limit)
            if p == parts - 1:
                break
    share = total // parts + 1
    for v in range(n):
        if part[v] == -1:
            _give_region(v, queue, indptr, indices, part, load, share)
    return part


@numba.njit(cache=True)
def _give_region(v, queue, indptr, indices, part, load, share):
    """The free region around ``v`` joins the lightest part next to it (which stays
    connected) if that part stays within its ``share`` of endpoints, else the lightest
    part of all."""
    part[v] = -2
    queue[0] = v
    head, tail = 0, 1
    best = -1
    weight = 0
    while head < tail:
        x = queue[head]
        head += 1
        weight += indptr[x + 1] - indptr[x]
        for k in range(indptr[x], indptr[x + 1]):
            t = indices[k]
            q = part[t]
            if q == -1:
                part[t] = -2
                queue[tail] = t
                tail += 1
            elif q >= 0 and (best == -1 or load[q] < load[best]):
                best = q
    if best == -1 or load[best] + weight > share:
        best = np.argmin(load)
    for j in range(tail):
        part[queue[j]] = best
    load[best] += weight
