"""Where a Godot 3 TileMap's cells lie: square, isometric and custom cell transforms (SPEC G6).

A TileMap places cell ``(x, y)`` at ``cell_transform.xform((x, y))``: the cells
form a square grid (eight neighbours), only the picture of that grid in pixels
differs. A half-offset TileMap (``cell_half_offset`` x or y, or their negatives)
moves the cells of odd rows (or columns) half a cell along: they have six
neighbours (:mod:`pathing_py.hex_grid`), and :meth:`TileGeometry.layout` says
where they lie. ``world_to_map`` and ``map_to_world`` are repeated here with
the engine's own arithmetic (32-bit floats, the same order of operations, the
same border epsilon, the half offset decided before the epsilon is added, as
Godot 3.2 does), so that a position lands in the very cell Godot 3.2 finds for
it, edges included.

    >>> geometry = TileGeometry(mode=MODE_ISOMETRIC, cell_size=(64, 32))
    >>> geometry.cells_of([(0.0, 1.0), (40.0, 30.0)]).tolist()
    [[0, 0], [1, 0]]
    >>> geometry.centres_of([(1, 0)]).tolist()
    [[32.0, 32.0]]

``tile_origin`` (``cell_tile_origin``) moves a tile's texture and collision
shapes inside its cell; it changes neither conversion, and is kept to report it.
"""

import math
from dataclasses import dataclass
from typing import Iterable, Tuple

import numpy as np

from ..cell_layout import CellLayout

__all__ = [
    "GeometryError",
    "HALF_OFFSET_DISABLED",
    "HALF_OFFSET_NAMES",
    "MODE_CUSTOM",
    "MODE_ISOMETRIC",
    "MODE_NAMES",
    "MODE_SQUARE",
    "TILE_ORIGIN_NAMES",
    "TileGeometry",
]

Pair = Tuple[float, float]

#: ``TileMap.Mode`` (the ``mode`` property).
MODE_SQUARE, MODE_ISOMETRIC, MODE_CUSTOM = 0, 1, 2
MODE_NAMES = {MODE_SQUARE: "square", MODE_ISOMETRIC: "isometric", MODE_CUSTOM: "custom"}
#: ``TileMap.HalfOffset`` (the ``cell_half_offset`` property).
HALF_OFFSET_X, HALF_OFFSET_Y, HALF_OFFSET_DISABLED, HALF_OFFSET_NEGATIVE_X, HALF_OFFSET_NEGATIVE_Y = 0, 1, 2, 3, 4
HALF_OFFSET_NAMES = {
    HALF_OFFSET_X: "x",
    HALF_OFFSET_Y: "y",
    HALF_OFFSET_DISABLED: "disabled",
    HALF_OFFSET_NEGATIVE_X: "negative x",
    HALF_OFFSET_NEGATIVE_Y: "negative y",
}
#: The axis odd lines move along (0: x, the odd rows; 1: y, the odd columns) and by how many cells.
_HALF_OFFSETS = {
    HALF_OFFSET_X: (0, 0.5),
    HALF_OFFSET_Y: (1, 0.5),
    HALF_OFFSET_NEGATIVE_X: (0, -0.5),
    HALF_OFFSET_NEGATIVE_Y: (1, -0.5),
}
#: ``TileMap.TileOrigin`` (the ``cell_tile_origin`` property).
TILE_ORIGIN_NAMES = {0: "top left", 1: "center", 2: "bottom left"}

#: Defaults of a new TileMap (what a scene file leaves out).
DEFAULT_CELL_SIZE: Pair = (64.0, 64.0)
DEFAULT_CUSTOM_TRANSFORM: Tuple[Pair, Pair, Pair] = ((64.0, 0.0), (0.0, 64.0), (0.0, 0.0))

#: What Godot 3.2's ``world_to_map`` adds to a position counted in cells before flooring it (GH-23250):
#: a position less than this far (in cells) before a cell's edge is already in that cell.
WORLD_TO_MAP_EPSILON = np.float32(0.00005)

_F32 = np.float32


class GeometryError(ValueError):
    """A TileMap setting the engine does not have; ``property`` is its name in scene files (``cell_size``…)."""

    def __init__(self, property: str, message: str):
        super().__init__(message)
        self.property = property


