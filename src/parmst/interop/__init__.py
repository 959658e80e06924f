"""Front doors: parmst behind the APIs people already call.

================================  ==============  ==============================================
module                            pip extra       what it enables
================================  ==============  ==============================================
``parmst.interop.networkx_backend``  ``interop``  NetworkX backend ``parmst``: ``nx.minimum_spanning_tree(G, backend="parmst")``
``parmst.scipy``                  ``interop``     drop-in ``minimum_spanning_tree(csgraph, overwrite=False)``
``Graph.from_igraph``             ``igraph``      igraph graphs in, ``Forest.to_igraph()`` out
``Graph.from_table``              ``tables``      pandas, polars and Arrow tables by column name
``Graph.read("g.parquet")``       ``parquet``     Parquet edge lists (pyarrow)
================================  ==============  ==============================================

Nothing here is imported by ``import parmst``; each front door imports its
library when used and names the pip extra when it is missing.
"""

from __future__ import annotations
