"""Step 4 of the bake: the graph file that ships with the game (SPEC H5, G2).

Layout, all little-endian::

    MAGIC                     b"PATHING_PY KEY-POINT GRAPH\\n"
    header length             uint32
    header                    JSON: format version, map size and content hash,
                              bake parameters, and the name, dtype and shape of each array
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
from typing import TYPE_CHECKING, Dict, List, Optional, Tuple, Type, Union

import numpy as np

from ..grid import Grid
from .fields import ClusterFields
from .landmarks import Landmarks
from .partition import Clusters

if TYPE_CHECKING:  # pragma: no cover
    from .graph import KeyPointGraph

__all__ = ["FORMAT_VERSION", "GraphFileError", "StaleGraphError", "graph_bytes", "graph_from_bytes", "read_graph", "write_graph"]

MAGIC = b"PATHING_PY KEY-POINT GRAPH\n"
FORMAT_VERSION = 2  #: 2: landmarks
_CHECKSUM_SIZE = hashlib.sha1().digest_size


class GraphFileError(ValueError):
    """A graph file that cannot be read: damaged, truncated, or not a graph file at all."""


class StaleGraphError(GraphFileError):
    """A graph baked from a map whose content differs from the grid at hand: bake it again."""


def graph_bytes(graph: "KeyPointGraph") -> bytes:
    borders = sorted(graph.entrances)
    clusters = range(len(graph.clusters))
    arrays = {
        "borders": np.array(borders, dtype=np.int32).reshape(-1, 2),
        "entrance_counts": np.array([len(graph.entrances[b]) for b in borders], dtype=np.int32),
        "entrances": np.array(
            [(a[0], a[1], b[0], b[1]) for border in borders for a, b in graph.entrances[border]], dtype=np.int32
        ).reshape(-1, 4),
        "member_counts": np.array([len(graph.members[c]) for c in clusters], dtype=np.int32),
        "members": np.array([cell for c in clusters for cell in graph.members[c]], dtype=np.int32).reshape(-1, 2),
        "costs": np.concatenate([graph.fields[c].costs.ravel() for c in clusters] or [np.zeros(0)]).astype("<f8"),
        "directions": np.concatenate([graph.fields[c].direction.ravel() for c in clusters] or [np.zeros(0, np.int8)]),
    }
    arrays.update(_landmark_arrays(graph, [cell for c in clusters for cell in graph.members[c]]))
    header = {
        "format": FORMAT_VERSION,
        "width": graph.grid.width,
        "height": graph.grid.height,
        "map_hash": graph.grid.content_hash(),
        "cluster_size": graph.clusters.size,
        "unit_size": graph.unit_size,
        "long_run": graph.long_run,
        "arrays": [[name, array.dtype.str, list(array.shape)] for name, array in arrays.items()],
    }
    header_bytes = json.dumps(header, sort_keys=True).encode("utf-8")
    body = MAGIC + struct.pack("<I", len(header_bytes)) + header_bytes
    body += b"".join(np.ascontiguousarray(array).tobytes() for array in arrays.values())
    return body + hashlib.sha1(body).digest()


def write_graph(graph: "KeyPointGraph", path: Union[str, Path]) -> None:
    Path(path).write_bytes(graph_bytes(graph))


def read_graph(cls: Type["KeyPointGraph"], path: Union[str, Path], grid: Grid) -> "KeyPointGraph":
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise GraphFileError(f"{path}: cannot read the graph file: {error}") from None
    return graph_from_bytes(cls, data, grid, str(path))


def graph_from_bytes(cls: Type["KeyPointGraph"], data: bytes, grid: Grid, source: str = "<bytes>") -> "KeyPointGraph":
    """Rebuild a graph from :func:`graph_bytes` for ``grid``; named errors for anything amiss."""
    header, arrays = _unpack(data, source)
    if (header["width"], header["height"]) != (grid.width, grid.height):
        raise StaleGraphError(
            f"{source}: baked for a {header['width']}x{header['height']} map, the grid is {grid.width}x{grid.height}: bake again"
        )
    if header["map_hash"] != grid.content_hash():
        raise StaleGraphError(f"{source}: baked from a map whose cells differ from this grid's (the map changed): bake again")
    try:
        graph = cls(grid, Clusters(grid.width, grid.height, int(header["cluster_size"])), int(header["unit_size"]), int(header["long_run"]))
        graph.entrances, graph.members, graph.fields = _restore(graph.clusters, arrays)
        graph.landmarks = _restore_landmarks(graph, arrays)
    except (KeyError, ValueError, TypeError, IndexError) as error:
        raise GraphFileError(f"{source}: the graph data is inconsistent ({error})") from None
    return graph


def _unpack(data: bytes, source: str) -> Tuple[dict, Dict[str, np.ndarray]]:
    if not data.startswith(MAGIC):
        raise GraphFileError(f"{source}: not a pathing_py key-point graph file")
    if len(data) < len(MAGIC) + 4 + _CHECKSUM_SIZE:
        raise GraphFileError(f"{source}: the file is truncated")
    body, checksum = data[:-_CHECKSUM_SIZE], data[-_CHECKSUM_SIZE:]
    if hashlib.sha1(body).digest() != checksum:
        raise GraphFileError(f"{source}: the file is damaged (checksum mismatch)")
    (header_length,) = struct.unpack_from("<I", data, len(MAGIC))
    start = len(MAGIC) + 4
    try:
        header = json.loads(body[start : start + header_length].decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise GraphFileError(f"{source}: the header is not valid JSON") from None
    if header.get("format") != FORMAT_VERSION:
        raise GraphFileError(f"{source}: graph format {header.get('format')!r}, this version reads {FORMAT_VERSION}: bake again")
    arrays = {}
    offset = start + header_length
    try:
        for name, dtype, shape in header["arrays"]:
            count = int(np.prod(shape))
            array = np.frombuffer(body, dtype=np.dtype(dtype), count=count, offset=offset).reshape(shape)
            arrays[name] = array
            offset += array.nbytes
    except (KeyError, ValueError, TypeError) as error:
        raise GraphFileError(f"{source}: the array table is damaged ({error})") from None
    if offset != len(body):
        raise GraphFileError(f"{source}: {len(body) - offset} bytes left over after the arrays")
    return header, arrays


def _landmark_arrays(graph: "KeyPointGraph", cells: List[Tuple[int, int]]) -> Dict[str, np.ndarray]:
    """The landmarks as flat cell indices and a (landmarks, key points) table in member order."""
    landmarks = graph.landmarks
    if landmarks is None:
        return {"landmarks": np.zeros(0, "<i8"), "landmark_distances": np.zeros((0, len(cells)), "<f8")}
    width = graph.grid.width
    table = [landmarks.distances[y * width + x] for x, y in cells]
    return {
        "landmarks": np.array(landmarks.nodes, dtype="<i8"),
        "landmark_distances": np.array(table, dtype="<f8").reshape(len(cells), -1).T.copy(),
    }


def _restore_landmarks(graph: "KeyPointGraph", arrays: Dict[str, np.ndarray]) -> Optional[Landmarks]:
    nodes = arrays["landmarks"].tolist()
    if not nodes:
        return None
    width = graph.grid.width
    cells = [cell for cluster in range(len(graph.clusters)) for cell in graph.members[cluster]]
    table = arrays["landmark_distances"]
    if table.shape != (len(nodes), len(cells)):
        raise ValueError(f"landmark table of shape {table.shape} for {len(nodes)} landmarks and {len(cells)} key points")
    return Landmarks(nodes, dict(zip([y * width + x for x, y in cells], table.T.tolist())))


def _restore(clusters: Clusters, arrays: Dict[str, np.ndarray]):
    entrances: Dict[Tuple[int, int], List] = {}
    ax, ay, bx, by = arrays["entrances"].T.tolist() if len(arrays["entrances"]) else ([], [], [], [])
    pairs = list(zip(zip(ax, ay), zip(bx, by)))
    first = 0
    for (a, b), count in zip(arrays["borders"].tolist(), arrays["entrance_counts"].tolist()):
        entrances[(a, b)] = pairs[first : first + count]
        first += count
    member_counts = arrays["member_counts"].tolist()
    if len(member_counts) != len(clusters):
        raise ValueError(f"{len(member_counts)} clusters stored, the map has {len(clusters)}")
    cells = list(zip(*arrays["members"].T.tolist())) if len(arrays["members"]) else []
    members, fields = {}, {}
    cost_at = direction_at = first = 0
    for cluster, count in enumerate(member_counts):
        rect = clusters.rect(cluster)
        members[cluster] = cells[first : first + count]
        costs = arrays["costs"][cost_at : cost_at + count * count].reshape(count, count)
        size = count * rect[2] * rect[3]
        directions = arrays["directions"][direction_at : direction_at + size].reshape(count, rect[3], rect[2])
        fields[cluster] = ClusterFields(rect, costs, directions)
        first, cost_at, direction_at = first + count, cost_at + count * count, direction_at + size
    if first != len(cells) or cost_at != arrays["costs"].size or direction_at != arrays["directions"].size:
        raise ValueError("array sizes do not match the clusters")
    return entrances, members, fields
