"""The addon's Python scripts use only Godot names that exist, as pythonscript 0.50 binds them.

pythonscript cannot be installed here, so the scripts are read statically
(tests/support/godot_api_check.py) against the api.json of the installed engine.
The bad snippets show that the check can fail.
"""

import ast
import configparser
from pathlib import Path
from typing import List

import pytest

from pathing_py.godot import bridge as godot_bridge
from pathing_py.godot import groups as godot_groups
from pathing_py.godot import tile_geometry
from pathing_py.godot import units as godot_units
from pathing_py.godot.text import ResourceRef, parse_file
from tests.support.godot_api_check import GodotApi, check_files, check_source, check_sources

ROOT = Path(__file__).resolve().parents[2]
ADDON = ROOT / "addons" / "pathing_py"
SCENES = ROOT / "scenes"


def addon_scripts() -> List[Path]:
    return sorted(ADDON.rglob("*.py"))


def scene_scripts() -> List[Path]:
    """Scripts of the demo scenes: checked with the addon's, whose nodes they drive."""
    return sorted(SCENES.glob("*.py"))


@pytest.fixture(scope="module")
def api(godot_api) -> GodotApi:
    return GodotApi(godot_api)


def test_addon_has_scripts():
    assert {path.name for path in addon_scripts()} >= {"plugin.py", "nav_grid.py", "path_unit.py"}
    assert {path.name for path in scene_scripts()} >= {"units_demo.py"}


def test_addon_scripts_use_only_the_godot_api(api):
    report = check_files(addon_scripts() + scene_scripts(), api)
    assert not report.problems, "\n".join(map(str, report.problems))


def test_check_reaches_the_tilemap_reads(api):
    """If type inference broke, the check above would pass without checking anything."""
    report = check_files(addon_scripts() + scene_scripts(), api)
    expected = {
        ("EditorPlugin", "add_custom_type"),
        ("EditorPlugin", "remove_custom_type"),
        ("_ResourceLoader", "load"),
        ("_Engine", "is_editor_hint"),
        ("Node", "get_node"),
        ("Node", "get_node_or_null"),
        ("Object", "get"),
        ("Object", "is_class"),
        ("TileMap", "get_tileset"),
        ("TileMap", "get_cell_size"),
        ("TileMap", "get_mode"),
        ("TileSet", "get_tiles_ids"),
        ("TileSet", "tile_get_shapes"),
        ("TileSet", "tile_get_tile_mode"),
        ("TileSet", "tile_get_name"),
        # the key-point graph: bake button, progress, undoable graph_path, file reads, drawing
        ("EditorPlugin", "add_control_to_container"),
        ("EditorPlugin", "get_undo_redo"),
        ("UndoRedo", "add_do_property"),
        ("Object", "connect"),
        ("Object", "call"),
        ("Range", "set_value"),
        ("ProjectSettings", "globalize_path"),
        ("_File", "open"),
        ("_File", "get_buffer"),
        ("CanvasItem", "draw_multiline"),
        ("CanvasItem", "draw_set_transform_matrix"),
        # units: one driver per frame, node transforms, map edits, the demo's orders and wall timer
        ("Node", "set_physics_process"),
        ("Node2D", "set_position"),
        ("CanvasItem", "get_global_transform"),
        ("CanvasItem", "get_transform"),
        ("Object", "get_instance_id"),
        ("TileMap", "set_cell"),
        ("Node", "get_child"),
        ("Node2D", "to_global"),
        ("Timer", "start"),
    }
    assert expected <= report.checked, sorted(expected - report.checked)


