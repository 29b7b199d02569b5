"""A unit's route and its repair, as recastnavigation's ``dtPathCorridor`` owns an agent's path (SPEC D1-D3, H6).

The navigator moves units along their routes; everything about the routes themselves is the corridor's: the
key points of a plan, the cell route of the next leg, watching the map along what is left (D3), splicing
around a cut or planning again (D2, H6), and planning again where newly opened cells may make the way much
shorter (D1). The navigator calls it at the points of its update where a route may change (map changes, plans
served, a unit taking its next cell); the corridor sees the navigator only through :class:`CorridorHost`, and
changes a unit's state only through it (:meth:`CorridorHost.set_state`). A route's index moves only through
:class:`~.path_stack.Route` methods.
"""

from typing import List, Optional, Protocol, Sequence, Tuple

import numpy as np

from ..grid import Cell, Grid
from ..hierarchy import KeyPointGraph
from ..search import find_path, grid_distance, grid_distances
from .dynamic import MapWatcher, SpliceStatus, first_blocked, splice_path
from .local import WalkStatus, walk_line
from .path_stack import Route, RouteKind
from .prediction import route_cells
from .requests import PathRequestQueue
from .unit import FINAL_STATES, Unit, UnitState

__all__ = ["Corridor", "CorridorHost", "PlanCounters", "nearest_reachable"]

#: Encounters with new obstacles in one trip after which a unit re-plans from scratch (seed 001, H6).
ENCOUNTERS_BEFORE_REPLAN = 3
#: A unit under way plans again when a way through newly opened cells could be this fraction of its way left (D1).
SHORTCUT_RATIO = 0.75


class PlanCounters(Protocol):
    """The navigator's counters the corridor adds its searches' work to."""

    plan_work: int  #: nodes expanded by full path searches
    splice_work: int  #: nodes expanded by splices


class CorridorHost(Protocol):
    """What the corridor needs of the navigator (see there): all it reads or calls of it."""

    @property
    def grid(self) -> Grid:
        """The map the units walk."""

    @property
    def graph(self) -> Optional[KeyPointGraph]:
        """The map's key-point graph, if routes are planned on one."""

    @property
    def link(self) -> str:
        """How plans join the graph: "exact", or "fast" (first and last legs walked straight)."""

    def grid_of(self, unit: Unit) -> Grid:
        """The grid ``unit`` plans on: the map, or the grid of its size for a unit larger than a cell."""

    def graph_of(self, unit: Unit) -> Optional[KeyPointGraph]:
        """The key-point graph of :meth:`grid_of` ``(unit)``, None without a graph."""

    @property
    def time(self) -> float:
        """Simulated seconds."""

    @property
    def stats(self) -> PlanCounters:
        """Where the work of the corridor's searches is counted."""

    @property
    def requests(self) -> PathRequestQueue[int, Optional[Cell]]:
        """The path queue: unit id -> the goal it had when it asked for a plan."""

    @property
    def watcher(self) -> MapWatcher[int]:
        """Who hears of map changes, by unit id."""

    def set_state(self, unit: Unit, state: UnitState) -> None:
        """Change a unit's state (the navigator is its one writer)."""


