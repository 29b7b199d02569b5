"""GroupManager: orders a selection of PathUnits as one group, and says when the group has arrived (SPEC E1, E2, F1, F2).

Add a GroupManager to the scene and point ``nav_grid_path`` at the NavGrid
that moves the units. ``order_move(units, world_target)`` sends an Array of
PathUnits (the player's selection) to the TileMap cell containing a global
position (as ``get_global_mouse_position()`` gives) as a new group: one
member (the commander) plans the route, the others walk it beside it to the
free cells around the target, all at the slowest member's speed. The
selection is the group, as in RTS games: units ordered again leave their old
group for the new one.

``order_move`` returns "OK" or why the order was refused, with one error line
on stderr; a refused order moves no unit: ``EMPTY_SELECTION``, ``NOT_DRIVEN``
(an item that is not a PathUnit of the NavGrid, or no NavGrid at
``nav_grid_path``), ``INVALID_POSITION`` (NaN or infinite target),
``OUT_OF_BOUNDS`` (target off the map), ``INVALID_SETTINGS`` (unknown
``cohesion``). ``get_last_status()`` gives the last one.

Exported: ``nav_grid_path``; ``cohesion``, read at each order: ``speed``
(one speed, each member on a route of its own), ``route`` (one speed and the
commander's route) or ``arrival`` (one route, and the front slows down so
that the group arrives together).

Signals, emitted once per physics frame for the frame's events (group ids
count from 1 for each NavGrid and stay when the NavGrid reads its TileMap
again):

- ``group_ordered(group_id, cell, position)``: an order was accepted; ``cell``
  is its TileMap cell, ``position`` that cell's centre in global pixels;
- ``group_arrived(group_id, arrived, members)``: every member has stopped:
  ``arrived`` of its ``members`` stand in their cells (the others are blocked
  or unreachable: see their PathUnits' signals);
- ``member_lost(group_id, reason)``: a member left the tree or the map; a
  group that lost every member is gone.

The NavGrid keeps the groups and does the work (:mod:`pathing_py.godot.groups`,
which plain Python tests cover); this script converts and forwards.
"""

from godot import Array, Engine, Node, NodePath, PropertyHint, Vector2, exposed, export, signal

from pathing_py.godot import groups
from pathing_py.godot.bridge import keep_script_loaded, report_error
from pathing_py.godot.nav_grid_link import NavGridLink
from pathing_py.godot.node_properties import NodeProperties
from pathing_py.godot.units import STATUS_NOT_DRIVEN


@exposed(tool=True)
class GroupManager(NodeProperties, NavGridLink, Node):  # NodeProperties first: see its module
    """Orders groups of PathUnits; ``tool`` so that the editor shows its configuration warnings."""

    group_ordered = signal("group_ordered")
    group_arrived = signal("group_arrived")
    member_lost = signal("member_lost")

    nav_grid_path = export(NodePath, default=NodePath("../NavGrid"))
    cohesion = export(str, default="route", hint=PropertyHint.ENUM, hint_string="speed,route,arrival")

    #: Outcome of the last order: "OK" or why not; "" before the first.
    last_status = ""

    def _ready(self) -> None:
        keep_script_loaded("GroupManager", self.get_script())  # pythonscript 0.50 cannot load it twice
        self.set_physics_process(not Engine.is_editor_hint())

    def _exit_tree(self) -> None:
        if Engine.is_editor_hint():
            return
        navgrid: "NavGrid" = self._navgrid()
        if navgrid is not None:
            navgrid.call("remove_group_manager", self)

    def _get_configuration_warning(self) -> str:
        path, found = self._navgrid_found()
        return groups.manager_problem(path, found, self.get)

    def _physics_process(self, delta: float) -> None:
        """Emit the signals of this manager's groups that the NavGrid's last frames gave."""
        navgrid: "NavGrid" = self._navgrid()
        if navgrid is None:
            return
        for emitted in navgrid.call("take_group_signals", self):
            self.call("emit_signal", *emitted)

    def order_move(self, units: Array, world_target: Vector2) -> str:
        """Send the PathUnits of ``units`` to the cell containing a global position as a new group; "OK" or why not."""
        navgrid: "NavGrid" = self._navgrid()
        if navgrid is None:
            self.last_status = STATUS_NOT_DRIVEN
            path, found = self._navgrid_found()
            report_error(str(self.get_name()), f"{groups.ORDER}: {groups.manager_problem(path, found, self.get)}")
            return self.last_status
        self.last_status = str(navgrid.call("order_group", self, units, world_target))
        return self.last_status

    def get_last_status(self) -> str:
        """``last_status`` for GDScript callers."""
        return self.last_status
