"""Step 2 of the bake: key points on the borders between clusters (SPEC H2).

Along a border, an entrance is a run of consecutive rows (or columns) whose
cells are free on both sides. Every run gets key points, not only the longest
one (the seed's choice, which loses connectivity): one pair facing each other
across the border at the middle of a short run, two pairs at the middles of
the halves of a long one. On weighted grids a pair goes to the cheapest
crossing of its run (or half), the one nearest the middle among equals:
every path through it pays that crossing.

Under the corner rule (:func:`pathing_py.grid.corner_offsets`) every diagonal step across a border has an
orthogonal crossing next to it in the same run, so the runs capture every way
across.
"""

from typing import List, Optional, Sequence, Tuple, Union

import numpy as np

from .partition import Clusters

__all__ = ["DEFAULT_LONG_RUN", "border_key_points", "borders_key_points", "key_point_cells", "key_point_pairs"]

#: Runs longer than this many cells get two key points. Chosen with bench/bench_long_run.py: 8 keeps
#: the mean path near optimal (longer runs, or one key point per run, have far worse worst cases)
#: with fewer key points than shorter runs.
DEFAULT_LONG_RUN = 8

Cell = Tuple[int, int]


def border_key_points(
    passable: np.ndarray, clusters: Clusters, a: int, b: int, long_run: int, cost: Optional[np.ndarray] = None
) -> List[Tuple[Cell, Cell]]:
    """Pairs (cell in a, cell in b) facing each other across the border of clusters a and b."""
    return borders_key_points(passable, clusters, [(a, b)], long_run, cost)[0]


def borders_key_points(
    passable: np.ndarray,
    clusters: Clusters,
    borders: Sequence[Tuple[int, int]],
    long_run: int,
    cost: Optional[np.ndarray] = None,
) -> List[List[Tuple[Cell, Cell]]]:
    """:func:`border_key_points` of many borders, in one pass of array operations: a list per border."""
    counts, pairs = key_point_pairs(passable, clusters, borders, long_run, cost)
    rows = pairs.tolist()
    ends = np.cumsum(counts).tolist()
    return [
        [((ax, ay), (bx, by)) for ax, ay, bx, by in rows[end - count : end]]
        for end, count in zip(ends, counts.tolist())
    ]


def key_point_pairs(
    passable: np.ndarray,
    clusters: Clusters,
    borders: Union[np.ndarray, Sequence[Tuple[int, int]]],
    long_run: int,
    cost: Optional[np.ndarray] = None,
) -> Tuple[np.ndarray, np.ndarray]:
    """The pairs of many borders (a, b) at once, in array form: (pairs per border (B,), pairs (E, 4)).

    Each pair is (ax, ay, bx, by), grouped by border in the order given and
    ordered along each border. One pass of array operations for all borders,
    so that a loaded graph file can be checked against its map cheaply.
    """
    border = np.asarray(borders, dtype=np.int64).reshape(-1, 2)
    ax, ay, aw, ah = clusters.rect_array(border[:, 0]).T
    by = clusters.rect_array(border[:, 1])[:, 1]
    right = by == ay  # b is right of a: the border is a column pair; else b is below a: a row pair
    first_x = np.where(right, ax + aw - 1, ax)  # the first cell of side a
    first_y = np.where(right, ay, ay + ah - 1)
    step_x, step_y = (~right).astype(np.int64), right.astype(np.int64)  # along the border
    across_x, across_y = step_y, step_x  # from side a to side b
    length = np.where(right, ah, aw)
    along = np.arange(int(length.max()) if len(length) else 0)
    inside = along < length[:, None]
    xs = np.where(inside, first_x[:, None] + step_x[:, None] * along, 0)
    ys = np.where(inside, first_y[:, None] + step_y[:, None] * along, 0)
    other_ys, other_xs = np.where(inside, ys + across_y[:, None], 0), np.where(inside, xs + across_x[:, None], 0)
    free = inside & passable[ys, xs] & passable[other_ys, other_xs]
    rows, starts, lengths = _runs(free)
    long = lengths > long_run
    half = lengths[long] // 2
    row = np.concatenate((rows[~long], rows[long], rows[long]))
    first = np.concatenate(
        (starts[~long], starts[long], starts[long] + half)
    )  # a short run, or a long one's two halves
    size = np.concatenate((lengths[~long], half, lengths[long] - half))
    at = first + (size - 1) // 2  # the middle of each
    if cost is not None and len(at):
        at = _cheapest(cost[ys, xs] + cost[other_ys, other_xs], row, first, size, at)
    order = np.lexsort((at, row))
    row, at = row[order], at[order]
    x, y = first_x[row] + step_x[row] * at, first_y[row] + step_y[row] * at
    pairs = np.stack((x, y, x + across_x[row], y + across_y[row]), axis=1).reshape(-1, 4)
    return np.bincount(row, minlength=len(border)), pairs


def key_point_cells(clusters: Clusters, pairs: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """The key points of every cluster from all border pairs: (count per cluster, cells (M, 2)).

    Cells are grouped by cluster and sorted by (y, x) within each, each once
    (a corner cell can face two borders), as the graph keeps them.
    """
    cells = np.concatenate((pairs[:, :2], pairs[:, 2:])).astype(np.int64)
    x, y = cells[:, 0], cells[:, 1]
    cluster = (y // clusters.size) * clusters.columns + x // clusters.size
    keys = np.sort((cluster * clusters.height + y) * clusters.width + x)
    keys = keys[
        np.concatenate((keys[:1] == keys[:1], keys[1:] != keys[:-1]))
    ]  # np.unique on sorted keys, without its hashing on numpy 2, which costs far more here
    cluster, rest = np.divmod(keys, clusters.height * clusters.width)
    y, x = np.divmod(rest, clusters.width)
    return np.bincount(cluster, minlength=len(clusters)), np.stack((x, y), axis=1).reshape(-1, 2)


def _cheapest(
    crossing: np.ndarray, row: np.ndarray, first: np.ndarray, size: np.ndarray, middle: np.ndarray
) -> np.ndarray:
    """For each piece of run (border ``row``, ``first`` index, ``size``), its cheapest crossing nearest ``middle``."""
    offset = np.arange(int(size.max()))
    at = first[:, None] + offset
    inside = offset < size[:, None]
    price = np.where(inside, crossing[row[:, None], np.where(inside, at, 0)], np.inf)
    cheapest = inside & (price == price.min(axis=1, initial=np.inf, keepdims=True))
    nearest = np.argmin(np.where(cheapest, np.abs(at - middle[:, None]), np.iinfo(np.int64).max), axis=1)
    return first + nearest


def _runs(free: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(row, first index, length) of each run of True values along the rows of ``free``."""
    padded = np.zeros((free.shape[0], free.shape[1] + 2), dtype=np.int8)
    padded[:, 1:-1] = free
    changes = np.diff(padded, axis=1)
    rows, starts = np.nonzero(changes == 1)
    _, ends = np.nonzero(changes == -1)
    return rows, starts, ends - starts
