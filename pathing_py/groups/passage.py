"""How a formation passes what lies on its route (SPEC F5).

A formation marching in shape has each member walk the commander's key
points at its own cell beside each: the key point plus the member's offset
from the commander. Where those cells are not all free and in sight of the
key point (a gap, a lake, a door), :func:`plan_passage` chooses, by what
fits:

1. ``"scaled"``: the offsets shrunk (down to slots one cell apart) so that
   the formation passes the gap whole;
2. ``"halved"``: members whose cells lie in the obstacle take the first free
   cell past it further out on their side of the route, so that the
   formation parts around it and closes again behind it;
3. ``"broken"``: members with no such cell file through the key point itself;
   the formation is whole again at the first key point after where it fits.

Quick start::

    >>> import numpy as np
    >>> from pathing_py import Grid
    >>> from pathing_py.groups.passage import plan_passage
    >>> grid = Grid.from_ascii('''
    ... .........
    ... ####.####
    ... .........
    ... ''')
    >>> offsets = np.array([[0, 0], [-2, 0], [2, 0]])  # a line three cells wide, two apart
    >>> passage = plan_passage(offsets, (4, -1), [(4, 0), (4, 1), (4, 2)], grid)
    >>> passage.choices, passage.aims[1].tolist()
    ([(1, 'broken')], [[4, 1], [4, 1], [4, 1]])
"""

import math
from typing import Collection, List, NamedTuple, Optional, Sequence, Set, Tuple

import numpy as np

from ..grid import Cell, Grid, passable_at, step_corners
from ..islands import label_islands
from ..line import line_cells, line_of_sight

__all__ = ["Passage", "fits_beside", "narrow_points", "plan_passage", "with_narrow_points"]

#: Scale factors tried on a formation's offsets, largest first, before it halves or breaks.
SCALES = (0.75, 0.5, 0.25)
#: Cells a member looks outwards past an obstacle in its place for a free cell, to pass it on its side.
HALVING_REACH = 8


class Passage(NamedTuple):
    """Where each member heads at each key point, and what the formation did where it did not fit."""

    aims: np.ndarray  #: (key points, members, 2) int: member i's cell at key point k
    choices: List[Tuple[int, str]]  #: (key point index, "scaled" / "halved" / "broken"), in route order


def plan_passage(offsets: np.ndarray, start: Cell, key_points: Sequence[Cell], grid: Grid, *, size: int = 1) -> Passage:
    """The members' cells at each key point for a formation whose members stand ``offsets`` (n x 2
    ints) from the commander, which walks from ``start`` through ``key_points``; see the module
    docstring for the choices. Members ``size`` cells wide: cells are their blocks' top-left cells,
    on ``grid`` of that size (:class:`~pathing_py.sized_grids.SizedGrids`), and no two blocks overlap."""
    offsets = np.asarray(offsets, dtype=np.int64).reshape(-1, 2)
    aims = np.empty((len(key_points), len(offsets), 2), dtype=np.int64)
    choices: List[Tuple[int, str]] = []
    passable = grid.passable  # (once: the grid's property makes a view each time)
    for index, point in enumerate(key_points):
        before = key_points[index - 1] if index else start
        heading = (point[0] - before[0], point[1] - before[1])
        cells, choice = _place(offsets, point, heading, grid, passable, size)
        aims[index] = cells
        if choice:
            choices.append((index, choice))
    return Passage(aims, choices)


def fits_beside(offsets: np.ndarray, point: Cell, grid: Grid, *, size: int = 1) -> bool:
    """Whether members standing ``offsets`` from ``point`` fit there whole, each in sight of it (where
    :func:`plan_passage` keeps the shape as it is)."""
    cells = np.array(point, dtype=np.int64) + np.asarray(offsets, dtype=np.int64).reshape(-1, 2)
    passable = grid.passable
    if not passable_at(passable, cells).all():
        return False
    return _fits(cells, point, grid, passable, size)


