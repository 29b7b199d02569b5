"""TileMaps stacked as layers (issue 40): a floor and the walls above it, read together.

A cell blocks where any layer's tile blocks, is walkable where some layer has
a tile and none blocks, and follows ``empty_passable`` where no layer has a
tile; the used rectangle covers every layer. Layers must lie on one cell grid:
anything else is refused, never read into a wrong grid.
"""

from pathlib import Path
from typing import Dict, List, Tuple

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pathing_py import find_path
from pathing_py.godot.bridge import TileInfo, TileMapNavigator
from pathing_py.godot.scene_files import grid_from_tscn, nav_grid_settings, read_tilemap
from pathing_py.godot.tile_data import CellRect, grid_from_tile_data, layer_blocking_ids
from pathing_py.godot.tile_geometry import MODE_ISOMETRIC, TileGeometry
from pathing_py.godot.tile_layers import IDENTITY, layer_difference, layer_node_problem, node_transform_points
from pathing_py.godot.units import EMPTY_TILE, TilePainter, UnitDriver
from pathing_py.grid import MapFormatError
from pathing_py.status import Status
from pathing_py.tools.cli import load_map, main

FIXTURES = Path(__file__).resolve().parent.parent / "support" / "fixtures"
DUNGEON = FIXTURES / "layers" / "dungeon.tscn"
MISMATCHED = FIXTURES / "layers" / "mismatched.tscn"

Cell = Tuple[int, int]


def word(x: int, y: int) -> int:
    """The first int of a cell in tile_data."""
    return ((y & 0xFFFF) << 16) | (x & 0xFFFF)


def tile_data(cells: Dict[Cell, int]) -> List[int]:
    return [value for (x, y), tile in cells.items() for value in (word(x, y), tile, 0)]


def expected_passable(layers: List[Tuple[Dict[Cell, int], Dict[int, bool]]], empty_passable: bool, rect) -> np.ndarray:
    """The stacking rule cell by cell, from the layers' cells and which tiles block."""
    x0, y0, width, height = rect
    passable = np.zeros((height, width), dtype=bool)
    for y in range(height):
        for x in range(width):
            tiles = [(cells[x + x0, y + y0], blocks) for cells, blocks in layers if (x + x0, y + y0) in cells]
            passable[y, x] = empty_passable if not tiles else not any(blocks[tile] for tile, blocks in tiles)
    return passable


# -- the rule, on random stacks ------------------------------------------------------------------------

layer_cells = st.dictionaries(st.tuples(st.integers(-4, 5), st.integers(-3, 4)), st.integers(0, 2), max_size=40)
tile_rules = st.fixed_dictionaries({0: st.booleans(), 1: st.booleans(), 2: st.booleans()})


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(layer_cells, tile_rules), min_size=1, max_size=4), st.booleans(), st.data())
def test_a_cell_blocks_where_any_layer_blocks_and_empty_cells_follow_the_setting(layers, empty_passable, data):
    painted = [cells for cells, _ in layers if cells]
    if not painted:
        with pytest.raises(MapFormatError, match="no cells"):
            grid_from_tile_data(
                tile_data(layers[0][0]),
                collision=layers[0][1],
                layers=[(tile_data(cells), rules, {}) for cells, rules in layers[1:]],
            )
        return
    xs = [x for cells in painted for x, _ in cells]
    ys = [y for cells in painted for _, y in cells]
    rect = (min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)
    expected = expected_passable(layers, empty_passable, rect)
    order = data.draw(st.permutations(range(len(layers))))  # the order of the stack does not matter
    stacked = [layers[index] for index in order]
    arguments = dict(
        empty_passable=empty_passable, layers=[(tile_data(cells), rules, {}) for cells, rules in stacked[1:]]
    )
    if not expected.any():
        with pytest.raises(MapFormatError, match="no passable cell"):
            grid_from_tile_data(tile_data(stacked[0][0]), collision=stacked[0][1], **arguments)
        return
    grid = grid_from_tile_data(tile_data(stacked[0][0]), collision=stacked[0][1], **arguments)
    assert grid.origin == rect[:2]
    np.testing.assert_array_equal(grid.passable, expected)
    # Bounds cut the stack or widen it with empty cells, as they do one TileMap.
    x, y = data.draw(st.integers(-6, 4)), data.draw(st.integers(-5, 3))
    bounds = CellRect(x, y, data.draw(st.integers(1, 10)), data.draw(st.integers(1, 8)))
    expected = expected_passable(layers, empty_passable, bounds)
    if expected.any():
        bounded = grid_from_tile_data(tile_data(stacked[0][0]), collision=stacked[0][1], bounds=bounds, **arguments)
        assert bounded.origin == (x, y)
        np.testing.assert_array_equal(bounded.passable, expected)


