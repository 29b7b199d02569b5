"""How soon a crowd scenario could end at best: its lower bound, the yardstick of issue 42.

``bench/bench_crowd.py`` and ``bench/bench_crowd_sweep.py`` divide the time until the world rests
(:attr:`Navigator.at_rest`) by this bound; the issue's target is at most twice it::

    >>> from pathing_py.tools.crowd_bounds import lower_bound
    >>> from pathing_py.tools.scenarios import gate
    >>> bound = lower_bound(gate(units=9))
    >>> round(bound.trip, 2), round(bound.passage, 2), bound.passage_at
    (1.96, 3.25, 'column 7: 9 units through 1 cell')
    >>> bound.seconds == max(bound.trip, bound.passage)
    True

Two bounds, and the larger counts:

**Trip.** No unit arrives before its trip alone: the shortest path from its start cell to its goal on the
empty map (no other unit), through the cells its circle fits in, at its speed; the longest of these is
``trip``. Units step between neighbouring cells, so that path's length (straight steps 1, diagonal ones
sqrt(2)) is the least they can walk. (A unit that does not fit at its start counts the straight line.)

**Passage.** Take a column ``X`` of the map (and likewise every row). A unit whose block starts wholly on one
side of it and ends wholly on the other must cross it: its centre passes the column's middle line,
``x = X + 0.5``. Units hold whole cells, as pathing_py's do, and a unit crossing the column enters it through
one of its ``w`` lanes, the passable cells with a passable neighbour across the line (a dead-end pocket
beside a corridor is none). So the column takes at most ``w`` units abreast, and each lane one unit per
cell-crossing time, ``1 / speed`` (a file of units one cell apart, the closest they stand; a unit of ``s``
cells takes ``s`` lanes for ``s`` crossing times, so it counts as ``s * s`` units of one cell). ``K`` units
(counted so) pass in ``ceil(K / w)`` turns, one crossing time apart. The first turn comes no sooner than
the nearest crossing unit could reach the line (``a``: least distance to it over speed), and after the
last one a unit still walks from the line to its goal (``b``: least distance from it over speed)::

    passage(X) = a + (ceil(K / w) - 1) / speed + b        (speed: the fastest crossing unit's)

``passage`` is the largest over all columns and rows, and ``passage_at`` says where it is. Of the
scenarios of :mod:`pathing_py.tools.scenarios`:

* a gate one cell wide in a one-cell-thick wall (``gate``): its column has ``w = 1`` and every unit
  crosses it, so N units need ``(N - 1) / speed`` plus the way of the nearest unit to the gate and from the
  gate to the nearest goal (100 units at 4 cells a second: 24.75 s + 1.25 s = 26 s; alone the longest trip
  is 5.1 s);
* opposing streams in a corridor two cells wide (``two_cell_corridor``): a column between the two blocks
  has ``w = 2`` and all N units cross it, one file a lane, in ``N / 2`` turns (20 against 20 at 1 cell a
  second: 19 s + 6 s = 25 s; alone 16 s);
* two files head-on in a corridor one cell wide (``head_on_corridor``): a column of the corridor has
  ``w = 1`` (the pocket's column too: the pocket is no lane), and all N units cross it one at a time,
  either way (10 units: 5.25 s; alone 4 s);
* the crossroads: a column of a road's arm has ``w = width`` and its stream crosses it (40 units on roads
  3 cells wide: 5.5 s, as alone: the arms are long enough for the stream to pass; where the streams cross
  is not bounded);
* open ground (``circle_swap``, ``crossing_blocks``, ``mixed_radii``) and the scenarios where idle units make
  way (``packed_canyon``, ``occupied_spot``: only ordered units are counted) have no bottleneck: their trip
  bound is the larger.

Both are lower bounds for units that hold whole cells; they ignore everything else that makes a crowd slow
(turning, waiting for a unit to clear a cell, the crossing of two streams), so no run reaches them. Agents
that steer freely in the open (RVO2) may stagger closer than a file and cut corners; their runs are not
measured against it.
"""

import math
from typing import List, NamedTuple, Optional, Tuple

import numpy as np

from ..clearance import size_class
from ..grid import Grid
from ..search import PathResult, find_path
from .scenarios import CrowdScenario, fitting_cells

__all__ = ["TARGET_RATIO", "Bound", "lower_bound", "passage_bound", "solo_paths", "trip_seconds"]

#: Issue 42's target: every crowd at rest within this many times its lower bound.
TARGET_RATIO = 2.0


