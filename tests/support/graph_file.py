"""What other tests take from tests/hierarchy/test_graph_file.py: its helpers, moved here."""

import hashlib
import json
import struct

import numpy as np

from pathing_py import Grid, KeyPointGraph

MAGIC = b"PATHING_PY KEY-POINT GRAPH\n"
MAP = """\
..........#.........#...
..........#....#....#...
....###...#....#........
....#...............#...
....#.....#....#....#...
##.###########.######.##
..........#.........#...
..##......#....#........
...#...........#....#...
...#......#....#....#...
"""


def split(data: bytes):
    """(header, {name: array}) of a graph file, read by its documented layout."""
    (length,) = struct.unpack_from("<I", data, len(MAGIC))
    start = len(MAGIC) + 4
    header = json.loads(data[start : start + length])
    arrays, offset = {}, start + length
    for name, dtype, shape in header["arrays"]:
        array = np.frombuffer(data, dtype=dtype, count=int(np.prod(shape)), offset=offset).reshape(shape).copy()
        arrays[name] = array
        offset += array.nbytes
    return header, arrays


def join(header: dict, arrays: dict, table: bool = True) -> bytes:
    """A graph file with a right checksum; ``table`` restates the arrays' dtypes and shapes in the header."""
    if table:
        header = dict(header, arrays=[[name, array.dtype.str, list(array.shape)] for name, array in arrays.items()])
    header_bytes = json.dumps(header, sort_keys=True).encode()
    body = MAGIC + struct.pack("<I", len(header_bytes)) + header_bytes + b"".join(a.tobytes() for a in arrays.values())
    return body + hashlib.sha1(body).digest()


def weighted_grid() -> Grid:
    plain = Grid.from_ascii(MAP)
    cost = 1.0 + (np.arange(plain.width * plain.height).reshape(plain.height, plain.width) % 3)
    return Grid(plain.passable, cost)


GRIDS = {"plain": Grid.from_ascii(MAP), "weighted": weighted_grid(), "rooks": Grid.from_ascii(MAP, connectivity=4)}
FILES = {name: KeyPointGraph.bake(grid, cluster_size=5).to_bytes() for name, grid in GRIDS.items()}


def load(name: str, data: bytes) -> KeyPointGraph:
    return KeyPointGraph.from_bytes(data, GRIDS[name], "edited.kpg")


def edited(name: str, array: str, edit) -> bytes:
    header, arrays = split(FILES[name])
    edit(arrays[array])
    return join(header, arrays)


def set_at(index, value):
    def edit(array):
        array.reshape(-1)[index] = value

    return edit
