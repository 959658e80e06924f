"""What machine a benchmark ran on: CPU, cores, memory, GPU, library versions, commit."""

from __future__ import annotations

import datetime
import importlib.metadata
import logging
import os
import platform
import shutil
import subprocess
from pathlib import Path
from typing import Any

__all__ = ["describe_machine", "load_average", "machine_info"]

log = logging.getLogger(__name__)

_LIBRARIES = ("parmst", "numpy", "numba", "numba-cuda", "scipy", "networkx", "igraph",
              "cugraph", "cugraph-cu12", "matplotlib", "mpi4py", "pyopencl")


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _memory_gib() -> float | None:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return round(int(line.split()[1]) / 2**20, 1)
    except OSError:
        pass
    return None


def _run_quietly(command: list[str], cwd: str | None = None) -> str | None:
    """stdout of ``command``, or None if it is missing, fails or takes over 10 s."""
    if shutil.which(command[0]) is None:
        return None
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=10, cwd=cwd,
                              check=True)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip()


def _gpus() -> list[dict[str, str]]:
    out = _run_quietly(["nvidia-smi", "--query-gpu=name,driver_version,memory.total",
                        "--format=csv,noheader"])
    if not out:
        return []
    gpus = []
    for line in out.splitlines():
        name, driver, memory = (part.strip() for part in line.split(",", 2))
        gpus.append({"name": name, "driver": driver, "memory": memory})
    return gpus


def _as_text(value: bytes | str) -> str:
    """``value`` as text: numba-cuda's device name is bytes in older releases, str in newer."""
    return value.decode(errors="replace") if isinstance(value, bytes) else str(value)


def _numba_cuda() -> str | None:
    """What numba.cuda sees, without starting a device when numba-cuda is absent."""
    try:
        from numba import cuda
    except ImportError:
        return None
    try:
        if not cuda.is_available():
            return "numba.cuda: no CUDA device"
        return f"numba.cuda: {_as_text(cuda.get_current_device().name)}"
    except Exception as exc:  # noqa: BLE001 - any driver failure is just reported
        return f"numba.cuda: {type(exc).__name__}: {exc}"


def _versions() -> dict[str, str]:
    versions = {"python": platform.python_version()}
    for name in _LIBRARIES:
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            continue
    return versions


def _git_commit() -> str | None:
    here = str(Path(__file__).resolve().parent)
    commit = _run_quietly(["git", "rev-parse", "--short=12", "HEAD"], cwd=here)
    if commit is None:
        return None
    dirty = _run_quietly(["git", "status", "--porcelain", "--untracked-files=no"], cwd=here)
    return commit + ("-dirty" if dirty else "")


def load_average() -> float | None:
    """The 1-minute load average (None where the OS has none): a busy machine times slowly."""
    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):
        return None


def machine_info(label: str | None = None) -> dict[str, Any]:
    """Describe this machine and software for a benchmark report.

    Parameters
    ----------
    label : str, optional
        A human name for the machine ("2-core dev VM, no GPU").

    Examples
    --------
    >>> info = machine_info("test box")
    >>> info["label"], info["cores"] >= 1
    ('test box', True)
    """
    import numba

    from parmst.registry import cpu_count

    cores = cpu_count()
    cpu = _cpu_model()
    gpus = _gpus()
    info: dict[str, Any] = {
        "label": label,
        "cpu": cpu,
        "cores": cores,
        "logical_cpus": os.cpu_count(),
        "numba_threads": numba.config.NUMBA_NUM_THREADS,
        "memory_gib": _memory_gib(),
        "load_average": load_average(),
        "platform": platform.platform(),
        "gpus": gpus,
        "numba_cuda": _numba_cuda(),
        "versions": _versions(),
        "git_commit": _git_commit(),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
    }
    return info


def short_machine(info: dict[str, Any]) -> str:
    """The machine's label, or its CPU and core count (for plot titles).

    Examples
    --------
    >>> short_machine({"label": None, "cpu": "Xeon", "cores": 8, "gpus": []})
    'Xeon, 8 cores'
    """
    gpus = info.get("gpus") or []
    return info.get("label") or (f"{info.get('cpu', '?')}, {info.get('cores', '?')} cores"
                                 + (f", {gpus[0]['name']}" if gpus else ""))


def describe_machine(info: dict[str, Any]) -> str:
    """One paragraph naming the machine of a report (for Markdown headers).

    Examples
    --------
    >>> describe_machine({"label": "box", "cpu": "X", "cores": 2, "memory_gib": 8.0,
    ...                   "gpus": [], "versions": {"numpy": "2.0"}, "date": "2026"})
    'box: X, 2 cores, 8.0 GiB, no GPU; numpy 2.0; 2026'
    """
    parts = [f"{info.get('cpu', '?')}, {info.get('cores', '?')} cores"]
    if info.get("memory_gib"):
        parts[0] += f", {info['memory_gib']} GiB"
    gpus = info.get("gpus") or []
    parts[0] += ", " + (", ".join(f"{g['name']} (driver {g['driver']})" for g in gpus)
                        if gpus else "no GPU")
    versions = info.get("versions", {})
    parts.append(", ".join(f"{k} {v}" for k, v in versions.items()))
    load, load_end = info.get("load_average"), info.get("load_average_end")
    if load is not None:
        parts.append(f"load average {load} at start" + ("" if load_end is None
                                                        else f", {load_end} at end"))
    commit = info.get("git_commit")
    if commit:
        parts.append(f"commit {commit}")
    parts.append(str(info.get("date", "")))
    label = info.get("label")
    return (f"{label}: " if label else "") + "; ".join(parts)
