"""The plain-Python half of the Godot nodes: values in, values out, no engine needed.

The node scripts in ``addons/pathing_py`` only read Godot objects and convert
Godot types to tuples and lists; everything that can go wrong in between
(pythonscript's integer returns, TileSet collision tables, coordinates,
non-finite positions, statuses) is decided here, where plain CPython tests
reach it.

Quick start, with the values a ``NavGrid`` reads from its TileMap::

    >>> from pathing_py.godot.bridge import TileInfo, TileMapNavigator
    >>> tile_data = [0, 1, 0,  1, 0, 0,  2, 0, 0]    # cells (0,0)=wall, (1,0), (2,0) ground
    >>> tiles = [TileInfo(0, "ground"), TileInfo(1, "wall", shape_coords=[(0, 0)])]
    >>> navigator = TileMapNavigator.from_tilemap(tile_data, (32, 32), tiles)
    >>> navigator.cell_of((40.0, 10.0))
    (1, 0)
    >>> navigator.centre_of((2, 0))
    (80.0, 16.0)

Coordinates: a *position* is TileMap-local ``(x, y)`` in pixels (what
``TileMap.map_to_world`` returns); a *cell* is a TileMap cell, which may be
negative; a *grid cell* indexes the :class:`~pathing_py.Grid`, whose
``origin`` is the TileMap cell of grid cell ``(0, 0)``. Square, isometric and
custom TileMaps convert as the engine does (:mod:`pathing_py.godot.tile_geometry`),
and so do half-offset (hexagonal) ones, whose paths follow the six neighbours of
their cells (:mod:`pathing_py.hex_grid`), smoothed along hex lines (:mod:`pathing_py.hex_lines`), through
their own key-point graph (:class:`pathing_py.hierarchy.HexKeyPointGraph`) when one is baked: no units.

A navigator answers from a baked key-point graph when it has one
(:func:`load_graph` decides what to do with a missing or stale file), and
with the exact search otherwise.
"""

import math
import sys
from dataclasses import dataclass, field
from typing import Callable, Dict, FrozenSet, Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np

from ..cell_layout import CellLayout
from ..grid import Cell, Grid
from ..hex_grid import HexSteps, find_hex_path
from ..hex_lines import smooth_hex_path
from ..hierarchy import GraphFileError, HexKeyPointGraph, KeyPointGraph
from ..line import smooth_path
from ..search import PathStatus, find_path, prepare
from ..status import Status
from .painted_cells import TileRules, whole_cells
from .tile_data import CellRect, decode_stack, grid_area, layer_blocking_ids, passable_cells, tiles_that_cannot_block
from .tile_geometry import WORLD_TO_MAP_EPSILON, TileGeometry

__all__ = [
    "CoordinateError",
    "GraphLoad",
    "PathAnswer",
    "StackedCells",
    "TileFrame",
    "TileInfo",
    "TileMapNavigator",
    "bake_graph",
    "bounds_outline",
    "collision_tables",
    "collision_warning",
    "finite_pair",
    "keep_script_loaded",
    "load_graph",
    "map_floor",
    "positions",
    "report_error",
    "signed_int",
    "tilemap_problem",
]

Position = Tuple[float, float]
#: A :meth:`pathing_py.Navigator.set_blocked`: block (or free) grid cells, returning those units keep open.
Edit = Callable[[List[Cell], bool], List[Cell]]
#: A TileMap's geometry, or the cell size of a square TileMap.
Geometry = Union[TileGeometry, Position]

#: ``TileSet.TileMode`` values (Godot 3.2).
TILE_MODE_SINGLE = 0
TILE_MODE_AUTOTILE = 1
TILE_MODE_ATLAS = 2

#: Godot's ``Error.OK``: what ``File.open`` returns when the file could be opened.
GODOT_OK = 0

_UINT64 = 1 << 64
_INT64_MAX = (1 << 63) - 1


class CoordinateError(ValueError):
    """A position or cell that cannot name a cell: NaN, infinite or not a pair of numbers."""


