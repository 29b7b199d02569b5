"""A stronger heuristic for the search over key points: landmarks (ALT).

The octile distance knows nothing of walls, so around big obstacles the
search expands thousands of key points. A landmark is a key point whose
distances to every key point are baked; for any landmark L the triangle
inequality gives ``d(n, goal) >= |d(L, goal) - d(L, n)|``, a lower bound that
does see the walls. Landmarks are picked far apart (the first is the key point
of smallest flat index, each next the one farthest from those already picked),
which is where the bound is tight.

The bound holds for the graph the distances were measured on, so an update
repairs them (:meth:`Landmarks.update`): distances that rested on a changed
key point are measured again, and shortcuts opened by freed cells are carried
on, touching only the key points whose distance changes. The choice itself
waits (:meth:`Landmarks.choose_again`): an edit that moves the farthest key
point would otherwise pay a Dijkstra over every key point for each landmark
picked anew. Repaired landmarks give an exact bound whoever picked them, so the
search stays optimal over the key points meanwhile; when the choice is made again (the graph
does it before a save, a comparison or :meth:`~.graph.KeyPointGraph.prepare`),
landmarks whose choice still stands keep their repaired distances and the
landmarks equal those of a fresh bake of the edited map. A repair that would
touch too many key points (a maze's corridor cut: most distances change) is
given up: that landmark bounds nothing until its distances are measured anew,
a bounded share at each read of the landmarks (each query), so no edit and no
query pays a Dijkstra over every key point. Weighted grids, whose costs depend
on the direction of travel, get none.

The repair is exact, not close: every distance is the sum of a neighbour's and
the edge's cost, bit for bit (what Dijkstra computes, and there is only one
such table), so a distance that no longer stands is found by comparing
floats. That needs an edge to cost the same both ways, bit for bit, which the
graph sees to.
"""

import math
from heapq import heapify, heappop, heappush
from typing import Callable, Dict, List, Optional, Sequence, Set, Tuple, Union

import numpy as np

__all__ = ["LANDMARK_COUNT", "Landmarks", "farthest_key_point"]

#: On the Moving AI maps, 4 landmarks cut the key points expanded well at a small bake cost; 8 cut them
#: further but double that cost.
LANDMARK_COUNT = 4

#: A repair that takes more key points off its heap than this (per landmark) stops: the landmark is
#: set aside and measured anew, a little at each read (:meth:`Landmarks.advance`), while the search
#: uses the others. A repair's cost follows the key points whose distance changes, which a cut
#: corridor of a maze makes most of the graph; this keeps an edit's cost near that of a local one.
REPAIR_BUDGET = 500
#: Key points the set-aside landmarks' Dijkstras take off their heaps at each :meth:`Landmarks.advance`.
ADVANCE_BUDGET = 500

#: ``edges(node)``: the edges out of a key point, as (neighbour, cost, …) tuples.
Edges = Callable[[int], Sequence[tuple]]


