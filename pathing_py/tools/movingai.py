"""Moving AI benchmark scenarios (``.map.scen`` files).

The maps themselves are read by :meth:`pathing_py.Grid.from_movingai`.
"""

import os
from pathlib import Path
from typing import List, NamedTuple, Optional, Tuple, Union

from ..grid import MapFormatError

__all__ = ["BENCHMARKS_VARIABLE", "Scenario", "find_benchmarks", "read_scenarios"]

#: Environment variable naming the folder of Moving AI maps and scenarios.
BENCHMARKS_VARIABLE = "PATHING_PY_MOVINGAI"


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


def find_benchmarks(near: Union[str, Path]) -> Optional[Path]:
    """The Moving AI benchmark folder for tests and benchmarks, or None.

    ``$PATHING_PY_MOVINGAI`` if set, else ``shared/benchmarks/movingai`` beside
    the nearest folder above ``near`` that has one (the project keeps the maps
    out of the repository, in ``../shared``). No folder of any one machine is
    assumed: a checkout elsewhere names its maps with the variable.
    """
    if os.environ.get(BENCHMARKS_VARIABLE):
        return Path(os.environ[BENCHMARKS_VARIABLE])
    for folder in Path(near).resolve().parents:
        candidate = folder / "shared" / "benchmarks" / "movingai"
        if candidate.is_dir():
            return candidate
    return None
