"""Formations as data (SPEC F3, F4): slots around a centre, and where they fall on the grid for a heading.

Quick start::

    >>> import numpy as np
    >>> from pathing_py.groups import Formation, fits, needs_reforming, slot_cells
    >>> line = Formation.line(3, spacing=2)
    >>> line.offsets.tolist()
    [[-2.0, 0.0], [0.0, 0.0], [2.0, 0.0]]
    >>> passable = np.ones((8, 8), dtype=bool)
    >>> cells, usable = slot_cells(line, (4.5, 4.5), (1, 0), passable)  # marching right (east)
    >>> cells.tolist(), usable.tolist()
    ([[4, 2], [4, 4], [4, 6]], [True, True, True])
    >>> fits(line, (4.5, 1.5), (1, 0), passable)  # its left-hand slot would stand off the map
    False
    >>> needs_reforming(line, (1, 0), (0, 1)), needs_reforming(Formation.box(9), (1, 0), (0, 1))
    (True, False)

Conventions, used by everything here:

- Positions and offsets are in cells; cell (x, y) covers [x, x + 1) x
  [y, y + 1), and y grows downwards, as in Godot.
- Offsets are written for a formation marching up the screen (heading
  :data:`FORWARD`, (0, -1)): x to its right, y to its rear. A formation
  heading elsewhere turns them with it.
- Facings are angles in radians from the heading, clockwise on screen as
  Godot's ``Node2D.rotation``: 0 looks the way the formation marches, pi
  back (:func:`slot_headings`).
- The built-in shapes are centred on the mean of their slots. The slot
  nearest the centre (the lowest index among equals,
  ``formation.nearest_first[0]``) is where the commander goes.

A heading need not be of length 1 (a unit's move, goal minus position, will
do); it must be finite and not (0, 0).
"""

import math
import numbers
from typing import Callable, Dict, Set, Tuple

import numpy as np

from ..arguments import as_point, finite_or_none
from ..crowd_checks import overlapping_pairs
from ..grid import Cell, check_passable, passable_at

__all__ = [
    "FORWARD", "REFORM_ANGLE", "SHAPES", "Formation", "as_point", "distinct_cells", "fits", "needs_reforming",
    "slot_cells", "slot_headings",
]  # fmt: skip

#: The heading offsets are written for: up the screen.
FORWARD = (0.0, -1.0)
#: A formation that does not turn in place re-forms when its heading turns by more than this (radians, 45 degrees).
REFORM_ANGLE = math.radians(45.0)
#: Offsets closer than this (cells) are one slot; float noise in a game's offsets must not refuse them.
_GAP_TOLERANCE = 1e-9


def _line(count: int) -> np.ndarray:
    """Side by side across the heading, left to right."""
    return np.column_stack((np.arange(count, dtype=float), np.zeros(count)))


def _column(count: int) -> np.ndarray:
    """One behind the other along the heading, front to rear."""
    return np.column_stack((np.zeros(count), np.arange(count, dtype=float)))


def _box(count: int) -> np.ndarray:
    """As square as possible: a lattice ``side`` wide and one row shorter if that is enough, of which the
    ``count`` points nearest its middle are kept (among equals, front rows and the left first), in rows
    front to rear, each left to right."""
    side = math.ceil(math.sqrt(count))
    rows = math.ceil(count / side)
    xs, ys = np.meshgrid(np.arange(side) - (side - 1) / 2, np.arange(rows) - (rows - 1) / 2)
    lattice = np.column_stack((xs.ravel(), ys.ravel()))
    nearest = np.argsort(np.hypot(lattice[:, 0], lattice[:, 1]), kind="stable")[:count]
    return lattice[np.sort(nearest)]


def _wedge(count: int) -> np.ndarray:
    """An arrowhead: the tip, then slots one row back and one column out, taking turns left and right."""
    behind = (np.arange(count) + 1) // 2
    side = np.where(np.arange(count) % 2 == 1, -1, 1)
    return np.column_stack((side * behind, behind)).astype(float)


#: The built-in shapes by name: their slots one cell apart, and whether a change of direction leaves them be (F4).
SHAPES: Dict[str, Tuple[Callable[[int], np.ndarray], bool]] = {
    "line": (_line, False),
    "column": (_column, False),
    "box": (_box, True),
    "wedge": (_wedge, False),
}


