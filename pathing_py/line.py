"""Straight lines on the grid: line of sight and path smoothing (SPEC A4, A5).

Quick start::

    >>> from pathing_py import Grid, find_path, line_of_sight, smooth_path
    >>> from pathing_py.line import clear_lines
    >>> grid = Grid.from_ascii('''
    ... ........
    ... ........
    ... ........
    ... ''')
    >>> line_cells((0, 0), (7, 2))
    [(0, 0), (1, 0), (2, 1), (3, 1), (4, 1), (5, 1), (6, 2), (7, 2)]
    >>> line_of_sight(grid, (0, 0), (7, 2))
    True
    >>> path = find_path(grid, (0, 0), (7, 2)).cells
    >>> smooth_path(grid, path) == line_cells((0, 0), (7, 2))
    True

A line is rasterised as a king-move path (Bresenham: ``max(|dx|, |dy|)``
steps, the diagonal ones spread evenly), so its length is the octile
distance between its ends. A line is clear when every cell on it is free and
every diagonal step has both orthogonal cells free (the corner rule,
:func:`pathing_py.grid.corner_offsets`). That
also means the straight segment between the two cell centres touches only
free cells: a unit walking it in continuous space hits nothing.

On a 4-connected grid a line is a rook-move path instead: ``|dx| + |dy|``
straight steps through the cells the segment crosses, in the order it
crosses them, so its length is the Manhattan distance (the shortest possible
there) and smoothing never puts a diagonal step into a path::

    >>> line_cells((0, 0), (3, 1), connectivity=4)
    [(0, 0), (1, 0), (2, 0), (2, 1), (3, 1)]

Many lines at once are index arrays (:func:`line_arrays`, the same cells)
tested with one passability test (:func:`clear_lines`); smoothing tests its
long candidate shortcuts that way, and walks short ones cell by cell, since
most are blocked within a few cells::

    >>> clear_lines(grid.passable, (0, 0), [(7, 2), (9, 0)]).tolist()  # the second ends off the map
    [True, False]
"""

import math
from itertools import chain, islice
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

import numpy as np

from .grid import Cell, Grid

__all__ = [
    "clear_cells",
    "clear_lines",
    "line_arrays",
    "line_cells",
    "line_of_sight",
    "path_cost",
    "ray_cells",
    "smooth_path",
]


def line_cells(a: Cell, b: Cell, connectivity: int = 8) -> List[Cell]:
    """The cells of the line from ``a`` to ``b``, both included; the reverse of ``line_cells(b, a)``."""
    return list(_walk(a, b, connectivity))


def _walk(a: Cell, b: Cell, connectivity: int) -> Iterator[Cell]:
    """The cells of ``line_cells(a, b)`` one by one, from ``a``: a check can stop at the first blocked one.

    A line and its reverse take the same cells: a king line's rounding (halves up) comes out the same
    from either end, and a rook line through a corner takes the column first from the (y, x)-smaller
    end, which is the row first from the other.
    """
    return _cells(a, b, connectivity, with_start=True, columns_first=(a[1], a[0]) <= (b[1], b[0]))


def ray_cells(a: Cell, b: Cell, connectivity: int = 8) -> Iterator[Cell]:
    """The cells after ``a`` on the line toward ``b``, made one at a time (most casts stop within a few
    cells); every prefix is a shortest path between its ends on an empty grid. Counted from ``a``,
    through a corner the column first (:func:`line_cells` keeps a line and its reverse on the same cells)."""
    return _cells(a, b, connectivity, with_start=False, columns_first=True)


def _cells(a: Cell, b: Cell, connectivity: int, with_start: bool, columns_first: bool) -> Iterator[Cell]:
    """The line from ``a`` toward ``b`` cell by cell (``a`` too if ``with_start``); one generator, no
    nesting, since line checks walk it cell by cell in hot loops.

    King moves: ``a + round(n * d / steps)``. Rook moves: the cells the segment between the centres
    enters, in order, one straight step each: the i-th column boundary is crossed at (2i + 1) / (2|dx|)
    of the way, the j-th row boundary at (2j + 1) / (2|dy|), compared in integers; through a corner the
    column goes first if ``columns_first``, else the row.
    """
    x, y = a
    dx, dy = b[0] - x, b[1] - y
    if with_start:
        yield x, y
    if connectivity == 4:
        step_x, step_y = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
        across, down = abs(dx), abs(dy)
        i = j = 0
        while i < across or j < down:
            column_at, row_at = (2 * i + 1) * down, (2 * j + 1) * across
            if j == down or (i < across and (column_at < row_at or (columns_first and column_at == row_at))):
                i += 1
                x += step_x
            else:
                j += 1
                y += step_y
            yield x, y
        return
    steps = max(abs(dx), abs(dy))
    # round(n * d / steps), halves rounded up, in integers: exact and the same on every machine.
    for n in range(1, steps + 1):
        yield x + (2 * n * dx + steps) // (2 * steps), y + (2 * n * dy + steps) // (2 * steps)


