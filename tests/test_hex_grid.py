"""Half-offset (hexagonal) maps: six neighbours and exact search, against a brute-force Dijkstra that finds the
neighbours from the cells' own shapes; cell layouts, outlines and the reader's half-offset TileMaps."""

import heapq
import math
from pathlib import Path
from typing import Dict

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pathing_py import Grid, PathStatus
from pathing_py.cell_layout import CellLayout
from pathing_py.godot.scene_files import grid_from_tscn, read_tilemap
from pathing_py.godot.tile_geometry import MODE_CUSTOM, MODE_ISOMETRIC, TileGeometry
from pathing_py.grid import MapFormatError
from pathing_py.hex_grid import HexMap, HexSteps, find_hex_path, hex_islands, hex_neighbours
from pathing_py.islands import label_islands
from tests.support.hex_grid import Cell, layouts, moved, origins, touching
from tests.support.strategies import cells_of, maps

FIXTURES = Path(__file__).resolve().parent / "support" / "fixtures"
HEX_MAZE = FIXTURES / "geometry" / "hex_maze.tscn"
HALF_OFFSETS = FIXTURES / "geometry" / "half_offsets.tscn"


# -- the yardstick: cells as the engine places them, neighbours where their sides meet -------------


def centre(layout: CellLayout, origin: Cell, cell: Cell) -> np.ndarray:
    tile = (cell[0] + origin[0], cell[1] + origin[1])
    shift = moved(layout, tile)
    u, v = tile[0] + shift[0] + 0.5, tile[1] + shift[1] + 0.5
    return u * np.array(layout.x_axis) + v * np.array(layout.y_axis) + np.array(layout.origin)


def dijkstra(passable: np.ndarray, layout: CellLayout, origin: Cell, start: Cell) -> Dict[Cell, float]:
    """Every reachable cell's distance from ``start``: any two touching cells are joined, at the distance of their
    centres."""
    height, width = passable.shape
    distance = {start: 0.0}
    queue = [(0.0, start)]
    while queue:
        cost, cell = heapq.heappop(queue)
        if cost > distance[cell]:
            continue
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                other = (cell[0] + dx, cell[1] + dy)
                if (
                    other == cell
                    or not (0 <= other[0] < width and 0 <= other[1] < height)
                    or not passable[other[1], other[0]]
                ):
                    continue
                if not touching(layout, origin, cell, other):
                    continue
                reached = cost + float(np.linalg.norm(centre(layout, origin, other) - centre(layout, origin, cell)))
                if reached < distance.get(other, math.inf):
                    distance[other] = reached
                    heapq.heappush(queue, (reached, other))
    return distance


# -- neighbours ---------------------------------------------------------------------------------------


@given(layouts(), origins, st.tuples(st.integers(0, 5), st.integers(0, 5)))
def test_the_six_steps_are_the_cells_whose_sides_meet(layout, origin, cell):
    steps = HexSteps(layout, origin)
    around = {(cell[0] + dx, cell[1] + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)} - {cell}
    expected = {other for other in around if touching(layout, origin, cell, other)}
    found = {(cell[0] + dx, cell[1] + dy): cost for dx, dy, cost in steps.steps(cell)}
    assert set(found) == expected and len(found) == 6
    for other, cost in found.items():
        assert cost == pytest.approx(
            float(np.linalg.norm(centre(layout, origin, other) - centre(layout, origin, cell)))
        )


def test_neighbours_of_a_cell_on_a_moved_row_and_on_a_still_one():
    grid = Grid.from_ascii("...\n...\n...")
    steps = HexSteps(CellLayout(offset_axis=0, shift=0.5))
    assert sorted(cell for cell, _ in hex_neighbours(grid, steps, (1, 1))) == [
        (0, 1),
        (1, 0),
        (1, 2),
        (2, 0),
        (2, 1),
        (2, 2),
    ]
    assert sorted(cell for cell, _ in hex_neighbours(grid, steps, (1, 0))) == [(0, 0), (0, 1), (1, 1), (2, 0)]
    # the same map one TileMap row down: row 1 of the grid is even now, its neighbours lie behind it
    steps = HexSteps(CellLayout(offset_axis=0, shift=0.5), origin=(0, -1))
    assert sorted(cell for cell, _ in hex_neighbours(grid, steps, (1, 1))) == [
        (0, 0),
        (0, 1),
        (0, 2),
        (1, 0),
        (1, 2),
        (2, 1),
    ]


def test_square_layouts_have_no_hex_steps():
    with pytest.raises(ValueError, match="layout must have a half offset"):
        HexSteps(CellLayout())


