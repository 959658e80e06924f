"""The OpenCL runtime (layer 2): devices, contexts, program builds and memory checks.

No knowledge of graphs: :mod:`parmst._opencl.runtime` serves the OpenCL
solvers, the public prefix scan (:mod:`parmst.opencl`) and the benchmark
harness. pyopencl is imported only when a device is asked for.
"""
