"""Entry point of the peer worker process: ``python -m parmst.bench._peer_worker``.

A module of its own, imported by nothing, so that running it does not re-execute
a module that ``parmst.bench`` has already imported.
"""

from parmst.bench.peer_runner import worker_main

if __name__ == "__main__":
    worker_main()
