"""Moved to :mod:`pathing_py.units.local` (only the units use it); this name goes in a later release."""

import warnings

from .units.local import *  # noqa: F401,F403
from .units.local import __all__  # noqa: F401

warnings.warn("pathing_py.local moved to pathing_py.units.local", DeprecationWarning, stacklevel=2)
