"""Jams the traffic rules cannot settle, untangled by moves planned for every unit in them (SPEC U8).

A jam is a set of units that have waited for one another for a while, none
of them moving: files head-on in a narrow corridor, blocks crossing in a
passage, a knot at a gate. Waiting longer, detours and pushes do not help
there. :class:`JamPlans` finds such sets, plans joint moves for every unit
in a window around them (:func:`~pathing_py.units.jams.untangling.untangle`: each to the
farthest cell of its route inside the window, standing units back to their
own cells) and hands each unit its part as an avoidance route that enters
each cell in the planned turn. Where all units in the window are one cell
wide, a unit's turn comes as the one before it in that cell starts to step
out, and it follows closely, as files do (waiting for that unit to arrive,
the plans of packed crowds took several times their planned turns: 20
against 20 in a two-cell corridor never got through). A unit that has
walked its part goes on with its own route (waiting there for the rest of
the plan was tried: the crowds of the benchmarks did no better, some worse),
but steps into no cell that a unit of the plan has yet to pass. A plan that
overruns its time is dropped and its units plan again. Plans are searched a
slice of work an update (searched at once, a head-on crowd in a corridor two
cells wide held one update up far too long), while the window's units stand; the
search is dropped if one of them is moved meanwhile. Where the first plan
found would be walked slowly, they stand for up to MAX_SEARCH_UPDATES updates
more while plans with other seeds are searched, and the plan walked soonest is
taken: the crowd in that corridor all arrived much sooner so.
"""

from typing import Dict, Iterable, List, NamedTuple, Optional, Set, Tuple

import numpy as np

from ...grid import Cell
from ..collisions import Resolution
from ..occupancy import step_cells
from ..path_stack import Route, RouteKind
from ..traffic import TrafficHost, waited_for, waiting_aside
from ..unit import STANDING_STATES, Unit, UnitState
from .untangling import Untangling, cell_entries, cell_turns

__all__ = ["JamPlans"]

Window = Tuple[int, int, int, int]  #: left, top, right, bottom (right and bottom past the last cells)

#: Cells around a jam's units that its plan may use.
JAM_MARGIN = 3
#: Units a plan may move at most (its search grows with them).
MAX_JAM_UNITS = 64
#: Updates between two searches for jams.
JAM_INTERVAL = 5
#: Seconds a jam's units wait before it is planned again after a plan was not found.
RETRY_AFTER = 5.0
#: Steps ahead of a waiting unit larger than a cell that a plan clears of the units it moves.
LANE_STEPS = 3
#: Largest margin (cells) a jam's window grows to so that no unit stops short of another's goal on its way, or
#: so that units to take one another's cells find room to pass (see :func:`_in_a_cycle`).
MAX_GOAL_MARGIN = 4 * JAM_MARGIN
#: Times a jam's window doubles its room (free cells per unit) after plans were not found for it.
MAX_WIDENINGS = 2
#: Seeds a jam's plan is searched with (see :class:`~pathing_py.units.jams.untangling.Untangling`) when the first
#: seed's plan is walked in more than SLOW_PLAN_TICKS ticks beyond the fewest a plan can take (at a cell a second, far
#: longer than the search for a better one holds the units up); the plan walked soonest is taken. Not where
#: a joint search of the first seed found no plan: other seeds rarely do there (files head-on through a
#: pocket), and each search that finds none runs its whole budget.
PLAN_SEEDS = 4
SLOW_PLAN_TICKS = 30
#: Work a jam's plans are searched for in one update, all searches together (see
#: :meth:`~pathing_py.units.jams.untangling.Untangling.advance`). (With less, a group pushing through a packed
#: canyon stood for seconds at each search there that found no plan, and the units it pushed aside were long
#: in getting back home.) And for how many updates at most plans with other seeds are (a search that
#: finds no plan runs long): the best found by then is taken. The first seed's search runs to its end (a
#: plan is not known to be had before).
SEARCH_WORK_PER_UPDATE = 30000
MAX_SEARCH_UPDATES = 90


