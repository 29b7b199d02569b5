"""A stronger heuristic for the search over key points: landmarks (ALT).

The octile distance knows nothing of walls, so around big obstacles the
search expands thousands of key points. A landmark is a key point whose
distances to every key point are baked; for any landmark L the triangle
inequality gives ``d(n, goal) >= |d(L, goal) - d(L, n)|``, a lower bound that
does see the walls. Landmarks are picked far apart (each the key point
farthest from those already picked), which is where the bound is tight.

The bound holds for the graph the distances were measured on. Blocking cells
only lengthens paths (but where a border run splits into two, whose new key
points may save a few cells), so the landmarks stay through such edits; a
freed cell can open any shortcut, so an update that frees cells drops them
and the search uses the octile distance until the next bake. Weighted grids,
whose costs depend on the direction of travel, get none.
"""

import math
from heapq import heappop, heappush
from typing import Dict, List, Optional, Sequence, Tuple

__all__ = ["LANDMARK_COUNT", "Landmarks"]

#: Measured on the Moving AI maps: 4 landmarks cut the key points expanded 1.5-3x at a
#: bake cost of at most 0.5 s (Paris_0_1024); 8 cut them further but double that cost.
LANDMARK_COUNT = 4


class Landmarks:
    """Key points (flat cell indices) and each key point's distances from them."""

    def __init__(self, nodes: Sequence[int], distances: Dict[int, List[float]]):
        self.nodes = list(nodes)
        self.distances = distances

    @classmethod
    def choose(cls, key_points: Sequence[int], edges, count: int = LANDMARK_COUNT) -> Optional["Landmarks"]:
        """Pick ``count`` landmarks farthest first; ``edges(node)`` gives (neighbour, cost, …) tuples."""
        if not key_points:
            return None
        chosen = [min(key_points)]
        tables = [_distances_from(chosen[0], edges)]
        nearest = dict(tables[0])
        while len(chosen) < count:
            reachable = [node for node in key_points if math.isfinite(nearest.get(node, math.inf))]
            far = max(reachable, key=lambda node: (nearest[node], -node))
            if nearest[far] == 0.0:
                break  # every key point is a landmark already
            chosen.append(far)
            tables.append(_distances_from(far, edges))
            for node, distance in tables[-1].items():
                if distance < nearest.get(node, math.inf):
                    nearest[node] = distance
        distances = {node: [table.get(node, math.inf) for table in tables] for node in key_points}
        return cls(chosen, distances)

    def to_goal(self, goal_links: Dict[int, float]) -> Optional[Tuple[float, ...]]:
        """Each landmark's distance to the goal, reached through ``goal_links`` (key point -> link cost)."""
        if not goal_links or any(node not in self.distances for node in goal_links):
            return None
        vectors = [self.distances[node] for node in goal_links]
        return tuple(
            min(vector[l] + cost for vector, cost in zip(vectors, goal_links.values())) for l in range(len(self.nodes))
        )

    def __eq__(self, other) -> bool:
        return isinstance(other, Landmarks) and (self.nodes, self.distances) == (other.nodes, other.distances)


def _distances_from(source: int, edges) -> Dict[int, float]:
    """Dijkstra over the key points from ``source``."""
    distance = {source: 0.0}
    heap = [(0.0, source)]
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
    return distance
