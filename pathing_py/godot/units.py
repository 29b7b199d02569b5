"""The plain-Python half of the PathUnit nodes and of the NavGrid that drives them (SPEC E1, E2).

A NavGrid moves all the PathUnits of its map in one call per physics frame
(an engine-to-Python call per unit per frame is costly in pythonscript 0.50,
so units have no ``_physics_process`` of their own): it
advances a :class:`~pathing_py.units.Navigator` with :meth:`UnitDriver.step`,
calls ``set_position`` on each node that moved, then emits the signals of
:meth:`UnitDriver.signals`. Everything between engine values and the
navigator is decided here, where CPython tests reach it: frames of reference,
the registry of nodes, signal names and arguments, refusals and their
statuses, and the tile a map edit paints. The node scripts only read and
write Godot objects.

Quick start, with a row of eight 16-pixel cells whose TileMap sits at (100, 0)
on the canvas, and a unit whose parent is the canvas itself::

    >>> from pathing_py.godot.bridge import TileInfo, TileMapNavigator
    >>> from pathing_py.godot.units import TilePainter, UnitDriver
    >>> tiles = [TileInfo(0, "ground"), TileInfo(1, "wall", shape_coords=[(0, 0)])]
    >>> tile_data = [word for x in range(8) for word in (x, 0, 0)]
    >>> tilemap = TileMapNavigator.from_tilemap(tile_data, (16, 16), tiles)
    >>> tilemap_at = ((100.0, 0.0), (101.0, 0.0), (100.0, 1.0))  # Transform2D.xform of (0, 0), (1, 0), (0, 1)
    >>> driver = UnitDriver(tilemap, tilemap_at, painter=TilePainter.choose(tiles, "wall"))
    >>> tank_at = ((108.0, 8.0), (109.0, 8.0), (108.0, 9.0))     # the unit's global transform: in cell (0, 0)
    >>> driver.add(1, "tank node", tank_at, tank_at, speed=4.0)
    Answer(status='OK', message='')
    >>> driver.order(1, (215.0, 3.0))                 # a world position in cell (7, 0)
    Answer(status='OK', message='')
    >>> moves = [driver.step(1 / 30) for _ in range(60)]
    >>> moves[0]                                      # (node, x, y) for set_position
    [('tank node', 110.13333333333333, 8.0)]
    >>> [(signal.name, signal.cell, signal.position) for signal in driver.signals()][-1]
    ('arrived', (7, 0), (220.0, 8.0))
    >>> driver.set_cell_blocked((3, 0), True)        # paint tile 1 at (3, 0); the grid blocks it too
    CellEdit(status='OK', message='', cell=(3, 0), tile=1, cleared_layers=())

Frames of reference (all positions are ``(x, y)`` floats):

- *world*: global canvas pixels (``global_position``,
  ``get_global_mouse_position()``): what ``PathUnit.move_to`` takes and what
  signals give;
- *TileMap-local* pixels and *TileMap cells*, as in :mod:`pathing_py.godot.bridge`;
- *grid units*: the navigator's positions (cell (x, y) of the grid covers
  [x, x+1) x [y, y+1));
- a unit's *parent-local* pixels: its ``position``, what ``set_position`` takes.

Transforms cross from the engine as the images of (0, 0), (1, 0) and (0, 1)
(:data:`TransformPoints`): pythonscript 0.50's ``Transform2D`` has ``xform``
but no axis properties. The TileMap's transform is read when the NavGrid
builds its grid, a unit parent's when the unit joins; moving a TileMap or a
unit's parent afterwards is not followed.
"""

import collections
import math
from dataclasses import dataclass
from typing import Any, Deque, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

from ..clearance import block_at, block_centre, size_class
from ..grid import Cell
from ..status import Status
from ..units import Navigator, Unit
from ..units.occupancy import block_cells
from ..units.unit import STANDING_STATES, UnitState, unit_settings_problem
from .bridge import (
    TILE_MODE_SINGLE,
    CoordinateError,
    Position,
    TileInfo,
    TileMapNavigator,
    finite_pair,
    map_floor,
)
from .nav_grid_link import nav_grid_path_problem
from .node_positions import NodePositions

