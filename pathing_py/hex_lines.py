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

from typing import Dict, List, Optional, Sequence

from .grid import Cell, Grid
from .hex_grid import HexSteps

__all__ = ["hex_line_cells", "hex_line_of_sight", "hex_line_touches", "hex_path_cost", "smooth_hex_path"]


def hex_line_touches(steps: HexSteps, a: Cell, b: Cell) -> List[List[Cell]]:
    """The grid cells the closed segment between the centres of ``a`` and ``b`` touches, line by line from
    ``a``'s line to ``b``'s, each line's cells in the order the segment passes them (along the lines
    from ``a``'s side; by increasing index when the segment runs straight across them)."""
    (ua, va), (ub, vb) = steps.doubled(a), steps.doubled(b)
    xa, ya, xb, yb = ua + 1, 2 * va + 1, ub + 1, 2 * vb + 1  # the centres, in half cells
    direction = 1 if vb >= va else -1
    lines = range(va, vb + direction, direction)
    moves = steps.line_moves(min(va, vb), abs(vb - va) + 1)
    backwards = xb < xa
    touched = []
    for line in lines:
        move = moves[line - min(va, vb)]
        if ya == yb:
            low, high, denominator = min(xa, xb), max(xa, xb), 1
        else:  # the segment's along coordinates where it enters and leaves this line, over a common denominator
            y_low, y_high = max(2 * line, min(ya, yb)), min(2 * line + 2, max(ya, yb))
            denominator = abs(yb - ya)
            sign = 1 if yb > ya else -1
            ends = [xa * denominator + (xb - xa) * (y - ya) * sign for y in (y_low, y_high)]
            low, high = min(ends), max(ends)
        # Cells 2i + move .. 2i + move + 2 that meet [low, high] / denominator, edges included.
        first = -((-(low - (move + 2) * denominator)) // (2 * denominator))
        last = (high - move * denominator) // (2 * denominator)
        indices = range(last, first - 1, -1) if backwards else range(first, last + 1)
        touched.append([_grid_cell(steps, index, line) for index in indices])
    return touched


def _grid_cell(steps: HexSteps, along: int, line: int) -> Cell:
    return (along, line) if steps.axis == 0 else (line, along)


def hex_line_cells(steps: HexSteps, a: Cell, b: Cell) -> List[Cell]:
    """A six-neighbour path from ``a`` to ``b`` through cells the segment between their centres touches: the
    cells it passes in order, each dropped whose two neighbours in that order touch each other."""
    return _passed(steps, hex_line_touches(steps, a, b))


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
    return _all_free(grid, hex_line_touches(steps, a, b))


def _all_free(grid: Grid, touched: List[List[Cell]]) -> bool:
    free, width, height = grid.passable.item, grid.width, grid.height
    return all(0 <= x < width and 0 <= y < height and free(y, x) for line in touched for x, y in line)


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
            touched = hex_line_touches(steps, cells[i], cells[j])  # the path's cells are on the grid
            line = _passed(steps, touched) if _all_free(grid, touched) else None
            fits = line is not None and hex_path_cost(steps, line) <= prefix[j] - prefix[i] + 1e-9
            lines[j] = line if fits else None
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
