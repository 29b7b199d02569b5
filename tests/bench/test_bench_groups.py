"""bench/bench_groups.py on a tiny map: the scenario is what it says, and a run of 2 groups of 4 prints figures
that add up (no overlaps, every member arrived, one search per group order). A benchmark, not a timed test: no
time is checked."""

import json
import math

import pytest

from bench import bench_groups
from pathing_py import Grid
from pathing_py.groups import Formation

GROUPS, SIZE = 2, 4


def table(text: str) -> dict:
    """The Markdown table's rows by figure: {figure: {column: value}}."""
    lines = [line for line in text.splitlines() if line.startswith("|")]
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in lines[2:]]
    return {row[0]: dict(zip(header[1:], row[1:])) for row in rows}


def test_the_scenario_puts_groups_in_disjoint_free_sites_and_orders_them_far(tiny_map):
    grid = Grid.from_movingai(tiny_map)
    formation = Formation.box(SIZE, spacing=2)
    scenario = bench_groups.make_scenario(grid, 3, SIZE, formation, seed=4)
    side = bench_groups.site_side(formation, SIZE)
    starts = [cell for cells in scenario.starts for cell in cells]
    goals = [cell for cells in scenario.goals for cell in cells]
    assert len(set(starts)) == len(starts) == len(set(goals)) == len(goals) == 3 * SIZE
    assert all(grid.is_passable(cell) and grid.same_island(cell, starts[0]) for cell in starts + goals)
    centres = [cells[0] for cells in scenario.starts] + scenario.targets
    assert all(max(abs(a[0] - b[0]), abs(a[1] - b[1])) > side for i, a in enumerate(centres) for b in centres[i + 1 :])
    assert min(math.dist(cells[0], target) for cells, target in zip(scenario.starts, scenario.targets)) >= side
    for cells, target, own in zip(scenario.starts, scenario.targets, scenario.goals):
        assert (
            max(math.dist(cell, target) for cell in own) <= side / 2
            and max(math.dist(cell, cells[0]) for cell in cells) <= 2
        )
    assert bench_groups.make_scenario(grid, 3, SIZE, formation, seed=4) == scenario


def test_a_tiny_run_prints_figures_that_add_up(tiny_map, capsys):
    status = bench_groups.main(
        ["--map", str(tiny_map), "--groups", str(GROUPS), "--size", str(SIZE), "--seconds", "120", "--markdown"]
    )
    out = capsys.readouterr().out
    assert status == 0, out
    rows = table(out)
    groups, individual = rows["orders"]["groups"], rows["orders"]["individual"]
    assert (groups, individual) == (str(GROUPS), str(GROUPS * SIZE))
    for run in ("groups", "individual"):
        assert rows["overlapping pairs"][run] == "0"
        assert rows["arrived / reachable"][run] == f"{GROUPS * SIZE} / {GROUPS * SIZE}"
        assert rows["HELD_UP / UNREACHABLE / under way"][run] == "0 / 0 / 0"
        assert "time limit" not in rows["updates / game s until every order ended"][run]
        median, p99 = float(rows["ms per update: median"][run]), float(rows["ms per update: p99"][run])
        assert 0 < median <= p99 and float(rows["ms per update: median while no order had ended"][run]) > 0
    assert rows["graph bake s"]["groups"] == rows["graph bake s"]["individual"] != "-"
    assert (
        rows["searches per order"]["groups"] == "1.00"
        and rows["orders that cost one search"]["groups"] == f"{GROUPS} / {GROUPS}"
    )
    assert (
        rows["time to form s: median / max"]["groups"] != "-"
        and rows["time to form s: median / max"]["individual"] == "-"
    )
    spread_median, spread_max = (float(v) for v in rows["arrival spread s: median / max"]["groups"].split(" / "))
    assert 0 <= spread_median <= spread_max
    assert float(rows["searches per order"]["groups / individual"]) == pytest.approx(
        1 / float(rows["searches per order"]["individual"]), abs=0.01
    )
    targets = out.split("Targets (issue 10):")[1]
    assert "not measured" in targets and "MISSED" not in targets
    assert f"Command: python3 -m bench.bench_groups --map {tiny_map}" in out


