"""The ``pathing-py`` command.

Every subcommand reads a map: a Godot ``.tscn`` TileMap (as the scene's
NavGrid node reads it), a Moving AI ``.map`` or an ASCII ``.txt``.

``pathing-py demo [MAP] [--out demo.gif]`` runs units on a map (by default
the bundled demo scene) with the key-point graph baked beside it: seeded
orders, walls put up across their routes while they walk; it draws the run
into an animated GIF (a progress bar of the frames drawn on stderr) and prints
how each unit ended, the length it walked against the optimal one, its
re-planning, and the time per update.

``pathing-py demo --scenario NAME [--out demo.gif]`` runs a group in formation
on a small map made for one thing formations do (``gap``: a box scales down
through a gap; ``turn``: a line forms again when it turns; ``lake``: a box
halves around a lake; ``all``: the three side by side), draws it the same way
with each group's commander marked, and prints each group's events with their
game times, its time to form, the spread of its members' arrivals, its
searches per order and how many pairs of units overlapped (checked after
every update).

``pathing-py demo --scenario armies`` (or ``crossroads``) runs a crowd of
:mod:`pathing_py.tools.scenarios` instead: two armies crossing a wall through its
gates (two streams crossing at a crossroads), drawn the same way; it prints how
the units ended (and why, for each that did not arrive), the pairs of units
that overlapped and the circles in walls (checked after every update: both
must be 0) and the time per update.

``pathing-py paths [MAP]`` answers a few seeded path orders on a map (each
between two cells of one island, so that a path joins them), prints
what each cost, and draws the map with the paths into a PNG, each cell in its
real shape (squares, isometric diamonds, custom parallelograms, half-offset
rows or columns) at a size a person can read. Half-offset (hexagonal) TileMaps
are searched over the six neighbours of each cell, their costs in TileMap
pixels, and smoothed along hex lines, and so are ``bake`` and ``render``'s graphs; the units' commands refuse
them (their units step between eight or four neighbours).

``pathing-py bake MAP [--out FILE] [--cluster-size N]`` bakes the map's
key-point graph into a file (by default beside the map, suffix ``.kpg``),
with a progress bar on stderr, and prints its figures.

``pathing-py render MAP --graph FILE --out PNG [--paths N]`` draws the map,
the graph's clusters, key points and edges, and seeded paths found on the graph.

Cells printed and taken are TileMap cells (as the NavGrid's), for every map:
a Moving AI or ASCII map's cells start at (0, 0). A scene's map covers its
TileMap's painted rectangle, or ``--bounds X Y WIDTH HEIGHT`` (or its NavGrid's
``bounds``) for games that paint only obstacles.

``demo``, ``paths`` and ``render`` write their pictures with Pillow, the
optional extra: ``pip install 'pathing_py[pictures]'``; without it they stop
before any work with one line saying so.
"""

import argparse
import math
import random
import sys
import time
from pathlib import Path
from typing import Callable, Dict, List, NamedTuple, Optional, Sequence, TextIO, Tuple

import numpy as np

from ..cell_layout import SQUARE_CELLS, CellLayout
from ..debug import draw_commander, draw_grid, paths_picture, side_by_side, units_picture, write_png
from ..godot.bridge import bake_graph, load_graph
from ..godot.scene_files import TileMapData, nav_grid_settings, read_tilemap
from ..godot.tile_data import UNKNOWN_TILES, CellRect, cell_rect, tiles_that_cannot_block
from ..grid import CONNECTIVITIES, Cell, Grid, MapFormatError
from ..hex_grid import HexSteps, find_hex_path, hex_islands
from ..hex_lines import smooth_hex_path
from ..hierarchy import HexKeyPointGraph, KeyPointGraph
from ..line import smooth_path
from ..map_pictures import MAX_SIDE, MIN_CELL_EDGE, MIN_WIDTH, MapPicture
from ..pillow import PillowMissing, pillow_image
from ..search import PathResult, find_path, prepare
from ..units import CollisionState, Navigator, Resolution, UnitState
from .animation import GifWriter
from .changing_map import FINAL_STATES, Order, Wall, drop_wall, give_orders, update_ms
from .crowd_runs import CrowdRun
from .formation_scenarios import SCENARIOS, FormationRun
from .scenarios import CrowdScenario, armies, crossroads

__all__ = ["main", "LoadedMap", "load_map"]

DEMO_SCENE = Path(__file__).resolve().parents[2] / "scenes" / "demo.tscn"
#: The commands that write pictures (PNG, GIF): they need Pillow, the extra ``pictures``.
PICTURE_COMMANDS = ("demo", "paths", "render")
#: ``render`` picks a scale that keeps the picture's longer side at most this many pixels.
MAX_PICTURE_SIDE = 2048


class LoadedMap(NamedTuple):
    """A map read by :func:`load_map`: its grid, what pictures need of its terrain, what to tell the user, and
    where its cells lie (a TileMap's cells in its pixels, half offset included; square cells for other maps)."""

    grid: Grid
    terrain: dict
    notes: List[str]
    layout: CellLayout = SQUARE_CELLS


