"""The NavGrid in real Godot: what it reads, converts, finds and edits, checked against the engine's own TileMap.

Runs inside Godot (``tests/engine/test_in_godot.py``). NavGrids are made as a game
would make them (the script set on a Node2D next to a TileMap) or come with a
scene, and are asked through ``call()``. The engine is the judge: its
``world_to_map`` / ``map_to_world``, its cells and TileSet, and the reader
``grid_from_tscn`` that tests/engine/test_tilemap.py holds to the engine.
"""

import math
import random
import shutil
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Set, Tuple

import pytest
from godot import (
    AStar2D,
    GDString,
    Node,
    Node2D,
    NodePath,
    PackedScene,
    PoolStringArray,
    PoolVector2Array,
    Rect2,
    ResourceLoader,
    TileMap,
    TileSet,
    Transform2D,
    Vector2,
)

from pathing_py import Grid, KeyPointGraph
from pathing_py.godot import bridge
from pathing_py.godot.bridge import signed_int
from pathing_py.godot.scene_files import grid_from_tscn, read_tilemap
from pathing_py.grid import MapFormatError
from tests.engine.in_godot.conftest import physics_frames, scene_paths

NAV_GRID_SCRIPT = "res://addons/pathing_py/nav_grid.py"
PATH_UNIT_SCRIPT = "res://addons/pathing_py/path_unit.py"
GAME_SCRIPT = "res://tests/engine/in_godot/navgrid_game.gd"
DEMO = "res://scenes/demo.tscn"
DEMO_GRAPH = "res://scenes/demo.kpg"
#: Two cells of the demo map far apart, both open ground.
DEMO_START, DEMO_GOAL = (-2, 1), (33, 22)
FIXTURES = Path("tests/support/fixtures")

Cell = Tuple[int, int]


# -- scenes and nodes, as a game makes them -----------------------------------------------------


def instance(root: Node, path: str, prepare: Optional[Callable[[Node], None]] = None) -> Node:
    """Instance a scene under the runner; ``prepare`` edits it before it enters the tree (before ``_ready``)."""
    scene: PackedScene = ResourceLoader.load(path)
    assert scene is not None, f"cannot load {path}"
    node: Node = scene.instance()
    if prepare is not None:
        prepare(node)
    root.add_child(node)
    return node


def demo_with(root: Node, tilemap_setup: Callable[[TileMap], None] = None, **navgrid_settings) -> Node:
    """The demo scene, its TileMap and NavGrid set up before they are ready."""

    def prepare(demo: Node) -> None:
        if tilemap_setup is not None:
            tilemap_setup(demo.get_node("TileMap"))
        navgrid: Node = demo.get_node("NavGrid")
        for name, value in navgrid_settings.items():
            navgrid.set(name, value)

    return instance(root, DEMO, prepare)


def new_navgrid(parent: Node, tilemap_path: str, **settings) -> Node2D:
    """A NavGrid made in code, as a game would: the script on a Node2D, its settings, then into the tree."""
    navgrid = Node2D.new()
    navgrid.set_script(ResourceLoader.load(NAV_GRID_SCRIPT))
    navgrid.set_name("CodeNavGrid")
    navgrid.set("tilemap_path", NodePath(tilemap_path))
    for name, value in settings.items():
        navgrid.set(name, value)
    parent.add_child(navgrid)
    return navgrid


def tilemaps_under(node: Node) -> List[TileMap]:
    found = [node] if node.is_class("TileMap") else []
    for index in range(signed_int(node.get_child_count())):
        found += tilemaps_under(node.get_child(index))
    return found


def errors(capsys) -> List[str]:
    """The error lines our nodes printed since the last call."""
    return [line for line in capsys.readouterr().err.splitlines() if line.startswith("pathing_py:")]


def strings(names: Iterable[str]) -> PoolStringArray:
    """A PoolStringArray, as the inspector sets ``blocking_tiles`` (pythonscript wants GDString items)."""
    return PoolStringArray([GDString(name) for name in names])


def cell_of(vector: Vector2) -> Cell:
    return int(vector.x), int(vector.y)


# -- the engine's view of a TileMap ---------------------------------------------------------------


class EngineCells:
    """Which cells block, asked cell by cell of the TileMap and its TileSet (the engine's rule, not our reader).

    The map is the TileMap's used rectangle, or ``bounds`` (a Rect2 in cells).
    """

    def __init__(
        self,
        tilemap: TileMap,
        blocking: Sequence[str] = (),
        empty_passable: bool = True,
        bounds: Optional[Rect2] = None,
    ):
        self.tilemap = tilemap
        self.blocking = set(blocking)
        self.empty_passable = empty_passable
        rect = tilemap.get_used_rect() if bounds is None else bounds
        self.origin = (int(rect.position.x), int(rect.position.y))
        self.size = (int(rect.size.x), int(rect.size.y))

    def inside(self, cell: Cell) -> bool:
        return all(0 <= cell[i] - self.origin[i] < self.size[i] for i in (0, 1))

    def blocks(self, cell: Cell) -> bool:
        x, y = cell
        tile = signed_int(self.tilemap.get_cell(x, y))
        if tile < 0:
            return not self.empty_passable
        tileset: TileSet = self.tilemap.get_tileset()
        if tile not in [signed_int(known) for known in tileset.get_tiles_ids()]:
            return False  # a tile id the TileSet lacks: the engine draws nothing there and gives it no collision
        if str(tileset.tile_get_name(tile)) in self.blocking:
            return True
        single = signed_int(tileset.tile_get_tile_mode(tile)) == TileSet.SINGLE_TILE
        coord = self.tilemap.get_cell_autotile_coord(x, y)
        for index in range(signed_int(tileset.tile_get_shape_count(tile))):
            if tileset.tile_get_shape(tile, index) is None:
                continue
            # Only the coordinate is read from the dictionary: never the shape (GODOT_NOTES: pitfalls).
            if single or tileset.tile_get_shapes(tile)[index]["autotile_coord"] == coord:
                return True
        return False

    def walkable(self, cell: Cell) -> bool:
        return self.inside(cell) and not self.blocks(cell)

    def open_cells(self) -> List[Cell]:
        ox, oy = self.origin
        cells = [(ox + x, oy + y) for y in range(self.size[1]) for x in range(self.size[0])]
        return [cell for cell in cells if not self.blocks(cell)]


def check_walkable(
    path: Sequence[Vector2], tilemap: TileMap, engine: EngineCells, start: Cell, goal: Cell, smooth: bool
):
    """A path found by the NavGrid (TileMap-local points) crosses only cells the engine calls open."""
    cells = [cell_of(tilemap.world_to_map(point)) for point in path]
    assert cells[0] == start and cells[-1] == goal
    if not smooth:  # cell by cell: neighbours, and no diagonal step past a blocked corner
        for (ax, ay), (bx, by) in zip(cells, cells[1:]):
            assert max(abs(bx - ax), abs(by - ay)) == 1, f"step {(ax, ay)} -> {(bx, by)}"
            assert engine.walkable((bx, ay)) and engine.walkable((ax, by)), f"corner cut {(ax, ay)} -> {(bx, by)}"
    for a, b in zip(path, path[1:]):  # every cell a straight leg passes over, sampled at 1/16 of a cell
        span = tilemap.world_to_map(b) - tilemap.world_to_map(a)
        steps = 16 * int(abs(span.x) + abs(span.y) + 1)
        for step in range(steps + 1):
            cell = cell_of(tilemap.world_to_map(a + (b - a) * (step / steps)))
            assert engine.walkable(cell), f"the leg {a} -> {b} crosses the blocked cell {cell}"


def engine_point(tilemap: TileMap, cell: Cell, u: float, v: float) -> Vector2:
    """The point at fractions (u, v) of a cell, along its axes as map_to_world places its corners."""
    corner = tilemap.map_to_world(Vector2(*cell))
    x_axis = tilemap.map_to_world(Vector2(cell[0] + 1, cell[1])) - corner
    y_axis = tilemap.map_to_world(Vector2(cell[0], cell[1] + 1)) - corner
    return corner + x_axis * u + y_axis * v


def path_cells(path: Iterable[Vector2], tilemap: TileMap) -> List[Cell]:
    return [cell_of(tilemap.world_to_map(point)) for point in path]


