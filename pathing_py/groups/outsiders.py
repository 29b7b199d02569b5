"""Cells the units stand on or head for, kept for a frame: what a group's members are not sent to.

A group given an order keeps its members off the cells where units outside it stand, and off the goals of their
orders (see ``Groups.taken_by_outsiders``). Asked unit by unit, that is a walk through every unit of the map for
each group ordered, and a game orders many groups in one frame. Here each unit's cells are found once a frame
and counted by cell; within the frame only the units that changed are looked at again: the members of the groups
that gave orders since (the groups say which), and the units whose state changed.
"""

from collections import Counter
from itertools import chain
from typing import Dict, Iterable, List, Optional, Set, Tuple

import numpy as np

from ..grid import Cell
from ..units import Navigator, Unit, UnitState
from ..units.occupancy import block_cells
from ..units.unit import FINAL_STATES

__all__ = ["Outsiders"]


class Outsiders:
    """Each unit's standing cells and goal cells, counted by cell, for one navigator's frame."""

    def __init__(self, navigator: Navigator):
        self.navigator = navigator
        self._frame: Optional[Tuple[int, int, int]] = None  #: (updates, units removed, units) it was found for
        self._units: List[Unit] = []
        self._slots = np.zeros(0, dtype=np.intp)
        self._states = np.zeros(0, dtype=np.int8)  #: the units' state codes when their cells were found
        self._standing: Dict[Unit, List[Cell]] = {}  #: cells where each unit stands (at rest: no step, no order)
        self._goals: Dict[Unit, List[Cell]] = {}  #: the cells of each unit's goal while it heads for it
        self._standing_count: Dict[Cell, int] = {}  #: cell -> the units standing there
        self._taken_count: Dict[Cell, int] = {}  #: cell -> the units standing there or heading for it
        self._changed: Set[Unit] = set()  #: units the groups changed since their cells were found

    def changed(self, units: Iterable[Unit]) -> None:
        """``units`` may stand or head elsewhere now (their group gave them orders): found again when next asked."""
        if self._frame is not None:
            self._changed.update(units)

    def standing(self, members: Iterable[Unit]) -> Set[Cell]:
        """Cells where units other than ``members`` stand."""
        self._refresh()
        return _others(self._standing_count, [self._standing], members)

    def taken(self, members: Iterable[Unit]) -> Set[Cell]:
        """Cells where units other than ``members`` stand, and the goals of their orders (see
        ``Groups.taken_by_outsiders``)."""
        self._refresh()
        return _others(self._taken_count, [self._standing, self._goals], members)

    def _refresh(self) -> None:
        navigator = self.navigator
        frame = (navigator.stats.updates, navigator.stats.removed, len(navigator.units))
        if frame != self._frame:  # every unit, in two comprehensions and two counts
            self._frame, self._changed = frame, set()
            self._units = list(navigator.units.values())
            self._slots = np.array([unit.slot for unit in self._units], dtype=np.intp)
            self._states = navigator.agents.state[self._slots]
            self._standing, self._goals = _cells_of(self._units)
            cells = list(chain.from_iterable(self._standing.values()))
            self._standing_count = Counter(cells)
            self._taken_count = Counter(chain(cells, chain.from_iterable(self._goals.values())))
            return
        states = navigator.agents.state[self._slots]
        self._changed.update(self._units[row] for row in np.flatnonzero(states != self._states).tolist())
        self._states = states
        if not self._changed:
            return
        units = navigator.units
        standing, goals = _cells_of([unit for unit in self._changed if units.get(unit.id) is unit])  # (not removed)
        for unit in self._changed:
            for cells, step in ((self._standing.pop(unit, []), -1), (standing.get(unit, []), 1)):
                _count(self._standing_count, cells, step)
                _count(self._taken_count, cells, step)
            _count(self._taken_count, self._goals.pop(unit, []), -1)
            _count(self._taken_count, goals.get(unit, []), 1)
        self._standing.update(standing)
        self._goals.update(goals)
        self._changed = set()


def _cells_of(units: List[Unit]) -> Tuple[Dict[Unit, List[Cell]], Dict[Unit, List[Cell]]]:
    """Unit -> the cells where it stands at rest (no step, no order: every cell of a wider unit's block), and unit ->
    the cells of the goal it heads for (an order under way, or a goal it was moved off: it comes back to it)."""
    standing = {unit: block_cells(unit.cell, unit.size) for unit in units
                if unit.next_cell is None and (unit.state in FINAL_STATES or unit.state is UnitState.IDLE)}  # fmt: skip
    goals = {unit: block_cells(unit.goal, unit.size) for unit in units if unit.goal is not None
             and (unit.state not in FINAL_STATES and unit.state is not UnitState.IDLE or unit.off_goal)}  # fmt: skip
    return standing, goals


def _count(count: Dict[Cell, int], cells: List[Cell], step: int) -> None:
    """Count ``cells`` once more (``step`` 1) or once less (-1); a cell counted no more is left out."""
    for cell in cells:
        number = count.get(cell, 0) + step
        if number:
            count[cell] = number
        else:
            del count[cell]


def _others(count: Dict[Cell, int], tables: List[Dict[Unit, List[Cell]]], members: Iterable[Unit]) -> Set[Cell]:
    """The cells of ``count`` (counted from ``tables``) that a unit other than ``members`` has."""
    mine: Dict[Cell, int] = {}
    for unit in members:
        for cells_of in tables:
            for cell in cells_of.get(unit, ()):
                mine[cell] = mine.get(cell, 0) + 1
    return set(count) - {cell for cell, number in mine.items() if count[cell] <= number}
