"""Which GPUs ``ecl/multigpu`` sees, and which device each part of a split runs on.

Nothing here imports ``numba.cuda`` before numba-cuda is known to be
installed, so ``parmst.available_solvers()`` stays cheap and safe. numba-cuda's
simulator models exactly one device (its ``select_device`` accepts only 0),
so there the default is two parts on that device: the whole pipeline (two
local forests, the merge) runs in CI.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from parmst._cuda import runtime

__all__ = ["Plan", "copy_into", "describe_devices", "load_kernels_per_device", "memory_info",
           "on_device", "plan", "probe", "transfer_path", "visible_devices"]

_SIMULATED_PARTS = 2


def visible_devices() -> list[str]:
    """``"cuda:<id> <name>"`` of every CUDA device this process sees (the simulator's one).

    Examples
    --------
    >>> isinstance(visible_devices(), list)  # doctest: +SKIP
    True
    """
    if runtime.simulator_active():
        return ["cuda:0 cuda-simulator"]
    from numba import cuda

    names = []
    for gpu in cuda.gpus:
        name = gpu.name.decode() if isinstance(gpu.name, bytes) else str(gpu.name)
        names.append(f"cuda:{gpu.id} {name}")
    return names


@dataclass(frozen=True)
class Plan:
    """Where a solve runs: the devices, the number of parts, and part ``p``'s device.

    Part ``p`` runs on ``devices[p % len(devices)]``, or on ``placement[p]`` where the parts
    already lie on devices; the merge on ``devices[0]``.
    """

    devices: tuple[int, ...]
    parts: int
    placement: tuple[int, ...] = ()

    def device_of(self, part: int) -> int:
        if self.placement:
            return self.placement[part]
        return self.devices[part % len(self.devices)]

    @classmethod
    def where_parts_lie(cls, placement: Sequence[int]) -> Plan:
        """The plan of parts already on devices: part ``p`` on ``placement[p]``, the merge on
        the first part's device."""
        return cls(tuple(dict.fromkeys(placement)), len(placement), tuple(placement))


def _checked_ids(devices: Sequence[int], seen: int) -> tuple[int, ...] | str:
    """``devices`` as a tuple of distinct visible ids; ValueError for a malformed list,
    a reason string for an id this machine does not have."""
    if isinstance(devices, (str, bytes)) or not isinstance(devices, Sequence) or not devices:
        raise ValueError(f"ecl/multigpu: devices must be a non-empty list of device ids, "
                         f"got {devices!r}")
    ids = []
    for d in devices:
        if isinstance(d, bool) or not isinstance(d, int) or d < 0:
            raise ValueError(f"ecl/multigpu: device ids are non-negative integers, got {d!r}")
        if d in ids:
            raise ValueError(f"ecl/multigpu: device {d} is listed twice in {list(devices)}")
        ids.append(d)
    missing = [d for d in ids if d >= seen]
    if missing:
        return (f"device {missing[0]} is not visible: this process sees {seen} CUDA "
                f"device{'s' if seen != 1 else ''} (ids 0..{seen - 1})")
    return tuple(ids)


def plan(devices: Sequence[int] | None = None, parts: int | None = None) -> Plan | str:
    """The :class:`Plan` for these options, or why this machine cannot run it.

    ``devices=None`` means every visible device; ``parts=None`` one part per
    device, which needs two devices or more (two parts on the simulator's
    one). Malformed values raise ValueError.
    """
    if parts is not None and (isinstance(parts, bool) or not isinstance(parts, int)
                              or parts < 2):
        raise ValueError(f"ecl/multigpu: parts must be an integer of at least 2 (one part is "
                         f"ecl/gpu itself), got {parts!r}")
    names = visible_devices()
    ids = tuple(range(len(names))) if devices is None else _checked_ids(devices, len(names))
    if isinstance(ids, str):
        return ids
    if parts is None:
        if runtime.simulator_active():
            parts = _SIMULATED_PARTS
        elif len(ids) < 2:
            shown = ", ".join(names[d] for d in ids) or "none"
            what = (f"it sees {len(ids)} CUDA device{'s' if len(ids) != 1 else ''}"
                    if devices is None else f"devices={list(devices)} names one device")
            return (f"{what} ({shown}) and splits the edges over two or more; pass parts=2 "
                    f"(or more) to run the parts one after another on one device")
        else:
            parts = len(ids)
    return Plan(ids, parts)


def probe(devices: Sequence[int] | None = None, parts: int | None = None) -> bool | str:
    """``True`` if ``ecl/multigpu`` can run here with these options, else why not.

    Examples
    --------
    >>> isinstance(probe(), (bool, str))
    True
    """
    ok = runtime.probe()
    if ok is not True:
        return ok
    chosen = plan(devices, parts)
    return chosen if isinstance(chosen, str) else True


def describe_devices() -> str:
    """One line for ``parmst info``: the CUDA devices ``ecl/multigpu`` would split over.

    Examples
    --------
    >>> describe_devices()  # doctest: +SKIP
    '2 devices: cuda:0 NVIDIA H200, cuda:1 NVIDIA H200'
    """
    ok = runtime.probe()
    if ok is not True:
        return str(ok)
    names = visible_devices()
    if runtime.simulator_active():
        return f"1 simulated device; ecl/multigpu runs {_SIMULATED_PARTS} parts on it"
    return f"{len(names)} device{'s' if len(names) != 1 else ''}: {', '.join(names)}"


@contextmanager
def on_device(device: int) -> Iterator[None]:
    """Make ``device`` current on this thread for the block (numba-cuda's ``cuda.gpus``)."""
    from numba import cuda

    with cuda.gpus[device]:
        yield


def memory_info(device: int, reclaim: bool = False) -> tuple[float, float]:
    """``(free, total)`` bytes of ``device`` (``cuMemGetInfo``; infinite under the simulator).

    ``reclaim`` first frees what is only held for later: the device pool's idle
    buffers and the arrays numba-cuda has queued for a deferred free.
    """
    from numba import cuda

    from parmst._cuda import pool

    with on_device(device):
        context = cuda.current_context()
        if reclaim and not runtime.simulator_active():
            pool.device_pool().clear()
            context.deallocations.clear()
        free, total = context.get_memory_info()
    return float(free), float(total)


def load_kernels_per_device() -> None:
    """Give every device its own copy of each linked kernel image (once per process).

    numba-cuda links a kernel once per compute capability and loads that one
    image (a context-independent CUDA library) on each device, registering an
    unload for every device: with two devices of one kind the library was
    unloaded twice at interpreter exit, which aborted the process (a
    double free in ``cuLibraryUnload``, seen on two H200s). Here each device
    after the first gets an image of its own, made from the same bytes, so
    every unload frees a distinct library. Loading runs under numba-cuda's
    compiler lock, since the devices' threads may load the same kernel at
    once.
    """
    from cuda.core import ObjectCode
    from numba.cuda import codegen
    from numba.cuda.core.compiler_lock import global_compiler_lock
    from numba.cuda.cudadrv import devices

    link, load = codegen.CUDACodeLibrary.get_cubin, codegen.CUDACodeLibrary.get_cufunc
    if getattr(load, "per_device", False):
        return

    def get_cubin(self: Any, cc: Any = None) -> Any:
        with global_compiler_lock:
            shared = link(self, cc)
            copies = self.__dict__.setdefault("_device_images", {})
            key = (self._ensure_cc(cc), devices.get_context().device.id)
            if key not in copies and (not self._cufunc_cache or key[1] in self._cufunc_cache):
                return shared  # this device holds the shared image, or no device does yet
            if key not in copies:
                copies[key] = ObjectCode.from_cubin(shared.code, name=getattr(shared, "name", ""))
            return copies[key]

    def get_cufunc(self: Any) -> Any:
        with global_compiler_lock:  # one device at a time decides which image it loads
            return load(self)

    get_cufunc.per_device = True  # type: ignore[attr-defined]
    codegen.CUDACodeLibrary.get_cubin = get_cubin
    codegen.CUDACodeLibrary.get_cufunc = get_cufunc


def _can_access_peer(target: int, source: int) -> bool:
    """Whether ``target`` can read ``source``'s memory directly (``cuDeviceCanAccessPeer``)."""
    from numba import cuda

    with on_device(target):
        return cuda.current_context().can_access_peer(source)


def transfer_path(source: int, target: int) -> str:
    """How device arrays on ``source`` reach ``target``.

    ``"device"``: the same device, a device-to-device copy; ``"peer"``: a
    peer copy (the driver's ``cuMemcpyPeer``) where the two devices can access
    each other; ``"host"``: staged through host memory where they cannot.

    Examples
    --------
    >>> transfer_path(0, 0)
    'device'
    """
    if source == target:
        return "device"
    return "peer" if _can_access_peer(target, source) else "host"


def _address(array: Any) -> int:
    return array.__cuda_array_interface__["data"][0]


def copy_into(out: Any, values: Any, source: int, target: int, path: str) -> None:
    """Copy the contiguous device array ``values`` on device ``source`` into ``out``, a
    contiguous device array of the same length and dtype on ``target``, by ``path``
    (:func:`transfer_path`)."""
    if not values.shape[0]:
        return
    if path == "peer":
        # Through numba-cuda's driver binding and numba's own contexts: no second CUDA
        # library (CuPy's runtime) starts beside them.
        from numba import cuda
        from numba.cuda.cudadrv.driver import driver

        contexts = {}
        for device in (source, target):
            with on_device(device):
                contexts[device] = cuda.current_context().handle
        driver.cuMemcpyPeer(_address(out), contexts[target], _address(values),
                            contexts[source], values.nbytes)
    elif path == "host":
        with on_device(source):
            staged = values.copy_to_host()
        with on_device(target):
            out.copy_to_device(staged)
    else:
        with on_device(target):
            out.copy_to_device(values)