# -- 1. the NavGrid reads every scene's TileMaps as the reader does --------------------------------


@pytest.fixture(scope="module")
def fixture_copy(tmp_path_factory) -> Path:
    """tests/support/fixtures with its res:// paths (relative to its own project.godot) made absolute, so that it
    loads here."""
    copy = tmp_path_factory.mktemp("fixtures") / "fixtures"
    shutil.copytree(FIXTURES, copy)
    for path in [*copy.rglob("*.tscn"), *copy.rglob("*.tres")]:
        path.write_text(path.read_text(encoding="utf-8").replace("res://", f"{copy}/"), encoding="utf-8")
    return copy


SCENES = scene_paths("res://scenes")
FIXTURE_SCENES = [path for path in scene_paths("res://tests/support/fixtures") if "/bad/" not in path]


def scene_file(path: str, fixture_copy: Path) -> Tuple[str, Path]:
    """The path the engine loads a scene from, and the file the reader reads."""
    relative = path[len("res://") :]
    if relative.startswith("tests/support/fixtures/"):
        inside = Path(relative).relative_to(FIXTURES)
        return str(fixture_copy / inside), FIXTURES / inside
    return path, Path(relative)


def reader_source(tilemap: TileMap, loaded_as: Dict[str, Path]) -> Tuple[Path, str]:
    """The scene file a TileMap was defined in (an instanced scene's own file) and its node path there."""
    owner: Node = tilemap if str(tilemap.get_filename()) else tilemap.get_owner()
    relative = str(owner.get_path_to(tilemap))
    name = str(owner.get_name())
    node_path = name if relative == "." else f"{name}/{relative}"
    loaded = str(owner.get_filename())
    return loaded_as.get(loaded, Path(loaded[len("res://") :])), node_path


@pytest.mark.parametrize("path", SCENES + FIXTURE_SCENES)
def test_navgrid_reads_every_tilemap_as_the_reader_does(root, capsys, fixture_copy, path):
    load_from, source = scene_file(path, fixture_copy)
    scene = instance(root, load_from)
    tilemaps = tilemaps_under(scene)
    assert tilemaps, f"{path} has no TileMap"
    errors(capsys)
    for tilemap in tilemaps:
        tileset: TileSet = tilemap.get_tileset()
        names = [str(tileset.tile_get_name(tile)) for tile in tileset.get_tiles_ids()]
        for blocking, empty_passable in (((), True), (names[:1], False), (names[-1:], True)):
            navgrid = new_navgrid(
                tilemap.get_parent(),
                f"../{tilemap.get_name()}",
                blocking_tiles=strings(blocking),
                empty_cells_passable=empty_passable,
            )
            file, node_path = reader_source(tilemap, {load_from: source})
            try:  # tile ids the TileSet lacks are read as the engine loads them, as the NavGrid reads them
                grid = reader_grid(file, node_path, list(blocking), empty_passable)
            except MapFormatError as error:  # e.g. an empty TileMap: the NavGrid must refuse it too, once
                assert str(navgrid.call("get_last_status")) == "NO_GRID", f"{node_path}: the reader says {error}"
                assert len(errors(capsys)) == 1 and str(navgrid.call("_get_configuration_warning"))
            else:
                check_cells(navgrid, grid, f"{path} {node_path} blocking={list(blocking)} empty={empty_passable}")
                assert errors(capsys) == []
            navgrid.get_parent().remove_child(navgrid)
            navgrid.free()


def reader_grid(file: Path, node_path: str, blocking: List[str], empty_passable: bool) -> Grid:
    """The grid the reader makes of a TileMap (a half-offset one's obstacle table too)."""
    data = read_tilemap(file, tilemap=node_path, blocking=blocking, unknown_tiles="open")
    if data.geometry.hexagonal:
        return data.hex_map(empty_passable=empty_passable).grid
    return data.grid(empty_passable=empty_passable)


def check_cells(navgrid: Node, grid: Grid, what: str) -> None:
    """The NavGrid's is_cell_blocked agrees with the grid on every cell, and one cell beyond (outside blocks)."""
    ox, oy = grid.origin
    mismatched = [
        (x, y)
        for y in range(oy - 1, oy + grid.height + 1)
        for x in range(ox - 1, ox + grid.width + 1)
        if bool(navgrid.call("is_cell_blocked", Vector2(x, y))) != (not grid.is_passable((x - ox, y - oy)))
    ]
    assert not mismatched, f"{what}: {len(mismatched)} cells differ, first {mismatched[:5]}"


def test_the_demo_navgrid_reads_its_map_with_its_own_settings(root, capsys):
    demo = instance(root, DEMO)
    navgrid = demo.get_node("NavGrid")
    assert [str(name) for name in navgrid.get("blocking_tiles")] == ["forest"]
    check_cells(navgrid, grid_from_tscn("scenes/demo.tscn", blocking=["forest"]), DEMO)
    assert errors(capsys) == []


@pytest.mark.parametrize("graph", ["", DEMO_GRAPH])
def test_the_navgrid_prepares_its_searches_when_it_reads_its_map(root, capsys, monkeypatch, graph):
    """The level's load builds the search tables (and the graph's), not the first query: on a cluttered 512x512
    map the first query took 1.6-2 s in Godot when it did."""
    prepared: List[bool] = []
    monkeypatch.setattr(
        bridge.TileMapNavigator, "prepare", lambda navigator: prepared.append(navigator.graph is not None)
    )
    navgrid = demo_with(root, graph_path=graph).get_node("NavGrid")
    assert prepared == [bool(graph)]
    start, goal = (navgrid.call("cell_to_world", Vector2(*cell)) for cell in (DEMO_START, DEMO_GOAL))
    assert len(navgrid.call("find_path", start, goal)) > 0
    assert prepared == [bool(graph)] and errors(capsys) == []


# -- 2. conversions and paths agree with the engine, whatever the TileMap's transform ------------

TRANSFORMS = [  # position, rotation (radians), scale, cell size
    (Vector2(128, 64), 0.0, Vector2(1, 1), Vector2(16, 16)),
    (Vector2(-300, 45.5), 0.7, Vector2(2, 0.5), Vector2(16, 16)),
    (Vector2(1000, -20), -2.5, Vector2(-1.5, 3), Vector2(24, 10)),
    (Vector2(7.25, 3.5), math.pi / 2, Vector2(0.25, 0.25), Vector2(13, 7)),
]


#: TileMap modes beside square: mode, tile origin, custom transform (x axis, y axis, origin).
GEOMETRIES = [
    (TileMap.MODE_SQUARE, TileMap.TILE_ORIGIN_TOP_LEFT, None),
    (TileMap.MODE_ISOMETRIC, TileMap.TILE_ORIGIN_CENTER, None),
    (TileMap.MODE_ISOMETRIC, TileMap.TILE_ORIGIN_BOTTOM_LEFT, None),
    (TileMap.MODE_CUSTOM, TileMap.TILE_ORIGIN_TOP_LEFT, (Vector2(40, 12), Vector2(-10.5, 30), Vector2(5, -7.25))),
    (TileMap.MODE_CUSTOM, TileMap.TILE_ORIGIN_CENTER, (Vector2(-13.3, 7.1), Vector2(3.7, 21.9), Vector2(-0.3, 11))),
]


def transformed(transform, geometry=GEOMETRIES[0]) -> Callable[[TileMap], None]:
    position, rotation, scale, cell_size = transform
    mode, tile_origin, custom = geometry

    def setup(tilemap: TileMap) -> None:
        tilemap.set_position(position)
        tilemap.set_rotation(rotation)
        tilemap.set_scale(scale)
        tilemap.set_cell_size(cell_size)
        tilemap.set_mode(mode)
        tilemap.set_tile_origin(tile_origin)
        if custom is not None:
            tilemap.set_custom_transform(Transform2D(*custom))

    return setup


def geometry_id(geometry) -> str:
    return f"mode{geometry[0]}-origin{geometry[1]}"