class Formation:
    """Slots around a centre: offsets (cells, see the module docstring for the frame) and facings. Immutable.

    Parameters
    ----------
    name : str
        What the game calls it ("line", …, or its own).
    offsets : (n, 2) array of float
        Each slot's place relative to the centre, n >= 1, finite, no two
        closer than 1 cell (so each can have a cell of its own).
    facings : (n,) array of float, optional
        Each slot's facing, radians from the heading; None: all 0.
    turns_in_place : bool
        True for box-like shapes, which ignore a change of direction (F4).

    The named constructors (:meth:`line`, :meth:`column`, :meth:`box`,
    :meth:`wedge`, :meth:`by_name`) and :meth:`custom` also take
    ``spacing`` (>= 1), which multiplies the offsets: for the built-in
    shapes, the cells between neighbouring slots.
    """

    __slots__ = ("_name", "_offsets", "_facings", "_turns_in_place", "_nearest_first")

    def __init__(self, name: str, offsets, facings=None, *, turns_in_place: bool = False):
        if not isinstance(name, str):
            raise TypeError(f"name must be a str, got {name!r}")
        if not name:
            raise ValueError("name must not be empty")
        if not isinstance(turns_in_place, bool):
            raise TypeError(f"turns_in_place must be True or False, got {turns_in_place!r}")
        self._name = name
        self._offsets = _read_only(_checked_offsets(offsets))
        self._facings = _read_only(_checked_facings(facings, len(self._offsets)))
        self._turns_in_place = turns_in_place
        self._nearest_first = _read_only(np.argsort(np.hypot(self._offsets[:, 0], self._offsets[:, 1]), kind="stable"))

    @classmethod
    def custom(
        cls, offsets, facings=None, turns_in_place: bool = False, *, spacing: float = 1.0, name: str = "custom"
    ) -> "Formation":
        """A game's own shape: ``offsets`` multiplied by ``spacing``, which must leave the slots at least
        1 cell apart."""
        return cls(
            name, _as_float_array(offsets, "offsets") * checked_spacing(spacing), facings, turns_in_place=turns_in_place
        )

    @classmethod
    def by_name(cls, name: str, count: int, *, spacing: float = 1.0) -> "Formation":
        """The built-in shape ``name`` (a key of :data:`SHAPES`) of ``count`` slots, ``spacing`` cells apart."""
        if not isinstance(name, str) or name not in SHAPES:
            raise ValueError(f"unknown formation {name!r}; the shapes are {', '.join(SHAPES)}")
        if isinstance(count, bool) or not isinstance(count, numbers.Integral):
            raise TypeError(f"count must be a whole number of slots, got {count!r}")
        if count < 1:
            raise ValueError(f"count must be at least 1 slot, got {count}")
        shape, turns_in_place = SHAPES[name]
        offsets = shape(int(count))
        return cls.custom(offsets - offsets.mean(axis=0), turns_in_place=turns_in_place, spacing=spacing, name=name)

    @classmethod
    def line(cls, count: int, *, spacing: float = 1.0) -> "Formation":
        """Side by side across the heading; re-forms when it turns."""
        return cls.by_name("line", count, spacing=spacing)

    @classmethod
    def column(cls, count: int, *, spacing: float = 1.0) -> "Formation":
        """One behind the other along the heading; re-forms when it turns."""
        return cls.by_name("column", count, spacing=spacing)

    @classmethod
    def box(cls, count: int, *, spacing: float = 1.0) -> "Formation":
        """Rows and columns as square as possible, filled from the centre outwards; ignores turns."""
        return cls.by_name("box", count, spacing=spacing)

    @classmethod
    def wedge(cls, count: int, *, spacing: float = 1.0) -> "Formation":
        """A V with its tip forward, the arms going back diagonally; re-forms when it turns."""
        return cls.by_name("wedge", count, spacing=spacing)

    @property
    def name(self) -> str:
        return self._name

    @property
    def offsets(self) -> np.ndarray:
        """(n, 2) float, read-only: each slot's place relative to the centre, for heading :data:`FORWARD`."""
        return self._offsets

    @property
    def facings(self) -> np.ndarray:
        """(n,) float, read-only: each slot's facing, radians clockwise from the heading."""
        return self._facings

    @property
    def turns_in_place(self) -> bool:
        """Whether a change of direction leaves the slots where they are (F4)."""
        return self._turns_in_place

    @property
    def nearest_first(self) -> np.ndarray:
        """(n,) int, read-only: the slots by distance from the centre, the lower index first among equals.
        The first is the commander's."""
        return self._nearest_first

    @property
    def reach(self) -> float:
        """How far the farthest slot lies from the centre (cells): a route's jogs shorter than this
        are not turns the formation follows (F4)."""
        return float(np.hypot(self._offsets[:, 0], self._offsets[:, 1]).max(initial=0.0))

    def __len__(self) -> int:
        return len(self._offsets)

    def __repr__(self) -> str:
        return f"Formation({self._name!r}, {len(self)} slots, turns_in_place={self._turns_in_place})"


