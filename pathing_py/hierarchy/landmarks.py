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
on, touching only the key points whose distance changes. Then the choice is
made again as a bake would make it, landmarks whose choice still stands
keeping their repaired distances: the graph answers as a fresh bake of the
edited map does. Weighted grids, whose costs depend on the direction of
travel, get none.

The repair is exact, not close: every distance is the sum of a neighbour's and
the edge's cost, bit for bit (what Dijkstra computes, and there is only one
such table), so a distance that no longer stands is found by comparing
floats. That needs an edge to cost the same both ways, bit for bit, which the
graph sees to.
"""

import math
from heapq import heapify, heappop, heappush
from typing import Callable, Dict, List, Optional, Sequence, Set, Tuple, Union

__all__ = ["LANDMARK_COUNT", "Landmarks"]

#: Measured on the Moving AI maps: 4 landmarks cut the key points expanded 1.5-3x at a
#: bake cost of at most 0.5 s (Paris_0_1024); 8 cut them further but double that cost.
LANDMARK_COUNT = 4

#: ``edges(node)``: the edges out of a key point, as (neighbour, cost, …) tuples.
Edges = Callable[[int], Sequence[tuple]]


class Landmarks:
    """Key points (flat cell indices) and each key point's distances from them."""

    def __init__(self, nodes: Sequence[int], distances: Dict[int, List[float]]):
        self.nodes = list(nodes)
        self.distances = distances

    @classmethod
    def choose(cls, key_points: Sequence[int], edges: Edges, count: int = LANDMARK_COUNT) -> Optional["Landmarks"]:
        """Pick up to ``count`` landmarks among ``key_points``, farthest first; None when there is no key point."""
        if not key_points:
            return None
        landmarks = cls([], {node: [] for node in key_points})
        landmarks._choose_from(0, edges, count)
        return landmarks

    def update(self, removed: Set[int], added: Set[int], changed: Set[int], edges: Edges, count: int = LANDMARK_COUNT) -> bool:
        """Follow a graph update: distances exact again, landmarks as :meth:`choose` would pick them now.

        ``removed`` and ``added`` are the key points the update took away and
        made; ``changed`` the key points whose edges differ now (the added ones
        and the neighbours of the removed ones among them); ``edges(node)`` the
        edges now. Returns False when no key point is left.
        """
        for node in removed:
            del self.distances[node]
        if not self.distances:
            return False
        for node in added:
            self.distances[node] = [math.inf] * len(self.nodes)
        kept = next((l for l, node in enumerate(self.nodes) if node in removed), len(self.nodes))
        self._truncate(kept)
        moved = set(added)
        for l, landmark in enumerate(self.nodes):
            moved |= _repair_column(self.distances, l, landmark, changed, edges)
        self._choose_from(self._still_chosen(added, moved), edges, count)
        return True

    def to_goal(self, goal_links: Dict[int, float]) -> Optional[Tuple[float, ...]]:
        """Each landmark's distance to the goal, reached through ``goal_links`` (key point -> link cost)."""
        if not goal_links or any(node not in self.distances for node in goal_links):
            return None
        vectors = [self.distances[node] for node in goal_links]
        return tuple(
            min(vector[l] + cost for vector, cost in zip(vectors, goal_links.values())) for l in range(len(self.nodes))
        )

    def _choose_from(self, first: int, edges: Edges, count: int) -> None:
        """Keep landmarks before ``first``; pick the rest farthest first and measure their distances."""
        self._truncate(first)
        while len(self.nodes) < count:
            far = self._farthest(len(self.nodes)) if self.nodes else min(self.distances)
            if far is None:
                break
            table = _distances_from(far, edges)
            self.nodes.append(far)
            for node, vector in self.distances.items():
                vector.append(table.get(node, math.inf))

    def _truncate(self, count: int) -> None:
        if count < len(self.nodes):
            del self.nodes[count:]
            for vector in self.distances.values():
                del vector[count:]

    def _farthest(self, count: int) -> Optional[int]:
        """The key point farthest from the first ``count`` landmarks among those they reach (the
        smallest index on ties); None when every such key point is a landmark."""
        best, far = (-math.inf, 0), None
        for node, vector in self.distances.items():
            key = (_nearest(vector, count), -node)
            if key > best and key[0] < math.inf:
                best, far = key, node
        return far if best[0] > 0.0 else None

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
            key = (_nearest(self.distances[landmark], count), -landmark)
            for node in moved:
                rival = (_nearest(self.distances[node], count), -node)
                if rival > key and rival[0] < math.inf:
                    return count
        return len(self.nodes)

    def __eq__(self, other) -> bool:
        return isinstance(other, Landmarks) and (self.nodes, self.distances) == (other.nodes, other.distances)