__all__ = [
    "Affine",
    "Answer",
    "CellEdit",
    "EMPTY_TILE",
    "REASON_SIGNALS",
    "TilePainter",
    "TransformPoints",
    "UNIT_SIGNALS",
    "UnitDriver",
    "UnitSignal",
    "unit_problem",
]

#: The signals of a PathUnit, named as the navigator's events (a final state's: ``UnitState.signal``).
UNIT_SIGNALS = (
    "path_found",
    "waypoint_reached",
    "waiting_for_turn",
    UnitState.ARRIVED.signal,
    UnitState.HELD_UP.signal,
    UnitState.UNREACHABLE.signal,
)
#: Signals that also carry the reason the unit stopped.
REASON_SIGNALS = frozenset({UnitState.HELD_UP.signal, UnitState.UNREACHABLE.signal})

#: What ``TileMap.set_cell`` writes to leave a cell without a tile.
EMPTY_TILE = -1
#: Pixels a node may stand off its unit's cell centre by float noise alone (transforms of a rotated parent).
POSITION_NOISE = 1e-6

#: Why map edits are off when the NavGrid names no wall tile.
NO_WALL_TILE = "Set wall_tile to the tile set_cell_blocked paints on blocked cells."
#: Why no PathUnit moves on a half-offset TileMap: units step between eight (or four) neighbours, hex cells have six.
HEX_UNITS_REFUSED = (
    "PathUnits cannot move on a half-offset (hexagonal) TileMap yet: units step between eight or four "
    "neighbours, hex cells have six; the NavGrid's find_path works on it"
)

#: A Transform2D as the images of (0, 0), (1, 0) and (0, 1).
TransformPoints = Tuple[Position, Position, Position]


@dataclass(frozen=True)
class Affine:
    """A 2D affine map laid out as Godot's ``Transform2D``: ``p' = x * p.x + y * p.y + origin``.

    ``x`` and ``y`` are the images of the unit vectors; ``a * b`` applies ``b``
    first, as ``Transform2D`` does.
    """

    x: Position = (1.0, 0.0)
    y: Position = (0.0, 1.0)
    origin: Position = (0.0, 0.0)

    def __post_init__(self):
        for name in ("x", "y", "origin"):
            object.__setattr__(self, name, finite_pair(getattr(self, name), f"transform {name}"))

    @classmethod
    def from_points(cls, points: TransformPoints) -> "Affine":
        """The map sending (0, 0), (1, 0) and (0, 1) to these points; CoordinateError if one is not finite."""
        try:
            origin, x_end, y_end = points
        except (TypeError, ValueError):
            raise CoordinateError(f"a transform must be given as three points, got {points!r}") from None
        ox, oy = finite_pair(origin, "transform origin")
        (xx, xy), (yx, yy) = finite_pair(x_end, "transform x"), finite_pair(y_end, "transform y")
        return cls((xx - ox, xy - oy), (yx - ox, yy - oy), (ox, oy))

    def apply(self, point) -> Position:
        """The image of a point; CoordinateError if the point is not two finite numbers."""
        px, py = finite_pair(point, "position")
        return (
            self.x[0] * px + self.y[0] * py + self.origin[0],
            self.x[1] * px + self.y[1] * py + self.origin[1],
        )

    def __mul__(self, inner: "Affine") -> "Affine":
        origin = self.apply(inner.origin)
        return Affine(self._linear(inner.x), self._linear(inner.y), origin)

    def _linear(self, vector: Position) -> Position:
        return self.x[0] * vector[0] + self.y[0] * vector[1], self.x[1] * vector[0] + self.y[1] * vector[1]

    def inverse(self) -> "Affine":
        """The inverse map; ValueError for a map that squashes the plane (a node scaled to zero)."""
        (a, b), (c, d) = self.x, self.y
        determinant = a * d - b * c
        if not (math.isfinite(determinant) and abs(determinant) > 1e-12):
            raise ValueError(f"the transform {self} is scaled to zero: positions cannot be converted back")
        x, y = (d / determinant, -b / determinant), (-c / determinant, a / determinant)
        ox, oy = self.origin
        return Affine(x, y, (-(x[0] * ox + y[0] * oy), -(x[1] * ox + y[1] * oy)))


