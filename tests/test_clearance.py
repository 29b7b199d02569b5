"""Clearance for unit sizes (SPEC G4): the clearance map, sizes, the sized grids and their graphs.

Oracles come from the cells themselves (tests/support/reference.py: a block fits where
all its cells are free; a block steps under the corner rule lifted to blocks),
never from the package's clearance, so the equivalence "a size-k unit's world
is the grid of cells with clearance >= k" is tested, not assumed.
"""

import math
import random
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pathing_py.clearance as clearance_module
from pathing_py import Grid, KeyPointGraph, PathStatus, StaleGraphError, find_path
from pathing_py.clearance import MAX_SIZE, ClearanceMap, block_at, block_centre, size_class
from pathing_py.grid import step_allowed
from pathing_py.sized_grids import SizedGrids
from tests.support.reference import block_fits, block_step_allowed, dijkstra, path_cost
from tests.support.strategies import cells, connectivities, costs, edits, maps, walled_maps


def reference_clearance(passable: np.ndarray, max_size: int) -> np.ndarray:
    """The side of the largest free square at each top-left cell, capped, straight from the definition."""
    height, width = passable.shape
    sides = np.zeros(passable.shape, dtype=np.int64)
    for y in range(height):
        for x in range(width):
            while sides[y, x] < max_size and block_fits(passable, (x, y), int(sides[y, x]) + 1):
                sides[y, x] += 1
    return sides


def changed_cells(before: np.ndarray, after: np.ndarray) -> list:
    """The cells (x, y) where two clearance arrays differ, sorted by (y, x)."""
    return [[int(x), int(y)] for y, x in zip(*np.nonzero(before != after))]


# -- sizes and block positions -----------------------------------------------------------------


@given(st.floats(min_value=1e-6, max_value=MAX_SIZE / 2.0))
def test_size_class_is_the_smallest_block_holding_the_circle(radius):
    size = size_class(radius)
    assert 1 <= size <= MAX_SIZE
    assert size >= 2 * radius - clearance_module.RADIUS_TOLERANCE
    assert size == 1 or size - 1 < 2 * radius - clearance_module.RADIUS_TOLERANCE


def test_size_class_of_the_usual_radii():
    # A soldier (r <= 0.5) stays a one-cell unit, a tank of radius 1 takes two cells, a little more takes three.
    assert [size_class(r) for r in (0.02, 0.3, 0.5, 0.5 + 1e-12, 0.75, 1.0, 1.0 + 1e-6)] == [1, 1, 1, 1, 2, 2, 3]


@pytest.mark.parametrize(
    "radius, error, message",
    [
        (0, ValueError, "positive finite"),
        (-0.5, ValueError, "positive finite"),
        (math.nan, ValueError, "positive finite"),
        (math.inf, ValueError, "positive finite"),
        (MAX_SIZE / 2 + 0.1, ValueError, f"block of {MAX_SIZE + 1} cells, wider than the largest size measured"),
        (True, TypeError, "radius must be a number"),
        ("1", TypeError, "radius must be a number"),
        (None, TypeError, "radius must be a number"),
    ],
)
def test_bad_radii_are_refused(radius, error, message):
    with pytest.raises(error, match=message):
        size_class(radius)


def test_a_smaller_cap_refuses_smaller_units():
    assert size_class(1.5, max_size=3) == 3
    with pytest.raises(ValueError, match="block of 4 cells"):
        size_class(1.6, max_size=3)


@given(st.tuples(st.integers(-50, 50), st.integers(-50, 50)), st.integers(1, MAX_SIZE))
def test_block_centre_and_block_at_invert_each_other(cell, size):
    centre = block_centre(cell, size)
    assert block_at(centre, size) == cell
    # Any point within half a cell of the centre names the same block.
    assert block_at((centre[0] + 0.49, centre[1] - 0.49), size) == cell


@given(st.floats(-100, 100), st.floats(-100, 100))
def test_a_one_cell_block_is_the_cell_holding_the_point(x, y):
    assert block_at((x, y), 1) == (math.floor(x), math.floor(y))


