"""OpenCL plumbing shared by the scan and the solvers: devices, contexts, builds, memory checks.

pyopencl is imported here and only here, lazily: ``import parmst`` and
``parmst.available_solvers()`` work without it. One :class:`Env` (context,
profiling queue, built programs) is kept per device for the life of the
process, so kernels build once per device and option set (pyopencl also
caches the binaries on disk across processes).
"""

from __future__ import annotations

import functools
import importlib.resources
import importlib.util
import logging
from dataclasses import dataclass, field
from typing import Any

from parmst.errors import ParmstError, SolverUnavailable

KERNEL_SOURCES = "parmst.solvers.opencl"
"""The package whose data files are the ``.cl`` sources (the scan's and the solvers'); named,
not imported, so the runtime stays below the solvers."""

__all__ = ["DeviceMemoryError", "Env", "OpenCLBuildError", "env", "filled", "list_devices", "probe",
           "to_device"]

logger = logging.getLogger(__name__)

INT64_ATOMICS = "cl_khr_int64_extended_atomics"
"""The extension that gives ``atom_min`` on 64-bit words (ECL-MST's packed-key minimum)."""

_HINT = "pip install 'parmst[opencl]'"


class OpenCLBuildError(ParmstError, RuntimeError):
    """An OpenCL program failed to build; the message carries the device's build log."""


class DeviceMemoryError(ParmstError, MemoryError):
    """The input needs more device memory (or a larger single buffer) than the device has."""


def _cl():
    if importlib.util.find_spec("pyopencl") is None:
        raise SolverUnavailable(f"pyopencl is not installed ({_HINT})")
    import pyopencl

    return pyopencl


@functools.cache
def _platform_devices() -> tuple[tuple[Any, Any], ...]:
    """Every ``(platform, device)`` pair the ICD loader offers, in platform order."""
    cl = _cl()
    try:
        platforms = cl.get_platforms()
    except cl.Error as error:  # the ICD loader finds no platform at all
        logger.debug("no OpenCL platform: %s", error)
        return ()
    pairs = []
    for platform in platforms:
        try:
            pairs.extend((platform, device) for device in platform.get_devices())
        except cl.Error as error:  # a platform with no device of any type
            logger.debug("OpenCL platform %s has no device: %s", platform.name, error)
    return tuple(pairs)


def _device_kind(bits: int, cl: Any) -> str:
    """``"GPU"``, ``"CPU"``, ``"ACCELERATOR"`` or ``"OTHER"`` (PoCL also sets the ALL bit)."""
    for kind in ("GPU", "CPU", "ACCELERATOR"):
        if bits & getattr(cl.device_type, kind):
            return kind
    return "OTHER"


def list_devices() -> list[dict[str, Any]]:
    """Each OpenCL device as plain data (see :func:`parmst.opencl.opencl_devices`)."""
    cl = _cl()
    rows = []
    for index, (platform, device) in enumerate(_platform_devices()):
        rows.append({
            "index": index,
            "platform": platform.name.strip(),
            "device": device.name.strip(),
            "type": _device_kind(device.type, cl),
            "version": device.version.strip(),
            "compute_units": int(device.max_compute_units),
            "global_mem_bytes": int(device.global_mem_size),
            "max_alloc_bytes": int(device.max_mem_alloc_size),
            "int64_atomics": INT64_ATOMICS in device.extensions,
        })
    return rows


def _pick(device: Any) -> tuple[Any, Any]:
    """The ``(platform, device)`` that ``device`` names.

    ``None``: the first GPU, else the first device. An int: the position in
    :func:`list_devices`. A string: a substring of ``"platform: device"``
    (case-insensitive). A ``pyopencl.Device``: itself.
    """
    pairs = _platform_devices()
    if not pairs:
        raise SolverUnavailable(f"no OpenCL device: no platform is registered with the ICD "
                                f"loader (PoCL runs on any CPU: {_HINT})")
    names = [f"{p.name.strip()}: {d.name.strip()}" for p, d in pairs]
    if device is None:
        cl = _cl()
        gpus = [pair for pair in pairs if pair[1].type & cl.device_type.GPU]
        return (gpus or pairs)[0]
    if isinstance(device, bool) or not isinstance(device, (int, str)):
        for pair in pairs:
            if pair[1] == device:
                return pair
        raise ValueError(f"device {device!r} is not one of the OpenCL devices: {names}")
    if isinstance(device, int):
        if not 0 <= device < len(pairs):
            raise ValueError(f"device index {device} out of range; OpenCL devices: {names}")
        return pairs[device]
    wanted = device.lower()
    matches = [pair for pair, name in zip(pairs, names, strict=True) if wanted in name.lower()]
    if not matches:
        raise ValueError(f"no OpenCL device matches {device!r}; devices: {names}")
    return matches[0]


