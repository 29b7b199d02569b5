"""The demo scenes as the engine loads them, fed to the nodes' Python side; and the export presets at work.

headless Godot 3.2 reads scenes/demo.tscn and prints exactly what NavGrid
reads at run time (``tile_data``, ``cell_size``, the TileSet's names, modes
and collision sub-tiles) plus the engine's own per-cell answer; the bridge
must build a grid that agrees cell for cell, and bake from it the very graph
the scene ships (``scenes/demo.kpg``). pythonscript is not installed here, so
the engine cannot load the NavGrid's script: the run turns off
``abort_on_missing_resources`` and reads the NavGrid's stored properties from
the PackedScene's state instead. An exported pack is read back with the
engine's ``File``, as the NavGrid reads its graph in a shipped game.

scenes/units_demo.tscn instances the demo scene and adds six PathUnits and
a wall timer; the engine resolves what the scripts will (each unit's
``nav_grid_path``, the cell under each unit) and paints the demo's walls with
``set_cell``, and the units' Python side must agree with it.
"""

import base64
import shutil
from pathlib import Path
from typing import Dict, List, Tuple

import numpy as np
import pytest

from pathing_py.godot.bridge import TileInfo, TileMapNavigator, load_graph
from pathing_py.godot.editor import BakeJob
from pathing_py.godot.units import TilePainter, UnitDriver

ROOT = Path(__file__).resolve().parents[2]

DUMP_DEMO = """extends SceneTree
# Prints what NavGrid reads from the demo's TileMap, one fact per line, tab-separated.

func _init():
\tResourceLoader.set_abort_on_missing_resources(false)  # nav_grid.py needs pythonscript
\tvar scene = load("res://scenes/demo.tscn")
\tvar state = scene.get_state()
\tfor i in range(state.get_node_count()):
\t\tfor p in range(state.get_node_property_count(i)):
\t\t\tvar property_value = str(state.get_node_property_value(i, p))
\t\t\tprint("PROPERTY\\t%s\\t%s\\t%s" % [state.get_node_name(i), state.get_node_property_name(i, p), property_value])
\tvar root = scene.instance()
\tvar tilemap = root.get_node("TileMap")
\tvar rect = tilemap.get_used_rect()
\tprint("RECT\\t%d\\t%d\\t%d\\t%d" % [rect.position.x, rect.position.y, rect.size.x, rect.size.y])
\tprint("CELL_SIZE\\t%s\\t%s" % [tilemap.cell_size.x, tilemap.cell_size.y])
\tprint("MODE\\t%d\\t%d" % [tilemap.mode, tilemap.cell_half_offset])
\tvar words = PoolStringArray()
\tfor word in tilemap.get("tile_data"):
\t\twords.append(str(word))
\tprint("TILE_DATA\\t" + words.join(","))
\tvar tileset = tilemap.tile_set
\tfor id in tileset.get_tiles_ids():
\t\tvar coords = PoolStringArray()
\t\tfor shape in tileset.tile_get_shapes(id):
\t\t\tif shape["shape"] != null:
\t\t\t\tcoords.append("%d %d" % [shape["autotile_coord"].x, shape["autotile_coord"].y])
\t\tvar tile_mode = tileset.tile_get_tile_mode(id)
\t\tprint("TILE\\t%d\\t%s\\t%d\\t%s" % [id, tileset.tile_get_name(id), tile_mode, coords.join(",")])
\tfor cell in tilemap.get_used_cells():
\t\tvar id = tilemap.get_cellv(cell)
\t\tvar coord = tilemap.get_cell_autotile_coord(cell.x, cell.y)
\t\tvar shaped = 0
\t\tvar single_tile = tileset.tile_get_tile_mode(id) == TileSet.SINGLE_TILE
\t\tfor shape in tileset.tile_get_shapes(id):
\t\t\tif shape["shape"] != null and (single_tile or shape["autotile_coord"] == coord):
\t\t\t\tshaped = 1
\t\tprint("CELL\\t%d\\t%d\\t%s\\t%d" % [cell.x, cell.y, tileset.tile_get_name(id), shaped])
\troot.free()
\tprint("DUMP_DONE")
\tquit(0)
"""

#: Bases in the top-left and bottom-right corners (TileMap cells inside their walls).
BASES = ((-2, 1), (33, 22))


