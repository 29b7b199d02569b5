"""Units: path stacks, the navigator that moves them, and the path request queue (SPEC U1–U4, D5).

See :mod:`pathing_py.units.navigator` for the quick start.
"""

from .navigator import Navigator, NavigatorStats, Unit, UnitState, UnitStats
from .path_stack import PathStack, Route, RouteKind
from .requests import PathRequestQueue, QueueStats

__all__ = [
    "Navigator",
    "NavigatorStats",
    "PathRequestQueue",
    "PathStack",
    "QueueStats",
    "Route",
    "RouteKind",
    "Unit",
    "UnitState",
    "UnitStats",
]
