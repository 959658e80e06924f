"""Tests of point sets: the API, the distance kernel, the k-d tree, the verifier."""
