"""The Godot editor with the pathing_py plugin, driven as a user would: headless ``godot3-server -e``.

A test plugin (``tests/engine/in_godot/editor_check.gd``, copied into the project copy
as ``addons/editor_check/`` and enabled after ours) opens scenes, selects
nodes, presses the "Bake key-point graph" button and saves, printing what it
saw as JSON lines. Every run must be clean: no traceback, script or engine
error (``GodotPython.run``), but for the two kinds of error lines named where
they are allowed.
"""

import ast
import shutil
import subprocess
from pathlib import Path
from typing import List

import numpy as np
import pytest

from pathing_py.godot.bridge import TileFrame
from pathing_py.godot.editor import graph_drawing
from pathing_py.godot.scene_files import grid_from_tscn, nav_grid_settings
from pathing_py.hierarchy import KeyPointGraph
from tests.support.engine_editor import DRAW_REFUSED, ROOT, refused_draw_calls, run_check, with_check_plugin
from tools.engine_runs import json_lines
from tools.godot_python import GodotPython, failures

SCENES = sorted(f"res://{path.relative_to(ROOT).as_posix()}" for path in (ROOT / "scenes").glob("*.tscn"))
DEMO = "res://scenes/demo.tscn"
#: A map big enough that its bake takes many editor frames, written into the copy (outside tests/, which the
#: editor does not see).
BIG_MAP = "res://editor_check/big_map.tscn"
BIG_MAP_SIZE = 320
#: A scene with a GroupManager beside the demo map, written into the copy (no scene under scenes/ has one).
GROUPS = "res://editor_check/groups.tscn"
GROUPS_SCENE = """[gd_scene load_steps=3 format=2]

[ext_resource path="res://scenes/demo.tscn" type="PackedScene" id=1]
[ext_resource path="res://addons/pathing_py/group_manager.py" type="Script" id=2]

[node name="Groups" type="Node2D"]

[node name="Demo" parent="." instance=ExtResource( 1 )]

[node name="GroupManager" type="Node" parent="."]
script = ExtResource( 2 )
nav_grid_path = NodePath("../Demo/NavGrid")
cohesion = "arrival"
"""
#: Godot's isometric demo in small (tests/support/fixtures/layers/dungeon.tscn): a Floor and a Walls TileMap
#: stacked, under a NavGrid with layer_paths, written into the copy with its TileSet.
LAYERED = "res://editor_check/dungeon.tscn"
LAYERED_TILESET = "res://editor_check/dungeon.tres"


def layered_scene() -> str:
    text = (ROOT / "tests" / "support" / "fixtures" / "layers" / "dungeon.tscn").read_text(encoding="utf-8")
    text = text.replace("res://tilesets/dungeon.tres", LAYERED_TILESET).replace(
        "[gd_scene load_steps=2 format=2]\n",
        "[gd_scene load_steps=3 format=2]\n\n"
        '[ext_resource path="res://addons/pathing_py/nav_grid.py" type="Script" id=2]\n',
    )
    return text + (
        '\n[node name="NavGrid" type="Node2D" parent="."]\nscript = ExtResource( 2 )\n'
        'tilemap_path = NodePath("../Floor")\n'
        'layer_paths = [ NodePath("../Walls") ]\nempty_cells_passable = false\n'
    )


#: Per script of ours: properties the inspector must show, and the icon the Scene dock gives its nodes.
NODE_KINDS = {
    "nav_grid.py": ({"tilemap_path", "graph_path", "show_graph"}, "nav_grid.svg"),
    "path_unit.py": ({"nav_grid_path", "speed", "radius"}, "path_unit.svg"),
    "group_manager.py": ({"nav_grid_path", "cohesion"}, "group_manager.svg"),
}
#: The headless editor's dummy renderer cannot read back the thumbnail it makes when a scene is saved.
THUMBNAIL_ERROR = 'texture_get_data: Condition "!t" is true'


