"""Peers in the harness: another library's spanning-tree call on the same graph, same runs.

The peer runs in a worker process (:class:`parmst.bench.peer_runner.PeerRunner`),
within a time budget per run; its total weight must equal the reference's
(ECL-MST, which prints no weight, must pass its own edge-for-edge check
against its serial Kruskal instead). A point peer (:func:`time_point_peer`) gets the
points instead of the edges.
"""

from __future__ import annotations

import logging
import math

import numpy as np

from parmst.bench.peer_runner import PeerRunner
from parmst.bench.peers import PEERS
from parmst.bench.result import GraphInfo, Record
from parmst.bench.timing import Scheme, finish, select
from parmst.graph import Graph

__all__ = ["time_peer", "time_point_peer"]

log = logging.getLogger(__name__)


def _same_weight(theirs: float, ours: float, integer: bool, rel_tol: float) -> bool:
    if integer and abs(ours) < 2**53:
        return theirs == ours
    return math.isclose(theirs, ours, rel_tol=rel_tol, abs_tol=1e-12)


def _graph_skip(peer, graph: Graph, explicit: bool) -> str | None:
    """Why ``peer`` does not run on ``graph``, or None."""
    if not peer.installed():
        return peer.missing()
    if (not explicit and peer.default_max_edges is not None
            and graph.num_edges > peer.default_max_edges):
        return (f"{graph.num_edges:,} edges is over its default limit of "
                f"{peer.default_max_edges:,} (ask for it with --peers to try within the budget)")
    if peer.needs_nonzero_weights and graph.num_edges and not graph.weight.all():
        return "the graph has weight-0 edges, which it drops"
    if peer.weights_as is not None and not np.array_equal(
            graph.weight.astype(peer.weights_as).astype(graph.weight.dtype), graph.weight):
        return (f"it reads weights as {peer.weights_as}, which would round some of this "
                f"graph's {graph.weight.dtype.name} weights")
    return None


def _points_skip(peer, points: np.ndarray) -> str | None:
    """Why ``peer`` does not run on these points, or None."""
    if not peer.installed():
        return peer.missing()
    d = points.shape[1]
    if peer.dimensions is not None and d not in peer.dimensions:
        return f"it takes {' or '.join(map(str, peer.dimensions))}-D points, these are {d}-D"
    if peer.distinct_points and len(np.unique(points, axis=0)) < len(points):
        return "the points repeat, and it needs distinct points"
    return None


def time_peer(graph: Graph, info: GraphInfo, peer_name: str, explicit: bool,
              runner: PeerRunner, scheme: Scheme, bar) -> Record:
    """Time a peer library on ``graph`` in the runner's worker process; check its weight.

    A peer that cannot take this graph (not installed, over its default size,
    weight-0 edges it would drop, weights it would round) is skipped with the
    reason; a total weight other than the reference's is a MISMATCH.
    """
    peer = PEERS[peer_name]
    record = Record(graph=info.name, solver=peer_name, kind="peer")
    bar.set_postfix_str(f"{info.name} {peer_name}", refresh=False)
    reason = _graph_skip(peer, graph, explicit)
    if reason is not None:
        return _skipped(record, reason, scheme, bar)
    outcome = runner.run(peer_name, graph.src, graph.dst, graph.weight, graph.num_vertices,
                         scheme.runs)
    return _checked(record, peer, outcome, info, graph.weight.dtype.kind in "iu", scheme, bar)


def time_point_peer(points: np.ndarray, min_samples: int | None, info: GraphInfo,
                    peer_name: str, reference: np.ndarray, runner: PeerRunner, scheme: Scheme,
                    bar) -> Record:
    """Time a point peer on ``points`` as :func:`time_peer` does a graph peer.

    Its total weight must equal the reference tree's within rounding; where it
    exposes its pairs, ``extra["same_pairs"]`` says whether they are the reference's
    (with equal distances a peer may pick other pairs of the same weight).
    """
    peer = PEERS[peer_name]
    record = Record(graph=info.name, solver=peer_name, kind="peer")
    bar.set_postfix_str(f"{info.name} {peer_name}", refresh=False)
    reason = _points_skip(peer, points)
    if reason is not None:
        return _skipped(record, reason, scheme, bar)
    outcome = runner.run_points(peer_name, points, min_samples, scheme.runs)
    record = _checked(record, peer, outcome, info, False, scheme, bar)
    if record.status == "ok" and outcome.pair_ids is not None:
        other = len(np.setdiff1d(reference, outcome.pair_ids))
        record.extra["same_pairs"] = other == 0 and len(outcome.pair_ids) == len(reference)
        if not record.extra["same_pairs"]:
            record.note = (f"same total weight, {other:,} of the {len(reference):,} pairs "
                           "differ from ours (a tie of distances decided otherwise"
                           + (", or distances rounded to float32)" if peer.weight_rel_tol > 1e-9
                              else ")"))
    return record


def _skipped(record: Record, reason: str, scheme: Scheme, bar) -> Record:
    record.status, record.note = "skipped", reason
    bar.update(scheme.runs + 1)
    return record


def _checked(record: Record, peer, outcome, info: GraphInfo, integer: bool, scheme: Scheme,
             bar) -> Record:
    """The record of a peer's runs: its times, or why there are none; its weight checked."""
    bar.update(scheme.runs + 1)
    if outcome.skipped or outcome.error:
        record.status = "skipped" if outcome.skipped else "error"
        record.note = outcome.skipped or outcome.error
        return record
    record.times = outcome.times
    if peer.times_compute_only:
        record.extra["own_timer"] = True  # its computation alone: compared with our compute
    if peer.finds_tree:  # a reference timing without a tree (reading the input) is not compared
        record.total_weight = outcome.total_weight
        if peer.checks_itself and outcome.total_weight is None:
            record.weight_ok = True  # its forest equals its own serial one, so its weight is ours
            record.note = "exact by its own check against its serial Kruskal"
        else:
            record.weight_ok = _same_weight(outcome.total_weight, info.total_weight, integer,
                                            peer.weight_rel_tol)
        if not record.weight_ok:
            record.status, record.times = "MISMATCH", []
            record.note = f"total weight {outcome.total_weight!r}, ours {info.total_weight!r}"
            log.error("MISMATCH: peer %s on %s: %s", record.solver, info.name, record.note)
            return record
    finish(record, scheme, [])
    record.init_time = outcome.prepare_time  # building its graph object, not in `time`
    if outcome.wrapped_times:  # the bare solve, timed beside each run in the same process
        record.extra["wrapped_solver"] = outcome.wrapped_solver
        record.extra["wrapped_time"] = select(outcome.wrapped_times, scheme).value
    if outcome.floor_times:  # the floor on the same graph, timed beside each run
        record.extra["floor_times"] = outcome.floor_times
    return record
