import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pathing_py import Grid, PathStatus, find_path
from pathing_py.search import grid_distances
from pathing_py.tools.movingai import read_scenarios
from tests.support.reference import dijkstra, path_cost
from tests.support.search import MAPS, sample_scenarios
from tests.support.strategies import cells, cells_of, connectivities, costs, edits, maps


def last_places(path):
    """For each scenario of a file, one unit in the last place its optimal length is written to: the
    files keep a fixed number of decimals (2 in the version 1.0 files, 8 in the city files) or six
    significant digits, trailing zeros left out (the others; benchmarks README)."""
    fields = [line.split()[-1] for line in path.read_text().splitlines()[1:] if line.strip()]
    decimals = {len(field.partition(".")[2]) for field in fields}
    if len(decimals) == 1 and decimals != {0}:
        places = [decimals.pop()] * len(fields)
    else:
        places = [5 - math.floor(math.log10(float(field))) if float(field) > 0 else 5 for field in fields]
    return [10.0**-place for place in places]


def assert_written_length(cost, scenario, unit):
    """``cost`` is the length the file wrote, rounded to its last place; the city files' 8 decimals are
    cut, from sums of an 8-decimal sqrt(2) (a few 1e-8 off): 1e-6 for those."""
    assert abs(cost - scenario.optimal_length) <= max(unit / 2, 1e-6) + 1e-9, (cost, scenario)


@pytest.mark.parametrize("name", MAPS)
def test_movingai_optimal_lengths(movingai_dir, name):
    grid = Grid.from_movingai(movingai_dir / f"{name}.map")
    scenarios = read_scenarios(movingai_dir / f"{name}.map.scen")
    units = dict(zip(scenarios, last_places(movingai_dir / f"{name}.map.scen")))
    for scenario in sample_scenarios(grid, scenarios):
        result = find_path(grid, scenario.start, scenario.goal)
        assert result.status is PathStatus.FOUND, scenario
        assert_written_length(result.cost, scenario, units[scenario])
        assert result.cells[0] == scenario.start and result.cells[-1] == scenario.goal
        assert path_cost(grid.passable, result.cells) == pytest.approx(result.cost)


def test_gardenofwar_blocked_endpoints_are_reported(movingai_dir):
    grid = Grid.from_movingai(movingai_dir / "gardenofwar.map")
    blocked = [
        s for s in read_scenarios(movingai_dir / "gardenofwar.map.scen")
        if not (grid.is_passable(s.start) and grid.is_passable(s.goal))
    ]  # fmt: skip
    assert len(blocked) == 6  # as the benchmarks README counts them
    for scenario in blocked:
        expected = PathStatus.GOAL_BLOCKED if grid.is_passable(scenario.start) else PathStatus.START_BLOCKED
        assert find_path(grid, scenario.start, scenario.goal).status is expected, scenario


def test_four_connected_movingai_paths_are_optimal(movingai_dir):
    """4-connected paths on a Moving AI map cost what a plain Dijkstra over rook moves finds."""
    grid = Grid.from_movingai(movingai_dir / "den520d.map", connectivity=4)
    scenarios = sample_scenarios(grid, read_scenarios(movingai_dir / "den520d.map.scen"), count=4, seed=3)
    for scenario in scenarios:
        result = find_path(grid, scenario.start, scenario.goal)
        expected = dijkstra(grid.passable, scenario.start, scenario.goal, connectivity=4)
        assert result.cost == pytest.approx(expected), scenario
        assert result.cost >= scenario.optimal_length - 1e-6  # no shorter than the 8-connected optimum
        assert path_cost(grid.passable, result.cells, connectivity=4) == pytest.approx(expected)


def test_four_connected_paths_take_straight_steps_around_corners():
    """The diagonal gap between two walls is no way through on either grid; in the open, a
    4-connected path pays the Manhattan distance where the 8-connected one goes diagonally."""
    text = """
.#...
#....
.....
"""
    eight, four = Grid.from_ascii(text), Grid.from_ascii(text, connectivity=4)
    for grid in (eight, four):
        assert find_path(grid, (0, 0), (4, 2)).status is PathStatus.UNREACHABLE
    result = find_path(four, (1, 1), (4, 2))
    assert result.cost == 4.0 and find_path(eight, (1, 1), (4, 2)).cost == pytest.approx(2 + math.sqrt(2))
    assert all(abs(b[0] - a[0]) + abs(b[1] - a[1]) == 1 for a, b in zip(result.cells, result.cells[1:]))


