"""The TileMap reader (SPEC G1): tile_data decoding, collision and blocking rules (pathing_py.godot.tile_data), scene
files and their errors (scene_files, text)."""

import math
import re
import shutil
from pathlib import Path
from typing import Iterable, Tuple

import numpy as np
import pytest

from pathing_py import Grid, MapFormatError
from pathing_py.godot.scene_files import grid_from_tscn, list_tilemaps, nav_grid_settings, read_tilemap
from pathing_py.godot.text import Constructor, ResourceRef, parse_file, parse_text
from pathing_py.godot.tile_data import BOUNDS_MAX_CELLS, CellRect, cell_rect, decode_tile_data, grid_from_tile_data

FIXTURES = Path(__file__).resolve().parent.parent / "support" / "fixtures"
BAD = FIXTURES / "bad"
LEVEL = FIXTURES / "levels" / "terrain_level.tscn"

# Tile ids of fixtures/tilesets/terrain.tres.
GRASS, WALL, WATER, BRIDGE, CLIFF, PROPS, PILLAR = 0, 1, 2, 4, 5, 7, 9


def encode(cells: Iterable[Tuple], format: int = 1) -> np.ndarray:
    """tile_data as Godot writes it; cells are (x, y, tile[, flip_h, flip_v, transpose[, ax, ay]])."""
    words = []
    for x, y, tile, *rest in cells:
        flip_h, flip_v, transpose, ax, ay = (list(rest) + [False, False, False, 0, 0][len(rest) :])[:5]
        value = tile | flip_h << 29 | flip_v << 30 | transpose << 31
        words += [(y & 0xFFFF) << 16 | (x & 0xFFFF), value]
        if format == 1:
            words.append((ay & 0xFFFF) << 16 | (ax & 0xFFFF))
    return np.array(words, dtype=np.int64).astype(np.uint32).view(np.int32)


def cell_list(cells) -> list:
    return list(zip(cells.x.tolist(), cells.y.tolist()))


# -- decoding ---------------------------------------------------------------------------


def test_positions_are_signed_16_bit_as_in_the_notes():
    cells = decode_tile_data([-65536, 0, 0, 65535, 0, 0, 0, 0, 0])
    assert cell_list(cells) == [(0, -1), (-1, 0), (0, 0)]


def test_extreme_coordinates_round_trip():
    data = encode([(-32768, 32767, 3), (32767, -32768, 4)])
    cells = decode_tile_data(data)
    assert cell_list(cells) == [(32767, -32768), (-32768, 32767)]
    assert cells.tile.tolist() == [4, 3]
    assert cells.origin == (-32768, -32768) and cells.size == (65536, 65536)


@pytest.mark.parametrize("flip_h, flip_v, transpose", [(h, v, t) for h in (0, 1) for v in (0, 1) for t in (0, 1)])
def test_flags_are_split_from_the_tile_id(flip_h, flip_v, transpose):
    cells = decode_tile_data(encode([(2, -3, 77, flip_h, flip_v, transpose, 4, 1)]))
    assert cells.tile.tolist() == [77]
    assert (cells.flip_h[0], cells.flip_v[0], cells.transpose[0]) == (flip_h, flip_v, transpose)
    assert (cells.autotile_x[0], cells.autotile_y[0]) == (4, 1)


def test_old_two_int_layout_has_no_autotile_coordinate():
    data = encode([(-1, -1, 5, True), (3, 0, 2)], format=0)
    cells = decode_tile_data(data, format=0)
    assert cell_list(cells) == [(-1, -1), (3, 0)]
    assert cells.tile.tolist() == [5, 2] and cells.flip_h.tolist() == [True, False]
    assert cells.autotile_x.tolist() == [0, 0] and cells.autotile_y.tolist() == [0, 0]


def test_every_integer_representation_decodes_alike():
    """int32 from files, uint32, and the unsigned 64-bit values of godot-python 0.50."""
    signed = encode([(-5, -7, 3, True, True, True, 2, 1), (0, 0, 1)])
    as_uint64 = signed.astype(np.int64).astype(np.uint64)
    as_python = [int(value) for value in as_uint64]  # beyond int64: numpy makes it an object array
    for data in (signed, signed.view(np.uint32), as_uint64, as_python, signed.tolist()):
        cells = decode_tile_data(data)
        assert cell_list(cells) == [(-5, -7), (0, 0)]
        assert cells.tile.tolist() == [3, 1] and cells.transpose.tolist() == [True, False]


def test_a_cell_listed_twice_keeps_its_last_entry():
    cells = decode_tile_data(encode([(1, 1, 4), (0, 0, 2), (1, 1, 9)]))
    assert cell_list(cells) == [(0, 0), (1, 1)]
    assert cells.tile.tolist() == [2, 9]


