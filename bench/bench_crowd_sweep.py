#!/usr/bin/env python3
"""How crowds end (issue 12): the small scenarios of :mod:`pathing_py.tools.scenarios` at several sizes and update
deltas.

One crowd run is chaotic: a different update delta, or any change to the
traffic rules, changes which unit waits for which, and a single scenario
run can swing from all arrived to a few stuck. So this runs each scenario
at each of three update deltas (1/30, 1/20 and 1/10 s) for the same game
time and adds the outcomes up. Printed per run and in total: the ordered
units, how many are ARRIVED and of those how many stand on their goal cell
(a unit pushed off its goal after it arrived walks back to it), how many
ended HELD_UP or UNREACHABLE, and how many are still under way; and, as
``bench_crowd.py`` prints them (issue 42), the game time since which the world
rests (``Navigator.at_rest``; "-" if it did not by the end), the scenario's
lower bound (``pathing_py.tools.crowd_bounds``), their ratio (the target: at most
2), and the steps arrived units started off their goals, in all and the most
for one unit. Nothing is timed: ``bench_crowd.py`` measures speed against RVO2.

Usage::

    python3 -m bench.bench_crowd_sweep                  # 14 runs x 3 deltas, 120 game seconds each (a minute or two)
    python3 -m bench.bench_crowd_sweep --seconds 30 --markdown
"""

from __future__ import annotations

import argparse
import sys
from typing import Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple

from bench.report import command_line, render
from pathing_py.tools import scenarios
from pathing_py.tools.crowd_bounds import TARGET_RATIO, lower_bound
from pathing_py.tools.crowd_runs import CrowdRun
from pathing_py.tools.scenarios import CrowdScenario
from pathing_py.units import UnitState

DELTAS = (1 / 30, 1 / 20, 1 / 10)
RUNS: List[Tuple[str, Callable[[], CrowdScenario]]] = [
    ("armies 60", lambda: scenarios.armies(60)),
    ("gate 16", lambda: scenarios.gate(16)),
    ("gate 25", lambda: scenarios.gate(25)),
    ("gate 36", lambda: scenarios.gate(36)),
    ("crossroads 40", lambda: scenarios.crossroads(40)),
    ("two-cell corridor 8", lambda: scenarios.two_cell_corridor(8)),
    ("two-cell corridor 12", lambda: scenarios.two_cell_corridor(12)),
    ("head-on corridor 4", lambda: scenarios.head_on_corridor(4)),
    ("head-on corridor 6", lambda: scenarios.head_on_corridor(6)),
    ("packed canyon, 3 idle", lambda: scenarios.packed_canyon(3)),
    ("packed canyon, 10 idle", lambda: scenarios.packed_canyon(10)),
    ("occupied spot", scenarios.occupied_spot),
    ("mixed radii 12", lambda: scenarios.mixed_radii(12)),
    ("mixed radii 36", lambda: scenarios.mixed_radii(36)),
]
#: Counts, added up over the runs in the last row.
COUNTS = ["ordered", "ARRIVED", "at goal", "HELD_UP", "UNREACHABLE", "under way", "pushed off"]
COLUMNS = ["run", "delta s"] + COUNTS[:-1] + ["at rest s", "bound s", "rest/bound", "pushed off", "most pushed"]


class Outcome(NamedTuple):
    """How one run ended: the ordered units counted by how they stand, when the world came to rest, and the steps
    each arrived unit started off its goal."""

    counts: Dict[str, int]
    rested_at: Optional[float]
    most_pushed: int


def outcome(scenario: CrowdScenario, delta: float, seconds: float) -> Outcome:
    """How the ordered units of ``scenario`` stand after ``seconds`` of updates of ``delta``."""
    run = CrowdRun(scenario)
    for _ in range(round(seconds / delta)):
        run.update(delta)
    ordered = run.ordered
    counts = {
        state: sum(unit.state is state for unit in ordered)
        for state in (UnitState.ARRIVED, UnitState.HELD_UP, UnitState.UNREACHABLE)
    }
    pushed = run.moved_off_goal
    return Outcome(
        {
            "ordered": len(ordered),
            "ARRIVED": counts[UnitState.ARRIVED],
            "at goal": sum(unit.state is UnitState.ARRIVED and unit.cell == unit.goal for unit in ordered),
            "HELD_UP": counts[UnitState.HELD_UP],
            "UNREACHABLE": counts[UnitState.UNREACHABLE],
            "under way": len(ordered) - sum(counts.values()),
            "pushed off": sum(pushed),
        },
        run.rested_at,
        max(pushed, default=0),
    )


def argument_parser() -> argparse.ArgumentParser:
    """The options, without their checks: bench/readme_tables.py --check parses the README's commands with it."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=120.0, help="game seconds each run lasts (default 120)")
    parser.add_argument(
        "--only", action="append", choices=[name for name, _ in RUNS], help="run this scenario only (repeatable)"
    )
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    return parser


def parse_arguments(argv: Optional[Sequence[str]]) -> argparse.Namespace:
    parser = argument_parser()
    args = parser.parse_args(argv)
    if not args.seconds > 0:
        parser.error(f"--seconds must be positive, got {args.seconds}")
    return args


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = parse_arguments(argv)
    rows: List[List[str]] = []
    total = dict.fromkeys(COUNTS, 0)
    most = 0
    ratios: List[Tuple[str, Optional[float]]] = []
    for name, make in RUNS:
        if args.only and name not in args.only:
            continue
        bound = lower_bound(make()).seconds
        for delta in DELTAS:
            ended = outcome(make(), delta, args.seconds)
            for column in total:
                total[column] += ended.counts[column]
            most = max(most, ended.most_pushed)
            ratio = None if ended.rested_at is None else ended.rested_at / bound
            ratios.append((f"{name} at {delta:.3f} s", ratio))
            rows.append(
                [name, f"{delta:.3f}"] + [str(ended.counts[column]) for column in COUNTS[:-1]]
                + ["-" if ended.rested_at is None else f"{ended.rested_at:.1f}", f"{bound:.1f}",
                   "-" if ratio is None else f"{ratio:.1f}"]
                + [str(ended.counts["pushed off"]), str(ended.most_pushed)]
            )  # fmt: skip
    rows.append(
        ["all", ""]
        + [str(total[column]) for column in COUNTS[:-1]]
        + ["", "", ""]
        + [str(total["pushed off"]), str(most)]
    )
    print(render(COLUMNS, rows, args.markdown))
    met = sum(ratio is not None and ratio <= TARGET_RATIO for _, ratio in ratios)
    missed = [
        f"{run} {ratio:.1f}x" if ratio is not None else f"{run} (no rest)"
        for run, ratio in ratios
        if ratio is None or ratio > TARGET_RATIO
    ]
    print(f"\nAt rest within {TARGET_RATIO:g}x the lower bound (issue 42's target): {met} of {len(ratios)} runs"
          + (f"; not: {', '.join(missed)}" if missed else ""))  # fmt: skip
    print(f"\nAfter {args.seconds:g} game seconds. Command: {command_line('bench_crowd_sweep.py', argv)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
