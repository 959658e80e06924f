"""Machine descriptions for reports."""

import types

import pytest

from parmst.bench import machine
from parmst.bench.machine import describe_machine, machine_info, short_machine


def test_machine_info_names_hardware_software_and_date():
    info = machine_info()
    assert info["cores"] >= 1 and info["cpu"]
    assert {"numpy", "numba", "parmst", "python"} <= set(info["versions"])
    assert info["date"].endswith("+00:00")
    assert isinstance(info["gpus"], list)
    assert info["label"] is None
    assert describe_machine(info).startswith(info["cpu"])
    assert short_machine(info).startswith(info["cpu"])
    assert machine_info("my laptop")["label"] == "my laptop"


def test_describe_machine_mentions_gpus_and_commit():
    text = describe_machine({"label": "rig", "cpu": "Xeon", "cores": 16, "memory_gib": 128.0,
                             "gpus": [{"name": "H100", "driver": "550.1", "memory": "80 GiB"}],
                             "versions": {"numba": "0.68"}, "git_commit": "abc123",
                             "date": "2026-11-21"})
    assert text == ("rig: Xeon, 16 cores, 128.0 GiB, H100 (driver 550.1); numba 0.68; "
                    "commit abc123; 2026-11-21")


@pytest.mark.parametrize("name", [b"NVIDIA H200", "NVIDIA H200"])
def test_numba_cuda_names_the_device_whether_its_name_is_bytes_or_str(monkeypatch, name):
    """Older numba-cuda gives the device name as bytes, newer (0.30) as str: both read."""
    cuda = pytest.importorskip("numba.cuda", reason="numba-cuda not installed")
    monkeypatch.setattr(cuda, "is_available", lambda: True)
    monkeypatch.setattr(cuda, "get_current_device", lambda: types.SimpleNamespace(name=name))
    assert machine._numba_cuda() == "numba.cuda: NVIDIA H200"
