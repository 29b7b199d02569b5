"""The editor's half of the key-point graph (SPEC E3), in plain Python: no engine needed.

The NavGrid node bakes its TileMap's key-point graph when the editor plugin's
"Bake key-point graph" button asks it to, and draws the graph over the map
when ``show_graph`` is on. Everything that can be decided without Godot is
decided here, where CPython tests reach it: where the file goes
(:func:`graph_file_for_scene`), baking on a worker thread with progress and
one line of outcome (:class:`BakeJob`), and the line segments to draw
(:func:`graph_drawing`, made of :func:`rect_outlines` and :func:`point_crosses`,
which the run-time debug drawing of :mod:`pathing_py.godot.debug_drawing` uses too).

Quick start, with a grid read from a TileMap whose cells are 16 pixels wide::

    >>> from pathing_py import Grid
    >>> from pathing_py.godot.bridge import TileFrame
    >>> from pathing_py.godot.editor import BakeJob, graph_drawing, graph_file_for_scene
    >>> graph_file_for_scene("res://levels/castle.tscn")
    'res://levels/castle.kpg'
    >>> grid = Grid.from_ascii('''
    ... ........
    ... ...#....
    ... ........
    ... ........
    ... ''')
    >>> job = BakeJob(grid, cluster_size=4)
    >>> job.run()                        # the editor calls job.start() instead: same work, on a thread
    >>> job.fraction(), job.finished()
    (1.0, True)
    >>> drawing = graph_drawing(job.outcome().graph, TileFrame((16, 16)))
    >>> drawing.clusters[:2]             # the first cluster's top side, in TileMap-local pixels
    [(0.0, 0.0), (64.0, 0.0)]
"""

import threading
import time
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import List, Optional

import numpy as np

from ..cell_layout import CellLayout
from ..grid import Grid
from ..hierarchy import KeyPointGraph
from .bridge import Position, TileFrame, bake_graph, positions

__all__ = [
    "GRAPH_SUFFIX",
    "BakeJob",
    "BakeOutcome",
    "GraphDrawing",
    "graph_drawing",
    "graph_file_for_scene",
    "point_crosses",
    "rect_outlines",
]

#: Suffix of baked key-point graphs; the export presets' include filter packs ``*.kpg``.
GRAPH_SUFFIX = ".kpg"

#: Scene files a graph can be baked next to.
SCENE_SUFFIXES = (".tscn", ".scn")

_RES = "res://"


def graph_file_for_scene(scene_path: str) -> str:
    """Where the graph of a scene's NavGrid goes: next to the scene, ``<scene name>.kpg``.

    Raises ValueError, with a message for the editor, for an unsaved scene (no
    path) or a path outside the project.
    """
    scene_path = str(scene_path)
    if not scene_path:
        raise ValueError("Save the scene first: its key-point graph is written next to it.")
    relative = PurePosixPath(scene_path[len(_RES) :])
    if not scene_path.startswith(_RES) or relative.suffix not in SCENE_SUFFIXES or relative.name == relative.suffix:
        raise ValueError(f"{scene_path!r} is not a scene file of the project (res://….tscn)")
    return _RES + str(relative.with_suffix(GRAPH_SUFFIX))


# -- baking ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BakeOutcome:
    """How a bake ended: the graph (None if it failed) and one line for the editor."""

    graph: Optional[KeyPointGraph]
    message: str


