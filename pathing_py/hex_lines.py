"""Straight lines on half-offset (hexagonal) maps: line of sight and path smoothing (SPEC A4, A5).

A half-offset map's cells are a brick wall: on each line (a row for offset x,
a column for offset y) cells one cell long, every other line moved by half a
cell. Counted in half cells along the lines and across them (``doubled``
coordinates of :class:`~pathing_py.hex_grid.HexSteps`), cell (u, v) spans
``[u, u + 2] x [2v, 2v + 2]`` and its centre is (u + 1, 2v + 1), whatever the
layout's axes: a straight segment in pixels is straight here too, so lines
are worked out in exact integers.

A line between two cells is clear when every cell the closed segment between
their centres touches is free (edges and corners count), so a unit walking
that segment hits nothing. The line's cells (:func:`hex_line_cells`) are those
it passes, taken in order, a cell dropped where the ones before and after it
touch: a six-neighbour path through touched cells only::

    >>> from pathing_py import Grid
    >>> from pathing_py.cell_layout import CellLayout
    >>> from pathing_py.hex_grid import HexSteps
    >>> steps = HexSteps(CellLayout(x_axis=(2.0, 0.0), y_axis=(0.0, 2.0), offset_axis=0, shift=0.5))
    >>> hex_line_cells(steps, (0, 0), (3, 2))
    [(0, 0), (0, 1), (1, 1), (2, 2), (3, 2)]
    >>> grid = Grid.from_ascii('''
    ... ..#.
    ... ....
    ... ....
    ... ''')
    >>> hex_line_of_sight(grid, steps, (0, 0), (3, 2)), hex_line_of_sight(grid, steps, (0, 2), (3, 0))
    (True, False)

:func:`smooth_hex_path` pulls a path straight as :func:`pathing_py.smooth_path`
does on square cells: from each kept cell to the farthest later one it sees
(doubling the look-ahead, then bisecting), a line used only where it costs no
more than the piece of path it replaces.
"""

from functools import lru_cache
from typing import Dict, List, NamedTuple, Optional, Sequence, Tuple

import numpy as np

from .grid import Cell, Grid
from .hex_grid import HexSteps

__all__ = ["hex_line_cells", "hex_line_of_sight", "hex_line_touches", "hex_path_cost", "smooth_hex_path"]

#: A segment at most this many cells long (|dx| + |dy|) is checked cell by cell, stopping at the first blocked one
#: (smoothing a maze's path tries mostly such lines, and mostly blocked ones), its cells and the line through them
#: worked out once per offset and kept for this many offsets; a longer one in a few array operations.
SHORT = 16
CACHED_OFFSETS = 4096


class _Spans(NamedTuple):
    """The cells a segment touches, as spans: for each line it crosses (from the first end's to the other's), the
    first and last index along it, and whether the segment runs along the lines towards lower indices."""

    lines: np.ndarray
    first: np.ndarray
    last: np.ndarray
    backwards: bool