@dataclass(frozen=True)
class Answer:
    """What became of a request from a node: ``status`` is ``"OK"`` or why not; ``message`` explains."""

    status: str
    message: str = ""

    def __bool__(self) -> bool:
        return self.status == Status.OK.value


@dataclass(frozen=True)
class CellEdit:
    """The outcome of ``set_cell_blocked``: when OK, the node writes ``tile`` into TileMap cell ``cell``, and
    clears that cell in the stacked layers ``cleared_layers`` (indices of its ``layer_paths``) whose tile blocked it."""

    status: str
    message: str = ""
    cell: Optional[Cell] = None
    tile: Optional[int] = None
    cleared_layers: Tuple[int, ...] = ()

    def __bool__(self) -> bool:
        return self.status == Status.OK.value

    @property
    def error(self) -> str:
        """The message to report as an error: none for a cell a unit holds, which games retry as routine."""
        return "" if self.status in (Status.OK.value, Status.CELL_HELD.value) else self.message


@dataclass(frozen=True)
class UnitSignal:
    """A signal to emit on a PathUnit node: ``cell`` is a TileMap cell, ``position`` its centre in world pixels."""

    key: int
    node: Any
    name: str
    cell: Cell
    position: Position
    reason: str = ""

    def arguments(self, vector) -> List[Any]:
        """The signal's arguments, with ``vector`` (Godot's ``Vector2``) making the pairs engine values:
        ``(cell, position)``, plus ``reason`` for ``held_up`` and ``unreachable``."""
        arguments = [vector(*self.cell), vector(*self.position)]
        return arguments + [self.reason] if self.name in REASON_SIGNALS else arguments


@dataclass(frozen=True)
class TilePainter:
    """The tiles ``set_cell_blocked`` paints: ``wall`` on blocked cells, ``floor`` on freed ones.

    ``problem`` says why the NavGrid's tile settings cannot be used ("" if they
    can); the NavGrid shows it as a configuration warning and refuses edits.
    """

    wall: Optional[int] = None
    floor: int = EMPTY_TILE
    problem: str = ""

    @classmethod
    def choose(
        cls,
        tiles: Iterable[TileInfo],
        wall_tile: str,
        floor_tile: str = "",
        *,
        blocking: Sequence[str] = (),
        empty_passable: bool = True,
        layered: bool = False,
    ) -> "TilePainter":
        """Pick the tiles by name, so that a later read of the painted TileMap gives the edited grid.

        The wall must block (a collision shape, or a name in ``blocking``), the
        floor must not; both must be single tiles, as an autotile's blocking
        depends on the sub-tile its bitmask picks. An empty ``floor_tile``
        clears freed cells, which needs ``empty_passable``, unless the map is
        ``layered`` (TileMaps stacked on it may hold a floor there: each edit
        checks). An empty ``wall_tile`` turns map edits off, with a problem saying so.
        """
        if not wall_tile:
            return cls(problem=NO_WALL_TILE)
        if not floor_tile and not empty_passable and not layered:  # layered: the other layers' tiles may stay
            return cls(
                problem="floor_tile is empty, so freed cells are cleared, but empty_cells_passable is off: "
                "name a floor tile or turn it on."
            )
        by_name: Dict[str, TileInfo] = {}
        for tile in tiles:
            by_name.setdefault(tile.name, tile)
        chosen = {"floor_tile": EMPTY_TILE}
        for setting, name, must_block in (("wall_tile", wall_tile, True), ("floor_tile", floor_tile, False)):
            if not name:
                continue
            named = by_name.get(name)
            if named is None:
                known = ", ".join(repr(known) for known in sorted(by_name)) or "none"
                return cls(problem=f"{setting} {name!r} is not a tile of the TileSet (tiles: {known}).")
            if named.mode != TILE_MODE_SINGLE:
                return cls(problem=f"{setting} {name!r} is an autotile or atlas: set_cell_blocked paints single tiles.")
            if (bool(named.shape_coords) or name in blocking) != must_block:
                state = "does not block (no collision shape, not in blocking_tiles)" if must_block else "blocks"
                return cls(problem=f"{setting} {name!r} {state}: the TileMap and the grid would disagree.")
            chosen[setting] = named.tile_id
        return cls(chosen["wall_tile"], chosen["floor_tile"])

    @property
    def warning(self) -> str:
        """``problem`` as a configuration warning: none when map edits are simply off (no ``wall_tile``)."""
        return "" if self.problem == NO_WALL_TILE else self.problem

    def tile(self, blocked: bool) -> int:
        if self.wall is None:  # callers check ``problem`` first
            raise ValueError(f"no tile to paint: {self.problem}")
        return self.wall if blocked else self.floor


