from unittest.mock import patch

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from pathing_py import Grid, KeyPointGraph, PathStatus, find_path, islands
from pathing_py.islands import FLOOD_MIN, label_islands
from pathing_py.jump_tables import JumpTables
from pathing_py.units.dynamic import MapWatcher, SpliceStatus, WatcherStats, first_blocked, splice_path
from tests.support.reference import dijkstra, path_cost
from tests.support.strategies import connectivities, edits, maps, mazes

# -- MapWatcher ---------------------------------------------------------------------------------------


def row(y, x0, x1):
    return [(x, y) for x in range(x0, x1)]


def test_only_subscribers_of_changed_regions_hear():
    watcher = MapWatcher(64, 64, region_size=16)
    watcher.subscribe("west", row(5, 0, 10))  # region 0
    watcher.subscribe("east", row(5, 40, 60))  # regions 2 and 3
    watcher.subscribe("south", row(50, 0, 64))  # regions 12..15
    watcher.cells_changed([(45, 7)])
    assert watcher.collect() == {"east": frozenset({2})}
    watcher.cells_changed([(3, 3), (63, 63)])
    assert watcher.collect() == {"west": frozenset({0}), "south": frozenset({15})}


def test_changes_are_batched_once_per_collect():
    watcher = MapWatcher(64, 32, region_size=16)
    watcher.subscribe(7, row(3, 0, 64))
    watcher.cells_changed([(1, 1)])
    watcher.cells_changed([(2, 2), (20, 3)])
    watcher.cells_changed([(50, 9)])
    watcher.cells_changed([(1, 1)])  # freed again: still one change of region 0
    assert watcher.collect() == {7: frozenset({0, 1, 3})}
    assert watcher.collect() == {}
    assert watcher.stats == WatcherStats(collects=2, marked=3, notifications=1)


def test_unsubscribe_and_resubscribe():
    watcher = MapWatcher(32, 32, region_size=8)
    watcher.subscribe("a", row(0, 0, 32))
    watcher.subscribe("b", row(0, 0, 4))
    watcher.unsubscribe("a")
    watcher.unsubscribe("never subscribed")
    watcher.cells_changed([(20, 0)])
    assert watcher.collect() == {}
    watcher.subscribe("b", row(20, 24, 32))  # replaces what b watched
    assert watcher.watched("b") == frozenset({11})
    watcher.cells_changed([(1, 0), (30, 20)])
    assert watcher.collect() == {"b": frozenset({11})}
    watcher.subscribe("b", [])  # an empty route watches nothing
    watcher.cells_changed([(30, 20)])
    assert watcher.collect() == {} and watcher.watched("b") == frozenset()


def test_cells_on_region_borders():
    watcher = MapWatcher(32, 32, region_size=16)
    assert watcher.regions_of([(15, 15)]) == {0}
    assert watcher.regions_of([(16, 15), (15, 16), (16, 16)]) == {1, 2, 3}
    # A diagonal step across the corner of four regions uses the two corner cells too.
    watcher.subscribe("unit", [(14, 14), (15, 15), (16, 16), (17, 17)])
    assert watcher.watched("unit") == frozenset({0, 1, 2, 3})
    watcher.cells_changed([(16, 15)])
    assert watcher.collect() == {"unit": frozenset({1})}
    # A straight route along a border does not watch the region beside it.
    watcher.subscribe("unit", row(15, 0, 16))
    watcher.cells_changed([(3, 16)])
    assert watcher.collect() == {}


def test_regions_of_uneven_maps_and_arrays():
    watcher = MapWatcher(20, 10, region_size=8)
    assert (watcher.columns, watcher.rows) == (3, 2)
    assert watcher.regions_of(np.array([[19, 9], [0, 0], [8, 0]])) == {5, 0, 1}
    assert watcher.region_rect(5) == (16, 8, 4, 2)
    assert watcher.region_rect(1) == (8, 0, 8, 8)
    watcher.subscribe("arrays", np.array([[0, 0], [1, 1]]))
    assert watcher.watched("arrays") == frozenset({0})


def test_collect_order_is_deterministic():
    def run():
        watcher = MapWatcher(64, 64, region_size=8)
        for unit in ["c", "a", "b", "d"]:
            watcher.subscribe(unit, row(ord(unit) - ord("a"), 0, 64))
        watcher.cells_changed([(60, 3), (1, 0)])
        return list(watcher.collect())

    assert run() == run() == ["c", "a", "b", "d"]


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: MapWatcher(0, 5), "width"),
        (lambda: MapWatcher(5, 5, region_size=0), "region_size"),
        (lambda: MapWatcher(5, 5).cells_changed([(5, 0)]), r"\(5, 0\) is outside"),
        (lambda: MapWatcher(5, 5).subscribe("u", [(0, -1)]), r"\(0, -1\) is outside"),
        (lambda: MapWatcher(5, 5).region_rect(1), "region 1"),
    ],
)
def test_watcher_errors(call, message):
    with pytest.raises(ValueError, match=message):
        call()


