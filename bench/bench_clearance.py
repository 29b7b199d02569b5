#!/usr/bin/env python3
"""Clearance for unit sizes (SPEC G4): what the clearance map, the sized grids and their graphs cost.

    python3 -m bench.bench_clearance [--maps a,b] [--sizes 2,3] [--queries 40] [--seed 1] [--repeat 3]

Per map, three tables:

1. Clearance edits: ``n`` random cells (10, 100, 1000) are blocked in one
   edit, then freed in one edit; each is followed by ``ClearanceMap.update``
   (as shipped: tiles, or one pass over the map when the tiles are many),
   timed beside the tiles alone (``FULL_PASS_SHARE`` set to infinity) and a
   full recomputation (a new ClearanceMap; an update's whole-map pass also
   finds the changed cells, which costs about as much again). Then the whole catch-up of the
   sized worlds for the same edits: ``SizedGrids.cells_changed`` with the
   grids and graphs of the measured sizes in use, their search tables and
   islands brought up to date (``prepare``), beside baking those graphs anew.
2. Graphs: per size class, the free cells of the sized grid, the graph's
   bake time (the faster of two), the memory the graph holds and the bake's
   peak (tracemalloc, a third bake), key points; for sizes >= 2 with the base
   graph's clusters (what SizedGrids does) and with the clusters the bake
   picks for that unit size (``unit_size=k``, about ten blocks wide).
3. Queries: seeded pairs of cells on one island of the sized grid, answered
   by the graph (``link="exact"``) and by the exact search on the same sized
   grid, in the same run; length ratio graph / exact (mean, max), median ms
   of each and their ratio. Every graph path is checked legal on the sized
   grid (free blocks, king moves, no corner cut). "base illegal": how many of
   the same queries the size-1 graph answers with a path the block cannot
   follow, i.e. what a graph that ignores unit size would get wrong.

Times are wall-clock ms; the machine is shared, so only ratios measured in
the same run compare well.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
import tracemalloc
from typing import Callable, List, Optional, Sequence, Tuple

import numpy as np

import pathing_py.clearance as clearance_module
from bench.bench_hierarchy import GraphSolver
from bench.harness import MAPS_DIR, Answer, Ours, command_line, path_problem, ratio, render, run_solver
from pathing_py import Grid, KeyPointGraph, find_path, prepare
from pathing_py.clearance import ClearanceMap
from pathing_py.sized_grids import SizedGrids
from pathing_py.tools.movingai import Scenario

DEFAULT_MAPS = "random512-10-0,AR0011SR,8room_000,den520d"
EDIT_COUNTS = (10, 100, 1000)
EDITS_PER_COUNT = 3  # seeded batches per count, each blocked then freed


def median_ms(action: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        times.append((time.perf_counter() - started) * 1000.0)
    return statistics.median(times)


def edit_batches(grid: Grid, count: int, rng: np.random.Generator) -> List[np.ndarray]:
    """EDITS_PER_COUNT batches of ``count`` distinct free cells, as (N, 2) arrays of (x, y)."""
    free = np.argwhere(grid.passable)[:, ::-1]
    return [free[rng.choice(len(free), min(count, len(free)), replace=False)] for _ in range(EDITS_PER_COUNT)]


def clearance_row(grid: Grid, batches: List[np.ndarray], repeat: int) -> Tuple[float, float, float]:
    """Median ms of (update as shipped, tiles only, a fresh ClearanceMap) over the batches, blocked and freed."""
    passable = grid.passable.copy()
    shipped, tiles = ClearanceMap(passable), ClearanceMap(passable)
    times: Tuple[List[float], List[float], List[float]] = ([], [], [])
    share = clearance_module.FULL_PASS_SHARE
    for cells in batches:
        for blocked in (True, False):
            passable[cells[:, 1], cells[:, 0]] = not blocked
            times[0].append(median_ms(lambda: shipped.update(passable, cells), 1))
            clearance_module.FULL_PASS_SHARE = math.inf
            try:
                times[1].append(median_ms(lambda: tiles.update(passable, cells), 1))
            finally:
                clearance_module.FULL_PASS_SHARE = share
            times[2].append(median_ms(lambda: ClearanceMap(passable), repeat))
            assert np.array_equal(shipped.values, tiles.values) and np.array_equal(
                shipped.values, ClearanceMap(passable).values
            )
    return statistics.median(times[0]), statistics.median(times[1]), statistics.median(times[2])


def sync_row(sizes: SizedGrids, grids_only: SizedGrids, others: dict, batches: List[np.ndarray]) -> List[float]:
    """Median ms, over the batches blocked then freed, of: the base grid's catch-up and its graph's update
    (size 1, for scale);
    ``cells_changed`` plus the sized grids' catch-up (``prepare``) for SizedGrids without graphs and with
    theirs; and the update of the graphs ``others`` (size -> graph on ``sizes.grid(size)``) with the cells
    their grid flipped."""
    grid = sizes.base
    times: List[List[float]] = [[], [], [], [], []]
    for cells in batches:
        for blocked in (True, False):
            before = {size: sizes.grid(size).passable.copy() for size in others}
            grid.set_blocked(cells, blocked)
            times[0].append(median_ms(lambda: prepare(grid), 1))
            times[1].append(median_ms(lambda: sizes.base_graph.update(cells), 1))
            for column, world in ((2, grids_only), (3, sizes)):
                started = time.perf_counter()
                world.cells_changed(cells)
                for size in others:
                    prepare(world.grid(size))
                times[column].append((time.perf_counter() - started) * 1000.0)
            started = time.perf_counter()
            for size, graph in others.items():
                graph.update(np.argwhere(before[size] != sizes.grid(size).passable)[:, ::-1].tolist())
            times[4].append((time.perf_counter() - started) * 1000.0)
    return [statistics.median(column) for column in times]


def bake(grid: Grid, **settings) -> Tuple[KeyPointGraph, float, float, float]:
    """(graph, bake s: the faster of two, MB the graph holds, MB at the bake's peak: a third bake, traced)."""
    seconds = math.inf
    for _ in range(2):
        started = time.perf_counter()
        graph = KeyPointGraph.bake(grid, **settings)
        seconds = min(seconds, time.perf_counter() - started)
    tracemalloc.start()
    try:
        traced = KeyPointGraph.bake(grid, **settings)
        held, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    del traced
    return graph, seconds, held / 1e6, peak / 1e6


def query_sample(grid: Grid, count: int, rng: random.Random) -> List[Scenario]:
    """``count`` pairs of distinct cells on one island of ``grid``, with the exact search's length as optimum."""
    free = np.argwhere(grid.passable)[:, ::-1]
    sample: List[Scenario] = []
    for _ in range(200 * count):
        if len(sample) == count or len(free) < 2:
            break
        a, b = (tuple(int(v) for v in free[rng.randrange(len(free))]) for _ in range(2))
        if a != b and grid.same_island(a, b):
            sample.append(Scenario(0, a, b, find_path(grid, a, b).cost))
    return sorted(sample, key=lambda s: s.optimal_length)


GRAPH_COLUMNS = (
    "map", "size", "clusters", "free cells", "key points", "bake s", "held MB", "peak MB",
    "queries", "mean ratio", "max ratio", "graph med ms", "exact med ms", "graph/exact", "wrong", "base illegal",
)  # fmt: skip


def graph_row(
    name: str,
    label: str,
    grid: Grid,
    graph: KeyPointGraph,
    bake_figures,
    base: KeyPointGraph,
    count: int,
    seed: int,
    repeat: int,
) -> List[str]:
    """One row of the graph table; the query sample depends on the map and the grid's size only."""
    seconds, held, peak = bake_figures
    sample = query_sample(grid, count, random.Random(f"{seed}:{name}:{label.split()[0]}"))
    figures = [
        name,
        label,
        str(graph.cluster_size),
        str(int(grid.passable.sum())),
        str(len(graph.key_points())),
        f"{seconds:.2f}",
        f"{held:.1f}",
        f"{peak:.1f}",
    ]
    if not sample:
        return figures + ["0"] + ["-"] * 7
    indices = range(len(sample))
    graph_run = run_solver(GraphSolver(graph, "exact"), grid, sample, indices, repeat)
    exact_run = run_solver(Ours(), grid, sample, indices, repeat)
    ratios = list(graph_run.ratios.values())
    illegal = "-"
    if base.grid is not grid:
        answers = [base.find_path(s.start, s.goal) for s in sample]
        illegal = str(
            sum(
                path_problem(Answer(a.cells), s, grid.passable, optimal=False)[1] is not None
                for a, s in zip(answers, sample)
            )
        )
    relative, _, graph_ms, exact_ms = ratio(graph_run, exact_run)
    for line in graph_run.wrong[:3]:
        print(f"  wrong: {line}", file=sys.stderr)
    return figures + [
        str(len(sample)), f"{np.mean(ratios):.4f}", f"{max(ratios):.4f}", f"{graph_ms:.2f}", f"{exact_ms:.2f}",
        f"{relative:.2f}", str(len(graph_run.wrong)), illegal,
    ]  # fmt: skip


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--maps", default=DEFAULT_MAPS)
    parser.add_argument("--sizes", default="2,3", help="size classes >= 2 to measure (default 2,3)")
    parser.add_argument("--queries", type=int, default=40, help="queries per map and size (default 40)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="time each query this many times, keep the fastest")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args(argv)
    size_list = [int(s) for s in args.sizes.split(",") if s]
    if any(s < 2 for s in size_list) or args.queries < 1 or args.repeat < 1:
        parser.error("--sizes must be >= 2, --queries and --repeat >= 1")
    edit_rows, sync_rows, graph_rows = [], [], []
    for name in [m for m in args.maps.split(",") if m]:
        grid = Grid.from_movingai(MAPS_DIR / f"{name}.map")
        rng = np.random.default_rng(args.seed)
        batches = {count: edit_batches(grid, count, rng) for count in EDIT_COUNTS}
        for count in EDIT_COUNTS:
            shipped, tiles, fresh = clearance_row(grid, batches[count], args.repeat)
            edit_rows.append(
                [
                    name,
                    f"{grid.width}x{grid.height}",
                    str(count),
                    f"{shipped:.3f}",
                    f"{tiles:.3f}",
                    f"{fresh:.3f}",
                    f"{shipped / fresh:.2f}",
                ]
            )
        base, *base_figures = bake(grid)
        graph_rows.append(graph_row(name, "1", grid, base, base_figures, base, args.queries, args.seed, args.repeat))
        sizes, grids_only = SizedGrids(grid, graph=base), SizedGrids(grid)
        others = {}
        bake_s = 0.0
        for size in size_list:
            sized = sizes.grid(size)
            graph = sizes.graph(size)  # the graph SizedGrids hands out: the base graph's clusters
            _, *figures = bake(sized, cluster_size=base.cluster_size, unit_size=size, long_run=base.long_run)
            bake_s += figures[0]
            graph_rows.append(
                graph_row(name, f"{size}", sized, graph, figures, base, args.queries, args.seed, args.repeat)
            )
            others[size], *figures = bake(sized, unit_size=size, long_run=base.long_run)
            graph_rows.append(
                graph_row(
                    name,
                    f"{size} (unit-size clusters)",
                    sized,
                    others[size],
                    figures,
                    base,
                    args.queries,
                    args.seed,
                    args.repeat,
                )
            )
            prepare(grids_only.grid(size))
        for count in EDIT_COUNTS:
            figures = sync_row(sizes, grids_only, others, batches[count])
            sync_rows.append([name, str(count)] + [f"{ms:.1f}" for ms in figures] + [f"{bake_s * 1000:.0f}"])
        print(f"{name}: done", file=sys.stderr, flush=True)
    print("Clearance map, after one edit of n random free cells (median ms, blocked and freed):")
    print(
        render(
            ("map", "size", "n cells", "update ms", "tiles only ms", "new map ms", "update/new"),
            edit_rows,
            args.markdown,
        )
    )
    print(
        f"\nSized worlds (sizes {args.sizes}) after the same edits, median ms. "
        "For scale, size 1: the base grid's catch-up"
    )
    print(
        "(prepare) and its graph's update. SizedGrids.cells_changed + prepare of the sized grids, "
        "without graphs and with"
    )
    print(
        "theirs (base clusters: what SizedGrids costs). The alternative's graph share: graphs with unit-size clusters"
    )
    print("updated alone. Last, baking SizedGrids' graphs anew:")
    columns = (
        "map",
        "n cells",
        "base grid",
        "base graph",
        "grids only",
        "grids and graphs",
        "graphs (unit-size clusters)",
        "graphs baked anew",
    )
    print(render(columns, sync_rows, args.markdown))
    print("\nKey-point graph per size class; queries against the exact search on the same sized grid:")
    print(render(GRAPH_COLUMNS, graph_rows, args.markdown))
    print(f"\nCommand: {command_line('bench_clearance.py', argv)}")
    wrong = sum(int(row[14]) for row in graph_rows if row[14] != "-")
    if wrong:
        print(f"FAIL: {wrong} graph answers were not legal paths of their block (see stderr)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