class Kernels:
    """A built program's kernels by name, each a ``pyopencl.Kernel`` created once.

    Retrieving ``program.name`` creates a new kernel object every time (pyopencl
    warns about the cost); round loops launch the same kernels thousands of times.
    """

    def __init__(self, program: Any):
        self._program = program

    def __getattr__(self, name: str) -> Any:
        import pyopencl as cl

        kernel = cl.Kernel(self._program, name)
        setattr(self, name, kernel)
        return kernel


def preset_kernel(program: Any, name: str, *args: Any) -> Any:
    """A new kernel object of ``program`` with its arguments set once.

    pyopencl's ``kernel(queue, ...)`` call sets every argument again, about
    30 µs of host time per launch with ten arguments; a round loop that
    launches a kernel with the same buffers many times enqueues a preset
    kernel instead (:func:`enqueue`), changing single arguments with
    ``set_arg``.
    """
    import pyopencl as cl

    kernel = cl.Kernel(program, name)
    kernel.set_args(*args)
    return kernel


def enqueue(queue: Any, kernel: Any, count: int, work_group: int) -> Any:
    """Launch ``kernel`` over ``count`` work-items rounded up to whole work-groups (at least
    one); returns the event."""
    import pyopencl as cl

    size = max(1, -(-count // work_group)) * work_group
    return cl.enqueue_nd_range_kernel(queue, kernel, (size,), (work_group,))


@dataclass(eq=False)
class Env:
    """One device's context, in-order profiling queue and built programs."""

    device: Any
    context: Any
    queue: Any
    programs: dict[tuple[str, str], Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return f"opencl:{self.device.platform.name.strip()}: {self.device.name.strip()}"

    @property
    def int64_atomics(self) -> bool:
        return INT64_ATOMICS in self.device.extensions

    def program(self, source: str, options: str = "") -> Any:
        """The program built from ``source`` (a ``.cl`` file of :data:`KERNEL_SOURCES`) with
        ``options``.

        A build failure raises :class:`OpenCLBuildError` with the build log.
        """
        key = (source, options)
        if key not in self.programs:
            cl = _cl()
            text = importlib.resources.files(KERNEL_SOURCES).joinpath(source).read_text()
            program = cl.Program(self.context, text)
            try:
                self.programs[key] = program.build(options=options.split())
            except cl.RuntimeError as error:
                raise OpenCLBuildError(
                    f"OpenCL program {source} failed to build on {self.name} with options "
                    f"{options!r}:\n{_build_log(program, error)}") from None
        return self.programs[key]

    def kernels(self, source: str, options: str = "") -> Kernels:
        """The kernels of :meth:`program`, each retrieved once and kept (attribute access)."""
        key = ("kernels", source, options)
        if key not in self.programs:
            self.programs[key] = Kernels(self.program(source, options))
        return self.programs[key]

    def ensure_memory(self, what: str, total_bytes: int, largest_buffer: int) -> None:
        """Raise :class:`DeviceMemoryError` before allocating when the device is too small."""
        have = int(self.device.global_mem_size)
        single = int(self.device.max_mem_alloc_size)
        if total_bytes > have:
            raise DeviceMemoryError(
                f"{what} needs {total_bytes:,} bytes of device memory but {self.name} has "
                f"{have:,} bytes of global memory")
        if largest_buffer > single:
            raise DeviceMemoryError(
                f"{what} needs a {largest_buffer:,}-byte buffer but {self.name} allocates at "
                f"most {single:,} bytes at once (CL_DEVICE_MAX_MEM_ALLOC_SIZE)")


def _build_log(program: Any, error: Exception) -> str:
    """The build log of every device, falling back to the error text (which pyopencl fills)."""
    try:
        logs = [program.get_build_info(d, 4483) for d in program.context.devices]  # BUILD_LOG
    except Exception:  # noqa: BLE001 - the error text below still carries pyopencl's log
        logs = []
    text = "\n".join(log.strip() for log in logs if log and log.strip())
    return text or str(error)


_ENVS: dict[Any, Env] = {}


def env(device: Any = None) -> Env:
    """The shared :class:`Env` of the device that ``device`` names (see :func:`_pick`)."""
    cl = _cl()
    _, chosen = _pick(device)
    if chosen not in _ENVS:
        context = cl.Context([chosen])
        queue = cl.CommandQueue(context, properties=cl.command_queue_properties.PROFILING_ENABLE)
        _ENVS[chosen] = Env(chosen, context, queue)
    return _ENVS[chosen]


def solver_env(solver: str, device: Any, graph: Any, needed: tuple[int, int]) -> Env:
    """The device a solver runs on, after checking that ``needed = (total, largest buffer)``
    bytes fit (before anything is allocated)."""
    chosen = env(device)
    chosen.ensure_memory(f"{solver} on |V|={graph.num_vertices:,}, |E|={graph.num_edges:,}",
                         *needed)
    return chosen


def probe(need_int64_atomics: bool = False):
    """A registry probe: ``True`` if pyopencl finds a device (with 64-bit atomics if asked)."""

    def check() -> bool | str:
        try:
            pairs = _platform_devices()
        except SolverUnavailable as error:
            return str(error)
        if not pairs:
            return "no OpenCL platform or device found (pip install pocl-binary-distribution)"
        if need_int64_atomics and not any(INT64_ATOMICS in d.extensions for _, d in pairs):
            return f"no OpenCL device offers {INT64_ATOMICS} (64-bit atom_min)"
        return True

    return check


def to_device(env: Env, array: Any) -> Any:
    """A device buffer holding a copy of ``array``, transferred before this returns.

    ``COPY_HOST_PTR`` is not enough: drivers may defer a buffer's allocation and
    its host copy to the first kernel that uses it (NVIDIA's OpenCL does), which
    would move the transfer into a solve's timed rounds. An explicit write
    places both where the caller calls this (its initialization).
    """
    cl = _cl()
    import numpy as np

    array = np.ascontiguousarray(array)
    buffer = cl.Buffer(env.context, cl.mem_flags.READ_WRITE, max(array.nbytes, 1))
    if array.nbytes:
        cl.enqueue_copy(env.queue, buffer, array)
    return buffer


def filled(env: Env, count: int, dtype: Any, value: Any = 0) -> Any:
    """A device buffer of ``count`` values of ``dtype`` (at least one), all ``value``.

    The fill is enqueued now, so the device memory is taken now (see
    :func:`to_device`), not in the first timed kernel that touches the buffer.
    """
    cl = _cl()
    import numpy as np

    dtype = np.dtype(dtype)
    nbytes = max(count, 1) * dtype.itemsize
    buffer = cl.Buffer(env.context, cl.mem_flags.READ_WRITE, nbytes)
    cl.enqueue_fill_buffer(env.queue, buffer, np.full(1, value, dtype), 0, nbytes)
    return buffer


_ROUND = 256
"""Launches cover their item count rounded up to this (kernels bounds-check), so the
driver can choose any work-group size that divides it."""


def launch(kernel: Any, queue: Any, count: int, *args: Any) -> Any:
    """Enqueue ``kernel`` over ``count`` work-items (at least one work-group); its event."""
    size = max(_ROUND, -(-count // _ROUND) * _ROUND)
    return kernel(queue, (size,), None, *args)


class PhaseTimer:
    """OpenCL events grouped by phase name, summed into device seconds at the end.

    Profiling events time the kernels on the device without a host
    synchronization per phase, so the round loop stays asynchronous.
    """

    def __init__(self) -> None:
        self.events: dict[str, list[Any]] = {}

    def add(self, phase: str, *events: Any) -> None:
        self.events.setdefault(phase, []).extend(e for e in events if e is not None)

    def seconds(self) -> dict[str, float]:
        """Device time per phase (call after the queue has finished)."""
        return {phase: sum(e.profile.end - e.profile.start for e in events) * 1e-9
                for phase, events in self.events.items()}
