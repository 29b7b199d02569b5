#!/usr/bin/env python3
"""Run one crowd scenario with whatever pathing_py is importable: for bench/bench_crowd.py, in a subprocess.

The benchmark starts this script once for the working tree's navigator and
once for an older commit's (PYTHONPATH picks which), so it uses only what both
have: Grid(passable), Navigator(grid), add_unit, move_to, update, and a unit's
position and state (and, where the navigator has them, ``goes_on_later``: a unit
held up that goes on by itself later has not ended its order; ``at_rest``: a
navigator that has it runs until the world rests, not only until the orders
ended; and a unit's ``stats.moved_off_goal``). The scenario
comes as an .npz file (the arrays of a pathing_py.tools.scenarios.CrowdScenario,
with ``passable``); every unit's position after every update goes to a file of
float32 (x, y) rows, and the figures come out on stdout as one JSON object.
Checking the positions is the benchmark's job, the same for every navigator
and for RVO2.

Usage::

    python3 bench/crowd_runner.py SCENARIO.npz POSITIONS.f32 --delta 0.0333 --max-ticks 9000 --settle-ticks 150
"""

import argparse
import json
import sys
import time
from typing import List, Optional, Sequence

import numpy as np

#: UnitState names that end an order.
FINAL = {"ARRIVED", "HELD_UP", "UNREACHABLE"}
#: The older navigator's names of states since renamed, as this runner reports them.
RENAMED = {"BLOCKED": "HELD_UP"}
#: An idle unit is back at its place while its centre is this close to its cell's centre (cells).
HOME_TOLERANCE = 0.1


def state_name(unit) -> str:
    """The unit's state in today's names, whichever navigator runs."""
    return RENAMED.get(unit.state.name, unit.state.name)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scenario", help=".npz with passable, starts, goals, radii, speeds, priorities, idle")
    parser.add_argument("positions", help="file to write float32 positions to, one row per unit, update after update")
    parser.add_argument("--delta", type=float, required=True, help="seconds per update")
    parser.add_argument("--max-ticks", type=int, required=True, help="updates before giving up")
    parser.add_argument(
        "--settle-ticks",
        type=int,
        required=True,
        help="updates after every order ended for idle units to get back (a navigator without at_rest)",
    )
    args = parser.parse_args(argv)

    import pathing_py  # whichever PYTHONPATH names: the working tree or the baseline commit
    from pathing_py import Grid, Navigator

    data = np.load(args.scenario)
    navigator = Navigator(Grid(data["passable"]))
    units = []
    try:
        for start, radius, speed, priority in zip(data["starts"], data["radii"], data["speeds"], data["priorities"]):
            units.append(
                navigator.add_unit(
                    tuple(start.tolist()), speed=float(speed), radius=float(radius), priority=int(priority)
                )
            )
    except ValueError as error:  # e.g. a radius this navigator does not take
        print(json.dumps({"package": pathing_py.__file__, "unsupported": str(error)}))
        return 0
    ordered = [unit for unit, idle in zip(units, data["idle"]) if not idle]
    for unit, goal, idle in zip(units, data["goals"], data["idle"]):
        if not idle:
            unit.move_to(tuple(goal.tolist()))
    homes = data["starts"][data["idle"]]
    standing = [unit for unit, idle in zip(units, data["idle"]) if idle]

    tick_ms: List[float] = []
    all_arrived_tick = all_final_tick = rest_tick = None
    goes_on_later = getattr(
        navigator, "goes_on_later", lambda unit: False
    )  # (the baseline's units never go on once held up)
    rests = hasattr(navigator, "at_rest")
    with open(args.positions, "wb") as positions:
        while len(tick_ms) < args.max_ticks:
            started = time.perf_counter()
            navigator.update(args.delta)
            tick_ms.append((time.perf_counter() - started) * 1000.0)
            np.array([unit.position for unit in units], dtype=np.float32).tofile(positions)
            states = [state_name(unit) for unit in ordered]
            if all_arrived_tick is None and all(state == "ARRIVED" for state in states):
                all_arrived_tick = len(tick_ms)
            if all_final_tick is None and all(
                state in FINAL and not goes_on_later(unit) for state, unit in zip(states, ordered)
            ):
                all_final_tick = len(tick_ms)
            if rests:
                if not navigator.at_rest:
                    rest_tick = None
                elif rest_tick is None:
                    rest_tick = len(tick_ms)
                if all_final_tick is not None and rest_tick is not None:
                    break
            elif all_final_tick is not None and (
                home(standing, homes) or len(tick_ms) - all_final_tick >= args.settle_ticks
            ):
                break
    print(json.dumps({
        "package": pathing_py.__file__,
        "tick_ms": tick_ms,
        "states": [state_name(unit) for unit in units],
        "all_arrived_tick": all_arrived_tick,
        "all_final_tick": all_final_tick,
        "rest_tick": rest_tick,
        "moved_off_goal": (
            [unit.stats.moved_off_goal for unit in ordered] if hasattr(units[0].stats, "moved_off_goal") else None
        ),
    }))  # fmt: skip
    return 0


def home(standing: list, homes: np.ndarray) -> bool:
    """Whether every idle unit stands at its place again."""
    if not standing:
        return True
    positions = np.array([unit.position for unit in standing])
    return bool((np.hypot(*(positions - homes).T) <= HOME_TOLERANCE).all())


if __name__ == "__main__":
    sys.exit(main())
