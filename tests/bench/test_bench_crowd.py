"""bench/bench_crowd.py on its smallest settings: the table comes out complete and parses. A benchmark, not a
timed test: no time is checked, only that every figure is there and counts what the scenario has."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings

from bench import bench_crowd, rvo2_peer
from pathing_py.grid import Grid
from pathing_py.tools.crowd_bounds import Bound, lower_bound
from pathing_py.tools.scenarios import CrowdScenario, head_on_corridor, mixed_radii
from tests.support.strategies import maps

ROOT = Path(__file__).resolve().parents[2]


def run_bench(*arguments: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "bench.bench_crowd", "--markdown", *arguments],
        capture_output=True,
        cwd=ROOT,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def table(text: str) -> list:
    """The Markdown table's rows as dicts keyed by column."""
    lines = [line for line in text.splitlines() if line.startswith("|")]
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    return [dict(zip(header, (cell.strip() for cell in line.strip("|").split("|")))) for line in lines[2:]]


def test_the_quick_run_prints_every_figure():
    text = run_bench("--quick", "--no-rvo2", "--no-baseline", "--scenario", "head_on_corridor")
    rows = table(text)
    units = head_on_corridor(4).count  # the quick size
    assert [(row["scenario"], row["run"]) for row in rows] == [("head_on_corridor", "ours")]
    row = rows[0]
    assert float(row["median ms"]) > 0 and float(row["p99 ms"]) >= float(row["median ms"])
    ticks = int(row["ticks"])
    assert ticks > 0
    arrived, ordered = (int(v) for v in row["arrived"].split("/"))
    held_up, unreachable = (int(v) for v in row["held up/unreach."].split("/"))
    assert ordered == units and arrived + held_up + unreachable + int(row["under way"]) == units
    assert row["all arrived at"] == "-" or int(row["all arrived at"]) <= ticks
    for column in ("off goal", "overlapping pairs", "worst tick", "in walls", "idle away"):
        assert int(row[column]) >= 0
    bound = lower_bound(head_on_corridor(4)).seconds
    rest = float(row["at rest s"])
    assert row["bound s"] == f"{bound:.1f}" and 0 < rest <= ticks * bench_crowd.DELTA + 0.05
    assert float(row["rest/bound"]) == pytest.approx(rest / bound, abs=0.06)  # (the time at rest is printed rounded)
    pushed, most = row["pushed off (most)"].replace("(", "").replace(")", "").split()
    assert int(pushed) >= int(most) >= 0
    assert row["x RVO2"] == "-"
    assert "RVO2 skipped (--no-rvo2)" in text and "baseline skipped (--no-baseline)" in text
    assert (
        "Command: python3 -m bench.bench_crowd --markdown --quick --no-rvo2 --no-baseline --scenario head_on_corridor"
        in text
    )


def test_off_goal_counts_units_that_arrived_and_stand_away_from_their_goal_at_the_end():
    scenario = mixed_radii(12)
    assert scenario.ordered.all() and set(scenario.radii) == {0.3, 0.5, 1.0}
    final = scenario.goals + np.where(scenario.radii > 0.5, 1.0, 0.5)[:, None]  # each at its block's centre
    states = np.array(["ARRIVED"] * scenario.count)
    assert bench_crowd.off_goal(scenario, states, final) == 0
    large, small = np.flatnonzero(scenario.radii == 1.0)[0], np.flatnonzero(scenario.radii == 0.3)[:2]
    final[[large, *small]] += (1.0, 0.0)
    states[small[1]] = "HELD_UP"  # stopped on its way: not off a goal it reached
    assert bench_crowd.off_goal(scenario, states, final) == 2


