"""What this machine can hold: the one check run before any n- or m-sized allocation.

Hostile or mistaken input names sizes that no machine holds: a vertex id of
999999999999 in an edge list means 10^12 vertices, and every solver keeps at
least one 8-byte word per vertex (a union-find parent). Every reader and
:meth:`parmst.Graph.from_edges` asks :func:`shortfall` before allocating and
fails with one line naming the value, instead of a ``MemoryError`` deep in a
solver. The estimate is a lower bound (the least any solver needs), so it
refuses only what surely cannot run; a solver that needs several words per
vertex may still run out of memory on inputs that pass.

Available memory is Linux's ``MemAvailable`` (capped by a cgroup v2 limit),
else the physical memory reported by ``os.sysconf``; where neither exists
only the int64 bound applies. The environment variable
``PARMST_MEMORY_LIMIT`` (bytes, or a number with ``K``, ``M``, ``G`` or
``T``, binary units) caps it further, for shared machines and for tests
that must behave the same on every machine.
"""

from __future__ import annotations

import math
import os
import time

from parmst.errors import SettingError

__all__ = ["BYTES_PER_EDGE", "BYTES_PER_VERTEX", "available_memory", "count_text", "shortfall",
           "size_text"]

#: The least any solver keeps per vertex: one int64 union-find parent or CSR row pointer.
BYTES_PER_VERTEX = 8
#: A graph's edge: int64 src and dst (the widest index type) and an 8-byte weight.
BYTES_PER_EDGE = 24
_INT64_LIMIT = 2**63
_UNITS = ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB")
_SUFFIXES = {"K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}
LIMIT_VARIABLE = "PARMST_MEMORY_LIMIT"


def _limit_from_environment() -> int | None:
    """``PARMST_MEMORY_LIMIT`` in bytes, None if unset; SettingError naming it if malformed."""
    text = os.environ.get(LIMIT_VARIABLE, "").strip()
    if not text:
        return None
    scale = _SUFFIXES.get(text[-1].upper(), 1)
    number = text[:-1] if scale > 1 else text
    try:
        value = float(number)
    except ValueError:
        value = -1.0
    if not math.isfinite(value) or value < 0:
        raise SettingError(f"{LIMIT_VARIABLE}={text!r} is not a size such as 4G or 1073741824")
    return int(value * scale)


def _meminfo_available() -> int | None:
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def _cgroup_room() -> int | None:
    """Bytes left under a cgroup v2 memory limit, or None without one."""
    try:
        with open("/sys/fs/cgroup/memory.max", encoding="ascii") as f:
            limit = f.read().strip()
        if limit == "max":
            return None
        with open("/sys/fs/cgroup/memory.current", encoding="ascii") as f:
            used = int(f.read().strip())
        return max(0, int(limit) - used)
    except (OSError, ValueError):
        return None


# The system's figure, read at most once a second: each check reads two to four files,
# a tenth of a millisecond that would otherwise fall on every Graph.from_edges call.
# A second-old figure serves a check that only refuses sizes no machine near it holds.
_SYSTEM_READING_AGE = 1.0
_system_reading: tuple[float, int | None] | None = None


def _system_memory() -> int | None:
    """MemAvailable (else physical memory) capped by a cgroup v2 limit, re-read once a second."""
    global _system_reading
    now = time.monotonic()
    if _system_reading is None or now - _system_reading[0] > _SYSTEM_READING_AGE:
        room = _meminfo_available()
        if room is None:
            try:
                room = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
            except (AttributeError, ValueError, OSError):
                room = None
        cap = _cgroup_room()
        if cap is not None:
            room = cap if room is None else min(room, cap)
        _system_reading = (now, room)
    return _system_reading[1]


def available_memory() -> int | None:
    """Bytes of memory this process can still allocate, or None if the system does not say.

    Raises
    ------
    SettingError
        ``PARMST_MEMORY_LIMIT`` is set but is not a size.

    Examples
    --------
    >>> room = available_memory()
    >>> room is None or room >= 0
    True
    """
    room = _system_memory()
    cap = _limit_from_environment()
    if cap is not None:
        room = cap if room is None else min(room, cap)
    return room


def size_text(nbytes: int) -> str:
    """Bytes in binary units, three significant digits.

    Examples
    --------
    >>> size_text(8 * 10**12), size_text(512), size_text(3 * 2**30), size_text(40 * 2**30)
    ('7.28 TiB', '512 bytes', '3.00 GiB', '40.0 GiB')
    >>> size_text(8 * 10**30)
    'about 10^30 bytes'
    """
    if nbytes < 1024:
        return f"{nbytes} bytes"
    if nbytes >= 1024**len(_UNITS):  # beyond the units (and perhaps beyond a float)
        return f"about 10^{len(str(nbytes)) - 1} bytes"
    exponent = (nbytes.bit_length() - 1) // 10  # exact: 1024**exponent <= nbytes
    value = nbytes / 1024**exponent
    decimals = 2 if value < 10 else 1 if value < 100 else 0
    return f"{value:.{decimals}f} {_UNITS[exponent]}"


def count_text(count: int) -> str:
    """A count as ``10^k`` when it is a power of ten of a million or more, else with commas.

    Examples
    --------
    >>> count_text(10**12), count_text(4294967297), count_text(12)
    ('10^12', '4,294,967,297', '12')
    """
    digits = str(count)
    if count >= 10**6 and digits.strip("0") == "1":
        return f"10^{len(digits) - 1}"
    return f"{count:,}"


def shortfall(count: int, noun: str = "vertices", bytes_each: int = BYTES_PER_VERTEX) -> str | None:
    """None if ``count`` items of ``bytes_each`` fit in memory, else the reason, to follow a value.

    The reason reads "would need 10^12 vertices, 7.28 TiB, more than the
    21.3 GiB available"; callers put the value in front (the id, the line,
    the option) and a hint after. ``count`` is a Python int, so sizes far
    beyond int64 are reported, never wrapped.

    Examples
    --------
    >>> shortfall(10)
    >>> shortfall(2**70)
    'would need 1,180,591,620,717,411,303,424 vertices, 8.00 ZiB, beyond the int64 range'
    """
    count = int(count)
    needed = count * bytes_each
    if count >= _INT64_LIMIT or needed >= _INT64_LIMIT:
        return f"would need {count_text(count)} {noun}, {size_text(needed)}, beyond the int64 range"
    room = available_memory()
    if room is None or needed <= room:
        return None
    return (f"would need {count_text(count)} {noun}, {size_text(needed)}, more than the "
            f"{size_text(room)} available")