def copy_project(destination: Path, extra: Tuple[str, ...] = ()) -> Path:
    """The project files the engine reads, without caches or Python bytecode."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".import")
    for name in ("project.godot", "export_presets.cfg"):
        shutil.copy(ROOT / name, destination / name)
    for folder in ("addons", "scenes", "pathing_py") + extra:
        shutil.copytree(ROOT / folder, destination / folder, ignore=ignore)
    return destination


class DemoDump:
    def __init__(self, output: str):
        self.properties: Dict[Tuple[str, str], str] = {}
        self.tiles: List[TileInfo] = []
        self.cells: Dict[Tuple[int, int], Tuple[str, bool]] = {}
        for line in output.splitlines():
            kind, *fields = line.split("\t")
            if kind == "PROPERTY":
                self.properties[fields[0], fields[1]] = fields[2]
            elif kind == "RECT":
                self.rect = tuple(int(v) for v in fields)
            elif kind == "CELL_SIZE":
                self.cell_size = tuple(float(v) for v in fields)
            elif kind == "MODE":
                self.mode, self.half_offset = (int(v) for v in fields)
            elif kind == "TILE_DATA":
                self.tile_data = [int(v) for v in fields[0].split(",")]
            elif kind == "TILE":
                coords = [tuple(int(v) for v in pair.split()) for pair in fields[3].split(",") if pair]
                self.tiles.append(TileInfo(int(fields[0]), fields[1], int(fields[2]), coords))
            elif kind == "CELL":
                self.cells[int(fields[0]), int(fields[1])] = (fields[2], fields[3] == "1")
        assert "DUMP_DONE" in output, output


@pytest.fixture(scope="module")
def demo(godot, tmp_path_factory) -> DemoDump:
    project = copy_project(tmp_path_factory.mktemp("demo-project"))
    script = project / "dump_demo.gd"
    script.write_text(DUMP_DEMO, encoding="utf-8")
    return DemoDump(godot.run_script(project, script, timeout=120))


def test_demo_tilemap_is_a_walled_rts_map(demo):
    x, y, width, height = demo.rect
    assert (width, height) == (48, 32) and x < 0 and y < 0
    assert len(demo.cells) == width * height  # painted everywhere: no empty cells
    assert (demo.mode, demo.half_offset) == (0, 2)  # square, no half offset: what NavGrid converts
    tiles = {tile.name: tile for tile in demo.tiles}
    assert set(tiles) == {"ground", "wall", "forest", "water", "bridge"}
    assert tiles["wall"].shape_coords == ((0, 0),) and tiles["forest"].shape_coords == ()
    assert tiles["water"].mode == 2 and tiles["water"].shape_coords == ((0, 0),)  # (1, 0) is the ford
    counts = {name: sum(1 for tile, _ in demo.cells.values() if tile == name) for name in tiles}
    assert all(count >= 10 for count in counts.values()), counts


def test_demo_navgrid_is_configured_in_the_scene(demo):
    assert demo.properties["NavGrid", "tilemap_path"] == "../TileMap"
    assert demo.properties["NavGrid", "blocking_tiles"] == "[forest]"
    assert demo.properties["NavGrid", "graph_path"] == "res://scenes/demo.kpg"


def test_navgrid_reads_of_the_demo_give_the_engines_cells(demo):
    navigator = TileMapNavigator.from_tilemap(demo.tile_data, demo.cell_size, demo.tiles, blocking=["forest"])
    grid = navigator.grid
    assert (*grid.origin, grid.width, grid.height) == demo.rect
    expected = np.zeros((grid.height, grid.width), dtype=bool)
    for (x, y), (name, shaped) in demo.cells.items():
        expected[y - grid.origin[1], x - grid.origin[0]] = not (shaped or name == "forest")
    np.testing.assert_array_equal(grid.passable, expected)


def test_the_bases_meet_only_over_bridges_and_fords(demo):
    navigator = TileMapNavigator.from_tilemap(demo.tile_data, demo.cell_size, demo.tiles, blocking=["forest"])
    start, goal = (navigator.centre_of(base) for base in BASES)
    answer = navigator.find_path(start, goal)
    assert answer.status == "FOUND", answer.message
    crossed = {demo.cells[navigator.cell_of(point)][0] for point in answer.points}
    assert crossed & {"bridge", "water"}  # water that is walked on is a ford
    cut = TileMapNavigator.from_tilemap(
        demo.tile_data, demo.cell_size, demo.tiles, blocking=["forest", "bridge", "water"]
    )
    assert cut.find_path(start, goal).status == "UNREACHABLE"


def test_the_navgrid_bake_of_the_demo_is_the_shipped_graph(demo, tmp_path):
    """Baking what the NavGrid reads from the engine gives scenes/demo.kpg byte for byte (as the CLI bakes it)."""
    navigator = TileMapNavigator.from_tilemap(demo.tile_data, demo.cell_size, demo.tiles, blocking=["forest"])
    job = BakeJob(navigator.grid, str(tmp_path / "demo.kpg"), graph_file="res://scenes/demo.kpg")
    job.run()
    assert job.outcome().graph is not None, job.outcome().message
    assert (tmp_path / "demo.kpg").read_bytes() == (ROOT / "scenes" / "demo.kpg").read_bytes()


DUMP_UNITS_DEMO = """extends SceneTree
# Prints what the units demo's scripts will find: dependencies, stored properties, each unit's NavGrid and
# cell, the wall tile, and the TileMap's tile_data once the demo's walls are painted as NavGrid paints them.

