"""What a map edit costs: island labels and search tables kept up to date vs rebuilt.

    python3 -m bench.bench_edits [--maps a,b] [--edits N] [--growth 10,100,1000,10000] [--graph] [--markdown]
    python3 -m bench.bench_edits --maps maze512-1-0 --edits 10 --growth '' --graph   # a short run
    python3 -m bench.bench_edits --growth '' --markdown     # docs/benchmarks.md's table

For each map, N seeded edits (single cells, then 8x8 blocks) are made and
undone; each edit is followed by the query-time catch-up of the JPS+ tables
and the island labels. Printed: median ms per edit, and the same work done
from scratch (a new Grid's islands and tables) for comparison. With --graph,
a key-point graph is baked for each map too and the single-cell edits are
timed again with its patch (graph.update, then graph.refresh: the work the
update leaves for the next query) included: what a game keeping a graph
pays for one edited cell. Then the same cells are edited FRAME at a time,
as a frame's edits (each blocked and passed to graph.update, then one
catch-up and one refresh), and undone: ms per edited cell. A second table
splits the one-cell edit with its graph patch into its parts, in CPU time
(time.process_time: other processes on a loaded machine do not count):
the islands (set_blocked), the jump tables' catch-up (prepare; the dead-end
trees and the landmarks of the exact search are dropped by an edit and come
back lazily, see pathing_py.search.prepare), graph.update + refresh, and the
repair of the graph's landmarks that the next query pays when it reads them
(graph.landmarks; see pathing_py.hierarchy.landmarks), outside the total: an
edit does not pay it, and the edits between two queries share one repair.

Then the growth table: n random passable cells blocked in one edit, then
freed in one edit (each followed by the catch-up), and the same cells edited
one at a time (blocked, caught up, freed, caught up; timed on the first 100
cells at most). Cost proportional to the edit shows as a flat column of
microseconds per cell; a batch should never cost more per cell than separate edits.
"""

import argparse
import math
import statistics
import time
from typing import Optional, Sequence, Tuple

import numpy as np

from bench.report import render
from pathing_py import Grid, KeyPointGraph, prepare
from pathing_py.tools.movingai import find_benchmarks

MOVINGAI = find_benchmarks(__file__)
DEFAULT_MAPS = "den520d,AR0011SR,maze512-1-0,random512-10-0,Paris_0_1024"
DEFAULT_GROWTH = "10,100,1000,10000"
#: Cells edited one at a time per row of the growth table (each costs a full catch-up).
SEPARATE_SAMPLE = 100
#: One-cell edits made in one frame, in the batched column of --graph.
FRAME = 10


def edit_cost(grid: Grid, cells: np.ndarray, graph: Optional[KeyPointGraph] = None) -> float:
    """ms to block ``cells`` and bring islands and tables (and ``graph``) up to date, then unblock them
    again (not timed)."""
    started = time.perf_counter()
    grid.set_blocked(cells)
    prepare(grid)
    if graph is not None:
        graph.update(cells.tolist())
        graph.refresh()
    elapsed = time.perf_counter() - started
    grid.set_blocked(cells, blocked=False)
    prepare(grid)
    if graph is not None:
        graph.update(cells.tolist())
        graph.refresh()
    return elapsed * 1000


def frame_cost(grid: Grid, cells: np.ndarray, graph: KeyPointGraph) -> float:
    """ms per cell to block ``cells`` as one frame's edits (see :func:`edit_frame`), then unblock them alike
    (not timed)."""
    started = time.perf_counter()
    edit_frame(grid, cells, graph, blocked=True)
    elapsed = time.perf_counter() - started
    edit_frame(grid, cells, graph, blocked=False)
    return elapsed * 1000 / len(cells)


def edit_frame(grid: Grid, cells: np.ndarray, graph: KeyPointGraph, blocked: bool) -> None:
    """Edit ``cells`` one set_blocked and graph.update each, then bring islands, tables and graph up to date once."""
    for cell in cells:
        grid.set_blocked(cell[None, :], blocked)
        graph.update([cell.tolist()])
    prepare(grid)
    graph.refresh()


def edit_parts(grid: Grid, cell: np.ndarray, graph: KeyPointGraph) -> Tuple[float, float, float, float]:
    """CPU ms to block ``cell`` (the islands follow), to catch the search tables up, to patch ``graph``,
    and to bring its landmarks up to date at the next query's read; then the cell is freed again (not timed)."""
    cells = cell[None, :]
    clock = [time.process_time()]
    grid.set_blocked(cells)
    clock.append(time.process_time())
    prepare(grid)
    clock.append(time.process_time())
    graph.update(cells.tolist())
    graph.refresh()
    clock.append(time.process_time())
    graph.landmarks  # what the next query reads first
    clock.append(time.process_time())
    grid.set_blocked(cells, blocked=False)
    prepare(grid)
    graph.update(cells.tolist())
    graph.refresh()
    graph.landmarks
    first, second, third, fourth = ((later - earlier) * 1000 for earlier, later in zip(clock, clock[1:]))
    return first, second, third, fourth


def rebuild_cost(grid: Grid) -> float:
    started = time.perf_counter()
    prepare(Grid(grid.passable))
    return (time.perf_counter() - started) * 1000


def block_at(x: int, y: int, size: int, grid: Grid) -> np.ndarray:
    xs, ys = np.meshgrid(np.arange(x, min(x + size, grid.width)), np.arange(y, min(y + size, grid.height)))
    return np.stack([xs.ravel(), ys.ravel()], axis=1)


