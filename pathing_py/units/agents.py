"""The units' continuous state in arrays, one row (a slot) a unit, as DetourCrowd keeps its agents.

Units walk from cell centre to cell centre, and most of a frame's sub-steps only move a unit a little
toward the centre it is heading for: the navigator does those for every such unit at once with a few
array operations over these rows (see ``Navigator._move_units``), and runs Python only for the units
with an event (a centre reached, a next cell to take). The navigator is the only writer; a
:class:`~pathing_py.units.unit.Unit` reads its position and pace from its row. Slots of removed units
are cleared and reused.
"""

from typing import List

import numpy as np

__all__ = ["AgentArrays"]


class AgentArrays:
    """Positions, step targets, speeds and flags of the units, in rows that slots index."""

    def __init__(self, capacity: int = 64) -> None:
        #: (x, y) of each unit, in cells (the centre of its block while it stands).
        self.position = np.zeros((capacity, 2))
        #: The centre of the block each unit is moving into (meaningful where ``moving``).
        self.target = np.zeros((capacity, 2))
        #: Cells per second of the unit's own speed: it sets how many sub-steps the unit takes a frame.
        self.speed = np.zeros(capacity)
        #: Cells per second the unit walks at now: its pace, or its own speed.
        self.walk_speed = np.zeros(capacity)
        #: Whether the unit is between two cells (it has a next cell).
        self.moving = np.zeros(capacity, dtype=bool)
        #: Whether the unit takes its sub-steps in Python, not in the array pass: it took its step close behind units
        #: still stepping out of its cells, and reads their positions.
        self.close = np.zeros(capacity, dtype=bool)
        #: The unit's state as a small code (the navigator's codes of its ``UnitState``s).
        self.state = np.zeros(capacity, dtype=np.int8)
        self._free: List[int] = list(range(capacity - 1, -1, -1))

    def __len__(self) -> int:
        """The slots in use."""
        return len(self.position) - len(self._free)

    def slots_in_use(self) -> List[int]:
        """The slots of the units added and not removed, in order."""
        free = set(self._free)
        return [slot for slot in range(len(self.position)) if slot not in free]

    def add(self, x: float, y: float, speed: float) -> int:
        """A slot for a new unit standing at (x, y)."""
        if not self._free:
            self._grow()
        slot = self._free.pop()
        self.position[slot] = x, y
        self.target[slot] = x, y
        self.speed[slot] = self.walk_speed[slot] = speed
        self.moving[slot] = self.close[slot] = False
        self.state[slot] = 0
        return slot

    def remove(self, slot: int) -> None:
        """Clear a removed unit's row, for a later unit to take."""
        self.position[slot] = self.target[slot] = 0.0
        self.speed[slot] = self.walk_speed[slot] = 0.0
        self.moving[slot] = self.close[slot] = False
        self.state[slot] = 0
        self._free.append(slot)

    def _grow(self) -> None:
        old = len(self.position)
        for name in ("position", "target", "speed", "walk_speed", "moving", "close", "state"):
            array = getattr(self, name)
            grown = np.zeros((2 * old,) + array.shape[1:], dtype=array.dtype)
            grown[:old] = array
            setattr(self, name, grown)
        self._free.extend(range(2 * old - 1, old - 1, -1))
