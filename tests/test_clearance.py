"""Clearance for unit sizes (SPEC G4): the clearance map and sizes.

Oracles come from the cells themselves (tests/reference.py: a block fits where
all its cells are free; a block steps under the corner rule lifted to blocks),
never from the package's clearance, so the equivalence "a size-k unit's world
is the grid of cells with clearance >= k" is tested, not assumed.
"""

import math
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pathing_py.clearance as clearance_module
from pathing_py.clearance import MAX_SIZE, ClearanceMap, block_at, block_centre, size_class
from reference import block_fits
from strategies import edits, maps


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
    "passable, max_size, message",
    [
        (np.ones((3, 3), dtype=int), 8, "bool array"),
        (np.ones(3, dtype=bool), 8, "2-D"),
        (np.ones((0, 3), dtype=bool), 8, "non-empty"),
        (np.ones((3, 3), dtype=bool), 0, "max_size"),
        (np.ones((3, 3), dtype=bool), 256, "max_size"),
        (np.ones((3, 3), dtype=bool), 2.0, "max_size"),
    ],
)
def test_bad_clearance_maps_are_refused(passable, max_size, message):
    with pytest.raises(ValueError, match=message):
        ClearanceMap(passable, max_size)


def test_bad_updates_are_refused():
    passable = np.ones((3, 4), dtype=bool)
    clearance = ClearanceMap(passable)
    with pytest.raises(ValueError, match=r"\(4, 0\) is outside the 4x3 map"):
        clearance.update(passable, [(4, 0)])
    with pytest.raises(ValueError, match="shape"):
        clearance.update(np.ones((4, 3), dtype=bool), [(0, 0)])
