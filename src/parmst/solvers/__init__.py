"""Solver implementations, one package per backend, one module per algorithm family.

Backend packages register their solvers in their ``__init__`` without
importing anything heavy; see :mod:`parmst.registry`.
"""
