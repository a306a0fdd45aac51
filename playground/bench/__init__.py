"""Benchmarks: one module per suite, run through `python -m playground.bench`."""
