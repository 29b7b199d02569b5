"""Importing pathing_py: where numpy is missing (pythonscript's interpreter before the README's numpy step), and
what a plain import loads."""

import subprocess
import sys

BLOCK_NUMPY = "import sys; sys.modules['numpy'] = None; import pathing_py"
#: Prints the pathing_py modules a plain import loads, one a line.
LOADED_MODULES = "import sys, pathing_py; print('\\n'.join(name for name in sys.modules if name.startswith('pathing_py')))"


def test_without_numpy_the_import_says_what_to_install():
    done = subprocess.run([sys.executable, "-c", BLOCK_NUMPY], capture_output=True, text=True)
    assert done.returncode != 0
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: pathing_py needs numpy") and "pip install numpy==1.24.4" in last, done.stderr


def test_a_plain_import_leaves_the_godot_half_out():
    """Plain CPython users need nothing of Godot: ``import pathing_py`` does not load ``pathing_py.godot``."""
    done = subprocess.run([sys.executable, "-c", LOADED_MODULES], capture_output=True, text=True, check=True)
    loaded = done.stdout.split()
    assert "pathing_py.grid" in loaded, loaded  # the listing works
    assert not [name for name in loaded if name.startswith("pathing_py.godot")], loaded
