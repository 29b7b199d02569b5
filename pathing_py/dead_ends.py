"""Dead-end pruning for exact search on maze-like grids: climb the trees, search only the core.

Peel the move graph of a uniform-cost grid like an onion: a free cell with at
most one free neighbour (under the corner rule, :func:`pathing_py.grid.corner_offsets`)
is a dead end; remove it, and its neighbour may become one. What is left is
the *core*, where every cell lies on a cycle; what was peeled is a forest of
trees, each hanging from one core cell (its *top*) or, on an island without a
cycle, from its own root (the top then).

Every path out of a tree leaves through its top, so a shortest path

- between two cells below the same top is the tree path through their lowest
  common ancestor (the only simple path there is), found by climbing parents;
- otherwise climbs from the start to its top, searches the core from top to
  top, and descends to the goal.

On a perfect maze (maze512-1-0: one tree) every query is a climb, with no
search at all. The peel is a Python loop over the free cells, so it is only
run where it pays: when most free cells have at most two moves (corridors);
elsewhere :class:`DeadEnds` hands every query to the search it wraps.

Edits: the trees are dropped at the first edit (queries fall back to the
wrapped search, which follows edits locally, so that an edit costs what the
cells near it need) and peeled again once the searches since the edit have
expanded as many nodes as :data:`REPEEL_SHARE` of the free cells (about what a
peel costs: a game that keeps asking gets the trees back for the price of the
searches it already paid, one that edits all the time keeps searching).
"""

from typing import List, Optional

import numpy as np

from .grid import Cell, corner_offsets, is_move
from .jump_tables import DIRECTIONS, pad
from .search_state import SQRT2, PathResult, PathStatus, Searcher

__all__ = ["CORRIDOR_SHARE", "DeadEnds", "REPEEL_SHARE", "move_counts", "worth_peeling"]

#: The peel runs when at least this share of the free cells have at most two moves. A maze has
#: all of them; open maps a few percent at most, whose cores keep nearly
#: every cell, so that peeling them would cost a bake and save no query anything.
CORRIDOR_SHARE = 0.5

#: After an edit, the grid is peeled again once the searches without the trees have expanded this
#: share of its free cells (an expansion costs a few times what the peel spends on a cell).
REPEEL_SHARE = 0.5

_CORE = -2  #: parent of a core cell
_ROOT = -1  #: parent of the root of a tree that hangs from no core cell


def _moves(stride: int, connectivity: int) -> List[tuple]:
    """(offset, corner a, corner b) of each move in a padded flat grid; corners 0 when there are none."""
    moves = []
    for dx, dy in DIRECTIONS:
        if is_move(dx, dy, connectivity):
            sides = [cx + cy * stride for cx, cy in corner_offsets(dx, dy)] or [0, 0]
            moves.append((dx + dy * stride, sides[0], sides[1]))
    return moves


def move_counts(padded: np.ndarray, connectivity: int) -> np.ndarray:
    """For each cell of a padded grid, how many moves lead from it (0 on blocked cells)."""
    inner = padded[1:-1, 1:-1]
    counts = np.zeros(inner.shape, dtype=np.int8)
    height, width = inner.shape
    for dx, dy in DIRECTIONS:
        if not is_move(dx, dy, connectivity):
            continue
        allowed = padded[1 + dy : 1 + dy + height, 1 + dx : 1 + dx + width].copy()
        for cx, cy in corner_offsets(dx, dy):
            allowed &= padded[1 + cy : 1 + cy + height, 1 + cx : 1 + cx + width]
        counts += allowed
    result = np.zeros(padded.shape, dtype=np.int8)
    result[1:-1, 1:-1] = np.where(inner, counts, 0)
    return result


def worth_peeling(padded: np.ndarray, connectivity: int) -> bool:
    """Whether a padded grid is maze-like: at least :data:`CORRIDOR_SHARE` of its free cells have at most two moves."""
    free = int(np.count_nonzero(padded))
    corridors = int(np.count_nonzero(padded & (move_counts(padded, connectivity) <= 2)))
    return free > 0 and corridors >= CORRIDOR_SHARE * free


