"""A TileMap's ``tile_data`` decoded, and which of its cells block (SPEC G1).

A cell blocks when its tile has a collision shape there, or when its tile id or
name is listed in ``blocking``. The grid covers the TileMap's used rectangle, or
``bounds`` (a rectangle of TileMap cells) for games that paint only obstacles on
a map of known size. Cells that hold no tile are free unless
``empty_passable=False``. TileMaps stacked as layers on one cell grid (a floor,
walls above it) are read together: a cell blocks where any layer's tile blocks,
is walkable where some layer has a tile and none blocks, and a cell no layer
paints follows ``empty_passable``. A tile id the TileSet lacks is an error, or, with
``unknown_tiles="open"``, a tile without collision, as the engine loads it.

Plain data in, so that the engine (the NavGrid node) and the scene-file reader
(:mod:`pathing_py.godot.scene_files`) decide alike::

    >>> from pathing_py.godot.tile_data import grid_from_tile_data
    >>> tile_data = [0, 0, 0,  1, 1, 0,  65535, 0, 0]   # cells (0, 0), (1, 0), (-1, 0)
    >>> grid = grid_from_tile_data(tile_data, collision={0: False, 1: True})
    >>> grid.origin, grid.passable.tolist()
    ((-1, 0), [[True, True, False]])

``collision`` maps each tile id to what the TileSet says: for a single tile
whether it has any collision shape, for an autotile or atlas the set of sub-tile
coordinates ``(ax, ay)`` that carry one (the engine matches a shape's
``autotile_coord`` with the cell's autotile coordinate).
"""

import numbers
import operator
from dataclasses import dataclass
from typing import Any, FrozenSet, Iterable, List, Mapping, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np

from ..grid import Cell, Grid, MapFormatError

__all__ = [
    "BOUNDS_MAX_CELLS",
    "CellRect",
    "CollisionRules",
    "TileCells",
    "TileLayer",
    "UNKNOWN_TILES",
    "blocked_cells",
    "blocking_ids",
    "layer_blocking_ids",
    "cell_rect",
    "decode_tile_data",
    "grid_area",
    "grid_from_tile_data",
    "passable_cells",
    "decode_stack",
    "quoted",
    "tiles_that_cannot_block",
]

#: Bits of the second int of a cell in ``tile_data``: the tile id is below them.
FLIP_H_BIT = 1 << 29
FLIP_V_BIT = 1 << 30
TRANSPOSE_BIT = 1 << 31
TILE_ID_MASK = FLIP_H_BIT - 1

#: Tile id -> bool (single tile has a shape) or set of sub-tile coords with a shape.
CollisionRules = Mapping[int, Union[bool, Iterable[Tuple[int, int]]]]

#: What to make of a cell whose tile id the TileSet lacks: refuse the map, or a tile without
#: collision (what the engine loads).
UNKNOWN_TILES = ("error", "open")

#: TileMap cells are signed 16-bit in ``tile_data``; bounds must stay inside that range.
CELL_MIN, CELL_MAX = -(1 << 15), (1 << 15) - 1
#: Most cells a bounds rectangle may hold (a 4096 x 4096 map): a typo must not eat the memory.
BOUNDS_MAX_CELLS = 1 << 24

#: Longest list of ids or names quoted in an error message.
_QUOTED_MAX = 12