def load_map(
    path: Path,
    tilemap: Optional[str] = None,
    blocking: Sequence[str] = (),
    *,
    bounds: Optional[CellRect] = None,
    unknown_tiles: str = "error",
    connectivity: Optional[int] = None,
    layers: Optional[Sequence[str]] = None,
    empty_passable: Optional[bool] = None,
) -> LoadedMap:
    """A grid from any map file we read, chosen by its suffix, and what pictures need of its terrain.

    A scene is read as its NavGrid node will read it in the game (its TileMap,
    layers, blocking tiles, empty-cell rule and bounds) unless ``tilemap`` or
    ``blocking`` say otherwise; ``bounds`` (TileMap cells) replaces the NavGrid's,
    ``layers`` (TileMaps stacked on the map's cells) its ``layer_paths``. The notes
    say which tiles block and warn of a TileSet without any collision shape.
    ``connectivity`` (8 or 4) is the grid's; None takes a scene's NavGrid's, else 8.
    ``empty_passable`` (whether cells without a tile are walkable) replaces the NavGrid's
    ``empty_cells_passable``; None takes it, else True. A half-offset TileMap's grid is its
    obstacle table, its ``layout`` hexagonal: search it with :func:`pathing_py.hex_grid.find_hex_path`.
    """
    suffix = path.suffix.lower()
    if suffix != ".tscn" and (bounds is not None or unknown_tiles != "error" or layers or empty_passable is not None):
        raise MapFormatError(
            f"{path}: bounds, layers, empty cells and unknown tiles apply to Godot scenes (.tscn) only"
        )
    if suffix == ".tscn":
        empty_cells, navgrid_bounds, notes = True, None, []
        navgrid_layers: Sequence[str] = ()
        nav_grids = nav_grid_settings(path)
        if connectivity is None and nav_grids:
            connectivity = nav_grids[0].connectivity
            if connectivity != 8:
                notes.append(f"{connectivity}-connected, as NavGrid {nav_grids[0].node_path!r} says")
        if nav_grids and tilemap is None and not blocking:
            settings = nav_grids[0]
            tilemap, blocking, empty_cells = settings.tilemap, settings.blocking, settings.empty_passable
            navgrid_bounds, navgrid_layers = settings.bounds, settings.layers
            notes.append(
                f"read as NavGrid {settings.node_path!r} does: TileMap {tilemap!r}, blocking {blocking}"
                + (f", bounds {navgrid_bounds}" if navgrid_bounds else "")
                + (f", layers {list(navgrid_layers)}" if navgrid_layers and layers is None else "")
                + ("" if empty_cells else ", empty cells block")
            )
        empty_passable = empty_cells if empty_passable is None else empty_passable
        layers = navgrid_layers if layers is None else layers
        data = read_tilemap(
            path, tilemap=tilemap, blocking=list(blocking) or None, unknown_tiles=unknown_tiles, layers=layers
        )
        area = data.area(bounds or navgrid_bounds)
        if data.geometry.hexagonal:
            grid = data.hex_map(empty_passable=empty_passable, bounds=area).grid
        else:
            grid = data.grid(empty_passable=empty_passable, bounds=area, connectivity=connectivity or 8)
        moves = (
            "six neighbours a cell, costs in pixels"
            if data.geometry.hexagonal
            else ("paths draws its cells in their shape, demo and render as squares")
        )
        notes.append(f"TileMap {data.node_path!r}: {data.geometry.describe()}; {moves}")
        if data.layers:
            notes.append(
                f"layers stacked on it: {', '.join(repr(layer.node_path) for layer in data.layers)} "
                "(a cell blocks where any layer's tile blocks; pictures show the tiles of the first TileMap)"
            )
        notes += blocking_notes(data, area, empty_passable)
        terrain = {"tiles": data.cells.raster(data.cells.tile, -1, area), "names": data.names}
        return LoadedMap(grid, terrain, notes, data.geometry.layout())
    if suffix == ".map":
        return LoadedMap(Grid.from_movingai(path, connectivity=connectivity or 8), {}, [])
    if suffix == ".txt":
        return LoadedMap(Grid.from_ascii(path.read_text(), connectivity=connectivity or 8), {}, [])
    raise MapFormatError(f"{path}: unknown map type {suffix!r} (expected .tscn, .map or .txt)")


def blocking_notes(data: TileMapData, area: CellRect, empty_passable: bool) -> List[str]:
    """Which tiles block in ``area`` and why (drawn as blocked cells), layer by layer, and a warning when no
    TileSet has a collision shape."""
    reasons = []
    for layer in (data, *data.layers):
        cells = layer.cells
        tiles, counts = np.unique(cells.tile[area.contains(cells.x, cells.y) & layer.blocked], return_counts=True)
        where = f" in {layer.node_path!r}" if data.layers else ""
        reasons += [
            f"{repr(layer.names[tile]) if tile in layer.names else f'id {tile}'} ({count} cells{where}, "
            + ("listed in blocking" if tile in layer.listed else "collision shape")
            + ")"
            for tile, count in zip(tiles.tolist(), counts.tolist())
        ]
    if not empty_passable:
        reasons.append("cells without a tile (empty cells block)")
    notes = [f"blocking (drawn as blocked cells): {', '.join(reasons) if reasons else 'no tile'}"]
    unblocking = (
        []
        if any(layer.collision and any(layer.collision.values()) for layer in data.layers)
        else tiles_that_cannot_block(data.names, data.collision, data.listed)
    )
    if unblocking:
        names = ", ".join(repr(name) for name in unblocking)
        notes.append(
            f"warning: the TileSet has no collision shapes, so no tile blocks; "
            f"name the obstacle tiles with --blocking (tiles: {names})"
        )
    return notes


def tilemap_cell(grid: Grid, cell: Cell) -> Cell:
    """The TileMap cell of a grid cell: what the user sees and types."""
    return cell[0] + grid.origin[0], cell[1] + grid.origin[1]


def grid_cell(grid: Grid, cell: Cell) -> Cell:
    """The grid cell of a TileMap cell."""
    return cell[0] - grid.origin[0], cell[1] - grid.origin[1]


def random_orders(islands: np.ndarray, count: int, seed: int) -> List[Tuple[Cell, Cell]]:
    """``count`` (start, goal) pairs of two cells on one island each (``islands``: labels, 0 blocked), so that a
    path joins them: a start drawn from the cells of islands of two cells or more, its goal from the other cells
    of its island; the same for the same seed (none when no island has two cells)."""
    sizes = np.bincount(islands.ravel())
    sizes[0] = 0
    ys, xs = np.nonzero(sizes[islands] >= 2)
    rng = random.Random(seed)
    members: Dict[int, List[Cell]] = {}
    orders = []
    for _ in range(count if len(xs) else 0):
        drawn = rng.randrange(len(xs))
        start = (int(xs[drawn]), int(ys[drawn]))
        label = int(islands[start[1], start[0]])
        if label not in members:
            members[label] = [(int(x), int(y)) for y, x in zip(*np.nonzero(islands == label))]
        goal = rng.choice(members[label][:-1])  # any other cell of the island: the last stands in for the start
        orders.append((start, members[label][-1] if goal == start else goal))
    return orders


