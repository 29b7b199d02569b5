"""Godot's own ``hexagonal_map`` demo (godot-demo-projects, branch 3.x, ``2d/hexagonal_map/map.tscn``) with a
NavGrid added next to its TileMap, in the real engine (issue 40 item 2).

The scene is written by the test: the demo's TileMap as the demo sets it (cell size 82x94, ``cell_half_offset``
y, tile origin centre, its ``tile_data`` below), a TileSet of its 26 tile names without textures (their
pictures are not needed to navigate), and a NavGrid whose ``blocking_tiles`` are the demo's bushes, rocks and
ponds. The demo's tile_data is copied under its MIT license: Copyright (c) 2014-2022 Godot Engine
contributors, Copyright (c) 2007-2022 Juan Linietsky, Ariel Manzur.

The engine is the judge: ``world_to_map`` / ``map_to_world`` for conversions, and an AStar2D over the open
cells joined where the engine puts the two sides of their shared edge in the one and the other cell.
"""

import random
from pathlib import Path
from typing import List, Tuple

import pytest
from godot import OS, Node, PackedScene, PoolVector2Array, ResourceLoader, TileMap, Vector2

from tests.engine.in_godot.test_navgrid import (
    EngineCells,
    engine_axes,
    engine_centre,
    engine_hex_astar,
    errors,
    hex_paths_found,
    path_cells,
    strings,
)

Cell = Tuple[int, int]

#: The demo's TileMap cells: (position word, tile id, autotile word) as map.tscn lists them.
DEMO_TILE_DATA = (
    "-458747, 0, 0, -458746, 0, 0, -393212, 0, 0, -393211, 0, 0, -393210, 0, 0, -393209, 0, 0, -393208, 0, 0, "
    "-393207, 0, 0, -327678, 0, 0, -327677, 0, 0, -327676, 0, 0, -327675, 6, 0, -327674, 6, 0, -327673, 6, 0, "
    "-327672, 6, 0, -327671, 0, 0, -327670, 0, 0, -327669, 0, 0, -262142, 0, 0, -262141, 0, 0, -262140, 6, 0, "
    "-262139, 6, 0, -262138, 6, 0, -262137, 6, 0, -262136, 6, 0, -262135, 0, 0, -262134, 0, 0, -262133, 0, 0, "
    "-262132, 0, 0, -262131, 0, -1200553578, -196606, 0, 0, -196605, 0, 0, -196604, 6, 0, -196603, 6, 0, "
    "-196602, 6, 0, -196601, 6, 0, -196600, 1, 0, -196599, 0, 0, -196598, 1, 0, -196597, 1, 0, -196596, 0, 0, "
    "-196595, 0, -1200553578, -196594, 0, -1200553578, -131071, 9, 0, -131070, 0, 0, -131069, 0, 0, "
    "-131068, 2, 0, -131067, 2, 0, -131066, 0, 0, -131065, 21, 0, -131064, 19, 0, -131063, 0, 0, -131062, 0, 0, "
    "-131061, 16, -1200553578, -131060, 0, -1200553578, -131059, 0, 0, -131058, 0, 0, -131057, 0, 0, "
    "-131056, 0, -1200553578, -65534, 0, 0, -65533, 1, 0, -65532, 0, 0, -65531, 0, 0, -65530, 20, 0, "
    "-65529, 19, 0, -65528, 2, 0, -65527, 0, 0, -65526, 14, 0, -65525, 0, -1200553578, -65524, 0, 0, "
    "-65523, 0, 0, -65522, 23, 0, -65521, 0, 0, -65520, 0, -1200553578, -65519, 0, -1200553578, 3, 1, 0, "
    "4, 2, 0, 5, 0, 0, 6, 1, 0, 7, 1, -1200553578, 8, 0, -1200553578, 9, 10, -1200553578, 10, 12, -1200553578, "
    "11, 0, -1200553578, 12, 0, 0, 13, 8, 0, 14, 0, 0, 15, 0, 0, 16, 0, 0, 17, 0, 0, 65538, 0, -1200553578, "
    "65539, 0, 0, 65540, 2, 0, 65541, 0, 0, 65542, 1, 0, 65543, 15, -1200553578, 65544, 0, 0, 65545, 0, 0, "
    "65546, 0, 0, 65547, 0, 0, 65548, 0, 0, 65549, 25, 0, 65550, 8, 0, 65551, 0, 0, 65552, 21, 0, 65553, 0, 0, "
    "131074, 0, -1200553578, 131075, 1, 0, 131076, 0, 0, 131077, 1, 0, 131078, 0, 0, 131079, 0, 0, "
    "131080, 0, 0, 131081, 5, 0, 131082, 0, 0, 131083, 0, 0, 131084, 0, 0, 131085, 0, 0, 131086, 0, 0, "
    "131087, 0, 0, 131088, 0, 0, 131089, 0, 0, 196610, 0, -1200553578, 196611, 0, 0, 196612, 0, 0, "
    "196613, 23, 0, 196614, 0, 0, 196615, 0, 0, 196616, 0, 0, 196617, 5, 0, 196618, 5, 0, 196619, 0, 0, "
    "196620, 0, 0, 196621, 0, 0, 196622, 0, 0, 196623, 23, 0, 196624, 0, 0, 262148, 0, 0, 262149, 0, 0, "
    "262150, 0, 0, 262151, 0, 0, 262152, 8, 0, 262153, 5, 0, 262154, 5, 0, 262155, 0, 0, 262156, 0, 0, "
    "262157, 21, 0, 262158, 0, 0, 262159, 0, 0, 262160, 0, 0, 327686, 0, 0, 327687, 0, 0, 327688, 0, 0, "
    "327689, 0, 0, 327690, 0, 0, 327691, 0, 0, 327692, 0, 0, 327693, 0, 0, 327694, 0, 0"
)
#: The demo's tiles with bushes, rocks and ponds on them (ids 6, 8, 9, 10, 14, 25): what a game would block.
BLOCKING = ["Tile7", "Tile9", "Tile10", "Tile11", "Tile15", "Tile26"]


