"""TileMaps stacked as layers: whether they share one cell grid, and what to say when they do not.

Godot 3 has no layers inside a TileMap, so games stack TileMaps (a floor, the
walls above it). A NavGrid reads its TileMap together with the TileMaps of its
``layer_paths``, and the reader takes ``layers=[...]``; which cells then block
is :func:`pathing_py.godot.tile_data.passable_cells`'s rule. The stack makes
sense only when cell ``(x, y)`` is the same place in every layer: the same
mode, cell size (or custom cell transform) and half offset, and the same
position, rotation and scale of the nodes. Anything else would give wrong
paths, so it is refused with a message saying which layer differs and how.

Transforms are given as the images of (0, 0), (1, 0) and (0, 1)
(:data:`TransformPoints`): a node's global transform in the engine, the
composed ``position``, ``rotation`` and ``scale`` of its scene nodes in files.

    >>> from pathing_py.godot.tile_geometry import MODE_ISOMETRIC, TileGeometry
    >>> floor = TileGeometry(mode=MODE_ISOMETRIC, cell_size=(128, 64))
    >>> message = layer_difference("Walls", TileGeometry(), IDENTITY, "Floor", floor, IDENTITY)
    >>> print(message)  # doctest: +NORMALIZE_WHITESPACE
    layer 'Walls' is square, cell_size (64, 64), but the TileMap 'Floor' is isometric, cell_size (128, 64):
    stacked TileMaps must share one cell grid (the same mode, cell size and transform)
    >>> layer_difference("Walls", floor, IDENTITY, "Floor", floor, IDENTITY)
    ''
"""

import math
from typing import Optional, Sequence, Tuple

import numpy as np

from .tile_geometry import TileGeometry

__all__ = ["IDENTITY", "TransformPoints", "layer_difference", "layer_node_problem", "node_transform_points"]

Pair = Tuple[float, float]
#: A Transform2D as the images of (0, 0), (1, 0) and (0, 1).
TransformPoints = Tuple[Pair, Pair, Pair]
IDENTITY: TransformPoints = ((0.0, 0.0), (1.0, 0.0), (0.0, 1.0))

#: How far (pixels) two layers' transforms may differ and still place cells alike: engine transforms are
#: 32-bit floats, and a stack whose cells drift by less than this does not change which cell a point is in.
TRANSFORM_TOLERANCE = 1e-3

_SAME_GRID = "stacked TileMaps must share one cell grid (the same mode, cell size and transform)"


def layer_node_problem(
    setting: str, path: str, found_class: Optional[str], *, has_tileset: bool = True, is_main: bool = False
) -> str:
    """Why the node at a layer's path cannot be a layer, or "".

    ``setting`` names the entry (``"layer_paths[1]"``); ``found_class`` is the
    class of the node at ``path`` (None: no node there); ``is_main`` that the
    path leads to the NavGrid's own TileMap.
    """
    if not path:
        return f"{setting} is empty: point it at a TileMap stacked on the map, or remove it."
    if found_class is None:
        return f"{setting} {path!r} does not point at a node."
    if found_class != "TileMap":
        return f"{setting} {path!r} points at a {found_class}, not a TileMap."
    if is_main:
        return f"{setting} {path!r} is the TileMap of tilemap_path itself: list only the other layers."
    if not has_tileset:
        return f"The TileMap at {setting} {path!r} has no TileSet: its collision shapes say which cells block."
    return ""


def layer_difference(
    layer: str,
    geometry: TileGeometry,
    transform: TransformPoints,
    main: str,
    main_geometry: TileGeometry,
    main_transform: TransformPoints,
) -> str:
    """How the cells of TileMap ``layer`` would not lie on those of TileMap ``main`` (each named for the
    message, with its geometry and global transform), or "" when they do."""
    if geometry.half_offset != main_geometry.half_offset or not np.array_equal(
        geometry.cell_transform(), main_geometry.cell_transform()
    ):
        ours_described, theirs_described = geometry.describe(), main_geometry.describe()
        return f"layer {layer!r} is {ours_described}, but the TileMap {main!r} is {theirs_described}: {_SAME_GRID}"
    ours, theirs = _checked(transform), _checked(main_transform)
    if ours is None or theirs is None or not np.allclose(ours, theirs, rtol=0, atol=TRANSFORM_TOLERANCE):
        return (
            f"layer {layer!r} lies {_describe(transform)}, but the TileMap {main!r} {_describe(main_transform)}: "
            f"{_SAME_GRID}; give the layers the same position, rotation and scale"
        )
    return ""


def node_transform_points(chain: Sequence[Tuple[Pair, float, Pair]]) -> TransformPoints:
    """The global transform of a node whose ancestors and itself, root first, have these ``(position,
    rotation in radians, scale)``: what ``Node2D.get_global_transform`` gives for nodes under a plain root."""
    matrix = np.eye(3)
    for (x, y), rotation, (scale_x, scale_y) in chain:
        cos, sin = math.cos(rotation), math.sin(rotation)
        local = np.array([[cos * scale_x, -sin * scale_y, x], [sin * scale_x, cos * scale_y, y], [0.0, 0.0, 1.0]])
        matrix = matrix @ local
    (ox, xx, yx), (oy, xy, yy) = (matrix @ np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 1.0, 1.0]]))[:2].tolist()
    return (ox, oy), (xx, xy), (yx, yy)


def _checked(points: TransformPoints) -> Optional[np.ndarray]:
    array = np.asarray(points, dtype=np.float64)
    return array if array.shape == (3, 2) and np.isfinite(array).all() else None


def _describe(points: TransformPoints) -> str:
    (ox, oy), (xx, xy), (yx, yy) = points
    return f"at ({ox:g}, {oy:g}) with axes ({xx - ox:g}, {xy - oy:g}) and ({yx - ox:g}, {yy - oy:g})"
