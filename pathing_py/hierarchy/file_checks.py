"""What a graph file must prove before it is trusted: that the bake could have made it for this map.

A checksum only tells that the bytes are those written; a hand-edited or
modded file, or a faulty writer, can carry a right checksum and wrong
content. So the arrays read from a file are checked against the grid they
are loaded for, in a few passes of array operations:

- the key points and the pairs facing each other across borders are
  recomputed from the map (:func:`~.entrances.key_point_pairs`) and must be
  the stored ones;
- every cell path the graph can hand out (walked back from a key point along
  a stored field's directions) must take legal steps inside its cluster
  (free cells, no corner cut), end at the field's source and cost what the
  cost table says; a key point the table calls unreachable must lie outside
  the cells the field reached, and those must be closed under legal moves
  (so they hold every cell the source reaches in its cluster);
- the landmark distances must be a lower bound on the graph's distances.

The checks read only what the file and the grid hold; the work is bounded by
the arrays' sizes (at most a cluster's area of steps per stored cost).
"""

import math
from typing import Dict, Optional, Tuple

import numpy as np

from ..grid import Grid, corner_offsets
from ..jump_tables import DIRECTIONS
from .entrances import key_point_cells, key_point_pairs
from .partition import Clusters

__all__ = ["InvalidGraphData", "check_fields", "check_key_points", "check_landmarks", "cost_entries", "field_layout"]

#: Stored costs are sums of the same steps added in another order: this much relative slack.
COST_TOLERANCE = 1e-9

_STEP_X = np.array([dx for dx, _ in DIRECTIONS], dtype=np.int64)
_STEP_Y = np.array([dy for _, dy in DIRECTIONS], dtype=np.int64)
_STEP_LENGTH = np.array([math.sqrt(2.0) if dx and dy else 1.0 for dx, dy in DIRECTIONS])


class InvalidGraphData(ValueError):
    """Arrays of a graph file that the bake could not have written for this grid."""


def check_key_points(grid: Grid, clusters: Clusters, long_run: int, arrays: Dict[str, np.ndarray]) -> None:
    """The stored borders, border pairs and key points must be those of the map."""
    border_list = sorted(clusters.borders())
    borders = np.array(border_list, dtype=np.int64).reshape(-1, 2)
    counts, pairs = key_point_pairs(grid.passable, clusters, border_list, long_run)
    member_counts, members = key_point_cells(clusters, pairs)
    expected = {"borders": borders, "entrance_counts": counts, "entrances": pairs, "member_counts": member_counts, "members": members}
    for name, array in expected.items():
        if not np.array_equal(arrays[name], array):
            raise InvalidGraphData(f"the stored {name.replace('_', ' ')} are not those of the map")


