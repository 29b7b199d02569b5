"""Pictures of grids and paths, for the command line and the README (SPEC E4's offline half).

PNG files are written with zlib from the standard library, so drawing needs
nothing beyond numpy.
"""

import struct
import zlib
from pathlib import Path
from typing import Iterable, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from .grid import Cell, Grid

__all__ = ["draw_grid", "draw_path", "paths_picture", "write_png", "PATH_COLOURS"]

FREE = (228, 222, 200)
BLOCKED = (52, 56, 64)
#: Distinct colours for successive paths.
PATH_COLOURS = ((214, 39, 40), (31, 119, 180), (44, 160, 44), (148, 103, 189), (255, 127, 14), (23, 190, 207))

Colour = Tuple[int, int, int]


#: Colours for tiles whose names contain these words (blocked, free), so that pictures of
#: TileMaps show their terrain; other tiles are drawn as FREE or BLOCKED.
TERRAIN_COLOURS = (
    (("water", "river", "lake", "sea"), (46, 96, 170), (128, 172, 214)),
    (("forest", "tree", "wood"), (38, 98, 52), (120, 170, 110)),
    (("wall", "rock", "stone", "cliff", "mountain"), (52, 56, 64), (150, 150, 150)),
    (("bridge", "road", "path"), (120, 90, 60), (184, 150, 104)),
)


def draw_grid(grid: Grid, scale: int = 4, tiles: Optional[np.ndarray] = None, names: Mapping[int, str] = {}) -> np.ndarray:
    """An RGB image (height*scale, width*scale, 3) of free and blocked cells.

    ``tiles[y, x]`` (tile ids, -1 for none) with their ``names`` colour the
    cells by terrain (see TERRAIN_COLOURS).
    """
    free = grid.passable[:, :, None]
    image = np.where(free, np.array(FREE, np.uint8), np.array(BLOCKED, np.uint8))
    if grid.cost is not None:  # darker where terrain costs more
        shade = 1.0 / np.sqrt(grid.cost)
        image = np.where(free, (image * shade[:, :, None]).astype(np.uint8), image)
    for tile, name in names.items() if tiles is not None else ():
        colours = [(b, f) for words, b, f in TERRAIN_COLOURS if any(w in name.lower() for w in words)]
        if colours:
            blocked_colour, free_colour = colours[0]
            image[tiles == tile] = np.where(free, free_colour, blocked_colour)[tiles == tile]
    return np.kron(image, np.ones((scale, scale, 1), dtype=np.uint8))


def draw_path(image: np.ndarray, cells: Sequence[Cell], colour: Colour, scale: int = 4) -> None:
    """Draw a path on an image made by :func:`draw_grid`: a line through the cell centres, squares at the ends."""
    if not cells:
        return
    thickness = max(scale // 4, 1)
    centres = (np.asarray(cells, dtype=float) + 0.5) * scale
    for (x0, y0), (x1, y1) in zip(centres, centres[1:]):
        for t in np.linspace(0.0, 1.0, 2 * scale):
            x, y = int(x0 + t * (x1 - x0)), int(y0 + t * (y1 - y0))
            image[y - thickness // 2 : y - thickness // 2 + thickness, x - thickness // 2 : x - thickness // 2 + thickness] = colour
    for x, y in (cells[0], cells[-1]):
        image[y * scale : (y + 1) * scale, x * scale : (x + 1) * scale] = colour


def write_png(path: Union[str, Path], image: np.ndarray) -> None:
    """Write an RGB uint8 image as a PNG file."""
    image = np.ascontiguousarray(image, dtype=np.uint8)
    if image.ndim != 3 or image.shape[2] != 3:
        raise ValueError(f"expected an RGB image of shape (h, w, 3), got {image.shape}")
    height, width, _ = image.shape
    rows = np.concatenate([np.zeros((height, 1), np.uint8), image.reshape(height, width * 3)], axis=1)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    Path(path).write_bytes(
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows.tobytes(), 6))
        + chunk(b"IEND", b"")
    )


def paths_picture(grid: Grid, paths: Iterable[Sequence[Cell]], scale: int = 4, **terrain) -> np.ndarray:
    """The grid (terrain as in :func:`draw_grid`) with each path drawn in the next colour."""
    image = draw_grid(grid, scale, **terrain)
    for number, cells in enumerate(paths):
        draw_path(image, cells, PATH_COLOURS[number % len(PATH_COLOURS)], scale)
    return image
