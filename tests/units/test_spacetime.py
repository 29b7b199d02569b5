import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from pathing_py import Grid, PathStatus, find_path
from pathing_py.units.spacetime import EPS, Reservations, arrival_times, find_path_in_time, occupancy
from tests.support.reference import path_cost, step_cost
from tests.support.strategies import cells_of, connectivities, costs, maps

CROSSING = """
##.##
.....
##.##
"""


def reserve_walk(reservations, unit, grid, cells, start_time=0.0, speed=1.0, until=math.inf):
    times = arrival_times(grid, cells, start_time=start_time, speed=speed)
    reservations.reserve(unit, occupancy(cells, times, until))


def check_clear(grid, reservations, result, speed=1.0, hold=None, unit=None):
    """Every step of a FOUND result is legal (straight on a 4-connected grid), timed right and clear of
    every other unit's holds."""
    assert result.status is PathStatus.FOUND
    cells, times = result.cells, result.times
    moves = [(a, b, t0, t1) for a, b, t0, t1 in zip(cells, cells[1:], times, times[1:]) if a != b]
    walked = [c for i, c in enumerate(cells) if i == 0 or c != cells[i - 1]]
    path_cost(grid.passable, walked, grid.cost, connectivity=grid.connectivity)
    assert all(t1 >= t0 for t0, t1 in zip(times, times[1:]))
    for a, b, t0, t1 in moves:
        assert t1 - t0 == pytest.approx(step_cost(grid.cost, a, b) / speed)
        assert not reservations.swap_conflict(a, b, t0, t1, ignoring=unit)
        if a[0] != b[0] and a[1] != b[1]:
            for corner in ((b[0], a[1]), (a[0], b[1])):
                assert reservations.is_free(corner, t0, t1, ignoring=unit), (a, b, corner, t0, t1)
    hold = 1.0 / speed if hold is None else hold
    for cell, enter, leave in result.intervals(until=times[-1] + hold):
        assert reservations.is_free(cell, enter, leave, ignoring=unit), (cell, enter, leave)
    assert result.cost == pytest.approx(times[-1] - times[0])


def test_a_unit_waits_for_a_crossing_unit():
    grid = Grid.from_ascii(CROSSING)
    reservations = Reservations()
    reserve_walk(reservations, "walker", grid, [(2, 0), (2, 1), (2, 2)], until=3.0)
    result = find_path_in_time(grid, (0, 1), (4, 1), reservations=reservations)
    check_clear(grid, reservations, result)
    assert result.cells == [(0, 1), (1, 1), (1, 1), (2, 1), (3, 1), (4, 1)]
    assert result.times == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    # The seed's search cannot wait: in the corridor there is then no way through.
    stuck = find_path_in_time(grid, (0, 1), (4, 1), reservations=reservations, wait=False)
    assert stuck.status is PathStatus.UNREACHABLE


def test_without_waiting_a_unit_walks_round():
    grid = Grid(np.ones((5, 7), dtype=bool))
    reservations = Reservations()
    reserve_walk(reservations, "walker", grid, [(3, y) for y in range(5)], until=4.0)
    result = find_path_in_time(grid, (0, 2), (6, 2), reservations=reservations, wait=False)
    check_clear(grid, reservations, result)
    assert len(set(result.cells)) == len(result.cells)  # no waits
    assert result.cost > 6.0


def test_head_on_units_pass_through_a_pocket():
    grid = Grid.from_ascii(
        """
.......
###.###
"""
    )
    reservations = Reservations()
    reserve_walk(reservations, "b", grid, [(x, 0) for x in range(6, -1, -1)], start_time=3.0)
    result = find_path_in_time(grid, (0, 0), (6, 0), reservations=reservations)
    check_clear(grid, reservations, result)
    assert (3, 1) in result.cells
    assert result.times[-1] == pytest.approx(11.0)


