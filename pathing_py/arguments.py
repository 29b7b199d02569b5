"""Numbers and flags as games pass them in: Python's or numpy's scalars alike, or a TypeError or ValueError naming
the argument (never an OverflowError from deep inside, nor a string taken for a number).

    >>> import numpy as np
    >>> as_float(np.float32(0.5), "speed"), as_int(np.int64(3), "priority"), as_flag(np.bool_(True), "blocked")
    (0.5, 3, True)
    >>> as_float(10**400, "speed")
    Traceback (most recent call last):
    ...
    ValueError: speed 1000000000000000000000000000000000000000... is too large for a number of cells
    >>> as_flag("yes", "blocked")
    Traceback (most recent call last):
    ...
    TypeError: blocked must be True or False, got 'yes'
"""

import math
import numbers
from typing import Optional, Tuple

import numpy as np

__all__ = ["INT64", "as_flag", "as_float", "as_int", "as_point", "as_seconds", "finite_or_none", "is_real", "shown"]

#: Whole numbers beyond these do not fit numpy's int64 (nor Godot's int): refused.
INT64 = (-(2**63), 2**63 - 1)
#: Digits of a refused number a message shows.
_SHOWN = 40


def is_real(value) -> bool:
    """Whether ``value`` is a real number: a Python int or float or a numpy scalar of one, not a bool."""
    return isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))


def finite_or_none(value) -> Optional[float]:
    """``value`` as a finite Python float, or None when it is no number, not finite or too large for a float."""
    if type(value) is float:  # (a frame's delta, at every update: no abstract-class checks)
        return value if math.isfinite(value) else None
    if not is_real(value):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


def as_float(value, name: str) -> float:
    """``value`` as a Python float (maybe NaN or infinite: the caller checks its range); TypeError for what is no
    number, ValueError for a whole number too large for a float."""
    if not is_real(value):
        raise TypeError(f"{name} must be a number, got {value!r}")
    try:
        return float(value)
    except OverflowError:
        raise ValueError(f"{name} {shown(value)} is too large for a number of cells") from None


def as_int(value, name: str) -> int:
    """``value`` as a Python int; TypeError for what is no whole number, ValueError beyond :data:`INT64`."""
    if not isinstance(value, numbers.Integral) or isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a whole number, got {value!r}")
    number = int(value)
    if not INT64[0] <= number <= INT64[1]:
        raise ValueError(f"{name} {shown(number)} is beyond a 64-bit int")
    return number


def as_seconds(value, name: str, *, zero: bool = False) -> float:
    """``value`` as a finite Python float of seconds, > 0 (>= 0 with ``zero``); TypeError for what is no number,
    ValueError for NaN, an infinity, a number below that or one too large for a float."""
    if not is_real(value):
        raise TypeError(f"{name} must be a number of seconds, got {value!r}")
    seconds = finite_or_none(value)
    if seconds is None or seconds < 0 or seconds == 0 and not zero:
        raise ValueError(f"{name} must be a finite number of seconds {'>= 0' if zero else '> 0'}, got {shown(value)}")
    return seconds


def as_flag(value, name: str) -> bool:
    """``value`` as a Python bool; TypeError for anything but a bool (a string "yes" or a 1 is no flag)."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def as_point(value, name: str) -> Tuple[float, float]:
    """``value`` as a pair of finite floats; TypeError or ValueError naming ``name`` otherwise."""
    try:
        x, y = value
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be an (x, y) pair of numbers, got {value!r}") from None
    if not (is_real(x) and is_real(y)):
        raise TypeError(f"{name} must be an (x, y) pair of numbers, got {value!r}")
    point = finite_or_none(x), finite_or_none(y)
    if point[0] is None or point[1] is None:
        raise ValueError(f"{name} ({shown(x)}, {shown(y)}) is not finite")
    return point[0], point[1]


def shown(value) -> str:
    """``value`` as a message shows it: its first digits only, for a number as large as 10**400 (401 digits)."""
    text = str(value)
    return text if len(text) <= _SHOWN else text[:_SHOWN] + "..."
