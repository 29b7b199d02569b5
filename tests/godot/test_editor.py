"""pathing_py.godot.editor: the graph file's name, the bake the editor watches, and the drawing over the map."""

import threading
import time

import numpy as np
import pytest

from pathing_py import Grid, KeyPointGraph
from pathing_py.cell_layout import CellLayout
from pathing_py.godot.bridge import TileFrame
from pathing_py.godot.editor import BakeJob, graph_drawing, graph_file_for_scene
from pathing_py.hierarchy import HexKeyPointGraph

# -- file naming --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "scene, graph_file",
    [
        ("res://scenes/demo.tscn", "res://scenes/demo.kpg"),
        ("res://demo.scn", "res://demo.kpg"),
        ("res://levels/v1.2/castle.tscn", "res://levels/v1.2/castle.kpg"),
    ],
)
def test_the_graph_goes_next_to_its_scene(scene, graph_file):
    assert graph_file_for_scene(scene) == graph_file


@pytest.mark.parametrize(
    "scene, message",
    [
        ("", "Save the scene first"),
        ("/home/me/game/demo.tscn", "is not a scene file of the project"),
        ("res://icon.png", "is not a scene file of the project"),
        ("res://levels/.tscn", "is not a scene file of the project"),
        ("res://levels/", "is not a scene file of the project"),
    ],
)
def test_graph_file_for_scene_explains_what_it_cannot_name(scene, message):
    with pytest.raises(ValueError, match=message):
        graph_file_for_scene(scene)


# -- baking -------------------------------------------------------------------------------------

MAP = """
....#.......
....#...##..
....#.......
........#...
####.####...
........#...
"""


@pytest.fixture
def grid() -> Grid:
    return Grid.from_ascii(MAP)


def test_bake_job_saves_what_a_bake_saves(grid, tmp_path):
    """The editor's bake writes the same bytes as KeyPointGraph.bake(...).save(...), as the CLI does."""
    path = tmp_path / "level.kpg"
    job = BakeJob(grid, str(path), graph_file="res://level.kpg", cluster_size=4)
    job.run()
    assert job.finished() and job.fraction() == 1.0
    outcome = job.outcome()
    expected = KeyPointGraph.bake(grid, cluster_size=4)
    assert outcome.graph == expected
    assert path.read_bytes() == expected.to_bytes()
    _pairs, _costs, inside = expected.edges()
    assert outcome.message.startswith(
        f"Baked 6 clusters of 4 cells, {len(expected.key_points())} key points, {inside.sum()} edges inside "
        f"clusters and {(~inside).sum()} across borders in "
    )
    assert outcome.message.endswith(" s: res://level.kpg")


def test_bake_job_bakes_a_hex_graph_for_a_half_offset_layout(grid, tmp_path):
    """Given a half-offset TileMap's layout the editor's bake writes its HexKeyPointGraph, which loads for it."""
    layout = CellLayout(x_axis=(82.0, 0.0), y_axis=(0.0, 94.0), offset_axis=1, shift=0.5)
    path = tmp_path / "hex.kpg"
    job = BakeJob(grid, str(path), graph_file="res://hex.kpg", cluster_size=4, layout=layout)
    job.run()
    expected = HexKeyPointGraph.bake(grid, layout, cluster_size=4)
    assert job.outcome().graph == expected and path.read_bytes() == expected.to_bytes()
    assert HexKeyPointGraph.load(path, grid, layout) == expected


def test_bake_job_in_memory_names_no_file(grid):
    job = BakeJob(grid, cluster_size=4)
    job.run()
    assert job.outcome().graph == KeyPointGraph.bake(grid, cluster_size=4)
    assert job.outcome().message.endswith(" s")


def wait_for(condition, timeout: float = 10.0) -> None:
    """Poll as the node does from _process."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.001)


def test_bake_job_reports_progress_while_its_thread_runs(grid, monkeypatch):
    """The callback's (done, total) reaches fraction() while the bake is still running on its thread."""
    steps = [threading.Event(), threading.Event()]
    real_bake = KeyPointGraph.bake

    def paced_bake(grid, *, cluster_size=None, progress=None):
        progress(1, 4)
        steps[0].wait(10)
        progress(3, 4)
        steps[1].wait(10)
        return real_bake(grid, cluster_size=cluster_size, progress=progress)

    monkeypatch.setattr(KeyPointGraph, "bake", staticmethod(paced_bake))
    job = BakeJob(grid, cluster_size=4)
    assert job.fraction() == 0.0 and not job.finished()
    job.start()
    wait_for(lambda: job.fraction() == 0.25)
    assert not job.finished()
    with pytest.raises(RuntimeError, match="has not finished"):
        job.outcome()
    steps[0].set()
    wait_for(lambda: job.fraction() == 0.75)
    steps[1].set()
    wait_for(job.finished)
    assert job.fraction() == 1.0 and job.outcome().graph == real_bake(grid, cluster_size=4)