@dataclass(frozen=True)
class TileGeometry:
    """A TileMap's ``mode``, ``cell_size``, ``cell_custom_transform``, ``cell_half_offset`` and ``cell_tile_origin``.

    ``custom_transform`` is ``(x axis, y axis, origin)`` as ``Transform2D``
    holds it; it counts only in custom mode. ValueError for values the engine
    does not have, and for a cell transform that squashes cells flat.
    """

    mode: int = MODE_SQUARE
    cell_size: Pair = DEFAULT_CELL_SIZE
    custom_transform: Tuple[Pair, Pair, Pair] = DEFAULT_CUSTOM_TRANSFORM
    half_offset: int = HALF_OFFSET_DISABLED
    tile_origin: int = 0

    def __post_init__(self) -> None:
        for field, name, allowed in (
            ("mode", "mode", MODE_NAMES),
            ("half_offset", "cell_half_offset", HALF_OFFSET_NAMES),
            ("tile_origin", "cell_tile_origin", TILE_ORIGIN_NAMES),
        ):
            value = getattr(self, field)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or int(value) not in allowed:
                raise GeometryError(name, f"{name} must be one of {sorted(allowed)}, got {value!r}")
            object.__setattr__(self, field, int(value))
        width, height = _finite_pair(self.cell_size, "cell_size")
        if width <= 0 or height <= 0:
            raise GeometryError("cell_size", f"cell_size must be positive, got ({width}, {height})")
        object.__setattr__(self, "cell_size", (width, height))
        rows = tuple(self.custom_transform) if isinstance(self.custom_transform, (tuple, list)) else ()
        if len(rows) != 3:
            raise GeometryError(
                "cell_custom_transform",
                f"cell_custom_transform must be (x axis, y axis, origin), got {self.custom_transform!r}",
            )
        object.__setattr__(self, "custom_transform", tuple(_finite_pair(row, "cell_custom_transform") for row in rows))
        if _determinant(self.cell_transform()) == 0:
            name = "cell_custom_transform" if self.mode == MODE_CUSTOM else "cell_size"
            raise GeometryError(name, f"the cell transform ({self.describe()}) squashes cells flat")

    def cell_transform(self) -> np.ndarray:
        """Rows x axis, y axis, origin (float32): what ``TileMap.get_cell_transform`` returns."""
        if self.mode == MODE_SQUARE:
            (width, height) = self.cell_size
            rows = ((width, 0.0), (0.0, height), (0.0, 0.0))
        elif self.mode == MODE_ISOMETRIC:
            half_width, half_height = self.cell_size[0] * 0.5, self.cell_size[1] * 0.5
            rows = ((half_width, half_height), (-half_width, half_height), (0.0, 0.0))
        else:
            rows = self.custom_transform
        return np.array(rows, dtype=_F32)

    @property
    def hexagonal(self) -> bool:
        """Whether cells are shifted by half a cell every other row or column (six neighbours)."""
        return self.half_offset != HALF_OFFSET_DISABLED

    def _offset(self) -> Tuple[int, float]:
        """The axis odd lines move along (0: x, odd rows; 1: y, odd columns) and by how much (cells);
        (-1, 0) without."""
        return _HALF_OFFSETS.get(self.half_offset, (-1, 0.0))

    def layout(self) -> CellLayout:
        """Where the cells lie, half offset included, in plain float64 pixels: for pictures and step costs."""
        rows = self.cell_transform().astype(np.float64).tolist()
        axis, shift = self._offset()
        return CellLayout(rows[0], rows[1], rows[2], offset_axis=None if axis < 0 else axis, shift=shift or 0.5)

    def describe(self) -> str:
        """One line for people: the mode and the numbers that place the cells."""
        if self.mode == MODE_CUSTOM:
            (xx, xy), (yx, yy), (ox, oy) = self.custom_transform
            placement = f"cell_custom_transform x ({xx:g}, {xy:g}) y ({yx:g}, {yy:g}) origin ({ox:g}, {oy:g})"
        else:
            placement = f"cell_size ({self.cell_size[0]:g}, {self.cell_size[1]:g})"
        offset = f", half offset {HALF_OFFSET_NAMES[self.half_offset]}" if self.hexagonal else ""
        return f"{MODE_NAMES[self.mode]}, {placement}{offset}"

    # -- conversions, as the engine computes them ------------------------------------------------

    def cells_of(self, positions: Iterable[Pair]) -> np.ndarray:
        """``TileMap.world_to_map`` of TileMap-local positions: an (N, 2) int64 array of cells.

        Positions are rounded to 32-bit floats first, as a ``Vector2`` holds them.
        On a half-offset map the line is found first, from the position before
        the border epsilon, and the position moved back along it if the line is odd.
        """
        points = _points(positions, _F32)
        with np.errstate(over="ignore", invalid="ignore"):
            counted = _xform(_affine_inverse(self.cell_transform()), points)
            if not np.isfinite(counted).all():
                raise ValueError("a position is too far out to name a cell")
            axis, shift = self._offset()
            if axis >= 0:
                odd = np.floor(counted[:, 1 - axis]).astype(np.int64) % 2 == 1
                counted[odd, axis] = counted[odd, axis] - _F32(shift)
            counted = counted + WORLD_TO_MAP_EPSILON
        if not np.isfinite(counted).all():
            raise ValueError("a position is too far out to name a cell")
        return np.floor(counted).astype(np.int64)

    def corners_of(self, cells: Iterable[Pair]) -> np.ndarray:
        """``TileMap.map_to_world`` of integer cells: an (N, 2) float32 array of TileMap-local positions
        (on a half-offset map, odd lines moved by half a cell axis)."""
        whole = _points(cells, np.int64)
        matrix = self.cell_transform()
        corners = _xform(matrix, whole.astype(_F32))
        axis, shift = self._offset()
        if axis >= 0:
            odd = np.abs(whole[:, 1 - axis]) % 2 == 1
            corners[odd] = corners[odd] + matrix[axis] * _F32(shift)
        return corners

    def centres_of(self, cells: Iterable[Pair]) -> np.ndarray:
        """Centres of integer cells: ``map_to_world(cell)`` plus half of both cell axes (float32).

        The point of the cell farthest from its edges, on any map: for square
        maps ``map_to_world(cell) + cell_size / 2``.
        """
        axes = self.cell_transform()
        half_diagonal = (axes[0] + axes[1]) * _F32(0.5)
        return self.corners_of(cells) + half_diagonal

    def to_pixels(self, cell_points: Iterable[Pair]) -> np.ndarray:
        """Points counted in cells (fractions allowed: ``+ 0.5`` is a centre) as float64 TileMap-local pixels.

        For drawings and moving units: plain affine arithmetic, not the engine's
        rounding, and no half offset (:meth:`layout` places moved cells).
        """
        matrix = self.cell_transform().astype(np.float64)
        return _points(cell_points, np.float64) @ matrix[:2] + matrix[2]