# -- search: exact, legal, and the statuses of find_path -------------------------------------------


@settings(max_examples=150, deadline=None)
@given(st.data(), maps(max_side=12), layouts(), origins)
def test_paths_are_as_short_as_dijkstra_finds_and_step_between_neighbours(data, passable, layout, origin):
    grid = Grid(passable, origin=origin)
    start, goal = data.draw(cells_of(passable)), data.draw(cells_of(passable))
    result = find_hex_path(grid, layout, start, goal)
    if not passable[start[1], start[0]]:
        assert result.status is PathStatus.START_BLOCKED
        return
    if not passable[goal[1], goal[0]]:
        assert result.status is PathStatus.GOAL_BLOCKED
        return
    distances = dijkstra(passable, layout, origin, start)
    if goal not in distances:
        assert result.status is PathStatus.UNREACHABLE and result.cells == []
        return
    assert result.status is PathStatus.FOUND
    assert result.cost == pytest.approx(distances[goal], rel=1e-9, abs=1e-9)
    cells = result.cells
    assert cells[0] == start and cells[-1] == goal
    assert all(passable[y, x] for x, y in cells)
    assert all(touching(layout, origin, a, b) for a, b in zip(cells, cells[1:]))
    walked = sum(
        float(np.linalg.norm(centre(layout, origin, b) - centre(layout, origin, a))) for a, b in zip(cells, cells[1:])
    )
    assert walked == pytest.approx(result.cost)


@settings(max_examples=60, deadline=None)
@given(st.data(), layouts(), origins, st.integers(1, 10), st.integers(1, 10))
def test_the_estimate_never_passes_the_shortest_distance(data, layout, origin, width, height):
    passable = np.ones((height, width), dtype=bool)
    start = data.draw(cells_of(passable))
    distances = dijkstra(passable, layout, origin, start)
    steps = HexSteps(layout, origin)
    for cell, distance in distances.items():
        assert steps.estimate(cell, start) <= distance * (1 + 1e-12) + 1e-12
        for dx, dy, cost in steps.steps(cell):  # consistent: no step lowers it by more than it costs
            other = (cell[0] + dx, cell[1] + dy)
            assert steps.estimate(cell, start) <= cost + steps.estimate(other, start) + 1e-9


def test_statuses_and_limits():
    grid = Grid.from_ascii("..#..\n..#..\n..#..")
    layout = CellLayout(offset_axis=1, shift=-0.5)
    assert find_hex_path(grid, layout, (0, 0), (4, 0)).status is PathStatus.UNREACHABLE
    assert find_hex_path(grid, layout, (0, 0), (9, 0)).status is PathStatus.OUT_OF_BOUNDS
    assert find_hex_path(grid, layout, (0, 0), (2, 0)).status is PathStatus.GOAL_BLOCKED
    assert find_hex_path(grid, layout, (1, 1), (1, 1)).cells == [(1, 1)]
    assert find_hex_path(grid, layout, (0, 0), (1, 2), max_nodes=1).status is PathStatus.LIMIT_REACHED
    with pytest.raises(ValueError, match="max_nodes must be a positive int"):
        find_hex_path(grid, layout, (0, 0), (1, 2), max_nodes=0)
    with pytest.raises(TypeError, match="start must be an"):
        find_hex_path(grid, layout, 3, (1, 2))
    with pytest.raises(ValueError, match="layout must have a half offset"):
        find_hex_path(grid, CellLayout(), (0, 0), (1, 2))


# -- layouts --------------------------------------------------------------------------------------


def test_bad_layouts_are_refused_naming_the_argument():
    with pytest.raises(ValueError, match="offset_axis must be None, 0"):
        CellLayout(offset_axis=2)
    with pytest.raises(ValueError, match="shift must be 0.5 or -0.5"):
        CellLayout(offset_axis=0, shift=1.0)
    with pytest.raises(ValueError, match="squash cells flat"):
        CellLayout((1.0, 1.0), (2.0, 2.0))
    with pytest.raises(ValueError, match="origin must be a pair of numbers"):
        CellLayout(origin="here")


