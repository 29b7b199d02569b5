#!/usr/bin/env python3
"""Benchmark pathing_py.find_path against tcod and python-pathfinding on Moving AI maps.

Every solver answers the same seeded sample of Moving AI scenarios, in the
same order, on each map (8-connected, no corner cutting: the rule the
published optimal lengths use). Per-map structures (our Grid and its search
tables, tcod's graph, pathfinding's node grid) are built before timing, as a
game bakes its maps when a level loads; only the queries are timed. Every
returned path is checked: legal king moves, no corner cut, octile length equal
to the scenario's optimal length within 0.006. Ours must never be wrong (the
exit status is 1 if it is); tcod's integer edge costs (1000 / 1414) may pick
slightly longer paths, so its mismatches are only counted.

``--connectivity 4`` runs the same queries on 4-connected grids (straight
steps only): tcod with cardinal edges only, python-pathfinding with
DiagonalMovement.never, and the optimum of each query computed untimed by
tcod's Dijkstra over a distance map (``tcod.path.dijkstra2d``, diagonals
off), since the scenario files give 8-connected lengths only.

Each query is timed ``--repeat`` times (default 3) and the fastest run kept,
because the medians of single runs move by tens of percent when other
processes share the machine. python-pathfinding takes seconds per long query,
so it answers an evenly spread subset of the sample (the shortest and longest
query included).

Usage::

    python3 -m bench.bench_search                 # 60 queries per map, all 10 maps
    python3 -m bench.bench_search --per-map 20 --maps den520d,maze512-1-0
    python3 -m bench.bench_search --markdown      # docs/benchmarks.md's table (bench/readme_tables.py copies it there)
    python3 -m bench.bench_search --connectivity 4 --per-map 20 --markdown

The maps are read from ../shared/benchmarks/movingai relative to the
repository, or from $PATHING_PY_MOVINGAI. Needs ``pip install .[bench]``.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from typing import Dict, List, NamedTuple, Optional, Sequence

import numpy as np

from bench.harness import (
    MAPS_DIR,
    TOLERANCE,
    Answer,
    Ours,
    Run,
    Solver,
    Tcod,
    add_common_arguments,
    check_common_arguments,
    command_line,
    ratio,
    render,
    require,
    run_solver,
    sample_scenarios,
)
from pathing_py import Cell, Grid
from pathing_py.tools.movingai import Scenario, read_scenarios

try:
    import tcod.path
    from pathfinding.core.diagonal_movement import DiagonalMovement
    from pathfinding.core.grid import Grid as NodeGrid
    from pathfinding.finder.a_star import AStarFinder
except ImportError:  # the parser is built without them (see harness.require); parse_args stops a run
    pass

PF_TARGET = 5.0  # pathfinding / ours must be at least this
TCOD_TARGET = 3.0  # ours / tcod must be at most this


class PythonPathfinding(Solver):
    """python-pathfinding's A* with DiagonalMovement.only_when_no_obstacle (no corner cutting), or never
    (4-connected grids)."""

    name = "pathfinding"

    def bake(self, grid: Grid) -> None:
        self.nodes = NodeGrid(matrix=grid.passable.astype(np.int8))  # > 0 is walkable
        diagonals = DiagonalMovement.only_when_no_obstacle if grid.connectivity == 8 else DiagonalMovement.never
        self.finder = AStarFinder(diagonal_movement=diagonals)

    def reset(self) -> None:
        # Its nodes keep the last search's state. Clearing them here, untimed,
        # flatters pathfinding; find_path would otherwise do it itself (dirty flag).
        self.nodes.cleanup()
        self.nodes.dirty = False

    def query(self, start: Cell, goal: Cell) -> object:
        return self.finder.find_path(self.nodes.node(*start), self.nodes.node(*goal), self.nodes)

    def answer(self, raw) -> Answer:
        path, runs = raw
        return Answer([(node.x, node.y) for node in path], None, runs)

    def release(self) -> None:
        self.nodes = None
        self.finder = None


# -- running ----------------------------------------------------------------------


def spread_subset(size: int, count: int) -> List[int]:
    """``count`` indices evenly spread over range(size), first and last included."""
    if count >= size:
        return list(range(size))
    if count <= 1:
        return [size - 1] if count == 1 else []
    return sorted({round(i * (size - 1) / (count - 1)) for i in range(count)})


class MapResult(NamedTuple):
    name: str
    size: str
    queries: int
    load_s: float
    runs: Dict[str, Run]


def straight_step_optimum(grid: Grid, scenario: Scenario) -> Scenario:
    """The scenario with the length of its shortest path of straight steps, by tcod's Dijkstra (untimed)."""
    distance = tcod.path.maxarray(grid.passable.shape, dtype=np.int32)
    distance[scenario.start[1], scenario.start[0]] = 0
    tcod.path.dijkstra2d(distance, grid.passable.astype(np.int8), 1, 0, out=distance)
    return scenario._replace(optimal_length=float(distance[scenario.goal[1], scenario.goal[0]]))


