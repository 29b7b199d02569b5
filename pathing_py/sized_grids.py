"""The world of each unit size (SPEC G4): one grid, and one key-point graph, per size class.

Quick start::

    >>> from pathing_py import Grid, find_path
    >>> from pathing_py.sized_grids import SizedGrids
    >>> grid = Grid.from_ascii('''
    ... ..........
    ... ..........
    ... #####.####
    ... ..........
    ... ..........
    ... ''')
    >>> sizes = SizedGrids(grid)
    >>> find_path(sizes.grid(1), (0, 0), (0, 3)).status.name  # a soldier takes the gap
    'FOUND'
    >>> find_path(sizes.grid(2), (0, 0), (0, 3)).status.name  # a tank does not fit through it
    'UNREACHABLE'
    >>> grid.set_blocked([(4, 2)], blocked=False)  # the gap widens to two cells
    >>> sizes.cells_changed([(4, 2)])
    >>> find_path(sizes.grid(2), (0, 0), (0, 3)).cells  # top-left cells of the tank's 2x2 block
    [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (4, 1), (4, 2), (4, 3), (3, 3), (2, 3), (1, 3), (0, 3)]

A unit of radius r plans on ``sizes.grid(size_class(r))`` (see
:mod:`pathing_py.clearance`): its cells are the top-left cells of the unit's
block, passable where the block fits, and every search, line and table of
the package works on it unchanged. With terrain costs, entering a block
costs the largest cost of its cells.

One graph per size class, baked at first use with the base graph's clusters,
rather than one graph serving every size: the base graph's paths are illegal
for a 2- or 3-cell block in nearly every query on 512x512 Moving AI maps,
so a shared graph would need each size's paths inside every cluster (the work
and memory of the per-size graphs) and a query filtering edges by size.
Measured with bench/bench_clearance.py (figures in docs/benchmarks.md), a
size-2 or size-3 graph bakes in about the base graph's time or less and holds
no more memory, its paths are close to the exact search's on average,
and an edit costs each size about what it costs the base grid and graph;
clusters scaled to the unit (``unit_size=k``) save key points but peak at
three to four times the memory while baking and answer more slowly on most maps.
"""

from typing import Dict, Iterable, Optional

import numpy as np

from .clearance import MAX_SIZE, ClearanceMap
from .grid import Cell, Grid
from .hierarchy import KeyPointGraph, StaleGraphError

__all__ = ["SizedGrids"]


