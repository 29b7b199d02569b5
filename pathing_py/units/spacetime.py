"""Search in space and time around the predicted moves of other units (SPEC D4).

Quick start: a unit crossing a corridor that another unit is walking
through waits one step instead of walking into it::

    >>> from pathing_py import Grid
    >>> from pathing_py.units.spacetime import Reservations, arrival_times, find_path_in_time, occupancy
    >>> grid = Grid.from_ascii('''
    ... ##.##
    ... .....
    ... ##.##
    ... ''')
    >>> walker = [(2, 0), (2, 1), (2, 2)]
    >>> reservations = Reservations()
    >>> reservations.reserve("walker", occupancy(walker, arrival_times(grid, walker), until=3.0))
    >>> result = find_path_in_time(grid, (0, 1), (4, 1), reservations=reservations)
    >>> result.cells
    [(0, 1), (1, 1), (1, 1), (2, 1), (3, 1), (4, 1)]
    >>> result.times, result.cost
    ([0.0, 1.0, 2.0, 3.0, 4.0, 5.0], 5.0)

Occupancy rule, for reservations and for the search alike: a unit holds a
cell from the moment it starts moving into it until it has completely left
it. Walking cells ``c[0..n]`` with arrival times ``t[0..n]``, it holds
``c[i]`` during ``[t[i-1], t[i+1]]`` (:func:`occupancy` writes these
intervals). Two intervals that only touch do not clash. A move therefore
needs its target cell free for the move's whole duration (so two units
moving head-on through each other always clash), a diagonal move also needs
both corner cells free (as the corner rule for walls, :func:`pathing_py.grid.corner_offsets`: two units of radius
0.5 there would touch), and :meth:`Reservations.swap_conflict` also catches
head-on moves written with a looser rule by the caller.

The search is Safe Interval Path Planning (Phillips and Likhachev, 2011):
A* over (cell, free interval of that cell), arriving as early as possible in
each interval and waiting in place as long as needed before a move. A cell
nobody reserves has one free interval, so without reservations the search
is the plain A* of :func:`pathing_py.find_path`, with times in seconds (and,
on a 4-connected grid, its straight steps only).
Seed 004's own variant, which cannot wait, is ``wait=False``.
"""

import math
from heapq import heappop, heappush
from typing import Dict, Hashable, Iterable, List, Optional, Sequence, Tuple

from ..grid import Cell, Grid, is_move
from ..jump_tables import DIRECTIONS, pad
from ..line import prefix_costs
from ..search import SQRT2, PathResult, PathStatus, answer_without_search, as_cell, grid_distance

__all__ = ["Reservations", "TimedPathResult", "find_path_in_time", "occupancy", "arrival_times"]

#: Seconds within which two instants count as the same: floating-point sums of step times differ by less.
EPS = 1e-9

Span = Tuple[float, float]
Held = Tuple[Cell, float, float]


def _overlap(a0: float, a1: float, b0: float, b1: float) -> bool:
    """Whether [a0, a1] and [b0, b1] share more than an end point."""
    return a0 < b1 - EPS and b0 < a1 - EPS


def occupancy(cells: Sequence[Cell], times: Sequence[float], until: float = math.inf) -> List[Held]:
    """The (cell, t_enter, t_leave) a unit walking ``cells``, at ``cells[i]`` at ``times[i]``, holds.

    A repeated cell is a wait: the run is one interval. The first cell is
    held from ``times[0]``, the last until ``until`` (seconds; ``inf``: it
    stays there).
    """
    if len(cells) != len(times):
        raise ValueError(f"{len(cells)} cells but {len(times)} times")
    held = []
    first = 0
    for last in range(len(cells)):
        if last + 1 < len(cells) and cells[last + 1] == cells[first]:
            continue
        enter = times[first - 1] if first else times[0]
        leave = times[last + 1] if last + 1 < len(cells) else until
        x, y = cells[first]
        held.append(((x, y), float(enter), float(leave)))
        first = last + 1
    return held


def arrival_times(grid: Grid, cells: Sequence[Cell], *, start_time: float = 0.0, speed: float = 1.0) -> List[float]:
    """When a unit walking ``cells`` from ``start_time`` at ``speed`` (cells per second) reaches each cell."""
    _check_speed(speed)
    if not cells:
        return []
    return [start_time + length / speed for length in prefix_costs(cells, grid.cost)]