def narrow_points(offsets: np.ndarray, path: Sequence[Cell], passable: np.ndarray) -> List[int]:
    """Indices of ``path``'s cells where a formation of ``offsets`` begins not fitting, is in the middle
    of a stretch where it does not fit, and ends not fitting (a cell the line from the commander to a
    member's cell needs, under the corner rule, blocked or off the map: the sight :func:`plan_passage`
    checks): the key points a route needs besides its turns so that the formation is placed at the
    ends and in the middle of each narrow stretch (a door in a wall is a stretch's middle)."""
    if not len(path):
        return []
    swept = np.array(sorted(_swept(np.asarray(offsets, dtype=np.int64).reshape(-1, 2))), dtype=np.int64).reshape(-1, 2)
    cells = np.asarray(path, dtype=np.int64)[:, None, :] + swept[None, :, :]
    fits: np.ndarray = np.asarray(
        passable_at(passable, cells.reshape(-1, 2)).reshape(len(path), len(swept)).all(axis=1)
    )
    edges = np.flatnonzero(np.diff(np.concatenate(([True], fits, [True])).astype(np.int8)))
    points: Set[int] = set()
    for first, after in zip(edges[::2].tolist(), edges[1::2].tolist()):  # each stretch: fits[first:after] all False
        points.update((first, (first + after - 1) // 2, after - 1))
    return sorted(points)


def with_narrow_points(
    offsets: np.ndarray, start: Cell, key_points: Sequence[Cell], passable: np.ndarray
) -> Tuple[Tuple[Cell, ...], Set[Cell]]:
    """``key_points`` with the :func:`narrow_points` of the straight lines from ``start`` through them added,
    and those narrow points: a route planned before the group formed (its narrow points found for the
    members' places then) checked again for the formation's own shape, which may not fit where the unformed
    group did (a wide line crossing a thin wall slantwise fits at every key point, not between them)."""
    path = [start]
    ends = []  # the index in ``path`` of each key point
    for point in key_points:
        path.extend(line_cells(path[-1], point)[1:])
        ends.append(len(path) - 1)
    narrow = set(narrow_points(offsets, path, passable)) - {0}
    return tuple(path[i] for i in sorted(narrow | set(ends))), {path[i] for i in narrow}


def _swept(offsets: np.ndarray) -> Set[Cell]:
    """The cells, relative to the commander, that the lines to each member's cell pass or cut the corners of."""
    swept: Set[Cell] = set()
    for dx, dy in offsets.tolist():
        line = line_cells((0, 0), (dx, dy))
        swept.update(line)
        for a, b in zip(line, line[1:]):
            swept.update(step_corners(a, b))
    return swept


def _place(
    offsets: np.ndarray, point: Cell, heading: Cell, grid: Grid, passable: np.ndarray, size: int
) -> Tuple[np.ndarray, str]:
    """The members' cells at one key point, and the choice made there ("" where the shape fits)."""
    origin = np.array(point, dtype=np.int64)
    whole = origin + offsets
    if _fits(whole, point, grid, passable, size):
        return whole, ""
    for scale in SCALES:
        shrunk = origin + np.rint(offsets * scale).astype(np.int64)
        if _spaced(offsets * scale, size) and _fits(shrunk, point, grid, passable, size):
            return shrunk, "scaled"
    cells = whole.copy()
    choice = "halved"
    taken: Set[Cell] = set()
    for member in range(len(offsets)):
        cell: Cell = (int(whole[member, 0]), int(whole[member, 1]))
        if not _usable(cell, point, grid, passable) or _overlaps(cell, taken, size):
            beyond = _past_the_obstacle(cell, point, offsets[member], heading, grid, taken, size)
            if beyond is None:
                beyond, choice = point, "broken"
            cell = beyond
        cells[member] = cell
        taken.add(cell)
    return cells, choice


def _fits(cells: np.ndarray, point: Cell, grid: Grid, passable: np.ndarray, size: int) -> bool:
    """Every cell free, in sight of the key point, and no two blocks of ``size`` there overlapping."""
    pairs = [(x, y) for x, y in cells.tolist()]
    return _apart(pairs, size) and (
        _in_open_ground(cells, point, passable) or all(_usable(cell, point, grid, passable) for cell in pairs)
    )


def _in_open_ground(cells: np.ndarray, point: Cell, passable: np.ndarray) -> bool:
    """Whether the box around ``cells`` (n x 2) and ``point`` is free and on the map: every line from the point to
    a cell (its corners too) stays in that box, so each is clear, and one test of the box answers for them all
    (most key points of a route lie in open ground: lines drawn one by one cost a group's plan tens of milliseconds)."""
    box = np.vstack((cells, np.asarray(point, dtype=np.int64).reshape(1, 2)))  # (the point alone: no member but it)
    (left, top), (right, bottom) = box.min(axis=0), box.max(axis=0) + 1
    height, width = passable.shape
    return bool(
        left >= 0 and top >= 0 and right <= width and bottom <= height and passable[top:bottom, left:right].all()
    )


def _apart(pairs: List[Cell], size: int) -> bool:
    """Whether no two blocks of ``size`` at ``pairs`` (top-left cells) overlap."""
    return (
        len(set(pairs)) == len(pairs)
        if size == 1
        else not any(_overlaps(cell, pairs[:i], size) for i, cell in enumerate(pairs))
    )


def _overlaps(cell: Cell, others: Collection[Cell], size: int) -> bool:
    """Whether the block of ``size`` whose top-left cell is ``cell`` overlaps one at any of ``others``."""
    if size == 1:
        return cell in others
    return any(abs(cell[0] - x) < size and abs(cell[1] - y) < size for x, y in others)


def _usable(cell: Cell, point: Cell, grid: Grid, passable: np.ndarray) -> bool:
    """Whether ``cell`` is free and in sight of ``point`` (``passable``: the grid's): the box of the two free is sight
    enough (the line and the corners it needs lie in it, see :func:`_in_open_ground`), one slice for a line's walk."""
    (x, y), (px, py), (height, width) = cell, point, passable.shape
    if not (0 <= x < width and 0 <= y < height and 0 <= px < width and 0 <= py < height and passable.item(y, x)):
        return False
    (left, right), (top, bottom) = sorted((x, px)), sorted((y, py))
    return bool(passable[top : bottom + 1, left : right + 1].all()) or line_of_sight(grid, point, cell)


def _spaced(offsets: np.ndarray, size: int) -> bool:
    """Whether scaled offsets keep every two members at least ``size`` cells (a member's width) apart."""
    if len(offsets) < 2:
        return True
    gaps = np.hypot(*(offsets[:, None, :] - offsets[None, :, :]).transpose(2, 0, 1))
    return bool(gaps[~np.eye(len(offsets), dtype=bool)].min() >= size - 1e-9)


def _past_the_obstacle(
    cell: Cell, point: Cell, offset: np.ndarray, heading: Cell, grid: Grid, taken: Set[Cell], size: int
) -> Optional[Cell]:
    """From the member's ``cell``, outwards across the route (away from the key point, on the member's
    side of it), the first free cell not ``taken`` within HALVING_REACH that the key point's island
    reaches by a way round within HALVING_REACH of both: the member goes round the obstacle on its own
    side (not across a wall to ground that only a long way round reaches). None for a member on the
    route's line (it has no side) or without such a cell."""
    hx, hy = heading
    side = hx * int(offset[1]) - hy * int(offset[0])  # > 0: right of the heading (y grows downwards)
    if side == 0 or (hx == 0 and hy == 0):
        return None
    out = (-hy, hx) if side > 0 else (hy, -hx)
    norm = math.hypot(*out)
    for step in range(1, HALVING_REACH + 1):
        beyond = (cell[0] + int(round(out[0] * step / norm)), cell[1] + int(round(out[1] * step / norm)))
        if not _overlaps(beyond, taken, size) and grid.is_passable(beyond) and _way_round(grid, point, beyond):
            return beyond
    return None


def _way_round(grid: Grid, point: Cell, beyond: Cell) -> bool:
    """Whether a path from ``point`` to ``beyond`` stays within HALVING_REACH cells of both: whether the two lie on
    one island of the box that far round them (islands are the 4-connected components under the corner rule, see
    :mod:`~pathing_py.islands`; labelling the box costs a tenth of a search that floods it where there is none)."""
    if not grid.same_island(point, beyond):
        return False
    left, top = max(min(point[0], beyond[0]) - HALVING_REACH, 0), max(min(point[1], beyond[1]) - HALVING_REACH, 0)
    right, bottom = max(point[0], beyond[0]) + HALVING_REACH + 1, max(point[1], beyond[1]) + HALVING_REACH + 1
    labels, _ = label_islands(grid.passable[top:bottom, left:right])
    return bool(labels[point[1] - top, point[0] - left] == labels[beyond[1] - top, beyond[0] - left])
