"""The benchmarks: each ``bench_*`` module is a command, run from the repository's root as
``python3 -m bench.bench_search`` (and so on), which measures the checkout's ``pathing_py``; ``harness`` and
``report`` are what they share, ``readme_tables`` writes their tables into docs/benchmarks.md."""
