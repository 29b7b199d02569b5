"""Islands (SPEC G3): connected regions of passable cells, labelled once and kept right through edits.

Under the corner rule (:func:`pathing_py.grid.corner_offsets`) a diagonal step
needs both orthogonal cells free, so two cells are connected by king moves
exactly when they are connected by orthogonal moves: islands are the
4-connected components.

Labelling is numpy only (Godot's embedded Python has numpy, not scipy): cells
are grouped into horizontal runs, runs that touch vertically are joined by
hooking and pointer jumping until the labels stop changing.

An edit costs what it changes, not the map (issues 11, 39). :class:`IslandLabels`
stores *raw* numbers per cell and a small union-find over them, so freeing
cells that join islands writes the freed cells and one entry per joined
island. Blocking can only cut an island next to the blocked cells: floods
from the cells beside them grow in turn, one cell each, merging where they
meet, until at most one is still growing; each flood that ran out of cells
encloses a piece, which gets a number of its own. That costs about the
pieces cut off times the number of floods, whatever the size of the rest.
Only an island the floods cannot settle within a budget is labelled again
in full (its bounding box).
"""

from collections import deque
from typing import Dict, List, Optional, Set, Tuple

import numpy as np

__all__ = ["IslandLabels", "label_islands", "FLOOD_SHARE", "FLOOD_MIN"]

#: The floods settling one island after cells were blocked stop after max(FLOOD_MIN, cells of the
#: map // FLOOD_SHARE) cells; past that, labelling the island again with numpy is the cheaper way
#: (a flooded cell costs about ten labelled ones; the cuts of bench/bench_edits.py on maze512-1-0 cut
#: off a few dozen cells at the median and a few thousand at worst).
FLOOD_SHARE = 16
FLOOD_MIN = 512

# The four orthogonal steps (dx, dy).
_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))
# Half of the eight king steps: enough to find each pair of touching cells once.
_HALF_KING = ((1, 0), (-1, 1), (0, 1), (1, 1))


def label_islands(passable: np.ndarray, row_contacts: Optional[np.ndarray] = None) -> Tuple[np.ndarray, int]:
    """Label the 4-connected components of ``passable``.

    Returns ``(labels, count)``: ``labels[y, x]`` is 0 on blocked cells and
    1..count on passable ones, numbered in row-major order of each island's
    first cell, so the same map always gets the same labels.

    ``row_contacts`` (one of -1 or +1 per row) joins each cell (x, y) to
    (x + row_contacts[y], y + 1) as well: the rows of a half-offset map, each
    touching two cells of the next row (:func:`pathing_py.hex_grid.hex_islands`).
    """
    passable = np.asarray(passable, dtype=bool)
    height, width = passable.shape
    if row_contacts is not None and (np.shape(row_contacts) != (height,) or not np.isin(row_contacts, (-1, 1)).all()):
        raise ValueError(f"row_contacts must hold -1 or +1 for each of the {height} rows, got {row_contacts!r}")
    labels = np.zeros((height, width), dtype=np.int32)
    if not passable.any():
        return labels, 0
    flat = passable.ravel()
    # A run starts at a passable cell whose left neighbour is blocked or off the row.
    starts = flat.copy()
    starts[1:] &= ~flat[:-1]
    starts[::width] = flat[::width]
    run_of_cell = np.cumsum(starts) - 1  # run index of every passable cell
    run_count = int(starts.sum())

    # Vertical contacts between runs of consecutive rows.
    below = flat[width:] & flat[:-width]
    uppers, lowers = [np.flatnonzero(below)], [np.flatnonzero(below) + width]
    if row_contacts is not None:
        for offset in (-1, 1):
            rows = np.flatnonzero(np.asarray(row_contacts[:-1]) == offset)
            columns = np.arange(max(0, -offset), width - max(0, offset))
            upper = (rows[:, None] * width + columns[None, :]).ravel()
            upper = upper[flat[upper] & flat[upper + width + offset]]
            uppers.append(upper)
            lowers.append(upper + width + offset)
    parent = _join(run_count, run_of_cell[np.concatenate(uppers)], run_of_cell[np.concatenate(lowers)])

    # Roots are the smallest run index of each island: number them in order.
    roots = np.unique(parent)
    island_of_run = np.searchsorted(roots, parent).astype(np.int32) + 1
    labels.ravel()[flat] = island_of_run[run_of_cell[flat]]
    return labels, len(roots)


