"""The obstacle table every search and unit works on (SPEC G1–G3).

Quick start::

    >>> from pathing_py import Grid
    >>> grid = Grid.from_ascii('''
    ... ....
    ... .##.
    ... ....
    ... ''')
    >>> grid.width, grid.height
    (4, 3)
    >>> grid.is_passable((1, 1))
    False
    >>> grid.same_island((0, 0), (3, 2))
    True
    >>> grid.set_blocked([(0, 1), (3, 1)])
    >>> grid.same_island((0, 0), (3, 2))
    False

Coordinates are ``(x, y)`` tuples: x is the column, y the row, as in Godot's
``Vector2`` and Moving AI files. Arrays are indexed ``[y, x]``.

Movement is 8-connected under the corner rule, defined here once
(:func:`corner_offsets`) and followed by every search, line, table and unit: a
diagonal step needs both orthogonal cells beside it free, so nothing cuts a
wall's corner (the rule of the Moving AI benchmarks)::

    >>> from pathing_py.grid import step_allowed, step_corners
    >>> corner = Grid.from_ascii('''
    ... .#
    ... ..
    ... ''')
    >>> step_corners((0, 0), (1, 1))
    ((1, 0), (0, 1))
    >>> step_allowed(corner.passable, (0, 0), (1, 1)), step_allowed(corner.passable, (0, 0), (0, 1))
    (False, True)

A grid may instead be 4-connected (``Grid(..., connectivity=4)``), for tile
games whose units move only along the axes: then no diagonal step is a move
at all (:func:`is_move`), and every search, line, graph and unit takes
straight steps only. The islands are the same either way: under the corner
rule two cells joined by king moves are joined by straight ones too.

The grid owns a copy of its arrays: edits go through :meth:`Grid.set_blocked`
so that :attr:`Grid.version`, the islands and the search tables follow them.
"""

import hashlib
import warnings
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, Protocol, Sequence, Tuple, TypeVar, Union

import numpy as np

from .islands import IslandLabels

__all__ = [
    "CONNECTIVITIES", "Grid", "MapFormatError", "Cell", "cell_pairs", "cells_inside", "check_connectivity",
    "check_passable", "corner_offsets", "diagonal_steps", "FollowsEdits", "is_move", "passable_at", "step_corners",
    "step_allowed",
]  # fmt: skip

Cell = Tuple[int, int]
#: Cells of a path as two arrays, xs and ys.
CellArrays = Tuple[np.ndarray, np.ndarray]

#: Moving AI terrain characters that can be walked on (``S`` is swamp).
MOVINGAI_PASSABLE = frozenset(".GS")
MOVINGAI_BLOCKED = frozenset("@OTW")

#: How many neighbours a cell has: 8 (king moves under the corner rule, the default) or 4 (straight moves only).
CONNECTIVITIES = (8, 4)


class FollowsEdits(Protocol):
    """State made from a grid that its edits must reach (the search tables of :mod:`pathing_py.search`)."""

    def cells_changed(self, xs: np.ndarray, ys: np.ndarray) -> None:
        """The cells at ``xs``, ``ys`` were blocked or freed."""


Follower = TypeVar("Follower", bound=FollowsEdits)


class MapFormatError(ValueError):
    """A map file or text could not be read; the message names where."""


# -- the corner rule -----------------------------------------------------------------------------
# Loops too hot to call these functions test the same cells inline and cite corner_offsets.


def corner_offsets(dx: int, dy: int) -> Tuple[Cell, ...]:
    """The corner rule: the cells, relative to the cell left, that a step by (dx, dy) needs free
    besides the cell it enters; both orthogonal neighbours for a diagonal, none for a straight step."""
    return ((dx, 0), (0, dy)) if dx and dy else ()


def is_move(dx: int, dy: int, connectivity: int) -> bool:
    """Whether a step to a neighbour by (dx, dy) is a move at all: every one on an 8-connected grid,
    only the straight ones on a 4-connected grid (where the corner rule never comes into play)."""
    return connectivity == 8 or not (dx and dy)


def check_connectivity(connectivity) -> int:
    """``connectivity`` as an int of :data:`CONNECTIVITIES`; ValueError naming the bad value otherwise."""
    if (
        isinstance(connectivity, bool)
        or not isinstance(connectivity, (int, np.integer))
        or int(connectivity) not in CONNECTIVITIES
    ):
        raise ValueError(f"connectivity must be 8 or 4 (neighbours of a cell), got {connectivity!r}")
    return int(connectivity)


def step_corners(a: Cell, b: Cell) -> Tuple[Cell, ...]:
    """The cells besides ``b`` that a step from ``a`` to its neighbour ``b`` needs free (:func:`corner_offsets`)."""
    (ax, ay), (bx, by) = a, b
    return tuple((ax + cx, ay + cy) for cx, cy in corner_offsets(bx - ax, by - ay))


