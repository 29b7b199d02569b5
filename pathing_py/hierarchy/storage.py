"""Step 4 of the bake: the graph file that ships with the game (SPEC H5, G2).

Layout, all little-endian::

    MAGIC                     b"PATHING_PY KEY-POINT GRAPH\\n"
    header length             uint32
    header                    JSON: format version, map size, content hash, connectivity, the kind of
                              cells of a half-offset map ("map": which lines ahead, step costs; none
                              for square cells), bake parameters, and the name, dtype and shape of each array
                              (entrances, key points, costs and directions per cluster, landmarks)
    arrays                    raw bytes, one after the other, in header order
    checksum                  SHA-1 of everything before it

The same graph always gives the same bytes. Loading needs no pickle and no
zip: one read, one hash, and numpy views of the arrays.
"""

import hashlib
import json
import struct
from pathlib import Path
from typing import Dict, List, MutableMapping, NamedTuple, Optional, Tuple, Union

import numpy as np

from ..grid import Cell, Grid, check_connectivity
from ..hex_grid import HexSteps
from .fields import ClusterFields
from .file_checks import InvalidGraphData, check_graph_arrays, check_hex_graph_arrays, field_layout
from .hex_entrances import HexClusters
from .landmarks import Landmarks
from .lazy_table import LazyTable
from .partition import Clusters

__all__ = [
    "FORMAT_VERSION", "GraphData", "GraphFileError", "StaleGraphError", "graph_bytes", "graph_from_bytes", "map_kind",
    "read_graph", "write_graph",
]  # fmt: skip

MAGIC = b"PATHING_PY KEY-POINT GRAPH\n"
FORMAT_VERSION = (
    4  #: 2: landmarks; 3: the grid's connectivity; 4: landmark distances exact, over edges of one cost both ways
)
_CHECKSUM_SIZE = hashlib.sha1().digest_size

#: The arrays of a file, in file order: name, dtype, shape (None: any length).
ARRAYS = (
    ("borders", "<i4", (None, 2)),
    ("entrance_counts", "<i4", (None,)),
    ("entrances", "<i4", (None, 4)),
    ("member_counts", "<i4", (None,)),
    ("members", "<i4", (None, 2)),
    ("costs", "<f8", (None,)),
    ("directions", "|i1", (None,)),
    ("landmarks", "<i8", (None,)),
    ("landmark_distances", "<f8", (None, None)),
)
#: Bake parameters in the header: name and least value.
PARAMETERS = (("cluster_size", 2), ("unit_size", 1), ("long_run", 1))


class GraphFileError(ValueError):
    """A graph file that cannot be read: damaged, truncated, not a graph file, or not one the bake made for this map."""


class StaleGraphError(GraphFileError):
    """A graph baked from a map whose content (or connectivity) differs from the grid at hand: bake it again."""


class GraphData(NamedTuple):
    """What a graph file holds besides the grid: the bake's parameters and results."""

    clusters: Clusters
    unit_size: int
    long_run: int
    entrances: MutableMapping[Tuple[int, int], List[Tuple[Cell, Cell]]]
    members: MutableMapping[int, List[Cell]]
    fields: MutableMapping[int, ClusterFields]
    landmarks: Optional[Landmarks]
    #: The six steps of a half-offset map's cells; None for square cells.
    hexes: Optional[HexSteps] = None


def map_kind(hexes: Optional[HexSteps]) -> Dict[str, object]:
    """What a graph file records of its map's kind of cells: square, or half offset with what decides the
    six steps (the offset's axis and direction, whether line 0 lies ahead, the cell axes that price them)."""
    if hexes is None:
        return {"kind": "square"}
    layout = hexes.layout
    return {
        "kind": "hex",
        "offset_axis": hexes.axis,
        "shift": layout.shift,
        "line_0_ahead": hexes.lines_ahead(0, 1)[0],
        "x_axis": list(layout.x_axis),
        "y_axis": list(layout.y_axis),
    }