class CellRect(NamedTuple):
    """A rectangle of TileMap cells: its top-left cell and its size in cells (``Rect2`` in cells)."""

    x: int
    y: int
    width: int
    height: int

    def __str__(self) -> str:
        return f"({self.x}, {self.y}) to ({self.x + self.width - 1}, {self.y + self.height - 1})"

    def contains(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Per cell ``(x[i], y[i])``, whether it lies inside."""
        return (x >= self.x) & (x < self.x + self.width) & (y >= self.y) & (y < self.y + self.height)


def cell_rect(value: Any, what: str = "bounds") -> CellRect:
    """``(x, y, width, height)`` in whole TileMap cells as a CellRect; ValueError naming ``what`` if it is not one.

    The size must be at least one cell each way, the cells inside the 16-bit
    range Godot 3 stores, and the rectangle at most BOUNDS_MAX_CELLS cells.
    """
    try:
        values = [float(item) for item in value]
    except (TypeError, ValueError):
        raise ValueError(f"{what} must be four numbers (x, y, width, height), got {value!r}") from None
    if len(values) != 4:
        raise ValueError(f"{what} must be four numbers (x, y, width, height), got {len(values)}")
    if not all(number.is_integer() for number in values):  # NaN and infinities are not integers either
        raise ValueError(f"{what} must be whole cells, got {tuple(values)}")
    rect = CellRect(*(int(number) for number in values))
    if rect.width < 1 or rect.height < 1:
        raise ValueError(f"{what} must be at least one cell wide and high, got {rect.width}x{rect.height}")
    if (
        rect.x < CELL_MIN
        or rect.y < CELL_MIN
        or rect.x + rect.width - 1 > CELL_MAX
        or rect.y + rect.height - 1 > CELL_MAX
    ):
        raise ValueError(f"{what} {rect} leaves the cells a Godot 3 TileMap has ({CELL_MIN} to {CELL_MAX})")
    if rect.width * rect.height > BOUNDS_MAX_CELLS:
        raise ValueError(
            f"{what} of {rect.width}x{rect.height} cells is larger than {BOUNDS_MAX_CELLS} cells (4096x4096)"
        )
    return rect


@dataclass(frozen=True)
class TileCells:
    """The used cells of a TileMap decoded from ``tile_data``: parallel arrays, sorted by (y, x).

    ``autotile_x`` / ``autotile_y`` are the autotile (or atlas) sub-tile
    coordinate, 0 for single tiles and for the old two-int layout.
    """

    x: np.ndarray
    y: np.ndarray
    tile: np.ndarray
    flip_h: np.ndarray
    flip_v: np.ndarray
    transpose: np.ndarray
    autotile_x: np.ndarray
    autotile_y: np.ndarray

    def __len__(self) -> int:
        return len(self.x)

    @property
    def origin(self) -> Cell:
        """Top-left cell of the used rectangle (``TileMap.get_used_rect().position``)."""
        return int(self.x.min()), int(self.y.min())

    @property
    def size(self) -> Tuple[int, int]:
        """(width, height) of the used rectangle."""
        return int(self.x.max() - self.x.min() + 1), int(self.y.max() - self.y.min() + 1)

    @property
    def used_rect(self) -> CellRect:
        """The used rectangle (``TileMap.get_used_rect()``); there must be cells."""
        return CellRect(*self.origin, *self.size)

    def raster(self, values: np.ndarray, empty: Any, rect: Optional[CellRect] = None) -> np.ndarray:
        """``values`` (one per cell) laid out ``[y, x]`` over ``rect`` (the used rectangle by default).

        ``empty`` where no cell is; cells outside ``rect`` are left out.
        """
        area = rect if rect is not None else self.used_rect
        array = np.full((area.height, area.width), empty, dtype=np.asarray(values).dtype)
        inside = area.contains(self.x, self.y)
        array[self.y[inside] - area.y, self.x[inside] - area.x] = np.asarray(values)[inside]
        return array


@dataclass(frozen=True)
class TileLayer:
    """One TileMap of a stack: its used cells and, per cell, whether its tile blocks."""

    cells: TileCells
    blocked: np.ndarray


def tiles_that_cannot_block(names: Mapping[int, str], collision: CollisionRules, listed: Iterable) -> List[str]:
    """The tile names, sorted, of a TileSet with named tiles but no collision shape at all when no tile is
    listed as blocking (then no cell blocks: the obstacle tiles must be named); [] otherwise."""
    if not names or any(collision.values()) or any(True for _ in listed):
        return []
    return sorted(set(names.values()))


def grid_from_tile_data(
    tile_data: Iterable[int],
    *,
    format: int = 1,
    collision: CollisionRules,
    names: Optional[Mapping[int, str]] = None,
    blocking: Optional[Iterable[Union[int, str]]] = None,
    empty_passable: bool = True,
    bounds: Optional[CellRect] = None,
    unknown_tiles: str = "error",
    connectivity: int = 8,
    layers: Iterable[Tuple[Iterable[int], CollisionRules, Mapping[int, str]]] = (),
) -> Grid:
    """Build the grid of a TileMap's used rectangle (or of ``bounds``) from plain data.

    Parameters
    ----------
    tile_data : sequence of int or int ndarray
        The TileMap's ``tile_data`` property (int32, or the unsigned 64-bit
        values godot-python 0.50 returns: only the low 32 bits are read).
    format : 0 or 1
        The TileMap's ``format``; the engine always returns data in format 1.
    collision : mapping
        Tile id -> bool for single tiles, set of sub-tile ``(ax, ay)`` with a
        collision shape for autotiles and atlases. Every used id must be there.
    names : mapping, optional
        Tile id -> tile name, needed when ``blocking`` lists names.
    blocking : iterable of int or str, optional
        Tile ids or names that block whatever their shapes.
    empty_passable : bool
        Whether cells without a tile are free.
    bounds : CellRect, optional
        The TileMap cells the grid covers (see :func:`cell_rect`); cells
        painted outside are left out. None: the used rectangle.
    unknown_tiles : "error" or "open"
        A tile id missing from ``collision``: an error, or (``"open"``, the
        engine's way) a tile without collision.
    connectivity : 8 or 4
        The grid's (see :class:`~pathing_py.Grid`).
    layers : iterable of (tile_data, collision, names)
        More TileMaps on the same cells (format 1), each with its TileSet's
        collision and names: a cell blocks where any of them blocks (see
        :func:`passable_cells`); the used rectangle covers them all.

    Raises
    ------
    MapFormatError
        Bad length or format, a tile id missing from ``collision`` (naming the
        id and its cell), no cell at all (without ``bounds``), or no passable cell.
    ValueError, TypeError
        ``blocking`` names an id or name no TileSet has.
    """
    stack = decode_stack(
        [(tile_data, collision, names or {}), *layers], format=format, blocking=blocking, unknown_tiles=unknown_tiles
    )
    area = grid_area(stack, bounds, "")
    return Grid(passable_cells(stack, empty_passable, area, ""), origin=(area.x, area.y), connectivity=connectivity)


def decode_stack(
    sources: Sequence[Tuple[Iterable[int], CollisionRules, Mapping[int, str]]],
    *,
    format: int = 1,
    blocking: Optional[Iterable[Union[int, str]]] = None,
    unknown_tiles: str = "error",
) -> List[TileLayer]:
    """Each TileMap of a stack (its ``tile_data``, collision rules and names; the first one's in ``format``,
    the others' in format 1) decoded, with which of its cells block; see :func:`grid_from_tile_data`."""
    listed = layer_blocking_ids(blocking, [(rules, names) for _, rules, names in sources], "")
    stack = []
    for index, ((data, rules, _), ids) in enumerate(zip(sources, listed)):
        cells = decode_tile_data(data, format if index == 0 else 1)
        stack.append(TileLayer(cells, blocked_cells(cells, rules, ids, unknown_tiles, "")))
    return stack


# -- decoding tile_data ---------------------------------------------------------------


def decode_tile_data(tile_data: Iterable[int], format: int = 1, *, where: str = "") -> TileCells:
    """Decode a TileMap's ``tile_data`` (``format`` 1: three ints per cell, 0: two).

    A cell listed twice keeps its last entry, as when Godot loads it. Errors
    start with ``where`` (the file, line and node they come from), if given.
    """
    if format not in (0, 1):
        raise MapFormatError(_at(where, f"unsupported TileMap format {format!r} (Godot 3 writes 1, old files 0)"))
    words = _as_words(tile_data, where)
    stride = 3 if format == 1 else 2
    if len(words) % stride:
        raise MapFormatError(
            _at(where, f"tile_data has {len(words)} ints, not a multiple of {stride} (format {format})")
        )
    words = words.reshape(-1, stride)
    words = words[_last_of_each(words[:, 0])]
    x, y = _int16(words[:, 0]), _int16(words[:, 0] >> 16)
    order = np.lexsort((x, y))
    words, x, y = words[order], x[order], y[order]
    value = words[:, 1]
    autotile = words[:, 2] if stride == 3 else np.zeros(len(words), dtype=np.uint32)
    return TileCells(
        x=x,
        y=y,
        tile=(value & TILE_ID_MASK).astype(np.int64),
        flip_h=(value & FLIP_H_BIT) != 0,
        flip_v=(value & FLIP_V_BIT) != 0,
        transpose=(value & TRANSPOSE_BIT) != 0,
        autotile_x=_int16(autotile),
        autotile_y=_int16(autotile >> 16),
    )


def _as_words(tile_data: Iterable[int], where: str) -> np.ndarray:
    """The ints as uint32 whatever their signedness or width (int32 in files, uint64 from godot-python)."""
    if isinstance(tile_data, np.ndarray):
        array = tile_data
    else:
        try:
            array = np.array([operator.index(value) & 0xFFFFFFFF for value in tile_data], dtype=np.int64)
        except TypeError:
            raise TypeError(_at(where, "tile_data must be a flat sequence of integers")) from None
    if array.ndim != 1:
        raise ValueError(_at(where, f"tile_data must be one-dimensional, got shape {array.shape}"))
    if array.size and array.dtype.kind not in "iu":
        raise TypeError(_at(where, f"tile_data must hold integers, got dtype {array.dtype}"))
    return (array.astype(np.int64) & 0xFFFFFFFF).astype(np.uint32)


def _last_of_each(positions: np.ndarray) -> np.ndarray:
    """Indices of the last entry of each distinct position (a later set_cell overwrites)."""
    _, first_from_end = np.unique(positions[::-1], return_index=True)
    return len(positions) - 1 - first_from_end


def _int16(words: np.ndarray) -> np.ndarray:
    """Low 16 bits as signed values (cells and sub-tiles may be negative)."""
    return (words & 0xFFFF).astype(np.uint16).view(np.int16).astype(np.int64)


# -- which cells block ----------------------------------------------------------------


def grid_area(layers: Sequence[TileLayer], bounds: Optional[CellRect], where: str) -> CellRect:
    """``bounds`` checked, else the rectangle the layers' used rectangles cover together, which needs cells."""
    if bounds is not None:
        return cell_rect(bounds)
    painted = [layer.cells.used_rect for layer in layers if len(layer.cells)]
    if not painted:
        what = "tile_data has" if len(layers) == 1 else f"none of the {len(layers)} layers has"
        raise MapFormatError(_at(where, f"{what} no cells (give bounds to navigate an empty TileMap)"))
    left, top = min(rect.x for rect in painted), min(rect.y for rect in painted)
    right = max(rect.x + rect.width for rect in painted)
    bottom = max(rect.y + rect.height for rect in painted)
    return CellRect(left, top, right - left, bottom - top)


def blocked_cells(
    cells: TileCells,
    collision: CollisionRules,
    listed: FrozenSet[int],
    unknown_tiles: str,
    where: str,
) -> np.ndarray:
    """Per used cell: a collision shape there (the engine's rule), or a tile ``listed`` as blocking."""
    if unknown_tiles not in UNKNOWN_TILES:
        raise ValueError(f"unknown_tiles must be one of {', '.join(map(repr, UNKNOWN_TILES))}, got {unknown_tiles!r}")
    blocked = np.zeros(len(cells), dtype=bool)
    for tile in np.unique(cells.tile).tolist():
        here = cells.tile == tile
        if tile not in collision:
            if unknown_tiles == "open":
                continue  # the engine's TileMap draws nothing there and gives it no collision
            first = int(np.flatnonzero(here)[0])
            known = quoted(sorted(collision))
            cell = f"({cells.x[first]}, {cells.y[first]})"
            raise MapFormatError(
                _at(
                    where,
                    f"unknown tile id {tile} at cell {cell}; the TileSet has ids {known} "
                    '(unknown_tiles="open" reads such cells as the engine does: tiles without collision)',
                )
            )
        blocked[here] = _has_shape(collision[tile], cells.autotile_x[here], cells.autotile_y[here], tile)
    return blocked | np.isin(cells.tile, sorted(listed))


def _has_shape(rule: Any, autotile_x: np.ndarray, autotile_y: np.ndarray, tile: int) -> np.ndarray:
    """Single tiles: one answer for all cells; autotiles and atlases: by sub-tile coordinate."""
    if isinstance(rule, (bool, np.bool_)):
        return np.full(len(autotile_x), bool(rule))
    try:
        coords = np.array([(int(ax), int(ay)) for ax, ay in rule], dtype=np.int64).reshape(-1, 2)
    except (TypeError, ValueError):
        raise TypeError(
            f"collision[{tile}] must be a bool or a set of (ax, ay) sub-tile coordinates, got {rule!r}"
        ) from None
    return np.isin(_coord_codes(autotile_x, autotile_y), _coord_codes(coords[:, 0], coords[:, 1]))


def _coord_codes(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """One int per (x, y) pair of 16-bit values, for set membership with np.isin."""
    return x.astype(np.int64) * 0x10000 + y.astype(np.int64)


def blocking_ids(
    blocking: Optional[Iterable[Union[int, str]]],
    collision: CollisionRules,
    names: Mapping[int, str],
    where: str,
) -> FrozenSet[int]:
    """Tile ids listed by id or name; unknown ones are errors since a typo would silently free cells."""
    return layer_blocking_ids(blocking, [(collision, names)], where)[0]


def layer_blocking_ids(
    blocking: Optional[Iterable[Union[int, str]]],
    tile_sets: Sequence[Tuple[CollisionRules, Mapping[int, str]]],
    where: str,
) -> List[FrozenSet[int]]:
    """Per layer's TileSet (its collision rules and names), the tile ids ``blocking`` lists by id or name.

    An item may be missing from some TileSets of a stack, but one that no
    TileSet has is an error (a typo would silently free cells).
    """
    found: List[set] = [set() for _ in tile_sets]
    if blocking is None:
        return [frozenset()] * len(tile_sets)
    if isinstance(blocking, (str, bytes, numbers.Integral)):
        raise TypeError(f"blocking must be an iterable of tile ids or names, got {blocking!r}")
    for item in blocking:
        if isinstance(item, str):
            matches = [{int(tile) for tile, name in names.items() if str(name) == item} for _, names in tile_sets]
        elif isinstance(item, numbers.Integral) and not isinstance(item, (bool, np.bool_)):
            matches = [{int(item)} if item in collision else set() for collision, _ in tile_sets]
        else:
            raise TypeError(f"blocking: {item!r} is neither a tile id (int) nor a tile name (str)")
        if not any(matches):
            raise ValueError(_at(where, _unknown_blocking(item, tile_sets)))
        for ids, matched in zip(found, matches):
            ids |= matched
    return [frozenset(ids) for ids in found]


def _unknown_blocking(item: Union[int, str], tile_sets: Sequence[Tuple[CollisionRules, Mapping[int, str]]]) -> str:
    if isinstance(item, str):
        known = quoted(sorted({str(name) for _, names in tile_sets for name in names.values()}))
        return f"blocking: no tile named {item!r}; tile names: {known}"
    ids = quoted(sorted({int(tile) for collision, _ in tile_sets for tile in collision}))
    return f"blocking: no tile id {item}; ids: {ids}"


def passable_cells(layers: Sequence[TileLayer], empty_passable: bool, area: CellRect, where: str) -> np.ndarray:
    """``passable[y, x]`` over ``area``: blocked where any layer's tile blocks, walkable where some layer has a
    tile and none blocks, ``empty_passable`` where no layer has one; a map without a passable cell is an error."""
    painted = np.zeros((area.height, area.width), dtype=bool)
    blocked = np.zeros((area.height, area.width), dtype=bool)
    for layer in layers:
        painted |= layer.cells.raster(np.ones(len(layer.cells), dtype=bool), False, area)
        blocked |= layer.cells.raster(np.asarray(layer.blocked, dtype=bool), False, area)
    passable = np.where(painted, ~blocked, bool(empty_passable))
    if not passable.any():
        empty = "" if empty_passable else " (empty cells count as blocked)"
        raise MapFormatError(_at(where, f"no passable cell in the {area.width}x{area.height} map {area}{empty}"))
    return passable


def _at(where: str, message: str) -> str:
    """Prefix a message with its place (file, line and node), if there is one."""
    return f"{where}: {message}" if where else message


def quoted(items: List[Any]) -> str:
    """Items for an error message, the first ``_QUOTED_MAX`` of them (long TileSets stay readable)."""
    shown = ", ".join(repr(item) if isinstance(item, str) else str(item) for item in items[:_QUOTED_MAX])
    more = f", … ({len(items)} in all)" if len(items) > _QUOTED_MAX else ""
    return (shown + more) or "none"