def test_with_seeds_a_row_says_how_the_orders_of_each_seeds_scenario_ended(tiny_map, capsys):
    status = bench_groups.main(
        ["--map", str(tiny_map), "--groups", "1", "--size", "3", "--seeds", "2-3", "--seconds", "60", "--markdown"]
    )
    out = capsys.readouterr().out
    assert status == 0, out
    rows = table(out)
    assert list(rows) == ["2", "3"]
    for seed in ("2", "3"):
        assert (
            rows[seed]["arrived / reachable"] == "3 / 3"
            and rows[seed]["HELD_UP / UNREACHABLE / under way"] == "0 / 0 / 0"
        )
        assert rows[seed]["searches per order"] == "1.00" and rows[seed]["overlapping pairs"] == "0"
    assert (
        rows["2"]["updates / game s until every order ended"] != rows["3"]["updates / game s until every order ended"]
    )  # two scenarios
    assert "on every seed: met" in out
    with pytest.raises(SystemExit):
        bench_groups.main(["--map", str(tiny_map), "--seeds", "3-2"])


def test_the_json_run_holds_the_groups_figures(tiny_map, capsys):
    arguments = [
        "--map",
        str(tiny_map),
        "--groups",
        "1",
        "--size",
        "3",
        "--formation",
        "line",
        "--graph",
        "off",
        "--delta",
        "1/60",
        "--json",
    ]
    assert bench_groups.main(arguments) == 0
    figures = bench_groups.RunResult(**json.loads(capsys.readouterr().out))
    assert (figures.label, figures.orders, figures.plans, figures.planned_once) == ("groups", 1, 1, 1)
    assert (figures.units, figures.arrived, figures.reachable, figures.held_up, figures.unreachable) == (3, 3, 3, 0, 0)
    assert (figures.groups, len(figures.spreads)) == (1, 1)
    assert (
        figures.finished
        and figures.overlapping_pairs == 0
        and len(figures.form_seconds) == 1
        and figures.bake_s is None
    )
    assert (
        figures.game_seconds == pytest.approx(len(figures.tick_ms) / 60)
        and figures.all_under_way == len(figures.tick_ms) - 1
    )


def test_a_map_without_room_for_the_groups_is_refused(tiny_map, capsys):
    side = bench_groups.site_side(Formation.box(20, spacing=2), 20)  # the defaults
    with pytest.raises(SystemExit, match=f"free {side}x{side} squares on one island, 40 groups need 80"):
        bench_groups.main(["--map", str(tiny_map), "--groups", "40", "--size", "20"])


def test_under_pythonscript_the_groups_play_the_same_game(tiny_map, capsys, monkeypatch, pythonscript_dist):
    monkeypatch.setenv("PYTHONSCRIPT_DIST", str(pythonscript_dist))
    status = bench_groups.main(
        ["--map", str(tiny_map), "--groups", str(GROUPS), "--size", str(SIZE), "--pythonscript", "--markdown"]
    )
    out = capsys.readouterr().out
    assert status == 0, out
    rows = table(out)
    embedded = next(column for column in rows["orders"] if column.startswith("groups, pythonscript's CPython 3.8."))
    same = ("orders", "updates / game s until every order ended", "searches per order", "orders that cost one search",
            "time to form s: median / max", "formations scaled / halved / broken", "arrival spread s: median / max",
            "arrived / reachable", "HELD_UP / UNREACHABLE / under way", "overlapping pairs")  # fmt: skip
    for figure in same:
        assert rows[figure][embedded] == rows[figure]["groups"], figure
    assert "(CPython 3.8." in out.split("Targets (issue 10):")[1]
