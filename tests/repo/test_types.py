"""Type checking: ``mypy`` with the settings of pyproject.toml ([tool.mypy]) reports no error in the files they
name (pathing_py, and bench/readme_tables.py, which the tests run).

It runs as a test so that the README's test command (and so CI) checks types
too; its output is the failure message.
"""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_mypy_finds_no_error_in_the_package():
    try:
        import mypy  # noqa: F401
    except ImportError:
        pytest.fail("mypy is not installed: pip install -e '.[test]'")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-error-summary"], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stdout + done.stderr
