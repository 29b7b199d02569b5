import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pathing_py import jump_tables
from pathing_py.jump_tables import JumpTables
from tests.support.strategies import batches, maps
from tests.support.table_edits import edit_and_refresh


@pytest.mark.parametrize("walk_share", [1, 10**9], ids=["walks", "quarters"])
@settings(max_examples=200, deadline=None)
@given(maps(max_walls=0.6), st.booleans(), st.data())
def test_refresh_after_edits_equals_a_fresh_build(walk_share, passable, one_refresh_for_all, data):
    """Local refreshes, one per batch or one for all batches, give exactly the tables of a new
    build: with the diagonal walks left to run (WALK_SHARE 1), and with the quarter rewrites
    every diagonal refresh falls back to past its budget (a budget of 0 cells)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(jump_tables, "WALK_SHARE", walk_share)
        tables = JumpTables(passable)
        height, width = passable.shape
        edit_batches = data.draw(st.lists(batches(width, height), max_size=5))
        passable = edit_and_refresh(tables, passable, edit_batches, one_refresh_for_all)
    fresh = JumpTables(passable)
    for direction, (kept, built) in enumerate(zip(tables.arrays, fresh.arrays)):
        assert np.array_equal(kept, built), direction
        # What the search reads: views of the same arrays, not copies left behind.
        assert np.array_equal(np.frombuffer(tables.tables[direction], dtype=built.dtype), built.ravel()), direction


def test_distances_on_a_small_map():
    passable = np.array(
        [
            [1, 1, 1, 1, 1],
            [1, 1, 0, 1, 1],
            [1, 1, 1, 1, 1],
        ],
        dtype=bool,
    )
    tables = JumpTables(passable)
    east, north_east = tables.arrays[2][1:-1, 1:-1], tables.arrays[1][1:-1, 1:-1]
    # Moving east along the top row, (3, 0) has a free cell below it behind which (2, 1) is
    # blocked: a jump point 3 steps from (0, 0).
    assert east[0, 0] == 3
    assert east[0, 3] == -1  # one free step, then the wall
    assert east[1, 0] == -1  # the obstacle one step ahead
    # North-east from (0, 2): (1, 1) is a jump point (its eastward jump finds one).
    assert north_east[2, 0] == 1
    assert north_east[0, 0] == 0  # the border is right above