@pytest.mark.parametrize("geometry", GEOMETRIES, ids=geometry_id)
@pytest.mark.parametrize("transform", TRANSFORMS)
def test_conversions_agree_with_world_to_map_and_map_to_world(root, capsys, transform, geometry):
    demo = demo_with(root, transformed(transform, geometry))
    tilemap: TileMap = demo.get_node("TileMap")
    navgrid = demo.get_node("NavGrid")
    size = tilemap.get_cell_size()
    rect = tilemap.get_used_rect()
    rng = random.Random(8)
    # Global positions over the map (a game's mouse clicks), taken to the TileMap's frame with to_local.
    corners = [
        tilemap.to_global(tilemap.map_to_world(rect.position + Vector2(x, y) * rect.size))
        for x in (0, 1)
        for y in (0, 1)
    ]
    low = Vector2(min(c.x for c in corners), min(c.y for c in corners))
    high = Vector2(max(c.x for c in corners), max(c.y for c in corners))
    local = [tilemap.to_local(Vector2(rng.uniform(low.x, high.x), rng.uniform(low.y, high.y))) for _ in range(500)]
    # Cell corners as map_to_world places them, and a hair to either side along the cell's axes
    # (closer than world_to_map's own epsilon too).
    for k in range(int(rect.position.x) - 1, int(rect.position.x + rect.size.x) + 2, 3):
        for cell in ((k, k % 7), (k % 5, k)):
            for offset in (0.0, 1e-5, -1e-5, 5e-5, -5e-5, 1e-4, -1e-4, 1e-3, -1e-3, 0.01, -0.01):
                local.append(engine_point(tilemap, cell, offset, -offset))
                local.append(engine_point(tilemap, cell, offset, offset))
    wrong = [
        (p, navgrid.call("world_to_cell", p), tilemap.world_to_map(p))
        for p in local
        if navgrid.call("world_to_cell", p) != tilemap.world_to_map(p)
    ]
    assert not wrong, f"{len(wrong)} of {len(local)} positions differ (position, ours, engine): {wrong[:5]}"
    for _ in range(300):
        cell = Vector2(
            rng.randint(int(rect.position.x) - 5, int(rect.position.x + rect.size.x) + 5), rng.randint(-50, 50)
        )
        centre = navgrid.call("cell_to_world", cell)
        if geometry[0] == TileMap.MODE_SQUARE:
            assert centre == tilemap.map_to_world(cell) + size / 2, cell
        else:  # halfway between the cell's corner and the opposite one, to float rounding
            midpoint = (tilemap.map_to_world(cell) + tilemap.map_to_world(cell + Vector2(1, 1))) / 2
            assert (centre - midpoint).length() < 1e-3, (cell, centre, midpoint)
        assert tilemap.world_to_map(centre) == cell
        assert tilemap.world_to_map(tilemap.to_local(tilemap.to_global(centre))) == cell
    assert errors(capsys) == []


@pytest.mark.parametrize("smooth", [False, True])
@pytest.mark.parametrize("graph", ["", DEMO_GRAPH])
@pytest.mark.parametrize(
    "transform, geometry",
    [
        (TRANSFORMS[1], GEOMETRIES[0]),
        (TRANSFORMS[2], GEOMETRIES[0]),
        (TRANSFORMS[1], GEOMETRIES[1]),
        (TRANSFORMS[2], GEOMETRIES[4]),
    ],
)
def test_paths_cross_only_cells_the_engine_calls_open(root, capsys, transform, geometry, graph, smooth):
    demo = demo_with(root, transformed(transform, geometry), graph_path=graph, smooth_paths=smooth)
    tilemap: TileMap = demo.get_node("TileMap")
    navgrid = demo.get_node("NavGrid")
    engine = EngineCells(tilemap, ["forest"])
    open_cells = engine.open_cells()
    rng = random.Random(3)
    found = 0
    for _ in range(40):
        start, goal = rng.choice(open_cells), rng.choice(open_cells)
        # Anywhere inside the cells, given globally as a game would, then to the TileMap's frame.
        # (map_to_world truncates fractional cells: the fraction is added along the cell's axes.)
        points = [
            tilemap.to_local(
                tilemap.to_global(engine_point(tilemap, cell, rng.uniform(0.01, 0.99), rng.uniform(0.01, 0.99)))
            )
            for cell in (start, goal)
        ]
        assert [cell_of(tilemap.world_to_map(point)) for point in points] == [start, goal]
        path = navgrid.call("find_path", points[0], points[1])
        status = str(navgrid.call("get_last_status"))
        if status == "FOUND":
            found += 1
            check_walkable(list(path), tilemap, engine, start, goal, smooth)
        else:
            assert status == "UNREACHABLE" and len(path) == 0
    assert found >= 30
    assert errors(capsys) == []


HALF_OFFSETS = [
    (TileMap.MODE_SQUARE, TileMap.HALF_OFFSET_X),
    (TileMap.MODE_SQUARE, TileMap.HALF_OFFSET_Y),
    (TileMap.MODE_ISOMETRIC, TileMap.HALF_OFFSET_NEGATIVE_X),
    (TileMap.MODE_CUSTOM, TileMap.HALF_OFFSET_NEGATIVE_Y),
]


def engine_axes(tilemap: TileMap) -> Tuple[Vector2, Vector2]:
    """The cell axes as map_to_world gives them, from cells of even lines (which no half offset moves)."""
    corner = tilemap.map_to_world(Vector2(0, 0))
    return tilemap.map_to_world(Vector2(2, 0)) / 2 - corner / 2, tilemap.map_to_world(Vector2(0, 2)) / 2 - corner / 2


def engine_centre(tilemap: TileMap, cell: Cell) -> Vector2:
    x_axis, y_axis = engine_axes(tilemap)
    return tilemap.map_to_world(Vector2(*cell)) + (x_axis + y_axis) / 2


@pytest.mark.parametrize("mode, half_offset", HALF_OFFSETS)
@pytest.mark.parametrize("transform", TRANSFORMS[:2])
def test_half_offset_conversions_agree_with_world_to_map_and_map_to_world(root, capsys, transform, mode, half_offset):
    def setup(tilemap: TileMap) -> None:
        transformed(
            transform, (mode, TileMap.TILE_ORIGIN_CENTER, GEOMETRIES[3][2] if mode == TileMap.MODE_CUSTOM else None)
        )(tilemap)
        tilemap.set_half_offset(half_offset)

    demo = demo_with(root, setup, graph_path="")
    tilemap: TileMap = demo.get_node("TileMap")
    navgrid = demo.get_node("NavGrid")
    assert str(navgrid.call("_get_configuration_warning")) == ""
    x_axis, y_axis = engine_axes(tilemap)
    rng = random.Random(half_offset)
    local = []
    for _ in range(120):  # inside cells, and on and a hair beside their corners and edges
        cell = (rng.randint(-6, 40), rng.randint(-6, 30))
        corner = tilemap.map_to_world(Vector2(*cell))
        local.append(corner + x_axis * rng.uniform(0, 1) + y_axis * rng.uniform(0, 1))
        for u, v in ((0, 0), (0.5, 0), (0, 0.5), (1, 1)):
            for offset in (0.0, 1e-5, -1e-5, 1e-3, -1e-3):
                local.append(corner + x_axis * (u + offset) + y_axis * (v - offset))
    wrong = [
        (p, navgrid.call("world_to_cell", p), tilemap.world_to_map(p))
        for p in local
        if navgrid.call("world_to_cell", p) != tilemap.world_to_map(p)
    ]
    assert not wrong, f"{len(wrong)} of {len(local)} positions differ (position, ours, engine): {wrong[:5]}"
    for _ in range(200):
        cell = (rng.randint(-10, 50), rng.randint(-50, 50))
        centre = navgrid.call("cell_to_world", Vector2(*cell))
        assert (centre - engine_centre(tilemap, cell)).length() < 1e-3, (cell, centre)
        assert tilemap.world_to_map(centre) == Vector2(*cell)
    assert errors(capsys) == []


def engine_hex_astar(tilemap: TileMap, engine: "EngineCells") -> Tuple[AStar2D, Dict[Cell, int]]:
    """The engine's AStar2D over the open cells at their centres: two cells are joined when the engine puts the
    points just either side of the middle between their centres in the one and the other (their sides meet)."""
    astar = AStar2D()
    ids = {cell: index for index, cell in enumerate(engine.open_cells())}
    for cell, index in ids.items():
        astar.add_point(index, engine_centre(tilemap, cell))
    for (x, y), index in ids.items():
        for other in ((x + 1, y), (x - 1, y + 1), (x, y + 1), (x + 1, y + 1)):
            if other not in ids:
                continue
            a, b = engine_centre(tilemap, (x, y)), engine_centre(tilemap, other)
            middle, nudge = (a + b) / 2, (a - b) * 0.01
            if (
                cell_of(tilemap.world_to_map(middle + nudge)) == (x, y)
                and cell_of(tilemap.world_to_map(middle - nudge)) == other
            ):
                astar.connect_points(index, ids[other])
    return astar, ids


