"""Where a unit will be over the next moments (SPEC U6), read off the cells it holds and its routes.

Units walk from cell centre to cell centre along the routes of their path
stacks, so a unit under way will be on the polyline through the centres of
the cell it moves into and the cells its routes have left, at its speed now,
unless other units stop it; a unit that waits, plans or stands stays put.
Games and the NavGrid's debug drawing (SPEC E4) read this; the navigator
itself settles collisions cell by cell as units take cells (SPEC U5: the
cells a unit holds are its immediate prediction).

    >>> from pathing_py import Grid
    >>> from pathing_py.units import Navigator
    >>> from pathing_py.units.prediction import predicted_positions
    >>> navigator = Navigator(Grid.from_ascii("........"))
    >>> unit = navigator.add_unit((0.5, 0.5), speed=2.0)
    >>> unit.move_to((7, 0))
    >>> navigator.update(0.25)
    >>> [(t, (round(x, 2), y)) for t, (x, y) in predicted_positions(unit, horizon=1.0, step=0.5)]
    [(0.0, (1.0, 0.5)), (0.5, (2.0, 0.5)), (1.0, (3.0, 0.5))]
"""

from typing import List, Tuple

import numpy as np

from ..clearance import block_centre
from ..grid import Cell
from .path_stack import RouteKind
from .unit import Unit, UnitState

__all__ = ["PREDICTION_HORIZON", "PREDICTION_STEP", "cells_ahead", "predicted_positions", "route_cells"]

#: Seconds ahead, and between two predicted positions, that the debug drawing shows.
PREDICTION_HORIZON = 1.0
PREDICTION_STEP = 0.25

Position = Tuple[float, float]


def route_cells(unit: Unit) -> List[Cell]:
    """The cells the unit's cell routes still take it through, next first: detours, then the current leg.
    With a key-point graph the legs past the next key point are planned once the unit gets there, so
    they are not here (the key points are ``unit.stack.find(RouteKind.HIGH_LEVEL)``'s remaining waypoints)."""
    routes = reversed(list(unit.stack))
    return [cell for route in routes if route.kind is not RouteKind.HIGH_LEVEL for cell in route.remaining]


def cells_ahead(unit: Unit) -> List[Cell]:
    """The cells the unit will walk through, in order: the one it moves into, then :func:`route_cells`."""
    return ([unit.next_cell] if unit.next_cell is not None else []) + route_cells(unit)


def predicted_positions(
    unit: Unit, horizon: float = PREDICTION_HORIZON, step: float = PREDICTION_STEP
) -> List[Tuple[float, Position]]:
    """(seconds from now, position) every ``step`` seconds from now to ``horizon``: along :func:`cells_ahead`
    at the unit's speed now if it is under way (MOVING or RUN), where it is otherwise."""
    if not (step > 0 and horizon >= 0):
        raise ValueError(f"step must be > 0 and horizon >= 0 seconds, got {step!r} and {horizon!r}")
    times = np.arange(0.0, horizon + step / 2, step)
    if unit.state not in (UnitState.MOVING, UnitState.RUN):
        return [(float(t), unit.position) for t in times]
    points = np.array([unit.position] + [block_centre(cell, unit.size) for cell in cells_ahead(unit)])
    along = np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(points, axis=0).T))])
    walked = times * unit.current_speed
    xs, ys = np.interp(walked, along, points[:, 0]), np.interp(walked, along, points[:, 1])
    return [(float(t), (float(x), float(y))) for t, x, y in zip(times, xs, ys)]
