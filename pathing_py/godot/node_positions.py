"""Where each PathUnit node was last put, by its unit's slot in the navigator's arrays.

Each frame the driver hands the NavGrid the nodes whose units moved, in their parents' pixels: one
array pass over the navigator's positions finds them and maps their positions through each node's
own transform, so a frame costs Python only for the nodes that moved (``set_position``, once each),
none for the units standing still.
"""

from typing import Any, List, Tuple

import numpy as np

__all__ = ["NodePositions"]

#: An affine map as (xx, xy, yx, yy, ox, oy): the images of the unit vectors, then of the origin
#: (as :class:`~pathing_py.godot.units.Affine` lays it out).
Coefficients = Tuple[float, float, float, float, float, float]


class NodePositions:
    """The nodes of the units in the navigator's slots, the maps from the navigator's positions to their
    parents' pixels, and the positions last seen and sent."""

    def __init__(self) -> None:
        self._nodes: List[Any] = []
        self._tracked = np.zeros(0, dtype=bool)
        self._maps = np.zeros((0, 6))
        self._seen = np.zeros((0, 2))  #: the unit's position the node's was computed from
        self._sent = np.zeros((0, 2))  #: the position last handed to the node

    def track(self, slot: int, node: Any, grid_to_parent: Coefficients, sent: Tuple[float, float]) -> None:
        """Put the node of the unit in ``slot`` where its unit is, from the next frame on; it stands at ``sent``."""
        if slot >= len(self._nodes):
            self._grow(slot + 1)
        self._nodes[slot] = node
        self._tracked[slot] = True
        self._maps[slot] = grid_to_parent
        self._seen[slot] = np.nan  # (seen anew: moved)
        self._sent[slot] = sent

    def forget(self, slot: int) -> None:
        """The unit in ``slot`` was removed."""
        self._nodes[slot] = None
        self._tracked[slot] = False

    def track_sent(self, slot: int, sent: Tuple[float, float]) -> None:
        """The node of the unit in ``slot`` stands at ``sent`` (it was put there under another slot)."""
        self._sent[slot] = sent

    def sent(self, slot: int) -> Tuple[float, float]:
        """Where the node of the unit in ``slot`` was last put."""
        return self._sent.item(slot, 0), self._sent.item(slot, 1)

    def moved(self, positions: np.ndarray) -> List[Tuple[Any, float, float]]:
        """(node, x, y) in parent pixels for every tracked node whose unit's position (a row of ``positions``,
        the navigator's) changed since the last call and maps to another place than the one last sent."""
        if len(positions) > len(self._nodes):
            self._grow(len(positions))
        count = len(positions)
        seen = self._seen[:count]
        changed = np.flatnonzero(
            self._tracked[:count] & ((positions[:, 0] != seen[:, 0]) | (positions[:, 1] != seen[:, 1]))
        )
        if not len(changed):
            return []
        now = positions[changed]
        self._seen[changed] = now
        maps = self._maps[changed]
        x = maps[:, 0] * now[:, 0] + maps[:, 2] * now[:, 1] + maps[:, 4]
        y = maps[:, 1] * now[:, 0] + maps[:, 3] * now[:, 1] + maps[:, 5]
        sent = self._sent[changed]
        other = (x != sent[:, 0]) | (y != sent[:, 1])
        slots = changed[other]
        x, y = x[other], y[other]
        self._sent[slots, 0], self._sent[slots, 1] = x, y
        nodes = self._nodes
        return [(nodes[slot], px, py) for slot, px, py in zip(slots.tolist(), x.tolist(), y.tolist())]

    def _grow(self, count: int) -> None:
        size = max(count, 2 * len(self._nodes), 64)
        extra = size - len(self._nodes)
        self._nodes.extend([None] * extra)
        self._tracked = np.concatenate([self._tracked, np.zeros(extra, dtype=bool)])
        self._maps = np.concatenate([self._maps, np.zeros((extra, 6))])
        self._seen = np.concatenate([self._seen, np.full((extra, 2), np.nan)])
        self._sent = np.concatenate([self._sent, np.zeros((extra, 2))])
