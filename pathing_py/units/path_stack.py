"""Each unit's stack of routes (SPEC U1, seed 002).

The high-level route (key points, or just the goal without a graph) lies at
the bottom; the cell route to its current waypoint above it, planned when the
unit gets there; temporary avoidance routes on top. The unit walks the top
route; a finished route is popped and the one below resumes.

Waypoints are kept in tuples that routes share by reference: a group's
commander plans once and every member walks the same tuple with its own
position in it (SPEC F1).
"""

import enum
import functools
from typing import Callable, List, Optional, Sequence, Tuple

from ..grid import Cell
from ..search import diagonal_saving, grid_distance

__all__ = ["PathStack", "Route", "RouteKind"]

_OCTILE_SAVING = diagonal_saving(8)  #: (for grid_distance, inlined in PathStack.distance_to_go)


class RouteKind(enum.Enum):
    HIGH_LEVEL = "high_level"  #: key points to the goal (or the goal alone)
    LOW_LEVEL = "low_level"  #: cells to the current high-level waypoint
    AVOIDANCE = "avoidance"  #: cells around something in the way, back onto the route below


#: Read at every step (a global: an enum member read off its class goes through the enum's metaclass, several times
#: slower).
_HIGH_LEVEL = RouteKind.HIGH_LEVEL


class Route:
    """Waypoints, the index of the next one, and whether the route starts over when done (patrols).

    A route that makes way for another unit waits before its waypoint
    ``wait_at`` for as long as ``wait_while()`` says so: the unit stands
    aside until the other has passed, then goes back. (A group member's
    high-level route so holds past the key point before a narrow passage
    until its group's turn there has come, and is not planned past that key
    point meanwhile: see :mod:`pathing_py.units.narrows`.) A route planned with
    other units' (a jam's) takes each waypoint ``i`` only once
    ``may_take(i)``: when the units planned in that cell before it have left.
    A group member walks its commander's key points (the waypoints, one tuple
    shared by reference) each at a cell of its own beside it: ``aims[i]`` is
    the cell it heads for in place of waypoint ``i``.
    """

    __slots__ = ("kind", "waypoints", "index", "loop", "wait_at", "wait_while", "may_take", "aims", "_to_end")

    def __init__(
        self,
        kind: RouteKind,
        waypoints: Sequence[Cell],
        *,
        index: int = 0,
        loop: bool = False,
        wait_at: int = -1,
        wait_while: Optional[Callable[[], bool]] = None,
        may_take: Optional[Callable[[int], bool]] = None,
        aims: Optional[Sequence[Cell]] = None,
    ):
        self.kind = kind
        self.waypoints: Tuple[Cell, ...] = waypoints if isinstance(waypoints, tuple) else tuple(waypoints)
        self.index = index
        self.loop = loop
        self.wait_at = wait_at
        self.wait_while = wait_while
        self.may_take = may_take
        if aims is not None and len(aims) != len(self.waypoints):
            raise ValueError(f"{len(aims)} aims for {len(self.waypoints)} waypoints")
        self.aims = aims
        self._to_end: Optional[Tuple[float, ...]] = None  #: see :meth:`length_after_current`

    def waiting(self) -> bool:
        """Whether the unit walking this route is to wait where it is now (the ``wait_while`` condition ends once
        false)."""
        if self.may_take is not None and not self.finished and not self.may_take(self.index):
            return True
        if self.wait_while is None or self.index != self.wait_at:
            return False
        if self.wait_while():
            return True
        self.wait_while = None
        return False

    @property
    def current(self) -> Cell:
        """The waypoint to reach next (IndexError once the route is finished)."""
        return self.waypoints[self.index]

    @property
    def finished(self) -> bool:
        return self.index >= len(self.waypoints)

    @property
    def remaining(self) -> Tuple[Cell, ...]:
        return self.waypoints[self.index :]

    @property
    def aim(self) -> Cell:
        """The cell to head for at the current waypoint: its aim, or the waypoint itself."""
        return self.waypoints[self.index] if self.aims is None else self.aims[self.index]

    def length_after_current(self) -> float:
        """The length from the current waypoint through the later ones, each leg as long as on an empty grid
        (octile)."""
        if self._to_end is None:
            self._to_end = _lengths_to_end(self.waypoints)
        return self._to_end[self.index]

    def reached(self, cell: Cell) -> bool:
        """Whether a unit standing on ``cell`` has reached the current waypoint (or the cell it aims at for it)."""
        return cell == self.waypoints[self.index] or self.aims is not None and cell == self.aims[self.index]

    def advance(self, steps: int = 1) -> None:
        """Move on by ``steps`` waypoints (the only way a route's index changes); a looping route starts over
        after its last."""
        if steps < 0:
            raise ValueError(f"a route moves on, never back: got {steps} steps")
        self.index += steps
        if self.loop and self.index >= len(self.waypoints) and self.waypoints:
            self.index = 0

    def shared(self) -> "Route":
        """A route over the same waypoint tuple, from its start: for another unit to walk."""
        return Route(self.kind, self.waypoints, loop=self.loop)

    def __repr__(self) -> str:
        return f"Route({self.kind.name}, {self.index}/{len(self.waypoints)}{', loop' if self.loop else ''})"


