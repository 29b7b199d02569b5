"""Jump distances for Jump Point Search (JPS+) under the no-corner-cutting rule.

For every cell and each of the 8 directions the table says how far a search
may jump from that cell in one go:

- ``k > 0``: the first jump point in that direction is ``k`` steps away;
- ``k <= 0``: there is none; ``-k`` free steps lead up to a wall.

Jump points (no corner cutting): moving straight, a cell is one when a side
cell is free while the side cell behind it is blocked (that side cell can
only be reached optimally through here). Moving diagonally, a cell is one
when a straight jump from it (along either component) finds a jump point.
Diagonal moves have no forced neighbours of their own under this rule.

The tables are built with numpy over a grid padded with one blocked cell on
every side, so the search never checks bounds. Directions are numbered
clockwise from north: 0 N, 1 NE, 2 E, 3 SE, 4 S, 5 SW, 6 W, 7 NW.
"""

from typing import List, Tuple

import numpy as np

__all__ = ["DIRECTIONS", "JumpTables", "pad"]

#: (dx, dy) of each direction; even numbers are straight, odd diagonal.
DIRECTIONS = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))


def pad(passable: np.ndarray) -> np.ndarray:
    """``passable`` with a blocked border one cell wide."""
    padded = np.zeros((passable.shape[0] + 2, passable.shape[1] + 2), dtype=bool)
    padded[1:-1, 1:-1] = passable
    return padded


def _frame(array: np.ndarray, dx: int, dy: int) -> np.ndarray:
    """A view in which direction (dx, dy) is east (straight) or north-east (diagonal)."""
    if dx == 0:  # north or south: transpose so that the move runs along rows
        array = array.T
        dx, dy = dy, 0
    if dx < 0:
        array = array[:, ::-1]
    if dy > 0:
        array = array[::-1, :]
    return array


def _unframe(array: np.ndarray, dx: int, dy: int) -> np.ndarray:
    """The inverse of :func:`_frame`: back to the grid's own orientation."""
    flip_x, flip_y = (dy < 0, False) if dx == 0 else (dx < 0, dy > 0)
    if flip_y:
        array = array[::-1, :]
    if flip_x:
        array = array[:, ::-1]
    return array.T if dx == 0 else array


def _straight_east(passable: np.ndarray) -> np.ndarray:
    """Jump distances eastwards (see module docstring), for every cell."""
    passable = np.ascontiguousarray(passable)  # the frames are strided views: copy once, not per operation
    height, width = passable.shape
    behind_north = np.zeros_like(passable)
    behind_south = np.zeros_like(passable)
    behind_north[1:, 1:] = ~passable[:-1, :-1]
    behind_south[:-1, 1:] = ~passable[1:, :-1]
    north = np.zeros_like(passable)
    south = np.zeros_like(passable)
    north[1:] = passable[:-1]
    south[:-1] = passable[1:]
    forced = passable & ((north & behind_north) | (south & behind_south))
    event = forced | ~passable
    columns = np.arange(width, dtype=np.int32)
    position = np.where(event, columns, np.int32(width))
    # First event at or after each column, then strictly after.
    at_or_after = np.minimum.accumulate(position[:, ::-1], axis=1)[:, ::-1]
    after = np.full_like(at_or_after, width)
    after[:, :-1] = at_or_after[:, 1:]
    steps = after - columns
    hit_free = np.take_along_axis(passable, np.minimum(after, width - 1), axis=1) & (after < width)
    distance = np.where(hit_free, steps, -(steps - 1))
    distance[~passable] = 0
    return distance


