"""Dead-end pruning (pathing_py.dead_ends): the same shortest paths as the plain search, on mazes
and on noise, through edits (searched without the trees) and once the trees are peeled again."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pathing_py import Grid, PathStatus, dead_ends, find_path, prepare
from pathing_py.jump_tables import pad
from tests.support.reference import dijkstra, path_cost
from tests.support.strategies import cells_of, connectivities, edits, maps, mazes


def check_optimal(grid, start, goal):
    """find_path's answer against the reference Dijkstra; returns the result."""
    result = find_path(grid, start, goal)
    expected = dijkstra(grid.passable, start, goal, connectivity=grid.connectivity)
    if not (grid.is_passable(start) and grid.is_passable(goal)):
        assert not result
    elif expected is None:
        assert result.status is PathStatus.UNREACHABLE
    else:
        assert result.status is PathStatus.FOUND, (start, goal)
        assert result.cost == pytest.approx(expected)
        assert result.cells[0] == start and result.cells[-1] == goal
        assert path_cost(grid.passable, result.cells, connectivity=grid.connectivity) == pytest.approx(expected)
    return result


@st.composite
def peeled_cases(draw):
    """A maze or a noise map, a connectivity, queries and edits."""
    passable = draw(st.one_of(mazes(), maps(max_side=16, max_walls=0.6)))
    height, width = passable.shape
    queries = draw(st.lists(st.tuples(cells_of(passable), cells_of(passable)), min_size=1, max_size=4))
    return passable, draw(connectivities()), queries, draw(edits(width, height))


@settings(max_examples=150, deadline=None)
@given(peeled_cases(), st.sampled_from([0.0, float("inf")]))
def test_peeled_search_matches_dijkstra_through_edits(case, repeel_share):
    """Every map peeled (the corridor share test switched off): trees climbed, cores searched, edits
    answered without the trees, or with the trees peeled again at once."""
    passable, connectivity, queries, batches = case
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(dead_ends, "CORRIDOR_SHARE", 0.0)
        patch.setattr(dead_ends, "REPEEL_SHARE", repeel_share)
        grid = Grid(passable, connectivity=connectivity)
        for start, goal in queries:
            check_optimal(grid, start, goal)
        for batch, blocked in batches:
            grid.set_blocked(batch, blocked)
            prepare(grid)
            for start, goal in queries:
                check_optimal(grid, start, goal)


@settings(max_examples=60, deadline=None)
@given(mazes(), connectivities(), st.data())
def test_a_perfect_maze_is_climbed_without_search(passable, connectivity, data):
    """A perfect maze is one tree: every query is answered by climbing it (nothing expanded), until an
    edit drops the tree: searched then, prepare() (an edit's catch-up) not peeling it again."""
    grid = Grid(passable, connectivity=connectivity)
    start, goal = data.draw(cells_of(passable)), data.draw(cells_of(passable))
    if not (grid.is_passable(start) and grid.is_passable(goal)) or start == goal:
        return
    assert check_optimal(grid, start, goal).expanded == 0
    far_corner = (grid.width - 1, grid.height - 1)
    grid.set_blocked([far_corner], False)  # already free: no edit
    assert check_optimal(grid, start, goal).expanded == 0
    if far_corner not in (start, goal) and grid.width > 1:
        grid.set_blocked([far_corner])
        prepare(grid)
        searched = check_optimal(grid, start, goal)
        assert searched.expanded > 0 or not searched


def test_only_maze_like_grids_are_peeled():
    """The corridor share decides: a maze is peeled, open ground and scattered pillars are not."""
    maze = np.zeros((9, 9), dtype=bool)
    maze[1::2, 1:-1] = True
    maze[1:-1, 1] = True
    pillars = np.ones((9, 9), dtype=bool)
    pillars[::3, ::3] = False
    for connectivity in (8, 4):
        assert dead_ends.worth_peeling(pad(maze), connectivity)
        assert not dead_ends.worth_peeling(pad(np.ones((9, 9), dtype=bool)), connectivity)
    assert not dead_ends.worth_peeling(pad(pillars), 8)


def test_move_counts_follow_the_corner_rule():
    passable = np.array([[1, 1, 0], [1, 1, 1], [0, 1, 1]], dtype=bool)
    counts = dead_ends.move_counts(pad(passable), 8)[1:-1, 1:-1]
    # The centre reaches its 4 straight neighbours and the two diagonals whose corners are free.
    assert counts[1, 1] == 6
    assert counts[0, 2] == 0 and counts[0, 0] == 3
    assert dead_ends.move_counts(pad(passable), 4)[1:-1, 1:-1][1, 1] == 4


def test_searches_after_an_edit_pay_for_peeling_again():
    """The trees come back once the searches since the edit have expanded
    REPEEL_SHARE of the free cells: at once with a share of 0, never with an endless one."""
    passable = np.zeros((9, 9), dtype=bool)
    passable[1::2, 1:-1] = True
    passable[1:-1, 1] = True  # a comb: one tree
    for share, climbed in ((0.0, True), (float("inf"), False)):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(dead_ends, "REPEEL_SHARE", share)
            grid = Grid(passable)
            assert check_optimal(grid, (7, 1), (7, 7)).expanded == 0
            grid.set_blocked([(7, 3)])
            assert (check_optimal(grid, (7, 1), (7, 7)).expanded == 0) is climbed
