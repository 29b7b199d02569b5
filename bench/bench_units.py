#!/usr/bin/env python3
"""Benchmark units walking a changing map (pathing_py.Navigator), the targets of issue 4.

On one Moving AI map: seeded units on distinct free cells, each ordered to
another free cell; while they walk, seeded walls go up across the routes of
units picked at random, a few steps in front of them (``drop_wall``, as
``pathing-py demo`` does), one every EDIT_EVERY seconds. The run goes on
until every unit is in a final state (ARRIVED, HELD_UP, UNREACHABLE) or the
simulated time cap (``--bystanders`` adds seeded units that are never
ordered and stand in the way, off every goal: what traffic rules cost among
many units); once with find_path alone and once with the key-point
graph (``--graph``). Without ``--time-budget`` every path request is served
in the update it was made, so runs are the same on every machine but for
the timings.

Checked: UNREACHABLE units are truly cut off from their goals
(``grid.same_island``), no unit ever stepped into or past a blocked cell
(``navigator.step_log`` after every update), and units never told of a map
change on their routes planned exactly once.

Usage::

    python3 -m bench.bench_units                       # AR0011SR, 200 units, 50 walls, with and without the graph
    python3 -m bench.bench_units --map den520d --units 50 --graph on --markdown
    python3 -m bench.bench_units --graph off --bystanders 5000      # the ordered units among 5000 standing ones
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from typing import Callable, List, NamedTuple, Optional, Sequence, Set

from bench.harness import MAPS_DIR, command_line, render
from pathing_py import Grid, KeyPointGraph
from pathing_py.grid import Cell
from pathing_py.tools.changing_map import FINAL_STATES, Order, Wall, drop_wall, free_cells, give_orders, update_ms
from pathing_py.units import Navigator, UnitState

UPDATE_SECONDS = 0.1
FIRST_EDIT = 1.0  # simulated seconds after the orders
EDIT_EVERY = 0.5  # simulated seconds between walls
EDIT_AHEAD = 5  # steps in front of the unit
EDIT_LENGTH = 5  # cells per wall
SPEED = 4.0  # cells per second


class RunResult(NamedTuple):
    """One run: the orders as given, the navigator after it, the walls put up and what was seen meanwhile."""

    label: str
    bake_s: float
    orders: List[Order]
    navigator: Navigator
    walls: List[Wall]
    notified: Set[int]  # ids of units told of a map change on their route
    violations: List[str]  # steps into or past blocked cells, units standing in blocked cells
    run_s: float


def record_notified(navigator: Navigator) -> Set[int]:
    """The ids of the units the navigator's map watcher names, collected as the run goes.

    The navigator counts notifications in total only; this records who heard,
    by wrapping the watcher's ``collect`` (called once per update).
    """
    notified: Set[int] = set()
    collect = navigator.watcher.collect

    def recording_collect():
        told = collect()
        notified.update(told)
        return told

    navigator.watcher.collect = recording_collect
    return notified


def step_violations(navigator: Navigator) -> List[str]:
    """Steps logged since the last call that entered or cut past a blocked cell, and units now standing in one."""
    grid = navigator.grid
    found = [
        f"t={navigator.time:.1f} s: unit {unit_id} stepped {(x0, y0)} -> {(x1, y1)} past blocked {cell}"
        for unit_id, (x0, y0), (x1, y1) in navigator.step_log
        for cell in sorted({(x1, y1), (x1, y0), (x0, y1)})
        if not grid.is_passable(cell)
    ]
    navigator.step_log.clear()
    found += [
        f"t={navigator.time:.1f} s: unit {u.id} stands in blocked {u.cell}"
        for u in navigator.units.values()
        if not grid.is_passable(u.cell)
    ]
    return found


def run(grid: Grid, use_graph: bool, args: argparse.Namespace) -> RunResult:
    """Bake the graph if asked (timed apart), give the orders, then update until every unit is done or the cap."""
    started = time.perf_counter()
    graph = KeyPointGraph.bake(grid) if use_graph else None
    bake_s = time.perf_counter() - started
    navigator = Navigator(grid, graph, time_budget=args.time_budget)
    orders = give_orders(navigator, args.units, args.seed, SPEED)
    add_bystanders(navigator, args.bystanders, args.seed, {order.goal for order in orders})
    navigator.step_log = []
    notified = record_notified(navigator)
    rng = random.Random(args.seed)
    walls: List[Wall] = []
    violations: List[str] = []
    started = time.perf_counter()
    while navigator.time < args.max_time and any(order.unit.state not in FINAL_STATES for order in orders):
        if len(walls) < args.edits and navigator.time >= FIRST_EDIT + len(walls) * EDIT_EVERY - 1e-9:
            wall = drop_wall(navigator, rng, EDIT_AHEAD, EDIT_LENGTH)
            if wall is not None:
                walls.append(wall)
        navigator.update(UPDATE_SECONDS)
        violations += step_violations(navigator)
    label = "key-point graph" if use_graph else "find_path only"
    return RunResult(label, bake_s, orders, navigator, walls, notified, violations, time.perf_counter() - started)


def add_bystanders(navigator: Navigator, count: int, seed: int, goals: Set[Cell]) -> None:
    """``count`` units that are never ordered, on seeded free cells no unit holds and no order goes to."""
    free = [cell for cell in free_cells(navigator.grid) if navigator.holder(cell) is None and cell not in goals]
    if len(free) < count:
        raise ValueError(f"{count} bystanders need as many free cells, the map has {len(free)} left")
    for x, y in random.Random(seed + 1).sample(free, count):
        navigator.add_unit((x + 0.5, y + 0.5), speed=SPEED)


def reason_kind(reason: str) -> str:
    """A HELD_UP unit's reason with its numbers and cells taken out, so that reasons of one kind count together."""
    return re.sub(r"\d+(\.\d+)?(, \d+)*", "N", re.sub(r"\(-?\d+, -?\d+\)", "(x, y)", reason))


