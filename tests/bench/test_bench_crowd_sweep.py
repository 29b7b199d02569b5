"""bench/bench_crowd_sweep.py on a short run: every run's outcomes add up to its ordered units, and the totals to
the runs. A benchmark, not a timed test: no time is checked."""

import subprocess
import sys
from pathlib import Path

import pytest

from bench import bench_crowd_sweep
from pathing_py.tools.crowd_bounds import lower_bound

ROOT = Path(__file__).resolve().parents[2]


def test_a_short_sweep_accounts_for_every_ordered_unit():
    arguments = ["--only", "gate 16", "--only", "occupied spot", "--seconds", "20", "--markdown"]
    done = subprocess.run(
        [sys.executable, "-m", "bench.bench_crowd_sweep", *arguments],
        capture_output=True,
        cwd=ROOT,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    rows = [
        [cell.strip() for cell in line.strip("|").split("|")]
        for line in done.stdout.splitlines()
        if line.startswith("| ")
    ][1:]
    assert [row[0] for row in rows] == ["gate 16"] * 3 + ["occupied spot"] * 3 + ["all"]
    numbers = [[int(cell) for cell in row[2:8]] for row in rows]
    for ordered, arrived, at_goal, held_up, unreachable, under_way in numbers:
        assert ordered == arrived + held_up + unreachable + under_way and at_goal <= arrived
    assert numbers[-1] == [sum(column) for column in zip(*numbers[:-1])]
    assert numbers[-1][0] == 3 * 16 + 3 * 1
    bounds = {
        row[0]: lower_bound(make()).seconds
        for row in rows[:-1]
        for name, make in bench_crowd_sweep.RUNS
        if name == row[0]
    }
    for run, _, *_counts, rest, bound, ratio, pushed, most in rows[:-1]:
        assert bound == f"{bounds[run]:.1f}" and int(pushed) >= int(most) >= 0
        assert (rest, ratio) == ("-", "-") or float(ratio) == pytest.approx(float(rest) / bounds[run], abs=0.06)
    assert rows[-1][-2:] == [str(sum(int(row[-2]) for row in rows[:-1])), str(max(int(row[-1]) for row in rows[:-1]))]
    assert any(
        row[0] == "occupied spot" and row[8] != "-" for row in rows
    )  # a mover and one idle unit rest within 20 s


def test_bad_seconds_are_refused():
    done = subprocess.run(
        [sys.executable, "-m", "bench.bench_crowd_sweep", "--seconds", "0"],
        capture_output=True,
        cwd=ROOT,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "--seconds must be positive" in done.stderr
