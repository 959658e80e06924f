"""Shared fixtures of the front-door tests."""

from __future__ import annotations

import pytest

from interop.backend_env import networkx_backend_env


@pytest.fixture(scope="session")
def backend_env(tmp_path_factory) -> dict[str, str]:
    """Environment for a subprocess in which NetworkX sees the ``parmst`` backend."""
    return networkx_backend_env(tmp_path_factory.mktemp("entry_points"))
