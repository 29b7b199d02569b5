#!/usr/bin/env python3
"""Benchmark groups in formation (issue 10): groups ordered across a Moving AI map, against the same units ordered
one by one.

The scenario (seeded): on one map, disjoint free squares ("sites") wide
enough for a group's formation at any heading, all on one island; each group
starts packed in a block at the centre of a site and is ordered to the centre
of another site at least half the map's side away (the farthest free one if
none is that far). Two runs on the same map (and key-point graph, baked once):

* groups: ``Groups(navigator).add_group(members, formation=..., spacing=...)``
  and one ``group.move_to(target)`` per group; the group forms, its commander
  plans once, the others walk its route to their slots;
* individual: the same units with no groups, each ``unit.move_to`` the cell
  of its slot around its group's target (the slot it would take in
  formation, as ``assign_slots`` deals slots): what a game that does not use
  groups gets.

Both run at ``--delta`` seconds an update until every order ended (every
group announced ``group_arrived``; every unit ARRIVED, HELD_UP or
UNREACHABLE) or ``--seconds`` of game time. Only ``navigator.update`` is
timed (groups steer inside it). After every update, outside the timing, every
pair of units is checked for overlap (:mod:`pathing_py.crowd_checks`: units
hold whole cells, so two units closer than a cell share one) and arrivals
(the navigator's ``arrived`` events) and formation events are stamped with
the game time.

Printed per run: median, p99 and longest ms per update, and the median over
the updates before the first order ended (while every unit was under way: a
run's later updates move fewer units, and its last ones maybe a handful, which
pulls the whole run's median down); updates and game
seconds until every order ended; full searches per order (``unit.stats.plans``
summed over the units, over the orders: one group order should cost one; a
unit stuck in a jam searches the whole map again) and the orders that cost
one; time to form (game seconds from ``formation_forming`` to
``formation_formed``); how often formations passed what they do not fit
(``formation_scaled``, ``formation_halved``, ``formation_broken``); arrival
spread (game seconds between a group's first and last member arriving, over
the groups whose members all arrived); arrivals over the units whose target
is on their island; overlapping pairs (must be 0: the benchmark then exits
1). ``--pythonscript`` runs the groups once more under pythonscript 0.50's
embedded CPython 3.8 (its ``bin/python3``, outside the engine), in a
subprocess.

Usage::

    python3 -m bench.bench_groups                   # AR0011SR, 50 groups of 20 in a box at spacing 2, key-point graph
    python3 -m bench.bench_groups --groups 5 --size 9 --seconds 120 --graph off
    python3 -m bench.bench_groups --formation line --spacing 1 --delta 1/60
    python3 -m bench.bench_groups --markdown --pythonscript    # docs/benchmarks.md's table
    python3 -m bench.bench_groups --seeds 1-8 --seconds 900 --markdown   # the groups run on eight scenarios

With ``--seeds``, only the groups run, once per seed (side by side, a process per core: their times are not
compared), and one row per seed says how its orders ended: the scenario of one seed may hold a jam the
others do not.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import math
import os
import platform
import random
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Callable, Dict, List, NamedTuple, Optional, Sequence, Set, Tuple

import numpy as np

from bench.report import command_line, pythonscript_python, render
from pathing_py import Grid, KeyPointGraph
from pathing_py.clearance import ClearanceMap
from pathing_py.crowd_checks import overlapping_pairs
from pathing_py.grid import Cell
from pathing_py.groups import Formation, Groups, assign_slots, gathering_cells, slot_cells
from pathing_py.tools.movingai import find_benchmarks
from pathing_py.tools.scenarios import DEFAULT_SPEED
from pathing_py.units import Navigator, Unit, UnitState
from pathing_py.units.navigator import UPDATE_PARTS
from pathing_py.units.unit import FINAL_STATES

ROOT = Path(__file__).resolve().parent.parent

FORMATIONS = ("none", "line", "column", "box", "wedge")
#: The events of formations passing what they do not fit (SPEC F5), counted.
PASSAGES = ("formation_scaled", "formation_halved", "formation_broken")
#: Targets of issue 10.
TARGET_MS = 8.0
TARGET_UNITS = 1000
#: A group's target lies at least this fraction of the map's shorter side from its start, where a site is that far.
FAR = 0.5


# -- the scenario ---------------------------------------------------------------------------------


class Scenario(NamedTuple):
    """Where each group starts and goes: cells, group by group."""

    grid: Grid
    formation: Optional[Formation]  #: None: groups without formation
    starts: List[List[Cell]]  #: each group's members' cells
    targets: List[Cell]  #: each group's target
    goals: List[List[Cell]]  #: each member's own cell at its group's target (the individual run's orders)

    @property
    def units(self) -> int:
        return sum(len(cells) for cells in self.starts)


def site_side(formation: Optional[Formation], size: int) -> int:
    """The side (cells) of a free square that holds ``formation`` around its centre cell at any heading, and a
    block of ``size`` units packed one a cell (a slot moved off a shared cell lands one cell further out)."""
    block = math.ceil(math.sqrt(size))
    reach = block / 2 if formation is None else float(np.hypot(*formation.offsets.T).max())
    half = max(math.ceil(reach + 0.5) + 1, math.ceil(block / 2))
    return 2 * half + 1


def free_sites(grid: Grid, side: int, rng: random.Random) -> List[Cell]:
    """The centres of disjoint free squares of ``side`` cells, a cell apart at least, on the island that has
    the most of them; the squares are taken in a seeded order, each unless it meets one taken before."""
    corners = np.argwhere(ClearanceMap(grid.passable, max_size=side).values >= side)  # (y, x) of top-left cells
    order = list(range(len(corners)))
    rng.shuffle(order)
    taken = np.zeros(grid.passable.shape, dtype=bool)
    centres = []
    for y, x in corners[order].tolist():
        if not taken[max(0, y - 1) : y + side + 1, max(0, x - 1) : x + side + 1].any():
            taken[y : y + side, x : x + side] = True
            centres.append((x + side // 2, y + side // 2))
    islands = [grid.island_of(cell) for cell in centres]
    biggest = max(set(islands), key=islands.count, default=None)
    return [cell for cell, island in zip(centres, islands) if island == biggest]


def pack(centre: Cell, count: int) -> List[Cell]:
    """``count`` cells in rows of ceil(sqrt(count)) around ``centre``, row by row."""
    columns = math.ceil(math.sqrt(count))
    rows = math.ceil(count / columns)
    x0, y0 = centre[0] - (columns - 1) // 2, centre[1] - (rows - 1) // 2
    return [(x0 + i % columns, y0 + i // columns) for i in range(count)]


def member_goals(grid: Grid, formation: Optional[Formation], starts: List[Cell], target: Cell) -> List[Cell]:
    """Each member's cell at ``target``: its slot, the formation facing from the start to the target, dealt as a
    group forming deals slots (``assign_slots``); without formation, the free cells nearest the target."""
    centre = (target[0] + 0.5, target[1] + 0.5)
    if formation is None:
        cells, usable = np.array(gathering_cells(grid, target, len(starts))), np.ones(len(starts), dtype=bool)
    else:
        start = np.mean(starts, axis=0) + 0.5
        cells, usable = slot_cells(formation, centre, (centre[0] - start[0], centre[1] - start[1]), grid.passable)
    slot_units, left_over = assign_slots(cells, usable, centre, np.array(starts), np.full(len(starts), DEFAULT_SPEED))
    if len(left_over):
        raise ValueError(f"no cell at {target} for {len(left_over)} of a group's members")
    goals = {unit: (int(x), int(y)) for unit, (x, y) in zip(slot_units.tolist(), cells.tolist()) if unit >= 0}
    return [goals[unit] for unit in range(len(starts))]


def make_scenario(grid: Grid, groups: int, size: int, formation: Optional[Formation], seed: int) -> Scenario:
    """``groups`` groups of ``size`` on sites of ``grid`` (see the module docstring), the same for the same seed."""
    rng = random.Random(seed)
    side = site_side(formation, size)
    sites = free_sites(grid, side, rng)
    if len(sites) < 2 * groups:
        raise ValueError(f"the map has {len(sites)} free {side}x{side} squares on one island, "
                         f"{groups} groups need {2 * groups} "
                         f"(to start in and go to): fewer --groups, a smaller --size or --spacing")  # fmt: skip
    starts = rng.sample(sites, groups)
    left = [site for site in sites if site not in set(starts)]
    far = FAR * min(grid.width, grid.height)
    targets = []
    for start in starts:
        distances = [math.dist(start, site) for site in left]
        beyond = [site for site, distance in zip(left, distances) if distance >= far]
        target = rng.choice(beyond) if beyond else left[int(np.argmax(distances))]
        left.remove(target)
        targets.append(target)
    cells = [pack(start, size) for start in starts]
    goals = [member_goals(grid, formation, members, target) for members, target in zip(cells, targets)]
    return Scenario(grid, formation, cells, targets, goals)


# -- running --------------------------------------------------------------------------------------


class RunResult(NamedTuple):
    """One run's figures, plain values (a run under another interpreter sends them as JSON)."""

    label: str
    python: str  #: the interpreter, e.g. "CPython 3.11.7"
    tick_ms: List[float]  #: wall time of each navigator.update
    game_seconds: float
    finished: bool  #: every order ended before the time limit
    all_under_way: int  #: updates before the first order ended
    orders: int
    plans: int  #: full searches, all units
    planned_once: int  #: orders that cost one search (a group's: its members' together)
    groups: int
    spreads: List[float]  #: per group whose members all arrived: last arrival - first arrival
    units: int
    arrived: int
    reachable: int  #: units whose target is on the island they start on
    held_up: int
    unreachable: int
    overlapping_pairs: int  #: distinct pairs of units that ever overlapped after an update
    run_s: float
    form_seconds: Sequence[float] = ()  #: each formation_forming to its formation_formed (groups in formation)
    unformed: int = 0  #: groups forming at the end
    passages: Sequence[int] = ()  #: how many events of each of PASSAGES (groups)
    bake_s: Optional[float] = (
        None  #: the key-point graph's bake, shared by the runs of one interpreter (None: no graph)
    )
    #: Mean milliseconds an update spent in each part (NavigatorStats.part_seconds) while no order had ended.
    part_ms: Dict[str, float] = {}


