"""What a unit does when other units are in its way (SPEC U3, U7, D4).

Wait for units that are moving; go around units that stand or wait, and
around moving ones once patience runs out (higher priority first), passing
oncoming units on the right; push
standing units, and lower ones waiting head-on, out of the way: each pushes
the units between it and the nearest free cell in turn, with the driver's
rank (U9), and they all come back in the reverse order of the pushes (a unit
walking a jam's plan pushes whoever stopped in a cell in its turn); plan
through where moving units are going to be; and before giving up, take a
whole new route around the jam.

:class:`Traffic` is the navigator's collaborator for this, as a crowd is
beside the path queries in recastnavigation's DetourCrowd: the navigator
plans routes and moves units along them, and asks the traffic rules what a
unit does when its next cell is held. The rules see the navigator only
through :class:`TrafficHost`; the searches they make keep the map's terrain
costs, with the cells units hold blocked.
"""

import math
from operator import attrgetter
from typing import Callable, Dict, FrozenSet, Hashable, Iterable, List, Optional, Protocol, Set, Tuple

import numpy as np

from ..arguments import as_seconds
from ..clearance import ClearanceMap
from ..grid import Cell, Grid
from ..search import find_path
from .collisions import Collisions, Resolution
from .occupancy import Occupancy, block_cells, step_cells
from .path_stack import Route, RouteKind
from .spacetime import Reservations, arrival_times, find_path_in_time, occupancy
from .unit import FINAL_STATES, STANDING_STATES, Unit, UnitState
from .wakeups import Wait

__all__ = ["Traffic", "TrafficHost", "grid_without", "waited_for", "waiting_aside"]

#: How far ahead a detour around units may rejoin the route, in cells.
DETOUR_HORIZON = 10
#: Whole new routes around jams a unit may take in one trip before it stops HELD_UP.
REROUTES_PER_TRIP = 2
#: Updates between two routes around jams (of any units): they search the whole map.
REROUTE_INTERVAL = 10
#: How many steps a unit may go to make way for another, pushing the units on those steps before it.
PUSH_DEPTH = 16
#: Units pushed aside wait at most this many times ``give_up`` for the pushing unit's squad to pass, then go back.
PUSH_PATIENCE = 3
#: Simulated seconds between two detour searches of one unit.
DETOUR_INTERVAL = 0.5
#: Cost factor of the cells left of the way in a detour around oncoming units: it passes them on its right.
LEFT_HAND_COST = 1.5


class WorkCounters(Protocol):
    """The navigator's counters the traffic rules read or add to."""

    updates: int  #: updates so far
    plan_work: int  #: nodes expanded by path searches
    jam_work: (
        int  #: work of the searches for jams' plans (see :meth:`~pathing_py.units.jams.untangling.Untangling.advance`)
    )


class TrafficHost(Protocol):
    """What the traffic rules need of the navigator (see there): all they read or call of it."""

    @property
    def cell_label(self) -> Callable[[Cell], str]:
        """How reasons name a cell."""

    @property
    def unit_label(self) -> Callable[[Unit], str]:
        """How reasons name a unit."""

    @property
    def grid(self) -> Grid:
        """The map the units walk."""

    def grid_of(self, unit: Unit) -> Grid:
        """The grid ``unit`` plans on: the map, or the grid of its size for a unit larger than a cell."""

    @property
    def occupancy(self) -> Occupancy:
        """Which unit holds which cell."""

    @property
    def time(self) -> float:
        """Simulated seconds."""

    @property
    def collisions(self) -> Collisions[Unit]:
        """The units' collisions (SPEC U5), which the rules record and settle."""

    @property
    def stats(self) -> WorkCounters:
        """Where the work of the rules' searches is counted."""

    def set_state(self, unit: Unit, state: UnitState) -> None:
        """Change a unit's state (the navigator is its one writer)."""

    def finish(self, unit: Unit, state: UnitState, reason: str = "") -> None:
        """Stop ``unit`` in ``state``; the game hears of it once per order."""

    def watch_route(self, unit: Unit) -> None:
        """The unit's routes changed: watch the map along the new ones (D3)."""

    def asleep(self, unit: Unit) -> bool:
        """Whether ``unit`` sleeps while it waits (see :mod:`.wakeups`): nothing about it changes unheard."""

    def stirred(self, unit: Unit) -> None:
        """What units asleep read of ``unit`` waiting (its progress, the cell it waits for, its routes) changed."""