class SizedGrids:
    """The grid (and key-point graph) of each unit size on one base grid, kept in step with its edits.

    Parameters
    ----------
    grid : Grid
        The base grid: the world of one-cell units (size 1).
    graph : KeyPointGraph, optional
        The base grid's graph; with it, :meth:`graph` hands out a graph per
        size, baked with its settings.
    max_size : int
        The largest size class served (see :class:`~pathing_py.clearance.ClearanceMap`).

    The sized grids and graphs belong to this object: edit the base grid
    (:meth:`Grid.set_blocked`), then tell :meth:`cells_changed` which cells
    changed. Size 1 is the base grid and graph themselves, which the caller
    keeps up to date as before (``graph.update``).
    """

    def __init__(self, grid: Grid, *, graph: Optional[KeyPointGraph] = None, max_size: int = MAX_SIZE):
        if not isinstance(grid, Grid):
            raise TypeError(f"grid must be a Grid, got {type(grid).__name__}")
        if graph is not None and not isinstance(graph, KeyPointGraph):
            raise TypeError(f"graph must be a KeyPointGraph, got {type(graph).__name__}")
        if graph is not None and graph.grid is not grid:
            raise ValueError("the key-point graph was baked for another grid than this one")
        self.base = grid
        self.base_graph = graph
        self.clearance = ClearanceMap(grid.passable, max_size)
        self._grids: Dict[int, Grid] = {}
        self._graphs: Dict[int, KeyPointGraph] = {}
        self._version = grid.version

    @property
    def max_size(self) -> int:
        return self.clearance.max_size

    def grid(self, size: int) -> Grid:
        """The grid of units whose block is ``size`` cells wide: passable where the block fits.

        Built at the first call for a size (one pass over the map); the base grid for size 1.
        """
        size = self._checked(size)
        if size == 1:
            return self.base
        sized = self._grids.get(size)
        if sized is None:
            passable = self.clearance.values >= size
            base = self.base
            sized = self._grids[size] = Grid(
                passable, _block_costs(base.cost, size), origin=base.origin, connectivity=base.connectivity
            )
        return sized

    def graph(self, size: int) -> KeyPointGraph:
        """The key-point graph of :meth:`grid` ``(size)``; the base graph for size 1.

        Baked at the first call for a size with the base graph's clusters and
        ``long_run``: about the base graph's bake time and memory, or less (a
        sized grid has fewer free cells). Each later edit costs it a
        :meth:`KeyPointGraph.update` (see :meth:`cells_changed`).
        """
        size = self._checked(size)
        if self.base_graph is None:
            raise ValueError("no key-point graph was given for the base grid: SizedGrids(grid, graph=...)")
        if size == 1:
            return self.base_graph
        graph = self._graphs.get(size)
        if graph is None:
            base = self.base_graph
            graph = KeyPointGraph.bake(
                self.grid(size), cluster_size=base.cluster_size, unit_size=size, long_run=base.long_run
            )
            self._graphs[size] = graph
        return graph

    def cells_changed(self, cells: Iterable[Cell]) -> None:
        """Follow edits of ``cells`` already made to the base grid: the clearance, then each sized grid
        built so far (its islands and search tables follow, as for any edit) and its graph.

        Costs the clearance's update (see :meth:`ClearanceMap.update`) and,
        per size, what editing its grid and updating its graph cost.
        """
        changed = self.clearance.update(self.base.passable, cells)
        self._version = self.base.version
        if len(changed) == 0:
            return
        xs, ys = changed[:, 0], changed[:, 1]
        clearance = self.clearance.values[ys, xs]
        for size, sized in self._grids.items():
            was = sized.passable[ys, xs]
            fits = clearance >= size
            flipped = was != fits
            if not flipped.any():
                continue
            sized.set_blocked(changed[was & ~fits], blocked=True)
            sized.set_blocked(changed[fits & ~was], blocked=False)
            graph = self._graphs.get(size)
            if graph is not None:
                graph.update(changed[flipped].tolist())

    def _checked(self, size: int) -> int:
        """``size`` as an int in 1..max_size, with the grid's edits followed; errors otherwise."""
        if not isinstance(size, (int, np.integer)) or isinstance(size, bool):
            raise TypeError(f"size must be an int (see clearance.size_class), got {size!r}")
        if not 1 <= size <= self.max_size:
            raise ValueError(f"size must be in 1..{self.max_size} cells, got {size!r}")
        if self.base.version != self._version:
            raise StaleGraphError(
                f"the grid was edited (version {self.base.version}) since the sized grids followed it "
                f"(version {self._version}): call cells_changed(changed_cells)"
            )
        return int(size)

    def __repr__(self) -> str:
        return f"SizedGrids({self.base!r}, sizes built {sorted(self._grids)}, graphs baked {sorted(self._graphs)})"


def _block_costs(cost: Optional[np.ndarray], size: int) -> Optional[np.ndarray]:
    """The cost of entering each block of ``size`` x ``size`` cells (named by its top-left cell): the largest
    cost of its cells. Blocks that leave the map are blocked on the sized grid; their cost is that of the part on it."""
    if cost is None:
        return None
    padded = np.pad(cost, ((0, size - 1), (0, size - 1)), mode="edge")
    across = np.lib.stride_tricks.sliding_window_view(padded, size, axis=1).max(axis=-1)
    return np.lib.stride_tricks.sliding_window_view(across, size, axis=0).max(axis=-1)