def line_arrays(starts, ends, connectivity: int = 8) -> Tuple[np.ndarray, np.ndarray]:
    """The cells of many lines at once, as index arrays: ``xs`` and ``ys`` of shape (lines, longest + 1),
    row k the cells of ``line_cells(starts[k], ends[k])`` followed by copies of its last cell.

    ``starts`` and ``ends`` are cells or (n, 2) arrays of them (one start may serve every end). The same
    cells as :func:`line_cells`, computed in closed form: a king line's n-th cell is
    ``a + round(n * d / steps)``; a rook line enters the i-th column after the rows whose boundary the
    segment crosses first.
    """
    starts, ends = _as_points(starts, "starts"), _as_points(ends, "ends")
    span = ends - starts
    if connectivity == 4:
        ax, ay, dx, dy = starts[:, :1], starts[:, 1:], span[:, :1], span[:, 1:]
        return _rook_arrays(
            ax, ay, dx, dy, columns_first=(ay < ends[:, 1:]) | ((ay == ends[:, 1:]) & (ax <= ends[:, :1]))
        )
    steps = np.abs(span).max(axis=1)
    along = np.minimum(np.arange(int(steps.max()) + 1 if len(steps) else 1), steps[:, None])
    # round(n * d / steps), halves rounded up, in integers: exact and the same on every machine; x and y at once.
    cells = (2 * span)[:, :, None] * along[:, None, :] + steps[:, None, None]
    cells //= 2 * np.maximum(steps, 1)[:, None, None]
    cells += starts[:, :, None]
    return cells[:, 0], cells[:, 1]


