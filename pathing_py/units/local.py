"""The straight-line walker: local movement around obstacles, no search (SPEC L1–L4).

Quick start::

    >>> from pathing_py import Grid
    >>> from pathing_py.units.local import Sense, WalkStatus, walk_line
    >>> grid = Grid.from_ascii('''
    ... .......
    ... ...#...
    ... ...#...
    ... ...#...
    ... ...#...
    ... ''')
    >>> result = walk_line(grid, (0, 2), (6, 2))
    >>> result.status is WalkStatus.ARRIVED, result.senses
    (True, [<Sense.CLOCKWISE: 1>])
    >>> result.cells[0], result.cells[-1], round(result.cost, 3)
    ((0, 2), (6, 2), 8.828)

The unit walks the rasterised line to the goal (:func:`pathing_py.line_cells`).
When the next step is blocked it follows the obstacle's contour, the seed's
8-direction rule (directions 0 up-left, 1 left, 2 down-left, 3 down,
4 down-right, 5 right, 6 up-right, 7 up; up is -y), until it stands on the
line again closer to the goal, then walks the line on (a blocked step there
is a new obstacle).

Design choices:

* Bug-2: the walker keeps the original line from start to goal and leaves a
  contour only on a cell of that line farther along than where it hit the
  obstacle (seed 000: "walk around until line A is met"). Each hit is thus
  farther along the line than the one before, so there are fewer contours
  than line cells, and a lap around a contour that never meets the line again
  means the goal lies beyond that obstacle, out of reach. Re-casting a new
  line after each contour has no such progress measure and can cycle.
* Side choice: both senses are simulated in lockstep from the hit and the one
  that meets the line first (CLOCKWISE on a tie) is walked, so simulating the
  other costs no more steps than the walk itself.
* Enclosed or blocked goal: a lap (the contour repeats a state, i.e. position
  and direction of the obstacle) ends the search; the unit stops at the lap
  cell nearest the goal in Euclidean distance (what a player sees), reached
  along the lap in the sense that gets there sooner. The lap is simulated,
  not walked: the unit does not circle the obstacle first.
* Shortcut (L3): the finished walk is passed through :func:`shortcut`, which
  from each cell casts a line toward the goal and cuts across to the farthest
  later cell of the walk it meets with nothing in between.

What it guarantees: the walk is a valid path (king moves onto free cells, no
corner cut; on a 4-connected grid straight moves only, since its line is a
rook line and contours take orthogonal steps) and ends. It has at most ``len(line) - 1`` line steps and fewer
contours than line cells, each shorter than one lap (at most 8 states per free
cell); ``max_steps`` is a hard limit on top (simulating a contour counts its
steps). Under the corner rule (:func:`pathing_py.grid.corner_offsets`) a unit moves as if 4-connected and obstacles
touching at a corner act as one, so a contour is a closed curve the line has
to cross to get past its obstacle: the walker arrives whenever the goal is
reachable. That argument is not proved here; the tests check it against
:func:`pathing_py.find_path` on random grids. The walk is no shortest path
(often 10–50 % longer on the Moving AI maps): use it over short distances.
"""

import enum
import math
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

import numpy as np

from ..grid import Cell, Grid, step_allowed
from ..line import line_cells, path_cost, prefix_costs, ray_cells
from ..search import as_cell
from ..status import Status

__all__ = ["Sense", "WalkResult", "WalkStatus", "shortcut", "walk_line"]

#: The eight directions as (dx, dy), numbered as in seed 000; odd numbers are orthogonal.
DIRECTIONS: Tuple[Cell, ...] = ((-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1))
_NUMBER: Dict[Cell, int] = {d: n for n, d in enumerate(DIRECTIONS)}
_TOLERANCE = 1e-9


class Sense(enum.Enum):
    """How the walker turns around an obstacle; the value is the step in the direction numbers.

    CLOCKWISE tries directions (i + n) mod 8 (the seed's ClockwiseWalkOneStep):
    on screen (y down) the unit circles the obstacle clockwise, keeping it on
    its right hand. COUNTER_CLOCKWISE tries (i - n) mod 8.
    """

    CLOCKWISE = 1
    COUNTER_CLOCKWISE = -1


class WalkStatus(enum.Enum):
    """How a walk ended, in the names of :class:`~pathing_py.status.Status`."""

    ARRIVED = Status.ARRIVED.value
    UNREACHABLE = Status.UNREACHABLE.value
    LIMIT_REACHED = Status.LIMIT_REACHED.value
    OUT_OF_BOUNDS = Status.OUT_OF_BOUNDS.value
    START_BLOCKED = Status.START_BLOCKED.value


