"""A unit: its state, its path stack, and what it did (SPEC U1, U2).

Units are made and moved by a :class:`~pathing_py.units.Navigator`; games
read their fields and give them orders with :meth:`Unit.move_to`.
"""

import enum
import math
from typing import FrozenSet, List, Optional, Protocol, Sequence, Set, Tuple

from ..arguments import finite_or_none, shown
from ..clearance import MAX_SIZE, block_at, size_class
from ..grid import Cell
from ..search import as_cell
from ..status import Status
from .agents import AgentArrays
from .collisions import Collision
from .path_stack import PathStack, RouteKind

__all__ = [
    "FINAL_STATES",
    "MAX_RADIUS",
    "STANDING_STATES",
    "STATE_CODES",
    "Unit",
    "UnitState",
    "UnitStats",
    "unit_settings_problem",
]

#: The largest radius of a unit, in cells: its block is as wide as the clearance map measures (SPEC G4).
MAX_RADIUS = MAX_SIZE / 2


class UnitState(enum.Enum):
    """What a unit is doing, in the names of :class:`~pathing_py.status.Status` (SPEC U2)."""

    IDLE = Status.IDLE.value  #: no order ("stillness")
    FIND_PATH = Status.FIND_PATH.value  #: waiting for a path (may still be finishing a step)
    RUN = Status.RUN.value  #: at a cell centre, taking the next waypoint
    MOVING = Status.MOVING.value  #: between two cell centres
    WAITING = Status.WAITING.value  #: the next cell is held by another unit
    ARRIVED = Status.ARRIVED.value  #: final: at the goal
    HELD_UP = Status.HELD_UP.value  #: final: units keep the way or the goal shut (see ``reason``)
    UNREACHABLE = Status.UNREACHABLE.value  #: final: at the reachable cell nearest the goal (see ``reason``)

    #: Members are hashed by identity (each is equal only to itself): Enum's own hash is a Python call, and
    #: ``unit.state in STANDING_STATES`` is asked a few times per unit and update.
    __hash__ = object.__hash__

    @property
    def signal(self) -> str:
        """The event (and PathUnit signal) that tells a game an order ended in this state: its name in lower case."""
        return self.value.lower()


FINAL_STATES = frozenset({UnitState.ARRIVED, UnitState.HELD_UP, UnitState.UNREACHABLE})
STANDING_STATES = FINAL_STATES | {UnitState.IDLE}
#: Each state's code in the navigator's arrays (:attr:`AgentArrays.state`): IDLE, a new unit's, is 0.
STATE_CODES = {state: code for code, state in enumerate(UnitState)}
#: Read at every step of a unit (a global: an enum member read off its class goes through the enum's metaclass).
_AVOIDANCE = RouteKind.AVOIDANCE


class Orders(Protocol):
    """What a unit asks of its navigator (the navigator module stands on this one): to carry out an order."""

    def order(self, unit: "Unit", goal: Cell) -> None:
        """Send ``unit`` to ``goal``."""


class Squad(Protocol):
    """Units that move as one (a group under way). Squad-mates under way wait for one another where
    they are in each other's way (for ``wait_limit`` seconds; then the usual rules), rather than detour
    or push, so that they keep their places; squad-mates push with the squad's highest rank, and units
    that make way for one of them wait aside until all of them have passed (SPEC U9)."""

    members: List["Unit"]
    #: How the squad ranks against other units, as :attr:`Unit.rank` does: (its members' highest priority,
    #: minus its oldest member's id). Its members push and give way as one, whichever of them meets whom.
    rank: Tuple[int, int]


def unit_settings_problem(speed, radius) -> str:
    """What is wrong with a unit's speed or radius (Python's or numpy's numbers), or "": for callers that check
    before adding."""
    checked_speed, checked_radius = finite_or_none(speed), finite_or_none(radius)
    if checked_speed is None or checked_speed <= 0:
        return f"speed must be a positive number of cells per second, got {shown(repr(speed))}"
    if checked_radius is None or not 0 < checked_radius <= MAX_RADIUS:
        return f"radius must be in (0, {MAX_RADIUS:g}] cells, got {shown(repr(radius))}"
    return ""


