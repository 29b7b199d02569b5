"""Jump Point Search for 4-connected uniform-cost grids (straight steps only), over jump tables.

A 4-connected grid has many shortest paths between two cells (every monotone
staircase); the search keeps one *canonical* family of them and jumps along it:

- a vertical run goes on straight, and turns east or west only where it must:
  where the side cell is free but the side cell one step back is blocked (the
  forced neighbours of JPS; :func:`pathing_py.jump_tables.straight_jumps`
  stops at those cells);
- a horizontal run may turn north or south anywhere, so it stops where a
  vertical jump from its cell finds a jump point (the role diagonal moves play
  in 8-connected JPS), or at the goal's column.

Every pair of connected cells has a shortest path of this form: a turn from a
vertical run onto a side whose cell one step back is free can be moved one
step back, onto the run before it, without lengthening the path, until it
meets a blocked cell (a forced turn), the start, or a horizontal run (which
may turn anywhere). So the search is exact, as plain A* with the Manhattan
estimate, and expands only the turning cells.

The tables are four int32 arrays over the grid padded with a blocked border,
with the sign convention of :mod:`pathing_py.jump_tables` (``k > 0``: a jump
point ``k`` steps away; ``k <= 0``: none, ``-k`` free steps up to a wall).
Edits rewrite them locally: the vertical tables in the columns next to the
edited cells, the horizontal ones in the rows where a cell's stopping changed.
"""

from heapq import heappop, heappush
from typing import Dict, List, Optional, Tuple

import numpy as np

from .grid import Cell
from .jump_tables import DIRECTIONS, pad, straight_jumps
from .search_state import TIE_BREAK, Markers, PathResult, PathStatus, straight_runs

__all__ = ["RookJumpSearch", "RookJumpTables"]

_NORTH, _EAST, _SOUTH, _WEST = 0, 2, 4, 6
_START = 8  #: the arrival of the start: every direction


def _scan_east(passable: np.ndarray, stops: np.ndarray) -> np.ndarray:
    """Eastward jump distances in each row to the first free cell in ``stops`` after a cell, or the wall."""
    height, width = passable.shape
    columns = np.arange(width, dtype=np.int32)
    position = np.where(stops | ~passable, columns, np.int32(width))
    at_or_after = np.minimum.accumulate(position[:, ::-1], axis=1)[:, ::-1]
    after = np.full_like(at_or_after, width - 1)  # past the last column: the padding's wall, never read
    after[:, :-1] = at_or_after[:, 1:]
    steps = after - columns
    hit_free = np.take_along_axis(passable, after, axis=1)
    distance = np.where(hit_free, steps, 1 - steps)
    distance[~passable] = 0
    return distance.astype(np.int32)