class BakeJob:
    """Bake a grid's key-point graph, and save it, where the editor can watch it.

    A big map takes seconds to bake. :meth:`start` runs :meth:`run` on a
    worker thread, so the editor keeps drawing while the node polls
    :meth:`fraction` and :meth:`finished` once a frame. pythonscript releases
    the GIL whenever the engine runs, so the thread gets the time between
    frames. The job only touches Python objects (the grid is not edited
    during the bake: the node reads a new one from its TileMap each time).

    Parameters
    ----------
    grid : Grid
        The grid to bake.
    file_path : str, optional
        Where to save the graph (an OS path: ``ProjectSettings.globalize_path``
        of the ``res://`` one); not saved when None.
    graph_file : str
        The file's ``res://`` path, which the outcome's message names.
    cluster_size : int, optional
        Cluster side in cells; None lets the bake choose.
    layout : CellLayout, optional
        Where the cells lie: a half-offset TileMap's layout bakes a hex graph (:func:`.bridge.bake_graph`).
    """

    def __init__(
        self,
        grid: Grid,
        file_path: Optional[str] = None,
        *,
        graph_file: str = "",
        cluster_size: Optional[int] = None,
        layout: Optional[CellLayout] = None,
    ):
        self.grid = grid
        self.layout = layout
        self.file_path = file_path
        self.graph_file = graph_file
        self.cluster_size = cluster_size
        self._counts = (0, 0)  # (done, total) from the bake's progress callback: one tuple, read whole
        self._outcome: Optional[BakeOutcome] = None
        self._thread = threading.Thread(target=self.run, name="pathing_py bake", daemon=True)

    def start(self) -> None:
        """Bake on a worker thread (a daemon: closing the editor does not wait for it)."""
        self._thread.start()

    def run(self) -> None:
        """Bake and save now, in this thread; every failure ends in the outcome, never in an exception."""
        started = time.perf_counter()
        try:
            graph = bake_graph(self.grid, self.layout, cluster_size=self.cluster_size, progress=self._progress)
            if self.file_path is not None:
                graph.save(self.file_path)
        except Exception as error:  # the thread's edge: whatever went wrong must reach the editor
            self._outcome = BakeOutcome(None, f"Bake failed: {type(error).__name__}: {error}")
            return
        seconds = time.perf_counter() - started
        _pairs, _costs, inside = graph.edges()
        where = f": {self.graph_file}" if self.graph_file else ""
        self._outcome = BakeOutcome(
            graph,
            f"Baked {len(graph.cluster_rects())} clusters of {graph.cluster_size} cells, "
            f"{len(graph.key_points())} key points, {int(inside.sum())} edges inside clusters and "
            f"{int((~inside).sum())} across borders in {seconds:.1f} s{where}",
        )

    def _progress(self, done: int, total: int) -> None:
        self._counts = (done, total)

    def fraction(self) -> float:
        """How much of the bake is done, from 0.0 to 1.0 (1.0 once finished, failed or not)."""
        if self._outcome is not None:
            return 1.0
        done, total = self._counts
        return min(done / total, 1.0) if total > 0 else 0.0

    def finished(self) -> bool:
        return self._outcome is not None

    def outcome(self) -> BakeOutcome:
        if self._outcome is None:
            raise RuntimeError("the bake has not finished: poll finished() first")
        return self._outcome


# -- drawing -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class GraphDrawing:
    """The graph as line segments in TileMap-local pixels, for ``CanvasItem.draw_multiline``.

    Each list holds segment ends in pairs: ``clusters`` the outlines of the
    clusters, ``inside_edges`` and ``border_edges`` straight lines between the
    key points an edge joins (inside one cluster / across a border), and
    ``key_points`` a small cross on each key point.
    """

    clusters: List[Position]
    inside_edges: List[Position]
    border_edges: List[Position]
    key_points: List[Position]


#: The four sides of a rectangle as corner pairs, corners numbered (x0, y0), (x1, y0), (x1, y1), (x0, y1).
_OUTLINE = np.array([0, 1, 1, 2, 2, 3, 3, 0])
#: A cross's two strokes, as offsets from its centre in units of its arm.
_CROSS = np.array([[-1.0, -1.0], [1.0, 1.0], [-1.0, 1.0], [1.0, -1.0]])


def rect_outlines(rects, frame: TileFrame) -> List[Position]:
    """The four sides of each grid rectangle ``(x, y, width, height)`` (cells, fractions allowed) as
    segment ends in pairs, in TileMap-local pixels: on an isometric TileMap, the parallelograms they cover."""
    rects = np.asarray(rects, dtype=np.float64).reshape(-1, 4)
    x0, y0 = rects[:, 0], rects[:, 1]
    x1, y1 = x0 + rects[:, 2], y0 + rects[:, 3]
    corners = np.stack([np.stack(pair, axis=1) for pair in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))], axis=1)
    return positions(frame.grid_to_pixels(corners[:, _OUTLINE]))


def point_crosses(points, arm: float, frame: TileFrame) -> List[Position]:
    """A small diagonal cross on each grid point (cells), ``arm`` cells from its centre to each tip, as
    segment ends in pairs in TileMap-local pixels."""
    centres = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    return positions(frame.grid_to_pixels(centres[:, None, :] + float(arm) * _CROSS[None, :, :]))


def graph_drawing(graph: KeyPointGraph, frame: TileFrame, *, cross_size: float = 0.3) -> GraphDrawing:
    """What the editor draws of ``graph`` over a TileMap whose cells ``frame`` maps to pixels.

    ``cross_size`` is the half-width of a key point's cross, in cells.
    """
    centres = np.asarray(graph.key_points(), dtype=np.float64).reshape(-1, 2) + 0.5
    pairs, _costs, inside = graph.edges()
    pairs = np.asarray(pairs, dtype=np.intp).reshape(-1, 2)
    inside = np.asarray(inside, dtype=bool)
    ends = centres[pairs]  # (E, 2 ends, 2 coordinates)
    return GraphDrawing(
        clusters=rect_outlines(graph.cluster_rects(), frame),
        inside_edges=positions(frame.grid_to_pixels(ends[inside])),
        border_edges=positions(frame.grid_to_pixels(ends[~inside])),
        key_points=point_crosses(centres, cross_size, frame),
    )
