"""Graphs generated in GPU memory: the host generator's graph, built by kernels on the device.

Every random value of the families below is a counter-based function of its
position (:mod:`parmst.generators._counter`), so one GPU thread per position
calling the host's own rules gives the host's edges, ids and weights
(:func:`generate`), and any device can build any id range of the graph
(:func:`generate_parts`). Families:

- drawn pairs (``rmat``, ``kronecker``, ``random-degree``): each thread
  draws the raw edge at its position and keeps its pair key when it lies in
  the part's key range; the kept keys are sorted on the device (CuPy's sort
  when CuPy is installed, else a stable LSD radix sort,
  :func:`parmst._cuda.arrays.radix_order`), repeated keys dropped (a stream
  compaction), and edge ``first + i`` is the ``i``-th key, its weight a rule
  of its global id and ``m``.
- id rules (``grid2d``, ``seed000-sparse``): edge ``e`` is a formula or a
  draw at ``e``; a part is an id range.
- ``road``: each grid link's keep flag is a rule of the link (its block's
  seeded bijection), the kept links of the blocks holding the id range are
  compacted, and their lengths give the weights.

Memory is checked on the device before each allocation that grows with the
graph (a GraphValueError naming the size); ``PARMST_MEMORY_LIMIT`` caps the
free memory seen, as on the host. ``numba.cuda`` is imported only when a
function here runs.

Examples
--------
>>> from parmst.generators.device import generate  # doctest: +SKIP
>>> g = generate("rmat:scale=20,seed=1", device=0)  # doctest: +SKIP
>>> g.is_on_device  # doctest: +SKIP
True
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np

from parmst import _memory, _optional
from parmst._edge_input import part_index_dtype
from parmst._graph_device import DeviceEdges, DevicePart
from parmst.errors import GraphValueError
from parmst.generators import FAMILIES, describe
from parmst.generators._drawn import Drawn
from parmst.generators._params import check_weights
from parmst.generators._positional import WeightRule
from parmst.generators._weights import int_dtype, length_rule
from parmst.generators.lattice import grid_args, grid_link, road_link_window, road_structure
from parmst.generators.seed000 import sparse_args, sparse_edge
from parmst.graph import Graph, index_dtype_for

__all__ = ["DEVICE_FAMILIES", "generate", "generate_parts"]

#: Families that can be generated on a GPU.
DEVICE_FAMILIES = ("rmat", "kronecker", "random-degree", "seed000-sparse", "grid2d", "road")

#: Device bytes a kept pair key needs while it is sorted and deduplicated (the key, the
#: sort's copies and orders, the run flags and the unique keys).
BYTES_PER_KEPT_KEY = 64
#: Raw positions whose keys choose the parts' key ranges (:func:`_key_bounds`).
KEY_SAMPLE = 1 << 18
#: Device bytes of a finished edge at most: two int64 endpoints and an 8-byte weight.
BYTES_PER_EDGE = _memory.BYTES_PER_EDGE


@dataclass(frozen=True)
class _Spec:
    """A spec resolved for the device: its family, parameters, ``n`` and (id rules) ``m``."""

    family: str
    params: dict[str, Any]
    n: int
    m: int

    def drawn(self) -> Drawn | None:
        family = FAMILIES[self.family]
        return family.drawn(**self.params) if family.drawn is not None else None


def _resolve(spec: str) -> _Spec:
    info = describe(spec)
    if info["family"] not in DEVICE_FAMILIES:
        raise GraphValueError(
            f"generator family {info['family']!r} cannot be generated on a GPU; families that "
            f"can: {', '.join(DEVICE_FAMILIES)} (generate it on the host with "
            f"parmst.generate and copy it over with Graph.to_device)")
    return _Spec(info["family"], info["params"], info["n"], info["m"])


def _device_id(device: Any) -> int:
    """A CUDA device number from ``device`` (an int, or ``"cuda"`` for device 0)."""
    if device == "cuda":
        return 0
    if isinstance(device, str) and device.startswith("cuda:") and device[5:].isdigit():
        return int(device[5:])
    if isinstance(device, bool) or not isinstance(device, (int, np.integer)) or device < 0:
        raise GraphValueError(f"device must be a CUDA device number (0, 1, ...) or 'cuda', "
                              f"got {device!r}")
    return int(device)


def _require_gpu() -> None:
    """GraphValueError in one line unless numba-cuda and a CUDA device (or its simulator) exist."""
    if not _optional.installed("numba_cuda"):
        raise GraphValueError("generating on a GPU needs numba-cuda "
                              "(pip install 'parmst[gpu]'); generate on the host instead")
    from parmst._cuda import runtime

    ok = runtime.probe()
    if ok is not True:
        raise GraphValueError(f"generating on a GPU: {ok}")


def _check_visible(device: int) -> None:
    """GraphValueError unless this process sees CUDA device ``device``."""
    from numba import cuda

    seen = len(cuda.gpus)
    if device >= seen:
        raise GraphValueError(f"device {device} is not visible: this process sees {seen} CUDA "
                              f"device{'s' if seen != 1 else ''}")


@contextmanager
def _on(device: int) -> Any:
    """Make ``device`` current for the block."""
    from numba import cuda

    _check_visible(device)
    with cuda.gpus[device]:
        yield


def _check_room(device: int, nbytes: int, what: str) -> None:
    """GraphValueError naming the size unless ``nbytes`` fit in the device's free memory
    (capped by ``PARMST_MEMORY_LIMIT``)."""
    from parmst._cuda import runtime

    free = _memory._limit_from_environment()
    if not runtime.simulator_active():
        from numba import cuda

        device_free = int(cuda.current_context().get_memory_info()[0])
        free = device_free if free is None else min(free, device_free)
    if free is not None and nbytes > free:
        raise GraphValueError(f"{what} needs {_memory.size_text(nbytes)} of GPU memory on "
                              f"device {device} but {_memory.size_text(free)} is free; "
                              f"split it over more devices (generate_parts)")


def _grid(count: int) -> tuple[int, int]:
    from parmst._cuda import arrays

    return arrays.launch_grid(max(count, 1))


def _weights(rule: WeightRule, first: int, count: int) -> Any:
    """Weights of global ids ``first .. first + count - 1`` on the device."""
    from numba import cuda

    from parmst.generators import _device_kernels as k

    out = cuda.device_array(count, dtype=rule.dtype)
    if count:
        kernel = k.float_weights if rule.dtype.kind == "f" else k.int_weights
        kernel[_grid(count)](np.int64(first), *rule.args, out)
    return out


def _sorted(keys: Any, below: int, device: int) -> Any:
    """Int64 device keys in ``0 .. below - 1`` in ascending order (CuPy's sort where CuPy
    is installed, else the project's stable radix sort on the keys' bits)."""
    from parmst._cuda import arrays, runtime

    if keys.shape[0] < 2:
        return keys
    if not runtime.simulator_active() and importlib.util.find_spec("cupy") is not None:
        import cupy

        with cupy.cuda.Device(device):
            cupy.asarray(keys).sort()
            # CuPy keeps the sort's scratch (about twice the keys) in its pool: give it back
            # to the device now, or the graph's solve finds that memory taken.
            cupy.get_default_memory_pool().free_all_blocks()
        return keys
    return arrays.gather(keys, arrays.radix_order(keys, max(below - 1, 1).bit_length()))


# ---------------------------------------------------------------- drawn pairs
def _kept_keys(recipe: Drawn, klo: int, khi: int, write: bool, keys: Any) -> Any:
    """One launch of :func:`parmst.generators._device_kernels.kept_keys_kernel` over every
    position of ``recipe``'s graph: the keys in ``klo .. khi - 1`` written into ``keys``, or
    only counted; returns the one-element device array that holds their count."""
    from numba import cuda

    from parmst.generators import _device_kernels as k

    raw = recipe.raw_count
    slots = cuda.to_device(np.zeros(1, dtype=np.int64))
    if raw:
        k.kept_keys_kernel(recipe.pair, write)[_grid(raw)](
            np.int64(0), np.int64(raw), np.int64(recipe.num_vertices), recipe.args,
            np.int64(klo), np.int64(khi), slots, keys)
    return slots


def _drawn_keys(recipe: Drawn, klo: int, khi: int, device: int) -> Any:
    """The distinct pair keys in ``klo .. khi - 1`` of ``recipe``'s graph, sorted, on the device
    (phase 1 of a part: every position drawn, only the range kept)."""
    from numba import cuda

    from parmst._cuda import arrays
    from parmst.generators import _device_kernels as k

    counted = _kept_keys(recipe, klo, khi, False, cuda.device_array(0, dtype=np.int64))
    kept = int(counted.copy_to_host()[0])
    _check_room(device, kept * BYTES_PER_KEPT_KEY,
                f"{recipe.family} ({kept:,} drawn pair keys in this part)")
    keys = cuda.device_array(kept, dtype=np.int64)
    if kept:
        _kept_keys(recipe, klo, khi, True, keys)
        keys = _sorted(keys, khi, device)
    flags = cuda.device_array(kept, dtype=np.int8)
    if kept:
        k.first_of_runs[_grid(kept)](keys, flags)
    return arrays.compact(flags, keys)


def _drawn_edges(recipe: Drawn, keys: Any, first: int, m: int, device: int,
                 index: np.dtype) -> DeviceEdges:
    """Phase 2: the edges of sorted distinct ``keys``, numbered from ``first`` of ``m``,
    with vertex ids of dtype ``index``."""
    from numba import cuda

    from parmst.generators import _device_kernels as k

    count = keys.shape[0]
    _check_room(device, count * BYTES_PER_EDGE, f"{recipe.family} ({count:,} edges)")
    src = cuda.device_array(count, dtype=index)
    dst = cuda.device_array(count, dtype=index)
    if count:
        k.decode_keys[_grid(count)](keys, np.int64(recipe.num_vertices), src, dst)
    rule = WeightRule.of(m, recipe.seed, recipe.kind, recipe.max_weight)
    return DeviceEdges(src, dst, _weights(rule, first, count), kind="numba")


# ---------------------------------------------------------------- id rules
def _pairs(pair: Any, args: tuple, lo: int, hi: int, index: Any) -> tuple[Any, Any]:
    from numba import cuda

    from parmst.generators import _device_kernels as k

    src = cuda.device_array(hi - lo, dtype=index)
    dst = cuda.device_array(hi - lo, dtype=index)
    if hi > lo:
        k.pairs_kernel(pair)[_grid(hi - lo)](np.int64(lo), args, src, dst)
    return src, dst


def _road(spec: _Spec, lo: int, hi: int, index: Any, device: int) -> tuple[Any, Any, Any]:
    """Road edges ``lo .. hi - 1``: keep flags of the blocks' links, compacted, then ends and
    length weights (as :func:`parmst.generators.lattice.road_edge_range` on the host)."""
    from numba import cuda

    from parmst._cuda import arrays
    from parmst.generators import _device_kernels as k
    from parmst.generators._counter import stream_key
    from parmst.generators._positional import STREAM_COORDINATES

    p = spec.params
    side = p["side"]
    links, key, first = road_structure(side, spec.m, p["seed"])
    kind, max_weight = check_weights(p["weights"], p["max_weight"])
    rule, top = length_rule(kind, max_weight)
    if hi <= lo:
        empty = cuda.device_array(0, dtype=index)
        weight_dtype = WeightRule.of(spec.m, p["seed"], kind, None).dtype if kind == "unique" \
            else _length_dtype(kind, top)
        return empty, empty, cuda.device_array(0, dtype=weight_dtype)
    start, end, offset = road_link_window(lo, hi, first)
    end = min(end, links)
    _check_room(device, (end - start) * 9, f"road ({end - start:,} grid links)")
    flags = cuda.device_array(end - start, dtype=np.int8)
    k.kept_links[_grid(end - start)](np.int64(start), np.int64(links), key,
                                      cuda.to_device(first), flags)
    kept = arrays.compact(flags)[lo - offset:hi - offset]
    side64, horizontal = grid_args(side)
    src = cuda.device_array(hi - lo, dtype=index)
    dst = cuda.device_array(hi - lo, dtype=index)
    k.link_ends[_grid(hi - lo)](np.int64(start), kept, side64, horizontal, src, dst)
    if kind == "unique":
        return src, dst, _weights(WeightRule.of(spec.m, p["seed"], kind, None), lo, hi - lo)
    weight = cuda.device_array(hi - lo, dtype=_length_dtype(kind, top))
    k.road_weights[_grid(hi - lo)](src, dst, side64, stream_key(p["seed"], STREAM_COORDINATES),
                                   np.int64(rule), np.int64(top), weight)
    return src, dst, weight


def _length_dtype(kind: str, top: int) -> np.dtype:
    """The dtype of road's length weights (as :func:`parmst.generators._weights.length_weights`)."""
    return np.dtype(np.float64 if kind == "float" else int_dtype(top))


