"""Formation scenarios as data, and runs of them that record what the group did and when (SPEC F3–F5).

``pathing-py demo --scenario`` draws and prints these runs (issue 10 item 9):
a box scaling down through a gap, a line forming again as it turns, a line
forming again where its route bends, a box parting around a lake. Each scenario is a small map made for it, a group
that starts scattered over the map's start cells (the seed picks where) and
the orders it is given, each once it arrived from the one before::

    >>> from pathing_py.tools.formation_scenarios import SCENARIOS, FormationRun
    >>> run = FormationRun(SCENARIOS["gap"], seed=1)
    >>> while not run.done:
    ...     run.update(0.05)
    >>> [name for _, name, _ in run.events]  # doctest: +NORMALIZE_WHITESPACE
    ['group_ordered', 'formation_forming', 'formation_formed', 'formation_scaled', 'formation_scaled',
     'formation_scaled', 'group_arrived']
    >>> [(order.target, len(order.arrivals), order.searches) for order in run.orders], run.overlaps
    ([((31, 9), 9, 1)], 0)

Times are game seconds (the navigator's clock), cells are grid cells.
"""

import random
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from ..crowd_checks import overlapping_pairs
from ..grid import Cell, Grid
from ..groups import Group, Groups
from ..units import Navigator, Unit, UnitState

__all__ = ["SCENARIOS", "FormationRun", "FormationScenario", "OrderRecord"]

#: What each character of a scenario's map is: open (``s``: a member may start there; a digit: a target), or blocked.
OPEN, START, WALL, WATER = ".", "s", "#", "~"
#: The tile id water cells get in :meth:`FormationScenario.terrain`, so that pictures draw them as water.
WATER_TILE = 1


@dataclass(frozen=True)
class FormationScenario:
    """A map made for one thing a formation does, the group that does it, and its orders.

    ``rows`` is the map as text: ``.`` open ground, ``#`` wall, ``~`` water (blocked), ``s`` open ground
    where members may start (the run's seed picks their cells), ``1``, ``2``, … the cells the group is
    ordered to, in that order. Members take ``speeds`` in turn, so that the group walks at the slowest
    (SPEC F1) and faster members hold back to keep their slots.
    """

    name: str
    description: str
    rows: Tuple[str, ...]
    shape: str
    members: int
    spacing: float
    speeds: Tuple[float, ...] = (4.0, 5.0)

    def __post_init__(self) -> None:
        legend = {OPEN, START, WALL, WATER, *"123456789"}
        for y, row in enumerate(self.rows):
            for x, char in enumerate(row):
                if char not in legend:
                    raise ValueError(
                        f"scenario {self.name!r}: unknown map character {char!r} at {(x, y)}"
                        f" (expected one of {''.join(sorted(legend))})"
                    )
        self.grid()  # rows of one width
        starts, targets = (
            len(self.start_cells),
            "".join(sorted(char for row in self.rows for char in row if char.isdigit())),
        )
        if starts < self.members:
            raise ValueError(
                f"scenario {self.name!r}: {self.members} members need as many start cells ('s'), the map has {starts}"
            )
        if not targets or targets != "123456789"[: len(targets)]:
            raise ValueError(
                f"scenario {self.name!r}: the map must mark its targets 1, 2, … once each, got {targets!r}"
            )
        if not self.speeds:
            raise ValueError(f"scenario {self.name!r}: members need at least one speed")

    def grid(self) -> Grid:
        """A new grid of the map (walls and water blocked)."""
        return Grid.from_ascii("\n".join(self.rows).replace(WATER, WALL).replace(START, OPEN).translate(_DIGITS_OPEN))

    def terrain(self) -> Dict[str, Any]:
        """What :func:`~pathing_py.debug.draw_grid` needs to draw the water as water."""
        tiles = np.array([[WATER_TILE if char == WATER else -1 for char in row] for row in self.rows])
        return {"tiles": tiles, "names": {WATER_TILE: "water"}}

    @property
    def start_cells(self) -> List[Cell]:
        """The cells members may start on, row by row."""
        return [(x, y) for y, row in enumerate(self.rows) for x, char in enumerate(row) if char == START]

    @property
    def targets(self) -> List[Cell]:
        """The cells the group is ordered to, in order."""
        marked = {char: (x, y) for y, row in enumerate(self.rows) for x, char in enumerate(row) if char.isdigit()}
        return [marked[char] for char in sorted(marked)]


_DIGITS_OPEN = str.maketrans("123456789", OPEN * 9)


@dataclass
class OrderRecord:
    """One order of the group and what came of it, in game seconds."""

    target: Cell
    given: float  #: when the order was given
    formed_in: Optional[float] = None  #: from formation_forming to formation_formed, if the order formed the group
    ended: Optional[float] = None  #: when the group said it arrived (group_arrived)
    arrivals: Dict[int, float] = field(default_factory=dict)  #: member id -> when it last reached its goal
    searches: int = 0  #: full path searches of all members for this order so far

    @property
    def spread(self) -> Optional[float]:
        """Seconds from the first member arriving to the last (None before any arrived)."""
        return max(self.arrivals.values()) - min(self.arrivals.values()) if self.arrivals else None


