"""A NavGrid over stacked TileMaps in real Godot (issue 40): a floor and the walls above it.

The scene is a small copy of Godot's isometric demo (``tests/support/fixtures/layers/dungeon.tscn``: a ``Floor``
TileMap and a ``Walls`` TileMap on the same isometric cells). The engine is the judge: which cells are open
is asked of its own TileMaps and TileSet, cell by cell, and paths are compared with an AStar2D the engine
builds over those cells. Layers that do not lie on the map's cells, or are no TileMap, are refused with a
configuration warning and, at run time, no grid and one error line.
"""

import random
from pathlib import Path
from typing import Dict, Iterable, List, Sequence, Set, Tuple

import pytest
from godot import Array, AStar2D, Node, NodePath, PoolVector2Array, TileMap, TileSet, Vector2

from pathing_py.godot.bridge import signed_int
from tests.engine.in_godot.conftest import physics_frames
from tests.engine.in_godot.test_navgrid import (
    EngineCells,
    add_unit,
    cell_of,
    cells_cost,
    check_walkable,
    errors,
    fixture_copy,  # noqa: F401 (a fixture)
    instance,
    new_navgrid,
    path_cells,
    strings,
)

DUNGEON = Path("layers") / "dungeon.tscn"
MISMATCHED = Path("layers") / "mismatched.tscn"

Cell = Tuple[int, int]


def paths(*texts: str) -> Array:
    """An Array of NodePaths, as the inspector sets ``layer_paths``."""
    return Array([NodePath(text) for text in texts])


class EngineStack:
    """Which cells are open on stacked TileMaps, asked of the engine's own tiles: blocked where any layer's tile
    blocks, open where some layer has a tile and none blocks, ``empty_passable`` where no layer has one."""

    def __init__(self, tilemaps: Sequence[TileMap], empty_passable: bool, blocking: Sequence[str] = ()):
        self.layers = [EngineCells(tilemap, blocking) for tilemap in tilemaps]
        self.empty_passable = empty_passable
        rects = [tilemap.get_used_rect() for tilemap in tilemaps]
        left, top = min(int(rect.position.x) for rect in rects), min(int(rect.position.y) for rect in rects)
        right, bottom = max(int(rect.end.x) for rect in rects), max(int(rect.end.y) for rect in rects)
        self.origin, self.size = (left, top), (right - left, bottom - top)

    def painted(self, layer: EngineCells, cell: Cell) -> bool:
        return signed_int(layer.tilemap.get_cell(*cell)) >= 0

    def walkable(self, cell: Cell) -> bool:
        if not all(0 <= cell[i] - self.origin[i] < self.size[i] for i in (0, 1)):
            return False
        painted = [layer for layer in self.layers if self.painted(layer, cell)]
        return not any(layer.blocks(cell) for layer in painted) if painted else self.empty_passable

    def cells(self, margin: int = 0) -> List[Cell]:
        (ox, oy), (width, height) = self.origin, self.size
        return [(ox + x, oy + y) for y in range(-margin, height + margin) for x in range(-margin, width + margin)]

    def astar(self) -> Tuple[AStar2D, Dict[Cell, int]]:
        """Eight neighbours, a diagonal only when both cells beside it are open (no corner cutting)."""
        astar = AStar2D()
        ids = {cell: index for index, cell in enumerate(cell for cell in self.cells() if self.walkable(cell))}
        for (x, y), index in ids.items():
            astar.add_point(index, Vector2(x, y))
        for (x, y), index in ids.items():
            for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
                if (x + dx, y + dy) in ids and (x + dx, y) in ids and (x, y + dy) in ids:
                    astar.connect_points(index, ids[x + dx, y + dy])
        return astar, ids


def check_cells(navgrid: Node, engine: EngineStack) -> None:
    """is_cell_blocked agrees with the engine's tiles on every cell of the map and one beyond."""
    wrong = [
        cell
        for cell in engine.cells(margin=1)
        if bool(navgrid.call("is_cell_blocked", Vector2(*cell))) == engine.walkable(cell)
    ]
    assert not wrong, f"{len(wrong)} cells differ, first {wrong[:5]}"


