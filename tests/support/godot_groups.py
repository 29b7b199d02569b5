"""What other tests take from tests/godot/test_groups.py: its helpers, moved here."""

from typing import Optional, Sequence

from pathing_py.godot.groups import GroupDriver
from tests.support.godot_units import FakeTileMap, add, make_driver

#: Open ground with a wall in the way: TileMap cells (-4, -2) to (11, 4), the wall at x = 2.
FIELD = [
    "................",
    "................",
    "......#.........",
    "......#.........",
    "......#.........",
    "................",
    "................",
]
#: Where the six units of a squad stand, and where they are sent (past the wall).
SQUAD = [(-4, -2), (-3, -2), (-4, -1), (-3, -1), (-4, 0), (-3, 0)]
MANAGER = 1000


def settings(cohesion: str = "route", formation: str = "none", spacing: float = 1.0):
    """A manager's exports, read by name."""
    return {"cohesion": cohesion, "formation": formation, "spacing": spacing}.get


def make_squad(keys: Sequence[int] = tuple(range(1, 7)), cells=SQUAD, tilemap: Optional[FakeTileMap] = None):
    driver = make_driver(tilemap or FakeTileMap(FIELD))
    nodes = {key: add(driver, key, cell)[0] for key, cell in zip(keys, cells)}
    return driver, GroupDriver(driver), nodes
