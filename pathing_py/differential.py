"""Differential heuristics for the exact search on cluttered grids (landmark distances in numpy).

On a map strewn with small obstacles (random512-10-0) every shortest path is a
few percent longer than the octile distance, and A* (JPS+ as well) expands
every node whose octile estimate hides that: a wide band around long paths.
The distance ``d(L, n)`` from a landmark ``L`` bounds the distance between
any two cells from below, ``d(n, goal) >= |d(L, goal) - d(L, n)|`` (the
triangle inequality), and that bound is nearly exact where the path runs
away from or towards the landmark. The search takes the larger of the octile
distance and the bounds of the two or three landmarks that bound this query
best (those better than the octile distance at the start), an admissible
and consistent estimate, so paths stay optimal.

Landmarks are the free cells nearest to 32 points around the map's border (:data:`BORDER_PARTS`); their
distance maps are computed with numpy by sweeps over the rows and the columns, down and up, until nothing
changes (a few sweeps: rows in numpy, the pull along each row by a prefix minimum). They are worth it only
on cluttered maps (:func:`worth_landmarks`); edits make them stale, and the search goes on
with the octile distance alone until they are computed again, once its searches
have paid for them (:data:`LANDMARK_REPAY`).
"""

import math
from typing import List, Tuple

import numpy as np

__all__ = [
    "BORDER_PARTS", "CORNER_SHARE", "LANDMARK_REPAY", "MARGIN", "Landmarks", "PER_QUERY", "STEP", "UNREACHED",
    "USEFUL_SHARE", "distance_map", "distance_maps", "worth_landmarks",
]  # fmt: skip

SQRT2 = math.sqrt(2.0)

#: Landmarks are computed where at least this share of the free cells sit diagonally off an obstacle's
#: convex corner (random512-10-0 over 0.2, 8room_000 0.05 to 0.1; the other benchmark maps under 0.05).
CORNER_SHARE = 0.05

#: Distances are kept in steps of this much, rounded down, as uint16 (a quarter of the memory of
#: float64): up to 65,534 steps, 8,191 cells. A landmark whose distances reach further is left out.
STEP = 0.125
UNREACHED = 65535  #: the stored distance of cells the landmark cannot reach

#: The bounds are lowered by this much: one step for rounding the two distances down, and more than
#: the sweeps' rounding (an estimate must never exceed the true distance).
MARGIN = STEP + 1e-3

#: A landmark is read for a query when it bounds its distance at the start better than this share of
#: the octile distance: one a little short of it at the start may still bound better further on, where
#: the octile distance falls behind (3 landmarks a query cost mid-length queries more reads than they
#: save expansions).
USEFUL_SHARE = 0.9

#: Each side of the border is cut into this many parts, a landmark at each cut. The octile distance is
#: linear within each of its eight octants, so a landmark behind the start (or beyond the goal) in the
#: query's octant bounds every distance to the goal nearly exactly: the more cuts, the likelier a query
#: finds one (a landmark costs 2 bytes a cell and one more distance map to sweep).
BORDER_PARTS = 8

#: After an edit drops them, the landmarks are computed again once the searches since have expanded
#: this many nodes per free cell (about what the sweeps cost).
LANDMARK_REPAY = 4.0

#: A sweep that lowers no distance by more than this ends the sweeps (rounding, not a shorter path).
SETTLED = 1e-6

#: Distance maps computed together (each numpy call of the sweeps does their rows at once): fewer make more
#: calls, more hold more memory (three float64 copies of the grid a map alive at once: the maps, the sweep's
#: copy, the turned copy) for no further gain on a cluttered 512x512 map.
SOURCES_AT_ONCE = 8

#: Landmarks a query reads: those that bound its start-goal distance best.
PER_QUERY = 2


