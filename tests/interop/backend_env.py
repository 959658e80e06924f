"""Environment for a subprocess in which NetworkX sees the ``parmst`` backend.

NetworkX finds backends through installed entry points. A clean
``pip install -e '.[test]'`` (CI) registers parmst's from pyproject.toml;
a checkout whose installed metadata predates them gets the same entry points,
read from pyproject.toml, through a throw-away ``.dist-info`` folder on the
subprocess's path, so the tests always exercise what pyproject declares.
"""

from __future__ import annotations

import os
from importlib.metadata import entry_points
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parents[2]


def declared_entry_points() -> dict[str, dict[str, str]]:
    """The ``[project.entry-points]`` tables of pyproject.toml."""
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["project"]["entry-points"]


def networkx_backend_env(folder: Path) -> dict[str, str]:
    """This process's environment with ``src`` (and, if needed, entry points written into
    ``folder``) on the path, and no backend priority of the caller's."""
    env = dict(os.environ)
    path = [str(ROOT / "src")]
    installed = entry_points(group="networkx.backends", name="parmst")
    if not installed:
        info = folder / "parmst_networkx_entry_points-0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(
            "Metadata-Version: 2.1\nName: parmst-networkx-entry-points\nVersion: 0\n")
        lines = []
        for group, table in declared_entry_points().items():
            lines.append(f"[{group}]")
            lines.extend(f"{name} = {target}" for name, target in table.items())
        (info / "entry_points.txt").write_text("\n".join(lines) + "\n")
        path.append(str(folder))
    env["PYTHONPATH"] = os.pathsep.join(path + [env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env.pop("NETWORKX_BACKEND_PRIORITY", None)
    return env
