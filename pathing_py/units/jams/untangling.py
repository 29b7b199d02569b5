"""Moves that untangle a jam of units, planned for all of them at once (SPEC U7, U8, U9).

Rules for pairs of units (wait, step aside, push) cannot settle every jam:
two files meeting head-on in a one-cell corridor with one side pocket must
shuffle through the pocket one unit at a time, and two blocks crossing in a
corridor two cells wide must weave past each other. :func:`untangle` plans
such moves for every unit of a small window together: a search over joint
positions (LaCAM, Okumura 2023) whose successors come from priority
inheritance (PIBT, Okumura et al. 2022), which finds a way whenever there is
one, given enough nodes. A second search lets units that meet head-on in a
corridor back off to the nearest fork together (the swap of LaCAM2): it finds
ways where the first gives up, and some plans walked sooner. Units going one
at a time, pushing and swapping (:mod:`pathing_py.units.jams.push_and_swap`), make a
third plan: it gets files of five through a one-cell pocket, where both
searches give up. Of the plans found, the one walked sooner (by turns, not
steps) is taken. Plans are greedy and wander: round trips a unit could have
waited out are cut from them. :class:`Untangling` runs the searches a slice
of work at a time, and with several seeds: their plans differ widely.

The moves suit units that hold cells: in each step every unit stays or moves
to a side neighbour (never diagonally, so no corner is cut), no two units are
in one cell, no two swap cells, and no ring of units moves round at once; a
unit may follow another into the cell it leaves. So each unit can walk its
own steps at its own speed: it enters a cell once the units planned there
before it have left (:func:`cell_turns`).

Quick start::

    >>> import numpy as np
    >>> corridor = np.array([[False, False, True, False],
    ...                      [True, True, True, True]])
    >>> paths = untangle(corridor, [(0, 1), (3, 1)], [(3, 1), (0, 1)])
    >>> [path[-1] for path in paths]
    [(3, 1), (0, 1)]
"""

import bisect
import math
import random
from collections import deque
from typing import (
    Callable,
    Deque,
    Dict,
    Generator,
    Iterable,
    Iterator,
    List,
    NamedTuple,
    Optional,
    Sequence,
    Tuple,
    TypeVar,
    Union,
)

import numpy as np

from ...grid import Cell
from .push_and_swap import push_and_swap

__all__ = ["Untangling", "cell_entries", "cell_turns", "untangle"]

#: Joint positions the search may make before it gives up on a jam.
MAX_CONFIGURATIONS = 1000
#: Successors the search may try per joint position allowed (most lead to positions seen before).
TRIES_PER_CONFIGURATION = 10

#: Moves of one unit at a time a plan of :func:`~pathing_py.units.jams.push_and_swap.push_and_swap` may make.
MAX_SEQUENTIAL_MOVES = 2000

#: Work (see :meth:`Untangling.advance`; about a microsecond each here) of placing a unit in a joint
#: position, of walking a cell along a corridor to see whether two units must pass each other there, of
#: reading a step of a plan to cut its detours, of moving a unit a tick to time a plan, and of a move of
#: pushing and swapping.
PLACE_WORK, ALONG_WORK, CUT_WORK, TICK_WORK, MOVE_WORK = 8, 2, 1, 8, 5

Configuration = Tuple[int, ...]  #: a cell index per unit
Place = TypeVar("Place", Cell, int)  #: a cell, as (x, y) or as an index
T = TypeVar("T")
UNREACHABLE = 1 << 30


def untangle(
    passable: np.ndarray,
    starts: Sequence[Cell],
    goals: Sequence[Cell],
    *,
    max_configurations: int = MAX_CONFIGURATIONS,
    seed: int = 0,
    swaps: bool = True,
) -> Optional[List[List[Cell]]]:
    """Moves taking every unit from its start to its goal (cells (x, y) of the window ``passable``).

    Returns
    -------
    list of lists of cells, or None
        One list per unit of its cell at each step (all of one length, first the start, last
        the goal; none for no units); None if the searches made ``max_configurations`` joint positions
        without finding a way and pushing and swapping found none in MAX_SEQUENTIAL_MOVES moves (with
        ``swaps`` only), or if some goal cannot be reached at all.

    Raises
    ------
    ValueError
        If starts or goals are not distinct passable cells, one of each per unit.
    """
    untangling = Untangling(passable, starts, goals, max_configurations=max_configurations, seeds=(seed,), swaps=swaps)
    untangling.advance(math.inf)
    return untangling.paths