def point_path_length(points: Sequence[Vector2]) -> float:
    return sum((b - a).length() for a, b in zip(points, points[1:]))


@pytest.mark.parametrize("name", ["Columns", "Rows", "BackRows", "Diamonds"])
def test_hex_paths_are_as_long_as_the_engines_six_neighbour_astar(root, capsys, fixture_copy, name):
    scene = instance(root, str(fixture_copy / "geometry" / "hex_maze.tscn"))
    tilemap: TileMap = scene.get_node(name)
    navgrid = new_navgrid(scene, f"../{name}")  # smooth_paths on: hex paths go through every cell all the same
    engine = EngineCells(tilemap)
    astar, ids = engine_hex_astar(tilemap, engine)
    assert all(len(astar.get_point_connections(index)) <= 6 for index in ids.values())
    assert hex_paths_found(navgrid, tilemap, engine, astar, ids, random.Random(5)) >= 30
    assert errors(capsys) == []


def hex_paths_found(
    navgrid: Node,
    tilemap: TileMap,
    engine: "EngineCells",
    astar: AStar2D,
    ids: Dict[Cell, int],
    rng: random.Random,
    slack: float = 0.0,
) -> int:
    """How many of 40 paths between random cells of ``ids`` the NavGrid found, each held to the engine's six-neighbour
    AStar2D over them (``engine_hex_astar``): steps its graph joins, as long as its path (longer by at most ``slack``
    of it: a key-point graph's bound); UNREACHABLE where it has none."""
    cells = sorted(ids)
    found = 0
    for _ in range(40):
        start, goal = rng.choice(cells), rng.choice(cells)
        path = navgrid.call(
            "find_path", navgrid.call("cell_to_world", Vector2(*start)), navgrid.call("cell_to_world", Vector2(*goal))
        )
        expected = astar.get_point_path(ids[start], ids[goal])
        if len(expected) == 0:
            assert len(path) == 0 and str(navgrid.call("get_last_status")) == "UNREACHABLE", (start, goal)
            continue
        found += 1
        assert str(navgrid.call("get_last_status")) == "FOUND", (start, goal)
        walked = path_cells(path, tilemap)
        assert walked[0] == start and walked[-1] == goal and all(engine.walkable(cell) for cell in walked)
        for a, b in zip(walked, walked[1:]):  # each step to a cell the engine's graph joins to it
            assert ids[b] in [signed_int(i) for i in astar.get_point_connections(ids[a])], (a, b)
        length, shortest = point_path_length(list(path)), point_path_length(list(expected))
        assert shortest - 1e-2 < length < shortest * (1.0 + slack) + 1e-2, (start, goal, length, shortest)
    return found


def test_path_units_are_refused_on_a_hex_map_saying_why(root, capsys, fixture_copy):
    scene = instance(root, str(fixture_copy / "geometry" / "hex_maze.tscn"))
    tilemap: TileMap = scene.get_node("Columns")
    navgrid = new_navgrid(scene, "../Columns")
    navgrid.set_name("NavGrid")
    unit = add_unit(scene, tilemap, navgrid, (0, 0))
    assert str(unit.call("get_last_status")) == "NOT_DRIVEN"
    assert not unit.call("move_to", tilemap.to_global(navgrid.call("cell_to_world", Vector2(3, 3))))
    said = errors(capsys)
    assert any("PathUnits cannot move on a half-offset (hexagonal) TileMap yet" in line for line in said), said
    assert navgrid.call("set_cell_blocked", Vector2(1, 1), True) is False  # no wall_tile: refused as on any map
    errors(capsys)  # the refusal's line
    navgrid.set("wall_tile", "wall")  # walls put up on a hex map: paths go round them, the TileMap shows them
    start, goal = navgrid.call("cell_to_world", Vector2(-7, 6)), navgrid.call("cell_to_world", Vector2(9, 6))
    gap = (2, 6)
    assert gap in path_cells(navgrid.call("find_path", start, goal), tilemap)
    assert navgrid.call("set_cell_blocked", Vector2(*gap), True) and signed_int(tilemap.get_cell(*gap)) == 1
    assert len(navgrid.call("find_path", start, goal)) == 0 and str(navgrid.call("get_last_status")) == "UNREACHABLE"
    assert navgrid.call("set_cell_blocked", Vector2(*gap), False)
    assert gap in path_cells(navgrid.call("find_path", start, goal), tilemap)
    assert (
        len(
            navgrid.call(
                "find_path", navgrid.call("cell_to_world", Vector2(0, 0)), navgrid.call("cell_to_world", Vector2(5, 0))
            )
        )
        > 0
    )
    errors(capsys)
    navgrid.set("graph_path", "res://scenes/demo.kpg")  # a square map's graph: baked again for the hex map, and said so
    navgrid.call("rebuild")
    warning = str(navgrid.call("_get_configuration_warning"))
    assert "baked for a square map, the grid is read as a half-offset (hexagonal) map" in warning
    assert "(for this run, a graph baked in memory is used)" in warning
    assert errors(capsys) == [f"pathing_py: NavGrid: {warning}"]
    assert gap in path_cells(navgrid.call("find_path", start, goal), tilemap)  # through the hex graph baked here


def engine_astar(engine: EngineCells, connectivity: int = 8) -> Tuple[AStar2D, Dict[Cell, int]]:
    """The engine's AStar2D over the open cells at their cell coordinates: eight neighbours, no corner
    cutting (a diagonal needs both cells beside it open), or four neighbours."""
    astar = AStar2D()
    ids = {cell: index for index, cell in enumerate(engine.open_cells())}
    for (x, y), index in ids.items():
        astar.add_point(index, Vector2(x, y))
    steps = ((1, 0), (0, 1), (1, 1), (1, -1)) if connectivity == 8 else ((1, 0), (0, 1))
    for (x, y), index in ids.items():
        for dx, dy in steps:
            if (x + dx, y + dy) in ids and (x + dx, y) in ids and (x, y + dy) in ids:
                astar.connect_points(index, ids[x + dx, y + dy])
    return astar, ids


def cells_cost(cells: Sequence[Cell]) -> float:
    return sum(math.hypot(bx - ax, by - ay) for (ax, ay), (bx, by) in zip(cells, cells[1:]))


@pytest.mark.parametrize("name", ["Diamonds", "Skewed"])
def test_paths_on_isometric_and_custom_tilemaps_cost_what_the_engines_astar_finds(root, capsys, fixture_copy, name):
    scene = instance(root, str(fixture_copy / "geometry" / "isometric.tscn"))
    tilemap: TileMap = scene.get_node(name)
    navgrid = new_navgrid(scene, f"../{name}", smooth_paths=False)
    engine = EngineCells(tilemap)
    astar, ids = engine_astar(engine)
    rng = random.Random(11)
    cells = sorted(ids)
    for _ in range(40):
        start, goal = rng.choice(cells), rng.choice(cells)
        path = navgrid.call(
            "find_path", navgrid.call("cell_to_world", Vector2(*start)), navgrid.call("cell_to_world", Vector2(*goal))
        )
        assert str(navgrid.call("get_last_status")) == "FOUND"
        check_walkable(list(path), tilemap, engine, start, goal, smooth=False)
        expected = astar.get_point_path(ids[start], ids[goal])
        assert len(expected) > 0
        engine_cost = cells_cost([cell_of(expected[index]) for index in range(len(expected))])
        assert abs(cells_cost(path_cells(path, tilemap)) - engine_cost) < 1e-4, (start, goal)
    assert errors(capsys) == []


FOUR_CONNECTED = Path("connectivity") / "four_connected.tscn"