class Corridor:
    """The units' routes (their path stacks) and their repair, for the navigator ``host``."""

    def __init__(self, host: CorridorHost) -> None:
        self.host = host

    def replan(self, unit: Unit) -> None:
        """Drop the unit's routes and ask the path queue for a plan to its goal: it waits in FIND_PATH (the plan is
        served within the update's planning budget, D5, not searched here)."""
        host = self.host
        host.set_state(unit, UnitState.FIND_PATH)
        unit.forget_routes()
        host.requests.submit(unit.id, unit.goal, host.time)

    def high_level_route(self, unit: Unit, start: Cell, target: Cell) -> Tuple[Cell, ...]:
        """The key points to pass and the target (just the target without a graph)."""
        host = self.host
        graph = host.graph_of(unit)
        if graph is None or start == target:
            return (target,)
        result = graph.find_path(start, target, link=host.link, smooth=False)
        host.stats.plan_work += result.expanded
        return tuple(result.route[1:]) if result else (target,)

    def next_leg(self, unit: Unit, route: Route) -> bool:
        """Push the cell route from the unit's cell to the farthest of the next key points of its high-level
        ``route`` (and watch it); False if there is none now (the leg is cut off)."""
        first = route.index == 0
        route.advance(self._farthest_waypoint(unit.cell, route) - route.index)
        if not self._plan_leg(unit, route.aim, first, route.index == len(route.waypoints) - 1):
            return False
        self.watch(unit)
        return True

    def _farthest_waypoint(self, cell: Cell, route: Route) -> int:
        """The index of the farthest of the next few key points within two clusters of ``cell``, but not past
        the one after which the route is to hold (``Route.wait_at``: a group before a narrow passage).

        Legs are planned by exact search (but for the walked first and last legs in "fast" mode), so going
        straight for a later key point is never longer than passing the ones before it; the path then does not
        zigzag through key points, and units crossing a border do not all funnel through the same cells.
        """
        graph = self.host.graph
        reach = 2 * graph.cluster_size if graph is not None else 0
        chosen, end = route.index, min(route.index + 4, len(route.waypoints))
        if route.wait_while is not None and route.index < route.wait_at:  # a key point to hold at is not passed by
            end = min(end, route.wait_at)
        for index in range(route.index + 1, end):
            if grid_distance(cell, route.waypoints[index], self.host.grid.connectivity) > reach:
                break
            chosen = index
        return chosen

    def _plan_leg(self, unit: Unit, waypoint: Cell, first: bool, last: bool) -> bool:
        """Push the cell route to the next high-level waypoint; False if there is none."""
        host = self.host
        grid = host.grid_of(unit)
        if host.link == "fast" and host.graph is not None and (first or last):
            walked = walk_line(grid, unit.cell, waypoint)
            if walked.status is WalkStatus.ARRIVED:
                unit.stats.walks += 1
                unit.stack.push(Route(RouteKind.LOW_LEVEL, walked.cells[1:]))
                return True
        found = find_path(grid, unit.cell, waypoint)
        host.stats.plan_work += found.expanded
        if not found:
            return False
        unit.stack.push(Route(RouteKind.LOW_LEVEL, found.cells[1:]))
        return True

    def watch(self, unit: Unit) -> None:
        """Watch the regions the unit's remaining route crosses (D3): its cell routes in the order
        it will walk them (top of the stack first), and the key points still to reach."""
        self.host.watcher.subscribe(unit.id, *_route_ahead(unit))

    # -- changing maps ------------------------------------------------------------------

    def take_shortcut(self, unit: Unit, opened: np.ndarray) -> None:
        """Cells were opened (``opened``, an (n, 2) array of x, y) while ``unit`` is under way (D1): it plans again
        when a route through one of them could be much shorter than the route it has left. (A whole new plan costs a
        search from scratch: a way only a little shorter is not worth one.)"""
        if _shortcut_possible(unit, opened, self.host.grid.connectivity):
            unit.stats.shortcuts += 1
            self.replan(unit)

    def check(self, unit: Unit) -> None:
        """A change on the unit's route: splice around it, walk around it, or plan again (D2, H6)."""
        if unit.state in FINAL_STATES or unit.state is UnitState.IDLE or unit.state is UnitState.FIND_PATH:
            return
        grid = self.host.grid_of(unit)
        highs = [route for route in unit.stack if route.kind is RouteKind.HIGH_LEVEL]
        if any(not grid.is_passable(cell) for high in highs for cell in high.remaining):
            self.replan(unit)  # a key point or the goal itself is gone
            return
        position = unit.anchor  # where the unit will be when it takes up each route, top down
        for route in reversed(list(unit.stack)):
            if route.kind is RouteKind.HIGH_LEVEL:
                return
            if first_blocked(grid, [position, *route.remaining]) is not None:
                self.route_cut(unit, route)
                return
            position = route.waypoints[-1] if route.waypoints else position

    def route_cut(self, unit: Unit, route: Route) -> None:
        """The route ahead is cut: splice the route being walked around the obstacle (D2); for a
        route further down the stack, drop the cell routes and plan the leg to the next key point
        again from here (H6); after three encounters in one trip, plan the whole trip again."""
        unit.stats.encounters += 1
        unit.trip_encounters += 1
        if unit.trip_encounters >= ENCOUNTERS_BEFORE_REPLAN:
            unit.trip_encounters = 0
            self.replan(unit)
            return
        if route is not unit.stack.top:
            while unit.stack.top is not None and unit.stack.top.kind is not RouteKind.HIGH_LEVEL:
                unit.stack.pop()
            return
        cells = [unit.anchor, *route.remaining]
        spliced = splice_path(self.host.grid_of(unit), cells, 0)
        self.host.stats.splice_work += spliced.work
        if spliced.status is SpliceStatus.SPLICED:
            unit.stats.splices += 1
            self._replace_route(unit, route, spliced.cells[1:])
        else:
            self.replan(unit)

    def _replace_route(self, unit: Unit, route: Route, cells: Sequence[Cell]) -> None:
        """Swap a cell route of the unit's stack (and whatever lies above it) for ``cells``."""
        while unit.stack.top is not route:
            unit.stack.pop()
        unit.stack.pop()
        unit.stack.push(Route(route.kind, cells))
        self.watch(unit)


def nearest_reachable(grid: Grid, start: Cell, goal: Cell) -> Cell:
    """The cell of ``start``'s island on ``grid`` nearest to ``goal`` (Euclidean; ties to the lowest (y, x)):
    where a unit whose goal is cut off stops."""
    ys, xs = np.nonzero(grid.islands == grid.island_of(start))
    nearest = int(np.argmin((xs - goal[0]) ** 2 + (ys - goal[1]) ** 2))
    return int(xs[nearest]), int(ys[nearest])


def _route_ahead(unit: Unit) -> Tuple[List[Cell], List[Cell]]:
    """The cells the unit will walk, in order from where it is (its cell routes, top of the stack
    first), and the key points still to reach after them."""
    points = [
        cell for route in reversed(list(unit.stack)) if route.kind is RouteKind.HIGH_LEVEL for cell in route.remaining
    ]
    return [unit.anchor] + route_cells(unit), points


def _shortcut_possible(unit: Unit, opened: np.ndarray, connectivity: int) -> bool:
    """Whether a way through one of the ``opened`` cells (an (n, 2) array of x, y) could be at most
    SHORTCUT_RATIO of the way the unit has left to its target.

    Both are measured as on an empty grid of this connectivity, ignoring walls and terrain costs, which
    only lengthens ways: the way left is at least as long as measured, a way through an opened cell no
    shorter than measured.
    """
    destination = unit.stack.destination()
    if destination is None:  # only making way for another unit
        return False
    cells, points = _route_ahead(unit)
    ahead = np.array(cells + points)
    left = grid_distances(ahead[:-1], ahead[1:], connectivity).sum()
    here, target = ahead[0], np.array(destination)
    through = (grid_distances(opened, here, connectivity) + grid_distances(opened, target, connectivity)).min()
    return bool(through <= SHORTCUT_RATIO * left)
