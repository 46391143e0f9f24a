"""Reliability under real conditions, on any tree (`python -m bench.reliability.concurrent`)."""
