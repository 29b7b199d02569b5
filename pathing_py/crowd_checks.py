"""The invariants of a crowd of circles, checked at once for every unit: no two overlap, none reaches into a wall.

Quick start::

    >>> import numpy as np
    >>> from pathing_py.crowd_checks import overlapping_pairs, units_in_walls
    >>> positions = np.array([[0.5, 0.5], [1.2, 0.5], [3.5, 0.5]])
    >>> radii = np.array([0.5, 0.5, 0.5])
    >>> overlapping_pairs(positions, radii).tolist()
    [[0, 1]]
    >>> passable = np.array([[True, True, True, False]])
    >>> units_in_walls(passable, positions, radii).tolist()
    [2]

Benchmarks and tests call these after every tick for 1,000 units, so both
are numpy throughout: candidate pairs come from buckets as wide as the
largest circle (a sort and binary searches), never from all pairs. Circles
may touch: a pair overlaps when its centres are closer than ``slack`` times
the sum of its radii (by default, overlapping by more than 1% of that sum),
and a unit is in a wall when a blocked cell, or the outside of the map, lies
closer to its centre than ``slack`` times its radius.

This module imports nothing from the package, so that a benchmark can load it
beside an older pathing_py to check that version's units the same way.
"""

from typing import Tuple

import numpy as np

__all__ = ["OVERLAP_SLACK", "overlapping_pairs", "units_in_walls"]

#: Circles closer than this fraction of their radius sum overlap (SPEC U5 allows 1%).
OVERLAP_SLACK = 0.99

#: The bucket neighbours that hold every pair once: the bucket itself, then half of the 8 around it.
_HALF_NEIGHBOURHOOD = ((0, 0), (1, -1), (1, 0), (1, 1), (0, 1))


def overlapping_pairs(positions, radii, slack: float = OVERLAP_SLACK) -> np.ndarray:
    """The pairs ``(i, j)``, ``i < j``, closer than ``slack * (radii[i] + radii[j])``: an (k, 2) int array, sorted."""
    points, sizes = _circles(positions, radii)
    if not 0 < slack <= 1:
        raise ValueError(f"slack must be in (0, 1], got {slack!r}")
    if len(points) < 2:
        return np.zeros((0, 2), dtype=np.int64)
    side = 2.0 * float(sizes.max())  # a pair that overlaps lies in one bucket or two neighbouring ones
    buckets = np.floor(points / side).astype(np.int64)
    buckets -= buckets.min(axis=0) - 1  # columns and rows from 1: neighbours at -1 stay >= 0
    column_height = int(buckets[:, 1].max()) + 2  # one spare row each side, so a row step never wraps a column
    keys = buckets[:, 0] * column_height + buckets[:, 1]
    order = np.argsort(keys, kind="stable")
    sorted_keys = keys[order]
    found = []
    for dx, dy in _HALF_NEIGHBOURHOOD:
        first, second = _bucket_pairs(keys + dx * column_height + dy, sorted_keys, order)
        if (dx, dy) == (0, 0):
            keep = first < second
            first, second = first[keep], second[keep]
        gap = points[first] - points[second]
        reach = slack * (sizes[first] + sizes[second])
        close = np.einsum("ij,ij->i", gap, gap) < reach * reach
        found.append(np.stack([first[close], second[close]], axis=1))
    pairs = np.sort(np.concatenate(found), axis=1)
    return pairs[np.lexsort((pairs[:, 1], pairs[:, 0]))]


def units_in_walls(passable, positions, radii, slack: float = OVERLAP_SLACK) -> np.ndarray:
    """The indices of the units whose circle, shrunk to ``slack`` times its radius, meets a blocked cell
    or leaves the map.

    ``passable[y, x]`` is the map (a :attr:`pathing_py.Grid.passable`); cell
    (x, y) covers [x, x + 1) x [y, y + 1).
    """
    passable = np.asarray(passable)
    if passable.ndim != 2 or passable.dtype != bool:
        raise ValueError(f"passable must be a 2-D bool array, got {passable.dtype} of shape {passable.shape}")
    points, sizes = _circles(positions, radii)
    if not 0 < slack <= 1:
        raise ValueError(f"slack must be in (0, 1], got {slack!r}")
    if len(points) == 0:
        return np.zeros(0, dtype=np.int64)
    reach = int(np.ceil(float(sizes.max())))  # the cells a circle can meet lie this many cells around its own
    height, width = passable.shape
    cells = np.floor(points).astype(np.int64)
    offsets = np.arange(-reach, reach + 1)
    xs = cells[:, 0, None, None] + offsets[None, None, :]  # (units, 1, around)
    ys = cells[:, 1, None, None] + offsets[None, :, None]  # (units, around, 1)
    near_x = np.clip(points[:, 0, None, None], xs, xs + 1) - points[:, 0, None, None]
    near_y = np.clip(points[:, 1, None, None], ys, ys + 1) - points[:, 1, None, None]
    inside = near_x * near_x + near_y * near_y < (slack * sizes[:, None, None]) ** 2
    on_map = (xs >= 0) & (xs < width) & (ys >= 0) & (ys < height)
    free = on_map & passable[np.clip(ys, 0, height - 1), np.clip(xs, 0, width - 1)]
    return np.flatnonzero((inside & ~free).any(axis=(1, 2)))


def _circles(positions, radii) -> Tuple[np.ndarray, np.ndarray]:
    """Positions as an (n, 2) float array and radii as (n,), checked: finite positions, positive finite radii."""
    points = np.asarray(positions, dtype=np.float64)
    sizes = np.asarray(radii, dtype=np.float64)
    if points.ndim != 2 or points.shape[1] != 2:
        raise ValueError(f"positions must be an (n, 2) array, got shape {points.shape}")
    if sizes.shape != (len(points),):
        raise ValueError(f"radii must have one value per position ({len(points)}), got shape {sizes.shape}")
    if not np.isfinite(points).all():
        raise ValueError(f"position {int(np.flatnonzero(~np.isfinite(points).all(axis=1))[0])} is not finite")
    if not (np.isfinite(sizes).all() and (sizes > 0).all()):
        raise ValueError(
            f"radius {int(np.flatnonzero(~(np.isfinite(sizes) & (sizes > 0)))[0])} is not a positive number"
        )
    return points, sizes


def _bucket_pairs(wanted: np.ndarray, sorted_keys: np.ndarray, order: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Every (unit i, unit j) with j in the bucket ``wanted[i]``: two index arrays."""
    low = np.searchsorted(sorted_keys, wanted, side="left")
    counts = np.searchsorted(sorted_keys, wanted, side="right") - low
    first = np.repeat(np.arange(len(wanted)), counts)
    starts = np.cumsum(counts) - counts  # where each unit's run begins among the pairs
    within = np.arange(int(counts.sum())) - np.repeat(starts, counts)
    return first, order[np.repeat(low, counts) + within]
