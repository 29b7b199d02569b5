"""Push and swap: one unit moves per step, to a free side neighbour, and every unit ends at its goal."""

from typing import List, Optional, Sequence, Tuple

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from pathing_py.grid import Cell
from pathing_py.tools.scenarios import head_on_corridor, two_cell_corridor
from pathing_py.units.jams.push_and_swap import push_and_swap
from pathing_py.units.jams.untangling import _distances_to, _side_neighbours, untangle
from tests.support.jams import check_moves
from tests.support.strategies import maps


def plan(
    passable: np.ndarray, starts: Sequence[Cell], goals: Sequence[Cell], max_moves: int = 5000
) -> Optional[List[Tuple[int, ...]]]:
    """Push and swap on the window ``passable``, checked move by move; None where it finds no plan."""
    width = passable.shape[1]
    neighbours = _side_neighbours(passable)
    start = tuple(y * width + x for x, y in starts)
    goal = tuple(y * width + x for x, y in goals)
    moves = push_and_swap(
        neighbours, [_distances_to(cell, neighbours) for cell in goal], start, goal, max_moves=max_moves
    )
    if moves is None:
        return None
    assert moves[0] == start and moves[-1] == goal and len(moves) <= max_moves + 1
    for before, after in zip(moves, moves[1:]):
        moved = [unit for unit, (was, now) in enumerate(zip(before, after)) if was != now]
        assert len(moved) == 1, f"units {moved} move at once"
        unit = moved[0]
        assert after[unit] in neighbours[before[unit]] and after[unit] not in before, (
            f"unit {unit} jumps or enters a held cell"
        )
    return moves


def cells(scenario) -> Tuple[List[Cell], List[Cell]]:
    return [tuple(map(int, cell)) for cell in scenario.start_cells], [tuple(map(int, cell)) for cell in scenario.goals]


def test_files_pass_one_unit_at_a_time_through_a_pocket():
    """Five a side head-on in a corridor with a one-cell pocket: the joint search runs out of nodes (issue 12's
    scenario ended with every unit waiting); pushed along and swapped at the pocket, every unit gets through."""
    scenario = head_on_corridor(10)
    assert plan(scenario.grid.passable, *cells(scenario)) is not None
    paths = untangle(scenario.grid.passable, *cells(scenario))  # the joint search gives up, then this
    assert paths is not None
    check_moves(scenario.grid.passable, paths)
    assert [path[-1] for path in paths] == cells(scenario)[1]


def test_blocks_pass_in_a_corridor_two_cells_wide():
    scenario = two_cell_corridor(12)
    assert plan(scenario.grid.passable, *cells(scenario)) is not None


def test_no_plan_where_units_cannot_pass_or_the_moves_run_out():
    corridor = np.ones((1, 6), dtype=bool)  # no fork: the two can never swap
    assert plan(corridor, [(0, 0), (5, 0)], [(5, 0), (0, 0)]) is None
    scenario = head_on_corridor(10)
    assert plan(scenario.grid.passable, *cells(scenario), max_moves=100) is None


def test_a_unit_at_its_goal_in_the_way_is_swapped_past_and_goes_back():
    """Unit 0 stands on its goal in a corridor; unit 1 must get past it to the end: they swap at the fork
    and unit 0 goes back to its goal."""
    corridor = np.array([[False, True, False, False, False], [True, True, True, True, True]])
    moves = plan(corridor, [(2, 1), (0, 1)], [(2, 1), (4, 1)])
    assert moves is not None
    assert any(configuration[0] != 1 * 5 + 2 for configuration in moves)  # off its goal, and back (plan() checks)


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_plans_move_one_unit_at_a_time_and_reach_the_goals(data):
    passable = data.draw(maps(min_side=2, max_side=8, max_walls=0.3))
    free = [(int(x), int(y)) for y, x in zip(*np.nonzero(passable))]
    count = data.draw(st.integers(0, len(free) // 2))
    starts = data.draw(st.permutations(free))[:count]
    goals = data.draw(st.permutations(free))[:count]
    neighbours = _side_neighbours(passable)
    width = passable.shape[1]
    if any(
        _distances_to(y * width + x, neighbours)[sy * width + sx] >= 1 << 30 for (x, y), (sx, sy) in zip(goals, starts)
    ):
        return  # a goal cut off: the caller (untangle) refuses those
    moves = plan(passable, starts, goals)
    if count <= 1:
        assert moves is not None  # one unit alone always gets there
