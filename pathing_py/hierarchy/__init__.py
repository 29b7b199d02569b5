"""Hierarchical path finding over a key-point graph (SPEC H): bake, query, save, update.

See :mod:`pathing_py.hierarchy.graph` for the quick start.
"""

from .graph import LINK_MODES, GraphPathResult, KeyPointGraph
from .hex_graph import HexKeyPointGraph
from .storage import GraphFileError, StaleGraphError

__all__ = ["GraphFileError", "GraphPathResult", "HexKeyPointGraph", "KeyPointGraph", "LINK_MODES", "StaleGraphError"]
