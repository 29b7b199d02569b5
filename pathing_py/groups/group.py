"""Groups of units given one order (SPEC F1, F2).

Quick start::

    >>> from pathing_py import Grid
    >>> from pathing_py.units import Navigator, UnitState
    >>> from pathing_py.groups import Cohesion, Groups
    >>> grid = Grid.from_ascii("\\n".join(["." * 12] * 5))
    >>> navigator = Navigator(grid)
    >>> groups = Groups(navigator)
    >>> members = [navigator.add_unit((0.5, y + 0.5), speed=s) for y, s in ((1, 4.0), (2, 3.0), (3, 4.0))]
    >>> squad = groups.add_group(members)
    >>> squad.speed, squad.cohesion
    (3.0, <Cohesion.ROUTE: 'route'>)
    >>> squad.move_to((10, 2))
    >>> for _ in range(60):
    ...     navigator.update(0.1)
    >>> [unit.state for unit in squad.members] == [UnitState.ARRIVED] * 3, groups.events()[-1][1]
    (True, 'group_arrived')

The commander (the member nearest the group's centroid) plans the route
once; every other member walks the same key points (one tuple, shared by
reference) to its own cell around the target, with no search of its own.
Members walk at the slowest member's speed; with ``Cohesion.ARRIVAL`` the
front slows down for the rear and a straggler walks at its own speed, so
that the group arrives together. With a formation (``formation="box"``, see
:class:`Group`) the group forms first and marches in shape.

Units hold whole cells, and a step needs the cells at its corners free: a
formation with slots one cell apart (``spacing=1``) moving diagonally goes
in waves, a unit at a time, at about a third of its speed; at ``spacing=2``
it marches at full speed.
"""

import enum
import functools
import math
from collections import deque
from operator import attrgetter
from typing import Any, Callable, Collection, Dict, Iterable, List, Optional, Sequence, Set, Tuple, TypeVar, Union, cast

import numpy as np

from ..clearance import block_at, block_centre
from ..grid import Cell, Grid
from ..search import as_cell
from ..status import Status
from ..units import Navigator, Unit, UnitState
from ..units.narrows import Claim, hold_for_next_turn, mark_narrows
from ..units.occupancy import block_cells
from ..units.path_stack import Route, RouteKind
from ..units.unit import FINAL_STATES, STANDING_STATES
from .formations import FORWARD, Formation, checked_spacing, distinct_cells, needs_reforming, slot_cells
from .forming import assign_slots
from .lanes import keep_right
from .outsiders import Outsiders
from .paces import MIN_PACE, PaceAsk, PaceTable, SlotLayout, followed
from .passage import narrow_points, plan_passage, with_narrow_points

__all__ = ["Cohesion", "Group", "GroupEvent", "GroupState", "Groups"]

#: With Cohesion.ARRIVAL, cells a member may lead the group's rearmost member by before it slows down,
#: at least (a group of n members walks a file or clump about sqrt(n) cells deep); at twice as many it
#: walks at MIN_PACE of the group's speed.
LEAD_SLACK = 2.0
#: Cells, nearest first, a group looks among for a place where its whole formation fits to form.
FORMING_REACH = 400
#: Times a member that stopped short of its slot while forming (it made way for another, and its way
#: back was taken) is sent to it again before the formation forms without it.
SLOT_RETRIES = 3

GroupEvent = Tuple[int, str, str]  #: (group id, event name, detail)
#: Members' fields read by C-level calls (``max(map(_priority, members))``): groups read them every update.
_id, _priority, _speed = attrgetter("id"), attrgetter("priority"), attrgetter("speed")
#: A formation as a game names it: a shape of :data:`~pathing_py.groups.formations.SHAPES`, slot offsets (cells,
#: for a formation marching up the screen), or a :class:`Formation`.
FormationShape = Union[str, Sequence[Sequence[float]], Formation]


_Method = TypeVar("_Method", bound=Callable[..., Any])


def _changes_members(method: _Method) -> _Method:
    """A method of :class:`Group` that may give its members orders: once it is done, the groups' record of where
    units stand and head for finds its members' anew (see :class:`~pathing_py.groups.outsiders.Outsiders`)."""

    @functools.wraps(method)
    def changing(group: "Group", *args: Any, **kwargs: Any) -> Any:
        try:
            return method(group, *args, **kwargs)
        finally:
            group.groups.outsiders.changed(group.members)

    return cast(_Method, changing)


class Cohesion(enum.Enum):
    """How closely a group's members move together (SPEC F2)."""

    SPEED = "speed"  #: the same speed, each member on a route of its own
    ROUTE = "route"  #: the same speed and the commander's route
    ARRIVAL = "arrival"  #: the same speed and route, and arriving together


class GroupState(enum.Enum):
    """A group's formation state (SPEC F3); a group without formation is always BROKEN."""

    BROKEN = Status.BROKEN.value
    FORMING = Status.FORMING.value
    FORMED = Status.FORMED.value