def _finite_pair(value, what: str) -> Pair:
    try:
        x, y = (float(item) for item in value)
    except (TypeError, ValueError):
        raise GeometryError(what, f"{what} must be a pair of numbers, got {value!r}") from None
    if not (math.isfinite(x) and math.isfinite(y)):
        raise GeometryError(what, f"{what} ({x}, {y}) is not finite")
    return x, y


def _points(values: Iterable[Pair], dtype) -> np.ndarray:
    points = np.asarray(values if isinstance(values, np.ndarray) else list(values), dtype=np.float64)
    if points.size == 0:
        return np.zeros((0, 2), dtype=dtype)
    if points.ndim != 2 or points.shape[1] != 2:
        raise ValueError(f"expected (x, y) pairs, got an array of shape {points.shape}")
    if dtype is np.int64:
        return np.trunc(points).astype(np.int64)  # map_to_world takes int cells: C++ truncates
    return points.astype(dtype)


def _determinant(matrix: np.ndarray) -> np.float32:
    """``Transform2D.basis_determinant`` in 32-bit floats."""
    return matrix[0, 0] * matrix[1, 1] - matrix[0, 1] * matrix[1, 0]


def _affine_inverse(matrix: np.ndarray) -> np.ndarray:
    """``Transform2D.affine_inverse`` step by step in 32-bit floats (the reciprocal in double, as in C++)."""
    inverse_det = _F32(1.0 / float(_determinant(matrix)))
    (a, b), (c, d) = matrix[0], matrix[1]
    x_axis = np.array([d * inverse_det, b * -inverse_det], dtype=_F32)
    y_axis = np.array([c * -inverse_det, a * inverse_det], dtype=_F32)
    basis = np.array([x_axis, y_axis, (0, 0)], dtype=_F32)
    origin = _xform(basis, -matrix[2:3])[0]
    return np.array([x_axis, y_axis, origin], dtype=_F32)


def _xform(matrix: np.ndarray, points: np.ndarray) -> np.ndarray:
    """``Transform2D.xform`` of float32 points: each product and sum rounded to 32 bits, in the engine's order."""
    x = points[:, 0:1] * matrix[0] + points[:, 1:2] * matrix[1]
    return (x + matrix[2]).astype(_F32)
