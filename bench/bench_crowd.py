#!/usr/bin/env python3
"""Benchmark crowds (issue 12): our navigator, the cell-holding one of commit 3da9bb7, and RVO2, on the same scenarios.

Each scenario of :mod:`pathing_py.tools.scenarios` runs at 30 updates a second
(delta 1/30 s) until every ordered unit is in a final state (ARRIVED,
HELD_UP, UNREACHABLE) and idle units are back at their places, or, for a
navigator that tells when the world rests (``Navigator.at_rest``: no unit
left to move, none walking back to its goal), until it rests; or up to a tick
limit (twice the scenario's lower bound, below, plus four minutes: long
enough for the slowest scenarios we know to end, so that their rows say when
all arrived: random orders on den520d, all 1,000 by 380 s; 20 against 20 in
a two-cell corridor, 198 s; the gate of 100 rests at 248 s). Three runs,
each in a subprocess of its own:

* ours: the navigator of this working tree (``bench/crowd_runner.py``);
  with --pythonscript, again under pythonscript 0.50's embedded CPython 3.8
  with numpy 1.24 (its ``bin/python3``, outside the engine: the interpreter
  games run us on);
* baseline: the navigator of commit 3da9bb7 (units hold whole cells),
  extracted with ``git archive`` into a temporary folder and imported from
  there by the same runner (outside a git checkout, run with --no-baseline);
* RVO2: the C++ reference for crowd avoidance, built at bench time with
  ``g++ -O2`` (see ``bench/rvo2_peer.py`` for where its sources come from:
  ``$RVO2_SOURCE``, a cached clone, or ``git clone``; without them, run with
  --no-rvo2); one thread, 30 steps
  a second, each agent steering for the farthest cell of its route it can
  see (routes planned before the clock starts: RVO2 does not plan). It is
  done when every agent is within
  ARRIVAL_TOLERANCE of its goal, and stuck when no agent still under way has
  come closer for 10 s.

Only the update (RVO2: the preferred velocities and ``doStep``) is timed.
After every tick, outside the timed part and with the same numpy checks for
all three, the positions are checked: pairs of units closer than 0.99 x
their radius sum (overlaps) and units whose circle reaches into a blocked
cell or off the map (in walls). A navigator that refuses a scenario's units
(today's take radii up to 0.5) is reported as not supporting it.

Printed per scenario and run: median and p99 ms per tick, ticks run, the
tick at which all ordered units had arrived, how many arrived, how many of
those stood off their goal at the end (moved off it since by other units: they
walk back later; navigators only, as RVO2's agents arrive within
ARRIVAL_TOLERANCE of it), ended
HELD_UP / UNREACHABLE or were still under way, distinct overlapping pairs
and the most in one tick, units ever in a wall, idle units not back at their
place at the end (given SETTLE_SECONDS after the last order ended, where the
navigator cannot tell when the world rests; in occupied_spot the idle unit
cannot be: the mover stands there), and the median ms per tick over RVO2's.

And how close a run came to the best any could do (issue 42): the scenario's
lower bound (``pathing_py.tools.crowd_bounds``: the longest trip any unit would
take alone, or the time its bottleneck, a gate or a corridor, needs to pass
every unit that must cross it, whichever is larger), the game time at which
the world came to rest (after the last order ended, units pushed off their
goals walk back: "all arrived at" is earlier; the navigator finds it within
ten updates, a third of a second here), their ratio (the issue's
target: at most 2; the scenarios that meet it are named under the table),
and how many times arrived units started a step off their goals (pushed
aside, or by a jam's plan), in all and the most for one unit. Navigators
only: RVO2 has no world at rest, and its agents no goal to be pushed off.

The machine's other work shows in the figures: compare runs of one
invocation. Exits with 1 when our navigator let units overlap or enter walls
(the issue's invariants).

Usage::

    python3 -m bench.bench_crowd                                  # every scenario at the issue's sizes
    python3 -m bench.bench_crowd --scenario circle_swap --units 5000 --no-baseline
    python3 -m bench.bench_crowd --quick --no-rvo2                # small sizes: a smoke test
    python3 -m bench.bench_crowd --markdown --pythonscript        # docs/benchmarks.md's table
"""

from __future__ import annotations

import argparse
import io
import json
import math
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple

import numpy as np