class Trace:
    """What the loop saw: update times, game times of arrivals, overlapping pairs, and how it ended."""

    def __init__(self) -> None:
        self.tick_ms: List[float] = []
        self.part_ms: List[Dict[str, float]] = []  #: each update's time by part (NavigatorStats.part_seconds), in ms
        self.arrival: Dict[int, float] = {}  #: unit id -> game time of its last "arrived" event
        self.pairs: Set[Tuple[int, int]] = set()  #: ids of units that overlapped
        self.finished = False  #: every order ended before the time limit
        self.all_under_way = 0  #: updates before the first order ended
        self.game_seconds = 0.0


def simulate(navigator: Navigator, units: List[Unit], orders: int, ended: Callable[[], int], delta: float,
             seconds: float, after_update: Callable[[], None]) -> Trace:  # fmt: skip
    """Update until ``ended()`` says all ``orders`` ended, or ``seconds`` of game time, timing each update and
    checking after it."""
    trace = Trace()
    radii = np.full(len(units), 0.5)
    ids = [unit.id for unit in units]
    while ended() < orders and navigator.time < seconds - 1e-9:
        if not ended():
            trace.all_under_way = len(trace.tick_ms)
        started = time.perf_counter()
        navigator.update(delta)
        trace.tick_ms.append((time.perf_counter() - started) * 1000.0)
        trace.part_ms.append({part: seconds * 1000.0 for part, seconds in navigator.stats.part_seconds.items()})
        for unit_id, event, _cell in navigator.events():
            if event == UnitState.ARRIVED.value.lower():  # a final state's event is its name in lower case
                trace.arrival[unit_id] = navigator.time
        pairs = overlapping_pairs(np.array([unit.position for unit in units]), radii)
        trace.pairs.update((ids[a], ids[b]) for a, b in pairs.tolist())
        after_update()
    trace.finished, trace.game_seconds = ended() == orders, navigator.time
    return trace