@given(st.floats(min_value=1e-3, max_value=MAX_SIZE / 2.0))
def test_the_circle_lies_inside_its_block(radius):
    size = size_class(radius)
    cx, cy = block_centre((3, 7), size)
    assert 3 <= cx - radius + 1e-9 and cx + radius - 1e-9 <= 3 + size
    assert 7 <= cy - radius + 1e-9 and cy + radius - 1e-9 <= 7 + size


@pytest.mark.parametrize("centre", [(math.nan, 0.0), (0.0, math.inf)])
def test_block_at_refuses_points_that_are_not_finite(centre):
    with pytest.raises(ValueError, match="finite"):
        block_at(centre, 2)


@pytest.mark.parametrize("size", [0, -1, 1.5, True])
def test_block_conversions_refuse_bad_sizes(size):
    for convert in (lambda: block_at((1.0, 1.0), size), lambda: block_centre((1, 1), size)):
        with pytest.raises(ValueError, match="size must be a whole number of cells"):
            convert()


# -- the clearance map -------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(maps(max_walls=0.5), st.integers(1, 9))
def test_clearance_is_the_largest_free_square(passable, max_size):
    values = ClearanceMap(passable, max_size).values
    assert values.dtype == np.uint8 and values.shape == passable.shape
    assert np.array_equal(values, reference_clearance(passable, max_size))


@pytest.mark.parametrize("share", [0.0, math.inf], ids=["full pass", "tiles"])
@settings(max_examples=100, deadline=None)
@given(passable=maps(max_walls=0.5), max_size=st.integers(1, 5), data=st.data())
def test_updates_after_edits_equal_a_fresh_map(share, passable, max_size, data):
    clearance = ClearanceMap(passable, max_size)
    passable = passable.copy()
    with mock.patch.object(clearance_module, "FULL_PASS_SHARE", share):
        for batch, blocked in data.draw(edits(passable.shape[1], passable.shape[0])):
            before = clearance.values.copy()
            xs, ys = np.array(batch).T
            passable[ys, xs] = not blocked
            changed = clearance.update(passable, batch)
            fresh = ClearanceMap(passable, max_size).values
            assert np.array_equal(clearance.values, fresh)
            assert changed.tolist() == changed_cells(before, fresh)
    assert np.array_equal(clearance.values, reference_clearance(passable, max_size))


def test_a_batch_recomputes_the_tiles_of_its_cells_not_their_bounding_box():
    passable = np.ones((64, 64), dtype=bool)
    clearance = ClearanceMap(passable, 4)
    passable[[2, 61], [2, 61]] = False
    read = []
    squares = clearance_module.largest_squares

    def counting(windows, max_size):
        read.append(windows.size)
        return squares(windows, max_size)

    with mock.patch.object(clearance_module, "largest_squares", counting):
        clearance.update(passable, [(2, 2), (61, 61)])
    assert np.array_equal(clearance.values, reference_clearance(passable, 4))
    # Two opposite corners: a few tiles each, far less than the map their bounding box spans.
    assert read and sum(read) < passable.size / 8


def test_the_values_are_read_only():
    clearance = ClearanceMap(np.ones((3, 3), dtype=bool))
    with pytest.raises(ValueError):
        clearance.values[0, 0] = 1


@pytest.mark.parametrize(
    "passable, max_size, error, message",
    [
        (np.ones((3, 3), dtype=int), 8, TypeError, "bool array"),
        (np.ones(3, dtype=bool), 8, ValueError, "2-D"),
        (np.ones((0, 3), dtype=bool), 8, ValueError, "non-empty"),
        (np.ones((3, 3), dtype=bool), 0, ValueError, "max_size"),
        (np.ones((3, 3), dtype=bool), 256, ValueError, "max_size"),
        (np.ones((3, 3), dtype=bool), 2.0, ValueError, "max_size"),
    ],
)
def test_bad_clearance_maps_are_refused(passable, max_size, error, message):
    with pytest.raises(error, match=message):
        ClearanceMap(passable, max_size)


def test_bad_updates_are_refused():
    passable = np.ones((3, 4), dtype=bool)
    clearance = ClearanceMap(passable)
    with pytest.raises(ValueError, match=r"\(4, 0\) is outside the 4x3 map"):
        clearance.update(passable, [(4, 0)])
    with pytest.raises(ValueError, match="shape"):
        clearance.update(np.ones((4, 3), dtype=bool), [(0, 0)])


