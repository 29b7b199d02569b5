"""The in-engine tests (``tests/engine/in_godot/``): pytest inside real Godot with pythonscript, reported here.

The engine runs ``res://tests/engine/in_godot/run_tests.tscn`` on a copy of the
project; the run fails on pytest's own verdict, on any traceback, script or
engine error, on a crash, and when pytest's closing line is missing.
"""

import re
from pathlib import Path

import pytest

from tools.godot_headless import Godot, GodotRunError
from tools.godot_python import GodotPython

SUMMARY = re.compile(r"^=* *(?P<counts>\d+ (passed|failed|errors?)\b.*) in [\d.]+s\b.*$", re.MULTILINE)


def run_in_engine(godot_python: GodotPython, *pytest_arguments: str) -> str:
    """pytest inside the engine; its closing counts, or GodotRunError with the output."""
    arguments = ",".join(("-q", *pytest_arguments))
    output = godot_python.run(
        ["--fixed-fps", "60", "res://tests/engine/in_godot/run_tests.tscn", f"--pytest={arguments}"], timeout=900
    )
    summary = SUMMARY.search(output)
    if summary is None:
        raise GodotRunError(f"no pytest summary in the engine's output:\n{output[-8000:]}")
    counts = summary.group("counts")
    if not re.search(r"\d+ passed", counts) or "failed" in counts or "error" in counts:
        raise GodotRunError(f"in-engine tests: {counts}\n{output[-8000:]}")
    return counts


ENGINE_TESTS = sorted(path.name for path in (Path(__file__).parent / "in_godot").glob("test_*.py"))


@pytest.mark.parametrize("test_file", ENGINE_TESTS)
def test_in_engine_tests_pass(godot_python: GodotPython, test_file: str):
    """One engine run a file: a crash names its file and spares the others."""
    print(run_in_engine(godot_python, f"tests/engine/in_godot/{test_file}"))


@pytest.mark.parametrize(
    "body, reported",
    [
        ("assert 1 + 1 == 3", "failed"),
        # The engine prints an error and goes on.
        ("from godot import Node\n    node = Node.new()\n    node.get_node('missing')\n    node.free()", "ERROR:"),
        # What pythonscript prints for an exception in a node's callback, and goes on.
        (
            "import traceback\n    try:\n        1 / 0\n    except ZeroDivisionError:\n        traceback.print_exc()",
            "Traceback",
        ),
    ],
)
def test_a_broken_in_engine_test_fails_the_run(godot_python: GodotPython, body: str, reported: str):
    name = "tests/engine/in_godot/test_broken_on_purpose.py"
    path = godot_python.write(name, f"def test_passes():\n    {body}\n")
    try:
        with pytest.raises(GodotRunError, match=reported):
            run_in_engine(godot_python, name)
    finally:
        path.unlink()


def test_there_are_in_engine_tests():
    assert ENGINE_TESTS, "tests/engine/in_godot/ has no test_*.py: the parametrized run above would be skipped"


def test_a_game_without_numpy_says_what_to_install(godot_python: GodotPython, tmp_path, monkeypatch):
    """pythonscript's interpreter before the README's numpy step: our scripts do not load, and the reason is clear."""
    (tmp_path / "numpy").mkdir()
    (tmp_path / "numpy" / "__init__.py").write_text('raise ImportError("numpy blocked by the test")\n')
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))  # the embedded CPython reads it: numpy is found here first
    with pytest.raises(GodotRunError) as failure:
        godot_python.run(["res://scenes/demo.tscn", "--quit"], timeout=120)
    report = str(failure.value)
    assert "ImportError: pathing_py needs numpy" in report and "pip install numpy==1.24.4" in report, report[-3000:]
    assert "crashed" not in report and "did not finish" not in report, report[-3000:]


@pytest.mark.parametrize(
    "body, last_line",
    [
        ("quit(3)", "[godot exited with code 3]"),
        ("OS.kill(OS.get_process_id())", "[godot was ended by SIGKILL]"),
        ("quit()", ""),
    ],
)
def test_a_run_that_does_not_exit_cleanly_says_how_it_ended(godot: Godot, tmp_path, body: str, last_line: str):
    """A crash (a signal) or a script's exit code ends the output, which a failure's message shows: a run that
    printed nothing but the engine's banner once could not be told from a crash."""
    (tmp_path / "project.godot").write_text("config_version=4\n")
    script = tmp_path / "end.gd"
    script.write_text(f"extends SceneTree\n\nfunc _initialize():\n\t{body}\n")
    output = godot.run_script(tmp_path, script, timeout=60)
    assert output.rstrip().splitlines()[-1] == last_line if last_line else "[godot" not in output, output
