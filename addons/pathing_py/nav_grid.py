"""NavGrid: the navigation grid of a TileMap, and path queries on it (SPEC E1).

Add a NavGrid next to a TileMap and point ``tilemap_path`` at it. When the
scene starts, the NavGrid reads the whole TileMap once (its ``tile_data`` and
the TileSet's collision shapes): cells whose tile has a collision shape, or
is named in ``blocking_tiles``, block units. Call ``rebuild()`` after
editing the TileMap.

``find_path(from, to)`` returns the centres of the cells to walk through,
pulled straight where the way is clear when ``smooth_paths`` is on; an empty
result comes with ``get_last_status()`` saying why (``UNREACHABLE``,
``GOAL_BLOCKED``, ``INVALID_POSITION``, …). Positions in and out are
TileMap-local, as ``TileMap.map_to_world``; use ``tilemap.to_local()`` for
global ones.

This script only reads Godot objects and converts Godot types; the work is
done in :mod:`pathing_py.godot_bridge`, which plain Python tests cover.
"""

import math

from godot import (
    Engine,
    Node2D,
    NodePath,
    PoolStringArray,
    PoolVector2Array,
    TileMap,
    TileSet,
    Vector2,
    exposed,
    export,
)

from pathing_py import godot_bridge as bridge


@exposed(tool=True)
class NavGrid(Node2D):
    """Navigation grid of a TileMap; ``tool`` so that the editor shows its configuration warnings."""

    tilemap_path = export(NodePath, default=NodePath("../TileMap"))
    blocking_tiles = export(PoolStringArray, default=PoolStringArray())
    empty_cells_passable = export(bool, default=True)
    smooth_paths = export(bool, default=True)

    #: Outcome of the last build or query: a ``PathStatus`` name or a ``bridge.STATUS_*`` value.
    last_status = bridge.STATUS_NO_GRID
    _navigator = None

    def _ready(self) -> None:
        if not Engine.is_editor_hint():
            self.rebuild()

    def _get_configuration_warning(self) -> str:
        return self._tilemap_problem()

    def rebuild(self) -> bool:
        """Read the whole TileMap again (one batched read); False if it cannot be read."""
        problem = self._tilemap_problem()
        if problem:
            self._navigator = None
            self._fail(bridge.STATUS_NO_GRID, problem)
            return False
        tilemap: TileMap = self.get_node(self.tilemap_path)
        tileset: TileSet = tilemap.get_tileset()
        tiles = [self._tile_info(tileset, tile_id) for tile_id in tileset.get_tiles_ids()]
        cell_size = tilemap.get_cell_size()
        try:
            self._navigator = bridge.TileMapNavigator.from_tilemap(
                tilemap.get("tile_data"),
                (cell_size.x, cell_size.y),
                tiles,
                blocking=[str(name) for name in self.blocking_tiles],
                empty_passable=bool(self.empty_cells_passable),
            )
        except ValueError as error:  # e.g. an empty TileMap, or blocking names no tile has
            self._navigator = None
            self._fail(bridge.STATUS_NO_GRID, f"cannot read the TileMap: {error}")
            return False
        self.last_status = bridge.STATUS_BUILT
        return True

    def find_path(self, from_position: Vector2, to_position: Vector2) -> PoolVector2Array:
        """Centres of the cells from ``from_position`` to ``to_position``; empty if there is no path.

        ``get_last_status()`` tells why a path is empty.
        """
        if self._navigator is None and not self.rebuild():
            return PoolVector2Array()
        answer = self._navigator.find_path(
            (from_position.x, from_position.y), (to_position.x, to_position.y), smooth=bool(self.smooth_paths)
        )
        self.last_status = answer.status
        if answer.status == bridge.STATUS_INVALID_POSITION:
            bridge.report_error(str(self.get_name()), answer.message)
        return PoolVector2Array([Vector2(x, y) for x, y in answer.points])

    def world_to_cell(self, position: Vector2) -> Vector2:
        """The TileMap cell containing a TileMap-local position; (NaN, NaN) for a non-finite one."""
        if self._navigator is None and not self.rebuild():
            return Vector2(math.nan, math.nan)
        try:
            x, y = self._navigator.cell_of((position.x, position.y))
        except bridge.CoordinateError as error:
            self._fail(bridge.STATUS_INVALID_POSITION, str(error))
            return Vector2(math.nan, math.nan)
        return Vector2(x, y)

    def cell_to_world(self, cell: Vector2) -> Vector2:
        """The TileMap-local centre of a TileMap cell; (NaN, NaN) for a non-finite cell."""
        if self._navigator is None and not self.rebuild():
            return Vector2(math.nan, math.nan)
        try:
            x, y = self._navigator.centre_of((cell.x, cell.y))
        except bridge.CoordinateError as error:
            self._fail(bridge.STATUS_INVALID_POSITION, str(error))
            return Vector2(math.nan, math.nan)
        return Vector2(x, y)

    def get_last_status(self) -> str:
        """``last_status`` for GDScript callers."""
        return self.last_status

    def _tilemap_problem(self) -> str:
        path = str(self.tilemap_path)
        node = self.get_node_or_null(self.tilemap_path) if path else None
        if node is None or not node.is_class("TileMap"):
            return bridge.tilemap_problem(path, None if node is None else str(node.get_class()))
        tilemap: TileMap = node
        return bridge.tilemap_problem(
            path,
            "TileMap",
            has_tileset=tilemap.get_tileset() is not None,
            mode=tilemap.get_mode(),
            half_offset=tilemap.get_half_offset(),
        )

    def _tile_info(self, tileset: TileSet, tile_id: int) -> bridge.TileInfo:
        shapes = tileset.tile_get_shapes(tile_id)
        coords = [shape["autotile_coord"] for shape in shapes if shape["shape"] is not None]
        return bridge.TileInfo(
            tile_id,
            str(tileset.tile_get_name(tile_id)),
            tileset.tile_get_tile_mode(tile_id),
            [(coord.x, coord.y) for coord in coords],
        )

    def _fail(self, status: str, message: str) -> None:
        self.last_status = status
        bridge.report_error(str(self.get_name()), message)
