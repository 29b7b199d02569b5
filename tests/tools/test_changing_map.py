"""pathing_py.tools.changing_map: the seeded orders and the walls on routes that the demo and bench/bench_units.py
share."""

import random

import numpy as np
import pytest

from pathing_py import Grid, Navigator, UnitState, find_path
from pathing_py.tools.changing_map import FINAL_STATES, drop_wall, free_cells, give_orders, update_ms
from pathing_py.units import unit as unit_module


def open_navigator(width: int, height: int) -> Navigator:
    return Navigator(Grid(np.ones((height, width), dtype=bool)))


def test_final_states_are_the_units_in_the_order_of_their_enum():
    assert FINAL_STATES == (UnitState.ARRIVED, UnitState.HELD_UP, UnitState.UNREACHABLE)
    assert set(FINAL_STATES) == unit_module.FINAL_STATES


def test_free_cells_are_the_passable_ones_row_by_row():
    grid = Grid.from_ascii(".#.\n..#")
    assert free_cells(grid) == [(0, 0), (2, 0), (0, 1), (1, 1)]


def test_orders_are_seeded_on_distinct_cells_with_their_optimal_length():
    navigators = [open_navigator(10, 6) for _ in range(3)]
    first, again, other = (give_orders(navigator, 5, seed, 3.0) for navigator, seed in zip(navigators, (7, 7, 8)))
    cells = [(order.start, order.goal) for order in first]
    assert cells == [(order.start, order.goal) for order in again] != [(order.start, order.goal) for order in other]
    assert len({cell for pair in cells for cell in pair}) == 10
    for order in first:
        assert order.unit.position == (order.start[0] + 0.5, order.start[1] + 0.5) and order.unit.goal == order.goal
        assert order.unit.speed == 3.0
        assert order.optimal == pytest.approx(find_path(navigators[0].grid, order.start, order.goal).cost)


def test_too_few_free_cells_for_the_orders_is_an_error():
    with pytest.raises(ValueError, match="3 units need 6 free cells .* the map has 4"):
        give_orders(open_navigator(2, 2), 3, 1, 4.0)


def test_a_wall_goes_up_square_to_the_route_ahead_of_the_unit():
    navigator = open_navigator(8, 3)
    walker = navigator.add_unit((0.5, 1.5), speed=4.0)
    walker.move_to((7, 1))
    navigator.update(0.05)
    wall = drop_wall(navigator, random.Random(1), ahead=3, length=3)
    assert wall is not None and wall.unit is walker
    assert wall.cells == [(4, 0), (4, 1), (4, 2)] and wall.refused == []
    assert not any(navigator.grid.is_passable(cell) for cell in wall.cells)


def test_a_diagonal_step_gets_a_diagonal_wall():
    navigator = open_navigator(8, 8)
    walker = navigator.add_unit((0.5, 0.5), speed=4.0)
    walker.move_to((7, 7))
    navigator.update(0.05)
    wall = drop_wall(navigator, random.Random(1), ahead=2, length=3)
    assert wall is not None and wall.cells == [(4, 2), (3, 3), (2, 4)]


def test_cells_held_by_units_are_refused_and_stay_open():
    navigator = open_navigator(8, 3)
    walker = navigator.add_unit((0.5, 1.5), speed=4.0)
    walker.move_to((7, 1))
    navigator.add_unit((4.5, 0.5), speed=4.0)  # stands where the wall's first cell goes
    navigator.update(0.05)
    wall = drop_wall(navigator, random.Random(1), ahead=3, length=3)
    assert wall is not None and wall.refused == [(4, 0)]
    assert navigator.grid.is_passable((4, 0)) and not navigator.grid.is_passable((4, 2))


def test_no_wall_without_a_walking_unit_that_far_from_its_goal():
    navigator = open_navigator(8, 3)
    walker = navigator.add_unit((0.5, 1.5), speed=4.0)
    walker.move_to((7, 1))
    assert drop_wall(navigator, random.Random(1), ahead=3, length=3) is None  # not planned yet
    navigator.update(0.05)
    assert drop_wall(navigator, random.Random(1), ahead=7, length=3) is None  # fewer steps left than that
    assert navigator.grid.passable.all()


def test_update_times_are_mean_p99_and_longest():
    navigator = open_navigator(4, 4)
    navigator.stats.update_seconds.extend([0.001] * 99 + [0.101])
    mean, p99, longest = update_ms(navigator)
    assert mean == pytest.approx(2.0) and 1.0 < p99 < 101.0 and longest == pytest.approx(101.0)