def test_one_layer_reads_as_before():
    cells = {(0, 0): 0, (1, 0): 1, (3, 1): 0}
    alone = grid_from_tile_data(tile_data(cells), collision={0: False, 1: True}, empty_passable=False)
    assert alone.origin == (0, 0)
    assert alone.passable.tolist() == [[True, False, False, False], [False, False, False, True]]


def test_blocking_names_apply_to_every_layer_that_has_them():
    floor = ({0: False, 1: False}, {0: "ground", 1: "moss"})
    walls = ({0: True, 5: False}, {0: "wall", 5: "moss"})
    assert layer_blocking_ids(["moss", "wall"], [floor, walls], "") == [frozenset({1}), frozenset({0, 5})]
    assert layer_blocking_ids([5], [floor, walls], "") == [frozenset(), frozenset({5})]
    with pytest.raises(ValueError, match=r"no tile named 'mos'; tile names: 'ground', 'moss', 'wall'"):
        layer_blocking_ids(["mos"], [floor, walls], "")
    with pytest.raises(ValueError, match="no tile id 7"):
        layer_blocking_ids([7], [floor, walls], "")
    with pytest.raises(TypeError, match="iterable of tile ids or names"):
        layer_blocking_ids("moss", [floor, walls], "")


def test_the_navigator_of_a_node_stacks_its_layers():
    """What a NavGrid hands the bridge: each layer's tile_data and TileSet tiles."""
    floor = {(x, y): 0 for x in range(5) for y in range(3)}
    walls = {(2, 0): 1, (2, 1): 1, (6, 1): 1}  # (6, 1) stands outside the floor: the used rectangle grows
    tiles = [TileInfo(0, "ground"), TileInfo(1, "wall", shape_coords=[(0, 0)])]
    navigator = TileMapNavigator.from_tilemap(
        tile_data(floor), (16, 16), tiles, empty_passable=False, layers=[(tile_data(walls), tiles)]
    )
    assert navigator.grid.origin == (0, 0) and navigator.grid.passable.shape == (3, 7)
    assert [navigator.is_blocked((x, 1)) for x in range(7)] == [False, False, True, False, False, True, True]
    answer = navigator.find_path((8, 8), (72, 8), smooth=False)  # around the wall, through row 2
    assert answer and (2, 2) in [navigator.cell_of(point) for point in answer.points]
    stacked = navigator.stacked
    assert not stacked.still_blocks((2, 1), main_painted=True) and stacked.still_blocks((6, 1), main_painted=False)
    assert [stacked.clear_walls((2, 1)), stacked.clear_walls((2, 1)), stacked.clear_walls((0, 0))] == [(0,), (), ()]


# -- the reader --------------------------------------------------------------------------------------


