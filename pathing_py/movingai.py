"""Moving AI benchmark scenarios (``.map.scen`` files).

The maps themselves are read by :meth:`pathing_py.Grid.from_movingai`.
"""

from pathlib import Path
from typing import List, NamedTuple, Tuple, Union

from .grid import MapFormatError

__all__ = ["Scenario", "read_scenarios"]


class Scenario(NamedTuple):
    bucket: int
    start: Tuple[int, int]
    goal: Tuple[int, int]
    optimal_length: float


def read_scenarios(path: Union[str, Path]) -> List[Scenario]:
    """All problems of a ``.map.scen`` file (versions 1 and 1.0; tabs or spaces)."""
    path = Path(path)
    lines = path.read_text(encoding="ascii").splitlines()
    if not lines or not lines[0].startswith("version"):
        raise MapFormatError(f"{path}:1: expected a 'version' line")
    scenarios = []
    for number, line in enumerate(lines[1:], start=2):
        fields = line.split()
        if not fields:
            continue
        if len(fields) != 9:
            raise MapFormatError(f"{path}:{number}: expected 9 fields, got {len(fields)}")
        try:
            bucket, sx, sy, gx, gy = (int(fields[i]) for i in (0, 4, 5, 6, 7))
            optimal = float(fields[8])
        except ValueError:
            raise MapFormatError(f"{path}:{number}: bad number in {line!r}") from None
        scenarios.append(Scenario(bucket, (sx, sy), (gx, gy), optimal))
    return scenarios
