#!/usr/bin/env python3
"""Time the groups benchmark's updates against the code of an earlier commit, the two paired in one process.

The shared machine's speed drifts from run to run (the key-point graph's bake took 0.83 s in one of the
README's runs of bench_groups.py and 1.21 s in the next), so two runs at different times compare the machine
as much as the code. Here the working tree's ``pathing_py`` and the commit's (``git archive`` into a
temporary folder, imported under another name: the package imports its own modules by relative imports
only) each run bench_groups.py's groups scenario, update by update in turn, the first of each pair
alternating: both meet the machine as it is then. Counted, as the README's figure: the updates before the
first order ended. The two must move the units the same (the same states and cells after every update, and
positions that differ by no more than the last bits of a float), or they did different work: the comparison
says whether they did, and how far apart the positions came.

Usage::

    python3 -m bench.bench_compare 275f0de              # seed 1 of bench_groups.py's scenario
    python3 -m bench.bench_compare HEAD~3 --seed 2 --groups 10 --size 9
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import io
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any, Dict, List, NamedTuple, Optional, Sequence

import numpy as np

import pathing_py
from bench import bench_crowd, bench_groups
from bench.bench_groups import ROOT, Scenario, add_units
from bench.report import command_line
from pathing_py.tools.scenarios import CrowdScenario

#: The name the commit's package is imported under.
BASE_PACKAGE = "pathing_base"


class World(NamedTuple):
    """One package's run of the scenario."""

    navigator: Any  #: the package's Navigator
    groups: Any  #: its Groups, None for a crowd scenario
    units: List[Any]
    ordered: List[Any]  #: the units with an order of their own (a crowd's; none in the groups scenario)


def export_package(commit: str, folder: Path) -> ModuleType:
    """The commit's ``pathing_py``, written into ``folder`` and imported as BASE_PACKAGE."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", commit, "pathing_py"],
                             check=True, capture_output=True).stdout  # fmt: skip
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))  # type: ignore[arg-type]
    shutil.move(str(folder / "pathing_py"), str(folder / BASE_PACKAGE))
    package = folder / BASE_PACKAGE
    spec = importlib.util.spec_from_file_location(
        BASE_PACKAGE, package / "__init__.py", submodule_search_locations=[str(package)]
    )
    assert spec is not None and spec.loader is not None
    module = sys.modules[BASE_PACKAGE] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def world(package: ModuleType, args: argparse.Namespace, scenario: Scenario) -> World:
    """The groups of ``scenario`` ordered, with ``package``'s navigator and groups (as bench_groups.run_groups)."""
    units, groups_module = (importlib.import_module(f"{package.__name__}.{name}") for name in ("units", "groups"))
    grid = package.Grid(scenario.grid.passable)
    navigator = units.Navigator(grid, package.KeyPointGraph.bake(grid) if args.graph == "on" else None)
    members = add_units(navigator, scenario)
    groups = groups_module.Groups(navigator)
    shape = (
        None
        if args.formation == "none"
        else groups_module.Formation.by_name(args.formation, args.size, spacing=args.spacing)
    )
    for group_units, target in zip(members, scenario.targets):
        groups.add_group(group_units, formation=shape, spacing=args.spacing).move_to(target)
    return World(navigator, groups, [unit for group_units in members for unit in group_units], [])


def crowd_world(package: ModuleType, scenario: CrowdScenario) -> World:
    """The crowd ``scenario``'s units added and ordered, with ``package``'s navigator (as CrowdRun does)."""
    navigator = importlib.import_module(f"{package.__name__}.units").Navigator(package.Grid(scenario.grid.passable))
    units = [
        navigator.add_unit(tuple(start), speed=float(speed), radius=float(radius), priority=int(priority))
        for start, speed, radius, priority in zip(
            scenario.starts.tolist(), scenario.speeds, scenario.radii, scenario.priorities
        )
    ]
    ordered = [unit for unit, idle in zip(units, scenario.idle) if not idle]
    for unit, goal, idle in zip(units, scenario.goals.tolist(), scenario.idle):
        if not idle:
            unit.move_to(tuple(goal))
    return World(navigator, None, units, ordered)


def order_ended(world_: World) -> bool:
    """Whether a group arrived (the groups scenario), or every order ended for good (a crowd)."""
    if world_.groups is not None:
        return any(event == "group_arrived" for _, event, _ in world_.groups.events())
    return all(
        unit.state.name in ("ARRIVED", "HELD_UP", "UNREACHABLE") and not world_.navigator.goes_on_later(unit)
        for unit in world_.ordered
    )


#: Cells two positions of a unit may differ by and still be the same move: the last bits of a float, where the
#: two codes compute a distance in another order (numpy's hypot and Python's differ in the last bit).
SAME_POSITION = 1e-9