def test_cells_are_sorted_by_row_then_column():
    cells = decode_tile_data(encode([(1, 0, 0), (-1, 1, 0), (0, -1, 0), (-2, 0, 0)]))
    assert cell_list(cells) == [(0, -1), (-2, 0), (1, 0), (-1, 1)]


@pytest.mark.parametrize("format, length", [(1, 4), (1, 8), (0, 3)])
def test_bad_length_is_an_error(format, length):
    with pytest.raises(MapFormatError, match=rf"tile_data has {length} ints, not a multiple of {3 if format else 2}"):
        decode_tile_data(list(range(length)), format=format)


def test_unknown_format_is_an_error():
    with pytest.raises(MapFormatError, match="unsupported TileMap format 2"):
        decode_tile_data([0, 0, 0], format=2)


def test_tile_data_must_be_flat_integers():
    with pytest.raises(TypeError, match="tile_data must be a flat sequence of integers"):
        decode_tile_data([0.0, 1.5, 2.0])
    with pytest.raises(TypeError, match="tile_data must hold integers, got dtype float64"):
        decode_tile_data(np.zeros(3))
    with pytest.raises(ValueError, match="one-dimensional"):
        decode_tile_data(np.zeros((2, 3), dtype=np.int32))


# -- the grid from tile data -----------------------------------------------------------


def test_grid_covers_the_used_rectangle_with_origin():
    data = encode([(-3, -2, 0), (1, 0, 1)])
    grid = grid_from_tile_data(data, collision={0: False, 1: True})
    assert grid.origin == (-3, -2) and (grid.width, grid.height) == (5, 3)
    expected = np.ones((3, 5), dtype=bool)
    expected[2, 4] = False
    assert np.array_equal(grid.passable, expected)


def test_empty_cells_may_block():
    data = encode([(0, 0, 0), (2, 1, 0)])
    grid = grid_from_tile_data(data, collision={0: False}, empty_passable=False)
    assert grid.passable.tolist() == [[True, False, False], [False, False, True]]


def test_autotile_blocks_only_on_sub_tiles_with_a_shape():
    cells = [(x, 0, 5, x % 2, 0, 0, ax, ay) for x, (ax, ay) in enumerate([(0, 0), (1, 0), (2, 1), (1, 1), (0, 0)])]
    grid = grid_from_tile_data(encode(cells), collision={5: {(0, 0), (2, 1)}})
    assert grid.passable.tolist() == [[False, True, False, True, False]]


def test_autotile_with_no_shaped_sub_tile_never_blocks():
    grid = grid_from_tile_data(encode([(0, 0, 5, 0, 0, 0, 1, 0)]), collision={5: frozenset()})
    assert grid.passable.tolist() == [[True]]


def test_flips_do_not_change_collision():
    cells = [(x, 0, 1, x & 1, x & 2, x & 4) for x in range(8)] + [(8, 0, 0)]
    grid = grid_from_tile_data(encode(cells), collision={0: False, 1: True})
    assert grid.passable.tolist() == [[False] * 8 + [True]]


def test_blocking_by_id_and_by_name():
    data = encode([(0, 0, 0), (1, 0, 2), (2, 0, 3), (3, 0, 4), (4, 0, 0)])
    collision = {0: False, 2: False, 3: False, 4: False}
    names = {0: "grass", 2: "water", 3: "lava", 4: "lava"}  # names need not be unique in Godot
    grid = grid_from_tile_data(data, collision=collision, names=names, blocking=[2, "lava"])
    assert grid.passable.tolist() == [[True, False, False, False, True]]
    grid = grid_from_tile_data(data, collision=collision, names=names, blocking=np.array([2]))
    assert grid.passable.tolist() == [[True, False, True, True, True]]


def test_blocking_accepts_any_iterable_and_numpy_ids():
    data = encode([(0, 0, 0), (1, 0, 1)])
    grid = grid_from_tile_data(data, collision={0: False, 1: False}, blocking=(np.int64(1) for _ in range(1)))
    assert grid.passable.tolist() == [[True, False]]


def test_unknown_tile_id_names_id_and_cell():
    data = encode([(0, 0, 0), (-4, 7, 12)])
    with pytest.raises(MapFormatError, match=re.escape("unknown tile id 12 at cell (-4, 7); the TileSet has ids 0, 1")):
        grid_from_tile_data(data, collision={0: False, 1: True})