def signed_int(value) -> int:
    """A Godot integer as a Python int, negative values included.

    pythonscript 0.50.0 returns ``int`` results as unsigned 64-bit numbers
    (godot-python issue #365): ``TileMap.get_cell`` answers 2**64 - 1 for an
    empty cell instead of -1. Values above 2**63 - 1 are two's-complement negatives.
    """
    value = int(value)
    return value - _UINT64 if value > _INT64_MAX else value


@dataclass(frozen=True)
class TileInfo:
    """What a TileSet says about one tile, as read by the node.

    ``shape_coords`` holds the ``autotile_coord`` of every collision shape of
    the tile (``(0, 0)`` for single tiles); ``mode`` is a ``TileSet.TileMode``.
    """

    tile_id: int
    name: str
    mode: int = TILE_MODE_SINGLE
    shape_coords: Sequence[Cell] = field(default_factory=tuple)

    def __post_init__(self):
        object.__setattr__(self, "tile_id", signed_int(self.tile_id))
        object.__setattr__(self, "mode", signed_int(self.mode))
        object.__setattr__(self, "name", str(self.name))
        # A fractional autotile_coord matches no cell, for the engine as for the file reader.
        coords = tuple(
            (int(x), int(y)) for x, y in self.shape_coords if float(x).is_integer() and float(y).is_integer()
        )
        object.__setattr__(self, "shape_coords", coords)
        if self.mode not in (TILE_MODE_SINGLE, TILE_MODE_AUTOTILE, TILE_MODE_ATLAS):
            raise ValueError(f"tile {self.tile_id} ({self.name!r}) has unknown tile mode {self.mode}")


Collision = Union[bool, FrozenSet[Cell]]


def collision_tables(tiles: Iterable[TileInfo]) -> Tuple[Dict[int, Collision], Dict[int, str]]:
    """The ``collision`` and ``names`` arguments of :func:`pathing_py.godot.tile_data.grid_from_tile_data`.

    A single tile blocks when it has any collision shape; in an autotile or
    atlas only the sub-tiles that carry a shape block, so those map to the set
    of their autotile coordinates.
    """
    collision: Dict[int, Collision] = {}
    names: Dict[int, str] = {}
    for tile in tiles:
        if tile.tile_id in names:
            raise ValueError(f"tile id {tile.tile_id} appears twice")
        names[tile.tile_id] = tile.name
        if tile.mode == TILE_MODE_SINGLE:
            collision[tile.tile_id] = bool(tile.shape_coords)
        else:
            collision[tile.tile_id] = frozenset(tile.shape_coords)
    return collision, names


def collision_warning(
    tiles: Iterable[TileInfo], blocking: Iterable[str], layers: Sequence[Iterable[TileInfo]] = ()
) -> str:
    """What a node says when its TileSet (and those of the ``layers`` stacked on its TileMap) has named tiles
    but no collision shape and ``blocking`` (its ``blocking_tiles``) is empty: no cell would block (the check
    the CLI makes too); "" otherwise."""
    tables = [collision_tables(tile_set) for tile_set in (tiles, *layers)]
    if any(any(collision.values()) for collision, _ in tables):
        return ""
    names = dict(enumerate(name for _, tile_names in tables for name in tile_names.values()))
    unblocking = tiles_that_cannot_block(names, {}, list(blocking))
    if not unblocking:
        return ""
    listed = ", ".join(repr(name) for name in unblocking)
    return (
        "The TileSet has no collision shapes, so no tile blocks: list the obstacle tiles in blocking_tiles"
        f" (tiles: {listed})."
    )


def tilemap_problem(
    path: str,
    found_class: Optional[str],
    *,
    has_tileset: bool = True,
    tile_names: Iterable[str] = (),
    blocking: Iterable[str] = (),
) -> str:
    """Why a node's ``tilemap_path`` cannot be navigated, or ``""`` when it can.

    ``found_class`` is the class of the node at ``path`` (None if there is none);
    ``blocking`` (the node's ``blocking_tiles``) must name tiles of the TileSet,
    whose names are ``tile_names``: a typo would silently leave cells open.
    The text is shown as the node's configuration warning in the editor.
    """
    if not path:
        return "Set tilemap_path to the TileMap to navigate."
    if found_class is None:
        return f"tilemap_path {path!r} does not point at a node."
    if found_class != "TileMap":
        return f"tilemap_path {path!r} points at a {found_class}, not a TileMap."
    if not has_tileset:
        return f"The TileMap at {path!r} has no TileSet: its collision shapes say which cells block."
    names = sorted({str(name) for name in tile_names})
    unknown = [str(name) for name in blocking if str(name) not in names]
    if unknown:
        listed = ", ".join(map(repr, unknown))
        return f"blocking_tiles names {listed}, which the TileSet lacks (its tiles: {', '.join(names)})."
    return ""


