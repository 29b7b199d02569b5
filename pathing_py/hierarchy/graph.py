"""The key-point graph: baked once, queried by every unit, patched when the map changes (SPEC H1–H6).

Quick start::

    >>> from pathing_py import Grid, KeyPointGraph
    >>> grid = Grid.from_ascii('''
    ... ..........#.........
    ... ..........#.........
    ... ..........#.........
    ... ....................
    ... ..........#.........
    ... ''')
    >>> graph = KeyPointGraph.bake(grid, cluster_size=5)
    >>> result = graph.find_path((0, 0), (19, 0))
    >>> result.status.name, round(result.cost, 3), result.route[0], result.route[-1]
    ('FOUND', 21.485, (0, 0), (19, 0))

The graph follows its grid's connectivity: on a 4-connected grid the paths
inside clusters, the links, lines and estimates take straight steps only.

The bake is a pipeline of named steps, each its own module: partition
(:mod:`.partition`) → key points (:mod:`.entrances`) → connect inside clusters
(:mod:`.fields`) → save (:mod:`.storage`). A query links start and goal to
the key points of their clusters, searches the graph of key points with A*,
and refines the route into cells from the paths the bake kept.
"""

import math
import numbers
from heapq import heappop, heappush
from itertools import chain
from pathlib import Path
from typing import Callable, Dict, Iterable, List, MutableMapping, Optional, Sequence, Set, Tuple, Union

import numpy as np

from ..dead_ends import worth_peeling
from ..grid import Cell, Grid
from ..jump_tables import pad
from ..line import clear_lines, line_cells, line_of_sight, path_cost, smooth_path
from ..search import (
    TIE_BREAK,
    PathResult,
    PathStatus,
    answer_without_search,
    as_cell,
    diagonal_saving,
    find_path,
    grid_distance,
)
from .contraction import CORE, Contraction
from .entrances import DEFAULT_LONG_RUN, borders_key_points
from .fields import ClusterFields, Job, cluster_fields, single_field, walk_back
from .landmarks import LANDMARK_COUNT, Landmarks
from .partition import Clusters, default_cluster_size
from .storage import GraphData, StaleGraphError, graph_bytes, graph_from_bytes, read_graph, write_graph

__all__ = ["EXACT_FIRST", "EXACT_FIRST_WEIGHT", "GraphPathResult", "KeyPointGraph", "LINK_MODES"]

Progress = Callable[[int, int], None]

#: How start and goal join the graph: "exact" to every key point of their cluster with
#: real costs (the quality mode), "fast" to the nearest key point only (the seed's way).
LINK_MODES = ("exact", "fast")

#: ``find_path``'s exact_first, in expanded nodes a cell of distance: where the exact search ends within it, it beats
#: the key points (bench/bench_hierarchy.py --exact-first; random512-10-0 needs the most of the benchmark maps).
#: On a maze it climbs the dead-end trees (:mod:`pathing_py.dead_ends`) with next to no search,
#: faster than the key points there (docs/benchmarks.md has the figures).
EXACT_FIRST = 20.0

#: The weight of that first try (:func:`~pathing_py.find_path`'s ``weight``): its path is at most this many times
#: the shortest, within the graph's bounds (1.01 on average, 1.05 at worst; a larger weight brings the mean of long
#: paths on a cluttered map close to 1.01). On cluttered maps, where every path is a few percent longer than the
#: octile estimate, a weight of about that much lets the search follow one path instead of searching a band around
#: it, and end within the budget where the exact search would not.
EXACT_FIRST_WEIGHT = 1.02

#: Fields relaxed together in one numpy stack: bounds memory and gives the progress
#: callback its steps. A stack that fits the caches bakes faster than a smaller or a larger one.
FIELDS_PER_BATCH = 1024


def bake_parameters(grid: Grid, cluster_size: Optional[int], unit_size: int, long_run: int) -> int:
    """Check :meth:`KeyPointGraph.bake`'s arguments (TypeError or ValueError naming the bad one); the cluster
    size, the default one if None."""
    if not isinstance(grid, Grid):
        raise TypeError(f"grid must be a Grid, got {type(grid).__name__}")
    if cluster_size is None:
        cluster_size = default_cluster_size(grid.width, grid.height, unit_size)
    for name, value, least in (
        ("cluster_size", cluster_size, 2),
        ("unit_size", unit_size, 1),
        ("long_run", long_run, 1),
    ):
        if not isinstance(value, int) or isinstance(value, bool) or value < least:
            raise ValueError(f"{name} must be an int >= {least}, got {value!r}")
    return cluster_size


def query_options(link: str, exact_first: Optional[float]) -> float:
    """Check :meth:`KeyPointGraph.find_path`'s ``link`` and ``exact_first`` (ValueError naming the bad one);
    ``exact_first``, :data:`EXACT_FIRST` if None."""
    if link not in LINK_MODES:
        raise ValueError(f"link must be one of {LINK_MODES}, got {link!r}")
    if exact_first is None:
        exact_first = EXACT_FIRST
    if isinstance(exact_first, bool) or not isinstance(exact_first, numbers.Real) or not 0.0 <= exact_first < math.inf:
        raise ValueError(f"exact_first must be a number of nodes per cell, 0 or more and finite, got {exact_first!r}")
    return exact_first


