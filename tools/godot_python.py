"""Real Godot with real Python: copies of the project with pythonscript 0.50 added, run headless.

pythonscript (godot-python 0.50) is found as ``$PYTHONSCRIPT_DIST``, else as
the folder that ``shared/pythonscript/build.sh`` prints (the nearest
``shared/`` above the checkout; the script builds it the first time, about 7
minutes), else as an ``addons/pythonscript/`` a user installed into this
checkout. A project copy gets its ``addons/pythonscript/`` and
``pythonscript.gdnlib`` beside ours, as the Asset Library puts them into a
user's project.

Every run is checked for what a player would see go wrong: a Python
traceback, a script or engine error, a crash. pythonscript prints Python
exceptions raised in callbacks and goes on, and the engine exits 0 after a
parse error, so the output is what tells.
"""

import os
import shutil
import subprocess
from pathlib import Path
from typing import Iterable, List, Optional, Sequence

from .godot_headless import Godot, GodotRunError

ROOT = Path(__file__).resolve().parent.parent
PYTHONSCRIPT_VARIABLE = "PYTHONSCRIPT_DIST"
BUILD_SCRIPT = Path("shared") / "pythonscript" / "build.sh"
#: Seconds build.sh may take on a fresh machine (it compiles pythonscript: about 7 minutes on 2 cores).
BUILD_TIMEOUT = 1800

#: Output that fails a run: Python exceptions, script and engine errors, crashes.
FAILURE_MARKERS = (
    "Traceback (most recent call last)",
    "SCRIPT ERROR",
    "Parse Error",
    "Debugger Break",
    "ERROR:",
    "Program crashed with signal",
    "handle_crash",
    "Segmentation fault",
    "Aborted",
    # pythonscript's own lines for a script it could not load (printed, not reported as engine errors).
    "doesn't expose any class to Godot",
    "Got exception loading",
)

#: What a project copy holds of this checkout (no caches, venvs, builds or VCS data); ``tools`` for the engine
#: runners that tests/conftest.py imports, in the engine's pytest too.
PROJECT_ENTRIES = ("project.godot", "export_presets.cfg", "addons", "pathing_py", "scenes", "tests", "tools")
IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc", ".import", ".pytest_cache", ".hypothesis", "pythonscript")


def build_script() -> Optional[Path]:
    """``shared/pythonscript/build.sh`` of the nearest ``shared/`` above the checkout, or None."""
    for folder in ROOT.parents:
        if (folder / BUILD_SCRIPT).is_file():
            return folder / BUILD_SCRIPT
    return None


def find_pythonscript() -> Optional[Path]:
    """The folder holding ``addons/pythonscript/`` and ``pythonscript.gdnlib``, or None."""

    def complete(folder: Path) -> bool:
        return (folder / "addons" / "pythonscript").is_dir() and (folder / "pythonscript.gdnlib").is_file()

    named = os.environ.get(PYTHONSCRIPT_VARIABLE)
    if named and complete(Path(named)):
        return Path(named)
    script = build_script()
    if script is not None:
        done = subprocess.run(
            ["bash", str(script)], capture_output=True, text=True, timeout=BUILD_TIMEOUT, stdin=subprocess.DEVNULL
        )
        lines = done.stdout.strip().splitlines()
        if done.returncode == 0 and lines and complete(Path(lines[-1])):
            return Path(lines[-1])
        raise GodotRunError(f"{script} failed (exit {done.returncode}):\n{done.stderr[-3000:]}")
    return ROOT if complete(ROOT) else None


def failures(output: str, allowed: Sequence[str] = ()) -> List[str]:
    """The lines of ``output`` that carry a failure marker, but for those containing an ``allowed`` text."""
    return [
        line
        for line in output.splitlines()
        if any(marker in line for marker in FAILURE_MARKERS) and not any(text in line for text in allowed)
    ]


class GodotPython:
    """A copy of the project with pythonscript in it, and the engine to run it with."""

    def __init__(self, godot: Godot, project: Path, pythonscript: Path):
        self.godot = godot
        self.project = project
        self.pythonscript = pythonscript

    @classmethod
    def make(cls, godot: Godot, destination: Path, pythonscript: Path) -> "GodotPython":
        """Copy the project and pythonscript into ``destination`` and import its assets (``-e --quit``)."""
        destination.mkdir(parents=True, exist_ok=True)
        for entry in PROJECT_ENTRIES:
            source = ROOT / entry
            if source.is_dir():
                shutil.copytree(source, destination / entry, ignore=IGNORED)
            else:
                shutil.copy(source, destination / entry)
        copy = cls.beside(godot, destination, pythonscript)
        copy.run_editor(["--quit"])
        return copy

    @classmethod
    def beside(cls, godot: Godot, project: Path, pythonscript: Path) -> "GodotPython":
        """A project folder with pythonscript added, as a user adds it from the Asset Library; nothing run."""
        # Symbolic links: the runtime is large and read-only, the engine follows links as files.
        (project / "addons" / "pythonscript").symlink_to(pythonscript / "addons" / "pythonscript")
        shutil.copy(pythonscript / "pythonscript.gdnlib", project / "pythonscript.gdnlib")
        return cls(godot, project, pythonscript)

    def run(self, args: List[str], *, timeout: float = 300, allowed: Sequence[str] = ()) -> str:
        """Run the engine on the copy; the output, or GodotRunError if it hung, crashed or reported an error."""
        output = self.godot.run(
            ["--no-window", "--path", str(self.project), *args], timeout=timeout, check_markers=False
        )
        found = failures(output, allowed)
        if found:
            raise GodotRunError(f"godot {' '.join(args)} reported:\n" + "\n".join(found[:20]) + f"\n\n{output[-8000:]}")
        return output

    def run_editor(self, args: List[str], *, timeout: float = 300, allowed: Sequence[str] = ()) -> str:
        """The headless editor (``-e``) on the copy, retried once when the engine aborts while exiting.

        Godot 3.2.3's headless editor sometimes aborts in a worker thread at exit
        (GODOT_NOTES.md); a second abort, or anything else, fails.
        """
        try:
            return self.run(["-e", *args], timeout=timeout, allowed=allowed)
        except GodotRunError as error:
            if "Aborted" not in str(error) and "crashed" not in str(error):
                raise
            return self.run(["-e", *args], timeout=timeout, allowed=allowed)

    def write(self, relative: str, text: str) -> Path:
        """A file of the copy (a test scene or script), written anew."""
        path = self.project / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path


def test_counts(output: str) -> Iterable[str]:
    """pytest's closing lines in ``output`` (``== 12 passed in 3.1s ==``)."""
    return [line for line in output.splitlines() if " passed" in line or " failed" in line or " error" in line]
