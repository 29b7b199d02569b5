"""Paths on half-offset (hexagonal) maps: six neighbours, exact A* (SPEC G6, A1).

A half-offset TileMap (:class:`~pathing_py.cell_layout.CellLayout` with an
``offset_axis``) moves every other row (or column) by half a cell, so each
cell touches six others: two beside it on its own line, and two on each
neighbouring line, those whose spans along the line overlap its own. Which
two depends on whether the cell's line or the other one is the moved one,
and on the direction of the shift. Lines are odd or even as TileMap indices:
the :class:`~pathing_py.Grid`'s ``origin`` says which TileMap cell its (0, 0) is.

A step costs the distance between the two cells' centres in pixels of the
layout. Godot's half-offset cells are parallelograms shifted by half, not
regular hexagons, so the four steps to other lines need not cost what the
two along a line cost; the estimate is the exact cost of the cheapest steps
that could join two cells, so the search is exact::

    >>> from pathing_py import Grid
    >>> from pathing_py.cell_layout import CellLayout
    >>> grid = Grid.from_ascii('''
    ... ....
    ... .##.
    ... ....
    ... ''')
    >>> layout = CellLayout(x_axis=(2.0, 0.0), y_axis=(0.0, 2.0), offset_axis=0, shift=0.5)
    >>> result = find_hex_path(grid, layout, (0, 1), (3, 1))
    >>> result.cells
    [(0, 1), (1, 0), (2, 0), (3, 0), (3, 1)]
    >>> round(result.cost, 3)
    8.472

The grid is only the obstacle table here: its own islands, line of sight, key-point
graph and units follow the square grid's eight (or four) neighbours, not these six;
:func:`hex_islands` labels the islands of six neighbours, :mod:`pathing_py.hex_lines`
draws lines between hex cells, :class:`pathing_py.hierarchy.HexKeyPointGraph` is their key-point graph.
A half-offset TileMap read from a scene comes as a :class:`HexMap`, the two together::

    hexes = read_tilemap("hexagonal_map/map.tscn").hex_map()   # pathing_py.godot.scene_files
    hexes.find_path((0, 0), (9, 4)).cells                      # grid cells; hexes.grid.origin is TileMap cell (0, 0)
"""

import math
from heapq import heappop, heappush
from typing import List, NamedTuple, Optional, Tuple

import numpy as np

from .cell_layout import CellLayout
from .grid import Cell, Grid
from .islands import label_islands
from .search import PathResult, PathStatus, answer_without_search, as_cell

__all__ = ["HexMap", "HexSteps", "find_hex_path", "hex_islands", "hex_neighbours"]

#: A step to a neighbour: (dx, dy) in cells, and its cost.
Step = Tuple[int, int, float]


