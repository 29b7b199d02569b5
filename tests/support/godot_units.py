"""What other tests take from tests/godot/test_units.py: its helpers, moved here."""

import math
from typing import Dict, List, Tuple

from pathing_py.godot.bridge import TileInfo, TileMapNavigator
from pathing_py.godot.units import EMPTY_TILE, Affine, TilePainter, UnitDriver, UnitSignal

TILES = [
    TileInfo(0, "ground"),
    TileInfo(1, "wall", 0, [(0, 0)]),
    TileInfo(2, "forest"),
    TileInfo(3, "water", 2, [(0, 0)]),
]
SYMBOLS = {".": 0, "#": 1, "T": 2}
#: TileMap cell of the map's top-left character: TileMaps use negative cells.
ORIGIN = (-4, -2)
CELL_SIZE = (16.0, 16.0)
MAP = [
    "...........",
    "...........",
    ".....#.....",
    ".....#.....",
    "...........",
]


def points(affine: Affine) -> Tuple[Tuple[float, float], ...]:
    """An affine map as the engine side hands it over: the images of (0, 0), (1, 0) and (0, 1)."""
    return tuple(affine.apply(p) for p in ((0, 0), (1, 0), (0, 1)))


def rotation(degrees: float, origin=(0.0, 0.0), scale: float = 1.0) -> Affine:
    c, s = scale * math.cos(math.radians(degrees)), scale * math.sin(math.radians(degrees))
    return Affine((c, s), (-s, c), origin)


#: Where the fake TileMap lies on the canvas: moved, turned a quarter and scaled twice.
TILEMAP_TO_WORLD = rotation(90, origin=(500.0, 40.0), scale=2.0)


class FakeTileMap:
    """The cells of a TileMap: what NavGrid reads (``tile_data``) and writes (``set_cell``)."""

    def __init__(self, rows: List[str], origin=ORIGIN):
        self.cells: Dict[Tuple[int, int], int] = {
            (x + origin[0], y + origin[1]): SYMBOLS[char]
            for y, row in enumerate(rows)
            for x, char in enumerate(row)
            if char in SYMBOLS
        }

    def set_cell(self, x: int, y: int, tile: int) -> None:
        if tile == EMPTY_TILE:
            self.cells.pop((x, y), None)
        else:
            self.cells[x, y] = tile

    def tile_data(self) -> List[int]:
        words = []
        for (x, y), tile in sorted(self.cells.items()):
            words += [((y & 0xFFFF) << 16) | (x & 0xFFFF), tile, 0]
        return words

    def navigator(self, **kwargs) -> TileMapNavigator:
        return TileMapNavigator.from_tilemap(self.tile_data(), CELL_SIZE, TILES, **kwargs)


class Node:
    """A stand-in for a PathUnit node: the driver only hands it back."""

    def __init__(self, name: str, parent_to_world: Affine = Affine()):
        self.name = name
        self.parent_to_world = parent_to_world

    def __repr__(self) -> str:
        return self.name


def make_driver(tilemap: FakeTileMap = None, **kwargs) -> UnitDriver:
    tilemap = tilemap or FakeTileMap(MAP)
    painter = TilePainter.choose(TILES, "wall", blocking=["forest"])
    return UnitDriver(tilemap.navigator(blocking=["forest"]), points(TILEMAP_TO_WORLD), painter=painter, **kwargs)


def world_centre(cell) -> Tuple[float, float]:
    """The world position of a TileMap cell's centre, computed independently of the driver."""
    return TILEMAP_TO_WORLD.apply(((cell[0] + 0.5) * CELL_SIZE[0], (cell[1] + 0.5) * CELL_SIZE[1]))


def add(driver: UnitDriver, key: int, cell, parent_to_world: Affine = Affine(), **kwargs):
    """Add a unit standing at the centre of a TileMap cell, under a parent placed by ``parent_to_world``."""
    node = Node(f"unit{key}", parent_to_world)
    local = parent_to_world.inverse().apply(world_centre(cell))
    transform = Affine(origin=local)
    answer = driver.add(key, node, points(parent_to_world * transform), points(transform), **{"speed": 4.0, **kwargs})
    return node, answer


def run(driver: UnitDriver, seconds: float, delta: float = 1 / 60) -> Tuple[list, List[UnitSignal]]:
    """Frames as NavGrid._physics_process runs them: the moves and the signals, in order."""
    moves, signals = [], []
    for _ in range(round(seconds / delta)):
        moves += driver.step(delta)
        signals += driver.signals()
    return moves, signals


def world_of(move) -> Tuple[float, float]:
    node, x, y = move
    return node.parent_to_world.apply((x, y))


def tile_cell_of(world) -> Tuple[int, int]:
    x, y = TILEMAP_TO_WORLD.inverse().apply(world)
    return math.floor(x / CELL_SIZE[0]), math.floor(y / CELL_SIZE[1])


#: A dead end one cell wide: TileMap cells (-4, -1) to (3, -1).
DEAD_END = ["#########", "........#", "#########"]