class Landmarks:
    """Key points (flat cell indices) and every key point's distances from them.

    The distances from landmark ``l`` to key point ``n`` is ``columns[l][rows[n]]``:
    a column of floats per landmark (cheap to read from a file, cheap for the
    garbage collector) and a row per key point. Rows of key points an update
    took away are given to the next ones it makes.
    """

    def __init__(self, nodes: Sequence[int], rows: Dict[int, int], columns: List[List[float]]):
        self.nodes = list(nodes)
        self.rows = rows
        self.columns = columns
        self._free_rows: List[int] = []
        #: Rows in each column, those given back included.
        self.row_count = len(rows)
        #: Since the landmarks were last chosen: the key points updates added, and those whose distance
        #: from a landmark they changed (for :meth:`choose_again`); None while the choice stands.
        self._added: Optional[Set[int]] = None
        self._moved: Set[int] = set()
        #: Landmarks set aside (by position) after a repair over budget, each with its Dijkstra so far.
        self._remeasured: Dict[int, Tuple[Dict[int, float], List[Tuple[float, int]]]] = {}

    @classmethod
    def choose(cls, key_points: Sequence[int], edges: Edges, count: int = LANDMARK_COUNT) -> Optional["Landmarks"]:
        """Pick up to ``count`` landmarks among ``key_points``, farthest first; None when there is no key point."""
        if not key_points:
            return None
        landmarks = cls([], {node: row for row, node in enumerate(key_points)}, [])
        landmarks._choose_from(0, edges, count)
        return landmarks

    def distances(self, node: int) -> List[float]:
        """The key point's distances from each landmark."""
        row = self.rows[node]
        return [column[row] for column in self.columns]

    def update(self, removed: Set[int], added: Set[int], changed: Set[int], edges: Edges) -> bool:
        """Follow a graph update: distances exact again, or the landmark set aside while a repair over
        REPAIR_BUDGET is measured anew (:meth:`advance`); the choice waits for :meth:`choose_again`.

        ``removed`` and ``added`` are the key points the update took away and
        made; ``changed`` the key points whose edges differ now (the added ones
        and the neighbours of the removed ones among them); ``edges(node)`` the
        edges now. A landmark the update took away goes, with those picked
        after it (picked as farthest from it). Returns False when no key point
        is left.
        """
        for node in removed:
            self._free_rows.append(self.rows.pop(node))
        if not self.rows:
            return False
        for node in added:
            self.rows[node] = row = self._free_rows.pop() if self._free_rows else self._new_row()
            for column in self.columns:
                column[row] = math.inf
        self._truncate(next((l for l, node in enumerate(self.nodes) if node in removed), len(self.nodes)))
        self._added = (self._added or set()) | added
        self._moved |= added
        for position, (landmark, column) in enumerate(zip(self.nodes, self.columns)):
            measuring = self._remeasured.get(position)
            if measuring is not None:
                # A Dijkstra under way stands while the changes lie beyond every key point it reached.
                if changed.isdisjoint(measuring[0]) and removed.isdisjoint(measuring[0]):
                    continue
                repaired = None
            else:
                repaired = _repair_column(column, self.rows, landmark, changed, edges)
            if repaired is None:  # over budget, or in the way of the Dijkstra: measured anew from the start
                self._remeasured[position] = ({landmark: 0.0}, [(0.0, landmark)])
                self._moved.update(self.rows)
            else:
                self._moved |= repaired
        return True

    def advance(self, edges: Edges, budget: Optional[int] = ADVANCE_BUDGET) -> None:
        """Go on measuring the landmarks set aside, the first one ``budget`` key points further (None: all
        of them to the end)."""
        for position, (distance, heap) in sorted(self._remeasured.items()):
            if _settle(distance, heap, edges, budget):
                return
            column = [math.inf] * self.row_count
            for node, value in distance.items():
                column[self.rows[node]] = value
            self.columns[position] = column
            del self._remeasured[position]
            if budget is not None:
                return

    def usable(self) -> List[bool]:
        """Whether each landmark's distances are exact (not set aside, see :meth:`update`)."""
        return [position not in self._remeasured for position in range(len(self.nodes))]

    def choose_again(self, edges: Edges, count: int = LANDMARK_COUNT) -> None:
        """The landmarks :meth:`choose` would pick now, after updates: those whose choice still stands kept
        with their distances, the others measured anew (a Dijkstra over every key point each)."""
        if self._added is None:
            return
        self.advance(edges, None)
        added = {node for node in self._added if node in self.rows}
        moved = {node for node in self._moved if node in self.rows}
        self._added, self._moved = None, set()
        self._choose_from(self._still_chosen(added, moved), edges, count)

    def to_goal(self, goal_links: Dict[int, float]) -> Optional[Tuple[float, ...]]:
        """Each landmark's distance to the goal, reached through ``goal_links`` (key point -> link cost)."""
        if not goal_links or any(node not in self.rows for node in goal_links):
            return None
        links = [(self.rows[node], cost) for node, cost in goal_links.items()]
        return tuple(
            min(column[row] + cost for row, cost in links) if usable else math.inf  # inf: bounds nothing
            for column, usable in zip(self.columns, self.usable())
        )

    def _new_row(self) -> int:
        self.row_count += 1
        for column in self.columns:
            column.append(math.inf)
        return self.row_count - 1

    def _choose_from(self, first: int, edges: Edges, count: int) -> None:
        """Keep landmarks before ``first``; pick the rest farthest first and measure their distances.

        A key point picked again keeps its column, exact (an update repairs every column before the choice is
        made again): a Dijkstra over all the key points, the bake's costliest part, only for new ones.
        """
        kept = dict(zip(self.nodes[first:], self.columns[first:]))
        self._truncate(first)
        while len(self.nodes) < count:
            far = self._farthest(len(self.nodes)) if self.nodes else min(self.rows)
            if far is None:
                break
            column = kept.get(far)
            if column is None:
                column = [math.inf] * self.row_count
                for node, distance in _distances_from(far, edges).items():
                    column[self.rows[node]] = distance
            self.nodes.append(far)
            self.columns.append(column)

    def _truncate(self, count: int) -> None:
        del self.nodes[count:]
        del self.columns[count:]
        self._remeasured = {position: state for position, state in self._remeasured.items() if position < count}

    def _farthest(self, count: int) -> Optional[int]:
        """The key point :func:`farthest_key_point` from the first ``count`` landmarks."""
        nodes = np.fromiter(self.rows.keys(), dtype=np.int64, count=len(self.rows))
        rows = np.fromiter(self.rows.values(), dtype=np.int64, count=len(self.rows))
        return farthest_key_point(nodes, np.array(self.columns[:count])[:, rows].min(axis=0))

    def _nearest(self, node: int, count: int) -> float:
        """The distance from the key point to the nearest of the first ``count`` landmarks."""
        row = self.rows[node]
        return min(column[row] for column in self.columns[:count])

    def _still_chosen(self, added: Set[int], moved: Set[int]) -> int:
        """How many of the landmarks :meth:`choose` would pick again, in order, after an update
        that added the key points ``added`` and changed the distances of ``moved``.

        Each was the farthest key point (the first: the smallest): while its own
        distances stand, only the moved key points can have overtaken it.
        """
        if not self.nodes or (added and min(added) < self.nodes[0]):
            return 0
        for count in range(1, len(self.nodes)):
            landmark = self.nodes[count]
            if landmark in moved:
                if self._farthest(count) != landmark:
                    return count
                continue
            key = (self._nearest(landmark, count), -landmark)
            for node in moved:
                rival = (self._nearest(node, count), -node)
                if rival > key and rival[0] < math.inf:
                    return count
        return len(self.nodes)

    def __eq__(self, other) -> bool:
        return (
            isinstance(other, Landmarks)
            and self.nodes == other.nodes
            and self.rows.keys() == other.rows.keys()
            and all(self.distances(node) == other.distances(node) for node in self.rows)
        )