class _Forest:
    """The peeled trees of one padded grid: each cell's parent, depth below its top, and top.

    Peeled with Python lists, kept as int32 arrays read through memoryviews (a tenth of the
    memory of lists of Python ints; a climb reads a few entries a step).
    """

    def __init__(self, padded: np.ndarray, connectivity: int):
        stride = padded.shape[1]
        passable = padded.ravel().tolist()
        counts = move_counts(padded, connectivity).ravel()
        moves = _moves(stride, connectivity)
        size = len(passable)
        parent = [_CORE] * size
        removed = bytearray(size)
        degree = counts.tolist()
        queue = np.flatnonzero(padded.ravel() & (counts <= 1)).tolist()
        for cell in queue:  # grows as cells become dead ends
            removed[cell] = 1
            up = _ROOT
            for offset, side_a, side_b in moves:
                neighbour = cell + offset
                if removed[neighbour] or not passable[neighbour]:
                    continue
                if side_a and not (passable[cell + side_a] and passable[cell + side_b]):  # (a corner cut)
                    continue
                up = neighbour
                degree[neighbour] -= 1
                if degree[neighbour] == 1:
                    queue.append(neighbour)
            parent[cell] = up
        depth = [0] * size
        top = list(range(size))
        for cell in reversed(queue):  # parents before children
            up = parent[cell]
            if up >= 0:
                depth[cell] = depth[up] + 1
                top[cell] = top[up]
        self.arrays = [np.array(values, dtype=np.int32) for values in (parent, depth, top)]
        self.parent, self.depth, self.top = (array.data for array in self.arrays)
        self.peeled = len(queue)

    def climb(self, cell: int) -> List[int]:
        """The cells from ``cell`` up to its top, both included."""
        parent, depth = self.parent, self.depth
        cells = [cell]
        for _ in range(depth[cell]):
            cell = parent[cell]
            cells.append(cell)
        return cells

    def tree_path(self, a: int, b: int) -> List[int]:
        """The cells of the path from ``a`` to ``b`` under one top, through their lowest common ancestor."""
        parent, depth = self.parent, self.depth
        up, down = [a], [b]
        while depth[a] > depth[b]:
            a = parent[a]
            up.append(a)
        while depth[b] > depth[a]:
            b = parent[b]
            down.append(b)
        while a != b:
            a, b = parent[a], parent[b]
            up.append(a)
            down.append(b)
        down.pop()
        down.reverse()
        return up + down


class DeadEnds:
    """Wraps a grid's exact search: queries that touch peeled trees climb them, the rest is searched.

    ``inner`` searches the whole grid: the core between two tops, and every query when the grid
    is not peeled (not maze-like, or edited since it was).
    """

    def __init__(self, passable: np.ndarray, connectivity: int, inner: Searcher):
        self.inner = inner
        self.connectivity = connectivity
        self.stride = passable.shape[1] + 2
        self.forest: Optional[_Forest] = None
        self.stale = False  #: peeled, then edited: peel again once the searches since have paid for it
        self.expanded_since_edit = 0
        self.repeel_after = 0.0
        self.rebuild(passable)

    def rebuild(self, passable: np.ndarray) -> None:
        """Peel the grid as it is now if it is maze-like (:func:`worth_peeling`); else go without trees."""
        padded = pad(passable)
        self.forest = _Forest(padded, self.connectivity) if worth_peeling(padded, self.connectivity) else None
        self.stale = False
        self.expanded_since_edit = 0
        self.repeel_after = REPEEL_SHARE * int(np.count_nonzero(padded))

    @property
    def peeled(self) -> int:
        """How many cells the trees hold (0 when the grid is not peeled)."""
        return 0 if self.forest is None else self.forest.peeled

    def sync(self, grid) -> None:
        """Catch up with edits: the inner search at once, the trees when the searches since have paid for them."""
        self.inner.sync(grid)
        if self.stale and self.expanded_since_edit >= self.repeel_after:
            self.rebuild(grid.passable)

    def cells_changed(self, xs: np.ndarray, ys: np.ndarray) -> None:
        """Pass the edit on to the inner search and drop the trees, if any: it may cut one or close a cycle."""
        self.inner.cells_changed(xs, ys)
        if self.forest is not None:
            self.forest = None
            self.stale = True

    def search(self, start: Cell, goal: Cell, max_nodes: Optional[int], weight: float = 1.0) -> PathResult:
        forest = self.forest
        if forest is None:
            result = self.inner.search(start, goal, max_nodes, weight)
            self.expanded_since_edit += result.expanded
            return result
        stride = self.stride
        source = (start[1] + 1) * stride + start[0] + 1
        target = (goal[1] + 1) * stride + goal[0] + 1
        top_source, top_target = forest.top[source], forest.top[target]
        if top_source == top_target:
            path = forest.tree_path(source, target)
            return PathResult(PathStatus.FOUND, self._cells(path), self._length(path))
        core = self.inner.search(self._cells([top_source])[0], self._cells([top_target])[0], max_nodes, weight)
        if not core:
            return core
        head, tail = forest.climb(source), forest.climb(target)
        tail.reverse()
        cells = self._cells(head[:-1]) + core.cells + self._cells(tail[1:])
        return PathResult(PathStatus.FOUND, cells, self._length(head) + core.cost + self._length(tail), core.expanded)

    def _cells(self, path: List[int]) -> List[Cell]:
        """The grid cells of padded indices (in numpy: a climb of a maze's tree runs to thousands of cells)."""
        ys, xs = np.divmod(np.array(path, dtype=np.int64), self.stride)
        return list(zip((xs - 1).tolist(), (ys - 1).tolist()))

    def _length(self, path: List[int]) -> float:
        """The length of a path of padded indices: its straight steps change the index by 1 or a row."""
        steps = np.abs(np.diff(np.array(path, dtype=np.int64)))
        straight = int(np.count_nonzero((steps == 1) | (steps == self.stride)))
        return straight + (len(path) - 1 - straight) * SQRT2