def read_map(path: Path, args: argparse.Namespace, *, six_neighbours: bool = False) -> LoadedMap:
    """:func:`load_map` with the command's options, saying what it read and how long that took; ValueError for
    a half-offset (hexagonal) TileMap unless the command follows ``six_neighbours``."""
    started = time.perf_counter()
    loaded = load_map(
        path,
        args.tilemap,
        args.blocking,
        bounds=args.bounds,
        unknown_tiles=args.unknown_tiles,
        connectivity=args.connectivity,
        layers=args.layer,
        empty_passable=args.empty_cells_passable,
    )
    read_ms = (time.perf_counter() - started) * 1000
    grid = loaded.grid
    if loaded.layout.hexagonal and not six_neighbours:
        raise MapFormatError(
            f"{path}: the TileMap is half-offset (hexagonal): its cells have six neighbours, and {args.command} "
            "moves units between eight or four; pathing-py paths, bake and render follow its six"
        )
    for note in loaded.notes:
        print(note, file=sys.stderr if note.startswith("warning:") else sys.stdout)
    last = tilemap_cell(grid, (grid.width - 1, grid.height - 1))
    moves = "six neighbours (half offset)" if loaded.layout.hexagonal else f"{grid.connectivity}-connected"
    print(
        f"{path}: {grid.width}x{grid.height} cells, {int(grid.passable.sum())} passable, "
        f"TileMap cells {grid.origin} to {last}, {moves}"
    )
    print(f"read in {read_ms:.1f} ms")
    return loaded


#: Finds one order's path: the search's result and the cells to draw (empty if none).
Finder = Callable[[Cell, Cell], Tuple[PathResult, List[Cell]]]


def answer_orders(grid: Grid, orders: Sequence[Tuple[Cell, Cell]], find: Finder) -> List[List[Cell]]:
    """Answer each order (grid cells) with ``find``, printing a line per order in TileMap cells and a summary;
    the paths."""
    print(
        f"{'order':>5}  {'start':>12}  {'goal':>12}  {'status':<13} {'cost':>8} {'cells':>6} {'expanded':>8} {'ms':>7}"
    )
    paths: List[List[Cell]] = []
    times = []
    for number, (start, goal) in enumerate(orders, start=1):
        started = time.perf_counter()
        result, cells = find(start, goal)
        times.append((time.perf_counter() - started) * 1000)
        paths.append(cells)
        cost = f"{result.cost:8.2f}" if result else f"{'-':>8}"
        print(
            f"{number:>5}  {str(tilemap_cell(grid, start)):>12}  {str(tilemap_cell(grid, goal)):>12}  "
            f"{result.status.name:<13} {cost} {len(cells):>6} {result.expanded:>8} {times[-1]:>7.2f}"
        )
    if times:
        found = sum(1 for cells in paths if cells)
        print(
            f"{found} of {len(paths)} orders found;"
            f" mean {sum(times) / len(times):.2f} ms, max {max(times):.2f} ms per order"
        )
    return paths


def run_paths(args: argparse.Namespace) -> int:
    loaded = read_map(Path(args.map) if args.map else DEMO_SCENE, args, six_neighbours=True)
    grid, layout = loaded.grid, loaded.layout
    hexes = HexSteps(layout, grid.origin) if layout.hexagonal else None
    started = time.perf_counter()
    if hexes is None:
        prepare(grid)
        islands = grid.islands
    else:
        islands = hex_islands(grid, hexes)
    print(f"islands{'' if hexes else ' and search tables'} built in {(time.perf_counter() - started) * 1000:.1f} ms")

    def find(start: Cell, goal: Cell) -> Tuple[PathResult, List[Cell]]:
        if hexes is not None:
            result = find_hex_path(grid, layout, start, goal)
            return result, smooth_hex_path(grid, hexes, result.cells) if result else []
        result = find_path(grid, start, goal)
        return result, smooth_path(grid, result.cells) if result else []

    if args.order:  # TileMap cells, as the user sees them
        orders = [(grid_cell(grid, start), grid_cell(grid, goal)) for start, goal in args.order]
    else:
        orders = random_orders(islands, args.orders, args.seed)
    paths = answer_orders(grid, orders, find)
    picture = MapPicture(grid, layout, args.scale, **loaded.terrain)
    write_png(args.out, picture.draw_paths(paths))
    print(f"picture: {args.out} ({picture.image.shape[1]}x{picture.image.shape[0]} pixels)")
    return 0


# -- the units demo -------------------------------------------------------------------

#: The demo's clock: seconds per update, updates per picture, how long a picture shows
#: (real time), and how long the last one stays before the animation starts again.
UPDATE_SECONDS = 0.05
UPDATES_PER_FRAME = 2
FRAME_SECONDS = UPDATE_SECONDS * UPDATES_PER_FRAME
LAST_FRAME_SECONDS = 2.0
#: Walls: the first goes up this many seconds after the orders, the next ones as often,
#: each WALL_LENGTH cells long, across a unit's route WALL_AHEAD steps in front of it.
FIRST_WALL_SECONDS = 2.0
WALL_EVERY_SECONDS = 1.5
WALL_LENGTH = 3
WALL_AHEAD = 3


