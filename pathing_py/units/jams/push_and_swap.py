"""Moves for jams the joint search gives up on: one unit at a time, pushing and swapping (SPEC U8, U9).

Two files that meet head-on in a corridor with a one-cell pocket pass only
one unit at a time, every unit of one file passing every unit of the other:
more joint positions than the search of :func:`~pathing_py.units.jams.untangling.untangle`
makes in its budget. Push and swap (Luna and Bekris, 2011) takes the units one
after the other to their goals along shortest ways. A unit in the way is
pushed to the nearest free cell (the units between shift one cell each); one
that cannot be (a file packed into a dead end, or a unit already at its goal)
is swapped with at the nearest fork: the two go there together, two of the
fork's other arms are cleared, the two swap in six moves, and the moves that
brought them there are played back with the two exchanged, so every other
unit is back where it was.

Cells are indices into ``neighbours`` (each cell's side neighbours), as in
:mod:`pathing_py.units.jams.untangling`. A plan moves one unit per step: long, but walked with
the cell turns of :func:`~pathing_py.units.jams.untangling.cell_turns`, units move at once
wherever the order of turns in each cell allows.

Quick start: a corridor of five cells with a pocket above the middle one::

    >>> neighbours = [[1], [0, 2], [1, 3, 5], [2, 4], [3], [2]]
    >>> distances = [[2, 1, 0, 1, 2, 1], [4, 3, 2, 1, 0, 3]]  # to cells 2 and 4
    >>> moves = push_and_swap(neighbours, distances, (4, 2), (2, 4), max_moves=100)
    >>> moves[0], moves[-1]
    ((4, 2), (2, 4))
"""

from collections import deque
from typing import Dict, List, Optional, Sequence, Set, Tuple

__all__ = ["push_and_swap"]


def push_and_swap(
    neighbours: Sequence[Sequence[int]],
    distances: Sequence[Sequence[int]],
    start: Sequence[int],
    goal: Sequence[int],
    *,
    max_moves: int,
) -> Optional[List[Tuple[int, ...]]]:
    """The cell of every unit after each move, from ``start`` to ``goal`` (one unit moves per step), or
    None if a unit could neither be pushed nor swapped past, or the plan would take more than ``max_moves``.

    ``distances[unit][cell]`` are steps from ``cell`` to the unit's goal; every goal must be reachable.
    Units go in turn, fronts of files first (ties in the order given)."""
    moves = _Moves(neighbours, start, max_moves)
    forks = [cell for cell, near in enumerate(neighbours) if len(near) >= 3]
    placed: Set[int] = set()  # units at their goals: pushes leave them there
    queue = deque(sorted(range(len(start)), key=lambda unit: _led_by(unit, moves, distances[unit], goal)))
    turns = len(start) * (len(start) + 1)  # a swap may move a placed unit off its goal: it goes again
    try:
        while queue:
            turns -= 1
            unit = queue.popleft()
            if turns < 0 or not _bring(moves, unit, distances[unit], goal[unit], placed, forks):
                return None
            placed.add(unit)
            for other in sorted(placed):
                if moves.at[other] != goal[other]:
                    placed.discard(other)
                    queue.append(other)
    except _TooLong:
        return None
    return moves.configurations


class _TooLong(Exception):
    """The plan has made its ``max_moves``."""


class _Moves:
    """Where each unit is, and every move made so far (which a failed swap takes back)."""

    def __init__(self, neighbours: Sequence[Sequence[int]], start: Sequence[int], max_moves: int):
        self.neighbours, self.max_moves = neighbours, max_moves
        self.at = list(start)
        self.holder: Dict[int, int] = {cell: unit for unit, cell in enumerate(start)}
        self.configurations: List[Tuple[int, ...]] = [tuple(start)]
        self.made: List[Tuple[int, int]] = []  #: (unit, the cell it left) per move

    def move(self, unit: int, cell: int) -> None:
        if len(self.made) >= self.max_moves:
            raise _TooLong
        self.made.append((unit, self.at[unit]))
        del self.holder[self.at[unit]]
        self.at[unit], self.holder[cell] = cell, unit
        self.configurations.append(tuple(self.at))

    def undo_to(self, count: int) -> None:
        """Take back the moves after the first ``count``."""
        del self.made[count:], self.configurations[count + 1 :]
        self.at = list(self.configurations[-1])
        self.holder = {cell: unit for unit, cell in enumerate(self.at)}

    def push_away(self, cell: int, kept: Set[int]) -> bool:
        """Empty ``cell``: the units on the shortest way from it to the nearest free cell (not through
        ``kept`` cells, whose units stay) shift one cell along it. False if no free cell can be reached.

        Free dead ends (a pocket) are taken only if there is no other free cell: a unit pushed into a
        pocket beside a fork can only leave it through the fork, which a swap there needs free."""
        came_from = {cell: cell}
        queue = deque([cell])
        dead_end = -1
        while queue:
            here = queue.popleft()
            if here not in self.holder:
                if len(self.neighbours[here]) > 1:
                    self._shift(came_from, cell, here)
                    return True
                dead_end = here if dead_end < 0 else dead_end
                continue
            for near in self.neighbours[here]:
                if near not in came_from and near not in kept:
                    came_from[near] = here
                    queue.append(near)
        if dead_end < 0:
            return False
        self._shift(came_from, cell, dead_end)
        return True

    def _shift(self, came_from: Dict[int, int], cell: int, free: int) -> None:
        """Move each unit on the way from ``cell`` to the ``free`` cell one cell along it, the last first."""
        way = [free]
        while way[-1] != cell:
            way.append(came_from[way[-1]])
        for into, leaving in zip(way, way[1:]):
            self.move(self.holder[leaving], into)