@pytest.mark.parametrize("smooth", [False, True])
@pytest.mark.parametrize("graph", [False, True])
def test_four_connected_paths_are_as_long_as_the_engines_four_neighbour_astar(
    root, capsys, fixture_copy, graph, smooth
):
    """A NavGrid with ``connectivity = 4`` on a fixture made for it: its cells, conversions and straight-step
    paths against the engine's TileMap and an AStar2D the engine builds with four neighbours."""
    scene = instance(root, str(fixture_copy / FOUR_CONNECTED))
    tilemap: TileMap = scene.get_node("Maze")
    settings = {"smooth_paths": smooth, "connectivity": 4}
    if graph:  # baked from the scene by the reader, as the editor's bake does, and loaded by the NavGrid
        graph_file = fixture_copy / "connectivity" / "four_connected.kpg"
        graph_file.write_bytes(KeyPointGraph.bake(grid_from_tscn(FIXTURES / FOUR_CONNECTED, connectivity=4)).to_bytes())
        settings["graph_path"] = str(graph_file)
    navgrid = new_navgrid(scene, "../Maze", **settings)
    engine = EngineCells(tilemap)
    ox, oy = engine.origin
    cells = [(ox + x, oy + y) for y in range(-1, engine.size[1] + 1) for x in range(-1, engine.size[0] + 1)]
    assert [bool(navgrid.call("is_cell_blocked", Vector2(*c))) for c in cells] == [
        not engine.walkable(c) for c in cells
    ]
    size = tilemap.get_cell_size()
    for cell in cells:
        centre = navgrid.call("cell_to_world", Vector2(*cell))
        assert centre == tilemap.map_to_world(Vector2(*cell)) + size / 2 and navgrid.call(
            "world_to_cell", centre
        ) == Vector2(*cell)
    astar, ids = engine_astar(engine, connectivity=4)
    rng = random.Random(4)
    for _ in range(60):
        start, goal = rng.choice(sorted(ids)), rng.choice(sorted(ids))
        path = navgrid.call(
            "find_path", navgrid.call("cell_to_world", Vector2(*start)), navgrid.call("cell_to_world", Vector2(*goal))
        )
        expected = astar.get_point_path(ids[start], ids[goal])
        if len(expected) == 0:
            assert len(path) == 0 and str(navgrid.call("get_last_status")) == "UNREACHABLE", (start, goal)
            continue
        assert str(navgrid.call("get_last_status")) == "FOUND", (start, goal)
        walked = path_cells(path, tilemap)
        check_walkable(list(path), tilemap, engine, start, goal, smooth=False)
        assert all(abs(bx - ax) + abs(by - ay) == 1 for (ax, ay), (bx, by) in zip(walked, walked[1:])), walked
        engine_length = len(expected) - 1  # straight steps of one cell
        if graph:  # the graph's bound (KeyPointGraph.find_path): within 5% of the optimum
            assert engine_length <= len(walked) - 1 <= 1.05 * engine_length, (start, goal)
        else:
            assert len(walked) - 1 == engine_length, (start, goal)
    assert errors(capsys) == []


def test_a_navgrid_with_a_bad_connectivity_says_why_and_has_no_grid(root, capsys, fixture_copy):
    scene = instance(root, str(fixture_copy / FOUR_CONNECTED))
    navgrid = new_navgrid(scene, "../Maze", connectivity=6)
    assert "connectivity must be 8 or 4" in str(navgrid.call("_get_configuration_warning"))
    assert bool(navgrid.call("is_cell_blocked", Vector2(0, 0))) and str(navgrid.call("get_last_status")) == "NO_GRID"
    assert len(errors(capsys)) == 1


def test_a_tileset_without_collision_shapes_is_warned_of_once(root, capsys):
    """Named tiles, no shape, no blocking_tiles: nothing would block; the NavGrid says so, as the CLI does."""
    tiles = TileSet()
    for tile, name in enumerate(("floor", "rock")):
        tiles.create_tile(tile)
        tiles.tile_set_name(tile, name)
    tilemap = TileMap.new()
    tilemap.set_name("Cave")
    tilemap.set_tileset(tiles)
    for x in range(4):
        tilemap.set_cell(x, 0, x % 2)
    root.add_child(tilemap)
    navgrid = new_navgrid(root, "../Cave")
    expected = "The TileSet has no collision shapes, so no tile blocks: list the obstacle tiles in blocking_tiles"
    assert expected in str(navgrid.call("_get_configuration_warning"))
    assert navgrid.call("rebuild")
    printed = capsys.readouterr().out
    assert printed.count(f"pathing_py: CodeNavGrid: warning: {expected}") == 1, printed
    navgrid.set("blocking_tiles", strings(["rock"]))
    assert str(navgrid.call("_get_configuration_warning")) == ""


# -- 3. run-time edits reach the grid, the graph and the units ------------------------------------


def block_by_set_cell_blocked(navgrid: Node, tilemap: TileMap, cells: Iterable[Cell], blocked: bool) -> Set[Cell]:
    """The NavGrid's own edit; the cells it took (a unit may hold some)."""
    return {cell for cell in cells if navgrid.call("set_cell_blocked", Vector2(*cell), blocked)}


def paint_walls(navgrid: Node, tilemap: TileMap, cells: Iterable[Cell], blocked: bool, told_by: str) -> Set[Cell]:
    """Paint walls on ``cells`` (or clear them) with the TileMap's own set_cell, as a game does; the NavGrid must not
    see it before it is told (by ``told_by``). The cells painted."""
    tileset: TileSet = tilemap.get_tileset()
    tile = signed_int(tileset.find_tile_by_name("wall")) if blocked else TileMap.INVALID_CELL
    cells = set(cells)
    for x, y in cells:
        tilemap.set_cell(x, y, tile)
    assert all(bool(navgrid.call("is_cell_blocked", Vector2(*cell))) != blocked for cell in cells), (
        f"seen before {told_by}"
    )
    return cells


def block_by_set_cell(navgrid: Node, tilemap: TileMap, cells: Iterable[Cell], blocked: bool) -> Set[Cell]:
    """A game's own TileMap.set_cell, then rebuild() as documented; the cells edited."""
    cells = paint_walls(navgrid, tilemap, cells, blocked, "rebuild()")
    assert navgrid.call("rebuild")
    return cells


def block_by_cells_painted(navgrid: Node, tilemap: TileMap, cells: Iterable[Cell], blocked: bool) -> Set[Cell]:
    """A game's own TileMap.set_cell, then the cells named to cells_painted (issue 43); the cells it took."""
    cells = paint_walls(navgrid, tilemap, cells, blocked, "cells_painted")
    navgrid.call("cells_painted", PoolVector2Array([Vector2(*cell) for cell in cells]))
    return {cell for cell in cells if bool(navgrid.call("is_cell_blocked", Vector2(*cell))) == blocked}


EDITS = [block_by_set_cell_blocked, block_by_set_cell, block_by_cells_painted]


def around(cell: Cell, radius: int = 1) -> List[Cell]:
    return [(cell[0] + dx, cell[1] + dy) for dy in range(-radius, radius + 1) for dx in range(-radius, radius + 1)]