def grid_without(grid: Grid, held: Iterable[Cell], left: int, top: int, right: int, bottom: int, size: int = 1) -> Grid:
    """The cells ``left <= x < right``, ``top <= y < bottom`` of ``grid`` as a grid of their own,
    with the ``held`` cells (map coordinates, inside the window) blocked and the terrain costs and connectivity kept;
    for a unit of ``size`` > 1, passable where its block fits in the window (terrain costs are then left out)."""
    passable = grid.passable[top:bottom, left:right].copy()
    for x, y in held:
        passable[y - top, x - left] = False
    if size > 1:
        return Grid(ClearanceMap(passable, size).values >= size, connectivity=grid.connectivity)
    cost = None if grid.cost is None else grid.cost[top:bottom, left:right]
    return Grid(passable, cost, connectivity=grid.connectivity)


def waited_for(unit: Unit) -> Optional[Set[Unit]]:
    """The units ``unit`` waits for, those they wait for, and so on (standing units and units waiting
    aside end a chain); None if one of them is on its way (a queue that flows: waiting in it is not
    being stuck)."""
    chain = {unit}
    stack = [unit]
    while stack:
        for blocker in stack.pop().blocked_by:
            if blocker in chain:
                continue
            top = blocker.stack.top
            if blocker.next_cell is not None or (top is not None and top.may_take is not None):
                return None
            if blocker.state is UnitState.WAITING and not waiting_aside(blocker):
                stack.append(blocker)
            chain.add(blocker)
    return chain


def waiting_aside(unit: Unit) -> bool:
    """Whether ``unit`` waits where it made way for another (on purpose: not stuck)."""
    top = unit.stack.top
    return top is not None and top.wait_while is not None and top.index == top.wait_at


class Push:
    """The units one push moved (SPEC U9) and the cells they moved through: a push is undone (each
    unit back where it stood) only after every later push across the same cells, as a stack unwinds.

    Its pushed units ask every sub-step whether they still wait (:meth:`Traffic.holds_back`); the
    answer is worked out once an update, and the driver's squad-mates that have passed its cells are
    dropped from ``to_pass`` for good, so that their routes are not read again."""

    def __init__(self, cells: FrozenSet[Cell], driver: Unit, made_at: float):
        self.cells = cells
        self.routes: List[Tuple[Unit, Route]] = []
        self.driver = driver
        self.driver_cell = driver.cell  #: where the driver stood when it pushed
        self.made_at = made_at  #: simulated seconds
        #: The driver's squad-mates (none without a squad) that may still have to pass its cells.
        self.to_pass: List[Unit] = [] if driver.squad is None else list(driver.squad.members)
        self.answered_at = -1  #: the update of the last answer of ``holds_back``
        self.holding = True  #: that answer
        self.moved: FrozenSet[Unit] = frozenset()  #: the units of ``routes``
        self._undone = False

    def undone(self) -> bool:
        """Whether every unit moved is back (or dropped the route, given a new order): once so, for good (a
        route finished or off its unit's stack stays so), and asked of every later push by each earlier one."""
        if not self._undone:
            self._undone = all(route.finished or route not in unit.stack for unit, route in self.routes)
        return self._undone


