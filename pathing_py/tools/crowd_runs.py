"""Crowd scenarios run on the navigator, checked after every update (issue 12 item 10).

``pathing-py demo --scenario armies`` (or ``crossroads``) draws and prints
these runs: the scenario's units added to a navigator as
:mod:`pathing_py.tools.scenarios` describes them, the ordered ones sent to their
goals, and after every update the pairs of units that overlap and the units
whose circle reaches into a wall counted (both must stay 0)::

    >>> from pathing_py.tools.crowd_runs import CrowdRun
    >>> from pathing_py.tools.scenarios import armies
    >>> run = CrowdRun(armies(units=12, gates=2))
    >>> while not run.done:
    ...     run.update(0.05)
    >>> run.arrived, len(run.ordered), run.overlaps, run.in_walls
    (12, 12, 0, 0)

Times are game seconds (the navigator's clock), except :attr:`CrowdRun.update_ms`,
the wall-clock time of each update.
"""

import time
from typing import List, Optional

import numpy as np

from ..crowd_checks import overlapping_pairs, units_in_walls
from ..units import Navigator, Unit, UnitState
from ..units.unit import FINAL_STATES
from .scenarios import CrowdScenario

__all__ = ["CrowdRun"]


class CrowdRun:
    """A crowd scenario under way: its navigator and units, and what the checks found so far.

    Call :meth:`update` until :attr:`done` (every order ended for good)."""

    def __init__(self, scenario: CrowdScenario):
        self.scenario = scenario
        self.navigator = Navigator(scenario.grid)
        self.units: List[Unit] = [
            self.navigator.add_unit(tuple(start), speed=float(speed), radius=float(radius), priority=int(priority))
            for start, speed, radius, priority in zip(
                scenario.starts.tolist(), scenario.speeds, scenario.radii, scenario.priorities
            )
        ]
        self.ordered: List[Unit] = [
            unit for unit, idle in zip(self.units, scenario.idle) if not idle
        ]  #: the units given orders
        for unit, goal, idle in zip(self.units, scenario.goals.tolist(), scenario.idle):
            if not idle:
                unit.move_to(tuple(goal))
        self.overlaps = 0  #: overlapping pairs of units, summed over the updates
        self.in_walls = 0  #: units whose circle reached into a wall, summed over the updates
        self.update_ms: List[float] = []  #: wall-clock milliseconds of each navigator update
        self.all_arrived_at: Optional[float] = None  #: game time when every ordered unit was ARRIVED, if it came
        #: game time since which the world rests (:attr:`Navigator.at_rest`), None while it does not
        self.rested_at: Optional[float] = None

    @property
    def arrived(self) -> int:
        return sum(unit.state is UnitState.ARRIVED for unit in self.ordered)

    @property
    def moved_off_goal(self) -> List[int]:
        """How many times each ordered unit was moved off its goal after it arrived (``UnitStats.moved_off_goal``)."""
        return [unit.stats.moved_off_goal for unit in self.ordered]

    @property
    def done(self) -> bool:
        """Whether every order ended for good: each ordered unit in a final state, and none of those stopped
        HELD_UP to go on later (:meth:`Navigator.goes_on_later`)."""
        return all(unit.state in FINAL_STATES and not self.navigator.goes_on_later(unit) for unit in self.ordered)

    def update(self, delta: float) -> None:
        """One navigator update of ``delta`` seconds (timed), then the checks."""
        started = time.perf_counter()
        self.navigator.update(delta)
        self.update_ms.append((time.perf_counter() - started) * 1000.0)
        positions = np.array([unit.position for unit in self.units])
        radii = self.scenario.radii
        self.overlaps += len(overlapping_pairs(positions, radii))
        self.in_walls += len(units_in_walls(self.scenario.grid.passable, positions, radii))
        if self.all_arrived_at is None and self.arrived == len(self.ordered):
            self.all_arrived_at = self.navigator.time
        if not self.navigator.at_rest:
            self.rested_at = None
        elif self.rested_at is None:
            self.rested_at = self.navigator.time
