import heapq
import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pathing_py import (
    GraphFileError,
    Grid,
    KeyPointGraph,
    PathStatus,
    StaleGraphError,
    find_path,
    line_of_sight,
    smooth_path,
)
from pathing_py.hierarchy import graph as graph_module
from pathing_py.hierarchy import landmarks as landmarks_module
from pathing_py.hierarchy.entrances import border_key_points
from pathing_py.hierarchy.fields import NO_DIRECTION, cluster_fields, walk_back
from pathing_py.hierarchy.graph import EXACT_FIRST_WEIGHT
from pathing_py.hierarchy.partition import Clusters, default_cluster_size
from pathing_py.jump_tables import DIRECTIONS
from pathing_py.search import grid_distance
from pathing_py.tools.movingai import read_scenarios
from tests.support.graphs import assert_same_answers
from tests.support.reference import dijkstra, path_cost
from tests.support.search import MAPS, sample_scenarios
from tests.support.strategies import cells, connectivities, costs, edits, maps, mazes


def check_against_exact(graph, start, goal, link, exact_first=0.0):
    """The graph finds a path exactly when the exact search does, and its path is legal (straight steps only
    on a 4-connected grid). Through the key points unless ``exact_first`` is given."""
    result = graph.find_path(start, goal, link=link, exact_first=exact_first)
    exact = find_path(graph.grid, start, goal)
    assert result.status is exact.status, (start, goal, link)
    if result:
        assert result.cells[0] == start and result.cells[-1] == goal
        legal_cost = path_cost(graph.grid.passable, result.cells, graph.grid.cost, connectivity=graph.grid.connectivity)
        assert legal_cost == pytest.approx(result.cost)
        assert result.cost >= exact.cost - 1e-9
        assert result.route[0] == start and result.route[-1] == goal
    return result, exact


@pytest.mark.parametrize("name", MAPS)
def test_movingai_paths_are_found_and_valid(movingai_dir, name):
    grid = Grid.from_movingai(movingai_dir / f"{name}.map")
    graph = KeyPointGraph.bake(grid)
    scenarios = sample_scenarios(grid, read_scenarios(movingai_dir / f"{name}.map.scen"), count=8)
    ratios = {}
    for link, exact_first in (
        ("exact", 0.0),
        ("fast", 0.0),
        ("exact", None),
    ):  # None: the default, exact search first on open maps
        results = [
            check_against_exact(graph, scenario.start, scenario.goal, link, exact_first)[0] for scenario in scenarios
        ]
        ratios[link, exact_first] = [
            result.cost / scenario.optimal_length for result, scenario in zip(results, scenarios)
        ]
    # The quality targets of bench/bench_hierarchy.py: exact mean within 1% and none beyond 5%, fast mean within 5%.
    for exact_first in (0.0, None):
        exact = ratios["exact", exact_first]
        assert np.mean(exact) <= 1.01 and max(exact) <= 1.05, exact
    assert np.mean(ratios["fast", 0.0]) <= 1.05, ratios["fast", 0.0]


def test_four_connected_paths_on_a_benchmark_map_are_within_the_quality_bound(movingai_dir):
    """The bound of the 8-connected maps (exact links: mean within 1%, none beyond 5%), against a plain
    Dijkstra over rook moves."""
    grid = Grid.from_movingai(movingai_dir / "den520d.map", connectivity=4)
    graph = KeyPointGraph.bake(grid)
    scenarios = sample_scenarios(grid, read_scenarios(movingai_dir / "den520d.map.scen"), count=8, seed=5)
    ratios = []
    for scenario in scenarios:
        result, _ = check_against_exact(graph, scenario.start, scenario.goal, "exact")
        ratios.append(result.cost / dijkstra(grid.passable, scenario.start, scenario.goal, connectivity=4))
    assert np.mean(ratios) <= 1.01 and max(ratios) <= 1.05, ratios


@st.composite
def graph_maps(draw, weighted=False):
    """A map of at least 2x2 with a free cell (a map with none is not a map), terrain costs if ``weighted``,
    either connectivity."""
    passable = draw(maps(min_side=2, max_walls=0.35))
    passable[0, 0] = True
    cost = draw(costs(passable.shape, highest=3)) if weighted else None
    return Grid(passable, cost, connectivity=draw(connectivities()))


@settings(max_examples=120, deadline=None)
@given(st.booleans().flatmap(graph_maps), st.integers(2, 7), st.data())
def test_found_iff_reachable_on_random_maps(grid, cluster_size, data):
    graph = KeyPointGraph.bake(grid, cluster_size=cluster_size)
    cell = cells(grid.width, grid.height)
    for start, goal in data.draw(st.lists(st.tuples(cell, cell), min_size=1, max_size=8)):
        for link in ("exact", "fast"):
            check_against_exact(graph, start, goal, link)