class _Member:
    """A unit in a plan: its walk, its route through it, and the route below to go on with after."""

    def __init__(self, unit: Unit, walk: List[Cell], on_route: bool):
        self.unit, self.walk, self.on_route = unit, walk, on_route
        self.route: Optional[Route] = None

    def done(self) -> bool:
        """Whether the unit has left the plan (walked its part, or was given other orders)."""
        return self.route is None or self.route not in self.unit.stack

    def has_left(self, index: int, stepping_out: bool) -> bool:
        """Whether the unit has left the ``index``-th cell of its walk (or left the plan); ``stepping_out``:
        counting a unit stepping out of it as gone (see :attr:`JamPlan.close`)."""
        route = self.route
        if route is None or route not in self.unit.stack:
            return True
        reached = route.index if self.unit.next_cell is None or stepping_out else route.index - 1  # walk cells
        return reached > index


class JamPlan:
    """Joint moves of a jam's units, walked by each at its own speed in the planned order of cells."""

    def __init__(self, members: List[_Member], paths: List[List[Cell]], deadline: float, close: bool):
        self.members = members
        self.deadline = deadline
        #: Whether its units follow one another closely, as files do: each lets go of its cell as it steps out
        #: of it. Only where every unit in the window is one cell wide: units that plans do not move would
        #: take the cells freed early.
        self.close = close
        self.turns = cell_turns(paths)
        self.next_turn: Dict[Cell, int] = {cell: 0 for cell in self.turns}

    def may_enter(self, member: int, index: int) -> bool:
        """Whether the ``member``-th unit may enter the ``index``-th cell of its walk: its turn there has come."""
        cell = self.members[member].walk[index]
        return self.turns[cell][self._turn_at(cell, (member, index))] == (member, index)

    def still_taken(self, cell: Cell) -> bool:
        """Whether some unit of the plan has yet to leave ``cell`` in its turn there."""
        return cell in self.turns and self._turn_at(cell) < len(self.turns[cell])

    def _turn_at(self, cell: Cell, own: Optional[Tuple[int, int]] = None) -> int:
        """The first turn at ``cell`` whose unit has not left it (``own`` counting as not left)."""
        turns, turn = self.turns[cell], self.next_turn[cell]
        while (
            turn < len(turns)
            and turns[turn] != own
            and self.members[turns[turn][0]].has_left(turns[turn][1], self.close)
        ):
            turn += 1
        self.next_turn[cell] = turn
        return turn

    def under_way(self) -> bool:
        """Whether some unit has yet to reach the end of its walk."""
        return any(member.route is not None and member.route in member.unit.stack
                   and member.route.index < len(member.walk) - 1
                   for member in self.members)  # fmt: skip


