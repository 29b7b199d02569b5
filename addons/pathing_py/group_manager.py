"""GroupManager: orders a selection of PathUnits as one group, in formation if asked, and says when it
has arrived (SPEC E1, E2, F1-F5).

Add a GroupManager to the scene and point ``nav_grid_path`` at the NavGrid
that moves the units. ``order_move(units, world_target)`` sends an Array of
PathUnits (the player's selection) to the TileMap cell containing a global
position (as ``get_global_mouse_position()`` gives) as a new group: one
member (the commander) plans the route, the others walk it beside it to the
free cells around the target, all at the slowest member's speed. The
selection is the group, as in RTS games: units ordered again leave their old
group for the new one.

``order_formation(shape)`` sets ``formation`` and has the manager's groups
take it where they stand: each forms anew and goes on with its order.

``order_move`` returns "OK" or why the order was refused, with one error line
on stderr; a refused order moves no unit: ``EMPTY_SELECTION``, ``NOT_DRIVEN``
(an item that is not a PathUnit of the NavGrid, or no NavGrid at
``nav_grid_path``), ``INVALID_POSITION`` (NaN or infinite target),
``OUT_OF_BOUNDS`` (target off the map), ``INVALID_SETTINGS`` (unknown
``cohesion`` or ``formation``, ``spacing`` below 1). ``get_last_status()``
gives the last one.

Exported: ``nav_grid_path``; read at each order: ``cohesion``: ``speed``
(one speed, each member on a route of its own), ``route`` (one speed and the
commander's route) or ``arrival`` (one route, and the front slows down so
that the group arrives together); ``formation``: ``none``, ``line``,
``column``, ``box`` or ``wedge`` (the group forms first, then marches in
shape to its slots around the target); ``spacing``: cells between slots (2
marches at full speed; at 1 units hold neighbouring cells and move in waves).

Signals, emitted by the NavGrid in its physics frame for the frame's events,
after its PathUnits' signals (group ids count from 1 for each NavGrid and stay
when the NavGrid reads its TileMap again):

- ``group_ordered(group_id, cell, position)``: an order was accepted; ``cell``
  is its TileMap cell, ``position`` that cell's centre in global pixels;
- ``group_arrived(group_id, arrived, members)``: every member has stopped:
  ``arrived`` of its ``members`` stand in their cells (the others are blocked
  or unreachable: see their PathUnits' signals);
- ``member_lost(group_id, reason)``: a member left the tree or the map; a
  group that lost every member is gone;
- ``formation_forming(group_id, detail)``, ``formation_formed(group_id, detail)``:
  the group forms (detail: the shape) and is formed (the shape, or the TileMap
  cell past which it is whole again after breaking);
- ``formation_scaled``, ``formation_halved``, ``formation_broken`` ``(group_id, cell)``:
  the front reaches a place the shape does not fit, and the shape draws its slots
  in, parts around an obstacle, or breaks to file through (detail: the TileMap cell);
- ``waiting_for_turn(group_id, detail)``: the group's members hold before a
  narrow passage (a bridge, a corridor) until the group coming the other way
  is through, once a passage (detail: the TileMap cell where they hold).

The NavGrid keeps the groups and does the work (:mod:`pathing_py.godot.groups`,
which plain Python tests cover); this script converts and forwards.
"""

from godot import Array, Engine, Node, NodePath, PropertyHint, Vector2, export, exposed, signal

from pathing_py.godot import groups
from pathing_py.godot.bridge import keep_script_loaded, report_error
from pathing_py.godot.nav_grid_link import NavGridLink
from pathing_py.godot.node_properties import NodeProperties
from pathing_py.status import Status


@exposed(tool=True)
class GroupManager(NodeProperties, NavGridLink, Node):  # NodeProperties first: see its module
    """Orders groups of PathUnits; ``tool`` so that the editor shows its configuration warnings."""

    # Each signal's ``#:`` line starts with its arguments (docs/nodes.md is made from them); cells are TileMap
    # cells, positions global pixels (Vector2).
    #: (group_id, cell, position) an order was accepted
    group_ordered = signal("group_ordered")
    #: (group_id, arrived, members) every member stopped, `arrived` of them at their cells
    group_arrived = signal("group_arrived")
    #: (group_id, reason) a member left the tree or the map
    member_lost = signal("member_lost")
    #: (group_id, detail) the group forms up (detail: the shape)
    formation_forming = signal("formation_forming")
    #: (group_id, detail) every member stands in its slot
    formation_formed = signal("formation_formed")
    #: (group_id, cell) the shape does not fit at `cell`: its slots draw in
    formation_scaled = signal("formation_scaled")
    #: (group_id, cell) the shape parts around an obstacle at `cell`
    formation_halved = signal("formation_halved")
    #: (group_id, cell) the members file through at `cell` and form again past it
    formation_broken = signal("formation_broken")
    #: (group_id, cell) the group holds before a narrow passage for a group coming the other way
    waiting_for_turn = signal("waiting_for_turn")

    #: The NavGrid that moves the units of its orders.
    nav_grid_path = export(NodePath, default=NodePath("../NavGrid"))
    #: How a group keeps together: `speed`, `route` (one route for all) or `arrival` (they arrive together).
    cohesion = export(str, default="route", hint=PropertyHint.ENUM, hint_string="speed,route,arrival")
    #: The shape of its groups: `none`, `line`, `column`, `box` or `wedge`.
    formation = export(str, default="none", hint=PropertyHint.ENUM, hint_string="none,line,column,box,wedge")
    #: Cells between formation slots; 2 marches at full speed.
    spacing = export(float, default=1.0)

    #: Outcome of the last order: "OK" or why not; "" before the first.
    last_status = ""

    def _ready(self) -> None:
        keep_script_loaded("GroupManager", self.get_script())  # pythonscript 0.50 cannot load it twice

    def _exit_tree(self) -> None:
        if Engine.is_editor_hint():
            return
        navgrid: "NavGrid" = self._navgrid()
        if navgrid is not None:
            navgrid.call("remove_group_manager", self)

    def _get_configuration_warning(self) -> str:
        path, found = self._navgrid_found()
        return groups.manager_problem(path, found, self.get)

    def order_move(self, units: Array, world_target: Vector2) -> str:
        """Send the PathUnits of ``units`` to the cell containing a global position as a new group; "OK" or why not."""
        navgrid: "NavGrid" = self._navgrid_or_refusal(groups.ORDER)
        if navgrid is not None:
            self.last_status = str(navgrid.call("order_group", self, units, world_target))
        return self.last_status

    def order_formation(self, shape: str) -> str:
        """Set ``formation`` to ``shape`` and have this manager's groups take it where they stand (each
        forms anew and goes on with its order); "OK" or why not (then nothing changes)."""
        navgrid: "NavGrid" = self._navgrid_or_refusal(groups.FORMATION_ORDER)
        if navgrid is not None:
            before, self.formation = self.formation, str(shape)
            self.last_status = str(navgrid.call("reform_groups", self))
            if self.last_status != Status.OK.value:
                self.formation = before
        return self.last_status

    def _navgrid_or_refusal(self, method: str) -> "NavGrid":
        """The NavGrid, or None with last_status NOT_DRIVEN and the reason printed."""
        navgrid: "NavGrid" = self._navgrid()
        if navgrid is None:
            self.last_status = Status.NOT_DRIVEN.value
            path, found = self._navgrid_found()
            report_error(str(self.get_name()), f"{method}: {groups.manager_problem(path, found, self.get)}")
        return navgrid

    def get_last_status(self) -> str:
        """``last_status`` for GDScript callers."""
        return self.last_status
