"""Gallager-Humblet-Spira over MPI: every rank simulates the vertices it owns.

Gallager, Humblet and Spira, "A Distributed Algorithm for Minimum-Weight
Spanning Trees" (TOPLAS 1983), as Shou and He adapt it (section 3.4): each
vertex is a node of the message-passing algorithm, and the rank that owns it
runs it. The edge weights must be distinct; the key ``(weight, edge_id)``
makes them so, and fragment names are the keys of their core edges.

Per rank:

- one message queue for all its vertices. A message to a vertex of the same
  rank is appended to it without MPI; one to another rank goes to an outbox,
  and after each pass over the queue the outbox is sent as one ``Isend`` per
  destination rank (messages to one rank batched per poll). ``Iprobe`` picks
  up whatever has arrived. MPI keeps the order of messages between two
  ranks, so every edge is a FIFO channel, as the algorithm assumes;
- a message that cannot be answered yet (the paper's "place the message on
  the end of the queue") waits in the queue; when a whole pass answers
  nothing, the rank polls the network instead of spinning;
- Shou and He's optimizations: the O(1) neighbour index (a message carries
  the receiver's own adjacency slot of the edge, exchanged once up front)
  and the ordered set of BASIC edges (adjacency sorted by key, and a cursor
  per vertex past the edges that left BASIC, which never return to it);
- termination by counting, without timers (Mattern's four-counter method):
  an idle rank joins a non-blocking all-reduce of the MPI messages it has
  sent and received; two consecutive such waves with equal totals, sent
  equal to received, prove that no message is in flight and every queue is
  idle, so all ranks stop in the same wave. A message still waiting then
  would be a bug, reported, never a hang.

Each vertex starts awake. Isolated vertices and self-loops take no part;
each connected component's algorithm ends on its own, and the forest is the
BRANCH edges. Message and state arrays are Numba kernels over struct-of-
arrays state; the Python driver only moves batches. GHS sends ``O(n log n +
m)`` messages and needs ``O(log n)`` phases, each a chain of round trips, so
it is far slower than the Borůvka solvers: it is here to reproduce the
paper's comparison, not for speed.
"""

from __future__ import annotations

import os
import time
from typing import Any

import numba
import numpy as np
from numba import types
from numba.typed import List

from parmst.distributed import DistributedGraph
from parmst.order import weight_keys
from parmst.solvers.mpi.held import held_share
from parmst.stats import Stats

# Message kinds (the paper's names).
CONNECT, INITIATE, TEST, ACCEPT, REJECT, REPORT, CHANGE_ROOT = range(7)
# Vertex states (SLEEPING only before the start) and edge states.
SLEEPING, FIND, FOUND = 0, 1, 2
BASIC, BRANCH, REJECTED = 0, 1, 2
# Per-vertex state columns.
SN, LN, FN_KEY, FN_ID, BEST_KEY, BEST_ID, BEST_EDGE, TEST_EDGE, IN_BRANCH, FIND_COUNT, \
    NEXT_BASIC = range(11)
NUM_FIELDS = 11
# Adjacency slot columns: owned vertex (local index), edge key, edge id, the
# receiver's slot of the same edge, the rank that owns the other end.
ROW, KEY, ID, MIRROR, OWNER = range(5)
INF = np.iinfo(np.int64).max
NONE = -1
MESSAGE = types.UniTuple(types.int64, 6)  # kind, receiver's slot, level, name key, name id, state
OUTGOING = types.UniTuple(types.int64, 7)  # destination rank, then a MESSAGE
WIDTH = 6
TAG = 17


# ---------------------------------------------------------------------------- kernels
@numba.njit(cache=True)
def _less(ak, ai, bk, bi):
    return ak < bk or (ak == bk and ai < bi)


@numba.njit(cache=True)
def _send(j, kind, level, name_key, name_id, state, adj, me, local, outbox):
    """Send a message over slot ``j``: straight into the queue if its receiver is ours."""
    if adj[j, OWNER] == me:
        local.append((kind, adj[j, MIRROR], level, name_key, name_id, state))
    else:
        outbox.append((adj[j, OWNER], kind, adj[j, MIRROR], level, name_key, name_id, state))


