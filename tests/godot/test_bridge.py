"""pathing_py.godot.bridge: what the NavGrid node hands over, converted and checked without the engine."""

import gc
import math
import weakref
from pathlib import Path
from typing import List

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pathing_py import Grid, KeyPointGraph, Navigator, find_path, smooth_path
from pathing_py.godot.bridge import (
    CoordinateError,
    GraphLoad,
    PathAnswer,
    TileFrame,
    TileInfo,
    TileMapNavigator,
    bounds_outline,
    collision_tables,
    collision_warning,
    keep_script_loaded,
    load_graph,
    signed_int,
    tilemap_problem,
)
from pathing_py.godot.scene_files import grid_from_tscn
from pathing_py.godot.tile_data import CellRect
from pathing_py.godot.tile_geometry import MODE_ISOMETRIC, WORLD_TO_MAP_EPSILON, TileGeometry
from pathing_py.grid import MapFormatError
from pathing_py.status import Status

ROOT = Path(__file__).resolve().parents[2]

UINT64 = 1 << 64

# -- pythonscript's integers ----------------------------------------------------------


@pytest.mark.parametrize(
    "raw, expected",
    [
        (0, 0),
        (5, 5),
        (-3, -3),
        (UINT64 - 1, -1),
        (UINT64 - 65536, -65536),
        (1 << 63, -(1 << 63)),
        ((1 << 63) - 1, (1 << 63) - 1),
        (np.uint64(UINT64 - 2), -2),
        (np.int32(-7), -7),
    ],
)
def test_signed_int_undoes_unsigned_64_bit_returns(raw, expected):
    assert signed_int(raw) == expected
    assert type(signed_int(raw)) is int


# -- the TileSet ------------------------------------------------------------------------


def test_tile_info_normalises_what_the_node_reads():
    tile = TileInfo(UINT64 - 1 + 8, "wall", np.int64(2), [(1.0, 0.0), (np.float32(2), 3)])
    assert tile.tile_id == 7 and tile.mode == 2 and tile.name == "wall"
    assert tile.shape_coords == ((1, 0), (2, 3))
    assert all(type(v) is int for coord in tile.shape_coords for v in coord)


def test_tile_info_rejects_an_unknown_mode():
    with pytest.raises(ValueError, match="unknown tile mode 3"):
        TileInfo(0, "odd", 3)


def test_collision_tables_follow_the_engine_rule():
    tiles = [
        TileInfo(0, "ground"),
        TileInfo(1, "wall", 0, [(0, 0)]),
        TileInfo(3, "water", 2, [(0, 0), (2, 1)]),
        TileInfo(5, "cliff", 1, []),
    ]
    collision, names = collision_tables(tiles)
    assert collision == {0: False, 1: True, 3: frozenset({(0, 0), (2, 1)}), 5: frozenset()}
    assert names == {0: "ground", 1: "wall", 3: "water", 5: "cliff"}


def test_collision_tables_reject_a_repeated_id():
    with pytest.raises(ValueError, match="tile id 1 appears twice"):
        collision_tables([TileInfo(1, "a"), TileInfo(1, "b")])


# -- configuration warnings ---------------------------------------------------------------


@pytest.mark.parametrize(
    "args, kwargs, expected",
    [
        (("", None), {}, "Set tilemap_path"),
        (("../Map", None), {}, "does not point at a node"),
        (("../Map", "Sprite"), {}, "points at a Sprite, not a TileMap"),
        (("../Map", "TileMap"), {"has_tileset": False}, "has no TileSet"),
        (
            ("../Map", "TileMap"),
            {"tile_names": ["wall", "ground"], "blocking": ["wall", "lava"]},
            "blocking_tiles names 'lava', which the TileSet lacks (its tiles: ground, wall)",
        ),
    ],
)
def test_tilemap_problem_explains_each_misuse(args, kwargs, expected):
    assert expected in tilemap_problem(*args, **kwargs)


def test_tilemap_problem_accepts_a_tilemap_with_a_tileset():
    assert tilemap_problem("../TileMap", "TileMap", has_tileset=True) == ""
    assert tilemap_problem("../TileMap", "TileMap", tile_names=["wall", "forest"], blocking=["forest"]) == ""


