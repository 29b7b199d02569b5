"""One way at a time through long narrow passages (passage control, SPEC U7, F1, F5).

Two streams meeting head-on in a corridor up to three cells wide cannot pass
each other there: units of each stand in the other's way all along it.
With a crowd a side crossing a long corridor between two open fields, units
ordered one by one and groups alike stopped HELD_UP in a corridor one cell
wide, and took many times as long as needed in one two or three cells wide.
Through a bridge or a canyon, traffic goes one way at a time, and so do units
here (the same crossings then take a fraction of that time):

- as a route is planned (a unit's on a key-point graph, or a group's as its
  commander shares it), :func:`mark_narrows` finds the stretches of it that
  are narrow (the open run across a cell, along its row or its column, at
  most NARROW_RUN cells of the unit's grid) for at least MIN_LENGTH cells, and
  adds a key point to the route before each: the *approach* point, the
  group's depth (a unit's size) and APPROACH_SLACK cells before the stretch;
- a unit reaching the approach point (a member, its place beside it) holds
  there until :class:`Narrows` lets it (its group) in: no one going the other
  way through the same cells is in the stretch, or asked for it earlier and
  still waits; but a stream going its way is joined until those waiting the
  other way have waited PATIENCE seconds;
- it is through once it (every member) has been in the stretch and left it,
  or ended its order.

A unit or group held HOLD_LIMIT seconds goes in anyway: one stuck inside for
good holds no one forever.

Quick start::

    >>> from pathing_py import Grid
    >>> from pathing_py.units.narrows import mark_narrows
    >>> grid = Grid.from_ascii('''
    ... ..........#####..........
    ... ..........#####..........
    ... .........................
    ... ..........#####..........
    ... ..........#####..........
    ... ''')
    >>> key_points, stretches = mark_narrows(grid, (0, 2), (), (24, 2), depth=3)
    >>> key_points  # the approach point, 3 + APPROACH_SLACK cells before the corridor
    ((3, 2),)
    >>> [(stretch.approach, stretch.entry, stretch.last, len(stretch.cells)) for stretch in stretches]
    [(0, (10, 2), (14, 2), 5)]
"""

import itertools
import math
import weakref
from typing import Callable, Dict, FrozenSet, Hashable, List, Optional, Sequence, Set, Tuple

import numpy as np

from ..grid import Cell, Grid
from ..line import clear_cells, line_cells
from ..search import find_path, grid_distance
from .path_stack import Route
from .unit import Unit

__all__ = [
    "APPROACH_SLACK",
    "CLEAR_OF",
    "HOLD_LIMIT",
    "MIN_LENGTH",
    "NARROW_RUN",
    "PATIENCE",
    "Claim",
    "Narrows",
    "Stretch",
    "hold_for_next_turn",
    "mark_narrows",
    "narrow_cells",
]

#: A cell is narrow where the open run across it, along its row or its column, is at most this many cells
#: (of the group's grid, whose cells are the blocks where its widest member fits): two files cannot pass there.
NARROW_RUN = 3
#: Cells a stretch runs along a route at the least: doors and gates in walls one or two cells thick are passed
#: by the traffic rules.
MIN_LENGTH = 3
#: Cells between where a held group stands (its depth round the approach point) and the stretch's first cell,
#: left free for the group coming out.
APPROACH_SLACK = 4
#: Cells from a stretch's last cell a unit that came out of it stands before it is through (see Stretch.holds_on).
CLEAR_OF = 1
#: Game seconds a group or unit holds at an approach point before it goes in whatever the others do.
HOLD_LIMIT = 120.0
#: Game seconds those waiting the other way wait at most for a stream they did not ask before to pass.
PATIENCE = 10.0


class Stretch:
    """A narrow stretch of a route: the index of its approach point among the route's key points, its first
    and last cell on the route, and its cells (the route's and the narrow cells next to them: a corridor two
    cells wide is one stretch for routes along either side of it)."""

    __slots__ = ("approach", "entry", "last", "cells")

    def __init__(self, approach: int, entry: Cell, last: Cell, cells: FrozenSet[Cell]):
        self.approach, self.entry, self.last, self.cells = approach, entry, last, cells

    def holds_on(self, cell: Cell, next_cell: Optional[Cell]) -> bool:
        """Whether a unit on ``cell`` (stepping into ``next_cell``) is in the stretch, or still near its last
        cell (CLEAR_OF cells or fewer): one pushed back in at the mouth as it comes out keeps its turn."""
        if cell in self.cells or next_cell in self.cells:
            return True
        return max(abs(cell[0] - self.last[0]), abs(cell[1] - self.last[1])) <= CLEAR_OF

    def meets_head_on(self, other: "Stretch") -> bool:
        """Whether ``other`` shares at least two cells with this stretch and runs the other way through
        them: its entry nearer this one's last cell, and its last cell nearer this one's entry, than the
        other way round."""
        return len(self.cells & other.cells) >= 2 and self._against(other)

    def runs_along(self, other: "Stretch") -> bool:
        """Whether ``other`` shares at least two cells with this stretch and runs the same way through them."""
        return len(self.cells & other.cells) >= 2 and not self._against(other)

    def _against(self, other: "Stretch") -> bool:
        crossed = grid_distance(self.entry, other.last) + grid_distance(self.last, other.entry)
        along = grid_distance(self.entry, other.entry) + grid_distance(self.last, other.last)
        return crossed < along


