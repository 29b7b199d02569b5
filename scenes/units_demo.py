"""The units demo: six PathUnits cross the map between the two bases while walls go up on their routes.

Each PathUnit under ``Units`` is sent to the TileMap cell of the same index in
``targets``. When ``WallTimer`` times out (3 s in, the units mid-way), the
NavGrid blocks ``wall_cells`` (the northern ford and a wall across the
eastern approach), trying again every ``WALL_RETRY`` seconds where a unit
stands; the units splice their routes around the new walls. How each unit's
trip ends is printed.
"""

from godot import Array, Node, Node2D, PoolVector2Array, TileMap, Timer, Vector2, export, exposed

from pathing_py.godot.bridge import signed_int

#: Seconds between attempts to place the walls that units were standing on.
WALL_RETRY = 0.25


@exposed
class UnitsDemo(Node2D):
    #: TileMap cells, one per child of Units, in order.
    targets = export(PoolVector2Array, default=PoolVector2Array())
    #: TileMap cells the wall timer blocks.
    wall_cells = export(PoolVector2Array, default=PoolVector2Array())

    _walls_left = None  # cells of wall_cells not blocked yet

    def _ready(self) -> None:
        navgrid: "NavGrid" = self.get_node("Demo/NavGrid")
        tilemap: TileMap = self.get_node("Demo/TileMap")
        squad: Node = self.get_node("Units")
        unit: "PathUnit"
        for index in range(signed_int(squad.get_child_count())):
            unit = squad.get_child(index)
            name = str(unit.get_name())
            unit.connect("arrived", self, "_on_unit_arrived", Array([name]))
            unit.connect("held_up", self, "_on_unit_stopped", Array([name]))
            unit.connect("unreachable", self, "_on_unit_stopped", Array([name]))
            unit.call("move_to", tilemap.to_global(navgrid.call("cell_to_world", self.targets[index])))
        self._walls_left = list(self.wall_cells)

    def _on_wall_timer_timeout(self) -> None:
        navgrid: "NavGrid" = self.get_node("Demo/NavGrid")
        self._walls_left = [cell for cell in self._walls_left if not navgrid.call("set_cell_blocked", cell, True)]
        if self._walls_left:
            timer: Timer = self.get_node("WallTimer")
            timer.start(WALL_RETRY)

    def _on_unit_arrived(self, cell: Vector2, position: Vector2, name: str) -> None:
        print(f"{str(name)}: arrived at TileMap cell ({cell.x:.0f}, {cell.y:.0f})")

    def _on_unit_stopped(self, cell: Vector2, position: Vector2, reason: str, name: str) -> None:
        print(f"{str(name)}: stopped at TileMap cell ({cell.x:.0f}, {cell.y:.0f}): {str(reason)}")
