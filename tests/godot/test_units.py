"""pathing_py.godot.units: what the NavGrid and its PathUnits hand over, driven without the engine.

A fake TileMap stands in for the engine's: it is placed on the canvas with a
transform, units sit under parents with their own transforms, and the driver
is run frame by frame as NavGrid._physics_process runs it.
"""

import math
import re
from pathlib import Path
from typing import Dict, List, Tuple

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pathing_py import Grid
from pathing_py.godot.bridge import TileFrame, TileInfo, TileMapNavigator
from pathing_py.godot.scene_files import read_tilemap
from pathing_py.godot.text import parse_file
from pathing_py.godot.units import (
    EMPTY_TILE,
    NO_WALL_TILE,
    REASON_SIGNALS,
    UNIT_SIGNALS,
    Affine,
    CellEdit,
    TilePainter,
    UnitDriver,
    UnitSignal,
    unit_problem,
)
from pathing_py.status import Status
from pathing_py.units import UnitState
from pathing_py.units.unit import FINAL_STATES
from tests.support.godot_units import (
    CELL_SIZE,
    DEAD_END,
    MAP,
    TILEMAP_TO_WORLD,
    TILES,
    FakeTileMap,
    Node,
    add,
    make_driver,
    points,
    rotation,
    run,
    tile_cell_of,
    world_centre,
    world_of,
)

ROOT = Path(__file__).resolve().parents[2]


# -- affine maps ------------------------------------------------------------------------------

finite = st.floats(-1e3, 1e3)


@given(finite, st.floats(0.1, 10), finite, finite, finite, finite)
def test_affine_maps_as_a_transform2d_matrix_does(degrees, scale, ox, oy, px, py):
    affine = rotation(degrees, (ox, oy), scale)
    matrix = np.array([[affine.x[0], affine.y[0], ox], [affine.x[1], affine.y[1], oy], [0, 0, 1]])
    np.testing.assert_allclose(affine.apply((px, py)), (matrix @ [px, py, 1])[:2], atol=1e-9)
    np.testing.assert_allclose(points(Affine.from_points(points(affine))), points(affine), atol=1e-9)
    back = affine.inverse().apply(affine.apply((px, py)))
    np.testing.assert_allclose(back, (px, py), atol=1e-6)


def test_affine_product_applies_the_right_hand_map_first():
    move, turn = Affine(origin=(10.0, 0.0)), rotation(90)
    assert np.allclose((move * turn).apply((1.0, 0.0)), (10.0, 1.0))
    assert np.allclose((turn * move).apply((1.0, 0.0)), (0.0, 11.0))


@pytest.mark.parametrize("bad", [((0, 0), (0, 0), (0, 1)), ((1, 1), (2, 2), (3, 3))])
def test_a_map_scaled_to_zero_cannot_be_inverted(bad):
    with pytest.raises(ValueError, match="scaled to zero"):
        Affine.from_points(bad).inverse()


@pytest.mark.parametrize("bad", [((math.nan, 0), (1, 0), (0, 1)), ((0, 0), (math.inf, 0), (0, 1)), ((0, 0),), None])
def test_a_transform_that_is_not_three_finite_points_is_refused(bad):
    with pytest.raises(ValueError, match="not finite|three points"):
        Affine.from_points(bad)


# -- units joining ----------------------------------------------------------------------------


def test_a_unit_joins_where_it_stands_and_is_not_moved_until_it_walks():
    driver = make_driver()
    node, answer = add(driver, 7, (0, 0), rotation(30, (5.0, 7.0)))
    assert answer and answer.status == Status.OK.value and answer.message == ""
    assert driver.state_of(7) == "IDLE" and driver.reason_of(7) == ""
    assert driver.step(0.5) == [] and list(driver.signals()) == []


