"""The key-point graph of half-offset (hexagonal) maps against the exact six-neighbour search."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pathing_py import GraphFileError, Grid, KeyPointGraph, StaleGraphError
from pathing_py.cell_layout import CellLayout
from pathing_py.hex_grid import HexSteps, find_hex_path
from pathing_py.hex_lines import hex_path_cost
from pathing_py.hierarchy import HexKeyPointGraph
from pathing_py.hierarchy.hex_entrances import HexClusters
from pathing_py.hierarchy.partition import Clusters
from pathing_py.tools.movingai import read_scenarios
from tests.support.graph_file import MAP, join, split
from tests.support.hex_grid import layouts, origins
from tests.support.search import sample_scenarios
from tests.support.strategies import cells, edits, maps

LAYOUT = CellLayout(x_axis=(64.0, 0.0), y_axis=(0.0, 48.0), offset_axis=0, shift=0.5)


def check_against_exact(graph, start, goal, link="exact", exact_first=0.0):
    """The graph finds a path exactly when the exact hex search does; its path takes six-neighbour steps between
    free cells, costs what it says and no less than the shortest."""
    result = graph.find_path(start, goal, link=link, exact_first=exact_first)
    exact = find_hex_path(graph.grid, graph.hexes.layout, start, goal)
    assert result.status is exact.status, (start, goal, link)
    if result:
        assert result.cells[0] == start and result.cells[-1] == goal
        assert all(graph.grid.is_passable(cell) for cell in result.cells)
        assert result.cost == pytest.approx(hex_path_cost(graph.hexes, result.cells))  # ValueError if not a hex path
        assert result.cost >= exact.cost - 1e-9
        assert result.route[0] == start and result.route[-1] == goal
    return result, exact


@st.composite
def hex_maps(draw):
    """A grid of at least 2x2 with a free cell, at a drawn origin (which lines are odd), and a half-offset layout:
    rows or columns moved, either way."""
    passable = draw(maps(min_side=2, max_walls=0.35))
    passable[0, 0] = True
    return Grid(passable, origin=draw(origins)), draw(layouts())


@settings(max_examples=120, deadline=None)
@given(hex_maps(), st.integers(2, 7), st.data())
def test_found_iff_reachable_on_random_hex_maps(hex_map, cluster_size, data):
    grid, layout = hex_map
    graph = HexKeyPointGraph.bake(grid, layout, cluster_size=cluster_size)
    cell = cells(grid.width, grid.height)
    for start, goal in data.draw(st.lists(st.tuples(cell, cell), min_size=1, max_size=8)):
        for link in ("exact", "fast"):
            check_against_exact(graph, start, goal, link)
        check_against_exact(graph, start, goal, exact_first=20.0)  # the exact search first, then the key points


@settings(max_examples=60, deadline=None)
@given(hex_maps(), st.integers(2, 7), st.data())
def test_hex_update_after_edits_equals_a_fresh_bake(hex_map, cluster_size, data):
    grid, layout = hex_map
    graph = HexKeyPointGraph.bake(grid, layout, cluster_size=cluster_size)
    for batch, blocked in data.draw(edits(grid.width, grid.height, max_edits=6)):
        grid.set_blocked(batch, blocked)
        graph.update(batch)
        assert graph == HexKeyPointGraph.bake(grid, layout, cluster_size=cluster_size)  # landmarks included
        start, goal = data.draw(st.tuples(cells(grid.width, grid.height), cells(grid.width, grid.height)))
        check_against_exact(graph, start, goal)


@settings(max_examples=40, deadline=None)
@given(hex_maps(), st.integers(2, 7), st.data())
def test_a_saved_hex_graph_loads_equal_and_answers_the_same(hex_map, cluster_size, data):
    grid, layout = hex_map
    graph = HexKeyPointGraph.bake(grid, layout, cluster_size=cluster_size)
    loaded = HexKeyPointGraph.from_bytes(graph.to_bytes(), grid, layout)
    assert loaded == graph
    cell = cells(grid.width, grid.height)
    for start, goal in data.draw(st.lists(st.tuples(cell, cell), min_size=1, max_size=4)):
        ours, theirs = graph.find_path(start, goal), loaded.find_path(start, goal)
        assert (ours.status, ours.cells, ours.cost, ours.route) == (
            theirs.status,
            theirs.cells,
            theirs.cost,
            theirs.route,
        )


@pytest.mark.parametrize("offset_axis, shift", [(0, 0.5), (1, -0.5)])
def test_hex_paths_on_a_benchmark_map_are_within_the_quality_bound(movingai_dir, offset_axis, shift):
    """The square maps' bound (exact links: mean within 1%, none beyond 5% of the shortest), on a Moving AI map
    read as hex cells, rows or columns moved, against the exact six-neighbour search."""
    grid = Grid.from_movingai(movingai_dir / "random512-10-0.map")
    layout = CellLayout(x_axis=(64.0, 0.0), y_axis=(0.0, 48.0), offset_axis=offset_axis, shift=shift)
    graph = HexKeyPointGraph.bake(grid, layout)
    scenarios = sample_scenarios(grid, read_scenarios(movingai_dir / "random512-10-0.map.scen"), count=8)
    ratios = [
        result.cost / exact.cost
        for result, exact in (check_against_exact(graph, s.start, s.goal) for s in scenarios)
        if exact.cost > 0
    ]
    assert np.mean(ratios) <= 1.01 and max(ratios) <= 1.05, ratios


def test_hex_clusters_meet_diagonally_too():
    """A hex cell at a cluster's corner touches the cluster diagonally across: those are borders as well."""
    square, hexes = Clusters(6, 6, 3), HexClusters(6, 6, 3)
    assert sorted(square.borders()) == [(0, 1), (0, 2), (1, 3), (2, 3)]
    assert sorted(hexes.borders()) == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    assert hexes.borders_of(0) == [(0, 1), (0, 2), (0, 3)] and hexes.borders_of(1) == [(0, 1), (1, 2), (1, 3)]