def dungeon(
    root: Node, fixture_copy: Path, main: str = "Floor", layers: Iterable[str] = ("../Walls",), **settings
) -> Tuple[Node, Node]:
    scene = instance(root, str(fixture_copy / DUNGEON))
    navgrid = new_navgrid(scene, f"../{main}", layer_paths=paths(*layers), **settings)
    navgrid.set_name("NavGrid")  # where add_unit's units look for it
    return scene, navgrid


@pytest.mark.parametrize("empty_passable", [False, True])
@pytest.mark.parametrize("main, layer", [("Floor", "Walls"), ("Walls", "Floor")])
def test_paths_between_floor_cells_agree_with_the_engines_astar(
    root, capsys, fixture_copy, main, layer, empty_passable
):
    scene, navgrid = dungeon(
        root, fixture_copy, main, [f"../{layer}"], empty_cells_passable=empty_passable, smooth_paths=False
    )
    floor: TileMap = scene.get_node("Floor")
    engine = EngineStack([scene.get_node(main), scene.get_node(layer)], empty_passable)
    check_cells(navgrid, engine)
    astar, ids = engine.astar()
    floor_cells = sorted(cell for cell in ids if signed_int(floor.get_cell(*cell)) >= 0)
    assert len(floor_cells) > 50
    rng = random.Random(40)
    found = 0
    for _ in range(60):
        start, goal = rng.choice(floor_cells), rng.choice(floor_cells)
        path = navgrid.call(
            "find_path", navgrid.call("cell_to_world", Vector2(*start)), navgrid.call("cell_to_world", Vector2(*goal))
        )
        expected = astar.get_point_path(ids[start], ids[goal])
        if len(expected) == 0:
            assert len(path) == 0 and str(navgrid.call("get_last_status")) == "UNREACHABLE", (start, goal)
            continue
        found += 1
        assert str(navgrid.call("get_last_status")) == "FOUND", (start, goal)
        check_walkable(list(path), floor, engine, start, goal, smooth=False)
        engine_cost = cells_cost([cell_of(expected[index]) for index in range(len(expected))])
        assert abs(cells_cost(path_cells(path, floor)) - engine_cost) < 1e-4, (start, goal)
    assert found >= 40  # the inner room is closed off: pairs across its walls have no path
    assert str(navgrid.call("_get_configuration_warning")) == "" and errors(capsys) == []


def test_smoothed_paths_cross_only_open_cells(root, capsys, fixture_copy):
    scene, navgrid = dungeon(root, fixture_copy, empty_cells_passable=False)
    floor: TileMap = scene.get_node("Floor")
    engine = EngineStack([floor, scene.get_node("Walls")], False)
    cells = [cell for cell in engine.cells() if engine.walkable(cell)]
    rng = random.Random(41)
    for _ in range(40):
        start, goal = rng.choice(cells), rng.choice(cells)
        path = navgrid.call(
            "find_path", navgrid.call("cell_to_world", Vector2(*start)), navgrid.call("cell_to_world", Vector2(*goal))
        )
        if len(path):
            check_walkable(list(path), floor, engine, start, goal, smooth=True)
    assert errors(capsys) == []


# -- edits ------------------------------------------------------------------------------------------


def test_edits_painted_on_any_layer_are_read_by_rebuild(root, capsys, fixture_copy):
    scene, navgrid = dungeon(root, fixture_copy, empty_cells_passable=False)
    floor: TileMap = scene.get_node("Floor")
    walls: TileMap = scene.get_node("Walls")
    tileset: TileSet = walls.get_tileset()
    wall, base = (signed_int(tileset.find_tile_by_name(name)) for name in ("Wall", "Base"))
    engine = EngineStack([floor, walls], False)
    check_cells(navgrid, engine)
    inner = (0, 0)
    assert not navgrid.call("is_cell_blocked", Vector2(*inner))
    walls.set_cell(*inner, wall)  # a wall goes up on the walls' layer
    door = (5, 4)  # the inner room's door: a wall comes down
    assert navgrid.call("is_cell_blocked", Vector2(*door))
    walls.set_cell(*door, TileMap.INVALID_CELL)
    assert navgrid.call("rebuild")
    assert navgrid.call("is_cell_blocked", Vector2(*inner)) and not navgrid.call("is_cell_blocked", Vector2(*door))
    check_cells(navgrid, engine)
    floor.set_cell(12, 3, base)  # floor painted beyond every layer's rectangle: a larger map
    assert navgrid.call("rebuild")
    engine = EngineStack([floor, walls], False)
    assert engine.size[0] == 16
    check_cells(navgrid, engine)
    assert errors(capsys) == []