class Untangling:
    """The searches of :func:`untangle`, run a slice of work at a time, with each seed of ``seeds``, the plan
    walked soonest taken. Plans from different seeds differ widely: 20 against 20 in a corridor two cells
    wide, from 95 to 260 walk ticks over eight seeds, and the one walked sooner frees the jam sooner.

    Parameters are those of :func:`untangle`, and: ``both``, whether the search with swaps runs even where
    the one without found a plan (with ``swaps``: more plans to choose from); ``sequential``, whether
    pushing and swapping makes a plan too (with ``swaps``). The searches stop early once a plan is walked
    in as few ticks as its farthest unit has steps to go (:attr:`fewest`)."""

    def __init__(
        self,
        passable: np.ndarray,
        starts: Sequence[Cell],
        goals: Sequence[Cell],
        *,
        max_configurations: int = MAX_CONFIGURATIONS,
        seeds: Iterable[int] = (0,),
        swaps: bool = True,
        both: bool = False,
        sequential: bool = True,
    ):
        passable = np.asarray(passable, dtype=bool)
        height, width = passable.shape
        if len(starts) != len(goals):
            raise ValueError(f"{len(starts)} starts but {len(goals)} goals")
        for name, cells in (("starts", starts), ("goals", goals)):
            if len(set(cells)) != len(cells):
                raise ValueError(f"{name} must be distinct cells")
            for x, y in cells:
                if not (0 <= x < width and 0 <= y < height and passable[y, x]):
                    raise ValueError(f"{name}: cell {(x, y)} is blocked or outside the {width}x{height} window")
        neighbours = _side_neighbours(passable)
        start = tuple(y * width + x for x, y in starts)
        goal = tuple(y * width + x for x, y in goals)
        distances = [_distances_to(cell, neighbours) for cell in goal]
        reachable = all(distance[cell] < UNREACHABLE for distance, cell in zip(distances, start))
        #: Whether the searches are over.
        self.done = not (start and reachable)
        #: The plan walked soonest found so far (see :func:`untangle`; none for no units, None if none was
        #: found) and its walk ticks.
        self.paths: Optional[List[List[Cell]]] = [] if not start else None
        self.ticks = (
            0 if not start else UNREACHABLE + 1
        )  # (a plan whose turns wait for one another, not expected, is one)
        #: The fewest walk ticks any plan can take: the steps of the unit farthest from its goal.
        self.fewest = max((distance[cell] for distance, cell in zip(distances, start)), default=0)
        #: Joint searches so far that found no plan (each ran its whole budget).
        self.misses = 0
        #: Work done so far (see :meth:`advance`).
        self.work = 0
        self._width = width
        variants = (False, True) if swaps else (False,)
        self._plans = _plans(
            neighbours, distances, start, goal, max_configurations, list(seeds), variants, both, sequential and swaps
        )

    def advance(self, work: float) -> bool:
        """Search on for about ``work`` units of work (PLACE_WORK and the like: about a microsecond each
        here, counted rather than timed so that plans are the same on every machine); whether the
        searches are over."""
        started = self.work
        while not self.done and self.work - started < work:
            found = next(self._plans, None)
            if found is None:
                self.done = True
            elif isinstance(found, int):
                self.work += found
            elif found.paths is None:
                self.misses += 1
            elif found.ticks < self.ticks:
                self.ticks = found.ticks
                self.paths = [[(cell % self._width, cell // self._width) for cell in path] for path in found.paths]
                self.done = self.ticks <= self.fewest
        return self.done


def _plans(
    neighbours: List[List[int]],
    distances: List[List[int]],
    start: Configuration,
    goal: Configuration,
    max_configurations: int,
    seeds: List[int],
    variants: Tuple[bool, ...],
    both: bool,
    sequential: bool,
) -> Iterator[Union[int, "_Found"]]:
    """The searches of :class:`Untangling`, yielding the work done as they go (an int) and what each found."""
    for seed in seeds:
        for swapping in variants:  # swaps find ways through corridors, but make plans wander
            found = yield from _Search(neighbours, distances, goal, random.Random(seed), swapping).search(
                start, max_configurations
            )
            if found is None:
                yield _Found(None, 0)
                continue
            yield (yield from _timed_without_detours(found))
            if not both:
                break
    if sequential:  # one unit at a time: found where the joint search runs out of nodes, and sometimes walked sooner
        moves = push_and_swap(neighbours, distances, start, goal, max_moves=MAX_SEQUENTIAL_MOVES)
        if moves is not None:
            yield MOVE_WORK * len(moves)
            yield (yield from _timed_without_detours(moves))


class _Found(NamedTuple):
    """What one search found: a plan (a path of cell indices per unit) and its walk ticks, or None."""

    paths: Optional[List[List[int]]]
    ticks: int


def _timed_without_detours(configurations: List[Configuration]) -> Generator[int, None, _Found]:
    """The paths of a plan's ``configurations`` with their detours cut, and their walk ticks, yielding the work done."""
    paths = yield from _cutting_detours([list(path) for path in zip(*configurations)])
    ticks = yield from _timing_walk(paths)
    return _Found(paths, ticks)


def _finished(work: Generator[int, None, T]) -> T:
    """What the generator ``work`` returns, run to its end at once."""
    while True:
        try:
            next(work)
        except StopIteration as end:
            return end.value


def cell_turns(paths: Sequence[Sequence[Place]]) -> Dict[Place, List[Tuple[int, int]]]:
    """For each cell, who is in it in turn: (unit, index of the cell in the unit's own walk) in the
    order the plan has them there. A unit's walk is its path without the steps it stays in
    place; it enters its ``k``-th cell once every earlier turn there has ended (the unit has
    arrived at its next cell), which keeps the plan's order however fast each unit walks."""
    return _turns([cell_entries(path) for path in paths])


def _turns(entries: Sequence[Sequence[Tuple[int, Place]]]) -> Dict[Place, List[Tuple[int, int]]]:
    """:func:`cell_turns` from each unit's :func:`cell_entries`."""
    visits: Dict[Place, List[Tuple[int, int, int]]] = {}
    for unit, unit_entries in enumerate(entries):
        for walk_index, (step, cell) in enumerate(unit_entries):
            visits.setdefault(cell, []).append((step, unit, walk_index))
    return {cell: [(unit, index) for _, unit, index in sorted(in_cell)] for cell, in_cell in visits.items()}


def cell_entries(path: Sequence[Place]) -> List[Tuple[int, Place]]:
    """(step, cell) for each step of ``path`` that enters a cell, the first included: the unit's walk, and when."""
    return [(step, cell) for step, cell in enumerate(path) if step == 0 or cell != path[step - 1]]


def _walk_ticks(paths: List[List[int]]) -> int:
    """Ticks the units take to walk ``paths``, each moving one cell a tick, entering a cell in its turn
    (:func:`cell_turns`) once the unit before it there left on an earlier tick: how long a plan holds
    its units up, whatever its number of steps (a plan of one move per step is walked mostly at once)."""
    return _finished(_timing_walk(paths))


def _timing_walk(paths: List[List[int]]) -> Generator[int, None, int]:
    """:func:`_walk_ticks`, yielding the units moved each tick."""
    entries = [cell_entries(path) for path in paths]  # (read once: a long plan's paths are 2,000 steps a unit)
    walks = [[cell for _, cell in unit_entries] for unit_entries in entries]
    turns = _turns(entries)
    next_turn = {cell: 0 for cell in turns}
    holder: Dict[int, int] = {}
    for unit, walk in enumerate(walks):
        holder[walk[0]] = unit
        next_turn[walk[0]] = 1
    reached = [0] * len(walks)
    moving = [unit for unit, walk in enumerate(walks) if len(walk) > 1]
    ticks = 0
    while moving:
        ticks += 1
        entering: List[int] = []
        waiting = moving
        while waiting:  # a unit may follow one that leaves its next cell this tick
            leaving = set(entering)
            ready = [
                unit for unit in waiting
                if turns[walks[unit][reached[unit] + 1]][next_turn[walks[unit][reached[unit] + 1]]]
                == (unit, reached[unit] + 1)
                and holder.get(walks[unit][reached[unit] + 1], -1) in leaving | {-1}
            ]  # fmt: skip
            if not ready:
                break
            entering += ready
            waiting = [unit for unit in waiting if unit not in ready]
        if not entering:
            return UNREACHABLE  # the turns wait for one another (not expected of a plan)
        for unit in entering:
            if holder.get(walks[unit][reached[unit]]) == unit:
                del holder[walks[unit][reached[unit]]]
            reached[unit] += 1
        for unit in entering:
            cell = walks[unit][reached[unit]]
            holder[cell] = unit
            next_turn[cell] += 1
        yield TICK_WORK * len(moving)
        moving = [unit for unit in moving if reached[unit] < len(walks[unit]) - 1]
    return ticks


def _side_neighbours(passable: np.ndarray) -> List[List[int]]:
    """The passable side neighbours of every cell index (empty for blocked cells)."""
    height, width = passable.shape
    neighbours: List[List[int]] = [[] for _ in range(width * height)]
    for y, x in zip(*np.nonzero(passable)):
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= nx < width and 0 <= ny < height and passable[ny, nx]:
                neighbours[y * width + x].append(int(ny * width + nx))
    return neighbours


def _distances_to(goal: int, neighbours: List[List[int]]) -> List[int]:
    """Steps from every cell to ``goal`` (UNREACHABLE where there is no way)."""
    distance = [UNREACHABLE] * len(neighbours)
    distance[goal] = 0
    queue = deque([goal])
    while queue:
        cell = queue.popleft()
        for other in neighbours[cell]:
            if distance[other] == UNREACHABLE:
                distance[other] = distance[cell] + 1
                queue.append(other)
    return distance


class _Constraint:
    """Where the first ``depth`` units of a node's order must go next (LaCAM's low-level node)."""

    __slots__ = ("parent", "unit", "cell", "depth")

    def __init__(self, parent: Optional["_Constraint"], unit: int, cell: int):
        self.parent, self.unit, self.cell = parent, unit, cell
        self.depth: int = 0 if parent is None else parent.depth + 1

    def moves(self) -> Dict[int, int]:
        fixed: Dict[int, int] = {}
        constraint: Optional[_Constraint] = self
        while constraint is not None and constraint.parent is not None:
            fixed[constraint.unit] = constraint.cell
            constraint = constraint.parent
        return fixed


class _Node:
    """A joint position reached, how, and the constraints still to try from it (LaCAM's high-level node)."""

    __slots__ = ("configuration", "parent", "order", "priorities", "constraints")

    def __init__(self, configuration: Configuration, parent: Optional["_Node"], priorities: List[float]):
        self.configuration, self.parent, self.priorities = configuration, parent, priorities
        self.order = sorted(range(len(configuration)), key=lambda unit: -priorities[unit])
        self.constraints: Deque[_Constraint] = deque([_Constraint(None, -1, -1)])


class _Search:
    def __init__(
        self,
        neighbours: List[List[int]],
        distances: List[List[int]],
        goal: Configuration,
        rng: random.Random,
        swaps: bool,
    ):
        self.neighbours, self.distances, self.goal, self.rng, self.swaps = neighbours, distances, goal, rng, swaps

    def run(self, start: Configuration, max_configurations: int) -> Optional[List[Configuration]]:
        """LaCAM: depth first over joint positions, each made by PIBT under the constraints of a
        low-level node; a position seen before is searched again from its node (for completeness)."""
        return _finished(self.search(start, max_configurations))

    def search(
        self, start: Configuration, max_configurations: int
    ) -> Generator[int, None, Optional[List[Configuration]]]:
        """:meth:`run`, yielding the units placed in each joint position tried."""
        reach = max(max(d for d in distance if d < UNREACHABLE) for distance in self.distances) + 1
        first = [self.distances[unit][cell] / reach for unit, cell in enumerate(start)]
        root = _Node(start, None, first)
        open_nodes: List[_Node] = [root]
        explored: Dict[Configuration, _Node] = {start: root}
        for _ in range(TRIES_PER_CONFIGURATION * max_configurations):
            if not open_nodes:
                return None
            node = open_nodes[-1]
            if node.configuration == self.goal:
                return _configurations_to(node)
            if not node.constraints:
                open_nodes.pop()
                continue
            constraint = node.constraints.popleft()
            if constraint.depth < len(start):
                unit = node.order[constraint.depth]
                here = node.configuration[unit]
                cells = [here, *self.neighbours[here]]
                self.rng.shuffle(cells)
                node.constraints.extend(_Constraint(constraint, unit, cell) for cell in cells)
            step = _Step(node.configuration)
            following = self._step(node, step, constraint.moves())
            yield (
                PLACE_WORK * len(start) + ALONG_WORK * step.walked
            )  # (the walks count too: head-on in a corridor they cost about as much as the placing)
            if following is None:
                continue
            if following in explored:
                open_nodes.append(explored[following])
                continue
            if len(explored) >= max_configurations:
                return None
            priorities = [
                priority + 1 if cell != self.goal[unit] else priority - int(priority)
                for unit, (priority, cell) in enumerate(zip(node.priorities, following))
            ]
            child = _Node(following, node, priorities)
            explored[following] = child
            open_nodes.append(child)
        return None

    def _step(self, node: _Node, step: "_Step", fixed: Dict[int, int]) -> Optional[Configuration]:
        """PIBT: the next joint position from ``node`` (chosen in ``step``) with the ``fixed`` moves, or None if
        they clash."""
        for unit, cell in fixed.items():
            if cell in step.taken:
                return None
            step.assign(unit, cell)
        for unit in node.order:
            if step.next[unit] < 0:
                self._choose(step, unit)
        following = tuple(step.next)
        return following if len(set(following)) == len(following) and not step.has_ring() else None

    def _choose(self, step: "_Step", unit: int) -> bool:
        """Move ``unit`` to its best free neighbour, first asking the unit standing there to move
        (with this unit's priority); stay if none can be had.

        Two units that meet head-on where neither can step aside would push each other back and
        forth for ever. So when the unit ahead must get past this one, and backing off leads to a
        fork, this unit backs off instead, pulling the other after it into the cell it leaves,
        until the fork lets them pass (the swap of LaCAM2, Okumura 2023)."""
        here = step.now[unit]
        distance = self.distances[unit]
        cells = [here, *self.neighbours[here]]
        self.rng.shuffle(cells)  # ties broken at random, then sorted by distance (a stable sort)
        cells.sort(key=distance.__getitem__)
        puller = self._pulled_by(step, unit, cells[0]) if self.swaps else None
        if puller is not None:
            cells.reverse()
        for cell in cells:
            if cell in step.taken or step.closes_ring(unit, cell):
                continue
            step.assign(unit, cell)
            standing = step.holder.get(cell)
            if (
                standing is not None
                and standing != unit
                and step.next[standing] < 0
                and not self._choose(step, standing)
            ):
                continue  # it could not make way: it stays, so this cell is taken now
            if puller is not None and cell == cells[0] and step.next[puller] < 0 and here not in step.taken:
                step.assign(puller, here)
            return True
        step.assign(unit, here)  # even if the unit that asked it to move wanted this cell: it tries another
        return False

    def _pulled_by(self, step: "_Step", unit: int, best: int) -> Optional[int]:
        """The unit that ``unit`` should back off before and pull after it, if any: the one standing in
        its best cell, which needs to get past it, or one beside it that needs to get past it there;
        none unless backing off leads to a fork where two units can pass."""
        here = step.now[unit]
        if best == here:
            return None
        ahead = step.holder.get(best)
        if ahead is not None and step.next[ahead] < 0 and self._must_pass(step, unit, ahead, here, best):
            puller: Optional[int] = ahead
        else:
            beside = (step.holder.get(cell) for cell in self.neighbours[here] if cell != best)
            puller = next(
                (other for other in beside if other is not None and self._must_pass(step, other, unit, here, best)),
                None,
            )
        if puller is None or self._along(step, best, here, lambda back, front: True)[2] < 2:
            return None
        return puller

    def _must_pass(self, step: "_Step", pusher: int, puller: int, pusher_at: int, puller_at: int) -> bool:
        """Whether ``pusher`` (at ``pusher_at``) and ``puller`` (at ``puller_at``) must pass each other:
        pushing the puller along the pusher's way meets no fork before a dead end, and each wants the
        other's side."""
        distance = self.distances[pusher]
        back, front, ways = self._along(
            step, pusher_at, puller_at, lambda back, front: distance[front] < distance[back]
        )
        if ways >= 2:
            return False  # they can pass at that fork
        toward = self.distances[puller]
        return toward[back] < toward[front] and (distance[back] == 0 or distance[front] < distance[back])

    def _along(self, step: "_Step", back: int, front: int, onward: Callable[[int, int], bool]) -> Tuple[int, int, int]:
        """Walk from ``back`` into ``front`` and on along the only way there is while ``onward(back, front)``:
        the last two cells, and how many ways lead on from there (two or more: a fork; none: a dead end,
        or the walk came round to where it started or ran longer than there are cells; one: ``onward``
        stopped it)."""
        start = back
        for _ in range(len(self.neighbours)):
            if not onward(back, front):
                return back, front, 1
            ways = self._ways_on(step, front, back)
            step.walked += 1
            if len(ways) != 1:
                return back, front, len(ways)
            back, front = front, ways[0]
            if front == start:
                break
        return back, front, 0

    def _ways_on(self, step: "_Step", cell: int, came_from: int) -> List[int]:
        """The cells one can go on to from ``cell`` having come from ``came_from``: not back, and not
        into a dead end a unit has reached its goal in."""
        ways = []
        for other in self.neighbours[cell]:
            holder = step.holder.get(other)
            parked = len(self.neighbours[other]) == 1 and holder is not None and self.goal[holder] == other
            if other != came_from and not parked:
                ways.append(other)
        return ways


class _Step:
    """One step being chosen: where each unit is now and where those chosen go next."""

    def __init__(self, now: Configuration):
        self.now = now
        self.holder = {cell: unit for unit, cell in enumerate(now)}
        self.next = [-1] * len(now)
        self.taken: Dict[int, int] = {}  #: cell -> unit going there
        self.walked = 0  #: cells walked along corridors (see _Search._along)

    def assign(self, unit: int, cell: int) -> None:
        previous = self.next[unit]
        if previous >= 0 and self.taken.get(previous) == unit:
            del self.taken[previous]
        self.next[unit] = cell
        self.taken[cell] = unit

    def closes_ring(self, unit: int, cell: int) -> bool:
        """Whether moving ``unit`` into ``cell`` closes a ring of units each entering the cell the
        next one leaves (a swap being the smallest): units that hold cells cannot move round at once."""
        other = self.holder.get(cell)
        for _ in range(len(self.now)):
            if other is None or other == unit and cell != self.now[unit]:
                return other is not None
            if other == unit or self.next[other] < 0 or self.next[other] == self.now[other]:
                return False
            other = self.holder.get(self.next[other])
        return False

    def has_ring(self) -> bool:
        """Whether the chosen step moves a ring of units round (see :meth:`closes_ring`)."""
        return any(cell != self.now[unit] and self.closes_ring(unit, cell) for unit, cell in enumerate(self.next))


def _cutting_detours(paths: List[List[int]]) -> Generator[int, None, List[List[int]]]:
    """``paths`` (a list of cell indices per unit, one per step) with every round trip a unit makes back
    to a cell it left cut out where it can wait there instead: no other unit is in that cell meanwhile.
    The search's plans wander (each step is chosen greedily); cut, they keep their order of turns in
    cells and lose most of their moves. The steps stay (where no unit moves any more): a plan's time
    allowed is reckoned from them (:class:`~pathing_py.units.jams.plans.JamPlans`).

    Each cell's entries (step, unit) are kept in step order, so that a unit leaving a cell finds its
    own returns there, up to the next entry of another unit, without reading the other paths. Only
    entries, not the steps a unit stays: a plan of pushes and swaps moves one unit a step, and its 40
    units' paths of 2,000 steps hold 2,000 entries, not 80,000 visits. Yields the steps read, unit by unit."""
    paths = [list(path) for path in paths]
    entries: Dict[int, List[Tuple[int, int]]] = {}
    for unit, path in enumerate(paths):
        for step, cell in cell_entries(path):
            entries.setdefault(cell, []).append((step, unit))
    for in_cell in entries.values():
        in_cell.sort()
    changed = True
    while changed:
        changed = False
        for unit, path in enumerate(paths):
            before = cell_entries(path)
            for step in range(len(path) - 2):
                cell = path[step]
                if path[step + 1] == cell:
                    continue
                in_cell = entries[cell]
                back = -1
                for when, visitor in in_cell[bisect.bisect_right(in_cell, (step, len(paths))) :]:
                    if visitor != unit:
                        break  # another unit is there from then on
                    back = when
                if back > step + 1:
                    path[step + 1 : back] = [cell] * (back - step - 1)
            yield CUT_WORK * len(path)
            after = cell_entries(path)
            if after != before:  # later steps only read entries after the cut, so the entries are mended here
                changed = True
                for step, cell in set(before) - set(after):
                    in_cell = entries[cell]
                    del in_cell[bisect.bisect_left(in_cell, (step, unit))]
                for step, cell in set(after) - set(before):
                    bisect.insort(entries[cell], (step, unit))
    return paths


def _configurations_to(node: _Node) -> List[Configuration]:
    configurations = []
    walked: Optional[_Node] = node
    while walked is not None:
        configurations.append(walked.configuration)
        walked = walked.parent
    return configurations[::-1]
