"""Which Python files of a project the editor plugin holds (pathing_py.godot.project_scripts)."""

from pathlib import Path

from pathing_py.godot.project_scripts import python_scripts

ROOT = Path(__file__).resolve().parents[2]


def test_the_editors_python_scripts_are_found_and_hidden_folders_skipped(tmp_path):
    for name in [
        "main.py",
        "levels/castle.py",
        "levels/notes.txt",
        "lib/.gdignore",
        "lib/helper.py",
        ".import/cached.py",
        "addons/x/plugin.py",
        "addons/x/.hidden.py",
    ]:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    assert python_scripts(tmp_path) == ["res://addons/x/plugin.py", "res://levels/castle.py", "res://main.py"]


def test_this_projects_scripts_are_its_node_scripts_and_the_scene_script():
    found = python_scripts(ROOT)
    assert {
        "res://addons/pathing_py/group_manager.py",
        "res://addons/pathing_py/nav_grid.py",
        "res://addons/pathing_py/path_unit.py",
        "res://addons/pathing_py/plugin.py",
        "res://scenes/units_demo.py",
    } <= set(found)
    assert not [
        path for path in found if path.startswith(("res://pathing_py/", "res://tests/", "res://bench/"))
    ]  # .gdignore