def demo_graph(path: Path, grid: Grid) -> Optional[KeyPointGraph]:
    """The key-point graph baked beside the map (``<map>.kpg``), loaded as the game loads it
    (re-baked in memory, with a warning, when stale or damaged); None when there is no such file."""
    graph_file = path.with_suffix(".kpg")
    if not graph_file.is_file():
        print(f"no {graph_file.name} beside the map: units plan with find_path alone")
        return None
    loaded = load_graph(str(graph_file), graph_file.read_bytes(), grid, rebake=True)
    if loaded.warning:
        print(loaded.warning)
    elif loaded.graph is not None:
        print(f"{graph_file}: key-point graph of {len(loaded.graph.key_points())} key points")
    return loaded.graph


def animation_paths(out: Path) -> Tuple[Path, Optional[Path]]:
    """Where the demo writes its animation, and its last picture as a PNG (only when ``out`` is a .png)."""
    return (out, None) if out.suffix.lower() == ".gif" else (out.with_suffix(".gif"), out)


def run_demo(args: argparse.Namespace) -> int:
    path = Path(args.map) if args.map else DEMO_SCENE
    grid, terrain = read_map(path, args)[:2]
    navigator = Navigator(grid, None if args.no_graph else demo_graph(path, grid))  # no time budget: deterministic
    navigator.cell_label = lambda cell: str(tilemap_cell(grid, cell))  # reasons name TileMap cells
    orders = give_orders(navigator, args.units, args.seed, args.speed)
    print(
        f"{len(orders)} units at {args.speed:g} cells/s, seed {args.seed};"
        f" walls to put up across their routes: {args.walls}"
    )
    background, built = draw_grid(grid, args.scale, **terrain), grid.passable.copy()
    trails: Dict[int, List[Tuple[float, float]]] = {}
    rng = random.Random(args.seed)
    walls: List[Wall] = []
    wall_lines: List[str] = []  # printed after the run, so that they do not break into the progress bar

    def picture() -> np.ndarray:
        """The map, the walls put up so far, and the units with their trails to where they are now."""
        new_walls = [(int(x), int(y)) for y, x in np.argwhere(built & ~grid.passable)]
        return units_picture(background, navigator, args.scale, trails, new_walls)

    def step() -> None:
        """Put up the next wall once its time has come (if no unit has the steps for it, try again next
        update); update."""
        if len(walls) < args.walls and navigator.time >= FIRST_WALL_SECONDS + len(walls) * WALL_EVERY_SECONDS - 1e-9:
            wall = drop_wall(navigator, rng, WALL_AHEAD, WALL_LENGTH)
            if wall is not None:
                walls.append(wall)
                refused = f"; refused (held by units): {cell_list(grid, wall.refused)}" if wall.refused else ""
                wall_lines.append(
                    f"t={navigator.time:.2f} s: wall {cell_list(grid, wall.cells)}"
                    f" across unit {wall.unit.id}'s route{refused}"
                )
        navigator.update(UPDATE_SECONDS)

    def under_way() -> bool:
        return navigator.time < args.max_time and any(order.unit.state not in FINAL_STATES for order in orders)

    gif_path, png_path = animation_paths(Path(args.out))
    gif, last = write_animation(gif_path, picture, step, under_way, demo_frames_at_most(args.max_time))
    for line in wall_lines:
        print(line)
    print_units(grid, orders)
    print_run_summary(navigator, orders, walls)
    print_animation(gif_path, png_path, gif, last)
    return 0


def write_animation(
    gif_path: Path,
    picture: Callable[[], np.ndarray],
    step: Callable[[], None],
    under_way: Callable[[], bool],
    most_frames: int,
) -> Tuple[GifWriter, np.ndarray]:
    """Draw a run into an animated GIF: a ``picture()`` first, then ``step()`` (one update of UPDATE_SECONDS) while
    ``under_way()``, a picture every UPDATES_PER_FRAME steps, and the last picture held LAST_FRAME_SECONDS; the
    frames drawn as a progress bar on stderr (out of ``most_frames``). The writer, closed, and the last picture."""
    progress, drawn, steps = ProgressBar(sys.stderr, "frames drawn"), 0, 0

    def frame() -> np.ndarray:
        nonlocal drawn
        image = picture()
        drawn += 1
        progress(drawn, max(drawn, most_frames))
        return image

    with GifWriter(gif_path) as gif:
        gif.add(frame(), FRAME_SECONDS)
        while under_way():
            step()
            steps += 1
            if steps % UPDATES_PER_FRAME == 0:
                gif.add(frame(), FRAME_SECONDS)
        last = frame()
        gif.add(last, LAST_FRAME_SECONDS)
        progress(drawn, drawn)  # the run ended, at its time cap or before: the bar ends full
    return gif, last


def print_animation(gif_path: Path, png_path: Optional[Path], gif: GifWriter, last: np.ndarray) -> None:
    """Say where the animation went, with its frames and size; write the last picture as a PNG if asked."""
    print(
        f"animation: {gif_path} ({gif.frames} frames of {last.shape[1]}x{last.shape[0]},"
        f" {gif_path.stat().st_size / 1024:.1f} KB)"
    )
    if png_path is not None:
        write_png(png_path, last)
        print(f"last picture: {png_path}")


# -- the formations demo ------------------------------------------------------------

#: ``demo --scenario`` runs one of SCENARIOS, or this for all of them side by side.
ALL_SCENARIOS = "all"
#: The demo's options that the formation scenarios, with maps and units of their own, do not take: (dest, as written).
UNIT_DEMO_ONLY = (
    ("map", "MAP"), ("units", "--units"), ("walls", "--walls"), ("speed", "--speed"), ("no_graph", "--no-graph"),
    ("tilemap", "--tilemap"), ("blocking", "--blocking"), ("bounds", "--bounds"), ("connectivity", "--connectivity"),
    ("unknown_tiles", "--unknown-tiles"), ("layer", "--layer"), ("empty_cells_passable", "--empty-cells-passable"),
)  # fmt: skip