# -- coordinates ----------------------------------------------------------------------------


def test_frame_maps_positions_to_cells_like_world_to_map():
    frame = TileFrame((16, 32), origin=(-8, -4))
    assert frame.cell_of((0.0, 0.0)) == (0, 0)
    assert frame.cell_of((15.99, 31.99)) == (0, 0)
    assert frame.cell_of((16.0, 32.0)) == (1, 1)
    assert frame.cell_of((-0.01, -0.01)) == (-1, -1)
    assert frame.cell_of((-128.0, -128.0)) == (-8, -4)
    assert frame.centre_of((-8, -4)) == (-120.0, -112.0)
    assert frame.to_grid((-8, -4)) == (0, 0) and frame.from_grid((0, 0)) == (-8, -4)
    assert frame.grid_centres([(0, 0), (1, 2)]) == [(-120.0, -112.0), (-104.0, -48.0)]
    assert all(type(v) is float for point in frame.grid_centres([(3, 4)]) for v in point)


@pytest.mark.parametrize(
    "x, cell",
    # Godot 3.2.3's world_to_map(Vector2(x, 0)).x with 16-pixel cells, as printed by the engine.
    [(47.9999, 3), (47.9995, 3), (47.999, 2), (48.0, 3), (-0.0001, 0), (-0.001, -1), (-16.0, -1), (-16.0001, -1)],
)
def test_frame_finds_the_cell_of_a_position_near_an_edge_as_world_to_map_does(x, cell):
    assert TileFrame((16.0, 16.0)).cell_of((x, 0.0)) == (cell, 0)


@pytest.mark.parametrize("bad", [(math.nan, 0.0), (0.0, math.inf), (-math.inf, 1.0), ("x", 1), (1.0,), None])
def test_frame_rejects_non_finite_or_malformed_positions(bad):
    frame = TileFrame((16, 16))
    with pytest.raises(CoordinateError):
        frame.cell_of(bad)
    with pytest.raises(CoordinateError):
        frame.centre_of(bad)


@pytest.mark.parametrize("size", [(0, 16), (16, -1), (math.nan, 16)])
def test_frame_rejects_bad_cell_sizes(size):
    with pytest.raises(ValueError):
        TileFrame(size)


@given(
    st.tuples(st.integers(-3000, 3000), st.integers(-3000, 3000)),
    st.tuples(st.sampled_from([1.0, 8.0, 16.0, 24.5, 64.0]), st.sampled_from([1.0, 16.0, 32.0, 48.0])),
)
def test_the_centre_of_a_cell_lies_in_that_cell(cell, size):
    frame = TileFrame(size, origin=(5, -7))
    assert frame.cell_of(frame.centre_of(cell)) == cell
    assert frame.from_grid(frame.to_grid(cell)) == cell


@given(st.floats(-1e6, 1e6), st.floats(-1e6, 1e6))
def test_a_position_lies_within_half_a_cell_of_its_cell_centre(x, y):
    frame = TileFrame((16.0, 24.0))
    cx, cy = frame.centre_of(frame.cell_of((x, y)))
    # world_to_map counts a position up to WORLD_TO_MAP_EPSILON cells before an edge into the next cell, and
    # computes in 32-bit floats as the engine does: two float32 steps at the position's size on top.
    rounding = 2 * float(np.spacing(np.float32(max(abs(x), abs(y), 1.0))))
    assert abs(cx - x) <= 8.0 + 16.0 * WORLD_TO_MAP_EPSILON + rounding
    assert abs(cy - y) <= 12.0 + 24.0 * WORLD_TO_MAP_EPSILON + rounding


# -- the navigator -----------------------------------------------------------------------------

#: A small map: '.' ground (0), '#' wall (1, shape), 'T' forest (2, no shape),
#: '~' deep water (3 at (0, 0), shape), ',' ford (3 at (1, 0), no shape), ' ' no tile.
MAP = [
    "..#...~.",
    "..#.TT~.",
    "..#...,.",
    "....  ~.",
]
SYMBOLS = {".": (0, 0, 0), "#": (1, 0, 0), "T": (2, 0, 0), "~": (3, 0, 0), ",": (3, 1, 0)}
ORIGIN = (-3, -2)
TILES = [
    TileInfo(0, "ground"),
    TileInfo(1, "wall", 0, [(0, 0)]),
    TileInfo(2, "forest"),
    TileInfo(3, "water", 2, [(0, 0)]),
]