class FormationRun:
    """A scenario under way: its navigator and group, and what happened when.

    Call :meth:`update` until :attr:`done`. It checks after every update that no two units overlap
    (:func:`~pathing_py.crowd_checks.overlapping_pairs`), and gives the next order once the group
    arrived.
    """

    def __init__(self, scenario: FormationScenario, seed: int):
        self.scenario = scenario
        self.navigator = Navigator(scenario.grid())
        self.groups = Groups(self.navigator)
        cells = random.Random(seed).sample(scenario.start_cells, scenario.members)
        units = [
            self.navigator.add_unit((x + 0.5, y + 0.5), speed=scenario.speeds[number % len(scenario.speeds)])
            for number, (x, y) in enumerate(cells)
        ]
        self.group: Group = self.groups.add_group(units, formation=scenario.shape, spacing=scenario.spacing)
        self.events: List[Tuple[float, str, str]] = []  #: (game time, event name, detail), as the group said them
        self.orders: List[OrderRecord] = []
        self.overlaps = 0  #: overlapping pairs of units, summed over the updates
        self._arrived_at: Dict[int, float] = {}  #: member id -> when it last became ARRIVED
        self._forming_since: Optional[float] = None  #: when the current order's forming began
        self._plans_before = 0  #: the members' full searches before the current order
        self._give_order()

    @property
    def done(self) -> bool:
        """Whether the group arrived from its last order."""
        return len(self.orders) == len(self.scenario.targets) and self.orders[-1].ended is not None

    def update(self, delta: float) -> None:
        """One navigator update of ``delta`` seconds, then the checks and records."""
        navigator = self.navigator
        navigator.update(delta)
        members = self.group.members
        self.overlaps += len(overlapping_pairs([unit.position for unit in members], [unit.radius for unit in members]))
        self.orders[-1].searches = _plans(members) - self._plans_before
        for unit in members:
            if unit.state is not UnitState.ARRIVED:
                self._arrived_at.pop(unit.id, None)
            else:
                self._arrived_at.setdefault(unit.id, navigator.time)
        self._take_events()

    def _give_order(self) -> None:
        """The next target's order, its events taken at once (group_ordered, formation_forming)."""
        target = self.scenario.targets[len(self.orders)]
        self.orders.append(OrderRecord(target, self.navigator.time))
        self._plans_before, self._forming_since = _plans(self.group.members), None
        self.group.move_to(target)
        self._take_events()

    def _take_events(self) -> None:
        """Record the group's events at the time now; once it arrived, the order's figures, and the next order."""
        now, order = self.navigator.time, self.orders[-1]
        for _, name, detail in self.groups.events():
            self.events.append((now, name, detail))
            if name == "formation_forming":
                self._forming_since = now
            elif name == "formation_formed" and self._forming_since is not None and order.formed_in is None:
                order.formed_in = now - self._forming_since
            elif name == "group_arrived":
                order.ended = now
                order.arrivals = {
                    unit.id: self._arrived_at[unit.id] for unit in self.group.members if unit.id in self._arrived_at
                }
        if order.ended is not None and not self.done:
            self._give_order()


def _plans(units: List[Unit]) -> int:
    return sum(unit.stats.plans for unit in units)


def _scenario(name: str, description: str, shape: str, members: int, rows: str) -> FormationScenario:
    return FormationScenario(name, description, tuple(rows.strip("\n").split("\n")), shape, members, spacing=2.0)


#: The scenarios ``pathing-py demo --scenario`` runs, by name.
SCENARIOS: Dict[str, FormationScenario] = {
    scenario.name: scenario
    for scenario in (
        _scenario(
            "gap",
            "a box of 9 at spacing 2 marches east through a gap three cells wide in a wall: it scales down",
            "box",
            9,
            """
..................#.................
..................#.................
..................#.................
..................#.................
..ssssssss........#.................
..ssssssss........#.................
..ssssssss........#.................
..ssssssss........#.................
..ssssssss..........................
..ssssssss.....................1....
..ssssssss..........................
..ssssssss........#.................
..ssssssss........#.................
..ssssssss........#.................
..ssssssss........#.................
..................#.................
..................#.................
..................#.................
..................#.................
""",
        ),
        _scenario(
            "turn",
            "a line of 7 at spacing 2 marches east, then is ordered south: it forms again facing south",
            "line",
            7,
            """
....................................
....................................
....................................
..ssssssss..........................
..ssssssss..........................
..ssssssss..........................
..ssssssss..........................
..ssssssss..........................
..ssssssss..........................
..ssssssss............1.............
..ssssssss..........................
..ssssssss..........................
..ssssssss..........................
..ssssssss..........................
..ssssssss..........................
..ssssssss..........................
......................2.............
....................................
....................................
""",
        ),
        _scenario(
            "bend",
            "a line of 7 at spacing 2 is sent behind a wall: it forms facing the way its route sets off,"
            " and where the route turns back west it halts and forms again facing the way on",
            "line",
            7,
            """
........................................
........................................
..ssssssss..............................
..ssssssss..............................
..ssssssss..............................
..ssssssss..............................
..ssssssss..............................
..ssssssss..............................
..ssssssss..............................
..ssssssss..............................
..ssssssss..............................
..ssssssss..............................
..ssssssss..............................
........................................
........................................
........................................
##########################..............
##########################..............
##########################..............
##########################..............
##########################..............
##########################..............
........................................
........................................
........................................
........................................
........................................
......1.................................
........................................
........................................
........................................
........................................
""",
        ),
        _scenario(
            "lake",
            "a box of 9 at spacing 2 marches east across a lake: it halves, passes on both sides and closes up behind",
            "box",
            9,
            """
....................................
....................................
....................................
....................................
..ssssssss..........................
..ssssssss..........................
..ssssssss..........................
..ssssssss......~~~~................
..ssssssss......~~~~................
..ssssssss......~~~~...........1....
..ssssssss......~~~~................
..ssssssss......~~~~................
..ssssssss..........................
..ssssssss..........................
..ssssssss..........................
....................................
....................................
....................................
....................................
""",
        ),
    )
}
