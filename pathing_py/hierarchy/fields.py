"""Step 3 of the bake: shortest paths inside clusters, from every key point at once (SPEC H3).

One distance field per key point, confined to its cluster, gives the costs to
all the other key points of the cluster and, through the direction each cell
was last improved from, the cell path to each of them. Only those costs and
directions are kept.

The fields of many clusters are stacked in one numpy array and relaxed
together by sweeps (down the rows, up, right along the columns, left), each
sweep carrying every move that goes its way, until a whole round changes
nothing. That is Bellman-Ford with a good update order: it ends with exact
shortest distances, and costs a few rounds of small array operations rather
than a Python loop per cell.
"""

import math
from heapq import heappop, heappush
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from ..grid import Cell, corner_offsets, is_move
from ..jump_tables import DIRECTIONS, pad

__all__ = ["ClusterFields", "cluster_fields", "moves_of", "single_field", "walk_back"]

Rect = Tuple[int, int, int, int]
SQRT2 = math.sqrt(2.0)

#: A cell no move has reached yet (and the source itself) has no direction.
NO_DIRECTION = -1

#: The finished fields of a stack are dropped from its sweeps once there are this many: a round costs
#: about a numpy call per line and move whatever the stack's size, and the views of a smaller stack
#: cost about a round to make, so a cluster's few fields (the patch after an edit) are never worth it.
COMPACT_AT = 64


class ClusterFields:
    """What the fields of one cluster keep: costs to the targets, and directions for paths.

    ``costs[i, j]`` is the cost from the i-th source to the j-th target (inf
    when the cluster alone does not connect them); ``direction[i, y, x]``
    (coordinates local to ``rect``) is the index in
    :data:`~pathing_py.jump_tables.DIRECTIONS` of the last step into the cell
    on a shortest path from the i-th source.
    """

    def __init__(self, rect: Rect, costs: np.ndarray, direction: np.ndarray):
        self.rect = rect
        self.costs = costs
        self.direction = direction

    def __eq__(self, other) -> bool:
        return (
            isinstance(other, ClusterFields)
            and tuple(self.rect) == tuple(other.rect)
            and np.array_equal(self.costs, other.costs)
            and np.array_equal(self.direction, other.direction)
        )


Job = Tuple[Rect, Sequence[Cell], Sequence[Cell]]


def moves_of(connectivity: int) -> List[int]:
    """The indices in :data:`~pathing_py.jump_tables.DIRECTIONS` of the moves of a grid of this connectivity."""
    return [d for d, (dx, dy) in enumerate(DIRECTIONS) if is_move(dx, dy, connectivity)]


def cluster_fields(
    passable: np.ndarray, cost: Optional[np.ndarray], jobs: Sequence[Job], connectivity: int = 8
) -> List[ClusterFields]:
    """For each (cluster rectangle, sources, targets) job, the fields from the sources, all relaxed in one stack."""
    counts = [len(sources) for _, sources, _ in jobs]
    total = sum(counts)
    side = max([max(rect[2], rect[3]) for rect, _, _ in jobs] or [0]) + 2  # one blocked cell of padding all round
    free = np.zeros((total, side, side), dtype=bool)
    enter = np.ones((total, side, side))
    distance = np.full((total, side, side), np.inf)
    first = 0
    for ((x, y, width, height), sources, _), count in zip(jobs, counts):
        free[first : first + count, 1 : height + 1, 1 : width + 1] = passable[y : y + height, x : x + width]
        if cost is not None:
            enter[first : first + count, 1 : height + 1, 1 : width + 1] = cost[y : y + height, x : x + width]
        for field, (sx, sy) in enumerate(sources, start=first):
            distance[field, sy - y + 1, sx - x + 1] = 0.0
        first += count
    direction = np.full((total, side, side), NO_DIRECTION, dtype=np.int8)
    if total:
        moves = moves_of(connectivity)
        steps = _step_costs(free, enter, moves)
        _relax(distance, steps, moves)
        _set_directions(distance, direction, steps, moves)
    fields, first = [], 0
    for ((x, y, width, height), _, targets), count in zip(jobs, counts):
        rows = slice(first, first + count)
        target_x = np.array([t[0] - x + 1 for t in targets], dtype=np.int64)
        target_y = np.array([t[1] - y + 1 for t in targets], dtype=np.int64)
        fields.append(
            ClusterFields(
                (x, y, width, height),
                distance[rows][:, target_y, target_x],
                direction[rows, 1 : height + 1, 1 : width + 1].copy(),
            )
        )
        first += count
    return fields


