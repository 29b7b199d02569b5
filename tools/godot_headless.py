"""Running the real engine (Debian's godot3-server, headless Godot 3.2.3) from tests.

Tests that need Godot take the ``godot`` fixture from conftest: they skip when
the engine is missing, and fail instead when PATHING_PY_REQUIRE_GODOT=1 (CI).
"""

import os
import shutil
import signal
import subprocess
from pathlib import Path
from typing import List, Optional

GODOT_BINARY = "godot3-server"
REQUIRE_GODOT_VARIABLE = "PATHING_PY_REQUIRE_GODOT"
ERROR_MARKERS = ("SCRIPT ERROR", "Parse Error", "Debugger Break")


class GodotRunError(AssertionError):
    pass


class Godot:
    """One engine binary with a throwaway HOME, run with a timeout on every call."""

    def __init__(self, binary: str, home: Path):
        self.binary = binary
        self.home = home

    def run(
        self, args: List[str], *, timeout: float = 120, cwd: Optional[Path] = None, check_markers: bool = True
    ) -> str:
        """Run the engine; return stdout+stderr, or raise if it hung or (``check_markers``) printed a script error."""
        env = dict(os.environ, LANG="en_US.UTF-8", LC_ALL="C.UTF-8", HOME=str(self.home))
        try:
            done = subprocess.run(
                [self.binary, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
            )
        except subprocess.TimeoutExpired as error:
            caught = error.stdout  # bytes even with text=True
            said = caught.decode(errors="replace") if isinstance(caught, bytes) else caught
            raise GodotRunError(f"godot {' '.join(args)} did not finish in {timeout} s:\n{said}") from None
        output = done.stdout + done.stderr + _exit_line(done.returncode)
        for marker in ERROR_MARKERS if check_markers else ():
            if marker in output:
                raise GodotRunError(f"godot {' '.join(args)} reported {marker!r}:\n{output}")
        return output

    def run_script(self, project: Path, script: Path, *extra: str, timeout: float = 120) -> str:
        """Run a GDScript extending SceneTree in ``project`` (``-s``)."""
        return self.run(["--no-window", "--path", str(project), "-s", str(script), *extra], timeout=timeout)


def _exit_line(code: int) -> str:
    """A last line for a run that did not exit cleanly: a failure's message then tells a crash (a signal) from a
    script's own exit code."""
    if code == 0:
        return ""
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"\n[godot was ended by {name}]\n"
    return f"\n[godot exited with code {code}]\n"


def find_godot() -> Optional[str]:
    return shutil.which(GODOT_BINARY)


def godot_required() -> bool:
    return os.environ.get(REQUIRE_GODOT_VARIABLE) == "1"