class UnitStats:
    """What one unit did: for games that show it and for benchmarks."""

    __slots__ = (
        "plans",
        "splices",
        "walks",
        "detours",
        "encounters",
        "shortcuts",
        "waited",
        "distance",
        "moved_off_goal",
    )

    def __init__(self) -> None:
        self.plans = 0  #: full path searches (the first one included)
        self.splices = 0  #: route pieces re-planned around new obstacles (D2)
        self.walks = 0  #: legs walked with the straight-line walker (L1, H6)
        self.detours = 0  #: avoidance routes around other units
        self.encounters = 0  #: new obstacles met on the route, all trips
        self.shortcuts = 0  #: plans made again because cells opened near a much shorter way (D1)
        self.waited = 0.0  #: seconds spent waiting for other units
        self.distance = 0.0  #: cells walked, counted as each step ends
        self.moved_off_goal = 0  #: steps started off its goal after it arrived there (pushed aside, or by a jam's plan)

    def __repr__(self) -> str:
        return (
            f"UnitStats(plans={self.plans}, splices={self.splices}, walks={self.walks}, detours={self.detours}, "
            f"encounters={self.encounters}, shortcuts={self.shortcuts}, waited={self.waited:.2f}s,"
            f" distance={self.distance:.2f})"
        )


class Unit:
    """A unit of a :class:`Navigator`. Read its fields; give orders with :meth:`move_to`."""

    #: Slots, not a dict: every unit under way is read at every sub-step, and compact units stay in the
    #: processor's cache (the groups benchmark's update is faster so).
    __slots__ = (
        "navigator",
        "id",
        "agents",
        "slot",
        "speed",
        "radius",
        "size",
        "priority",
        "_pace",
        "squad",
        "following",
        "cell",
        "next_cell",
        "step_from",
        "step_leavers",
        "held",
        "goal",
        "state",
        "reason",
        "stack",
        "stats",
        "waiting_for",
        "next_detour",
        "best_distance",
        "progress_time",
        "closer_time",
        "planned_time",
        "collision",
        "trip_encounters",
        "reroutes",
        "arrival_state",
        "stopped_time",
        "resumed",
        "walked_back",
        "announced",
        "cut_off",
        "retry_until",
    )

    def __init__(
        self,
        navigator: Orders,
        unit_id: int,
        agents: AgentArrays,
        position: Tuple[float, float],
        speed: float,
        radius: float,
        priority: int,
    ):
        self.navigator = navigator
        self.id = unit_id
        #: The navigator's arrays, and the unit's row in them: its position lives there, and its walking speed
        #: (see :mod:`.agents`).
        self.agents = agents
        self.slot = agents.add(position[0], position[1], speed)
        self._pace: Optional[float] = None
        self.speed = speed
        self.radius = radius
        #: The side in cells of the block the unit stands on (1 up to radius 0.5): it plans on the grid of
        #: that size, and its ``cell`` is the block's top-left cell (see :mod:`pathing_py.clearance`).
        self.size = size_class(radius)
        self.priority = priority
        #: The units this one moves with (a group under way), or None: see :class:`Squad`.
        self.squad: Optional[Squad] = None
        #: Whether the unit's order is to walk a route another unit's plan found (``Navigator.follow``: a group
        #: member's): it searches the whole map for no way of its own around units in its way.
        self.following = False
        self.cell: Cell = block_at(position, self.size)
        self.next_cell: Optional[Cell] = None  #: the cell being moved into
        #: (cell, unit) for each cell of its step another unit was still stepping out of as this one started it
        #: (see Occupancy.leavers): no unit starts leaving a cell this one holds, so none come during the step.
        self.step_leavers: Sequence[Tuple[Cell, "Unit"]] = ()
        self.step_from = position  #: where the step under way started
        self.held: Set[Cell] = set()  #: cells the unit holds (see Navigator)
        self.goal: Optional[Cell] = None
        self.state = UnitState.IDLE
        self.reason = ""  #: why the unit stopped, for final states other than ARRIVED
        self.stack = PathStack()
        self.stats = UnitStats()
        self.waiting_for = 0.0  #: seconds waited for the current blockers
        self.next_detour = 0.0  #: simulated time of the next allowed detour search
        self.best_distance = (
            math.inf
        )  #: least distance to go through its key points this trip (:meth:`PathStack.distance_to_go`)
        self.progress_time = (
            0.0  #: simulated time it last came closer (or was busy on purpose: making way, a jam's plan)
        )
        self.closer_time = 0.0  #: simulated time it, or the queue it waits in, last came closer to its target
        self.planned_time = -math.inf  #: simulated time it last set off on a jam's plan (see JamPlans)
        #: The unit's collision: open while it waits for the units holding its next step, or a rule settles
        #: it; the last one, ended, if it gave up; None once it took a step (see :mod:`.collisions`).
        self.collision: Optional[Collision["Unit"]] = None
        self.trip_encounters = 0
        self.reroutes = 0  #: routes around jams taken this trip
        self.arrival_state = UnitState.ARRIVED  #: the final state once the route is walked
        self.stopped_time = 0.0  #: simulated time the unit last stopped
        self.resumed = 0  #: times the current order went on after the unit stopped HELD_UP
        self.walked_back = 0  #: times the unit walked back to the goal of its current order after it was moved off it
        self.announced = False  #: whether the game heard how the current order ended
        #: Whether the last plan found the goal cut off by the map (the unit heads for the reachable cell nearest it).
        self.cut_off = False
        #: Until when (simulated seconds) a unit that stopped short of its goal goes on if the map opens a way; None
        #: while the order has not stopped short.
        self.retry_until: Optional[float] = None

    @property
    def position(self) -> Tuple[float, float]:
        """Where the unit is, in cells (floats): the centre of its block while it stands."""
        position, slot = self.agents.position, self.slot
        return position.item(slot, 0), position.item(slot, 1)

    @property
    def pace(self) -> Optional[float]:
        """The speed the unit's group holds it to now (SPEC F2), None for its own ``speed``."""
        return self._pace

    @pace.setter
    def pace(self, pace: Optional[float]) -> None:
        if pace != self._pace:  # (groups set their members' paces at every update, mostly to the same)
            self._pace = pace
            self.agents.walk_speed[self.slot] = self.speed if pace is None else pace

    def detach(self) -> None:
        """Take the unit to a row of its own: it was removed, and its slot may go to a later unit."""
        x, y = self.position
        self.agents = AgentArrays(1)
        self.slot = self.agents.add(x, y, self.speed)
        self.agents.walk_speed[self.slot] = self.current_speed

    def move_to(self, goal: Cell) -> None:
        """Order the unit to a cell; from any state it goes to FIND_PATH."""
        self.navigator.order(self, as_cell(goal, "goal"))

    def forget_routes(self) -> None:
        """Drop every route, and with them the units it was making way for."""
        self.stack.clear()

    @property
    def current_speed(self) -> float:
        """Cells per second the unit walks at now: its group's pace, or its own speed."""
        return self.speed if self._pace is None else self._pace

    @property
    def blocked_by(self) -> FrozenSet["Unit"]:
        """The units it waits for, or slows behind (or waited for, if it gave up): its collision's others."""
        return frozenset() if self.collision is None else self.collision.others

    @property
    def wanted(self) -> Optional[Cell]:
        """The cell it waits to step into (or waited for, if it gave up)."""
        return None if self.collision is None else self.collision.cell

    @property
    def making_way(self) -> bool:
        """Whether the unit is stepping aside for another unit, waiting there, or going back (SPEC U7, U9):
        a route of its stack waits before a waypoint for the other to pass. (Asked at every step: a loop, not a
        generator.)"""
        for route in self.stack:
            if route.kind is _AVOIDANCE and route.wait_at >= 0:
                return True
        return False

    @property
    def taking_turns(self) -> bool:
        """Whether the unit holds before a long narrow passage until its turn there has come (see
        :mod:`pathing_py.units.narrows`): its top route, of key points, waits at the one it has reached."""
        top = self.stack[-1] if self.stack else None
        return (
            top is not None
            and top.kind is RouteKind.HIGH_LEVEL
            and top.wait_while is not None
            and top.index == top.wait_at
        )

    @property
    def off_goal(self) -> bool:
        """Whether the unit arrived and has been moved off its goal since (pushed aside, or by a jam's plan
        that overran): it walks back by itself once the goal is free, unless its group places it."""
        return (
            self.state is UnitState.ARRIVED
            and self.goal is not None
            and self.cell != self.goal
            and not self.keeps_to_shared_route
        )

    @property
    def keeps_to_shared_route(self) -> bool:
        """Whether the unit keeps to a route its group shares (a squad's member, or a unit following another's
        route): it searches the whole map for a way of its own around units in its way only once it has
        stalled (see ``Navigator._stop_stalled``), never after waiting for them alone."""
        return self.squad is not None or self.following

    @property
    def rank(self) -> Tuple[int, int]:
        """Who gives way to whom (SPEC U7, U9): the higher rank pushes the lower. (priority, minus the id:
        the older unit first), or its squad's rank, so that two squads meeting rank the same way for
        every pair of their members."""
        return self.squad.rank if self.squad is not None else (self.priority, -self.id)

    @property
    def anchor(self) -> Cell:
        """The cell the unit plans from: the one it is moving into, else the one it stands in."""
        return self.next_cell or self.cell

    def __repr__(self) -> str:
        return f"Unit({self.id}, {self.state.name}, cell={self.cell}, goal={self.goal})"
