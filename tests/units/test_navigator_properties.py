"""Properties of the navigator on drawn rooms, crowds, orders and update deltas (issue 12).

Whatever the map, the orders and the frame times: no two units ever overlap, no
unit's circle enters a wall, no unit moves further in an update than its speed
allows, every order ends (no unit is left moving forever), each final state
says the truth about the map, and the same input gives the same run.
"""

import numpy as np
from hypothesis import HealthCheck, example, given, settings

from pathing_py import KeyPointGraph
from pathing_py.clearance import block_at
from pathing_py.units import Navigator, UnitState
from pathing_py.units.unit import FINAL_STATES
from tests.support.navigator_properties import STEADY_DELTA, TIME_LIMIT, Restless, crowds, run

#: Found by CI: unit 7 gives up waiting for (0, 0), its goal, and is pushed onto it later (it arrived after all).
PUSHED_ONTO_ITS_GOAL = (
    np.array([[1, 1, 1], [1, 1, 1], [1, 1, 1], [1, 0, 0]], dtype=bool),
    np.array([[0, 0], [1, 0], [2, 1], [0, 2], [1, 2], [0, 1], [2, 0], [1, 1]]),
    [(0, 0), (0, 0), (0, 0), (0, 0), (0, 1), (0, 1), (0, 0), (0, 3)],
    np.ones(8),
    np.full(8, 0.5),
    np.array([0.00390625]),
)

#: Found with radius 1 drawn: jams round the tank (unit 7, which plans do not move) were planned for ever.
JAM_ROUND_A_TANK = (
    np.array([[1] * 8, [1] * 8, [1, 1, 1, 1, 1, 0, 0, 1]], dtype=bool),
    np.array([[5, 1], [4, 0], [2, 2], [0, 2], [6, 0], [6, 1], [2, 0], [3, 2]]),
    [(0, 1), (0, 0), (3, 0), (3, 0), (0, 1), (0, 0), (0, 0), (2, 2)],
    np.array([8.0, 1.0, 1.0, 1.0, 8.0, 1.0, 1.0, 8.0]),
    np.array([0.1, 0.1, 0.5, 0.5, 0.5, 0.5, 1.0, 0.5]),
    np.array([0.29172205, 0.13215174, 0.48851749]),
)

#: Found by CI's seeds: a small unit (7, radius 0.3) followed unit 5 into a cell and stepped back out of it while
#: unit 5 still reached into it; the cell kept one leaver, the second, and unit 4 came in against unit 5.
TWO_LEAVING_ONE_CELL = (
    np.array([[True] * 5, [True, True, False, True, True]] + [[True] * 5] * 8),
    np.array([[0, 3], [0, 2], [1, 2], [2, 2], [4, 2], [3, 1], [0, 1], [3, 0]]),
    [(0, 0), (0, 0), (0, 0), (0, 0), (2, 0), (1, 0), (0, 0), (0, 4)],
    np.array([1.0, 1.0, 1.0, 1.0, 8.0, 1.0, 1.0, 4.0]),
    np.array([0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.3]),
    np.array([0.375]),
)