CORNER_MAP = ["...###", "##.###", "...###", "###...", "###.##", "###..."]


@pytest.mark.parametrize("mirrored", [False, True])
def test_a_corner_step_joins_diagonal_clusters(mirrored):
    """Clusters that touch only at a corner connect through the step between their corner cells: row 2 ahead of
    rows 1 and 3 (TileMap row 3, moved by +0.5) steps from (2, 2) to (3, 3), behind them (TileMap row 2) from
    (3, 2) to (2, 3) on the map mirrored."""
    rows = [row[::-1] for row in CORNER_MAP] if mirrored else CORNER_MAP
    grid = Grid(Grid.from_ascii("\n".join(rows)).passable, origin=(0, 0) if mirrored else (0, 1))
    graph = HexKeyPointGraph.bake(grid, CellLayout(offset_axis=0, shift=0.5), cluster_size=3)
    start, goal = ((5, 0), (0, 5)) if mirrored else ((0, 0), (5, 5))
    result, _ = check_against_exact(graph, start, goal)
    corner = ((3, 2), (2, 3)) if mirrored else ((2, 2), (3, 3))
    assert result and corner in zip(result.cells, result.cells[1:])


def test_a_square_graph_file_is_refused_for_a_hex_map_and_the_reverse():
    grid = Grid(np.ones((12, 12), bool))
    square = KeyPointGraph.bake(grid, cluster_size=4)
    hexes = HexKeyPointGraph.bake(grid, LAYOUT, cluster_size=4)
    with pytest.raises(StaleGraphError, match="baked for a square map, the grid is read as a half-offset"):
        HexKeyPointGraph.from_bytes(square.to_bytes(), grid, LAYOUT)
    with pytest.raises(StaleGraphError, match="baked for a half-offset .* the grid is read as a square map"):
        KeyPointGraph.from_bytes(hexes.to_bytes(), grid)
    other = CellLayout(x_axis=(64.0, 0.0), y_axis=(0.0, 48.0), offset_axis=0, shift=-0.5)  # other lines ahead
    with pytest.raises(StaleGraphError, match="baked for a half-offset"):
        HexKeyPointGraph.from_bytes(hexes.to_bytes(), grid, other)
    assert HexKeyPointGraph.from_bytes(hexes.to_bytes(), grid, LAYOUT) == hexes