# -- sized grids: hand-drawn maps --------------------------------------------------------------

#: A wall with a one-cell gap and no other way across.
ONE_CELL_GAP = Grid.from_ascii(
    """
..........
..........
####.#####
..........
..........
"""
)

#: The same wall, open for two cells at its right end.
GAP_AND_OPENING = Grid.from_ascii(
    """
..........
..........
####.###..
..........
..........
"""
)


def test_a_one_cell_gap_lets_soldiers_through_and_sends_tanks_around():
    passable = GAP_AND_OPENING.passable
    sizes = SizedGrids(GAP_AND_OPENING)
    start, goal = (4, 0), (4, 3)
    soldier = find_path(sizes.grid(1), start, goal)
    assert (4, 2) in soldier.cells and soldier.cost == pytest.approx(dijkstra(passable, start, goal))
    tank = find_path(sizes.grid(2), start, goal)
    assert tank.cost == pytest.approx(dijkstra(passable, start, goal, size=2))
    assert path_cost(passable, tank.cells, size=2) == pytest.approx(tank.cost)
    assert tank.cost > soldier.cost and [x for x, y in tank.cells if y == 2] == [8]  # through the opening


def test_a_one_cell_gap_without_detour_leaves_tanks_without_a_path():
    sizes = SizedGrids(ONE_CELL_GAP)
    start, goal = (4, 0), (4, 3)
    assert find_path(sizes.grid(1), start, goal).status is PathStatus.FOUND
    assert find_path(sizes.grid(2), start, goal).status is PathStatus.UNREACHABLE
    assert dijkstra(ONE_CELL_GAP.passable, start, goal, size=2) is None


def test_a_block_may_not_cut_a_corner():
    grid = Grid.from_ascii(
        """
..#.
....
....
....
"""
    )
    sized = SizedGrids(grid).grid(2)
    start, goal = (0, 0), (1, 1)
    assert block_fits(grid.passable, goal, 2) and not block_fits(grid.passable, (1, 0), 2)
    assert not step_allowed(sized.passable, start, goal)
    path = find_path(sized, start, goal)
    assert path.cost == pytest.approx(dijkstra(grid.passable, start, goal, size=2))
    assert path.cost > math.sqrt(2.0)  # the diagonal step would have cut the wall's corner
    assert path_cost(grid.passable, path.cells, size=2) == pytest.approx(path.cost)


# -- sized grids: properties -------------------------------------------------------------------


@settings(max_examples=120, deadline=None)
@given(maps(min_side=2, max_walls=0.4), st.integers(2, 4), st.data())
def test_a_sized_grid_allows_exactly_the_block_moves(passable, size, data):
    grid = Grid(passable)
    sized = SizedGrids(grid).grid(size)
    height, width = passable.shape
    for a in data.draw(st.lists(cells(width, height), min_size=1, max_size=10)):
        assert sized.is_passable(a) == block_fits(passable, a, size)
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                b = (a[0] + dx, a[1] + dy)
                if b != a and block_fits(passable, a, size):
                    assert step_allowed(sized.passable, a, b) == block_step_allowed(passable, a, b, size), (a, b)


@settings(max_examples=80, deadline=None)
@given(walled_maps(max_side=14), st.integers(2, 3), st.booleans(), connectivities(), st.data())
def test_sized_searches_find_the_optimal_block_paths(passable, size, weighted, connectivity, data):
    cost = data.draw(costs(passable.shape, highest=3)) if weighted else None
    grid = Grid(passable, cost, connectivity=connectivity)
    sized = SizedGrids(grid).grid(size)
    assert sized.connectivity == connectivity
    height, width = passable.shape
    for start, goal in data.draw(
        st.lists(st.tuples(cells(width, height), cells(width, height)), min_size=1, max_size=4)
    ):
        found = find_path(sized, start, goal)
        optimum = dijkstra(passable, start, goal, cost, size, connectivity)
        assert bool(found) == (optimum is not None), (start, goal)
        if found:
            assert found.cost == pytest.approx(optimum)
            assert path_cost(passable, found.cells, cost, size, connectivity) == pytest.approx(found.cost)