#: Found by a clean checkout's run: unit 3 ended ARRIVED on unit 5's goal, and unit 5, standing on unit 3's goal,
#: waited for it for good: an order that never ended (issue 43 item 2).
EACH_ON_THE_OTHERS_GOAL = (
    np.array([[True] * 5 + [False], [True] * 6, [True] * 6]),
    np.array([[0, 2], [2, 2], [3, 0], [4, 1], [3, 1], [5, 2], [3, 2], [1, 0]]),
    [(2, 2), (2, 2), (3, 0), (0, 2), (4, 0), (0, 0), (0, 0), (4, 1)],
    np.array([2.5, 2.5, 2.5, 2.5, 1.0, 8.0, 4.0, 8.0]),
    np.array([0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 1.0]),
    np.array([0.13766102, 0.11699236, 0.5, 0.30728914, 0.20412057, 0.38842177]),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(crowds())
@example(EACH_ON_THE_OTHERS_GOAL)
@example(PUSHED_ONTO_ITS_GOAL)
@example(JAM_ROUND_A_TANK)
@example(TWO_LEAVING_ONE_CELL)
def test_units_never_overlap_nor_enter_walls_and_every_order_ends_truthfully(crowd):
    navigator, units, _, arrived_at = run(crowd)
    for unit, goal, start in zip(units, crowd[2], crowd[1].tolist()):
        assert unit.state in FINAL_STATES, f"{unit} still {unit.state.name} after {navigator.time:.0f} s"
        if unit.state is UnitState.ARRIVED:  # it got there (and may have made way for a unit passing since)
            assert arrived_at.get(unit.id) == goal, f"{unit} said it arrived at {arrived_at.get(unit.id)}"
        elif unit.state is UnitState.UNREACHABLE:  # the map cuts the goal off (for the unit's size)
            grid = navigator.grid_of(unit)
            assert not (grid.is_passable(goal) and grid.same_island(tuple(start), goal)) and unit.reason, unit.reason
        else:  # HELD_UP: units kept the way to the goal (or to the reachable cell nearest it) shut; it says which
            assert unit.reason and unit.cell != goal, unit.reason
        assert block_at(unit.position, unit.size) == unit.cell


def with_graph(grid, **settings):
    """A navigator planning on a key-point graph (small clusters for the small rooms): units on their own take
    turns through the rooms' narrow passages (pathing_py.units.narrows)."""
    return Navigator(grid, KeyPointGraph.bake(grid, cluster_size=4), **settings)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(crowds())
def test_units_taking_turns_at_passages_end_every_order_and_let_go_of_every_turn(crowd):
    navigator, units, _, _ = run(crowd, with_graph)
    assert all(unit.state in FINAL_STATES for unit in units), [unit for unit in units if unit.state not in FINAL_STATES]
    settled = navigator.time + 60.0
    while (
        not navigator.at_rest and navigator.time < settled
    ):  # (units held up for now go on, off their goals walk back)
        navigator.update(STEADY_DELTA)
    assert navigator.narrows.holds_nothing() or not navigator.at_rest  # at rest, no unit keeps a turn


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(crowds())
def test_the_same_crowd_and_deltas_give_the_same_run(crowd):
    _, first_units, first, _ = run(crowd)
    _, second_units, second, _ = run(crowd)
    assert len(first) == len(second) and all(np.array_equal(a, b) for a, b in zip(first, second))
    assert [(u.state, u.reason) for u in first_units] == [(u.state, u.reason) for u in second_units]


#: Seconds a run goes on after every order ended: for units off their goals to walk back, held-up ones to
#: go on, and the world to come to rest.
AFTER_ORDERS = 30.0


#: Two units crossing an empty room: the world comes to rest once both arrived.
CROSSING_A_ROOM = (
    np.ones((4, 5), dtype=bool),
    np.array([[0, 0], [4, 3]]),
    [(4, 0), (0, 3)],
    np.array([1.0, 2.5]),
    np.array([0.5, 0.3]),
    np.array([0.1]),
)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(crowds())
@example(PUSHED_ONTO_ITS_GOAL)
@example(CROSSING_A_ROOM)
def test_a_world_at_rest_moves_as_one_whose_every_update_does_the_whole_work(crowd):
    """Updates at rest only advance the clock (``Navigator.at_rest``): the same moves as without, after
    every order ended, and once orders wake the world again."""
    traces, rested = [], []
    for navigator_class in (Navigator, Restless):
        navigator, units, trace, _ = run(crowd, navigator_class)
        ends = navigator.time + AFTER_ORDERS
        while navigator.time < ends:
            navigator.update(STEADY_DELTA)
            trace.append(np.array([unit.position for unit in units]))
        rested.append(navigator.at_rest)
        for unit, start in zip(units, crowd[1].tolist()):
            unit.move_to(tuple(start))
        while navigator.time < ends + TIME_LIMIT and not all(unit.state in FINAL_STATES for unit in units):
            navigator.update(STEADY_DELTA)
            trace.append(np.array([unit.position for unit in units]))
        traces.append((trace, [(unit.state, unit.reason, unit.cell) for unit in units], navigator.events()))
    (first, first_ends, first_events), (second, second_ends, second_events) = traces
    assert len(first) == len(second) and all(np.array_equal(a, b) for a, b in zip(first, second))
    assert first_ends == second_ends and first_events == second_events
    assert rested[1] is False and (rested[0] or crowd is not CROSSING_A_ROOM)
