"""Lines on half-offset (hexagonal) maps: the cells a segment touches against a brute-force clip of every cell's
own outline in exact fractions, line of sight, line paths and smoothing (legal, never longer, straight when clear)."""

from fractions import Fraction
from typing import List, Set, Tuple

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pathing_py import Grid
from pathing_py.cell_layout import CellLayout
from pathing_py.godot.bridge import TileInfo, TileMapNavigator
from pathing_py.godot.tile_geometry import HALF_OFFSET_Y, TileGeometry
from pathing_py.hex_grid import HexSteps, find_hex_path
from pathing_py.hex_lines import hex_line_cells, hex_line_of_sight, hex_line_touches, hex_path_cost, smooth_hex_path
from tests.support.hex_grid import layouts, moved, origins, touching
from tests.support.strategies import cells_of, maps

Cell = Tuple[int, int]


# -- the yardstick: each cell's own rectangle (in cells, before the layout's axes) clipped by the segment -------


def corner(layout: CellLayout, origin: Cell, cell: Cell) -> Tuple[Fraction, Fraction]:
    """A grid cell's corner in TileMap cells, its half offset included, as exact fractions."""
    tile = (cell[0] + origin[0], cell[1] + origin[1])
    shift = moved(layout, tile)
    return Fraction(tile[0]) + Fraction(shift[0]), Fraction(tile[1]) + Fraction(shift[1])


def segment_meets_cell(p: Tuple[Fraction, Fraction], q: Tuple[Fraction, Fraction], low, high) -> bool:
    """Whether the closed segment p-q meets the closed box [low, high] (Liang-Barsky, exact)."""
    start, end = Fraction(0), Fraction(1)
    for axis in (0, 1):
        d = q[axis] - p[axis]
        if d == 0:
            if not low[axis] <= p[axis] <= high[axis]:
                return False
            continue
        t0, t1 = (low[axis] - p[axis]) / d, (high[axis] - p[axis]) / d
        start, end = max(start, min(t0, t1)), min(end, max(t0, t1))
    return start <= end


def touched_by_brute_force(layout: CellLayout, origin: Cell, a: Cell, b: Cell) -> Set[Cell]:
    half = Fraction(1, 2)
    p = tuple(value + half for value in corner(layout, origin, a))
    q = tuple(value + half for value in corner(layout, origin, b))
    found = set()
    for y in range(min(a[1], b[1]) - 2, max(a[1], b[1]) + 3):
        for x in range(min(a[0], b[0]) - 2, max(a[0], b[0]) + 3):
            low = corner(layout, origin, (x, y))
            if segment_meets_cell(p, q, low, (low[0] + 1, low[1] + 1)):
                found.add((x, y))
    return found


pairs = st.tuples(st.integers(-8, 8), st.integers(-8, 8))


@settings(max_examples=400, deadline=None)
@given(layouts(), origins, pairs, pairs)
def test_a_line_touches_exactly_the_cells_whose_outlines_the_segment_meets(layout, origin, a, b):
    steps = HexSteps(layout, origin)
    by_line = hex_line_touches(steps, a, b)
    touched = [cell for line in by_line for cell in line]
    assert len(touched) == len(set(touched))
    assert set(touched) == touched_by_brute_force(layout, origin, a, b)
    assert touched[0] == a and touched[-1] == b
    # a line's cells: a six-neighbour path through touched cells, no cell whose two neighbours on it touch
    path = hex_line_cells(steps, a, b)
    assert path[0] == a and path[-1] == b and set(path) <= set(touched)
    assert all(touching(layout, origin, p, q) for p, q in zip(path, path[1:]))
    assert not any(touching(layout, origin, p, r) for p, r in zip(path, path[2:]))


def test_lines_straight_across_the_rows_run_along_the_edges_of_the_moved_rows_and_touch_both_sides():
    steps = HexSteps(CellLayout(offset_axis=0, shift=0.5))
    assert hex_line_touches(steps, (2, 0), (2, 2)) == [[(2, 0)], [(1, 1), (2, 1)], [(2, 2)]]
    assert hex_line_cells(steps, (2, 0), (2, 2)) == [(2, 0), (2, 1), (2, 2)]  # one of the two sides
    grid = Grid.from_ascii("....\n..#.\n....")  # grid cell (2, 1) blocked: the segment grazes it
    assert not hex_line_of_sight(grid, steps, (2, 0), (2, 2))
    assert hex_line_of_sight(grid, steps, (1, 0), (1, 2))  # runs between (0, 1) and (1, 1)