@numba.njit(cache=True)
def _wakeup(v, vs, se, adj, indptr, me, local, outbox):
    """Procedure (1): join the lightest incident edge as a level-0 fragment."""
    vs[v, SN] = FOUND
    vs[v, LN] = 0
    vs[v, FIND_COUNT] = 0
    if indptr[v] == indptr[v + 1]:
        return  # isolated: a component of its own
    m = indptr[v]  # slots are sorted by key: the first is the lightest
    se[m] = BRANCH
    _send(m, CONNECT, 0, 0, 0, 0, adj, me, local, outbox)


@numba.njit(cache=True)
def _lightest_basic(v, vs, se, indptr):
    """Shou and He's ordered set of BASIC edges: a cursor over the key-sorted slots."""
    k = vs[v, NEXT_BASIC]
    while k < indptr[v + 1] and se[k] != BASIC:
        k += 1
    vs[v, NEXT_BASIC] = k
    return k if k < indptr[v + 1] else NONE


@numba.njit(cache=True)
def _report(v, vs, adj, me, local, outbox):
    """Procedure (8): report the best outgoing edge once every branch and the test answered."""
    if vs[v, FIND_COUNT] == 0 and vs[v, TEST_EDGE] == NONE:
        vs[v, SN] = FOUND
        _send(vs[v, IN_BRANCH], REPORT, 0, vs[v, BEST_KEY], vs[v, BEST_ID], 0, adj, me, local,
              outbox)


@numba.njit(cache=True)
def _test(v, vs, se, adj, indptr, me, local, outbox):
    """Procedure (4): test the lightest BASIC edge, or report when none is left."""
    k = _lightest_basic(v, vs, se, indptr)
    vs[v, TEST_EDGE] = k
    if k != NONE:
        _send(k, TEST, vs[v, LN], vs[v, FN_KEY], vs[v, FN_ID], 0, adj, me, local, outbox)
    else:
        _report(v, vs, adj, me, local, outbox)


@numba.njit(cache=True)
def _change_root(v, vs, se, adj, me, local, outbox):
    """Procedure (10): pass the root to the best edge, or connect over it."""
    b = vs[v, BEST_EDGE]
    if se[b] == BRANCH:
        _send(b, CHANGE_ROOT, 0, 0, 0, 0, adj, me, local, outbox)
    else:
        _send(b, CONNECT, vs[v, LN], 0, 0, 0, adj, me, local, outbox)
        se[b] = BRANCH


@numba.njit(cache=True)
def _initiate(v, j, level, name_key, name_id, state, vs, se, adj, indptr, me, local, outbox):
    """Procedure (3): take the new fragment identity and pass it on every other branch."""
    vs[v, LN], vs[v, FN_KEY], vs[v, FN_ID], vs[v, SN] = level, name_key, name_id, state
    vs[v, IN_BRANCH] = j
    vs[v, BEST_EDGE] = NONE
    vs[v, BEST_KEY] = INF
    vs[v, BEST_ID] = INF
    for i in range(indptr[v], indptr[v + 1]):
        if i != j and se[i] == BRANCH:
            _send(i, INITIATE, level, name_key, name_id, state, adj, me, local, outbox)
            if state == FIND:
                vs[v, FIND_COUNT] += 1
    if state == FIND:
        _test(v, vs, se, adj, indptr, me, local, outbox)


@numba.njit(cache=True)
def _on_report(v, j, wk, wi, vs, se, adj, me, local, outbox):
    """Procedure (9); False when the message must wait (the core is still searching)."""
    if j != vs[v, IN_BRANCH]:
        vs[v, FIND_COUNT] -= 1
        if _less(wk, wi, vs[v, BEST_KEY], vs[v, BEST_ID]):
            vs[v, BEST_KEY], vs[v, BEST_ID], vs[v, BEST_EDGE] = wk, wi, j
        _report(v, vs, adj, me, local, outbox)
    elif vs[v, SN] == FIND:
        return False
    elif _less(vs[v, BEST_KEY], vs[v, BEST_ID], wk, wi):
        _change_root(v, vs, se, adj, me, local, outbox)
    return True  # w == best == infinity: this component is finished (halt)


