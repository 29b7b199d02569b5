"""A plain Dijkstra written for clarity, the yardstick for the fast searches."""

import heapq
import math

import numpy as np

NEIGHBOURS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]


def step_allowed(passable: np.ndarray, a, b) -> bool:
    """A king move from a to b onto a free cell, cutting no corner: pathing_py.grid.step_allowed, restated
    here on purpose so that the tests check the package's rule against an independent one."""
    (ax, ay), (bx, by) = a, b
    height, width = passable.shape
    if max(abs(bx - ax), abs(by - ay)) != 1 or not (0 <= bx < width and 0 <= by < height):
        return False
    if not passable[by, bx]:
        return False
    if ax != bx and ay != by:
        return bool(passable[ay, bx] and passable[by, ax])
    return True


def step_cost(cost, a, b) -> float:
    length = math.sqrt(2.0) if a[0] != b[0] and a[1] != b[1] else 1.0
    return length * (1.0 if cost is None else float(cost[b[1], b[0]]))


def dijkstra(passable: np.ndarray, start, goal, cost=None):
    """Cost of a shortest path, or None when the goal cannot be reached."""
    if not (passable[start[1], start[0]] and passable[goal[1], goal[0]]):
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
            if step_allowed(passable, cell, nxt):
                candidate = distance + step_cost(cost, cell, nxt)
                if candidate < best.get(nxt, math.inf):
                    best[nxt] = candidate
                    heapq.heappush(heap, (candidate, nxt))
    return None


def path_cost(passable: np.ndarray, cells, cost=None) -> float:
    """The length of a cell path, asserting that every step is a legal move."""
    total = 0.0
    assert passable[cells[0][1], cells[0][0]], f"first cell {cells[0]} is blocked"
    for a, b in zip(cells, cells[1:]):
        assert step_allowed(passable, a, b), f"illegal step {a} -> {b}"
        total += step_cost(cost, a, b)
    return total
