"""The plain-Python half of the GroupManager node: PathUnits ordered as one group (SPEC E1, E2, F1, F2).

A GroupManager sends a selection of PathUnits to a world position as one
:class:`~pathing_py.groups.Group`: the commander plans, the others share its
route, all walk at the slowest member's speed (``cohesion`` says how closely
they keep together), in ``formation`` with slots ``spacing`` cells apart if
it names a shape (F3-F5: the formation_* signals say how it forms and passes
what it does not fit). The NavGrid of those units keeps the groups, in a
:class:`GroupDriver` beside its :class:`~pathing_py.godot.units.UnitDriver`,
whose navigator the groups steer; the NavGrid emits each manager's signals on
it once a physics frame, after the PathUnits' (:meth:`GroupDriver.pending`): no
manager has a frame callback of its own.

The selection is the group, as in RTS games: every accepted order makes a new
group of exactly the units selected (a unit selected twice counts once),
taken out of the groups they were in, as a unit ordered on its own
(:meth:`GroupDriver.order_alone`) is; a group left without members is
dropped without a signal (its units are elsewhere now). An order is
refused whole, nothing ordered, when the selection is empty
(``EMPTY_SELECTION``), holds anything that is not a PathUnit of this NavGrid
(``NOT_DRIVEN``), the target is not finite (``INVALID_POSITION``) or off the
map (``OUT_OF_BOUNDS``), or the manager's settings are unknown or out of range
(``INVALID_SETTINGS``).

When the NavGrid reads its TileMap anew, the new driver re-makes the groups
(:meth:`GroupDriver.take_over`): same ids, members, managers and settings;
a group under way is sent to its target again.

The manager's settings reach ``Groups.add_group`` as :class:`GroupSettings`,
read from its exports by name, and the groups' events become its signals
through :data:`GROUP_SIGNALS`: a new ``add_group`` option is a field of
GroupSettings and an export of GroupManager, a new event a row of
GROUP_SIGNALS and a signal of GroupManager; an event without its row is an error.

Quick start, on a row of twelve 16-pixel cells at the canvas origin (keys are
the PathUnits' instance ids, owners the GroupManagers')::

    >>> from pathing_py.godot.bridge import TileInfo, TileMapNavigator
    >>> from pathing_py.godot.units import UnitDriver
    >>> from pathing_py.godot.groups import GroupDriver
    >>> tile_data = [word for y in range(3) for x in range(12) for word in ((y << 16) | x, 0, 0)]
    >>> tilemap = TileMapNavigator.from_tilemap(tile_data, (16, 16), [TileInfo(0, "ground")])
    >>> canvas = ((0.0, 0.0), (1.0, 0.0), (0.0, 1.0))
    >>> units = UnitDriver(tilemap, canvas)
    >>> for key, y in ((1, 8.0), (2, 24.0), (3, 40.0)):
    ...     at = ((8.0, y), (9.0, y), (8.0, y + 1))
    ...     _ = units.add(key, f"unit {key}", at, at, speed=4.0)
    >>> groups = GroupDriver(units)
    >>> settings = {"cohesion": "route", "formation": "none", "spacing": 1.0}
    >>> groups.order("manager", [1, 2, 3], (180.0, 20.0), settings.get)
    Answer(status='OK', message='')
    >>> for _ in range(120):
    ...     _ = units.step(1 / 30)
    >>> [(signal.name, signal.group_id, signal.cell, signal.arrived) for signal in groups.signals("manager")]
    [('group_ordered', 1, (11, 1), 0), ('group_arrived', 1, (0, 0), 3)]
    >>> groups.order("manager", [], (180.0, 20.0), {"cohesion": "route", "formation": "none", "spacing": 1.0}.get)
    Answer(status='EMPTY_SELECTION', message='order_move: the selection is empty')
"""

import collections
from dataclasses import dataclass, fields
from typing import Any, Callable, Deque, Dict, Hashable, Iterable, Iterator, List, Optional, Sequence, Tuple

from ..arguments import finite_or_none
from ..grid import Cell
from ..groups import SHAPES, Cohesion, Group, Groups
from ..status import Status
from ..units import Unit, UnitState
from .bridge import Position
from .nav_grid_link import nav_grid_path_problem
from .units import Answer, UnitDriver

__all__ = [
    "GROUP_SIGNALS",
    "GroupDriver",
    "GroupSettings",
    "GroupSignal",
    "manager_problem",
]