def wrongly_unreachable(result: RunResult) -> List[Order]:
    """UNREACHABLE units whose goal is free and on their island after all (edits only block, so the end decides)."""
    grid = result.navigator.grid
    return [
        order for order in result.orders
        if order.unit.state is UnitState.UNREACHABLE and grid.is_passable(order.goal)
        and grid.same_island(order.unit.cell, order.goal)
    ]  # fmt: skip


def untouched(result: RunResult) -> List[Order]:
    """Orders of units never told of a change on their route."""
    return [order for order in result.orders if order.unit.id not in result.notified]


def per(total: float, count: int) -> str:
    """An average for the table, or "-" when there is nothing to average."""
    return f"{total / count:.1f}" if count else "-"


class Figure(NamedTuple):
    """A row of the table: its name and how to read its value off a run."""

    name: str
    value: Callable[[RunResult], str]


def figures(results: Sequence[RunResult]) -> List[Figure]:
    """The table's rows; one per HELD_UP reason kind seen in any run."""
    kinds = sorted({reason_kind(o.unit.reason) for r in results for o in r.orders if o.unit.state is UnitState.HELD_UP})

    def count(state: UnitState) -> Callable[[RunResult], str]:
        return lambda r: str(sum(o.unit.state is state for o in r.orders))

    def held_up(kind: str) -> Callable[[RunResult], str]:
        return lambda r: str(
            sum(o.unit.state is UnitState.HELD_UP and reason_kind(o.unit.reason) == kind for o in r.orders)
        )

    def plans(r: RunResult) -> int:
        return sum(o.unit.stats.plans for o in r.orders)

    def splices(r: RunResult) -> int:
        return sum(o.unit.stats.splices for o in r.orders)

    def queue(r: RunResult):
        return r.navigator.requests.stats

    return [
        Figure("graph bake s", lambda r: f"{r.bake_s:.2f}" if r.label.startswith("key") else "-"),
        Figure("walls put up / cells refused (held by units)",
               lambda r: f"{len(r.walls)} / {sum(len(w.refused) for w in r.walls)}"),
        Figure("simulated s / updates", lambda r: f"{r.navigator.time:.1f} / {r.navigator.stats.updates}"),
        Figure("ARRIVED", count(UnitState.ARRIVED)),
        Figure("HELD_UP", count(UnitState.HELD_UP)),
        *(Figure(f"  HELD_UP: {kind}", held_up(kind)) for kind in kinds),
        Figure("UNREACHABLE", count(UnitState.UNREACHABLE)),
        Figure("  of which reachable after all (wrong)", lambda r: str(len(wrongly_unreachable(r)))),
        Figure("still under way at the cap", lambda r: str(sum(o.unit.state not in FINAL_STATES for o in r.orders))),
        Figure("ms per update: mean", lambda r: f"{update_ms(r.navigator)[0]:.2f}"),
        Figure("ms per update: p99", lambda r: f"{update_ms(r.navigator)[1]:.2f}"),
        Figure("ms per update: max", lambda r: f"{update_ms(r.navigator)[2]:.1f}"),
        Figure("full plans / nodes expanded", lambda r: f"{plans(r)} / {r.navigator.stats.plan_work}"),
        Figure("  nodes per full plan", lambda r: per(r.navigator.stats.plan_work, plans(r))),
        Figure("splices / nodes expanded", lambda r: f"{splices(r)} / {r.navigator.stats.splice_work}"),
        Figure("  nodes per splice", lambda r: per(r.navigator.stats.splice_work, splices(r))),
        Figure("route notifications / units told", lambda r: f"{r.navigator.stats.notified} / {len(r.notified)}"),
        Figure("units never told / of which planned once",
               lambda r: f"{len(untouched(r))} / {sum(o.unit.stats.plans == 1 for o in untouched(r))}"),
        Figure("queue: requests / longest", lambda r: f"{queue(r).submitted} / {queue(r).longest}"),
        Figure("queue: latency mean / max s", lambda r: f"{queue(r).mean_latency:.3f} / {queue(r).max_latency:.3f}"),
        Figure("invariant violations", lambda r: str(len(r.violations))),
        Figure("run wall-clock s", lambda r: f"{r.run_s:.1f}"),
    ]  # fmt: skip


