"""pathing_py.godot.debug_drawing: what a NavGrid draws with ``debug_draw`` on, from its drivers, without the engine.

Units and groups run as in tests/godot/test_units.py and godot/test_groups.py
(fake TileMap at TileMap cell (-4, -2), 16-pixel cells); the drawing is
checked against the units' own cells and plans, converted to TileMap pixels
here independently of the driver's frame.
"""

import math
from typing import Dict, List, Tuple

import numpy as np
import pytest

from pathing_py.debug import plan_ahead
from pathing_py.godot.bridge import TileFrame
from pathing_py.godot.debug_drawing import (
    FORMING_SLOT_COLOUR,
    LOOK_COLOURS,
    LOOKS,
    NEXT_INSET,
    PREDICTED_COLOUR,
    PREDICTED_SIDE,
    ROUTE_COLOUR,
    SLOT_INSET,
    TARGET_SLOT_COLOUR,
    UnitsDrawing,
    drawing_of,
    unit_look,
    units_drawing,
)
from pathing_py.godot.editor import rect_outlines
from pathing_py.godot.units import UnitDriver
from pathing_py.grid import Grid
from pathing_py.groups import GroupState
from pathing_py.units import Navigator, Route, RouteKind, UnitState
from pathing_py.units.prediction import predicted_positions
from tests.support.godot_groups import MANAGER, make_squad, settings
from tests.support.godot_units import CELL_SIZE, ORIGIN, FakeTileMap, add, make_driver, world_centre

Cell = Tuple[int, int]


def pixels(grid_point) -> Tuple[float, float]:
    """TileMap-local pixels of a grid point (cells) of the fake TileMap."""
    return ((grid_point[0] + ORIGIN[0]) * CELL_SIZE[0], (grid_point[1] + ORIGIN[1]) * CELL_SIZE[1])


def square(cell: Cell, inset: float) -> List[Tuple[float, float]]:
    """A grid cell's outline ``inset`` cells inside each side: its four sides, ends in pairs, in pixels."""
    x0, y0, x1, y1 = cell[0] + inset, cell[1] + inset, cell[0] + 1 - inset, cell[1] + 1 - inset
    corners = [pixels(corner) for corner in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
    return [end for side in range(4) for end in (corners[side], corners[(side + 1) % 4])]


def squares(cells, inset: float) -> List[Tuple[float, float]]:
    return [end for cell in cells for end in square(cell, inset)]


def assert_points(actual, expected) -> None:
    """The same segment ends, to float rounding (the driver's frame computes them its own way)."""
    assert len(actual) == len(expected), (len(actual), len(expected))
    np.testing.assert_allclose(
        np.array(actual, dtype=float).reshape(-1, 2), np.array(expected, dtype=float).reshape(-1, 2)
    )


def looks_over(driver: UnitDriver, seconds: float) -> Dict[int, List[str]]:
    """Each unit's look at every frame (unit id -> looks in order, repeats dropped)."""
    seen: Dict[int, List[str]] = {}
    for _ in range(round(seconds * 60)):
        driver.step(1 / 60)
        list(driver.signals())
        for unit in driver.navigator.units.values():
            looks = seen.setdefault(unit.id, [])
            if not looks or looks[-1] != unit_look(unit):
                looks.append(unit_look(unit))
    return seen


# -- looks -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "state, look",
    [
        (UnitState.IDLE, "standing"),
        (UnitState.ARRIVED, "standing"),
        (UnitState.FIND_PATH, "moving"),
        (UnitState.RUN, "moving"),
        (UnitState.MOVING, "moving"),
        (UnitState.WAITING, "waiting"),
        (UnitState.HELD_UP, "stopped"),
        (UnitState.UNREACHABLE, "stopped"),
    ],
)
def test_each_state_has_its_look(state, look):
    unit = Navigator(Grid.from_ascii("....")).add_unit((0.5, 0.5), speed=4.0)
    unit.state = state
    assert unit_look(unit) == look and look in LOOKS and not unit.making_way


def test_a_route_that_waits_for_another_unit_to_pass_is_making_way_whatever_the_state():
    unit = Navigator(Grid.from_ascii("....")).add_unit((0.5, 0.5), speed=4.0)
    unit.stack.push(Route(RouteKind.AVOIDANCE, [(1, 0)]))  # a detour of its own: not making way
    assert not unit.making_way
    unit.stack.push(Route(RouteKind.AVOIDANCE, [(1, 0), (0, 0)], wait_at=1, wait_while=lambda: True))
    for state in (UnitState.RUN, UnitState.WAITING, UnitState.IDLE):
        unit.state = state
        assert unit.making_way and unit_look(unit) == "making_way"
    unit.state = UnitState.HELD_UP  # stopped short is what a player must see first
    assert unit_look(unit) == "stopped"