def worth_landmarks(padded: np.ndarray) -> bool:
    """Whether a padded grid is cluttered: :data:`CORNER_SHARE` of its free cells next to a convex corner."""
    free = padded[1:-1, 1:-1]
    height, width = free.shape
    corners = np.zeros(free.shape, dtype=bool)
    for dx in (-1, 1):
        for dy in (-1, 1):
            diagonal = padded[1 + dy : 1 + dy + height, 1 + dx : 1 + dx + width]
            beside = padded[1 : 1 + height, 1 + dx : 1 + dx + width] & padded[1 + dy : 1 + dy + height, 1 : 1 + width]
            corners |= free & ~diagonal & beside
    count = int(np.count_nonzero(free))
    return count > 0 and int(np.count_nonzero(corners)) >= CORNER_SHARE * count


class _Sweeps:
    """Passes over the rows of a padded grid, down then up, each row pulling from the row before it
    (straight and diagonal steps under the corner rule) and then along itself both ways; for the
    distances from several sources at once (axis 0), so that each numpy call does all of them."""

    def __init__(self, padded: np.ndarray, far: float):
        inf = math.inf
        above, below = padded[:-1], padded[1:]
        both = above & below
        # Steps between rows y - 1 and y (their cost, inf where not allowed), at index y - 1: straight, and
        # diagonal between (y - 1, x - 1) and (y, x) (at [y - 1, x - 1]) or (y - 1, x + 1) and (y, x) (at [y - 1, x]).
        self.straight = np.where(both, 1.0, inf)
        self.diagonal = np.where(both[:, 1:] & both[:, :-1], SQRT2, inf)
        self.blocked = ~padded
        width = padded.shape[1]
        columns = np.arange(width, dtype=np.float64)
        # Cells apart by a blocked cell must not pull each other: each run of free cells sits in its own
        # band of values, far enough apart for the prefix minimum never to reach across.
        runs = np.cumsum(self.blocked, axis=1) * (far + 2.0 * width + 1.0)
        self.forward = -columns - runs
        self.backward = columns + runs
        self.far = far

    def run(self, distance: np.ndarray) -> None:
        """One pass down and one up over ``distance`` (sources, rows, columns; in place)."""
        height = distance.shape[1]
        straight, diagonal = self.straight, self.diagonal
        for y in range(1, height):
            row, previous = distance[:, y], distance[:, y - 1]
            np.minimum(row, previous + straight[y - 1], out=row)
            np.minimum(row[:, 1:], previous[:, :-1] + diagonal[y - 1], out=row[:, 1:])
            np.minimum(row[:, :-1], previous[:, 1:] + diagonal[y - 1], out=row[:, :-1])
            self._along(row, y)
        for y in range(height - 2, -1, -1):
            row, previous = distance[:, y], distance[:, y + 1]
            np.minimum(row, previous + straight[y], out=row)
            np.minimum(row[:, :-1], previous[:, 1:] + diagonal[y], out=row[:, :-1])
            np.minimum(row[:, 1:], previous[:, :-1] + diagonal[y], out=row[:, 1:])
            self._along(row, y)

    def _along(self, row: np.ndarray, y: int) -> None:
        """Pull along row y both ways (one step costs 1), then put its blocked cells back to ``far``."""
        forward, backward = self.forward[y], self.backward[y]
        np.minimum(row, np.minimum.accumulate(row + forward, axis=1) - forward, out=row)
        np.minimum(row, np.minimum.accumulate((row + backward)[:, ::-1], axis=1)[:, ::-1] - backward, out=row)
        np.copyto(row, self.far, where=self.blocked[y])