#: The signals of a GroupManager, named as the groups' events, and the :class:`GroupSignal` fields each
#: carries after the group id.
GROUP_SIGNALS: Dict[str, Tuple[str, ...]] = {
    "group_ordered": ("cell", "position"),
    "group_arrived": ("arrived", "members"),
    "member_lost": ("detail",),
    "formation_forming": ("detail",),
    "formation_formed": ("detail",),
    "formation_scaled": ("detail",),
    "formation_halved": ("detail",),
    "formation_broken": ("detail",),
    "waiting_for_turn": ("detail",),
}
#: A GroupManager's ``formation`` export for a group without formation.
NO_FORMATION = "none"

#: What the GroupManager's refusals start with: the method the game called.
ORDER = "order_move"
FORMATION_ORDER = "order_formation"

#: Reads a GroupManager's export by name.
ExportReader = Callable[[str], Any]


@dataclass(frozen=True)
class GroupSettings:
    """What a GroupManager's exports ask of its groups, checked: the keyword arguments of ``Groups.add_group``."""

    cohesion: Cohesion = Cohesion.ROUTE
    formation: Optional[str] = None  #: a shape of :data:`~pathing_py.groups.SHAPES`, or None
    spacing: float = 1.0

    @classmethod
    def read(cls, export: ExportReader) -> "GroupSettings":
        """The settings from a manager's exports, each read by name; ValueError naming a bad one."""
        name = str(export("cohesion"))
        try:
            cohesion = Cohesion(name)
        except ValueError:
            known = ", ".join(repr(known.value) for known in Cohesion)
            raise ValueError(f"cohesion {name!r} is not one of {known}") from None
        shape = str(export("formation"))
        if shape != NO_FORMATION and shape not in SHAPES:
            known = ", ".join(repr(known) for known in (NO_FORMATION, *SHAPES))
            raise ValueError(f"formation {shape!r} is not one of {known}")
        spacing = export("spacing")
        checked = finite_or_none(spacing)
        if checked is None or checked < 1:
            raise ValueError(f"spacing must be a number of cells >= 1, got {spacing!r}")
        return cls(cohesion, None if shape == NO_FORMATION else shape, checked)

    def add_group_options(self) -> Dict[str, Any]:
        return {setting.name: getattr(self, setting.name) for setting in fields(self)}


def manager_problem(nav_grid_path: str, found: Optional[str], export: ExportReader) -> str:
    """Why a GroupManager cannot order units, or "": its configuration warning in the editor.

    ``found`` as :func:`~pathing_py.godot.nav_grid_link.nav_grid_path_problem`
    takes it; ``export`` reads the manager's exports by name.
    """
    problem = nav_grid_path_problem(nav_grid_path, found, "moves the units this manager orders")
    if problem:
        return problem
    try:
        GroupSettings.read(export)
    except ValueError as error:
        text = str(error)
        return f"{text[:1].upper()}{text[1:]}."
    return ""


@dataclass(frozen=True)
class GroupSignal:
    """A signal to emit on a GroupManager (the fields of :data:`GROUP_SIGNALS` matter for its name).

    ``cell`` is the order's TileMap cell and ``position`` its centre in world
    pixels; ``arrived`` the members that reached their cells of ``members``
    when the order ended; ``detail`` why a member was lost.
    """

    group_id: int
    name: str
    cell: Cell = (0, 0)
    position: Position = (0.0, 0.0)
    arrived: int = 0
    members: int = 0
    detail: str = ""

    def arguments(self, vector) -> List[Any]:
        """The signal's arguments, with ``vector`` (Godot's ``Vector2``) making the pairs engine values."""
        values = [getattr(self, name) for name in GROUP_SIGNALS[self.name]]
        return [self.group_id] + [vector(*value) if isinstance(value, tuple) else value for value in values]


@dataclass
class _Ordered:
    """A group as a manager ordered it."""

    group: Group
    owner: Hashable
    settings: GroupSettings
    under_way: bool = False  #: sent, and its group_arrived not yet given