def encode(rows, origin=ORIGIN):
    """Godot's format-1 tile_data for an ASCII map."""
    words = []
    for y, row in enumerate(rows):
        for x, char in enumerate(row):
            if char in SYMBOLS:
                tile, ax, ay = SYMBOLS[char]
                gx, gy = x + origin[0], y + origin[1]
                words += [((gy & 0xFFFF) << 16) | (gx & 0xFFFF), tile, (ay << 16) | ax]
    return [w - (1 << 32) if w >= 1 << 31 else w for w in words]


def navigator(**kwargs) -> TileMapNavigator:
    return TileMapNavigator.from_tilemap(encode(MAP), (16.0, 16.0), TILES, **kwargs)


def expected_passable(rows, blocked_chars, empty_passable=True):
    return np.array([[c not in blocked_chars and (c != " " or empty_passable) for c in row] for row in rows])


def test_navigator_builds_the_grid_the_tileset_describes():
    nav = navigator()
    assert nav.grid.origin == ORIGIN and nav.frame.origin == ORIGIN
    np.testing.assert_array_equal(nav.grid.passable, expected_passable(MAP, "#~"))


def test_navigator_blocks_tiles_named_in_blocking_and_empty_cells_on_request():
    nav = navigator(blocking=["forest"], empty_passable=False)
    np.testing.assert_array_equal(nav.grid.passable, expected_passable(MAP, "#~T", empty_passable=False))
    assert navigator(blocking=[2]).grid.passable.sum() == navigator(blocking=["forest"]).grid.passable.sum()


def test_navigator_says_which_tilemap_cells_block():
    nav = navigator(blocking=["forest"], empty_passable=False)
    rows = [[nav.is_blocked((x + ORIGIN[0], y + ORIGIN[1])) for x in range(len(MAP[0]))] for y in range(len(MAP))]
    np.testing.assert_array_equal(~np.array(rows), expected_passable(MAP, "#~T", empty_passable=False))
    assert nav.is_blocked((ORIGIN[0] - 1, ORIGIN[1])) and nav.is_blocked((0, ORIGIN[1] + len(MAP)))  # outside
    assert nav.is_blocked((ORIGIN[0] + 2.9, ORIGIN[1] + 0.5)) and not nav.is_blocked((ORIGIN[0] + 3.1, ORIGIN[1]))
    with pytest.raises(CoordinateError):
        nav.is_blocked((math.nan, 0.0))


def test_navigator_reads_unsigned_64_bit_tile_data_the_same():
    raw = [w % UINT64 for w in encode(MAP)]
    nav = TileMapNavigator.from_tilemap(raw, (16, 16), TILES)
    np.testing.assert_array_equal(nav.grid.passable, navigator().grid.passable)
    assert nav.grid.origin == ORIGIN


@pytest.mark.parametrize(
    "kwargs, error",
    [({"blocking": ["lava"]}, "no tile named 'lava'"), ({"tiles": TILES[:2]}, "unknown tile id")],
)
def test_navigator_reports_tilesets_that_do_not_match(kwargs, error):
    tiles = kwargs.pop("tiles", TILES)
    with pytest.raises(ValueError, match=error):
        TileMapNavigator.from_tilemap(encode(MAP), (16, 16), tiles, **kwargs)


def test_navigator_rejects_an_empty_tilemap():
    with pytest.raises(MapFormatError):
        TileMapNavigator.from_tilemap([], (16, 16), TILES)


