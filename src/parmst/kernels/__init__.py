"""Shared kernels, public to the solver packages (layer 4 of docs/architecture.md).

Each module holds one idea that several solvers or backends use, so none of
them reaches into another solver's private names:

* :mod:`~parmst.kernels.unionfind`: sequential union-find and Kruskal's scan;
* :mod:`~parmst.kernels.heap`: Prim's indexed binary heap;
* :mod:`~parmst.kernels.selection`: the pivot of quicksort-style partitions;
* :mod:`~parmst.kernels.dense`: the key matrix of dense Prim and its limits;
* :mod:`~parmst.kernels.local_forest`: the local-forest filter;
* :mod:`~parmst.kernels.prim_instances`: local forests of a vertex
  partition, one Prim instance per part (the CPU's per-part solve).

Edge keys and the tie rule live in :mod:`parmst.order`.
"""