def test_bounds_set_the_cells_of_the_grid_painted_or_not():
    data = encode([(-3, -2, 0), (1, 0, 1), (9, 9, 1)])
    grid = grid_from_tile_data(data, collision={0: False, 1: True}, bounds=CellRect(-4, -3, 8, 5))
    assert grid.origin == (-4, -3) and (grid.width, grid.height) == (8, 5)
    expected = np.ones((5, 8), dtype=bool)
    expected[0 + 3, 1 + 4] = False  # the wall at (1, 0); the one at (9, 9) lies outside
    assert np.array_equal(grid.passable, expected)
    walled = grid_from_tile_data(data, collision={0: False, 1: True}, bounds=(-3, -2, 2, 2), empty_passable=False)
    assert walled.passable.tolist() == [[True, False], [False, False]]


def test_an_empty_tilemap_with_bounds_is_all_open():
    grid = grid_from_tile_data([], collision={0: True}, bounds=(0, 0, 3, 2))
    assert grid.passable.all() and grid.passable.shape == (2, 3)


@pytest.mark.parametrize(
    "bounds, message",
    [
        ((0, 0, 0, 4), "bounds must be at least one cell wide and high, got 0x4"),
        ((0, 0, 4, -1), "at least one cell wide and high, got 4x-1"),
        ((0.5, 0, 4, 4), "bounds must be whole cells, got (0.5, 0.0, 4.0, 4.0)"),
        ((0, math.nan, 4, 4), "bounds must be whole cells"),
        ((0, 0, 4), "bounds must be four numbers (x, y, width, height), got 3"),
        ("0 0 4 4", "bounds must be four numbers"),
        (None, "bounds must be four numbers (x, y, width, height), got None"),
        ((32760, 0, 10, 1), "bounds (32760, 0) to (32769, 0) leaves the cells a Godot 3 TileMap has (-32768 to 32767)"),
        ((0, 0, 4097, 4096), f"bounds of 4097x4096 cells is larger than {BOUNDS_MAX_CELLS} cells"),
    ],
)
def test_bad_bounds_say_what_is_wrong(bounds, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        cell_rect(bounds)
    if bounds is not None:  # None: no bounds, the used rectangle
        with pytest.raises(ValueError, match=re.escape(message)):
            grid_from_tile_data(encode([(0, 0, 0)]), collision={0: False}, bounds=bounds)


def test_bounds_without_a_passable_cell_name_the_rectangle():
    with pytest.raises(MapFormatError, match=re.escape("no passable cell in the 1x1 map (5, 5) to (5, 5)")):
        grid_from_tile_data(encode([(5, 5, 1)]), collision={1: True}, bounds=(5, 5, 1, 1))


def test_unknown_tile_ids_may_be_read_as_the_engine_loads_them():
    data = encode([(0, 0, 0), (-4, 7, 12), (1, 0, 1)])
    grid = grid_from_tile_data(data, collision={0: False, 1: True}, unknown_tiles="open", empty_passable=False)
    assert grid.is_passable((0, 7)) and not grid.is_passable((5, 7))  # tile 12 at (-4, 7); (1, 0) is a wall
    with pytest.raises(ValueError, match="unknown_tiles must be one of 'error', 'open', got 'skip'"):
        grid_from_tile_data(data, collision={0: False, 1: True}, unknown_tiles="skip")


def test_a_missing_tile_fixture_is_refused_or_read_as_the_engine_does():
    scene = FIXTURES / "missing_tiles.tscn"
    with pytest.raises(
        MapFormatError, match=r"unknown tile id 0 at cell \(4, 0\); the TileSet has ids 1, 2 \(unknown_tiles=\"open\""
    ):
        read_tilemap(scene)
    grid = grid_from_tscn(scene, unknown_tiles="open")
    assert grid.origin == (-3, -2)
    assert grid.is_passable((4 + 3, 0 + 2)) and not grid.is_passable((4 + 3, 1 + 2))  # the doorway in the wall


def test_grid_from_tscn_takes_bounds():
    grid = grid_from_tscn(FIXTURES / "obstacles_only.tscn", bounds=(-6, -4, 24, 14))
    assert grid.origin == (-6, -4) and (grid.width, grid.height) == (24, 14)
    assert not grid.is_passable((3 + 6, 0 + 4)) and grid.is_passable((0 + 6, 0 + 4))


def test_nav_grid_settings_read_bounds(tmp_path):
    scene = (FIXTURES / "obstacles_only.tscn").read_text() + (
        '\n[node name="NavGrid" type="Node2D" parent="."]\nscript = ExtResource( 9 )\n'
        'tilemap_path = NodePath("../Obstacles")\nbounds = Rect2( -6, -4, 24, 14 )\n'
    )
    scene = scene.replace(
        '[node name="Arena"',
        '[ext_resource path="res://addons/pathing_py/nav_grid.py" type="Script" id=9]\n\n[node name="Arena"',
    )
    (tmp_path / "arena.tscn").write_text(scene)
    (settings,) = nav_grid_settings(tmp_path / "arena.tscn")
    assert settings.bounds == CellRect(-6, -4, 24, 14) and settings.tilemap == "Arena/Obstacles"
    (tmp_path / "unset.tscn").write_text(scene.replace("Rect2( -6, -4, 24, 14 )", "Rect2( 0, 0, 0, 0 )"))
    assert nav_grid_settings(tmp_path / "unset.tscn")[0].bounds is None
    (tmp_path / "bad.tscn").write_text(scene.replace("Rect2( -6, -4, 24, 14 )", "Rect2( 0, 0, 2.5, 3 )"))
    with pytest.raises(MapFormatError, match=r"bad.tscn:\d+: NavGrid 'Arena/NavGrid': bounds must be whole cells"):
        nav_grid_settings(tmp_path / "bad.tscn")


def test_a_godot_4_scene_is_named_before_its_body_is_parsed():
    with pytest.raises(
        MapFormatError,
        match=re.escape(
            f"{BAD / 'godot4.tscn'}:1: this is a Godot 4 scene (format=3); pathing_py reads Godot 3 scenes (format=2)"
        ),
    ):
        read_tilemap(BAD / "godot4.tscn")
    with pytest.raises(MapFormatError, match=re.escape("this is a Godot 4 resource (format=3)")):
        parse_text('[gd_resource type="TileSet" format=3 uid="uid://x"]\n\n[resource]\n0/name = &"floor"\n')


def test_no_cells_is_an_error():
    with pytest.raises(MapFormatError, match="has no cells"):
        grid_from_tile_data([], collision={0: False})


def test_no_passable_cell_is_an_error():
    data = encode([(0, 0, 1), (2, 0, 1)])
    with pytest.raises(
        MapFormatError, match=r"no passable cell in the 3x1 map \(0, 0\) to \(2, 0\) \(empty cells count as blocked\)"
    ):
        grid_from_tile_data(data, collision={1: True}, empty_passable=False)
    with pytest.raises(MapFormatError, match="no passable cell"):
        grid_from_tile_data(encode([(0, 0, 0)]), collision={0: False}, blocking=[0])


@pytest.mark.parametrize(
    "blocking, names, error, message",
    [
        (["lava"], {0: "grass"}, ValueError, "no tile named 'lava'; tile names: 'grass'"),
        (["grass"], None, ValueError, "no tile named 'grass'; tile names: none"),
        ([7], {}, ValueError, "no tile id 7; ids: 0"),
        ([1.0], {}, TypeError, "1.0 is neither a tile id"),
        ([True], {}, TypeError, "True is neither a tile id"),
        ("grass", {0: "grass"}, TypeError, "blocking must be an iterable"),
        (3, {}, TypeError, "blocking must be an iterable"),
    ],
)
def test_bad_blocking_argument(blocking, names, error, message):
    with pytest.raises(error, match=re.escape(message)):
        grid_from_tile_data(encode([(0, 0, 0)]), collision={0: False}, names=names, blocking=blocking)


def test_bad_collision_rule_is_a_type_error():
    with pytest.raises(TypeError, match=r"collision\[0\] must be a bool or a set"):
        grid_from_tile_data(encode([(0, 0, 0)]), collision={0: 1})


# -- scene files: fixtures made by Godot 3.2 ----------------------------------------------


def test_embedded_tileset_negative_cells_and_flips():
    data = read_tilemap(FIXTURES / "negative_flips.tscn")
    assert data.node_path == "World/Ground"
    assert data.origin == (-260, -300) and data.cells.size == (10, 7)
    assert data.collision == {0: False, 1: True, 3: frozenset({(1, 0)})}
    assert data.names == {0: "floor", 1: "rock", 3: "bush"}
    index = cell_list(data.cells).index((-252, -294))
    assert data.cells.tile[index] == 3 and data.blocked[index]
    assert data.cells.flip_h[index] and data.cells.flip_v[index] and data.cells.transpose[index]
    assert data.cells.flip_h.any() and not data.cells.flip_h.all()


def test_external_tileset_autotile_and_atlas():
    data = read_tilemap(LEVEL)
    assert data.node_path == "Level/Terrain" and data.origin == (-5, -3) and data.cells.size == (10, 6)
    assert data.collision == {
        GRASS: False,
        WALL: True,
        WATER: False,
        BRIDGE: False,  # its only shape slot holds null
        CLIFF: frozenset({(0, 0), (2, 1)}),
        PROPS: frozenset({(1, 0), (0, 2)}),
        PILLAR: True,  # a single tile collides whatever its shape's autotile_coord
    }
    blocked = {
        (int(tile), (int(ax), int(ay)))
        for tile, ax, ay in zip(
            data.cells.tile[data.blocked],
            data.cells.autotile_x[data.blocked],
            data.cells.autotile_y[data.blocked],
        )
    }
    assert blocked == {
        (WALL, (0, 0)),
        (PILLAR, (0, 0)),
        (CLIFF, (0, 0)),
        (CLIFF, (2, 1)),
        (PROPS, (1, 0)),
        (PROPS, (0, 2)),
    }
    hole = (0 + 3, 0 + 5)  # cell (0, 0), empty, at [y - origin y, x - origin x]
    assert data.passable()[hole] and not data.passable(empty_passable=False)[hole]


def test_blocking_by_name_in_a_scene():
    plain = read_tilemap(LEVEL).passable()
    water = read_tilemap(LEVEL, blocking=["water", BRIDGE]).passable()
    assert np.array_equal(plain[:, 3:], water[:, 3:])
    assert plain[5, :3].all() and not water[5, :3].any()  # water, water, bridge on the last row


def test_grid_from_tscn_uses_the_reader():
    grid = grid_from_tscn(LEVEL, blocking=["water"], empty_passable=False)
    assert grid.origin == (-5, -3)
    assert np.array_equal(grid.passable, read_tilemap(LEVEL, blocking=["water"]).passable(empty_passable=False))


def test_grid_from_tscn_still_answers_to_its_old_name_and_says_so():
    with pytest.warns(DeprecationWarning, match="Grid.from_tscn moved to pathing_py.godot.scene_files.grid_from_tscn"):
        grid = Grid.from_tscn(LEVEL, "Terrain", ["water"], empty_passable=False, bounds=(-5, -3, 4, 4))
    expected = grid_from_tscn(LEVEL, "Terrain", ["water"], empty_passable=False, bounds=(-5, -3, 4, 4))
    assert grid.origin == expected.origin and np.array_equal(grid.passable, expected.passable)


def test_old_format_scene_with_legacy_shape_property():
    data = read_tilemap(FIXTURES / "old_format.tscn")
    assert data.node_path == "Old" and data.origin == (-1, -1)
    assert data.collision == {0: False, 1: True}
    assert data.passable().tolist() == [[True, True, False], [True, True, False], [True, False, True]]


@pytest.mark.parametrize(
    "choice, node_path",
    [
        ("Walls", "Map/Overlay/Walls"),
        ("Overlay/Walls", "Map/Overlay/Walls"),
        ("Map/Ground", "Map/Ground"),
        ("Overlay/Ground", "Map/Overlay/Ground"),
        ("Map/Overlay/Ground", "Map/Overlay/Ground"),
    ],
)
def test_choose_a_tilemap_by_name_or_path(choice, node_path):
    assert read_tilemap(FIXTURES / "two_tilemaps.tscn", tilemap=choice).node_path == node_path


def test_list_tilemaps_in_file_order():
    assert list_tilemaps(FIXTURES / "two_tilemaps.tscn") == [
        "Map/Ground",
        "Map/Overlay/Walls",
        "Map/Overlay/Ground",
    ]


@pytest.mark.parametrize(
    "choice, message",
    [
        (None, "several TileMap nodes ('Map/Ground', 'Map/Overlay/Walls', 'Map/Overlay/Ground'); choose one"),
        (
            "Ground",
            "several TileMaps match 'Ground' ('Map/Ground', 'Map/Overlay/Ground'); give the node path",
        ),
        (
            "Floor",
            "no TileMap 'Floor'; TileMap nodes: 'Map/Ground', 'Map/Overlay/Walls', 'Map/Overlay/Ground'",
        ),
    ],
)
def test_tilemap_choice_errors(choice, message):
    scene = FIXTURES / "two_tilemaps.tscn"
    with pytest.raises(MapFormatError, match=re.escape(f"{scene}: {message}")):
        read_tilemap(scene, tilemap=choice)


def test_res_paths_without_a_project_resolve_from_the_scene_folder(tmp_path):
    shutil.copy(FIXTURES / "tilesets" / "box_shape.tres", tmp_path / "box_shape.tres")
    tileset = (FIXTURES / "tilesets" / "terrain.tres").read_text().replace("res://tilesets/", "res://")
    (tmp_path / "terrain.tres").write_text(tileset)
    scene = LEVEL.read_text().replace("res://tilesets/terrain.tres", "res://terrain.tres")
    (tmp_path / "level.tscn").write_text(scene)
    assert read_tilemap(tmp_path / "level.tscn").collision[CLIFF] == {(0, 0), (2, 1)}
    (tmp_path / "level.tscn").write_text(scene.replace("res://terrain.tres", "terrain.tres"))
    assert read_tilemap(tmp_path / "level.tscn").collision[WALL] is True


# -- scene files: errors name the file and line ------------------------------------------


@pytest.mark.parametrize(
    "name, line, message",
    [
        ("unclosed_section.tscn", 3, "section [node …] is not closed with ']'"),
        ("no_tileset.tscn", 5, "TileMap 'World/Ground' has no TileSet (tile_set)"),
        (
            "unknown_tile.tscn",
            14,
            "TileMap 'World/Ground': unknown tile id 6 at cell (-2, 3); the TileSet has ids 0, 1",
        ),
        ("bad_length.tscn", 9, "TileMap 'Ground': tile_data has 8 ints, not a multiple of 3 (format 1)"),
        ("missing_tres.tscn", 3, "TileSet file res://tilesets/missing.tres not found"),
        ("bad_value.tscn", 9, "PoolIntArray( ) must hold integers separated by commas"),
    ],
)
def test_bad_fixture_errors(name, line, message):
    with pytest.raises(MapFormatError, match=re.escape(f"{BAD / name}:{line}: {message}")):
        read_tilemap(BAD / name)


def test_no_tilemap_mentions_instanced_scenes():
    with pytest.raises(
        MapFormatError, match=r"no_tilemap.tscn: no TileMap node in the scene \(TileMaps inside instanced"
    ):
        read_tilemap(BAD / "no_tilemap.tscn")


def test_all_blocked_scene_has_no_passable_cell():
    data = read_tilemap(BAD / "all_blocked.tscn")
    with pytest.raises(
        MapFormatError, match=re.escape(f"{BAD / 'all_blocked.tscn'}:12: TileMap 'Ground': no passable")
    ):
        data.passable()


TILESET = """[sub_resource type="RectangleShape2D" id=1]

[sub_resource type="TileSet" id=2]
0/name = "floor"
"""
TILEMAP = """
[node name="Ground" type="TileMap"]
tile_set = SubResource( 2 )
format = 1
tile_data = PoolIntArray( 0, 0, 0 )
"""


@pytest.mark.parametrize(
    "text, line, message",
    [
        ("", 1, "the file is empty"),
        ("format = 2\n", 1, "expected a [gd_scene …] or [gd_resource …] header"),
        ('[gd_resource type="TileSet" format=2]\n', 1, "expected a [gd_scene …] file, found [gd_resource"),
        ("[gd_scene format=3]\n", 1, "this is a Godot 4 scene (format=3); pathing_py reads Godot 3 scenes (format=2)"),
        ("[gd_scene format=1]\n", 1, "format=1 is not a Godot 3 file (format=2)"),
        (
            "[gd_scene format=2]\n" + TILESET + '0/shapes = [ {\n"shape": SubResource( 1 )\n',
            6,
            "'{' is not closed with '}'",
        ),
        ("[gd_scene format=2]\n" + TILESET + "0/shapes = [ 1,\n2\n", 6, "'[' is not closed with ']'"),
        ("[gd_scene format=2]\n" + TILESET + '0/name = "floor\n', 6, "string is not closed"),
        ("[gd_scene format=2]\n" + TILESET + "0/texture = Nothing\n", 6, "unknown value 'Nothing'"),
        (
            "[gd_scene format=2]\n" + TILESET + "0/modulate Color( 1, 1, 1, 1 )\n",
            6,
            "expected 'name = value'",
        ),
        ("[gd_scene format=2]\n" + TILESET + "0/shapes = 3\n" + TILEMAP, 6, "0/shapes must be an array"),
        (
            "[gd_scene format=2]\n" + TILESET + "0/shapes = [ 3 ]\n" + TILEMAP,
            6,
            "each entry of shapes must be a dictionary",
        ),
        (
            "[gd_scene format=2]\n" + TILESET + "0/shape = SubResource( 7 )\n" + TILEMAP,
            6,
            "no [sub_resource … id=7]",
        ),
        ("[gd_scene format=2]\n" + TILESET + "0/shape = 5\n" + TILEMAP, 6, "a shape must be SubResource"),
        ("[gd_scene format=2]\n" + TILESET + "0/tile_mode = 4\n" + TILEMAP, 6, "tile_mode must be 0, 1 or 2"),
        (
            "[gd_scene format=2]\n"
            + TILESET
            + '0/shapes = [ { "shape": SubResource( 1 ), "autotile_coord": 3 } ]\n'
            + TILEMAP,
            6,
            "autotile_coord must be a Vector2",
        ),
        (
            "[gd_scene format=2]\n" + TILESET + TILEMAP.replace("SubResource( 2 )", "SubResource( 1 )"),
            8,
            "resource id=1 is a RectangleShape2D, not a TileSet",
        ),
        (
            "[gd_scene format=2]\n" + TILESET + TILEMAP.replace("SubResource( 2 )", "ExtResource( 1 )"),
            8,
            "no [ext_resource … id=1]",
        ),
        (
            "[gd_scene format=2]\n" + TILESET + TILEMAP.replace("SubResource( 2 )", "5"),
            8,
            "tile_set must be a SubResource or ExtResource",
        ),
        (
            "[gd_scene format=2]\n" + TILESET + TILEMAP.replace("format = 1", "format = 1.5"),
            9,
            "TileMap 'Ground': format must be 0 or 1",
        ),
        (
            "[gd_scene format=2]\n" + TILESET + TILEMAP.replace("format = 1", "format = 7"),
            9,
            "TileMap 'Ground': format must be 0 or 1 (Godot 3 writes 1), got 7",
        ),
        (
            "[gd_scene format=2]\n" + TILESET + TILEMAP.replace("PoolIntArray( 0, 0, 0 )", "[ 0, 0, 0 ]"),
            10,
            "TileMap 'Ground': tile_data must be a PoolIntArray",
        ),
        (
            "[gd_scene format=2]\n" + TILESET + TILEMAP.replace("PoolIntArray( 0, 0, 0 )", "PoolIntArray(  )"),
            10,
            "TileMap 'Ground': tile_data has no cells",
        ),
        (
            '[gd_scene format=2]\n[node name="A" type="Node2D"]\n[node name="B" type="Node2D"]\n',
            3,
            "node 'B' has no parent but is not the root",
        ),
        (
            '[gd_scene format=2]\n[node name="A" type="Node2D" parent="."]\n',
            2,
            "node 'A' comes before the root node",
        ),
        ('[gd_scene format=2]\n[node type="Node2D"]\n', 2, 'a node needs name="…"'),
    ],
)
def test_scene_text_errors(tmp_path, text, line, message):
    scene = tmp_path / "scene.tscn"
    scene.write_text(text)
    with pytest.raises(MapFormatError, match=re.escape(f"{scene}:{line}: {message}")):
        read_tilemap(scene).grid()


def test_tileset_file_must_be_a_text_tileset(tmp_path):
    (tmp_path / "project.godot").write_text("")
    (tmp_path / "shape.tres").write_text('[gd_resource type="RectangleShape2D" format=2]\n\n[resource]\n')
    (tmp_path / "empty.tres").write_text('[gd_resource type="TileSet" format=2]\n')
    scene = '[gd_scene format=2]\n[ext_resource path="{path}" type="TileSet" id=1]\n' + TILEMAP.replace(
        "SubResource( 2 )", "ExtResource( 1 )"
    )
    cases = [
        ("res://shape.tres", f"{tmp_path / 'shape.tres'}:1: expected a TileSet resource"),
        ("res://empty.tres", f"{tmp_path / 'empty.tres'}: no [resource] section"),
        ("res://tiles.res", f"{tmp_path / 'scene.tscn'}:2: res://tiles.res is not a text resource (.tres)"),
    ]
    for path, message in cases:
        (tmp_path / "scene.tscn").write_text(scene.format(path=path))
        with pytest.raises(MapFormatError, match=re.escape(message)):
            read_tilemap(tmp_path / "scene.tscn")


def test_unreadable_files(tmp_path):
    with pytest.raises(MapFormatError, match="missing.tscn: cannot read"):
        read_tilemap(tmp_path / "missing.tscn")
    (tmp_path / "latin1.tscn").write_bytes(b'[gd_scene format=2]\n[node name="\xe9"]\n')
    with pytest.raises(MapFormatError, match="latin1.tscn: cannot read"):
        read_tilemap(tmp_path / "latin1.tscn")


# -- the text format -------------------------------------------------------------------


def test_values_of_every_kind():
    document = parse_text(
        """; a comment line
[gd_resource type="Thing" load_steps=2 format=2]

[resource]
text = "say \\"hi\\"\\n\\tnow \\u00e9 ; not a comment"
numbers = [ 1, -2, 3.5, -0.25, 1e-05, 2E+3, inf, -inf, nan ]
flags = [ true, false, null ]
nested = { "a": [ 1, { "b": Vector2( 1, -2.5 ) } ], 3: "three", }
trailing = [ 1, 2, ]
empty = [  ]
refs = [ SubResource( 1 ), ExtResource( "2" ) ]
transform = Transform2D( 1, 0, 0, 1, 16, -8 )
pool = PoolIntArray(  )
points = PoolVector2Array( 0, 1.5, -2, 1e-05 )
image = PoolByteArray( 0, 255 )
multi_line = "one
two"
"quoted key" = 1
0/autotile/bitmask_flags = [ Vector2( 0, 0 ), 16 ]
""",
        source="thing.tres",
    )
    resource = document.sections[1]
    values = resource.properties
    assert values["text"] == 'say "hi"\n\tnow é ; not a comment'
    numbers = values["numbers"]
    assert numbers[:7] == [1, -2, 3.5, -0.25, 1e-05, 2000.0, math.inf] and numbers[7] == -math.inf
    assert isinstance(numbers[0], int) and isinstance(numbers[5], float) and math.isnan(numbers[8])
    assert values["flags"] == [True, False, None]
    assert values["nested"] == {"a": [1, {"b": Constructor("Vector2", (1, -2.5))}], 3: "three"}
    assert values["trailing"] == [1, 2] and values["empty"] == []
    assert values["refs"] == [ResourceRef("SubResource", 1), ResourceRef("ExtResource", "2")]
    assert values["transform"] == Constructor("Transform2D", (1, 0, 0, 1, 16, -8))
    assert values["pool"].dtype == np.int64 and values["pool"].size == 0
    assert values["points"].tolist() == [0.0, 1.5, -2.0, 1e-05] and values["points"].dtype == np.float64
    assert values["image"].tolist() == [0, 255] and values["image"].dtype == np.int64
    assert values["multi_line"] == "one\ntwo" and values["quoted key"] == 1
    assert resource.property_lines["multi_line"] == 16 and resource.property_lines["quoted key"] == 18
    assert document.sections[0].attributes == {"type": "Thing", "load_steps": 2, "format": 2}
    assert document.sections[0].line == 2 and resource.line == 4


def test_section_attributes_take_any_value():
    document = parse_text(
        '[gd_scene format=2]\n[node name="A" parent="." groups=[ "x", "y" ] instance=ExtResource( 3 )]\n'
    )
    node = document.sections[1]
    assert node.attributes == {
        "name": "A",
        "parent": ".",
        "groups": ["x", "y"],
        "instance": ResourceRef("ExtResource", 3),
    }


@pytest.mark.parametrize(
    "text, line, message",
    [
        ('[gd_scene format=2]\nx = {\n"a" 1 }\n', 3, "expected ':'"),
        ("[gd_scene format=2]\nx = [ 1 2 ]\n", 2, "expected ','"),
        ("[gd_scene format=2]\nx = SubResource( 1, 2 )\n", 2, "SubResource( ) takes one id"),
        ("[gd_scene format=2]\nx = Vector2 1\n", 2, "unknown value 'Vector2'"),
        ("[gd_scene format=2]\nx = @\n", 2, "expected a value, found '@'"),
        ("[gd_scene format=2]\nx =\n", 3, "expected a value, found the end of the file"),
        ("[gd_scene 3]\n", 1, "expected an attribute name or ']' in section [gd_scene …], found '3]'"),
        ("[ ]\n", 1, "expected a section name after '['"),
        (
            "[gd_scene format=2]\nx = PoolRealArray( 1, a )\n",
            2,
            "PoolRealArray( ) must hold numbers separated",
        ),
        (
            '[gd_scene format=2]\nx = PoolIntArray( 1, "2" )\n',
            2,
            "PoolIntArray( ) must hold integers separated",
        ),
        ("[gd_scene format=2]\nx = {\n", 2, "'{' is not closed with '}'"),
    ],
)
def test_parse_errors_name_the_line(text, line, message):
    with pytest.raises(MapFormatError, match=re.escape(f"doc.tscn:{line}: {message}")):
        parse_text(text, source="doc.tscn")


def test_parse_file_reads_the_engine_made_tileset():
    document = parse_file(FIXTURES / "tilesets" / "terrain.tres")
    assert document.sections[0].attributes["type"] == "TileSet"
    resource = document.sections[-1]
    assert resource.tag == "resource" and resource.properties["5/name"] == "cliff"


NAV_GRID_SCENE = """[gd_scene load_steps=2 format=2]

[ext_resource path="res://addons/pathing_py/nav_grid.py" type="Script" id=1]

[node name="Level" type="Node2D"]

[node name="World" type="Node2D" parent="."]

[node name="Ground" type="TileMap" parent="World"]

[node name="Nav" type="Node2D" parent="World"]
script = ExtResource( 1 )
tilemap_path = NodePath("../Ground")
blocking_tiles = PoolStringArray( "forest", "water" )
empty_cells_passable = false

[node name="Other" type="Node2D" parent="."]
script = ExtResource( 1 )
"""


def test_nav_grid_settings(tmp_path):
    from pathing_py.godot.scene_files import NavGridSettings, nav_grid_settings

    scene = tmp_path / "level.tscn"
    scene.write_text(NAV_GRID_SCENE)
    assert nav_grid_settings(scene) == [
        NavGridSettings("Level/World/Nav", "Level/World/Ground", ["forest", "water"], False),
        NavGridSettings("Level/Other", "Level/TileMap", [], True),  # the exported defaults
    ]