def farthest_key_point(nodes: np.ndarray, nearest: np.ndarray) -> Optional[int]:
    """Among key points ``nodes`` at distances ``nearest`` from the landmarks picked, the farthest
    (the smallest index on ties), of those they reach; None when that one is at 0: all are landmarks."""
    reached = np.isfinite(nearest)
    if not reached.any() or nearest[reached].max() == 0.0:
        return None
    top = nearest[reached].max()
    return int(nodes[reached & (nearest == top)].min())


def _repair_column(
    column: List[float], rows: Dict[int, int], source: int, changed: Set[int], edges: Edges
) -> Optional[Set[int]]:
    """Exact distances from ``source`` again (``column[rows[node]]``), when only the edges of ``changed``
    nodes differ; returns the nodes whose distance it set, or None when that took more than
    REPAIR_BUDGET key points off its heaps (the column is then left half done).

    First, in order of old distance from the changed nodes on, the nodes whose
    distance no longer stands: those that no standing neighbour reaches at
    that distance over today's edges (a stored distance is its parent's plus
    the edge, bit for bit). They are forgotten, and Dijkstra from their
    standing neighbours and from the changed nodes measures them again and
    carries any shortcut the changes opened.
    """
    fallen: Set[int] = set()
    heap = [(column[rows[node]], node) for node in changed if node != source]
    heapify(heap)
    budget = REPAIR_BUDGET
    while heap:
        budget -= 1
        if budget < 0:
            return None
        old, node = heappop(heap)
        if node in fallen or any(
            edge[0] not in fallen and column[rows[edge[0]]] + edge[1] == old for edge in edges(node)
        ):
            continue
        fallen.add(node)
        for edge in edges(node):
            other = edge[0]
            after = column[rows[other]]
            if other != source and other not in fallen and math.isfinite(after) and old + edge[1] == after:
                heappush(heap, (after, other))
    distance = _Column(column, rows)
    for node in fallen:
        column[rows[node]] = math.inf
    heap = []
    for node in fallen | changed:
        best = min((distance[edge[0]] + edge[1] for edge in edges(node)), default=math.inf)
        if best < distance[node]:
            distance[node] = best
        if math.isfinite(distance[node]):
            heap.append((distance[node], node))
    heapify(heap)
    if _settle(distance, heap, edges, budget):
        return None
    return fallen | distance.lowered


class _Column:
    """One landmark's distances as a mapping, for :func:`_settle`; remembers the nodes it lowered."""

    def __init__(self, column: List[float], rows: Dict[int, int]):
        self.column, self.rows = column, rows
        self.lowered: Set[int] = set()

    def __getitem__(self, node: int) -> float:
        return self.column[self.rows[node]]

    def get(self, node: int, default: float) -> float:
        row = self.rows.get(node)
        return default if row is None else self.column[row]

    def __setitem__(self, node: int, value: float) -> None:
        self.column[self.rows[node]] = value
        self.lowered.add(node)


Distances = Union[Dict[int, float], _Column]


def _distances_from(source: int, edges: Edges) -> Dict[int, float]:
    """Dijkstra over the key points from ``source``."""
    distance = {source: 0.0}
    _settle(distance, [(0.0, source)], edges)
    return distance


def _settle(distance: Distances, heap: List[Tuple[float, int]], edges: Edges, budget: Optional[int] = None) -> bool:
    """Dijkstra from the nodes on ``heap`` (a heap of (distance, node)), lowering ``distance`` in place;
    after ``budget`` nodes taken off the heap (None: no limit), stops. Returns whether it stopped
    before the end (``distance`` and ``heap`` then go on from there)."""
    while heap:
        if budget is not None:
            if budget <= 0:
                return True
            budget -= 1
        reached, node = heappop(heap)
        if reached > distance[node]:
            continue
        for edge in edges(node):
            other, cost = edge[0], edge[1]
            candidate = reached + cost
            if candidate < distance.get(other, math.inf):
                distance[other] = candidate
                heappush(heap, (candidate, other))
    return False
