"""The in-engine half of bench/bench_engine.py: NavGrid against Godot's AStar2D, and PathUnits per frame.

Runs in Godot 3.2 with pythonscript 0.50, as the main scene of a project copy
(``bench/bench_engine.py`` makes it). For each Moving AI map: the map becomes
a TileMap (a floor tile, and a wall tile with a collision shape), read by a
NavGrid with the exact search and by one with the key-point graph (baked here
by pathing_py, loaded through ``graph_path``), and by an AStar2D built as a
GDScript game would build it; the same long scenarios are asked of all three.
Then PathUnits under one NavGrid get random reachable orders; the engine
runs physics frames until every order is planned, then the timed frames of
units on the move; the NavGrid's ``_physics_process`` is timed in each. Last,
groups of PathUnits, each ordered by a GroupManager of its own in formation
(the host sends bench_groups.py's scenario): the frames until the first order
ends are timed: the NavGrid's ``_physics_process``, which emits the managers' signals too.

The settings come as one JSON argument, ``--bench-settings={...}``; every
measurement is printed as one JSON object a line, and ``{"done": true}`` last.
The host renders the tables.
"""

import ctypes
import gc
import json
import math
import os
import random
import time
import traceback
from typing import Dict, Iterator, List, Optional, Tuple

import numpy as np
from godot import (
    OS,
    Array,
    AStar2D,
    Node,
    Node2D,
    NodePath,
    PoolVector2Array,
    ProjectSettings,
    RectangleShape2D,
    ResourceLoader,
    Script,
    TileMap,
    TileSet,
    Transform2D,
    Vector2,
    exposed,
)

from pathing_py import Grid, KeyPointGraph
from pathing_py.status import Status
from pathing_py.tools.movingai import Scenario, read_scenarios

SETTINGS_PREFIX = "--bench-settings="
#: TileMap cells are CELL x CELL pixels; the NavGrid answers in pixels, AStar2D in cells.
CELL = 16
FLOOR_TILE, WALL_TILE = 0, 1
#: The scenarios of a map are drawn from its POOL * per_map longest: the top buckets of its file.
POOL = 2
GRAPH_FOLDER = "res://bench/engine/graphs"
NAV_GRID_SCRIPT = "res://addons/pathing_py/nav_grid.py"
PATH_UNIT_SCRIPT = "res://addons/pathing_py/path_unit.py"
GROUP_MANAGER_SCRIPT = "res://addons/pathing_py/group_manager.py"
#: Game seconds a frame of the groups' run: the updates bench_groups.py times (30 a second).
GROUP_FRAME_SECONDS = 1 / 30
#: An open square map measured first and not reported: the first NavGrid, query and AStar2D of the
#: process pay for imports and pythonscript's binding caches, which would count as the first map's memory.
WARM_UP_SIDE = 64
LIBC = ctypes.CDLL("libc.so.6")
PAGE_BYTES = os.sysconf("SC_PAGE_SIZE")


def resident_bytes() -> int:
    """The process's resident memory (/proc/self/statm) once freed memory went back to the system.

    Without ``malloc_trim`` the heap keeps what earlier maps freed, and a
    structure built later would seem to cost nothing.
    """
    gc.collect()
    LIBC.malloc_trim(0)
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * PAGE_BYTES


def emit(**fields) -> None:
    print(json.dumps(fields), flush=True)


def longest_scenarios(scenarios: List[Scenario], count: int, rng: random.Random) -> List[Scenario]:
    """``count`` scenarios drawn from the ``POOL * count`` longest of the file, short to long."""
    pool = sorted(scenarios, key=lambda scenario: scenario.optimal_length)[-POOL * count :]
    return sorted(rng.sample(pool, min(count, len(pool))), key=lambda scenario: scenario.optimal_length)


def make_tileset() -> TileSet:
    """A floor tile and a wall tile whose collision shape covers the cell."""
    tileset = TileSet()
    for tile, name in ((FLOOR_TILE, "floor"), (WALL_TILE, "wall")):
        tileset.create_tile(tile)
        tileset.tile_set_name(tile, name)
    shape = RectangleShape2D()
    shape.set_extents(Vector2(CELL / 2, CELL / 2))
    tileset.tile_add_shape(WALL_TILE, shape, Transform2D(Vector2(1, 0), Vector2(0, 1), Vector2(CELL / 2, CELL / 2)))
    return tileset