def step_allowed(passable: np.ndarray, a: Cell, b: Cell, connectivity: int = 8) -> bool:
    """Whether a unit on ``a`` may step to its neighbour ``b``: a move (:func:`is_move`), ``b`` and the
    step's corners on the map and free."""
    if not is_move(b[0] - a[0], b[1] - a[1], connectivity):
        return False
    height, width = passable.shape
    return all(0 <= x < width and 0 <= y < height and bool(passable[y, x]) for x, y in (b, *step_corners(a, b)))


def diagonal_steps(xs: np.ndarray, ys: np.ndarray) -> Tuple[np.ndarray, CellArrays, CellArrays]:
    """For a path's cells: the indices of the cells entered diagonally, and the two corner cells
    (:func:`step_corners`) of each of those steps, as arrays of xs and ys."""
    steps = np.flatnonzero((xs[1:] != xs[:-1]) & (ys[1:] != ys[:-1])) + 1
    return steps, (xs[steps], ys[steps - 1]), (xs[steps - 1], ys[steps])


def check_passable(passable) -> np.ndarray:
    """``passable`` as a non-empty 2-D bool array (not copied); ValueError or TypeError saying what it is otherwise."""
    array = np.asarray(passable)
    if array.ndim != 2 or array.size == 0:
        raise ValueError(f"passable must be a non-empty 2-D array, got shape {array.shape}")
    if array.dtype != bool:
        raise TypeError(f"passable must be a bool array, got dtype {array.dtype}")
    return array


def passable_at(passable: np.ndarray, cells: np.ndarray) -> np.ndarray:
    """:meth:`Grid.is_passable` for an (n, 2) int array of cells at once: False off the map too."""
    height, width = passable.shape
    xs, ys = cells[:, 0], cells[:, 1]
    on_map = (xs >= 0) & (xs < width) & (ys >= 0) & (ys < height)
    return on_map & passable[np.clip(ys, 0, height - 1), np.clip(xs, 0, width - 1)]


