"""Where a map's cells lie in pixels: square, isometric, custom and half-offset (hexagonal) layouts.

A Godot 3 TileMap puts the corner of cell ``(x, y)`` at ``origin + x * x_axis +
y * y_axis``, so every cell is the same parallelogram. A half-offset TileMap
(``cell_half_offset``) moves every cell of an odd row half an ``x_axis``
along (offset x), or every cell of an odd column half a ``y_axis`` along
(offset y); the negative offsets move them the other way. Odd means odd as a
TileMap index, negative ones included (``abs(index) & 1`` in the engine).
Those cells touch six others: the hex neighbours of :mod:`pathing_py.hex_grid`.

Plain float64 arithmetic, for pictures and step costs; the engine's own
32-bit rounding of ``world_to_map`` is :mod:`pathing_py.godot.tile_geometry`'s.

    >>> layout = CellLayout(x_axis=(2.0, 0.0), offset_axis=0, shift=0.5)
    >>> layout.centres([(0, 0), (0, 1)]).tolist()
    [[1.0, 0.5], [2.0, 1.5]]
    >>> layout.outlines([(0, 1)])[0].tolist()
    [[1.0, 1.0], [3.0, 1.0], [3.0, 2.0], [1.0, 2.0]]
"""

import math
from dataclasses import dataclass
from typing import Iterable, Optional, Tuple

import numpy as np

__all__ = ["CellLayout", "SQUARE_CELLS"]

Pair = Tuple[float, float]

#: The four corners of a cell, in cells from its corner: around the parallelogram.
_CORNERS = np.array([(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)])


@dataclass(frozen=True)
class CellLayout:
    """The placement of a map's cells: two cell axes and an origin in pixels, and the half offset if any.

    ``offset_axis`` is None for a plain grid, 0 when odd rows move along
    ``x_axis`` (``cell_half_offset`` x), 1 when odd columns move along
    ``y_axis`` (y); ``shift`` (+0.5, or -0.5 for the negative offsets) is how
    far, in cells. ValueError naming the bad argument otherwise.
    """

    x_axis: Pair = (1.0, 0.0)
    y_axis: Pair = (0.0, 1.0)
    origin: Pair = (0.0, 0.0)
    offset_axis: Optional[int] = None
    shift: float = 0.5

    def __post_init__(self) -> None:
        for name in ("x_axis", "y_axis", "origin"):
            value = getattr(self, name)
            try:
                x, y = (float(item) for item in value)
            except (TypeError, ValueError):
                raise ValueError(f"{name} must be a pair of numbers, got {value!r}") from None
            if not (math.isfinite(x) and math.isfinite(y)):
                raise ValueError(f"{name} ({x}, {y}) is not finite")
            object.__setattr__(self, name, (x, y))
        if self.x_axis[0] * self.y_axis[1] - self.x_axis[1] * self.y_axis[0] == 0:
            raise ValueError(f"the cell axes {self.x_axis} and {self.y_axis} squash cells flat")
        if self.offset_axis not in (None, 0, 1) or isinstance(self.offset_axis, bool):
            raise ValueError(
                "offset_axis must be None, 0 (odd rows move along x) or 1 (odd columns along y), "
                f"got {self.offset_axis!r}"
            )
        if self.shift not in (0.5, -0.5):
            raise ValueError(f"shift must be 0.5 or -0.5 (cells), got {self.shift!r}")
        object.__setattr__(self, "shift", float(self.shift))

    @property
    def hexagonal(self) -> bool:
        """Whether every other row or column is moved by half a cell: six neighbours to a cell."""
        return self.offset_axis is not None

    def line_shifted(self, line: int) -> bool:
        """Whether the TileMap row (offset x) or column (offset y) ``line`` is moved: it is odd."""
        return self.offset_axis is not None and line % 2 == 1

    def shifts(self, cells: Iterable) -> np.ndarray:
        """How far each TileMap cell is moved, in cells: an (N, 2) float64 array, zero on unmoved lines."""
        array = _cells(cells)
        moved = np.zeros(array.shape, dtype=np.float64)
        if self.offset_axis is not None:
            axis = self.offset_axis
            moved[:, axis] = np.where(array[:, 1 - axis] % 2 == 1, self.shift, 0.0)
        return moved

    def to_pixels(self, points) -> np.ndarray:
        """Points counted in cells (fractions allowed) as (N, 2) pixels: the plain affine map, no half offset."""
        points = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        return points @ np.array([self.x_axis, self.y_axis]) + np.array(self.origin)

    def centres(self, cells: Iterable) -> np.ndarray:
        """Centres of TileMap cells in pixels, half offsets included: (N, 2) float64."""
        array = _cells(cells)
        return self.to_pixels(array + self.shifts(array) + 0.5)

    def outlines(self, cells: Iterable) -> np.ndarray:
        """The four corners of each TileMap cell in pixels, around it: an (N, 4, 2) float64 array."""
        array = _cells(cells)
        corners = (array + self.shifts(array))[:, None, :] + _CORNERS[None, :, :]
        return self.to_pixels(corners).reshape(-1, 4, 2)

    def rect_outline(self, x: int, y: int, width: int, height: int) -> np.ndarray:
        """The border of a rectangle of TileMap cells (top-left cell, size) as a closed polygon in pixels (K, 2).

        With a half offset the moved lines stick out by half a cell: the border
        follows them, stepping at every row (or column) where the shift changes.
        """
        if self.offset_axis is None:
            return self.to_pixels([(x, y), (x + width, y), (x + width, y + height), (x, y + height)])
        axis = self.offset_axis
        along, across = (x, y) if axis == 0 else (y, x)
        length, lines = (width, height) if axis == 0 else (height, width)
        start = [along + (self.shift if self.line_shifted(line) else 0.0) for line in range(across, across + lines)]
        # In (along, across) coordinates: down the far side line by line, then up the near side.
        far = [(s + length, across + i + step) for i, s in enumerate(start) for step in (0, 1)]
        near = [(s, across + i + step) for i, s in reversed(list(enumerate(start))) for step in (1, 0)]
        polygon = np.array(far + near, dtype=np.float64)
        if axis == 1:
            polygon = polygon[:, ::-1]
        return self.to_pixels(polygon)


#: Square cells one pixel wide: a plain grid drawn as it is stored.
SQUARE_CELLS = CellLayout()


def _cells(cells: Iterable) -> np.ndarray:
    array = np.asarray(cells if isinstance(cells, np.ndarray) else list(cells), dtype=np.int64)
    if array.size == 0:
        return np.zeros((0, 2), dtype=np.int64)
    if array.ndim != 2 or array.shape[1] != 2:
        raise ValueError(f"cells must be (x, y) pairs, got an array of shape {array.shape}")
    return array