@pytest.mark.parametrize(
    "cell, kwargs, status, message",
    [
        ((1, 0), {}, Status.CELL_BLOCKED.value, "TileMap cell (1, 0), which is blocked"),
        (
            (7, 0),
            {},
            Status.OUT_OF_BOUNDS.value,
            "TileMap cell (7, 0) is outside the map, TileMap cells (-4, -2) to (6, 2) "
            "(the TileMap's painted rectangle; set the NavGrid's bounds to navigate beyond it)",
        ),
        ((-4, -2), {}, Status.CELL_HELD.value, "TileMap cell (-4, -2), which unit 1 holds"),
        ((0, 2), {"speed": 0.0}, Status.INVALID_SETTINGS.value, "speed must be a positive number of cells per second"),
        ((0, 2), {"speed": math.nan}, Status.INVALID_SETTINGS.value, "speed must be"),
        ((0, 2), {"radius": 4.5}, Status.INVALID_SETTINGS.value, "radius must be in (0, 4] cells"),
        ((0, 2), {"priority": 1.5}, Status.INVALID_SETTINGS.value, "priority must be an int"),
    ],
)
def test_a_unit_that_cannot_join_says_why(cell, kwargs, status, message):
    driver = make_driver()
    add(driver, 1, (-4, -2))
    _, answer = add(driver, 2, cell, **kwargs)
    assert not answer and answer.status == status
    assert message in answer.message
    assert driver.state_of(2) == "" and driver.order(2, world_centre((0, 0))).status == Status.NOT_DRIVEN.value


@pytest.mark.parametrize(
    "global_points, local_points",
    [
        (((math.nan, 0.0), (1.0, 0.0), (0.0, 1.0)), ((0.0, 0.0), (1.0, 0.0), (0.0, 1.0))),
        (((0.0, 0.0), (0.0, 0.0), (0.0, 1.0)), ((0.0, 0.0), (0.0, 0.0), (0.0, 1.0))),  # scaled to zero
    ],
)
def test_a_unit_with_a_broken_transform_is_refused(global_points, local_points):
    answer = make_driver().add(1, Node("u"), global_points, local_points, speed=4.0)
    assert answer.status == Status.INVALID_TRANSFORM.value and "transform" in answer.message


def test_a_tilemap_scaled_to_zero_cannot_carry_units():
    with pytest.raises(ValueError, match="scaled to zero"):
        UnitDriver(FakeTileMap(MAP).navigator(), ((0, 0), (0, 0), (0, 0)))


def test_a_node_that_joins_again_is_moved_from_its_new_place():
    driver = make_driver()
    add(driver, 1, (-4, -2))
    node, answer = add(driver, 1, (-4, -1))
    assert answer and len(driver.navigator.units) == 1
    assert driver.navigator.holder(driver.frame.to_grid((-4, -2))) is None


def test_joining_again_with_bad_settings_leaves_the_unit_driven_as_it_was():
    driver = make_driver()
    add(driver, 1, (-4, -2))
    _, answer = add(driver, 1, (-4, -1), speed=-1.0)
    assert answer.status == Status.INVALID_SETTINGS.value
    assert len(driver.navigator.units) == 1
    assert driver.navigator.holder(driver.frame.to_grid((-4, -2))) is not None


# -- orders, moves and positions ----------------------------------------------------------------


@pytest.mark.parametrize("parent", [Affine(), Affine(origin=(-300.0, 12.5)), rotation(-45, (20.0, 20.0), 0.5)])
def test_positions_in_pixels_round_trip_through_the_navigator(parent):
    """A unit walks along a row: every position sent, taken back through its parent, lies on the row's centre
    line in the world, and the last one is the goal cell's centre."""
    driver = make_driver()
    node, _ = add(driver, 1, (-4, -2), parent)
    assert driver.order(1, world_centre((6, -2)))
    moves, signals = run(driver, 4.0)
    row_start, row_end = world_centre((-4, -2)), world_centre((6, -2))
    for move in moves:
        x, y = world_of(move)
        # on the segment between the two centres
        cross = (row_end[0] - row_start[0]) * (y - row_start[1]) - (row_end[1] - row_start[1]) * (x - row_start[0])
        assert abs(cross) < 1e-6 * math.dist(row_start, row_end)
    assert np.allclose(world_of(moves[-1]), row_end)
    assert [s.name for s in signals] == ["path_found", "waypoint_reached", "arrived"]
    assert all(s.cell == (6, -2) and np.allclose(s.position, row_end) and s.node is node for s in signals)