def demo_scene(folder: Path) -> Path:
    """The demo's map with a NavGrid beside its TileMap, written as a scene file; its path."""
    tiles = "".join(f'{id}/name = "Tile{id + 1}"\n{id}/tile_mode = 0\n{id}/shapes = [  ]\n' for id in range(26))
    text = f"""[gd_scene load_steps=3 format=2]

[ext_resource path="res://addons/pathing_py/nav_grid.py" type="Script" id=1]

[sub_resource type="TileSet" id=1]
{tiles}
[node name="Map" type="Node2D"]

[node name="TileMap" type="TileMap" parent="."]
tile_set = SubResource( 1 )
cell_size = Vector2( 82, 94 )
cell_half_offset = 1
cell_tile_origin = 1
format = 1
tile_data = PoolIntArray( {DEMO_TILE_DATA} )

[node name="NavGrid" type="Node2D" parent="."]
script = ExtResource( 1 )
empty_cells_passable = false
"""
    path = folder / "hexagonal_map.tscn"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def demo(root: Node, tmp_path: Path) -> Tuple[Node, TileMap, Node]:
    scene_file = demo_scene(tmp_path)
    packed: PackedScene = ResourceLoader.load(str(scene_file))
    assert packed is not None, f"cannot load {scene_file}"
    scene: Node = packed.instance()
    navgrid: Node = scene.get_node("NavGrid")
    navgrid.set("blocking_tiles", strings(BLOCKING))
    root.add_child(scene)
    return scene, scene.get_node("TileMap"), navgrid


def random_cell(rng: random.Random, tilemap: TileMap, margin: int) -> Cell:
    """A cell of the TileMap's used rectangle, grown by ``margin`` cells on every side."""
    used = tilemap.get_used_rect()
    low, high = used.position, used.end
    x = rng.randint(int(low.x) - margin, int(high.x) - 1 + margin)
    return x, rng.randint(int(low.y) - margin, int(high.y) - 1 + margin)


def find(navgrid: Node, start: Cell, goal: Cell) -> PoolVector2Array:
    """The NavGrid's path between the centres of two TileMap cells."""
    start_position, goal_position = (navgrid.call("cell_to_world", Vector2(*cell)) for cell in (start, goal))
    return navgrid.call("find_path", start_position, goal_position)


def edge_positions(tilemap: TileMap, rng: random.Random, count: int) -> List[Vector2]:
    """Points on the corners and edges of the demo's cells, and a hair either side of them."""
    x_axis, y_axis = engine_axes(tilemap)
    points = []
    while len(points) < count:
        cell = random_cell(rng, tilemap, 1)
        u, v = rng.choice([(0.0, 0.0), (0.5, 0.0), (0.0, 0.5), (1.0, 0.5), (0.5, 1.0)])
        hair = rng.choice([0.0, 1e-4, -1e-4, 1e-2, -1e-2])
        points.append(tilemap.map_to_world(Vector2(*cell)) + x_axis * (u + hair) + y_axis * (v - hair))
    return points


