"""Pictures of grids, key-point graphs and paths, for the command line and the README (SPEC E4's offline half).

PNG files are written with zlib from the standard library, so drawing needs
nothing beyond numpy.
"""

import struct
import zlib
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from .grid import Cell, Grid

if TYPE_CHECKING:
    from .hierarchy import KeyPointGraph

__all__ = ["draw_grid", "draw_graph", "draw_lines", "draw_path", "paths_picture", "write_png", "PATH_COLOURS"]

FREE = (228, 222, 200)
BLOCKED = (52, 56, 64)
#: Distinct colours for successive paths.
PATH_COLOURS = ((214, 39, 40), (31, 119, 180), (44, 160, 44), (148, 103, 189), (255, 127, 14), (23, 190, 207))

#: Key-point graphs: cluster borders, edges inside a cluster, edges across a border, key points.
CLUSTER_BORDER = (118, 118, 128)
INSIDE_EDGE = (250, 250, 250)
BORDER_EDGE = (200, 40, 150)
KEY_POINT = (120, 20, 90)

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


def draw_lines(image: np.ndarray, starts: np.ndarray, ends: np.ndarray, colour: Colour, thickness: int = 1) -> None:
    """Draw straight lines from ``starts[i]`` to ``ends[i]`` (pixel (x, y) pairs), all in one numpy pass.

    Each line is a dot of ``thickness`` pixels square at every pixel along its longer axis.
    """
    starts = np.asarray(starts, dtype=float).reshape(-1, 2)
    spans = np.asarray(ends, dtype=float).reshape(-1, 2) - starts
    dots = np.abs(spans).max(axis=1).astype(int) + 1
    line = np.repeat(np.arange(len(dots)), dots)
    along = (np.arange(len(line)) - np.repeat(np.cumsum(dots) - dots, dots)) / np.maximum(dots[line] - 1, 1)
    corners = (starts[line] + along[:, None] * spans[line]).astype(int) - thickness // 2
    height, width = image.shape[:2]
    for dy in range(thickness):
        for dx in range(thickness):
            image[np.clip(corners[:, 1] + dy, 0, height - 1), np.clip(corners[:, 0] + dx, 0, width - 1)] = colour


def draw_path(image: np.ndarray, cells: Sequence[Cell], colour: Colour, scale: int = 4) -> None:
    """Draw a path on an image made by :func:`draw_grid`: a line through the cell centres, squares at the ends."""
    if not cells:
        return
    centres = (np.asarray(cells, dtype=float) + 0.5) * scale
    draw_lines(image, centres[:-1], centres[1:], colour, max(scale // 4, 1))
    for x, y in (cells[0], cells[-1]):
        image[y * scale : (y + 1) * scale, x * scale : (x + 1) * scale] = colour


def draw_graph(image: np.ndarray, graph: "KeyPointGraph", scale: int = 4) -> None:
    """Draw a key-point graph on an image made by :func:`draw_grid`.

    Cluster outlines; edges as straight lines between the key points' cell
    centres, those across a border (between neighbouring cells) thicker;
    key points as squares half a cell wide, so that border edges show between them.
    """
    rects = np.asarray(graph.cluster_rects(), dtype=float).reshape(-1, 4) * scale
    left, top = rects[:, 0], rects[:, 1]
    right, bottom = left + rects[:, 2] - 1, top + rects[:, 3] - 1
    corners = [np.stack(pair, axis=1) for pair in ((left, top), (right, top), (right, bottom), (left, bottom))]
    for start, end in zip(corners, corners[1:] + corners[:1]):
        draw_lines(image, start, end, CLUSTER_BORDER)
    centres = (np.asarray(graph.key_points(), dtype=float).reshape(-1, 2) + 0.5) * scale
    pairs, _, inside = graph.edges()
    draw_lines(image, centres[pairs[inside, 0]], centres[pairs[inside, 1]], INSIDE_EDGE, max(scale // 8, 1))
    draw_lines(image, centres[pairs[~inside, 0]], centres[pairs[~inside, 1]], BORDER_EDGE, max(scale // 4, 1))
    draw_lines(image, centres, centres, KEY_POINT, max(scale // 2, 1))


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


def paths_picture(
    grid: Grid, paths: Iterable[Sequence[Cell]], scale: int = 4, graph: Optional["KeyPointGraph"] = None, **terrain
) -> np.ndarray:
    """The grid (terrain as in :func:`draw_grid`), its key-point ``graph`` if given, and each path in the next colour."""
    image = draw_grid(grid, scale, **terrain)
    if graph is not None:
        draw_graph(image, graph, scale)
    for number, cells in enumerate(paths):
        draw_path(image, cells, PATH_COLOURS[number % len(PATH_COLOURS)], scale)
    return image