@settings(max_examples=100, deadline=None)
@given(maps(min_side=2, max_walls=0.5), connectivities(), st.integers(2, 6), st.data())
def test_skipping_dead_ends_keeps_the_cost_of_a_search_over_every_key_point(passable, connectivity, cluster_size, data):
    """Dead ends (hierarchy/contraction.py) cut the key points searched, not the cost found. A grid of terrain cost 1
    everywhere is searched over every key point, with no dead end skipped: the same costs, but where the line
    is clear (a uniform grid answers with the line, shorter than any way through key points)."""
    uniform = Grid(passable, connectivity=connectivity)
    graph = KeyPointGraph.bake(uniform, cluster_size=cluster_size)
    every = KeyPointGraph.bake(
        Grid(passable, np.ones(passable.shape), connectivity=connectivity), cluster_size=cluster_size
    )
    cell = cells(uniform.width, uniform.height)
    for start, goal in data.draw(st.lists(st.tuples(cell, cell), min_size=1, max_size=8)):
        ours, theirs = graph.find_path(start, goal, smooth=False), every.find_path(start, goal, smooth=False)
        assert ours.status is theirs.status
        if ours and not line_of_sight(uniform, start, goal):
            assert ours.cost == pytest.approx(theirs.cost, abs=1e-9), (start, goal)


@settings(max_examples=120, deadline=None)
@given(graph_maps(), st.integers(2, 7), st.data())
def test_update_after_edits_equals_a_fresh_bake(grid, cluster_size, data):
    graph = KeyPointGraph.bake(grid, cluster_size=cluster_size)
    for batch, blocked in data.draw(edits(grid.width, grid.height, max_edits=6)):
        grid.set_blocked(batch, blocked)
        graph.update(batch)
        assert graph == KeyPointGraph.bake(grid, cluster_size=cluster_size)  # landmarks included


@settings(max_examples=60, deadline=None)
@given(graph_maps(), st.integers(2, 7), st.data())
def test_updated_graphs_answer_as_fresh_bakes(grid, cluster_size, data):
    graph = KeyPointGraph.bake(grid, cluster_size=cluster_size)
    for batch, blocked in data.draw(edits(grid.width, grid.height, max_edits=6)):
        grid.set_blocked(batch, blocked)
        graph.update(batch)
    cell = cells(grid.width, grid.height)
    pairs = data.draw(st.lists(st.tuples(cell, cell), min_size=1, max_size=8))
    assert_same_answers(graph, KeyPointGraph.bake(grid, cluster_size=cluster_size), pairs)


@settings(max_examples=60, deadline=None)
@given(graph_maps(), st.integers(2, 7), st.booleans(), st.data())
def test_cells_passed_to_update_one_at_a_time_with_queries_between_some_answer_as_a_fresh_bake(
    grid, cluster_size, loaded, data
):
    """Updates leave their work for the next read; however edits and queries interleave, a baked or a
    loaded graph (tables filled as read) answers as a fresh bake of the edited map does."""
    graph = KeyPointGraph.bake(grid, cluster_size=cluster_size)
    if loaded:
        graph = KeyPointGraph.from_bytes(graph.to_bytes(), grid)
    cell = cells(grid.width, grid.height)
    for batch, blocked in data.draw(edits(grid.width, grid.height, max_edits=6)):
        for one in batch:
            grid.set_blocked([one], blocked)
            graph.update([one])
        if data.draw(st.booleans(), label="query now"):
            assert_same_answers(
                graph, KeyPointGraph.bake(grid, cluster_size=cluster_size), [data.draw(st.tuples(cell, cell))]
            )
    fresh = KeyPointGraph.bake(grid, cluster_size=cluster_size)
    assert_same_answers(graph, fresh, data.draw(st.lists(st.tuples(cell, cell), min_size=1, max_size=6)))
    assert graph == fresh


def test_the_updates_between_two_queries_cost_one_refresh(monkeypatch):
    grid = Grid(np.ones((20, 20), dtype=bool))
    graph = KeyPointGraph.bake(grid, cluster_size=5)
    relaxed = []
    relax = graph_module.cluster_fields
    monkeypatch.setattr(
        graph_module,
        "cluster_fields",
        lambda passable, cost, jobs, connectivity: (
            relaxed.append(len(jobs)) or relax(passable, cost, jobs, connectivity)
        ),
    )
    for cell in [(1, 1), (2, 2), (3, 1), (12, 12)]:  # inside clusters 0 and 12: no key point moves
        grid.set_blocked([cell])
        graph.update([cell])
    assert relaxed == []
    graph.find_path((0, 0), (19, 19), exact_first=0.0)  # (through the key points: the exact search reads no table)
    assert relaxed == [2]  # both clusters, in one stack
    graph.find_path((0, 19), (19, 0), exact_first=0.0)
    assert relaxed == [2]
    grid.set_blocked([(7, 7)], blocked=True)
    graph.update([(7, 7)])
    graph.refresh()
    assert relaxed == [2, 1]
    monkeypatch.undo()
    assert graph == KeyPointGraph.bake(grid, cluster_size=5)


def test_a_grid_edited_after_an_update_is_stale_until_that_edit_is_passed_too():
    grid = Grid(np.ones((12, 12), dtype=bool))
    graph = KeyPointGraph.bake(grid, cluster_size=4)
    grid.set_blocked([(5, 5)])
    graph.update([(5, 5)])
    grid.set_blocked([(6, 6)])
    with pytest.raises(StaleGraphError, match="graph.update"):
        graph.find_path((0, 0), (11, 11))
    graph.update([(6, 6)])
    assert_same_answers(graph, KeyPointGraph.bake(grid, cluster_size=4), [((0, 0), (11, 11)), ((11, 0), (0, 11))])