#: Node scripts held until the game ends, by script name (see keep_script_loaded).
_kept_scripts: Dict[str, object] = {}


def keep_script_loaded(name: str, script: object) -> None:
    """Hold a node's Script resource for the rest of the run, so that pythonscript 0.50 can use it again.

    When the last node using a Python script is freed (say, the level is left
    for a menu), Godot frees the script and pythonscript forgets its exposed
    class but keeps the module imported: the next load of the script finds no
    class ("doesn't expose any class to Godot") and the next level's nodes run
    without script. Seen in Godot 3.2.3; holding the resource avoids it.
    """
    _kept_scripts.setdefault(name, script)


def report_error(node_name: str, message: str) -> None:
    """Print an error naming the node on stderr.

    GDScript's ``push_error`` is not a method of any class, so pythonscript
    0.50 has no binding for it; stderr reaches the terminal or log running
    Godot, and the node's ``last_status`` says what happened.
    """
    print(f"pathing_py: {node_name}: {message}", file=sys.stderr)


def finite_pair(value, what: str) -> Tuple[float, float]:
    """``value`` as two finite floats; CoordinateError naming ``what`` for NaN, infinities or anything else."""
    try:
        x, y = float(value[0]), float(value[1])
    except (TypeError, ValueError, IndexError, KeyError):
        raise CoordinateError(f"{what} must be a pair of numbers, got {value!r}") from None
    if not (math.isfinite(x) and math.isfinite(y)):
        raise CoordinateError(f"{what} ({x}, {y}) is not finite")
    return x, y


def map_floor(cells: float) -> int:
    """The cell index of a coordinate counted in cells, rounded as ``TileMap.world_to_map`` rounds it."""
    return math.floor(cells + WORLD_TO_MAP_EPSILON)


class TileFrame:
    """Positions <-> TileMap cells <-> grid cells, for a square, isometric or custom TileMap.

    Parameters
    ----------
    geometry : TileGeometry or (width, height)
        The TileMap's geometry, or the ``cell_size`` (pixels, > 0) of a square
        TileMap.
    origin : (x, y)
        The TileMap cell of grid cell ``(0, 0)`` (``Grid.origin``).
    """

    def __init__(self, geometry: Geometry, origin: Cell = (0, 0)):
        if not isinstance(geometry, TileGeometry):
            geometry = TileGeometry(cell_size=finite_pair(geometry, "cell_size"))
        self.geometry = geometry
        self.origin = (int(origin[0]), int(origin[1]))

    def cell_of(self, position) -> Cell:
        """The TileMap cell containing a position, as ``TileMap.world_to_map`` finds it (edges included)."""
        point = finite_pair(position, "position")
        try:
            ((x, y),) = self.geometry.cells_of([point]).tolist()
        except ValueError as error:  # finite, but beyond 32-bit floats
            raise CoordinateError(f"position {point}: {error}") from None
        return x, y

    def centre_of(self, cell) -> Position:
        """The centre of a TileMap cell (a fractional cell counts as the cell it lies in), in TileMap pixels."""
        x, y = finite_pair(cell, "cell")
        return positions(self.geometry.centres_of([(math.floor(x), math.floor(y))]))[0]

    def to_grid(self, cell: Cell) -> Cell:
        return int(cell[0]) - self.origin[0], int(cell[1]) - self.origin[1]

    def from_grid(self, grid_cell: Cell) -> Cell:
        return int(grid_cell[0]) + self.origin[0], int(grid_cell[1]) + self.origin[1]

    def grid_to_pixels(self, grid_points) -> np.ndarray:
        """Grid coordinates (cells, or fractions of cells: ``+ 0.5`` is a centre) as an (N, 2) array of pixels
        (the plain affine map: a half offset moves cells, not points)."""
        points = np.asarray(grid_points, dtype=np.float64).reshape(-1, 2)
        return self.geometry.to_pixels(points + np.asarray(self.origin))

    def grid_axes(self) -> Tuple[Position, Position, Position]:
        """Where grid points (0, 0), (1, 0) and (0, 1) lie in TileMap pixels: the grid's affine frame."""
        corner, x_end, y_end = positions(self.grid_to_pixels([(0, 0), (1, 0), (0, 1)]))
        return corner, x_end, y_end

    def grid_centres(self, grid_cells: Sequence[Cell]) -> List[Position]:
        """Centres of grid cells as plain Python floats (``centre_of`` of their TileMap cells), ready for
        ``Vector2``."""
        cells = np.asarray(grid_cells, dtype=np.int64).reshape(-1, 2) + np.asarray(self.origin)
        return positions(self.geometry.centres_of(cells))


