"""pytest plugin (``-p scipy_dropin_plugin``): SciPy's tests call parmst's drop-in.

Loaded before collection, it replaces ``scipy.sparse.csgraph.minimum_spanning_tree``
with ``parmst.scipy.minimum_spanning_tree``, so SciPy's test module imports
ours; after collection it checks that every collected module holds ours.
"""

import scipy.sparse.csgraph

import parmst.scipy

scipy.sparse.csgraph.minimum_spanning_tree = parmst.scipy.minimum_spanning_tree


def pytest_collection_modifyitems(items):
    for item in items:
        used = getattr(item.module, "minimum_spanning_tree", None)
        if used is not parmst.scipy.minimum_spanning_tree:
            raise RuntimeError(f"{item.nodeid} does not call parmst.scipy's drop-in")