def test_navigator_with_bounds_answers_in_unpainted_cells_and_refuses_outside():
    bounds = CellRect(-6, -5, 16, 12)
    nav = navigator(bounds=bounds)
    assert nav.grid.origin == (-6, -5) and nav.frame.origin == (-6, -5) and nav.grid.passable.shape == (12, 16)
    # The painted map sits inside, cell for cell; every cell around it is open ground.
    inner = nav.grid.passable[ORIGIN[1] + 5 : ORIGIN[1] + 5 + len(MAP), ORIGIN[0] + 6 : ORIGIN[0] + 6 + len(MAP[0])]
    np.testing.assert_array_equal(inner, expected_passable(MAP, "#~"))
    assert nav.grid.passable.sum() == 16 * 12 - (~expected_passable(MAP, "#~")).sum()
    corner, far = centre((-6, -5)), centre((9, 6))
    answer = nav.find_path(corner, far)
    assert answer.status == "FOUND" and answer.points[0] == corner and answer.points[-1] == far
    outside = nav.find_path(corner, centre((10, 6)))
    assert outside.status == "OUT_OF_BOUNDS"
    assert outside.message.endswith(
        "TileMap cell (10, 6) is outside the map, TileMap cells (-6, -5) to (9, 6) (the NavGrid's bounds)"
    )
    assert nav.is_blocked((-7, 0)) and not nav.is_blocked((-6, 0)) and nav.is_blocked((-1, -2))


def test_navigator_reads_unknown_tile_ids_as_the_engine_does_on_request():
    tiles = [tile for tile in TILES if tile.tile_id != 1]  # the wall's tile deleted from the TileSet
    with pytest.raises(MapFormatError, match=r"unknown tile id 1 at cell \(-1, -2\)"):
        TileMapNavigator.from_tilemap(encode(MAP), (16, 16), tiles)
    nav = TileMapNavigator.from_tilemap(encode(MAP), (16, 16), tiles, unknown_tiles="open")
    np.testing.assert_array_equal(nav.grid.passable, expected_passable(MAP, "~"))


def outline_sides(outline):
    """The segments of a ``draw_multiline`` outline, each as an unordered pair of points."""
    return {frozenset(outline[i : i + 2]) for i in range(0, len(outline), 2)}


def ring_sides(corners):
    return {frozenset((corners[i], corners[(i + 1) % len(corners)])) for i in range(len(corners))}


@pytest.mark.parametrize("cell_size", [(16, 16), (24, 10)])
def test_bounds_outline_is_the_rectangle_of_the_cells_in_pixels(cell_size):
    outline = bounds_outline(CellRect(-2, 3, 5, 4), cell_size)
    w, h = cell_size
    left, top, right, bottom = -2 * w, 3 * h, 3 * w, 7 * h
    assert outline_sides(outline) == ring_sides([(left, top), (right, top), (right, bottom), (left, bottom)])
    assert all(type(value) is float for point in outline for value in point)  # Vector2-ready


ISOMETRIC = TileGeometry(mode=MODE_ISOMETRIC, cell_size=(64, 32))


def test_bounds_outline_on_an_isometric_tilemap_is_the_diamond_the_cells_cover():
    outline = bounds_outline(CellRect(-2, 3, 5, 4), ISOMETRIC)
    # map_to_world of the corners (-2, 3), (3, 3), (3, 7), (-2, 7): (32 (x - y), 16 (x + y)).
    assert outline_sides(outline) == ring_sides([(-160.0, 16.0), (0.0, 96.0), (-128.0, 160.0), (-288.0, 80.0)])
    assert all(type(value) is float for point in outline for value in point)


def isometric_centre(cell):
    """The middle of a cell of ISOMETRIC: ``map_to_world(cell) + (0, 16)``."""
    x, y = cell
    return (x - y) * 32.0, (x + y) * 16.0 + 16.0


def test_navigator_with_bounds_on_an_isometric_tilemap_places_unpainted_cells_as_the_engine_does():
    nav = TileMapNavigator.from_tilemap(encode(MAP), ISOMETRIC, TILES, bounds=CellRect(-6, -5, 16, 12))
    corner, far = (-6, -5), (9, 6)  # unpainted, inside the bounds
    assert nav.centre_of(corner) == isometric_centre(corner) and nav.cell_of(isometric_centre(far)) == far
    answer = nav.find_path(isometric_centre(corner), isometric_centre(far), smooth=False)
    assert answer.status == "FOUND"
    assert answer.points[0] == isometric_centre(corner) and answer.points[-1] == isometric_centre(far)
    assert all(point == isometric_centre(nav.cell_of(point)) for point in answer.points)
    assert nav.find_path(isometric_centre(corner), isometric_centre((10, 6))).status == "OUT_OF_BOUNDS"


