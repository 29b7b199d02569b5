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

__all__ = ["DIRECTIONS", "JumpTables", "pad", "straight_jumps", "WALK_SHARE"]

#: (dx, dy) of each direction; even numbers are straight, odd diagonal.
DIRECTIONS = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))


#: An edit's diagonal refresh walks the chains of cells it changes until it has read more than
#: 1/WALK_SHARE of the table's cells; past that, rewriting the quarters behind the edit row by row
#: is the cheaper way (a walked cell costs several times a rewritten one; chosen so that batches in
#: bench/bench_edits.py's growth table cost no more per cell than before the walks).
WALK_SHARE = 16


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
    south-west of it: edits that change too many cells for
    :meth:`JumpTables._refresh_diagonal` to follow refresh the union of
    their south-west quarters (a staircase), not the box around all of them.
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


def _grid_cells(rows: np.ndarray, columns: np.ndarray, shape: Tuple[int, int], dx: int, dy: int):
    """The inverse of :func:`_frame_cells`: cells (rows, columns) of ``_frame(array, dx, dy)``, for an
    ``array`` of ``shape``, as (xs, ys) of ``array``."""
    height, width = shape
    transposed = dx == 0
    if transposed:
        height, width, dx, dy = width, height, dy, 0
    if dx < 0:
        columns = width - 1 - columns
    if dy > 0:
        rows = height - 1 - rows
    return (rows, columns) if transposed else (columns, rows)


