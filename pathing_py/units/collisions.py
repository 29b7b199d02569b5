"""Collisions between units, as records kept across updates (SPEC U5).

Units hold the cells they stand in and step into (:mod:`.occupancy`), so a
unit meets a collision when the cells of its next step are held: it collides
with their holders. Immediate collisions come first by construction (a unit
only checks the step it is about to take; its predicted positions,
:mod:`.prediction`, are for drawing and for the plans in time of the
traffic rules). The record of a collision says with whom, for which cell,
since when, and how far it has come:

- ``unresolved``: the unit waits for the others (they are on their way, or
  no rule settled it yet);
- ``resolving``: a rule of :class:`~pathing_py.units.traffic.Traffic` or a
  jam's plan settles it (:class:`Resolution`): the unit detours around the
  others, pushed them out of its way and waits for them to clear it, or walks
  its part of a plan; it does not check the same collision again while it
  does (a pushed unit is not pushed again on its way out; a detour is a route
  of its own on the unit's path stack);
- ``resolved``: the unit took its step (or went another way).

A unit that steps into a cell another is still stepping out of (the next of
a file) slows so as not to touch it: a collision resolving by ``slow`` from
when it first has to, resolved once it arrives in its cell.

A unit that stops first (it gives up) ends its collision unresolved, by ``give up``.

A unit has one collision at a time: it stays the same while the unit waits
for the same units (waiting for them starts over when they change), and it
ends when the unit takes a step. The game can read the open ones
(``Navigator.collisions``) and how many ended by each resolution
(:attr:`Collisions.ended`).

Quick start: two units meet head-on in a corridor with a side pocket. Both
wait (unresolved); the first, which ranks higher, pushes the second into the
pocket and waits for it to get out of the way (resolving, by a push); then the
second comes back out into the cell the first leaves, slowed so as not to
touch it::

    >>> from pathing_py import Grid, Navigator
    >>> navigator = Navigator(Grid.from_ascii('''
    ... ......
    ... ###.##
    ... '''))
    >>> first, second = navigator.add_unit((0.5, 0.5), speed=2.0), navigator.add_unit((5.5, 0.5), speed=2.0)
    >>> first.move_to((5, 0)); second.move_to((0, 0))
    >>> seen = []
    >>> for _ in range(60):
    ...     navigator.update(0.1)
    ...     seen += [repr(collision) for collision in navigator.collisions.open() if repr(collision) not in seen]
    >>> for line in seen:
    ...     print(line)
    Collision(unit 1 with 2 at (3, 0): unresolved)
    Collision(unit 2 with 1 at (2, 0): unresolved)
    Collision(unit 1 with 2 at (3, 0): resolving by push)
    Collision(unit 2 with 1 at (3, 0): resolving by slow)
    >>> resolutions = sorted(resolution.value for _, resolution in navigator.collisions.ended.elements())
    >>> first.state.name, second.state.name, resolutions
    ('ARRIVED', 'ARRIVED', ['push', 'slow', 'wait'])
"""

import enum
from collections import Counter
from typing import Any, Dict, FrozenSet, Generic, Iterable, List, Optional, Protocol, Tuple, TypeVar

from ..grid import Cell

__all__ = ["Collision", "CollisionState", "Collisions", "Party", "Resolution"]


class Party(Protocol):
    """What the records need of a unit (the units module's ``Unit``, which stands on this module): its id, and
    its collision, which the records keep up to date."""

    id: int
    collision: Optional["Collision[Any]"]


P = TypeVar("P", bound=Party)


class CollisionState(enum.Enum):
    UNRESOLVED = "unresolved"
    RESOLVING = "resolving"
    RESOLVED = "resolved"


class Resolution(enum.Enum):
    """What settled a collision (SPEC U7-U9)."""

    WAIT = "wait"  #: the others moved on
    DETOUR = "detour"  #: a route around the others, back onto the unit's own
    DETOUR_IN_TIME = "detour in time"  #: around where the others are going to be
    SLOW = "slow"  #: the unit slowed behind one stepping out of the cells it steps into (U7 case 4)
    PUSH = "push"  #: the others made way (U7 case 3, U9)
    JAM_PLAN = "jam plan"  #: moves planned for every unit of a jam (U8)
    REROUTE = "reroute"  #: a whole new route around the jam
    GIVE_UP = "give up"  #: the unit stopped HELD_UP


