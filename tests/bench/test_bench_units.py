"""bench/bench_units.py on a tiny run: it runs the scenario of pathing_py.tools.changing_map and its table adds up. A
benchmark, not a timed test: no time is checked."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
UNITS = 3


def test_a_tiny_run_prints_every_figure_and_meets_the_targets(movingai_dir):
    arguments = ["--units", str(UNITS), "--edits", "1", "--graph", "off", "--markdown"]
    environment = {**os.environ, "PATHING_PY_MOVINGAI": str(movingai_dir)}
    done = subprocess.run(
        [sys.executable, "-m", "bench.bench_units", *arguments],
        capture_output=True,
        cwd=ROOT,
        text=True,
        env=environment,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    rows = {
        cells[0]: cells[1]
        for cells in (line.strip("|").split("|") for line in done.stdout.splitlines() if line.startswith("|"))
    }
    rows = {name.strip(): value.strip() for name, value in rows.items()}
    assert rows["walls put up / cells refused (held by units)"].startswith("1 / ")
    ended = sum(int(rows[state]) for state in ("ARRIVED", "HELD_UP", "UNREACHABLE", "still under way at the cap"))
    assert ended == UNITS
    assert rows["invariant violations"] == "0"
    assert "MISSED" not in done.stdout
