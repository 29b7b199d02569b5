"""The numpy line functions give exactly the answers of the cell-by-cell ones they replaced
(tests/support/reference_line.py): the same cells, the same clear / blocked verdicts, the same smoothed paths and
the same float lengths, on random maps, 8- and 4-connected, with and without terrain costs."""

import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from pathing_py import Grid, find_path
from pathing_py.line import (
    clear_cells,
    clear_lines,
    line_arrays,
    line_cells,
    line_of_sight,
    path_cost,
    prefix_costs,
    smooth_path,
)
from tests.support import reference_line as reference
from tests.support.reference import step_allowed
from tests.support.strategies import cells_of, connectivities, maps, walled_maps

points = st.tuples(st.integers(-30, 30), st.integers(-30, 30))
KING_STEPS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]


def near_map(passable: np.ndarray, margin: int = 2) -> st.SearchStrategy:
    """A cell of the map or up to ``margin`` cells off it."""
    height, width = passable.shape
    return st.tuples(st.integers(-margin, width - 1 + margin), st.integers(-margin, height - 1 + margin))


def terrain(shape) -> st.SearchStrategy:
    """Costs of any float from 1 to 10, so that the order of additions shows in the sums."""
    return arrays(np.float64, shape, elements=st.floats(1.0, 10.0), fill=st.nothing())


@st.composite
def walks(draw, passable: np.ndarray, connectivity: int, max_steps: int = 300):
    """A legal path that wanders (back and forth, in loops): a start cell, then every drawn step that is a move."""
    start = draw(cells_of(passable))
    path = [start]
    for dx, dy in draw(st.lists(st.sampled_from(KING_STEPS), max_size=max_steps)):
        nxt = (path[-1][0] + dx, path[-1][1] + dy)
        if step_allowed(passable, path[-1], nxt, connectivity):
            path.append(nxt)
    return path


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(points, points), min_size=1, max_size=6), connectivities())
@example([((0, 0), (0, 0))], 8)
@example([((0, 0), (1, 1)), ((3, 3), (3, 3))], 4)
def test_line_arrays_hold_the_reference_cells(pairs, connectivity):
    """Every row, cut at its line's length, is the reference line; the rest repeats its last cell."""
    xs, ys = line_arrays([a for a, _ in pairs], [b for _, b in pairs], connectivity)
    for (a, b), row_x, row_y in zip(pairs, xs.tolist(), ys.tolist()):
        expected = reference.line_cells(a, b, connectivity)
        row = list(zip(row_x, row_y))
        assert row[: len(expected)] == expected
        assert set(row[len(expected) :]) <= {expected[-1]}
        assert line_cells(a, b, connectivity) == expected


@settings(max_examples=300, deadline=None)
@given(maps(max_side=16, max_walls=0.5), connectivities(), st.data())
def test_line_of_sight_and_batches_agree_with_the_reference(passable, connectivity, data):
    """Ends off the map, lines of one cell, lines grazing corners: one verdict, whether tested alone or together."""
    grid = Grid(passable, connectivity=connectivity)
    pairs = data.draw(st.lists(st.tuples(near_map(passable), near_map(passable)), min_size=1, max_size=8))
    expected = [reference.line_of_sight(passable, a, b, connectivity) for a, b in pairs]
    assert [line_of_sight(grid, a, b) for a, b in pairs] == expected
    assert clear_lines(passable, [a for a, _ in pairs], [b for _, b in pairs], connectivity).tolist() == expected


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 99), st.integers(0, 79)), max_size=40), connectivities(), st.data())
def test_long_lines_of_sight_agree_with_the_reference(walls, connectivity, data):
    """Lines longer than the cells line_of_sight walks one by one (the rest it tests in one array), on a 100x80
    map with few walls: clear ones, and ones blocked early or late."""
    passable = np.ones((80, 100), dtype=bool)
    for x, y in walls:
        passable[y, x] = False
    grid = Grid(passable, connectivity=connectivity)
    pairs = data.draw(st.lists(st.tuples(near_map(passable), near_map(passable)), min_size=1, max_size=8))
    assert [line_of_sight(grid, a, b) for a, b in pairs] == [
        reference.line_of_sight(passable, a, b, connectivity) for a, b in pairs
    ]


def test_lines_touching_corners():
    """A line between two walls that meet at a corner is blocked; one that only passes a wall's corner is clear."""
    passable = Grid.from_ascii(
        """
.#...
#....
.....
"""
    ).passable
    for a, b in [
        ((0, 0), (1, 1)),
        ((1, 1), (0, 0)),
        ((0, 2), (2, 0)),
        ((1, 1), (4, 2)),
        ((2, 0), (0, 2)),
        ((1, 2), (3, 0)),
    ]:
        expected = reference.line_of_sight(passable, a, b)
        assert line_of_sight(Grid(passable), a, b) == expected
        assert clear_cells(passable, line_cells(a, b)) == expected
    assert not line_of_sight(Grid(passable), (0, 0), (1, 1))
    assert line_of_sight(Grid(passable), (1, 2), (3, 0))