@numba.njit(cache=True)
def _handle(msg, vs, se, adj, indptr, me, local, outbox):
    """Answer one message (procedures 2, 5-7, 11 inline); False if it must wait."""
    kind, j, level, fk, fi, state = msg
    v = adj[j, ROW]  # awake: every vertex wakes at the start, so none is found SLEEPING
    if kind == CONNECT:
        if level < vs[v, LN]:
            se[j] = BRANCH
            _send(j, INITIATE, vs[v, LN], vs[v, FN_KEY], vs[v, FN_ID], vs[v, SN], adj, me,
                  local, outbox)
            if vs[v, SN] == FIND:
                vs[v, FIND_COUNT] += 1
        elif se[j] == BASIC:
            return False
        else:
            _send(j, INITIATE, vs[v, LN] + 1, adj[j, KEY], adj[j, ID], FIND, adj, me, local,
                  outbox)
    elif kind == INITIATE:
        _initiate(v, j, level, fk, fi, state, vs, se, adj, indptr, me, local, outbox)
    elif kind == TEST:
        if level > vs[v, LN]:
            return False
        if fk != vs[v, FN_KEY] or fi != vs[v, FN_ID]:
            _send(j, ACCEPT, 0, 0, 0, 0, adj, me, local, outbox)
        else:
            if se[j] == BASIC:
                se[j] = REJECTED
            if vs[v, TEST_EDGE] != j:
                _send(j, REJECT, 0, 0, 0, 0, adj, me, local, outbox)
            else:
                _test(v, vs, se, adj, indptr, me, local, outbox)
    elif kind == ACCEPT:
        vs[v, TEST_EDGE] = NONE
        if _less(adj[j, KEY], adj[j, ID], vs[v, BEST_KEY], vs[v, BEST_ID]):
            vs[v, BEST_KEY], vs[v, BEST_ID], vs[v, BEST_EDGE] = adj[j, KEY], adj[j, ID], j
        _report(v, vs, adj, me, local, outbox)
    elif kind == REJECT:
        if se[j] == BASIC:
            se[j] = REJECTED
        _test(v, vs, se, adj, indptr, me, local, outbox)
    elif kind == REPORT:
        return _on_report(v, j, fk, fi, vs, se, adj, me, local, outbox)
    else:
        _change_root(v, vs, se, adj, me, local, outbox)
    return True


@numba.njit(cache=True)
def _deliver(queue, vs, se, adj, indptr, me, outbox):
    """Pass over the queue until a whole pass answers nothing; returns (waiting, answered).

    Messages sent to our own vertices join the next pass; those that must
    wait are kept in order behind them.
    """
    answered = 0
    while len(queue):
        following = List.empty_list(MESSAGE)
        progress = 0
        for msg in queue:
            if _handle(msg, vs, se, adj, indptr, me, following, outbox):
                progress += 1
            else:
                following.append(msg)
        queue = following
        answered += progress
        if progress == 0:
            break
    return queue, answered


@numba.njit(cache=True)
def _wake_all(vs, se, adj, indptr, me, local, outbox):
    for v in range(len(indptr) - 1):
        _wakeup(v, vs, se, adj, indptr, me, local, outbox)


@numba.njit(cache=True)
def _append_rows(queue, rows):
    for r in range(rows.shape[0]):
        queue.append((rows[r, 0], rows[r, 1], rows[r, 2], rows[r, 3], rows[r, 4], rows[r, 5]))


