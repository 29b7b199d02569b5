"""Cells a game paints on its TileMaps at run time, named to the NavGrid (issue 43): read again cell by cell.

``TileMapNavigator.repaint`` must leave the grid, the stacked layers and the
graph as a full read of the painted TileMaps would (``follow``), and units
must turn as for ``set_cell_blocked``; bad cells are refused whole, naming
the map's cells.
"""

import math
from typing import Dict, List, Tuple

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pathing_py import KeyPointGraph
from pathing_py.godot.bridge import CoordinateError, TileInfo, TileMapNavigator
from pathing_py.godot.painted_cells import TileRules, tile_words, whole_cells
from pathing_py.godot.tile_data import CellRect
from pathing_py.godot.tile_layers import IDENTITY
from pathing_py.godot.units import UnitDriver

Cell = Tuple[int, int]
#: 0 ground, 1 wall (a collision shape), 2 forest (blocks by name), 3 an autotile whose sub-tile (1, 0) blocks.
TILES = [
    TileInfo(0, "ground"),
    TileInfo(1, "wall", shape_coords=[(0, 0)]),
    TileInfo(2, "forest"),
    TileInfo(3, "cliff", mode=1, shape_coords=[(1, 0)]),
]
#: What a cell may hold on a layer: no tile, or a tile id and its autotile coordinate.
CONTENTS = [None, (0, (0, 0)), (1, (0, 0)), (2, (0, 0)), (3, (0, 0)), (3, (1, 0))]
RECT = CellRect(-2, -1, 7, 5)
#: A ground cell of the first layer that no test paints: every map keeps a passable cell.
CORNER = (RECT.x, RECT.y)


def words(cells: Dict[Cell, Tuple[int, Cell]]) -> List[int]:
    """tile_data of a layer's cells (format 1)."""
    return [
        value
        for (x, y), (tile, (ax, ay)) in sorted(cells.items())
        for value in (((y & 0xFFFF) << 16) | (x & 0xFFFF), tile, ((ay & 0xFFFF) << 16) | (ax & 0xFFFF))
    ]


def read_of(cells: Dict[Cell, Tuple[int, Cell]], wanted: List[Cell]) -> List[int]:
    """What the node reads of ``wanted`` on a layer: get_cell and get_cell_autotile_coord of each, as tile_words
    packs them."""
    tiles = [cells[cell][0] if cell in cells else -1 for cell in wanted]
    coords = [cells[cell][1] if cell in cells else (0, 0) for cell in wanted]
    return tile_words(wanted, tiles, coords)


def navigator_of(layers: List[Dict[Cell, Tuple[int, Cell]]], empty_passable: bool) -> TileMapNavigator:
    (main, *stacked) = [words(cells) for cells in layers]
    return TileMapNavigator.from_tilemap(
        main,
        (16, 16),
        TILES,
        blocking=["forest"],
        empty_passable=empty_passable,
        bounds=RECT,
        layers=[(data, TILES) for data in stacked],
    )


cells_in_rect = st.tuples(
    st.integers(RECT.x, RECT.x + RECT.width - 1), st.integers(RECT.y, RECT.y + RECT.height - 1)
).filter(lambda cell: cell != CORNER)
layer = st.dictionaries(cells_in_rect, st.sampled_from(CONTENTS[1:]), max_size=30)


@settings(max_examples=120, deadline=None)
@given(st.lists(layer, min_size=1, max_size=3), st.booleans(), st.data())
def test_repainting_cells_leaves_what_a_full_read_of_the_painted_tilemaps_gives(layers, empty_passable, data):
    layers[0][CORNER] = (0, (0, 0))
    current = navigator_of(layers, empty_passable)
    current.graph = KeyPointGraph.bake(current.grid, cluster_size=4)
    painted = data.draw(st.lists(cells_in_rect, min_size=1, max_size=12))
    for cells in layers:  # the game paints: a tile, another tile, or none, on any layer
        for cell in painted:
            content = data.draw(st.sampled_from(CONTENTS))
            if content is None:
                cells.pop(cell, None)
            else:
                cells[cell] = content
    assert current.repaint(painted, [read_of(cells, painted) for cells in layers]) == []
    fresh = navigator_of(layers, empty_passable)
    assert np.array_equal(current.grid.passable, fresh.grid.passable)
    for ours, theirs in (
        (current.stacked.painted, fresh.stacked.painted),
        (current.stacked.walls, fresh.stacked.walls),
    ):
        assert all(np.array_equal(a, b) for a, b in zip(ours, theirs))
    assert current.graph == KeyPointGraph.bake(fresh.grid, cluster_size=4)  # patched as a bake of the new map