def test_update_on_a_benchmark_map(movingai_dir):
    grid = Grid.from_movingai(movingai_dir / "AR0011SR.map")
    graph = KeyPointGraph.bake(grid)
    rng = random.Random(3)
    free = list(zip(*np.nonzero(grid.passable)))
    for _ in range(5):
        y, x = rng.choice(free)
        block = [(x + dx, y + dy) for dx in range(8) for dy in range(8) if grid.in_bounds((x + dx, y + dy))]
        grid.set_blocked(block)
        graph.update(block)
    assert graph == KeyPointGraph.bake(grid)


def test_one_cell_edits_on_a_maze_equal_a_fresh_bake(movingai_dir):
    """The patch after each one-cell edit (the clusters it touches, their fields made again on their own) leaves
    the graph a fresh bake makes, on the map of twisty clusters."""
    grid = Grid.from_movingai(movingai_dir / "maze512-1-0.map")
    graph = KeyPointGraph.bake(grid)
    rng = random.Random(7)
    free = list(zip(*np.nonzero(grid.passable)))
    for blocked in (True, True, False, True):
        y, x = rng.choice(free)
        grid.set_blocked([(int(x), int(y))], blocked)
        graph.update([(int(x), int(y))])
        graph.refresh()
    assert graph == KeyPointGraph.bake(grid)


@st.composite
def field_jobs(draw):
    """A grid, and jobs of cluster_fields on it: rectangles with some of their free cells as sources and targets."""
    connectivity = draw(connectivities())
    passable = draw(maps(min_side=2, max_side=12))
    height, width = passable.shape
    cost = draw(st.none() | costs(passable.shape))
    jobs = []
    for _ in range(draw(st.integers(1, 4))):
        x, y = draw(st.integers(0, width - 1)), draw(st.integers(0, height - 1))
        w, h = draw(st.integers(1, width - x)), draw(st.integers(1, height - y))
        free = [(x + int(cx), y + int(cy)) for cy, cx in zip(*np.nonzero(passable[y : y + h, x : x + w]))]
        if free:
            sources = draw(st.lists(st.sampled_from(free), min_size=1, max_size=4, unique=True))
            jobs.append(((x, y, w, h), sources, sources))
    return passable, cost, connectivity, jobs


def distances_inside(grid: Grid, rect, source) -> dict:
    """Dijkstra from ``source`` over the moves inside ``rect``: each distance a neighbour's plus the step, in floats
    as the fields sum them (a straight or diagonal length times the cost of the cell entered)."""
    x0, y0, width, height = rect
    distance = {source: 0.0}
    heap = [(0.0, source)]
    while heap:
        reached, (x, y) = heapq.heappop(heap)
        if reached > distance[(x, y)]:
            continue
        for dx, dy in DIRECTIONS:
            onto = (x + dx, y + dy)
            if (
                x0 <= onto[0] < x0 + width
                and y0 <= onto[1] < y0 + height
                and grid.step_open((x, y), onto)
                and (grid.connectivity == 8 or not (dx and dy))
            ):
                candidate = reached + (math.sqrt(2.0) if dx and dy else 1.0) * (
                    1.0 if grid.cost is None else grid.cost[onto[1], onto[0]]
                )
                if candidate < distance.get(onto, math.inf):
                    distance[onto] = candidate
                    heapq.heappush(heap, (candidate, onto))
    return distance


@settings(max_examples=150, deadline=None)
@given(field_jobs())
def test_a_clusters_fields_depend_on_it_alone_and_their_paths_are_shortest(job_set):
    """What an update relies on to match a bake: a cluster's fields made alone equal those made in a stack with
    others. Their costs are Dijkstra's inside the rectangle, bit for bit, and each cell's direction is the first
    move (in DIRECTIONS' order) that a shortest path can end with, so that walking back costs what is stated."""
    passable, cost, connectivity, jobs = job_set
    grid = Grid(passable, cost, connectivity=connectivity)
    for job, fields in zip(jobs, cluster_fields(passable, cost, jobs, connectivity)):
        assert fields == cluster_fields(passable, cost, [job], connectivity)[0]
        rect, sources, targets = job
        x0, y0, width, height = rect
        for i, source in enumerate(sources):
            distance = distances_inside(grid, rect, source)
            assert fields.costs[i].tolist() == [distance.get(target, math.inf) for target in targets]
            for target in targets:
                if target in distance:
                    assert path_cost(
                        passable, walk_back(fields, i, target), cost, connectivity=connectivity
                    ) == pytest.approx(distance[target])
            for y in range(y0, y0 + height):
                for x in range(x0, x0 + width):
                    fitting = [
                        d for d, (dx, dy) in enumerate(DIRECTIONS)
                        if (x, y) != source and (x - dx, y - dy) in distance and (x, y) in distance
                        and (connectivity == 8 or not (dx and dy)) and grid.step_open((x - dx, y - dy), (x, y))
                        and distance[(x - dx, y - dy)]
                        + (math.sqrt(2.0) if dx and dy else 1.0) * (1.0 if cost is None else cost[y, x])
                        == distance[(x, y)]
                    ]  # fmt: skip
                    assert fields.direction[i, y - y0, x - x0] == (fitting[0] if fitting else NO_DIRECTION)


