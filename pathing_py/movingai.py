"""Moved to :mod:`pathing_py.tools.movingai` (benchmark tooling); this name goes in a later release."""

import warnings

from .tools.movingai import *  # noqa: F401,F403
from .tools.movingai import __all__  # noqa: F401

warnings.warn("pathing_py.movingai moved to pathing_py.tools.movingai", DeprecationWarning, stacklevel=2)
