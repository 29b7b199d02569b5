"""The ``pathing-py`` command.

Every subcommand reads a map: a Godot ``.tscn`` TileMap (as the scene's
NavGrid node reads it), a Moving AI ``.map`` or an ASCII ``.txt``.

``pathing-py demo [MAP]`` answers a few seeded path orders on a map (by
default the bundled demo scene), prints what each cost, and draws the map
with the paths into a PNG.

``pathing-py bake MAP [--out FILE] [--cluster-size N]`` bakes the map's
key-point graph into a file (by default beside the map, suffix ``.kpg``),
with a progress bar on stderr, and prints its figures.

``pathing-py render MAP --graph FILE --out PNG [--paths N]`` draws the map,
the graph's clusters, key points and edges, and seeded paths found on the graph.
"""

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Callable, List, Optional, Sequence, TextIO, Tuple

from .debug import paths_picture, write_png
from .grid import Cell, Grid, MapFormatError
from .hierarchy import KeyPointGraph
from .line import smooth_path
from .search import PathResult, find_path, prepare
from .tilemap import nav_grid_settings, read_tilemap

__all__ = ["main", "load_map"]

DEMO_SCENE = Path(__file__).resolve().parent.parent / "scenes" / "demo.tscn"
#: ``render`` picks a scale that keeps the picture's longer side at most this many pixels.
MAX_PICTURE_SIDE = 2048


def load_map(path: Path, tilemap: Optional[str] = None, blocking: Sequence[str] = ()) -> Tuple[Grid, dict]:
    """A grid from any map file we read, chosen by its suffix, and what pictures need of its terrain.

    A scene is read as its NavGrid node will read it in the game (its TileMap,
    blocking tiles and empty-cell rule) unless ``tilemap`` or ``blocking`` say otherwise.
    """
    suffix = path.suffix.lower()
    if suffix == ".tscn":
        empty_passable = True
        nav_grids = nav_grid_settings(path)
        if nav_grids and tilemap is None and not blocking:
            settings = nav_grids[0]
            tilemap, blocking, empty_passable = settings.tilemap, settings.blocking, settings.empty_passable
            print(f"read as NavGrid {settings.node_path!r} does: TileMap {tilemap!r}, blocking {blocking}")
        data = read_tilemap(path, tilemap=tilemap, blocking=list(blocking) or None)
        grid = Grid(data.passable(empty_passable=empty_passable), origin=data.origin)
        return grid, {"tiles": data.cells.raster(data.cells.tile, -1), "names": data.names}
    if suffix == ".map":
        return Grid.from_movingai(path), {}
    if suffix == ".txt":
        return Grid.from_ascii(path.read_text()), {}
    raise MapFormatError(f"{path}: unknown map type {suffix!r} (expected .tscn, .map or .txt)")


def random_orders(grid: Grid, count: int, seed: int) -> List[tuple]:
    """``count`` (start, goal) pairs of passable cells, the same for the same seed."""
    free = [(int(x), int(y)) for y, x in zip(*grid.passable.nonzero())]
    rng = random.Random(seed)
    return [(rng.choice(free), rng.choice(free)) for _ in range(count)]


def read_map(path: Path, args: argparse.Namespace) -> Tuple[Grid, dict]:
    """:func:`load_map` with the command's options, saying what it read and how long that took."""
    started = time.perf_counter()
    grid, terrain = load_map(path, args.tilemap, args.blocking)
    read_ms = (time.perf_counter() - started) * 1000
    print(f"{path}: {grid.width}x{grid.height} cells, {int(grid.passable.sum())} passable, origin {grid.origin}")
    print(f"read in {read_ms:.1f} ms")
    return grid, terrain


#: Finds one order's path: the search's result and the cells to draw (empty if none).
Finder = Callable[[Cell, Cell], Tuple[PathResult, List[Cell]]]


def answer_orders(orders: Sequence[Tuple[Cell, Cell]], find: Finder) -> List[List[Cell]]:
    """Answer each order with ``find``, printing a line per order and a summary; the paths, in order."""
    print(f"{'order':>5}  {'start':>10}  {'goal':>10}  {'status':<13} {'cost':>8} {'cells':>6} {'expanded':>8} {'ms':>7}")
    paths: List[List[Cell]] = []
    times = []
    for number, (start, goal) in enumerate(orders, start=1):
        started = time.perf_counter()
        result, cells = find(start, goal)
        times.append((time.perf_counter() - started) * 1000)
        paths.append(cells)
        cost = f"{result.cost:8.2f}" if result else f"{'-':>8}"
        print(
            f"{number:>5}  {str(start):>10}  {str(goal):>10}  {result.status.name:<13} {cost} "
            f"{len(cells):>6} {result.expanded:>8} {times[-1]:>7.2f}"
        )
    if times:
        found = sum(1 for cells in paths if cells)
        print(f"{found} of {len(paths)} orders found; mean {sum(times) / len(times):.2f} ms, max {max(times):.2f} ms per order")
    return paths


