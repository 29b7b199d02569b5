"""bench/bench_compare.py on a tiny map: the working tree and a commit's code update the same scenario in turn,
and the report says how long each took and whether they moved the units the same. A benchmark, not a timed
test: no time is checked."""

import re
from types import SimpleNamespace

import pytest

import pathing_py
from bench import bench_compare, bench_groups

SCENARIO = ["--groups", "2", "--size", "4", "--seconds", "60"]


def test_two_runs_of_the_same_code_move_the_units_the_same(tiny_map):
    args = bench_groups.argument_parser().parse_args(["--map", str(tiny_map)] + SCENARIO)
    _, _, scenario = bench_groups.setting(args, tiny_map, args.seed)
    report = bench_compare.compare(
        *(bench_compare.world(pathing_py, args, scenario) for _ in range(2)), args.delta, args.seconds
    )
    assert report.splitlines()[-1] == "the units moved the same: yes"
    updates = int(report.split()[0])
    assert 0 < updates < args.seconds / args.delta  # until the first order ended, within the time


def test_the_working_tree_against_a_commit_reports_both_and_their_ratio(tiny_map, capsys):
    assert bench_compare.main(["HEAD", "--map", str(tiny_map)] + SCENARIO) == 0
    out = capsys.readouterr().out
    assert "the working tree against commit" in out
    times = {name: float(median) for name, median in re.findall(r"^(working tree|base) +([\d.]+)", out, re.MULTILINE)}
    assert set(times) == {"working tree", "base"} and all(value > 0 for value in times.values())
    ratio = float(re.search(r"working tree / base: ([\d.]+)", out).group(1))
    # (of the medians as printed, 4 digits each: up to 0.05% off each, and the ratio itself printed to 3 decimals)
    assert ratio == pytest.approx(times["working tree"] / times["base"], rel=0.0015, abs=0.0005)
    assert re.search(r"^the units moved the same: (yes|no: apart from update \d+ on)", out, re.MULTILINE)


def test_units_in_other_cells_or_places_did_not_move_the_same():
    def unit(cell, position):
        return SimpleNamespace(state=SimpleNamespace(name="MOVING"), cell=cell, next_cell=None, position=position)

    base = [unit((1, 1), (1.5, 1.5))]
    assert bench_compare.same_moves([unit((1, 1), (1.5, 1.5 + 1e-12))], base)  # the last bits of a float
    assert not bench_compare.same_moves([unit((1, 1), (1.5, 1.5001))], base)
    assert not bench_compare.same_moves([unit((2, 1), (1.5, 1.5))], base)
    assert bench_compare.position_difference([unit((1, 1), (1.75, 1.5))], base) == 0.25


def test_an_unknown_commit_is_a_clear_error(tiny_map, capsys):
    with pytest.raises(SystemExit):
        bench_compare.main(["no-such-commit", "--map", str(tiny_map)])
    assert "git knows no commit 'no-such-commit'" in capsys.readouterr().err
