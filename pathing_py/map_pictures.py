"""Pictures of a map in its own shape: square cells, isometric diamonds, custom parallelograms, half-offset rows.

Every pixel is coloured by the cell it lies in, found as ``world_to_map``
finds it (the cell layout's affine map inverted, then the half offset), so
any cell shape a TileMap can have is drawn as the game shows it; a darker
line follows the cells' edges, and paths run through the cells' real centres.
The scale makes the picture readable: each cell's shorter side at least
:data:`MIN_CELL_EDGE` pixels or the map :data:`MIN_WIDTH` pixels across,
the longer side of the picture at most :data:`MAX_SIDE`.

    >>> from pathing_py import Grid
    >>> from pathing_py.cell_layout import CellLayout
    >>> grid = Grid.from_ascii("...\\n.#.")
    >>> diamonds = CellLayout(x_axis=(32.0, 16.0), y_axis=(-32.0, 16.0))   # isometric, cell_size (64, 32)
    >>> picture = MapPicture(grid, diamonds, cell_edge=16 * 5 ** 0.5)   # the TileMap's own size: sides 16 * sqrt(5)
    >>> picture.image.shape, picture.cell_at(picture.centres([(1, 1)])[0])
    ((80, 160, 3), (1, 1))
"""

import math
from typing import Mapping, Optional, Sequence, Tuple

import numpy as np

from .cell_layout import CellLayout
from .debug import PATH_COLOURS, draw_grid, draw_lines
from .grid import Cell, Grid

__all__ = ["MAX_SIDE", "MIN_CELL_EDGE", "MIN_WIDTH", "MapPicture", "picture_scale"]

#: Readable pictures: a cell's shorter side at least this many pixels, or the map this many pixels across ...
MIN_CELL_EDGE = 16
MIN_WIDTH = 640
#: ... and the picture's longer side at most this many pixels.
MAX_SIDE = 2048
#: Outside the map; how much darker a cell's edge is than the cell.
BACKGROUND = (255, 255, 255)
EDGE_SHADE = 0.72
#: Rows of pixels coloured at once (bounds the memory of a large picture).
_ROWS_AT_ONCE = 256


def _cell_edge(layout: CellLayout) -> float:
    """The length of a cell's shorter side, in the layout's pixels."""
    return min(math.hypot(*layout.x_axis), math.hypot(*layout.y_axis))


def picture_scale(grid: Grid, layout: CellLayout) -> float:
    """Picture pixels per layout pixel: :data:`MIN_CELL_EDGE` a cell side or :data:`MIN_WIDTH` across, whichever
    is larger, unless the picture's longer side would pass :data:`MAX_SIDE`."""
    edge = _cell_edge(layout)
    low, high = _extent(grid, layout)
    width, height = high - low
    wanted = max(MIN_CELL_EDGE / edge, MIN_WIDTH / width)
    return min(wanted, MAX_SIDE / max(width, height))