def add_units(navigator: Navigator, scenario: Scenario) -> List[List[Unit]]:
    return [
        [navigator.add_unit((x + 0.5, y + 0.5), speed=DEFAULT_SPEED) for x, y in cells] for cells in scenario.starts
    ]


def result(
    label: str, scenario: Scenario, members: List[List[Unit]], ordered: List[List[Unit]], trace: Trace, started: float
) -> RunResult:
    """The run's figures from its units (``members`` by group, ``ordered`` by order) and trace."""
    units = [unit for group in members for unit in group]
    grid = scenario.grid
    reachable = sum(
        grid.same_island(cell, target) for cells, target in zip(scenario.starts, scenario.targets) for cell in cells
    )
    spreads = []
    for group in members:
        if all(unit.state is UnitState.ARRIVED for unit in group):
            times = [trace.arrival[unit.id] for unit in group]
            spreads.append(max(times) - min(times))
    return RunResult(
        label=label, python=f"{platform.python_implementation()} {platform.python_version()}", tick_ms=trace.tick_ms,
        game_seconds=trace.game_seconds, finished=trace.finished, all_under_way=trace.all_under_way,
        orders=len(ordered), plans=sum(unit.stats.plans for unit in units),
        planned_once=sum(sum(unit.stats.plans for unit in order) == 1 for order in ordered),
        groups=len(members), spreads=spreads, units=len(units),
        arrived=sum(unit.state is UnitState.ARRIVED for unit in units), reachable=reachable,
        held_up=sum(unit.state is UnitState.HELD_UP for unit in units),
        unreachable=sum(unit.state is UnitState.UNREACHABLE for unit in units),
        overlapping_pairs=len(trace.pairs), run_s=time.perf_counter() - started,
        part_ms={part: float(np.mean([parts[part] for parts in trace.part_ms[: trace.all_under_way or None]]))
                 for part in UPDATE_PARTS},
    )  # fmt: skip