def _rook_arrays(ax, ay, dx, dy, columns_first) -> Tuple[np.ndarray, np.ndarray]:
    """:func:`line_arrays` for rook lines: step k enters a new column when it is one of the column
    crossings, each placed after the row crossings that come before it (the rule of :func:`_cells`)."""
    across, down = np.abs(dx).ravel(), np.abs(dy).ravel()
    total = across + down
    longest = int(total.max(initial=0))
    line = np.repeat(np.arange(len(across)), across)
    column = np.arange(len(line)) - np.repeat(np.cumsum(across) - across, across)
    # Rows crossed before column `column`: (2j + 1) * across below (at most equal to, if the row goes first on a
    # tie) (2 column + 1) * down, counted as the odd numbers up to a quotient.
    crossed_at = (2 * column + 1) * down[line] - columns_first.ravel()[line]
    rows_before = np.minimum((crossed_at // np.maximum(across[line], 1) + 1) // 2, down[line])
    enters_column = np.zeros((len(across), longest + 1), dtype=np.int64)
    enters_column[line, column + rows_before + 1] = 1
    columns = np.cumsum(enters_column, axis=1)
    rows = np.minimum(np.arange(longest + 1), total[:, None]) - columns
    return ax + np.sign(dx) * columns, ay + np.sign(dy) * rows


def _as_points(cells, name: str) -> np.ndarray:
    """Cells as an (n, 2) int64 array; ValueError naming the argument if they are not (x, y) pairs."""
    points = np.asarray(cells, dtype=np.int64)
    if points.size == 0:
        return points.reshape(0, 2)
    if points.ndim not in (1, 2) or points.shape[-1] != 2:
        raise ValueError(f"{name} must be an (x, y) cell or an (n, 2) array of them, got shape {points.shape}")
    return points.reshape(-1, 2)


def line_of_sight(grid: Grid, a: Cell, b: Cell) -> bool:
    """Whether the line from ``a`` to ``b`` (rook moves on a 4-connected grid) is clear (see the module docstring).

    Its first :data:`_LONG` cells are walked one by one (a blocked line mostly stops there); a longer line that
    is clear so far is tested whole in one array, many times cheaper than walking hundreds of cells.
    """
    if not (grid.in_bounds(a) and grid.in_bounds(b)):
        return False
    if not clear_cells(grid.passable, islice(_walk(a, b, grid.connectivity), _LONG + 1)):
        return False
    across, down = abs(b[0] - a[0]), abs(b[1] - a[1])
    if (across + down if grid.connectivity == 4 else max(across, down)) <= _LONG:
        return True  # walked whole
    return bool(clear_lines(grid.passable, a, b, grid.connectivity)[0])


def clear_lines(passable: np.ndarray, starts, ends, connectivity: int = 8) -> np.ndarray:
    """Whether each line from ``starts[k]`` to ``ends[k]`` is clear, all tested at once; a line with an end
    off the map is not."""
    starts, ends = np.broadcast_arrays(_as_points(starts, "starts"), _as_points(ends, "ends"))
    height, width = passable.shape
    on_map = _on_map(starts, width, height) & _on_map(ends, width, height)
    xs, ys = line_arrays(np.where(on_map[:, None], starts, 0), np.where(on_map[:, None], ends, 0), connectivity)
    return on_map & _clear_rows(passable, xs, ys)


def _on_map(points: np.ndarray, width: int, height: int) -> np.ndarray:
    return (points[:, 0] >= 0) & (points[:, 0] < width) & (points[:, 1] >= 0) & (points[:, 1] < height)


def clear_cells(passable: np.ndarray, line: Iterable[Cell]) -> bool:
    """Whether a king path is clear (free cells, no corner cut), cell by cell from the start: most
    short lines tried are blocked within a few cells, and stopping there beats building arrays.
    The corner rule (:func:`pathing_py.grid.corner_offsets`) is inlined: this loop is hot."""
    free = passable.item
    cells = iter(line)
    px, py = next(cells)
    if not free(py, px):
        return False
    for x, y in cells:
        if not free(y, x) or (x != px and y != py and not (free(py, x) and free(y, px))):
            return False
        px, py = x, y
    return True


def _clear_rows(passable: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """Whether each row of cells (a king path on the map) is clear, one passability test for all of them.

    The cells tested are the path's and, for each step, (x after, y before) and (x before, y after): a
    diagonal step's two corners, the ends of a straight one (tested anyway).
    """
    width = passable.shape[1]
    at = ys * width + xs
    step_x = xs[:, 1:] - xs[:, :-1]
    tested = np.concatenate((at, at[:, :-1] + step_x, at[:, 1:] - step_x), axis=1)
    return passable.ravel()[tested].all(axis=1)


def smooth_path(grid: Grid, cells: Sequence[Cell]) -> List[Cell]:
    """Shorten a path by pulling it straight wherever a line is clear.

    From each kept cell the walk jumps to the farthest later cell of the path
    it can see (found by doubling the look-ahead, then bisecting), and
    replaces what lies between by the straight line. Every line used is
    checked, so the result is valid on the grid (on a 4-connected grid the
    lines take straight steps only); a line is never longer than the piece
    it replaces (and on weighted grids a line is used only when it costs no
    more), so the result is never longer than ``cells``.

    Long lines are tested in batches (:func:`line_arrays`, one passability
    test a batch): the doubling's longer look-aheads together, then several
    levels of the bisection together; the walk reads off the answers it
    needs, so it takes the same jumps as testing one line at a time. A short
    line is walked cell by cell, stopping at its first blocked cell: cheaper
    than building its arrays.
    """
    cells = [(x, y) for x, y in cells]
    if len(cells) < 3:
        return list(cells)
    sees = _Shortcuts(grid, cells)
    result = [cells[0]]
    i = 0
    last = len(cells) - 1
    run_end = _straight_runs(sees.points)
    fetched: Dict[int, Optional[Dict[int, bool]]] = {}  # the verdicts fetched ahead, by the run start they are from
    ahead = _FIRST_AHEAD
    while i < last:
        # A straight run of the path is its own line: seen without a check.
        best_j = run_end[i]
        reach = 2 * (best_j - i)
        if reach <= _LONG and i not in fetched:
            fetched.update(sees.ahead(_run_starts(i, run_end, ahead), run_end))
            ahead *= 2
        seen = fetched.pop(i, {})
        if seen is None:  # every line the walk could try from i is blocked: the run stays
            result.extend(cells[i + 1 : best_j + 1])
            i = best_j
            continue
        while i + reach <= last:  # double the look-ahead while lines stay clear
            if i + reach not in seen:
                tried = _doubling_look_aheads(i, reach, last)
                seen.update(zip(tried, sees(i, tried)))
            if not seen[i + reach]:
                break
            best_j = i + reach
            reach *= 2
        low, high = best_j, min(i + reach, last + 1)  # best_j sees, high (if in range) does not
        while high - low > 1:
            middle = (low + high) // 2
            if middle not in seen:
                tried = _bisection_middles(low, high, _BATCH_CELLS // (high - i)) if high - i > _LONG else [middle]
                seen.update(zip(tried, sees(i, tried)))
            if seen[middle]:
                low = best_j = middle
            else:
                high = middle
        shortcut = best_j != run_end[i]
        if shortcut:  # off the run starts fetched: fetch few again
            ahead = _FIRST_AHEAD
        result.extend(
            line_cells(cells[i], cells[best_j], grid.connectivity)[1:] if shortcut else cells[i + 1 : best_j + 1]
        )
        i = best_j
    return result


#: Lines of at most this many steps are walked one by one (most of those tried are blocked within a few cells).
_LONG = 64
#: About how many cells one batch of lines holds (more levels of the bisection for shorter lines).
_BATCH_CELLS = 1024
#: How many run starts the first batch fetched ahead covers; each next batch covers twice as many, until a line
#: clears (maze512-1-0: a path of thousands of cells and hardly a line clear, smoothed in a few batches).
_FIRST_AHEAD = 4


class _Shortcuts:
    """Whether lines from one cell of a path to later ones can replace the path between: clear, and (on
    weighted grids) no dearer than the path's piece."""

    def __init__(self, grid: Grid, cells: List[Cell]):
        self.passable, self.cost, self.connectivity = grid.passable, grid.cost, grid.connectivity
        self.cells = cells
        self.points = np.fromiter(chain.from_iterable(cells), dtype=np.int64, count=2 * len(cells)).reshape(-1, 2)
        self.prefix = prefix_costs(cells, self.cost) if self.cost is not None else []

    def __call__(self, i: int, later: List[int]) -> List[bool]:
        """One verdict for each index of ``later``: a line of at most :data:`_LONG` steps (a line from i to j
        has at most j - i) alone is walked, several lines or a longer one go in one batch."""
        cells, prefix = self.cells, self.prefix
        if len(later) == 1 and later[0] - i <= _LONG:
            j = later[0]
            if not clear_cells(self.passable, _walk(cells[i], cells[j], self.connectivity)):
                return [False]
            if self.cost is None:
                return [True]
            line = line_cells(cells[i], cells[j], self.connectivity)
            return [prefix_costs(line, self.cost)[-1] <= prefix[j] - prefix[i] + 1e-9]
        xs, ys = line_arrays(self.points[i], self.points[later], self.connectivity)
        clear = _clear_rows(self.passable, xs, ys)
        if self.cost is not None:
            clear &= _row_costs(self.cost, xs, ys) <= np.array([prefix[j] - prefix[i] for j in later]) + 1e-9
        return clear.tolist()

    def ahead(self, starts: List[int], run_end: List[int]) -> Dict[int, Optional[Dict[int, bool]]]:
        """For each index i of ``starts``, the verdicts on every line the walk may try first from i, all in one
        batch: those past i's straight run, up to twice its length (the doubling's first look-ahead and the
        bisection below it), when that is at most :data:`_LONG` steps; None when all are blocked (a maze's turns)."""
        last = len(self.cells) - 1
        froms = np.array([i for i in starts if 2 * (run_end[i] - i) <= _LONG], dtype=np.int64)
        firsts = np.array([run_end[i] + 1 for i in froms.tolist()], dtype=np.int64)  # past the run
        counts = np.minimum(2 * firsts - froms - 2, last) - firsts + 1  # up to twice the run, within the path
        lines = np.repeat(np.arange(len(froms)), counts)
        tos = firsts[lines] + np.arange(len(lines)) - np.repeat(np.cumsum(counts) - counts, counts)
        xs, ys = line_arrays(self.points[froms[lines]], self.points[tos], self.connectivity)
        clear = _clear_rows(self.passable, xs, ys)
        if self.cost is not None:
            prefix = np.array(self.prefix)
            clear &= _row_costs(self.cost, xs, ys) <= prefix[tos] - prefix[froms[lines]] + 1e-9
        ends = np.cumsum(counts)
        cleared = np.concatenate(([0], np.cumsum(clear)))
        any_clear = (cleared[ends] > cleared[ends - counts]).tolist()
        verdicts = clear.tolist()
        return {
            i: dict(zip(range(first, first + count), verdicts[end - count : end])) if some else None
            for i, first, count, end, some in zip(
                froms.tolist(), firsts.tolist(), counts.tolist(), ends.tolist(), any_clear
            )
        }


def _run_starts(i: int, run_end: List[int], count: int) -> List[int]:
    """``i`` and the starts of the runs after it, ``count`` in all (fewer at the end of the path)."""
    starts = [i]
    last = len(run_end) - 1
    while len(starts) < count and run_end[starts[-1]] < last:
        starts.append(run_end[starts[-1]])
    return starts


def _doubling_look_aheads(i: int, reach: int, last: int) -> List[int]:
    """The look-aheads the doubling may try from ``reach`` on: a short one alone; longer ones as many as
    keep a batch within about :data:`_BATCH_CELLS` cells (a line from i to j has at most j - i steps)."""
    tried = [i + reach]
    while reach > _LONG // 2 and i + 2 * reach <= last and (len(tried) + 1) * 2 * reach <= _BATCH_CELLS:
        reach *= 2
        tried.append(i + reach)
    return tried


def _bisection_middles(low: int, high: int, lines: int) -> List[int]:
    """The middles a bisection of (low, high) may try in its first levels, as many levels as keep them
    within ``lines`` (one level at least)."""
    if high - low - 1 <= lines:
        return list(range(low + 1, high))  # every level: each cell between
    middles: List[int] = []
    spans = [(low, high)]
    while spans and (not middles or len(middles) + len(spans) <= lines):
        middles_here = [(a + b) // 2 for a, b in spans]
        middles += middles_here
        spans = [span for (a, b), m in zip(spans, middles_here) for span in ((a, m), (m, b)) if span[1] - span[0] > 1]
    return middles


def _straight_runs(points: np.ndarray) -> List[int]:
    """For each index i of the path ``points`` (n, 2), the last index j such that points[i..j] take the same
    step all along (past the end for the last one)."""
    last = len(points) - 1
    steps = np.diff(points, axis=0)
    # The run from i ends after the first step k >= i that the next step differs from (the last step at the latest).
    ends = np.append(np.flatnonzero((steps[1:] != steps[:-1]).any(axis=1)), last - 1)
    run_end = ends[np.searchsorted(ends, np.arange(last))] + 1
    return run_end.tolist() + [last + 1]


def path_cost(grid: Grid, cells: Sequence[Cell]) -> float:
    """The length of a cell path: 1 per straight step, sqrt(2) per diagonal, times the cost of each cell entered.

    A long path is summed in numpy, in order (np.cumsum): the same float as :func:`prefix_costs`."""
    if len(cells) <= _LONG:
        return prefix_costs(cells, grid.cost)[-1]
    points = np.array(cells, dtype=np.int64)
    steps = np.where((points[1:] != points[:-1]).all(axis=1), math.sqrt(2.0), 1.0)
    if grid.cost is not None:
        steps *= grid.cost[points[1:, 1], points[1:, 0]]
    return float(np.cumsum(steps)[-1])


def prefix_costs(cells: Sequence[Cell], cost) -> List[float]:
    """Cumulative path length at each cell (terrain costs included)."""
    totals = [0.0]
    for (x0, y0), (x1, y1) in zip(cells, cells[1:]):
        length = math.sqrt(2.0) if x0 != x1 and y0 != y1 else 1.0
        totals.append(totals[-1] + length * (1.0 if cost is None else float(cost[y1, x1])))
    return totals


def _row_costs(cost: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """Each row's length, terrain costs included (copies of the last cell add nothing), as
    :func:`prefix_costs` has it: summed in order along the row (np.cumsum, not the pairwise np.sum), the
    same float as adding the steps one by one."""
    moved_x, moved_y = xs[:, 1:] != xs[:, :-1], ys[:, 1:] != ys[:, :-1]
    steps = (
        np.where(moved_x & moved_y, math.sqrt(2.0), (moved_x | moved_y).astype(np.float64)) * cost[ys[:, 1:], xs[:, 1:]]
    )
    return np.cumsum(steps, axis=1)[:, -1] if steps.shape[1] else np.zeros(len(steps))