class Group:
    """Units given one order. Read its fields; give orders with :meth:`move_to`.

    With a formation, an order first forms the group where it stands, facing
    the way its route sets off (the commander plans it first; a box, which
    turns in place, faces the target) (FORMING: each slot, the centre's first,
    to the member that reaches it soonest; members in place get top priority), and marches only
    once every member stands in its slot (FORMED): the commander, in the
    centre slot, leads along its route and every other member walks it its
    slot's offset aside, at a pace that keeps it level with its slot, to its
    slot around the target. A new order in a new direction forms the group
    again, but for a shape that turns in place (a box), which keeps its facing;
    so does a route that turns away from the formation's facing (F4): the
    group halts where it turns, forms again facing the way on, and walks on
    along the same route (no new search).
    """

    def __init__(
        self,
        groups: "Groups",
        group_id: int,
        units: List[Unit],
        cohesion: Cohesion,
        shape: Optional[FormationShape],
        spacing: float,
    ):
        self.groups = groups
        self.id = group_id
        self.members: List[Unit] = []
        self.cohesion = cohesion
        self.shape = shape
        self.spacing = spacing
        self.state = GroupState.BROKEN
        self.formation: Optional[Formation] = None  #: the shape for the members of the last order
        self.heading: Tuple[float, float] = FORWARD  #: which way the formation faces
        self.commander: Optional[Unit] = None
        self.target: Optional[Cell] = None  #: the cell of the last order
        self.goals: Dict[int, Cell] = {}  #: member id -> its cell around the target
        self.slots: Dict[int, int] = {}  #: member id -> its slot in the formation
        #: The formation's cells where it forms (tuples: forming reads them at every update).
        self._slot_cells: List[Cell] = []
        self._slot_block = 1  #: the side of the blocks its slots were laid out in (:attr:`size`)
        self._slot_retries: Dict[int, int] = {}  #: member id -> times sent to its slot again while forming
        self.offsets: Dict[int, Cell] = {}  #: member id -> where it marches from the commander
        self._priorities: Dict[int, int] = {}  #: member id -> its priority before the group formed
        self._sharing = False  #: members wait for the commander's plan to share it
        self._key_points: Tuple[Cell, ...] = ()  #: the commander's, shared by the members
        #: Member id -> the route over the shared key points it was given: its index is how far the member got.
        self._shared_routes: Dict[int, Route] = {}
        self._passage: List[Tuple[Cell, int, str]] = []  #: (key point, its index, F5 choice) the front has yet to reach
        self._reform_at: Optional[int] = None  #: the key point past which a broken formation is whole again
        self._choices_at: List[int] = []  #: the key points where the formation does not fit as it is
        self._claims: List[Claim] = []  #: its turns at the narrow stretches of its route still to pass (units.narrows)
        self._armed: Optional[Claim] = None  #: the claim its members hold at the approach point for
        self._heard_turn: Optional[Claim] = None  #: the last claim the group was heard waiting for (waiting_for_turn)
        #: Where the route turns away from the formation's facing: the key points past the turn and the
        #: heading there, kept while the group halts at the turn to form again facing that way.
        self._after_turn: Optional[Tuple[Tuple[Cell, ...], Tuple[float, float]]] = None
        #: The order's route is being planned before the group forms, facing the way it sets off (F4).
        self._form_on_route = False
        self._marching = False  #: members are on their way to the target
        #: Members came or went since the formation was made for them: it forms again for the members now.
        self._regroup = False
        self._order_open = False  #: an order has been given whose group_arrived has not come yet
        #: How the group ranks against other units while under way (see ``Squad``): kept here, read by every push.
        self.rank: Tuple[int, int] = (0, 0)
        self._joined = 0  #: members taken in or let go so far: what is kept of them is made again when it changes
        self._oldest = (-1, 0)  #: (_joined, the least member id) when it was last found
        self._layout: Optional[SlotLayout] = None  #: its members as rows for their paces (see :mod:`.paces`)
        self._pace_later = False  #: its paces are set with every group's at the end of this update
        for unit in units:
            self.add(unit)

    @property
    def speed(self) -> float:
        """The slowest member's speed, at which the group moves (SPEC F1)."""
        return min(map(_speed, self.members))

    @property
    def centroid(self) -> Tuple[float, float]:
        count = len(self.members)
        return (sum(u.position[0] for u in self.members) / count, sum(u.position[1] for u in self.members) / count)

    @property
    def size(self) -> int:
        """The widest member's side in cells: slots, goals and passages are worked out in blocks of it,
        each member in the middle of its block, and the route on its grid, so that every member fits."""
        return max(unit.size for unit in self.members)

    def _grid(self) -> Grid:
        """The grid of :attr:`size` (its cells: the top-left cells of the blocks where the widest member fits)."""
        return self.groups.navigator.grid_of(max(self.members, key=lambda unit: unit.size))

    @_changes_members
    def add(self, unit: Unit) -> None:
        """Take ``unit`` into the group. A group under way takes it along: without formation, to the free cell
        nearest the target on a route of its own; in formation, the group forms again at the next update, where
        it stands, with a slot for it, and goes on (see :meth:`update`). A group at rest sends it with its next
        order (until then it walks on with its own)."""
        self.groups.join(self, unit)
        self.members.append(unit)
        self._joined += 1
        self._regroup = True
        self._pick_commander()
        self._set_paces()
        if self._order_open and self.formation is None:
            self._send_along(unit)

    @_changes_members
    def remove(self, unit: Unit) -> None:
        """Let ``unit`` go: it finishes its current order on its own, at its own speed and priority (a
        member still waiting for the commander's route plans its own way to its goal)."""
        self.groups.leave(self, unit)
        self.members.remove(unit)
        self._joined += 1
        goal = self.goals.pop(unit.id, None)
        for table in (self.slots, self.offsets):
            table.pop(unit.id, None)
        self._regroup = True
        unit.priority = self._priorities.pop(unit.id, unit.priority)
        unit.pace = unit.squad = None
        navigator = self.groups.navigator
        if unit is self.commander:
            self.commander = None
            self.groups.drop_lost(self)  # the new commander, and the members it plans for, are still here
            self._pick_commander()
            if (
                self._sharing and self.target is not None and self.members
            ):  # its plan will not come: the new commander plans
                self._march()
        elif (
            self._sharing
            and goal is not None
            and unit.state is UnitState.FIND_PATH
            and navigator.units.get(unit.id) is unit
        ):
            navigator.order(unit, goal)  # no shared route will come for it
        if not self.members:  # nothing left to share or to wait for
            self._sharing = self._marching = self._order_open = False
            self._drop_claims()
        self.groups.outsiders.changed([unit])  # (it has an order of its own, or none)

    @_changes_members
    def move_to(self, target: Cell) -> None:
        """Send the group to ``target``: the commander there, the others to their slots around it
        or, without a formation, to the free cells nearest it, each to the one nearest its place
        in the group now (members do not cross over at the end)."""
        target = as_cell(target, "target")
        navigator = self.groups.navigator
        if not navigator.grid.in_bounds(target):
            raise ValueError(f"target {target} is outside the {navigator.grid.width}x{navigator.grid.height} map")
        self.groups.drop_lost(self)  # members the navigator removed in this frame, before the groups' update
        if not self.members:
            raise ValueError(f"group {self.id} has no members")
        self.target, self._order_open, self._after_turn, self._form_on_route = target, True, None, False
        self._drop_claims()
        self.groups.announce(self, "group_ordered", navigator.cell_label(target))
        if self.shape is None:
            self._pick_commander(fresh=True)
            self._march()
            return
        cx, cy = self.centroid
        heading = (target[0] + 0.5 - cx, target[1] + 0.5 - cy)
        if math.hypot(*heading) < 0.5:
            heading = self.heading
        formation = self.formation
        if (
            self.state is GroupState.FORMED
            and formation is not None
            and not self._regroup
            and len(formation) == len(self.members)
            and (formation.turns_in_place or not needs_reforming(formation, self.heading, heading))
        ):
            self.heading = self.heading if formation.turns_in_place else heading
            self._march()
            return
        formation = make_formation(self.shape, len(self.members), self.spacing)
        self._take_formation(formation)
        self.heading = heading
        if formation.turns_in_place:
            self._form()
            return
        self._form_on_route = True  # it forms facing the way its route sets off: the route first
        self._march()

    @_changes_members
    def set_formation(self, shape: Optional[FormationShape], spacing: Optional[float] = None) -> None:
        """Take another formation (None: none; ``spacing`` as before unless given) where the group stands:
        it forms again facing as it faced, and goes on with its order, if it has one, once formed. A
        group let out of formation goes on as a group without one."""
        spacing = self.spacing if spacing is None else checked_spacing(spacing)
        self.groups.drop_lost(self)  # members the navigator removed in this frame, before the groups' update
        if not self.members:
            raise ValueError(f"group {self.id} has no members")
        formation = None if shape is None else make_formation(shape, len(self.members), spacing)  # refuses a bad one
        self.shape, self.spacing = shape, spacing
        self._take_formation(formation)
        if formation is not None:
            self._form()
            return
        self._passage, self._reform_at = [], None  # no formation left to halve or re-form
        self._restore_priorities()
        self._set_state(GroupState.BROKEN, "no formation")
        if self._order_open and not self._marching:  # it was forming: it marches now
            self._pick_commander(fresh=True)
            self._march()

    @property
    def resting(self) -> bool:
        """Whether the group has nothing to do until an order: it neither forms nor has an order under way (or it
        has no members left to do either)."""
        return not self.members or (not self._order_open and self.state is not GroupState.FORMING)

    def update(self) -> None:
        """Form, share the commander's route once planned, set paces (but for ARRIVAL's, those of every group at
        once, after every group's update: :meth:`Groups.steer`), and tell when the order is done. A group in
        formation whose members came or went while it formed or was under way forms again where it stands, its
        slots given anew (its gaps closed), and goes on with its order; at rest it does so at its next order."""
        if self._regroup and self.formation is not None and (self._order_open or self.state is GroupState.FORMING):
            self._close_up()
        self._rank()
        if self.state is GroupState.FORMING:
            self._check_forming()
        commander = self.commander
        if self._sharing and commander is not None and commander.state is not UnitState.FIND_PATH:
            self._share(commander)
        passes = self._marching and self._choices_at and (self._passage or self._reform_at is not None)
        span = self._front_and_rear() if passes else None  # once an update at most: it reads every stack
        if span is not None:
            self._pass_obstacles(*span)
        if self._claims and self._marching:
            self._pass_narrows()
            self._tell_waiting_for_turn()
        self._set_paces(span, later=True)
        goes_on_later = self.groups.navigator.goes_on_later  # a member held up for now: its order has not ended
        if (
            self._marching
            and not self._sharing
            and all(unit.state in FINAL_STATES and not goes_on_later(unit) for unit in self.members)
        ):
            if self._after_turn is not None:  # halted where the route turns: form again facing the way on
                if self.formation is None:  # let out of formation on the way there: it walks on as it is
                    self._march()
                    return
                self.heading = self._after_turn[1]
                self._form()
                return
            self._marching = self._order_open = False
            self._drop_claims()
            for unit in self.members:
                unit.squad = None
            if self.formation is not None and all(unit.cell == self.goals.get(unit.id) for unit in self.members):
                self._set_state(GroupState.FORMED, "at the target")
            arrived = sum(unit.state is UnitState.ARRIVED for unit in self.members)
            self.groups.announce(self, "group_arrived", f"{arrived} of {len(self.members)} members arrived")

    def _share(self, commander: Unit, known: Optional[Tuple[Cell, ...]] = None) -> None:
        """F1, F5: every member follows the commander's key points (``known``, or its plan's), each
        at its own cells beside them (its offset from the commander, or where the formation passes
        what lies there), and the commander too, each point moved to the right of the way (see
        :mod:`~pathing_py.groups.lanes`). F4: up to where the route turns away from the formation's
        facing, if it does."""
        navigator = self.groups.navigator
        self._sharing = False
        members = [
            unit
            for unit in self.members  # (not one that joined since the order and walks its own)
            if unit is not commander and unit.state is UnitState.FIND_PATH and unit.id in self.offsets
        ]
        offsets = np.array([self.offsets[unit.id] for unit in members], dtype=np.int64).reshape(-1, 2)
        grid, size = self._grid(), self.size
        planned = _key_points(commander, offsets, grid.passable) if known is None else (known, set())
        if planned is None:  # the commander's goal was cut off: each plans its own way
            self._form_on_route = False
            for unit in members:
                navigator.order(unit, self.goals[unit.id])
            return
        key_points, narrow = planned
        turn = self._first_turn(commander.anchor, key_points, self.goals[commander.id], resumed=known is not None)
        if turn is not None:
            halted = self._halt_at_turn(commander, key_points, *turn)
            if halted is None:
                return
            key_points = halted
        if known is not None and self.formation is not None and len(offsets):  # (planned for the shape it had then)
            key_points, narrow = with_narrow_points(offsets, commander.anchor, key_points, grid.passable)
        places = np.array([self.offsets[unit.id] for unit in self.members if unit.id in self.offsets], dtype=np.int64)
        depth = int(np.abs(places).max(initial=0)) + size
        marked, stretches = mark_narrows(grid, commander.anchor, key_points, self.goals[commander.id], depth=depth)
        kept = keep_right(marked, commander.anchor, self.goals[commander.id], grid, places, size=size, fixed=narrow)
        if kept != key_points:  # the commander walks them too: it leads
            key_points = kept
            navigator.follow(commander, self.goals[commander.id], key_points)
        passage = plan_passage(offsets, commander.anchor, key_points, grid, size=size)
        self._shared_routes = {}
        points = np.array(key_points, dtype=np.int64).reshape(-1, 2)
        for index, unit in enumerate(members):
            placed = passage.aims[:, index]
            if unit.size < size:
                # A narrower member moved off its place beside a key point files through the key point: sent past an
                # obstacle the widest member goes round, it could take a gap of its own and come back against the group.
                beside = (placed == points + offsets[index]).all(axis=1)
                placed = np.where(beside[:, None], placed, points)
            aims = [_within((int(x), int(y)), size, unit.size) for x, y in placed.tolist()]
            navigator.follow(unit, self.goals[unit.id], key_points, aims)
            top = unit.stack.top
            if top is not None and top.waypoints is key_points:
                self._shared_routes[unit.id] = top
        self._key_points = key_points
        self._drop_claims()
        self._claims = self.groups.navigator.narrows.claim(self, stretches)
        self._arm(commander)
        self._passage = (
            [(key_points[k], k, choice) for k, choice in passage.choices] if self.formation is not None else []
        )
        self._choices_at = [k for k, _ in passage.choices]
        self._reform_at = None

    def _first_turn(
        self, start: Cell, key_points: Tuple[Cell, ...], goal: Cell, resumed: bool
    ) -> Optional[Tuple[int, Tuple[float, float]]]:
        """Where the route from ``start`` through ``key_points`` to ``goal`` first turns away from the
        formation's facing (F4; never for a shape that turns in place): the index of the point it turns
        at (0: ``start``, i: key point i - 1) and the heading on, towards the first later point at least
        the formation's reach away (so that a short jog is no turn). Not at the start once ``resumed``
        past a turn: the group formed for the way on where it stood, maybe off the route."""
        formation = self.formation
        if formation is None or formation.turns_in_place:
            return None
        points = [start, *key_points, goal]
        reach = max(formation.reach, 1.0)
        for index in range(1 if resumed else 0, len(points) - 1):
            ax, ay = points[index]
            bx, by = next((p for p in points[index + 1 :] if _distance(p, points[index]) >= reach), points[-1])
            way_on = (float(bx - ax), float(by - ay))
            if index == 0 and self._form_on_route:
                return 0, way_on if way_on != (0.0, 0.0) else self.heading
            if way_on != (0.0, 0.0) and needs_reforming(formation, self.heading, way_on):
                return index, way_on
        return None

    def _halt_at_turn(
        self, commander: Unit, key_points: Tuple[Cell, ...], index: int, heading: Tuple[float, float]
    ) -> Optional[Tuple[Cell, ...]]:
        """Keep the route past the turn for later and send the group to halt in shape where it turns:
        the key points before the turn, for the members to share; None when it turns at the start (the
        group forms again where it stands)."""
        self._after_turn = (key_points[index:], heading)
        if index == 0:
            self.heading = heading
            self._form()
            return None
        halt = key_points[index - 1]
        self.goals, _ = self._march_goals(halt, commander)
        before = key_points[: index - 1]
        self.groups.navigator.follow(commander, self.goals[commander.id], before)
        return before

    def _pass_obstacles(self, front: int, rear: int) -> None:
        """Announce each choice of the passage (F5) as the front reaches its key point; a broken or
        halved formation is whole again (formation_formed) once every member is past the next key
        point where it fits."""
        label = self.groups.navigator.cell_label
        while self._passage and self._passage[0][1] < front:
            point, index, choice = self._passage.pop(0)
            if choice == "broken":
                self._set_state(GroupState.BROKEN, label(point))
            else:
                self.groups.announce(self, f"formation_{choice}", label(point))
            if choice != "scaled":
                later = {k for _, k, _ in self._passage}
                self._reform_at = next((k for k in range(index + 1, len(self._key_points)) if k not in later), None)
        if self._reform_at is not None and rear > self._reform_at:
            place = label(self._key_points[self._reform_at])
            if self.state is GroupState.BROKEN:
                self._set_state(GroupState.FORMED, place)
            else:
                self.groups.announce(self, "formation_formed", place)
            self._reform_at = None

    def _pass_narrows(self) -> None:
        """Let go of each narrow stretch the group is through: every member has been in it and left it, or
        ended its order (for good: not held up for now). Once the group is let into the stretch its members hold
        for, they hold for the next."""
        commander, goes_on_later = self.commander, self.groups.navigator.goes_on_later

        def ended(unit: Unit) -> bool:
            return unit.state in FINAL_STATES and not goes_on_later(unit)

        for claim in [claim for claim in self._claims if claim.entered]:
            if claim.passed_by(self.members, ended):
                self.groups.navigator.narrows.release(claim)
                self._claims.remove(claim)
        if self._armed is not None and self._armed.entered and commander is not None:
            self._arm(commander)

    def _tell_waiting_for_turn(self) -> None:
        """waiting_for_turn, once a claim, as the first member holds at the approach point of a narrow stretch
        for the group's turn there (each member's PathUnit says so too): a game can show the squad waiting."""
        armed = self._armed
        if (
            armed is not None
            and armed is not self._heard_turn
            and not armed.entered
            and any(unit.taking_turns for unit in self.members)
        ):
            self._heard_turn = armed
            self.groups.announce(
                self, "waiting_for_turn", self.groups.navigator.cell_label(self._key_points[armed.stretch.approach])
            )

    def _arm(self, commander: Unit) -> None:
        """Members (and the commander) walking the shared route hold at the approach point of the first stretch
        the group has not been let into, until it is (see :class:`~pathing_py.units.narrows.Claim`)."""
        self._armed = hold_for_next_turn(
            [*self._shared_routes.values(), self._commander_route(commander)], self._claims
        )

    def _commander_route(self, commander: Unit) -> Optional[Route]:
        """The commander's route over the shared key points, if it walks them."""
        return next((route for route in commander.stack if route.waypoints is self._key_points), None)

    def _drop_claims(self) -> None:
        self.groups.navigator.narrows.release_all(self)
        self._claims, self._armed = [], None

    def _front_and_rear(self) -> Tuple[int, int]:
        """How many of the shared key points the foremost and the hindmost member (the commander aside) have
        passed: each as many as the index of its route over them, all once it no longer walks that route.
        (Every member, every update: one comprehension, no call a member.)"""
        shared, passed_all, commander = self._shared_routes, len(self._key_points), self.commander
        progress = [route.index if (route := shared.get(unit.id)) is not None and route in unit.stack else passed_all
                    for unit in self.members if unit is not commander] or [passed_all]  # fmt: skip
        return max(progress), min(progress)

    # -- forming ----------------------------------------------------------------------

    def _take_formation(self, formation: Optional[Formation]) -> None:
        """Make ``formation`` (made for the members now) the group's; the slots, numbered for the old one, go."""
        self.formation, self.slots, self._regroup = formation, {}, False

    def _close_up(self) -> None:
        """Form again where the group stands, for the members now (see :meth:`update`); the way on is planned
        anew once formed, and the group's turns at narrow stretches are let go meanwhile."""
        assert self.shape is not None  # (a group in formation has one)
        self._take_formation(make_formation(self.shape, len(self.members), self.spacing))
        self._after_turn = None
        self._drop_claims()
        self._form()

    def _form(self) -> None:
        """F3: slots where the group stands, facing its heading; each, the centre's first, to the member
        that reaches it soonest; members walk there at medium priority, the others wait at low where they
        stand (or end their step): none is left waiting for a route the group no longer plans."""
        navigator, formation = self.groups.navigator, self.formation
        assert formation is not None
        self._form_on_route = False
        standing = self.groups.standing_outsiders(self)
        centre = self._centre_cell(formation, standing)
        slot_cells, usable = self._slots_at(formation, centre, standing)
        self._slot_cells = [(x, y) for x, y in slot_cells.tolist()]
        self._slot_block = self.size
        cells = np.array([unit.cell for unit in self.members])
        speeds = np.array([unit.speed for unit in self.members])
        slot_units, _ = assign_slots(slot_cells, usable, block_centre(centre, self.size), cells, speeds,
                                     connectivity=navigator.grid.connectivity)  # fmt: skip
        self.slots = {self.members[u].id: s for s, u in enumerate(slot_units.tolist()) if u >= 0}
        self._slot_retries = {}
        by_slot = {s: self.members[u] for s, u in enumerate(slot_units.tolist()) if u >= 0}
        widest = self.size  # the commander plans a route every member fits
        first = next(
            (by_slot[s] for s in formation.nearest_first.tolist() if s in by_slot and by_slot[s].size == widest), None
        )
        self.commander = first or self.commander
        self._save_priorities()
        low = min(self._priorities.values()) - 1
        self._marching = self._sharing = False
        for unit in self.members:
            unit.squad = None
            slot = self.slot_cell(unit)
            unit.priority = low + (slot is not None)
            if slot is not None:
                navigator.follow(unit, slot, ())
            elif unit.state not in STANDING_STATES:
                navigator.follow(unit, unit.anchor, ())
        self._set_state(GroupState.FORMING)
        self._check_forming()

    def _check_forming(self) -> None:
        """Members in their slots get top priority; a member that stopped short of its slot is sent to it
        again (SLOT_RETRIES times), then left out of the formation; once every slotted member stands in
        its slot, the group is FORMED and marches on with its order, if it has one."""
        top = max(self._priorities.values(), default=0) + 1
        for unit in self.members:
            slot = self.slot_cell(unit)
            if slot is None or unit.next_cell is not None:
                continue
            if unit.cell == slot:
                unit.priority = top
            elif unit.state is UnitState.ARRIVED and self._slot_retries.get(unit.id, 0) < SLOT_RETRIES:
                self._slot_retries[unit.id] = self._slot_retries.get(unit.id, 0) + 1
                self.groups.navigator.follow(unit, slot, ())
            elif unit.state in FINAL_STATES:
                del self.slots[unit.id]
        if all(
            unit.cell == self.slot_cell(unit) and unit.next_cell is None
            for unit in self.members
            if unit.id in self.slots
        ):
            self._restore_priorities()
            self._set_state(GroupState.FORMED)
            if self._order_open:
                self._march()

    def slot_cell(self, unit: Unit) -> Optional[Cell]:
        """The cell of the member's slot where the group formed last (None without a slot)."""
        slot = self.slots.get(unit.id)
        return None if slot is None else _within(self._slot_cells[slot], self._slot_block, unit.size)

    def _centre_cell(self, formation: Formation, standing: Set[Cell]) -> Cell:
        """The cell the formation forms around: the nearest to the centroid (the commander's if that
        is blocked) where every slot is free of walls and of the ``standing`` cells, among the
        FORMING_REACH nearest; else that cell itself."""
        grid = self._grid()
        cell = block_at(self.centroid, self.size)
        if not grid.is_passable(cell) and self.commander is not None:
            cell = self.commander.cell
        for centre in gathering_cells(grid, cell, FORMING_REACH):
            if self._slots_at(formation, centre, standing)[1].all():
                return centre
        return cell

    def _slots_at(self, formation: Formation, centre: Cell, standing: Set[Cell]) -> Tuple[np.ndarray, np.ndarray]:
        """The formation's cells around ``centre`` at the group's heading (the top-left cells of blocks of
        :attr:`size`), and which of them a member can take (it fits, and none of its cells is ``standing``:
        cells where units outside the group stand, :meth:`Groups.standing_outsiders`, and at a target the goals
        of their orders, :meth:`Groups.taken_by_outsiders`)."""
        size = self.size
        cells, usable = slot_cells(
            formation, block_centre(centre, size), self.heading, self._grid().passable, size=size
        )
        return cells, usable & np.array(
            [standing.isdisjoint(block_cells(_cell(cell), size)) for cell in cells], dtype=bool
        )

    def _save_priorities(self) -> None:
        for unit in self.members:
            self._priorities.setdefault(unit.id, unit.priority)

    def _restore_priorities(self) -> None:
        for unit in self.members:
            unit.priority = self._priorities.pop(unit.id, unit.priority)

    def _set_state(self, state: GroupState, detail: str = "") -> None:
        if state is not self.state:
            self.state = state
            self.groups.announce(
                self, f"formation_{state.value.lower()}", detail or (self.formation.name if self.formation else "")
            )

    # -- marching ---------------------------------------------------------------------

    def _march(self) -> None:
        """The commander plans its way to the target; the others wait for it to share, or, with SPEED
        cohesion, plan their own."""
        navigator, target, commander = self.groups.navigator, self.target, self.commander
        assert target is not None and commander is not None
        self.goals, self.offsets = self._march_goals(target, commander)
        self._marching = True
        self._rank()
        for unit in self.members:  # members wait for one another rather than leave their places (Squad)
            unit.squad = self
        self._set_paces()
        after_turn, self._after_turn = self._after_turn, None
        resumed = None if after_turn is None else _from_nearest(after_turn[0], commander.anchor)
        if resumed is None:
            navigator.order(commander, self.goals[commander.id])
        else:  # on past a turn along the route already planned
            navigator.follow(commander, self.goals[commander.id], resumed)
        self._sharing = self.cohesion is not Cohesion.SPEED or self.formation is not None
        for unit in self.members:
            if unit is commander:
                continue
            if self._sharing:
                navigator.await_route(unit, self.goals[unit.id])
            else:
                navigator.order(unit, self.goals[unit.id])
        if resumed is not None and self._sharing:
            self._share(commander, resumed)

    def _send_along(self, unit: Unit) -> None:
        """Send a member taken in under way (no formation) to the free cell nearest the target that no other
        member's goal takes; it plans its own way there (it may be wider than the commander's route allows)."""
        assert self.target is not None
        grid, size = self._grid(), self.size
        taken = self.groups.taken_by_outsiders(self) | {
            cell
            for member in self.members
            if member.id in self.goals
            for cell in block_cells(self.goals[member.id], member.size)
        }
        cells = gathering_cells(grid, _block_over(grid, self.target, size), 1, blocked=taken, size=size)
        self.goals[unit.id] = _within(cells[0], size, unit.size) if cells else self.target
        unit.squad = self if self._marching else None
        self.groups.navigator.order(unit, self.goals[unit.id])

    def _march_goals(self, target: Cell, commander: Unit) -> Tuple[Dict[int, Cell], Dict[int, Cell]]:
        """Member id -> its cell at the target, and -> where it marches from the commander: in formation,
        its slot's; for the others, where each stands from the commander now (at most the group's depth,
        about sqrt(members) blocks, either way) and the free cell nearest that place around the target (free: no
        unit outside the group stands there or has it as the goal of an order, :meth:`Groups.taken_by_outsiders`).
        Goals and offsets are worked out in blocks of :attr:`size`, each member in the middle of its own
        (a squad with a tank gathers in the tank's squares: packed closer round it, the soldiers that arrive
        first stand in its way), offsets between the blocks' top-left cells (the target's: the block that
        fits over it centred nearest it), as a route shared on that size's grid takes them."""
        grid, size = self._grid(), self.size
        target = _block_over(grid, target, size)
        goals: Dict[int, Cell] = {}
        offsets: Dict[int, Cell] = {}
        taken = self.groups.taken_by_outsiders(self)
        lead = self.slots.get(commander.id)
        if self.formation is not None and self.state is GroupState.FORMED and lead is not None:
            cells, usable = self._slots_at(self.formation, target, taken)
            lx, ly = _cell(cells[lead])
            for unit in self.members:
                slot = self.slots.get(unit.id)
                if slot is not None and usable[slot]:
                    x, y = _cell(cells[slot])
                    goals[unit.id] = _within((x, y), size, unit.size)
                    offsets[unit.id] = (x - lx, y - ly)
        offsets = {**self._places_from(commander), **offsets}
        left = [unit for unit in self.members if unit.id not in goals]
        if left:
            blocked = taken | {
                cell for unit in self.members if unit.id in goals for cell in block_cells(goals[unit.id], unit.size)
            }
            places = _keep_places(
                left, commander, gathering_cells(grid, target, len(left), blocked=blocked, size=size), target
            )
            goals.update((unit.id, _within(places[unit.id], size, unit.size)) for unit in left)
        return goals, offsets

    def _places_from(self, commander: Unit) -> Dict[int, Cell]:
        """Member id -> where it stands from the commander now, at most the group's depth (about
        sqrt(members) blocks of :attr:`size`) either way; with members wider than a cell, on a lattice of
        such blocks, each member, nearest the commander first, at the nearest lattice point no other took."""
        size, depth = self.size, math.ceil(math.sqrt(len(self.members)))
        cx, cy = commander.cell
        places = np.array([(unit.cell[0] - cx, unit.cell[1] - cy) for unit in self.members], dtype=float) / size
        places = np.clip(places, -depth, depth)
        if size > 1:
            nearest_first = np.argsort(np.hypot(places[:, 0], places[:, 1]), kind="stable")
            places = size * distinct_cells(places + 0.5, nearest_first)
        return {unit.id: (int(x), int(y)) for unit, (x, y) in zip(self.members, places.tolist())}

    def _rank(self) -> None:
        """The squad's rank from its members' priorities now (a game may change them under way), and its oldest
        member (found again once members came or went)."""
        if self._oldest[0] != self._joined:
            self._oldest = (self._joined, min(map(_id, self.members)))
        self.rank = (max(map(_priority, self.members)), -self._oldest[1])

    def _pick_commander(self, fresh: bool = False) -> None:
        """The widest member nearest the centroid leads (kept between orders unless ``fresh``): its route
        fits every member."""
        if self.members and (fresh or self.commander is None):
            cx, cy = self.centroid
            widest = self.size
            self.commander = min(
                self.members, key=lambda u: (u.size != widest, math.hypot(u.position[0] - cx, u.position[1] - cy), u.id)
            )

    def _set_paces(self, span: Optional[Tuple[int, int]] = None, later: bool = False) -> None:
        """Every member at the group's speed. Marching in formation, but for while it passes what it
        does not fit (F5), a member behind its slot walks at its own speed, one ahead of it slows down,
        and the commander slows down while one lags (:mod:`.paces`). With ARRIVAL cohesion, the front slows
        down for the rear, and the rear, if it lags, walks at its own speed. A member that others of the group
        follow close behind is never slowed down: that would hold them back too. ``span``: the members' front
        and rear on the shared key points if read this update (see :meth:`_passing`). ``later``: but for ARRIVAL's,
        with every group's at the end of the groups' update (its members' states as they are now; their positions
        and the cells they hold do not change meanwhile)."""
        if not self.members:
            return
        self._pace_later = False
        marching = self._marching and not self._sharing
        holds = marching and self.state is GroupState.FORMED and not self._passing(span)
        navigator = self.groups.navigator
        if later and (holds or not marching or self.cohesion is not Cohesion.ARRIVAL):
            self._pace_later = True
            self.groups.set_paces_later(self, PaceAsk.now(navigator.agents, self._slot_layout(), holds))
            return
        if holds:
            ask = PaceAsk.now(navigator.agents, self._slot_layout(), holds)
            PaceTable().set_paces(navigator.agents, navigator.occupancy, [ask], every=True)
            return
        speed = self.speed
        paces = dict.fromkeys(self.members, speed)  # (each member's pace set once: a unit's pace changing is work)
        if marching and self.cohesion is Cohesion.ARRIVAL:
            self._arrive_together(speed, paces)
        for unit, pace in paces.items():
            unit.pace = pace

    def _slot_layout(self) -> SlotLayout:
        """Its members as rows, and where each marches from the commander: made again once they changed."""
        key = (self._joined, self.commander, self.offsets, self.heading)
        layout = self._layout
        if layout is None or layout.key != key:
            layout = self._layout = SlotLayout(self.members, self.commander, self.offsets, self.heading, self.size, key)
        return layout

    def _passing(self, span: Optional[Tuple[int, int]]) -> bool:
        """Whether the members' front and rear on the shared key points (``span``, else read now: only groups
        marching in formation ask) are where the group may pass what it does not fit as it is (F5)."""
        if not self._choices_at:
            return False
        front, rear = span if span is not None else self._front_and_rear()
        return front > self._choices_at[0] and rear <= self._choices_at[-1]

    def _arrive_together(self, speed: float, paces: Dict[Unit, float]) -> None:
        left = {unit.id: _way_left(unit) for unit in self.members}
        rear = max(left.values())
        middle = sorted(left.values())[len(left) // 2]
        slack = max(LEAD_SLACK, math.sqrt(len(self.members)))
        occupancy = self.groups.navigator.occupancy
        for unit in self.members:
            lead = rear - left[unit.id]
            if lead > slack and not followed(unit, left, occupancy):
                paces[unit] = speed * max(MIN_PACE, 1.0 - (lead - slack) / slack)
            elif left[unit.id] - middle > slack:
                paces[unit] = unit.speed  # a straggler catches up

    def __repr__(self) -> str:
        return f"Group({self.id}, {len(self.members)} members, {self.state.name}, target={self.target})"


class Groups:
    """The groups of one navigator: who belongs where, and steering them every update.

    Parameters
    ----------
    navigator : Navigator
        Groups steer its units; each ``navigator.update`` updates every group.
    """

    def __init__(self, navigator: Navigator):
        if not isinstance(navigator, Navigator):
            raise TypeError(f"navigator must be a Navigator, got {type(navigator).__name__}")
        self.navigator = navigator
        self.groups: Dict[int, Group] = {}
        self._group_of: Dict[int, Group] = {}  #: unit id -> its group
        self._events: List[GroupEvent] = []
        self._next_id = 1
        self._removed_seen = navigator.stats.removed  #: units the navigator had removed at the last update
        self._paces = PaceTable()
        #: Cells units stand on or head for, kept for a frame (:meth:`taken_by_outsiders`); groups say which of their
        #: members they changed.
        self.outsiders = Outsiders(navigator)
        #: The groups whose paces this update sets at its end, and what each asked (see :meth:`Group._set_paces`).
        self._paces_later: List[Tuple[Group, PaceAsk]] = []
        navigator.steering.append(self)

    def add_group(
        self,
        units: Iterable[Unit],
        *,
        formation: Optional[FormationShape] = None,
        spacing: float = 1.0,
        cohesion: Cohesion = Cohesion.ROUTE,
    ) -> Group:
        """A new group of ``units`` (at least one; none in another group), in ``formation`` (None: none)
        with its slots ``spacing`` cells apart (>= 1; squares of the widest member's size apart, see
        :attr:`Group.size`)."""
        units = list(units)
        if not units:
            raise ValueError("a group needs at least one unit")
        if not isinstance(cohesion, Cohesion):
            raise TypeError(f"cohesion must be a Cohesion, got {cohesion!r}")
        spacing = checked_spacing(spacing)
        if formation is not None:
            make_formation(formation, len(units), spacing)  # refuse a bad shape or spacing now, not at the order
        for unit in units:
            self._check_free(unit)
        if len({unit.id for unit in units}) != len(units):
            raise ValueError("a unit is given twice")
        group = Group(self, self._next_id, units, cohesion, formation, spacing)
        self.groups[group.id] = group
        self._next_id += 1
        return group

    def group_of(self, unit: Unit) -> Optional[Group]:
        return self._group_of.get(unit.id)

    def disband(self, group: Group) -> None:
        """Let every member go; the group takes no more orders."""
        for unit in sorted(group.members, key=lambda unit: unit is group.commander):  # the commander last: no re-plan
            group.remove(unit)
        self.navigator.narrows.release_all(group)
        self.groups.pop(group.id, None)

    def events(self) -> List[GroupEvent]:
        """(group id, event, detail) since the last call: group_ordered, formation_forming, formation_formed
        (detail: the formation's name, or where it formed again), formation_scaled, formation_halved,
        formation_broken (detail: where), waiting_for_turn (detail: the key point where its members hold for their
        turn at a narrow stretch), group_arrived (how many arrived), member_lost."""
        events, self._events = self._events, []
        return events

    def resting(self) -> bool:
        """Whether no group has an order under way or forms (see :class:`~pathing_py.units.Steerer`). (Events come
        only with orders, forming and lost members: none wait for a world at rest, whether a game reads them or not.)"""
        return all(group.resting for group in self.groups.values())

    def steer(self, delta: float) -> None:
        """Drop members the navigator no longer has, then update every group (the navigator calls this), and set
        their members' paces, every group's in one pass (:mod:`.paces`). Members are looked for only once the
        navigator removed units since the last update: none are lost otherwise."""
        removed = self.navigator.stats.removed
        any_removed, self._removed_seen = removed != self._removed_seen, removed
        self._paces_later = []
        for group in list(self.groups.values()):
            if any_removed:
                self.drop_lost(group)
            if group.members:
                group.update()
                self.outsiders.changed(group.members)
        asks = [ask for group, ask in self._paces_later if group._pace_later and group.members]
        self._paces.set_paces(self.navigator.agents, self.navigator.occupancy, asks)
        self._paces_later = []

    def drop_lost(self, group: Group) -> None:
        """Take out of ``group`` the members the navigator no longer has (``member_lost``, each): at each update
        once units were removed, and before each order (a game may remove a member and order its group in one frame)."""
        units = self.navigator.units
        lost = [unit for unit in group.members if units.get(unit.id) is not unit]
        for unit in sorted(lost, key=lambda unit: unit is group.commander):  # a new commander is one still here
            group.remove(unit)
            self.announce(group, "member_lost", f"unit {self.navigator.unit_label(unit)} was removed")

    # -- for groups -----------------------------------------------------------------

    def join(self, group: Group, unit: Unit) -> None:
        self._check_free(unit)
        self._group_of[unit.id] = group

    def leave(self, group: Group, unit: Unit) -> None:
        if self._group_of.get(unit.id) is not group:
            raise ValueError(f"unit {unit.id} is not in group {group.id}")
        del self._group_of[unit.id]

    def set_paces_later(self, group: Group, ask: PaceAsk) -> None:
        """Set ``group``'s paces as it asks with every group's at the end of this update (unless it sets them again
        before)."""
        self._paces_later.append((group, ask))

    def announce(self, group: Group, name: str, detail: str) -> None:
        self._events.append((group.id, name, detail))

    def standing_outsiders(self, group: Group) -> Set[Cell]:
        """Cells where units outside ``group`` stand at rest (every cell of a wider unit's block), which its members
        should not be sent to. (Found once a frame for every unit, and again for the units that changed since:
        :class:`~pathing_py.groups.outsiders.Outsiders`.)"""
        return self.outsiders.standing(group.members)

    def taken_by_outsiders(self, group: Group) -> Set[Cell]:
        """Cells ``group``'s members are not given as goals: where units outside it stand (:meth:`standing_outsiders`),
        and the goals of their orders still under way or that they were moved off (they come back to them). (Groups
        sent to one place each took the free cells nearest it: in a pocket of 4 x 2 cells, three units had one goal
        and two another, and took turns on them, pushed off and walking back, for a minute.)"""
        return self.outsiders.taken(group.members)

    def _check_free(self, unit: Unit) -> None:
        if not isinstance(unit, Unit) or self.navigator.units.get(unit.id) is not unit:
            raise ValueError(f"{unit!r} is not a unit of this navigator")
        other = self._group_of.get(unit.id)
        if other is not None:
            raise ValueError(f"unit {unit.id} is already in group {other.id}")


def gathering_cells(
    grid: Grid, target: Cell, count: int, blocked: Collection[Cell] = (), *, size: int = 1
) -> List[Cell]:
    """Up to ``count`` passable cells around ``target`` that it reaches by side steps, nearest first
    (breadth first, so no cell lies across a wall from it); ``blocked`` cells are passed through but
    not given. Fewer when the target's area is smaller; none when the target is blocked. For units
    ``size`` cells wide, on that size's grid: the top-left cells of blocks that hold no ``blocked`` cell
    and overlap no other block given."""
    if not grid.is_passable(target):
        return []
    taken = set(blocked)
    seen = {target}
    frontier = deque([target])
    cells: List[Cell] = []
    while frontier and len(cells) < count:
        cell = frontier.popleft()
        block = block_cells(cell, size)
        if taken.isdisjoint(block):
            cells.append(cell)
            taken.update(block)
        x, y = cell
        for step in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)):
            if step not in seen and grid.is_passable(step):
                seen.add(step)
                frontier.append(step)
    return cells