def test_save_load_round_trip_is_exact_and_deterministic(tmp_path, movingai_dir):
    grid = Grid.from_movingai(movingai_dir / "den520d.map")
    graph = KeyPointGraph.bake(grid)
    graph.save(tmp_path / "a.kpg")
    KeyPointGraph.bake(grid).save(tmp_path / "b.kpg")
    assert (tmp_path / "a.kpg").read_bytes() == (tmp_path / "b.kpg").read_bytes()
    loaded = KeyPointGraph.load(tmp_path / "a.kpg", grid)
    assert loaded == graph
    assert loaded.to_bytes() == graph.to_bytes()
    start, goal = (10, 139), (200, 60)
    assert loaded.find_path(start, goal).cells == graph.find_path(start, goal).cells


@pytest.fixture
def saved(tmp_path):
    grid = Grid.from_ascii("\n".join(["." * 12] * 9))
    path = tmp_path / "level.kpg"
    KeyPointGraph.bake(grid, cluster_size=4).save(path)
    return grid, path


def test_stale_file_is_named(saved):
    grid, path = saved
    grid.set_blocked([(5, 5)])
    with pytest.raises(StaleGraphError, match="cells differ"):
        KeyPointGraph.load(path, grid)
    with pytest.raises(StaleGraphError, match="12x9 map, the grid is 12x10"):
        KeyPointGraph.load(path, Grid.from_ascii("\n".join(["." * 12] * 10)))


@pytest.mark.parametrize(
    "damage, message",
    [
        (lambda data: data[:-30], "damaged"),
        (lambda data: data[:40] + bytes([data[40] ^ 1]) + data[41:], "damaged"),
        (lambda data: b"GDSC" + data[4:], "not a pathing_py key-point graph"),
        (lambda data: data[:10], "not a pathing_py"),
        (lambda data: b"", "not a pathing_py"),
    ],
)
def test_damaged_files_are_named(saved, damage, message):
    grid, path = saved
    path.write_bytes(damage(path.read_bytes()))
    with pytest.raises(GraphFileError, match=message):
        KeyPointGraph.load(path, grid)


def test_missing_file_is_named(tmp_path):
    with pytest.raises(GraphFileError, match="cannot read"):
        KeyPointGraph.load(tmp_path / "nope.kpg", Grid.from_ascii(".."))


def test_query_after_an_edit_without_update_is_refused(saved):
    grid, path = saved
    graph = KeyPointGraph.load(path, grid)
    grid.set_blocked([(3, 3)])
    with pytest.raises(StaleGraphError, match="graph.update"):
        graph.find_path((0, 0), (11, 8))
    graph.update([(3, 3)])
    assert graph.find_path((0, 0), (11, 8))


def test_statuses_and_arguments(saved):
    grid, path = saved
    graph = KeyPointGraph.load(path, grid)
    grid.set_blocked([(4, 0), (4, 1), (4, 2), (4, 3), (4, 4), (4, 5), (4, 6), (4, 7), (4, 8)])
    graph.update([(4, y) for y in range(9)])
    assert graph.find_path((0, 0), (11, 8)).status is PathStatus.UNREACHABLE
    assert graph.find_path((4, 0), (11, 8)).status is PathStatus.START_BLOCKED
    assert graph.find_path((0, 0), (12, 8)).status is PathStatus.OUT_OF_BOUNDS
    with pytest.raises(ValueError, match="link"):
        graph.find_path((0, 0), (1, 1), link="quick")
    with pytest.raises(TypeError, match="goal"):
        graph.find_path((0, 0), (1.5, 1))


@pytest.mark.parametrize("bad", [{"cluster_size": 1}, {"cluster_size": 3.5}, {"unit_size": 0}, {"long_run": 0}])
def test_bad_bake_parameters(bad):
    with pytest.raises(ValueError):
        KeyPointGraph.bake(Grid.from_ascii("...."), **bad)


def test_progress_is_reported():
    calls = []
    KeyPointGraph.bake(
        Grid(np.ones((40, 40), bool)), cluster_size=10, progress=lambda done, total: calls.append((done, total))
    )
    assert calls[-1] == (16, 16) and all(total == 16 for _, total in calls)


@pytest.mark.parametrize(
    "size, unit, expected",
    [(512, 1, 16), (768, 1, 12), (1024, 1, 16), (48, 1, 12), (12, 1, 12), (512, 2, 32), (1, 1, 2)],
)
def test_default_cluster_size_is_about_ten_unit_sizes(size, unit, expected):
    assert default_cluster_size(size, size, unit) == expected


def test_every_border_run_gets_key_points():
    passable = np.ones((8, 16), dtype=bool)
    passable[2, 7] = False  # splits the border between the two clusters into runs of 2 and 5
    clusters = Clusters(16, 8, 8)
    pairs = border_key_points(passable, clusters, 0, 1, long_run=4)
    assert pairs == [((7, 0), (8, 0)), ((7, 3), (8, 3)), ((7, 6), (8, 6))]
    # a run longer than long_run gets two pairs, at the middles of its halves
    passable[2, 7] = True
    assert border_key_points(passable, clusters, 0, 1, long_run=4) == [((7, 1), (8, 1)), ((7, 5), (8, 5))]


