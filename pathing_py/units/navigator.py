"""Units that walk a changing map (SPEC U1–U4, D1–D5, H6).

Quick start::

    >>> from pathing_py import Grid
    >>> from pathing_py.units import Navigator, UnitState
    >>> grid = Grid.from_ascii('''
    ... ..........
    ... ....##....
    ... ..........
    ... ''')
    >>> navigator = Navigator(grid)
    >>> tank = navigator.add_unit((0.5, 1.5), speed=4.0)
    >>> tank.move_to((9, 1))
    >>> for _ in range(40):
    ...     navigator.update(0.1)
    >>> tank.state, tank.cell
    (<UnitState.ARRIVED: 'ARRIVED'>, (9, 1))

Positions are floats in cell units: cell (x, y) covers [x, x+1) x [y, y+1)
and a unit standing in it is at (x + 0.5, y + 0.5); speed is in cells per
second. Units move from cell centre to cell centre by king moves (straight
moves only on a 4-connected grid: every route they take comes from the grid's
searches, lines and walks, which follow its connectivity). A unit
holds the cell it stands in and the cell it moves into (and, moving
diagonally, both corner cells), so units never overlap and never cut a wall
corner; map edits cannot block a held cell. A unit larger than a cell (radius
above 0.5) stands on a block of cells, plans and moves on the grid of its
size (SPEC G4, :class:`~pathing_py.sized_grids.SizedGrids`: a tank is never
routed through a gap only a soldier fits), and holds the blocks it stands
on and moves into (see :mod:`~pathing_py.units.occupancy`).

Each update: the units whose routes crossed changed map regions hear of it
(once); if the map opened cells, units whose goals were cut off go on once
they can reach them and units under way plan again where the opening may
make their way much shorter (D1); path requests are served within the time
budget; then every unit moves by speed x delta in sub-steps of its own, at
most half a cell each, so that no frame time lets a unit jump through a wall
or a unit (and a fast or small unit costs the others no sub-steps). When a
unit's next cell is held, the navigator's
:class:`~pathing_py.units.traffic.Traffic` rules say what it does; jams they
cannot settle (units waiting for one another, none moving) get moves planned
for all their units at once (:class:`~pathing_py.units.jams.plans.JamPlans`).
"""

import math
import time
from collections import deque
from operator import attrgetter
from typing import Callable, Deque, Dict, Iterable, List, Optional, Protocol, Sequence, Tuple

import numpy as np

from ..arguments import as_flag, as_int, as_point, as_seconds, finite_or_none, shown
from ..clearance import block_at, block_centre, size_class
from ..grid import Cell, Grid
from ..search import as_cell
from ..sized_grids import SizedGrids
from .agents import AgentArrays
from .collisions import Collisions
from .corridor import Corridor, nearest_reachable
from .dynamic import MapWatcher
from .jams.plans import JamPlans
from .moves import Round, move_on, sub_step, sub_steps
from .narrows import Claim, Narrows, Stretch, hold_for_next_turn, mark_narrows
from .occupancy import Occupancy, block_cells, step_cells
from .path_stack import Route, RouteKind
from .requests import PathRequestQueue
from .traffic import REROUTES_PER_TRIP, Traffic, squads_and_ranks
from .unit import FINAL_STATES, STANDING_STATES, STATE_CODES, Unit, UnitState, unit_settings_problem
from .wakeups import ASIDE, Wait, Wakeups

__all__ = ["UPDATE_PARTS", "Navigator", "NavigatorStats", "Steerer"]


#: Update times kept in NavigatorStats: minutes of a game at 60 updates a second, without growing forever.
UPDATES_KEPT = 20_000
#: Cells around a unit moved off its goal in which every unit stands before it walks back (not into a stream).
SEND_BACK_CLEARANCE = 2
#: Times an order goes on after its unit stopped HELD_UP, once every unit around it stands (see Navigator._go_on).
HELD_UP_RESUMES = 2
#: Times a unit walks back to its goal after it was moved off it, an order (see Navigator._send_back).
WALKS_BACK = 4
#: Cells around a unit stopped HELD_UP in which every unit stands before it goes on after only ``give_up`` seconds.
SETTLED_CLEARANCE = 20
#: Seconds without coming closer to its target, in units of ``give_up``, after which a unit stops HELD_UP.
STALL_FACTOR = 3
#: Stall limits (STALL_FACTOR x ``give_up``) after which a unit whose order came no closer to its goal stops HELD_UP
#: whatever it is doing meanwhile (making way, waiting aside, being pushed: each counts as progress for the stall
#: limit, and dense crowds kept units so busy for good). A push holds a unit aside for up to one; with two, a large
#: crowd of random orders (bench_crowd.py's movingai_orders) took longer to all arrive than with three.
BUSY_STALL_FACTOR = 3
#: The stall check reads every STALL_SLICES-th unit an update, in turn (a stall lasts STALL_FACTOR x give_up
#: seconds: found a few updates late, it is as good).
STALL_SLICES = 10
#: States of units without a step under way that take their next cell when they may.
WALKING_STATES = frozenset({UnitState.RUN, UnitState.WAITING})
RUN_CODE, WAITING_CODE = STATE_CODES[UnitState.RUN], STATE_CODES[UnitState.WAITING]
#: The states and route kinds the events read at every step, as module globals: an enum member read off its class
#: goes through the enum's metaclass, several times slower than a global (CPython 3.8 and 3.11 alike).
MOVING, RUN, ARRIVED, HIGH_LEVEL = UnitState.MOVING, UnitState.RUN, UnitState.ARRIVED, RouteKind.HIGH_LEVEL
#: Seconds one update advances the world by at most (see Navigator.update).
MAX_UPDATE_SECONDS = 1.0
#: The parts an update's time is split into (:attr:`NavigatorStats.part_seconds`): the map's changes seen, path plans
#: (the queue's, and the legs between key points units plan as they reach them), the steerers (groups), the units
#: that only move on (array passes), the units' events in Python (cells taken and let go, arrivals), the traffic
#: rules of units whose way is held (waits, detours, pushes), jams' plans, and the checks that end or resume orders.
UPDATE_PARTS = ("map changes", "plans", "steering", "array moves", "events", "traffic", "jams", "order checks")


class NavigatorStats:
    """Work done by a navigator, update by update."""

    def __init__(self) -> None:
        self.updates = 0
        #: Seconds each of the last UPDATES_KEPT updates took.
        self.update_seconds: Deque[float] = deque(maxlen=UPDATES_KEPT)
        self.plan_work = 0  #: nodes expanded by full path searches
        self.splice_work = 0  #: nodes expanded by splices
        #: work of the searches for jams' plans (see :meth:`~pathing_py.units.jams.untangling.Untangling.advance`)
        self.jam_work = 0
        self.notified = 0  #: unit notifications of map changes on their routes
        self.refused_edits = 0  #: cells an edit could not block because units hold them
        self.removed = 0  #: units taken off the map (:meth:`Navigator.remove_unit`)
        #: Seconds of wall-clock time each part of the last update took (UPDATE_PARTS): where the time goes.
        self.part_seconds: Dict[str, float] = dict.fromkeys(UPDATE_PARTS, 0.0)


