"""Step 2 of the bake: key points on the borders between clusters (SPEC H2).

Along a border, an entrance is a run of consecutive rows (or columns) whose
cells are free on both sides. Every run gets key points, not only the longest
one (the seed's choice, which loses connectivity): one pair facing each other
across the border at the middle of a short run, two pairs at the middles of
the halves of a long one.

Under the no-corner-cutting rule every diagonal step across a border has an
orthogonal crossing next to it in the same run, so the runs capture every way
across.
"""

from typing import List, Tuple

import numpy as np

from .partition import Clusters

__all__ = ["DEFAULT_LONG_RUN", "border_key_points"]

#: Runs longer than this many cells get two key points. Chosen with bench/bench_long_run.py: 8 keeps
#: the mean path within 0.5% of optimal (12 or one key point per run reach 7-8% worst cases)
#: with fewer key points than 4 or 6.
DEFAULT_LONG_RUN = 8

Cell = Tuple[int, int]


def border_key_points(passable: np.ndarray, clusters: Clusters, a: int, b: int, long_run: int) -> List[Tuple[Cell, Cell]]:
    """Pairs (cell in a, cell in b) facing each other across the border of clusters a and b."""
    ax, ay, aw, ah = clusters.rect(a)
    bx, by, bw, bh = clusters.rect(b)
    if by == ay:  # b is right of a: the border is a column pair
        side_a = passable[ay : ay + ah, ax + aw - 1]
        side_b = passable[by : by + bh, bx]

        def pair(i: int) -> Tuple[Cell, Cell]:
            return (ax + aw - 1, ay + i), (bx, by + i)

    else:  # b is below a: the border is a row pair
        side_a = passable[ay + ah - 1, ax : ax + aw]
        side_b = passable[by, bx : bx + bw]

        def pair(i: int) -> Tuple[Cell, Cell]:
            return (ax + i, ay + ah - 1), (bx + i, by)

    pairs = []
    for first, length in _runs(side_a & side_b):
        if length > long_run:
            half = length // 2
            pairs += [pair(first + (half - 1) // 2), pair(first + half + (length - half - 1) // 2)]
        else:
            pairs.append(pair(first + (length - 1) // 2))
    return pairs


def _runs(free: np.ndarray) -> List[Tuple[int, int]]:
    """(first index, length) of each run of True values."""
    padded = np.concatenate(([False], free, [False])).astype(np.int8)
    changes = np.flatnonzero(np.diff(padded))
    return [(int(start), int(end - start)) for start, end in zip(changes[::2], changes[1::2])]
