"""Obstacle grids from Godot 3 TileMaps (SPEC G1).

A cell blocks when its tile has a collision shape there, or when its tile id or
name is listed in ``blocking``. The grid covers the TileMap's used rectangle, or
``bounds`` (a rectangle of TileMap cells) for games that paint only obstacles on
a map of known size. Cells that hold no tile are free unless
``empty_passable=False``. A tile id the TileSet lacks is an error, or, with
``unknown_tiles="open"``, a tile without collision, as the engine loads it.

Quick start, from a scene file (the TileSet may be embedded or a ``.tres``)::

    from pathing_py import Grid
    grid = Grid.from_tscn("res/level.tscn", tilemap="World/Ground", blocking=["water"])
    grid.origin            # the TileMap cell of grid cell (0, 0)
    arena = Grid.from_tscn("res/arena.tscn", bounds=(-10, -10, 64, 48))  # x, y, width, height

From data read in the engine (what the NavGrid node does)::

    >>> from pathing_py.godot.scene_files import grid_from_tile_data
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
from pathlib import Path
from typing import Any, Dict, FrozenSet, Iterable, List, Mapping, NamedTuple, Optional, Tuple, Union

import numpy as np

from ..grid import Cell, Grid, MapFormatError
from .text import Constructor, Document, ResourceRef, Section, parse_file
from .tile_geometry import DEFAULT_CELL_SIZE, DEFAULT_CUSTOM_TRANSFORM, GeometryError, TileGeometry

__all__ = [
    "CellRect",
    "NavGridSettings",
    "TileCells",
    "TileMapData",
    "UNKNOWN_TILES",
    "cell_rect",
    "decode_tile_data",
    "grid_from_tile_data",
    "list_tilemaps",
    "nav_grid_settings",
    "navgrid_bounds",
    "read_tilemap",
]

#: Bits of the second int of a cell in ``tile_data``: the tile id is below them.
FLIP_H_BIT = 1 << 29
FLIP_V_BIT = 1 << 30
TRANSPOSE_BIT = 1 << 31
TILE_ID_MASK = FLIP_H_BIT - 1

#: ``TileSet.tile_mode`` values.
SINGLE_TILE, AUTO_TILE, ATLAS_TILE = 0, 1, 2

#: Tile id -> bool (single tile has a shape) or set of sub-tile coords with a shape.
CollisionRules = Mapping[int, Union[bool, Iterable[Tuple[int, int]]]]
#: What read_tilemap finds for one tile.
CollisionRule = Union[bool, FrozenSet[Tuple[int, int]]]

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
    if rect.x < CELL_MIN or rect.y < CELL_MIN or rect.x + rect.width - 1 > CELL_MAX or rect.y + rect.height - 1 > CELL_MAX:
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
class TileMapData:
    """One TileMap read from a scene file: its cells, its TileSet's rules, and which cells block.

    ``blocked[i]`` is True when cell ``i`` of ``cells`` has a collision shape or
    a tile listed in ``blocking`` (``listed``). ``geometry`` places the cells in pixels.
    """

    source: Path
    node_path: str
    line: int
    cells: TileCells
    blocked: np.ndarray
    collision: Dict[int, CollisionRule]
    names: Dict[int, str]
    listed: FrozenSet[int] = frozenset()  #: tile ids that block because ``blocking`` lists them
    geometry: TileGeometry = TileGeometry()

    @property
    def origin(self) -> Cell:
        return self.cells.origin

    def area(self, bounds: Optional[CellRect] = None) -> CellRect:
        """The cells a grid covers, to navigate: ``bounds``, else the used rectangle.

        Raises MapFormatError if there is no used rectangle, or if the TileMap is
        half-offset (hexagonal): its cells have six neighbours, not eight.
        """
        if self.geometry.problem():
            raise MapFormatError(f"{self._where()} cannot be navigated: {self.geometry.problem()}")
        return _area(self.cells, bounds, self._where())

    def passable(self, *, empty_passable: bool = True, bounds: Optional[CellRect] = None) -> np.ndarray:
        """``passable[y, x]`` over :meth:`area`; raises as it does, and if no cell is passable."""
        return _passable(self.cells, self.blocked, empty_passable, self.area(bounds), self._where())

    def grid(self, *, empty_passable: bool = True, bounds: Optional[CellRect] = None) -> Grid:
        """The grid of :meth:`area`, its origin the area's top-left TileMap cell."""
        area = self.area(bounds)
        return Grid(self.passable(empty_passable=empty_passable, bounds=area), origin=(area.x, area.y))

    def _where(self) -> str:
        return f"{self.source}:{self.line}: TileMap {self.node_path!r}"