class JumpTables:
    """The eight jump-distance tables of one padded grid.

    The search reads them one entry at a time through memoryviews of the
    numpy arrays: far faster than numpy scalar indexing, without the memory
    of Python lists. Edits rewrite the arrays in place, only where an edit
    changed them: the rows next to it for straight moves, and for each
    diagonal the chains of cells that lead into the changed cells.
    """

    def __init__(self, passable: np.ndarray):
        self.padded = pad(passable)
        self.width = self.padded.shape[1]
        # A jump is at most the padded grid's longer side: int16 (half the memory) where that fits.
        dtype = np.int16 if max(self.padded.shape) <= np.iinfo(np.int16).max else np.int32
        self.arrays = [np.zeros(self.padded.shape, dtype=dtype) for _ in DIRECTIONS]
        self.tables: List[memoryview] = [array.reshape(-1).data for array in self.arrays]
        self.passable = self.padded.reshape(-1).data
        for d in (0, 2, 4, 6):
            dx, dy = DIRECTIONS[d]
            _frame(self.arrays[d], dx, dy)[...] = _straight_east(_frame(self.padded, dx, dy))
        for d in (1, 3, 5, 7):
            dx, dy = DIRECTIONS[d]
            _diagonal_north_east(
                _frame(self.padded, dx, dy),
                _frame(self.arrays[DIRECTIONS.index((dx, 0))], dx, dy),
                _frame(self.arrays[DIRECTIONS.index((0, dy))], dx, dy),
                _frame(self.arrays[d], dx, dy),
                np.full(self.padded.shape[0], self.padded.shape[1], dtype=np.int64),
            )

    def refresh(self, passable: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> None:
        """Follow edits of cells (xs, ys) (grid coordinates) already made in ``passable``.

        Costs the rows next to the edits (straight moves) and the diagonal
        chains whose distances change: separate edits batched into one call
        cost at most what separate calls would.
        """
        xs, ys = np.asarray(xs, dtype=np.int64) + 1, np.asarray(ys, dtype=np.int64) + 1
        self.padded[ys, xs] = passable[ys - 1, xs - 1]
        edited = ys * self.width + xs
        turned = {d: self._refresh_straight(d, xs, ys) for d in (0, 2, 4, 6)}
        for d in (1, 3, 5, 7):
            dx, dy = DIRECTIONS[d]
            ahead = dx + dy * self.width
            # Cells whose step is now allowed or not (one of its four cells edited), and cells whose
            # cell ahead became a jump point or stopped being one.
            corners = np.array([0, dx, dy * self.width, ahead], dtype=np.int64)
            seeds = np.concatenate(
                [
                    (edited[:, None] - corners).ravel(),
                    turned[DIRECTIONS.index((dx, 0))] - ahead,
                    turned[DIRECTIONS.index((0, dy))] - ahead,
                ]
            )
            if len(seeds) > self.padded.size // WALK_SHARE:  # too many to sort, let alone walk from
                self._refresh_quarters(d, seeds)
            else:
                self._refresh_diagonal(d, np.unique(seeds))

    def _refresh_quarters(self, d: int, seeds: np.ndarray) -> None:
        """Rewrite diagonal table ``d`` row by row in the union of the quarters behind the ``seeds``."""
        dx, dy = DIRECTIONS[d]
        ys, xs = np.divmod(seeds, self.width)
        rows, columns = _frame_cells(xs, ys, self.padded.shape, dx, dy)
        column_ends = np.zeros(self.padded.shape[0], dtype=np.int64)
        np.maximum.at(column_ends, rows, columns + 1)
        _diagonal_north_east(
            _frame(self.padded, dx, dy),
            _frame(self.arrays[DIRECTIONS.index((dx, 0))], dx, dy),
            _frame(self.arrays[DIRECTIONS.index((0, dy))], dx, dy),
            _frame(self.arrays[d], dx, dy),
            np.maximum.accumulate(column_ends),
        )

    def _refresh_straight(self, d: int, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """Rewrite straight table ``d`` in the rows next to the edits (forced neighbours look one
        row to either side; the border rows stay 0). Returns the flat indices of the cells that
        became a jump point or stopped being one (distance > 0 or not)."""
        height, width = self.padded.shape
        dx, dy = DIRECTIONS[d]
        rows, _ = _frame_cells(xs, ys, (height, width), dx, dy)
        passable = _frame(self.padded, dx, dy)
        table = _frame(self.arrays[d], dx, dy)
        last = passable.shape[0] - 1
        wanted = np.unique(np.concatenate([rows - 1, rows, rows + 1]))
        wanted = wanted[(wanted >= 1) & (wanted < last)]
        read = np.unique(np.concatenate([wanted - 1, wanted, wanted + 1]))
        slab = _straight_east(passable[read])[np.isin(read, wanted)]
        turned_rows, turned_columns = np.nonzero((slab > 0) != (table[wanted] > 0))
        table[wanted] = slab
        turned_xs, turned_ys = _grid_cells(wanted[turned_rows], turned_columns, (height, width), dx, dy)
        return turned_ys * width + turned_xs

    def _refresh_diagonal(self, d: int, seeds: np.ndarray) -> None:
        """Rewrite diagonal table ``d`` from the ``seeds`` (flat indices), the cells whose own
        inputs changed: each diagonal line through seeds is walked backwards from its seed
        furthest ahead, past its last seed, until a cell keeps its distance (then so do all
        behind it; the border always does). Walks go in chunks, each twice as long as the one
        before, all lines at once."""
        height, width = self.padded.shape
        dx, dy = DIRECTIONS[d]
        ahead = dx + dy * width
        ys, xs = np.divmod(seeds, width)
        inside = (ys >= 1) & (ys < height - 1) & (xs >= 1) & (xs < width - 1)  # the border stays 0
        seeds, ys, xs = seeds[inside], ys[inside], xs[inside]
        # One line per seed's diagonal: the seed furthest ahead starts the walk; ``left`` steps lead to the last.
        line = xs * dy - ys * dx
        progress = xs * dx
        order = np.lexsort((-progress, line))
        line, progress = line[order], progress[order]
        first = np.ones(len(order), dtype=bool)
        first[1:] = line[1:] != line[:-1]
        final = np.ones(len(order), dtype=bool)
        final[:-1] = first[1:]
        cells = seeds[order][first]
        left = progress[first] - progress[final]
        passable = self.padded.reshape(-1)
        distance = self.arrays[d].reshape(-1)
        straight = (
            self.arrays[DIRECTIONS.index((dx, 0))].reshape(-1),
            self.arrays[DIRECTIONS.index((0, dy))].reshape(-1),
        )
        incoming = distance[cells + ahead]  # right: nothing ahead of the first seed changed
        corners = np.array([0, dx, dy * width], dtype=np.int64)
        # Cells read past a walk's end are clipped to where all four reads stay on the grid (and unused).
        lowest, highest = -min(0, dx, dy * width, ahead), len(passable) - 1 - max(0, dx, dy * width, ahead)
        length, walked = 8, 0
        while len(cells):
            walked += len(cells) * length
            if walked > len(passable) // WALK_SHARE:
                self._refresh_quarters(d, seeds)
                return
            steps = np.arange(length)
            chain = np.clip(cells[:, None] - steps * ahead, lowest, highest)
            onto = chain + ahead
            step_ok = passable[onto] & passable[chain[..., None] + corners].all(axis=-1)
            jump_point = (straight[0][onto] > 0) | (straight[1][onto] > 0)
            fixed = ~step_ok | jump_point
            # The last cell at or before each one whose distance does not depend on the cell ahead.
            anchor = np.maximum.accumulate(np.where(fixed, steps, -1), axis=1)
            anchored = anchor >= 0
            base = np.where(anchored, np.take_along_axis(step_ok, np.maximum(anchor, 0), axis=1), incoming[:, None])
            count = np.where(anchored, steps - anchor, steps + 1)
            new = np.where(base > 0, base + count, base - count)
            stop = (steps >= left[:, None]) & (new == distance[chain])
            ends = np.where(stop.any(axis=1), stop.argmax(axis=1), length)
            write = steps <= ends[:, None]
            distance[chain[write]] = new[write]
            going = ends == length
            cells = cells[going] - length * ahead
            incoming = new[going, -1]
            left = left[going] - length
            length *= 2


def straight_jumps(padded: np.ndarray, d: int) -> np.ndarray:
    """The jump distances of straight direction ``d`` (0, 2, 4 or 6) for every cell of a padded grid."""
    dx, dy = DIRECTIONS[d]
    return _unframe(_straight_east(_frame(padded, dx, dy)), dx, dy)
