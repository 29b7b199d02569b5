"""Joint moves that untangle jams: every plan is one units holding cells can walk, and reaches the goals."""

import math
import random
from typing import List, Sequence, Tuple

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pathing_py.grid import Cell, Grid
from pathing_py.tools.scenarios import head_on_corridor, two_cell_corridor
from pathing_py.units.jams.push_and_swap import push_and_swap
from pathing_py.units.jams.untangling import (
    Untangling,
    _cutting_detours,
    _distances_to,
    _finished,
    _Search,
    _side_neighbours,
    _walk_ticks,
    cell_turns,
    untangle,
)
from tests.support.jams import check_moves
from tests.support.strategies import maps


def solve(passable: np.ndarray, starts: List[Cell], goals: List[Cell]) -> List[List[Cell]]:
    paths = untangle(passable, starts, goals)
    assert paths is not None
    check_moves(passable, paths)
    check_no_round_trips(paths)
    assert [path[0] for path in paths] == starts and [path[-1] for path in paths] == goals
    return paths


def scenario_cells(scenario) -> tuple:
    return [tuple(map(int, cell)) for cell in scenario.starts], [tuple(map(int, cell)) for cell in scenario.goals]


@pytest.mark.parametrize(
    "make", [lambda: two_cell_corridor(8), lambda: two_cell_corridor(40), lambda: head_on_corridor(4)]
)
def test_files_pass_each_other(make):
    scenario = make()
    solve(scenario.grid.passable, *scenario_cells(scenario))


def test_files_that_must_pass_through_a_pocket_back_off_to_it():
    """Three a side head-on in a corridor with a one-cell pocket: pushing each other, the files never get
    a unit into the pocket at the right time; backing off and pulling the facing unit along (a swap) does."""
    scenario = head_on_corridor(6)
    starts, goals = scenario_cells(scenario)
    assert untangle(scenario.grid.passable, starts, goals, swaps=False) is None
    solve(scenario.grid.passable, starts, goals)


def test_two_units_cross_through_a_pocket():
    corridor = np.array([[False, False, True, False], [True, True, True, True]])
    paths = solve(corridor, [(0, 1), (3, 1)], [(3, 1), (0, 1)])
    assert any(cell == (2, 0) for path in paths for cell in path)


def test_no_plan_where_units_cannot_pass():
    corridor = np.ones((1, 6), dtype=bool)  # no pocket: two units cannot cross
    assert untangle(corridor, [(0, 0), (5, 0)], [(5, 0), (0, 0)], max_configurations=200) is None
    walled = np.array([[True, False, True]])
    assert untangle(walled, [(0, 0)], [(2, 0)]) is None  # goal cut off


@pytest.mark.parametrize(
    "starts, goals, message",
    [
        ([(0, 0)], [(1, 0), (2, 0)], "1 starts but 2 goals"),
        ([(0, 0), (0, 0)], [(1, 0), (2, 0)], "starts must be distinct"),
        ([(0, 0)], [(3, 0)], "goals: cell (3, 0) is blocked or outside"),
        ([(1, 1)], [(0, 0)], "starts: cell (1, 1) is blocked"),
    ],
)
def test_bad_input(starts, goals, message):
    passable = np.array([[True, True, True], [True, False, True]])
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        untangle(passable, starts, goals)