def test_swaps_written_loosely_are_still_avoided():
    """Holds that only record arrival and departure instants leave a gap the cell rule misses."""
    grid = Grid(np.ones((2, 2), dtype=bool))
    reservations = Reservations()
    reservations.reserve("b", [((1, 0), 0.0, 1.0), ((0, 0), 2.0, 10.0)])  # b moves (1,0) -> (0,0) during [1, 2]
    assert reservations.swap_conflict((0, 0), (1, 0), 1.0, 2.0)
    assert not reservations.swap_conflict((1, 0), (0, 0), 1.0, 2.0)  # the same way: no swap
    assert not reservations.swap_conflict((0, 0), (1, 0), 1.0, 2.0, ignoring="b")
    result = find_path_in_time(grid, (0, 0), (1, 0), reservations=reservations)
    check_clear(grid, reservations, result)
    assert result.cells == [(0, 0), (0, 1), (1, 1), (1, 0)] and result.cost == pytest.approx(3.0)


def test_start_and_goal_holds():
    grid = Grid.from_ascii(CROSSING)
    reservations = Reservations()
    reserve_walk(reservations, "walker", grid, [(2, 0), (2, 1), (2, 2)], start_time=3.0, until=5.0)
    # (2, 1) is held during [3, 5]: arriving at 2 leaves one step of hold, not two.
    assert find_path_in_time(grid, (0, 1), (2, 1), reservations=reservations).cost == pytest.approx(2.0)
    late = find_path_in_time(grid, (0, 1), (2, 1), reservations=reservations, hold=2.0)
    check_clear(grid, reservations, late, hold=2.0)
    assert late.times[-1] == pytest.approx(6.0)
    # To park at (2, 2), which the walker holds during [4, 5], wait for it to pass (2, 1) first.
    parked = find_path_in_time(grid, (0, 1), (2, 2), reservations=reservations, hold=math.inf)
    check_clear(grid, reservations, parked, hold=math.inf)
    assert parked.times[-1] == pytest.approx(7.0)
    reservations.reserve("parker", [((2, 2), 6.0, math.inf)])
    taken = find_path_in_time(grid, (0, 1), (2, 2), reservations=reservations, hold=math.inf)
    assert taken.status is PathStatus.UNREACHABLE
    assert find_path_in_time(grid, (0, 1), (0, 1), reservations=reservations).cells == [(0, 1)]
    reserve_walk(reservations, "visitor", grid, [(1, 1), (0, 1)], start_time=0.0)
    away = find_path_in_time(grid, (0, 1), (0, 1), reservations=reservations, unit="me")
    assert away.status is PathStatus.START_BLOCKED  # the visitor starts entering it right now
    reserve_walk(reservations, "visitor", grid, [(1, 1), (0, 1)], start_time=0.5)
    away = find_path_in_time(grid, (0, 1), (0, 1), reservations=reservations, unit="me")
    assert away.status is PathStatus.UNREACHABLE  # it comes in at 0.5 and stays: no time to step aside


def test_a_unit_steps_aside_for_a_passing_unit():
    grid = Grid(np.ones((3, 3), dtype=bool))
    reservations = Reservations()
    reserve_walk(reservations, "visitor", grid, [(0, 1), (1, 1), (2, 1)], start_time=1.0, until=4.0)
    # (1, 1) is held during [1, 3]: free for one second from now, enough for the default hold.
    assert find_path_in_time(grid, (1, 1), (1, 1), reservations=reservations).cells == [(1, 1)]
    away = find_path_in_time(grid, (1, 1), (1, 1), reservations=reservations, hold=2.0)
    check_clear(grid, reservations, away, hold=2.0)
    assert away.cells == [(1, 1), (1, 0), (1, 0), (1, 1)] and away.times == [0.0, 1.0, 3.0, 4.0]


def test_own_reservations_are_ignored():
    grid = Grid.from_ascii(CROSSING)
    reservations = Reservations()
    reserve_walk(reservations, "me", grid, [(0, 1), (1, 1), (2, 1), (3, 1), (4, 1)])
    assert find_path_in_time(grid, (0, 1), (4, 1), reservations=reservations).status is PathStatus.START_BLOCKED
    result = find_path_in_time(grid, (0, 1), (4, 1), reservations=reservations, unit="me")
    assert result.cost == pytest.approx(4.0)


