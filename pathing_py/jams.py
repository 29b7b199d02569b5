"""Moved to :mod:`pathing_py.units.jams.untangling` (only the units use it); this name goes in a later release."""

import warnings

from .units.jams.untangling import *  # noqa: F401,F403
from .units.jams.untangling import __all__  # noqa: F401

warnings.warn("pathing_py.jams moved to pathing_py.units.jams.untangling", DeprecationWarning, stacklevel=2)