class JamPlans:
    """Finds jams among the units of a navigator and walks them out of them.

    Parameters
    ----------
    host : TrafficHost
        The navigator moving the units.
    patience : float
        Seconds every unit of a jam has waited before it is planned.
    """

    def __init__(self, host: TrafficHost, *, patience: float):
        self.host = host
        self.patience = patience
        self.plans: List[JamPlan] = []
        self._planned: Dict[Unit, JamPlan] = {}
        #: The jam whose plan is being searched, a slice an update; its units keep their cells meanwhile.
        self._searching: Optional[_PlanSearch] = None
        #: Work the searches may still do in this update (see SEARCH_WORK_PER_UPDATE).
        self._work_left = 0
        #: Units of jams no plan was found for: when last, and how many times since they last came closer.
        self._failed: Dict[Unit, Tuple[float, int]] = {}

    @property
    def busy(self) -> bool:
        """Whether a plan is walked or searched."""
        return bool(self.plans) or self._searching is not None

    def update(self, units: Iterable[Unit]) -> None:
        """Drop plans that are done or overran; search on for the plan of a jam, or now and then find one to plan."""
        for plan in list(self.plans):
            if not plan.under_way() or self.host.time > plan.deadline:
                self._end(plan)
            else:
                for member in plan.members:
                    member.unit.progress_time = self.host.time  # walking a plan is progress
        self._work_left = SEARCH_WORK_PER_UPDATE
        if self._searching is not None:
            self._search_on(self._searching)
            return
        if self.host.stats.updates % JAM_INTERVAL:
            return
        self._failed = {unit: failed for unit, failed in self._failed.items() if unit.closer_time <= failed[0]}
        waiting = [u for u in units if u.state is UnitState.WAITING and u.waiting_for >= self.patience]
        for unit in sorted(waiting, key=lambda u: (-u.priority, u.id)):
            if unit in self._planned or self.host.time < self._failed.get(unit, (-RETRY_AFTER, 0))[0] + RETRY_AFTER:
                continue
            jam = self._jam_of(unit)
            if jam is not None and self._plan(jam):
                return

    def planned(self, unit: Unit) -> bool:
        """Whether ``unit`` is walking a jam's plan."""
        return unit in self._planned

    @property
    def searching(self) -> bool:
        """Whether a jam's plan is being searched (a slice of work an update)."""
        return self._searching is not None

    @property
    def searching_better(self) -> bool:
        """Whether plans with other seeds are being searched, the first seed's plan being slow to walk."""
        return self._searching is not None and self._searching.first is not None

    def keeps_cell(self, unit: Unit) -> bool:
        """Whether ``unit`` is in the window of the jam whose plan is being searched: it stays where it is,
        as the plan starts from where the window's units are."""
        return self._searching is not None and unit in self._searching.held

    def lets_follow(self, unit: Unit) -> bool:
        """Whether ``unit`` walks a plan whose units follow closely (:attr:`JamPlan.close`)."""
        plan = self._planned.get(unit)
        return plan is not None and plan.close

    def holds_back(self, unit: Unit, cell: Cell) -> bool:
        """Whether ``unit``, past its part of a plan still under way, is to wait before stepping into
        ``cell``: a unit of the plan is still to pass there in its turn (stepping in first, it stood in
        that unit's way, while that unit stood on the cell it wanted next)."""
        plan = self._planned.get(unit)
        return plan is not None and all(m.done() for m in plan.members if m.unit is unit) and plan.still_taken(cell)

    def _jam_of(self, unit: Unit) -> Optional[Set[Unit]]:
        """The units ``unit`` waits for, and those they wait for, and so on, if none of them moves
        and every waiting one has waited ``patience`` seconds; else None (a queue that flows)."""
        jam = waited_for(unit)
        waiting = [u for u in jam or () if u.state is UnitState.WAITING and not waiting_aside(u)]
        if jam is None or any(u in self._planned for u in jam) or any(u.waiting_for < self.patience for u in waiting):
            return None
        return jam

    def _plan(self, jam: Set[Unit]) -> bool:
        """Start searching a plan for the window around ``jam``'s units (see :meth:`_search_in`); False if
        it cannot be planned now, or if every unit of it walked a plan since it last came closer to its
        target (plans do not help these units: a plan again would shuffle them round for ever, each walk
        counting as progress; the stall check ends their orders instead)."""
        if all(
            unit.planned_time >= unit.closer_time for unit in jam if unit.size == 1
        ):  # (larger units are not planned)
            return self._give_up_on(jam)
        widenings = min(max(self._failed.get(unit, (0.0, 0))[1] for unit in jam), MAX_WIDENINGS)
        setting = self._setting(jam, widenings, JAM_MARGIN)
        return setting is not None and self._search_in(jam, widenings, JAM_MARGIN, setting)

    def _search_in(self, jam: Set[Unit], widenings: int, margin: int, setting: "_Setting") -> bool:
        """Start searching the first seed's plan for ``setting``, the window ``margin`` cells round ``jam``,
        or for a wider one where a unit would stop short of another's goal on its way (with room past the
        window's edge, they can sort: see :func:`_stopped_short`), dropped if a unit of the window moves
        meanwhile (see :meth:`_search_on`). False if the jam was given up: no free cell for every unit (the
        window is counted to have them: not expected), or the search, done within this update, found no plan.

        Every search is sliced, even the first seed's in a small window: its work is not known before, as a
        search that finds no plan runs its whole budget (five a side head-on through a pocket, the first
        seed's two joint searches did, far more than one update should take). Most first searches take about
        an update's work or less (at the gate and among mixed radii, nearly all were done within two updates),
        so most plans start as soon as before, or an update later. The window's
        units keep their cells while it searches, as the plan starts from where they are (not held, the
        searches were dropped as units moved, and found again later: den520d's random orders all arrived
        much later)."""
        while setting.goals is not None and _stopped_short(setting.units, setting.aheads, setting.goals):
            wider = self._wider(jam, widenings, margin)
            if wider is None:
                break
            margin, setting = 2 * margin, wider
        if setting.goals is None:
            return self._give_up_on(jam)
        held = {holder: holder.stack.top for _, holder in self.host.occupancy.held_in(*setting.window)}
        self._searching = _PlanSearch(jam, widenings, margin, setting, held, setting.untangling(), None, 0)
        return self._search_on(self._searching)

    def _search_on(self, search: "_PlanSearch") -> bool:
        """Search on with the work left to this update (SEARCH_WORK_PER_UPDATE an update, for all jams);
        once done, or out of time searching for a better plan, go on (:meth:`_searched`). The search is
        dropped if a unit of its window moved, was given other routes, or left the map meanwhile (pushed
        by a unit from outside, given an order, or stopped by the stall check: the window's units wait as
        if stuck): the jam is found again if it still is one. Whether the jam is planned or still searched."""
        occupancy = self.host.occupancy
        self._searching = None
        if not all(
            occupancy.holder(u.cell) is u and u.next_cell is None and u.stack.top is top
            for u, top in search.held.items()
        ):
            return False
        before = search.untangling.work
        done = search.untangling.advance(self._work_left)
        work = search.untangling.work - before
        self._work_left -= work
        self.host.stats.jam_work += work
        if not done and (search.first is None or self.host.stats.updates < search.until):
            self._searching = search
            return True
        return self._searched(search)

    def _searched(self, search: "_PlanSearch") -> bool:
        """Go on from ``search``, done: where units are to take one another's cells (see :func:`_in_a_cycle`)
        and no plan was found, search a wider window; give up on the jam if no plan moves a unit; search
        better plans if the first would be walked slowly; else start the plan walked soonest. Whether the jam
        is planned or still searched."""
        found, first, setting = search.untangling, search.first, search.setting
        if first is None and not _moves_units(found):
            wider = self._wider(search.jam, search.widenings, search.margin) if _in_a_cycle(setting) else None
            return (
                self._give_up_on(search.jam)
                if wider is None
                else self._search_in(search.jam, search.widenings, 2 * search.margin, wider)
            )
        if first is None and not found.misses and found.ticks > found.fewest + SLOW_PLAN_TICKS:
            better = setting.untangling(seeds=range(1, PLAN_SEEDS), both=True, sequential=False)
            self._searching = search._replace(
                untangling=better, first=found, until=self.host.stats.updates + MAX_SEARCH_UPDATES
            )
            return self._search_on(self._searching)
        best = found if first is None or found.ticks < first.ticks else first
        assert best.paths is not None
        self._start_plan(setting, best.paths)
        return True

    def _wider(self, jam: Set[Unit], widenings: int, margin: int) -> Optional["_Setting"]:
        """The setting of the window twice ``margin`` round ``jam`` (see :meth:`_setting`); None past
        MAX_GOAL_MARGIN."""
        return self._setting(jam, widenings, 2 * margin) if 2 * margin <= MAX_GOAL_MARGIN else None

    def _start_plan(self, setting: "_Setting", paths: List[List[Cell]]) -> None:
        """Hand each unit of ``setting`` its part of ``paths`` (cells of its window)."""
        (left, top, _, _), ordered, _, _, goals, close = setting
        assert goals is not None
        paths = [[(x + left, y + top) for x, y in path] for path in paths]
        members = []
        for unit, (goal, steps_along), path in zip(ordered, goals, paths):
            walk = [cell for _, cell in cell_entries(path)]
            members.append(_Member(unit, walk, steps_along is not None))
            route = unit.stack.top
            if steps_along and route is not None:
                route.advance(steps_along)
        slowest = min(u.speed for u in ordered)
        plan = JamPlan(members, paths, self.host.time + 2.0 * (len(paths[0]) + 2) / slowest + self.patience, close)
        for number, member in enumerate(members):
            self._start(plan, number, member)
        self.plans.append(plan)

    def _setting(self, jam: Set[Unit], widenings: int, margin: int) -> Optional["_Setting"]:
        """The window around ``jam`` (see :meth:`_window`), the units in it a plan moves and where each
        goes; None if the window would hold too many units or some of its units are moving or planned."""
        window = self._window(jam, widenings, margin)
        if window is None:
            return None
        held = list(self.host.occupancy.held_in(*window))
        units = {holder for _, holder in held}
        if not all(
            u.next_cell is None and u.state is not UnitState.FIND_PATH and u not in self._planned for u in units
        ):
            return None
        passable = (
            self.host.grid.passable.copy()
        )  # units larger than a cell are not moved by plans: they stand as walls
        for x, y in (cell for cell, holder in held if holder.size > 1):
            passable[y, x] = False
        ordered = sorted(
            (u for u in units if u.size == 1),
            key=lambda u: (u.stack.find(RouteKind.HIGH_LEVEL) is not None, -u.priority, u.id),
        )
        aheads = [_ahead(unit, window, passable) for unit in ordered]
        goals = _goals(ordered, aheads, window, passable, _lanes(units))
        return _Setting(window, ordered, passable, aheads, goals, close=len(ordered) == len(units))

    def _give_up_on(self, jam: Set[Unit]) -> bool:
        """Leave ``jam`` to the traffic rules for RETRY_AFTER seconds: False, no plan."""
        for unit in jam:
            self._failed[unit] = (self.host.time, self._failed.get(unit, (0.0, 0))[1] + 1)
        return False

    def _window(self, jam: Set[Unit], widenings: int, margin: int) -> Optional[Window]:
        """Left, top, right, bottom of the cells around ``jam`` a plan may use: the jam's bounds and a
        ``margin``, widened until there is a free cell for every four units in it, or for every two, or
        one, after one or two ``widenings`` (a corridor where files pass one at a time through a
        pocket needs room on both sides); None if it would hold more than MAX_JAM_UNITS units first."""
        grid, occupancy = self.host.grid, self.host.occupancy
        xs, ys = [u.cell[0] for u in jam], [u.cell[1] for u in jam]
        while True:
            left, top = max(min(xs) - margin, 0), max(min(ys) - margin, 0)
            right, bottom = min(max(xs) + margin + 1, grid.width), min(max(ys) + margin + 1, grid.height)
            held = sum(1 for _ in occupancy.held_in(left, top, right, bottom))
            if held > MAX_JAM_UNITS:
                return None
            free = int(grid.passable[top:bottom, left:right].sum()) - held
            if 4 * free >= held << widenings or (left, top, right, bottom) == (0, 0, grid.width, grid.height):
                return left, top, right, bottom
            margin *= 2

    def _start(self, plan: JamPlan, number: int, member: _Member) -> None:
        unit, walk = member.unit, member.walk
        if unit.state in STANDING_STATES:
            unit.arrival_state = unit.state  # it comes back to stand as it stood
        if not member.on_route:  # it plans its way on from where the plan leaves it
            unit.stack.drop_cell_routes()
        route = Route(  # it makes way (wait_at, past its last waypoint, says so: Unit.making_way)
            RouteKind.AVOIDANCE, walk[1:], wait_at=len(walk) - 1,
            may_take=lambda index: index + 1 >= len(walk) or plan.may_enter(number, index + 1),
        )  # fmt: skip
        member.route = route
        unit.stack.push(route)
        unit.stats.detours += 1
        unit.waiting_for, unit.progress_time = 0.0, self.host.time
        self.host.set_state(unit, UnitState.RUN)
        self.host.collisions.resolving(unit, Resolution.JAM_PLAN)
        self._planned[unit] = plan
        unit.planned_time = self.host.time

    def _end(self, plan: JamPlan) -> None:
        """Forget a plan; units still on it (it overran) drop their routes below down to the key points and plan
        again."""
        self.plans.remove(plan)
        for member in plan.members:
            unit = member.unit
            if self._planned.get(unit) is plan:
                del self._planned[unit]
            if member.route is None or member.route not in unit.stack:
                continue
            if member.route.index < len(member.walk) - 1:  # overran: it plans its way on from here
                unit.stack.drop_cell_routes()
            self.host.watch_route(unit)


