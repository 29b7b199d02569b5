"""NavGrid: the navigation grid of a TileMap, its key-point graph, and path queries (SPEC E1, E3).

Add a NavGrid next to a TileMap and point ``tilemap_path`` at it. When the
scene starts, the NavGrid reads the whole TileMap once (its ``tile_data`` and
the TileSet's collision shapes): cells whose tile has a collision shape, or
is named in ``blocking_tiles``, block units. The map is the TileMap's painted
(used) rectangle, or ``bounds`` (a rectangle of TileMap cells: position and
size) for games that paint only obstacles on a map of known size; the editor
draws the bounds over the map. Tile ids the TileSet lacks are read as the
engine loads them: tiles without collision. A TileSet with named tiles but
no collision shape at all, and no ``blocking_tiles``, would block nothing:
the NavGrid says so (configuration warning, and one line when the game
starts), as the ``pathing-py`` command does.

Painting at run time: the NavGrid does not watch the TileMap. A game that
paints cells itself (``TileMap.set_cell`` on the TileMap or a layer) names
them afterwards, once after a batch: ``cells_painted(cells)`` reads just those
cells of every layer again and blocks or frees them as ``set_cell_blocked``
does (graph patched, only the units whose routes cross them plan again).
``rebuild()`` reads everything again: after painting beyond the map's
rectangle, or changing the TileSet; when only cells changed, the grid, its
graph and the units follow those cells (no re-bake). ``wall_tile``,
``floor_tile`` set from code take effect at once.

Layers: Godot 3 has no layers inside a TileMap, so games stack TileMaps (a
floor, the walls above it). ``layer_paths`` lists the TileMaps stacked on the
one of ``tilemap_path``: they are read together, and a cell blocks where any
layer's tile blocks (a collision shape, or a name in ``blocking_tiles``), is
walkable where some layer has a tile and none blocks, and follows
``empty_cells_passable`` where no layer has a tile; the map covers every
layer's used rectangle (or ``bounds``). The layers must lie on the same cells
as the TileMap (the same mode, cell size and transform): anything else is a
configuration warning, and at run time the NavGrid has no grid and says why.
``rebuild()`` reads every layer again; ``set_cell_blocked`` paints on the
TileMap of ``tilemap_path`` and, freeing a cell, clears the layers' blocking
tiles there.

Key-point graph: select the NavGrid in the editor and press "Bake key-point
graph" in the 2D toolbar. The graph is baked on a worker thread (a progress
bar moves; the editor stays usable), written next to the scene as
``<scene name>.kpg`` and named in ``graph_path``; ``show_graph`` draws its
clusters, key points and edges over the map. At run time the NavGrid loads
that file against the grid it read; if the file is missing, damaged or was
baked from another map, it bakes a graph in memory and says so on stderr.
Paths then come from the graph; with an empty ``graph_path``, from the exact
search.

Units: PathUnit nodes whose ``nav_grid_path`` points here join when they are
ready; the NavGrid moves all of them in its ``_physics_process`` (one call per
physics frame, not one per unit), sets each moved node's position and emits
the units' signals. GroupManagers order groups of its PathUnits through it
(``order_group``): the NavGrid keeps the groups, which steer its units and
survive a ``rebuild()``, and emits each manager's signals on it in the same
frame, after the units' (no manager has a frame callback of its own: 50 of
them taking their signals each frame cost nearly as much as the navigation).
``set_cell_blocked(cell, blocked)`` puts a
wall up (or takes one down) for the units and on the TileMap together, painting
``wall_tile`` or ``floor_tile`` (no tile when ``floor_tile`` is empty); it is
refused while a unit holds the cell. Path planning for units is spread over
frames, ``plan_budget_ms`` a frame (0: every request at once). A unit whose
goal the map cuts off stops ``UNREACHABLE`` (or ``HELD_UP``) at the nearest
cell it can reach; when a wall comes down (``set_cell_blocked`` or a
``rebuild()``) within ``retry_time`` seconds and opens a way, it goes on
(``path_found`` again, then ``arrived``).

Debug drawing (SPEC E4): with ``debug_draw`` on (off by default; a game
toggles it at run time), the NavGrid draws over the map, redrawn every physics
frame while on: the graph's key points, each unit's route ahead and where it
will be over the next second, the cells it holds and the one it moves into in
the colour of how it is doing (moving, waiting, making way, held up or
unreachable, standing), and each group's slot cells where it forms and at its target.

``connectivity`` says how units move from cell to cell: 8 (the default:
diagonal steps too, but never across a blocked cell's corner) or 4 (straight
steps only, for games that move in four directions); paths, units and the
baked graph all follow it, and a graph baked for the other one is baked again.

``is_cell_blocked(cell)`` tells whether units can enter a TileMap cell.
``find_path(from, to)`` returns the centres of the cells to walk through,
pulled straight where the way is clear when ``smooth_paths`` is on; an empty
result comes with ``get_last_status()`` saying why (``UNREACHABLE``,
``GOAL_BLOCKED``, ``INVALID_POSITION``, …). Positions in and out are
TileMap-local, as ``TileMap.map_to_world``; use ``tilemap.to_local()`` for
global ones. Square, isometric and custom TileMaps are navigated (a cell's
position is the centre of the cell ``world_to_map`` finds), and half-offset
(hexagonal) ones too: their paths step between the six neighbours of each cell
(smoothed along hex lines; their key-point graph follows the same six steps), and PathUnits and GroupManagers cannot
move on them yet (a unit joining one is refused, ``NOT_DRIVEN``, saying why).

This script only reads Godot objects and converts Godot types; the work is
done in :mod:`pathing_py.godot.bridge`, :mod:`pathing_py.godot.editor`,
:mod:`pathing_py.godot.units` and :mod:`pathing_py.godot.debug_drawing`, which
plain Python tests cover.
"""