def _spans(steps: HexSteps, a: Cell, b: Cell) -> _Spans:
    """The spans of the segment between the centres of ``a`` and ``b``, every line at once (a long line of sight
    costs a few array operations, not a Python loop over its lines)."""
    (ua, va), (ub, vb) = steps.doubled(a), steps.doubled(b)
    xa, ya, xb, yb = ua + 1, 2 * va + 1, ub + 1, 2 * vb + 1  # the centres, in half cells
    direction = 1 if vb >= va else -1
    lines = np.arange(va, vb + direction, direction, dtype=np.int64)
    moves = np.array(steps.line_moves(min(va, vb), abs(vb - va) + 1), dtype=np.int64)[lines - min(va, vb)]
    if ya == yb:
        low, high, denominator = np.array([min(xa, xb)]), np.array([max(xa, xb)]), 1
    else:  # the segment's along coordinates where it enters and leaves each line, over a common denominator
        y_low, y_high = np.maximum(2 * lines, min(ya, yb)), np.minimum(2 * lines + 2, max(ya, yb))
        denominator = abs(yb - ya)
        sign = 1 if yb > ya else -1
        enter, leave = (xa * denominator + (xb - xa) * (y - ya) * sign for y in (y_low, y_high))
        low, high = np.minimum(enter, leave), np.maximum(enter, leave)
    # Cells 2i + move .. 2i + move + 2 that meet [low, high] / denominator, edges included.
    first = -((-(low - (moves + 2) * denominator)) // (2 * denominator))
    last = (high - moves * denominator) // (2 * denominator)
    return _Spans(lines, first, last, xb < xa)


def hex_line_touches(steps: HexSteps, a: Cell, b: Cell) -> List[List[Cell]]:
    """The grid cells the closed segment between the centres of ``a`` and ``b`` touches, line by line from
    ``a``'s line to ``b``'s, each line's cells in the order the segment passes them (along the lines
    from ``a``'s side; by increasing index when the segment runs straight across them)."""
    return _touched(steps, _spans(steps, a, b))


def _touched(steps: HexSteps, spans: _Spans) -> List[List[Cell]]:
    touched = []
    for line, first, last in zip(spans.lines.tolist(), spans.first.tolist(), spans.last.tolist()):
        indices = range(last, first - 1, -1) if spans.backwards else range(first, last + 1)
        touched.append([_grid_cell(steps, index, line) for index in indices])
    return touched


def _grid_cell(steps: HexSteps, along: int, line: int) -> Cell:
    return (along, line) if steps.axis == 0 else (line, along)


def hex_line_cells(steps: HexSteps, a: Cell, b: Cell) -> List[Cell]:
    """A six-neighbour path from ``a`` to ``b`` through cells the segment between their centres touches: the
    cells it passes in order, each dropped whose two neighbours in that order touch each other."""
    return _line(steps, a, b)[0]


def _line(steps: HexSteps, a: Cell, b: Cell) -> Tuple[List[Cell], float]:
    """:func:`hex_line_cells` and its cost; a short line's worked out once per offset."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    if abs(dx) + abs(dy) > SHORT:
        cells = _passed(steps, hex_line_touches(steps, a, b))
        return cells, hex_path_cost(steps, cells)
    relative, cost = _short_line(steps, dx, dy, steps.line_ahead(a))
    return [(x + a[0], y + a[1]) for x, y in relative], cost


@lru_cache(maxsize=CACHED_OFFSETS)
def _short_line(steps: HexSteps, dx: int, dy: int, ahead: bool) -> Tuple[Tuple[Cell, ...], float]:
    """The line from a cell whose line lies ahead (or not) to the cell (dx, dy) from it, as offsets, and its cost."""
    x0, y0 = start = _reference(steps, ahead)
    cells = _passed(steps, hex_line_touches(steps, start, (x0 + dx, y0 + dy)))
    return tuple((x - x0, y - y0) for x, y in cells), hex_path_cost(steps, cells)


@lru_cache(maxsize=CACHED_OFFSETS)
def _short_touches(steps: HexSteps, dx: int, dy: int, ahead: bool) -> Tuple[Cell, ...]:
    """The cells a short segment touches, as offsets from its first cell (whose line lies ahead or not): moved by
    whole cells along the lines, or by two lines, a segment touches the cells moved as much."""
    x0, y0 = start = _reference(steps, ahead)
    return tuple((x - x0, y - y0) for line in hex_line_touches(steps, start, (x0 + dx, y0 + dy)) for x, y in line)


def _reference(steps: HexSteps, ahead: bool) -> Cell:
    """A cell whose line lies ahead of its neighbour lines, or behind them: (0, 0) or the next line's."""
    if steps.line_ahead((0, 0)) == ahead:
        return 0, 0
    return (0, 1) if steps.axis == 0 else (1, 0)


def _passed(steps: HexSteps, touched: List[List[Cell]]) -> List[Cell]:
    """:func:`hex_line_cells` from the cells the line touches."""
    path: List[Cell] = []
    for line in touched:
        for cell in line:
            while len(path) >= 2 and steps.touch(path[-2], cell):
                path.pop()
            path.append(cell)
    return path


def hex_line_of_sight(grid: Grid, steps: HexSteps, a: Cell, b: Cell) -> bool:
    """Whether every grid cell the segment between the centres of ``a`` and ``b`` touches is on the grid and
    free (False when an end is off the grid)."""
    if not (grid.in_bounds(a) and grid.in_bounds(b)):
        return False
    return _clear(grid, steps, a, b)


def _clear(grid: Grid, steps: HexSteps, a: Cell, b: Cell) -> bool:
    """:func:`hex_line_of_sight` between cells on the grid: a short segment checked cell by cell up to the first
    blocked one, a long one in a few array operations."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    if abs(dx) + abs(dy) <= SHORT:
        free, width, height, (ax, ay) = grid.passable.item, grid.width, grid.height, a
        return all(
            0 <= x + ax < width and 0 <= y + ay < height and free(y + ay, x + ax)
            for x, y in _short_touches(steps, dx, dy, steps.line_ahead(a))
        )
    spans = _spans(steps, a, b)
    counts = spans.last - spans.first + 1
    starts = np.cumsum(counts) - counts
    along = np.repeat(spans.first - starts, counts) + np.arange(int(counts.sum()))
    across = np.repeat(spans.lines, counts)
    xs, ys = (along, across) if steps.axis == 0 else (across, along)
    if xs.min() < 0 or ys.min() < 0 or xs.max() >= grid.width or ys.max() >= grid.height:
        return False
    return bool(grid.passable[ys, xs].all())


def hex_path_cost(steps: HexSteps, cells: Sequence[Cell]) -> float:
    """The length of a six-neighbour path in the layout's pixels (ValueError for a step between cells that do
    not touch)."""
    return _prefix_costs(steps, cells)[-1] if cells else 0.0


def _prefix_costs(steps: HexSteps, cells: Sequence[Cell]) -> List[float]:
    totals = [0.0]
    for a, b in zip(cells, cells[1:]):
        totals.append(totals[-1] + steps.step_cost(a, b))
    return totals


def smooth_hex_path(grid: Grid, steps: HexSteps, cells: Sequence[Cell]) -> List[Cell]:
    """Shorten a six-neighbour path by pulling it straight wherever a line is clear (:func:`hex_line_of_sight`).

    From each kept cell the walk jumps to the farthest later cell of the path
    it sees by doubling the look-ahead, then bisecting, and puts the line's
    cells (:func:`hex_line_cells`) in place of the piece between; a line is
    used only when it costs no more than that piece, so the result is a path
    on the grid never longer than ``cells``.
    """
    cells = [(int(x), int(y)) for x, y in cells]
    if len(cells) < 3:
        return cells
    prefix = _prefix_costs(steps, cells)
    last = len(cells) - 1
    lines: Dict[int, Optional[List[Cell]]] = {}

    def shortcut(i: int, j: int) -> Optional[List[Cell]]:
        """The line from cell i to cell j of the path, if it is clear and no dearer than the path between."""
        if j not in lines:
            lines[j] = None
            if _clear(grid, steps, cells[i], cells[j]):  # the path's cells are on the grid
                line, cost = _line(steps, cells[i], cells[j])
                lines[j] = line if cost <= prefix[j] - prefix[i] + 1e-9 else None
        return lines[j]

    result = [cells[0]]
    i = 0
    while i < last:
        lines.clear()
        best, reach = i + 1, 2
        while i + reach <= last and shortcut(i, i + reach) is not None:  # double the look-ahead while lines are clear
            best, reach = i + reach, reach * 2
        low, high = best, min(i + reach, last + 1)  # low is seen, high (if on the path) is not
        while high - low > 1:
            middle = (low + high) // 2
            if shortcut(i, middle) is not None:
                low = best = middle
            else:
                high = middle
        taken = shortcut(i, best) if best > i + 1 else None
        result.extend(taken[1:] if taken is not None else cells[i + 1 : best + 1])
        i = best
    return result
