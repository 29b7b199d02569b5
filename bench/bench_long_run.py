"""How many key points a border run should get: path quality and query time by ``long_run``.

    python3 -m bench.bench_long_run [--maps a,b] [--queries N]

Runs longer than ``long_run`` cells get two key points instead of one. For
each threshold: the mean and worst ratio of the graph's path length
(link="exact", smoothed) to the scenario's optimal length, the median query
ms, and the key points baked, over the same seeded queries.
"""

import argparse
import random
import statistics
import time

from pathing_py import Grid, KeyPointGraph
from pathing_py.tools.movingai import find_benchmarks, read_scenarios

THRESHOLDS = (4, 6, 8, 12, 1_000_000)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--maps", default="den520d,AR0011SR,gardenofwar,brc202d,Berlin_0_256")
    parser.add_argument("--queries", type=int, default=40)
    parser.add_argument("--seed", type=int, default=2)
    args = parser.parse_args()
    maps = find_benchmarks(__file__)
    if maps is None:
        parser.error("Moving AI maps not found in ../shared: set PATHING_PY_MOVINGAI")
    grids = {name: Grid.from_movingai(maps / f"{name}.map") for name in args.maps.split(",")}
    queries = {}
    for name, grid in grids.items():
        usable = [
            s
            for s in read_scenarios(maps / f"{name}.map.scen")
            if grid.is_passable(s.start) and grid.is_passable(s.goal)
        ]
        queries[name] = random.Random(args.seed).sample(usable, min(args.queries, len(usable)))
    print(f"{'long_run':>9} {'mean ratio':>11} {'worst ratio':>12} {'median ms':>10} {'key points':>11}")
    for threshold in THRESHOLDS:
        ratios, times, key_points = [], [], 0
        for name, grid in grids.items():
            graph = KeyPointGraph.bake(grid, long_run=threshold)
            key_points += len(graph.key_points())
            for scenario in queries[name]:
                started = time.perf_counter()
                result = graph.find_path(scenario.start, scenario.goal)
                times.append(time.perf_counter() - started)
                ratios.append(result.cost / scenario.optimal_length)
        label = "none" if threshold == THRESHOLDS[-1] else str(threshold)
        print(
            f"{label:>9} {statistics.mean(ratios):>11.4f} {max(ratios):>12.4f} "
            f"{statistics.median(times) * 1000:>10.2f} {key_points:>11}"
        )


if __name__ == "__main__":
    main()