def run_groups(
    scenario: Scenario, graph: Optional[KeyPointGraph], spacing: float, delta: float, seconds: float
) -> RunResult:
    """Each group ordered once; formation events stamped with the game time."""
    started = time.perf_counter()
    navigator = Navigator(scenario.grid, graph)
    members = add_units(navigator, scenario)
    groups = Groups(navigator)
    group_list = [groups.add_group(units, formation=scenario.formation, spacing=spacing) for units in members]
    for group, target in zip(group_list, scenario.targets):
        group.move_to(target)
    forming_since: Dict[int, float] = {}
    passages = dict.fromkeys(PASSAGES, 0)
    form_seconds: List[float] = []
    done: Set[int] = set()

    def read_events() -> None:
        for group_id, event, _detail in groups.events():
            if event == "formation_forming":
                forming_since[group_id] = navigator.time
            elif event == "formation_formed" and group_id in forming_since:  # formed, not formed again past a passage
                form_seconds.append(navigator.time - forming_since.pop(group_id))
            elif event in PASSAGES:
                passages[event] += 1
            elif event == "group_arrived":
                done.add(group_id)

    read_events()
    units = [unit for group in members for unit in group]
    trace = simulate(navigator, units, len(group_list), lambda: len(done), delta, seconds, read_events)
    figures = result("groups", scenario, members, members, trace, started)
    return figures._replace(
        form_seconds=form_seconds, unformed=len(forming_since), passages=[passages[name] for name in PASSAGES]
    )