from bench import rvo2_peer
from bench.report import command_line, pythonscript_python, render
from pathing_py import PathResult
from pathing_py.clearance import size_class
from pathing_py.crowd_checks import overlapping_pairs, units_in_walls
from pathing_py.tools.crowd_bounds import TARGET_RATIO, Bound, lower_bound, solo_paths
from pathing_py.tools.scenarios import (
    CrowdScenario,
    circle_swap,
    crossing_blocks,
    crossroads,
    gate,
    head_on_corridor,
    mixed_radii,
    movingai_orders,
    occupied_spot,
    packed_canyon,
    two_cell_corridor,
)

ROOT = Path(__file__).resolve().parent.parent

DELTA = 1.0 / 30.0
BASELINE_COMMIT = "3da9bb7"
RUNNER = Path(__file__).resolve().parent / "crowd_runner.py"
#: The run of our navigator under pythonscript's interpreter (--pythonscript).
PYTHONSCRIPT_LABEL = "ours, pythonscript's CPython 3.8"
#: Tick limit: this many times the scenario's lower bound (at least the longest trip), plus LIMIT_SLACK seconds.
LIMIT_FACTOR = 2.0
LIMIT_SLACK = 240.0
#: Seconds after the last order ended for idle units to get back to their places.
SETTLE_SECONDS = 30.0
#: An RVO2 agent has arrived while this close to its goal cell's centre (cells); idle units are back as close.
ARRIVAL_TOLERANCE = 0.1


class Entry(NamedTuple):
    """A scenario of the benchmark: how to make it from --units (None: its default), --quick and --map."""

    make: Callable[[Optional[int], bool, str], CrowdScenario]
    takes_units: bool = True


def sized(make: Callable[..., CrowdScenario], default: int, quick: int) -> Entry:
    """An entry whose unit count is its function's ``units``: ``default``, ``quick`` with --quick, or --units."""
    return Entry(lambda units, is_quick, _map: make(units if units is not None else quick if is_quick else default))


SCENARIOS: Dict[str, Entry] = {
    "head_on_corridor": sized(head_on_corridor, 10, 4),
    "two_cell_corridor": sized(two_cell_corridor, 40, 8),
    "crossroads": sized(crossroads, 40, 12),
    "gate": sized(gate, 100, 16),
    "packed_canyon": Entry(
        lambda units, quick, _map: packed_canyon(units - 1 if units is not None else 4 if quick else 10)
    ),
    "occupied_spot": Entry(lambda _units, _quick, _map: occupied_spot(), takes_units=False),
    "circle_swap": sized(circle_swap, 1000, 40),
    "crossing_blocks": sized(crossing_blocks, 1000, 40),
    "mixed_radii": sized(mixed_radii, 60, 12),
    "movingai_orders": Entry(
        lambda units, quick, name: movingai_orders(name, units if units is not None else 50 if quick else 1000)
    ),
}


class Outcome(NamedTuple):
    """One run of one scenario, with its positions checked."""

    label: str
    unsupported: str = ""  #: why the run could not take the scenario's units, or ""
    tick_ms: np.ndarray = np.zeros(0)
    all_arrived_tick: Optional[int] = None
    arrived: int = 0
    held_up: int = 0
    unreachable: int = 0
    under_way: int = 0  #: RVO2: not arrived at the end (stuck for good if ``stuck``)
    stuck: bool = False
    overlapping_pairs: int = 0  #: distinct pairs that overlapped after some tick
    worst_tick: int = 0  #: the most pairs overlapping after one tick
    in_walls: int = 0  #: distinct units whose circle was ever in a wall
    idle_away: int = 0  #: idle units not back at their place at the end
    off_goal: Optional[int] = (
        None  #: navigators: units ARRIVED farther than ARRIVAL_TOLERANCE from their goal at the end
    )
    rest_tick: Optional[int] = (
        None  #: navigators with Navigator.at_rest: the tick since which the world rests, if it came
    )
    moved_off_goal: Optional[np.ndarray] = (
        None  #: navigators that count it: steps each ordered unit started off its goal after it arrived
    )


# -- running ------------------------------------------------------------------------------------


class Setting(NamedTuple):
    """What every run of one scenario shares: the scenario file, routes, lower bound, limits and a scratch folder."""

    scenario: CrowdScenario
    routes: List[np.ndarray]
    bound: Bound
    max_ticks: int
    folder: Path