def test_conversions_agree_with_the_engine_at_40_positions_edges_included(demo, capsys):
    scene, tilemap, navgrid = demo
    assert str(navgrid.call("get_last_status")) == "BUILT" and str(navgrid.call("_get_configuration_warning")) == ""
    rng = random.Random(40)
    x_axis, y_axis = engine_axes(tilemap)
    inside = []
    for _ in range(15):
        cell = random_cell(rng, tilemap, 0)
        inside.append(tilemap.map_to_world(Vector2(*cell)) + x_axis * rng.random() + y_axis * rng.random())
    positions = inside + edge_positions(tilemap, rng, 25)
    assert len(positions) == 40
    wrong = [
        (p, navgrid.call("world_to_cell", p), tilemap.world_to_map(p))
        for p in positions
        if navgrid.call("world_to_cell", p) != tilemap.world_to_map(p)
    ]
    assert not wrong, f"{len(wrong)} of 40 positions differ (position, ours, engine): {wrong}"
    for cell in [tuple(int(c) for c in (p.x, p.y)) for p in tilemap.get_used_cells()]:
        centre = navgrid.call("cell_to_world", Vector2(*cell))
        assert (centre - engine_centre(tilemap, cell)).length() < 1e-3, (cell, centre)
        assert tilemap.world_to_map(centre) == Vector2(*cell)
    assert errors(capsys) == []


@pytest.mark.parametrize("smooth", [True, False])
def test_paths_are_legal_and_as_long_as_the_engines_six_neighbour_astar(demo, capsys, smooth):
    scene, tilemap, navgrid = demo
    navgrid.set("smooth_paths", smooth)
    engine = EngineCells(tilemap, BLOCKING, empty_passable=False)
    astar, ids = engine_hex_astar(tilemap, engine)
    assert 100 < len(ids) < 180 and all(len(astar.get_point_connections(index)) <= 6 for index in ids.values())
    assert hex_paths_found(navgrid, tilemap, engine, astar, ids, random.Random(41)) >= 30
    assert errors(capsys) == []


def test_smoothing_pulls_paths_onto_hex_lines(demo):
    scene, tilemap, navgrid = demo
    smoothed = path_cells(find(navgrid, (2, -4), (15, 4)), tilemap)
    navgrid.set("smooth_paths", False)
    exact = path_cells(find(navgrid, (2, -4), (15, 4)), tilemap)
    assert smoothed != exact and smoothed[0] == exact[0] and smoothed[-1] == exact[-1]


def press_bake(navgrid: Node, scene_path: str) -> None:
    """What the editor's bake button does: start_bake, then the frames that poll the job until it ends (the bake
    runs on a worker thread)."""
    assert str(navgrid.call("start_bake", scene_path)) == ""
    for _ in range(6000):
        if not navgrid.is_processing():
            break
        navgrid.call("_process", 0.0)
        OS.delay_msec(5)
    assert not navgrid.is_processing(), "the bake did not end within 30 s"


def test_the_bake_button_bakes_a_hex_graph_that_the_navgrid_loads_and_answers_with(demo, capsys):
    """The editor's bake button (start_bake) writes the hex graph beside the scene; the NavGrid loads it without a
    warning, and its paths are legal, found exactly when the engine's six-neighbour AStar2D finds one, and within
    the graph's bound (5%) of its length; an edit re-routes them as the AStar2D of the edited map does."""
    scene, tilemap, navgrid = demo
    graph_file = Path("tests/engine/in_godot/hexagonal_map.kpg")  # the run's working directory is the project's
    press_bake(navgrid, "res://tests/engine/in_godot/hexagonal_map.tscn")
    try:
        assert graph_file.exists() and graph_file.read_bytes().startswith(b"PATHING_PY KEY-POINT GRAPH")
        printed = capsys.readouterr().out
        assert "pathing_py: NavGrid: Baked" in printed and "hexagonal_map.kpg" in printed
        navgrid.set("graph_path", "res://tests/engine/in_godot/hexagonal_map.kpg")
        navgrid.set("floor_tile", "Tile1")  # grass, painted where a cell is freed
        navgrid.set("wall_tile", "Tile7")  # a bush: blocking, painted on the TileMap by set_cell_blocked
        navgrid.call("rebuild")
        assert str(navgrid.call("_get_configuration_warning")) == ""
        engine = EngineCells(tilemap, BLOCKING, empty_passable=False)
        astar, ids = engine_hex_astar(tilemap, engine)
        assert hex_paths_found(navgrid, tilemap, engine, astar, ids, random.Random(40), slack=0.05) >= 30
        for cell in [(6, 1), (7, 1), (8, 1)]:
            assert navgrid.call("set_cell_blocked", Vector2(*cell), True), str(navgrid.call("get_last_status"))
        engine = EngineCells(tilemap, BLOCKING, empty_passable=False)
        astar, ids = engine_hex_astar(tilemap, engine)
        assert hex_paths_found(navgrid, tilemap, engine, astar, ids, random.Random(41), slack=0.05) >= 30
        assert errors(capsys) == []
    finally:
        graph_file.unlink()