class Grid:
    """A rectangle of passable / blocked cells with optional terrain costs.

    Parameters
    ----------
    passable : array of bool, shape (height, width)
        ``passable[y, x]`` is True where units may stand.
    cost : array of float, same shape, optional
        Cost factor (>= 1) of entering each cell: a straight step into it costs
        ``cost``, a diagonal one ``sqrt(2) * cost``. None means 1 everywhere.
    origin : (x, y)
        The Godot TileMap cell of grid cell (0, 0); TileMaps may use negative
        cells, the grid always starts at 0.
    connectivity : 8 or 4
        Neighbours of a cell: 8 (diagonal steps under the corner rule) or 4
        (straight steps only). Fixed for the grid's life.
    """

    def __init__(self, passable, cost=None, *, origin: Cell = (0, 0), connectivity: int = 8):
        passable = check_passable(passable)
        self._passable = passable.copy()
        self._cost = None
        if cost is not None:
            cost = np.asarray(cost, dtype=np.float64)
            if cost.shape != passable.shape:
                raise ValueError(f"cost has shape {cost.shape}, passable has {passable.shape}")
            if not np.all(np.isfinite(cost)) or cost.min() < 1.0:
                raise ValueError("cost must be finite and >= 1 everywhere")
            self._cost = cost.copy()
            self._cost.setflags(write=False)
        self.origin = (int(origin[0]), int(origin[1]))
        self._connectivity = check_connectivity(connectivity)
        self.version = 0
        self._islands: Optional[IslandLabels] = None
        self._followers: Dict[str, FollowsEdits] = {}

    # -- construction -------------------------------------------------------------

    @classmethod
    def from_ascii(cls, text: str, *, connectivity: int = 8) -> "Grid":
        """Build a grid from lines of text: ``.`` free, ``#`` or ``@`` blocked.

        Blank lines at the start and end are ignored; all rows must be as wide.
        """
        text = text.strip("\n")
        rows = text.split("\n") if text else []
        return cls(_parse_rows(rows, {".": True, "#": False, "@": False}, "<ascii>", 1), connectivity=connectivity)

    @classmethod
    def from_movingai(cls, path: Union[str, Path], *, connectivity: int = 8) -> "Grid":
        """Read a Moving AI ``.map`` file (``type octile``; header, then rows).

        The file's type names its benchmark's movement; ``connectivity=4`` reads
        the same cells for straight moves only.
        """
        path = Path(path)
        try:
            lines = path.read_text(encoding="ascii").splitlines()
        except (OSError, UnicodeDecodeError) as error:
            raise MapFormatError(f"{path}: cannot read map: {error}") from None
        header = {}
        for number, line in enumerate(lines[:4], start=1):
            parts = line.split()
            if number == 4:
                if parts != ["map"]:
                    raise MapFormatError(f"{path}:4: expected 'map', got {line!r}")
            elif len(parts) != 2:
                raise MapFormatError(f"{path}:{number}: expected 'key value', got {line!r}")
            else:
                header[parts[0]] = parts[1]
        if len(lines) < 4:
            raise MapFormatError(f"{path}: header is incomplete ({len(lines)} lines)")
        if header.get("type") != "octile":
            raise MapFormatError(f"{path}:1: unsupported map type {header.get('type')!r}")
        try:
            height, width = int(header["height"]), int(header["width"])
        except (KeyError, ValueError):
            raise MapFormatError(f"{path}: header needs integer 'height' and 'width'") from None
        rows = lines[4 : 4 + height]
        if len(rows) != height:
            raise MapFormatError(f"{path}: expected {height} rows, found {len(rows)}")
        symbols = {c: True for c in MOVINGAI_PASSABLE}
        symbols.update({c: False for c in MOVINGAI_BLOCKED})
        passable = _parse_rows(rows, symbols, str(path), 5)
        if passable.shape[1] != width:
            raise MapFormatError(f"{path}:5: rows are {passable.shape[1]} wide, header says {width}")
        return cls(passable, connectivity=connectivity)

    @classmethod
    def from_tscn(
        cls,
        path,
        tilemap: Optional[str] = None,
        blocking: Optional[Iterable] = None,
        *,
        empty_passable: bool = True,
        bounds: Optional[Sequence[int]] = None,
        unknown_tiles: str = "error",
        connectivity: int = 8,
        layers: Sequence[str] = (),
    ) -> "Grid":
        """Deprecated: :func:`pathing_py.godot.scene_files.grid_from_tscn` reads a scene's TileMap (this name
        goes in a later release: the grid stands below the Godot half, which reads scenes)."""
        from .godot.scene_files import grid_from_tscn  # the deprecated name only: nothing else here imports it

        warnings.warn(
            "Grid.from_tscn moved to pathing_py.godot.scene_files.grid_from_tscn", DeprecationWarning, stacklevel=2
        )
        return grid_from_tscn(
            path,
            tilemap,
            blocking,
            empty_passable=empty_passable,
            bounds=bounds,
            unknown_tiles=unknown_tiles,
            connectivity=connectivity,
            layers=layers,
        )

    # -- reading ------------------------------------------------------------------

    @property
    def width(self) -> int:
        return self._passable.shape[1]

    @property
    def height(self) -> int:
        return self._passable.shape[0]

    @property
    def passable(self) -> np.ndarray:
        """Read-only view of the passable array; edit with :meth:`set_blocked`."""
        view = self._passable.view()
        view.setflags(write=False)
        return view

    @property
    def cost(self) -> Optional[np.ndarray]:
        return self._cost

    @property
    def connectivity(self) -> int:
        """8 or 4: the neighbours of a cell (see the module docstring)."""
        return self._connectivity

    def in_bounds(self, cell: Cell) -> bool:
        x, y = cell
        return 0 <= x < self._passable.shape[1] and 0 <= y < self._passable.shape[0]

    def is_passable(self, cell: Cell) -> bool:
        """False for blocked cells and for cells outside the grid."""
        return self.in_bounds(cell) and bool(self._passable[cell[1], cell[0]])

    def step_open(self, a: Cell, b: Cell) -> bool:
        """Whether ``b`` and the corners of the step to it from its neighbour ``a`` (:func:`step_corners`) are on
        the grid and free, whatever the connectivity: units check this before every step, so it reads the array
        itself (a quarter of the time of :meth:`is_passable` on each cell)."""
        passable = self._passable
        height, width = passable.shape
        (ax, ay), (bx, by) = a, b
        for x, y in ((bx, by), (bx, ay), (ax, by)) if ax != bx and ay != by else ((bx, by),):
            if not (0 <= x < width and 0 <= y < height and passable[y, x]):
                return False
        return True

    def content_hash(self) -> str:
        """SHA-1 of shape, passable cells and costs: the identity of the map's content (G2)."""
        digest = hashlib.sha1(np.array(self._passable.shape, dtype=np.int64).tobytes())
        digest.update(np.packbits(self._passable).tobytes())
        if self._cost is not None:
            digest.update(self._cost.tobytes())
        return digest.hexdigest()

    # -- islands (G3) -------------------------------------------------------------

    @property
    def islands(self) -> np.ndarray:
        """``labels[y, x]``: 0 on blocked cells, the island number elsewhere (an O(map) array after each edit)."""
        view = self.prepare_islands().array().view()
        view.setflags(write=False)
        return view

    def prepare_islands(self) -> IslandLabels:
        """The island labels, labelled now if they were not yet; from then on edits keep them right."""
        if self._islands is None:
            self._islands = IslandLabels(self._passable)
        return self._islands

    def island_of(self, cell: Cell) -> int:
        """The island number of ``cell``; 0 if it is blocked. Raises for cells off the grid."""
        if not self.in_bounds(cell):
            raise ValueError(f"cell {tuple(cell)} is outside the {self.width}x{self.height} grid")
        return self.prepare_islands().of(cell[0], cell[1])

    def same_island(self, a: Cell, b: Cell) -> bool:
        """True when both cells are passable and connected; False otherwise, off-grid included."""
        if not (self.is_passable(a) and self.is_passable(b)):
            return False
        islands = self.prepare_islands()
        return islands.of(a[0], a[1]) == islands.of(b[0], b[1])

    # -- editing ------------------------------------------------------------------

    def set_blocked(self, cells: Iterable[Cell], blocked: bool = True) -> None:
        """Block (or free) cells; islands and search tables follow.

        Raises ValueError, changing nothing, if a cell is outside the grid.
        """
        xs, ys = cells_inside(cells, self.width, self.height)
        if len(xs) == 0:
            return
        flat = np.unique(ys * self.width + xs)
        flat = flat[self._passable.reshape(-1)[flat] == blocked]
        if len(flat) == 0:
            return
        ys, xs = np.divmod(flat, self.width)
        self._passable[ys, xs] = not blocked
        self.version += 1
        for follower in self._followers.values():
            follower.cells_changed(xs, ys)
        if self._islands is not None:
            if blocked:
                self._islands.blocked(self._passable, xs, ys)
            else:
                self._islands.freed(self._passable, xs, ys)

    def follower(self, key: str, make: Callable[[], Follower]) -> Follower:
        """The state kept under ``key`` for this grid, made by ``make`` the first time: every edit
        (:meth:`set_blocked`) reaches it, so search tables follow the map without the grid knowing them."""
        found = self._followers.get(key)
        if found is None:
            found = self._followers[key] = make()
        return found  # type: ignore[return-value]  # what ``make`` made under ``key``

    def __repr__(self) -> str:
        return (
            f"Grid({self.width}x{self.height}, origin={self.origin}, connectivity={self.connectivity},"
            f" version={self.version})"
        )