def test_cells_painted_on_any_layer_are_read_again_and_units_turn(root, capsys, fixture_copy):
    """The cells a game paints on either TileMap of the stack, named to cells_painted (issue 43): read as the engine
    holds them."""
    scene, navgrid = dungeon(root, fixture_copy, empty_cells_passable=False, smooth_paths=False)
    floor: TileMap = scene.get_node("Floor")
    walls: TileMap = scene.get_node("Walls")
    tileset: TileSet = walls.get_tileset()
    wall = signed_int(tileset.find_tile_by_name("Wall"))
    start, goal = (-2, -1), (8, 4)
    unit = add_unit(scene, floor, navgrid, start)
    assert unit.call("move_to", floor.to_global(navgrid.call("cell_to_world", Vector2(*goal))))
    physics_frames(navgrid, 30)
    here = cell_of(floor.world_to_map(floor.to_local(unit.get_global_position())))
    ahead = path_cells(
        navgrid.call(
            "find_path", navgrid.call("cell_to_world", Vector2(*here)), navgrid.call("cell_to_world", Vector2(*goal))
        ),
        floor,
    )
    painted = ahead[3:6]
    for x, y in painted:  # walls go up on the walls' layer, on the unit's way
        walls.set_cell(x, y, wall)
    door = (5, 4)  # the inner room's door comes down, and a floor cell is taken away under an open cell
    walls.set_cell(*door, TileMap.INVALID_CELL)
    hole = next(
        cell
        for cell in EngineStack([floor, walls], False).cells()
        if cell not in painted
        and cell != door
        and signed_int(walls.get_cell(*cell)) < 0
        and signed_int(floor.get_cell(*cell)) >= 0
    )
    floor.set_cell(*hole, TileMap.INVALID_CELL)
    assert navgrid.call("cells_painted", PoolVector2Array([Vector2(*cell) for cell in [*painted, door, hole]]))
    check_cells(navgrid, EngineStack([floor, walls], False))
    visited = walk(navgrid, unit, floor)
    assert str(unit.call("get_state")) == "ARRIVED" and not visited & set(painted)
    assert errors(capsys) == []


def walk(navgrid: Node, unit: Node, floor: TileMap, frames: int = 3000) -> Set[Cell]:
    """Physics frames until the unit stops; the cells it stood in."""
    visited = set()
    for _ in range(frames):
        physics_frames(navgrid, 1)
        visited.add(cell_of(floor.world_to_map(floor.to_local(unit.get_global_position()))))
        if str(unit.call("get_state")) in ("ARRIVED", "UNREACHABLE", "HELD_UP"):
            break
    return visited


@pytest.mark.parametrize(
    "main, layer, wall_tile, floor_tile", [("Floor", "Walls", "Wall", "Base"), ("Walls", "Floor", "Wall", "")]
)
def test_set_cell_blocked_edits_the_stack_and_units_reroute(
    root, capsys, fixture_copy, main, layer, wall_tile, floor_tile
):
    """Walls put up through the NavGrid turn a unit on its way; a wall of either layer taken down opens the way."""
    scene, navgrid = dungeon(
        root,
        fixture_copy,
        main,
        [f"../{layer}"],
        empty_cells_passable=False,
        wall_tile=wall_tile,
        floor_tile=floor_tile,
        smooth_paths=False,
    )
    floor: TileMap = scene.get_node("Floor")
    walls: TileMap = scene.get_node("Walls")
    stack = [scene.get_node(main), scene.get_node(layer)]
    start, goal = (-2, -1), (8, 4)
    unit = add_unit(scene, floor, navgrid, start)
    assert unit.call("move_to", floor.to_global(navgrid.call("cell_to_world", Vector2(*goal))))
    physics_frames(navgrid, 30)
    here = cell_of(floor.world_to_map(floor.to_local(unit.get_global_position())))
    ahead = path_cells(
        navgrid.call(
            "find_path", navgrid.call("cell_to_world", Vector2(*here)), navgrid.call("cell_to_world", Vector2(*goal))
        ),
        floor,
    )
    blocked = {cell for cell in ahead[3:6] if navgrid.call("set_cell_blocked", Vector2(*cell), True)}
    assert blocked == set(ahead[3:6])
    check_cells(navgrid, EngineStack(stack, False))
    visited = walk(navgrid, unit, floor)
    assert str(unit.call("get_state")) == "ARRIVED" and not visited & blocked
    # The door of the inner room (a wall of the walls' layer) comes down: a unit goes in.
    door, inside = (5, 4), (3, 4)
    assert navgrid.call("is_cell_blocked", Vector2(*door)) and signed_int(walls.get_cell(*door)) >= 0
    assert navgrid.call("set_cell_blocked", Vector2(*door), False)
    assert signed_int(walls.get_cell(*door)) == -1  # the wall is gone: cleared as a layer, or painted over with no tile
    assert (
        signed_int(floor.get_cell(*door)) >= 0
    )  # the floor below stays (painted with floor_tile when it is the main map)
    check_cells(navgrid, EngineStack(stack, False))
    assert unit.call("move_to", floor.to_global(navgrid.call("cell_to_world", Vector2(*inside))))
    visited = walk(navgrid, unit, floor)
    assert str(unit.call("get_state")) == "ARRIVED" and door in visited
    assert errors(capsys) == []