def slot_cells(formation: Formation, centre, heading, passable, *, size: int = 1) -> Tuple[np.ndarray, np.ndarray]:
    """Where the slots of ``formation`` stand around ``centre`` (a position, floats) facing ``heading``.

    Returns ``(cells, usable)``: an (n, 2) int array of distinct cells (x, y),
    slot by slot, and an (n,) bool array, True where the cell is on the map
    and passable (``passable[y, x]``, as :attr:`pathing_py.Grid.passable`).

    A slot stands in the cell its turned offset falls in. Turning can bring
    two slots into one cell (slots 1 cell apart, 45 degrees round): then the
    slot nearer the centre keeps it (the lower index among equals) and the
    other moves to the nearest cell that no slot falls in or has moved to,
    whether free or not, so that the cells do not depend on the map.

    For units ``size`` cells wide the offsets count blocks of ``size`` x
    ``size`` cells: the slots are laid out so on a lattice of blocks around
    the block whose centre is nearest ``centre``, and the cells are the
    blocks' top-left cells (``passable`` then says where such a block fits,
    as the grids of :class:`~pathing_py.sized_grids.SizedGrids` do), so no two
    slots' blocks overlap however the formation turns.
    """
    formation, size = _checked_formation(formation), _checked_block(size)
    passable = check_passable(passable)
    point = np.array(as_point(centre, "centre"))
    turned = _turned(formation.offsets, _direction(heading, "heading"))
    if size == 1:
        cells = distinct_cells(point + turned, formation.nearest_first)
    else:
        corner = np.floor(point - (size - 1) / 2.0).astype(np.int64)  # block_at(centre, size)
        cells = corner + size * distinct_cells(0.5 + turned, formation.nearest_first)
    return cells, passable_at(passable, cells)


def fits(formation: Formation, centre, heading, passable) -> bool:
    """Whether every slot of ``formation`` stands on a passable cell there (:func:`slot_cells`)."""
    return bool(slot_cells(formation, centre, heading, passable)[1].all())


def slot_headings(formation: Formation, heading) -> np.ndarray:
    """The way each slot faces when the formation faces ``heading``: an (n, 2) array of unit vectors."""
    facings = _checked_formation(formation).facings
    facing_forward = np.column_stack((np.sin(facings), -np.cos(facings)))  # FORWARD turned by each facing
    return _turned(facing_forward, _direction(heading, "heading"))


def needs_reforming(formation: Formation, old_heading, new_heading, *, threshold: float = REFORM_ANGLE) -> bool:
    """Whether ``formation`` must stop and form again to march on ``new_heading`` (F4): never for one that
    turns in place, else when the heading turns by more than ``threshold`` radians (default 45 degrees)."""
    formation = _checked_formation(formation)
    old, new = _direction(old_heading, "old_heading"), _direction(new_heading, "new_heading")
    if isinstance(threshold, bool) or not isinstance(threshold, numbers.Real) or not 0 <= threshold <= math.pi:
        raise ValueError(f"threshold must be an angle in radians from 0 to pi, got {threshold!r}")
    if formation.turns_in_place:
        return False
    turn = math.atan2(abs(old[0] * new[1] - old[1] * new[0]), old[0] * new[0] + old[1] * new[1])
    return turn > threshold


# -- placing ----------------------------------------------------------------------------------------


def _direction(heading, name: str) -> Tuple[float, float]:
    """``heading`` as a unit vector; ValueError for (0, 0), which points nowhere."""
    x, y = as_point(heading, name)
    length = math.hypot(x, y)
    if length == 0:
        raise ValueError(f"{name} must point somewhere, got (0, 0)")
    return x / length, y / length