def bench_map(name: str, per_map: int, pf_queries: int, seed: int, repeat: int, connectivity: int) -> MapResult:
    """Load one map, draw its sample and run the three solvers on it."""
    started = time.perf_counter()
    grid = Grid.from_movingai(MAPS_DIR / f"{name}.map", connectivity=connectivity)
    load_s = time.perf_counter() - started
    sample = sample_scenarios(
        read_scenarios(MAPS_DIR / f"{name}.map.scen"), grid, per_map, random.Random(f"{seed}:{name}")
    )
    if connectivity == 4:
        sample = [straight_step_optimum(grid, scenario) for scenario in sample]
    everything = range(len(sample))
    runs = {
        "ours": run_solver(Ours(), grid, sample, everything, repeat),
        "tcod": run_solver(Tcod(), grid, sample, everything, repeat),
        "pathfinding": run_solver(PythonPathfinding(), grid, sample, spread_subset(len(sample), pf_queries), repeat),
    }
    return MapResult(name, f"{grid.width}x{grid.height}", len(sample), load_s, runs)


# -- reporting --------------------------------------------------------------------


def verdict(value: float, ok: bool) -> str:
    return "n/a" if math.isnan(value) else ("yes" if ok else "NO")


COLUMNS = (
    "map", "size", "queries", "our setup s", "our median ms", "our p95 ms", "our exp med",
    "tcod median ms", "pf queries", "pathfinding median ms", "ours ms on pf set", "pathfinding / ours", ">=5",
    "ours / tcod", "<=3", "wrong ours/tcod/pf",
)  # fmt: skip
README_COLUMNS = (
    "map", "size", "our median ms", "our p95 ms", "tcod median ms", "pathfinding median ms", "pathfinding / ours",
    "ours / tcod",
)  # fmt: skip


def times_faster(value: float) -> str:
    """A speed-up: whole from 10 on, one decimal below."""
    return f"{value:.0f}" if value >= 10 else f"{value:.1f}"


def table_row(result: MapResult) -> List[str]:
    """The cells of one row; ``result`` may pool several maps (the 'all' row)."""
    ours, tcod, pf = (result.runs[k] for k in ("ours", "tcod", "pathfinding"))
    pf_ratio, pf_n, pf_ms, ours_on_pf = ratio(pf, ours)
    tcod_ratio, _, _, _ = ratio(ours, tcod)
    our_ms = list(ours.ms.values())
    return [
        result.name,
        result.size,
        str(result.queries),
        f"{result.load_s + ours.setup_s:.2f}",
        f"{np.median(our_ms):.2f}" if our_ms else "n/a",
        f"{np.percentile(our_ms, 95):.2f}" if our_ms else "n/a",
        f"{np.median(ours.expanded):.0f}" if ours.expanded else "n/a",
        f"{np.median(list(tcod.ms.values())):.2f}" if tcod.ms else "n/a",
        str(pf_n),
        f"{pf_ms:.1f}",
        f"{ours_on_pf:.2f}",
        times_faster(pf_ratio),
        verdict(pf_ratio, pf_ratio >= PF_TARGET),
        f"{tcod_ratio:.2f}",
        verdict(tcod_ratio, tcod_ratio <= TCOD_TARGET),
        "/".join(str(len(result.runs[k].wrong)) for k in ("ours", "tcod", "pathfinding")),
    ]


