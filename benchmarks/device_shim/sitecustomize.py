"""Shim for the GPU machine's Python only (put on PYTHONPATH by gpu_device_run.sh).

The GPU machine pairs numba-cuda 0.30.4 with NumPy 2.5, which removed
``np.row_stack``; numba-cuda registers an overload for it while compiling its
first kernel and fails. Restoring the alias (it was ``np.vstack``) lets
numba-cuda load there; nothing in parmst uses it.
"""

import numpy

if not hasattr(numpy, "row_stack"):
    numpy.row_stack = numpy.vstack