class WalkResult:
    """The answer to one walk; truthy only when the goal was reached.

    ``cells`` runs from the start to where the unit stops (the goal, the cell
    nearest an unreachable goal, or where ``max_steps`` ran out; empty for
    OUT_OF_BOUNDS and START_BLOCKED); ``cost`` is its length (terrain costs
    included, as :func:`pathing_py.line.path_cost`); ``senses`` the sense
    walked around each obstacle met, in order.
    """

    __slots__ = ("status", "cells", "cost", "senses")

    def __init__(self, status: WalkStatus, cells: Sequence[Cell] = (), cost: float = 0.0, senses: Sequence[Sense] = ()):
        self.status = status
        self.cells: List[Cell] = list(cells)
        self.cost = cost
        self.senses: List[Sense] = list(senses)

    def __bool__(self) -> bool:
        return self.status is WalkStatus.ARRIVED

    def __repr__(self) -> str:
        cells, senses = len(self.cells), len(self.senses)
        return f"WalkResult({self.status.name}, {cells} cells, cost={self.cost:.3f}, senses={senses})"


def walk_line(
    grid: Grid, start: Cell, goal: Cell, *, sense: Optional[Sense] = None, max_steps: Optional[int] = None
) -> WalkResult:
    """Walk from ``start`` toward ``goal`` along the straight line, around obstacles.

    Parameters
    ----------
    grid : Grid
    start, goal : (x, y)
        Grid cells. A blocked goal is an enclosed one: the walk stops at the
        reachable cell nearest to it (UNREACHABLE).
    sense : Sense, optional
        Walk around every obstacle in this sense instead of choosing the side
        that meets the line again sooner.
    max_steps : int, optional
        Stop with LIMIT_REACHED rather than take (or simulate, per sense) more
        than this many steps.

    Returns
    -------
    WalkResult
        ARRIVED, UNREACHABLE (stopped at the lap cell nearest the goal),
        LIMIT_REACHED, or OUT_OF_BOUNDS / START_BLOCKED with no cells.
    """
    start = as_cell(start, "start")
    goal = as_cell(goal, "goal")
    if sense is not None and not isinstance(sense, Sense):
        raise TypeError(f"sense must be a Sense or None, got {sense!r}")
    if max_steps is not None and (not isinstance(max_steps, int) or isinstance(max_steps, bool) or max_steps < 1):
        raise ValueError(f"max_steps must be a positive int, got {max_steps!r}")
    if not (grid.in_bounds(start) and grid.in_bounds(goal)):
        return WalkResult(WalkStatus.OUT_OF_BOUNDS)
    if not grid.is_passable(start):
        return WalkResult(WalkStatus.START_BLOCKED)
    walker = _Walker(grid.passable, grid.connectivity, start, goal, sense, math.inf if max_steps is None else max_steps)
    status = walker.run()
    cells = shortcut(grid, walker.cells, goal)
    return WalkResult(status, cells, path_cost(grid, cells), walker.senses)


def shortcut(grid: Grid, cells: Sequence[Cell], goal: Optional[Cell] = None) -> List[Cell]:
    """Cut across a route wherever a straight line toward the goal meets it again (L3).

    From each cell of ``cells`` (a valid route) a line is cast toward ``goal``
    (the route's last cell by default) as far as it stays clear under the
    corner rule; if it meets a later part of the route, not merely the next
    cell, and costs no more than the piece it skips, the unit takes the line
    to the farthest such cell. A cell the route comes back to counts as met,
    so loops and dead ends drop out. The result has the same ends, is valid,
    and is never longer (nor has more steps) than ``cells``.
    """
    route = [(int(c[0]), int(c[1])) for c in cells]
    if len(route) < 3:
        return route
    goal = route[-1] if goal is None else as_cell(goal, "goal")
    passable, cost = grid.passable, grid.cost
    last_index = {cell: n for n, cell in enumerate(route)}
    prefix = prefix_costs(route, cost)
    result = [route[0]]
    t = 0
    while t < len(route) - 1:
        u, line = _farthest_meeting(passable, grid.connectivity, route[t], goal, last_index)
        if u > t + 1 and prefix_costs(line, cost)[-1] <= prefix[u] - prefix[t] + _TOLERANCE:
            result.extend(line[1:])
            t = u
        else:
            result.append(route[t + 1])
            t += 1
    return result


