"""Cells the units stand on or head for, kept for a frame: what a group's members are not sent to.

A group given an order keeps its members off the cells where units outside it stand, and off the goals of their
orders (see ``Groups.taken_by_outsiders``). Asked unit by unit, that is a walk through every unit of the map for
each group ordered: 50 groups ordered in one frame on 1,000 units walked 50,000. Here each unit's cells are
found once a frame and counted by cell; within the frame only the units that changed are looked at again: the
members of the groups that gave orders since (the groups say which), and the units whose state changed.
"""

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
        self._taken: Dict[Unit, List[Cell]] = {}  #: those, and the cells of its goal while it heads for it
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
        return _others(self._standing_count, self._standing, members)

    def taken(self, members: Iterable[Unit]) -> Set[Cell]:
        """Cells where units other than ``members`` stand, and the goals of their orders (see
        ``Groups.taken_by_outsiders``)."""
        self._refresh()
        return _others(self._taken_count, self._taken, members)

    def _refresh(self) -> None:
        navigator = self.navigator
        frame = (navigator.stats.updates, navigator.stats.removed, len(navigator.units))
        if frame != self._frame:
            self._frame = frame
            self._units = list(navigator.units.values())
            self._slots = np.array([unit.slot for unit in self._units], dtype=np.intp)
            self._standing, self._taken = {}, {}
            self._standing_count, self._taken_count = {}, {}
            self._changed = set(self._units)
        states = navigator.agents.state[self._slots]
        moved = np.flatnonzero(states != self._states) if len(states) == len(self._states) else range(len(states))
        self._changed.update(self._units[row] for row in moved)
        self._states = states
        for unit in self._changed:
            self._find(unit)
        self._changed = set()

    def _find(self, unit: Unit) -> None:
        """The unit's cells as it is now, in place of those found before (none once the navigator removed it)."""
        if self.navigator.units.get(unit.id) is not unit:
            _recount(self._standing_count, self._standing, unit, [])
            _recount(self._taken_count, self._taken, unit, [])
            return
        standing = (
            block_cells(unit.cell, unit.size)
            if unit.next_cell is None and (unit.state in FINAL_STATES or unit.state is UnitState.IDLE)
            else []
        )
        under_way = unit.state not in FINAL_STATES and unit.state is not UnitState.IDLE
        goal = block_cells(unit.goal, unit.size) if unit.goal is not None and (under_way or unit.off_goal) else []
        _recount(self._standing_count, self._standing, unit, standing)
        _recount(self._taken_count, self._taken, unit, standing + goal)


def _recount(count: Dict[Cell, int], cells_of: Dict[Unit, List[Cell]], unit: Unit, cells: List[Cell]) -> None:
    """``unit``'s cells counted as ``cells`` in place of those it had (a cell no unit has left out)."""
    for cell in cells_of.pop(unit, ()):
        left = count[cell] - 1
        if left:
            count[cell] = left
        else:
            del count[cell]
    if cells:
        cells_of[unit] = cells
        for cell in cells:
            count[cell] = count.get(cell, 0) + 1


def _others(count: Dict[Cell, int], cells_of: Dict[Unit, List[Cell]], members: Iterable[Unit]) -> Set[Cell]:
    """The cells of ``count`` that a unit other than ``members`` has."""
    mine: Dict[Cell, int] = {}
    for unit in members:
        for cell in cells_of.get(unit, ()):
            mine[cell] = mine.get(cell, 0) + 1
    return set(count) - {cell for cell, number in mine.items() if count[cell] <= number}
