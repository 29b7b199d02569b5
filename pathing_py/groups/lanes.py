"""Groups keep to the right of their way (SPEC F1).

The key-point graph sends every route between two areas through the same
key points, a cell off the corner of the wall between them. Groups going
opposite ways round that corner meet head-on on one line, each member's way
held by the other group's members, with open ground beside them: in
``bench/bench_groups.py --seeds 1-8`` (1,000 units in 50 groups on
AR0011SR), large knots of units stood for minutes at two such corners.
With each key point moved to the right of the way, by up to the group's half
width and a cell, to where the group fits, the streams pass each other side
by side, as traffic does; where a wall is on the right, the point stays at
the corner. (Every order of those runs then ended in about half the time.)

Quick start::

    >>> from pathing_py import Grid
    >>> from pathing_py.groups.lanes import keep_right
    >>> grid = Grid.from_ascii('''
    ... ##########
    ... ..........
    ... ..........
    ... ..........
    ... ..........
    ... ..........
    ... ..........
    ... ''')
    >>> line_of_three = [(0, -1), (0, 0), (0, 1)]  # a group one cell either side of its commander
    >>> keep_right(((4, 3),), (0, 3), (9, 3), grid, line_of_three)  # heading east: 2 cells down
    ((4, 5),)
    >>> keep_right(((4, 3),), (9, 3), (0, 3), grid, line_of_three)  # heading west: up, as far as it fits
    ((4, 2),)
"""

import math
from typing import Collection, Sequence, Tuple

import numpy as np

from ..grid import Cell, Grid, passable_at
from ..line import line_of_sight
from .passage import fits_beside

__all__ = ["keep_right"]


def keep_right(
    key_points: Sequence[Cell],
    start: Cell,
    goal: Cell,
    grid: Grid,
    offsets: np.ndarray,
    *,
    size: int = 1,
    fixed: Collection[Cell] = (),
) -> Tuple[Cell, ...]:
    """``key_points`` of a route from ``start`` to ``goal``, each moved to the right of the way through it
    (from the point before it to the one after it, as the route was planned) along a straight line of free
    cells of ``grid``, by up to the group's half width across that way plus one cell: to the farthest cell
    there where the group fits whole (:func:`~pathing_py.groups.passage.fits_beside`; a formation passes in
    shape where it did, and one that did not fit beside a point by a wall may fit once moved out from it).
    A point stays where the group fits nowhere on that line (before a door, in a narrow passage).
    ``offsets``: the members' places around the commander (n x 2 cells), which walks the points; ``size``:
    their blocks' side, on ``grid`` of that size. Points in ``fixed`` stay: where the group was found not to
    fit on its way (:func:`~pathing_py.groups.passage.narrow_points`), the place it fits beside may lie
    across a thin wall from the way, and moving there would take the check away from where it is needed."""
    places = np.asarray(offsets, dtype=np.int64).reshape(-1, 2)
    points = [start, *key_points, goal]
    return tuple(point if point in fixed else _moved_right(point, before, after, grid, places, size)
                 for before, point, after in zip(points, points[1:], points[2:]))  # fmt: skip


def _moved_right(point: Cell, before: Cell, after: Cell, grid: Grid, places: np.ndarray, size: int) -> Cell:
    """``point`` moved as :func:`keep_right` says, on the way from ``before`` to ``after``."""
    dx, dy = after[0] - before[0], after[1] - before[1]
    length = math.hypot(dx, dy)
    if length == 0:
        return point
    rx, ry = -dy / length, dx / length  # the right of the way (y grows downward)
    reach = math.floor(float(np.abs(places @ (rx, ry)).max(initial=0.0))) + 1
    x, y = point
    steps = [(x + round(step * rx), y + round(step * ry)) for step in range(1, reach + 1)]
    (left, right), (top, bottom) = sorted((x, steps[-1][0])), sorted((y, steps[-1][1]))
    if (
        left >= 0
        and top >= 0
        and right < grid.width
        and bottom < grid.height
        and grid.passable[top : bottom + 1, left : right + 1].all()
    ):
        line = steps  # open ground: every step is free and in sight (one test of the box, not a line a step)
    else:
        line = []
        for cell in steps:
            if not (grid.is_passable(cell) and line_of_sight(grid, point, cell)):
                break
            line.append(cell)
    if not line:
        return point
    members = (np.array(line, dtype=np.int64)[:, None, :] + places[None, :, :]).reshape(-1, 2)
    free = passable_at(grid.passable, members).reshape(len(line), -1).all(axis=1)  # (every member's cell at once)
    return next(
        (
            line[index]
            for index in reversed(np.flatnonzero(free).tolist())
            if fits_beside(places, line[index], grid, size=size)
        ),
        point,
    )