@pytest.mark.parametrize("edit", EDITS, ids=lambda edit: edit.__name__)
@pytest.mark.parametrize("graph", ["", DEMO_GRAPH])
def test_edits_reach_paths_and_the_graph(root, capsys, graph, edit):
    demo = demo_with(root, graph_path=graph, wall_tile="wall", smooth_paths=False)
    tilemap: TileMap = demo.get_node("TileMap")
    navgrid = demo.get_node("NavGrid")
    engine = EngineCells(tilemap, ["forest"])
    start, goal = (navgrid.call("cell_to_world", Vector2(*cell)) for cell in (DEMO_START, DEMO_GOAL))
    before = path_cells(navgrid.call("find_path", start, goal), tilemap)
    middle = before[len(before) // 2]
    wall = edit(navgrid, tilemap, [cell for cell in around(middle) if engine.walkable(cell)], True)
    assert middle in wall
    wall_tile = signed_int(tilemap.get_tileset().find_tile_by_name("wall"))
    assert all(
        signed_int(tilemap.get_cell(*cell)) == wall_tile and navgrid.call("is_cell_blocked", Vector2(*cell))
        for cell in wall
    )
    path = navgrid.call("find_path", start, goal)
    assert str(navgrid.call("get_last_status")) == "FOUND"
    check_walkable(list(path), tilemap, engine, DEMO_START, DEMO_GOAL, smooth=False)
    # Walls all around the goal: unreachable, for the graph as for the exact search.
    ring = edit(
        navgrid,
        tilemap,
        [
            cell
            for cell in around(DEMO_GOAL, 2)
            if cell != DEMO_GOAL
            and engine.walkable(cell)
            and max(abs(cell[0] - DEMO_GOAL[0]), abs(cell[1] - DEMO_GOAL[1])) == 2
        ],
        True,
    )
    assert len(navgrid.call("find_path", start, goal)) == 0
    assert str(navgrid.call("get_last_status")) == "UNREACHABLE"
    assert (
        len(navgrid.call("find_path", navgrid.call("cell_to_world", Vector2(DEMO_GOAL[0] + 1, DEMO_GOAL[1])), goal))
        == 2
    )
    edit(navgrid, tilemap, wall | ring, False)
    assert not any(navgrid.call("is_cell_blocked", Vector2(*cell)) for cell in wall | ring)
    assert path_cells(navgrid.call("find_path", start, goal), tilemap)[-1] == DEMO_GOAL
    assert errors(capsys) == []


def add_unit(scene: Node, tilemap: TileMap, navgrid: Node, cell: Cell) -> Node2D:
    unit = Node2D.new()
    unit.set_script(ResourceLoader.load(PATH_UNIT_SCRIPT))
    unit.set_position(
        tilemap.to_global(navgrid.call("cell_to_world", Vector2(*cell)))
    )  # the scene root is at the origin
    unit.set("nav_grid_path", NodePath("../NavGrid"))
    scene.add_child(unit)
    return unit


@pytest.mark.parametrize("edit", EDITS, ids=lambda edit: edit.__name__)
@pytest.mark.parametrize("graph", ["", DEMO_GRAPH])
def test_a_unit_on_its_way_walks_around_a_new_wall(root, capsys, graph, edit):
    demo = demo_with(root, transformed(TRANSFORMS[1]), graph_path=graph, wall_tile="wall")
    tilemap: TileMap = demo.get_node("TileMap")
    navgrid = demo.get_node("NavGrid")
    engine = EngineCells(tilemap, ["forest"])
    unit = add_unit(demo, tilemap, navgrid, DEMO_START)
    assert unit.call("move_to", tilemap.to_global(navgrid.call("cell_to_world", Vector2(*DEMO_GOAL))))

    def unit_cell() -> Cell:
        return cell_of(tilemap.world_to_map(tilemap.to_local(unit.get_global_position())))

    physics_frames(navgrid, 60)
    here = unit_cell()
    assert here != DEMO_START and str(unit.call("get_state")) == "MOVING"
    navgrid.set("smooth_paths", False)
    ahead = path_cells(
        navgrid.call(
            "find_path",
            navgrid.call("cell_to_world", Vector2(*here)),
            navgrid.call("cell_to_world", Vector2(*DEMO_GOAL)),
        ),
        tilemap,
    )
    wall = edit(navgrid, tilemap, {cell for step in ahead[4:8] for cell in around(step) if engine.walkable(cell)}, True)
    assert set(ahead[4:8]) <= wall
    visited = set()
    for _ in range(3000):
        physics_frames(navgrid, 1)
        visited.add(unit_cell())
        if str(unit.call("get_state")) == "ARRIVED":
            break
    assert str(unit.call("get_state")) == "ARRIVED" and unit_cell() == DEMO_GOAL
    assert not visited & wall
    assert errors(capsys) == []


def test_cells_painted_reads_just_those_cells_of_the_tilemap_as_the_engine_holds_them(root, capsys):
    demo = demo_with(root, graph_path=DEMO_GRAPH)
    tilemap: TileMap = demo.get_node("TileMap")
    navgrid = demo.get_node("NavGrid")
    tileset: TileSet = tilemap.get_tileset()
    wall, forest, ground = (signed_int(tileset.find_tile_by_name(name)) for name in ("wall", "forest", "ground"))
    engine = EngineCells(tilemap, ["forest"])
    cells = [cell for cell in around((10, 10), 2)]
    for index, (x, y) in enumerate(cells):  # walls, forest (blocks by name), ground and no tile at all
        tilemap.set_cell(x, y, [wall, forest, ground, TileMap.INVALID_CELL][index % 4])
    assert navgrid.call("cells_painted", PoolVector2Array([Vector2(*cell) for cell in cells]))
    assert str(navgrid.call("get_last_status")) == "OK"
    wrong = [cell for cell in cells if bool(navgrid.call("is_cell_blocked", Vector2(*cell))) == engine.walkable(cell)]
    assert not wrong and errors(capsys) == []
    start, goal = (navgrid.call("cell_to_world", Vector2(*cell)) for cell in (DEMO_START, DEMO_GOAL))
    check_walkable(list(navgrid.call("find_path", start, goal)), tilemap, engine, DEMO_START, DEMO_GOAL, smooth=True)


@pytest.mark.parametrize(
    "cells, status, message",
    [
        (
            PoolVector2Array([Vector2(10, 10), Vector2(10.5, 3)]),
            "INVALID_POSITION",
            "cells_painted: cells[1] must be a TileMap cell, two whole numbers, got (10.5, 3.0)",
        ),
        (
            PoolVector2Array([Vector2(500, 3)]),
            "OUT_OF_BOUNDS",
            "cells_painted: TileMap cell (500, 3) is outside the map, TileMap cells ",
        ),
        (Vector2(10, 10), "INVALID_POSITION", "cells_painted: cells must be a PoolVector2Array of TileMap cells"),
    ],
)
def test_cells_painted_refuses_cells_that_are_not_whole_cells_of_the_map_and_changes_nothing(
    root, capsys, cells, status, message
):
    demo = demo_with(root)
    tilemap: TileMap = demo.get_node("TileMap")
    navgrid = demo.get_node("NavGrid")
    tilemap.set_cell(10, 10, signed_int(tilemap.get_tileset().find_tile_by_name("wall")))
    assert not navgrid.call("cells_painted", cells)
    assert str(navgrid.call("get_last_status")) == status
    [told] = errors(capsys)
    assert message in told, told
    assert not navgrid.call("is_cell_blocked", Vector2(10, 10))  # refused whole: the good cell is not read either
    if status == "OUT_OF_BOUNDS":
        assert "set the NavGrid's bounds to navigate beyond it); painting beyond the map needs rebuild()" in told


def test_wall_and_floor_tiles_set_from_code_at_run_time_take_effect_at_once(root, capsys):
    demo = demo_with(root)
    tilemap: TileMap = demo.get_node("TileMap")
    navgrid = demo.get_node("NavGrid")
    cell = Vector2(10, 10)
    assert not navgrid.call("set_cell_blocked", cell, True)
    assert str(navgrid.call("get_last_status")) == "NO_TILE" and len(errors(capsys)) == 1
    navgrid.set("wall_tile", "wall")  # a game sets it in code, after the NavGrid read its map
    assert navgrid.call("set_cell_blocked", cell, True) and str(navgrid.call("get_last_status")) == "OK"
    tileset: TileSet = tilemap.get_tileset()
    assert signed_int(tilemap.get_cell(10, 10)) == signed_int(tileset.find_tile_by_name("wall"))
    navgrid.set("floor_tile", "ground")
    assert navgrid.call("set_cell_blocked", cell, False)
    assert signed_int(tilemap.get_cell(10, 10)) == signed_int(tileset.find_tile_by_name("ground"))
    assert navgrid.call("rebuild")  # and after a rebuild, which keeps the units' grid
    navgrid.set("wall_tile", "forest")
    assert navgrid.call("set_cell_blocked", cell, True)
    assert signed_int(tilemap.get_cell(10, 10)) == signed_int(tileset.find_tile_by_name("forest"))
    navgrid.set("floor_tile", "wall")  # a floor that blocks: refused at once, saying why
    assert not navgrid.call("set_cell_blocked", cell, False) and str(navgrid.call("get_last_status")) == "NO_TILE"
    told = errors(capsys)
    assert len(told) == 2 and all("floor_tile 'wall' blocks" in line for line in told), told  # set, and refused
    assert "floor_tile 'wall' blocks" in str(navgrid.call("_get_configuration_warning"))


# -- 4. from GDScript ------------------------------------------------------------------------------


def test_a_gdscript_game_uses_find_path_statuses_and_edits(root, capsys):
    demo = demo_with(root, wall_tile="wall")
    navgrid = demo.get_node("NavGrid")
    tilemap: TileMap = demo.get_node("TileMap")
    game = Node.new()
    game.set_script(ResourceLoader.load(GAME_SCRIPT))
    demo.add_child(game)
    wall_cell = Vector2(10, 10)
    answers = game.call("ask", navgrid, Vector2(*DEMO_START), Vector2(*DEMO_GOAL), wall_cell)
    path = answers["path"]
    assert answers["start_cell"] == Vector2(*DEMO_START)
    assert len(path) > 2 and path_cells([path[0], path[len(path) - 1]], tilemap) == [DEMO_START, DEMO_GOAL]
    assert str(answers["found_status"]) == "FOUND"
    assert answers["blocked"] and str(answers["blocked_status"]) == "OK" and answers["wall_blocks"]
    assert answers["to_wall_size"] == 0 and str(answers["to_wall_status"]) == "GOAL_BLOCKED"
    nan_cell = answers["nan_cell"]
    assert math.isnan(nan_cell.x) and math.isnan(nan_cell.y) and str(answers["nan_status"]) == "INVALID_POSITION"
    assert answers["freed"] and not answers["wall_blocks_after"]
    assert len(errors(capsys)) == 1  # the NaN


# -- 5. bad input: a clear warning, one error line, no crash --------------------------------------


def no_tileset(tilemap: TileMap) -> None:
    """The demo's TileMap swapped for a bare one (pythonscript's set_tileset takes no None)."""
    parent: Node = tilemap.get_parent()
    parent.remove_child(tilemap)
    tilemap.free()
    bare = TileMap.new()
    bare.set_name("TileMap")
    parent.add_child(bare)


@pytest.mark.parametrize(
    "tilemap_setup, settings, expected",
    [
        (None, {"tilemap_path": NodePath("")}, "Set tilemap_path to the TileMap to navigate."),
        (None, {"tilemap_path": NodePath("../Nowhere")}, "tilemap_path '../Nowhere' does not point at a node."),
        (None, {"tilemap_path": NodePath("..")}, "tilemap_path '..' points at a Node2D, not a TileMap."),
        (no_tileset, {}, "The TileMap at '../TileMap' has no TileSet"),
        (None, {"blocking_tiles": strings(["forest", "lava"])}, "blocking_tiles names 'lava', which the TileSet lacks"),
    ],
)
def test_a_navgrid_that_cannot_read_its_tilemap_says_why_once(root, capsys, tilemap_setup, settings, expected):
    navgrid = demo_with(root, tilemap_setup, **settings).get_node("NavGrid")
    warning = str(navgrid.call("_get_configuration_warning"))
    assert warning.startswith(expected)
    for _ in range(3):
        assert len(navgrid.call("find_path", Vector2(8, 8), Vector2(40, 40))) == 0
        assert str(navgrid.call("get_last_status")) == "NO_GRID"
        assert math.isnan(navgrid.call("world_to_cell", Vector2(8, 8)).x)
    assert errors(capsys) == [f"pathing_py: NavGrid: {warning}"]


def truncated_graph(tmp_path: Path) -> str:
    data = Path("scenes/demo.kpg").read_bytes()
    (tmp_path / "half.kpg").write_bytes(data[: len(data) // 2])
    return str(tmp_path / "half.kpg")


def garbage_graph(tmp_path: Path) -> str:
    (tmp_path / "garbage.kpg").write_bytes(b"not a graph\n" * 10)
    return str(tmp_path / "garbage.kpg")


def paint_a_wall(tilemap: TileMap) -> None:
    tilemap.set_cell(20, 3, signed_int(tilemap.get_tileset().find_tile_by_name("wall")))


@pytest.mark.parametrize(
    "graph, tilemap_setup, expected",
    [
        (lambda tmp_path: "res://scenes/missing.kpg", None, "cannot open the key-point graph"),
        (lambda tmp_path: DEMO_GRAPH, paint_a_wall, "the map changed"),
        (truncated_graph, None, "damaged"),
        (garbage_graph, None, "not a pathing_py key-point graph"),
    ],
    ids=["missing", "stale", "truncated", "garbage"],
)
def test_a_graph_file_that_does_not_fit_is_rebaked_with_one_warning(
    root, capsys, tmp_path, graph, tilemap_setup, expected
):
    navgrid = demo_with(root, tilemap_setup, graph_path=graph(tmp_path)).get_node("NavGrid")
    warning = str(navgrid.call("_get_configuration_warning"))
    assert expected in warning and "a graph baked in memory is used" in warning
    start, goal = (navgrid.call("cell_to_world", Vector2(*cell)) for cell in (DEMO_START, DEMO_GOAL))
    for _ in range(3):
        assert len(navgrid.call("find_path", start, goal)) > 2
    assert errors(capsys) == [f"pathing_py: NavGrid: {warning}"]


NOT_FINITE = [Vector2(math.nan, 0), Vector2(0, math.inf), Vector2(-math.inf, math.nan)]


@pytest.mark.parametrize("bad", NOT_FINITE)
def test_non_finite_positions_are_invalid_positions(root, capsys, bad):
    navgrid = demo_with(root, wall_tile="wall").get_node("NavGrid")
    good = navgrid.call("cell_to_world", Vector2(*DEMO_START))
    for method, args, empty in [
        ("find_path", (bad, good), lambda answer: len(answer) == 0),
        ("find_path", (good, bad), lambda answer: len(answer) == 0),
        ("world_to_cell", (bad,), lambda answer: math.isnan(answer.x) and math.isnan(answer.y)),
        ("cell_to_world", (bad,), lambda answer: math.isnan(answer.x) and math.isnan(answer.y)),
        ("is_cell_blocked", (bad,), lambda answer: answer is True),
        ("set_cell_blocked", (bad, True), lambda answer: answer is False),
    ]:
        assert empty(navgrid.call(method, *args)), method
        assert str(navgrid.call("get_last_status")) == "INVALID_POSITION", method
        assert len(errors(capsys)) == 1, method
    assert len(navgrid.call("find_path", good, good)) == 1  # and the NavGrid goes on


#: The broken scenes the engine loads at all (the others fail in ResourceLoader, before any NavGrid),
#: and what the NavGrid makes of them: the engine's cells, or a refusal.
BAD_SCENES = {
    "all_blocked.tscn": "NO_GRID",
    "bad_length.tscn": "BUILT",  # the engine drops the incomplete cell the reader refuses
    "no_tilemap.tscn": "BUILT",  # the TileMap of the scene it instances
    "no_tileset.tscn": "NO_GRID",
    "unknown_tile.tscn": "BUILT",  # a tile id the TileSet lacks: a tile without collision, as the engine loads it
}


@pytest.mark.parametrize("name, status", BAD_SCENES.items())
def test_broken_fixture_scenes_under_a_navgrid(root, capsys, fixture_copy, name, status):
    scene = instance(root, str(fixture_copy / "bad" / name))
    tilemap = tilemaps_under(scene)[0]
    navgrid = new_navgrid(tilemap.get_parent(), f"../{tilemap.get_name()}")
    assert str(navgrid.call("get_last_status")) == status
    reported = errors(capsys)
    if status == "NO_GRID":
        assert reported == [f"pathing_py: CodeNavGrid: {navgrid.call('_get_configuration_warning')}"]
        return
    assert reported == []
    engine = EngineCells(tilemap)
    (ox, oy), (width, height) = engine.origin, engine.size
    for y in range(oy - 1, oy + height + 1):
        for x in range(ox - 1, ox + width + 1):
            assert bool(navgrid.call("is_cell_blocked", Vector2(x, y))) == (not engine.walkable((x, y))), (x, y)


# -- 6. maps bigger than their painted cells (bounds), tiles the TileSet lacks ---------------------

ARENA_BOUNDS = Rect2(-6, -4, 24, 14)  #: for obstacles_only.tscn, which paints only obstacles (and one wall beyond)


def arena(
    root: Node, fixture_copy: Path, tilemap_setup: Optional[Callable[[TileMap], None]] = None, **settings
) -> Tuple[TileMap, Node]:
    """The obstacles-only fixture (its TileMap changed by ``tilemap_setup``) under a NavGrid made in code with
    ``settings``."""
    scene = instance(root, str(fixture_copy / "obstacles_only.tscn"))
    tilemap: TileMap = scene.get_node("Obstacles")
    if tilemap_setup is not None:
        tilemap_setup(tilemap)
    return tilemap, new_navgrid(scene, "../Obstacles", **settings)


def centre(navgrid: Node, cell: Cell) -> Vector2:
    return navgrid.call("cell_to_world", Vector2(*cell))


def check_engine_cells(navgrid: Node, engine: EngineCells) -> None:
    """is_cell_blocked agrees with the engine's cells on the whole map and one cell beyond (outside blocks)."""
    (ox, oy), (width, height) = engine.origin, engine.size
    wrong = [
        (x, y)
        for y in range(oy - 1, oy + height + 1)
        for x in range(ox - 1, ox + width + 1)
        if bool(navgrid.call("is_cell_blocked", Vector2(x, y))) != (not engine.walkable((x, y)))
    ]
    assert not wrong, f"{len(wrong)} cells differ from the engine's, first {wrong[:5]}"


@pytest.mark.parametrize("blocking", [(), ("water",)])
def test_bounds_give_paths_between_unpainted_cells_and_out_of_bounds_beyond(root, capsys, fixture_copy, blocking):
    tilemap, navgrid = arena(root, fixture_copy, bounds=ARENA_BOUNDS, blocking_tiles=strings(blocking))
    engine = EngineCells(tilemap, blocking, bounds=ARENA_BOUNDS)
    check_engine_cells(navgrid, engine)
    used = tilemap.get_used_rect()
    unpainted = [cell for cell in engine.open_cells() if not used.has_point(Vector2(*cell))]
    assert len(unpainted) > 100
    rng = random.Random(5)
    found = 0
    for start, goal in [((-5, -3), (17, 9)), ((17, -4), (-6, 9))] + [
        (rng.choice(unpainted), rng.choice(engine.open_cells())) for _ in range(30)
    ]:
        path = navgrid.call("find_path", centre(navgrid, start), centre(navgrid, goal))
        status = str(navgrid.call("get_last_status"))
        if status == "FOUND":
            found += 1
            check_walkable(list(path), tilemap, engine, start, goal, smooth=True)
        else:
            assert status == "UNREACHABLE" and len(path) == 0, (start, goal, status)
    assert found >= 25
    assert errors(capsys) == []
    for outside in [(-7, 0), (18, 9), (0, -5), (30, 2)]:  # (30, 2) is painted, beyond the bounds
        assert len(navgrid.call("find_path", centre(navgrid, (-5, -3)), centre(navgrid, outside))) == 0
        assert str(navgrid.call("get_last_status")) == "OUT_OF_BOUNDS"
    # Once a run, one line says where the map ends and what sets it (issue 43).
    rect = (
        f"({int(ARENA_BOUNDS.position.x)}, {int(ARENA_BOUNDS.position.y)}) "
        f"to ({int(ARENA_BOUNDS.end.x) - 1}, {int(ARENA_BOUNDS.end.y) - 1})"
    )
    assert errors(capsys) == [
        f"pathing_py: CodeNavGrid: no path from cell (-5, -3) to cell (-7, 0): OUT_OF_BOUNDS: TileMap cell (-7, 0) "
        f"is outside the map, TileMap cells {rect} (the NavGrid's bounds)"
    ]


def test_bounds_on_an_isometric_tilemap_place_unpainted_cells_where_the_engine_does(root, capsys, fixture_copy):
    isometric = transformed(TRANSFORMS[1], GEOMETRIES[1])  # rotated and scaled as well
    tilemap, navgrid = arena(root, fixture_copy, isometric, bounds=ARENA_BOUNDS)
    engine = EngineCells(tilemap, bounds=ARENA_BOUNDS)
    check_engine_cells(navgrid, engine)
    used = tilemap.get_used_rect()
    unpainted = [cell for cell in engine.open_cells() if not used.has_point(Vector2(*cell))]
    misplaced = [cell for cell in unpainted if cell_of(tilemap.world_to_map(centre(navgrid, cell))) != cell]
    assert len(unpainted) > 100 and not misplaced, f"{len(misplaced)} unpainted cells misplaced, first {misplaced[:5]}"
    for start, goal in [((-5, -3), (17, 9)), ((17, -4), (-6, 9))]:  # corner to corner, outside the painted cells
        path = navgrid.call("find_path", centre(navgrid, start), centre(navgrid, goal))
        assert str(navgrid.call("get_last_status")) == "FOUND", (start, goal)
        check_walkable(list(path), tilemap, engine, start, goal, smooth=True)
    assert errors(capsys) == []


def test_without_bounds_the_map_is_the_painted_rectangle(root, capsys, fixture_copy):
    tilemap, navgrid = arena(root, fixture_copy)
    check_engine_cells(navgrid, EngineCells(tilemap))
    assert len(navgrid.call("find_path", centre(navgrid, (-5, -3)), centre(navgrid, (17, 9)))) == 0
    assert str(navgrid.call("get_last_status")) == "OUT_OF_BOUNDS"
    used = tilemap.get_used_rect()
    rect = f"({int(used.position.x)}, {int(used.position.y)}) to ({int(used.end.x) - 1}, {int(used.end.y) - 1})"
    [told] = errors(capsys)  # the map of a game that paints only obstacles ends at its painted cells: bounds says more
    assert told.endswith(
        f"TileMap cell (-5, -3) is outside the map, TileMap cells {rect} (the TileMap's painted rectangle; "
        "set the NavGrid's bounds to navigate beyond it)"
    ), told


def test_walls_go_up_on_unpainted_cells_inside_the_bounds(root, capsys, fixture_copy):
    tilemap, navgrid = arena(root, fixture_copy, bounds=ARENA_BOUNDS, wall_tile="wall")
    wall = signed_int(tilemap.get_tileset().find_tile_by_name("wall"))
    assert navgrid.call("set_cell_blocked", Vector2(-5, 3), True)
    assert signed_int(tilemap.get_cell(-5, 3)) == wall and navgrid.call("is_cell_blocked", Vector2(-5, 3))
    tilemap.set_cell(16, 8, wall)  # the game's own edit, beyond the painted rectangle
    assert navgrid.call("rebuild")
    check_engine_cells(navgrid, EngineCells(tilemap, bounds=ARENA_BOUNDS))
    assert not navgrid.call("set_cell_blocked", Vector2(-7, 3), True)  # beyond the bounds: refused, with the reason
    assert str(navgrid.call("get_last_status")) == "OUT_OF_BOUNDS" and len(errors(capsys)) == 1


@pytest.mark.parametrize(
    "bounds, problem",
    [
        (Rect2(0, 0, 2.5, 3), "bounds must be whole cells"),
        (Rect2(0, 0, -4, 3), "bounds must be at least one cell wide and high"),
    ],
)
def test_bad_bounds_are_a_warning_and_no_grid(root, capsys, fixture_copy, bounds, problem):
    _, navgrid = arena(root, fixture_copy, bounds=bounds)
    warning = str(navgrid.call("_get_configuration_warning"))
    assert problem in warning
    for _ in range(3):
        assert len(navgrid.call("find_path", Vector2(8, 8), Vector2(40, 40))) == 0
        assert str(navgrid.call("get_last_status")) == "NO_GRID"
    assert errors(capsys) == [f"pathing_py: CodeNavGrid: {warning}"]


def test_tiles_the_tileset_lacks_load_as_the_engine_loads_them(root, capsys, fixture_copy):
    scene = instance(root, str(fixture_copy / "missing_tiles.tscn"))
    tilemap: TileMap = scene.get_node("Ground")
    navgrid = new_navgrid(scene, "../Ground")
    assert str(navgrid.call("get_last_status")) == "BUILT"
    check_engine_cells(navgrid, EngineCells(tilemap))
    path = navgrid.call("find_path", centre(navgrid, (0, 0)), centre(navgrid, (8, 0)))
    assert str(navgrid.call("get_last_status")) == "FOUND" and (4, 0) in path_cells(path, tilemap)  # the doorway
    assert errors(capsys) == []
