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

Each query is timed ``--repeat`` times (default 3) and the fastest run kept,
because the medians of single runs move by tens of percent when other
processes share the machine. python-pathfinding takes seconds per long query,
so it answers an evenly spread subset of the sample (the shortest and longest
query included).

Usage::

    python3 bench/bench_search.py                 # 60 queries per map, all 10 maps
    python3 bench/bench_search.py --per-map 20 --maps den520d,maze512-1-0
    python3 bench/bench_search.py --markdown      # the table as Markdown

The maps are read from ../shared/benchmarks/movingai relative to the
repository, or from $PATHING_PY_MOVINGAI. Needs ``pip install .[bench]``.
"""

from __future__ import annotations

import argparse
import gc
import math
import random
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Dict, Hashable, List, NamedTuple, Optional, Sequence, Tuple

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # benchmark the checkout, installed or not

from pathing_py import Cell, Grid, find_path  # noqa: E402
from pathing_py.movingai import Scenario, find_benchmarks, read_scenarios  # noqa: E402

try:
    import tcod.path
    from pathfinding.core.diagonal_movement import DiagonalMovement
    from pathfinding.core.grid import Grid as NodeGrid
    from pathfinding.finder.a_star import AStarFinder
except ImportError as error:
    sys.exit(f"bench_search.py needs tcod and pathfinding: pip install '.[bench]' ({error})")

MAPS_DIR = find_benchmarks(ROOT) or ROOT.parent / "shared" / "benchmarks" / "movingai"
MAPS = (
    "den520d",
    "brc202d",
    "AR0011SR",
    "BlackLotus",
    "gardenofwar",
    "maze512-1-0",
    "random512-10-0",
    "8room_000",
    "Berlin_0_256",
    "Paris_0_1024",
)
TOLERANCE = 0.006  # the scenario files round lengths to 2 decimals at worst
SQRT2 = math.sqrt(2.0)
PF_TARGET = 5.0  # pathfinding / ours must be at least this
TCOD_TARGET = 3.0  # ours / tcod must be at most this


# -- solvers ----------------------------------------------------------------------


class Answer(NamedTuple):
    """A solver's answer made comparable: cells (x, y) from start to goal, empty if none."""

    cells: List[Cell]
    cost: Optional[float] = None  # the length the solver reports, checked against its cells
    expanded: Optional[int] = None  # nodes the search expanded, when the solver says


class Solver:
    """One library behind the interface the benchmark loop drives.

    ``bake`` builds per-map structures (untimed), ``reset`` does untimed
    housekeeping before a query, ``query`` is the only timed call, and
    ``answer`` converts its raw result afterwards so conversion is not timed.
    """

    name = ""

    def bake(self, grid: Grid) -> None:
        raise NotImplementedError

    def reset(self) -> None:
        pass

    def query(self, start: Cell, goal: Cell) -> object:
        raise NotImplementedError

    def answer(self, raw: object) -> Answer:
        raise NotImplementedError

    def release(self) -> None:
        """Drop the per-map structures before the next map is baked."""


class Ours(Solver):
    """pathing_py.find_path; the jump tables are built by the warm-up query."""

    name = "ours"

    def bake(self, grid: Grid) -> None:
        self.grid = grid

    def query(self, start: Cell, goal: Cell) -> object:
        return find_path(self.grid, start, goal)

    def answer(self, raw) -> Answer:
        return Answer(raw.cells, raw.cost, raw.expanded)

    def release(self) -> None:
        self.grid = None


