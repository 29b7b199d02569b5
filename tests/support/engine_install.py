"""What other tests take from tests/engine/test_install.py: its helpers, moved here."""

import re
from pathlib import Path
from typing import Dict, Tuple

ROOT = Path(__file__).resolve().parents[2]
#: The map of the test scene: ``.`` ground, ``#`` wall (a tile with a collision shape), ``f`` forest (named in
#: blocking_tiles). The pocket at ``POCKET`` is walled in on all sides.
LAYOUT = (
    "......f.....",
    "..###.f.###.",
    "..#...f.#.#.",
    "..#.....###.",
    "..####......",
)
TILES = {".": "ground", "#": "wall", "f": "forest"}
START, GOAL, POCKET = (0, 0), (11, 4), (9, 2)
CELL = 16  # pixels, the demo TileSet's tile size


def tile_ids() -> Dict[str, int]:
    """Tile name -> id in the demo TileSet."""
    text = (ROOT / "scenes" / "demo_tileset.tres").read_text(encoding="utf-8")
    return {name: int(number) for number, name in re.findall(r'^(\d+)/name = "(\w+)"', text, re.M)}


def tile_data() -> str:
    """``LAYOUT`` as a TileMap's ``tile_data`` (format 1: packed cell, tile id, autotile coordinate)."""
    ids = tile_ids()
    words = [
        f"{(y << 16) | x}, {ids[TILES[symbol]]}, 0" for y, row in enumerate(LAYOUT) for x, symbol in enumerate(row)
    ]
    return ", ".join(words)


def centre(cell: Tuple[int, int]) -> Tuple[float, float]:
    """A cell's centre, TileMap-local."""
    return (cell[0] + 0.5) * CELL, (cell[1] + 0.5) * CELL