def narrow_cells(cells: np.ndarray, passable: np.ndarray) -> np.ndarray:
    """Which of ``cells`` (n x 2, x and y, passable) are narrow: the open run across each, along its row or
    along its column, is at most NARROW_RUN cells (off the map counts as blocked)."""
    cells = np.asarray(cells, dtype=np.int64).reshape(-1, 2)
    if not len(cells):
        return np.zeros(0, dtype=bool)
    height, width = passable.shape  # (the cells' box, and the runs either side of it, are enough)
    left, top = max(int(cells[:, 0].min()) - NARROW_RUN, 0), max(int(cells[:, 1].min()) - NARROW_RUN, 0)
    right, bottom = (
        min(int(cells[:, 0].max()) + NARROW_RUN + 1, width),
        min(int(cells[:, 1].max()) + NARROW_RUN + 1, height),
    )
    return _narrow_mask(passable[top:bottom, left:right])[cells[:, 1] - top, cells[:, 0] - left]


def _narrow_mask(passable: np.ndarray) -> np.ndarray:
    """The narrow open cells of a whole map (see :func:`narrow_cells`), every cell at once."""
    reach, (height, width) = NARROW_RUN, passable.shape
    padded = np.pad(passable, reach, constant_values=False)

    def runs_wider(
        dx: int, dy: int
    ) -> np.ndarray:  # some run of NARROW_RUN + 1 open cells along (dx, dy) holds the cell
        def shifted(k: int) -> np.ndarray:
            return padded[reach + k * dy : reach + k * dy + height, reach + k * dx : reach + k * dx + width]

        wider = np.zeros_like(passable, dtype=bool)
        for first in range(-reach, 1):
            window = np.ones_like(passable, dtype=bool)
            for k in range(first, first + reach + 1):
                window &= shifted(k)
            wider |= window
        return wider

    return passable & ~(runs_wider(1, 0) & runs_wider(0, 1))


class _NarrowMap:
    """A map's narrow cells, and their counts over rectangles (a summed-area table), kept for the map's version:
    a route's legs far from any narrow cell are not walked."""

    __slots__ = ("version", "mask", "table")

    def __init__(self, grid: Grid):
        self.version = grid.version
        self.mask = _narrow_mask(grid.passable)
        self.table = np.pad(self.mask.astype(np.int32).cumsum(axis=0).cumsum(axis=1), ((1, 0), (1, 0)))

    def near(self, a: Cell, b: Cell) -> bool:
        """Whether a narrow cell lies within a cell of the box spanned by ``a`` and ``b``."""
        height, width = self.mask.shape
        left, right = max(min(a[0], b[0]) - 1, 0), min(max(a[0], b[0]) + 2, width)
        top, bottom = max(min(a[1], b[1]) - 1, 0), min(max(a[1], b[1]) + 2, height)
        table = self.table
        return bool(table[bottom, right] - table[top, right] - table[bottom, left] + table[top, left])


_NARROW_MAPS: "weakref.WeakKeyDictionary[Grid, _NarrowMap]" = weakref.WeakKeyDictionary()


def _narrow_map(grid: Grid) -> _NarrowMap:
    known = _NARROW_MAPS.get(grid)
    if known is None or known.version != grid.version:
        known = _NARROW_MAPS[grid] = _NarrowMap(grid)
    return known


