"""Jump distances for Jump Point Search (JPS+) under the corner rule (:func:`pathing_py.grid.corner_offsets`).

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
    passable: np.ndarray, east: np.ndarray, north: np.ndarray, distance: np.ndarray, column_ends: np.ndarray
) -> None:
    """Write jump distances north-eastwards into ``distance``: in each row y, the columns before
    ``column_ends[y]`` (which never decreases from one row to the next).

    A cell's distance follows from the cell diagonally ahead (one row up, one
    column right), so rows are done top to bottom; the cells outside the
    window must already be right. A change at one cell can only alter cells
    south-west of it, so edits refresh the union of their south-west
    quarters (a staircase), not the box around all of them.
    """
    height, width = passable.shape
    column_ends = np.minimum(column_ends, width - 1)
    rows = np.flatnonzero(column_ends[1:] > 0) + 1
    if len(rows) == 0:
        return
    row_start, column_end = int(rows[0]), int(column_ends[-1])
    ahead_columns = slice(1, column_end + 1)
    # Computed for the box at once (a few numpy operations); the rows below read their staircase part.
    jump_point = (east[row_start - 1 : -1, ahead_columns] > 0) | (north[row_start - 1 : -1, ahead_columns] > 0)
    # A diagonal step from (y, x) needs (y, x), (y, x+1), (y-1, x) and (y-1, x+1) free (the corner
    # rule, grid.corner_offsets, for the whole map at once).
    here, above = passable[row_start:], passable[row_start - 1 : -1]
    step_ok = here[:, :column_end] & here[:, ahead_columns] & above[:, :column_end] & above[:, ahead_columns]
    for i, (y, end) in enumerate(zip(range(row_start, height), column_ends[row_start:].tolist())):
        ahead = distance[y - 1, 1 : end + 1]
        onward = np.where(ahead > 0, ahead + 1, ahead - 1)
        distance[y, :end] = np.where(step_ok[i, :end], np.where(jump_point[i, :end], 1, onward), 0)


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
        # Every cell of the border: all rows in every frame, and each frame's far corner.
        ring = np.ones(self.padded.shape, dtype=bool)
        ring[1:-1, 1:-1] = False
        border_ys, border_xs = np.nonzero(ring)
        self._refresh_window(border_xs, border_ys)

    def refresh(self, passable: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> None:
        """Follow edits of cells (xs, ys) (grid coordinates) already made in ``passable``.

        Costs the rows next to the edits (straight moves) and the union of
        the quarters behind them (diagonal moves): separate edits batched
        into one call cost at most what separate calls would.
        """
        xs, ys = np.asarray(xs) + 1, np.asarray(ys) + 1
        self.padded[ys, xs] = passable[ys - 1, xs - 1]
        self._refresh_window(xs, ys)

    def _refresh_window(self, xs: np.ndarray, ys: np.ndarray) -> None:
        height, width = self.padded.shape
        shape = (height, width)  # a pair for mypy with numpy 1.24's stubs too
        for d in (0, 2, 4, 6):
            dx, dy = DIRECTIONS[d]
            rows, _ = _frame_cells(xs, ys, shape, dx, dy)
            passable = _frame(self.padded, dx, dy)
            # Forced neighbours look one row to either side: recompute the rows next to the
            # edits (the border rows stay 0), from those rows and one more on each side.
            last = passable.shape[0] - 1
            wanted = np.unique(np.concatenate([rows - 1, rows, rows + 1]))
            wanted = wanted[(wanted >= 1) & (wanted < last)]
            read = np.unique(np.concatenate([wanted - 1, wanted, wanted + 1]))
            slab = _straight_east(passable[read])
            _frame(self.arrays[d], dx, dy)[wanted] = slab[np.isin(read, wanted)]
        for d in (1, 3, 5, 7):
            dx, dy = DIRECTIONS[d]
            rows, columns = _frame_cells(xs, ys, shape, dx, dy)
            # Row y is refreshed left of the furthest edit at most one row below it.
            column_ends = np.zeros(shape[0], dtype=np.int64)
            np.maximum.at(column_ends, np.maximum(rows - 1, 0), columns + 2)
            _diagonal_north_east(
                _frame(self.padded, dx, dy),
                _frame(self.arrays[DIRECTIONS.index((dx, 0))], dx, dy),
                _frame(self.arrays[DIRECTIONS.index((0, dy))], dx, dy),
                _frame(self.arrays[d], dx, dy),
                np.maximum.accumulate(column_ends),
            )