def prepare(scenario: CrowdScenario, folder: Path, max_seconds: Optional[float]) -> Setting:
    """Write the scenario for the runners, plan every unit's route (for RVO2, the tick limit and the bound)."""
    np.savez(
        folder / "scenario.npz",
        passable=scenario.grid.passable, starts=scenario.starts, goals=scenario.goals, radii=scenario.radii,
        speeds=scenario.speeds, priorities=scenario.priorities, idle=scenario.idle,
    )  # fmt: skip
    paths = solo_paths(scenario)
    bound = lower_bound(scenario, paths)
    seconds = max_seconds if max_seconds is not None else LIMIT_FACTOR * bound.seconds + LIMIT_SLACK
    return Setting(scenario, plan_routes(scenario, paths), bound, math.ceil(seconds / DELTA), folder)


def plan_routes(scenario: CrowdScenario, paths: List[Optional[PathResult]]) -> List[np.ndarray]:
    """Each unit's route as cell centres after its start ((k, 2) floats; an idle unit's is its place), from its
    path through cells its circle fits in (``paths``: :func:`~pathing_py.tools.crowd_bounds.solo_paths`); a unit
    that does not fit at its start steers straight for its goal."""
    routes = [np.array([centre]) for centre in scenario.goal_positions]
    for unit, found in enumerate(paths):
        if found is not None:
            routes[unit] = np.array(found.cells[1:] or [found.cells[-1]], dtype=np.float64) + 0.5
    return routes


def run_navigator(label: str, setting: Setting, package_root: Path, python: str = sys.executable) -> Outcome:
    """Run the scenario in ``crowd_runner.py`` on ``python`` with pathing_py imported from ``package_root``."""
    positions = setting.folder / f"{label.split()[0]}.f32"
    command = [
        python, str(RUNNER), str(setting.folder / "scenario.npz"), str(positions), "--delta", repr(DELTA),
        "--max-ticks", str(setting.max_ticks), "--settle-ticks", str(math.ceil(SETTLE_SECONDS / DELTA)),
    ]  # fmt: skip
    environment = dict(os.environ, PYTHONPATH=str(package_root))
    done = subprocess.run(command, capture_output=True, text=True, env=environment)
    if done.returncode != 0:
        raise RuntimeError(f"{label}: crowd_runner failed:\n{done.stderr[-3000:]}")
    result = json.loads(done.stdout)
    if package_root.resolve() not in Path(result["package"]).resolve().parents:
        raise RuntimeError(f"{label}: the runner imported {result['package']}, not the package in {package_root}")
    if "unsupported" in result:
        return Outcome(label, unsupported=result["unsupported"])
    states = np.array(result["states"])[setting.scenario.ordered]
    tick_ms = np.array(result["tick_ms"])
    overlaps, worst, walled, final = check_positions(positions, setting.scenario, len(tick_ms))
    return Outcome(
        label, tick_ms=tick_ms, all_arrived_tick=result["all_arrived_tick"], arrived=int((states == "ARRIVED").sum()),
        held_up=int((states == "HELD_UP").sum()), unreachable=int((states == "UNREACHABLE").sum()),
        under_way=int((~np.isin(states, ["ARRIVED", "HELD_UP", "UNREACHABLE"])).sum()),
        overlapping_pairs=overlaps, worst_tick=worst, in_walls=walled, idle_away=idle_away(setting.scenario, final),
        off_goal=off_goal(setting.scenario, states, final), rest_tick=result.get("rest_tick"),
        moved_off_goal=(None if result.get("moved_off_goal") is None
                        else np.array(result["moved_off_goal"], dtype=np.int64)),
    )  # fmt: skip