def _join(count: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """For ``count`` nodes joined by the pairs (a[i], b[i]): each node's root, the smallest node of its group."""
    parent = np.arange(count, dtype=np.int64)
    while True:
        root_a = parent[a]
        root_b = parent[b]
        differ = root_a != root_b
        if not differ.any():
            return parent
        high = np.maximum(root_a[differ], root_b[differ])
        low = np.minimum(root_a[differ], root_b[differ])
        np.minimum.at(parent, high, low)
        while True:  # pointer jumping until every node points at its root
            jumped = parent[parent]
            if np.array_equal(jumped, parent):
                break
            parent = jumped


class IslandLabels:
    """The islands of one map, kept up to date by :meth:`freed` and :meth:`blocked`.

    Island numbers are positive and stable for cells an edit does not
    disconnect; they are not consecutive once the map was edited.
    """

    def __init__(self, passable: np.ndarray):
        self._raw, count = label_islands(passable)
        #: Raw number -> a raw number of the same island; an island's number maps to itself.
        self._parent = np.arange(count + 1, dtype=np.int32)
        self._next = count + 1
        self._array: Optional[np.ndarray] = None

    def array(self) -> np.ndarray:
        """Island number of every cell (0 if blocked); built once per edit, only when asked for."""
        if self._array is None:
            self._array = self._roots(np.arange(self._next))[self._raw]
        return self._array

    def of(self, x: int, y: int) -> int:
        """The island number of cell (x, y); 0 if it is blocked. (:meth:`_roots` for one number, in Python ints: every
        path search asks twice, and numpy's arrays cost far more for one.)"""
        number = int(self._raw[y, x])
        parent = self._parent
        root = int(parent[number])
        while True:
            up = int(parent[root])
            if up == root:
                break
            root = up
        parent[number] = root
        return root

    def freed(self, passable: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> None:
        """Follow cells (xs, ys), blocked until now and set passable in ``passable``: they join the
        islands beside them, which may merge. Costs O(cells freed), whatever the islands' sizes."""
        count = len(xs)
        raw = self._raw
        raw[ys, xs] = -np.arange(1, count + 1, dtype=np.int32)  # freed cells, as -1..-count meanwhile
        ends, seen = _around(raw, xs, ys, _STEPS)
        keep = seen != 0
        ends, seen = ends[keep], seen[keep]
        # Nodes joined: 0..count-1 the freed cells, then the islands they touch.
        beside = seen > 0
        island_roots = self._roots(seen[beside])
        touched = np.unique(island_roots)
        nodes = np.where(beside, 0, -seen - 1)
        nodes[beside] = count + np.searchsorted(touched, island_roots)
        group = _join(count + len(touched), ends, nodes)
        # Each group takes the smallest island number in it, or a new one.
        unset = np.iinfo(np.int32).max
        number = np.full(count + len(touched), unset, dtype=np.int64)
        np.minimum.at(number, group[count:], touched)
        cell_groups = group[:count]
        fresh = np.unique(cell_groups[number[cell_groups] == unset])
        number[fresh] = self._new_numbers(len(fresh))
        raw[ys, xs] = number[cell_groups]
        self._parent[touched] = number[group[count:]]
        self._array = None

    def blocked(self, passable: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> None:
        """Follow cells (xs, ys), passable until now and blocked in ``passable``: split the islands they cut.

        Costs about the pieces cut off times the cells beside the edit,
        unless an island cannot be settled that way (see :data:`FLOOD_SHARE`).
        """
        height, width = passable.shape
        raw = self._raw
        raw[ys, xs] = 0
        self._array = None
        ends, seen = _around(raw, xs, ys, _STEPS)
        beside = seen > 0
        ends, seen = ends[beside], seen[beside]
        if len(ends) == 0:
            return
        cells = (ys[ends] * width + xs[ends]).astype(np.int64)
        # The cell beside the blocked one, as a flat index: recover it from the step taken.
        steps = np.repeat(np.arange(len(_STEPS)), len(xs))[beside]
        offsets = np.array([dx + dy * width for dx, dy in _STEPS], dtype=np.int64)
        cells = cells + offsets[steps]
        roots = self._roots(seen)
        group_of = _groups(xs, ys, width)
        # Beside-cells of each island, by group of blocked cells.
        targets: Dict[int, Dict[int, Set[int]]] = {}
        for root, group, cell in zip(roots.tolist(), group_of[ends].tolist(), cells.tolist()):
            targets.setdefault(root, {}).setdefault(group, set()).add(cell)
        flat = np.ascontiguousarray(passable).reshape(-1).data  # a memoryview
        for root, by_group in targets.items():
            if not self._settle_by_floods(
                flat, width, list(by_group.values()), max(FLOOD_MIN, passable.size // FLOOD_SHARE)
            ):
                self._relabel(root, passable)

    def _settle_by_floods(self, flat: memoryview, width: int, by_group: List[Set[int]], budget: int) -> bool:
        """Whether floods from the cells beside each group of blocked cells settle their island
        within ``budget`` cells, giving each piece they find cut off a number of its own.

        Without pieces cut off it is enough that each group's floods meet (a
        route the edit cut can go round each group). With some, the rest of
        the island must be one piece: the floods still growing, one per
        group at most, must meet too.
        """
        growing: List[int] = []
        split = False
        for cells in by_group:
            found = _pieces(flat, width, sorted(cells), budget)
            if found is None:
                return False
            pieces, still, reached = found
            self._number(pieces)
            split = split or bool(pieces)
            growing += still
            budget -= reached
        if split and len(growing) > 1:
            found = _pieces(flat, width, growing, budget)
            if found is None:
                return False
            self._number(found[0])
        return True

    def _number(self, pieces: List[List[int]]) -> None:
        """Give each piece (flat indices of its cells) a new island number."""
        raw = self._raw.reshape(-1)
        for piece, number in zip(pieces, self._new_numbers(len(pieces)).tolist()):
            raw[np.fromiter(piece, dtype=np.int64, count=len(piece))] = number

    def _relabel(self, root: int, passable: np.ndarray) -> None:
        """Label island ``root`` again from scratch in its bounding box: the largest piece keeps the number."""
        member = self.array() == root
        self._array = None
        ys, xs = np.nonzero(member)
        if len(ys) == 0:
            return
        y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
        inside = member[y0:y1, x0:x1] & passable[y0:y1, x0:x1]
        pieces, count = label_islands(inside)
        sizes = np.bincount(pieces.ravel(), minlength=count + 1)[1:]
        number = np.zeros(count + 1, dtype=np.int32)
        number[1:] = self._new_numbers(count)
        number[int(np.argmax(sizes)) + 1] = root
        box = self._raw[y0:y1, x0:x1]
        box[inside] = number[pieces[inside]]

    def _roots(self, numbers: np.ndarray) -> np.ndarray:
        """The island number of each raw number (pointers followed, and shortened on the way)."""
        parent = self._parent
        roots = parent[numbers]
        while True:
            up = parent[roots]
            if np.array_equal(up, roots):
                break
            roots = up
        parent[numbers] = roots
        return roots

    def _new_numbers(self, count: int) -> np.ndarray:
        numbers = np.arange(self._next, self._next + count, dtype=np.int32)
        self._next += count
        if self._next > len(self._parent):
            grown = np.arange(max(self._next, 2 * len(self._parent)), dtype=np.int32)
            grown[: len(self._parent)] = self._parent
            self._parent = grown
        return numbers


def _around(raw: np.ndarray, xs: np.ndarray, ys: np.ndarray, steps) -> Tuple[np.ndarray, np.ndarray]:
    """For each step and each cell: (the cell's index, ``raw`` at the cell one step away, 0 off the map)."""
    height, width = raw.shape
    ends, seen = [], []
    for dx, dy in steps:
        nx, ny = xs + dx, ys + dy
        inside = (nx >= 0) & (nx < width) & (ny >= 0) & (ny < height)
        ends.append(np.arange(len(xs)))
        seen.append(np.where(inside, raw[np.clip(ny, 0, height - 1), np.clip(nx, 0, width - 1)], 0))
    return np.concatenate(ends), np.concatenate(seen)


def _groups(xs: np.ndarray, ys: np.ndarray, width: int) -> np.ndarray:
    """Groups of cells touching by king moves: each cell's group."""
    flat = ys * width + xs
    order = np.argsort(flat)
    ordered = flat[order]
    a, b = [], []
    for dx, dy in _HALF_KING:
        nx = xs + dx
        wanted = (ys + dy) * width + nx
        at = np.minimum(np.searchsorted(ordered, wanted), len(ordered) - 1)
        hit = (ordered[at] == wanted) & (nx >= 0) & (nx < width)
        a.append(np.flatnonzero(hit))
        b.append(order[at[hit]])
    return _join(len(xs), np.concatenate(a), np.concatenate(b))


def _pieces(
    flat: memoryview, width: int, starts: List[int], budget: int
) -> Optional[Tuple[List[List[int]], List[int], int]]:
    """Floods from the cells ``starts`` (flat indices into ``flat``, the passable cells) until at most
    one is still growing: (the pieces cut off, each a list of cells; a start of the flood still
    growing, if one is; the cells reached). None once more than ``budget`` cells are reached.

    The floods grow in turn, one cell each, and merge where they meet: a flood
    that runs out of cells has found a whole piece, at about the cost of the
    smallest pieces times the number of floods.
    """
    size = len(flat)
    owner = {cell: flood for flood, cell in enumerate(starts)}
    merged = list(range(len(starts)))  # flood -> the flood it merged into (itself while on its own)
    frontiers: List[Optional[deque]] = [deque([cell]) for cell in starts]
    growing = list(range(len(starts)))
    finished: List[int] = []

    def find(flood: int) -> int:
        while merged[flood] != flood:
            merged[flood] = merged[merged[flood]]
            flood = merged[flood]
        return flood

    while len(growing) > 1:
        if len(owner) > budget:
            return None
        still = []
        for flood in growing:
            todo = frontiers[flood]
            if todo is None:  # merged into another flood
                continue
            if not todo:
                finished.append(flood)
                continue
            still.append(flood)
            cell = todo.popleft()
            x = cell % width
            for step, ok in ((-1, x > 0), (1, x < width - 1), (-width, cell >= width), (width, cell + width < size)):
                other = cell + step
                if not ok or not flat[other]:
                    continue
                met = owner.get(other)
                if met is None:
                    owner[other] = flood
                    todo.append(other)
                    continue
                met = find(met)
                joined = frontiers[met]
                if met != flood and joined is not None:
                    merged[met] = flood
                    todo.extend(joined)
                    frontiers[met] = None
        growing = [flood for flood in still if frontiers[flood] is not None]
    pieces: Dict[int, List[int]] = {flood: [] for flood in finished}
    for cell, flood in owner.items():
        piece = pieces.get(find(flood))
        if piece is not None:
            piece.append(cell)
    return list(pieces.values()), [starts[flood] for flood in growing], len(owner)
