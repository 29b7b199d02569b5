"""Exact path search on a :class:`~pathing_py.Grid` (SPEC A1–A3).

Quick start::

    >>> from pathing_py import Grid, find_path, PathStatus
    >>> grid = Grid.from_ascii('''
    ... .....
    ... .###.
    ... .....
    ... ''')
    >>> result = find_path(grid, (0, 1), (4, 1))
    >>> result.status is PathStatus.FOUND, round(result.cost, 3)
    (True, 6.0)
    >>> result.cells[0], result.cells[-1]
    ((0, 1), (4, 1))
    >>> find_path(grid, (0, 0), (2, 1)).status
    <PathStatus.GOAL_BLOCKED: 'GOAL_BLOCKED'>

Movement: 8 neighbours; a straight step costs 1, a diagonal sqrt(2); a
diagonal step needs both orthogonal cells free (no corner cutting: the corner
rule, :func:`pathing_py.grid.corner_offsets`); with a
cost array, a step into a cell is multiplied by that cell's cost. Paths are
optimal under this rule (the rule of the Moving AI benchmarks). On a
4-connected grid (``Grid(..., connectivity=4)``) only the 4 straight steps
are moves, and the estimate is the Manhattan distance::

    >>> rooks = Grid.from_ascii('''
    ... .....
    ... .###.
    ... .....
    ... ''', connectivity=4)
    >>> result = find_path(rooks, (0, 1), (4, 1))
    >>> result.cost, len(result.cells)
    (6.0, 7)
    >>> find_path(rooks, (0, 0), (4, 2)).cost
    6.0

Uniform-cost 8-connected grids are searched with Jump Point Search over precomputed jump
distances (JPS+, see :mod:`pathing_py.jump_tables`), 4-connected ones with a jump point search
of straight steps (:mod:`pathing_py.rook_jumps`); on maze-like grids both search only the core
left after peeling the dead-end trees, whose paths are climbed (:mod:`pathing_py.dead_ends`), and
on cluttered ones JPS+ raises its estimate with landmarks' distances (:mod:`pathing_py.differential`).
Weighted grids and searches bounded to a rectangle use A* over the same padded flat layout.
All keep their per-cell markers between queries and reset them by bumping a
generation counter, so a query costs nothing for the cells it does not touch.
"""

import math
import numbers
from heapq import heappop, heappush
from typing import List, Optional, Tuple

import numpy as np

from .dead_ends import DeadEnds, worth_peeling
from .differential import LANDMARK_REPAY, MARGIN, Landmarks, worth_landmarks
from .differential import STEP as LANDMARK_STEP  # the unit of the landmarks' distances
from .grid import Cell, Grid, corner_offsets, is_move
from .jump_tables import DIRECTIONS, JumpTables, pad
from .rook_jumps import RookJumpSearch
from .search_state import SQRT2, TIE_BREAK, Markers, PathResult, PathStatus, Searcher, straight_runs

__all__ = [
    "PathStatus", "PathResult", "diagonal_saving", "find_path", "grid_distance", "grid_distances", "octile_distance",
    "prepare",
]  # fmt: skip

_OCTILE_SAVING = SQRT2 - 2.0  #: diagonal_saving(8)


def octile_distance(a: Cell, b: Cell) -> float:
    """The length of the shortest king-move path between two cells on an empty grid."""
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    return max(dx, dy) + (SQRT2 - 1.0) * min(dx, dy)


def diagonal_saving(connectivity: int) -> float:
    """What a diagonal step saves over the two straight steps it replaces: sqrt(2) - 2 on an
    8-connected grid, nothing on a 4-connected one. The searches' estimate of a move by (dx, dy)
    is ``dx + dy + diagonal_saving * min(dx, dy)``: octile, or Manhattan."""
    return _OCTILE_SAVING if connectivity == 8 else 0.0


def grid_distance(a: Cell, b: Cell, connectivity: int = 8) -> float:
    """The length of the shortest path between two cells on an empty grid of this connectivity:
    the octile distance, or the Manhattan distance on a 4-connected grid."""
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    return (
        dx + dy + (_OCTILE_SAVING if connectivity == 8 else 0.0) * min(dx, dy)
    )  # (diagonal_saving inlined: units ask at every step)


