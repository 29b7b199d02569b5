"""The release zip in a new empty Godot project: installed as the Asset Library's installer installs a zip, with
pythonscript and numpy (the README's steps, tests/support/fresh_projects.py), the plugin enabled; its bake button
bakes the scene's key-point graph in the editor, and a PathUnit of the game, routed through that graph, arrives.

The zip is built from the checkout by tools/release.py (its files as git tracks them, read from the working tree,
so that the test runs while the tree has changes). Godot 3's asset installer drops a zip's first folder and
writes what lies under it into ``res://``, making each folder from its entry first; ``install_zip`` does the same.
"""

import zipfile
from pathlib import Path
from typing import List

import pytest

from tests.support.engine_editor import DRAW_REFUSED, run_check, with_check_plugin
from tests.support.engine_install import CELL, GOAL, START, centre, tile_data
from tests.support.fresh_projects import fresh_project
from tools import release
from tools.engine_runs import json_lines
from tools.godot_python import GodotPython

ROOT = Path(__file__).resolve().parents[2]

#: What the NavGrid prints when it cannot use the graph file and bakes one in memory instead.
REBAKED = "a graph baked in memory is used"

SCENE = """[gd_scene load_steps=5 format=2]

[ext_resource path="res://tiles.tres" type="TileSet" id=1]
[ext_resource path="res://addons/pathing_py/nav_grid.py" type="Script" id=2]
[ext_resource path="res://addons/pathing_py/path_unit.py" type="Script" id=3]
[ext_resource path="res://main.gd" type="Script" id=4]

[node name="Main" type="Node2D"]
script = ExtResource( 4 )

[node name="TileMap" type="TileMap" parent="."]
tile_set = ExtResource( 1 )
cell_size = Vector2( {cell}, {cell} )
format = 1
tile_data = PoolIntArray( {tile_data} )

[node name="NavGrid" type="Node2D" parent="."]
script = ExtResource( 2 )
tilemap_path = NodePath("../TileMap")
blocking_tiles = PoolStringArray( "forest" )
graph_path = "{graph_path}"

[node name="Unit" type="Node2D" parent="."]
script = ExtResource( 3 )
position = Vector2( {unit_x}, {unit_y} )
"""

SCRIPT = """extends Node2D
# Sends the PathUnit to the goal, prints each of its signals as JSON, quits when its order ends (or gives up).

var frames = 0


func _ready():
    for kind in ["path_found", "waypoint_reached", "arrived", "held_up", "unreachable"]:
        $Unit.connect(kind, self, "_on_signal", [kind])
    print(to_json({{"ordered": $Unit.move_to(Vector2({goal_x}, {goal_y}))}}))


func _physics_process(_delta):
    frames += 1
    if frames > 1800:
        print(to_json({{"gave_up": $Unit.get_state()}}))
        get_tree().quit()


func _on_signal(cell, _position, third, fourth = null):
    # The signal's name is bound last: after (cell, position), or after (cell, position, reason).
    var kind = fourth if fourth != null else third
    print(to_json({{"signal": kind, "cell": [cell.x, cell.y], "state": $Unit.get_state()}}))
    if kind in ["arrived", "held_up", "unreachable"]:
        get_tree().quit()
"""


def install_zip(archive_path: Path, project: Path) -> List[str]:
    """Install a zip as Godot 3's asset installer does: its first folder dropped, folders made from their entries;
    the files installed, as project paths."""
    installed = []
    with zipfile.ZipFile(archive_path) as archive:
        for entry in archive.infolist():
            top, _, path = entry.filename.partition("/")
            if not path:
                continue  # the top folder itself, or a file beside it: the installer skips them
            if entry.is_dir():
                (project / path).mkdir(exist_ok=True)  # addons/ may be there already (pythonscript)
            else:
                (project / path).write_bytes(archive.read(entry))
                installed.append(path)
    return installed


@pytest.fixture(scope="module")
def released(godot, pythonscript_dist, tmp_path_factory) -> GodotPython:
    """A new project with the release zip installed, pythonscript and numpy, the plugin enabled."""
    archive = release.build(tmp_path_factory.mktemp("dist"), ROOT, check_tree=False)
    assert archive.name == f"pathing_py-{release.release_version()}.zip"

    def install(project: Path) -> None:
        installed = install_zip(archive, project)
        assert sorted(installed) == release.shipped_files(ROOT)
        assert (project / "pathing_py" / ".gdignore").is_file() and (project / "addons/pathing_py/LICENSE").is_file()

    return fresh_project(godot, pythonscript_dist, tmp_path_factory.mktemp("released"), install)


def test_the_bake_button_bakes_and_a_unit_walks_the_baked_graph_to_its_goal(released):
    released.write("tiles.tres", (ROOT / "scenes" / "demo_tileset.tres").read_text(encoding="utf-8"))
    x, y = centre(START)
    goal_x, goal_y = centre(GOAL)
    scene = SCENE.format(cell=CELL, tile_data=tile_data(), unit_x=x, unit_y=y, graph_path="{graph_path}")
    released.write("main.gd", SCRIPT.format(goal_x=goal_x, goal_y=goal_y))
    released.write("main.tscn", scene.format(graph_path=""))

    # The editor, as a user: open the scene, select the NavGrid, press "Bake key-point graph".
    lines = run_check(with_check_plugin(released), "bake", "--scene=res://main.tscn", allowed=(DRAW_REFUSED,))
    (baked,) = [line for line in lines if "finished" in line]
    assert baked["file_exists"] and baked["finished"][0][0] == "res://main.kpg", baked
    assert (released.project / "main.kpg").stat().st_size > 0

    # The game, with the NavGrid pointed at the baked file, as the bake leaves it.
    released.write("main.tscn", scene.format(graph_path="res://main.kpg"))
    output = released.run(["res://main.tscn"], timeout=180)
    assert REBAKED not in output, output[-4000:]
    events = json_lines(output)
    assert events[0] == {"ordered": True}, events
    signals = [event["signal"] for event in events[1:]]
    assert signals[0] == "path_found" and signals[-1] == "arrived", events
    assert events[-1]["cell"] == list(GOAL) and events[-1]["state"] == "ARRIVED", events