def pooled(results: Sequence[MapResult]) -> MapResult:
    """All maps as one: per-query times keyed by (map, query) so the medians pool every query."""
    runs = {}
    for solver in ("ours", "tcod", "pathfinding"):
        parts = [r.runs[solver] for r in results]
        runs[solver] = Run(
            sum(p.setup_s for p in parts),
            {(r.name, i): ms for r, p in zip(results, parts) for i, ms in p.ms.items()},
            {(r.name, i): share for r, p in zip(results, parts) for i, share in p.ratios.items()},
            [w for p in parts for w in p.wrong],
            [e for p in parts for e in p.expanded],
        )
    return MapResult("all", "", sum(r.queries for r in results), sum(r.load_s for r in results), runs)


NOTES = """\
Times are wall-clock ms per query (time.perf_counter), the fastest of {repeat} runs of each query, after
one warm-up query per solver and map; every solver runs the map's queries in the same order;
per-map structures are built untimed (our setup s = Grid.from_movingai + the first query, which
builds the islands and jump tables). pf = pathfinding = python-pathfinding A*, DiagonalMovement.only_when_no_obstacle,
timed on {pf} evenly spread queries of each map's sample (shortest and longest included); its
grid.cleanup() between queries is not timed. pathfinding / ours = median pf ms / median ours ms over the
queries of that subset both answered with a legal path ("ours ms on pf set" is the denominator); ours / tcod =
median ours ms / median tcod ms over all queries both answered. "wrong" counts answers with no path,
an illegal path or a length off the scenario's optimum by more than {tol}. Targets: pathfinding / ours >= {pft:g},
ours / tcod <= {tt:g}. The 'all' row pools every query of every map."""


NOTES_4 = """\
4-connected run: every solver takes straight steps only (ours: Grid(..., connectivity=4), a jump point
search of straight steps with the Manhattan estimate, pathing_py/rook_jumps.py; tcod: cardinal edges,
estimate with diagonal 2000 = Manhattan; pf: DiagonalMovement.never);
"optimum" is each query's shortest straight-step length by tcod.path.dijkstra2d, computed untimed."""


def progress(result: MapResult) -> None:
    """One line per map on stderr while the run goes on, and the first few wrong answers."""
    setups = ", ".join(f"{k} setup {r.setup_s:.2f} s" for k, r in result.runs.items())
    print(f"{result.name}: {result.queries} queries; load {result.load_s:.2f} s, {setups}", file=sys.stderr, flush=True)
    for run in result.runs.values():
        for line in run.wrong[:3]:
            print(f"  wrong: {line}", file=sys.stderr)


def argument_parser() -> argparse.ArgumentParser:
    """The options, without their checks: bench/readme_tables.py --check parses the README's commands with it."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_common_arguments(parser)
    parser.add_argument(
        "--pf-queries", type=int, default=8, help="how many of them python-pathfinding answers (default 8)"
    )
    parser.add_argument(
        "--connectivity", type=int, choices=(8, 4), default=8,
        help="8 (default; the scenarios' rule) or 4: straight steps only, optima by tcod.path.dijkstra2d",
    )  # fmt: skip
    return parser


def parse_args(argv: Optional[Sequence[str]] = None) -> argparse.Namespace:
    parser = argument_parser()
    args = parser.parse_args(argv)
    check_common_arguments(parser, args)
    require(parser, "pathfinding")
    if args.pf_queries < 0:
        parser.error("--pf-queries must be >= 0")
    return args


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = parse_args(argv)
    results = []
    for name in args.maps:
        results.append(bench_map(name, args.per_map, args.pf_queries, args.seed, args.repeat, args.connectivity))
        progress(results[-1])
    rows = [table_row(r) for r in results]
    if len(results) > 1:
        rows.append(table_row(pooled(results)))
    print(render(COLUMNS, rows, args.markdown, README_COLUMNS))
    print()
    print(NOTES.format(repeat=args.repeat, pf=args.pf_queries, tol=TOLERANCE, pft=PF_TARGET, tt=TCOD_TARGET))
    if args.connectivity == 4:
        print(NOTES_4)
    print(
        f"\nCommand: {command_line('bench_search.py', argv)} "
        f"(seed {args.seed}, {args.per_map} per map, best of {args.repeat})"
    )
    ours_wrong = sum(len(r.runs["ours"].wrong) for r in results)
    if ours_wrong:
        print(f"FAIL: pathing_py answered {ours_wrong} queries wrongly (see stderr)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