def _kind_name(kind: object) -> str:
    if not isinstance(kind, dict) or kind.get("kind") != "hex":
        return "a square map"
    return f"a half-offset (hexagonal) map ({kind})"


def graph_bytes(grid: Grid, graph: GraphData) -> bytes:
    borders = sorted(graph.entrances)
    clusters = range(len(graph.clusters))
    arrays = {
        "borders": borders,
        "entrance_counts": [len(graph.entrances[b]) for b in borders],
        "entrances": [(a[0], a[1], b[0], b[1]) for border in borders for a, b in graph.entrances[border]],
        "member_counts": [len(graph.members[c]) for c in clusters],
        "members": [cell for c in clusters for cell in graph.members[c]],
        "costs": np.concatenate([graph.fields[c].costs.ravel() for c in clusters] or [np.zeros(0)]),
        "directions": np.concatenate([graph.fields[c].direction.ravel() for c in clusters] or [np.zeros(0, np.int8)]),
    }
    arrays.update(_landmark_arrays(grid, graph))
    typed = {name: _typed(arrays[name], dtype, shape) for name, dtype, shape in ARRAYS}
    header = {
        "format": FORMAT_VERSION,
        "width": grid.width,
        "height": grid.height,
        "map_hash": grid.content_hash(),
        "connectivity": grid.connectivity,
        "cluster_size": graph.clusters.size,
        "unit_size": graph.unit_size,
        "long_run": graph.long_run,
        "arrays": [[name, array.dtype.str, list(array.shape)] for name, array in typed.items()],
    }
    if graph.hexes is not None:  # a square map's file has no "map": its bytes are those it had before hex graphs
        header["map"] = map_kind(graph.hexes)
    header_bytes = json.dumps(header, sort_keys=True).encode("utf-8")
    body = MAGIC + struct.pack("<I", len(header_bytes)) + header_bytes
    body += b"".join(np.ascontiguousarray(array).tobytes() for array in typed.values())
    return body + hashlib.sha1(body).digest()


def write_graph(grid: Grid, graph: GraphData, path: Union[str, Path]) -> None:
    Path(path).write_bytes(graph_bytes(grid, graph))


def read_graph(path: Union[str, Path], grid: Grid, hexes: Optional[HexSteps] = None) -> GraphData:
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise GraphFileError(f"{path}: cannot read the graph file: {error}") from None
    return graph_from_bytes(data, grid, str(path), hexes)


def graph_from_bytes(data: bytes, grid: Grid, source: str = "<bytes>", hexes: Optional[HexSteps] = None) -> GraphData:
    """Read :func:`graph_bytes` back for ``grid`` (a half-offset map's, whose six steps are ``hexes``), checked
    against it; named errors for anything amiss (StaleGraphError for a graph of the other kind of cells).

    Nothing is allocated from sizes the header states before they are found
    to fit the file, and the arrays must be what the bake makes for this map
    (see :mod:`.file_checks`), so a loaded graph answers as a baked one does.
    """
    header, arrays = _unpack(data, source)
    stored_kind = header.get("map", map_kind(None))  # files written before the kind was recorded: square
    if stored_kind != map_kind(hexes):
        raise StaleGraphError(
            f"{source}: baked for {_kind_name(stored_kind)}, the grid is read as {_kind_name(map_kind(hexes))}: "
            f"bake again for this map"
        )
    if (header["width"], header["height"]) != (grid.width, grid.height):
        raise StaleGraphError(
            f"{source}: baked for a {header['width']}x{header['height']} map,"
            f" the grid is {grid.width}x{grid.height}: bake again"
        )
    if header["map_hash"] != grid.content_hash():
        raise StaleGraphError(
            f"{source}: baked from a map whose cells differ from this grid's (the map changed): bake again"
        )
    if header["connectivity"] != grid.connectivity:
        raise StaleGraphError(
            f"{source}: baked for {header['connectivity']}-connected movement,"
            f" the grid is {grid.connectivity}-connected: bake again"
        )
    clusters = (Clusters if hexes is None else HexClusters)(grid.width, grid.height, header["cluster_size"])
    try:
        if hexes is None:
            check_graph_arrays(grid, clusters, header["long_run"], arrays)
        else:
            check_hex_graph_arrays(grid, clusters, header["long_run"], arrays, hexes)
    except InvalidGraphData as error:
        raise GraphFileError(f"{source}: not a graph the bake makes for this map: {error}") from None
    entrances, members, fields = _restore(clusters, arrays)
    landmarks = _restore_landmarks(grid, arrays)
    return GraphData(clusters, header["unit_size"], header["long_run"], entrances, members, fields, landmarks, hexes)


