"""The key-point graph of a half-offset (hexagonal) map: six neighbours, hex distances (SPEC H1–H6, G6).

The square map's graph (:class:`.KeyPointGraph`) with hex cells: clusters
meet diagonally too and their key points sit on zigzag chains of steps
(:mod:`.hex_entrances`), the fields inside clusters take the six steps with
their costs in the layout's pixels (:func:`.fields.cluster_fields`), and a
query links start and goal with hex fields, pulls the path straight along hex
lines (:mod:`pathing_py.hex_lines`) and prices it as
:func:`pathing_py.hex_grid.find_hex_path` does. Updates, landmarks and files
are the square graph's; the file records the map's kind of cells::

    >>> from pathing_py import Grid
    >>> from pathing_py.cell_layout import CellLayout
    >>> grid = Grid.from_ascii('''
    ... ..........#.........
    ... ..........#.........
    ... ..........#.........
    ... ....................
    ... ..........#.........
    ... ''')
    >>> layout = CellLayout(x_axis=(2.0, 0.0), y_axis=(0.0, 2.0), offset_axis=0, shift=0.5)
    >>> graph = HexKeyPointGraph.bake(grid, layout, cluster_size=5)
    >>> result = graph.find_path((0, 0), (19, 0))
    >>> from pathing_py.hex_grid import find_hex_path
    >>> result.status.name, round(result.cost, 3), round(find_hex_path(grid, layout, (0, 0), (19, 0)).cost, 3)
    ('FOUND', 45.416, 45.416)
"""

import math
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from ..cell_layout import CellLayout
from ..grid import Cell, Grid
from ..hex_grid import HexSteps, find_hex_path, hex_islands
from ..hex_lines import hex_line_cells, hex_line_of_sight, hex_path_cost, smooth_hex_path
from ..search import PathResult, PathStatus, answer_without_search, as_cell
from .entrances import DEFAULT_LONG_RUN
from .fields import ClusterFields, Job, cluster_fields, walk_back
from .graph import GraphPathResult, KeyPointGraph, Progress, bake_parameters, query_options
from .hex_entrances import HexClusters, hex_borders_key_points
from .storage import GraphData, graph_from_bytes, map_kind, read_graph

__all__ = ["HEX_EXACT_FIRST", "HexKeyPointGraph"]

#: ``find_path``'s exact_first on hex maps, lower than the square graph's: the six-neighbour search has no jump
#: tables nor dead ends peeled, so an attempt that runs out of nodes costs more. Enough for short paths on open
#: ground, which the key points would bend at a border (bench/bench_hex_graph.py: 0 is faster, 20 slower).
HEX_EXACT_FIRST = 5.0

#: A path found by the key points costs at most this much more than the bound it is weighed against.
_SLACK = 1e-9

Links = Dict[Cell, Tuple[float, List[Cell]]]


