"""parmst.opencl.prefix_scan against NumPy: every type, operator, mode, and awkward size.

Sizes straddle the tile (work-group size times items per work-item) and the
number of work-groups, so partial tiles, groups with no tile, and multi-tile
runs per group all occur. Integers, min and max must match exactly. Float
add reassociates (see :mod:`parmst.opencl`): integer-valued floats whose
prefix sums are exactly representable must match exactly, general floats
within the reassociation bound.
"""

from __future__ import annotations

import os

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parmst._opencl import runtime as _runtime
from parmst.errors import ParmstError
from parmst.opencl import opencl_devices, prefix_scan
from parmst.solvers.opencl import _scan

HUGE = 2**28
"""Sun and Skadron's largest scan: 2^28 elements (1 GiB of uint32, 2 GiB of int64)."""
REQUIRE_GPU = os.environ.get("PARMST_REQUIRE_OPENCL_GPU") == "1"
DTYPES = [np.int32, np.uint32, np.int64, np.uint64, np.float32, np.float64]
OPS = ["add", "min", "max"]
UFUNCS = {"add": np.add, "min": np.minimum, "max": np.maximum}


def _sizes() -> list[int]:
    scan = _scan.scan_for(_runtime.env(), np.int32, "add")
    tile = scan.wg * scan.items
    many = tile * scan.max_groups
    return [0, 1, 2, tile - 1, tile, tile + 1, 3 * tile + 7, many + tile // 3, 2 * many + 1]


@numba.njit(cache=True)
def _sequential(values, heads, op, exclusive, ident):
    out = np.empty_like(values)
    acc = ident
    for i in range(len(values)):
        if heads[i]:
            acc = ident
        x = values[i]
        if op == 0:
            after = values.dtype.type(acc + x)  # wraps in the input dtype, as NumPy's add
        elif op == 1:
            after = min(acc, x)
        else:
            after = max(acc, x)
        out[i] = acc if exclusive else after
        acc = after
    return out


def reference(values, op, exclusive, heads=None, mode="plain"):
    """The sequential (segmented) scan, left to right in the input dtype: NumPy's
    ``ufunc.accumulate`` per segment, compiled so that millions of segments stay fast."""
    flags = np.zeros(len(values), np.bool_) if heads is None else np.asarray(heads, np.bool_)
    return _sequential(values, flags, OPS.index(op), exclusive,
                       _scan.identity(values.dtype, op, mode))


def test_reference_is_numpy_accumulate():
    values = np.array([5, -3, 7, 2, -8, 4], np.int32)
    heads = np.array([0, 0, 1, 0, 0, 1], bool)
    for op in OPS:
        parts = [UFUNCS[op].accumulate(values[a:b], dtype=np.int32) for a, b in
                 [(0, 2), (2, 5), (5, 6)]]
        np.testing.assert_array_equal(reference(values, op, False, heads), np.concatenate(parts))
    wrapped = np.array([2**31 - 1, 1], np.int32)
    np.testing.assert_array_equal(reference(wrapped, "add", False),
                                  np.add.accumulate(wrapped, dtype=np.int32))


def _values(rng, dtype, n):
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return rng.integers(-100, 100, n).astype(dtype)  # integer-valued: exact sums
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)  # add wraps


@pytest.fixture(scope="module")
def sizes():
    return _sizes()


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("op", OPS)
def test_scan_matches_numpy(dtype, op, sizes):
    rng = np.random.default_rng(7)
    for n in sizes:
        values = _values(rng, dtype, n)
        for exclusive in (True, False):
            got = prefix_scan(values, op=op, exclusive=exclusive)
            np.testing.assert_array_equal(got, reference(values, op, exclusive),
                                          err_msg=f"n={n} exclusive={exclusive}")


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("op", OPS)
def test_segmented_scan_matches_numpy(dtype, op, sizes):
    rng = np.random.default_rng(11)
    for n in sizes:
        values = _values(rng, dtype, n)
        for density in (0.001, 0.3):
            heads = rng.random(n) < density
            for exclusive in (True, False):
                got = prefix_scan(values, op=op, exclusive=exclusive, segment_heads=heads)
                np.testing.assert_array_equal(
                    got, reference(values, op, exclusive, heads),
                    err_msg=f"n={n} density={density} exclusive={exclusive}")


