"""What other tests take from tests/engine/test_units.py: its helpers, moved here."""

from collections import defaultdict
from typing import Dict, List, Tuple

import pytest

from tools.engine_runs import FPS, GameRun

Cell = Tuple[int, int]
#: Pixels per TileMap cell on the demo map.
CELL_PIXELS = 16


def cell(pair) -> Cell:
    return int(pair[0]), int(pair[1])


def chebyshev(a: Cell, b: Cell) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


class Game:
    """What unit_game.gd printed, by kind and unit name."""

    def __init__(self, run: GameRun):
        self.output = run.output
        self.lines = run.lines
        self.joined = {line["joined"]: line for line in run.lines if "joined" in line}
        self.orders: Dict[str, List[dict]] = defaultdict(list)
        self.signals: Dict[str, List[dict]] = defaultdict(list)
        self.states: Dict[str, List[str]] = defaultdict(list)
        for line in run.lines:
            if "order" in line:
                self.orders[line["order"]].append(line)
            elif "signal" in line:
                self.signals[line["unit"]].append(line)
            elif "state" in line and "unit" in line:
                self.states[line["unit"]].append(line["state"])
        self.ends = {line["end"]: line for line in run.lines if "end" in line}

    def named(self, key: str) -> List[dict]:
        return [line for line in self.lines if key in line]

    def error_lines(self, unit: str) -> List[str]:
        return [line for line in self.output.splitlines() if line.startswith(f"pathing_py: {unit}: ")]


def assert_moved_frame_by_frame(game: Game, unit: str, jump: float = 0.0) -> None:
    """The unit's node moved frame by frame through neighbouring cells at its speed (``jump`` pixels more in a
    frame at most: the NavGrid reading a new grid stands a unit caught between two cells on its cell's centre)
    and stands on its cell's centre; each signal gave a cell's centre, and all but path_found one the unit was
    passing."""
    end, start = game.ends[unit], game.joined[unit]
    assert end["position"] == pytest.approx(end["centre"]), end
    assert 0 < end["longest_step"] <= start["speed"] * CELL_PIXELS / FPS * 1.001 + jump, end
    visited = [cell(entry) for entry in end["visited"]]
    assert visited[0] == cell(start["cell"]) and visited[-1] == cell(end["cell"]), visited
    assert all(chebyshev(a, b) == 1 for a, b in zip(visited, visited[1:])), visited
    for signal in game.signals[unit]:
        assert signal["position"] == pytest.approx(signal["centre"]), signal  # the global centre of its cell
        if signal["signal"] != "path_found":  # emitted after the frame's move: as the unit passes the centre
            assert signal["at"] == pytest.approx(signal["centre"], abs=start["speed"] * CELL_PIXELS / FPS), signal