def test_the_ratio_is_the_time_at_rest_over_the_bound_and_the_runs_within_twice_it_are_named():
    bound = Bound(trip=2.0, passage=5.0, passage_at="column 3: 9 units through 1 cell")
    rested = bench_crowd.Outcome("ours", rest_tick=round(7.5 / bench_crowd.DELTA))
    assert bench_crowd.rest_ratio(rested, bound) == pytest.approx(7.5 / 5.0)
    assert bench_crowd.rest_ratio(bench_crowd.Outcome("ours"), bound) is None  # never at rest, or it cannot tell
    cells = dict(zip(bench_crowd.COLUMNS, bench_crowd.row("gate", rested, 9, None, bound)))
    assert (cells["at rest s"], cells["bound s"], cells["rest/bound"]) == ("7.5", "5.0", "1.5")
    verdict = bench_crowd.verdict(
        [("gate", "ours", 1.5), ("crossroads", "ours", 5.5), ("armies", "ours", None), ("gate", "baseline", None)]
    )
    assert "- ours: meet it: gate; miss it: crossroads 5.5x; no rest seen: armies" in verdict
    assert "- baseline: meet it: none; miss it: none; no rest seen: gate" in verdict


def test_the_runner_reports_when_the_world_rests_and_each_push_of_an_arrived_unit_off_its_goal(tmp_path):
    """A unit stands on its goal in a one-cell corridor beside a pocket; another passes it: it is pushed off its
    goal once (into the pocket), the passer never; the world rests after both stand on their goals."""
    passable = np.zeros((3, 9), dtype=bool)
    passable[1, 1:8] = True
    passable[0, 4] = True
    scenario = CrowdScenario(
        "pass", "one unit passes another on its goal", Grid(passable),
        np.array([[4.5, 1.5], [1.5, 1.5]]), np.array([[4, 1], [7, 1]]),
        np.full(2, 0.5), np.full(2, 4.0), np.zeros(2, dtype=int), np.zeros(2, dtype=bool),
    )  # fmt: skip
    outcome = bench_crowd.run_navigator("ours", bench_crowd.prepare(scenario, tmp_path, 30.0), ROOT)
    assert outcome.arrived == 2 and outcome.off_goal == 0
    assert outcome.moved_off_goal is not None and outcome.moved_off_goal.tolist() == [1, 0]
    assert bench_crowd.pushed_off(outcome.moved_off_goal) == "1 (1)"
    assert outcome.rest_tick is not None and outcome.rest_tick == len(outcome.tick_ms)  # it runs until the world rests


def test_the_baseline_runs_from_its_commit_and_refuses_large_units():
    if (
        subprocess.run(
            ["git", "-C", str(ROOT), "cat-file", "-e", bench_crowd.BASELINE_COMMIT], capture_output=True
        ).returncode
        != 0
    ):
        pytest.skip(f"not a git checkout with commit {bench_crowd.BASELINE_COMMIT}")
    text = run_bench("--quick", "--no-rvo2", "--scenario", "occupied_spot", "--scenario", "mixed_radii")
    rows = {(row["scenario"], row["run"]): row for row in table(text)}
    baseline = f"baseline {bench_crowd.BASELINE_COMMIT}"
    assert set(rows) == {(name, run) for name in ("occupied_spot", "mixed_radii") for run in ("ours", baseline)}
    assert rows["occupied_spot", baseline]["arrived"].endswith("/1")
    assert rows["mixed_radii", baseline]["median ms"] == "not supported"
    assert f"mixed_radii: {baseline} does not take these units: radius must be" in text


def test_a_peer_that_cannot_run_stops_the_run_unless_it_is_skipped(tmp_path):
    """A run does not leave RVO2's rows out of its table unless asked to (--no-rvo2)."""
    environment = {**os.environ, rvo2_peer.SOURCE_VARIABLE: str(tmp_path)}  # a folder without RVO2's sources
    command = [
        sys.executable,
        "-m",
        "bench.bench_crowd",
        "--markdown",
        "--quick",
        "--no-baseline",
        "--scenario",
        "occupied_spot",
    ]
    done = subprocess.run(command, capture_output=True, cwd=ROOT, text=True, env=environment, timeout=600)
    assert done.returncode == 1 and not done.stdout
    assert (
        f"bench_crowd: RVO2 cannot run: ${rvo2_peer.SOURCE_VARIABLE} is {tmp_path}, which has no "
        "src/RVOSimulator.cc (--no-rvo2 runs without it)" in done.stderr
    )
    done = subprocess.run(
        [*command, "--no-rvo2"], capture_output=True, cwd=ROOT, text=True, env=environment, timeout=600
    )
    assert done.returncode == 0 and "| occupied_spot | ours |" in done.stdout


