"""Jump tables of the 4-connected search (pathing_py.rook_jumps): local refreshes equal fresh builds."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pathing_py import Grid, PathStatus, find_path
from pathing_py.rook_jumps import RookJumpTables
from tests.support.reference import dijkstra, path_cost
from tests.support.strategies import batches, cells_of, edits, maps
from tests.support.table_edits import edit_and_refresh


@settings(max_examples=200, deadline=None)
@given(maps(max_walls=0.6), st.booleans(), st.data())
def test_refresh_after_edits_equals_a_fresh_build(passable, one_refresh_for_all, data):
    """Column and row rewrites (never the rebuild small maps would take), one per batch or one for
    all, give exactly the tables of a new build."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(RookJumpTables, "REBUILD_SHARE", 0)
        tables = RookJumpTables(passable)
        height, width = passable.shape
        edit_batches = data.draw(st.lists(batches(width, height), max_size=5))
        passable = edit_and_refresh(tables, passable, edit_batches, one_refresh_for_all)
    fresh = RookJumpTables(passable)
    for direction, built in fresh.arrays.items():
        assert np.array_equal(tables.arrays[direction], built), direction
        # What the search reads: views of the same arrays, not copies left behind.
        assert np.array_equal(np.frombuffer(tables.tables[direction], dtype=np.int32), built.ravel()), direction


@settings(max_examples=150, deadline=None)
@given(maps(max_side=24), st.data())
def test_search_after_local_refreshes_matches_dijkstra(passable, data):
    """Queries between edits refreshed column by column (as on a large map) find the shortest paths."""
    height, width = passable.shape
    start, goal = data.draw(cells_of(passable)), data.draw(cells_of(passable))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(RookJumpTables, "REBUILD_SHARE", 0)
        grid = Grid(passable, connectivity=4)
        for batch, blocked in [([], True)] + data.draw(edits(width, height)):
            grid.set_blocked(batch, blocked)
            result = find_path(grid, start, goal)
            expected = dijkstra(grid.passable, start, goal, connectivity=4)
            if expected is None or not (grid.is_passable(start) and grid.is_passable(goal)):
                assert result.status is not PathStatus.FOUND
            else:
                assert result.cost == pytest.approx(expected)
                assert path_cost(grid.passable, result.cells, connectivity=4) == pytest.approx(expected)


def test_distances_on_a_small_map():
    passable = np.array(
        [
            [1, 1, 1, 1, 1],
            [1, 1, 0, 1, 1],
            [1, 1, 1, 1, 1],
        ],
        dtype=bool,
    )
    arrays = {d: array[1:-1, 1:-1] for d, array in RookJumpTables(passable).arrays.items()}
    north, east, south = arrays[0], arrays[2], arrays[4]
    # Going north up column 3, (3, 0) has a free cell west of it behind which (2, 1) is blocked.
    assert north[2, 3] == 2 and north[1, 3] == 1
    assert south[0, 0] == -2  # no forced cell down column 0: two free steps to the wall
    # Going east along row 2, (1, 2) and (3, 2) are the cells whose northward jumps find such cells
    # ((1, 0) and (3, 0)); (2, 2) runs into the obstacle.
    assert east[2, 0] == 1 and east[2, 1] == 2
    assert east[1, 3] == -1  # one free step, no stop, then the border


def test_a_corridor_is_crossed_in_few_expansions():
    """On open ground the 4-connected search expands a handful of turning cells, not the staircase."""
    grid = Grid(np.ones((40, 60), dtype=bool), connectivity=4)
    result = find_path(grid, (0, 0), (59, 39))
    assert result.cost == 98.0 and result.expanded <= 3