def grid_distances(a: np.ndarray, b: np.ndarray, connectivity: int = 8) -> np.ndarray:
    """:func:`grid_distance` for arrays of cells (rows of x, y; the two broadcast against each other),
    for callers that measure many pairs at once."""
    d = np.abs(a - b)
    return d.sum(axis=-1) + diagonal_saving(connectivity) * d.min(axis=-1)


def find_path(
    grid: Grid,
    start: Cell,
    goal: Cell,
    *,
    max_nodes: Optional[int] = None,
    bounds: Optional[Tuple[int, int, int, int]] = None,
    once: bool = False,
    weight: float = 1.0,
) -> PathResult:
    """Find a shortest path from ``start`` to ``goal``.

    Parameters
    ----------
    grid : Grid
    start, goal : (x, y)
        Grid cells (integers).
    max_nodes : int, optional
        Give up with ``LIMIT_REACHED`` after expanding this many nodes.
    bounds : (x, y, width, height), optional
        Search only inside this rectangle (as Godot's ``Rect2``: position and
        size); endpoints outside it are ``OUT_OF_BOUNDS``.
    once : bool
        The grid is searched this once (a window cut out around units, or the map with units in
        it): plain A*, without the islands and jump tables that pay for themselves only over many
        queries of one grid. On a large grid the caller may ask ``grid.same_island`` first: labelling
        costs less than a search that floods a cut-off island.
    weight : float
        1 (the default) for a shortest path; more for one at most ``weight`` times as long, found
        sooner (weighted A*: the estimate scaled by it). On cluttered maps, where every path is a
        few percent longer than the estimate says, a weight of that much lets the search follow
        one path instead of searching a band around it.

    Returns
    -------
    PathResult
        ``status`` says why there is no path when there is none. Endpoints on
        different islands are answered ``UNREACHABLE`` without a search.
    """
    start = as_cell(start, "start")
    goal = as_cell(goal, "goal")
    if max_nodes is not None and (not isinstance(max_nodes, int) or max_nodes < 1):
        raise ValueError(f"max_nodes must be a positive int, got {max_nodes!r}")
    if isinstance(weight, bool) or not isinstance(weight, numbers.Real) or not 1.0 <= weight < math.inf:
        raise ValueError(f"weight must be a number, 1 or more and finite, got {weight!r}")
    region = _region(grid, bounds)
    x0, y0, x1, y1 = region
    early = answer_without_search(grid, start, goal, region, islands=not once)
    if early is not None:
        return early
    if region == (0, 0, grid.width, grid.height) and not once:
        searcher = _searcher(grid)
    else:
        sub_cost = None if grid.cost is None else grid.cost[y0:y1, x0:x1]
        searcher = _AStar(grid.passable[y0:y1, x0:x1], sub_cost, grid.connectivity)
    result = searcher.search((start[0] - x0, start[1] - y0), (goal[0] - x0, goal[1] - y0), max_nodes, float(weight))
    if x0 or y0:
        result.cells = [(x + x0, y + y0) for x, y in result.cells]
    return result


def prepare(grid: Grid) -> None:
    """Build the grid's islands and search tables now rather than at the first query.

    A game calls this while loading a level, so that no frame pays for it. After edits it only
    catches up (islands and jump tables, locally); what edits drop, the dead-end trees of a
    maze-like grid (:mod:`pathing_py.dead_ends`) and the landmarks of a cluttered one
    (:mod:`pathing_py.differential`), comes back once the searches without them have cost
    about what building them again does.
    """
    grid.prepare_islands()
    _searcher(grid)


def _searcher(grid: Grid) -> Searcher:
    """The grid's search, built at its first query: A* on a weighted grid; on a uniform one, the
    jump point search of its connectivity (:class:`_JumpPointSearch`, JPS+ for king moves, with
    landmarks if the grid is cluttered; :class:`~pathing_py.rook_jumps.RookJumpSearch` for straight
    ones) behind the dead-end pruning, which peels the grid if it is maze-like."""
    if grid.cost is not None:
        return _cached(grid, "astar", lambda: _AStar(grid.passable, grid.cost, grid.connectivity))
    inner = _JumpPointSearch if grid.connectivity == 8 else RookJumpSearch
    return _cached(grid, "dead_ends", lambda: DeadEnds(grid.passable, grid.connectivity, inner(grid)))