def test_a_unit_holding_before_a_narrow_passage_for_its_turn_looks_taking_turns_only_while_it_waits_there():
    unit = Navigator(Grid.from_ascii("....")).add_unit((0.5, 0.5), speed=4.0)
    key_points = Route(
        RouteKind.HIGH_LEVEL, [(1, 0), (3, 0)], wait_at=1, wait_while=lambda: True
    )  # as .narrows arms it
    unit.stack.push(key_points)
    unit.stack.push(Route(RouteKind.LOW_LEVEL, [(1, 0)]))  # its leg to the approach point
    unit.state = UnitState.RUN
    assert not unit.taking_turns and unit_look(unit) == "moving"
    unit.stack.pop()
    key_points.advance()  # at the approach point, held there
    unit.state = UnitState.WAITING
    assert unit.taking_turns and unit_look(unit) == "taking_turns" and "taking_turns" in LOOKS
    key_points.wait_while = None  # its turn came
    assert not unit.taking_turns and unit_look(unit) == "waiting"


def test_a_standing_unit_that_makes_way_looks_so_until_it_is_back():
    driver = make_driver()
    add(driver, 1, (-4, 0))
    add(driver, 2, (-2, 0))
    driver.order(1, world_centre((-2, 0)))
    looks = looks_over(driver, 3.0)
    mover, stander = (driver.unit_of(key) for key in (1, 2))
    assert looks[stander.id] == ["standing", "making_way", "standing"], looks
    assert looks[mover.id] == ["moving", "resolving", "moving", "standing"], looks  # it pushed and waits for the way


def test_a_unit_waiting_behind_a_slow_one_in_a_corridor_looks_waiting():
    driver = make_driver(FakeTileMap(["#########", ".........", "#########"]))
    add(driver, 1, (-3, -1), speed=1.0)
    add(driver, 2, (-4, -1), speed=4.0)
    driver.order(1, world_centre((4, -1)))
    driver.order(2, world_centre((3, -1)))
    looks = looks_over(driver, 1.5)
    assert "waiting" in looks[driver.unit_of(2).id], looks


def test_a_unit_whose_goal_is_walled_in_ends_blocked():
    driver = make_driver(FakeTileMap(["......", "....#.", "...#.#", "....#."]))
    add(driver, 1, (-4, -2))
    driver.order(1, world_centre((0, 0)))
    looks = looks_over(driver, 3.0)
    unit = driver.unit_of(1)
    assert unit.state is UnitState.UNREACHABLE and looks[unit.id][-1] == "stopped"


# -- units ------------------------------------------------------------------------------------------


def test_a_moving_unit_draws_its_plan_its_held_cells_and_its_next_cell():
    driver = make_driver()
    add(driver, 1, (-4, 0))
    add(driver, 2, (-4, -2))  # never ordered: it stands
    driver.order(1, world_centre((6, 0)))
    for _ in range(5):
        driver.step(1 / 60)
    mover, stander = driver.unit_of(1), driver.unit_of(2)
    assert mover.state is UnitState.MOVING and mover.next_cell is not None

    drawing = units_drawing(driver)

    plan = [pixels(point) for point in plan_ahead(mover)]
    assert len(plan) >= 3 and plan[0] == pixels(mover.position) and plan[-1] == pixels((10.5, 2.5))
    assert plan[1] == pixels((mover.next_cell[0] + 0.5, mover.next_cell[1] + 0.5))  # through the cell it moves into
    assert all(a != b for a, b in zip(plan, plan[1:]))  # no step of length 0 (a key point its leg ends at)
    assert_points(drawing.routes, [end for step in zip(plan, plan[1:]) for end in step])  # the stander has no plan
    assert mover.next_cell in mover.held and mover.cell not in mover.held  # it let go of the cell it leaves
    assert_points(drawing.held["moving"], squares(sorted(mover.held), 0.0))
    assert_points(drawing.held["standing"], square(stander.cell, 0.0))
    assert_points(drawing.next_cells["moving"], square(mover.next_cell, NEXT_INSET))
    assert not any(drawing.next_cells[look] for look in LOOKS if look != "moving")
    assert drawing.forming_slots == drawing.target_slots == []
    # Where the mover will be every quarter second over the next second, on its plan ahead; the stander stays.
    ahead = predicted_positions(mover)[1:]
    assert len(ahead) == 4 and all(0 < t <= 1.0 for t, _ in ahead)
    half = PREDICTED_SIDE / 2
    assert_points(
        drawing.predicted,
        rect_outlines([(x - half, y - half, PREDICTED_SIDE, PREDICTED_SIDE) for _, (x, y) in ahead], driver.frame),
    )
    assert all(math.dist(position, mover.position) <= mover.speed * t + 1e-9 for t, position in ahead)