def centre(cell):
    return ((cell[0] + 0.5) * 16.0, (cell[1] + 0.5) * 16.0)


def test_find_path_answers_in_cell_centres_from_start_to_goal():
    nav = navigator()
    start, goal = (-3, -2), (4, -2)  # around the wall, through the ford
    answer = nav.find_path((start[0] * 16 + 3.0, start[1] * 16 + 9.0), centre(goal), smooth=False)
    assert answer and answer.status == "FOUND" and answer.message == ""
    assert answer.points[0] == centre(start) and answer.points[-1] == centre(goal)
    cells = [nav.cell_of(point) for point in answer.points]
    for (x0, y0), (x1, y1) in zip(cells, cells[1:]):
        assert max(abs(x1 - x0), abs(y1 - y0)) == 1
    assert all(nav.grid.is_passable(nav.frame.to_grid(cell)) for cell in cells)
    assert nav.frame.from_grid((6, 2)) in cells  # the ford is the only way across


def polyline_length(points):
    return sum(math.dist(a, b) for a, b in zip(points, points[1:]))


def test_smoothing_pulls_the_cell_path_straight():
    nav = navigator()
    start, goal = (-3, -2), (4, -2)
    rough = nav.find_path(centre(start), centre(goal), smooth=False)
    smooth = nav.find_path(centre(start), centre(goal))
    cells = find_path(nav.grid, nav.frame.to_grid(start), nav.frame.to_grid(goal)).cells
    assert smooth.points == nav.frame.grid_centres(smooth_path(nav.grid, cells))
    assert rough.points == nav.frame.grid_centres(cells)
    assert smooth.points[0] == rough.points[0] and smooth.points[-1] == rough.points[-1]
    assert smooth.points != rough.points
    assert polyline_length(smooth.points) <= polyline_length(rough.points) + 1e-9


@pytest.mark.parametrize("with_graph", [False, True])
@pytest.mark.parametrize(
    "start, goal, status",
    [
        ((-3, -2), (-1, -2), "GOAL_BLOCKED"),
        ((-1, -1), (-3, -2), "START_BLOCKED"),
        ((-3, -2), (20, 0), "OUT_OF_BOUNDS"),
        ((-30, -2), (0, 0), "OUT_OF_BOUNDS"),
    ],
)
def test_find_path_says_why_there_is_no_path(start, goal, status, with_graph):
    nav = navigator()
    if with_graph:
        nav.graph = KeyPointGraph.bake(nav.grid, cluster_size=4)
    answer = nav.find_path(centre(start), centre(goal))
    assert not answer and answer.status == status and answer.points == []
    assert status in answer.message and str(start) in answer.message
    if status == "OUT_OF_BOUNDS":  # where the map ends, and what sets it
        outside = goal if goal[0] == 20 else start
        assert answer.message.endswith(
            f": TileMap cell {outside} is outside the map, TileMap cells (-3, -2) to (4, 1) (the "
            "TileMap's painted rectangle; set the NavGrid's bounds to navigate beyond it)"
        )


@pytest.mark.parametrize("with_graph", [False, True])
def test_find_path_reports_unreachable_islands(with_graph):
    nav = navigator(blocking=["water"])  # the ford is water too: the east bank is cut off
    if with_graph:
        nav.graph = KeyPointGraph.bake(nav.grid, cluster_size=4)
    answer = nav.find_path(centre((-3, -2)), centre((4, -2)))
    assert answer.status == "UNREACHABLE"


@pytest.mark.parametrize("bad", [(math.nan, 0.0), (0.0, math.inf)])
def test_find_path_refuses_non_finite_positions(bad):
    nav = navigator()
    for answer in (nav.find_path(bad, (0.0, 0.0)), nav.find_path((0.0, 0.0), bad)):
        assert answer.status == Status.INVALID_POSITION.value and not answer
        assert "not finite" in answer.message and answer.points == []


def test_path_answer_is_truthy_only_when_found():
    assert PathAnswer("FOUND", [(0.0, 0.0)])
    assert not PathAnswer("UNREACHABLE", [], "no path")


