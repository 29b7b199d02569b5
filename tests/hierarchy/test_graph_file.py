"""A .kpg file is checked at load: edited files with right checksums raise GraphFileError or answer rightly.

Files are edited as a modder would: header fields or array values changed,
the checksum recomputed. Either the load refuses the file, or every query
through the loaded graph answers as the exact search does (status) with a
legal path whose reported cost is its length.
"""

import hashlib
import math
import struct
import tracemalloc

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pathing_py import GraphFileError, Grid, KeyPointGraph, PathStatus, StaleGraphError, find_path
from pathing_py.godot.bridge import load_graph
from pathing_py.hierarchy.fields import walk_back
from pathing_py.jump_tables import DIRECTIONS
from tests.support.graph_file import FILES, GRIDS, MAGIC, edited, join, load, set_at, split
from tests.support.graphs import assert_same_answers

FREE = [(x, y) for y in range(10) for x in range(24) if GRIDS["plain"].passable[y, x]]


def assert_answers_rightly(graph: KeyPointGraph, grid: Grid, pairs) -> None:
    """Every query answers the exact search's status; a found path is legal (straight steps only on a
    4-connected grid) and costs what it says."""
    for start, goal in pairs:
        exact = find_path(grid, start, goal)
        for link in ("exact", "fast"):
            result = graph.find_path(start, goal, link=link, exact_first=0.0)  # through the key points
            assert result.status is exact.status, (start, goal, link)
            if result.status is not PathStatus.FOUND:
                continue
            cells = result.cells
            assert cells[0] == start and cells[-1] == goal
            total = 0.0
            for (x0, y0), (x1, y1) in zip(cells, cells[1:]):
                dx, dy = x1 - x0, y1 - y0
                assert max(abs(dx), abs(dy)) == 1 and grid.is_passable((x1, y1)), (start, goal, link, cells)
                assert grid.connectivity == 8 or abs(dx) + abs(dy) == 1, ("diagonal step on a 4-connected grid", cells)
                if dx and dy:
                    assert grid.is_passable((x0 + dx, y0)) and grid.is_passable((x0, y0 + dy)), "corner cut"
                total += (math.sqrt(2) if dx and dy else 1.0) * (1.0 if grid.cost is None else grid.cost[y1, x1])
            assert result.cost == pytest.approx(total, rel=1e-9)
            assert result.cost >= exact.cost - 1e-9