Event = Tuple[int, str, Cell]


class Steerer(Protocol):
    """What steers units from above (groups set their members' orders and paces, SPEC F1-F3): see
    :attr:`Navigator.steering`."""

    def steer(self, delta: float) -> None:
        """Called with ``delta`` each update once plans are served, before units move."""

    def resting(self) -> bool:
        """Whether there is nothing to steer until an order: the world may rest (see :attr:`Navigator.at_rest`)."""


class Navigator:
    """Owns the grid, the optional key-point graph, the units and the clock.

    Parameters
    ----------
    grid : Grid
    graph : KeyPointGraph, optional
        Plans long routes over key points; kept up to date with edits.
    link : "exact" or "fast"
        How plans join the graph; in "fast" mode the first and last legs are
        walked with the straight-line walker, as seed 001 does.
    time_budget : float, optional
        Seconds of path planning per update (D5); None plans every request at once.
    wait_limit, give_up : float
        Seconds of waiting before units detour, and before they take a new
        route or stop HELD_UP: see :class:`~pathing_py.units.traffic.Traffic`.
    region_size : int
        Side of the regions map changes are watched by (D3).
    retry_time : float
        Seconds after a unit stopped short of a goal the map cut off (UNREACHABLE, or HELD_UP on
        its way to the nearest reachable cell) during which it goes on as soon as an edit opens a
        way to the goal; 0 stops such units for good at once.
    """

    #: Units from which a frame's sub-steps are taken in array passes (see :meth:`_move_units`): below, the
    #: passes' own cost (a few dozen array operations a round) is more than the Python they save.
    array_pass_units = 64

    def __init__(
        self,
        grid: Grid,
        graph=None,
        *,
        link: str = "exact",
        time_budget: Optional[float] = None,
        wait_limit: float = 1.0,
        give_up: float = 10.0,
        region_size: int = 16,
        retry_time: float = 30.0,
        clock: Callable[[], float] = time.perf_counter,
    ):
        if not isinstance(grid, Grid):
            raise TypeError(f"grid must be a Grid, got {type(grid).__name__}")
        if graph is not None and graph.grid is not grid:
            raise ValueError("the graph was baked for another Grid object")
        if link not in ("exact", "fast"):
            raise ValueError(f"link must be 'exact' or 'fast', got {link!r}")
        if not callable(clock):
            raise TypeError(f"clock must be a function of no arguments giving seconds, got {clock!r}")
        time_budget = None if time_budget is None else as_seconds(time_budget, "time_budget")
        region_size = as_int(region_size, "region_size")
        self.grid = grid
        self.graph = graph
        self.link = link
        self.retry_time = as_seconds(retry_time, "retry_time", zero=True)
        self.time = 0.0
        self.units: Dict[int, Unit] = {}
        #: The units' positions, step targets, speeds and state codes (see :mod:`.agents`).
        self.agents = AgentArrays()
        #: The round of sub-steps under way, and each slot's rank in its priority order (see :meth:`_move_units`).
        self._round: Optional[Round] = None
        self._round_unit: Optional[Unit] = (
            None  #: the unit taking its sub-step in the round (not woken by its own events)
        )
        self._rank_of = np.zeros(0, dtype=np.intp)
        #: Unit id -> the goal it had when it asked for a plan (answered only if it still has it).
        self.requests: PathRequestQueue[int, Optional[Cell]] = PathRequestQueue(time_budget, clock=clock)
        self.watcher: MapWatcher[int] = MapWatcher(grid.width, grid.height, region_size)
        self.stats = NavigatorStats()
        #: The units' routes and their repair (see :mod:`.corridor`).
        self.corridor = Corridor(self)
        self.occupancy = Occupancy()
        self._sizes: Optional[SizedGrids] = None  #: the grids of units larger than a cell, once one is added
        #: The units' collisions (SPEC U5): the open ones, and counts of how those that ended were settled.
        self.collisions: Collisions[Unit] = Collisions()
        self.traffic = Traffic(self, wait_limit=wait_limit, give_up=give_up)
        self.jams = JamPlans(self, patience=2 * self.traffic.wait_limit)
        #: Turns at long narrow passages (see :mod:`.narrows`), of the units on their own and of groups.
        self.narrows = Narrows(lambda: self.time)
        self._turns: Dict[int, Tuple[Route, List[Claim]]] = {}  #: unit id -> its high-level route and its claims on it
        #: Units asleep while they wait, woken by events (see :mod:`.wakeups`): crowds that move in array passes only.
        self.wakeups = Wakeups(self.occupancy, self._woken)
        self._parts = dict.fromkeys(UPDATE_PARTS, 0.0)  #: this update's time so far, part by part (see NavigatorStats)
        self._leg_seconds = 0.0  #: of this update's events, the seconds spent planning legs (a part of "plans")
        #: Units -> the route, and its key point, of the last hold for a turn at a narrow passage the game heard of.
        self._turns_heard: Dict[Unit, Tuple[Route, int]] = {}
        self._clock = clock
        self._events: List[Event] = []
        self._opened: List[Cell] = []  #: cells freed since the last update
        #: How ``Unit.reason`` names cells and units: grid cells and navigator unit ids unless a game that
        #: shows its own (TileMap cells, node ids) sets these.
        self.cell_label: Callable[[Cell], str] = str
        self.unit_label: Callable[[Unit], str] = lambda unit: str(unit.id)
        #: Set to a list to record every step as (unit id, from cell, to cell): for tests and replays.
        self.step_log: Optional[List[Tuple[int, Cell, Cell]]] = None
        #: What steers units from above, each update once plans are served, before units move.
        self.steering: List[Steerer] = []
        self._next_id = 1
        #: Whether every unit rested (:meth:`_rests`) with no plan or request under way at the end of the last
        #: update that did its work (checked every STALL_SLICES updates), and nothing woke the world since.
        self._at_rest = False

    # -- units ----------------------------------------------------------------------

    def add_unit(self, position: Tuple[float, float], *, speed: float, radius: float = 0.5, priority: int = 0) -> Unit:
        """A new idle unit at ``position`` (floats, cell units), which must lie in a free cell no unit holds. It
        stands on the centre of its cell (of the block of cells it holds, for a unit wider than a cell), where
        ``position`` falls: its circle reaches no cell it does not hold, so none overlaps another or a wall."""
        x, y = as_point(position, "position")
        problem = unit_settings_problem(speed, radius)
        if problem:
            raise ValueError(problem)
        priority = as_int(priority, "priority")
        size = size_class(float(radius))
        corner = block_at((x, y), size)
        cells = block_cells(corner, size)
        for cell in cells:
            if not self.grid.is_passable(cell):
                raise ValueError(
                    f"position ({x}, {y}) puts a unit of radius {radius} on cell {cell},"
                    " which is blocked or off the map"
                )
            holder = self.occupancy.holder(cell) or next(iter(self.occupancy.leavers(cell)), None)
            if holder is not None:
                raise ValueError(f"cell {cell} is held by unit {holder.id}")
        unit = Unit(self, self._next_id, self.agents, block_centre(corner, size), float(speed), float(radius), priority)
        self._next_id += 1
        self._at_rest = False
        self.units[unit.id] = unit
        self.occupancy.hold(unit, cells)
        return unit

    def remove_unit(self, unit: Unit) -> None:
        """Take a unit off the map: its cells are free again, its requests and the events not yet taken dropped."""
        if not isinstance(unit, Unit):
            raise TypeError(f"unit must be a Unit, got {unit!r}")
        if self.units.get(unit.id) is not unit:  # (another navigator's unit may have the same id)
            raise ValueError(f"{unit!r} is not a unit of this navigator")
        del self.units[unit.id]
        self.stats.removed += 1
        self._at_rest = False
        self._events = [event for event in self._events if event[0] != unit.id]
        self.occupancy.left(unit, unit.cell)  # (the cell it was stepping out of, if any)
        self.occupancy.release(unit)
        self.requests.cancel(unit.id)
        self.watcher.unsubscribe(unit.id)
        self.collisions.forget(unit, self.time)
        self._drop_turns(unit)
        self.wakeups.forget(unit)
        self._turns_heard.pop(unit, None)
        slot = unit.slot
        unit.detach()
        self.agents.remove(slot)

    def holder(self, cell: Cell) -> Optional[Unit]:
        """The unit holding a cell, if any."""
        return self.occupancy.holder(cell)

    def grid_of(self, unit: Unit) -> Grid:
        """The grid ``unit`` plans and moves on: the map, or for a unit larger than a cell the grid of
        its size (its cells are its block's top-left cells; built at the first unit of that size)."""
        if unit.size == 1:
            return self.grid
        if self._sizes is None:
            self._sizes = SizedGrids(self.grid, graph=self.graph)
        return self._sizes.grid(unit.size)

    def graph_of(self, unit: Unit):
        """The key-point graph of :meth:`grid_of` ``(unit)``, None without a graph (baked at first use for a size)."""
        if self.graph is None or unit.size == 1:
            return self.graph
        self.grid_of(unit)
        assert self._sizes is not None
        return self._sizes.graph(unit.size)

    def events(self) -> List[Event]:
        """(unit id, event, cell) since the last call: path_found, waypoint_reached, waiting_for_turn (it holds before
        a long narrow passage until its turn there, see :attr:`Unit.taking_turns`), and a final state's
        :attr:`UnitState.signal` (arrived, held_up, unreachable)."""
        events, self._events = self._events, []
        return events

    # -- the map ------------------------------------------------------------------------

    def set_blocked(self, cells: Iterable[Cell], blocked: bool = True) -> List[Cell]:
        """Block (or free) cells, keeping the graph and the watchers up to date.

        Cells held by units are not blocked: they are returned, and the
        caller may try again once the units have moved on.
        """
        cells = [as_cell(cell, "cell") for cell in cells]
        blocked = as_flag(blocked, "blocked")
        for cell in cells:
            if not self.grid.in_bounds(cell):
                raise ValueError(f"cell {shown(cell)} is outside the {self.grid.width}x{self.grid.height} map")
        refused = [cell for cell in cells if blocked and (cell in self.occupancy or self.occupancy.leavers(cell))]
        applied = [
            cell for cell in dict.fromkeys(cells) if cell not in refused and self.grid.is_passable(cell) == blocked
        ]
        self.grid.set_blocked(applied, blocked)
        if applied:
            self._at_rest = False
            self.wakeups.wake_all()  # (a step a unit waits to take may be cut, or a way open)
            if self.graph is not None:
                self.graph.update(applied)
            if self._sizes is not None:
                self._sizes.cells_changed(applied)
            self.watcher.cells_changed(self._blocks_touching(applied))
            if not blocked:
                self._opened += applied
        self.stats.refused_edits += len(refused)
        return refused

    def _blocks_touching(self, cells: List[Cell]) -> List[Cell]:
        """The top-left cells of every block of the units' sizes that holds one of ``cells``: the cells on
        the routes of units of any size that an edit of ``cells`` may cut."""
        largest = max((unit.size for unit in self.units.values()), default=1)
        touching = {(x - i, y - j) for x, y in cells for j in range(largest) for i in range(largest)}
        return [cell for cell in touching if self.grid.in_bounds(cell)]

    # -- the clock ----------------------------------------------------------------------

    def update(self, delta: float) -> None:
        """Advance the world by ``delta`` seconds, at most MAX_UPDATE_SECONDS of them: after a longer
        frame (a game paused, or hitched) the world falls behind the game's clock rather than the update
        taking as long as walking out the whole delta in sub-steps."""
        seconds = finite_or_none(delta)
        if seconds is None or seconds < 0:
            raise ValueError(f"delta must be a finite number of seconds >= 0, got {shown(repr(delta))}")
        delta = min(seconds, MAX_UPDATE_SECONDS)
        started = self._clock()
        if self.at_rest:
            self.time += delta
            self.stats.part_seconds = dict.fromkeys(UPDATE_PARTS, 0.0)
        else:
            self._advance_world(delta)
        self.stats.update_seconds.append(self._clock() - started)
        self.stats.updates += 1

    @property
    def at_rest(self) -> bool:
        """Whether every unit stands with nothing left to do that time alone starts (no step, route or order
        under way, none moved off its goal or held up for now) and every steerer rests: until an order, a unit
        added or removed, or a map edit, an update only advances the clock and no unit moves. Found within
        STALL_SLICES updates of the last unit coming to rest (a map of 1,000 standing units then costs a game
        a few microseconds a frame, not half a millisecond)."""
        return self._at_rest and all(steerer.resting() for steerer in self.steering)

    def _advance_world(self, delta: float) -> None:
        """One update's work: map changes, plans, steering, the units' moves, and the checks that end or resume
        orders."""
        self._at_rest = False  # (found anew at the end: steering, pushes and plans may set units going meanwhile)
        parts = self._parts = dict.fromkeys(UPDATE_PARTS, 0.0)
        started = time.perf_counter()
        for unit_id in self.watcher.collect():
            unit = self.units.get(unit_id)
            if unit is not None:
                self.stats.notified += 1
                self.corridor.check(unit)
        self._take_openings()
        started = self._part_done("map changes", started)
        self.time += delta
        self.requests.serve(self._serve, self.time)
        started = self._part_done("plans", started)
        for steerer in self.steering:
            steerer.steer(delta)
        if self.steering and len(self.wakeups):
            self.wakeups.recheck(squads_and_ranks)
        started = self._part_done("steering", started)
        if delta > 0 and self.units:
            order = self._in_priority_order()
            self._move_units(order, delta)  # (it splits its own time)
            started = time.perf_counter()
            self.jams.update(order)
            started = self._part_done("jams", started)
            if self._turns:
                self._pass_narrows()
            in_turn = order[self.stats.updates % STALL_SLICES :: STALL_SLICES]
            self._stop_stalled(in_turn)
            self._send_back(in_turn)
            self._go_on(in_turn)
            if not self.stats.updates % STALL_SLICES:
                self._at_rest = not (self.requests or self.jams.busy) and all(map(self._rests, order))
            self._part_done("order checks", started)
        parts["events"] = max(
            0.0, parts["events"] - parts["traffic"] - self._leg_seconds
        )  # (both timed inside the events)
        parts["plans"] += self._leg_seconds
        self._leg_seconds = 0.0
        self.stats.part_seconds = parts

    def _part_done(self, part: str, started: float) -> float:
        """Add the seconds since ``started`` to ``part`` of this update's time; the time now."""
        now = time.perf_counter()
        self._parts[part] += now - started
        return now

    def _move_units(self, order: List[Unit], delta: float) -> None:
        """Every unit's sub-steps of the frame, spread evenly over rounds, in priority order. A crowd of
        ``array_pass_units`` units or more takes them in array passes (:meth:`_move_in_passes`); a smaller one
        walks its units in order in Python, where the passes' own cost would exceed what they save."""
        if len(order) >= self.array_pass_units:
            self._move_in_passes(order, delta)
            return
        self.wakeups.wake_all()  # (units asleep in a crowd that has become small since)
        started = time.perf_counter()
        steps = {
            speed: sub_step(delta, speed) for speed in {unit.speed for unit in order}
        }  # (units share a few speeds)
        rounds = max(count for count, _ in steps.values())
        for turn in range(rounds):
            for unit in order:
                if unit.next_cell is not None or unit.state in WALKING_STATES:
                    count, dt = steps[unit.speed]
                    if turn * count % rounds < count:
                        self._advance(unit, dt)
        self._part_done("events", started)

    def _move_in_passes(self, order: List[Unit], delta: float) -> None:
        """The sub-steps of each round: the units between two cells that only move on do so in one array pass
        (:func:`~.moves.move_on`); the units with an event (a centre reached, a next cell to take or wait for) take
        theirs in priority order, as do units stepping close behind a unit that leaves its cell, which read its
        position (as a walk in order would have seen it, :meth:`Round.position`, if it moved on in the pass)."""
        agents = self.agents
        slots = np.fromiter(map(_slot, order), dtype=np.intp, count=len(order))
        counts, seconds = sub_steps(delta, agents.speed[slots])
        if len(self._rank_of) < len(agents.position):
            self._rank_of = np.zeros(len(agents.position), dtype=np.intp)
        self._rank_of[slots] = np.arange(len(slots))
        rounds, lengths = int(counts.max()), seconds.tolist()
        wakeups = self.wakeups
        wakeups.fit(len(agents.position))
        wakeups.due(self.time)
        for turn in range(rounds):
            started = time.perf_counter()
            due = turn * counts % rounds < counts
            at_limit = wakeups.spend(slots, due, seconds)
            moving = agents.moving[slots]
            codes = agents.state[slots]
            events = due & ~moving & ((codes == RUN_CODE) | (codes == WAITING_CODE)) & ~wakeups.asleep[slots]
            movers = due & moving
            close = agents.close[slots]
            events |= movers & close
            movers &= ~close
            ranks = np.flatnonzero(movers)
            before, moved_on = agents.position.copy(), np.zeros(len(agents.position), dtype=bool)
            if len(ranks):
                short = move_on(agents, slots[ranks], seconds[ranks])
                events[ranks[~short]] = True
                moved_on[slots[ranks[short]]] = True
            self._round = Round(np.flatnonzero(events), due, self._rank_of, moved_on, before)
            started = self._part_done("array moves", started)
            try:
                for unit in at_limit:  # (their waits reach a limit of their rules in this round's sub-step)
                    wakeups.wake(unit)
                for rank in self._round:
                    unit = self._round_unit = order[rank]
                    if unit.next_cell is not None or unit.state in WALKING_STATES:
                        self._advance(unit, lengths[rank])
            finally:
                self._round = self._round_unit = None
            self._part_done("events", started)
        wakeups.settle()

    def set_state(self, unit: Unit, state: UnitState) -> None:
        """The one way a unit's state changes once it is added (the traffic rules and jams' plans call it too):
        the arrays follow, and a unit set walking during a round takes its sub-step there if its turn is to come."""
        if unit.state is state:  # (a unit waiting on, at each sub-step)
            return
        unit.state = state
        self.agents.state[unit.slot] = STATE_CODES[state]
        self.wakeups.changed(unit)
        if self._round is not None and state in WALKING_STATES and unit is not self._round_unit:
            self._round.wake(unit.slot)

    def _woken(self, unit: Unit) -> bool:
        """A unit woke (see :mod:`.wakeups`): whether it takes its sub-step in the round under way still."""
        return self._round is not None and self._round.wake(unit.slot)

    def asleep(self, unit: Unit) -> bool:
        """Whether ``unit`` sleeps while it waits (see :mod:`.wakeups`)."""
        return unit in self.wakeups

    def stirred(self, unit: Unit) -> None:
        """What units asleep read of ``unit`` waiting changed (see :meth:`Traffic.wait_or_detour`): they wake."""
        self.wakeups.stirred(unit)

    def _rests(self, unit: Unit) -> bool:
        """Whether ``unit`` stands with nothing left to do that time alone starts (see :attr:`at_rest`). A unit off
        its goal rests while units not off their own goals hold it (two units ordered to one cell, or a unit
        standing there for good): only another unit's move can let it back, and that wakes the world."""
        return (
            unit.state in STANDING_STATES and unit.next_cell is None and not len(unit.stack)
            and not (unit.off_goal and unit.walked_back < WALKS_BACK and unit.goal is not None
                     and self._goal_left_for(unit, unit.goal))
            and not self.goes_on_later(unit)
        )  # fmt: skip

    def _in_priority_order(self) -> List[Unit]:
        """The units by priority, highest first, and by id (the oldest first) among equals: ``units`` holds them by
        id already (ids only grow), and a stable sort by priority alone, a C-level key, keeps that order."""
        return sorted(self.units.values(), key=_priority, reverse=True)

    def _stop_stalled(self, units: Iterable[Unit]) -> None:
        """Units that have not come closer to their target for a long while take a route around the
        units in their way, up to REROUTES_PER_TRIP times, then stop HELD_UP, unless the queue they wait in
        comes closer (``Traffic.queue_still``): every order ends, even among units that keep making way for
        one another. A group's member leaves the route its group shares so, too. (Waiting on for the group's
        way instead, members of groups crossing at the mouths of two corridors stood in a knot until they
        stopped HELD_UP, and fewer of them arrived.) Whatever a unit does, its order ends HELD_UP once it came
        no closer for BUSY_STALL_FACTOR stall limits (but while it holds for its turn at a narrow passage or
        walks a jam's plan): in dense traffic, units kept busy making way, waiting aside and pushed, shuffling
        between a few cells, never stalled (one of tests/units/test_soak.py's worlds had an order go on for
        minutes without coming closer); stopped in a step, it ends the step first."""
        limit = STALL_FACTOR * self.traffic.give_up
        for unit in units:
            busy = unit.state not in FINAL_STATES and unit.state not in (UnitState.IDLE, UnitState.FIND_PATH)
            if not busy:
                continue
            if self.time - max(
                unit.closer_time, unit.planned_time
            ) > BUSY_STALL_FACTOR * limit and self._stop_kept_busy(unit, BUSY_STALL_FACTOR * limit):
                continue
            if unit.next_cell is not None or self.time - unit.progress_time <= limit:
                continue
            destination = unit.stack.destination()
            if destination is None:  # only making way: stand still again
                self.finish(unit, unit.arrival_state, unit.reason)
            elif unit.reroutes < REROUTES_PER_TRIP:
                rerouted = self.traffic.route_around_units(unit, destination)
                if rerouted:
                    unit.reroutes += 1
                    unit.progress_time = self.time
                elif rerouted is False:
                    unit.reroutes = REROUTES_PER_TRIP  # no way around: the next stall ends it
            elif not self.traffic.queue_still(unit, limit):  # the queue it waits in moves on: it waits on
                unit.progress_time = self.time
            else:
                target = self.cell_label(destination)  # what progress is measured against
                self.finish(unit, UnitState.HELD_UP, f"came no closer to {target} for {limit:.0f} s among other units")

    def _stop_kept_busy(self, unit: Unit, seconds: float) -> bool:
        """Stop ``unit`` HELD_UP, its order having come no closer for ``seconds`` since it last set off on a
        jam's plan (see :meth:`_stop_stalled`), unless the order ended already (it tidies up: making way,
        walking back to its goal), it holds for its turn at a narrow passage or walks a jam's plan (which sorts
        a jam out: stopped on it, units crossing head-on in a corridor two cells wide did not all arrive);
        whether it stopped."""
        destination = unit.stack.destination()
        if destination is None or unit.announced or unit.taking_turns or self.jams.planned(unit):
            return False
        self.finish(
            unit,
            UnitState.HELD_UP,
            f"came no closer to {self.cell_label(destination)} for {seconds:.0f} s, kept busy by other units",
        )
        return True

    def _send_back(self, units: Iterable[Unit]) -> None:
        """Units that arrived and were moved off their goal since (pushed aside for units that could not
        get by otherwise, or by a jam's plan that overran) walk back once the goal cell is free, or held only by
        units off their own goals too (units each on another's goal would stand so for good), pushing
        standing units aside as an order does: a unit stays where it was sent. The game heard how the
        order ended: a unit that cannot get back stands again where it is, ARRIVED (see :meth:`finish`). Up to
        WALKS_BACK times an order: units walking back pushed one another off their goals in turn for good (in a
        corner, three units that had arrived kept at it long after the last order)."""
        for unit in units:
            goal = unit.goal
            if (
                not (unit.off_goal and goal is not None and unit.next_cell is None and not len(unit.stack))
                or unit.walked_back >= WALKS_BACK
            ):
                continue
            if not self._goal_left_for(unit, goal) or self.time - unit.progress_time < self.traffic.give_up:
                continue
            if self._all_stand_around(unit):
                unit.stack.push(Route(RouteKind.HIGH_LEVEL, (goal,)))  # its leg is planned as it takes its next cell
                unit.best_distance, unit.progress_time, unit.closer_time = math.inf, self.time, self.time
                unit.reroutes = 0
                unit.walked_back += 1
                self.set_state(unit, UnitState.RUN)

    def _go_on(self, units: Iterable[Unit]) -> None:
        """Units that stopped HELD_UP go on with their order once the crowd that kept their way shut has
        settled (standing units make way), up to HELD_UP_RESUMES times an order: the game hears how it ends
        again. Settled: after ``give_up`` seconds, every unit within SETTLED_CLEARANCE cells stands; after
        STALL_FACTOR x ``give_up`` seconds, every unit within SEND_BACK_CLEARANCE cells. A group's members
        too (left to their groups, some members of a large crowd of groups stayed held up for good; going on,
        none did). (Going on after ``give_up`` seconds with every unit within SEND_BACK_CLEARANCE cells
        standing, units went back into crowds still under way, and fewer of a crowd of random orders arrived.
        Going on only after STALL_FACTOR x ``give_up`` seconds, the last of two large blocks crossing arrived
        long after every other unit had.)"""
        give_up = self.traffic.give_up
        for unit in units:
            waited = self.time - unit.stopped_time
            if not self.goes_on_later(unit) or waited < give_up:
                continue
            if self._all_stand_around(
                unit, SEND_BACK_CLEARANCE if waited >= STALL_FACTOR * give_up else SETTLED_CLEARANCE
            ):
                unit.resumed += 1
                self._start_trip(unit)

    def goes_on_later(self, unit: Unit) -> bool:
        """Whether ``unit`` stopped HELD_UP and goes on with its order by itself once the crowd around it has
        settled (see :meth:`_go_on`): its order has not ended for good. Not while a unit that arrived at its own
        goal stands on ``unit``'s (two units ordered to one cell): going on, it would only push that one off to
        take its place, and be pushed off in turn. (In a small room, five units ordered to one cell and two to
        another so took turns on them long after every other unit was done.)"""
        return (
            unit.state is UnitState.HELD_UP and unit.goal is not None
            and not unit.cut_off and unit.resumed < HELD_UP_RESUMES
            and not any(holder.state is UnitState.ARRIVED and holder.cell == holder.goal
                        for holder in self.occupancy.holders_of(block_cells(unit.goal, unit.size), unit))
        )  # fmt: skip

    def _all_stand_around(self, unit: Unit, clearance: int = SEND_BACK_CLEARANCE) -> bool:
        """Whether every unit within ``clearance`` cells of ``unit`` stands (no stream passes by it)."""
        return all(other.state in STANDING_STATES for other in self.occupancy.units_near(unit.cell, clearance))

    def _goal_left_for(self, unit: Unit, goal: Cell) -> bool:
        """Whether the units holding cells of ``unit``'s block at ``goal``, if any, are off their own goals too."""
        return all(holder.off_goal for holder in self.occupancy.holders_of(block_cells(goal, unit.size), unit))

    # -- orders and plans ---------------------------------------------------------------

    def order(self, unit: Unit, goal: Cell) -> None:
        """Send ``unit`` to the cell ``goal`` (what :meth:`Unit.move_to` does): from any state it goes to FIND_PATH."""
        if self.units.get(unit.id) is not unit:
            raise ValueError(f"unit {unit.id} was removed")
        if not self.grid.in_bounds(goal):
            raise ValueError(f"goal {shown(goal)} is outside the {self.grid.width}x{self.grid.height} map")
        unit.goal = goal
        unit.retry_until, unit.following, unit.resumed, unit.walked_back = None, False, 0, 0
        self._at_rest = False
        self._start_trip(unit)

    def await_route(self, unit: Unit, goal: Cell) -> None:
        """Hold ``unit`` in FIND_PATH for ``goal`` without a search of its own, until :meth:`follow`
        gives it the route another unit's plan found (a group member waits for its commander's)."""
        if self.units.get(unit.id) is not unit:
            raise ValueError(f"unit {unit.id} was removed")
        if not self.grid.in_bounds(goal):
            raise ValueError(f"goal {shown(goal)} is outside the {self.grid.width}x{self.grid.height} map")
        unit.goal, unit.retry_until = goal, None
        self._at_rest = False
        self.requests.cancel(unit.id)
        unit.forget_routes()
        self.set_state(unit, UnitState.FIND_PATH)

    def follow(
        self, unit: Unit, goal: Cell, key_points: Tuple[Cell, ...], aims: Optional[Sequence[Cell]] = None
    ) -> None:
        """Send ``unit`` to ``goal`` past ``key_points`` that another unit's plan found (a group's
        shared route, SPEC F1), heading for ``aims[i]`` in place of key point ``i`` (its own cells
        beside them) if given: no search of its own, the tuple shared by reference. A goal the unit
        cannot reach gets a plan of its own, as :meth:`order` gives it."""
        if not self.grid.in_bounds(goal) or not self.grid_of(unit).same_island(unit.anchor, goal):
            self.order(unit, goal)
            return
        if self.units.get(unit.id) is not unit:
            raise ValueError(f"unit {unit.id} was removed")
        shared = Route(RouteKind.HIGH_LEVEL, key_points, aims=aims) if key_points else None  # checks the aims first
        unit.goal, unit.retry_until, unit.cut_off, unit.following, unit.resumed, unit.walked_back = (
            goal,
            None,
            False,
            True,
            0,
            0,
        )
        unit.reason, unit.announced, unit.trip_encounters, unit.reroutes = "", False, 0, 0
        unit.arrival_state = UnitState.ARRIVED
        self._at_rest = False
        self.requests.cancel(unit.id)
        unit.forget_routes()
        unit.stack.push(Route(RouteKind.HIGH_LEVEL, (goal,)))
        if shared is not None:
            unit.stack.push(shared)
        unit.best_distance, unit.progress_time, unit.closer_time = math.inf, self.time, self.time
        self.set_state(unit, UnitState.MOVING if unit.next_cell else UnitState.RUN)
        self._events.append((unit.id, "path_found", goal))
        self.watch_route(unit)

    def retrying(self, unit: Unit) -> bool:
        """Whether ``unit`` stopped short of a goal the map cut off and still goes on if a way opens
        (for ``retry_time`` seconds after it stopped)."""
        return unit.cut_off and unit.retry_until is not None and self.time <= unit.retry_until

    def _start_trip(self, unit: Unit) -> None:
        """Plan the way to the unit's goal from where it is, as a new order does."""
        unit.reason = ""
        unit.announced = False
        unit.trip_encounters = 0
        unit.reroutes = 0
        self.corridor.replan(unit)

    def _serve(self, unit_id: int, goal: Optional[Cell]) -> None:
        unit = self.units.get(unit_id)
        if unit is None or goal is None or unit.goal != goal:
            return  # removed, or ordered elsewhere since
        unit.stats.plans += 1
        start, grid = unit.anchor, self.grid_of(unit)
        target, arrival, reason = goal, UnitState.ARRIVED, ""
        unit.cut_off = not grid.same_island(start, goal)
        if unit.cut_off:
            target = nearest_reachable(grid, start, goal)
            arrival = UnitState.UNREACHABLE
            named = self.cell_label(goal)
            if not self.grid.is_passable(goal):
                reason = f"goal {named} is blocked"
            elif not grid.is_passable(goal):
                reason = (
                    f"goal {named} has no room for a unit of radius {unit.radius:g}"
                    f" (a block of {unit.size}x{unit.size} cells)"
                )
            else:
                reason = f"goal {named} cannot be reached from {self.cell_label(start)}"
        unit.arrival_state, unit.reason = arrival, reason
        waypoints = self.corridor.high_level_route(unit, start, target)
        unit.forget_routes()
        high = self._route_taking_turns(unit, start, waypoints)
        unit.stack.push(high)
        unit.best_distance, unit.progress_time, unit.closer_time = math.inf, self.time, self.time
        self.set_state(unit, UnitState.MOVING if unit.next_cell else UnitState.RUN)
        self._events.append((unit.id, "path_found", target))
        # The first leg is searched here, within the planning budget (without a graph it is the whole path); a
        # unit between two cells, or a leg that cannot be planned now, gets it at its next step, as later legs.
        holds = high.wait_while is not None and high.wait_at == high.index  # (its turn first: see _route_taking_turns)
        if unit.next_cell is not None or holds or high.reached(unit.cell) or not self.corridor.next_leg(unit, high):
            self.watch_route(unit)

    def _route_taking_turns(self, unit: Unit, start: Cell, waypoints: Tuple[Cell, ...]) -> Route:
        """The unit's high-level route over ``waypoints``, with an approach point before each long narrow passage
        on it, where the unit holds until its turn has come (see :mod:`.narrows`): for a unit on its own (a group
        takes turns as one) planned on a key-point graph (whose legs are short or straight: the route's cells come
        cheaply; without one, they would take a second search of the whole way). A unit planning again inside
        a passage keeps its turn there until it has left it."""
        kept = self._leave_turns(unit)
        stretches: List[Stretch] = []
        if unit.squad is None and self.graph_of(unit) is not None:
            marked, stretches = mark_narrows(
                self.grid_of(unit), start, waypoints[:-1], waypoints[-1], depth=unit.size, hold_at_start=True
            )
            waypoints = marked + waypoints[-1:]
        route = Route(RouteKind.HIGH_LEVEL, waypoints)
        claims = kept + self.narrows.claim(unit, stretches)
        if claims:
            self._turns[unit.id] = (route, claims)
            hold_for_next_turn([route], claims)
        return route

    def _pass_narrows(self) -> None:
        """Let go of each narrow stretch a unit on its own has been in and left (or never went in, having left its
        route), or of every one once it stopped for good (not held up for now), and once it is let into the one it
        holds for, hold it for the next."""
        for unit_id, (route, claims) in list(self._turns.items()):
            unit = self.units[unit_id]
            stopped = unit.state in FINAL_STATES and not self.goes_on_later(unit)
            gone = route not in unit.stack  # (it left its route: a stretch it is in it still has to leave)
            for claim in list(claims):
                if stopped or (claim.passed_by((unit,), lambda _: gone) if claim.entered else gone):
                    self.narrows.release(claim)
                    claims.remove(claim)
            if not claims:
                del self._turns[unit_id]
            elif not gone and route.wait_while is None:
                hold_for_next_turn([route], claims)

    def _leave_turns(self, unit: Unit) -> List[Claim]:
        """Let go of the unit's claims but those of the stretches it is in; those, still to leave."""
        _, claims = self._turns.pop(unit.id, (None, []))
        kept = []
        for claim in claims:
            if claim.entered and claim.stretch.holds_on(unit.cell, unit.next_cell):
                kept.append(claim)
            else:
                self.narrows.release(claim)
        return kept

    def _drop_turns(self, unit: Unit) -> None:
        if self._turns.pop(unit.id, None) is not None:
            self.narrows.release_all(unit)

    def watch_route(self, unit: Unit) -> None:
        """The unit's routes changed: watch the map along the new ones (D3, :meth:`Corridor.watch`). Here for
        the collaborators that change routes and see the navigator as their host (traffic rules, jams' plans)."""
        self.corridor.watch(unit)

    # -- changing maps ------------------------------------------------------------------

    def _take_openings(self) -> None:
        """Cells opened since the last update (D1): a unit whose goal was cut off goes on once the
        goal is reachable (one that stopped short, within ``retry_time`` of stopping), and a unit
        under way plans again when a route through an opened cell could be much shorter than the
        route it has left (:meth:`Corridor.take_shortcut`)."""
        if not self._opened:
            return
        opened = np.array(self._opened)
        self._opened = []
        for unit in list(self.units.values()):
            if unit.goal is None or unit.state in (UnitState.IDLE, UnitState.FIND_PATH):
                continue
            if unit.cut_off:
                on_its_way = unit.retry_until is None  # not stopped yet
                if (on_its_way or self.retrying(unit)) and self.grid_of(unit).same_island(unit.anchor, unit.goal):
                    self._start_trip(unit)
            elif unit.state not in FINAL_STATES:
                self.corridor.take_shortcut(unit, opened)

    # -- moving -------------------------------------------------------------------------

    def _advance(self, unit: Unit, dt: float) -> None:
        """Spend ``dt`` seconds of the unit's time: move toward the centre of the cell it moves into, take
        waypoints, wait. (Units that only move on a little take their sub-steps in :func:`~.moves.move_on`.)"""
        phases = 4  # a sub-step crosses at most one cell boundary, then takes one waypoint
        agents, slot = self.agents, unit.slot  # (the unit's row read and written in place: no calls)
        position, walk_speed = agents.position, agents.walk_speed
        while phases and dt > 0:
            phases -= 1
            next_cell = unit.next_cell
            if next_cell is None:
                if unit.state not in WALKING_STATES or not self._take_next_cell(unit, dt):
                    return
                continue
            half = unit.size / 2  # the centre of its block there (block_centre inlined)
            tx, ty = next_cell[0] + half, next_cell[1] + half
            x, y = position.item(slot, 0), position.item(slot, 1)
            dx, dy = tx - x, ty - y
            distance = math.hypot(dx, dy)
            speed = walk_speed.item(slot)
            reach = speed * dt
            if unit.step_leavers:
                reach = self._reach_past_leavers(unit, (x, y), next_cell, (tx, ty), distance, reach)
            if reach < distance:
                position[slot, 0], position[slot, 1] = x + dx * reach / distance, y + dy * reach / distance
                return
            position[slot, 0], position[slot, 1] = tx, ty
            fx, fy = unit.step_from
            unit.stats.distance += math.hypot(tx - fx, ty - fy)  # (counted once a step, not at every sub-step)
            self._arrive(unit, next_cell)
            dt -= distance / speed
            if phases and dt > 0 and unit.state in WALKING_STATES:  # (its next phase: the next waypoint)
                step = self._plain_step(unit)
                if step is not None:  # (most arrivals: the next cell taken at once, as _take_next_cell would)
                    phases -= 1
                    self._start_step(unit, *step)

    def _mark_close(self, unit: Unit) -> None:
        """Whether ``unit`` takes its sub-steps in Python, its ``step_leavers`` just set: while it steps close behind
        units still stepping out of its cells, whose positions it reads (see :attr:`AgentArrays.close`). Those units
        move on in the array passes: :meth:`Round.position` shows them where a walk in order would."""
        self.agents.close[unit.slot] = bool(unit.step_leavers)

    def _reach_past_leavers(
        self,
        unit: Unit,
        start: Tuple[float, float],
        next_cell: Cell,
        target: Tuple[float, float],
        distance: float,
        reach: float,
    ) -> float:
        """How far ``unit`` may move of ``reach`` toward ``target``: a unit stepping out of a cell of its step may
        still reach into it. A unit that has left such a cell for good (it arrived beyond it: the cell is this unit's
        now, so it never comes back during the step) is dropped from the unit's leavers, and once none is left the
        unit moves on in the array passes again."""
        leaving, leavers, round_ = [], self.occupancy.leavers, self._round
        for cell, leaver in unit.step_leavers:
            if leaver in leavers(cell):
                leaving.append((cell, leaver))
                seen = leaver.position if round_ is None else round_.position(leaver.slot, leaver.position)
                clear = _reach_clear_of(start, target, distance, unit.radius + leaver.radius, seen)
                if clear < reach:
                    reach = clear
                    self.collisions.slowed(unit, next_cell, leaver, self.time)
        if len(leaving) < len(unit.step_leavers):
            unit.step_leavers = leaving or ()
            self._mark_close(unit)
        return reach

    def _arrive(self, unit: Unit, next_cell: Cell) -> None:
        """The unit stands at the centre of ``next_cell``: it lets go of the cells it left, and may have come closer."""
        self.occupancy.arrived(unit, unit.cell, block_cells(next_cell, unit.size))
        if unit.collision is not None:  # it was slowed on its way: that collision is over
            self.collisions.stepped(unit, self.time)
        close = bool(unit.step_leavers)
        unit.cell, unit.next_cell, unit.step_leavers = next_cell, None, ()
        if close:
            self._mark_close(unit)
        self.agents.moving[unit.slot] = False
        remaining = unit.stack.distance_to_go(unit.cell)
        if remaining is not None and remaining < unit.best_distance:
            unit.best_distance, unit.progress_time, unit.closer_time = remaining, self.time, self.time
        if unit.state is MOVING:
            self.set_state(unit, RUN)

    def _take_next_cell(self, unit: Unit, dt: float) -> bool:
        """Take the next waypoint: start moving (True), or wait, plan or stop (False)."""
        if self.jams.keeps_cell(unit):
            self.traffic.wait(unit, dt)
            return False
        stack = unit.stack
        for _ in range(len(stack) + 3):
            stack.pop_finished()
            route = stack.top
            if route is None:
                self.finish(unit, unit.arrival_state, unit.reason)
                return False
            if (
                route.wait_while is not None
                and route.kind is HIGH_LEVEL
                and self.traffic.still_passing(unit, route, dt)
            ):
                self._hold_for_turn(unit, route)
                return False
            waypoint = route.current
            if route.reached(unit.cell):
                route.advance()
                if route.kind is HIGH_LEVEL:  # the cell reached: a group member passes its key point aside
                    self._events.append((unit.id, "waypoint_reached", unit.cell))
                continue
            if route.kind is HIGH_LEVEL:
                started = time.perf_counter()
                planned = self.corridor.next_leg(unit, route)
                self._leg_seconds += time.perf_counter() - started
                if not planned:
                    self.corridor.replan(unit)
                    return False
                continue
            if (route.may_take is not None or route.wait_while is not None) and self.traffic.still_passing(
                unit, route, dt
            ):
                if route.wait_while is not None:  # waiting aside (not its turn in a jam's plan): asleep
                    self._sleep(unit, route, (), ASIDE)
                return False
            if self.jams.holds_back(unit, waypoint):
                self.traffic.wait_on_purpose(unit, dt)
                return False
            return self._step_onto(unit, route, waypoint, dt)
        return False

    def _hold_for_turn(self, unit: Unit, route: Route) -> None:
        """The unit holds past a key point of ``route`` before a narrow passage until its turn there (see
        :mod:`.narrows`), asleep; the game hears it once a hold (waiting_for_turn), not at every wake."""
        heard = self._turns_heard.get(unit)
        if heard is None or heard[0] is not route or heard[1] != route.wait_at:
            self._turns_heard[unit] = route, route.wait_at
            self._events.append((unit.id, "waiting_for_turn", unit.cell))
        self._sleep(unit, route, (), ASIDE)

    def _sleep(self, unit: Unit, route: Route, cells: Sequence[Cell], wait: Wait) -> None:
        """``unit`` sleeps until ``wait`` ends or a cell of ``cells`` is taken or let go (see :mod:`.wakeups`), in a
        crowd that moves in array passes (a smaller one asks the rules at every sub-step)."""
        if len(self.units) >= self.array_pass_units:
            ranks = squads_and_ranks(unit, wait.units) if self.steering and wait.reads_ranks else ()
            self.wakeups.sleep(unit, route, cells, wait, self.time, ranks)

    def _step_onto(self, unit: Unit, route: Route, cell: Cell, dt: float) -> bool:
        if not self.grid_of(unit).step_open(unit.cell, cell):
            self.corridor.route_cut(unit, route)
            return False
        cells = step_cells(unit.cell, cell, unit.size)
        blockers = self.occupancy.holders_of(cells, unit)
        if blockers:
            started = time.perf_counter()
            self.traffic.wait_or_detour(unit, route, cell, blockers, dt)
            self._part_done("traffic", started)
            if unit.stack and unit.stack[-1] is route and not self.jams.planned(unit):
                wait = self.traffic.sleep_blocked(unit, route, blockers)
                if wait is not None:
                    self._sleep(unit, route, [c for c in cells if c not in unit.held], wait)
            return False
        self._start_step(unit, route, cell, cells)
        return True

    def _plain_step(self, unit: Unit) -> Optional[Tuple[Route, Cell, List[Cell]]]:
        """The step a unit of one cell that just reached a cell centre takes at once in most cases, without the
        rounds of :meth:`_take_next_cell`: the next cell of its top route, a plain one (cells, no waits, no turns,
        no aims), open and held by no other unit, and no jam keeping it or holding it back; None otherwise (the
        general way then finds the same step where it is one). (route, cell, the cells of the step.)"""
        stack = unit.stack
        if not stack or unit.size != 1:
            return None
        route = stack[-1]
        index, waypoints = route.index, route.waypoints
        if (
            index >= len(waypoints) or route.kind is HIGH_LEVEL or route.aims is not None
            or route.wait_while is not None or route.may_take is not None
        ):  # fmt: skip
            return None
        cell, here = waypoints[index], unit.cell
        if cell == here or not self.grid.step_open(here, cell) or self.jams.keeps_cell(unit):
            return None
        if self.jams.holds_back(unit, cell):
            return None
        cells = step_cells(here, cell, 1)
        holder = self.occupancy.holder
        for step_cell in cells:
            other = holder(step_cell)
            if other is not None and other is not unit:
                return None
        return route, cell, cells

    def _start_step(self, unit: Unit, route: Route, cell: Cell, cells: List[Cell]) -> None:
        """``unit`` steps from its cell into ``cell`` of ``route``, holding ``cells`` (checked free)."""
        self.occupancy.hold(unit, cells)
        unit.step_leavers = self.occupancy.leavers_of(cells, unit) or ()
        if unit.step_leavers:
            self._mark_close(unit)
        if unit.size == 1 and (not unit.making_way or route.may_take is not None and self.jams.lets_follow(unit)):
            # the next unit of a file (or of a jam's plan) may take its cell now and follow (see Occupancy)
            self.occupancy.leave(unit, unit.cell)
        if (
            unit.announced and unit.arrival_state is ARRIVED and unit.cell == unit.goal
        ):  # an arrived unit leaves its goal
            unit.stats.moved_off_goal += 1
        if self.step_log is not None:
            self.step_log.append((unit.id, unit.cell, cell))
        agents, slot = self.agents, unit.slot  # (the unit's row read and written in place: no calls)
        position, target = agents.position, agents.target
        unit.next_cell, unit.step_from = cell, (position.item(slot, 0), position.item(slot, 1))
        half = unit.size / 2  # the centre of its block there
        target[slot, 0], target[slot, 1] = cell[0] + half, cell[1] + half
        agents.moving[slot] = True
        self.set_state(unit, MOVING)
        unit.waiting_for = 0.0
        if unit.collision is not None:  # it waited for this step, or was slowed on its last: that collision is over
            self.collisions.stepped(unit, self.time)
        route.advance()

    def finish(self, unit: Unit, state: UnitState, reason: str = "") -> None:
        """Stop the unit; the game hears of it once per order and each time it goes on after HELD_UP (not
        again after making way or walking back to its goal: a unit that arrived and cannot get back to its
        goal is still ARRIVED), and of a unit that gave up and was pushed onto its goal since: it arrived
        after all."""
        if state is UnitState.HELD_UP and unit.announced and unit.goal is not None:
            if unit.arrival_state is UnitState.ARRIVED:
                state = UnitState.ARRIVED
            elif unit.cell == unit.goal:
                state, unit.announced = UnitState.ARRIVED, False
        self.set_state(unit, state)
        unit.reason = reason if state is not UnitState.ARRIVED else ""
        unit.stopped_time = self.time
        unit.forget_routes()
        unit.waiting_for = 0.0
        self.collisions.stopped(unit, self.time)
        self.requests.cancel(unit.id)
        self.watcher.unsubscribe(unit.id)
        if unit.cut_off and unit.retry_until is None and state in FINAL_STATES:
            unit.retry_until = self.time + self.retry_time
        if not unit.announced and state is not UnitState.IDLE:
            unit.announced = True
            self._events.append((unit.id, state.signal, unit.cell))


_priority, _slot = attrgetter("priority"), attrgetter("slot")


def _reach_clear_of(
    start: Tuple[float, float], target: Tuple[float, float], distance: float, radii: float, centre: Tuple[float, float]
) -> float:
    """How far a unit at ``start`` may move toward ``target`` (``distance`` away) before its circle would meet
    another unit's circle at ``centre``, ``radii`` being the sum of their radii: the first point of the way at
    ``radii`` from ``centre``, or the whole way."""
    (x, y), (ox, oy) = start, centre
    if distance <= 0:
        return 0.0
    dx, dy = (target[0] - x) / distance, (target[1] - y) / distance
    rx, ry = x - ox, y - oy
    along = dx * rx + dy * ry  # |p + s d - o|^2 = s^2 + 2 s along + |p - o|^2
    apart = rx * rx + ry * ry - radii**2
    if along >= 0 or along * along < apart:  # moving away, or passing clear of it
        return distance
    return max(0.0, -along - math.sqrt(max(0.0, along * along - apart)))