# -- splice_path --------------------------------------------------------------------------------------


def open_grid(width, height):
    return Grid(np.ones((height, width), dtype=bool))


def check_splice(grid, old, index, result):
    """A SPLICED route runs from the unit to the old goal and is legal on the grid now (straight steps
    only on a 4-connected grid)."""
    assert result.status is SpliceStatus.SPLICED
    assert result.cells[0] == tuple(old[index]) and result.cells[-1] == tuple(old[-1])
    path_cost(grid.passable, result.cells, grid.cost, connectivity=grid.connectivity)  # asserts every step
    assert first_blocked(grid, result.cells) is None


def test_splice_bypasses_a_new_wall():
    grid = open_grid(30, 11)
    route = find_path(grid, (0, 5), (29, 5)).cells
    grid.set_blocked([(12, y) for y in range(3, 8)])
    result = splice_path(grid, route, 4, horizon=16)
    check_splice(grid, route, 4, result)
    assert 0 < result.work < grid.width * grid.height
    # Only the piece around the wall changed; the rest of the route is kept as it was.
    assert result.cells[-10:] == route[-10:]
    optimal = dijkstra(grid.passable, route[4], route[-1])
    assert path_cost(grid.passable, result.cells) <= optimal + 2.0


def test_splice_not_needed():
    grid = open_grid(20, 5)
    route = find_path(grid, (0, 2), (19, 2)).cells
    result = splice_path(grid, route, 3)
    assert result == (SpliceStatus.NOT_NEEDED, route[3:], 0)
    grid.set_blocked([(1, 2)])  # behind the unit: none of its business
    assert splice_path(grid, route, 3).status is SpliceStatus.NOT_NEEDED


def test_splice_fails_when_the_detour_is_too_long():
    grid = Grid.from_ascii(
        """
.....................
.###################.
.....................
"""
    )
    route = find_path(grid, (3, 2), (17, 2)).cells
    grid.set_blocked([(10, 2)])  # the way round is through the top row: far longer than the piece
    result = splice_path(grid, route, 0, horizon=6, max_stretch=2.0)
    assert result.status is SpliceStatus.FAILED and result.cells == []
    assert find_path(grid, (3, 2), (17, 2)).status is PathStatus.FOUND  # the caller re-plans in full
    # Allowed to stretch further, the same splice goes round.
    check_splice(grid, route, 0, splice_path(grid, route, 0, horizon=6, max_stretch=10.0))


def test_splice_fails_when_no_detour_exists():
    grid = Grid.from_ascii(
        """
..........
..........
"""
    )
    route = find_path(grid, (0, 0), (9, 0)).cells
    grid.set_blocked([(5, 0), (5, 1)])
    result = splice_path(grid, route, 0)
    assert result.status is SpliceStatus.FAILED
    grid.set_blocked([(5, 0), (5, 1)], blocked=False)
    grid.set_blocked([(9, 0)])  # the goal itself
    assert splice_path(grid, route, 0).status is SpliceStatus.FAILED
    grid.set_blocked([(9, 0)], blocked=False)
    grid.set_blocked([(2, 0)])  # where the unit stands
    assert splice_path(grid, route, 2).status is SpliceStatus.FAILED


def test_splice_repairs_a_cut_corner_and_several_blocks():
    grid = open_grid(60, 20)
    route = find_path(grid, (0, 0), (10, 10)).cells + find_path(grid, (10, 10), (59, 10)).cells[1:]
    diagonal = 1  # the route starts diagonally
    (x0, y0), (x1, y1) = route[0], route[1]
    assert x0 != x1 and y0 != y1
    grid.set_blocked([(x1, y0)])  # a corner only: the cells of the route stay free
    grid.set_blocked([(30, 9), (30, 10), (30, 11), (50, 10)])
    assert first_blocked(grid, route) == diagonal
    result = splice_path(grid, route, 0, horizon=8)
    check_splice(grid, route, 0, result)


def test_a_far_block_is_repaired_where_it_is():
    grid = open_grid(80, 9)
    route = find_path(grid, (0, 4), (79, 4)).cells
    grid.set_blocked([(60, y) for y in range(2, 7)])
    result = splice_path(grid, route, 0, horizon=10)
    check_splice(grid, route, 0, result)
    assert result.cells[:55] == route[:55]  # re-planned from horizon // 2 steps before the block only
    assert result.work < 200


