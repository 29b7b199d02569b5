#!/usr/bin/env python3
"""Benchmark the addon inside Godot: NavGrid.find_path against Godot's own AStar2D, and PathUnits per frame.

The peer a Godot user would otherwise pick is the engine's AStar2D, so the
comparison runs in the engine (godot3-server, headless Godot 3.2.3, with
pythonscript 0.50 and its CPython 3.8), in one process. This launcher copies
the project with pythonscript into a temporary folder (tools/godot_python.py),
adds ``bench/engine/`` and runs ``res://bench/engine/navigation_bench.tscn``
at ``--fixed-fps 60``; the engine prints its measurements as JSON lines and
this script prints the tables.

Per Moving AI map, turned into a TileMap inside the engine (a floor tile, and a
wall tile with a collision shape; one ``set_cell`` a cell):

- a NavGrid with the exact search (``graph_path`` ""), a NavGrid with the
  key-point graph (baked in the engine by pathing_py, loaded through
  ``graph_path``), and an AStar2D (compact ids, ``reserve_space``,
  8-connected, no diagonal past a blocked side; euclidean costs 1 and
  sqrt(2)) built from Python as a GDScript game would, each timed, with the
  process's resident memory (/proc/self/statm) before and after;
- the same seeded long scenarios (drawn from the map's longest, the top
  buckets of its .scen file) asked of each, in turn: ``call("find_path",
  from, to)`` on the NavGrids (unsmoothed, like AStar2D's paths),
  ``get_point_path`` on the AStar2D; the fastest of ``--repeat`` runs of each
  query. Exact and AStar2D paths must be legal and optimal, graph paths legal
  (their length over the optimal one is the quality ratio).

Then PathUnits under one NavGrid on ``--units-map``, each ordered to a random
cell it can reach: the engine runs physics frames until every order is planned
(the NavGrid plans within ``plan_budget_ms`` a frame), then ``--frames``
frames of units on the move; the NavGrid's ``_physics_process`` (all the
Python a frame of units costs) is timed in each.

Last, bench_groups.py's scenario in the engine: ``--groups`` groups of
``--group-size`` PathUnits on ``--groups-map``, each ordered by a GroupManager
of its own in a box at spacing 2 to a site at least half the map away, 30
frames a game second; the frames until the first order ends (at most
``--group-frames``) are timed: the NavGrid's ``_physics_process``, which
emits the managers' signals too. Outside the engine,
bench_groups.py times the same scenario's updates under the same interpreter.

Usage::

    python3 -m bench.bench_engine               # maze512-1-0, random512-10-0, BlackLotus; 200 and 1,000 units
    python3 -m bench.bench_engine --maps maze512-1-0 --per-map 10 --units 200 --frames 100
    python3 -m bench.bench_engine --markdown
    python3 -m bench.bench_engine --maps '' --units '' --groups 50   # only the groups in the engine

Needs godot3-server and pythonscript 0.50 (``$PYTHONSCRIPT_DIST`` or what
``../shared/pythonscript/build.sh`` prints); the maps are read from
../shared/benchmarks/movingai or $PATHING_PY_MOVINGAI.
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Dict, List, NamedTuple, Optional, Sequence

import numpy as np

from bench import bench_groups
from bench.report import TOLERANCE, command_line, render
from pathing_py import Grid
from pathing_py.groups import Formation
from pathing_py.tools.movingai import find_benchmarks
from tools.engine_runs import FPS, json_lines
from tools.godot_headless import Godot, GodotRunError, find_godot
from tools.godot_python import IGNORED, GodotPython, find_pythonscript

ROOT = Path(__file__).resolve().parent.parent

MAPS = ("maze512-1-0", "random512-10-0", "BlackLotus")
SCENE = "res://bench/engine/navigation_bench.tscn"
SOLVERS = ("exact", "graph", "astar")
#: Targets of issue 8: query medians as a fraction of AStar2D's, memory per cell, ms of Python per frame.
QUERY_TARGET = 0.5
GRAPH_TARGET_LARGE = 0.2  # on maps of LARGE x LARGE cells or more
LARGE = 512
MEMORY_TARGET = 1 / 20
UNITS_TARGET_COUNT = 1000
UNITS_TARGET_MS = 8.0
#: The groups' formation and spacing, as bench_groups.py's defaults.
GROUP_FORMATION, GROUP_SPACING = "box", 2.0


class Results(NamedTuple):
    """What the engine printed: one record a map, one a unit run, one for the groups' run."""

    maps: List[Dict]
    units: List[Dict]
    groups: List[Dict]


