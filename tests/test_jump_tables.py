import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from pathing_py.jump_tables import JumpTables

grids = st.tuples(st.integers(1, 14), st.integers(1, 14), st.floats(0, 0.6), st.integers(0, 2**32 - 1)).map(
    lambda t: np.random.default_rng(t[3]).random((t[1], t[0])) >= t[2]
)
batches = st.lists(st.lists(st.tuples(st.integers(0, 13), st.integers(0, 13)), min_size=1, max_size=4), max_size=5)


@settings(max_examples=300, deadline=None)
@given(grids, batches, st.booleans())
def test_refresh_after_edits_equals_a_fresh_build(passable, edits, one_refresh_for_all):
    """Local refreshes, one per batch or one for all batches, give exactly the tables of a new build."""
    tables = JumpTables(passable)
    passable = passable.copy()
    height, width = passable.shape
    pending = []
    for batch in edits:
        cells = np.array([(x % width, y % height) for x, y in batch])
        xs, ys = cells[:, 0], cells[:, 1]
        passable[ys, xs] = ~passable[ys, xs]
        pending.append((xs, ys))
        if not one_refresh_for_all:
            tables.refresh(passable, xs, ys)
    if one_refresh_for_all and pending:
        tables.refresh(passable, np.concatenate([p[0] for p in pending]), np.concatenate([p[1] for p in pending]))
    fresh = JumpTables(passable)
    for direction, (kept, built) in enumerate(zip(tables.arrays, fresh.arrays)):
        assert np.array_equal(kept, built), direction


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
