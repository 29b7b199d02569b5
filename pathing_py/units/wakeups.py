"""Units asleep while they wait, and the events that wake them (SPEC U3, issue 38).

A unit whose next cell another unit holds asks the traffic rules what to do (``Traffic.wait_or_detour``). Most of
the time the answer is "wait", and it stays so until something the rules read changes: a cell of its step is
taken or let go, a unit in its way changes its state or wakes itself, or its own wait reaches a limit the rules
count toward (a detour due, patience, giving up). A unit that the rules say may sleep so (``Traffic.sleep_blocked``;
a unit waiting aside on purpose sleeps until the next update, when its reason to wait is asked again) is taken out of
the rounds of sub-steps: :class:`Wakeups` counts its waiting in array passes, one addition a sub-step as the rules
would make, and wakes it when

- a cell it waits on is taken or let go (:class:`~.occupancy.Occupancy` reports it: the event);
- a unit it waits on changes its state, wakes, is removed, or, waiting itself, changes what the sleeper reads of it
  (the navigator and the traffic rules report it);
- its wait reaches a limit (checked against the arrays at each round of sub-steps), or the simulated time of a
  timer (a detour due; the next update for a unit waiting aside) has come;
- it changes itself (its state: a push, a jam's plan, an order), a map edit may cut or open its way, or, with
  steerers (groups), its squad or rank or those of the units it waits on changed.

A woken unit takes its sub-step in the round it wakes in if its turn there is still to come, as a walk through
every unit would have found it; else from the next round on. Its waiting, counted in the arrays while it slept, is
its own again (:meth:`Wakeups.settle` writes it back after each update, for the rules that read other units' waits).
"""

import heapq
import itertools
from typing import Callable, Dict, Hashable, Iterable, List, NamedTuple, Optional, Sequence, Tuple

import numpy as np

from ..grid import Cell
from .occupancy import Occupancy
from .path_stack import Route
from .unit import Unit

__all__ = ["Sleep", "Wait", "Wakeups"]


class Wait(NamedTuple):
    """What the traffic rules say a unit blocked waits on (see ``Traffic.sleep_blocked``)."""

    units: Tuple[Unit, ...]  #: units whose change of state (and, unless ``states_only``, waking) may change its answer
    until: float  #: simulated time at which a timer of the rules changes the answer (a detour due)
    patience: float  #: waiting seconds at which the answer changes, counted before a sub-step's wait
    give_up: float  #: waiting seconds at which the answer changes, counted after a sub-step's wait
    reads_ranks: bool  #: whether the answer reads the squads and ranks of the unit and ``units``
    states_only: bool = False  #: only the states of ``units`` are read (not what a unit asleep may change as it wakes)


class Sleep(NamedTuple):
    """A unit asleep: what wakes it."""

    route: Route  #: the top route it waits on
    cells: Tuple[Cell, ...]  #: cells whose taking or letting go wakes it
    wait: Wait
    ranks: Tuple[Hashable, ...]  #: the squads and ranks it read, where steerers may change them unheard (see recheck)


#: A wait with no units, limits or timer but the next update: a unit waiting aside on purpose.
ASIDE = Wait((), 0.0, np.inf, np.inf, False)


