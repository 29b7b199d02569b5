"""The yardsticks of issue 42: a scenario's lower bound (pathing_py.tools.crowd_bounds), worked out by hand from
the geometry of small scenes, and the count of steps arrived units start off their goals."""

import numpy as np
import pytest

from pathing_py.grid import Grid
from pathing_py.tools.crowd_bounds import lower_bound
from pathing_py.tools.crowd_runs import CrowdRun
from pathing_py.tools.scenarios import CrowdScenario, gate, head_on_corridor, two_cell_corridor


def scene(passable: np.ndarray, starts, goals, speed: float = 4.0) -> CrowdScenario:
    """Units of radius 0.5 starting on the centres of ``starts`` cells, all ordered to ``goals``."""
    count = len(starts)
    return CrowdScenario(
        "scene", "a test scene", Grid(passable), np.array(starts) + 0.5, np.array(goals), np.full(count, 0.5),
        np.full(count, speed), np.zeros(count, dtype=int), np.zeros(count, dtype=bool),
    )  # fmt: skip


def test_one_unit_down_a_straight_corridor_takes_its_length_over_its_speed():
    passable = np.zeros((3, 12), dtype=bool)
    passable[1, 1:11] = True
    bound = lower_bound(scene(passable, [(1, 1)], [(10, 1)], speed=2.0))
    assert bound.trip == pytest.approx(9 / 2.0)  # 9 cells at 2 cells a second
    assert bound.passage <= bound.trip and bound.seconds == pytest.approx(4.5)


def test_a_gate_one_cell_wide_passes_one_unit_per_cell_crossing_time():
    scenario = gate(units=9)  # 3x3 from x = 2 in one room to x = 9 in the next, the gate in column 7, 4 cells a second
    columns = scenario.grid.passable.sum(axis=0)
    gate_x = int(np.flatnonzero(columns == 1)[0])
    assert gate_x == 7 and scenario.speeds[0] == 4.0
    nearest_start, nearest_goal = scenario.start_cells[:, 0].max(), scenario.goals[:, 0].min()  # 4 and 9
    to_gate, from_gate = gate_x - nearest_start, nearest_goal - gate_x  # 3 and 2 cells, centre to centre
    expected = (to_gate + (9 - 1) + from_gate) / 4.0  # 8 turns behind the first: 3.25 s
    bound = lower_bound(scenario)
    assert bound.passage == pytest.approx(expected) == pytest.approx(3.25)
    assert bound.seconds == bound.passage > bound.trip and bound.passage_at == "column 7: 9 units through 1 cell"


def test_opposing_streams_in_a_two_cell_corridor_pass_two_abreast():
    scenario = two_cell_corridor(units=8)  # 4 against 4, two abreast, in a corridor of 10 cells; 1 cell a second
    left, right = scenario.start_cells[:4, 0], scenario.start_cells[4:, 0]
    assert (left.max(), right.min(), scenario.grid.width, scenario.speeds[0]) == (2, 9, 12, 1.0)
    # a column halfway: 3 cells from the nearest unit of either side and from the nearest goal; 8 units two
    # abreast cross in 4 turns, one second apart
    assert lower_bound(scenario).seconds == pytest.approx(3 + (8 / 2 - 1) + 3)


def test_a_dead_end_pocket_is_no_lane():
    scenario = head_on_corridor(units=10)  # 5 a side in a corridor of 21 cells, the pocket above cell 11
    assert scenario.grid.passable[:, 11].sum() == 2  # the pocket's column: two passable cells, one lane
    # all 10 cross column 11 one at a time; the nearest of each file is 6 cells from it, as are the nearest goals
    bound = lower_bound(scenario)
    assert bound.seconds == pytest.approx((6 + 9 + 6) / 4.0)
    assert bound.passage_at == "column 11: 10 units through 1 cell"


def test_an_arrived_unit_pushed_off_its_goal_by_a_passing_unit_counts_once():
    """In a one-cell corridor a unit stands on its goal beside a pocket; another passes it: the one arrived
    steps into the pocket (one step off its goal) and back; the passer never stood on its goal before."""
    passable = np.zeros((3, 9), dtype=bool)
    passable[1, 1:8] = True
    passable[0, 4] = True
    run = CrowdRun(scene(passable, [(4, 1), (1, 1)], [(4, 1), (7, 1)]))
    while run.rested_at is None and run.navigator.time < 30:
        run.update(1 / 30)
    assert run.rested_at is not None and [unit.cell for unit in run.units] == [(4, 1), (7, 1)]
    assert run.moved_off_goal == [1, 0]