@given(st.integers(-4, 6), st.integers(-2, 2), st.floats(0.001, 0.999), st.floats(0.001, 0.999))
def test_an_order_goes_to_the_tilemap_cell_under_the_world_position(x, y, dx, dy):
    """Anywhere in a cell but on its very border, where rounding in the turned TileMap may tip either way."""
    driver = make_driver()
    add(driver, 1, (-4, -2))
    world = TILEMAP_TO_WORLD.apply(((x + dx) * CELL_SIZE[0], (y + dy) * CELL_SIZE[1]))
    assert driver.order(1, world)
    assert driver.frame.from_grid(driver.navigator.units[1].goal) == (x, y)


@pytest.mark.parametrize("world", [(math.nan, 3.0), (0.0, math.inf), "here", (1.0,)])
def test_a_non_finite_order_is_refused_with_a_clear_status(world):
    driver = make_driver()
    add(driver, 1, (-4, -2))
    answer = driver.order(1, world)
    assert answer.status == Status.INVALID_POSITION.value
    assert "move_to: position" in answer.message and ("not finite" in answer.message or "pair" in answer.message)
    assert driver.state_of(1) == "IDLE"


def test_an_order_off_the_map_is_refused():
    driver = make_driver()
    add(driver, 1, (-4, -2))
    answer = driver.order(1, world_centre((20, 0)))
    assert (
        answer.status == Status.OUT_OF_BOUNDS.value
        and "TileMap cell (20, 0) is outside the map, TileMap cells (-4, -2) to (6, 2) "
        "(the TileMap's painted rectangle; set the NavGrid's bounds to navigate beyond it)"
        in answer.message
    )


def test_several_units_cross_without_sharing_a_cell_and_each_hears_its_own_signals():
    driver = make_driver()
    starts, goals = [(-4, -2), (-4, 2), (6, -2), (6, 2)], [(6, 2), (6, -2), (-4, 2), (-4, -2)]
    nodes = [add(driver, key, start, rotation(15 * key, (key * 100.0, 0.0)))[0] for key, start in enumerate(starts)]
    for key, goal in enumerate(goals):
        assert driver.order(key, world_centre(goal))
    where = {key: start for key, start in enumerate(starts)}
    heard: Dict[int, List[str]] = {key: [] for key in where}
    for _ in range(60 * 20):
        for move in driver.step(1 / 60):
            node = move[0]
            where[nodes.index(node)] = tile_cell_of(world_of(move))
        assert len(set(where.values())) == len(where), where  # units hold whole cells
        for signal in driver.signals():
            assert signal.node is nodes[signal.key]
            heard[signal.key].append(signal.name)
    for key, goal in enumerate(goals):
        assert driver.state_of(key) == "ARRIVED" and where[key] == goal
        assert heard[key][0] == "path_found" and heard[key][-1] == "arrived"


def test_a_unit_ordered_to_a_blocked_cell_stops_nearby_and_says_why():
    driver = make_driver()
    add(driver, 1, (-4, 0))
    driver.order(1, world_centre((1, 1)))  # the wall
    _, signals = run(driver, 5.0)
    found, stopped = signals[0], signals[-1]
    assert (found.name, stopped.name) == ("path_found", "unreachable")
    assert found.cell == stopped.cell and found.cell in ((0, 1), (0, 0), (2, 1))  # next to the wall, on this side
    assert stopped.reason and driver.reason_of(1) == stopped.reason  # the navigator's own words
    assert driver.state_of(1) == "UNREACHABLE"


def test_a_unit_ordered_onto_a_standing_unit_arrives_and_the_standing_unit_makes_way():
    driver = make_driver()
    add(driver, 1, (-4, 0))
    add(driver, 2, (-2, 0))
    driver.order(1, world_centre((-2, 0)))
    _, signals = run(driver, 3.0)
    assert signals[-1].key == 1 and signals[-1].name == "arrived" and signals[-1].cell == (-2, 0)
    assert all(signal.key == 1 for signal in signals) and driver.state_of(2) == "IDLE"  # it makes way silently