def _id_range(spec: _Spec, lo: int, hi: int, device: int, index: np.dtype) -> DeviceEdges:
    """Edges ``lo .. hi - 1`` of a family whose edge is a rule of its id, with vertex ids
    of dtype ``index``."""
    p = spec.params
    _check_room(device, (hi - lo) * BYTES_PER_EDGE, f"{spec.family} ({hi - lo:,} edges)")
    if spec.family == "road":
        return DeviceEdges(*_road(spec, lo, hi, index, device), kind="numba")
    if spec.family == "grid2d":
        src, dst = _pairs(grid_link, grid_args(p["side"]), lo, hi, index)
    else:
        src, dst = _pairs(sparse_edge, sparse_args(spec.n, spec.m, p["seed"]), lo, hi, index)
    kind, max_weight = check_weights(p["weights"], p["max_weight"])
    rule = WeightRule.of(spec.m, p["seed"], kind, max_weight)
    return DeviceEdges(src, dst, _weights(rule, lo, hi - lo), kind="numba")


# ---------------------------------------------------------------- public
def generate(spec: str, device: int | str = 0) -> Graph:
    """The graph of ``parmst.generate(spec)``, built by kernels in GPU memory.

    Same vertices, edges, edge ids and weights as the host generator; the
    edge list stays on the device (:attr:`parmst.Graph.is_on_device`), ready
    for the GPU solvers.

    Parameters
    ----------
    spec : str
        A generator spec of a family in :data:`DEVICE_FAMILIES`.
    device : int or "cuda"
        CUDA device number (``"cuda"``: device 0).

    Returns
    -------
    Graph

    Raises
    ------
    GraphValueError
        A bad spec, a family that cannot be generated on a GPU, no GPU
        (one line, never an ImportError), or too little device memory
        (naming the size).

    Examples
    --------
    >>> g = generate("grid2d:side=4,seed=1", device=0)  # doctest: +SKIP
    >>> g.num_edges, g.is_on_device  # doctest: +SKIP
    (24, True)
    """
    resolved = _resolve(spec)
    number = _device_id(device)
    _require_gpu()
    with _on(number):
        recipe = resolved.drawn()
        if recipe is None:
            edges = _id_range(resolved, 0, resolved.m, number,
                              index_dtype_for(resolved.n, resolved.m))
        else:
            keys = _drawn_keys(recipe, 0, resolved.n * resolved.n, number)
            edges = _drawn_edges(recipe, keys, 0, keys.shape[0], number,
                                 index_dtype_for(resolved.n, keys.shape[0]))
    return Graph._on_device(edges, resolved.n)


