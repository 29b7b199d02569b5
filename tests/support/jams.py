"""What other tests take from tests/units/test_jams.py: its helpers, moved here."""

from typing import Dict, Sequence

import numpy as np

from pathing_py.grid import Cell


def check_moves(passable: np.ndarray, paths: Sequence[Sequence[Cell]]) -> None:
    """Fail unless every step moves each unit to a passable side neighbour or keeps it, no two units
    share a cell, and no units swap cells or move round a ring (each into the cell the next leaves)."""
    assert len({len(path) for path in paths}) == 1
    for step in range(len(paths[0]) - 1):
        now: Dict[Cell, int] = {path[step]: unit for unit, path in enumerate(paths)}
        following = [path[step + 1] for path in paths]
        assert len(now) == len(paths) and len(set(following)) == len(paths), f"two units share a cell at step {step}"
        for unit, path in enumerate(paths):
            (x0, y0), (x1, y1) = path[step], path[step + 1]
            assert abs(x1 - x0) + abs(y1 - y0) <= 1 and passable[y1, x1], f"unit {unit} jumps at step {step}"
        for unit in range(len(paths)):  # follow who moves into whose cell: never back to the first
            seen = {unit}
            other = unit
            while following[other] != paths[other][step]:
                ahead = now.get(following[other])
                if ahead is None:
                    break
                assert ahead not in seen, f"units {sorted(seen)} move round a ring at step {step}"
                seen.add(ahead)
                other = ahead
