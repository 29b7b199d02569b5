"""Routes on a changing map: who must hear of an edit, and local repair (SPEC D2, D3).

Quick start::

    >>> from pathing_py import Grid, find_path
    >>> from pathing_py.units.dynamic import MapWatcher, SpliceStatus, splice_path
    >>> grid = Grid.from_ascii('''
    ... ..........
    ... ..........
    ... ..........
    ... ''')
    >>> route = find_path(grid, (0, 1), (9, 1)).cells
    >>> watcher = MapWatcher(grid.width, grid.height, region_size=4)
    >>> watcher.subscribe("scout", route)
    >>> grid.set_blocked([(4, 1)])
    >>> watcher.cells_changed([(4, 1)])
    >>> watcher.collect()
    {'scout': frozenset({1})}
    >>> watcher.collect()  # told once; nothing changed since
    {}
    >>> spliced = splice_path(grid, route, 0, horizon=6)
    >>> spliced.status is SpliceStatus.SPLICED, spliced.cells[0], spliced.cells[-1], (4, 1) in spliced.cells
    (True, (0, 1), (9, 1), False)

Seed 004's argument: re-planning a route of N steps from scratch every few
steps costs about N^2 steps of search, and most units never meet an edit at
all. So units subscribe to the regions their routes cross, edits only mark
regions, and once per update :meth:`MapWatcher.collect` names the units whose
regions changed; each of those repairs the next few steps of its route with
:func:`splice_path`, a search bounded to a small rectangle, and re-plans in
full only when that fails.
"""

import math
from dataclasses import dataclass
from enum import Enum
from typing import (
    Dict,
    FrozenSet,
    Generic,
    Hashable,
    Iterable,
    List,
    NamedTuple,
    Optional,
    Sequence,
    Set,
    Tuple,
    TypeVar,
)

import numpy as np

from ..grid import Cell, Grid, cell_pairs, cells_inside, diagonal_steps
from ..line import path_cost
from ..search import PathStatus, find_path

__all__ = ["MapWatcher", "WatcherStats", "SpliceStatus", "SpliceResult", "splice_path", "first_blocked"]

#: Extra length (cells) a spliced piece may have beyond ``max_stretch`` times the piece it replaces,
#: so that a short piece near the goal may still step around a single blocked cell.
STRETCH_SLACK = 2.0


# -- watching map changes (D3) ------------------------------------------------------------------------


@dataclass
class WatcherStats:
    """Counters since the watcher was made: how much work edits caused."""

    collects: int = 0  #: calls of collect()
    marked: int = 0  #: regions found marked by collect() (a region edited twice between collects counts once)
    notifications: int = 0  #: subscribers returned by collect(), summed over all calls


#: What identifies a subscriber (a unit id, say).
Subscriber = TypeVar("Subscriber", bound=Hashable)