def run_individual(scenario: Scenario, graph: Optional[KeyPointGraph], delta: float, seconds: float) -> RunResult:
    """Each unit ordered to its own cell at its group's target."""
    started = time.perf_counter()
    navigator = Navigator(scenario.grid, graph)
    members = add_units(navigator, scenario)
    units = [unit for group in members for unit in group]
    for unit, goal in zip(units, (goal for goals in scenario.goals for goal in goals)):
        unit.move_to(goal)

    def ended() -> int:
        return sum(unit.state in FINAL_STATES for unit in units)

    trace = simulate(navigator, units, len(units), ended, delta, seconds, lambda: None)
    return result("individual", scenario, members, [[unit] for unit in units], trace, started)


def run_under_pythonscript(args: argparse.Namespace) -> RunResult:
    """The groups run again under pythonscript 0.50's embedded interpreter, outside the engine, in a subprocess."""
    python = pythonscript_python()
    command = [str(python), "-m", "bench.bench_groups", *scenario_arguments(args), "--json"]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    if done.returncode != 0:
        sys.exit(f"bench_groups: the run under {python} failed:\n{done.stderr[-3000:]}")
    figures = json.loads(done.stdout)
    return RunResult(**{**figures, "label": f"groups, pythonscript's {figures['python']}"})


# -- reporting ------------------------------------------------------------------------------------


def median_max(values: Sequence[float]) -> str:
    return f"{np.median(values):.1f} / {max(values):.1f}" if len(values) else "-"


def median_ms(run: RunResult, under_way: bool = False) -> float:
    """The run's median ms per update; ``under_way``: over the updates before the first order ended."""
    ticks = run.tick_ms[: run.all_under_way] if under_way else run.tick_ms
    return float(np.median(ticks)) if ticks else math.nan


class Figure(NamedTuple):
    """A row of the table: its name, how to read it off a run, and the number groups / individual compares."""

    name: str
    text: Callable[[RunResult], str]
    number: Optional[Callable[[RunResult], float]] = None


def figures() -> List[Figure]:
    def ms(percentile: float) -> Callable[[RunResult], float]:
        return lambda r: float(np.percentile(r.tick_ms, percentile)) if r.tick_ms else math.nan

    def under_way(r: RunResult) -> float:
        return median_ms(r, under_way=True)

    def searches(r: RunResult) -> float:
        return r.plans / r.orders

    def spread(r: RunResult) -> float:
        return float(np.median(r.spreads)) if r.spreads else math.nan

    def forming(r: RunResult) -> str:
        return median_max(r.form_seconds) + (f" ({r.unformed} forming at the end)" if r.unformed else "")

    def spreads(r: RunResult) -> str:
        return median_max(r.spreads) + (
            f" ({len(r.spreads)} of {r.groups} groups)" if len(r.spreads) < r.groups else ""
        )

    return [
        Figure("graph bake s", lambda r: "-" if r.bake_s is None else f"{r.bake_s:.2f}"),
        Figure("orders", lambda r: str(r.orders)),
        Figure("ms per update: median", lambda r: f"{median_ms(r):.2f}", median_ms),
        Figure("ms per update: median while no order had ended", lambda r: f"{under_way(r):.2f}", under_way),
        Figure("ms per update: p99", lambda r: f"{ms(99)(r):.2f}", ms(99)),
        Figure("ms per update: max", lambda r: f"{ms(100)(r):.1f}", ms(100)),
        Figure("updates / game s until every order ended",
               lambda r: f"{len(r.tick_ms)} / {r.game_seconds:.1f}" + ("" if r.finished else " (time limit)"),
               lambda r: r.game_seconds),
        Figure("searches per order", lambda r: f"{searches(r):.2f}", searches),
        Figure("orders that cost one search", lambda r: f"{r.planned_once} / {r.orders}"),
        Figure("time to form s: median / max", forming),
        Figure("formations scaled / halved / broken", lambda r: " / ".join(map(str, r.passages)) or "-"),
        Figure("arrival spread s: median / max", spreads, spread),
        Figure("arrived / reachable", lambda r: f"{r.arrived} / {r.reachable}"),
        Figure("HELD_UP / UNREACHABLE / under way",
               lambda r: f"{r.held_up} / {r.unreachable} / {r.units - r.arrived - r.held_up - r.unreachable}"),
        Figure("overlapping pairs", lambda r: str(r.overlapping_pairs)),
        Figure("run wall-clock s", lambda r: f"{r.run_s:.1f}"),
    ]  # fmt: skip