def same_moves(new: List[Any], base: List[Any]) -> bool:
    """Whether the units of both runs are in the same states and cells, at the same positions (to SAME_POSITION)."""
    return (
        all((a.state.name, a.cell, a.next_cell) == (b.state.name, b.cell, b.next_cell) for a, b in zip(new, base))
        and position_difference(new, base) <= SAME_POSITION
    )


def position_difference(new: List[Any], base: List[Any]) -> float:
    """The largest difference of a unit's x or y between the two runs."""
    return float(np.abs(np.array([a.position for a in new]) - np.array([b.position for b in base])).max(initial=0.0))


def compare(new: World, base: World, delta: float, seconds: float) -> str:
    """Update both until an order of either ends (or ``seconds``), in turn; the report."""
    ticks: Dict[int, List[float]] = {id(new): [], id(base): []}
    apart_at: Optional[int] = None
    drift = 0.0
    update = 0
    while new.navigator.time < seconds - 1e-9:
        for world_ in (new, base) if update % 2 == 0 else (base, new):
            started = time.perf_counter()
            world_.navigator.update(delta)
            ticks[id(world_)].append((time.perf_counter() - started) * 1000.0)
        if apart_at is None and not same_moves(new.units, base.units):
            apart_at = update
        drift = max(drift, position_difference(new.units, base.units))
        update += 1
        if any([order_ended(new), order_ended(base)]):  # (both read: a group's events are taken)
            break
    new_ms, base_ms = np.array(ticks[id(new)]), np.array(ticks[id(base)])
    same = "yes" if apart_at is None else f"no: apart from update {apart_at} on (the times measure different work)"
    return "\n".join([
        f"{update} updates each, until {'the first order' if new.groups is not None else 'every order'} ended",
        f"{'code':<26}{'median ms':>10}{'mean ms':>10}",
        f"{'working tree':<26}{np.median(new_ms):>10.4g}{new_ms.mean():>10.4g}",
        f"{'base':<26}{np.median(base_ms):>10.4g}{base_ms.mean():>10.4g}",
        f"working tree / base: {np.median(new_ms) / np.median(base_ms):.3f} (medians); "
        f"mean difference, update by update: {np.mean(new_ms - base_ms):+.3f} ms",
        f"largest difference of a unit's position: {drift:.3g} cells",
        f"the units moved the same: {same}",
    ])  # fmt: skip


def argument_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], epilog="Other options: bench_groups.py's scenario options."
    )
    parser.add_argument("commit", help="the commit whose code to time against (any name git knows: 275f0de, HEAD~2)")
    parser.add_argument("--crowd", choices=sorted(bench_crowd.SCENARIOS),
                        help="a scenario of bench_crowd.py (at its default size) in "
                        "place of the groups, updated until every order ended")  # fmt: skip
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argument_parser()
    args, rest = parser.parse_known_args(argv)
    scenario_args = bench_groups.argument_parser().parse_args(rest)
    if scenario_args.seeds or scenario_args.pythonscript or scenario_args.json or scenario_args.markdown:
        parser.error("only bench_groups.py's scenario options: not --seeds, --pythonscript, --json or --markdown")
    path = bench_groups.map_path(scenario_args.map)
    if path is None:
        parser.error(
            f"no map {scenario_args.map} (a name in the Moving AI folder: set PATHING_PY_MOVINGAI; or a .map file)"
        )
    try:
        commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", f"{args.commit}^{{commit}}"],
                                check=True, capture_output=True, text=True).stdout.strip()  # fmt: skip
    except subprocess.CalledProcessError:
        parser.error(f"git knows no commit {args.commit!r} in {ROOT}")
    with tempfile.TemporaryDirectory() as folder:
        package = export_package(commit, Path(folder))
        if args.crowd:
            crowd = bench_crowd.SCENARIOS[args.crowd].make(None, False, "den520d")
            base, new = crowd_world(package, crowd), crowd_world(pathing_py, crowd)
            title = f"{crowd.name}: {crowd.description}"
        else:
            _, _, scenario = bench_groups.setting(scenario_args, path, scenario_args.seed)
            base, new = world(package, scenario_args, scenario), world(pathing_py, scenario_args, scenario)
            title = (
                f"{path.stem}: {scenario_args.groups} groups of {scenario_args.size}, "
                f"formation {scenario_args.formation}, seed {scenario_args.seed}"
            )
        report = compare(new, base, scenario_args.delta, scenario_args.seconds)
    print(
        f"{title}; the working tree against commit {commit} (base); {sys.implementation.name} {sys.version.split()[0]}"
    )
    print(report)
    print(f"\nCommand: {command_line('bench_compare.py', argv)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