class Bound(NamedTuple):
    """A scenario's lower bound in seconds, and what it comes from."""

    trip: float  #: the longest trip any unit would take alone
    #: The longest any bottleneck (column or row) takes to pass every unit that must cross it; 0 without one.
    passage: float
    passage_at: str  #: which column or row, and how many units through how many cells ("" without one)

    @property
    def seconds(self) -> float:
        """The bound: the larger of the two."""
        return max(self.trip, self.passage)


def lower_bound(scenario: CrowdScenario, paths: Optional[List[Optional[PathResult]]] = None) -> Bound:
    """The scenario's :class:`Bound` (see the module docstring); ``paths`` as :func:`solo_paths` gives them, if
    the caller has them already."""
    trips = trip_seconds(scenario, solo_paths(scenario) if paths is None else paths)
    passage, where = passage_bound(scenario)
    return Bound(float(trips.max()), passage, where)


def solo_paths(scenario: CrowdScenario) -> List[Optional[PathResult]]:
    """Each ordered unit's shortest path alone on the empty map, through the cells its circle fits in; None for an
    idle unit and for a unit that does not fit at its start."""
    paths: List[Optional[PathResult]] = [None] * scenario.count
    for radius in np.unique(scenario.radii):
        fits = Grid(fitting_cells(scenario.grid.passable, radius))
        for unit in np.flatnonzero(scenario.ordered & (scenario.radii == radius)).tolist():
            found = find_path(fits, tuple(scenario.start_cells[unit].tolist()), tuple(scenario.goals[unit].tolist()))
            paths[unit] = found if found else None
    return paths


def trip_seconds(scenario: CrowdScenario, paths: List[Optional[PathResult]]) -> np.ndarray:
    """Seconds each unit's trip alone takes at its speed ((n,) floats, 0 for idle units): its path's length
    (``paths`` from :func:`solo_paths`), or the straight line from its start to its goal where it has none."""
    lengths = np.hypot(*(scenario.goal_positions - scenario.starts).T)
    for unit, path in enumerate(paths):
        if path is not None:
            lengths[unit] = path.cost
    return np.where(scenario.ordered, lengths / scenario.speeds, 0.0)


def passage_bound(scenario: CrowdScenario) -> Tuple[float, str]:
    """The passage bound in seconds (the module docstring derives it) and where it is, or (0.0, "") when no
    ordered unit has to cross any column or row."""
    best, where = 0.0, ""
    ordered = scenario.ordered
    sizes = np.array([size_class(radius) for radius in scenario.radii])[ordered]
    speeds = scenario.speeds[ordered]
    for axis, line in ((0, "column"), (1, "row")):
        lanes = _lanes(scenario.grid.passable, axis)
        first, last = scenario.start_cells[ordered, axis], scenario.goals[ordered, axis]
        start, goal = scenario.starts[ordered, axis], scenario.goals[ordered, axis] + sizes / 2  # block centres
        for index in np.flatnonzero(lanes).tolist():
            crossing = ((first + sizes <= index) & (last > index)) | ((last + sizes <= index) & (first > index))
            if not crossing.any():
                continue
            middle = index + 0.5
            reach = (np.abs(middle - start[crossing]) / speeds[crossing]).min()
            leave = (np.abs(goal[crossing] - middle) / speeds[crossing]).min()
            turns = math.ceil(int((sizes[crossing] ** 2).sum()) / int(lanes[index]))
            seconds = float(reach + (turns - 1) / speeds[crossing].max() + leave)
            if seconds > best:
                cells = int(lanes[index])
                units = _counted(int(crossing.sum()), "unit")
                best, where = seconds, f"{line} {index}: {units} through {_counted(cells, 'cell')}"
    return best, where


def _lanes(passable: np.ndarray, axis: int) -> np.ndarray:
    """The cells of each column (``axis`` 0) or row (1) that a unit crossing it can enter: passable, with a passable
    neighbour before or after it across the line (a dead-end pocket beside a corridor is no lane)."""
    beside = np.zeros_like(passable)
    if axis == 0:  # columns: neighbours left and right
        beside[:, 1:] |= passable[:, :-1]
        beside[:, :-1] |= passable[:, 1:]
    else:
        beside[1:, :] |= passable[:-1, :]
        beside[:-1, :] |= passable[1:, :]
    return (passable & beside).sum(axis=axis)


def _counted(number: int, thing: str) -> str:
    return f"{number} {thing}{'' if number == 1 else 's'}"