def test_bridge_constants_are_the_engines(godot_api):
    """pathing_py.godot.bridge and tile_geometry copy a few enum values so that they run without the engine."""
    tileset, tilemap = godot_api["TileSet"]["constants"], godot_api["TileMap"]["constants"]
    assert (godot_bridge.TILE_MODE_SINGLE, godot_bridge.TILE_MODE_AUTOTILE, godot_bridge.TILE_MODE_ATLAS) == (
        tileset["SINGLE_TILE"],
        tileset["AUTO_TILE"],
        tileset["ATLAS_TILE"],
    )
    assert tile_geometry.MODE_NAMES == {
        tilemap[f"MODE_{name.upper()}"]: name for name in ("square", "isometric", "custom")
    }
    assert tile_geometry.HALF_OFFSET_NAMES == {
        tilemap["HALF_OFFSET_" + name.upper().replace(" ", "_")]: name
        for name in tile_geometry.HALF_OFFSET_NAMES.values()
    }
    assert tile_geometry.TILE_ORIGIN_NAMES == {
        tilemap["TILE_ORIGIN_" + name.upper().replace(" ", "_")]: name
        for name in tile_geometry.TILE_ORIGIN_NAMES.values()
    }
    assert godot_bridge.GODOT_OK == godot_api["GlobalConstants"]["constants"]["OK"]
    assert godot_units.EMPTY_TILE == tilemap["INVALID_CELL"]


# -- the check itself ------------------------------------------------------------------

PROBE = """
import math
from godot import Engine, Node2D, NodePath, TileMap, TileSet, Vector2, exposed, export, signal
from pathing_py.godot.bridge import signed_int


@exposed
class Probe(Node2D):
    moved = signal()
    target = export(NodePath, default=NodePath("../TileMap"))

    def _ready(self):
        tilemap: TileMap = self.get_node(self.target)
        {line}

    def helper(self) -> TileMap:
        return self.get_node(self.target)
"""

GOOD_LINES = [
    "signed_int(tilemap.get_cell(0, 0))",
    "tilemap.map_to_world(Vector2(1, 2))",
    "tilemap.map_to_world(Vector2(1, 2), ignore_half_ofs=True)",
    "tilemap.get('tile_data')",
    "tilemap.get_tileset().tile_get_shapes(0)",
    "tilemap.tile_set.tile_get_name(0)",
    "signed_int(tilemap.mode) == TileMap.MODE_SQUARE",
    "self.helper().world_to_map(Vector2())",
    "self.connect('moved', self, 'helper')",
    "self.connect('visibility_changed', self, 'helper')",
    "self.call('emit_signal', 'moved')",
    "self.is_class(class_='Node2D')",
    "self.set_position(self.get_position() + Vector2(1, 0))",
    "self.position = Vector2(1, 0)",
    "self.target = NodePath('..')",
    "TileSet().get_tiles_ids()",
    "Node2D.new().free()",
    "Engine.is_editor_hint()",
    "[tilemap.world_to_map(Vector2(x, 0)) for x in range(3)]",
    # a loop variable declared first keeps its class
    "node: TileMap\n        for node in [tilemap]: signed_int(node.get_cell(0, 0))",
    "node: TileMap\n        for node, x in []: node.world_to_map(x)",
    "node: TileMap\n        node = self.get_child(0)\n        node.world_to_map(Vector2())",
]


@pytest.mark.parametrize("line", GOOD_LINES)
def test_check_accepts_correct_calls(api, line):
    report = check_source(PROBE.format(line=line), api)
    assert not report.problems, "\n".join(map(str, report.problems))