def run_rvo2(binary: Path, setting: Setting) -> Outcome:
    """Run the scenario with RVO2's driver."""
    scenario = setting.scenario
    text = rvo2_peer.scenario_text(
        scenario.starts, scenario.radii, scenario.speeds, scenario.idle, setting.routes, scenario.grid.passable,
        delta=DELTA, max_steps=setting.max_ticks, arrival=ARRIVAL_TOLERANCE, settle_seconds=SETTLE_SECONDS,
    )  # fmt: skip
    positions = setting.folder / "rvo2.f32"
    run = rvo2_peer.run(binary, text, positions, timeout=3600)
    overlaps, worst, walled, final = check_positions(positions, scenario, len(run.step_ms))
    ordered = int(scenario.ordered.sum())
    return Outcome(
        "RVO2", tick_ms=run.step_ms, all_arrived_tick=run.all_arrived_step, arrived=run.arrived,
        under_way=ordered - run.arrived, stuck=run.stuck, overlapping_pairs=overlaps, worst_tick=worst,
        in_walls=walled, idle_away=idle_away(scenario, final),
    )  # fmt: skip


def check_positions(path: Path, scenario: CrowdScenario, ticks: int) -> Tuple[int, int, int, np.ndarray]:
    """(distinct overlapping pairs, most pairs after one tick, distinct units in walls, final positions) of a run's
    position file: float32 (x, y) per unit, tick after tick."""
    count = scenario.count
    positions = (
        np.fromfile(path, dtype=np.float32).reshape(ticks, count, 2)
        if ticks
        else scenario.starts[None].astype(np.float32)
    )
    pairs: set = set()
    walled: set = set()
    worst = 0
    passable = scenario.grid.passable
    for tick in positions:
        found = overlapping_pairs(tick, scenario.radii)
        worst = max(worst, len(found))
        pairs.update((found[:, 0] * count + found[:, 1]).tolist())
        walled.update(units_in_walls(passable, tick, scenario.radii).tolist())
    return len(pairs), worst, len(walled), positions[-1].astype(np.float64)


def off_goal(scenario: CrowdScenario, states: np.ndarray, final: np.ndarray) -> int:
    """Ordered units (``states``: theirs) ARRIVED farther than ARRIVAL_TOLERANCE from where they stand on
    their goal (the centre of the block of their size whose top-left cell it is) at the end."""
    sizes = np.array([size_class(radius) for radius in scenario.radii])
    away = np.hypot(*(final - scenario.goals - sizes[:, None] / 2)[scenario.ordered].T) > ARRIVAL_TOLERANCE
    return int((away & (states == "ARRIVED")).sum())


def idle_away(scenario: CrowdScenario, final: np.ndarray) -> int:
    """Idle units farther than ARRIVAL_TOLERANCE from their place at the end."""
    away = np.hypot(*(final - scenario.starts).T) > ARRIVAL_TOLERANCE
    return int((away & scenario.idle).sum())


def extract_baseline(folder: Path) -> Tuple[Optional[Path], str]:
    """The package of BASELINE_COMMIT extracted into ``folder`` (the folder to import it from), or why not."""
    try:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", BASELINE_COMMIT, "pathing_py"], capture_output=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        stderr = getattr(error, "stderr", b"") or b""
        return (
            None,
            f"cannot extract commit {BASELINE_COMMIT} from {ROOT} (not a git checkout?): "
            f"{stderr.decode().strip() or error}",
        )
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder)
    return folder, ""


# -- reporting ----------------------------------------------------------------------------------


def rest_ratio(outcome: Outcome, bound: Bound) -> Optional[float]:
    """The game time at which the world came to rest over the scenario's lower bound, or None (it did not, or
    the run cannot tell)."""
    if outcome.rest_tick is None:
        return None
    return outcome.rest_tick * DELTA / bound.seconds if bound.seconds > 0 else math.inf


def pushed_off(moved_off_goal: Optional[np.ndarray]) -> str:
    """Steps arrived units started off their goals: in all, and (in brackets) the most for one unit."""
    if moved_off_goal is None:
        return "-"
    return f"{int(moved_off_goal.sum())} ({int(moved_off_goal.max(initial=0))})"


def bound_text(bound: Bound) -> str:
    """The scenario's lower bound and what it comes from, for its description line."""
    text = f"lower bound {bound.seconds:.1f} s (longest trip alone {bound.trip:.1f} s"
    return text + (f"; {bound.passage_at}: {bound.passage:.1f} s)" if bound.passage_at else ")")


