"""Moved to :mod:`pathing_py.units.jams.push_and_swap` (only the units use it); this name goes in a later release."""

import warnings

from .units.jams.push_and_swap import *  # noqa: F401,F403
from .units.jams.push_and_swap import __all__  # noqa: F401

warnings.warn("pathing_py.push_and_swap moved to pathing_py.units.jams.push_and_swap", DeprecationWarning, stacklevel=2)