class PathStack(List[Route]):
    """Routes, last in first out: a list of them, bottom to top, changed by :meth:`push` and ``pop`` at the top
    (and ``clear``). ``route in stack`` is whether that very route is on it: routes compare by identity. (A
    list, so that ``len``, ``in`` and iteration are C-level: stacks are read at every step, and a group reads
    every member's every update.)"""

    def push(self, route: Route) -> None:
        self.append(route)

    @property
    def top(self) -> Optional[Route]:
        return self[-1] if self else None

    def find(self, kind: RouteKind) -> Optional[Route]:
        """The topmost route of a kind."""
        for route in reversed(self):  # (a loop, not a generator: waiting units ask at every sub-step)
            if route.kind is kind:
                return route
        return None

    def destination(self) -> Optional[Cell]:
        """Where the unit's order takes it: the last waypoint of the bottom high-level route (a group
        member walks the key points it shares above a route to its own cell); None while it only
        makes way or stands."""
        bottom = self[0] if self else None
        return (
            bottom.waypoints[-1]
            if bottom is not None and bottom.kind is RouteKind.HIGH_LEVEL and bottom.waypoints
            else None
        )

    def distance_to_go(self, cell: Cell) -> Optional[float]:
        """How far ``cell`` is from the destination through the key points still to reach (of each high-level
        route, top down), each leg as long as on an empty grid (octile); None without a destination.

        As a unit walks its route, this shrinks at every key point it reaches, however the route winds, and
        between key points as it comes closer to the next. Units shuffled round in a jam come no closer by it:
        for each key point to reach next it is a fixed measure of the cell, and a route's next key point only
        moves on. (Measured as a straight line to the destination, a group member whose shared route went
        far north before it turned south walked a long while "coming no closer", and was stopped HELD_UP at
        the first unit in its way.)"""
        if not self or self[0].kind is not _HIGH_LEVEL or not self[0].waypoints:  # (no destination)
            return None
        total, (x, y) = 0.0, cell
        for route in reversed(self):  # (every unit comes here at every cell it reaches: grid_distance inlined)
            if route.kind is _HIGH_LEVEL:
                waypoints, index = route.waypoints, route.index
                if index < len(waypoints):
                    wx, wy = waypoints[index]
                    dx, dy = abs(x - wx), abs(y - wy)
                    total += dx + dy + _OCTILE_SAVING * min(dx, dy) + route.length_after_current()
                    x, y = waypoints[-1]
        return total

    def drop_cell_routes(self) -> None:
        """Pop routes down to the topmost high-level one (its key points): the unit plans its leg to the
        next from where it is (or, with none, stands where it is)."""
        while self and self[-1].kind is not RouteKind.HIGH_LEVEL:
            self.pop()

    def pop_finished(self) -> None:
        """Pop finished routes off the top, so the top is the route to walk (or the stack is empty)."""
        while self and self[-1].index >= len(self[-1].waypoints):  # (Route.finished, written out: asked at every step)
            self.pop()


@functools.lru_cache(maxsize=1024)
def _lengths_to_end(waypoints: Tuple[Cell, ...]) -> Tuple[float, ...]:
    """For each waypoint, the length from it through the later ones (the members of a group, walking
    one tuple of key points, share the answer)."""
    lengths = [0.0] * (len(waypoints) + 1)
    for index in range(len(waypoints) - 2, -1, -1):
        lengths[index] = lengths[index + 1] + grid_distance(waypoints[index], waypoints[index + 1])
    return tuple(lengths)
