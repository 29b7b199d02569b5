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

__all__ = ["Cell", "Grid", "MapFormatError"]