def test_limits():
    grid = Grid(np.ones((20, 20), dtype=bool))
    reservations = Reservations()
    few = find_path_in_time(grid, (0, 0), (19, 19), reservations=reservations, max_nodes=5)
    assert few.status is PathStatus.LIMIT_REACHED and few.expanded == 5
    short = find_path_in_time(grid, (0, 0), (19, 0), reservations=reservations, max_time=18.5)
    assert short.status is PathStatus.LIMIT_REACHED and short.expanded == 1
    enough = find_path_in_time(grid, (0, 0), (19, 0), reservations=reservations, max_time=19.0, speed=1.0)
    assert enough.cost == pytest.approx(19.0)
    # A wall of reservations that opens only after the time limit.
    for y in range(20):
        reservations.reserve(("wall", y), [((10, y), 0.0, 100.0)])
    too_late = find_path_in_time(grid, (0, 0), (19, 0), reservations=reservations, max_time=50.0)
    assert too_late.status is PathStatus.LIMIT_REACHED
    opened = find_path_in_time(grid, (0, 0), (19, 0), reservations=reservations)
    assert opened.times[-1] == pytest.approx(110.0)


def test_grid_statuses():
    grid = Grid.from_ascii(
        """
..#..
..#..
"""
    )
    reservations = Reservations()
    assert find_path_in_time(grid, (0, 0), (4, 0), reservations=reservations).status is PathStatus.UNREACHABLE
    assert find_path_in_time(grid, (2, 0), (0, 0), reservations=reservations).status is PathStatus.START_BLOCKED
    assert find_path_in_time(grid, (0, 0), (2, 1), reservations=reservations).status is PathStatus.GOAL_BLOCKED
    assert find_path_in_time(grid, (0, 0), (9, 0), reservations=reservations).status is PathStatus.OUT_OF_BOUNDS


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"speed": 0.0}, "speed"),
        ({"hold": -1.0}, "hold"),
        ({"max_time": 0.0}, "max_time"),
        ({"max_nodes": 0}, "max_nodes"),
    ],
)
def test_argument_errors(kwargs, message):
    grid = Grid(np.ones((2, 2), dtype=bool))
    with pytest.raises(ValueError, match=message):
        find_path_in_time(grid, (0, 0), (1, 1), reservations=Reservations(), **kwargs)


def test_reservations_table():
    reservations = Reservations()
    reservations.reserve("a", [((1, 1), 0.0, 2.0), ((2, 1), 1.0, 3.0)])
    assert "a" in reservations and "b" not in reservations
    assert not reservations.is_free((1, 1), 1.5, 2.5)
    assert reservations.is_free((1, 1), 2.0, 3.0)  # touching is not clashing
    assert reservations.is_free((1, 1), 1.0, 1.5, ignoring="a")
    assert reservations.crossings((1, 1), (2, 1)) == [(1.0, 2.0)]
    reservations.reserve("a", [((5, 5), 0.0, math.inf)])  # replaces
    assert reservations.is_free((1, 1), 0.0, 9.0) and reservations.crossings((1, 1), (2, 1)) == []
    assert not reservations.is_free((5, 5), 1e6, 1e6 + 1)
    reservations.release("a")
    reservations.release("a")
    assert reservations.is_free((5, 5), 0.0, math.inf) and "a" not in reservations
    with pytest.raises(ValueError, match="leaves"):
        reservations.reserve("a", [((0, 0), 2.0, 1.0)])
    with pytest.raises(TypeError, match="cell"):
        reservations.reserve("a", [((0.5, 0), 0.0, 1.0)])


def test_occupancy_and_arrival_times():
    cells = [(0, 0), (1, 0), (1, 0), (2, 1)]
    times = [0.0, 1.0, 3.0, 3.0 + math.sqrt(2)]
    assert occupancy(cells, times, until=9.0) == [((0, 0), 0.0, 1.0), ((1, 0), 0.0, times[3]), ((2, 1), 3.0, 9.0)]
    assert occupancy([(4, 4)], [2.0]) == [((4, 4), 2.0, math.inf)]
    grid = Grid(np.ones((2, 3), dtype=bool), cost=np.array([[1.0, 2.0, 1.0], [1.0, 1.0, 3.0]]))
    assert arrival_times(grid, [(0, 0), (1, 0), (2, 1)], start_time=1.0, speed=2.0) == pytest.approx(
        [1.0, 2.0, 2.0 + 3 * math.sqrt(2) / 2]
    )
    with pytest.raises(ValueError, match="2 cells but 1 times"):
        occupancy([(0, 0), (1, 0)], [0.0])


