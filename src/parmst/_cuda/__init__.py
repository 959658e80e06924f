"""The CUDA layer: devices and device arrays, with no knowledge of graphs or solvers.

The second layer from the bottom: above only the errors and helpers every
module uses, below the graph and the forest (which keep and read their edge
lists on the device through it) and below the GPU solvers. From the bottom up:

- :mod:`~parmst._cuda.runtime`: the probe, launch limits, synchronization,
  host-to-device copies, the simulator switch;
- :mod:`~parmst._cuda.pool`: device buffers reused across solves, and the
  memory check that counts them;
- :mod:`~parmst._cuda.arrays`: array kernels (fills, casts, gathers, checks,
  scan, compaction, radix sort) on pooled scratch;
- :mod:`~parmst._cuda.foreign`: other libraries' GPU arrays read in place and
  handed back.

Nothing here imports ``numba.cuda`` on ``import parmst``: ``runtime``,
``pool`` and ``foreign`` import it inside their functions, and ``arrays``
(which compiles kernels when imported) is imported only where a device path
runs.
"""