def test_a_world_at_rest_moves_no_node_until_an_order_wakes_it():
    driver = make_driver()
    node, _ = add(driver, 1, (-4, 0))
    driver.order(1, world_centre((-2, 0)))
    moves, _ = run(driver, 3.0)
    assert moves and driver.state_of(1) == "ARRIVED" and driver.navigator.at_rest
    assert run(driver, 1.0) == ([], [])
    driver.order(1, world_centre((-4, 0)))
    moves, signals = run(driver, 3.0)
    assert {moved for moved, _, _ in moves} == {node} and tile_cell_of(world_of(moves[-1])) == (-4, 0)
    assert signals[-1].name == "arrived" and signals[-1].cell == (-4, 0)


def test_reasons_name_tilemap_cells_and_units_by_their_keys():
    """A reason reaches the game beside the signal's TileMap cell: it names TileMap cells, and units by the keys
    the NavGrid drives them under (their instance ids), not the navigator's grid cells and numbers."""
    driver = make_driver(FakeTileMap(DEAD_END))
    add(driver, 10, (-2, -1))
    add(driver, 20, (2, -1))  # pushed into the dead end, it has nowhere to make way
    add(driver, 30, (-4, -1))
    driver.order(10, world_centre((3, -1)))
    driver.order(30, world_centre((0, -2)))  # the wall
    _, signals = run(driver, 40.0)
    stops = {signal.key: signal for signal in signals if signal.name in REASON_SIGNALS}
    assert stops[10].name == "held_up" and stops[10].cell == (2, -1), stops
    assert re.fullmatch(r"waited \d+\.\d s for unit\(s\) 20 at \(3, -1\)", stops[10].reason), stops[10].reason
    assert stops[30].reason == "goal (0, -2) is blocked" and driver.reason_of(30) == stops[30].reason


# -- signals ------------------------------------------------------------------------------------


def test_signal_arguments_are_cell_and_position_plus_the_reason_when_stopped():
    def vector(x, y):
        return ("Vector2", x, y)

    for name in UNIT_SIGNALS:
        signal = UnitSignal(1, Node("n"), name, (3, -1), (56.0, 8.0), "why" if name in REASON_SIGNALS else "")
        expected = [("Vector2", 3, -1), ("Vector2", 56.0, 8.0)] + (["why"] if name in REASON_SIGNALS else [])
        assert signal.arguments(vector) == expected


def test_every_final_state_has_a_signal_named_as_it_in_lower_case():
    assert {state.value.lower() for state in FINAL_STATES} <= set(UNIT_SIGNALS)
    assert REASON_SIGNALS == {UnitState.HELD_UP.value.lower(), UnitState.UNREACHABLE.value.lower()}


def test_an_event_without_a_signal_is_an_error_not_silence():
    driver = make_driver()
    add(driver, 1, (-4, 0))
    driver.navigator._events.append((driver.navigator.units[1].id, "teleported", (0, 0)))
    with pytest.raises(ValueError, match="no signal for: 'teleported'"):
        driver.step(0.0)


def test_a_unit_removed_by_a_signal_handler_gets_no_more_signals():
    driver = make_driver()
    add(driver, 1, (-4, -2))
    add(driver, 2, (-4, 2))
    driver.order(1, world_centre((-3, -2)))
    driver.order(2, world_centre((-3, 2)))
    driver.step(1 / 60)  # both plan: path_found for each
    names = []
    for signal in driver.signals():
        names.append((signal.key, signal.name))
        driver.remove(2)  # the game frees unit 2 while handling the first signal
    assert names == [(1, "path_found")]
    assert driver.state_of(2) == "" and len(driver.navigator.units) == 1
    assert driver.set_cell_blocked((-4, 2), True)  # its cell is free


# -- map edits ----------------------------------------------------------------------------------


def test_set_cell_blocked_names_the_tile_and_blocks_the_grid():
    driver = make_driver()
    edit = driver.set_cell_blocked((2.0, -1.0), True)
    assert edit and edit == CellEdit(Status.OK.value, "", (2, -1), 1) and edit.error == ""
    assert not driver.navigator.grid.is_passable(driver.frame.to_grid((2, -1)))
    assert driver.set_cell_blocked((2, -1), False) == CellEdit(Status.OK.value, "", (2, -1), EMPTY_TILE)
    assert driver.navigator.grid.is_passable(driver.frame.to_grid((2, -1)))