def test_the_dungeon_floor_and_walls_read_together():
    floor, walls = read_tilemap(DUNGEON, tilemap="Floor"), read_tilemap(DUNGEON, tilemap="Walls")
    stacked = read_tilemap(DUNGEON, tilemap="Floor", layers=["Walls"])
    assert [layer.node_path for layer in stacked.layers] == ["Dungeon/Walls"]
    layers = []
    for data in (floor, walls):
        cells = {(x, y): index for index, (x, y) in enumerate(zip(data.cells.x.tolist(), data.cells.y.tolist()))}
        layers.append((cells, dict(enumerate(data.blocked.tolist()))))
    for empty_passable in (True, False):
        grid = grid_from_tscn(DUNGEON, tilemap="Floor", layers=["Walls"], empty_passable=empty_passable)
        xs = np.concatenate([floor.cells.x, walls.cells.x])
        ys = np.concatenate([floor.cells.y, walls.cells.y])
        rect = (int(xs.min()), int(ys.min()), int(xs.max() - xs.min() + 1), int(ys.max() - ys.min() + 1))
        assert grid.origin == rect[:2] and (grid.width, grid.height) == rect[2:]
        np.testing.assert_array_equal(grid.passable, expected_passable(layers, empty_passable, rect))
    # Read alone, the walls' map lacks the floor beyond them (row 7), and with empty cells blocked it has no floor at
    # all.
    assert grid_from_tscn(DUNGEON, tilemap="Walls").height == 9
    with pytest.raises(MapFormatError, match="no passable cell"):
        grid_from_tscn(DUNGEON, tilemap="Walls", empty_passable=False)


def test_the_stack_reads_the_same_from_either_layer():
    one = grid_from_tscn(DUNGEON, tilemap="Floor", layers=["Walls"], empty_passable=False)
    other = grid_from_tscn(DUNGEON, tilemap="Walls", layers=["Dungeon/Floor"], empty_passable=False)
    assert one.origin == other.origin
    np.testing.assert_array_equal(one.passable, other.passable)


def test_paths_between_floor_cells_stay_on_the_floor():
    grid = grid_from_tscn(DUNGEON, tilemap="Floor", layers=["Walls"], empty_passable=False)
    walls = read_tilemap(DUNGEON, tilemap="Walls")
    wall_cells = {
        (x, y)
        for x, y, blocked in zip(walls.cells.x.tolist(), walls.cells.y.tolist(), walls.blocked.tolist())
        if blocked
    }
    floor = read_tilemap(DUNGEON, tilemap="Floor")
    floor_cells = {(x, y) for x, y in zip(floor.cells.x.tolist(), floor.cells.y.tolist())} - wall_cells
    ox, oy = grid.origin
    cells = sorted(floor_cells)
    found = 0
    for start, goal in zip(cells, reversed(cells)):
        result = find_path(grid, (start[0] - ox, start[1] - oy), (goal[0] - ox, goal[1] - oy))
        if result:
            found += 1
            assert all((x + ox, y + oy) in floor_cells for x, y in result.cells)
    assert found >= len(cells) // 2


@pytest.mark.parametrize(
    "layer, message",
    [
        (
            "Square",
            r"mismatched.tscn:\d+: layer 'Dungeon/Square' is square, cell_size \(128, 64\), "
            r"but the TileMap 'Dungeon/Floor' is isometric",
        ),
        (
            "Coarse",
            r"layer 'Dungeon/Coarse' is isometric, cell_size \(128, 128\), "
            r"but the TileMap 'Dungeon/Floor' is isometric, cell_size \(128, 64\)",
        ),
        (
            "Shifted",
            r"layer 'Dungeon/Shifted' lies at \(64, 0\) .*give the layers the same position, rotation and scale",
        ),
        ("Turned/Walls", r"layer 'Dungeon/Turned/Walls' lies at \(0, 0\) with axes \(0.877583, 0.479426\)"),
        ("Marker", r"mismatched.tscn:\d+: layers\[0\] 'Marker' points at a Sprite, not a TileMap"),
        ("Nothing", r"layers\[0\]: no TileMap 'Nothing'; TileMap nodes: 'Dungeon/Floor'"),
        ("", r"layers\[0\] is empty"),
        ("Floor", r"layers\[0\] 'Dungeon/Floor' is the TileMap itself"),
    ],
)
def test_layers_off_the_maps_cells_are_refused_clearly(layer, message):
    with pytest.raises(MapFormatError, match=message):
        read_tilemap(MISMATCHED, tilemap="Floor", layers=[layer])


def test_a_layer_listed_twice_is_refused():
    with pytest.raises(MapFormatError, match=r"layers\[1\] 'Dungeon/Walls' is listed twice"):
        read_tilemap(DUNGEON, tilemap="Floor", layers=["Walls", "Dungeon/Walls"])
    with pytest.raises(TypeError, match="layers must be a list"):
        read_tilemap(DUNGEON, tilemap="Floor", layers="Walls")