BAD_LINES = [
    ("tilemap.get_cellz(0, 0)", "no method, property or constant 'get_cellz'"),
    ("tilemap.map_to_world()", "needs argument(s) map_position"),
    ("tilemap.map_to_world(Vector2(), True, 3)", "takes at most 2 argument(s), 3 given"),
    ("tilemap.map_to_world(Vector2(), ignore_half=True)", "has no argument 'ignore_half'"),
    ("tilemap.get_tileset().tile_get_shapez(0)", "TileSet has no method, property or constant 'tile_get_shapez'"),
    ("tilemap.tile_set.tile_get_namez(0)", "TileSet has no method"),
    ("self.helper().world_to_mapz(Vector2())", "TileMap has no method"),
    ("self.get_node('TileMap').get_cell_size()", "GridMap, TileMap have it: annotate the name with its class"),
    ("tilemap.get_cell(0, 0)", "wrap the call in signed_int()"),
    ("tilemap.mode == 0", "wrap it in signed_int()"),
    ("tilemap.get('tile_dataz')", "TileMap has no property 'tile_dataz'"),
    ("self.connect('moved_typo', self, 'helper')", "has no signal 'moved_typo'"),
    ("self.call('helpr')", "has no method 'helpr'"),
    ("self.call('emit_signal', 'movd')", "has no signal 'movd'"),
    ("self.emit_signal('moved')", "does not bind Object.emit_signal (has_varargs)"),
    ("self._ready_typo()", "no method, property or constant '_ready_typo'"),
    ("self.is_class('TileMapz')", "no Godot class 'TileMapz'"),
    ("self.is_class(klass='Node')", "has no argument 'klass'"),
    ("self.multiplayer = None", "Node.multiplayer is read-only"),
    (
        "for step in range(3): self.position += Vector2(step, 0)",
        "property syntax 'position' on a Godot object inside a loop",
    ),
    ("[tilemap.cell_size for _ in range(3)]", "inside a loop"),
    ("TileMap.MODE_SQUARZ", "class TileMap has no constant or method 'MODE_SQUARZ'"),
    ("Engine.is_editor_hintz()", "_Engine has no method"),
    ("Node2D()", "Node2D is not a Reference: create it with Node2D.new()"),
    ("TileSet.new()", "TileSet is a Reference: create it with TileSet()"),
    ("node: TileMap\n        for node in []: node.get_cellz(0, 0)", "TileMap has no method, property or constant"),
    ("node: TileMap\n        for node, x in []: node.world_to_mapz(x)", "TileMap has no method, property or constant"),
    ("node: TileMap\n        node = self.get_child(0)\n        node.get_cellz(0, 0)", "TileMap has no method"),
    ("node: TileMap\n        for node in []: node.cell_size", "property syntax 'cell_size' on a Godot object"),
    ("node: TileMap\n        for node in []: node.get_cell(0, 0)", "wrap the call in signed_int()"),
]


@pytest.mark.parametrize("line, message", BAD_LINES)
def test_check_reports_wrong_calls(api, line, message):
    report = check_source(PROBE.format(line=line), api, "probe.py")
    assert any(message in problem.message for problem in report.problems), report.problems
    assert all(str(problem).startswith("probe.py:") for problem in report.problems)


BAD_MODULES = [
    ("from godot import Node2D, TileMapz, exposed\n@exposed\nclass A(Node2D): pass", "godot has no name 'TileMapz'"),
    ("from godot import Node2D, _File, exposed\n@exposed\nclass A(Node2D): pass", "import _File from godot.bindings"),
    ("from godot import Node2D\nclass A(Node2D): pass", "no @exposed class"),
    (
        "from godot import Node2D, exposed\n@exposed\nclass A(Node2D): pass\n@exposed\nclass B(Node2D): pass",
        "one @exposed class per module",
    ),
    ("from godot import exposed\n@exposed\nclass A(object): pass", "must inherit from exactly one Godot class"),
    (
        "from godot import Node2D, exposed\n@exposed\nclass A(Node2D):\n    def _redy(self): pass",
        "did you mean '_ready'?",
    ),
    (
        "from godot import Node2D, exposed\n@exposed\nclass A(Node2D):\n    def _process(self): pass",
        "Godot calls _process with 1 argument(s); A._process takes 0",
    ),
    (
        "from godot import Node2D, exposed\n@exposed\nclass A(Node2D):\n    def get_name(self): pass",
        "hides the Godot method Node2D.get_name",
    ),
    (
        "from godot import Node2D, exposed, export\n@exposed\nclass A(Node2D):\n    a = export(Vector9)",
        "export() type 'Vector9'",
    ),
    (
        "from godot import Node2D, exposed, export\n@exposed\nclass A(Node2D):\n    a = export(int, defualt=1)",
        "export() has no argument 'defualt'",
    ),
    (
        "from godot import Node2D, exposed, export\n@exposed\nclass A(Node2D):\n"
        "    @export(int, defualt=1)\n    @property\n    def a(self): return 1",
        "export() has no argument 'defualt'",
    ),
    (
        "import godot\nfrom godot import Node2D, exposed\n@exposed\nclass A(Node2D):\n    n = godot.Nodez",
        "no name 'Nodez'",
    ),
]


@pytest.mark.parametrize("source, message", BAD_MODULES)
def test_check_reports_wrong_modules(api, source, message):
    report = check_source(source, api)
    assert any(message in problem.message for problem in report.problems), report.problems