class GroupDriver:
    """The groups of one NavGrid's PathUnits, each ordered by a GroupManager (its ``owner``, any hashable key).

    Parameters
    ----------
    units : UnitDriver
        The PathUnits, by key; the groups steer its navigator.
    """

    def __init__(self, units: UnitDriver):
        self.units = units
        self.groups = Groups(units.navigator)
        units.navigator.steering.append(self)  # after the groups' own: see steer
        self._ordered: Dict[int, _Ordered] = {}  # group id (the signals') -> the group
        self._ids: Dict[int, int] = {}  # Group.id -> group id
        self._queues: Dict[Hashable, Deque[GroupSignal]] = collections.defaultdict(collections.deque)
        self._nodes: Dict[Hashable, Any] = {}  # owner -> what its signals are emitted on (its GroupManager)
        self._next_id = 1

    def order(
        self, owner: Hashable, keys: Sequence[Optional[int]], world_target, export: ExportReader, node: Any = None
    ) -> Answer:
        """Send the selected units to the cell containing ``world_target`` (world pixels) as a new group.

        ``keys`` are the selection's PathUnits in order, None for an item
        that is not a node; ``export`` reads the manager's settings by name;
        ``node`` is what :meth:`pending` gives the owner's signals with (the
        GroupManager; the owner itself if None).
        """
        if not keys:
            return Answer(Status.EMPTY_SELECTION.value, f"{ORDER}: the selection is empty")
        try:
            settings = GroupSettings.read(export)
        except ValueError as error:
            return Answer(Status.INVALID_SETTINGS.value, f"{ORDER}: {error}")
        strangers = [_stranger(index, key) for index, key in enumerate(keys)
                     if key is None or self.units.unit_of(key) is None]  # fmt: skip
        if strangers:
            return Answer(Status.NOT_DRIVEN.value, f"{ORDER}: {'; '.join(strangers)}: nothing was ordered")
        answer, goal = self.units.goal_at(world_target, ORDER)
        if goal is None:
            return answer
        members = self._units_of(dict.fromkeys(key for key in keys if key is not None))  # twice counts once
        for unit in members:
            self._leave_group(unit)
        group_id = self._make_group(owner, members, settings)
        self._send(group_id, goal)
        self._nodes[owner] = owner if node is None else node
        self._queues[owner].append(self._ordered_signal(group_id))
        return Answer(Status.OK.value)

    def order_alone(self, key: int, world_position) -> Answer:
        """Send one PathUnit to the cell containing ``world_position`` on its own (``PathUnit.move_to``):
        it leaves its group first, as a unit picked out of a group and ordered elsewhere does in RTS games
        (a group left empty is dropped). A refused order changes nothing."""
        _, goal = self.units.goal_at(world_position, "move_to")
        unit = self.units.unit_of(key)
        if goal is not None and unit is not None:
            self._leave_group(unit)
        return self.units.order(key, world_position)

    def change_formation(self, owner: Hashable, export: ExportReader) -> Answer:
        """Every group of ``owner`` takes the formation its settings (read by ``export``) now name, where it
        stands (:meth:`~pathing_py.groups.Group.set_formation`): it forms anew and goes on with its order."""
        try:
            settings = GroupSettings.read(export)
        except ValueError as error:
            return Answer(Status.INVALID_SETTINGS.value, f"{FORMATION_ORDER}: {error}")
        for ordered in self._ordered.values():
            if ordered.owner == owner:
                self.groups.drop_lost(ordered.group)  # PathUnits freed in this frame (a group left without is dropped)
                if ordered.group.members:
                    ordered.group.set_formation(settings.formation, settings.spacing)
                ordered.settings = settings  # a rebuild re-makes the group so
        return Answer(Status.OK.value)

    def pending(self) -> Iterator[Tuple[Any, GroupSignal]]:
        """Every owner's queued signals with its node, owner by owner in the order they first ordered, each
        taken off its queue as it is yielded. A signal's handler may free its manager or another (the NavGrid
        then forgets it): none more of a forgotten owner's is yielded."""
        for owner in [owner for owner, queue in self._queues.items() if queue]:
            node = self._nodes.get(owner)
            for signal in self.signals(owner):
                yield node, signal

    def signals(self, owner: Hashable) -> Iterator[GroupSignal]:
        """The signals of ``owner``'s groups, oldest first, each taken off the queue as it is yielded (none more
        once the owner is forgotten: a signal's handler may free its manager)."""
        queue = self._queues.get(owner)
        while queue:
            yield queue.popleft()

    def forget_owner(self, owner: Hashable) -> None:
        """A manager left: its groups are disbanded (their units finish their orders on their own), and its signals
        still queued are dropped."""
        for group_id in [group_id for group_id, ordered in self._ordered.items() if ordered.owner == owner]:
            self._drop(group_id)
        self._queues.pop(owner, collections.deque()).clear()
        self._nodes.pop(owner, None)

    def take_over(self, previous: "GroupDriver") -> None:
        """Re-make the groups of the driver this one replaces, once this driver's units took over its units.

        Each group keeps its id, owner and settings, with the members that
        could join the new grid (the others are lost: ``member_lost``); a
        group under way is sent to its target again (no second
        ``group_ordered``), or, if the target is off the new map, ends with
        ``group_arrived`` and none arrived. Signals not yet taken are kept.
        """
        previous.groups.steer(0.0)  # members removed since the last frame are lost there first
        previous._take_events()
        self._next_id = previous._next_id
        self._queues, self._nodes = previous._queues, previous._nodes
        for group_id, old in previous._ordered.items():
            queue = self._queues[old.owner]
            kept = []
            for key in (previous.units.key_of(unit) for unit in old.group.members):
                if key is not None and self.units.unit_of(key) is None:
                    detail = f"unit {key} could not stand on the grid the NavGrid read again"
                    queue.append(GroupSignal(group_id, "member_lost", detail=detail))
                elif key is not None:
                    kept.append(key)
            if not kept:
                continue
            self._make_group(old.owner, self._units_of(kept), old.settings, group_id)
            target = old.group.target
            if old.under_way and target is not None:
                if self.units.navigator.grid.in_bounds(target):
                    self._send(group_id, target)
                else:
                    queue.append(GroupSignal(group_id, "group_arrived", arrived=0, members=len(kept)))

    # -- inside -----------------------------------------------------------------------

    def _units_of(self, keys: Iterable[int]) -> List[Unit]:
        """The units of the keys the driver moves."""
        return [unit for unit in map(self.units.unit_of, keys) if unit is not None]

    def _make_group(self, owner: Hashable, members: List[Unit], settings: GroupSettings, group_id: int = 0) -> int:
        """A new group of ``members`` under ``group_id`` (a new id if 0); its id."""
        group = self.groups.add_group(members, **settings.add_group_options())
        if not group_id:
            group_id, self._next_id = self._next_id, self._next_id + 1
        self._ordered[group_id] = _Ordered(group, owner, settings)
        self._ids[group.id] = group_id
        return group_id

    def _send(self, group_id: int, goal: Cell) -> None:
        """Send a group to a grid cell (in bounds)."""
        ordered = self._ordered[group_id]
        ordered.group.move_to(goal)
        ordered.under_way = True  # its events (formation_forming, ...) are taken at the next step, after group_ordered

    def _ordered_signal(self, group_id: int) -> GroupSignal:
        target = self._ordered[group_id].group.target
        assert target is not None, "a group is sent before it is announced"
        return GroupSignal(
            group_id, "group_ordered", self.units.frame.from_grid(target), self.units.world_centre(target)
        )

    def _leave_group(self, unit: Unit) -> None:
        """Take a unit out of its group; a group left empty is dropped."""
        group = self.groups.group_of(unit)
        if group is None:
            return
        group.remove(unit)
        if not group.members:
            self._drop(self._ids[group.id])

    def _drop(self, group_id: int) -> None:
        ordered = self._ordered.pop(group_id)
        del self._ids[ordered.group.id]
        self.groups.disband(ordered.group)

    def resting(self) -> bool:
        """Whether the groups rest (see :class:`~pathing_py.units.Steerer`): no event of theirs is still to come."""
        return self.groups.resting()

    def steer(self, delta: float) -> None:
        """The navigator calls this each update, after the groups' own steering: a group's events are queued
        in the update that made them."""
        self._take_events()

    def _take_events(self) -> None:
        """Queue the groups' events as their managers' signals, then drop the groups that lost every member.

        A ``group_ordered`` event is not queued: orders queue their own, and a
        group that re-plans because its commander left was given no new order.
        """
        emptied = []
        for inner_id, name, detail in self.groups.events():
            if name == "group_ordered":
                continue
            if name not in GROUP_SIGNALS:
                raise ValueError(f"the groups sent an event GroupManager has no signal for: {name!r}")
            group_id = self._ids[inner_id]
            ordered = self._ordered[group_id]
            members = ordered.group.members
            if name == "group_arrived":
                ordered.under_way = False
                arrived = sum(unit.state is UnitState.ARRIVED for unit in members)
                self._queues[ordered.owner].append(GroupSignal(group_id, name, arrived=arrived, members=len(members)))
            else:
                self._queues[ordered.owner].append(GroupSignal(group_id, name, detail=detail))
            if not members:
                emptied.append(group_id)
        for group_id in dict.fromkeys(emptied):
            self._drop(group_id)


def _stranger(index: int, key: Optional[int]) -> str:
    """Why item ``index`` of a selection cannot be ordered."""
    if key is None:
        return f"units[{index}] is not a node"
    return f"units[{index}] (instance {key}) is not a PathUnit of this NavGrid"