def plugin_constant(name: str) -> str:
    """A string constant of addons/pathing_py/plugin.py (which imports godot: read, not imported)."""
    tree = ast.parse((ROOT / "addons" / "pathing_py" / "plugin.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(target, "id", "") == name for target in node.targets):
            return ast.literal_eval(node.value)
    raise KeyError(name)


@pytest.fixture(scope="module")
def editor(godot, pythonscript_dist, tmp_path_factory) -> GodotPython:
    """A project copy (assets imported) with the test plugin, and a big map to bake."""
    copy = with_check_plugin(GodotPython.make(godot, tmp_path_factory.mktemp("editor") / "project", pythonscript_dist))
    copy.write(BIG_MAP[len("res://") :], big_map_scene(BIG_MAP_SIZE))
    copy.write(GROUPS[len("res://") :], GROUPS_SCENE)
    copy.write(LAYERED[len("res://") :], layered_scene())
    copy.write(
        LAYERED_TILESET[len("res://") :],
        (ROOT / "tests" / "support" / "fixtures" / "tilesets" / "dungeon.tres").read_text(),
    )
    return copy


def big_map_scene(size: int) -> str:
    """A ``size`` x ``size`` TileMap of the demo's TileSet: ground, and seeded wall segments (ids 0 and 1)."""
    rng = np.random.default_rng(8)
    tiles = np.zeros((size, size), dtype=np.int64)
    for x, y, length, across in zip(*(rng.integers(0, size, 400) for _ in range(3)), rng.integers(0, 2, 400)):
        if across:
            tiles[y, x : x + length // 8] = 1
        else:
            tiles[y : y + length // 8, x] = 1
    ys, xs = np.mgrid[0:size, 0:size]
    words = np.stack([(ys << 16) | xs, tiles, np.zeros_like(tiles)], axis=-1).reshape(-1)
    return f"""[gd_scene load_steps=3 format=2]

[ext_resource path="res://scenes/demo_tileset.tres" type="TileSet" id=1]
[ext_resource path="res://addons/pathing_py/nav_grid.py" type="Script" id=2]

[node name="BigMap" type="Node2D"]

[node name="TileMap" type="TileMap" parent="."]
tile_set = ExtResource( 1 )
cell_size = Vector2( 16, 16 )
format = 1
tile_data = PoolIntArray( {", ".join(str(word) for word in words.tolist())} )

[node name="NavGrid" type="Node2D" parent="."]
script = ExtResource( 2 )
"""


def checkout_files() -> List[str]:
    """The files of a fresh checkout, relative to the repository: those git tracks, and new ones it does not
    ignore (they would be committed with the work)."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT,
            capture_output=True,
            check=True,
        ).stdout.decode()
    except (OSError, subprocess.CalledProcessError) as error:
        pytest.fail(f"a fresh checkout is what git tracks, and git cannot list it here: {error}")
    return [name for name in listed.split("\0") if name and (ROOT / name).is_file()]  # deleted files are gone


def fresh_checkout(godot, pythonscript: Path, destination: Path) -> GodotPython:
    """What a user has before the first opening: the checkout's files and pythonscript, nothing imported."""
    for name in checkout_files():
        (destination / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, destination / name)
    return GodotPython.beside(godot, destination, pythonscript)


#: What the engine prints when it aborts while exiting (GODOT_NOTES: the headless editor sometimes does).
EXIT_ABORT = ("Aborted", "handle_crash", "Program crashed with signal", "[godot was ended by SIGABRT]")


def test_a_users_first_opening_of_a_fresh_checkout_is_clean(godot, pythonscript_dist, tmp_path):
    """The checkout as committed (project.godot whole: the editor opens its main scene; no .import/), opened in
    the editor for the first time, then its main scene played: no error. pythonscript 0.50 said here that
    path_unit.py and group_manager.py "doesn't expose any class to Godot" (the plugin let go of their scripts)."""
    for attempt in range(2):  # a new folder each time: a second opening of the same one would hide the first's errors
        copy = fresh_checkout(godot, pythonscript_dist, tmp_path / f"checkout{attempt}")
        assert (copy.project / "project.godot").read_text() == (ROOT / "project.godot").read_text()
        assert 'run/main_scene="res://scenes/demo.tscn"' in (copy.project / "project.godot").read_text()
        assert not (copy.project / ".import").exists()
        output = godot.run(
            ["--no-window", "-e", "--path", str(copy.project), "--quit"], timeout=300, check_markers=False
        )
        found = failures(output)
        if not (found and all(any(marker in line for marker in EXIT_ABORT) for line in found)):
            break  # clean, or an error to report; only an abort while exiting earns a second first opening
    assert not found, "\n".join(found) + f"\n\n{output[-6000:]}"
    assert (copy.project / ".import").is_dir()  # the opening imported the assets
    copy.run(["--quit"])  # the main scene played: GodotPython.run fails on any error


def test_every_scene_opens_clean_in_the_first_session(godot, pythonscript_dist, tmp_path):
    """The first opening draws every script's thumbnail, loading and freeing it; pythonscript 0.50 then could not
    load units_demo.py for its scene ("doesn't expose any class to Godot") until the plugin held every script."""
    copy = with_check_plugin(fresh_checkout(godot, pythonscript_dist, tmp_path / "checkout"))
    assert not (copy.project / ".import").exists()

    facts = run_check(copy, "scenes")

    assert [fact["opened"] for fact in facts if "opened" in fact] == SCENES
    assert any(fact["script"].endswith("path_unit.py") for fact in facts if "selected" in fact)


def test_a_fresh_checkout_with_no_scene_open(godot, pythonscript_dist, tmp_path):
    """First import (no .import/ yet), no scene open: clean; the icons reach the Scene dock once imported."""
    copy = with_check_plugin(GodotPython.make(godot, tmp_path / "project", pythonscript_dist))
    shutil.rmtree(copy.project / ".import")  # as a fresh checkout: nothing imported
    project = copy.project / "project.godot"
    lines = project.read_text(encoding="utf-8").splitlines()
    project.write_text(
        "\n".join(line for line in lines if not line.startswith("run/main_scene=")) + "\n"
    )  # else it opens

    facts = run_check(copy, "fresh")

    assert facts[0] == {"edited_scene": ""}
    pressed = {fact["pressed"]: fact["status"] for fact in facts if "pressed" in fact}
    assert pressed == {
        situation: plugin_constant("NOTHING_TO_BAKE") for situation in ("no scene open", "TileMap selected")
    }
    icons = {fact["node"]: fact["icon"] for fact in facts if "node" in fact}
    assert icons == {"NavGrid": {"path": "res://addons/pathing_py/icons/nav_grid.svg", "width": 16}}


def test_every_scene_and_every_node_of_ours_selected(editor):
    """The inspector reads every property of our nodes (the 'script' and 'editor_description' tracebacks were here)."""
    facts = run_check(editor, "scenes")

    assert [fact["opened"] for fact in facts if "opened" in fact] == SCENES
    selected = [fact for fact in facts if "selected" in fact]
    assert {fact["scene"] for fact in selected} == set(SCENES)
    for fact in selected:
        assert_node_of_ours_shown(fact)
    assert sum(fact["script"].endswith("path_unit.py") for fact in selected) >= 6
    statuses = {fact["pressed"]: fact["status"] for fact in facts if "pressed" in fact}
    assert statuses == {f"scene root of {scene} selected": plugin_constant("NOTHING_TO_BAKE") for scene in SCENES}


def assert_node_of_ours_shown(fact: dict) -> None:
    """A selected node of ours: the inspector shows its properties, the Scene dock its icon, the bake button only for
    a NavGrid."""
    script = fact["script"].rsplit("/", 1)[-1]
    properties, icon = NODE_KINDS[script]
    assert properties <= set(fact["inspected"]), fact
    assert fact["toolbar_visible"] == (script == "nav_grid.py"), fact
    assert fact["icon"] == {"path": f"res://addons/pathing_py/icons/{icon}", "width": 16}, fact


def test_a_group_manager_is_registered_inspected_and_warns_about_its_settings(editor):
    facts = run_check(editor, "group_manager", f"--scene={GROUPS}")

    [selected] = [fact for fact in facts if "selected" in fact]
    assert selected["selected"] == "GroupManager" and selected["script"].endswith("/group_manager.py")
    assert_node_of_ours_shown(selected)
    warnings = {tuple(fact["settings"]): fact["warning"] for fact in facts if "settings" in fact}
    assert warnings == {
        ("arrival", "../Demo/NavGrid"): "",
        ("fast", "../Demo/NavGrid"): "Cohesion 'fast' is not one of 'speed', 'route', 'arrival'.",
        ("speed", "../Demo/TileMap"): "nav_grid_path '../Demo/TileMap' points at a TileMap, not a NavGrid.",
        ("route", "../Nothing"): "nav_grid_path '../Nothing' does not point at a node.",
        ("route", ""): "Set nav_grid_path to the NavGrid that moves the units this manager orders.",
    }


def test_saving_every_scene_keeps_our_nodes_properties_and_meta(editor):
    """Saving reads each stored property through the node (the '_import_path' traceback), and keeps __meta__."""
    facts = run_check(editor, "save", allowed=(THUMBNAIL_ERROR,))

    saved = {fact["saved"]: fact for fact in facts if "saved" in fact}
    assert sorted(saved) == SCENES
    for scene, fact in saved.items():
        assert fact["error"] == 0 and fact["before"] and fact["after"] == fact["before"], fact
    demo = saved[DEMO]["after"]["NavGrid"]
    assert demo["meta:_editor_description_"].startswith('"Walls and deep water')  # lost before NodeProperties
    units_navgrid = saved["res://scenes/units_demo.tscn"]["after"]["Demo/NavGrid"]
    assert units_navgrid["wall_tile"] == '"wall"'  # an override of the instanced demo's NavGrid
    rts_manager = saved["res://scenes/rts_demo.tscn"]["after"]["GroupManager"]
    assert (rts_manager["formation"], rts_manager["spacing"]) == ('"box"', "2.0")
    for path in (ROOT / "scenes").glob("*.py"):  # with the README's indent settings, scripts stay as written
        assert (editor.project / "scenes" / path.name).read_text() == path.read_text(), path.name


@pytest.mark.parametrize("scene", [DEMO, BIG_MAP, LAYERED])
def test_the_bake_button(editor, scene):
    """Select the NavGrid, press the button: the .kpg is written next to the scene with progress, graph_path set
    (undoable), and show_graph draws the graph."""
    relative = scene[len("res://") :]
    output = editor.run_editor(["--check=bake", f"--scene={scene}"], timeout=300, allowed=(DRAW_REFUSED,))
    facts = json_lines(output)
    assert facts[-1] == {"done": True}, output[-6000:]
    by_key = {key: fact for fact in facts for key in fact}
    graph_file = scene.rsplit(".", 1)[0] + ".kpg"

    assert by_key["toolbar_visible"]["toolbar_visible"] and by_key["graph_path_before"]["graph_path_before"] == ""
    bake = by_key["finished"]
    assert bake["file_exists"] and len(bake["finished"]) == 1, bake
    written, message = bake["finished"][0]
    assert written == graph_file and message.startswith("Baked ") and graph_file in message
    assert bake["graph_path"] == graph_file
    assert by_key["graph_path_after_undo"]["graph_path_after_undo"] == ""
    assert by_key["graph_path_after_redo"]["graph_path_after_redo"] == graph_file
    # The progress bar shows while baking and hides at the end, when the status line gives the bake's message.
    seen = bake["seen"]
    assert seen[0][1:] == [True, "Baking…"] and seen[-1][1:] == [False, message], seen
    fractions = bake["fractions"]
    assert fractions == sorted(fractions) and all(0.0 <= fraction <= 1.0 for fraction in fractions)
    if scene == BIG_MAP:  # many frames: the bar moves with the signal
        assert len(fractions) >= 3 and fractions[-1] > fractions[0], bake
        assert len({value for value, visible, _ in seen if visible}) >= 3, seen

    # The file is the graph of the map: it loads against the grid read from the scene on the host.
    path = editor.project / relative
    settings = nav_grid_settings(path)[0]
    grid = grid_from_tscn(
        path, settings.tilemap, settings.blocking, empty_passable=settings.empty_passable, layers=settings.layers
    )
    graph = KeyPointGraph.load(editor.project / graph_file[len("res://") :], grid)  # a graph of another grid is refused
    if scene == LAYERED:  # the Walls layer shapes the graph: without it, the grid differs
        assert not np.array_equal(grid.passable, grid_from_tscn(path, settings.tilemap, empty_passable=False).passable)

    # show_graph: the node redraws, and its _draw makes one draw_multiline call per kind of segment drawn.
    toggles = [fact for fact in facts if "show_graph" in fact]
    assert [fact["show_graph"] for fact in toggles] == [True, False] and all(fact["draws"] >= 1 for fact in toggles)
    drawing = graph_drawing(graph, TileFrame((16, 16), grid.origin))
    kinds = [drawing.clusters, drawing.inside_edges, drawing.border_edges, drawing.key_points]
    # _draw() called directly with show_graph on, then off: only the first call draws.
    calls = refused_draw_calls(output)
    assert calls == ["draw_set_transform_matrix"] + ["draw_multiline"] * sum(map(bool, kinds)), calls


def test_the_bounds_are_drawn_in_the_editor_when_set(editor):
    """Setting bounds redraws the NavGrid; its _draw outlines them (one draw_multiline) only when they are set and
    valid."""
    output = editor.run_editor(["--check=bounds"], timeout=300, allowed=(DRAW_REFUSED,))
    facts = json_lines(output)
    assert facts[-1] == {"done": True}, output[-6000:]
    seen = [fact for fact in facts if "bounds" in fact]
    assert [fact["bounds"] for fact in seen] == [[-4, -3, 48, 32], [0, 0, 0, 0], [0, 0, 2.5, 3]]
    assert all(fact["draws"] >= 1 for fact in seen), seen
    assert [fact["warning"] for fact in seen[:2]] == ["", ""] and "bounds must be whole cells" in seen[2]["warning"]
    assert refused_draw_calls(output) == ["draw_set_transform_matrix", "draw_multiline"]  # the set bounds only