def run_formations(args: argparse.Namespace) -> int:
    names = list(SCENARIOS) if args.scenario == ALL_SCENARIOS else [args.scenario]
    runs = [FormationRun(SCENARIOS[name], args.seed) for name in names]
    for run in runs:
        grid = run.navigator.grid
        print(
            f"scenario {run.scenario.name}: {run.scenario.description}"
            f" ({grid.width}x{grid.height} cells, seed {args.seed})"
        )
    if len(runs) > 1:
        print(f"drawn side by side, left to right: {', '.join(names)}")
    backgrounds = [draw_grid(run.navigator.grid, args.scale, **run.scenario.terrain()) for run in runs]
    trails: List[Dict[int, List[Tuple[float, float]]]] = [{} for _ in runs]

    def picture() -> np.ndarray:
        """Each scenario's units with their trails and goals (the slots they head for), its commander marked."""
        panels = []
        for run, background, trail in zip(runs, backgrounds, trails):
            panel = units_picture(background, run.navigator, args.scale, trail)
            if run.group.commander is not None:
                draw_commander(panel, run.group.commander, args.scale)
            panels.append(panel)
        return side_by_side(panels, gap=args.scale)

    def running(run: FormationRun) -> bool:
        return not run.done and run.navigator.time < args.max_time

    def step() -> None:
        for run in runs:
            if running(run):
                run.update(UPDATE_SECONDS)

    gif_path, png_path = animation_paths(Path(args.out))
    gif, last = write_animation(
        gif_path, picture, step, lambda: any(running(run) for run in runs), demo_frames_at_most(args.max_time)
    )
    for run in runs:
        print_formation_run(run)
    print_animation(gif_path, png_path, gif, last)
    return 0


# -- the crowds demo ----------------------------------------------------------------

#: The crowds ``demo --scenario`` runs (issue 12 item 10), by name: scenarios of pathing_py.tools.scenarios at
#: their sizes.
CROWDS: Dict[str, Callable[[], CrowdScenario]] = {"armies": armies, "crossroads": crossroads}


def run_crowd(args: argparse.Namespace) -> int:
    run = CrowdRun(CROWDS[args.scenario]())
    grid = run.navigator.grid
    print(f"scenario {run.scenario.name}: {run.scenario.description} ({grid.width}x{grid.height} cells)")
    background = draw_grid(grid, args.scale)
    trails: Dict[int, List[Tuple[float, float]]] = {}

    def running() -> bool:
        return not run.done and run.navigator.time < args.max_time

    gif_path, png_path = animation_paths(Path(args.out))
    gif, last = write_animation(
        gif_path,
        lambda: units_picture(background, run.navigator, args.scale, trails),
        lambda: run.update(UPDATE_SECONDS),
        running, demo_frames_at_most(args.max_time),
    )  # fmt: skip
    print_crowd_run(run)
    print_animation(gif_path, png_path, gif, last)
    return 0


def print_crowd_run(run: CrowdRun) -> None:
    """How the ordered units ended, the checks' findings, the time per update, and why each unit that did not
    arrive did not."""
    navigator = run.navigator
    states = ", ".join(f"{sum(unit.state is state for unit in run.ordered)} {state.value}" for state in FINAL_STATES)
    under_way = sum(unit.state not in FINAL_STATES for unit in run.ordered)
    when = (
        f"all arrived at {run.all_arrived_at:.2f} s"
        if run.all_arrived_at is not None
        else f"not all arrived after {navigator.time:.2f} s"
    )
    print(
        f"{run.arrived} of {len(run.ordered)} units arrived ({states}"
        + (f", {under_way} still under way" if under_way else "")
        + f"); {when}"
    )
    ms = np.array(run.update_ms)
    print(
        f"overlaps: {run.overlaps} (pairs of units), circles in walls: {run.in_walls},"
        f" checked after each of {len(ms)} updates; "
        f"ms per update: median {np.median(ms):.2f}, p99 {np.percentile(ms, 99):.2f}, max {ms.max():.2f}"
        f" ({len(run.units)} units)"
    )
    print(collisions_line(navigator))
    for unit in (unit for unit in run.ordered if unit.state is not UnitState.ARRIVED):
        print(
            f"  unit {unit.id} at {tilemap_cell(navigator.grid, unit.cell)}: {unit.state.value} {unit.reason}".rstrip()
        )


def collisions_line(navigator: Navigator) -> str:
    """How many collisions the units met (SPEC U5), how many of them each rule resolved, how many ended unresolved."""
    ended = navigator.collisions.ended
    resolved = [(resolution, ended[(CollisionState.RESOLVED, resolution)]) for resolution in Resolution]
    by_rule = ", ".join(f"{count} by {resolution.value}" for resolution, count in resolved if count) or "none"
    unresolved = sum(count for (state, _), count in ended.items() if state is CollisionState.UNRESOLVED)
    still_open = len(navigator.collisions.open())
    return (
        f"collisions: {sum(ended.values()) + still_open} met; resolved {by_rule};"
        f" {unresolved} ended unresolved, {still_open} open"
    )


