"""Straight lines on the grid: line of sight and path smoothing (SPEC A4, A5).

Quick start::

    >>> from pathing_py import Grid, find_path, line_of_sight, smooth_path
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
"""

import math
from typing import Iterable, Iterator, List, Sequence

import numpy as np

from .grid import Cell, Grid

__all__ = ["clear_cells", "line_cells", "line_of_sight", "path_cost", "ray_cells", "smooth_path"]


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


def line_of_sight(grid: Grid, a: Cell, b: Cell) -> bool:
    """Whether the line from ``a`` to ``b`` (rook moves on a 4-connected grid) is clear (see the module docstring)."""
    if not (grid.in_bounds(a) and grid.in_bounds(b)):
        return False
    return clear_cells(grid.passable, _walk(a, b, grid.connectivity))


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


def smooth_path(grid: Grid, cells: Sequence[Cell]) -> List[Cell]:
    """Shorten a path by pulling it straight wherever a line is clear.

    From each kept cell the walk jumps to the farthest later cell of the path
    it can see (found by doubling the look-ahead, then bisecting), and
    replaces what lies between by the straight line. Every line used is
    checked, so the result is valid on the grid (on a 4-connected grid the
    lines take straight steps only); a line is never longer than the piece
    it replaces (and on weighted grids a line is used only when it costs no
    more), so the result is never longer than ``cells``.
    """
    cells = [(x, y) for x, y in cells]
    if len(cells) < 3:
        return list(cells)
    passable, cost, connectivity = grid.passable, grid.cost, grid.connectivity
    prefix = prefix_costs(cells, cost) if cost is not None else []

    def shortcut(i: int, j: int):
        if not clear_cells(passable, _walk(cells[i], cells[j], connectivity)):
            return None
        line = line_cells(cells[i], cells[j], connectivity)
        if cost is not None and prefix_costs(line, cost)[-1] > prefix[j] - prefix[i] + 1e-9:
            return None
        return line

    result = [cells[0]]
    i = 0
    last = len(cells) - 1
    run_end = _straight_runs(cells)
    while i < last:
        # A straight run of the path is its own line: seen without a check.
        best_j = run_end[i]
        best_line = cells[i : best_j + 1]
        reach = 2 * (best_j - i)
        while i + reach <= last:  # double the look-ahead while lines stay clear
            line = shortcut(i, i + reach)
            if line is None:
                break
            best_j, best_line = i + reach, line
            reach *= 2
        low, high = best_j, min(i + reach, last + 1)  # best_j sees, high (if in range) does not
        while high - low > 1:
            middle = (low + high) // 2
            line = shortcut(i, middle)
            if line is None:
                high = middle
            else:
                low, best_j, best_line = middle, middle, line
        result.extend(best_line[1:])
        i = best_j
    return result


def _straight_runs(cells: Sequence[Cell]) -> List[int]:
    """For each index i, the last index j such that cells[i..j] take the same step all along."""
    last = len(cells) - 1
    run_end = list(range(1, last + 2))
    steps = [(b[0] - a[0], b[1] - a[1]) for a, b in zip(cells, cells[1:])]
    for k in range(last - 2, -1, -1):
        if steps[k] == steps[k + 1]:
            run_end[k] = run_end[k + 1]
    return run_end


def path_cost(grid: Grid, cells: Sequence[Cell]) -> float:
    """The length of a cell path: 1 per straight step, sqrt(2) per diagonal, times the cost of each cell entered."""
    return prefix_costs(cells, grid.cost)[-1]


def prefix_costs(cells: Sequence[Cell], cost) -> List[float]:
    """Cumulative path length at each cell (terrain costs included)."""
    totals = [0.0]
    for (x0, y0), (x1, y1) in zip(cells, cells[1:]):
        length = math.sqrt(2.0) if x0 != x1 and y0 != y1 else 1.0
        totals.append(totals[-1] + length * (1.0 if cost is None else float(cost[y1, x1])))
    return totals
