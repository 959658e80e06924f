"""Test-session settings shared by the whole suite.

Hypothesis runs a deterministic profile with no deadline: Numba compiles on
first call, so the first example of a test is much slower than the rest,
and CI must see the same examples on every run. Set HYPOTHESIS_PROFILE=thorough
locally to draw many more (random) examples.

Under numba-cuda's simulator (``NUMBA_ENABLE_CUDASIM=1``) every GPU thread
is a Python thread, and the block's manager polls them in a loop until all
reach ``syncthreads``: with the interpreter's default 5 ms switch interval
each barrier waits out several intervals. A 0.2 ms interval made rank-key
``ecl/gpu``, ``genboruvka/gpu`` and ``boruvka-edge/gpu`` solves about three
times faster there (0.1 to 0.5 ms were alike, 0.02 ms slower again), so
simulator runs, and only they, switch that often. Switching that often also
made a race in the simulator show: a block's threads share one array per
``cuda.shared.array`` line, which the simulator (numba-cuda 0.30) looks up
and stores without a lock, so a switch between the two gave two threads of a
block different arrays and the block scan a wrong prefix sum. Simulator runs
therefore allocate shared arrays under a lock (``guard_shared_arrays``).
"""

from __future__ import annotations

import os
import sys

from hypothesis import HealthCheck, settings

settings.register_profile(
    "parmst",
    derandomize=True,
    deadline=None,
    database=None,
    max_examples=30,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough",
    deadline=None,
    max_examples=500,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "parmst"))

#: Seconds a simulated GPU thread holds the interpreter before another may run (default 0.005).
SIMULATOR_SWITCH_INTERVAL = 0.0002


def guard_shared_arrays() -> None:
    """Make the CUDA simulator hand every thread of a block the same shared array.

    The simulator keys a block's shared arrays by the kernel line that asks
    for one; the lookup and the store are done here under one lock, so the
    first thread's array is the one every other thread of the block gets.
    Dynamic shared memory (shape 0) needs no allocation and keeps the
    simulator's own path.
    """
    import threading

    import numpy as np
    from numba.core import types
    from numba.cuda.simulator import kernelapi
    from numba.np import numpy_support

    unguarded = kernelapi.FakeCUDAShared.array
    lock = threading.Lock()

    def array(self, shape, dtype, alignment=None):
        if shape == 0 or alignment is not None:
            return unguarded(self, shape, dtype, alignment)
        kernel = sys._getframe(1)
        line = (kernel.f_code.co_filename, kernel.f_lineno)
        if isinstance(dtype, types.Type):
            dtype = numpy_support.as_dtype(dtype)
        with lock:
            if line not in self._allocations:
                self._allocations[line] = np.empty(shape, dtype)
            return self._allocations[line]

    kernelapi.FakeCUDAShared.array = array


if os.environ.get("NUMBA_ENABLE_CUDASIM") == "1":
    sys.setswitchinterval(SIMULATOR_SWITCH_INTERVAL)
    guard_shared_arrays()