class Tcod(Solver):
    """tcod.path.CustomGraph with 1000 / 1414 edges; diagonals only where both orthogonal cells are free."""

    name = "tcod"

    def bake(self, grid: Grid) -> None:
        passable = grid.passable
        height, width = passable.shape
        cost = passable.astype(np.int8)  # 0 blocks a cell, 1 is the multiplier of edges into it
        padded = np.zeros((height + 2, width + 2), dtype=bool)
        padded[1:-1, 1:-1] = passable
        graph = tcod.path.CustomGraph((height, width))  # indexed (y, x)
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                if dx and dy:
                    # the edge leaves (y, x) only if (y + dy, x) and (y, x + dx) are free
                    both_sides = padded[1 + dy : 1 + dy + height, 1 : 1 + width] & padded[1 : 1 + height, 1 + dx : 1 + dx + width]
                    graph.add_edge((dy, dx), 1414, cost=cost, condition=both_sides)
                elif dx or dy:
                    graph.add_edge((dy, dx), 1000, cost=cost)
        graph.set_heuristic(cardinal=1000, diagonal=1414)
        self.graph = graph

    def query(self, start: Cell, goal: Cell) -> object:
        pathfinder = tcod.path.Pathfinder(self.graph)
        pathfinder.add_root((start[1], start[0]))
        return pathfinder.path_to((goal[1], goal[0]))

    def answer(self, raw) -> Answer:
        cells = [(int(x), int(y)) for y, x in raw.tolist()]
        return Answer(cells if len(cells) > 1 else [])  # a lone cell means "no path" here (start != goal)

    def release(self) -> None:
        self.graph = None


class PythonPathfinding(Solver):
    """python-pathfinding's A* with DiagonalMovement.only_when_no_obstacle (no corner cutting)."""

    name = "pathfinding"

    def bake(self, grid: Grid) -> None:
        self.nodes = NodeGrid(matrix=grid.passable.astype(np.int8))  # > 0 is walkable
        self.finder = AStarFinder(diagonal_movement=DiagonalMovement.only_when_no_obstacle)

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


# -- checking ---------------------------------------------------------------------


def path_problem(answer: Answer, scenario: Scenario, passable: np.ndarray) -> Tuple[bool, Optional[str]]:
    """(legal, problem): whether the answer is a legal path, and what is wrong with it, if anything.

    Legal means start to goal over free cells by king moves with no corner
    cut; a legal path can still be wrong by being longer than the optimum.
    """
    if not answer.cells:
        return False, "no path"
    cells = np.asarray(answer.cells)
    if tuple(cells[0]) != scenario.start or tuple(cells[-1]) != scenario.goal:
        return False, f"path runs {tuple(cells[0])}..{tuple(cells[-1])}"
    if not passable[cells[:, 1], cells[:, 0]].all():
        return False, "path crosses a blocked cell"
    steps = np.diff(cells, axis=0)
    if np.abs(steps).max(axis=1).tolist() != [1] * len(steps):
        return False, "path has a step that is not a king move"
    diagonal = (steps[:, 0] != 0) & (steps[:, 1] != 0)
    origins = cells[:-1][diagonal]
    sides_free = passable[origins[:, 1], origins[:, 0] + steps[diagonal, 0]] & passable[origins[:, 1] + steps[diagonal, 1], origins[:, 0]]
    if not sides_free.all():
        return False, "path cuts a corner"
    length = float(len(steps) - diagonal.sum()) + SQRT2 * float(diagonal.sum())
    if abs(length - scenario.optimal_length) > TOLERANCE:
        return True, f"length {length:.4f}, optimal {scenario.optimal_length:.4f}"
    if answer.cost is not None and abs(answer.cost - length) > 1e-6:
        return True, f"reported cost {answer.cost:.4f}, path length {length:.4f}"
    return True, None


# -- running ----------------------------------------------------------------------


class Run(NamedTuple):
    """One solver's results on one map, keyed by the query's index in the sample."""

    setup_s: float
    ms: Dict[Hashable, float]  # ms per query answered with a legal path, keyed by sample index
    wrong: List[str]  # one line per query answered wrongly (no path, illegal, too long)
    expanded: List[int]


def sample_scenarios(scenarios: Sequence[Scenario], grid: Grid, count: int, rng: random.Random) -> List[Scenario]:
    """``count`` problems with free endpoints at evenly spaced buckets (first and longest included), short to long.

    Buckets are floor(optimal / 4), so this spreads the sample over path lengths.
    """
    by_bucket: Dict[int, List[Scenario]] = defaultdict(list)
    for scenario in scenarios:
        if grid.is_passable(scenario.start) and grid.is_passable(scenario.goal):
            by_bucket[scenario.bucket].append(scenario)
    buckets = sorted(by_bucket)
    last = len(buckets) - 1
    picks = Counter(buckets[round(i * last / max(count - 1, 1))] for i in range(count))
    chosen: List[Scenario] = []
    for bucket in sorted(picks):
        pool = by_bucket[bucket]
        chosen += sorted(rng.sample(pool, min(picks[bucket], len(pool))), key=lambda s: s.optimal_length)
    return chosen