def _keep_places(members: List[Unit], commander: Unit, cells: List[Cell], target: Cell) -> Dict[int, Cell]:
    """Member id -> goal: the commander, if one of ``members``, the first of ``cells``, then, members
    nearest the commander first, each the free cell nearest to where it stands from the commander,
    moved to the target. Members beyond the cells (a small room) head for the target itself, and stop
    near it with a reason."""
    goals = {commander.id: cells[0] if cells else target} if commander in members else {}
    free = cells[len(goals) :]
    cx, cy = commander.cell
    for unit in sorted(members, key=lambda u: (_distance(u.cell, commander.cell), u.id)):
        if unit.id in goals:
            continue
        if not free:
            goals[unit.id] = target
            continue
        place = (target[0] + unit.cell[0] - cx, target[1] + unit.cell[1] - cy)
        goals[unit.id] = free.pop(min(range(len(free)), key=lambda i: _distance(free[i], place)))
    return goals


def make_formation(shape: FormationShape, count: int, spacing: float) -> Formation:
    """The formation a group of ``count`` members takes for ``shape``: a named shape has a slot per member;
    a game's own offsets or Formation keep their slots (members beyond them march unslotted)."""
    if isinstance(shape, Formation):
        return (
            shape
            if spacing == 1.0
            else Formation.custom(shape.offsets, shape.facings, shape.turns_in_place, spacing=spacing, name=shape.name)
        )
    if isinstance(shape, str):
        return Formation.by_name(shape, count, spacing=spacing)
    return Formation.custom(shape, spacing=spacing)