class _PlanSearch(NamedTuple):
    """A jam's plan being searched: with the first seed, then, where its plan would be walked slowly, with others."""

    jam: Set[Unit]
    widenings: int  #: times the window doubled its room (see :meth:`JamPlans._window`)
    margin: int  #: cells round the jam (see :meth:`JamPlans._window`)
    setting: "_Setting"
    held: Dict[Unit, Optional[Route]]  #: every unit in the window, with its top route then
    untangling: Untangling  #: the search under way
    first: Optional[Untangling]  #: the first seed's search, done, while plans with other seeds are searched
    until: int  #: the update the search for better plans ends at, done or not


class _Setting(NamedTuple):
    """What a jam's plan is made for: its window, the units it moves (in order) and where each goes."""

    window: Window
    units: List[Unit]
    passable: np.ndarray
    aheads: List[List[Cell]]  #: each unit's route cells in the window (:func:`_ahead`)
    goals: Optional[List[Tuple[Cell, Optional[int]]]]
    close: bool  #: every unit in the window is one cell wide: the plan's units may follow closely (JamPlan.close)

    def untangling(self, **options) -> Untangling:
        """The search for the plan moving :attr:`units` to their goals in the window (options of
        :class:`~pathing_py.units.jams.untangling.Untangling`), with swaps only where no unit stands or makes way."""
        left, top, right, bottom = self.window
        assert self.goals is not None
        starts = [_in_window(unit.cell, (left, top)) for unit in self.units]
        ends = [_in_window(goal, (left, top)) for goal, _ in self.goals]
        swaps = not any(unit.state in STANDING_STATES or unit.making_way for unit in self.units)
        return Untangling(self.passable[top:bottom, left:right], starts, ends, swaps=swaps, **options)