def test_bad_arguments_are_refused():
    for arguments, message in (
        (["--units", "0"], "--units must be >= 1"),
        (["--scenario", "nowhere"], "invalid choice: 'nowhere'"),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "bench.bench_crowd", *arguments], capture_output=True, cwd=ROOT, text=True
        )
        assert done.returncode == 2 and message in done.stderr


@settings(max_examples=200, deadline=None)
@given(maps(max_side=16))
def test_rvo2_obstacles_cover_the_blocked_cells_and_the_outside_once(passable):
    height, width = passable.shape
    covered = np.zeros((height + 2, width + 2), dtype=int)  # one cell of outside around the map
    for x0, y0, x1, y1 in rvo2_peer.blocked_rectangles(passable).tolist():
        assert x0 < x1 and y0 < y1
        covered[y0 + 1 : y1 + 1, x0 + 1 : x1 + 1] += 1
    expected = np.ones_like(covered)
    expected[1:-1, 1:-1] = ~passable
    assert np.array_equal(covered, expected)


def test_the_rvo2_driver_swaps_two_agents(tmp_path):
    """Only where RVO2's sources are named ($RVO2_SOURCE): the driver reads a scenario and reports as documented."""
    if not os.environ.get(rvo2_peer.SOURCE_VARIABLE):
        pytest.skip(f"set {rvo2_peer.SOURCE_VARIABLE} to RVO2's sources to build the driver")
    peer = rvo2_peer.build()
    assert peer.binary is not None, peer.problem
    passable = np.ones((3, 12), dtype=bool)
    starts = np.array([[1.5, 1.5], [10.5, 1.5], [5.5, 0.5]])
    routes = [np.array([[10.5, 1.5]]), np.array([[1.5, 1.5]]), np.array([[5.5, 0.5]])]
    text = rvo2_peer.scenario_text(
        starts, np.full(3, 0.4), np.full(3, 2.0), np.array([False, False, True]), routes, passable,
        delta=1 / 30, max_steps=900, arrival=0.1, settle_seconds=5.0,
    )  # fmt: skip
    run = rvo2_peer.run(peer.binary, text, tmp_path / "positions.f32", timeout=60)
    positions = np.fromfile(tmp_path / "positions.f32", dtype=np.float32).reshape(len(run.step_ms), 3, 2)
    assert run.arrived == 2 and not run.stuck and run.all_arrived_step is not None
    assert (run.step_ms > 0).all() and run.all_arrived_step <= len(run.step_ms)
    assert np.allclose(positions[-1, :2], [[10.5, 1.5], [1.5, 1.5]], atol=0.1)
    assert (positions[:, :, 1] >= 0.4 - 1e-3).all() and (positions[:, :, 1] <= 2.6 + 1e-3).all()  # inside the map


def test_under_pythonscript_our_units_play_the_same_game(pythonscript_dist, monkeypatch):
    """--pythonscript runs ours again on pythonscript's embedded CPython 3.8: the same moves, every figure but
    the times the same."""
    monkeypatch.setenv("PYTHONSCRIPT_DIST", str(pythonscript_dist))
    rows = table(run_bench("--quick", "--no-rvo2", "--no-baseline", "--pythonscript", "--scenario", "mixed_radii"))
    assert [row["run"] for row in rows] == ["ours", "ours, pythonscript's CPython 3.8"]
    timed = {"run", "median ms", "p99 ms"}
    assert {k: v for k, v in rows[0].items() if k not in timed} == {k: v for k, v in rows[1].items() if k not in timed}
