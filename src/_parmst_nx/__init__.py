"""NetworkX's ``networkx.backend_info`` entry point for the ``parmst`` backend.

NetworkX calls :func:`get_info` while ``import networkx`` runs, so this
package imports nothing (importing parmst would load Numba); the backend
itself, ``parmst.interop.networkx_backend``, loads only when a call is
dispatched to it.
"""

_FUNCTION_DOCS = (
    "Same result as NetworkX (edges, order, orientation, keys, attribute dicts) for "
    "algorithm='kruskal', 'prim' and 'boruvka'; computed on arrays by parmst."
)

_FUNCTIONS = (
    "minimum_spanning_edges",
    "maximum_spanning_edges",
    "minimum_spanning_tree",
    "maximum_spanning_tree",
    "kruskal_mst_edges",
    "prim_mst_edges",
    "boruvka_mst_edges",
)


def get_info():
    """Backend metadata in the form NetworkX's dispatcher documents."""
    return {
        "backend_name": "parmst",
        "project": "parmst",
        "package": "parmst",
        "url": "https://pypi.org/project/parmst/",
        "short_summary": "Exact minimum spanning forests on arrays (Numba, GPU, MPI).",
        "functions": {name: {"additional_docs": _FUNCTION_DOCS} for name in _FUNCTIONS},
    }
