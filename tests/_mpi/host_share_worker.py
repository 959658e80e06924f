"""Run under mpiexec by test_host_share.py: arrays shared by one host's ranks, and the fallback.

Rank 0 prints one JSON line: the rank count and every failed expectation (empty when all hold).
"""

from __future__ import annotations

import json
import logging
import os
import tempfile

import numpy as np

from parmst._mpi.channel import Channel
from parmst._mpi.host_share import FILE_MIN_BYTES, HostShare

failures: list[str] = []


def expect(condition: bool, what: str) -> None:
    if not condition:
        failures.append(f"rank {channel.rank}: {what}")


channel = Channel()
directory = channel.bcast_object(tempfile.mkdtemp() if channel.rank == 0 else None)
values = {"int64": np.arange(200_000, dtype=np.int64) * 3,  # files: at least FILE_MIN_BYTES
          "float64": np.linspace(-1.0, 1.0, 150_000),
          "bool": np.arange(50) % 3 == 0,  # copies: small
          "empty": np.zeros(0, dtype=np.int32)}
filed = {name for name, value in values.items() if value.nbytes >= FILE_MIN_BYTES}

with HostShare(channel, directory) as host:
    expect(host.host.size == channel.size, "one host holds every rank of this test")
    for name, value in values.items():
        got = host.share(value if host.holder else None)
        expect(np.array_equal(got, value) and got.dtype == value.dtype, f"{name} shared intact")
        if not host.holder:
            expect(isinstance(got, np.memmap) and not got.flags.writeable if name in filed
                   else not isinstance(got, np.memmap),
                   f"{name}: a read-only map of the holder's file if large, else a copy")
        host.host.comm.Barrier()  # the holder has unlinked it
        expect(os.listdir(directory) == [], f"no file left behind after {name}")
        host.host.comm.Barrier()  # every rank has looked before the holder writes the next file
    gathered = host.gathered(np.array([channel.rank, -channel.rank], dtype=np.int64))
    if host.holder:
        expect(sorted(gathered.tolist()) == sorted(
            v for r in range(channel.size) for v in (r, -r)), "gathered every rank's array")
    else:
        expect(gathered is None, "gathered only on the holders")
    expect(host.copied_bytes == 0, "nothing fell back to copies")
    written = sum(values[name].nbytes for name in filed) \
        if host.holder and channel.size > 1 else 0
    expect(host.shared_bytes == written, "the holder wrote each array once")

warnings: list[str] = []
handler = logging.Handler()
handler.emit = lambda record: warnings.append(record.getMessage())
logging.getLogger("parmst").addHandler(handler)
missing = os.path.join(directory, "missing", "folder")
with HostShare(channel, missing) as host:
    got = host.share(values["int64"] if host.holder else None)
    expect(np.array_equal(got, values["int64"]), "the fallback copy is intact")
    again = host.share(values["bool"] if host.holder else None)
    expect(np.array_equal(again, values["bool"]), "a second fallback copy is intact")
    if channel.size > 1:
        expect(host.copied_bytes == values["int64"].nbytes,
               "the fallback sent a copy of the large array (the small one is a copy anyway)")
        expect(len(warnings) == 1 and missing in warnings[0] if host.holder else not warnings,
               f"one warning naming the folder, on the holder only: got {warnings}")
        expect(not isinstance(got, np.memmap) and got.flags.writeable, "a private copy")

everything = channel.gather_object(failures)
if channel.rank == 0:
    os.rmdir(directory)
    print(json.dumps({"ranks": channel.size,
                      "failures": [f for part in everything for f in part]}), flush=True)
