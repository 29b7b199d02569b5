"""The README's "Use it in a Godot 3 project", step by step, on a new empty Godot project (not a copy of ours).

The test takes what it runs from the README itself: the shell commands of
the numpy step, run as printed from the project root, and the GDScript
snippet, pasted into a scene script. The other steps are what the editor or
the Asset Library would do, done by hand (tests/support/fresh_projects.py): copy
pythonscript, copy our two folders from the checkout, open the editor twice,
enable the plugin; then run a scene with a TileMap, a NavGrid and the snippet.
tests/engine/test_release.py takes the same steps with the release zip.
"""

import re
import shutil
import subprocess
from pathlib import Path
from typing import Tuple

import pytest

from pathing_py.grid import Grid
from pathing_py.line import line_of_sight
from pathing_py.search import find_path
from tests.support.engine_install import CELL, GOAL, LAYOUT, POCKET, ROOT, START, centre, tile_data
from tests.support.fresh_projects import INSTALL_SECTION, fresh_project, readme_commands
from tools.engine_runs import json_lines
from tools.godot_python import IGNORED, GodotPython

#: Where the TileMap sits in the scene (pixels): TileMap-local and global positions differ, as in most games.
TILEMAP_AT = (96, 48)

SCENE = """[gd_scene load_steps=4 format=2]

[ext_resource path="res://tiles.tres" type="TileSet" id=1]
[ext_resource path="res://addons/pathing_py/nav_grid.py" type="Script" id=2]
[ext_resource path="res://main.gd" type="Script" id=3]

[node name="Main" type="Node2D"]
script = ExtResource( 3 )

[node name="TileMap" type="TileMap" parent="."]
position = Vector2( {tilemap_x}, {tilemap_y} )
tile_set = ExtResource( 1 )
cell_size = Vector2( {cell}, {cell} )
format = 1
tile_data = PoolIntArray( {tile_data} )

[node name="NavGrid" type="Node2D" parent="."]
script = ExtResource( 2 )
tilemap_path = NodePath("../TileMap")
blocking_tiles = PoolStringArray( "forest" )

[node name="Unit" type="Node2D" parent="."]
position = Vector2( {unit_x}, {unit_y} )
"""

SCRIPT = """extends Node2D
# Asks the NavGrid for a path to each goal cell (its centre, global) with the README's snippet, prints the answer
# as JSON, quits.


func _ready():
    var unit = $Unit
    for cell in [{goals}]:
        ask(unit, $TileMap.to_global($TileMap.map_to_world(cell) + $TileMap.cell_size / 2))
    get_tree().quit()


func ask(unit, target):
{snippet}
    var pairs = []
    for point in points:
        pairs.append([point.x, point.y])
    print(to_json({{"target": [target.x, target.y], "points": pairs, "status": $NavGrid.get_last_status()}}))
"""


def readme_snippet() -> str:
    (snippet,) = re.findall(r"```gdscript\n(.*?)\n\s*```", INSTALL_SECTION, re.S)
    lines = snippet.splitlines()
    margin = min(len(line) - len(line.lstrip()) for line in lines if line.strip())
    return "\n".join("    " + line[margin:] for line in lines)


def global_centre(cell: Tuple[int, int]) -> Tuple[float, float]:
    x, y = centre(cell)
    return x + TILEMAP_AT[0], y + TILEMAP_AT[1]


@pytest.fixture(scope="module")
def installed(godot, pythonscript_dist, tmp_path_factory) -> GodotPython:
    """A new project taken through README steps 1-5, our two folders copied from the checkout."""

    def copy_our_folders(project: Path) -> None:
        for folder in ("addons/pathing_py", "pathing_py"):
            shutil.copytree(ROOT / folder, project / folder, ignore=IGNORED)

    return fresh_project(godot, pythonscript_dist, tmp_path_factory.mktemp("fresh"), copy_our_folders)


def test_the_numpy_step_leaves_numpy_1_24_in_pythonscript(installed):
    python = installed.project / readme_commands()[-1].split()[0]
    done = subprocess.run(
        [str(python), "-c", "import numpy; print(numpy.__version__)"], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip().startswith("1.24."), done.stdout


def test_the_readme_snippet_finds_a_path_in_a_scene_of_the_new_project(installed):
    """Steps 6-7: a TileMap, a NavGrid next to it, and the snippet in a script: a path, and a status for none."""
    x, y = global_centre(START)  # the unit is a child of the scene's root, as the TileMap is
    installed.write("tiles.tres", (ROOT / "scenes" / "demo_tileset.tres").read_text(encoding="utf-8"))
    installed.write(
        "main.tscn",
        SCENE.format(
            cell=CELL, tile_data=tile_data(), unit_x=x, unit_y=y, tilemap_x=TILEMAP_AT[0], tilemap_y=TILEMAP_AT[1]
        ),
    )
    goals = ", ".join(f"Vector2({cx}, {cy})" for cx, cy in (GOAL, POCKET))
    installed.write("main.gd", SCRIPT.format(goals=goals, snippet=readme_snippet()))
    output = installed.run(["res://main.tscn"], timeout=120)
    reached, pocket = json_lines(output)

    assert reached["status"] == "FOUND" and reached["target"] == list(global_centre(GOAL)), reached
    grid = Grid.from_ascii("\n".join(row.replace("f", "#") for row in LAYOUT))
    cells = [(int(px // CELL), int(py // CELL)) for px, py in reached["points"]]
    assert [list(centre(cell)) for cell in cells] == reached["points"]  # cell centres
    assert cells[0] == START and cells[-1] == GOAL, cells
    assert all(line_of_sight(grid, a, b) for a, b in zip(cells, cells[1:])), cells  # no wall, forest or corner
    walked = sum(((ax - bx) ** 2 + (ay - by) ** 2) ** 0.5 for (ax, ay), (bx, by) in zip(cells, cells[1:]))
    assert walked <= find_path(grid, START, GOAL).cost + 1e-9  # as short as the shortest cell path, or shorter

    assert pocket == {"target": list(global_centre(POCKET)), "points": [], "status": "UNREACHABLE"}, pocket
    assert output.count("no path: ") == 1 and "no path: UNREACHABLE" in output, output