@pytest.mark.parametrize("shape", [(1, 1), (3, 3), (5, 40), (40, 5)])
@pytest.mark.parametrize("cluster_size", [None, 2, 100])
def test_tiny_and_thin_maps(shape, cluster_size):
    passable = np.ones(shape, dtype=bool) if shape != (3, 3) else np.zeros(shape, dtype=bool)
    grid = Grid(passable)
    graph = KeyPointGraph.bake(grid, cluster_size=cluster_size)
    assert KeyPointGraph.from_bytes(graph.to_bytes(), grid) == graph
    start, goal = (0, 0), (grid.width - 1, grid.height - 1)
    assert graph.find_path(start, goal).status is find_path(grid, start, goal).status


def test_landmarks_are_saved_repaired_by_updates_and_cut_the_search(movingai_dir):
    grid = Grid.from_movingai(movingai_dir / "BlackLotus.map")
    graph = KeyPointGraph.bake(grid)
    assert graph.landmarks is not None and len(graph.landmarks.nodes) == 4
    loaded = KeyPointGraph.from_bytes(graph.to_bytes(), grid)
    assert loaded.landmarks == graph.landmarks
    scenarios = sample_scenarios(grid, read_scenarios(movingai_dir / "BlackLotus.map.scen"), count=8)
    with_landmarks = [graph.find_path(s.start, s.goal, exact_first=0.0) for s in scenarios]
    graph.landmarks = None
    without = [graph.find_path(s.start, s.goal, exact_first=0.0) for s in scenarios]
    assert sum(r.expanded for r in with_landmarks) < 0.7 * sum(r.expanded for r in without)
    for a, b in zip(with_landmarks, without):  # both optimal over the same key-point graph
        assert a.status is b.status
    cell = tuple(int(v) for v in loaded.key_points()[0])
    for blocked in (True, False):
        grid.set_blocked([cell], blocked=blocked)
        loaded.update([cell])
        assert_landmarks_exact(loaded)
    assert KeyPointGraph.from_bytes(loaded.to_bytes(), grid).landmarks == loaded.landmarks


def reference_distances(graph, source):
    """Dijkstra over graph.edges() (both ways): key point (x, y) -> distance from the key point ``source``."""
    points = [tuple(p) for p in graph.key_points().tolist()]
    pairs, costs, _ = graph.edges()
    neighbours = {point: [] for point in points}
    for (i, j), cost in zip(pairs.tolist(), costs.tolist()):
        neighbours[points[i]].append((points[j], cost))
        neighbours[points[j]].append((points[i], cost))
    distance = {source: 0.0}
    heap = [(0.0, source)]
    while heap:
        reached, point = heapq.heappop(heap)
        if reached > distance[point]:
            continue
        for other, cost in neighbours[point]:
            if reached + cost < distance.get(other, math.inf):
                distance[other] = reached + cost
                heapq.heappush(heap, (reached + cost, other))
    return {point: distance.get(point, math.inf) for point in points}


