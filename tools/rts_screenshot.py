#!/usr/bin/env python3
"""Take ``docs/rts_demo.png``: the RTS demo running in Godot with a display, its blue squad marching, debug drawing on.

Usage (from the checkout; ``--out`` defaults to docs/rts_demo.png)::

    python3 -m tools.rts_screenshot [--out PATH]

It copies the project with pythonscript 0.50 into a temporary folder (as the
in-engine tests do: tools/godot_python.py, ``$PYTHONSCRIPT_DIST`` or what
``../shared/pythonscript/build.sh`` prints; godot3-server imports its assets)
and runs, under a virtual X display::

    xvfb-run -a -s '-screen 0 1280x720x24' godot3-runner --audio-driver Dummy --path COPY --fixed-fps 60 \\
        -s res://tests/engine/in_godot/rts_game.gd --scenario=screenshot --out=PATH

rts_game.gd plays scenes/rts_demo.tscn through its controls as
tests/engine/test_rts_demo.py does (a box over the blue squad, debug drawing
on, a right-click across the river, a wall on the squad's route once it
marches) and saves the viewport 60 frames after the wall. Needs
``apt-get install godot3-runner xvfb`` (the headless godot3-server renders
nothing); the in-engine tests do not.
"""

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from .engine_runs import FPS, json_lines
from .godot_headless import GODOT_BINARY, Godot
from .godot_python import GodotPython, failures, find_pythonscript

ROOT = Path(__file__).resolve().parent.parent
#: The screen of the virtual display: larger than the game's 1024x600 window.
XVFB_SCREEN = "-screen 0 1280x720x24"
RUNNER = "godot3-runner"
#: What pythonscript 0.50 reports in a build without the editor: it asks for the VisualScriptEditor singleton,
#: which only editor builds have.
NO_EDITOR_SINGLETON = 'get_singleton_object: Condition "!E" is true'


def screenshot_command(project: Path, out: Path) -> list:
    return [
        "xvfb-run",
        "-a",
        "-s",
        XVFB_SCREEN,
        RUNNER,
        "--audio-driver",
        "Dummy",
        "--path",
        str(project),
        "--fixed-fps",
        str(FPS),
        "-s",
        "res://tests/engine/in_godot/rts_game.gd",
        "--scenario=screenshot",
        f"--out={out}",
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "rts_demo.png")
    out = parser.parse_args().out.resolve()
    pythonscript = find_pythonscript()
    if pythonscript is None:
        print("pythonscript 0.50 not found: set PYTHONSCRIPT_DIST (see tools/godot_python.py)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="rts-screenshot-") as folder:
        home = Path(folder) / "home"
        home.mkdir()
        copy = GodotPython.make(Godot(GODOT_BINARY, home), Path(folder) / "project", pythonscript)
        command = screenshot_command(copy.project, out)
        print(" ".join(command))
        done = subprocess.run(
            command,
            capture_output=True,
            text=True,
            timeout=300,
            env=dict(os.environ, HOME=str(home), LANG="en_US.UTF-8", LC_ALL="C.UTF-8"),
        )
    output = done.stdout + done.stderr
    shots = [line for line in json_lines(output) if line.get("step") == "screenshot"]
    problems = failures(output, allowed=(NO_EDITOR_SINGLETON,))
    if done.returncode != 0 or problems or not shots or shots[0]["error"] != 0:
        print(
            f"the screenshot run failed (exit {done.returncode}):\n" + "\n".join(problems) + output[-4000:],
            file=sys.stderr,
        )
        return 1
    width, height = shots[0]["size"]
    print(f"{out}: {width:.0f}x{height:.0f}, {out.stat().st_size // 1024} KB, frame {shots[0]['frame']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
