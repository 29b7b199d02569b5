"""The ``pathing-py`` command.

``pathing-py demo [MAP]`` reads a map (a Godot ``.tscn`` TileMap, a Moving AI
``.map`` or an ASCII ``.txt``; by default the bundled demo scene), answers a
few seeded path orders, prints what each cost, and draws the map with the
paths into a PNG.
"""

import argparse
import random
import sys
import time
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

from .debug import paths_picture, write_png
from .grid import Cell, Grid, MapFormatError
from .line import smooth_path
from .search import find_path, prepare
from .tilemap import nav_grid_settings, read_tilemap

__all__ = ["main", "load_map"]

DEMO_SCENE = Path(__file__).resolve().parent.parent / "scenes" / "demo.tscn"


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


def run_demo(args: argparse.Namespace) -> int:
    path = Path(args.map) if args.map else DEMO_SCENE
    started = time.perf_counter()
    grid, terrain = load_map(path, args.tilemap, args.blocking)
    read_ms = (time.perf_counter() - started) * 1000
    print(f"{path}: {grid.width}x{grid.height} cells, {int(grid.passable.sum())} passable, origin {grid.origin}")
    print(f"read in {read_ms:.1f} ms")
    started = time.perf_counter()
    prepare(grid)
    print(f"islands and search tables built in {(time.perf_counter() - started) * 1000:.1f} ms")
    print(f"{'order':>5}  {'start':>10}  {'goal':>10}  {'status':<13} {'cost':>8} {'cells':>6} {'expanded':>8} {'ms':>7}")
    paths: List[Sequence[Cell]] = []
    times = []
    for number, (start, goal) in enumerate(random_orders(grid, args.orders, args.seed), start=1):
        started = time.perf_counter()
        result = find_path(grid, start, goal)
        cells = smooth_path(grid, result.cells) if result else []
        times.append((time.perf_counter() - started) * 1000)
        paths.append(cells)
        cost = f"{result.cost:8.2f}" if result else f"{'-':>8}"
        print(
            f"{number:>5}  {str(start):>10}  {str(goal):>10}  {result.status.name:<13} {cost} "
            f"{len(cells):>6} {result.expanded:>8} {times[-1]:>7.2f}"
        )
    found = sum(1 for cells in paths if cells)
    print(f"{found} of {len(paths)} orders found; mean {sum(times) / len(times):.2f} ms, max {max(times):.2f} ms per order")
    write_png(args.out, paths_picture(grid, paths, args.scale, **terrain))
    print(f"picture: {args.out}")
    return 0


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="pathing-py", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    demo = commands.add_parser("demo", help="answer path orders on a map and draw them")
    demo.add_argument("map", nargs="?", help=f"a .tscn, .map or .txt map (default: {DEMO_SCENE.name})")
    demo.add_argument("--tilemap", help="name or path of the TileMap node when a scene has several")
    demo.add_argument("--blocking", nargs="*", default=(), help="tile names or ids that block")
    demo.add_argument("--orders", type=_positive, default=8, help="how many path orders (default 8)")
    demo.add_argument("--seed", type=int, default=1)
    demo.add_argument("--scale", type=_positive, default=8, help="pixels per cell in the picture")
    demo.add_argument("--out", default="demo.png", help="PNG to write (default demo.png)")
    args = parser.parse_args(argv)
    try:
        return run_demo(args)
    except (MapFormatError, OSError) as error:
        print(f"pathing-py: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