def argument_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--maps", default=",".join(MAPS), help=f"comma-separated map names, '' for none (default {','.join(MAPS)})"
    )
    parser.add_argument("--per-map", type=int, default=40, help="long scenarios per map (default 40)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the scenarios and the unit orders (default 1)")
    parser.add_argument(
        "--repeat", type=int, default=3, help="time each query this many times, keep the fastest (default 3)"
    )
    parser.add_argument(
        "--units", default="200,1000", help="comma-separated unit counts, '' for none (default 200,1000)"
    )
    parser.add_argument("--units-map", default="BlackLotus", help="the map the units walk (default BlackLotus)")
    parser.add_argument("--frames", type=int, default=300, help="physics frames timed per unit run (default 300)")
    parser.add_argument(
        "--groups", type=int, default=50, help="groups ordered by GroupManagers, 0 for none (default 50)"
    )
    parser.add_argument("--group-size", type=int, default=20, help="PathUnits a group (default 20)")
    parser.add_argument("--groups-map", default="AR0011SR", help="the map the groups cross (default AR0011SR)")
    parser.add_argument(
        "--group-frames",
        type=int,
        default=4000,
        help="frames timed at most, if no order ends before (default 4000: 133 game seconds)",
    )
    parser.add_argument("--timeout", type=float, default=3600, help="seconds the engine may run (default 3600)")
    parser.add_argument("--markdown", action="store_true", help="print the tables as Markdown")
    return parser


def parse_arguments(argv: Optional[Sequence[str]] = None) -> argparse.Namespace:
    """The options, checked: the maps exist, the counts are positive."""
    parser = argument_parser()
    args = parser.parse_args(argv)
    args.maps_dir = find_benchmarks(ROOT)
    if args.maps_dir is None:
        parser.error("no Moving AI maps: set PATHING_PY_MOVINGAI")
    args.maps = [name for name in args.maps.split(",") if name]
    args.units = [int(count) for count in args.units.split(",") if count]
    unknown = [
        name for name in [*args.maps, args.units_map, args.groups_map] if not (args.maps_dir / f"{name}.map").is_file()
    ]
    if unknown:
        parser.error(f"no map {', '.join(unknown)} in {args.maps_dir}")
    if args.per_map < 1 or args.repeat < 1 or args.frames < 1 or any(count < 1 for count in args.units):
        parser.error("--per-map, --repeat, --frames and --units must be >= 1")
    if args.groups < 0 or args.group_size < 1 or args.group_frames < 1:
        parser.error("--groups must be >= 0, --group-size and --group-frames >= 1")
    return args


def group_orders(args: argparse.Namespace) -> Dict[str, List]:
    """bench_groups.py's scenario for ``--groups`` groups of ``--group-size`` on ``--groups-map``: each group's start
    cells and target cell (none without groups)."""
    if not args.groups:
        return {"group_starts": [], "group_targets": []}
    grid = Grid.from_movingai(args.maps_dir / f"{args.groups_map}.map")
    shape = Formation.by_name(GROUP_FORMATION, args.group_size, spacing=GROUP_SPACING)
    scenario = bench_groups.make_scenario(grid, args.groups, args.group_size, shape, args.seed)
    return {"group_starts": [[list(cell) for cell in cells] for cells in scenario.starts],
            "group_targets": [list(target) for target in scenario.targets]}  # fmt: skip


def run_in_engine(copy: GodotPython, args: argparse.Namespace) -> Results:
    """Add ``bench/engine/`` to a project copy, run the benchmark scene there, and collect what it printed."""
    shutil.copytree(ROOT / "bench" / "engine", copy.project / "bench" / "engine", ignore=IGNORED, dirs_exist_ok=True)
    shutil.copy(ROOT / "bench" / ".gdignore", copy.project / "bench" / ".gdignore")
    settings = {
        "maps_dir": str(args.maps_dir),
        "maps": args.maps,
        "per_map": args.per_map,
        "seed": args.seed,
        "repeat": args.repeat,
        "units": args.units,
        "units_map": args.units_map,
        "frames": args.frames,
        "groups_map": args.groups_map,
        "group_frames": args.group_frames,
        **group_orders(args),
    }
    output = copy.run(
        ["--fixed-fps", str(FPS), SCENE, "--bench-settings=" + json.dumps(settings)], timeout=args.timeout
    )
    lines = json_lines(output)
    if not lines or not lines[-1].get("done"):
        raise GodotRunError(f"the engine benchmark did not finish:\n{output[-6000:]}")
    return Results(*([line for line in lines if key in line] for key in ("queries", "units", "groups")))


# -- reading the measurements -------------------------------------------------------------


def wrong(solver: str, query: Dict) -> bool:
    """An illegal path, or (but for the graph) one longer than the optimum."""
    answer = query[solver]
    if answer["problem"]:
        return True
    return solver != "graph" and abs(answer["length"] - query["optimal"]) > TOLERANCE


