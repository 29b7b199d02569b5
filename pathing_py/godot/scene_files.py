"""Godot 3 TileMaps, their TileSets and NavGrid settings read from ``.tscn`` / ``.tres`` files (SPEC G1).

Which cells block follows :mod:`pathing_py.godot.tile_data`, as in the
engine: this module finds the TileMap node, its ``tile_data`` and geometry,
and its TileSet (embedded or a ``.tres``), and names the file and line of
anything malformed.

Quick start::

    from pathing_py.godot.scene_files import grid_from_tscn
    grid = grid_from_tscn("res/level.tscn", tilemap="World/Ground", blocking=["water"])
    grid.origin            # the TileMap cell of grid cell (0, 0)
    arena = grid_from_tscn("res/arena.tscn", bounds=(-10, -10, 64, 48))  # x, y, width, height
    dungeon = grid_from_tscn("res/dungeon.tscn", tilemap="Floor", layers=["Walls"])  # stacked TileMaps
    hexes = read_tilemap("res/hexagonal.tscn").hex_map()  # half-offset cells: six neighbours
"""

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, FrozenSet, Iterable, List, NamedTuple, Optional, Tuple, Union

import numpy as np

from ..grid import Cell, Grid, MapFormatError, check_connectivity
from ..hex_grid import HexMap
from .text import Constructor, Document, ResourceRef, Section, parse_file
from .tile_data import (
    CellRect,
    TileCells,
    TileLayer,
    blocked_cells,
    cell_rect,
    decode_tile_data,
    grid_area,
    layer_blocking_ids,
    passable_cells,
    quoted,
)
from .tile_geometry import DEFAULT_CELL_SIZE, DEFAULT_CUSTOM_TRANSFORM, GeometryError, TileGeometry
from .tile_layers import TransformPoints, layer_difference, layer_node_problem, node_transform_points

__all__ = [
    "NavGridSettings",
    "TileMapData",
    "grid_from_tscn",
    "list_tilemaps",
    "nav_grid_settings",
    "navgrid_bounds",
    "read_tilemap",
]

#: ``TileSet.tile_mode`` values.
SINGLE_TILE, AUTO_TILE, ATLAS_TILE = 0, 1, 2

#: What read_tilemap finds for one tile.
CollisionRule = Union[bool, FrozenSet[Tuple[int, int]]]


@dataclass(frozen=True)
class TileMapData:
    """One TileMap read from a scene file: its cells, its TileSet's rules, and which cells block.

    ``blocked[i]`` is True when cell ``i`` of ``cells`` has a collision shape or
    a tile listed in ``blocking`` (``listed``). ``geometry`` places the cells in pixels.
    ``layers`` are the TileMaps read with it, stacked on its cells: the area,
    the passable cells and the grid are those of the stack.
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
    layers: Tuple["TileMapData", ...] = ()

    @property
    def origin(self) -> Cell:
        return self.cells.origin

    def stack(self) -> List[TileLayer]:
        """This TileMap's cells and those of its ``layers``, with which of them block."""
        return [TileLayer(data.cells, data.blocked) for data in (self, *self.layers)]

    def area(self, bounds: Optional[CellRect] = None) -> CellRect:
        """The cells a grid covers, to navigate: ``bounds``, else the used rectangle (of all layers).

        Raises MapFormatError if there is no used rectangle.
        """
        return grid_area(self.stack(), bounds, self._where())

    def passable(self, *, empty_passable: bool = True, bounds: Optional[CellRect] = None) -> np.ndarray:
        """``passable[y, x]`` over :meth:`area` (of the stack); raises as it does, and if no cell is passable."""
        return passable_cells(self.stack(), empty_passable, self.area(bounds), self._where())

    def grid(self, *, empty_passable: bool = True, bounds: Optional[CellRect] = None, connectivity: int = 8) -> Grid:
        """The grid of :meth:`area`, its origin the area's top-left TileMap cell; ``connectivity`` as :class:`Grid`'s.

        Raises MapFormatError for a half-offset (hexagonal) TileMap, whose cells
        have six neighbours, not eight or four: read it with :meth:`hex_map`.
        """
        if self.geometry.hexagonal:
            raise MapFormatError(
                f"{self._where()} is half-offset ({self.geometry.describe()}): its cells have six neighbours, "
                "not eight or four; read it with hex_map() and search it with find_hex_path"
            )
        return self._obstacles(empty_passable, bounds, connectivity)

    def hex_map(self, *, empty_passable: bool = True, bounds: Optional[CellRect] = None) -> HexMap:
        """A half-offset TileMap's grid of :meth:`area` (the obstacle table) with the layout of its six-neighbour
        cells; MapFormatError for a TileMap without half offset (read it with :meth:`grid`)."""
        if not self.geometry.hexagonal:
            raise MapFormatError(
                f"{self._where()} has no half offset ({self.geometry.describe()}): read it with grid()"
            )
        return HexMap(self._obstacles(empty_passable, bounds, 8), self.geometry.layout())

    def _obstacles(self, empty_passable: bool, bounds: Optional[CellRect], connectivity: int) -> Grid:
        area = self.area(bounds)
        passable = self.passable(empty_passable=empty_passable, bounds=area)
        return Grid(passable, origin=(area.x, area.y), connectivity=connectivity)

    def _where(self) -> str:
        return f"{self.source}:{self.line}: TileMap {self.node_path!r}"