@pytest.mark.parametrize("dtype", [np.uint32, np.uint64], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("op", ["min", "max"])
def test_top_bit_segmented_scan(dtype, op, sizes):
    rng = np.random.default_rng(13)
    top = dtype(1) << dtype(8 * np.dtype(dtype).itemsize - 1)
    for n in sizes:
        values = rng.integers(0, int(top), n, dtype=dtype)
        heads = rng.random(n) < 0.05
        flagged = np.where(heads, values | top, values)
        for exclusive in (True, False):
            got = prefix_scan(flagged, op=op, exclusive=exclusive, segment_heads="top-bit")
            np.testing.assert_array_equal(
                got, reference(values, op, exclusive, heads, "top-bit"),
                err_msg=f"n={n} exclusive={exclusive}")


def test_large_scan_matches_numpy():
    rng = np.random.default_rng(3)
    values = rng.integers(0, 2**32, 1_000_003, dtype=np.uint32)
    np.testing.assert_array_equal(prefix_scan(values, exclusive=False),
                                  np.add.accumulate(values, dtype=np.uint32))
    heads = rng.random(len(values)) < 1e-3
    keys = values.astype(np.uint64)
    got = prefix_scan(keys, op="min", exclusive=False, segment_heads=heads)
    np.testing.assert_array_equal(got, reference(keys, "min", False, heads))


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=lambda d: np.dtype(d).name)
def test_float_add_within_reassociation_bound(dtype, sizes):
    rng = np.random.default_rng(5)
    n = sizes[-1]
    values = rng.standard_normal(n).astype(dtype)
    got = prefix_scan(values, exclusive=False)
    exact = np.cumsum(values.astype(np.float64)) if dtype == np.float32 else np.cumsum(values)
    bound = n * np.finfo(dtype).eps * np.cumsum(np.abs(values.astype(np.float64)))
    assert np.all(np.abs(got - exact) <= bound)
    assert not np.array_equal(values, got)  # it did scan


def test_input_is_not_modified():
    values = np.arange(5000, dtype=np.int64)
    before = values.copy()
    prefix_scan(values, segment_heads=values % 7 == 0)
    np.testing.assert_array_equal(values, before)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"values": np.ones(3, np.int32), "op": "mul"}, "op must be one of"),
    ({"values": np.ones(3, np.int16)}, "values must be one of"),
    ({"values": np.ones((2, 2), np.int32)}, "one-dimensional"),
    ({"values": np.array([1.0, np.nan]), "op": "min"}, "NaN"),
    ({"values": np.ones(3, np.uint64), "segment_heads": "top-bit"}, "top-bit"),
    ({"values": np.ones(3, np.int64), "op": "min", "segment_heads": "top-bit"}, "top-bit"),
    ({"values": np.ones(3, np.int32), "segment_heads": [True, False]}, "shape"),
    ({"values": np.ones(3, np.int32), "segment_heads": [0, 2, 1]}, "booleans"),
    ({"values": np.ones(3, np.int32), "device": 99}, "out of range"),
    ({"values": np.ones(3, np.int32), "device": "no-such-device"}, "no OpenCL device matches"),
])
def test_bad_input_is_one_clear_error(kwargs, message):
    with pytest.raises(ValueError, match=message):
        prefix_scan(**kwargs)


def test_device_by_index_and_name():
    first = opencl_devices()[0]
    values = np.arange(100, dtype=np.int32)
    expected = prefix_scan(values)
    np.testing.assert_array_equal(prefix_scan(values, device=0), expected)
    np.testing.assert_array_equal(prefix_scan(values, device=first["device"][:6]), expected)


