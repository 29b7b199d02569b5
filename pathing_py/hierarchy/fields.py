"""Step 3 of the bake: shortest paths inside clusters, from every key point at once (SPEC H3).

One distance field per key point, confined to its cluster, gives the costs to
all the other key points of the cluster and, through the direction each cell
was last improved from, the cell path to each of them. Only those costs and
directions are kept.

The fields of many clusters are stacked in one numpy array and relaxed
together from a frontier: the cells whose distance fell last time try every
move at once, and those they improve are the next frontier, until none is
left (Bellman-Ford by waves: a few dozen rounds of array operations rather
than a Python loop per cell). The distances it ends with are each the least,
over the paths to the cell, of the path's steps summed in order, bit for bit,
whatever the order the relaxations ran in; each cell's direction is then the
first move that a shortest path can end with (:func:`_set_directions`). So a
field depends on its cluster and source alone: the fields of the clusters an
edit touches, made again on their own, equal a fresh bake's.
"""

import math
from heapq import heappop, heappush
from typing import List, Optional, Sequence, Tuple

import numpy as np

from ..grid import Cell, corner_offsets, is_move
from ..hex_grid import HexSteps
from ..jump_tables import DIRECTIONS, pad

__all__ = ["ClusterFields", "cluster_fields", "moves_of", "single_field", "walk_back"]

Rect = Tuple[int, int, int, int]
SQRT2 = math.sqrt(2.0)

#: A cell no move has reached yet (and the source itself) has no direction.
NO_DIRECTION = -1


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
    passable: np.ndarray,
    cost: Optional[np.ndarray],
    jobs: Sequence[Job],
    connectivity: int = 8,
    hexes: Optional[HexSteps] = None,
) -> List[ClusterFields]:
    """For each (cluster rectangle, sources, targets) job, the fields from the sources, all relaxed in one stack.

    With ``hexes`` the moves are the six steps of a half-offset map (:mod:`pathing_py.hex_grid`), with their
    costs (``cost`` and ``connectivity`` unused): hex steps are among the eight moves, so the relaxation, the
    directions and :func:`walk_back` are the square grid's."""
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
        if hexes is None:
            moves = moves_of(connectivity)
            steps = _step_costs(free, enter, moves)
        else:
            moves = list(range(len(DIRECTIONS)))
            steps = _hex_step_costs(free, [rect for rect, _, _ in jobs], counts, hexes)
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
    passable: np.ndarray,
    cost: Optional[np.ndarray],
    rect: Rect,
    source: Cell,
    targets: Sequence[Cell],
    connectivity: int = 8,
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


def _step_costs(free: np.ndarray, enter: np.ndarray, moves: Sequence[int]) -> np.ndarray:
    """``steps[i]``: the cost of the move along ``moves[i]`` into each cell (inf where not allowed)."""
    steps = np.empty((len(moves),) + free.shape)
    for i, d in enumerate(moves):
        dx, dy = DIRECTIONS[d]
        allowed = free.copy()
        for cx, cy in corner_offsets(dx, dy):  # the corner rule, seen from the cell entered
            allowed &= _shifted(free, dx - cx, dy - cy, False)
        length = SQRT2 if dx and dy else 1.0
        np.copyto(steps[i], np.where(allowed, length * enter, np.inf))
    return steps


def _hex_step_costs(free: np.ndarray, rects: Sequence[Rect], counts: Sequence[int], hexes: HexSteps) -> np.ndarray:
    """As :func:`_step_costs` for the six steps of a half-offset map: ``steps[d]`` is the cost of the step along
    ``DIRECTIONS[d]`` into each cell, which depends on whether the line it comes from lies ahead of its
    neighbour lines (inf where that line has no such step)."""
    total, side = free.shape[0], free.shape[-1]
    axis = hexes.axis
    # Per field, for each padded line (one padding line before the rect's first), whether the line one
    # before, at, or one after it (d_line -1, 0, 1 back) is ahead: the line a step comes from.
    firsts = np.repeat([rect[1 - axis] - 1 for rect in rects], counts)
    ahead_by_first = {first: np.array(hexes.lines_ahead(first - 1, side + 2)) for first in set(firsts.tolist())}
    lines_ahead = np.array([ahead_by_first[first] for first in firsts.tolist()]).reshape(total, side + 2)
    steps = np.empty((len(DIRECTIONS),) + free.shape)
    for d, (dx, dy) in enumerate(DIRECTIONS):
        cost_from = {ahead: _hex_cost(hexes, ahead, dx, dy) for ahead in (True, False)}
        d_line = dy if axis == 0 else dx
        source_ahead = lines_ahead[:, 1 - d_line : 1 - d_line + side]  # (field, line of the cell entered)
        source_ahead = source_ahead[:, :, None] if axis == 0 else source_ahead[:, None, :]
        np.copyto(steps[d], np.where(free, np.where(source_ahead, cost_from[True], cost_from[False]), np.inf))
    return steps


def _hex_cost(hexes: HexSteps, ahead: bool, dx: int, dy: int) -> float:
    """The cost of the hex step (dx, dy) out of a cell whose line lies ahead (or behind); inf if it is no step."""
    return next((cost for sx, sy, cost in hexes.steps_of(ahead) if (sx, sy) == (dx, dy)), math.inf)


def _relax(distance: np.ndarray, steps: np.ndarray, moves: Sequence[int]) -> None:
    """Lower the stacked fields' distances (0 at the sources, inf elsewhere) to the shortest, wave by wave:
    the cells whose distance fell try all ``moves`` at once (``steps``: :func:`_step_costs`), and the cells they
    improve try theirs next."""
    flat = distance.reshape(-1)
    side = distance.shape[-1]
    offsets = np.array([DIRECTIONS[d][0] + DIRECTIONS[d][1] * side for d in moves], dtype=np.int64)
    step_costs = steps.reshape(len(moves), -1)  # (move, cell): the move's cost into the cell
    move_rows = np.arange(len(moves))[None, :]
    frontier = np.flatnonzero(flat == 0.0)
    while len(frontier):
        onto = frontier[:, None] + offsets  # inside the field: the frontier's cells are free, the padding is not
        candidate = flat[frontier][:, None] + step_costs[move_rows, onto]
        better = candidate < flat[onto]
        onto, candidate = onto[better], candidate[better]
        np.minimum.at(flat, onto, candidate)  # the least of the candidates for one cell
        fell = np.zeros(len(flat), dtype=bool)
        fell[onto] = True
        frontier = np.flatnonzero(fell)


def _set_directions(distance: np.ndarray, direction: np.ndarray, steps: np.ndarray, moves: Sequence[int]) -> None:
    """Give each reached cell but the sources the first move of ``moves`` that a shortest path can end
    with: the one from a cell whose distance plus the step is the cell's, bit for bit.

    The rule depends only on the distances, which are the same whatever order
    they were relaxed in: a field is a function of its cluster and source.
    """
    reached = np.isfinite(distance)
    for d, step in reversed(list(zip(moves, steps))):  # the first move that fits is written last
        dx, dy = DIRECTIONS[d]
        came = _shifted(distance, dx, dy, np.inf)
        np.copyto(direction, d, where=reached & (came + step == distance))