def bounds_outline(bounds: CellRect, geometry: Geometry) -> List[Position]:
    """The border of the cells of ``bounds`` as line segments (pairs of TileMap-local points), for ``draw_multiline``.

    ``geometry`` as :class:`TileFrame` takes it: on an isometric or custom
    TileMap the outline is the parallelogram the cells cover, not a rectangle;
    on a half-offset one it steps out and in with the moved rows (or columns).
    """
    corners = positions(TileFrame(geometry).geometry.layout().rect_outline(*bounds))
    return [point for side in range(len(corners)) for point in (corners[side], corners[(side + 1) % len(corners)])]


def positions(pixels: np.ndarray) -> List[Position]:
    """An (N, 2) array as a list of ``(x, y)`` Python floats: numpy numbers do not convert to Godot values."""
    return [tuple(point) for point in pixels.reshape(-1, 2).tolist()]


@dataclass(frozen=True)
class PathAnswer:
    """A path query answered in positions.

    ``status`` is a ``PathStatus`` name (``"FOUND"``, ``"UNREACHABLE"``, …) or
    ``INVALID_POSITION``; ``points`` are cell centres from the
    start cell to the goal cell, empty unless found; ``message`` says why not.
    """

    status: str
    points: List[Position]
    message: str = ""

    def __bool__(self) -> bool:
        return self.status == Status.FOUND.value


class StackedCells:
    """What the TileMaps stacked on a NavGrid's TileMap hold, so that freeing a cell keeps them and the grid agreeing.

    ``painted[i]`` and ``walls[i]`` say, ``[y, x]`` over the grid, where the
    stacked layer ``i`` (an index of the node's ``layer_paths``) has a tile and
    where that tile blocks; ``empty_passable`` whether cells without any tile
    are walkable. A navigator of one TileMap has none.
    """

    def __init__(
        self,
        shape: Tuple[int, ...],
        painted: Sequence[np.ndarray] = (),
        walls: Sequence[np.ndarray] = (),
        empty_passable: bool = True,
    ):
        self.shape = tuple(shape)
        self.painted = [np.array(cells, dtype=bool) for cells in painted]
        self.walls = [np.array(cells, dtype=bool) for cells in walls]
        if len(self.painted) != len(self.walls) or any(
            cells.shape != self.shape for cells in self.painted + self.walls
        ):
            raise ValueError(f"each stacked layer needs painted and walls cells of shape {self.shape}")
        self.empty_passable = bool(empty_passable)

    def still_blocks(self, grid_cell: Cell, main_painted: bool) -> bool:
        """Whether a grid cell would block once its layers' blocking tiles are cleared and the main TileMap's
        cell painted with a tile (``main_painted``) or cleared: no tile left anywhere, and empty cells block."""
        x, y = grid_cell
        left = any(painted[y, x] and not walls[y, x] for painted, walls in zip(self.painted, self.walls))
        return not (main_painted or left or self.empty_passable)

    def clear_walls(self, grid_cell: Cell) -> Tuple[int, ...]:
        """The layers whose tile blocks a grid cell, forgotten there: the node clears those tiles."""
        x, y = grid_cell
        cleared = tuple(index for index, walls in enumerate(self.walls) if walls[y, x])
        for index in cleared:
            self.walls[index][y, x] = self.painted[index][y, x] = False
        return cleared


