"""Pillow, the optional extra ``pictures``: it writes the PNG and GIF files, and is imported only to write one.

Drawing (:mod:`pathing_py.debug`) needs numpy alone, and neither Godot's Python
nor a plain ``pip install pathing_py`` carries Pillow, so a missing Pillow is
one clear error naming the install command, raised before any work is done::

    pip install 'pathing_py[pictures]'
"""

from types import ModuleType

__all__ = ["INSTALL_PICTURES", "PillowMissing", "pillow_image"]

#: What installs the pictures extra.
INSTALL_PICTURES = "pip install 'pathing_py[pictures]'"


class PillowMissing(ImportError):
    """Pictures were asked for where Pillow is not installed; the message says how to install it."""


def pillow_image() -> ModuleType:
    """Pillow's ``PIL.Image`` module; :class:`PillowMissing` naming :data:`INSTALL_PICTURES` without it."""
    try:
        from PIL import Image
    except ImportError as error:
        raise PillowMissing(f"pictures need Pillow, which this Python lacks: {INSTALL_PICTURES}") from error
    return Image
