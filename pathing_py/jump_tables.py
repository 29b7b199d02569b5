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

from typing import List

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


def _diagonal_north_east(passable: np.ndarray, east: np.ndarray, north: np.ndarray) -> np.ndarray:
    """Jump distances north-eastwards, given the straight east and north tables."""
    height, width = passable.shape
    jump_point = (east > 0) | (north > 0)
    # A diagonal step from (y, x) needs (y, x+1), (y-1, x) and (y-1, x+1) free.
    step_ok = np.zeros_like(passable)
    step_ok[1:, :-1] = passable[1:, :-1] & passable[1:, 1:] & passable[:-1, :-1] & passable[:-1, 1:]
    distance = np.zeros((height, width), dtype=np.int32)
    for y in range(1, height):
        ahead = distance[y - 1, 1:]
        onward = np.where(ahead > 0, ahead + 1, ahead - 1)
        row = np.where(jump_point[y - 1, 1:], 1, onward)
        distance[y, :-1] = np.where(step_ok[y, :-1], row, 0)
    return distance


class JumpTables:
    """The eight jump-distance tables of one padded grid.

    The search reads them one entry at a time through memoryviews of the
    numpy arrays: far faster than numpy scalar indexing, without the memory
    of Python lists, and a refresh writes straight into the arrays.
    """

    def __init__(self, passable: np.ndarray):
        self.padded = pad(passable)
        self.width = self.padded.shape[1]
        self.arrays = self._compute(self.padded)
        self.tables: List[memoryview] = [memoryview(array.ravel()) for array in self.arrays]

    @staticmethod
    def _compute(padded: np.ndarray) -> List[np.ndarray]:
        arrays: List[np.ndarray] = [None] * 8  # type: ignore[list-item]
        for d in (0, 2, 4, 6):
            dx, dy = DIRECTIONS[d]
            arrays[d] = _unframe(_straight_east(_frame(padded, dx, dy)), dx, dy)
        for d in (1, 3, 5, 7):
            dx, dy = DIRECTIONS[d]
            east = _frame(arrays[DIRECTIONS.index((dx, 0))], dx, dy)
            north = _frame(arrays[DIRECTIONS.index((0, dy))], dx, dy)
            arrays[d] = _unframe(_diagonal_north_east(_frame(padded, dx, dy), east, north), dx, dy)
        return [np.ascontiguousarray(array, dtype=np.int32) for array in arrays]

    def refresh(self, passable: np.ndarray) -> None:
        """Bring the tables up to date with ``passable`` (in place: the memoryviews stay valid)."""
        self.padded = pad(passable)
        for array, new in zip(self.arrays, self._compute(self.padded)):
            array[...] = new