def test_layer_difference_and_node_problems():
    iso = TileGeometry(mode=MODE_ISOMETRIC, cell_size=(128, 64))
    assert (
        layer_difference(
            "A", iso, IDENTITY, "B", TileGeometry(mode=MODE_ISOMETRIC, cell_size=(128, 64), tile_origin=1), IDENTITY
        )
        == ""
    )
    moved = ((0.0004, 0.0), (1.0004, 0.0), (0.0004, 1.0))  # float32 noise of an engine transform
    assert layer_difference("A", iso, moved, "B", iso, IDENTITY) == ""
    scaled = node_transform_points([((0.0, 0.0), 0.0, (2.0, 2.0))])
    assert "axes (2, 0) and (0, 2)" in layer_difference("A", iso, scaled, "B", iso, IDENTITY)
    assert "not finite" not in layer_difference(
        "A", iso, ((float("nan"), 0.0), (1.0, 0.0), (0.0, 1.0)), "B", iso, IDENTITY
    )
    assert layer_difference("A", iso, ((float("nan"), 0.0), (1.0, 0.0), (0.0, 1.0)), "B", iso, IDENTITY) != ""
    assert layer_node_problem("layer_paths[0]", "../Walls", "TileMap") == ""
    assert (
        layer_node_problem("layer_paths[2]", "../Sprite", "Sprite")
        == "layer_paths[2] '../Sprite' points at a Sprite, not a TileMap."
    )
    assert "does not point at a node" in layer_node_problem("layer_paths[0]", "../Gone", None)
    assert "has no TileSet" in layer_node_problem("layer_paths[0]", "../Walls", "TileMap", has_tileset=False)
    assert "tilemap_path itself" in layer_node_problem("layer_paths[0]", "../Floor", "TileMap", is_main=True)


def test_node_transforms_compose_as_godot_does():
    # A parent at (10, 0) turned a quarter, its child at (5, 0) scaled by 2: the child's (1, 0) lands at (10, 7).
    origin, x_end, y_end = node_transform_points([((10.0, 0.0), np.pi / 2, (1.0, 1.0)), ((5.0, 0.0), 0.0, (2.0, 2.0))])
    assert np.allclose([origin, x_end, y_end], [(10, 5), (10, 7), (8, 5)])


# -- NavGrid settings and the command line -----------------------------------------------------------


def scene_with_navgrid(tmp_path: Path, navgrid_lines: str) -> Path:
    """The dungeon fixture with a NavGrid node added, beside a copy of its TileSet."""
    (tmp_path / "project.godot").write_text("config_version=4\n")
    (tmp_path / "tilesets").mkdir()
    (tmp_path / "tilesets" / "dungeon.tres").write_text((FIXTURES / "tilesets" / "dungeon.tres").read_text())
    text = DUNGEON.read_text().replace(
        "[gd_scene load_steps=2 format=2]\n",
        "[gd_scene load_steps=3 format=2]\n\n"
        '[ext_resource path="res://addons/pathing_py/nav_grid.py" type="Script" id=2]\n',
    )
    path = tmp_path / "dungeon.tscn"
    path.write_text(
        text + f'\n[node name="NavGrid" type="Node2D" parent="."]\nscript = ExtResource( 2 )\n{navgrid_lines}'
    )
    return path


def test_navgrid_settings_name_the_layers(tmp_path):
    path = scene_with_navgrid(
        tmp_path,
        'tilemap_path = NodePath("../Floor")\nlayer_paths = [ NodePath("../Walls") ]\nempty_cells_passable = false\n',
    )
    [settings] = nav_grid_settings(path)
    assert settings.tilemap == "Dungeon/Floor" and settings.layers == ("Dungeon/Walls",) and not settings.empty_passable
    loaded = load_map(path)
    expected = grid_from_tscn(DUNGEON, tilemap="Floor", layers=["Walls"], empty_passable=False)
    np.testing.assert_array_equal(loaded.grid.passable, expected.passable)
    assert any("layers ['Dungeon/Walls']" in note for note in loaded.notes), loaded.notes
    assert load_map(path, layers=[]).grid.passable.sum() > expected.passable.sum()  # --layer given: it replaces them