def _nearest(vector: List[float], count: int) -> float:
    """The distance to the nearest of the first ``count`` landmarks."""
    return min(vector[:count])


def _repair_column(distances: Dict[int, List[float]], l: int, source: int, changed: Set[int], edges: Edges) -> Set[int]:
    """Exact distances from ``source`` (column ``l``) again, when only the edges of ``changed`` nodes differ;
    returns the nodes whose distance it set.

    First, in order of old distance from the changed nodes on, the nodes whose
    distance no longer stands: those that no standing neighbour reaches at
    that distance over today's edges (a stored distance is its parent's plus
    the edge, bit for bit). They are forgotten, and Dijkstra from their
    standing neighbours and from the changed nodes measures them again and
    carries any shortcut the changes opened.
    """
    fallen: Set[int] = set()
    heap = [(distances[node][l], node) for node in changed if node != source]
    heapify(heap)
    while heap:
        old, node = heappop(heap)
        if node in fallen or any(
            edge[0] not in fallen and distances[edge[0]][l] + edge[1] == old for edge in edges(node)
        ):
            continue
        fallen.add(node)
        for edge in edges(node):
            other = edge[0]
            after = distances[other][l]
            if other != source and other not in fallen and math.isfinite(after) and old + edge[1] == after:
                heappush(heap, (after, other))
    column = _Column(distances, l)
    for node in fallen:
        distances[node][l] = math.inf
    heap = []
    for node in fallen | changed:
        best = min((distances[edge[0]][l] + edge[1] for edge in edges(node)), default=math.inf)
        if best < column[node]:
            column[node] = best
        if math.isfinite(column[node]):
            heap.append((column[node], node))
    heapify(heap)
    _settle(column, heap, edges)
    return fallen | column.lowered


class _Column:
    """One landmark's distances as a mapping, for :func:`_settle`; remembers the nodes it lowered."""

    def __init__(self, distances: Dict[int, List[float]], l: int):
        self.distances, self.l = distances, l
        self.lowered: Set[int] = set()

    def __getitem__(self, node: int) -> float:
        return self.distances[node][self.l]

    def get(self, node: int, default: float) -> float:
        vector = self.distances.get(node)
        return default if vector is None else vector[self.l]

    def __setitem__(self, node: int, value: float) -> None:
        self.distances[node][self.l] = value
        self.lowered.add(node)


Distances = Union[Dict[int, float], _Column]


def _distances_from(source: int, edges: Edges) -> Dict[int, float]:
    """Dijkstra over the key points from ``source``."""
    distance = {source: 0.0}
    _settle(distance, [(0.0, source)], edges)
    return distance


def _settle(distance: Distances, heap: List[Tuple[float, int]], edges: Edges) -> None:
    """Dijkstra from the nodes on ``heap`` (a heap of (distance, node)), lowering ``distance`` in place."""
    while heap:
        reached, node = heappop(heap)
        if reached > distance[node]:
            continue
        for edge in edges(node):
            other, cost = edge[0], edge[1]
            candidate = reached + cost
            if candidate < distance.get(other, math.inf):
                distance[other] = candidate
                heappush(heap, (candidate, other))
