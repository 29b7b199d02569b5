import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pathing_py import Grid, find_path, line_cells, line_of_sight
from pathing_py.units.local import Sense, WalkStatus, shortcut, walk_line
from tests.support.reference import path_cost
from tests.support.strategies import cells_of, connectivities, costs, maps, walled_maps

CW, CCW = Sense.CLOCKWISE, Sense.COUNTER_CLOCKWISE

WALL = """
.........
....#....
....#....
....#....
....#....
.........
"""


def flipped(text: str) -> str:
    """The map upside down: clockwise and counter-clockwise swap."""
    return "\n".join(text.strip("\n").split("\n")[::-1])


def check_walk(grid, result, start):
    """A valid walk (rook moves only on a 4-connected grid) of the stated cost."""
    assert result.cells[0] == start
    assert path_cost(grid.passable, result.cells, grid.cost, connectivity=grid.connectivity) == pytest.approx(
        result.cost
    )


@pytest.mark.parametrize("sense, side_rows", [(CW, {0}), (CCW, {5})])
def test_both_senses_go_round_a_wall(sense, side_rows):
    grid = Grid.from_ascii(WALL)
    result = walk_line(grid, (0, 3), (8, 3), sense=sense)
    assert result.status is WalkStatus.ARRIVED and result.cells[-1] == (8, 3)
    assert result.senses == [sense]
    check_walk(grid, result, (0, 3))
    assert {y for x, y in result.cells if x == 4} == side_rows  # clockwise on screen passes above (y down)


SHORT_TOP = """
...........
...........
....#......
....#......
....#......
....#......
....#......
....#......
....#......
....#......
...........
"""


@pytest.mark.parametrize("text, start, goal, shorter", [
    (SHORT_TOP, (0, 3), (9, 3), CW),
    (flipped(SHORT_TOP), (0, 7), (9, 7), CCW),
    (SHORT_TOP, (9, 3), (0, 3), CCW),  # walking left, the short way up is counter-clockwise
])  # fmt: skip
def test_side_choice_takes_the_sense_that_meets_the_line_sooner(text, start, goal, shorter):
    grid = Grid.from_ascii(text)
    chosen = walk_line(grid, start, goal)
    longer = walk_line(grid, start, goal, sense=CW if shorter is CCW else CCW)
    assert chosen.status is longer.status is WalkStatus.ARRIVED
    assert chosen.senses == [shorter]
    assert chosen.cost < longer.cost - 2
    assert chosen.cells == walk_line(grid, start, goal, sense=shorter).cells


def test_walker_gets_out_of_a_u_shaped_obstacle():
    grid = Grid.from_ascii(
        """
...............
....#######....
..........#....
..........#....
..........#....
....#######....
...............
"""
    )
    result = walk_line(grid, (0, 3), (14, 3))
    assert result.status is WalkStatus.ARRIVED and result.cells[-1] == (14, 3)
    check_walk(grid, result, (0, 3))
    assert len(result.senses) == 1
    assert result.cost < 2 * find_path(grid, (0, 3), (14, 3)).cost


def test_shortcut_cuts_across_to_the_route_not_yet_walked():
    grid = Grid.from_ascii(
        """
........
........
..##....
..##....
........
"""
    )
    # Round the block the long way to the goal (7, 3), then on to (7, 0).
    route = [(0, 3), (1, 3), (1, 2), (1, 1), (1, 0), (2, 0), (3, 0), (4, 0), (4, 1), (4, 2), (4, 3), (5, 3), (6, 3)]
    route += [(7, 3), (7, 2), (7, 1), (7, 0)]
    cut = shortcut(grid, route, goal=(7, 3))
    # From (2, 0), past the block's corner, the line toward the goal is clear and meets the route at the goal.
    assert cut == route[:6] + line_cells((2, 0), (7, 3))[1:] + route[-3:]
    assert path_cost(grid.passable, cut) < path_cost(grid.passable, route) - 1