def test_set_cell_blocked_is_refused_where_a_unit_stands_and_succeeds_once_it_left():
    driver = make_driver()
    add(driver, 5, (-4, -2))
    edit = driver.set_cell_blocked((-4, -2), True)
    assert not edit and edit.status == Status.CELL_HELD.value
    assert edit.message == "set_cell_blocked: unit 5 holds TileMap cell (-4, -2)" and edit.error == ""
    assert driver.navigator.grid.is_passable(driver.frame.to_grid((-4, -2)))
    driver.order(5, world_centre((-4, 2)))
    run(driver, 2.0)
    assert driver.set_cell_blocked((-4, -2), True)


@pytest.mark.parametrize(
    "cell, status, message",
    [
        ((math.nan, 0.0), Status.INVALID_POSITION.value, "set_cell_blocked: cell (nan, 0.0) is not finite"),
        (
            (9, 9),
            Status.OUT_OF_BOUNDS.value,
            "TileMap cell (9, 9) is outside the map, TileMap cells (-4, -2) to (6, 2) "
            "(the TileMap's painted rectangle; set the NavGrid's bounds to navigate beyond it)",
        ),
    ],
)
def test_set_cell_blocked_refuses_cells_it_cannot_name(cell, status, message):
    edit = make_driver().set_cell_blocked(cell, True)
    assert edit.status == status and message in edit.message and edit.error == edit.message


def test_set_cell_blocked_without_a_wall_tile_is_refused():
    driver = UnitDriver(FakeTileMap(MAP).navigator(), points(Affine()))
    edit = driver.set_cell_blocked((0, 0), True)
    assert edit.status == Status.NO_TILE.value and NO_WALL_TILE in edit.message and edit.error


@pytest.mark.parametrize("floor_tile, empty_passable", [("", True), ("ground", False)])
def test_the_painted_tilemap_reads_back_as_the_edited_grid(floor_tile, empty_passable):
    """What NavGrid paints and what the navigator blocked agree: a rebuild from the TileMap changes nothing."""
    tilemap = FakeTileMap(MAP)
    painter = TilePainter.choose(TILES, "wall", floor_tile, blocking=["forest"], empty_passable=empty_passable)
    driver = UnitDriver(
        tilemap.navigator(blocking=["forest"], empty_passable=empty_passable), points(Affine()), painter=painter
    )
    rng = np.random.default_rng(5)
    for _ in range(40):
        cell = (int(rng.integers(-4, 7)), int(rng.integers(-2, 3)))
        edit = driver.set_cell_blocked(cell, bool(rng.integers(2)))
        if edit:
            tilemap.set_cell(edit.cell[0], edit.cell[1], edit.tile)
    reread = tilemap.navigator(blocking=["forest"], empty_passable=empty_passable)
    np.testing.assert_array_equal(reread.grid.passable, driver.navigator.grid.passable)


def test_a_wall_put_up_on_a_route_is_walked_around():
    driver = make_driver()
    add(driver, 1, (-4, 0))
    driver.order(1, world_centre((6, 0)))
    moves, _ = run(driver, 1.0)  # a few cells along the row
    wall = [(2, y) for y in range(-2, 3) if y != 2]  # leaves a gap at the bottom
    assert all(driver.set_cell_blocked(cell, True) for cell in wall)
    later, signals = run(driver, 10.0)
    cells = {tile_cell_of(world_of(move)) for move in later}
    assert not cells & set(wall)
    assert signals[-1].name == "arrived" and driver.navigator.units[1].stats.encounters >= 1


# -- tile choice and warnings --------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, problem",
    [
        ({"wall_tile": "lava"}, "wall_tile 'lava' is not a tile of the TileSet (tiles: 'forest', 'ground'"),
        ({"wall_tile": "ground"}, "wall_tile 'ground' does not block"),
        ({"wall_tile": "forest"}, "wall_tile 'forest' does not block"),
        ({"wall_tile": "water"}, "wall_tile 'water' is an autotile or atlas"),
        ({"wall_tile": "wall", "floor_tile": "wall"}, "floor_tile 'wall' blocks"),
        ({"wall_tile": "wall", "floor_tile": "forest", "blocking": ["forest"]}, "floor_tile 'forest' blocks"),
        ({"wall_tile": "wall", "empty_passable": False}, "empty_cells_passable is off"),
    ],
)
def test_tile_painter_explains_settings_that_would_split_tilemap_and_grid(kwargs, problem):
    painter = TilePainter.choose(TILES, **kwargs)
    assert problem in painter.problem and painter.warning == painter.problem


