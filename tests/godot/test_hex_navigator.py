"""The NavGrid's plain-Python half on half-offset (hexagonal) TileMaps: paths, conversions, the hex graph, no units,
the bounds outline. The engine's own view of the same maps is tests/engine/in_godot/test_navgrid.py's."""

from pathlib import Path

import numpy as np
import pytest

from pathing_py import KeyPointGraph
from pathing_py.cell_layout import CellLayout
from pathing_py.godot.bridge import TileFrame, TileInfo, TileMapNavigator, bounds_outline, load_graph
from pathing_py.godot.scene_files import read_tilemap
from pathing_py.godot.tile_data import CellRect
from pathing_py.godot.tile_geometry import TileGeometry
from pathing_py.godot.units import HEX_UNITS_REFUSED, UnitDriver
from pathing_py.hex_grid import find_hex_path
from pathing_py.hex_lines import hex_path_cost, smooth_hex_path
from pathing_py.hierarchy import HexKeyPointGraph
from pathing_py.status import Status

HEX_MAZE = Path(__file__).resolve().parent.parent / "support" / "fixtures" / "geometry" / "hex_maze.tscn"
IDENTITY = ((0.0, 0.0), (1.0, 0.0), (0.0, 1.0))


def hex_navigator(name: str = "Columns") -> TileMapNavigator:
    data = read_tilemap(HEX_MAZE, tilemap=name)
    grid = data.hex_map().grid
    return TileMapNavigator(grid, TileFrame(data.geometry, grid.origin))


@pytest.mark.parametrize("name", ["Columns", "Rows", "BackRows", "Diamonds"])
@pytest.mark.parametrize("smooth", [True, False])
def test_paths_are_the_hex_search_s_cells_through_their_centres_smoothed_along_hex_lines(name, smooth):
    navigator = hex_navigator(name)
    geometry = navigator.frame.geometry
    start, goal = (-7, -5), (9, 8)  # TileMap cells on either side of the wall with one gap
    answer = navigator.find_path(navigator.centre_of(start), navigator.centre_of(goal), smooth=smooth)
    assert answer.status == "FOUND"
    grid = navigator.grid
    expected = find_hex_path(grid, geometry.layout(), navigator.frame.to_grid(start), navigator.frame.to_grid(goal))
    walked = smooth_hex_path(grid, navigator.hex_steps, expected.cells) if smooth else expected.cells
    assert smooth == (walked != expected.cells)  # this one is pulled straight where its lines are clear
    assert hex_path_cost(navigator.hex_steps, walked) == pytest.approx(expected.cost)
    cells = [navigator.frame.from_grid(cell) for cell in walked]
    assert [navigator.cell_of(point) for point in answer.points] == cells  # every cell of the path
    np.testing.assert_allclose(answer.points, geometry.centres_of(cells))
    assert (2, 6) in cells  # through the gap


def test_conversions_on_a_hex_tilemap_round_trip():
    navigator = hex_navigator("Diamonds")
    for cell in [(-7, -5), (0, 0), (3, -1), (-2, 7), (100, -100)]:
        assert navigator.cell_of(navigator.centre_of(cell)) == cell


def test_a_hex_tilemap_is_read_from_tile_data_as_the_node_reads_it():
    geometry = TileGeometry(cell_size=(82, 94), half_offset=1)
    tiles = [TileInfo(0, "grass"), TileInfo(1, "wall", shape_coords=[(0, 0)])]
    tile_data = [x + (y << 16) for y in range(3) for x in range(4)]
    words = [value for x, cell in enumerate(tile_data) for value in (cell, 1 if cell == 65537 else 0, 0)]
    navigator = TileMapNavigator.from_tilemap(words, geometry, tiles)
    assert navigator.hex_steps is not None and navigator.is_blocked((1, 1))
    answer = navigator.find_path(navigator.centre_of((0, 1)), navigator.centre_of((2, 1)))
    assert answer and len(answer.points) == 3  # around the wall at (1, 1), over a cell it touches


