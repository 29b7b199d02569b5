"""Step 1 of the bake: cut the map into equal square clusters (SPEC H1)."""

import math
from typing import Iterator, List, Optional, Tuple

import numpy as np

from ..grid import Cell

__all__ = ["Clusters", "default_cluster_size"]

Rect = Tuple[int, int, int, int]

#: A cluster should be about this many unit sizes wide (seed 001).
UNIT_SIZES_PER_CLUSTER = 10


def default_cluster_size(width: int, height: int, unit_size: int = 1) -> int:
    """Halve the map (2x2, 4x4, …) while a cluster stays at least ten unit sizes wide.

    The result lies between ten and twenty unit sizes (or is the whole map when
    that is smaller): "about ten unit sizes wide", as seed 001 asks.
    """
    if unit_size < 1:
        raise ValueError(f"unit_size must be >= 1, got {unit_size}")
    side = max(width, height)
    smallest = UNIT_SIZES_PER_CLUSTER * unit_size
    while math.ceil(side / 2) >= smallest:
        side = math.ceil(side / 2)
    return max(side, 2)  # a cluster is at least 2 cells wide, even on a one-cell map


class Clusters:
    """Square clusters of ``size`` cells covering a ``width`` x ``height`` grid, row by row.

    Clusters on the right and bottom edges may be narrower. A cluster is
    named by its index ``row * columns + column``.
    """

    def __init__(self, width: int, height: int, size: int):
        if size < 2:
            raise ValueError(f"cluster_size must be at least 2, got {size}")
        self.width, self.height, self.size = width, height, size
        self.columns = math.ceil(width / size)
        self.rows = math.ceil(height / size)

    def __len__(self) -> int:
        return self.columns * self.rows

    def of(self, cell: Cell) -> int:
        return (cell[1] // self.size) * self.columns + cell[0] // self.size

    def rect(self, cluster: int) -> Rect:
        """(x, y, width, height) of a cluster, in grid cells."""
        row, column = divmod(cluster, self.columns)
        x, y = column * self.size, row * self.size
        return x, y, min(self.size, self.width - x), min(self.size, self.height - y)

    def rects(self) -> List[Rect]:
        return [self.rect(cluster) for cluster in range(len(self))]

    def rect_array(self, clusters: Optional[np.ndarray] = None) -> np.ndarray:
        """:meth:`rect` of many clusters (all by default) as rows of an (N, 4) array.

        For loading a graph file, where thousands of calls to :meth:`rect` cost more than the checks.
        """
        named = np.arange(len(self)) if clusters is None else np.asarray(clusters, dtype=np.int64)
        row, column = np.divmod(named, self.columns)
        x, y = column * self.size, row * self.size
        return np.stack(
            (x, y, np.minimum(self.size, self.width - x), np.minimum(self.size, self.height - y)), axis=1
        ).reshape(-1, 4)

    def borders(self) -> Iterator[Tuple[int, int]]:
        """Pairs (a, b) of clusters sharing a border, b right of or below a, in sorted order."""
        return ((a, b) for a, b in self.border_array().tolist())

    def border_array(self) -> np.ndarray:
        """:meth:`borders` as a sorted (B, 2) array."""
        cluster = np.arange(len(self))
        right = cluster[cluster % self.columns + 1 < self.columns]
        below = cluster[cluster // self.columns + 1 < self.rows]
        pairs = np.concatenate((np.stack((right, right + 1), axis=1), np.stack((below, below + self.columns), axis=1)))
        return pairs[np.lexsort((pairs[:, 1], pairs[:, 0]))]

    def borders_of(self, cluster: int) -> List[Tuple[int, int]]:
        """The borders of one cluster, each as (a, b) with b right of or below a."""
        row, column = divmod(cluster, self.columns)
        found = []
        if column > 0:
            found.append((cluster - 1, cluster))
        if row > 0:
            found.append((cluster - self.columns, cluster))
        if column + 1 < self.columns:
            found.append((cluster, cluster + 1))
        if row + 1 < self.rows:
            found.append((cluster, cluster + self.columns))
        return found