@pytest.mark.parametrize("value", ['[ "../Walls" ]', "[ 3 ]", 'NodePath("../Walls")'])
def test_layer_paths_that_are_not_node_paths_are_refused(tmp_path, value):
    path = scene_with_navgrid(tmp_path, f"layer_paths = {value}\n")
    with pytest.raises(
        MapFormatError, match=r"dungeon.tscn:\d+: NavGrid 'Dungeon/NavGrid': layer_paths must be an array of NodePath"
    ):
        nav_grid_settings(path)


def test_the_cli_reads_layers(capsys, tmp_path):
    out = tmp_path / "paths.png"
    assert (
        main(["paths", str(DUNGEON), "--tilemap", "Floor", "--layer", "Walls", "--out", str(out), "--orders", "3"]) == 0
    )
    printed = capsys.readouterr().out
    assert "layers stacked on it: 'Dungeon/Walls'" in printed
    assert "'Wall' (44 cells in 'Dungeon/Walls', collision shape)" in printed
    expected = grid_from_tscn(DUNGEON, tilemap="Floor", layers=["Walls"])
    assert f"{expected.width}x{expected.height} cells, {int(expected.passable.sum())} passable" in printed


def test_the_cli_takes_several_layers_and_refuses_bad_ones(capsys, tmp_path):
    out = tmp_path / "paths.png"
    assert main(["paths", str(MISMATCHED), "--tilemap", "Floor", "--layer", "Coarse", "--out", str(out)]) == 2
    assert "layer 'Dungeon/Coarse' is isometric, cell_size (128, 128)" in capsys.readouterr().err
    assert (
        main(
            [
                "bake",
                str(DUNGEON),
                "--tilemap",
                "Walls",
                "--layer",
                "Floor",
                "--layer",
                "Floor",
                "--out",
                str(tmp_path / "g.kpg"),
            ]
        )
        == 2
    )
    assert "layers[1] 'Dungeon/Floor' is listed twice" in capsys.readouterr().err
    assert main(["bake", str(DUNGEON), "--tilemap", "Walls", "--layer", "Floor", "--out", str(tmp_path / "g.kpg")]) == 0


# -- map edits through a NavGrid's driver, on a stacked map ---------------------------------------

FLOOR_TILES = [TileInfo(0, "Base"), TileInfo(1, "Wall", shape_coords=[(0, 0)])]


def stacked_driver(
    wall_tile: str, floor_tile: str, main_is_floor: bool
) -> Tuple[UnitDriver, Dict[Cell, int], Dict[Cell, int]]:
    """A 9x5 floor with a wall across it on a second TileMap, but for a gap at (4, 4); empty cells block."""
    floor = {(x, y): 0 for x in range(9) for y in range(5)}
    walls = {(4, y): 1 for y in range(4)}
    maps = [(tile_data(floor), FLOOR_TILES), (tile_data(walls), FLOOR_TILES)]
    (main, main_tiles), layer = maps if main_is_floor else maps[::-1]
    navigator = TileMapNavigator.from_tilemap(main, (16, 16), main_tiles, empty_passable=False, layers=[layer])
    painter = TilePainter.choose(FLOOR_TILES, wall_tile, floor_tile, empty_passable=False, layered=True)
    assert painter.problem == ""
    return UnitDriver(navigator, IDENTITY, painter=painter), floor, walls


def centre(cell: Cell) -> Tuple[float, float]:
    return cell[0] * 16 + 8.0, cell[1] * 16 + 8.0