@given(layouts(), st.integers(-4, 4), st.integers(-4, 4), st.integers(1, 6), st.integers(1, 6))
def test_a_rectangle_outline_follows_the_moved_lines(layout, x, y, width, height):
    polygon = layout.rect_outline(x, y, width, height)
    # In cell units: every cell of the rectangle lies inside the outline, and the area is the cells' area.
    inverse = np.linalg.inv(np.array([layout.x_axis, layout.y_axis]))
    cells = (polygon - np.array(layout.origin)) @ inverse
    area = 0.5 * abs(np.dot(cells[:, 0], np.roll(cells[:, 1], -1)) - np.dot(cells[:, 1], np.roll(cells[:, 0], -1)))
    assert area == pytest.approx(width * height)
    corners = layout.outlines([(cx, cy) for cy in range(y, y + height) for cx in range(x, x + width)])
    assert np.allclose(
        np.sort(np.unique(np.round(corners.reshape(-1, 2), 6), axis=0), axis=0).min(axis=0), polygon.min(axis=0)
    )
    assert np.allclose(corners.reshape(-1, 2).max(axis=0), polygon.max(axis=0))


# -- TileMaps read from scenes -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, axis, shift",
    [("Columns", 1, 0.5), ("Rows", 0, 0.5), ("BackRows", 0, -0.5), ("Diamonds", 1, -0.5)],
)
def test_the_reader_gives_half_offset_tilemaps_as_hex_maps(name, axis, shift):
    data = read_tilemap(HEX_MAZE, tilemap=name)
    hexes = data.hex_map()
    assert isinstance(hexes, HexMap)
    assert (hexes.layout.offset_axis, hexes.layout.shift) == (axis, shift)
    assert hexes.grid.origin == (-7, -5) and hexes.grid.passable.shape == (14, 17)
    np.testing.assert_array_equal(hexes.grid.passable, data.passable())
    # A centre the layout gives is the engine-rounded centre of the geometry, and lies in its own cell.
    cells = [(x, y) for x in range(-7, 10, 3) for y in range(-5, 9, 2)]
    np.testing.assert_allclose(hexes.layout.centres(cells), data.geometry.centres_of(cells), atol=1e-3)
    np.testing.assert_array_equal(data.geometry.cells_of(data.geometry.centres_of(cells)), cells)
    with pytest.raises(MapFormatError, match="six neighbours, not eight or four; read it with hex_map"):
        data.grid()
    with pytest.raises(MapFormatError, match="six neighbours"):
        grid_from_tscn(HEX_MAZE, tilemap=name)
    wall_gap = hexes.find_path((0, 0), (16, 0))  # TileMap (-7, -5) to (9, -5): round the wall at x == 2
    assert wall_gap and (2 - (-7), 6 - (-5)) in wall_gap.cells


def test_a_square_tilemap_is_no_hex_map():
    data = read_tilemap(FIXTURES / "geometry" / "isometric.tscn", tilemap="Diamonds")
    with pytest.raises(MapFormatError, match="has no half offset"):
        data.hex_map()


@pytest.mark.parametrize("mode", [0, MODE_ISOMETRIC, MODE_CUSTOM])
@pytest.mark.parametrize("half_offset", [0, 1, 3, 4])
def test_world_to_map_finds_the_cell_of_every_point_inside_a_moved_cell(mode, half_offset):
    geometry = TileGeometry(
        mode=mode, cell_size=(30, 20), custom_transform=((24, 4), (-6, 20), (3, -5)), half_offset=half_offset
    )
    layout = geometry.layout()
    rng = np.random.default_rng(half_offset * 3 + mode)
    cells = rng.integers(-9, 9, (200, 2))
    fractions = rng.uniform(0.02, 0.98, (200, 2))
    points = layout.to_pixels(cells + layout.shifts(cells) + fractions)
    np.testing.assert_array_equal(geometry.cells_of(points), cells)
    np.testing.assert_allclose(geometry.corners_of(cells), layout.to_pixels(cells + layout.shifts(cells)), atol=1e-3)


# -- islands of six neighbours --------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(maps(max_side=12), layouts(), origins)
def test_hex_islands_are_the_cells_dijkstra_reaches(passable, layout, origin):
    grid = Grid(passable, origin=origin)
    labels = hex_islands(grid, HexSteps(layout, origin))
    assert ((labels > 0) == passable).all()
    unlabelled = {(int(x), int(y)) for y, x in zip(*np.nonzero(passable))}
    while unlabelled:
        start = min(unlabelled)
        island = set(dijkstra(passable, layout, origin, start))
        assert {labels[y, x] for x, y in island} == {labels[start[1], start[0]]}
        assert (labels == labels[start[1], start[0]]).sum() == len(island)
        unlabelled -= island


def test_row_contacts_are_checked():
    with pytest.raises(ValueError, match="row_contacts must hold -1 or \\+1 for each of the 2 rows"):
        label_islands(np.ones((2, 3), dtype=bool), np.array([1, 0]))
