"""Step 1 of the bake: cut the map into equal square clusters (SPEC H1)."""

import math
from typing import Iterator, List, Tuple

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

    def borders(self) -> Iterator[Tuple[int, int]]:
        """Pairs (a, b) of clusters sharing a border, b right of or below a."""
        for cluster in range(len(self)):
            row, column = divmod(cluster, self.columns)
            if column + 1 < self.columns:
                yield cluster, cluster + 1
            if row + 1 < self.rows:
                yield cluster, cluster + self.columns

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