def print_formation_run(run: FormationRun) -> None:
    """The group's events with their game times, a line per order (time to form, arrival, spread of the
    members' arrivals, searches), and the run's figures: members arrived, searches per order, overlaps, update times."""
    group, scenario, navigator = run.group, run.scenario, run.navigator
    speeds = "/".join(f"{speed:g}" for speed in sorted(set(scenario.speeds)))
    print(
        f"scenario {scenario.name}, group {group.id}: {scenario.shape} of {scenario.members}"
        f" at spacing {scenario.spacing:g}, "
        f"members at {speeds} cells/s, the group at {group.speed:g}"
    )
    print(f"{'t s':>7}  {'event':<18} detail")
    for at, name, detail in run.events:
        print(f"{at:7.2f}  {name:<18} {detail}")
    print(
        f"{'order':>5}  {'target':>10}  {'given s':>7} {'formed in s':>11}"
        f" {'arrived s':>9} {'spread s':>8} {'searches':>8}"
    )
    for number, order in enumerate(run.orders, start=1):
        formed_in = f"{order.formed_in:11.2f}" if order.formed_in is not None else f"{'-':>11}"
        arrived_at = f"{order.ended:9.2f}" if order.ended is not None else f"{'-':>9}"
        spread = f"{order.spread:8.2f}" if order.spread is not None else f"{'-':>8}"
        print(
            f"{number:>5}  {str(order.target):>10}  {order.given:7.2f}"
            f" {formed_in} {arrived_at} {spread} {order.searches:>8}"
        )
    arrived = sum(unit.state is UnitState.ARRIVED for unit in group.members)
    per_order = sum(order.searches for order in run.orders) / len(run.orders)
    under_way = "" if run.done else f"; still under way after {navigator.time:.2f} s"
    print(
        f"{arrived} of {len(group.members)} members arrived{under_way}; searches per order: {per_order:.2f}; "
        f"overlaps: {run.overlaps} (pairs of units, checked after each of {navigator.stats.updates} updates);"
        f" {update_times(navigator)}"
    )


def demo_frames_at_most(max_time: float) -> int:
    """The most frames a demo run of ``max_time`` simulated seconds draws: the first, one per frame of the run,
    the last."""
    return 2 + math.ceil(max_time / FRAME_SECONDS)


def cell_list(grid: Grid, cells: Sequence[Cell]) -> str:
    """Grid cells as the TileMap cells the user knows, comma-separated."""
    return ", ".join(str(tilemap_cell(grid, cell)) for cell in cells)


def print_units(grid: Grid, orders: Sequence[Order]) -> None:
    """One line per unit: how it ended (and why, if not at its goal), walked vs optimal length, its re-planning."""
    print(
        f"{'unit':>4}  {'start':>12}  {'goal':>12}  {'state':<11} {'walked':>7} {'optimal':>7} {'ratio':>6} "
        f"{'plans':>5} {'splices':>7} {'detours':>7} {'waited s':>8}  why not arrived"
    )
    for order in orders:
        unit, stats = order.unit, order.unit.stats
        optimal = f"{order.optimal:7.2f}" if order.optimal is not None else f"{'-':>7}"
        ratio = (
            f"{stats.distance / order.optimal:6.2f}"
            if unit.state is UnitState.ARRIVED and order.optimal
            else f"{'-':>6}"
        )
        why = unit.reason if unit.state is not UnitState.ARRIVED else ""
        if order.optimal is None:
            why = f"{why} (no path at order time)".strip()
        line = (
            f"{unit.id:>4}  {str(tilemap_cell(grid, order.start)):>12}  {str(tilemap_cell(grid, order.goal)):>12}  "
            f"{unit.state.value:<11} {stats.distance:7.2f} {optimal} {ratio} "
            f"{stats.plans:>5} {stats.splices:>7} {stats.detours:>7} {stats.waited:>8.2f}  {why}"
        )
        print(line.rstrip())


def print_run_summary(navigator: Navigator, orders: Sequence[Order], walls: Sequence[Wall]) -> None:
    """How the units ended, the walls, the time per update, the planning work and the request queue."""
    states = ", ".join(f"{sum(o.unit.state is state for o in orders)} {state.value}" for state in FINAL_STATES)
    moving = sum(order.unit.state not in FINAL_STATES for order in orders)
    updates = navigator.stats.updates
    print(
        f"{len(orders)} units: {states}" + (f", {moving} still under way" if moving else "")
        + f"; {navigator.time:.2f} s simulated in {updates} updates of {UPDATE_SECONDS} s"
    )  # fmt: skip
    refused = sum(len(wall.refused) for wall in walls)
    print(
        f"walls: {len(walls)} put up, {sum(len(w.cells) for w in walls) - refused} cells blocked,"
        f" {refused} refused (held by units)"
    )
    print(update_times(navigator))
    stats = navigator.stats
    plans, splices = sum(o.unit.stats.plans for o in orders), sum(o.unit.stats.splices for o in orders)
    print(
        f"planning: {plans} full plans expanded {stats.plan_work} nodes, {splices} splices {stats.splice_work} nodes; "
        f"{stats.notified} notifications of map changes on routes"
    )
    queue = navigator.requests.stats
    print(
        f"queue: {queue.submitted} requests, {queue.served} served, {queue.cancelled} cancelled,"
        f" at most {queue.longest} waiting; "
        f"latency mean {queue.mean_latency:.3f} s, max {queue.max_latency:.3f} s"
    )


def update_times(navigator: Navigator) -> str:
    """The navigator's time per update so far, as the demos print it."""
    mean, p99, longest = update_ms(navigator)
    return f"update: mean {mean:.2f} ms, p99 {p99:.2f} ms, max {longest:.2f} ms"


class ProgressBar:
    """A plain-text progress bar, called as ``bar(done, total)`` (the bake's ``progress`` callback).

    On a terminal it is redrawn in place; into a pipe or log each state is a
    line of its own. It is drawn only when it grows, so at most WIDTH + 1 times.
    """

    WIDTH = 30

    def __init__(self, stream: TextIO, unit: str):
        self.stream = stream
        self.unit = unit
        self.in_place = stream.isatty()
        self.drawn = -1  # how many '#' the last drawing had

    def __call__(self, done: int, total: int) -> None:
        filled = self.WIDTH * done // total if total else self.WIDTH
        if filled == self.drawn and done < total:
            return
        self.drawn = filled
        bar = f"[{'#' * filled}{' ' * (self.WIDTH - filled)}] {done}/{total} {self.unit}"
        if self.in_place:
            self.stream.write(f"\r{bar}" + ("\n" if done >= total else ""))
        else:
            self.stream.write(f"{bar}\n")
        self.stream.flush()