@settings(max_examples=60, deadline=None)
@given(maps(min_side=2, max_walls=0.4), st.booleans(), st.data())
def test_sized_grids_follow_edits_as_fresh_ones_would(passable, weighted, data):
    cost = data.draw(costs(passable.shape, highest=3)) if weighted else None
    grid = Grid(passable, cost)
    sizes = SizedGrids(grid, max_size=4)
    for size in (2, 3):
        sizes.grid(size).prepare_islands()
    for batch, blocked in data.draw(edits(grid.width, grid.height)):
        grid.set_blocked(batch, blocked)
        sizes.cells_changed(batch)
    fresh = SizedGrids(Grid(grid.passable, cost), max_size=4)
    for size in (2, 3, 4):  # 4 is built only now, after the edits
        edited, expected = sizes.grid(size), fresh.grid(size)
        assert np.array_equal(edited.passable, expected.passable)
        assert (edited.cost is None) == (expected.cost is None)
        if cost is not None:
            assert np.array_equal(edited.cost, expected.cost)
        # Island numbers may differ after edits; the partition they make may not.
        labels = np.stack([edited.islands.ravel(), expected.islands.ravel()])
        assert len(np.unique(labels, axis=1)[0]) == len(np.unique(edited.islands)) == len(np.unique(expected.islands))


@settings(max_examples=60, deadline=None)
@given(maps(min_side=2, max_walls=0.4), st.integers(2, 3))
def test_a_block_enters_at_the_cost_of_its_dearest_cell(passable, size):
    cost = np.arange(passable.size, dtype=np.float64).reshape(passable.shape) % 5 + 1
    sized = SizedGrids(Grid(passable, cost)).grid(size)
    height, width = passable.shape
    for y, x in zip(*np.nonzero(sized.passable)):
        assert sized.cost[y, x] == cost[y : y + size, x : x + size].max()
    assert sized.cost.shape == (height, width)


# -- graphs per size ---------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(walled_maps(min_side=4, max_side=16), st.integers(2, 3), st.integers(3, 6), st.data())
def test_the_graph_of_a_size_answers_paths_the_block_can_follow(passable, size, cluster_size, data):
    grid = Grid(passable)
    sizes = SizedGrids(grid, graph=KeyPointGraph.bake(grid, cluster_size=cluster_size))
    graph = sizes.graph(size)
    assert graph.grid is sizes.grid(size) and graph.cluster_size == cluster_size
    height, width = passable.shape
    for start, goal in data.draw(
        st.lists(st.tuples(cells(width, height), cells(width, height)), min_size=1, max_size=4)
    ):
        result = graph.find_path(start, goal, exact_first=0.0)  # through the key points
        optimum = dijkstra(passable, start, goal, size=size)
        assert bool(result) == (optimum is not None), (start, goal)
        if result:
            assert result.cells[0] == start and result.cells[-1] == goal
            assert path_cost(passable, result.cells, size=size) == pytest.approx(result.cost)
            assert result.cost >= optimum - 1e-9


@pytest.mark.parametrize("name", ["den520d", "AR0011SR"])
def test_graphs_per_size_on_movingai_maps(movingai_dir, name):
    grid = Grid.from_movingai(movingai_dir / f"{name}.map")
    sizes = SizedGrids(grid, graph=KeyPointGraph.bake(grid))
    rng = random.Random(name)
    for size in (2, 3):
        sized, graph = sizes.grid(size), sizes.graph(size)
        free = np.argwhere(sized.passable)[:, ::-1]
        pairs = [
            (tuple(map(int, free[rng.randrange(len(free))])), tuple(map(int, free[rng.randrange(len(free))])))
            for _ in range(12)
        ]
        for start, goal in pairs:
            result, exact = graph.find_path(start, goal), find_path(sized, start, goal)
            assert result.status is exact.status
            if result:
                assert path_cost(grid.passable, result.cells, size=size) == pytest.approx(result.cost)
                assert exact.cost - 1e-9 <= result.cost <= 1.1 * exact.cost