def single_field(
    passable: np.ndarray, cost: Optional[np.ndarray], rect: Rect, source: Cell, targets: Sequence[Cell], connectivity: int = 8
) -> ClusterFields:
    """The field of one source by Dijkstra: what a query needs, without numpy's per-call overhead."""
    x0, y0, width, height = rect
    stride = width + 2
    free = pad(passable[y0 : y0 + height, x0 : x0 + width]).ravel().tolist()
    enter = None
    if cost is not None:
        padded_cost = np.ones((height + 2, stride))
        padded_cost[1:-1, 1:-1] = cost[y0 : y0 + height, x0 : x0 + width]
        enter = padded_cost.ravel().tolist()
    moves = []
    for d in moves_of(connectivity):
        dx, dy = DIRECTIONS[d]
        moves.append((dx + dy * stride, SQRT2 if dx and dy else 1.0, dx if dy else 0, dy * stride if dx else 0, d))
    distance = [math.inf] * len(free)
    direction = [NO_DIRECTION] * len(free)
    origin = (source[1] - y0 + 1) * stride + source[0] - x0 + 1
    distance[origin] = 0.0
    heap = [(0.0, origin)]
    while heap:
        reached, cell = heappop(heap)
        if reached > distance[cell]:
            continue
        for offset, length, side_x, side_y, d in moves:
            onto = cell + offset
            if not free[onto] or (side_x and not (free[cell + side_x] and free[cell + side_y])):
                continue
            candidate = reached + (length if enter is None else length * enter[onto])
            if candidate < distance[onto]:
                distance[onto] = candidate
                direction[onto] = d
                heappush(heap, (candidate, onto))
    costs = [[distance[(t[1] - y0 + 1) * stride + t[0] - x0 + 1] for t in targets]]
    inner = np.array(direction, dtype=np.int8).reshape(height + 2, stride)[1:-1, 1:-1]
    return ClusterFields(rect, np.array(costs).reshape(1, len(targets)), inner[None].copy())


def walk_back(fields: ClusterFields, source: int, target: Cell) -> List[Cell]:
    """The cells from the ``source``-th source to ``target`` (grid coordinates), both included."""
    x0, y0 = fields.rect[:2]
    directions = fields.direction[source].tolist()  # a cluster's few hundred cells: cheaper than numpy's scalar reads
    x, y = target[0] - x0, target[1] - y0
    cells = [(x + x0, y + y0)]
    step = directions[y][x]
    while step != NO_DIRECTION:
        dx, dy = DIRECTIONS[step]
        x, y = x - dx, y - dy
        cells.append((x + x0, y + y0))
        step = directions[y][x]
    cells.reverse()
    return cells


def _shifted(array: np.ndarray, dx: int, dy: int, fill) -> np.ndarray:
    """``out[..., r, c] = array[..., r - dy, c - dx]``: the value at the cell a move (dx, dy) comes from."""
    out = np.full_like(array, fill)
    height, width = array.shape[-2:]
    out[..., max(dy, 0) : height + min(dy, 0), max(dx, 0) : width + min(dx, 0)] = array[
        ..., max(-dy, 0) : height + min(-dy, 0), max(-dx, 0) : width + min(-dx, 0)
    ]
    return out


def _step_costs(free: np.ndarray, enter: np.ndarray, moves: Sequence[int]) -> Dict[int, np.ndarray]:
    """For each direction d of ``moves``, the cost of the move along d into each cell (inf where not allowed)."""
    steps = {}
    for d in moves:
        dx, dy = DIRECTIONS[d]
        allowed = free.copy()
        for cx, cy in corner_offsets(dx, dy):  # the corner rule, seen from the cell entered
            allowed &= _shifted(free, dx - cx, dy - cy, False)
        length = SQRT2 if dx and dy else 1.0
        steps[d] = np.where(allowed, length * enter, np.inf)
    return steps


