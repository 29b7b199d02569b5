"""What a unit does when other units are in its way (SPEC U3, U7, D4).

Wait for units that are moving; go around units that stand or wait, and
around moving ones once patience runs out (higher priority first); have
standing units make way and come back; yield to a unit waiting head-on;
plan through where moving units are going to be; and before giving up, take
a whole new route around the jam. These are the Navigator's methods, kept
here because they are one idea: traffic.
"""

import math
from typing import TYPE_CHECKING, Callable, Dict, List, Optional, Set

from ..grid import Cell, Grid
from ..search import find_path
from ..spacetime import Reservations, arrival_times, find_path_in_time, occupancy
from .path_stack import Route, RouteKind
from .unit import FINAL_STATES, STANDING_STATES, Unit, UnitState

if TYPE_CHECKING:  # pragma: no cover
    from .navigator import NavigatorStats

__all__ = ["TrafficRules"]

#: How far ahead a detour around units may rejoin the route, in cells.
DETOUR_HORIZON = 10
#: Whole new routes around jams a unit may take in one trip before it stops BLOCKED.
REROUTES_PER_TRIP = 2
#: Updates between two routes around jams (of any units): they search the whole map.
REROUTE_INTERVAL = 10
#: How many steps a unit may go to make way for another.
MAKE_WAY_DEPTH = 8
#: Simulated seconds between two detour searches of one unit.
DETOUR_INTERVAL = 0.5


