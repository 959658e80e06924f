"""The MPI runtime (layer 2): a rank's channel to the others, with no knowledge of graphs.

:mod:`parmst._mpi.channel` wraps mpi4py's communicator: counted and timed
collectives, owner lookup over id ranges, agreement on errors so that no rank
is left waiting. The distributed graph (:mod:`parmst.distributed`) and the
``mpi`` solvers build on it; mpi4py itself is imported only when a channel is
opened.
"""
