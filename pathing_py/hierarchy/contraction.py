"""Dead ends of the key-point graph, contracted so that the search over key points skips them.

In a maze most key points lie in dead ends: the A* over key points walks
into every side corridor its estimate favours. A key point is a dead end
when no shortest path between two other key points needs to pass through
it: when it has one neighbour left, or when every key point across its
borders is already a dead end, since its cluster-mates reach each other
directly at least as cheaply (the costs inside a cluster are shortest paths
there). Dead ends are found repeatedly, each numbered in the order found
(its rank); the key points never found are the core (maze512-1-0 is a tree:
no core; the other benchmark maps keep nearly all of their key points).

Numbered that way, the graph is a contraction hierarchy without shortcuts: a
node numbered k had, when it was found, direct edges between all its
neighbours still unnumbered, at most as long as the way through it. So every
shortest path has one whose ranks rise and then fall (a valley node can be
skipped by its neighbours' direct edge). A search may thus leave a dead end
only by rising (to a higher rank or the core) and enter one by falling only
when it climbs from the goal's side (:meth:`Contraction.climb`): the shortest
cost found is the same, over far fewer key points.
"""

import sys
from typing import Dict, Iterable, List, Sequence, Set

__all__ = ["CORE", "Contraction"]

#: The rank of a key point that is not a dead end: above all dead ends.
CORE = sys.maxsize


class Contraction:
    """The rank of each dead end (key points as flat cell indices; the others are :data:`CORE`)."""

    def __init__(self, ranks: Dict[int, int], groups: Sequence[List[int]], across: Dict[int, List[int]]):
        self.ranks = ranks
        self._groups = groups
        self._group_of = {node: group for group, nodes in enumerate(groups) for node in nodes}
        self._across = across

    @classmethod
    def find(cls, groups: Sequence[List[int]], across: Dict[int, List[int]]) -> "Contraction":
        """Number the dead ends of a graph given its key points in groups, those of a cluster that reach each
        other inside it (each key point in one group), and for each key point those across its borders.

        A key point's neighbours inside its cluster are its group: counting those left in each group, rather
        than each key point's, keeps the pass linear in the key points.
        """
        group_of = {node: group for group, nodes in enumerate(groups) for node in nodes}
        left_in_group = [len(nodes) for nodes in groups]
        left_across = {node: len(across[node]) for node in group_of}
        ranks: Dict[int, int] = {}
        waiting = list(group_of)
        while waiting:
            node = waiting.pop()
            group = group_of[node]
            if node in ranks or (left_across[node] and left_across[node] + left_in_group[group] - 1 > 1):
                continue
            ranks[node] = len(ranks)
            left_in_group[group] -= 1
            if left_in_group[group] == 1:  # the last of its group may now have one neighbour left
                waiting.extend(other for other in groups[group] if other not in ranks)
            for other in across[node]:
                if other not in ranks:
                    left_across[other] -= 1
                    waiting.append(other)
        return cls(ranks, groups, across)

    def rank(self, node: int) -> int:
        return self.ranks.get(node, CORE)

    def climb(self, nodes: Iterable[int]) -> Set[int]:
        """The dead ends among ``nodes`` and all those above them: where the search may fall into, towards the goal."""
        ranks = self.ranks
        reached = {node for node in nodes if node in ranks}
        waiting = list(reached)
        while waiting:
            node = waiting.pop()
            own = ranks[node]
            for others in (self._groups[self._group_of[node]], self._across[node]):
                for other in others:
                    if ranks.get(other, -1) > own and other not in reached:
                        reached.add(other)
                        waiting.append(other)
        return reached
