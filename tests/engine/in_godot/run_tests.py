"""The in-engine test run: pytest inside Godot with pythonscript, on ``tests/engine/in_godot/``.

``godot3-server --path COPY res://tests/engine/in_godot/run_tests.tscn`` runs the
tests of this folder in the engine's own Python, with this node as the scene
the tests add their nodes to (the ``scene`` fixture). Extra pytest arguments
come as ``--pytest=ARG,ARG`` (test files among them replace the folder). The exit code is pytest's; the host test
(``tests/engine/test_in_godot.py``) reads pytest's closing line from the output.
"""

import os

import pytest
from godot import OS, Node, exposed

from tests.engine.in_godot import engine_scene

PYTEST_PREFIX = "--pytest="


@exposed
class RunTests(Node):
    def _ready(self) -> None:
        engine_scene.set_root(self)
        arguments = []
        for argument in OS.get_cmdline_args():
            argument = str(argument)
            if argument.startswith(PYTEST_PREFIX):
                arguments += argument[len(PYTEST_PREFIX) :].split(",")
        if all(argument.startswith("-") for argument in arguments):
            arguments.append("tests/engine/in_godot")
        # No capture (-s): the engine's own errors must reach the output the host test reads.
        arguments = ["-s", "-p", "no:cacheprovider", "-o", "addopts=", "--rootdir", os.getcwd(), *arguments]
        code = 1
        try:
            code = int(pytest.main(arguments))
        finally:  # an exception in _ready would leave a headless engine running forever
            OS.set_exit_code(code)
            self.get_tree().quit(code)
