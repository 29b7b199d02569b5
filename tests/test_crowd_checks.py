"""pathing_py.crowd_checks against plain loops over every pair and every cell."""

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings

from pathing_py.crowd_checks import OVERLAP_SLACK, overlapping_pairs, units_in_walls
from tests.support.strategies import crowds, maps


def pairs_by_loops(positions, radii):
    return [
        [i, j]
        for i, j in itertools.combinations(range(len(positions)), 2)
        if math.dist(positions[i], positions[j]) < OVERLAP_SLACK * (radii[i] + radii[j])
    ]


def walled_by_loops(passable, positions, radii):
    """Units whose shrunk circle meets a blocked cell, a cell off the map, by looking at every cell it could meet."""
    height, width = passable.shape
    found = []
    for unit, ((x, y), r) in enumerate(zip(positions, radii)):
        for cx in range(math.floor(x - r) - 1, math.floor(x + r) + 2):
            for cy in range(math.floor(y - r) - 1, math.floor(y + r) + 2):
                free = 0 <= cx < width and 0 <= cy < height and passable[cy, cx]
                nearest = (min(max(x, cx), cx + 1), min(max(y, cy), cy + 1))
                if not free and math.dist((x, y), nearest) < OVERLAP_SLACK * r:
                    found.append(unit)
                    break
            else:
                continue
            break
    return found


@settings(max_examples=300, deadline=None)
@given(crowds())
def test_overlapping_pairs_are_the_pairs_closer_than_their_radii(crowd):
    positions, radii = crowd
    assert overlapping_pairs(positions, radii).tolist() == pairs_by_loops(positions, radii)


@settings(max_examples=300, deadline=None)
@given(maps(max_side=12), crowds(side=12.0))
def test_units_in_walls_are_the_circles_meeting_a_blocked_cell_or_the_edge(passable, crowd):
    positions, radii = crowd
    assert units_in_walls(passable, positions, radii).tolist() == walled_by_loops(passable, positions, radii)


def test_touching_is_not_overlapping():
    positions = np.array(
        [[0.5, 0.5], [1.5, 0.5], [2.5, 0.5], [2.5, 1.4]]
    )  # in a row touching, and the last 0.1 into the third
    assert overlapping_pairs(positions, np.full(4, 0.5)).tolist() == [[2, 3]]
    passable = np.ones((2, 3), dtype=bool)
    assert units_in_walls(passable, positions, np.full(4, 0.5)).tolist() == []
    assert units_in_walls(passable, positions, np.array([0.5, 0.5, 0.5, 0.61])).tolist() == [3]  # past the map's edge


@pytest.mark.parametrize(
    "positions, radii, message",
    [
        (np.zeros((3,)), np.ones(3), "positions must be an"),
        (np.zeros((3, 2)), np.ones(2), "one value per position"),
        (np.array([[0.0, np.nan]]), np.ones(1), "position 0 is not finite"),
        (np.zeros((2, 2)), np.array([1.0, 0.0]), "radius 1 is not a positive"),
    ],
)
def test_bad_crowds_are_refused(positions, radii, message):
    with pytest.raises(ValueError, match=message):
        overlapping_pairs(positions, radii)
    with pytest.raises(ValueError, match=message):
        units_in_walls(np.ones((2, 2), dtype=bool), positions, radii)
