"""Importing pathing_py: where numpy is missing (pythonscript's interpreter before the README's numpy step), and
what a plain import loads."""

import importlib
import subprocess
import sys

import pytest

BLOCK_NUMPY = "import sys; sys.modules['numpy'] = None; import pathing_py"
#: Prints the pathing_py modules a plain import loads, one a line.
LOADED_MODULES = (
    "import sys, pathing_py; print('\\n'.join(name for name in sys.modules if name.startswith('pathing_py')))"
)


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


def test_a_plain_import_leaves_the_tooling_out():
    """The library stands without its tooling (the command, scenarios, pictures): ``import pathing_py`` does not
    load ``pathing_py.tools``."""
    done = subprocess.run([sys.executable, "-c", LOADED_MODULES], capture_output=True, text=True, check=True)
    assert not [name for name in done.stdout.split() if name.startswith("pathing_py.tools")], done.stdout


@pytest.mark.parametrize(
    "old, new",
    [
        ("jams", "units.jams.untangling"),
        ("push_and_swap", "units.jams.push_and_swap"),
        ("spacetime", "units.spacetime"),
        ("dynamic", "units.dynamic"),
        ("local", "units.local"),
        ("movingai", "tools.movingai"),
    ],
)
def test_a_module_that_moved_still_answers_to_its_old_name_and_says_so(old, new):
    sys.modules.pop(f"pathing_py.{old}", None)
    with pytest.warns(DeprecationWarning, match=f"pathing_py.{old} moved to pathing_py.{new}"):
        moved = importlib.import_module(f"pathing_py.{old}")
    target = importlib.import_module(f"pathing_py.{new}")
    assert moved.__all__ == target.__all__ and all(
        getattr(moved, name) is getattr(target, name) for name in target.__all__
    )
