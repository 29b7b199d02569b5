"""What the benchmarks share: the Moving AI maps, the seeded sample, solvers, checks and timing.

Every solver answers the same seeded sample of Moving AI scenarios, in the
same order, on each map (8-connected, no corner cutting: the rule the
published optimal lengths use), behind one interface (:class:`Solver`); only
its queries are timed, each the fastest of ``--repeat`` runs; every returned
path is checked against the grid and the scenario's optimal length.

The maps are read from ../shared/benchmarks/movingai relative to the
repository, or from $PATHING_PY_MOVINGAI. Needs ``pip install .[bench]``.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import math
import random
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Dict, Hashable, List, NamedTuple, Optional, Sequence, Tuple

import numpy as np

from bench.report import TOLERANCE, command_line, render  # noqa: F401  (re-exported for the benchmarks)
from pathing_py import Cell, Grid, find_path
from pathing_py.tools.movingai import Scenario, find_benchmarks

ROOT = Path(__file__).resolve().parent.parent

try:
    import tcod.path
except ImportError:  # a benchmark's parser is built without it (readme_tables.py --check); require() stops a run
    pass

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
SQRT2 = math.sqrt(2.0)


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
    ``optimal`` says whether a path longer than the optimum is a wrong answer
    or only a worse one (its length ratio is reported either way).
    """

    name = ""
    optimal = True

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
    """tcod.path.CustomGraph with 1000 / 1414 edges; diagonals only where both orthogonal cells are free.

    On a 4-connected grid, cardinal edges only, and the estimate counts a diagonal as two cardinal
    steps (so that it is the Manhattan distance).
    """

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
                if dx and dy and grid.connectivity == 8:
                    # the edge leaves (y, x) only if (y + dy, x) and (y, x + dx) are free
                    both_sides = (
                        padded[1 + dy : 1 + dy + height, 1 : 1 + width]
                        & padded[1 : 1 + height, 1 + dx : 1 + dx + width]
                    )
                    graph.add_edge((dy, dx), 1414, cost=cost, condition=both_sides)
                elif bool(dx) != bool(dy):
                    graph.add_edge((dy, dx), 1000, cost=cost)
        graph.set_heuristic(cardinal=1000, diagonal=1414 if grid.connectivity == 8 else 2000)
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


# -- checking ---------------------------------------------------------------------


def path_problem(
    answer: Answer, scenario: Scenario, passable: np.ndarray, optimal: bool = True, connectivity: int = 8
) -> Tuple[Optional[float], Optional[str]]:
    """(length, problem): the answer's octile length if it is a legal path (else None), and what is wrong, if anything.

    Legal means start to goal over free cells by king moves with no corner
    cut (straight moves only when ``connectivity`` is 4). A legal path is
    still wrong if the cost the solver reports is not its length, or, when
    ``optimal``, if it is longer than the optimum.
    """
    if not answer.cells:
        return None, "no path"
    cells = np.asarray(answer.cells)
    if tuple(cells[0]) != scenario.start or tuple(cells[-1]) != scenario.goal:
        return None, f"path runs {tuple(cells[0])}..{tuple(cells[-1])}"
    if not passable[cells[:, 1], cells[:, 0]].all():
        return None, "path crosses a blocked cell"
    steps = np.diff(cells, axis=0)
    if np.abs(steps).max(axis=1).tolist() != [1] * len(steps):
        return None, "path has a step that is not a king move"
    diagonal = (steps[:, 0] != 0) & (steps[:, 1] != 0)
    if connectivity == 4 and diagonal.any():
        return None, "path has a diagonal step on a 4-connected grid"
    origins = cells[:-1][diagonal]
    sides_free = (
        passable[origins[:, 1], origins[:, 0] + steps[diagonal, 0]]
        & passable[origins[:, 1] + steps[diagonal, 1], origins[:, 0]]
    )
    if not sides_free.all():
        return None, "path cuts a corner"
    length = float(len(steps) - diagonal.sum()) + SQRT2 * float(diagonal.sum())
    if optimal and abs(length - scenario.optimal_length) > TOLERANCE:
        return length, f"length {length:.4f}, optimal {scenario.optimal_length:.4f}"
    if answer.cost is not None and abs(answer.cost - length) > 1e-6:
        return length, f"reported cost {answer.cost:.4f}, path length {length:.4f}"
    return length, None