def medians(record: Dict) -> Dict[str, float]:
    """Median ms of each solver over the queries every solver answered with a legal path."""
    answered = [query for query in record["queries"] if all(query[s]["length"] is not None for s in SOLVERS)]
    return {s: float(np.median([q[s]["ms"] for q in answered])) if answered else math.nan for s in SOLVERS}


def quality(record: Dict) -> List[float]:
    """Graph path length over the optimal length, for each legal graph path."""
    return [q["graph"]["length"] / q["optimal"] for q in record["queries"] if q["graph"]["length"] is not None]


def per_cell(record: Dict, solver: str) -> float:
    return record["bytes"][solver] / (record["width"] * record["height"])


# -- reporting --------------------------------------------------------------------------------


def query_table(results: Results, markdown: bool) -> str:
    columns = [
        "map", "size", "queries", "exact ms", "graph ms", "AStar2D ms",
        "exact / AStar2D", "graph / AStar2D", "graph length ratio mean / max", "wrong exact / graph / AStar2D",
    ]  # fmt: skip
    rows = []
    for record in results.maps:
        ms, ratios = medians(record), quality(record)
        rows.append([
            record["map"],
            f"{record['width']}x{record['height']}",
            str(len(record["queries"])),
            *(f"{ms[s]:.2f}" for s in SOLVERS),
            f"{ms['exact'] / ms['astar']:.2f}",
            f"{ms['graph'] / ms['astar']:.2f}",
            f"{np.mean(ratios):.4f} / {max(ratios):.3f}" if ratios else "-",
            " / ".join(str(sum(wrong(s, q) for q in record["queries"])) for s in SOLVERS),
        ])  # fmt: skip
    return render(columns, rows, markdown)


def build_table(results: Results, markdown: bool) -> str:
    columns = [
        "map", "TileMap s", "NavGrid read s", "first query s", "graph bake s", "NavGrid read + graph load s",
        "AStar2D build s", "B/cell exact", "B/cell graph", "B/cell AStar2D", "exact / AStar2D", "graph / AStar2D",
    ]  # fmt: skip
    rows = [
        [
            record["map"],
            *(f"{record[key]:.2f}" for key in ("tilemap_s", "read_s", "first_query_s", "bake_s", "load_s", "astar_s")),
            *(f"{per_cell(record, s):.1f}" for s in SOLVERS),
            *(f"{record['bytes'][s] / record['bytes']['astar']:.3f}" for s in ("exact", "graph")),
        ]
        for record in results.maps
    ]
    return render(columns, rows, markdown)


#: How a frame of the units splits (medians of each part, as the NavGrid's get_frame_times says): the navigator's
#: update, the node sync (finding moved units, set_position), and the signals.
SPLIT_KEYS = ("navigation_ms", "sync_ms", "signals_ms")
SPLIT_COLUMNS = ["navigation ms", "node sync ms", "signals ms"]


def units_table(results: Results, markdown: bool) -> str:
    columns = [
        "map",
        "units",
        "search",
        "planning frames",
        "planning ms/order",
        "moving frames",
        "median ms",
        "p99 ms",
        "max ms",
        *SPLIT_COLUMNS,
        "states after the frames",
    ]
    rows = [
        [
            run["map"],
            str(run["units"]),
            run["search"],
            str(run["planning_frames"]),
            f"{run['planning_ms_per_order']:.2f}",
            str(run["frames"]),
            *(f"{run[key]:.2f}" for key in ("median_ms", "p99_ms", "max_ms", *SPLIT_KEYS)),
            ", ".join(f"{state} {count}" for state, count in sorted(run["states"].items())),
        ]
        for run in results.units
    ]
    return render(columns, rows, markdown)


def groups_table(results: Results, markdown: bool) -> str:
    columns = [
        "map",
        "groups",
        "PathUnits",
        "frames timed",
        "an order ended",
        "median ms",
        "p99 ms",
        "max ms",
        *SPLIT_COLUMNS,
        "states after the frames",
    ]
    rows = [
        [
            run["map"],
            f"{run['groups']} of {run['members']}",
            str(run["groups"] * run["members"]),
            str(run["frames"]),
            "yes" if run["ended"] else "no",
            *(f"{run[key]:.2f}" for key in ("median_ms", "p99_ms", "max_ms", *SPLIT_KEYS)),
            ", ".join(f"{state} {count}" for state, count in sorted(run["states"].items())),
        ]
        for run in results.groups
    ]
    return render(columns, rows, markdown)


def verdict(figures: Dict[str, float], limit: float) -> str:
    """ "met (worst 0.31)" or "missed on maze512-1-0 (2.10)" for figures that must be <= limit."""
    missed = {name: value for name, value in figures.items() if not value <= limit}
    if not figures:
        return "not measured"
    if not missed:
        return f"met (worst {max(figures.values()):.3f})"
    return "missed on " + ", ".join(f"{name} ({value:.3f})" for name, value in missed.items())