def test_tile_painter_picks_tiles_by_name():
    assert TilePainter.choose(TILES, "wall") == TilePainter(1, EMPTY_TILE)
    assert TilePainter.choose(TILES, "forest", "ground", blocking=["forest"]) == TilePainter(2, 0)
    painter = TilePainter.choose(TILES, "")
    assert painter.problem == NO_WALL_TILE and painter.warning == ""  # edits off: nothing to warn about


@pytest.mark.parametrize(
    "path, found, speed, radius, warning",
    [
        ("", None, 4.0, 0.5, "Set nav_grid_path"),
        ("../Nav", None, 4.0, 0.5, "'../Nav' does not point at a node"),
        ("../TileMap", "TileMap", 4.0, 0.5, "points at a TileMap, not a NavGrid"),
        ("../NavGrid", "NavGrid", -1.0, 0.5, "speed must be a positive number"),
        ("../NavGrid", "NavGrid", 4.0, 0.0, "radius must be in (0, 4]"),
        ("../NavGrid", "NavGrid", 4.0, 0.5, ""),
    ],
)
def test_unit_problem_is_the_configuration_warning(path, found, speed, radius, warning):
    problem = unit_problem(path, found, speed=speed, radius=radius)
    assert (warning in problem) if warning else problem == ""


DOOR_MAP = [
    ".....#.....",
    ".....#.....",
    ".....#.....",
]  # the wall is TileMap column 1; its door would be TileMap cell (1, -1)


def test_a_unit_cut_off_goes_on_with_a_new_path_found_when_set_cell_blocked_opens_the_door():
    driver = make_driver(FakeTileMap(DOOR_MAP))
    add(driver, 1, (-4, -1))
    driver.order(1, world_centre((4, -1)))
    _, signals = run(driver, 3.0)
    assert [s.name for s in signals if s.name != "waypoint_reached"] == ["path_found", "unreachable"]
    assert driver.state_of(1) == "UNREACHABLE"
    assert driver.set_cell_blocked((1, -1), False)
    moves, signals = run(driver, 3.0)
    assert [s.name for s in signals if s.name != "waypoint_reached"] == ["path_found", "arrived"]
    assert signals[-1].cell == (4, -1) and np.allclose(world_of(moves[-1]), world_centre((4, -1)))


def test_a_unit_cut_off_goes_on_when_the_tilemap_read_again_opens_a_way():
    driver = make_driver(FakeTileMap(DOOR_MAP))
    add(driver, 1, (-4, -1))
    driver.order(1, world_centre((4, -1)))
    run(driver, 3.0)
    assert driver.state_of(1) == "UNREACHABLE"
    grown = FakeTileMap(["." * 13] + [row + ".." for row in DOOR_MAP], origin=(-4, -3))  # a way round the wall's top
    successor = make_driver(grown)
    successor.take_over(driver)
    moves, signals = run(successor, 5.0)
    assert [s.name for s in signals if s.name != "waypoint_reached"] == ["path_found", "arrived"]
    assert np.allclose(world_of(moves[-1]), world_centre((4, -1)))


def test_a_unit_cut_off_longer_than_retry_time_stays_when_the_door_opens():
    driver = make_driver(FakeTileMap(DOOR_MAP), retry_time=1.0)
    add(driver, 1, (-4, -1))
    driver.order(1, world_centre((4, -1)))
    run(driver, 3.0)
    run(driver, 1.5)
    assert driver.set_cell_blocked((1, -1), False)
    _, signals = run(driver, 3.0)
    assert signals == [] and driver.state_of(1) == "UNREACHABLE"


# -- the NavGrid reading its TileMap again -------------------------------------------------------