def growth_row(grid: Grid, cells: np.ndarray) -> Tuple[float, float, float]:
    """(us per cell to block ``cells`` in one edit, to free them in one edit, per cell edited alone)."""
    timings = []
    for blocked in (True, False):
        started = time.perf_counter()
        grid.set_blocked(cells, blocked)
        prepare(grid)
        timings.append((time.perf_counter() - started) * 1e6 / len(cells))
    sample = cells[:SEPARATE_SAMPLE]
    started = time.perf_counter()
    for cell in sample:
        for blocked in (True, False):
            grid.set_blocked(cell[None, :], blocked)
            prepare(grid)
    timings.append((time.perf_counter() - started) * 1e6 / len(sample))
    return timings[0], timings[1], timings[2]


def argument_parser() -> argparse.ArgumentParser:
    """The options, without their checks: bench/readme_tables.py --check parses the README's commands with it."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--maps", default=DEFAULT_MAPS, help=f"comma-separated map names (default {DEFAULT_MAPS})")
    parser.add_argument("--edits", type=int, default=30, help="seeded edits per map and kind (default 30)")
    parser.add_argument("--seed", type=int, default=5, help="seed of the edited cells (default 5)")
    parser.add_argument(
        "--growth",
        default=DEFAULT_GROWTH,
        help=f"cell counts of the growth table ('' to skip; default {DEFAULT_GROWTH})",
    )
    parser.add_argument(
        "--graph",
        action="store_true",
        help="also bake a key-point graph per map and time one-cell edits with its patch",
    )
    parser.add_argument(
        "--markdown", action="store_true", help="print the tables as docs/benchmarks.md shows them (Markdown)"
    )
    return parser


def parse_arguments(argv: Optional[Sequence[str]]) -> argparse.Namespace:
    """The options, checked: maps that exist, at least one edit, cell counts that are positive whole numbers."""
    parser = argument_parser()
    args = parser.parse_args(argv)
    if MOVINGAI is None:
        parser.error("Moving AI maps not found in ../shared: set PATHING_PY_MOVINGAI")
    args.maps = [name for name in args.maps.split(",") if name]
    unknown = [name for name in args.maps if not (MOVINGAI / f"{name}.map").is_file()]
    if unknown:
        parser.error(f"no map {', '.join(unknown)} in {MOVINGAI}")
    if args.edits < 1:
        parser.error("--edits must be >= 1")
    counts = [count.strip() for count in args.growth.split(",") if count.strip()]
    if not all(count.isdigit() and int(count) > 0 for count in counts):
        parser.error(f"--growth must list cell counts >= 1, as 10,100: got {args.growth!r}")
    args.growth = [int(count) for count in counts]
    return args


def main(argv: Optional[Sequence[str]] = None) -> None:
    args = parse_arguments(argv)
    rows, part_rows = [], []
    for name in args.maps:
        grid = Grid.from_movingai(MOVINGAI / f"{name}.map")
        prepare(grid)
        rng = np.random.default_rng(args.seed)
        free = np.argwhere(grid.passable)[:, ::-1]
        picks = free[rng.integers(0, len(free), args.edits)]
        single = [edit_cost(grid, pick[None, :]) for pick in picks]
        blocks = [edit_cost(grid, block_at(int(x), int(y), 8, grid)) for x, y in picks]
        rebuild = [rebuild_cost(grid) for _ in range(3)]
        timings = [single, blocks, rebuild]
        if args.graph:
            graph = KeyPointGraph.bake(grid)
            timings.append([edit_cost(grid, pick[None, :], graph) for pick in picks])
            timings.append(
                [frame_cost(grid, picks[i : i + FRAME], graph) for i in range(0, len(picks) - FRAME + 1, FRAME)]
                or [math.nan]
            )
            parts = np.array([edit_parts(grid, pick, graph) for pick in picks])
            totals = parts[:, :3].sum(axis=1)
            part_rows.append(
                [
                    name,
                    *(f"{ms:.2f}" for ms in np.median(parts, axis=0)),
                    f"{np.median(totals):.2f}",
                    f"{totals.mean():.2f}",
                    f"{totals.max():.1f}",
                ]
            )
        rows.append([name, f"{grid.width}x{grid.height}", *(f"{statistics.median(ms):.1f}" for ms in timings)])
    columns = ("map", "size", "1 cell ms", "8x8 block ms", "full rebuild ms")
    columns += ("1 cell + graph ms", f"{FRAME} cells a frame + graph, ms a cell") if args.graph else ()
    print(render(columns, rows, args.markdown))
    if part_rows:
        print()
        print(
            render(
                ("map", "islands", "jump tables", "graph patch", "landmarks", "1 cell CPU ms", "mean", "max"),
                part_rows,
                args.markdown,
            )
        )
    if not args.growth:
        return
    rows = []
    for name in args.maps:
        grid = Grid.from_movingai(MOVINGAI / f"{name}.map")
        prepare(grid)
        rng = np.random.default_rng(args.seed)
        free = np.argwhere(grid.passable)[:, ::-1]
        for count in args.growth:
            cells = free[rng.choice(len(free), min(count, len(free)), replace=False)]
            rows.append([name, str(len(cells)), *(f"{us:.1f}" for us in growth_row(grid, cells))])
    print()
    print(render(("map", "cells", "block us/cell", "free us/cell", "separate us/cell"), rows, args.markdown))


if __name__ == "__main__":
    main()
