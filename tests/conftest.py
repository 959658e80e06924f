"""Test-session settings shared by the whole suite.

Hypothesis runs a deterministic profile with no deadline: Numba compiles on
first call, so the first example of a test is much slower than the rest,
and CI must see the same examples on every run. Set HYPOTHESIS_PROFILE=thorough
locally to draw many more (random) examples.
"""

from __future__ import annotations

import os

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