def _lanes(units: Iterable[Unit]) -> Set[Cell]:
    """The cells the next LANE_STEPS steps of each waiting unit larger than a cell take (plans do not move
    such units; their units end off these cells, so that the large unit can go on after the plan)."""
    lanes: Set[Cell] = set()
    for unit in units:
        top_route = unit.stack.top
        if (
            unit.size == 1
            or unit.state is not UnitState.WAITING
            or top_route is None
            or top_route.kind is RouteKind.HIGH_LEVEL
        ):
            continue
        ahead = [unit.cell, *top_route.remaining[:LANE_STEPS]]
        lanes.update(*(step_cells(a, b, unit.size) for a, b in zip(ahead, ahead[1:])))
        lanes.difference_update(unit.held)
    return lanes


def _goals(
    units: List[Unit], aheads: List[List[Cell]], window: Window, passable, lanes: Set[Cell]
) -> Optional[List[Tuple[Cell, Optional[int]]]]:
    """Where each unit goes in a window: the farthest cell of its route it reaches before leaving the
    window that no unit before it took, or where it stands, or the nearest free cell, off ``lanes`` (see
    :func:`_lanes`) unless there is none; and how many steps along its route that is (None when off it);
    None if some unit finds no cell. Units without orders of their own (standing, or making way) come first
    (see :meth:`JamPlans._plan`), so they keep their places."""
    taken: Set[Cell] = set()  # by the units before
    claimed = set(lanes)  # by them, or on the lanes
    goals: List[Tuple[Cell, Optional[int]]] = []
    for unit, ahead in zip(units, aheads):
        choice: Optional[Tuple[Cell, Optional[int]]] = next(
            ((cell, len(ahead) - i) for i, cell in enumerate(reversed(ahead)) if cell not in claimed), None
        )
        for avoided in (claimed, taken):  # off the lanes if it can be, else on them
            if choice is None:
                nearest = unit.cell if unit.cell not in avoided else _nearest_free(unit.cell, avoided, window, passable)
                choice = None if nearest is None else (nearest, 0 if nearest == unit.cell else None)
        if choice is None:
            return None
        claimed.add(choice[0])
        taken.add(choice[0])
        goals.append(choice)
    return goals