@numba.njit(cache=True)
def _outbox_rows(outbox):
    """The outbox as rows ``(rank, message...)``, sorted by rank (stable: FIFO per edge)."""
    rows = np.empty((len(outbox), WIDTH + 1), dtype=np.int64)
    for r in range(len(outbox)):
        for c in range(WIDTH + 1):
            rows[r, c] = outbox[r][c]
    order = np.argsort(rows[:, 0], kind="mergesort")
    return rows[order]


# ---------------------------------------------------------------------------- setup
def _signed(keys: np.ndarray) -> np.ndarray:
    """Order-preserving uint keys as int64 (the sign bit flipped)."""
    wide = keys.astype(np.uint64)
    return (wide ^ np.uint64(1 << 63)).view(np.int64)


def _adjacency(dg: DistributedGraph) -> tuple[np.ndarray, np.ndarray]:
    """Key-sorted adjacency slots of the owned vertices, with each slot's mirror slot.

    A local edge's mirror is this rank's other slot of it; a cut edge's is on
    the other end's owner, learned with one ``Alltoallv`` of ``(edge id,
    slot)``.
    """
    own, me = dg.ownership, dg.rank
    keys = _signed(weight_keys(dg.weight))
    proper = dg.src != dg.dst  # self-loops take no part
    parts = []
    for a, b in ((dg.src, dg.dst), (dg.dst, dg.src)):
        mine = np.flatnonzero(proper & (own.owner(a) == me))
        parts.append((own.local(a[mine]), b[mine], keys[mine], dg.edge_ids[mine].astype(np.int64),
                      own.owner(b[mine])))
    row, other, key, eid, owner = (np.concatenate(cols) for cols in zip(*parts, strict=True))
    order = np.lexsort((eid, key, row))
    row, other, key, eid, owner = row[order], other[order], key[order], eid[order], owner[order]
    count = own.count(me)
    indptr = np.zeros(count + 1, dtype=np.int64)
    np.cumsum(np.bincount(row, minlength=count), out=indptr[1:])
    mirror = np.empty(len(row), dtype=np.int64)
    slots = np.arange(len(row), dtype=np.int64)
    local = owner == me
    by_id = slots[local][np.argsort(eid[local], kind="stable")]  # local edges: slots in pairs
    mirror[by_id[0::2]], mirror[by_id[1::2]] = by_id[1::2], by_id[0::2]
    cut = slots[~local]
    send = np.argsort(owner[cut], kind="stable")
    counts = np.bincount(owner[cut], minlength=dg.size).astype(np.int64)
    (their_id, their_slot), _ = dg.channel.alltoallv([eid[cut][send], cut[send]], counts)
    order = np.argsort(their_id)
    mirror[cut] = their_slot[order][np.searchsorted(their_id[order], eid[cut])]
    adj = np.stack([row.astype(np.int64), key, eid, mirror, owner.astype(np.int64)], axis=1)
    return np.ascontiguousarray(adj), indptr