def _parse_rows(rows: Sequence[str], symbols: dict, source: str, first_line: int) -> np.ndarray:
    if not rows:
        raise MapFormatError(f"{source}: the map has no rows")
    width = len(rows[0].rstrip("\r"))
    if width == 0:
        raise MapFormatError(f"{source}:{first_line}: the first row is empty")
    passable = np.zeros((len(rows), width), dtype=bool)
    for y, row in enumerate(rows):
        row = row.rstrip("\r")
        line = first_line + y
        if len(row) != width:
            raise MapFormatError(f"{source}:{line}: row is {len(row)} wide, expected {width}")
        unknown = set(row) - symbols.keys()
        if unknown:
            raise MapFormatError(f"{source}:{line}: unknown map characters {''.join(sorted(unknown))!r}")
        passable[y] = [symbols[c] for c in row]
    if not passable.any():
        raise MapFormatError(f"{source}: the map has no passable cell")
    return passable


def cells_inside(cells: Iterable[Cell], width: int, height: int) -> CellArrays:
    """``cells`` ((x, y) pairs or an (N, 2) array) as arrays of xs and ys; ValueError naming the first
    cell off a width x height map, or saying the cells are not pairs."""
    array = np.asarray(list(cells) if not isinstance(cells, np.ndarray) else cells, dtype=np.int64)
    if array.size == 0:
        return array.reshape(0), array.reshape(0)
    if array.ndim != 2 or array.shape[1] != 2:
        raise ValueError("cells must be a sequence of (x, y) pairs")
    xs, ys = array[:, 0], array[:, 1]
    outside = (xs < 0) | (xs >= width) | (ys < 0) | (ys >= height)
    if outside.any():
        i = int(np.argmax(outside))
        raise ValueError(f"cell ({xs[i]}, {ys[i]}) is outside the {width}x{height} map")
    return xs, ys


def cell_pairs(cells: Iterable[Cell], width: int, height: int) -> List[Cell]:
    """``cells`` as a list of (x, y) int pairs, each on a width x height map: a list of such pairs as it is (a
    unit's route: checking a few dozen tuples costs a fifth of :func:`cells_inside`'s arrays), anything else
    converted by :func:`cells_inside` (which names a cell off the map)."""
    pairs = cells if isinstance(cells, list) else list(cells)
    try:
        for x, y in pairs:
            if not (type(x) is int and type(y) is int and 0 <= x < width and 0 <= y < height):
                break
        else:
            return pairs
    except (TypeError, ValueError):  # not pairs: cells_inside says so
        pass
    xs, ys = cells_inside(pairs, width, height)
    return list(zip(xs.tolist(), ys.tolist()))
