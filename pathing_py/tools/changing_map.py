"""Units ordered across a map that changes under them: seeded orders, and walls put up across their routes.

``pathing-py demo`` draws this run and ``bench/bench_units.py`` measures it
(issue 4): units on distinct free cells each ordered to another, walls dropped
a few steps in front of walking units, then how each order ended::

    >>> import random
    >>> import numpy as np
    >>> from pathing_py import Grid, Navigator
    >>> from pathing_py.tools.changing_map import FINAL_STATES, drop_wall, give_orders
    >>> navigator = Navigator(Grid(np.ones((5, 12), dtype=bool)))
    >>> orders = give_orders(navigator, 2, seed=3, speed=4.0)
    >>> [(order.start, order.goal) for order in orders]
    [((3, 1), (10, 2)), ((1, 3), (8, 0))]
    >>> navigator.update(0.05)
    >>> wall = drop_wall(navigator, random.Random(1), ahead=2, length=3)
    >>> wall.unit.id, wall.cells, wall.refused
    (1, [(6, 1), (6, 2), (6, 3)], [])
    >>> while any(order.unit.state not in FINAL_STATES for order in orders):
    ...     navigator.update(0.05)
    >>> [order.unit.state.value for order in orders]
    ['ARRIVED', 'ARRIVED']
"""

import random
from typing import List, NamedTuple, Optional, Tuple

import numpy as np

from ..grid import Cell, Grid
from ..search import find_path
from ..units import Navigator, Unit, UnitState
from ..units import unit as unit_module
from ..units.prediction import route_cells

__all__ = ["FINAL_STATES", "Order", "Wall", "drop_wall", "free_cells", "give_orders", "update_ms"]

#: The states a unit's order ends in, in the order reports list them.
FINAL_STATES = tuple(state for state in UnitState if state in unit_module.FINAL_STATES)  #: in the order printed


def free_cells(grid: Grid) -> List[Cell]:
    """The passable cells, row by row."""
    return [(int(x), int(y)) for y, x in zip(*grid.passable.nonzero())]


class Order(NamedTuple):
    """A unit's order as it was given: from where, to where, and the optimal length then (None: no path then)."""

    unit: Unit
    start: Cell
    goal: Cell
    optimal: Optional[float]


def give_orders(navigator: Navigator, count: int, seed: int, speed: float) -> List[Order]:
    """``count`` new units on distinct free cells, each ordered to another distinct free cell; the same for
    the same seed."""
    grid = navigator.grid
    free = free_cells(grid)
    if len(free) < 2 * count:
        raise ValueError(
            f"{count} units need {2 * count} free cells (one to start on, one to go to), the map has {len(free)}"
        )
    cells = random.Random(seed).sample(free, 2 * count)
    orders = []
    for start, goal in zip(cells[:count], cells[count:]):
        unit = navigator.add_unit((start[0] + 0.5, start[1] + 0.5), speed=speed)
        unit.move_to(goal)
        found = find_path(grid, start, goal)
        orders.append(Order(unit, start, goal, found.cost if found else None))
    return orders


class Wall(NamedTuple):
    """A wall put up across a unit's route: the cells asked for, and those refused because units held them."""

    unit: Unit
    cells: List[Cell]
    refused: List[Cell]


def drop_wall(navigator: Navigator, rng: random.Random, ahead: int, length: int) -> Optional[Wall]:
    """Block up to ``length`` open cells across the route of a walking unit picked with ``rng``, ``ahead``
    steps in front of it.

    The wall is square to the route's step there, so a diagonal step gets a
    diagonal wall (which units cannot slip through: no corner cutting). None
    when no walking unit has that many planned steps left.
    """
    routes = [
        (unit, [unit.anchor] + route_cells(unit)) for unit in sorted(navigator.units.values(), key=lambda unit: unit.id)
    ]
    walking = [(unit, route) for unit, route in routes if unit.state not in FINAL_STATES and len(route) > ahead + 1]
    if not walking:
        return None
    unit, route = rng.choice(walking)
    (x0, y0), (x, y) = route[ahead - 1], route[ahead]
    dx, dy = x - x0, y - y0
    cells = [(x - dy * i, y + dx * i) for i in range(-(length // 2), length - length // 2)]
    cells = [
        cell for cell in cells if navigator.grid.in_bounds(cell) and navigator.grid.is_passable(cell)
    ]  # (not the walls beside a way)
    return Wall(unit, cells, navigator.set_blocked(cells))


def update_ms(navigator: Navigator) -> Tuple[float, float, float]:
    """Mean, 99th percentile and longest wall time of the navigator's updates so far, in ms."""
    times = np.asarray(navigator.stats.update_seconds) * 1000
    return float(times.mean()), float(np.percentile(times, 99)), float(times.max())
