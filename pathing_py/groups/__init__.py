"""Groups of units given one order, and formations (SPEC F1–F5).

See :mod:`pathing_py.groups.group` for the quick start.
"""

from .group import Cohesion, Group, GroupEvent, GroupState, Groups, gathering_cells

__all__ = ["Cohesion", "Group", "GroupEvent", "GroupState", "Groups", "gathering_cells"]