@pytest.mark.parametrize("bad", [6, 0, "8", 8.0, True, None])
def test_bad_connectivity_is_refused(bad):
    with pytest.raises(ValueError, match="connectivity must be 8 or 4"):
        Grid(np.ones((2, 2), dtype=bool), connectivity=bad)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 12), st.integers(1, 12), connectivities(), st.data())
def test_grid_distances_are_the_shortest_paths_across_open_ground(width, height, connectivity, data):
    open_ground = np.ones((height, width), dtype=bool)
    starts = data.draw(st.lists(cells(width, height), min_size=1, max_size=5))
    goal = data.draw(cells(width, height))
    measured = grid_distances(np.array(starts), np.array(goal), connectivity)
    walked = [dijkstra(open_ground, start, goal, connectivity=connectivity) for start in starts]
    assert measured.tolist() == pytest.approx(walked)


@st.composite
def grids_and_queries(draw, weighted=False):
    """A map (with terrain costs if ``weighted``), a start, a goal and edits to make, all drawn."""
    passable = draw(maps(max_side=20))
    cost = draw(costs(passable.shape)) if weighted else None
    height, width = passable.shape
    return passable, cost, draw(cells_of(passable)), draw(cells_of(passable)), draw(edits(width, height))


def check_against_dijkstra(grid, start, goal, **options):
    """The answer is Dijkstra's: the same status, a legal path of the optimal length (at most ``weight`` times it
    when that option is given) whose reported cost is its own."""
    result = find_path(grid, start, goal, **options)
    weight = options.get("weight", 1.0)
    expected = dijkstra(grid.passable, start, goal, grid.cost, connectivity=grid.connectivity)
    if not grid.is_passable(start):
        assert result.status is PathStatus.START_BLOCKED
    elif not grid.is_passable(goal):
        assert result.status is PathStatus.GOAL_BLOCKED
    elif expected is None:
        assert result.status is PathStatus.UNREACHABLE
    else:
        assert result.status is PathStatus.FOUND
        assert expected - 1e-9 <= result.cost <= weight * expected + 1e-9
        if weight == 1.0:
            assert result.cost == pytest.approx(expected)
        assert result.cells[0] == start and result.cells[-1] == goal
        assert path_cost(grid.passable, result.cells, grid.cost, connectivity=grid.connectivity) == pytest.approx(
            result.cost
        )


@settings(max_examples=120, deadline=None)
@given(grids_and_queries(), connectivities())
def test_matches_dijkstra_through_edits(case, connectivity):
    passable, _, start, goal, edits = case
    grid = Grid(passable, connectivity=connectivity)
    check_against_dijkstra(grid, start, goal)
    for batch, blocked in edits:
        grid.set_blocked(batch, blocked)
        check_against_dijkstra(grid, start, goal)


@settings(max_examples=80, deadline=None)
@given(grids_and_queries(weighted=True), connectivities())
def test_weighted_matches_dijkstra_through_edits(case, connectivity):
    passable, cost, start, goal, edits = case
    grid = Grid(passable, cost, connectivity=connectivity)
    check_against_dijkstra(grid, start, goal)
    for batch, blocked in edits:
        grid.set_blocked(batch, blocked)
        check_against_dijkstra(grid, start, goal)


@settings(max_examples=100, deadline=None)
@given(st.booleans().flatmap(grids_and_queries), connectivities(), st.floats(1.0, 3.0), st.booleans())
def test_weighted_search_stays_within_its_weight_through_edits(case, connectivity, weight, once):
    """``weight``: a legal path at most that many times the shortest, on uniform and weighted grids, through edits."""
    passable, cost, start, goal, edits = case
    grid = Grid(passable, cost, connectivity=connectivity)
    check_against_dijkstra(grid, start, goal, weight=weight, once=once)
    for batch, blocked in edits:
        grid.set_blocked(batch, blocked)
        check_against_dijkstra(grid, start, goal, weight=weight, once=once)


def test_weighted_search_follows_one_path_on_a_cluttered_map(movingai_dir):
    """On random512-10-0 (every path a few percent longer than the octile estimate) a weight of 1.03 expands fewer
    nodes than the exact search, its paths within 1.03 of the optimal length."""
    name = "random512-10-0"
    grid = Grid.from_movingai(movingai_dir / f"{name}.map")
    scenarios = sample_scenarios(grid, read_scenarios(movingai_dir / f"{name}.map.scen"), 10)
    exact = [find_path(grid, s.start, s.goal) for s in scenarios]
    weighted = [find_path(grid, s.start, s.goal, weight=1.03) for s in scenarios]
    for scenario, result in zip(scenarios, weighted):
        assert scenario.optimal_length - 1e-3 <= result.cost <= 1.03 * scenario.optimal_length + 1e-3
        assert path_cost(grid.passable, result.cells) == pytest.approx(result.cost)
    assert sum(r.expanded for r in weighted) < sum(r.expanded for r in exact) / 2