def _ahead(unit: Unit, window: Window, passable) -> List[Cell]:
    """The cells of ``unit``'s route (its cell route, not key points) from its next on, while in ``window``."""
    left, top, right, bottom = window
    route = unit.stack.top
    ahead: List[Cell] = []
    if route is not None and route.kind is not RouteKind.HIGH_LEVEL and unit.state not in STANDING_STATES:
        for x, y in route.remaining:
            if not (left <= x < right and top <= y < bottom and passable[y, x]):
                break
            ahead.append((x, y))
    return ahead


def _stopped_short(units: List[Unit], aheads: List[List[Cell]], goals: List[Tuple[Cell, Optional[int]]]) -> bool:
    """Whether a unit's cell in the plan is short of the farthest cell of its route in the window because
    another unit's own goal (where its order ends) lies on the way: in a dead end that unit would stand in
    front of it for good once both are there (a file arriving out of order)."""
    ends = {goal for unit, (goal, _) in zip(units, goals) if goal == unit.goal}
    for ahead, (goal, _) in zip(aheads, goals):
        if goal in ahead and goal != ahead[-1] and any(cell in ends for cell in ahead[ahead.index(goal) + 1 :]):
            return True
    return False


def _moves_units(untangling: Untangling) -> bool:
    """Whether ``untangling`` found a plan that moves a unit."""
    return untangling.paths is not None and any(path[-1] != path[0] for path in untangling.paths)