def _by_device(devices: Sequence[int], work: Any) -> list[Any]:
    """``work(k)`` for every part ``k``, one host thread per distinct device, each running
    its parts in order on its device; results in part order."""
    groups: dict[int, list[int]] = {}
    for k, d in enumerate(devices):
        groups.setdefault(d, []).append(k)
    results: list[Any] = [None] * len(devices)

    def run(device: int) -> None:
        with _on(device):
            for k in groups[device]:
                results[k] = work(k)

    with ThreadPoolExecutor(len(groups)) as pool:
        list(pool.map(run, groups))
    return results


def _key_bounds(recipe: Drawn, parts: int) -> list[int]:
    """Pair-key bounds that give the parts about equal shares: quantiles of the keys of the
    first :data:`KEY_SAMPLE` positions (drawn on the host; positions are independent, so
    they are a random sample). The bounds only balance the parts: any bounds give the
    same graph."""
    n = recipe.num_vertices
    sample = np.sort(recipe.keys(0, min(recipe.raw_count, KEY_SAMPLE)))
    if len(sample) == 0:
        return [n * n * k // parts for k in range(parts + 1)]
    return [0, *(int(sample[len(sample) * k // parts]) for k in range(1, parts)), n * n]


def generate_parts(spec: str, devices: Sequence[int | str]) -> list[DevicePart]:
    """The graph of ``parmst.generate(spec)`` split over GPUs: part ``k`` built on ``devices[k]``.

    Parts follow one another in edge-id order: part ``k`` holds the global
    ids ``first_id .. first_id + count - 1`` with the whole graph's vertex ids
    and weights, in that device's memory. Drawn families split the pair-key
    range ``0 .. n**2 - 1`` (phase 1: every device draws every
    position but keeps only its keys, sorts and dedups them and counts them;
    the host's exclusive scan of the counts gives each part its first id;
    phase 2: each device numbers its keys and draws their weights from the
    global id and ``m``); the key ranges are quantiles of a sample of the
    keys, so the parts hold about equal shares; the other families split the ids evenly
    (part ``k`` starts at ``m * k // parts``). One host thread per distinct
    device; a device listed twice builds its parts one after the other. Vertex ids are
    int32 while the vertices and each part's edges fit in 32 bits
    (:func:`parmst._edge_input.part_index_dtype`), whatever the whole graph's ``m``.

    Parameters
    ----------
    spec : str
        A generator spec of a family in :data:`DEVICE_FAMILIES`.
    devices : sequence of int
        One CUDA device number per part (repeats allowed).

    Returns
    -------
    list of DevicePart
        In id order; the counts sum to ``m``.

    Examples
    --------
    >>> parts = generate_parts("rmat:scale=16,seed=1", [0, 1])  # doctest: +SKIP
    >>> sum(p.count for p in parts) == parts[0].num_edges  # doctest: +SKIP
    True
    """
    resolved = _resolve(spec)
    if isinstance(devices, (str, bytes)) or not isinstance(devices, Sequence) or not devices:
        raise GraphValueError(f"devices must be a non-empty list of CUDA device numbers, "
                              f"got {devices!r}")
    numbers = [_device_id(d) for d in devices]
    _require_gpu()
    for number in set(numbers):
        _check_visible(number)
    parts = len(numbers)
    n = resolved.n
    recipe = resolved.drawn()
    if recipe is None:
        bounds = [resolved.m * k // parts for k in range(parts + 1)]
        index = part_index_dtype(n, bounds[-1] - bounds[-2])
        edges = _by_device(numbers, lambda k: _id_range(resolved, bounds[k], bounds[k + 1],
                                                        numbers[k], index))
        return [DevicePart(numbers[k], edges[k], bounds[k], n, resolved.m) for k in range(parts)]
    key_bounds = _key_bounds(recipe, parts)
    keys = _by_device(numbers, lambda k: _drawn_keys(recipe, key_bounds[k], key_bounds[k + 1],
                                                     numbers[k]))
    counts = [int(a.shape[0]) for a in keys]
    firsts = [sum(counts[:k]) for k in range(parts)]
    m = sum(counts)
    index = part_index_dtype(n, max(counts))
    edges = _by_device(numbers, lambda k: _drawn_edges(recipe, keys[k], firsts[k], m,
                                                       numbers[k], index))
    return [DevicePart(numbers[k], edges[k], firsts[k], n, m) for k in range(parts)]
