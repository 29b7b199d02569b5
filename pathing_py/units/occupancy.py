"""Which unit holds which cell, found by cell or by neighbourhood (SPEC U3, U5, G4).

A unit holds the cell it stands in, the cell it moves into and, moving
diagonally, both corner cells. A unit of one cell lets go of the cell it
leaves as it starts its step (unless it is making way, or walking a jam's plan
whose window holds a unit wider than a cell: pushed units go back along the
cells they came by, in the order they were pushed, and the wide units, which
plans do not move, would take the cells freed early): the next unit
of a file may take it at once and follow, keeping clear of the leaver's circle
(:meth:`Occupancy.leavers`), so that a file walks on as one instead of each
unit waiting for the one ahead to arrive. A unit larger than a cell (size k, see
:func:`~pathing_py.clearance.size_class`) stands on the k x k block whose
top-left cell is its cell, and holds the blocks it stands on and moves
into, with the corners between: :func:`step_cells` covers both. Traffic rules ask who holds the cells of a
small window around a unit; a dict of all holders answers that only by
scanning every unit, so held cells are also kept in square buckets of
BUCKET_SIZE cells (a spatial hash): a window query reads the buckets it
overlaps, however many units the map holds.
"""

from typing import Callable, Container, Dict, Iterable, Iterator, List, Optional, Sequence, Set, Tuple

from ..grid import Cell
from .unit import Unit

__all__ = ["BUCKET_SIZE", "Occupancy", "block_cells", "step_cells"]

#: Side of the spatial hash's buckets, in cells: about the size of the windows traffic rules search.
BUCKET_SIZE = 8

Bucket = Tuple[int, int]