def test_layers_give_each_colour_with_segments_one_draw_call_in_order():
    driver = make_driver()
    add(driver, 1, (-4, 0))
    add(driver, 2, (-4, -2))
    driver.order(1, world_centre((6, 0)))
    driver.step(1 / 60)
    drawing = units_drawing(driver)
    layers = drawing.layers()
    assert [(colour, width) for _segments, colour, width in layers] == [
        (ROUTE_COLOUR, 1.0), (PREDICTED_COLOUR, 1.0), (LOOK_COLOURS["moving"], 1.0), (LOOK_COLOURS["standing"], 1.0),
        (LOOK_COLOURS["moving"], 2.0)]  # fmt: skip
    assert [segments for segments, _colour, _width in layers] == [
        drawing.routes,
        drawing.predicted,
        drawing.held["moving"],
        drawing.held["standing"],
        drawing.next_cells["moving"],
    ]
    assert all(len(segments) % 2 == 0 for segments, _colour, _width in layers)


def test_no_units_draw_nothing():
    assert units_drawing(make_driver()).layers() == []
    empty = drawing_of(Navigator(Grid.from_ascii("...")), TileFrame((16, 16)))
    assert empty == UnitsDrawing([], [], {look: [] for look in LOOKS}, {look: [] for look in LOOKS}, [], [])


def test_cells_are_drawn_as_the_tilemap_places_them():
    """On an isometric TileMap, a cell's outline is the diamond the engine draws it as (rect_outlines)."""
    from pathing_py.godot.tile_geometry import TileGeometry

    grid = Grid.from_ascii("....\n....")
    navigator = Navigator(grid)
    navigator.add_unit((1.5, 0.5), speed=4.0)
    frame = TileFrame(TileGeometry(mode=1, cell_size=(32.0, 16.0)), origin=(3, -1))
    drawing = drawing_of(navigator, frame)
    assert drawing.held["standing"] == rect_outlines([(1, 0, 1, 1)], frame)
    top, right = drawing.held["standing"][:2]
    assert top != right and top[1] != right[1]  # not an upright square: the sides slant
    corners = np.array(drawing.held["standing"]).reshape(4, 2, 2)[:, 0]
    expected = frame.grid_to_pixels([(1, 0), (2, 0), (2, 1), (1, 1)])
    np.testing.assert_allclose(corners, expected)


# -- groups -----------------------------------------------------------------------------------------


def test_a_formation_shows_its_forming_slots_then_its_cells_at_the_target_then_nothing():
    driver, groups, _nodes = make_squad()
    assert groups.order(MANAGER, list(range(1, 7)), world_centre((8, 1)), settings(formation="box", spacing=2.0))
    [group] = groups.groups.groups.values()
    seen = {"forming": 0, "marching": 0, "standing": 0}
    for _ in range(60 * 20):
        driver.step(1 / 60)
        list(driver.signals())
        drawing = units_drawing(driver, groups)
        under_way = any(unit.state not in (UnitState.IDLE, UnitState.ARRIVED) for unit in group.members)
        if group.state is GroupState.FORMING:
            slots = [group.slot_cell(unit) for unit in group.members]
            assert_points(drawing.forming_slots, squares([slot for slot in slots if slot is not None], SLOT_INSET))
            assert drawing.target_slots == []
            seen["forming"] += 1
        elif under_way:
            assert drawing.forming_slots == []
            assert_points(drawing.target_slots, squares(group.goals.values(), SLOT_INSET))
            assert len(group.goals) == 6
            seen["marching"] += 1
        else:
            assert drawing.forming_slots == drawing.target_slots == []
            seen["standing"] += 1
            break
    assert all(seen.values()), seen
    layers = units_drawing(driver, groups).layers()
    assert FORMING_SLOT_COLOUR not in [colour for _s, colour, _w in layers]
    assert TARGET_SLOT_COLOUR not in [colour for _s, colour, _w in layers]


def test_a_group_under_way_draws_its_target_cells_in_their_colour():
    driver, groups, _nodes = make_squad()
    assert groups.order(MANAGER, list(range(1, 7)), world_centre((8, 1)), settings())
    driver.step(1 / 60)
    [group] = groups.groups.groups.values()
    layers = {colour: segments for segments, colour, _width in units_drawing(driver, groups).layers()}
    assert len(group.goals) == 6
    assert_points(layers[TARGET_SLOT_COLOUR], squares(group.goals.values(), SLOT_INSET))
