"""What every exact search shares (:mod:`pathing_py.search` and the searches it picks from): the
result of a query, the per-cell markers reset by a generation counter, and the searcher interface."""

import enum
import math
from typing import List, Optional, Protocol, Sequence

import numpy as np

from .grid import Cell
from .status import Status

__all__ = ["SQRT2", "TIE_BREAK", "Markers", "PathResult", "PathStatus", "Searcher", "straight_runs"]

SQRT2 = math.sqrt(2.0)
TIE_BREAK = 1.0 + 1e-9  #: estimates are scaled by this: among equal f, the deeper node first


class PathStatus(enum.Enum):
    """How a search ended, in the names of :class:`~pathing_py.status.Status`."""

    FOUND = Status.FOUND.value
    START_BLOCKED = Status.START_BLOCKED.value
    GOAL_BLOCKED = Status.GOAL_BLOCKED.value
    UNREACHABLE = Status.UNREACHABLE.value
    OUT_OF_BOUNDS = Status.OUT_OF_BOUNDS.value
    LIMIT_REACHED = Status.LIMIT_REACHED.value


class PathResult:
    """The answer to one query; truthy only when a path was found.

    ``cells`` runs from start to goal inclusive (empty unless FOUND), ``cost``
    is its length (``inf`` unless FOUND), ``expanded`` the nodes the search
    expanded (jump points for JPS).
    """

    __slots__ = ("status", "cells", "cost", "expanded")

    def __init__(self, status: PathStatus, cells: Sequence[Cell] = (), cost: float = math.inf, expanded: int = 0):
        self.status = status
        self.cells: List[Cell] = list(cells)
        self.cost = cost
        self.expanded = expanded

    def __bool__(self) -> bool:
        return self.status is PathStatus.FOUND

    def __repr__(self) -> str:
        cells, status = len(self.cells), self.status.name
        return f"PathResult({status}, {cells} cells, cost={self.cost:.3f}, expanded={self.expanded})"


class Searcher(Protocol):
    """A grid's cached search: follows the grid's edits and answers queries between free cells of one island."""

    def sync(self, grid) -> None:
        """Catch up with edits made since the last query."""

    def cells_changed(self, xs: np.ndarray, ys: np.ndarray) -> None:
        """Hear of cells (xs, ys) the grid just edited (Grid.set_blocked)."""

    def search(self, start: Cell, goal: Cell, max_nodes: Optional[int], weight: float = 1.0) -> PathResult:
        """A shortest path from ``start`` to ``goal`` (grid cells), or with ``weight`` > 1 one at most that
        many times as long (weighted A*: the estimate scaled by it)."""


class Markers:
    """Per-cell search state in flat lists, reset between queries by a generation counter.

    ``state`` holds, per cell, the generation's number when the query has reached the cell (its ``g`` and
    ``parent`` are this query's) and that number + 1 once it is closed; a number below it is an earlier
    query's. One list, not one for each: a cell reached again by a shorter way is opened again by the same
    store that marks it reached.
    """

    def __init__(self, size: int):
        self.generation = 0
        self.state = [0] * size
        self.g = [0.0] * size
        self.parent = [0] * size

    def begin(self, source: int) -> int:
        """Start a new query from ``source``; returns its generation (cells reached; + 1: closed)."""
        self.generation += 2
        self.state[source] = self.generation
        self.g[source] = 0.0
        self.parent[source] = -1
        return self.generation

    def trace(self, target: int, stride: int) -> List[Cell]:
        """The grid cells of the parent chain from the source to ``target``."""
        cells = []
        node = target
        while node != -1:
            y, x = divmod(node, stride)
            cells.append((x - 1, y - 1))
            node = self.parent[node]
        cells.reverse()
        return cells


def straight_runs(points: List[Cell]) -> List[Cell]:
    """Every cell of a path given by its turning points, each joined to the next by a straight or diagonal run."""
    cells = points[:1]
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        steps = max(abs(x1 - x0), abs(y1 - y0))
        step_x = (x1 > x0) - (x1 < x0)
        step_y = (y1 > y0) - (y1 < y0)
        cells.extend((x0 + i * step_x, y0 + i * step_y) for i in range(1, steps + 1))
    return cells
