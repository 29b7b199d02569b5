"""Importing pathing_py where numpy is missing (pythonscript's interpreter before the README's numpy step)."""

import subprocess
import sys

BLOCK_NUMPY = "import sys; sys.modules['numpy'] = None; import pathing_py"


def test_without_numpy_the_import_says_what_to_install():
    done = subprocess.run([sys.executable, "-c", BLOCK_NUMPY], capture_output=True, text=True)
    assert done.returncode != 0
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: pathing_py needs numpy") and "pip install numpy==1.24.4" in last, done.stderr