class HexSteps:
    """The six steps out of a cell of a half-offset layout, with their costs, and the search's estimate.

    ``layout`` must be hexagonal (ValueError otherwise); ``origin`` is the
    TileMap cell of grid cell (0, 0), which decides the odd lines.
    """

    def __init__(self, layout: CellLayout, origin: Cell = (0, 0)):
        if layout.offset_axis is None:
            raise ValueError("layout must have a half offset (offset_axis 0 or 1): square cells have no hex neighbours")
        self.layout = layout
        self.axis = layout.offset_axis
        self.origin = (int(origin[0]), int(origin[1]))
        along = layout.x_axis if self.axis == 0 else layout.y_axis
        across = layout.y_axis if self.axis == 0 else layout.x_axis
        #: Costs of a step along a line, and across to the next line half a cell forward or back (in pixels).
        self.along_cost = math.hypot(*along)
        self.forward_cost = math.hypot(0.5 * along[0] + across[0], 0.5 * along[1] + across[1])
        self.backward_cost = math.hypot(0.5 * along[0] - across[0], 0.5 * along[1] - across[1])
        #: The estimate's prices: a line crossed (the cheaper step across), and half a cell along the lines.
        self.across_price = min(self.forward_cost, self.backward_cost)
        self.half_price = min(self.across_price, self.along_cost / 2.0)
        # Steps from a cell whose line lies half a cell ahead of its neighbour lines (d = +0.5), and behind them,
        # and the same as {(dx, dy): cost}, for the checks of steps that paths and lines make cell by cell.
        self._steps = {ahead: self._make_steps(ahead) for ahead in (True, False)}
        self._step_costs = {ahead: {(dx, dy): cost for dx, dy, cost in self._steps[ahead]} for ahead in (True, False)}
        # A line is ahead when it is moved and the shift is forward, or unmoved and the shift backward.
        self._ahead_parity = 1 if layout.shift > 0 else 0
        self._origin_line = self.origin[1 - self.axis]

    def _make_steps(self, ahead: bool) -> List[Step]:
        """The six steps (d_along, d_across) as (dx, dy, cost); ``ahead``: this cell's line is shifted forward of the
        others."""
        firsts = (0, 1) if ahead else (-1, 0)
        steps = [(-1, 0, self.along_cost), (1, 0, self.along_cost)]
        for d_across in (-1, 1):
            for d_along in firsts:
                moved = d_along - (0.5 if ahead else -0.5)  # along, in cells, between the two centres
                cost = self.forward_cost if (moved > 0) == (d_across > 0) else self.backward_cost
                steps.append((d_along, d_across, cost))
        if self.axis == 1:
            steps = [(d_across, d_along, cost) for d_along, d_across, cost in steps]
        return steps

    def line_ahead(self, cell: Cell) -> bool:
        """Whether a grid cell's line lies half a cell forward of its neighbour lines (moved by +0.5, or its
        neighbours moved by -0.5)."""
        return (cell[1 - self.axis] + self._origin_line) % 2 == self._ahead_parity

    def lines_ahead(self, first: int, count: int) -> List[bool]:
        """:meth:`line_ahead` of the grid lines (rows for offset x, columns for offset y) ``first`` on, ``count`` of
        them."""
        shift_forward = self.layout.shift > 0
        base = first + self.origin[1 - self.axis]
        return [self.layout.line_shifted(base + line) == shift_forward for line in range(count)]

    def steps(self, cell: Cell) -> List[Step]:
        """The six (dx, dy, cost) steps out of a grid cell, on or off the map."""
        return self._steps[self.line_ahead(cell)]

    def steps_of(self, ahead: bool) -> List[Step]:
        """The six (dx, dy, cost) steps out of a cell whose line lies ahead of its neighbour lines, or behind them."""
        return self._steps[ahead]

    def touch(self, a: Cell, b: Cell) -> bool:
        """Whether two grid cells are hex neighbours: their sides meet."""
        return (b[0] - a[0], b[1] - a[1]) in self._step_costs[self.line_ahead(a)]

    def step_cost(self, a: Cell, b: Cell) -> float:
        """The cost of the step between two neighbouring grid cells; ValueError if they do not touch."""
        cost = self._step_costs[self.line_ahead(a)].get((b[0] - a[0], b[1] - a[1]))
        if cost is not None:
            return cost
        raise ValueError(f"cells {tuple(a)} and {tuple(b)} are not hex neighbours: no step joins them")

    def line_moves(self, first: int, count: int) -> List[int]:
        """How far the grid lines ``first`` on (``count`` of them) are moved, in half cells: 0, or 1 or -1."""
        unit = 1 if self.layout.shift > 0 else -1
        base = first + self.origin[1 - self.axis]
        return [unit if self.layout.line_shifted(base + line) else 0 for line in range(count)]

    def doubled(self, cell: Cell) -> Tuple[int, int]:
        """A grid cell in doubled coordinates: twice its place along its line (moves included), and its line."""
        along, across = (cell[0], cell[1]) if self.axis == 0 else (cell[1], cell[0])
        return 2 * along + self.line_moves(across, 1)[0], across

    def estimate(self, a: Cell, b: Cell) -> float:
        """A lower bound of a path's cost between two grid cells: each line crossed costs a step across, and
        what is left along the lines the cheapest way a step covers half a cell (never more than the truth)."""
        (ua, va), (ub, vb) = self.doubled(a), self.doubled(b)
        du, dv = abs(ua - ub), abs(va - vb)
        return dv * self.across_price + max(0, du - dv) * self.half_price


def hex_neighbours(grid: Grid, steps: HexSteps, cell: Cell) -> List[Tuple[Cell, float]]:
    """The passable hex neighbours of a grid cell on the grid, with the cost of the step to each."""
    x, y = cell
    return [((x + dx, y + dy), cost) for dx, dy, cost in steps.steps(cell) if grid.is_passable((x + dx, y + dy))]


def hex_islands(grid: Grid, steps: "HexSteps") -> np.ndarray:
    """``labels[y, x]``: 0 on blocked cells, elsewhere the number of the island of six neighbours the cell is on
    (numbered line by line from the first)."""
    lines = grid.height if steps.axis == 0 else grid.width
    # From a line ahead of its neighbours, a cell touches cells 0 and +1 along the next line; from one behind, -1 and 0.
    contacts = np.where(steps.lines_ahead(0, lines), 1, -1)
    if steps.axis == 0:
        return label_islands(grid.passable, contacts)[0]
    return label_islands(grid.passable.T, contacts)[0].T