def mark_narrows(
    grid: Grid, start: Cell, key_points: Sequence[Cell], goal: Cell, *, depth: int, hold_at_start: bool = False
) -> Tuple[Tuple[Cell, ...], List[Stretch]]:
    """``key_points`` of the route from ``start`` to ``goal`` on ``grid`` with an approach point added
    before each narrow stretch of it, and the stretches. ``depth``: cells the group reaches either way
    from its commander (it holds round the approach point). Stretches closer together than the group
    holds before one are one stretch: it does not hold inside a passage. A stretch closer to ``start``
    than its approach point would be is left out (a group already at a passage does not walk back to hold
    before it), or with ``hold_at_start`` held for at the start (approach -1: before the first key point),
    unless ``start`` is in a passage itself."""
    points = [start, *key_points, goal]
    narrow_map = _narrow_map(grid)
    cells, at = _route_cells(grid, points, narrow_map)
    narrow = np.array([cell is not None and bool(narrow_map.mask[cell[1], cell[0]]) for cell in cells], dtype=bool)
    near = hold_at_start and not narrow[0]
    narrow[0] = narrow[-1] = False  # where it stands, and its goal, are no passage to hold before
    back = depth + APPROACH_SLACK
    spans: List[List[int]] = []
    for first in np.flatnonzero(narrow & ~np.r_[False, narrow[:-1]]).tolist():
        last = first + int(np.argmin(narrow[first:])) - 1
        if spans and first - back <= spans[-1][1] + 1:
            spans[-1][1] = last
        else:
            spans.append([first, last])
    spans = [[first, last] for first, last in spans if last - first + 1 >= MIN_LENGTH and (first - back > 0 or near)]
    if not spans:
        return tuple(key_points), []
    approaches = [first - back for first, _ in spans]
    added = {index: _cell_at(grid, cells, at, points, index) for index in approaches if index > 0}
    marked = sorted({**added, **dict(zip(at[1:-1], key_points))}.items())
    index_of = {path_index: k for k, (path_index, _) in enumerate(marked)}
    stretches = []
    for approach, (first, last) in zip(approaches, spans):
        stretch_cells = [cell for cell in cells[first : last + 1] if cell is not None]  # (narrow cells: all walked)
        stretches.append(Stretch(index_of[approach] if approach > 0 else -1, stretch_cells[0], stretch_cells[-1],
                                 _surroundings(stretch_cells, narrow_map.mask)))  # fmt: skip
    return tuple(cell for _, cell in marked), stretches


def _route_cells(grid: Grid, points: Sequence[Cell], narrow_map: _NarrowMap) -> Tuple[List[Optional[Cell]], List[int]]:
    """The cells of a route through ``points`` (straight where the line is clear, else a shortest path), and
    the index of each point among them; a leg with no narrow cell within a cell of its box is not walked:
    its cells are None, as many as a straight line takes, but for its last."""
    cells: List[Optional[Cell]] = [points[0]]
    at = [0]
    for a, b in zip(points, points[1:]):
        if a == b:
            at.append(len(cells) - 1)
            continue
        if narrow_map.near(a, b):
            cells.extend(_leg(grid, a, b)[1:])
        else:
            dx, dy = abs(b[0] - a[0]), abs(b[1] - a[1])
            cells.extend([None] * ((max(dx, dy) if grid.connectivity == 8 else dx + dy) - 1) + [b])
        at.append(len(cells) - 1)
    return cells, at


def _leg(grid: Grid, a: Cell, b: Cell) -> List[Cell]:
    """The cells from ``a`` to ``b``: the straight line if it is clear, else a shortest path."""
    line = line_cells(a, b, grid.connectivity)
    if clear_cells(grid.passable, line):
        return line
    found = find_path(grid, a, b)
    return list(found.cells) if found else [a, b]


def _cell_at(grid: Grid, cells: List[Optional[Cell]], at: List[int], points: Sequence[Cell], index: int) -> Cell:
    """The route's cell at ``index``; in a leg that was not walked, the cell as many cells before the leg's end
    on the leg walked now."""
    cell = cells[index]
    if cell is not None:
        return cell
    leg = next(k for k in range(len(at) - 1) if at[k] < index <= at[k + 1])
    walked = _leg(grid, points[leg], points[leg + 1])
    return walked[max(0, len(walked) - 1 - (at[leg + 1] - index))]


def _surroundings(cells: Sequence[Cell], mask: np.ndarray) -> FrozenSet[Cell]:
    """``cells`` and the narrow open cells (``mask``) next to them."""
    height, width = mask.shape
    around = {(x + i, y + j) for x, y in cells for i in (-1, 0, 1) for j in (-1, 0, 1)}
    return frozenset(cells) | frozenset((x, y) for x, y in around if 0 <= x < width and 0 <= y < height and mask[y, x])