def test_cell_turns_keep_the_plans_order():
    paths = [[(0, 0), (1, 0), (1, 0), (2, 0)], [(1, 1), (1, 1), (1, 1), (1, 0)]]
    turns = cell_turns(paths)
    assert turns[(1, 0)] == [(0, 1), (1, 1)]  # unit 0 passes first; unit 1 enters its second cell after
    assert turns[(0, 0)] == [(0, 0)] and turns[(2, 0)] == [(0, 2)] and turns[(1, 1)] == [(1, 0)]


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_plans_are_walkable_and_reach_the_goals(data):
    passable = data.draw(maps(min_side=2, max_side=8, max_walls=0.3))
    free = [(int(x), int(y)) for y, x in zip(*np.nonzero(passable))]
    count = data.draw(st.integers(1, max(1, len(free) // 2)))
    starts = data.draw(st.permutations(free))[:count]
    goals = data.draw(st.permutations(free))[:count]
    paths = untangle(passable, starts, goals, max_configurations=500)
    if not starts:  # a map of walls only: no units to move (Hypothesis found the crash this was)
        assert paths == []
        return
    if count == 1 and Grid(passable, connectivity=4).same_island(starts[0], goals[0]):
        assert paths is not None  # one unit alone always gets there
    if paths is not None:
        check_moves(passable, paths)
        assert [path[0] for path in paths] == starts and [path[-1] for path in paths] == goals
        check_no_round_trips(paths)


def check_no_round_trips(paths: Sequence[Sequence[Cell]]) -> None:
    """Fail if a unit leaves a cell and comes back to it while no other unit was there meanwhile (it
    could have waited there)."""
    for unit, path in enumerate(paths):
        for left in range(len(path) - 1):
            if path[left + 1] == path[left]:
                continue
            for back in range(left + 2, len(path)):
                others = any(
                    other[step] == path[left] for other in paths for step in range(left + 1, back) if other is not path
                )
                if others:
                    break
                assert path[back] != path[left], f"unit {unit} leaves {path[left]} at step {left} and is back at {back}"


@pytest.mark.parametrize(
    "paths, ticks",
    [
        ([[0, 1, 2], [1, 2, 3]], 2),  # a file moving on: each follows into the cell the one ahead leaves
        ([[0, 0, 1], [1, 2, 2]], 1),  # one unit moving per step: walked at once
        ([[0, 0, 1], [3, 1, 2]], 2),  # the second enters cell 1 after the first has been there
        ([[0, 0, 0], [1, 1, 1]], 0),
    ],
)
def test_plans_are_timed_by_their_turns_not_their_steps(paths, ticks):
    assert _walk_ticks(paths) == ticks


@pytest.mark.parametrize(
    "paths, cut",
    [
        ([[0, 1, 0, 0], [5, 5, 5, 6]], [[0, 0, 0, 0], [5, 5, 5, 6]]),  # a round trip no one meets: waited out
        ([[0, 1, 2, 1, 0], [7, 7, 7, 7, 7]], [[0, 0, 0, 0, 0], [7, 7, 7, 7, 7]]),  # a longer one
        ([[0, 1, 0], [3, 0, 2]], [[0, 1, 0], [3, 0, 2]]),  # another unit passes through cell 0 meanwhile: kept
        ([[0, 1, 0], [3, 0, 3]], [[0, 0, 0], [3, 3, 3]]),  # unless its own visit there is a round trip too
        ([[0, 1, 1, 0, 1, 0], [4, 4, 4, 4, 4, 4]], [[0, 0, 0, 0, 0, 0], [4, 4, 4, 4, 4, 4]]),  # two returns
    ],
)
def test_round_trips_no_other_unit_takes_part_in_are_cut_from_a_plan(paths, cut):
    assert _finished(_cutting_detours(paths)) == cut


def test_a_long_plan_of_pushes_and_swaps_cut_keeps_its_turns_and_loses_moves():
    """Five against five in a corridor with a pocket: pushing and swapping moves one unit a step,
    hundreds of steps; cut, each cell still sees the units in the same order, and they move less."""
    scenario = head_on_corridor(10)
    passable = scenario.grid.passable
    neighbours = _side_neighbours(passable)
    width = passable.shape[1]
    start, goal = (tuple(y * width + x for x, y in cells) for cells in scenario_cells(scenario))
    distances = [_distances_to(cell, neighbours) for cell in goal]
    moves = push_and_swap(neighbours, distances, start, goal, max_moves=2000)
    assert moves is not None and len(moves) > 100
    paths = [list(path) for path in zip(*moves)]
    cut = _finished(_cutting_detours(paths))
    order = {cell: [unit for unit, _ in turns] for cell, turns in cell_turns(paths).items()}
    cut_order = {cell: [unit for unit, _ in turns] for cell, turns in cell_turns(cut).items()}
    for cell, units in cut_order.items():  # each cell's turns are the plan's, with the units' waited-out visits dropped
        assert _is_subsequence(units, order[cell])
    assert [path[-1] for path in cut] == list(goal)
    moved = sum(a != b for path in paths for a, b in zip(path, path[1:]))
    cut_moved = sum(a != b for path in cut for a, b in zip(path, path[1:]))
    assert cut_moved < moved


def _is_subsequence(short: List[int], long: List[int]) -> bool:
    items = iter(long)
    return all(any(item == wanted for item in items) for wanted in short)


def test_of_two_plans_the_one_walked_sooner_is_taken():
    """Four a side head-on through a pocket: the joint search's plan has fewer steps but keeps the files
    waiting on one another longer than pushing and swapping one unit at a time, walked by turns."""
    scenario = head_on_corridor(8)
    starts, goals = scenario_cells(scenario)
    passable = scenario.grid.passable
    width = passable.shape[1]
    neighbours = _side_neighbours(passable)
    start, goal = tuple(y * width + x for x, y in starts), tuple(y * width + x for x, y in goals)
    joint = _Search(neighbours, [_distances_to(cell, neighbours) for cell in goal], goal, random.Random(0), True).run(
        start, 1000
    )
    assert joint is not None
    joint_paths = [list(path) for path in zip(*joint)]
    chosen = untangle(passable, starts, goals)
    assert chosen is not None
    check_moves(passable, chosen)
    chosen_paths = [[y * width + x for x, y in path] for path in chosen]
    assert len(chosen_paths[0]) > len(joint_paths[0])  # one move per step
    assert _walk_ticks(chosen_paths) < _walk_ticks(joint_paths)


def searched(scenario, seeds, slice_of_work=math.inf) -> Tuple[Untangling, int]:
    """The searches of ``scenario``'s units done, in slices of ``slice_of_work``, and how many slices it took."""
    untangling = Untangling(scenario.grid.passable, *scenario_cells(scenario), seeds=seeds)
    slices = 1
    while not untangling.advance(slice_of_work):
        slices += 1
    return untangling, slices


def test_of_the_plans_of_several_seeds_the_one_walked_soonest_is_taken():
    """Six against six in a corridor two cells wide: the plan of the first seed takes 32 walk ticks, the
    best of four seeds 21 (the joint search's choices are drawn, and its plans differ widely)."""
    scenario = two_cell_corridor(12)
    alone = [searched(scenario, (seed,))[0] for seed in range(4)]
    together, _ = searched(scenario, range(4))
    assert together.ticks == min(untangling.ticks for untangling in alone) < alone[0].ticks
    assert together.paths is not None and _walk_ticks(cells_as_indices(together.paths)) == together.ticks
    check_moves(scenario.grid.passable, together.paths)
    assert together.fewest <= together.ticks


def test_a_search_done_in_slices_finds_the_plan_found_at_once():
    scenario = two_cell_corridor(12)
    at_once, one = searched(scenario, range(4))
    in_slices, slices = searched(scenario, range(4), slice_of_work=500)
    assert slices > 10 and one == 1
    assert in_slices.paths == at_once.paths and in_slices.ticks == at_once.ticks


def test_a_joint_search_that_finds_no_plan_is_counted():
    """Three a side head-on through a pocket: without swaps the joint search runs its whole budget in vain
    (jam plans then search no further seeds: see JamPlans)."""
    scenario = head_on_corridor(6)
    without_swaps = Untangling(scenario.grid.passable, *scenario_cells(scenario), swaps=False)
    assert without_swaps.advance(math.inf) and without_swaps.paths is None and without_swaps.misses == 1
    found, _ = searched(scenario, (0,))
    assert found.paths is not None and found.misses == 1  # the search with swaps found it


def cells_as_indices(paths: Sequence[Sequence[Cell]]) -> List[List[int]]:
    return [[y * 1000 + x for x, y in path] for path in paths]