class MapWatcher(Generic[Subscriber]):
    """Tells units, batched once per update, that the map changed under their routes.

    The map is cut into square regions ``region_size`` cells wide, numbered
    row by row: region ``(x // region_size) + (y // region_size) * columns``.
    A subscriber (any hashable id, e.g. a unit) watches the regions its
    remaining route crosses; an edit marks the regions of its cells, and
    :meth:`collect` returns each subscriber of a marked region once, with the
    marked regions it watches. Subscribers of untouched regions never appear.
    """

    def __init__(self, width: int, height: int, region_size: int = 16):
        for name, value in (("width", width), ("height", height), ("region_size", region_size)):
            if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < 1:
                raise ValueError(f"{name} must be a positive int, got {value!r}")
        self.width, self.height, self.region_size = int(width), int(height), int(region_size)
        self.columns = -(-self.width // self.region_size)
        self.rows = -(-self.height // self.region_size)
        self.stats = WatcherStats()
        # Dicts used as ordered sets, so that collect() answers in the same order on every run.
        self._watchers: Dict[int, Dict[Subscriber, None]] = {}
        self._watched: Dict[Subscriber, FrozenSet[int]] = {}
        self._marked: Set[int] = set()

    def regions_of(self, cells: Iterable[Cell]) -> FrozenSet[int]:
        """The regions holding ``cells``; ValueError if one lies off the map."""
        return self._regions(*cells_inside(cells, self.width, self.height))

    def region_rect(self, region: int) -> Tuple[int, int, int, int]:
        """The cells of ``region`` as (x, y, width, height), as Godot's Rect2; cut at the map's edge."""
        if not 0 <= region < self.columns * self.rows:
            raise ValueError(f"region {region!r} is not one of the {self.columns * self.rows} regions")
        x = region % self.columns * self.region_size
        y = region // self.columns * self.region_size
        return x, y, min(self.region_size, self.width - x), min(self.region_size, self.height - y)

    def subscribe(self, subscriber: Subscriber, cells: Iterable[Cell], points: Iterable[Cell] = ()) -> None:
        """Watch the regions of route ``cells`` (a king-move path) and of ``points`` (single cells,
        such as key points still to reach), instead of what ``subscriber`` watched.

        The corner cells of diagonal steps count as crossed: blocking one
        makes the step illegal even when it lies in a region the route's
        cells do not touch.
        """
        regions = self._regions_crossed(
            cell_pairs(cells, self.width, self.height), cell_pairs(points, self.width, self.height)
        )
        old = self._watched.get(subscriber, frozenset())
        for region in old - regions:
            self._drop(region, subscriber)
        for region in regions - old:
            self._watchers.setdefault(region, {})[subscriber] = None
        if regions:
            self._watched[subscriber] = regions
        else:
            self._watched.pop(subscriber, None)

    def unsubscribe(self, subscriber: Subscriber) -> None:
        """Stop watching anything for ``subscriber``; unknown subscribers are ignored."""
        for region in self._watched.pop(subscriber, frozenset()):
            self._drop(region, subscriber)

    def watched(self, subscriber: Subscriber) -> FrozenSet[int]:
        """The regions ``subscriber`` watches (empty if none)."""
        return self._watched.get(subscriber, frozenset())

    def cells_changed(self, cells: Iterable[Cell]) -> None:
        """Mark the regions of edited cells (an obstacle came or went); cheap, call it on every edit."""
        self._marked |= self.regions_of(cells)

    def collect(self) -> Dict[Subscriber, FrozenSet[int]]:
        """Each subscriber of a region marked since the last call, with those of its regions; clears the marks.

        Call once per update: edits made between two calls reach each
        subscriber once, however many there were.
        """
        touched: Dict[Subscriber, Set[int]] = {}
        for region in sorted(self._marked):
            for subscriber in self._watchers.get(region, ()):
                touched.setdefault(subscriber, set()).add(region)
        self.stats.collects += 1
        self.stats.marked += len(self._marked)
        self.stats.notifications += len(touched)
        self._marked = set()
        return {subscriber: frozenset(regions) for subscriber, regions in touched.items()}

    def _drop(self, region: int, subscriber: Subscriber) -> None:
        watchers = self._watchers[region]
        del watchers[subscriber]
        if not watchers:
            del self._watchers[region]

    def _regions_crossed(self, route: List[Cell], points: List[Cell]) -> FrozenSet[int]:
        """The regions of the cells of ``route``, of the corner cells of its diagonal steps, and of ``points``
        (in a loop: a unit subscribes at every leg, a few dozen cells, too few for numpy's arrays to pay)."""
        size, columns = self.region_size, self.columns
        regions = {y // size * columns + x // size for x, y in route}
        regions.update(y // size * columns + x // size for x, y in points)
        for (ax, ay), (bx, by) in zip(route, route[1:]):
            if ax != bx and ay != by:  # the corners of a diagonal step (see diagonal_steps)
                regions.add(ay // size * columns + bx // size)
                regions.add(by // size * columns + ax // size)
        return frozenset(regions)

    def _regions(self, xs: np.ndarray, ys: np.ndarray) -> FrozenSet[int]:
        return frozenset((ys // self.region_size * self.columns + xs // self.region_size).tolist())


# -- path splicing (D2) -------------------------------------------------------------------------------


class SpliceStatus(Enum):
    SPLICED = "spliced"  #: a new route from the unit to the old goal, valid on the grid
    NOT_NEEDED = "not_needed"  #: nothing ahead is blocked: the route is returned unchanged
    FAILED = "failed"  #: no short local detour: re-plan the whole route


class SpliceResult(NamedTuple):
    """``cells`` runs from the unit's cell to the route's end (empty when FAILED); ``work`` is nodes expanded."""

    status: SpliceStatus
    cells: List[Cell]
    work: int


def first_blocked(grid: Grid, cells: Sequence[Cell], start: int = 0) -> Optional[int]:
    """The index of the first cell at or after ``start`` the route can no longer use, or None.

    A cell is unusable when it is blocked, or when the route enters it by a
    diagonal step whose corner is blocked (or by any diagonal step, on a
    4-connected grid). ``cells[start]`` itself is only checked for being
    blocked (the unit is already there).
    """
    xs, ys = _route_arrays(grid, cells[start:])
    passable = grid.passable
    unusable = ~passable[ys, xs]
    steps, (xs_a, ys_a), (xs_b, ys_b) = diagonal_steps(xs, ys)
    unusable[steps] |= ~(passable[ys_a, xs_a] & passable[ys_b, xs_b]) | (grid.connectivity == 4)
    if not unusable.any():
        return None
    return start + int(np.argmax(unusable))


def splice_path(
    grid: Grid, cells: Sequence[Cell], index: int, *, horizon: int = 16, max_stretch: float = 2.0
) -> SpliceResult:
    """Repair the route ahead of a unit standing at ``cells[index]`` by re-planning only around its blocks.

    For each blocked part ahead (see :func:`first_blocked`), a piece of the
    route is searched again inside a rectangle around its two ends, and the
    answer replaces it. The piece starts ``horizon // 2`` steps (at least
    one) before the block, or at the unit if that is nearer, and ends on the
    first cell past the block and at least ``horizon`` steps after the
    piece's start that the islands say is still reachable. The rectangle's margin admits every
    detour no longer than ``max_stretch`` times the replaced piece plus
    :data:`STRETCH_SLACK`, so FAILED means no such detour exists (or the
    route's end cannot be reached): seed 004's cue to re-plan in full rather
    than walk a bad splice.

    Parameters
    ----------
    grid : Grid
    cells : sequence of (x, y)
        The unit's route, a king-move path that was valid before the edits.
    index : int
        Where the unit stands on it.
    horizon : int
        Steps re-planned around a block (the seed's M): larger means better
        detours and more work.
    max_stretch : float
        How many times longer than the piece it replaces a detour may be
        (finite, >= 1).

    Returns
    -------
    SpliceResult
        ``work`` counts the nodes the bounded searches expanded.
    """
    if not isinstance(horizon, int) or horizon < 1:
        raise ValueError(f"horizon must be a positive int, got {horizon!r}")
    if not 1.0 <= max_stretch < math.inf:
        raise ValueError(f"max_stretch must be a finite number >= 1, got {max_stretch!r}")
    if not 0 <= index < len(cells):
        raise ValueError(f"index {index!r} is not on the route of {len(cells)} cells")
    route = [(int(x), int(y)) for x, y in cells[index:]]
    blocked = first_blocked(grid, route)
    if blocked is None:
        return SpliceResult(SpliceStatus.NOT_NEEDED, route, 0)
    work = 0
    done = 0  # route[:done + 1] is valid and is not re-planned again
    while blocked is not None:
        if blocked == 0:  # the unit's own cell: nothing to search from
            return SpliceResult(SpliceStatus.FAILED, [], work)
        first = max(done, blocked - max(horizon // 2, 1))
        last = _rejoin(grid, route, first, max(blocked + 1, first + horizon))
        if last is None:
            return SpliceResult(SpliceStatus.FAILED, [], work)
        detour, expanded = _detour(grid, route[first : last + 1], max_stretch)
        work += expanded
        if detour is None:
            return SpliceResult(SpliceStatus.FAILED, [], work)
        route[first : last + 1] = detour
        done = first + len(detour) - 1
        blocked = first_blocked(grid, route, done)
    return SpliceResult(SpliceStatus.SPLICED, route, work)


def _rejoin(grid: Grid, route: List[Cell], first: int, earliest: int) -> Optional[int]:
    """The first index from ``earliest`` (or the route's end, if sooner) whose cell can be reached from
    ``route[first]`` (a passable cell of the same island: the islands are kept, a search is not)."""
    for i in range(min(earliest, len(route) - 1), len(route)):
        if grid.same_island(route[first], route[i]):
            return i
    return None


def _detour(grid: Grid, piece: List[Cell], max_stretch: float) -> Tuple[Optional[List[Cell]], int]:
    """A shortest path between the piece's ends no longer than allowed (else None), and the nodes expanded.

    A path of length at most ``limit`` cannot leave the ends' bounding box by
    more than ``(limit - extent) / 2`` on an axis (each step moves at most one
    cell per axis), so that margin loses no admissible detour.
    """
    (x0, y0), (x1, y1) = piece[0], piece[-1]
    limit = max_stretch * path_cost(grid, piece) + STRETCH_SLACK
    margin_x = int(math.floor((limit - abs(x1 - x0)) / 2))
    margin_y = int(math.floor((limit - abs(y1 - y0)) / 2))
    corner = (min(x0, x1) - margin_x, min(y0, y1) - margin_y)
    size = (abs(x1 - x0) + 1 + 2 * margin_x, abs(y1 - y0) + 1 + 2 * margin_y)
    result = find_path(grid, piece[0], piece[-1], bounds=corner + size)
    if result.status is not PathStatus.FOUND or result.cost > limit + 1e-9:
        return None, result.expanded
    return result.cells, result.expanded


def _route_arrays(grid: Grid, cells: Sequence[Cell]) -> Tuple[np.ndarray, np.ndarray]:
    """The route as coordinate arrays; ValueError for cells off the grid or steps longer than a king move."""
    xs, ys = cells_inside(cells, grid.width, grid.height)
    jumps = np.maximum(np.abs(np.diff(xs)), np.abs(np.diff(ys))) > 1
    if jumps.any():
        i = int(np.argmax(jumps))
        raise ValueError(f"route step {i} from ({xs[i]}, {ys[i]}) to ({xs[i + 1]}, {ys[i + 1]}) is not a king move")
    return xs, ys
