"""OpenCL solvers through pyopencl (imported lazily; nothing heavy here).

Kernels are ``.cl`` sources beside their Python drivers. With the
``opencl`` extra, PoCL makes any CPU an OpenCL device, so CI runs every
kernel; the same code runs on NVIDIA, AMD and Intel GPUs.
"""