def test_opencl_devices_report_int64_atomics():
    devices = opencl_devices()
    assert devices and all(isinstance(d["int64_atomics"], bool) for d in devices)
    assert {"platform", "device", "global_mem_bytes", "max_alloc_bytes"} <= set(devices[0])


def test_build_failure_shows_the_build_log():
    env = _runtime.env()
    with pytest.raises(_runtime.OpenCLBuildError, match="scan.cl failed to build") as info:
        env.program("scan.cl", "-DT=no_such_type -DU=uint -DOP=0 -DIDENT=0 -DMODE=0 -DWG=64 "
                    "-DITEMS=1")
    assert "no_such_type" in str(info.value)
    assert isinstance(info.value, ParmstError)


def test_too_large_for_the_device_fails_before_allocating():
    env = _runtime.env()
    have = int(env.device.global_mem_size)
    with pytest.raises(_runtime.DeviceMemoryError, match=f"{have:,} bytes of global memory"):
        env.ensure_memory("this test", have + 1, 1)
    single = int(env.device.max_mem_alloc_size)
    with pytest.raises(_runtime.DeviceMemoryError, match="MAX_MEM_ALLOC_SIZE"):
        env.ensure_memory("this test", single + 1, single + 1)


def test_cli_info_lists_opencl_devices():
    from parmst.cli.info import device_report

    rows = dict(device_report())
    device = opencl_devices()[0]
    assert rows["opencl:0"].startswith(f"{device['platform']}: {device['device']}")
    assert rows["opencl:0"].endswith(("64-bit atomics yes)", "64-bit atomics no)"))


@settings(max_examples=40)
@given(dtype=st.sampled_from(DTYPES), op=st.sampled_from(OPS), exclusive=st.booleans(),
       n=st.integers(0, 5000), density=st.sampled_from([0.0, 0.01, 0.5, 1.0]),
       seed=st.integers(0, 2**16))
def test_random_scans_match_numpy(dtype, op, exclusive, n, density, seed):
    rng = np.random.default_rng(seed)
    values = _values(rng, dtype, n)
    heads = rng.random(n) < density if density else None
    got = prefix_scan(values, op=op, exclusive=exclusive, segment_heads=heads)
    np.testing.assert_array_equal(got, reference(values, op, exclusive, heads))


def _huge_scans_run_here() -> bool | str:
    """True on an OpenCL GPU with room for a 2^28-element int64 scan, else why not."""
    env = _runtime.env()
    if not env.device.type & 4:  # CL_DEVICE_TYPE_GPU
        return (f"2^28-element scans run on an OpenCL GPU only ({env.name} is not one; on "
                f"PoCL they would take minutes); benchmarks/opencl_device_run.sh runs them")
    need = 3 * 8 * HUGE
    if int(env.device.global_mem_size) < need:
        return f"{env.name} has less than the {need:,} bytes a 2^28-element int64 scan needs"
    return True


@pytest.fixture(scope="module")
def huge_device():
    ready = _huge_scans_run_here()
    if ready is not True:
        if REQUIRE_GPU:
            pytest.fail(f"PARMST_REQUIRE_OPENCL_GPU=1 but {ready}")
        pytest.skip(f"{ready} (PARMST_REQUIRE_OPENCL_GPU=1 makes this a failure)")


@pytest.mark.parametrize(("dtype", "op", "exclusive", "segmented"), [
    (np.uint32, "add", True, False),
    (np.int64, "add", False, False),
    (np.int64, "min", False, True),
], ids=["uint32-add", "int64-add", "int64-segmented-min"])
def test_huge_scan_matches_numpy(huge_device, dtype, op, exclusive, segmented):
    """Sun and Skadron's largest size, 2^28 elements, exact against the sequential scan."""
    rng = np.random.default_rng(28)
    values = _values(rng, dtype, HUGE)
    heads = rng.random(HUGE, np.float32) < 1e-4 if segmented else None
    got = prefix_scan(values, op=op, exclusive=exclusive, segment_heads=heads)
    np.testing.assert_array_equal(got, reference(values, op, exclusive, heads))
