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

The grid is only the obstacle table here: its islands, line of sight, key-point
graph and units follow the square grid's eight (or four) neighbours, not these six.
A half-offset TileMap read from a scene comes as a :class:`HexMap`, the two together::

    hexes = read_tilemap("hexagonal_map/map.tscn").hex_map()   # pathing_py.godot.scene_files
    hexes.find_path((0, 0), (9, 4)).cells                      # grid cells; hexes.grid.origin is TileMap cell (0, 0)
"""

import math
from heapq import heappop, heappush
from typing import Dict, List, NamedTuple, Optional, Tuple

from .cell_layout import CellLayout
from .grid import Cell, Grid
from .search import PathResult, PathStatus, answer_without_search, as_cell

__all__ = ["HexMap", "HexSteps", "find_hex_path", "hex_neighbours"]

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
        self._diagonal = min(self.forward_cost, self.backward_cost)
        self._per_half = min(self._diagonal, self.along_cost / 2.0)
        # Steps from a cell whose line lies half a cell ahead of its neighbour lines (d = +0.5), and behind them.
        self._steps = {ahead: self._make_steps(ahead) for ahead in (True, False)}

    def _make_steps(self, ahead: bool) -> List[Step]:
        """The six steps (d_along, d_across) as (dx, dy, cost); ``ahead``: this cell's line is shifted forward of the others."""
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
        line = cell[1 - self.axis] + self.origin[1 - self.axis]
        return self.layout.line_shifted(line) == (self.layout.shift > 0)

    def steps(self, cell: Cell) -> List[Step]:
        """The six (dx, dy, cost) steps out of a grid cell, on or off the map."""
        return self._steps[self.line_ahead(cell)]

    def doubled(self, cell: Cell) -> Tuple[int, int]:
        """A grid cell in doubled coordinates: twice its place along its line (moves included), and its line."""
        along, across = (cell[0], cell[1]) if self.axis == 0 else (cell[1], cell[0])
        line = across + self.origin[1 - self.axis]
        moved = (1 if self.layout.shift > 0 else -1) if self.layout.line_shifted(line) else 0
        return 2 * along + moved, across

    def estimate(self, a: Cell, b: Cell) -> float:
        """A lower bound of a path's cost between two grid cells: each line crossed costs a step across, and
        what is left along the lines the cheapest way a step covers half a cell (never more than the truth)."""
        (ua, va), (ub, vb) = self.doubled(a), self.doubled(b)
        du, dv = abs(ua - ub), abs(va - vb)
        return dv * self._diagonal + max(0, du - dv) * self._per_half


def hex_neighbours(grid: Grid, steps: HexSteps, cell: Cell) -> List[Tuple[Cell, float]]:
    """The passable hex neighbours of a grid cell on the grid, with the cost of the step to each."""
    x, y = cell
    return [((x + dx, y + dy), cost) for dx, dy, cost in steps.steps(cell) if grid.is_passable((x + dx, y + dy))]


def find_hex_path(grid: Grid, layout: CellLayout, start: Cell, goal: Cell, *, max_nodes: Optional[int] = None) -> PathResult:
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
    passable = grid.passable
    width, height = grid.width, grid.height
    best: Dict[Cell, float] = {start: 0.0}
    came_from: Dict[Cell, Cell] = {}
    done = set()
    queue = [(steps.estimate(start, goal), 0, 0.0, start)]
    pushed = expanded = 0
    while queue:
        _, _, cost, cell = heappop(queue)
        if cell in done:
            continue
        if cell == goal:
            return PathResult(PathStatus.FOUND, _walk_back(came_from, goal), cost, expanded)
        if max_nodes is not None and expanded >= max_nodes:
            return PathResult(PathStatus.LIMIT_REACHED, expanded=expanded)
        done.add(cell)
        expanded += 1
        x, y = cell
        for dx, dy, step in steps.steps(cell):
            nx, ny = x + dx, y + dy
            if not (0 <= nx < width and 0 <= ny < height and passable[ny, nx]):
                continue
            neighbour = (nx, ny)
            reached = cost + step
            if neighbour not in done and reached < best.get(neighbour, math.inf):
                best[neighbour] = reached
                came_from[neighbour] = cell
                pushed += 1
                heappush(queue, (reached + steps.estimate(neighbour, goal), pushed, reached, neighbour))
    return PathResult(PathStatus.UNREACHABLE, expanded=expanded)


class HexMap(NamedTuple):
    """A half-offset map: its obstacle table (grid cells, ``origin`` the TileMap cell of (0, 0)) and where its cells lie."""

    grid: Grid
    layout: CellLayout

    def find_path(self, start: Cell, goal: Cell, *, max_nodes: Optional[int] = None) -> PathResult:
        """:func:`find_hex_path` on this map, between grid cells."""
        return find_hex_path(self.grid, self.layout, start, goal, max_nodes=max_nodes)


def _walk_back(came_from: Dict[Cell, Cell], goal: Cell) -> List[Cell]:
    cells = [goal]
    while cells[-1] in came_from:
        cells.append(came_from[cells[-1]])
    cells.reverse()
    return cells