def decode_tile_data(tile_data: Iterable[int], format: int = 1) -> TileCells:
    """Decode a TileMap's ``tile_data`` (``format`` 1: three ints per cell, 0: two).

    A cell listed twice keeps its last entry, as when Godot loads it.
    """
    return _decode(tile_data, format, "")


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

    Raises
    ------
    MapFormatError
        Bad length or format, a tile id missing from ``collision`` (naming the
        id and its cell), no cell at all (without ``bounds``), or no passable cell.
    ValueError, TypeError
        ``blocking`` names an id or name the TileSet does not have.
    """
    cells = _decode(tile_data, format, "")
    listed = _blocking_ids(blocking, collision, names or {}, "")
    blocked = _blocked_cells(cells, collision, listed, unknown_tiles, "")
    area = _area(cells, bounds, "")
    return Grid(_passable(cells, blocked, empty_passable, area, ""), origin=(area.x, area.y))


def read_tilemap(
    path: Union[str, Path],
    tilemap: Optional[str] = None,
    blocking: Optional[Iterable[Union[int, str]]] = None,
    *,
    unknown_tiles: str = "error",
) -> TileMapData:
    """Read a TileMap node and its TileSet from a Godot 3 ``.tscn`` file.

    ``tilemap`` picks the node by name (``"Ground"``) or node path
    (``"World/Ground"``, or ``"Ground"`` relative to the root); it may be left
    out when the scene has one TileMap. An external TileSet's ``res://`` path is
    resolved against the nearest folder above the scene holding
    ``project.godot`` (else the scene's folder). TileMaps inside instanced
    scenes are not followed: read that scene's file.

    ``unknown_tiles`` says what a tile id the TileSet lacks is: ``"error"``, or
    ``"open"``, a tile without collision, as the engine loads it.

    Raises MapFormatError naming the file and line for malformed text, a
    missing TileMap or TileSet, bad ``tile_data``, or an unknown tile id.
    """
    path = Path(path)
    scene = parse_file(path)
    _require_header(scene, "gd_scene")
    node_path, node = _pick_tilemap(scene, tilemap)
    collision, names = _read_tile_set(scene, node, node_path, path)
    line, cells = _read_cells(scene, node, node_path)
    geometry = _read_geometry(scene, node, node_path)
    where = f"{scene.where(line)}: TileMap {node_path!r}"
    listed = _blocking_ids(blocking, collision, names, where)
    blocked = _blocked_cells(cells, collision, listed, unknown_tiles, where)
    return TileMapData(path, node_path, line, cells, blocked, collision, names, listed, geometry)


def list_tilemaps(path: Union[str, Path]) -> List[str]:
    """Node paths (``"World/Ground"``) of the TileMaps in a ``.tscn`` file, in file order."""
    scene = parse_file(path)
    _require_header(scene, "gd_scene")
    return [node_path for node_path, _ in _tilemap_nodes(scene)]


class NavGridSettings(NamedTuple):
    """What a NavGrid node of a scene says about reading its TileMap."""

    node_path: str
    tilemap: str  #: node path of the TileMap it points at, as read_tilemap takes it
    blocking: List[str]
    empty_passable: bool
    cluster_size: int = 0  #: of its key-point graph; 0 lets the bake choose
    bounds: Optional[CellRect] = None  #: the cells it navigates; None: the TileMap's used rectangle


def navgrid_bounds(rect: Iterable[float]) -> Optional[CellRect]:
    """A NavGrid's ``bounds`` (a Rect2 in cells: x, y, width, height) as a CellRect; None for a zero size (unset).

    ValueError saying why for any other rectangle that is not whole cells.
    """
    values = tuple(rect)
    if len(values) == 4 and values[2] == 0 and values[3] == 0:
        return None
    return cell_rect(values, "bounds")


#: The NavGrid node script, as scenes reference it.
NAV_GRID_SCRIPT = "res://addons/pathing_py/nav_grid.py"


def nav_grid_settings(path: Union[str, Path]) -> List[NavGridSettings]:
    """The NavGrid nodes of a ``.tscn`` file and their exported settings (defaults where unset).

    Lets tools outside the engine read a scene's map exactly as its NavGrid will.
    """
    scene = parse_file(path)
    _require_header(scene, "gd_scene")
    scripts = {
        section.attributes.get("id")
        for section in scene.sections
        if section.tag == "ext_resource" and section.attributes.get("path") == NAV_GRID_SCRIPT
    }
    found = []
    for node_path, section in _nodes(scene):
        script = section.properties.get("script")
        if not (isinstance(script, ResourceRef) and script.kind == "ExtResource" and script.id in scripts):
            continue
        target = section.properties.get("tilemap_path", Constructor("NodePath", ("../TileMap",)))
        blocking = section.properties.get("blocking_tiles", Constructor("PoolStringArray", ()))
        bounds = section.properties.get("bounds", Constructor("Rect2", (0, 0, 0, 0)))
        where = f"{scene.where(section.property_lines.get('bounds', section.line))}: NavGrid {node_path!r}"
        if not (isinstance(bounds, Constructor) and bounds.name == "Rect2"):
            raise MapFormatError(f"{where}: bounds must be a Rect2( x, y, width, height )")
        try:
            cells = navgrid_bounds(bounds.args)
        except ValueError as error:
            raise MapFormatError(f"{where}: {error}") from None
        found.append(
            NavGridSettings(
                node_path,
                _resolve_node_path(node_path, str(target.args[0]) if target.args else ""),
                [str(name) for name in blocking.args],
                bool(section.properties.get("empty_cells_passable", True)),
                int(section.properties.get("cluster_size", 0)),
                cells,
            )
        )
    return found


def _resolve_node_path(node_path: str, relative: str) -> str:
    """``relative`` (a NodePath such as ``../TileMap``) seen from ``node_path``."""
    parts = node_path.split("/")
    for part in relative.split("/"):
        if part == "..":
            parts = parts[:-1]
        elif part not in ("", "."):
            parts.append(part)
    return "/".join(parts)


# -- decoding tile_data ---------------------------------------------------------------


def _decode(tile_data: Iterable[int], format: int, where: str) -> TileCells:
    if format not in (0, 1):
        raise MapFormatError(
            _at(where, f"unsupported TileMap format {format!r} (Godot 3 writes 1, old files 0)")
        )
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


def _area(cells: TileCells, bounds: Optional[CellRect], where: str) -> CellRect:
    """``bounds`` checked, else the used rectangle, which needs cells."""
    if bounds is not None:
        return cell_rect(bounds)
    if len(cells) == 0:
        raise MapFormatError(_at(where, "tile_data has no cells (give bounds to navigate an empty TileMap)"))
    return cells.used_rect


def _blocked_cells(
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
            known = _quoted(sorted(collision))
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


def _blocking_ids(
    blocking: Optional[Iterable[Union[int, str]]],
    collision: CollisionRules,
    names: Mapping[int, str],
    where: str,
) -> FrozenSet[int]:
    """Tile ids listed by id or name; unknown ones are errors since a typo would silently free cells."""
    if blocking is None:
        return frozenset()
    if isinstance(blocking, (str, bytes, numbers.Integral)):
        raise TypeError(f"blocking must be an iterable of tile ids or names, got {blocking!r}")
    ids = set()
    for item in blocking:
        if isinstance(item, str):
            matches = {int(tile) for tile, name in names.items() if str(name) == item}
            if not matches:
                known = _quoted(sorted({str(name) for name in names.values()}))
                raise ValueError(_at(where, f"blocking: no tile named {item!r}; tile names: {known}"))
            ids |= matches
        elif isinstance(item, numbers.Integral) and not isinstance(item, (bool, np.bool_)):
            if item not in collision:
                raise ValueError(
                    _at(where, f"blocking: no tile id {item}; ids: {_quoted(sorted(collision))}")
                )
            ids.add(int(item))
        else:
            raise TypeError(f"blocking: {item!r} is neither a tile id (int) nor a tile name (str)")
    return frozenset(ids)


def _passable(cells: TileCells, blocked: np.ndarray, empty_passable: bool, area: CellRect, where: str) -> np.ndarray:
    passable = cells.raster(~blocked, bool(empty_passable), area)
    if not passable.any():
        empty = "" if empty_passable else " (empty cells count as blocked)"
        raise MapFormatError(_at(where, f"no passable cell in the {area.width}x{area.height} map {area}{empty}"))
    return passable


def _at(where: str, message: str) -> str:
    """Prefix a message with its place (file, line and node), if there is one."""
    return f"{where}: {message}" if where else message


def _quoted(items: List[Any]) -> str:
    shown = ", ".join(repr(item) if isinstance(item, str) else str(item) for item in items[:_QUOTED_MAX])
    more = f", … ({len(items)} in all)" if len(items) > _QUOTED_MAX else ""
    return (shown + more) or "none"


# -- scene files ----------------------------------------------------------------------


def _require_header(document: Document, tag: str) -> Section:
    header = document.sections[0]
    if header.tag != tag:
        raise MapFormatError(
            f"{document.where(header.line)}: expected a [{tag} …] file, found [{header.tag} …]"
        )
    return header


def _nodes(scene: Document) -> List[Tuple[str, Section]]:
    """(node path from the root's name, section) of every node, in file order."""
    found = []
    root = None
    for section in scene.sections:
        if section.tag != "node":
            continue
        name, parent = section.attributes.get("name"), section.attributes.get("parent")
        if not isinstance(name, str) or not (parent is None or isinstance(parent, str)):
            raise MapFormatError(f'{scene.where(section.line)}: a node needs name="…" (and parent="…")')
        if parent is None:
            if root is not None:
                raise MapFormatError(
                    f"{scene.where(section.line)}: node {name!r} has no parent but is not the root"
                )
            root = name
            node_path = name
        elif root is None:
            raise MapFormatError(f"{scene.where(section.line)}: node {name!r} comes before the root node")
        else:
            node_path = f"{root}/{name}" if parent == "." else f"{root}/{parent}/{name}"
        found.append((node_path, section))
    return found


def _tilemap_nodes(scene: Document) -> List[Tuple[str, Section]]:
    """(node path from the root's name, section) of each TileMap node."""
    return [(path, section) for path, section in _nodes(scene) if section.attributes.get("type") == "TileMap"]


def _pick_tilemap(scene: Document, choice: Optional[str]) -> Tuple[str, Section]:
    nodes = _tilemap_nodes(scene)
    if not nodes:
        raise MapFormatError(f"{scene.source}: no TileMap node in the scene{_instanced_note(scene)}")
    listing = _quoted([node_path for node_path, _ in nodes])
    if choice is None:
        if len(nodes) > 1:
            raise MapFormatError(
                f"{scene.source}: several TileMap nodes ({listing}); choose one with tilemap=…"
            )
        return nodes[0]
    matches = [(node_path, section) for node_path, section in nodes if _names_node(choice, node_path)]
    if not matches:
        raise MapFormatError(f"{scene.source}: no TileMap {choice!r}; TileMap nodes: {listing}")
    if len(matches) > 1:
        paths = _quoted([node_path for node_path, _ in matches])
        raise MapFormatError(
            f"{scene.source}: several TileMaps match {choice!r} ({paths}); give the node path"
        )
    return matches[0]


def _names_node(choice: str, node_path: str) -> bool:
    """``choice`` is the node's name, its path from the root, or its path from the scene root's name."""
    parts = node_path.split("/")
    return choice in (parts[-1], node_path, "/".join(parts[1:]))


def _instanced_note(scene: Document) -> str:
    instanced = [section for section in scene.sections if "instance" in section.attributes]
    return " (TileMaps inside instanced scenes are not read: read those scenes' files)" if instanced else ""


def _read_cells(scene: Document, node: Section, node_path: str) -> Tuple[int, TileCells]:
    """The line of ``tile_data`` and its cells; a TileMap without ``tile_data`` has none."""
    properties, lines = node.properties, node.property_lines
    format_value = properties.get("format", 0)
    if format_value not in (0, 1) or isinstance(format_value, bool):
        where = f"{scene.where(lines['format'])}: TileMap {node_path!r}"
        raise MapFormatError(f"{where}: format must be 0 or 1 (Godot 3 writes 1), got {format_value!r}")
    tile_data = properties.get("tile_data", np.zeros(0, dtype=np.int64))
    line = lines.get("tile_data", node.line)
    where = f"{scene.where(line)}: TileMap {node_path!r}"
    if not isinstance(tile_data, np.ndarray):
        raise MapFormatError(f"{where}: tile_data must be a PoolIntArray( … )")
    return line, _decode(tile_data, format_value, where)


def _read_geometry(scene: Document, node: Section, node_path: str) -> TileGeometry:
    """``mode``, ``cell_size``, ``cell_custom_transform``, ``cell_half_offset`` and ``cell_tile_origin``."""
    properties, lines = node.properties, node.property_lines

    def where(key: str) -> str:
        return f"{scene.where(lines.get(key, node.line))}: TileMap {node_path!r}"

    def numbers(key: str, constructor: str, default: Tuple[float, ...]) -> Tuple[float, ...]:
        value = properties.get(key)
        if value is None:
            return default
        if not (isinstance(value, Constructor) and value.name == constructor and len(value.args) == len(default)):
            raise MapFormatError(f"{where(key)}: {key} must be a {constructor}( {len(default)} numbers ), got {value!r}")
        return tuple(float(arg) for arg in value.args)

    cell_size = numbers("cell_size", "Vector2", DEFAULT_CELL_SIZE)
    xx, xy, yx, yy, ox, oy = numbers("cell_custom_transform", "Transform2D", sum(DEFAULT_CUSTOM_TRANSFORM, ()))
    settings = {
        "cell_size": cell_size,
        "custom_transform": ((xx, xy), (yx, yy), (ox, oy)),
        **{field: properties.get(key, getattr(TileGeometry, field)) for key, field in _GEOMETRY_ENUMS.items()},
    }
    try:
        return TileGeometry(**settings)
    except GeometryError as error:
        raise MapFormatError(f"{where(error.property)}: {error}") from None


#: Enumerated TileMap properties as the scene names them -> TileGeometry fields.
_GEOMETRY_ENUMS = {"mode": "mode", "cell_half_offset": "half_offset", "cell_tile_origin": "tile_origin"}


# -- tile sets ------------------------------------------------------------------------


def _read_tile_set(
    scene: Document, node: Section, node_path: str, scene_path: Path
) -> Tuple[Dict[int, CollisionRule], Dict[int, str]]:
    """The collision rules and names of the TileMap's TileSet, embedded or external."""
    reference = node.properties.get("tile_set")
    line = node.property_lines.get("tile_set", node.line)
    if reference is None:
        raise MapFormatError(f"{scene.where(line)}: TileMap {node_path!r} has no TileSet (tile_set)")
    if not isinstance(reference, ResourceRef):
        raise MapFormatError(f"{scene.where(line)}: tile_set must be a SubResource or ExtResource")
    if reference.kind == "SubResource":
        document, resource = scene, _find_resource(scene, "sub_resource", reference.id, line)
        _require_type(scene, resource, "TileSet", line)
    else:
        external = _find_resource(scene, "ext_resource", reference.id, line)
        _require_type(scene, external, "TileSet", line)
        document = parse_file(
            _resolve(external.attributes.get("path"), scene_path, scene.where(external.line))
        )
        header = _require_header(document, "gd_resource")
        if header.attributes.get("type") != "TileSet":
            raise MapFormatError(f"{document.where(header.line)}: expected a TileSet resource")
        resource = _main_resource(document)
    return _tile_rules(document, resource)


def _find_resource(document: Document, tag: str, resource_id: Any, line: int) -> Section:
    for section in document.sections:
        if section.tag == tag and section.attributes.get("id") == resource_id:
            return section
    raise MapFormatError(f"{document.where(line)}: no [{tag} … id={resource_id}] in the file")


def _require_type(document: Document, section: Section, expected: str, line: int) -> None:
    found = section.attributes.get("type")
    if found != expected:
        raise MapFormatError(
            f"{document.where(line)}: resource id={section.attributes.get('id')} is a {found}, "
            f"not a {expected}"
        )


def _main_resource(document: Document) -> Section:
    for section in document.sections:
        if section.tag == "resource":
            return section
    raise MapFormatError(f"{document.source}: no [resource] section")


def _resolve(resource_path: Any, scene_path: Path, where: str) -> Path:
    """A ``res://`` path from the project root (folder with project.godot), else from the scene's folder."""
    if not isinstance(resource_path, str):
        raise MapFormatError(f'{where}: ext_resource needs path="…"')
    if resource_path.startswith("res://"):
        resolved = _project_root(scene_path) / resource_path[len("res://") :]
    else:
        resolved = scene_path.parent / resource_path
    if resolved.suffix != ".tres":
        raise MapFormatError(
            f"{where}: {resource_path} is not a text resource (.tres); only those can be read"
        )
    if not resolved.is_file():
        raise MapFormatError(f"{where}: TileSet file {resource_path} not found (looked for {resolved})")
    return resolved


def _project_root(scene_path: Path) -> Path:
    folder = scene_path.resolve().parent
    for candidate in (folder, *folder.parents):
        if (candidate / "project.godot").is_file():
            return candidate
    return folder


class _ShapeSlot(NamedTuple):
    """One entry of a tile's shape list: whether it holds a Shape2D, and its sub-tile."""

    has_shape: bool
    coord: Optional[Tuple[int, int]]


#: Default ``autotile_coord`` of a shape.
_ORIGIN = Constructor("Vector2", (0, 0))


def _tile_rules(document: Document, resource: Section) -> Tuple[Dict[int, CollisionRule], Dict[int, str]]:
    """Collision rules and names from the ``N/…`` properties, applied in file order like ``TileSet._set``.

    ``N/shape`` sets the shape of the first slot (adding one at sub-tile (0, 0));
    ``N/shapes`` replaces all slots. Only Shape2D resources give collision.
    """
    modes: Dict[int, int] = {}
    names: Dict[int, str] = {}
    slots: Dict[int, List[_ShapeSlot]] = {}
    for key, value in resource.properties.items():
        head, _, what = key.partition("/")
        if not head.isdigit() or not what:
            continue
        tile = int(head)
        modes.setdefault(tile, SINGLE_TILE)
        tile_slots = slots.setdefault(tile, [])
        line = resource.property_lines[key]
        if what == "name":
            names[tile] = str(value)
        elif what == "tile_mode":
            if value not in (SINGLE_TILE, AUTO_TILE, ATLAS_TILE):
                raise MapFormatError(f"{document.where(line)}: tile_mode must be 0, 1 or 2, got {value!r}")
            modes[tile] = value
        elif what == "is_autotile" and value is True:  # Godot 3.0 files
            modes[tile] = AUTO_TILE
        elif what == "shape":
            first = tile_slots[0] if tile_slots else _ShapeSlot(False, (0, 0))
            tile_slots[:1] = [first._replace(has_shape=_is_shape(document, value, line))]
        elif what == "shapes":
            if not isinstance(value, list):
                raise MapFormatError(f"{document.where(line)}: {key} must be an array [ … ]")
            entries = (_shape_slot(document, entry, line) for entry in value)
            slots[tile] = [slot for slot in entries if slot is not None]
    return {tile: _collision_rule(modes[tile], slots[tile]) for tile in modes}, names


def _collision_rule(mode: int, slots: List[_ShapeSlot]) -> CollisionRule:
    """Single tiles collide if any slot has a shape; others where a slot's sub-tile is the cell's."""
    if mode == SINGLE_TILE:
        return any(slot.has_shape for slot in slots)
    return frozenset(slot.coord for slot in slots if slot.has_shape and slot.coord is not None)


def _shape_slot(document: Document, entry: Any, line: int) -> Optional[_ShapeSlot]:
    """A slot from a ``shapes`` entry (a dictionary, or a bare shape at (0, 0)); None where Godot skips it."""
    if isinstance(entry, ResourceRef):
        return _ShapeSlot(True, (0, 0)) if _is_shape(document, entry, line) else None
    if not isinstance(entry, dict):
        raise MapFormatError(f"{document.where(line)}: each entry of shapes must be a dictionary {{ … }}")
    if not isinstance(entry.get("shape"), ResourceRef):
        return None
    coord = entry.get("autotile_coord", _ORIGIN)
    if not (isinstance(coord, Constructor) and coord.name == "Vector2" and len(coord.args) == 2):
        raise MapFormatError(f"{document.where(line)}: autotile_coord must be a Vector2( x, y )")
    ax, ay = (float(value) for value in coord.args)
    # A cell's sub-tile is integral: a fractional coordinate matches no cell.
    integral = ax.is_integer() and ay.is_integer()
    return _ShapeSlot(_is_shape(document, entry["shape"], line), (int(ax), int(ay)) if integral else None)


def _is_shape(document: Document, value: Any, line: int) -> bool:
    """Whether a shape value is a Shape2D resource (null and other types give no collision)."""
    if value is None:
        return False
    if not isinstance(value, ResourceRef):
        raise MapFormatError(
            f"{document.where(line)}: a shape must be SubResource( … ), ExtResource( … ) or null"
        )
    tag = "sub_resource" if value.kind == "SubResource" else "ext_resource"
    section = _find_resource(document, tag, value.id, line)
    return str(section.attributes.get("type", "")).endswith("Shape2D")
