"""Unit sizes (SPEC G4): how large a unit is in cells, and how large a unit fits at each cell.

Quick start::

    >>> from pathing_py import Grid
    >>> from pathing_py.clearance import ClearanceMap, block_at, block_centre, size_class
    >>> grid = Grid.from_ascii('''
    ... .....
    ... ...#.
    ... .....
    ... ''')
    >>> clearance = ClearanceMap(grid.passable)
    >>> clearance.values
    array([[3, 2, 1, 1, 1],
           [2, 2, 1, 0, 1],
           [1, 1, 1, 1, 1]], dtype=uint8)
    >>> grid.set_blocked([(1, 1)])
    >>> clearance.update(grid.passable, [(1, 1)]).tolist()  # the cells whose clearance changed
    [[0, 0], [1, 0], [0, 1], [1, 1]]
    >>> size_class(0.5), size_class(1.0), size_class(1.2)
    (1, 2, 3)
    >>> block_centre((3, 4), 2), block_at((4.0, 5.0), 2)
    ((4.0, 5.0), (3, 4))

Sizes. A unit of radius r cells stands on a square block of
``k = size_class(r)`` cells a side, the smallest that holds its circle. It
"stands at" cell (x, y) when its block is the k x k cells whose top-left cell
is (x, y); its centre is then at ``block_centre((x, y), k) = (x + k/2, y + k/2)``
in cell units, the cell's centre for k = 1 (the convention of one-cell units),
and :func:`block_at` turns a centre back into the nearest block.

Clearance. ``values[y, x]`` is the side of the largest free square whose
top-left cell is (x, y), 0 on blocked cells, at most ``max_size``. A block
of size k fits at (x, y) exactly when ``values[y, x] >= k``; a step of the
block to a king neighbour is legal when the block fits at the target and,
for a diagonal step, at both orthogonal neighbours: the corner rule of
:mod:`pathing_py.grid` lifted to blocks. So a size-k unit moves on the grid
whose passable cells are those with clearance >= k, under the usual corner
rule (:class:`pathing_py.sized_grids.SizedGrids` hands those grids out).

An edit of cell (x, y) can only change the clearance of the cells in the
``max_size`` x ``max_size`` square whose bottom-right cell it is.
:meth:`ClearanceMap.update` recomputes the tiles (squares ``max_size`` cells
wide) that the squares of the edited cells overlap, all at once, and falls
back to the whole map when that would be as much work.
"""

import math
from typing import Iterable, Tuple

import numpy as np

from .grid import Cell, cells_inside

__all__ = ["MAX_SIZE", "ClearanceMap", "block_at", "block_centre", "largest_squares", "size_class"]

#: The largest block side (cells) a clearance map measures by default: units up to radius 4.
MAX_SIZE = 8

#: Radii this close above a block's half side still fit it (radius 0.5 + rounding error is a 1-cell unit).
RADIUS_TOLERANCE = 1e-9

#: An update recomputes tiles while their cells, read with the margin they need, are fewer than
#: this share of the map's; past that one pass over the whole map is cheaper (bench/bench_clearance.py
#: compares the two: a few scattered cells are far cheaper by tiles, many cost more than the pass).
FULL_PASS_SHARE = 0.25


# -- sizes ---------------------------------------------------------------------------------------


def size_class(radius: float, max_size: int = MAX_SIZE) -> int:
    """The side in cells of the block a unit of ``radius`` (cells) stands on: ``max(1, ceil(2r))``.

    Raises ValueError for a radius that is not a positive finite number, or
    whose block would be wider than ``max_size`` (the clearance map's limit).
    """
    if not isinstance(radius, (int, float, np.integer, np.floating)) or isinstance(radius, bool):
        raise TypeError(f"radius must be a number of cells, got {radius!r}")
    if not (math.isfinite(radius) and radius > 0):
        raise ValueError(f"radius must be a positive finite number of cells, got {radius!r}")
    size = max(1, math.ceil(2.0 * float(radius) - RADIUS_TOLERANCE))
    if size > max_size:
        raise ValueError(
            f"radius {radius!r} needs a block of {size} cells, wider than the largest size measured ({max_size})"
        )
    return size


def block_centre(cell: Cell, size: int) -> Tuple[float, float]:
    """The centre (cell units) of the block of side ``size`` whose top-left cell is ``cell``."""
    half = _checked_size(size) / 2.0
    return cell[0] + half, cell[1] + half


def block_at(centre: Tuple[float, float], size: int) -> Cell:
    """The top-left cell of the block of side ``size`` whose centre is nearest ``centre`` (cell units).

    For ``size`` 1 that is the cell holding the point; :func:`block_centre` inverts it.
    """
    x, y = centre
    if not (math.isfinite(x) and math.isfinite(y)):
        raise ValueError(f"centre must be finite, got {centre!r}")
    offset = (_checked_size(size) - 1) / 2.0
    return int(math.floor(x - offset)), int(math.floor(y - offset))


def _checked_size(size: int) -> int:
    if not isinstance(size, (int, np.integer)) or isinstance(size, bool) or size < 1:
        raise ValueError(f"size must be a whole number of cells >= 1 (see size_class), got {size!r}")
    return int(size)


# -- clearance -----------------------------------------------------------------------------------