def test_bake_job_progress_follows_the_real_bake(grid, monkeypatch):
    seen = []
    real_bake = KeyPointGraph.bake

    def watched_bake(grid, *, cluster_size=None, progress=None):
        def watch(done, total):
            progress(done, total)
            seen.append(job.fraction())

        return real_bake(grid, cluster_size=cluster_size, progress=watch)

    monkeypatch.setattr(KeyPointGraph, "bake", staticmethod(watched_bake))
    job = BakeJob(grid, cluster_size=2)
    job.start()
    wait_for(job.finished)
    assert seen and seen == sorted(seen) and seen[-1] == 1.0  # the bake calls back once per batch of fields


@pytest.mark.parametrize(
    "file_name, cluster_size, message",
    [
        ("missing-folder/level.kpg", 4, "Bake failed: FileNotFoundError"),
        ("level.kpg", 1, "Bake failed: ValueError: cluster_size must be an int >= 2"),
    ],
)
def test_a_failed_bake_ends_in_its_outcome_not_in_the_thread(grid, tmp_path, file_name, cluster_size, message):
    job = BakeJob(grid, str(tmp_path / file_name), graph_file="res://level.kpg", cluster_size=cluster_size)
    job.start()
    wait_for(job.finished)
    outcome = job.outcome()
    assert outcome.graph is None and outcome.message.startswith(message)
    assert job.fraction() == 1.0


# -- drawing ------------------------------------------------------------------------------------


def test_graph_drawing_outlines_each_cluster_in_tilemap_pixels(grid):
    graph = KeyPointGraph.bake(grid, cluster_size=4)
    frame = TileFrame((16.0, 8.0), origin=(-3, -2))
    drawing = graph_drawing(graph, frame)
    assert len(drawing.clusters) == 8 * len(graph.cluster_rects())  # 4 sides, 2 ends each
    # the first cluster, grid cells (0, 0)-(3, 3), is TileMap cells (-3, -2)-(0, 1)
    assert drawing.clusters[:8] == [
        (-48.0, -16.0),
        (16.0, -16.0),
        (16.0, -16.0),
        (16.0, 16.0),
        (16.0, 16.0),
        (-48.0, 16.0),
        (-48.0, 16.0),
        (-48.0, -16.0),
    ]
    outlines = np.array(drawing.clusters).reshape(-1, 8, 2)
    for (x, y, width, height), outline in zip(graph.cluster_rects(), outlines):
        left, top = (x - 3) * 16.0, (y - 2) * 8.0
        assert outline.min(axis=0).tolist() == [left, top]
        assert outline.max(axis=0).tolist() == [left + width * 16.0, top + height * 8.0]


def test_graph_drawing_joins_key_point_centres_by_their_edges(grid):
    graph = KeyPointGraph.bake(grid, cluster_size=4)
    frame = TileFrame((16.0, 8.0), origin=(-3, -2))
    drawing = graph_drawing(graph, frame)
    centres = frame.grid_centres(graph.key_points().tolist())
    pairs, _costs, inside = graph.edges()
    expected = [[centres[a], centres[b]] for a, b in pairs]
    assert drawing.inside_edges == [end for edge, is_inside in zip(expected, inside) if is_inside for end in edge]
    assert drawing.border_edges == [end for edge, is_inside in zip(expected, inside) if not is_inside for end in edge]
    assert drawing.border_edges and drawing.inside_edges
    for a, b in zip(drawing.border_edges[::2], drawing.border_edges[1::2]):  # facing cells across a border
        assert max(abs(a[0] - b[0]) / 16.0, abs(a[1] - b[1]) / 8.0) == 1.0


def test_graph_drawing_crosses_each_key_point(grid):
    graph = KeyPointGraph.bake(grid, cluster_size=4)
    frame = TileFrame((16.0, 16.0))
    drawing = graph_drawing(graph, frame, cross_size=0.25)
    crosses = np.array(drawing.key_points).reshape(-1, 4, 2)
    assert len(crosses) == len(graph.key_points())
    centres = np.array(frame.grid_centres(graph.key_points().tolist()))
    np.testing.assert_allclose(crosses.mean(axis=1), centres)
    np.testing.assert_allclose(np.abs(crosses - centres[:, None, :]), 4.0)  # a quarter cell each way


def test_graph_drawing_gives_plain_floats_for_vector2(grid):
    drawing = graph_drawing(KeyPointGraph.bake(grid, cluster_size=4), TileFrame((16, 16)))
    for segments in (drawing.clusters, drawing.inside_edges, drawing.border_edges, drawing.key_points):
        assert len(segments) % 2 == 0
        assert all(type(point) is tuple and all(type(v) is float for v in point) for point in segments)


def test_graph_drawing_of_a_map_without_borders():
    grid = Grid.from_ascii("....\n....\n")
    drawing = graph_drawing(KeyPointGraph.bake(grid, cluster_size=4), TileFrame((16, 16)))
    assert len(drawing.clusters) == 8
    assert drawing.inside_edges == drawing.border_edges == drawing.key_points == []
