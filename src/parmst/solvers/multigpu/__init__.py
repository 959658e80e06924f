"""Solvers that spread one graph over several GPUs of one host (numba-cuda, imported lazily).

``ecl/multigpu`` splits the edges into parts, solves each part's local forest
with ``ecl/gpu`` on its own device, and finishes the surviving edges with
``ecl/gpu`` on one device (docs/multigpu.md). Its probe counts the visible
devices: with fewer than two it says so, unless ``parts`` asks for several
parts on one device.
"""

from parmst.registry import CITATIONS, Solver, register
from parmst.solvers.gpu._device import graph_limit
from parmst.solvers.multigpu._devices import describe_devices, probe

__all__ = ["describe_devices"]

register(Solver(
    name="ecl/multigpu",
    entry="parmst.solvers.multigpu.ecl:solve",
    paper=CITATIONS["ecl-mst"] + ", Algorithms 1-2 on each device, after the local-forest "
          "filter of " + CITATIONS["sousa"] + ", section 4.3.2",
    summary="edges split over the GPUs, each part's local forest by ecl/gpu on its own "
            "device (one host thread per device), the survivors finished by ecl/gpu on one",
    requires=("numba_cuda",),
    options={"devices": None, "parts": None, "split": "edges", "keys": "auto"},
    probe=probe,
    probe_options=("devices", "parts"),
    limit=graph_limit,
))