def run_demo(args: argparse.Namespace) -> int:
    grid, terrain = read_map(Path(args.map) if args.map else DEMO_SCENE, args)
    started = time.perf_counter()
    prepare(grid)
    print(f"islands and search tables built in {(time.perf_counter() - started) * 1000:.1f} ms")

    def find(start: Cell, goal: Cell) -> Tuple[PathResult, List[Cell]]:
        result = find_path(grid, start, goal)
        return result, smooth_path(grid, result.cells) if result else []

    paths = answer_orders(random_orders(grid, args.orders, args.seed), find)
    write_png(args.out, paths_picture(grid, paths, args.scale, **terrain))
    print(f"picture: {args.out}")
    return 0


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
    grid, _ = read_map(path, args)
    started = time.perf_counter()
    graph = KeyPointGraph.bake(grid, cluster_size=args.cluster_size, progress=ProgressBar(sys.stderr, "clusters"))
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
    grid, terrain = read_map(Path(args.map), args)
    graph = KeyPointGraph.load(args.graph, grid)
    print(f"{args.graph}: {len(graph.key_points())} key points in {len(graph.cluster_rects())} clusters")

    def find(start: Cell, goal: Cell) -> Tuple[PathResult, List[Cell]]:
        result = graph.find_path(start, goal)
        return result, result.cells

    paths = answer_orders(random_orders(grid, args.paths, args.seed), find)
    scale = args.scale or max(1, min(8, MAX_PICTURE_SIDE // max(grid.width, grid.height)))
    write_png(args.out, paths_picture(grid, paths, scale, graph=graph, **terrain))
    print(f"picture: {args.out} ({scale} pixels per cell)")
    return 0


def _at_least(minimum: int) -> Callable[[str], int]:
    """An argparse type: an int no smaller than ``minimum``."""

    def parse(text: str) -> int:
        value = int(text)
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
        return value

    return parse


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="pathing-py", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    demo = commands.add_parser("demo", help="answer path orders on a map and draw them")
    demo.add_argument("map", nargs="?", help=f"a .tscn, .map or .txt map (default: {DEMO_SCENE.name})")
    demo.add_argument("--orders", type=_at_least(1), default=8, help="how many path orders (default 8)")
    demo.add_argument("--scale", type=_at_least(1), default=8, help="pixels per cell in the picture")
    demo.add_argument("--out", default="demo.png", help="PNG to write (default demo.png)")
    bake = commands.add_parser("bake", help="bake a map's key-point graph into a file")
    bake.add_argument("map", help="a .tscn, .map or .txt map")
    bake.add_argument("--out", help="graph file to write (default: the map's path with suffix .kpg)")
    bake.add_argument("--cluster-size", type=_at_least(1), help="cluster side in cells (default: halve the map until clusters are about 10 wide)")
    render = commands.add_parser("render", help="draw a map with its key-point graph and paths found on it")
    render.add_argument("map", help="a .tscn, .map or .txt map")
    render.add_argument("--graph", required=True, help="the graph file baked from this map")
    render.add_argument("--out", required=True, help="PNG to write")
    render.add_argument("--paths", type=_at_least(0), default=6, help="how many seeded paths to draw (default 6)")
    render.add_argument("--scale", type=_at_least(1), help=f"pixels per cell (default: up to 8, the longer side at most {MAX_PICTURE_SIDE} pixels)")
    for command in (demo, bake, render):
        command.add_argument("--tilemap", help="name or path of the TileMap node when a scene has several")
        command.add_argument("--blocking", nargs="*", default=(), help="tile names or ids that block")
    for command in (demo, render):
        command.add_argument("--seed", type=int, default=1, help="seed of the path orders (default 1)")
    args = parser.parse_args(argv)
    run = {"demo": run_demo, "bake": run_bake, "render": run_render}[args.command]
    try:
        return run(args)
    except (ValueError, OSError) as error:  # MapFormatError, GraphFileError, StaleGraphError, bad bake parameters
        print(f"pathing-py: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