def answer_without_search(
    grid: Grid, start: Cell, goal: Cell, region: Optional[Tuple[int, int, int, int]] = None, *, islands: bool = True
) -> Optional[PathResult]:
    """The answer when no search is needed: an endpoint outside ``region`` ((x0, y0, x1, y1),
    the grid by default) or blocked, endpoints on different islands (if ``islands``: labelling
    them costs more than a search of a small grid asked once), or start == goal. Else None."""
    x0, y0, x1, y1 = region or (0, 0, grid.width, grid.height)
    for cell in (start, goal):
        if not (x0 <= cell[0] < x1 and y0 <= cell[1] < y1):
            return PathResult(PathStatus.OUT_OF_BOUNDS)
    if not grid.is_passable(start):
        return PathResult(PathStatus.START_BLOCKED)
    if not grid.is_passable(goal):
        return PathResult(PathStatus.GOAL_BLOCKED)
    if islands and not grid.same_island(start, goal):
        return PathResult(PathStatus.UNREACHABLE)
    if start == goal:
        return PathResult(PathStatus.FOUND, [start], 0.0)
    return None


def as_cell(cell, name: str) -> Cell:
    """``cell`` as a pair of Python ints; TypeError naming ``name`` otherwise."""
    try:
        x, y = cell
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be an (x, y) pair, got {cell!r}") from None
    if not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in (x, y)):
        raise TypeError(f"{name} must be a pair of ints, got {cell!r}")
    return int(x), int(y)


def _region(grid: Grid, bounds) -> Tuple[int, int, int, int]:
    if bounds is None:
        return 0, 0, grid.width, grid.height
    try:
        x, y, width, height = (int(v) for v in bounds)
    except (TypeError, ValueError):
        raise TypeError(f"bounds must be (x, y, width, height), got {bounds!r}") from None
    if width <= 0 or height <= 0:
        raise ValueError(f"bounds must have a positive size, got {bounds!r}")
    return max(x, 0), max(y, 0), min(x + width, grid.width), min(y + height, grid.height)


def _cached(grid: Grid, key: str, build):
    """Per-grid search state that follows the grid's edits (see Grid.set_blocked)."""
    searcher = grid.follower(key, build)
    searcher.sync(grid)
    return searcher


class _AStar:
    """A* over a padded flat grid; for weighted grids, bounded searches and grids searched once."""

    def __init__(self, passable: np.ndarray, cost: Optional[np.ndarray], connectivity: int):
        self.height, self.width = passable.shape
        self.connectivity = connectivity
        self._load(passable, cost)
        self.markers = Markers(len(self.passable))

    def _load(self, passable: np.ndarray, cost: Optional[np.ndarray]) -> None:
        padded = pad(passable)
        stride = padded.shape[1]
        self.stride = stride
        self.passable = padded.ravel().tolist()
        if cost is None:
            self.cost = None
        else:
            padded_cost = np.ones(padded.shape)
            padded_cost[1:-1, 1:-1] = cost
            self.cost = padded_cost.ravel().tolist()
        moves = []
        for dx, dy in DIRECTIONS:
            if not is_move(dx, dy, self.connectivity):
                continue
            sides = [cx + cy * stride for cx, cy in corner_offsets(dx, dy)] or [0, 0]  # 0: no corner to check
            moves.append((dx + dy * stride, SQRT2 if dx and dy else 1.0, sides[0], sides[1]))
        self.moves = moves
        self.stale = False

    def sync(self, grid: Grid) -> None:
        """Catch up with edits made since the last query."""
        if self.stale:
            self._load(grid.passable, grid.cost)

    def cells_changed(self, xs, ys) -> None:
        self.stale = True

    def search(self, start: Cell, goal: Cell, max_nodes: Optional[int], weight: float = 1.0) -> PathResult:
        stride = self.stride
        passable, cost, moves = self.passable, self.cost, self.moves
        markers = self.markers
        state, g, parent = markers.state, markers.g, markers.parent
        source = (start[1] + 1) * stride + start[0] + 1
        target = (goal[1] + 1) * stride + goal[0] + 1
        goal_x, goal_y = goal[0] + 1, goal[1] + 1
        limit = max_nodes or -1
        reached = markers.begin(source)
        shut = reached + 1
        heap = [(0.0, source)]
        expanded = 0
        diagonal_extra = diagonal_saving(self.connectivity)
        scale = TIE_BREAK * weight
        while heap:
            _, node = heappop(heap)
            if state[node] == shut:
                continue
            state[node] = shut
            if node == target:
                break
            if expanded == limit:
                return PathResult(PathStatus.LIMIT_REACHED, expanded=expanded)
            expanded += 1
            g_node = g[node]
            for offset, length, side_a, side_b in moves:
                neighbour = node + offset
                if not passable[neighbour] or (side_a and not (passable[node + side_a] and passable[node + side_b])):
                    continue
                g_new = g_node + (length if cost is None else length * cost[neighbour])
                if state[neighbour] < reached or g_new < g[neighbour]:
                    state[neighbour] = reached  # opened again if closed: a weighted search may close a node early
                    g[neighbour] = g_new
                    parent[neighbour] = node
                    y, x = divmod(neighbour, stride)
                    dx = abs(x - goal_x)
                    dy = abs(y - goal_y)
                    h = dx + dy + diagonal_extra * (dx if dx < dy else dy)
                    heappush(heap, (g_new + h * scale, neighbour))
        else:
            return PathResult(PathStatus.UNREACHABLE, expanded=expanded)
        return PathResult(PathStatus.FOUND, markers.trace(target, stride), g[target], expanded)