def make_tilemap(passable: np.ndarray, tileset: TileSet) -> TileMap:
    """A TileMap of the map, one ``set_cell`` a cell."""
    tilemap = TileMap.new()
    tilemap.set_name("TileMap")
    tilemap.set_tileset(tileset)
    tilemap.set_cell_size(Vector2(CELL, CELL))
    for y, row in enumerate(np.where(passable, FLOOR_TILE, WALL_TILE).tolist()):
        for x, tile in enumerate(row):
            tilemap.set_cell(x, y, tile)
    return tilemap


def add_navgrid(parent: Node, script: Script, name: str, graph_path: str) -> Tuple[Node2D, float]:
    """A NavGrid reading the sibling TileMap (unsmoothed paths, as AStar2D gives), and the seconds its ``_ready``
    took."""
    navgrid = Node2D.new()
    navgrid.set_script(script)
    navgrid.set_name(name)
    navgrid.set("tilemap_path", NodePath("../TileMap"))
    navgrid.set("smooth_paths", False)
    navgrid.set("graph_path", graph_path)
    elapsed, _ = timed(lambda: parent.add_child(navgrid))  # _ready reads the TileMap and loads the graph
    problem = str(navgrid.call("_get_configuration_warning"))
    if str(navgrid.call("get_last_status")) != Status.BUILT.value or problem:
        raise RuntimeError(f"{name} did not read the TileMap as it should: {problem}")
    return navgrid, elapsed


def build_astar(passable: np.ndarray) -> Tuple[AStar2D, np.ndarray]:
    """AStar2D over the free cells (compact ids, one point a cell at its cell coordinates) and the id of each cell.

    8-connected; a diagonal only where both orthogonal neighbours are free. The
    cost of a connection is the euclidean distance between its points: 1 or sqrt(2).
    """
    height, width = passable.shape
    ids = np.full((height, width), -1, dtype=np.int32)
    ys, xs = np.nonzero(passable)
    ids[ys, xs] = np.arange(len(xs), dtype=np.int32)
    astar = AStar2D()
    astar.reserve_space(len(xs))
    for point, x, y in zip(range(len(xs)), xs.tolist(), ys.tolist()):
        astar.add_point(point, Vector2(x, y))
    right = passable[:, :-1] & passable[:, 1:]
    down = passable[:-1, :] & passable[1:, :]
    square = right[:-1, :] & right[1:, :] & down[:, :-1] & down[:, 1:]  # all four cells of a 2x2 square free
    links = (  # (where links start, offset of their first cell, of their second): both diagonals of a free square
        (right, (0, 0), (1, 0)),
        (down, (0, 0), (0, 1)),
        (square, (0, 0), (1, 1)),
        (square, (1, 0), (0, 1)),
    )
    for mask, (ax, ay), (bx, by) in links:
        ys, xs = np.nonzero(mask)
        for a, b in zip(ids[ys + ay, xs + ax].tolist(), ids[ys + by, xs + bx].tolist()):
            astar.connect_points(a, b, True)
    return astar, ids


def path_cells(path: PoolVector2Array, scale: float) -> np.ndarray:
    """The cells of a returned path: points divided by ``scale`` (CELL for pixel centres, 1 for cells), floored."""
    points = np.array([(point.x, point.y) for point in path], dtype=float).reshape(-1, 2)
    return np.floor(points / scale + 1e-6).astype(np.int64)


def path_length(cells: np.ndarray, scenario: Scenario, passable: np.ndarray) -> Tuple[Optional[float], str]:
    """(octile length, "") of a legal path for the scenario, or (None, what is wrong).

    Legal: start to goal over free cells by king moves, no diagonal past a blocked side.
    """
    if len(cells) == 0:
        return None, "no path"
    if tuple(cells[0]) != scenario.start or tuple(cells[-1]) != scenario.goal:
        return None, f"path runs {tuple(cells[0])}..{tuple(cells[-1])}"
    xs, ys = cells[:, 0], cells[:, 1]
    if not passable[ys, xs].all():
        return None, "path crosses a blocked cell"
    steps = np.diff(cells, axis=0)
    if (np.abs(steps).max(axis=1) != 1).any():
        return None, "path has a step that is not a king move"
    diagonal = (steps[:, 0] != 0) & (steps[:, 1] != 0)
    if not (passable[ys[:-1], xs[1:]][diagonal] & passable[ys[1:], xs[:-1]][diagonal]).all():
        return None, "path cuts a corner"
    diagonals = int(diagonal.sum())
    return float(len(steps) - diagonals) + math.sqrt(2.0) * diagonals, ""