class HexKeyPointGraph(KeyPointGraph):
    """A :class:`.KeyPointGraph` over the six neighbours of a half-offset layout's cells.

    Build it with :meth:`bake` or :meth:`load` (both take the map's ``layout``), never directly. Its
    grid must have uniform costs, as :func:`~pathing_py.hex_grid.find_hex_path` reads none.
    """

    def __init__(self, grid: Grid, clusters: HexClusters, unit_size: int, long_run: int, hexes: HexSteps):
        super().__init__(grid, clusters, unit_size, long_run)
        #: The six steps out of each cell, with their costs.
        self.hexes = hexes
        self._islands: Optional[Tuple[int, np.ndarray]] = None

    @classmethod
    def bake(  # type: ignore[override]  # a half-offset map also needs its layout
        cls,
        grid: Grid,
        layout: CellLayout,
        *,
        cluster_size: Optional[int] = None,
        unit_size: int = 1,
        long_run: int = DEFAULT_LONG_RUN,
        progress: Optional[Progress] = None,
    ) -> "HexKeyPointGraph":
        """Bake the graph of ``grid``, a half-offset map whose cells lie as ``layout`` says (its ``origin`` is
        the TileMap cell of grid cell (0, 0)); parameters as :meth:`.KeyPointGraph.bake`'s."""
        cluster_size = bake_parameters(grid, cluster_size, unit_size, long_run)
        graph = cls(grid, HexClusters(grid.width, grid.height, cluster_size), unit_size, long_run, _hexes(grid, layout))
        graph._bake_all(progress)
        return graph

    # -- the hex cells' key points, fields, steps and estimate -------------------------

    def _border_pairs(self, borders: Sequence[Tuple[int, int]]) -> List[List[Tuple[Cell, Cell]]]:
        return hex_borders_key_points(self.grid.passable, self.clusters, borders, self.long_run, self.hexes)

    def _cluster_fields(self, jobs: Sequence[Job]) -> List[ClusterFields]:
        return cluster_fields(self.grid.passable, None, jobs, hexes=self.hexes)

    def _step_cost(self, out_of: Cell, onto: Cell) -> float:
        return self.hexes.step_cost(out_of, onto)

    def _estimate_terms(self) -> Tuple[float, float]:
        """Every step moves at most one cell along x and along y, for at least the cheapest step's cost: that
        times the larger of dx and dy."""
        hexes = self.hexes
        cheapest = min(hexes.along_cost, hexes.forward_cost, hexes.backward_cost)
        return cheapest, -cheapest

    def _split_edges(self) -> Optional[Dict[int, Tuple[tuple, tuple, tuple, tuple]]]:
        """None: the search keeps every edge (the dead ends of :mod:`.contraction` are measured on square
        moves)."""
        return None

    def _setup(self) -> tuple:
        return super()._setup() + (repr(map_kind(self.hexes)),)

    # -- query ------------------------------------------------------------------------

    def find_path(
        self, start: Cell, goal: Cell, *, link: str = "exact", smooth: bool = True, exact_first: Optional[float] = None
    ) -> GraphPathResult:
        """A path from ``start`` to ``goal`` through the key points, over six neighbours; arguments and result as
        :meth:`.KeyPointGraph.find_path`'s, costs in the layout's pixels as
        :func:`~pathing_py.hex_grid.find_hex_path`'s. ``exact_first`` counts expanded nodes per cell of hex
        distance (steps on an open map); by default :data:`HEX_EXACT_FIRST`."""
        start, goal = as_cell(start, "start"), as_cell(goal, "goal")
        exact_first = query_options(link, HEX_EXACT_FIRST if exact_first is None else exact_first)
        self._check_fresh()
        early = answer_without_search(self.grid, start, goal, islands=False)
        if early is None and not self._same_island(start, goal):
            early = PathResult(PathStatus.UNREACHABLE)
        if early is not None:
            return GraphPathResult(early.status, early.cells, early.cost, route=early.cells)
        hexes = self.hexes
        bound = hexes.estimate(start, goal)  # no path costs less
        if hex_line_of_sight(self.grid, hexes, start, goal):
            line = hex_line_cells(hexes, start, goal)
            if hex_path_cost(hexes, line) <= bound + _SLACK:
                return self._result(line, 0, [start, goal], smooth=False)
        tried = 0
        if exact_first > 0.0:
            exact = find_hex_path(
                self.grid,
                hexes.layout,
                start,
                goal,
                max_nodes=max(1, int(exact_first * _hex_steps(hexes, start, goal))),
            )
            if exact:
                return GraphPathResult(
                    PathStatus.FOUND, exact.cells, exact.cost, exact.expanded, self._crossings(exact.cells)
                )
            tried = exact.expanded
        direct = self._direct(start, goal)
        if direct and direct.cost <= bound + _SLACK:
            return self._result(direct.cells, tried, [start, goal], smooth)
        start_links = self._links(start, link, reverse=False)
        goal_links = self._links(goal, link, reverse=True)
        route, expanded = self._search(
            start, goal, start_links, goal_links, start_linked_to_all=link == "exact", direct_cost=direct.cost
        )
        expanded += tried
        if route is None:  # the islands connect them, so only a graph out of step with its grid gets here
            return GraphPathResult(PathStatus.UNREACHABLE, expanded=expanded)
        cells = direct.cells if len(route) == 2 else self._refine(route, start_links, goal_links)
        key_points = [cell for cell in route[1:-1] if cell not in (start, goal)]
        return self._result(cells, expanded, [start, *key_points, goal], smooth)

    def _same_island(self, a: Cell, b: Cell) -> bool:
        """Whether six-neighbour steps join two free cells (the islands labelled again after edits)."""
        if self._islands is None or self._islands[0] != self.grid.version:
            self._islands = (self.grid.version, hex_islands(self.grid, self.hexes))
        labels = self._islands[1]
        return bool(labels[a[1], a[0]] == labels[b[1], b[0]])

    def _field(self, cell: Cell, targets: List[Cell]) -> ClusterFields:
        """The field from ``cell`` over its cluster, with its costs to ``targets``."""
        rect = self.clusters.rect(self.clusters.of(cell))
        return cluster_fields(self.grid.passable, None, [(rect, [cell], targets)], hexes=self.hexes)[0]

    def _direct(self, start: Cell, goal: Cell) -> PathResult:
        """The shortest path from ``start`` to ``goal`` inside their cluster, when they share one."""
        if self.clusters.of(start) != self.clusters.of(goal):
            return PathResult(PathStatus.UNREACHABLE)
        field = self._field(start, [goal])
        cost = float(field.costs[0, 0])
        if not math.isfinite(cost):
            return PathResult(PathStatus.UNREACHABLE)
        return PathResult(PathStatus.FOUND, walk_back(field, 0, goal), cost)

    def _links(self, cell: Cell, link: str, reverse: bool) -> Links:
        """Key points of ``cell``'s cluster joined to it inside the cluster: key point -> (cost, cells from start
        / to goal); with ``link`` "fast" only the nearest. Steps cost the same both ways."""
        members = self.members[self.clusters.of(cell)]
        fields = self._field(cell, members)
        links: Links = {}
        for member, cost in zip(members, fields.costs[0].tolist()):
            if math.isfinite(cost):
                cells = walk_back(fields, 0, member)
                links[member] = (cost, cells[::-1] if reverse else cells)
        if link == "fast" and links:
            nearest = min(links, key=lambda member: (links[member][0], member[1], member[0]))
            return {nearest: links[nearest]}
        return links

    def _result(self, cells: List[Cell], expanded: int, route: List[Cell], smooth: bool) -> GraphPathResult:
        if smooth:
            cells = self._smooth(cells)
        return GraphPathResult(PathStatus.FOUND, cells, hex_path_cost(self.hexes, cells), expanded, route)

    def _smooth(self, cells: List[Cell]) -> List[Cell]:
        """Pulled straight along hex lines forwards, then, if lines were found, backwards: the cheaper."""
        hexes = self.hexes
        forwards = smooth_hex_path(self.grid, hexes, cells)
        if forwards == cells:
            return cells
        backwards = smooth_hex_path(self.grid, hexes, forwards[::-1])[::-1]
        return backwards if hex_path_cost(hexes, backwards) < hex_path_cost(hexes, forwards) else forwards

    # -- files ------------------------------------------------------------------------

    @classmethod
    def load(  # type: ignore[override]  # a half-offset map also needs its layout
        cls, path: Union[str, Path], grid: Grid, layout: CellLayout
    ) -> "HexKeyPointGraph":
        """Read a graph saved by :meth:`save` for ``grid`` laid out as ``layout``; errors as
        :meth:`.KeyPointGraph.load`'s, StaleGraphError too for a square map's graph or one of another layout."""
        hexes = _hexes(grid, layout)
        return cls._from_hex_data(grid, read_graph(path, grid, hexes), hexes)

    @classmethod
    def from_bytes(  # type: ignore[override]  # a half-offset map also needs its layout
        cls, data: bytes, grid: Grid, layout: CellLayout, source: str = "<bytes>"
    ) -> "HexKeyPointGraph":
        """As :meth:`load`, from bytes."""
        hexes = _hexes(grid, layout)
        return cls._from_hex_data(grid, graph_from_bytes(data, grid, source, hexes), hexes)

    def _data(self) -> GraphData:
        return super()._data()._replace(hexes=self.hexes)

    @classmethod
    def _from_hex_data(cls, grid: Grid, data: GraphData, hexes: HexSteps) -> "HexKeyPointGraph":
        assert isinstance(data.clusters, HexClusters)
        graph = cls(grid, data.clusters, data.unit_size, data.long_run, hexes)
        graph._entrances, graph._members, graph._fields, graph._landmarks = (
            data.entrances,
            data.members,
            data.fields,
            data.landmarks,
        )
        return graph


def _hexes(grid: Grid, layout: CellLayout) -> HexSteps:
    """The six steps of ``grid``'s cells laid out as ``layout``; TypeError or ValueError naming the bad one."""
    if not isinstance(grid, Grid):
        raise TypeError(f"grid must be a Grid, got {type(grid).__name__}")
    if not isinstance(layout, CellLayout):
        raise TypeError(f"layout must be a CellLayout, got {type(layout).__name__}")
    if not layout.hexagonal:
        raise ValueError("layout must have a half offset (offset_axis 0 or 1): bake square maps with KeyPointGraph")
    if grid.cost is not None:
        raise ValueError("grid has terrain costs: the six-neighbour search reads none, and a hex graph follows it")
    return HexSteps(layout, grid.origin)


def _hex_steps(hexes: HexSteps, a: Cell, b: Cell) -> int:
    """The fewest steps between two cells on an open map: a step per line crossed, and what is left along
    the lines (each step across also moves half a cell along)."""
    (ua, va), (ub, vb) = hexes.doubled(a), hexes.doubled(b)
    du, dv = abs(ua - ub), abs(va - vb)
    return dv + max(0, du - dv) // 2