class Wakeups:
    """The units asleep, by what wakes them, and their waiting counted in rows that units' slots index.

    Parameters
    ----------
    occupancy : Occupancy
        The cells' holders: it reports the cells units wait on as they are taken or let go.
    woken : callable
        Called with each unit woken during a round of sub-steps; True if the unit takes its sub-step in
        that round still (its waiting counted for the round is taken back).
    """

    def __init__(self, occupancy: Occupancy, woken: Callable[[Unit], bool]):
        self._sleeps: Dict[Unit, Sleep] = {}
        self._by_cell: Dict[Cell, List[Unit]] = {}
        self._by_unit: Dict[Unit, List[Unit]] = {}  #: unit -> the units asleep on it, woken as it changes or wakes
        self._by_state: Dict[Unit, List[Unit]] = {}  #: unit -> the units asleep on it, woken as its state changes
        self._at_slot: Dict[int, Unit] = {}
        self._timers: List[Tuple[float, int, Unit]] = []  #: (simulated time, order, unit): a heap
        self._timed: Dict[Unit, float] = {}  #: unit -> the time of its latest timer in the heap
        self._order = itertools.count()
        self._woken = woken
        occupancy.watch(self._by_cell, self._cell_changed)
        #: Whether the unit in each slot is asleep.
        self.asleep = np.zeros(0, dtype=bool)
        self._waited = np.zeros(0)  #: its ``waiting_for``, counted while it sleeps
        self._total = np.zeros(0)  #: its ``stats.waited``, counted while it sleeps
        #: its ``waiting_for`` as last written to it (or read) here: another value there was written by a rule since
        self._told = np.zeros(0)
        self._stuck = np.zeros(0)  #: 1.0 where its waiting counts toward giving up, 0.0 waiting aside
        self._patience = np.zeros(0)  #: see Wait.patience
        self._give_up = np.zeros(0)  #: see Wait.give_up
        self._round_waited = np.zeros(0)  #: ``_waited`` before this round's sub-step
        self._round_total = np.zeros(0)  #: ``_total`` before this round's sub-step

    def __contains__(self, unit: Unit) -> bool:
        return unit in self._sleeps

    def __len__(self) -> int:
        return len(self._sleeps)

    def sleep_of(self, unit: Unit) -> Optional[Sleep]:
        """What ``unit`` sleeps on, None if it is awake."""
        return self._sleeps.get(unit)

    def fit(self, slots: int) -> None:
        """Rows for ``slots`` slots at least."""
        old = len(self.asleep)
        if old >= slots:
            return
        size = max(slots, 2 * old, 64)
        rows = ("asleep", "_waited", "_total", "_told", "_stuck", "_patience", "_give_up")
        for name in rows + ("_round_waited", "_round_total"):
            array = getattr(self, name)
            grown = np.zeros(size, dtype=array.dtype)
            grown[:old] = array
            setattr(self, name, grown)

    def sleep(
        self, unit: Unit, route: Route, cells: Sequence[Cell], wait: Wait, now: float, ranks: Tuple[Hashable, ...] = ()
    ) -> None:
        """``unit`` sleeps waiting on ``route``'s next step (whose ``cells`` it watches) for ``wait``; a unit waiting
        aside (``wait`` is ASIDE) until the next update, after ``now``. ``ranks``: see :meth:`recheck`."""
        slot = unit.slot
        self.fit(slot + 1)
        sleep = Sleep(route, tuple(cells), wait, ranks)
        self._sleeps[unit] = sleep
        for cell in sleep.cells:
            self._by_cell.setdefault(cell, []).append(unit)
        self._at_slot[slot] = unit
        by_unit = self._by_state if wait.states_only else self._by_unit
        for other in wait.units:
            waiters = by_unit.setdefault(other, [])
            if unit not in waiters:
                waiters.append(unit)
        until = now if wait is ASIDE else wait.until
        if until < np.inf and self._timed.get(unit) != until:  # (a unit asleep again mostly has its timer already)
            self._timed[unit] = until
            heapq.heappush(self._timers, (until, next(self._order), unit))
        self.asleep[slot] = True
        self._waited[slot] = self._told[slot] = unit.waiting_for
        self._total[slot] = unit.stats.waited
        self._stuck[slot] = 0.0 if wait is ASIDE else 1.0
        self._patience[slot], self._give_up[slot] = wait.patience, wait.give_up

    def wake(self, unit: Unit) -> None:
        """Wake ``unit`` if it sleeps, and the units asleep on it, and so on."""
        stack = [unit]
        while stack:
            unit = stack.pop()
            sleep = self._sleeps.pop(unit, None)
            if sleep is None:
                continue
            slot = unit.slot
            del self._at_slot[slot]
            self.asleep[slot] = False
            for cell in sleep.cells:
                waiters = self._by_cell.get(cell)
                if waiters is not None and unit in waiters:
                    waiters.remove(unit)
                    if not waiters:
                        del self._by_cell[cell]
            if self._woken(unit):  # its turn in this round is still to come: it waits there itself
                self._waited[slot], self._total[slot] = self._round_waited[slot], self._round_total[slot]
            if unit.waiting_for == self._told[slot]:  # (else a rule set it as it woke the unit: a push, a jam's plan)
                unit.waiting_for = self._waited.item(slot)
            unit.stats.waited = self._total.item(slot)
            stack.extend(self._by_unit.pop(unit, ()))

    def changed(self, unit: Unit) -> None:
        """``unit``'s state changed: it wakes, and so do the units asleep on it."""
        for waiter in self._by_state.pop(unit, ()):
            self.wake(waiter)
        if unit in self._sleeps:
            self.wake(unit)
        else:
            for waiter in self._by_unit.pop(unit, ()):
                self.wake(waiter)

    def stirred(self, unit: Unit) -> None:
        """What units asleep read of ``unit``, awake, changed (not its state): those that read it wake."""
        for waiter in self._by_unit.pop(unit, ()):
            self.wake(waiter)

    def forget(self, unit: Unit) -> None:
        """``unit`` is removed: it sleeps no more, and the units asleep on it wake."""
        self.changed(unit)
        self._by_unit.pop(unit, None)
        self._by_state.pop(unit, None)
        self._timed.pop(unit, None)

    def wake_all(self) -> None:
        """Every unit wakes (a map edit may cut or open the ways they wait on)."""
        for unit in list(self._sleeps):
            self.wake(unit)

    def due(self, now: float) -> None:
        """Wake the units whose timers are due at the simulated time ``now`` (an update's start)."""
        timers = self._timers
        while timers and timers[0][0] <= now:
            until, _, unit = heapq.heappop(timers)
            if self._timed.get(unit) == until:
                del self._timed[unit]
            sleep = self._sleeps.get(unit)
            if sleep is not None and (sleep.wait is ASIDE or sleep.wait.until <= now):
                self.wake(unit)

    def spend(self, slots: np.ndarray, due: np.ndarray, seconds: np.ndarray) -> List[Unit]:
        """A round of sub-steps starts for the units in ``slots`` (those ``due`` a sub-step of ``seconds``): each unit
        asleep waits its sub-step, one addition as ``Traffic.wait`` makes it, unless its wait reaches a limit of its
        rules in it; those are returned, to wake once the round is set up (they take their sub-step in it)."""
        sleeping = self.asleep[slots] & due
        if not sleeping.any():
            return []
        asleep, dt = slots[sleeping], seconds[sleeping]
        waited, total = self._waited[asleep], self._total[asleep]
        self._round_waited[asleep], self._round_total[asleep] = waited, total
        limit = (waited >= self._patience[asleep]) | (waited + dt >= self._give_up[asleep])
        waits, dt = asleep[~limit], dt[~limit]
        self._waited[waits] = waited[~limit] + dt * self._stuck[waits]
        self._total[waits] = total[~limit] + dt
        if not limit.any():
            return []
        return [self._at_slot[slot] for slot in asleep[limit].tolist()]

    def settle(self) -> None:
        """Write the waiting of the units asleep back to them (after each update: other rules read it)."""
        waited, total, told = self._waited, self._total, self._told
        for unit in self._sleeps:
            slot = unit.slot
            unit.waiting_for = told[slot] = waited.item(slot)
            unit.stats.waited = total.item(slot)

    def recheck(self, ranks: Callable[[Unit, Iterable[Unit]], Tuple[Hashable, ...]]) -> None:
        """Wake the units asleep whose own or whose blockers' squads or ranks (``ranks``) changed since they fell
        asleep: steerers change them without an event."""
        for unit, sleep in list(self._sleeps.items()):
            if sleep.ranks and ranks(unit, sleep.wait.units) != sleep.ranks:
                self.wake(unit)

    def _cell_changed(self, cell: Cell) -> None:
        for unit in self._by_cell.pop(cell, ()):
            self.wake(unit)