def _unpack(data: bytes, source: str) -> Tuple[dict, Dict[str, np.ndarray]]:
    if not data.startswith(MAGIC):
        raise GraphFileError(f"{source}: not a pathing_py key-point graph file")
    if len(data) < len(MAGIC) + 4 + _CHECKSUM_SIZE:
        raise GraphFileError(f"{source}: the file is truncated")
    body, checksum = memoryview(data)[:-_CHECKSUM_SIZE], data[-_CHECKSUM_SIZE:]  # a view: no copy of the arrays
    if hashlib.sha1(body).digest() != checksum:
        raise GraphFileError(f"{source}: the file is damaged (checksum mismatch)")
    (header_length,) = struct.unpack_from("<I", data, len(MAGIC))
    start = len(MAGIC) + 4
    if start + header_length > len(body):
        raise GraphFileError(f"{source}: a header of {header_length} bytes in a file of {len(data)}")
    try:
        header = json.loads(bytes(body[start : start + header_length]).decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise GraphFileError(f"{source}: the header is not valid JSON") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT_VERSION:
        version = header.get("format") if isinstance(header, dict) else None
        raise GraphFileError(f"{source}: graph format {version!r}, this version reads {FORMAT_VERSION}: bake again")
    problem = _header_problem(header)
    if problem:
        raise GraphFileError(f"{source}: the header is damaged: {problem}")
    offset = start + header_length
    sizes = [np.dtype(dtype).itemsize * _product(shape) for _, dtype, shape in header["arrays"]]
    if offset + sum(sizes) != len(body):
        raise GraphFileError(
            f"{source}: the header lists {sum(sizes)} bytes of arrays, the file holds {len(body) - offset}"
        )
    arrays = {}
    for (name, dtype, shape), size in zip(header["arrays"], sizes):
        arrays[name] = np.frombuffer(body, dtype=np.dtype(dtype), count=_product(shape), offset=offset).reshape(shape)
        offset += size
    return header, arrays


def _header_problem(header: dict) -> str:
    """What is wrong with a parsed header ("" for nothing), judged before any array is read."""
    expected = {"format", "width", "height", "map_hash", "connectivity", "arrays"} | {name for name, _ in PARAMETERS}
    if set(header) - {"map"} != expected:  # "map", the kind of cells, from files that record it
        return f"keys {sorted(header)}, expected {sorted(expected | {'map'})}"
    if "map" in header and (not isinstance(header["map"], dict) or header["map"].get("kind") not in ("square", "hex")):
        return f"map must name a kind of cells, square or hex, got {header['map']!r}"
    for name, least in (("width", 1), ("height", 1), *PARAMETERS):
        value = header[name]
        if not isinstance(value, int) or isinstance(value, bool) or value < least:
            return f"{name} must be an int >= {least}, got {value!r}"
    if not isinstance(header["map_hash"], str):
        return f"map_hash must be a string, got {header['map_hash']!r}"
    try:
        check_connectivity(header["connectivity"])
    except ValueError as error:
        return str(error)
    table = header["arrays"]
    if not isinstance(table, list) or len(table) != len(ARRAYS):
        return f"the array table must list {len(ARRAYS)} arrays"
    for entry, (name, dtype, shape) in zip(table, ARRAYS):
        if not isinstance(entry, list) or len(entry) != 3 or entry[:2] != [name, dtype]:
            return f"array table entry {entry!r}, expected {name!r} of dtype {dtype!r}"
        stated = entry[2]
        if (
            not isinstance(stated, list)
            or len(stated) != len(shape)
            or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in stated)
            or any(fixed is not None and n != fixed for n, fixed in zip(stated, shape))
        ):
            return f"{name} has shape {stated!r}, expected {['any' if n is None else n for n in shape]}"
    return ""