# -- calls from one script to another ------------------------------------------------------

TARGET = """
from godot import Node2D, exposed, export, signal


@exposed(tool=True)
class Target(Node2D):
    finished = signal("finished")
    _path = ""

    @export(str, default="")
    @property
    def path(self):
        return self._path

    @path.setter
    def path(self, value):
        self._path = value

    def start(self, scene_path, fast=False):
        return ""
"""

CALLER = """
from godot import EditorPlugin, Object, Vector2, exposed


@exposed(tool=True)
class Caller(EditorPlugin):
    def _on_finished(self, path, target):
        pass

    def run(self, obj: Object):
        target: "Target" = obj
        {line}
"""


@pytest.mark.parametrize(
    "line",
    [
        "target.call('start', 'res://a.tscn')",
        "target.call('start', 'res://a.tscn', True)",
        "target.start('res://a.tscn', fast=True)",
        "target.connect('finished', self, '_on_finished')",
        "target.get('path')",
        "target.path = 'res://a.kpg'",
        "target.set_position(Vector2())",
        "self.run(target)",
        "target.call('emit_signal', 'finished', Vector2(), 'why')",
        "target.has_method('start')",
        "node: 'Target'\n        for node in [target]: node.call('start', 'x')",
        "node: 'Target'\n        for node, x, y in []: node.set_position(Vector2(x, y))",
    ],
)
def test_check_accepts_calls_to_another_script(api, line):
    report = check_sources({"target.py": TARGET, "caller.py": CALLER.format(line=line)}, api)
    assert not report.problems, "\n".join(map(str, report.problems))


@pytest.mark.parametrize(
    "line, message",
    [
        ("target.call('stat', 'x')", "Node2D has no method 'stat'"),
        ("target.call('start')", "Target.start takes 1 to 2 argument(s), 0 given"),
        ("target.start('x', True, 3)", "Target.start takes 1 to 2 argument(s), 3 given"),
        ("target.start('x', slow=True)", "Target.start has no argument 'slow'"),
        ("target.call('path')", "Node2D has no method 'path'"),
        ("target.get('pathz')", "Node2D has no property 'pathz'"),
        ("target.connect('finishd', self, '_on_finished')", "has no signal 'finishd'"),
        ("target.connect('finished', self, '_on_finishd')", "signal target Caller has no method '_on_finishd'"),
        ("target.set_positionz(Vector2())", "Target (a Node2D) has no method, property or constant 'set_positionz'"),
        ("self.run()", "Caller.run takes 1 argument(s), 0 given"),
        ("target.call('emit_signal', 'finishd', 1)", "has no signal 'finishd'"),
        ("target.has_method('stat')", "Node2D has no method 'stat'"),
        ("node: 'Target'\n        for node in [target]: node.call('stat', 'x')", "Node2D has no method 'stat'"),
        (
            "node: 'Target'\n        for node in [target]: node.start()",
            "Target.start takes 1 to 2 argument(s), 0 given",
        ),
        ("node: 'Target'\n        for node, x, y in []: node.set_positionz(Vector2(x, y))", "has no method"),
    ],
)
def test_check_reports_wrong_calls_to_another_script(api, line, message):
    report = check_sources({"target.py": TARGET, "caller.py": CALLER.format(line=line)}, api)
    assert any(message in problem.message for problem in report.problems), report.problems


MIXIN_USER = """
from godot import Node, exposed
from pathing_py.godot.nav_grid_link import NavGridLink


@exposed
class User(NavGridLink, Node):
    def _ready(self):
        {line}
"""


@pytest.mark.parametrize(
    "line, message",
    [
        ("self._navgrid()", ""),
        ("self._navgrid_found()", ""),
        ("self._navgridz()", "User (a Node) has no method, property or constant '_navgridz'"),
    ],
)
def test_check_knows_the_methods_of_pathing_py_mixins(api, line, message):
    """A node script's plain-Python bases (NavGridLink) give ``self`` their methods; a typo is still caught."""
    report = check_source(MIXIN_USER.format(line=line), api, str(ADDON / "probe.py"))
    assert [problem.message for problem in report.problems] == ([message] if message else []), report.problems