class TileMapNavigator:
    """A :class:`~pathing_py.Grid` read from a TileMap (and the TileMaps stacked on it), queried in
    TileMap-local positions.

    ``graph``, when set, is a key-point graph of this very grid: paths then come
    from it (:meth:`pathing_py.KeyPointGraph.find_path`) instead of the exact search.
    On a half-offset (hexagonal) TileMap paths follow the six neighbours of each
    cell (:func:`pathing_py.hex_grid.find_hex_path`), and the graph is a
    :class:`~pathing_py.hierarchy.HexKeyPointGraph` of the same layout.
    ``stacked`` tells what the TileMaps stacked on the main one hold, for map edits;
    ``rules`` how their tiles were read, for cells a game paints later (:meth:`repaint`);
    ``bounded`` whether the map is a NavGrid's ``bounds`` rather than the painted rectangle.
    """

    def __init__(
        self,
        grid: Grid,
        frame: TileFrame,
        stacked: Optional["StackedCells"] = None,
        rules: Optional[TileRules] = None,
        bounded: bool = False,
    ):
        if tuple(frame.origin) != tuple(grid.origin):
            raise ValueError(f"frame origin {frame.origin} differs from grid origin {grid.origin}")
        self.grid = grid
        self.frame = frame
        self.stacked = stacked if stacked is not None else StackedCells(grid.passable.shape)
        if self.stacked.shape != grid.passable.shape:
            raise ValueError(f"the stacked layers' cells must cover the grid's {grid.width}x{grid.height} cells")
        self.rules = rules
        self.bounded = bool(bounded)
        self._graph: Optional[KeyPointGraph] = None
        layout = frame.geometry.layout()
        #: The six steps out of each cell of a half-offset TileMap; None for square, isometric and custom ones.
        self.hex_steps: Optional[HexSteps] = HexSteps(layout, grid.origin) if layout.hexagonal else None

    @property
    def graph(self) -> Optional[KeyPointGraph]:
        return self._graph

    @graph.setter
    def graph(self, graph: Optional[KeyPointGraph]) -> None:
        if graph is not None and graph.grid is not self.grid:
            raise ValueError("the key-point graph was made for another grid than this navigator's")
        if graph is not None and isinstance(graph, HexKeyPointGraph) != (self.hex_steps is not None):
            raise ValueError(
                "a key-point graph follows eight or four neighbours, not the six of this TileMap's cells: "
                "bake a HexKeyPointGraph with the TileMap's layout"
                if self.hex_steps is not None
                else "a HexKeyPointGraph follows six neighbours, this TileMap's cells are square: bake a KeyPointGraph"
            )
        if isinstance(graph, HexKeyPointGraph) and self.hex_steps is not None:
            if graph.hexes.layout != self.hex_steps.layout:
                raise ValueError("the hex key-point graph was baked for another layout than this TileMap's")
        self._graph = graph

    def follow(self, fresh: "TileMapNavigator", edit: Optional[Edit] = None) -> Optional[List[Cell]]:
        """Take over the cells of a TileMap read again (``fresh``) by editing this grid, not replacing it.

        Only the cells that changed are blocked or freed, through ``edit``
        (a :meth:`pathing_py.Navigator.set_blocked`, so that units and graph
        follow) or, without one, on the grid and its graph: a map painted at
        run time needs no re-bake. Returns the TileMap cells that could not be
        blocked because units hold them (a game is told of them), or None when the TileMap's used
        rectangle, its geometry or the grid's connectivity changed: then ``fresh`` must replace this one.
        """
        if fresh.grid.passable.shape != self.grid.passable.shape or fresh.grid.origin != self.grid.origin:
            return None
        if fresh.grid.connectivity != self.grid.connectivity:
            return None
        if fresh.frame.geometry != self.frame.geometry or len(fresh.stacked.walls) != len(self.stacked.walls):
            return None
        self.stacked = fresh.stacked
        changed = fresh.grid.passable != self.grid.passable
        to_block = [(int(x), int(y)) for y, x in zip(*np.nonzero(changed & ~fresh.grid.passable))]
        to_free = [(int(x), int(y)) for y, x in zip(*np.nonzero(changed & fresh.grid.passable))]
        return self._apply(to_free, to_block, edit)

    def _apply(self, to_free: List[Cell], to_block: List[Cell], edit: Optional[Edit]) -> List[Cell]:
        """Free, then block, grid cells through ``edit`` or on the grid and its graph; the TileMap cells
        units kept open."""
        if edit is not None:
            edit(to_free, False)
            return [self.frame.from_grid(cell) for cell in edit(to_block, True)]
        for cells, blocked in ((to_free, False), (to_block, True)):
            self.grid.set_blocked(cells, blocked)
            if self.graph is not None and cells:
                self.graph.update(cells)
        return []

    def map_rect(self) -> CellRect:
        """The TileMap cells the grid covers."""
        return CellRect(self.grid.origin[0], self.grid.origin[1], self.grid.width, self.grid.height)

    def outside(self, tile_cell: Cell) -> str:
        """That a TileMap cell lies outside the map, naming the map's cells and what sets them."""
        where = (
            "the NavGrid's bounds"
            if self.bounded
            else ("the TileMap's painted rectangle; set the NavGrid's bounds to navigate beyond it")
        )
        return f"TileMap cell {tuple(tile_cell)} is outside the map, TileMap cells {self.map_rect()} ({where})"

    def cells_to_repaint(self, cells: Iterable) -> List[Cell]:
        """The TileMap cells of a ``cells_painted`` call, checked; ValueError (CoordinateError for a cell that
        is not two whole numbers) saying why, nothing read or changed."""
        try:
            whole = whole_cells(cells, "cells_painted")
        except ValueError as error:
            raise CoordinateError(str(error)) from None
        for cell in whole:
            if not self.grid.in_bounds(self.frame.to_grid(cell)):
                raise ValueError(f"cells_painted: {self.outside(cell)}; painting beyond the map needs rebuild()")
        return whole

    def repaint(
        self, cells: Sequence[Cell], layers: Sequence[Iterable[int]], edit: Optional[Edit] = None
    ) -> List[Cell]:
        """Take over TileMap cells a game painted (as :meth:`cells_to_repaint` checked them), given each layer's
        ``tile_data`` words of those cells: the cells whose blocking changed are blocked or freed as
        :meth:`follow` does it, through ``edit`` or on the grid and graph. Returns the TileMap cells units
        hold and so kept open (the game may paint them again later)."""
        if self.rules is None:
            raise ValueError("this navigator was not read from a TileMap: it has no rules to read painted cells by")
        read = self.rules.read(cells, layers)
        grid_cells = [self.frame.to_grid(cell) for cell in cells]
        xs, ys = np.asarray(grid_cells, dtype=np.int64).reshape(-1, 2).T
        for index, (painted, walls) in enumerate(
            zip(self.stacked.painted, self.stacked.walls)
        ):  # layer 0 is the TileMap
            painted[ys, xs] = read.painted[index + 1]
            walls[ys, xs] = read.painted[index + 1] & read.blocked[index + 1]
        now = [self.grid.is_passable(cell) for cell in grid_cells]
        to_free = [cell for cell, was, passable in zip(grid_cells, now, read.passable.tolist()) if passable and not was]
        to_block = [
            cell for cell, was, passable in zip(grid_cells, now, read.passable.tolist()) if was and not passable
        ]
        return self._apply(list(dict.fromkeys(to_free)), list(dict.fromkeys(to_block)), edit)

    @classmethod
    def from_tilemap(
        cls,
        tile_data: Iterable[int],
        geometry: Geometry,
        tiles: Iterable[TileInfo],
        *,
        blocking: Iterable[Union[int, str]] = (),
        empty_passable: bool = True,
        bounds: Optional[CellRect] = None,
        unknown_tiles: str = "error",
        connectivity: int = 8,
        layers: Sequence[Tuple[Iterable[int], Iterable[TileInfo]]] = (),
    ) -> "TileMapNavigator":
        """Build from what a node reads: ``tile_data``, the TileMap's geometry and the TileSet's tiles.

        ``geometry`` is a :class:`~pathing_py.godot.tile_geometry.TileGeometry`, or the
        cell size of a square TileMap; ValueError for a half-offset one.

        ``blocking`` names tiles (ids or names) that block even without a
        collision shape; ``empty_passable`` says whether cells with no tile may
        be walked on; ``bounds`` (TileMap cells) replaces the used rectangle;
        ``unknown_tiles="open"`` reads tile ids the TileSet lacks as the engine
        does (tiles without collision) instead of refusing the map;
        ``connectivity`` (8 or 4) is the grid's. ``layers`` are the ``tile_data``
        and tiles of TileMaps stacked on this one, on the same cells (the node
        checks that): a cell blocks where any of them blocks, and ``blocking``
        applies to them all (see :func:`pathing_py.godot.tile_data.grid_from_tile_data`).
        """
        sources = [(data, *collision_tables(layer_tiles)) for data, layer_tiles in [(tile_data, tiles), *layers]]
        blocking = list(blocking)
        stack = decode_stack(sources, blocking=blocking, unknown_tiles=unknown_tiles)
        area = grid_area(stack, bounds, "")
        grid = Grid(passable_cells(stack, empty_passable, area, ""), origin=(area.x, area.y), connectivity=connectivity)
        stacked = StackedCells(
            grid.passable.shape,
            [layer.cells.raster(np.ones(len(layer.cells), dtype=bool), False, area) for layer in stack[1:]],
            [layer.cells.raster(layer.blocked, False, area) for layer in stack[1:]],
            empty_passable,
        )
        listed = layer_blocking_ids(blocking, [(rules, names) for _, rules, names in sources], "")
        rules = TileRules(tuple(rules for _, rules, _ in sources), tuple(listed), unknown_tiles, empty_passable)
        return cls(grid, TileFrame(geometry, grid.origin), stacked, rules, bounded=bounds is not None)

    def prepare(self) -> None:
        """Build what the searches build at their first query now: the grid's islands and search tables
        (:func:`pathing_py.prepare`: on a cluttered 512x512 map the landmarks take seconds inside Godot) and
        the graph's (:meth:`pathing_py.KeyPointGraph.prepare`). A NavGrid calls it when it reads its TileMap at
        run time, so that the level's load pays for them and no frame does; edits later keep them up locally."""
        if self.hex_steps is not None:  # the six-neighbour search has no tables of its own
            self.grid.prepare_islands()
        else:
            prepare(self.grid)
        if self._graph is not None:
            self._graph.prepare()

    def cell_of(self, position) -> Cell:
        return self.frame.cell_of(position)

    def centre_of(self, cell) -> Position:
        return self.frame.centre_of(cell)

    def is_blocked(self, cell) -> bool:
        """Whether units cannot enter a TileMap cell: it blocks, or lies outside the grid (bounds or used rectangle).

        A fractional cell counts as the cell it lies in; CoordinateError for a non-finite one.
        """
        x, y = finite_pair(cell, "cell")
        return not self.grid.is_passable(self.frame.to_grid((math.floor(x), math.floor(y))))

    def find_path(self, start, goal, *, smooth: bool = True) -> PathAnswer:
        """A path between two positions, as the centres of the cells it passes through.

        With ``smooth`` the cell path is pulled straight wherever a line is
        clear (:func:`pathing_py.smooth_path`), so units walking from centre to
        centre do not zigzag; it is never longer than the search's path. Paths on
        a half-offset TileMap are pulled straight along hex lines (:func:`pathing_py.hex_lines.smooth_hex_path`).
        """
        try:
            start_cell = self.frame.to_grid(self.frame.cell_of(start))
            goal_cell = self.frame.to_grid(self.frame.cell_of(goal))
        except CoordinateError as error:
            return PathAnswer(Status.INVALID_POSITION.value, [], str(error))
        if self._graph is None:
            hexes = self.hex_steps
            if hexes is None:
                result = find_path(self.grid, start_cell, goal_cell)
            else:
                result = find_hex_path(self.grid, hexes.layout, start_cell, goal_cell)
        else:  # smoothed below, as exact paths are
            result = self._graph.find_path(start_cell, goal_cell, smooth=False)
        status = result.status.name
        if not result:
            start_tile, goal_tile = self.frame.from_grid(start_cell), self.frame.from_grid(goal_cell)
            message = f"no path from cell {start_tile} to cell {goal_tile}: {status}"
            if result.status == PathStatus.OUT_OF_BOUNDS:
                outside = start_tile if not self.grid.in_bounds(start_cell) else goal_tile
                message = f"{message}: {self.outside(outside)}"
            return PathAnswer(status, [], message)
        cells = result.cells
        if smooth:
            hexes = self.hex_steps
            cells = smooth_path(self.grid, cells) if hexes is None else smooth_hex_path(self.grid, hexes, cells)
        return PathAnswer(status, self.frame.grid_centres(cells))


