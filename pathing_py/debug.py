"""Pictures of grids, key-point graphs, paths and units, for the command line and the README (SPEC E4's offline half).

Drawing needs nothing beyond numpy; :func:`write_png` needs Pillow, the
optional extra ``pictures`` (:mod:`pathing_py.pillow`).
"""

from pathlib import Path
from typing import TYPE_CHECKING, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from .clearance import block_centre
from .grid import Cell, Grid
from .pillow import pillow_image
from .units import RouteKind, UnitState
from .units.prediction import cells_ahead

if TYPE_CHECKING:
    from .hierarchy import KeyPointGraph
    from .units import Navigator, Unit

__all__ = [
    "draw_cells",
    "draw_commander",
    "draw_grid",
    "draw_graph",
    "draw_lines",
    "draw_path",
    "draw_units",
    "paths_picture",
    "plan_ahead",
    "side_by_side",
    "unit_colour",
    "units_picture",
    "write_png",
    "PATH_COLOURS",
]

FREE = (228, 222, 200)
BLOCKED = (52, 56, 64)
#: Distinct colours for successive paths and units.
PATH_COLOURS = (
    (214, 39, 40), (31, 119, 180), (44, 160, 44), (148, 103, 189),
    (255, 127, 14), (23, 190, 207), (227, 119, 194), (188, 189, 34),
)  # fmt: skip

#: Key-point graphs: cluster borders, edges inside a cluster, edges across a border, key points.
CLUSTER_BORDER = (118, 118, 128)
INSIDE_EDGE = (250, 250, 250)
BORDER_EDGE = (200, 40, 150)
KEY_POINT = (120, 20, 90)

#: Units: cells blocked while they walk, the rim of a unit, the cross over a unit that stopped short.
NEW_WALL = (120, 50, 30)
UNIT_RIM = (20, 20, 24)
STOPPED_CROSS = (0, 0, 0)
#: Groups: the dot on a group's commander; what lies between pictures put side by side.
COMMANDER_DOT = (255, 255, 255)
PANEL_GAP = (255, 255, 255)

Colour = Tuple[int, int, int]


#: Colours for tiles whose names contain these words (blocked, free), so that pictures of
#: TileMaps show their terrain; other tiles are drawn as FREE or BLOCKED.
TERRAIN_COLOURS = (
    (("water", "river", "lake", "sea"), (46, 96, 170), (128, 172, 214)),
    (("forest", "tree", "wood"), (38, 98, 52), (120, 170, 110)),
    (("wall", "rock", "stone", "cliff", "mountain"), (52, 56, 64), (150, 150, 150)),
    (("bridge", "road", "path"), (120, 90, 60), (184, 150, 104)),
)


def draw_grid(
    grid: Grid, scale: int = 4, tiles: Optional[np.ndarray] = None, names: Mapping[int, str] = {}
) -> np.ndarray:
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
    """Write an RGB uint8 image as a PNG file (with Pillow: :class:`~pathing_py.pillow.PillowMissing` without it)."""
    image = np.ascontiguousarray(image, dtype=np.uint8)
    if image.ndim != 3 or image.shape[2] != 3:
        raise ValueError(f"expected an RGB image of shape (h, w, 3), got {image.shape}")
    pillow_image().fromarray(image, "RGB").save(path, format="PNG")


def paths_picture(
    grid: Grid, paths: Iterable[Sequence[Cell]], scale: int = 4, graph: Optional["KeyPointGraph"] = None, **terrain
) -> np.ndarray:
    """The grid (terrain as in :func:`draw_grid`), its key-point ``graph`` if given, and each path in
    the next colour."""
    image = draw_grid(grid, scale, **terrain)
    if graph is not None:
        draw_graph(image, graph, scale)
    for number, cells in enumerate(paths):
        draw_path(image, cells, PATH_COLOURS[number % len(PATH_COLOURS)], scale)
    return image