# -- running ----------------------------------------------------------------------


class Run(NamedTuple):
    """One solver's results on one map, keyed by the query's index in the sample."""

    setup_s: float
    ms: Dict[Hashable, float]  # ms per query answered with a legal path, keyed by sample index
    ratios: Dict[Hashable, float]  # path length / optimal length of the same queries
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
    run = Run(setup_s, {}, {}, [], [])
    try:
        for i in indices:
            scenario = sample[i]
            elapsed, raw = time_query(solver, scenario, repeat)
            answer = solver.answer(raw)
            length, problem = path_problem(answer, scenario, grid.passable, solver.optimal, grid.connectivity)
            if length is not None:
                run.ms[i] = elapsed * 1000.0
                run.ratios[i] = length / scenario.optimal_length
            if problem:
                run.wrong.append(
                    f"{solver.name}: {scenario.start} -> {scenario.goal} (bucket {scenario.bucket}): {problem}"
                )
            if answer.expanded is not None:
                run.expanded.append(answer.expanded)
    finally:
        gc.unfreeze()
        solver.release()
    return run


# -- reporting --------------------------------------------------------------------


def median_on(run: Run, keys: Sequence) -> float:
    return float(np.median([run.ms[k] for k in keys])) if keys else math.nan


def ratio(slow: Run, fast: Run) -> Tuple[float, int, float, float]:
    """(median(slow) / median(fast), n, both medians) over the queries both answered with a legal path."""
    both = sorted(slow.ms.keys() & fast.ms.keys())
    slow_ms, fast_ms = median_on(slow, both), median_on(fast, both)
    return slow_ms / fast_ms if both else math.nan, len(both), slow_ms, fast_ms


def add_common_arguments(parser: argparse.ArgumentParser) -> None:
    """The options every benchmark over the Moving AI maps takes; check them with :func:`check_common_arguments`."""
    parser.add_argument("--per-map", type=int, default=60, help="queries per map, spread over all buckets (default 60)")
    parser.add_argument("--maps", default=",".join(MAPS), help="comma-separated map names (default: all ten)")
    parser.add_argument("--seed", type=int, default=1, help="sampling seed (default 1)")
    parser.add_argument(
        "--repeat", type=int, default=3, help="time each query this many times, keep the fastest (default 3)"
    )
    parser.add_argument(
        "--markdown", action="store_true", help="print the table as docs/benchmarks.md shows it (Markdown, its columns)"
    )


def require(parser: argparse.ArgumentParser, *modules: str) -> None:
    """Stop through ``parser`` if any of the peer libraries ``modules`` cannot be imported.

    The benchmarks import their peers in a ``try`` so that their argument parsers can be built
    without them (``bench/readme_tables.py --check`` does, in CI, where the bench extra is not
    installed); a run calls this once its arguments are parsed.
    """
    missing = []
    for name in modules:
        try:
            importlib.import_module(name)
        except ImportError as error:
            missing.append(f"{name} ({error})")
    if missing:
        parser.error(f"this benchmark needs {', '.join(missing)}: pip install '.[bench]'")


def check_common_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Check that tcod is there, split ``--maps`` into names (each must exist) and reject non-positive counts."""
    require(parser, "tcod")
    args.maps = [m for m in args.maps.split(",") if m]
    unknown = [m for m in args.maps if not (MAPS_DIR / f"{m}.map").is_file()]
    if unknown:
        parser.error(f"no map {', '.join(unknown)} in {MAPS_DIR} (set PATHING_PY_MOVINGAI)")
    if args.per_map < 1 or args.repeat < 1:
        parser.error("--per-map and --repeat must be >= 1")
