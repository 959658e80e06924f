"""OpenCL tests run on whatever device pyopencl finds (PoCL on the CPU in CI).

Every test here is marked ``opencl`` and skipped, with the reason, where
pyopencl or an OpenCL device is missing.
"""

from __future__ import annotations

import pytest

from parmst._opencl import runtime as _runtime

_READY = _runtime.probe()()


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/solvers/opencl" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.opencl)
            if _READY is not True:
                item.add_marker(pytest.mark.skip(reason=f"OpenCL unavailable: {_READY}"))
