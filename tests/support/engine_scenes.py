"""What other tests take from tests/engine/test_scenes.py: its helpers, moved here."""

from collections import defaultdict
from pathlib import Path
from typing import Dict, List, Tuple

from pathing_py.godot.scene_files import grid_from_tscn
from pathing_py.godot.text import parse_file
from pathing_py.islands import label_islands
from tools.engine_runs import GameRun

ROOT = Path(__file__).resolve().parents[2]
Cell = Tuple[int, int]


class Play:
    """What play_scene.gd printed, by unit (node paths relative to the scene's root)."""

    def __init__(self, run: GameRun):
        self.starts = {line["start"]: line for line in run.lines if "start" in line}
        self.ends = {line["end"]: line for line in run.lines if "end" in line}
        self.signals: Dict[str, List[dict]] = defaultdict(list)
        for line in run.lines:
            if "signal" in line:
                self.signals[line["unit"]].append(line)
        self.tiles = {tuple(line["tile"]): (line["before"], line["after"]) for line in run.lines if "tile" in line}
        self.frames = run.lines[-1]["done"]


def cell(pair) -> Cell:
    return int(pair[0]), int(pair[1])


def units_demo_intent(play: Play) -> None:
    """scenes/units_demo.tscn: every wall goes up; each unit reaches its target unless the walls cut it off."""
    sections = parse_file(ROOT / "scenes" / "units_demo.tscn").sections
    root = next(section for section in sections if section.tag == "node" and "parent" not in section.attributes)
    targets = [cell(pair) for pair in root.properties["targets"].reshape(-1, 2)]
    walls = {cell(pair) for pair in root.properties["wall_cells"].reshape(-1, 2)}
    units = [
        f"Units/{s.attributes['name']}" for s in sections if s.tag == "node" and s.attributes.get("parent") == "Units"
    ]
    assert sorted(units) == sorted(play.ends) and len(units) == len(targets)
    assert set(play.tiles) == walls and {after for _, after in play.tiles.values()} == {"wall"}, play.tiles

    grid = grid_from_tscn(ROOT / "scenes" / "demo.tscn", blocking=["forest"])  # the map the demo instances
    passable = grid.passable.copy()
    ox, oy = grid.origin
    for x, y in walls:
        passable[y - oy, x - ox] = False
    islands, _ = label_islands(passable)

    def island(tilemap_cell: Cell) -> int:
        return int(islands[tilemap_cell[1] - oy, tilemap_cell[0] - ox])

    for unit, target in zip(units, targets):
        end, start = play.ends[unit], cell(play.starts[unit]["cell"])
        if island(start) == island(target):
            assert end["state"] == "ARRIVED" and cell(end["cell"]) == target, (unit, target, end, play.signals[unit])
        else:
            assert end["state"] == "UNREACHABLE" and island(cell(end["cell"])) != island(target), (unit, end)