def assert_landmarks_exact(graph):
    """Every landmark is a key point, and the distances kept from it are the graph's shortest distances
    (those the search uses: not those of landmarks set aside while they are measured anew)."""
    width = graph.grid.width
    landmarks = graph.landmarks
    assert landmarks is not None and landmarks.nodes
    points = [tuple(p) for p in graph.key_points().tolist()]
    assert sorted(landmarks.rows) == sorted(y * width + x for x, y in points)
    for l, (node, usable) in enumerate(zip(landmarks.nodes, landmarks.usable())):
        if not usable:
            continue
        expected = reference_distances(graph, (node % width, node // width))
        for (x, y), distance in expected.items():
            assert landmarks.distances(y * width + x)[l] == pytest.approx(distance, abs=1e-9), ((x, y), node)


@settings(max_examples=80, deadline=None)
@given(graph_maps(), st.integers(2, 7), st.data())
def test_updates_keep_the_landmark_distances_exact(grid, cluster_size, data):
    graph = KeyPointGraph.bake(grid, cluster_size=cluster_size)
    for batch, blocked in data.draw(edits(grid.width, grid.height, max_edits=6)):
        grid.set_blocked(batch, blocked)
        graph.update(batch)
        assert (graph.landmarks is None) == (KeyPointGraph.bake(grid, cluster_size=cluster_size).landmarks is None)
        if graph.landmarks is not None:
            assert_landmarks_exact(graph)


@pytest.mark.parametrize("connectivity", [8, 4])
def test_freeing_cells_on_a_benchmark_map_keeps_landmarks_exact(movingai_dir, connectivity):
    """From a loaded graph (tables filled as read), under either connectivity."""
    grid = Grid.from_movingai(movingai_dir / "den520d.map", connectivity=connectivity)
    graph = KeyPointGraph.from_bytes(KeyPointGraph.bake(grid).to_bytes(), grid)
    rng = np.random.default_rng(4)
    walls = np.argwhere(~grid.passable)
    for y, x in walls[rng.integers(0, len(walls), 6)].tolist():
        block = [(x + dx, y + dy) for dx in range(4) for dy in range(4) if grid.in_bounds((x + dx, y + dy))]
        grid.set_blocked(block, blocked=False)
        graph.update(block)
    assert_landmarks_exact(graph)
    fresh = KeyPointGraph.bake(grid)
    assert graph == fresh
    scenarios = sample_scenarios(grid, read_scenarios(movingai_dir / "den520d.map.scen"), count=20)
    assert_same_answers(graph, fresh, [(s.start, s.goal) for s in scenarios])


def test_an_edit_that_moves_the_farthest_key_point_leaves_the_choice_of_landmarks_for_later(movingai_dir):
    """Blocking (238, 206) on den520d makes a fresh bake pick another last landmark: the update only
    repairs the distances (no Dijkstra over every key point, the spike it cost), queries stay within
    their bounds meanwhile, and a save (or a comparison) picks the landmarks as the bake does."""
    grid = Grid.from_movingai(movingai_dir / "den520d.map")
    graph = KeyPointGraph.bake(grid)
    picked = list(graph.landmarks.nodes)
    grid.set_blocked([(238, 206)])
    graph.update([(238, 206)])

    def measured_anew(*_):
        raise AssertionError("the update measured a landmark's distances anew")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(landmarks_module, "_distances_from", measured_anew)
        graph.refresh()
        assert graph.landmarks.nodes == picked
        assert_landmarks_exact(graph)
        scenarios = sample_scenarios(grid, read_scenarios(movingai_dir / "den520d.map.scen"), count=10)
        for scenario in scenarios:
            ours, exact = graph.find_path(scenario.start, scenario.goal), find_path(grid, scenario.start, scenario.goal)
            assert ours.status is exact.status
            assert exact.cost - 1e-9 <= ours.cost <= 1.05 * exact.cost
    fresh = KeyPointGraph.bake(grid)
    assert fresh.landmarks.nodes != picked
    assert KeyPointGraph.from_bytes(graph.to_bytes(), grid) == fresh
    assert graph.landmarks.nodes == fresh.landmarks.nodes


def test_a_repair_over_budget_sets_the_landmark_aside(movingai_dir):
    """A repair past REPAIR_BUDGET gives up: that landmark bounds nothing (inf to the goal) while the
    others, exact, still do."""
    grid = Grid.from_movingai(movingai_dir / "den520d.map")
    graph = KeyPointGraph.bake(grid)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(landmarks_module, "REPAIR_BUDGET", 0)
        patch.setattr(landmarks_module, "ADVANCE_BUDGET", 0)
        grid.set_blocked([(238, 206)])
        graph.update([(238, 206)])
        landmarks = graph.landmarks
        assert not all(landmarks.usable())
        assert_landmarks_exact(graph)  # those still in use
        bounds = landmarks.to_goal({landmarks.nodes[0]: 0.0})
        assert [math.isfinite(bound) for bound in bounds] == landmarks.usable()


def test_a_refresh_leaves_the_landmarks_repair_to_their_next_read(movingai_dir):
    """The patch of an edit (update, refresh) does not touch the landmarks; the next query, through
    graph.landmarks, repairs them for all the edits since, exact again."""
    grid = Grid.from_movingai(movingai_dir / "den520d.map")
    graph = KeyPointGraph.bake(grid)
    rng = np.random.default_rng(2)
    free = np.argwhere(grid.passable)[:, ::-1]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(landmarks_module.Landmarks, "update", lambda *_: pytest.fail("repaired in the refresh"))
        for x, y in free[rng.integers(0, len(free), 3)].tolist():
            grid.set_blocked([(x, y)])
            graph.update([(x, y)])
            graph.refresh()
    assert_landmarks_exact(graph)
    assert graph == KeyPointGraph.bake(grid)


@settings(max_examples=40, deadline=None)
@given(graph_maps(), st.integers(2, 7), st.data())
def test_landmarks_set_aside_bound_nothing_until_measured_anew(grid, cluster_size, data):
    """With no repair budget every repair gives up: the landmarks are set aside, queries stay exact over
    the key points without them, reads measure them anew (exact again), and a save picks them as a bake."""
    graph = KeyPointGraph.bake(grid, cluster_size=cluster_size)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(landmarks_module, "REPAIR_BUDGET", 0)
        patch.setattr(landmarks_module, "ADVANCE_BUDGET", 0)
        for batch, blocked in data.draw(edits(grid.width, grid.height, max_edits=4)):
            grid.set_blocked(batch, blocked)
            graph.update(batch)
            assert graph.landmarks is None or graph.landmarks.nodes
        start, goal = data.draw(cells(grid.width, grid.height)), data.draw(cells(grid.width, grid.height))
        fresh = KeyPointGraph.bake(grid, cluster_size=cluster_size)
        # Unsmoothed, and through the key points only: both searches optimal over the same key-point graph.
        ours, theirs = (g.find_path(start, goal, smooth=False, exact_first=0) for g in (graph, fresh))
        assert ours.status is theirs.status
        if ours.status is PathStatus.FOUND:
            assert ours.cost == pytest.approx(theirs.cost)
        patch.setattr(landmarks_module, "ADVANCE_BUDGET", 3)
        while graph.landmarks is not None and not all(graph.landmarks.usable()):
            pass  # each read measures a little further
    if graph.landmarks is not None:
        assert_landmarks_exact(graph)
    assert KeyPointGraph.from_bytes(graph.to_bytes(), grid) == KeyPointGraph.bake(grid, cluster_size=cluster_size)


def test_weighted_grids_get_no_landmarks():
    grid = Grid(np.ones((20, 20), bool), np.full((20, 20), 2.0))
    assert KeyPointGraph.bake(grid, cluster_size=5).landmarks is None


def swamp_grid():
    """Open ground split by a column of swamp (cost 1000) with a dry crossing at its bottom."""
    cost = np.ones((20, 40))
    cost[:18, 20] = 1000.0
    return Grid(np.ones((20, 40), bool), cost)


@pytest.mark.parametrize("link", ["exact", "fast"])
@pytest.mark.parametrize("start, goal", [((10, 5), (30, 5)), ((17, 3), (23, 3)), ((19, 0), (21, 2))])
def test_a_clear_line_across_a_swamp_is_weighed(start, goal, link):
    grid = swamp_grid()
    graph = KeyPointGraph.bake(grid, cluster_size=8)
    result, exact = check_against_exact(graph, start, goal, link)
    assert result.cost <= 1.05 * exact.cost, (result.cost, exact.cost)


def test_a_path_inside_one_cluster_is_weighed_against_leaving_it():
    grid = Grid.from_ascii("\n".join(["." * 32] * 16 + ["........#" + "." * 23] * 15 + ["." * 32]))
    graph = KeyPointGraph.bake(grid, cluster_size=16)
    start, goal = (7, 16), (9, 16)  # a wall between them inside their cluster; around it above, outside
    inside = find_path(grid, start, goal, bounds=(0, 16, 16, 16))
    for link in ("exact", "fast"):
        result, _ = check_against_exact(graph, start, goal, link)
        assert result.cost < inside.cost / 2, (link, result.cost, inside.cost)


@settings(max_examples=60, deadline=None)
@given(graph_maps(weighted=True), st.integers(2, 7), st.data())
def test_same_cluster_answers_are_never_worse_than_staying_inside(grid, cluster_size, data):
    graph = KeyPointGraph.bake(grid, cluster_size=cluster_size)
    x0, y0 = data.draw(cells(grid.width, grid.height))
    x0, y0 = x0 // cluster_size * cluster_size, y0 // cluster_size * cluster_size
    rect = (x0, y0, min(cluster_size, grid.width - x0), min(cluster_size, grid.height - y0))
    inner = st.tuples(st.integers(x0, x0 + rect[2] - 1), st.integers(y0, y0 + rect[3] - 1))
    for start, goal in data.draw(st.lists(st.tuples(inner, inner), min_size=1, max_size=6)):
        inside = find_path(grid, start, goal, bounds=rect)
        for link in ("exact", "fast"):
            result, _ = check_against_exact(graph, start, goal, link)
            if inside:
                assert result.cost <= inside.cost + 1e-9, (start, goal, link)


def terrain(shape, seed):
    """Patches of 8x8 cells of road (1), forest (2) and swamp (5), seeded."""
    rng = np.random.default_rng(seed)
    height, width = shape
    patches = np.kron(rng.random((height // 8 + 1, width // 8 + 1)), np.ones((8, 8)))[:height, :width]
    return np.select([patches < 0.5, patches < 0.8], [1.0, 2.0], 5.0)


def test_quality_on_a_benchmark_map_with_terrain(movingai_dir):
    """The weighted quality stated in KeyPointGraph.find_path for den520d (1.2% mean, 3.6% worst), with a margin."""
    plain = Grid.from_movingai(movingai_dir / "den520d.map")
    grid = Grid(plain.passable, terrain(plain.passable.shape, 1))
    graph = KeyPointGraph.bake(grid)
    scenarios = sample_scenarios(grid, read_scenarios(movingai_dir / "den520d.map.scen"), count=12)
    ratios = []
    for scenario in scenarios:
        result, exact = check_against_exact(graph, scenario.start, scenario.goal, "exact")
        ratios.append(result.cost / exact.cost)
    assert np.mean(ratios) <= 1.02 and max(ratios) <= 1.05, ratios


def test_key_points_on_weighted_borders_take_the_cheapest_crossing():
    passable = np.ones((8, 16), dtype=bool)
    cost = np.ones((8, 16))
    cost[:, 7] = 3.0
    cost[[1, 6], 7] = 1.0  # two cheap crossings: the one nearer the middle of the run wins
    clusters = Clusters(16, 8, 8)
    assert border_key_points(passable, clusters, 0, 1, long_run=8, cost=cost) == [((7, 1), (8, 1))]
    assert border_key_points(passable, clusters, 0, 1, long_run=8) == [((7, 3), (8, 3))]


def test_smoothing_backwards_after_forwards_shortens_paths_on_a_random_map(movingai_dir):
    """Each answer is at most the forward-smoothed path, and over the sample the backward pass gains."""
    grid = Grid.from_movingai(movingai_dir / "random512-10-0.map")
    graph = KeyPointGraph.bake(grid)
    gained = 0.0
    for scenario in sample_scenarios(grid, read_scenarios(movingai_dir / "random512-10-0.map.scen"), count=24):
        result = graph.find_path(scenario.start, scenario.goal, exact_first=0.0)
        forwards = smooth_path(
            grid, graph.find_path(scenario.start, scenario.goal, smooth=False, exact_first=0.0).cells
        )
        assert result.cost <= path_cost(grid.passable, forwards) + 1e-9
        gained += path_cost(grid.passable, forwards) - result.cost
    assert gained > 1.0, gained


def test_exact_first_answers_with_the_grid_search_where_it_ends_within_its_nodes(movingai_dir):
    """den520d: with room enough the answer is the grid search's (within EXACT_FIRST_WEIGHT of the optimum, no key
    point); with none (0) or too little, the key points' as before, the nodes tried counted in ``expanded``."""
    grid = Grid.from_movingai(movingai_dir / "den520d.map")
    graph = KeyPointGraph.bake(grid)
    scenarios = sample_scenarios(grid, read_scenarios(movingai_dir / "den520d.map.scen"), count=8, seed=3)
    through_key_points = 0
    for scenario in scenarios:
        exact = find_path(grid, scenario.start, scenario.goal)
        first = graph.find_path(scenario.start, scenario.goal, exact_first=1000.0)
        assert exact.cost - 1e-9 <= first.cost <= EXACT_FIRST_WEIGHT * exact.cost + 1e-9  # (or the line)
        # The route: the ends, and the cells on either side of each border crossed, in path order (units aim for them).
        cells, last = first.cells, len(first.cells) - 1
        crossed = [i for i in range(last) if graph.clusters.of(cells[i]) != graph.clusters.of(cells[i + 1])]
        if not line_of_sight(grid, scenario.start, scenario.goal):  # the line's route is its ends
            assert first.route == [
                cells[0],
                *(cells[j] for i in crossed for j in (i, i + 1) if 0 < j < last),
                cells[-1],
            ]
        plain = graph.find_path(scenario.start, scenario.goal, exact_first=0.0)
        starved = graph.find_path(
            scenario.start, scenario.goal, exact_first=1e-9
        )  # one node: a search with a turn gives up
        assert starved.cells == plain.cells and starved.route == plain.route
        if len(plain.route) > 2:
            through_key_points += 1
            assert starved.expanded == plain.expanded + 1
    assert through_key_points >= 4


def test_the_first_try_on_a_cluttered_map_is_weighted(movingai_dir):
    """random512-10-0: the grid search tried first follows one path (weighted), where the exact search searches a
    band around it: fewer nodes than the exact search, paths within EXACT_FIRST_WEIGHT of the optimum."""
    grid = Grid.from_movingai(movingai_dir / "random512-10-0.map")
    graph = KeyPointGraph.bake(grid)
    scenarios = sample_scenarios(grid, read_scenarios(movingai_dir / "random512-10-0.map.scen"), count=24)[12:]
    results = [graph.find_path(s.start, s.goal) for s in scenarios]
    for scenario, result in zip(scenarios, results):
        assert result.cost <= EXACT_FIRST_WEIGHT * scenario.optimal_length + 1e-3
    exact = [find_path(grid, s.start, s.goal) for s in scenarios]
    assert sum(r.expanded for r in results) < sum(r.expanded for r in exact) / 2


@settings(max_examples=100, deadline=None)
@given(maps(max_side=20, max_walls=0.4), connectivities(), st.sampled_from([0.0, 0.5, 2.0, 50.0]), st.data())
def test_exact_first_paths_are_valid_and_the_grid_searchs_when_it_fits(passable, connectivity, exact_first, data):
    """Valid either way; the weighted grid search's (within EXACT_FIRST_WEIGHT of the shortest) whenever it needs no
    more nodes than it is given."""
    grid = Grid(passable, connectivity=connectivity)
    graph = KeyPointGraph.bake(grid, cluster_size=4)
    start, goal = data.draw(cells(grid.width, grid.height)), data.draw(cells(grid.width, grid.height))
    result, exact = check_against_exact(graph, start, goal, "exact")
    first = graph.find_path(start, goal, exact_first=exact_first)
    assert first.status is exact.status
    if first:
        assert path_cost(passable, first.cells, connectivity=connectivity) == pytest.approx(first.cost)
        assert first.cost >= exact.cost - 1e-9
        weighted = find_path(grid, start, goal, weight=EXACT_FIRST_WEIGHT)
        if exact_first > 0 and weighted.expanded <= max(1, int(exact_first * grid_distance(start, goal, connectivity))):
            assert first.cost <= EXACT_FIRST_WEIGHT * exact.cost + 1e-9
            assert first.cost == pytest.approx(weighted.cost) or first.cost == pytest.approx(exact.cost)  # or the line


@pytest.mark.parametrize("bad", [-1.0, math.nan, math.inf, True, "2"])
def test_exact_first_must_be_a_finite_number_of_nodes(saved, bad):
    grid, path = saved
    graph = KeyPointGraph.load(path, grid)
    with pytest.raises(ValueError, match="exact_first"):
        graph.find_path((0, 0), (11, 8), exact_first=bad)


@given(st.builds(Grid, mazes()).filter(lambda grid: grid.width >= 9 and grid.height >= 9))
def test_the_graph_answers_a_maze_from_the_exact_search_which_climbs_its_trees(grid):
    """On a maze the exact search climbs the dead-end trees with next to no search (pathing_py/dead_ends.py), so the
    graph answers from it as on any map (maze512-1-0: 7.14 ms a query through the key points, 0.61 so)."""
    graph = KeyPointGraph.bake(grid, cluster_size=4)
    start, goal = (0, 0), (grid.width - 1, grid.height - 1)
    result, exact = graph.find_path(start, goal), find_path(grid, start, goal)
    assert (result.cells, result.cost, result.expanded) == (exact.cells, exact.cost, exact.expanded)
