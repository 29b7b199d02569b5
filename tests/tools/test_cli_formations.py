"""``pathing-py demo --scenario``: formation scenarios (issue 10 item 9), their printing, pictures and refusals."""

import re

import numpy as np
import pytest

from pathing_py import Grid
from pathing_py.debug import COMMANDER_DOT, PANEL_GAP, draw_commander, side_by_side
from pathing_py.tools.cli import main
from pathing_py.tools.formation_scenarios import SCENARIOS, FormationRun, FormationScenario
from pathing_py.units import Navigator
from tests.support.animation import decode_gif

SCALE = 2


def group_reports(printed):
    """Each group's printing, by scenario name: its events [(time, name, detail)], its order rows
    [(given, formed in, arrived, spread, searches)] (None for '-') and its summary line."""
    reports = {}
    for section in re.split(r"^(?=scenario \w+, group )", printed, flags=re.M)[1:]:
        name = section.split(",", 1)[0].split()[1]
        lines = section.splitlines()
        events = [(float(at), event, detail) for at, event, detail in
                  (re.match(r"\s*(\d+\.\d+)  (\w+)\s+(.*)", line).groups()
                   for line in lines[2:] if re.match(r"\s*\d+\.\d+  [a-z]", line))]  # fmt: skip
        rows = [
            [None if value == "-" else float(value) for value in line.split()[-5:]]
            for line in lines
            if re.match(r"\s+\d+\s+\(", line)
        ]
        summary = next(line for line in lines if "members arrived" in line and "searches per order" in line)
        reports[name] = (events, rows, summary)
    return reports


def run_demo(tmp_path, capsys, scenario, *options):
    out = tmp_path / f"{scenario}.gif"
    assert main(["demo", "--scenario", scenario, "--scale", str(SCALE), "--out", str(out), *options]) == 0
    return capsys.readouterr().out, decode_gif(out.read_bytes())[0]


@pytest.mark.parametrize(
    "name, passes", [("gap", "formation_scaled"), ("turn", None), ("bend", None), ("lake", "formation_halved")]
)
def test_each_scenario_ends_with_every_member_arrived_in_one_search_per_order(tmp_path, capsys, name, passes):
    printed, frames = run_demo(tmp_path, capsys, name)
    scenario = SCENARIOS[name]
    events, rows, summary = group_reports(printed)[name]
    names = [event for _, event, _ in events]
    assert summary.startswith(
        f"{scenario.members} of {scenario.members} members arrived; searches per order: 1.00; overlaps: 0 "
    )
    assert len(rows) == len(scenario.targets) and all(row[-1] == 1 for row in rows)  # one search per order
    arrived = [detail for _, event, detail in events if event == "group_arrived"]
    assert arrived == [f"{scenario.members} of {scenario.members} members arrived"] * len(scenario.targets)
    assert names[-1] == "group_arrived" and names.count("group_ordered") == len(scenario.targets)
    if passes:
        assert passes in names
        where = [detail for _, event, detail in events if event == passes]
        assert all(re.fullmatch(r"\(\d+, \d+\)", cell) for cell in where)  # says where
    elif name == "turn":  # the line is ordered south after east: it forms again before it marches on
        second = names.index("group_ordered", 1)
        assert names[second:] == ["group_ordered", "formation_forming", "formation_formed", "group_arrived"]
    else:  # one order: the line forms facing its route, and halts to form again where the route turns back west
        assert names.count("formation_forming") >= 2 and names.count("group_ordered") == 1
    # Time to form and the arrival as the events say them; each member arrived at or before the group said so.
    times: dict = {}
    for at, event, _ in events[: names.index("group_arrived") + 1]:
        times.setdefault(event, at)  # formed again after passing a lake comes later: the first is the forming's
    given, formed_in, ended, spread, _ = rows[0]
    assert formed_in == pytest.approx(times["formation_formed"] - times["formation_forming"], abs=0.011)
    assert ended == times["group_arrived"] and 0 <= spread <= ended - given
    grid = scenario.grid()
    assert frames[0][0].shape == (grid.height * SCALE, grid.width * SCALE, 3)
    assert f"({len(frames)} frames of {grid.width * SCALE}x{grid.height * SCALE}" in printed
    assert frames[-1][1] >= 200  # the last picture stays at least 2 s


