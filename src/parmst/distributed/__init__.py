"""Graphs spread over MPI ranks (see :mod:`parmst.distributed.graph`)."""

from parmst.distributed.graph import OWNERSHIPS, DistributedGraph, Ownership, byte_range, read_part

__all__ = ["OWNERSHIPS", "DistributedGraph", "Ownership", "byte_range", "read_part"]