import math
import time
from typing import Callable, Optional, Tuple

from godot import (
    Array,
    Color,
    Engine,
    Node2D,
    NodePath,
    Object,
    PoolRealArray,
    PoolStringArray,
    PoolVector2Array,
    ProjectSettings,
    PropertyHint,
    Rect2,
    TileMap,
    TileSet,
    Transform2D,
    Vector2,
    export,
    exposed,
    signal,
)
from godot.bindings import _File

from pathing_py.godot import bridge, debug_drawing, editor, groups, painted_cells, units
from pathing_py.godot.node_properties import NodeProperties
from pathing_py.godot.scene_files import navgrid_bounds
from pathing_py.godot.tile_data import CellRect
from pathing_py.godot.tile_geometry import GeometryError, TileGeometry
from pathing_py.godot.tile_layers import layer_difference, layer_node_problem
from pathing_py.grid import check_connectivity
from pathing_py.status import Status

#: Colours of the graph drawing.
CLUSTER_COLOR = Color(1.0, 1.0, 1.0, 0.35)
INSIDE_EDGE_COLOR = Color(0.3, 0.8, 1.0, 0.6)
BORDER_EDGE_COLOR = Color(1.0, 0.75, 0.2, 0.9)
KEY_POINT_COLOR = Color(1.0, 0.3, 0.3, 1.0)
GRAPH_LINE_WIDTH = 1.0  #: pixels
#: Colour and width (pixels) of the bounds outline in the editor.
BOUNDS_COLOR = Color(0.2, 1.0, 0.4, 0.9)
BOUNDS_WIDTH = 2.0
#: Godot's ``Variant.Type`` of a NodePath: the inspector edits ``layer_paths`` as an array of them.
NODE_PATH_TYPE = 15


def read_project_file(path: str) -> Optional[bytes]:
    """The bytes of a ``res://`` file, None if it cannot be opened.

    Godot's File reads the project folder in the editor and the .pck of an
    exported game alike; Python's ``open`` only sees the former.
    """
    file = _File()
    if file.open(path, _File.READ) != bridge.GODOT_OK:
        return None
    data = bytes(file.get_buffer(bridge.signed_int(file.get_len())))
    file.close()
    return data


def node_key(node: Object) -> int:
    """How the NavGrid knows a PathUnit or a GroupManager: its instance id (as reasons name units)."""
    return bridge.signed_int(node.get_instance_id())


def transform_points(transform: Transform2D) -> units.TransformPoints:
    """A Transform2D as plain Python: pythonscript 0.50's Transform2D has ``xform`` but no axis properties."""
    images = [transform.xform(Vector2(x, y)) for x, y in ((0, 0), (1, 0), (0, 1))]
    return tuple((image.x, image.y) for image in images)


def tilemap_geometry(tilemap: TileMap) -> TileGeometry:
    """Where the TileMap's cells lie; the custom transform's axes are read exactly (no arithmetic on them).

    GeometryError for settings that cannot place cells (a flat custom transform).
    """
    custom: Transform2D = tilemap.get_custom_transform()
    axes = (custom.basis_xform(Vector2(1, 0)), custom.basis_xform(Vector2(0, 1)), custom.xform(Vector2(0, 0)))
    cell_size = tilemap.get_cell_size()
    return TileGeometry(
        mode=bridge.signed_int(tilemap.get_mode()),
        cell_size=(cell_size.x, cell_size.y),
        custom_transform=tuple((axis.x, axis.y) for axis in axes),
        half_offset=bridge.signed_int(tilemap.get_half_offset()),
        tile_origin=bridge.signed_int(tilemap.get_tile_origin()),
    )


