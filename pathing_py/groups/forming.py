"""Which unit takes which slot when a group forms (SPEC F3).

Quick start::

    >>> import numpy as np
    >>> from pathing_py.groups import Formation, assign_slots, slot_cells
    >>> slots, usable = slot_cells(Formation.line(3), (5.5, 5.5), (0, -1), np.ones((10, 10), dtype=bool))
    >>> slots.tolist()
    [[4, 5], [5, 5], [6, 5]]
    >>> units = np.array([[0, 0], [5, 9], [9, 5], [8, 8]])
    >>> slot_units, unslotted = assign_slots(slots, usable, (5.5, 5.5), units, np.ones(4))
    >>> slot_units.tolist(), unslotted.tolist()
    ([2, 1, 3], [0])

The order is F3's: repeatedly the free usable slot nearest the centre (the
lowest slot index among equals) goes to the unit left that reaches it
soonest: grid distance (:func:`pathing_py.search.grid_distances`, the
walls left out) over its speed. Distances and times equal to
:data:`TIE_DECIMALS` decimals are equal. Among units as soon, the one with the fewest other
units standing in its way takes it (units whose cell centres lie less than
1 cell from the straight line between its cell and the slot's: two units
half a cell wide would touch there), then the lowest unit index. So the
middle fills first and a formation with too few units is short at its
edges; units left over get no slot.

The work is one (slots x units) numpy array of times, sorted per slot, and
a Python loop over the slots that reads it as lists; the units in each
other's way are counted only among units as soon.
"""

from typing import Tuple

import numpy as np

from ..grid import check_connectivity
from ..search import grid_distances
from .formations import as_point

__all__ = ["IN_THE_WAY", "TIE_DECIMALS", "assign_slots"]

#: Slots' distances from the centre and times to reach them (cells / speed) are compared rounded to this many
#: decimals, so float noise (a centre 1e-16 off a cell's edge) makes no order.
TIE_DECIMALS = 9
#: Cell centres closer than this to a unit's straight line to its slot are in its way (two half-cell-wide units touch).
IN_THE_WAY = 1.0


def assign_slots(
    slots, usable, centre, unit_cells, unit_speeds, *, connectivity: int = 8
) -> Tuple[np.ndarray, np.ndarray]:
    """The unit sent to each slot as a formation forms, in F3's order (see the module docstring).

    Parameters
    ----------
    slots : (n, 2) int array
        The slots' cells (x, y), as :func:`~pathing_py.groups.slot_cells` gives them.
    usable : (n,) bool array
        Which slots may be taken; the others stay empty.
    centre : (x, y) floats
        The formation's centre (a position: cell (x, y)'s centre is (x + 0.5, y + 0.5)).
    unit_cells : (m, 2) int array
        The cell each unit stands in.
    unit_speeds : (m,) float array
        Each unit's speed, cells per second, > 0.
    connectivity : 8 or 4
        The grid's (:attr:`pathing_py.Grid.connectivity`): how distances are measured.

    Returns
    -------
    slot_units : (n,) int array
        For each slot the index of the unit sent there, or -1.
    unslotted : int array
        The indices of the units that got no slot (more units than usable
        slots), in increasing order.
    """
    slots = _cells(slots, "slots")
    usable = _mask(usable, len(slots))
    centre_point = np.array(as_point(centre, "centre"))
    units = _cells(unit_cells, "unit_cells")
    speeds = _speeds(unit_speeds, len(units))
    connectivity = check_connectivity(connectivity)
    candidates = np.flatnonzero(usable)
    from_centre = np.round(np.linalg.norm(slots[candidates] + 0.5 - centre_point, axis=1), TIE_DECIMALS)
    filled = candidates[np.argsort(from_centre, kind="stable")][: len(units)]  # the nearest, as many as there are units
    times = np.round(grid_distances(slots[filled, None, :], units[None, :, :], connectivity) / speeds, TIE_DECIMALS)
    soonest_first = np.argsort(times, axis=1, kind="stable")  # per slot: units by time, then by index
    slot_units = np.full(len(slots), -1, dtype=np.int64)
    waiting = [True] * len(units)  # a list: read one unit at a time in the loop
    rows = zip(filled.tolist(), soonest_first.tolist(), np.take_along_axis(times, soonest_first, axis=1).tolist())
    for slot, by_time, sorted_times in rows:
        first = next(k for k, unit in enumerate(by_time) if waiting[unit])
        soonest = [
            unit
            for unit, time in zip(by_time[first:], sorted_times[first:])
            if time == sorted_times[first] and waiting[unit]
        ]
        if len(soonest) > 1:  # already by index: argsort is stable
            unit = soonest[int(np.argmin(_units_in_the_way(units, np.array(soonest), slots[slot])))]
        else:
            unit = soonest[0]
        slot_units[slot] = unit
        waiting[unit] = False
    return slot_units, np.flatnonzero(waiting)


def _units_in_the_way(units: np.ndarray, movers: np.ndarray, target: np.ndarray) -> np.ndarray:
    """For each unit of ``movers``: how many other units stand within :data:`IN_THE_WAY` of its straight
    line to ``target``."""
    starts = units[movers].astype(np.float64)
    path = target - starts  # (movers, 2)
    standing = units[None, :, :] - starts[:, None, :]  # (movers, units, 2), from each mover
    length_squared = np.einsum("mk,mk->m", path, path)
    along = np.einsum("muk,mk->mu", standing, path) / np.where(length_squared > 0, length_squared, 1.0)[:, None]
    nearest = np.clip(along, 0.0, 1.0)[:, :, None] * path[:, None, :]
    close = np.einsum("muk,muk->mu", standing - nearest, standing - nearest) < IN_THE_WAY**2
    close[np.arange(len(movers)), movers] = False  # a unit is not in its own way
    return close.sum(axis=1)


def _cells(cells, name: str) -> np.ndarray:
    """``cells`` as an (n, 2) int64 array; TypeError for numbers that are not whole, ValueError for another shape."""
    array = np.asarray(cells)
    if array.shape in ((0,), (0, 2)):  # none, as [] or as an empty array
        return np.zeros((0, 2), dtype=np.int64)
    if array.dtype == bool or not np.issubdtype(array.dtype, np.integer):
        raise TypeError(f"{name} must be cells: an (n, 2) array of ints, got dtype {array.dtype}")
    if array.ndim != 2 or array.shape[1] != 2:
        raise ValueError(f"{name} must be an (n, 2) array of cells, got shape {array.shape}")
    return array.astype(np.int64)


def _mask(usable, count: int) -> np.ndarray:
    array = np.asarray(usable)
    if array.dtype != bool:
        raise TypeError(f"usable must be a bool array, got dtype {array.dtype}")
    if array.shape != (count,):
        raise ValueError(f"usable must have one flag per slot ({count}), got shape {array.shape}")
    return array


def _speeds(speeds, count: int) -> np.ndarray:
    try:
        array = np.asarray(speeds, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"unit_speeds must be an array of numbers, got {speeds!r}") from None
    if array.shape != (count,):
        raise ValueError(f"unit_speeds must have one speed per unit ({count}), got shape {array.shape}")
    fine = np.isfinite(array) & (array > 0)
    if not fine.all():
        unit = int(np.argmin(fine))
        raise ValueError(f"unit_speeds must be finite and > 0 (cells per second), unit {unit} has {array[unit]}")
    return array