class Reservations:
    """The cells other units will hold, and when; what :func:`find_path_in_time` avoids.

    Intervals are kept in lists per cell and per move: simple, and fast
    while few units overlap in space.
    """

    def __init__(self):
        self._held: Dict[Cell, List[Tuple[float, float, Hashable]]] = {}
        self._moves: Dict[Tuple[Cell, Cell], List[Tuple[float, float, Hashable]]] = {}
        self._by_unit: Dict[Hashable, List[Held]] = {}

    def reserve(self, unit: Hashable, cells_with_times: Iterable[Held]) -> None:
        """Hold cells for ``unit``, replacing what it held: (cell, t_enter, t_leave) in the order walked.

        Consecutive entries on different cells are a move of the unit, which
        :meth:`swap_conflict` reports.
        """
        held = []
        for cell, enter, leave in cells_with_times:
            if not enter <= leave:
                raise ValueError(f"unit {unit!r} leaves {cell} at {leave!r}, before it enters at {enter!r}")
            held.append((as_cell(cell, "cell"), float(enter), float(leave)))
        self.release(unit)
        if not held:
            return
        self._by_unit[unit] = held
        for cell, enter, leave in held:
            self._held.setdefault(cell, []).append((enter, leave, unit))
        for move, (start, end) in _moves_of(held):
            self._moves.setdefault(move, []).append((start, end, unit))

    def release(self, unit: Hashable) -> None:
        """Forget what ``unit`` held (nothing happens for an unknown unit)."""
        held = self._by_unit.pop(unit, [])
        _discard(self._held, {cell for cell, _, _ in held}, unit)
        _discard(self._moves, {move for move, _ in _moves_of(held)}, unit)

    def held(self, cell: Cell, ignoring: Hashable = None) -> List[Span]:
        """The (t_enter, t_leave) intervals during which units other than ``ignoring`` hold ``cell``."""
        return [(enter, leave) for enter, leave, unit in self._held.get(cell, ()) if unit != ignoring]

    def crossings(self, a: Cell, b: Cell, ignoring: Hashable = None) -> List[Span]:
        """The time spans during which units other than ``ignoring`` move from ``a`` to ``b``."""
        return [(start, end) for start, end, unit in self._moves.get((a, b), ()) if unit != ignoring]

    def is_free(self, cell: Cell, t0: float, t1: float, ignoring: Hashable = None) -> bool:
        """Whether no other unit holds ``cell`` during [t0, t1]."""
        return not any(_overlap(t0, t1, enter, leave) for enter, leave in self.held(cell, ignoring))

    def swap_conflict(self, a: Cell, b: Cell, t0: float, t1: float, ignoring: Hashable = None) -> bool:
        """Whether a move from ``a`` to ``b`` during [t0, t1] meets another unit moving from ``b`` to ``a``."""
        return any(_overlap(t0, t1, start, end) for start, end in self.crossings(b, a, ignoring))

    def __contains__(self, unit: Hashable) -> bool:
        return unit in self._by_unit


def _discard(table: dict, keys: Iterable, unit: Hashable) -> None:
    """Remove ``unit``'s entries under ``keys`` of a table of (start, end, unit) lists, and keys left empty."""
    for key in keys:
        kept = [entry for entry in table[key] if entry[2] != unit]
        if kept:
            table[key] = kept
        else:
            del table[key]


def _moves_of(held: List[Held]):
    """((from, to), span) for each move between consecutive intervals: from entering ``to`` to leaving ``from``.

    The span is written either way round, so a caller who records arrival
    and departure instants instead of whole holds gets the same move.
    """
    for (a, _, a_leave), (b, b_enter, _) in zip(held, held[1:]):
        if a != b:
            yield (a, b), (min(b_enter, a_leave), max(b_enter, a_leave))


class TimedPathResult(PathResult):
    """A :class:`~pathing_py.PathResult` with ``times``: when the unit is at each cell (seconds).

    A wait repeats the cell, at the time the wait ends. ``cost`` is the
    arrival time at the goal minus the start time.
    """

    __slots__ = ("times",)

    def __init__(
        self,
        status: PathStatus,
        cells: Sequence[Cell] = (),
        times: Sequence[float] = (),
        cost: float = math.inf,
        expanded: int = 0,
    ):
        super().__init__(status, cells, cost, expanded)
        self.times: List[float] = list(times)

    def intervals(self, until: float = math.inf) -> List[Held]:
        """What the unit holds walking this path, for :meth:`Reservations.reserve`; the goal until ``until``."""
        return occupancy(self.cells, self.times, until)