def test_shortcut_never_cuts_through_an_obstacle_and_drops_loops():
    grid = Grid.from_ascii(
        """
.....
.###.
.....
"""
    )
    around = [(0, 1), (0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (4, 1)]
    assert shortcut(grid, around) == around  # the line across is blocked
    dead_end = [(0, 2), (1, 2), (2, 2), (1, 2), (0, 2), (0, 1), (0, 0), (1, 0)]
    assert shortcut(grid, dead_end) == [(0, 2), (0, 1), (0, 0), (1, 0)]
    assert shortcut(grid, [(0, 0)]) == [(0, 0)] and shortcut(grid, []) == []


RING = """
.............
....#####....
....#...#....
....#...#....
....#...#....
....#...#....
....#####....
.............
"""


@pytest.mark.parametrize("sense", [None, CW, CCW])
def test_enclosed_goal_stops_at_the_nearest_reachable_cell(sense):
    grid = Grid.from_ascii(RING)
    start, goal = (0, 4), (6, 2)
    result = walk_line(grid, start, goal, sense=sense)
    assert result.status is WalkStatus.UNREACHABLE and not result
    check_walk(grid, result, start)
    assert result.cells[-1] == (6, 0) == nearest_reachable(grid, start, goal)
    assert len(result.senses) == 1
    if sense is None:  # the side that gets there sooner: over the top, not round the bottom
        assert result.senses == [CW]
        assert result.cost < walk_line(grid, start, goal, sense=CCW).cost


def nearest_reachable(grid, start, goal):
    """The unique cell of the start's island nearest the goal (Euclidean)."""
    cells = [(x, y) for y in range(grid.height) for x in range(grid.width) if grid.same_island(start, (x, y))]
    distances = sorted(((x - goal[0]) ** 2 + (y - goal[1]) ** 2, (x, y)) for x, y in cells)
    assert distances[0][0] < distances[1][0]
    return distances[0][1]


def test_start_inside_a_ring_stops_at_the_inner_cell_nearest_the_goal():
    grid = Grid.from_ascii(RING)
    result = walk_line(grid, (6, 4), (12, 0))
    assert result.status is WalkStatus.UNREACHABLE
    check_walk(grid, result, (6, 4))
    assert result.cells[-1] == (7, 2)


def test_blocked_goal_is_an_enclosed_goal():
    grid = Grid.from_ascii(
        """
.......####
.......####
.......####
.......####
.......####
"""
    )
    result = walk_line(grid, (0, 2), (9, 2))
    assert result.status is WalkStatus.UNREACHABLE
    check_walk(grid, result, (0, 2))
    assert result.cells[-1] == (6, 2) == nearest_reachable(grid, (0, 2), (9, 2))
    single = walk_line(Grid.from_ascii("......\n....#.\n......"), (0, 1), (4, 1))
    assert single.status is WalkStatus.UNREACHABLE and single.cells == [(0, 1), (1, 1), (2, 1), (3, 1)]


def test_max_steps_is_a_hard_limit():
    grid = Grid.from_ascii(RING)
    on_line = walk_line(grid, (0, 0), (12, 0), max_steps=5)
    assert on_line.status is WalkStatus.LIMIT_REACHED and on_line.cells == line_cells((0, 0), (5, 0))
    assert walk_line(grid, (0, 0), (12, 0), max_steps=12).status is WalkStatus.ARRIVED
    unlimited = walk_line(grid, (0, 4), (6, 2))
    assert unlimited.status is WalkStatus.UNREACHABLE
    limited = [walk_line(grid, (0, 4), (6, 2), max_steps=limit) for limit in range(1, 40)]
    for result in limited:
        check_walk(grid, result, (0, 4))
    # Finding the goal unreachable takes a lap of the contour, which the limit counts too: below what
    # that costs, the unit is part way round (each limit a prefix of the next); from it on, the same
    # answer as without a limit.
    enough = next(limit for limit, result in enumerate(limited, start=1) if result.status is WalkStatus.UNREACHABLE)
    lap = limited[enough - 2].cells
    for limit, result in enumerate(limited, start=1):
        if limit < enough:
            assert result.status is WalkStatus.LIMIT_REACHED and result.cells == lap[: limit + 1], limit
        else:
            assert result.status is WalkStatus.UNREACHABLE and result.cells == unlimited.cells, limit


def test_bad_input():
    grid = Grid.from_ascii(WALL)
    assert walk_line(grid, (-1, 0), (3, 3)).status is WalkStatus.OUT_OF_BOUNDS
    assert walk_line(grid, (0, 0), (9, 0)).status is WalkStatus.OUT_OF_BOUNDS
    blocked = walk_line(grid, (4, 2), (0, 0))
    assert blocked.status is WalkStatus.START_BLOCKED and blocked.cells == [] and not blocked
    assert walk_line(grid, (2, 2), (2, 2)).cells == [(2, 2)]
    with pytest.raises(ValueError, match="max_steps"):
        walk_line(grid, (0, 0), (8, 0), max_steps=0)
    with pytest.raises(TypeError, match="sense"):
        walk_line(grid, (0, 0), (8, 0), sense=1)
    with pytest.raises(TypeError, match="goal"):
        walk_line(grid, (0, 0), (8.0, 0))


def test_boxed_in_start_stays_put():
    grid = Grid.from_ascii("###\n#.#\n###\n...")
    result = walk_line(grid, (1, 1), (1, 3))
    assert result.status is WalkStatus.UNREACHABLE and result.cells == [(1, 1)] and result.cost == 0.0


grids = st.one_of(maps(max_side=14, max_walls=0.45), walled_maps())


@settings(max_examples=250, deadline=None)
@given(
    grids,
    st.booleans(),
    st.one_of(st.none(), st.integers(1, 40)),
    st.sampled_from([None, CW, CCW]),
    connectivities(),
    st.data(),
)
def test_walks_are_valid_bounded_and_arrive_when_the_goal_is_reachable(
    passable, weighted, max_steps, sense, connectivity, data
):
    cost = data.draw(costs(passable.shape, highest=3)) if weighted else None
    grid = Grid(passable, cost, connectivity=connectivity)
    start, goal = data.draw(cells_of(passable)), data.draw(cells_of(passable))
    result = walk_line(grid, start, goal, sense=sense, max_steps=max_steps)
    if not grid.is_passable(start):
        assert result.status is WalkStatus.START_BLOCKED
        return
    check_walk(grid, result, start)
    assert walk_line(grid, start, goal, sense=sense, max_steps=max_steps).cells == result.cells
    steps = len(result.cells) - 1
    line = len(line_cells(start, goal, connectivity))
    assert steps <= (line - 1) * (1 + 8 * int(passable.sum()))
    assert len(result.senses) < line
    if sense is not None:
        assert set(result.senses) <= {sense}
    if max_steps is not None:
        assert steps <= max_steps
    else:
        assert result.status is not WalkStatus.LIMIT_REACHED
    reachable = find_path(grid, start, goal).status.name == "FOUND"
    if result.status is WalkStatus.ARRIVED:
        assert result.cells[-1] == goal and reachable
    elif result.status is WalkStatus.UNREACHABLE:
        assert not reachable  # the walker arrives whenever a search finds a path (module docstring)


@settings(max_examples=200, deadline=None)
@given(grids, connectivities(), st.data())
def test_shortcut_keeps_a_random_route_valid_and_never_longer(passable, connectivity, data):
    """A route of legal moves (king moves, or rook moves on a 4-connected grid) drawn step by step,
    each from the moves open at its end."""
    grid = Grid(passable, connectivity=connectivity)
    start = data.draw(cells_of(passable))
    if not grid.is_passable(start):
        return
    route = [start]
    moves = [
        (dx, dy)
        for dx in (-1, 0, 1)
        for dy in (-1, 0, 1)
        if (dx, dy) != (0, 0) and (connectivity == 8 or not (dx and dy))
    ]
    for _ in range(data.draw(st.integers(2, 60))):
        options = [(route[-1][0] + dx, route[-1][1] + dy) for dx, dy in moves]
        options = [c for c in options if grid.is_passable(c) and line_of_sight(grid, route[-1], c)]
        if not options:
            break
        route.append(options[data.draw(st.integers(0, len(options) - 1))])
    cut = shortcut(grid, route)
    assert cut[0] == route[0] and cut[-1] == route[-1]
    assert len(cut) <= len(route)
    assert path_cost(passable, cut, connectivity=connectivity) <= path_cost(passable, route) + 1e-9


@pytest.mark.parametrize("connectivity", [8, 4])
def test_walks_arrive_on_a_benchmark_map(movingai_dir, connectivity):
    grid = Grid.from_movingai(movingai_dir / "den520d.map", connectivity=connectivity)
    rng = np.random.default_rng(3)
    free = np.argwhere(grid.passable)
    for _ in range(20):
        start, goal = (tuple(int(v) for v in free[rng.integers(len(free))][::-1]) for _ in range(2))
        result = walk_line(grid, start, goal)
        check_walk(grid, result, start)
        assert result.status is (WalkStatus.ARRIVED if grid.same_island(start, goal) else WalkStatus.UNREACHABLE)