def test_a_hex_graph_file_round_trips_through_a_file(tmp_path):
    grid = Grid.from_ascii("....#...\n.##.#.#.\n......#.\n.#.##...\n")
    graph = HexKeyPointGraph.bake(grid, LAYOUT, cluster_size=3)
    graph.save(tmp_path / "hex.kpg")
    assert HexKeyPointGraph.load(tmp_path / "hex.kpg", grid, LAYOUT) == graph
    assert (tmp_path / "hex.kpg").read_bytes() == graph.to_bytes()  # the same graph, the same bytes


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda header, arrays: arrays["entrances"].__setitem__((0, 1), arrays["entrances"][0, 1] + 1), "entrances"),
        (lambda header, arrays: arrays.__setitem__("costs", arrays["costs"][:-1]), "costs"),
        (lambda header, arrays: header["map"].__setitem__("shift", -0.5), "baked for a half-offset"),
    ],
    ids=["a moved key point", "a cost missing", "another layout"],
)
def test_an_edited_hex_graph_file_is_refused(edit, message):
    """A file with a right checksum but not what the bake makes for this hex map (key points, sizes of its
    fields, layout) is refused."""
    grid = Grid.from_ascii(MAP)
    header, arrays = split(HexKeyPointGraph.bake(grid, LAYOUT, cluster_size=3).to_bytes())
    arrays = {name: array.copy() for name, array in arrays.items()}
    edit(header, arrays)
    with pytest.raises(GraphFileError, match=message):
        HexKeyPointGraph.from_bytes(join(header, arrays), grid, LAYOUT)


def test_a_hex_graph_refuses_bad_arguments():
    grid = Grid(np.ones((4, 4), bool))
    with pytest.raises(ValueError, match="layout must have a half offset"):
        HexKeyPointGraph.bake(grid, CellLayout())
    with pytest.raises(TypeError, match="layout must be a CellLayout"):
        HexKeyPointGraph.bake(grid, "hex")
    with pytest.raises(ValueError, match="grid has terrain costs"):
        HexKeyPointGraph.bake(Grid(np.ones((4, 4), bool), np.ones((4, 4))), LAYOUT)
    with pytest.raises(ValueError, match="cluster_size must be an int >= 2"):
        HexKeyPointGraph.bake(grid, LAYOUT, cluster_size=1)
    graph = HexKeyPointGraph.bake(grid, LAYOUT)
    with pytest.raises(ValueError, match="link must be one of"):
        graph.find_path((0, 0), (3, 3), link="slow")


def test_a_hex_graph_out_of_step_with_its_grid_is_refused():
    """An edit not passed to update() is refused (StaleGraphError), never answered from the old map."""
    grid = Grid(np.ones((6, 6), bool))
    graph = HexKeyPointGraph.bake(grid, LAYOUT, cluster_size=3)
    grid.set_blocked([(2, 2)], True)
    with pytest.raises(StaleGraphError, match="call graph.update"):
        graph.find_path((0, 0), (5, 5))
    graph.update([(2, 2)])
    assert graph.find_path((0, 0), (5, 5)).cost == pytest.approx(find_hex_path(grid, LAYOUT, (0, 0), (5, 5)).cost)


def test_hex_steps_are_those_of_the_search():
    """The graph prices the steps as find_hex_path does (a spot check of the layout's costs)."""
    grid = Grid(np.ones((5, 5), bool), origin=(1, 0))
    graph = HexKeyPointGraph.bake(grid, LAYOUT, cluster_size=2)
    assert graph.hexes.steps((0, 0)) == HexSteps(LAYOUT, (1, 0)).steps((0, 0))
