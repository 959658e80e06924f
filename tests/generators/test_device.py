"""GPU generation: the one-line errors without a GPU, and the simulator run of ``device_cases.py``."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

import parmst
from parmst.cli import main
from parmst.errors import GraphValueError

HERE = Path(__file__).resolve().parent


def _gpu_missing() -> str | None:
    from parmst._cuda import runtime

    ok = runtime.probe()
    return None if ok is True else ok


def test_a_family_gpus_do_not_generate_is_named_before_any_gpu_is_needed():
    with pytest.raises(GraphValueError, match="'dense' cannot be generated on a GPU"):
        parmst.generate("dense:n=10", device=0)


def test_a_bad_device_is_one_clear_error():
    with pytest.raises(GraphValueError, match="device must be a CUDA device number"):
        parmst.generate("rmat:scale=4", device=True)


@pytest.mark.skipif(importlib.util.find_spec("numba_cuda") is not None and _gpu_missing() is None,
                    reason="a GPU (or the simulator) is present")
def test_without_a_gpu_generation_and_the_cli_fail_in_one_line(capsys):
    with pytest.raises(GraphValueError, match="^generating on a GPU"):
        parmst.generate("rmat:scale=4", device=0)
    assert main(["solve", "--generate", "rmat:scale=4", "--solver", "ecl/gpu"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("parmst: error: generating on a GPU") and err.count("\n") == 1


@pytest.mark.gpu
@pytest.mark.skipif(importlib.util.find_spec("numba_cuda") is None,
                    reason="numba-cuda is not installed (pip install 'parmst[gpu]')")
def test_device_cases_pass_under_simulator(tmp_path):
    from solvers.gpu.test_gpu_simulator import run_under_simulator  # tests/ is on sys.path

    outcomes, skips, tail = run_under_simulator(tmp_path / "device.xml",
                                                str(HERE / "device_cases.py"))
    assert outcomes["passed"] > 0 and outcomes["failed"] == 0 and not skips, tail


def test_key_ranges_of_parts_hold_about_equal_shares():
    from parmst.generators import FAMILIES, describe
    from parmst.generators.device import _key_bounds

    info = describe("rmat:scale=12,seed=2")
    recipe = FAMILIES["rmat"].drawn(**info["params"])
    bounds = _key_bounds(recipe, 4)
    assert bounds[0] == 0 and bounds[-1] == recipe.num_vertices**2 and bounds == sorted(bounds)
    keys = np.unique(recipe.keys(0, recipe.raw_count))
    shares = np.diff(np.searchsorted(keys, bounds)) / len(keys)
    assert shares.min() > 0.2 and shares.max() < 0.3, shares