func _init():
\tResourceLoader.set_abort_on_missing_resources(false)  # the scripts need pythonscript
\tfor dependency in ResourceLoader.get_dependencies("res://scenes/units_demo.tscn"):
\t\tprint("DEPENDENCY\\t" + dependency.split("::")[0])
\tvar scene = load("res://scenes/units_demo.tscn")
\tvar state = scene.get_state()
\tvar root = scene.instance()
\tvar tilemap = root.get_node("Demo/TileMap")
\tvar walls = PoolVector2Array()
\tfor i in range(state.get_node_count()):
\t\tvar path = state.get_node_path(i)
\t\tfor p in range(state.get_node_property_count(i)):
\t\t\tvar name = state.get_node_property_name(i, p)
\t\t\tvar value = state.get_node_property_value(i, p)
\t\t\tprint("PROPERTY\\t%s\\t%s\\t%s" % [path, name, str(value)])
\t\t\tif name == "wall_cells":
\t\t\t\twalls = value
\t\t\tif name == "nav_grid_path":
\t\t\t\tvar unit = root.get_node(path)
\t\t\t\tvar cell = tilemap.world_to_map(tilemap.to_local(unit.global_position))
\t\t\t\tvar at = unit.global_position
\t\t\t\tvar navgrid = root.get_path_to(unit.get_node(value))
\t\t\t\tprint("UNIT\\t%s\\t%s\\t%d\\t%d\\t%s\\t%s" % [path, navgrid, cell.x, cell.y, at.x, at.y])
\tfor c in range(state.get_connection_count()):
\t\tvar source = state.get_connection_source(c)
\t\tvar target = state.get_connection_target(c)
\t\tvar method = state.get_connection_method(c)
\t\tprint("CONNECTION\\t%s\\t%s\\t%s\\t%s" % [source, state.get_connection_signal(c), target, method])
\tvar origin = tilemap.global_position
\tprint("TILEMAP_AT\\t%s\\t%s" % [origin.x, origin.y])
\tvar wall = tilemap.tile_set.find_tile_by_name("wall")
\tprint("WALL_TILE\\t%d" % wall)
\tfor cell in walls:
\t\ttilemap.set_cell(int(cell.x), int(cell.y), wall)
\tvar words = PoolStringArray()
\tfor word in tilemap.get("tile_data"):
\t\twords.append(str(word))
\tprint("WALLED_TILE_DATA\\t" + words.join(","))
\troot.free()
\tprint("DUMP_DONE")
\tquit(0)
"""


class UnitsDemoDump:
    def __init__(self, output: str):
        assert "DUMP_DONE" in output, output
        self.dependencies: List[str] = []
        self.properties: Dict[Tuple[str, str], str] = {}
        self.units: Dict[str, Tuple[str, Tuple[int, int], Tuple[float, float]]] = {}
        self.connections: List[Tuple[str, ...]] = []
        for line in output.splitlines():
            kind, *fields = line.split("\t")
            if kind == "DEPENDENCY":
                self.dependencies.append(fields[0])
            elif kind == "PROPERTY":
                self.properties[fields[0], fields[1]] = fields[2]
            elif kind == "UNIT":
                cell, at = (int(fields[2]), int(fields[3])), (float(fields[4]), float(fields[5]))
                self.units[fields[0]] = (fields[1], cell, at)
            elif kind == "CONNECTION":
                self.connections.append(tuple(fields))
            elif kind == "TILEMAP_AT":
                self.tilemap_at = (float(fields[0]), float(fields[1]))
            elif kind == "WALL_TILE":
                self.wall_tile = int(fields[0])
            elif kind == "WALLED_TILE_DATA":
                self.walled_tile_data = [int(v) for v in fields[0].split(",")]

    def cells(self, node: str, name: str) -> List[Tuple[int, int]]:
        """A PoolVector2Array property, as str() prints it: [(35, 21), (33, 23), …]."""
        pairs = self.properties[node, name].strip("[]").split("), (")
        return [tuple(int(float(v)) for v in pair.strip("()").split(", ")) for pair in pairs]


@pytest.fixture(scope="module")
def units_demo(godot, tmp_path_factory) -> UnitsDemoDump:
    project = copy_project(tmp_path_factory.mktemp("units-demo-project"))
    script = project / "dump_units_demo.gd"
    script.write_text(DUMP_UNITS_DEMO, encoding="utf-8")
    return UnitsDemoDump(godot.run_script(project, script, timeout=120))


def units_driver(demo: DemoDump, units_demo: UnitsDemoDump) -> UnitDriver:
    """The units' Python side as the NavGrid of the units demo builds it from what the engine gives."""
    navigator = TileMapNavigator.from_tilemap(demo.tile_data, demo.cell_size, demo.tiles, blocking=["forest"])
    painter = TilePainter.choose(demo.tiles, units_demo.properties["./Demo/NavGrid", "wall_tile"], blocking=["forest"])
    x, y = units_demo.tilemap_at
    return UnitDriver(navigator, ((x, y), (x + 1, y), (x, y + 1)), painter=painter)


