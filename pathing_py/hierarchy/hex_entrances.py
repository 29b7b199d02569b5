"""Step 2 of the bake on half-offset (hexagonal) maps: where clusters meet, and their key points (SPEC H2, G6).

The clusters are the square map's (:mod:`.partition`), but a hex cell at a
cluster's corner touches a cell of the cluster diagonally across: so
:class:`HexClusters` also counts the four diagonal neighbours of a cluster as
borders (most have no crossing; one that has is a single step, corner to corner).

The steps across a border, between free cells, form zigzag chains along it:
ordered by the sum of their two ends' places along the border, two steps one
apart share a cell, and the cells of one side of a chain are neighbours of
each other on that side, so a chain is one way across, as a run is on square
maps (:mod:`.entrances`). A chain gets one key-point pair (the two ends of its
middle step), or two, at the middles of its halves, when it is longer than
``long_run`` cells on a side.
"""

from typing import Iterator, List, Sequence, Tuple

import numpy as np

from ..grid import Cell
from ..hex_grid import HexSteps
from .partition import Clusters

__all__ = ["HexClusters", "hex_borders_key_points"]


class HexClusters(Clusters):
    """:class:`.Clusters` whose borders include the diagonal neighbours, which hex cells at corners touch."""

    def border_array(self) -> np.ndarray:
        """Pairs (a, b) of clusters side by side, one above the other or diagonally, b > a, sorted."""
        cluster = np.arange(len(self))
        column, row = cluster % self.columns, cluster // self.columns
        pairs = []
        for d_column, d_row in ((1, 0), (-1, 1), (0, 1), (1, 1)):
            inside = (column + d_column >= 0) & (column + d_column < self.columns) & (row + d_row < self.rows)
            pairs.append(np.stack((cluster[inside], cluster[inside] + d_row * self.columns + d_column), axis=1))
        joined = np.concatenate(pairs).reshape(-1, 2)
        return joined[np.lexsort((joined[:, 1], joined[:, 0]))]

    def borders(self) -> Iterator[Tuple[int, int]]:
        return ((a, b) for a, b in self.border_array().tolist())

    def borders_of(self, cluster: int) -> List[Tuple[int, int]]:
        """The borders of one cluster (with its up to eight neighbours), each as (a, b) with b > a."""
        row, column = divmod(cluster, self.columns)
        found = []
        for d_row in (-1, 0, 1):
            for d_column in (-1, 0, 1):
                r, c = row + d_row, column + d_column
                if (d_row or d_column) and 0 <= r < self.rows and 0 <= c < self.columns:
                    other = r * self.columns + c
                    found.append((min(cluster, other), max(cluster, other)))
        return sorted(found)


def hex_borders_key_points(
    passable: np.ndarray, clusters: Clusters, borders: Sequence[Tuple[int, int]], long_run: int, hexes: HexSteps
) -> List[List[Tuple[Cell, Cell]]]:
    """For each border (a, b), the key-point pairs (cell in a, cell in b) joined by a step across it, in order
    along the border."""
    return [_border_pairs(passable, clusters, a, b, long_run, hexes) for a, b in borders]


def _border_pairs(
    passable: np.ndarray, clusters: Clusters, a: int, b: int, long_run: int, hexes: HexSteps
) -> List[Tuple[Cell, Cell]]:
    crossings = sorted(_crossings(passable, clusters, a, b, hexes))
    pairs: List[Tuple[Cell, Cell]] = []
    chain: List[Tuple[Cell, Cell]] = []
    for index, (key, a_cell, b_cell) in enumerate(crossings):
        chain.append((a_cell, b_cell))
        if index + 1 == len(crossings) or crossings[index + 1][0] > key + 1:
            pairs += _chain_pairs(chain, long_run)
            chain = []
    return pairs


def _crossings(
    passable: np.ndarray, clusters: Clusters, a: int, b: int, hexes: HexSteps
) -> Iterator[Tuple[int, Cell, Cell]]:
    """The steps between free cells of clusters a and b: (the sum of the ends' places along the border, a's
    cell, b's cell)."""
    ax, ay, aw, ah = clusters.rect(a)
    bx, by, bw, bh = clusters.rect(b)
    along_x = by != ay  # one above the other (or diagonal): places along the border are x
    # a's cells next to b's rectangle
    for y in range(max(ay, by - 1), min(ay + ah, by + bh + 1)):
        for x in range(max(ax, bx - 1), min(ax + aw, bx + bw + 1)):
            if not passable[y, x]:
                continue
            for dx, dy, _ in hexes.steps((x, y)):
                nx, ny = x + dx, y + dy
                if bx <= nx < bx + bw and by <= ny < by + bh and passable[ny, nx]:
                    yield (x + nx if along_x else y + ny), (x, y), (nx, ny)


def _chain_pairs(chain: List[Tuple[Cell, Cell]], long_run: int) -> List[Tuple[Cell, Cell]]:
    """The key-point pairs of one chain of steps across a border: its middle step, or its halves' middles."""
    if (len(chain) + 1) // 2 <= long_run:
        return [chain[(len(chain) - 1) // 2]]
    half = len(chain) // 2
    return [chain[(half - 1) // 2], chain[half + (len(chain) - half - 1) // 2]]
