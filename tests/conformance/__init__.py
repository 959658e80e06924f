"""The shared conformance suite: every registered solver against kruskal/serial."""