# ---------------------------------------------------------------------------- driver
class _Network:
    """Batched point-to-point traffic and the four-counter termination waves."""

    def __init__(self, channel: Any) -> None:
        self.channel = channel
        self.MPI = channel.MPI
        self.comm = channel.comm.Dup()
        self.sent = 0
        self.received = 0
        self.pending: list[tuple[Any, np.ndarray]] = []
        self.wave: Any = None
        self.wave_in = np.zeros(2, dtype=np.int64)
        self.wave_out = np.zeros(2, dtype=np.int64)
        self.last_totals: tuple[int, int] | None = None
        self.status = self.MPI.Status()

    def send(self, rows: np.ndarray) -> None:
        """One Isend per destination rank of the rows ``(rank, message...)``."""
        start = time.perf_counter()
        cuts = np.flatnonzero(np.diff(rows[:, 0])) + 1
        for batch in np.split(rows, cuts):
            data = np.ascontiguousarray(batch[:, 1:])
            request = self.comm.Isend([data, self.MPI.INT64_T], dest=int(batch[0, 0]), tag=TAG)
            self.pending.append((request, data))
            self.sent += 1
            self.channel.messages += 1
            self.channel.bytes_sent += data.nbytes
        self.pending = [(r, d) for r, d in self.pending if not r.Test()]
        self.channel.time += time.perf_counter() - start

    def receive(self) -> list[np.ndarray]:
        """Every batch that has arrived (Iprobe until none is waiting)."""
        start = time.perf_counter()
        batches = []
        while self.comm.Iprobe(source=self.MPI.ANY_SOURCE, tag=TAG, status=self.status):
            count = self.status.Get_count(self.MPI.INT64_T)
            data = np.empty(count, dtype=np.int64)
            self.comm.Recv([data, self.MPI.INT64_T], source=self.status.Get_source(), tag=TAG)
            batches.append(data.reshape(-1, WIDTH))
            self.received += 1
        self.channel.time += time.perf_counter() - start
        return batches

    def finished(self) -> bool:
        """Called when idle: join or check a counting wave; True once termination is proven."""
        start = time.perf_counter()
        done = False
        if self.wave is None:
            self.wave_in[:] = (self.sent, self.received)
            self.wave = self.comm.Iallreduce(self.wave_in, self.wave_out, op=self.MPI.SUM)
            self.channel.collectives += 1
        elif self.wave.Test():
            totals = (int(self.wave_out[0]), int(self.wave_out[1]))
            done = totals == self.last_totals and totals[0] == totals[1]
            self.last_totals = totals
            self.wave = None
        self.channel.time += time.perf_counter() - start
        return done

    def close(self) -> None:
        self.MPI.Request.Waitall([r for r, _ in self.pending])
        self.comm.Free()


def ghs_forest(dg: DistributedGraph, stats: Stats) -> np.ndarray:
    """Run GHS on every rank; returns the edge ids of this rank's BRANCH slots.

    Examples
    --------
    >>> import parmst
    >>> g = parmst.Graph.from_edges([0, 1, 2], [1, 2, 0], [1, 1, 1])
    >>> parmst.minimum_spanning_forest(g, solver="ghs/mpi").edge_ids.tolist()  # doctest: +SKIP
    [0, 1]
    """
    from parmst.errors import ParmstError

    t0 = time.perf_counter()
    adj, indptr = _adjacency(dg)
    vs = np.zeros((len(indptr) - 1, NUM_FIELDS), dtype=np.int64)
    vs[:, NEXT_BASIC] = indptr[:-1]
    vs[:, TEST_EDGE] = vs[:, IN_BRANCH] = vs[:, BEST_EDGE] = NONE
    se = np.full(len(adj), BASIC, dtype=np.int64)
    me = dg.rank
    queue, outbox = List.empty_list(MESSAGE), List.empty_list(OUTGOING)
    stats.phases["setup"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    network = _Network(dg.channel)
    _wake_all(vs, se, adj, indptr, me, queue, outbox)
    answered, polls = 0, 0
    while True:
        queue, done = _deliver(queue, vs, se, adj, indptr, me, outbox)
        answered += done
        if len(outbox):
            network.send(_outbox_rows(outbox))
            outbox = List.empty_list(OUTGOING)
        arrived = network.receive()
        for rows in arrived:
            _append_rows(queue, rows)
        polls += 1
        if not done and not arrived:
            if network.finished():
                break
            os.sched_yield()  # idle: leave the core to ranks that share it
    network.close()
    stats.phases["messages"] = time.perf_counter() - t0
    stats.extra["ghs_messages_answered"] = answered
    stats.extra["ghs_polls"] = polls
    error = None
    if len(queue):
        error = ParmstError(f"rank {me}: GHS ended with {len(queue)} messages unanswered")
    dg.channel.agree(error)
    return np.unique(adj[se == BRANCH, ID])


def ghs_held(dg: DistributedGraph, stats: Stats) -> np.ndarray:
    """This rank's share of the forest (:func:`~parmst.solvers.mpi.held.held_share`) by GHS."""
    return held_share(dg, ghs_forest(dg, stats))