@pytest.mark.parametrize("name", sorted(GRIDS))
def test_the_unedited_files_load_and_answer_rightly(name):
    graph = load(name, FILES[name])
    assert graph == KeyPointGraph.bake(GRIDS[name], cluster_size=5)
    assert_answers_rightly(graph, GRIDS[name], [(FREE[i], FREE[-1 - i]) for i in range(0, len(FREE) // 2, 7)])


@pytest.mark.parametrize("name", sorted(GRIDS))
def test_a_loaded_graph_answers_as_a_fresh_bake_from_tables_filled_as_read(name):
    graph, fresh = load(name, FILES[name]), KeyPointGraph.bake(GRIDS[name], cluster_size=5)
    assert all(not table.built() for table in (graph.entrances, graph.members, graph.fields))  # nothing built at load
    assert_same_answers(graph, fresh, [(FREE[i], FREE[-1 - 3 * i]) for i in range(0, len(FREE) // 3, 5)])


@pytest.mark.parametrize(
    "grid, message",
    [
        (
            Grid(GRIDS["plain"].passable & (np.arange(24) != 3)[None, :]),
            "cells differ from this grid's",
        ),  # the map edited since
        (Grid(np.ones((10, 24), dtype=bool)), "cells differ from this grid's"),  # another map of the same size
        (Grid(np.ones((10, 25), dtype=bool)), "baked for a 24x10 map, the grid is 25x10: bake again"),
        (Grid(GRIDS["plain"].passable, np.ones((10, 24))), "cells differ"),  # the same cells, with terrain costs
    ],
)
def test_a_stale_or_foreign_file_is_refused_by_name(grid, message):
    with pytest.raises(StaleGraphError, match=message):
        KeyPointGraph.from_bytes(FILES["plain"], grid, "level.kpg")


def test_the_test_files_rebuild_byte_for_byte():
    """split and join are faithful: an edit made through them is the only change."""
    for data in FILES.values():
        assert join(*split(data)) == data


@pytest.mark.parametrize(
    "name, array, edit, message",
    [
        ("plain", "members", set_at(0, 2), "members are not those of the map"),  # a key point moved onto a wall
        ("plain", "members", set_at(0, 10**6), "members are not those of the map"),  # out of the map
        ("plain", "members", set_at(1, -3), "members are not those of the map"),
        ("plain", "entrances", set_at(0, 99), "entrances are not those of the map"),
        ("plain", "costs", set_at(1, np.nan), "negative or not a number"),
        ("plain", "costs", set_at(1, -1.0), "negative or not a number"),
        ("plain", "costs", set_at(1, 0.5), "not the cost of its path"),
        ("weighted", "costs", set_at(1, np.inf), "calls a key point unreachable"),
        ("plain", "directions", set_at(0, 9), "not one of the eight moves"),
        ("plain", "directions", set_at(0, -7), "not one of the eight moves"),
        ("plain", "landmarks", set_at(0, 1), "not a key point"),
        ("plain", "landmark_distances", set_at(1, np.nan), "negative or not a number"),
        ("plain", "landmark_distances", set_at(1, 10**6), "overestimate"),
        (
            "rooks",
            "directions",
            lambda directions: set_at(int(np.argmax(directions >= 0)), 1)(directions),
            "diagonally",
        ),
        (
            "plain",
            "landmark_distances",
            lambda a: a.fill(0.0),
            "not the graph's shortest distances",
        ),  # bounds, not distances
        ("rooks", "landmark_distances", lambda a: a.fill(0.0), "not the graph's shortest distances"),
    ],
)
def test_edited_arrays_are_refused_at_load(name, array, edit, message):
    with pytest.raises(GraphFileError, match=message):
        load(name, edited(name, array, edit))


def test_landmarks_the_bake_would_not_pick_are_refused():
    header, arrays = split(FILES["plain"])
    assert len(arrays["landmarks"]) > 1
    for name in ("landmarks", "landmark_distances"):  # the same landmarks and distances, in another order
        arrays[name] = np.ascontiguousarray(arrays[name][::-1])
    with pytest.raises(GraphFileError, match="not those the bake picks"):
        load("plain", join(header, arrays))
    arrays["landmarks"], arrays["landmark_distances"] = arrays["landmarks"][:0], arrays["landmark_distances"][:0]
    with pytest.raises(GraphFileError, match="no landmarks stored"):
        load("plain", join(header, arrays))


def test_directions_that_go_round_in_a_loop_are_refused():
    graph = KeyPointGraph.bake(GRIDS["plain"], cluster_size=5)
    header, arrays = split(FILES["plain"])
    first = 0  # where the cluster's fields start among the stored directions
    for cluster in range(len(graph.clusters)):
        fields, members = graph.fields[cluster], graph.members[cluster]
        x0, y0, width, height = fields.rect
        paths = [
            walk_back(fields, 0, member)
            for member in members[1:]
            if math.isfinite(fields.costs[0, members.index(member)])
        ]
        path = max(paths, key=len, default=[])
        if len(path) >= 3:
            break
        first += len(members) * width * height
    (ux, uy), (vx, vy) = path[1], path[2]  # the path enters v from u: make u entered from v, a loop of two cells
    arrays["directions"][first + (uy - y0) * width + ux - x0] = DIRECTIONS.index((ux - vx, uy - vy))
    with pytest.raises(GraphFileError, match="loop|not the cost of its path"):
        load("plain", join(header, arrays))


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda h: h.update(cluster_size=1), "cluster_size must be an int >= 2"),
        (lambda h: h.update(cluster_size=5.0), "cluster_size must be an int"),
        (lambda h: h.update(long_run=True), "long_run must be an int"),
        (lambda h: h.update(long_run=3), "entrances are not those of the map|entrance counts"),
        (lambda h: h.update(cluster_size=6), "not those of the map"),
        (lambda h: h.update(map_hash=7), "map_hash must be a string"),
        (lambda h: h.update(connectivity=6), "connectivity must be 8 or 4"),
        (lambda h: h.pop("connectivity"), "keys"),
        (lambda h: h.update(format=2), "graph format 2, this version reads 4: bake again"),
        (lambda h: h.update(format=3), "graph format 3, this version reads 4: bake again"),  # landmarks as bounds
        (lambda h: h.pop("unit_size"), "keys"),
        (lambda h: h.update(extra=1), "keys"),
        (lambda h: h["arrays"][5].__setitem__(1, "<f4"), "expected 'costs' of dtype '<f8'"),
        (lambda h: h["arrays"][6].__setitem__(1, "<i8"), "expected 'directions' of dtype"),
        (lambda h: h["arrays"][4].__setitem__(2, [2**40, 2]), "lists .* bytes of arrays"),
        (lambda h: h["arrays"][8].__setitem__(2, [2**31, 2**31]), "lists .* bytes of arrays"),
        (lambda h: h["arrays"][4].__setitem__(2, [-1, 2]), "members has shape"),
        (lambda h: h["arrays"][2].__setitem__(2, [3, 5]), "entrances has shape"),
        (lambda h: h["arrays"].pop(), "must list 9 arrays"),
    ],
)
def test_edited_headers_are_refused_before_anything_is_allocated(change, message):
    header, arrays = split(FILES["plain"])
    change(header)
    data = join(header, arrays, table=False)
    tracemalloc.start()
    try:
        with pytest.raises(GraphFileError, match=message):
            load("plain", data)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 50 * len(data) + 10**6  # the file's size, not the header's figures


def test_a_header_that_is_not_an_object_or_nests_without_end_is_refused():
    _, arrays = split(FILES["plain"])
    for text in (b"[1, 2]", b"[" * 100_000 + b"]" * 100_000, b'{"format": 2'):
        body = MAGIC + struct.pack("<I", len(text)) + text
        with pytest.raises(GraphFileError):
            load("plain", body + hashlib.sha1(body).digest())
    body = MAGIC + struct.pack("<I", 10**6) + b"{}"
    with pytest.raises(GraphFileError, match="header of 1000000 bytes"):
        load("plain", body + hashlib.sha1(body).digest())


ARRAY_NAMES = [
    "borders",
    "entrance_counts",
    "entrances",
    "member_counts",
    "members",
    "costs",
    "directions",
    "landmarks",
    "landmark_distances",
]
VALUES = st.one_of(
    st.integers(-3, 30), st.sampled_from([2**31 - 1, -(2**31), 10**9, 1.5, 0.0, np.inf, -np.inf, np.nan, 1e300])
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(GRIDS)), array=st.sampled_from(ARRAY_NAMES), data=st.data())
def test_fuzz_edited_files_are_refused_or_answer_rightly(name, array, data):
    header, arrays = split(FILES[name])
    values = arrays[array].reshape(-1)
    if values.size:
        for _ in range(data.draw(st.integers(1, 3), label="edits")):
            index = data.draw(st.integers(0, values.size - 1), label="index")
            value = data.draw(st.one_of(VALUES, st.sampled_from(values.tolist())), label="value")
            if values.dtype.kind in "iu":
                limits = np.iinfo(values.dtype)
                value = max(min(int(np.nan_to_num(value)), int(limits.max)), int(limits.min))
            values[index] = value
    try:
        graph = load(name, join(header, arrays))
    except GraphFileError:
        return
    pairs = [
        (data.draw(st.sampled_from(FREE), label="start"), data.draw(st.sampled_from(FREE), label="goal"))
        for _ in range(6)
    ]
    assert_answers_rightly(graph, GRIDS[name], pairs)


@pytest.mark.parametrize("baked, loaded", [("plain", "rooks"), ("rooks", "plain")])
def test_a_graph_baked_for_the_other_connectivity_is_refused(baked, loaded):
    wanted, got = GRIDS[baked].connectivity, GRIDS[loaded].connectivity
    with pytest.raises(
        StaleGraphError, match=f"baked for {wanted}-connected movement, the grid is {got}-connected: bake again"
    ):
        load(loaded, FILES[baked])
    rebaked = load_graph("res://level.kpg", FILES[baked], GRIDS[loaded], rebake=True)
    assert "connected movement" in rebaked.warning and rebaked.graph.grid is GRIDS[loaded]


def test_the_navgrid_warns_and_rebakes_on_an_edited_file():
    data = edited("plain", "costs", set_at(1, np.nan))
    loaded = load_graph("res://level.kpg", data, GRIDS["plain"], rebake=True)
    assert "res://level.kpg: not a graph the bake makes for this map" in loaded.warning
    assert "baked in memory" in loaded.warning
    assert loaded.graph == KeyPointGraph.bake(GRIDS["plain"], cluster_size=loaded.graph.cluster_size)
    assert load_graph("res://level.kpg", data, GRIDS["plain"], rebake=False).graph is None