def _turned(vectors: np.ndarray, heading: Tuple[float, float]) -> np.ndarray:
    """``vectors`` written for :data:`FORWARD`, turned as FORWARD turns to the unit vector ``heading``."""
    hx, hy = heading
    return vectors @ np.array([[-hy, hx], [-hx, -hy]])


def distinct_cells(points: np.ndarray, first: np.ndarray) -> np.ndarray:
    """The cell each point falls in; where points share one, the earliest in the order ``first`` keeps it
    and each later one, in that order, takes the nearest cell no point falls in or has taken."""
    cells = np.floor(points).astype(np.int64)
    own = [tuple(cell) for cell in cells.tolist()]
    taken: Set[Cell] = set()
    moving = []
    for point in first.tolist():
        if own[point] in taken:
            moving.append(point)
        taken.add(own[point])
    for point in moving:
        cells[point] = cell = _nearest_free_cell(points[point], taken)
        taken.add(cell)
    return cells


def _nearest_free_cell(point: np.ndarray, taken: Set[Cell]) -> Cell:
    """The cell not in ``taken`` whose centre is nearest ``point`` (among equals, the lowest y, then x).

    Looks in squares of cells growing around the point's own: a cell outside
    the square of radius r is at least r + 0.5 from the point, so a free
    cell nearer than that is the nearest of all.
    """
    x, y = float(point[0]), float(point[1])
    own_x, own_y = math.floor(x), math.floor(y)
    radius = 1
    while True:
        free = [
            ((cx + 0.5 - x) ** 2 + (cy + 0.5 - y) ** 2, cy, cx)
            for cy in range(own_y - radius, own_y + radius + 1)
            for cx in range(own_x - radius, own_x + radius + 1)
            if (cx, cy) not in taken
        ]
        if free:
            squared, cy, cx = min(free)
            if squared < (radius + 0.5) ** 2:
                return cx, cy
        radius += 1


# -- checks -----------------------------------------------------------------------------------------


def _checked_formation(formation) -> Formation:
    if not isinstance(formation, Formation):
        raise TypeError(f"formation must be a Formation, got {formation!r}")
    return formation


def _checked_block(size) -> int:
    if isinstance(size, bool) or not isinstance(size, numbers.Integral) or size < 1:
        raise ValueError(f"size must be a whole number of cells >= 1, got {size!r}")
    return int(size)


def checked_spacing(spacing) -> float:
    """``spacing`` as a float (a numpy scalar too); ValueError unless it is a finite number of cells >= 1."""
    checked = finite_or_none(spacing)
    if checked is None or checked < 1:
        raise ValueError(
            f"spacing must be a finite number of cells >= 1 (so that slots keep cells of their own), got {spacing!r}"
        )
    return checked


def _as_float_array(values, name: str) -> np.ndarray:
    try:
        return np.array(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be an array of numbers, got {values!r}") from None


def _checked_offsets(offsets) -> np.ndarray:
    """(n, 2), n >= 1, finite, no two slots closer than 1 cell."""
    array = _as_float_array(offsets, "offsets")
    if array.ndim != 2 or array.shape[1] != 2 or len(array) == 0:
        raise ValueError(f"offsets must have shape (n, 2) with at least one slot, got shape {array.shape}")
    finite = np.isfinite(array).all(axis=1)
    if not finite.all():
        slot = int(np.argmin(finite))
        raise ValueError(f"offsets must be finite, slot {slot} is {array[slot].tolist()}")
    # Slots as circles 1 cell across: two closer than 1 cell overlap.
    too_close = overlapping_pairs(array, np.full(len(array), 0.5), slack=1 - _GAP_TOLERANCE)
    if len(too_close):
        first, second = too_close[0].tolist()
        gap = float(np.linalg.norm(array[first] - array[second]))
        raise ValueError(
            f"slots {first} and {second} are {gap:.3g} cells apart;"
            " slots must be at least 1 cell apart to keep cells of their own"
        )
    return array


def _checked_facings(facings, count: int) -> np.ndarray:
    if facings is None:
        return np.zeros(count)
    array = _as_float_array(facings, "facings")
    if array.shape != (count,):
        raise ValueError(f"facings must have one angle per slot ({count}), got shape {array.shape}")
    finite = np.isfinite(array)
    if not finite.all():
        slot = int(np.argmin(finite))
        raise ValueError(f"facings must be finite, slot {slot} is {array[slot]}")
    return array


def _read_only(array: np.ndarray) -> np.ndarray:
    array.setflags(write=False)
    return array
