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