def _diagonal_north_east(
    passable: np.ndarray, east: np.ndarray, north: np.ndarray, distance: np.ndarray, row_start: int, column_end: int
) -> None:
    """Write jump distances north-eastwards into ``distance``, rows ``row_start`` and below, columns before ``column_end``.

    A cell's distance follows from the cell diagonally ahead (one row up, one
    column right), so rows are done top to bottom; the cells outside the
    window must already be right. A change at one cell can only alter cells
    south-west of it, which is what lets an edit refresh a window only.
    """
    height, width = passable.shape
    row_start = max(row_start, 1)
    column_end = min(column_end, width - 1)
    if row_start >= height or column_end <= 0:
        return
    ahead_columns = slice(1, column_end + 1)
    jump_point = (east[row_start - 1 : -1, ahead_columns] > 0) | (north[row_start - 1 : -1, ahead_columns] > 0)
    # A diagonal step from (y, x) needs (y, x), (y, x+1), (y-1, x) and (y-1, x+1) free.
    here, above = passable[row_start:], passable[row_start - 1 : -1]
    step_ok = here[:, :column_end] & here[:, ahead_columns] & above[:, :column_end] & above[:, ahead_columns]
    for i, y in enumerate(range(row_start, height)):
        ahead = distance[y - 1, ahead_columns]
        onward = np.where(ahead > 0, ahead + 1, ahead - 1)
        distance[y, :column_end] = np.where(step_ok[i], np.where(jump_point[i], 1, onward), 0)


def _frame_cells(xs: np.ndarray, ys: np.ndarray, shape: Tuple[int, int], dx: int, dy: int):
    """Where cells (x, y) of an array of ``shape`` land in ``_frame(array, dx, dy)``, as (rows, columns)."""
    height, width = shape
    rows, columns = ys, xs
    if dx == 0:
        rows, columns, height, width = columns, rows, width, height
        dx, dy = dy, 0
    if dx < 0:
        columns = width - 1 - columns
    if dy > 0:
        rows = height - 1 - rows
    return rows, columns


class JumpTables:
    """The eight jump-distance tables of one padded grid.

    The search reads them one entry at a time through memoryviews of the
    numpy arrays: far faster than numpy scalar indexing, without the memory
    of Python lists. Edits rewrite the arrays in place, only where an edit
    can have changed them: the rows and columns next to it for straight
    moves, and for each diagonal the quarter of the map behind the edit.
    """

    def __init__(self, passable: np.ndarray):
        self.padded = pad(passable)
        self.width = self.padded.shape[1]
        self.arrays = [np.zeros(self.padded.shape, dtype=np.int32) for _ in DIRECTIONS]
        self.tables: List[memoryview] = [array.reshape(-1).data for array in self.arrays]
        self.passable = self.padded.reshape(-1).data
        height, width = self.padded.shape
        self._refresh_window(np.array([0, width - 1]), np.array([0, height - 1]))

    def refresh(self, passable: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> None:
        """Follow edits of cells (xs, ys) (grid coordinates) already made in ``passable``."""
        self.padded[1:-1, 1:-1] = passable
        self._refresh_window(np.asarray(xs) + 1, np.asarray(ys) + 1)

    def _refresh_window(self, xs: np.ndarray, ys: np.ndarray) -> None:
        shape = self.padded.shape
        for d in (0, 2, 4, 6):
            dx, dy = DIRECTIONS[d]
            rows, _ = _frame_cells(xs, ys, shape, dx, dy)
            passable = _frame(self.padded, dx, dy)
            # Forced neighbours look one row to either side: recompute the rows next to the
            # edits, from a slab with one more row of context on each side.
            first, last = max(rows.min() - 1, 0), min(rows.max() + 1, passable.shape[0] - 1)
            top = max(first - 1, 0)
            slab = _straight_east(passable[top : last + 2])
            _frame(self.arrays[d], dx, dy)[first : last + 1] = slab[first - top : last + 1 - top]
        for d in (1, 3, 5, 7):
            dx, dy = DIRECTIONS[d]
            rows, columns = _frame_cells(xs, ys, shape, dx, dy)
            _diagonal_north_east(
                _frame(self.padded, dx, dy),
                _frame(self.arrays[DIRECTIONS.index((dx, 0))], dx, dy),
                _frame(self.arrays[DIRECTIONS.index((0, dy))], dx, dy),
                _frame(self.arrays[d], dx, dy),
                row_start=int(rows.min()) - 1,
                column_end=int(columns.max()) + 2,
            )