class Traffic:
    """The traffic rules of the units of one navigator.

    Parameters
    ----------
    host : TrafficHost
        The navigator moving the units.
    wait_limit : float
        Seconds a unit waits for a moving unit before a higher-priority unit
        detours around it (U3); after three times as long any unit detours.
    give_up : float
        Seconds of waiting for the same units after which a unit takes a new route around
        them, or, if there is none, stops with state HELD_UP.
    """

    def __init__(self, host: TrafficHost, *, wait_limit: float, give_up: float):
        self.host = host
        self.wait_limit = as_seconds(wait_limit, "wait_limit")
        self.give_up = as_seconds(give_up, "give_up")
        self._rerouted_at = -REROUTE_INTERVAL  #: the update of the last route around a jam
        self._pushes: List[Push] = []  #: pushes not yet undone, oldest first

    def still_passing(self, unit: Unit, route: Route, dt: float) -> bool:
        """A unit that made way waits where it went (``route``, its top route, says where it
        is) until the unit it let pass has moved on and later pushes across its way are undone."""
        if route.waiting():
            self.wait_on_purpose(unit, dt)
            return True
        return False

    def wait_on_purpose(self, unit: Unit, dt: float) -> None:
        """Wait where the unit is, as it was told to: not stuck."""
        self.wait(unit, dt)
        unit.waiting_for, unit.progress_time = 0.0, self.host.time

    def wait_or_detour(self, unit: Unit, route: Route, cell: Cell, blockers: Set[Unit], dt: float) -> None:
        """U3: detour around units that stand or wait, or around moving ones after waiting long
        enough; push standing units and lower ones facing this one out of the way; else wait, and
        give up after ``give_up`` seconds of waiting for the same units (but for a squad's member or a
        unit following another's route, which waits on for its group's way until it stalls: see
        ``Navigator._stop_stalled``). A unit that is only making way pushes no one: it waits, and stops where
        it is once a standing unit has taken its place. A unit walking a jam's plan whose turn in the
        cell has come pushes the units from outside the plan that stopped there, whatever their rank:
        they may be waiting for units of the plan, which wait for them in turn (in a knot at a gate, the
        units of a plan stood that way until the plan overran)."""
        stack = unit.stack
        closer, collision, wanted, top, depth = unit.closer_time, unit.collision, unit.wanted, stack.top, len(stack)
        self._wait_or_detour(unit, route, cell, blockers, dt)
        if (
            unit.closer_time != closer or unit.collision is not collision or unit.wanted != wanted
            or stack.top is not top or len(stack) != depth
        ):  # fmt: skip
            self.host.stirred(unit)  # (units asleep on it read these: they wake)

    def _wait_or_detour(self, unit: Unit, route: Route, cell: Cell, blockers: Set[Unit], dt: float) -> None:
        """See :meth:`wait_or_detour`."""
        if route.may_take is not None:  # walking a jam's plan: its turn in the cell has come
            self._push_one(unit, blockers, by_plan=True)  # units from outside the plan that stopped there make way
            self.wait_on_purpose(unit, dt)
            return
        standing = [b for b in blockers if b.state in STANDING_STATES]
        high = unit.stack.find(RouteKind.HIGH_LEVEL)
        if high is None:  # only making way for another unit: never push others about, just wait
            self.wait(unit, dt)
            if standing or unit.waiting_for >= self.give_up:  # its place is taken, or the way there
                self.host.finish(unit, unit.arrival_state, unit.reason)  # stand still here instead
            return
        if (
            unit.keeps_to_shared_route
            and route.wait_at >= 0
            and route.wait_while is None
            and unit.waiting_for >= self.give_up
        ):
            # a squad's member on its way back after making way, and that way is held: it goes on from here
            # instead (members pushed about in turn may each stand where the other came from, and the stall
            # check, not a search of their own, would end their orders)
            unit.stack.drop_cell_routes()
            self.host.watch_route(unit)
            return
        if self.host.collisions.meet(unit, cell, blockers, self.host.time):  # other units now: waiting starts over
            unit.waiting_for = 0.0
        if self._behind_mates(unit, blockers):
            self.wait(unit, dt)  # it keeps its place in its squad for a while: the ones ahead move on
            return
        if self.host.time >= unit.next_detour:  # detours are searches: at most a few a second per unit
            unit.next_detour = self.host.time + DETOUR_INTERVAL
            stopped = standing or any(b.state is UnitState.WAITING for b in blockers)
            outranks = unit.priority > max(b.priority for b in blockers)
            patience = unit.waiting_for >= (self.wait_limit if outranks else 3 * self.wait_limit)
            resolution: Optional[Resolution] = None
            oncoming = any(_oncoming(b, unit, cell) for b in blockers)
            if (
                standing
                and len(standing) == len(blockers)
                and self._detour(unit, route, DETOUR_HORIZON, margin=3, past=_stands)
            ):
                resolution = (
                    Resolution.DETOUR
                )  # around units that stand, through the crowd that moves on: they need not step aside
            elif (stopped or patience) and self._detour(unit, route, DETOUR_HORIZON, margin=3, keep_right=oncoming):
                resolution = Resolution.DETOUR
            elif patience and not stopped and self._timed_detour(unit, route):
                resolution = Resolution.DETOUR_IN_TIME
            if resolution is not None:
                self.host.collisions.resolving(unit, resolution)
                return
        if self._push_one(unit, blockers):  # U7, U9: standing and lower units make way
            self.host.collisions.resolving(unit, Resolution.PUSH)
        self.wait(unit, dt)
        if unit.keeps_to_shared_route:  # the stall check sees to a stuck member
            return
        _share_progress(unit, blockers)
        if (
            unit.waiting_for < self.give_up or not self._may_route_around() or waited_for(unit) is None
        ):  # (cheap checks first)
            return  # not stuck, or no route around may be searched now
        destination = unit.stack.destination()
        if destination is not None and self.route_around_units(unit, destination) is False and self.queue_still(unit):
            holders = ", ".join(self.host.unit_label(b) for b in sorted(blockers, key=_id))
            self.host.finish(
                unit,
                UnitState.HELD_UP,
                f"waited {unit.waiting_for:.1f} s for unit(s) {holders} at {self.host.cell_label(cell)}",
            )

    def queue_still(self, unit: Unit, seconds: Optional[float] = None) -> bool:
        """Whether neither ``unit`` nor the queue it waits in came closer to their targets for ``seconds``
        (``give_up`` by default): only then does a unit with no way around the units in its way give up."""
        return self.host.time - unit.closer_time >= (self.give_up if seconds is None else seconds)

    def _may_route_around(self) -> bool:
        """Whether :meth:`route_around_units` searches now (else it answers None)."""
        return self.host.stats.updates >= self._rerouted_at + REROUTE_INTERVAL

    def route_around_units(self, unit: Unit, target: Cell) -> Optional[bool]:
        """Before giving up: a whole new route to ``target`` (the end of the unit's high-level
        route) that treats every cell a unit stands or waits in as blocked (a jam may have a
        way around it further off).

        A search of the whole map, so one per REROUTE_INTERVAL updates at most: None means "not
        now". The map with the units in it is searched this once: its islands answer a target the
        units cut off (cheaply), plain A* the others; jump tables would first cost more to build than
        the searches they speed up (random orders on den520d: slower updates with them).
        """
        if not self._may_route_around():
            return None
        self._rerouted_at = self.host.stats.updates
        grid = self.host.grid
        standing = [
            cell for cell, holder in self.host.occupancy.items() if holder is not unit and holder.next_cell is None
        ]
        around = grid_without(grid, standing, 0, 0, grid.width, grid.height, unit.size)
        if not around.same_island(unit.cell, target):
            return False
        found = find_path(around, unit.cell, target, once=True)
        self.host.stats.plan_work += found.expanded
        if not found:
            return False
        unit.forget_routes()
        unit.stack.push(Route(RouteKind.HIGH_LEVEL, (target,)))
        unit.stack.push(Route(RouteKind.LOW_LEVEL, found.cells[1:]))
        self.host.collisions.resolving(unit, Resolution.REROUTE)
        unit.stats.plans += 1
        unit.waiting_for = 0.0
        self.host.set_state(unit, UnitState.RUN)
        self.host.watch_route(unit)
        return True

    def _behind_mates(self, unit: Unit, blockers: Set[Unit]) -> bool:
        """Whether ``unit`` keeps its place in its squad's queue: squad-mates under way hold its way, and it has
        waited for less than ``wait_limit`` seconds."""
        squad = unit.squad
        return (
            squad is not None
            and unit.waiting_for < self.wait_limit
            and all(b.squad is squad and b.state not in STANDING_STATES for b in blockers)
        )

    def sleep_blocked(self, unit: Unit, route: Route, blockers: Set[Unit]) -> Optional[Wait]:
        """What ``unit``, which has just waited for ``blockers`` (the holders of its next step along ``route``, its top
        route) in :meth:`wait_or_detour`, waits on until the rules' answer may change (see :mod:`.wakeups`): the units
        whose state or waking may change it, the limits of its wait and the time of its next detour. None where the
        answer may change unheard: the unit must ask at every sub-step.

        - A unit only making way waits until a standing unit takes its place or it gives up: it reads only the
          blockers' states.
        - A unit keeping its place in its squad's queue waits until its patience runs out: it reads the blockers'
          states and squads.
        - Any other unit walking its order waits until a detour is due, or it gives up, while it has no one to push
          and the units in its way change only by events: each steps (it takes the progress of their steps, which
          end in a change of state), sleeps itself, or waits and is heard as what it waits for, its routes or its
          progress change (:meth:`wait_or_detour`; not on a jam's plan, whose end changes its routes unheard).
        """
        if unit.state is not UnitState.WAITING or route.may_take is not None or unit.waiting_for >= self.give_up:
            return None
        if unit.stack.find(RouteKind.HIGH_LEVEL) is None:
            if any(b.state in STANDING_STATES for b in blockers):
                return None
            return Wait(tuple(blockers), math.inf, math.inf, self.give_up, False, states_only=True)
        collision = unit.collision
        if collision is None or collision.ended is not None or collision.others != blockers:
            return None
        if self._behind_mates(unit, blockers):
            return Wait(tuple(blockers), math.inf, self.wait_limit, self.give_up, True, states_only=True)
        asleep = self.host.asleep
        for blocker in blockers:
            if blocker.next_cell is not None:
                if blocker.state is not UnitState.MOVING:
                    return None
            elif not asleep(blocker):
                top = blocker.stack.top
                if blocker.state is not UnitState.WAITING or top is not None and top.may_take is not None:
                    return None
            if self._pushable(blocker, unit):
                return None
        return Wait(tuple(blockers), unit.next_detour, math.inf, self.give_up, True)

    def wait(self, unit: Unit, dt: float) -> None:
        """Wait where the unit is, stuck: its waiting counts toward giving up."""
        unit.waiting_for += dt
        unit.stats.waited += dt
        self.host.set_state(unit, UnitState.WAITING)

    def _detour(
        self,
        unit: Unit,
        route: Route,
        horizon: int,
        margin: int,
        past: Callable[[Unit], bool] = lambda other: True,
        keep_right: bool = False,
    ) -> bool:
        """Push an avoidance route around cells other units hold (those for which ``past`` is true),
        back onto ``route`` at most ``horizon`` cells ahead, searched within ``margin`` cells around both ends;
        ``keep_right``: on the right of the way, where it can (see :func:`_right_hand`)."""
        ahead = route.remaining[: horizon + 1]
        for rejoin_at in range(len(ahead) - 1, 0, -1):  # the farthest free cell: past the whole queue
            holders = self.host.occupancy.holders_of(block_cells(ahead[rejoin_at], unit.size), unit)
            if not holders or not all(past(holder) for holder in holders):
                break
        else:
            return False
        rejoin = ahead[rejoin_at]
        (x0, y0), (x1, y1) = unit.cell, rejoin
        left, top = max(min(x0, x1) - margin, 0), max(min(y0, y1) - margin, 0)
        grid = self.host.grid
        right, bottom = min(max(x0, x1) + margin + 1, grid.width), min(max(y0, y1) + margin + 1, grid.height)
        held = [
            cell
            for cell, holder in self.host.occupancy.held_in(left, top, right, bottom)
            if holder is not unit and past(holder)
        ]
        window = grid_without(grid, held, left, top, right, bottom, unit.size)
        if keep_right:
            window = _right_hand(window, (x0 - left, y0 - top), (x1 - left, y1 - top))
        found = find_path(window, (x0 - left, y0 - top), (x1 - left, y1 - top), once=True)
        if not found:
            return False
        route.advance(rejoin_at + 1)
        unit.stack.push(Route(RouteKind.AVOIDANCE, [(x + left, y + top) for x, y in found.cells[1:]]))
        unit.stats.detours += 1
        unit.waiting_for = 0.0
        self.host.set_state(unit, UnitState.RUN)
        return True

    def _timed_detour(self, unit: Unit, route: Route) -> bool:
        """D4: plan to a cell further along the route through where other units are going to be,
        not only where they are, for a unit that keeps being blocked by moving units."""
        ahead = route.remaining[: 2 * DETOUR_HORIZON + 1]
        if len(ahead) < 2 or unit.size > 1:  # plans in time move one-cell units only
            return False
        reservations = Reservations()
        for other in self.host.occupancy.units_near(unit.cell, 2 * DETOUR_HORIZON):
            if other is not unit and math.dist(other.cell, unit.cell) <= 2 * DETOUR_HORIZON:
                cells = [other.cell] + ([other.next_cell] if other.next_cell else [])
                top = other.stack.top
                if top is not None and top.kind is not RouteKind.HIGH_LEVEL and other.state not in STANDING_STATES:
                    cells += top.remaining[: 2 * DETOUR_HORIZON]
                times = arrival_times(self.host.grid, cells, start_time=self.host.time, speed=other.speed)
                reservations.reserve(
                    other.id,
                    occupancy(cells, times, until=math.inf if len(cells) == 1 else times[-1] + 1.0 / other.speed),
                )
        found = find_path_in_time(
            self.host.grid, unit.cell, ahead[-1], reservations=reservations, unit=unit.id,
            start_time=self.host.time, speed=unit.speed, max_nodes=2000,
        )  # fmt: skip
        if not found:
            return False
        cells = [cell for i, cell in enumerate(found.cells) if i == 0 or cell != found.cells[i - 1]]
        route.advance(len(ahead))
        unit.stack.push(Route(RouteKind.AVOIDANCE, cells[1:]))
        unit.stats.detours += 1
        unit.waiting_for = 0.0
        self.host.set_state(unit, UnitState.RUN)
        return True

    def _make_way(self, unit: Unit, driver: Unit) -> bool:
        """U7, U9: ``unit`` leaves ``driver``'s way for the nearest free cell off it, and the units
        between it and that cell move on along the same steps, each to where the next stood (the
        driver pushes them all, with its rank); a unit larger than a cell first has the one-cell units
        in its way leave it the same way. Each waits there until the driver has moved on, then goes
        back the way it came: pushes are undone in the reverse order of their making, as each unit's
        path stack unwinds."""
        path = self._way_out(unit, driver)
        if path is None:
            return False
        cleared = self._ways_clear_of(path, unit, driver) if unit.size > 1 else []
        if cleared is None:
            return False
        for way in cleared:
            self._push_along(way, 1, driver)
        self._push_along(path, unit.size, driver)
        return True

    def _ways_clear_of(self, path: List[Cell], unit: Unit, driver: Unit) -> Optional[List[List[Cell]]]:
        """The ways out (see :meth:`_way_out`) of the one-cell units in the blocks a unit larger than a
        cell takes along ``path``, each ending off those blocks and off the ways before it; None if
        one of them has none. (In two packed groups of mixed sizes swapping places, a unit of
        radius 1.0 stood held up for good behind another at its goal: the way out of the one at the goal
        led only through cells of smaller units.)"""
        taken = _cells_along(path, unit.size)
        in_way = self.host.occupancy.holders_of(taken, unit)
        ways: List[List[Cell]] = []
        for other in sorted(in_way, key=_id):
            way = self._way_out(other, driver, avoid=taken)
            if way is None:
                return None
            ways.append(way)
            taken |= set(way)
        return ways

    def _push_along(self, path: List[Cell], size: int, driver: Unit) -> None:
        """The units on ``path`` (the steps of a way out of units of ``size`` cells) move on along it, each to
        where the next stood, and wait there for ``driver`` to pass (see :meth:`_make_way`)."""
        occupancy = self.host.occupancy
        push = Push(_cells_along(path, size), driver, self.host.time)
        earlier = [other for other in self._pushes if not other.undone()]
        self._pushes = earlier + [push]

        movers: List[int] = [0]  # where each unit on the path stands (a unit larger than a cell: alone on it)
        for index, cell in enumerate(path[1:-1] if size == 1 else (), start=1):
            holder = occupancy.holder(cell)
            if holder is not None and holder is not occupancy.holder(path[movers[-1]]):
                movers.append(index)
        for start, end in zip(movers, movers[1:] + [len(path) - 1]):
            mover = occupancy.holder(path[start])
            assert mover is not None
            forward, back = path[start + 1 : end + 1], path[start:end][::-1]
            if mover.state in STANDING_STATES:  # it comes back to stand as it stood
                mover.arrival_state = mover.state
            if mover.off_goal or mover.announced and mover.arrival_state is UnitState.HELD_UP:
                back = []  # it goes back to its goal itself later (off it before), or goes on from anywhere (held up)
            route = Route(
                RouteKind.AVOIDANCE, forward + back, wait_at=len(forward), wait_while=lambda: self.holds_back(push)
            )
            mover.stack.push(route)
            push.routes.append((mover, route))
            push.moved |= {mover}
            mover.stats.detours += 1
            mover.waiting_for, mover.progress_time = 0.0, self.host.time
            self.host.set_state(mover, UnitState.RUN)

    def holds_back(self, push: Push) -> bool:
        """Whether the units ``push`` moved still wait aside: the driver has yet to move on, a squad-mate
        of it to pass (a group passes whole; but for a mate that waits for a unit this push moved: it
        was not cleared the way), or a later push across these cells to be undone; never after
        PUSH_PATIENCE x ``give_up`` seconds (units pushed aside by pushes that wait for one another
        would wait forever). Worked out once an update (see :class:`Push`)."""
        updates = self.host.stats.updates
        if push.answered_at != updates:
            push.answered_at, push.holding = updates, self._holds_back(push)
        return push.holding

    def _holds_back(self, push: Push) -> bool:
        if self.host.time > push.made_at + PUSH_PATIENCE * self.give_up:
            return False
        driver = push.driver
        occupancy = self.host.occupancy
        if (
            driver.cell == push.driver_cell
            and driver.state not in FINAL_STATES
            and (occupancy.holder(driver.cell) is driver or driver in occupancy.leavers(driver.cell))
        ):
            return True
        squad = driver.squad  # None once the squad arrived (or the driver left it): nothing more to pass
        push.to_pass = (
            []
            if squad is None
            else [mate for mate in push.to_pass if mate.squad is squad and _yet_to_pass(mate, push.cells)]
        )
        moved = push.moved
        if any(
            mate not in moved
            and not waiting_aside(mate)
            and not (mate.state is UnitState.WAITING and mate.blocked_by & moved)
            for mate in push.to_pass
        ):  # (a mate waiting aside itself, for another push, passes after this one)
            return True
        later = self._pushes[self._pushes.index(push) + 1 :] if push in self._pushes else []
        return any(
            not other.cells.isdisjoint(push.cells)
            and not other.undone()
            and all(moved.isdisjoint(unit.blocked_by) for unit in other.moved)
            for other in later
        )  # (a later push whose units wait for this one's can only be undone once this one is: it goes first)

    def _push_one(self, driver: Unit, blockers: Set[Unit], by_plan: bool = False) -> bool:
        """Push the first of ``blockers`` (by id) that ``driver`` may push and that has a way out; whether one was."""
        ordered = (
            blockers if len(blockers) == 1 else sorted(blockers, key=_id)
        )  # (mostly one: waiting units ask every sub-step)
        return any(self._pushable(blocker, driver, by_plan) and self._make_way(blocker, driver) for blocker in ordered)

    def _pushable(self, unit: Unit, driver: Unit, by_plan: bool = False) -> bool:
        """Whether ``driver`` may push ``unit`` (SPEC U7, U9): a unit at a cell centre, not on its way
        out for an earlier push, that stands, or that ranks below the driver (:attr:`Unit.rank`: a
        squad's members rank as the squad) and waits making way, head-on for the driver's cell, or,
        where a squad meets others, to step against the driver's way (the file behind the one facing
        it backs off too). Units queueing the driver's way are not pushed: streams stay streams.
        ``by_plan``: the driver walks a jam's plan, and pushes any unit that waits (never a unit walking a
        plan: the plan's turns keep its units out of one another's way)."""
        if unit is driver or unit.next_cell is not None:
            return False
        top = unit.stack.top
        leaving = top is not None and top.wait_while is not None and top.index < top.wait_at  # pushed already
        if leaving or (top is not None and top.may_take is not None):
            return False
        if unit.state in STANDING_STATES or unit.announced and not driver.announced:
            return True  # it stands, or only tidies up after its order ended (making way, walking back to its goal)
        if unit.state is not UnitState.WAITING:
            return False
        if by_plan:
            return True
        if not unit.rank < driver.rank:
            return False
        facing = unit.wanted is not None and self.host.occupancy.holder(unit.wanted) is driver
        squads = unit.squad is not None or driver.squad is not None
        return unit.making_way or facing or squads and _against(unit, driver)

    def _way_out(self, unit: Unit, driver: Unit, avoid: FrozenSet[Cell] = frozenset()) -> Optional[List[Cell]]:
        """Orthogonal steps from the unit's cell to the nearest cell where its block is free and off the
        driver's way (the driver's cells, and the cells its steps ahead take) and off ``avoid``, or, with none
        within PUSH_DEPTH steps, the nearest on the driver's way (but for a unit leaving cells to ``avoid``:
        None); through free cells and cells of one-cell units the driver may push (which move on ahead of it,
        or, out of the way of a unit larger than a cell, leave it first: see :meth:`_make_way`); None if there
        is neither."""
        top = driver.stack.top
        ahead = [driver.cell, *(top.remaining[:PUSH_DEPTH] if top is not None else ())]
        way = set(driver.held).union(*(step_cells(a, b, driver.size) for a, b in zip(ahead, ahead[1:])))
        shut = way | avoid
        grid, size = self.host.grid_of(unit), unit.size
        came_from: Dict[Cell, Optional[Cell]] = {unit.cell: None}
        frontier = [unit.cell]
        on_way: Optional[Cell] = None
        for _ in range(PUSH_DEPTH):
            reached = []
            for x, y in frontier:
                for cell in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)):
                    if cell in came_from or not grid.is_passable(cell):
                        continue
                    block = block_cells(cell, size)
                    holders = self.host.occupancy.holders_of(block, unit)
                    if (
                        driver in holders
                        or holders
                        and not all(h.size == 1 and self._pushable(h, driver) for h in holders)
                    ):
                        continue
                    came_from[cell] = (x, y)
                    if not holders and shut.isdisjoint(block):
                        return _steps_to(cell, came_from)
                    if not holders and on_way is None and not avoid:
                        on_way = cell
                    reached.append(cell)
            frontier = reached
        return None if on_way is None else _steps_to(on_way, came_from)