def test_units_turn_at_cells_painted_on_their_way_and_cells_they_hold_stay_open():
    floor = {
        (x, y): (0, (0, 0)) for x in range(RECT.x, RECT.x + RECT.width) for y in range(RECT.y, RECT.y + RECT.height)
    }
    walls: Dict[Cell, Tuple[int, Cell]] = {}
    navigator = navigator_of([floor, walls], empty_passable=False)
    driver = UnitDriver(navigator, IDENTITY)
    at = ((8.0 - 32, 8.0), (9.0 - 32, 8.0), (8.0 - 32, 9.0))  # TileMap cell (-2, 0)
    assert driver.add(1, "unit", at, at, speed=4.0)
    assert driver.order(1, (4 * 16 + 8.0, 8.0))  # cell (4, 0), straight east
    driver.step(1 / 30)
    wall = [(1, y) for y in range(RECT.y, RECT.y + RECT.height - 1)] + [
        (-2, 0)
    ]  # a wall with a gap at (1, 3), and the unit's cell
    for cell in wall:
        walls[cell] = (1, (0, 0))
    refused = navigator.repaint(wall, [read_of(floor, wall), read_of(walls, wall)], driver.navigator.set_blocked)
    assert refused == [(-2, 0)]  # the unit holds its cell: open until named again
    assert all(navigator.is_blocked(cell) for cell in wall[:-1]) and not navigator.is_blocked((-2, 0))
    walked = []
    for _ in range(600):
        walked += [(int(x // 16), int(y // 16)) for _node, x, y in driver.step(1 / 30)]
        if driver.state_of(1) == "ARRIVED":
            break
    assert driver.state_of(1) == "ARRIVED" and (1, 3) in walked and not set(walked) & set(wall[:-1])
    assert (
        navigator.repaint(
            [(-2, 0)], [read_of(floor, [(-2, 0)]), read_of(walls, [(-2, 0)])], driver.navigator.set_blocked
        )
        == []
    )
    assert navigator.is_blocked((-2, 0))


@pytest.mark.parametrize(
    "cells, message",
    [
        ([(0, 0), (1.5, 0)], "cells_painted: cells[1] must be a TileMap cell, two whole numbers, got (1.5, 0)"),
        ([(math.nan, 0)], "cells[0] must be a TileMap cell, two whole numbers, got (nan, 0)"),
        ([(0, 0, 0)], "cells[0] must be a TileMap cell"),
        ([(True, 0)], "cells[0] must be a TileMap cell"),
        ([3], "cells[0] must be a TileMap cell, two whole numbers, got 3"),
        ([(10**400, 0)], "cells[0] must be a TileMap cell, two whole numbers, got (1000"),
        (7, "cells must be a list of TileMap cells (a PoolVector2Array), got 7"),
    ],
)
def test_cells_that_are_not_whole_cells_are_refused(cells, message):
    navigator = navigator_of([{(0, 0): (0, (0, 0))}], empty_passable=True)
    with pytest.raises(CoordinateError) as refused:
        navigator.cells_to_repaint(cells)
    assert message in str(refused.value)


@pytest.mark.parametrize(
    "bounds, message",
    [
        (
            RECT,
            "cells_painted: TileMap cell (5, 0) is outside the map, TileMap cells (-2, -1) to (4, 3) "
            "(the NavGrid's bounds); painting beyond the map needs rebuild()",
        ),
        (
            None,
            "cells_painted: TileMap cell (5, 0) is outside the map, TileMap cells (0, 0) to (1, 0) "
            "(the TileMap's painted rectangle; set the NavGrid's bounds to navigate beyond it); "
            "painting beyond the map needs rebuild()",
        ),
    ],
)
def test_cells_outside_the_map_are_refused_naming_its_cells(bounds, message):
    navigator = TileMapNavigator.from_tilemap(
        words({(0, 0): (0, (0, 0)), (1, 0): (0, (0, 0))}), (16, 16), TILES, bounds=bounds
    )
    with pytest.raises(ValueError) as refused:
        navigator.cells_to_repaint([(0, 0), (5.0, 0.0)])
    assert not isinstance(refused.value, CoordinateError) and str(refused.value) == message


def test_whole_cells_come_back_as_ints():
    assert whole_cells([(1.0, -2.0), np.array([3, 4])], "doing") == [(1, -2), (3, 4)]


def test_a_read_needs_every_layer():
    rules = TileRules(collision=({0: False},), listed=(frozenset(),))
    with pytest.raises(ValueError, match="reads 1 TileMaps, got the cells of 2"):
        rules.read([(0, 0)], [[], []])


def test_a_navigator_not_read_from_a_tilemap_cannot_repaint():
    from pathing_py import Grid
    from pathing_py.godot.bridge import TileFrame

    navigator = TileMapNavigator(Grid(np.ones((2, 2), dtype=bool)), TileFrame((16, 16)))
    with pytest.raises(ValueError, match="no rules to read painted cells by"):
        navigator.repaint([(0, 0)], [[]])