def timed(action) -> Tuple[float, object]:
    """Seconds ``action()`` took, and what it returned."""
    started = time.perf_counter()
    answer = action()
    return time.perf_counter() - started, answer


def best_ms(repeat: int, query) -> Tuple[float, object]:
    """The fastest of ``repeat`` runs of ``query`` in ms (other processes share the machine), and its answer."""
    runs = [timed(query) for _ in range(repeat)]
    return min(seconds for seconds, _ in runs) * 1000.0, runs[-1][1]


def graph_file(name: str) -> str:
    """The ``res://`` path of a map's baked key-point graph in the project copy."""
    return f"{GRAPH_FOLDER}/{name}.kpg"


def cell_centre(cell: Tuple[int, int]) -> Vector2:
    """TileMap-local pixels of a cell's centre (the TileMap is not moved)."""
    return Vector2((cell[0] + 0.5) * CELL, (cell[1] + 0.5) * CELL)


def free_node(parent: Node, node: Node) -> None:
    parent.remove_child(node)
    node.free()


def frame_ms(navgrid: Node2D, delta: float, parts: List[List[float]]) -> float:
    """One frame of the NavGrid's units, called here instead of by the engine: its milliseconds. How they split
    (the NavGrid's ``get_frame_times``: navigation, node sync, signals) is added to ``parts``."""
    seconds, _ = timed(lambda: navgrid.call("_physics_process", delta))
    parts.append([float(value) for value in navgrid.call("get_frame_times")])
    return seconds * 1000.0


def split_medians(parts: List[List[float]]) -> Dict[str, float]:
    """The median milliseconds of each part of the frames (see :func:`frame_ms`)."""
    return dict(zip(("navigation_ms", "sync_ms", "signals_ms"), np.median(np.array(parts), axis=0).tolist()))


def state_counts(units: List[Node2D]) -> Dict[str, int]:
    """How many of the PathUnits are in each state."""
    states: Dict[str, int] = {}
    for unit in units:
        state = str(unit.call("get_state"))
        states[state] = states.get(state, 0) + 1
    return states


def percentile(values: List[float], q: float) -> float:
    return float(np.percentile(values, q)) if values else float("nan")