# -- the baked key-point graph ------------------------------------------------------------------


@dataclass(frozen=True)
class GraphLoad:
    """The key-point graph a node navigates with (None: the exact search), and why it is not the file as baked."""

    graph: Optional[KeyPointGraph]
    warning: str = ""


def bake_graph(
    grid: Grid, layout: Optional[CellLayout], *, cluster_size: Optional[int] = None, progress=None
) -> KeyPointGraph:
    """The key-point graph of a TileMap's grid: a :class:`~pathing_py.hierarchy.HexKeyPointGraph` when
    ``layout`` is half-offset, else a :class:`~pathing_py.KeyPointGraph`."""
    if layout is not None and layout.hexagonal:
        return HexKeyPointGraph.bake(grid, layout, cluster_size=cluster_size, progress=progress)
    return KeyPointGraph.bake(grid, cluster_size=cluster_size, progress=progress)


def load_graph(
    source: str,
    data: Optional[bytes],
    grid: Grid,
    *,
    cluster_size: int = 0,
    rebake: bool,
    layout: Optional[CellLayout] = None,
) -> GraphLoad:
    """The graph baked into the file ``source`` for ``grid``, or what to use when the file does not fit.

    Parameters
    ----------
    source : str
        The file's ``res://`` path, as the node's ``graph_path`` names it; ``""``
        means no baked graph: the node uses the exact search and nothing is wrong.
    data : bytes or None
        The file's content as Godot's ``File`` read it (from the project folder
        or from an exported pack); None when it could not be opened.
    grid : Grid
        The grid the node read from its TileMap just now.
    cluster_size : int
        The node's ``cluster_size``: 0 accepts the baked one, otherwise the
        baked graph must have it.
    rebake : bool
        At run time (True) a missing, damaged or stale file is replaced by a
        bake in memory, so that the game still navigates, and the warning says
        to bake again; in the editor (False) there is only the warning.
    layout : CellLayout, optional
        Where the cells lie, when the grid is a half-offset TileMap's: its graph is then a
        :class:`~pathing_py.hierarchy.HexKeyPointGraph`, and a square map's file is stale.

    Raises ValueError when a re-bake is due and ``cluster_size`` is not a valid size.
    """
    if not source:
        return GraphLoad(None)
    hexagonal = layout is not None and layout.hexagonal
    wanted = cluster_size or None
    if data is None:
        problem = f"{source}: cannot open the key-point graph: bake it"
    else:
        try:
            graph = (
                HexKeyPointGraph.from_bytes(data, grid, layout, source)
                if hexagonal and layout is not None
                else KeyPointGraph.from_bytes(data, grid, source)
            )
        except GraphFileError as error:  # StaleGraphError included: baked from another map
            problem = str(error)
        else:
            if wanted is None or graph.cluster_size == wanted:
                return GraphLoad(graph)
            problem = (
                f"{source}: baked with clusters of {graph.cluster_size} cells, cluster_size is {wanted}: bake again"
            )
    if not rebake:
        return GraphLoad(None, problem)
    graph = bake_graph(grid, layout, cluster_size=wanted)
    return GraphLoad(graph, f"{problem} (for this run, a graph baked in memory is used)")