def test_a_new_driver_takes_over_units_with_their_orders():
    """After a rebuild the grid may start at another cell (the TileMap grew): units keep their world places."""
    driver = make_driver()
    add(driver, 1, (-4, -2))
    add(driver, 2, (6, 2))
    driver.order(1, world_centre((6, -2)))
    run(driver, 0.5)
    grown = FakeTileMap(["." * 13] + [row + ".." for row in MAP], origin=(-4, -3))
    grown.set_cell(6, 2, 1)  # a wall where unit 2 stands
    successor = make_driver(grown)
    successor.take_over(driver)
    signals = list(successor.signals())
    assert [(s.key, s.name, s.cell) for s in signals] == [(2, "unreachable", (6, 2))]
    assert "read its TileMap again" in signals[0].reason and "which is blocked" in signals[0].reason
    assert successor.state_of(2) == ""
    moves, later = run(successor, 4.0)
    assert np.allclose(world_of(moves[-1]), world_centre((6, -2))) and later[-1].name == "arrived"


# -- the units demo scene ------------------------------------------------------------------------


def cells(pool: np.ndarray) -> List[Tuple[int, int]]:
    """A PoolVector2Array of cells, as the scene reader gives it (flat floats)."""
    return [(int(x), int(y)) for x, y in pool.reshape(-1, 2)]


def tile_infos(collision, names) -> List[TileInfo]:
    """TileInfos from the scene reader's collision rules: True/False for single tiles, sub-tile sets for atlases."""
    return [
        TileInfo(tile, names[tile], 0, [(0, 0)] if rule else [])
        if isinstance(rule, bool)
        else TileInfo(tile, names[tile], 2, sorted(rule))
        for tile, rule in collision.items()
    ]


def test_the_units_demo_sends_six_units_across_new_walls():
    """scenes/units_demo.tscn run as its script and the NavGrid run it: every wall goes up on a unit's route,
    and every unit still arrives."""
    scene = parse_file(ROOT / "scenes" / "units_demo.tscn")
    nodes = {(s.attributes.get("parent"), s.attributes["name"]): s for s in scene.sections if s.tag == "node"}
    root = nodes[None, "UnitsDemo"].properties
    targets, walls = cells(root["targets"]), cells(root["wall_cells"])
    timer = nodes[".", "WallTimer"].properties
    assert nodes["Demo", "NavGrid"].properties["wall_tile"] == "wall"

    demo = parse_file(ROOT / "scenes" / "demo.tscn")
    tilemap_node = next(s for s in demo.sections if s.attributes.get("type") == "TileMap")
    tx, ty = tilemap_node.properties["position"].args
    data = read_tilemap(ROOT / "scenes" / "demo.tscn", blocking=["forest"])
    grid = Grid(data.passable(), origin=data.origin)
    painter = TilePainter.choose(tile_infos(data.collision, data.names), "wall", blocking=["forest"])
    assert painter.problem == ""
    driver = UnitDriver(
        TileMapNavigator(grid, TileFrame(CELL_SIZE, grid.origin)),
        ((tx, ty), (tx + 1, ty), (tx, ty + 1)),
        painter=painter,
    )
    units = [s for (parent, _), s in nodes.items() if parent == "Units"]
    assert len(units) == len(targets) == 6
    for key, unit in enumerate(units):
        x, y = unit.properties["position"].args
        assert unit.properties["nav_grid_path"].args == ("../../Demo/NavGrid",)
        at = ((x, y), (x + 1, y), (x, y + 1))
        assert driver.add(key, unit.attributes["name"], at, at, speed=4.0)
        target = targets[key]
        world = (tx + (target[0] + 0.5) * CELL_SIZE[0], ty + (target[1] + 0.5) * CELL_SIZE[1])
        assert driver.order(key, world)

    left, next_try, frame, retry = list(walls), timer["wait_time"], 1 / 60, 0.25
    for step in range(1, 60 * 60):
        driver.step(frame)
        list(driver.signals())
        if left and step * frame >= next_try:
            left = [cell for cell in left if not driver.set_cell_blocked(cell, True)]
            next_try += retry
        if not left and all(unit.state in FINAL_STATES for unit in driver.navigator.units.values()):
            break
    assert not left, "every wall goes up"
    assert all(driver.state_of(key) == "ARRIVED" for key in range(6))
    assert all(unit.stats.encounters >= 1 for unit in driver.navigator.units.values()), "walls on every route"