def spread_subset(size: int, count: int) -> List[int]:
    """``count`` indices evenly spread over range(size), first and last included."""
    if count >= size:
        return list(range(size))
    if count <= 1:
        return [size - 1] if count == 1 else []
    return sorted({round(i * (size - 1) / (count - 1)) for i in range(count)})


def time_query(solver: Solver, scenario: Scenario, repeat: int) -> Tuple[float, object]:
    """The best of ``repeat`` timings of one query, and its last raw answer.

    The minimum filters out other processes sharing the machine; each run
    starts from the same untimed reset, so none is helped by the previous one.
    """
    best = math.inf
    for _ in range(repeat):
        solver.reset()
        started = time.perf_counter()
        raw = solver.query(scenario.start, scenario.goal)
        best = min(best, time.perf_counter() - started)
    return best, raw


def run_solver(solver: Solver, grid: Grid, sample: Sequence[Scenario], indices: Sequence[int], repeat: int) -> Run:
    """Bake, warm up on the shortest query, then time ``sample[i]`` for each i in order.

    The baked structures are frozen out of the garbage collector's reach so
    collections during timing do not rescan a million map nodes.
    """
    started = time.perf_counter()
    solver.bake(grid)
    solver.reset()
    solver.query(sample[0].start, sample[0].goal)
    setup_s = time.perf_counter() - started
    gc.collect()
    gc.freeze()
    ms: Dict[int, float] = {}
    wrong: List[str] = []
    expanded: List[int] = []
    try:
        for i in indices:
            scenario = sample[i]
            elapsed, raw = time_query(solver, scenario, repeat)
            answer = solver.answer(raw)
            legal, problem = path_problem(answer, scenario, grid.passable)
            if legal:
                ms[i] = elapsed * 1000.0
            if problem:
                wrong.append(f"{solver.name}: {scenario.start} -> {scenario.goal} (bucket {scenario.bucket}): {problem}")
            if answer.expanded is not None:
                expanded.append(answer.expanded)
    finally:
        gc.unfreeze()
        solver.release()
    return Run(setup_s, ms, wrong, expanded)


class MapResult(NamedTuple):
    name: str
    size: str
    queries: int
    load_s: float
    runs: Dict[str, Run]


def bench_map(name: str, per_map: int, pf_queries: int, seed: int, repeat: int) -> MapResult:
    """Load one map, draw its sample and run the three solvers on it."""
    started = time.perf_counter()
    grid = Grid.from_movingai(MAPS_DIR / f"{name}.map")
    load_s = time.perf_counter() - started
    sample = sample_scenarios(read_scenarios(MAPS_DIR / f"{name}.map.scen"), grid, per_map, random.Random(f"{seed}:{name}"))
    everything = range(len(sample))
    runs = {
        "ours": run_solver(Ours(), grid, sample, everything, repeat),
        "tcod": run_solver(Tcod(), grid, sample, everything, repeat),
        "pathfinding": run_solver(PythonPathfinding(), grid, sample, spread_subset(len(sample), pf_queries), repeat),
    }
    return MapResult(name, f"{grid.width}x{grid.height}", len(sample), load_s, runs)


# -- reporting --------------------------------------------------------------------


def median_on(run: Run, keys: Sequence) -> float:
    return float(np.median([run.ms[k] for k in keys])) if keys else math.nan


def ratio(slow: Run, fast: Run) -> Tuple[float, int, float, float]:
    """(median(slow) / median(fast), n, both medians) over the queries both answered with a legal path."""
    both = sorted(slow.ms.keys() & fast.ms.keys())
    slow_ms, fast_ms = median_on(slow, both), median_on(fast, both)
    return slow_ms / fast_ms if both else math.nan, len(both), slow_ms, fast_ms


def verdict(value: float, ok: bool) -> str:
    return "n/a" if math.isnan(value) else ("yes" if ok else "NO")


COLUMNS = (
    "map", "size", "queries", "our setup s", "ours med ms", "ours p95 ms", "our exp med",
    "tcod med ms", "pf queries", "pf med ms", "ours ms on pf set", "pf/ours", ">=5",
    "ours/tcod", "<=3", "wrong ours/tcod/pf",
)  # fmt: skip


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
        f"{pf_ratio:.1f}",
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
            [w for p in parts for w in p.wrong],
            [e for p in parts for e in p.expanded],
        )
    return MapResult("all", "", sum(r.queries for r in results), sum(r.load_s for r in results), runs)