@st.composite
def grids_and_queries(draw, side=16, weights=True):
    passable = draw(maps(max_side=side, max_walls=0.3))
    cost = draw(costs(passable.shape, highest=3)) if weights and draw(st.booleans()) else None
    grid = Grid(passable, cost, connectivity=draw(connectivities()))
    return grid, draw(cells_of(passable)), draw(cells_of(passable)), draw(st.sampled_from([0.5, 1.0, 3.0]))


@settings(max_examples=150, deadline=None)
@given(grids_and_queries())
def test_without_reservations_it_is_find_path_in_seconds(case):
    grid, start, goal, speed = case
    expected = find_path(grid, start, goal)
    result = find_path_in_time(grid, start, goal, reservations=Reservations(), speed=speed, start_time=5.0)
    assert result.status is expected.status
    if expected:
        assert result.cost == pytest.approx(expected.cost / speed)
        assert result.times[0] == 5.0 and result.cells[0] == start and result.cells[-1] == goal
        check_clear(grid, Reservations(), result, speed=speed)


@st.composite
def crowded_queries(draw, side=16, weights=True):
    """A query among up to 8 units that hold the cells of their own walks (each from one drawn free
    cell to another, starting and lingering for drawn times)."""
    grid, start, goal, speed = draw(grids_and_queries(side, weights))
    assume(grid.is_passable(start) and grid.is_passable(goal))
    free = st.sampled_from([(int(x), int(y)) for y, x in np.argwhere(grid.passable)])
    reservations = Reservations()
    last_hold = 0.0
    for unit in range(draw(st.integers(1, 8))):
        walk = find_path(grid, draw(free), draw(free)).cells
        if not walk:
            continue
        start_time = draw(st.sampled_from([0.5, 1.0, 2.0, 4.0]))
        until = arrival_times(grid, walk, start_time=start_time)[-1] + draw(st.sampled_from([0.5, 1.0, 5.0]))
        reserve_walk(reservations, unit, grid, walk, start_time=start_time, until=until)
        last_hold = max(last_hold, until)
    return grid, start, goal, speed, reservations, draw(st.booleans()), last_hold


@settings(max_examples=150, deadline=None)
@given(crowded_queries())
def test_paths_keep_clear_of_every_reservation(case):
    grid, start, goal, speed, reservations, wait, last_hold = case
    result = find_path_in_time(grid, start, goal, reservations=reservations, speed=speed, wait=wait)
    plain = find_path(grid, start, goal)
    if result.status is PathStatus.FOUND:
        check_clear(grid, reservations, result, speed=speed)
        assert result.cost >= plain.cost / speed - EPS
        if not wait:
            assert all(a != b for a, b in zip(result.cells, result.cells[1:]))
    if wait and plain and reservations.is_free(start, 0.0, math.inf):
        # Every hold ends, so a unit whose cell nobody enters can always wait them out.
        assert result.status is PathStatus.FOUND
        assert result.times[-1] <= last_hold + plain.cost / speed + EPS


def lattice_arrival(grid, reservations, start, goal, horizon):
    """The earliest arrival (holding the goal one second) of plans made of straight one-second steps and
    half-second waits, by breadth-first search over (cell, half-seconds): plans the rules allow, found without
    SIPP, which must arrive no later."""
    standing = {0: {start}}  # half-seconds -> cells where some plan stands then
    for k in range(int(horizon * 2) + 1):
        t = k / 2
        cells = standing.pop(k, set())
        if goal in cells and reservations.is_free(goal, t, t + 1.0):
            return t
        for x, y in cells:
            if reservations.is_free((x, y), t, t + 0.5):
                standing.setdefault(k + 1, set()).add((x, y))
            for step in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if (
                    grid.is_passable(step)
                    and reservations.is_free(step, t, t + 1.0)
                    and reservations.is_free((x, y), t, t + 1.0)
                    and not reservations.swap_conflict((x, y), step, t, t + 1.0)
                ):
                    standing.setdefault(k + 2, set()).add(step)
    return None


@settings(max_examples=120, deadline=None)
@given(crowded_queries(side=7, weights=False))
def test_no_plan_on_a_time_lattice_arrives_sooner(case):
    grid, start, goal, _, reservations, _, last_hold = case
    result = find_path_in_time(grid, start, goal, reservations=reservations)
    reference = lattice_arrival(grid, reservations, start, goal, horizon=last_hold + 2 * grid.width * grid.height)
    if reference is not None:
        assert result.status is PathStatus.FOUND
        assert result.times[-1] <= reference + EPS