class RookJumpTables:
    """The four jump tables of one padded 4-connected grid, kept as memoryviews for the search."""

    #: An edit touching more than 1/REBUILD_SHARE of the columns rebuilds the tables rather than rewriting columns.
    REBUILD_SHARE = 8

    def __init__(self, passable: np.ndarray):
        self.padded = pad(passable)
        self.width = self.padded.shape[1]
        self.arrays: Dict[int, np.ndarray] = {}
        self._build()

    def _build(self) -> None:
        padded = self.padded
        # C-ordered, so that the memoryviews below are views of the arrays that refresh() rewrites.
        north, south = (np.ascontiguousarray(straight_jumps(padded, d), dtype=np.int32) for d in (_NORTH, _SOUTH))
        self.stops = (north > 0) | (south > 0)
        self.arrays = {
            _NORTH: north,
            _SOUTH: south,
            _EAST: _scan_east(padded, self.stops),
            _WEST: np.ascontiguousarray(_scan_east(padded[:, ::-1], self.stops[:, ::-1])[:, ::-1]),
        }
        self.tables = {d: array.reshape(-1).data for d, array in self.arrays.items()}
        self.passable = self.padded.reshape(-1).data

    def refresh(self, passable: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> None:
        """Follow edits of cells (xs, ys) (grid coordinates) already made in ``passable``: the vertical
        tables of the columns beside them, then the horizontal ones of the rows whose stops changed."""
        xs, ys = np.asarray(xs, dtype=np.int64) + 1, np.asarray(ys, dtype=np.int64) + 1
        self.padded[ys, xs] = passable[ys - 1, xs - 1]
        columns = np.unique(np.concatenate([xs - 1, xs, xs + 1]))
        columns = columns[(columns >= 1) & (columns < self.width - 1)]
        if len(columns) * self.REBUILD_SHARE > self.width:
            self._build()
            return
        # Each column with its two neighbours (forced cells look one column aside); the outer two are dropped.
        slab = self.padded[:, (columns[:, None] + np.arange(-1, 2)).ravel()]
        for d in (_NORTH, _SOUTH):
            self.arrays[d][:, columns] = straight_jumps(slab, d)[:, 1::3]
        stops = (self.arrays[_NORTH][:, columns] > 0) | (self.arrays[_SOUTH][:, columns] > 0)
        changed = np.flatnonzero((stops != self.stops[:, columns]).any(axis=1))
        self.stops[:, columns] = stops
        rows = np.unique(np.concatenate([changed, ys]))
        self.arrays[_EAST][rows] = _scan_east(self.padded[rows], self.stops[rows])
        self.arrays[_WEST][rows] = _scan_east(self.padded[rows, ::-1], self.stops[rows, ::-1])[:, ::-1]


def _successors() -> Dict[int, Tuple[int, ...]]:
    """Directions to try from a node, by how it was reached: the start everywhere; a horizontal
    arrival on and to both vertical sides; a vertical arrival on, and at ``16 + 4 * arrival + sides``
    to the sides with a forced neighbour (bit 0 the side counter-clockwise, bit 1 clockwise)."""
    table: Dict[int, Tuple[int, ...]] = {
        _START: (_NORTH, _EAST, _SOUTH, _WEST),
        _EAST: (_EAST, _NORTH, _SOUTH),
        _WEST: (_WEST, _NORTH, _SOUTH),
    }
    for arrival in (_NORTH, _SOUTH):
        for sides in range(4):
            turns = [arrival]
            if sides & 1:
                turns.append((arrival - 2) % 8)
            if sides & 2:
                turns.append((arrival + 2) % 8)
            table[16 + 4 * arrival + sides] = tuple(turns)
    return table


_SUCCESSORS = _successors()


class RookJumpSearch:
    """Jump Point Search on a 4-connected uniform-cost grid: A* with the Manhattan estimate whose
    edges are the jumps of :class:`RookJumpTables`."""

    def __init__(self, grid):
        self.tables = RookJumpTables(grid.passable)
        self.stride = self.tables.width
        size = self.tables.padded.size
        self.markers = Markers(size)
        self.arrival = bytearray([_START]) * size  # directions: a byte a cell, not a list entry
        self.edited: List[Tuple[np.ndarray, np.ndarray]] = []

    def sync(self, grid) -> None:
        """Catch up with edits made since the last query: one refresh around all of them."""
        if self.edited:
            xs = np.concatenate([xs for xs, _ in self.edited])
            ys = np.concatenate([ys for _, ys in self.edited])
            self.tables.refresh(grid.passable, xs, ys)
            self.edited = []

    def cells_changed(self, xs: np.ndarray, ys: np.ndarray) -> None:
        self.edited.append((xs, ys))

    def search(self, start: Cell, goal: Cell, max_nodes: Optional[int], weight: float = 1.0) -> PathResult:
        stride = self.stride
        tables = self.tables.tables
        passable = self.tables.passable
        markers = self.markers
        state, g, parent, arrival = markers.state, markers.g, markers.parent, self.arrival
        goal_x, goal_y = goal[0] + 1, goal[1] + 1
        source = (start[1] + 1) * stride + start[0] + 1
        target = goal_y * stride + goal_x
        limit = max_nodes or -1
        reached = markers.begin(source)
        shut = reached + 1
        arrival[source] = _START
        heap = [(0.0, source)]
        expanded = 0
        moves = {d: (dx, dy, dx + dy * stride) for d, (dx, dy) in enumerate(DIRECTIONS) if not (dx and dy)}
        # For a vertical arrival: the side cells and the side cells one step back, both sides.
        sides = {}
        for a in (_NORTH, _SOUTH):
            forward, left, right = moves[a][2], moves[(a - 2) % 8][2], moves[(a + 2) % 8][2]
            sides[a] = (left, left - forward, right, right - forward, 16 + 4 * a)
        successors = _SUCCESSORS
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
            if came == _NORTH or came == _SOUTH:
                left, left_back, right, right_back, entry = sides[came]
                if passable[node + left] and not passable[node + left_back]:
                    entry += 1
                if passable[node + right] and not passable[node + right_back]:
                    entry += 2
                directions = successors[entry]
            else:
                directions = successors[came]
            for direction in directions:
                jump = tables[direction][node]
                if jump == 0:  # a wall right here
                    continue
                dx, dy, offset = moves[direction]
                reach = jump if jump > 0 else -jump
                if dy == 0:
                    steps = to_x * dx
                    if not 0 < steps <= reach:  # the goal's column comes first, or not at all
                        if jump < 0:
                            continue
                        steps = jump
                else:
                    steps = to_y * dy
                    if not (to_x == 0 and 0 < steps <= reach):  # the goal is not on this ray before the stop
                        if jump < 0:
                            continue
                        steps = jump
                g_new = g_node + steps
                neighbour = node + steps * offset
                if state[neighbour] < reached or g_new < g[neighbour]:
                    state[neighbour] = reached  # opened again if closed: a weighted search may close a node early
                    g[neighbour] = g_new
                    parent[neighbour] = node
                    arrival[neighbour] = direction
                    h_x = to_x - steps * dx
                    h_y = to_y - steps * dy
                    estimate = (h_x if h_x > 0 else -h_x) + (h_y if h_y > 0 else -h_y)
                    heappush(heap, (g_new + estimate * scale, neighbour))
        else:
            return PathResult(PathStatus.UNREACHABLE, expanded=expanded)
        return PathResult(PathStatus.FOUND, straight_runs(markers.trace(target, stride)), g[target], expanded)
