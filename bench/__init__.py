"""Benchmarks of iterative-retrieval (run from the project root: `python -m bench.quality`)."""