@exposed(tool=True)
class NavGrid(NodeProperties, Node2D):  # NodeProperties first: see its module
    """Navigation grid of a TileMap; ``tool`` so that the editor shows its warnings, bakes and draws its graph."""

    # Each signal's ``#:`` line starts with its arguments (docs/nodes.md is made from them).
    #: (fraction) in the editor, once a frame of a bake: the fraction done (0.0 to 1.0)
    bake_progressed = signal("bake_progressed")
    #: (path, message) a bake ended: the `res://` path of the graph written (`""` if it failed), how it went
    bake_finished = signal("bake_finished")

    #: The TileMap to navigate.
    tilemap_path = export(NodePath, default=NodePath("../TileMap"))
    #: Names of tiles that block whatever their collision shapes.
    blocking_tiles = export(PoolStringArray, default=PoolStringArray())
    #: Whether cells that hold no tile (in any layer) are walkable.
    empty_cells_passable = export(bool, default=True)
    #: Whether find_path pulls its paths straight where the way is clear.
    smooth_paths = export(bool, default=True)
    #: Side of the key-point graph's clusters in cells; 0 lets the bake choose from the map size.
    cluster_size = export(int, default=0)
    #: Milliseconds of unit path planning per physics frame; 0 plans every request at once.
    plan_budget_ms = export(float, default=2.0)
    #: Seconds a unit that stopped short of a goal the map cut off goes on as soon as a way opens; 0: never.
    retry_time = export(float, default=30.0)

    #: Outcome of the last build or query: a :class:`pathing_py.status.Status` name.
    last_status = Status.NO_GRID.value
    _navigator = None
    _graph_path = ""
    _show_graph = False
    _debug_draw = False
    _bounds = Rect2(0, 0, 0, 0)
    _connectivity = 8
    _wall_tile = ""
    _floor_tile = ""
    _layer_paths = None  # Array of NodePaths, made for each node by the getter or setter
    _graph_warning = ""  # why the graph file was not used as is: shown as a configuration warning
    _read_problem = ""  # why the TileMap could not be read last time: reported once, shown as a warning
    _collision_told = False  # whether the game was told that no tile blocks (once a run)
    _bounds_told = False  # whether the game was told where the map ends, at its first path query off it (once a run)
    _drawing = None  # editor.GraphDrawing of the navigator's graph, made on the first _draw
    _bake = None  # editor.BakeJob while a bake runs
    _painter = None  # units.TilePainter: the tiles set_cell_blocked paints
    _units = None  # units.UnitDriver: the PathUnits this NavGrid moves
    _groups = None  # groups.GroupDriver: the groups of those units that GroupManagers ordered
    _frame_seconds: Tuple[float, float, float] = (0.0, 0.0, 0.0)  # the last frame's navigation, node sync, signals

    @export(str, default="", hint=PropertyHint.FILE, hint_string="*.kpg")
    @property
    def graph_path(self) -> str:
        """The baked key-point graph (``res://….kpg``); "" to use the exact search only."""
        return self._graph_path

    @graph_path.setter
    def graph_path(self, value) -> None:
        self._graph_path = str(value)
        self._forget_grid()

    @export(bool, default=False)
    @property
    def show_graph(self) -> bool:
        """Draw the clusters, key points and edges of the graph over the TileMap."""
        return self._show_graph

    @show_graph.setter
    def show_graph(self, value) -> None:
        self._show_graph = bool(value)
        if Engine.is_editor_hint():
            self._forget_grid()  # the map may have been painted since: read it and the graph again
        else:
            self.update()

    @export(bool, default=False)
    @property
    def debug_draw(self) -> bool:
        """Draw key points, units' routes, held cells and states, and group slots over the map, every frame."""
        return self._debug_draw

    @debug_draw.setter
    def debug_draw(self, value) -> None:
        self._debug_draw = bool(value)
        self.update()  # once now; while on, every physics frame

    @export(Rect2, default=Rect2(0, 0, 0, 0))
    @property
    def bounds(self) -> Rect2:
        """The cells to navigate, in TileMap cells (position and size); a zero size: the TileMap's used rectangle."""
        return self._bounds

    @bounds.setter
    def bounds(self, value: Rect2) -> None:
        self._bounds = Rect2(value.position.x, value.position.y, value.size.x, value.size.y)  # a copy
        self._forget_grid()
        if Engine.is_editor_hint():
            self.update_configuration_warning()

    @export(Array, default=Array(), hint_string=f"{NODE_PATH_TYPE}:")
    @property
    def layer_paths(self) -> Array:
        """More TileMaps stacked on the TileMap, on the same cells: a cell blocks where any layer blocks."""
        if self._layer_paths is None:
            self._layer_paths = Array()
        return self._layer_paths

    @layer_paths.setter
    def layer_paths(self, value: Array) -> None:
        self._layer_paths = Array(value)  # a copy
        self._forget_grid()
        if Engine.is_editor_hint():
            self.update_configuration_warning()

    @export(str, default="")
    @property
    def wall_tile(self) -> str:
        """The tile set_cell_blocked paints on blocked cells ("" turns map edits off); it must block."""
        return self._wall_tile

    @wall_tile.setter
    def wall_tile(self, value) -> None:
        self._wall_tile = str(value)
        self._choose_painter()  # at once, also in a running game

    @export(str, default="")
    @property
    def floor_tile(self) -> str:
        """The tile set_cell_blocked paints on freed cells; "" leaves them without a tile."""
        return self._floor_tile

    @floor_tile.setter
    def floor_tile(self, value) -> None:
        self._floor_tile = str(value)
        self._choose_painter()

    @export(int, default=8, hint=PropertyHint.ENUM, hint_string="8 (no corner cutting):8,4 (straight steps only):4")
    @property
    def connectivity(self) -> int:
        """Neighbours of a cell: 8 (diagonal steps that cut no corner) or 4 (straight steps only)."""
        return self._connectivity

    @connectivity.setter
    def connectivity(self, value) -> None:
        self._connectivity = value  # checked where it is used: a bad value is a configuration warning
        self._forget_grid()
        if Engine.is_editor_hint():
            self.update_configuration_warning()

    def _connectivity_problem(self) -> str:
        try:
            check_connectivity(self._connectivity)
        except ValueError as error:
            return f"{error}."
        return ""

    def _cell_bounds(self) -> Optional[CellRect]:
        """``bounds`` as whole TileMap cells (None: the used rectangle); ValueError saying why it is not."""
        rect: Rect2 = self._bounds
        return navgrid_bounds((rect.position.x, rect.position.y, rect.size.x, rect.size.y))

    def _bounds_problem(self) -> str:
        try:
            self._cell_bounds()
        except ValueError as error:
            return str(error)
        return ""

    def _ready(self) -> None:
        bridge.keep_script_loaded("NavGrid", self.get_script())  # pythonscript 0.50 cannot load it twice
        self.set_process(False)  # _process only watches bakes: start_bake turns it on
        running = not Engine.is_editor_hint()
        self.set_physics_process(running)  # _physics_process moves the units
        if running and self._navigator is None:  # a PathUnit that was ready first may have built it
            self.rebuild()

    def _get_configuration_warning(self) -> str:
        painter: Optional[units.TilePainter] = self._painter
        painted = painter.warning if painter else ""
        problem = self._tilemap_problem() or self._layers_problem() or self._bounds_problem()
        problem = problem or self._connectivity_problem() or self._read_problem
        return problem or self._graph_warning or painted or self._collision_warning()

    def rebuild(self) -> bool:
        """Read the whole TileMap and its layers again (one batched read each); False if they cannot be read.

        If only cells changed (the same used rectangle), the grid, its graph and
        the units follow those cells; otherwise the grid is built anew and the
        graph loaded again.
        """
        previous = self._navigator
        problem = self._read_tilemap()
        if problem:
            self._navigator = previous  # units and queries go on with the grid read before
            self.last_status = Status.NO_GRID.value
            if problem != self._read_problem:  # once, not on every query a game makes
                self._read_problem = problem
                bridge.report_error(str(self.get_name()), problem)
            return False
        self._read_problem = ""
        if previous is not None:
            edit = self._units.navigator.set_blocked if self._units is not None else None
            refused = previous.follow(self._navigator, edit)
            if refused is not None:
                self._navigator = previous
                if refused:
                    bridge.report_error(
                        str(self.get_name()), f"units stand in TileMap cells {refused}: not blocked yet"
                    )
                self.last_status = Status.BUILT.value
                return True
        self._load_graph()
        if not Engine.is_editor_hint():  # the level's load builds the search tables, not the first query
            self._navigator.prepare()
        self._drive_units()
        self.last_status = Status.BUILT.value
        return True

    def _built(self) -> bool:
        """Whether there is a grid to answer from: read the TileMap now if need be."""
        return self._navigator is not None or self.rebuild()

    def _read_tilemap(self) -> str:
        """Build the navigator from the TileMap; why it cannot be read, or ""."""
        self._navigator = None
        self._drawing = None
        problem = (
            self._tilemap_problem() or self._layers_problem() or self._bounds_problem() or self._connectivity_problem()
        )
        if problem:
            return problem
        tilemap: TileMap = self.get_node(self.tilemap_path)
        tiles = self._tiles(tilemap)
        layers = [(layer.get("tile_data"), self._tiles(layer)) for layer in self._layer_nodes()]
        blocking = [str(name) for name in self.blocking_tiles]
        warning = bridge.collision_warning(tiles, blocking, [layer_tiles for _, layer_tiles in layers])
        if warning and not self._collision_told and not Engine.is_editor_hint():
            self._collision_told = True
            print(f"pathing_py: {str(self.get_name())}: warning: {warning}")
        try:
            self._navigator = bridge.TileMapNavigator.from_tilemap(
                tilemap.get("tile_data"),
                tilemap_geometry(tilemap),
                tiles,
                blocking=blocking,
                empty_passable=bool(self.empty_cells_passable),
                bounds=self._cell_bounds(),
                unknown_tiles="open",  # as the engine loads them: tiles without collision
                connectivity=check_connectivity(self._connectivity),
                layers=layers,
            )
        except ValueError as error:  # e.g. an empty TileMap, or blocking names no tile has
            return f"cannot read the TileMap: {error}"
        self._choose_painter()
        return ""

    def _choose_painter(self) -> None:
        """The tiles set_cell_blocked paints, chosen by name from ``wall_tile`` and ``floor_tile`` as they are
        now and given to the units; left to the next read of the TileMap while it cannot be read."""
        if not self.is_inside_tree() or self._tilemap_problem() or self._layers_problem():
            return
        tilemap: TileMap = self.get_node(self.tilemap_path)
        self._painter = units.TilePainter.choose(
            self._tiles(tilemap),
            self._wall_tile,
            self._floor_tile,
            blocking=[str(name) for name in self.blocking_tiles],
            empty_passable=bool(self.empty_cells_passable),
            layered=bool(self._layer_nodes()),
        )
        if self._units is not None:
            self._units.painter = self._painter
        if self._painter.warning:
            bridge.report_error(str(self.get_name()), self._painter.warning)
        if Engine.is_editor_hint():
            self.update_configuration_warning()

    def _drive_units(self) -> None:
        """Move the units on the grid just read, taking over those driven so far."""
        tilemap: TileMap = self.get_node(self.tilemap_path)
        budget = float(self.plan_budget_ms) / 1000.0
        previous, self._units = self._units, None
        previous_groups, self._groups = self._groups, None
        try:
            driver = units.UnitDriver(
                self._navigator,
                transform_points(tilemap.get_global_transform()),
                painter=self._painter,
                time_budget=budget if budget > 0 else None,
                retry_time=float(self.retry_time),
            )
        except ValueError as error:  # a TileMap scaled to zero: paths still work, units cannot move
            bridge.report_error(str(self.get_name()), f"cannot move units over the TileMap: {error}")
            return
        group_driver = groups.GroupDriver(driver)
        if previous is not None:
            driver.take_over(previous)
            group_driver.take_over(previous_groups)
        self._units = driver
        self._groups = group_driver

    def _load_graph(self) -> None:
        """Give the navigator the baked graph; at run time a missing or stale file is re-baked in memory."""
        path = self._graph_path
        try:
            loaded = bridge.load_graph(
                path,
                read_project_file(path) if path else None,
                self._navigator.grid,
                cluster_size=self.cluster_size,
                rebake=not Engine.is_editor_hint(),
                layout=self._hex_layout(),
            )
        except ValueError as error:  # a cluster_size the bake refuses
            loaded = bridge.GraphLoad(None, f"cannot bake the key-point graph: {error}")
        self._navigator.graph = loaded.graph
        if loaded.warning:
            bridge.report_error(str(self.get_name()), loaded.warning)
        if loaded.warning != self._graph_warning:
            self._graph_warning = loaded.warning
            self.update_configuration_warning()

    def _hex_layout(self):
        """The half-offset layout of the TileMap's cells, which its graph follows; None for square cells."""
        hexes = self._navigator.hex_steps
        return hexes.layout if hexes is not None else None

    def _forget_grid(self) -> None:
        """Drop the grid and graph read so far: the next query or drawing reads the TileMap and the file again."""
        self._navigator = None
        self._drawing = None
        self.update()

    # -- baking (called by the editor plugin) ----------------------------------------------

    def start_bake(self, scene_path: str) -> str:
        """Bake the TileMap's graph into ``<scene>.kpg`` next to ``scene_path``; "" once started, else why not.

        The bake runs on a worker thread; ``bake_progressed`` and
        ``bake_finished`` report on it.
        """
        if self._bake is not None:
            return "This NavGrid is baking already."
        try:
            graph_file = editor.graph_file_for_scene(str(scene_path))
        except ValueError as error:
            return str(error)
        problem = self._read_tilemap()
        if problem:
            return problem
        self._bake = editor.BakeJob(
            self._navigator.grid,
            str(ProjectSettings.globalize_path(graph_file)),
            graph_file=graph_file,
            cluster_size=self.cluster_size or None,
            layout=self._hex_layout(),
        )
        self._bake.start()
        self.set_process(True)
        return ""

    def _process(self, delta: float) -> None:
        job = self._bake
        if job is None:
            self.set_process(False)
            return
        if not job.finished():
            self.call("emit_signal", "bake_progressed", job.fraction())
            return
        self._bake = None
        self.set_process(False)
        outcome = job.outcome()
        self._forget_grid()  # the next drawing or query loads the file just written
        if outcome.graph is None:
            bridge.report_error(str(self.get_name()), outcome.message)
        else:
            print(f"pathing_py: {str(self.get_name())}: {outcome.message}")
        graph_file = job.graph_file if outcome.graph is not None else ""
        self.call("emit_signal", "bake_finished", graph_file, outcome.message)

    # -- drawing -----------------------------------------------------------------------------

    def _draw(self) -> None:
        """The bounds' outline (in the editor), the graph (``show_graph``; its key points for ``debug_draw``)
        and the units and groups (``debug_draw``), in TileMap-local pixels."""
        path = str(self.tilemap_path)
        tilemap: TileMap = self.get_node_or_null(self.tilemap_path) if path else None
        if tilemap is None or not tilemap.is_class("TileMap"):
            return
        layers = self._bounds_layers(tilemap) if Engine.is_editor_hint() else []
        if self._show_graph or self._debug_draw:
            layers += self._graph_layers(everything=self._show_graph)
        if self._debug_draw:
            layers += self._debug_layers()
        if not layers:
            return
        to_tilemap = self.get_global_transform().affine_inverse() * tilemap.get_global_transform()
        self.draw_set_transform_matrix(to_tilemap)
        for segments, color, width in layers:
            self.draw_multiline(PoolVector2Array([Vector2(x, y) for x, y in segments]), color, width)

    def _bounds_layers(self, tilemap: TileMap) -> list:
        """The bounds' outline when they are set and valid (else the configuration warning says why)."""
        try:
            bounds = self._cell_bounds()
            outline = bridge.bounds_outline(bounds, tilemap_geometry(tilemap)) if bounds is not None else []
        except ValueError:  # bad bounds, or cells that cannot be placed (flat)
            return []
        return [(outline, BOUNDS_COLOR, BOUNDS_WIDTH)] if outline else []

    def _graph_layers(self, everything: bool) -> list:
        """The graph's clusters, edges and key points (or its key points only), one layer per kind that has segments."""
        drawing = self._graph_drawing()
        if drawing is None:
            return []
        kinds = (
            [
                (drawing.clusters, CLUSTER_COLOR),
                (drawing.inside_edges, INSIDE_EDGE_COLOR),
                (drawing.border_edges, BORDER_EDGE_COLOR),
            ]
            if everything
            else []
        )
        kinds.append((drawing.key_points, KEY_POINT_COLOR))
        return [(segments, color, GRAPH_LINE_WIDTH) for segments, color in kinds if segments]

    def _debug_layers(self) -> list:
        """The units and groups this NavGrid drives, one layer per colour that has segments."""
        if self._units is None:
            return []
        layers = debug_drawing.units_drawing(self._units, self._groups).layers()
        return [(segments, Color(*rgba), width) for segments, rgba, width in layers]

    def _graph_drawing(self) -> Optional[editor.GraphDrawing]:
        if self._drawing is None:
            if not self._built():
                return None
            if self._navigator.graph is None:
                return None
            self._drawing = editor.graph_drawing(self._navigator.graph, self._navigator.frame)
        return self._drawing

    def find_path(self, from_position: Vector2, to_position: Vector2) -> PoolVector2Array:
        """Centres of the cells from ``from_position`` to ``to_position``; empty if there is no path.

        ``get_last_status()`` tells why a path is empty.
        """
        if not self._built():
            return PoolVector2Array()
        answer = self._navigator.find_path(
            (from_position.x, from_position.y), (to_position.x, to_position.y), smooth=bool(self.smooth_paths)
        )
        self.last_status = answer.status
        if answer.status == Status.INVALID_POSITION.value or (
            answer.status == Status.OUT_OF_BOUNDS.value and not self._bounds_told
        ):
            self._bounds_told = (
                self._bounds_told or answer.status == Status.OUT_OF_BOUNDS.value
            )  # once a run: games ask off the map
            bridge.report_error(str(self.get_name()), answer.message)
        return PoolVector2Array([Vector2(x, y) for x, y in answer.points])

    def world_to_cell(self, position: Vector2) -> Vector2:
        """The TileMap cell containing a TileMap-local position; (NaN, NaN) for a non-finite one."""
        return self._convert("cell_of", position)

    def cell_to_world(self, cell: Vector2) -> Vector2:
        """The TileMap-local centre of a TileMap cell; (NaN, NaN) for a non-finite cell."""
        return self._convert("centre_of", cell)

    def is_cell_blocked(self, cell: Vector2) -> bool:
        """Whether units cannot enter a TileMap cell (it blocks, or lies outside the map), as this NavGrid reads it.

        True also when there is no grid or the cell is not finite (``get_last_status()`` says so).
        """
        if not self._built():
            return True
        try:
            return self._navigator.is_blocked((cell.x, cell.y))
        except bridge.CoordinateError as error:
            self._fail(Status.INVALID_POSITION.value, str(error))
            return True

    def _convert(self, conversion: str, value: Vector2) -> Vector2:
        """A pair through one of the navigator's conversions; (NaN, NaN), with the reason, if it has none."""
        if not self._built():
            return Vector2(math.nan, math.nan)
        try:
            x, y = getattr(self._navigator, conversion)((value.x, value.y))
        except bridge.CoordinateError as error:
            self._fail(Status.INVALID_POSITION.value, str(error))
            return Vector2(math.nan, math.nan)
        return Vector2(x, y)

    def get_last_status(self) -> str:
        """``last_status`` for GDScript callers."""
        return self.last_status

    # -- units ---------------------------------------------------------------------------------

    def _physics_process(self, delta: float) -> None:
        """Move every unit one frame: one navigator update, one set_position per moved node, then the signals."""
        driver: Optional[units.UnitDriver] = self._units
        if driver is None:
            return
        started = time.perf_counter()
        node: "PathUnit"
        for node, x, y in driver.step(delta):
            node.set_position(Vector2(x, y))
        synced = time.perf_counter()
        for emitted in driver.signals():
            node = emitted.node
            node.call("emit_signal", emitted.name, *emitted.arguments(Vector2))
        self._emit_group_signals()
        navigation = driver.navigator.stats.update_seconds[-1]
        self._frame_seconds = (navigation, synced - started - navigation, time.perf_counter() - synced)
        if self._debug_draw:
            self.update()

    def _emit_group_signals(self) -> None:
        """Each manager's signals of the frame, on it."""
        group_driver: Optional[groups.GroupDriver] = self._groups
        if group_driver is None:
            return
        manager: "GroupManager"
        for manager, emitted in group_driver.pending():
            manager.call("emit_signal", emitted.name, *emitted.arguments(Vector2))

    def get_frame_times(self) -> PoolRealArray:
        """Milliseconds of the last frame's work on the units, for profiling a game: [navigation (the navigator's
        update), node sync (finding the moved units and setting their nodes' positions), signals (the units'
        and the GroupManagers')]; zeros before the first frame."""
        return PoolRealArray([1000.0 * seconds for seconds in self._frame_seconds])

    def is_at_rest(self) -> bool:
        """Whether no PathUnit moves until an order, a unit added or removed, or an edit: every unit stands with
        nothing left to do and no GroupManager's group has an order under way (found within ten frames)."""
        driver: Optional[units.UnitDriver] = self._units
        return driver is not None and driver.navigator.at_rest

    def set_cell_blocked(self, cell: Vector2, blocked: bool) -> bool:
        """Block (or free) a TileMap cell for the units and paint it with ``wall_tile`` (or ``floor_tile``).

        False when refused, for instance while a unit holds the cell (try again
        later); ``get_last_status()`` tells why.
        """
        if not self._built() or self._units is None:
            return False
        edit = self._units.set_cell_blocked((cell.x, cell.y), bool(blocked))
        self.last_status = edit.status
        if edit.error:
            bridge.report_error(str(self.get_name()), edit.error)
        if not edit:
            return False
        tilemap: TileMap = self.get_node(self.tilemap_path)
        tilemap.set_cell(edit.cell[0], edit.cell[1], edit.tile)
        layers = self._layer_nodes()
        for index in edit.cleared_layers:  # freed: the layers' blocking tiles go too
            layer: TileMap = layers[index]
            layer.set_cell(edit.cell[0], edit.cell[1], units.EMPTY_TILE)
        self._drawing = None  # the graph changed with the grid
        self.update()
        return True

    def cells_painted(self, cells) -> bool:
        """Read again the TileMap cells (a PoolVector2Array) the game painted itself, on the TileMap or its layers.

        The cells block or open for paths, the graph and the units as
        set_cell_blocked's do (only units whose routes cross them plan
        again). False when refused, nothing changed: a cell that is not two
        whole numbers (``INVALID_POSITION``) or lies outside the map
        (``OUT_OF_BOUNDS``: painting beyond it needs ``rebuild()``); or when a
        unit holds a cell painted with a wall (``CELL_HELD``): the others are
        taken, that one stays open until cells_painted names it again.
        """
        if not self._built():
            return False
        if not isinstance(cells, (PoolVector2Array, Array)):
            self._fail(
                Status.INVALID_POSITION.value,
                f"cells_painted: cells must be a PoolVector2Array of TileMap cells, got {cells!r}",
            )
            return False
        problem = self._tilemap_problem() or self._layers_problem()
        if problem:  # a layer gone since the last read
            self._fail(Status.NO_GRID.value, f"cells_painted: {problem}")
            return False
        try:
            whole = self._navigator.cells_to_repaint(
                [(cell.x, cell.y) if isinstance(cell, Vector2) else cell for cell in cells]
            )
        except bridge.CoordinateError as error:
            self._fail(Status.INVALID_POSITION.value, str(error))
            return False
        except ValueError as error:
            self._fail(Status.OUT_OF_BOUNDS.value, str(error))
            return False
        tilemaps = [self.get_node(self.tilemap_path), *self._layer_nodes()]
        read = [self._cell_words(tilemap, whole) for tilemap in tilemaps]
        refused = self._navigator.repaint(
            whole, read, self._units.navigator.set_blocked if self._units is not None else None
        )
        self._drawing = None  # the graph changed with the grid
        self.update()
        if refused:
            self._fail(
                Status.CELL_HELD.value, f"cells_painted: units stand in TileMap cells {refused}: not blocked yet"
            )
            return False
        self.last_status = Status.OK.value
        return True

    def _cell_words(self, tilemap: TileMap, cells: list) -> list:
        """The ``tile_data`` words of those of ``cells`` that hold a tile on ``tilemap``."""
        tiles = [bridge.signed_int(tilemap.get_cell(x, y)) for x, y in cells]
        coords = [tilemap.get_cell_autotile_coord(x, y) for x, y in cells]
        return painted_cells.tile_words(cells, tiles, [(coord.x, coord.y) for coord in coords])

    # Called by path_unit.py; a unit is known by its instance id.

    def add_path_unit(self, unit: "PathUnit") -> str:
        """Start moving a PathUnit from where it stands; "OK" or the status saying why not."""
        if not self._built() or self._units is None:
            return Status.NO_GRID.value
        answer = self._units.add(
            node_key(unit),
            unit,
            transform_points(unit.get_global_transform()),
            transform_points(unit.get_transform()),
            speed=unit.get("speed"),
            radius=unit.get("radius"),
            priority=bridge.signed_int(unit.get("priority")),
        )
        if not answer:
            bridge.report_error(str(unit.get_name()), answer.message)
        return answer.status

    def remove_path_unit(self, unit: "PathUnit") -> None:
        if self._units is not None:
            self._units.remove(node_key(unit))

    def order_path_unit(self, unit: "PathUnit", world_position: Vector2) -> str:
        """Send a PathUnit to the cell containing a global position; "OK" or the status saying why not."""
        if self._units is None:
            return Status.NOT_DRIVEN.value
        answer = self._groups.order_alone(node_key(unit), (world_position.x, world_position.y))  # it leaves its group
        if not answer:
            bridge.report_error(str(unit.get_name()), answer.message)
        return answer.status

    def path_unit_state(self, unit: "PathUnit") -> str:
        if self._units is None:
            return ""
        return self._units.state_of(node_key(unit))

    def path_unit_reason(self, unit: "PathUnit") -> str:
        if self._units is None:
            return ""
        return self._units.reason_of(node_key(unit))

    # Called by group_manager.py; a manager is known by its instance id too.

    def order_group(self, manager: "GroupManager", selection: Array, world_target: Vector2) -> str:
        """Send the PathUnits of ``selection`` to the cell containing a global position as a new group of the
        manager's, with its settings; "OK" or the status saying why not (then no unit is ordered)."""
        keys = [node_key(item) if isinstance(item, Object) else None for item in selection]
        target = (world_target.x, world_target.y)
        return self._answer_manager(
            manager, groups.ORDER, lambda driver: driver.order(node_key(manager), keys, target, manager.get, manager)
        )

    def reform_groups(self, manager: "GroupManager") -> str:
        """The manager's groups take the formation its exports now name, where they stand; "OK" or why not."""
        return self._answer_manager(
            manager, groups.FORMATION_ORDER, lambda driver: driver.change_formation(node_key(manager), manager.get)
        )

    def _answer_manager(
        self, manager: "GroupManager", method: str, ask: Callable[[groups.GroupDriver], units.Answer]
    ) -> str:
        """What the groups answer a manager's call ``method`` (NOT_DRIVEN without units), with one error
        line if refused."""
        if self._groups is None:
            answer = units.Answer(Status.NOT_DRIVEN.value, f"{method}: the NavGrid moves no units (see its errors)")
        else:
            answer = ask(self._groups)
        if not answer:
            bridge.report_error(str(manager.get_name()), answer.message)
        return answer.status

    def remove_group_manager(self, manager: "GroupManager") -> None:
        """The manager left the tree: its groups are disbanded, their units finish their orders on their own."""
        if self._groups is not None:
            self._groups.forget_owner(node_key(manager))

    def _tilemap_problem(self) -> str:
        path = str(self.tilemap_path)
        node = self.get_node_or_null(self.tilemap_path) if path else None
        if node is None or not node.is_class("TileMap"):
            return bridge.tilemap_problem(path, None if node is None else str(node.get_class()))
        tilemap: TileMap = node
        tileset: Optional[TileSet] = tilemap.get_tileset()
        try:
            tilemap_geometry(tilemap)
        except GeometryError as error:
            return f"The TileMap at {path!r} cannot be navigated: {error}."
        tilesets = [tileset] + [layer.get_tileset() for layer in self._layer_nodes()]
        return bridge.tilemap_problem(
            path,
            "TileMap",
            has_tileset=tileset is not None,
            tile_names=[
                str(one.tile_get_name(tile_id))
                for one in tilesets
                if one is not None
                for tile_id in one.get_tiles_ids()
            ],
            blocking=[str(name) for name in self.blocking_tiles],
        )

    def _layer_nodes(self) -> list:
        """The TileMaps at ``layer_paths``: all of its entries, in order, once ``_layers_problem()`` says ""."""
        return [node for _setting, _path, node in self._layers() if node is not None and node.is_class("TileMap")]

    def _layers(self) -> list:
        """(setting, path, node or None) of each entry of ``layer_paths``."""
        found = []
        for index, path in enumerate(self.layer_paths):
            text = str(path)
            found.append((f"layer_paths[{index}]", text, self.get_node_or_null(path) if text else None))
        return found

    def _layers_problem(self) -> str:
        """Why a layer cannot be stacked on the TileMap, or "" (the TileMap itself must be readable)."""
        for setting, path, node in self._layers():
            problem = self._layer_problem(setting, path, node)
            if problem:
                return problem
        return ""

    def _layer_problem(self, setting: str, path: str, node: Optional[Object]) -> str:
        found = None if node is None else str(node.get_class())
        if found != "TileMap":
            return layer_node_problem(setting, path, found)
        layer: TileMap = node
        tilemap: TileMap = self.get_node(self.tilemap_path)
        is_main = node_key(layer) == node_key(tilemap)
        problem = layer_node_problem(setting, path, found, has_tileset=layer.get_tileset() is not None, is_main=is_main)
        if problem:
            return problem
        try:
            geometry = tilemap_geometry(layer)
        except GeometryError as error:
            return f"The TileMap at {setting} {path!r} cannot be navigated: {error}."
        difference = layer_difference(
            path,
            geometry,
            transform_points(layer.get_global_transform()),
            str(self.tilemap_path),
            tilemap_geometry(tilemap),
            transform_points(tilemap.get_global_transform()),
        )
        return f"{setting}: {difference}." if difference else ""

    def _collision_warning(self) -> str:
        """That no tile blocks (see the module docstring); "" when some can, or when the TileMap cannot be read."""
        if self._tilemap_problem() or self._layers_problem():
            return ""
        tilemap: TileMap = self.get_node(self.tilemap_path)
        layers = [self._tiles(layer) for layer in self._layer_nodes()]
        return bridge.collision_warning(self._tiles(tilemap), [str(name) for name in self.blocking_tiles], layers)

    def _tiles(self, tilemap: TileMap) -> list:
        """What the TileMap's TileSet says of each tile."""
        tileset: TileSet = tilemap.get_tileset()
        return [self._tile_info(tileset, tile_id) for tile_id in tileset.get_tiles_ids()]

    def _tile_info(self, tileset: TileSet, tile_id: int) -> bridge.TileInfo:
        # Never read shape["shape"]: pythonscript 0.50 does not keep a Reference taken out of an
        # Array or Dictionary alive, and the TileSet's shapes get freed under it (the engine then
        # crashes in TileMap.set_cell). tile_get_shape() returns it safely; the coordinates are Vector2.
        shapes = tileset.tile_get_shapes(tile_id)
        coords = [
            shapes[index]["autotile_coord"]
            for index in range(bridge.signed_int(tileset.tile_get_shape_count(tile_id)))
            if tileset.tile_get_shape(tile_id, index) is not None
        ]
        return bridge.TileInfo(
            tile_id,
            str(tileset.tile_get_name(tile_id)),
            tileset.tile_get_tile_mode(tile_id),
            [(coord.x, coord.y) for coord in coords],
        )

    def _fail(self, status: str, message: str) -> None:
        self.last_status = status
        bridge.report_error(str(self.get_name()), message)
