"""pathing_py: unit navigation for Godot games, in Python.

Quick start::

    >>> from pathing_py import Grid
    >>> grid = Grid.from_ascii('''
    ... ......
    ... .####.
    ... ......
    ... ''')
    >>> grid.same_island((0, 0), (5, 2))
    True
"""

try:
    import numpy  # noqa: F401  everything below stands on it
except ImportError as error:  # e.g. pythonscript's own interpreter, before README step 2
    raise ImportError(
        "pathing_py needs numpy (1.24.x for Python 3.8), which this Python lacks. In Godot, install it into "
        "pythonscript's interpreter: addons/pythonscript/x11-64/bin/python3 -m pip install numpy==1.24.4 "
        "(README, 'Use it in a Godot 3 project', step 2)."
    ) from error

from .grid import Cell, Grid, MapFormatError
from .hierarchy import GraphFileError, GraphPathResult, KeyPointGraph, StaleGraphError
from .line import line_cells, line_of_sight, smooth_path
from .search import PathResult, PathStatus, find_path, octile_distance, prepare
from .units import Navigator, Unit, UnitState

__all__ = [
    "Cell",
    "GraphFileError",
    "GraphPathResult",
    "Grid",
    "KeyPointGraph",
    "MapFormatError",
    "Navigator",
    "PathResult",
    "PathStatus",
    "find_path",
    "line_cells",
    "line_of_sight",
    "octile_distance",
    "prepare",
    "smooth_path",
    "StaleGraphError",
    "Unit",
    "UnitState",
]