_id = attrgetter("id")


def squads_and_ranks(unit: Unit, others: Iterable[Unit]) -> Tuple[Hashable, ...]:
    """The squads, whether they follow another's route, and the ranks of ``unit`` and ``others``: what the rules read
    of them that steerers (groups) change without an event."""
    return tuple((u.squad, u.following, u.rank) for u in (unit, *others))


def _stands(unit: Unit) -> bool:
    """Whether ``unit`` stands (no order under way): it stays where it is unless pushed."""
    return unit.state in STANDING_STATES


def _share_progress(unit: Unit, blockers: Set[Unit]) -> None:
    """A unit queueing behind units that come closer to their targets comes closer too: the back of a
    queue through a gate waits long, without giving up or stalling, while its head moves on. Only coming
    closer is shared, not being busy on purpose (making way, walking a jam's plan), and a ring of units
    waiting for one another shares nothing new: none of them comes closer."""
    ahead = [b.closer_time for b in blockers if b.state not in STANDING_STATES]
    if ahead:
        unit.closer_time = max(unit.closer_time, max(ahead))


def _yet_to_pass(unit: Unit, cells: FrozenSet[Cell]) -> bool:
    """Whether ``unit`` stands in or moves into one of ``cells``, has one on the routes it has yet to walk
    (cells, key points, or the cells it aims at beside them), or waits for a route."""
    if unit.state in FINAL_STATES:
        return False
    if unit.state is UnitState.FIND_PATH or unit.cell in cells or unit.next_cell in cells:
        return True
    for route in unit.stack:
        if (
            not cells.isdisjoint(route.remaining)
            or route.aims is not None
            and not cells.isdisjoint(route.aims[route.index :])
        ):
            return True
    return False