def verdict(ratios: Sequence[Tuple[str, str, Optional[float]]]) -> str:
    """Which runs (scenario, run, rest/bound) came to rest within TARGET_RATIO x their bound, which later, which
    never."""
    lines = [f"At rest within {TARGET_RATIO:g}x the lower bound (issue 42's target), per run:"]
    for label in dict.fromkeys(label for _, label, _ in ratios):
        runs = [(name, ratio) for name, run, ratio in ratios if run == label]
        met = [name for name, ratio in runs if ratio is not None and ratio <= TARGET_RATIO]
        missed = [f"{name} {ratio:.1f}x" for name, ratio in runs if ratio is not None and ratio > TARGET_RATIO]
        never = [name for name, ratio in runs if ratio is None]
        parts = [f"meet it: {', '.join(met) or 'none'}", f"miss it: {', '.join(missed) or 'none'}"]
        if never:
            parts.append(f"no rest seen: {', '.join(never)}")
        lines.append(f"- {label}: " + "; ".join(parts))
    return "\n".join(lines)


def row(name: str, outcome: Outcome, ordered: int, rvo2: Optional[Outcome], bound: Bound) -> List[str]:
    if outcome.unsupported:
        return [name, outcome.label, "not supported"] + ["-"] * (len(COLUMNS) - 3)
    median = float(np.median(outcome.tick_ms)) if len(outcome.tick_ms) else math.nan
    p99 = float(np.percentile(outcome.tick_ms, 99)) if len(outcome.tick_ms) else math.nan
    rvo2_median = float(np.median(rvo2.tick_ms)) if rvo2 is not None and len(rvo2.tick_ms) else 0.0
    is_rvo2 = outcome.label == "RVO2"
    ratio = rest_ratio(outcome, bound)
    return [
        name,
        outcome.label,
        f"{median:.3f}",
        f"{p99:.3f}",
        str(len(outcome.tick_ms)),
        "-" if outcome.all_arrived_tick is None else str(outcome.all_arrived_tick),
        "-" if outcome.rest_tick is None else f"{outcome.rest_tick * DELTA:.1f}",
        f"{bound.seconds:.1f}",
        "-" if ratio is None else f"{ratio:.1f}",
        f"{outcome.arrived}/{ordered}",
        "-" if outcome.off_goal is None else str(outcome.off_goal),
        pushed_off(outcome.moved_off_goal),
        "-" if is_rvo2 else f"{outcome.held_up}/{outcome.unreachable}",
        f"{outcome.under_way}" + (" stuck" if outcome.stuck else ""),
        str(outcome.overlapping_pairs),
        str(outcome.worst_tick),
        str(outcome.in_walls),
        str(outcome.idle_away),
        "-" if rvo2_median <= 0 or is_rvo2 else f"{median / rvo2_median:.1f}",
    ]


COLUMNS = [
    "scenario", "run", "median ms", "p99 ms", "ticks", "all arrived at", "at rest s", "bound s", "rest/bound",
    "arrived", "off goal", "pushed off (most)", "held up/unreach.", "under way", "overlapping pairs", "worst tick",
    "in walls", "idle away", "x RVO2",
]  # fmt: skip