def _relax(distance: np.ndarray, steps: Dict[int, np.ndarray], moves: Sequence[int]) -> None:
    """Sweep the stacked fields until a round lowers no distance.

    Fields that a round leaves unchanged are final; once many are (and at
    least :data:`COMPACT_AT`), the rest are copied out and swept alone, so a
    few twisty clusters do not keep the whole stack busy.
    """
    live = np.arange(len(distance))
    work_distance, work_steps = distance, steps
    relaxations = _relaxations(work_distance, work_steps, moves)
    while True:
        before = work_distance.copy()
        for here, came, step, candidates, best in relaxations:
            np.add(came, step, out=candidates)
            np.minimum(here, candidates.min(axis=0, out=best), out=here)
        moved = (work_distance != before).reshape(len(before), -1).any(axis=1)  # distances only fall: changed is moved
        if not moved.any():
            break
        if moved.sum() < 0.6 * len(live) and len(live) - moved.sum() >= COMPACT_AT:
            if work_distance is not distance:  # put the finished fields back
                distance[live] = work_distance
            live = live[moved]
            work_distance = distance[live]
            work_steps = {d: step[live] for d, step in steps.items()}
            relaxations = _relaxations(work_distance, work_steps, moves)
    if work_distance is not distance:
        distance[live] = work_distance


def _set_directions(distance: np.ndarray, direction: np.ndarray, steps: Dict[int, np.ndarray], moves: Sequence[int]) -> None:
    """Give each reached cell but the sources the first move of ``moves`` that a shortest path can end
    with: the one from a cell whose distance plus the step is the cell's, bit for bit.

    The rule depends only on the distances, which are the same whatever order
    they were relaxed in: a field is a function of its cluster and source.
    """
    reached = np.isfinite(distance)
    for d in reversed(moves):  # the first move that fits is written last
        dx, dy = DIRECTIONS[d]
        came = _shifted(distance, dx, dy, np.inf)
        np.copyto(direction, d, where=reached & (came + steps[d] == distance))


def _relaxations(distance: np.ndarray, steps: Dict[int, np.ndarray], moves: Sequence[int]) -> List[Tuple[np.ndarray, ...]]:
    """A round of the four sweeps over ``moves``, in order: for each line, views of (its distances, the
    distances each move into it comes from, the moves' step costs, a buffer for their sums, a buffer
    for their minimum); the move is the first axis of the three in the middle.

    The moves into a line all come from the line before it, each from a
    neighbour one further along: a sliding window over that line. Views of the
    stack, made once for all the rounds over it: a round only reads and writes through them.
    """
    side = distance.shape[-1]
    inner = slice(1, side - 1)
    relaxations = []
    for swept, lines, along_rows in _sweeps(side, moves):
        along, across = (1, 0) if along_rows else (0, 1)  # the axes of (dx, dy): from line to line, within a line
        swept = sorted(swept, key=lambda d: -DIRECTIONS[d][across])  # the window's order
        ahead, sideways = DIRECTIONS[swept[0]][along], [DIRECTIONS[d][across] for d in swept]
        stacked = np.stack([steps[d] for d in swept])  # (move, field, row, column)
        candidates = np.empty((len(swept), len(distance), side - 2))  # the sweep's lines go in turn: one buffer
        best = np.empty((len(distance), side - 2))
        first = 1 - sideways[0]  # the window starts at the source of the move of largest sideways offset
        # (move, field, row, column): windows along the lines, the moves' sources of each cell.
        windows = np.moveaxis(sliding_window_view(distance, len(swept), axis=2 if along_rows else 1), -1, 0)
        across_line = slice(first, first + side - 2)
        for line in lines:
            if along_rows:  # into row `line` from row line - dy
                relaxations.append((distance[:, line, inner], windows[:, :, line - ahead, across_line], stacked[:, :, line, inner], candidates, best))
            else:  # into column `line` from column line - dx
                relaxations.append((distance[:, inner, line], windows[:, :, across_line, line - ahead], stacked[:, :, inner, line], candidates, best))
    return relaxations


def _sweeps(side: int, moves: Sequence[int]):
    """(moves, lines in order, along rows?) of the four sweeps: down, up, right, left."""
    by_row = {sign: [d for d in moves if DIRECTIONS[d][1] == sign] for sign in (1, -1)}
    by_column = {sign: [d for d in moves if DIRECTIONS[d][0] == sign] for sign in (1, -1)}
    return [
        (by_row[1], range(1, side - 1), True),
        (by_row[-1], range(side - 2, 0, -1), True),
        (by_column[1], range(1, side - 1), False),
        (by_column[-1], range(side - 2, 0, -1), False),
    ]