def test_all_draws_the_three_side_by_side_each_as_it_runs_alone(tmp_path, capsys):
    printed, frames = run_demo(tmp_path, capsys, "all")
    assert f"drawn side by side, left to right: {', '.join(SCENARIOS)}" in printed
    reports = group_reports(printed)
    assert list(reports) == list(SCENARIOS)
    grids = [scenario.grid() for scenario in SCENARIOS.values()]
    widths = [grid.width * SCALE for grid in grids]
    assert frames[0][0].shape == (max(grid.height for grid in grids) * SCALE, sum(widths) + SCALE * (len(grids) - 1), 3)
    left = 0
    for (name, (events, _, summary)), width in zip(reports.items(), widths):
        alone_printed, alone_frames = run_demo(tmp_path, capsys, name)
        assert group_reports(alone_printed)[name][0] == events  # the same run
        panel = frames[-1][0][:, left : left + width]
        assert (panel[: alone_frames[-1][0].shape[0]] == alone_frames[-1][0]).all()  # each ends as it ends alone
        left += width + SCALE
    assert (frames[0][0][:, widths[0] : widths[0] + SCALE] == PANEL_GAP).all()


def test_the_seed_moves_where_members_start():
    first, second = (FormationRun(SCENARIOS["gap"], seed) for seed in (1, 2))
    assert [unit.cell for unit in first.group.members] != [unit.cell for unit in second.group.members]
    assert {unit.cell for unit in first.group.members} <= set(SCENARIOS["gap"].start_cells)


def test_a_run_cut_short_by_the_time_cap_says_so(tmp_path, capsys):
    printed, _ = run_demo(tmp_path, capsys, "lake", "--max-time", "2")
    events, rows, summary = group_reports(printed)["lake"]
    assert "still under way after 2.00 s" in summary and rows[0][2] is None  # no arrival time
    assert "group_arrived" not in [event for _, event, _ in events]


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["--scenario", "moat"],
            "invalid choice: 'moat' (choose from 'gap', 'turn', 'bend', 'lake', 'all', 'armies', 'crossroads')",
        ),
        (
            ["--scenario", "gap", "--units", "3"],
            "--scenario gap runs on a map and with units of its own; leave out --units",
        ),
        (["level.txt", "--scenario", "lake", "--no-graph"], "leave out MAP, --no-graph"),
    ],
)
def test_bad_scenario_options_are_refused(capsys, args, message):
    with pytest.raises(SystemExit):
        main(["demo", *args])
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    "rows, members, message",
    [
        (("s.1", "s?."), 2, "unknown map character '?' at (1, 1)"),
        (("s.1", "..."), 2, "2 members need as many start cells ('s'), the map has 1"),
        (("ss.", "..."), 2, "the map must mark its targets 1, 2, … once each, got ''"),
        (("ss2", "..."), 2, "got '2'"),
        (("ss1", "1.."), 2, "got '11'"),
        (("ss1", "..."), 2, ""),  # a map that is fine
    ],
)
def test_bad_scenario_maps_are_refused(rows, members, message):
    if not message:
        assert FormationScenario("mine", "", rows, "line", members, 2.0).targets == [(2, 0)]
        return
    with pytest.raises(ValueError, match=re.escape(message)):
        FormationScenario("mine", "", rows, "line", members, 2.0)


def test_the_commander_gets_a_dot_in_its_middle_and_nothing_else_changes():
    navigator = Navigator(Grid.from_ascii("....\n...."))
    unit = navigator.add_unit((2.5, 0.5), speed=1.0)
    image = np.zeros((16, 32, 3), np.uint8)
    draw_commander(image, unit, scale=8)
    marked = np.argwhere((image == COMMANDER_DOT).all(axis=2))
    assert len(marked) and (marked.mean(axis=0) == pytest.approx((3.5, 19.5), abs=0.01))  # centred on (20, 4) pixels
    assert np.abs(marked - (4, 20)).max() <= 2 and (image[(image != COMMANDER_DOT).any(axis=2)] == 0).all()


def test_side_by_side_pads_shorter_pictures_below():
    tall, short = np.full((4, 3, 3), 10, np.uint8), np.full((2, 2, 3), 20, np.uint8)
    picture = side_by_side([tall, short], gap=1)
    assert picture.shape == (4, 6, 3)
    assert (picture[:, :3] == 10).all() and (picture[:2, 4:] == 20).all()
    assert (picture[:, 3] == PANEL_GAP).all() and (picture[2:, 4:] == PANEL_GAP).all()
    with pytest.raises(ValueError, match="at least one picture"):
        side_by_side([], gap=1)
