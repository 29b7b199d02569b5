"""PathUnit: a unit that walks where it is sent, around walls and other units (SPEC E1, E2).

Add PathUnits (with a Sprite or Polygon2D child to show them) anywhere in the
scene and point ``nav_grid_path`` at the NavGrid of their map. A PathUnit
joins its NavGrid when it is ready, standing in the TileMap cell under it,
and from then on the NavGrid moves it: all units in one call per physics
frame, so a PathUnit has no ``_physics_process`` of its own. The unit holds
the cells it stands in and steps into, never overlaps another unit, and
re-plans around walls that appear on its way (``NavGrid.set_cell_blocked``).

``move_to(world_position)`` sends it to the cell containing a global
position (as ``get_global_mouse_position()`` gives); it returns False when
the order is refused, with ``get_last_status()`` saying why
(``INVALID_POSITION`` for NaN, ``OUT_OF_BOUNDS``, ``NOT_DRIVEN``, …).
``get_state()`` gives ``IDLE``, ``FIND_PATH``, ``RUN``, ``MOVING``,
``WAITING``, or how the last order ended: ``ARRIVED``, ``HELD_UP`` (other
units keep the way shut), ``UNREACHABLE`` (walls do), with ``get_reason()``
saying why for the last two (the cells it names are TileMap cells, other
units are named by their instance id: ``instance_from_id()``). Every status
name is one of :class:`pathing_py.status.Status`; the signals of the final
states are their names in lower case.

Signals (``cell`` is a TileMap cell, ``position`` its centre in global pixels):

- ``path_found(cell, position)``: a route was planned to ``cell``, the goal or,
  if the goal cannot be reached, the reachable cell nearest to it;
- ``waypoint_reached(cell, position)``: a waypoint of the route (a key point of
  the NavGrid's graph, or the goal) was reached; ``cell`` is where the unit
  stands (a group member passes its group's key points aside);
- ``waiting_for_turn(cell, position)``: the unit holds at ``cell`` before a
  long narrow passage (a corridor, bridge or canyon at most 3 cells across)
  until no one is coming the other way through it; once a hold;
- ``arrived(cell, position)``: the unit stands in its goal cell;
- ``held_up(cell, position, reason)``: the unit stopped at ``cell`` because
  units keep the way or the goal shut;
- ``unreachable(cell, position, reason)``: the goal cannot be reached; the
  unit stopped at the reachable cell nearest to it.

Exported: ``speed`` in cells per second, ``radius`` in cells (up to 0.5 a
unit holds one cell; a larger one stands on a square of cells, 2x2 up to
radius 1, and is only routed where that square fits; at most 4),
``priority`` (who waits for whom, higher goes first). A unit larger than a
cell is sent to the square whose centre is nearest the position it is
given, and its signals give that square's top-left cell and centre; the
first plan of a size bakes that size's key-point graph (about as long as
the NavGrid's own bake, once).
Position, speed and the like are read when the unit joins.
"""

from godot import Engine, Node2D, NodePath, Vector2, export, exposed, signal

from pathing_py.godot import units
from pathing_py.godot.bridge import keep_script_loaded, report_error
from pathing_py.godot.nav_grid_link import NavGridLink
from pathing_py.godot.node_properties import NodeProperties
from pathing_py.status import Status


@exposed(tool=True)
class PathUnit(NodeProperties, NavGridLink, Node2D):  # NodeProperties first: see its module
    """A unit moved by its NavGrid; ``tool`` so that the editor shows its configuration warnings."""

    # Each signal's ``#:`` line starts with its arguments (docs/nodes.md is made from them): a TileMap cell
    # and its centre in global pixels, as Vector2.
    #: (cell, position) a route was planned: to the goal, or to the reachable cell nearest it
    path_found = signal("path_found")
    #: (cell, position) a key point of the route, or the goal, was reached
    waypoint_reached = signal("waypoint_reached")
    #: (cell, position) it holds before a narrow passage until no one comes the other way
    waiting_for_turn = signal("waiting_for_turn")
    #: (cell, position) it stands in its goal cell
    arrived = signal("arrived")
    #: (cell, position, reason) it stopped: other units keep its way or goal shut
    held_up = signal("held_up")
    #: (cell, position, reason) walls cut the goal off: it stopped at the reachable cell nearest it
    unreachable = signal("unreachable")

    #: The NavGrid that moves this unit.
    nav_grid_path = export(NodePath, default=NodePath("../NavGrid"))
    #: Cells per second (the NavGrid's TileMap cells, whatever their size in pixels).
    speed = export(float, default=4.0)
    #: Cells, in (0, 4]: above 0.5 the unit stands on a square of cells (SPEC G4).
    radius = export(float, default=0.5)
    #: Who gives way to whom: the higher keeps its way.
    priority = export(int, default=0)

    #: Outcome of joining the NavGrid or of the last order: ``OK`` or why not (:class:`pathing_py.status.Status`).
    last_status = Status.NOT_DRIVEN.value
    _was_ready = False

    def _ready(self) -> None:
        keep_script_loaded("PathUnit", self.get_script())  # pythonscript 0.50 cannot load it twice
        self._was_ready = True
        if not Engine.is_editor_hint():
            self._join()

    def _enter_tree(self) -> None:
        if self._was_ready and not Engine.is_editor_hint():  # back in the tree after leaving it
            self._join()

    def _exit_tree(self) -> None:
        if Engine.is_editor_hint():
            return
        navgrid: "NavGrid" = self._navgrid()
        if navgrid is not None:
            navgrid.call("remove_path_unit", self)

    def _get_configuration_warning(self) -> str:
        return self._problem()

    def _problem(self) -> str:
        """Why this unit cannot be driven as configured, or ""."""
        path, found = self._navgrid_found()
        return units.unit_problem(path, found, speed=self.speed, radius=self.radius)

    def _join(self) -> None:
        navgrid: "NavGrid" = self._navgrid()
        if navgrid is None:
            self._not_driven("")
            return
        self.last_status = str(navgrid.call("add_path_unit", self))

    def _not_driven(self, doing: str) -> None:
        """No NavGrid to drive this unit: the status, and one error line saying why."""
        self.last_status = Status.NOT_DRIVEN.value
        report_error(str(self.get_name()), doing + self._problem())

    def move_to(self, world_position: Vector2) -> bool:
        """Send the unit to the cell containing a global position, out of its group if it is in one; False if
        refused (see ``get_last_status()``)."""
        navgrid: "NavGrid" = self._navgrid()
        if navgrid is None:
            self._not_driven("move_to: ")
            return False
        self.last_status = str(navgrid.call("order_path_unit", self, world_position))
        return self.last_status == Status.OK.value

    def get_state(self) -> str:
        """The unit's state (``MOVING``, ``ARRIVED``, …); "" while no NavGrid moves it."""
        navgrid: "NavGrid" = self._navgrid()
        return str(navgrid.call("path_unit_state", self)) if navgrid is not None else ""

    def get_reason(self) -> str:
        """Why the unit stopped (``HELD_UP``, ``UNREACHABLE``), or ""."""
        navgrid: "NavGrid" = self._navgrid()
        return str(navgrid.call("path_unit_reason", self)) if navgrid is not None else ""

    def get_last_status(self) -> str:
        """``last_status`` for GDScript callers."""
        return self.last_status