def largest_squares(padded: np.ndarray, max_size: int) -> np.ndarray:
    """For each of the last two axes' (P - max_size + 1)^2 top-left cells of ``padded`` (..., P, P) bool
    windows: the side of the largest free square starting there, capped at ``max_size`` (uint8).

    A square of side k + 1 is free when the four squares of side k at its
    corners are, so ``max_size - 1`` rounds of four array ANDs measure every
    cell at once; each round the windows shrink by one row and column. The
    caller pads the windows with ``max_size - 1`` blocked rows and columns
    beyond the map, so that no square leaves it.
    """
    free = padded
    sides = padded.astype(np.uint8)
    for _ in range(1, max_size):
        free = free[..., :-1, :-1] & free[..., 1:, :-1] & free[..., :-1, 1:] & free[..., 1:, 1:]
        sides[..., : free.shape[-2], : free.shape[-1]] += free
    margin = max_size - 1
    return sides[..., : sides.shape[-2] - margin, : sides.shape[-1] - margin]


class ClearanceMap:
    """The clearance of every cell of one map (see the module docstring), kept right through edits.

    Parameters
    ----------
    passable : array of bool, shape (height, width)
        The map; it is copied, and later edits are told with :meth:`update`.
    max_size : int
        The largest side measured (1..255): larger free squares read as ``max_size``.
    """

    def __init__(self, passable: np.ndarray, max_size: int = MAX_SIZE):
        passable = np.asarray(passable)
        if passable.ndim != 2 or passable.size == 0:
            raise ValueError(f"passable must be a non-empty 2-D array, got shape {passable.shape}")
        if passable.dtype != bool:
            raise TypeError(f"passable must be a bool array, got dtype {passable.dtype}")
        if not isinstance(max_size, (int, np.integer)) or isinstance(max_size, bool) or not 1 <= max_size <= 255:
            raise ValueError(f"max_size must be an int in 1..255, got {max_size!r}")
        self.max_size = int(max_size)
        self.height, self.width = passable.shape
        tile = self.max_size
        rows, columns = -(-self.height // tile), -(-self.width // tile)
        margin = tile - 1
        # The map padded with blocked cells: whole tiles, plus the margin every tile reads beyond itself.
        self._passable = np.zeros((rows * tile + margin, columns * tile + margin), dtype=bool)
        self._passable[: self.height, : self.width] = passable
        self._sides = np.ascontiguousarray(largest_squares(self._passable, tile))
        #: self._sides as (tile row, tile column, row in tile, column in tile): a view, written through.
        self._tiles = self._sides.reshape(rows, tile, columns, tile).swapaxes(1, 2)
        #: Every tile with its margin, (tile row, tile column, row, column): a strided view, no copy.
        self._windows = np.lib.stride_tricks.sliding_window_view(self._passable, (tile + margin,) * 2)[::tile, ::tile]

    @property
    def values(self) -> np.ndarray:
        """``values[y, x]``: the clearance of cell (x, y) (uint8, read-only view; see the module docstring)."""
        view = self._sides[: self.height, : self.width]
        view.setflags(write=False)
        return view

    def update(self, passable: np.ndarray, cells: Iterable[Cell]) -> np.ndarray:
        """Follow edits of ``cells`` already made in ``passable`` (the whole map); return the cells whose
        clearance changed, as an (N, 2) int array of (x, y) sorted by (y, x).

        Costs the tiles the edited cells' squares overlap (a batch costs the
        union of its cells' squares, not their bounding box), or one pass over
        the map when those tiles are a large share of it (:data:`FULL_PASS_SHARE`).
        """
        passable = np.asarray(passable)
        if passable.shape != (self.height, self.width):
            raise ValueError(f"passable has shape {passable.shape}, the clearance map {(self.height, self.width)}")
        xs, ys = cells_inside(cells, self.width, self.height)
        self._passable[ys, xs] = passable[ys, xs]
        tile, margin = self.max_size, self.max_size - 1
        per_row = self._tiles.shape[1]
        # The square of each edited cell spans at most two tiles a side: those of its corners.
        left, right = np.maximum(xs - margin, 0) // tile, xs // tile
        top, bottom = np.maximum(ys - margin, 0) // tile, ys // tile
        named = np.unique(np.concatenate([row * per_row + column for row in (top, bottom) for column in (left, right)]))
        if len(named) * (tile + margin) ** 2 > FULL_PASS_SHARE * self._passable.size:
            return self._update_all()
        rows, columns = np.divmod(named, per_row)
        fresh = largest_squares(self._windows[rows, columns], tile)
        differ, in_rows, in_columns = np.nonzero(fresh != self._tiles[rows, columns])
        self._tiles[rows, columns] = fresh
        changed = np.stack([columns[differ] * tile + in_columns, rows[differ] * tile + in_rows], axis=1)
        return changed[np.lexsort((changed[:, 0], changed[:, 1]))]

    def _update_all(self) -> np.ndarray:
        """Measure the whole map again; the changed cells as :meth:`update` returns them."""
        fresh = largest_squares(self._passable, self.max_size)
        ys, xs = np.nonzero(fresh != self._sides)
        self._sides[...] = fresh
        return np.stack([xs, ys], axis=1).astype(np.int64)