def _in_a_cycle(setting: _Setting) -> bool:
    """Whether some units of ``setting`` are to go round a cycle, each to the cell of the next (two in a
    dead end, each on the other's goal): then one of them has to step aside, past the others."""
    assert setting.goals is not None
    units, goals = setting.units, [goal for goal, _ in setting.goals]
    standing_on = {unit.cell: number for number, unit in enumerate(units)}
    for first in range(len(units)):
        number: Optional[int] = first
        for _ in units:  # (round a cycle, at most once)
            if number is None or goals[number] == units[number].cell:
                break
            number = standing_on.get(goals[number])
            if number == first:
                return True
    return False


def _nearest_free(cell: Cell, claimed: Set[Cell], window: Window, passable) -> Optional[Cell]:
    """The nearest passable cell of the window (by side steps) no unit claimed, None if there is none."""
    left, top, right, bottom = window
    seen = {cell}
    frontier = [cell]
    while frontier:
        reached = []
        for x, y in frontier:
            for near in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)):
                if (
                    near in seen
                    or not (left <= near[0] < right and top <= near[1] < bottom)
                    or not passable[near[1], near[0]]
                ):
                    continue
                if near not in claimed:
                    return near
                seen.add(near)
                reached.append(near)
        frontier = reached
    return None


def _in_window(cell: Cell, origin: Tuple[int, int]) -> Cell:
    return cell[0] - origin[0], cell[1] - origin[1]