def target_lines(results: Results) -> List[str]:
    ms = {record["map"]: medians(record) for record in results.maps}
    large = [r["map"] for r in results.maps if min(r["width"], r["height"]) >= LARGE]
    memory = {f"{r['map']} {s}": r["bytes"][s] / r["bytes"]["astar"] for r in results.maps for s in ("exact", "graph")}
    units = {
        f"{r['units']} units, {r['search']}": r["median_ms"] for r in results.units if r["units"] >= UNITS_TARGET_COUNT
    }
    return [
        f"exact median <= {QUERY_TARGET}x AStar2D's on every map: "
        + verdict({m: v["exact"] / v["astar"] for m, v in ms.items()}, QUERY_TARGET),
        f"graph median <= {QUERY_TARGET}x AStar2D's on every map: "
        + verdict({m: v["graph"] / v["astar"] for m, v in ms.items()}, QUERY_TARGET),
        f"graph median <= {GRAPH_TARGET_LARGE}x AStar2D's on maps of {LARGE}x{LARGE} or more: "
        + verdict({m: ms[m]["graph"] / ms[m]["astar"] for m in large}, GRAPH_TARGET_LARGE),
        f"navigation data <= 1/{round(1 / MEMORY_TARGET)} of AStar2D's memory per cell: "
        + verdict(memory, MEMORY_TARGET),
        f"{UNITS_TARGET_COUNT:,} moving PathUnits <= {UNITS_TARGET_MS:g} ms of Python per frame (median): "
        + verdict(units, UNITS_TARGET_MS),
    ]


def group_target_line(results: Results) -> str:
    groups = {f"{r['groups']} groups of {r['members']}": r["median_ms"] for r in results.groups
              if r["groups"] * r["members"] >= bench_groups.TARGET_UNITS}  # fmt: skip
    return (f"{bench_groups.TARGET_UNITS:,} PathUnits in groups <= {bench_groups.TARGET_MS:g} ms of Python per frame "
            f"(median, while no order had ended): " + verdict(groups, bench_groups.TARGET_MS))  # fmt: skip


def report(results: Results, args: argparse.Namespace, argv: Optional[Sequence[str]] = None) -> str:
    """The tables of what was measured, the targets they bear on, and the command; blank lines between."""
    sections: List[List[str]] = []
    if results.maps:
        sections += [
            ["Queries (median ms over the queries all three answered; the fastest of each query's runs):",
             query_table(results, args.markdown)],
            ["Build and memory (resident bytes kept per map cell, after a first query; the TileMap is common to all):",
             build_table(results, args.markdown)],
        ]  # fmt: skip
    if results.units:
        sections.append([
            f"PathUnits: the NavGrid's _physics_process per frame at --fixed-fps {FPS}, while the orders are planned"
            " (plan_budget_ms 2, at least one order a frame), then per frame of units on the move:",
            units_table(results, args.markdown),
        ])  # fmt: skip
    if results.groups:
        sections.append([
            f"Groups: bench_groups.py's scenario ({GROUP_FORMATION} at spacing {GROUP_SPACING:g}, "
            "a GroupManager a group), "
            f"the NavGrid's _physics_process per frame of {1 / 30:.4f} game s until the first order ended:",
            groups_table(results, args.markdown),
        ])  # fmt: skip
    if results.maps or results.units:
        sections.append(["Targets (issue 8):", *(f"- {line}" for line in target_lines(results))])
    if results.groups:
        sections.append(["Target (issue 10):", f"- {group_target_line(results)}"])
    sections.append([
        f"Command: {command_line('bench_engine.py', argv)} (seed {args.seed}, {args.per_map} long scenarios a map, "
        f"best of {args.repeat}; Godot 3.2.3 headless, pythonscript 0.50)"
    ])  # fmt: skip
    return "\n\n".join("\n".join(section) for section in sections)


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = parse_arguments(argv)
    godot = find_godot()
    pythonscript = find_pythonscript()
    if godot is None or pythonscript is None:
        sys.exit("bench_engine.py needs godot3-server and pythonscript 0.50 (bash ../shared/pythonscript/build.sh)")
    with tempfile.TemporaryDirectory(prefix="bench-engine-") as folder:
        home = Path(folder) / "home"  # the engine writes its settings there
        home.mkdir()
        copy = GodotPython.make(Godot(godot, home), Path(folder) / "project", Path(pythonscript))
        results = run_in_engine(copy, args)
    print(report(results, args, argv))
    return 1 if any(wrong(s, q) for r in results.maps for q in r["queries"] for s in ("exact", "astar")) else 0


if __name__ == "__main__":
    sys.exit(main())