def target_lines(results: Sequence[RunResult]) -> List[str]:
    """The issue 4 targets, met or missed per run."""
    checks = (
        ("every unit ends ARRIVED, HELD_UP (with a reason) or UNREACHABLE",
         lambda r: all(o.unit.state in FINAL_STATES and (o.unit.state is not UnitState.HELD_UP or o.unit.reason)
                       for o in r.orders)),
        ("every UNREACHABLE unit is truly cut off from its goal", lambda r: not wrongly_unreachable(r)),
        ("a splice expands fewer nodes than a full plan, on average (seed 004)",
         lambda r: not sum(o.unit.stats.splices for o in r.orders)
         or r.navigator.stats.splice_work / sum(o.unit.stats.splices for o in r.orders)
         < r.navigator.stats.plan_work / sum(o.unit.stats.plans for o in r.orders)),
        ("units never told of a change planned once", lambda r: all(o.unit.stats.plans == 1 for o in untouched(r))),
        ("no step into or past a blocked cell", lambda r: not r.violations),
    )  # fmt: skip
    lines = []
    for text, check in checks:
        missed = [r.label for r in results if not check(r)]
        lines.append(
            f"  {'MISSED' if missed else 'met':<7} {text}" + (f": missed with {', '.join(missed)}" if missed else "")
        )
    return lines


def argument_parser() -> argparse.ArgumentParser:
    """The options, without their checks: bench/readme_tables.py --check parses the README's commands with it."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--map", default="AR0011SR", help="Moving AI map name (default AR0011SR)")
    parser.add_argument("--units", type=int, default=200, help="units, each with one seeded order (default 200)")
    parser.add_argument(
        "--edits", type=int, default=50, help=f"walls of {EDIT_LENGTH} cells put up over the run (default 50)"
    )
    parser.add_argument(
        "--bystanders", type=int, default=0, help="units never ordered, standing in the way (default 0)"
    )
    parser.add_argument(
        "--graph",
        choices=("off", "on", "both"),
        default="both",
        help="plan with the key-point graph (default: both ways)",
    )
    parser.add_argument(
        "--max-time", type=float, default=600.0, help="simulated seconds before giving up on a run (default 600)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the orders and walls (default 1)")
    parser.add_argument(
        "--time-budget", type=float, help="seconds of path planning per update (default: none, all requests at once: "
        "the same run on every machine)",
    )  # fmt: skip
    parser.add_argument(
        "--markdown", action="store_true", help="print the table as docs/benchmarks.md shows it (Markdown)"
    )
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argument_parser()
    args = parser.parse_args(argv)
    path = MAPS_DIR / f"{args.map}.map"
    if not path.is_file():
        parser.error(f"no map {args.map} in {MAPS_DIR} (set PATHING_PY_MOVINGAI)")
    if (
        args.units < 1
        or args.edits < 0
        or args.bystanders < 0
        or not args.max_time > 0
        or not (args.time_budget is None or args.time_budget > 0)
    ):
        parser.error("--units must be >= 1, --edits and --bystanders >= 0, --max-time and --time-budget > 0")
    results = []
    for use_graph in {"off": (False,), "on": (True,), "both": (False, True)}[args.graph]:
        grid = Grid.from_movingai(path)  # a fresh map per run: the walls stay in it
        results.append(run(grid, use_graph, args))
        print(f"{results[-1].label}: done in {results[-1].run_s:.1f} s", file=sys.stderr, flush=True)
        for line in results[-1].violations[:5]:
            print(f"  violation: {line}", file=sys.stderr)
    rows = [[figure.name] + [figure.value(r) for r in results] for figure in figures(results)]
    budget = "none" if args.time_budget is None else f"{args.time_budget * 1000:g} ms"
    print(f"{args.map} ({grid.width}x{grid.height}): {args.units} units at {SPEED:g} cells/s "
          f"among {args.bystanders} standing, {args.edits} walls, "
          f"updates of {UPDATE_SECONDS} s, planning budget per update: {budget}\n")  # fmt: skip
    print(render(["figure"] + [r.label for r in results], rows, args.markdown))
    print("\nTargets (issue 4):")
    print("\n".join(target_lines(results)))
    print(f"\nCommand: {command_line('bench_units.py', argv)}")
    return 1 if any(r.violations or wrongly_unreachable(r) for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
