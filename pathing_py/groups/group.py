"""Groups of units given one order (SPEC F1, F2).

Quick start::

    >>> from pathing_py import Grid
    >>> from pathing_py.units import Navigator, UnitState
    >>> from pathing_py.groups import Cohesion, Groups
    >>> grid = Grid.from_ascii("\\n".join(["." * 12] * 5))
    >>> navigator = Navigator(grid)
    >>> groups = Groups(navigator)
    >>> squad = groups.add_group([navigator.add_unit((0.5, y + 0.5), speed=s) for y, s in ((1, 4.0), (2, 3.0), (3, 4.0))])
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
that the group arrives together.
"""

import enum
import math
from collections import deque
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from ..grid import Cell, Grid
from ..search import as_cell
from ..units import Navigator, Unit, UnitState
from ..units.path_stack import RouteKind
from ..units.unit import FINAL_STATES

__all__ = ["Cohesion", "Group", "GroupEvent", "GroupState", "Groups"]

#: With Cohesion.ARRIVAL, cells a member may lead the group's rearmost member by before it slows down,
#: at least (a group of n members walks a file or clump about sqrt(n) cells deep); at twice as many it
#: walks at MIN_PACE of the group's speed.
LEAD_SLACK = 2.0
#: The slowest a leading member walks, as a fraction of the group's speed (it keeps moving: stopping
#: between two cells would hold both).
MIN_PACE = 0.25

GroupEvent = Tuple[int, str, str]  #: (group id, event name, detail)


class Cohesion(enum.Enum):
    """How closely a group's members move together (SPEC F2)."""

    SPEED = "speed"  #: the same speed, each member on a route of its own
    ROUTE = "route"  #: the same speed and the commander's route
    ARRIVAL = "arrival"  #: the same speed and route, and arriving together


class GroupState(enum.Enum):
    """A group's formation state (SPEC F3); a group without formation is always BROKEN."""

    BROKEN = "broken"
    FORMING = "forming"
    FORMED = "formed"


