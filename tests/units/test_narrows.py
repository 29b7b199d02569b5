"""Passage control (pathing_py.units.narrows): groups and units go one way at a time through long narrow passages."""

import ast

import numpy as np
import pytest

from pathing_py import Grid, KeyPointGraph
from pathing_py.groups import Groups
from pathing_py.units import Navigator, UnitState
from pathing_py.units.narrows import HOLD_LIMIT, PATIENCE, Narrows, Stretch, mark_narrows, narrow_cells
from tests.support.navigator import check_world

FIELD, HEIGHT = 20, 24


def corridor(width: int, length: int) -> Grid:
    """Two open fields FIELD cells wide joined by a corridor ``width`` cells wide and ``length`` long."""
    top = (HEIGHT - width) // 2
    return Grid.from_ascii("\n".join(
        "".join("." if x < FIELD or x >= FIELD + length or top <= y < top + width else "#"
                for x in range(2 * FIELD + length))
        for y in range(HEIGHT)
    ))  # fmt: skip


def deep_inside(cell, length: int) -> bool:
    """Whether ``cell`` lies in the corridor more than a cell from its mouths (at a mouth a straggler coming out,
    dodging the first units going in, may stand beside them)."""
    return FIELD + 2 <= cell[0] < FIELD + length - 2


def test_narrow_cells_are_those_two_files_cannot_pass_along_a_row_or_a_column():
    grid = corridor(2, 10)
    cells = np.array([(FIELD + 3, 11), (FIELD + 3, 12), (FIELD - 1, 11), (5, 5), (FIELD + 10, 0)])
    assert narrow_cells(cells, grid.passable).tolist() == [True, True, False, False, False]
    assert narrow_cells(np.array([(FIELD + 3, 11)]), corridor(3, 10).passable).all()
    assert not narrow_cells(np.array([(FIELD + 3, 11)]), corridor(4, 10).passable).any()


def test_an_approach_point_goes_before_each_long_narrow_stretch_and_none_before_a_door():
    grid, row = corridor(1, 10), (HEIGHT - 1) // 2
    start, goal = (2, row), (2 * FIELD + 7, row)
    key_points, (stretch,) = mark_narrows(grid, start, (), goal, depth=3)
    assert key_points == ((FIELD - 3 - 4, row),)  # depth and APPROACH_SLACK cells before the corridor
    assert (stretch.approach, stretch.entry, stretch.last) == (0, (FIELD, row), (FIELD + 9, row))
    assert mark_narrows(corridor(1, 2), start, (), (2 * FIELD, row), depth=3) == ((), [])  # shorter than MIN_LENGTH
    assert mark_narrows(grid, (FIELD - 2, row), (), goal, depth=3) == ((), [])  # already at it: no walking back
    key_points, (at_start,) = mark_narrows(grid, (FIELD - 2, row), (), goal, depth=1, hold_at_start=True)
    assert key_points == () and at_start.approach == -1  # a unit holds where it stands
    assert mark_narrows(grid, (FIELD + 4, row), (), goal, depth=1, hold_at_start=True) == ((), [])  # in it already


def test_stretches_meet_head_on_only_where_they_share_cells_and_run_opposite_ways():
    cells = frozenset((x, 5) for x in range(10))
    east = Stretch(0, (0, 5), (9, 5), cells)
    assert east.meets_head_on(Stretch(0, (9, 5), (0, 5), cells))
    assert not east.meets_head_on(Stretch(0, (0, 5), (9, 5), cells)) and east.runs_along(
        Stretch(0, (2, 5), (9, 5), cells)
    )
    assert not east.meets_head_on(Stretch(0, (9, 6), (0, 6), frozenset((x, 6) for x in range(10))))


def test_the_one_that_asked_first_goes_first_and_a_later_one_the_same_way_waits_for_the_other_way():
    now = [0.0]
    narrows = Narrows(lambda: now[0])
    cells = frozenset((x, 5) for x in range(10))
    east, west = Stretch(0, (0, 5), (9, 5), cells), Stretch(0, (9, 5), (0, 5), cells)
    (first,), (second,) = narrows.claim(1, [east]), narrows.claim(2, [west])
    assert not first.holds() and first.entered
    assert second.holds()  # the other way is in use
    now[0] = PATIENCE
    (third,) = narrows.claim(3, [east])
    assert third.holds()  # the west-bound one asked before it, and has waited long enough
    now[0] += 1.0
    narrows.release(first)
    assert not second.holds() and third.holds()
    now[0] += HOLD_LIMIT
    assert not third.holds()  # held long enough: it goes in whatever the others do
    narrows.release_all(2)
    narrows.release_all(3)
    assert narrows.holds_nothing()