class Claim:
    """An owner's turn at one stretch (a group's, or a unit's of its own): asked for once it reached the
    approach point (``asked``: the order in which claims asked), entered once let in; the ids of the units
    seen in the stretch since, and of those that have passed it."""

    __slots__ = (
        "narrows",
        "owner",
        "stretch",
        "asked",
        "asked_at",
        "entered",
        "inside",
        "passed",
        "_answered_at",
        "_holding",
    )

    def __init__(self, narrows: "Narrows", owner: Hashable, stretch: Stretch):
        self.narrows, self.owner, self.stretch = narrows, owner, stretch
        self.asked: Optional[int] = None
        self.asked_at = math.nan  #: game seconds
        self.entered = False
        self.inside: Set[int] = set()
        self.passed: Set[int] = set()
        self._answered_at = math.nan
        self._holding = True

    def holds(self) -> bool:
        """Whether the owner's units are to hold at the approach point now (asked by each unit there,
        answered once an update): the first ask is the claim's place in the queue."""
        now = self.narrows.clock()
        if self.entered:
            return False
        if now != self._answered_at:
            self._answered_at = now
            self._holding = self.narrows.holds(self, now)
            self.entered = not self._holding
        return self._holding

    def passed_by(self, units: Sequence[Unit], ended: Callable[[Unit], bool]) -> bool:
        """Whether every one of ``units`` (the owner's) has passed the stretch, noting who is in it now: been in it
        and left it, or ``ended`` its order without."""
        stretch, inside, passed = self.stretch, self.inside, self.passed
        for unit in units:
            if unit.id in passed:
                continue
            if stretch.holds_on(unit.cell, unit.next_cell):
                inside.add(unit.id)
            elif unit.id in inside or ended(unit):
                passed.add(unit.id)
        return all(unit.id in passed for unit in units)


def hold_for_next_turn(routes: Sequence[Optional[Route]], claims: Sequence[Claim]) -> Optional[Claim]:
    """Hold the units walking ``routes`` (high-level routes over one route's key points; None: none walks it)
    past the approach point of the first of ``claims`` not let in yet, and return that claim; with none left,
    let them walk past every approach point."""
    first = next((claim for claim in claims if not claim.entered), None)
    for route in routes:
        if route is not None:
            route.wait_at, route.wait_while = (-1, None) if first is None else (first.stretch.approach + 1, first.holds)
    return first


class Narrows:
    """The claims of every group and unit of one navigator on the narrow stretches of their routes.

    Parameters
    ----------
    clock : callable
        Game seconds now (the navigator's time).
    """

    def __init__(self, clock: Callable[[], float]):
        self.clock = clock
        self._claims: Dict[Hashable, List[Claim]] = {}  #: owner -> its claims, in route order
        self._asked: Dict[Cell, Set[Claim]] = {}  #: cell -> the claims that asked for a stretch over it
        self._order = itertools.count()

    def claim(self, owner: Hashable, stretches: Sequence[Stretch]) -> List[Claim]:
        """Claims for the stretches of ``owner``'s new route (besides those it keeps of its last)."""
        claims = [Claim(self, owner, stretch) for stretch in stretches]
        if claims:
            self._claims.setdefault(owner, []).extend(claims)
        return claims

    def release(self, claim: Claim) -> None:
        """The owner is through the stretch (or gave up its route)."""
        claims = self._claims.get(claim.owner, [])
        if claim in claims:
            claims.remove(claim)
            if not claims:
                del self._claims[claim.owner]
        if claim.asked is not None:
            for cell in claim.stretch.cells:
                asked = self._asked.get(cell)
                if asked is not None:
                    asked.discard(claim)
                    if not asked:
                        del self._asked[cell]

    def holds_nothing(self) -> bool:
        """Whether no claim is left (every route's turns were taken or given up)."""
        return not self._claims and not self._asked

    def release_all(self, owner: Hashable) -> None:
        for claim in list(self._claims.get(owner, [])):
            self.release(claim)

    def holds(self, claim: Claim, now: float) -> bool:
        """Whether ``claim``'s owner is to hold: another owner is in a stretch it meets head-on, or asked for
        one earlier and waits, unless this one joins a stream going its way (another owner in a stretch along
        it) while those waiting the other way have waited less than PATIENCE. Not once it held HOLD_LIMIT."""
        if claim.asked is None:
            claim.asked, claim.asked_at = next(self._order), now
            for cell in claim.stretch.cells:
                self._asked.setdefault(cell, set()).add(claim)
        if now - claim.asked_at >= HOLD_LIMIT:
            return False
        rivals = {
            other for cell in claim.stretch.cells for other in self._asked.get(cell, ()) if other.owner != claim.owner
        }
        waiting_since = math.inf  #: when the longest waiting of the earlier claims the other way asked
        stream = False
        for other in rivals:
            if claim.stretch.meets_head_on(other.stretch):
                if other.entered:
                    return True
                if other.asked is not None and other.asked < claim.asked:
                    waiting_since = min(waiting_since, other.asked_at)
            elif other.entered and claim.stretch.runs_along(other.stretch):
                stream = True
        return waiting_since < math.inf and not (stream and now - waiting_since < PATIENCE)
