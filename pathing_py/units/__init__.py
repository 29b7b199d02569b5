"""Units: the unit, its path stack, the navigator that moves them, collisions, traffic rules and the request
queue (SPEC U1–U7, D5).

See :mod:`pathing_py.units.navigator` for the quick start.
"""

from .collisions import Collision, CollisionState, Resolution
from .navigator import Navigator, NavigatorStats, Steerer
from .path_stack import PathStack, Route, RouteKind
from .requests import PathRequestQueue, QueueStats
from .unit import Unit, UnitState, UnitStats

__all__ = [
    "Collision",
    "CollisionState",
    "Navigator",
    "NavigatorStats",
    "PathRequestQueue",
    "PathStack",
    "QueueStats",
    "Resolution",
    "Route",
    "RouteKind",
    "Steerer",
    "Unit",
    "UnitState",
    "UnitStats",
]