def draw_cells(image: np.ndarray, cells: Iterable[Cell], colour: Colour, scale: int = 4) -> None:
    """Fill whole cells with one colour, e.g. walls put up while units walk."""
    cells = np.asarray(list(cells), dtype=int).reshape(-1, 2)
    mask = np.zeros((image.shape[0] // scale, image.shape[1] // scale), bool)
    mask[cells[:, 1], cells[:, 0]] = True
    image[np.repeat(np.repeat(mask, scale, axis=0), scale, axis=1)] = colour


def unit_colour(unit_id: int) -> Colour:
    """The colour a unit is drawn in: the next of PATH_COLOURS for each unit id (ids start at 1)."""
    return PATH_COLOURS[(unit_id - 1) % len(PATH_COLOURS)]


def plan_ahead(unit: "Unit") -> List[Tuple[float, float]]:
    """A unit's plan ahead as a polyline in cell units: where it stands, then the centres of the cells
    (:func:`~pathing_py.units.prediction.cells_ahead`) and key points still to pass (of its blocks, for a
    unit larger than a cell). Just its position when it has no plan."""
    high = unit.stack.find(RouteKind.HIGH_LEVEL)
    ahead = cells_ahead(unit)
    for key_point in high.remaining if high else ():
        if not ahead or ahead[-1] != key_point:  # the current leg ends at the next key point
            ahead.append(key_point)
    return [unit.position] + [block_centre(cell, unit.size) for cell in ahead]


def draw_units(
    image: np.ndarray, navigator: "Navigator", scale: int = 4, trails: Mapping[int, Sequence[Tuple[float, float]]] = {}
) -> None:
    """Draw a navigator's units on an image made by :func:`draw_grid`, each in its :func:`unit_colour`.

    Per unit: the trail it walked (``trails[unit.id]``, positions in cell
    units) in a light shade; its plan ahead, a thin line through the cells and
    key points still to pass; its goal, a hollow square; and the unit, a disc
    of its radius with a dark rim, crossed out if it stopped short of its goal
    (HELD_UP or UNREACHABLE). Discs go on top so that no line hides a unit.
    """
    units = sorted(navigator.units.values(), key=lambda unit: unit.id)
    for unit in units:
        trail = np.asarray(trails.get(unit.id, ()), dtype=float).reshape(-1, 2) * scale
        red, green, blue = unit_colour(unit.id)
        light = ((red + 255) // 2, (green + 255) // 2, (blue + 255) // 2)
        draw_lines(image, trail[:-1], trail[1:], light, max(scale // 4, 1))
    for unit in units:
        points = np.asarray(plan_ahead(unit), dtype=float) * scale
        draw_lines(image, points[:-1], points[1:], unit_colour(unit.id))
        if unit.goal is not None:
            (x, y), side = unit.goal, unit.size  # the cell, or the block of a unit larger than a cell
            corners = np.array([(x, y), (x + side, y), (x + side, y + side), (x, y + side)]) * scale - [
                (0, 0),
                (1, 0),
                (1, 1),
                (0, 1),
            ]
            draw_lines(image, corners, np.roll(corners, -1, axis=0), unit_colour(unit.id), max(scale // 4, 1))
    for unit in units:
        centre = np.asarray(unit.position) * scale
        _draw_disc(image, centre, unit.radius * scale, unit_colour(unit.id))
        if unit.state in (UnitState.HELD_UP, UnitState.UNREACHABLE):
            arm = unit.radius * scale * 0.7
            ends = centre + np.array([(-arm, -arm), (arm, arm), (-arm, arm), (arm, -arm)])
            draw_lines(image, ends[::2], ends[1::2], STOPPED_CROSS, max(scale // 4, 1))


def units_picture(
    background: np.ndarray,
    navigator: "Navigator",
    scale: int,
    trails: Dict[int, List[Tuple[float, float]]],
    new_walls: Iterable[Cell] = (),
) -> np.ndarray:
    """A frame of units walking a map: a copy of ``background`` (made by :func:`draw_grid`) with ``new_walls``
    filled as walls put up during the run and the units drawn by :func:`draw_units`, each unit's
    position now added to its trail in ``trails`` first."""
    for unit in navigator.units.values():
        trails.setdefault(unit.id, []).append(unit.position)
    image = background.copy()
    draw_cells(image, new_walls, NEW_WALL, scale)
    draw_units(image, navigator, scale, trails)
    return image


def draw_commander(image: np.ndarray, unit: "Unit", scale: int = 4) -> None:
    """Mark a group's commander (SPEC F1), drawn by :func:`draw_units`, with a light dot in its middle."""
    _draw_disc(image, np.asarray(unit.position) * scale, max(unit.radius * scale * 0.4, 1.0), COMMANDER_DOT)


def side_by_side(images: Sequence[np.ndarray], gap: int) -> np.ndarray:
    """RGB images left to right, ``gap`` pixels apart, their tops level; shorter ones are padded below."""
    if not images or gap < 0:
        raise ValueError(
            f"side_by_side needs at least one picture and a gap of 0 or more pixels, got {len(images)} and {gap}"
        )
    height = max(image.shape[0] for image in images)
    width = sum(image.shape[1] for image in images) + gap * (len(images) - 1)
    picture = np.empty((height, width, 3), np.uint8)
    picture[:] = PANEL_GAP
    left = 0
    for image in images:
        picture[: image.shape[0], left : left + image.shape[1]] = image
        left += image.shape[1] + gap
    return picture


def _draw_disc(image: np.ndarray, centre: np.ndarray, radius: float, colour: Colour) -> None:
    """A filled disc (pixel units), with a one-pixel dark rim when it is big enough to show one."""
    height, width = image.shape[:2]
    left, top = (max(int(v - radius), 0) for v in centre)
    right, bottom = min(int(centre[0] + radius) + 1, width), min(int(centre[1] + radius) + 1, height)
    ys, xs = np.mgrid[top:bottom, left:right] + 0.5
    distance = np.hypot(xs - centre[0], ys - centre[1])
    window = image[top:bottom, left:right]
    window[distance <= radius] = colour
    if radius >= 3:
        window[(distance <= radius) & (distance > radius - 1)] = UNIT_RIM