class Occupancy:
    """The cells units hold, by cell and by bucket."""

    def __init__(self) -> None:
        self._holder: Dict[Cell, Unit] = {}
        #: ``holder(cell)``: the unit holding ``cell``, if any. The dict's own ``get``, not a method around it:
        #: group steering asks it about the cells around members at every update (millions of times a run of
        #: bench_groups.py).
        self.holder: Callable[[Cell], Optional[Unit]] = self._holder.get
        self._buckets: Dict[Bucket, Dict[Cell, Unit]] = {}
        #: Cell -> the units stepping out of it: mostly one, but a small unit may follow one out and step
        #: back out again while the first still reaches into the cell.
        self._leavers: Dict[Cell, List[Unit]] = {}
        #: Cells units asleep wait on, and what to tell as one of them is taken or let go (see :meth:`watch`).
        self._watched: Container[Cell] = ()
        self._changed: Callable[[Cell], None] = _ignore

    def watch(self, cells: Container[Cell], changed: Callable[[Cell], None]) -> None:
        """Call ``changed`` with each of ``cells`` (a live container: the watcher keeps it) as it is taken or let go:
        the event that wakes units waiting on it (see :mod:`.wakeups`)."""
        self._watched, self._changed = cells, changed

    def __contains__(self, cell: Cell) -> bool:
        return cell in self._holder

    def __len__(self) -> int:
        return len(self._holder)

    def items(self) -> Iterator[Tuple[Cell, Unit]]:
        """Every held cell and its holder: for searches of the whole map."""
        return iter(self._holder.items())

    def holders_of(self, cells: Iterable[Cell], unit: Unit) -> Set[Unit]:
        """The units other than ``unit`` holding any of ``cells``."""
        return {holder for holder in map(self._holder.get, cells) if holder is not None and holder is not unit}

    def hold(self, unit: Unit, cells: Iterable[Cell]) -> None:
        """``unit`` holds ``cells`` from now on (the caller checked they were free)."""
        held = unit.held
        for cell in cells:
            if cell in held:  # (the cell a unit steps out of, at every step: it holds it already)
                continue
            self._holder[cell] = unit
            key = cell[0] // BUCKET_SIZE, cell[1] // BUCKET_SIZE  # (its bucket: every step comes here)
            bucket = self._buckets.get(key)
            if bucket is None:
                bucket = self._buckets[key] = {}
            bucket[cell] = unit
            held.add(cell)
            if cell in self._watched:
                self._changed(cell)

    def release(self, unit: Unit, keep: Iterable[Cell] = ()) -> None:
        """Let go of every cell ``unit`` holds but those of ``keep``."""
        kept = set(keep)
        for cell in unit.held - kept:
            self._let_go(cell)
        unit.held &= kept

    def arrived(self, unit: Unit, left: Cell, block: List[Cell]) -> None:
        """``unit`` stands on ``block`` (cells it holds), having stepped out of ``left``: no part of it is in
        ``left`` any more (:meth:`left`), and it lets go of every other cell of its step. (Every unit comes here at
        every cell it reaches: one that let go of its cell as it set off straight holds only ``block`` by now,
        and needs no sets built.)"""
        self.left(unit, left)
        held = unit.held
        if len(held) > len(block):  # (it holds ``block``: more cells are those of its step)
            for cell in held.difference(block):
                self._let_go(cell)
            held.intersection_update(block)

    def leave(self, unit: Unit, cell: Cell) -> None:
        """``unit`` lets go of ``cell``, which it is stepping out of; until it has arrived (:meth:`left`)
        its circle may still reach into the cell, and whoever takes the cell keeps clear of it."""
        if cell in unit.held:
            self._let_go(cell)
            unit.held.discard(cell)
        self._leavers.setdefault(cell, []).append(unit)

    def left(self, unit: Unit, cell: Cell) -> None:
        """``unit`` has arrived in its next cell: no part of it is in ``cell`` any more."""
        leavers = self._leavers.get(cell)
        if leavers is not None and unit in leavers:
            leavers.remove(unit)
            if not leavers:
                del self._leavers[cell]

    def _let_go(self, cell: Cell) -> None:
        """No unit holds ``cell`` any more."""
        del self._holder[cell]
        key = cell[0] // BUCKET_SIZE, cell[1] // BUCKET_SIZE  # (its bucket: every step comes here)
        bucket = self._buckets[key]
        del bucket[cell]
        if not bucket:
            del self._buckets[key]
        if cell in self._watched:
            self._changed(cell)

    def leavers(self, cell: Cell) -> Sequence[Unit]:
        """The units still stepping out of ``cell`` (a cell no unit holds may still be theirs), oldest first."""
        return self._leavers.get(cell, ())

    def leavers_of(self, cells: Iterable[Cell], unit: Unit) -> List[Tuple[Cell, Unit]]:
        """(cell, leaver) for each unit other than ``unit`` still stepping out of one of ``cells``."""
        return [(cell, leaver) for cell in cells for leaver in self._leavers.get(cell, ()) if leaver is not unit]

    def held_in(self, left: int, top: int, right: int, bottom: int) -> Iterator[Tuple[Cell, Unit]]:
        """The held cells with ``left <= x < right`` and ``top <= y < bottom``, and their holders."""
        for bx in range(left // BUCKET_SIZE, (right - 1) // BUCKET_SIZE + 1):
            for by in range(top // BUCKET_SIZE, (bottom - 1) // BUCKET_SIZE + 1):
                for cell, unit in self._buckets.get((bx, by), {}).items():
                    if left <= cell[0] < right and top <= cell[1] < bottom:
                        yield cell, unit

    def units_near(self, cell: Cell, reach: int) -> Iterator[Unit]:
        """Each unit holding a cell at most ``reach`` cells from ``cell`` along x and along y, once, by id."""
        x, y = cell
        found = {unit.id: unit for _, unit in self.held_in(x - reach, y - reach, x + reach + 1, y + reach + 1)}
        return iter([found[unit_id] for unit_id in sorted(found)])


def _ignore(cell: Cell) -> None:
    """No one watches cells."""


def block_cells(cell: Cell, size: int) -> List[Cell]:
    """The cells of the ``size`` x ``size`` block whose top-left cell is ``cell``."""
    x, y = cell
    if size == 1:  # (most units: every step of theirs comes here)
        return [(x, y)]
    return [(x + i, y + j) for j in range(size) for i in range(size)]


def step_cells(start: Cell, end: Cell, size: int) -> List[Cell]:
    """The cells a unit of ``size`` holds stepping from ``start`` to the king neighbour ``end``: the box
    around both blocks (for size 1 and a diagonal step: both cells and the two corners between)."""
    (sx, sy), (ex, ey) = start, end
    if size == 1 and (sx == ex) != (sy == ey):  # (a straight step of a unit of one cell: most steps)
        return [start, end] if sx < ex or sy < ey else [end, start]
    xs = range(sx, ex + size) if sx <= ex else range(ex, sx + size)  # (every step of every unit comes here)
    ys = range(sy, ey + size) if sy <= ey else range(ey, sy + size)
    return [(x, y) for y in ys for x in xs]
