import json
import os
import sys
from pathlib import Path

import pytest

from pathing_py.tools.movingai import BENCHMARKS_VARIABLE, find_benchmarks
from tests.support.bench_groups import tiny_map  # noqa: F401 (fixtures every test may take)
from tools.godot_headless import Godot, GodotRunError, find_godot, godot_required
from tools.godot_python import GodotPython, find_pythonscript

ROOT = Path(__file__).resolve().parent.parent

#: tests/engine/in_godot/ runs inside Godot (tests/engine/test_in_godot.py starts it there), not in this interpreter.
collect_ignore = [] if "godot" in sys.modules else ["engine/in_godot"]
BENCHMARKS = find_benchmarks(ROOT)

#: CI (.ci/run sets PATHING_PY_HYPOTHESIS=ci) draws the same examples at every run, so that whether a change lands
#: depends on the change, with no deadline (a busy machine makes examples slow, not wrong; speed is the benchmarks'
#: business); a run elsewhere draws new ones each time, and what it finds is kept as an @example.
#: The engine's Python (tests/engine/in_godot/ runs there) has no Hypothesis, and no property tests.
if "godot" not in sys.modules:
    from hypothesis import settings

    settings.register_profile("ci", derandomize=True, database=None, deadline=None)
    settings.load_profile(os.environ.get("PATHING_PY_HYPOTHESIS", "default"))


@pytest.fixture(scope="session")
def godot(tmp_path_factory) -> Godot:
    """The headless engine; skips without it unless PATHING_PY_REQUIRE_GODOT=1 makes that a failure."""
    binary = find_godot()
    if binary is None:
        message = "godot3-server is not installed (apt-get install -y godot3-server)"
        if godot_required():
            pytest.fail(message)
        pytest.skip(message)
    return Godot(binary, tmp_path_factory.mktemp("godot-home"))


@pytest.fixture(scope="session")
def godot_api(godot, tmp_path_factory) -> dict:
    """The engine's full API as written by --gdnative-generate-json-api, keyed by class name."""
    path = tmp_path_factory.mktemp("godot-api") / "api.json"
    try:
        godot.run(["--no-window", "--gdnative-generate-json-api", str(path)], timeout=120)
    except GodotRunError:
        pass  # the engine aborts after writing the file; the file is what counts
    if not path.exists():
        pytest.fail("godot3-server did not write api.json")
    return {entry["name"]: entry for entry in json.loads(path.read_text())}


@pytest.fixture(scope="session")
def movingai_dir() -> Path:
    if BENCHMARKS is None:
        pytest.fail(f"Moving AI benchmark maps not found in ../shared above {ROOT}: set {BENCHMARKS_VARIABLE}")
    return BENCHMARKS


@pytest.fixture(scope="session")
def pythonscript_dist() -> Path:
    """The folder holding pythonscript 0.50's ``addons/pythonscript/`` and ``pythonscript.gdnlib``; skips without it.

    With PATHING_PY_REQUIRE_GODOT=1 (CI) a missing pythonscript fails instead.
    """
    pythonscript = find_pythonscript()
    if pythonscript is None:
        message = (
            "pythonscript 0.50 not found: run `bash ../shared/pythonscript/build.sh` (it prints the folder) "
            "and set PYTHONSCRIPT_DIST to it, or install addons/pythonscript/ into this checkout"
        )
        if godot_required():
            pytest.fail(message)
        pytest.skip(message)
    return pythonscript


@pytest.fixture(scope="session")
def godot_python(godot, pythonscript_dist, tmp_path_factory) -> GodotPython:
    """A copy of the project with pythonscript 0.50 in it, assets imported (see ``pythonscript_dist``)."""
    return GodotPython.make(godot, tmp_path_factory.mktemp("godot-python") / "project", pythonscript_dist)
