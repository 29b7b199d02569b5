"""Groups of units given one order, and formations (SPEC F1–F5).

See :mod:`pathing_py.groups.group` for the quick start, and
:mod:`pathing_py.groups.formations` for formations as data.
"""

from .formations import FORWARD, REFORM_ANGLE, SHAPES, Formation, fits, needs_reforming, slot_cells, slot_headings
from .forming import assign_slots
from .group import Cohesion, Group, GroupEvent, Groups, GroupState, gathering_cells

__all__ = [
    "Cohesion",
    "FORWARD",
    "Formation",
    "Group",
    "GroupEvent",
    "GroupState",
    "Groups",
    "REFORM_ANGLE",
    "SHAPES",
    "assign_slots",
    "fits",
    "gathering_cells",
    "needs_reforming",
    "slot_cells",
    "slot_headings",
]