class TrafficRules:
    """Mixed into :class:`~pathing_py.units.Navigator`, whose grid, clock and cell holders it uses."""

    # What the Navigator provides (see there).
    grid: Grid
    units: Dict[int, Unit]
    time: float
    wait_limit: float
    give_up: float
    stats: "NavigatorStats"
    cell_label: Callable[[Cell], str]
    unit_label: Callable[[Unit], str]
    _holder: Dict[Cell, Unit]
    _rerouted_at: int
    _finish: Callable[[Unit, UnitState, str], None]
    _drop_routes: Callable[[Unit], None]
    _subscribe: Callable[[Unit], None]

    def _still_passing(self, unit: Unit, route: Route, dt: float) -> bool:
        """A unit that made way waits where it went (``route``, its top route, says where it
        is) until the unit it let pass has moved on."""
        if unit.yielding_to is None:
            return False
        other, cell_then, wait_at = unit.yielding_to
        if route.kind is not RouteKind.AVOIDANCE or route.index != wait_at:
            return False  # not out of the way (yet)
        if other.cell == cell_then and other.state not in FINAL_STATES and other.id in self.units:
            self._wait(unit, dt)
            return True
        unit.yielding_to = None
        return False

    def _wait_or_detour(self, unit: Unit, route: Route, cell: Cell, blockers: Set[Unit], dt: float) -> None:
        """U3: detour around units that stand or wait, or around moving ones after waiting long
        enough; have standing units make way; else wait, and give up after ``give_up`` seconds
        of waiting for the same units."""
        standing = [b for b in blockers if b.state in STANDING_STATES]
        high = unit.stack.find(RouteKind.HIGH_LEVEL)
        if high is None:  # only making way for another unit: never push others about, just wait
            self._wait(unit, dt)
            if unit.waiting_for >= self.give_up:
                self._finish(unit, unit.arrival_state, unit.reason)  # stand still here instead
            return
        if standing and cell == high.waypoints[-1]:
            holder = self.unit_label(standing[0])
            self._finish(unit, UnitState.BLOCKED, f"the target cell {self.cell_label(cell)} is held by unit {holder}")
            return
        blocker_ids = frozenset(b.id for b in blockers)
        if blocker_ids != unit.blocked_by:  # other units now: waiting starts over
            unit.blocked_by, unit.waiting_for = blocker_ids, 0.0
        stopped = standing or any(b.state is UnitState.WAITING for b in blockers)
        outranks = unit.priority > max(b.priority for b in blockers)
        patience = unit.waiting_for >= (self.wait_limit if outranks else 3 * self.wait_limit)
        if self.time >= unit.next_detour:  # detours are searches: at most a few a second per unit
            unit.next_detour = self.time + DETOUR_INTERVAL
            if (stopped or patience) and self._detour(unit, route, DETOUR_HORIZON, margin=3):
                return
            if patience and not stopped and self._timed_detour(unit, route):
                return
        for blocker in sorted(standing, key=lambda b: b.id):  # U7: a standing unit makes way
            if self._step_aside(blocker, unit):
                break
        unit.wanted = cell
        for blocker in sorted(blockers, key=lambda b: b.id):
            facing = blocker.state is UnitState.WAITING and blocker.wanted is not None and self._holder.get(blocker.wanted) is unit
            if facing and (unit.priority, -unit.id) < (blocker.priority, -blocker.id) and self._step_aside(unit, blocker):
                return
        self._wait(unit, dt)
        if unit.waiting_for >= self.give_up and self._route_around_units(unit, high.waypoints[-1]) is False:
            holders = ", ".join(self.unit_label(b) for b in sorted(blockers, key=lambda b: b.id))
            self._finish(unit, UnitState.BLOCKED,
                         f"waited {unit.waiting_for:.1f} s for unit(s) {holders} at {self.cell_label(cell)}")

    def _route_around_units(self, unit: Unit, target: Cell) -> Optional[bool]:
        """Before giving up: a whole new route to ``target`` (the end of the unit's high-level
        route) that treats every cell a unit stands or waits in as blocked (a jam may have a
        way around it further off).

        A search of the whole map (about 50-100 ms on 512x512), so one per REROUTE_INTERVAL
        updates at most: None means "not now".
        """
        if self.stats.updates < self._rerouted_at + REROUTE_INTERVAL:
            return None
        self._rerouted_at = self.stats.updates
        passable = self.grid.passable.copy()
        for cell, holder in self._holder.items():
            if holder is not unit and holder.next_cell is None:
                passable[cell[1], cell[0]] = False
        found = find_path(Grid(passable), unit.cell, target)
        self.stats.plan_work += found.expanded
        if not found:
            return False
        self._drop_routes(unit)
        unit.stack.push(Route(RouteKind.HIGH_LEVEL, (target,)))
        unit.stack.push(Route(RouteKind.LOW_LEVEL, found.cells[1:]))
        unit.stats.plans += 1
        unit.waiting_for = 0.0
        unit.state = UnitState.RUN
        self._subscribe(unit)
        return True

    @staticmethod
    def _wait(unit: Unit, dt: float) -> None:
        unit.waiting_for += dt
        unit.stats.waited += dt
        unit.state = UnitState.WAITING

    def _detour(self, unit: Unit, route: Route, horizon: int, margin: int) -> bool:
        """Push an avoidance route around cells other units hold, back onto ``route`` at most
        ``horizon`` cells ahead, searched within ``margin`` cells around both ends."""
        ahead = route.remaining[: horizon + 1]
        for rejoin_at in range(len(ahead) - 1, 0, -1):  # the farthest free cell: past the whole queue
            holder = self._holder.get(ahead[rejoin_at])
            if holder is None or holder is unit:
                break
        else:
            return False
        rejoin = ahead[rejoin_at]
        (x0, y0), (x1, y1) = unit.cell, rejoin
        left, top = max(min(x0, x1) - margin, 0), max(min(y0, y1) - margin, 0)
        right, bottom = min(max(x0, x1) + margin + 1, self.grid.width), min(max(y0, y1) + margin + 1, self.grid.height)
        window = self.grid.passable[top:bottom, left:right].copy()
        for (hx, hy), holder in self._holder.items():
            if holder is not unit and left <= hx < right and top <= hy < bottom:
                window[hy - top, hx - left] = False
        found = find_path(Grid(window), (x0 - left, y0 - top), (x1 - left, y1 - top))
        if not found:
            return False
        route.index += rejoin_at + 1
        unit.stack.push(Route(RouteKind.AVOIDANCE, [(x + left, y + top) for x, y in found.cells[1:]]))
        unit.stats.detours += 1
        unit.waiting_for = 0.0
        unit.state = UnitState.RUN
        return True

    def _timed_detour(self, unit: Unit, route: Route) -> bool:
        """D4: plan to a cell further along the route through where other units are going to be,
        not only where they are, for a unit that keeps being blocked by moving units."""
        ahead = route.remaining[: 2 * DETOUR_HORIZON + 1]
        if len(ahead) < 2:
            return False
        reservations = Reservations()
        for other in self.units.values():
            if other is not unit and math.dist(other.cell, unit.cell) <= 2 * DETOUR_HORIZON:
                cells = [other.cell] + ([other.next_cell] if other.next_cell else [])
                top = other.stack.top
                if top is not None and top.kind is not RouteKind.HIGH_LEVEL and other.state not in STANDING_STATES:
                    cells += top.remaining[: 2 * DETOUR_HORIZON]
                times = arrival_times(self.grid, cells, start_time=self.time, speed=other.speed)
                reservations.reserve(other.id, occupancy(cells, times, until=math.inf if len(cells) == 1 else times[-1] + 1.0 / other.speed))
        found = find_path_in_time(
            self.grid, unit.cell, ahead[-1], reservations=reservations, unit=unit.id,
            start_time=self.time, speed=unit.speed, max_nodes=2000,
        )  # fmt: skip
        if not found:
            return False
        cells = [cell for i, cell in enumerate(found.cells) if i == 0 or cell != found.cells[i - 1]]
        route.index += len(ahead)
        unit.stack.push(Route(RouteKind.AVOIDANCE, cells[1:]))
        unit.stats.detours += 1
        unit.waiting_for = 0.0
        unit.state = UnitState.RUN
        return True

    def _step_aside(self, unit: Unit, blocker: Unit) -> bool:
        """U7: ``unit`` makes way for ``blocker``: it goes to the nearest free cell off the
        blocker's way (a few cells at most), waits there until the blocker has moved on, and
        comes back."""
        if unit.next_cell is not None:
            return False
        way = {blocker.cell, *(blocker.stack.top.remaining[:MAKE_WAY_DEPTH + 4] if blocker.stack.top else ())}
        path = self._nearest_free_off(unit, way)
        if path is None:
            return False
        if unit.state in STANDING_STATES:  # it comes back to stand as it stood
            unit.arrival_state = unit.state
            unit.progress_time = self.time
        unit.stack.push(Route(RouteKind.AVOIDANCE, path[1:] + path[-2::-1]))
        unit.yielding_to = (blocker, blocker.cell, len(path) - 1)
        unit.stats.detours += 1
        unit.waiting_for = 0.0
        unit.state = UnitState.RUN
        return True

    def _nearest_free_off(self, unit: Unit, way: Set[Cell]) -> Optional[List[Cell]]:
        """Orthogonal steps from the unit's cell to the nearest cell no unit holds and not on
        ``way``, through cells no other unit holds; None within MAKE_WAY_DEPTH steps."""
        came_from: Dict[Cell, Optional[Cell]] = {unit.cell: None}
        frontier = [unit.cell]
        for _ in range(MAKE_WAY_DEPTH):
            reached = []
            for x, y in frontier:
                for cell in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)):
                    if cell in came_from or not self.grid.is_passable(cell) or cell in self._holder:
                        continue
                    came_from[cell] = (x, y)
                    if cell not in way:
                        path: List[Cell] = []
                        step: Optional[Cell] = cell
                        while step is not None:
                            path.append(step)
                            step = came_from[step]
                        return path[::-1]
                    reached.append(cell)
            frontier = reached
        return None