@settings(max_examples=100, deadline=None)
@given(st.booleans().flatmap(grids_and_queries), connectivities())
def test_a_grid_searched_once_matches_dijkstra(case, connectivity):
    """``once``: plain A* without islands or jump tables, the same answers (a goal cut off included)."""
    passable, cost, start, goal, _ = case
    check_against_dijkstra(Grid(passable, cost, connectivity=connectivity), start, goal, once=True)


@settings(max_examples=100, deadline=None)
@given(grids_and_queries(), connectivities(), st.data())
def test_bounded_search_matches_dijkstra_on_the_rectangle(case, connectivity, data):
    passable, _, start, goal, _ = case
    grid = Grid(passable, connectivity=connectivity)
    x, y = data.draw(cells_of(passable))
    width, height = data.draw(st.integers(1, grid.width)), data.draw(st.integers(1, grid.height))
    bounds = (x, y, width, height)
    result = find_path(grid, start, goal, bounds=bounds)
    inside = all(x <= c[0] < x + width and y <= c[1] < y + height for c in (start, goal))
    if not inside:
        assert result.status is PathStatus.OUT_OF_BOUNDS
        return
    window = np.zeros_like(passable)
    window[y : y + height, x : x + width] = passable[y : y + height, x : x + width]
    expected = dijkstra(window, start, goal, connectivity=connectivity)
    if expected is None:
        assert not result
    else:
        assert result.cost == pytest.approx(expected)
        assert path_cost(window, result.cells, connectivity=connectivity) == pytest.approx(expected)
        assert all(x <= c[0] < x + width and y <= c[1] < y + height for c in result.cells)


GRID = Grid.from_ascii(
    """
.....
.###.
.....
"""
)


@pytest.mark.parametrize(
    "start, goal, status",
    [
        ((0, 0), (4, 2), PathStatus.FOUND),
        ((1, 1), (4, 2), PathStatus.START_BLOCKED),
        ((0, 0), (2, 1), PathStatus.GOAL_BLOCKED),
        ((-1, 0), (4, 2), PathStatus.OUT_OF_BOUNDS),
        ((0, 0), (5, 2), PathStatus.OUT_OF_BOUNDS),
        ((0, 0), (0, 3), PathStatus.OUT_OF_BOUNDS),
    ],
)
def test_statuses(start, goal, status):
    result = find_path(GRID, start, goal)
    assert result.status is status
    assert bool(result) is (status is PathStatus.FOUND)
    if not result:
        assert result.cells == [] and math.isinf(result.cost)


def test_different_islands_are_answered_without_search():
    grid = Grid.from_ascii(
        """
..#..
..#..
"""
    )
    result = find_path(grid, (0, 0), (4, 1))
    assert result.status is PathStatus.UNREACHABLE and result.expanded == 0


def test_start_equals_goal():
    result = find_path(GRID, (3, 2), (3, 2))
    assert result and result.cells == [(3, 2)] and result.cost == 0.0


def test_node_limit():
    grid = Grid(np.ones((40, 40), dtype=bool))
    grid.set_blocked([(20, y) for y in range(39)])
    result = find_path(grid, (0, 0), (39, 0), max_nodes=3)
    assert result.status is PathStatus.LIMIT_REACHED and result.expanded == 3


@pytest.mark.parametrize("bad", [(1.5, 2), (float("nan"), 0), "ab", (1,), None, (True, 0)])
def test_bad_cells_are_type_errors(bad):
    with pytest.raises(TypeError, match="start"):
        find_path(GRID, bad, (0, 0))


@pytest.mark.parametrize("bad", [0.99, 0, float("nan"), float("inf"), True, "2", None])
def test_bad_weight(bad):
    with pytest.raises(ValueError, match="weight"):
        find_path(GRID, (0, 0), (4, 2), weight=bad)


@pytest.mark.parametrize("bad", [0, -3, 2.5])
def test_bad_node_limit(bad):
    with pytest.raises(ValueError, match="max_nodes"):
        find_path(GRID, (0, 0), (4, 2), max_nodes=bad)
