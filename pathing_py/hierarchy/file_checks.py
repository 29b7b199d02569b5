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
- the landmarks must be those the bake picks, and their distances the
  graph's shortest distances, bit for bit (updates repair them as exact).

The checks read only what the file and the grid hold; the work is bounded by
the arrays' sizes (at most a cluster's area of steps per stored cost). They
must cost little next to reading the file (a game loads it when a level
starts): legal moves are looked up in a table computed once for the map, the
fields of many clusters are checked in one array operation per move, and the
paths are walked all at once, a step per round (bench/bench_hierarchy.py
prints the checks' share of the load).
"""

import math
from typing import Dict, Iterator, Optional, Tuple

import numpy as np

from ..grid import Grid, corner_offsets, is_move
from ..hex_grid import HexSteps
from ..jump_tables import DIRECTIONS
from .entrances import key_point_cells, key_point_pairs
from .fields import NO_DIRECTION
from .hex_entrances import hex_borders_key_points
from .landmarks import LANDMARK_COUNT
from .partition import Clusters

__all__ = [
    "CostEntries", "InvalidGraphData", "check_fields", "check_graph_arrays", "check_hex_graph_arrays",
    "check_key_points", "check_landmarks", "field_layout",
]  # fmt: skip

#: Stored costs are sums of the same steps added in another order: this much relative slack.
COST_TOLERANCE = 1e-9

#: Per direction index, and last for "no direction" (-1, the end of a walk): a step's offsets and length.
_STEP_X = np.array([dx for dx, _ in DIRECTIONS] + [0], dtype=np.int64)
_STEP_Y = np.array([dy for _, dy in DIRECTIONS] + [0], dtype=np.int64)
_STEP_LENGTH = np.array([math.sqrt(2.0) if dx and dy else 1.0 for dx, dy in DIRECTIONS] + [0.0])
#: Steps are checked, and paths walked, in groups of fields of about this many direction entries, so
#: that they stay in the CPU's cache (smaller groups cost more numpy calls, larger ones cache misses; walks,
#: whose numpy calls per step cost more than cache misses, take larger groups).
CHUNK_ENTRIES = 1 << 18
WALK_CHUNK_ENTRIES = 1 << 21
#: Half of the eight moves, one of each pair of opposites: legal moves go both ways, so these cover every
#: pair of neighbours.
_FORWARD = [d for d, (dx, dy) in enumerate(DIRECTIONS) if dy > 0 or (dy == 0 and dx > 0)]


class InvalidGraphData(ValueError):
    """Arrays of a graph file that the bake could not have written for this grid."""


def check_graph_arrays(grid: Grid, clusters: Clusters, long_run: int, arrays: Dict[str, np.ndarray]) -> None:
    """All the checks, in the order they rely on each other."""
    check_key_points(grid, clusters, long_run, arrays)
    entries = CostEntries(arrays["member_counts"])
    check_fields(grid, clusters, arrays, entries)
    check_landmarks(grid, arrays, entries)


def check_key_points(grid: Grid, clusters: Clusters, long_run: int, arrays: Dict[str, np.ndarray]) -> None:
    """The stored borders, border pairs and key points must be those of the map."""
    borders = clusters.border_array()
    counts, pairs = key_point_pairs(grid.passable, clusters, borders, long_run, grid.cost)
    _compare_key_points(clusters, borders, counts, pairs, arrays)


def check_hex_graph_arrays(
    grid: Grid, clusters: Clusters, long_run: int, arrays: Dict[str, np.ndarray], hexes: HexSteps
) -> None:
    """The checks of a half-offset map's graph (:mod:`.hex_entrances`, :class:`.HexKeyPointGraph`): its borders,
    border pairs and key points must be those of the map, its costs and directions as many as they need,
    its landmarks as many as the key points' table has rows.

    The walks of :func:`check_fields` and the distances of :func:`check_landmarks` follow square moves and are
    not made: a hex graph's fields and landmarks are trusted after the file's checksum."""
    borders = clusters.border_array()
    per_border = hex_borders_key_points(grid.passable, clusters, borders.tolist(), long_run, hexes)
    counts = np.array([len(pairs) for pairs in per_border], dtype=np.int64)
    pairs = np.array([a + b for border in per_border for a, b in border], dtype=np.int64).reshape(-1, 4)
    _compare_key_points(clusters, borders, counts, pairs, arrays)
    _check_field_sizes(clusters, arrays)
    nodes, table = arrays["landmarks"], arrays["landmark_distances"]
    if table.shape != (len(nodes), len(arrays["members"])):
        raise InvalidGraphData(f"a landmark table of shape {table.shape} for {len(nodes)} landmarks")


def _compare_key_points(
    clusters: Clusters, borders: np.ndarray, counts: np.ndarray, pairs: np.ndarray, arrays: Dict[str, np.ndarray]
) -> None:
    """The stored borders, border pairs and key points must be these, recomputed from the map."""
    member_counts, members = key_point_cells(clusters, pairs)
    expected = {
        "borders": borders,
        "entrance_counts": counts,
        "entrances": pairs,
        "member_counts": member_counts,
        "members": members,
    }
    for name, array in expected.items():
        if not np.array_equal(arrays[name], array):
            raise InvalidGraphData(f"the stored {name.replace('_', ' ')} are not those of the map")


def field_layout(clusters: Clusters, member_counts: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(rects (C, 4), cost entries per cluster, direction entries per cluster) that the stored fields take."""
    rects = clusters.rect_array()
    counts = member_counts.astype(np.int64)
    return rects, counts * counts, counts * rects[:, 2] * rects[:, 3]


def check_fields(grid: Grid, clusters: Clusters, arrays: Dict[str, np.ndarray], entries: "CostEntries") -> None:
    """The stored costs and directions must give legal, complete paths of the stated costs.

    Call after :func:`check_key_points`: the key points are trusted here;
    ``entries`` are those of the stored key points.
    """
    rects, _, direction_sizes = _check_field_sizes(clusters, arrays)
    costs, directions = arrays["costs"], arrays["directions"]
    fields = _Fields(rects, arrays["member_counts"], arrays["members"], direction_sizes)
    legal = _legal_moves_into(grid.passable, clusters.size, grid.connectivity)
    fields.check_steps(_cluster_tiles(legal, clusters), directions)
    fields.check_paths(grid.cost, costs, directions, entries)


def _check_field_sizes(clusters: Clusters, arrays: Dict[str, np.ndarray]) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The stored costs and directions must be as many as the key points need, costs not negative, directions
    moves; :func:`field_layout`."""
    layout = rects, cost_sizes, direction_sizes = field_layout(clusters, arrays["member_counts"])
    costs, directions = arrays["costs"], arrays["directions"]
    if costs.size != cost_sizes.sum() or directions.size != direction_sizes.sum():
        raise InvalidGraphData(f"{costs.size} costs and {directions.size} directions stored, the key points need "
                               f"{cost_sizes.sum()} and {direction_sizes.sum()}")  # fmt: skip
    if np.isnan(costs).any() or (costs < 0).any():
        raise InvalidGraphData("a stored cost is negative or not a number")
    if len(directions) and (directions.min() < NO_DIRECTION or directions.max() >= len(DIRECTIONS)):
        raise InvalidGraphData("a stored direction is not one of the eight moves")
    return layout


class _Fields:
    """Where each stored field lies: its cluster's rectangle, its source, its first direction entry."""

    def __init__(self, rects: np.ndarray, member_counts: np.ndarray, members: np.ndarray, direction_sizes: np.ndarray):
        counts = member_counts.astype(np.int64)
        self.rects, self.counts = rects, counts
        self.cluster = np.repeat(np.arange(len(rects)), counts)  # of each field (one per key point)
        self.rect = rects[self.cluster]
        self.source = members.astype(np.int64)
        field_start = np.cumsum(direction_sizes) - direction_sizes  # of each cluster's fields
        number = np.arange(len(self.cluster)) - np.repeat(np.cumsum(counts) - counts, counts)  # within its cluster
        self.first = field_start[self.cluster] + number * self.rect[:, 2] * self.rect[:, 3]

    def chunks(self) -> Iterator[Tuple[int, int, int, int]]:
        """(first field, end field, width, height): fields laid end to end in the file, of one shape.

        Each chunk is of clusters that follow each other and have one shape, so
        that a move is a fixed offset between entries, and takes at most about
        CHUNK_ENTRIES entries (or one field).
        """
        shapes = self.rects[:, 2:]
        area = shapes[:, 0] * shapes[:, 1]
        cluster_end = np.cumsum(self.counts)
        breaks = np.flatnonzero((np.diff(shapes, axis=0) != 0).any(axis=1)) + 1
        for begin, end in zip(np.concatenate(([0], breaks)).tolist(), np.concatenate((breaks, [len(shapes)])).tolist()):
            width, height = shapes[begin].tolist()
            step = max(1, CHUNK_ENTRIES // int(area[begin]))
            first, last = int(cluster_end[begin] - self.counts[begin]), int(cluster_end[end - 1])
            for chunk in range(first, last, step):
                yield chunk, min(chunk + step, last), width, height

    def check_steps(self, tiles: np.ndarray, directions: np.ndarray) -> None:
        """Every stored step is a legal move inside its cluster; no legal move leaves the cells a field reached.

        The second makes the reached cells (those with a step, and the source)
        hold every cell the source reaches in its cluster. ``tiles`` (see
        :func:`_cluster_tiles`) says which moves into each cell are legal.
        """
        for first, end, width, height in self.chunks():
            area = width * height
            legal = tiles[self.cluster[first:end], :height, :width].reshape(-1)
            source = (
                (self.source[first:end, 1] - self.rect[first:end, 1]) * width
                + self.source[first:end, 0]
                - self.rect[first:end, 0]
            )
            moves = directions[self.first[first] : self.first[first] + (end - first) * area]
            _check_run(legal, moves, source + np.arange(end - first) * area, width)

    def check_paths(
        self, cost: Optional[np.ndarray], costs: np.ndarray, directions: np.ndarray, entries: "CostEntries"
    ) -> None:
        """Walk back every path the cost table says exists: it must end at its source and cost the table's figure."""
        field, target = entries.source, entries.target
        # Key point k is the source of field k; where it lies within a field of its cluster:
        local = (self.source[:, 1] - self.rect[:, 1]) * self.rect[:, 2] + self.source[:, 0] - self.rect[:, 0]
        start = np.take(self.first, field)
        at = start + np.take(local, target)
        finite = np.isfinite(costs)
        if not finite.all():
            if (directions[at[~finite]] != NO_DIRECTION).any() or (target[~finite] == field[~finite]).any():
                raise InvalidGraphData("the cost table calls a key point unreachable that its field reaches")
            field, target, start, at, costs = field[finite], target[finite], start[finite], at[finite], costs[finite]
        home = start + np.take(local, field)
        cell = None if cost is None else np.take(self.source[:, 1] * cost.shape[1] + self.source[:, 0], target)
        width, piece = np.take(self.rect[:, 2], field), start // WALK_CHUNK_ENTRIES
        for group in np.unique(self.rects[:, 2]).tolist():  # a move is a fixed offset in fields of one width
            area = int(self.rects[self.rects[:, 2] == group, 3].max()) * group
            chosen = np.flatnonzero(width == group)
            for part in np.split(chosen, np.flatnonzero(np.diff(piece[chosen])) + 1):
                _Walks(at[part], home[part], costs[part], None if cell is None else cell[part], area).run(
                    directions, cost, group
                )


def _check_run(legal: np.ndarray, moves: np.ndarray, sources: np.ndarray, width: int) -> None:
    """:meth:`_Fields.check_steps` for fields laid end to end, ``legal`` the legal moves into each entry."""
    stepped = moves != NO_DIRECTION
    allowed = (legal >> (moves.view(np.uint8) & np.uint8(7))) & np.uint8(1)  # of the stored step (any, where none)
    if (stepped & ~allowed.view(bool)).any():
        raise InvalidGraphData(
            "a stored field steps outside its cluster, onto a wall, past a corner or diagonally on a 4-connected grid"
        )
    reached = stepped
    reached[sources] = True
    for d in _FORWARD:
        dx, dy = DIRECTIONS[d]
        offset = dx + dy * width
        if 0 < offset < len(reached):
            crossing = (legal[offset:] >> np.uint8(d)) & np.uint8(1)  # a legal move from entry i - offset to entry i
            if (crossing.view(bool) & (reached[offset:] != reached[:-offset])).any():
                raise InvalidGraphData("a stored field misses cells its source reaches in its cluster")


class _Walks:
    """Paths walked back from their targets all at once, one step per round.

    A step costs at least 1 (cell costs are >= 1), so a path whose stated cost
    is c ends within c steps: walks go longest first, and those whose last
    round has come are checked and cut off the end (a slice, no copying).
    """

    def __init__(self, at: np.ndarray, home: np.ndarray, expected: np.ndarray, cell: Optional[np.ndarray], rounds: int):
        last = np.minimum(expected * (1 + COST_TOLERANCE) + COST_TOLERANCE, rounds).astype(
            np.int64
        )  # steps it may take
        order = np.argsort(last.astype(np.uint16) if rounds < 2**16 else last, kind="stable")[::-1]  # radix sort
        self.at, self.home, self.expected, self.last_negated = at[order], home[order], expected[order], -last[order]
        self.cell = None if cell is None else cell[order]  # in the map, for weighted maps
        self.spent = np.zeros(len(at))

    def run(self, directions: np.ndarray, cost: Optional[np.ndarray], width: int) -> None:
        """Walk in fields ``width`` cells wide; a walk longer than its cluster's area has a loop."""
        back = _STEP_X + _STEP_Y * width  # tables indexed by steps: table[index] (np.take is slower on int8)
        map_back = _STEP_X + _STEP_Y * (0 if cost is None else cost.shape[1])
        live, taken = len(self.at), 0
        while live:
            step = np.take(directions, self.at[:live])
            ending = int(
                np.searchsorted(self.last_negated[:live], -taken, side="right")
            )  # walks [ending, live) end now
            if ending < live:
                self.finish(step[ending:], ending, live)
                live, step = ending, step[:ending]
            index = step.astype(
                np.intp
            )  # once for the tables below (each would convert int8 steps anew, a fair share of the walks)
            length = _STEP_LENGTH[index]
            if cost is not None and self.cell is not None:
                length *= np.take(cost, self.cell[:live])
                self.cell[:live] -= map_back[index]
            self.spent[:live] += length
            self.at[:live] -= back[index]
            taken += 1

    def finish(self, step: np.ndarray, begin: int, end: int) -> None:
        """Walks ``begin:end`` have taken all the steps their cost allows: they must be home, at that cost."""
        if (step != NO_DIRECTION).any():
            raise InvalidGraphData(
                "a stored path is longer than its cost allows, or goes round in a loop: not the cost of its path"
            )
        if (self.at[begin:end] != self.home[begin:end]).any():
            raise InvalidGraphData("a stored path does not lead back to its key point")
        expected = self.expected[begin:end]
        if (
            np.abs(self.spent[begin:end] - expected) > COST_TOLERANCE * (1 + expected)
        ).any():  # np.allclose without its checks and copies, far cheaper
            raise InvalidGraphData("a stored cost is not the cost of its path")


def _legal_moves_into(passable: np.ndarray, size: int, connectivity: int) -> np.ndarray:
    """``legal[y, x]``: bit d set when the move ``DIRECTIONS[d]`` into (x, y) is legal and starts in its cluster.

    Legal: a move of the grid's connectivity (:func:`~pathing_py.grid.is_move`), onto a free cell from a free
    cell, cutting no corner (:func:`~pathing_py.grid.corner_offsets`). Computed once for the map, then cut into
    clusters by :func:`_cluster_tiles`; each move on views of the map where it starts and ends inside it.
    """
    height, width = passable.shape
    column, row = np.arange(width) % size, np.arange(height) % size  # within the cluster
    legal = np.zeros(passable.shape, dtype=np.uint8)
    for d, (dx, dy) in enumerate(DIRECTIONS):
        if not is_move(dx, dy, connectivity):
            continue
        into = (slice(max(dy, 0), height + min(dy, 0)), slice(max(dx, 0), width + min(dx, 0)))
        move = passable[into] & _moved(passable, dx, dy, 0, 0)
        for cx, cy in corner_offsets(dx, dy):  # relative to the cell left, (x - dx, y - dy)
            move &= _moved(passable, dx, dy, cx, cy)
        move &= ((column - dx >= 0) & (column - dx < size))[None, into[1]] & ((row - dy >= 0) & (row - dy < size))[
            into[0], None
        ]
        legal[into] |= move.view(np.uint8) << np.uint8(d)
    return legal


def _moved(array: np.ndarray, dx: int, dy: int, cx: int, cy: int) -> np.ndarray:
    """The view of ``array`` at (x - dx + cx, y - dy + cy) for every (x, y) a move by (dx, dy) enters from inside."""
    height, width = array.shape
    top, left = max(-dy, 0) + cy, max(-dx, 0) + cx
    return array[top : top + height - abs(dy), left : left + width - abs(dx)]


def _cluster_tiles(per_cell: np.ndarray, clusters: Clusters) -> np.ndarray:
    """A map-sized array cut into clusters: (clusters, size, size), zero beyond the map's edge."""
    size = clusters.size
    padded = np.zeros((clusters.rows * size, clusters.columns * size), dtype=per_cell.dtype)
    padded[: per_cell.shape[0], : per_cell.shape[1]] = per_cell
    return padded.reshape(clusters.rows, size, clusters.columns, size).transpose(0, 2, 1, 3).reshape(-1, size, size)


class CostEntries:
    """For each stored cost, in file order: its source and its target, as indices into the key points;
    and where each key point's row of costs starts. Computed once for the checks that read them.

    The costs of a cluster of n key points are an n x n table, row by row.
    """

    def __init__(self, member_counts: np.ndarray):
        counts = member_counts.astype(np.int64)
        per_source = np.repeat(counts, counts)  # costs of each key point's row: its cluster's count
        self.source = np.repeat(np.arange(len(per_source)), per_source)
        self.row_start = np.cumsum(per_source) - per_source
        #: The index of the first key point of each key point's cluster.
        self.cluster_start = np.repeat(np.cumsum(counts) - counts, counts)
        self.target = np.arange(int(per_source.sum())) - np.repeat(self.row_start - self.cluster_start, per_source)


def check_landmarks(grid: Grid, arrays: Dict[str, np.ndarray], entries: CostEntries) -> None:
    """Landmarks must be those the bake picks, at the graph's shortest distances, bit for bit.

    A lower bound of the distances would keep the search right until the first
    update: the repair (see :mod:`.landmarks`) takes the stored distances for
    exact. Each distance must be the least, over the edges into its key point,
    of the neighbour's distance plus the edge's cost (0 at the landmark): only
    the shortest distances are such a table. Call after :func:`check_fields`.
    """
    nodes, table = arrays["landmarks"].astype(np.int64), arrays["landmark_distances"]
    members = arrays["members"].astype(np.int64)
    if grid.cost is not None and len(nodes):
        raise InvalidGraphData("landmarks stored for a weighted map")
    if table.shape != (len(nodes), len(members)):
        raise InvalidGraphData(
            f"a landmark table of shape {table.shape} for {len(nodes)} landmarks and {len(members)} key points"
        )
    if not len(nodes):
        if len(members) and grid.cost is None:
            raise InvalidGraphData("no landmarks stored for a map with key points and uniform costs")
        return
    key_point_index = _KeyPointIndex(grid, members)
    index = key_point_index(nodes)
    if (index < 0).any() or len(set(nodes.tolist())) != len(nodes):
        raise InvalidGraphData("a landmark is not a key point, or is named twice")
    if np.isnan(table).any() or (table < 0).any() or (table[np.arange(len(nodes)), index] != 0).any():
        raise InvalidGraphData("a landmark distance is negative or not a number, or a landmark is not at 0 from itself")
    least = _least_through_edges(arrays, entries, key_point_index, grid.width, table)
    least[np.arange(len(nodes)), index] = 0.0
    if not np.array_equal(least, table):
        raise InvalidGraphData(
            "the landmark distances are not the graph's shortest distances (one overestimates or is not reached)"
        )
    if nodes.tolist() != _farthest_first(key_point_index.flat, table, len(nodes)):
        raise InvalidGraphData("the landmarks are not those the bake picks (farthest first from the first key point)")


def _least_through_edges(
    arrays: Dict[str, np.ndarray],
    entries: CostEntries,
    key_point_index: "_KeyPointIndex",
    width: int,
    table: np.ndarray,
) -> np.ndarray:
    """Per row of ``table`` (a value per key point) and key point, the least over the edges into it of
    the value at the edge's other end plus the edge's cost (inf for none).

    The edges are the graph's on a uniform map: between key points of a
    cluster the smaller of the two stored costs, both ways, so a key point's
    row of costs lists the edges into it; across borders cost 1, both ways.
    """
    costs = arrays["costs"]
    source, target, row_start, cluster_start = entries.source, entries.target, entries.row_start, entries.cluster_start
    both_ways = np.minimum(costs, costs[row_start[target] + source - cluster_start[source]])
    both_ways[source == target] = np.inf  # no edge from a key point to itself
    least = np.array([np.minimum.reduceat(np.take(row, target) + both_ways, row_start) for row in table])
    pairs = arrays["entrances"].astype(np.int64)
    a = key_point_index(pairs[:, 1] * width + pairs[:, 0])
    b = key_point_index(pairs[:, 3] * width + pairs[:, 2])
    into, out = np.concatenate([b, a]), np.concatenate([a, b])
    if len(into):
        order = np.argsort(into, kind="stable")
        into, out = into[order], out[order]
        first = np.flatnonzero(np.diff(into, prepend=-1))
        across = np.minimum.reduceat(table[:, out] + 1.0, first, axis=1)
        ends = into[first]
        least[:, ends] = np.minimum(least[:, ends], across)
    return least


def _farthest_first(flat: np.ndarray, table: np.ndarray, stored: int) -> list:
    """The landmarks the bake picks (see :mod:`.landmarks`), as far as the ``stored`` rows of ``table`` tell:
    the smallest flat index, then each time the key point farthest from those picked (smallest index on ties)."""
    chosen = [int(flat.min())]
    nearest = np.full(len(flat), np.inf)
    while len(chosen) < LANDMARK_COUNT and len(chosen) <= stored:
        nearest = np.minimum(nearest, table[len(chosen) - 1])
        reached = np.isfinite(nearest)
        farthest = nearest[reached].max()
        if farthest == 0.0:
            break
        chosen.append(int(flat[reached & (nearest == farthest)].min()))
    return chosen


class _KeyPointIndex:
    """The index among the key points ``members`` of flat cell indices ``y * width + x``; -1 for other cells."""

    def __init__(self, grid: Grid, members: np.ndarray):
        self.flat = members[:, 1] * grid.width + members[:, 0]
        self.order = np.argsort(self.flat)
        self.sorted = self.flat[self.order]

    def __call__(self, cells: np.ndarray) -> np.ndarray:
        if not len(self.flat):
            return np.full(len(cells), -1, dtype=np.int64)
        found = self.order[np.minimum(np.searchsorted(self.sorted, cells), len(self.flat) - 1)]
        return np.where(self.flat[found] == cells, found, -1)
