"""A plain Dijkstra written for clarity, the yardstick for the fast searches."""

import heapq
import math

import numpy as np

NEIGHBOURS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]


def step_allowed(passable: np.ndarray, a, b, connectivity: int = 8) -> bool:
    """A king move from a to b onto a free cell, cutting no corner (a rook move, one cell, when
    ``connectivity`` is 4): pathing_py.grid.step_allowed, restated here on purpose so that the tests
    check the package's rule against an independent one."""
    (ax, ay), (bx, by) = a, b
    height, width = passable.shape
    if max(abs(bx - ax), abs(by - ay)) != 1 or not (0 <= bx < width and 0 <= by < height):
        return False
    if connectivity == 4 and abs(bx - ax) + abs(by - ay) != 1:
        return False
    if not passable[by, bx]:
        return False
    if ax != bx and ay != by:
        return bool(passable[ay, bx] and passable[by, ax])
    return True


def block_fits(passable: np.ndarray, cell, size: int) -> bool:
    """Whether the size x size block whose top-left cell is ``cell`` lies on the map, every cell free (SPEC G4)."""
    height, width = passable.shape
    x0, y0 = cell
    return all(
        0 <= x < width and 0 <= y < height and passable[y, x]
        for y in range(y0, y0 + size)
        for x in range(x0, x0 + size)
    )


def block_step_allowed(passable: np.ndarray, a, b, size: int, connectivity: int = 8) -> bool:
    """A king move (a rook move when ``connectivity`` is 4) of the size x size block from top-left cell a to b:
    the block fits at b and, for a diagonal step, at both orthogonal neighbours (the corner rule lifted to
    blocks), from the cells themselves."""
    (ax, ay), (bx, by) = a, b
    if max(abs(bx - ax), abs(by - ay)) != 1 or (connectivity == 4 and ax != bx and ay != by):
        return False
    corners = [(bx, ay), (ax, by)] if ax != bx and ay != by else []
    return all(block_fits(passable, cell, size) for cell in [b, *corners])


def step_cost(cost, a, b, size: int = 1) -> float:
    """A step's length times the cost of entering the block at b: the largest cost of its cells."""
    length = math.sqrt(2.0) if a[0] != b[0] and a[1] != b[1] else 1.0
    return length * (1.0 if cost is None else float(cost[b[1] : b[1] + size, b[0] : b[0] + size].max()))


def dijkstra(passable: np.ndarray, start, goal, cost=None, size: int = 1, connectivity: int = 8):
    """Cost of a shortest path (of a size x size block, named by its top-left cell), or None when the goal cannot be
    reached.

    ``connectivity`` 4 allows rook moves only."""
    if not (block_fits(passable, start, size) and block_fits(passable, goal, size)):
        return None
    best = {start: 0.0}
    heap = [(0.0, start)]
    while heap:
        distance, cell = heapq.heappop(heap)
        if cell == goal:
            return distance
        if distance > best[cell]:
            continue
        for dx, dy in NEIGHBOURS:
            nxt = (cell[0] + dx, cell[1] + dy)
            if (
                step_allowed(passable, cell, nxt, connectivity)
                if size == 1
                else block_step_allowed(passable, cell, nxt, size, connectivity)
            ):
                candidate = distance + step_cost(cost, cell, nxt, size)
                if candidate < best.get(nxt, math.inf):
                    best[nxt] = candidate
                    heapq.heappush(heap, (candidate, nxt))
    return None


def path_cost(passable: np.ndarray, cells, cost=None, size: int = 1, connectivity: int = 8) -> float:
    """The length of a cell path (of a size x size block, by its top-left cells), asserting that every step is a
    legal move (a rook move when ``connectivity`` is 4)."""
    total = 0.0
    assert block_fits(passable, cells[0], size), f"first cell {cells[0]} is blocked"
    for a, b in zip(cells, cells[1:]):
        legal = (
            step_allowed(passable, a, b, connectivity)
            if size == 1
            else block_step_allowed(passable, a, b, size, connectivity)
        )
        assert legal, f"illegal step {a} -> {b}"
        total += step_cost(cost, a, b, size)
    return total