def test_a_stream_going_one_way_is_joined_until_those_waiting_the_other_way_ran_out_of_patience():
    now = [0.0]
    narrows = Narrows(lambda: now[0])
    cells = frozenset((x, 5) for x in range(10))
    east, west = Stretch(0, (0, 5), (9, 5), cells), Stretch(0, (9, 5), (0, 5), cells)
    (first,), (waiting,) = narrows.claim("east 1", [east]), narrows.claim("west", [west])
    assert not first.holds() and waiting.holds()
    now[0] = PATIENCE / 2
    (joining,) = narrows.claim("east 2", [east])
    assert not joining.holds()  # the stream going east is joined
    now[0] = PATIENCE + 1.0
    (late,) = narrows.claim("east 3", [east])
    assert late.holds()  # the west-bound one has waited long enough
    narrows.release(first)
    narrows.release(joining)
    now[0] += 1.0
    assert not waiting.holds() and late.holds()


@pytest.mark.parametrize(
    "width, length, formation", [(1, 30, None), (2, 30, None), (1, 8, None), (1, 30, "box"), (3, 30, "box")]
)
def test_groups_meeting_head_on_in_a_long_narrow_corridor_take_turns_and_both_arrive(width, length, formation):
    """Without passage control, two groups of 20 in a corridor one cell wide and 30 long had not arrived at 300
    game seconds (29 units HELD_UP); two cells wide they arrived at 252 s, 8 long at 197-237 s, and boxes in
    one three cells wide at 147 s."""
    grid = corridor(width, length)
    navigator = Navigator(grid, KeyPointGraph.bake(grid, cluster_size=8))
    groups = Groups(navigator)
    right = grid.width - 8
    west = groups.add_group(
        [navigator.add_unit((3.5 + i % 4, 8.5 + i // 4), speed=4.0) for i in range(20)],
        formation=formation,
        spacing=2.0,
    )
    east = groups.add_group(
        [navigator.add_unit((right + 0.5 + i % 4, 8.5 + i // 4), speed=4.0) for i in range(20)],
        formation=formation,
        spacing=2.0,
    )
    west.move_to((grid.width - 6, 12))
    east.move_to((5, 12))
    navigator.step_log = []
    arrived, inside, took_turns, heard = 0, {west.id: set(), east.id: set()}, set(), []
    while arrived < 2 and navigator.time < 60.0:
        navigator.update(1 / 30)
        check_world(navigator)
        events = groups.events()
        arrived += sum(name == "group_arrived" for _, name, _ in events)
        heard += [(group_id, ast.literal_eval(where)) for group_id, name, where in events if name == "waiting_for_turn"]
        for group in (west, east):
            inside[group.id] = {unit.id for unit in group.members if deep_inside(unit.cell, length)}
            took_turns |= {group.id for unit in group.members if unit.taking_turns and unit.state is UnitState.WAITING}
        assert not (inside[west.id] and inside[east.id])  # one way at a time
    assert arrived == 2 and all(unit.state is UnitState.ARRIVED for unit in navigator.units.values())
    assert [sum(unit.stats.plans for unit in group.members) for group in (west, east)] == [1, 1]
    assert navigator.narrows.holds_nothing()
    assert took_turns  # the members of a group that waited for its turn showed it
    assert sorted(group_id for group_id, _ in heard) == sorted(took_turns)  # and the group said so, once
    assert not any(deep_inside(where, length) for _, where in heard)  # where they held: before the corridor


@pytest.mark.parametrize("width, length", [(1, 30), (2, 30), (1, 8)])
def test_units_on_their_own_meeting_head_on_in_a_long_narrow_corridor_take_turns_and_all_arrive(width, length):
    """Ordered one by one, 20 a side: without passage control, in a corridor one cell wide and 30 long all 40
    stopped HELD_UP by 300 game seconds, 8 long 23 had arrived then, and two cells wide they took 220 s."""
    grid = corridor(width, length)
    navigator = Navigator(grid, KeyPointGraph.bake(grid, cluster_size=8))
    right = grid.width - 8
    west = [navigator.add_unit((3.5 + i % 4, 8.5 + i // 4), speed=4.0) for i in range(20)]
    east = [navigator.add_unit((right + 0.5 + i % 4, 8.5 + i // 4), speed=4.0) for i in range(20)]
    for i, unit in enumerate(west):
        unit.move_to((right + i % 4, 8 + i // 4))
    for i, unit in enumerate(east):
        unit.move_to((3 + i % 4, 8 + i // 4))
    navigator.step_log = []
    units = west + east
    took_turns, heard = set(), []
    while navigator.time < 90.0 and not all(unit.state is UnitState.ARRIVED for unit in units):
        navigator.update(1 / 30)
        check_world(navigator)
        heard += [unit_id for unit_id, name, _ in navigator.events() if name == "waiting_for_turn"]
        inside = [[unit for unit in side if deep_inside(unit.cell, length)] for side in (west, east)]
        assert not (inside[0] and inside[1])  # one way at a time
        for unit in units:
            if unit.taking_turns and unit.next_cell is None:  # holding before the corridor, as debug drawing shows it
                assert unit.state is UnitState.WAITING and not deep_inside(unit.cell, length)
                took_turns.add(unit)
    assert all(unit.state is UnitState.ARRIVED for unit in units)
    assert navigator.narrows.holds_nothing()  # every claim let go of
    assert took_turns and not any(unit.taking_turns for unit in units)
    assert set(heard) == {unit.id for unit in took_turns} and len(heard) == len(set(heard))  # once a hold