def field_layout(clusters: Clusters, member_counts: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(rects (C, 4), cost entries per cluster, direction entries per cluster) that the stored fields take."""
    rects = np.array(clusters.rects(), dtype=np.int64).reshape(-1, 4)
    counts = member_counts.astype(np.int64)
    return rects, counts * counts, counts * rects[:, 2] * rects[:, 3]


def check_fields(grid: Grid, clusters: Clusters, arrays: Dict[str, np.ndarray]) -> None:
    """The stored costs and directions must give legal, complete paths of the stated costs.

    Call after :func:`check_key_points`: the key points are trusted here.
    """
    rects, cost_sizes, direction_sizes = field_layout(clusters, arrays["member_counts"])
    costs, directions = arrays["costs"], arrays["directions"]
    if costs.size != cost_sizes.sum() or directions.size != direction_sizes.sum():
        raise InvalidGraphData(f"{costs.size} costs and {directions.size} directions stored, the key points need "
                               f"{cost_sizes.sum()} and {direction_sizes.sum()}")  # fmt: skip
    if np.isnan(costs).any() or (costs < 0).any():
        raise InvalidGraphData("a stored cost is negative or not a number")
    if ((directions < -1) | (directions >= len(DIRECTIONS))).any():
        raise InvalidGraphData("a stored direction is not one of the eight moves")
    fields = _Fields(grid, rects, arrays["member_counts"], arrays["members"], direction_sizes)
    fields.check_steps(directions)
    fields.check_paths(costs, directions)


class _Fields:
    """Where each stored field lies: its cluster's rectangle, its source, its first direction entry."""

    def __init__(self, grid: Grid, rects: np.ndarray, member_counts: np.ndarray, members: np.ndarray, direction_sizes: np.ndarray):
        self.grid = grid
        counts = member_counts.astype(np.int64)
        self.cluster = np.repeat(np.arange(len(rects)), counts)  # of each field (one per key point)
        self.rect = rects[self.cluster]
        self.source = members.astype(np.int64)
        field_start = np.cumsum(direction_sizes) - direction_sizes  # of each cluster's fields
        number = np.arange(len(self.cluster)) - np.repeat(np.cumsum(counts) - counts, counts)  # within its cluster
        self.first = field_start[self.cluster] + number * self.rect[:, 2] * self.rect[:, 3]
        self.counts = counts

    def check_steps(self, directions: np.ndarray) -> None:
        """Every reached cell comes by a legal move from a reached cell; no legal move leaves the reached cells.

        Runs of neighbouring clusters of one shape are checked together as (fields, height, width) stacks.
        """
        passable = self.grid.passable
        shapes = self.rect[:, 2:]
        breaks = np.flatnonzero((np.diff(shapes, axis=0) != 0).any(axis=1) | (np.diff(self.rect[:, 1]) != 0)) + 1
        for begin, end in zip(np.concatenate(([0], breaks)), np.concatenate((breaks, [len(shapes)]))):
            if begin == end:
                continue
            x0, y0, width, height = self.rect[begin].tolist()
            right = int(self.rect[end - 1, 0]) + width
            area = passable[y0 : y0 + height, x0:right].reshape(height, -1, width).transpose(1, 0, 2)
            clusters = self.cluster[begin:end]
            free = area[clusters - clusters[0]]  # (fields, height, width), one map per field
            moves = directions[self.first[begin] : self.first[begin] + (end - begin) * width * height].reshape(-1, height, width)
            reached = moves != -1
            local = np.arange(end - begin)
            origin = self.rect[begin:end, :2]
            reached[local, self.source[begin:end, 1] - origin[:, 1], self.source[begin:end, 0] - origin[:, 0]] = True
            if (reached & ~free).any():
                raise InvalidGraphData("a stored field reaches a blocked cell")
            for d, (dx, dy) in enumerate(DIRECTIONS):
                legal = _legal_moves(free, dx, dy)  # legal[f, y, x]: the move (dx, dy) from (x, y)
                into = _shift(reached, -dx, -dy)  # into[f, y, x]: the cell the move lands on is reached
                if (reached & legal & ~into).any():
                    raise InvalidGraphData("a stored field misses cells its source reaches in its cluster")
                came = moves == d
                if (came & ~_shift(reached & legal, dx, dy)).any():
                    raise InvalidGraphData("a stored field steps outside its cluster, through a wall or from a cell it did not reach")

    def check_paths(self, costs: np.ndarray, directions: np.ndarray) -> None:
        """Walk back every path the cost table says exists: it must end at its source and cost the table's figure."""
        field, target = cost_entries(self.counts)
        finite = np.isfinite(costs)
        rect = self.rect[field]
        width = rect[:, 2]
        x, y = self.source[target, 0] - rect[:, 0], self.source[target, 1] - rect[:, 1]
        at = self.first[field] + y * width + x
        if (directions[at[~finite]] != -1).any() or (target[~finite] == field[~finite]).any():
            raise InvalidGraphData("the cost table calls a key point unreachable that its field reaches")
        _walk_back(self.grid.cost, directions, at[finite], x[finite], y[finite], rect[finite], costs[finite],
                   self.first[field[finite]] + (self.source[field[finite], 1] - rect[finite, 1]) * width[finite]
                   + self.source[field[finite], 0] - rect[finite, 0])  # fmt: skip


def _walk_back(cost: Optional[np.ndarray], directions, at, x, y, rect, expected, source_at) -> None:
    """All walks at once, one step per round; a walk longer than its cluster's area has a loop."""
    spent = np.zeros(len(at))
    x0, y0, width = rect[:, 0], rect[:, 1], rect[:, 2]
    rounds_left = int((rect[:, 2] * rect[:, 3]).max()) if len(at) else 0
    while len(at):
        step = directions[at].astype(np.int64)
        done = step == -1
        if (at[done] != source_at[done]).any():
            raise InvalidGraphData("a stored path does not lead back to its key point")
        if not np.allclose(spent[done], expected[done], rtol=COST_TOLERANCE, atol=COST_TOLERANCE):
            raise InvalidGraphData("a stored cost is not the cost of its path")
        if rounds_left == 0:
            raise InvalidGraphData("a stored path goes round in a loop")
        rounds_left -= 1
        going = ~done
        at, x, y, spent, expected, source_at = at[going], x[going], y[going], spent[going], expected[going], source_at[going]
        x0, y0, width, step = x0[going], y0[going], width[going], step[going]
        length = _STEP_LENGTH[step]
        spent += length if cost is None else length * cost[y + y0, x + x0]
        if (spent > expected * (1 + COST_TOLERANCE) + COST_TOLERANCE).any():
            raise InvalidGraphData("a stored cost is not the cost of its path")
        dx, dy = _STEP_X[step], _STEP_Y[step]
        x, y, at = x - dx, y - dy, at - dx - dy * width


def _shift(array: np.ndarray, dx: int, dy: int) -> np.ndarray:
    """``out[..., y, x] = array[..., y - dy, x - dx]``, False where that lies outside."""
    out = np.zeros_like(array)
    height, width = array.shape[-2:]
    out[..., max(dy, 0) : height + min(dy, 0), max(dx, 0) : width + min(dx, 0)] = array[
        ..., max(-dy, 0) : height + min(-dy, 0), max(-dx, 0) : width + min(-dx, 0)
    ]
    return out


def _legal_moves(free: np.ndarray, dx: int, dy: int) -> np.ndarray:
    """``legal[..., y, x]``: the move (dx, dy) from (x, y) stays inside, onto a free cell, cutting no corner."""
    legal = free & _shift(free, -dx, -dy)
    for cx, cy in corner_offsets(dx, dy):
        legal &= _shift(free, -cx, -cy)
    return legal


def cost_entries(member_counts: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """For each stored cost, in file order: (its source, its target), as indices into the key points."""
    counts = member_counts.astype(np.int64)
    per_cluster = counts * counts
    cluster = np.repeat(np.arange(len(counts)), per_cluster)
    entry = np.arange(int(per_cluster.sum())) - np.repeat(np.cumsum(per_cluster) - per_cluster, per_cluster)
    first = (np.cumsum(counts) - counts)[cluster]
    row = np.maximum(counts[cluster], 1)
    return first + entry // row, first + entry % row


def check_landmarks(grid: Grid, arrays: Dict[str, np.ndarray]) -> None:
    """Landmarks must be distinct key points at distances >= 0 that no edge of the graph beats.

    That is what makes their bound a lower bound of the distance to the goal,
    so the search stays right. Call after :func:`check_fields`.
    """
    nodes, table = arrays["landmarks"].astype(np.int64), arrays["landmark_distances"]
    members = arrays["members"].astype(np.int64)
    if grid.cost is not None and len(nodes):
        raise InvalidGraphData("landmarks stored for a weighted map")
    if table.shape != (len(nodes), len(members)):
        raise InvalidGraphData(f"a landmark table of shape {table.shape} for {len(nodes)} landmarks and {len(members)} key points")
    if not len(nodes):
        return
    index = _key_point_index(grid, members, nodes)
    if (index < 0).any() or len(np.unique(nodes)) != len(nodes):
        raise InvalidGraphData("a landmark is not a key point, or is named twice")
    if np.isnan(table).any() or (table < 0).any() or (table[np.arange(len(nodes)), index] != 0).any():
        raise InvalidGraphData("a landmark distance is negative or not a number, or a landmark is not at 0 from itself")
    costs = arrays["costs"]
    source, target = cost_entries(arrays["member_counts"])
    inside = np.isfinite(costs)
    pairs = arrays["entrances"].astype(np.int64)
    across_a = _key_point_index(grid, members, pairs[:, 1] * grid.width + pairs[:, 0])
    across_b = _key_point_index(grid, members, pairs[:, 3] * grid.width + pairs[:, 2])
    for a, b, bound in ((source[inside], target[inside], costs[inside]), (across_a, across_b, 1.0)):
        with np.errstate(invalid="ignore"):  # inf - inf: key points no landmark reaches, nothing to bound
            gap = np.abs(table[:, a] - table[:, b])
        if (gap > np.asarray(bound) * (1 + COST_TOLERANCE) + COST_TOLERANCE).any():
            raise InvalidGraphData("the landmark distances overestimate: they are not distances in this graph")


def _key_point_index(grid: Grid, members: np.ndarray, cells: np.ndarray) -> np.ndarray:
    """The index among ``members`` of each flat cell index ``y * width + x`` in ``cells``; -1 for other cells."""
    flat = members[:, 1] * grid.width + members[:, 0]
    if not len(flat):
        return np.full(len(cells), -1, dtype=np.int64)
    order = np.argsort(flat)
    found = order[np.minimum(np.searchsorted(flat[order], cells), len(flat) - 1)]
    return np.where(flat[found] == cells, found, -1)