# -- bad input: a configuration warning, and at run time no grid and one error line ----------------


@pytest.mark.parametrize(
    "layers, expected",
    [
        (
            ["../Square"],
            "layer_paths[0]: layer '../Square' is square, cell_size (128, 64), but the TileMap '../Floor' is isometric",
        ),
        (
            ["../Coarse"],
            "layer_paths[0]: layer '../Coarse' is isometric, cell_size (128, 128), "
            "but the TileMap '../Floor' is isometric, cell_size (128, 64)",
        ),
        (
            ["../Shifted"],
            "layer_paths[0]: layer '../Shifted' lies at (64, 0) with axes (1, 0) and (0, 1), "
            "but the TileMap '../Floor' at (0, 0)",
        ),
        (["../Turned/Walls"], "layer_paths[0]: layer '../Turned/Walls' lies at (0, 0) with axes (0.877583, 0.479426)"),
        (["../Marker"], "layer_paths[0] '../Marker' points at a Sprite, not a TileMap."),
        (["../Nothing"], "layer_paths[0] '../Nothing' does not point at a node."),
        ([""], "layer_paths[0] is empty"),
        (["../Floor"], "layer_paths[0] '../Floor' is the TileMap of tilemap_path itself"),
    ],
)
def test_layers_off_the_maps_cells_are_refused(root, capsys, fixture_copy, layers, expected):
    scene = instance(root, str(fixture_copy / MISMATCHED))
    navgrid = new_navgrid(scene, "../Floor", layer_paths=paths(*layers))
    warning = str(navgrid.call("_get_configuration_warning"))
    assert expected in warning, warning
    assert len(navgrid.call("find_path", Vector2(0, 32), Vector2(128, 32))) == 0
    assert str(navgrid.call("get_last_status")) == "NO_GRID"
    assert not navgrid.call("rebuild")
    reported = errors(capsys)
    assert len(reported) == 1 and expected in reported[0], reported
    navgrid.set("layer_paths", paths())  # the layers taken away: the map is read
    assert navgrid.call("rebuild") and len(navgrid.call("find_path", Vector2(0, 32), Vector2(128, 32))) > 0
    assert str(navgrid.call("_get_configuration_warning")) == "" and errors(capsys) == []


def test_blocking_tiles_may_name_a_tile_of_any_layer(root, capsys, fixture_copy):
    scene, navgrid = dungeon(root, fixture_copy, empty_cells_passable=False, blocking_tiles=strings(["Base2"]))
    assert str(navgrid.call("_get_configuration_warning")) == ""
    engine = EngineStack([scene.get_node("Floor"), scene.get_node("Walls")], False, ["Base2"])
    check_cells(navgrid, engine)
    navgrid.set("blocking_tiles", strings(["Wal"]))
    assert "blocking_tiles names 'Wal', which the TileSet lacks" in str(navgrid.call("_get_configuration_warning"))
    assert errors(capsys) == []