# -- the key-point graph ----------------------------------------------------------------------


@pytest.mark.parametrize("smooth", [False, True])
def test_navigator_with_a_graph_answers_from_it(smooth):
    nav = navigator()
    graph = KeyPointGraph.bake(nav.grid, cluster_size=4)
    nav.graph = graph
    start, goal = (-3, -2), (4, -2)
    answer = nav.find_path(centre(start), centre(goal), smooth=smooth)
    cells = graph.find_path(nav.frame.to_grid(start), nav.frame.to_grid(goal), smooth=False).cells
    assert answer.status == "FOUND"
    assert answer.points == nav.frame.grid_centres(smooth_path(nav.grid, cells) if smooth else cells)
    assert nav.frame.from_grid((6, 2)) in [nav.frame.from_grid(cell) for cell in cells]  # over the ford


def test_navigator_refuses_a_graph_of_another_grid():
    nav = navigator()
    with pytest.raises(ValueError, match="another grid"):
        nav.graph = KeyPointGraph.bake(navigator().grid, cluster_size=4)
    nav.graph = None  # back to the exact search
    assert nav.graph is None and nav.find_path(centre((-3, -2)), centre((4, -2)))


def cluttered_grid() -> Grid:
    """A 48x48 map strewn with single walls: the exact search builds landmarks for it."""
    passable = np.random.default_rng(3).random((48, 48)) > 0.2
    passable[0, 0] = passable[47, 47] = True
    return Grid(passable)


def maze_grid() -> Grid:
    """A 49x49 perfect maze (rooms on even cells, each joined north or west): the exact search peels its
    dead ends and the graph contracts its key points'."""
    rng = np.random.default_rng(4)
    passable = np.zeros((49, 49), dtype=bool)
    passable[::2, ::2] = True
    for y in range(0, 49, 2):
        for x in range(0, 49, 2):
            if x and (not y or rng.random() < 0.5):
                passable[y, x - 1] = True
            elif y:
                passable[y - 1, x] = True
    return Grid(passable)


@pytest.mark.parametrize("grid", [cluttered_grid, maze_grid])
@pytest.mark.parametrize("with_graph", [False, True])
def test_a_prepared_navigator_builds_nothing_at_its_first_query(monkeypatch, grid, with_graph):
    """What the first query would build (jump tables, landmarks, the peeled maze, the graph's contraction) a NavGrid
    builds at load through prepare: inside Godot that took 1.6-2 s on the first query of a cluttered 512x512 map."""
    from pathing_py import dead_ends, differential, search
    from pathing_py.hierarchy import graph as graph_module

    built: List[str] = []

    def recording(name, make):
        def build(*args, **kwargs):
            built.append(name)
            return make(*args, **kwargs)

        return build

    nav = TileMapNavigator(grid(), TileFrame((16.0, 16.0)))
    monkeypatch.setattr(search, "JumpTables", recording("jump tables", search.JumpTables))
    monkeypatch.setattr(search, "Landmarks", recording("landmarks", differential.Landmarks))
    monkeypatch.setattr(dead_ends, "_Forest", recording("peel", dead_ends._Forest))
    monkeypatch.setattr(graph_module.Contraction, "find", recording("contraction", graph_module.Contraction.find))
    if with_graph:
        nav.graph = KeyPointGraph.from_bytes(baked(nav.grid, cluster_size=8), nav.grid)
        # (a cluttered map's graph answers from the exact search, a maze's from the key points)
    nav.prepare()
    expected = (
        {"jump tables", "landmarks"}
        if grid is cluttered_grid
        else {"jump tables", "peel"} | ({"contraction"} if with_graph else set())
    )
    assert set(built) == expected
    built.clear()
    for goal in [(47, 47), (48, 0), (0, 48), (48, 48)]:
        if nav.grid.is_passable(goal):
            assert nav.find_path(nav.centre_of((0, 0)), nav.centre_of(goal))
    assert built == []


def baked(grid: Grid, cluster_size: int = 4) -> bytes:
    return KeyPointGraph.bake(grid, cluster_size=cluster_size).to_bytes()


