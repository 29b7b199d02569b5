"""GDScript games run by the real engine's own frames on a project copy, read back as JSON lines.

The GDScript files live in ``tests/engine/in_godot/`` (kept out of exports and of the
editor by ``tests/.gdignore``); each is a SceneTree script that prints one
JSON object a line and quits. Options go as ``--name=value``: the engine
takes a bare ``*.tscn`` argument for its main scene and would run it too.
"""

import json
from dataclasses import dataclass
from typing import Dict, List, Sequence

from .godot_headless import GodotRunError
from .godot_python import GodotPython

#: Physics frames per second of every run: ``--fixed-fps`` makes them as fast as the CPU allows, and repeatable.
FPS = 60


def json_lines(output: str) -> List[Dict]:
    """The JSON objects the script printed, in order (other output, e.g. the scene's own prints, skipped)."""
    return [json.loads(line) for line in output.splitlines() if line.startswith("{") and line.endswith("}")]


@dataclass
class GameRun:
    lines: List[Dict]  #: the JSON objects printed, in order
    output: str  #: everything the engine printed


def run_game(
    godot_python: GodotPython, script: str, *, timeout: float = 120, allowed: Sequence[str] = (), **options
) -> GameRun:
    """Run ``res://tests/engine/in_godot/<script>`` at ``FPS`` fixed frames with ``--name=value`` options.

    A run that crashes, hangs, prints a traceback or an engine error, or never
    prints its closing ``{"done": …}`` line raises GodotRunError.
    """
    arguments = [f"--{name}={value}" for name, value in options.items()]
    output = godot_python.run(
        ["--fixed-fps", str(FPS), "-s", f"res://tests/engine/in_godot/{script}", *arguments],
        timeout=timeout,
        allowed=allowed,
    )
    lines = json_lines(output)
    if not lines or "done" not in lines[-1]:
        raise GodotRunError(f"{script} did not finish:\n{output[-6000:]}")
    return GameRun(lines, output)