@exposed
class NavigationBench(Node):
    """Runs the benchmark one physics frame after another: maps first (in one frame), then the units."""

    _steps: Optional[Iterator[None]] = None
    _delta = 1.0 / 60.0

    def _ready(self) -> None:
        settings = {}
        for argument in OS.get_cmdline_args():
            if str(argument).startswith(SETTINGS_PREFIX):
                settings = json.loads(str(argument)[len(SETTINGS_PREFIX) :])
        # Engine resources this node holds, dropped before the engine quits (else it reports them leaked).
        self._nav_grid_script = ResourceLoader.load(NAV_GRID_SCRIPT)
        self._path_unit_script = ResourceLoader.load(PATH_UNIT_SCRIPT)
        self._group_manager_script = ResourceLoader.load(GROUP_MANAGER_SCRIPT)
        self._groups_arrived = 0
        self._tileset = make_tileset()
        os.makedirs(str(ProjectSettings.globalize_path(GRAPH_FOLDER)), exist_ok=True)
        self._steps = self._run(settings)
        self.set_physics_process(True)

    def _physics_process(self, delta: float) -> None:
        self._delta = delta
        code = 0
        try:
            next(self._steps)
            return
        except StopIteration:
            emit(done=True)
        except Exception:  # an exception in a callback would leave a headless engine running
            traceback.print_exc()
            code = 1
        self.set_physics_process(False)
        self._steps = self._nav_grid_script = self._path_unit_script = self._group_manager_script = self._tileset = None
        self.get_tree().quit(code)

    def _run(self, settings: Dict) -> Iterator[None]:
        folder = settings["maps_dir"]
        corner = WARM_UP_SIDE - 1
        open_map = Grid(np.ones((WARM_UP_SIDE, WARM_UP_SIDE), dtype=bool))
        self._measure_map("warm-up", open_map, [Scenario(0, (0, 0), (corner, corner), corner * math.sqrt(2.0))], 1)
        grids = {name: Grid.from_movingai(os.path.join(folder, f"{name}.map")) for name in settings["maps"]}
        for name, grid in grids.items():
            scenarios = read_scenarios(os.path.join(folder, f"{name}.map.scen"))
            sample = longest_scenarios(scenarios, settings["per_map"], random.Random(settings["seed"]))
            emit(**self._measure_map(name, grid, sample, settings["repeat"]))
        yield
        name = settings["units_map"]
        grid = grids.get(name) or Grid.from_movingai(os.path.join(folder, f"{name}.map"))
        if name not in grids and settings["units"]:
            self._bake(name, grid)
            grids[name] = grid
        for count in settings["units"]:
            for search in ("exact", "graph"):
                yield from self._measure_units(name, grid, search, count, settings)
        if settings["group_starts"]:
            name = settings["groups_map"]
            grid = grids.get(name) or Grid.from_movingai(os.path.join(folder, f"{name}.map"))
            if name not in grids:
                self._bake(name, grid)
            yield from self._measure_groups(name, grid, settings)

    def _add_tilemap(self, passable: np.ndarray) -> TileMap:
        """The map as a TileMap under this node, its quadrants (collision bodies included) built at once."""
        tilemap = make_tilemap(passable, self._tileset)
        self.add_child(tilemap)
        tilemap.update_dirty_quadrants()
        return tilemap

    def _add_navgrid(self, name: str, graph_path: str) -> Tuple[Node2D, float]:
        return add_navgrid(self, self._nav_grid_script, name, graph_path)

    def _bake(self, name: str, grid: Grid) -> float:
        """Bake the map's key-point graph with pathing_py into the project copy (``graph_file``); the seconds it
        took."""
        path = str(ProjectSettings.globalize_path(graph_file(name)))
        return timed(lambda: KeyPointGraph.bake(grid).save(path))[0]

    def _measure_map(self, name: str, grid: Grid, sample: List[Scenario], repeat: int) -> Dict:
        """Build the three structures (timed, RSS before and after each), then ask each the same scenarios."""
        passable = grid.passable
        bake_s = self._bake(name, grid)
        tilemap_s, tilemap = timed(lambda: self._add_tilemap(passable))
        first = sample[0]

        before = resident_bytes()
        exact, read_s = self._add_navgrid("NavGridExact", "")
        first_query_s, _ = timed(lambda: exact.call("find_path", cell_centre(first.start), cell_centre(first.goal)))
        exact_bytes = resident_bytes() - before

        before = resident_bytes()
        graphed, load_s = self._add_navgrid("NavGridGraph", graph_file(name))
        graphed.call("find_path", cell_centre(first.start), cell_centre(first.goal))
        graph_bytes = resident_bytes() - before

        before = resident_bytes()
        astar_s, (astar, ids) = timed(lambda: build_astar(passable))
        astar_bytes = resident_bytes() - before

        solvers = {
            "exact": (lambda s: exact.call("find_path", cell_centre(s.start), cell_centre(s.goal)), CELL),
            "graph": (lambda s: graphed.call("find_path", cell_centre(s.start), cell_centre(s.goal)), CELL),
            "astar": (
                lambda s: astar.get_point_path(ids[s.start[1], s.start[0]].item(), ids[s.goal[1], s.goal[0]].item()),
                1,
            ),
        }
        queries = []
        gc.collect()
        gc.freeze()  # no collection rescanning the maps' objects in the middle of a timed query
        try:
            for scenario in sample:
                row = {"bucket": scenario.bucket, "optimal": scenario.optimal_length}
                for solver, (query, scale) in solvers.items():
                    ms, path = best_ms(repeat, lambda: query(scenario))
                    length, problem = path_length(path_cells(path, scale), scenario, passable)
                    row[solver] = {"ms": ms, "length": length, "problem": problem}
                queries.append(row)
        finally:
            gc.unfreeze()
        for node in (exact, graphed, tilemap):
            free_node(self, node)
        return dict(
            map=name,
            width=grid.width,
            height=grid.height,
            bake_s=bake_s,
            tilemap_s=tilemap_s,
            read_s=read_s,
            first_query_s=first_query_s,
            load_s=load_s,
            astar_s=astar_s,
            bytes={"exact": exact_bytes, "graph": graph_bytes, "astar": astar_bytes},
            queries=queries,
        )

    def _measure_units(self, name: str, grid: Grid, search: str, count: int, settings: Dict) -> Iterator[None]:
        """``count`` PathUnits under one NavGrid, each sent to a random cell it can reach; time the NavGrid's frames.

        The engine runs the frames (``--fixed-fps 60``); this node calls the
        NavGrid's ``_physics_process`` in each, timed, instead of the engine.
        """
        rng = random.Random(settings["seed"])
        tilemap = self._add_tilemap(grid.passable)
        navgrid, _ = self._add_navgrid("NavGrid", graph_file(name) if search == "graph" else "")
        navgrid.set_physics_process(False)
        free = [(int(x), int(y)) for y, x in np.argwhere(grid.passable)]
        units = []
        for index, start in enumerate(rng.sample(free, count)):
            goal = rng.choice(free)
            while goal == start or not grid.same_island(start, goal):
                goal = rng.choice(free)
            unit = Node2D.new()
            unit.set_script(self._path_unit_script)
            unit.set_name(f"Unit{index}")
            unit.set("nav_grid_path", NodePath(".."))
            unit.set_position(cell_centre(start))
            navgrid.add_child(unit)
            if not unit.call("move_to", cell_centre(goal)):
                raise RuntimeError(f"unit {index} refused its order: {unit.call('get_last_status')}")
            units.append(unit)
        # Planning: frames until no unit waits for its plan (the NavGrid spends plan_budget_ms a frame on
        # orders, and at least one order a frame). Then moving: the timed frames of the target.
        planning: List[float] = []
        parts: List[List[float]] = []
        while any(str(unit.call("get_state")) == Status.FIND_PATH.value for unit in units):
            yield
            planning.append(frame_ms(navgrid, self._delta, []))
        frames = []
        for _ in range(settings["frames"]):
            yield
            frames.append(frame_ms(navgrid, self._delta, parts))
        emit(
            **split_medians(parts),
            units=count,
            map=name,
            search=search,
            planning_frames=len(planning),
            planning_ms_per_order=sum(planning) / count,
            frames=len(frames),
            median_ms=percentile(frames, 50),
            p99_ms=percentile(frames, 99),
            max_ms=max(frames),
            states=state_counts(units),
        )
        free_node(self, navgrid)
        free_node(self, tilemap)

    def _measure_groups(self, name: str, grid: Grid, settings: Dict) -> Iterator[None]:
        """Groups of PathUnits under one NavGrid planning on the map's graph, each ordered by a GroupManager of
        its own in a box at spacing 2 (``group_starts``, ``group_targets``: cells); time the NavGrid's
        ``_physics_process`` (which emits the managers' signals too) until a group has arrived (or ``group_frames``)."""
        tilemap = self._add_tilemap(grid.passable)
        navgrid, _ = self._add_navgrid("NavGrid", graph_file(name))
        navgrid.set_physics_process(False)
        managers, units = [], []
        for index, (starts, target) in enumerate(zip(settings["group_starts"], settings["group_targets"])):
            manager = Node.new()
            manager.set_script(self._group_manager_script)
            manager.set_name(f"GroupManager{index}")  # beside the NavGrid: its nav_grid_path is ../NavGrid
            manager.set("formation", "box")
            manager.set("spacing", 2.0)
            self.add_child(manager)
            manager.connect("group_arrived", self, "_on_group_arrived")
            members = Array()
            for number, start in enumerate(starts):
                unit = Node2D.new()
                unit.set_script(self._path_unit_script)
                unit.set_name(f"Group{index}Unit{number}")
                unit.set("nav_grid_path", NodePath(".."))
                unit.set_position(cell_centre(tuple(start)))
                navgrid.add_child(unit)
                members.append(unit)
                units.append(unit)
            status = str(manager.call("order_move", members, cell_centre(tuple(target))))
            if status != Status.OK.value:
                raise RuntimeError(f"group {index} refused its order: {status}")
            managers.append(manager)

        self._groups_arrived = 0
        frames: List[float] = []
        parts: List[List[float]] = []
        while not self._groups_arrived and len(frames) < settings["group_frames"]:
            yield
            frames.append(frame_ms(navgrid, GROUP_FRAME_SECONDS, parts))
        emit(
            **split_medians(parts),
            groups=len(managers),
            members=len(settings["group_starts"][0]),
            map=name,
            frames=len(frames),
            ended=bool(self._groups_arrived),
            median_ms=percentile(frames, 50),
            p99_ms=percentile(frames, 99),
            max_ms=max(frames),
            states=state_counts(units),
        )
        for manager in managers:
            free_node(self, manager)
        free_node(self, navgrid)
        free_node(self, tilemap)

    def _on_group_arrived(self, _group_id: int, _arrived: int, _members: int) -> None:
        self._groups_arrived += 1
