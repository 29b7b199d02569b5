import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pathing_py import Grid, find_path, line_cells, line_of_sight, octile_distance, smooth_path
from tests.support.reference import path_cost
from tests.support.strategies import cells_of, connectivities, costs, maps

points = st.tuples(st.integers(-20, 20), st.integers(-20, 20))


@given(points, points)
def test_line_is_a_king_path_of_octile_length(a, b):
    cells = line_cells(a, b)
    assert cells[0] == a and cells[-1] == b
    assert line_cells(b, a) == cells[::-1]
    steps = list(zip(cells, cells[1:]))
    assert all(max(abs(q[0] - p[0]), abs(q[1] - p[1])) == 1 for p, q in steps)
    diagonal = sum(1 for p, q in steps if p[0] != q[0] and p[1] != q[1])
    length = len(steps) - diagonal + diagonal * math.sqrt(2)
    assert length == pytest.approx(octile_distance(a, b))


@given(points, points)
def test_rook_line_is_a_rook_path_of_manhattan_length(a, b):
    cells = line_cells(a, b, connectivity=4)
    assert cells[0] == a and cells[-1] == b
    assert line_cells(b, a, connectivity=4) == cells[::-1]
    assert all(abs(q[0] - p[0]) + abs(q[1] - p[1]) == 1 for p, q in zip(cells, cells[1:]))
    assert len(cells) - 1 == abs(b[0] - a[0]) + abs(b[1] - a[1])


def test_rook_line_follows_the_segment():
    """Each cell is one the segment between the centres enters; through a corner, the column goes first."""
    assert line_cells((0, 0), (4, 2), connectivity=4) == [(0, 0), (1, 0), (1, 1), (2, 1), (3, 1), (3, 2), (4, 2)]
    assert line_cells((0, 0), (2, 2), connectivity=4) == [(0, 0), (1, 0), (1, 1), (2, 1), (2, 2)]
    assert line_cells((0, 0), (0, -3), connectivity=4) == [(0, 0), (0, -1), (0, -2), (0, -3)]


def touched_cells(a, b, samples=4000, eps=1e-7):
    """Cells the segment between the two centres passes through or touches."""
    (ax, ay), (bx, by) = (a[0] + 0.5, a[1] + 0.5), (b[0] + 0.5, b[1] + 0.5)
    cells = set()
    for t in np.linspace(0.0, 1.0, samples):
        x, y = ax + t * (bx - ax), ay + t * (by - ay)
        for ox in (-eps, eps):
            for oy in (-eps, eps):
                cells.add((math.floor(x + ox), math.floor(y + oy)))
    return cells


@settings(max_examples=200, deadline=None)
@given(maps(max_side=16, max_walls=0.4), st.data())
def test_clear_line_means_the_segment_touches_only_free_cells(passable, data):
    grid = Grid(passable)
    a, b = data.draw(cells_of(passable)), data.draw(cells_of(passable))
    if line_of_sight(grid, a, b):
        assert all(grid.is_passable(c) for c in touched_cells(a, b))
        path_cost(passable, line_cells(a, b))  # also a legal king path


def test_corner_rule():
    grid = Grid.from_ascii(
        """
.#
..
"""
    )
    assert not line_of_sight(grid, (0, 0), (1, 1))
    assert line_of_sight(grid, (0, 0), (0, 1))
    assert not line_of_sight(grid, (0, 0), (2, 2))  # off the grid


@settings(max_examples=200, deadline=None)
@given(maps(max_walls=0.4), st.booleans(), connectivities(), st.data())
def test_smoothing_is_valid_and_never_longer(passable, weighted, connectivity, data):
    """Valid on the grid: on a 4-connected one, every step of the smoothed path is a straight step."""
    cost = data.draw(costs(passable.shape, highest=3)) if weighted else None
    grid = Grid(passable, cost, connectivity=connectivity)
    result = find_path(grid, data.draw(cells_of(passable)), data.draw(cells_of(passable)))
    if not result:
        return
    smoothed = smooth_path(grid, result.cells)
    assert smoothed[0] == result.cells[0] and smoothed[-1] == result.cells[-1]
    assert path_cost(passable, smoothed, cost, connectivity=connectivity) <= result.cost + 1e-9


def test_smoothing_straightens_a_staircase():
    grid = Grid(np.ones((5, 12), dtype=bool))
    staircase = [(x, 0) for x in range(8)] + [(8, 1), (9, 2), (10, 3), (11, 4)]
    smoothed = smooth_path(grid, staircase)
    assert smoothed == line_cells((0, 0), (11, 4))
    assert path_cost(grid.passable, smoothed) == pytest.approx(path_cost(grid.passable, staircase))


def test_rook_smoothing_straightens_a_detour_without_diagonals():
    grid = Grid(np.ones((4, 8), dtype=bool), connectivity=4)
    detour = [(0, 0), (0, 1), (0, 2), (0, 3), *((x, 3) for x in range(1, 8))]
    smoothed = smooth_path(grid, detour)
    assert smoothed == line_cells((0, 0), (7, 3), connectivity=4)
    assert path_cost(grid.passable, smoothed, connectivity=4) == len(detour) - 1


def test_smoothing_on_a_benchmark_map(movingai_dir):
    grid = Grid.from_movingai(movingai_dir / "den520d.map")
    result = find_path(grid, (10, 139), (200, 60))
    smoothed = smooth_path(grid, result.cells)
    assert path_cost(grid.passable, smoothed) <= result.cost + 1e-9