def test_first_blocked():
    grid = open_grid(10, 3)
    route = row(1, 0, 10)
    assert first_blocked(grid, route) is None
    grid.set_blocked([(2, 1), (6, 1)])
    assert first_blocked(grid, route) == 2
    assert first_blocked(grid, route, start=3) == 6
    assert first_blocked(grid, route, start=7) is None
    assert first_blocked(grid, []) is None
    with pytest.raises(ValueError, match="not a king move"):
        first_blocked(grid, [(0, 0), (2, 0)])
    with pytest.raises(ValueError, match="outside"):
        first_blocked(grid, [(0, 0), (-1, 0)])


def test_a_diagonal_step_is_unusable_on_a_four_connected_grid():
    route = [(0, 0), (1, 0), (2, 1), (3, 1)]
    assert first_blocked(Grid(np.ones((3, 4), dtype=bool)), route) is None
    assert first_blocked(Grid(np.ones((3, 4), dtype=bool), connectivity=4), route) == 2


@pytest.mark.parametrize(
    "kwargs, message",
    [({"horizon": 0}, "horizon"), ({"max_stretch": 0.5}, "max_stretch"), ({"index": 9}, "index")],
)
def test_splice_argument_errors(kwargs, message):
    grid = open_grid(5, 1)
    arguments = {"index": 0, **kwargs}
    with pytest.raises(ValueError, match=message):
        splice_path(grid, row(0, 0, 5), arguments.pop("index"), **arguments)


@st.composite
def routes_with_new_blocks(draw):
    width, height = draw(st.integers(2, 24)), draw(st.integers(2, 24))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    passable = rng.random((height, width)) >= draw(st.sampled_from([0.0, 0.1, 0.25]))
    free = np.argwhere(passable)
    assume(len(free) >= 2)
    (sy, sx), (gy, gx) = free[rng.choice(len(free), 2, replace=False)]
    grid = Grid(passable, connectivity=draw(connectivities()))
    route = find_path(grid, (int(sx), int(sy)), (int(gx), int(gy))).cells
    assume(len(route) >= 3)
    index = draw(st.integers(0, len(route) - 3))
    # New obstacles on the route between the unit and its goal: a cell of it and maybe its neighbours.
    blocks = []
    for _ in range(draw(st.integers(1, 3))):
        x, y = route[draw(st.integers(index + 1, len(route) - 2))]
        size = draw(st.sampled_from([0, 0, 1, 2]))
        blocks += [(x + dx, y + dy) for dx in range(-size, size + 1) for dy in range(-size, size + 1)]
    kept = {route[index], route[-1]}
    blocks = [(x, y) for x, y in blocks if 0 <= x < width and 0 <= y < height and (x, y) not in kept]
    return grid, route, index, blocks, draw(st.integers(1, 20)), draw(st.sampled_from([1.0, 1.5, 3.0]))


@settings(max_examples=300, deadline=None)
@given(routes_with_new_blocks())
def test_spliced_routes_are_valid_and_reach_the_goal(case):
    grid, route, index, blocks, horizon, max_stretch = case
    grid.set_blocked(blocks)
    result = splice_path(grid, route, index, horizon=horizon, max_stretch=max_stretch)
    if result.status is SpliceStatus.SPLICED:
        check_splice(grid, route, index, result)
        assert result.work > 0
    elif result.status is SpliceStatus.NOT_NEEDED:
        assert first_blocked(grid, route, index) is None and result.cells == route[index:]
    else:
        assert result.cells == []
    # Allowed any stretch, splicing fails only when the goal cannot be reached at all.
    unbounded = splice_path(grid, route, index, horizon=horizon, max_stretch=1e9)
    reachable = dijkstra(grid.passable, route[index], route[-1], connectivity=grid.connectivity) is not None
    assert (unbounded.status is not SpliceStatus.FAILED) == reachable


# -- islands, search tables and the graph after multi-cell edits (issue 11) ---------------------------