def unit_problem(nav_grid_path: str, found: Optional[str], *, speed: float, radius: float) -> str:
    """Why a PathUnit cannot be driven, or "": its configuration warning in the editor.

    ``found`` is what ``nav_grid_path`` leads to, as
    :func:`~pathing_py.godot.nav_grid_link.nav_grid_path_problem` takes it.
    """
    problem = nav_grid_path_problem(nav_grid_path, found, "moves this unit")
    if problem:
        return problem
    problem = unit_settings_problem(speed, radius)
    return f"{problem}." if problem else ""


@dataclass
class _Member:
    """A PathUnit node that a driver moves."""

    node: Any
    unit: Unit
    parent_to_world: Affine  #: the node's parent-local pixels -> world pixels
    grid_to_parent: Affine  #: the navigator's units -> the node's parent-local pixels


class UnitDriver:
    """The PathUnits of one NavGrid: their navigator, their nodes, and the conversions between them.

    Parameters
    ----------
    tilemap : TileMapNavigator
        The NavGrid's grid (and key-point graph) with its TileMap frame; the
        driver's navigator edits that very grid, so path queries see the edits.
    tilemap_to_world : TransformPoints
        The TileMap's global transform; ValueError if it is not finite or scaled to zero.
    painter : TilePainter, optional
        The tiles of map edits; without one, ``set_cell_blocked`` is refused.
    link, time_budget, retry_time
        As :class:`~pathing_py.units.Navigator` takes them (``time_budget`` in
        seconds of path planning per frame, None for no limit; ``retry_time`` in
        seconds a unit cut off from its goal goes on when a way opens).
    """

    def __init__(
        self,
        tilemap: TileMapNavigator,
        tilemap_to_world: TransformPoints,
        *,
        painter: Optional[TilePainter] = None,
        link: str = "exact",
        time_budget: Optional[float] = None,
        retry_time: float = 30.0,
    ):
        self.navigator = Navigator(
            tilemap.grid, tilemap.graph, link=link, time_budget=time_budget, retry_time=retry_time
        )
        self.frame = tilemap.frame
        self.tilemap = tilemap
        # Reasons reach games beside the signals' TileMap cells: they name those cells, and units by their keys.
        self.navigator.cell_label = lambda cell: str(self.frame.from_grid(cell))
        self.navigator.unit_label = self._label
        self.painter = painter or TilePainter(problem=NO_WALL_TILE)
        grid_to_tilemap = Affine.from_points(self.frame.grid_axes())
        self._grid_to_world = Affine.from_points(tilemap_to_world) * grid_to_tilemap
        self._world_to_grid = self._grid_to_world.inverse()
        self._members: Dict[int, _Member] = {}
        self._keys: Dict[int, int] = {}  # navigator unit id -> member key
        self._removed: Dict[int, int] = {}  # the same, for units removed since the last step
        self._queued: Deque[UnitSignal] = collections.deque()
        self._positions = NodePositions()

    # -- units joining and leaving ----------------------------------------------------

    def add(
        self,
        key: int,
        node: Any,
        global_transform: TransformPoints,
        transform: TransformPoints,
        *,
        speed,
        radius=0.5,
        priority=0,
    ) -> Answer:
        """Drive ``node`` (any object; the driver hands it back) from where it stands, under ``key``.

        ``global_transform`` and ``transform`` are the node's, from which its
        parent's frame follows; ``speed`` is in cells per second and ``radius``
        in cells, as the navigator takes them. A node already driven joins again (bad settings
        are refused first and leave it driven as it was). On a half-offset (hexagonal) TileMap
        no unit is driven: ``NOT_DRIVEN``, saying why (:data:`HEX_UNITS_REFUSED`).
        """
        if self.tilemap.hex_steps is not None:
            return Answer(Status.NOT_DRIVEN.value, HEX_UNITS_REFUSED)
        try:
            unit_to_world = Affine.from_points(global_transform)
            parent_to_world = unit_to_world * Affine.from_points(transform).inverse()
        except ValueError as error:  # CoordinateError included
            return Answer(Status.INVALID_TRANSFORM.value, f"the unit's transform: {error}")
        return self._add(key, node, parent_to_world, unit_to_world.origin, speed, radius, priority)

    def _add(self, key, node, parent_to_world: Affine, world: Position, speed, radius, priority) -> Answer:
        problem = unit_settings_problem(speed, radius)
        if problem or not isinstance(priority, int):  # refused before anything changes
            return Answer(Status.INVALID_SETTINGS.value, problem or f"priority must be an int, got {priority!r}.")
        try:
            grid_to_parent = parent_to_world.inverse() * self._grid_to_world
        except ValueError as error:
            return Answer(Status.INVALID_TRANSFORM.value, f"the unit's parent: {error}")
        if key in self._members:  # joining again: from where it stands now
            self.remove(key)
        position = self._world_to_grid.apply(world)
        size = size_class(radius)
        for cell in block_cells(block_at(position, size), size):  # the one cell of a unit up to radius 0.5
            refusal = self._cell_refusal(
                cell, f"the unit's position {world}" if size == 1 else f"the unit at {world} (radius {radius:g})"
            )
            if refusal is not None:
                return refusal
        unit = self.navigator.add_unit(position, speed=float(speed), radius=float(radius), priority=priority)
        self._members[key] = _Member(node, unit, parent_to_world, grid_to_parent)
        # The unit stands on its cell's centre: a node off it is moved there at the next step, one on it (up to
        # the float noise of the transforms) is not moved.
        standing, centre = grid_to_parent.apply(position), grid_to_parent.apply(unit.position)
        sent = centre if math.dist(standing, centre) <= POSITION_NOISE else standing
        (xx, xy), (yx, yy), (ox, oy) = grid_to_parent.x, grid_to_parent.y, grid_to_parent.origin
        self._positions.track(unit.slot, node, (xx, xy, yx, yy, ox, oy), sent)
        self._keys[unit.id] = key
        return Answer(Status.OK.value)

    def _label(self, unit: Unit) -> str:
        """A unit by its key, also in the step after it was removed (when its group tells that it lost it)."""
        key = self._keys.get(unit.id)
        return str(key if key is not None else self._removed[unit.id])

    def _cell_refusal(self, cell: Cell, what: str) -> Optional[Answer]:
        """Why a unit cannot stand in a grid cell, or None."""
        tile_cell = self.frame.from_grid(cell)
        grid = self.navigator.grid
        if not grid.in_bounds(cell):
            return Answer(Status.OUT_OF_BOUNDS.value, f"{what}: {self.tilemap.outside(tile_cell)}")
        if not grid.is_passable(cell):
            return Answer(Status.CELL_BLOCKED.value, f"{what} is in TileMap cell {tile_cell}, which is blocked")
        holder = self.navigator.holder(cell)
        if holder is not None:
            return Answer(
                Status.CELL_HELD.value,
                f"{what} is in TileMap cell {tile_cell}, which unit {self._keys[holder.id]} holds",
            )
        return None

    def remove(self, key: int) -> None:
        """Stop driving a node (it left the tree): its cells are free, its queued signals dropped."""
        member = self._members.pop(key, None)
        if member is None:
            return
        self._removed[member.unit.id] = self._keys.pop(member.unit.id)
        self._positions.forget(member.unit.slot)
        self.navigator.remove_unit(member.unit)
        self._queued = collections.deque(signal for signal in self._queued if signal.key != key)

    def take_over(self, previous: "UnitDriver") -> None:
        """Drive the units of the driver this one replaces (the NavGrid read its TileMap again).

        Each unit joins from where it stands and walks on to its goal, as does
        a unit that stopped short of a goal the map cut off if the new grid
        opens a way to it within the previous navigator's ``retry_time``; a
        unit that cannot stand on the new grid is dropped and told so: ``held_up`` if a unit
        holds its cell, ``unreachable`` if a wall stands there or the cell left the map.
        """
        for key, member in previous._members.items():
            unit = member.unit
            world = previous._grid_to_world.apply(unit.position)
            answer = self._add(key, member.node, member.parent_to_world, world, unit.speed, unit.radius, unit.priority)
            if not answer:
                cell = previous.frame.from_grid(unit.cell)
                centre = previous.world_centre(unit.cell, unit.size)
                reason = f"the NavGrid read its TileMap again: {answer.message}"
                held = answer.status == Status.CELL_HELD.value
                name = (UnitState.HELD_UP if held else UnitState.UNREACHABLE).signal
                self._queued.append(UnitSignal(key, member.node, name, cell, centre, reason))
                continue
            self._positions.track_sent(self._members[key].unit.slot, previous._positions.sent(unit.slot))
            if unit.goal is None:
                continue
            goal = self.frame.to_grid(previous.frame.from_grid(unit.goal))  # the same TileMap cell
            if not self.navigator.grid.in_bounds(goal):
                continue
            opened = previous.navigator.retrying(unit) and self.navigator.grid.same_island(
                self._members[key].unit.cell, goal
            )
            if unit.state not in STANDING_STATES or opened:
                self._members[key].unit.move_to(goal)

    # -- orders and state -------------------------------------------------------------

    def order(self, key: int, world_position) -> Answer:
        """Send a unit to the cell containing a world position."""
        member = self._members.get(key)
        if member is None:
            return Answer(
                Status.NOT_DRIVEN.value, "this unit is not moved by a NavGrid (see the errors when it joined)"
            )
        answer, goal = self.goal_at(world_position, "move_to", member.unit.size)
        if goal is not None:
            member.unit.move_to(goal)
        return answer

    def goal_at(self, world_position, doing: str, size: int = 1) -> Tuple[Answer, Optional[Cell]]:
        """The grid cell of the TileMap cell containing a world position, to send units to (for units of
        block ``size`` > 1, the top-left cell of the block centred nearest it); None, with the refusal
        (``INVALID_POSITION``, ``OUT_OF_BOUNDS``) its message starting with ``doing``, if there is none."""
        try:
            x, y = self._world_to_grid.apply(world_position)
        except CoordinateError as error:
            return Answer(Status.INVALID_POSITION.value, f"{doing}: {error}"), None
        offset = (size - 1) / 2.0
        goal = (map_floor(x - offset), map_floor(y - offset))
        if not self.navigator.grid.in_bounds(goal):
            return Answer(
                Status.OUT_OF_BOUNDS.value, f"{doing}: {self.tilemap.outside(self.frame.from_grid(goal))}"
            ), None
        return Answer(Status.OK.value), goal

    def unit_of(self, key: int) -> Optional[Unit]:
        """The navigator's unit of a node the driver moves, None if it moves none under ``key``."""
        member = self._members.get(key)
        return member.unit if member is not None else None

    def key_of(self, unit: Unit) -> Optional[int]:
        """The key of the node whose unit this is, None for a unit this driver does not move."""
        key = self._keys.get(unit.id)
        return key if key is not None and self._members[key].unit is unit else None

    def state_of(self, key: int) -> str:
        """The unit's :class:`~pathing_py.units.UnitState` value ("MOVING", "ARRIVED", …); "" if not driven."""
        member = self._members.get(key)
        return member.unit.state.value if member is not None else ""

    def reason_of(self, key: int) -> str:
        """Why the unit stopped (HELD_UP, UNREACHABLE), or ""."""
        member = self._members.get(key)
        return member.unit.reason if member is not None else ""

    # -- the frame ----------------------------------------------------------------------

    def step(self, delta: float) -> List[Tuple[Any, float, float]]:
        """Advance all units by ``delta`` seconds; ``(node, x, y)`` in parent-local pixels for each node that moved.

        The frame's signals are queued for :meth:`signals`.
        """
        was_at_rest = self.navigator.at_rest
        self.navigator.update(delta)
        self._removed.clear()
        for unit_id, event, cell in self.navigator.events():
            self._queue(unit_id, event, cell)
        if was_at_rest:  # no unit moved
            return []
        return self._positions.moved(self.navigator.agents.position)

    def _queue(self, unit_id: int, event: str, cell: Cell) -> None:
        if event not in UNIT_SIGNALS:
            raise ValueError(f"the navigator sent an event PathUnit has no signal for: {event!r}")
        key = self._keys[unit_id]
        member = self._members[key]
        reason = member.unit.reason if event in REASON_SIGNALS else ""
        self._queued.append(
            UnitSignal(
                key, member.node, event, self.frame.from_grid(cell), self.world_centre(cell, member.unit.size), reason
            )
        )

    def world_centre(self, grid_cell: Cell, size: int = 1) -> Position:
        """The centre of a grid cell in world pixels (as signals give positions), or of the block of ``size``
        cells whose top-left cell it is (where a unit that large stands)."""
        return self._grid_to_world.apply(block_centre(grid_cell, size))

    def signals(self) -> Iterator[UnitSignal]:
        """The queued signals, oldest first, each taken off the queue as it is yielded.

        A signal handler may order units, edit the map or free a unit: the
        signals of a unit removed meanwhile are not yielded.
        """
        while self._queued:
            yield self._queued.popleft()

    # -- the map ------------------------------------------------------------------------

    def set_cell_blocked(self, cell, blocked: bool) -> CellEdit:
        """Block (or free) a TileMap cell in the grid; the edit names the tile the node paints there.

        Refused (``CELL_HELD``) when a unit holds the cell: try again later.
        """
        if self.painter.problem:
            return CellEdit(Status.NO_TILE.value, f"set_cell_blocked: {self.painter.problem}")
        try:
            x, y = finite_pair(cell, "cell")
        except CoordinateError as error:
            return CellEdit(Status.INVALID_POSITION.value, f"set_cell_blocked: {error}")
        tile_cell = (math.floor(x), math.floor(y))
        grid_cell = self.frame.to_grid(tile_cell)
        if not self.navigator.grid.in_bounds(grid_cell):
            return CellEdit(Status.OUT_OF_BOUNDS.value, f"set_cell_blocked: {self.tilemap.outside(tile_cell)}")
        stacked = self.tilemap.stacked
        if not blocked and stacked.still_blocks(grid_cell, self.painter.floor != EMPTY_TILE):
            return CellEdit(
                Status.NO_TILE.value,
                f"set_cell_blocked: TileMap cell {tile_cell} would have no tile in any "
                "layer once freed, and empty cells block (empty_cells_passable): name a floor_tile",
            )
        if self.navigator.set_blocked([grid_cell], bool(blocked)):
            holder = self.navigator.holder(grid_cell)
            assert holder is not None, "set_blocked refuses only cells a unit holds"
            return CellEdit(
                Status.CELL_HELD.value, f"set_cell_blocked: unit {self._keys[holder.id]} holds TileMap cell {tile_cell}"
            )
        cleared = () if blocked else stacked.clear_walls(grid_cell)
        return CellEdit(Status.OK.value, cell=tile_cell, tile=self.painter.tile(bool(blocked)), cleared_layers=cleared)
