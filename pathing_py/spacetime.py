"""Moved to :mod:`pathing_py.units.spacetime` (only the units use it); this name goes in a later release."""

import warnings

from .units.spacetime import *  # noqa: F401,F403
from .units.spacetime import __all__  # noqa: F401

warnings.warn("pathing_py.spacetime moved to pathing_py.units.spacetime", DeprecationWarning, stacklevel=2)