class Group:
    """Units given one order. Read its fields; give orders with :meth:`move_to`."""

    def __init__(self, groups: "Groups", group_id: int, units: List[Unit], cohesion: Cohesion):
        self.groups = groups
        self.id = group_id
        self.members: List[Unit] = []
        self.cohesion = cohesion
        self.state = GroupState.BROKEN
        self.commander: Optional[Unit] = None
        self.target: Optional[Cell] = None  #: the cell of the last order
        self.goals: Dict[int, Cell] = {}  #: member id -> its cell around the target
        self._sharing = False  #: members wait for the commander's plan to share it
        self._under_way = False  #: an order whose members have not all stopped
        for unit in units:
            self.add(unit)

    @property
    def speed(self) -> float:
        """The slowest member's speed, at which the group moves (SPEC F1)."""
        return min(unit.speed for unit in self.members)

    @property
    def centroid(self) -> Tuple[float, float]:
        count = len(self.members)
        return (sum(u.position[0] for u in self.members) / count, sum(u.position[1] for u in self.members) / count)

    def add(self, unit: Unit) -> None:
        """Take ``unit`` into the group (it keeps walking its current order until the next group order)."""
        self.groups.join(self, unit)
        self.members.append(unit)
        self._pick_commander()
        self._set_paces()

    def remove(self, unit: Unit) -> None:
        """Let ``unit`` go: it finishes its current order on its own, at its own speed."""
        self.groups.leave(self, unit)
        self.members.remove(unit)
        self.goals.pop(unit.id, None)
        unit.pace = None
        if unit is self.commander:
            self.commander = None
            self._pick_commander()
            if self._sharing and self.target is not None:  # its plan will not come: the new commander plans
                self.move_to(self.target)

    def move_to(self, target: Cell) -> None:
        """Send the group to ``target``: the commander there, the others to the free cells nearest it,
        each to the one nearest its place in the group now (members do not cross over at the end)."""
        target = as_cell(target, "target")
        navigator = self.groups.navigator
        if not self.members:
            raise ValueError(f"group {self.id} has no members")
        if not navigator.grid.in_bounds(target):
            raise ValueError(f"target {target} is outside the {navigator.grid.width}x{navigator.grid.height} map")
        self._pick_commander(fresh=True)
        commander = self.commander
        assert commander is not None
        others = [unit for unit in self.members if unit is not commander]
        cells = gathering_cells(navigator.grid, target, len(self.members), blocked=self.groups.standing_outsiders(self))
        self.goals = _keep_places(self.members, commander, cells, target)
        self.target, self._under_way = target, True
        self._set_paces()
        navigator.order(commander, self.goals[commander.id])
        self._sharing = self.cohesion is not Cohesion.SPEED
        for unit in others:
            if self._sharing:
                navigator.await_route(unit, self.goals[unit.id])
            else:
                navigator.order(unit, self.goals[unit.id])
        self.groups.announce(self, "group_ordered", navigator.cell_label(target))

    def update(self) -> None:
        """Share the commander's route once planned, set paces, and tell when the order is done."""
        navigator = self.groups.navigator
        commander = self.commander
        if self._sharing and commander is not None and commander.state is not UnitState.FIND_PATH:
            self._sharing = False
            key_points = _key_points(commander)
            for unit in self.members:
                if unit is not commander and unit.state is UnitState.FIND_PATH:
                    if key_points is None:  # the commander's goal was cut off: each plans its own way
                        navigator.order(unit, self.goals[unit.id])
                    else:
                        navigator.follow(unit, self.goals[unit.id], key_points, self._offset(unit))
        self._set_paces()
        if self._under_way and not self._sharing and all(unit.state in FINAL_STATES for unit in self.members):
            self._under_way = False
            arrived = sum(unit.state is UnitState.ARRIVED for unit in self.members)
            self.groups.announce(self, "group_arrived", f"{arrived} of {len(self.members)} members arrived")

    def _offset(self, unit: Unit) -> Cell:
        """Where ``unit`` stands from the commander, at most the group's depth (about sqrt(members)
        cells) either way: it walks the shared key points that far aside, so that members do not
        all file through the same cells."""
        assert self.commander is not None
        depth = math.ceil(math.sqrt(len(self.members)))
        dx, dy = unit.cell[0] - self.commander.cell[0], unit.cell[1] - self.commander.cell[1]
        return max(-depth, min(depth, dx)), max(-depth, min(depth, dy))

    def _pick_commander(self, fresh: bool = False) -> None:
        """The member nearest the centroid leads (kept between orders unless ``fresh``)."""
        if self.members and (fresh or self.commander is None):
            cx, cy = self.centroid
            self.commander = min(self.members, key=lambda u: (math.hypot(u.position[0] - cx, u.position[1] - cy), u.id))

    def _set_paces(self) -> None:
        """Every member at the group's speed; with ARRIVAL cohesion the front slows down for the rear
        (but for a member that others follow close behind: slowing it would hold them back too), and
        the rear, if it lags, walks at its own speed."""
        if not self.members:
            return
        speed = self.speed
        if self.cohesion is not Cohesion.ARRIVAL or not self._under_way:
            for unit in self.members:
                unit.pace = speed
            return
        left = {unit.id: _way_left(unit) for unit in self.members}
        rear = max(left.values())
        middle = sorted(left.values())[len(left) // 2]
        slack = max(LEAD_SLACK, math.sqrt(len(self.members)))
        holder = self.groups.navigator.holder
        for unit in self.members:
            lead = rear - left[unit.id]
            if lead > slack and not _followed(unit, left, holder):
                unit.pace = speed * max(MIN_PACE, 1.0 - (lead - slack) / slack)
            elif left[unit.id] - middle > slack:
                unit.pace = unit.speed  # a straggler catches up
            else:
                unit.pace = speed

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
        navigator.steering.append(self.update)

    def add_group(self, units: Iterable[Unit], *, cohesion: Cohesion = Cohesion.ROUTE) -> Group:
        """A new group of ``units`` (at least one; none in another group)."""
        units = list(units)
        if not units:
            raise ValueError("a group needs at least one unit")
        if not isinstance(cohesion, Cohesion):
            raise TypeError(f"cohesion must be a Cohesion, got {cohesion!r}")
        for unit in units:
            self._check_free(unit)
        if len({unit.id for unit in units}) != len(units):
            raise ValueError("a unit is given twice")
        group = Group(self, self._next_id, units, cohesion)
        self.groups[group.id] = group
        self._next_id += 1
        return group

    def group_of(self, unit: Unit) -> Optional[Group]:
        return self._group_of.get(unit.id)

    def disband(self, group: Group) -> None:
        """Let every member go; the group takes no more orders."""
        for unit in list(group.members):
            group.remove(unit)
        self.groups.pop(group.id, None)

    def events(self) -> List[GroupEvent]:
        """(group id, event, detail) since the last call: group_ordered, group_arrived, member_lost."""
        events, self._events = self._events, []
        return events

    def update(self, delta: float) -> None:
        """Drop members the navigator no longer has, then update every group (the navigator calls this)."""
        units = self.navigator.units
        for group in list(self.groups.values()):
            for unit in [unit for unit in group.members if units.get(unit.id) is not unit]:
                group.remove(unit)
                self.announce(group, "member_lost", f"unit {self.navigator.unit_label(unit)} was removed")
            if group.members:
                group.update()

    # -- for groups -----------------------------------------------------------------

    def join(self, group: Group, unit: Unit) -> None:
        self._check_free(unit)
        self._group_of[unit.id] = group

    def leave(self, group: Group, unit: Unit) -> None:
        if self._group_of.get(unit.id) is not group:
            raise ValueError(f"unit {unit.id} is not in group {group.id}")
        del self._group_of[unit.id]

    def announce(self, group: Group, name: str, detail: str) -> None:
        self._events.append((group.id, name, detail))

    def standing_outsiders(self, group: Group) -> List[Cell]:
        """Cells where units outside ``group`` stand, which its members should not be sent to."""
        return [unit.cell for unit in self.navigator.units.values()
                if self._group_of.get(unit.id) is not group and unit.next_cell is None
                and (unit.state in FINAL_STATES or unit.state is UnitState.IDLE)]  # fmt: skip

    def _check_free(self, unit: Unit) -> None:
        if not isinstance(unit, Unit) or self.navigator.units.get(unit.id) is not unit:
            raise ValueError(f"{unit!r} is not a unit of this navigator")
        other = self._group_of.get(unit.id)
        if other is not None:
            raise ValueError(f"unit {unit.id} is already in group {other.id}")


def gathering_cells(grid: Grid, target: Cell, count: int, blocked: Sequence[Cell] = ()) -> List[Cell]:
    """Up to ``count`` passable cells around ``target`` that it reaches by side steps, nearest first
    (breadth first, so no cell lies across a wall from it); ``blocked`` cells are passed through but
    not given. Fewer when the target's area is smaller; none when the target is blocked."""
    if not grid.is_passable(target):
        return []
    taken = set(blocked)
    seen = {target}
    frontier = deque([target])
    cells: List[Cell] = []
    while frontier and len(cells) < count:
        cell = frontier.popleft()
        if cell not in taken:
            cells.append(cell)
        x, y = cell
        for step in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)):
            if step not in seen and grid.is_passable(step):
                seen.add(step)
                frontier.append(step)
    return cells