def find_path_in_time(
    grid: Grid,
    start: Cell,
    goal: Cell,
    *,
    reservations: Reservations,
    unit: Hashable = None,
    start_time: float = 0.0,
    speed: float = 1.0,
    max_time: Optional[float] = None,
    max_nodes: Optional[int] = None,
    wait: bool = True,
    hold: Optional[float] = None,
) -> TimedPathResult:
    """The earliest arrival at ``goal`` that keeps clear of the cells other units hold.

    Parameters
    ----------
    grid : Grid
    start, goal : (x, y)
    reservations : Reservations
        The other units' predicted cells (see the module's occupancy rule).
    unit : hashable, optional
        The searching unit: its own reservations are ignored.
    start_time : float
        When the unit stands at ``start`` (seconds).
    speed : float
        Cells per second: a straight step takes ``1 / speed`` seconds, a
        diagonal ``sqrt(2) / speed``, times the terrain cost of the cell entered.
    max_time : float, optional
        Give up with ``LIMIT_REACHED`` rather than arrive more than this
        many seconds after ``start_time``.
    max_nodes : int, optional
        Give up with ``LIMIT_REACHED`` after expanding this many nodes.
    wait : bool
        Allow waiting in place (beyond the seed). Without it, each cell's
        free interval keeps only its earliest arrival, as in the seed: a
        path that needs a later arrival may be missed.
    hold : float, optional
        How long the goal must stay free after arrival (seconds), so that a
        unit does not stop where another is about to pass; default one step,
        ``1 / speed``; ``inf`` to park for good.

    Returns
    -------
    TimedPathResult
        ``START_BLOCKED`` also when another unit holds the start at
        ``start_time``; ``UNREACHABLE`` also when the reservations leave no
        way, e.g. another unit parks on the goal for good, or enters the
        start before this unit can step out of it.
    """
    start = as_cell(start, "start")
    goal = as_cell(goal, "goal")
    _check_speed(speed)
    hold = 1.0 / speed if hold is None else hold
    if not hold >= 0.0:
        raise ValueError(f"hold must be >= 0 seconds, got {hold!r}")
    if max_time is not None and not max_time > 0.0:
        raise ValueError(f"max_time must be > 0 seconds, got {max_time!r}")
    if max_nodes is not None and (not isinstance(max_nodes, int) or max_nodes < 1):
        raise ValueError(f"max_nodes must be a positive int, got {max_nodes!r}")
    early = answer_without_search(grid, start, goal)
    if early is not None and early.status is not PathStatus.FOUND:  # start == goal still needs its hold
        return TimedPathResult(early.status)
    search = _SafeIntervalSearch(grid, reservations, unit, start_time, speed, wait)
    deadline = math.inf if max_time is None else start_time + max_time
    return search.run(start, goal, hold, deadline, max_nodes)


def _check_speed(speed: float) -> None:
    if not 0.0 < speed < math.inf:
        raise ValueError(f"speed must be a positive number of cells per second, got {speed!r}")


State = Tuple[Cell, int]  # a cell and the index of one of its free intervals