def _within(anchor: Cell, block: int, size: int) -> Cell:
    """The top-left cell of a member ``size`` cells wide in the middle of the block of side ``block`` at ``anchor``."""
    shift = (block - size) // 2
    return anchor[0] + shift, anchor[1] + shift


def _block_over(grid: Grid, cell: Cell, size: int) -> Cell:
    """The top-left cell of the block of ``size`` that fits on ``grid`` (that size's), covers ``cell`` and is
    centred nearest it; ``cell`` itself if none fits."""
    x, y = cell

    def off_centre(corner: Cell) -> Tuple[float, int, int]:
        cx, cy = block_centre(corner, size)
        return math.hypot(cx - x - 0.5, cy - y - 0.5), corner[1], corner[0]

    fitting = [(x - i, y - j) for j in range(size) for i in range(size) if grid.is_passable((x - i, y - j))]
    return min(fitting, key=off_centre, default=cell)


def _cell(values) -> Cell:
    x, y = values
    return int(x), int(y)


def _key_points(
    commander: Unit, offsets: np.ndarray, passable: np.ndarray
) -> Optional[Tuple[Tuple[Cell, ...], Set[Cell]]]:
    """The key points of the commander's plan before its goal, one tuple for every member, and those of
    them where the group does not fit; None when its goal was cut off (the members' goals may be too).
    Without a graph's key points (a plan that is its goal alone), the turns of the path the commander
    planned to it, and where members standing ``offsets`` from it begin or end not fitting (F5): members
    walking them aside keep level with it, where paths of their own could take other turns."""
    routes = [route for route in commander.stack if route.kind is RouteKind.HIGH_LEVEL]
    if commander.cut_off or not routes:
        return None
    high, top = routes[0], commander.stack.top
    if len(high.remaining) == 1 and top is not None and top.kind is RouteKind.LOW_LEVEL:
        path = [commander.anchor, *top.remaining]
        steps = [(b[0] - a[0], b[1] - a[1]) for a, b in zip(path, path[1:])]
        turns = {i + 1 for i in range(len(steps) - 1) if steps[i] != steps[i + 1]}
        narrow = set(narrow_points(offsets, path[:-1], passable)) - {0}
        return tuple(path[i] for i in sorted(turns | narrow)), {path[i] for i in narrow}
    return high.waypoints[high.index : -1], set()


def _from_nearest(key_points: Tuple[Cell, ...], cell: Cell) -> Tuple[Cell, ...]:
    """The key points from the one nearest ``cell`` on: a group that formed again where it fits, maybe
    along the route already, does not walk back to the key points behind it."""
    if not key_points:
        return key_points
    nearest = min(range(len(key_points)), key=lambda index: _distance(key_points[index], cell))
    return key_points[nearest:]


def _way_left(unit: Unit) -> float:
    """Cells the unit has left to walk, measured through the key points it has still to pass."""
    points = [unit.anchor] + [cell for route in reversed(list(unit.stack)) if route.kind is RouteKind.HIGH_LEVEL
                              for cell in route.remaining]  # fmt: skip
    return sum(_distance(a, b) for a, b in zip(points, points[1:]))


def _distance(a: Cell, b: Cell) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])
