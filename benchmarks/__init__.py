"""The benchmark scripts (each run as a file: ``python benchmarks/bench_core.py``).

A package so that the repository's other tools, run as modules from the
repository's root (``python -m fuzz``, ``python -m soak.soak``,
``python -m training.train_expert``), import the shared plumbing as
``benchmarks._common`` (the results' JSON, the machine, the command line).
"""