def argument_parser() -> argparse.ArgumentParser:
    """The options, without their checks: bench/readme_tables.py --check parses the README's commands with it."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--scenario", action="append", choices=sorted(SCENARIOS), help="run this scenario (repeatable; default: all)"
    )
    parser.add_argument(
        "--units", type=int, help="units in each scenario that takes a count (default: the issue's sizes)"
    )
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke test")
    parser.add_argument(
        "--map", default="den520d", help="Moving AI map of movingai_orders (default den520d; AR0011SR is 512x512)"
    )
    parser.add_argument(
        "--max-seconds", type=float, help="simulated seconds before a run gives up (default: from the longest trip)"
    )
    parser.add_argument("--no-baseline", action="store_true", help=f"skip the navigator of commit {BASELINE_COMMIT}")
    parser.add_argument("--no-rvo2", action="store_true", help="skip RVO2")
    parser.add_argument("--pythonscript", action="store_true",
                        help="run ours again under pythonscript 0.50's embedded CPython 3.8 "
                        "(outside the engine)")  # fmt: skip
    parser.add_argument(
        "--markdown", action="store_true", help="print the table as docs/benchmarks.md shows it (Markdown)"
    )
    return parser


def parse_arguments(argv: Optional[Sequence[str]]) -> argparse.Namespace:
    parser = argument_parser()
    args = parser.parse_args(argv)
    if args.units is not None and args.units < 1:
        parser.error("--units must be >= 1")
    if args.max_seconds is not None and not (math.isfinite(args.max_seconds) and args.max_seconds > 0):
        parser.error("--max-seconds must be a positive number")
    args.scenario = args.scenario or list(SCENARIOS)
    return args


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = parse_arguments(argv)
    notes: List[str] = []
    peer = rvo2_peer.Peer(None, "RVO2 skipped (--no-rvo2)") if args.no_rvo2 else rvo2_peer.build()
    if peer.binary is None and not args.no_rvo2:  # a table without its peer's rows is not the table asked for
        sys.exit(f"bench_crowd: RVO2 cannot run: {peer.problem} (--no-rvo2 runs without it)")
    if peer.problem:
        notes.append(peer.problem)
    pythonscript = str(pythonscript_python()) if args.pythonscript else None
    rows: List[List[str]] = []
    descriptions: List[str] = []
    ratios: List[Tuple[str, str, Optional[float]]] = []
    violations = 0
    with tempfile.TemporaryDirectory(prefix="bench_crowd_") as scratch:
        baseline, problem = (
            (None, "baseline skipped (--no-baseline)")
            if args.no_baseline
            else extract_baseline(Path(scratch) / "baseline")
        )
        if baseline is None and not args.no_baseline:
            sys.exit(f"bench_crowd: the baseline cannot run: {problem} (--no-baseline runs without it)")
        if problem:
            notes.append(problem)
        for name in args.scenario:
            entry = SCENARIOS[name]
            if args.units is not None and not entry.takes_units:
                notes.append(f"{name} has a fixed number of units: --units does not change it")
            try:
                scenario = entry.make(args.units, args.quick, args.map)
            except ValueError as error:
                sys.exit(f"bench_crowd: {name}: {error}")
            folder = Path(scratch) / name
            folder.mkdir()
            setting = prepare(scenario, folder, args.max_seconds)
            descriptions.append(f"{name}: {scenario.description}; {scenario.count} units, "
                                f"map {scenario.grid.width}x{scenario.grid.height}, "
                                f"at most {setting.max_ticks} ticks; {bound_text(setting.bound)}")  # fmt: skip
            outcomes = []
            runs: List[Tuple[str, Callable[[], Outcome]]] = [("ours", lambda: run_navigator("ours", setting, ROOT))]
            if pythonscript is not None:
                runs.append(("pythonscript", lambda: run_navigator(PYTHONSCRIPT_LABEL, setting, ROOT, pythonscript)))
            if baseline is not None:
                runs.append(("baseline", lambda: run_navigator(f"baseline {BASELINE_COMMIT}", setting, baseline)))
            binary = peer.binary
            if binary is not None:
                runs.append(("RVO2", lambda: run_rvo2(binary, setting)))
            for label, run in runs:
                started = time.perf_counter()
                outcomes.append(run())
                print(f"{name}: {label} done in {time.perf_counter() - started:.1f} s", file=sys.stderr, flush=True)
            rvo2 = next((o for o in outcomes if o.label == "RVO2"), None)
            ordered = int(scenario.ordered.sum())
            rows += [row(name, outcome, ordered, rvo2, setting.bound) for outcome in outcomes]
            navigators = [outcome for outcome in outcomes if outcome.label != "RVO2" and not outcome.unsupported]
            ratios += [(name, outcome.label, rest_ratio(outcome, setting.bound)) for outcome in navigators]
            notes += [
                f"{name}: {o.label} does not take these units: {o.unsupported}" for o in outcomes if o.unsupported
            ]
            violations += sum(
                o.overlapping_pairs + o.in_walls for o in outcomes if o.label in ("ours", PYTHONSCRIPT_LABEL)
            )
    print(f"Crowds at {1 / DELTA:.0f} updates a second (ms per tick of the update alone; "
          f"RVO2: preferred velocities and doStep, one thread, g++ {' '.join(rvo2_peer.COMPILE_FLAGS)}; "
          f"RVO2 arrives within {ARRIVAL_TOLERANCE} cell of its goal)\n")  # fmt: skip
    print("\n".join(descriptions) + "\n")
    print(render(COLUMNS, rows, args.markdown))
    print("\n" + verdict(ratios))
    if notes:
        print("\n" + "\n".join(notes))
    print(f"\nCommand: {command_line('bench_crowd.py', argv)}")
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())