def quotient(top: float, bottom: float) -> str:
    """``top / bottom`` for the table, "-" when either is missing or the bottom is 0."""
    return f"{top / bottom:.2f}" if math.isfinite(top) and math.isfinite(bottom) and bottom else "-"


def table(runs: Sequence[RunResult], groups: RunResult, individual: RunResult, markdown: bool) -> str:
    """Figures by run, and groups over individual where that compares."""
    rows = []
    for figure in figures():
        ratio = "-" if figure.number is None else quotient(figure.number(groups), figure.number(individual))
        rows.append([figure.name, *(figure.text(run) for run in runs), ratio])
    return render(["figure", *(run.label for run in runs), "groups / individual"], rows, markdown)


def split_table(runs: Sequence[RunResult], markdown: bool) -> str:
    """Where an update's time went, part by part (NavigatorStats.part_seconds), by run: where to look for speed."""
    rows = [
        [part, *(f"{run.part_ms[part]:.2f}" if part in run.part_ms else "-" for run in runs)] for part in UPDATE_PARTS
    ]
    return render(["part of an update: mean ms while no order had ended", *(run.label for run in runs)], rows, markdown)


#: The figures of a row of the ``--seeds`` table: how the seed's orders ended.
SEED_FIGURES = (
    "updates / game s until every order ended", "searches per order", "arrival spread s: median / max",
    "arrived / reachable", "HELD_UP / UNREACHABLE / under way", "overlapping pairs",
)  # fmt: skip


def seeds_table(runs: Sequence[Tuple[int, RunResult]], markdown: bool) -> str:
    """A row per (seed, groups run)."""
    chosen = [figure for figure in figures() if figure.name in SEED_FIGURES]
    rows = [[str(seed), *(figure.text(run) for figure in chosen)] for seed, run in runs]
    return render(["seed", *(figure.name for figure in chosen)], rows, markdown)


def target_lines(runs: Sequence[RunResult], units: int) -> List[str]:
    """The issue 10 targets, met or missed: the speed by each groups run (the target's interpreter is CPython
    3.11), the rest by the first groups run, overlaps by every run."""
    groups = runs[0]
    checks = []
    for run in runs[:-1]:  # the groups, under each interpreter
        for when, median in (("", median_ms(run)), (", while no order had ended", median_ms(run, under_way=True))):
            text = f"median ms per update{when} <= {TARGET_MS:g} with {TARGET_UNITS:,} units in groups ({run.python})"
            if units < TARGET_UNITS:
                checks.append((text, "not measured", f"{units} units"))
            else:
                checks.append(
                    (
                        text,
                        "met" if median <= TARGET_MS else "MISSED",
                        f"{median:.2f} ms, {median / TARGET_MS - 1:+.0%}",
                    )
                )
    overlaps = sum(run.overlapping_pairs for run in runs)
    checks += [
        ("one search per group order", "met" if groups.plans == groups.orders else "MISSED",
         f"{groups.plans} searches for {groups.orders} orders"),
        ("no units overlap, in any run", "met" if not overlaps else "MISSED", f"{overlaps} pairs"),
        ("every member whose target is reachable arrives", "met" if groups.arrived == groups.reachable else "MISSED",
         f"{groups.arrived} of {groups.reachable}"),
    ]  # fmt: skip
    return [f"  {verdict:<12} {text}: {detail}" for text, verdict, detail in checks]