class _SafeIntervalSearch:
    """One query of :func:`find_path_in_time`: A* over (cell, free interval)."""

    def __init__(
        self, grid: Grid, reservations: Reservations, unit: Hashable, start_time: float, speed: float, wait: bool
    ):
        self.cost = grid.cost
        self.connectivity = grid.connectivity
        self.moves = [(dx, dy) for dx, dy in DIRECTIONS if is_move(dx, dy, grid.connectivity)]
        self.passable = pad(grid.passable).tobytes()  # flat, with a blocked border: no bounds checks
        self.stride = grid.width + 2
        self.reservations = reservations
        self.unit = unit
        self.start_time = start_time
        self.speed = speed
        self.wait = wait
        self._free: Dict[Cell, List[Span]] = {}

    def free(self, cell: Cell) -> List[Span]:
        """The intervals, from the start time on, during which no other unit holds ``cell``."""
        intervals = self._free.get(cell)
        if intervals is None:
            intervals = []
            begin = self.start_time
            for enter, leave in sorted(self.reservations.held(cell, self.unit)):
                if leave <= begin + EPS:
                    continue
                if enter > begin + EPS:
                    intervals.append((begin, enter))
                begin = max(begin, leave)
            if begin < math.inf:
                intervals.append((begin, math.inf))
            self._free[cell] = intervals
        return intervals

    def run(self, start: Cell, goal: Cell, hold: float, deadline: float, max_nodes: Optional[int]) -> TimedPathResult:
        first = self.free(start)
        if not first or first[0][0] > self.start_time + EPS:
            return TimedPathResult(PathStatus.START_BLOCKED)
        source = (start, 0)
        arrival: Dict[State, float] = {source: self.start_time}
        came_from: Dict[State, Tuple[Optional[State], float]] = {source: (None, self.start_time)}
        closed = set()
        heap = [(self.start_time + grid_distance(start, goal, self.connectivity) / self.speed, 0, source)]
        pushes = 1  # heap entries carry a counter so that states are never compared
        expanded = 0
        cut_by_deadline = False
        while heap:
            _, _, state = heappop(heap)
            if state in closed:
                continue
            closed.add(state)
            cell, interval = state
            time = arrival[state]
            if cell == goal and self.free(cell)[interval][1] - time >= hold - EPS:
                return self._result(state, arrival, came_from, expanded)
            if expanded == max_nodes:
                return TimedPathResult(PathStatus.LIMIT_REACHED, expanded=expanded)
            expanded += 1
            for successor, departure, reached in self._successors(cell, interval, time):
                if successor in closed or reached >= arrival.get(successor, math.inf):
                    continue
                estimate = reached + grid_distance(successor[0], goal, self.connectivity) / self.speed
                if estimate > deadline + EPS:
                    cut_by_deadline = True
                    continue
                arrival[successor] = reached
                came_from[successor] = (state, departure)
                heappush(heap, (estimate, pushes, successor))
                pushes += 1
        status = PathStatus.LIMIT_REACHED if cut_by_deadline else PathStatus.UNREACHABLE
        return TimedPathResult(status, expanded=expanded)

    def _successors(self, cell: Cell, interval: int, time: float):
        """(state, departure, arrival) for each free interval of each neighbour reachable from ``cell`` at ``time``."""
        x, y = cell
        leave_by = self.free(cell)[interval][1]  # the unit must be out of ``cell`` by then
        passable, stride = self.passable, self.stride
        here = (y + 1) * stride + x + 1
        for dx, dy in self.moves:
            if not passable[here + dx + dy * stride]:
                continue
            diagonal = dx != 0 and dy != 0
            # the corner rule (grid.corner_offsets), inlined in this hot loop
            if diagonal and not (passable[here + dx] and passable[here + dy * stride]):
                continue
            target = (x + dx, y + dy)
            duration = (SQRT2 if diagonal else 1.0) * (1.0 if self.cost is None else float(self.cost[y + dy, x + dx]))
            duration /= self.speed
            clashes = self._clashes(cell, target, diagonal)
            for index, (free_from, free_until) in enumerate(self.free(target)):
                if free_from > leave_by - duration + EPS:
                    break  # later intervals open too late: the unit would have to leave ``cell`` first
                end_by = min(free_until, leave_by)
                departure = self._earliest_departure(max(time, free_from), time, duration, end_by, clashes)
                if departure is not None:
                    yield (target, index), departure, departure + duration

    def _clashes(self, cell: Cell, target: Cell, diagonal: bool) -> List[Span]:
        """Besides the target cell's holds, what a move must not overlap: units coming the other way
        and, for a diagonal, holds on the two corner cells."""
        clashes = self.reservations.crossings(target, cell, self.unit)
        if diagonal:
            clashes += self.reservations.held((target[0], cell[1]), self.unit)
            clashes += self.reservations.held((cell[0], target[1]), self.unit)
        return clashes

    def _earliest_departure(
        self, earliest: float, arrived: float, duration: float, end_by: float, clashes: List[Span]
    ) -> Optional[float]:
        """The first departure from ``earliest`` on whose move ends by ``end_by`` and meets no clash; or None.

        Each clash met pushes the departure past its end, so this stops after at most one try per clash.
        """
        departure = earliest
        while departure + duration <= end_by + EPS and (self.wait or departure <= arrived + EPS):
            ends = [end for begin, end in clashes if _overlap(departure, departure + duration, begin, end)]
            if not ends:
                return departure
            departure = max(ends)
        return None

    def _result(self, state: State, arrival: Dict[State, float], came_from, expanded: int) -> TimedPathResult:
        """Walk the parents back from the goal, writing a wait as the cell repeated when the wait ends."""
        cells, times = [], []
        while state is not None:
            cells.append(state[0])
            times.append(arrival[state])
            parent, departure = came_from[state]
            if parent is not None and departure > arrival[parent] + EPS:
                cells.append(parent[0])
                times.append(departure)
            state = parent
        cells.reverse()
        times.reverse()
        return TimedPathResult(PathStatus.FOUND, cells, times, times[-1] - self.start_time, expanded)