def test_units_demo_loads_the_demo_map_the_unit_scripts_and_a_wall_timer(units_demo):
    assert {"res://scenes/demo.tscn", "res://addons/pathing_py/path_unit.py", "res://scenes/units_demo.py"} <= set(
        units_demo.dependencies
    )
    assert units_demo.properties["./WallTimer", "wait_time"] == "3"
    assert ("WallTimer", "timeout", ".", "_on_wall_timer_timeout") in units_demo.connections
    assert len(units_demo.cells(".", "targets")) == len(units_demo.units) == 6


def test_every_unit_finds_the_navgrid_and_stands_where_the_driver_puts_it(demo, units_demo):
    driver = units_driver(demo, units_demo)
    for key, (node_path, (navgrid, engine_cell, at)) in enumerate(sorted(units_demo.units.items())):
        assert navgrid == "Demo/NavGrid", node_path
        transform = (at, (at[0] + 1, at[1]), (at[0], at[1] + 1))  # the units' parent sits at the origin
        assert driver.add(key, node_path, transform, transform, speed=4.0)
        held = driver.set_cell_blocked(engine_cell, True)  # refused: the unit holds the cell it stands in
        assert held.status == "CELL_HELD" and f"unit {key} holds TileMap cell {engine_cell}" in held.message


def test_the_engine_paints_the_walls_the_driver_blocks(demo, units_demo):
    """NavGrid.set_cell_blocked: the driver's tile and cell, painted by the engine, read back as its grid."""
    driver = units_driver(demo, units_demo)
    assert driver.painter.problem == "" and driver.painter.wall == units_demo.wall_tile
    for cell in units_demo.cells(".", "wall_cells"):
        edit = driver.set_cell_blocked(cell, True)
        assert edit and edit.cell == cell and edit.tile == units_demo.wall_tile
    walled = TileMapNavigator.from_tilemap(units_demo.walled_tile_data, demo.cell_size, demo.tiles, blocking=["forest"])
    np.testing.assert_array_equal(walled.grid.passable, driver.navigator.grid.passable)


READ_GRAPH = """extends SceneTree
# Reads the demo's graph with File, as nav_grid.read_project_file does, from the pack given with --main-pack.

func _init():
\tvar file = File.new()
\tvar error = file.open("res://scenes/demo.kpg", File.READ)
\tprint("OPEN\\t%d" % error)
\tif error == OK:
\t\tprint("BYTES\\t" + Marshalls.raw_to_base64(file.get_buffer(file.get_len())))
\t\tfile.close()
\tquit(0)
"""


def test_an_exported_game_reads_its_graph_from_the_pack(godot, demo, tmp_path):
    """In a shipped game res:// is the .pck: File reads the graph from it, and it fits the map there."""
    project = tmp_path / "project"
    project.mkdir()
    copy_project(project)
    pack = tmp_path / "game.pck"
    godot.run(["--no-window", "--path", str(project), "--export-pack", "Linux/X11", str(pack)], timeout=180)
    script = tmp_path / "read_graph.gd"
    script.write_text(READ_GRAPH, encoding="utf-8")
    output = godot.run(["--no-window", "--main-pack", str(pack), "-s", str(script)], timeout=60, cwd=tmp_path)
    lines = dict(line.split("\t", 1) for line in output.splitlines() if line.startswith(("OPEN\t", "BYTES\t")))
    assert lines.get("OPEN") == "0", output
    data = base64.b64decode(lines["BYTES"])
    assert data == (ROOT / "scenes" / "demo.kpg").read_bytes()
    navigator = TileMapNavigator.from_tilemap(demo.tile_data, demo.cell_size, demo.tiles, blocking=["forest"])
    loaded = load_graph("res://scenes/demo.kpg", data, navigator.grid, rebake=True)
    assert loaded.warning == "" and loaded.graph is not None