def _successor_directions() -> List[List[int]]:
    """Directions to try from a node, by how it was reached; index 8 is the start (everywhere).

    A diagonal arrival goes on diagonally or along either component. A straight
    arrival is at a jump point: it goes on straight and, on each side with a
    forced neighbour, turns 90 and 45 degrees to that side. Entry
    ``9 + 4 * arrival + sides`` holds a straight arrival's list, where bit 0 of
    ``sides`` is the side counter-clockwise, bit 1 the side clockwise.
    """
    table = [[a, (a - 1) % 8, (a + 1) % 8] if a % 2 else [] for a in range(8)] + [list(range(8))]
    for a in range(8):
        for sides in range(4):
            turns = [a]
            if sides & 1:
                turns += [(a - 2) % 8, (a - 1) % 8]
            if sides & 2:
                turns += [(a + 2) % 8, (a + 1) % 8]
            table.append(turns)
    return table


_SUCCESSOR_DIRECTIONS = _successor_directions()


class _JumpPointSearch:
    """JPS+ on a uniform-cost grid: A* whose edges are jumps read from the tables, its estimate
    raised by landmarks on cluttered maps (:mod:`pathing_py.differential`)."""

    def __init__(self, grid: Grid):
        self.tables = JumpTables(grid.passable)
        self.stride = self.tables.width
        size = len(self.tables.tables[0])
        self.markers = Markers(size)
        self.arrival = bytearray([8]) * size  # directions 0-8: a byte a cell, not a list entry
        self.edited: List[Tuple[np.ndarray, np.ndarray]] = []
        self.landmarks: Optional[Landmarks] = None
        self.landmarks_stale = worth_landmarks(self.tables.padded) and not worth_peeling(self.tables.padded, 8)
        # After an edit, the searches without landmarks pay for computing them again (as dead_ends does).
        self.expanded_since_edit = 0
        self.repay_after = LANDMARK_REPAY * int(np.count_nonzero(self.tables.padded))
        self._compute_landmarks(grid.passable)

    def _compute_landmarks(self, passable: np.ndarray) -> None:
        """Compute the landmarks' distances if the grid wants them and has none (at the start, after edits)."""
        if self.landmarks_stale:
            self.landmarks = Landmarks(pad(passable))
            self.landmarks_stale = False
            self.expanded_since_edit = 0

    def sync(self, grid: Grid) -> None:
        """Catch up with edits made since the last query: one refresh around all of them."""
        if self.edited:
            xs = np.concatenate([xs for xs, _ in self.edited])
            ys = np.concatenate([ys for _, ys in self.edited])
            self.tables.refresh(grid.passable, xs, ys)
            self.edited = []
        if self.landmarks_stale and self.expanded_since_edit >= self.repay_after:
            self._compute_landmarks(grid.passable)

    def cells_changed(self, xs: np.ndarray, ys: np.ndarray) -> None:
        """Note the edit for the next sync; drop the landmarks, whose distances it may change."""
        self.edited.append((xs, ys))
        if self.landmarks is not None:
            self.landmarks = None
            self.landmarks_stale = True
            self.expanded_since_edit = 0

    def search(self, start: Cell, goal: Cell, max_nodes: Optional[int], weight: float = 1.0) -> PathResult:
        stride = self.stride
        tables = self.tables.tables
        markers = self.markers
        state, g, parent, arrival = markers.state, markers.g, markers.parent, self.arrival
        goal_x, goal_y = goal[0] + 1, goal[1] + 1
        source = (start[1] + 1) * stride + start[0] + 1
        target = goal_y * stride + goal_x
        bounds = (
            [] if self.landmarks is None else self.landmarks.for_query(source, target, octile_distance(start, goal))
        )
        limit = max_nodes or -1
        reached = markers.begin(source)
        shut = reached + 1
        arrival[source] = 8
        heap = [(0.0, source)]
        expanded = 0
        diagonal_extra = SQRT2 - 2.0
        moves = [(dx, dy, dx + dy * stride, dx != 0 and dy != 0) for dx, dy in DIRECTIONS]
        successors = _SUCCESSOR_DIRECTIONS
        passable = self.tables.passable
        # For a straight arrival: the side cells and the side cells one step back, both sides.
        sides = {}
        for a in range(0, 8, 2):
            forward, left, right = moves[a][2], moves[(a - 2) % 8][2], moves[(a + 2) % 8][2]
            sides[a] = (left, left - forward, right, right - forward, 9 + 4 * a)
        scale = TIE_BREAK * weight
        while heap:
            _, node = heappop(heap)
            if state[node] == shut:
                continue
            state[node] = shut
            if node == target:
                break
            if expanded == limit:
                return PathResult(PathStatus.LIMIT_REACHED, expanded=expanded)
            expanded += 1
            g_node = g[node]
            y, x = divmod(node, stride)
            to_x = goal_x - x
            to_y = goal_y - y
            came = arrival[node]
            if came & 1 or came == 8:
                directions = successors[came]
            else:
                left, left_back, right, right_back, entry = sides[came]
                if passable[node + left] and not passable[node + left_back]:
                    entry += 1
                if passable[node + right] and not passable[node + right_back]:
                    entry += 2
                directions = successors[entry]
            for direction in directions:
                jump = tables[direction][node]
                if jump == 0:  # a wall right here: not even the goal can lie this way
                    continue
                dx, dy, offset, diagonal = moves[direction]
                reach = jump if jump > 0 else -jump
                if diagonal:
                    along_x = to_x * dx
                    along_y = to_y * dy
                    if along_x > 0 and along_y > 0:
                        steps = along_x if along_x < along_y else along_y
                        if steps > reach:
                            if jump <= 0:
                                continue
                            steps = jump
                    elif jump > 0:
                        steps = jump
                    else:
                        continue
                    g_new = g_node + steps * SQRT2
                else:
                    steps = to_x * dx + to_y * dy
                    if (to_x if dx == 0 else to_y) == 0 and 0 < steps <= reach:
                        pass  # the goal lies on this ray, before the jump point or the wall
                    elif jump > 0:
                        steps = jump
                    else:
                        continue
                    g_new = g_node + steps
                neighbour = node + steps * offset
                if state[neighbour] < reached or g_new < g[neighbour]:
                    state[neighbour] = reached  # opened again if closed: the landmarks' bounds are not consistent
                    g[neighbour] = g_new
                    parent[neighbour] = node
                    arrival[neighbour] = direction
                    h_x = goal_x - x - steps * dx
                    h_y = goal_y - y - steps * dy
                    if h_x < 0:
                        h_x = -h_x
                    if h_y < 0:
                        h_y = -h_y
                    h = h_x + h_y + diagonal_extra * (h_x if h_x < h_y else h_y)
                    for row, at_target in bounds:
                        steps = row[neighbour] - at_target
                        bound = (steps if steps > 0 else -steps) * LANDMARK_STEP - MARGIN
                        if bound > h:
                            h = bound
                    heappush(heap, (g_new + h * scale, neighbour))
        else:
            self.expanded_since_edit += expanded
            return PathResult(PathStatus.UNREACHABLE, expanded=expanded)
        self.expanded_since_edit += expanded
        return PathResult(PathStatus.FOUND, straight_runs(markers.trace(target, stride)), g[target], expanded)
