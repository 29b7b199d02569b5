#!/usr/bin/env python3
"""The key-point graph of hex maps against the exact hex search: Moving AI maps read as half-offset cells.

Each map is read as rows moved by half a cell (cells 64x48 pixels, as a Godot TileMap with
``cell_half_offset`` x), its :class:`~pathing_py.hierarchy.HexKeyPointGraph` baked, and a sample of its
scenarios (short to long, as bench_hierarchy.py's) answered by both, in turn on each query (the first of each
pair alternating), in CPU time: the figure is the ratio of the two totals, which the machine's load shifts far
less than either. Without smoothing (the exact search against ``find_path(smooth=False)``), and with it (the exact
search and one pass of :func:`~pathing_py.hex_lines.smooth_hex_path`, as the NavGrid smooths, against the
graph's own smoothing, a pass each way).
Also printed: the bake's CPU time, and the graph's path costs against the shortest (mean and worst).

Usage::

    python3 -m bench.bench_hex_graph --markdown      # den520d, maze512-1-0, random512-10-0, Paris_0_1024
    python3 -m bench.bench_hex_graph random512-10-0 --queries 24 --exact-first 0
"""

import argparse
import random
import time
from typing import List, Optional

import numpy as np

from bench.harness import MAPS_DIR, sample_scenarios
from pathing_py import Grid
from pathing_py.cell_layout import CellLayout
from pathing_py.hex_grid import HexSteps, find_hex_path
from pathing_py.hex_lines import smooth_hex_path
from pathing_py.hierarchy import HexKeyPointGraph
from pathing_py.search import PathResult
from pathing_py.tools.movingai import Scenario, read_scenarios

#: A half-offset layout as Godot's TileMap gives it: rows moved by half a cell, cells 64x48 pixels.
LAYOUT = CellLayout(x_axis=(64.0, 0.0), y_axis=(0.0, 48.0), offset_axis=0, shift=0.5)
DEFAULT_MAPS = ["den520d", "maze512-1-0", "random512-10-0", "Paris_0_1024"]


def run_map(name: str, queries: int, exact_first: Optional[float]) -> List[str]:
    """The map's row: size, bake s, then ms per query and ratios without and with smoothing, costs."""
    grid = Grid.from_movingai(MAPS_DIR / f"{name}.map")
    hexes = HexSteps(LAYOUT, grid.origin)
    started = time.process_time()
    graph = HexKeyPointGraph.bake(grid, LAYOUT)
    bake = time.process_time() - started
    scenarios = sample_scenarios(read_scenarios(MAPS_DIR / f"{name}.map.scen"), grid, queries, random.Random(name))

    def exact(scenario: Scenario, smooth: bool) -> PathResult:
        result = find_hex_path(grid, LAYOUT, scenario.start, scenario.goal)
        if smooth and result:
            smooth_hex_path(grid, hexes, result.cells)
        return result

    def through_graph(scenario: Scenario, smooth: bool) -> PathResult:
        return graph.find_path(scenario.start, scenario.goal, exact_first=exact_first, smooth=smooth)

    totals = {(finder, smooth): 0.0 for finder in (exact, through_graph) for smooth in (False, True)}
    ratios: List[float] = []
    for number, scenario in enumerate(scenarios):
        for smooth in (False, True):
            pair = (exact, through_graph) if number % 2 == 0 else (through_graph, exact)
            for finder in pair:
                started = time.process_time()
                result = finder(scenario, smooth)
                totals[finder, smooth] += time.process_time() - started
                if finder is exact:
                    shortest = result
                else:
                    found = result
            assert found.status is shortest.status, (name, scenario)
        if shortest.cost > 0:
            ratios.append(found.cost / shortest.cost)  # the graph's smoothed path
    per_query = {key: total / len(scenarios) * 1000 for key, total in totals.items()}
    return [
        name,
        f"{grid.width}x{grid.height}",
        f"{bake:.2f}",
        *(
            cell
            for smooth in (False, True)
            for cell in (
                f"{per_query[exact, smooth]:.1f}",
                f"{per_query[through_graph, smooth]:.1f}",
                f"{totals[through_graph, smooth] / totals[exact, smooth]:.2f}",
            )
        ),
        f"{np.mean(ratios):.4f}, {max(ratios):.4f}",
    ]


#: The columns of the table, for the plain and the Markdown output.
COLUMNS = [
    "map", "size", "bake s", "exact ms", "graph ms", "ratio", "exact + smoothing ms", "graph + smoothing ms", "ratio",
    "cost / shortest mean, max",
]  # fmt: skip


def argument_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("maps", nargs="*", default=DEFAULT_MAPS, help="Moving AI map names")
    parser.add_argument("--queries", type=int, default=16, help="scenarios per map (default 16)")
    parser.add_argument("--exact-first", type=float, default=None, help="find_path's exact_first (default its own)")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table (docs/benchmarks.md)")
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    args = argument_parser().parse_args(argv)
    print(f"CPU ms per query, the hex search and the hex graph paired (exact_first {args.exact_first}); {LAYOUT}")
    if args.markdown:
        print("| " + " | ".join(COLUMNS) + " |")
        print("|---|---|" + "---:|" * (len(COLUMNS) - 2))
    else:
        print("  ".join(COLUMNS))
    for name in args.maps:
        row = run_map(name, args.queries, args.exact_first)
        print(("| " + " | ".join(row) + " |") if args.markdown else "  ".join(row), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