def _oncoming(other: Unit, unit: Unit, cell: Cell) -> bool:
    """Whether ``other`` steps (or waits to step) against ``unit``'s step into ``cell``."""
    step = other.next_cell or other.wanted
    if step is None:
        return False
    (ox, oy), (sx, sy), (ux, uy) = other.cell, step, unit.cell
    return (sx - ox) * (cell[0] - ux) + (sy - oy) * (cell[1] - uy) < 0


def _right_hand(window: Grid, start: Cell, end: Cell) -> Grid:
    """``window`` with the cells left of the way from ``start`` to ``end`` costing LEFT_HAND_COST times more.

    Units meeting head-on pass each other on their right, as people walking do: each detouring the
    shortest way round, two often took the same side and met again. With it, more units got to their
    goals in the same time, both in two blocks crossing head-on in the open and in random orders on
    den520d; queues through gates, which meet no oncoming units, are unchanged."""
    height, width = window.passable.shape
    ys, xs = np.mgrid[0:height, 0:width]
    left_of_way = (end[0] - start[0]) * (ys - start[1]) - (end[1] - start[1]) * (xs - start[0]) < 0  # y grows downward
    cost = np.where(left_of_way, LEFT_HAND_COST, 1.0)
    return Grid(window.passable, cost if window.cost is None else cost * window.cost, connectivity=window.connectivity)


def _against(unit: Unit, driver: Unit) -> bool:
    """Whether the step ``unit`` waits to take goes against the one ``driver`` waits to take."""
    if unit.wanted is None or driver.wanted is None:
        return False
    (ux, uy), (wx, wy), (dx, dy), (vx, vy) = unit.cell, unit.wanted, driver.cell, driver.wanted
    return (wx - ux) * (vx - dx) + (wy - uy) * (vy - dy) < 0


def _cells_along(path: List[Cell], size: int) -> FrozenSet[Cell]:
    """The cells a unit of ``size`` takes along ``path`` (the blocks of its steps' cells)."""
    return frozenset(c for cell in path for c in block_cells(cell, size))


def _steps_to(cell: Cell, came_from: Dict[Cell, Optional[Cell]]) -> List[Cell]:
    """The cells from the search's start to ``cell``."""
    path: List[Cell] = []
    step: Optional[Cell] = cell
    while step is not None:
        path.append(step)
        step = came_from[step]
    return path[::-1]