def distance_maps(padded: np.ndarray, sources: List[Tuple[int, int]]) -> np.ndarray:
    """Shortest-path lengths from each padded cell of ``sources`` (row, column) to every cell of a padded
    grid, under the corner rule, as an array (source, row, column); ``inf`` on blocked and unreachable
    cells. Sweeps over the rows and over the columns in turn until a pass changes nothing (a path that
    winds needs a few)."""
    far = 4.0 * sum(padded.shape)  # more than any distance: stands for "not reached yet" in the sweeps
    by_rows, by_columns = _Sweeps(padded, far), _Sweeps(np.ascontiguousarray(padded.T), far)
    distance = np.full((len(sources),) + padded.shape, far)
    for i, (y, x) in enumerate(sources):
        distance[i, y, x] = 0.0
    turned = False  # whether ``distance`` is (source, column, row)
    while len(sources):
        before = distance.copy()
        (by_columns if turned else by_rows).run(distance)
        if _settled(before, distance):
            break
        distance, turned = np.ascontiguousarray(distance.transpose(0, 2, 1)), not turned
    if turned:
        distance = np.ascontiguousarray(distance.transpose(0, 2, 1))
    distance[distance >= far] = math.inf
    return distance


def _settled(before: np.ndarray, after: np.ndarray) -> bool:
    """Whether a pass lowered no distance beyond rounding (the pulls along rows add and take back).

    A pass tries every step of the grid (straight and diagonal, both ways), so
    one that lowers nothing leaves the shortest distances: the next pass, the
    other way round, would only confirm them (so stopping there saves the passes that would).
    """
    return bool(np.max(before - after) <= SETTLED)


def distance_map(padded: np.ndarray, source: Tuple[int, int]) -> np.ndarray:
    """:func:`distance_maps` from one source."""
    return distance_maps(padded, [source])[0]


class Landmarks:
    """The distance maps of a padded grid's landmarks (in :data:`STEP` units, uint16), read one entry at a
    time through memoryviews."""

    def __init__(self, padded: np.ndarray):
        self.maps: List[np.ndarray] = []
        places = self._places(padded)
        for first in range(0, len(places), SOURCES_AT_ONCE):  # a few at a time: not all of them in float64
            for distance in distance_maps(padded, places[first : first + SOURCES_AT_ONCE]):
                reached = np.isfinite(distance)
                steps = np.floor((distance[reached] - 1e-6) / STEP)
                if len(steps) and steps.max() < UNREACHED:  # else too far for uint16: left out
                    stored = np.full(padded.shape, UNREACHED, dtype=np.uint16)
                    stored[reached] = np.maximum(steps, 0)
                    self.maps.append(stored)
        self.rows = [array.reshape(-1).data for array in self.maps]

    @staticmethod
    def _places(padded: np.ndarray) -> List[Tuple[int, int]]:
        """The free cells nearest to the corners and the cuts of the sides into :data:`BORDER_PARTS` parts (row,
        column), without repeats (none when no cell is free)."""
        ys, xs = np.nonzero(padded)
        height, width = padded.shape
        places: List[Tuple[int, int]] = []
        if len(ys) == 0:
            return places
        rows = [height * i // BORDER_PARTS for i in range(BORDER_PARTS)] + [height - 1]
        columns = [width * i // BORDER_PARTS for i in range(BORDER_PARTS)] + [width - 1]
        for y in rows:
            for x in columns:
                if y in (0, height - 1) or x in (0, width - 1):
                    nearest = int(np.argmin(np.abs(ys - y) + np.abs(xs - x)))
                    places.append((int(ys[nearest]), int(xs[nearest])))
        return sorted(set(places))

    def for_query(self, source: int, target: int, estimate: float) -> List[Tuple[memoryview, int]]:
        """The rows that bound the distance from ``source`` to ``target`` (flat padded indices) better than
        :data:`USEFUL_SHARE` of ``estimate`` (the octile distance), best first, at most :data:`PER_QUERY`,
        each with its stored distance at the target: none where they would only cost the search their reads.
        A row's bound at a cell is ``abs(row[cell] - at_target) * STEP - MARGIN``."""
        bounds = []
        for row in self.rows:
            at_target = row[target]
            bound = abs(row[source] - at_target) * STEP - MARGIN
            if at_target != UNREACHED and bound > USEFUL_SHARE * estimate:
                bounds.append((bound, row, at_target))
        bounds.sort(key=lambda entry: -entry[0])
        return [(row, at_target) for _, row, at_target in bounds[:PER_QUERY]]
