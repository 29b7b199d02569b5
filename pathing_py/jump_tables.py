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
STRAIGHTS, DIAGONALS = (0, 2, 4, 6), (1, 3, 5, 7)
_STEPS = np.array(DIRECTIONS, dtype=np.int64)
#: Row d, for a diagonal direction d: its two straight components (east or west, north or south);
#: for a straight direction d: the two diagonals it is a component of.
_STRAIGHT_OF = np.zeros((len(DIRECTIONS), 2), dtype=np.int64)
_DIAGONALS_OF = np.zeros((len(DIRECTIONS), 2), dtype=np.int64)
for _d in DIAGONALS:
    _STRAIGHT_OF[_d] = [DIRECTIONS.index((DIRECTIONS[_d][0], 0)), DIRECTIONS.index((0, DIRECTIONS[_d][1]))]
for _d in STRAIGHTS:
    _DIAGONALS_OF[_d] = [d for d in DIAGONALS if _d in _STRAIGHT_OF[d]]


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
    above = np.zeros_like(passable)
    below = np.zeros_like(passable)
    above[1:] = passable[:-1]
    below[:-1] = passable[1:]
    return _east_jumps(passable, above, below)


def _east_jumps(here: np.ndarray, above: np.ndarray, below: np.ndarray) -> np.ndarray:
    """Jump distances eastwards in rows ``here``, given the rows north (``above``) and south
    (``below``) of each: an edit rewrites a few rows without reading their neighbours' own."""
    width = here.shape[1]
    # Forced: a side cell free, the side cell behind it blocked (column 0 has nothing behind it).
    forced = np.zeros_like(here)
    forced[:, 1:] = here[:, 1:] & ((above[:, 1:] & ~above[:, :-1]) | (below[:, 1:] & ~below[:, :-1]))
    event = forced | ~here
    columns = np.arange(width, dtype=np.int32)
    # First event at or after each column, then strictly after; whether it is free in the low bit.
    position = np.where(event, 2 * columns + here, np.int32(2 * width))
    at_or_after = np.minimum.accumulate(position[:, ::-1], axis=1)[:, ::-1]
    after = np.full_like(at_or_after, 2 * width)
    after[:, :-1] = at_or_after[:, 1:]
    steps = (after >> 1) - columns
    distance = np.where(after & 1, steps, 1 - steps)
    distance[~here] = 0
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
        # One block, so that an edit walks the four diagonal tables together (flat indices into it).
        self.block = np.zeros((len(DIRECTIONS), *self.padded.shape), dtype=dtype)
        self.arrays = list(self.block)
        self.tables: List[memoryview] = [array.reshape(-1).data for array in self.arrays]
        self.passable = self.padded.reshape(-1).data
        width = self.width
        #: Flat offset of one step in each direction; for each diagonal, the cells (as offsets back
        #: from an edited cell) whose step in it reads the edited cell (the corner rule).
        self.ahead = np.array([dx + dy * width for dx, dy in DIRECTIONS], dtype=np.int64)
        self.corners = np.array(
            [[0, dx, dy * width, dx + dy * width] for dx, dy in map(DIRECTIONS.__getitem__, DIAGONALS)]
        ).ravel()
        self.corner_directions = np.repeat(DIAGONALS, 4)
        #: For each straight direction, flat index = line * along + column * across + offset, for cells
        #: of its frame's row ``line``, column ``column``.
        self.frame_axes = np.zeros((len(DIRECTIONS), 3), dtype=np.int64)
        for d in STRAIGHTS:
            xs, ys = _grid_cells(np.array([0, 1, 0]), np.array([0, 0, 1]), self.padded.shape, *DIRECTIONS[d])
            origin, line_step, column_step = ys * width + xs
            self.frame_axes[d] = [line_step - origin, column_step - origin, origin]
        for d in STRAIGHTS:
            dx, dy = DIRECTIONS[d]
            _frame(self.arrays[d], dx, dy)[...] = _straight_east(_frame(self.padded, dx, dy))
        for d in DIAGONALS:
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
        cost at most what separate calls would. The four straight tables are
        rewritten in one numpy pass, the four diagonal ones walked in another:
        a one-cell edit is a few dozen numpy calls, not a few hundred.
        """
        xs, ys = np.asarray(xs, dtype=np.int64) + 1, np.asarray(ys, dtype=np.int64) + 1
        self.padded[ys, xs] = passable[ys - 1, xs - 1]
        turned_directions, turned = self._refresh_straight(xs, ys)
        # Diagonal seeds: cells whose step is now allowed or not (one of its four cells edited), and
        # cells whose cell ahead became a jump point or stopped being one along either component.
        edited = ys * self.width + xs
        diagonals = _DIAGONALS_OF[turned_directions]
        directions = np.concatenate(
            [np.broadcast_to(self.corner_directions, (len(edited), 16)).ravel(), diagonals.ravel()]
        )
        cells = np.concatenate(
            [(edited[:, None] - self.corners).ravel(), (turned[:, None] - self.ahead[diagonals]).ravel()]
        )
        if len(cells) > len(DIAGONALS) * self.padded.size // WALK_SHARE:  # too many to sort, let alone walk from
            self._refresh_quarters(directions, cells)
        else:
            self._refresh_diagonals(directions, cells)

    def _refresh_quarters(self, directions: np.ndarray, seeds: np.ndarray) -> None:
        """Rewrite each diagonal table row by row in the union of the quarters behind its ``seeds``
        (flat indices, of the tables ``directions``)."""
        for d in DIAGONALS:
            dx, dy = DIRECTIONS[d]
            ys, xs = np.divmod(seeds[directions == d], self.width)
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

    def _refresh_straight(self, xs: np.ndarray, ys: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
        """Rewrite the straight tables in the lines next to the edits (forced neighbours look one
        line to either side; the border lines stay 0): rows for east and west, columns for north
        and south, all four tables in one :func:`_east_jumps` call. Returns the cells (flat
        indices) that became a jump point or stopped being one (distance > 0 or not), with the
        direction of the table each did so in."""
        height, width = self.padded.shape
        near_rows, near_columns = _near(ys, height), _near(xs, width)
        wanted = [near_rows if DIRECTIONS[d][0] else near_columns for d in STRAIGHTS]
        # Rows of the frames (east for each direction) with the rows beside them, padded to one length
        # with blocked cells: the last cell of every frame row is the border's, so nothing after it
        # changes a distance.
        line_of_row = np.concatenate(wanted)
        here, above, below, was = (np.zeros((len(line_of_row), max(height, width)), dtype=bool) for _ in range(4))
        start = 0
        for d, lines in zip(STRAIGHTS, wanted):
            frame = _frame(self.padded, *DIRECTIONS[d])
            rows, length = slice(start, start + len(lines)), frame.shape[1]
            for rows_of, offset in ((here, 0), (above, -1), (below, 1)):
                rows_of[rows, :length] = frame[lines + offset]
            was[rows, :length] = _frame(self.arrays[d], *DIRECTIONS[d])[lines] > 0
            start += len(lines)
        distances = _east_jumps(here, above, below)
        start = 0
        for d, lines in zip(STRAIGHTS, wanted):
            table = _frame(self.arrays[d], *DIRECTIONS[d])
            table[lines] = distances[start : start + len(lines), : table.shape[1]]
            start += len(lines)
        turned_rows, turned_columns = np.nonzero((distances > 0) != was)
        directions = np.repeat(STRAIGHTS, [len(lines) for lines in wanted])[turned_rows]
        along, across, offset = self.frame_axes[directions].T
        return directions, line_of_row[turned_rows] * along + turned_columns * across + offset

    def _refresh_diagonals(self, seed_directions: np.ndarray, seeds: np.ndarray) -> None:
        """Rewrite the diagonal tables from their ``seeds`` (flat indices, in the tables
        ``seed_directions``), the cells whose own inputs changed: each diagonal line through seeds
        is walked backwards from its seed furthest ahead, past its last seed, until a cell keeps
        its distance (then so do all behind it; the border always does). Walks go in chunks, each
        twice as long as the one before, all lines of the four tables at once (the tables are one
        array, ``self.block``)."""
        height, width = self.padded.shape
        size = height * width
        ys, xs = np.divmod(seeds, width)
        inside = (ys >= 1) & (ys < height - 1) & (xs >= 1) & (xs < width - 1)  # the border stays 0
        directions, cells, ys, xs = seed_directions[inside], seeds[inside], ys[inside], xs[inside]
        dx, dy = _STEPS[directions, 0], _STEPS[directions, 1]
        # One line per seed's diagonal: the seed furthest ahead starts the walk; ``left`` steps lead to the last.
        line = xs * dy - ys * dx
        progress = xs * dx
        order = np.lexsort((-progress, line, directions))
        directions, line, progress, cells = directions[order], line[order], progress[order], cells[order]
        first = np.ones(len(order), dtype=bool)
        first[1:] = (line[1:] != line[:-1]) | (directions[1:] != directions[:-1])
        final = np.ones(len(order), dtype=bool)
        final[:-1] = first[1:]
        cells, directions = cells[first], directions[first]
        left = progress[first] - progress[final]
        # Per line: its step, its two side cells (the corner rule) and where its tables start in ``flat``.
        dx, dy = _STEPS[directions, 0], _STEPS[directions, 1]
        ahead = (dx + dy * width)[:, None]
        across, up = dx[:, None], (dy * width)[:, None]
        table = (directions * size)[:, None]
        along_x, along_y = (_STRAIGHT_OF[directions] * size).T[..., None]
        passable = self.padded.reshape(-1)
        flat = self.block.reshape(-1)
        incoming = flat[table[:, 0] + cells + ahead[:, 0]]  # right: nothing ahead of the first seed changed
        # Cells read past a walk's end are clipped to where all four reads stay on the grid (and unused).
        offsets = np.concatenate([np.zeros_like(ahead), across, up, ahead], axis=1)
        lowest, highest = -offsets.min(axis=1, keepdims=True), size - 1 - offsets.max(axis=1, keepdims=True)
        length, walked = 8, 0
        while len(cells):
            walked += len(cells) * length
            if walked > len(DIAGONALS) * size // WALK_SHARE:
                self._refresh_quarters(seed_directions, seeds)
                return
            steps = np.arange(length)
            chain = np.clip(cells[:, None] - steps * ahead, lowest, highest)
            onto = chain + ahead
            step_ok = passable[onto] & passable[chain] & passable[chain + across] & passable[chain + up]
            jump_point = (flat[onto + along_x] > 0) | (flat[onto + along_y] > 0)
            fixed = ~step_ok | jump_point
            # The last cell at or before each one whose distance does not depend on the cell ahead
            # (its step in the low bit: 0 there, else a jump point one step on).
            anchor = np.maximum.accumulate(np.where(fixed, 2 * steps + step_ok, -1), axis=1)
            anchored = anchor >= 0
            base = np.where(anchored, anchor & 1, incoming[:, None])
            count = np.where(anchored, steps - (anchor >> 1), steps + 1)
            new = np.where(base > 0, base + count, base - count)
            chain += table
            stop = (steps >= left[:, None]) & (new == flat[chain])
            ends = np.where(stop.any(axis=1), stop.argmax(axis=1), length)
            write = steps <= ends[:, None]
            flat[chain[write]] = new[write]
            going = ends == length
            cells = cells[going] - length * ahead[going, 0]
            ahead, across, up, table = ahead[going], across[going], up[going], table[going]
            lowest, highest = lowest[going], highest[going]
            along_x, along_y = along_x[going], along_y[going]
            incoming = new[going, -1]
            left = left[going] - length
            length *= 2


def _near(lines: np.ndarray, count: int) -> np.ndarray:
    """The lines (rows or columns) at most one away from ``lines``, inside the border (of ``count`` lines)."""
    near = np.unique(np.concatenate([lines - 1, lines, lines + 1]))
    return near[(near >= 1) & (near < count - 1)]


def straight_jumps(padded: np.ndarray, d: int) -> np.ndarray:
    """The jump distances of straight direction ``d`` (0, 2, 4 or 6) for every cell of a padded grid."""
    dx, dy = DIRECTIONS[d]
    return _unframe(_straight_east(_frame(padded, dx, dy)), dx, dy)
