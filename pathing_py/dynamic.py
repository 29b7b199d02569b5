"""Moved to :mod:`pathing_py.units.dynamic` (only the units use it); this name goes in a later release."""

import warnings

from .units.dynamic import *  # noqa: F401,F403
from .units.dynamic import __all__  # noqa: F401

warnings.warn("pathing_py.dynamic moved to pathing_py.units.dynamic", DeprecationWarning, stacklevel=2)
