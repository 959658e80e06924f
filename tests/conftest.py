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
simulator runs, and only they, switch that often.
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
if os.environ.get("NUMBA_ENABLE_CUDASIM") == "1":
    sys.setswitchinterval(SIMULATOR_SWITCH_INTERVAL)