def _keep_places(members: List[Unit], commander: Unit, cells: List[Cell], target: Cell) -> Dict[int, Cell]:
    """Member id -> goal: the commander the first of ``cells``, then, members nearest the commander
    first, each the free cell nearest to where it stands from the commander, moved to the target.
    Members beyond the cells (a small room) head for the target itself, and stop near it with a reason."""
    goals = {commander.id: cells[0] if cells else target}
    free = cells[1:]
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


def _key_points(commander: Unit) -> Optional[Tuple[Cell, ...]]:
    """The key points of the commander's plan before its goal, one tuple for every member; None when
    its goal was cut off (the members' goals may be too)."""
    routes = [route for route in commander.stack if route.kind is RouteKind.HIGH_LEVEL]
    if commander.cut_off or not routes:
        return None
    return routes[0].waypoints[routes[0].index : -1]


def _followed(unit: Unit, left: Dict[int, float], holder: Callable[[Cell], Optional[Unit]]) -> bool:
    """Whether a member of the group (one of ``left``'s, cells it has left to walk) with a longer way
    left holds a cell next to ``unit``: slowing the unit down would hold it back too."""
    x, y = unit.cell
    for cell in ((x - 1, y - 1), (x, y - 1), (x + 1, y - 1), (x - 1, y), (x + 1, y), (x - 1, y + 1), (x, y + 1), (x + 1, y + 1)):
        other = holder(cell)
        if other is not None and left.get(other.id, -math.inf) > left[unit.id]:
            return True
    return False


def _way_left(unit: Unit) -> float:
    """Cells the unit has left to walk, measured through the key points it has still to pass."""
    points = [unit.anchor] + [cell for route in reversed(list(unit.stack)) if route.kind is RouteKind.HIGH_LEVEL
                              for cell in route.remaining]  # fmt: skip
    return sum(_distance(a, b) for a, b in zip(points, points[1:]))


def _distance(a: Cell, b: Cell) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])