def find_hex_path(
    grid: Grid, layout: CellLayout, start: Cell, goal: Cell, *, max_nodes: Optional[int] = None
) -> PathResult:
    """A shortest path between two grid cells over the six neighbours of a half-offset ``layout``.

    ``grid`` gives the passable cells and, with its ``origin``, which lines are
    odd; the cost is the length of the path through the cells' centres in the
    layout's pixels. Statuses as :func:`pathing_py.find_path`'s (``UNREACHABLE``
    after searching the start's whole island, ``LIMIT_REACHED`` after
    ``max_nodes`` expansions).
    """
    start, goal = as_cell(start, "start"), as_cell(goal, "goal")
    if max_nodes is not None and (not isinstance(max_nodes, int) or isinstance(max_nodes, bool) or max_nodes < 1):
        raise ValueError(f"max_nodes must be a positive int, got {max_nodes!r}")
    steps = HexSteps(layout, grid.origin)
    early = answer_without_search(grid, start, goal, islands=False)
    if early is not None:
        return early
    width, height = grid.width, grid.height
    lines = height if steps.axis == 0 else width
    moves, ahead = steps.line_moves(0, lines), steps.lines_ahead(0, lines)
    moves_by_row = moves if steps.axis == 0 else None
    # The six steps of a cell ahead of its neighbour lines, and of one behind them: (dx, dy, flat offset, cost).
    step_lists = {
        line_ahead: [(dx, dy, dy * width + dx, cost) for dx, dy, cost in steps.steps_of(line_ahead)]
        for line_ahead in (True, False)
    }
    goal_along, goal_line = (goal[0], goal[1]) if steps.axis == 0 else (goal[1], goal[0])
    goal_u = 2 * goal_along + moves[goal_line]
    across_price, half_price = steps.across_price, steps.half_price
    open_cells = grid.passable.ravel().tolist()
    size = width * height
    best = [math.inf] * size
    came_from = [-1] * size
    done = [False] * size
    first, last = start[1] * width + start[0], goal[1] * width + goal[0]
    best[first] = 0.0
    queue = [(steps.estimate(start, goal), 0, 0.0, first)]
    pushed = expanded = 0
    while queue:
        _, _, cost, here = heappop(queue)
        if done[here]:
            continue
        if here == last:
            return PathResult(PathStatus.FOUND, _walk_back(came_from, here, width), cost, expanded)
        if max_nodes is not None and expanded >= max_nodes:
            return PathResult(PathStatus.LIMIT_REACHED, expanded=expanded)
        done[here] = True
        expanded += 1
        y, x = divmod(here, width)
        for dx, dy, offset, step in step_lists[ahead[y if moves_by_row is not None else x]]:
            nx, ny = x + dx, y + dy
            if not (0 <= nx < width and 0 <= ny < height):
                continue
            there = here + offset
            reached = cost + step
            if open_cells[there] and reached < best[there] and not done[there]:
                best[there] = reached
                came_from[there] = here
                # steps.estimate, inlined: doubled coordinates of the cell against the goal's
                if moves_by_row is not None:
                    du, dv = abs(2 * nx + moves_by_row[ny] - goal_u), abs(ny - goal_line)
                else:
                    du, dv = abs(2 * ny + moves[nx] - goal_u), abs(nx - goal_line)
                estimate = dv * across_price + (du - dv) * half_price if du > dv else dv * across_price
                pushed += 1
                heappush(queue, (reached + estimate, pushed, reached, there))
    return PathResult(PathStatus.UNREACHABLE, expanded=expanded)


class HexMap(NamedTuple):
    """A half-offset map: its obstacle table (grid cells, ``origin`` the TileMap cell of (0, 0)) and where its cells
    lie."""

    grid: Grid
    layout: CellLayout

    def find_path(self, start: Cell, goal: Cell, *, max_nodes: Optional[int] = None) -> PathResult:
        """:func:`find_hex_path` on this map, between grid cells."""
        return find_hex_path(self.grid, self.layout, start, goal, max_nodes=max_nodes)


def _walk_back(came_from: List[int], last: int, width: int) -> List[Cell]:
    flats = [last]
    while came_from[flats[-1]] >= 0:
        flats.append(came_from[flats[-1]])
    return [(flat % width, flat // width) for flat in reversed(flats)]
