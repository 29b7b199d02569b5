"""The Python scripts of a Godot project, which the editor plugin holds for the whole editor session.

pythonscript 0.50 cannot load a Python script again once Godot has freed it:
it forgets the script's class but keeps its module imported, and the next
load says the file "doesn't expose any class to Godot" (see
:func:`pathing_py.godot.bridge.keep_script_loaded`). The editor frees scripts
it loaded on its own: on the first opening of a project (and for a file that
changed) it loads every script to draw its thumbnail in the FileSystem dock,
then lets it go. A scene opened afterwards in that session, say
``scenes/units_demo.tscn`` with its ``units_demo.py``, then has no script.
So the plugin loads every Python script of the project when it starts, and
new ones as they appear, and holds them.

The editor does not see folders holding a ``.gdignore`` file (``pathing_py/``,
pythonscript's own ``addons/pythonscript/``) or hidden ones (``.import``).
"""

import os
from pathlib import Path
from typing import List, Union

__all__ = ["python_scripts"]

#: The file that hides a folder from the Godot editor.
GDIGNORE = ".gdignore"


def python_scripts(project: Union[str, Path]) -> List[str]:
    """The ``res://`` paths of the ``.py`` files under a project folder that the editor sees as scripts, sorted."""
    root = Path(project)
    found = []
    for folder, subfolders, files in os.walk(root):
        if GDIGNORE in files:
            subfolders[:] = []
            continue
        subfolders[:] = [name for name in subfolders if not name.startswith(".")]
        relative = Path(folder).relative_to(root)
        found += [
            f"res://{(relative / name).as_posix()}"
            for name in files
            if name.endswith(".py") and not name.startswith(".")
        ]
    return sorted(found)