def _typed(values, dtype: str, shape: Tuple[Optional[int], ...]) -> np.ndarray:
    """``values`` as the file stores them (an empty list gets its fixed columns)."""
    array = np.array(values, dtype=dtype)
    return array.reshape(-1, shape[1]) if len(shape) == 2 and shape[1] is not None else array


def _product(shape: List[int]) -> int:
    """The element count of a shape, in Python ints (no overflow from a hostile header)."""
    count = 1
    for n in shape:
        count *= n
    return count


def _landmark_arrays(grid: Grid, graph: GraphData) -> Dict[str, np.ndarray]:
    """The landmarks as flat cell indices and a (landmarks, key points) table in member order."""
    landmarks = graph.landmarks
    cells = [cell for c in range(len(graph.clusters)) for cell in graph.members[c]]
    if landmarks is None:
        return {"landmarks": np.zeros(0), "landmark_distances": np.zeros((0, len(cells)))}
    width = grid.width
    rows = [landmarks.rows[y * width + x] for x, y in cells]
    return {
        "landmarks": np.array(landmarks.nodes),
        "landmark_distances": np.array(landmarks.columns, dtype=float)[:, rows],
    }


def _restore_landmarks(grid: Grid, arrays: Dict[str, np.ndarray]) -> Optional[Landmarks]:
    nodes = arrays["landmarks"].tolist()
    if not nodes:
        return None
    members = arrays["members"].astype(np.int64)
    flat = (members[:, 1] * grid.width + members[:, 0]).tolist()
    return Landmarks(nodes, dict(zip(flat, range(len(flat)))), arrays["landmark_distances"].tolist())


def _restore(clusters: Clusters, arrays: Dict[str, np.ndarray]):
    """The graph's tables over arrays :mod:`.file_checks` found right, each cluster's and border's
    entries made when the graph first reads them (:class:`.LazyTable`)."""
    counts = arrays["entrance_counts"].tolist()
    ends = np.cumsum(arrays["entrance_counts"], dtype=np.int64).tolist()
    borders = dict(zip(map(tuple, arrays["borders"].tolist()), range(len(counts))))  # border -> its place in the file

    def border_pairs(border: Tuple[int, int]) -> List[Tuple[Cell, Cell]]:
        end = ends[borders[border]]
        return [
            ((ax, ay), (bx, by)) for ax, ay, bx, by in arrays["entrances"][end - counts[borders[border]] : end].tolist()
        ]

    rects, cost_sizes, direction_sizes = field_layout(clusters, arrays["member_counts"])
    member_counts = arrays["member_counts"].tolist()
    member_ends, cost_ends, direction_ends = (
        np.cumsum(sizes, dtype=np.int64).tolist() for sizes in (arrays["member_counts"], cost_sizes, direction_sizes)
    )

    def cluster_members(cluster: int) -> List[Cell]:
        end = member_ends[cluster]
        return [(x, y) for x, y in arrays["members"][end - member_counts[cluster] : end].tolist()]

    def cluster_fields(cluster: int) -> ClusterFields:
        count, (x, y, width, height) = member_counts[cluster], rects[cluster].tolist()
        costs = arrays["costs"][cost_ends[cluster] - count * count : cost_ends[cluster]].reshape(count, count)
        size = count * width * height
        directions = arrays["directions"][direction_ends[cluster] - size : direction_ends[cluster]].reshape(
            count, height, width
        )
        return ClusterFields((x, y, width, height), costs, directions)

    cluster_numbers = range(len(clusters))
    return (
        LazyTable(borders, border_pairs),
        LazyTable(cluster_numbers, cluster_members),
        LazyTable(cluster_numbers, cluster_fields),
    )