@settings(max_examples=200, deadline=None)
@given(st.data(), maps(max_side=12), layouts(), origins)
def test_line_of_sight_is_every_touched_cell_free(data, passable, layout, origin):
    grid = Grid(passable, origin=origin)
    a, b = data.draw(cells_of(passable)), data.draw(cells_of(passable))
    height, width = passable.shape
    touched = touched_by_brute_force(layout, origin, a, b)
    expected = all(0 <= x < width and 0 <= y < height and passable[y, x] for x, y in touched)
    assert hex_line_of_sight(grid, HexSteps(layout, origin), a, b) == expected


def test_line_of_sight_off_the_grid_is_false():
    grid = Grid.from_ascii("...\n...")
    steps = HexSteps(CellLayout(offset_axis=1, shift=-0.5))
    assert not hex_line_of_sight(grid, steps, (0, 0), (5, 1))
    assert not hex_line_of_sight(grid, steps, (-1, 0), (2, 1))


# -- smoothing ------------------------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(st.data(), maps(max_side=14), layouts(), origins)
def test_smoothed_paths_are_legal_and_never_longer(data, passable, layout, origin):
    grid = Grid(passable, origin=origin)
    steps = HexSteps(layout, origin)
    start, goal = data.draw(cells_of(passable)), data.draw(cells_of(passable))
    result = find_hex_path(grid, layout, start, goal)
    if not result:
        return
    smoothed = smooth_hex_path(grid, steps, result.cells)
    assert smoothed[0] == start and smoothed[-1] == goal
    assert all(passable[y, x] for x, y in smoothed)
    assert all(touching(layout, origin, p, q) for p, q in zip(smoothed, smoothed[1:]))
    assert hex_path_cost(steps, smoothed) <= result.cost + 1e-9
    # the search is exact, so a legal path no longer than its answer is exactly as long
    assert hex_path_cost(steps, smoothed) == pytest.approx(result.cost)


DEMO_LAYOUT = CellLayout(x_axis=(82.0, 0.0), y_axis=(0.0, 94.0), offset_axis=1, shift=0.5)


def zigzag(steps: HexSteps, start: Cell, goal: Cell) -> List[Cell]:
    """A shortest path on an open map that walks straight across the lines first, then along them: no line."""
    path = [start]
    while steps.doubled(path[-1])[1] != steps.doubled(goal)[1]:
        options = [(path[-1][0] + dx, path[-1][1] + dy) for dx, dy, _ in steps.steps(path[-1])]
        path.append(min(options, key=lambda cell: (steps.estimate(cell, goal), cell)))
    while path[-1] != goal:
        options = [(path[-1][0] + dx, path[-1][1] + dy) for dx, dy, _ in steps.steps(path[-1])]
        path.append(min(options, key=lambda cell: steps.estimate(cell, goal)))
    return path


def test_a_path_on_open_ground_is_pulled_onto_the_line():
    grid = Grid(np.ones((12, 16), dtype=bool))
    steps = HexSteps(DEMO_LAYOUT)
    path = zigzag(steps, (0, 0), (11, 7))
    smoothed = smooth_hex_path(grid, steps, path)
    assert smoothed == hex_line_cells(steps, (0, 0), (11, 7)) != path
    assert hex_path_cost(steps, smoothed) == pytest.approx(hex_path_cost(steps, path))


def test_smoothing_keeps_a_path_round_a_wall():
    grid = Grid.from_ascii("......\n......\n..##..\n......\n......")
    steps = HexSteps(CellLayout(offset_axis=0, shift=0.5))
    path = find_hex_path(grid, steps.layout, (2, 4), (3, 0)).cells
    smoothed = smooth_hex_path(grid, steps, path)
    assert all(grid.is_passable(cell) for cell in smoothed)
    assert all(steps.touch(p, q) for p, q in zip(smoothed, smoothed[1:]))
    with pytest.raises(ValueError, match="not hex neighbours"):
        hex_path_cost(steps, [(0, 0), (3, 0)])


def test_the_navigator_smooths_hex_paths_and_keeps_every_cell_when_asked_not_to():
    """A NavGrid's paths on a half-offset TileMap follow the line on open ground (before, never smoothed)."""
    tile_data = [value for y in range(10) for x in range(14) for value in (((y << 16) | x), 0, 0)]
    geometry = TileGeometry(cell_size=(82.0, 94.0), half_offset=HALF_OFFSET_Y)
    navigator = TileMapNavigator.from_tilemap(tile_data, geometry, [TileInfo(0, "grass")])
    steps = navigator.hex_steps
    assert steps is not None
    start, goal = (0, 0), (11, 7)
    exact = find_hex_path(navigator.grid, steps.layout, start, goal).cells
    answer = navigator.find_path(navigator.centre_of(start), navigator.centre_of(goal))
    line = hex_line_cells(steps, start, goal)
    assert answer.status == "FOUND" and exact != line
    assert answer.points == navigator.frame.grid_centres(line)
    assert navigator.find_path(navigator.centre_of(start), navigator.centre_of(goal), smooth=False).points == (
        navigator.frame.grid_centres(exact)
    )
