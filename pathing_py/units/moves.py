"""A frame's sub-steps as array passes, and the units with an event in priority order.

Each frame a unit takes sub-steps of at most SUB_STEP_CELLS cells (a fast unit more of them), spread
evenly over the frame's rounds. In a round, every unit that is between two cells and does not reach
the centre it heads for only moves on toward it: :func:`move_on` does all of those at once. The others
(a centre reached, a next cell to take, a unit stepping close behind one that leaves its cell) are
events, which the navigator takes in priority order, one unit at a time, in Python; :class:`Round`
hands them out in that order, with the units that an earlier event set going in the same round.
"""

import heapq
import math
from typing import Iterator, List, Tuple

import numpy as np

from .agents import AgentArrays

__all__ = ["SUB_STEP_CELLS", "Round", "move_on", "sub_step", "sub_steps"]

#: Cells a unit moves at most in one sub-step, whatever its radius: units hold whole cells, and a sub-step
#: crosses at most one cell boundary, so no frame time carries a unit into a cell it has not taken.
SUB_STEP_CELLS = 0.5


def sub_step(delta: float, speed: float) -> Tuple[int, float]:
    """How many sub-steps a unit of ``speed`` (cells per second) takes in ``delta`` seconds, each at most
    SUB_STEP_CELLS long, and their length in seconds."""
    count = max(1, math.ceil(delta * speed / SUB_STEP_CELLS))
    return count, delta / count


def sub_steps(delta: float, speeds: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """:func:`sub_step` for each of ``speeds``, as arrays: the same arithmetic, operation for operation, in float64."""
    counts = np.maximum(np.ceil(delta * speeds / SUB_STEP_CELLS), 1.0).astype(np.intp)
    return counts, delta / counts


def move_on(agents: AgentArrays, slots: np.ndarray, seconds: np.ndarray) -> np.ndarray:
    """Move the units in ``slots`` (each between two cells) toward the centres they head for, at their
    walking speed for ``seconds`` each, where they stop short of it; True where a unit moved so, False
    where it would reach the centre (an event: the navigator takes it). The arithmetic is the navigator's
    own, operation for operation, so that a unit moved here is where the event path would put it."""
    position = agents.position[slots]
    offset = agents.target[slots] - position
    distance = np.hypot(offset[:, 0], offset[:, 1])
    reach = agents.walk_speed[slots] * seconds
    short = reach < distance
    moved = slots[short]
    agents.position[moved] = position[short] + offset[short] * reach[short, None] / distance[short, None]
    return short


class Round:
    """The units to take in Python in one round, by rank (their index in the navigator's priority order):
    those found at its start, and any that an event sets walking later in the round, if their turn is
    still to come and they are due a sub-step in this round (as a walk through every unit in order
    would find them). A unit stepping close behind another that moved on in the array pass sees that one
    where a walk in order would have: where it was, if its turn comes later."""

    def __init__(
        self, ranks: np.ndarray, due: np.ndarray, rank_of: np.ndarray, moved_on: np.ndarray, before: np.ndarray
    ) -> None:
        self._heap: List[int] = ranks.tolist()  # (sorted: a heap already)
        self._due = due
        self._rank_of = rank_of  #: slot -> rank
        self._moved_on = moved_on  #: slot -> whether it moved on in the array pass
        self._before = before  #: slot -> its position before the array pass
        self.current = -1

    def wake(self, slot: int) -> bool:
        """A unit was set walking: it takes its sub-step in this round if its turn has not passed (True)."""
        rank = int(self._rank_of[slot])
        if rank > self.current and self._due[rank]:
            heapq.heappush(self._heap, rank)
            return True
        return False

    def position(self, slot: int, position: Tuple[float, float]) -> Tuple[float, float]:
        """Where the unit in ``slot`` (now at ``position``) is as the unit whose turn it is sees it."""
        if self._moved_on[slot] and self._rank_of[slot] > self.current:
            x, y = self._before[slot].tolist()
            return x, y
        return position

    def __iter__(self) -> Iterator[int]:
        heap = self._heap
        while heap:
            rank = heapq.heappop(heap)
            if rank > self.current:  # (a unit woken twice is taken once)
                self.current = rank
                yield rank