class GraphPathResult(PathResult):
    """A :class:`~pathing_py.PathResult` that also lists the key points passed (``route``), start and goal included."""

    __slots__ = ("route",)

    def __init__(self, status: PathStatus, cells=(), cost: float = math.inf, expanded: int = 0, route=()):
        super().__init__(status, cells, cost, expanded)
        self.route: List[Cell] = list(route)


class KeyPointGraph:
    """Clusters, key points on their borders, and the paths between key points of each cluster.

    Build it with :meth:`bake` or :meth:`load`, never directly.
    """

    def __init__(self, grid: Grid, clusters: Clusters, unit_size: int, long_run: int):
        self.grid = grid
        self.clusters = clusters
        self.unit_size = unit_size
        self.long_run = long_run
        # The tables below, read through properties that first do the work :meth:`update` left (:meth:`refresh`).
        self._entrances: MutableMapping[Tuple[int, int], List[Tuple[Cell, Cell]]] = {}
        self._members: MutableMapping[int, List[Cell]] = {}
        self._fields: MutableMapping[int, ClusterFields] = {}
        self._landmarks: Optional[Landmarks] = None
        #: Edges of the key points refreshes re-baked since the landmarks were last repaired, as they were
        #: then (None: made since); None when there is nothing to repair (see :meth:`_repair_landmarks`).
        self._landmark_edges: Optional[Dict[int, Optional[tuple]]] = None
        #: Edges out of each key point, filled in as searches reach them.
        self._neighbours: Dict[int, Tuple[tuple, tuple]] = {}
        #: Clusters holding cells edited since the last :meth:`refresh`.
        self._edited: Set[int] = set()
        #: The dead ends (:mod:`.contraction`) of the graph at version ``[0]``, and the edges of each key
        #: point split by them; whether the map at version ``[0]`` is narrow enough for them to pay.
        self._contraction: Optional[Tuple[int, Contraction, Dict[int, Tuple[tuple, tuple, tuple, tuple]]]] = None
        self._narrow: Optional[Tuple[int, bool]] = None
        self.version = grid.version

    @property
    def entrances(self) -> MutableMapping[Tuple[int, int], List[Tuple[Cell, Cell]]]:
        """Key-point pairs facing each other across each border (a, b) of clusters."""
        self.refresh()
        return self._entrances

    @property
    def members(self) -> MutableMapping[int, List[Cell]]:
        """The key points of each cluster, sorted by (y, x). A loaded graph's tables (these, the entrances
        and the fields) fill as they are read (see :class:`.LazyTable`)."""
        self.refresh()
        return self._members

    @property
    def fields(self) -> MutableMapping[int, ClusterFields]:
        """The fields from each key point of each cluster."""
        self.refresh()
        return self._fields

    @property
    def landmarks(self) -> Optional[Landmarks]:
        """The search's landmark heuristic; None on weighted grids. Updates repair its distances; the
        landmarks are picked again as :meth:`bake` would by :meth:`prepare`, a save or a comparison
        (see :mod:`.landmarks`)."""
        self.refresh()
        self._repair_landmarks()
        if self._landmarks is not None:
            self._landmarks.advance(self._all_edges)
        return self._landmarks

    @landmarks.setter
    def landmarks(self, landmarks: Optional[Landmarks]) -> None:
        self.refresh()
        self._landmarks = landmarks
        self._landmark_edges = None

    @property
    def cluster_size(self) -> int:
        return self.clusters.size

    # -- bake ---------------------------------------------------------------------

    @classmethod
    def bake(
        cls,
        grid: Grid,
        *,
        cluster_size: Optional[int] = None,
        unit_size: int = 1,
        long_run: int = DEFAULT_LONG_RUN,
        progress: Optional[Progress] = None,
    ) -> "KeyPointGraph":
        """Bake the graph of ``grid``.

        Parameters
        ----------
        cluster_size : int, optional
            Side of a cluster in cells (>= 2). By default the map is halved
            until a cluster is about ten unit sizes wide.
        unit_size : int
            Side of the units in cells; sets the default cluster size.
        long_run : int
            Border runs longer than this get two key points instead of one.
        progress : callable(done, total), optional
            Told how many clusters are connected, for progress bars.
        """
        cluster_size = bake_parameters(grid, cluster_size, unit_size, long_run)
        graph = cls(grid, Clusters(grid.width, grid.height, cluster_size), unit_size, long_run)
        graph._bake_all(progress)
        return graph

    def _bake_all(self, progress: Optional[Progress]) -> None:
        """Key points, fields and landmarks of every cluster (a new graph's bake)."""
        self._rebake(range(len(self.clusters)), self.clusters.borders(), progress)
        if self.grid.cost is None:
            self._choose_landmarks()

    def _choose_landmarks(self) -> None:
        width = self.grid.width
        nodes = [y * width + x for x, y in self.key_points().tolist()]
        self._landmarks = Landmarks.choose(nodes, self._all_edges)

    def update(self, changed_cells: Iterable[Cell]) -> None:
        """Follow edits already made to the grid: re-bake only what they can have changed.

        The clusters holding changed cells are connected again, with the borders
        they share; a neighbour is connected again when its key points moved;
        the landmarks' distances are repaired. That work waits until the graph
        is next read (a query, a save, or :meth:`refresh`), so that the updates
        of many edits between two queries, say those of one frame, cost one
        refresh. The result equals a fresh bake of the edited grid, once the
        landmarks are picked again (:meth:`prepare` or a save does it; queries
        keep their bounds before, see :mod:`.landmarks`).
        """
        cells = [as_cell(cell, "changed cell") for cell in changed_cells]
        for cell in cells:
            if not self.grid.in_bounds(cell):
                raise ValueError(f"changed cell {cell} lies outside the {self.grid.width}x{self.grid.height} grid")
        self._edited.update(self.clusters.of(cell) for cell in cells)
        self.version = self.grid.version

    def refresh(self) -> None:
        """Do now what :meth:`update` left for the graph's next read (say, at the end of a frame that
        edited the map)."""
        if not self._edited:
            return
        clusters, self._edited = self._edited, set()  # first, so that reading the tables below does not come back here
        borders = {border for cluster in clusters for border in self.clusters.borders_of(cluster)}
        touched = clusters | {cluster for border in borders for cluster in border}
        landmarks_follow = self.grid.cost is None  # weighted grids have none
        if landmarks_follow:
            self._note_edges(self._nodes_of(touched))
        self._rebake(clusters, borders)
        if landmarks_follow:
            self._note_edges(self._nodes_of(touched))

    def _note_edges(self, nodes: Set[int]) -> None:
        """Remember, for the landmarks' repair, the edges ``nodes`` had when the landmarks were last
        repaired: those they have now, None for key points made since (first seen after a re-bake)."""
        seen = self._landmark_edges
        if seen is None:
            seen = self._landmark_edges = {}
        if self._landmarks is None:  # chosen afresh at the repair: no edges to compare
            return
        for node in nodes - seen.keys():
            seen[node] = self._all_edges(node) if node in self._landmarks.rows else None

    def _repair_landmarks(self) -> None:
        """Bring the landmarks' distances up to the graph that refreshes since the last repair left:
        the key points whose edges differ, and those taken away or made, tell the repair where to
        look (see :meth:`.Landmarks.update`). Their bound holds only for the graph they were measured
        on: a query reads them through :attr:`landmarks`, which repairs them first."""
        seen, self._landmark_edges = self._landmark_edges, None
        if seen is None:
            return
        width = self.grid.width
        now = self._nodes_of({self.clusters.of((node % width, node // width)) for node in seen}) & seen.keys()
        removed = {node for node, edges in seen.items() if edges is not None and node not in now}
        added = {node for node, edges in seen.items() if edges is None and node in now}
        changed = {node for node in now if seen[node] != self._all_edges(node)}
        landmarks = self._landmarks
        if landmarks is None or not landmarks.update(removed, added, changed, self._all_edges):
            self._choose_landmarks()
        elif len(landmarks.nodes) < LANDMARK_COUNT // 2:  # the updates took the landmarks away
            landmarks.choose_again(self._all_edges)

    def _chosen_landmarks(self) -> Optional[Landmarks]:
        """The landmarks, picked again now if updates left that waiting: those a fresh bake would pick."""
        landmarks = self.landmarks
        if landmarks is not None:
            landmarks.choose_again(self._all_edges)
        return landmarks

    def prepare(self) -> None:
        """Do now what the next query would do first: the work :meth:`update` left (and the choice of the
        landmarks it left waiting, which no query waits for), and on a map of narrow
        corridors the contraction of the key points' dead ends (a pass over every key point, which also
        fills the tables a :meth:`load` left to fill as they are read). A game calls it while a level loads
        (:func:`pathing_py.prepare` does the same for the exact search, which the graph's queries also use)."""
        self._chosen_landmarks()
        self._split_edges()

    def _nodes_of(self, clusters: Iterable[int]) -> Set[int]:
        """The key points of ``clusters`` as flat cell indices."""
        width = self.grid.width
        return {y * width + x for cluster in clusters for x, y in self.members.get(cluster, ())}

    def _all_edges(self, node: int) -> tuple:
        return self._edges(node)[0]

    def _rebake(
        self, clusters: Iterable[int], borders: Iterable[Tuple[int, int]], progress: Optional[Progress] = None
    ) -> None:
        touched: Set[int] = set(clusters)
        borders = list(borders)
        # The key points whose cached edges may be wrong now: those at the ends of entrances that
        # changed, and below, every key point of a cluster connected again (as before and as now).
        stale: Set[Cell] = set()
        for border, pairs in zip(borders, self._border_pairs(borders)):
            old_pairs = self.entrances.get(border, ())
            if pairs != old_pairs:
                stale.update(cell for pair in (*old_pairs, *pairs) for cell in pair)
            self.entrances[border] = pairs
            touched.update(border)
        moved = []
        for cluster in sorted(touched):
            members = sorted(
                {
                    cell
                    for border in self.clusters.borders_of(cluster)
                    for pair in self.entrances.get(border, ())
                    for cell in pair
                    if self.clusters.of(cell) == cluster
                },
                key=lambda c: (c[1], c[0]),
            )
            if cluster in clusters or members != self.members.get(cluster):
                stale.update(self.members.get(cluster, ()), members)
                self.members[cluster] = members
                moved.append(cluster)
        self._connect(moved, progress)
        width = self.grid.width
        for x, y in stale:
            self._neighbours.pop(y * width + x, None)

    def _connect(self, clusters: Sequence[int], progress: Optional[Progress]) -> None:
        """Relax the fields of ``clusters`` in batches of about FIELDS_PER_BATCH."""
        done, total = 0, len(clusters)
        batch: List[int] = []
        for number, cluster in enumerate(clusters, start=1):
            batch.append(cluster)
            if sum(len(self.members[c]) for c in batch) >= FIELDS_PER_BATCH or number == total:
                jobs = [(self.clusters.rect(c), self.members[c], self.members[c]) for c in batch]
                for c, fields in zip(batch, self._cluster_fields(jobs)):
                    self.fields[c] = fields
                done += len(batch)
                batch = []
                if progress is not None:
                    progress(done, total)
        if total == 0 and progress is not None:
            progress(0, 0)

    def _edges_of(self, cell: Cell) -> Tuple[List[Tuple[Cell, float]], List[Tuple[Cell, float]]]:
        """Edges out of a key point: (to the key points of its cluster it reaches, across borders)."""
        cluster = self.clusters.of(cell)
        members = self.members[cluster]
        table = self.fields[cluster].costs
        index = members.index(cell)
        if self.grid.cost is None:
            # Either way is as long, but the fields sum the steps in different orders: one figure both
            # ways (the smaller), so that the landmark repair can read an edge in from the edge out.
            costs = np.minimum(table[index], table[:, index]).tolist()
        else:
            costs = table[index].tolist()
        inside = [(other, cost) for other, cost in zip(members, costs) if other != cell and math.isfinite(cost)]
        across = []
        for border in self.clusters.borders_of(cluster):
            for a, b in self.entrances.get(border, ()):
                if a == cell:
                    across.append((b, self._step_cost(a, b)))
                elif b == cell:
                    across.append((a, self._step_cost(b, a)))
        return inside, across

    # -- what a map's kind of cells decides (:class:`.HexKeyPointGraph` has its own) --

    def _border_pairs(self, borders: Sequence[Tuple[int, int]]) -> List[List[Tuple[Cell, Cell]]]:
        """The key-point pairs across each border (:mod:`.entrances`)."""
        return borders_key_points(self.grid.passable, self.clusters, borders, self.long_run, self.grid.cost)

    def _cluster_fields(self, jobs: Sequence[Job]) -> List[ClusterFields]:
        """The fields of (cluster rectangle, sources, targets) jobs, relaxed together (:mod:`.fields`)."""
        return cluster_fields(self.grid.passable, self.grid.cost, jobs, self.grid.connectivity)

    def _step_cost(self, out_of: Cell, onto: Cell) -> float:
        """The cost of the straight step across a border from ``out_of`` onto ``onto``."""
        cost = self.grid.cost
        return 1.0 if cost is None else float(cost[onto[1], onto[0]])

    def _estimate_terms(self) -> Tuple[float, float]:
        """The search's estimate between key points dx, dy cells apart is ``a * (dx + dy) + b * min(dx, dy)``:
        (a, b), the octile distance (Manhattan when 4-connected)."""
        return 1.0, diagonal_saving(self.grid.connectivity)

    # -- reading ------------------------------------------------------------------

    def cluster_rects(self) -> List[Tuple[int, int, int, int]]:
        """(x, y, width, height) of every cluster, in grid cells."""
        return self.clusters.rects()

    def key_points(self) -> np.ndarray:
        """All key points as an int array (N, 2) of (x, y), sorted by (y, x)."""
        cells = sorted((cell for members in self.members.values() for cell in members), key=lambda c: (c[1], c[0]))
        return np.array(cells, dtype=np.int64).reshape(-1, 2)

    def edges(self) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(pairs (E, 2) of indices into :meth:`key_points`, costs (E,), inside (E,)): each edge once."""
        points = self.key_points()
        index = {(int(x), int(y)): i for i, (x, y) in enumerate(points)}
        pairs, costs, inside = [], [], []
        for cell in index:
            for other, cost in [edge for edges in self._edges_of(cell) for edge in edges]:
                if index[cell] < index[other]:
                    pairs.append((index[cell], index[other]))
                    costs.append(cost)
                    inside.append(self.clusters.of(cell) == self.clusters.of(other))
        order = np.lexsort(np.array(pairs, dtype=np.int64).reshape(-1, 2).T[::-1]) if pairs else np.zeros(0, int)
        return (
            np.array(pairs, dtype=np.int64).reshape(-1, 2)[order],
            np.array(costs, dtype=float)[order],
            np.array(inside, dtype=bool)[order],
        )

    def __eq__(self, other) -> bool:
        if not isinstance(other, KeyPointGraph):
            return NotImplemented
        contents = (self.entrances, self.members, self.fields, self._chosen_landmarks())
        return self._setup() == other._setup() and contents == (
            other.entrances,
            other.members,
            other.fields,
            other._chosen_landmarks(),
        )

    def _setup(self) -> tuple:
        """What two graphs must share before their contents are compared: bake parameters and map shape."""
        grid = self.grid
        return self.clusters.size, self.unit_size, self.long_run, grid.width, grid.height, grid.connectivity

    __hash__ = None  # type: ignore[assignment]  # mutable, so unhashable; mypy expects a method here

    # -- query --------------------------------------------------------------------

    def find_path(
        self, start: Cell, goal: Cell, *, link: str = "exact", smooth: bool = True, exact_first: Optional[float] = None
    ) -> GraphPathResult:
        """A path from ``start`` to ``goal`` through the key points (SPEC H4).

        Parameters
        ----------
        link : "exact" or "fast"
            "exact" joins start and goal to every key point of their clusters
            with real costs; "fast" only to the nearest one reachable inside
            the cluster, as seed 001 does.
        smooth : bool
            Pull the refined path straight where lines are clear
            (:func:`~pathing_py.smooth_path`); the path stays valid.
        exact_first : float, optional
            Try the grid search (:func:`~pathing_py.find_path`, weighted by
            :data:`EXACT_FIRST_WEIGHT`) first, up to this many expanded nodes per
            cell of octile (Manhattan when 4-connected) distance between start and
            goal, and answer with its path if it ends within them; else go on
            through the key points. 0 never tries. Where start and goal are close or the
            ground between is open the exact search ends within a few nodes
            per cell, faster than the key-point search; where it must go far round walls (a maze with loops) it gives up
            having spent a part of its full cost (bench/bench_hierarchy.py
            ``--exact-first``). By default :data:`EXACT_FIRST`.

        Returns
        -------
        GraphPathResult
            As :func:`~pathing_py.find_path`'s result, plus ``route``: start,
            the key points passed, goal. Not optimal in general, always valid.

        Notes
        -----
        Quality (bench/bench_hierarchy.py, tests/hierarchy/test_hierarchy.py): with exact
        links, the cost is within 1% of the optimum on average and 5% at worst
        on the Moving AI maps. With terrain costs it is looser, since paths cross
        borders only at key points (one or two per border run, on its cheapest
        crossings): with 8x8 patches of cost 1, 2 and 5 laid over den520d, 1.2%
        on average and 3.6% at worst; over the open Berlin_0_256, 12% and 20%.
        A path that stays inside one cluster is weighed against leaving it, and
        is never worse than the best path inside the cluster.
        """
        start, goal = as_cell(start, "start"), as_cell(goal, "goal")
        exact_first = query_options(link, exact_first)
        self._check_fresh()
        early = answer_without_search(self.grid, start, goal)
        if early is not None:
            return GraphPathResult(early.status, early.cells, early.cost, route=early.cells)
        connectivity = self.grid.connectivity
        if self.grid.cost is None and line_of_sight(self.grid, start, goal):
            # On uniform costs no path is shorter than the line: octile (Manhattan when 4-connected).
            # On weighted grids the line may cross a swamp: the search below weighs it.
            return self._result(line_cells(start, goal, connectivity), 0, [start, goal], smooth=False)
        tried = 0
        if exact_first > 0.0:
            budget = max(1, int(exact_first * grid_distance(start, goal, connectivity)))
            exact = find_path(self.grid, start, goal, max_nodes=budget, weight=EXACT_FIRST_WEIGHT)
            if exact:
                crossings = self._crossings(exact.cells)
                return GraphPathResult(PathStatus.FOUND, exact.cells, exact.cost, exact.expanded, crossings)
            tried = exact.expanded
        direct = self._direct(start, goal)
        if direct and direct.cost <= grid_distance(start, goal, connectivity) + 1e-9:
            return self._result(
                direct.cells, tried + direct.expanded, [start, goal], smooth
            )  # costs >= 1: nothing beats it
        start_links = self._links(start, link, reverse=False)
        goal_links = self._links(goal, link, reverse=True)
        route, expanded = self._search(
            start, goal, start_links, goal_links, start_linked_to_all=link == "exact", direct_cost=direct.cost
        )
        expanded += tried + direct.expanded
        if route is None:  # the islands connect them, so only a graph out of step with its grid gets here
            return GraphPathResult(PathStatus.UNREACHABLE, expanded=expanded)
        cells = direct.cells if len(route) == 2 else self._refine(route, start_links, goal_links)
        key_points = [cell for cell in route[1:-1] if cell not in (start, goal)]
        return self._result(cells, expanded, [start, *key_points, goal], smooth)

    def _crossings(self, cells: List[Cell]) -> List[Cell]:
        """The route of a path found without the key points: its ends, and between them the cells on either side of
        each border it crosses, where a route through the graph has its key points (units aim for them in turn)."""
        size, columns = self.clusters.size, self.clusters.columns
        points = np.fromiter(chain.from_iterable(cells), dtype=np.int64, count=2 * len(cells)).reshape(-1, 2)
        cluster = points[:, 1] // size * columns + points[:, 0] // size
        crossed = np.flatnonzero(cluster[1:] != cluster[:-1])
        inner = np.stack([crossed, crossed + 1], axis=1).ravel()
        return [cells[0], *(cells[i] for i in inner.tolist() if 0 < i < len(cells) - 1), cells[-1]]

    def _direct(self, start: Cell, goal: Cell) -> PathResult:
        """The shortest path from ``start`` to ``goal`` that stays inside their cluster, when they share one.

        The search over key points weighs it against leaving the cluster: a wall
        or a swamp inside the cluster can make the way out and back in shorter.
        """
        cluster = self.clusters.of(start)
        if cluster != self.clusters.of(goal):
            return PathResult(PathStatus.UNREACHABLE)
        return find_path(self.grid, start, goal, bounds=self.clusters.rect(cluster))

    def _check_fresh(self) -> None:
        if self.version != self.grid.version:
            raise StaleGraphError(
                f"the grid was edited (version {self.grid.version}) since the graph was baked or updated "
                f"(version {self.version}): call graph.update(changed_cells)"
            )

    def _result(self, cells: List[Cell], expanded: int, route: List[Cell], smooth: bool) -> GraphPathResult:
        if smooth:
            cells = self._smooth(cells)
        return GraphPathResult(PathStatus.FOUND, cells, path_cost(self.grid, cells), expanded, route)

    def _smooth(self, cells: List[Cell]) -> List[Cell]:
        """Pulled straight forwards, then, if lines were found, backwards.

        The greedy first pass leaves corners that a pass from the other end cuts
        (on cluttered maps paths come closer to the optimum). Where it found no line
        (a maze's corridors: every query of maze512) the second is not tried, so
        such maps pay one pass. Weighted costs depend on the direction of travel:
        the cheaper of the two is kept.
        """
        forwards = smooth_path(self.grid, cells)
        if forwards == cells:
            return cells
        backwards = smooth_path(self.grid, forwards[::-1])[::-1]
        return backwards if path_cost(self.grid, backwards) < path_cost(self.grid, forwards) else forwards

    def _links(self, cell: Cell, link: str, reverse: bool) -> Dict[Cell, Tuple[float, List[Cell]]]:
        """Key points of ``cell``'s cluster joined to it: key point -> (cost, cells from start / to goal).

        Links to the goal are searched from the goal outwards; on weighted grids
        their cost is that of the path walked towards the goal.
        """
        cluster = self.clusters.of(cell)
        rect = self.clusters.rect(cluster)
        members = self.members[cluster]
        connectivity = self.grid.connectivity
        if link == "exact":
            if self.grid.cost is None and clear_lines(self.grid.passable, cell, members, connectivity).all():
                # Straight lines to every key point (a line and its reverse take the same cells, tested at once):
                # each is a shortest path, no search needed.
                ends = [(member, cell) if reverse else (cell, member) for member in members]
                return {
                    member: (grid_distance(cell, member, connectivity), line_cells(a, b, connectivity))
                    for member, (a, b) in zip(members, ends)
                }
            fields = single_field(self.grid.passable, self.grid.cost, rect, cell, members, connectivity)
            links = {}
            for member, cost in zip(members, fields.costs[0].tolist()):
                if math.isfinite(cost):
                    cells = walk_back(fields, 0, member)
                    if reverse:
                        cells.reverse()
                        cost = cost if self.grid.cost is None else path_cost(self.grid, cells)
                    links[member] = (cost, cells)
            return links
        for member in sorted(members, key=lambda m: (grid_distance(m, cell, connectivity), m[1], m[0])):
            found = find_path(self.grid, *((member, cell) if reverse else (cell, member)), bounds=rect)
            if found:
                return {member: (found.cost, found.cells)}
        return {}

    def _edges(self, node: int) -> Tuple[tuple, tuple]:
        """Edges out of a key point named by its flat cell index, computed once: (all of them,
        those across borders), each edge as (node, cost, x, y, whether it stays inside the cluster)."""
        edges = self._neighbours.get(node)
        if edges is None:
            width = self.grid.width
            inside, across = self._edges_of((node % width, node // width))
            across_edges = tuple((y * width + x, cost, x, y, False) for (x, y), cost in across)
            inside_edges = tuple((y * width + x, cost, x, y, True) for (x, y), cost in inside)
            edges = self._neighbours[node] = (inside_edges + across_edges, across_edges)
        return edges

    def _search(
        self, start: Cell, goal: Cell, start_links, goal_links, start_linked_to_all: bool, direct_cost: float
    ) -> Tuple[Optional[List[Cell]], int]:
        """A* over the key points, from START through its links to GOAL through theirs, or
        straight to GOAL for ``direct_cost`` (inf when there is no direct path); the route
        is then [start, goal].

        Key points are named by their flat cell index ``y * width + x`` (ints
        hash and compare fast); START and GOAL are -1 and -2, nodes of their
        own, so that a start or goal standing on a key point keeps both its
        links and the key point's edges. A node reached along a shortest path
        inside its cluster, from a node with direct paths to all the others,
        only crosses borders: going on inside could not beat those paths. The
        estimate is the octile distance (Manhattan when 4-connected), raised by
        the landmark bound where baked.
        """
        width = self.grid.width
        goal_x, goal_y = goal
        to_goal = {y * width + x: (_GOAL, cost, goal_x, goal_y, False) for (x, y), (cost, _) in goal_links.items()}
        from_start = tuple(
            (y * width + x, cost, x, y, start_linked_to_all) for (x, y), (cost, _) in start_links.items()
        )
        if math.isfinite(direct_cost):
            from_start += ((_GOAL, direct_cost, goal_x, goal_y, False),)
        neighbours = self._neighbours
        split = self._split_edges()
        falling: Set[int] = set()
        if split is not None:
            falling = self._dead_end_ranks().climb(to_goal)
        landmarks = self.landmarks
        landmarks_to_goal = landmarks.to_goal({node: edge[1] for node, edge in to_goal.items()}) if landmarks else None
        # Landmarks that reach the goal, as (distance to the goal, distances column): a landmark on
        # another island is infinitely far from every cell here and bounds nothing.
        usable = (
            [(d, landmarks.columns[l]) for l, d in enumerate(landmarks_to_goal or ()) if math.isfinite(d)]
            if landmarks
            else []
        )
        rows = landmarks.rows if landmarks is not None and usable else {}
        best = {_START: 0.0}
        parent = {_START: _NONE}
        entered_inside = {_START: False}
        heap = [(0.0, 0.0, _START)]
        expanded = 0
        per_cell, diagonal_extra = self._estimate_terms()
        while heap:
            _, reached, node = heappop(heap)
            if reached > best[node]:
                continue
            if node == _GOAL:
                route = []
                node = parent[_GOAL]
                while node != _START:
                    route.append(divmod(node, width)[::-1])
                    node = parent[node]
                return [start, *route[::-1], goal], expanded
            expanded += 1
            if node == _START:
                edges = from_start
            elif split is None:
                every, across = neighbours.get(node) or self._edges(node)
                edges = across if entered_inside[node] else every
            else:
                up_every, up_across, down_every, down_across = split.get(node) or self._split(node)
                edges = up_across if entered_inside[node] else up_every
                down = down_across if entered_inside[node] else down_every
                if down and falling:
                    edges = edges + tuple(edge for edge in down if edge[0] in falling)
            if node in to_goal:
                edges = edges + (to_goal[node],)
            for other, cost, x, y, inside in edges:
                candidate = reached + cost
                if candidate < best.get(other, math.inf):
                    best[other] = candidate
                    parent[other] = node
                    entered_inside[other] = inside
                    dx = x - goal_x if x > goal_x else goal_x - x
                    dy = y - goal_y if y > goal_y else goal_y - y
                    estimate = per_cell * (dx + dy) + diagonal_extra * (dx if dx < dy else dy)
                    if other in rows:  # the landmark bound |d(L, goal) - d(L, other)|, inlined
                        row = rows[other]
                        for to_goal_l, column in usable:
                            bound = to_goal_l - column[row]
                            if bound < 0:
                                bound = -bound
                            if bound > estimate:
                                estimate = bound
                    heappush(heap, (candidate + estimate * TIE_BREAK, candidate, other))
        return None, expanded

    def _dead_end_ranks(self) -> Contraction:
        """The dead ends of the graph as it is now (found again after an update)."""
        if self._contraction is None or self._contraction[0] != self.version:
            width = self.grid.width
            groups: List[List[int]] = []
            across: Dict[int, List[int]] = {}
            for cluster in sorted(
                self.members
            ):  # in an order of their own, so that a loaded or updated graph finds the same
                members = self.members[cluster]
                if not members:
                    continue
                nodes = [y * width + x for x, y in members]
                costs = self.fields[cluster].costs
                joined = np.isfinite(costs) & np.isfinite(costs.T)
                np.fill_diagonal(joined, True)
                group_of: Dict[int, List[int]] = {}  # named by the first key point each reaches
                for node, first in zip(nodes, np.argmax(joined, axis=1).tolist()):
                    group_of.setdefault(first, []).append(node)
                    across[node] = []
                groups += group_of.values()
            for border in sorted(self.entrances):
                for (ax, ay), (bx, by) in self.entrances[border]:
                    across[ay * width + ax].append(by * width + bx)
                    across[by * width + bx].append(ay * width + ax)
            self._contraction = (self.version, Contraction.find(groups, across), {})
        return self._contraction[1]

    def _split_edges(self) -> Optional[Dict[int, Tuple[tuple, tuple, tuple, tuple]]]:
        """The cache of :meth:`_split`; None where the search keeps every edge: on weighted grids (whose edges
        cost more one way than the other) and on maps of few narrow corridors (see :meth:`_narrow_map`)."""
        if self.grid.cost is not None or not self._narrow_map():
            return None
        self._dead_end_ranks()
        assert self._contraction is not None
        return self._contraction[2]

    def _narrow_map(self) -> bool:
        """Whether the map is one of narrow corridors, as the exact search measures it to peel its dead ends
        (:func:`~pathing_py.dead_ends.worth_peeling`: maze512-1-0 is, the other benchmark maps are not; finding the
        key points' dead ends, a pass over all of them, pays only there), measured again after an update."""
        if self._narrow is None or self._narrow[0] != self.version:
            self._narrow = (self.version, worth_peeling(pad(self.grid.passable), self.grid.connectivity))
        return self._narrow[1]

    def _split(self, node: int) -> Tuple[tuple, tuple, tuple, tuple]:
        """Edges out of a key point as :meth:`_edges` has them, split by :mod:`.contraction`: (rising, rising
        across borders, falling, falling across borders); between core key points an edge rises."""
        contraction = self._dead_end_ranks()
        cache = self._split_edges()
        assert cache is not None
        split = cache.get(node)
        if split is None:
            rank = contraction.rank
            own = rank(node)
            every, _ = self._neighbours.get(node) or self._edges(node)
            rising = tuple(edge for edge in every if rank(edge[0]) > own or rank(edge[0]) == own == CORE)
            falling = tuple(edge for edge in every if rank(edge[0]) < own)
            split = cache[node] = (
                rising,
                tuple(edge for edge in rising if not edge[4]),
                falling,
                tuple(edge for edge in falling if not edge[4]),
            )
        return split

    def _refine(self, route: List[Cell], start_links, goal_links) -> List[Cell]:
        """Cells of a route (start, key points, goal): the links at both ends, kept paths and border steps between."""
        cells = list(start_links[route[1]][1])
        for a, b in zip(route[1:-2], route[2:-1]):
            cluster = self.clusters.of(a)
            if cluster == self.clusters.of(b):
                cells += walk_back(self.fields[cluster], self.members[cluster].index(a), b)[1:]
            else:
                cells.append(b)
        cells += goal_links[route[-2]][1][1:]
        return cells

    # -- files --------------------------------------------------------------------

    def save(self, path: Union[str, Path]) -> None:
        """Write the graph to a file that :meth:`load` reads back (see :mod:`.storage`)."""
        self._check_fresh()
        write_graph(self.grid, self._data(), path)

    @classmethod
    def load(cls, path: Union[str, Path], grid: Grid) -> "KeyPointGraph":
        """Read a graph saved by :meth:`save` for ``grid``.

        Raises StaleGraphError when the grid's content differs from the map it
        was baked from, GraphFileError when the file is damaged or not a graph.
        """
        return cls._from_data(grid, read_graph(path, grid))

    def to_bytes(self) -> bytes:
        """The file's bytes, for engines that write files their own way."""
        self._check_fresh()
        return graph_bytes(self.grid, self._data())

    @classmethod
    def from_bytes(cls, data: bytes, grid: Grid, source: str = "<bytes>") -> "KeyPointGraph":
        """As :meth:`load`, from bytes (say, read from an exported Godot pack)."""
        return cls._from_data(grid, graph_from_bytes(data, grid, source))

    def _data(self) -> GraphData:
        return GraphData(
            self.clusters,
            self.unit_size,
            self.long_run,
            self.entrances,
            self.members,
            self.fields,
            self._chosen_landmarks(),
        )

    @classmethod
    def _from_data(cls, grid: Grid, data: GraphData) -> "KeyPointGraph":
        graph = cls(grid, data.clusters, data.unit_size, data.long_run)
        graph._entrances, graph._members, graph._fields, graph._landmarks = (
            data.entrances,
            data.members,
            data.fields,
            data.landmarks,
        )
        return graph


#: The start and goal of a search over key points, nodes apart from any cell; no node.
_START, _GOAL, _NONE = -1, -2, -3