class _Walker:
    """One Bug-2 walk: the line, the contours met, the cells walked."""

    def __init__(
        self, passable: np.ndarray, connectivity: int, start: Cell, goal: Cell, sense: Optional[Sense], max_steps: float
    ):
        self.passable = passable
        self.goal = goal
        self.line = line_cells(start, goal, connectivity)  # straight steps only on a 4-connected grid
        self.index = {cell: k for k, cell in enumerate(self.line)}
        self.turns = [sense] if sense is not None else [Sense.CLOCKWISE, Sense.COUNTER_CLOCKWISE]
        self.max_steps = max_steps
        self.cells = [start]
        self.senses: List[Sense] = []

    def run(self) -> WalkStatus:
        k = 0
        last = len(self.line) - 1
        while k < last:
            if len(self.cells) - 1 >= self.max_steps:
                return WalkStatus.LIMIT_REACHED
            if step_allowed(self.passable, self.line[k], self.line[k + 1]):
                k += 1
                self.cells.append(self.line[k])
                continue
            status = self._go_around(k)
            if status is not None:
                return status
            k = self.index[self.cells[-1]]
        return WalkStatus.ARRIVED

    def _go_around(self, k: int) -> Optional[WalkStatus]:
        """Follow the obstacle ahead of line cell ``k`` until it meets the line farther on.

        Returns None after leaving the contour on the line, else the final status.
        """
        hit = self.line[k]
        heading = _NUMBER[(self.line[k + 1][0] - hit[0], self.line[k + 1][1] - hit[1])]
        budget = self.max_steps - (len(self.cells) - 1)
        walks = {s: [hit] for s in self.turns}
        traces = {s: _trace(self.passable, hit, self._obstacle(hit, heading, s), s) for s in self.turns}
        live = list(self.turns)
        steps = 0
        while live:
            if steps >= budget:
                self._take(live[0], walks[live[0]])
                return WalkStatus.LIMIT_REACHED
            steps += 1
            for s in list(live):
                cell = next(traces[s], None)
                if cell is None:
                    live.remove(s)
                    continue
                walks[s].append(cell)
                if self._leaves(cell, k):
                    self._take(s, walks[s])
                    return None
        self._take(*self._nearest_stop(walks))
        return WalkStatus.UNREACHABLE

    def _obstacle(self, cell: Cell, heading: int, sense: Sense) -> int:
        """The direction to point at the obstacle that blocks ``heading``, as the sense turns away from it.

        A blocked straight step means its cell is blocked; a blocked diagonal
        may have a free cell between blocked orthogonal ones: then the blocked
        cell the sense turns away from last is the obstacle.
        """
        turn = sense.value
        candidates = (heading - turn, heading, heading + turn) if heading % 2 == 0 else (heading,)
        return [n % 8 for n in candidates if not _free(self.passable, _add(cell, DIRECTIONS[n % 8]))][-1]

    def _leaves(self, cell: Cell, k: int) -> bool:
        """Bug-2's leave point: on the line, past the hit."""
        return self.index.get(cell, -1) > k

    def _nearest_stop(self, laps: Dict[Sense, List[Cell]]) -> Tuple[Sense, List[Cell]]:
        """After a lap: the sense and the walk to the lap cell nearest the goal (ties: the shorter walk)."""
        stops = []
        for order, (s, lap) in enumerate(laps.items()):
            distances = [(c[0] - self.goal[0]) ** 2 + (c[1] - self.goal[1]) ** 2 for c in lap]
            t = distances.index(min(distances))
            stops.append(((distances[t], prefix_costs(lap[: t + 1], None)[-1], order), s, lap[: t + 1]))
        _, sense, walk = min(stops, key=lambda stop: stop[0])
        return sense, walk

    def _take(self, sense: Sense, walk: List[Cell]) -> None:
        self.senses.append(sense)
        self.cells.extend(walk[1:])


def _trace(passable: np.ndarray, cell: Cell, i: int, sense: Sense) -> Iterator[Cell]:
    """The cells met following the obstacle in direction ``i`` in ``sense``, until the walk repeats (one lap)."""
    seen = {(cell, i)}
    while True:
        step = _contour_step(passable, cell, i, sense.value)
        if step is None or step in seen:
            return
        seen.add(step)
        cell, i = step
        yield cell


def _contour_step(passable: np.ndarray, cell: Cell, i: int, turn: int) -> Optional[Tuple[Cell, int]]:
    """One step of the seed's ClockwiseWalkOneStep (mirrored when ``turn`` is -1) under the corner rule.

    With the obstacle in direction ``i``, try (i + turn * n) mod 8 for
    n = 1..7. A free diagonal is never a legal first step here: the direction
    tried just before it is orthogonal and blocked (or is ``i``), so the
    corner rule forbids it and the walker takes the orthogonal step after it,
    the seed's preference. Returns the new cell and the direction, from it,
    of the last blocked cell tried (the obstacle again), or None when boxed in.
    """
    blocked = i
    for n in range(1, 8):
        j = (i + turn * n) % 8
        target = _add(cell, DIRECTIONS[j])
        if not _free(passable, target):
            blocked = j
        elif j % 2 == 1:
            wall = _add(cell, DIRECTIONS[blocked])
            return target, _NUMBER[(wall[0] - target[0], wall[1] - target[1])]
    return None


def _farthest_meeting(
    passable: np.ndarray, connectivity: int, cell: Cell, goal: Cell, last_index: Dict[Cell, int]
) -> Tuple[int, List[Cell]]:
    """Along the clear part of the line from ``cell`` toward ``goal``: the latest route index met and the line to it."""
    line = [cell]
    best, length = last_index[cell], 1
    for nxt in ray_cells(cell, goal, connectivity):
        if not step_allowed(passable, line[-1], nxt):
            break
        line.append(nxt)
        if last_index.get(nxt, -1) > best:
            best, length = last_index[nxt], len(line)
    return best, line[:length]


def _add(cell: Cell, direction: Cell) -> Cell:
    return cell[0] + direction[0], cell[1] + direction[1]


def _free(passable: np.ndarray, cell: Cell) -> bool:
    """Passable and on the grid: the walker treats the map's edge as an obstacle."""
    x, y = cell
    return 0 <= y < passable.shape[0] and 0 <= x < passable.shape[1] and bool(passable[y, x])