def stale(grid: Grid) -> bytes:
    """A file baked from the same map with one more wall."""
    edited = Grid(grid.passable.copy(), origin=grid.origin)
    edited.set_blocked([(0, 3)])
    return baked(edited)


def damaged(grid: Grid) -> bytes:
    data = bytearray(baked(grid))
    data[len(data) // 2] ^= 0xFF
    return bytes(data)


def test_load_graph_without_a_file_means_the_exact_search():
    assert load_graph("", None, navigator().grid, rebake=True) == GraphLoad(None, "")


@pytest.mark.parametrize("cluster_size", [0, 4])
def test_load_graph_reads_a_fresh_file_as_baked(cluster_size):
    grid = navigator().grid
    loaded = load_graph("res://map.kpg", baked(grid), grid, cluster_size=cluster_size, rebake=True)
    assert loaded.warning == ""
    assert loaded.graph == KeyPointGraph.bake(grid, cluster_size=4) and loaded.graph.grid is grid


@pytest.mark.parametrize(
    "data, cluster_size, problem",
    [
        (lambda grid: None, 0, "cannot open the key-point graph"),
        (stale, 0, "differ"),
        (damaged, 0, "damaged"),
        (lambda grid: b"PK\x03\x04 a zip, not a graph", 0, "not a pathing_py key-point graph"),
        (lambda grid: baked(grid)[:40], 0, "res://map.kpg"),
        (baked, 2, "clusters of 4 cells, cluster_size is 2"),
    ],
    ids=["missing", "stale", "damaged", "foreign", "truncated", "other-cluster-size"],
)
def test_load_graph_says_why_a_file_does_not_fit(data, cluster_size, problem):
    grid = navigator().grid
    in_editor = load_graph("res://map.kpg", data(grid), grid, cluster_size=cluster_size, rebake=False)
    assert in_editor.graph is None and problem in in_editor.warning
    assert in_editor.warning.startswith("res://map.kpg")

    at_run_time = load_graph("res://map.kpg", data(grid), grid, cluster_size=cluster_size, rebake=True)
    assert at_run_time.warning.startswith(in_editor.warning) and "baked in memory" in at_run_time.warning
    assert at_run_time.graph == KeyPointGraph.bake(grid, cluster_size=cluster_size or None)
    assert at_run_time.graph.grid is grid


def test_load_graph_refuses_a_cluster_size_the_bake_refuses():
    with pytest.raises(ValueError, match="cluster_size"):
        load_graph("res://map.kpg", None, navigator().grid, cluster_size=1, rebake=True)


def test_the_demo_scene_ships_a_fresh_graph():
    """scenes/demo.kpg fits the demo's map as its NavGrid reads it (blocking_tiles = forest)."""
    grid = grid_from_tscn(ROOT / "scenes" / "demo.tscn", blocking=["forest"])
    data = (ROOT / "scenes" / "demo.kpg").read_bytes()
    loaded = load_graph("res://scenes/demo.kpg", data, grid, rebake=False)
    assert loaded.warning == "", f"{loaded.warning}: run `pathing-py bake scenes/demo.tscn`"
    assert data == KeyPointGraph.bake(grid).to_bytes()


# -- following a TileMap read again ----------------------------------------------------------------

PAINTED = [row.replace("..#", ".##", 1) if n == 1 else row for n, row in enumerate(MAP)]  # (1, 1) walled
PAINTED[3] = "..#.  ~."  # (2, 3) walled, and (2, 0)-(2, 2) stay walls


def test_following_a_repainted_tilemap_edits_the_grid_and_its_graph_in_place():
    current = navigator()
    grid = current.grid
    current.graph = KeyPointGraph.bake(grid, cluster_size=4)
    fresh = TileMapNavigator.from_tilemap(encode(PAINTED), (16.0, 16.0), TILES)
    assert current.follow(fresh) == []
    assert current.grid is grid and np.array_equal(grid.passable, fresh.grid.passable)
    assert current.graph == KeyPointGraph.bake(fresh.grid, cluster_size=4)


def test_following_through_a_navigator_reports_cells_units_hold():
    current = navigator()
    units = Navigator(current.grid)
    units.add_unit((2.5, 3.5), speed=1.0)  # grid cell (2, 3), which PAINTED walls
    fresh = TileMapNavigator.from_tilemap(encode(PAINTED), (16.0, 16.0), TILES)
    ox, oy = current.grid.origin  # refusals name TileMap cells
    assert current.follow(fresh, units.set_blocked) == [(2 + ox, 3 + oy)]
    assert current.grid.is_passable((2, 3)) and not current.grid.is_passable((1, 1))


def test_a_tilemap_whose_used_rectangle_changed_cannot_be_followed():
    current = navigator()
    bigger = TileMapNavigator.from_tilemap(encode(MAP + ["........"]), (16.0, 16.0), TILES)
    assert current.follow(bigger) is None
    moved = TileMapNavigator.from_tilemap(encode(MAP, origin=(0, 0)), (16.0, 16.0), TILES)
    assert current.follow(moved) is None


@pytest.mark.parametrize(
    "tiles, blocking, warned",
    [
        ([TileInfo(0, "floor"), TileInfo(1, "rock")], [], True),
        ([TileInfo(0, "floor"), TileInfo(1, "rock")], ["rock"], False),
        ([TileInfo(0, "floor"), TileInfo(1, "rock", shape_coords=[(0, 0)])], [], False),
        ([TileInfo(0, "floor"), TileInfo(5, "cliff", mode=1, shape_coords=[(2, 1)])], [], False),
        ([TileInfo(0, "floor"), TileInfo(5, "cliff", mode=1)], [], True),
        ([], [], False),
    ],
)
def test_a_tileset_whose_tiles_cannot_block_is_warned_of(tiles, blocking, warned):
    warning = collision_warning(tiles, blocking)
    assert bool(warning) == warned
    if warned:
        names = ", ".join(repr(tile.name) for tile in sorted(tiles, key=lambda tile: tile.name))
        assert (
            warning
            == "The TileSet has no collision shapes, so no tile blocks: list the obstacle tiles in blocking_tiles "
            f"(tiles: {names})."
        )


def test_a_navigator_of_the_other_connectivity_replaces_rather_than_follows():
    current = navigator()
    rooks = TileMapNavigator.from_tilemap(encode(MAP), (16.0, 16.0), TILES, connectivity=4)
    assert rooks.grid.connectivity == 4 and np.array_equal(rooks.grid.passable, current.grid.passable)
    assert current.follow(rooks) is None
    with pytest.raises(ValueError, match="connectivity must be 8 or 4 .*got 6"):
        TileMapNavigator.from_tilemap(encode(MAP), (16.0, 16.0), TILES, connectivity=6)


def test_tile_data_in_every_integer_form_pythonscript_may_give_reads_the_same():
    signed = encode(MAP)
    forms = [
        [v & 0xFFFFFFFF for v in signed],  # unsigned 32-bit
        [v % UINT64 for v in signed],  # unsigned 64-bit (godot-python 0.50, issue #365)
        np.array(signed, dtype=np.int32),
        iter(signed),  # any iterable, as a PoolIntArray
    ]
    expected = navigator().grid.passable
    for data in forms:
        grid = TileMapNavigator.from_tilemap(data, (16.0, 16.0), TILES).grid
        np.testing.assert_array_equal(grid.passable, expected)


@pytest.mark.parametrize("values, error", [([1, 2], ValueError), ([1.5, 2.0, 3.0], TypeError)])
def test_tile_data_that_is_not_format_1_is_refused(values, error):
    with pytest.raises(error):
        TileMapNavigator.from_tilemap(values, (16.0, 16.0), TILES)


def test_a_shape_on_a_fractional_autotile_coord_blocks_no_cell():
    tile = TileInfo(3, "water", 2, [(0.5, 0.0), (1.0, 0.0)])
    assert tile.shape_coords == ((1, 0),)


def test_a_node_script_is_held_once_for_the_rest_of_the_run():
    class Script:  # stands for the Script resource a node hands over
        pass

    first, second = Script(), Script()
    kept = weakref.ref(first)
    keep_script_loaded("TestNode", first)
    keep_script_loaded("TestNode", second)
    del first
    gc.collect()
    assert kept() is not None
