"""The ``.tscn`` snippet of docs/nodes.md (issue 43), pasted into a project as a scene and played in the real engine.

The snippet names a TileSet ``res://tiles.tres``, as a user's project would have one; here it is the demo's.
"""

import re
from pathlib import Path

from tools.engine_runs import run_game

ROOT = Path(__file__).resolve().parents[2]


def snippet() -> str:
    (text,) = re.findall(r"```ini\n(.*?)```", (ROOT / "docs" / "nodes.md").read_text(encoding="utf-8"), re.S)
    return text


def test_the_scene_snippet_loads_and_its_nodes_work(godot_python):
    godot_python.write("tiles.tres", (ROOT / "scenes" / "demo_tileset.tres").read_text(encoding="utf-8"))
    godot_python.write("snippet.tscn", snippet())
    run = run_game(godot_python, "snippet_game.gd", scene="res://snippet.tscn")
    lines = {key: line for line in run.lines for key in line}
    assert lines["navgrid"] == {
        "navgrid": "BUILT",
        "bounds": [0, 0, 40, 30],
        "wall_tile": "wall",
        "tank": [6.0, 1, 0.5, "OK"],
        "squad": ["line", 2.0, "route"],
    }, lines["navgrid"]
    assert lines["order"]["order"] == "OK" and lines["group_ordered"]["cell"] == [30, 20]
    assert lines["wall"] == {"wall": True, "tile": "wall"}
    assert lines["arrived"]["arrived"] == [30, 20] and lines["end"]["end"] == "ARRIVED", run.output[-3000:]