NOTES = """\
Times are wall-clock ms per query (time.perf_counter), the fastest of {repeat} runs of each query, after
one warm-up query per solver and map; every solver runs the map's queries in the same order;
per-map structures are built untimed (our setup s = Grid.from_movingai + the first query, which
builds the islands and jump tables). pf = python-pathfinding A*, DiagonalMovement.only_when_no_obstacle,
timed on {pf} evenly spread queries of each map's sample (shortest and longest included); its
grid.cleanup() between queries is not timed. pf/ours = median pf ms / median ours ms over the queries
of that subset both answered with a legal path ("ours ms on pf set" is the denominator); ours/tcod =
median ours ms / median tcod ms over all queries both answered. "wrong" counts answers with no path,
an illegal path or a length off the scenario's optimum by more than {tol}. Targets: pf/ours >= {pft:g},
ours/tcod <= {tt:g}. The 'all' row pools every query of every map."""


def render(rows: Sequence[Sequence[str]], markdown: bool) -> str:
    """The table as aligned text or as Markdown; text columns are right-aligned except the map name."""
    if markdown:
        lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "|".join(["---"] + ["---:"] * (len(COLUMNS) - 1)) + "|"]
        return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows])
    widths = [max(len(c), *(len(row[i]) for row in rows)) for i, c in enumerate(COLUMNS)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))

    return "\n".join([line(COLUMNS), line(["-" * w for w in widths])] + [line(row) for row in rows])


def progress(result: MapResult) -> None:
    """One line per map on stderr while the run goes on, and the first few wrong answers."""
    setups = ", ".join(f"{k} setup {r.setup_s:.2f} s" for k, r in result.runs.items())
    print(f"{result.name}: {result.queries} queries; load {result.load_s:.2f} s, {setups}", file=sys.stderr, flush=True)
    for run in result.runs.values():
        for line in run.wrong[:3]:
            print(f"  wrong: {line}", file=sys.stderr)


def parse_args(argv: Optional[Sequence[str]] = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-map", type=int, default=60, help="queries per map, spread over all buckets (default 60)")
    parser.add_argument("--pf-queries", type=int, default=8, help="how many of them python-pathfinding answers (default 8)")
    parser.add_argument("--maps", default=",".join(MAPS), help="comma-separated map names (default: all ten)")
    parser.add_argument("--seed", type=int, default=1, help="sampling seed (default 1)")
    parser.add_argument("--repeat", type=int, default=3, help="time each query this many times, keep the fastest (default 3)")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    args = parser.parse_args(argv)
    args.maps = [m for m in args.maps.split(",") if m]
    unknown = [m for m in args.maps if not (MAPS_DIR / f"{m}.map").is_file()]
    if unknown:
        parser.error(f"no map {', '.join(unknown)} in {MAPS_DIR} (set PATHING_PY_MOVINGAI)")
    if args.per_map < 1 or args.pf_queries < 0 or args.repeat < 1:
        parser.error("--per-map and --repeat must be >= 1, --pf-queries >= 0")
    return args


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = parse_args(argv)
    results = []
    for name in args.maps:
        results.append(bench_map(name, args.per_map, args.pf_queries, args.seed, args.repeat))
        progress(results[-1])
    rows = [table_row(r) for r in results]
    if len(results) > 1:
        rows.append(table_row(pooled(results)))
    print(render(rows, args.markdown))
    print()
    print(NOTES.format(repeat=args.repeat, pf=args.pf_queries, tol=TOLERANCE, pft=PF_TARGET, tt=TCOD_TARGET))
    command = " ".join(["python3 bench/bench_search.py"] + list(sys.argv[1:] if argv is None else argv))
    print(f"\nCommand: {command} (seed {args.seed}, {args.per_map} per map, best of {args.repeat})")
    ours_wrong = sum(len(r.runs["ours"].wrong) for r in results)
    if ours_wrong:
        print(f"FAIL: pathing_py answered {ours_wrong} queries wrongly (see stderr)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