@settings(max_examples=40, deadline=None)
@given(walled_maps(min_side=4, max_side=14), st.integers(3, 5), st.data())
def test_graphs_per_size_follow_edits_as_a_fresh_bake(passable, cluster_size, data):
    grid = Grid(passable)
    sizes = SizedGrids(grid, graph=KeyPointGraph.bake(grid, cluster_size=cluster_size))
    for size in (2, 3):
        sizes.graph(size)
    for batch, blocked in data.draw(edits(grid.width, grid.height)):
        grid.set_blocked(batch, blocked)
        sizes.cells_changed(batch)
    for size in (2, 3):
        assert sizes.graph(size) == KeyPointGraph.bake(sizes.grid(size), cluster_size=cluster_size, unit_size=size)


def test_opening_and_closing_a_gap_reaches_sized_searches_and_graphs():
    grid = Grid(ONE_CELL_GAP.passable)
    sizes = SizedGrids(grid, graph=KeyPointGraph.bake(grid, cluster_size=4))
    start, goal = (4, 0), (4, 3)
    sized, graph = sizes.grid(2), sizes.graph(2)
    assert not find_path(sized, start, goal) and not graph.find_path(start, goal)
    for blocked in (False, True):  # the gap widens to two cells, then narrows again
        grid.set_blocked([(5, 2)], blocked=blocked)
        sizes.cells_changed([(5, 2)])
        assert sizes.grid(2) is sized and sizes.graph(2) is graph  # edited in place
        search, answer = find_path(sized, start, goal), graph.find_path(start, goal)
        assert bool(search) == bool(answer) == (not blocked)
        if answer:
            assert path_cost(grid.passable, answer.cells, size=2) == pytest.approx(answer.cost)
            assert answer.cost == pytest.approx(dijkstra(grid.passable, start, goal, size=2))


# -- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "size, error, message",
    [
        (0, ValueError, r"size must be in 1\.\.8"),
        (-1, ValueError, r"size must be in 1\.\.8"),
        (9, ValueError, r"size must be in 1\.\.8"),
        (2.0, TypeError, "size must be an int"),
        (True, TypeError, "size must be an int"),
        (math.nan, TypeError, "size must be an int"),
    ],
)
def test_bad_sizes_are_refused(size, error, message):
    sizes = SizedGrids(ONE_CELL_GAP, graph=KeyPointGraph.bake(ONE_CELL_GAP, cluster_size=4))
    for hand_out in (sizes.grid, sizes.graph):
        with pytest.raises(error, match=message):
            hand_out(size)


def test_sizes_of_the_base_are_the_base_grid_and_graph():
    graph = KeyPointGraph.bake(ONE_CELL_GAP, cluster_size=4)
    sizes = SizedGrids(ONE_CELL_GAP, graph=graph)
    assert sizes.grid(1) is ONE_CELL_GAP and sizes.graph(1) is graph
    assert sizes.grid(np.int64(2)) is sizes.grid(2)


def test_a_graph_needs_the_base_graph():
    with pytest.raises(ValueError, match="no key-point graph was given"):
        SizedGrids(ONE_CELL_GAP).graph(2)


def test_the_base_graph_must_be_of_the_base_grid():
    other = Grid(ONE_CELL_GAP.passable)
    with pytest.raises(ValueError, match="another grid"):
        SizedGrids(other, graph=KeyPointGraph.bake(ONE_CELL_GAP, cluster_size=4))
    with pytest.raises(TypeError, match="grid must be a Grid"):
        SizedGrids(ONE_CELL_GAP.passable)
    with pytest.raises(TypeError, match="graph must be a KeyPointGraph"):
        SizedGrids(ONE_CELL_GAP, graph=ONE_CELL_GAP)


def test_edits_not_told_are_detected():
    grid = Grid(ONE_CELL_GAP.passable)
    sizes = SizedGrids(grid)
    sizes.grid(2)
    grid.set_blocked([(0, 0)])
    with pytest.raises(StaleGraphError, match=r"call cells_changed\(changed_cells\)"):
        sizes.grid(2)
    sizes.cells_changed([(0, 0)])
    assert not sizes.grid(2).is_passable((0, 0))


def test_edited_cells_off_the_map_are_refused():
    sizes = SizedGrids(Grid(ONE_CELL_GAP.passable))
    with pytest.raises(ValueError, match=r"\(10, 0\) is outside"):
        sizes.cells_changed([(10, 0)])