def read_tilemap(
    path: Union[str, Path],
    tilemap: Optional[str] = None,
    blocking: Optional[Iterable[Union[int, str]]] = None,
    *,
    unknown_tiles: str = "error",
    layers: Iterable[str] = (),
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

    ``layers`` names more TileMaps of the scene stacked on this one (as
    ``tilemap`` names it): they must lie on the same cells (mode, cell size and
    node transforms); a cell blocks where any layer blocks. ``blocking`` names
    apply to every layer; each must name a tile of some layer's TileSet.

    Raises MapFormatError naming the file and line for malformed text, a
    missing TileMap or TileSet, bad ``tile_data``, an unknown tile id, or a
    layer that is not a TileMap on the same cells.
    """
    path = Path(path)
    scene = parse_file(path)
    _require_header(scene, "gd_scene")
    if isinstance(layers, str):
        raise TypeError(f"layers must be a list of TileMap names or node paths, got {layers!r}")
    main = _pick_tilemap(scene, tilemap)
    for index, layer in enumerate(layers):
        if not str(layer):
            raise MapFormatError(f"{scene.source}: {layer_node_problem(f'layers[{index}]', '', None)}")
    picked = [main] + [_pick_tilemap(scene, str(layer), f"layers[{index}]") for index, layer in enumerate(layers)]
    read = [_read_node(scene, node_path, node, path) for node_path, node in picked]
    _check_stack(scene, [node_path for node_path, _ in picked], read)
    listed = layer_blocking_ids(blocking, [(one.collision, one.names) for one in read], read[0].where)
    stack = [
        TileMapData(
            path,
            one.node_path,
            one.line,
            one.cells,
            blocked_cells(one.cells, one.collision, ids, unknown_tiles, one.where),
            one.collision,
            one.names,
            ids,
            one.geometry,
        )
        for one, ids in zip(read, listed)
    ]
    return dataclasses.replace(stack[0], layers=tuple(stack[1:]))


def grid_from_tscn(
    path: Union[str, Path],
    tilemap: Optional[str] = None,
    blocking: Optional[Iterable[Union[int, str]]] = None,
    *,
    empty_passable: bool = True,
    bounds: Optional[Iterable[int]] = None,
    unknown_tiles: str = "error",
    connectivity: int = 8,
    layers: Iterable[str] = (),
) -> Grid:
    """The :class:`~pathing_py.Grid` of a Godot 3 scene's TileMap, read as :func:`read_tilemap` reads it.

    ``bounds`` ``(x, y, width, height)`` in TileMap cells sets the map's area
    (games that paint only obstacles); by default it is the painted (used) rectangle.
    ``layers`` names more TileMaps stacked on the same cells (a floor and its
    walls): a cell blocks where any of them blocks.
    """
    data = read_tilemap(path, tilemap=tilemap, blocking=blocking, unknown_tiles=unknown_tiles, layers=layers)
    area = cell_rect(bounds) if bounds is not None else None
    return data.grid(empty_passable=empty_passable, bounds=area, connectivity=connectivity)


class _ReadNode(NamedTuple):
    """A TileMap node of a scene read, before its blocking cells are known."""

    node_path: str
    line: int
    where: str
    cells: TileCells
    collision: Dict[int, "CollisionRule"]
    names: Dict[int, str]
    geometry: TileGeometry
    transform: TransformPoints


def _read_node(scene: Document, node_path: str, node: Section, path: Path) -> _ReadNode:
    collision, names = _read_tile_set(scene, node, node_path, path)
    line, cells = _read_cells(scene, node, node_path)
    geometry = _read_geometry(scene, node, node_path)
    where = f"{scene.where(line)}: TileMap {node_path!r}"
    return _ReadNode(node_path, line, where, cells, collision, names, geometry, _global_transform(scene, node_path))


def _check_stack(scene: Document, node_paths: List[str], read: List[_ReadNode]) -> None:
    """Each layer a different TileMap on the cells of the first; MapFormatError naming the one that is not."""
    main = read[0]
    for index, (node_path, layer) in enumerate(zip(node_paths[1:], read[1:])):
        if node_path in node_paths[: index + 1]:
            again = "the TileMap itself" if node_path == node_paths[0] else "listed twice"
            raise MapFormatError(f"{scene.source}: layers[{index}] {node_path!r} is {again}")
        difference = layer_difference(
            node_path, layer.geometry, layer.transform, main.node_path, main.geometry, main.transform
        )
        if difference:
            raise MapFormatError(f"{scene.where(layer.line)}: {difference}")


def _global_transform(scene: Document, node_path: str) -> TransformPoints:
    """The node's transform composed with its ancestors' in the scene (``position``, ``rotation``, ``scale``)."""
    sections = dict(_nodes(scene))
    parts = node_path.split("/")
    chain = []
    for depth in range(1, len(parts) + 1):
        section = sections.get("/".join(parts[:depth]))  # None inside an instanced scene: its nodes are not here
        properties = section.properties if section is not None else {}
        position = _vector(properties.get("position"), (0.0, 0.0))
        scale = _vector(properties.get("scale"), (1.0, 1.0))
        rotation = properties.get("rotation", 0.0)
        chain.append((position, float(rotation) if isinstance(rotation, (int, float)) else 0.0, scale))
    return node_transform_points(chain)


def _vector(value: Any, default: Tuple[float, float]) -> Tuple[float, float]:
    if isinstance(value, Constructor) and value.name == "Vector2" and len(value.args) == 2:
        return float(value.args[0]), float(value.args[1])
    return default


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
    connectivity: int = 8  #: of its grid: 8 or 4
    layers: Tuple[str, ...] = ()  #: node paths of the TileMaps stacked on its TileMap (``layer_paths``)


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
        try:
            connectivity = check_connectivity(section.properties.get("connectivity", 8))
        except ValueError as error:
            line = scene.where(section.property_lines.get("connectivity", section.line))
            raise MapFormatError(f"{line}: NavGrid {node_path!r}: {error}") from None
        found.append(
            NavGridSettings(
                node_path,
                _resolve_node_path(node_path, str(target.args[0]) if target.args else ""),
                [str(name) for name in blocking.args],
                bool(section.properties.get("empty_cells_passable", True)),
                int(section.properties.get("cluster_size", 0)),
                cells,
                connectivity,
                _layer_paths(scene, section, node_path),
            )
        )
    return found


def _layer_paths(scene: Document, section: Section, node_path: str) -> Tuple[str, ...]:
    """A NavGrid's ``layer_paths`` (``[ NodePath("../Walls"), … ]``) resolved as node paths of the scene."""
    paths = section.properties.get("layer_paths", [])
    if not isinstance(paths, list) or not all(
        isinstance(path, Constructor) and path.name == "NodePath" and len(path.args) == 1 for path in paths
    ):
        where = scene.where(section.property_lines.get("layer_paths", section.line))
        raise MapFormatError(f'{where}: NavGrid {node_path!r}: layer_paths must be an array of NodePath( "…" )')
    return tuple(_resolve_node_path(node_path, str(path.args[0])) if str(path.args[0]) else "" for path in paths)


def _resolve_node_path(node_path: str, relative: str) -> str:
    """``relative`` (a NodePath such as ``../TileMap``) seen from ``node_path``."""
    parts = node_path.split("/")
    for part in relative.split("/"):
        if part == "..":
            parts = parts[:-1]
        elif part not in ("", "."):
            parts.append(part)
    return "/".join(parts)


# -- scene files ----------------------------------------------------------------------


def _require_header(document: Document, tag: str) -> Section:
    header = document.sections[0]
    if header.tag != tag:
        raise MapFormatError(f"{document.where(header.line)}: expected a [{tag} …] file, found [{header.tag} …]")
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
                raise MapFormatError(f"{scene.where(section.line)}: node {name!r} has no parent but is not the root")
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


def _pick_tilemap(scene: Document, choice: Optional[str], setting: str = "tilemap") -> Tuple[str, Section]:
    """The TileMap node ``choice`` names (``setting`` says which argument, for messages)."""
    nodes = _tilemap_nodes(scene)
    if not nodes:
        raise MapFormatError(f"{scene.source}: no TileMap node in the scene{_instanced_note(scene)}")
    listing = quoted([node_path for node_path, _ in nodes])
    if choice is None:
        if len(nodes) > 1:
            raise MapFormatError(f"{scene.source}: several TileMap nodes ({listing}); choose one with tilemap=…")
        return nodes[0]
    matches = [(node_path, section) for node_path, section in nodes if _names_node(choice, node_path)]
    if not matches:
        others = [(path, section) for path, section in _nodes(scene) if _names_node(choice, path)]
        if others:
            node_path, section = others[0]
            found = section.attributes.get("type") or "instanced scene"
            problem = layer_node_problem(setting, choice, str(found))
            raise MapFormatError(f"{scene.where(section.line)}: {problem} (TileMap nodes: {listing})")
        named = "" if setting == "tilemap" else f"{setting}: "
        raise MapFormatError(f"{scene.source}: {named}no TileMap {choice!r}; TileMap nodes: {listing}")
    if len(matches) > 1:
        paths = quoted([node_path for node_path, _ in matches])
        raise MapFormatError(f"{scene.source}: several TileMaps match {choice!r} ({paths}); give the node path")
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
    return line, decode_tile_data(tile_data, format_value, where=where)


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
            raise MapFormatError(
                f"{where(key)}: {key} must be a {constructor}( {len(default)} numbers ), got {value!r}"
            )
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
        document = parse_file(_resolve(external.attributes.get("path"), scene_path, scene.where(external.line)))
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
            f"{document.where(line)}: resource id={section.attributes.get('id')} is a {found}, not a {expected}"
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
        raise MapFormatError(f"{where}: {resource_path} is not a text resource (.tres); only those can be read")
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
        raise MapFormatError(f"{document.where(line)}: a shape must be SubResource( … ), ExtResource( … ) or null")
    tag = "sub_resource" if value.kind == "SubResource" else "ext_resource"
    section = _find_resource(document, tag, value.id, line)
    return str(section.attributes.get("type", "")).endswith("Shape2D")
