"""Groups: formations as data and the order in which units take their slots (SPEC F3, F4).

See :mod:`pathing_py.groups.formations` for the quick start. Nothing here
moves a unit: these are the pure data and functions a group is driven with.
"""

from .formations import FORWARD, REFORM_ANGLE, SHAPES, Formation, fits, needs_reforming, slot_cells, slot_headings
from .forming import assign_slots

__all__ = ["FORWARD", "REFORM_ANGLE", "SHAPES", "Formation", "assign_slots", "fits", "needs_reforming", "slot_cells", "slot_headings"]