def run_until_stopped(driver: UnitDriver, key: int) -> List[Cell]:
    cells = []
    for _ in range(2000):
        for _node, x, y in driver.step(1 / 30):
            cells.append((int(x // 16), int(y // 16)))
        if driver.state_of(key) in ("ARRIVED", "UNREACHABLE", "HELD_UP"):
            break
    return cells


@pytest.mark.parametrize("main_is_floor, floor_tile", [(True, "Base"), (False, "")])
def test_freeing_a_wall_of_another_layer_clears_it_and_units_take_the_new_way(main_is_floor, floor_tile):
    driver, _, _ = stacked_driver("Wall", floor_tile, main_is_floor)
    assert driver.add(1, "unit", ((8.0, 8.0), (9.0, 8.0), (8.0, 9.0)), ((8.0, 8.0), (9.0, 8.0), (8.0, 9.0)), speed=4.0)
    assert driver.order(1, centre((8, 0)))
    walked = run_until_stopped(driver, 1)
    assert driver.state_of(1) == "ARRIVED" and (4, 4) in walked  # through the gap
    assert driver.order(1, centre((0, 0)))
    for _ in range(5):
        driver.step(1 / 30)
    edit = driver.set_cell_blocked((4, 0), False)  # a wall of the walls' map comes down
    # The wall stands on the walls' map: cleared there when it is a layer, painted over when it is the main map.
    assert edit and edit.cell == (4, 0) and edit.cleared_layers == ((0,) if main_is_floor else ())
    assert edit.tile == (0 if floor_tile else EMPTY_TILE)
    walked = run_until_stopped(driver, 1)
    assert driver.state_of(1) == "ARRIVED" and (4, 0) in walked and (4, 4) not in walked


def test_a_layered_painter_allows_an_empty_floor_tile_and_each_edit_checks():
    assert "empty_cells_passable is off" in TilePainter.choose(FLOOR_TILES, "Wall", "", empty_passable=False).problem
    floor = {(0, 0): 0, (1, 0): 0}
    walls = {(1, 0): 1, (2, 0): 1}  # (2, 0): a wall with no floor below
    navigator = TileMapNavigator.from_tilemap(
        tile_data(walls), (16, 16), FLOOR_TILES, empty_passable=False, layers=[(tile_data(floor), FLOOR_TILES)]
    )
    driver = UnitDriver(
        navigator, IDENTITY, painter=TilePainter.choose(FLOOR_TILES, "Wall", "", empty_passable=False, layered=True)
    )
    assert driver.set_cell_blocked((1, 0), False)
    edit = driver.set_cell_blocked((2, 0), False)
    assert edit.status == Status.NO_TILE.value and "(2, 0) would have no tile in any layer" in edit.message
    assert not driver.navigator.grid.is_passable(driver.frame.to_grid((2, 0)))


def test_a_layer_painted_at_run_time_and_read_again_turns_units_as_an_edit_of_the_map_does():
    """What rebuild() does: the fresh read of the stack is followed cell by cell, units and all."""
    floor = {(x, y): 0 for x in range(9) for y in range(5)}
    walls = {(4, y): 1 for y in range(4)}
    navigator = TileMapNavigator.from_tilemap(
        tile_data(floor), (16, 16), FLOOR_TILES, empty_passable=False, layers=[(tile_data(walls), FLOOR_TILES)]
    )
    driver = UnitDriver(navigator, IDENTITY)
    assert driver.add(1, "unit", ((8.0, 8.0), (9.0, 8.0), (8.0, 9.0)), ((8.0, 8.0), (9.0, 8.0), (8.0, 9.0)), speed=4.0)
    assert driver.order(1, centre((8, 0)))
    driver.step(1 / 30)
    walls.pop((4, 0))  # the game takes a wall down on the walls' layer, and puts one in the gap
    walls[4, 4] = 1
    fresh = TileMapNavigator.from_tilemap(
        tile_data(floor), (16, 16), FLOOR_TILES, empty_passable=False, layers=[(tile_data(walls), FLOOR_TILES)]
    )
    assert navigator.follow(fresh, driver.navigator.set_blocked) == []
    assert navigator.stacked is fresh.stacked and navigator.is_blocked((4, 4)) and not navigator.is_blocked((4, 0))
    walked = run_until_stopped(driver, 1)
    assert driver.state_of(1) == "ARRIVED" and (4, 0) in walked and (4, 4) not in walked