@st.composite
def maps_and_edits(draw, max_side=64):
    """A map (any pattern of blocked cells) and a sequence of edits, each blocking or freeing several cells."""
    height, width = draw(st.integers(1, max_side)), draw(st.integers(1, max_side))
    passable = draw(arrays(bool, (height, width), elements=st.booleans() | st.just(True)))
    cells = st.tuples(st.integers(0, width - 1), st.integers(0, height - 1))
    rectangles = st.tuples(cells, st.integers(1, 12), st.integers(1, 12), st.booleans()).map(
        lambda r: [
            (x, y)
            for x in range(r[0][0], min(r[0][0] + r[1], width))
            for y in range(r[0][1], min(r[0][1] + r[2], height))
            # a frame (a wall round a pocket) or the full rectangle
            if not r[3]
            or x in (r[0][0], min(r[0][0] + r[1], width) - 1)
            or y in (r[0][1], min(r[0][1] + r[2], height) - 1)
        ]
    )
    edit = st.tuples(st.lists(cells, min_size=1, max_size=40) | rectangles, st.booleans())
    return passable, draw(st.lists(edit, min_size=1, max_size=6))


def same_islands(labels, passable):
    """``labels`` numbers the islands of ``passable`` (blocked cells 0), as a fresh labelling does."""
    fresh, _ = label_islands(passable)
    pairs = set(zip(labels.ravel().tolist(), fresh.ravel().tolist()))
    return ((labels > 0) == passable).all() and len(pairs) == len({a for a, _ in pairs}) == len({b for _, b in pairs})


@settings(max_examples=150, deadline=None)
@given(maps_and_edits())
def test_islands_and_jump_tables_after_edits_equal_a_fresh_computation(case):
    passable, edits = case
    grid = Grid(passable)
    grid.prepare_islands()
    tables = JumpTables(grid.passable)
    pending = []
    for cells, blocked in edits:
        grid.set_blocked(cells, blocked)
        assert same_islands(grid.islands, grid.passable)
        xs, ys = np.array(cells).T
        pending.append((xs, ys))
        if len(pending) == 2:  # refreshed in batches of two edits, as a search catches up with several
            tables.refresh(
                grid.passable, np.concatenate([p[0] for p in pending]), np.concatenate([p[1] for p in pending])
            )
            pending = []
    if pending:
        tables.refresh(grid.passable, *pending[0])
    fresh = JumpTables(grid.passable)
    for direction, (kept, built) in enumerate(zip(tables.arrays, fresh.arrays)):
        assert np.array_equal(kept, built), f"direction {direction}"


@settings(max_examples=300, deadline=None)
@given(maps(max_walls=0.6) | mazes(), st.sampled_from([1, 16, 10**9]), st.data())
def test_islands_after_cuts_in_narrow_passages_equal_a_fresh_labelling(passable, flood_min, data):
    """Edits that cut 1-wide passages in several places at once split islands into pieces that
    floods find whole, or not within their budget (then the island is labelled again): the
    islands are those of a fresh labelling after every edit, and the tables those of a new build."""
    grid = Grid(passable)
    grid.prepare_islands()
    tables = JumpTables(grid.passable)
    with patch.object(islands, "FLOOD_MIN", flood_min):
        for cells, blocked in data.draw(edits(grid.width, grid.height, max_edits=8)):
            grid.set_blocked(cells, blocked)
            assert same_islands(grid.islands, grid.passable)
            xs, ys = np.array(cells).T
            tables.refresh(grid.passable, xs, ys)
    fresh = JumpTables(grid.passable)
    for direction, (kept, built) in enumerate(zip(tables.arrays, fresh.arrays)):
        assert np.array_equal(kept, built), f"direction {direction}"


@settings(max_examples=40, deadline=None)
@given(maps_and_edits(max_side=40), st.sampled_from([4, 8, 13]))
def test_graph_after_edits_equals_a_fresh_bake(case, cluster_size):
    passable, edits = case
    grid = Grid(passable)
    graph = KeyPointGraph.bake(grid, cluster_size=cluster_size)
    for cells, blocked in edits:
        grid.set_blocked(cells, blocked)
        graph.update(cells)
    assert graph == KeyPointGraph.bake(grid, cluster_size=cluster_size)
    assert same_islands(grid.islands, grid.passable)


def test_a_pocket_walled_in_by_two_separate_edits_is_an_island():
    """Two cuts of one long corridor, made in one edit, leave three islands: each cut alone sees the
    short pocket enclosed and the long side too big to flood, so only both together tell the sides apart."""
    length = 4 * FLOOD_MIN
    grid = Grid(np.ones((1, length), dtype=bool))
    grid.prepare_islands()
    cuts = [(length // 2, 0), (length // 2 + 6, 0)]
    grid.set_blocked(cuts)
    assert len({grid.island_of((x, 0)) for x in (0, length // 2 + 3, length - 1)}) == 3
    assert same_islands(grid.islands, grid.passable)
    grid.set_blocked(cuts, blocked=False)
    assert grid.same_island((0, 0), (length - 1, 0))