@pytest.mark.parametrize("name", ["Columns", "Rows", "BackRows", "Diamonds"])
def test_a_hex_tilemap_navigates_with_its_hex_graph(name):
    """The navigator answers from a HexKeyPointGraph of its layout (clusters of 4 cells: many borders on this small
    maze): legal hex paths through the gap; a square graph, or a hex graph of another layout, is refused saying
    why."""
    navigator = hex_navigator(name)
    layout = navigator.hex_steps.layout
    with pytest.raises(ValueError, match="not the six of this TileMap's cells: bake a HexKeyPointGraph"):
        navigator.graph = KeyPointGraph.bake(navigator.grid)
    other = CellLayout(layout.x_axis, layout.y_axis, offset_axis=layout.offset_axis, shift=-layout.shift)
    with pytest.raises(ValueError, match="baked for another layout"):
        navigator.graph = HexKeyPointGraph.bake(navigator.grid, other)
    navigator.graph = HexKeyPointGraph.bake(navigator.grid, layout, cluster_size=4)
    start, goal = (-7, -5), (9, 8)
    answer = navigator.find_path(navigator.centre_of(start), navigator.centre_of(goal))
    cells = [navigator.frame.to_grid(navigator.cell_of(point)) for point in answer.points]
    exact = find_hex_path(navigator.grid, layout, navigator.frame.to_grid(start), navigator.frame.to_grid(goal))
    assert answer.status == "FOUND" and navigator.frame.to_grid((2, 6)) in cells  # through the gap
    assert hex_path_cost(navigator.hex_steps, cells) >= exact.cost - 1e-9  # a path of hex steps (else ValueError)


def test_a_hex_tilemap_loads_its_graph_file_and_rebakes_a_square_one():
    navigator = hex_navigator()
    layout = navigator.hex_steps.layout
    graph = HexKeyPointGraph.bake(navigator.grid, layout, cluster_size=4)
    loaded = load_graph("res://maze.kpg", graph.to_bytes(), navigator.grid, rebake=True, layout=layout)
    assert loaded.graph == graph and loaded.warning == ""
    square = KeyPointGraph.bake(navigator.grid, cluster_size=4).to_bytes()
    stale = load_graph("res://maze.kpg", square, navigator.grid, cluster_size=4, rebake=True, layout=layout)
    assert stale.graph == graph
    assert stale.warning.startswith("res://maze.kpg: baked for a square map, the grid is read as a half-offset")
    assert stale.warning.endswith("bake again for this map (for this run, a graph baked in memory is used)")
    assert load_graph("res://maze.kpg", square, navigator.grid, rebake=False, layout=layout).graph is None
    assert load_graph("", None, navigator.grid, rebake=True, layout=layout).warning == ""


def test_path_units_are_refused_on_a_hex_tilemap_saying_why():
    navigator = hex_navigator()
    driver = UnitDriver(navigator, IDENTITY)
    answer = driver.add(1, object(), IDENTITY, IDENTITY, speed=2.0)
    assert (answer.status, answer.message) == (Status.NOT_DRIVEN.value, HEX_UNITS_REFUSED)
    assert not driver.navigator.units


@pytest.mark.parametrize("half_offset", [0, 1, 3, 4])
def test_the_bounds_outline_steps_with_the_moved_lines(half_offset):
    geometry = TileGeometry(cell_size=(20, 10), half_offset=half_offset)
    segments = bounds_outline(CellRect(-1, 2, 3, 2), geometry)
    points = np.array(segments).reshape(-1, 2, 2)
    np.testing.assert_allclose(points[:, 1], np.roll(points[:, 0], -1, axis=0))  # a closed polygon
    np.testing.assert_allclose(points[:, 0], geometry.layout().rect_outline(-1, 2, 3, 2))
    lines = 2 if half_offset in (0, 3) else 3  # rows moved along x, else columns along y
    assert len(points) == 4 * lines  # down one side and up the other, a step between each two lines
    assert len(bounds_outline(CellRect(-1, 2, 3, 2), TileGeometry(cell_size=(20, 10)))) == 8  # no offset: 4 sides