# -- the command ----------------------------------------------------------------------------------


def seed_range(text: str) -> List[int]:
    """Seeds as FIRST-LAST (or one seed)."""
    first, _, last = text.partition("-")
    try:
        seeds = list(range(int(first), int(last or first) + 1))
    except ValueError:
        seeds = []
    if not seeds:
        raise argparse.ArgumentTypeError(f"not a range of seeds like 1-8: {text!r}")
    return seeds


def fraction(text: str) -> float:
    """A number of seconds as 0.0333 or 1/30."""
    try:
        return float(Fraction(text))
    except (ValueError, ZeroDivisionError):
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None


def argument_parser() -> argparse.ArgumentParser:
    """The options, without their checks: bench/readme_tables.py --check parses the README's commands with it."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--map", default="AR0011SR", help="Moving AI map name, or a .map file (default AR0011SR, 512x512)"
    )
    parser.add_argument("--groups", type=int, default=50, help="groups, each with one order (default 50)")
    parser.add_argument("--size", type=int, default=20, help="units per group (default 20)")
    parser.add_argument("--formation", choices=FORMATIONS, default="box", help="the groups' formation (default box)")
    parser.add_argument("--spacing", type=float, default=2.0, help="cells between slots, >= 1 (default 2: full speed)")
    parser.add_argument(
        "--graph", choices=("on", "off"), default="on", help="plan with a key-point graph, as games do (default on)"
    )
    parser.add_argument("--delta", type=fraction, default=1 / 30, help="seconds per update, e.g. 1/60 (default 1/30)")
    parser.add_argument("--seconds", type=float, default=600.0, help="game seconds before a run stops (default 600)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the sites and orders (default 1)")
    parser.add_argument(
        "--seeds", type=seed_range, help="run the groups alone on the scenario of each seed, e.g. 1-8, a row each"
    )
    parser.add_argument(
        "--pythonscript", action="store_true", help="run the groups again under pythonscript 0.50's CPython 3.8"
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="run the groups alone, print their figures as JSON (what --pythonscript reads)",
    )
    parser.add_argument(
        "--markdown", action="store_true", help="print the table as docs/benchmarks.md shows it (Markdown)"
    )
    return parser


def scenario_arguments(args: argparse.Namespace) -> List[str]:
    """The options that make the same scenario and runs."""
    return [
        "--map", args.map, "--groups", str(args.groups), "--size", str(args.size), "--formation", args.formation,
        "--spacing", repr(args.spacing), "--graph", args.graph, "--delta", repr(args.delta),
        "--seconds", repr(args.seconds), "--seed", str(args.seed),
    ]  # fmt: skip


def map_path(name: str) -> Optional[Path]:
    """The .map file ``--map`` names, or None."""
    if name.endswith(".map"):
        return Path(name) if Path(name).is_file() else None
    folder = find_benchmarks(ROOT)
    return folder / f"{name}.map" if folder is not None and (folder / f"{name}.map").is_file() else None


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argument_parser()
    args = parser.parse_args(argv)
    path = map_path(args.map)
    if path is None:
        parser.error(f"no map {args.map} (a name in the Moving AI folder: set PATHING_PY_MOVINGAI; or a .map file)")
    if args.groups < 1 or args.size < 1 or not args.spacing >= 1 or not args.delta > 0 or not args.seconds > 0:
        parser.error("--groups and --size must be >= 1, --spacing >= 1, --delta and --seconds > 0")
    if args.seeds:
        if args.json or args.pythonscript:
            parser.error("--seeds runs the groups alone: not with --json or --pythonscript")
        return main_seeds(args, path, argv)
    grid, formation, scenario = setting(args, path, args.seed)
    started = time.perf_counter()
    graph = KeyPointGraph.bake(grid) if args.graph == "on" else None
    bake_s = time.perf_counter() - started
    groups = run_groups(scenario, graph, args.spacing, args.delta, args.seconds)._replace(
        bake_s=bake_s if graph else None
    )
    if args.json:
        print(json.dumps(groups._asdict()))
        return 0
    print(f"groups: done in {groups.run_s:.1f} s", file=sys.stderr, flush=True)
    runs = [groups]
    if args.pythonscript:
        runs.append(run_under_pythonscript(args))
        print(f"groups under pythonscript: done in {runs[-1].run_s:.1f} s", file=sys.stderr, flush=True)
    individual = run_individual(scenario, graph, args.delta, args.seconds)._replace(bake_s=groups.bake_s)
    print(f"individual: done in {individual.run_s:.1f} s", file=sys.stderr, flush=True)
    runs.append(individual)
    distances = [math.dist(cells[0], target) for cells, target in zip(scenario.starts, scenario.targets)]
    shape = "no formation" if formation is None else f"formation {args.formation} at spacing {args.spacing:g}"
    planning = "key-point graph (baked once per interpreter, timed apart)" if graph is not None else "find_path only"
    print(f"{path.stem} ({grid.width}x{grid.height}): {args.groups} groups of {args.size} units "
          f"at {DEFAULT_SPEED:g} cells/s, {shape}, each ordered {np.median(distances):.0f} cells away "
          f"(straight line, median; {min(distances):.0f} to {max(distances):.0f}); "
          f"{1 / args.delta:.0f} updates a second; {planning}; {groups.python}\n")  # fmt: skip
    print(table(runs, groups, individual, args.markdown))
    print()
    print(split_table(runs, args.markdown))
    print("\nTargets (issue 10):")
    print("\n".join(target_lines(runs, scenario.units)))
    print(f"\nCommand: {command_line('bench_groups.py', argv)}")
    return 1 if any(run.overlapping_pairs for run in runs) else 0


def setting(args: argparse.Namespace, path: Path, seed: int) -> Tuple[Grid, Optional[Formation], Scenario]:
    """The map, the formation and the scenario of ``seed`` (exits when the map has no room for it)."""
    grid = Grid.from_movingai(path)
    formation = None if args.formation == "none" else Formation.by_name(args.formation, args.size, spacing=args.spacing)
    try:
        return grid, formation, make_scenario(grid, args.groups, args.size, formation, seed)
    except ValueError as error:
        sys.exit(f"bench_groups: {error}")


def run_seed(args: argparse.Namespace, path: Path, seed: int) -> RunResult:
    """The groups run on the scenario of ``seed`` (in a worker process of its own)."""
    grid, _, scenario = setting(args, path, seed)
    graph = KeyPointGraph.bake(grid) if args.graph == "on" else None
    return run_groups(scenario, graph, args.spacing, args.delta, args.seconds)


def main_seeds(args: argparse.Namespace, path: Path, argv: Optional[Sequence[str]]) -> int:
    setting(args, path, args.seeds[0])  # a map without room for the groups is refused here, not in a worker
    workers = min(len(args.seeds), os.cpu_count() or 1)
    with concurrent.futures.ProcessPoolExecutor(max_workers=workers) as pool:
        runs = list(zip(args.seeds, pool.map(run_seed, [args] * len(args.seeds), [path] * len(args.seeds), args.seeds)))
    print(f"{path.stem}: {args.groups} groups of {args.size} units, formation {args.formation}, "
          f"the groups run on the scenario of each seed; {1 / args.delta:.0f} updates a second, "
          f"at most {args.seconds:g} game seconds\n")  # fmt: skip
    print(seeds_table(runs, args.markdown))
    missed = [seed for seed, run in runs if run.arrived < run.reachable]
    print("\nTarget (issue 10): every member whose target is reachable arrives, on every seed: "
          + (f"MISSED on seed(s) {', '.join(map(str, missed))}" if missed else "met"))  # fmt: skip
    print(f"\nCommand: {command_line('bench_groups.py', argv)}")
    return 1 if any(run.overlapping_pairs for _, run in runs) else 0


if __name__ == "__main__":
    sys.exit(main())