def test_another_script_is_unknown_when_checked_alone(api):
    """Without the target script, its name types nothing: calls pass unchecked rather than wrongly."""
    report = check_source(CALLER.format(line="target.call('stat', 'x')"), api)
    assert not report.problems, report.problems


# -- the plugin and the project files ----------------------------------------------------


def _plugin_config() -> configparser.ConfigParser:
    config = configparser.ConfigParser()
    config.read(ADDON / "plugin.cfg", encoding="utf-8")
    return config


def _node_types() -> tuple:
    tree = ast.parse((ADDON / "plugin.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "NODE_TYPES" for t in node.targets):
            return ast.literal_eval(node.value)
    raise AssertionError("plugin.py has no NODE_TYPES table")


def _exposed_class(path: Path) -> ast.ClassDef:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return next(node for node in tree.body if isinstance(node, ast.ClassDef) and node.decorator_list)


def test_plugin_cfg_names_a_tool_editor_plugin():
    plugin = _plugin_config()["plugin"]
    assert plugin["name"].strip('"') == "pathing_py"
    script = ADDON / plugin["script"].strip('"')
    assert script.is_file()
    cls = _exposed_class(script)
    assert [base.id for base in cls.bases] == ["EditorPlugin"]
    decorator = cls.decorator_list[0]
    assert isinstance(decorator, ast.Call) and decorator.func.id == "exposed"
    assert [(kw.arg, kw.value.value) for kw in decorator.keywords] == [("tool", True)]


def test_plugin_registers_every_node_script():
    registered = {}
    for name, base, script, icon in _node_types():
        cls = _exposed_class(ADDON / script)
        assert cls.name == name and cls.bases[-1].id == base, script  # mixins may come before the Godot class
        assert (ADDON / icon).is_file() and (ADDON / icon).read_text().lstrip().startswith("<svg"), icon
        registered[script] = name
    scripts = {str(path.relative_to(ADDON)) for path in addon_scripts()} - {"plugin.py"}
    assert scripts == set(registered)


def test_plugin_removes_what_it_adds():
    cls = _exposed_class(ADDON / "plugin.py")
    methods = {node.name: ast.dump(node) for node in cls.body if isinstance(node, ast.FunctionDef)}
    for added, removed in (
        ("add_custom_type", "remove_custom_type"),
        ("add_control_to_container", "remove_control_from_container"),
    ):
        assert any(added in method for method in methods.values()) and removed in methods["_exit_tree"]


def test_plain_python_modules_are_hidden_from_the_editor():
    """The editor loads every .py file as a script; plain modules need a .gdignore above them."""
    for path in ROOT.rglob("*.py"):
        relative = path.relative_to(ROOT)
        if relative.parts[0].startswith(".") or relative.parts[:2] == ("addons", "pythonscript"):
            continue
        if relative.parts[:2] == ("addons", "pathing_py") or path in scene_scripts():
            continue  # node scripts: each exposes a class (checked above)
        hidden = any(
            (ROOT.joinpath(*relative.parts[:depth]) / ".gdignore").is_file() for depth in range(1, len(relative.parts))
        )
        assert hidden, f"{relative}: add a .gdignore to {relative.parts[0]}/"


def test_project_enables_the_plugin_and_pythonscript():
    text = (ROOT / "project.godot").read_text(encoding="utf-8")
    assert "config_version=4" in text
    assert 'enabled=PoolStringArray( "pathing_py" )' in text
    assert 'singletons=[ "res://pythonscript.gdnlib" ]' in text
    assert 'run/main_scene="res://scenes/demo.tscn"' in text
    assert (ROOT / "scenes" / "demo.tscn").is_file()


def test_export_presets_pack_the_python_files():
    presets = configparser.ConfigParser(interpolation=None)
    presets.read(ROOT / "export_presets.cfg", encoding="utf-8")
    platforms = {}
    for section in presets.sections():
        if section.count(".") == 1:
            preset = presets[section]
            platforms[preset["platform"].strip('"')] = preset
            for key in (
                "name",
                "runnable",
                "custom_features",
                "export_filter",
                "include_filter",
                "exclude_filter",
                "export_path",
                "patch_list",
                "script_export_mode",
            ):
                assert key in preset, f"{section} lacks {key}"
            assert section + ".options" in presets
    assert set(platforms) == {"Linux/X11", "Windows Desktop"}
    for preset in platforms.values():
        include, exclude = (
            [item.strip() for item in preset[key].strip('"').split(",")] for key in ("include_filter", "exclude_filter")
        )
        assert {"res://pathing_py/*.py", "res://addons/pathing_py/*.py", "res://scenes/*.py", "*.kpg"} <= set(include)
        # pythonscript's runtime ships beside the pack, not in it (tests/engine/test_export.py says why)
        assert "res://addons/pythonscript/*" in exclude and not any("pythonscript" in item for item in include)


# -- what the check cannot see: names in variables, scene files ----------------------------------


@pytest.mark.parametrize(
    "script, events",
    [
        ("path_unit.py", godot_units.UNIT_SIGNALS),
        ("group_manager.py", tuple(godot_groups.GROUP_SIGNALS)),
    ],
)
def test_a_node_declares_a_signal_for_every_event_it_is_given(script, events):
    """NavGrid and GroupManager emit signals by a name held in a variable, which the check cannot read: compare here."""
    cls = _exposed_class(ADDON / script)
    declared = {
        target.id: item.value.args[0].value
        for item in cls.body
        if isinstance(item, ast.Assign) and isinstance(item.value, ast.Call) and item.value.func.id == "signal"
        for target in item.targets
    }
    assert declared == {name: name for name in events}


def _scene_node_scripts(scene) -> dict:
    """Node path as connections name it (``.`` for the root) -> ``res://`` path of its script."""
    scripts = {
        section.attributes["id"]: section.attributes["path"]
        for section in scene.sections
        if section.tag == "ext_resource" and section.attributes.get("type") == "Script"
    }
    found = {}
    for section in scene.sections:
        script = section.properties.get("script")
        if section.tag != "node" or not isinstance(script, ResourceRef):
            continue
        parent, name = section.attributes.get("parent"), section.attributes["name"]
        path = "." if parent is None else name if parent == "." else f"{parent}/{name}"
        found[path] = scripts[script.id]
    return found


def _script_methods(res_path: str) -> dict:
    """Method name -> number of parameters besides self, of a script's exposed class."""
    cls = _exposed_class(ROOT / res_path[len("res://") :])
    return {item.name: len(item.args.args) - 1 for item in cls.body if isinstance(item, ast.FunctionDef)}


@pytest.mark.parametrize("scene_path", sorted(SCENES.glob("*.tscn")), ids=lambda path: path.name)
def test_scene_connections_call_methods_the_scripts_have(scene_path):
    """[connection] lines are outside the check's reach: their target's script must have the method."""
    scene = parse_file(scene_path)
    scripts = _scene_node_scripts(scene)
    for connection in (section for section in scene.sections if section.tag == "connection"):
        target, method = connection.attributes["to"], connection.attributes["method"]
        assert target in scripts, f"{connection.attributes}: the target has no script"
        assert method in _script_methods(scripts[target]), f"{scripts[target]} has no method {method!r}"


def test_handlers_of_unit_signals_take_the_arguments_emitted():
    """pythonscript's signal() declares no arguments: a handler's parameters must match what NavGrid emits
    (``UnitSignal.arguments``) plus the connection's binds."""
    emitted = {
        name: len(godot_units.UnitSignal(0, None, name, (0, 0), (0.0, 0.0)).arguments(lambda x, y: (x, y)))
        for name in godot_units.UNIT_SIGNALS
    }
    connected = 0
    for script in scene_scripts():
        methods = _script_methods("res://" + str(script.relative_to(ROOT)))
        for call in ast.walk(ast.parse(script.read_text(encoding="utf-8"))):
            if not (isinstance(call, ast.Call) and getattr(call.func, "attr", None) == "connect"):
                continue
            signal_name, handler = call.args[0].value, call.args[2].value
            binds = call.args[3] if len(call.args) > 3 else None
            bound = len(binds.args[0].elts) if binds is not None else 0  # Array([...])
            if signal_name in emitted:
                assert methods[handler] == emitted[signal_name] + bound, (script.name, signal_name, handler)
                connected += 1
    assert connected >= 3