class MapPicture:
    """A grid drawn in the shape of its ``layout`` (TileMap cells to pixels, as ``TileGeometry.layout`` gives it).

    ``cell_edge`` is the picture pixels of a cell's shorter side (default: :func:`picture_scale` chooses);
    ``tiles`` and ``names`` colour the cells by terrain as :func:`pathing_py.debug.draw_grid` does.
    ``image`` is the RGB picture; paths go on it with :meth:`draw_path`.
    """

    def __init__(
        self,
        grid: Grid,
        layout: CellLayout,
        cell_edge: Optional[float] = None,
        tiles: Optional[np.ndarray] = None,
        names: Mapping[int, str] = {},
    ):
        usable = isinstance(cell_edge, (int, float)) and math.isfinite(cell_edge) and cell_edge > 0
        if cell_edge is not None and not usable:
            raise ValueError(f"cell_edge must be a number of pixels above 0, got {cell_edge!r}")
        scale = picture_scale(grid, layout) if cell_edge is None else cell_edge / _cell_edge(layout)
        low, high = _extent(grid, layout)
        self.grid = grid
        #: TileMap cells to picture pixels: the layout scaled, its map's top-left corner at (0, 0).
        self.layout = CellLayout(
            tuple(np.multiply(layout.x_axis, scale)),
            tuple(np.multiply(layout.y_axis, scale)),
            tuple((np.asarray(layout.origin) - low) * scale),
            layout.offset_axis,
            layout.shift,
        )
        width, height = (int(math.ceil(side - 1e-9)) for side in (high - low) * scale)
        self.cells = self._cells_of_pixels(max(width, 1), max(height, 1))
        colours = np.concatenate([[BACKGROUND], draw_grid(grid, 1, tiles, names).reshape(-1, 3)]).astype(np.uint8)
        inside = self.cells >= 0
        self.image: np.ndarray = colours[self.cells + 1]  # off the map (-1): the background
        edges = np.zeros(self.cells.shape, dtype=bool)
        edges[:, :-1] |= self.cells[:, :-1] != self.cells[:, 1:]
        edges[:-1, :] |= self.cells[:-1, :] != self.cells[1:, :]
        edges &= inside
        self.image[edges] = (self.image[edges] * EDGE_SHADE).astype(np.uint8)

    def _cells_of_pixels(self, width: int, height: int) -> np.ndarray:
        """``[row, column]``: the flat grid index of the cell each pixel's centre lies in, -1 off the map."""
        found = np.empty((height, width), dtype=np.int64)
        for top in range(0, height, _ROWS_AT_ONCE):
            ys, xs = np.mgrid[top : min(top + _ROWS_AT_ONCE, height), 0:width] + 0.5
            cells = self.tilemap_cells(np.stack([xs.ravel(), ys.ravel()], axis=1)) - np.asarray(self.grid.origin)
            column, row = cells[:, 0], cells[:, 1]
            on_map = (column >= 0) & (column < self.grid.width) & (row >= 0) & (row < self.grid.height)
            flat = np.where(on_map, cells[:, 1] * self.grid.width + cells[:, 0], -1)
            found[top : top + len(ys)] = flat.reshape(ys.shape)
        return found

    def tilemap_cells(self, pixels: np.ndarray) -> np.ndarray:
        """The TileMap cell of each picture pixel position (N, 2), as ``world_to_map`` finds it (in float64)."""
        layout = self.layout
        (a, b), (c, d) = np.linalg.inv(np.array([layout.x_axis, layout.y_axis]))
        points = np.asarray(pixels, dtype=np.float64)
        px, py = points[:, 0] - layout.origin[0], points[:, 1] - layout.origin[1]
        counted = [np.floor(px * a + py * c), np.floor(px * b + py * d)]  # column by column: no small matmul
        if layout.offset_axis is not None:
            axis = layout.offset_axis
            odd = counted[1 - axis] % 2 == 1
            along = px * a + py * c if axis == 0 else px * b + py * d
            counted[axis] = np.floor(np.where(odd, along - layout.shift, along))
        return np.stack(counted, axis=1).astype(np.int64)

    def cell_at(self, pixel) -> Optional[Cell]:
        """The grid cell under a picture pixel position, None off the map."""
        x, y = (int(math.floor(value)) for value in pixel)
        if not (0 <= y < self.cells.shape[0] and 0 <= x < self.cells.shape[1]) or self.cells[y, x] < 0:
            return None
        row, column = divmod(int(self.cells[y, x]), self.grid.width)
        return column, row

    def centres(self, grid_cells: Sequence[Cell]) -> np.ndarray:
        """Centres of grid cells in picture pixels: (N, 2)."""
        cells = np.asarray(grid_cells, dtype=np.int64).reshape(-1, 2) + np.asarray(self.grid.origin)
        return self.layout.centres(cells)

    def fill_cells(self, grid_cells: Sequence[Cell], colour: Tuple[int, int, int]) -> None:
        """Paint whole grid cells, in their shape."""
        cells = np.asarray(grid_cells, dtype=np.int64).reshape(-1, 2)
        self.image[np.isin(self.cells, cells[:, 1] * self.grid.width + cells[:, 0])] = colour

    def draw_path(self, cells: Sequence[Cell], colour: Tuple[int, int, int]) -> None:
        """A line through the centres of a path's grid cells, its first and last cells filled."""
        if not len(cells):
            return
        centres = self.centres(cells)
        edge = _cell_edge(self.layout)
        self.fill_cells([cells[0], cells[-1]], colour)
        draw_lines(self.image, centres[:-1], centres[1:], colour, max(int(edge // 6), 1))

    def draw_paths(self, paths: Sequence[Sequence[Cell]]) -> np.ndarray:
        """Each path in the next of the path colours; the image."""
        for number, cells in enumerate(paths):
            self.draw_path(cells, PATH_COLOURS[number % len(PATH_COLOURS)])
        return self.image


def _extent(grid: Grid, layout: CellLayout) -> Tuple[np.ndarray, np.ndarray]:
    """The top-left and bottom-right corners (layout pixels) of the box around the grid's cells."""
    x0, y0 = grid.origin
    outline = layout.rect_outline(x0, y0, grid.width, grid.height)
    return outline.min(axis=0), outline.max(axis=0)