class Collision(Generic[P]):
    """One unit's collision with the units holding the cells of its next step."""

    __slots__ = ("unit", "others", "cell", "since", "state", "resolution", "ended")

    def __init__(self, unit: P, others: FrozenSet[P], cell: Cell, since: float):
        self.unit, self.others, self.cell, self.since = unit, others, cell, since
        self.state = CollisionState.UNRESOLVED
        self.resolution: Optional[Resolution] = None
        self.ended: Optional[float] = None  #: simulated seconds; None while open

    def __repr__(self) -> str:
        others = ", ".join(str(other.id) for other in sorted(self.others, key=lambda other: other.id))
        settled = "" if self.resolution is None else f" by {self.resolution.value}"
        return f"Collision(unit {self.unit.id} with {others} at {self.cell}: {self.state.value}{settled})"


class Collisions(Generic[P]):
    """The collisions of a navigator's units: one open record per unit at most, and counts of the ended."""

    def __init__(self) -> None:
        self._open: Dict[P, Collision[P]] = {}
        #: Collisions that ended, by final state and resolution (None: the unit was removed).
        self.ended: Counter[Tuple[CollisionState, Optional[Resolution]]] = Counter()

    def meet(self, unit: P, cell: Cell, others: Iterable[P], time: float) -> bool:
        """Record that ``unit`` waits to step into ``cell``, held by ``others``; True if these are other
        units than the ones it waited for (a new collision: waiting for them starts over)."""
        party = frozenset(others)
        record = unit.collision
        if record is not None and record.others == party:
            record.cell = cell
            if record.ended is not None:  # it goes on after it gave up: the same collision again
                self.ended[(record.state, record.resolution)] -= 1
                record.state, record.resolution, record.ended = CollisionState.UNRESOLVED, None, None
            self._open[unit] = record
            return False
        if record is not None and record.ended is None:
            self._end(record, time, CollisionState.RESOLVED, record.resolution or Resolution.WAIT)  # the others left
        unit.collision = self._open[unit] = Collision(unit, party, cell, time)
        return True

    def resolving(self, unit: P, resolution: Resolution) -> None:
        """A rule settles the unit's open collision, if it has one."""
        record = self._open.get(unit)
        if record is not None:
            record.state, record.resolution = CollisionState.RESOLVING, resolution

    def slowed(self, unit: P, cell: Cell, other: P, time: float) -> None:
        """``unit``, stepping into ``cell``, slows so as not to touch ``other``, which steps out of it."""
        record = unit.collision
        if record is None or record.ended is not None or other not in record.others:
            self.meet(unit, cell, (other,), time)
            self.resolving(unit, Resolution.SLOW)

    def stepped(self, unit: P, time: float) -> None:
        """The unit took its step (or, slowed, arrived): its collision is resolved and forgotten."""
        record = self._open.get(unit)
        if record is not None:
            self._end(record, time, CollisionState.RESOLVED, record.resolution or Resolution.WAIT)
        unit.collision = None

    def stopped(self, unit: P, time: float) -> None:
        """The unit stopped without taking its step (it gave up, or its order ended): its collision ends
        unresolved, by GIVE_UP (the record stays the unit's last, to go on with if it goes on)."""
        record = self._open.get(unit)
        if record is not None:
            self._end(record, time, CollisionState.UNRESOLVED, Resolution.GIVE_UP)

    def forget(self, unit: P, time: float) -> None:
        """The unit is removed: its collision ends unresolved."""
        record = self._open.get(unit)
        if record is not None:
            self._end(record, time, CollisionState.UNRESOLVED, None)
        unit.collision = None

    def open(self) -> List[Collision[P]]:
        """The collisions not ended, by unit id."""
        return sorted(self._open.values(), key=lambda record: record.unit.id)

    def _end(self, record: Collision[P], time: float, state: CollisionState, resolution: Optional[Resolution]) -> None:
        record.state, record.resolution, record.ended = state, resolution, time
        self.ended[(state, resolution)] += 1
        del self._open[record.unit]
