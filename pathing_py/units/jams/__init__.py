"""Jams the traffic rules cannot settle (SPEC U7-U9): moves planned for every unit of one at once.

:mod:`.untangling` searches joint moves for a window of units (LaCAM with PIBT, and a swap search),
:mod:`.push_and_swap` moves them one at a time where that search gives up, and :mod:`.plans` hands the
moves to the navigator's units and sees them through (:class:`~.plans.JamPlans`).
"""

from .plans import JamPlans
from .untangling import Untangling, untangle

__all__ = ["JamPlans", "Untangling", "untangle"]