def _bring(moves: _Moves, unit: int, distance: Sequence[int], goal: int, placed: Set[int], forks: List[int]) -> bool:
    """Move ``unit`` to its goal one cell at a time down ``distance``: push away the unit ahead, or swap with it."""
    while moves.at[unit] != goal:
        here = moves.at[unit]
        ahead = min(moves.neighbours[here], key=distance.__getitem__)
        other = moves.holder.get(ahead)
        if other is not None:
            kept = {here, *(moves.at[done] for done in placed)}
            if other in placed or not moves.push_away(ahead, kept):
                if not _swap(moves, unit, other, forks):
                    return False
                continue
        moves.move(unit, ahead)
    return True


def _led_by(unit: int, moves: _Moves, distance: Sequence[int], goal: Sequence[int]) -> int:
    """How many units on ``unit``'s way down ``distance`` go the same way ahead of it (their goals
    nearer its own than they are): a file's front goes first, instead of its rear pushing the file
    into a dead end."""
    cell, ahead = moves.at[unit], 0
    while distance[cell] > 0:
        cell = min(moves.neighbours[cell], key=distance.__getitem__)
        other = moves.holder.get(cell)
        ahead += other is not None and distance[goal[other]] < distance[cell]
    return ahead


def _swap(moves: _Moves, unit: int, other: int, forks: List[int]) -> bool:
    """Exchange the cells of two neighbouring units at the nearest fork where it can be done, every other
    unit back where it was; False (and no moves) if at no fork."""
    here = moves.at[unit]
    steps = _steps_from(here, moves.neighbours)
    for fork in sorted(forks, key=steps.__getitem__):
        if steps[fork] < 0:
            continue
        before = len(moves.made)
        pair = _to_fork(moves, unit, other, fork)
        if pair is not None:
            leader, follower, behind = pair
            arms = _clear_arms(moves, fork, behind)
            if arms is not None:
                first, second = arms
                for mover, cell in (
                    (leader, first),
                    (follower, fork),
                    (follower, second),
                    (leader, fork),
                    (leader, behind),
                    (follower, fork),
                ):
                    moves.move(mover, cell)
                exchanged = {unit: other, other: unit}
                for mover, cell in reversed(moves.made[before : len(moves.made) - 6]):
                    moves.move(exchanged.get(mover, mover), cell)
                return True
        moves.undo_to(before)
    return False


def _to_fork(moves: _Moves, unit: int, other: int, fork: int) -> Optional[Tuple[int, int, int]]:
    """Take the two units to ``fork`` together, the one nearer it leading, the other in the cell behind:
    (leader, follower, the follower's cell), or None if units in the way cannot be pushed aside."""
    leader, follower = unit, other
    way = _way(moves.at[leader], fork, moves.neighbours)
    if len(way) > 1 and way[1] == moves.at[follower]:
        leader, follower = other, unit
        way = way[1:]
    for cell in way[1:]:
        behind = moves.at[leader]
        if not moves.push_away(cell, {behind, moves.at[follower]}):
            return None
        moves.move(leader, cell)
        moves.move(follower, behind)
    return leader, follower, moves.at[follower]


def _clear_arms(moves: _Moves, fork: int, behind: int) -> Optional[Tuple[int, int]]:
    """Empty two cells beside ``fork`` other than ``behind``, pushing units away from the fork: the two
    cells, or None if there are not two that can be emptied."""
    free: List[int] = []
    for arm in sorted(moves.neighbours[fork], key=lambda cell: cell in moves.holder):  # free ones first
        if arm != behind and len(free) < 2 and moves.push_away(arm, {fork, behind, *free}):
            free.append(arm)
    return (free[0], free[1]) if len(free) == 2 else None


def _steps_from(cell: int, neighbours: Sequence[Sequence[int]]) -> List[int]:
    """Steps from ``cell`` to every cell (-1 where there is no way), units ignored."""
    steps = [-1] * len(neighbours)
    steps[cell] = 0
    queue = deque([cell])
    while queue:
        here = queue.popleft()
        for near in neighbours[here]:
            if steps[near] < 0:
                steps[near] = steps[here] + 1
                queue.append(near)
    return steps


def _way(start: int, end: int, neighbours: Sequence[Sequence[int]]) -> List[int]:
    """A shortest way from ``start`` to ``end`` (both included), units ignored; ``end`` must be reachable."""
    steps = _steps_from(end, neighbours)
    way = [start]
    while way[-1] != end:
        way.append(min((near for near in neighbours[way[-1]] if steps[near] >= 0), key=steps.__getitem__))
    return way
