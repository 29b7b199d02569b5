"""The line functions as they were before they went to numpy (commit 74af415), cell by cell: the yardstick
that pathing_py.line must match exactly (tests/test_line_reference.py).

Kept as they were on purpose, hot-loop shortcuts included, so that the tests pin today's answers rather than
an independent restatement: a rook line's tie rule, the smoothing's doubling and bisection and the order of
its float additions all decide which cells a path takes.
"""

import math


def line_cells(a, b, connectivity=8):
    """The cells of the line from ``a`` to ``b``, both included."""
    return list(walk(a, b, connectivity))


def walk(a, b, connectivity):
    """``line_cells(a, b)`` one by one; through a corner a rook line takes the column first from the (y, x)-smaller
    end."""
    return cells_toward(a, b, connectivity, with_start=True, columns_first=(a[1], a[0]) <= (b[1], b[0]))


def cells_toward(a, b, connectivity, with_start, columns_first):
    """King moves: ``a + round(n * d / steps)``, halves up; rook moves: the cells the segment enters, in order."""
    x, y = a
    dx, dy = b[0] - x, b[1] - y
    if with_start:
        yield x, y
    if connectivity == 4:
        step_x, step_y = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
        across, down = abs(dx), abs(dy)
        i = j = 0
        while i < across or j < down:
            column_at, row_at = (2 * i + 1) * down, (2 * j + 1) * across
            if j == down or (i < across and (column_at < row_at or (columns_first and column_at == row_at))):
                i += 1
                x += step_x
            else:
                j += 1
                y += step_y
            yield x, y
        return
    steps = max(abs(dx), abs(dy))
    for n in range(1, steps + 1):
        yield x + (2 * n * dx + steps) // (2 * steps), y + (2 * n * dy + steps) // (2 * steps)


def line_of_sight(passable, a, b, connectivity=8):
    """Whether both ends are on the map and the line between them is clear."""
    height, width = passable.shape
    if not all(0 <= x < width and 0 <= y < height for x, y in (a, b)):
        return False
    return clear_cells(passable, walk(a, b, connectivity))


def clear_cells(passable, line):
    """Free cells, and both orthogonal neighbours free at every diagonal step; cells on the map only."""
    free = passable.item
    cells = iter(line)
    px, py = next(cells)
    if not free(py, px):
        return False
    for x, y in cells:
        if not free(y, x) or (x != px and y != py and not (free(py, x) and free(y, px))):
            return False
        px, py = x, y
    return True


def smooth_path(passable, cells, cost=None, connectivity=8):
    """From each kept cell, the farthest later cell it sees (doubling the look-ahead, then bisecting)."""
    cells = [(x, y) for x, y in cells]
    if len(cells) < 3:
        return list(cells)
    prefix = prefix_costs(cells, cost) if cost is not None else []

    def shortcut(i, j):
        if not clear_cells(passable, walk(cells[i], cells[j], connectivity)):
            return None
        line = line_cells(cells[i], cells[j], connectivity)
        if cost is not None and prefix_costs(line, cost)[-1] > prefix[j] - prefix[i] + 1e-9:
            return None
        return line

    result = [cells[0]]
    i = 0
    last = len(cells) - 1
    run_end = straight_runs(cells)
    while i < last:
        best_j = run_end[i]
        best_line = cells[i : best_j + 1]
        reach = 2 * (best_j - i)
        while i + reach <= last:
            line = shortcut(i, i + reach)
            if line is None:
                break
            best_j, best_line = i + reach, line
            reach *= 2
        low, high = best_j, min(i + reach, last + 1)
        while high - low > 1:
            middle = (low + high) // 2
            line = shortcut(i, middle)
            if line is None:
                high = middle
            else:
                low, best_j, best_line = middle, middle, line
        result.extend(best_line[1:])
        i = best_j
    return result


def straight_runs(cells):
    """For each index i, the last index j such that cells[i..j] take the same step all along."""
    last = len(cells) - 1
    run_end = list(range(1, last + 2))
    steps = [(b[0] - a[0], b[1] - a[1]) for a, b in zip(cells, cells[1:])]
    for k in range(last - 2, -1, -1):
        if steps[k] == steps[k + 1]:
            run_end[k] = run_end[k + 1]
    return run_end


def prefix_costs(cells, cost):
    """Cumulative path length at each cell (terrain costs included)."""
    totals = [0.0]
    for (x0, y0), (x1, y1) in zip(cells, cells[1:]):
        length = math.sqrt(2.0) if x0 != x1 and y0 != y1 else 1.0
        totals.append(totals[-1] + length * (1.0 if cost is None else float(cost[y1, x1])))
    return totals


def path_cost(cells, cost=None):
    """The length of a cell path, terrain costs included."""
    return prefix_costs(cells, cost)[-1]