def run_bake(args: argparse.Namespace) -> int:
    path = Path(args.map)
    out = Path(args.out) if args.out else path.with_suffix(".kpg")
    loaded = read_map(path, args, six_neighbours=True)
    grid, layout = loaded.grid, loaded.layout
    nav_grids = nav_grid_settings(path) if path.suffix.lower() == ".tscn" else []
    cluster_size = (
        args.cluster_size or (nav_grids[0].cluster_size if nav_grids else 0) or None
    )  # option, else the NavGrid's
    started = time.perf_counter()
    graph = bake_graph(grid, layout, cluster_size=cluster_size, progress=ProgressBar(sys.stderr, "clusters"))
    bake_ms = (time.perf_counter() - started) * 1000
    graph.save(out)
    _, _, inside = graph.edges()
    print(
        f"{len(graph.cluster_rects())} clusters of {graph.cluster_size}x{graph.cluster_size} cells, "
        f"{len(graph.key_points())} key points, {len(inside)} edges "
        f"({int(inside.sum())} inside clusters, {int((~inside).sum())} across borders)"
    )
    print(f"baked in {bake_ms:.0f} ms; wrote {out} ({out.stat().st_size} bytes)")
    return 0


def run_render(args: argparse.Namespace) -> int:
    loaded = read_map(Path(args.map), args, six_neighbours=True)
    grid, terrain, layout = loaded.grid, loaded.terrain, loaded.layout
    graph = (
        HexKeyPointGraph.load(args.graph, grid, layout) if layout.hexagonal else KeyPointGraph.load(args.graph, grid)
    )
    print(f"{args.graph}: {len(graph.key_points())} key points in {len(graph.cluster_rects())} clusters")

    def find(start: Cell, goal: Cell) -> Tuple[PathResult, List[Cell]]:
        result = graph.find_path(start, goal)
        return result, result.cells

    islands = hex_islands(grid, HexSteps(layout, grid.origin)) if layout.hexagonal else grid.islands
    paths = answer_orders(grid, random_orders(islands, args.paths, args.seed), find)
    if layout.hexagonal:  # the cells in their shape, with the paths (the graph's overlay is drawn on square cells)
        picture = MapPicture(grid, layout, args.scale, **terrain)
        write_png(args.out, picture.draw_paths(paths))
        print(f"picture: {args.out} ({picture.image.shape[1]}x{picture.image.shape[0]} pixels)")
        return 0
    scale = args.scale or max(1, min(8, MAX_PICTURE_SIDE // max(grid.width, grid.height)))
    write_png(args.out, paths_picture(grid, paths, scale, graph=graph, **terrain))
    print(f"picture: {args.out} ({scale} pixels per cell)")
    return 0


def _tile(text: str):
    """A tile id when the text is a number, else a tile name."""
    return int(text) if text.isdigit() else text


def _cell(text: str) -> Cell:
    """An argparse type: a TileMap cell written ``X,Y`` or, as printed, ``(X, Y)``.

    The brackets let a cell start with a minus sign, which argparse would take for an option.
    """
    inner = text.strip()
    if inner.startswith("(") and inner.endswith(")"):
        inner = inner[1:-1]
    try:
        x, y = (int(part) for part in inner.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a cell X,Y or (X, Y) (two integers), got {text!r}") from None
    return x, y


def _at_least(minimum: int) -> Callable[[str], int]:
    """An argparse type: an int no smaller than ``minimum``."""

    def parse(text: str) -> int:
        value = int(text)
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
        return value

    return parse


def _positive(text: str) -> float:
    """An argparse type: a finite number above 0."""
    value = float(text)
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a number above 0, got {text}")
    return value


def _yes_no(text: str) -> bool:
    """An argparse type: yes or no (true/false, on/off, 1/0 too) as a bool."""
    answers = {"yes": True, "true": True, "on": True, "1": True, "no": False, "false": False, "off": False, "0": False}
    if text.lower() not in answers:
        raise argparse.ArgumentTypeError(f"must be yes or no, got {text!r}")
    return answers[text.lower()]


def _picture_path(text: str) -> str:
    """An argparse type: a path ending in .gif or .png."""
    if Path(text).suffix.lower() not in (".gif", ".png"):
        raise argparse.ArgumentTypeError(f"must end in .gif or .png, got {text!r}")
    return text


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="pathing-py", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    demo = commands.add_parser(
        "demo",
        help="run units on a map while walls go up on their routes; draw it into an animated GIF",
        description=(
            "Units on a map (by default the bundled demo scene) take seeded orders; walls go up across their "
            "routes while they walk. Plans use the key-point graph baked beside the map (<map>.kpg) when there "
            "is one (re-baked in memory if stale). Prints how each unit ended and why, the length it walked "
            "against the optimal length at order time, its plans, splices, detours and waits, the time per "
            "update and the request queue. Same seed, same run. Cells are TileMap cells."
        ),
    )
    demo.add_argument("map", nargs="?", help=f"a .tscn, .map or .txt map (default: {DEMO_SCENE.name})")
    demo.add_argument("--units", type=_at_least(1), default=8, help="how many units (default 8)")
    demo.add_argument(
        "--walls",
        type=_at_least(0),
        default=4,
        help=f"walls of {WALL_LENGTH} cells put up across routes, one every {WALL_EVERY_SECONDS:g} s"
        f" from {FIRST_WALL_SECONDS:g} s (default 4)",
    )
    demo.add_argument("--speed", type=_positive, default=4.0, help="unit speed in cells per second (default 4)")
    demo.add_argument(
        "--max-time", type=_positive, default=60.0, help="stop after this many simulated seconds (default 60)"
    )
    demo.add_argument(
        "--no-graph", action="store_true", help="plan with find_path alone, even if the map has a baked graph"
    )
    demo.add_argument("--scale", type=_at_least(1), default=8, help="pixels per cell in the pictures (default 8)")
    demo.add_argument(
        "--scenario", choices=(*SCENARIOS, ALL_SCENARIOS, *CROWDS),
        help="run a formation scenario instead, on a map of its own: "
        + "; ".join(f"{name}: {scenario.description}" for name, scenario in SCENARIOS.items())
        + f"; {ALL_SCENARIOS}: these side by side. Prints each group's events with their times, its time to form, "
        "the spread of its members' arrivals and its searches per order. Takes --seed (where members start), "
        "--max-time, --scale and --out. Or a crowd: "
        + "; ".join(f"{name}: {make().description}" for name, make in CROWDS.items())
        + ". Prints how the units ended (why not, for each that did not arrive), "
        "the pairs of units that overlapped and the circles in walls (checked after every update) "
        "and the time per update. Takes --max-time, --scale and --out",
    )  # fmt: skip
    demo.add_argument(
        "--out", type=_picture_path, default="demo.gif",
        help=f"animated GIF to write (default demo.gif; a frame every {FRAME_SECONDS:g} s of the run,"
        " played in real time); a .png path gets the last picture, and the animation goes beside it with suffix .gif",
    )  # fmt: skip
    paths = commands.add_parser("paths", help="answer path orders on a map and draw them into a PNG")
    paths.add_argument("map", nargs="?", help=f"a .tscn, .map or .txt map (default: {DEMO_SCENE.name})")
    paths.add_argument("--orders", type=_at_least(1), default=8, help="how many seeded path orders (default 8)")
    paths.add_argument(
        "--order", nargs=2, action="append", type=_cell, metavar=("X,Y", "X,Y"),
        help="a path order from a TileMap cell to another, each X,Y or, as printed, '(X, Y)' (needed when X is "
        "negative); repeat for more; replaces the seeded orders",
    )  # fmt: skip
    paths.add_argument(
        "--scale", type=_at_least(1),
        help=f"pixels of a cell's shorter side in the picture (default: at least {MIN_CELL_EDGE}, or the map "
        f"{MIN_WIDTH} pixels across, the picture at most {MAX_SIDE} pixels a side)",
    )  # fmt: skip
    paths.add_argument("--out", default="paths.png", help="PNG to write (default paths.png)")
    bake = commands.add_parser("bake", help="bake a map's key-point graph into a file")
    bake.add_argument("map", help="a .tscn, .map or .txt map")
    bake.add_argument("--out", help="graph file to write (default: the map's path with suffix .kpg)")
    bake.add_argument(
        "--cluster-size",
        type=int,
        help="cluster side in cells (default: halve the map until clusters are about 10 wide)",
    )
    render = commands.add_parser("render", help="draw a map with its key-point graph and paths found on it")
    render.add_argument("map", help="a .tscn, .map or .txt map")
    render.add_argument("--graph", required=True, help="the graph file baked from this map")
    render.add_argument("--out", required=True, help="PNG to write")
    render.add_argument("--paths", type=_at_least(0), default=6, help="how many seeded paths to draw (default 6)")
    render.add_argument(
        "--scale",
        type=_at_least(1),
        help=f"pixels per cell (default: up to 8, the longer side at most {MAX_PICTURE_SIDE} pixels)",
    )
    for command in (demo, paths, bake, render):
        command.add_argument("--tilemap", help="name or path of the TileMap node when a scene has several")
        command.add_argument("--blocking", nargs="*", default=(), type=_tile, help="tile names or ids that block")
        command.add_argument(
            "--layer", action="append", metavar="NAME",
            help="name or path of a TileMap stacked on the map's cells (walls over a floor); repeat for more; "
            "a cell blocks where any layer's tile blocks (default: the NavGrid's layer_paths)",
        )  # fmt: skip
        command.add_argument(
            "--bounds", nargs=4, type=int, metavar=("X", "Y", "WIDTH", "HEIGHT"),
            help="the map's cells, in TileMap cells (default: the NavGrid's bounds, else the painted rectangle); "
            "for games that paint only obstacles",
        )  # fmt: skip
        command.add_argument(
            "--connectivity", type=int, choices=CONNECTIVITIES,
            help="neighbours of a cell: 8 (diagonal steps that cut no corner) or 4 (straight steps only) "
            "(default: a scene's NavGrid's, else 8)",
        )  # fmt: skip
        command.add_argument(
            "--empty-cells-passable", type=_yes_no, metavar="yes|no",
            help="whether cells without a tile (in any layer) are walkable, as the NavGrid's empty_cells_passable "
            "(default: the scene's NavGrid's, else yes)",
        )  # fmt: skip
        command.add_argument(
            "--unknown-tiles", choices=UNKNOWN_TILES, default="error",
            help="cells whose tile id the TileSet lacks: an error (default), or open: tiles without collision, "
            "as Godot loads them",
        )  # fmt: skip
    for command in (demo, paths, render):
        command.add_argument("--seed", type=int, default=1, help="seed of the orders (and walls) (default 1)")
    args = parser.parse_args(argv)
    if args.bounds is not None:
        try:
            args.bounds = cell_rect(args.bounds, "--bounds")
        except ValueError as error:
            parser.error(str(error))
    if args.command == "demo" and args.scenario is not None:
        given = [option for dest, option in UNIT_DEMO_ONLY if getattr(args, dest) != demo.get_default(dest)]
        if given:
            demo.error(
                f"--scenario {args.scenario} runs on a map and with units of its own; leave out {', '.join(given)}"
            )
    run = {"demo": run_demo, "paths": run_paths, "bake": run_bake, "render": run_render}[args.command]
    if args.command == "demo" and args.scenario:
        run = run_crowd if args.scenario in CROWDS else run_formations
    try:
        if args.command in PICTURE_COMMANDS:
            pillow_image()  # the pictures come last: say that Pillow is missing before the work
        return run(args)
    except (
        ValueError,
        OSError,
        PillowMissing,
    ) as error:  # MapFormatError, GraphFileError, StaleGraphError, bad bake parameters
        print(f"pathing-py: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