@settings(max_examples=300, deadline=None)
@given(maps(max_side=16, max_walls=0.5), connectivities(), st.data())
def test_clear_cells_agrees_with_the_reference(passable, connectivity, data):
    """On any king path on the map (a wandering one, or an arbitrary run of neighbouring cells)."""
    path = data.draw(walks(passable, connectivity, max_steps=40))
    assert clear_cells(passable, path) == reference.clear_cells(passable, path)
    assert clear_cells(passable, np.array(path)) == reference.clear_cells(passable, path)
    height, width = passable.shape
    start = data.draw(cells_of(passable))
    steps = data.draw(st.lists(st.sampled_from(KING_STEPS), max_size=20))
    anyhow = [start]
    for dx, dy in steps:
        x, y = anyhow[-1][0] + dx, anyhow[-1][1] + dy
        if 0 <= x < width and 0 <= y < height:
            anyhow.append((x, y))
    assert clear_cells(passable, iter(anyhow)) == reference.clear_cells(passable, anyhow)


@settings(max_examples=400, deadline=None)
@given(
    st.one_of(maps(max_side=24, max_walls=0.4), walled_maps(max_side=32)),
    st.sampled_from(["none", "whole", "any"]), connectivities(), st.booleans(), st.data(),
)  # fmt: skip
def test_smoothing_agrees_with_the_reference(passable, weighting, connectivity, wander, data):
    """The same cells out, from optimal paths and from long wandering ones (whose bisections take several
    batches), on noise and on open ground with straight walls (long lines, bisections that decide)."""
    cost = (
        None
        if weighting == "none"
        else data.draw(
            terrain(passable.shape)
            if weighting == "any"
            else arrays(np.float64, passable.shape, elements=st.integers(1, 3).map(float))
        )
    )
    grid = Grid(passable, cost, connectivity=connectivity)
    if wander:
        path = data.draw(walks(passable, connectivity))
    else:
        found = find_path(grid, data.draw(cells_of(passable)), data.draw(cells_of(passable)))
        path = found.cells if found else []
    expected = reference.smooth_path(passable, path, cost, connectivity)
    assert smooth_path(grid, path) == expected
    assert smooth_path(grid, expected[::-1]) == reference.smooth_path(passable, expected[::-1], cost, connectivity)


@settings(max_examples=300, deadline=None)
@given(maps(max_side=16, max_walls=0.4), st.booleans(), connectivities(), st.data())
def test_path_lengths_agree_with_the_reference_to_the_last_bit(passable, weighted, connectivity, data):
    cost = data.draw(terrain(passable.shape)) if weighted else None
    grid = Grid(passable, cost, connectivity=connectivity)
    path = data.draw(walks(passable, connectivity, max_steps=60))
    assert prefix_costs(path, cost) == reference.prefix_costs(path, cost)
    assert path_cost(grid, path) == reference.path_cost(path, cost)
    assert math.isfinite(path_cost(grid, path))


def test_smoothing_agrees_with_the_reference_on_benchmark_maps(movingai_dir):
    """Graph paths before smoothing, long ones on real maps: the same cells out, forwards and backwards."""
    from pathing_py import KeyPointGraph
    from pathing_py.tools.movingai import read_scenarios

    for name in ("den520d", "AR0011SR"):
        grid = Grid.from_movingai(movingai_dir / f"{name}.map")
        graph = KeyPointGraph.bake(grid)
        for scenario in read_scenarios(movingai_dir / f"{name}.map.scen")[::97]:
            path = graph.find_path(scenario.start, scenario.goal, smooth=False, exact_first=0.0).cells
            for cells in (path, path[::-1]):
                assert smooth_path(grid, cells) == reference.smooth_path(grid.passable, cells), (name, scenario)


@pytest.mark.parametrize("connectivity", [8, 4])
def test_weighted_smoothing_of_long_paths_agrees_with_the_reference(connectivity):
    """Paths of a hundred steps and more over nearly even ground with swamps: long lines, tested and weighed
    together, some clear but dearer than the path."""
    rng = np.random.default_rng(7)
    passable = rng.random((160, 160)) > 0.01
    swamps = np.kron(rng.random((20, 20)) < 0.2, np.ones((8, 8))) * 2.0
    cost = 1.0 + swamps + rng.random((160, 160)) / 16
    grid = Grid(passable, cost, connectivity=connectivity)
    free = np.argwhere(passable)[:, ::-1]
    for start, goal in rng.choice(free, size=(8, 2)):
        found = find_path(grid, tuple(start.tolist()), tuple(goal.tolist()))
        for cells in (found.cells, found.cells[::-1]):
            assert smooth_path(grid, cells) == reference.smooth_path(passable, cells, cost, connectivity)
